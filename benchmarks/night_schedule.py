"""How long the seating of a club night takes for the largest room: 64 players.

Run ``python benchmarks/night_schedule.py [--repeats R] [--json]`` from a checkout.
Each case is built ``R`` times (default 7) in this process, and the median and the
slowest wall-clock times are quoted, in milliseconds, with the machine's CPU:

* ``partners 64``: the whole night of rotating partners for 64 players (63 rounds);
* ``partners 64, 8 rounds``: a night of eight rounds (seated afresh so that the
  opponents are spread over the short night);
* ``partners 62`` and ``partners 63``: the whole night for counts that sit players out
  (two and three a round);
* ``teams 64``: fixed teams, one lap (16 rounds);
* ``winners 64, next round``: one round of winners move up from the last one's results.

>>> report = measure(repeats=1, players=12)
>>> sorted(report["cases"]) == sorted(case for case, _ in cases(12))
True
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from euchre.jobs.bench import cpu_model
from euchre.night import partners, teams, winners_first_round, winners_next_round


def cases(players: int) -> list[tuple[str, Callable[[], object]]]:
    """The timed cases for a room of ``players`` (64 in the published figures)."""
    first = winners_first_round(players)
    results = [k % 2 for k in range(len(first.tables))]
    return [
        (f"partners {players}", lambda: partners(players)),
        (f"partners {players}, 8 rounds", lambda: partners(players, rounds=8)),
        (f"partners {players - 2}", lambda: partners(players - 2)),
        (f"partners {players - 1}", lambda: partners(players - 1)),
        (f"teams {players}", lambda: teams(players)),
        (f"winners {players}, next round",
         lambda: winners_next_round(players, [first], results)),
    ]


def measure(repeats: int = 7, players: int = 64) -> dict[str, Any]:
    """Each case's median and slowest time over ``repeats`` runs, in milliseconds."""
    out: dict[str, Any] = {}
    for name, build in cases(players):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            build()
            times.append((time.perf_counter() - start) * 1000)
        out[name] = {"median_ms": statistics.median(times), "max_ms": max(times)}
    return {"cases": out, "repeats": repeats,
            "machine": {"cpu": cpu_model(), "cores": os.cpu_count(),
                        "python": platform.python_version(),
                        "load": os.getloadavg()[0]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = measure(args.repeats)
    if args.json:
        print(json.dumps(report))
        return
    m = report["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
          f"load average {m['load']:.1f}; median of {report['repeats']} runs")
    for name, row in report["cases"].items():
        print(f"  {name:<26} median {row['median_ms']:9.2f} ms   max {row['max_ms']:9.2f} ms")


if __name__ == "__main__":
    main()
