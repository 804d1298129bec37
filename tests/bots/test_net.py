"""The net bot and its model (issue 23): a shipped weight file loads and takes the decisions
it took when it was trained, the policy only ever proposes legal actions (RULES §4-§8: the
legal actions of each phase), the numpy forward pass is PyTorch's, and rules without a
model are refused in one line."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.actions import NUM_ACTIONS
from euchre.bots import RandomBot, choose, make_bot
from euchre.bots.net import NetBot, NetError, NetModel, encode_observation, net_for, net_name
from euchre.bots.net import shipped_nets as shipped
from euchre.deal import Deal
from euchre.rules import Rules
from euchre.vector import observation_size

SHIPPED = shipped()


def tiny_model(players: int = 2, seed: int = 0, layers: tuple[int, ...] = (16, 8)
               ) -> NetModel:
    """A net of random weights over the observation of ``players`` seats."""
    rng = np.random.default_rng(seed)
    widths = [observation_size(players), *layers]
    trunk = tuple((rng.normal(0, 0.3, (a, b)).astype(np.float32),
                   rng.normal(0, 0.1, b).astype(np.float32))
                  for a, b in itertools.pairwise(widths))
    head = widths[-1]
    return NetModel(trunk,
                    (rng.normal(0, 1, (head, NUM_ACTIONS)).astype(np.float32),
                     rng.normal(0, 1, NUM_ACTIONS).astype(np.float32)),
                    (rng.normal(0, 1, (head, 1)).astype(np.float32),
                     rng.normal(0, 1, 1).astype(np.float32)),
                    {"rules": Rules(players=players).to_dict()})


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


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_net_bot_proposes_only_legal_actions_over_whole_deals(path: Path,
                                                                  seed: int) -> None:
    """Every seat the net bot, or some seats random players (to reach states the policy
    would not): to the end of the deal, every action legal (``choose`` raises on an
    illegal one) and the policy's weight all on the legal ones."""
    rules = NetModel.load(path).rules
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
    rules = Rules(players=4, joker=True)
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

    result = CliRunner().invoke(app, ["tournament", "--players", "4", "--joker", "--bots",
                                      "net,basic", "--deals", "2", "--workers", "1"])
    assert result.exit_code != 0
    assert "no learned policy" in result.output
    assert "Traceback" not in result.output
