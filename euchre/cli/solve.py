"""``euchre solve``: the exact open-hand value of every legal card (see euchre.solver)."""

from __future__ import annotations

import json
from itertools import chain, islice
from typing import Annotated

import typer

from euchre.cli.options import fail, input_records

__all__ = ["solve_command"]


def solve_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="A deal record (a saved deal) stopped in the play phase; "
                             "- reads standard input.")],
    json_out: Annotated[bool, typer.Option(
        "--json", help='Print {"to_move": seat, "values": {"play JH": tricks, ...}, '
                       '"best": "play JH"}.')] = False,
) -> None:
    """Solve a deal with every hand open: the tricks the mover's side takes with each card.

    The value of a card is what the side of the player to move takes from here, the
    trick in progress included, if it plays that card and everyone plays perfectly after.
    A file of several records is read and solved one record at a time.
    """
    records = input_records(file)
    first_two = list(islice(records, 2))  # with a second record, lines name their record
    several = len(first_two) > 1
    from euchre.solver import solve_record

    for k, record in enumerate(chain(first_two, records)):
        where = f"record {k + 1}: " if several else ""
        if "deals" in record:
            fail(f"{where}a game record holds several deals; solve takes one deal record", 1)
        try:
            answer = solve_record(record)
        except (ValueError, TypeError, KeyError) as e:
            fail(f"{where}{e}", 1)
        if json_out:
            typer.echo(json.dumps(answer))
            continue
        typer.echo(f"{where}seat {answer['to_move']} to play; tricks its side takes from here:")
        best = answer["best"]
        for action, tricks in sorted(answer["values"].items(), key=lambda kv: -kv[1]):
            mark = "  <- best" if action == best else ""
            typer.echo(f"  {action:<10} {tricks}{mark}")
