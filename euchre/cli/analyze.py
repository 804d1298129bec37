"""``euchre analyze``: review one seat's decisions in a recorded game against the expert.

For each decision of the seat (with a choice) it prints what was played, what the
``expert`` bot would play, and the expected cost of the difference in points; the costly
ones are flagged as mistakes (:mod:`euchre.analysis`).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from euchre.analysis import (
    DEFAULT_SAMPLES,
    MISTAKE_THRESHOLD,
    Review,
    count_decisions,
    default_seat,
    review_records,
)
from euchre.cli.options import fail, read_input, show_progress
from euchre.records import RecordError, parse_records

__all__ = ["analyze_command"]


def analyze_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="A deal record or game record (JSON, or JSON lines); "
                             "- reads standard input.")],
    seat: Annotated[int | None, typer.Option(
        "--seat", metavar="N", show_default=False,
        help="The seat to review. Default: the seat named 'You' in a game record "
             "saved by euchre play, else 0.")] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: seat, decisions (deal, index, phase, played, "
                       "best, cost, mistake), total_cost, mistakes.")] = False,
    samples: Annotated[int, typer.Option(
        "--samples", metavar="K", help="Sampled worlds per decision.")] = DEFAULT_SAMPLES,
    threshold: Annotated[float, typer.Option(
        "--threshold", metavar="POINTS",
        help="Expected points lost from which a decision is a mistake.")] = MISTAKE_THRESHOLD,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", help="Seed of the expert's sampling.")] = 0,
) -> None:
    """Review a seat's decisions in a recorded game against the expert bot.

    For each decision with a choice: what was played, what the expert would play, and
    the expected cost of the difference (points for the seat's side this deal; see
    euchre.bots.evaluation). Decisions that cost at least --threshold are mistakes.
    """
    if samples < 1:
        fail(f"--samples is 1 or more, not {samples}")
    text = read_input(file)
    try:
        records = parse_records(text)
        if seat is None:
            seat = default_seat(records)
        progress = show_progress(json_out)
        total = count_decisions(records, seat) if progress else 0
        bar = Progress(TextColumn("[bold]analyzing[/]"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("decisions"), TimeElapsedColumn(),
                       console=Console(stderr=True), disable=not progress, transient=True)
        with bar:
            task = bar.add_task("decisions", total=total)
            review = review_records(records, seat, samples=samples, seed=seed,
                                    threshold=threshold,
                                    progress=lambda: bar.update(task, advance=1))
    except RecordError as e:
        fail(f"{file}: {e}", 1)
    except ValueError as e:
        fail(str(e), 2)
    except (TypeError, KeyError, AttributeError, IndexError) as e:
        fail(f"{file}: malformed record: {e}", 1)
    if json_out:
        typer.echo(json.dumps(review.to_json()))
    else:
        _table(Console(highlight=False), review)


def _table(console: Console, review: Review) -> None:
    """The readable review: one row per decision, then the totals."""
    table = Table(title=f"Seat {review.seat}: each decision against the expert")
    table.add_column("deal", justify="right")
    table.add_column("#", justify="right")
    table.add_column("phase")
    table.add_column("played")
    table.add_column("expert")
    table.add_column("cost", justify="right")
    table.add_column("")
    for d in review.decisions:
        same = d.best == d.played
        table.add_row(str(d.deal), str(d.index), d.phase.replace("_", " "),
                      escape(str(d.played)), "[dim]same[/]" if same else escape(str(d.best)),
                      f"{d.cost:.2f}", "[bold red]mistake[/]" if d.mistake else "")
    console.print(table)
    n = len(review.decisions)
    console.print(f"{n} decisions · expected cost [bold]{review.total_cost:.2f}[/] points · "
                  f"[bold]{review.mistakes}[/] mistake{'s' if review.mistakes != 1 else ''} "
                  f"[dim](cost ≥ {review.threshold:g} points)[/]")
