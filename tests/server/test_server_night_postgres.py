"""A club night served by several ``euchre serve`` processes on one PostgreSQL database
(docs/server.md "A club night"): the night lives in the database alone, so two phones on
two processes reporting one table at once store exactly one result (the other is told
what was stored), a player's link opened on two phones on two processes shows the same
night, and a process killed mid-round loses nothing."""

from __future__ import annotations

import signal
import threading
from typing import Any

import httpx2
import pytest
from pgcluster import Cluster
from test_server_night_live import until
from test_server_postgres import serving
from websockets.sync.client import connect

pytest.importorskip("psycopg", reason="the PostgreSQL tests need the 'postgres' extra")


def _post(url: str, body: dict[str, Any], token: str, go: threading.Barrier,
          answers: list[httpx2.Response]) -> None:
    go.wait()
    answers.append(httpx2.post(url, json=body, headers={"X-Euchre-Key": token}, timeout=20))


def test_phones_on_two_processes_reporting_one_table_at_once_store_exactly_one(
        pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database()
    with serving(url, 2) as procs:
        (proc_a, base_a), (_, base_b) = procs
        names = [f"P{i}" for i in range(1, 17)]
        night = httpx2.post(f"{base_a}/api/nights", json={"name": "Two rooms",
                                                          "players": names}, timeout=10).json()
        host = {"X-Euchre-Key": night["host_key"]}
        rnd = httpx2.post(f"{base_b}/api/nights/{night['id']}/rounds", headers=host,
                          timeout=10).json()
        assert len(rnd["tables"]) == 4
        tokens = night["tokens"]
        for t in rnd["tables"]:  # four races, each between the two processes
            (a, _), (c, _) = [[p["number"] for p in side] for side in t["sides"]]
            path = f"/api/nights/{night['id']}/rounds/1/tables/{t['table']}/report"
            answers: list[httpx2.Response] = []
            go = threading.Barrier(2)
            threads = [threading.Thread(target=_post, args=(
                base + path, {"points": [p, 9 - p]}, tokens[str(who)], go, answers))
                for base, who, p in ((base_a, a, 2), (base_b, c, 7))]
            for th in threads:
                th.start()
            for th in threads:
                th.join(30)
            assert sorted(r.status_code for r in answers) == [201, 409], \
                [r.text for r in answers]
            won = next(r for r in answers if r.status_code == 201).json()
            lost = next(r for r in answers if r.status_code == 409).json()
            assert lost["code"] == "already_reported"
            assert lost["params"]["result"] == won["result"]
        # one player's link on two phones, one on each process: the same night
        mine = {"X-Euchre-Key": tokens["1"]}
        views = [httpx2.get(f"{base}/api/nights/{night['id']}", headers=mine, timeout=10).json()
                 for base in (base_a, base_b)]
        assert views[0] == views[1] and views[0]["you"]["number"] == 1
        # the process that made the night dies mid-round: the other carries it on
        proc_a.send_signal(signal.SIGKILL)
        proc_a.wait(10)
        for t in views[1]["rounds"][0]["tables"]:
            entrant = t["result"]["by"]
            side = 0 if entrant in [p["number"] for p in t["sides"][0]] else 1
            other = t["sides"][1 - side][0]["number"]
            r = httpx2.post(f"{base_b}/api/nights/{night['id']}/rounds/1/tables/"
                            f"{t['table']}/confirm", json={"seq": 1},
                            headers={"X-Euchre-Key": tokens[str(other)]}, timeout=10)
            assert r.status_code == 201 and r.json()["status"] == "confirmed", r.text
        r = httpx2.post(f"{base_b}/api/nights/{night['id']}/rounds/1/end", headers=host,
                        timeout=10)
        assert r.status_code == 200, r.text
        assert sum(line["total"] for line in r.json()["standings"]) == 16 * 9 // 2


def test_a_page_on_one_process_hears_of_a_report_made_at_another(pg_cluster: Cluster) -> None:
    """The standings on a projector follow the night live whichever process it is
    connected to: a write at one process is sent by the others to their pages."""
    url = pg_cluster.new_database()
    with serving(url, 2) as procs:
        (_, base_a), (_, base_b) = procs
        night = httpx2.post(f"{base_a}/api/nights", json={"name": "Two rooms", "players": [
            f"P{i}" for i in range(1, 5)]}, timeout=10).json()
        ws_b = base_b.replace("http://", "ws://")
        with connect(f"{ws_b}/ws/night/{night['id']}", open_timeout=10) as projector:
            until(projector, lambda n: True)
            r = httpx2.post(f"{base_a}/api/nights/{night['id']}/rounds",
                            headers={"X-Euchre-Key": night["host_key"]}, timeout=10)
            assert r.status_code == 201, r.text
            (a, _), _ = [[p["number"] for p in side] for side in r.json()["tables"][0]["sides"]]
            until(projector, lambda n: n["rounds"])
            r = httpx2.post(f"{base_a}/api/nights/{night['id']}/rounds/1/tables/1/report",
                            json={"points": [6, 2]},
                            headers={"X-Euchre-Key": night["tokens"][str(a)]}, timeout=10)
            assert r.status_code == 201, r.text
            seen = until(projector, lambda n: n["rounds"][0]["tables"][0]["result"])
            assert seen["rounds"][0]["tables"][0]["result"]["points"] == [6, 2]
