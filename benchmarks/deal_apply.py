"""The speed of :meth:`Deal.apply` in random playouts, this tree against another commit.

Run ``python benchmarks/deal_apply.py [--against REF] [--deals N] [--repeats R] [--json]``
from a checkout.  ``REF`` is a git commit or branch (e.g. ``main``): its ``euchre/deal.py``
is loaded beside this tree's, in the same process (it imports the rest of the engine from
this tree, so the comparison holds while cards, actions and rules are unchanged between
the two).  The process pins itself to one core, and the two deal modules take turns at
every repeat (the side that goes first alternates), so that machine noise hits both.

Per variant (two- to five-handed, default rules), ``N`` deals are dealt and their random
legal actions drawn once; then two loops are timed, the deals copied beforehand:

* **apply**: every action of every deal applied in turn, as a playout does;
* **copy+apply**: before each action the deal is copied and the action applied to the
  copy too, as the open-hand solver's reference search expands a node.

The figure is nanoseconds per action of the deal; the median over the repeats is quoted.

>>> figures = measure(["four-handed"], deals=3, repeats=1, against=None)
>>> sorted(figures["this"]["four-handed"])
['apply', 'copy+apply']
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from euchre import Rules
from euchre import deal as this_deal
from euchre.jobs.bench import cpu_model

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("two-handed", "three-handed", "four-handed", "five-handed")
LOOPS = ("apply", "copy+apply")


def deal_module_at(ref: str) -> ModuleType:
    """``euchre/deal.py`` as it is at git ``ref``, loaded as a module of its own."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:euchre/deal.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="deal_apply_"))
    path = folder / "deal_against.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("deal_against", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["deal_against"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _playouts(
    module: ModuleType, rules: Rules, deals: int, seed: int
) -> tuple[list[Any], list[list[int]]]:
    """``deals`` fresh deals of ``module`` and the random legal actions of each."""
    rng = random.Random(seed)
    starts, plays = [], []
    for _ in range(deals):
        deal = module.Deal.random(
            rules, dealer=rng.randrange(rules.players), seed=rng.randrange(1 << 30)
        )
        starts.append(deal.copy())
        ids = []
        while not deal.is_over:
            a = rng.choice(deal.legal_action_ids())
            ids.append(a)
            deal.apply(a)
        plays.append(ids)
    return starts, plays


def _time(starts: list[Any], plays: list[list[int]]) -> dict[str, float]:
    count = sum(len(p) for p in plays)
    fresh = [d.copy() for d in starts]
    t0 = time.perf_counter_ns()
    for deal, ids in zip(fresh, plays, strict=True):
        apply = deal.apply
        for a in ids:
            apply(a)
    t1 = time.perf_counter_ns()
    fresh = [d.copy() for d in starts]
    t2 = time.perf_counter_ns()
    for deal, ids in zip(fresh, plays, strict=True):
        for a in ids:
            deal.copy().apply(a)
            deal.apply(a)
    t3 = time.perf_counter_ns()
    return {"apply": (t1 - t0) / count, "copy+apply": (t3 - t2) / count}


def measure(
    variants: list[str],
    deals: int = 2000,
    repeats: int = 7,
    seed: int = 1,
    against: str | None = "main",
) -> dict[str, dict[str, dict[str, float]]]:
    """Median nanoseconds per action: ``{"this" | "against": {variant: {loop: ns}}}``."""
    modules = {"this": this_deal}
    if against is not None:
        modules["against"] = deal_module_at(against)
    out: dict[str, dict[str, dict[str, float]]] = {k: {} for k in modules}
    for name in variants:
        rules = Rules.preset(name)
        work = {k: _playouts(m, rules, deals, seed) for k, m in modules.items()}
        runs: dict[str, list[dict[str, float]]] = {k: [] for k in modules}
        for r in range(repeats):
            order = list(modules) if r % 2 == 0 else list(reversed(modules))
            for key in order:
                runs[key].append(_time(*work[key]))
        for key, results in runs.items():
            out[key][name] = {loop: statistics.median(x[loop] for x in results) for loop in LOOPS}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--against",
        default="main",
        help="a git ref whose euchre/deal.py to compare with ('' for none)",
    )
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    figures = measure(list(VARIANTS), args.deals, args.repeats, args.seed, args.against or None)
    if args.json:
        print(
            json.dumps(
                {
                    "cpu": cpu_model(),
                    "against": args.against,
                    "deals": args.deals,
                    "repeats": args.repeats,
                    "medians": figures,
                }
            )
        )
        return
    keys = list(figures)
    print(f"CPU: {cpu_model()}; {args.deals} deals a variant, median of {args.repeats}")
    print(
        f"{'variant':<14}{'loop':<12}"
        + "".join(f"{k + ' ns':>14}" for k in keys)
        + ("   this/against" if len(keys) == 2 else "")
    )
    for v in VARIANTS:
        for loop in LOOPS:
            cells = [figures[k][v][loop] for k in keys]
            ratio = f"   {cells[0] / cells[1]:.2f}" if len(cells) == 2 else ""
            print(f"{v:<14}{loop:<12}" + "".join(f"{c:>14.0f}" for c in cells) + ratio)


if __name__ == "__main__":
    main()
