"""``euchre train``: the pre-play data are reproducible for a seed, the fit finds a
correction that is there, and the command writes rows and a model that load back."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from euchre.bots.evaluation import utility_of_gains
from euchre.bots.learned import FEATURES, GROUPS, Model
from euchre.cli import app
from euchre.cli.train import read_rows
from euchre.jobs.train import (
    PrebidData,
    as_rows,
    calibration,
    corrected,
    fit,
    holdout,
    model_name,
)
from euchre.rules import Rules

runner = CliRunner()


def test_the_rows_are_the_same_for_a_seed() -> None:
    job = PrebidData(Rules(players=2), deals=4, seed=8, worlds=4, top=2, chunk_size=2)
    first = [job.run_unit(u) for u in range(job.units())]
    again = [job.run_unit(u) for u in range(job.units())]
    assert first == again
    assert sum(len(c["deal"]) for c in first) > 0
    other = PrebidData(Rules(players=2), deals=4, seed=9, worlds=4, top=2, chunk_size=2)
    assert [other.run_unit(u) for u in range(other.units())] != first


def test_a_deal_does_not_depend_on_its_chunk() -> None:
    small = PrebidData(Rules(players=2), deals=4, seed=8, worlds=4, top=2, chunk_size=1)
    big = PrebidData(Rules(players=2), deals=4, seed=8, worlds=4, top=2, chunk_size=4)
    assert small.deal_rows(3) == big.deal_rows(3)


def test_the_realised_utility_has_the_evaluations_game_bonus() -> None:
    # four-handed, a march from 8-0: 2 points and the game
    assert utility_of_gains([2, 0, 2, 0], 0, [8, 0, 8, 0], 10, 3.0) == 5.0
    # three-handed: own points minus the others' mean; the opponent's game costs the bonus
    assert utility_of_gains([0, 2, 0], 0, [0, 9, 0], 10, 3.0) == -4.0


def synthetic(n: int, seed: int, slope: float) -> dict[str, np.ndarray]:
    """Rows where realised minus PIMC is ``slope`` times the ``bid`` feature plus noise."""
    rng = np.random.default_rng(seed)
    x = np.zeros((n, len(FEATURES)))
    x[:, 0] = 1.0
    bid = rng.integers(0, 2, n)
    x[:, FEATURES.index("bid")] = bid
    x[:, FEATURES.index("pass")] = 1 - bid
    x[:, FEATURES.index("own score")] = rng.random(n)
    pimc = rng.normal(0, 1, n)
    realised = pimc + slope * bid + rng.normal(0, 0.3, n)
    return as_rows({"deal": np.arange(n) // 2, "decision": np.zeros(n, dtype=int),
                    "seat": np.zeros(n, dtype=int), "group": np.zeros(n, dtype=int),
                    "action": np.where(bid == 1, 100, 99), "chosen": bid == 1,
                    "pimc": pimc, "realised": realised, "features": x})


def test_the_fit_finds_the_bias_of_bidding() -> None:
    rows = synthetic(2000, 1, 0.4)
    result = fit(rows)
    w = result.weights[0]
    bid, pass_ = FEATURES.index("bid"), FEATURES.index("pass")
    assert w[0] + w[bid] - (w[0] + w[pass_]) == pytest.approx(0.4, abs=0.05)
    assert np.all(result.weights[1:] == 0)  # groups without rows keep zero weights
    assert result.stats["bid1"]["mse_fit"] < result.stats["bid1"]["mse_pimc"]
    fixed = corrected(rows, result.weights)
    assert np.mean((rows["realised"] - fixed) ** 2) < np.mean(
        (rows["realised"] - rows["pimc"]) ** 2)


def paired(n: int, seed: int, slope: float) -> dict[str, np.ndarray]:
    """``n`` decisions of a pass and a bid each, sharing their deal's luck; bidding
    realises ``slope`` more than PIMC says."""
    rng = np.random.default_rng(seed)
    rows = synthetic(2 * n, seed, 0.0)
    rows["deal"] = np.repeat(np.arange(n), 2)
    rows["action"] = np.tile([99, 100], n)
    bid = np.tile([0.0, 1.0], n)
    rows["features"][:, FEATURES.index("bid")] = bid
    rows["features"][:, FEATURES.index("pass")] = 1 - bid
    luck = np.repeat(rng.normal(0, 3.0, n), 2)
    rows["realised"] = rows["pimc"] + slope * bid + luck + rng.normal(0, 0.2, 2 * n)
    return rows


def test_calibration_pairs_each_bid_with_the_pass_of_its_decision() -> None:
    rows = paired(400, 2, 0.5)
    before = calibration(rows)
    assert before and sum(t["n"] for t in before) == 400
    report = holdout(rows)
    assert report["error_before"] > 0.4
    assert report["error_after"] < 0.2


def test_train_help() -> None:
    for args in (["train", "--help"], ["train", "prebid", "--help"], ["train", "fit", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
    assert "prebid" in runner.invoke(app, ["train", "--help"]).output


def test_train_prebid_writes_rows_and_a_model_and_fit_refits(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = runner.invoke(app, ["train", "prebid", "--players", "2", "--deals", "6",
                                 "--seed", "2", "--worlds", "4", "--workers", "1",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    model = Model.load(summary["model"])
    assert Path(summary["model"]).name == model_name(Rules(players=2)) == "prebid-2.npz"
    assert model.header["seed"] == 2 and model.header["deals"] == 6
    assert model.rules == Rules(players=2)
    rows, header = read_rows(Path(summary["data"]))
    assert len(rows["deal"]) == summary["rows"] > 0
    assert header["parameters"]["seed"] == 2
    again = tmp_path / "again.npz"
    result = runner.invoke(app, ["train", "fit", summary["data"], "--out", str(again)])
    assert result.exit_code == 0, result.output
    assert np.array_equal(Model.load(again).weights, model.weights)
    assert Model.load(again).weights.shape == (len(GROUPS), len(FEATURES))


def test_train_fit_refuses_what_is_not_rows(tmp_path: Path) -> None:
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"junk")
    result = runner.invoke(app, ["train", "fit", str(bad), "--out", str(tmp_path / "m.npz")])
    assert result.exit_code == 1
    assert "cannot read the rows" in result.output


def test_model_names_carry_the_options() -> None:
    assert model_name(Rules(players=4, stick_the_dealer=True, dealer_must_take_up=True)) == \
        "prebid-4-stick_the_dealer-dealer_must_take_up.npz"
    assert model_name(Rules(players=5, target=11)) == "prebid-5.npz"


def test_rows_without_pyarrow_go_to_npz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import euchre.cli.train as cli_train

    rows = synthetic(10, 3, 0.1)
    monkeypatch.setattr(cli_train, "_pyarrow", lambda: None)
    path = cli_train.write_rows(rows, {"seed": 1}, tmp_path, "rows")
    assert path.suffix == ".npz"
    back, header = read_rows(path)
    assert header["seed"] == 1
    for c in rows:
        assert np.array_equal(back[c], rows[c])


def test_the_fit_sees_through_the_luck_a_decisions_actions_share() -> None:
    """Pass and bid at each decision share a large common outcome (the deal's cards);
    the correction of bidding over passing is still found, tightly."""
    w = fit(paired(600, 5, 0.3)).weights[0]
    assert w[FEATURES.index("bid")] - w[FEATURES.index("pass")] == pytest.approx(0.3, abs=0.05)
