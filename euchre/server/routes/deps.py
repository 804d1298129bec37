"""What the routes share, as FastAPI dependencies (``Annotated`` types a route's
parameters take): the app's tables and what else it holds for its routes
(:class:`Shared`, on ``app.state``), its limits and settings, the client's address, and
the checks that find the table a request names: :func:`table_or_404`, :func:`keyed` (a
private table only with one of its keys), :func:`hosted` (the host's powers only with the
host link's key).

A route whose request has a body, or a rate to count, before its table is looked up
calls :func:`table_or_404` itself, in that order: FastAPI runs a dependency before it
reads the route's own parameters, so a dependency that refuses would answer a 404 where
the body's 422 comes first.  The dependencies that refuse therefore read the body (or the
game's number) themselves and hand it on (:class:`Hosted`, :class:`Finished`).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Annotated, NamedTuple

from fastapi import Depends, Request
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from euchre.game import Match
from euchre.server.limits import Limits, RateLimiter
from euchre.server.protocol import MAX_MATCH, HostRequest
from euchre.server.registry import Tables
from euchre.server.review import ReviewCache
from euchre.server.routes.refusals import Refusal, no_table
from euchre.server.table import Settings, Table

__all__ = ["Address", "AppLimits", "AppReviews", "AppSettings", "AppShared", "AppTables",
           "Finished", "FinishedGame", "GameNumber", "Hosted", "HostedPlace", "HostedTable",
           "KeyedTable", "Rates", "Shared", "client_address", "finished_match", "hosted",
           "key_of", "keyed", "limits_of", "rates_of", "reviews_of", "settings_of", "shared_of",
           "table_or_404", "tables_of"]

GameNumber = Annotated[int, PathParam(ge=1, le=MAX_MATCH)]
"""A game's number in a path: from 1, bounded (a larger one is a 422, never a number
handed to the database)."""


@dataclass
class Shared:
    """What one app's routes share besides its tables (``app.state.shared``, made by
    :func:`~euchre.server.app.create_app`)."""

    settings: Settings
    limits: Limits
    origins: frozenset[str]
    """The pages besides the server's own that may open a WebSocket (``*``: any)."""
    index: bytes
    """The single-page app's page (:func:`~euchre.server.assets.index_page`)."""
    rates: dict[str, RateLimiter]
    """Tables created, seats taken and hints (reviews made) per client address."""
    reviews: ReviewCache = field(default_factory=ReviewCache)
    """The expert's reviews made last (:mod:`~euchre.server.review`)."""
    sockets: collections.Counter[str] = field(default_factory=collections.Counter)
    """WebSockets open per client address."""
    flooded: dict[str, float] = field(default_factory=dict)
    """Client addresses whose socket was closed for flooding, until when they may not
    open another (a flood that reconnects costs a refused handshake, not a read)."""


def shared_of(conn: HTTPConnection) -> Shared:
    """The app's :class:`Shared`."""
    found: Shared = conn.app.state.shared
    return found


def tables_of(conn: HTTPConnection) -> Tables:
    """The app's tables (made when the app starts, :class:`~.registry.Tables`)."""
    tables: Tables = conn.app.state.tables
    return tables


def client_address(conn: HTTPConnection) -> str:
    """The client's address (behind a trusted proxy, the one it forwards)."""
    return conn.client.host if conn.client is not None else ""


def key_of(request: Request) -> str | None:
    """The key to a table a request gives: header ``X-Euchre-Key`` (a seat token in
    ``X-Seat-Token`` as well, or ``?key=``)."""
    return (request.headers.get("x-euchre-key") or request.headers.get("x-seat-token")
            or request.query_params.get("key") or None)


AppShared = Annotated[Shared, Depends(shared_of)]
AppTables = Annotated[Tables, Depends(tables_of)]
Address = Annotated[str, Depends(client_address)]


def limits_of(shared: AppShared) -> Limits:
    """What one client may ask (:class:`~.limits.Limits`)."""
    return shared.limits


def settings_of(shared: AppShared) -> Settings:
    """The tables' settings (:class:`~.table.Settings`)."""
    return shared.settings


