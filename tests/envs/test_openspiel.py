"""``python_euchre``: our deal of every variant as an OpenSpiel game.

Skipped without OpenSpiel (the ``bench`` extra).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from euchre import Deal, Rules
from euchre.cards import Card, card_mask
from euchre.envs.ismcts import available

pytestmark = pytest.mark.skipif(
    not available(), reason="OpenSpiel (pyspiel, the optional 'bench' extra) is not installed")

if available():
    import pyspiel

    from euchre.envs.openspiel import (
        EuchreState,
        deal_outcomes,
        game_string,
        rules_of,
        state_from_observation,
    )

VARIANTS = [Rules(players=2), Rules(players=3), Rules(players=4), Rules(players=5)]
COMBOS = [Rules(players=4, joker=True, deck=28, defend_alone=True, stick_the_dealer=True),
          Rules(players=3, joker=True, joker_turnup="suit:H", dealer_must_take_up=True),
          Rules(players=2, stick_the_dealer=True, dealer_must_take_up=True)]


def load(rules: Rules, utility: str = "points") -> Any:
    return pyspiel.load_game(game_string(rules, utility))


def random_state(game: Any, rng: random.Random, stop: float = 1.0) -> Any:
    """A state played at random, to the end or (``stop`` < 1) part of the way."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            if rng.random() > stop:
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def dealt_by(rules: Rules, record: dict[str, Any]) -> list[int]:
    """The chance outcomes that deal a deal record's cards."""
    hands = [card_mask(int(Card.parse(c)) for c in h) for h in record["hands"]]
    dummy = card_mask(int(Card.parse(c)) for c in record["dummy"] or [])
    return deal_outcomes(rules, record["dealer"], hands, int(Card.parse(record["turnup"])),
                         dummy)


def test_import_euchre_does_not_import_pyspiel() -> None:
    code = "import sys, euchre, euchre.bots; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("text, rules", [
    ("python_euchre", Rules(players=4, stick_the_dealer=False, defend_alone=False)),
    ("python_euchre(players=3)", Rules(players=3, defend_alone=False)),
    ("python_euchre(players=5,stick_the_dealer=true)", Rules(players=5)),
    ("python_euchre(players=4,deck=32,joker=true,joker_turnup=suit:S,dealer_must_take_up=true)",
     Rules(players=4, deck=32, joker=True, joker_turnup="suit:S", dealer_must_take_up=True)),
])
def test_load_game_strings_give_our_rules(text: str, rules: Rules) -> None:
    game = pyspiel.load_game(text)
    assert game.rules == rules
    assert game.num_players() == rules.players
    assert game.num_distinct_actions() == 111
    assert rules_of(game.get_parameters()) == rules
    assert pyspiel.load_game(game_string(rules)).rules == rules


def test_bad_parameters_are_refused_with_our_sentence() -> None:
    with pytest.raises(Exception, match="26 cards"):
        pyspiel.load_game("python_euchre(players=5,deck=24)")
    with pytest.raises(Exception, match="'points' or 'zero_sum'"):
        pyspiel.load_game("python_euchre(utility=money)")
    with pytest.raises(Exception, match="Unknown parameter"):
        pyspiel.load_game("python_euchre(target=5)")


@pytest.mark.parametrize("rules", VARIANTS + COMBOS, ids=str)
def test_random_sim_test_passes(rules: Rules) -> None:
    utility = "zero_sum" if rules.players == 3 else "points"
    pyspiel.random_sim_test(load(rules, utility), num_sims=1, serialize=False, verbose=False)


def test_states_survive_serialisation_and_clone() -> None:
    game = load(Rules(players=3))
    state = random_state(game, random.Random(2), stop=0.9)
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.history() == state.history()
    clone = state.clone()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
        assert str(clone) != str(state)


def test_chance_nodes_deal_exactly_the_cards_asked() -> None:
    rules = Rules(players=3)
    deal = Deal.random(rules, 2, 5)
    record = deal.to_record().to_json()
    state = load(rules).new_initial_state()
    for a in dealt_by(rules, record):
        state.apply_action(a)
    ours = state.record().to_json()
    assert {k: ours[k] for k in ("dealer", "hands", "dummy", "turnup")} == \
        {k: record[k] for k in ("dealer", "hands", "dummy", "turnup")}
    assert sorted(ours["kitty"]) == sorted(record["kitty"])
    assert state.legal_actions() == deal.legal_action_ids()


