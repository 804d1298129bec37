"""Game reviews against the expert (``euchre.jobs.analysis``)."""

from __future__ import annotations

from typing import Any

import pytest

from euchre.bots import make_bot, play_game
from euchre.deal import Deal
from euchre.jobs.analysis import (
    MISTAKE_THRESHOLD,
    count_decisions,
    default_seat,
    review_record,
    review_records,
)
from euchre.records import RecordError, game_record
from euchre.rules import Rules


def bad_play_record() -> dict[str, Any]:
    """Two-handed: at the fourth trick seat 1 throws 9C instead of ruffing the led AS
    with JH, and so is euchred instead of making it (the expert ruffs)."""
    deal = Deal.from_cards(Rules(players=2), dealer=1, turnup="9H",
                           hands=["TC KS 9D AS QD", "AC 9S TS JH 9C"])
    for a in ("pass", "order", "discard 9H", "TC", "AC", "9S", "KS", "9D", "TS", "AS",
              "9C", "QD", "JH"):
        deal.apply(a)
    assert deal.is_over and deal.result.outcome == "euchred"
    return deal.to_record().to_json()


def test_a_bad_play_is_a_mistake() -> None:
    # the throw costs about a point; 64 worlds estimate it well above the threshold
    # (16 gave 0.45 once the expert read the opponent's earlier cards)
    review = review_record(bad_play_record(), seat=1, samples=64)
    by_index = {d.index: d for d in review.decisions}
    bad = by_index[10]
    assert str(bad.played) == "play 9C" and str(bad.best) == "play JH"
    assert bad.phase == "play"
    assert bad.cost >= 0.5 and bad.mistake
    assert review.mistakes >= 1
    assert review.total_cost == pytest.approx(sum(d.cost for d in review.decisions))


def test_only_the_seats_decisions_with_a_choice() -> None:
    record = bad_play_record()
    review = review_record(record, seat=1, samples=4)
    deal = Deal.from_record(record, apply_actions=False)
    expected = []
    for i, a in enumerate(record["actions"]):
        if deal.to_move == 1 and len(deal.legal_action_ids()) > 1:
            expected.append(i)
        deal.apply(a)
    assert [d.index for d in review.decisions] == expected
    assert count_decisions([record], 1) == len(expected)
    for d in review.decisions:
        assert d.played in d.values and d.best in d.values
        assert d.cost >= 0 and d.mistake == (d.cost >= MISTAKE_THRESHOLD)
        if d.best == d.played:
            assert d.cost == 0


def test_json_shape() -> None:
    data = review_record(bad_play_record(), seat=1, samples=4).to_json()
    assert set(data) == {"seat", "decisions", "total_cost", "mistakes"}
    assert data["seat"] == 1
    for d in data["decisions"]:
        assert set(d) == {"deal", "index", "phase", "played", "best", "cost", "mistake"}
        assert isinstance(d["cost"], float) and isinstance(d["mistake"], bool)
    assert data["mistakes"] == sum(d["mistake"] for d in data["decisions"])


def test_deterministic() -> None:
    record = bad_play_record()
    a = review_record(record, seat=0, samples=6, seed=3).to_json()
    b = review_record(record, seat=0, samples=6, seed=3).to_json()
    assert a == b


def test_a_game_record() -> None:
    rules = Rules(players=3, target=3)
    game = play_game(rules, [make_bot("basic", s) for s in range(3)], seed=2)
    record = game_record(game, ["West (basic)", "You", "East (basic)"])
    assert default_seat([record]) == 1
    review = review_records([record], seat=1, samples=3)
    assert review.decisions
    assert {d.deal for d in review.decisions} <= set(range(len(game.deals)))
    assert all(d.played in d.values for d in review.decisions)


def test_default_seat_and_errors() -> None:
    assert default_seat([bad_play_record()]) == 0
    with pytest.raises(ValueError, match="seat from 0 to 1"):
        review_record(bad_play_record(), seat=5)
    record = bad_play_record()
    record["actions"][3] = "JH"
    with pytest.raises(RecordError):
        review_record(record, seat=1)
