"""``euchre night schedule`` (issue 32, item 7): the chart of a club night for the
organiser with no server, as JSON and as a chart, and its refusals."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from euchre.cli import app
from euchre.night import partners, teams, winners_first_round

runner = CliRunner()


def schedule(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["night", "schedule", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_is_one_object_of_the_whole_night() -> None:
    """Thirteen players: thirteen rounds of three tables, one player out each round,
    players numbered from 1; the same night as the engine's."""
    code, out, _ = schedule("--players", "13", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["players"] == 13 and data["format"] == "partners"
    assert len(data["rounds"]) == 13
    for r in data["rounds"]:
        assert len(r["tables"]) == 3 and len(r["out"]) == 1
        seated = [p for t in r["tables"] for side in t for p in side] + r["out"]
        assert sorted(seated) == list(range(1, 14))
    assert data == partners(13).to_json()


def test_json_of_a_short_night_of_fixed_teams() -> None:
    code, out, _ = schedule("-n", "12", "--format", "teams", "--rounds", "2", "--json")
    assert code == 0
    assert json.loads(out) == teams(12, rounds=2).to_json()


def test_winners_move_up_prints_round_one_and_says_why() -> None:
    code, out, err = schedule("--players", "9", "--format", "winners", "--json")
    assert code == 0
    assert json.loads(out) == {"players": 9, "format": "winners",
                               "rounds": [winners_first_round(9).to_json()]}
    assert "only round 1 is shown" in err


def test_the_chart_shows_every_round_table_and_sit_out() -> None:
    code, out, _ = schedule("--players", "6", "--rounds", "2")
    assert code == 0
    assert out.startswith("6 players, rotating partners, 2 rounds")
    assert "Round 1" in out and "Round 2" in out and "Round 3" not in out
    night = partners(6, rounds=2)
    for r in night.rounds:
        (a, b), (c, d) = r.tables[0].sides
        assert f"{a} & {b}" in out and f"{c} & {d}" in out
        assert "Sitting out: " + ", ".join(map(str, r.out)) in out


@pytest.mark.parametrize("args, words", [
    (["--players", "3"], "--players is from 4 to 64, not 3"),
    (["--players", "65"], "--players is from 4 to 64, not 65"),
    (["--players", "8", "--rounds", "8"], "--rounds is from 1 to 7 for 8 players"),
    (["--players", "8", "--rounds", "0"], "--rounds is from 1 to 7 for 8 players"),
    (["--players", "8", "--format", "swiss"], "--format is partners, winners or teams"),
    (["--players", "9", "--format", "teams"], "fixed teams need an even number"),
])
def test_bad_input_is_refused_in_one_line(args: list[str], words: str) -> None:
    code, out, err = schedule(*args)
    assert code == 2 and out == ""
    assert err.startswith("euchre: ") and words in err and err.count("\n") == 1


def test_the_chart_speaks_the_players_language_in_a_terminal(tmp_path: Path) -> None:
    """As a person runs it in French: the heading, the rounds, the tables and who sits
    out, in French."""
    child = pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", "night", "schedule",
                         "--players", "7", "--rounds", "3", "--lang", "fr"],
        cwd=str(tmp_path), env={"TERM": "dumb", "PATH": "/usr/bin:/bin", "COLUMNS": "100",
                                "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
                                "LANG": "C.UTF-8"},
        encoding="utf-8", dimensions=(50, 100), timeout=60)
    child.expect("7 joueurs, partenaires tournants, 3 manches")
    child.expect("Manche 1")
    child.expect("Au repos\u202f: ")  # French: a narrow no-break space before the colon
    child.expect("Manche 3")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
