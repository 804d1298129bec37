"""``euchre solve`` and ``euchre bench`` (the open-hand solver and bot timing)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from euchre.cli import app

runner = CliRunner()


def _record(actions: list[str]) -> dict[str, Any]:
    return {
        "rules": {"players": 2},
        "dealer": 0,
        "hands": [["9C", "TC", "JC", "QC", "KC"], ["AC", "9D", "TD", "JD", "QD"]],
        "turnup": "KD",
        "kitty": ["AD", "9H", "TH", "JH", "QH", "KH", "AH", "9S", "TS", "JS", "QS", "KS", "AS"],
        "actions": actions,
    }


def test_solve_json_gives_values_of_every_legal_card(tmp_path: Path) -> None:
    """Seat 1 (AC and four diamonds with the right bower) against KD and four clubs: the
    AC or the right bower takes all five; a low trump lets the KD win a trick."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_record(["order", "discard 9C"])))
    result = runner.invoke(app, ["solve", str(path), "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["to_move"] == 1
    assert answer["values"] == {"play AC": 5, "play 9D": 4, "play TD": 4, "play JD": 5,
                                "play QD": 4}
    assert answer["best"] == "play AC"


def test_solve_mid_trick_counts_the_trick_in_progress(tmp_path: Path) -> None:
    """The value includes the trick in progress: seat 0 must follow the JD lead."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_record(["order", "discard 9C", "JD"])))
    result = runner.invoke(app, ["solve", str(path), "--json"])
    answer = json.loads(result.stdout)
    assert answer["to_move"] == 0 and answer["values"] == {"play KD": 0}


def test_solve_refuses_a_record_not_in_play(tmp_path: Path) -> None:
    """A record stopped in the bidding has nothing to solve: one line, exit 1."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_record(["pass"])))
    result = runner.invoke(app, ["solve", str(path), "--json"])
    assert result.exit_code == 1
    assert "play phase" in result.stderr and result.stdout == ""


def test_solve_text_marks_the_best_card(tmp_path: Path) -> None:
    """Without --json, one line per card with the best marked."""
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(_record(["order", "discard 9C"])))
    result = runner.invoke(app, ["solve", str(path)])
    assert result.exit_code == 0
    assert "play AC    5  <- best" in result.stdout


def test_bench_bot_json_reports_every_variant() -> None:
    """``euchre bench bot NAME --json``: median and p99 per variant and overall."""
    result = runner.invoke(app, ["bench", "bot", "random", "--deals", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [r["variant"] for r in report["variants"]] == [
        "two-handed", "three-handed", "four-handed", "five-handed"]
    assert report["decisions"] == sum(r["decisions"] for r in report["variants"])
    assert 0 < report["median_ms"] <= report["p99_ms"]


def test_bench_bot_text_reads_overall_then_each_variant() -> None:
    """Without --json, ``euchre bench bot`` prints :func:`euchre.jobs.bench.format_bot_bench`:
    the bot's line over all, then one line a variant."""
    result = runner.invoke(app, ["bench", "bot", "random", "--deals", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bot random: ") and " decisions, median " in lines[0]
    assert [line.split()[0] for line in lines[1:]] == [
        "two-handed", "three-handed", "four-handed", "five-handed"]


def test_bench_bot_unknown_name_is_one_line() -> None:
    """An unknown bot: one clear line naming the known bots, exit 2."""
    result = runner.invoke(app, ["bench", "bot", "nobody"])
    assert result.exit_code == 2 and "unknown bot" in result.stderr


def test_bench_solver_json_has_median_and_p99() -> None:
    """``euchre bench solver --json``: full four-handed deals, median and p99 in µs."""
    result = runner.invoke(app, ["bench", "solver", "--deals", "20", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert 0 < report["median_us"] <= report["p99_us"]


def test_bench_vector_json_has_deals_per_second() -> None:
    """``euchre bench vector --players 3 --json``: random deals a second on the core."""
    result = runner.invoke(app, ["bench", "vector", "--players", "3", "--deals", "500",
                                 "--repeats", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["players"] == 3 and report["deals_per_second"] > 0
    assert report["lowest"] <= report["deals_per_second"] <= report["highest"]
    assert report["bytes_per_deal"] == 1024 and report["actions_per_deal"] > 10


def test_bench_vector_text_and_bad_sizes() -> None:
    result = runner.invoke(app, ["bench", "vector", "--deals", "300", "--repeats", "1"])
    assert result.exit_code == 0, result.output
    assert "4-handed, random play on the compiled core:" in result.stdout
    bad = runner.invoke(app, ["bench", "vector", "--deals", "0"])
    assert bad.exit_code == 2 and "--deals and --repeats must be at least 1" in bad.stderr
