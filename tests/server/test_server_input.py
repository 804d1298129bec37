"""Input the server must refuse cleanly: text that is not Unicode, pages of other sites.

A lone surrogate (``"\\ud800"``) is valid JSON but no Unicode text: it is a 422 naming the
field, never a 500.  A WebSocket opened by a page of another site (its ``Origin``) is
refused, so such a page cannot play a seat whose token it got hold of.
"""

from __future__ import annotations

import json

import pytest
from serverkit import Database, Server, latest_state, recv, running_server
from starlette.datastructures import Headers
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from euchre.server.app import origin_allowed

SEATS = '[{"kind": "you"}, {"kind": "bot", "bot": "random"}]'


@pytest.mark.parametrize(("body", "field"), [
    ('{"name": "\\ud800", "seats": ' + SEATS + "}", ["body", "name"]),
    ('{"name": "ok \\udfff ok", "seats": ' + SEATS + "}", ["body", "name"]),
    ('{"seats": [{"kind": "you", "name": "\\ud83d"}, {"kind": "friend"}]}',
     ["body", "seats", 0, "name"]),
    ('{"seats": [{"kind": "bot", "bot": "\\udc00"}, {"kind": "you"}]}',
     ["body", "seats", 0, "bot"]),
    ('{"rules": {"joker_turnup": "\\ud800"}, "seats": ' + SEATS + "}",
     ["body", "rules", "joker_turnup"]),
])
def test_a_lone_surrogate_in_a_new_table_is_a_422_naming_the_field(
        server: Server, body: str, field: list[object]) -> None:
    r = server.http.post("/api/tables", content=body.encode(),
                         headers={"content-type": "application/json"})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert [d["loc"] for d in detail] == [field]
    assert "valid string" in detail[0]["msg"]
    assert "\ufffd" in detail[0]["input"]  # shown replaced, the body is UTF-8
    r.content.decode("utf-8")
    listed = server.http.get("/api/tables").json()
    assert listed["open"] == []  # nothing made


def test_a_lone_surrogate_when_taking_a_seat_is_a_422(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])
    invite = answer["invites"][0]["invite"]
    for body in (f'{{"invite": "{invite}", "name": "\\ud800"}}', '{"invite": "\\udbff"}'):
        r = server.http.post(f"/api/tables/{answer['id']}/join", content=body.encode(),
                             headers={"content-type": "application/json"})
        assert r.status_code == 422, r.text
    seats = server.http.get(f"/api/tables/{answer['id']}").json()["seats"]
    assert seats[1]["claimed"] is False  # the seat is still free


def test_a_lone_surrogate_in_a_socket_message_is_malformed_and_changes_nothing(
        server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])
    with server.ws(answer["id"], answer["token"]) as ws:
        before = latest_state(ws)
        ws.send('{"type": "act", "action": "\\ud800"}')
        while (m := recv(ws))["type"] != "error":
            pass
        assert m["code"] == "malformed"
        assert latest_state(ws)["seq"] == before["seq"]


# -- the Origin of a WebSocket --------------------------------------------------------------
def _open(server: Server, table: str, origin: str | None) -> dict[str, object]:
    """Open a spectator's socket with this Origin header; the hello it gets."""
    url = f"{server.ws_base}/ws/{table}"
    with connect(url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
        hello: dict[str, object] = json.loads(ws.recv(timeout=10))
        return hello


def test_a_socket_from_the_servers_own_page_or_no_browser_opens(server: Server) -> None:
    tid = server.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])["id"]
    assert _open(server, tid, server.base)["type"] == "hello"
    assert _open(server, tid, None)["type"] == "hello"  # not a browser: no Origin


@pytest.mark.parametrize("origin", [
    "https://evil.example", "http://127.0.0.1:1", "null", "http://localhost.evil.example"])
def test_a_socket_from_another_sites_page_is_refused_with_bad_origin(
        server: Server, origin: str) -> None:
    tid = server.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])["id"]
    with pytest.raises(InvalidStatus) as refused:
        _open(server, tid, origin)
    response = refused.value.response
    assert response.status_code == 403
    assert json.loads(response.body or b"{}")["code"] == "bad_origin"


def test_origins_allowed_for_a_deployment_open_and_others_do_not(database: Database) -> None:
    with running_server(database("a"),
                        origins=["https://cards.example/", "http://10.0.0.5:8080"]) as srv:
        tid = srv.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])["id"]
        assert _open(srv, tid, "https://cards.example")["type"] == "hello"
        assert _open(srv, tid, "HTTP://10.0.0.5:8080")["type"] == "hello"
        assert _open(srv, tid, srv.base)["type"] == "hello"  # its own, still
        with pytest.raises(InvalidStatus):
            _open(srv, tid, "https://cards.example:444")
    with running_server(database("b"), origins=["*"]) as srv:
        tid = srv.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])["id"]
        assert _open(srv, tid, "https://anywhere.example")["type"] == "hello"


@pytest.mark.parametrize(("host", "origin", "allowed"), [
    ("cards.example", "https://cards.example", True),
    ("cards.example", "http://cards.example", True),
    ("Cards.Example:8000", "http://cards.example:8000", True),
    ("cards.example:8000", "http://cards.example", False),
    ("cards.example", "https://cards.example.evil", False),
    ("cards.example", "ftp://cards.example", False),
    ("cards.example", "null", False),
    ("cards.example", "", False),
])
def test_an_origin_is_the_servers_own_when_it_names_the_host_asked(
        host: str, origin: str, allowed: bool) -> None:
    assert origin_allowed(Headers({"host": host, "origin": origin})) is allowed
