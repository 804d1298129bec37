"""The web app: play euchre in a browser, against bots or friends (``euchre serve``).

A FastAPI app on uvicorn.  The server holds the only true state; each WebSocket gets only
what its seat may know (RULES §12).  Every action is stored (in SQLite, or in PostgreSQL
for several server processes) before it is acknowledged, and a restarted server resumes
every unfinished game exactly.

* :mod:`euchre.server.app`: the HTTP API, the WebSocket, the pages;
* :mod:`euchre.server.protocol`: the messages, validated with pydantic;
* :mod:`euchre.server.views`: what each seat, or a spectator, is shown;
* :mod:`euchre.server.table`: one table in memory, its match, bots, resuming from storage;
  its parts: :mod:`~euchre.server.seating` (places, invitations, the host),
  :mod:`~euchre.server.play` (the match, actions, bots, rematches),
  :mod:`~euchre.server.audience` (the connections and what each is sent),
  :mod:`~euchre.server.talk` (the chat), :mod:`~euchre.server.clock` (the turn timer),
  :mod:`~euchre.server.sync` (storage and other server processes);
* :mod:`euchre.server.registry`: every table in memory, made, loaded, evicted, expired;
* :mod:`euchre.server.outbox`: what one WebSocket is sent, queued apart from the table;
* :mod:`euchre.server.storage`: the storage interface and its SQLite implementation;
* :mod:`euchre.server.pgstorage`: PostgreSQL, shared by several server processes;
* :mod:`euchre.server.schema`: the tables and their migrations, one schema for both;
* :mod:`euchre.server.limits`: how much one client may ask, and the refusals;
* :mod:`euchre.server.history`: finished games replayed deal by deal;
* :mod:`euchre.server.hints`: the expert's hint, with the value of every choice and why.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

try:
    import uvicorn
    from fastapi import FastAPI
except ModuleNotFoundError as e:
    _NEEDS = (f"euchre's server needs the web extra ({e.name} is not installed): "
              f"pip install 'euchre[web]'")
    if sys.argv[:1] == ["-m"]:  # `python -m euchre.server`: one line, as `euchre serve` says
        raise SystemExit(f"euchre: {_NEEDS}") from None
    raise ModuleNotFoundError(_NEEDS, name=e.name) from None

from euchre.server.app import create_app, open_storage
from euchre.server.limits import Limits, Rate
from euchre.server.security import served_hosts
from euchre.server.storage import StorageError, Synchronous, database_location, default_db_path
from euchre.server.table import Settings
from euchre.server.transport import DEFAULT_HEADER_TIMEOUT, uvicorn_options

__all__ = ["DEFAULT_BOT_DELAY", "DEFAULT_HEADER_TIMEOUT", "DEFAULT_IDLE_HOURS",
           "DEFAULT_TAKEOVER", "DEFAULT_UNVISITED_MINUTES", "SHUTDOWN_TIMEOUT", "Limits",
           "Rate", "Settings", "create_app", "default_db_path", "serve"]

DEFAULT_BOT_DELAY = 0.7
"""Seconds a bot waits before acting when people are watching."""

SHUTDOWN_TIMEOUT = 3
"""Seconds a stopping server (SIGTERM, Ctrl-C) waits for requests and sockets to finish
before it cancels them; the writes already queued are finished in any case."""

DEFAULT_IDLE_HOURS = 24.0
"""Hours an unfinished table may sit unplayed and unwatched before it is closed."""

DEFAULT_UNVISITED_MINUTES = 5.0
"""Minutes a new table waits for its first visitor before it is closed."""

DEFAULT_TAKEOVER = 2.0
"""On PostgreSQL, seconds between two looks for tables whose bots no process plays (their
process died): the longest the bots of such a table wait."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_path: str | Path | None = None,
    bot_delay: float = DEFAULT_BOT_DELAY,
    synchronous: Synchronous = "FULL",
    idle_hours: float = DEFAULT_IDLE_HOURS,
    *,
    limits: Limits | None = None,
    origins: Sequence[str] = (),
    shutdown_timeout: int = SHUTDOWN_TIMEOUT,
    takeover: float = DEFAULT_TAKEOVER,
    unvisited_minutes: float = DEFAULT_UNVISITED_MINUTES,
    hosts: Sequence[str] = (),
    trusted_proxies: Sequence[str] = (),
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
) -> None:
    """Run the web app on uvicorn until interrupted (``euchre serve``).

    ``db_path`` defaults to ``euchre.sqlite3`` in the user's data directory; a
    ``postgresql://`` URL instead names a database several server processes share (each
    looks for tables whose bots no process plays every ``takeover`` seconds);
    ``synchronous="NORMAL"`` trades safety against a power cut for speed; an unfinished
    table nobody has played at or looked at for ``idle_hours`` is closed, and a new one
    nobody came to within ``unvisited_minutes``.  ``limits`` and ``origins`` are those of
    :func:`create_app`.  On SIGTERM or Ctrl-C the server stops within about
    ``shutdown_timeout`` seconds, the writes in flight finished.

    The server answers to the host names of ``host`` (on every address: any IP address
    and this machine's name), the loopback names, and ``hosts``
    (:func:`~euchre.server.security.served_hosts`); it believes the client address that
    ``trusted_proxies`` forward, and closes a connection whose request headers take more
    than ``header_timeout`` seconds (:mod:`~euchre.server.transport`).

    Raises, before serving, :class:`ValueError` for a ``db_path`` that is neither a
    file's path nor a ``postgresql://`` URL, and
    :class:`~euchre.server.storage.StorageError` for a database that cannot be used:
    another server has the SQLite file, it is not one or is damaged, PostgreSQL is
    unreachable… (one sentence naming the database and the cause); ``ValueError`` too
    for a host name, proxy or timeout that is not one.
    """
    names = served_hosts(host, hosts)
    options = uvicorn_options(trusted_proxies, header_timeout)  # ValueError before opening
    db = database_location(db_path)
    if isinstance(db, str):
        from euchre.server.pgstorage import shown_url

        where = shown_url(db)  # no password shown
    else:
        where = str(db)
    # refused at once if another server has the SQLite file, or PostgreSQL is unreachable
    store = open_storage(db_path, synchronous, takeover)
    settings = Settings(bot_delay=bot_delay, trick_pause=2 * bot_delay,
                        idle_expiry=idle_hours * 3600,
                        unvisited_expiry=unvisited_minutes * 60)
    app = create_app(db, settings=settings, storage=store, limits=limits, origins=origins,
                     hosts=names)
    # messages are small: compressing them would cost more CPU than it saves
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                            ws_per_message_deflate=False,
                            timeout_graceful_shutdown=shutdown_timeout, lifespan="off",
                            **options)
    announce = f"euchre: serving http://{host}:{port}/  (games stored in {where})"
    if "::" in names and not hosts:
        announce += (f"\neuchre: on every address, pages asked for by IP address or by "
                     f"this machine's name ({', '.join(names[2:]) or 'none'}) are served; "
                     f"give the site's name with --allow-host NAME")
    server = _Server(config, app, where, announce)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: the server has stopped
        server.run()
    if server.failure is not None:
        raise server.failure


