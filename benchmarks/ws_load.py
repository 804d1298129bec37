"""Load on the web server: many tables of random players over real WebSockets.

Starts ``python -m euchre.server`` on a loopback port with a fresh SQLite file (the
default ``synchronous=FULL``: every action is synced to disk before it is broadcast),
opens ``--tables`` tables whose every seat is a random player connected by its own
WebSocket, and lets them play for ``--seconds``.  A player answers each state in which
it is to move with a uniformly random legal action after ``--think`` seconds (drawn
uniformly from 0 to twice that, so ``--think 0`` plays flat out).

It measures actions per second and the delay from a move being sent to each seat
receiving the state it produced (the broadcast), p50/p99/max, both per receiving seat
and until the last seat of the table has it; and how busy the server's core was.

On PostgreSQL (``--postgres``: a throwaway cluster of Debian's ``postgresql``, durable,
started and deleted by the benchmark; or ``--db URL``, an existing empty database) it runs
``--processes`` server processes on the one database; each WebSocket goes to the next
process in turn (``--spread seat``: a table's players on different processes, as behind a
proxy without sticky sessions) or a table's to one (``--spread table``).  It then also
measures the database's CPU (the throwaway cluster's processes) per action.

With ``--spectators N`` it measures the fan-out of a crowd instead: one table (waiting for
its invited player, so nothing moves but the crowd), its creator connected, then N
spectators connecting one after another, each waiting for its state, then leaving one
after another.  It counts every message (and byte) every socket of the table received
while the crowd came and went, and the server's CPU time: the cost of a crowd, which
must grow as O(N).

With ``--crowd N`` the players' tables play as usual while one more table, a person
playing flat out (with a rematch at each game's end) against three bots, is watched by N
spectators: the players' figures then say what a crowd at another table costs them.  The
crowd and its player run in a process of their own, so that they do not slow the
measuring players down.

Loopback only, bounded in connections and time; it stops by itself and kills the servers.

    .venv/bin/python benchmarks/ws_load.py --tables 200 --seconds 30
    .venv/bin/python benchmarks/ws_load.py --tables 200 --think 0   # flat out
    .venv/bin/python benchmarks/ws_load.py --tables 400 --postgres --processes 2
    .venv/bin/python benchmarks/ws_load.py --spectators 1500
    .venv/bin/python benchmarks/ws_load.py --tables 50 --flooders 20
    .venv/bin/python benchmarks/ws_load.py --tables 50 --crowd 1000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

# the throwaway PostgreSQL cluster and the free port are the tests' helpers, not the package's
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
from pgcluster import free_port

HOST = "127.0.0.1"  # loopback only
MAX_TABLES = 500
MAX_SECONDS = 300.0
MAX_SPECTATORS = 5000


@dataclass
class Stats:
    """What the players saw."""

    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """(table, seq of the state answered) -> when the move was sent."""
    seen: dict[tuple[str, int], int] = field(default_factory=dict)
    """(table, seq) -> how many seats have received that state."""
    per_seat: list[float] = field(default_factory=list)
    all_seats: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    games: int = 0
    measuring: bool = False


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(stat.parent.name))
    return out


def _cpu_of(pids: list[int], postmaster: int | None) -> float:
    """CPU seconds of the servers, and of the database's processes (backends come and go:
    each is counted while it lives, which the pools keep for the whole run)."""
    db = [postmaster, *_children(postmaster)] if postmaster is not None else []
    return sum(_cpu_seconds(p) for p in [*pids, *db])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), or 0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _player(ws: ClientConnection, table: str, seats: int, think: float,
                  rng: random.Random, stats: Stats, stop: asyncio.Event) -> None:
    acted = -1
    async for raw in ws:
        if stop.is_set():
            return
        m = json.loads(raw)
        kind = m["type"]
        if kind == "error":
            if m["code"] != "stale":
                stats.errors += 1
            continue
        if kind != "state":
            continue
        seq = m["seq"]
        now = time.perf_counter()
        key = (table, seq)
        count = stats.seen.get(key, 0) + 1
        stats.seen[key] = count
        sent = stats.sent.get((table, seq - 1))
        if sent is not None and stats.measuring and count <= seats:
            stats.per_seat.append(now - sent)
            if count == seats:
                stats.all_seats.append(now - sent)
        if m["over"]:
            if m["you"] == 0 and seq > acted:
                acted = seq
                stats.games += 1
                await ws.send(json.dumps({"type": "rematch"}))
            continue
        deal = m["deal"]
        if deal["to_move"] != m["you"] or not deal["legal"] or seq <= acted:
            continue
        acted = seq
        if think > 0:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        if stop.is_set():
            return
        action = rng.choice(deal["legal"])
        stats.sent[(table, seq)] = time.perf_counter()
        if stats.measuring:
            stats.actions += 1
        await ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))


async def _run(args: argparse.Namespace, bases: list[str]) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    players = args.players
    seats = [{"kind": "you", "name": "P0"}] + [
        {"kind": "friend", "name": f"P{i}"} for i in range(1, players)]
    conns: list[tuple[ClientConnection, str]] = []
    turn = 0
    async with httpx2.AsyncClient(timeout=30) as http:
        for k in range(args.tables):
            base = bases[k % len(bases)]
            r = await http.post(f"{base}/api/tables", json={"rules": {"players": players},
                                                            "seats": seats, "private": False})
            r.raise_for_status()
            answer = r.json()
            tokens = [answer["token"]]
            for invite in answer["invites"]:  # each friend claims the seat's invitation
                joined = await http.post(f"{base}/api/tables/{answer['id']}/join",
                                         json={"invite": invite["invite"]})
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            for token in tokens:
                if args.spread == "seat":
                    base = bases[turn % len(bases)]
                    turn += 1
                ws = await connect(f"ws://{base.split('://')[1]}/ws/{answer['id']}"
                                   f"?token={token}", max_size=2**22)
                conns.append((ws, answer["id"]))
    tasks = [asyncio.create_task(_player(ws, tid, players, args.think,
                                         random.Random(rng.random()), stats, stop))
             for ws, tid in conns]
    flood: dict[str, int] = {"sent": 0, "closed": 0}
    flooding = None
    if args.flooders:  # in a process of their own, so they do not slow the players down
        target = f"ws://{bases[0].split('://')[1]}/ws/{conns[0][1]}"
        results: multiprocessing.Queue[dict[str, int]] = multiprocessing.Queue()
        flooding = multiprocessing.Process(
            target=_flood, args=(target, args.flooders, args.warmup + args.seconds, results))
        flooding.start()
    crowding = None
    if args.crowd:
        watched: multiprocessing.Queue[dict[str, int]] = multiprocessing.Queue()
        crowding = multiprocessing.Process(
            target=_watched_table, args=(bases[0], args.crowd, args.warmup + args.seconds,
                                         watched))
        crowding.start()
        ready = await asyncio.to_thread(watched.get, True, 300)  # the crowd is there
    await asyncio.sleep(min(args.warmup, args.seconds))
    stats.measuring = True
    started = time.perf_counter()
    cpu0 = _cpu_of(args.server_pids, None)
    db0 = _cpu_of([], args.postmaster)
    mine0 = _cpu_seconds(os.getpid())
    await asyncio.sleep(args.seconds)
    elapsed = time.perf_counter() - started
    cpu1 = _cpu_of(args.server_pids, None)
    db1 = _cpu_of([], args.postmaster)
    mine1 = _cpu_seconds(os.getpid())
    stats.measuring = False
    stop.set()
    if flooding is not None:
        flood = results.get(timeout=60)
        flooding.join(10)
    crowd = {"spectators": 0, "states": 0, "actions": 0}
    if crowding is not None:
        crowd = await asyncio.to_thread(watched.get, True, 120)
        crowd["spectators"] = ready["spectators"]
        crowding.join(10)
    for ws, _ in conns:
        await ws.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    def pct(values: list[float], q: float) -> float:
        if not values:
            return float("nan")
        values = sorted(values)
        return 1000 * values[min(len(values) - 1, int(q * len(values)))]

    return {
        "tables": args.tables,
        "connections": len(conns),
        "players": players,
        "think_s": args.think,
        "seconds": round(elapsed, 2),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "messages_per_s": round(len(stats.per_seat) / elapsed, 1),
        "games_finished": stats.games,
        "errors": stats.errors,
        "broadcast_ms": {"p50": round(pct(stats.per_seat, 0.50), 2),
                         "p99": round(pct(stats.per_seat, 0.99), 2),
                         "max": round(pct(stats.per_seat, 1.0), 2),
                         "mean": round(1000 * statistics.fmean(stats.per_seat), 2)
                         if stats.per_seat else None},
        "all_seats_ms": {"p50": round(pct(stats.all_seats, 0.50), 2),
                         "p99": round(pct(stats.all_seats, 0.99), 2)},
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1),
        "db_cpu_percent": round(100 * (db1 - db0) / elapsed, 1),
        "db_cpu_ms_per_action": round(1000 * (db1 - db0) / stats.actions, 3)
        if stats.actions else None,
        "processes": len(bases),
        "database": "postgresql" if args.url else "sqlite",
        "spread": args.spread,
        "players_cpu_percent": round(100 * (mine1 - mine0) / elapsed, 1),
        "sync": args.sync,
        "flooders": args.flooders,
        "flood_messages_sent": flood["sent"],
        "flooders_closed": flood["closed"],
        "flooders_refused": flood.get("refused", 0),
        "crowd": crowd["spectators"],
        "crowd_table_actions": crowd["actions"],
        "crowd_states": crowd["states"],
    }


def _flood(url: str, sockets: int, seconds: float,
           results: multiprocessing.Queue[dict[str, int]]) -> None:
    """``sockets`` spectators that send pings as fast as they can for ``seconds``, each
    connecting again whenever it is closed or refused; puts what they did in ``results``."""
    flood = {"sent": 0, "closed": 0, "refused": 0}
    ping = json.dumps({"type": "ping"})

    async def flooder(until: float) -> None:
        while time.monotonic() < until:
            try:
                async with connect(url, max_size=2**22, open_timeout=5) as ws:
                    while time.monotonic() < until:
                        await ws.send(ping)
                        flood["sent"] += 1
                        if flood["sent"] % 64 == 0:
                            await asyncio.sleep(0)
            except InvalidStatus:
                flood["refused"] += 1
            except Exception:  # closed by the server
                flood["closed"] += 1
            await asyncio.sleep(0.05)

    async def run() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(flooder(until) for _ in range(sockets)))

    asyncio.run(run())
    results.put(flood)


def _watched_table(base: str, spectators: int, seconds: float,
                   results: multiprocessing.Queue[dict[str, int]]) -> None:
    """One table, a person playing flat out against three bots, watched by
    ``spectators``: puts ``{"spectators": n}`` in ``results`` once they all see it, then
    plays for ``seconds`` and puts the actions played and the states the crowd got."""
    counts = {"states": 0, "actions": 0}

    async def run() -> None:
        async with httpx2.AsyncClient(timeout=30) as http:
            r = await http.post(f"{base}/api/tables", json={
                "rules": {"players": 4}, "private": False,
                "seats": [{"kind": "you", "name": "P0"}]
                + [{"kind": "bot", "bot": "random"}] * 3})
            r.raise_for_status()
            answer = r.json()
        url = f"ws://{base.split('://')[1]}/ws/{answer['id']}"
        rng = random.Random(5)
        until = time.monotonic() + 3600.0

        async def watch(ws: ClientConnection, seen: asyncio.Event) -> None:
            with contextlib.suppress(Exception):
                async for raw in ws:
                    if '"type":"state"' in raw[:40]:
                        counts["states"] += 1
                        seen.set()

        crowd = []
        for _ in range(spectators):
            ws = await connect(url, max_size=2**22)
            seen = asyncio.Event()
            crowd.append((ws, asyncio.create_task(watch(ws, seen))))
            await asyncio.wait_for(seen.wait(), 30)
        results.put({"spectators": spectators})
        counts["states"] = 0
        until = time.monotonic() + seconds
        async with connect(f"{url}?token={answer['token']}", max_size=2**22) as player:
            async for raw in player:
                if time.monotonic() > until:
                    break
                m = json.loads(raw)
                if m["type"] != "state":
                    continue
                if m["over"]:
                    await player.send(json.dumps({"type": "rematch"}))
                elif m["deal"]["to_move"] == m["you"] and m["deal"]["legal"]:
                    counts["actions"] += 1
                    await player.send(json.dumps({"type": "act", "seq": m["seq"],
                                                  "action": rng.choice(m["deal"]["legal"])}))
        for ws, task in crowd:
            task.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    asyncio.run(run())
    results.put(counts)


async def _crowd(args: argparse.Namespace, base: str) -> dict[str, Any]:
    """N spectators come to one table one after another, then leave: what it costs."""
    async with httpx2.AsyncClient(timeout=30) as http:
        r = await http.post(f"{base}/api/tables", json={
            "rules": {"players": 4}, "private": False,
            "seats": [{"kind": "you", "name": "P0"}, {"kind": "friend", "name": "P1"},
                      {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
        r.raise_for_status()
        answer = r.json()
    url = f"ws://{base.split('://')[1]}/ws/{answer['id']}"
    counts = {"messages": 0, "bytes": 0, "states": 0}
    first_state: dict[ClientConnection, asyncio.Event] = {}

    async def read(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for raw in ws:
                counts["messages"] += 1
                counts["bytes"] += len(raw)
                if '"type":"state"' in raw[:40]:
                    counts["states"] += 1
                    first_state[ws].set()

    async def open_one(query: str) -> tuple[ClientConnection, asyncio.Task[None]]:
        ws = await connect(url + query, max_size=2**22)
        first_state[ws] = asyncio.Event()
        task = asyncio.create_task(read(ws))
        await asyncio.wait_for(first_state[ws].wait(), 30)
        return ws, task

    player, player_task = await open_one(f"?token={answer['token']}")
    await asyncio.sleep(1.5)
    counts.update(messages=0, bytes=0, states=0)
    cpu0, began = _cpu_of(args.server_pids, None), time.perf_counter()
    crowd = []
    for _ in range(args.spectators):
        crowd.append(await open_one(""))
    came = time.perf_counter() - began
    await asyncio.sleep(1.5)  # the players' coalesced news of the crowd
    joined = dict(counts)
    for ws, task in crowd:
        await ws.close()
        task.cancel()
    await asyncio.sleep(1.5)
    elapsed = time.perf_counter() - began
    cpu = _cpu_of(args.server_pids, None) - cpu0
    await player.close()
    player_task.cancel()
    n = args.spectators
    return {"spectators": n, "came_s": round(came, 2), "seconds": round(elapsed, 2),
            "join_messages": joined["messages"], "join_states": joined["states"],
            "messages": counts["messages"], "states": counts["states"],
            "megabytes": round(counts["bytes"] / 2**20, 2),
            "messages_per_spectator": round(counts["messages"] / n, 2),
            "server_cpu_s": round(cpu, 2)}


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--players", type=int, default=4, choices=[2, 3, 4, 5])
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a player waits before its move (0: flat out)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sync", default="full", choices=["full", "normal"],
                        help="the server's SQLite synchronous setting")
    parser.add_argument("--postgres", action="store_true",
                        help="a throwaway PostgreSQL cluster (Debian's postgresql) instead "
                             "of SQLite")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="an existing, empty PostgreSQL database instead of SQLite")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes on the one PostgreSQL database")
    parser.add_argument("--spread", default="seat", choices=["seat", "table"],
                        help="each WebSocket to the next process (seat) or a whole "
                             "table's to one (table)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--flooders", type=int, default=0,
                        help="sockets at the first table that send pings as fast as they "
                             "can (reconnecting when closed) while the others play")
    parser.add_argument("--crowd", type=int, default=0,
                        help="spectators watching one more table, played flat out, while "
                             "the players' tables play")
    parser.add_argument("--spectators", type=int, default=0,
                        help="measure a crowd of this many spectators at one table instead")
    parser.add_argument("--server-args", default="--sockets-per-address 100000 "
                        "--tables-per-address 100000",
                        help="more options for the server (the per-address bounds are "
                             "raised: every client here is 127.0.0.1)")
    args = parser.parse_args(argv)
    if not 0 <= args.spectators <= MAX_SPECTATORS:
        parser.error(f"--spectators is 0 to {MAX_SPECTATORS}")
    if not 0 <= args.crowd <= MAX_SPECTATORS:
        parser.error(f"--crowd is 0 to {MAX_SPECTATORS}")
    if args.processes != 1 and not (args.postgres or args.db):
        parser.error("several processes need PostgreSQL: --postgres or --db URL")
    if not 1 <= args.processes <= 8:
        parser.error("--processes is 1 to 8")
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables is 1 to {MAX_TABLES}")
    args.seconds = min(args.seconds, MAX_SECONDS)

    need = args.tables * args.players * 2 + 2 * (args.spectators + args.crowd) + 256
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))

    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        args.url, args.postmaster = args.db, None
        if args.postgres:
            from pgcluster import find_binaries, running_cluster

            bindir = find_binaries()
            if bindir is None:
                raise SystemExit("--postgres needs Debian's postgresql (apt-get install "
                                 "postgresql): no /usr/lib/postgresql/*/bin/initdb here")
            cluster = stack.enter_context(running_cluster(bindir, durable=True))
            args.url, args.postmaster = cluster.new_database(), cluster.postmaster()
        db = args.url or str(Path(tmp) / "load.sqlite3")
        servers = []
        for _ in range(args.processes):
            port = free_port()
            servers.append((subprocess.Popen(
                [sys.executable, "-m", "euchre.server", "--host", HOST, "--port", str(port),
                 "--db", db, "--bot-delay", "0", "--sync", args.sync,
                 "--rate-tables", "off", "--rate-joins", "off", *args.server_args.split()],
                stdout=subprocess.DEVNULL), f"http://{HOST}:{port}"))
        stack.callback(_stop, [proc for proc, _ in servers])
        for server, base in servers:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx2.get(base + "/api/options", timeout=1)
                    break
                except httpx2.HTTPError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("a server did not start") from None
                    time.sleep(0.1)
        args.server_pids = [proc.pid for proc, _ in servers]
        bases = [base for _, base in servers]
        work = _crowd(args, bases[0]) if args.spectators else _run(args, bases)
        try:
            import uvloop
        except ImportError:  # pragma: no cover
            result = asyncio.run(work)
        else:
            result = uvloop.run(work)
    if args.json:
        print(json.dumps(result))
        return
    if args.spectators:
        print(f"{result['spectators']} spectators came to one table one after another "
              f"(in {result['came_s']} s) and left")
        print(f"  while they came     {result['join_messages']} messages "
              f"({result['join_states']} states)")
        print(f"  in all              {result['messages']} messages ({result['states']} "
              f"states, {result['megabytes']} MiB), {result['messages_per_spectator']} "
              f"a spectator")
        print(f"  server CPU          {result['server_cpu_s']} s")
        return
    b, a = result["broadcast_ms"], result["all_seats_ms"]
    print(f"{result['tables']} tables, {result['connections']} WebSockets, "
          f"think {args.think} s, {result['seconds']} s measured, "
          f"{result['processes']} process(es) on {result['database']}")
    print(f"  actions/s           {result['actions_per_s']}")
    print(f"  messages/s          {result['messages_per_s']}")
    print(f"  move -> each seat   p50 {b['p50']} ms   p99 {b['p99']} ms   max {b['max']} ms")
    print(f"  move -> all seats   p50 {a['p50']} ms   p99 {a['p99']} ms")
    print(f"  server CPU          {result['server_cpu_percent']} % of one core "
          f"(the players' process: {result['players_cpu_percent']} %)")
    if result["database"] == "postgresql" and args.postmaster is not None:
        print(f"  database CPU        {result['db_cpu_percent']} % of one core, "
              f"{result['db_cpu_ms_per_action']} ms per action")
    print(f"  games finished {result['games_finished']}, errors {result['errors']}")
    if args.crowd:
        print(f"  crowd               {result['crowd']} spectators at one more table "
              f"({result['crowd_table_actions']} of its person's actions, "
              f"{result['crowd_states']} states to the crowd)")
    if args.flooders:
        print(f"  flooders            {args.flooders}: {result['flood_messages_sent']} "
              f"messages sent, closed {result['flooders_closed']} times, refused "
              f"{result['flooders_refused']} times")


def _stop(servers: list[subprocess.Popen[bytes]]) -> None:
    for server in servers:
        server.send_signal(signal.SIGTERM)
    for server in servers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
        if server.poll() is None:
            server.kill()


if __name__ == "__main__":
    main()
