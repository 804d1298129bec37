"""``h`` at a prompt of ``euchre play`` shows the expert's hint, the one ``euchre analyze``
gives too."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from euchre.cli import app

runner = CliRunner()


def test_h_prints_the_hint_and_the_values() -> None:
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "3", "--to", "2"],
                           input="h\n" + "1\nh\n" * 400, env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.stdout[-2000:]
    out = result.stdout
    hints = re.findall(r"Hint: the expert would (.+)\.", out)
    assert hints
    assert any(h.startswith("play ") for h in hints)
    assert any(h in ("pass", "order") or h.startswith("trump") for h in hints)
    values = re.findall(r"Values \(expected points for your side this deal\): (.+)", out)
    assert values and all(re.search(r"[+-]\d+\.\d\d", v) for v in values)
    assert "Game over" in out


def test_help_mentions_the_hint() -> None:
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "3"], input="?\nq\ny\n",
                           env={"COLUMNS": "250"})
    assert "h  a hint: what the expert bot would do" in result.stdout


HINTED = re.compile(r"Hint: the expert would (.+?)\.\r?\n")
PROMPT = r"› ?$"
REVIEW = r"Review your decisions\? \[Y/n\] $"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("args", [
    ["--players", "2", "--seed", "11"],
    ["--players", "3", "--seed", "12"],
    ["--players", "4", "--seed", "844747"],  # the seed: h and analyze disagreed
    ["--players", "4", "--seed", "14", "--joker", "--stick-the-dealer"],
    ["--players", "5", "--seed", "15"],
])
def test_the_hint_s_choice_on_a_position_is_never_flagged_by_analyze_on_that_position(
        tmp_path: Path, args: list[str]) -> None:
    """A player types ``h`` at every decision of a game at a real terminal and plays
    what the hint says; ``euchre analyze`` on the saved game then finds every one of
    those decisions the best (cost 0), so none is a mistake."""
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from euchre.cli import main; main()", "play", *args, "--to", "5",
         "--bots", "basic", "--delay", "0", "--no-autoplay", "--save", "game.json",
         "--overwrite"],
        cwd=str(tmp_path), env={"TERM": "dumb", "PATH": "/usr/bin:/bin",
                 "PYTHONPATH": os.environ.get("PYTHONPATH", ""), "LANG": "C.UTF-8",
                                "XDG_CONFIG_HOME": str(tmp_path / "config"),
                                "XDG_DATA_HOME": str(tmp_path / "data")},
        encoding="utf-8", dimensions=(50, 250), timeout=120)
    hinted = []
    # "hint" in full: where trump is named, h is hearts
    while (asked := child.expect([PROMPT, REVIEW, pexpect.EOF])) != 2:
        if asked == 1:  # the game is over: analyze below is the review
            child.sendline("n")
            continue
        child.sendline("hint")
        child.expect(HINTED)
        found = child.match
        assert isinstance(found, re.Match)
        action = found.group(1)
        hinted.append(action)
        child.expect(PROMPT)
        child.sendline(action.removeprefix("play "))
    child.close()
    assert child.exitstatus == 0, child.before
    assert len(hinted) >= 10
    result = runner.invoke(app, ["analyze", str(tmp_path / "game.json"), "--json"])
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    decisions = review["decisions"]
    assert review["seat"] == 0 and len(decisions) >= 5
    assert [d for d in decisions if d["played"] != d["best"] or d["cost"] != 0] == []
    assert review["mistakes"] == 0
