"""The net bot and its model (issue 23): a shipped weight file loads and takes the decisions
it took when it was trained, the policy only ever proposes legal actions (RULES §4-§8: the
legal actions of each phase), the numpy forward pass is PyTorch's, and rules without a
model are refused in one line."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.actions import NUM_ACTIONS
from euchre.bots import RandomBot, choose, make_bot
from euchre.bots.net import (
    OPTION_FIELDS,
    NetBot,
    NetError,
    NetModel,
    encode_observation,
    net_for,
    net_name,
    option_features,
    option_vector,
)
from euchre.bots.net import shipped_nets as shipped
from euchre.deal import Deal
from euchre.rules import Rules
from euchre.vector import observation_size

SHIPPED = shipped()


def tiny_model(players: int = 2, seed: int = 0, layers: tuple[int, ...] = (16, 8),
               option_inputs: dict[str, list[Any]] | None = None) -> NetModel:
    """A net of random weights over the observation of ``players`` seats (and the option
    inputs)."""
    rng = np.random.default_rng(seed)
    extra = len(option_features(option_inputs or {}))
    widths = [observation_size(players) + extra, *layers]
    trunk = tuple((rng.normal(0, 0.3, (a, b)).astype(np.float32),
                   rng.normal(0, 0.1, b).astype(np.float32))
                  for a, b in itertools.pairwise(widths))
    head = widths[-1]
    return NetModel(trunk,
                    (rng.normal(0, 1, (head, NUM_ACTIONS)).astype(np.float32),
                     rng.normal(0, 1, NUM_ACTIONS).astype(np.float32)),
                    (rng.normal(0, 1, (head, 1)).astype(np.float32),
                     rng.normal(0, 1, 1).astype(np.float32)),
                    {"rules": Rules(players=players).to_dict(),
                     **({"option_inputs": option_inputs} if option_inputs else {})})


def test_a_net_model_is_shipped_four_handed_and_small() -> None:
    assert any(p.name == "net-4.npz" for p in SHIPPED)
    for path in SHIPPED:
        assert path.stat().st_size < 1_000_000, path


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_a_shipped_model_takes_the_decisions_recorded_when_it_was_trained(path: Path) -> None:
    model = NetModel.load(path)
    assert path.name == net_name(model.rules)
    assert net_for(model.rules) is not None
    h = model.header
    for key in ("command", "seed", "deals", "stats", "sources"):
        assert key in h, key
    assert h["stats"]["holdout"]["top1_all"] > 0.5
    c = model.checks
    assert len(c["action"]) >= 8
    assert c["legal"][np.arange(len(c["action"])), c["action"]].all()
    model.check()
    np.testing.assert_array_equal(model.best(c["obs"], c["legal"]), c["action"])
    # each check row read as play reads it: its observation tensor under its rules
    for obs, legal, action in zip(c["obs"], c["legal"], c["action"], strict=True):
        rules = rules_of_options(model, obs[model.observation_size:])
        played = net_for(rules)
        if not model.accepts(rules):  # trained on, withheld from play
            assert played is None
            played = dataclasses.replace(model, bound=rules)
        assert played is not None and played.rules == rules
        assert played.best(obs[None, :model.observation_size], legal[None])[0] == action


def rules_of_options(model: NetModel, options: np.ndarray) -> Rules:
    """The rules whose option inputs are ``options`` (the model's own where all are 0)."""
    changes = {name: value for (name, value), x in zip(model.features, options, strict=True)
               if x == 1.0}
    assert set(options.tolist()) <= {0.0, 1.0}
    return Rules.from_dict({**model.base_rules.to_dict(), **changes})


def option_rules(path: Path) -> list[Rules]:
    """The rules sets a shipped model plays: its own, and each option input's values."""
    model = NetModel.load(path)
    own = model.base_rules.to_dict()
    withheld = model.header.get("withheld", {})
    return [model.base_rules] + [Rules.from_dict({**own, name: value})
                                 for name, value in model.features
                                 if value not in withheld.get(name, ())]


OPTION_RULES = [(path, rules) for path in SHIPPED for rules in option_rules(path)]


def test_a_changed_weight_fails_the_check(tmp_path: Path) -> None:
    model = tiny_model().rounded()  # as the file holds it
    obs = np.random.default_rng(1).random((12, model.input_size)).astype(np.float32)
    legal = np.ones((12, NUM_ACTIONS), dtype=bool)
    _, value = model.logits_and_value(obs)
    checked = NetModel(model.trunk, model.policy, model.value, model.header,
                       {"obs": obs, "legal": legal,
                        "action": model.best(obs, legal).astype(np.int16), "value": value})
    path = tmp_path / "net-2.npz"
    checked.save(path)
    loaded = NetModel.load(path)
    loaded.check()
    w, b = loaded.policy
    w = w.copy()
    w[:, int(checked.checks["action"][0])] -= 100.0
    broken = NetModel(loaded.trunk, (w, b), loaded.value, loaded.header, loaded.checks)
    with pytest.raises(NetError, match="decisions"):
        broken.check()


def test_a_file_that_is_no_net_model_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, header=np.array('{"format": "other"}'))
    with pytest.raises(NetError, match="not a net model"):
        NetModel.load(path)
    with pytest.raises(NetError, match="cannot read"):
        NetModel.load(tmp_path / "missing.npz")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 6))
