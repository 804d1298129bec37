"""A club night over HTTP (euchre.server.night, docs/server.md "A club night"), on SQLite
and on PostgreSQL: the organiser makes a night and seats rounds for the players present,
the players report their table's result from their phones and the other team confirms
it, corrections and disputes are kept with who made them, the organiser settles and
ends rounds, and the standings follow euchre.night's scoring.  Every refusal is a 4xx
that changes nothing; two phones reporting one table at once: one wins, the other is
told what was stored; a restart mid-round loses nothing."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx2
from serverkit import Database, Server, running_server

from euchre.night import NightScoring
from euchre.server.night import stand_in_points

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo"]


def make_night(server: Server, players: list[str], **extra: Any) -> dict[str, Any]:
    r = server.http.post("/api/nights", json={"name": "Club night", "players": players,
                                              **extra})
    assert r.status_code == 201, r.text
    night: dict[str, Any] = r.json()
    return night


def key(k: str) -> dict[str, str]:
    return {"X-Euchre-Key": k}


def view(server: Server, night: dict[str, Any], k: str | None = None) -> dict[str, Any]:
    r = server.http.get(f"/api/nights/{night['id']}", headers=key(k) if k else {})
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def start(server: Server, night: dict[str, Any]) -> dict[str, Any]:
    r = server.http.post(f"/api/nights/{night['id']}/rounds", headers=key(night["host_key"]))
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def seat_numbers(table: dict[str, Any]) -> list[list[int]]:
    return [[p["number"] for p in side] for side in table["sides"]]


def table_url(night: dict[str, Any], rnd: int, table: int, what: str) -> str:
    return f"/api/nights/{night['id']}/rounds/{rnd}/tables/{table}/{what}"


def report_and_confirm(server: Server, night: dict[str, Any], rnd: dict[str, Any],
                       points: list[int]) -> None:
    """Each table: the first player of the first side enters ``points``, the first of
    the other side confirms."""
    tokens = view(server, night, night["host_key"])["tokens"]
    for t in rnd["tables"]:
        (a, _), (c, _) = seat_numbers(t)
        r = server.http.post(table_url(night, rnd["number"], t["table"], "report"),
                             json={"points": points},
                             headers=key(tokens[str(a)]))
        assert r.status_code == 201, r.text
        seq = r.json()["reports"][-1]["seq"]
        r = server.http.post(table_url(night, rnd["number"], t["table"], "confirm"),
                             json={"seq": seq}, headers=key(tokens[str(c)]))
        assert r.status_code == 201, r.text
        assert r.json()["status"] == "confirmed"


def end(server: Server, night: dict[str, Any], number: int) -> dict[str, Any]:
    r = server.http.post(f"/api/nights/{night['id']}/rounds/{number}/end",
                         headers=key(night["host_key"]))
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_a_night_of_13_seats_three_tables_and_one_out_and_scores_the_round(
        server: Server) -> None:
    night = make_night(server, NAMES)
    assert len(night["tokens"]) == 13 and night["role"] == "organiser"
    rnd = start(server, night)
    assert rnd["number"] == 1 and len(rnd["tables"]) == 3 and len(rnd["out"]) == 1
    seated = sorted(p for t in rnd["tables"] for side in seat_numbers(t) for p in side)
    assert sorted([*seated, rnd["out"][0]["number"]]) == list(range(1, 14))
    # each player's phone shows their table, side, partner and opponents
    (a, b), (c, d) = seat_numbers(rnd["tables"][0])
    you = view(server, night, night["tokens"][str(a)])["you"]
    assert (you["table"], you["side"], you["partner"], sorted(you["opponents"])) == (
        1, 0, b, sorted([c, d]))
    assert "tokens" not in view(server, night, night["tokens"][str(a)])
    report_and_confirm(server, night, rnd, [7, 3])
    after = end(server, night, 1)
    lines = {line["number"]: line for line in after["standings"]}
    out = rnd["out"][0]["number"]
    # individual points: a side's points to each of its players; sitting out: the
    # round's average (6 players made 7, 6 made 3: 5)
    assert lines[a]["total"] == 7 and lines[c]["total"] == 3 and lines[out]["total"] == 5
    assert lines[a]["won"] == 1 and lines[a]["place"] == 1
    public = server.http.get(f"/api/nights/{night['id']}/standings").json()
    assert public["rounds"] == 1 and public["standings"] == after["standings"]
    second = start(server, night)
    assert second["number"] == 2 and second["out"][0]["number"] != out


def test_a_result_from_the_hands_a_correction_a_dispute_and_the_organisers_settlement_are_all_kept(
        server: Server) -> None:
    night = make_night(server, NAMES[:4], scoring={"lone_march": 5})
    rnd = start(server, night)
    (a, b), (c, d) = seat_numbers(rnd["tables"][0])
    tok = night["tokens"]
    hands = [{"makers": 0, "tricks": 5, "alone": True, "maker": a},
             {"makers": 1, "tricks": 1, "maker": d}]
    r = server.http.post(table_url(night, 1, 1, "report"), json={"hands": hands},
                         headers=key(tok[str(a)]))
    assert r.status_code == 201, r.text
    assert r.json()["result"]["points"] == [7, 0] and r.json()["result"]["loners"] == [a]
    # hands that do not make the points given: 422, nothing stored
    r = server.http.post(table_url(night, 1, 1, "correct"),
                         json={"hands": hands, "points": [1, 1], "seq": 1},
                         headers=key(tok[str(b)]))
    assert r.status_code == 422 and r.json()["code"] == "bad_result"
    # the other team corrects it, the first team disputes the correction
    r = server.http.post(table_url(night, 1, 1, "correct"), json={"points": [5, 2], "seq": 1},
                         headers=key(tok[str(c)]))
    assert r.status_code == 201 and r.json()["status"] == "entered"
    r = server.http.post(table_url(night, 1, 1, "dispute"), json={"seq": 2},
                         headers=key(tok[str(b)]))
    assert r.status_code == 201 and r.json()["status"] == "disputed"
    # a disputed table keeps the round open
    r = server.http.post(f"/api/nights/{night['id']}/rounds/1/end", headers=key(night["host_key"]))
    assert r.status_code == 409 and r.json()["code"] == "tables_open"
    assert r.json()["params"]["tables"] == [1]
    r = server.http.post(table_url(night, 1, 1, "settle"), json={"points": [6, 2]},
                         headers=key(night["host_key"]))
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["status"] == "settled" and table["result"]["points"] == [6, 2]
    assert [(x["seq"], x["kind"], x["by"], x["points"]) for x in table["reports"]] == [
        (1, "entered", a, [7, 0]), (2, "corrected", c, [5, 2]), (3, "disputed", b, None),
        (4, "settled", None, [6, 2])]
    after = end(server, night, 1)
    totals = {line["number"]: line["total"] for line in after["standings"]}
    assert totals == {a: 6, b: 6, c: 2, d: 2}
    # after the round, only the organiser corrects, and the correction is kept
    r = server.http.post(table_url(night, 1, 1, "correct"), json={"points": [1, 1], "seq": 4},
                         headers=key(tok[str(a)]))
    assert r.status_code == 409 and r.json()["code"] == "round_over"
    r = server.http.post(table_url(night, 1, 1, "settle"), json={"points": [6, 3]},
                         headers=key(night["host_key"]))
    assert r.status_code == 201 and len(r.json()["reports"]) == 5
    totals = {line["number"]: line["total"] for line in view(server, night)["standings"]}
    assert totals[c] == 3


def test_every_refusal_is_a_4xx_that_changes_nothing(server: Server) -> None:
    night = make_night(server, NAMES[:8])
    rnd = start(server, night)
    tok = night["tokens"]
    (a, b), (c, _) = seat_numbers(rnd["tables"][0])
    (e, _), _ = seat_numbers(rnd["tables"][1])
    r = server.http.post(table_url(night, 1, 1, "report"), json={"points": [4, 4]},
                         headers=key(tok[str(a)]))
    assert r.status_code == 201
    before = view(server, night, night["host_key"])
    refused = [
        # a token that is nobody's, or none
        ("post", table_url(night, 1, 2, "report"), {"points": [1, 2]}, "nobody", 403,
         "bad_night_key"),
        ("post", table_url(night, 1, 2, "report"), {"points": [1, 2]}, None, 403,
         "bad_night_key"),
        # a table one is not at
        ("post", table_url(night, 1, 2, "report"), {"points": [1, 2]}, tok[str(a)], 403,
         "not_at_table"),
        ("post", table_url(night, 1, 1, "confirm"), {"seq": 1}, tok[str(e)], 403,
         "not_at_table"),
        # the team that entered it confirms: refused
        ("post", table_url(night, 1, 1, "confirm"), {"seq": 1}, tok[str(b)], 403,
         "same_team"),
        # a confirmation of a report the phone did not see
        ("post", table_url(night, 1, 1, "confirm"), {"seq": 7}, tok[str(c)], 409,
         "stale_report"),
        # a second entry: the stored one comes back
        ("post", table_url(night, 1, 1, "report"), {"points": [9, 0]}, tok[str(c)], 409,
         "already_reported"),
        # the organiser's powers with a player's token
        ("post", f"/api/nights/{night['id']}/rounds", None, tok[str(a)], 403, "not_organiser"),
        ("post", f"/api/nights/{night['id']}/rounds/1/end", None, tok[str(a)], 403,
         "not_organiser"),
        ("post", table_url(night, 1, 1, "settle"), {"points": [1, 1]}, tok[str(a)], 403,
         "not_organiser"),
        ("post", f"/api/nights/{night['id']}/players", {"name": "Zed"}, tok[str(a)], 403,
         "not_organiser"),
        ("post", f"/api/nights/{night['id']}/players/{b}/presence", {"present": False},
         tok[str(a)], 403, "not_you"),
        ("post", f"/api/nights/{night['id']}/players", {"name": "Zed", "join": "wrong"},
         None, 403, "bad_join"),
        # what does not exist
        ("post", table_url(night, 2, 1, "report"), {"points": [1, 2]}, tok[str(a)], 404,
         "no_round"),
        ("post", table_url(night, 1, 3, "report"), {"points": [1, 2]}, tok[str(a)], 404,
         "no_night_table"),
        ("get", "/api/nights/nosuchnight", None, None, 404, "no_night"),
        # a round while one is played; one not finished
        ("post", f"/api/nights/{night['id']}/rounds", None, night["host_key"], 409,
         "round_open"),
        ("post", f"/api/nights/{night['id']}/rounds/1/end", None, night["host_key"], 409,
         "tables_open"),
        # a malformed result
        ("post", table_url(night, 1, 2, "report"), {"points": [-1, 2]}, tok[str(e)], 422,
         "invalid_request"),
        ("post", table_url(night, 1, 2, "report"), {}, tok[str(e)], 422, "bad_result"),
    ]
    for method, url, body, k, status, code in refused:
        headers = key(k) if k else {}
        if method == "get":
            r = server.http.get(url, headers=headers)
        else:
            r = server.http.post(url, json=body, headers=headers)
        assert (r.status_code, r.json()["code"]) == (status, code), (url, k, r.text)
    stored = server.http.post(table_url(night, 1, 1, "report"), json={"points": [9, 0]},
                              headers=key(tok[str(c)])).json()["params"]
    assert stored["result"]["points"] == [4, 4] and stored["result"]["by"] == a
    assert view(server, night, night["host_key"]) == before


def test_players_register_with_the_join_link_and_come_and_go_between_rounds(
        server: Server) -> None:
    night = make_night(server, NAMES[:4])
    r = server.http.post(f"/api/nights/{night['id']}/players",
                         json={"name": "Eve", "join": night["join_key"]})
    assert r.status_code == 201, r.text
    eve = r.json()
    assert eve["number"] == 5 and eve["token"]
    mine = view(server, night, eve["token"])
    assert mine["role"] == "player" and mine["you"]["name"] == "Eve" and "join_key" not in mine
    rnd = start(server, night)
    assert len(rnd["out"]) == 1
    report_and_confirm(server, night, rnd, [5, 5])
    end(server, night, 1)
    # Eve leaves (her own link), a late arrival is added by the organiser: still five
    r = server.http.post(f"/api/nights/{night['id']}/players/5/presence",
                         json={"present": False}, headers=key(eve["token"]))
    assert r.status_code == 200, r.text
    r = server.http.post(f"/api/nights/{night['id']}/players", json={"name": "Fay"},
                         headers=key(night["host_key"]))
    assert r.status_code == 201 and r.json()["number"] == 6
    second = start(server, night)
    seated = {p["number"] for t in second["tables"] for side in t["sides"] for p in side}
    seated |= {p["number"] for p in second["out"]}
    assert seated == {1, 2, 3, 4, 6}
    assert view(server, night, eve["token"])["you"]["table"] is None


def test_winners_move_up_and_fixed_teams_seat_their_second_round(server: Server) -> None:
    night = make_night(server, NAMES[:8], format="winners")
    first = start(server, night)
    report_and_confirm(server, night, first, [6, 2])
    end(server, night, 1)
    second = start(server, night)
    head = seat_numbers(first["tables"][0])
    # the head table's winners stay, split
    assert set(head[0]) <= {p for side in seat_numbers(second["tables"][0]) for p in side}
    night = make_night(server, NAMES[:8], format="teams")
    first = start(server, night)
    assert [seat_numbers(t) for t in first["tables"]] == [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    report_and_confirm(server, night, first, [1, 2])
    end(server, night, 1)
    second = start(server, night)
    assert [1, 2] in [side for t in second["tables"] for side in seat_numbers(t)]


def _post(url: str, body: dict[str, Any], token: str, go: threading.Barrier,
          answers: list[httpx2.Response]) -> None:
    go.wait()
    answers.append(httpx2.post(url, json=body, headers=key(token), timeout=20))


def test_two_phones_entering_one_tables_result_at_once_store_exactly_one(
        server: Server) -> None:
    night = make_night(server, NAMES[:12])
    rnd = start(server, night)
    for t in rnd["tables"]:  # three races
        (a, _), (c, _) = seat_numbers(t)
        url = server.base + table_url(night, 1, t["table"], "report")
        answers: list[httpx2.Response] = []
        go = threading.Barrier(2)
        threads = [threading.Thread(target=_post, args=(url, {"points": [p, 10 - p]},
                                                        night["tokens"][str(who)], go,
                                                        answers))
                   for who, p in ((a, 3), (c, 8))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        assert sorted(r.status_code for r in answers) == [201, 409], [r.text for r in answers]
        won = next(r for r in answers if r.status_code == 201).json()
        lost = next(r for r in answers if r.status_code == 409).json()
        assert lost["code"] == "already_reported"
        assert lost["params"]["result"] == won["result"] and len(won["reports"]) == 1


def test_a_restart_mid_round_keeps_the_night(database: Database) -> None:
    db = database("night")
    with running_server(db) as server:
        night = make_night(server, NAMES[:8])
        rnd = start(server, night)
        (a, _), _ = seat_numbers(rnd["tables"][0])
        r = server.http.post(table_url(night, 1, 1, "report"), json={"points": [3, 1]},
                             headers=key(night["tokens"][str(a)]))
        assert r.status_code == 201
        before = view(server, night, night["host_key"])
    with running_server(db) as server:
        assert view(server, night, night["host_key"]) == before
        (_, _), (c, _) = seat_numbers(rnd["tables"][0])
        r = server.http.post(table_url(night, 1, 1, "confirm"), json={"seq": 1},
                             headers=key(night["tokens"][str(c)]))
        assert r.status_code == 201 and r.json()["status"] == "confirmed"


def test_an_online_table_is_an_app_table_of_the_scheduled_players_and_records_its_game(
        server: Server) -> None:
    night = make_night(server, NAMES[:8])
    r = server.http.post(f"/api/nights/{night['id']}/rounds", json={"online": [2]},
                         headers=key(night["host_key"]))
    assert r.status_code == 201, r.text
    rnd = r.json()
    assert rnd["tables"][0]["online"] is None and rnd["tables"][1]["status"] == "playing"
    table_id = rnd["tables"][1]["online"]
    (a, b), (c, d) = seat_numbers(rnd["tables"][1])
    # each scheduled player's phone holds the invitation to their own place there
    you = view(server, night, night["tokens"][str(c)])["you"]
    assert you["online"]["id"] == table_id
    app = server.http.get(f"/api/tables/{table_id}", headers=key(night["host_key"]))
    organiser = view(server, night, night["host_key"])["online"]
    host = organiser[0]["host_url"].split("host=")[1]
    seats = server.http.post(f"/api/tables/{table_id}/host", json={"host": host}).json()
    assert [p["name"] for p in seats["places"]] == [NAMES[p - 1] for p in (a, c, b, d)], app
    # a player may not enter the result of an online table
    r = server.http.post(table_url(night, 1, 2, "report"), json={"points": [10, 0]},
                         headers=key(night["tokens"][str(a)]))
    assert r.status_code == 409 and r.json()["code"] == "already_reported"
    # nobody came: the organiser deals, bots play every seat, and the game's scores
    # become the table's result
    r = server.http.post(f"/api/tables/{table_id}/host/start", json={"host": host})
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 60
    while True:
        table = view(server, night)["rounds"][0]["tables"][1]
        if table["status"] == "played" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert table["status"] == "played"
    assert max(table["result"]["points"]) >= 10 and table["reports"][-1]["by"] is None


def _join(url: str, name: str, join: str, go: threading.Barrier,
          answers: list[httpx2.Response]) -> None:
    go.wait()
    answers.append(httpx2.post(url, json={"name": name, "join": join}, timeout=20))


def test_players_registering_at_once_each_get_a_number_of_their_own(server: Server) -> None:
    night = make_night(server, NAMES[:4])
    url = f"{server.base}/api/nights/{night['id']}/players"
    answers: list[httpx2.Response] = []
    go = threading.Barrier(5)
    threads = [threading.Thread(target=_join, args=(url, f"New {i}", night["join_key"], go,
                                                    answers)) for i in range(5)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert [r.status_code for r in answers] == [201] * 5, [r.text for r in answers]
    assert sorted(r.json()["number"] for r in answers) == [5, 6, 7, 8, 9]
    players = view(server, night)["players"]
    assert [p["number"] for p in players] == list(range(1, 10))


def test_the_export_holds_the_standings_and_each_players_rounds_and_the_join_qr_is_the_organisers(
        server: Server) -> None:
    """Issue 32, items 5 and 6: the export (CSV and JSON) of the rounds ended, the same
    standings as the route's, one row per player and round (a sitter's with no table);
    the QR code of the night's page is anyone's, that of the join link the organiser's
    alone (403 otherwise, nothing changed)."""
    night = make_night(server, NAMES[:5])
    rnd = start(server, night)
    report_and_confirm(server, night, rnd, [7, 3])
    end(server, night, 1)
    base = f"/api/nights/{night['id']}"
    exported = server.http.get(f"{base}/export.json").json()
    assert exported["standings"] == server.http.get(f"{base}/standings").json()["standings"]
    rows = exported["rounds"]
    assert [r["number"] for r in rows] == [1, 2, 3, 4, 5]
    (out,) = rnd["out"]
    sitter = next(r for r in rows if r["number"] == out["number"])
    assert sitter["table"] is None and sitter["points"] == 5  # the round's average
    (a, b), _ = seat_numbers(rnd["tables"][0])
    row = next(r for r in rows if r["number"] == a)
    assert (row["table"], row["partner"], row["points"], row["won"]) == (1, b, 7, True)
    text = server.http.get(f"{base}/export.csv").text
    assert text.splitlines()[0] == "place,number,name,total,won,played,loners,tied"
    assert len(text.splitlines()) == 1 + 5 + 1 + 1 + 5
    qr = server.http.get(f"{base}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert qr.text.count("<svg") == 1
    before = view(server, night, night["host_key"])
    for k in (None, view(server, night, night["host_key"])["tokens"]["1"]):
        r = server.http.get(f"{base}/qr.svg?join=1", headers=key(k) if k else {})
        assert r.status_code == 403 and r.json()["code"] == "not_organiser"
    assert server.http.get(f"{base}/qr.svg?join=1", headers=key(night["host_key"])
                           ).status_code == 200
    assert view(server, night, night["host_key"]) == before
    assert server.http.get("/api/nights/nope/export.csv").status_code == 404
    assert server.http.get(f"{base}/export.xml").status_code == 422


def test_a_player_who_sits_out_scores_by_the_nights_policy_average_zero_or_a_bot_in_the_seat(
        server: Server) -> None:
    """The rules of the night say what a sitter scores: the round's average, nothing, or
    what a bot playing in their place made (the bot's hands are played when the round
    ends, the same each time they are read, and shown with the round)."""
    totals = {}
    for policy in ("average", "zero", "bot"):
        night = make_night(server, NAMES[:5], scoring={"sit_out": policy}, hands=6)
        rnd = start(server, night)
        out = rnd["out"][0]["number"]
        report_and_confirm(server, night, rnd, [8, 2])
        after = end(server, night, 1)
        totals[policy] = next(s["total"] for s in after["standings"] if s["number"] == out)
        shown = after["rounds"][0]["out"][0]["stand_in"]
        if policy == "bot":
            assert shown == totals["bot"] == stand_in_points(
                NightScoring(sit_out="bot"), 6, f"{night['id']} 1 {out}")
            again = view(server, night)  # read again: the bot's points do not change
            assert next(s["total"] for s in again["standings"]
                        if s["number"] == out) == totals["bot"]
        else:
            assert shown is None
    assert totals["average"] == 5 and totals["zero"] == 0


def test_the_chart_ahead_shows_the_rounds_to_come_for_the_players_present(
        server: Server) -> None:
    """Issue 32, item 4: the organiser and each player see the night ahead, round by round;
    the round that starts next is seated as the chart said, and a late arrival seats the
    chart afresh for those present."""
    night = make_night(server, NAMES[:9], rounds=5)
    ahead = view(server, night)["ahead"]
    assert [r["number"] for r in ahead] == [1, 2, 3, 4, 5]
    assert all(len(r["tables"]) == 2 and len(r["out"]) == 1 for r in ahead)
    rnd = start(server, night)
    assert [seat_numbers(t) for t in rnd["tables"]] == ahead[0]["tables"]
    assert [p["number"] for p in rnd["out"]] == ahead[0]["out"]
    assert view(server, night)["ahead"] == ahead[1:]  # round 1 is no longer ahead
    report_and_confirm(server, night, rnd, [6, 4])
    end(server, night, 1)
    second = start(server, night)
    assert [seat_numbers(t) for t in second["tables"]] == ahead[1]["tables"]
    r = server.http.post(f"/api/nights/{night['id']}/players", json={"name": "Zed"},
                         headers=key(night["host_key"]))
    assert r.status_code == 201, r.text
    after = view(server, night)["ahead"]
    assert [r["number"] for r in after] == [3, 4, 5]
    assert all(10 in [p for t in r["tables"] for side in t for p in side] + r["out"]
               for r in after)
    # winners move up is seated from each round's results: nothing is ahead
    assert view(server, make_night(server, NAMES[:8], format="winners"))["ahead"] == []
