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

``GET  /api/puzzles/next|daily|streak``    a puzzle to solve, without its answer
                                           (:mod:`~euchre.server.routes.puzzles`)
``POST /api/puzzles/{id}/answer``          the answer judged, the new rating
``GET  /api/tables/{id}/matches/{n}/puzzles/{k}``  your mistake k of that game's review,
                                           as a puzzle (``X-Seat-Token``); ``.../answer``
``GET  /api/i18n?lang=fr``                 the page's words in a language (default: the
                                           browser's ``Accept-Language``)
=========================================  ==================================================

WebSocket ``/ws/{id}?token=SEAT_TOKEN`` (see :mod:`euchre.server.protocol`).  Pages:
``/`` (lobby), ``/table/{id}``, ``/history/{id}/{n}``, ``/puzzles``: one single-page app
in ``static/``; static files under ``/static/VERSION/`` (kept a year) and ``/static/``
(asked again), see :mod:`~.assets`; ``/rules/{lang}``: how to play at this site and the
rules of each variant, for players, in English, French, German or Danish
(``?variant=N``: that variant's section open).

What one client may ask is bounded (:mod:`euchre.server.limits`); a WebSocket opened from
a page of another site is refused (the ``Origin`` check, :func:`origin_allowed`).

The routes are in :mod:`euchre.server.routes`, one router per resource; :func:`create_app`
assembles them with the static files, the middleware and the answers to refusals.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from euchre.server.assets import (
    IMMUTABLE,
    REVALIDATE,
    STATIC,
    CachedFiles,
    Compressed,
    index_page,
    static_version,
)
from euchre.server.limits import Limits, RateLimiter
from euchre.server.pgstorage import PostgresStorage
from euchre.server.registry import Tables
from euchre.server.routes import ROUTERS
from euchre.server.routes.deps import Shared
from euchre.server.routes.refusals import HANDLERS
from euchre.server.routes.websocket import _FLOODING as _FLOODING
from euchre.server.routes.websocket import FLOODING as FLOODING
from euchre.server.routes.websocket import _message_budget as _message_budget
from euchre.server.routes.websocket import origin_allowed, origin_of
from euchre.server.security import GuardedApp
from euchre.server.storage import (
    SQLiteStorage,
    Storage,
    StorageError,
    Synchronous,
    database_location,
)
from euchre.server.table import Settings

__all__ = ["create_app", "open_storage", "origin_allowed"]
# FLOODING, _FLOODING and _message_budget, now the socket's, are still found here

MAX_BODY = 64 * 1024
"""The largest request body read, in bytes (a new table's is under 2 KB): a larger one
is refused with 413 (:class:`BodyLimit`)."""


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
    for error, answer in HANDLERS:
        app.add_exception_handler(error, answer)
    app.state.shared = Shared(settings=cfg, limits=lim,
                              origins=frozenset(origin_of(o) for o in origins),
                              index=index_page(version), rates=rates)
    for router in ROUTERS:
        app.include_router(router)
    return app


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
            if read > self.limit:  # raised in the route, answered as a refusal (routes.refusals)
                raise StarletteHTTPException(413, self._too_large_text())
            return message

        await self.app(scope, counted, send)

    def _too_large_text(self) -> str:
        return f"the request's body is larger than {self.limit} bytes"

    def _too_large(self) -> JSONResponse:
        return JSONResponse({"detail": self._too_large_text(), "code": "invalid_request",
                             "params": {"max": self.limit}}, 413)
