"""``euchre play`` in French, German and Danish at a real terminal (pexpect): a whole game
with no English word left outside the notation, and the language chosen by ``--lang``
before the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

"English words" are those of the catalog's English messages, less the notation (card codes,
the actions one types, the flags) and less every word the language's own translations use
(``Joker``, ``bower``, ``Partner``, ``West`` are German words too)."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pexpect
import pytest
from babel.messages.pofile import read_po
from test_cli_illegal import refusals
from typer.testing import CliRunner

from euchre import Action, Deal, Rules
from euchre.cli import app, command_in, main
from euchre.cli.style import CardStyle
from euchre.i18n import LOCALE_DIR
from euchre.wording import why_illegal

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

PROMPT = r"› $"
SAVE = r"\([^)?\n]*\) › $"
"""The offer to save: its parentheses hold no "?", unlike those of a turn."""
REVIEW = r"\[\w/n\] $"
"""The offer of the review, the one question whose default is yes."""
NOTATION = {"pass", "order", "alone", "trump", "discard", "call", "defend", "basic", "euchre",
            "seed", "rules", "docs", "md", "y", "N", "h", "q"}
"""Typed words (RECORDS actions, the bots' names, command names) and the rules page's path."""
WORD = re.compile(r"[^\W\d_]{2,}")


def words(text: str) -> set[str]:
    text = re.sub(r"\[/?[a-z ]*\]|\{\w+\}|--[\w-]+", " ", text)  # markup, placeholders, flags
    return {w.lower() for w in WORD.findall(text)}


@cache
def english_words(lang: str) -> frozenset[str]:
    """Words of the English messages that the language's translations never use."""
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "euchre.po", "rb") as f:
        catalog = read_po(f, locale=lang)
    source: set[str] = set()
    target: set[str] = set()
    for m in catalog:
        if not m.id:
            continue
        for part in (m.id,) if isinstance(m.id, str) else m.id:
            source |= words(part)
        for part in (m.string,) if isinstance(m.string, str) else (m.string or ()):
            target |= words(part or "")
    return frozenset(source - target - {w.lower() for w in NOTATION})


def spawn(folder: Path, args: list[str], env: dict[str, str]) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", *args],
        cwd=str(folder), env={"TERM": "dumb", "PATH": "/usr/bin:/bin",
                 "PYTHONPATH": os.environ.get("PYTHONPATH", ""), "COLUMNS": "200",
                              "XDG_CONFIG_HOME": str(folder / "config"),
                              "XDG_DATA_HOME": str(folder / "data"), **env},
        encoding="utf-8", dimensions=(50, 200), timeout=60)


@pytest.mark.parametrize("lang, hello", [("fr", "Votre main"), ("de", "Dein Blatt"),
                                         ("da", "Din hånd")])
def test_a_whole_game_speaks_the_language(tmp_path: Path, lang: str, hello: str) -> None:
    """Every line of it, from the menu of levels to the review and the offer to save."""
    child = spawn(tmp_path, ["play", "--lang", lang, "--seed", "4", "--to", "2",
                             "--delay", "0"], {"LANG": "C.UTF-8"})
    transcript = []
    child.expect(PROMPT)  # the menu of levels
    transcript.append(str(child.before) + str(child.after))
    child.sendline("")
    asked_help = reviewed = False
    while (asked := child.expect([SAVE, PROMPT, REVIEW])) != 0:
        transcript.append(str(child.before) + str(child.after))
        child.sendline("" if asked == 2 else "1" if asked_help else "?")  # review: yes
        asked_help = asked_help or asked == 1
        reviewed = reviewed or asked == 2
    transcript.append(str(child.before) + str(child.after))
    child.sendline("")
    child.expect(pexpect.EOF)
    transcript.append(str(child.before))
    child.close()
    assert child.exitstatus == 0
    screen = "".join(transcript)
    assert hello in screen and reviewed
    left = sorted(words(screen) & english_words(lang))
    assert left == [], f"English words on the {lang} screen: {left}"
    assert f"euchre rules --players 4 --lang {lang}" in screen  # the rules in the language


def test_the_check_finds_english_words() -> None:
    """The check above cannot pass blind: an English line is caught, a German one not."""
    english = english_words("de")
    assert {"hand", "wins", "tricks"} <= english
    assert words("Stich 1  Nord spielt 10♥ aus") & english == set()
    assert words("Trick 1  North led 10♥") & english == {"trick", "north", "led"}


