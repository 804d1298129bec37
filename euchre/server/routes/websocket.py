"""The table's WebSocket (``/ws/{id}?token=SEAT_TOKEN``, :mod:`~euchre.server.protocol`):
a seat's with its token, a spectator's without; and a club night's (``/ws/night/{id}``,
``?key=`` the organiser's key or a player's token), which sends the night as its key's
holder sees it, then again whenever it changes (:mod:`~euchre.server.nightwatch`).  One
opened from a page of another site is refused (:func:`origin_allowed`), and so are an
address's sockets past its limit and the messages over its rate: one that floods is
closed (:func:`_message_budget`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.websockets import WebSocketDisconnect, WebSocketState

from euchre.i18n import LANGUAGES
from euchre.server.limits import LimitError, Limits, Rate, TokenBucket
from euchre.server.outbox import Connection
from euchre.server.protocol import (
    ActMessage,
    ChatMessage,
    ContinueMessage,
    HintMessage,
    PingMessage,
    ProtocolError,
    ReclaimMessage,
    RematchMessage,
    SyncMessage,
    parse_client_message,
    shown,
)
from euchre.server.registry import Tables
from euchre.server.routes.deps import Address, AppShared, AppTables, Shared
from euchre.server.routes.refusals import limit_message, log_storage, no_table
from euchre.server.storage import StorageError
from euchre.server.table import STORAGE_FAILED, Table

__all__ = ["FLOODING", "FLOOD_COOLDOWN", "origin_allowed", "origin_of", "router"]

log = logging.getLogger("euchre.server")

router = APIRouter()

FLOODING = 4429
"""The close code of a connection that kept sending over its message rate."""

FLOOD_COOLDOWN = 60.0
"""Seconds an address whose socket was closed for flooding may not open another: a flood
that reconnects is read at most once a minute."""

_FLOODING: dict[str, Any] = {"flooding": True}
"""What :func:`_message_budget` answers when a connection is to be closed."""


@router.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, shared: AppShared,
                       tables: AppTables, address: Address) -> None:
    if await _admitted(websocket, shared, address):
        try:
            await _table_socket(websocket, table_id, tables, shared, address)
        finally:
            _let_go(shared, address)


@router.websocket("/ws/night/{night_id}")
async def night_socket(websocket: WebSocket, night_id: str, shared: AppShared,
                       tables: AppTables, address: Address) -> None:
    """A club night's live page: the night as the key's holder sees it (no key: as a
    projector shows it), sent at once and whenever it changes.  The page sends nothing:
    a message closes the socket (1008)."""
    if await _admitted(websocket, shared, address):
        try:
            await _night_socket(websocket, night_id, tables)
        finally:
            _let_go(shared, address)


async def _night_socket(websocket: WebSocket, night_id: str, tables: Tables) -> None:
    await websocket.accept()
    watch = tables.nights
    try:
        night = await watch.load(night_id)
    except StorageError as e:
        log_storage("WebSocket", websocket.url.path, e)
        await _refuse(websocket, "storage", STORAGE_FAILED, 4503)
        return
    if night is None:
        await _refuse(websocket, "no_night", f"no night {shown(night_id)!r}", 4404,
                      {"night": shown(night_id)})
        return
    # a key that is nobody's shows what anyone sees, as the night's GET does
    watcher = watch.watch(night, night.role(websocket.query_params.get("key")))

    async def send() -> None:
        while True:
            await websocket.send_text(await watcher.next())

    sender = asyncio.create_task(send())
    try:
        message = await websocket.receive()
        if message["type"] != "websocket.disconnect":
            with contextlib.suppress(Exception):
                await websocket.close(1008, "this socket takes no messages")
    except WebSocketDisconnect:
        pass
    finally:
        watch.unwatch(watcher)
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender


async def _admitted(websocket: WebSocket, shared: Shared, address: str) -> bool:
    """Whether a socket may open (its origin, its address's sockets and flooding), counted
    against its address until :func:`_let_go`; a refusal is answered here."""
    lim, sockets, flooded = shared.limits, shared.sockets, shared.flooded
    if not origin_allowed(websocket.headers, shared.origins):
        await _deny(websocket, "bad_origin", "a page of another site may not open "
                    "this server's tables", 403)
        return False
    until = flooded.get(address)
    if until is not None:
        wait = until - time.monotonic()
        if wait > 0:
            await _deny(websocket, "flooding", "this address kept sending over the "
                        f"message rate: try again in {math.ceil(wait)} s", 429,
                        {"wait": math.ceil(wait)})
            return False
        del flooded[address]
    if sockets[address] >= lim.sockets:
        await _deny(websocket, "too_many_sockets", f"this address has {lim.sockets} "
                    f"connections open already, the most it may", 429,
                    {"max": lim.sockets})
        return False
    sockets[address] += 1
    return True


def _let_go(shared: Shared, address: str) -> None:
    sockets = shared.sockets
    sockets[address] -= 1
    if not sockets[address]:
        del sockets[address]


async def _table_socket(websocket: WebSocket, table_id: str, tables: Tables,
                        shared: Shared, address: str) -> None:
    lim, rates, flooded = shared.limits, shared.rates, shared.flooded
    token = websocket.query_params.get("token")
    await websocket.accept()
    try:
        table = await tables.get(table_id)
    except LimitError as e:
        await _refuse(websocket, e.code, str(e), 4000 + e.status, e.params)
        return
    except StorageError as e:
        log_storage("WebSocket", websocket.url.path, e)
        await _refuse(websocket, "storage", STORAGE_FAILED, 4503)
        return
    if table is None:
        missing = no_table(table_id)
        await _refuse(websocket, missing.code, str(missing.detail), 4404, missing.params)
        return
    place = None
    if token:
        try:
            found = await table.sync.place_by_token_stored(token)
        except StorageError as e:
            log_storage("WebSocket", websocket.url.path, e)
            await _refuse(websocket, "storage", STORAGE_FAILED, 4503)
            return
        if found is None:
            await _refuse(websocket, "bad_token",
                          "this seat token opens no seat at this table", 4403)
            return
        place = found.index
    elif not table.seating.may_watch(websocket.query_params.get("watch")):
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
    cooldown = FLOOD_COOLDOWN
    await table.audience.join(conn)
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
        table.audience.leave(conn)
        await conn.close()


async def _handle(table: Table, conn: Connection, text: str,
                  check_hint: Callable[[], None]) -> dict[str, Any] | None:
    try:
        message = parse_client_message(text)
    except ProtocolError as e:
        return {"type": "error", "code": "malformed", "message": str(e), "params": {}}
    if isinstance(message, ActMessage):
        return await table.play.act(conn, message.action, message.seq)
    if isinstance(message, SyncMessage):
        conn.push_json(table.audience.state(table.play.seat_of(conn)))
        return None
    if isinstance(message, HintMessage):
        try:
            check_hint()  # the expert runs outside the table's lock: bound how often
        except LimitError as e:
            return limit_message(e)
        return await table.play.hint(conn)
    if isinstance(message, RematchMessage):
        return await table.play.rematch(conn)
    if isinstance(message, PingMessage):
        return {"type": "pong"}
    if isinstance(message, ContinueMessage):
        table.play.done_reading(conn)
        return None
    if isinstance(message, ReclaimMessage):
        return await table.play.reclaim(conn)
    if isinstance(message, ChatMessage):
        return await table.talk.chat(conn, message.text, message.preset)
    raise AssertionError(message)  # pragma: no cover


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int,
                  params: dict[str, Any] | None = None) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "code": code, "message": message,
                                   "params": params or {}})
        if websocket.client_state is WebSocketState.CONNECTED:
            await websocket.close(close_code)


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
        return limit_message(LimitError(
            "rate_limited", f"too many messages: at most {rate.count} per {rate.seconds:g} "
            f"seconds; this one was dropped", 429, wait,
            {"what": "messages", "count": rate.count, "seconds": rate.seconds,
             "wait": math.ceil(wait)}))

    return over


def origin_of(text: str) -> str:
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
    given = origin_of(origin)
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
