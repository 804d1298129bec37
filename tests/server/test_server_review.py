"""The expert's review of a seat's decisions after a game (``GET .../review``): only the
seat's own player gets it, only once the game is over, the same every time, and each
refusal changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Database, Server, latest_state, my_turn, play_out, running_server

from euchre.jobs.analysis import count_decisions
from euchre.server.limits import Limits, Rate
from euchre.server.review import ReviewCache, review_match

YOU_AND_A_BOT = [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"}]
DECISION_KEYS = {"game", "deal", "index", "phase", "played", "best", "cost", "mistake",
                 "values", "role", "trick", "lead"}


@contextlib.contextmanager
def serving(database: Database, hints: Rate | None = None) -> Iterator[Server]:
    """A server whose hints (and so reviews) are limited to ``hints`` per address."""
    with running_server(database("euchre"), limits=Limits(hints=hints)) as srv:
        yield srv


def _review(server: Server, table: str, token: str | None, match: int = 1) -> Any:
    headers = {} if token is None else {"X-Seat-Token": token}
    return server.http.get(f"/api/tables/{table}/matches/{match}/review", headers=headers,
                           timeout=120)


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and isinstance(body["detail"], str) and "params" in body


def _finished_game(server: Server, rules: dict[str, Any] | None = None,
                   seats: list[dict[str, Any]] | None = None) -> tuple[str, str, dict[str, Any]]:
    """A table played to its end: its id, your token and the last state."""
    answer = server.create(rules or {"players": 2, "target": 1}, seats or YOU_AND_A_BOT)
    final = play_out(server, answer["id"], answer["token"])
    return answer["id"], answer["token"], final


def test_each_refusal_is_a_clear_4xx_that_changes_nothing(database: Database) -> None:
    with serving(database, hints=Rate(1, 3600)) as server:
        answer = server.create({"players": 2, "target": 1}, YOU_AND_A_BOT)
        tid, token = answer["id"], answer["token"]
        with server.ws(tid, token) as ws:
            before = my_turn(ws)  # the bot, should it lead, has moved
            # no such table, whatever the token
            _refused(_review(server, "nope", token), 404, "no_table")
            # a spectator (no token), an empty token, a wrong one
            for given in (None, "", "not-a-seat-token"):
                _refused(_review(server, tid, given), 403, "bad_token")
            # the game is not over yet: not even its player gets a review
            _refused(_review(server, tid, token), 409, "not_over")
            _refused(_review(server, tid, token, match=7), 404, "no_game")
            after = latest_state(ws)
        assert after["seq"] == before["seq"] and after["deal"] == before["deal"]
        # the token travels in a header, never in the URL
        r = server.http.get(f"/api/tables/{tid}/matches/1/review?token={token}")
        _refused(r, 403, "bad_token")
        play_out(server, tid, token)
        # no refusal counted against the rate: the one review allowed is still there
        assert _review(server, tid, token).status_code == 200


def test_a_finished_game_is_reviewed_from_the_players_seat(database: Database) -> None:
    with serving(database) as server:
        tid, token, final = _finished_game(server)
        r = _review(server, tid, token)
        assert r.status_code == 200, r.text
        review = r.json()
        record = server.http.get(f"/api/tables/{tid}/matches/1/record").json()
    assert review["id"] == tid and review["match"] == 1 and review["games"] == 1
    assert review["seat"] == final["you"]
    decisions = review["decisions"]
    assert decisions, "the seat bid at least once"
    for d in decisions:
        assert set(d) == DECISION_KEYS
        # the seat's own move, with a choice, every choice valued, best first
        assert record["deals"][d["deal"]]["actions"][d["index"]] == d["played"]
        values = d["values"]
        assert len(values) >= 2
        assert [v["value"] for v in values] == sorted((v["value"] for v in values), reverse=True)
        valued = {v["action"]: v["value"] for v in values}
        assert d["played"] in valued and d["best"] in valued
        assert d["cost"] == pytest.approx(values[0]["value"] - valued[d["played"]], abs=2e-3)
        assert d["mistake"] is (d["cost"] >= review["threshold"])
        assert (d["trick"] is None) is (d["phase"] != "play")
    assert review["total_cost"] == pytest.approx(sum(d["cost"] for d in decisions), abs=1e-2)
    assert review["mistakes"] == sum(d["mistake"] for d in decisions)


def test_the_same_review_comes_back_twice_and_is_not_the_cache_s_luck(
        database: Database) -> None:
    with serving(database) as server:
        tid, token, final = _finished_game(server)
        first = _review(server, tid, token).json()
        second = _review(server, tid, token).json()
        rec = server.http.get(f"/api/tables/{tid}/matches/1/record").json()
    assert first == second
    # made again from scratch: the same review (its seeds come from the positions)
    again = review_match([rec], final["you"])
    assert {"id": tid, "match": 1, **again} == first


def test_every_game_of_a_rubber_is_reviewed_at_the_seat_the_draw_gave(
        database: Database) -> None:
    bots = [{"kind": "bot", "bot": "basic"}] * 3
    with serving(database) as server:
        tid, token, final = _finished_game(
            server, {"players": 4, "target": 1, "rubber": True, "draw": True},
            [{"kind": "you", "name": "Ann"}, *bots])
        review = _review(server, tid, token).json()
        records = server.http.get(f"/api/tables/{tid}/matches/1/record").json()
    assert isinstance(records, list) and len(records) >= 2
    assert review["games"] == len(records)
    assert review["seat"] == final["you"]
    # every game in which the draw's seat had a choice (none where its partner went
    # alone in a one-deal game, say)
    chosen = {g for g, rec in enumerate(records) if count_decisions([rec], final["you"])}
    assert chosen and {d["game"] for d in review["decisions"]} == chosen


def test_making_reviews_is_bounded_by_the_hints_rate_but_a_kept_one_is_not(
        database: Database) -> None:
    with serving(database, hints=Rate(1, 3600)) as server:
        tid, token, _ = _finished_game(server)
        other, other_token, _ = _finished_game(server)
        assert _review(server, tid, token).status_code == 200
        assert _review(server, tid, token).status_code == 200  # kept: no new work
        r = _review(server, other, other_token)
        _refused(r, 429, "rate_limited")
        assert r.json()["params"]["what"] == "hints"


# -- the cache ---------------------------------------------------------------------------
def test_the_cache_keeps_the_reviews_asked_for_last() -> None:
    async def run() -> ReviewCache:
        cache = ReviewCache(size=2)
        for n in (1, 2):
            await cache.review(("t", n, 0), lambda n=n: {"n": n})  # type: ignore[misc]
        assert cache.get(("t", 1, 0)) == {"n": 1}  # now the most recently asked for
        await cache.review(("t", 3, 0), lambda: {"n": 3})
        return cache

    cache = asyncio.run(run())
    assert len(cache) == 2
    assert cache.get(("t", 2, 0)) is None
    assert cache.get(("t", 1, 0)) == {"n": 1} and cache.get(("t", 3, 0)) == {"n": 3}


def test_two_requests_for_one_review_share_its_making() -> None:
    made = []
    release = threading.Event()

    def make() -> dict[str, Any]:
        made.append(1)
        release.wait(30)
        return {"made": len(made)}

    async def run() -> list[dict[str, Any]]:
        cache = ReviewCache()
        first = asyncio.ensure_future(cache.review(("t", 1, 0), make))
        await asyncio.sleep(0)
        assert cache.making(("t", 1, 0))
        second = asyncio.ensure_future(cache.review(("t", 1, 0), make))
        await asyncio.sleep(0)
        release.set()
        return list(await asyncio.gather(first, second))

    assert asyncio.run(run()) == [{"made": 1}, {"made": 1}]
    assert made == [1]


def test_a_review_that_failed_is_not_kept() -> None:
    def broken() -> dict[str, Any]:
        raise RuntimeError("the expert fell over")

    async def run() -> dict[str, Any]:
        cache = ReviewCache()
        with pytest.raises(RuntimeError):
            await cache.review(("t", 1, 0), broken)
        assert cache.get(("t", 1, 0)) is None and not cache.making(("t", 1, 0))
        return await cache.review(("t", 1, 0), lambda: {"ok": True})

    assert asyncio.run(run()) == {"ok": True}


def test_the_review_answer_is_plain_json() -> None:
    """What the route sends is the module's dict as is: nothing there that JSON cannot
    carry (a float NaN, an Action)."""
    from euchre import Deal, Rules

    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    for a in ["pass", "pass", "pass", "trump C", "9D", "9C"]:
        deal.apply(a)
    record = deal.to_record()
    review = review_match([record], 1, samples=8)
    assert json.loads(json.dumps(review, allow_nan=False)) == review
    assert [(d["played"], d["best"], d["role"]) for d in review["decisions"][:2]] == [
        ("pass", "order", ""), ("pass", "trump H", "")]


@pytest.mark.parametrize("rules", [{"players": 2}, {"players": 3}, {"players": 4},
                                   {"players": 4, "joker": True, "stick_the_dealer": True},
                                   {"players": 5}])
def test_a_choice_the_hint_made_is_never_a_mistake_in_the_review(rules: dict[str, Any]) -> None:
    """Seat 0 plays a game doing what the web's hint says at every decision; the web's
    review of that game then finds each of those choices the best, with the values the
    hint showed (one opinion: :func:`euchre.bots.opinion.expert_opinion`)."""
    from euchre import Rules
    from euchre.bots import choose, make_bot
    from euchre.game import Game
    from euchre.records import game_record
    from euchre.server.hints import advise

    game = Game(Rules.from_dict({**rules, "target": 4}), seed=sum(rules.values()))
    bots = [make_bot("basic", seed=s) for s in range(game.rules.players)]
    hints: dict[tuple[int, int], dict[str, Any]] = {}
    while not game.is_over:
        deal = game.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if seat == 0 and len(deal.legal_action_ids()) > 1:
                hint = advise(deal.observation(0))
                hints[len(game.deals), len(deal.actions)] = hint
                deal.apply(hint["action"])
            else:
                deal.apply(choose(bots[seat], deal))
        game.next_deal()
    review = review_match([game_record(game)], 0)
    decisions = {(d["deal"], d["index"]): d for d in review["decisions"]}
    assert len(hints) >= 8 and decisions.keys() == hints.keys()
    for key, hint in hints.items():
        d = decisions[key]
        assert (d["played"], d["best"], d["cost"], d["mistake"]) == (
            hint["action"], hint["action"], 0, False)
        assert d["values"] == [{"action": v["action"], "value": v["value"]}
                               for v in hint["values"]]
    assert review["mistakes"] == 0


def test_a_mistake_of_yours_is_a_puzzle_only_with_your_seat_token(database: Database) -> None:
    """Your mistakes (the web's "your mistakes"): decision k of your review, rebuilt on
    the server from the record; judged there; refused without your token or for a
    decision that was no mistake, changing nothing."""
    with serving(database) as server:
        tid, token, _ = _finished_game(server)
        review = _review(server, tid, token).json()
        kinds = [d["mistake"] for d in review["decisions"]]
        if True not in kinds or False not in kinds:
            pytest.skip("this game's review has no mistake, or only mistakes")
        k, fine = kinds.index(True), kinds.index(False)
        url = f"/api/tables/{tid}/matches/1/puzzles/{k}"
        mine = {"X-Seat-Token": token}
        served = server.http.get(url, headers=mine)
        assert served.status_code == 200, served.text
        assert set(served.json()) == {"id", "players", "rating", "state", "house_rules"}
        best = review["decisions"][k]["best"]
        assert best in served.json()["state"]["deal"]["legal"]
        _refused(server.http.get(url), 403, "bad_token")
        _refused(server.http.get(url, headers={"X-Seat-Token": "x" * 20}), 403, "bad_token")
        _refused(server.http.get(f"/api/tables/{tid}/matches/1/puzzles/{fine}", headers=mine),
                 404, "no_puzzle")
        _refused(server.http.post(url + "/answer", json={"action": best}), 403, "bad_token")
        _refused(server.http.post(url + "/answer", json={"action": "jump"}, headers=mine),
                 422, "invalid_action")
        judged = server.http.post(url + "/answer", json={"action": best}, headers=mine)
        assert judged.status_code == 200 and judged.json()["solved"]
        played = review["decisions"][k]["played"]
        missed = server.http.post(url + "/answer", json={"action": played}, headers=mine)
        assert not missed.json()["solved"]
