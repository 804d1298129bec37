"""Worlds weighed by the learned policy (euchre/bots/belief.py, issue 23 item 2): every world
it returns fits what the seat saw (RULES §12), in every variant with a shipped net; its
weights are the product of the policy's probabilities of the others' decisions, as a
plain replay of each world's deal computes them; and the resampling follows the weights."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_worlds import check_expert_world, deal_of_world

from euchre import core
from euchre.actions import DISCARD, NUM_ACTIONS
from euchre.bots.belief import NetBelief, _hands_now
from euchre.bots.net import NetModel, net_for
from euchre.deal import Deal
from euchre.rules import Rules
from euchre.vector import observe
from euchre.worlds import HIDDEN_DISCARD, InfoSet, view_from_observation

NETTED = [p for p in (2, 3, 4, 5) if net_for(Rules(players=p)) is not None]


def played_deal(players: int, seed: int, stop: int) -> Deal | None:
    """A deal of the variant's default rules played at random for ``stop`` actions (None
    if it is over by then)."""
    rng = random.Random(seed)
    deal = Deal.random(Rules(players=players), dealer=rng.randrange(players), seed=seed)
    for _ in range(stop):
        if deal.is_over:
            return None
        deal.apply(rng.choice(deal.legal_action_ids()))
    return None if deal.is_over else deal


def test_every_variant_the_issue_names_has_a_net() -> None:
    assert {2, 3, 4} <= set(NETTED)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from(NETTED), seed=st.integers(0, 1 << 30), stop=st.integers(0, 40))
def test_the_learned_belief_never_contradicts_what_the_seat_saw_rules_12(
    players: int, seed: int, stop: int
) -> None:
    """Every candidate replays to the seat's very observation (its hand, the cards
    played, the voids, the turn-up taken or buried, the dummy, the called card), and every
    world drawn, in the expert's form, keeps the seat's hand, the cards it saw out, every
    void shown, the called card out of the maker's hand and the dummy's size (the turn-up
    a dealer took may be its unseen discard: RULES §5)."""
    deal = played_deal(players, seed, stop)
    if deal is None:
        return
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    belief = NetBelief(net_for(deal.rules), candidates=16)  # type: ignore[arg-type]
    info = InfoSet.of_observation(obs)
    rng = random.Random(seed)
    worlds = belief.worlds(info.view, seat, rng)
    assert worlds.shape[0] == 16
    for w in worlds:
        assert deal_of_world(w, deal.rules).observation(seat) == obs, deal.to_record()
        check_expert_world(deal, seat, _hands_now(w, info), turnup_kept=False)
    drawn = belief.draw(info, rng, count=8)
    assert sum(times for _, times in drawn) == 8
    for hands, _ in drawn:
        check_expert_world(deal, seat, hands, turnup_kept=False)


def plain_log_weights(
    model: NetModel,
    worlds: np.ndarray,
    view: np.ndarray,
    me: int,
    power: float,
    mix: float,
    hidden: str,
) -> list[float]:
    """The weights of :class:`NetBelief`, the slow way: each world's deal replayed action
    by action, one forward pass a decision of another seat (of the discards ``me`` did
    not see, as ``hidden`` says)."""
    out = []
    for w in worlds:
        st_ = core.new_state(Rules(players=int(w[core.PLAYERS])))
        st_[: core.DEALER] = w[: core.DEALER]
        core.start(
            st_,
            int(w[core.DEALER]),
            *(int(w[core.DEALT + s]) for s in range(5)),
            int(w[core.DEALT_DUMMY]),
            int(w[core.TURNUP]),
        )
        total = 0.0
        for k in range(int(view[core.N_ACTIONS])):
            seat, a = divmod(int(w[core.HISTORY + k]), core.SEAT_SHIFT)
            unseen = int(view[core.HISTORY + k]) % core.SEAT_SHIFT == HIDDEN_DISCARD
            if unseen and hidden == "turnup":
                unseen = a != DISCARD + int(w[core.TURNUP])
            if seat != me and (not unseen or hidden == "all"):
                legal = np.zeros(NUM_ACTIONS, dtype=np.bool_)
                core.legal_mask(st_, legal)
                probs, _ = model.forward(observe(st_, seat)[None, :], legal[None, :])
                p = (1 - mix) * float(probs[0, a]) + mix / int(legal.sum())
                total += power * np.log(max(p, 1e-30))
            assert core.apply_action(st_, a)
        out.append(total)
    return out


@pytest.mark.parametrize("players", NETTED)
@pytest.mark.parametrize(
    ("power", "mix", "hidden"), [(1.0, 0.0, "none"), (0.5, 0.0, "turnup"), (1.0, 0.2, "all")]
)
def test_the_weights_are_the_policy_s_likelihood_of_the_others_decisions(
    players: int, power: float, mix: float, hidden: str
) -> None:
    model = net_for(Rules(players=players))
    assert model is not None
    belief = NetBelief(model, candidates=6, power=power, mix=mix, hidden=hidden)
    rng = random.Random(players)
    checked = 0
    for seed in range(12):
        deal = played_deal(players, seed, 4 + seed)
        if deal is None:
            continue
        seat = deal.to_move
        assert seat is not None
        view = view_from_observation(deal.observation(seat))
        worlds = belief.worlds(view, seat, rng)
        got = belief.log_weights(worlds, view, seat)
        want = plain_log_weights(model, worlds, view, seat, power, mix, hidden)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        checked += int(np.any(got != 0))
    assert checked > 0  # some worlds were told apart


def test_the_world_that_explains_the_others_best_is_drawn_most() -> None:
    """Resampling follows the weights: forced weights (one world all but certain) give
    that world every draw."""
    model = net_for(Rules(players=4))
    assert model is not None
    deal = played_deal(4, 5, 9)
    assert deal is not None
    seat = deal.to_move
    assert seat is not None
    info = InfoSet.of_observation(deal.observation(seat))

    class Forced(NetBelief):
        def log_weights(self, worlds: np.ndarray, view: np.ndarray, seat: int) -> np.ndarray:
            out = np.full(worlds.shape[0], -50.0)
            out[3] = 0.0
            return out

    drawn = Forced(model, candidates=8).draw(info, random.Random(1), count=5)
    assert len(drawn) == 1 and drawn[0][1] == 5