def rates_of(shared: AppShared) -> dict[str, RateLimiter]:
    """The rates counted per client address: ``tables``, ``joins``, ``hints``."""
    return shared.rates


def reviews_of(shared: AppShared) -> ReviewCache:
    """The expert's reviews made last."""
    return shared.reviews


AppLimits = Annotated[Limits, Depends(limits_of)]
AppSettings = Annotated[Settings, Depends(settings_of)]
Rates = Annotated[dict[str, RateLimiter], Depends(rates_of)]
AppReviews = Annotated[ReviewCache, Depends(reviews_of)]


async def table_or_404(table_id: str, tables: AppTables) -> Table:
    """The table of the path's ``table_id``; 404 ``no_table`` if there is none."""
    table = await tables.get(table_id)
    if table is None:
        raise no_table(table_id)
    return table


async def keyed(request: Request, table: Annotated[Table, Depends(table_or_404)]) -> Table:
    """The table, if the request may see it: at a private table, with one of its keys
    (:meth:`.Seating.may_see`) in the ``X-Euchre-Key`` header (or ``?key=``)."""
    if not table.seating.may_see(key_of(request)):
        raise Refusal(403, "private", "this table is private: it is shown to its "
                      "players, its host and those with its watch link")
    return table


KeyedTable = Annotated[Table, Depends(keyed)]


class Hosted(NamedTuple):
    """A host's request (:class:`~.protocol.HostRequest`) and its table."""

    table: Table
    body: HostRequest


async def hosted(tables: Tables, table_id: str, body: HostRequest,
                 place: bool = False) -> Table:
    """The table, if ``body`` holds its host link's key (403 ``not_host``) and, where
    ``place`` is asked, names one of its places (422 ``no_place``); a closed table is
    none (404)."""
    table = await table_or_404(table_id, tables)
    if not table.seating.is_host(body.host):
        raise Refusal(403, "not_host", "only the host, with the host link, may do this")
    if place and (body.place is None or body.place >= len(table.places)):
        raise Refusal(422, "no_place", f"the table has no place {body.place}",
                      place=body.place)
    if table.closed:
        raise no_table(table_id)
    return table


async def _hosted_table(table_id: str, body: HostRequest, tables: AppTables) -> Hosted:
    return Hosted(await hosted(tables, table_id, body), body)


async def _hosted_place(table_id: str, body: HostRequest, tables: AppTables) -> Hosted:
    return Hosted(await hosted(tables, table_id, body, place=True), body)


HostedTable = Annotated[Hosted, Depends(_hosted_table)]
"""A host's request at a table of theirs (:func:`hosted`)."""
HostedPlace = Annotated[Hosted, Depends(_hosted_place)]
"""A host's request about one of the table's places (``body.place``, :func:`hosted`)."""


async def finished_match(request: Request, tables: Tables, table_id: str,
                         number: int) -> tuple[Table, Match]:
    """The table (:func:`keyed`) and its game ``number``, once that game is over: 404
    ``no_game``, 409 ``not_over``."""
    table = await keyed(request, await table_or_404(table_id, tables))
    if number == table.match.number:
        match = table.match
    else:
        record = await tables.storage.load_table(table_id)
        stored = next((m for m in record.matches if m.number == number), None) \
            if record else None
        if stored is None:
            raise Refusal(404, "no_game", f"table {table_id} has no game {number}",
                          table=table_id, game=number)
        match = table.play.replay_match(stored)
    if not match.is_over:
        raise Refusal(409, "not_over", "the game is not over: its record holds every "
                      "hand, so it is shown only when the game ends (RULES §12)")
    return table, match


class Finished(NamedTuple):
    """A finished game a request asks for, with its table and the number asked."""

    table: Table
    match: Match
    number: int


async def _finished(request: Request, table_id: str, number: GameNumber,
                    tables: AppTables) -> Finished:
    table, match = await finished_match(request, tables, table_id, number)
    return Finished(table, match, number)


FinishedGame = Annotated[Finished, Depends(_finished)]
"""The finished game of the path's ``table_id`` and ``number`` (:func:`finished_match`)."""
