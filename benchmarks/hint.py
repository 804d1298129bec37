"""The expert's opinion (hints and reviews): how long one takes, and how steady it is.

Run ``python benchmarks/hint.py [--deals N] [--seed S] [--variants 2 3 4 5]
[--worlds W ...] [--steadiness K] [--json] [--write-docs]``.

**Time.**  Deals of each variant's default rules are played by the ``basic`` bot at every
seat (deal ``d`` from seed ``S + d``, the dealer rotating, a random game score); every
decision with a choice (two or more legal actions) is a position a player could ask a
hint about.  Each is given to :func:`euchre.bots.opinion.expert_opinion` with ``W``
worlds (:data:`~euchre.bots.opinion.OPINION_WORLDS` by default; several ``--worlds``
compare counts) and timed: median, p90 and p99 by variant, overall and for the decisions
before the play (bids, discards, calls: the costliest).  A review costs the sum of its
decisions' opinions.

**Steadiness** (``--steadiness K``): for ``K`` positions before the play per variant, the
opinion at each ``W`` is taken with 4 salts (other worlds of the same position) and set
against a reference of 2,048 worlds.  It reports how far off the value differences are
(each action's value minus the best's, mean absolute error, in points: a review flags
a mistake from 0.3) and how often the best action is not the reference's.

``--write-docs`` replaces the "## Hint and review" section of ``docs/benchmarks.md``
(appending it if missing) with the figures of the run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from euchre import Rules
from euchre.bots import choose, make_bot
from euchre.bots.opinion import OPINION_WORLDS, expert_opinion
from euchre.deal import Deal, Observation, Phase
from euchre.jobs.bench import machine, percentile
from euchre.solver import warm_up

VARIANTS: tuple[int, ...] = (2, 3, 4, 5)
GOAL_MS = 50.0
"""The bots' goal for the median decision."""
REFERENCE_WORLDS = 2048
SALTS = 4
DOCS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
SECTION = "## Hint and review"


def positions(players: int, deals: int, seed: int) -> list[Observation]:
    """Every decision with a choice in ``deals`` deals the basic bot plays."""
    rules = Rules(players=players)
    bots = [make_bot("basic", seed=s) for s in range(players)]
    out = []
    for d in range(deals):
        rng = random.Random(seed + d)
        deal = Deal.random(rules, dealer=d % players, seed=rng,
                           scores=[rng.randrange(rules.target - 1) for _ in range(players)])
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if len(deal.legal_action_ids()) > 1:
                out.append(deal.observation(seat))
            deal.apply(choose(bots[seat], deal))
    return out


def summary(ms: list[float]) -> dict[str, Any]:
    """Count, median, p90 and p99 of times in milliseconds."""
    if not ms:
        return {"decisions": 0, "median_ms": None, "p90_ms": None, "p99_ms": None}
    return {"decisions": len(ms), "median_ms": round(statistics.median(ms), 2),
            "p90_ms": round(percentile(ms, 0.9), 2), "p99_ms": round(percentile(ms, 0.99), 2)}


def time_row(players: int, worlds: int, obs: list[Observation]) -> dict[str, Any]:
    """The opinion's times over the positions of one variant."""
    every: list[float] = []
    before: list[float] = []
    for o in obs:
        t = time.perf_counter()
        expert_opinion(o, worlds)
        ms = (time.perf_counter() - t) * 1000
        every.append(ms)
        if o.phase is not Phase.PLAY:
            before.append(ms)
    return {"players": players, "worlds": worlds, **summary(every),
            "before_play": summary(before)}


def steadiness_row(players: int, worlds: list[int], obs: list[Observation],
                   count: int) -> list[dict[str, Any]]:
    """How far the opinion at each world count is from a 2,048-world reference."""
    chosen = [o for o in obs if o.phase is not Phase.PLAY][:count]
    errors: dict[int, list[float]] = {w: [] for w in worlds}
    flips: dict[int, int] = dict.fromkeys(worlds, 0)
    for o in chosen:
        ref = expert_opinion(o, REFERENCE_WORLDS, salt=-1)
        for w in worlds:
            for salt in range(SALTS):
                op = expert_opinion(o, w, salt=salt)
                gaps = [abs((op.values[a] - op.values[ref.best])
                            - (ref.values[a] - ref.values[ref.best])) for a in ref.values]
                errors[w].append(statistics.mean(gaps))
                flips[w] += op.best != ref.best
    return [{"players": players, "worlds": w, "positions": len(chosen),
             "mean_gap_error": round(statistics.mean(errors[w]), 3) if errors[w] else None,
             "best_differs": round(flips[w] / (len(chosen) * SALTS), 3) if chosen else None}
            for w in worlds]


