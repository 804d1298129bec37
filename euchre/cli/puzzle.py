"""``euchre puzzle``: positions from real deals where one decision matters, rated.

``euchre puzzle`` serves a puzzle near the player's rating (:mod:`euchre.puzzles`): the
deal told as ``euchre play`` tells it, up to the decision (the same
:class:`~euchre.cli.narrate.Narrator`), the answer typed as in a game (a number or the
move, in the player's language: :func:`~euchre.cli.prompt.interpret`), then the
explanation: right or not, the expert's value of every legal action, one or two lines
from the position (trumps held, the bidding, the trumps not seen) and the rating's
change (Glicko-2, :mod:`euchre.puzzles.rating`), kept per variant in the settings file
(:func:`euchre.cli.difficulty.settings_path`).  ``--daily`` serves the day's puzzle,
``--streak`` puzzles of rising rating until the first miss, ``--mine`` the player's own
mistakes (:mod:`euchre.jobs.mistakes`), ``--export`` prints puzzles as JSON lines.
``euchre puzzle make`` makes a set (:mod:`euchre.jobs.puzzles`).
"""

from __future__ import annotations

import datetime
import json
import random
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Final

import typer
from babel.numbers import format_decimal
from rich.console import Console
from rich.markup import escape

from euchre.actions import Action, InvalidActionError
from euchre.cli.chunks import (
    CheckpointOption,
    RayAddressOption,
    RayOption,
    WorkersOption,
    backend_of,
    chunk_bar,
)
from euchre.cli.difficulty import remember_setting, setting
from euchre.cli.lang import N_, LangOption, _, current, ngettext, use
from euchre.cli.narrate import Narrator
from euchre.cli.options import PlayersOption, RulesGiven, fail, rules_options, show_progress
from euchre.cli.prompt import Ambiguous, Command, Prompter, choices, interpret
from euchre.cli.results import house_rules
from euchre.cli.seats import SeatNames
from euchre.cli.style import CardStyle
from euchre.deal import Deal, IllegalActionError, Observation
from euchre.jobs.distributed import Backend, CheckpointError, run_job
from euchre.jobs.mistakes import forget, mine
from euchre.jobs.puzzles import PLAY_WORLDS, VERDICT_WORLDS, PuzzleMaker, collect, header
from euchre.puzzles import (
    THEMES,
    Puzzle,
    count_themes,
    daily,
    nearest,
    read_puzzles,
    reasons,
    shipped,
    write_puzzles,
)
from euchre.puzzles.rating import Rating, rate
from euchre.wording import why_illegal

__all__ = ["PUZZLE_HELP", "make_command", "puzzle_app", "puzzle_command"]

PUZZLE_HELP = N_(
    "Puzzles: positions from real deals where one decision matters. Find the expert's "
    "move; each try moves your rating (Glicko-2, kept per variant).")
"""The command's help, in English; ``euchre`` shows it in the player's language."""

THEME_WORDS: Final = {
    "bid": N_("bidding"), "go alone": N_("going alone"), "discard": N_("the discard"),
    "call": N_("calling a partner"), "defend alone": N_("defending alone"),
    "lead": N_("the lead"), "follow": N_("following suit"), "ruff": N_("trumping in"),
    "throw off": N_("throwing off"), "next": N_("next"), "loner": N_("loner"),
    "stick the dealer": N_("stick the dealer"), "trump lead": N_("trump lead"),
    "save the bower": N_("save the bower"), "count trumps": N_("count trumps"),
    "partner's ace": N_("partner's ace"),
}
"""Each theme (:data:`euchre.puzzles.THEMES`) in English words, for :func:`_`."""

_SEEN: Final = 300
"""Puzzles remembered as seen, per variant, so that the next ones are others."""

puzzle_app = typer.Typer(help=PUZZLE_HELP, invoke_without_command=True,
                         no_args_is_help=False, rich_markup_mode=None)


# -- the settings: rating, puzzles seen, best streak, per variant ------------------------

def _kept(players: int) -> dict[str, Any]:
    kept = setting("puzzles")
    variant = kept.get(str(players)) if isinstance(kept, dict) else None
    return dict(variant) if isinstance(variant, dict) else {}