def test_the_masked_policy_puts_all_its_weight_on_legal_actions(seed: int, rows: int) -> None:
    model = tiny_model(seed=seed % 3)
    rng = np.random.default_rng(seed)
    obs = rng.random((rows, model.input_size)).astype(np.float32)
    legal = rng.random((rows, NUM_ACTIONS)) < rng.uniform(0.01, 0.5)
    legal[np.arange(rows), rng.integers(0, NUM_ACTIONS, rows)] = True
    probs, value = model.forward(obs, legal)
    assert probs.shape == (rows, NUM_ACTIONS) and value.shape == (rows,)
    assert not probs[~legal].any()
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    best = model.best(obs, legal)
    assert legal[np.arange(rows), best].all()
    np.testing.assert_array_equal(best, probs.argmax(axis=1))


@pytest.mark.parametrize(("path", "rules"), OPTION_RULES,
                         ids=[f"{p.name}-{net_name(r)}" for p, r in OPTION_RULES])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_net_bot_proposes_only_legal_actions_over_whole_deals(path: Path, rules: Rules,
                                                                  seed: int) -> None:
    """Every seat the net bot, or some seats random players (to reach states the policy
    would not): to the end of the deal, every action legal (``choose`` raises on an
    illegal one) and the policy's weight all on the legal ones; under every rules options
    the model takes as inputs (RULES §4 stick the dealer, §5 the dealer must take up, §7
    defending alone, §1 the pack and the joker)."""
    model = net_for(rules)
    assert model is not None
    rng = random.Random(seed)
    deal = Deal.random(rules, rng.randrange(rules.players), rng)
    net = NetBot(seed)
    bots = [net if rng.random() < 0.6 else RandomBot(rng) for _ in range(rules.players)]
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        legal = np.zeros((1, NUM_ACTIONS), dtype=bool)
        legal[0, deal.legal_action_ids()] = True
        probs, _ = model.forward(encode_observation(obs)[None, :], legal)
        assert not probs[~legal].any()
        deal.apply(choose(bots[seat], deal))


