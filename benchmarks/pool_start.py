"""What a pool of worker processes costs to start, the figure behind
:data:`euchre.jobs.distributed.POOL_START` (when ``euchre simulate`` and ``euchre
tournament`` start workers by default).

Run ``python benchmarks/pool_start.py [--workers W] [--repeats R] [--json]``.  Per repeat,
the same small job (two chunks of random games, a few milliseconds of work) runs on a pool
of ``W`` spawned processes and in this process; the difference is the pool's start (its
processes spawned, each importing the package and unpickling the job).  Then ``euchre
simulate --bots random --games 3000`` as a user runs it (the default, which decides
itself) and with ``--workers W`` (a pool whatever the work), wall time of the command.
Medians over the repeats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from selfplay import machine

from euchre import Rules
from euchre.cli.simulate import Simulation
from euchre.jobs.distributed import POOL_START, Backend, run_job

EUCHRE = Path(sys.executable).with_name("euchre")


def job_seconds(backend: Backend) -> float:
    """Two chunks of random games on ``backend``, wall time.

    >>> job_seconds(Backend("local", 1)) > 0
    True
    """
    job = Simulation(Rules(), ("random",) * 4, 100, seed=1)
    start = time.perf_counter()
    run_job(job, backend)
    return time.perf_counter() - start


def command_seconds(*args: str) -> float:
    """``euchre simulate --bots random --games 3000`` with ``args``, wall time."""
    start = time.perf_counter()
    subprocess.run([str(EUCHRE), "simulate", "--bots", "random", "--games", "3000",
                    "--seed", "1", "--json", *args], check=True, capture_output=True)
    return time.perf_counter() - start


def run(workers: int, repeats: int) -> dict[str, Any]:
    job_seconds(Backend("local", 1))  # compile or load the compiled core first
    here, pool, default, forced = [], [], [], []
    for _ in range(repeats):
        here.append(job_seconds(Backend("local", 1)))
        pool.append(job_seconds(Backend("local", workers)))
        default.append(command_seconds())
        forced.append(command_seconds("--workers", str(workers)))
    med = statistics.median
    return {"machine": machine(), "workers": workers, "repeats": repeats,
            "job_here_s": round(med(here), 3), "job_pool_s": round(med(pool), 3),
            "pool_start_s": round(med(p - h for p, h in zip(pool, here, strict=True)), 3),
            "POOL_START": POOL_START,
            "simulate_3000_default_s": round(med(default), 3),
            "simulate_3000_workers_s": round(med(forced), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.workers, args.repeats)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>26}: {value}")


if __name__ == "__main__":
    main()