def _keep(players: int, variant: dict[str, Any]) -> None:
    kept = setting("puzzles")
    every = dict(kept) if isinstance(kept, dict) else {}
    every[str(players)] = variant
    remember_setting("puzzles", every)


def player_rating(players: int) -> Rating:
    """The player's rating in the variant (a new player's when none is kept)."""
    return Rating.from_json(_kept(players).get("rating"))


# -- telling a puzzle ------------------------------------------------------------------------

def _points(value: float, signed: bool = True) -> str:
    return format_decimal(value, "+0.00;-0.00" if signed else "0.00", locale=current())


class Trainer:
    """Serves puzzles in the terminal: the position, the question, the explanation."""

    def __init__(self, console: Console, prompter: Prompter, symbols: bool) -> None:
        self.console = console
        self.prompter = prompter
        self.style = CardStyle.speaking(current(), symbols)

    def attempt(self, puzzle: Puzzle, title: str) -> Action | None:
        """Tell the position and ask for the answer; the action answered (legal there),
        or ``None`` when the player leaves (``q``, or the input ends)."""
        deal = Deal.from_record(puzzle.record, apply_actions=False)
        names = SeatNames.around(puzzle.players, puzzle.seat, person=True)
        narrator = Narrator(self.console, names, puzzle.seat, self.style)
        narrator.deal_start(deal.observation(puzzle.seat), 1, title)
        house = house_rules(deal.rules)
        if house:
            narrator.say(_("House rules: {rules}").format(rules=house), 0)
        for text in puzzle.record["actions"]:
            effect = deal.apply(text)
            narrator.tell(effect, deal.observation(puzzle.seat))
        obs = deal.observation(puzzle.seat)
        narrator.say("[bold]" + _("Your decision: find the expert's move.") + "[/]", 0)
        narrator.turn(obs)
        while True:
            try:
                answer = self.prompter.ask(narrator.prompt(obs))
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return None
            try:
                choice: Action | Command = interpret(answer, choices(obs), obs.phase)
            except Ambiguous as two:
                narrator.say(_("{text} can be read two ways; which do you mean?").format(
                    text=f"[bold]{escape(two.answer)}[/]"), 0)
                narrator.say(narrator.choices(obs))
                continue
            except InvalidActionError as e:
                narrator.refuse(escape(str(e)))
                continue
            if choice is Command.HELP:
                narrator.help(obs)
                continue
            if choice is Command.HINT:
                narrator.say(_("No hints in a puzzle: the answer is what it asks."), 0)
                continue
            if choice is Command.QUIT:
                return None
            if choice is Command.NOTHING:
                narrator.say(narrator.choices(obs))
                continue
            try:
                deal.check(choice, seat=puzzle.seat)
            except IllegalActionError:
                narrator.refuse(why_illegal(obs, choice, current(), self.style))
                continue
            return choice

    def explain(self, puzzle: Puzzle, chosen: Action) -> bool:
        """Say whether ``chosen`` solves the puzzle, the value of every legal action and
        the reasons; whether it was solved."""
        obs = puzzle.observation()
        names = SeatNames.around(puzzle.players, puzzle.seat, person=True)
        narrator = Narrator(self.console, names, puzzle.seat, self.style)
        answer = Action.parse(puzzle.answer)
        solved = puzzle.solved_by(chosen)
        best = f"[bold]{narrator.move(answer, named=True)}[/]"
        if solved:
            narrator.say("[bold green]✓ " + _("Right!") + "[/] " + _(
                "{move} is the expert's move.").format(move=best), 0)
        else:
            lost = puzzle.values[puzzle.answer] - puzzle.value(chosen)
            narrator.say("[bold red]✗ " + _("Not this one.") + "[/] " + _(
                "The expert's move is {move}: {points} points better than {yours}.").format(
                move=best, points=_points(lost, signed=False),
                yours=f"[bold]{narrator.move(chosen, named=True)}[/]"), 0)
        ranked = sorted(puzzle.values.items(), key=lambda av: -av[1])
        cells = [f"{narrator.move(Action.parse(a), named=True)} {_points(v)}"
                 for a, v in ranked]
        narrator.say(_("Values [dim](expected points for your side this deal)[/]: ")
                     + " · ".join(cells), 0)
        for line in self.reasons(obs, answer, names):
            narrator.say("[dim]" + line + "[/]", 0)
        if puzzle.themes:
            narrator.say("[dim]" + _("Themes: {themes}").format(themes=", ".join(
                _(THEME_WORDS.get(t, t)) for t in puzzle.themes)) + "[/]", 0)
        return solved

    def reasons(self, obs: Observation, answer: Action, names: SeatNames) -> list[str]:
        """One or two lines from the position (:func:`euchre.puzzles.reasons`): the trumps
        held (if the suit bid on were trump, in the bidding), what the bidding showed, the
        trumps not seen."""
        facts = reasons(obs, answer)
        lines = []
        if facts.suit is not None:
            n, cards = len(facts.held), self.style.cards(facts.held)
            if facts.bidding:
                line = (ngettext("With {suit} trump you would hold {n} trump: {cards}.",
                                 "With {suit} trump you would hold {n} trumps: {cards}.", n)
                        if n else _("With {suit} trump you would hold no trump."))
            else:
                line = (ngettext("You hold {n} trump: {cards}.", "You hold {n} trumps: {cards}.",
                                 n) if n else _("You hold no trump."))
            lines.append(line.format(suit=self.style.suit(facts.suit), n=n, cards=cards))
        if facts.bidding:
            if not facts.passed:
                lines.append(_("Nobody has bid before you."))
            else:
                lines.append(ngettext("Passed before you: {who}.", "Passed before you: {who}.",
                                      len(facts.passed)).format(
                    who=", ".join(names[s] for s in facts.passed)))
        elif facts.maker is not None:
            line = (names.act(facts.maker, N_("{who} made trump alone."),
                              N_("You made trump alone.")) if facts.alone else
                    names.act(facts.maker, N_("{who} made trump."), N_("You made trump.")))
            if facts.out is not None:
                out = facts.out
                line += " " + (ngettext("One trump you have not seen: {cards}.",
                                        "{n} trumps you have not seen: {cards}.", len(out))
                               .format(n=len(out), cards=self.style.cards(out))
                               if out else _("You have seen every trump."))
            lines.append(line)
        return lines