def markdown(rep: dict[str, Any]) -> str:
    """The "## Hint and review" section of docs/benchmarks.md."""
    m = rep["machine"]
    lines = [
        SECTION,
        "",
        "The terminal's hint, `euchre analyze`, and the web app's hint and review all give the "
        "expert's opinion of a position (`euchre.bots.opinion.expert_opinion`): "
        f"{OPINION_WORLDS} worlds, no time budget, sampled with a seed derived from the "
        "position as the seat saw it. `benchmarks/hint.py` times it on every decision with "
        "a choice in deals the basic bot plays (default rules of each variant); the goal is "
        f"the bots' {GOAL_MS:g} ms median.",
        "",
        f"`{rep['command']}`:",
        "",
        "| variant | worlds | decisions | median ms | p90 ms | p99 ms | before the play: "
        "median / p90 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rep["times"]:
        b = r["before_play"]
        lines.append(f"| {r['players']}-handed | {r['worlds']} | {r['decisions']} | "
                     f"**{r['median_ms']}** | {r['p90_ms']} | {r['p99_ms']} | "
                     f"{b['median_ms']} / {b['p90_ms']} |")
    if rep.get("steadiness"):
        lines += [
            "",
            f"Steadiness over positions before the play (each opinion with {SALTS} salts, "
            f"against {REFERENCE_WORLDS:,} worlds): the mean error of the value differences "
            "(each action against the best, in points; a review flags a mistake from 0.3) "
            "and how often the best action is not the reference's:",
            "",
            "| variant | worlds | positions | mean error of the differences | best differs |",
            "|---|---:|---:|---:|---:|",
        ]
        for r in rep["steadiness"]:
            lines.append(f"| {r['players']}-handed | {r['worlds']} | {r['positions']} | "
                         f"{r['mean_gap_error']} | {r['best_differs']:.1%} |")
    lines += [
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores shared with other work (load average "
        f"{', '.join(str(x) for x in m['load_average'])} at the end), Python {m['python']}; "
        f"the solver's JIT warm-up ({rep['warm_up_s']} s) is not timed.",
        "",
    ]
    notes = rep.get("notes")
    if notes:
        lines += ["### Notes", "", notes.strip(), ""]
    lines += ["### The command", "", "```sh", f".venv/bin/{rep['command']} --write-docs",
              "```", ""]
    return "\n".join(lines)


def existing_notes(path: Path = DOCS) -> str:
    r"""The "### Notes" of the section now in ``path`` ("" if none), kept when the
    figures are rewritten without ``--notes``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     doc = Path(d) / "b.md"
    ...     _ = doc.write_text("## Hint and review\n\n### Notes\n\nKept.\n\n### The command\n")
    ...     existing_notes(doc)
    'Kept.'
    """
    if not path.exists():
        return ""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == SECTION), None)
    if start is None:
        return ""
    notes: list[str] = []
    inside = False
    for line in lines[start + 1:]:
        if line.startswith("## ") or (inside and line.startswith("### ")):
            break
        if line.strip() == "### Notes":
            inside = True
        elif inside:
            notes.append(line)
    return "\n".join(notes).strip()


def write_docs(section: str, path: Path = DOCS) -> None:
    """Replace (or append) the "## Hint and review" section of docs/benchmarks.md."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == SECTION), None)
    if start is None:
        new = text.rstrip("\n") + "\n\n" + section
    else:
        end = next((i for i in range(start + 1, len(lines))
                    if lines[i].startswith("## ")), len(lines))
        new = "\n".join([*lines[:start], *section.rstrip("\n").splitlines(),
                         *([""] if end < len(lines) else []), *lines[end:]]) + "\n"
    path.write_text(new, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, time, and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=20, help="deals per variant")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal")
    parser.add_argument("--variants", type=int, nargs="+", default=list(VARIANTS),
                        choices=VARIANTS, help="numbers of players")
    parser.add_argument("--worlds", type=int, nargs="+", default=[OPINION_WORLDS],
                        help="worlds per opinion (several: compared)")
    parser.add_argument("--steadiness", type=int, default=0, metavar="K",
                        help="positions before the play per variant for the steadiness "
                             "check (0: none)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--write-docs", action="store_true",
                        help="write the figures into docs/benchmarks.md")
    parser.add_argument("--notes", default="",
                        help="the notes of the docs section (default: keep the present ones)")
    args = parser.parse_args(argv)
    if args.deals < 1 or min(args.worlds) < 1 or args.steadiness < 0:
        parser.error("--deals and --worlds must be positive, --steadiness 0 or more")
    warm = warm_up()
    rep: dict[str, Any] = {
        "command": " ".join(["python", "benchmarks/hint.py", *(argv or sys.argv[1:])]),
        "warm_up_s": round(warm, 2), "times": [], "steadiness": []}
    for players in args.variants:
        obs = positions(players, args.deals, args.seed)
        expert_opinion(obs[0], 8)  # this variant's first solve is not timed
        for w in args.worlds:
            row = time_row(players, w, obs)
            rep["times"].append(row)
            if not args.json:
                b = row["before_play"]
                print(f"{players}-handed, {w} worlds: {row['decisions']} decisions, median "
                      f"{row['median_ms']} ms, p90 {row['p90_ms']} ms, p99 {row['p99_ms']} "
                      f"ms; before the play median {b['median_ms']} ms, p90 {b['p90_ms']} ms",
                      flush=True)
        if args.steadiness:
            for r in steadiness_row(players, args.worlds, obs, args.steadiness):
                rep["steadiness"].append(r)
                if not args.json:
                    print(f"{players}-handed, {r['worlds']} worlds: differences off by "
                          f"{r['mean_gap_error']} points, best differs "
                          f"{r['best_differs']:.1%} ({r['positions']} positions)", flush=True)
    rep["machine"] = machine()
    notes = args.notes or (existing_notes() if args.write_docs else "")
    if notes:
        rep["notes"] = notes
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print(f"machine: {rep['machine']['cpu']}, {rep['machine']['cores']} cores")
    if args.write_docs:
        write_docs(markdown(rep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
