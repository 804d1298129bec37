"""The ``expert`` bot: how fast it decides, and how often it beats the ``basic`` bot.

Run ``python benchmarks/expert.py [--games N] [--seed S] [--variants 2 3 4 5] [--json]
[--write-docs] [--bot SPEC]``.  Whole games to the target (10 by default) are played with
:func:`euchre.bots.play_game`, default rules of each variant:

* two-handed: expert against basic;
* three-handed: one expert against two basic;
* four-handed: an expert pair (partners, opposite) against a basic pair;
* five-handed: one expert against four basic.

The expert's seat(s) rotate from one game to the next (game ``g`` puts it at seat
``g mod n``, four-handed its partner opposite), and game ``g`` is dealt from seed
``S + g``.  A game is won by the seats in ``game.winners``; a tie at the top is shared
(RULES §10).  The report gives the expert side's share of the games with a 95% Wilson
interval, and the expert's decision times over every decision it took in those games
with two or more legal actions (one legal action is answered at once and not counted):
median and 99th percentile, overall and by variant and phase.  The bot runs with its
defaults (``make_bot("expert", seed)``: its time budget on, as in play); ``--bot SPEC`` times
another in its place, any name :func:`euchre.bots.make_bot` takes (``expert:32``,
``expert:32:am``: fixed worlds, no budget).

``--write-docs`` replaces the "## Expert bot" section of ``docs/benchmarks.md`` (appending
it if missing) with the figures of the run; other sections are left alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from euchre import Rules
from euchre.actions import Action
from euchre.bots import Bot, make_bot, play_game
from euchre.bots.expert import ExpertBot
from euchre.deal import Observation
from euchre.jobs.bench import machine, percentile, side_seats, wilson
from euchre.solver import warm_up

VARIANTS: tuple[int, ...] = (2, 3, 4, 5)
GOALS: dict[int, float] = {2: 0.65, 3: 0.50, 4: 0.65, 5: 0.35}
"""The expert side's share of games the issue asks for, by number of players."""
TIME_GOALS: tuple[float, float] = (50.0, 250.0)
"""Median and p99 decision time goals, in milliseconds."""
DOCS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
SECTION = "## Expert bot"


