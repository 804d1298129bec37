"""The limits under load: a flood of requests meets each limit, and a game plays on.

One server process on a loopback port (127.0.0.1 only), bounded in count and time: a few
clients that send 30,000 ``sync`` messages each and read nothing (the flood that once grew
the server by 40 MB), many tables created and seats taken at once, hints asked again and
again, while two people play a game at the same server.  Every refusal carries its
documented code, exactly the allowed number get through, the people's game sees no error,
and the server gives back what the flood cost.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2
import pytest
from serverkit import Database, free_port, server_process
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from euchre.bots import BOTS

HOST = "127.0.0.1"
TABLES, JOINS, HINTS = 20, 20, 5
"""The rates the server is given (per hour, per client address)."""
FLOODERS, FLOOD = 4, 30_000
PEOPLE = [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}]


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")  # pragma: no cover


async def _latest(ws: ClientConnection) -> dict[str, Any]:
    """The state now: what was queued is read up to the answer to a ping."""
    await ws.send('{"type": "sync"}')
    await ws.send('{"type": "ping"}')
    state = None
    while True:
        m: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if m["type"] == "state":
            state = m
        elif m["type"] == "pong" and state is not None:
            return state


async def _flood(url: str) -> Counter[str]:
    """Send FLOOD syncs reading nothing, then read what came: kinds and codes (and
    ``refused``: the address was refused a socket, having flooded already)."""
    seen: Counter[str] = Counter()
    try:
        async with connect(url, max_size=2**22) as ws:
            try:
                for _ in range(FLOOD):
                    await ws.send('{"type": "sync"}')
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 3))
                    seen[m.get("code") or m["type"]] += 1
            except ConnectionClosed as e:
                reason = e.rcvd.reason if e.rcvd else ""
                seen[reason if reason in ("slow_reader", "flooding") else "closed"] += 1
            except TimeoutError:
                pass
    except InvalidStatus as e:
        assert e.response.status_code == 429
        seen["refused"] += 1
    return seen


async def _create(http: httpx2.AsyncClient) -> tuple[int, str | None]:
    r = await http.post("/api/tables", json={"rules": {"players": 2}, "seats": PEOPLE})
    return r.status_code, r.json().get("code")


async def _join(http: httpx2.AsyncClient, tid: str) -> tuple[int, str | None]:
    r = await http.post(f"/api/tables/{tid}/join", json={"place": 1})
    return r.status_code, r.json().get("code")


async def _play(a: ClientConnection, b: ClientConnection, actions: int) -> list[str]:
    """Play ``actions`` random legal moves; the error codes met (none expected)."""
    rng = random.Random(5)
    errors = []
    conns = {0: a, 1: b}
    for _ in range(actions):
        state = await _latest(a)
        if state["over"]:
            break
        mover = conns[state["deal"]["to_move"]]
        mine = await _latest(mover)
        await mover.send(json.dumps({"type": "act", "action": rng.choice(mine["deal"]["legal"]),
                                     "seq": mine["seq"]}))
        while True:
            m = json.loads(await asyncio.wait_for(mover.recv(), 30))
            if m["type"] == "error":
                errors.append(m["code"])
                break
            if m["type"] == "state" and m["seq"] > mine["seq"]:
                break
    return errors


async def _hints(ws: ClientConnection, count: int) -> list[str]:
    codes = []
    for _ in range(count):
        await ws.send('{"type": "hint"}')
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if m["type"] in ("hint", "error"):
                codes.append(m.get("code", "hint"))
                break
    return codes


async def _load(base: str, pid: int) -> dict[str, Any]:
    ws_base = base.replace("http", "ws", 1)
    async with httpx2.AsyncClient(base_url=base, timeout=60) as http:
        game = (await http.post("/api/tables", json={"rules": {"players": 2},
                                                     "seats": PEOPLE,
                                                     "private": False})).json()
        lobby = (await http.post("/api/tables", json={
            "rules": {"players": 2}, "seats": [{"kind": "you"}, {"kind": "open"}]})).json()
        friend = (await http.post(f"/api/tables/{game['id']}/join", json={
            "invite": game["invites"][0]["invite"]})).json()["token"]
        url = f"{ws_base}/ws/{game['id']}"
        async with connect(f"{url}?token={game['token']}", max_size=2**22) as a, \
                connect(f"{url}?token={friend}", max_size=2**22) as b, \
                connect(f"{url}?token={game['token']}", max_size=2**22) as asker:
            # warm up: the first hint loads (and compiles) the expert bot
            while (await _latest(a))["deal"]["to_move"] != 0:
                assert await _play(a, b, 1) == []
            warm = await _hints(asker, 1)
            before = _rss_kib(pid)
            floods = [_flood(url) for _ in range(FLOODERS)]
            creates = [_create(http) for _ in range(3 * TABLES)]
            joins = [_join(http, lobby["id"]) for _ in range(2 * JOINS)]
            results = await asyncio.gather(
                _play(a, b, 60), _hints(asker, 2 * HINTS - 1), asyncio.gather(*floods),
                asyncio.gather(*creates), asyncio.gather(*joins))
            after = _rss_kib(pid)
        alive = (await http.get("/api/options")).status_code
    played, hints, flooded, created, joined = results
    return {"played": played, "hints": warm + hints, "flooded": flooded,
            "created": created, "joined": joined, "alive": alive, "rss": (before, after)}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_flood_meets_every_limit_with_its_code_and_a_game_plays_on(
        database: Database) -> None:
    port = free_port()
    with server_process(database("load"), port, 0.0,
                        "--rate-tables", f"{TABLES}/3600", "--rate-joins", f"{JOINS}/3600",
                        "--rate-hints", f"{HINTS}/3600",
                        # the rate is met here, not the bound on one address's tables
                        "--tables-per-address", "1000") as proc:
        out = asyncio.run(asyncio.wait_for(_load(f"http://{HOST}:{port}", proc.pid), 240))
    before, after = out["rss"]
    assert out["alive"] == 200
    assert out["played"] == []  # the people's game never met a limit
    assert out["hints"][0] == "hint" or "expert" not in BOTS
    # tables: two were made before the flood; the rest up to the rate, then 429s
    created = Counter(out["created"])
    assert created == {(201, None): TABLES - 2, (429, "rate_limited"): 2 * TABLES + 2}
    # seats: one was taken before the flood (the friend's invitation claimed); the rest
    # up to the rate (one open seat: one 200, then 409s), then 429s
    joined = Counter(status for status, _ in out["joined"])
    assert joined[429] == JOINS + 1 and joined[200] == 1 and joined[409] == JOINS - 2
    assert {code for status, code in out["joined"] if status == 429} == {"rate_limited"}
    assert out["hints"][HINTS:] == ["rate_limited"] * HINTS
    assert "rate_limited" not in out["hints"][:HINTS]
    for seen in out["flooded"]:
        # the rate's burst was answered (and the game's moves shown), the rest dropped
        # with a word, and the client, sending on, was disconnected (or its answers piled
        # up unread first); once one was, the address is refused new sockets for a while
        assert seen["state"] < FLOOD // 20, seen
        # (a flooder cut off while it sends may see the connection end before the close frame)
        assert seen["flooding"] + seen["slow_reader"] + seen["refused"] + seen["closed"] == 1, seen
    # bounded queues: the flood of 120,000 unread requests left the server about as it was
    assert after - before < 30 * 1024, f"the server grew by {(after - before) // 1024} MiB"
