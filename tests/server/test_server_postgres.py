"""Several ``euchre serve`` processes on one PostgreSQL database serve the same tables.

Each process is a real child process (``euchre serve --db postgresql://…``) on its own
loopback port: players on different processes play one game and every one of them, and
a spectator elsewhere, sees every move; the process playing a table's bots is killed
mid-deal and another takes the bots over; two processes given actions for one seat at
once apply exactly one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from pgcluster import Cluster, Outage
from serverkit import (
    claim_invite,
    free_port,
    latest_state,
    my_turn,
    recv,
    seat_all,
    wait_until_serving,
    ws_connect,
)
from test_server_leak import _check_table, _player
from websockets.sync.client import ClientConnection

from euchre.server.storage import is_postgres_url

pytest.importorskip("psycopg", reason="the PostgreSQL tests need the 'postgres' extra")
import psycopg

from euchre.server.schema import lock_key

EUCHRE = str(Path(sys.executable).with_name("euchre"))
BOT_SEAT = {"kind": "bot", "bot": "basic"}


@contextlib.contextmanager
def serving(url: str, count: int, *args: str) -> Iterator[list[tuple[subprocess.Popen[bytes],
                                                                         str]]]:
    """``count`` processes of ``euchre serve`` on one database, started together;
    yields (process, base URL) pairs and kills what is left on exit."""
    procs: list[tuple[subprocess.Popen[bytes], str]] = []
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    try:
        for _ in range(count):
            port = free_port()
            proc = subprocess.Popen(
                [EUCHRE, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", url,
                 "--bot-delay", "0", *args],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            procs.append((proc, f"http://127.0.0.1:{port}"))
        deadline = time.monotonic() + 120  # a loaded machine starts them slowly
        for proc, base in procs:
            wait_until_serving(proc, base, deadline)
        yield procs
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            if proc.stderr:
                proc.stderr.close()


def stored_actions(url: str, table_id: str) -> list[tuple[int, int, str]]:
    """(seq, seat, action) of a table's first match, as stored."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT seq, seat, action FROM actions WHERE table_id = %s "
                            "AND match = 1 ORDER BY seq", (table_id,)).fetchall()
    return [(int(a), int(b), str(c)) for a, b, c in rows]


def test_a_postgresql_url_is_told_from_a_file() -> None:
    assert is_postgres_url("postgresql://euchre@db/euchre")
    assert is_postgres_url("postgres://db/euchre")
    assert not is_postgres_url(Path("postgresql:/x"))  # a path is a file, whatever its name
    assert not is_postgres_url("euchre.sqlite3")


