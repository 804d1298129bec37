"""The host's powers, invitations, private tables and the chat.

An invitation is never a seat token: claiming it gives the place a token of its own,
once.  The host (with the host link's key, never a seat token) sees the places, invites
someone else to one (the old holder is cut off, on every server process), removes a
person, seats a bot, starts a table that waits for its friends, sets the turn timer,
mutes a place.  Every refusal is one 4xx with ``detail``, ``code`` and ``params`` and
changes nothing.  A private table is not listed and is watched only with its watch link.
"""

from __future__ import annotations

import contextlib
import functools
import json
import time
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from pgcluster import Cluster
from serverkit import (
    Server,
    free_port,
    latest_state,
    my_turn,
    recv,
    server_process,
    ws_connect,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

BOT = {"kind": "bot", "bot": "basic"}
HOST_ROUTES = ("", "invite", "remove", "bot", "start", "timer", "mute", "end")
PLACE_ROUTES = ("invite", "remove", "bot", "mute")


# -- helpers ---------------------------------------------------------------------------------------
def refused(r: httpx2.Response, status: int, code: str) -> dict[str, Any]:
    """Check one clear refusal; its ``params``."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"detail", "code", "params"}, body
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    params: dict[str, Any] = body["params"]
    return params


def host(server: Server, tid: str, route: str, key: str, **body: Any) -> httpx2.Response:
    """``POST /api/tables/{tid}/host[/route]`` with the key ``key``."""
    path = f"/api/tables/{tid}/host" + (f"/{route}" if route else "")
    return server.http.post(path, json={"host": key, **body})


def host_view(server: Server, answer: dict[str, Any]) -> dict[str, Any]:
    r = host(server, answer["id"], "", answer["host"])
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def invite_of(view: dict[str, Any], place: int) -> str:
    """The invitation of ``place`` in the host's view (from its link)."""
    url = view["places"][place]["invite_url"]
    assert url, view
    invite: str = url.split("?invite=", 1)[1]
    return invite


def join(server: Server, tid: str, invite: str, name: str = "") -> httpx2.Response:
    return server.http.post(f"/api/tables/{tid}/join", json={"invite": invite, "name": name})


def claimed(server: Server, tid: str, invite: str, name: str = "") -> str:
    """Claim ``invite``: the seat token it gives."""
    r = join(server, tid, invite, name)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def seats(server: Server, tid: str, key: str = "") -> dict[int, dict[str, Any]]:
    """The table's seats by place, as anyone sees them (at a private table, anyone with
    one of its keys)."""
    r = server.http.get(f"/api/tables/{tid}", headers={"X-Euchre-Key": key})
    assert r.status_code == 200, r.text
    return {s["place"]: s for s in r.json()["seats"]}


def message(ws: ClientConnection, check: Callable[[dict[str, Any]], bool],
            timeout: float = 20) -> dict[str, Any]:
    """The first message that passes ``check``, skipping others."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = recv(ws, timeout)
        if check(m):
            return m
    raise AssertionError("no such message came")


def error(ws: ClientConnection, code: str) -> dict[str, Any]:
    """The next error message, which must have ``code``."""
    m = message(ws, lambda m: m["type"] == "error")
    assert m["code"] == code, m
    return m


def chat(ws: ClientConnection) -> dict[str, Any]:
    return message(ws, lambda m: m["type"] == "chat")


def say(ws: ClientConnection, **body: Any) -> None:
    ws.send(json.dumps({"type": "chat", **body}))


def ended(ws: ClientConnection, timeout: float = 20) -> tuple[list[str], int | None]:
    """Read until the server closes the socket: the error codes it sent, the close code."""
    codes = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            m = recv(ws, timeout)
            if m["type"] == "error":
                codes.append(m["code"])
    except ConnectionClosed as e:
        return codes, e.rcvd.code if e.rcvd is not None else None
    raise AssertionError("the socket stayed open")


def ws_refused(open_ws: Callable[[], ClientConnection], code: str) -> None:
    """A socket that the server refuses at once with error ``code`` (close 4403)."""
    with open_ws() as ws:
        codes, close = ended(ws)
    assert codes == [code] and close == 4403


def hello(ws: ClientConnection) -> dict[str, Any]:
    return message(ws, lambda m: m["type"] == "hello")


def play_until_bot_acts(sockets: list[ClientConnection], bot_seat: int,
                        timeout: float = 30) -> dict[str, Any]:
    """Play each person's turn with the first legal action until the bot at ``bot_seat``
    has acted (in the current deal, or a whole deal has ended); the last state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for ws in sockets:
            state = latest_state(ws)
            deal = state["deal"]
            if (any(e["seat"] == bot_seat for e in deal["events"])
                    or state["last_deal"] is not None or state["over"]):
                return state
            if deal["to_move"] == state["you"] and deal["legal"]:
                ws.send(json.dumps({"type": "act", "action": deal["legal"][0],
                                    "seq": state["seq"]}))
    raise AssertionError("the bot never played")


def seat_of_place(state: dict[str, Any], place: int) -> int:
    seat: int = next(s["seat"] for s in state["table"]["seats"] if s["place"] == place)
    return seat


def friends(n: int) -> list[dict[str, Any]]:
    """A table of ``n``: yours, then friends' seats."""
    return [{"kind": "you", "name": "Ann"}] + [
        {"kind": "friend", "name": f"F{i}"} for i in range(1, n)]


# -- 1. refusals change nothing --------------------------------------------------------------------
def test_every_refusal_of_the_host_and_join_routes_is_one_clear_4xx_and_changes_nothing(
        server: Server) -> None:
    answer = server.create({"players": 3}, friends(3), private=True)
    tid = answer["id"]
    bo = server.seat(answer, 1, "Bo")  # place 2 still invited: the table waits
    invites = {i["place"]: i["invite"] for i in answer["invites"]}
    before = seats(server, tid, answer["host"])
    view = host_view(server, answer)
    body = {"place": 1, "bot": "basic", "turn_timer": 30, "muted": True}
    for key in ("nonsense", answer["token"], bo, invites[1], invites[2], answer["watch_url"]
                .split("?watch=")[1]):
        for route in HOST_ROUTES:
            refused(host(server, tid, route, key, **body), 403, "not_host")
    # a bad place: no such place, or none given
    for route in PLACE_ROUTES:
        assert refused(host(server, tid, route, answer["host"], place=3), 422,
                       "no_place") == {"place": 3}
        refused(host(server, tid, route, answer["host"]), 422, "no_place")
    assert seats(server, tid, answer["host"]) == before
    assert host_view(server, answer) == view

    # a spent invitation: 409, and the first holder keeps the seat, its name and its socket
    with server.ws(tid, bo) as bo_ws:
        assert latest_state(bo_ws)["you"] is not None
        params = refused(join(server, tid, invites[1], "Mallory"), 409, "invitation_spent")
        assert params == {"watch": False, "place": 1}
        assert seats(server, tid, answer["host"])[1]["name"] == "Bo"
        assert latest_state(bo_ws)["table"]["seats"][seat_of_place(latest_state(bo_ws), 1)][
            "name"] == "Bo"
    # an unknown invitation, or a seat token given as one
    for bad in ("nonsense", answer["token"], bo, answer["host"]):
        assert refused(join(server, tid, bad), 403, "bad_invitation") == {}
    assert seats(server, tid, answer["host"]) == before
    assert host_view(server, answer) == view

    # a deleted table: 404 on the join and on every host route
    gone = server.http.request("DELETE", f"/api/tables/{tid}", json={"token": answer["host"]})
    assert gone.status_code == 200
    for invite in invites.values():
        assert refused(join(server, tid, invite), 404, "no_table") == {"table": tid}
    for route in HOST_ROUTES:
        refused(host(server, tid, route, answer["host"], **body), 404, "no_table")


def test_a_public_tables_spent_invitation_says_it_may_be_watched(server: Server) -> None:
    answer = server.create({"players": 2}, friends(2))
    server.seat(answer, 1)
    params = refused(join(server, answer["id"], answer["invites"][0]["invite"]), 409,
                     "invitation_spent")
    assert params == {"watch": True, "place": 1}


# -- 2. and 3. invitations are not seat tokens; the host never sees one --------------------------
def test_an_invitation_is_not_a_seat_token(server: Server) -> None:
    answer = server.create({"players": 2}, friends(2))
    tid, invite = answer["id"], answer["invites"][0]["invite"]
    ws_refused(lambda: server.ws(tid, invite), "bad_token")  # unclaimed
    token = claimed(server, tid, invite, "Bo")
    assert token != invite and token != answer["token"]
    ws_refused(lambda: server.ws(tid, invite), "bad_token")  # claimed
    with server.ws(tid, token) as ws:
        assert hello(ws)["place"] == 1


def test_neither_the_creators_answer_nor_the_host_view_holds_a_friends_seat_token(
        server: Server) -> None:
    answer = server.create({"players": 3}, friends(3), private=True)
    tid = answer["id"]
    shown = [json.dumps(answer)]
    shown.append(json.dumps(host_view(server, answer)))
    bo = server.seat(answer, 1, "Bo")
    shown.append(json.dumps(host_view(server, answer)))
    cy = server.seat(answer, 2, "Cy")
    view = host_view(server, answer)
    shown.append(json.dumps(view))
    assert view["started"] is True
    assert all(p["invite_url"] is None for p in view["places"])
    for text in shown:
        assert bo not in text and cy not in text
    for text in shown[1:]:  # the host's view holds no seat token, not even the creator's
        assert answer["token"] not in text
    facts = server.http.get(f"/api/tables/{tid}", headers={"X-Euchre-Key": answer["host"]})
    assert facts.status_code == 200
    for text in (facts.text, host(server, tid, "start", answer["host"]).text):
        assert all(t not in text for t in (bo, cy, answer["token"], answer["host"]))


# -- 4. re-inviting ------------------------------------------------------------------------------
def test_a_new_invitation_cuts_the_old_holder_off_and_seats_the_new_guest(
        server: Server) -> None:
    answer = server.create({"players": 2}, friends(2), private=True)
    tid, first = answer["id"], answer["invites"][0]["invite"]
    bo = claimed(server, tid, first, "Bo")
    with server.ws(tid, answer["token"]) as ann, server.ws(tid, bo) as bo_ws:
        latest_state(bo_ws)
        r = host(server, tid, "invite", answer["host"], place=1)
        assert r.status_code == 200, r.text
        fresh = invite_of(r.json(), 1)
        assert fresh != first and fresh != bo
        codes, close = ended(bo_ws)
        assert codes == ["revoked"] and close == 4403
        # the old token opens nothing, the old invitation is no longer one
        ws_refused(lambda: server.ws(tid, bo), "bad_token")
        refused(server.http.post(f"/api/tables/{tid}/leave", json={"token": bo}), 403,
                "bad_token")
        refused(join(server, tid, first), 403, "bad_invitation")
        assert seats(server, tid, answer["host"])[1]["invited"] is True
        cy = claimed(server, tid, fresh, "Cy")
        with server.ws(tid, cy) as cy_ws:
            assert hello(cy_ws)["place"] == 1
            state = latest_state(cy_ws)
        assert state["table"]["seats"][seat_of_place(state, 1)]["name"] == "Cy"
        assert latest_state(ann)["table"]["started"] is True  # Ann's socket is untouched
    assert seats(server, tid, answer["host"])[1]["kind"] == "person"
    refused(join(server, tid, fresh), 409, "invitation_spent")


def test_the_host_removes_a_person_who_is_told_so(server: Server) -> None:
    answer = server.create({"players": 2}, friends(2))
    tid = answer["id"]
    bo = server.seat(answer, 1, "Bo")
    with server.ws(tid, bo) as bo_ws:
        latest_state(bo_ws)
        r = host(server, tid, "remove", answer["host"], place=1)
        assert r.status_code == 200 and r.json()["places"][1]["invite_url"]
        m = error(bo_ws, "revoked")
        assert m["params"] == {"why": "removed"}
    ws_refused(lambda: server.ws(tid, bo), "bad_token")


# -- 5. the waiting room ---------------------------------------------------------------------------
def test_the_table_waits_for_every_friend_then_deals_and_the_bots_play(server: Server) -> None:
    answer = server.create({"players": 3}, [{"kind": "you", "name": "Ann"},
                                            {"kind": "friend", "name": "Bo"}, BOT])
    tid = answer["id"]
    assert host_view(server, answer)["started"] is False
    with server.ws(tid, answer["token"]) as ann:
        state = latest_state(ann)
        assert state["table"]["started"] is False and state["seq"] == 0
        for action in ("pass", "order", *state["deal"]["legal"]):
            ann.send(json.dumps({"type": "act", "action": action, "seq": 0}))
            error(ann, "waiting")
        assert latest_state(ann)["seq"] == 0
        bo = server.seat(answer, 1, "Bo")
        state = message(ann, lambda m: m["type"] == "state" and m["table"]["started"])
        with server.ws(tid, bo) as bo_ws:
            state = play_until_bot_acts([ann, bo_ws], seat_of_place(state, 2))
        assert state["seq"] > 0
    assert host_view(server, answer)["started"] is True


def test_the_host_starts_without_a_friend_whose_bot_gives_the_seat_back(
        server: Server) -> None:
    answer = server.create({"players": 2}, friends(2))
    tid = answer["id"]
    with server.ws(tid, answer["token"]) as ann:
        assert latest_state(ann)["table"]["started"] is False
        r = host(server, tid, "start", answer["host"])
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["started"] is True and view["places"][1]["kind"] == "bot"
        invite = invite_of(view, 1)
        assert invite == answer["invites"][0]["invite"]  # the invitation stays good
        state = message(ann, lambda m: m["type"] == "state" and m["table"]["started"])
        state = play_until_bot_acts([ann], seat_of_place(state, 1))
        # the late friend takes the seat back from the bot
        late = claimed(server, tid, invite, "Late")
        seat = seats(server, tid)[1]
        assert seat["kind"] == "person" and seat["name"] == "Late"
        with server.ws(tid, late) as late_ws:
            assert hello(late_ws)["place"] == 1
    assert host(server, tid, "start", answer["host"]).status_code == 200  # once is enough
    assert host_view(server, answer)["places"][1]["kind"] == "person"


# -- 6. a bot for a present player -------------------------------------------------------------
def test_the_host_seats_a_bot_for_a_present_player_and_its_invitation_gives_it_back(
        server: Server) -> None:
    answer = server.create({"players": 2}, friends(2))
    tid = answer["id"]
    bo = server.seat(answer, 1, "Bo")
    with server.ws(tid, bo) as bo_ws:
        latest_state(bo_ws)
        r = host(server, tid, "bot", answer["host"], place=1, bot="random")
        assert r.status_code == 200, r.text
        place = r.json()["places"][1]
        assert place["kind"] == "bot" and place["bot"] == "random"
        m = error(bo_ws, "revoked")
        assert m["params"] == {"why": "replaced"}
        _, close = ended(bo_ws)
        assert close == 4403
    refused(host(server, tid, "bot", answer["host"], place=1, bot="nobody"), 422, "bad_rules")
    ws_refused(lambda: server.ws(tid, bo), "bad_token")
    invite = invite_of(host_view(server, answer), 1)
    assert invite != answer["invites"][0]["invite"]
    again = claimed(server, tid, invite, "Bo again")
    seat = seats(server, tid)[1]
    assert seat["kind"] == "person" and seat["name"] == "Bo again"
    with server.ws(tid, again) as ws:
        assert hello(ws)["place"] == 1


# -- 7. private tables -----------------------------------------------------------------------------
def test_a_private_table_is_not_listed_and_is_watched_only_with_its_watch_link(
        server: Server) -> None:
    public = server.create({"players": 2}, [{"kind": "you", "name": "Pub"}, BOT])
    answer = server.create({"players": 2}, friends(2), private=None)  # invitations: private
    tid = answer["id"]
    assert answer["private"] is True and answer["watch_url"]
    watch = answer["watch_url"].split("?watch=", 1)[1]
    listed = [t["id"] for t in server.http.get("/api/tables").json()["open"]]
    assert public["id"] in listed and tid not in listed
    view = host_view(server, answer)
    assert view["private"] is True and view["watch_url"] == answer["watch_url"]
    bo = server.seat(answer, 1)
    for key in (None, "nonsense", answer["token"], bo, answer["invites"][0]["invite"]):
        query = "" if key is None else f"watch={key}"
        ws_refused(functools.partial(server.ws, tid, query=query), "private")
    for key in (watch, answer["host"]):
        with server.ws(tid, query=f"watch={key}") as ws:
            assert hello(ws)["role"] == "spectator"
            assert latest_state(ws)["you"] is None
    assert tid not in [t["id"] for t in server.http.get("/api/tables").json()["open"]]


def test_a_private_tables_facts_are_shown_only_with_one_of_its_keys(server: Server) -> None:
    # names, rules, scores and who is connected: to its players (seat tokens), the guests
    # it waits for (their invitations), its host and its watch link, never to a person
    # the host removed, nor to anyone with its id alone
    answer = server.create({"players": 3}, friends(3), private=True)
    tid = answer["id"]
    watch = answer["watch_url"].split("?watch=", 1)[1]
    bo = server.seat(answer, 1, "Bo")
    waiting = answer["invites"][1]["invite"]
    assert host(server, tid, "remove", answer["host"], place=1).status_code == 200
    removed_invite = answer["invites"][0]["invite"]
    path = f"/api/tables/{tid}"
    for key in (answer["token"], answer["host"], watch, waiting):
        for how in ({"headers": {"X-Euchre-Key": key}}, {"params": {"key": key}}):
            r = server.http.get(path, **how)  # type: ignore[arg-type]
            assert r.status_code == 200, r.text
            assert r.json()["seats"][0]["name"] == "Ann"
    guest = server.http.get(path, headers={"X-Euchre-Key": waiting}).json()
    assert guest["invitation"] == {"place": 2, "spent": False}  # told without spending it
    before = server.http.get(path, headers={"X-Euchre-Key": answer["host"]}).json()
    for key in (None, "", "nonsense", bo, removed_invite, tid):
        headers = {} if key is None else {"X-Euchre-Key": key}
        params = refused(server.http.get(path, headers=headers), 403, "private")
        assert params == {}
        refused(server.http.get(path, params={"key": key or ""}), 403, "private")
    assert server.http.get(path, headers={"X-Euchre-Key": answer["host"]}).json() == before
    assert join(server, tid, waiting, "Cy").status_code == 200  # the check spent nothing


def test_a_finished_private_game_is_shown_only_with_a_key(server: Server) -> None:
    rules = {"players": 2, "target": 1, "stick_the_dealer": True}
    hidden = server.create(rules, [BOT, BOT], private=True)
    shown = server.create(rules, [BOT, BOT])
    deadline = time.monotonic() + 30
    for t in (hidden, shown):
        while not server.http.get(f"/api/tables/{t['id']}",
                                  headers={"X-Euchre-Key": t["host"]}).json()["over"]:
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
    finished = [g["id"] for g in server.http.get("/api/tables").json()["finished"]]
    assert shown["id"] in finished and hidden["id"] not in finished
    watch = hidden["watch_url"].split("?watch=", 1)[1]
    for what in ("record", "replay"):
        path = f"/api/tables/{hidden['id']}/matches/1/{what}"
        for key in (None, "nonsense"):
            params = {} if key is None else {"key": key}
            refused(server.http.get(path, params=params), 403, "private")
        for key in (hidden["host"], watch):
            assert server.http.get(path, params={"key": key}).status_code == 200
        assert server.http.get(f"/api/tables/{shown['id']}/matches/1/{what}").status_code == 200


# -- 8. the chat -----------------------------------------------------------------------------------
def test_the_chat_reaches_everyone_as_plain_text_within_its_limits(server: Server) -> None:
    answer = server.create({"players": 2}, friends(2))
    tid = answer["id"]
    bo = server.seat(answer, 1, "Bo")
    with (server.ws(tid, answer["token"]) as ann, server.ws(tid, bo) as bo_ws,
          server.ws(tid) as watcher):
        for ws in (ann, bo_ws, watcher):
            latest_state(ws)
        script = "<script>alert('x')</script> & <b>bold</b>"
        for sent, got in (("hello Bo", "hello Bo"), (script, script),
                          ("bell\x07  ring\u200e", "bell ring")):
            say(ann, text=sent)
            for ws in (ann, bo_ws, watcher):
                m = chat(ws)
                assert m["text"] == got and m["place"] == 0 and m["name"] == "Ann"
        say(bo_ws, preset="nice")
        for ws in (ann, bo_ws, watcher):
            m = chat(ws)
            assert m["preset"] == "nice" and m["place"] == 1 and "text" not in m
        # refused: a spectator, a message too long, an unknown preset
        say(watcher, text="hi")
        assert error(watcher, "spectator")["params"] == {"asked": "chat"}
        say(bo_ws, text="x" * 201)
        error(bo_ws, "malformed")
        say(bo_ws, preset="nonsense")
        error(bo_ws, "malformed")
        # muted by the host
        r = host(server, tid, "mute", answer["host"], place=1, muted=True)
        assert r.status_code == 200 and r.json()["places"][1]["muted"] is True
        say(bo_ws, text="can you hear me")
        error(bo_ws, "muted")
        host(server, tid, "mute", answer["host"], place=1, muted=False)
        say(bo_ws, text="back")
        assert chat(ann)["text"] == "back"
    # the sixth message at once from one connection is refused
    with server.ws(tid, answer["token"]) as ann:
        latest_state(ann)
        for i in range(6):
            say(ann, text=f"m{i}")
        texts: list[str] = []
        while len(texts) < 5:
            m = message(ann, lambda m: m["type"] in ("chat", "error"))
            assert m["type"] == "chat", m
            texts.append(m["text"])
        assert texts == [f"m{i}" for i in range(5)]
        m = error(ann, "rate_limited")
        assert m["params"]["what"] == "chat" and m["retry_ms"] > 0
    # someone who comes later reads the latest messages
    with server.ws(tid) as late:
        log = message(late, lambda m: m["type"] == "chat_log")["messages"]
        assert log[-1]["text"] == "m4" and script in [m.get("text") for m in log]


# -- 9. refusals in the player's language --------------------------------------------------------
def test_an_illegal_action_is_explained_in_the_sockets_language(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you", "name": "Ann"}, BOT])
    tid, token = answer["id"], answer["token"]
    with server.ws(tid, token) as en, server.ws(tid, token, query="lang=fr") as fr:
        state = message(en, lambda m: m["type"] == "state" and not m["over"]
                        and m["deal"]["to_move"] == m["you"])
        legal = state["deal"]["legal"]
        action = next(a for a in ("trump S", "trump H", "play 9S", "play AH", "order")
                      if a not in legal)
        reasons = {}
        for lang, ws in (("en", en), ("fr", fr)):
            ws.send(json.dumps({"type": "act", "action": action, "seq": state["seq"]}))
            m = error(ws, "illegal")
            assert m["params"]["action"] == action
            reasons[lang] = m["params"]["reason"]
    assert reasons["en"].startswith("You cannot")
    assert reasons["fr"] and reasons["fr"] != reasons["en"]


# -- two server processes --------------------------------------------------------------------------
def test_a_new_invitation_made_on_one_process_cuts_off_the_holder_on_another(
        pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    with contextlib.ExitStack() as stack:
        bases = []
        for _ in range(2):
            port = free_port()
            stack.enter_context(server_process(url, port))
            bases.append(f"http://127.0.0.1:{port}")
        a = stack.enter_context(httpx2.Client(base_url=bases[0], timeout=10))
        b = stack.enter_context(httpx2.Client(base_url=bases[1], timeout=10))
        created = a.post("/api/tables", json={"rules": {"players": 2}, "seats": friends(2)})
        assert created.status_code == 201, created.text
        answer = created.json()
        tid, key = answer["id"], answer["host"]
        first = answer["invites"][0]["invite"]
        r = b.post(f"/api/tables/{tid}/join", json={"invite": first, "name": "Bo"})
        assert r.status_code == 200, r.text
        bo = r.json()["token"]
        ws_b = bases[1].replace("http", "ws")
        with ws_connect(ws_b, tid, bo) as bo_ws:
            assert latest_state(bo_ws)["table"]["started"] is True
            r = a.post(f"/api/tables/{tid}/host/invite", json={"host": key, "place": 1})
            assert r.status_code == 200, r.text
            fresh = invite_of(r.json(), 1)
            codes, close = ended(bo_ws)
            assert codes == ["revoked"] and close == 4403
        ws_refused(lambda: ws_connect(ws_b, tid, bo), "bad_token")
        assert b.post(f"/api/tables/{tid}/leave", json={"token": bo}).status_code == 403
        assert b.post(f"/api/tables/{tid}/join",
                      json={"invite": first}).json()["code"] == "bad_invitation"
        r = b.post(f"/api/tables/{tid}/join", json={"invite": fresh, "name": "Cy"})
        assert r.status_code == 200, r.text
        with ws_connect(ws_b, tid, r.json()["token"]) as cy_ws:
            assert hello(cy_ws)["place"] == 1


@pytest.mark.parametrize("route", ["timer", "end"])
def test_the_hosts_timer_and_end(server: Server, route: str) -> None:
    answer = server.create({"players": 2}, friends(2))
    tid = answer["id"]
    with server.ws(tid, answer["token"]) as ann:
        latest_state(ann)
        if route == "timer":
            r = host(server, tid, "timer", answer["host"], turn_timer=30)
            assert r.status_code == 200 and r.json()["turn_timer"] == 30
            state = message(ann, lambda m: m["type"] == "state"
                            and m["table"]["turn_timer"] == 30)
            assert state["table"]["turn_timer"] == 30
            r = host(server, tid, "timer", answer["host"])
            assert r.status_code == 200 and r.json()["turn_timer"] is None
        else:
            r = host(server, tid, "end", answer["host"])
            assert r.json() == {"id": tid, "deleted": True}
            codes, _ = ended(ann)
            assert codes == ["closed"]
            refused(server.http.get(f"/api/tables/{tid}"), 404, "no_table")


def _ann_at_a_and_bo_at_b(pg_cluster: Cluster, stack: contextlib.ExitStack
                          ) -> tuple[httpx2.Client, str, str, ClientConnection,
                                     ClientConnection]:
    """Two server processes on one new database; Ann's two-handed table made at process
    A, Bo seated at B by his invitation, each connected to their own process: A's
    client, the table's id, the host key, Ann's socket and Bo's (each said hello)."""
    url = pg_cluster.new_database()
    bases = []
    for _ in range(2):
        port = free_port()
        stack.enter_context(server_process(url, port))
        bases.append(f"http://127.0.0.1:{port}")
    a = stack.enter_context(httpx2.Client(base_url=bases[0], timeout=10))
    b = stack.enter_context(httpx2.Client(base_url=bases[1], timeout=10))
    answer = a.post("/api/tables", json={"rules": {"players": 2}, "seats": friends(2),
                                         "private": False}).json()
    tid = answer["id"]
    r = b.post(f"/api/tables/{tid}/join", json={"invite": answer["invites"][0]["invite"],
                                                "name": "Bo"})
    assert r.status_code == 200, r.text
    ann = stack.enter_context(ws_connect(bases[0].replace("http", "ws"), tid,
                                         answer["token"]))
    bo = stack.enter_context(ws_connect(bases[1].replace("http", "ws"), tid,
                                        r.json()["token"]))
    hello(ann)
    hello(bo)
    return a, tid, answer["host"], ann, bo


def test_a_mute_set_at_one_process_is_in_force_at_another_before_the_host_is_answered(
        pg_cluster: Cluster) -> None:
    # the host mutes Bo at process A; Bo, at process B, speaks the moment the host is
    # answered: B refuses it (the database says, not what B has heard so far), and once
    # unmuted his words reach Ann at A
    with contextlib.ExitStack() as stack:
        a, tid, key, ann, bo = _ann_at_a_and_bo_at_b(pg_cluster, stack)
        for muted in (True, False, True, False):
            r = a.post(f"/api/tables/{tid}/host/mute",
                       json={"host": key, "place": 1, "muted": muted})
            assert r.status_code == 200 and r.json()["places"][1]["muted"] is muted
            say(bo, text=f"muted {muted}")
            if muted:
                error(bo, "muted")
            else:
                assert chat(ann)["text"] == f"muted {muted}"
        # nothing said while muted reached Ann (her own last words come after the rest)
        say(ann, text="bye")
        heard: list[str] = []
        while not heard or heard[-1] != "bye":
            heard.append(chat(ann)["text"])
        assert "muted True" not in heard


def test_a_person_removed_at_one_process_cannot_talk_at_another_once_the_host_is_answered(
        pg_cluster: Cluster) -> None:
    # the host, at process A, removes Bo; the moment the host is answered, Bo speaks at
    # process B (which may not have heard yet): his words reach nobody and his socket is
    # ended there, as at A
    with contextlib.ExitStack() as stack:
        a, tid, key, ann, bo = _ann_at_a_and_bo_at_b(pg_cluster, stack)
        removed = a.post(f"/api/tables/{tid}/host/remove", json={"host": key, "place": 1})
        assert removed.status_code == 200, removed.text
        with contextlib.suppress(ConnectionClosed):  # B may have heard and ended it
            say(bo, text="still here?")
        codes, close = ended(bo)
        assert "revoked" in codes and close == 4403, codes
        # nothing Bo said reached Ann (her own words come after anything sent before)
        say(ann, text="bye")
        heard: list[str] = []
        while not heard or heard[-1] != "bye":
            heard.append(chat(ann)["text"])
        assert heard == ["bye"]


def test_a_seat_given_away_at_one_process_refuses_the_old_holders_move_at_another(
        pg_cluster: Cluster) -> None:
    # Bo's turn, Bo at process B; the host, at process A, invites someone else to Bo's
    # seat; the moment the host is answered, Bo's move (sent at B, which may not have
    # heard yet) is refused, nothing is stored, and Bo's socket is ended
    import psycopg

    url = pg_cluster.new_database()
    with contextlib.ExitStack() as stack:
        bases = []
        for _ in range(2):
            port = free_port()
            stack.enter_context(server_process(url, port))
            bases.append(f"http://127.0.0.1:{port}")
        a = stack.enter_context(httpx2.Client(base_url=bases[0], timeout=10))
        b = stack.enter_context(httpx2.Client(base_url=bases[1], timeout=10))
        answer = a.post("/api/tables", json={
            "rules": {"players": 3}, "private": False,
            "seats": [{"kind": "friend", "name": "Bo"}, BOT, BOT]}).json()
        tid, key = answer["id"], answer["host"]
        r = b.post(f"/api/tables/{tid}/join", json={"invite": answer["invites"][0]["invite"]})
        assert r.status_code == 200, r.text
        with ws_connect(bases[1].replace("http", "ws"), tid, r.json()["token"]) as bo:
            state = my_turn(bo)
            invited = a.post(f"/api/tables/{tid}/host/invite", json={"host": key, "place": 0})
            assert invited.status_code == 200, invited.text
            # B may hear of it first and end Bo's socket before his move is sent
            with contextlib.suppress(ConnectionClosed):
                bo.send(json.dumps({"type": "act", "action": state["deal"]["legal"][0],
                                    "seq": state["seq"]}))
            codes, close = ended(bo)
        assert codes[0] in ("stale", "revoked") and "revoked" in codes, codes
        assert close == 4403
        with psycopg.connect(url) as conn:
            stored = conn.execute("SELECT count(*) FROM actions WHERE table_id = %s",
                                  (tid,)).fetchone()
        assert stored == (state["seq"],)  # the bots' moves before Bo's turn, not his
