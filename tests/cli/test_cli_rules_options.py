"""Every command that takes rules takes every option of the rules' table
(:data:`euchre.rules.OPTIONS`), made from it; an option a command cannot apply is refused
in one line that says why, never ignored."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from euchre.cli import app
from euchre.cli.resume import RULE_FLAGS
from euchre.rules import OPTIONS

RULES_COMMANDS = [["play"], ["simulate"], ["tournament"], ["selfplay"], ["train", "prebid"],
                  ["train", "net"], ["train", "cfr"], ["bench", "vector"]]
"""The commands that take rules (``replay``, ``analyze`` and ``solve`` read them from the
record; ``rules`` takes the variant only; ``bench bot`` and ``bench solver`` time fixed
deals of every variant, or four-handed)."""

NOT_HERE = {
    "play": {"rubber"},
    "simulate": {"rubber"},
    "tournament": {"draw", "rubber"},
    "selfplay": {"draw", "rubber"},
    "train prebid": {"draw", "rubber"},
    "train net": {"draw", "rubber"},
    "train cfr": {"draw", "rubber", "target"},
    "bench vector": {"target", "draw", "rubber"},
}
"""What each command cannot apply: a rubber is played in the browser, a tournament seats
the bots itself, self-play and training play single deals (the bidding's strategy without
the score), the compiled core random deals."""


def _help(command: list[str]) -> str:
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("command", RULES_COMMANDS, ids=" ".join)
def test_every_command_that_takes_rules_lists_every_option_of_the_table(
        command: list[str]) -> None:
    shown = set(re.findall(r"(?<![\w-])--[\w-]+", _help(command)))
    for o in OPTIONS:
        assert o.flag in shown, o.flag
        if o.negatable:
            assert "--no-" + o.flag[2:] in shown, o.flag


@pytest.mark.parametrize("command", RULES_COMMANDS, ids=" ".join)
def test_an_option_a_command_cannot_apply_is_refused_in_one_line(command: list[str]) -> None:
    for name in NOT_HERE[" ".join(command)]:
        flag = next(o.flag for o in OPTIONS if o.name == name)
        args = [flag, "5"] if name == "target" else [flag]
        out = (["--out", "unused"] if command == ["selfplay"] else
               ["--out", "unused.npz", "unused"] if command == ["train", "net"] else [])
        result = CliRunner().invoke(app, [*command, *args, *out, "--players", "4"])
        assert result.exit_code == 2, (flag, result.output)
        assert result.stderr.startswith(f"euchre: {flag} does not apply here: ")
        assert result.stderr.count("\n") == 1


def test_the_draw_and_the_target_reach_every_command_that_plays_games() -> None:
    result = CliRunner().invoke(app, ["simulate", "--players", "4", "--games", "1",
                                      "--bots", "random", "--to", "3", "--draw",
                                      "--workers", "1", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert '"target": 3' in result.stdout and '"draw": true' in result.stdout


def test_a_target_above_the_tables_bound_is_refused_naming_the_flag() -> None:
    result = CliRunner().invoke(app, ["simulate", "--to", "101"])
    assert result.exit_code == 2
    assert result.stderr == "euchre: --to is at most 100, not 101\n"


def test_the_resume_check_knows_every_option_by_its_flag() -> None:
    assert {o.name: (o.flag, o.name) for o in OPTIONS} == RULE_FLAGS
