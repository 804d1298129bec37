"""Saving a game record: never replace a file unasked, and write atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from euchre.cli import app
from euchre.cli.save import write_atomically

runner = CliRunner()

FINISHED = {"rules": {"players": 4}, "seats": ["You", "West", "North", "East"],
            "deals": [{}] * 7, "winners": [0, 2]}


def test_save_onto_an_existing_file_without_a_terminal_is_refused_before_the_game(
    tmp_path: Path,
) -> None:
    """The issue's case: ``printf '1\\n' | euchre play --seed 9 --save g.json`` once
    replaced a finished game with an unfinished one."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(FINISHED) + "\n")
    result = runner.invoke(app, ["play", "--seed", "9", "--save", str(path)], input="1\n")
    assert result.exit_code == 2
    assert result.stdout == ""  # no game was started, so none is lost
    assert result.stderr.count("\n") == 1
    assert "already exists (a saved finished game of 7 deals)" in result.stderr
    assert "--overwrite" in result.stderr
    assert json.loads(path.read_text()) == FINISHED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_overwrite_replaces_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(FINISHED) + "\n")
    result = runner.invoke(app, ["play", "--seed", "9", "--save", str(path), "--overwrite"],
                           input="1\n")
    assert result.exit_code == 1  # the input ended first
    assert json.loads(path.read_text())["winners"] == []


def test_save_into_a_missing_folder_is_refused_before_the_game(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "g.json"
    result = runner.invoke(app, ["play", "--seed", "9", "--save", str(path)], input="1\n")
    assert result.exit_code == 2
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert f"there is no folder {tmp_path / 'nowhere'}" in result.stderr


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    path.write_text("the old game\n")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError):
        write_atomically(path, "the new game\n")
    assert path.read_text() == "the old game\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text("old\n")
    path.chmod(0o640)
    write_atomically(path, "new\n")
    assert path.read_text() == "new\n"
    assert path.stat().st_mode & 0o777 == 0o640
