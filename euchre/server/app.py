"""The FastAPI app: the lobby's HTTP API, the table's WebSocket, the static pages.

HTTP (JSON):

=========================================  ==================================================
``GET  /api/options``                      variants with their default rules, bot levels
``GET  /api/rules/options``                the rules' options (the lobby's form is made of them)
``GET  /api/tables?offset=0&limit=50``     open tables, and recently finished games, a page
``POST /api/tables``                       create a table (:class:`~.protocol.CreateTable`)
``GET  /api/tables/{id}``                  one table's public facts and score
``POST /api/tables/{id}/join``             take a place: by invitation (spent), or an open one
``POST /api/tables/{id}/invitation``       would an invitation open a seat (nothing spent)
``POST /api/tables/{id}/leave``            give up your place (the last to leave closes it)
``DELETE /api/tables/{id}``                its host deletes a table
``POST /api/tables/{id}/host``             the host's view: places, invitations, watch link
``POST /api/tables/{id}/host/ACTION``      the host's powers: ``invite``, ``remove``,
                                           ``bot``, ``start``, ``timer``, ``mute``, ``end``;
                                           ``seat``: the host's own seat token
``GET  /api/tables/{id}/matches/{n}/record``  the game record, once it is over
``GET  /api/tables/{id}/matches/{n}/replay``  the same, as frames for the history page
``GET  /api/tables/{id}/matches/{n}/review``  your decisions in it against the expert's
                                           (:mod:`.review`; header ``X-Seat-Token``)
=========================================  ==================================================

``GET  /api/i18n?lang=fr``                 the page's words in a language (default: the
                                           browser's ``Accept-Language``)
=========================================  ==================================================

WebSocket ``/ws/{id}?token=SEAT_TOKEN`` (see :mod:`euchre.server.protocol`).  Pages:
``/`` (lobby), ``/table/{id}``, ``/history/{id}/{n}``: one single-page app in ``static/``;
static files under ``/static/VERSION/`` (kept a year) and ``/static/`` (asked again), see
:mod:`~.assets`; ``/rules/{lang}``: how to play at this site and the rules of each
variant, for players, in English, French, German or Danish (``?variant=N``: that
variant's section open).

What one client may ask is bounded (:mod:`euchre.server.limits`); a WebSocket opened from
a page of another site is refused (the ``Origin`` check, :func:`origin_allowed`).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from euchre.bots import BOTS, LEVELS, levels_for
from euchre.game import Match
from euchre.i18n import LANGUAGES, catalog_json, from_accept_language
from euchre.rules import OPTIONS, Rules
from euchre.server.assets import (
    IMMUTABLE,
    REVALIDATE,
    STATIC,
    CachedFiles,
    Compressed,
    index_page,
    revalidated,
    static_version,
)
from euchre.server.history import replay_frames
from euchre.server.limits import LimitError, Limits, Rate, RateLimiter, TokenBucket
from euchre.server.outbox import Connection
from euchre.server.pgstorage import PostgresStorage
from euchre.server.protocol import (
    MAX_MATCH,
    MAX_OFFSET,
    ActMessage,
    ChatMessage,
    ContinueMessage,
    CreateTable,
    HintMessage,
    HostRequest,
    JoinRequest,
    LeaveRequest,
    PingMessage,
    ProtocolError,
    ReclaimMessage,
    RematchMessage,
    SyncMessage,
    check_bot,
    is_table_id,
    parse_client_message,
    shown,
)
from euchre.server.registry import Tables
from euchre.server.review import ReviewCache, review_match
from euchre.server.rulespage import asked_variant, rules_page
from euchre.server.security import GuardedApp
from euchre.server.storage import (
    PlaceRecord,
    SQLiteStorage,
    Storage,
    StorageError,
    Synchronous,
    database_location,
)
from euchre.server.table import (
    BOT_NAMES,
    HINT_BOT,
    STORAGE_FAILED,
    Settings,
    Table,
    TableError,
    new_token,
)

__all__ = ["create_app", "open_storage", "origin_allowed"]

log = logging.getLogger("euchre.server")

MAX_BODY = 64 * 1024
"""The largest request body read, in bytes (a new table's is under 2 KB): a larger one
is refused with 413 (:class:`BodyLimit`)."""

GameNumber = Annotated[int, PathParam(ge=1, le=MAX_MATCH)]
"""A game's number in a path: from 1, bounded (a larger one is a 422, never a number
handed to the database)."""

_OPTION_NOTES = {o.name: o.note for o in OPTIONS[1:]}
"""What each rules option means, in a line (``/api/options``' ``notes``): the table's."""


@functools.cache
def _catalog_bytes(lang: str) -> bytes:
    """The ``web`` catalog of ``lang`` as the JSON ``/api/i18n`` answers."""
    return json.dumps(catalog_json(lang, "web"), ensure_ascii=False,
                      separators=(",", ":")).encode()


def _options() -> dict[str, Any]:
    variants = {}
    for n in range(2, 6):
        rules = Rules(players=n)
        variants[str(n)] = {"name": rules.variant, "defaults": rules.to_dict(),
                            "levels": levels_for(rules)}
    return {"variants": variants, "bots": list(BOTS), "levels": list(LEVELS),
            "hint": HINT_BOT in BOTS, "notes": _OPTION_NOTES}


def _summary(table: Table) -> dict[str, Any]:
    match = table.match
    deal = match.game.deal
    return {
        **table.info(),
        "scores": list(match.game.scores),
        "over": match.is_over,
        "deal": len(match.game.deals) + (0 if match.is_over else 1),
        "to_move": None if match.is_over else deal.to_move,
        "created": table.created,
    }


def open_storage(db: str | Path | None, synchronous: Synchronous = "FULL",
                 takeover: float = 2.0) -> Storage:
    """The storage ``--db`` names: a ``postgresql://`` URL (shared by several server
    processes; ``takeover`` as in :class:`~euchre.server.pgstorage.PostgresStorage`), or
    an SQLite file (default: :func:`~.storage.default_db_path`, its directory made if
    need be) that one server process locks.

    Raises :class:`ValueError` for a ``db`` that is neither (see
    :func:`~.storage.database_location`) and :class:`~.storage.StorageError` for a
    database that cannot be used, each with one sentence.
    """
    where = database_location(db)
    if isinstance(where, str):
        return PostgresStorage(where, takeover=takeover)
    if db is None:  # the user's data directory: made at the first start
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"the directory {where.parent} for the database cannot be "
                               f"made: {e.strerror}") from None
    return SQLiteStorage(where, synchronous)


def create_app(
    db_path: str | Path | None = None,
    *,
    settings: Settings | None = None,
    synchronous: Synchronous = "FULL",
    storage: Storage | None = None,
    limits: Limits | None = None,
    origins: Sequence[str] = (),
    hosts: Sequence[str] = (),
) -> FastAPI:
    """The web app over an SQLite file (default: the user's data directory), or a
    PostgreSQL database that several server processes share (``db_path`` a
    ``postgresql://`` URL, see :mod:`~.pgstorage`).

    ``storage`` replaces it with another :class:`~.storage.Storage` (an SQLite file
    is locked: a second app on it fails to start).  Unfinished games are resumed when
    the app starts.  ``limits`` bound what one client may ask; ``origins`` are the pages
    (``https://host[:port]``, or ``*`` for any) allowed to open a WebSocket besides the
    server's own.  ``hosts`` are the host names it answers to besides the loopback names
    (a ``Host`` of another is refused, :mod:`~.security`; ``*`` for any), and every
    answer carries the security headers.
    """
    cfg = settings or Settings()
    lim = limits or Limits()
    allowed = frozenset(_origin(o) for o in origins)
    rates = {"tables": RateLimiter(lim.tables, "tables created", kind="tables"),
             "joins": RateLimiter(lim.joins, "seats taken", kind="joins"),
             "hints": RateLimiter(lim.hints, "hints", kind="hints")}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = storage or open_storage(db_path, synchronous)
        tables = Tables(store, cfg, lim.max_tables)
        app.state.tables = tables
        try:
            await tables.start()  # a database that cannot be read is closed again
            yield
        finally:
            await tables.stop()
            await store.close()

    # no Swagger page: it would load its scripts from outside; the schema is served
    app = GuardedApp(hosts=hosts, title="Euchre", lifespan=lifespan, docs_url=None,
                     redoc_url=None, openapi_url="/api/openapi.json")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(Compressed)
    version = static_version()
    app.mount(f"/static/{version}", CachedFiles(directory=STATIC, cache_control=IMMUTABLE),
              name="versioned")
    app.mount("/static", CachedFiles(directory=STATIC, cache_control=REVALIDATE), name="static")
    app.add_exception_handler(LimitError, _limit_response)  # type: ignore[arg-type]
    app.add_exception_handler(Refusal, _refusal_response)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError,
                              _validation_response)  # type: ignore[arg-type]
    app.add_exception_handler(StorageError, _storage_response)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException,
                              _http_response)  # type: ignore[arg-type]

    def tables_of(request: Request | WebSocket) -> Tables:
        tables: Tables = request.app.state.tables
        return tables

    async def table_or_404(request: Request, table_id: str) -> Table:
        table = await tables_of(request).get(table_id)
        if table is None:
            raise _no_table(table_id)
        return table

    # -- pages -------------------------------------------------------------------------------
    index = index_page(version)

    def page(request: Request, status: int = 200) -> Response:
        return revalidated(request, index, "text/html; charset=utf-8", status)

    @app.get("/", include_in_schema=False)
    async def lobby_page(request: Request) -> Response:
        return page(request)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        """The page; an id that cannot be a table's is a 404 (the page says so)."""
        return page(request, 200 if is_table_id(table_id) else 404)

    @app.get("/history/{table_id}/{number}", include_in_schema=False)
    async def history_page(request: Request, table_id: str, number: GameNumber) -> Response:
        return page(request, 200 if is_table_id(table_id) else 404)

    @app.get("/rules/{lang}", include_in_schema=False)
    async def rules(lang: str, variant: str | None = None) -> HTMLResponse:
        """How to play here and the rules, in ``lang`` (English where not yet
        translated), with the section of ``variant`` (2 to 5 players) open."""
        if lang not in LANGUAGES:
            raise Refusal(404, "no_rules", f"no rules in {shown(lang)!r}", lang=shown(lang))
        return HTMLResponse(rules_page(lang, asked_variant(variant)))

    @app.get("/rules", include_in_schema=False)
    async def rules_default(request: Request, variant: str | None = None) -> HTMLResponse:
        """The rules in the browser's language."""
        return HTMLResponse(rules_page(
            from_accept_language(request.headers.get("accept-language", "")),
            asked_variant(variant)))

    # -- the page's words ----------------------------------------------------------------
    @app.get("/api/i18n")
    async def i18n(request: Request, lang: str | None = None) -> Response:
        """The page's words (the ``web`` catalog) in ``lang``, or in the language the
        browser's ``Accept-Language`` prefers; English for any other.  Asked again on
        each use, a 304 while unchanged."""
        chosen = lang is not None and lang in LANGUAGES
        if lang is None or lang not in LANGUAGES:
            lang = from_accept_language(request.headers.get("accept-language", ""))
        return revalidated(request, _catalog_bytes(lang), "application/json",
                           vary=None if chosen else "Accept-Language")

    # -- the lobby -------------------------------------------------------------------------
    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """Variants with their defaults, the option notes, every bot an API client may seat
        (``bots``), and the levels the lobby offers (``levels``)."""
        return _options()

    @app.get("/api/rules/options")
    async def rule_options() -> dict[str, Any]:
        """The rules' options (:data:`euchre.rules.OPTIONS`): names, types, defaults by
        variant, bounds and words; the lobby's form is made from them."""
        return {"options": [o.to_json() for o in OPTIONS]}

    @app.get("/api/tables")
    async def list_tables(request: Request, offset: int = 0,
                          limit: int | None = None) -> dict[str, Any]:
        """Open tables (to join or watch) and recently finished games (to replay), a
        page of each: ``limit`` of them (at most the page limit) after the ``offset``
        first; ``next`` is the offset of the next page, if there is one."""
        size = lim.page if limit is None else limit
        if size > lim.page:
            given = size if size.bit_length() <= 53 else None  # JSON for a page's script
            raise LimitError("page_too_large", f"a page holds at most {lim.page} tables, "
                             f"not {shown(str(size), 20)}", 422,
                             params={"max": lim.page, "given": given})
        if size < 1 or not 0 <= offset <= MAX_OFFSET:
            raise Refusal(422, "bad_page", f"limit is at least 1 and offset from 0 to "
                          f"{MAX_OFFSET}")
        tables = tables_of(request)
        open_tables = tables.open_tables()
        stored = await tables.storage.finished_matches(size + 1, offset)
        more = len(open_tables) > offset + size or len(stored) > size
        finished = []
        for record, match in stored[:size]:
            if record.options.get("private"):
                continue  # shown to its players only
            finished.append({
                "id": record.id, "name": record.name, "match": match.number,
                "variant": Rules.from_dict(record.rules).variant,
                "names": [p.name or (f"{p.bot} bot" if p.bot else "player")
                          for p in record.places],
                "result": match.result, "finished": match.finished,
            })
        return {"open": [_summary(t) for t in open_tables[offset:offset + size]],
                "open_total": len(open_tables), "finished": finished,
                "offset": offset, "limit": size, "next": offset + size if more else None}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request, body: CreateTable) -> dict[str, Any]:
        """Create a table; the answer holds your seat token and the invitation links."""
        address = _address(request)
        tables = tables_of(request)
        made = tables.created_by(address)
        if made >= lim.per_address:
            raise LimitError("too_many_tables", f"this address has {made} unfinished tables "
                             f"already, the most it may hold at once: finish or leave one "
                             f"first", 429, None, {"max": lim.per_address})
        rates["tables"].check(address)
        with tables.making(address):  # counted from this step on, before any await
            return await _create_table(tables, address, body)

    async def _create_table(tables: Tables, address: str, body: CreateTable) -> dict[str, Any]:
        try:
            rules = body.check(BOTS)
        except ValueError as e:
            raise Refusal(422, "bad_rules", str(e)) from None
        places = []
        for i, seat in enumerate(body.seats):
            if seat.kind == "bot":
                places.append(PlaceRecord(i, "bot", seat.name or BOT_NAMES[i], seat.bot))
            elif seat.kind == "friend":  # an invitation, never itself a seat's key
                places.append(PlaceRecord(i, "friend", seat.name, invite=new_token()))
            else:
                places.append(PlaceRecord(i, seat.kind, seat.name, None, new_token(),
                                          claimed=seat.kind == "you"))
        for p in places:
            if p.kind == "you" and not p.name:
                p.name = "You"
        # no name: stored empty, and each page words the variant's name in its language
        name = body.name
        invited = any(p.kind == "friend" for p in places)
        private = invited if body.private is None else body.private
        host = new_token()
        options: dict[str, Any] = {"host": host, "private": private, "started": not invited}
        if private:
            options["watch"] = new_token()
        if body.turn_timer is not None:
            options["turn_timer"] = body.turn_timer
        table = await tables.create(name, rules, places, options, address)
        you = next((p for p in places if p.kind == "you"), None)
        return {
            "id": table.id,
            "url": f"/table/{table.id}",
            "token": you.token if you else None,
            "place": you.index if you else None,
            "host": host,
            "host_url": f"/table/{table.id}?host={host}",
            "watch_url": (f"/table/{table.id}?watch={options['watch']}" if private else None),
            "private": private,
            "invites": [{"place": p.index, "invite": p.invite,
                         "url": f"/table/{table.id}?invite={p.invite}"}
                        for p in places if p.kind == "friend"],
        }

    async def keyed(request: Request, table_id: str) -> Table:
        """The table, if the request may see it: at a private table, with one of its keys
        (:meth:`Table.may_see`) in the ``X-Euchre-Key`` header (or ``?key=``)."""
        table = await table_or_404(request, table_id)
        if not table.may_see(_key(request)):
            raise Refusal(403, "private", "this table is private: it is shown to its "
                          "players, its host and those with its watch link")
        return table

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        """One table's facts: rules, seats, score; a private table's only with one of
        its keys (header ``X-Euchre-Key``).  Given an invitation, whether it is spent
        (``invitation``), which opening it would not do."""
        table = await keyed(request, table_id)
        summary = _summary(table)
        key = _key(request)
        invited = table.place_by_invite(key) if key else None
        if invited is not None:
            summary["invitation"] = {"place": invited.index, "spent": invited.claimed}
        return summary

    @app.post("/api/tables/{table_id}/join")
    async def join_table(request: Request, table_id: str, body: JoinRequest) -> dict[str, Any]:
        """Take a place: with an invitation token, or an open place by its number."""
        rates["joins"].check(_address(request))
        table = await table_or_404(request, table_id)
        if body.invite is not None:
            try:
                place = await table.claim_invite(body.invite, body.name or None)
            except TableError as e:
                raise _invitation_refused(table, body.invite, e) from None
            return {"id": table.id, "place": place.index, "token": place.token,
                    "url": f"/table/{table.id}"}
        async with table.lock:  # two asking at once for one open seat: one gets it
            if body.place is not None and body.place < len(table.places):
                place = table.places[body.place]
                if place.kind != "open" or place.claimed:
                    raise Refusal(409, "seat_taken", f"place {body.place} is not an open seat",
                                  place=body.place)
            else:
                raise Refusal(422, "no_seat_given",
                              "give an invitation or the number of an open place")
            try:
                await table.claim(place.index, body.name or None, open_only=True)
            except TableError as e:  # another process gave the seat away a moment ago
                raise Refusal(409, "seat_taken", str(e), place=place.index) from None
        return {"id": table.id, "place": place.index, "token": place.token,
                "url": f"/table/{table.id}"}

    @app.post("/api/tables/{table_id}/invitation")
    async def check_invitation(request: Request, table_id: str, body: JoinRequest
                               ) -> dict[str, Any]:
        """Would this invitation open a seat?  Checked when its link is opened, before
        the page asks a name (it answers the table's name and number of players);
        nothing is spent.  Refused as the claim would be: 403
        ``bad_invitation``, 409 ``invitation_spent``."""
        rates["joins"].check(_address(request))
        table = await table_or_404(request, table_id)
        place = await table.invited_place(body.invite or "")
        if place is None:
            raise _invitation_refused(table, body.invite or "", TableError(
                "bad_invitation", "this invitation does not open a seat at this table"))
        if place.claimed:
            raise _invitation_refused(table, body.invite or "", TableError(
                "invitation_spent", "this invitation was used already: the seat is taken"))
        return {"id": table.id, "place": place.index, "name": table.name,
                "players": table.rules.players}

    @app.post("/api/tables/{table_id}/leave")
    async def leave_table(request: Request, table_id: str, body: LeaveRequest) -> dict[str, Any]:
        """Give up your place: it opens to others and a bot plays it meanwhile; the last
        person to leave an unfinished game closes the table."""
        table = await table_or_404(request, table_id)
        place = await table.place_by_token_stored(body.token)
        if place is None:
            raise Refusal(403, "bad_token", "this seat token opens no seat at this table")
        await tables_of(request).leave(table, place.index)
        return {"id": table.id, "place": place.index, "closed": table.closed}

    @app.delete("/api/tables/{table_id}")
    async def delete_table(request: Request, table_id: str, body: LeaveRequest) -> dict[str, Any]:
        """The host ends a table, with every game played at it (``token``: the host
        link's key; at a table made before host links, the creator's seat token)."""
        table = await table_or_404(request, table_id)
        if not table.is_host(body.token):
            place = None if table.has_host else table.place_by_token(body.token)
            if place is None or place.kind != "you":
                raise Refusal(403, "not_creator",
                              "only the table's host may delete it")
        await tables_of(request).delete(table)
        return {"id": table.id, "deleted": True}

    # -- the host ------------------------------------------------------------------------------
    async def hosted(request: Request, table_id: str, body: HostRequest,
                     place: bool = False) -> Table:
        table = await table_or_404(request, table_id)
        if not table.is_host(body.host):
            raise Refusal(403, "not_host", "only the host, with the host link, may do this")
        if place and (body.place is None or body.place >= len(table.places)):
            raise Refusal(422, "no_place", f"the table has no place {body.place}",
                          place=body.place)
        if table.closed:
            raise _no_table(table_id)
        return table

    @app.post("/api/tables/{table_id}/host")
    async def host_view(request: Request, table_id: str, body: HostRequest) -> dict[str, Any]:
        """What the host sees: the places, their invitations, the watch link."""
        return (await hosted(request, table_id, body)).host_view()

    @app.post("/api/tables/{table_id}/host/seat")
    async def host_seat(request: Request, table_id: str, body: HostRequest
                        ) -> dict[str, Any]:
        """The host's own seat, for the host link opened on another device: the seat
        token of the place the host made the table in, while the host still holds it
        (``place`` and ``token`` null when not)."""
        table = await hosted(request, table_id, body)
        own = next((p for p in table.places if p.kind == "you" and p.claimed), None)
        return {"id": table.id, "place": own.index if own else None,
                "token": own.token if own else None}

    @app.post("/api/tables/{table_id}/host/invite")
    async def host_invite(request: Request, table_id: str, body: HostRequest
                          ) -> dict[str, Any]:
        """A new invitation for a place; whoever held it loses it at once."""
        table = await hosted(request, table_id, body, place=True)
        assert body.place is not None
        await table.invite(body.place)
        return table.host_view()

    @app.post("/api/tables/{table_id}/host/remove")
    async def host_remove(request: Request, table_id: str, body: HostRequest
                          ) -> dict[str, Any]:
        """Remove the person at a place: the seat waits for a new invitation's guest."""
        table = await hosted(request, table_id, body, place=True)
        assert body.place is not None
        await table.invite(body.place, "removed")
        return table.host_view()

    @app.post("/api/tables/{table_id}/host/bot")
    async def host_bot(request: Request, table_id: str, body: HostRequest) -> dict[str, Any]:
        """Seat a bot in a place (``bot``: its level, Casual by default)."""
        table = await hosted(request, table_id, body, place=True)
        assert body.place is not None
        level = body.bot or cfg.stand_in
        try:
            check_bot(level, table.rules, BOTS)
        except ValueError as e:
            raise Refusal(422, "bad_rules", str(e)) from None
        await table.seat_bot(body.place, level)
        return table.host_view()

    @app.post("/api/tables/{table_id}/host/start")
    async def host_start(request: Request, table_id: str, body: HostRequest
                         ) -> dict[str, Any]:
        """Deal now: every invited seat nobody took is played by a bot meanwhile."""
        table = await hosted(request, table_id, body)
        await table.start()
        return table.host_view()

    @app.post("/api/tables/{table_id}/host/timer")
    async def host_timer(request: Request, table_id: str, body: HostRequest
                         ) -> dict[str, Any]:
        """Set the turn timer (``turn_timer`` seconds; none: off)."""
        table = await hosted(request, table_id, body)
        await table.set_timer(body.turn_timer)
        return table.host_view()

    @app.post("/api/tables/{table_id}/host/mute")
    async def host_mute(request: Request, table_id: str, body: HostRequest) -> dict[str, Any]:
        """Mute (``muted``: true) or unmute a place in the chat."""
        table = await hosted(request, table_id, body, place=True)
        assert body.place is not None
        await table.mute(body.place, body.muted)
        return table.host_view()

    @app.post("/api/tables/{table_id}/host/end")
    async def host_end(request: Request, table_id: str, body: HostRequest) -> dict[str, Any]:
        """End the table for everyone, with every game played at it."""
        table = await hosted(request, table_id, body)
        await tables_of(request).delete(table)
        return {"id": table.id, "deleted": True}

    async def finished_match(request: Request, table_id: str, number: int) -> tuple[Table, Match]:
        table = await keyed(request, table_id)
        if number == table.match.number:
            match = table.match
        else:
            record = await tables_of(request).storage.load_table(table_id)
            stored = next((m for m in record.matches if m.number == number), None) \
                if record else None
            if stored is None:
                raise Refusal(404, "no_game", f"table {table_id} has no game {number}",
                              table=table_id, game=number)
            match = table.replay_match(stored)
        if not match.is_over:
            raise Refusal(409, "not_over", "the game is not over: its record holds every "
                          "hand, so it is shown only when the game ends (RULES §12)")
        return table, match

    @app.get("/api/tables/{table_id}/matches/{number}/record")
    async def record(request: Request, table_id: str, number: GameNumber) -> JSONResponse:
        """The game record (docs/rules.md, "Saved games"), a list of them for a rubber, to
        download."""
        table, match = await finished_match(request, table_id, number)
        return JSONResponse(
            table.record(match),
            headers={"Content-Disposition":
                     f'attachment; filename="euchre-{table_id}-{number}.json"'})

    @app.get("/api/tables/{table_id}/matches/{number}/replay")
    async def replay(request: Request, table_id: str, number: GameNumber) -> dict[str, Any]:
        """A finished game, deal by deal, every hand shown, for the history page."""
        table, match = await finished_match(request, table_id, number)
        return {"id": table.id, "name": table.name, "match": number,
                "games": [replay_frames(g) for g in table.game_records(match)]}

    # -- the expert's review of your decisions in a finished game (.review) ----------------
    reviews = ReviewCache()

    @app.get("/api/tables/{table_id}/matches/{number}/review")
    async def review(request: Request, table_id: str, number: GameNumber) -> dict[str, Any]:
        """Your decisions in a finished game (every game of a rubber) against the
        expert's, from your seat's view only: your seat token in the ``X-Seat-Token``
        header (a URL would leak it into logs).  A review already made is kept; making
        one counts against the hints' rate."""
        table = await table_or_404(request, table_id)
        token = request.headers.get("x-seat-token")
        place = table.place_by_token(token) if token else None
        if place is None:
            raise Refusal(403, "bad_token", "this seat token opens no seat at this table")
        table, match = await finished_match(request, table_id, number)
        seat = match.seat_of[place.index]
        key = (table.id, match.number, seat)
        found = reviews.get(key)
        if found is None:
            if not reviews.making(key):
                rates["hints"].check(_address(request))
            found = await reviews.review(
                key, functools.partial(review_match, table.game_records(match), seat))
        return {"id": table.id, "match": match.number, **found}

    # -- the table ---------------------------------------------------------------------------
    sockets: collections.Counter[str] = collections.Counter()
    """WebSockets open per client address."""
    flooded: dict[str, float] = {}
    """Client addresses whose socket was closed for flooding, until when they may not
    open another (a flood that reconnects costs a refused handshake, not a read)."""

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        if not origin_allowed(websocket.headers, allowed):
            await _deny(websocket, "bad_origin", "a page of another site may not open "
                        "this server's tables", 403)
            return
        address = _address(websocket)
        until = flooded.get(address)
        if until is not None:
            wait = until - time.monotonic()
            if wait > 0:
                await _deny(websocket, "flooding", "this address kept sending over the "
                            f"message rate: try again in {math.ceil(wait)} s", 429,
                            {"wait": math.ceil(wait)})
                return
            del flooded[address]
        if sockets[address] >= lim.sockets:
            await _deny(websocket, "too_many_sockets", f"this address has {lim.sockets} "
                        f"connections open already, the most it may", 429,
                        {"max": lim.sockets})
            return
        sockets[address] += 1
        try:
            await _table_socket(websocket, table_id)
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    async def _table_socket(websocket: WebSocket, table_id: str) -> None:
        token = websocket.query_params.get("token")
        await websocket.accept()
        try:
            table = await tables_of(websocket).get(table_id)
        except LimitError as e:
            await _refuse(websocket, e.code, str(e), 4000 + e.status, e.params)
            return
        except StorageError as e:
            _log_storage("WebSocket", websocket.url.path, e)
            await _refuse(websocket, "storage", _STORAGE_FAILED, 4503)
            return
        if table is None:
            missing = _no_table(table_id)
            await _refuse(websocket, missing.code, str(missing.detail), 4404, missing.params)
            return
        place = None
        if token:
            try:
                found = await table.place_by_token_stored(token)
            except StorageError as e:
                _log_storage("WebSocket", websocket.url.path, e)
                await _refuse(websocket, "storage", _STORAGE_FAILED, 4503)
                return
            if found is None:
                await _refuse(websocket, "bad_token",
                              "this seat token opens no seat at this table", 4403)
                return
            place = found.index
        elif not table.may_watch(websocket.query_params.get("watch")):
            await _refuse(websocket, "private", "this table is private: watching it needs "
                          "the host's watch link", 4403)
            return
        lang = websocket.query_params.get("lang", "en")
        async def close(code: int, reason: str) -> None:
            with contextlib.suppress(Exception):
                await websocket.close(code, reason)

        conn = Connection(websocket.send_text, place, close=close, max_outbox=lim.outbox,
                          reads_summaries=websocket.query_params.get("summary") == "wait",
                          token=token if place is not None else None,
                          lang=lang if lang in LANGUAGES else "en")
        over_rate = _message_budget(lim)
        address = _address(websocket)
        cooldown = FLOOD_COOLDOWN
        await table.join(conn)
        try:
            while not conn.overflowed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                refusal = over_rate()
                if refusal is _FLOODING:
                    if address not in flooded:
                        log.warning("a client kept sending over the message rate: "
                                    "disconnected, and refused for %g s", cooldown)
                    if len(flooded) >= 4096:  # forget the addresses whose time is up
                        now = time.monotonic()
                        for key in [k for k, t in flooded.items() if t <= now]:
                            del flooded[key]
                    flooded[address] = time.monotonic() + cooldown
                    await conn.end("flooding", "too many messages over the rate: "
                                   "disconnected", FLOODING,
                                   {"count": lim.messages.count if lim.messages else 0})
                    break
                if refusal is not None:
                    if refusal:  # told once a second at most; the message is dropped
                        conn.push_json(refusal)
                    continue  # unread: not decoded as JSON, nothing done
                text = message.get("text")
                if text is None:
                    conn.push_json({"type": "error", "code": "malformed", "params": {},
                                    "message": "malformed message: send JSON as a text frame"})
                    continue
                reply = await _handle(table, conn, text,
                                      lambda: rates["hints"].check(address))
                if reply is not None:
                    conn.push_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            table.leave(conn)
            await conn.close()

    return app


async def _handle(table: Table, conn: Connection, text: str,
                  check_hint: Callable[[], None]) -> dict[str, Any] | None:
    try:
        message = parse_client_message(text)
    except ProtocolError as e:
        return {"type": "error", "code": "malformed", "message": str(e), "params": {}}
    if isinstance(message, ActMessage):
        return await table.act(conn, message.action, message.seq)
    if isinstance(message, SyncMessage):
        conn.push_json(table.state(table.seat_of(conn)))
        return None
    if isinstance(message, HintMessage):
        try:
            check_hint()  # the expert runs outside the table's lock: bound how often
        except LimitError as e:
            return _limit_message(e)
        return await table.hint(conn)
    if isinstance(message, RematchMessage):
        return await table.rematch(conn)
    if isinstance(message, PingMessage):
        return {"type": "pong"}
    if isinstance(message, ContinueMessage):
        table.done_reading(conn)
        return None
    if isinstance(message, ReclaimMessage):
        return await table.reclaim(conn)
    if isinstance(message, ChatMessage):
        return await table.chat(conn, message.text, message.preset)
    raise AssertionError(message)  # pragma: no cover


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int,
                  params: dict[str, Any] | None = None) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "code": code, "message": message,
                                   "params": params or {}})
        if websocket.client_state is WebSocketState.CONNECTED:
            await websocket.close(close_code)


