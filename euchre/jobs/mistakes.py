"""A player's own puzzles (``euchre puzzle --mine``): the costly decisions of their reviewed games.

Every decision that a review (``euchre analyze``, the review at the end of ``euchre play``:
:mod:`euchre.jobs.analysis`) finds a mistake becomes a puzzle: the position before it, the
expert's best action as the answer, the expert's values.  They are kept one a line in
``puzzles-mine.jsonl`` in the user's data folder (:func:`euchre.userdirs.data_folder`); a
position already kept is not added twice, and a puzzle solved in ``euchre puzzle --mine``
leaves the list.  Keeping is a convenience, never an error: a folder that cannot be
written is left as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from euchre.deal import Deal
from euchre.jobs.analysis import Review
from euchre.puzzles import Puzzle, make_puzzle
from euchre.records import Record, replay
from euchre.userdirs import data_folder

__all__ = ["forget", "keep", "mine", "mine_path", "mistake_puzzles"]


def mine_path() -> Path:
    """The file of the player's own puzzles."""
    return data_folder() / "puzzles-mine.jsonl"


def mistake_puzzles(review: Review, records: Sequence[Record]) -> list[Puzzle]:
    """The puzzles of a review's mistakes, each at the position before the decision."""
    finals = [r.deal for record in records for r in replay(record)]
    puzzles = []
    for d in review.decisions:
        if not d.mistake:
            continue
        final = finals[d.deal]
        deal = Deal.from_record(final.to_record(), apply_actions=False)
        for action in final.actions[:d.index]:
            deal.apply(action)
        puzzles.append(make_puzzle(deal, review.seat, d.values, d.best))
    return puzzles


def mine() -> list[Puzzle]:
    """The player's own puzzles, oldest first (none when the file is missing or
    unreadable; a damaged line is skipped)."""
    try:
        lines = mine_path().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    puzzles = []
    for line in lines:
        try:
            puzzles.append(Puzzle.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return puzzles


def _write(puzzles: Iterable[Puzzle]) -> None:
    """The whole list, written beside the file and renamed over it."""
    path = mine_path()
    part = path.with_name(path.name + ".part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part.write_text("".join(json.dumps(p.to_json(), sort_keys=True) + "\n"
                                for p in puzzles), encoding="utf-8")
        part.replace(path)
    except OSError:
        pass


def keep(puzzles: Iterable[Puzzle]) -> int:
    """Add puzzles to the player's own (those not kept yet); how many were added."""
    kept = mine()
    ids = {p.id for p in kept}
    new = [p for p in puzzles if p.id not in ids]
    if new:
        _write(kept + new)
    return len(new)


def forget(puzzle: Puzzle) -> None:
    """Take a solved puzzle off the player's own."""
    kept = mine()
    left = [p for p in kept if p.id != puzzle.id]
    if len(left) != len(kept):
        _write(left)
