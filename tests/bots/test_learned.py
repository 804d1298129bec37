"""The expert's learned pre-play correction: the model file gives the decisions of the fit
that made it, the features are the training's, and a missing or broken model costs
nothing but the correction."""

from __future__ import annotations

import ast
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from euchre.actions import PASS, Action
from euchre.bots import choose
from euchre.bots import learned as learned_module
from euchre.bots.expert import ExpertBot, PimcBot
from euchre.bots.learned import (
    FEATURES,
    GROUPS,
    Model,
    ModelError,
    decision_features,
    group_of,
    model_for,
    shipped_models,
)
from euchre.deal import Observation
from euchre.jobs.train import PrebidData, Rows, as_rows, corrected, fit
from euchre.rules import Rules

RULES = Rules(players=2)


@cache
def tiny_rows() -> Rows:
    """The rows of a few two-handed deals (the cheapest variant)."""
    job = PrebidData(RULES, deals=12, seed=3, worlds=6, top=2)
    cols: dict[str, list[object]] = {}
    for u in range(job.units()):
        for c, v in job.run_unit(u).items():
            cols.setdefault(c, []).extend(v)
    return as_rows(cols)


def tiny_model() -> Model:
    result = fit(tiny_rows(), min_rows=5)
    assert np.any(result.weights != 0)
    return Model(result.weights, {"rules": RULES.to_dict(), "seed": 3})


def first_decision(job: PrebidData, d: int) -> tuple[Observation, dict[Action, float]]:
    """The observation and PIMC values at deal ``d``'s first recorded decision, reached
    the way the data job reaches it."""
    deal, names = job.start(d)
    bots = job.bots(d, names, "main")
    students = job.students(d)
    while True:
        seat = deal.to_move
        assert seat is not None
        bot = bots[seat]
        if (seat in students and group_of(deal.phase) is not None
                and len(deal.legal_action_ids()) > 1):
            assert isinstance(bot, PimcBot)
            obs = deal.observation(seat)
            return obs, dict(bot.evaluate(obs))
        deal.apply(choose(bot, deal))


def test_features_in_play_are_those_of_training() -> None:
    rows = tiny_rows()
    job = PrebidData(RULES, deals=12, seed=3, worlds=6, top=2)
    for d in range(3):
        at = np.flatnonzero((rows["deal"] == d) & (rows["decision"] == 0))
        if not len(at):
            continue
        obs, values = first_decision(job, d)
        actions, x = decision_features(obs, values)
        ids = [a.id for a in actions]
        for i in at:
            j = ids.index(int(rows["action"][i]))
            assert np.array_equal(x[j], rows["features"][i])
            assert values[actions[j]] == rows["pimc"][i]


def test_one_feature_function() -> None:
    """Training and play call the same function; no module defines a second."""
    import euchre.jobs.train

    assert vars(euchre.jobs.train)["decision_features"] is learned_module.decision_features
    package = Path(euchre.__file__).resolve().parent
    defining = [p.name for p in package.rglob("*.py")
                if any(isinstance(n, ast.FunctionDef) and n.name == "decision_features"
                       for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))]
    assert defining == ["learned.py"]


def test_saved_model_gives_the_fits_decisions(tmp_path: Path) -> None:
    model = tiny_model()
    path = tmp_path / "m.npz"
    model.save(path)
    loaded = Model.load(path)
    assert np.array_equal(loaded.weights, model.weights)
    assert loaded.header["seed"] == 3 and loaded.header["features"] == list(FEATURES)
    rows = tiny_rows()
    # the fit's corrected values of the recorded rows, and the loaded model's
    job = PrebidData(RULES, deals=12, seed=3, worlds=6, top=2)
    obs, values = first_decision(job, 0)
    got = loaded.correct(obs, values)
    at = np.flatnonzero((rows["deal"] == 0) & (rows["decision"] == 0))
    want = corrected(rows, model.weights)
    for i in at:
        a = next(a for a in got if a.id == rows["action"][i])
        assert got[a] == pytest.approx(want[i], abs=1e-12)
    # the expert with the loaded model: its values are the corrected PIMC values
    expert = ExpertBot(5, samples=6, time_budget=None, models=[loaded])
    pimc = PimcBot(5, samples=6, time_budget=None)
    e, p = expert.evaluate(obs), pimc.evaluate(obs)
    assert e == pytest.approx(loaded.correct(obs, p))


def test_a_model_is_used_only_for_its_rules() -> None:
    model = tiny_model()
    assert model_for(RULES, [model]) is model
    assert model_for(Rules(players=2, joker=True), [model]) is None
    assert model_for(Rules(players=2, target=11), [model]) is model


def test_without_a_model_the_expert_is_pimc() -> None:
    job = PrebidData(Rules(players=2, joker=True), deals=2, seed=4, worlds=6)
    obs, _ = first_decision(job, 0)
    expert = ExpertBot(9, samples=6, time_budget=None, models=[])
    pimc = PimcBot(9, samples=6, time_budget=None)
    assert expert.evaluate(obs) == pimc.evaluate(obs)


@pytest.mark.parametrize("content", [b"", b"not a zip", None])
def test_a_broken_model_file_is_a_clear_error(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "bad.npz"
    if content is None:
        np.savez(path, weights=np.zeros((len(GROUPS), len(FEATURES) - 1)),
                 header=np.array('{"format": "euchre-prebid-model"}'))
    else:
        path.write_bytes(content)
    with pytest.raises(ModelError):
        Model.load(path)
    with pytest.raises(ModelError, match="cannot read"):
        Model.load(tmp_path / "missing.npz")


def test_a_broken_shipped_model_falls_back_to_pimc(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "prebid-2.npz"
    bad.write_bytes(b"broken")
    monkeypatch.setattr(learned_module, "shipped_models", lambda: [bad])
    monkeypatch.setattr(learned_module, "_BY_RULES", {})
    learned_module._shipped.cache_clear()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert model_for(RULES) is None
        assert any("PIMC values" in str(w.message) for w in caught)
    finally:
        learned_module._shipped.cache_clear()


def test_shipped_models_load_and_match_their_names() -> None:
    for path in shipped_models():
        model = Model.load(path)
        assert path.name.startswith(f"prebid-{model.rules.players}")
        assert model.header["deals"] > 0 and "command" in model.header
        assert model_for(model.rules) is not None


def test_pass_is_a_feature_of_its_own() -> None:
    job = PrebidData(RULES, deals=2, seed=3, worlds=6)
    obs, values = first_decision(job, 0)
    actions, x = decision_features(obs, values)
    for a, row in zip(actions, x, strict=True):
        assert row[FEATURES.index("pass")] == (1.0 if a.id == PASS else 0.0)
        assert row[FEATURES.index("constant")] == 1.0
