"""SIGTERM stops the server within a few seconds, the writes in flight finished.

The server runs as a child process with bots playing flat out at several tables, people
and a spectator connected, and one client that stopped reading with a large backlog (its
socket cannot even take a close frame).  After SIGTERM the process must end without
waiting for that client, and the database must hold, cleanly closed, every action any
client was shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import subprocess
from pathlib import Path

import httpx2
from serverkit import Database, claim_invite, free_port, latest_state, server_process, ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from euchre.server.app import open_storage
from euchre.server.table import Settings, Table

BOUND = 30
"""Seconds the test waits for the process: a server that waits for the stuck client
(until a keepalive gives up on it, over 40 s) fails; the goal is a few seconds."""


def test_sigterm_stops_the_server_soon_with_every_shown_action_stored(
        database: Database) -> None:
    db = database("db")
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    # no message rate and a large outbox, so the stuck client's backlog can build up
    with server_process(db, port, 0.0, "--rate-messages", "off",
                        "--outbox-kib", "65536") as proc:
        http = httpx2.Client(base_url=base, timeout=30)
        bots = [http.post("/api/tables", json={
            "rules": {"players": 4}, "seats": [{"kind": "bot", "bot": "basic"}] * 4,
        }).json()["id"] for _ in range(3)]
        people = http.post("/api/tables", json={
            "rules": {"players": 2}, "seats": [{"kind": "you"}, {"kind": "friend"}],
            "private": False}).json()
        sockets = contextlib.ExitStack()
        watcher = sockets.enter_context(ws_connect(ws_base, bots[0]))
        player = sockets.enter_context(ws_connect(ws_base, people["id"], people["token"]))
        friend = sockets.enter_context(
            ws_connect(ws_base, people["id"], claim_invite(http, people, 1)))
        stuck = sockets.enter_context(
            connect(f"{ws_base}/ws/{people['id']}", ping_interval=None, max_queue=1))
        stuck.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        for _ in range(5000):
            stuck.send('{"type": "sync"}')
        state = latest_state(player)
        mover = player if state["deal"]["to_move"] == 0 else friend
        mover_state = latest_state(mover)
        mover.send(json.dumps({"type": "act", "action": mover_state["deal"]["legal"][0],
                               "seq": mover_state["seq"]}))  # in flight at the signal
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(BOUND)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not stop within {BOUND} s") from None
        assert proc.returncode in (0, -signal.SIGTERM)
        shown: dict[str, int] = {}
        for table, ws in ((bots[0], watcher), (people["id"], player), (people["id"], friend)):
            try:
                while True:
                    m = json.loads(ws.recv(timeout=10))
                    if m["type"] == "state":
                        shown[table] = max(shown.get(table, 0), m["seq"])
            except ConnectionClosed:
                pass
        sockets.close()
        http.close()

    # closed cleanly: the write-ahead log was checkpointed and removed, the lock is free
    assert isinstance(db, str) or not Path(f"{db}-wal").exists()

    async def stored() -> dict[str, int]:
        store = open_storage(db, synchronous="NORMAL")
        counts = {}
        for tid in [*bots, people["id"]]:
            record = await store.load_table(tid)
            assert record is not None
            table = Table(record, store, Settings())  # every stored action replays
            counts[tid] = table.match.seq
        await store.close()
        return counts

    counts = asyncio.run(stored())
    assert shown, "no state was shown"
    for tid, seq in shown.items():
        assert counts[tid] >= seq, f"table {tid}: state {seq} was shown but not stored"
    assert all(counts[tid] > 0 for tid in bots)  # the bots were playing
