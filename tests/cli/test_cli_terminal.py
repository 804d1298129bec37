"""``euchre play`` at a real terminal (a pseudo-terminal driven by pexpect): the questions
that are asked only there, and Ctrl-D."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

PROMPT = r"› $"
SAVE_PROMPT = r"Save the game record\? File name \(Enter to skip\) › $"
REPLACE = r"Replace it\? \[y/N\] $"

FINISHED = {"rules": {"players": 2}, "seats": ["You", "North"], "deals": [{}, {}],
            "winners": [1]}
"""A stand-in for a finished game saved earlier: only what is kept matters."""


def spawn(folder: Path, *args: str) -> pexpect.spawn[str]:
    """``euchre play`` on a pseudo-terminal, without colours, wide enough for every line."""
    child = pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", "play", *args],
        cwd=str(folder), env={"TERM": "dumb", "PATH": "/usr/bin:/bin", "COLUMNS": "200"},
        encoding="utf-8", dimensions=(50, 200), timeout=60)
    return child


def answer_first_until_the_end(child: pexpect.spawn[str]) -> None:
    """Answer 1 to every question of the game, up to the offer to save."""
    while child.expect([SAVE_PROMPT, PROMPT]) == 1:
        child.sendline("1")


def finished_game_file(folder: Path) -> Path:
    path = folder / "g.json"
    path.write_text(json.dumps(FINISHED) + "\n")
    return path


def test_saving_onto_an_existing_file_asks_before_replacing_it(tmp_path: Path) -> None:
    path = finished_game_file(tmp_path)
    child = spawn(tmp_path, "--seed", "9", "--delay", "0", "--to", "1")
    answer_first_until_the_end(child)
    child.sendline("g.json")
    child.expect(r"g\.json already exists \(a saved finished game of 2 deals\)\. " + REPLACE)
    child.sendline("n")
    child.expect("Kept g.json as it was.")
    assert json.loads(path.read_text()) == FINISHED
    child.expect(SAVE_PROMPT)  # asked for another name
    child.sendline("g.json")
    child.expect(REPLACE)
    child.sendline("y")
    child.expect(r"Saved the game record to g\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads(path.read_text())
    assert record["winners"] and len(record["deals"]) >= 1 and record["seats"][0] == "You"


def test_save_option_onto_an_existing_file_asks_at_the_end(tmp_path: Path) -> None:
    path = finished_game_file(tmp_path)
    child = spawn(tmp_path, "--seed", "9", "--delay", "0", "--to", "1", "--save", "g.json")
    answer_first_until_the_end_or_replace(child)
    child.sendline("")  # no: keep it
    child.expect("Kept g.json as it was.")
    child.expect(SAVE_PROMPT)
    child.sendline("")  # and save nowhere
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(path.read_text()) == FINISHED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def answer_first_until_the_end_or_replace(child: pexpect.spawn[str]) -> None:
    """Answer 1 to every question of the game, up to the question to replace a file."""
    while child.expect([REPLACE, PROMPT]) == 1:
        child.sendline("1")


def test_ctrl_d_ends_the_game_without_asking_for_a_file_name(tmp_path: Path) -> None:
    """The line typed after Ctrl-D goes to the shell, never into a file name."""
    child = spawn(tmp_path, "--seed", "9", "--delay", "0")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("Game abandoned: the input ended before the game did.")
    child.sendline("typed-afterwards.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "File name" not in (child.before or "")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_d_with_save_keeps_the_existing_file_and_saves_beside_it(tmp_path: Path) -> None:
    path = finished_game_file(tmp_path)
    child = spawn(tmp_path, "--seed", "9", "--delay", "0", "--save", "g.json")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"g\.json already exists and is kept; this game goes to g-2\.json instead\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert json.loads(path.read_text()) == FINISHED
    unfinished = json.loads((tmp_path / "g-2.json").read_text())
    assert unfinished["winners"] == [] and len(unfinished["deals"]) == 1
