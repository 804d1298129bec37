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
    # another seed of the weights on the same held-out deals
    d, same_split = train(data, NetOptions(layers=(16,), epochs=2, batch=64, seed=6,
                                           split_seed=5))
    assert not np.array_equal(a.policy[0], d.policy[0])
    np.testing.assert_array_equal(d.checks["obs"], a.checks["obs"])
    assert same_split["holdout"]["rows"] == stats["holdout"]["rows"]
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


@cache
def option_folder(root: str, *flags: str) -> Path:
    """Two-handed self-play of the basic bot under rules options, 40 deals."""
    out = Path(root) / ("sp2" + "".join(flags))
    result = CliRunner().invoke(app, ["selfplay", "--out", str(out), "-n", "2", "--bots",
                                      "basic", "-k", "40", "--seed", "4", "-w", "1",
                                      "--chunk-size", "20", *flags])
    assert result.exit_code == 0, result.output
    return out


def test_folders_of_several_options_give_the_options_as_inputs(folder: Path) -> None:
    """Data of several rules sets: the options in which they differ become inputs, each
    row's observation gets its folder's (the encoding play uses), and the first folder's
    held-out deals are those it has alone."""
    root = str(folder.parent)
    stick = option_folder(root, "--stick-the-dealer")
    deck = option_folder(root, "--deck", "32")
    data = read_selfplay([folder, stick, deck])
    assert data.rules == read_selfplay([folder]).rules
    assert data.option_inputs == {"deck": [24, 32], "stick_the_dealer": [False, True]}
    assert data.obs.shape[1] == 352 + 2
    assert data.source is not None
    for index, (extra, size) in enumerate([([0, 0], 24), ([0, 1], 24), ([1, 0], 32)]):
        rows = data.source == index
        assert (data.obs[rows, 352:] == extra).all()
        # the hands hold only cards of the folder's pack: 9s and up, or 7s and up
        cards = data.obs[rows, :33].sum(axis=0)
        assert cards.nonzero()[0].size <= size
    assert [s["rules"] for s in data.sources] == ["default", "stick_the_dealer", "deck=32"]
    alone = holdout_deals(read_selfplay([folder]).deal, 0.1, 1)
    from euchre.jobs.net import holdout_rows

    both = holdout_rows(data, 0.1, 1)
    np.testing.assert_array_equal(both[data.source == 0], alone)


def test_a_net_of_several_options_plays_each(folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training needs PyTorch, of the rl extra")
    from euchre.rules import Rules

    stick = option_folder(str(folder.parent), "--stick-the-dealer")
    out = tmp_path / "net-2.npz"
    result = CliRunner().invoke(app, ["train", "net", str(folder), str(stick), "--players",
                                      "2", "--out", str(out), "--layers", "8", "--epochs",
                                      "1", "--json"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)["stats"]
    assert set(stats["holdout_by_rules"]) == {"default", "stick_the_dealer"}
    model = NetModel.load(out)
    model.check()
    assert model.option_inputs == {"stick_the_dealer": [False, True]}
    assert model.input_size == 353 and model.observation_size == 352
    # the checks hold rows of both rules sets, with the option inputs appended
    assert set(model.checks["obs"][:, -1].tolist()) == {0.0, 1.0}
    assert model.accepts(Rules(players=2, stick_the_dealer=True))
    assert model.accepts(Rules(players=2, target=5))
    assert not model.accepts(Rules(players=2, joker=True))
    assert not model.accepts(Rules(players=4))


def test_folders_of_other_rules_than_the_options_are_refused(folder: Path) -> None:
    other = option_folder(str(folder.parent), "--joker", "--joker-turnup", "suit:S")
    with pytest.raises(ValueError, match="other rules"):
        read_selfplay([folder, other])
