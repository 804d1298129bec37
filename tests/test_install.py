"""`make play` installs what playing needs and nothing else, quietly; and the game tells
the person a command that works in their shell (README, "The two commands")."""

from __future__ import annotations

import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from euchre.cli.options import command_name

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_play_installs_the_package_without_the_development_tools() -> None:
    # -n: the commands make would run if the environment were older than pyproject.toml
    plan = subprocess.run(["make", "-n", "-W", "pyproject.toml", "play"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    installs = [line for line in plan.splitlines() if "pip install" in line]
    assert installs == [".venv/bin/python -m pip install --quiet -e ."]


def test_an_editable_install_is_a_plain_path_entry_with_nothing_to_warn_about() -> None:
    # setuptools warns about an editable install through its own import finder unless the
    # package's directory is declared: the root of the repository
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["package-dir"] == {"": "."}


def test_the_save_line_names_a_command_the_shell_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    program = venv_bin / "euchre"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # the environment not activated
    assert command_name(str(program)) == os.path.join(".venv", "bin", "euchre")
    monkeypatch.setenv("PATH", f"{venv_bin}:/usr/bin:/bin")  # activated
    assert command_name(str(program)) == "euchre"