def test_numpy_forward_equals_torch_forward() -> None:
    torch = pytest.importorskip("torch", reason="PyTorch comes with the rl extra")
    from euchre.jobs.net import to_torch

    models = [tiny_model(4, seed=2)] + [NetModel.load(p) for p in SHIPPED]
    for model in models:
        rng = np.random.default_rng(5)
        obs = (rng.random((32, model.input_size)) < 0.1).astype(np.float32)
        legal = rng.random((32, NUM_ACTIONS)) < 0.2
        legal[:, 99] = True
        logits, value = model.logits_and_value(obs)
        with torch.no_grad():
            t_logits, t_value = to_torch(model)(torch.from_numpy(obs))
        np.testing.assert_allclose(logits, t_logits.numpy(), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(value, t_value.numpy(), rtol=1e-4, atol=1e-4)
        probs, _ = model.forward(obs, legal)
        t_probs = torch.softmax(torch.where(torch.from_numpy(legal), t_logits,
                                            torch.tensor(-torch.inf)), dim=1)
        np.testing.assert_allclose(probs, t_probs.numpy(), rtol=1e-4, atol=1e-6)


def test_rules_without_a_model_are_refused_in_one_line() -> None:
    rules = Rules(players=4, deck=28)
    bot = make_bot("net", seed=1)
    assert bot.name == "net"
    with pytest.raises(NetError, match="no learned policy for these rules") as info:
        bot.check_rules(rules)  # type: ignore[attr-defined]
    assert "\n" not in str(info.value)
    deal = Deal.random(rules, 0, 1)
    with pytest.raises(NetError, match="no learned policy"):
        choose(bot, deal)


def test_the_tournament_refuses_the_net_bot_without_a_model_in_one_line() -> None:
    from typer.testing import CliRunner

    from euchre.cli import app

    result = CliRunner().invoke(app, ["tournament", "--players", "4", "--deck", "28",
                                      "--bots", "net,basic", "--deals", "2", "--workers",
                                      "1"])
    assert result.exit_code != 0
    assert "no learned policy" in result.output
    assert "Traceback" not in result.output


OPTIONS_TINY: dict[str, list[Any]] = {"deck": [24, 32], "stick_the_dealer": [False, True],
                "defend_alone": [False, True]}


def test_the_option_inputs_are_one_number_per_value_besides_the_first() -> None:
    features = option_features(OPTIONS_TINY)
    assert features == (("deck", 32), ("stick_the_dealer", True), ("defend_alone", True))
    assert option_vector(Rules(players=4), features).tolist() == [0, 0, 0]
    both = Rules(players=4, deck=32, defend_alone=True)
    assert option_vector(both, features).tolist() == [1, 0, 1]
    assert set(OPTION_FIELDS) >= set(OPTIONS_TINY)
    with pytest.raises(NetError, match="cannot take the option target"):
        option_features({"target": [10, 5]})


def test_a_model_of_option_inputs_plays_the_options_it_takes_and_no_other() -> None:
    model = tiny_model(4, seed=3, option_inputs=OPTIONS_TINY)
    assert model.input_size == observation_size(4) + 3
    assert model.observation_size == observation_size(4)
    for rules in (Rules(players=4), Rules(players=4, stick_the_dealer=True),
                  Rules(players=4, deck=32, defend_alone=True),
                  Rules(players=4, target=5, draw=True, rubber=True)):  # the game's options
        assert model.accepts(rules), rules
        assert model.under(rules).rules == rules
    for rules in (Rules(players=4, deck=28), Rules(players=4, joker=True),
                  Rules(players=4, dealer_must_take_up=True), Rules(players=2)):
        assert not model.accepts(rules), rules
        with pytest.raises(NetError, match="does not play"):
            model.under(rules)
    # an observation tensor is read with the options of the rules the model is bound to
    obs = (np.random.default_rng(2).random((5, observation_size(4))) < 0.1).astype(np.float32)
    legal = np.ones((5, NUM_ACTIONS), dtype=bool)
    rules = Rules(players=4, deck=32, stick_the_dealer=True)
    bound = model.under(rules)
    full = np.concatenate([obs, np.tile([1.0, 1.0, 0.0], (5, 1))], axis=1).astype(np.float32)
    np.testing.assert_array_equal(bound.inputs(obs), full)
    np.testing.assert_array_equal(bound.logits_and_value(obs)[0],
                                  model.logits_and_value(full)[0])
    np.testing.assert_array_equal(model.inputs(obs)[:, -3:], 0.0)  # its own rules
    assert not np.array_equal(model.forward(obs, legal)[0], bound.forward(obs, legal)[0])
    with pytest.raises(NetError, match="reads observations"):
        model.inputs(obs[:, :-1])


def test_an_option_value_withheld_is_not_played() -> None:
    model = tiny_model(4, seed=3, option_inputs=OPTIONS_TINY)
    withheld = NetModel(model.trunk, model.policy, model.value,
                        {**model.header, "withheld": {"deck": [32]}})
    assert model.accepts(Rules(players=4, deck=32))
    assert not withheld.accepts(Rules(players=4, deck=32))
    assert not withheld.accepts(Rules(players=4, deck=32, stick_the_dealer=True))
    assert withheld.accepts(Rules(players=4, stick_the_dealer=True))


def test_a_net_bot_of_option_inputs_plays_under_the_options(tmp_path: Path) -> None:
    model = tiny_model(4, seed=4, option_inputs=OPTIONS_TINY)
    path = tmp_path / "net-4.npz"
    model.save(path)
    loaded = NetModel.load(path)
    assert loaded.option_inputs == OPTIONS_TINY and loaded.features == model.features
    bot = NetBot(model=loaded)
    rules = Rules(players=4, stick_the_dealer=True, defend_alone=True)
    bot.check_rules(rules)
    deal = Deal.random(rules, 0, 5)
    while not deal.is_over:
        deal.apply(choose(bot, deal))
    with pytest.raises(NetError, match="no learned policy"):
        bot.check_rules(Rules(players=4, deck=28))


def test_the_shipped_models_play_any_target_and_the_game_options() -> None:
    """The net judges one deal and reads no score: the target, the draw and the rubber
    (RULES §10, §11) do not stop it."""
    for path in SHIPPED:
        rules = NetModel.load(path).base_rules
        assert net_for(rules) is not None
        assert net_for(Rules.from_dict({**rules.to_dict(), "target": 5})) is not None
    four = Rules(players=4, draw=True, rubber=True, target=11)
    model = net_for(four)
    assert model is not None and model.rules == four
