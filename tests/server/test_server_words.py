"""Issue 31, item 4: the server words a refused move in each player's own language, with
the words the terminal uses (:mod:`euchre.wording`), and never through the terminal's
process-wide language: two people at one table, in French and in Danish, are each told
why in their own language while this process's terminal speaks German."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server, latest_state, recv
from websockets.sync.client import ClientConnection

from euchre.cli.lang import current, use


def _refusal(ws: ClientConnection, action: str) -> dict[str, Any]:
    """Send ``action`` and return the error it gets (skipping states)."""
    ws.send(json.dumps({"type": "act", "action": action}))
    while True:
        m = recv(ws)
        if m["type"] == "error":
            return m


def _state_after(ws: ClientConnection, seq: int) -> dict[str, Any]:
    """The first state after version ``seq``."""
    while True:
        m = recv(ws)
        if m["type"] == "state" and m["seq"] > seq:
            return m


@pytest.fixture
def german_terminal() -> Iterator[None]:
    """This process's terminal speaks German for the test, and English again after."""
    use("de")
    yield
    use("en")


@pytest.mark.usefixtures("german_terminal")
def test_two_players_are_refused_in_their_own_languages_at_once(server: Server) -> None:
    """RULES §5 (no going alone two-handed): Ann's page speaks French, Bo's Danish; each
    is told why in their own words, and the terminal's language is left as it was."""
    answer = server.create({"players": 2, "target": 3},
                           [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}])
    tid = answer["id"]
    with server.ws(tid, answer["token"], "lang=fr") as ann, \
            server.ws(tid, server.seat(answer, 1, "Bo"), "lang=da") as bo:
        by_seat = {0: (ann, "fr"), 1: (bo, "da")}
        said = {}
        for _ in range(2):  # the first to bid is refused, passes, then the other
            seat = latest_state(ann)["deal"]["to_move"]
            ws, lang = by_seat[seat]
            error = _refusal(ws, "order alone")
            assert error["code"] == "illegal"
            said[lang] = error["params"]["reason"]
            before = latest_state(ws)["seq"]
            ws.send(json.dumps({"type": "act", "action": "pass", "seq": before}))
            _state_after(ws, before)
    assert said == {
        "fr": "Vous ne pouvez pas commander seul. On ne joue pas seul dans l’euchre à deux.",
        "da": "Du kan ikke bestille den alene. I euchre for to spiller ingen alene.",
    }
    assert current() == "de"
