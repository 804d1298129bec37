"""The puzzles: their page (``/puzzles``) and their API (:mod:`~euchre.server.puzzles`).

=============================================  ==============================================
``GET  /api/puzzles/next?players=4&rating=R``  a puzzle near the rating (``themes``: each
                                               wanted; ``skip``: ids seen, comma-separated)
``GET  /api/puzzles/themes?players=4``         each theme's count of the variant's puzzles
``GET  /api/puzzles/daily?players=4``          the day's puzzle (by the UTC date)
``GET  /api/puzzles/streak?players=4&step=K``  the streak's puzzle K (from 0), easiest first
``POST /api/puzzles/{id}/answer``              ``{"players", "action", "rating": {"rating",
                                               "rd", "vol"}}``: solved or not, the values,
                                               the reasons' facts, the new rating
``GET  /api/tables/{id}/matches/{n}/puzzles/{k}``  your mistake ``k`` (its index among the
                                               review's decisions) as a puzzle: your seat
                                               token in ``X-Seat-Token``, as the review
``POST .../puzzles/{k}/answer``                ``{"action"}``, the same header: judged
=============================================  ==============================================

Your mistakes are the reviews' (:mod:`~euchre.server.review`): the page keeps which
decisions you chose to keep (the table, the game, the decision), and the server rebuilds
each from the game's record and your review, so nothing of the answer comes from the page.

A puzzle is served without its answer; the answer is judged here, and the new rating
computed here from the rating the page keeps (the browser's storage, per variant).
Nothing is stored: an answer refused (an unknown puzzle, no action, an action not legal
there) changes nothing anywhere.
"""

from __future__ import annotations

import datetime
import random
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from euchre.actions import Action, InvalidActionError
from euchre.puzzles import THEMES, Puzzle
from euchre.puzzles.rating import Rating
from euchre.server import puzzle_players
from euchre.server.limits import RateLimiter
from euchre.server.protocol import shown
from euchre.server.puzzle_players import PuzzlePlayer
from euchre.server.puzzles import (
    by_id,
    daily_puzzle,
    judge_answer,
    legal_here,
    mistake_puzzle,
    next_puzzle,
    served,
    streak_puzzle,
    theme_counts,
)
from euchre.server.registry import Tables
from euchre.server.review import ReviewCache
from euchre.server.routes.deps import (
    Address,
    AppReviews,
    AppTables,
    GameNumber,
    Rates,
    key_of,
)
from euchre.server.routes.history import seat_review
from euchre.server.routes.pages import page
from euchre.server.routes.refusals import Refusal
from euchre.server.storage import Storage

__all__ = ["router"]

router = APIRouter()

Players = Annotated[int, Query(ge=2, le=5)]
"""A variant: its players, 2 to 5 (another is a 422)."""


class RatingIn(BaseModel):
    """The player's rating as the page keeps it."""

    model_config = ConfigDict(extra="forbid")
    rating: float = Field(1500.0, ge=0, le=4000)
    rd: float = Field(350.0, gt=0, le=500)
    vol: float = Field(0.06, gt=0, le=1)


class MineAnswerIn(BaseModel):
    """An answer to one of your mistakes: the action (RECORDS notation)."""

    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=40)
    rating: RatingIn | None = None
    """None: a new player's."""


class AnswerIn(BaseModel):
    """An answer to a puzzle: the variant, the action (RECORDS notation) and the
    player's rating before it; or, with ``player`` (its key in ``X-Euchre-Key``), the
    rating the server keeps for that player, which the answer moves there."""

    model_config = ConfigDict(extra="forbid")
    players: int = Field(ge=2, le=5)
    action: str = Field(min_length=1, max_length=40)
    rating: RatingIn | None = None
    """None: a new player's."""
    player: str | None = Field(None, min_length=1, max_length=64)
    """A puzzle player's id (:mod:`~euchre.server.puzzle_players`)."""
    streak: int | None = Field(None, ge=1, le=100_000)
    """An answer in a streak: the streak it reaches if right (it rates nothing; the
    player's best streak is kept)."""


