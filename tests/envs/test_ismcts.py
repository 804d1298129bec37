"""The ``ismcts`` bot: OpenSpiel's ISMCTS at our table, kept in step with our deal.

Most tests need OpenSpiel (the ``bench`` extra) and are skipped without it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from euchre import Rules
from euchre.actions import Action
from euchre.bots import BOTS, choose, make_bot, play_deal, play_game
from euchre.cards import CARDS, EFFECTIVE_SUIT, pack_mask
from euchre.deal import Deal, Phase
from euchre.envs.ismcts import (
    ISMCTSBot,
    available,
    check_rules,
    from_os_card,
    knowledge,
    parse_options,
    plays_openspiel_euchre,
    to_os_card,
)
from euchre.worlds import InfoSet

needs_openspiel = pytest.mark.skipif(
    not available(), reason="OpenSpiel (pyspiel, the optional 'bench' extra) is not installed")

OPENSPIEL = Rules(players=4, stick_the_dealer=True, dealer_must_take_up=True)


def test_cards_map_both_ways() -> None:
    pack = [c for c in range(32) if pack_mask(24, False) >> c & 1]
    assert sorted(to_os_card(c) for c in pack) == list(range(24))
    for c in pack:
        assert from_os_card(to_os_card(c)) == c
    with pytest.raises(ValueError):
        to_os_card(int(CARDS[0]))  # the seven of clubs is not in OpenSpiel's pack


def test_options() -> None:
    assert parse_options("250:5") == {"simulations": 250, "worlds": 5}
    for bad in ("x", "0", "1:2:3", "-4"):
        with pytest.raises(ValueError, match="ismcts:SIMULATIONS"):
            parse_options(bad)


def test_rules_other_than_openspiels_are_told_apart() -> None:
    check_rules(OPENSPIEL)
    check_rules(OPENSPIEL.replace(stick_the_dealer=False, target=5))
    assert plays_openspiel_euchre(OPENSPIEL)
    for rules, words in [(Rules(players=4), "may decline"),
                         (Rules(players=3, dealer_must_take_up=True), "3 players"),
                         (OPENSPIEL.replace(deck=28), "28-card"),
                         (OPENSPIEL.replace(joker=True), "joker"),
                         (OPENSPIEL.replace(defend_alone=True), "defending alone")]:
        with pytest.raises(ValueError, match=words):
            check_rules(rules)
        assert not plays_openspiel_euchre(rules)


def test_a_clear_error_without_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(BOTS, "ismcts", raising=False)
    with pytest.raises(ImportError, match=r"needs OpenSpiel: pip install -e '\.\[bench\]'"):
        make_bot("ismcts:100")
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("basic:3")


@needs_openspiel
def test_the_bot_is_registered_with_its_options() -> None:
    assert "ismcts" in BOTS
    bot = make_bot("ismcts:300:3", 1)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.simulations, bot.worlds) == (300, 3)
    default = make_bot("ismcts")
    assert isinstance(default, ISMCTSBot)
    assert (default.simulations, default.worlds) == (1000, 1)


def _random_deals(count: int, seed: int) -> list[tuple[Deal, list[int]]]:
    """Deals played to the end at random; with the actions, to replay them step by step."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rules = OPENSPIEL if i % 4 else OPENSPIEL.replace(stick_the_dealer=False)
        deal = Deal.random(rules, rng.randrange(4), rng)
        start = deal.copy()
        actions = []
        while not deal.is_over:
            a = rng.choice(deal.legal_action_ids())
            actions.append(a)
            deal.apply(a)
        out.append((start, actions))
    return out


@needs_openspiel
def test_openspiel_states_follow_every_deal_and_hide_the_fill() -> None:
    """At every decision of every seat the OpenSpiel state agrees with ours (the bot also
    checks turn, hand and legal actions itself), two random fills give the same information
    state, and at the end OpenSpiel scores the deal as we do."""
    bot = ISMCTSBot(3, simulations=4, worlds=1)
    phases = set()
    for start, actions in _random_deals(60, seed=9):
        deal = start.copy()
        for a in [*actions, None]:
            seat = deal.to_move if a is not None else 0
            assert seat is not None
            obs = deal.observation(seat)
            state = bot.world(obs)
            other = bot.world(obs)
            if a is None:
                assert state.is_terminal()
                points = deal.result.points
                assert state.returns()[0] == points[0] - points[1]
                break
            phases.add(obs.phase)
            assert state.current_player() == seat
            assert state.information_state_string(seat) == other.information_state_string(seat)
            assert state.information_state_tensor(seat) == other.information_state_tensor(seat)
            assert state.dealer() == deal.dealer
            assert state.upcard() == to_os_card(deal.turnup)
            if deal.trump is not None:
                assert state.trump_suit() == int(deal.trump)
                assert state.declarer() == deal.maker
                # OpenSpiel asks alone-or-not after the dealer's discard
                expected = None if deal.phase is Phase.EXCHANGE else deal.alone
                assert state.declarer_go_alone() == expected
                assert state.num_cards_played() == sum(len(t.cards) for t in deal.tricks) \
                    + len(deal.current_trick)
            legal = sorted({to_os_card(int(x.card)) for x in obs.legal_actions
                            if x.card is not None})
            if legal:
                assert sorted(state.legal_actions()) == legal
            deal.apply(a)
    assert phases == {Phase.BID_TURNUP, Phase.BID_SUIT, Phase.EXCHANGE, Phase.PLAY}


