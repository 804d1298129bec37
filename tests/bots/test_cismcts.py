"""The cismcts bot (euchre/bots/cismcts.py): its search and its play.

Its worlds are euchre.worlds's, checked in tests/test_worlds.py.
"""

from __future__ import annotations

import random

import pytest
from random_states import random_deal, random_rules, random_states

from euchre import core
from euchre.bots import make_bot, play_deal
from euchre.bots.cismcts import CISMCTSBot, info_key, parse_options, sample_world, search
from euchre.deal import Deal
from euchre.jobs.tournament import Tournament, run_tournament
from euchre.rules import Rules


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
        actions: list[str] = list(deal.to_record().actions)
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
