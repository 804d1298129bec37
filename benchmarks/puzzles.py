"""The puzzle maker: how many positions it examines per second on one core, what share
becomes a puzzle, and how steady a puzzle's answer is when the worlds are redrawn.

Run ``python benchmarks/puzzles.py [--deals N] [--seed S] [--variants 2 3 4 5]
[--steadiness K] [--solvers] [--sample K] [--json] [--write-docs]`` (``--deals 0``: no
rate).

**Rate.**  For each variant's default rules, :class:`euchre.jobs.puzzles.PuzzleMaker`
plays ``N`` deals (expert against expert) in this process, pinned to one core, and
examines every decision with a choice (:mod:`euchre.jobs.puzzles`); the positions
examined per CPU second, and the share kept as puzzles.

**Steadiness** (``--steadiness K``): up to ``K`` shipped puzzles per variant, spread evenly
over the set (:func:`spread`: a set grown by merging holds its newest parts last), are judged
again by :func:`euchre.jobs.puzzles.verdict` with two other salts (other worlds, the same
count): how often the answer changes (the mean's best action is another), and the spread
of the margin (the standard deviation of the new margin minus the old).

**Solve rates** (``--solvers``): every shipped puzzle (or ``--sample K`` of them, spread
evenly over the set) is put to the bots (``random``:
the chance that a random legal action solves it; ``basic``, ``intermediate`` at 16 worlds
with seeds other than the rating's, and the expert's hint,
:func:`euchre.bots.opinion.expert_opinion`), split at the median rating (the bots' rating,
:func:`euchre.puzzles.rating.rated_by_bots`) into the easier and the harder half: a harder
half must be missed more by weaker bots.

``--write-docs`` replaces the "## Puzzles" section of ``docs/benchmarks.md`` up to its
first subsection (appending it if missing) with the figures of the run.

>>> changed_and_shift({"order": 1.0, "pass": 0.2}, "order", {"order": 0.9, "pass": 0.3})
(False, -0.2)
>>> spread(list(range(10)), 4)
[0, 2, 5, 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TypeVar

from euchre import Rules
from euchre.actions import Action
from euchre.bots import make_bot
from euchre.bots.opinion import expert_opinion
from euchre.jobs.bench import machine, pin_to_one_core
from euchre.jobs.puzzles import VERDICT_WORLDS, PuzzleMaker, verdict
from euchre.puzzles import margin_of, shipped, shipped_header
from euchre.solver import warm_up

VARIANTS: tuple[int, ...] = (2, 3, 4, 5)
REDRAWN = (3, 4)
"""The salts of the verdict redrawn (the maker's are 1 and 2)."""
DOCS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
SECTION = "## Puzzles"
T = TypeVar("T")


def changed_and_shift(old: dict[str, float], answer: str, new: dict[str, float]
                      ) -> tuple[bool, float]:
    """Whether the redrawn values put another action first, and how far the answer's
    margin moved."""
    def margin(values: dict[str, float]) -> float:
        return margin_of({Action.parse(a): v for a, v in values.items()}, Action.parse(answer))

    best = max(new, key=lambda a: new[a])
    return best != answer, round(margin(new) - margin(old), 6)


def spread(items: list[T], count: int) -> list[T]:
    """Up to ``count`` of ``items``, evenly spaced from the first (all when ``count`` is 0
    or not below their number)."""
    if count <= 0 or count >= len(items):
        return list(items)
    return [items[k * len(items) // count] for k in range(count)]


def rate(players: int, deals: int, seed: int) -> dict[str, Any]:
    """Positions examined per CPU second and the share kept, over ``deals`` deals."""
    job = PuzzleMaker(Rules(players=players), deals, seed, chunk_size=deals)
    start = time.process_time()
    out = job.run_unit(0)
    seconds = time.process_time() - start
    examined, kept = int(out["examined"]), len(out["puzzles"])
    return {"players": players, "deals": deals, "examined": examined, "puzzles": kept,
            "cpu_seconds": round(seconds, 2),
            "per_second": round(examined / seconds, 2) if seconds else None,
            "share": round(kept / examined, 4) if examined else 0.0}


def steadiness(players: int, count: int) -> dict[str, Any]:
    """The answer's changes and the margin's spread over up to ``count`` shipped puzzles
    judged again with other worlds."""
    changes, shifts = 0, []
    puzzles = spread(list(shipped(players)), count)
    for puzzle in puzzles:
        values, _bests = verdict(puzzle.deal(), VERDICT_WORLDS, REDRAWN)
        changed, shift = changed_and_shift(puzzle.values, puzzle.answer,
                                           {str(a): v for a, v in values.items()})
        changes += changed
        shifts.append(shift)
    return {"players": players, "puzzles": len(puzzles), "changed": changes,
            "margin_shift_sd": round(statistics.pstdev(shifts), 3) if shifts else None,
            "margin_shift_mean": round(statistics.fmean(shifts), 3) if shifts else None}


SOLVERS = ("random", "basic", "intermediate", "expert")


def solve_rates(players: int, sample: int = 0) -> dict[str, Any]:
    """Each bot's solve rate over the easier and the harder half of the shipped puzzles
    (``sample`` of them spread over the set; 0: all), split at the median rating."""
    puzzles = sorted(spread(list(shipped(players)), sample), key=lambda p: (p.rating, p.id))
    half = len(puzzles) // 2
    halves = {"easier": puzzles[:half], "harder": puzzles[half:]}
    out: dict[str, Any] = {"players": players, "puzzles": len(puzzles),
                           "median": puzzles[half].rating if puzzles else None}
    for name, group in halves.items():
        rates = {}
        for bot in SOLVERS:
            solved = 0.0
            for k, puzzle in enumerate(group):
                obs = puzzle.observation()
                if bot == "random":
                    solved += sum(puzzle.solved_by(a) for a in obs.legal_actions) / len(
                        obs.legal_actions)
                elif bot == "expert":
                    solved += puzzle.solved_by(expert_opinion(obs).best)
                else:  # seeds other than the rating's (euchre.puzzles.rating)
                    level = "intermediate:16" if bot == "intermediate" else bot
                    solved += puzzle.solved_by(make_bot(level, 1000 + k).act(obs))
            rates[bot] = round(solved / len(group), 3) if group else None
        out[name] = rates
    return out


def markdown(rates: list[dict[str, Any]], steady: list[dict[str, Any]], command: str,
             facts: dict[str, Any], solving: list[dict[str, Any]] | None = None) -> str:
    """The docs section of a run."""
    lines = [SECTION, "",
             "`euchre puzzle make` (issue 33) plays deals expert against expert and keeps the "
             "positions where, by two opinions of 1,024 worlds each (four times a hint's), "
             "one action beats every other by 0.3 points or more and the basic bot "
             "chooses another. `benchmarks/puzzles.py` measures it on one core.", "",
             f"`{command}`:"]
    if rates:
        lines += ["", "| variant | deals | positions examined | puzzles | share kept | "
                  "positions per CPU second |",
                  "|---|---:|---:|---:|---:|---:|"]
    for r in rates:
        lines.append(f"| {r['players']}-handed | {r['deals']} | {r['examined']} | "
                     f"{r['puzzles']} | {r['share']:.1%} | **{r['per_second']}** |")
    if steady:
        lines += ["", "Steadiness: shipped puzzles judged again with two other salts "
                  "(other worlds, the same count); how often the answer changed, and the "
                  "spread of the margin's shift:", "",
                  "| variant | puzzles | answer changed | margin shift: mean / sd |",
                  "|---|---:|---:|---:|"]
        for s in steady:
            lines.append(f"| {s['players']}-handed | {s['puzzles']} | {s['changed']} | "
                         f"{s['margin_shift_mean']} / {s['margin_shift_sd']} |")
    if solving:
        lines += ["", "Solve rates of the shipped puzzles by the bots, the easier half "
                  "(below the median rating) against the harder:", "",
                  "| variant | puzzles | median rating | " + " | ".join(
                      f"{b}: easier / harder" for b in SOLVERS) + " |",
                  "|---|---:|---:|" + "---:|" * len(SOLVERS)]
        for r in solving:
            cells = " | ".join(f"{r['easier'][b]:.0%} / {r['harder'][b]:.0%}"
                               for b in SOLVERS)
            lines.append(f"| {r['players']}-handed | {r['puzzles']} | {r['median']} | "
                         f"{cells} |")
    lines += ["", "The shipped sets (`euchre/puzzles/data/`, each file's header names the "
              "command and seed that made it):", "",
              "| variant | deals | positions examined | puzzles | share kept |",
              "|---|---:|---:|---:|---:|"]
    for n in VARIANTS:
        made = shipped_header(n)
        if "examined" in made:
            count = len(shipped(n))
            parts = made.get("parts") or [made]
            deals = sum(int(part["parameters"]["deals"]) for part in parts)
            lines.append(f"| {n}-handed | {deals} | {made['examined']} | "
                         f"{count} | {count / made['examined']:.1%} |")
    lines += ["", f"Machine: {facts['cpu']}, {facts['cores']} cores shared with other work "
              f"(load average {facts['load_average']}), Python {facts['python']}.", ""]
    return "\n".join(lines)


def write_docs(section: str) -> None:
    """Replace (or append) the section in ``docs/benchmarks.md``."""
    text = DOCS.read_text(encoding="utf-8")
    start = text.find(SECTION + "\n")
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        ends = [text.find(mark, start + len(SECTION)) for mark in ("\n## ", "\n### ")]
        end = min((e for e in ends if e >= 0), default=-1)
        text = text[:start] + section + ("\n" + text[end + 1:] if end >= 0 else "")
    DOCS.write_text(text, encoding="utf-8")


def progress(row: dict[str, Any]) -> dict[str, Any]:
    """Print a row of results on standard error as it comes (a long run keeps them)."""
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", type=int, nargs="+", default=list(VARIANTS))
    parser.add_argument("--steadiness", type=int, default=0)
    parser.add_argument("--solvers", action="store_true")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    pin_to_one_core()
    warm_up()
    rates = [rate(n, args.deals, args.seed) for n in args.variants] if args.deals else []
    steady = [progress(steadiness(n, args.steadiness)) for n in args.variants
              ] if args.steadiness else []
    solving = [progress(solve_rates(n, args.sample)) for n in args.variants] if args.solvers else []
    facts = machine()
    if args.json:
        print(json.dumps({"rates": rates, "steadiness": steady, "solving": solving,
                          "machine": facts}))
        return
    words = ["python benchmarks/puzzles.py", f"--deals {args.deals}", f"--seed {args.seed}",
             "--variants " + " ".join(map(str, args.variants))]
    if args.steadiness:
        words.append(f"--steadiness {args.steadiness}")
    if args.solvers:
        words.append("--solvers")
        if args.sample:
            words.append(f"--sample {args.sample}")
    section = markdown(rates, steady, " ".join(words), facts, solving)
    print(section)
    if args.write_docs:
        write_docs(section)


if __name__ == "__main__":
    main()
