"""``euchre analyze``: review one seat's decisions in a recorded game against the expert.

For each decision of the seat (with a choice) it prints what was played, what the
``expert`` bot would play, and the expected cost of the difference in points; the costly
ones are flagged as mistakes (:mod:`euchre.jobs.analysis`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Annotated, Final

import typer
from babel.numbers import format_decimal
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from euchre.actions import Action
from euchre.cli.lang import N_, LangOption, _, current, ngettext, use
from euchre.cli.options import fail, read_input, show_progress
from euchre.cli.prompt import Prompter, move_text
from euchre.cli.replay import record_seats
from euchre.cli.seats import YOU, SeatNames
from euchre.cli.style import CardStyle
from euchre.deal import Deal
from euchre.jobs.analysis import (
    DEFAULT_SAMPLES,
    MISTAKE_THRESHOLD,
    Decision,
    Review,
    count_decisions,
    default_seat,
    review_records,
)
from euchre.jobs.mistakes import keep, mistake_puzzles
from euchre.records import GameRecord, Record, RecordError, parse_records, replay

__all__ = ["ANALYZE_HELP", "MAX_ANALYZED_TEXT", "analyze_command", "keep_mistakes",
           "offer_review", "print_review", "reviewed"]

MAX_ANALYZED_TEXT: Final = 16 << 20
"""The most text of records one ``euchre analyze`` reads (16 MiB, some 3,000 games: about
an hour of the expert's time).  It holds them all, to count the decisions for its
progress and to describe each one from its deal; a longer file is refused in one line."""


ANALYZE_HELP = N_(
    "Review a seat's decisions in a recorded game against the expert bot.\n\n"
    "For each decision with a choice, one row: the deal (from 1), the move's number in "
    "the deal (from 1), when it was (bidding round, discard, trick), what was played, "
    "what the expert would play, and the cost: the points the seat's side could expect "
    "to lose this deal by the difference. Decisions that cost at least --threshold are "
    "mistakes. Seats are named as in euchre play.")
"""The command's help (``--help``), in English; ``euchre`` shows it in the player's
language."""


def analyze_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help=N_("A deal record or game record (JSON, or JSON lines); "
                             "- reads standard input."))],
    seat: Annotated[int | None, typer.Option(
        "--seat", metavar="N", show_default=False,
        help=N_("The seat to review. Default: the seat named 'You' in a game record "
             "saved by euchre play, else 0."))] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help=N_("Print one JSON object: seat, decisions (deal, index, phase, played, "
                       "best, cost, mistake), total_cost, mistakes. For programs, deal and "
                       "index count from 0, as the record's lists do; the table counts "
                       "from 1."))] = False,
    samples: Annotated[int, typer.Option(
        "--samples", metavar="K", help=N_("Sampled worlds per decision."))] = DEFAULT_SAMPLES,
    threshold: Annotated[float, typer.Option(
        "--threshold", metavar="POINTS",
        help=N_("Expected points lost from which a decision is a mistake."))] = MISTAKE_THRESHOLD,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", help=N_("Seed of the expert's sampling."))] = 0,
    lang: LangOption = None,
) -> None:
    """Review a seat's decisions against the expert bot (what it says:
    :data:`ANALYZE_HELP`)."""
    if lang is not None:
        use(lang)
    if samples < 1:
        fail(f"--samples is 1 or more, not {samples}")
    text = read_input(file, MAX_ANALYZED_TEXT,
                      ", more than euchre analyze reviews at once (thousands of games, "
                      "hours of the expert's time): split it")
    try:
        records = parse_records(text)
        if seat is None:
            seat = default_seat(records)
        review = reviewed(records, seat, samples=samples, seed=seed, threshold=threshold,
                          progress=show_progress(json_out))
    except RecordError as e:
        fail(f"{file}: {e}", 1)
    except ValueError as e:
        fail(str(e), 2)
    except (TypeError, KeyError, AttributeError, IndexError) as e:
        fail(f"{file}: malformed record: {e}", 1)
    keep_mistakes(review, records)
    if json_out:
        typer.echo(json.dumps(review.to_json()))
    else:
        print_review(Console(highlight=False), review, records)


def keep_mistakes(review: Review, records: Sequence[Record]) -> None:
    """The review's mistakes become the player's own puzzles (``euchre puzzle --mine``,
    :mod:`euchre.jobs.mistakes`)."""
    keep(mistake_puzzles(review, records))


def reviewed(records: Sequence[Record], seat: int, *, samples: int = DEFAULT_SAMPLES,
             seed: int = 0, threshold: float = MISTAKE_THRESHOLD, progress: bool = True,
             stop: Callable[[], bool] | None = None) -> Review:
    """:func:`~euchre.jobs.analysis.review_records`, with a progress bar on standard error
    while it runs (``progress``; it is gone when done).  ``stop`` is asked after each
    decision: true raises ``KeyboardInterrupt`` (a Ctrl-C held by the game's
    :class:`~euchre.cli.prompt.Prompter`)."""
    total = count_decisions(records, seat) if progress else 0
    bar = Progress(TextColumn("[bold]" + _("analyzing") + "[/]"), BarColumn(),
                   MofNCompleteColumn(), TextColumn(_("decisions")), TimeElapsedColumn(),
                   console=Console(stderr=True), disable=not progress, transient=True)

    def advance() -> None:
        bar.update(task, advance=1)
        if stop is not None and stop():
            raise KeyboardInterrupt

    with bar:
        task = bar.add_task("decisions", total=total)
        return review_records(records, seat, samples=samples, seed=seed,
                              threshold=threshold, progress=advance)


def offer_review(console: Console, prompter: Prompter, record: GameRecord,
                 seat: int) -> None:
    """At the end of a game played in the terminal: ask whether to review the person's
    decisions (seat ``seat`` of the game ``record``), and if so review them as
    ``euchre analyze`` does, with its defaults.  A Ctrl-C while the review runs (or is
    printed) stops the review alone; the end of the input, or Ctrl-C at the question,
    declines it."""
    try:
        if not prompter.confirm(_("Review your decisions?"), default=True):
            return
    except (EOFError, KeyboardInterrupt):
        console.print()
        return
    records = [record]
    try:
        review = reviewed(records, seat, stop=prompter.interrupted)
    except KeyboardInterrupt:
        console.print(_("The review was stopped."))
        return
    print_review(console, review, records)
    keep_mistakes(review, records)
    prompter.interrupted()  # a Ctrl-C meant to stop the review came too late: forget it


_PHASE_WORDS: Final = {
    "bid_turnup": N_("bidding, round 1"),
    "bid_suit": N_("bidding, round 2"),
    "name_trump": N_("naming trump"),
    "exchange": N_("dealer's discard"),
    "dummy": N_("dummy discard"),
    "call_partner": N_("partner call"),
    "defend": N_("defend alone?"),
}
"""A decision's moment outside the play, in English (:func:`_` words it)."""


