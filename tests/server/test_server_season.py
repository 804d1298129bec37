"""A season of club nights over HTTP (issue 32, item 6; euchre.server.season, docs/night.md
"Seasons"), on SQLite and on PostgreSQL: the organiser makes a season and adds nights
to it with the season's key and each night's organiser key; the season's leaderboard
adds up the nights and its ratings rate each table's partnerships; the leaderboard and a
night's final standings with each player's rounds read back as JSON and CSV.  Every
refusal is a 4xx that changes nothing."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3
from typing import Any

from serverkit import Database, Server, running_server
from test_server_night import end, key, make_night, report_and_confirm, start

from euchre.server import schema

FOUR = ["Ann", "Bo", "Cy", "Di"]


def make_season(server: Server, name: str = "Tuesday club") -> dict[str, Any]:
    r = server.http.post("/api/seasons", json={"name": name})
    assert r.status_code == 201, r.text
    season: dict[str, Any] = r.json()
    return season


def played_night(server: Server, players: list[str], *points: list[int]) -> dict[str, Any]:
    """A night of ``players`` whose rounds each end with every table at ``points``."""
    night = make_night(server, players)
    for number, p in enumerate(points, 1):
        rnd = start(server, night)
        report_and_confirm(server, night, rnd, p)
        end(server, night, number)
    return night


def add(server: Server, season: dict[str, Any], night: dict[str, Any],
        season_key: str | None = None, night_key: str | None = None) -> Any:
    return server.http.post(f"/api/seasons/{season['id']}/nights",
                            json={"night": night["id"], "key": night_key or night["host_key"]},
                            headers=key(season_key or season["host_key"]))


def season_view(server: Server, season: dict[str, Any]) -> dict[str, Any]:
    r = server.http.get(f"/api/seasons/{season['id']}")
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_a_season_adds_up_its_nights_and_rates_each_tables_partnerships(
        server: Server) -> None:
    season = make_season(server)
    first = played_night(server, FOUR, [9, 3], [4, 6])
    second = played_night(server, [*FOUR[:3], "Ed"], [8, 2])
    for night in (first, second):
        r = add(server, season, night)
        assert r.status_code == 200, r.text
    again = add(server, season, first)  # added already: nothing changes
    assert again.status_code == 200 and len(again.json()["nights"]) == 2
    data = season_view(server, season)
    assert [n["id"] for n in data["nights"]] == [first["id"], second["id"]]
    assert [n["rounds"] for n in data["nights"]] == [2, 1]
    board = {line["name"]: line for line in data["leaderboard"]}
    # each player's total is the sum of their nights' totals
    totals: dict[str, int] = {}
    for night in (first, second):
        standings = server.http.get(f"/api/nights/{night['id']}/standings").json()["standings"]
        for line in standings:
            totals[line["name"]] = totals.get(line["name"], 0) + line["total"]
    assert {name: line["total"] for name, line in board.items()} == totals
    assert board["Ann"]["nights"] == 2 and board["Di"]["nights"] == 1 == board["Ed"]["nights"]
    assert board["Ann"]["rounds"] == 3 and board["Ed"]["rounds"] == 1
    assert [line["place"] for line in data["leaderboard"]] == sorted(
        line["place"] for line in data["leaderboard"])
    rated = {x["name"]: x for x in data["ratings"]}
    assert set(rated) == set(board) and rated["Ann"]["matches"] == 3
    assert rated["Ed"]["matches"] == 1
    # Ed played one table: rated up from the start if his side made the 8, else down
    table = server.http.get(f"/api/nights/{second['id']}").json()["rounds"][0]["tables"][0]
    ed_first = "Ed" in [p["name"] for p in table["sides"][0]]
    assert (rated["Ed"]["mu"] > 25) == ed_first
    # the same leaderboard as CSV, with the ratings
    r = server.http.get(f"/api/seasons/{season['id']}/leaderboard.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [row["name"] for row in rows] == [line["name"] for line in data["leaderboard"]]
    for row in rows:
        assert int(row["total"]) == board[row["name"]]["total"]
        assert float(row["rating"]) == rated[row["name"]]["ordinal"]


def test_every_season_refusal_is_a_4xx_that_changes_nothing(server: Server) -> None:
    season = make_season(server)
    other = make_season(server, "Thursday club")
    night = played_night(server, FOUR, [9, 3])
    stranger = make_night(server, FOUR)
    before = season_view(server, season)
    # the season's key is another season's, or a night's
    for wrong in (other["host_key"], night["host_key"], "x" * 30):
        r = add(server, season, night, season_key=wrong)
        assert r.status_code == 403 and r.json()["code"] == "not_organiser", r.text
    # the night's key is another night's, or the season's
    for wrong in (stranger["host_key"], season["host_key"], night["tokens"]["1"]):
        r = add(server, season, night, night_key=wrong)
        assert r.status_code == 403 and r.json()["code"] == "not_organiser", r.text
    r = add(server, season, {"id": "nothere", "host_key": night["host_key"]})
    assert r.status_code == 404 and r.json()["code"] == "no_night"
    r = add(server, {"id": "nothere"}, night, season_key=season["host_key"])
    assert r.status_code == 404 and r.json()["code"] == "no_season"
    assert server.http.get("/api/seasons/nothere").status_code == 404
    assert server.http.get("/api/seasons/nothere/leaderboard.csv").status_code == 404
    r = server.http.post("/api/seasons", json={"name": ""})
    assert r.status_code == 422
    assert season_view(server, season) == before
    # a night joins one season: another's organiser cannot take it
    assert add(server, other, night).status_code == 200
    r = add(server, season, night)
    assert r.status_code == 409 and r.json()["code"] == "in_season"
    assert season_view(server, season) == before
    assert [n["id"] for n in season_view(server, other)["nights"]] == [night["id"]]


def test_a_database_of_the_release_before_seasons_keeps_its_nights_for_a_season(
        database: Database, backend: str) -> None:
    """A database at version 3 (nights, no seasons) opens at version 4 with its night,
    which then joins a season."""
    where = database("euchre")
    dialect = schema.SQLITE if backend == "sqlite" else schema.POSTGRES
    rows: list[tuple[str, tuple[Any, ...]]] = [
        ("CREATE TABLE schema_version (version INTEGER NOT NULL)", ()),
        ("INSERT INTO schema_version (version) VALUES (3)", ()),
        ("INSERT INTO nights (id, name, day, format, settings, host_key, join_key, created) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ("n1", "Old night", "2026-11-01", "partners",
                                             json.dumps({"scoring": {}}), "host-n1",
                                             "join-n1", 1.0)),
        *(("INSERT INTO night_players (night_id, number, name, token, present) "
           "VALUES (?, ?, ?, ?, ?)", ("n1", i, name, f"tok-{i}", 1))
          for i, name in enumerate(FOUR, 1))]
    made = [(dialect.ddl(s), ()) for step in schema.MIGRATIONS[:3] for s in step.statements]
    if backend == "sqlite":
        with contextlib.closing(sqlite3.connect(where)) as conn:
            for sql, params in [*made, *rows]:
                conn.execute(sql, params)
            conn.commit()
    else:
        import psycopg

        with psycopg.connect(str(where)) as conn:
            # a database of the session's spares has today's tables: start it bare
            conn.execute("DROP SCHEMA public CASCADE")
            conn.execute("CREATE SCHEMA public")
            for sql, params in [*made, *rows]:
                conn.execute(dialect.sql(sql) if params else sql, params)
    with running_server(where) as server:
        assert server.http.get("/api/nights/n1").json()["players"][0]["name"] == "Ann"
        season = make_season(server)
        r = add(server, season, {"id": "n1", "host_key": "host-n1"})
        assert r.status_code == 200, r.text
        assert [n["name"] for n in r.json()["nights"]] == ["Old night"]
