"""What one client may ask is bounded, and each limit answers with its own error code.

Rates per client address (tables created, seats taken, hints) and per connection
(messages), a bounded outbox per connection, a cap on tables in memory, and pages of
``GET /api/tables`` (euchre/server/limits.py, docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import typer
from serverkit import Database, Server, latest_state, recv, running_server
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from euchre.cli import app as cli_app
from euchre.server import outbox
from euchre.server import table as table_module
from euchre.server.app import _FLOODING, FLOODING, _message_budget
from euchre.server.limits import LimitError, Limits, Rate, RateLimiter, TokenBucket
from euchre.server.sockets import CLOSE_AT_ONCE

PEOPLE = [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}]
BOTS_ONLY = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


@contextlib.contextmanager
def limited(database: Database, **limits: Any) -> Iterator[Server]:
    """A server with these limits (the others at their defaults)."""
    with running_server(database("euchre"), limits=Limits(**limits)) as srv:
        yield srv


def _errors(ws: Any, until: str = "pong") -> list[dict[str, Any]]:
    """The error messages received until a message of type ``until``."""
    errors = []
    while (m := recv(ws))["type"] != until:
        if m["type"] == "error":
            errors.append(m)
    return errors


# -- the rates ------------------------------------------------------------------------------
def test_a_rate_is_count_per_seconds_or_off() -> None:
    assert Rate.parse("30/60") == Rate(30, 60.0)
    assert Rate.parse(" OFF ") is None
    for bad in ("30", "0/60", "30/0", "x/60", "30/-1", "30/inf"):
        with pytest.raises(ValueError, match="a rate is"):
            Rate.parse(bad)
    assert str(Rate(600, 3600)) == "600/3600"


def test_a_token_bucket_allows_a_burst_then_one_per_interval() -> None:
    bucket = TokenBucket(Rate(3, 30), now=0.0)
    assert [bucket.take(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(0.0) == pytest.approx(10.0)  # one token every 10 s
    assert bucket.take(9.0) == pytest.approx(1.0)
    assert bucket.take(10.0) == 0.0
    assert not bucket.is_full(10.0) and bucket.is_full(40.0)


def test_a_rate_limiter_counts_each_client_apart_and_forgets_idle_ones() -> None:
    now = [0.0]
    limiter = RateLimiter(Rate(2, 60), "tables created", clock=lambda: now[0])
    limiter.check("a")
    limiter.check("a")
    limiter.check("b")
    with pytest.raises(LimitError) as refused:
        limiter.check("a")
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    assert "at most 2 per minute" in str(refused.value)
    assert refused.value.retry_after == pytest.approx(30.0)
    now[0] = 30.0
    limiter.check("a")  # one token back after 30 s
    # many clients: the ones whose budget is whole again are forgotten
    now[0] = 1000.0
    for i in range(3 * RateLimiter.PRUNE_AT):
        limiter.check(f"c{i}")
        now[0] += 60.0
    assert len(limiter._buckets) <= RateLimiter.PRUNE_AT
    unlimited = RateLimiter(None, "x")
    for _ in range(10_000):
        unlimited.check("a")  # no limit: never refused


def test_the_cli_defaults_are_the_limits_defaults() -> None:
    serve = typer.main.get_command(cli_app).commands["serve"]  # type: ignore[attr-defined]
    defaults = {p.name: p.default for p in serve.params}
    limits = Limits()
    assert defaults["rate_tables"] == str(limits.tables)
    assert defaults["rate_joins"] == str(limits.joins)
    assert defaults["rate_hints"] == str(limits.hints)
    assert defaults["rate_messages"] == str(limits.messages)
    assert defaults["outbox_kib"] * 1024 == limits.outbox
    assert defaults["max_tables"] == limits.max_tables
    assert defaults["page_size"] == limits.page


def test_a_bad_limit_option_exits_with_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--db", str(tmp_path / "x.sqlite3"),
                                          "--rate-hints", "lots"])
    assert result.exit_code == 2
    assert "a rate is COUNT/SECONDS (such as 30/60) or 'off', not 'lots'" in result.output


def test_creating_tables_over_the_rate_is_refused_with_rate_limited(database: Database) -> None:
    with limited(database, tables=Rate(3, 3600)) as server:
        for _ in range(3):
            server.create({"players": 2}, BOTS_ONLY)
        r = server.http.post("/api/tables", json={"rules": {"players": 2}, "seats": BOTS_ONLY})
        assert r.status_code == 429
        assert r.json()["code"] == "rate_limited"
        assert "too many tables created: at most 3 per hour" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) >= 1
        listed = server.http.get("/api/tables").json()
        assert listed["open_total"] + len(listed["finished"]) == 3  # nothing made


def test_taking_seats_over_the_rate_is_refused_with_rate_limited(database: Database) -> None:
    with limited(database, joins=Rate(2, 3600)) as server:
        answer = server.create({"players": 4}, [{"kind": "you"}, {"kind": "open"},
                                                 {"kind": "open"}, {"kind": "open"}])
        tid = answer["id"]
        for place in (1, 2):
            r = server.http.post(f"/api/tables/{tid}/join", json={"place": place})
            assert r.status_code == 200, r.text
        r = server.http.post(f"/api/tables/{tid}/join", json={"place": 3})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        seats = server.http.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["open"] for s in seats if s["place"] == 3] == [True]  # not taken


def test_asking_hints_over_the_rate_is_refused_with_rate_limited(database: Database) -> None:
    with limited(database, hints=Rate(2, 3600)) as server:
        answer = server.create({"players": 2}, PEOPLE)
        with server.ws(answer["id"], answer["token"]) as ws:
            latest_state(ws)
            for _ in range(3):
                ws.send(json.dumps({"type": "hint"}))
            ws.send(json.dumps({"type": "ping"}))
            answers = []
            while (m := recv(ws))["type"] != "pong":
                if m["type"] != "state":
                    answers.append(m)
        # the first two are answered (a hint, or why not); the third is over the rate
        assert len(answers) == 3
        assert all(a.get("code") != "rate_limited" for a in answers[:2])
        assert answers[2]["code"] == "rate_limited" and "too many hints" in answers[2]["message"]
        assert answers[2]["retry_ms"] > 0


def test_socket_messages_over_the_rate_are_dropped(database: Database) -> None:
    with limited(database, messages=Rate(5, 3600)) as server:
        answer = server.create({"players": 2}, PEOPLE)
        with server.ws(answer["id"], answer["token"]) as ws:
            for _ in range(7):
                ws.send(json.dumps({"type": "ping"}))
            seen: list[dict[str, Any]] = []
            while len(seen) < 6:
                m = recv(ws)
                if m["type"] in ("pong", "error"):
                    seen.append(m)
        assert [m["type"] for m in seen] == ["pong"] * 5 + ["error"]
        assert seen[-1]["code"] == "rate_limited" and seen[-1]["retry_ms"] > 0
        assert "too many messages: at most 5 per 3600 seconds" in seen[-1]["message"]


def test_a_client_over_the_message_rate_is_told_once_a_second_at_most() -> None:
    now = [0.0]
    over = _message_budget(Limits(messages=Rate(5, 10)), clock=lambda: now[0])
    answers = [over() for _ in range(12)]
    assert answers[:5] == [None] * 5
    assert answers[5] is not None and answers[5]["code"] == "rate_limited"
    assert answers[6:] == [{}] * 6  # dropped without a word
    now[0] = 1.5  # a token is back after 2 s; told again after 1 s
    told = over()
    assert told is not None and told.get("code") == "rate_limited"
    now[0] = 2.0
    assert over() is None
    assert _message_budget(Limits(messages=None))() is None


def test_a_client_that_does_not_read_is_disconnected_as_a_slow_reader(database: Database) -> None:
    with limited(database, messages=None, outbox=16 * 1024) as server:
        answer = server.create({"players": 2}, PEOPLE)
        url = f"{server.ws_base}/ws/{answer['id']}?token={answer['token']}"
        with connect(url, max_size=2**22) as ws:
            ws.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            with pytest.raises(ConnectionClosed):  # the server may close while we send
                for _ in range(3000):
                    ws.send('{"type": "sync"}')
                while True:  # then read what got through
                    ws.recv(timeout=10)
        assert ws.protocol.close_rcvd is not None
        assert ws.protocol.close_rcvd.code == outbox.SLOW_READER == 4408
        assert ws.protocol.close_rcvd.reason == "slow_reader"
        # the player comes back and finds the table as it was
        with server.ws(answer["id"], answer["token"]) as again:
            assert latest_state(again)["seq"] == 0


# -- tables in memory -----------------------------------------------------------------------
def _wait_over(server: Server, tid: str) -> None:
    deadline = time.monotonic() + 60
    while not server.http.get(f"/api/tables/{tid}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)


def test_tables_in_play_over_the_cap_are_refused_with_server_full(database: Database) -> None:
    with limited(database, max_tables=2) as server:
        first = server.create({"players": 2}, PEOPLE)
        second = server.create({"players": 2}, PEOPLE)
        with server.ws(first["id"], first["token"]) as one, \
                server.ws(second["id"], second["token"]) as two:
            latest_state(one), latest_state(two)  # a person at each: both in play
            r = server.http.post("/api/tables",
                                 json={"rules": {"players": 2}, "seats": PEOPLE})
            assert r.status_code == 503 and r.json()["code"] == "server_full"
            assert "limit of 2 tables" in r.json()["detail"]
        with server.ws(first["id"], first["token"]) as ws:  # those held still play
            assert latest_state(ws)["seq"] == 0


def test_tables_nobody_came_to_do_not_fill_the_cap(database: Database) -> None:
    """The probe's flood: tables made and never opened.  They do not count against the
    tables in play, so the cap still lets a person make one; at most the cap's number of
    them is held, the oldest abandoned for a new one."""
    with limited(database, max_tables=2) as server:
        flood = [server.create({"players": 2}, PEOPLE)["id"] for _ in range(4)]
        mine = server.create({"players": 2}, PEOPLE)
        with server.ws(mine["id"], mine["token"]) as ws:
            assert latest_state(ws)["seq"] == 0
        gone = [tid for tid in flood if server.http.get(f"/api/tables/{tid}").status_code == 404]
        assert gone == flood[:3]  # each new table beyond the cap closed the oldest unvisited


def test_tables_asked_for_at_once_cannot_pass_the_per_address_bound(
        database: Database) -> None:
    """The bound counts a table from the step that checks it, not once it is stored:
    twelve asked for together make three, and the nine others are told why."""
    with limited(database, per_address=3) as server:
        async def flood() -> list[tuple[int, str | None]]:
            async with httpx2.AsyncClient(base_url=server.base, timeout=30) as client:
                answers = await asyncio.gather(*(
                    client.post("/api/tables", json={"rules": {"players": 2}, "seats": PEOPLE,
                                                    "private": False})
                    for _ in range(12)))
            return [(r.status_code, r.json().get("code")) for r in answers]
        seen = Counter(asyncio.run(flood()))
        assert seen == {(201, None): 3, (429, "too_many_tables"): 9}
        assert server.http.get("/api/tables").json()["open_total"] == 3


def test_unfinished_tables_per_address_are_bounded(database: Database) -> None:
    with limited(database, per_address=2) as server:
        first = server.create({"players": 2}, PEOPLE)
        server.create({"players": 2}, PEOPLE)
        r = server.http.post("/api/tables", json={"rules": {"players": 2}, "seats": PEOPLE})
        assert r.status_code == 429 and r.json()["code"] == "too_many_tables"
        assert r.json()["params"] == {"max": 2}
        assert "2 unfinished tables already" in r.json()["detail"]
        assert server.http.get("/api/tables").json()["open_total"] == 2  # no third made
        # leaving a table (the last person closes it) gives the address room again
        left = server.http.post(f"/api/tables/{first['id']}/leave",
                                json={"token": first["token"]})
        assert left.status_code == 200 and left.json()["closed"] is True
        server.create({"players": 2}, PEOPLE)


def test_the_sockets_closed_at_once_are_those_of_floods_and_slow_readers() -> None:
    assert {outbox.SLOW_READER, FLOODING} == CLOSE_AT_ONCE


def test_websockets_per_address_are_bounded(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="uvicorn.error")
    with limited(database, sockets=2) as server:
        answer = server.create({"players": 2}, PEOPLE)
        with server.ws(answer["id"]) as one, server.ws(answer["id"]) as two:
            latest_state(one), latest_state(two)
            with pytest.raises(InvalidStatus) as refused:
                server.ws(answer["id"])
            response = refused.value.response
            assert response.status_code == 429
            assert json.loads(response.body or b"{}")["code"] == "too_many_sockets"
        # closed sockets give their room back
        with server.ws(answer["id"], answer["token"]) as again:
            assert latest_state(again)["seq"] == 0
    # a refusal is not an error of the server's: it writes no line of its own for it
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_client_that_keeps_flooding_is_disconnected(database: Database) -> None:
    with limited(database, messages=Rate(5, 3600)) as server:
        answer = server.create({"players": 2}, PEOPLE)
        with server.ws(answer["id"], answer["token"]) as ws, \
                pytest.raises(ConnectionClosed):
            for _ in range(200):  # 5 within the rate, 10 dropped, then closed
                ws.send(json.dumps({"type": "ping"}))
            while True:
                recv(ws)
        assert ws.protocol.close_rcvd is not None
        assert ws.protocol.close_rcvd.code == 4429 and ws.protocol.close_rcvd.reason == "flooding"
        # the address may not come back at once: a flood that reconnects is refused
        with pytest.raises(InvalidStatus) as refused:
            server.ws(answer["id"], answer["token"])
        assert refused.value.response.status_code == 429
        assert json.loads(refused.value.response.body or b"{}")["code"] == "flooding"
        # nothing else changed
        assert server.http.get(f"/api/tables/{answer['id']}").json()["deal"] == 1


def test_the_message_budget_closes_a_client_a_tenth_of_its_rate_over_it() -> None:
    now = [0.0]
    over = _message_budget(Limits(messages=Rate(100, 10)), clock=lambda: now[0])
    answers = [over() for _ in range(100 + 10)]
    assert answers[:100] == [None] * 100
    assert all(a is not None and a is not _FLOODING for a in answers[100:])  # dropped
    assert over() is _FLOODING


def test_finished_tables_nobody_watches_make_room(
        database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    with limited(database, max_tables=2) as server:
        monkeypatch.setattr(table_module, "EVICT_AFTER", 0.0)
        done = [server.create({"players": 2, "target": 1}, BOTS_ONLY)["id"] for _ in range(2)]
        for tid in done:
            _wait_over(server, tid)
        third = server.create({"players": 2}, PEOPLE)  # one finished table makes room
        # a table dropped from memory is read from storage again when asked for
        for tid in done:
            assert server.http.get(f"/api/tables/{tid}").json()["over"] is True
            assert server.http.get(f"/api/tables/{tid}/matches/1/record").status_code == 200
        with server.ws(third["id"], third["token"]) as ws:
            assert latest_state(ws)["seq"] == 0


def test_a_table_that_finds_no_room_is_refused_with_server_full(database: Database) -> None:
    with limited(database) as server:
        older = server.create({"players": 2}, PEOPLE)
        time.sleep(0.01)  # started later, so resumed first
        newer = server.create({"players": 2}, PEOPLE)
    # restarted with room for one: the most recent is resumed, the other stays stored
    with limited(database, max_tables=1) as server:
        listed = server.http.get("/api/tables").json()
        assert [t["id"] for t in listed["open"]] == [newer["id"]]
        with server.ws(newer["id"], newer["token"]) as player:  # in play: it counts
            latest_state(player)
            r = server.http.get(f"/api/tables/{older['id']}")
            assert r.status_code == 503 and r.json()["code"] == "server_full"
            with server.ws(older["id"], older["token"]) as ws:
                error = recv(ws)
                assert error["code"] == "server_full" and "limit of 1 tables" in error["message"]
                with pytest.raises(ConnectionClosed):
                    recv(ws)
            assert ws.protocol.close_rcvd is not None
            assert ws.protocol.close_rcvd.code == 4503


# -- pages of the lobby ---------------------------------------------------------------------
def test_the_lobby_list_comes_in_pages(database: Database) -> None:
    with limited(database, page=3) as server:
        made = {server.create({"players": 2}, PEOPLE)["id"] for _ in range(7)}
        seen: list[str] = []
        offsets = []
        offset: int | None = 0
        while offset is not None:
            page = server.http.get("/api/tables", params={"offset": offset}).json()
            assert page["open_total"] == 7 and page["limit"] == 3 and len(page["open"]) <= 3
            offsets.append(offset)
            seen += [t["id"] for t in page["open"]]
            offset = page["next"]
        assert offsets == [0, 3, 6]
        assert len(seen) == 7 and set(seen) == made  # newest first, each once
        two = server.http.get("/api/tables", params={"limit": 2, "offset": 6}).json()
        assert len(two["open"]) == 1 and two["next"] is None


def test_a_page_over_the_limit_is_refused_with_page_too_large(database: Database) -> None:
    with limited(database, page=3) as server:
        r = server.http.get("/api/tables", params={"limit": 4})
        assert r.status_code == 422 and r.json()["code"] == "page_too_large"
        assert r.json()["detail"] == "a page holds at most 3 tables, not 4"
        assert server.http.get("/api/tables", params={"offset": -1}).status_code == 422


def test_finished_games_come_in_pages_too(database: Database) -> None:
    with limited(database, page=2) as server:
        done = [server.create({"players": 2, "target": 1}, BOTS_ONLY)["id"] for _ in range(3)]
        for tid in done:
            _wait_over(server, tid)
        first = server.http.get("/api/tables").json()
        second = server.http.get("/api/tables", params={"offset": first["next"]}).json()
        assert len(first["finished"]) == 2 and first["next"] == 2
        assert len(second["finished"]) == 1 and second["next"] is None
        assert {f["id"] for f in first["finished"] + second["finished"]} == set(done)
