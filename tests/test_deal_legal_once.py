"""The legal choices of a state are computed once (RULES §4-§7): :meth:`Deal.check`,
:meth:`Deal.apply`, the observation of the seat to move, :meth:`Deal.legal_actions` and
:meth:`Deal.is_legal` share them until the next action, and they are always the choices
:meth:`Deal.legal_action_ids` computes afresh, copies and refused actions included.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from random_states import random_deal, random_rules

from euchre.actions import Action
from euchre.deal import Deal, IllegalActionError
from euchre.rules import Rules


def test_check_then_apply_computes_the_legal_bids_once(
        computed: Counter[tuple[int, int]]) -> None:
    """RULES §4: a bid checked, then applied (the server's order: stored in between),
    costs one computation of the legal bids; so does showing them to the seat first."""
    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    assert [str(a) for a in deal.observation(1).legal_actions] == ["pass", "order"]
    deal.check("order", seat=1)
    deal.apply("order", seat=1)
    deal.check("discard 9C", seat=0)
    deal.apply("discard 9C", seat=0)
    assert computed == {(id(deal), 0): 1, (id(deal), 1): 1}


def test_a_refused_action_and_the_legal_one_after_it_compute_once(
        computed: Counter[tuple[int, int]]) -> None:
    """RULES §4: a refused bid changes nothing, and the next check reuses its choices."""
    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    with pytest.raises(IllegalActionError):
        deal.check("trump H", seat=1)
    assert deal.is_legal("pass") and not deal.is_legal("order alone")
    deal.apply("pass", seat=1)
    assert computed == {(id(deal), 0): 1}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_kept_choices_are_always_the_fresh_ones(seed: int) -> None:
    """Along random deals of every variant, copies taken and played apart, and refused
    actions tried, the choices every method uses are those computed afresh."""
    rng = random.Random(seed)
    deal = random_deal(rng, random_rules(rng))
    copies = [deal]
    while not deal.is_over:
        fresh = deal.legal_action_ids()
        assert [a.id for a in deal.legal_actions()] == fresh
        mover = deal.to_move
        assert mover is not None
        assert [a.id for a in deal.observation(mover).legal_actions] == fresh
        for a in rng.sample(range(111), 5):
            assert deal.is_legal(a) == (a in fresh)
        if rng.random() < 0.3:  # a copy goes its own way; the original keeps its state
            other = deal.copy()
            if not other.is_over:
                other.apply(rng.choice(fresh))
                if not other.is_over:
                    assert other.legal_actions() == [
                        Action.from_id(a) for a in other.legal_action_ids()]
            copies.append(other)
            assert deal.legal_action_ids() == fresh
            assert [a.id for a in deal.legal_actions()] == fresh
        action = rng.choice(fresh)
        deal.check(action, seat=mover)
        deal.apply(action, seat=mover)
    assert deal.legal_actions() == [] and deal.observation(0).legal_actions == ()
