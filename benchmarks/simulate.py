"""``euchre simulate --bots random`` as a new user runs it, against OpenSpiel from Python.

Run ``python benchmarks/simulate.py [--games G] [--repeats R] [--json]``.  Per repeat,
interleaved (the side that goes first alternates), both pinned to the same one core:

* **this engine**: the command ``euchre simulate --players 4 --bots random --games G
  --seed S --json`` in a fresh process; the figure is the ``deals_per_second`` it reports
  (whole games: dealing, bidding, play, scoring, the running score);
* **OpenSpiel**: ``benchmarks/selfplay.py``'s loop over ``pyspiel``'s ``euchre`` from
  Python (chance nodes and decisions with :class:`random.Random`), deals per second.

Medians over the repeats, and the median of the per-repeat ratios, are quoted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from selfplay import machine, os_selfplay

from euchre.jobs.bench import pin_to_one_core

try:
    import pyspiel
except ImportError:  # the optional `bench` extra is not installed
    pyspiel = None

EUCHRE = Path(sys.executable).with_name("euchre")


def simulate_rate(games: int, seed: int) -> dict[str, Any]:
    """``euchre simulate``'s own report, run as a user would (its start-up included).
    A four-handed game to 10 lasts three deals at least (4 points at most a deal):

    >>> report = simulate_rate(2, seed=1)
    >>> report["games"], report["deals"] >= 2 * 3, report["deals_per_second"] > 0
    (2, True, True)
    """
    out = subprocess.run(
        [str(EUCHRE), "simulate", "--players", "4", "--bots", "random", "--games",
         str(games), "--seed", str(seed), "--json"],
        check=True, capture_output=True, text=True)
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def openspiel_rate(deals: int, seed: int) -> float:
    game = pyspiel.load_game("euchre")
    return deals / os_selfplay(game, deals, seed)


def run(games: int, repeats: int, os_deals: int) -> dict[str, Any]:
    ours: list[float] = []
    theirs: list[float] = []
    deals = 0
    for r in range(repeats):
        sides = ["ours", "openspiel"] if pyspiel is not None else ["ours"]
        for side in sides if r % 2 == 0 else sides[::-1]:
            if side == "ours":
                rep = simulate_rate(games, seed=r + 1)
                ours.append(rep["deals_per_second"])
                deals = rep["deals"]
            else:
                theirs.append(openspiel_rate(os_deals, seed=r + 1))
        print(f"repeat {r + 1}/{repeats}: euchre simulate {ours[-1]:,.0f} deals/s"
              + (f", OpenSpiel {theirs[-1]:,.0f}" if theirs else ""), file=sys.stderr)
    report: dict[str, Any] = {
        "machine": machine(), "games": games, "deals_last_repeat": deals,
        "repeats": repeats, "simulate_deals_per_second": statistics.median(ours),
        "simulate_spread": [min(ours), max(ours)],
    }
    if theirs:
        ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
        report.update({
            "openspiel_deals": os_deals,
            "openspiel_deals_per_second": statistics.median(theirs),
            "openspiel_spread": [min(theirs), max(theirs)],
            "ratio": statistics.median(ratios), "ratio_spread": [min(ratios), max(ratios)],
        })
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20_000, help="games per simulate run")
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repeats")
    parser.add_argument("--openspiel-deals", type=int, default=20_000,
                        help="OpenSpiel deals per repeat")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if min(args.games, args.repeats, args.openspiel_deals) < 1:
        parser.error("--games, --repeats and --openspiel-deals must be positive")
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    pinned = pin_to_one_core()  # the euchre child process inherits the pinning
    try:
        report = run(args.games, args.repeats, args.openspiel_deals)
    finally:
        if cores is not None:
            os.sched_setaffinity(0, cores)
    report["pinned_core"] = pinned
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        line = (f"euchre simulate --bots random: {report['simulate_deals_per_second']:,.0f} "
                f"deals/s (median of {args.repeats}) on {report['machine']['cpu']}")
        if "ratio" in report:
            line += (f"; OpenSpiel from Python {report['openspiel_deals_per_second']:,.0f}; "
                     f"ratio {report['ratio']:.2f}x ({report['ratio_spread'][0]:.2f} to "
                     f"{report['ratio_spread'][1]:.2f})")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
