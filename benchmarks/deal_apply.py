"""The speed of :meth:`Deal.apply` in random playouts, this tree against another.

Run ``python benchmarks/deal_apply.py [--against DIR] [--deals N] [--repeats R] [--json]``.
``DIR`` is another checkout (e.g. a worktree at ``main``: ``git worktree add --detach
/tmp/base main``); without it only this tree is measured.  Each measure runs in a fresh
process pinned to one core, the two trees taking turns (the side that goes first
alternates), so that machine noise hits both.  Per variant (two- to five-handed, default
rules), ``N`` deals are dealt and their random legal actions drawn once; then two loops are
timed, the deals built beforehand:

* **apply**: every action of every deal applied in turn, as a playout does;
* **copy+apply**: before each action the deal is copied and the action applied to the
  copy, as the open-hand solver and the analysis expand a node.

The figure is nanoseconds per action, the median over the repeats.

>>> figures = measure(Path(__file__).resolve().parent.parent, deals=3)
>>> sorted(figures["four-handed"])
['apply', 'copy+apply']
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VARIANTS = ("two-handed", "three-handed", "four-handed", "five-handed")


def _worker(deals: int, seed: int) -> dict[str, dict[str, float]]:
    """Measure the ``euchre`` this process imports (run with ``PYTHONPATH`` set)."""
    from euchre import Deal, Rules

    out: dict[str, dict[str, float]] = {}
    for name in VARIANTS:
        rules = Rules.preset(name)
        rng = random.Random(seed)
        starts: list[Any] = []
        plays: list[list[int]] = []
        for _ in range(deals):
            deal = Deal.random(
                rules, dealer=rng.randrange(rules.players), seed=rng.randrange(1 << 30)
            )
            starts.append(deal.copy())
            ids = []
            while not deal.is_over:
                a = rng.choice(deal.legal_action_ids())
                ids.append(a)
                deal.apply(a)
            plays.append(ids)
        count = sum(len(p) for p in plays)
        fresh = [d.copy() for d in starts]
        t0 = time.process_time_ns()
        for deal, ids in zip(fresh, plays, strict=True):
            apply = deal.apply
            for a in ids:
                apply(a)
        t1 = time.process_time_ns()
        fresh = [d.copy() for d in starts]
        t2 = time.process_time_ns()
        for deal, ids in zip(fresh, plays, strict=True):
            for a in ids:
                deal.copy().apply(a)
                deal.apply(a)
        t3 = time.process_time_ns()
        # the second loop applies each action twice (once to the copy): count it per action
        out[name] = {"apply": (t1 - t0) / count, "copy+apply": (t3 - t2) / count}
    return out


def measure(tree: Path, deals: int = 2000, seed: int = 1) -> dict[str, dict[str, float]]:
    """Nanoseconds per action for the ``euchre`` package of ``tree``, in a fresh process
    pinned to one core."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = (
        f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import deal_apply; "
        f"print(json.dumps(deal_apply._worker({deals}, {seed})))"
    )
    pin = ["taskset", "-c", str(max(os.sched_getaffinity(0)))] if _has_taskset() else []
    done = subprocess.run(
        [*pin, sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    figures: dict[str, dict[str, float]] = json.loads(done.stdout)
    return figures


def _has_taskset() -> bool:
    return hasattr(os, "sched_getaffinity") and any(
        (Path(d) / "taskset").exists() for d in os.environ.get("PATH", "").split(":")
    )


def cpu_model() -> str:
    """The CPU's model name, as ``lscpu`` gives it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    trees = {"this": HERE.parent}
    if args.against is not None:
        trees["against"] = args.against.resolve()
    runs: dict[str, list[dict[str, dict[str, float]]]] = {k: [] for k in trees}
    for r in range(args.repeats):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for key in order:
            runs[key].append(measure(trees[key], args.deals, args.seed))
    medians = {
        key: {
            v: {
                loop: statistics.median(run[v][loop] for run in results)
                for loop in ("apply", "copy+apply")
            }
            for v in VARIANTS
        }
        for key, results in runs.items()
    }
    if args.json:
        print(
            json.dumps(
                {
                    "cpu": cpu_model(),
                    "trees": {k: str(p) for k, p in trees.items()},
                    "deals": args.deals,
                    "repeats": args.repeats,
                    "medians": medians,
                }
            )
        )
        return
    print(f"CPU: {cpu_model()}; {args.deals} deals a variant, median of {args.repeats}")
    print(
        f"{'variant':<14}{'loop':<12}"
        + "".join(f"{k + ' ns':>14}" for k in trees)
        + ("  ratio" if len(trees) == 2 else "")
    )
    for v in VARIANTS:
        for loop in ("apply", "copy+apply"):
            cells = [medians[k][v][loop] for k in trees]
            ratio = f"  {cells[0] / cells[1]:.2f}" if len(cells) == 2 else ""
            print(f"{v:<14}{loop:<12}" + "".join(f"{c:>14.0f}" for c in cells) + ratio)


if __name__ == "__main__":
    main()
