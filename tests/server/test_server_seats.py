"""Seats and tables nobody plays: leaving, deleting, idle tables expiring, the turn timer
with its stand-in bot, the bots waiting for a deal's summary to be read, and the hint's
values."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from serverkit import Database, Server, latest_state, recv
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from euchre.rules import Rules
from euchre.server.app import open_storage
from euchre.server.outbox import Connection
from euchre.server.registry import Tables
from euchre.server.storage import PlaceRecord
from euchre.server.table import Settings

BOT = {"kind": "bot", "bot": "basic"}


def next_state(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    """The next state message, skipping any other."""
    while True:
        m = recv(ws, timeout)
        if m["type"] == "state":
            return m


def until(ws: ClientConnection, check: Any, timeout: float = 20) -> dict[str, Any]:
    """The first state that passes ``check``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = next_state(ws)
        if check(m):
            return m
    raise AssertionError("no such state came")


def act(ws: ClientConnection, state: dict[str, Any], action: str | None = None) -> None:
    """Play ``action`` (default: the first legal one) in answer to ``state``."""
    ws.send(json.dumps({"type": "act", "action": action or state["deal"]["legal"][0],
                        "seq": state["seq"]}))


def my_turn(m: dict[str, Any]) -> bool:
    return not m["over"] and m["deal"]["to_move"] == m["you"] and bool(m["deal"]["legal"])


# -- leaving and deleting ------------------------------------------------------------------------
def test_a_person_who_leaves_opens_the_seat_and_a_stand_in_bot_plays_it(server: Server) -> None:
    answer = server.create({"players": 2, "target": 3},
                           [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}])
    tid, bo_token = answer["id"], server.seat(answer, 1, "Bo")
    with server.ws(tid, answer["token"]) as ann, server.ws(tid, bo_token) as bo:
        latest_state(ann)
        r = server.http.post(f"/api/tables/{tid}/leave", json={"token": bo_token})
        assert r.status_code == 200 and r.json() == {"id": tid, "place": 1, "closed": False}
        # Bo's page is told and closed; the old token opens nothing any more
        with pytest.raises(ConnectionClosed):
            while True:
                m = recv(bo)
                if m["type"] == "error":
                    assert m["code"] == "left"
        seat = server.http.get(f"/api/tables/{tid}").json()["seats"][1]
        assert seat["open"] is True and seat["away"] is True
        assert server.http.post(f"/api/tables/{tid}/leave",
                                json={"token": bo_token}).status_code == 403
        # the game goes on: the stand-in plays seat 1 whenever it is its turn
        state = latest_state(ann)
        start = state["seq"]
        while True:
            if my_turn(state):
                act(ann, state)
            state = next_state(ann)
            events = state["deal"]["events"]
            if state["seq"] > start and any(e["seat"] == 1 for e in events):
                break
    # someone from the lobby takes the open seat, and plays it from then on
    taken = server.http.post(f"/api/tables/{tid}/join", json={"place": 1, "name": "Cy"})
    assert taken.status_code == 200
    seat = server.http.get(f"/api/tables/{tid}").json()["seats"][1]
    assert seat["name"] == "Cy" and seat["away"] is False


def test_the_last_person_to_leave_closes_the_table(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you", "name": "Ann"}, BOT])
    tid = answer["id"]
    with server.ws(tid) as watcher:
        latest_state(watcher)
        r = server.http.post(f"/api/tables/{tid}/leave", json={"token": answer["token"]})
        assert r.json()["closed"] is True
        with pytest.raises(ConnectionClosed):
            while True:
                m = recv(watcher)
                if m["type"] == "error":
                    assert m["code"] == "closed"
    assert server.http.get(f"/api/tables/{tid}").status_code == 404
    assert tid not in [t["id"] for t in server.http.get("/api/tables").json()["open"]]


def test_only_its_host_deletes_a_table(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you", "name": "Ann"},
                                            {"kind": "friend"}])
    tid = answer["id"]
    friend = server.seat(answer, 1)
    for token in (friend, answer["token"], answer["invites"][0]["invite"], "nonsense"):
        refused = server.http.request("DELETE", f"/api/tables/{tid}", json={"token": token})
        assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    with server.ws(tid, answer["token"]) as ws:
        assert latest_state(ws)["table"]["id"] == tid
        done = server.http.request("DELETE", f"/api/tables/{tid}",
                                   json={"token": answer["host"]})
        assert done.status_code == 200
        with pytest.raises(ConnectionClosed):
            while True:
                recv(ws)
    assert server.http.get(f"/api/tables/{tid}").status_code == 404
    assert tid not in [t["id"] for t in server.http.get("/api/tables").json()["open"]]


def test_idle_tables_expire_and_a_finished_game_stays_in_the_history(
        database: Database) -> None:
    async def scenario() -> None:
        store = open_storage(database("idle"), synchronous="NORMAL")
        tables = Tables(store, Settings(idle_expiry=3600))
        rules = Rules(players=2, target=1, stick_the_dealer=True)
        # a table with a finished game, then a rematch.  Made first, so that the expiry
        # looks at it before it awaits anything: the bots start the rematch, and a move
        # of theirs would make the table active again
        again = await tables.create("again", rules, [PlaceRecord(0, "bot", "A", "basic"),
                                                     PlaceRecord(1, "bot", "B", "basic")])
        while not again.play.is_over:
            await asyncio.sleep(0.01)
        idle = await tables.create("idle", rules, [PlaceRecord(0, "you", "Ann", None, "t1",
                                                               True), PlaceRecord(1, "open", "")])
        busy = await tables.create("busy", rules, [PlaceRecord(0, "you", "Bo", None, "t2",
                                                               True), PlaceRecord(1, "open", "")])
        async def nowhere(text: str) -> None:
            pass

        assert await again.play.rematch(Connection(nowhere, 0)) is None
        now = time.time()
        idle.last_active = again.last_active = now - 7200
        busy.last_active = now - 60
        expired = await tables.expire_idle(now)
        assert sorted(expired) == sorted([idle.id, again.id])
        assert [t.id for t in tables.open_tables()] == [busy.id]
        assert await store.load_table(idle.id) is None
        kept = await store.load_table(again.id)
        assert kept is not None and [m.number for m in kept.matches] == [1]
        assert [t.id for t, _ in await store.finished_matches()] == [again.id]
        await tables.stop()
        await store.close()

    asyncio.run(scenario())


