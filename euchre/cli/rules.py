"""``euchre rules``: the rules in words, in the terminal, for whoever installed euchre.

The text is the players' page that the web server shows at ``/rules`` and that the package
ships (``euchre/server/help/help.md`` and its translations): its part on the game, which
every variant shares, then the part on the variant of ``--players``.  Its first part, on
playing at the web site, is left out.  The file is read where it lies, without loading the
web server.

>>> text = rules_text("en", 5)
>>> text.splitlines()[0], "## Five-handed euchre with a secret partner" in text
('## The game', True)
>>> "## How to play at this site" in text, "## Two-handed euchre" in text
(False, False)
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from rich.console import Console

from euchre.cli.lang import N_, LangOption, current, use
from euchre.cli.options import PlayersOption, fail

__all__ = ["RULES_HELP", "rules_command", "rules_hint", "rules_text"]

HELP_FOLDER: Final = Path(__file__).resolve().parents[1] / "server" / "help"
"""Where the package keeps the players' page (package data of ``euchre.server``)."""

RULES_HELP = N_(
    "Print the rules of euchre in words: what every variant shares, then the variant "
    "of --players. The same page as the web server's rules, in the player's language.")
"""The command's help (``--help``), in English; ``euchre`` shows it in the player's
language."""


def _sections(text: str) -> list[str]:
    """The page cut at its second-level headings (``## ``); the part before the first
    one comes first."""
    sections: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append([])
        sections[-1].append(line)
    return ["\n".join(lines).strip() for lines in sections]


def rules_text(lang: str, players: int) -> str:
    """The Markdown of the shared rules and of the variant for ``players``, in ``lang``
    (English where the page is not translated).

    The translated pages keep the English page's headings in the same order (the web
    server's rules page relies on it too): the game, then two to five players.
    """
    name = "help.md" if lang == "en" else f"help.{lang}.md"
    path = HELP_FOLDER / name
    if not path.is_file():
        path = HELP_FOLDER / "help.md"
    sections = _sections(path.read_text(encoding="utf-8"))
    # [0] the title, [1] playing at the site, [2] the game, [3..6] two to five players
    return f"{sections[2]}\n\n{sections[players + 1]}\n"


def rules_hint(players: int) -> str:
    """The command that shows the rules of this game, as a player types it.

    >>> use("de")
    'de'
    >>> rules_hint(5)
    'euchre rules --players 5 --lang de'
    >>> _ = use("en")
    """
    lang = current()
    return f"euchre rules --players {players}" + ("" if lang == "en" else f" --lang {lang}")


def rules_command(players: PlayersOption = 4, lang: LangOption = None) -> None:
    """Print the rules (what it says: :data:`RULES_HELP`)."""
    if lang is not None:
        use(lang)
    if not 2 <= players <= 5:
        fail(f"--players is 2, 3, 4 or 5, not {players}")
    try:
        text = rules_text(current(), players)
    except OSError as e:
        fail(f"the rules page is not installed: {e.strerror} ({HELP_FOLDER})", 1)
    from rich.markdown import Markdown  # markdown-it: only this command reads Markdown

    Console(highlight=False).print(Markdown(text))
