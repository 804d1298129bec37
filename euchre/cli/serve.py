"""``euchre serve``: the web app, for play in a browser (see docs/server.md)."""

from __future__ import annotations

import importlib
from typing import Annotated, Final

import typer

from euchre.cli.options import fail

WEB_MODULES: Final = ("fastapi", "uvicorn", "pydantic", "websockets", "markdown_it")
"""What the web app imports beyond the engine: the ``web`` extra, which a plain
``pip install euchre`` leaves out (the terminal game needs none of it)."""


def need_web() -> None:
    """Exit 1 with one line naming the ``web`` extra when a module of it is missing."""
    for name in WEB_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            fail(f"euchre serve needs the web extra ({name} is not installed): "
                 f"pip install 'euchre[web]'", 1)


_LIMITS = "Limits (per client; COUNT/SECONDS or 'off')"


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="SQLite file for tables and games, in a directory that exists "
                     "(default: euchre.sqlite3 in your data directory), or a "
                     "postgresql://user@host/db URL that several server processes share "
                     "(pip install 'euchre[web,postgres]').")] = None,
    bot_delay: Annotated[float, typer.Option(
        help="Seconds a bot waits before acting, so people can follow.")] = 0.7,
    sync: Annotated[str, typer.Option(
        help="SQLite durability: 'full' survives a power cut, 'normal' only the server "
             "being killed.")] = "full",
    idle_hours: Annotated[float, typer.Option(
        help="Close an unfinished table nobody has played at or watched for this many "
             "hours.")] = 24.0,
    rate_tables: Annotated[str, typer.Option(
        rich_help_panel=_LIMITS, metavar="COUNT/SECONDS",
        help="Tables created per client address.")] = "600/3600",
    rate_joins: Annotated[str, typer.Option(
        rich_help_panel=_LIMITS, metavar="COUNT/SECONDS",
        help="Seats taken per client address.")] = "60/60",
    rate_hints: Annotated[str, typer.Option(
        rich_help_panel=_LIMITS, metavar="COUNT/SECONDS",
        help="Hints per client address.")] = "30/60",
    rate_messages: Annotated[str, typer.Option(
        rich_help_panel=_LIMITS, metavar="COUNT/SECONDS",
        help="WebSocket messages per connection.")] = "1000/10",
    outbox_kib: Annotated[int, typer.Option(
        rich_help_panel=_LIMITS,
        help="KiB queued unread for one WebSocket before it is closed.")] = 256,
    max_tables: Annotated[int, typer.Option(
        rich_help_panel=_LIMITS,
        help="Tables in play (a person there in the last 10 minutes) at once.")] = 2000,
    tables_per_address: Annotated[int, typer.Option(
        rich_help_panel=_LIMITS,
        help="Unfinished tables one client address may have made at once.")] = 20,
    sockets_per_address: Annotated[int, typer.Option(
        rich_help_panel=_LIMITS,
        help="WebSockets one client address may have open at once.")] = 64,
    unvisited_minutes: Annotated[float, typer.Option(
        help="Close a new table nobody came to (no person at its seats; at a table of "
             "bots only, no spectator) after this many minutes.")] = 5.0,
    page_size: Annotated[int, typer.Option(
        rich_help_panel=_LIMITS, help="Tables per page of the lobby's list, at most.")] = 50,
    takeover: Annotated[float, typer.Option(
        help="PostgreSQL: seconds between looks for tables whose bots no process plays "
             "(their process died).")] = 2.0,
    allow_origin: Annotated[list[str] | None, typer.Option(
        metavar="URL", help="A page origin (https://host[:port]) that may open WebSockets "
        "besides the server's own, e.g. behind a proxy that rewrites Host; '*' for any. "
        "Repeatable.")] = None,
    allow_host: Annotated[list[str] | None, typer.Option(
        metavar="NAME", help="A host name the site is reached by (cards.example; "
        "*.cards.example for any name under it), besides the address served and the "
        "loopback names; '*' for any. Repeatable.")] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        metavar="ADDR", help="The address (or network, 172.28.0.0/16) of a reverse proxy "
        "whose X-Forwarded-For names the client; none by default. Repeatable.")] = None,
    header_timeout: Annotated[float, typer.Option(
        help="Seconds a connection has to send a request's headers before it is "
             "closed.")] = 10.0,
) -> None:
    """Serve euchre in the browser: tables against bots or friends, saved and resumable.

    A database that cannot be used stops it at once with one line naming the database
    and the cause (exit status 1); so does a --db that is neither a file's path nor a
    postgresql:// URL (exit status 2); without the ``web`` extra it says which to install
    (exit status 1).
    """
    need_web()
    from euchre.server.storage import StorageError, database_location

    try:
        database_location(db)
    except ValueError as e:
        fail(str(e))
    from euchre.server import Limits, Rate, serve
    from euchre.server.security import check_host_name
    from euchre.server.transport import check_proxy

    mode = sync.strip().upper()
    if mode not in ("FULL", "NORMAL"):
        fail(f"--sync is 'full' or 'normal', not {sync!r}")
    if not 0 < port < 65536:
        fail(f"--port is a port number from 1 to 65535, not {port}")
    if not takeover > 0:
        fail(f"--takeover is a number of seconds above 0, not {takeover}")
    if not idle_hours > 0:
        fail(f"--idle-hours is a number of hours above 0, not {idle_hours}")
    if not unvisited_minutes > 0:
        fail(f"--unvisited-minutes is a number of minutes above 0, not {unvisited_minutes}")
    if not header_timeout > 0:
        fail(f"--header-timeout is a number of seconds above 0, not {header_timeout}")
    try:
        hosts = [check_host_name(name) for name in allow_host or ()]
        proxies = [check_proxy(address) for address in trusted_proxy or ()]
    except ValueError as e:
        fail(str(e))
    try:
        limits = Limits(tables=Rate.parse(rate_tables), joins=Rate.parse(rate_joins),
                        hints=Rate.parse(rate_hints), messages=Rate.parse(rate_messages),
                        outbox=outbox_kib * 1024, max_tables=max_tables, page=page_size,
                        per_address=tables_per_address, sockets=sockets_per_address)
    except ValueError as e:
        fail(str(e))
    try:
        serve(host, port, db, bot_delay, synchronous="FULL" if mode == "FULL" else "NORMAL",
              idle_hours=idle_hours, limits=limits, origins=allow_origin or (),
              takeover=takeover, unvisited_minutes=unvisited_minutes, hosts=hosts,
              trusted_proxies=proxies, header_timeout=header_timeout)
    except StorageError as e:
        fail(str(e), 1)