class _Server(uvicorn.Server):
    """uvicorn's server, the app started before it listens (its lifespan run here, not
    by uvicorn): stored tables that cannot be read end the server with the error kept in
    :attr:`failure`, to be told in one line, instead of a traceback in the log."""

    def __init__(self, config: uvicorn.Config, app: FastAPI, where: str,
                 announce: str) -> None:
        super().__init__(config)
        self.app = app
        self.where = where
        self.announce = announce
        self.failure: StorageError | None = None
        self._lifespan: contextlib.AbstractAsyncContextManager[Any] | None = None

    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        """Serve until stopped; the app is stopped in any case."""
        try:
            await super().serve(sockets)
        finally:
            await self._stop()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start the app (resume the stored tables), then listen."""
        lifespan = self.app.router.lifespan_context(self.app)
        try:
            await lifespan.__aenter__()
        except StorageError as e:
            self.failure = StorageError(f"the tables stored in {self.where} cannot be "
                                        f"resumed: {e}")
            self.should_exit = True
            return
        self._lifespan = lifespan
        try:
            await super().startup(sockets)
        except BaseException:  # the address is taken (uvicorn has said so, and exits)
            await self._stop()
            raise
        print(self.announce, flush=True)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Close the connections, then stop the app (its writes finished)."""
        await super().shutdown(sockets)
        await self._stop()

    async def _stop(self) -> None:
        lifespan, self._lifespan = self._lifespan, None
        if lifespan is not None:
            await lifespan.__aexit__(None, None, None)
