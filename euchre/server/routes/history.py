"""A finished game: its page (``/history/{id}/{n}``), its record to download, its
frames for the history page, and the expert's review of your decisions in it
(:mod:`~euchre.server.review`)."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from euchre.game import Match
from euchre.records import GameRecord
from euchre.server.history import replay_frames
from euchre.server.limits import RateLimiter
from euchre.server.protocol import is_table_id
from euchre.server.registry import Tables
from euchre.server.review import ReviewCache, review_match
from euchre.server.routes.deps import (
    Address,
    AppReviews,
    AppTables,
    FinishedGame,
    GameNumber,
    Rates,
    finished_match,
    table_or_404,
)
from euchre.server.routes.pages import page
from euchre.server.routes.refusals import Refusal
from euchre.server.table import Table

__all__ = ["router", "seat_review"]

router = APIRouter()


@router.get("/history/{table_id}/{number}", include_in_schema=False)
async def history_page(request: Request, table_id: str, number: GameNumber) -> Response:
    return page(request, 200 if is_table_id(table_id) else 404)


@router.get("/api/tables/{table_id}/matches/{number}/record")
async def record(table_id: str, finished: FinishedGame) -> JSONResponse:
    """The game record (docs/rules.md, "Saved games"), a list of them for a rubber, to
    download."""
    table, match, number = finished
    return JSONResponse(
        table.play.record(match),
        headers={"Content-Disposition":
                 f'attachment; filename="euchre-{table_id}-{number}.json"'})


@router.get("/api/tables/{table_id}/matches/{number}/replay")
async def replay(finished: FinishedGame) -> dict[str, Any]:
    """A finished game, deal by deal, every hand shown, for the history page."""
    table, match, number = finished
    return {"id": table.id, "name": table.name, "match": number,
            "games": [replay_frames(g) for g in table.play.game_records(match)]}


@router.get("/api/tables/{table_id}/matches/{number}/review")
async def review(request: Request, table_id: str, number: GameNumber, tables: AppTables,
                 reviews: AppReviews, rates: Rates, address: Address) -> dict[str, Any]:
    """Your decisions in a finished game (every game of a rubber) against the
    expert's, from your seat's view only: your seat token in the ``X-Seat-Token``
    header (a URL would leak it into logs).  A review already made is kept; making
    one counts against the hints' rate."""
    table, match, found, _ = await seat_review(request, table_id, number, tables, reviews,
                                               rates, address)
    return {"id": table.id, "match": match.number, **found}


async def seat_review(request: Request, table_id: str, number: int, tables: Tables,
                      reviews: ReviewCache, rates: dict[str, RateLimiter], address: str
                      ) -> tuple[Table, Match, dict[str, Any], list[GameRecord]]:
    """The review of the seat whose token the ``X-Seat-Token`` header holds, in a
    finished game (403 ``bad_token`` for no seat of the table): the table, the game,
    the review (:func:`~euchre.server.review.review_match`) and the game records."""
    table = await table_or_404(table_id, tables)
    token = request.headers.get("x-seat-token")
    place = table.seating.place_by_token(token) if token else None
    if place is None:
        raise Refusal(403, "bad_token", "this seat token opens no seat at this table")
    table, match = await finished_match(request, tables, table_id, number)
    seat = match.seat_of[place.index]
    key = (table.id, match.number, seat)
    records = table.play.game_records(match)
    found = reviews.get(key)
    if found is None:
        if not reviews.making(key):
            rates["hints"].check(address)
        found = await reviews.review(key, functools.partial(review_match, records, seat))
    return table, match, found, records