@pytest.mark.parametrize("args, env, hello", [
    (["play"], {"LANG": "de_DE.UTF-8"}, "Dein Blatt"),
    (["play"], {"LANGUAGE": "da:de", "LANG": "de_DE.UTF-8"}, "Din hånd"),
    (["play"], {"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, "Votre main"),
    (["play"], {"LC_ALL": "C", "LANGUAGE": "de", "LANG": "de_DE.UTF-8"}, "Your hand"),
    (["play", "--lang", "fr"], {"LANG": "de_DE.UTF-8"}, "Votre main"),
    (["--lang", "da", "play"], {"LC_ALL": "de_DE.UTF-8"}, "Din hånd"),
    (["--lang", "da", "play", "--lang", "en"], {"LANG": "de_DE.UTF-8"}, "Your hand"),
    (["play"], {"LANG": "es_ES.UTF-8"}, "Your hand"),
])
def test_lang_option_before_the_environment(tmp_path: Path, args: list[str],
                                            env: dict[str, str], hello: str) -> None:
    child = spawn(tmp_path, [*args, "--seed", "4", "--delay", "0", "--bots", "basic"], env)
    child.expect(PROMPT)
    assert hello in (child.before or "")
    child.sendline("q")
    child.expect(r"\[\w/N\]")
    child.sendline(str(child.after)[1])  # the language's own "yes"
    child.expect(SAVE)  # at a terminal, a game one leaves is offered for saving too
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_an_unknown_lang_is_refused_in_one_line(tmp_path: Path) -> None:
    child = spawn(tmp_path, ["play", "--lang", "es"], {})
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "--lang is one of en, fr, de, da, not 'es'" in (child.before or "")


@pytest.mark.parametrize("lang, cannot", [("fr", "Vous ne pouvez pas"), ("de", "Du kannst"),
                                          ("da", "Du kan ikke")])
def test_a_refused_move_is_explained_in_the_language(lang: str, cannot: str) -> None:
    """Over random deals of every size, every refusal is worded in the language (the
    engine only says what is legal)."""
    style = CardStyle.speaking(lang, symbols=True, colour=False)
    rng = random.Random(lang)
    for players in (2, 3, 4, 5):
        for obs, action in refusals(rng, players, deals=3, per_turn=4):
            text = why_illegal(obs, action, lang, style)
            assert text.startswith(cannot), text
            left = words(text) & english_words(lang)
            assert not left, (text, left)


def test_the_left_bower_note_in_german() -> None:
    deal = Deal.from_cards(Rules(players=4), dealer=0, turnup="TH",
                           hands=["9C TC JC QC KC", "AD KD AH KH QH", "QD 9D 9S TS QS",
                                  "AC TD JD JS KS"])
    for action in ("order", "discard 9C", "AD", "QD"):
        deal.apply(action)
    assert why_illegal(deal.observation(3), Action.parse("JD"), "de") == (
        "Du kannst JD nicht spielen. Du musst Karo bedienen: du hast TD. JD ist der linke "
        "Bower: er zählt als Herz, nicht als Karo.")


def _record(tmp_path: Path) -> str:
    deal = Deal.from_cards(Rules(players=2), dealer=1, turnup="9H",
                           hands=["TC KS 9D AS QD", "AC 9S TS JH 9C"])
    for a in ("pass", "order", "discard 9H", "TC", "AC", "9S", "KS", "9D", "TS", "AS",
              "9C", "QD", "JH"):
        deal.apply(a)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal.to_record().to_json()), encoding="utf-8")
    return str(path)