# -- the command -------------------------------------------------------------------------------

def _pool(players: int, file: Path | None) -> list[Puzzle]:
    if file is None:
        return list(shipped(players))
    try:
        _header, puzzles = read_puzzles(file.read_bytes())
    except OSError as e:
        fail(f"cannot read {file}: {e.strerror}", 1)
    except (ValueError, KeyError, TypeError) as e:
        fail(f"{file}: {e}", 1)
    return [p for p in puzzles if p.players == players]


def _title(puzzle: Puzzle, label: str) -> str:
    return f"{label} · " + _("rated {rating}").format(rating=puzzle.rating) + " · "


def _rated(trainer: Trainer, players: int, puzzle: Puzzle, solved: bool) -> None:
    """Rate the attempt, keep the rating, and say the change."""
    variant = _kept(players)
    before = Rating.from_json(variant.get("rating"))
    after = rate(before, puzzle.rating, solved)
    variant["rating"] = after.to_json()
    _keep(players, variant)
    change = round(after.rating) - round(before.rating)
    trainer.console.print(_("Your rating: {before} → {after} ({change})").format(
        before=round(before.rating), after=f"[bold]{round(after.rating)}[/]",
        change=f"{change:+d}"), highlight=False)


def _seen(players: int, puzzle: Puzzle) -> None:
    variant = _kept(players)
    seen = [s for s in variant.get("seen", []) if isinstance(s, str) and s != puzzle.id]
    variant["seen"] = [*seen, puzzle.id][-_SEEN:]
    _keep(players, variant)


