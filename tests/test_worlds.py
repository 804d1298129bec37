"""What a seat knows and the worlds it may be in (euchre/worlds.py), for every bot that
draws them: the expert's worlds (:meth:`~euchre.worlds.InfoSet.world`), and the uniform
ones of ``cismcts``, OpenSpiel's ``python_euchre``, the ``ismcts`` adapter and the policy
bot (:func:`~euchre.worlds.sample_world`).

One property test over random states of every variant and option checks both against
what the seat saw (RULES §12); the rest checks the uniform sampler's finer promises.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_states import core_state, observe, random_deal, random_rules, random_states, view

from euchre import core
from euchre.actions import CALL, DISCARD, NUM_ACTIONS
from euchre.cards import SUIT_MASKS, Card, effective_suit, pack_mask
from euchre.deal import Deal, Phase
from euchre.rules import Rules
from euchre.worlds import (
    HIDDEN_DISCARD,
    InfoSet,
    _fill,
    sample_world,
    view_from_observation,
)


# -- the property: every world fits what the seat saw (RULES §12) ---------------------------------
def deal_of_world(world: core.Int64Array, rules: Rules) -> Deal:
    """The :class:`Deal` of a uniform world: its cards as dealt, its actions replayed."""
    n = rules.players
    hands = [int(world[core.DEALT + s]) for s in range(n)]
    dummy = int(world[core.DEALT_DUMMY]) if n == 3 else None
    deal = Deal.from_cards(rules, int(world[core.DEALER]), [
        [c for c in range(33) if h >> c & 1] for h in hands], int(world[core.TURNUP]),
        dummy=None if dummy is None else [c for c in range(33) if dummy >> c & 1])
    for k in range(int(world[core.N_ACTIONS])):
        entry = int(world[core.HISTORY + k])
        deal.apply(entry % core.SEAT_SHIFT, entry // core.SEAT_SHIFT)
    return deal


def check_expert_world(deal: Deal, seat: int, hands: list[int],
                       turnup_kept: bool = True) -> None:
    """The expert's world (the hands now) fits what ``seat`` saw of ``deal``; with
    ``turnup_kept``, a dealer who kept the turn-up keeps it too (the expert's worlds
    assume it; a dealer may discard it, RULES §5, unseen)."""
    obs = deal.observation(seat)
    n = deal.n
    rules = deal.rules
    trump = obs.trump
    played = [0] * n
    voids = [0] * n
    for trick in [t.cards for t in obs.tricks] + [obs.trick]:
        for i, (s, c) in enumerate(trick):
            played[s] |= 1 << int(c)
            assert trump is not None
            led = effective_suit(int(trick[0][1]), trump)
            if i and effective_suit(int(c), trump) != led:
                voids[s] |= SUIT_MASKS[int(trump)][led]
    known = 0
    for m in played:
        known |= m
    for c in (*obs.hand, *obs.discards, *(obs.dummy or ())):
        known |= 1 << int(c)
    assert hands[seat] == deal.hand_mask(seat)  # its own hand
    slots = hands[:n] + hands[n:]
    everything = 0
    for i, h in enumerate(slots):
        assert not everything & h, "a card in two places"
        everything |= h
        if i != seat:
            assert not h & known, "a card the seat saw elsewhere"
    assert everything | known | 1 << int(obs.turnup) == pack_mask(rules.deck, rules.joker)
    for s in range(n):
        if s == seat:
            continue
        if s in obs.sitting_out:
            assert hands[s] == 0
            continue
        assert hands[s].bit_count() == deal.hand_mask(s).bit_count(), s
        assert not hands[s] & voids[s], "a shown void broken"
        if turnup_kept and deal.hand_mask(s) >> int(obs.turnup) & 1:
            assert hands[s] >> int(obs.turnup) & 1, "the turn-up the dealer kept"
    if obs.called is not None and obs.maker is not None and obs.maker != seat:
        assert not hands[obs.maker] >> int(obs.called) & 1, "the maker holds its call"
    if n == 3 and deal.phase in (Phase.BID_TURNUP, Phase.BID_SUIT, Phase.NAME_TRUMP,
                                 Phase.EXCHANGE):
        assert hands[n].bit_count() == 5, "the dummy"


@st.composite
def rules_st(draw: st.DrawFn) -> Rules:
    """Any valid rules set (RULES §1, §3, §4, §5, §7)."""
    return random_rules(random.Random(draw(st.integers(0, 1 << 30))))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_st(), seed=st.integers(0, 1 << 30), stop=st.integers(0, 40))
def test_every_world_fits_what_the_seat_saw_rules_12(rules: Rules, seed: int,
                                                     stop: int) -> None:
    """In random states of every variant, a world of the seat to move (and, uniform, of
    another seat) shows it exactly what it saw: the uniform world replays to the same observation
    (its hand, the cards played, the voids, the turn-up taken or buried, the dummy, the
    called card), and the expert's world keeps its hand, the cards it saw out, every
    void, the turn-up a dealer kept, the called card out of the maker's hand and the
    dummy's size."""
    rng = random.Random(seed)
    deal = random_deal(rng, rules)
    for _ in range(stop):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_action_ids()))
    if deal.is_over:
        return
    mover = deal.to_move
    assert mover is not None
    for seat in {mover, (mover + 1) % deal.n}:
        obs = deal.observation(seat)
        world = sample_world(view_from_observation(obs), seat, rng.randrange(1 << 32))
        assert deal_of_world(world, rules).observation(seat) == obs, deal.to_record()
        if seat == mover:  # (the expert deals worlds for the seat to move)
            hands = InfoSet.of_observation(obs).world(rng, relax_after=60)
            if hands is not None:  # (the ordered fill may miss where voids crowd; rare)
                check_expert_world(deal, seat, hands)


# -- the uniform worlds (RULES §12) -------------------------------------------------------------
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
    allowed = np.array([1 << (c % 4) for c in range(20)], dtype=np.int64)
    sizes = np.array([5, 5, 5, 5, 0, 0, 0, 0], dtype=np.int64)
    group_of = np.zeros(20, dtype=np.int64)
    assert _fill(allowed, 20, sizes, 4, 9, 0, group_of) > 0
    assert [int(g) for g in group_of] == [c % 4 for c in range(20)]
    allowed[0] = allowed[4] = allowed[8] = allowed[12] = allowed[16] = allowed[1] = 1
    assert _fill(allowed, 20, sizes, 4, 9, 0, group_of) == -1


def test_sample_world_refuses_a_view_no_deal_has() -> None:
    state = core.new_state(Rules(players=4))
    core.deal_random(state, 1, 0, 0)
    turnup = int(state[core.TURNUP])
    state[core.HISTORY] = 1 * core.SEAT_SHIFT + turnup  # seat 1 plays the turn-up in bidding
    state[core.N_ACTIONS] = 1
    with pytest.raises(ValueError, match="no deal fits"):
        sample_world(state, 2, 0)
    assert HIDDEN_DISCARD == core.SEAT_SHIFT - 1
