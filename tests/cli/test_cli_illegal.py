"""A refused action, told to the player: "You", and the rule in words (no seat numbers,
no section of a file the player does not have)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from euchre import Action, Deal, Rules
from euchre.actions import NUM_ACTIONS
from euchre.cli import app
from euchre.deal import Observation
from euchre.wording import why_illegal

runner = CliRunner()

# Four-handed, hearts turned up and ordered by seat 1; seat 1 then leads AD.
HANDS = ["9C TC JC QC KC", "AD KD AH KH QH", "QD 9D 9S TS QS", "AC TD JD JS KS"]


def after(*actions: str, rules: Rules | None = None, hands: list[str] | None = None,
          dealer: int = 0, turnup: str = "TH") -> Deal:
    deal = Deal.from_cards(rules or Rules(players=4), dealer=dealer,
                           hands=hands or HANDS, turnup=turnup)
    for action in actions:
        deal.apply(action)
    return deal


def why(deal: Deal, action: str) -> str:
    seat = deal.to_move
    assert seat is not None
    assert not deal.is_legal(action)
    return why_illegal(deal.observation(seat), Action.parse(action), "en")


def test_follow_suit_names_the_suit_and_the_cards_held() -> None:
    deal = after("order", "discard 9C", "AD")
    assert why(deal, "9S") == ("You cannot play 9S. You must follow diamonds: you hold "
                               "QD and 9D.")


def test_the_left_bower_is_no_card_of_its_printed_suit() -> None:
    deal = after("order", "discard 9C", "AD", "QD")
    assert why(deal, "JD") == (
        "You cannot play JD. You must follow diamonds: you hold TD. JD is the left bower: "
        "it counts as a heart, not a diamond.")


def test_trump_led_counts_the_left_bower_among_the_trumps() -> None:
    deal = after("order", "discard 9C", "AH", "9S")
    assert why(deal, "TD") == (
        "You cannot play TD. You must follow trump (hearts): you hold JD. JD, the left "
        "bower, counts as a heart.")


def test_a_card_not_held() -> None:
    deal = after("order", "discard 9C", "AD")
    assert why(deal, "AS") == "You cannot play AS. You do not hold it; you may play QD or 9D."


def test_the_turned_down_suit_may_not_be_named() -> None:
    deal = after("pass", "pass", "pass", "pass")
    assert why(deal, "trump H") == (
        "You cannot name hearts. Hearts was turned down: it cannot be trump this deal. "
        "Name another suit, or pass.")


def test_naming_a_suit_in_the_first_round() -> None:
    assert "you may name another suit in the second round" in why(after(), "trump S")


def test_stick_the_dealer() -> None:
    deal = after(*["pass"] * 7, rules=Rules(players=4, stick_the_dealer=True))
    assert why(deal, "pass") == ("You cannot pass. Stick the dealer: when everyone else has "
                                 "passed twice, the dealer must name trump.")


def test_no_going_alone_two_handed() -> None:
    deal = after(rules=Rules(players=2), hands=HANDS[:2])
    assert why(deal, "order alone") == ("You cannot order it up alone. There is no going "
                                        "alone in two-handed euchre.")


def test_the_dealer_must_take_up() -> None:
    deal = after("order", rules=Rules(players=4, dealer_must_take_up=True))
    assert why(deal, "discard TH") == ("You cannot discard TH. In this game the dealer must "
                                       "keep the turn-up TH: discard another card.")


def test_the_partner_call() -> None:
    hands = ["8C 9C TC JC QC", "AD KD AH KH QH", "QD 9D 9S TS QS", "AC TD JD JS KS",
             "8D 8H 8S 9H KC"]
    deal = after("order", "discard 8C", rules=Rules(players=5), hands=hands)
    assert why(deal, "call AH") == ("You cannot call AH. You hold it yourself: call a card "
                                    "you do not hold.")
    assert why(deal, "call 7C") == ("You cannot call 7C. It is not in this pack of 28 "
                                    "cards.")


FIVE = ["8C 9C TC JC QC", "AD KD AH KH QH", "QD 9D 9S TS QS", "AC TD JD JS KS",
        "8D 8H 8S 9H KC"]


def test_the_maker_may_not_call_a_card_it_discarded() -> None:
    """RULES §6.3, said to the dealer-maker: its own discard is out of play."""
    deal = after("pass", "pass", "pass", "pass", "order", "discard 8D",
                 rules=Rules(players=5), hands=FIVE, dealer=4)
    assert why(deal, "call 8D") == ("You cannot call 8D. You discarded it, and a card you "
                                    "know to be out of play may not be called.")


def test_the_maker_may_not_call_the_turned_down_card() -> None:
    """RULES §6.3, said to a maker of round 2: the turned-down turn-up is out of play."""
    deal = after(*["pass"] * 5, "trump S", rules=Rules(players=5), hands=FIVE, dealer=4)
    assert why(deal, "call TH") == ("You cannot call TH. It was turned down in the first "
                                    "round, and a card you know to be out of play may not "
                                    "be called.")


def test_calling_your_own_discard_at_the_terminal_is_refused() -> None:
    """The issue's repro: five-handed, seed 28, you deal, take it up, discard TC and call
    TC: refused with the reason, and asked again (RULES §6.3)."""
    result = runner.invoke(app, ["play", "--players", "5", "--seed", "28"],
                           input="order\ndiscard TC\ncall TC\nq\ny\n",
                           env={"COLUMNS": "250"})
    out = result.output
    assert "You pick up JH and discard TC" in out
    assert ("You cannot call TC. You discarded it, and a card you know to be out of play "
            "may not be called.") in out
    assert out.count("Call your partner: name a card you do not hold.") == 2


def refusals(rng: random.Random, players: int, deals: int,
             per_turn: int) -> Iterator[tuple[Observation, Action]]:
    """Random deals (every other one with the joker), played at random: at each turn the
    mover's observation and ``per_turn`` of the actions illegal there."""
    for k in range(deals):
        deal = Deal.random(Rules(players=players, joker=k % 2 == 1), dealer=k % players,
                           seed=rng)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            illegal = [a for a in range(NUM_ACTIONS) if not deal.is_legal(a)]
            for a in rng.sample(illegal, per_turn):
                yield obs, Action.from_id(a)
            deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_refusal_speaks_to_the_player(players: int) -> None:
    """Over random deals, every illegal action of every turn is worded without a seat
    number or a rule section, and says what you cannot do."""
    for obs, action in refusals(random.Random(players), players, deals=12, per_turn=6):
        text = why_illegal(obs, action, "en")
        assert text.startswith("You cannot "), text
        assert "seat" not in text and "RULES" not in text and "§" not in text
