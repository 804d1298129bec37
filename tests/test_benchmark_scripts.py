"""The scripts in ``benchmarks/`` that measure the bots still run (tiny sizes only: the
figures themselves are in ``docs/benchmarks.md``, never asserted here)."""

from __future__ import annotations

import doctest
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """Import ``benchmarks/<name>.py`` (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # multiprocessing pickles its functions by module
    spec.loader.exec_module(module)
    return module


WITHOUT_DOCTESTS = {
    "solver": "a command line over euchre.jobs.bench.bench_solver (its examples are there); it "
              "pins the process to one core",
    "startup": "times the terminal game's first prompt under pexpect: nothing to show but "
               "a duration",
    "ws_load": "starts web servers and floods them with WebSocket players: nothing runs "
               "without them",
}
"""The scripts that have no doctest, and why."""

NEEDS = {"envs": ("gymnasium", "pettingzoo"), "openspiel_game": ("pyspiel",)}
"""The optional modules a script's examples need (their extras: see pyproject.toml)."""

SCRIPTS = sorted(p.stem for p in BENCHMARKS.glob("*.py"))


@pytest.mark.parametrize("name", [s for s in SCRIPTS if s not in WITHOUT_DOCTESTS])
def test_doctests_of_benchmark_script(name: str) -> None:
    """Every script teaches with an example, and its examples pass."""
    for module in NEEDS.get(name, ()):
        pytest.importorskip(module, reason=f"{name}.py's examples need {module}")
    result = doctest.testmod(load(name))
    assert result.attempted > 0, f"benchmarks/{name}.py has no doctest"
    assert result.failed == 0


def test_every_script_without_doctests_exists() -> None:
    assert set(WITHOUT_DOCTESTS) <= set(SCRIPTS)


