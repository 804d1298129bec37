"""A club night followed live (issue 32, item 4; docs/server.md "A club night"): the
night's WebSocket (``/ws/night/ID``) sends the night as its key's holder sees it at once,
then again after every change (a report, a confirmation, a round ended, the game of an
online table over), so the standings on a projector and the players' phones change
without reading the night again.  Its refusals: no such night, a page of another site, a
page that sends."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from serverkit import Database, Server, running_server
from test_server_night import NAMES, end, key, make_night, seat_numbers, start, table_url
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from euchre.server.limits import Limits


def night_socket(server: Server, night_id: str, k: str | None = None,
                 **options: Any) -> ClientConnection:
    url = f"{server.ws_base}/ws/night/{night_id}" + (f"?key={k}" if k else "")
    ws: ClientConnection = connect(url, open_timeout=10, max_size=2**22, **options)
    return ws


def until(ws: ClientConnection, wanted: Any, timeout: float = 30) -> dict[str, Any]:
    """The first night the socket sends for which ``wanted(night)`` holds (states in
    between may be skipped: a page needs only the latest)."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert message["type"] == "night"
        night: dict[str, Any] = message["night"]
        if wanted(night):
            return night


def test_the_nights_socket_sends_the_night_then_each_change_as_its_holder_sees_it(
        server: Server) -> None:
    night = make_night(server, NAMES[:8])
    tokens = night["tokens"]
    with night_socket(server, night["id"]) as projector, \
            night_socket(server, night["id"], tokens["1"]) as phone, \
            night_socket(server, night["id"], night["host_key"]) as organiser:
        first = until(projector, lambda n: True)
        assert first["role"] is None and "tokens" not in first and first["rounds"] == []
        assert until(phone, lambda n: True)["you"]["number"] == 1
        assert until(organiser, lambda n: True)["tokens"] == tokens
        rnd = start(server, night)
        seated = until(phone, lambda n: n["rounds"])
        assert seated["you"]["table"] is not None and "tokens" not in seated
        for t in rnd["tables"]:
            (a, _), (c, _) = seat_numbers(t)
            r = server.http.post(table_url(night, 1, t["table"], "report"),
                                 json={"points": [7, 3]}, headers=key(tokens[str(a)]))
            assert r.status_code == 201, r.text
            r = server.http.post(table_url(night, 1, t["table"], "confirm"),
                                 json={"seq": 1}, headers=key(tokens[str(c)]))
            assert r.status_code == 201, r.text
        seen = until(organiser, lambda n: all(
            t["status"] == "confirmed" for t in n["rounds"][0]["tables"]))
        assert seen["standings"] == []  # the round has not ended
        end(server, night, 1)
        shown = until(projector, lambda n: n["standings"])
        assert sorted(s["total"] for s in shown["standings"]) == [3] * 4 + [7] * 4
        assert until(phone, lambda n: n["standings"])["standings"] == shown["standings"]


def test_an_online_tables_game_over_reaches_the_pages_without_anyone_reading_the_night(
        server: Server) -> None:
    """The end of an app table's game is recorded by the server itself and sent: the
    projector hears of it though no request reads the night."""
    night = make_night(server, NAMES[:4])
    with night_socket(server, night["id"]) as projector:
        until(projector, lambda n: True)
        r = server.http.post(f"/api/nights/{night['id']}/rounds", json={"online": [1]},
                             headers=key(night["host_key"]))
        assert r.status_code == 201, r.text
        organiser = server.http.get(f"/api/nights/{night['id']}",
                                    headers=key(night["host_key"])).json()
        app = organiser["online"][0]
        host = app["host_url"].split("host=")[1]
        r = server.http.post(f"/api/tables/{app['id']}/host/start", json={"host": host})
        assert r.status_code == 200, r.text  # nobody came: bots play every seat
        played = until(projector, lambda n: n["rounds"]
                       and n["rounds"][0]["tables"][0]["status"] == "played", timeout=120)
        assert max(played["rounds"][0]["tables"][0]["result"]["points"]) >= 10


def test_a_nights_socket_refuses_no_such_night_another_sites_page_and_a_message(
        server: Server) -> None:
    with night_socket(server, "nope") as ws:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] == "error" and message["code"] == "no_night"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    night = make_night(server, NAMES[:4])
    with pytest.raises(InvalidStatus) as refused:
        night_socket(server, night["id"], origin="https://evil.example")
    assert refused.value.response.status_code == 403
    with night_socket(server, night["id"], night["host_key"]) as ws:
        until(ws, lambda n: True)
        ws.send("hello")
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # nothing changed: the night as it was made
    after = server.http.get(f"/api/nights/{night['id']}", headers=key(night["host_key"]))
    assert after.json()["rounds"] == [] and len(after.json()["players"]) == 4


def test_a_nights_sockets_count_against_the_addresss_sockets(database: Database) -> None:
    """A night's live pages are bounded per address with the tables' sockets: past the
    limit the handshake is a 429 ``too_many_sockets``; a closed one gives its room back
    (the page then reads the night every few seconds)."""
    with running_server(database("euchre"), limits=Limits(sockets=2)) as server:
        night = make_night(server, NAMES[:4])
        with night_socket(server, night["id"]) as one, night_socket(server, night["id"]) as two:
            until(one, lambda n: True), until(two, lambda n: True)
            with pytest.raises(InvalidStatus) as refused:
                night_socket(server, night["id"])
            assert refused.value.response.status_code == 429
            assert json.loads(refused.value.response.body or b"{}")["code"] == \
                "too_many_sockets"
        with night_socket(server, night["id"]) as again:
            assert until(again, lambda n: True)["id"] == night["id"]
