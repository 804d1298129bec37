"""Deal and game records (docs/rules.md, "Saved games"): write them, read them, replay them.

A deal record (:class:`DealRecord`) holds the rules, the cards as dealt and the actions; a
game record (:class:`GameRecord`) holds the rules, the seats and the list of deal records
with the running score.  Both are typed, frozen records; their ``to_json`` and
``from_json`` are the one writer and the one reader of the JSON that files, the web's
downloads and ``euchre replay`` hold (:mod:`euchre.notation`).

>>> from euchre import Rules
>>> from euchre.game import Game
>>> game = Game(Rules(players=2, target=2, stick_the_dealer=True), seed=1)
>>> while not game.is_over:
...     _ = game.apply(game.deal.legal_action_ids()[-1])
>>> record = game_record(game, ["North", "South"])
>>> [r.summary["points"] for r in replay(record)]
[[0, 1], [1, 0], [2, 0]]
>>> game.scores
(3, 1)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn, TextIO, TypeAlias

from euchre.deal import Deal
from euchre.game import Draw, Game
from euchre.notation import DealRecord, DrawRecord, GameRecord, RecordError
from euchre.rules import describe_value

__all__ = [
    "MAX_DOCUMENT_TEXT",
    "MAX_RECORD_TEXT",
    "DealRecord",
    "DrawRecord",
    "GameRecord",
    "Record",
    "RecordError",
    "Replayed",
    "bounded_lines",
    "draw_of",
    "game_record",
    "length_words",
    "parse_records",
    "read_record",
    "read_records",
    "replay",
]


Record: TypeAlias = DealRecord | GameRecord | dict[str, Any]
"""A deal or game record: typed, or its JSON as a file holds it (read as it is
replayed, so that a fault in a game's deal stops the replay there)."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """One replayed deal: the final state and its RECORDS summary object.

    A deal record with no actions yet replays to a deal that has not started:

    >>> from euchre import Rules
    >>> (replayed,) = replay(Deal.random(Rules(players=2), dealer=0, seed=1).to_record())
    >>> replayed.deal.is_over, replayed.summary["complete"], replayed.score
    (False, False, None)
    """

    deal: Deal
    summary: dict[str, Any]
    score: tuple[int, ...] | None = field(default=None)
    """The running game score after this deal (game records only)."""


def game_record(game: Game, seats: Sequence[str] | None = None) -> GameRecord:
    """The record of a game: rules, seats, first dealer, the deals with the running score.

    >>> from euchre import Rules
    >>> game = Game(Rules(players=2, target=2, stick_the_dealer=True), seed=1)
    >>> while not game.is_over:
    ...     _ = game.apply(game.deal.legal_action_ids()[-1])
    >>> record = game_record(game, ["North", "South"])
    >>> sorted(record.to_json()), record.winners
    (['deals', 'first_dealer', 'rules', 'scores', 'seats', 'winners'], (0,))
    >>> [deal.score for deal in record.deals]
    [(0, 1), (1, 1), (3, 1)]
    """
    n = game.rules.players
    deals = []
    running = [0] * n
    for deal in [*game.deals, *([] if game.deal in game.deals else [game.deal])]:
        rec = deal.to_record()
        if deal.is_over:
            for s, p in enumerate(deal.result.points):
                running[s] += p
            rec = dataclasses.replace(rec, score=tuple(running))
        deals.append(rec)
    draw = game.draw
    return GameRecord(
        game.rules, tuple(deals),
        seats=tuple(seats) if seats is not None else tuple(f"seat {s}" for s in range(n)),
        first_dealer=game.first_dealer,
        scores=tuple(game.scores),
        winners=tuple(game.winners),
        draw=None if draw is None else DrawRecord(draw.rounds, draw.seats),
    )


def draw_of(record: DrawRecord | None) -> Draw | None:
    """The four-handed draw a game record keeps, if it is well formed: four players
    seated once each, four cards a round (else ``None``: it is not shown).

    >>> from euchre import Rules
    >>> game = Game(Rules(players=4, draw=True), seed=2)
    >>> draw_of(game_record(game).draw) == game.draw
    True
    """
    if record is None or sorted(record.seats) != [0, 1, 2, 3] \
            or any(len(row) != 4 for row in record.rounds):
        return None
    return Draw(record.rounds, record.seats)


_MAX_DIGITS: Final = 100
"""The longest number a record may hold; seats, points and scores are far shorter, and
Python refuses to read numbers of more than 4300 digits anyway."""


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > _MAX_DIGITS:
        raise RecordError(f"a number of {digits} digits is far too long for a seat, a score or "
                          f"a target")
    return int(text)


def _parse_constant(name: str) -> NoReturn:
    raise RecordError(f"{name} is not a number JSON knows")


def _loads(text: str, where: str) -> Any:
    """One JSON value; any fault raises :class:`RecordError` (JSON syntax raises
    :class:`json.JSONDecodeError` with ``where``'s line numbers left to the caller)."""
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except RecordError as e:
        raise RecordError(f"{where}{e}") from None
    except RecursionError:
        raise RecordError(f"{where}lists and objects nest deeper than any record does") from None


def _not_json(e: json.JSONDecodeError, first_line: int) -> RecordError:
    return RecordError(f"line {first_line + e.lineno - 1} is not JSON: {e.msg} "
                       f"(column {e.colno})")


def _record(item: Any, k: int) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise RecordError(f"record {k + 1} is not a JSON object but {describe_value(item)}",
                          deal=k)
    return item


MAX_RECORD_TEXT: Final = 1 << 20
"""The longest record read, in characters (1 MiB): a line of JSON lines, or one JSON
object.  A game's record is a few KB."""

MAX_DOCUMENT_TEXT: Final = 16 << 20
"""The longest JSON document read whole, in characters (16 MiB): a list of records, or
a record over several lines.  A longer file of records is JSON lines, one record a
line, read one at a time whatever its length."""


def length_words(n: int) -> str:
    """A limit on text in words: ``16 MiB``, or a count of characters where it is not a
    whole number of MiB (a test's).

    >>> length_words(16 << 20), length_words(5000)
    ('16 MiB', '5,000 characters')
    """
    return f"{n >> 20} MiB" if n and n % (1 << 20) == 0 else f"{n:,} characters"


def bounded_lines(stream: TextIO) -> Iterator[str]:
    """The lines of a text stream, each read with at most :data:`MAX_DOCUMENT_TEXT`
    characters, so that a stream without line ends (``/dev/zero``, a pipe that never
    ends a line) is not read into memory whole: raises :class:`RecordError` naming the
    line that is longer.

    >>> import io
    >>> list(bounded_lines(io.StringIO('{"dealer": 0}\\n{"dealer": 1}')))
    ['{"dealer": 0}\\n', '{"dealer": 1}']
    """
    limit = MAX_DOCUMENT_TEXT
    number = 0
    while True:
        line = stream.readline(limit + 2)  # the line's end may follow its last character
        if not line:
            return
        number += 1
        if _length(line) > limit:
            raise RecordError(f"line {number} is longer than {length_words(limit)}, far longer "
                              f"than any record: it is not read")
        yield line


def _length(line: str) -> int:
    """A line's length without its end."""
    return len(line) - line.endswith("\n")


def _record_too_long(number: int) -> RecordError:
    return RecordError(f"line {number} holds a record longer than {length_words(MAX_RECORD_TEXT)} "
                       f"(a game's record is a few KB): it is not read")


def read_records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The records of a file given line by line (a text file is such an iterable): JSON
    lines, read and yielded one line at a time, so a file of any length takes the memory
    of one record; or one JSON object or list of objects, on one line or over several.

    Raises :class:`RecordError` with a sentence for text that is not JSON, a value that is
    not a JSON object, a number of more than 100 digits or nesting deeper than Python can
    read, a record longer than :data:`MAX_RECORD_TEXT`, a document over several lines
    (or a list) longer than :data:`MAX_DOCUMENT_TEXT`, as many blank characters in a
    row, after yielding the records before it.

    >>> [r["dealer"] for r in read_records(['{"dealer": 0}\\n', '\\n', '{"dealer": 1}\\n'])]
    [0, 1]
    >>> [r["dealer"] for r in read_records(['[{"dealer": 0},\\n', ' {"dealer": 1}]\\n'])]
    [0, 1]
    """
    source = iter(lines)
    number, first = _next_text(source, 0)
    if first is None:
        raise RecordError("the file holds no record")
    if _length(first) > MAX_DOCUMENT_TEXT:
        raise RecordError(f"line {number} is longer than {length_words(MAX_DOCUMENT_TEXT)}, far "
                          f"longer than any record: it is not read")
    try:
        value = _loads(first.rstrip(), f"line {number}: ")
    except json.JSONDecodeError:
        # not a value on its own: the start of one JSON document written over several lines
        data = _document(first, source, number)
        for k, item in enumerate(data if isinstance(data, list) else [data]):
            yield _record(item, k)
        return
    if isinstance(value, list):
        if _next_text(source, number)[1] is not None:
            raise RecordError(f"line {number} holds a list; a file of JSON lines holds one "
                              f"record a line")
        for k, item in enumerate(value):
            yield _record(item, k)
        return
    if _length(first) > MAX_RECORD_TEXT:
        raise _record_too_long(number)
    yield _record(value, 0)
    k = 1
    while True:
        number, line = _next_text(source, number)
        if line is None:
            return
        if _length(line) > MAX_RECORD_TEXT:
            raise _record_too_long(number)
        try:
            item = _loads(line.rstrip(), f"line {number}: ")
        except json.JSONDecodeError as e:
            raise _not_json(e, number) from None
        yield _record(item, k)
        k += 1


def _next_text(source: Iterator[str], number: int) -> tuple[int, str | None]:
    """The next line with text and its number (``None`` at the end), the blank lines
    before it counted, not kept: no more than :data:`MAX_DOCUMENT_TEXT` blank
    characters in a row (a stream of line ends that never ends is not read on)."""
    blank = 0
    for line in source:
        number += 1
        if line.strip():
            return number, line
        blank += len(line)
        if blank > MAX_DOCUMENT_TEXT:
            raise RecordError(f"line {number} ends more than {length_words(MAX_DOCUMENT_TEXT)} of "
                              f"blank lines in a row: the file is not read on")
    return number, None


def _document(first: str, source: Iterator[str], number: int) -> Any:
    """One JSON document that starts on line ``number`` with ``first``, over the lines
    after it, read whole up to :data:`MAX_DOCUMENT_TEXT`."""
    parts, size = [first], len(first)
    for line in source:
        size += len(line)
        if size > MAX_DOCUMENT_TEXT:
            raise RecordError(
                f"the JSON document from line {number} on is longer than "
                f"{length_words(MAX_DOCUMENT_TEXT)}: write its records as JSON lines, one record a "
                f"line, which are read one at a time")
        parts.append(line)
    try:
        data = _loads("".join(parts).rstrip(), "")
    except json.JSONDecodeError as e:
        raise _not_json(e, number) from None
    if isinstance(data, dict) and size > MAX_RECORD_TEXT:
        raise RecordError(f"the record from line {number} on is longer than "
                          f"{length_words(MAX_RECORD_TEXT)} (a game's record is a few KB): it is "
                          f"not read")
    return data


def parse_records(text: str) -> list[dict[str, Any]]:
    """The records of a file's text: one JSON object, a JSON list of them, or JSON lines
    (see :func:`read_records`).

    >>> parse_records('{"dealer": 0}'), parse_records('[{"dealer": 0}, {"dealer": 1}]')
    ([{'dealer': 0}], [{'dealer': 0}, {'dealer': 1}])
    >>> len(parse_records('{"dealer": 0}\\n{"dealer": 1}\\n'))
    2
    """
    return list(read_records(text.splitlines(keepends=True)))


def read_record(data: dict[str, Any]) -> DealRecord | GameRecord:
    """The typed record a JSON object read from a file holds: a game record if it has
    ``"deals"``, else a deal record; a fault raises :class:`RecordError`.

    >>> from euchre import Rules
    >>> record = Deal.random(Rules(players=2), dealer=0, seed=1).to_record()
    >>> read_record(record.to_json()) == record
    True
    """
    if "deals" in data:
        return GameRecord.from_json(data)
    try:
        return DealRecord.from_json(data)
    except ValueError as e:
        raise RecordError(f"deal 1: {e}", deal=0) from None


def _summary(deal: Deal) -> dict[str, Any]:
    return deal.result.to_json()


def _replay_deal(record: DealRecord, index: int) -> Deal:
    try:
        deal = Deal.from_record(record, apply_actions=False)
    except ValueError as e:
        raise RecordError(f"deal {index + 1}: {e}", deal=index) from None
    for i, text in enumerate(record.actions):
        try:
            deal.apply(text)
        except ValueError as e:  # IllegalActionError or InvalidActionError
            raise RecordError(f"deal {index + 1}, action {i + 1} {text!r}: {e}",
                              deal=index, action=i) from None
    return deal


def replay(record: Record) -> Iterator[Replayed]:
    """Replay a deal record or a game record, deal by deal; a record's JSON (as a file
    holds it) is read deal by deal as the replay reaches it.

    Raises :class:`RecordError` at the first malformed field or illegal action; the
    deals before it have been yielded.  A game record's deals come with the running score:

    >>> from euchre import Rules
    >>> game = Game(Rules(players=2, target=2, stick_the_dealer=True), seed=1)
    >>> while not game.is_over:
    ...     _ = game.apply(game.deal.legal_action_ids()[-1])
    >>> [replayed.score for replayed in replay(game_record(game))]
    [(0, 1), (1, 1), (3, 1)]
    """
    if isinstance(record, dict) and "deals" not in record:
        record = read_record(record)
    if isinstance(record, DealRecord):
        yield Replayed(d := _replay_deal(record, 0), _summary(d))
        return
    if isinstance(record, GameRecord):
        head, deals = record, iter(record.deals)
    else:
        head, deals = GameRecord.read(record)
    rules = head.rules
    n = rules.players
    first = head.first_dealer
    score = [0] * n
    for k, rec in enumerate(deals):
        if max(score) >= rules.target:
            raise RecordError(f"deal {k + 1} comes after the game was won (RULES §10)", deal=k)
        if first is None:
            first = rec.dealer
        expected = (first + k) % n
        if rec.dealer != expected:
            raise RecordError(
                f"deal {k + 1} is dealt by seat {rec.dealer}, but the deal passes left "
                f"after every deal: seat {expected} deals it (RULES §3)", deal=k)
        deal = _replay_deal(rec, k)
        deal.scores = tuple(score)
        if deal.is_over:
            for s, p in enumerate(deal.result.points):
                score[s] += p
        if rec.score is not None and deal.is_over and list(rec.score) != score:
            raise RecordError(
                f"deal {k + 1}: the record gives the score {list(rec.score)}, the deals give "
                f"{score}", deal=k)
        summary = _summary(deal)
        summary["score"] = list(score)
        yield Replayed(deal, summary, tuple(score))
