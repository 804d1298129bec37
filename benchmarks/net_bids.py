"""Bids judged by the learned value (issue 23, item 3): the expert whose every decision
before the first lead is valued by the net's value head instead of PIMC's open-hand solves.

Run ``python benchmarks/net_bids.py [--players 4] [--sets N] [--seed S] [--worlds 32]
[--blend W] [--pruned] [--expert] [--log FILE]``, or ``--agree DEALS`` (see
:func:`agreement`).

The variant (:class:`NetBidsBot`) is ``expert:WORLDS`` (fixed worlds, no time budget) in the
play of the cards.  Before the first lead (bids, alone, trump, the dealer's discard, the
dummy merge, the five-handed call, defending alone) it values each legal action ``a`` by
the net's value (:func:`euchre.bots.net.net_for`): one world consistent with what the seat
knows (:func:`euchre.worlds.sample_world`; the tensor depends only on what the seat knows),
``a`` applied to it on the core state, the acting seat's observation encoded
(:func:`euchre.vector.observe`) and passed through the net; the seat's deal outcome in
points, no game bonus.  A deal thrown in by ``a`` is worth 0.  ``--pruned`` adds a second
arm that values only the candidates the expert itself weighs (going alone only with a hand that
could march; in round 2 the two best suits).  ``--blend W`` values the expert's candidates
by ``W`` times the net's value plus ``1 - W`` times the expert's corrected PIMC value (1,
the default: the net alone).  Nothing is registered: the bots are built here, never by
name, so the shipped bots cannot change.

The match is a duplicate tournament against ``pimc:WORLDS`` played as
``euchre tournament --bots expert:WORLDS,pimc:WORLDS --seed S`` plays it (the same deals,
seatings, bot seeds, running scores and chunks of :data:`euchre.jobs.tournament.CHUNK_SIZE`
sets, without the overtime deals, which count for no points a deal): the margin is the
variant's points a deal minus ``pimc``'s, the paired per-set difference, with its 95%
interval.  ``--expert`` plays ``expert:WORLDS`` against ``pimc`` on the same sets beside it,
set by set.  ``--log`` writes a JSON line per set, so a run stopped early still counts.

With the tournament's own bots it is the tournament's margin:

>>> from euchre import Rules
>>> from euchre.bots import make_bot
>>> from euchre.jobs.tournament import Tournament, run_tournament
>>> rules = Rules(players=4)
>>> basic = lambda rng: make_bot("basic", rng)
>>> margins = list(match(rules, basic, basic, sets=3, seed=1))
>>> ours = mean_ci(margins)[0]
>>> theirs = run_tournament(Tournament(rules, ("basic", "basic"), deals=3, seed=1))
>>> abs(ours - theirs.results[0].margin) < 1e-9
True

The variant values every legal bid and takes the best:

>>> from euchre import Deal
>>> deal = Deal.random(rules, dealer=0, seed=2)
>>> bot = NetBidsBot(1, samples=4)
>>> action = bot.act(deal.observation(deal.to_move))
>>> sorted(str(a) for a in bot.last_values), action in deal.legal_actions()
(['order', 'order alone', 'pass'], True)
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from euchre import Deal, Rules, core, vector
from euchre.actions import Action
from euchre.bots import Bot, play_deal
from euchre.bots.evaluation import _PrePlayEval
from euchre.bots.expert import DEFAULT_SAMPLES, ExpertBot, PimcBot
from euchre.bots.knowledge import _Know
from euchre.bots.net import NetModel, net_for
from euchre.deal import Observation, Phase
from euchre.jobs.bench import cpu_model
from euchre.jobs.tournament import CHUNK_SIZE, Tournament, mean_ci
from euchre.worlds import sample_world, view_from_observation

BotFactory = Callable[[random.Random], Bot]


class NetBidsBot(ExpertBot):
    """The expert whose pre-play values are the net's value head (blended with its own
    corrected PIMC values by ``blend``; 1.0: the net's alone).  Fixed worlds, no time
    budget, as ``expert:WORLDS``."""

    name = "netbids"

    def __init__(
        self,
        seed: int | random.Random | None = None,
        samples: int = DEFAULT_SAMPLES,
        blend: float = 1.0,
        pruned: bool = False,
    ) -> None:
        super().__init__(seed, samples, time_budget=None)
        self.blend = blend
        self.pruned = pruned
        """Value only the candidates the expert weighs (going alone only with a hand
        that could march, the two best suits in round 2), not every legal action."""

    def candidates(self, obs: Observation, everything: bool) -> list[Action]:
        """The actions to value: every legal one, or the expert's candidates."""
        if not self.pruned or everything or obs.phase is Phase.DUMMY:
            return list(obs.legal_actions)
        ids = set(_PrePlayEval(self, _Know(obs), False)._candidates())
        return [a for a in obs.legal_actions if a.id in ids]

    def net_values(
        self, obs: Observation, legal: Sequence[Action] | None = None
    ) -> dict[Action, float]:
        """The net's value of each of ``legal`` (every legal action by default) for
        ``obs``'s seat (one sampled world)."""
        model: NetModel | None = net_for(obs.rules)
        if model is None:
            raise ValueError("no net model for these rules")
        world = sample_world(view_from_observation(obs), obs.seat, self.rng.getrandbits(32))
        legal = obs.legal_actions if legal is None else legal
        rows, over = [], []
        for a in legal:
            st = world.copy()
            core.apply_action(st, a.id)
            over.append(bool(core.is_over(st)))  # before play: only a throw-in, worth 0
            rows.append(vector.observe(st, obs.seat))
        _, value = model.logits_and_value(np.stack(rows))
        return {a: 0.0 if o else float(v) for a, o, v in zip(legal, over, value, strict=True)}

    def _values(
        self, obs: Observation, everything: bool
    ) -> tuple[dict[Action, float], dict[Action, float]]:
        if obs.phase is Phase.PLAY:
            return super()._values(obs, everything)
        if self.blend >= 1.0:
            return self.net_values(obs, self.candidates(obs, everything)), {}
        # blended: over the expert's own candidates, its PIMC worlds drawn first
        values, tie = super()._values(obs, everything)
        net = self.net_values(obs, [a for a in obs.legal_actions if a in values])
        w = self.blend
        return {a: w * net[a] + (1 - w) * values[a] for a in net}, tie


