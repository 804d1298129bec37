"""A server killed mid-game and started again goes on exactly where it was.

The server runs as a child process (``python -m euchre.server``) and is stopped with
SIGKILL, so nothing gets a chance to flush: whatever was acknowledged must already be in
the database.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import httpx2
from serverkit import (
    Database,
    free_port,
    latest_state,
    recv,
    seat_all,
    server_process,
    ws_connect,
)
from websockets.sync.client import ClientConnection

from euchre.records import replay


def _play(conns: dict[int, ClientConnection], rng: random.Random, actions: int,
          log: list[tuple[int, int, str]]) -> dict[int, dict[str, Any]]:
    """Play ``actions`` of the people's moves at random; stop when it is a person's turn
    (no bot in flight).  Returns each connection's latest state."""
    done = 0
    while True:
        states = {seat: latest_state(ws) for seat, ws in conns.items()}
        seqs = {st["seq"] for st in states.values()}
        any_state = next(iter(states.values()))
        if any_state["over"] and len(seqs) == 1:
            return states
        movers = [seat for seat, st in states.items()
                  if st["deal"]["to_move"] == seat and st["deal"]["legal"] and not st["over"]]
        if len(seqs) != 1 or not movers:
            time.sleep(0.02)  # a bot is thinking, or a message is on its way
            continue
        if done >= actions:
            return states
        mover = movers[0]
        state = states[mover]
        action = rng.choice(state["deal"]["legal"])
        conns[mover].send(json.dumps({"type": "act", "action": action, "seq": state["seq"]}))
        log.append((state["seq"], mover, action))
        done += 1


def test_a_killed_server_resumes_every_game_exactly(database: Database) -> None:
    db = database("restart")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws_base = f"ws://127.0.0.1:{port}"
    rng = random.Random(7)
    log: list[tuple[int, int, str]] = []
    seats = [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"},
             {"kind": "friend", "name": "Cy"}, {"kind": "bot", "bot": "random"}]
    with server_process(db, port, bot_delay=0.02) as first:
        http = httpx2.Client(base_url=base, timeout=10)
        answer = http.post("/api/tables", json={"rules": {"players": 4, "target": 10,
                                                          "draw": True},
                                                "seats": seats, "private": False}).json()
        tid = answer["id"]
        tokens = seat_all(http, answer)
        with contextlib.ExitStack() as stack:
            conns = {place: stack.enter_context(ws_connect(ws_base, tid, tok))
                     for place, tok in tokens.items()}
            seat_of = {place: recv(ws)["seat"] for place, ws in conns.items()}
            by_seat = {seat_of[p]: ws for p, ws in conns.items()}
            # a dozen of the people's moves is about one deal: no game to 10 ends there
            before = _play(by_seat, rng, 12, log)
            assert not next(iter(before.values()))["over"]
            # a table of bots only, playing on its own when the server dies
            bots_only = http.post("/api/tables", json={
                "rules": {"players": 3, "target": 5},
                "seats": [{"kind": "bot", "bot": "basic"}] * 3}).json()["id"]
            time.sleep(0.3)
            bots_seq = http.get(f"/api/tables/{bots_only}").json()
            assert not bots_seq["over"], "the bots' table ended too soon to test a restart"
            first.kill()
            first.wait(10)
        http.close()

    with server_process(db, port, bot_delay=0.02):
        http = httpx2.Client(base_url=base, timeout=10)
        open_ids = {t["id"] for t in http.get("/api/tables").json()["open"]}
        assert tid in open_ids
        with contextlib.ExitStack() as stack:
            conns = {place: stack.enter_context(ws_connect(ws_base, tid, tok))
                     for place, tok in tokens.items()}
            for place, ws in conns.items():
                assert recv(ws)["seat"] == seat_of[place]  # the draw's seating is kept
            by_seat = {seat_of[p]: ws for p, ws in conns.items()}
            after = {seat: latest_state(ws) for seat, ws in by_seat.items()}
            for seat in by_seat:
                # nothing lost: the same hand, bids, tricks, score and version
                assert after[seat]["seq"] == before[seat]["seq"]
                assert after[seat]["deal"] == before[seat]["deal"]
                assert after[seat]["game"] == before[seat]["game"]
                assert after[seat]["last_deal"] == before[seat]["last_deal"]
            final = _play(by_seat, rng, 10**6, log)
            assert next(iter(final.values()))["over"]
        record = http.get(f"/api/tables/{tid}/matches/1/record").json()
        replayed = list(replay(record))
        assert list(replayed[-1].score or ()) == record["scores"]
        # every move the people made is in the record, in order, at its place
        actions = [a for d in record["deals"] for a in d["actions"]]
        for seq, _seat, action in log:
            assert actions[seq] == action
        # the bots' table went on by itself and finished
        deadline = time.monotonic() + 60
        while http.get(f"/api/tables/{bots_only}").json()["over"] is False:
            assert time.monotonic() < deadline, "the bots' table did not resume"
            time.sleep(0.1)
        bots_record = http.get(f"/api/tables/{bots_only}/matches/1/record").json()
        assert list(list(replay(bots_record))[-1].score or ()) == bots_record["scores"]
        http.close()
