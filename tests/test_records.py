"""Deal and game records, and their replay (RECORDS.md)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from euchre import Card, Deal, Rules
from euchre.bots import make_bot, play_game
from euchre.game import Game
from euchre.records import RecordError, game_record, parse_records, replay


def _two_handed_record() -> dict[str, Any]:
    return {
        "rules": {"players": 2},
        "dealer": 0,
        "hands": [["9C", "TC", "JC", "QC", "KC"], ["AC", "9D", "TD", "JD", "QD"]],
        "dummy": None,
        "turnup": "KD",
        "kitty": ["AD", "9H", "TH", "JH", "QH", "KH", "AH", "9S", "TS", "JS", "QS", "KS", "AS"],
        "actions": ["order", "discard 9C", "JD", "KD", "QD", "TC", "TD", "JC", "9D", "QC",
                    "AC", "KC"],
    }


def test_deal_record_replays_to_the_records_object() -> None:
    """RECORDS: replay prints trump, maker, alone, lone_defender, partner, tricks, points."""
    [out] = list(replay(_two_handed_record()))
    assert out.summary == {
        "trump": "D", "maker": 1, "alone": False, "lone_defender": None, "partner": None,
        "tricks": [0, 5], "points": [0, 2], "complete": True,
    }


def test_record_round_trips_through_json() -> None:
    """A deal prints as its record (STYLE) and the record rebuilds the same deal."""
    deal = Deal.from_record(_two_handed_record())
    text = str(deal)
    again = Deal.from_record(json.loads(text))
    assert again.to_record() == deal.to_record()
    assert eval(repr(deal), {"Deal": Deal}).to_record() == deal.to_record()


def test_a_deal_record_needs_its_kitty() -> None:
    """RECORDS: a deal record holds the kitty, the rest of the stock; without it the
    record is refused, while Deal.from_cards computes it for code that builds a deal."""
    rec = _two_handed_record()
    del rec["kitty"]
    with pytest.raises(RecordError, match="needs 'kitty'"):
        list(replay(rec))
    deal = Deal.from_cards(Rules(players=2), rec["dealer"], rec["hands"], rec["turnup"])
    assert deal.to_record().to_json()["kitty"] == _two_handed_record()["kitty"]


def test_short_record_replays_incomplete() -> None:
    """RECORDS: a record whose actions stop early replays with complete false."""
    rec = _two_handed_record()
    rec["actions"] = rec["actions"][:4]
    [out] = list(replay(rec))
    assert out.summary["complete"] is False and out.summary["points"] == [0, 0]
    assert out.summary["tricks"] == [0, 1]


def test_illegal_action_names_index_action_and_rule() -> None:
    """RECORDS: an illegal action stops the replay naming its index, the action, the rule."""
    rec = _two_handed_record()
    rec["actions"][3] = "9H"  # seat 0 holds no 9H; it must follow diamonds anyway
    with pytest.raises(RecordError) as info:
        list(replay(rec))
    msg = str(info.value)
    assert "action 4" in msg and "'9H'" in msg and "RULES §8" in msg
    assert info.value.action == 3


def test_malformed_action_is_refused() -> None:
    """RECORDS: a malformed action text stops the replay too."""
    rec = _two_handed_record()
    rec["actions"][0] = "order up please"
    with pytest.raises(RecordError, match="action 1 "):
        list(replay(rec))


def test_cards_not_one_pack_are_refused() -> None:
    """RULES §1: the cards of a record must be one pack of its rules."""
    rec = _two_handed_record()
    rec["hands"][1][0] = "9C"
    with pytest.raises(RecordError, match="dealt twice"):
        list(replay(rec))
    rec = _two_handed_record()
    rec["hands"][1][0] = "8C"
    with pytest.raises(RecordError, match="not in the pack"):
        list(replay(rec))


def test_rules_keys_are_optional_and_unknown_keys_refused() -> None:
    """RECORDS: `rules` may omit any key; an unknown option is an error."""
    rec = _two_handed_record()
    rec["rules"] = {"players": 2, "stick_the_dealer": True}
    assert next(iter(replay(rec))).deal.rules.stick_the_dealer
    rec["rules"] = {"players": 2, "sticky": True}
    with pytest.raises(RecordError, match="unknown rules option"):
        list(replay(rec))


def test_json_lines_and_lists_are_read() -> None:
    """RECORDS: a file of records holds one JSON object a line."""
    one = json.dumps(_two_handed_record())
    assert len(parse_records(one + "\n" + one + "\n")) == 2
    assert len(parse_records(json.dumps([_two_handed_record()]))) == 1
    with pytest.raises(RecordError, match="line 2"):
        parse_records(one + "\n{not json\n")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_simulated_game_replays_to_the_same_result(players: int) -> None:
    """Every game played by bots is saved as a record that replays to the same result."""
    for seed in range(3):
        bots = [make_bot("random", seed * 10 + s) for s in range(players)]
        game = play_game(Rules(players=players, target=5), bots, seed=seed)
        record = json.loads(json.dumps(game_record(game).to_json()))
        replayed = list(replay(record))
        assert [r.summary["points"] for r in replayed] == [
            list(d.result.points) for d in game.deals
        ]
        assert replayed[-1].score == game.scores
        assert record["winners"] == list(game.winners)


def test_game_record_checks_dealer_rotation_and_score() -> None:
    """RULES §3: the deal passes left; a game record that breaks it is refused."""
    game = Game(Rules(players=2, target=3, stick_the_dealer=True), seed=6)
    rng = random.Random(6)
    while not game.is_over:
        game.apply(rng.choice(game.deal.legal_action_ids()))
    record = game_record(game).to_json()
    bad = json.loads(json.dumps(record))
    bad["deals"][1]["dealer"] = bad["deals"][0]["dealer"]
    with pytest.raises(RecordError, match="passes left"):
        list(replay(bad))
    bad = json.loads(json.dumps(record))
    bad["deals"][0]["score"] = [7, 7]
    with pytest.raises(RecordError, match="score"):
        list(replay(bad))


def _four_handed_record() -> dict[str, Any]:
    deal = Deal.random(Rules(players=4), dealer=2, seed=3)
    for _ in range(6):
        deal.apply(deal.legal_action_ids()[-1])
    return json.loads(str(deal))  # type: ignore[no-any-return]


@pytest.mark.parametrize(("key", "value", "message"), [
    ("dealer", True, "'dealer' must be a seat number from 0 to 3, not true"),
    ("dealer", "2", "'dealer' must be a seat number from 0 to 3, not the string '2'"),
    ("dealer", 2.0, "'dealer' must be a seat number from 0 to 3, not 2.0"),
    ("turnup", 5, "'turnup' must be a card such as 'JH', not 5"),
    ("turnup", None, "'turnup' must be a card such as 'JH', not null"),
    ("kitty", None, "'kitty' must be a list of cards such as ['9C', 'JH'], not null"),
    ("kitty", {"AH": 1}, "'kitty' must be a list of cards such as ['9C', 'JH'], not an object"),
    ("hands", "9C TC", "'hands' must be a list of 4 hands, not the string '9C TC'"),
    ("actions", "pass", "'actions' must be a list of actions such as 'play JH', "
                        "not the string 'pass'"),
    ("rules", [], "'rules' must be an object of rules options, not an empty list"),
])
def test_record_values_of_the_wrong_type_are_refused(key: str, value: Any, message: str) -> None:
    """A deal record's values have the types RECORDS gives them; another type is refused
    with a sentence naming the key and the type expected (true is not seat 1, 5 is no card)."""
    record = _four_handed_record()
    record[key] = value
    with pytest.raises(ValueError) as info:
        Deal.from_record(record)
    assert str(info.value) == message


def test_cards_in_a_record_are_texts_not_numbers() -> None:
    """RECORDS: cards are written as texts such as 'JH'; Deal.from_cards takes numbers
    from code, a record does not."""
    record = _four_handed_record()
    card = record["hands"][1][0]
    number = int(Card.parse(card))
    record["hands"][1][0] = number
    with pytest.raises(ValueError) as info:
        Deal.from_record(record)
    assert str(info.value) == f"'hands[1][0]' must be a card such as 'JH', not {number}"
    record["hands"][1][0] = True
    with pytest.raises(ValueError) as info:
        Deal.from_record(record)
    assert str(info.value) == "'hands[1][0]' must be a card such as 'JH', not true"
    record["hands"][1][0] = card
    record["actions"][2] = ["play", "JH"]
    with pytest.raises(ValueError) as info:
        Deal.from_record(record)
    assert str(info.value) == ("'actions[2]' must be an action such as 'play JH', "
                               "not a list of 2 items")


def test_from_cards_takes_card_numbers_but_no_bools() -> None:
    record = _four_handed_record()
    hands = [[Card.parse(c) for c in hand] for hand in record["hands"]]
    deal = Deal.from_cards(Rules(players=4), 2, hands, Card.parse(record["turnup"]))
    assert deal.to_record().to_json()["hands"] == record["hands"]
    with pytest.raises(ValueError, match="'dealer' must be a seat number from 0 to 3, not true"):
        Deal.from_cards(Rules(players=4), True, hands, record["turnup"])
    with pytest.raises(ValueError, match="'turnup' must be a card such as 'JH', not false"):
        Deal.from_cards(Rules(players=4), 2, hands, False)
