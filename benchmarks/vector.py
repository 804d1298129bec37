"""The compiled rules core against OpenSpiel's all-C++ random loop, on one core.

Run ``python benchmarks/vector.py [--deals N] [--repeats R] [--seed S] [--json]``.  The
process pins itself to one core.  Per repeat, interleaved so that machine noise hits both
sides (the side that goes first alternates):

* **this engine**: :func:`euchre.vector.random_deals` deals, bids, plays and scores ``N``
  four-handed 24-card deals with uniformly random legal actions, over the 64 rows of a
  :class:`~euchre.vector.VectorDeals`, all inside compiled code, under the rules OpenSpiel
  plays (stick the dealer, the dealer keeps the turn-up);
* **OpenSpiel**: ``pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)`` with four
  ``pyspiel.make_uniform_random_bot`` seats, once per deal: chance nodes, decisions and
  returns all run in C++; only the call per deal crosses from Python.

Then, this engine alone: every variant with its default rules, the memory a deal takes,
and the batched Python API (``v.step(v.random_actions())`` over 4,096 deals until all
are done, then ``v.reset()``).  Medians over the repeats are quoted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from euchre import Rules
from euchre.jobs.bench import bench_vector, pin_to_one_core

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from selfplay import OPENSPIEL_RULES, machine

try:
    import pyspiel
except ImportError:  # the optional `bench` extra is not installed
    pyspiel = None

VARIANTS = (("two-handed", Rules(players=2)), ("three-handed", Rules(players=3)),
            ("four-handed", Rules(players=4)), ("five-handed", Rules(players=5)))


def openspiel_rate(deals: int, seed: int) -> float:
    """Deals per second of OpenSpiel's C++ random loop."""
    game = pyspiel.load_game("euchre")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    start = time.perf_counter()
    for i in range(deals):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    return deals / (time.perf_counter() - start)


def python_api_rate(rules: Rules, n: int, rounds: int, seed: int) -> float:
    """Deals per second through VectorDeals' Python methods (step, random_actions)."""
    from euchre.vector import VectorDeals

    v = VectorDeals(rules, n=n, seed=seed)
    v.step(v.random_actions())  # compile
    v.reset(done_only=False)
    start = time.perf_counter()
    for _ in range(rounds):
        while not v.done.all():
            v.step(v.random_actions())
        v.reset(done_only=False)
    return n * rounds / (time.perf_counter() - start)


def run(deals: int, repeats: int, seed: int) -> dict[str, Any]:
    ours: list[float] = []
    theirs: list[float] = []
    os_deals = max(1, deals // 20)  # OpenSpiel is far slower: fewer deals, same seconds
    for r in range(repeats):

        def core_side(r: int = r) -> None:
            ours.append(bench_vector(rules=OPENSPIEL_RULES, deals=deals, seed=seed + r,
                                     repeats=1)["deals_per_second"])

        def openspiel_side(r: int = r) -> None:
            theirs.append(openspiel_rate(os_deals, seed + 1000 * r))

        sides = [core_side] + ([openspiel_side] if pyspiel is not None else [])
        for side in sides if r % 2 == 0 else sides[::-1]:
            side()
        print(f"repeat {r + 1}/{repeats}: core {ours[-1]:,.0f}"
              + (f", OpenSpiel {theirs[-1]:,.0f}" if theirs else ""), file=sys.stderr)
    report: dict[str, Any] = {
        "machine": machine(),
        "pinned_core": None,
        "deals": deals,
        "repeats": repeats,
        "openspiel_rules": OPENSPIEL_RULES.to_dict(),
        "core_deals_per_second": statistics.median(ours),
        "core_spread": [min(ours), max(ours)],
    }
    if theirs:
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        report.update({
            "openspiel_deals": os_deals,
            "openspiel_deals_per_second": statistics.median(theirs),
            "openspiel_spread": [min(theirs), max(theirs)],
            "ratio": statistics.median(ratios),
            "ratio_spread": [min(ratios), max(ratios)],
        })
    report["variants"] = []
    for name, rules in VARIANTS:
        rep = bench_vector(rules=rules, deals=deals, seed=seed, repeats=repeats)
        report["variants"].append({
            "variant": name, "rules": rules.to_dict(),
            "deals_per_second": rep["deals_per_second"],
            "actions_per_deal": rep["actions_per_deal"],
            "bytes_per_deal": rep["bytes_per_deal"],
        })
        print(f"{name}: {rep['deals_per_second']:,.0f}", file=sys.stderr)
    api = [python_api_rate(OPENSPIEL_RULES, 4096, 5, seed) for _ in range(3)]
    report["python_api_deals_per_second"] = statistics.median(api)
    return report


def format_report(rep: dict[str, Any]) -> str:
    """The report in words, from :func:`run`'s dictionary; the line comparing with
    OpenSpiel only where OpenSpiel was measured (the ``bench`` extra).

    >>> print(format_report({"machine": {"cpu": "Example CPU"}, "deals": 1000, "repeats": 3,
    ...     "core_deals_per_second": 250000.0, "python_api_deals_per_second": 90000.0,
    ...     "variants": [{"variant": "four-handed", "deals_per_second": 240000.0,
    ...                   "actions_per_deal": 33.5, "bytes_per_deal": 40}]}))
    CPU Example CPU, one core; 1,000 deals a repeat, 3 repeats (medians)
    compiled core, OpenSpiel's rules: 250,000 deals/s
      four-handed        240,000 deals/s   33.5 actions a deal  40 bytes a deal
    VectorDeals Python API (4,096 deals stepped together): 90,000 deals/s
    """
    lines = [f"CPU {rep['machine']['cpu']}, one core; {rep['deals']:,} deals a repeat, "
             f"{rep['repeats']} repeats (medians)",
             f"compiled core, OpenSpiel's rules: {rep['core_deals_per_second']:,.0f} deals/s"]
    if "ratio" in rep:
        lines.append(f"OpenSpiel evaluate_bots (C++): {rep['openspiel_deals_per_second']:,.0f} "
                     f"deals/s; ratio {rep['ratio']:.1f}x "
                     f"({rep['ratio_spread'][0]:.1f} to {rep['ratio_spread'][1]:.1f})")
    for row in rep["variants"]:
        lines.append(f"  {row['variant']:<13} {row['deals_per_second']:>12,.0f} deals/s  "
                     f"{row['actions_per_deal']:5.1f} actions a deal  "
                     f"{row['bytes_per_deal']} bytes a deal")
    lines.append(f"VectorDeals Python API (4,096 deals stepped together): "
                 f"{rep['python_api_deals_per_second']:,.0f} deals/s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=500_000, help="core deals per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats")
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be positive")
    pinned = pin_to_one_core()
    report = run(args.deals, args.repeats, args.seed)
    report["pinned_core"] = pinned
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
