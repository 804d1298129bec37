"""How long a club night's live standings take to show a round's results when 16 tables
report at once (issue 32: "the standings' update time with 16 tables reporting at once").

Starts ``--processes`` server processes (``python -m euchre.server``) on one database
(a fresh SQLite file; with ``--postgres`` a throwaway cluster of Debian's ``postgresql``,
the processes sharing it), makes a night of 64 players (16 tables) and opens the pages
that follow it live over the night's WebSocket (``/ws/night/ID``): a projector's, and
``--phones`` players' (each with their own token), spread over the processes in turn.
Then, ``--rounds`` times: a round starts, one player of each of the 16 tables reports its
result, all at the same moment (16 requests released together, spread over the
processes too), and the clock runs until each page has received a night in which all 16
tables show a result.  The organiser ends the round and the next starts.

Figures, in milliseconds from the release of the 16 reports: the projector's time
(median, slowest), the time until every phone has it (median over the rounds of the
slowest phone), and the time of the 16 report requests themselves (median of their
median).  Loopback only, bounded; it stops the servers itself.

    .venv/bin/python benchmarks/night_live.py --rounds 7 --phones 64
    .venv/bin/python benchmarks/night_live.py --rounds 7 --phones 64 --postgres --processes 2

>>> spread([30.0, 10.0, 20.0])
{'median_ms': 20.0, 'max_ms': 30.0}
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect

# the throwaway PostgreSQL cluster and the free port are the tests' helpers, not the package's
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
from pgcluster import free_port

from euchre.jobs.bench import cpu_model

HOST = "127.0.0.1"  # loopback only
PLAYERS = 64
MAX_ROUNDS = 20


def spread(times: list[float]) -> dict[str, float]:
    """The median and the slowest of some times (ms), to a tenth."""
    return {"median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)}


def _all_reported(night: dict[str, Any], number: int) -> bool:
    rounds = night["rounds"]
    return (len(rounds) >= number
            and all(t["result"] is not None for t in rounds[number - 1]["tables"]))


async def _until_reported(ws: ClientConnection, number: int, began: list[float]) -> float:
    """Milliseconds from ``began[0]`` (set when the reports are released) until the
    socket sends a night with every table of round ``number`` reported."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "night" and _all_reported(message["night"], number):
            return (time.perf_counter() - began[0]) * 1000


async def _run(bases: list[str], rounds: int, phones: int) -> dict[str, Any]:
    async with httpx2.AsyncClient(timeout=60) as http:
        r = await http.post(f"{bases[0]}/api/nights", json={
            "name": "Benchmark", "players": [f"P{i}" for i in range(1, PLAYERS + 1)]})
        night = r.json()
        host = {"X-Euchre-Key": night["host_key"]}
        tokens = night["tokens"]
        ws_bases = [b.replace("http://", "ws://") for b in bases]
        url = f"/ws/night/{night['id']}"
        sockets = [await connect(ws_bases[0] + url, max_size=2**24)]
        for i in range(phones):
            sockets.append(await connect(
                f"{ws_bases[(i + 1) % len(bases)]}{url}?key={tokens[str(i % PLAYERS + 1)]}",
                max_size=2**24))
        for ws in sockets:
            json.loads(await ws.recv())  # the night as it is
        projector, slowest_phone, requests = [], [], []
        for number in range(1, rounds + 1):
            r = await http.post(f"{bases[number % len(bases)]}/api/nights/{night['id']}"
                                "/rounds", headers=host)
            tables = r.json()["tables"]
            assert len(tables) == 16, r.text
            began = [0.0]
            waits = [asyncio.create_task(_until_reported(ws, number, began))
                     for ws in sockets]
            await asyncio.sleep(0.2)  # the round's own night reaches the pages first

            async def report(k: int, table: dict[str, Any], number: int = number) -> float:
                who = table["sides"][0][0]["number"]
                start = time.perf_counter()
                r = await http.post(
                    f"{bases[k % len(bases)]}/api/nights/{night['id']}/rounds/{number}/"
                    f"tables/{table['table']}/report", json={"points": [k % 9, 9 - k % 9]},
                    headers={"X-Euchre-Key": tokens[str(who)]})
                assert r.status_code == 201, r.text
                return (time.perf_counter() - start) * 1000

            began[0] = time.perf_counter()
            took = await asyncio.gather(*(report(k, t) for k, t in enumerate(tables)))
            seen = await asyncio.gather(*waits)
            projector.append(seen[0])
            if phones:
                slowest_phone.append(max(seen[1:]))
            requests.append(statistics.median(took))
            r = await http.post(f"{bases[0]}/api/nights/{night['id']}/rounds/{number}/end",
                                headers=host)
            assert r.status_code == 200, r.text
        for ws in sockets:
            await ws.close()
    return {"projector": spread(projector),
            "every_phone": spread(slowest_phone) if phones else None,
            "report_request": spread(requests)}


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(20)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--phones", type=int, default=64,
                        help="players' pages following the night besides the projector")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    args.rounds = max(1, min(args.rounds, MAX_ROUNDS))
    args.phones = max(0, min(args.phones, 256))
    if args.processes > 1 and not args.postgres:
        parser.error("several processes share a PostgreSQL database: add --postgres")
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        db = str(Path(tmp) / "night.sqlite3")
        if args.postgres:
            from pgcluster import find_binaries, running_cluster

            bindir = find_binaries()
            if bindir is None:
                raise SystemExit("--postgres needs Debian's postgresql: no initdb here")
            db = stack.enter_context(running_cluster(bindir, durable=True)).new_database()
        servers = []
        for _ in range(args.processes):
            port = free_port()
            proc = subprocess.Popen(
                [sys.executable, "-m", "euchre.server", "--host", HOST, "--port", str(port),
                 "--db", db, "--rate-tables", "off", "--rate-joins", "off",
                 "--sockets-per-address", "100000"], stdout=subprocess.DEVNULL)
            stack.callback(_stop, proc)
            servers.append((proc, f"http://{HOST}:{port}"))
        for proc, base in servers:
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx2.get(base + "/api/options", timeout=1)
                    break
                except httpx2.HTTPError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("a server did not start") from None
                    time.sleep(0.1)
        result = asyncio.run(_run([b for _, b in servers], args.rounds, args.phones))
    result.update(rounds=args.rounds, phones=args.phones, processes=args.processes,
                  database="postgresql" if args.postgres else "sqlite", cpu=cpu_model(),
                  cores=os.cpu_count(), load_average=[round(x, 2) for x in os.getloadavg()],
                  python=platform.python_version())
    if args.json:
        print(json.dumps(result))
        return
    print(f"16 tables reporting at once, {args.rounds} rounds, {args.phones} phones + a "
          f"projector following live, {args.processes} process(es) on {result['database']}")
    print(f"  the projector shows all 16   {result['projector']}")
    if result["every_phone"]:
        print(f"  every phone shows all 16     {result['every_phone']}")
    print(f"  one report request           {result['report_request']}")
    print(f"  {result['cpu']}, {result['cores']} cores, load {result['load_average']}")


if __name__ == "__main__":
    main()