def test_four_players_on_four_processes_finish_a_game_and_a_spectator_sees_every_state(
        pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    with serving(url, 5) as procs:
        bases = [base for _, base in procs]
        http = httpx2.Client(base_url=bases[0], timeout=10)
        seats = [{"kind": "you", "name": "P0"}] + [
            {"kind": "friend", "name": f"P{i}"} for i in (1, 2, 3)]
        answer = http.post("/api/tables", json={"rules": {"players": 4, "target": 5},
                                                "seats": seats, "private": False}).json()
        tid = answer["id"]
        tokens = seat_all(http, answer)
        logs: dict[int | None, list[dict[str, Any]]] = {None: [], 0: [], 1: [], 2: [], 3: []}
        deadline = time.monotonic() + 10
        for base in bases:  # every process's lobby lists the new table
            while tid not in [t["id"] for t in httpx2.get(f"{base}/api/tables").json()["open"]]:
                assert time.monotonic() < deadline, f"{base} does not list the table"
                time.sleep(0.05)

        async def play() -> None:
            def ws(base: str) -> str:
                return base.replace("http", "ws") + f"/ws/{tid}"

            # the spectator first, on the fifth process, so that it sees state 0: the
            # players start once it has its first state
            watcher = asyncio.create_task(_player(ws(bases[4]), random.Random(9), logs[None]))
            deadline = time.monotonic() + 30
            while not any(m["type"] == "state" for m in logs[None]):
                assert time.monotonic() < deadline and not watcher.done(), "no state came"
                await asyncio.sleep(0.01)
            players = [asyncio.create_task(_player(f"{ws(bases[p])}?token={tokens[p]}",
                                                   random.Random(p), logs[p]))
                       for p in range(4)]
            await asyncio.wait_for(asyncio.gather(watcher, *players), 120)

        asyncio.run(play())
        record = http.get(f"/api/tables/{tid}/matches/1/record").json()
        for base in bases[1:]:  # every process tells the same finished game
            assert httpx2.get(f"{base}/api/tables/{tid}/matches/1/record").json() == record
        http.close()
    checked = _check_table({"records": [record], "logs": logs, "tokens": list(tokens.values())})
    assert checked > 100
    seen = [m["seq"] for m in logs[None] if m["type"] == "state"]
    moves = sum(len(d["actions"]) for d in record["deals"])
    # the spectator saw the states from the first to the last, in order: the newest one
    # only where several came faster than it read (a spectator's states are coalesced)
    assert seen[0] == 0 and seen[-1] == moves
    assert seen == sorted(seen)
    assert [a for _, _, a in stored_actions(url, tid)] == [
        a for d in record["deals"] for a in d["actions"]]


def test_when_the_process_playing_the_bots_dies_another_takes_them_over(
        pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.new_database()
    with serving(url, 3, "--takeover", "0.2") as procs:
        (first, base_a), (_, base_b), (_, base_c) = procs
        seats = [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"},
                 {"kind": "friend", "name": "Cy"}, {"kind": "bot", "bot": "random"}]
        answer = httpx2.post(f"{base_a}/api/tables", timeout=10, json={
            "rules": {"players": 4, "target": 5}, "seats": seats, "private": False}).json()
        tid = answer["id"]
        tokens = seat_all(httpx2.Client(base_url=base_a, timeout=10), answer)
        # the process that made the table plays its bots: it holds the table's lock
        with psycopg.connect(url) as conn:
            holders = conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND classid::bigint * 4294967296 + objid::bigint = %s",
                (lock_key(tid),)).fetchone()
        assert holders == (1,)
        logs: dict[int | None, list[dict[str, Any]]] = {None: [], 0: [], 2: []}
        killed_at: list[int] = []

        async def play() -> None:
            def ws(base: str) -> str:
                return base.replace("http", "ws") + f"/ws/{tid}"

            held = asyncio.Event()  # Ann holds the game at her turn, mid-deal ...
            killed = asyncio.Event()  # ... until the bots' process is gone

            async def ann_waits(state: dict[str, Any]) -> None:
                if not killed.is_set() and state["seq"] >= 12 and state["deal"]["events"]:
                    killed_at.append(state["seq"])
                    held.set()
                    await killed.wait()

            players = [asyncio.create_task(_player(f"{ws(base_b)}?token={tokens[0]}",
                                                   random.Random(0), logs[0], ann_waits)),
                       asyncio.create_task(_player(f"{ws(base_c)}?token={tokens[2]}",
                                                   random.Random(2), logs[2]))]
            watcher = asyncio.create_task(_player(ws(base_c), random.Random(5), logs[None]))
            await asyncio.wait_for(held.wait(), 120)  # mid-deal, the bots having played some
            first.send_signal(signal.SIGKILL)
            killed.set()
            await asyncio.wait_for(asyncio.gather(watcher, *players), 120)

        asyncio.run(play())
        assert first.wait(10) == -signal.SIGKILL
        record = httpx2.get(f"{base_b}/api/tables/{tid}/matches/1/record", timeout=10).json()
        info = httpx2.get(f"{base_c}/api/tables/{tid}", timeout=10).json()
    assert info["over"] and killed_at
    moves = [a for d in record["deals"] for a in d["actions"]]
    assert len(moves) > killed_at[0] + 1  # the game went on past the kill
    # nothing lost, nothing doubled: the stored actions are the record's, one per seq
    stored = stored_actions(url, tid)
    assert [s for s, _, _ in stored] == list(range(len(moves)))
    assert [a for _, _, a in stored] == moves
    # the record replays to the same result
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([EUCHRE, "replay", "--json", str(path)], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert len(out) == len(record["deals"])
    assert json.loads(out[-1])["score"] == record["scores"]


def _act_and_collect(ws: ClientConnection, action: str, seq: int, go: threading.Barrier,
                     out: list[dict[str, Any]]) -> None:
    """Send an action when every sender is ready, then keep what comes back up to the
    answer of a ping sent after it."""
    go.wait()
    ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
    ws.send(json.dumps({"type": "ping"}))
    while True:
        m = recv(ws)
        if m["type"] == "pong":
            return
        out.append(m)


def _state_at(ws: ClientConnection, seq: int) -> dict[str, Any]:
    """The connection's state once it is at ``seq`` or later."""
    deadline = time.monotonic() + 10
    while (state := latest_state(ws))["seq"] < seq:
        assert time.monotonic() < deadline, f"state {seq} never came"
        time.sleep(0.01)
    return state


def test_actions_for_one_seat_on_two_processes_at_once_apply_exactly_one(
        pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    with serving(url, 2) as procs:
        (_, base_a), (_, base_b) = procs
        answer = httpx2.post(f"{base_a}/api/tables", timeout=10, json={
            "rules": {"players": 2, "target": 5},
            "seats": [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}],
            "private": False,
        }).json()
        tid, token = answer["id"], answer["token"]
        other = claim_invite(httpx2.Client(base_url=base_a, timeout=10), answer, 1)
        with contextlib.ExitStack() as stack:
            twins = [stack.enter_context(ws_connect(base.replace("http", "ws"), tid, token))
                     for base in (base_a, base_b)]
            rival = stack.enter_context(ws_connect(base_b.replace("http", "ws"), tid, other))
            for ws in (*twins, rival):
                assert recv(ws)["type"] == "hello"
            rng = random.Random(3)
            races = 0
            seq = 0
            while races < 8:
                state = _state_at(twins[0], seq)
                assert not state["over"]
                seq = state["seq"]
                legal = state["deal"]["legal"]
                if state["deal"]["to_move"] != state["you"]:  # the other seat: one move
                    theirs = _state_at(rival, seq)
                    rival.send(json.dumps({"type": "act", "seq": seq,
                                           "action": rng.choice(theirs["deal"]["legal"])}))
                    seq += 1
                    continue
                _state_at(twins[1], seq)  # both processes are at this state
                # the same seat, the same state, two processes, two (maybe different) moves
                picks = [legal[0], legal[-1]]
                answers: list[list[dict[str, Any]]] = [[], []]
                go = threading.Barrier(2)
                threads = [threading.Thread(target=_act_and_collect,
                                            args=(ws, pick, seq, go, got))
                           for ws, pick, got in zip(twins, picks, answers, strict=True)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(20)
                errors = [[m for m in got if m["type"] == "error"] for got in answers]
                assert sorted(len(e) for e in errors) == [0, 1], errors  # one refused
                refused = next(e[0] for e in errors if e)
                assert refused["code"] in ("stale", "not_your_turn"), refused
                applied = picks[[len(e) for e in errors].index(0)]
                stored = stored_actions(url, tid)
                assert len(stored) == seq + 1  # exactly one more action
                assert stored[seq][2] == applied
                for ws in (*twins, rival):  # and every connection sees the same next state
                    assert _state_at(ws, seq + 1)["seq"] == seq + 1
                seq += 1
                races += 1


def test_euchre_serve_on_an_unreachable_database_exits_with_one_line_and_no_password(
        ) -> None:
    from typer.testing import CliRunner

    from euchre.cli import app as cli_app

    port = free_port()  # nothing listens there
    result = CliRunner().invoke(cli_app, [
        "serve", "--db", f"postgresql://euchre:secret@127.0.0.1:{port}/euchre"])
    assert result.exit_code == 1
    assert "cannot be used" in result.output and f"euchre@127.0.0.1:{port}" in result.output
    assert "secret" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_database_is_migrated_once_by_processes_starting_together(
        pg_cluster: Cluster) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from euchre.server.pgstorage import migrate
    from euchre.server.schema import VERSION

    url = pg_cluster.new_database()
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(migrate, [url] * 4)) == [VERSION] * 4
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(VERSION,)]


def _join_open_seat(url: str, name: str, go: threading.Barrier,
                    answers: list[httpx2.Response]) -> None:
    go.wait()
    answers.append(httpx2.post(url, timeout=10, json={"place": 1, "name": name}))


def test_one_open_seat_asked_for_on_two_processes_at_once_goes_to_exactly_one(
        pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    with serving(url, 2) as procs:
        (_, base_a), (_, base_b) = procs
        for race in range(5):
            tid = httpx2.post(f"{base_a}/api/tables", timeout=10, json={
                "rules": {"players": 2, "target": 5},
                "seats": [{"kind": "you", "name": "Ann"}, {"kind": "open"}],
            }).json()["id"]
            assert httpx2.get(f"{base_b}/api/tables/{tid}", timeout=10).status_code == 200
            answers: list[httpx2.Response] = []
            go = threading.Barrier(2)
            threads = [threading.Thread(target=_join_open_seat,
                                        args=(f"{base}/api/tables/{tid}/join", f"P{race}{i}",
                                              go, answers))
                       for i, base in enumerate((base_a, base_b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(20)
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [(r.status_code, r.text) for r in answers]
            refused = next(r for r in answers if r.status_code == 409).json()
            assert refused["code"] == "seat_taken"
            with psycopg.connect(url) as conn:
                row = conn.execute("SELECT claimed, name FROM places WHERE table_id = %s "
                                   "AND place = 1", (tid,)).fetchone()
            assert row is not None and row[0] is True
            # both processes come to name the one who got it (the other hears it by NOTIFY)
            deadline = time.monotonic() + 10
            while True:
                names = {httpx2.get(f"{base}/api/tables/{tid}", timeout=10)
                         .json()["seats"][1]["name"] for base in (base_a, base_b)}
                if names == {row[1]} or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert names == {row[1]}


def _claim(url: str, invite: str, go: threading.Barrier,
           answers: dict[str, httpx2.Response]) -> None:
    go.wait()
    answers[invite] = httpx2.post(url, timeout=20, json={"invite": invite, "name": invite[:6]})


def _until_dealt(ws: ClientConnection) -> dict[str, Any]:
    """The first state of a table that has started (the cards dealt); every message
    waits at most 20 s (the table waits for nothing else)."""
    while True:
        m = recv(ws, 20)
        if m["type"] == "state" and m["table"]["started"]:
            return m


def test_the_last_guests_arriving_at_once_on_two_processes_start_the_game_every_time(
        pg_cluster: Cluster) -> None:
    # the host invites three friends; they open their invitations at the same moment, on
    # two server processes: whichever claim the database stores last sees every seat
    # taken and deals, in every round (the decision is the database's, not a process's
    # memory of the others' claims, which may be a moment behind)
    url = pg_cluster.new_database()
    with serving(url, 2, "--tables-per-address", "100") as procs:
        bases = [base for _, base in procs]
        for race in range(25):
            answer = httpx2.post(f"{bases[0]}/api/tables", timeout=20, json={
                "rules": {"players": 4, "target": 5},
                "seats": [{"kind": "you", "name": "Host"}] + [{"kind": "friend"}] * 3,
                "private": False}).json()
            tid = answer["id"]
            for base in bases:  # both processes hold the table, waiting
                info = httpx2.get(f"{base}/api/tables/{tid}", timeout=20).json()
                assert not info["started"]
            answers: dict[str, httpx2.Response] = {}
            go = threading.Barrier(3)
            threads = [threading.Thread(
                target=_claim, args=(f"{bases[(race + i) % 2]}/api/tables/{tid}/join",
                                     invite["invite"], go, answers))
                for i, invite in enumerate(answer["invites"])]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(r.status_code for r in answers.values()) == [200] * 3, [
                r.text for r in answers.values()]
            with psycopg.connect(url) as conn:
                row = conn.execute("SELECT options->'started' FROM tables WHERE id = %s",
                                   (tid,)).fetchone()
            assert row == (True,), f"round {race}: every seat is taken but no deal"
            tokens = [answers[i["invite"]].json()["token"] for i in answer["invites"]]
            for base, token in zip(bases, tokens, strict=False):  # each process deals
                with ws_connect(base.replace("http", "ws"), tid, token) as ws:
                    state = _until_dealt(ws)
                    assert state["deal"]["hand"], state["deal"]


def test_a_five_second_database_outage_is_a_line_per_failure_and_a_players_message(
        pg_cluster: Cluster, tmp_path: Path) -> None:
    # the database goes away for five seconds under two processes, a game on: the log
    # gets one line per failure (no traceback, no message of the driver's on several
    # lines, not one line per reconnection try), the player whose action failed is told
    # in words the page translates (code "storage"), not the driver's, and the game goes
    # on once the database is back
    relay = Outage(pg_cluster.port)
    url = relay.url(pg_cluster.new_database())
    logs = [tmp_path / f"server{i}.log" for i in range(2)]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    procs = []
    try:
        for log in logs:
            port = free_port()
            with log.open("w") as out:
                procs.append((subprocess.Popen(
                    [EUCHRE, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", url,
                     "--bot-delay", "0"], env=env, stdout=subprocess.DEVNULL, stderr=out),
                    f"http://127.0.0.1:{port}"))
        for proc, base in procs:
            wait_until_serving(proc, base, time.monotonic() + 120)
        base_a, base_b = procs[0][1], procs[1][1]
        answer = httpx2.post(f"{base_a}/api/tables", timeout=20, json={
            "rules": {"players": 2, "target": 10},
            "seats": [{"kind": "you", "name": "Ann"}, BOT_SEAT], "private": False}).json()
        with ws_connect(base_b.replace("http", "ws"), answer["id"], answer["token"]) as ws:
            state = my_turn(ws)
            before = [log.stat().st_size for log in logs]
            relay.cut()
            cut = time.monotonic()
            ws.send(json.dumps({"type": "act", "action": state["deal"]["legal"][0],
                                "seq": state["seq"]}))
            refused = recv(ws, 60)
            assert refused["type"] == "error" and refused["code"] == "storage", refused
            assert "database" in refused["message"] and "connection" not in refused["message"]
            while time.monotonic() - cut < 5:  # the rest of the five seconds
                time.sleep(0.1)
            relay.restore()
            # once it is back, the same action is stored and the game goes on
            deadline = time.monotonic() + 60
            while True:
                ws.send(json.dumps({"type": "act", "action": state["deal"]["legal"][0],
                                    "seq": state["seq"]}))
                m = recv(ws, 60)
                while m["type"] not in ("error", "state"):
                    m = recv(ws, 60)
                if m["type"] == "state":
                    break
                assert m["code"] == "storage" and time.monotonic() < deadline, m
                time.sleep(0.5)
        for proc, _ in procs:
            proc.send_signal(signal.SIGTERM)
            proc.wait(20)
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        relay.close()
    for log, start in zip(logs, before, strict=True):
        lines = log.read_text()[start:].splitlines()
        assert not [line for line in lines if line[:1].isspace() or "Traceback" in line], lines
        assert len(lines) <= 12, lines  # one a failure: not one a try, not one a second
