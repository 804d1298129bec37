"""One server per database; a write that collides with a stored one reloads the table.

A second server on a database in use would serve tables that go stale behind the first
one's writes (every action refused by the database, bots retrying forever): it is refused
at start-up.  Should storage still hold a write the table did not know of (another
writer), the table reloads what storage holds and plays on from there.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from serverkit import (
    Database,
    free_port,
    latest_state,
    recv,
    running_server,
    server_command,
    server_process,
)
from typer.testing import CliRunner

from euchre.actions import Action
from euchre.cli import app as cli_app
from euchre.game import Game
from euchre.rules import Rules
from euchre.server.storage import SQLiteStorage, StorageConflict, StorageError


def test_a_second_storage_on_a_database_in_use_is_refused_until_the_first_closes(
        tmp_path: Path) -> None:
    async def main() -> None:
        first = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        with pytest.raises(StorageError, match=r"in use by another euchre server \(process"):
            SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        other = SQLiteStorage(tmp_path / "other.sqlite3", synchronous="NORMAL")
        await other.close()
        await first.close()
        again = SQLiteStorage(tmp_path / "db.sqlite3", synchronous="NORMAL")
        await again.close()

    asyncio.run(main())


def test_euchre_serve_on_a_database_in_use_exits_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"

    async def hold() -> None:
        store = SQLiteStorage(db, synchronous="NORMAL")
        try:
            result = CliRunner().invoke(cli_app, ["serve", "--db", str(db), "--port",
                                                  str(free_port())])
        finally:
            await store.close()
        assert result.exit_code == 1
        assert "is in use by another euchre server" in result.output
        assert "Traceback" not in result.output

    asyncio.run(hold())


def test_a_second_server_process_on_the_same_database_refuses_to_start(
        tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    port = free_port()
    with server_process(db, port):
        second = subprocess.run(server_command(db, free_port()), capture_output=True,
                                text=True, timeout=120)
        assert second.returncode == 1
        assert "in use by another euchre server" in second.stderr
        # the first goes on serving
        r = httpx2.get(f"http://127.0.0.1:{port}/api/options", timeout=10)
        assert r.status_code == 200


def _state_at(ws: Any, seq: int) -> dict[str, Any]:
    while True:
        m = recv(ws)
        if m["type"] == "state" and m["seq"] >= seq:
            return m


def _store_behind(db: Path | str, table_id: str, seq: int, seat: int, action: str) -> None:
    """Store an action as another writer would, the server not told."""
    if isinstance(db, Path):
        with sqlite3.connect(db) as side:
            side.execute("INSERT INTO actions (table_id, match, seq, seat, action, at) "
                         "VALUES (?, 1, ?, ?, ?, 0)", (table_id, seq, seat, action))
        return
    import psycopg

    with psycopg.connect(db) as conn:
        conn.execute("INSERT INTO actions (table_id, match, seq, seat, action, at) "
                     "VALUES (%s, 1, %s, %s, %s, 0)", (table_id, seq, seat, action))


def test_a_person_whose_write_collides_gets_the_stored_table_and_plays_on(
        database: Database) -> None:
    db = database("db")
    with running_server(db) as server:
        answer = server.create({"players": 2}, [{"kind": "you"}, {"kind": "friend"}])
        tid = answer["id"]
        with server.ws(tid, answer["token"]) as a, \
                server.ws(tid, server.seat(answer, 1)) as b:
            conns = [a, b]
            state = latest_state(a)
            seq, mover = state["seq"], state["deal"]["to_move"]
            legal = latest_state(conns[mover])["deal"]["legal"]
            assert legal[:2] == ["pass", "order"]
            # another writer stores the mover's 'order' behind the server's back
            _store_behind(db, tid, seq, mover, "order")
            conns[mover].send(json.dumps({"type": "act", "action": "pass", "seq": seq}))
            while (m := recv(conns[mover]))["type"] != "error":
                pass
            assert m["code"] == "stale" and "reloaded" in m["message"]
            assert m["seq"] == seq + 1
            for ws in conns:
                after = latest_state(ws)
                assert after["seq"] == seq + 1
                assert after["deal"]["events"][-1] == {"seat": mover, "action": "order"}
            # the game goes on from the stored state
            nxt = latest_state(conns[mover])
            to_move = nxt["deal"]["to_move"]
            action = latest_state(conns[to_move])["deal"]["legal"][0]
            conns[to_move].send(json.dumps({"type": "act", "action": action,
                                            "seq": seq + 1}))
            assert _state_at(a, seq + 2)["seq"] == seq + 2


def test_a_collision_that_leaves_a_bot_to_move_lets_the_bot_play(database: Database) -> None:
    db = database("db")
    with running_server(db) as server:
        answer = server.create({"players": 2},
                               [{"kind": "you"}, {"kind": "bot", "bot": "basic"}])
        tid = answer["id"]
        with server.ws(tid, answer["token"]) as ws:
            state = latest_state(ws)
            while state["deal"]["to_move"] != 0:  # the bot bids first: wait for our turn
                state = _state_at(ws, state["seq"] + 1)
            seq = state["seq"]
            legal = state["deal"]["legal"]
            # another writer stores our move: then it is the bot's turn
            _store_behind(db, tid, seq, 0, legal[0])
            ws.send(json.dumps({"type": "act", "action": legal[-1], "seq": seq}))
            assert _state_at(ws, seq + 2)["seq"] >= seq + 2  # the bot played on


class _SecondWriter(SQLiteStorage):
    """Storage where, before the first write of ``seat``, another writer has already
    stored that same action (as a stale second server would)."""

    seat: int | None = None
    collisions = 0

    async def append_action(self, table_id: str, match: int, index: int, seat: int,
                            action: str, token: str | None = None) -> None:
        if seat == self.seat:
            self.seat = None
            await super().append_action(table_id, match, index, seat, action)
            try:
                await super().append_action(table_id, match, index, seat, action)
            except StorageConflict:
                self.collisions += 1
                raise
        await super().append_action(table_id, match, index, seat, action)


def test_a_bot_whose_write_collides_plays_on_from_the_stored_table(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    store = _SecondWriter(db, synchronous="NORMAL")
    store.seat = 1  # the bot's seat (no draw: places are seats)
    with running_server(db, storage=store) as server:
        answer = server.create({"players": 2, "target": 3},
                               [{"kind": "you"}, {"kind": "bot", "bot": "basic"}])
        tid = answer["id"]
        with server.ws(tid, answer["token"]) as ws:
            played = 0
            while True:  # the bot acts between the person's moves
                state = latest_state(ws)
                deal = state["deal"]
                mine = deal["to_move"] == 0 and bool(deal["legal"])
                if state["over"] or (mine and played >= 12):
                    break  # the bot is not at work: storage holds what was shown
                if mine:
                    ws.send(json.dumps({"type": "act", "action": deal["legal"][-1],
                                        "seq": state["seq"]}))
                    _state_at(ws, state["seq"] + 1)
                    played += 1
                else:
                    time.sleep(0.01)
    final = state
    assert store.collisions == 1
    # storage holds each action once, and they replay to the state the table showed
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seq, seat, action FROM actions WHERE table_id = ? "
                            "ORDER BY seq", (tid,)).fetchall()
        seed = conn.execute("SELECT seed FROM matches WHERE table_id = ?",
                            (tid,)).fetchone()[0]
    assert [r[0] for r in rows] == list(range(final["seq"]))
    game = Game(Rules(players=2, target=3), seed)
    for _, _, text in rows:
        game.apply(Action.parse(text))
    assert list(game.scores) == final["game"]["scores"]