def test_analyze_speaks_the_language(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["analyze", _record(tmp_path), "--seat", "1",
                                      "--samples", "4"],
                                env={"COLUMNS": "200", "LANG": "fr_FR.UTF-8"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Décisions de Sud (place 1) face au bot expert" in out
    assert re.search(r"┃ donne ┃ coup ┃ quand +┃ joué +┃ expert +┃ +coût ┃", out)
    # the move in French words (issue 30)
    assert re.search(r"│ +1 │ +2 │ enchères, premier tour +│ commande +│ pareil +│ +0,00 │", out)
    assert "6 décisions · coût attendu" in out
    assert not words(out) & english_words("fr")


def test_replay_summary_speaks_the_language(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["--lang", "da", "replay", "--summary",
                                      _record(tmp_path)], env={"LANG": "de_DE.UTF-8"})
    assert result.exit_code == 0, result.output
    line = result.stdout.strip()
    assert line == ("Runde 1 · Nord giver: Nord gør hjerter til trumf; Bet! Syd får 2; "
                    "stik Syd 3 · Nord 2")
    assert not words(line) & english_words("da")


@pytest.mark.parametrize("argv, env, said, framed", [
    (["play", "--help"], {"LANG": "de_DE.UTF-8"}, "Eine Partie Euchre im Terminal",
     ["Aufruf: euchre play [OPTIONEN]", "Optionen:", "[Standard: 4]",
      "-h, --help Diese Hilfe zeigen und beenden."]),
    (["--lang", "fr", "replay", "--help"], {"LANG": "de_DE.UTF-8"},
     "Rejouer des enregistrements", ["Utilisation\u202f: euchre replay", "Options:"]),
    (["analyze", "--lang", "da", "--help"], {"LC_ALL": "fr_FR.UTF-8"},
     "Gennemgå en plads' beslutninger", ["Brug: euchre analyze [TILVALG]", "Tilvalg:"]),
    (["play", "--lang", "fr", "--help"], {"LANG": "C.UTF-8"}, "Jouer une partie",
     ["[par défaut\u202f: 4]", "Afficher cette aide et quitter."]),
    (["play", "--help"], {"LANG": "C.UTF-8"}, "Play a game of euchre in the terminal",
     ["Usage: euchre play [OPTIONS]", "Options:", "[default: 4]",
      "Show this message and exit."]),
])
def test_help_speaks_the_language(argv: list[str], env: dict[str, str], said: str,
                                  framed: list[str], monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` in the language chosen before the command is built: ``--lang`` wherever
    it stands, else the environment; typer's and click's words around it ("Usage:",
    "Options:", "[default: 4]", "Show this message and exit.") too."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "argv", ["euchre", *argv])
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert said in out
    flowing = " ".join(out.split())  # the help wraps where the terminal's width says
    for words_around in framed:
        assert " ".join(words_around.split()) in flowing, (words_around, out)


LOCALES = {"en": "C.UTF-8", "fr": "fr_FR.UTF-8", "de": "de_DE.UTF-8", "da": "da_DK.UTF-8"}


def _help(argv: list[str], lang: str, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> str:
    """``euchre ARGV`` (a help) as the console script prints it under ``LANG``."""
    monkeypatch.setenv("LANG", LOCALES[lang])
    monkeypatch.delenv("LANGUAGE", raising=False)  # set by an earlier help, for typer
    monkeypatch.setattr(sys, "argv", ["euchre", *argv])
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 0
    return capsys.readouterr().out


def _listed(text: str) -> dict[str, str]:
    """The summaries of a help's list of commands, by command."""
    section = text.split("\n\n")[-1].splitlines()[1:]
    return dict(line.split(None, 1) for line in section if line.strip())


TYPER_ENGLISH = ("Usage:", "[OPTIONS]", "COMMAND [ARGS]", "Show this message and exit.",
                 "Print the version", "Commands:")
"""What typer and click would print in English around our help."""


@pytest.mark.parametrize("lang, usage", [("de", "Aufruf: euchre [OPTIONEN] BEFEHL"),
                                         ("fr", "Utilisation\u202f: euchre [OPTIONS] COMMANDE"),
                                         ("da", "Brug: euchre [TILVALG] KOMMANDO")])
def test_the_command_list_has_no_english_left(lang: str, usage: str,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``LANG=de_DE.UTF-8 euchre --help``: the usage line, the options and every command's
    summary in the language (issue 22, item 10), none left as the English says it."""
    english = _listed(_help(["--help"], "en", monkeypatch, capsys))
    out = _help(["--help"], lang, monkeypatch, capsys)
    assert out.startswith(usage), out
    same = {"fr": {"[OPTIONS]"}}.get(lang, set())  # French says "options" too
    assert [w for w in TYPER_ENGLISH if w in out and w not in same] == [], out
    listed = _listed(out)
    assert listed.keys() == english.keys()
    assert [c for c in listed if listed[c] == english[c]] == [], out


def _summaries(lang: str) -> dict[str, str]:
    """Every command's summary (the first paragraph of its help), by its path."""
    found: dict[str, str] = {}
    stack: list[tuple[str, Any]] = [("euchre", command_in(lang))]
    while stack:
        path, command = stack.pop()
        found[path] = (command.help or "").split("\n\n")[0]
        stack.extend((f"{path} {name}", sub) for name, sub
                     in getattr(command, "commands", {}).items())
    return found


@pytest.mark.parametrize("lang", ["fr", "de", "da"])
def test_every_command_summary_is_translated(lang: str) -> None:
    """Down to ``euchre bench bot`` and ``euchre train fit``: each command says what it
    does in the language, in its own help and in its group's list."""
    english = _summaries("en")
    said = _summaries(lang)
    assert said.keys() == english.keys()
    assert [path for path in said if said[path] == english[path]] == []
