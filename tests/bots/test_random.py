"""The bot interface: ``RandomBot``, ``make_bot``, ``choose``, ``play_deal``, ``play_game``."""

from __future__ import annotations

import random

import pytest

from euchre import Action, Deal, Rules
from euchre.bots import (
    BOTS,
    Bot,
    RandomBot,
    choose,
    make_bot,
    play_deal,
    play_game,
)
from euchre.bots.basic import BasicBot
from euchre.deal import Observation


class _Illegal:
    """A bot that always answers ``pass``, legal or not."""

    name = "illegal"

    def act(self, observation: Observation) -> Action:
        return Action.parse("pass")


def test_random_bot_picks_a_legal_action_in_every_variant() -> None:
    rng = random.Random(4)
    for players in (2, 3, 4, 5):
        rules = Rules(players=players)
        for _ in range(20):
            deal = Deal.random(rules, rng.randrange(players), rng.randrange(1 << 30))
            bot = RandomBot(rng.randrange(1000))
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                obs = deal.observation(seat)
                action = bot.act(obs)
                assert action in obs.legal_actions
                assert bot.act_ids(deal.legal_action_ids()) in deal.legal_action_ids()
                deal.apply(action)


def test_random_bot_is_reproducible_from_its_seed() -> None:
    def run(seed: int) -> list[str]:
        game = play_game(Rules(players=4), [RandomBot(seed + s) for s in range(4)], seed=1)
        return [str(a) for d in game.deals for a in d.actions]

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_random_bot_accepts_a_random_generator() -> None:
    rng = random.Random(3)
    bot = RandomBot(rng)
    assert bot.rng is rng
    assert repr(bot) == "RandomBot()"


def test_random_bot_spreads_its_choices() -> None:
    """Uniform over the legal actions: every bid of round 1 comes up."""
    deal = Deal.random(Rules(players=4), 0, 1)
    obs = deal.observation(1)
    bot = RandomBot(0)
    picks = {str(bot.act(obs)) for _ in range(200)}
    assert picks == {"pass", "order", "order alone"}


def test_make_bot_builds_every_named_bot() -> None:
    for name in BOTS:
        bot = make_bot(name, seed=1)
        assert isinstance(bot, Bot)
        assert bot.name == name
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot(" Basic ", 2), BasicBot)  # case and spaces forgiven


def test_make_bot_refuses_an_unknown_name_and_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown bot 'genius'") as info:
        make_bot("genius")
    for name in BOTS:
        assert name in str(info.value)


def test_choose_returns_a_legal_action_id() -> None:
    deal = Deal.random(Rules(players=3), 0, 2)
    for bot in (RandomBot(1), BasicBot(1)):
        assert choose(bot, deal) in deal.legal_action_ids()


def test_choose_refuses_an_illegal_answer() -> None:
    deal = Deal.random(Rules(players=4), 0, 2)
    play_deal(deal, [RandomBot(s) for s in range(4)])
    with pytest.raises(ValueError, match="over"):
        choose(RandomBot(0), deal)
    stuck = Deal.random(Rules(players=4, stick_the_dealer=True), 0, 2)
    for _ in range(7):
        stuck.apply("pass")
    assert "pass" not in [str(a) for a in stuck.legal_actions()]  # the dealer is stuck
    with pytest.raises(ValueError, match="illegal action: pass"):
        choose(_Illegal(), stuck)


def test_play_deal_plays_to_the_end() -> None:
    deal = Deal.random(Rules(players=5), 2, 7)
    out = play_deal(deal, [make_bot("basic", s) for s in range(5)])
    assert out is deal and deal.is_over


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_game_reaches_the_target(players: int) -> None:
    rules = Rules(players=players, target=5)
    finished: list[int] = []
    game = play_game(rules, [make_bot("random", s) for s in range(players)], seed=3,
                     on_deal=lambda g, d: finished.append(len(g.deals)))
    assert game.is_over and game.winners
    assert max(game.scores) >= 5
    assert finished == list(range(1, len(game.deals) + 1))


def test_play_game_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError, match="4 players need 4 bots, not 3"):
        play_game(Rules(players=4), [RandomBot(s) for s in range(3)])
    with pytest.raises(ValueError, match="2 players need 2 bots, not 3"):
        play_game(Rules(players=2), [RandomBot(s) for s in range(3)])