class VariantIn(BaseModel):
    """A variant's rating and best streak, as the page kept them."""

    model_config = ConfigDict(extra="forbid")
    rating: RatingIn | None = None
    streak: int = Field(0, ge=0, le=100_000)


class NewPlayerIn(BaseModel):
    """``POST /api/puzzles/players``: the ratings and streaks the page kept so far, per
    variant (``"2"`` to ``"5"``), so that nothing is lost."""

    model_config = ConfigDict(extra="forbid")
    variants: dict[Literal["2", "3", "4", "5"], VariantIn] = Field(default_factory=dict)


def _found(puzzle: Puzzle | None) -> dict[str, Any]:
    if puzzle is None:
        raise Refusal(404, "no_puzzle", "no puzzle to serve", puzzle="")
    return served(puzzle)


def _list(text: str, limit: int) -> list[str]:
    return [t for t in (x.strip() for x in text.split(",")) if t][:limit]


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page(request: Request) -> Response:
    return page(request)


@router.get("/api/puzzles/next")
async def next_one(players: Players, rating: Annotated[float, Query(ge=0, le=4000)] = 1500,
                   themes: Annotated[str, Query(max_length=400)] = "",
                   skip: Annotated[str, Query(max_length=4000)] = "") -> dict[str, Any]:
    """A puzzle of the variant near ``rating`` with every theme asked for."""
    wanted = _list(themes, len(THEMES))
    unknown = [t for t in wanted if t not in THEMES]
    if unknown:
        raise Refusal(422, "invalid_request", f"no theme {shown(unknown[0])!r}")
    return _found(next_puzzle(players, rating, wanted, _list(skip, 300), random.Random()))


@router.get("/api/puzzles/themes")
async def themes_here(players: Players) -> dict[str, Any]:
    """How many of the variant's puzzles have each theme (those some puzzle has)."""
    return {"players": players, "themes": theme_counts(players)}


@router.get("/api/puzzles/daily")
async def daily_one(players: Players) -> dict[str, Any]:
    """The day's puzzle of the variant (the UTC date's), the same for everyone."""
    today = datetime.datetime.now(datetime.UTC).date()
    return {**_found(daily_puzzle(players, today)), "day": today.isoformat()}


@router.get("/api/puzzles/streak")
async def streak_one(players: Players,
                     step: Annotated[int, Query(ge=0, le=100_000)] = 0) -> dict[str, Any]:
    """The streak's puzzle ``step``: the variant's puzzles from the easiest up."""
    return {**_found(streak_puzzle(players, step)), "step": step}


@router.post("/api/puzzles/players", status_code=201)
async def new_player(body: NewPlayerIn, tables: AppTables, rates: Rates,
                     address: Address) -> dict[str, Any]:
    """Make a puzzle player from the ratings the page kept; the answer holds its key
    (``key``), which alone reads it or moves its ratings."""
    rates["tables"].check(address)
    kept: dict[str, dict[str, Any]] = {
        v: {"rating": x.rating.model_dump() if x.rating else None, "streak": x.streak}
        for v, x in body.variants.items()}
    player, writes = puzzle_players.create_player(kept)
    await tables.storage.night_write([w for w, _ in writes], [c for _, c in writes])
    return {**player.to_json(), "key": player.key}


async def _player(storage: Storage, player_id: str, request: Request) -> PuzzlePlayer:
    player = None
    if len(player_id) <= 64:
        player = puzzle_players.player_from_rows(
            await storage.night_read(puzzle_players.load_queries(player_id)))
    if player is None:
        raise Refusal(404, "no_puzzle_player", f"no puzzle player {shown(player_id)!r}",
                      player=shown(player_id))
    if not player.owns(key_of(request)):
        raise Refusal(403, "not_puzzle_player", "only the player's key reads or moves its "
                      "puzzle ratings")
    return player


