"""The cismcts bot (euchre/bots/cismcts.py): its world sampler, its search, its play.

The sampler is checked over random states of every variant and option: a sampled world
looks the same to the seat as the real deal (the same view, the same observation
tensor, RULES §12), its replay is legal (so every void shown holds), it depends on
nothing the seat cannot see, and it deals the unseen cards uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from euchre import core
from euchre.actions import CALL, DISCARD, NUM_ACTIONS
from euchre.bots import make_bot, play_deal
from euchre.bots.cismcts import (
    HIDDEN_DISCARD,
    CISMCTSBot,
    _fill,
    info_key,
    parse_options,
    sample_world,
    search,
    view_from_observation,
    view_of,
)
from euchre.cards import JOKER, Card, effective_suit
from euchre.deal import Deal
from euchre.rules import Rules
from euchre.tournament import Tournament, run_tournament
from euchre.vector import _observe, _offsets, observation_size


def random_rules(rng: random.Random) -> Rules:
    """Any valid rules set (RULES §1, §3, §4, §5, §7)."""
    players = rng.choice([2, 3, 4, 5])
    return Rules(
        players=players,
        deck=rng.choice([28, 32] if players == 5 else [24, 28, 32]),
        joker=rng.random() < 0.5,
        joker_turnup=("suit:" + rng.choice("CDHS")) if rng.random() < 0.5 else "dealer_names",
        stick_the_dealer=rng.random() < 0.5,
        dealer_must_take_up=rng.random() < 0.5,
        defend_alone=rng.random() < 0.5 if players in (3, 4) else False,
    )


def random_deal(rng: random.Random, rules: Rules) -> Deal:
    """A random deal; with the joker, sometimes with the joker turned up (RULES §3)."""
    deal = Deal.random(rules, dealer=rng.randrange(rules.players), seed=rng.randrange(1 << 30))
    if rules.joker and rng.random() < 0.3 and deal.turnup != Card.JK:
        record = deal.to_record()
        places = [*record["hands"], record["dummy"] or [], record["kitty"]]
        holder = next(p for p in places if "JK" in p)
        holder[holder.index("JK")] = record["turnup"]
        record["turnup"] = "JK"
        deal = Deal.from_record(record)
    return deal


def core_state(deal: Deal) -> core.Int64Array:
    """A core state of the deal's cards as dealt, and its actions so far."""
    state: core.Int64Array = core.new_state(deal.rules)
    hands = list(deal.dealt) + [0] * (5 - deal.n)
    core.start(state, deal.dealer, *hands, deal.dealt_dummy or 0, int(deal.turnup))
    return state


