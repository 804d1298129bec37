"""Puzzle ratings kept by the server (issue 33, item 3: the web's ratings in the browser's
storage and on the server; euchre.server.puzzle_players), on SQLite and on PostgreSQL: a
player made from the ratings the page kept, read back with its key on another device,
each answer rated from the server's row and written there, a streak's best kept, answers
at once all counted; every refusal (no key, a wrong key, an unknown player, a bad
answer) is a 4xx that changes nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pytest
from serverkit import Server

from euchre.actions import Action
from euchre.puzzles import Puzzle, shipped
from euchre.puzzles.rating import Rating, rate

KEPT = {"rating": 1620.0, "rd": 90.0, "vol": 0.06}


def make_player(server: Server, variants: dict[str, Any] | None = None) -> dict[str, Any]:
    r = server.http.post("/api/puzzles/players", json={"variants": variants or {}})
    assert r.status_code == 201, r.text
    player: dict[str, Any] = r.json()
    return player


def read(server: Server, player: dict[str, Any], key: str | None = None) -> httpx2.Response:
    return server.http.get(f"/api/puzzles/players/{player['id']}",
                           headers={"X-Euchre-Key": key or player["key"]})


def answer(server: Server, player: dict[str, Any], puzzle: Puzzle, action: str,
           key: str | None = None, **extra: Any) -> httpx2.Response:
    return server.http.post(
        f"/api/puzzles/{puzzle.id}/answer", headers={"X-Euchre-Key": key or player["key"]},
        json={"players": puzzle.players, "action": action, "player": player["id"], **extra})


def wrong(puzzle: Puzzle) -> str:
    return next(a for a in puzzle.values if not puzzle.solved_by(Action.parse(a)))


def test_a_player_keeps_the_page_s_ratings_and_each_answer_moves_the_server_s(
        server: Server) -> None:
    """Made from what the page kept, read with the key (as on a second device), rated
    from the server's row whatever rating the page sends, and the new rating stored."""
    player = make_player(server, {"4": {"rating": KEPT, "streak": 3}})
    assert set(player) == {"id", "key", "variants"}
    got = read(server, player)
    assert got.status_code == 200
    four = got.json()["variants"]["4"]
    assert four == {"rating": KEPT, "streak": 3}
    assert got.json()["variants"]["2"] == {"rating": Rating().to_json(), "streak": 0}
    puzzle = shipped(4)[0]
    r = answer(server, player, puzzle, puzzle.answer,
               rating={"rating": 900.0, "rd": 50.0, "vol": 0.06})  # not the server's
    assert r.status_code == 200, r.text
    after = rate(Rating.from_json(KEPT), puzzle.rating, True)
    assert r.json()["before"] == KEPT and r.json()["rating"] == after.to_json()
    assert r.json()["player"]["variants"]["4"]["rating"] == after.to_json()
    assert read(server, player).json()["variants"]["4"] == {"rating": after.to_json(),
                                                             "streak": 3}


def test_a_streak_answer_keeps_the_best_streak_and_rates_nothing(server: Server) -> None:
    player = make_player(server)
    easy = shipped(2)[0]
    r = answer(server, player, easy, easy.answer, streak=5)
    assert r.status_code == 200, r.text
    two = read(server, player).json()["variants"]["2"]
    assert two == {"rating": Rating().to_json(), "streak": 5}
    answer(server, player, easy, wrong(easy), streak=9)  # missed: the streak is over
    answer(server, player, easy, easy.answer, streak=2)  # a shorter one: the best stays
    assert read(server, player).json()["variants"]["2"]["streak"] == 5


def test_answers_at_once_are_all_counted(server: Server) -> None:
    """Four answers of one player at the same moment: each rates from the row the one
    before it wrote (none is lost to another's write)."""
    player = make_player(server)
    puzzle = shipped(3)[0]
    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda _: answer(server, player, puzzle, wrong(puzzle))
                              .status_code, range(4)))
    assert codes == [200] * 4
    expected = Rating()
    for _ in range(4):  # each as stored (to_json rounds), then moved again
        expected = Rating.from_json(rate(expected, puzzle.rating, False).to_json())
    assert read(server, player).json()["variants"]["3"]["rating"] == expected.to_json()


@pytest.mark.parametrize(("case", "status", "code"), [
    ("no key", 403, "not_puzzle_player"),
    ("another's key", 403, "not_puzzle_player"),
    ("unknown player", 404, "no_puzzle_player"),
    ("answer with another's key", 403, "not_puzzle_player"),
    ("answer for an unknown player", 404, "no_puzzle_player"),
    ("answer not legal", 422, "illegal"),
    ("answer not an action", 422, "invalid_action"),
    ("a streak of 0", 422, "invalid_request"),
    ("make: a variant of six", 422, "invalid_request"),
    ("make: a rating out of bounds", 422, "invalid_request"),
    ("make: an unknown field", 422, "invalid_request"),
])
def test_a_refused_request_is_a_4xx_that_changes_nothing(
        server: Server, case: str, status: int, code: str) -> None:
    player = make_player(server, {"4": {"rating": KEPT, "streak": 3}})
    other = make_player(server)
    puzzle = shipped(4)[0]
    before = read(server, player).json()
    http = server.http
    if case == "no key":
        r = http.get(f"/api/puzzles/players/{player['id']}")
    elif case == "another's key":
        r = read(server, player, other["key"])
    elif case == "unknown player":
        r = read(server, {"id": "nobody", "key": player["key"]})
    elif case == "answer with another's key":
        r = answer(server, player, puzzle, puzzle.answer, other["key"])
    elif case == "answer for an unknown player":
        r = answer(server, {"id": "nobody", "key": player["key"]}, puzzle, puzzle.answer)
    elif case == "answer not legal":
        r = answer(server, player, puzzle, "play JK")
    elif case == "answer not an action":
        r = answer(server, player, puzzle, "fly away")
    elif case == "a streak of 0":
        r = answer(server, player, puzzle, puzzle.answer, streak=0)
    elif case == "make: a variant of six":
        r = http.post("/api/puzzles/players", json={"variants": {"6": {"streak": 1}}})
    elif case == "make: a rating out of bounds":
        r = http.post("/api/puzzles/players",
                      json={"variants": {"4": {"rating": {"rating": 9e9}}}})
    else:
        r = http.post("/api/puzzles/players", json={"variants": {}, "admin": True})
    assert r.status_code == status, r.text
    assert r.json()["code"] == code
    assert read(server, player).json() == before
    assert read(server, other).json()["variants"]["4"]["rating"] == Rating().to_json()
