"""The cost of one action on the web server's path, and how often the path computes the
legal choices, this tree against another commit.

Run ``python benchmarks/server_action.py [--against REF] [--games N] [--rounds R]
[--synchronous OFF|NORMAL|FULL] [--json]`` from a checkout.  A table of four people
(four-handed, default rules) plays ``N`` games to the end; each action is chosen at random
(seeded) from the choices its seat is shown and goes through ``table.play.act`` (``Table.act``
in trees from before the table's parts) as a page's does: checked, stored in SQLite
(``synchronous=OFF`` by default, so that the figure is the processor's cost and not the
disk's), applied, and the new state sent to the four connections (their sockets do
nothing).  Three figures:

* **act**: microseconds of one ``Play.act``, median and mean over every action;
* **deal**: the deal's share of it, timed alone over the same actions: the observation
  of the seat to move (the choices its page shows), ``Deal.check``, then ``Deal.apply``;
  **deal bid** the same over the actions before the play alone (bids, the dealer's
  discard), whose legal choices are a list to compute (a card played is checked
  against the hand's mask); **check+apply bid** the check and the apply alone of those
  actions, once the seat was shown its choices;
* **legal per action**: calls of ``Deal.legal_action_ids`` inside ``Play.act``.

With ``--against REF`` the same is measured for REF's ``euchre`` package too (taken out
of git with ``git archive`` into a temporary folder); each tree runs in a process of its
own, pinned to one core, the two taking turns for ``R`` rounds, and the medians of the
rounds are quoted.

>>> figures = measure(games=1)
>>> sorted(figures)  # doctest: +NORMALIZE_WHITESPACE
['act_mean_us', 'act_median_us', 'actions', 'check_apply_bid_us', 'deal_bid_us', 'deal_us',
 'legal_per_action']
>>> figures["actions"] > 50, figures["legal_per_action"] <= 1.0
(True, True)
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ("act_median_us", "act_mean_us", "deal_us", "deal_bid_us", "check_apply_bid_us",
           "legal_per_action")
COPIES = 20
"""Copies of each state the deal's share is timed on (the mean is kept)."""


def _server() -> tuple[Any, Any, Any]:
    """``Connection``, ``Settings`` and ``Tables`` of the tree imported (the modules were
    one, ``euchre.server.tables``, before the split)."""
    try:
        outbox = importlib.import_module("euchre.server.outbox")
        table = importlib.import_module("euchre.server.table")
        registry = importlib.import_module("euchre.server.registry")
    except ImportError:  # a tree from before the split
        outbox = table = registry = importlib.import_module("euchre.server.tables")
    return outbox.Connection, table.Settings, registry.Tables


def _parts(table: Any) -> tuple[Any, Any]:
    """The table's play and audience (:mod:`euchre.server.play`, :mod:`.audience`): in a
    tree from before the table's parts, the table answered for both itself."""
    return getattr(table, "play", table), getattr(table, "audience", table)


async def _nowhere(text: str) -> None:
    pass


async def _play(games: int, seed: int, synchronous: str, folder: Path
                ) -> tuple[list[float], int, list[tuple[int, list[tuple[int, str]]]]]:
    """Play ``games`` games; the time of each ``Play.act`` (ns), the legal choices
    computed inside them, and each game's seed and actions."""
    from euchre.deal import Deal
    from euchre.rules import Rules
    from euchre.server.app import open_storage
    from euchre.server.storage import PlaceRecord

    connection, settings, registry = _server()
    counted = [False, 0]
    compute = Deal.legal_action_ids

    def counting(deal: Deal) -> list[int]:
        if counted[0]:
            counted[1] += 1
        return compute(deal)

    Deal.legal_action_ids = counting  # type: ignore[method-assign, assignment]
    # the same games in every tree and run: the tables' seeds are drawn from this seed
    draw_seed, secrets.randbits = secrets.randbits, random.Random(seed).getrandbits  # type: ignore[assignment]
    store = open_storage(folder / "bench.sqlite3", synchronous=synchronous)  # type: ignore[arg-type]
    tables = registry(store, settings())
    rng = random.Random(seed)
    times: list[float] = []
    played = []
    try:
        for g in range(games):
            places = [PlaceRecord(p, "you" if p == 0 else "friend", f"P{p}", None, f"t{g}-{p}",
                                  True) for p in range(4)]
            table = await tables.create(f"bench {g}", Rules(players=4), places)
            conns = {p: connection(_nowhere, p) for p in range(4)}
            play, audience = _parts(table)
            for conn in conns.values():
                await audience.join(conn)
            while not play.is_over:
                deal = table.match.game.deal
                seat = deal.to_move
                text = str(rng.choice(deal.observation(seat).legal_actions))
                conn = conns[table.match.place_at[seat]]
                counted[0] = True
                t0 = time.perf_counter_ns()
                refused = await play.act(conn, text, table.match.seq)
                t1 = time.perf_counter_ns()
                counted[0] = False
                assert refused is None, refused
                times.append(t1 - t0)
                await asyncio.sleep(0)  # the connections' tasks send what was queued
            played.append((table.match.seed, list(table.match.actions)))
        await tables.stop()
        await store.close()
    finally:
        Deal.legal_action_ids = compute  # type: ignore[method-assign]
        secrets.randbits = draw_seed
    return times, int(counted[1]), played


