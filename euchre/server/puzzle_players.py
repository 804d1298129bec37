"""A puzzle player on the server: one person's puzzle rating and best streak in each
variant, kept under a key, so that a phone and a laptop share them (the table
``puzzle_players``, :mod:`euchre.server.schema` version 5).

The page makes a player the first time it is answered with one, bringing the ratings it
kept so far, and keeps the id and the key in the browser's storage; a link holding both
opens the same player on another device.  The key is the player's only credential: the
id alone reads and changes nothing.  With a player, the server takes the rating an answer
moves from its own row, not from the page, and writes the new one.

As for a night (:mod:`euchre.server.night`), every operation here is pure: it reads rows
and returns the statements to write, which the storage runs in one transaction.

>>> player, writes = create_player({"4": {"rating": {"rating": 1620.0, "rd": 90.0,
...                                                  "vol": 0.06}, "streak": 3}}, now=1.0)
>>> player.rating(4).rating, player.streak(4), player.rating(2) == Rating()
(1620.0, 3, True)
>>> after = player.answered(4, Rating(1650.0, 85.0, 0.06), streak=None, now=2.0)
>>> after.rating(4).rating, after.streak(4), after.updated
(1650.0, 3, 2.0)
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from euchre.puzzles.rating import Rating
from euchre.server.night import Writes, same_key
from euchre.server.seating import new_token
from euchre.server.storage import Statement

__all__ = ["PuzzlePlayer", "create_player", "load_queries", "player_from_rows", "saved"]

VARIANTS: Final = ("2", "3", "4", "5")
"""The variants a player is rated in, as JSON keys (the players)."""


@dataclass(frozen=True)
class PuzzlePlayer:
    """A puzzle player as stored: its id, its key, per variant (``"2"`` to ``"5"``) its
    rating (Glicko-2, as :meth:`Rating.to_json <euchre.puzzles.rating.Rating.to_json>`)
    and best streak, and when it was made and last changed."""

    id: str
    key: str
    variants: Mapping[str, Mapping[str, Any]]
    created: float
    updated: float

    def owns(self, key: str | None) -> bool:
        """Whether ``key`` is the player's key (compared in constant time)."""
        return bool(key) and same_key(key or "", self.key)

    def rating(self, players: int) -> Rating:
        """The player's rating in the variant (a new player's if it has none yet)."""
        return Rating.from_json(self.variants.get(str(players), {}).get("rating"))

    def streak(self, players: int) -> int:
        """The player's best streak in the variant (0 if none)."""
        return int(self.variants.get(str(players), {}).get("streak", 0))

    def answered(self, players: int, rating: Rating | None, streak: int | None,
                 now: float | None = None) -> PuzzlePlayer:
        """The player after an answer in the variant: its new rating (``None``: an
        answer that rates nothing, a streak's), and the streak it reached (the best is
        kept)."""
        variant = dict(self.variants.get(str(players), {}))
        if rating is not None:
            variant["rating"] = rating.to_json()
        if streak is not None:
            variant["streak"] = max(self.streak(players), streak)
        variants = {**self.variants, str(players): variant}
        at = time.time() if now is None else now
        return replace(self, variants=variants, updated=max(at, self.updated + 1e-6))

    def to_json(self) -> dict[str, Any]:
        """What the page gets: the id and, per variant, the rating and best streak (never
        the key, which the page holds already)."""
        return {"id": self.id, "variants": {
            v: {"rating": self.rating(int(v)).to_json(), "streak": self.streak(int(v))}
            for v in VARIANTS}}


_LOAD: Final = "SELECT id, key, variants, created, updated FROM puzzle_players WHERE id = ?"
_INSERT: Final = ("INSERT INTO puzzle_players (id, key, variants, created, updated) "
                  "VALUES (?, ?, ?, ?, ?)")
_UPDATE: Final = ("UPDATE puzzle_players SET variants = ?, updated = ? "
                  "WHERE id = ? AND updated = ?")


def load_queries(player_id: str) -> list[Statement]:
    """The query that reads a player (:func:`player_from_rows` reads its rows)."""
    return [(_LOAD, (player_id,))]


def player_from_rows(rows: Sequence[Sequence[tuple[Any, ...]]]) -> PuzzlePlayer | None:
    """The player the rows of :func:`load_queries` hold, or ``None`` if there is none."""
    (found,) = rows
    if not found:
        return None
    pid, key, variants, created, updated = found[0]
    return PuzzlePlayer(pid, key, json.loads(variants), float(created), float(updated))


def _clean(variants: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for v in VARIANTS:
        given = variants.get(v)
        if given:
            out[v] = {"rating": Rating.from_json(given.get("rating")).to_json(),
                      "streak": max(0, int(given.get("streak", 0)))}
    return out


def create_player(variants: Mapping[str, Mapping[str, Any]] | None = None,
                  now: float | None = None) -> tuple[PuzzlePlayer, Writes]:
    """A new player (a new id and key) starting from the ratings and streaks the page
    kept (``{"4": {"rating": {...}, "streak": 3}}``; none: a new player's everywhere),
    and the write that stores it."""
    at = time.time() if now is None else now
    player = PuzzlePlayer(secrets.token_urlsafe(9), new_token(), _clean(variants or {}),
                          at, at)
    return player, [((_INSERT, (player.id, player.key, json.dumps(player.variants),
                                player.created, player.updated)), True)]


def saved(player: PuzzlePlayer, read: PuzzlePlayer) -> Writes:
    """The write that stores the player's ratings and streaks as they are now, over the
    row as it was ``read``: it changes no row (and the storage writes nothing) if another
    answer changed it since, so that no answer's rating is lost; the caller reads it again
    and retries."""
    return [((_UPDATE, (json.dumps(player.variants), player.updated, player.id,
                        read.updated)), True)]