@puzzle_app.callback()
def puzzle_command(
    ctx: typer.Context,
    players: PlayersOption = 4,
    theme: Annotated[list[str] | None, typer.Option(
        "--theme", metavar="THEME", show_default=False,
        help=N_("Only puzzles with this theme; give it again for several. Themes: bid, "
                "go alone, discard, call, defend alone, lead, follow, ruff, throw off, "
                "next, loner, stick the dealer, trump lead, save the bower, count trumps, "
                "partner's ace."))] = None,
    daily_: Annotated[bool, typer.Option(
        "--daily", help=N_("The puzzle of the day: the same for everyone that day."))] = False,
    streak: Annotated[bool, typer.Option(
        "--streak", help=N_("Puzzles of rising rating until the first miss."))] = False,
    mine_: Annotated[bool, typer.Option(
        "--mine", help=N_("Your own mistakes, from the reviews of your games (euchre "
                          "analyze, the review at the end of euchre play)."))] = False,
    export: Annotated[int | None, typer.Option(
        "--export", metavar="N", show_default=False,
        help=N_("Print N puzzles, one JSON object a line (rules, record, seat, answer, "
                "values, themes, rating), and exit."))] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help=N_("With --export: JSON lines (the only format)."))] = False,
    file: Annotated[Path | None, typer.Option(
        "--file", metavar="FILE", dir_okay=False, show_default=False,
        help=N_("Puzzles from FILE (made by euchre puzzle make) instead of the shipped "
                "ones."))] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="S", show_default=False,
        help=N_("Seed for choosing among the puzzles near your rating."))] = None,
    symbols: Annotated[bool | None, typer.Option(
        "--symbols/--letters", show_default=False,
        help=N_("Show cards as 10♠ J♥ and the joker as 🃏 instead of TS JH JK. Default: "
             "letters in English, symbols in other languages."))] = None,
    lang: LangOption = None,
) -> None:
    """Serve puzzles (what it says: :data:`PUZZLE_HELP`); ``make`` is a subcommand."""
    if ctx.invoked_subcommand is not None:
        return
    if lang is not None:
        use(lang)
    wanted = list(theme or [])
    unknown = [t for t in wanted if t not in THEMES]
    if unknown:
        fail(f"--theme {unknown[0]!r} is none of: {', '.join(THEMES)}")
    if sum((daily_, streak, mine_)) > 1 or (export is not None and (daily_ or streak)):
        fail("--daily, --streak and --mine go one at a time; --export alone or with --mine")
    pool = [p for p in (mine() if mine_ else _pool(players, file))
            if p.players == players and all(t in p.themes for t in wanted)]
    if export is not None:
        if export < 0:
            fail(f"--export is a number of puzzles, 0 or more, not {export}")
        for puzzle in pool[:export]:
            typer.echo(json.dumps(puzzle.to_json(), sort_keys=True))
        return
    console = Console(highlight=False)
    if not pool and wanted and not mine_:
        here = count_themes(p for p in _pool(players, file) if p.players == players)
        console.print(_("No puzzle here has every theme asked ({asked}). Themes here: "
                        "{themes}.").format(
            asked=", ".join(_(THEME_WORDS[t]) for t in wanted),
            themes=", ".join(f"{_(THEME_WORDS[t])} ({n})" for t, n in here.items())))
        return
    if not pool:
        console.print(_("No puzzles here yet.") if not mine_ else _(
            "No mistakes of yours kept yet: review a game (euchre analyze, or at the end of "
            "euchre play) and its costly decisions become your puzzles."))
        return
    rng = random.Random(seed) if seed is not None else random.Random()
    trainer = Trainer(console, Prompter(console), current() != "en" if symbols is None
                      else symbols)
    if daily_:
        day = datetime.datetime.now(datetime.UTC).date()  # one day for the whole world
        today = daily(pool, day)
        assert today is not None
        chosen = trainer.attempt(today, _title(today, _("Daily puzzle {date}").format(
            date=day.isoformat())))
        if chosen is not None:
            _rated(trainer, players, today, trainer.explain(today, chosen))
        return
    if streak:
        _streak(trainer, players, pool)
        return
    while True:
        variant = _kept(players)
        rating = player_rating(players).rating
        if mine_:
            puzzle = pool[0]
        else:
            found = nearest(pool, rating, rng, skip=variant.get("seen", []))
            assert found is not None
            puzzle = found
        chosen = trainer.attempt(puzzle, _title(puzzle, _("Puzzle {id}").format(id=puzzle.id)))
        if chosen is None:
            return
        solved = trainer.explain(puzzle, chosen)
        if mine_:
            if solved:
                forget(puzzle)
                pool.remove(puzzle)
            else:
                pool.append(pool.pop(0))  # met again after the others
            if not pool:
                console.print(_("You have solved all your own puzzles."))
                return
        else:
            _seen(players, puzzle)
            _rated(trainer, players, puzzle, solved)
        if not _again(trainer):
            return