# -- the turn timer ------------------------------------------------------------------------------
def test_the_turn_timer_lets_a_stand_in_play_an_idle_seat_which_its_person_reclaims(
        server: Server) -> None:
    r = server.http.post("/api/tables", json={
        "rules": {"players": 2, "target": 10}, "turn_timer": 1,
        "seats": [{"kind": "you", "name": "Ann"}, BOT]})
    answer = r.json()
    with server.ws(answer["id"], answer["token"]) as ws:
        state = until(ws, my_turn)
        assert state["table"]["turn_timer"] == 1
        assert state["clock"]["seat"] == state["you"] and state["clock"]["limit"] == 1
        # Ann does nothing: the clock runs out and the stand-in plays for her
        state = until(ws, lambda m: m["table"]["seats"][m["you"]]["away"])
        while True:  # every state comes: one whose action was the stand-in's, in Ann's seat
            before, state = state, next_state(ws)
            if state["seq"] == before["seq"] + 1 and before["deal"]["to_move"] == state["you"]:
                break
        assert state["table"]["seats"][state["you"]]["away"] is True
        ws.send(json.dumps({"type": "reclaim"}))
        back = until(ws, lambda m: not m["table"]["seats"][m["you"]]["away"])
        assert back["table"]["seats"][back["you"]]["away"] is False


def test_without_a_turn_timer_no_clock_runs(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you", "name": "Ann"}, BOT])
    with server.ws(answer["id"], answer["token"]) as ws:
        state = until(ws, my_turn)
        assert state["table"]["turn_timer"] is None and state["clock"] is None


def test_a_turn_timer_out_of_range_is_refused(server: Server) -> None:
    r = server.http.post("/api/tables", json={
        "rules": {"players": 2}, "turn_timer": 0, "seats": [{"kind": "you"}, BOT]})
    assert r.status_code == 422 and "turn_timer" in r.text


# -- the summary waits for the player ------------------------------------------------------------
def test_the_bots_wait_until_the_deal_summary_is_read(server: Server) -> None:
    answer = server.create({"players": 2, "target": 10, "stick_the_dealer": True},
                           [{"kind": "you", "name": "Ann"}, BOT])
    tid = answer["id"]
    with server.ws(tid, answer["token"], query="summary=wait") as ws:
        state = next_state(ws)
        deals = state["game"]["deal"]
        while True:  # play until a deal ends with the bot to move first in the next
            if my_turn(state):
                act(ws, state)
            state = next_state(ws)
            if state["game"]["deal"] > deals:
                deals = state["game"]["deal"]
                assert state["reading"] == [state["you"]]
                if state["deal"]["to_move"] != state["you"]:
                    break
                act(ws, state)  # acting is reading on
        held = state["seq"]
        time.sleep(0.3)  # the bot would have moved by now (it waits 0 s)
        assert latest_state(ws)["seq"] == held
        ws.send(json.dumps({"type": "continue"}))
        moved = until(ws, lambda m: m["seq"] > held)
        assert moved["reading"] == []


def test_a_page_that_does_not_show_summaries_holds_nothing_up(server: Server) -> None:
    answer = server.create({"players": 2, "stick_the_dealer": True},
                           [{"kind": "you", "name": "Ann"}, BOT])
    with server.ws(answer["id"], answer["token"]) as ws:
        state = next_state(ws)
        while state["game"]["deal"] == 0:
            if my_turn(state):
                act(ws, state)
            state = next_state(ws)
        assert state["reading"] == []


# -- the hint ------------------------------------------------------------------------------------
def test_the_hint_values_every_legal_choice_best_first_and_says_why(server: Server) -> None:
    answer = server.create({"players": 4},
                           [{"kind": "you", "name": "Ann"}, BOT, BOT, BOT])
    with server.ws(answer["id"], answer["token"]) as ws:
        state = until(ws, my_turn)
        while len(state["deal"]["legal"]) < 2:  # a choice to weigh
            act(ws, state)
            state = until(ws, my_turn)
        ws.send(json.dumps({"type": "hint"}))
        # the first hint loads the expert (compiled at its first use: long on a loaded
        # machine): the test waits for the hint, as long as that takes
        while (hint := recv(ws, 300))["type"] != "hint":
            pass
    legal = state["deal"]["legal"]
    assert hint["seq"] == state["seq"]
    assert sorted(v["action"] for v in hint["values"]) == sorted(legal)
    values = [v["value"] for v in hint["values"]]
    assert values == sorted(values, reverse=True)
    assert hint["action"] == hint["values"][0]["action"]
    assert hint["worlds"] > 0 and f"{hint['worlds']} ways" in hint["reason"]
    assert hint["values"][0]["words"] in hint["reason"]
