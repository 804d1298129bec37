"""Actions: the RECORDS "Actions" notation and the fixed action space."""

from __future__ import annotations

import pytest

from euchre.actions import (
    CALL,
    DEFEND_ALONE,
    DISCARD,
    NUM_ACTIONS,
    ORDER,
    ORDER_ALONE,
    PASS,
    PLAY,
    TRUMP,
    TRUMP_ALONE,
    Action,
    ActionKind,
    InvalidActionError,
)
from euchre.cards import Card, Suit, cards_of, pack_mask
from euchre.deal import Deal
from euchre.rules import Rules


def expected_text(action_id: int) -> str:
    """The RECORDS text of an id, from the table in ``euchre/actions.py``, built here."""
    all_cards = [str(c) for c in cards_of(pack_mask(32, joker=True))]
    assert len(all_cards) == 33
    if action_id < 33:
        return f"play {all_cards[action_id]}"
    if action_id < 66:
        return f"discard {all_cards[action_id - 33]}"
    if action_id < 99:
        return f"call {all_cards[action_id - 66]}"
    fixed = {99: "pass", 100: "order", 101: "order alone", 110: "defend alone"}
    if action_id in fixed:
        return fixed[action_id]
    suit = "CDHS"[(action_id - 102) % 4]
    return f"trump {suit}" + (" alone" if action_id >= 106 else "")


def test_the_action_space_is_fixed() -> None:
    """One id per action in ``range(111)``, the same in every variant."""
    assert NUM_ACTIONS == 111
    assert (PLAY, DISCARD, CALL, PASS) == (0, 33, 66, 99)
    assert (ORDER, ORDER_ALONE, TRUMP, TRUMP_ALONE, DEFEND_ALONE) == (100, 101, 102, 106, 110)


@pytest.mark.parametrize("action_id", range(NUM_ACTIONS))
def test_every_id_prints_parses_and_round_trips(action_id: int) -> None:
    """RECORDS "Actions": every action has one canonical text; the id round trips."""
    action = Action.from_id(action_id)
    text = expected_text(action_id)
    assert str(action) == text
    assert action.id == action_id
    assert Action.parse(text) == action
    assert Action.parse(text.upper()) == action
    assert repr(action) == f"Action.parse({text!r})"
    assert eval(repr(action)) == action


def test_every_text_is_distinct() -> None:
    texts = {str(Action.from_id(i)) for i in range(NUM_ACTIONS)}
    assert len(texts) == NUM_ACTIONS


@pytest.mark.parametrize("action_id", [-1, NUM_ACTIONS, 1000])
def test_ids_outside_the_space_are_refused(action_id: int) -> None:
    with pytest.raises(InvalidActionError, match=f"0 to 110, not {action_id}"):
        Action.from_id(action_id)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("pass", "pass"),
        ("PASS", "pass"),
        (" Pass ", "pass"),
        ("order", "order"),
        ("order alone", "order alone"),
        ("Order  ALONE", "order alone"),
        ("trump H", "trump H"),
        ("trump h", "trump H"),
        ("trump ♥", "trump H"),
        ("trump hearts", "trump H"),
        ("trump ♠ alone", "trump S alone"),
        ("TRUMP c ALONE", "trump C alone"),
        ("discard 9C", "discard 9C"),
        ("discard 9c", "discard 9C"),
        ("discard 10♦", "discard TD"),
        ("discard joker", "discard JK"),
        ("call AH", "call AH"),
        ("Call A♥", "call AH"),
        ("call jk", "call JK"),
        ("defend alone", "defend alone"),
        ("Defend Alone", "defend alone"),
        ("play JH", "play JH"),
        ("play 10h", "play TH"),
        ("JH", "play JH"),
        ("jh", "play JH"),
        ("10♣", "play TC"),
        ("joker", "play JK"),
        ("play, 7s", "play 7S"),
    ],
)
def test_action_input_is_forgiving_output_canonical(text: str, canonical: str) -> None:
    """RECORDS: input is case-insensitive and forgiving (``10``, symbols, a bare card)."""
    assert str(Action.parse(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "order up",
        "order alone now",
        "trump",
        "trump X",
        "trump H X",
        "trump H alone now",
        "play",
        "play 9C 9D",
        "discard",
        "call",
        "call 6C",
        "defend",
        "defend together",
        "pass pass",
        "foo",
        "1H",
        "alone",
    ],
)
def test_not_an_action_is_refused_with_its_text(text: str) -> None:
    with pytest.raises(InvalidActionError, match="not an action") as info:
        Action.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_constructors_build_the_same_actions() -> None:
    assert Action.play("JH") == Action.parse("play JH") == Action.from_id(20)
    assert Action.play(Card.parse("JH")) == Action.play(20)
    assert Action.discard("9c") == Action.parse("discard 9C") == Action.from_id(33 + 2)
    assert Action.call(Card.JK) == Action.parse("call JK") == Action.from_id(98)
    assert Action.trump("H") == Action.parse("trump H") == Action.from_id(104)
    assert Action.trump(Suit.SPADES, alone=True) == Action.from_id(109)


def test_action_fields() -> None:
    a = Action.parse("trump D alone")
    assert (a.kind, a.suit, a.alone, a.card) == (ActionKind.TRUMP, Suit.DIAMONDS, True, None)
    b = Action.parse("discard QS")
    assert (b.kind, b.card, b.alone) == (ActionKind.DISCARD, Card.parse("QS"), False)
    assert Action.parse("order alone").kind is ActionKind.ORDER
    assert Action.parse("order alone").alone is True
    assert Action.parse("defend alone").kind is ActionKind.DEFEND_ALONE


def test_malformed_action_objects_have_no_id() -> None:
    with pytest.raises(InvalidActionError, match="needs a card"):
        _ = Action(ActionKind.PLAY).id
    with pytest.raises(InvalidActionError, match="needs a suit"):
        _ = Action(ActionKind.TRUMP).id


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_same_ids_in_every_variant(players: int) -> None:
    """The action space does not depend on the variant: order is 100, pass is 99."""
    deal = Deal.random(Rules(players=players), dealer=0, seed=11)
    expected = [PASS, ORDER] if players == 2 else [PASS, ORDER, ORDER_ALONE]
    assert deal.legal_action_ids() == expected
    assert [str(a) for a in deal.legal_actions()] == [expected_text(i) for i in expected]
    assert all(0 <= i < NUM_ACTIONS for i in deal.legal_action_ids())
