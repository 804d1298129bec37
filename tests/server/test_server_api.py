"""The lobby's HTTP API: options, creating and listing tables, joining, records, pages."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from serverkit import Server, play_out

from euchre.records import replay
from euchre.rules import OPTIONS, Rules
from euchre.server.protocol import RulesModel
from euchre.server.storage import default_db_path

ALL_BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "basic"}]


def test_options_list_every_variant_with_its_defaults_the_bots_and_the_lobbys_levels(
        server: Server) -> None:
    data = server.http.get("/api/options").json()
    assert set(data["variants"]) == {"2", "3", "4", "5"}
    assert data["variants"]["5"]["defaults"]["deck"] == 28
    assert data["variants"]["5"]["defaults"]["stick_the_dealer"] is True
    assert data["variants"]["3"]["defaults"]["defend_alone"] is True
    assert {"random", "basic"} <= set(data["bots"])
    assert data["levels"] == ["random", "basic", "net", "intermediate", "expert"]
    # each variant offers the levels that play it: no learned model was made five-handed
    for n in ("2", "3", "4"):
        assert data["variants"][n]["levels"] == data["levels"]
    assert data["variants"]["5"]["levels"] == ["random", "basic", "intermediate", "expert"]
    assert data["hint"] is ("expert" in data["bots"])


@pytest.mark.parametrize(("body", "words"), [
    ({"rules": {"players": 5, "deck": 24}, "seats": [ALL_BOTS[0]] * 5}, "26 cards"),
    ({"rules": {"players": 4}, "seats": [ALL_BOTS[0]] * 3}, "4 players need 4 seats"),
    ({"rules": {"players": 2, "defend_alone": True}, "seats": [ALL_BOTS[0]] * 2},
     "defending alone"),
    ({"rules": {"players": 3, "draw": True}, "seats": [ALL_BOTS[0]] * 3}, "draw"),
    ({"rules": {"players": 2}, "seats": [{"kind": "bot", "bot": "nobody"}] * 2},
     "unknown bot"),
    ({"rules": {"players": 5}, "seats": [{"kind": "bot", "bot": "net"}] * 5},
     "no learned policy for these rules"),
    ({"rules": {"players": 2}, "seats": [{"kind": "you"}, {"kind": "you"}]}, "only one"),
    ({"rules": {"players": 2, "joker": True, "joker_turnup": "suit:X"},
      "seats": [ALL_BOTS[0]] * 2}, "joker_turnup"),
])
def test_a_table_the_rules_forbid_is_refused_with_the_reason(
        server: Server, body: dict[str, Any], words: str) -> None:
    r = server.http.post("/api/tables", json=body)
    assert r.status_code == 422
    assert words in r.text


def test_a_malformed_request_is_refused_by_validation(server: Server) -> None:
    r = server.http.post("/api/tables", json={"rules": {"players": 9}, "seats": []})
    assert r.status_code == 422
    r = server.http.post("/api/tables", json={"rules": {"colour": "red"},
                                              "seats": [ALL_BOTS[0]] * 4})
    assert r.status_code == 422


def test_the_rules_options_served_are_the_rules_table(server: Server) -> None:
    served = server.http.get("/api/rules/options").json()["options"]
    assert served == json.loads(json.dumps([o.to_json() for o in OPTIONS]))
    assert [o["name"] for o in served] == [f.name for f in dataclasses.fields(Rules)]
    target = next(o for o in served if o["name"] == "target")
    assert (target["flag"], target["low"], target["high"]) == ("--to", 1, 100)
    assert next(o for o in served if o["name"] == "deck")["defaults"]["5"] == 28


def test_the_request_model_is_made_from_the_rules_table() -> None:
    fields = RulesModel.model_fields
    assert list(fields) == [o.name for o in OPTIONS]
    for o in OPTIONS:
        assert fields[o.name].default == o.default, o.name


@pytest.mark.parametrize(("name", "value"), [
    ("players", 6), ("players", 1), ("target", 0), ("target", 101), ("deck", 30),
    ("joker_turnup", "suit:" + "H" * 30), ("joker", "maybe"), ("draw", [1]),
])
def test_a_rules_option_out_of_its_bounds_is_refused_naming_it(
        server: Server, name: str, value: Any) -> None:
    r = server.http.post("/api/tables", json={"rules": {name: value},
                                              "seats": [ALL_BOTS[0]] * 4})
    assert r.status_code == 422
    assert [e["loc"] for e in r.json()["detail"]] == [["body", "rules", name]]


def test_every_option_of_the_rules_is_accepted(server: Server) -> None:
    rules = {"players": 4, "deck": 32, "joker": True, "joker_turnup": "suit:h",
             "stick_the_dealer": True, "dealer_must_take_up": True, "defend_alone": True,
             "target": 7, "draw": True, "rubber": True}
    answer = server.create(rules, [{"kind": "you", "name": "Ann"}, *ALL_BOTS, ALL_BOTS[0]])
    info = server.http.get(f"/api/tables/{answer['id']}").json()
    assert info["rules"] == {**rules, "joker_turnup": "suit:H"}


def test_created_tables_are_listed_without_their_secrets(server: Server) -> None:
    r = server.http.post("/api/tables", json={
        "rules": {"players": 3}, "private": False,
        "seats": [{"kind": "you", "name": "Ann"}, {"kind": "friend"}, {"kind": "open"}]})
    assert r.status_code == 201
    answer = r.json()
    assert answer["token"] and answer["place"] == 0 and answer["host"]
    assert [i["place"] for i in answer["invites"]] == [1]
    listing = server.http.get("/api/tables")
    assert listing.status_code == 200
    text = listing.text
    for secret in (answer["token"], answer["host"], answer["invites"][0]["invite"]):
        assert secret not in text
    table = next(t for t in listing.json()["open"] if t["id"] == answer["id"])
    assert [s["name"] for s in table["seats"]] == ["Ann", "friend", "open seat"]
    assert [s["kind"] for s in table["seats"]] == ["person"] * 3
    assert [s["open"] for s in table["seats"]] == [False, False, True]
    assert [s["claimed"] for s in table["seats"]] == [True, False, False]
    assert [s["invited"] for s in table["seats"]] == [False, True, False]


def test_an_invitation_or_an_open_seat_is_taken_by_name(server: Server) -> None:
    answer = server.create({"players": 3},
                           [{"kind": "you", "name": "Ann"}, {"kind": "friend"}, {"kind": "open"}])
    tid = answer["id"]
    invite = answer["invites"][0]["invite"]
    r = server.http.post(f"/api/tables/{tid}/join", json={"invite": invite, "name": "Bea"})
    assert r.status_code == 200 and r.json()["place"] == 1
    assert r.json()["token"] != invite  # the claim makes a seat token of its own
    for guess in ("guess" * 6, "ünïcödé"):
        r = server.http.post(f"/api/tables/{tid}/join", json={"invite": guess, "name": "Eve"})
        assert r.status_code == 403 and r.json()["code"] == "bad_invitation"
    r = server.http.post(f"/api/tables/{tid}/join", json={"place": 2, "name": "Cy"})
    assert r.status_code == 200 and r.json()["token"]
    r = server.http.post(f"/api/tables/{tid}/join", json={"place": 2, "name": "Dee"})
    assert r.status_code == 409
    r = server.http.post(f"/api/tables/{tid}/join", json={"place": 1, "name": "Dee"})
    assert r.status_code == 409  # a friend's seat needs the invitation
    seats = server.http.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bea", "Cy"]


def test_the_record_is_withheld_until_the_game_is_over_then_replays(server: Server) -> None:
    answer = server.create({"players": 2, "target": 3},
                           [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"}])
    tid = answer["id"]
    for what in ("record", "replay"):
        r = server.http.get(f"/api/tables/{tid}/matches/1/{what}")
        assert r.status_code == 409 and "RULES §12" in r.text
    final = play_out(server, tid, answer["token"])
    r = server.http.get(f"/api/tables/{tid}/matches/1/record")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["seats"] == ["Ann", "Bea"]
    replayed = list(replay(record))
    assert list(replayed[-1].score or ()) == final["game"]["scores"] == record["scores"]
    frames = server.http.get(f"/api/tables/{tid}/matches/1/replay").json()
    deals = frames["games"][0]["deals"]
    assert len(deals) == len(record["deals"])
    assert all(len(d["frames"]) == len(d["actions"]) + 1 for d in deals)
    assert frames["games"][0]["scores"] == record["scores"]
    finished = server.http.get("/api/tables").json()["finished"]
    assert any(f["id"] == tid and f["match"] == 1 for f in finished)
    assert server.http.get(f"/api/tables/{tid}/matches/7/record").status_code == 404
    assert server.http.get("/api/tables/nope/matches/1/record").status_code == 404


def test_the_pages_and_static_files_are_served(server: Server) -> None:
    for path in ("/", "/table/abc", "/history/abc/1"):
        r = server.http.get(path)
        assert r.status_code == 200 and "<main id=\"app\"" in r.text
    for name in ("app.js", "cards.js", "table.js", "lobby.js", "history.js", "util.js",
                 "style.css"):
        assert server.http.get(f"/static/{name}").status_code == 200
    assert server.http.get("/api/tables/nothing").status_code == 404


def test_the_default_database_lives_in_the_users_data_directory(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = default_db_path()
    assert path.name == "euchre.sqlite3"
    if path.parent.parent == tmp_path:  # Linux and other XDG systems
        assert path == tmp_path / "euchre" / "euchre.sqlite3"
