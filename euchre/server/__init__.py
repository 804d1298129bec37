"""The web app: play euchre in a browser, against bots or friends (``euchre serve``).

A FastAPI app on uvicorn.  The server holds the only true state; each WebSocket gets only
what its seat may know (RULES §12).  Every action is stored in SQLite before it is
acknowledged, and a restarted server resumes every unfinished game exactly.

* :mod:`euchre.server.app`: the HTTP API, the WebSocket, the pages;
* :mod:`euchre.server.protocol`: the messages, validated with pydantic;
* :mod:`euchre.server.views`: what each seat, or a spectator, is shown;
* :mod:`euchre.server.tables`: tables in memory, bots, resuming from storage;
* :mod:`euchre.server.storage`: the storage interface and its SQLite implementation;
* :mod:`euchre.server.limits`: how much one client may ask, and the refusals;
* :mod:`euchre.server.history`: finished games replayed deal by deal;
* :mod:`euchre.server.hints`: the expert's hint, with the value of every choice and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from euchre.server.app import create_app
from euchre.server.limits import Limits, Rate
from euchre.server.storage import SQLiteStorage, Synchronous, default_db_path
from euchre.server.tables import Settings

__all__ = ["DEFAULT_BOT_DELAY", "DEFAULT_IDLE_HOURS", "SHUTDOWN_TIMEOUT", "Limits", "Rate",
           "Settings", "create_app", "default_db_path", "serve"]

DEFAULT_BOT_DELAY = 0.7
"""Seconds a bot waits before acting when people are watching."""

SHUTDOWN_TIMEOUT = 3
"""Seconds a stopping server (SIGTERM, Ctrl-C) waits for requests and sockets to finish
before it cancels them; the writes already queued are finished in any case."""

DEFAULT_IDLE_HOURS = 24.0
"""Hours an unfinished table may sit unplayed and unwatched before it is closed."""


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
) -> None:
    """Run the web app on uvicorn until interrupted (``euchre serve``).

    ``db_path`` defaults to ``euchre.sqlite3`` in the user's data directory;
    ``synchronous="NORMAL"`` trades safety against a power cut for speed; an unfinished
    table nobody has played at or looked at for ``idle_hours`` is closed.  ``limits``
    and ``origins`` are those of :func:`create_app`.  On SIGTERM or Ctrl-C the server
    stops within about ``shutdown_timeout`` seconds, the writes in flight finished.

    Raises :class:`~euchre.server.storage.StorageError` before serving if another
    server has the database.
    """
    import uvicorn

    path = Path(db_path) if db_path is not None else default_db_path()
    store = SQLiteStorage(path, synchronous)  # refused at once if another server has it
    settings = Settings(bot_delay=bot_delay, trick_pause=2 * bot_delay,
                        idle_expiry=idle_hours * 3600)
    app = create_app(path, settings=settings, storage=store, limits=limits, origins=origins)
    print(f"euchre: serving http://{host}:{port}/  (games stored in {path})", flush=True)
    # messages are small: compressing them would cost more CPU than it saves
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False, timeout_graceful_shutdown=shutdown_timeout)
