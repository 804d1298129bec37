"""``euchre simulate``: the summary, its JSON, and records that replay to the same points."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from euchre.cli import app

runner = CliRunner()

KEYS = {"games", "deals", "seconds", "deals_per_second", "wins", "points", "rules", "bots"}


def simulate_json(*args: str) -> dict[str, Any]:
    """Run ``euchre simulate --json``; its standard output is exactly one JSON object."""
    result = runner.invoke(app, ["simulate", "--json", *args])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no progress bar with --json
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data: dict[str, Any] = json.loads(lines[0])
    return data


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_json_has_the_keys_and_consistent_numbers(players: int) -> None:
    data = simulate_json("--players", str(players), "--games", "6", "--seed", "1",
                         "--to", "5")
    assert set(data) >= KEYS
    assert data["games"] == 6
    assert len(data["wins"]) == len(data["points"]) == players
    assert data["bots"] == ["basic"] * players
    assert data["rules"]["players"] == players and data["rules"]["target"] == 5
    assert data["deals"] >= 6
    assert data["seconds"] > 0
    assert data["deals_per_second"] == pytest.approx(data["deals"] / data["seconds"], rel=0.01)
    # every game has at least one winner, and each winning seat counts it
    assert sum(data["wins"]) >= data["games"]
    if players == 4:
        assert sum(data["wins"]) == 2 * data["games"]
        assert data["wins"][0] == data["wins"][2] and data["points"][1] == data["points"][3]


def test_the_same_seed_gives_the_same_games() -> None:
    args = ("--players", "3", "--games", "4", "--seed", "9", "--bots", "random,basic,basic")
    first, second = simulate_json(*args), simulate_json(*args)
    for key in ("games", "deals", "wins", "points", "bots", "rules"):
        assert first[key] == second[key]
    assert first["bots"] == ["random", "basic", "basic"]


def test_rule_options_reach_the_rules() -> None:
    data = simulate_json("--players", "4", "--games", "2", "--seed", "1", "--joker",
                         "--deck", "32", "--stick-the-dealer", "--defend-alone", "--draw")
    rules = data["rules"]
    assert rules["joker"] and rules["deck"] == 32 and rules["draw"]
    assert rules["stick_the_dealer"] and rules["defend_alone"]
    assert rules["target"] == 10  # unset: the variant's default


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_recorded_game_replays_to_the_same_result(players: int, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    data = simulate_json("--players", str(players), "--games", "8", "--seed", "2",
                         "--bots", "random", "--to", "6", "--record", str(path))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == data["games"]
    assert sum(len(r["deals"]) for r in records) == data["deals"]
    assert [sum(r["scores"][s] for r in records) for s in range(players)] == data["points"]
    assert [sum(s in r["winners"] for r in records) for s in range(players)] == data["wins"]

    replayed = runner.invoke(app, ["replay", "--json", str(path)])
    assert replayed.exit_code == 0, replayed.output
    summaries = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert len(summaries) == data["deals"]
    at = 0
    for record in records:
        deals = summaries[at:at + len(record["deals"])]
        at += len(record["deals"])
        assert deals[-1]["score"] == record["scores"]
        assert [d["score"] for d in deals] == [d["score"] for d in record["deals"]]
        assert all(d["complete"] for d in deals)


def test_random_seats_play_the_same_games_with_or_without_records(tmp_path: Path) -> None:
    """All-random tables run on the compiled core; recording their games changes
    nothing in them, and the draw (which seats the players) goes through the engine."""
    args = ("--players", "5", "--games", "12", "--seed", "7", "--bots", "random")
    plain = simulate_json(*args)
    recorded = simulate_json(*args, "--record", str(tmp_path / "g.jsonl"))
    for key in ("deals", "wins", "points"):
        assert plain[key] == recorded[key]
    drawn = simulate_json("--players", "4", "--games", "3", "--seed", "7", "--bots", "random",
                          "--draw")
    assert drawn["games"] == 3 and sum(drawn["wins"]) == 6


def test_the_summary_table() -> None:
    result = runner.invoke(app, ["simulate", "--games", "3", "--seed", "1"],
                           env={"COLUMNS": "120"})
    assert result.exit_code == 0
    out = result.stdout
    for word in ("seat", "bot", "wins", "points", "deals per second", "3 games"):
        assert word in out
    assert "each winning seat counts the game" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "basic,nobody"], "unknown bot 'nobody'"),
    (["--bots", "basic,random"], "--bots takes one name, or 4"),
    (["--players", "5", "--deck", "24"], "five hands need 26 cards"),
    (["--players", "2", "--defend-alone"], "--defend-alone is played three- and four-handed only"),
    (["--games", "0"], "--games"),
])
def test_bad_options_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "--json", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""