class TimedBot:
    """Wraps a bot and records how long each decision with a choice took."""

    def __init__(self, bot: Bot, log: list[tuple[str, float]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_observation = True
        self.log = log

    def act(self, observation: Observation) -> Action:
        """The wrapped bot's action, timed."""
        t = time.perf_counter()
        action = self.bot.act(observation)
        elapsed = time.perf_counter() - t
        if len(observation.legal_actions) > 1:
            self.log.append((observation.phase.name.lower(), elapsed * 1000))
        return action


@dataclass
class Row:
    """The expert side's results over the games of one variant."""

    players: int
    games: int = 0
    wins: float = 0.0
    deals: int = 0
    seconds: float = 0.0
    times: list[tuple[str, float]] = field(default_factory=list)

    @property
    def share(self) -> float:
        """The expert side's share of the games."""
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object."""
        lo, hi = wilson(self.wins, self.games)
        ms = [t for _, t in self.times]
        return {
            "players": self.players,
            "games": self.games,
            "expert_wins": self.wins,
            "expert_share": round(self.share, 4),
            "interval95": [round(lo, 4), round(hi, 4)],
            "goal": GOALS[self.players],
            "deals": self.deals,
            "seconds": round(self.seconds, 1),
            "decisions": len(ms),
            "median_ms": round(statistics.median(ms), 2) if ms else None,
            "p99_ms": round(percentile(ms, 0.99), 2) if ms else None,
        }


def play_row(players: int, games: int, seed: int, bot: str = "expert") -> Row:
    """Play ``games`` games of the variant and count the expert side's wins; ``bot`` is
    the expert side's bot, by :func:`make_bot` (``expert``: the expert as played)."""
    rules = Rules(players=players)
    row = Row(players)
    start = time.perf_counter()
    for g in range(games):
        seats = side_seats(players, g)
        bots: list[Bot] = [
            TimedBot(make_bot(bot, (seed + g) * 8 + s), row.times) if s in seats
            else make_bot("basic", (seed + g) * 8 + s)
            for s in range(players)
        ]
        game = play_game(rules, bots, seed=seed + g)
        winners = game.winners
        row.wins += sum(1 for s in winners if s in seats) / len(winners)
        row.deals += len(game.deals)
        row.games += 1
    row.seconds = time.perf_counter() - start
    return row


def timing_table(rows: list[Row]) -> list[dict[str, Any]]:
    """Median and p99 decision times by variant and phase."""
    out = []
    for row in rows:
        by: dict[str, list[float]] = defaultdict(list)
        for phase, ms in row.times:
            by[phase].append(ms)
        for phase, times in sorted(by.items()):
            out.append({"players": row.players, "phase": phase, "decisions": len(times),
                        "median_ms": round(statistics.median(times), 2),
                        "p99_ms": round(percentile(times, 0.99), 2)})
    return out


def report(rows: list[Row], args: argparse.Namespace, warm: float) -> dict[str, Any]:
    """The whole report as one JSON object."""
    ms = [t for row in rows for _, t in row.times]
    return {
        "command": " ".join(["python", "benchmarks/expert.py", *sys.argv[1:]]),
        "bot": args.bot,
        "games_per_variant": args.games,
        "seed": args.seed,
        "warm_up_s": round(warm, 2),
        "decisions": len(ms),
        "median_ms": round(statistics.median(ms), 2) if ms else None,
        "p99_ms": round(percentile(ms, 0.99), 2) if ms else None,
        "rows": [row.to_json() for row in rows],
        "timing": timing_table(rows),
        "machine": machine(),
    }


_WHO = {2: "expert vs basic", 3: "one expert vs two basic", 4: "expert pair vs basic pair",
        5: "one expert vs four basic"}


def _wins(wins: float) -> str:
    """Games won, with a shared win's fraction to one decimal."""
    return f"{wins:g}" if wins == int(wins) else f"{wins:.1f}"


def format_row(r: dict[str, Any]) -> str:
    """One line of the plain report."""
    lo, hi = r["interval95"]
    met = "met" if r["expert_share"] >= r["goal"] else "MISSED"
    return (f"{r['players']} players  {_WHO[r['players']]:<26} {r['expert_share']:6.1%}  "
            f"(95% {lo:.1%}-{hi:.1%}; goal {r['goal']:.0%} {met})  "
            f"{_wins(r['expert_wins'])}/{r['games']} games, {r['deals']} deals, {r['seconds']} s; "
            f"decisions median {r['median_ms']} ms, p99 {r['p99_ms']} ms")


def markdown(rep: dict[str, Any]) -> str:
    """The "## Expert bot" section of docs/benchmarks.md."""
    m = rep["machine"]
    lines = [
        SECTION,
        "",
        "`benchmarks/expert.py` plays whole games to 10 (default rules of each variant) "
        "between the `expert` bot (`make_bot(\"expert\", seed)`: its defaults, "
        f"{ExpertBot(0).samples} worlds or a {ExpertBot(0).time_budget} s budget per "
        "decision) and the `basic` bot, rotating the expert's seat(s) from game to game, "
        "and times every expert decision that had a choice (two or more legal actions).",
        "",
        "### Figures",
        "",
        f"`{rep['command']}`: {rep['games_per_variant']} games per row, seeds "
        f"{rep['seed']}..{rep['seed'] + rep['games_per_variant'] - 1}. The share counts a "
        "game won by the expert side (a tie at the top shared); the interval is the 95% "
        "Wilson score interval.",
        "",
        "| game | expert side's share of games | 95% interval | goal | deals |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rep["rows"]:
        lo, hi = r["interval95"]
        met = "met" if r["expert_share"] >= r["goal"] else "**missed**"
        lines.append(f"| {r['players']}-handed: {_WHO[r['players']]} | "
                     f"**{r['expert_share']:.1%}** ({_wins(r['expert_wins'])}/{r['games']}) | "
                     f"{lo:.1%}–{hi:.1%} | ≥ {r['goal']:.0%} ({met}) | {r['deals']} |")
    med, p99 = rep["median_ms"], rep["p99_ms"]
    lines += [
        "",
        f"**Decision time** over {rep['decisions']} expert decisions of every variant and "
        f"phase: median **{med} ms**, p99 **{p99} ms** (goals ≤ {TIME_GOALS[0]:g} ms and "
        f"≤ {TIME_GOALS[1]:g} ms). By variant:",
        "",
        "| variant | decisions | median ms | p99 ms |",
        "|---|---:|---:|---:|",
    ]
    for r in rep["rows"]:
        lines.append(f"| {r['players']}-handed | {r['decisions']} | {r['median_ms']} | "
                     f"{r['p99_ms']} |")
    lines += ["", "By phase (all variants pooled):", "",
              "| phase | decisions | median ms | p99 ms |", "|---|---:|---:|---:|"]
    by_phase = rep.get("by_phase", {})
    for phase, (count, pmed, pp99) in sorted(by_phase.items()):
        lines.append(f"| {phase} | {count} | {pmed} | {pp99} |")
    lines += [
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores shared with other work (load average "
        f"{', '.join(str(x) for x in m['load_average'])} at the end of the run), Python "
        f"{m['python']}; the solver's JIT warm-up ({rep['warm_up_s']} s) is not timed. "
        "Times are wall-clock on this busy machine, so they are noisy; the time budget "
        "stops sampling early when the machine is slow, which keeps the p99 bounded at "
        "some cost in strength.",
        "",
    ]
    notes = rep.get("notes")
    if notes:
        lines += ["### Notes", "", notes.strip(), ""]
    lines += [
        "### The command",
        "",
        "```sh",
        f".venv/bin/python benchmarks/expert.py --games {rep['games_per_variant']} "
        "--write-docs   # this section",
        ".venv/bin/python benchmarks/expert.py --games 20 --variants 2 4 --json",
        "```",
        "",
    ]
    return "\n".join(lines)


def existing_notes(path: Path = DOCS) -> str:
    r"""The "### Notes" of the section now in ``path`` ("" if none), to keep them when
    the figures are rewritten without ``--notes``.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     doc = Path(d) / "b.md"
    ...     _ = doc.write_text("## Expert bot\n\n### Notes\n\nKept.\n\n### The command\n")
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
    """Replace (or append) the "## Expert bot" section of docs/benchmarks.md."""
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
    """Parse the command line, play, and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="games per variant")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--variants", type=int, nargs="+", default=list(VARIANTS),
                        choices=VARIANTS, help="numbers of players to play")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--write-docs", action="store_true",
                        help="write the figures into docs/benchmarks.md")
    parser.add_argument("--bot", default="expert",
                        help="the bot to time in the expert's seats (default: expert)")
    parser.add_argument("--notes", default="",
                        help="the notes of the docs section (default: keep the present ones)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be positive")
    warm = warm_up()
    rows = []
    for players in args.variants:
        row = play_row(players, args.games, args.seed, args.bot)
        rows.append(row)
        if not args.json:
            print(format_row(row.to_json()), flush=True)
    rep = report(rows, args, warm)
    by_phase: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        for phase, ms in row.times:
            by_phase[phase].append(ms)
    rep["by_phase"] = {p: (len(v), round(statistics.median(v), 2),
                           round(percentile(v, 0.99), 2)) for p, v in by_phase.items()}
    notes = args.notes or (existing_notes() if args.write_docs else "")
    if notes:
        rep["notes"] = notes
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        print(f"all decisions: {rep['decisions']}, median {rep['median_ms']} ms, "
              f"p99 {rep['p99_ms']} ms")
    if args.write_docs:
        write_docs(markdown(rep))
    return 0


if __name__ == "__main__":
    sys.exit(main())
