"""Hostile input, the same table of cases on SQLite and on PostgreSQL: never a 500.

One real server process per backend (``python -m euchre.server``, its log kept) takes
every case of :func:`_http_cases` and :func:`_socket_cases`: bodies that are not JSON, of
the wrong types, nested 10,000 deep or a megabyte long, numbers as ``1e400``, ``NaN`` or
past 64 bits, lone surrogates, NUL and other control characters, unknown fields; query
parameters and game numbers out of range; table ids with NUL, 60,000 characters, slashes
and dots; wrong, empty, huge tokens; and WebSocket frames of every wrong kind.  Each case
is answered with a status below 500 (the exact 4xx where it matters) and a JSON body with
a ``code``; a refusal echoes at most a few dozen characters of what it was sent.  At the
end the server's log holds no traceback, the tables are as they were (a refusal changes
nothing), and a normal game is still played to its end.

Storage failures (a full disk) are a 503 ``storage`` with one line in the log, on every
route that writes: :func:`test_a_failing_storage_is_a_503_on_every_route_that_writes`.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pgcluster import Cluster
from serverkit import (
    Database,
    Server,
    free_port,
    play_out,
    recv,
    running_server,
    server_command,
)
from serverkit import wait_until_serving as _wait
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from euchre.server.storage import SQLiteStorage, Storage, StorageError

if TYPE_CHECKING:
    import psycopg

BIG = 60_000
"""The length of the long ids and tokens."""

ECHO = 2_000
"""The most bytes a refusal's body may hold (what it echoes is cut short)."""


