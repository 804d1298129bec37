"""Random states of every variant and option, for the tests of what a seat knows and the
worlds it may be in (tests/test_worlds.py) and of the bots that search them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from euchre import core
from euchre.cards import Card
from euchre.deal import Deal
from euchre.rules import Rules
from euchre.vector import _observe, _offsets, observation_size
from euchre.worlds import view_of


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
        record = deal.to_record().to_json()
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
