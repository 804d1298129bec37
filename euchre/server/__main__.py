"""``python -m euchre.server [--host H] [--port P] [--db PATH] [--bot-delay S] [--sync S]
[--idle-hours H]``.

The same as ``euchre serve``: the web app on uvicorn until interrupted.
"""

from __future__ import annotations

import argparse

from euchre.server import DEFAULT_BOT_DELAY, DEFAULT_IDLE_HOURS, serve


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(prog="python -m euchre.server",
                                     description="Play euchre in a browser.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", default=None,
                        help="SQLite file (default: euchre.sqlite3 in your data directory)")
    parser.add_argument("--bot-delay", type=float, default=DEFAULT_BOT_DELAY,
                        help="seconds a bot waits before acting (0 for tests)")
    parser.add_argument("--sync", default="full", choices=["full", "normal"],
                        help="SQLite's synchronous setting: full survives a power cut, "
                             "normal only the server being killed")
    parser.add_argument("--idle-hours", type=float, default=DEFAULT_IDLE_HOURS,
                        help="close an unfinished table nobody played at or watched for "
                             "this many hours")
    args = parser.parse_args(argv)
    if args.idle_hours <= 0:
        parser.error(f"--idle-hours is a number of hours above 0, not {args.idle_hours}")
    serve(args.host, args.port, args.db, args.bot_delay, synchronous=args.sync.upper(),
          idle_hours=args.idle_hours)


if __name__ == "__main__":
    main()
