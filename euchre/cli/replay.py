"""``euchre replay``: replay deal or game records exactly as RECORDS.md specifies.

The file holds one JSON object, a JSON list, or JSON lines; each record is a deal record
or a game record.  JSON lines are read one at a time, so a file of any length replays in
the memory of one record.  Every deal prints as it is replayed; the first malformed field
or illegal action stops the replay with one line on standard error and exit status 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import chain, islice
from typing import Annotated, Any

import typer

from euchre.cli.options import fail, input_lines
from euchre.records import RecordError, read_records, replay, replay_text

__all__ = ["replay_command"]


def replay_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="A deal record or game record (JSON, or JSON lines); "
                             "- reads standard input.")],
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object per deal (the RECORDS replay object; "
                       "game records add the running score).")] = False,
) -> None:
    """Replay deal or game records, one line per deal.

    An illegal or malformed action stops the replay: exit status 1 and one line on
    standard error naming the action's index, the action and the rule it breaks.
    """
    records = _read(file)
    first_two = list(islice(records, 2))  # with a second record, lines name their record
    several = len(first_two) > 1
    for k, record in enumerate(chain(first_two, records)):
        where = f"record {k}, " if several else ""
        # deal records number by their place in the file; a game record's deals by game
        game = "deals" in record
        head = f"game {k}: " if game and several else ""
        try:
            for i, replayed in enumerate(replay(record)):
                if json_out:
                    typer.echo(json.dumps(replayed.summary))
                else:
                    typer.echo(head + replay_text(replayed, i if game else k))
        except RecordError as e:
            fail(f"{where}{e}", 1)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
            # a field of the wrong shape that the record reader did not anticipate
            fail(f"{where}malformed record: {e}", 1)


def _read(file: str) -> Iterator[dict[str, Any]]:
    """The records of ``file`` as they are read; a fault in the file exits 1 with one line
    once the records before it have replayed."""
    try:
        yield from read_records(input_lines(file))
    except RecordError as e:
        fail(f"{file}: {e}", 1)
