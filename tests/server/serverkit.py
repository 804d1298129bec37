"""Running the web app for tests: a real uvicorn server on a loopback port.

``running_server`` starts it in a thread (the app's event loop is its own); ``server_process``
starts ``python -m euchre.server`` as a child process that a test may kill.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import uvicorn
from pgcluster import free_port
from websockets.sync.client import ClientConnection, connect

from euchre.server.app import create_app
from euchre.server.limits import Limits
from euchre.server.sockets import WebSocketProtocol
from euchre.server.table import Settings

LOOPBACK_LIMITS = Limits(sockets=100_000, per_address=100_000)
"""The default limits but for the per-address bounds, which the tests' one address
would meet."""

__all__ = [
    "Database",
    "Server",
    "claim_invite",
    "free_port",
    "my_turn",
    "play_out",
    "running_server",
    "seat_all",
    "server_command",
    "server_process",
    "untranslated",
    "ws_connect",
]


Database = Callable[[str], Path | str]
"""Databases of the test's backend by name (the ``database`` fixture): an SQLite file's
path, or a PostgreSQL database's URL; the same name is the same database."""


class Server:
    """A running server's address, with small helpers for tests."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.http = httpx2.Client(base_url=self.base, timeout=10)

    def create(self, rules: dict[str, Any], seats: list[dict[str, Any]],
               **extra: Any) -> dict[str, Any]:
        """Create a table; returns the API's answer.  Public unless ``private=True`` is
        given (``extra``: the other fields of the request)."""
        body = {"rules": rules, "seats": seats, "private": False, **extra}
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        answer: dict[str, Any] = r.json()
        return answer

    def seat(self, answer: dict[str, Any], place: int, name: str = "") -> str:
        """Open the invitation of ``place`` of a table just created (``answer``): the
        seat token the claim gives."""
        return claim_invite(self.http, answer, place, name)

    def seat_all(self, answer: dict[str, Any]) -> dict[int, str]:
        """Every place's seat token (the creator's, and each invitation claimed, so the
        game starts): ``{place: token}``."""
        return seat_all(self.http, answer)

    def ws(self, table: str, token: str | None = None, query: str = "") -> ClientConnection:
        """A WebSocket to a table, as a seat (with its token) or a spectator; ``query``
        adds parameters (``summary=wait``)."""
        return ws_connect(self.ws_base, table, token, query)


def claim_invite(http: httpx2.Client, answer: dict[str, Any], place: int,
                 name: str = "") -> str:
    """Claim the invitation of ``place`` (``answer``: the table's creation) over
    ``http``; the seat token it gives."""
    invite = next(i["invite"] for i in answer["invites"] if i["place"] == place)
    r = http.post(f"/api/tables/{answer['id']}/join", json={"invite": invite, "name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def seat_all(http: httpx2.Client, answer: dict[str, Any]) -> dict[int, str]:
    """Every place's seat token over ``http``: the creator's, and each invitation
    claimed (so the game starts)."""
    tokens = {} if answer["token"] is None else {answer["place"]: answer["token"]}
    for invite in answer["invites"]:
        tokens[invite["place"]] = claim_invite(http, answer, invite["place"])
    return tokens


def ws_connect(ws_base: str, table: str, token: str | None = None,
               query: str = "") -> ClientConnection:
    """Open a WebSocket to a table."""
    params = "&".join(p for p in (f"token={token}" if token else "", query) if p)
    url = f"{ws_base}/ws/{table}" + (f"?{params}" if params else "")
    return connect(url, open_timeout=10, max_size=2**22)


def recv(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    """The next message, parsed."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def latest_state(ws: ClientConnection) -> dict[str, Any]:
    """The table's state now: everything queued is read up to a ping's answer."""
    ws.send(json.dumps({"type": "sync"}))
    ws.send(json.dumps({"type": "ping"}))
    state = None
    while True:
        m = recv(ws)
        if m["type"] == "state":
            state = m
        elif m["type"] == "pong" and state is not None:
            return state


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    """The table's state once it is this seat's turn: the bots before it have moved, so
    nothing changes the state until the seat acts."""
    while True:
        m = recv(ws)
        if m["type"] == "state" and m["deal"]["to_move"] == m["you"] and m["deal"]["legal"]:
            return latest_state(ws)


def play_out(server: Server, table: str, token: str) -> dict[str, Any]:
    """Play the seat of ``token`` with its first legal action until the game (or the
    rubber) ends; returns the last state."""
    with server.ws(table, token) as ws:
        while True:
            m = recv(ws)
            if m["type"] != "state":
                continue
            if m["over"]:
                return m
            deal = m["deal"]
            if deal["to_move"] == m["you"] and deal["legal"]:
                ws.send(json.dumps({"type": "act", "action": deal["legal"][0], "seq": m["seq"]}))


@contextlib.contextmanager
def running_server(db: Path | str, bot_delay: float = 0.0, **options: Any) -> Iterator[Server]:
    """The app on uvicorn in a background thread, stopped on exit.

    ``options`` go to :func:`create_app` (``limits``, ``origins``, ``storage``).  Every
    test client comes from 127.0.0.1: unless ``limits`` are given, one address may open
    as many tables and sockets as the tests need (the per-address bounds have tests of
    their own).
    """
    options.setdefault("limits", LOOPBACK_LIMITS)
    app = create_app(db, settings=Settings(bot_delay=bot_delay), synchronous="NORMAL",
                     **options)
    # uvicorn drops an idle kept-alive connection after 5 s, the very age at which an
    # httpx client stops reusing one: on a loaded machine the client could send on a
    # connection the server was closing (a ReadError).  The server waits longer here,
    # so the client always lets go first.
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                            lifespan="on", ws_max_size=65536, ws=WebSocketProtocol,
                            timeout_keep_alive=60)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # slow on a loaded machine: waited for, not timed
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    srv = Server(port)
    try:
        yield srv
    finally:
        srv.http.close()
        server.should_exit = True
        thread.join(20)


