"""The puzzles' API: a puzzle is served without its answer, the answer is judged on the
server with the new rating (the terminal's Glicko-2), and every refusal (a variant that
is not one, an unknown puzzle, an answer that is no action or not legal there) is a 4xx
that changes nothing."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from euchre import Rules
from euchre.actions import Action
from euchre.puzzles import THEMES, Puzzle, shipped
from euchre.puzzles.rating import Rating, rate
from euchre.server.app import create_app
from euchre.server.puzzles import daily_puzzle, streak_puzzle


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "p.sqlite3"), base_url="http://localhost") as c:
        yield c


def _served(client: TestClient, players: int = 4) -> tuple[dict[str, Any], Puzzle]:
    answer = client.get(f"/api/puzzles/next?players={players}&rating=1500")
    assert answer.status_code == 200
    data = answer.json()
    return data, next(p for p in shipped(players) if p.id == data["id"])


def test_a_puzzle_is_served_as_the_seat_sees_it_without_its_answer(client: TestClient) -> None:
    data, puzzle = _served(client)
    assert set(data) == {"id", "players", "rating", "state", "house_rules"}
    assert data["house_rules"] == [{"option": name, "value": value} for name, value in
                                   Rules.from_dict(puzzle.rules).changed().items()]
    assert set(data["state"]["deal"]["legal"]) == set(puzzle.values)
    assert data["state"]["you"] == puzzle.seat
    text = json.dumps(data)
    assert '"answer"' not in text and '"values"' not in text and '"themes"' not in text
    # the other seats' cards are not sent (RULES §12)
    hand = sorted(str(c) for c in puzzle.observation().hand)
    assert sorted(data["state"]["deal"]["hand"]) == hand
    assert "hands" not in data["state"]["deal"]


def test_an_answer_is_judged_and_rated_by_the_terminals_glicko2(client: TestClient) -> None:
    _, puzzle = _served(client)
    before = Rating(1620.0, 120.0, 0.06)
    answer = client.post(f"/api/puzzles/{puzzle.id}/answer",
                         json={"players": 4, "action": puzzle.answer,
                               "rating": before.to_json()})
    assert answer.status_code == 200
    got = answer.json()
    assert got["solved"] and got["answer"] == puzzle.answer
    assert got["rating"] == rate(before, puzzle.rating, True).to_json()
    assert got["values"][0]["action"] == puzzle.answer
    assert {v["action"] for v in got["values"]} == set(puzzle.values)
    wrong = next(a for a in puzzle.values if not puzzle.solved_by(Action.parse(a)))
    missed = client.post(f"/api/puzzles/{puzzle.id}/answer",
                         json={"players": 4, "action": wrong}).json()
    assert not missed["solved"] and missed["rating"]["rating"] < 1500


def test_the_daily_puzzle_and_the_streak_are_the_terminals(client: TestClient) -> None:
    day = client.get("/api/puzzles/daily?players=2").json()
    today = daily_puzzle(2, datetime.date.fromisoformat(day["day"]))
    easiest = streak_puzzle(2, 0)
    assert today is not None and easiest is not None
    assert day["id"] == today.id
    first = client.get("/api/puzzles/streak?players=2&step=0").json()
    second = client.get("/api/puzzles/streak?players=2&step=1").json()
    assert first["id"] == easiest.id and second["rating"] >= first["rating"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_themes_offered_are_those_of_the_variant_s_puzzles_with_their_counts(
        client: TestClient, players: int) -> None:
    """The page offers only themes some puzzle of the variant has, each with its count;
    every one offered then serves a puzzle with it."""
    got = client.get(f"/api/puzzles/themes?players={players}")
    assert got.status_code == 200
    counts = got.json()["themes"]
    puzzles = shipped(players)
    assert counts == {t: n for t in THEMES
                      if (n := sum(t in p.themes for p in puzzles))}
    assert list(counts) == [t for t in THEMES if t in counts]
    for theme in counts:
        one = client.get(f"/api/puzzles/next?players={players}&themes={theme}")
        assert one.status_code == 200
        assert theme in next(p for p in puzzles if p.id == one.json()["id"]).themes


@pytest.mark.parametrize(("method", "path", "body", "status", "code"), [
    ("get", "/api/puzzles/next?players=6", None, 422, "invalid_request"),
    ("get", "/api/puzzles/daily?players=1", None, 422, "invalid_request"),
    ("get", "/api/puzzles/themes?players=0", None, 422, "invalid_request"),
    ("get", "/api/puzzles/next?players=4&themes=cheating", None, 422, "invalid_request"),
    ("get", "/api/puzzles/streak?players=4&step=-1", None, 422, "invalid_request"),
    ("post", "/api/puzzles/000000000000/answer", {"players": 4, "action": "pass"}, 404,
     "no_puzzle"),
    ("post", "/api/puzzles/ID/answer", {"players": 7, "action": "pass"}, 422,
     "invalid_request"),
    ("post", "/api/puzzles/ID/answer", {"players": 4, "action": "fly away"}, 422,
     "invalid_action"),
    ("post", "/api/puzzles/ID/answer", {"players": 4, "action": ""}, 422, "invalid_request"),
    ("post", "/api/puzzles/ID/answer", {"players": 4, "action": "play JK"}, 422, "illegal"),
    ("post", "/api/puzzles/ID/answer",
     {"players": 4, "action": "ANSWER", "rating": {"rating": "high"}}, 422, "invalid_request"),
])
def test_a_refused_request_is_a_4xx_that_changes_nothing(
        client: TestClient, method: str, path: str, body: dict[str, Any] | None,
        status: int, code: str) -> None:
    _, puzzle = _served(client)
    path = path.replace("ID", puzzle.id)
    if body is not None and body.get("action") == "ANSWER":
        body = {**body, "action": puzzle.answer}
    before = client.post(f"/api/puzzles/{puzzle.id}/answer",
                         json={"players": 4, "action": puzzle.answer}).json()
    answer = client.request(method.upper(), path, json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code
    after = client.post(f"/api/puzzles/{puzzle.id}/answer",
                        json={"players": 4, "action": puzzle.answer}).json()
    assert after == before
