"""Random play of ``python_euchre`` through ``pyspiel``, against OpenSpiel's C++ ``euchre``.

Run ``python benchmarks/openspiel_game.py [--deals N] [--repeats R] [--seed S] [--json]``
(needs the ``bench`` extra).  Both games are loaded with ``pyspiel.load_game`` and played
by the same loop, in one process pinned to one core (the affinity is restored after):

    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    state.returns()

``python_euchre`` plays OpenSpiel's rules (four-handed, 24 cards, stick the dealer, the
dealer must take up), so the two games are the same deal; the repeats interleave the two
sides (the one that goes first alternates) and the report gives medians and the ratio
of deals per second (``python_euchre`` over ``euchre``).  The goal is a ratio of at
least 0.5.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from importlib import metadata
from typing import Any

from euchre.jobs.bench import cpu_model

OURS = ("python_euchre(players=4,deck=24,stick_the_dealer=true,dealer_must_take_up=true,"
        "defend_alone=false)")
THEIRS = "euchre"


def play(game: Any, deals: int, rng: random.Random) -> tuple[float, int]:
    """Seconds for ``deals`` random deals of ``game``, and the nodes visited.

    A node is a chance outcome (a card dealt) or a player's action, so a deal visits more
    nodes than its 20 or so card plays:

    >>> import pyspiel
    >>> seconds, nodes = play(pyspiel.load_game(THEIRS), 2, random.Random(0))
    >>> seconds > 0, nodes > 2 * 20
    (True, True)
    """
    nodes = 0
    start = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            nodes += 1
        state.returns()
    return time.perf_counter() - start, nodes


def main(argv: list[str] | None = None) -> int:
    """Time both games and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--core", type=int, default=None, help="the core to pin (default: last)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    import pyspiel

    import euchre.envs.openspiel  # noqa: F401 - registers python_euchre

    games = {"python_euchre": pyspiel.load_game(OURS), "euchre": pyspiel.load_game(THEIRS)}
    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    core = None
    if before is not None:
        core = max(before) if args.core is None else args.core
        os.sched_setaffinity(0, {core})
    rates: dict[str, list[float]] = {name: [] for name in games}
    nodes: dict[str, int] = {}
    ratios: list[float] = []
    try:
        for game in games.values():  # warm-up: outcome lists, numba, caches
            play(game, 50, random.Random(args.seed))
        for r in range(args.repeats):
            order = list(games) if r % 2 == 0 else list(reversed(games))
            here = {}
            for name in order:
                seconds, n = play(games[name], args.deals, random.Random(args.seed + r))
                here[name] = args.deals / seconds
                rates[name].append(here[name])
                nodes[name] = n
            ratios.append(here["python_euchre"] / here["euchre"])
            print(f"repeat {r + 1}/{args.repeats}: " + ", ".join(
                f"{k} {v:,.0f} deals/s" for k, v in here.items()), file=sys.stderr)
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
    report = {
        "command": "python benchmarks/openspiel_game.py " + " ".join(argv or sys.argv[1:]),
        "deals": args.deals,
        "repeats": args.repeats,
        "core": core,
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "open_spiel": metadata.version("open-spiel"),
        "deals_per_second": {k: statistics.median(v) for k, v in rates.items()},
        "range": {k: [min(v), max(v)] for k, v in rates.items()},
        "nodes_per_deal": {k: nodes[k] / args.deals for k in nodes},
        "ratio": statistics.median(ratios),
        "ratio_range": [min(ratios), max(ratios)],
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, rate in report["deals_per_second"].items():
            low, high = report["range"][name]
            print(f"{name:14} {rate:10,.0f} deals/s ({low:,.0f}-{high:,.0f}), "
                  f"{report['nodes_per_deal'][name]:.1f} nodes a deal")
        print(f"ratio python_euchre / euchre: {report['ratio']:.2f} "
              f"({report['ratio_range'][0]:.2f}-{report['ratio_range'][1]:.2f}); goal >= 0.5")
        print(f"cpu: {report['cpu']}, core {core}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