def _again(trainer: Trainer) -> bool:
    try:
        return trainer.prompter.confirm(_("Another puzzle?"), default=True)
    except (EOFError, KeyboardInterrupt):
        trainer.console.print()
        return False


def _streak(trainer: Trainer, players: int, pool: Sequence[Puzzle]) -> None:
    """Puzzles from the easiest up, until the first miss; the best streak is kept."""
    ordered = sorted(pool, key=lambda p: (p.rating, p.id))
    count = 0
    for puzzle in ordered:
        chosen = trainer.attempt(puzzle, _title(puzzle, _("Streak {n}").format(n=count + 1)))
        if chosen is None:
            break
        if not trainer.explain(puzzle, chosen):
            break
        count += 1
    variant = _kept(players)
    best = max(count, int(variant.get("streak", 0) or 0))
    variant["streak"] = best
    _keep(players, variant)
    trainer.console.print("[bold]" + ngettext("Streak over: {n} puzzle solved in a row.",
                                              "Streak over: {n} puzzles solved in a row.",
                                              count).format(n=count)
                          + "[/] " + _("Your best: {best}.").format(best=best))


@puzzle_app.command("make")
@rules_options(not_here={"draw": "puzzles are cut from single deals, not games",
                         "rubber": "puzzles are cut from single deals, not games"})
def make_command(
    out: Annotated[Path, typer.Option(
        "--out", metavar="FILE", dir_okay=False,
        help="The puzzle file to write (JSON lines, gzip-compressed when it ends in .gz); "
             "euchre puzzle --file FILE serves them.")],
    rules_given: RulesGiven,
    deals: Annotated[int, typer.Option(
        "--deals", "-k", metavar="K", help="Deals the expert plays against itself.")] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="The deals' seed.")] = 0,
    worlds: Annotated[int, typer.Option(
        "--worlds", metavar="W",
        help="Worlds of each of the two opinions that judge a position.")] = VERDICT_WORLDS,
    play_worlds: Annotated[int, typer.Option(
        "--play-worlds", metavar="W",
        help="Worlds the expert samples per decision while playing.")] = PLAY_WORLDS,
    workers: WorkersOption = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    checkpoint: CheckpointOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: puzzles, examined, deals, seconds, "
                       "path.")] = False,
) -> None:
    """Make puzzles: the expert plays deals against itself and keeps the positions where
    one action beats every other by 0.3 points and the basic bot chooses another.
    """
    rules = rules_given.build()
    if deals < 1 or worlds < 1 or play_worlds < 1:
        fail("--deals, --worlds and --play-worlds are 1 or more")
    job = PuzzleMaker(rules, deals, seed, worlds, play_worlds)
    backend = backend_of(ray, ray_address, workers)
    if backend.kind == "local":
        from euchre.jobs.tournament import default_workers

        backend = Backend("local", min(workers or default_workers(), job.units()))
    try:
        with chunk_bar("puzzles", job.units(), show_progress(json_out), checkpoint) as update:
            run = run_job(job, backend, checkpoint, update)
    except (CheckpointError, ImportError) as e:
        fail(str(e))
    puzzles = collect(run.summaries)
    command = "euchre puzzle make " + shlex.join(sys.argv[3:] if sys.argv[1:3] == [
        "puzzle", "make"] else sys.argv[1:])
    try:
        write_puzzles(out, puzzles, header(job, command, run.summaries))
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}", 1)
    examined = sum(int(s["examined"]) for s in run.summaries)
    if json_out:
        typer.echo(json.dumps({"puzzles": len(puzzles), "examined": examined, "deals": deals,
                               "seconds": round(run.seconds, 3), "path": str(out)}))
    else:
        typer.echo(f"{len(puzzles)} puzzles from {examined} positions of {deals} deals, "
                   f"{run.seconds:.1f} s: {out}")
