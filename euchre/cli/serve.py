"""``euchre serve``: the web app, for play in a browser (see docs/server.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from euchre.cli.options import fail


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[Path | None, typer.Option(
        "--db", help="SQLite file for tables and games (default: euchre.sqlite3 in your "
                     "data directory).")] = None,
    bot_delay: Annotated[float, typer.Option(
        help="Seconds a bot waits before acting, so people can follow.")] = 0.7,
    sync: Annotated[str, typer.Option(
        help="SQLite durability: 'full' survives a power cut, 'normal' only the server "
             "being killed.")] = "full",
) -> None:
    """Serve euchre in the browser: tables against bots or friends, saved and resumable."""
    from euchre.server import serve

    mode = sync.strip().upper()
    if mode not in ("FULL", "NORMAL"):
        fail(f"--sync is 'full' or 'normal', not {sync!r}")
    if not 0 < port < 65536:
        fail(f"--port is a port number from 1 to 65535, not {port}")
    serve(host, port, db, bot_delay, synchronous="FULL" if mode == "FULL" else "NORMAL")
