"""The ``expert``'s inference from the others' bids and plays: what it knows better, and
what it costs.

Run ``python benchmarks/inference.py [--players 2 3 4 5] [--deals N] [--seed S]
[--json]``.  Deals of the default rules of each variant are played by ``pimc:16`` at every
seat (the opponents the inference was fitted to).  At every decision of every seat with two
or more legal actions, the observation is kept with the true hands.

``belief``
    For each kept decision, 64 worlds are sampled the way ``pimc`` samples them
    (inference off) and the way the ``expert`` does (inference on,
    :meth:`~euchre.bots.knowledge._Worlds.weighted_world`).  The score is the mean
    natural log of the weighted share of the worlds that put each card another seat
    truly holds in that seat's hand (a share below 0.001 counts as 0.001): higher is a
    better belief, 0 is certainty.  Reported separately for the play and the bids.

``time``
    Each kept decision is taken by ``PimcBot`` and ``ExpertBot`` with 128 worlds and no
    time budget, one after the other on the same observation (a side-by-side pair), and
    timed.  Reported: the medians and 99th percentiles, and the median of the paired
    extra time of the expert (all decisions, and play only).  Pin it to a core
    (``taskset -c 1``) on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from euchre import Rules
from euchre.bots import make_bot
from euchre.bots.expert import ExpertBot, PimcBot
from euchre.bots.knowledge import _Know, _Worlds
from euchre.deal import Deal, Observation, Phase
from euchre.jobs.bench import cpu_model, load_average, percentile
from euchre.solver import warm_up
from euchre.worlds import _bits

Case = tuple[Observation, list[int]]


def cases(players: int, deals: int, seed: int) -> list[Case]:
    """Every decision (two or more legal actions) of ``pimc:16`` self-play, with the
    true hands then."""
    rules = Rules(players=players)
    out: list[Case] = []
    for d in range(deals):
        deal = Deal.random(rules, dealer=d % players, seed=seed + d)
        bots = [make_bot("pimc:16", seed + d * 8 + s) for s in range(players)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            if len(obs.legal_actions) > 1:
                out.append((obs, [deal.hand_mask(s) for s in range(players)]))
            deal.apply(bots[seat].act(obs))
    return out


def belief(case: Case, inference: bool, rng: random.Random, worlds: int = 64) -> float | None:
    """Mean log of the weighted share of worlds that place each card where it is: 0 when
    every world places every card rightly, lower the more worlds misplace them.

    >>> case = cases(2, deals=1, seed=3)[0]
    >>> score = belief(case, inference=True, rng=random.Random(1), worlds=8)
    >>> score is None or score <= 0.0
    True
    """
    obs, true = case
    sampler = _Worlds(_Know(obs), rng, inference)
    n = obs.rules.players
    mass: dict[tuple[int, int], float] = {}
    total = 0.0
    for _ in range(worlds):
        hands, w = sampler.weighted_world()
        if hands is None:
            return None
        total += w
        for s in range(n):
            if s != obs.seat:
                for c in _bits(hands[s]):
                    mass[s, c] = mass.get((s, c), 0.0) + w
    logs = [math.log(max(mass.get((s, c), 0.0) / total, 1e-3))
            for s in range(n) if s != obs.seat for c in _bits(true[s])]
    return statistics.mean(logs) if logs else None


def measure(players: int, deals: int, seed: int) -> dict[str, Any]:
    """The belief scores and decision times of one variant."""
    kept = cases(players, deals, seed)
    row: dict[str, Any] = {"players": players, "deals": deals, "decisions": len(kept)}
    for inference in (False, True):
        rng = random.Random(seed)
        scores: dict[str, list[float]] = {"play": [], "bids": []}
        for case in kept:
            if case[0].phase in (Phase.BID_TURNUP, Phase.BID_SUIT, Phase.PLAY):
                got = belief(case, inference, rng)
                if got is not None:
                    scores["play" if case[0].phase is Phase.PLAY else "bids"].append(got)
        key = "on" if inference else "off"
        row[f"belief_{key}"] = {k: round(statistics.mean(v), 4) for k, v in scores.items() if v}
    bots = {"pimc": PimcBot(seed, samples=128, time_budget=None),
            "expert": ExpertBot(seed, samples=128, time_budget=None)}
    times: dict[str, list[float]] = {"pimc": [], "expert": []}
    extra: list[float] = []
    extra_play: list[float] = []
    for obs, _ in kept:
        took: dict[str, float] = {}
        for name, bot in bots.items():
            t = time.perf_counter()
            bot.act(obs)
            took[name] = (time.perf_counter() - t) * 1000
            times[name].append(took[name])
        extra.append(took["expert"] - took["pimc"])
        if obs.phase is Phase.PLAY:
            extra_play.append(took["expert"] - took["pimc"])
    row["ms"] = {name: {"median": round(statistics.median(v), 3),
                        "p99": round(percentile(v, 0.99), 2)} for name, v in times.items()}
    row["extra_ms_median"] = round(statistics.median(extra), 3)
    row["extra_ms_median_play"] = round(statistics.median(extra_play), 3) if extra_play else None
    return row


def main(argv: list[str] | None = None) -> int:
    """Measure and print (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--deals", type=int, default=40, help="deals per variant")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    warm_up()
    rows = [measure(p, args.deals, args.seed) for p in args.players]
    rep = {"cpu": cpu_model(), "load_average": load_average(), "rows": rows}
    if args.json:
        print(json.dumps(rep, indent=2))
        return 0
    print(f"{rep['cpu']}, load {rep['load_average']}")
    print("players | decisions | belief play off -> on | belief bids off -> on | "
          "median ms pimc / expert | p99 ms pimc / expert | extra ms (play)")
    for r in rows:
        off, on = r["belief_off"], r["belief_on"]
        ms = r["ms"]
        print(f"{r['players']} | {r['decisions']} | {off.get('play')} -> {on.get('play')} | "
              f"{off.get('bids')} -> {on.get('bids')} | {ms['pimc']['median']} / "
              f"{ms['expert']['median']} | {ms['pimc']['p99']} / {ms['expert']['p99']} | "
              f"{r['extra_ms_median']} ({r['extra_ms_median_play']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
