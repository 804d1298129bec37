"""The open-hand solver's speed: full four-handed deals solved from the first lead.

Run ``python benchmarks/solver.py [--deals N] [--seed S] [--bidding random|basic]
[--core C] [--json]``.  The process pins itself to one core (the highest-numbered one
unless ``--core`` says, where ``os.sched_setaffinity`` exists), compiles or loads the
kernel (the warm-up, reported but not timed), deals ``N`` random four-handed 24-card
deals, bids them up to the first lead, and times each solve one at a time with
``time.perf_counter_ns``: see :func:`euchre.jobs.bench.bench_solver` for what is timed.
The report gives the median and the 99th percentile in µs; ``euchre bench solver``
prints the same report.
"""

from __future__ import annotations

import argparse
import json
import sys

from euchre.jobs.bench import bench_solver, format_bench, pin_to_one_core


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmark, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=2000, help="deals to solve")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random deals")
    parser.add_argument("--bidding", choices=("random", "basic"), default="random",
                        help="random bids (maker alone in every second deal) or the basic bot")
    parser.add_argument("--core", type=int, default=None,
                        help="the core to pin to (default: the highest one)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    core = pin_to_one_core(args.core)
    report = bench_solver(args.deals, args.seed, args.bidding, core)
    print(json.dumps(report) if args.json else format_bench(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