def wait_until_serving(proc: subprocess.Popen[bytes], base: str, deadline: float) -> None:
    """Return once the server process at ``base`` answers; ``RuntimeError`` with what it
    printed if it exits first or ``deadline`` (``time.monotonic()``) passes."""
    while True:
        try:
            httpx2.get(f"{base}/api/options", timeout=1)
            return
        except httpx2.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                if proc.poll() is None:  # still starting: stopped, or its stderr never ends
                    proc.kill()
                    proc.wait(10)
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"the server at {base} did not start: {err}") from None
            time.sleep(0.05)


def server_command(db: Path | str, port: int, bot_delay: float = 0.0, *args: str) -> list[str]:
    """The command line of ``python -m euchre.server`` on loopback, ``args`` added."""
    return [sys.executable, "-m", "euchre.server", "--host", "127.0.0.1", "--port",
            str(port), "--db", str(db), "--bot-delay", str(bot_delay), *args]


@contextlib.contextmanager
def server_process(db: Path | str, port: int, bot_delay: float = 0.0, *args: str) -> Iterator[
        subprocess.Popen[bytes]]:
    """``python -m euchre.server`` as a child process; killed on exit if still running."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(server_command(db, port, bot_delay, *args),
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        # a loaded machine may take long to start a server: the test waits for it to serve
        wait_until_serving(proc, f"http://127.0.0.1:{port}", time.monotonic() + 120)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def untranslated(text: str, lang: str) -> list[str]:
    """The English phrases of the web catalog left in ``text``, a page's words in
    ``lang`` (none in English): a phrase of two words or more, without a placeholder,
    that ``lang`` says otherwise."""
    if lang == "en":
        return []
    from euchre.i18n import catalog_json

    words = catalog_json(lang, "web")["messages"]
    assert isinstance(words, dict)
    left = []
    for english, said in words.items():
        first = said[0] if isinstance(said, list) else said
        if " " in english and "{" not in english and first != english and english in text:
            left.append(english)
    return left

