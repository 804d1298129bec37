"""``euchre tournament``: the table, the JSON object, and bad options."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from euchre.cli import app
from euchre.envs.ismcts import available

runner = CliRunner()

KEYS = {"rules", "bots", "deals", "duplicate", "seatings", "seed", "deals_played", "games",
        "workers", "seconds", "results"}
ENTRY = {"bot", "points_per_deal", "ci95", "win_rate", "margin", "margin_ci95", "games", "wins",
         "elo"}


def tournament_json(*args: str) -> dict[str, Any]:
    """Run ``euchre tournament --json``: exactly one JSON object, nothing on stderr."""
    result = runner.invoke(app, ["tournament", "--json", "--workers", "1", *args])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data: dict[str, Any] = json.loads(lines[0])
    return data


@pytest.mark.parametrize(("players", "bots", "seatings"),
                         [(2, "basic,random", 2), (3, "basic,random", 6), (4, "basic,random", 2),
                          (5, "random,basic", 10), (3, "basic,random,random", 3)])
def test_json_keys_and_shape(players: int, bots: str, seatings: int) -> None:
    data = tournament_json("--players", str(players), "--bots", bots, "--deals", "8",
                           "--seed", "3", "--to", "5")
    assert set(data) >= KEYS
    names = bots.split(",")
    assert data["bots"] == names and data["deals"] == 8 and data["duplicate"] is True
    assert data["rules"]["players"] == players and data["rules"]["target"] == 5
    assert len(data["seatings"]) == seatings
    assert data["deals_played"] >= 8 * seatings
    assert len(data["results"]) == len(names)
    for entry in data["results"]:
        assert set(entry) >= ENTRY
        assert isinstance(entry["points_per_deal"], float)
        low, high = entry["ci95"]
        assert low <= entry["points_per_deal"] <= high
        assert 0 <= entry["win_rate"] <= 1
    assert sum(e["win_rate"] for e in data["results"]) == pytest.approx(1)


def test_the_same_seed_gives_the_same_numbers_and_no_duplicate_differs() -> None:
    args = ("--players", "4", "--deals", "10", "--seed", "5")
    first, second = tournament_json(*args), tournament_json(*args)
    assert first["results"] == second["results"]
    other = tournament_json(*args, "--no-duplicate")
    assert other["duplicate"] is False and other["results"] != first["results"]


def test_the_table() -> None:
    result = runner.invoke(app, ["tournament", "--deals", "6", "--seed", "2", "-w", "1",
                                 "--players", "3"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for words in ("6 deal sets × 6 seatings", "duplicate", "three-handed", "basic", "random",
                  "points/deal", "Elo", "seed 2"):
        assert words in out


@pytest.mark.parametrize(("args", "words"), [
    (["--deals", "1"], "--deals"),
    (["--deals", "0"], "--deals"),
    (["--workers", "0"], "--workers"),
    (["--bots", "basic,nobody"], "unknown bot 'nobody'"),
    (["--bots", "basic,random,basic"], "takes 1, 2 or 4"),
    (["--players", "5", "--bots", "basic,random,random"], "takes 1, 2 or 5"),
    (["--players", "5", "--deck", "24"], "five hands need 26 cards"),
    (["--bots", "basic:3,random"], "takes no options"),
])
def test_bad_options_exit_2_with_one_line(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["tournament", "--deals", "4", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("euchre: ") and words in lines[0]


@pytest.mark.skipif(not available(), reason="OpenSpiel (the 'bench' extra) is not installed")
def test_ismcts_plays_openspiels_rules_four_handed_and_every_variant() -> None:
    data = tournament_json("--bots", "ismcts:20:1,basic", "--deals", "3", "--seed", "1")
    rules = data["rules"]
    assert rules["dealer_must_take_up"] is True and rules["stick_the_dealer"] is True
    assert [e["bot"] for e in data["results"]] == ["ismcts:20:1", "basic"]
    # other variants keep their own defaults: ismcts searches python_euchre there
    data = tournament_json("--players", "3", "--bots", "ismcts:10:1,basic", "--deals", "2",
                           "--seed", "1", "--to", "2")
    assert data["rules"]["players"] == 3 and data["rules"]["dealer_must_take_up"] is False
    result = runner.invoke(app, ["tournament", "--bots", "ismcts:0,basic", "--deals", "4"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "ismcts:SIMULATIONS" in lines[0]


def test_ismcts_without_openspiel_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from euchre.bots import BOTS

    monkeypatch.delitem(BOTS, "ismcts", raising=False)
    result = runner.invoke(app, ["tournament", "--bots", "ismcts,basic", "--deals", "4"])
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("needs OpenSpiel: pip install -e '.[bench]' "
                                          "(in --bots)")


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(("json_out", "tty", "shown"), [
    (False, False, True), (False, True, True), (True, False, False), (True, True, True)])
def test_progress_bar_with_json_only_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch, json_out: bool, tty: bool, shown: bool) -> None:
    """--json keeps standard output for the JSON; the bar goes to a terminal's stderr."""
    import sys

    from euchre.cli.options import show_progress

    monkeypatch.setattr(sys, "stderr", _Stream(tty))
    assert show_progress(json_out) is shown


def test_a_small_tournament_still_uses_a_worker_per_seating() -> None:
    """One chunk of deal sets is cut by seating, so it keeps two workers busy; the
    numbers are those of one worker."""
    args = ("--players", "4", "--deals", "8", "--seed", "5")
    one = tournament_json(*args)
    result = runner.invoke(app, ["tournament", "--json", "--workers", "2", *args])
    assert result.exit_code == 0, result.output
    two = json.loads(result.stdout)
    assert two["workers"] == 2
    assert two["results"] == one["results"] and two["deals_played"] == one["deals_played"]


def test_the_table_says_why_more_deals_were_played_and_on_how_many_workers() -> None:
    result = runner.invoke(app, ["tournament", "--players", "4", "--deals", "8", "--seed", "5",
                                 "--workers", "3"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    data = tournament_json("--players", "4", "--deals", "8", "--seed", "5")
    played = data["deals_played"]
    assert played > 16  # games were finished after the sets
    assert (f"{played} deals played: 8 deal sets × 2 seatings = 16, and {played - 16} more to "
            f"finish the games still going when the deal sets ran out") in result.stdout
    assert ("on 2 workers, not 3: the work is 2 pieces (1 chunk of up to 50 deal sets × 2 "
            "seatings), one per worker") in result.stdout


def test_progress_off_a_terminal_is_a_line_at_each_tenth() -> None:
    """Standard error a file or a pipe (a log, CI): no bar can be drawn there, so the
    progress comes as a plain line at each tenth of the chunks, and the table is whole."""
    import re

    result = runner.invoke(app, ["tournament", "--workers", "1", "--players", "2",
                                 "--bots", "basic,random", "--deals", "20",
                                 "--chunk-size", "1", "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    done = [int(m.group(1)) for line in lines
            if (m := re.fullmatch(r"tournament: (\d+)/40 chunks, [\d,]+ deals/s, "
                                  r"\d+:\d\d elapsed, about \d+:\d\d left", line))]
    assert done == [4, 8, 12, 16, 20, 24, 28, 32, 36], lines
    assert "points/deal" in result.stdout and "tournament:" not in result.stdout
