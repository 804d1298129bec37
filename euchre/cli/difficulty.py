"""The bots' level as players know it: plain names (Beginner, Casual, Intuitive, Good,
Expert), the menu that ``euchre play`` shows at a terminal when no ``--bots`` is given,
and the level remembered between games.

The plain names and lines are the web's (``euchre/server/static/bots.js``): a level is
named by its bot (``basic``), and shown by its plain name in the player's language.

The remembered level lives in ``settings.json`` in the user's configuration folder, by
each platform's convention (as :func:`euchre.server.storage.default_db_path` follows
them for the data folder): ``$XDG_CONFIG_HOME/euchre`` (else ``~/.config/euchre``) on
Linux, ``~/Library/Application Support/euchre`` on macOS, ``%APPDATA%\\euchre`` on
Windows.  A file that cannot be read, or does not hold a level, is ignored; one that
cannot be written is left as it is: remembering is a convenience, never an error.

>>> level_name("basic"), level_name("expert:64")
('Casual', 'expert:64')
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from euchre import Rules
from euchre.bots import levels_for
from euchre.cli.lang import N_, _
from euchre.cli.prompt import Prompter, shorten
from euchre.cli.save import write_atomically

__all__ = ["DEFAULT_LEVEL", "LEVELS", "choose_level", "level_name", "remember_level",
           "remember_setting", "remembered_level", "setting", "settings_path"]

DEFAULT_LEVEL: Final = "basic"
"""The level off a terminal, and the menu's default before any choice: Casual."""

LEVELS: Final = {
    "random": (N_("Beginner"), N_("Makes any legal move, at random")),
    "basic": (N_("Casual"), N_("Follows simple rules of thumb")),
    "net": (N_("Intuitive"),
            N_("Plays at a glance, by a feel learned from thousands of the expert's deals")),
    "intermediate": (N_("Good"), N_("Looks ahead over a few guesses at the hidden cards")),
    "expert": (N_("Expert"),
               N_("Thinks through where the hidden cards may be, from every bid and play")),
}
"""Each level's bot (:data:`euchre.bots.LEVELS`), plain name and one line on how it plays,
weakest first (in English; :func:`_` words them)."""


def level_name(bot: str) -> str:
    """The plain name of a bot's level in the current language (``Casual`` for
    ``basic``); any other bot keeps its own name."""
    words = LEVELS.get(bot)
    return _(words[0]) if words is not None else bot


def settings_path() -> Path:
    """``settings.json`` in the user's configuration folder (see the module)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "euchre" / "settings.json"


def _settings() -> dict[str, object]:
    """The settings file's object; ``{}`` when it is missing, unreadable or damaged."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, RuntimeError):
        return {}
    return data if isinstance(data, dict) else {}


def setting(key: str) -> object:
    """One setting as kept (``None`` when it is not), for the commands that keep their own
    (``euchre puzzle`` its ratings)."""
    return _settings().get(key)


def remember_setting(key: str, value: object) -> None:
    """Keep one setting (JSON) for next time; the others are kept.  A folder that cannot
    be made or a file that cannot be written leaves things as they were."""
    settings = _settings()
    if settings.get(key) == value:
        return
    settings[key] = value
    path = settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(settings) + "\n")
    except (OSError, RuntimeError):
        pass


def remembered_level() -> str | None:
    """The level chosen last time, if one is remembered."""
    level = _settings().get("level")
    return level if isinstance(level, str) and level in LEVELS else None


def remember_level(level: str) -> None:
    """Remember ``level`` for the next game; the other settings are kept.  A folder that
    cannot be made or a file that cannot be written leaves things as they were."""
    remember_setting("level", level)


def _fold(word: str) -> str:
    """A word without case or accents: ``Débutant`` is ``debutant``."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.casefold())
                   if not unicodedata.combining(c))


def _level_of(answer: str, levels: list[str]) -> str | None:
    """The level of ``levels`` an answer names: its number in the menu, its plain name (in
    English or the current language) or its bot's name; ``None`` for anything else."""
    if answer.isdecimal() and len(answer) < 4 and 1 <= int(answer) <= len(levels):
        return levels[int(answer) - 1]
    folded = _fold(answer)
    for bot in levels:
        name = LEVELS[bot][0]
        if folded in (bot, _fold(name), _fold(_(name))):
            return bot
    return None


def choose_level(console: Console, prompter: Prompter, default: str,
                 rules: Rules | None = None) -> str:
    """The menu of the levels that play ``rules`` (:func:`euchre.bots.levels_for`; every
    level without rules), asked until the answer names one; Enter keeps ``default``, or
    Casual where ``default`` does not play these rules.

    Raises ``EOFError`` when the input ends and ``KeyboardInterrupt`` for Ctrl-C."""
    levels = levels_for(rules) if rules is not None else list(LEVELS)
    if default not in levels:
        default = DEFAULT_LEVEL
    console.print(_("How well should the bots play?"))
    # a grid: on a narrow terminal each description wraps under itself, not under the
    # numbers; narrower still, it goes under its level's name
    width = max(len(_(LEVELS[bot][0])) for bot in levels)
    beside = console.width - width - 9 >= 24
    menu = Table.grid(padding=(0, 2))
    menu.add_column(justify="right")
    menu.add_column(no_wrap=True)
    if beside:
        menu.add_column()
    for k, bot in enumerate(levels, start=1):
        name, line = LEVELS[bot]
        said = f"[dim]{escape(_(line))}[/]"
        if beside:
            menu.add_row(f"[bold]{k}[/]", escape(_(name)), said)
        else:
            menu.add_row(f"[bold]{k}[/]", escape(_(name)))
            menu.add_row("", said)
    console.print(Padding(menu, (0, 0, 0, 2), expand=False))
    question = _("Level [dim](Enter: {level})[/] › ").format(level=escape(level_name(default)))
    while True:
        answer = prompter.ask(question)
        if not answer:
            return default
        level = _level_of(answer, levels)
        if level is not None:
            return level
        console.print("[red]" + _("{answer} is not a level: type 1 to {n}, or its name").format(
            answer=escape(repr(shorten(answer))), n=len(levels)) + "[/]")