@router.get("/api/puzzles/players/{player_id}")
async def player_view(player_id: str, request: Request, tables: AppTables
                      ) -> dict[str, Any]:
    """A puzzle player's rating and best streak in each variant (its key in
    ``X-Euchre-Key``)."""
    return (await _player(tables.storage, player_id, request)).to_json()


_TRIES: Final = 5
"""Answers of one player at once: how often one is judged again over the row another
changed, before a 409."""


@router.post("/api/puzzles/{puzzle_id}/answer")
async def answer(puzzle_id: str, body: AnswerIn, request: Request,
                 tables: AppTables) -> dict[str, Any]:
    """Judge an answer: solved or not, every legal action's value, the reasons' facts,
    the themes and the player's new rating (with ``player``: kept by the server, and the
    player as it is now under ``player`` in the answer)."""
    puzzle = by_id(body.players, puzzle_id)
    if puzzle is None:
        raise Refusal(404, "no_puzzle", f"no puzzle {shown(puzzle_id)!r} for "
                      f"{body.players} players", puzzle=shown(puzzle_id))
    if body.player is None:
        return _judged(puzzle, body.action, _rating(body.rating))
    storage = tables.storage
    for _ in range(_TRIES):
        player = await _player(storage, body.player, request)
        judged = _judged(puzzle, body.action, player.rating(body.players))
        after = player.answered(
            body.players, None if body.streak is not None
            else Rating.from_json(judged["rating"]),
            body.streak if judged["solved"] else None)
        writes = puzzle_players.saved(after, player)
        if await storage.night_write([w for w, _ in writes], [c for _, c in writes]):
            return {**judged, "player": after.to_json()}
    raise Refusal(409, "answers_at_once", "other answers of this player came at once; "
                  "answer again")


def _rating(given: RatingIn | None) -> Rating:
    """The rating the page sent (a new player's when it sent none)."""
    return Rating() if given is None else Rating(given.rating, given.rd, given.vol)


def _judged(puzzle: Puzzle, text: str, player: Rating) -> dict[str, Any]:
    try:
        action = Action.parse(text)
    except (InvalidActionError, ValueError):
        raise Refusal(422, "invalid_action", f"{shown(text)!r} is not an action",
                      action=shown(text)) from None
    if not legal_here(puzzle, action):
        raise Refusal(422, "illegal", f"{action} is not legal here", action=str(action))
    return judge_answer(puzzle, action, player)


Decision = Annotated[int, PathParam(ge=0, le=10_000)]
"""A decision's index among a review's."""


async def _mistake(request: Request, table_id: str, number: int, k: int, tables: Tables,
                   reviews: ReviewCache, rates: dict[str, RateLimiter], address: str
                   ) -> Puzzle:
    _, _, review, records = await seat_review(request, table_id, number, tables, reviews,
                                              rates, address)
    puzzle = mistake_puzzle(review, records, k)
    if puzzle is None:
        raise Refusal(404, "no_puzzle", f"decision {k} of that review is no mistake",
                      puzzle=str(k))
    return puzzle


@router.get("/api/tables/{table_id}/matches/{number}/puzzles/{k}")
async def mistake(request: Request, table_id: str, number: GameNumber, k: Decision,
                  tables: AppTables, reviews: AppReviews, rates: Rates,
                  address: Address) -> dict[str, Any]:
    """Your mistake ``k`` in a finished game, as a puzzle (your seat token in the
    ``X-Seat-Token`` header)."""
    puzzle = await _mistake(request, table_id, number, k, tables, reviews, rates, address)
    return served(puzzle)


@router.post("/api/tables/{table_id}/matches/{number}/puzzles/{k}/answer")
async def mistake_answer(request: Request, table_id: str, number: GameNumber, k: Decision,
                         body: MineAnswerIn, tables: AppTables, reviews: AppReviews,
                         rates: Rates, address: Address) -> dict[str, Any]:
    """Judge an answer to your mistake ``k``, as :func:`answer` does."""
    puzzle = await _mistake(request, table_id, number, k, tables, reviews, rates, address)
    return _judged(puzzle, body.action, _rating(body.rating))
