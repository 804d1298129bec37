"""The ``lookahead`` bot: the expert whose next card is chosen once per information set
(RULES §8, the play; RULES §12, what a seat may see)."""

from __future__ import annotations

import random

import pytest
from play_positions import RULES, play_decisions

from euchre.bots import BOTS, make_bot, play_deal
from euchre.bots.expert import ExpertBot, LookaheadBot
from euchre.deal import Deal
from euchre.rules import Rules


def test_registered_by_name() -> None:
    assert "lookahead" in BOTS
    assert isinstance(make_bot("lookahead", 1), LookaheadBot)
    bot = make_bot("lookahead:16", 1)
    assert isinstance(bot, LookaheadBot) and bot.samples == 16 and bot.time_budget is None


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_in_one_world_the_lookahead_values_every_card_as_pimc(rules: Rules) -> None:
    """With one world every information set is that world, so the seat's next card is the
    solver's and each card's value is the open-hand value PIMC gives it: this holds the
    replay to the seat's next turn (the tricks taken on the way) to the solver."""
    for obs in play_decisions(rules, 3, 1)[:12]:
        pimc = ExpertBot(5, samples=1, time_budget=None).evaluate(obs)
        ahead = LookaheadBot(5, samples=1, time_budget=None).evaluate(obs)
        assert ahead.keys() == pimc.keys()
        for action, value in pimc.items():
            assert ahead[action] == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_one_next_card_per_information_set_is_never_worth_more_than_one_per_world(
        rules: Rules) -> None:
    """The same worlds (same seed): taking one next card for every world the seat cannot
    tell apart is worth at most the best card of each world, so no card's value rises;
    somewhere a value falls (the lookahead is not PIMC)."""
    fell = 0
    for obs in play_decisions(rules, 8, 2)[:40]:
        pimc = ExpertBot(6, samples=16, time_budget=None).evaluate(obs)
        ahead = LookaheadBot(6, samples=16, time_budget=None).evaluate(obs)
        for action, value in pimc.items():
            assert ahead[action] <= value + 1e-9
            fell += ahead[action] < value - 1e-6
    assert fell > 0


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_lookahead_plays_every_variant_legally(rules: Rules) -> None:
    """``play_deal`` refuses an illegal action (``choose``)."""
    rng = random.Random(3)
    bots = [LookaheadBot(s, samples=4, time_budget=None) for s in range(rules.players)]
    for d in range(2):
        deal = play_deal(Deal.random(rules, dealer=d % rules.players,
                                     seed=rng.getrandbits(32)), bots)
        assert deal.is_over