def random_states(count: int, seed: int) -> Iterator[tuple[Deal, core.Int64Array]]:
    """Deals of random rules played at random to a random point (not over), with their
    core states: ``count`` of them."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        deal = random_deal(rng, random_rules(rng))
        state = core_state(deal)
        stop = rng.randrange(40)
        for _ in range(stop):
            if deal.is_over:
                break
            action = rng.choice(deal.legal_action_ids())
            deal.apply(action)
            assert core.apply_action(state, action)
        if deal.is_over:
            continue
        made += 1
        yield deal, state


def observe(state: core.Int64Array, seat: int) -> np.ndarray:
    p = int(state[core.PLAYERS])
    row = np.zeros(observation_size(p), dtype=np.float32)
    _observe(state, seat, _offsets(p), row)
    return row


def view(state: core.Int64Array, seat: int) -> core.Int64Array:
    out = np.zeros(core.STATE_SIZE, dtype=np.int64)
    view_of(state, seat, out)
    return out


# -- the sampler (RULES §12) ----------------------------------------------------------------------
def test_view_from_observation_is_the_view_of_the_deal_rules_12() -> None:
    for deal, state in random_states(300, seed=1):
        for seat in range(deal.n):
            assert (view_from_observation(deal.observation(seat)) == view(state, seat)).all(), \
                (deal.to_record(), seat)


def test_sampled_worlds_look_the_same_to_the_seat_rules_12() -> None:
    rng = random.Random(2)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    real_mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for deal, state in random_states(400, seed=2):
        seat = rng.randrange(deal.n)
        real = observe(state, seat)
        core.legal_mask(state, real_mask)
        for _ in range(3):
            world = sample_world(state, seat, rng.randrange(1 << 32))
            assert (view(world, seat) == view(state, seat)).all(), deal.to_record()
            assert (observe(world, seat) == real).all(), deal.to_record()
            assert world[core.PHASE] == state[core.PHASE]
            assert world[core.TURN] == state[core.TURN]
            core.legal_mask(world, mask)
            if state[core.TURN] == seat:
                assert (mask == real_mask).all(), deal.to_record()
            assert info_key(world, seat) == info_key(state, seat)


def test_sampled_worlds_keep_the_voids_shown_rules_8() -> None:
    """A seat that did not follow suit holds none of it in any world: the world's own
    replay of the play would be refused otherwise, and its hands are checked here too."""
    rng = random.Random(3)
    checked = 0
    for deal, state in random_states(300, seed=3):
        if deal.phase.value != "play" or not deal.tricks:
            continue
        seat = rng.randrange(deal.n)
        world = sample_world(state, seat, rng.randrange(1 << 32))
        for s in range(deal.n):
            dealt = int(world[core.DEALT + s])
            assert dealt.bit_count() == 5
            if s == seat:
                assert dealt == int(state[core.DEALT + s])
        trump = deal.trump
        assert trump is not None
        for trick in deal.tricks:
            led = effective_suit(trick.cards[0][1], trump)
            for s, card in trick.cards[1:]:
                if effective_suit(card, trump) != led:
                    held = int(world[core.HANDS + s])
                    assert not any(effective_suit(c, trump) == led
                                   for c in range(33) if held >> c & 1)
                    checked += 1
    assert checked > 50


def dealer_made_calls(count: int, seed: int) -> Iterator[tuple[Deal, core.Int64Array]]:
    """Five-handed deals where everyone passes to the dealer, who takes it up, discards
    and calls a card at random (RULES §5, §6.3): states just after the call."""
    rng = random.Random(seed)
    for _ in range(count):
        deal = Deal.random(Rules(players=5), dealer=rng.randrange(5), seed=rng.randrange(1 << 30))
        state = core_state(deal)
        for _ in range(4):
            deal.apply("pass")
        deal.apply("order")
        deal.apply(rng.choice(deal.legal_action_ids()))  # the discard
        deal.apply(rng.choice(deal.legal_action_ids()))  # the call
        for e in deal.observation(deal.dealer).events:
            assert e.action is not None and core.apply_action(state, e.action.id)
        yield deal, state


def test_no_world_has_the_maker_call_its_own_discard_rules_6_3() -> None:
    """The dealer-maker may not have called its own discard (RULES §6.3), so no world of
    another seat puts the called card there: each world replays, the discard elsewhere."""
    rng = random.Random(6)
    for deal, state in dealer_made_calls(40, seed=6):
        called = deal.called
        assert called is not None
        seat = (deal.dealer + 1 + rng.randrange(4)) % 5
        for _ in range(10):
            world = sample_world(state, seat, rng.randrange(1 << 32))
            discards = [int(world[core.HISTORY + k]) % core.SEAT_SHIFT - DISCARD
                        for k in range(int(world[core.N_ACTIONS]))
                        if DISCARD <= int(world[core.HISTORY + k]) % core.SEAT_SHIFT < CALL]
            assert discards and int(called) not in discards, deal.to_record()


def test_a_sampled_world_depends_only_on_what_the_seat_knows_rules_12() -> None:
    """Two deals the seat cannot tell apart give the same world from the same seed."""
    rng = random.Random(4)
    for deal, state in random_states(300, seed=4):
        seat = rng.randrange(deal.n)
        other = sample_world(state, seat, rng.randrange(1 << 32))
        seed = rng.randrange(1 << 32)
        assert (sample_world(other, seat, seed) == sample_world(state, seat, seed)).all()
        assert (sample_world(view(state, seat), seat, seed)
                == sample_world(state, seat, seed)).all()


def test_sampled_worlds_deal_the_unseen_cards_uniformly() -> None:
    """Before any action, four-handed, seat 1 sees 6 of the 24 cards: each of the other 18
    lies in the kitty in 3 worlds of 18, in each other hand in 5 of 18."""
    deal = Deal.random(Rules(players=4), dealer=0, seed=11)
    state = core_state(deal)
    unseen = [c for c in range(24 * 2) if core.new_state(deal.rules)[core.PACK] >> c & 1
              and c != int(deal.turnup) and not int(state[core.DEALT + 1]) >> c & 1]
    assert len(unseen) == 18
    worlds = 3000
    in_kitty = dict.fromkeys(unseen, 0)
    in_hand0 = dict.fromkeys(unseen, 0)
    for k in range(worlds):
        world = sample_world(state, 1, k)
        held = 0
        for s in range(4):
            held |= int(world[core.DEALT + s])
        for c in unseen:
            in_kitty[c] += not held >> c & 1
            in_hand0[c] += int(world[core.DEALT]) >> c & 1
    for c in unseen:
        for count, p in ((in_kitty[c], 3 / 18), (in_hand0[c], 5 / 18)):
            sigma = (worlds * p * (1 - p)) ** 0.5
            assert abs(count - worlds * p) < 5 * sigma, (Card(c), count, worlds * p)


def test_the_careful_fill_keeps_every_constraint() -> None:
    """Where rejection all but never succeeds (each card has one place), the fill still
    puts every card where it may go; an impossible fill answers -1."""
    pool = np.arange(20, dtype=np.int64)
    allowed = np.array([1 << (c % 4) for c in range(20)], dtype=np.int64)
    sizes = np.array([5, 5, 5, 5, 0, 0, 0, 0], dtype=np.int64)
    group_of = np.zeros(20, dtype=np.int64)
    assert _fill(pool, allowed, 20, sizes, 4, 9, 0, group_of) > 0
    assert [int(g) for g in group_of] == [c % 4 for c in range(20)]
    allowed[0] = allowed[4] = allowed[8] = allowed[12] = allowed[16] = allowed[1] = 1
    assert _fill(pool, allowed, 20, sizes, 4, 9, 0, group_of) == -1


def test_sample_world_refuses_a_view_no_deal_has() -> None:
    state = core.new_state(Rules(players=4))
    core.deal_random(state, 1, 0, 0)
    turnup = int(state[core.TURNUP])
    state[core.HISTORY] = 1 * core.SEAT_SHIFT + turnup  # seat 1 plays the turn-up in bidding
    state[core.N_ACTIONS] = 1
    with pytest.raises(ValueError, match="no deal fits"):
        sample_world(state, 2, 0)
    assert HIDDEN_DISCARD == core.SEAT_SHIFT - 1 and JOKER == 32


# -- the search and the bot -----------------------------------------------------------------------
def test_search_visits_only_legal_actions() -> None:
    for deal, state in random_states(60, seed=5):
        seat = deal.to_move
        assert seat is not None
        visits = search(state, seat, seed=seat, simulations=40)
        assert sorted(visits) == deal.legal_action_ids()
        assert sum(visits.values()) == 39  # the first simulation values the new root


def test_cismcts_never_plays_an_illegal_action_in_any_variant() -> None:
    rng = random.Random(6)
    for _ in range(40):
        deal = random_deal(rng, random_rules(rng))
        bots = [CISMCTSBot(rng.randrange(1000), simulations=30) for _ in range(deal.n)]
        play_deal(deal, bots)  # raises on an illegal action
        assert deal.is_over


def test_cismcts_is_reproducible_from_its_seed() -> None:
    def run(seed: int) -> list[str]:
        deal = Deal.random(Rules(players=3, stick_the_dealer=True), dealer=0, seed=8)
        play_deal(deal, [make_bot("cismcts:200", seed=seed + s) for s in range(3)])
        actions: list[str] = deal.to_record()["actions"]
        return actions

    assert run(1) == run(1)
    assert len({tuple(run(s)) for s in range(4)}) > 1


def test_cismcts_options() -> None:
    assert parse_options("") == {}
    assert parse_options("250") == {"simulations": 250}
    for bad in ("0", "x", "10:2"):
        with pytest.raises(ValueError, match="cismcts takes"):
            parse_options(bad)
    assert make_bot("cismcts:64").simulations == 64  # type: ignore[attr-defined]
    assert make_bot("CISMCTS").simulations == 1000  # type: ignore[attr-defined]


def test_cismcts_beats_random_in_a_duplicate_match() -> None:
    t = Tournament(Rules(players=2), ("cismcts:200", "random"), deals=60, seed=3)
    result = run_tournament(t)
    cismcts = result.results[0]
    assert cismcts.bot.startswith("cismcts")
    assert cismcts.margin_ci95 is not None and cismcts.margin_ci95[0] > 0.3


def test_the_node_key_tells_apart_what_the_information_state_string_does() -> None:
    """Worlds of one seat keyed alike exactly when ``python_euchre``'s
    ``information_state_string`` is alike (perfect recall, RULES §12)."""
    pyspiel = pytest.importorskip("pyspiel")
    from euchre.envs.openspiel import deal_outcomes, game_string

    rng = random.Random(9)
    for deal, state in random_states(40, seed=9):
        game = pyspiel.load_game(game_string(deal.rules))
        seat = rng.randrange(deal.n)
        worlds = [state] + [sample_world(state, seat, rng.randrange(1 << 32)) for _ in range(3)]
        # the same worlds seen by another seat, whose hand the worlds change
        other = (seat + 1) % deal.n
        keys, strings = [], []
        for world, who in [(w, seat) for w in worlds] + [(w, other) for w in worlds]:
            spiel = game.new_initial_state()
            dealt = [int(world[core.DEALT + s]) for s in range(deal.n)]
            for a in deal_outcomes(deal.rules, int(world[core.DEALER]), dealt,
                                   int(world[core.TURNUP]), int(world[core.DEALT_DUMMY])):
                spiel.apply_action(a)
            for k in range(int(world[core.N_ACTIONS])):
                spiel.apply_action(int(world[core.HISTORY + k]) % core.SEAT_SHIFT)
            keys.append(info_key(world, who))
            strings.append(spiel.information_state_string(who))
        for i in range(len(keys)):
            for j in range(len(keys)):
                assert (keys[i] == keys[j]) == (strings[i] == strings[j]), deal.to_record()