@needs_openspiel
def test_played_voids_are_kept_in_the_fill() -> None:
    bot = ISMCTSBot(1, simulations=4, worlds=1)
    checked = 0
    for start, actions in _random_deals(30, seed=4):
        deal = start.copy()
        for a in actions:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            info = InfoSet.of_observation(obs)
            if deal.phase is Phase.PLAY and any(info.voids):
                state = bot.world(obs, knowledge(obs))
                holders = state.card_holder()
                for os_card, holder in enumerate(holders):
                    if holder is not None and holder != seat:
                        card = from_os_card(os_card)
                        assert not info.voids[holder] >> EFFECTIVE_SUIT[info.trump][card] & 1
                        checked += 1
            deal.apply(a)
    assert checked > 100


@needs_openspiel
def test_the_bot_acts_legally_in_every_phase() -> None:
    phases: dict[Phase, set[str]] = {}
    for d in range(24):
        rules = OPENSPIEL if d % 3 else OPENSPIEL.replace(stick_the_dealer=False)
        deal = Deal.random(rules, d % 4, 100 + d)
        bots: list[Any] = [make_bot("ismcts:40:2", d * 4 + s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            a = choose(bots[seat], deal)  # raises on an illegal action
            phases.setdefault(deal.phase, set()).add(str(Action.from_id(a)).split()[0])
            deal.apply(a)
    assert set(phases) == {Phase.BID_TURNUP, Phase.BID_SUIT, Phase.EXCHANGE, Phase.PLAY}
    assert {"pass", "order"} <= phases[Phase.BID_TURNUP]


@needs_openspiel
def test_going_alone_and_the_dealers_planned_discard() -> None:
    # seat 0 deals itself the five top trumps with hearts turned up: it takes it up alone
    deal = Deal.from_cards(OPENSPIEL, dealer=0, turnup="9H",
                           hands=["JH JD AH KH QH", "9C TC JC QC KC", "9D TD QD KD AD",
                                  "9S TS JS QS KS"])
    bots = [make_bot("ismcts:400:4", s) for s in range(4)]
    for _ in range(3):
        deal.apply(choose(bots[deal.to_move or 0], deal))
    assert deal.phase is Phase.BID_TURNUP and deal.to_move == 0
    action = Action.from_id(choose(bots[0], deal))
    assert str(action) == "order alone"
    deal.apply(action)
    discard = Action.from_id(choose(bots[0], deal))
    assert str(discard).startswith("discard") and str(discard) != "discard 9H"
    play_deal(deal, bots)
    assert deal.result.points[0] == 4


@needs_openspiel
def test_a_few_fast_games() -> None:
    rules = OPENSPIEL.replace(target=5)
    for seed in range(2):
        bots = [make_bot("ismcts:30:2", seed), make_bot("basic", seed),
                make_bot("ismcts:30:1", seed + 1), make_bot("random", seed)]
        game = play_game(rules, bots, seed=seed)
        assert game.is_over and max(game.scores) >= 5


@needs_openspiel
@pytest.mark.parametrize("rules", [Rules(players=2), Rules(players=3), Rules(players=4),
                                   Rules(players=5, joker=True)], ids=str)
def test_every_variant_is_played_through_python_euchre(rules: Rules) -> None:
    """Outside OpenSpiel's own rules the bot searches python_euchre: it plays whole deals
    legally (``choose`` raises otherwise), and what it searched was a python_euchre state
    its seat cannot tell from the deal."""
    from euchre.envs.openspiel import EuchreState

    bots: list[Any] = [make_bot("ismcts:12", s) for s in range(rules.players)]
    for d in range(2):
        deal = Deal.random(rules, d, 40 + d)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            multiple = len(deal.legal_action_ids()) > 1
            deal.apply(choose(bots[seat], deal))
            if multiple:
                assert isinstance(bots[seat].state, EuchreState)
    assert all(b.state is not None for b in bots)
