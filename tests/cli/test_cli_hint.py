"""``h`` at a prompt of ``euchre play`` shows the expert's hint."""

from __future__ import annotations

import re

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