def _deal_share(played: list[tuple[int, list[tuple[int, str]]]]
                ) -> tuple[float, float, float]:
    """Mean ns of the deal's calls on the server's path, per action and per action before
    the play (bids, discards, calls: where the legal choices are a list, not a mask): the
    observation of the seat to move, the check, the apply (on fresh copies of the state);
    and, before the play, the check and the apply alone once the seat was shown its
    choices (the observation made beforehand, not timed)."""
    from euchre.actions import Action, ActionKind
    from euchre.game import Game
    from euchre.rules import Rules

    total = count = bids = bid_count = checks = 0
    for seed, actions in played:
        game = Game(Rules(players=4), seed)
        for seat, text in actions:
            action = Action.parse(text)
            copies = [game.deal.copy() for _ in range(COPIES)]
            t0 = time.perf_counter_ns()
            for deal in copies:
                deal.observation(seat)
                deal.check(action, seat)
                deal.apply(action, seat)
            took = time.perf_counter_ns() - t0
            total += took
            count += COPIES
            if action.kind is not ActionKind.PLAY:
                bids += took
                bid_count += COPIES
                copies = [game.deal.copy() for _ in range(COPIES)]
                for deal in copies:
                    deal.observation(seat)
                t0 = time.perf_counter_ns()
                for deal in copies:
                    deal.check(action, seat)
                    deal.apply(action, seat)
                checks += time.perf_counter_ns() - t0
            game.apply(action)
    return total / count, bids / max(1, bid_count), checks / max(1, bid_count)


def measure(games: int = 5, seed: int = 1, synchronous: str = "OFF") -> dict[str, float]:
    """The figures of the tree imported: ``act_median_us``, ``act_mean_us``, ``deal_us``
    (microseconds), ``legal_per_action`` and the number of ``actions``."""
    with tempfile.TemporaryDirectory(prefix="server_action_") as folder:
        times, legal, played = asyncio.run(_play(games, seed, synchronous, Path(folder)))
    deal, bids, checks = _deal_share(played)
    return {
        "act_median_us": statistics.median(times) / 1000,
        "act_mean_us": statistics.fmean(times) / 1000,
        "deal_us": deal / 1000,
        "deal_bid_us": bids / 1000,
        "check_apply_bid_us": checks / 1000,
        "legal_per_action": legal / len(times),
        "actions": len(times),
    }


def _tree_at(ref: str) -> Path:
    """The ``euchre`` package as it is at git ``ref``, in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="server_action_tree_"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "euchre"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def _child(tree: Path, args: argparse.Namespace) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, __file__, "--child", "--games", str(args.games), "--seed",
         str(args.seed), "--synchronous", args.synchronous],
        check=True, capture_output=True, text=True, env=env, cwd=tree).stdout
    figures: dict[str, float] = json.loads(out)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--against", default="", help="a git ref to compare with")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", default="OFF", choices=("OFF", "NORMAL", "FULL"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    if args.child:
        print(json.dumps(measure(args.games, args.seed, args.synchronous)))
        return 0
    trees = {"this": ROOT}
    if args.against:
        trees["against"] = _tree_at(args.against)
    runs: dict[str, list[dict[str, float]]] = {k: [] for k in trees}
    for r in range(args.rounds):
        for key in (list(trees) if r % 2 == 0 else list(reversed(trees))):
            runs[key].append(_child(trees[key], args))
    medians = {k: {f: statistics.median(run[f] for run in rs) for f in FIGURES}
               for k, rs in runs.items()}
    from euchre.jobs.bench import cpu_model  # this tree's; a child imports the tree it times

    if args.json:
        print(json.dumps({"cpu": cpu_model(), "against": args.against, "games": args.games,
                          "rounds": args.rounds, "synchronous": args.synchronous,
                          "actions": runs["this"][0]["actions"], "medians": medians}))
        return 0
    print(f"CPU: {cpu_model()}; {args.games} four-handed games ({runs['this'][0]['actions']:.0f}"
          f" actions), SQLite synchronous={args.synchronous}, median of {args.rounds} rounds")
    print(f"{'figure':<18}" + "".join(f"{k:>12}" for k in medians))
    for f in FIGURES:
        print(f"{f:<18}" + "".join(f"{medians[k][f]:>12.2f}" for k in medians))
    return 0


if __name__ == "__main__":
    sys.exit(main())