def match(
    rules: Rules, first: BotFactory, second: BotFactory, sets: int, seed: int, start: int = 0
) -> Iterator[float]:
    """The first bot's paired margin (points a deal over the second's) on each deal set
    of the duplicate tournament of two bots with ``seed``, set by set; from set ``start``
    (a multiple of :data:`~euchre.jobs.tournament.CHUNK_SIZE`: the sets a longer run plays
    there) to set ``sets - 1``."""
    if start % CHUNK_SIZE:
        raise ValueError(f"a match starts at a chunk of {CHUNK_SIZE} sets, not at {start}")
    t = Tournament(rules, ("first", "second"), deals=max(sets, 1), seed=seed)
    n, table = rules.players, t.seatings
    occupancy = [sum(seating.count(b) for seating in table) for b in (0, 1)]
    state: dict[int, tuple[list[Bot], list[int]]] = {}
    for index in range(start, sets):
        if index % CHUNK_SIZE == 0:  # a chunk: fresh bots and games, as the tournament
            chunk = index // CHUNK_SIZE
            state = {
                r: (
                    [
                        (first, second)[b](random.Random(f"{seed}/bot/{chunk}/{r}/{s}"))
                        for s, b in enumerate(seating)
                    ],
                    [0] * n,
                )
                for r, seating in enumerate(table)
            }
        sums = [0.0, 0.0]
        for r, seating in enumerate(table):
            bots, scores = state[r]
            deal = play_deal(t.deal(index, r, scores), bots)
            for s, p in enumerate(deal.result.points):
                sums[seating[s]] += p
                scores[s] += p
            if max(scores) >= rules.target:
                scores[:] = [0] * n
        yield sums[0] / occupancy[0] - sums[1] / occupancy[1]


def play_arms(
    rules: Rules,
    arms: dict[str, BotFactory],
    opponent: BotFactory,
    sets: int,
    seed: int,
    start: int = 0,
    log: str | None = None,
) -> list[dict[str, Any]]:
    """Each arm's :func:`match` against ``opponent`` on the same sets, set by set: a row
    ``{"set": index, arm: margin, ...}`` per set, also appended to the JSON-lines file
    ``log`` as it is played, so a run stopped early still counts."""
    out = open(log, "a") if log else None  # noqa: SIM115
    rows: list[dict[str, Any]] = []
    try:
        runs = {label: match(rules, bot, opponent, sets, seed, start)
                for label, bot in arms.items()}
        for index in range(start, sets):
            row: dict[str, Any] = {"set": index}
            for label, run in runs.items():
                row[label] = next(run)
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
    finally:
        if out is not None:
            out.close()
    return rows


