"""A season's HTTP API (:mod:`euchre.server.season`): making a season, adding a night to
it, its leaderboard and ratings (JSON) and its leaderboard as CSV; and, after a night,
its final standings and each player's rounds (JSON and CSV).

The season's organiser key goes as a night's does (header ``X-Euchre-Key`` or ``?key=``,
:func:`~.deps.key_of`); adding a night takes the night's organiser key besides, in the
body.  Every refusal is a 4xx with a ``code`` and changes nothing.  What a season and a
night's export show is public, like a night's standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from euchre.server import night as nights
from euchre.server import season as seasons
from euchre.server.night import Night
from euchre.server.protocol import clean_name, shown
from euchre.server.routes.deps import Address, AppTables, Rates, key_of
from euchre.server.routes.refusals import Refusal
from euchre.server.season import Season
from euchre.server.storage import Storage

__all__ = ["router"]

router = APIRouter()


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateSeason(_Body):
    """``POST /api/seasons``: the season's name (the club's, say)."""

    name: Annotated[str, Field(min_length=1, max_length=60), AfterValidator(clean_name)]


class SeasonNightBody(_Body):
    """A night to add to the season: its id and its organiser's key."""

    night: Annotated[str, Field(min_length=1, max_length=64)]
    key: Annotated[str, Field(min_length=1, max_length=100)]


async def _season(storage: Storage, season_id: str) -> Season:
    season = None
    if len(season_id) <= 64:
        season = seasons.season_from_rows(
            await storage.night_read(seasons.load_queries(season_id)))
    if season is None:
        raise Refusal(404, "no_season", f"no season {shown(season_id)!r}",
                      season=shown(season_id))
    return season


async def _nights(storage: Storage, ids: Sequence[str]) -> list[Night]:
    """The nights, read in one transaction (404 ``no_night`` for one not stored)."""
    for night_id in ids:
        if len(night_id) > 64:
            raise Refusal(404, "no_night", f"no night {shown(night_id)!r}",
                          night=shown(night_id))
    queries = [q for night_id in ids for q in nights.load_queries(night_id)]
    rows = await storage.night_read(queries) if queries else []
    out = []
    for i, night_id in enumerate(ids):
        night = nights.night_from_rows(rows[4 * i:4 * i + 4])
        if night is None:
            raise Refusal(404, "no_night", f"no night {shown(night_id)!r}",
                          night=shown(night_id))
        out.append(night)
    return out


def _organiser(season: Season, request: Request) -> None:
    if not season.is_organiser(key_of(request)):
        raise Refusal(403, "not_organiser", "only the season's organiser, with its "
                      "organiser key, may do this")


def _csv(text: str, filename: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.post("/api/seasons", status_code=201)
async def create_season(body: CreateSeason, tables: AppTables, rates: Rates,
                        address: Address) -> dict[str, Any]:
    """Make a season; the answer holds its organiser's key (``host_key``)."""
    rates["tables"].check(address)
    season, writes = seasons.create_season(body.name)
    await tables.storage.night_write([w for w, _ in writes], [c for _, c in writes])
    return {"id": season.id, "name": season.name, "host_key": season.host_key,
            "url": f"/api/seasons/{season.id}"}


@router.post("/api/seasons/{season_id}/nights")
async def add_night(season_id: str, body: SeasonNightBody, request: Request,
                    tables: AppTables) -> dict[str, Any]:
    """Add a night to the season, with the season's key and the night's organiser key
    (``key``): a night joins one season, for good (another season's: 409
    ``in_season``; this one's already: nothing changes).  The answer is the season."""
    storage = tables.storage
    season = await _season(storage, season_id)
    _organiser(season, request)
    (night,) = await _nights(storage, [body.night])
    if not nights.same_key(body.key, night.host_key):
        raise Refusal(403, "not_organiser", "only the night's organiser, with its "
                      "organiser key, may add it to a season")
    if night.id not in season.nights:
        writes = seasons.add_night(season, night.id)
        if not await storage.night_write([w for w, _ in writes], [c for _, c in writes]):
            (other,) = await storage.night_read([(seasons.SEASON_OF, (night.id,))])
            if not other or other[0][0] != season.id:
                raise Refusal(409, "in_season", "the night is in another season already",
                              night=night.id)
        season = await _season(storage, season_id)
    return seasons.season_json(season, await _nights(storage, season.nights))


@router.get("/api/seasons/{season_id}")
async def season_view(season_id: str, tables: AppTables) -> dict[str, Any]:
    """The season: its nights, its leaderboard and its players' ratings."""
    season = await _season(tables.storage, season_id)
    return seasons.season_json(season, await _nights(tables.storage, season.nights))


@router.get("/api/seasons/{season_id}/leaderboard.csv")
async def season_csv(season_id: str, tables: AppTables) -> Response:
    """The season's leaderboard as CSV, with each player's rating."""
    season = await _season(tables.storage, season_id)
    text = seasons.leaderboard_csv(await _nights(tables.storage, season.nights))
    return _csv(text, f"season-{season.id}.csv")
