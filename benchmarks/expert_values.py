"""The expert's values on fixed observations, to show a refactoring changed nothing.

Deals of every variant are played by the ``basic`` bot from fixed seeds; from the
decisions met on the way (more than one legal action) a fixed draw of ``--count``
observations is taken, spread evenly over the variants, and the ``expert`` (a fixed
number of worlds, no time budget, a seed per observation) values each one
(:meth:`~euchre.bots.expert.PimcBot.evaluate`).  The values go to a JSON file; run the
script before and after a change and compare the two files (``--compare``).

Usage::

    python benchmarks/expert_values.py --out /tmp/before.json
    python benchmarks/expert_values.py --out /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from euchre import Deal, Rules
from euchre.bots import make_bot
from euchre.bots.expert import ExpertBot, PimcBot
from euchre.deal import Observation

VARIANTS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 3, "joker": True},
    {"players": 4, "joker": True, "dealer_must_take_up": True},
    {"players": 4, "stick_the_dealer": True, "defend_alone": True},
    {"players": 5, "joker": True},
)
"""The rules the observations are drawn from."""


def observations(rules: Rules, count: int, seed: int) -> list[Observation]:
    """``count`` decisions (more than one legal action) from deals the basic bot plays,
    drawn at random from ``seed``.

    A seat with one legal action has nothing to decide, so it is never drawn; the same seed
    draws the same observations.

    >>> drawn = observations(Rules(players=2), 3, seed=1)
    >>> len(drawn), all(len(obs.legal_actions) > 1 for obs in drawn)
    (3, True)
    >>> drawn == observations(Rules(players=2), 3, seed=1)
    True
    """
    pool: list[Observation] = []
    bots = [make_bot("basic", seed=seed * 10 + s) for s in range(rules.players)]
    deal_no = 0
    while len(pool) < 6 * count:
        deal = Deal.random(rules, dealer=deal_no % rules.players, seed=seed * 1000 + deal_no)
        deal_no += 1
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            if len(obs.legal_actions) > 1:
                pool.append(obs)
            deal.apply(bots[seat].act(obs), seat)
    return random.Random(seed).sample(pool, count)


def values(count: int, samples: int, pimc: bool) -> list[dict[str, Any]]:
    """The expert's (or pimc's) values of ``count`` observations (see the module)."""
    out = []
    per = -(-count // len(VARIANTS))
    k = 0
    for v, options in enumerate(VARIANTS):
        rules = Rules(**options)
        for i, obs in enumerate(observations(rules, min(per, count - k), seed=v + 1)):
            cls = PimcBot if pimc else ExpertBot
            bot = cls(seed=k, samples=samples, time_budget=None)
            vals = bot.evaluate(obs)
            out.append({"variant": options, "index": i, "seat": obs.seat,
                        "phase": obs.phase.name,
                        "values": {str(a): repr(x) for a, x in vals.items()}})
            k += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the JSON file to write")
    parser.add_argument("--count", type=int, default=600, help="observations (600)")
    parser.add_argument("--samples", type=int, default=24, help="worlds a decision (24)")
    parser.add_argument("--pimc", action="store_true", help="pimc's values, not the expert's")
    parser.add_argument("--compare", help="a JSON file of an earlier run to compare with")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    got = values(args.count, args.samples, args.pimc)
    with open(args.out, "w") as f:
        json.dump(got, f, indent=0)
    print(f"{len(got)} observations, {sum(len(g['values']) for g in got)} values "
          f"in {time.perf_counter() - start:.1f} s -> {args.out}")
    if args.compare:
        with open(args.compare) as f:
            before = json.load(f)
        differ = [i for i, (a, b) in enumerate(zip(before, got, strict=True)) if a != b]
        print(f"identical: {len(got) - len(differ)} of {len(got)}; differ: {differ[:20]}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