def arm_figures(rows: Sequence[dict[str, Any]], labels: Sequence[str]) -> dict[str, Any]:
    """Each arm's margin of the rows of :func:`play_arms`, and where an ``expert`` arm
    played beside, every other arm's paired difference from it (``ARM_minus_expert``).

    >>> arm_figures([{"set": 0, "x": 1.0, "expert": 0.5}, {"set": 1, "x": 0.0, "expert": 0.5}],
    ...             ["x", "expert"])["x_minus_expert"]["margin"]
    0.0
    """
    out: dict[str, Any] = {}
    for label in labels:
        got = [r[label] for r in rows if label in r]
        if got:
            out[label] = _figure(got)
    for label in labels:
        both = [r[label] - r["expert"] for r in rows if label in r and "expert" in r]
        if label != "expert" and both:
            out[f"{label}_minus_expert"] = _figure(both)
    return out


def agreement(rules: Rules, deals: int, seed: int, worlds: int) -> dict[str, list[int]]:
    """How often the variant (every legal action valued) takes the expert's action before
    the first lead: deals played by ``expert:WORLDS`` at every seat; at each pre-play
    decision with a choice both bots choose.  ``{phase: [differ, decisions]}``.

    >>> agreement(Rules(players=4), 1, 0, 2)["BID_TURNUP"][1] >= 1
    True
    """
    out: dict[str, list[int]] = {}
    for i in range(deals):
        deal = Deal.random(rules, dealer=i % rules.players, seed=seed + i)
        expert = ExpertBot(i, samples=worlds, time_budget=None)
        variant = NetBidsBot(i, samples=worlds)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            a = expert.act(obs)
            if len(obs.legal_actions) > 1:
                row = out.setdefault(obs.phase.name, [0, 0])
                row[0] += variant.act(obs) != a
                row[1] += 1
            deal.apply(a)
    return out


def _figure(margins: Sequence[float]) -> dict[str, Any]:
    mean, ci = mean_ci(margins)
    return {
        "sets": len(margins),
        "margin": round(mean, 4),
        "interval95": [round(x, 4) for x in ci] if ci else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the match(es) and print the figures as JSON."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--sets", type=int, default=2000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--blend", type=float, default=1.0)
    p.add_argument(
        "--pruned",
        action="store_true",
        help="the variant valuing only the expert's candidates, against pimc too",
    )
    p.add_argument("--expert", action="store_true", help="expert:WORLDS against pimc too")
    p.add_argument("--log", help="a JSON line per set")
    p.add_argument(
        "--agree", type=int, metavar="DEALS", help="only how often the variant's bids differ"
    )
    args = p.parse_args(argv)
    rules = Rules(players=args.players)
    w = args.worlds
    if args.agree:
        json.dump(agreement(rules, args.agree, args.seed, w), sys.stdout)
        print()
        return 0

    def variant(rng: random.Random) -> Bot:
        return NetBidsBot(rng, samples=w, blend=args.blend)

    def pruned(rng: random.Random) -> Bot:
        return NetBidsBot(rng, samples=w, blend=args.blend, pruned=True)

    def expert(rng: random.Random) -> Bot:
        return ExpertBot(rng, samples=w, time_budget=None)

    def pimc(rng: random.Random) -> Bot:
        return PimcBot(rng, samples=w, time_budget=None)

    arms: dict[str, BotFactory] = {"netbids": variant}
    if args.pruned:
        arms["pruned"] = pruned
    if args.expert:
        arms["expert"] = expert
    started = time.perf_counter()
    rows = play_arms(rules, arms, pimc, args.sets, args.seed, log=args.log)
    out = {
        "players": args.players,
        "seed": args.seed,
        "worlds": w,
        "blend": args.blend,
        "seconds": round(time.perf_counter() - started, 1),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        **arm_figures(rows, list(arms)),
    }
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