def _finals(records: Sequence[Record]) -> list[Deal]:
    """Every deal of the records as replayed, in the numbering of the review."""
    return [r.deal for record in records for r in replay(record)]


def _when(decision: Decision, deals: Sequence[Deal]) -> str:
    """The moment of a decision in words: ``bidding, round 1`` or ``trick 3, lead``."""
    if decision.phase != "play":
        words = _PHASE_WORDS.get(decision.phase)
        return _(words) if words is not None else decision.phase.replace("_", " ")
    final = deals[decision.deal]
    deal = Deal.from_record(final.to_record(), apply_actions=False)
    for action in final.actions[:decision.index]:
        deal.apply(action)
    number = len(deal.tricks) + 1
    return (_("trick {number}, lead") if not deal.current_trick
            else _("trick {number}")).format(number=number)


def _move(action: Action) -> str:
    """A card played is just the card; other actions as typed in the language (rich
    markup), cards as ``euchre play`` shows them in it (``A♥`` in French)."""
    lang = current()
    return move_text(action, CardStyle.speaking(lang, symbols=lang != "en", colour=False))


def seat_names(records: Sequence[Record], seat: int, players: int) -> SeatNames:
    """The seats named as in ``euchre play``: a saved game keeps its names ("You"…);
    in any other record the reviewed seat sits South."""
    for record in records:
        saved = record_seats(record)[0]
        if saved is not None and YOU in saved and len(saved) == players:
            return SeatNames.around(players, saved.index(YOU), person=True)
    return SeatNames.around(players, seat, person=False)


def print_review(console: Console, review: Review, records: Sequence[Record]) -> None:
    """The readable review of ``euchre analyze``: one row per decision, the columns
    explained, the totals."""
    deals = _finals(records)
    n = deals[0].rules.players if deals else 4
    names = seat_names(records, review.seat, n)
    title = names.act(review.seat, N_("{who}'s decisions (seat {seat}) against the expert bot"),
                      N_("Your decisions (seat {seat}) against the expert bot"),
                      seat=review.seat)
    table = Table(title=title)
    table.add_column(_("deal"), justify="right")
    table.add_column(_("move"), justify="right")
    table.add_column(_("when"))
    table.add_column(_("played"))
    table.add_column(_("expert"))
    table.add_column(_("cost"), justify="right")
    table.add_column("")
    for d in review.decisions:
        # "same" is the same move, or one as good (its cost shows as 0.00)
        same = d.best == d.played or round(d.cost, 2) == 0
        table.add_row(str(d.deal + 1), str(d.index + 1), _when(d, deals),
                      _move(d.played),
                      "[dim]" + _("same") + "[/]" if same else _move(d.best),
                      _points(d.cost), "[bold red]" + _("mistake") + "[/]" if d.mistake else "")
    console.print(table)
    console.print("[dim]" + _(
        "deal: the deal's number, from 1 · move: the action's number in that deal, "
        "from 1 (the first bid is 1) · when: the bidding round, the discard or the trick · "
        "played: what was played · expert: what the expert bot would have played (same: "
        "the same, or as good) · cost: the points your side could expect to lose this deal "
        "by the move played instead of the expert's, 0.00 when none") + "[/]")
    n_decisions = len(review.decisions)
    decisions = ngettext("{n} decision", "{n} decisions", n_decisions).format(n=n_decisions)
    cost = _("expected cost [bold]{cost}[/] points").format(cost=_points(review.total_cost))
    mistakes = ngettext("[bold]{n}[/] mistake", "[bold]{n}[/] mistakes",
                        review.mistakes).format(n=review.mistakes)
    threshold = _("(a cost of {threshold} points or more; --threshold)").format(
        threshold=format_decimal(review.threshold, locale=current()))
    console.print(f"{decisions} · {cost} · {mistakes} [dim]{threshold}[/]")


def _points(value: float) -> str:
    """Expected points with two decimals, as the language writes them (``0,25``)."""
    return format_decimal(value, "0.00", locale=current())
