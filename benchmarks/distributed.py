"""Tournaments and self-play on this machine's cores (multiprocessing) and on Ray.

Run ``python benchmarks/distributed.py [--deals K] [--repeats R] [--workers 1,2] [--json]``
(the ``distributed`` extra) on a quiet machine.  For each work load, each number of
workers ``W`` and each repeat, interleaved (the backend that goes first alternates):

* **local**: :func:`euchre.jobs.distributed.run_job` on a pool of ``W`` spawned processes
  (the pool's start included: ``euchre tournament`` pays it on every run);
* **ray**: the same on a local Ray instance of ``W`` CPUs, started once before (as
  ``ray start`` would be, its start reported apart), its workers warm.

The work loads are ``euchre tournament --bots expert,basic`` (four-handed, duplicate) and
``euchre selfplay --bots expert`` (four-handed, ``--worlds`` worlds per decision), both in
chunks of ``--chunk`` deals.  Also measured: Ray's cost per chunk (units that do nothing,
so what is left is the scheduling and the round trip), the driver's cost per chunk
(turning a unit's output into its summary, and the reduction), and the bytes a chunk sends
back through the object store; from them, on paper, what 100 nodes of 32 cores would
deliver and where the driver would become the limit.  Medians over the repeats.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import pickle
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from selfplay import machine

from euchre import Rules
from euchre.jobs.distributed import Backend, ChunkedJob, _json_copy, run_job, versions
from euchre.jobs.selfplay import SelfPlay
from euchre.jobs.tournament import Tournament, reduce_parts

NODES, CORES = 100, 32


@dataclass(frozen=True)
class Empty:
    """Units that do nothing: what a chunk costs beyond its work."""

    n: int
    kind = "empty"

    def units(self) -> int:
        return self.n

    def parameters(self) -> dict[str, Any]:
        return {"n": self.n}

    def run_unit(self, unit: int) -> None:
        return None

    def settle(self, unit: int, output: None) -> dict[str, Any]:
        return {}

    def deals_of(self, summary: dict[str, Any]) -> int:
        return 0


def jobs(deals: int, chunk: int, worlds: int, out: str) -> dict[str, tuple[ChunkedJob, int]]:
    """The work loads: name -> (job, deals it plays).

    The duplicate tournament plays every deal once per seating of the two bots (twice
    four-handed), self-play each deal once:

    >>> loads = jobs(deals=10, chunk=5, worlds=8, out="unused")
    >>> {name: played for name, (_, played) in loads.items()}
    {'tournament expert,basic': 20, 'selfplay expert': 10}
    """
    rules = Rules(players=4)
    tournament = Tournament(rules, ("expert", "basic"), deals=deals, seed=1, chunk_size=chunk)
    selfplay = SelfPlay(rules, ("expert",) * 4, deals=deals, seed=1, out=out,
                        chunk_size=chunk, worlds=worlds)
    return {"tournament expert,basic": (tournament, deals * len(tournament.seatings)),
            "selfplay expert": (selfplay, deals)}


def timed(job: ChunkedJob, backend: Backend) -> tuple[float, int]:
    start = time.perf_counter()
    run = run_job(job, backend)
    seconds = time.perf_counter() - start
    return seconds, sum(job.deals_of(s) for s in run.summaries)


def driver_costs(job: ChunkedJob) -> dict[str, float]:
    """Per unit, on the driver: seconds to settle and copy a summary, seconds of the
    reduction (tournaments), bytes of the output a worker sends back."""
    outputs = [job.run_unit(u) for u in range(min(job.units(), 4))]
    sizes = [len(pickle.dumps(o, protocol=5)) for o in outputs]
    start = time.perf_counter()
    summaries = [_json_copy(job.settle(u, o)) for u, o in enumerate(outputs)]
    settle = (time.perf_counter() - start) / len(outputs)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ck.jsonl"
        with path.open("w") as f:
            start = time.perf_counter()
            for summary in summaries:
                f.write(json.dumps({"unit": 0, "summary": summary}) + "\n")
                f.flush()
            line = (time.perf_counter() - start) / len(summaries)
            start = time.perf_counter()
            for _ in range(20):
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            fsync = (time.perf_counter() - start) / 20
    reduce = 0.0
    if isinstance(job, Tournament):
        rotations = len(job.seatings)
        whole = summaries[:len(summaries) // rotations * rotations]
        t = Tournament(job.rules, job.bots, deals=len(whole) // rotations * job.chunk_size,
                       seed=job.seed, chunk_size=job.chunk_size)
        start = time.perf_counter()
        reduce_parts(t, whole, 0.0, 1)
        reduce = (time.perf_counter() - start) / max(1, len(whole))
    return {"settle_s": settle, "reduce_s": reduce, "checkpoint_line_s": line,
            "fsync_s": fsync, "bytes": statistics.median(sizes)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="deal sets / deals per run")
    parser.add_argument("--chunk", type=int, default=5, help="deals per chunk")
    parser.add_argument("--worlds", type=int, default=32, help="self-play worlds a decision")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--empty", type=int, default=200, help="empty units for the overhead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="ebench") as out:
        report = measure(args, counts, jobs(args.deals, args.chunk, args.worlds, out))
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(json.dumps(report["machine"]))
        for row in report["results"]:
            print(f"{row['work']:<45} local {row['local_deals_per_s']:8.2f}  ray "
                  f"{row['ray_deals_per_s']:8.2f} deals/s  ray/local {row['ray_over_local']:.3f}")
        for k, v in report["overhead_per_chunk_s"].items():
            print(f"empty chunk, {k}: {1000 * v:.2f} ms")
        print(f"ray start: {report['ray_start_s']:.1f} s")
        for p in report["projection_100x32"]:
            print(json.dumps(p))
    return 0


def measure(args: argparse.Namespace, counts: list[int],
            loads: dict[str, tuple[ChunkedJob, int]]) -> dict[str, Any]:
    """Run the measures; the report."""
    import ray

    rates: dict[str, dict[str, list[float]]] = {}
    overhead: dict[str, list[float]] = {}
    ray_start: list[float] = []
    for w in counts:
        start = time.perf_counter()
        ray.init(num_cpus=w, include_dashboard=False, logging_level=logging.WARNING,
                 log_to_driver=False)
        ray_start.append(time.perf_counter() - start)
        run_job(Empty(4 * w), Backend("ray"))  # the workers up
        for r in range(args.repeats):
            order = ["local", "ray"] if r % 2 == 0 else ["ray", "local"]
            for name, (job, _) in loads.items():
                for kind in order:
                    seconds, deals = timed(job, Backend(kind, w))
                    rates.setdefault(f"{name} · {w} worker(s)", {}).setdefault(
                        kind, []).append(deals / seconds)
            for kind in order:
                seconds, _ = timed(Empty(args.empty), Backend(kind, w))
                overhead.setdefault(f"{kind} · {w} worker(s)", []).append(
                    seconds / args.empty)
        ray.shutdown()
    costs = {name: driver_costs(job) for name, (job, _) in loads.items()}
    report: dict[str, Any] = {"machine": machine() | {"versions": versions()},
                              "deals": args.deals, "chunk": args.chunk,
                              "worlds": args.worlds, "repeats": args.repeats,
                              "ray_start_s": statistics.median(ray_start), "results": []}
    for key, by in rates.items():
        local, ray_rate = statistics.median(by["local"]), statistics.median(by["ray"])
        report["results"].append({"work": key, "local_deals_per_s": local,
                                  "ray_deals_per_s": ray_rate, "ray_over_local": ray_rate / local})
    report["overhead_per_chunk_s"] = {k: statistics.median(v) for k, v in overhead.items()}
    # an empty chunk's wall time on W workers: the driver's share of a chunk at most (it
    # handles them one after another), W times it a worker's share at most
    ray_cost = statistics.median(overhead.get(f"ray · {max(counts)} worker(s)", [0.0]))
    projection = []
    for name, (job, deals) in loads.items():
        one = statistics.median(rates[f"{name} · 1 worker(s)"]["local"]) if 1 in counts else 0
        per_unit_deals = deals / job.units()
        unit_s = per_unit_deals / one if one else float("nan")
        cores = NODES * CORES
        driver_s = (costs[name]["settle_s"] + costs[name]["reduce_s"]
                    + costs[name]["checkpoint_line_s"] + ray_cost)
        units_per_s = cores / unit_s
        projection.append({
            "work": name, "deals_per_chunk": per_unit_deals, "chunk_s_one_core": unit_s,
            "ideal_deals_per_s": cores * one,
            "efficiency": unit_s / (unit_s + ray_cost * max(counts)),
            "chunks_per_s_needed": units_per_s,
            "driver_s_per_chunk": driver_s,
            "driver_busy_fraction": units_per_s * driver_s,
            "cores_before_driver_limit": unit_s / driver_s,
            "bytes_per_chunk": costs[name]["bytes"],
            "fsync_s": costs[name]["fsync_s"],
            "driver_busy_fraction_fsync_every_chunk":
                units_per_s * (driver_s + costs[name]["fsync_s"]),
            "bytes_per_s_to_driver": units_per_s * costs[name]["bytes"],
        })
    report["projection_100x32"] = projection
    return report


if __name__ == "__main__":
    sys.exit(main())