# -- limits and refusals -----------------------------------------------------------------
def _key(request: Request) -> str | None:
    """The key to a table a request gives: header ``X-Euchre-Key`` (a seat token in
    ``X-Seat-Token`` as well, or ``?key=``)."""
    return (request.headers.get("x-euchre-key") or request.headers.get("x-seat-token")
            or request.query_params.get("key") or None)


def _address(request: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy, the one it forwards)."""
    return request.client.host if request.client is not None else ""


def _limit_message(e: LimitError) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": e.code, "message": str(e),
                           "params": e.params}
    if e.retry_after is not None:
        out["retry_ms"] = int(1000 * e.retry_after) + 1
    return out


FLOODING = 4429
"""The close code of a connection that kept sending over its message rate."""

FLOOD_COOLDOWN = 60.0
"""Seconds an address whose socket was closed for flooding may not open another: a flood
that reconnects is read at most once a minute."""

_FLOODING: dict[str, Any] = {"flooding": True}
"""What :func:`_message_budget` answers when a connection is to be closed."""


def _message_budget(limits: Limits, clock: Callable[[], float] = time.monotonic
                    ) -> Callable[[], dict[str, Any] | None]:
    """Counts one connection's messages: ``None`` while under the rate; over it, the
    error to send (``{}`` when the client was already told within the last second), or
    :data:`_FLOODING` once it has sent another tenth of the rate over it: a client that
    does not slow down when told is closed, so a flood costs the server little."""
    rate = limits.messages
    if rate is None:
        return lambda: None
    bucket = TokenBucket(rate, clock())
    spare = TokenBucket(Rate(max(10, rate.count // 10), rate.seconds), clock())
    told = -math.inf

    def over() -> dict[str, Any] | None:
        nonlocal told
        now = clock()
        wait = bucket.take(now)
        if wait == 0:
            return None
        if spare.take(now) > 0:
            return _FLOODING
        if now - told < 1:
            return {}
        told = now
        return _limit_message(LimitError(
            "rate_limited", f"too many messages: at most {rate.count} per {rate.seconds:g} "
            f"seconds; this one was dropped", 429, wait,
            {"what": "messages", "count": rate.count, "seconds": rate.seconds,
             "wait": math.ceil(wait)}))

    return over


async def _limit_response(request: Request, e: LimitError) -> JSONResponse:
    headers = {} if e.retry_after is None else {"Retry-After": str(int(e.retry_after) + 1)}
    return JSONResponse({"detail": str(e), "code": e.code, "params": e.params}, e.status,
                        headers)


class Refusal(HTTPException):
    """An HTTP request the server refuses: ``code`` and ``params`` let the page word the
    English ``detail`` in its player's language (:data:`~.protocol.ERROR_CODES`)."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        super().__init__(status, message)
        self.code = code
        self.params = params


