"""``euchre train net`` (:mod:`euchre.jobs.net`): the net is trained from self-play rows, split
by deal, the same seed gives the same weights, the file records its command and figures,
and data of other rules are refused in one line."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from euchre.bots.net import NetModel
from euchre.cli import app
from euchre.jobs.net import NetOptions, holdout_deals, read_selfplay, train

pytest.importorskip("pyarrow", reason="self-play rows are Parquet (the data extra)")


@cache
def selfplay_folder(root: str) -> Path:
    """Two-handed self-play of the basic bot, 40 deals."""
    out = Path(root) / "sp2"
    result = CliRunner().invoke(app, ["selfplay", "--out", str(out), "-n", "2", "--bots",
                                      "basic", "-k", "40", "--seed", "3", "-w", "1",
                                      "--chunk-size", "20"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return selfplay_folder(str(tmp_path_factory.mktemp("net")))


def test_the_rows_are_read_with_the_seats_outcome(folder: Path) -> None:
    data = read_selfplay([folder])
    assert data.rules.players == 2 and data.deals == 40
    assert data.obs.shape == (len(data.action), 352)
    assert data.legal[np.arange(len(data.action)), data.action].all()
    # two-handed the outcome is the seat's points minus the other's: opposite per deal
    assert set(np.unique(np.abs(data.outcome))) <= {0.0, 1.0, 2.0, 4.0}


def test_the_held_out_deals_are_whole_deals() -> None:
    deals = np.repeat(np.arange(50), 7)
    held = holdout_deals(deals, 0.2, seed=4)
    assert held.sum() == 10 * 7
    for d in range(50):
        assert len(set(held[deals == d])) == 1


def test_the_same_seed_trains_the_same_net(folder: Path) -> None:
    pytest.importorskip("torch", reason="training needs PyTorch, of the rl extra")
    data = read_selfplay([folder])
    options = NetOptions(layers=(16,), epochs=2, batch=64, seed=5)
    a, stats = train(data, options)
    b, _ = train(data, options)
    for (wa, ba), (wb, bb) in zip([*a.trunk, a.policy, a.value], [*b.trunk, b.policy, b.value],
                                  strict=True):
        np.testing.assert_array_equal(wa, wb)
        np.testing.assert_array_equal(ba, bb)
    c, _ = train(data, NetOptions(layers=(16,), epochs=2, batch=64, seed=6))
    assert not np.array_equal(a.policy[0], c.policy[0])
    assert stats["holdout_deals"] == 4 and stats["train_deals"] == 36
    assert 0.0 <= stats["holdout"]["top1_all"] <= 1.0
    a.check()


def test_the_command_writes_a_model_that_records_how_it_was_made(folder: Path,
                                                                 tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs PyTorch, of the rl extra")
    out = tmp_path / "net-2.npz"
    result = CliRunner().invoke(app, ["train", "net", str(folder), "--players", "2", "--out",
                                      str(out), "--layers", "8", "--epochs", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["model"] == str(out)
    model = NetModel.load(out)
    model.check()
    h = model.header
    assert isinstance(h["command"], str) and h["command"].startswith("euchre")
    assert h["seed"] == 1 and h["deals"] == 40
    assert h["sources"][0]["seed"] == 3 and h["sources"][0]["bots"] == ["basic", "basic"]
    assert h["stats"] == summary["stats"]
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))["seed"] == 1


def test_data_of_other_rules_are_refused_in_one_line(folder: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["train", "net", str(folder), "--players", "4", "--out",
                                      str(tmp_path / "net-4.npz")])
    assert result.exit_code == 2
    assert "other rules" in result.stderr and result.stderr.count("\n") == 1