def test_basic_vs_random_seats_another_bot(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("basic_vs_random")
    assert script.main(["--games", "2", "--variants", "2", "--bot", "intermediate",
                        "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (row,) = report["results"]
    assert row["bot"] == "intermediate" and row["games"] == 2
    assert 0 <= row["wins"] <= 2 and row["share"] == row["wins"] / 2
    census = row["census"]
    assert census["bot_makes"] + census["other_makes"] == pytest.approx(1.0)
    assert census["bot_called"] == 0  # partners are called five-handed only


def test_ismcts_peer_validates_and_tabulates(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("ismcts_peer")
    assert script.main(["validate", "--sims", "20", "--sets-two", "2", "--sets-four", "2",
                        "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert [r["players"] for r in rows] == [2, 4]
    assert all(r["bots"] == ["cismcts:20", "ismcts:20"] and r["verdict"] for r in rows)
    assert rows[1]["rules"]["dealer_must_take_up"]  # OpenSpiel's rules four-handed
    assert script.main(["table", "--sims", "20", "--sets", "2", "--variants", "2",
                        "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["results"][0]["bots"] == ["expert", "cismcts:20"]
    assert "| 2-handed | 2 |" in report["markdown"]
    assert script.main(["times", "--sims", "20", "--deals", "1", "--variants", "2",
                        "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["results"]
    assert set(row["median_seconds"]) == {"cismcts:20", "ismcts:20"}


def test_expert_diagnostics_split_is_relative_to_basic(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = load("expert_diagnostics")
    assert script.main(["split", "--players", "2", "--deals", "3", "--workers", "1",
                        "--json"]) == 0
    results = {r["bot"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert set(results) == {"expert", "basic bids, expert plays", "expert bids, basic plays"}
    assert results["expert"]["minus_expert"] == 0
    # two-handed a deal scores at most 2 points, to one player
    assert all(abs(r["edge"]) <= 2 for r in results.values())


def test_expert_diagnostics_calibration_branches_every_bid() -> None:
    script = load("expert_diagnostics")
    rows = script.calibration_deal((2, 5, 1, "pimc"))
    assert rows, "two-handed, the non-dealer always has a bid to make"
    for row in rows:
        assert row["phase"] in ("BID_TURNUP", "BID_SUIT")
        assert set(row["predicted"]) == set(row["realised"])
        assert "pass" in row["predicted"] or row["phase"] == "BID_SUIT"
    table = script.calibration_table(rows * 10)
    assert table
    for t in table:
        assert t["from"] <= t["predicted"] < t["to"]


def test_vector_benchmark_compares_with_openspiel(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("vector")
    cores = os.sched_getaffinity(0)
    try:
        assert script.main(["--deals", "300", "--repeats", "1", "--json"]) == 0
    finally:
        os.sched_setaffinity(0, cores)  # the script pins itself to one core
    report = json.loads(capsys.readouterr().out)
    assert report["core_deals_per_second"] > 0
    assert [row["variant"] for row in report["variants"]] == [
        "two-handed", "three-handed", "four-handed", "five-handed"]
    if script.pyspiel is not None:
        assert report["ratio"] > 0 and report["openspiel_deals_per_second"] > 0


def test_simulate_benchmark_runs_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("simulate")
    assert script.main(["--games", "20", "--repeats", "1", "--openspiel-deals", "20",
                        "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["simulate_deals_per_second"] > 0 and report["deals_last_repeat"] >= 20
    if script.pyspiel is not None:
        assert report["ratio"] > 0


def test_openspiel_game_benchmark_restores_the_affinity(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    script = load("openspiel_game")
    cores = os.sched_getaffinity(0)
    assert script.main(["--deals", "20", "--repeats", "2", "--json"]) == 0
    assert os.sched_getaffinity(0) == cores
    report = json.loads(capsys.readouterr().out)
    assert set(report["deals_per_second"]) == {"python_euchre", "euchre"}
    assert report["ratio"] > 0 and report["nodes_per_deal"]["python_euchre"] > 0


def test_inference_benchmark_scores_beliefs_and_times(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("inference")
    assert script.main(["--players", "4", "--deals", "1", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    assert row["players"] == 4 and row["decisions"] > 10
    for key in ("belief_off", "belief_on"):
        assert all(v <= 0 for v in row[key].values())
    assert set(row["ms"]) == {"pimc", "expert"}


def test_lookahead_benchmark_plays_out_where_the_bots_differ(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = load("lookahead")
    assert script.main(["--players", "2", "--deals", "3", "--worlds", "6", "--playouts",
                        "1", "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (row,) = report["rows"]
    assert row["players"] == 2 and row["deals"] == 3
    assert row["decisions"] > 0 and 0 <= row["differing"] <= row["decisions"]
    low, high = row["gain_per_deal_ci95"]
    assert low <= row["gain_per_deal"] <= high


def test_hint_times_the_opinion_in_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("hint")
    assert doctest.testmod(script).failed == 0
    assert script.main(["--deals", "1", "--variants", "2", "5", "--worlds", "4", "8",
                        "--steadiness", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["players"], r["worlds"]) for r in report["times"]] == [
        (2, 4), (2, 8), (5, 4), (5, 8)]
    assert all(r["decisions"] > 0 and r["median_ms"] > 0 for r in report["times"])
    assert [r["worlds"] for r in report["steadiness"]] == [4, 8, 4, 8]
    assert "| 5-handed | 8 |" in script.markdown(report)


def test_expert_values_are_reproducible_and_compared(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    script = load("expert_values")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert script.main(["--out", str(first), "--count", "8", "--samples", "2"]) == 0
    rows = json.loads(first.read_text())
    assert len(rows) == 8 and {r["variant"]["players"] for r in rows} == {2, 3, 4, 5}
    assert all(r["values"] for r in rows)
    assert script.main(["--out", str(second), "--count", "8", "--samples", "2",
                        "--compare", str(first)]) == 0
    assert "identical: 8 of 8" in capsys.readouterr().out
    rows[0]["values"] = {}
    first.write_text(json.dumps(rows))
    assert script.main(["--out", str(second), "--count", "8", "--samples", "2",
                        "--compare", str(first)]) == 1


def test_deal_apply_benchmark_measures_both_loops() -> None:
    """``benchmarks/deal_apply.py`` times this tree's deal against a commit's (tiny size)."""
    script = load("deal_apply")
    result = doctest.testmod(script)
    assert result.failed == 0 and result.attempted > 0
    figures = script.measure(["two-handed"], deals=2, repeats=1, against="HEAD")
    assert set(figures) == {"this", "against"}
    for side in figures.values():
        assert side["two-handed"]["apply"] > 0 and side["two-handed"]["copy+apply"] > 0


def test_expert_benchmark_times_the_bot_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("expert")
    assert script.main(["--games", "1", "--variants", "2", "--bot", "expert:4:am",
                        "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bot"] == "expert:4:am"
    (row,) = report["rows"]
    assert row["players"] == 2 and row["games"] == 1 and row["decisions"] > 0
    assert {t["phase"] for t in report["timing"]} >= {"play"}