async def _refusal_response(request: Request, e: Refusal) -> JSONResponse:
    return JSONResponse({"detail": e.detail, "code": e.code, "params": e.params},
                        e.status_code, e.headers)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is a 413 ``invalid_request``
    in JSON, at once when its ``Content-Length`` says so (the app reads none of it), else
    when the bytes read pass the limit.  (uvicorn then reads what the client still sends
    and drops it, so the client, still sending, gets the answer rather than a reset.)"""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, refusing its body past the limit."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            await self._too_large()(scope, receive, send)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > self.limit:  # raised in the route, answered by _http_response
                raise StarletteHTTPException(413, self._too_large_text())
            return message

        await self.app(scope, counted, send)

    def _too_large_text(self) -> str:
        return f"the request's body is larger than {self.limit} bytes"

    def _too_large(self) -> JSONResponse:
        return JSONResponse({"detail": self._too_large_text(), "code": "invalid_request",
                             "params": {"max": self.limit}}, 413)


def _invitation_refused(table: Table, invite: str, e: TableError) -> Refusal:
    """An invitation that opens no seat (403 ``bad_invitation``) or one spent already
    (409 ``invitation_spent``: whether the table may be watched, and the place)."""
    if e.code == "bad_invitation":
        return Refusal(403, e.code, str(e))
    spent = table.place_by_invite(invite)
    return Refusal(409, e.code, str(e), watch=not table.private,
                   place=spent.index if spent else None)


def _no_table(table_id: str) -> Refusal:
    """404 ``no_table``, echoing at most 40 characters of the id asked."""
    return Refusal(404, "no_table", f"no table {shown(table_id)!r}", table=shown(table_id))


_STORAGE_FAILED = STORAGE_FAILED


def _log_storage(method: str, path: str, e: StorageError) -> None:
    """One line in the log for a request storage failed (the cause is the database's,
    not the client's: the traceback would say nothing more)."""
    log.error("%s %s: %s", method, shown(path, 80), " ".join(str(e).split()))


async def _storage_response(request: Request, e: StorageError) -> JSONResponse:
    """Storage failed (a full disk, a lost connection, a foreign schema): a 503 with
    code ``storage`` and one line in the log, as the table's socket refuses an action."""
    _log_storage(request.method, request.url.path, e)
    return JSONResponse({"detail": _STORAGE_FAILED, "code": "storage", "params": {}}, 503)


async def _http_response(request: Request, e: StarletteHTTPException) -> Response:
    """Starlette's and FastAPI's own refusals (no route: 404 or 405, a body that is not
    JSON or too deep to read: 400, one too large: 413) as JSON with a ``code``."""
    if e.status_code in (204, 304):
        return Response(status_code=e.status_code, headers=e.headers)
    code = "not_found" if e.status_code in (404, 405) else "invalid_request"
    return JSONResponse({"detail": str(e.detail), "code": code, "params": {}},
                        e.status_code, e.headers)


async def _validation_response(request: Request, e: RequestValidationError) -> Response:
    """FastAPI's 422 with code ``invalid_request``: each error's type, place and message,
    and what was given, cut short (:func:`_given`: a lone surrogate shown as U+FFFD, a
    megabyte string or a deep list not echoed whole, 1e400 or NaN as text)."""
    detail = []
    for err in e.errors()[:10]:
        item: dict[str, Any] = {
            "type": str(err.get("type", "")),
            "loc": [x if isinstance(x, int) else _given(x) for x in err.get("loc", ())],
            "msg": _given(err.get("msg", ""), 300),
            "input": _given(err.get("input")),
        }
        if isinstance(err.get("ctx"), dict):
            item["ctx"] = {_given(k): _given(v) for k, v in err["ctx"].items()}
        detail.append(item)
    body = json.dumps({"detail": detail, "code": "invalid_request", "params": {}},
                      ensure_ascii=False, allow_nan=False).encode()
    return Response(body, 422, media_type="application/json")


def _given(value: Any, limit: int = 100) -> Any:
    """What a client sent, as JSON that cannot fail: text cut to ``limit`` characters
    (a lone surrogate replaced), a number out of JSON's range as text, and a list or an
    object (any depth) named by its kind only."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):  # beyond 2**53 a page's JavaScript would round it
        return value if value.bit_length() <= 53 else f"an integer of {value.bit_length()} bits"
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        cut = value[:limit + 1]  # shown() marks the cut
        return shown(cut.encode("utf-16", "surrogatepass").decode("utf-16", "replace"), limit)
    if isinstance(value, (list, tuple, dict)):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    return shown(type(value).__name__, limit)


def _origin(text: str) -> str:
    """An origin as browsers send it: ``scheme://host[:port]``, lower case."""
    text = text.strip().lower().rstrip("/")
    return text if text == "*" else f"{urlsplit(text).scheme}://{urlsplit(text).netloc}"


def origin_allowed(headers: Headers, allowed: frozenset[str] = frozenset()) -> bool:
    """May a WebSocket with these request headers open?  A page may connect only to
    the server it came from (its ``Origin`` names the ``Host`` it asks), or from one of
    ``allowed`` (``*``: any).  No ``Origin`` is not a browser: it may.

    >>> origin_allowed(Headers({"host": "cards.example:8000",
    ...                         "origin": "http://cards.example:8000"}))
    True
    >>> origin_allowed(Headers({"host": "cards.example:8000", "origin": "https://evil.example"}))
    False
    """
    origin = headers.get("origin")
    if origin is None:
        return True
    given = _origin(origin)
    if "*" in allowed or given in allowed:
        return True
    scheme, _, netloc = given.partition("://")
    host = headers.get("host", "").lower()
    return scheme in ("http", "https") and netloc != "" and netloc == host


async def _deny(websocket: WebSocket, code: str, message: str, status: int,
                params: dict[str, Any] | None = None) -> None:
    """Refuse the handshake with an HTTP answer (or a bare close where the server
    cannot send one); the socket never opens."""
    response = JSONResponse({"detail": message, "code": code, "params": params or {}},
                            status)
    try:
        await websocket.send_denial_response(response)
    except RuntimeError:
        await websocket.close(1008, code)
