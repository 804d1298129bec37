"""The hint's words: every legal choice said as the player would say it, and the reason."""

from __future__ import annotations

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.server.hints import action_words, advise, reason


def _deal() -> Deal:
    return Deal.from_cards(Rules(players=4), dealer=3,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD", "9H TH JH QH KH",
                                  "AH 9S TS JS QS"], turnup="KD")


def test_actions_are_said_as_the_seat_would_say_them() -> None:
    deal = _deal()
    obs = deal.observation(0)
    assert action_words(Action.parse("order"), obs) == "order it up"
    assert action_words(Action.parse("order alone"), obs) == "order it up alone"
    assert action_words(Action.parse("trump H alone"), obs) == "name hearts alone"
    assert action_words(Action.parse("play TH"), obs) == "play the 10♥"
    assert action_words(Action.parse("call JK"), obs) == "call the joker"
    # the dealer takes it up, the dealer's partner assists (four-handed)
    assert action_words(Action.parse("order"), deal.observation(3)) == "take it up"
    assert action_words(Action.parse("order"), deal.observation(1)) == "assist"


def test_the_reason_says_how_far_ahead_the_choice_is() -> None:
    obs = _deal().observation(0)
    order, passing = Action.parse("order"), Action.parse("pass")
    assert reason(obs, [(passing, 0.0)], 0) == "It is the only legal choice."
    close = reason(obs, [(order, 0.52), (passing, 0.50)], 40)
    assert "40 ways" in close and "your hand and the turn-up" in close
    assert "To order it up is worth +0.52 points" in close and close.endswith("A close call.")
    clear = reason(obs, [(order, 1.0), (passing, -0.5)], 40)
    assert "+1.00 point to your side" in clear and clear.endswith("Clearly the best.")


def test_the_hint_values_every_legal_choice_best_first() -> None:
    obs = _deal().observation(0)
    hint = advise(obs)
    assert sorted(v["action"] for v in hint["values"]) == sorted(
        str(a) for a in obs.legal_actions)
    values = [v["value"] for v in hint["values"]]
    assert values == sorted(values, reverse=True) and hint["action"] == hint["values"][0]["action"]
