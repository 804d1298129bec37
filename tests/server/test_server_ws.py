"""The WebSocket protocol: views, validation, errors that change nothing, resuming."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server, latest_state, recv
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from euchre import bots
from euchre.bots.basic import BasicBot


def state_of(ws: ClientConnection) -> dict[str, Any]:
    """The next state message (skipping others)."""
    while True:
        m = recv(ws)
        if m["type"] == "state":
            return m


def state_at(ws: ClientConnection, seq: int) -> dict[str, Any]:
    """The first state at version ``seq`` or later."""
    while True:
        m = state_of(ws)
        if m["seq"] >= seq:
            return m


def reply(ws: ClientConnection, message: Any) -> dict[str, Any]:
    """Send one message and return the next non-state message."""
    ws.send(message if isinstance(message, str | bytes) else json.dumps(message))
    while True:
        m = recv(ws)
        if m["type"] != "state":
            return m


@pytest.fixture
def two_humans(server: Server) -> Iterator[tuple[Server, str, list[ClientConnection]]]:
    """A two-handed table with two people connected, seat 0 and seat 1."""
    answer = server.create({"players": 2, "target": 3},
                           [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}])
    tid = answer["id"]
    with server.ws(tid, answer["token"]) as a, server.ws(tid, server.seat(answer, 1, "Bo")) as b:
        state_of(a)
        state_of(b)  # b's arrival: a gets a state with b connected, then b its own
        state_of(a)
        yield server, tid, [a, b]


def test_hello_then_a_state_with_only_what_the_seat_may_see(server: Server) -> None:
    answer = server.create({"players": 4},
                           [{"kind": "you", "name": "Ann"}, {"kind": "friend"},
                            {"kind": "friend"}, {"kind": "friend"}])
    with server.ws(answer["id"], answer["token"]) as ws:
        hello = recv(ws)
        assert hello["type"] == "hello" and hello["role"] == "player" and hello["seat"] == 0
        state = state_of(ws)
        assert state["you"] == 0 and len(state["deal"]["hand"]) == 5
        assert state["deal"]["hand_sizes"] == [5, 5, 5, 5]
        assert "kitty" not in json.dumps(state) and "hands" not in state["deal"]
    with server.ws(answer["id"]) as watcher:
        assert recv(watcher)["role"] == "spectator"
        state = state_of(watcher)
        assert state["you"] is None and state["deal"]["hand"] is None
        assert state["deal"]["legal"] == [] and state["deal"]["discards"] is None


@pytest.mark.parametrize(("message", "words"), [
    ("not json", "not a JSON object"),
    ("[1, 2]", "malformed"),
    ('{"type": "dance"}', "type"),
    ('{"type": "act"}', "action: Field required"),
    ('{"type": "act", "action": "pass", "extra": 1}', "extra"),
    ('{"type": "act", "action": "pass", "seq": -1}', "seq"),
    ('{"type": "act", "action": 7}', "action"),
    ('{"type": "act", "action": "' + "x" * 5000 + '"}', "longer than"),
])
def test_a_malformed_message_is_named_and_changes_nothing(
        two_humans: tuple[Server, str, list[ClientConnection]], message: str, words: str) -> None:
    _, _, (a, _) = two_humans
    before = latest_state(a)
    error = reply(a, message)
    assert error["type"] == "error" and error["code"] == "malformed"
    assert words in error["message"]
    after = latest_state(a)
    assert after["seq"] == before["seq"] and after["deal"] == before["deal"]


def test_a_binary_frame_is_refused(two_humans: tuple[Server, str, list[ClientConnection]]) -> None:
    _, _, (a, _) = two_humans
    error = reply(a, b"\x00\x01")
    assert error["code"] == "malformed" and "text frame" in error["message"]


def test_out_of_turn_illegal_and_stale_actions_are_refused_and_change_nothing(
        two_humans: tuple[Server, str, list[ClientConnection]]) -> None:
    _, _, (a, b) = two_humans
    sa, sb = latest_state(a), latest_state(b)
    mover, waiter = (a, b) if sa["deal"]["to_move"] == 0 else (b, a)
    seq = sa["seq"]
    error = reply(waiter, {"type": "act", "action": "pass"})
    assert error["code"] == "not_your_turn" and "turn" in error["message"]
    error = reply(mover, {"type": "act", "action": "trump Z"})
    assert error["code"] == "invalid_action" and "not an action" in error["message"]
    error = reply(mover, {"type": "act", "action": "play 9C"})
    assert error["code"] == "illegal" and "legal: pass, order" in error["message"]
    error = reply(mover, {"type": "act", "action": "order alone"})
    assert error["code"] == "illegal" and "no going alone two-handed" in error["message"]
    error = reply(mover, {"type": "act", "action": "pass", "seq": seq + 5})
    assert error["code"] == "stale"
    assert latest_state(a)["seq"] == seq == sb["seq"]
    mover.send(json.dumps({"type": "act", "action": "pass", "seq": seq}))
    assert state_at(a, seq + 1)["seq"] == seq + 1 and state_at(b, seq + 1)["seq"] == seq + 1


def test_a_card_that_does_not_follow_suit_is_refused_with_the_rule(
        two_humans: tuple[Server, str, list[ClientConnection]]) -> None:
    _, _, conns = two_humans
    states = [latest_state(c) for c in conns]
    for _ in range(2000):
        if states[0]["over"]:  # the deals so far gave no chance: play another game
            match = states[0]["table"]["match"]
            conns[0].send(json.dumps({"type": "rematch"}))
            states = [state_of(c) for c in conns]
            for i, c in enumerate(conns):
                while states[i]["table"]["match"] == match:
                    states[i] = state_of(c)
            continue
        seat = states[0]["deal"]["to_move"]
        deal = states[seat]["deal"]
        legal = deal["legal"]
        hand = deal["hand"]
        if deal["phase"] == "play" and len(legal) < len(hand):
            bad = next(c for c in hand if f"play {c}" not in legal)
            before = states[seat]["seq"]
            error = reply(conns[seat], {"type": "act", "action": f"play {bad}"})
            assert error["code"] == "illegal"
            assert "must follow" in error["message"] and "RULES §2, §8" in error["message"]
            assert latest_state(conns[seat])["seq"] == before
            return
        seq = states[seat]["seq"]
        conns[seat].send(json.dumps({"type": "act", "action": legal[-1], "seq": seq}))
        states = [state_at(c, seq + 1) for c in conns]
    pytest.fail("no chance to play a card that does not follow suit")


def test_a_spectator_may_not_act_and_sees_every_move(
        two_humans: tuple[Server, str, list[ClientConnection]]) -> None:
    server, tid, (a, b) = two_humans
    with server.ws(tid) as watcher:
        start = latest_state(watcher)
        assert reply(watcher, {"type": "act", "action": "pass"})["code"] == "spectator"
        assert reply(watcher, {"type": "rematch"})["code"] == "spectator"
        mover = a if start["deal"]["to_move"] == 0 else b
        mover.send(json.dumps({"type": "act", "action": "pass"}))
        seen = state_of(watcher)
        while seen["seq"] == start["seq"]:
            seen = state_of(watcher)
        assert seen["seq"] == start["seq"] + 1
        assert seen["deal"]["events"][-1]["action"] == "pass"


def test_reconnecting_with_the_seat_token_resumes(server: Server) -> None:
    answer = server.create({"players": 4},
                           [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"},
                            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "basic"}])
    tid, token = answer["id"], answer["token"]
    with server.ws(tid, token) as ws:
        state = state_of(ws)
        while state["deal"]["to_move"] != 0:
            state = state_of(ws)
        ws.send(json.dumps({"type": "act", "action": state["deal"]["legal"][0],
                            "seq": state["seq"]}))
        state = state_of(ws)
        while state["deal"]["to_move"] != 0 and not state["over"]:
            state = state_of(ws)
    with server.ws(tid, token) as again:
        assert recv(again)["seat"] == 0
        resumed = state_of(again)
    assert resumed["seq"] == state["seq"]
    assert resumed["deal"] == state["deal"]


def test_a_wrong_token_or_table_is_refused(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you"}, {"kind": "bot", "bot": "basic"}])
    with server.ws(answer["id"], "not-a-token") as ws:
        error = recv(ws)
        assert error["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
    with server.ws(answer["id"], "%C3%BC%C3%A9") as ws:  # not even ASCII
        assert recv(ws)["code"] == "bad_token"
    with server.ws("nosuchtable") as ws:
        assert recv(ws)["code"] == "no_table"


def test_ping_and_a_hint_without_the_expert_bot(
        two_humans: tuple[Server, str, list[ClientConnection]]) -> None:
    _, _, (a, _) = two_humans
    assert reply(a, {"type": "ping"})["type"] == "pong"
    if "expert" not in bots.BOTS:
        assert reply(a, {"type": "hint"})["code"] == "no_hint"


def test_the_hint_comes_from_the_expert_bot_when_it_exists(
        two_humans: tuple[Server, str, list[ClientConnection]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots.BOTS, "expert", BasicBot)  # stands in for the future bot
    _, _, conns = two_humans
    states = [latest_state(c) for c in conns]
    seat = states[0]["deal"]["to_move"]
    assert states[seat]["table"]["hint"] is True
    assert reply(conns[1 - seat], {"type": "hint"})["code"] == "not_your_turn"
    hint = reply(conns[seat], {"type": "hint"})
    assert hint["type"] == "hint" and hint["seq"] == states[seat]["seq"]
    assert hint["action"] in states[seat]["deal"]["legal"]


def test_a_rematch_starts_a_new_game_once_the_game_is_over(server: Server) -> None:
    answer = server.create({"players": 2, "target": 1},
                           [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"}])
    with server.ws(answer["id"], answer["token"]) as ws:
        state_of(ws)
        assert reply(ws, {"type": "rematch"})["code"] == "not_over"
        # reply() skips states: the bot may have moved meanwhile, so ask for the state now
        state = latest_state(ws)
        while not state["over"]:
            if state["deal"]["to_move"] == 0 and state["deal"]["legal"]:
                ws.send(json.dumps({"type": "act", "action": state["deal"]["legal"][0],
                                    "seq": state["seq"]}))
            state = state_of(ws)
        assert reply(ws, {"type": "act", "action": "pass"})["code"] == "game_over"
        ws.send(json.dumps({"type": "rematch"}))
        state = state_of(ws)
        assert state["table"]["match"] == 2 and not state["over"]
        assert state["game"]["scores"] == [0, 0]
    assert server.http.get(f"/api/tables/{answer['id']}/matches/1/record").status_code == 200
    assert server.http.get(f"/api/tables/{answer['id']}/matches/2/record").status_code == 409
