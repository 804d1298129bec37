"""``python -m euchre.server [--host H] [--port P] [--db PATH] [--bot-delay S] [--sync S]
[--idle-hours H] [--allow-host NAME] [--trusted-proxy ADDR] [--header-timeout S] …``.

The same as ``euchre serve``: the web app on uvicorn until interrupted, with the same
limits and origin options (see ``docs/server.md``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from euchre.server import (
    DEFAULT_BOT_DELAY,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_IDLE_HOURS,
    DEFAULT_TAKEOVER,
    DEFAULT_UNVISITED_MINUTES,
    serve,
)
from euchre.server.limits import Limits, Rate
from euchre.server.security import check_host_name
from euchre.server.storage import StorageError
from euchre.server.transport import check_proxy


def _rate(text: str) -> Rate | None:
    try:
        return Rate.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _checked(check: Callable[[str], str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        try:
            return check(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return parse


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(prog="python -m euchre.server",
                                     description="Play euchre in a browser.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", default=None,
                        help="SQLite file (default: euchre.sqlite3 in your data directory), "
                             "or a postgresql://user@host/db URL that several server "
                             "processes share")
    parser.add_argument("--bot-delay", type=float, default=DEFAULT_BOT_DELAY,
                        help="seconds a bot waits before acting (0 for tests)")
    parser.add_argument("--sync", default="full", choices=["full", "normal"],
                        help="SQLite's synchronous setting: full survives a power cut, "
                             "normal only the server being killed")
    parser.add_argument("--idle-hours", type=float, default=DEFAULT_IDLE_HOURS,
                        help="close an unfinished table nobody played at or watched for "
                             "this many hours")
    parser.add_argument("--takeover", type=float, default=DEFAULT_TAKEOVER,
                        help="PostgreSQL: seconds between looks for tables whose bots no "
                             "process plays (their process died)")
    default = Limits()
    for name, what in (("tables", "tables created per client address"),
                       ("joins", "seats taken per client address"),
                       ("hints", "hints per client address"),
                       ("messages", "WebSocket messages per connection")):
        parser.add_argument(f"--rate-{name}", type=_rate, default=getattr(default, name),
                            metavar="COUNT/SECONDS",
                            help=f"{what} (default {getattr(default, name)}; 'off': none)")
    parser.add_argument("--outbox-kib", type=int, default=default.outbox // 1024,
                        help="KiB queued unread for one WebSocket before it is closed")
    parser.add_argument("--max-tables", type=int, default=default.max_tables,
                        help="tables in play (a person there in the last 10 minutes)")
    parser.add_argument("--tables-per-address", type=int, default=default.per_address,
                        help="unfinished tables one client address may have made")
    parser.add_argument("--sockets-per-address", type=int, default=default.sockets,
                        help="WebSockets one client address may have open")
    parser.add_argument("--unvisited-minutes", type=float, default=DEFAULT_UNVISITED_MINUTES,
                        help="close a new table nobody came to after this many minutes")
    parser.add_argument("--page-size", type=int, default=default.page,
                        help="tables per page of GET /api/tables, at most")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help="a page origin (https://host[:port]) allowed to open "
                             "WebSockets besides the server's own; '*' for any")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        type=_checked(check_host_name),
                        help="a host name the site is reached by (*.NAME: any name under "
                             "it), besides the address served and the loopback names; "
                             "'*' for any")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                        type=_checked(check_proxy),
                        help="the address (or network) of a reverse proxy whose "
                             "X-Forwarded-For names the client; none by default")
    parser.add_argument("--header-timeout", type=float, default=DEFAULT_HEADER_TIMEOUT,
                        metavar="SECONDS",
                        help="seconds a connection has to send a request's headers")
    args = parser.parse_args(argv)
    if not args.header_timeout > 0:
        parser.error(f"--header-timeout is a number of seconds above 0, "
                     f"not {args.header_timeout}")
    if args.idle_hours <= 0:
        parser.error(f"--idle-hours is a number of hours above 0, not {args.idle_hours}")
    if not args.unvisited_minutes > 0:
        parser.error(f"--unvisited-minutes is a number of minutes above 0, "
                     f"not {args.unvisited_minutes}")
    try:
        limits = Limits(tables=args.rate_tables, joins=args.rate_joins,
                        hints=args.rate_hints, messages=args.rate_messages,
                        outbox=args.outbox_kib * 1024, max_tables=args.max_tables,
                        page=args.page_size, per_address=args.tables_per_address,
                        sockets=args.sockets_per_address)
    except ValueError as e:
        parser.error(str(e))
    try:
        serve(args.host, args.port, args.db, args.bot_delay, synchronous=args.sync.upper(),
              idle_hours=args.idle_hours, limits=limits, origins=args.allow_origin,
              takeover=args.takeover, unvisited_minutes=args.unvisited_minutes,
              hosts=args.allow_host, trusted_proxies=args.trusted_proxy,
              header_timeout=args.header_timeout)
    except StorageError as e:
        parser.exit(1, f"{parser.prog}: {e}\n")


if __name__ == "__main__":
    main()
