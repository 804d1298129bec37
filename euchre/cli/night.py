"""``euchre night``: a club night of progressive euchre, for the organiser with no server.

``euchre night schedule --players N`` prints the night's chart, round by round and table
by table (:mod:`euchre.night.schedule`); ``--json`` prints it as one object:
``{"players": N, "format": "...", "rounds": [{"tables": [[[a, b], [c, d]], ...],
"out": [e, ...]}, ...]}``, players numbered from 1.

>>> from typer.testing import CliRunner
>>> from euchre.cli import app
>>> result = CliRunner().invoke(app, ["night", "schedule", "--players", "5", "--json"])
>>> result.output[:62]
'{"players": 5, "format": "partners", "rounds": [{"tables": [[['
"""

from __future__ import annotations

import json
from typing import Annotated, Final, cast

import typer
from rich.console import Console
from rich.table import Table as RichTable

from euchre.cli.lang import N_, LangOption, _, ngettext, use
from euchre.cli.options import fail
from euchre.night import (
    FORMATS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    Format,
    Round,
    Schedule,
    full_rounds,
    make_schedule,
)

__all__ = ["NIGHT_HELP", "SCHEDULE_HELP", "night_app", "schedule_command"]

NIGHT_HELP: Final = N_("A club night of progressive euchre: the chart of who plays with "
                       "and against whom, round by round, for 4 to 64 players.")
SCHEDULE_HELP: Final = N_(
    "Print the chart of a club night: each round's tables, each table's two "
    "partnerships, and who sits out. Rotating partners: each pair partners at most once "
    "(for 4, 5, 8, 9, ... 32 players, exactly once, and opposes exactly twice). Winners "
    "move up: only the first round, since the next follow from the results. Fixed "
    "teams: players 1 and 2 are a team, 3 and 4 the next; the odd teams move up a table "
    "each round.")

FORMAT_NAMES: Final = {
    "partners": N_("rotating partners"),
    "winners": N_("winners move up"),
    "teams": N_("fixed teams"),
}
"""Each format as the chart names it."""

night_app = typer.Typer(help=NIGHT_HELP, no_args_is_help=True, add_completion=False,
                        rich_markup_mode=None)


def _check(players: int, rounds: int | None, fmt: str) -> None:
    """Refuse, in the player's language, what no chart can be made of."""
    if fmt not in FORMATS:
        fail(_("--format is partners, winners or teams, not {value}").format(value=fmt))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        fail(_("--players is from {least} to {most}, not {players}").format(
            least=MIN_PLAYERS, most=MAX_PLAYERS, players=players))
    if fmt == "teams" and players % 2:
        fail(_("fixed teams need an even number of players, not {players}: add a player "
               "or choose another format").format(players=players))
    most = full_rounds(players) if fmt == "partners" else MAX_ROUNDS
    if rounds is not None and not 1 <= rounds <= most:
        fail(_("--rounds is from 1 to {most} for {players} players in this format, not "
               "{rounds}").format(most=most, players=players, rounds=rounds))


def _sides(pair: tuple[int, int]) -> str:
    return _("{a} & {b}").format(a=pair[0], b=pair[1])


def _round_table(number: int, r: Round) -> RichTable:
    """One round of the chart: a line per table, and who sits out."""
    table = RichTable(title=_("Round {n}").format(n=number), title_justify="left",
                      show_edge=False, pad_edge=False)
    table.add_column(_("Table"), justify="right")
    table.add_column(_("Partners"))
    table.add_column("", justify="center", style="dim")
    table.add_column(_("Partners"))
    for k, t in enumerate(r.tables, start=1):
        table.add_row(str(k), _sides(t.sides[0]), _("against"), _sides(t.sides[1]))
    if r.out:
        table.caption = _("Sitting out: {players}").format(
            players=", ".join(str(p) for p in r.out))
        table.caption_justify = "left"
    return table


def print_chart(schedule: Schedule, console: Console) -> None:
    """The chart as a person reads it: a heading, then each round's tables."""
    n = schedule.players
    rounds = len(schedule.rounds)
    console.print(_("{players}, {format}, {rounds}").format(
        players=ngettext("{n} player", "{n} players", n).format(n=n),
        format=_(FORMAT_NAMES[schedule.format]),
        rounds=ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)),
        style="bold")
    for number, r in enumerate(schedule.rounds, start=1):
        console.print()
        console.print(_round_table(number, r))


@night_app.command("schedule", help=SCHEDULE_HELP)
def schedule_command(
    players: Annotated[int, typer.Option(
        "--players", "-n", help=N_("The number of players, from 4 to 64."))],
    rounds: Annotated[int | None, typer.Option(
        help=N_("The number of rounds. Default: the whole night (rotating partners: "
                "until everyone has partnered everyone they can; fixed teams: until each "
                "odd team has met each even team)."), show_default=False)] = None,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="partners|winners|teams",
        help=N_("The movement: rotating partners, winners move up, or fixed teams."))
    ] = "partners",
    seed: Annotated[int | None, typer.Option(
        help=N_("Number the players in a shuffled order (the same seed, the same "
                "chart)."), show_default=False)] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help=N_("Print one JSON object instead of the chart."))] = False,
    lang: LangOption = None,
) -> None:
    """Print a club night's chart (what it says: :data:`SCHEDULE_HELP`)."""
    if lang is not None:
        use(lang)
    _check(players, rounds, fmt)
    schedule = make_schedule(players, cast(Format, fmt), rounds, seed)
    winners_note = _("Winners move up: each round follows from the results of the one "
                     "before, so only round 1 is shown.")
    if json_out:
        typer.echo(json.dumps(schedule.to_json()))
        if fmt == "winners":
            typer.echo(winners_note, err=True)
        return
    console = Console(highlight=False)
    print_chart(schedule, console)
    if fmt == "winners":
        console.print()
        console.print(winners_note)
