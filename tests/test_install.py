"""`make play` installs what playing needs and nothing else, quietly; and the game tells
the person a command that works in their shell (README, "The two commands")."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
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


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_serve_installs_the_web_extra_and_the_tests_have_it() -> None:
    def installs(target: str) -> list[str]:
        plan = subprocess.run(["make", "-n", "-W", "pyproject.toml", target], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout
        return [line for line in plan.splitlines() if "pip install" in line]

    assert installs("serve") == [".venv/bin/python -m pip install --quiet -e '.[web]'"]
    assert all("web" in line for line in installs("lint"))


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


WEB_STACK = ("fastapi", "starlette", "uvicorn", "websockets", "httptools", "uvloop",
             "watchfiles")
"""The web app's libraries that only the ``web`` extra brings: the engine, the bots and the
terminal game must run without any of them.  (pydantic and markdown-it, also in the extra,
come with typer and rich all the same: :func:`test_only_the_server_imports_the_web_stack`
checks that nothing outside the server uses them.)"""

_WITHOUT_WEB = f"""
import sys

class Refuse:
    '''Refuses the web stack, as an environment without the `web` extra would.'''
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {WEB_STACK!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Refuse())
for name in list(sys.modules):
    if name.partition(".")[0] in {WEB_STACK!r}:
        del sys.modules[name]
import euchre, euchre.bots
from euchre.cli import main
sys.argv = ["euchre", *sys.argv[1:]]
main()
"""


def without_web(*args: str) -> subprocess.CompletedProcess[str]:
    """``euchre ARGS`` in a fresh interpreter that cannot import the web stack."""
    env = {**os.environ, "COLUMNS": "200", "LANG": "C.UTF-8", "LANGUAGE": "en"}
    return subprocess.run([sys.executable, "-c", _WITHOUT_WEB, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_web_stack_is_an_extra_not_a_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[\[<>=~ ]", d)[0].lower() for d in project["dependencies"]}
    web = {re.split(r"[\[<>=~ ]", d)[0].lower() for d in project["optional-dependencies"]["web"]}
    assert names.isdisjoint(web)
    # openskill: a season's ratings (euchre.night.season), which the server shows;
    # segno: the club night's QR codes
    assert web == {"fastapi", "uvicorn", "pydantic", "websockets", "markdown-it-py",
                   "openskill", "segno"}


def test_only_the_server_imports_the_web_stack() -> None:
    web = {*WEB_STACK, "pydantic", "markdown_it"}
    for path in sorted((ROOT / "euchre").rglob("*.py")):
        if "server" in path.relative_to(ROOT / "euchre").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.partition(".")[0] not in web, f"{path.name} imports {name}"


def test_the_terminal_game_shows_its_help_without_the_web_extra() -> None:
    result = without_web("play", "--help")
    assert result.returncode == 0, result.stderr
    assert "--players" in result.stdout


def test_bots_play_a_simulation_without_the_web_extra() -> None:
    result = without_web("simulate", "--players", "2", "--games", "1", "--bots", "basic",
                         "--workers", "1", "--seed", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 1


def test_serve_without_the_web_extra_names_the_extra_in_one_line() -> None:
    result = without_web("serve", "--port", "1")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "pip install 'euchre[web]'" in result.stderr


def test_the_server_module_without_the_web_extra_names_the_extra_in_one_line(
        tmp_path: Path) -> None:
    """``python -m euchre.server``: the package itself names the extra it needs."""
    blocker = _WITHOUT_WEB.split("import euchre, euchre.bots")[0]
    (tmp_path / "sitecustomize.py").write_text(blocker, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "LANG": "C.UTF-8"}
    result = subprocess.run([sys.executable, "-m", "euchre.server", "--port", "1"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "pip install 'euchre[web]'" in result.stderr