# -- the server, its log ---------------------------------------------------------------------
@pytest.fixture
def logged_server(database: Database, tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    """``python -m euchre.server`` over a fresh database, every rate limit off (the cases
    are refused for what they are, not for how many), its stderr in a file."""
    port = free_port()
    log = tmp_path / "server.log"
    command = server_command(database("euchre"), port, 0.0, "--rate-tables", "off",
                             "--rate-joins", "off", "--rate-hints", "off",
                             "--rate-messages", "off", "--sync", "normal")
    with open(log, "wb") as err:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
    server = Server(port)
    try:
        try:
            _wait(proc, server.base, time.monotonic() + 30)
        except RuntimeError:
            raise RuntimeError(f"the server did not start: {log.read_text()}") from None
        yield server, log
    finally:
        server.http.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def _raw(port: int, method: str, target: str, body: bytes | Iterator[bytes] | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, str, bytes]:
    """One request sent as written (no path normalized, no character escaped): the
    status, the content type and the body of the answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = dict(headers or {})
        if body is not None and "content-type" not in {k.lower() for k in sent}:
            sent["Content-Type"] = "application/json"
        try:
            conn.request(method, target, body=body, headers=sent,
                         encode_chunked=body is not None and not isinstance(body, bytes))
            answer = conn.getresponse()
        except (BrokenPipeError, ConnectionResetError):
            # the server answered (a 413) and closed before the whole body was sent:
            # its answer is read from the socket all the same
            assert conn.sock is not None
            answer = http.client.HTTPResponse(conn.sock, method=method)
            answer.begin()
        return answer.status, answer.getheader("content-type") or "", answer.read()
    finally:
        conn.close()


# -- the tables the cases aim at ---------------------------------------------------------------
@dataclass
class Tables:
    """The tables made before the cases: their ids and keys."""

    four: dict[str, Any]
    """Public, four players: you, a friend (invited), an open seat, a bot; not started."""
    private: dict[str, Any]
    """Private, you and a friend."""
    finished: dict[str, Any]
    """Public, you against a bot, played to its end: game 1 has a record."""
    playing: dict[str, Any]
    """Private, you against a bot, in play: the WebSocket frames go to its seat."""


def _make_tables(server: Server) -> Tables:
    bot = {"kind": "bot", "bot": "random"}
    four = server.create({"players": 4}, [{"kind": "you", "name": "Ann"}, {"kind": "friend"},
                                          {"kind": "open"}, bot])
    private = server.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}],
                            private=True)
    finished = server.create({"players": 2, "target": 1}, [{"kind": "you"}, bot])
    assert play_out(server, finished["id"], finished["token"])["over"]
    playing = server.create({"players": 2}, [{"kind": "you"}, bot], private=True)
    return Tables(four, private, finished, playing)


def _snapshot(server: Server, tables: Tables) -> dict[str, Any]:
    """What a refusal must leave as it was: the lobby's list, each table's facts, the
    host's view of the four-handed one."""
    http = server.http
    four = tables.four["id"]
    view = http.post(f"/api/tables/{four}/host", json={"host": tables.four["host"]})
    assert view.status_code == 200, view.text
    return {"list": http.get("/api/tables").json(),
            "tables": {t["id"]: http.get(f"/api/tables/{t['id']}").json()
                       for t in (tables.four, tables.private, tables.finished)},
            "host": view.json()}


# -- the HTTP cases -------------------------------------------------------------------------------
@dataclass
class Case:
    """One request and the answer expected: ``status`` (one, or any of several) and,
    for a refusal, its ``code`` (``None``: any code)."""

    name: str
    method: str
    target: str
    body: bytes | None = None
    status: int | tuple[int, ...] = 422
    code: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    page: bool = False
    """A page, not the API: the refusal is the page itself (HTML), which then says it."""


def _j(value: Any) -> bytes:
    return json.dumps(value).encode()


def _seats(*extra: str) -> str:
    return '[{"kind": "you"}, {"kind": "bot", "bot": "random"}' + "".join(extra) + "]"


def _create_cases() -> list[Case]:
    """``POST /api/tables`` with bodies of every wrong kind."""
    seats = _seats()
    new = "/api/tables"
    raw: list[tuple[str, bytes, int | tuple[int, ...], str | None]] = [
        ("not JSON", b"hello", 422, "invalid_request"),
        ("empty", b"", 422, "invalid_request"),
        ("truncated", b'{"seats": [', 422, "invalid_request"),
        ("an array", b"[]", 422, "invalid_request"),
        ("null", b"null", 422, "invalid_request"),
        ("a string", b'"a table"', 422, "invalid_request"),
        ("a number", b"123", 422, "invalid_request"),
        ("no seats", b"{}", 422, "invalid_request"),
        ("seats null", b'{"seats": null}', 422, "invalid_request"),
        ("seats a string", b'{"seats": "you"}', 422, "invalid_request"),
        ("seats empty", b'{"seats": []}', 422, "invalid_request"),
        ("six seats", _j({"seats": [{"kind": "bot", "bot": "random"}] * 6}), 422,
         "invalid_request"),
        ("an unknown kind", b'{"seats": [{"kind": "alien"}, {"kind": "you"}]}', 422,
         "invalid_request"),
        ("a seat a number", b'{"seats": [1, 2]}', 422, "invalid_request"),
        ("rules an array", b'{"rules": [], "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("players 1e400", b'{"rules": {"players": 1e400}, "seats": ' + seats.encode() + b"}",
         422, "invalid_request"),
        ("players NaN", b'{"rules": {"players": NaN}, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("players -Infinity",
         b'{"rules": {"players": -Infinity}, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("players 2**64", _j({"rules": {"players": 2**64}, "seats": json.loads(seats)}), 422,
         "invalid_request"),
        ("players of 5,000 digits", b'{"rules": {"players": ' + b"9" * 5000 + b"}}", 400,
         "invalid_request"),
        ("target 10**30", _j({"rules": {"players": 2, "target": 10**30},
                              "seats": json.loads(seats)}), 422, "invalid_request"),
        ("deck 25", _j({"rules": {"players": 2, "deck": 25}, "seats": json.loads(seats)}), 422,
         "invalid_request"),
        ("joker_turnup NUL", _j({"rules": {"players": 2, "joker_turnup": "\0"},
                                 "seats": json.loads(seats)}), 422, "bad_rules"),
        ("name a number", b'{"name": 5, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("name null", b'{"name": null, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("name NUL", _j({"name": "\0", "seats": json.loads(seats)}), 422, "invalid_request"),
        ("name with NUL", _j({"name": "a\0b", "seats": json.loads(seats)}), 422,
         "invalid_request"),
        ("name a lone surrogate", b'{"name": "\\ud800", "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("name an escape sequence", _j({"name": "\x1b[31mred", "seats": json.loads(seats)}),
         422, "invalid_request"),
        ("name DEL", _j({"name": "a\x7f", "seats": json.loads(seats)}), 422, "invalid_request"),
        ("name C1 control", _j({"name": "a\x9b", "seats": json.loads(seats)}), 422,
         "invalid_request"),
        ("name too long", _j({"name": "x" * 61, "seats": json.loads(seats)}), 422,
         "invalid_request"),
        ("name a megabyte", _j({"name": "x" * 1_000_000, "seats": json.loads(seats)}), 413,
         "invalid_request"),
        ("name nested 10,000 deep", b'{"name": ' + b"[" * 10_000 + b"]" * 10_000 + b"}", 400,
         "invalid_request"),
        ("name nested 900 deep", b'{"seats": ' + seats.encode() + b', "name": '
         + b"[" * 900 + b"]" * 900 + b"}", 422, "invalid_request"),
        ("a raw NUL in a string", b'{"name": "a\x00b", "seats": ' + seats.encode() + b"}",
         422, "invalid_request"),
        ("bytes not UTF-8", b'{"name": "\xff\xfe", "seats": ' + seats.encode() + b"}", 400,
         "invalid_request"),
        ("a byte order mark", b"\xef\xbb\xbf{}", (400, 422), "invalid_request"),
        ("seat name NUL", _j({"seats": [{"kind": "you", "name": "\0"}, {"kind": "friend"}]}),
         422, "invalid_request"),
        ("seat name a surrogate", b'{"seats": [{"kind": "you", "name": "\\ud83d"}, '
         b'{"kind": "friend"}]}', 422, "invalid_request"),
        ("seat name BEL", _j({"seats": [{"kind": "you", "name": "a\x07"}, {"kind": "friend"}]}),
         422, "invalid_request"),
        ("seat bot NUL", _j({"rules": {"players": 2},
                             "seats": [{"kind": "you"}, {"kind": "bot", "bot": "random\0"}]}),
         422, "bad_rules"),
        ("seat bot unknown", _j({"rules": {"players": 2},
                                 "seats": [{"kind": "you"}, {"kind": "bot", "bot": "../x"}]}),
         422, "bad_rules"),
        ("two yous", _j({"rules": {"players": 2}, "seats": [{"kind": "you"}] * 2}), 422,
         "bad_rules"),
        ("an unknown field", b'{"evil": 1, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("an unknown seat field", _j({"seats": [{"kind": "you", "evil": 1},
                                                {"kind": "friend"}]}), 422, "invalid_request"),
        ("turn_timer 1e400", b'{"turn_timer": 1e400, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("turn_timer NaN", b'{"turn_timer": NaN, "seats": ' + seats.encode() + b"}", 422,
         "invalid_request"),
        ("turn_timer negative", _j({"turn_timer": -1, "seats": json.loads(seats)}), 422,
         "invalid_request"),
        ("private an array", _j({"private": [], "seats": json.loads(seats)}), 422,
         "invalid_request"),
    ]
    cases = [Case(f"create: {name}", "POST", new, body, status, code)
             for name, body, status, code in raw]
    cases += [
        Case("create: a form, not JSON", "POST", new, b"seats=you", 422, "invalid_request",
             {"Content-Type": "application/x-www-form-urlencoded"}),
        Case("create: JSON sent as text/plain", "POST", new, seats.encode(), 422,
             "invalid_request", {"Content-Type": "text/plain"}),
        Case("create: a body declared 2 GB", "POST", new, b"{}", 413, "invalid_request",
             {"Content-Length": str(2**31)}),
        Case("create: PUT", "PUT", new, b"{}", 405, "not_found"),
    ]
    return cases


def _http_cases(t: Tables) -> list[Case]:
    """Every HTTP case: bodies, query parameters, ids, game numbers, tokens, pages."""
    four, tid = t.four, t.four["id"]
    fid, pid = t.finished["id"], t.private["id"]
    invite = four["invites"][0]["invite"]
    host = four["host"]
    join, leave = f"/api/tables/{tid}/join", f"/api/tables/{tid}/leave"
    cases = _create_cases()
    # -- taking a seat, leaving, deleting ------------------------------------------------
    for name, body, status, code in [
        ("a wrong invitation", {"invite": "nope"}, 403, "bad_invitation"),
        ("an empty invitation", {"invite": ""}, 403, "bad_invitation"),
        ("an invitation of NUL", {"invite": "\0"}, 403, "bad_invitation"),
        ("an invitation too long", {"invite": "x" * 101}, 422, "invalid_request"),
        ("an invitation a number", {"invite": 123}, 422, "invalid_request"),
        ("a name of NUL", {"invite": invite, "name": "\0"}, 422, "invalid_request"),
        ("a name with a control character", {"invite": invite, "name": "a\x08b"}, 422,
         "invalid_request"),
        ("a name too long", {"invite": invite, "name": "x" * 41}, 422, "invalid_request"),
        ("a name an object", {"invite": invite, "name": {}}, 422, "invalid_request"),
        ("place -1", {"place": -1}, 422, "invalid_request"),
        ("place 5", {"place": 5}, 422, "invalid_request"),
        ("place 10**30", {"place": 10**30}, 422, "invalid_request"),
        ("place a string", {"place": "two"}, 422, "invalid_request"),
        ("place 1.5", {"place": 1.5}, 422, "invalid_request"),
        ("place taken", {"place": 0}, 409, "seat_taken"),
        ("place a bot's", {"place": 3}, 409, "seat_taken"),
        ("nothing", {}, 422, "no_seat_given"),
        ("an unknown field", {"place": 2, "evil": True}, 422, "invalid_request"),
    ]:
        cases.append(Case(f"join: {name}", "POST", join, _j(body), status, code))
    cases.append(Case("join: place NaN", "POST", join, b'{"place": NaN}', 422,
                      "invalid_request"))
    cases.append(Case("join: a name a surrogate", "POST", join,
                      b'{"invite": "' + invite.encode() + b'", "name": "\\udfff"}', 422,
                      "invalid_request"))
    for name, body, status, code in [
        ("a wrong token", {"token": "nope"}, 403, "bad_token"),
        ("an empty token", {"token": ""}, 422, "invalid_request"),
        ("a token of NUL", {"token": "\0"}, 403, "bad_token"),
        ("a token too long", {"token": "x" * 101}, 422, "invalid_request"),
        ("a token null", {"token": None}, 422, "invalid_request"),
        ("a token a list", {"token": ["a"]}, 422, "invalid_request"),
        ("no token", {}, 422, "invalid_request"),
    ]:
        cases.append(Case(f"leave: {name}", "POST", leave, _j(body), status, code))
    cases += [
        Case("leave: a token of 200 KB", "POST", leave, _j({"token": "x" * 200_000}), 413,
             "invalid_request"),
        Case("leave: a body sent in chunks, past the limit", "POST", leave,
             b"", 413, "invalid_request", {"X-Chunked": "100000"}),
        Case("delete: a wrong token", "DELETE", f"/api/tables/{tid}", _j({"token": "nope"}),
             403, "not_creator"),
        Case("delete: a token of NUL", "DELETE", f"/api/tables/{tid}", _j({"token": "\0"}),
             403, "not_creator"),
        Case("delete: no body", "DELETE", f"/api/tables/{tid}", None, 422, "invalid_request"),
    ]
    # -- the host ------------------------------------------------------------------------------
    base = f"/api/tables/{tid}/host"
    for route, body, status, code in [
        ("", {"host": "nope"}, 403, "not_host"),
        ("", {"host": "\0"}, 403, "not_host"),
        ("", {"host": ""}, 422, "invalid_request"),
        ("", {"host": "x" * 101}, 422, "invalid_request"),
        ("/invite", {"host": host, "place": 10**30}, 422, "invalid_request"),
        ("/invite", {"host": host, "place": -1}, 422, "invalid_request"),
        ("/invite", {"host": host}, 422, "no_place"),
        ("/remove", {"host": host, "place": 4}, 422, "no_place"),
        ("/bot", {"host": host, "place": 1, "bot": "random\0"}, 422, "bad_rules"),
        ("/bot", {"host": host, "place": 1, "bot": "x" * 41}, 422, "invalid_request"),
        ("/timer", {"host": host, "turn_timer": 0}, 422, "invalid_request"),
        ("/timer", {"host": host, "turn_timer": "soon"}, 422, "invalid_request"),
        ("/mute", {"host": host, "place": 1, "muted": "maybe"}, 422, "invalid_request"),
        ("/end", {"host": "nope"}, 403, "not_host"),
        ("/start", {"host": host, "evil": 1}, 422, "invalid_request"),
        ("/explode", {"host": host}, 404, "not_found"),
    ]:
        cases.append(Case(f"host{route or ' view'}: {json.dumps(body)[:50]}", "POST",
                          base + route, _j(body), status, code))
    cases.append(Case("host/timer: 1e400", "POST", base + "/timer",
                      b'{"host": "' + host.encode() + b'", "turn_timer": 1e400}', 422,
                      "invalid_request"))
    cases.append(Case("host/start: GET", "GET", base + "/start", None, 405, "not_found"))
    # -- the list's query parameters -------------------------------------------------------
    queries: list[tuple[str, int, str | None]] = [
        ("offset=-1", 422, "bad_page"),
        (f"offset={2**63}", 422, "bad_page"),
        (f"offset={2**63 - 1}", 422, "bad_page"),
        (f"offset={10**30}", 422, "bad_page"),
        (f"offset={10**400}", 422, "bad_page"),
        (f"offset=-{10**400}", 422, "bad_page"),
        ("offset=" + "9" * 5000, 422, "invalid_request"),
        ("offset=abc", 422, "invalid_request"),
        ("offset=", 422, "invalid_request"),
        ("offset=1e3", 422, "invalid_request"),
        ("offset=NaN", 422, "invalid_request"),
        ("offset=%00", 422, "invalid_request"),
        ("offset=1%002", 422, "invalid_request"),
        (f"offset={2**31 - 1}", 200, None),
        ("limit=0", 422, "bad_page"),
        ("limit=-1", 422, "bad_page"),
        (f"limit=-{10**30}", 422, "bad_page"),
        ("limit=51", 422, "page_too_large"),
        (f"limit={10**30}", 422, "page_too_large"),
        (f"limit={10**400}", 422, "page_too_large"),
        ("limit=x", 422, "invalid_request"),
        ("limit=1&offset=1&offset=2", 200, None),
    ]
    cases += [Case(f"list: {query[:40]}", "GET", f"/api/tables?{query}", None, status, code)
              for query, status, code in queries]
    # -- ids -------------------------------------------------------------------------------------
    ids = {"NUL": "a%00b", "only NUL": "%00", "60,000 characters": "x" * BIG,
           "65 characters": "x" * 65, "unicode": "%C3%A9t%C3%A9", "an emoji": "%F0%9F%82%A1",
           "dots": "..", "escaped dots": "%2E%2E", "a space": "a%20b",
           "a surrogate in UTF-8": "%ED%A0%80", "a byte not UTF-8": "%FF",
           "quotes and a tag": "%22%3Cscript%3E", "a control character": "%1B"}
    for what, raw_id in ids.items():
        cases.append(Case(f"id {what}: facts", "GET", f"/api/tables/{raw_id}", None, 404,
                          "no_table"))
    for route, method, body in [("/join", "POST", {"place": 2}),
                                ("/leave", "POST", {"token": "x"}),
                                ("", "DELETE", {"token": "x"}),
                                ("/host", "POST", {"host": "x"}),
                                ("/host/end", "POST", {"host": "x"}),
                                ("/matches/1/record", "GET", None),
                                ("/matches/1/replay", "GET", None),
                                ("/matches/1/review", "GET", None)]:
        for what in ("NUL", "60,000 characters"):
            cases.append(Case(f"id {what}: {method} {route or '/'}", method,
                              f"/api/tables/{ids[what]}{route}",
                              None if body is None else _j(body), 404, "no_table",
                              {"X-Seat-Token": "x"}))
    cases += [
        Case("id with an escaped slash", "GET", "/api/tables/a%2Fb", None, 404, "not_found"),
        Case("id climbing out", "GET", "/api/tables/..%2F..%2Fetc%2Fpasswd", None, 404,
             "not_found"),
        Case("id 64 characters of the alphabet", "GET", "/api/tables/" + "a" * 64, None, 404,
             "no_table"),
    ]
    # -- game numbers --------------------------------------------------------------------------
    for number, status, code in [("0", 422, "invalid_request"), ("-1", 422, "invalid_request"),
                                 (str(2**31), 422, "invalid_request"),
                                 (str(10**30), 422, "invalid_request"),
                                 (str(10**400), 422, "invalid_request"),
                                 ("9" * 5000, 422, "invalid_request"),
                                 ("1e3", 422, "invalid_request"),
                                 ("abc", 422, "invalid_request"),
                                 ("2", 404, "no_game"), (str(2**31 - 1), 404, "no_game")]:
        for kind in ("record", "replay"):
            cases.append(Case(f"game {number[:20]}: {kind}", "GET",
                              f"/api/tables/{fid}/matches/{number}/{kind}", None, status,
                              code))
    cases += [
        Case("game 1 of a table in play", "GET", f"/api/tables/{tid}/matches/1/record", None,
             409, "not_over"),
        Case("game 1 of a private table, a wrong key", "GET",
             f"/api/tables/{pid}/matches/1/record?key=nope", None, 403, "private"),
        Case("game 1 of a private table, a key of NUL", "GET",
             f"/api/tables/{pid}/matches/1/record?key=%00", None, 403, "private"),
        Case("game 1 of a private table, a key of 60,000 characters", "GET",
             f"/api/tables/{pid}/matches/1/record?key={'x' * BIG}", None, 403, "private"),
        Case("review: no token", "GET", f"/api/tables/{fid}/matches/1/review", None, 403,
             "bad_token"),
        Case("review: a wrong token", "GET", f"/api/tables/{fid}/matches/1/review", None, 403,
             "bad_token", {"X-Seat-Token": "nope"}),
        Case("review: a token of 8 KB", "GET", f"/api/tables/{fid}/matches/1/review", None,
             403, "bad_token", {"X-Seat-Token": "x" * 8192}),
        Case("review: game 10**30", "GET", f"/api/tables/{fid}/matches/{10**30}/review", None,
             422, "invalid_request", {"X-Seat-Token": "nope"}),
    ]
    # -- pages and the rest ------------------------------------------------------------------
    cases += [
        Case("page: a table id of NUL", "GET", "/table/a%00b", None, 404, page=True),
        Case("page: a table id of 60,000 characters", "GET", f"/table/{'x' * BIG}", None, 404,
             page=True),
        Case("page: a table id with a slash", "GET", "/table/a%2Fb", None, 404, "not_found"),
        Case("page: history of a NUL id", "GET", "/history/a%00b/1", None, 404, page=True),
        Case("page: history of game 10**30", "GET", f"/history/{fid}/{10**30}", None, 422,
             "invalid_request"),
        Case("page: history of game abc", "GET", f"/history/{fid}/abc", None, 422,
             "invalid_request"),
        Case("rules: a language of NUL", "GET", "/rules/%00", None, 404, "no_rules"),
        Case("rules: a language of 60,000 characters", "GET", f"/rules/{'x' * BIG}", None, 404,
             "no_rules"),
        Case("rules: a variant of NUL", "GET", "/rules/en?variant=%00", None, 200, page=True),
        Case("words: a language of NUL", "GET", "/api/i18n?lang=%00", None, 200),
        Case("no such route", "GET", "/api/nothing", None, 404, "not_found"),
        Case("no such static file", "GET", "/static/..%2F..%2Fapp.py", None, 404),
    ]
    return cases


def _check_http(server: Server, case: Case) -> str | None:
    """Send one case; what is wrong with the answer, or ``None``."""
    body: bytes | Iterator[bytes] | None = case.body
    headers = dict(case.headers)
    if "X-Chunked" in headers:  # a body of that many bytes, with no length said
        size = int(headers.pop("X-Chunked"))
        body = iter([b'{"token": "' + b"x" * size, b'"}'])
    try:
        status, kind, content = _raw(server.port, case.method, case.target, body, headers)
    except (OSError, http.client.HTTPException) as e:
        return f"no answer: {e!r}"
    wanted = case.status if isinstance(case.status, tuple) else (case.status,)
    if status not in wanted or status >= 500:
        return f"status {status}, not {case.status}: {content[:300]!r}"
    if case.page:
        return None if "text/html" in kind else f"a page of {kind!r}"
    if status >= 400 and len(content) > ECHO:
        return f"a refusal of {len(content)} bytes: {content[:200]!r}"
    try:
        answer = json.loads(content)
    except ValueError:
        return f"not JSON ({kind}): {content[:200]!r}"
    if status < 400:
        return None
    if not isinstance(answer, dict) or not isinstance(answer.get("code"), str):
        return f"no code: {content[:300]!r}"
    if "detail" not in answer:
        return f"no detail: {content[:300]!r}"
    if case.code is not None and answer["code"] != case.code:
        return f"code {answer['code']!r}, not {case.code!r}: {content[:300]!r}"
    return None


# -- the WebSocket cases ------------------------------------------------------------------------
@dataclass
class Frame:
    """A frame sent on a seat's socket and the reply expected: an error's ``code`` (any of
    several), or a message ``type`` (``None``: none but the ping's pong)."""

    name: str
    data: str | bytes
    code: str | tuple[str, ...] | None = "malformed"
    reply: str | None = None


def _frames() -> list[Frame]:
    act = '{{"type": "act", "action": {}}}'.format
    return [
        Frame("binary", b"\x00\x01\x02"),
        Frame("binary JSON", b'{"type": "ping"}'),
        Frame("not JSON", "hello"),
        Frame("empty", ""),
        Frame("an array", "[]"),
        Frame("null", "null"),
        Frame("true", "true"),
        Frame("a number 1e400", "1e400"),
        Frame("a lone surrogate string", '"\\ud800"'),
        Frame("a type a number", '{"type": 1}'),
        Frame("an unknown type", '{"type": "explode"}'),
        Frame("no type", '{"action": "pass"}'),
        Frame("an unknown field", '{"type": "ping", "evil": 1}'),
        Frame("act without action", '{"type": "act"}'),
        Frame("act, action a number", act("5")),
        Frame("act, action a list", act('["play", "JH"]')),
        Frame("act, action null", act("null")),
        Frame("act, action empty", act('""')),
        Frame("act, action too long", act(json.dumps("x" * 41))),
        Frame("act, action a surrogate", act('"\\ud800"')),
        Frame("act, action with NUL", act('"play JH\\u0000"'),
              ("invalid_action", "illegal", "not_your_turn")),
        Frame("act, action nonsense", act('"fly to the moon"'), "invalid_action"),
        Frame("act, action of NUL", act('"\\u0000"'), ("invalid_action", "malformed")),
        Frame("act, seq -1", '{"type": "act", "action": "pass", "seq": -1}'),
        Frame("act, seq 1e400", '{"type": "act", "action": "pass", "seq": 1e400}'),
        Frame("act, seq NaN", '{"type": "act", "action": "pass", "seq": NaN}'),
        Frame("act, seq a list", '{"type": "act", "action": "pass", "seq": []}'),
        Frame("act, seq 10**30 (stale)", act('"play XX"')[:-1] + f', "seq": {10**30}}}',
              ("stale", "invalid_action")),
        Frame("act, seq 2**64 (stale)", '{"type": "act", "action": "pass", "seq": '
              f"{2**64}}}", ("stale", "illegal", "not_your_turn")),
        Frame("nested 2,000 deep", "[" * 2000 + "]" * 2000),
        Frame("nested in a field", '{"type": "act", "action": ' + "[" * 1000 + "]" * 1000
              + "}"),
        Frame("past the message size", json.dumps({"type": "chat", "text": "x" * 5000})),
        Frame("a raw NUL in a string", '{"type": "chat", "text": "a\x00b"}'),
        Frame("a raw line break in a string", '{"type": "chat", "text": "a\nb"}'),
        Frame("chat empty", '{"type": "chat", "text": ""}'),
        Frame("chat too long", json.dumps({"type": "chat", "text": "x" * 201})),
        Frame("chat a number", '{"type": "chat", "text": 5}'),
        Frame("chat an unknown preset", '{"type": "chat", "preset": "insult"}'),
        Frame("chat a preset of NUL", '{"type": "chat", "preset": "\\u0000"}'),
        Frame("chat of NUL only (nothing left to say)", '{"type": "chat", "text": "\\u0000"}'),
        Frame("chat with NUL and controls (kept printable)",
              '{"type": "chat", "text": "hi\\u0000\\u001b[31m there"}', None, "chat"),
        Frame("duplicate keys", '{"type": "ping", "type": "explode"}'),
        Frame("rematch while in play", '{"type": "rematch"}', ("not_over", "game_over")),
        Frame("continue (harmless)", '{"type": "continue"}', None),
        Frame("sync (harmless)", '{"type": "sync"}', None, "state"),
    ]


def _check_frame(ws: ClientConnection, frame: Frame) -> str | None:
    """Send one frame then a ping; what is wrong with the replies up to the pong."""
    ws.send(frame.data)
    ws.send('{"type": "ping"}')
    seen: list[dict[str, Any]] = []
    while True:
        m = recv(ws)
        if m["type"] == "pong":
            break
        if m["type"] != "state" or frame.reply == "state":
            seen.append(m)
    errors = [m for m in seen if m["type"] == "error"]
    if frame.code is None:
        if errors:
            return f"refused: {errors}"
        if frame.reply is not None and not any(m["type"] == frame.reply for m in seen):
            return f"no {frame.reply!r} among {seen}"
        return None
    wanted = frame.code if isinstance(frame.code, tuple) else (frame.code,)
    if len(errors) != 1 or errors[0]["code"] not in wanted:
        return f"replies {seen}, not one error of {wanted}"
    error = errors[0]
    if not isinstance(error.get("message"), str) or not isinstance(error.get("params"), dict):
        return f"an error without its message or params: {error}"
    return None


@dataclass
class Connect:
    """A socket opened on ``path``: refused with an error ``code`` and a close code
    (or, ``status``, at the handshake), or opened (``code`` ``None``: a hello)."""

    name: str
    path: str
    code: str | None
    close: int | None = None
    status: int | None = None


def _connects(t: Tables) -> list[Connect]:
    tid, pid = t.four["id"], t.private["id"]
    return [
        Connect("an id of NUL", "/ws/a%00b", "no_table", 4404),
        Connect("an id only NUL", "/ws/%00", "no_table", 4404),
        Connect("an id of 6,000 characters", f"/ws/{'x' * 6000}", "no_table", 4404),
        Connect("an id of 60,000 characters (past the request line's 8 KiB)",
                f"/ws/{'x' * BIG}", None, status=414),
        Connect("a token of 60,000 characters", f"/ws/{tid}?token={'x' * BIG}", None,
                status=414),
        Connect("a unicode id", "/ws/%C3%A9t%C3%A9", "no_table", 4404),
        Connect("escaped dots", "/ws/%2E%2E", "no_table", 4404),
        Connect("a surrogate in UTF-8", "/ws/%ED%A0%80", "no_table", 4404),
        Connect("an escaped slash", "/ws/a%2Fb", None, status=403),
        Connect("a wrong token", f"/ws/{tid}?token=nope", "bad_token", 4403),
        Connect("a token of NUL", f"/ws/{tid}?token=%00", "bad_token", 4403),
        Connect("a token of 6,000 characters", f"/ws/{tid}?token={'x' * 6000}", "bad_token",
                4403),
        Connect("a token not UTF-8", f"/ws/{tid}?token=%FF%FE", "bad_token", 4403),
        Connect("an empty token (a spectator)", f"/ws/{tid}?token=", None),
        Connect("a private table, no key", f"/ws/{pid}", "private", 4403),
        Connect("a private table, a watch key of NUL", f"/ws/{pid}?watch=%00", "private",
                4403),
        Connect("a language of NUL", f"/ws/{tid}?lang=%00&summary=%00", None),
    ]


def _check_connect(server: Server, case: Connect) -> str | None:
    try:
        with connect(server.ws_base + case.path, open_timeout=10) as ws:
            first: dict[str, Any] = json.loads(ws.recv(timeout=10))
            if case.code is None:
                return None if first["type"] == "hello" else f"not a hello: {first}"
            if first.get("code") != case.code:
                return f"{first}, not {case.code!r}"
            if len(json.dumps(first)) > ECHO:
                return f"an error of {len(json.dumps(first))} characters"
            try:
                ws.recv(timeout=10)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                return None if code == case.close else f"closed with {code}, not {case.close}"
            return "not closed"
    except (TimeoutError, OSError, InvalidHandshake) as e:
        if not isinstance(e, InvalidStatus):
            return f"no answer: {e!r}"
        status = e.response.status_code
        if case.status is None or status >= 500:
            return f"handshake refused with {status}"
        return None if status == case.status else f"handshake {status}, not {case.status}"


def _oversized_frame(server: Server, t: Tables) -> str | None:
    """A frame past the server's frame limit (64 KiB) closes the socket with 1009."""
    playing = t.playing
    with server.ws(playing["id"], playing["token"]) as ws:
        ws.send(json.dumps({"type": "chat", "text": "x" * 70_000}))
        try:
            while True:
                ws.recv(timeout=10)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            return None if code == 1009 else f"closed with {code}, not 1009"


# -- the test --------------------------------------------------------------------------------------
def test_the_hostile_input_table_gets_no_500_and_changes_nothing(
        logged_server: tuple[Server, Path]) -> None:
    server, log = logged_server
    tables = _make_tables(server)
    before = _snapshot(server, tables)
    http_cases = _http_cases(tables)
    frames = _frames()
    connects = _connects(tables)
    failures = []
    for case in http_cases:
        wrong = _check_http(server, case)
        if wrong is not None:
            failures.append(f"{case.name}: {wrong}")
    playing = tables.playing
    with server.ws(playing["id"], playing["token"]) as ws:
        for frame in frames:
            wrong = _check_frame(ws, frame)
            if wrong is not None:
                failures.append(f"frame {frame.name}: {wrong}")
    for connect_case in connects:
        wrong = _check_connect(server, connect_case)
        if wrong is not None:
            failures.append(f"socket {connect_case.name}: {wrong}")
    wrong = _oversized_frame(server, tables)
    if wrong is not None:
        failures.append(f"frame past 64 KiB: {wrong}")
    total = len(http_cases) + len(frames) + len(connects) + 1
    assert not failures, f"{len(failures)} of {total} cases:\n" + "\n".join(failures)
    assert total >= 200
    assert _snapshot(server, tables) == before  # the refusals changed nothing
    # a normal game, to its end
    game = server.create({"players": 2, "target": 1}, [{"kind": "you"},
                                                        {"kind": "bot", "bot": "random"}])
    assert play_out(server, game["id"], game["token"])["over"]
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-5000:]
    assert "Exception in ASGI" not in text and " 500 " not in text, text[-5000:]
    assert "ERROR" not in text, text[-5000:]


# -- storage that fails -------------------------------------------------------------------------
_FULL = "database or disk is full"


def _fill_sqlite(storage: SQLiteStorage, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every write of ``storage`` fails in its worker as SQLite's own does
    on a full disk (reads still work)."""
    run = storage._run

    def failing(fn: Callable[[sqlite3.Connection], Any]) -> Any:
        if fn.__name__ != "write":
            return run(fn)

        def full(conn: sqlite3.Connection) -> Any:
            raise sqlite3.OperationalError(_FULL)

        return run(full)

    monkeypatch.setattr(storage, "_run", failing)


def _postgres(url: str) -> psycopg.Connection[tuple[Any, ...]]:
    """A connection to the PostgreSQL database ``url`` that commits each statement.
    psycopg is imported here, not with the module, so that the SQLite tests are collected
    without the 'postgres' extra (the PostgreSQL ones skip in ``pg_cluster``)."""
    import psycopg

    return psycopg.connect(url, autocommit=True)


def _fill_postgres(url: str) -> None:
    """From now on every write to the tables fails as PostgreSQL's own does on a full
    disk (SQLSTATE 53100, raised by a trigger); reads still work."""
    with _postgres(url) as conn:
        conn.execute("CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ "
                     "BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' "
                     "USING ERRCODE = 'disk_full'; END $$")
        for name in ("tables", "places", "matches", "actions"):
            conn.execute(f"CREATE TRIGGER full_{name} BEFORE INSERT OR UPDATE OR DELETE "
                         f"ON {name} FOR EACH STATEMENT EXECUTE FUNCTION disk_full()")


def _empty_postgres(url: str) -> None:
    with _postgres(url) as conn:
        conn.execute("DROP FUNCTION IF EXISTS disk_full() CASCADE")


@contextlib.contextmanager
def _records(*names: str) -> Iterator[list[logging.LogRecord]]:
    """Every log record of the loggers ``names`` (the server's and uvicorn's, which
    does not pass its records on to the root logger) while the block runs."""
    got: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            got.append(record)

    handler = Keep(logging.DEBUG)
    loggers = [logging.getLogger(n) for n in names]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield got
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


def test_a_failing_storage_is_a_503_on_every_route_that_writes(
        backend: str, database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    db = database("full")
    storage: Storage | None = None
    if backend == "sqlite":
        storage = SQLiteStorage(db, "NORMAL")
    try:
        with running_server(db, storage=storage) as server:
            bot = {"kind": "bot", "bot": "random"}
            answer = server.create({"players": 4}, [{"kind": "you"}, {"kind": "friend"},
                                                    {"kind": "open"}, bot])
            tid, key, token = answer["id"], answer["host"], answer["token"]
            invite = answer["invites"][0]["invite"]
            facts = server.http.get(f"/api/tables/{tid}").json()
            if isinstance(storage, SQLiteStorage):
                _fill_sqlite(storage, monkeypatch)
            else:
                _fill_postgres(str(db))
            host = f"/api/tables/{tid}/host"
            writes: list[tuple[str, str, dict[str, Any]]] = [
                ("POST", "/api/tables", {"rules": {"players": 2},
                                         "seats": [{"kind": "you"}, bot]}),
                ("POST", f"/api/tables/{tid}/join", {"invite": invite, "name": "Bo"}),
                ("POST", f"/api/tables/{tid}/join", {"place": 2, "name": "Cy"}),
                ("POST", f"/api/tables/{tid}/leave", {"token": token}),
                ("POST", f"{host}/invite", {"host": key, "place": 1}),
                ("POST", f"{host}/remove", {"host": key, "place": 1}),
                ("POST", f"{host}/bot", {"host": key, "place": 2, "bot": "random"}),
                ("POST", f"{host}/start", {"host": key}),
                ("POST", f"{host}/timer", {"host": key, "turn_timer": 30}),
                ("POST", f"{host}/mute", {"host": key, "place": 1}),
                ("POST", f"{host}/end", {"host": key}),
                ("DELETE", f"/api/tables/{tid}", {"token": key}),
            ]
            with _records("euchre", "uvicorn") as records:
                for method, path, body in writes:
                    r = server.http.request(method, path, json=body)
                    assert r.status_code == 503, (path, r.text)
                    assert r.json()["code"] == "storage"
                    assert r.json()["params"] == {}
            assert server.http.get(f"/api/tables/{tid}").json() == facts  # nothing done
            lines = [r for r in records if r.levelno >= logging.WARNING]
            assert len(lines) == len(writes), [r.getMessage() for r in lines]
            for record, (method, path, _) in zip(lines, writes, strict=True):
                message = record.getMessage()
                assert record.exc_info is None and "\n" not in message
                assert message.startswith(f"{method} {path}: ")
                assert _FULL in message or "No space left on device" in message
    finally:
        if backend == "postgresql":
            _empty_postgres(str(db))


def test_a_database_of_a_foreign_schema_is_a_503_not_a_500(
        backend: str, database: Database) -> None:
    db = database("foreign")
    if backend == "sqlite":  # another program's "tables", there before the server: it
        # does not start (one line, test_server_startup.py), and the file is left alone
        with contextlib.closing(sqlite3.connect(db)) as conn:
            conn.execute("CREATE TABLE tables (id INTEGER PRIMARY KEY, title TEXT)")
            conn.commit()
        before = Path(db).read_bytes()
        with pytest.raises(StorageError, match="tables"):
            SQLiteStorage(db, "NORMAL")
        assert Path(db).read_bytes() == before
        return
    with running_server(db) as server, _records("euchre", "uvicorn") as records:
        if backend == "postgresql":  # the schema changed under the running server
            with _postgres(str(db)) as conn:
                conn.execute("ALTER TABLE tables RENAME COLUMN name TO title")
        try:
            r = server.http.post("/api/tables", json={"rules": {"players": 2}, "seats": [
                {"kind": "you"}, {"kind": "bot", "bot": "random"}]})
            assert r.status_code == 503, r.text
            assert r.json()["code"] == "storage"
            r = server.http.get("/api/tables/abcdefgh")
            assert r.status_code == 503, r.text
        finally:  # the database goes back to the next test as it was
            if backend == "postgresql":
                with _postgres(str(db)) as conn:
                    conn.execute("ALTER TABLE tables RENAME COLUMN title TO name")
    lines = [r.getMessage() for r in records if r.levelno >= logging.WARNING]
    assert len(lines) == 2, lines
    assert all("title" in line or "name" in line for line in lines), lines
    assert all(r.exc_info is None for r in records)


def test_a_lost_database_connection_is_a_503_and_the_next_request_is_served(
        pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    with running_server(url) as server, _records("euchre", "uvicorn") as records:
        assert server.http.get("/api/tables/abcdefgh").status_code == 404  # connected
        with _postgres(url) as conn:  # every session but this one
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        r = server.http.get("/api/tables/abcdefgh")
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "storage"
        deadline = time.monotonic() + 10
        while server.http.get("/api/tables/abcdefgh").status_code != 404:
            assert time.monotonic() < deadline, "the pool did not reconnect"
            time.sleep(0.1)
    assert all(r.exc_info is None for r in records), [r.getMessage() for r in records]
