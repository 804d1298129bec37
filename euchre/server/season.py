"""A season on the server: several club nights of one club under an organiser's key
(the table ``seasons`` and ``nights.season_id``, :mod:`euchre.server.schema` version 4),
with the leaderboard and the ratings of :mod:`euchre.night.season`, and a night's final
standings and each player's rounds for export.

As for a night (:mod:`euchre.server.night`), every operation here is pure: it reads rows
and returns the statements to write, which the storage runs in one transaction.  A night
joins a season once, for good, given both the season's key and the night's organiser
key; of two requests adding one night to two seasons at once, one wins.
"""

from __future__ import annotations

import csv
import io
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from euchre.night.season import (
    SeasonNight,
    leaderboard,
    player_key,
    ratings,
)
from euchre.server.night import Night, Writes, same_key
from euchre.server.seating import new_token
from euchre.server.storage import Statement

__all__ = [
    "Season",
    "add_night",
    "create_season",
    "leaderboard_csv",
    "load_queries",
    "season_from_rows",
    "season_json",
    "season_night",
]


@dataclass(frozen=True)
class Season:
    """A season as stored: its id, name, organiser's key, when it was made, and the ids
    of its nights (by day, then as they were made)."""

    id: str
    name: str
    host_key: str
    created: float
    nights: tuple[str, ...]

    def is_organiser(self, key: str | None) -> bool:
        """Whether ``key`` is the season's organiser key (compared in constant time)."""
        return bool(key) and same_key(key or "", self.host_key)


_LOAD_SEASON: Final = "SELECT id, name, host_key, created FROM seasons WHERE id = ?"
_LOAD_NIGHTS: Final = ("SELECT id FROM nights WHERE season_id = ? "
                       "ORDER BY day, created, id")
_INSERT_SEASON: Final = ("INSERT INTO seasons (id, name, host_key, created) "
                         "VALUES (?, ?, ?, ?)")
_JOIN: Final = "UPDATE nights SET season_id = ? WHERE id = ? AND season_id IS NULL"
SEASON_OF: Final = "SELECT season_id FROM nights WHERE id = ?"
"""The season a night belongs to (a row with ``NULL``: none)."""


def load_queries(season_id: str) -> list[Statement]:
    """The queries that read a season (:func:`season_from_rows` reads their rows)."""
    return [(_LOAD_SEASON, (season_id,)), (_LOAD_NIGHTS, (season_id,))]


def season_from_rows(rows: Sequence[Sequence[tuple[Any, ...]]]) -> Season | None:
    """The season the rows of :func:`load_queries` hold, or ``None`` if there is none."""
    seasons, nights = rows
    if not seasons:
        return None
    sid, name, host_key, created = seasons[0]
    return Season(sid, name, host_key, float(created), tuple(n for (n,) in nights))


def create_season(name: str) -> tuple[Season, Writes]:
    """A new season (a new id and organiser key) and the write that stores it."""
    season = Season(secrets.token_urlsafe(9), name, new_token(), time.time(), ())
    return season, [((_INSERT_SEASON, (season.id, season.name, season.host_key,
                                       season.created)), True)]


def add_night(season: Season, night_id: str) -> Writes:
    """The write that puts a night in the season: it changes no row (a collision) if the
    night is in a season already."""
    return [((_JOIN, (season.id, night_id)), True)]


def season_night(night: Night) -> SeasonNight:
    """A stored night as the season engine takes it (the rounds it ended)."""
    return SeasonNight(night.id, night.day, night.scoring, night.names(),
                       tuple(night.results()))


def season_json(season: Season, nights: Sequence[Night]) -> dict[str, Any]:
    """``{"id", "name", "created", "nights": [{"id", "name", "day", "rounds"}],
    "leaderboard": [...], "ratings": [...]}`` (:mod:`euchre.night.season`'s lines; each
    line of the leaderboard with the player's ``rating``, their ordinal, or null)."""
    played = [season_night(n) for n in nights]
    rated = ratings(played)
    ordinal = {player_key(x.name): round(x.ordinal, 3) for x in rated}
    return {"id": season.id, "name": season.name, "created": season.created,
            "nights": [{"id": n.id, "name": n.name, "day": n.day,
                        "rounds": len(s.results)} for n, s in zip(nights, played, strict=True)],
            "leaderboard": [{**x.to_json(), "rating": ordinal.get(player_key(x.name))}
                            for x in leaderboard(played)],
            "ratings": [x.to_json() for x in rated]}


LEADERBOARD_COLUMNS: Final = ("place", "name", "total", "nights", "rounds", "won", "average",
                              "tied", "rating", "mu", "sigma")
"""The columns of a season's leaderboard as CSV."""


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def leaderboard_csv(nights: Sequence[Night]) -> str:
    """The season's leaderboard as CSV, one line a player (:data:`LEADERBOARD_COLUMNS`;
    ``rating``: the ordinal, empty for a player never rated)."""
    played = [season_night(n) for n in nights]
    rated = {player_key(x.name): x for x in ratings(played)}
    rows: list[Sequence[Any]] = [LEADERBOARD_COLUMNS]
    for line in leaderboard(played):
        data = line.to_json()
        r = rated.get(player_key(line.name))
        extra = (r.to_json()["ordinal"], r.to_json()["mu"], r.to_json()["sigma"]) if r else (
            "", "", "")
        rows.append((*(data[c] for c in LEADERBOARD_COLUMNS[:8]), *extra))
    return _csv(rows)