@pytest.mark.parametrize("rules", VARIANTS + COMBOS[:1], ids=str)
def test_actions_are_our_ids_and_returns_are_the_replayed_points(rules: Rules,
                                                                 tmp_path: Path) -> None:
    from euchre.cli import app

    game = load(rules)
    zero_sum = load(rules, "zero_sum")
    rng = random.Random(rules.players)
    records, returns = [], []
    for _ in range(12):
        state = random_state(game, rng)
        record = state.record()
        deal = Deal.from_record(record)  # the engine replays every action: all were legal
        assert deal.is_over
        records.append(record)
        returns.append(state.returns())
        twin = zero_sum.new_initial_state()
        for a in state.history():
            twin.apply_action(a)
        points = state.returns()
        others = [(sum(points) - x) / (rules.players - 1) for x in points]
        assert twin.returns() == pytest.approx([x - o for x, o in zip(points, others,
                                                                       strict=True)])
        assert sum(twin.returns()) == pytest.approx(0.0)
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in records), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    replayed = [json.loads(line)["points"] for line in result.stdout.splitlines()]
    assert replayed == [[int(x) for x in r] for r in returns]
    assert any(any(r) for r in returns)


def test_an_illegal_action_is_refused_with_the_engines_reason() -> None:
    game = load(Rules(players=4))
    state = random_state(game, random.Random(1), stop=0.0)
    assert state.legal_actions() == [99, 100, 101]
    with pytest.raises(ValueError, match="seat"):
        state.apply_action(110)
    assert state.legal_actions() == [99, 100, 101]


@pytest.mark.parametrize("rules", VARIANTS + COMBOS[:2], ids=str)
def test_what_a_seat_sees_does_not_change_with_the_cards_it_cannot_see(rules: Rules) -> None:
    """Resampling the hidden cards keeps every seat-view of the player (strings and
    tensors) and the legal actions; the other seats' cards did change (else the test
    could not fail)."""
    game = load(rules)
    rng = random.Random(7)
    changed = 0
    for _ in range(25):
        state = random_state(game, rng, stop=0.93)
        if state.is_terminal():
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, rng.random)
        assert other.current_player() == player
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_string(player) == state.observation_string(player)
        assert np.array_equal(other.observation_tensor(player),
                              state.observation_tensor(player))
        assert np.array_equal(other.information_state_tensor(player),
                              state.information_state_tensor(player))
        assert other.legal_actions() == state.legal_actions()
        if other.record().hands != state.record().hands:
            changed += 1
    assert changed >= 10


def test_the_observation_shows_a_change_of_the_seats_own_cards() -> None:
    """The converse: the same actions with a different hand for the observer change its
    observation (the tensor is not blind)."""
    rules = Rules(players=2)
    game = load(rules)
    a, b = game.new_initial_state(), game.new_initial_state()
    for state, first in ((a, 0), (b, 1)):
        state.apply_action(0)  # dealer 0
        state.apply_action(first)  # seat 1's hand: the first or second five-card set
        state.apply_action(0)
        state.apply_action(state.chance_outcomes()[-1][0])
    assert a.observation_tensor(1) != b.observation_tensor(1)
    assert a.information_state_string(1) != b.information_state_string(1)


@pytest.mark.parametrize("rules", VARIANTS + COMBOS, ids=str)
def test_the_bots_view_is_a_state_the_seat_cannot_tell_from_the_deal(rules: Rules) -> None:
    """At every decision of random deals, the state built from the seat's observation
    has the seat's information state and legal actions."""
    game = load(rules)
    rng = random.Random(rules.players)
    checked = 0
    for _ in range(12):
        deal = Deal.random(rules, rng.randrange(rules.players), rng)
        real = game.new_initial_state()
        for x in dealt_by(rules, deal.to_record().to_json()):
            real.apply_action(x)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            built = state_from_observation(game, deal.observation(seat), rng)
            assert isinstance(built, EuchreState)
            assert built.information_state_string(seat) == real.information_state_string(seat)
            assert built.legal_actions() == deal.legal_action_ids() == real.legal_actions()
            checked += 1
            action = rng.choice(deal.legal_action_ids())
            deal.apply(action)
            real.apply_action(action)
    assert checked > 100


def test_openspiels_ismcts_runs_on_python_euchre() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load(Rules(players=3), "zero_sum")
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 30,
                           random_state=rng)
    state = random_state(game, random.Random(3), stop=0.0)
    for _ in range(4):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_external_sampling_mccfr_runs_on_two_handed() -> None:
    from open_spiel.python.algorithms import external_sampling_mccfr

    game = load(Rules(players=2), "zero_sum")
    np.random.seed(1)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = random_state(game, random.Random(5), stop=0.0)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)
    assert solver._infostates  # it learned something


def test_the_game_parameters_are_the_rules_of_one_deal_from_the_rules_table() -> None:
    from euchre.rules import OPTIONS

    params = pyspiel.load_game("python_euchre").get_parameters()
    deal_options = [o for o in OPTIONS if o.per_deal]
    assert list(params) == sorted([*(o.name for o in deal_options), "utility"])
    for o in deal_options:  # a value the variant decides: 0 or false, the variant's then
        assert params[o.name] == (o.type() if o.default is None else o.default), o.name
    assert {o.name for o in OPTIONS if not o.per_deal} == {"target", "draw", "rubber"}
