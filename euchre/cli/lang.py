"""The terminal's language: chosen once per command, from ``--lang`` or the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English when neither names one
euchre speaks.

Every word the terminal shows goes through :func:`_` (or :func:`ngettext` when it counts
something); the English message is the key, and a catalog without it leaves it English.
Placeholders are named (``{who}``) and filled after the lookup, so a translation may put
them in its own order.  :func:`N_` only marks a message for extraction, where it is
defined before the language is known.  The words the terminal shares with the web (the
suits, the moves, why a move is refused, each language's card letters) are
:mod:`euchre.wording`'s, which takes the language as an argument: the terminal passes it
:func:`current`.

>>> use("de")
'de'
>>> _("Game over"), ngettext("{n} point", "{n} points", 3).format(n=3)
('Spielende', '3 Punkte')
>>> use("en")
'en'
>>> _("Game over")
'Game over'
"""

from __future__ import annotations

import gettext
import os
from typing import Annotated, Final

import typer

from euchre.i18n import LANGUAGES, LOCALE_DIR, from_environment, negotiate, translation

__all__ = ["LIBRARY_WORDS", "N_", "LangOption", "_", "current", "lend_words", "ngettext",
           "pgettext", "use"]

_state: dict[str, str] = {"lang": "en"}


def N_(message: str) -> str:
    """Marks ``message`` for translation where it is defined; :func:`_` translates it.

    >>> SOUTH = N_("South")  # extracted into the catalogs, still English here
    >>> SOUTH, use("fr"), _(SOUTH), use("en")
    ('South', 'fr', 'Sud', 'en')
    """
    return message


LIBRARY_WORDS: Final = (N_("Options"), N_("Arguments"), N_("Commands"),
                        N_("default: {default}"), N_("required"), N_("Aborted!"),
                        N_("Usage:"), N_("Show this message and exit."), N_("[OPTIONS]"),
                        N_("COMMAND [ARGS]..."))
"""Words typer and click print around our help ("Usage:", "Options", "[default: 4]"),
looked up in the program's gettext domain (the standard library's global one):
:func:`lend_words` points that domain at our catalog.  Where typer's own click writes
them without gettext ("Usage:", "Show this message and exit.", "[OPTIONS]"),
``euchre.cli.command_in`` puts them in from our catalog."""


def lend_words() -> None:
    """Let the libraries that ask the standard library's global gettext domain (typer,
    for :data:`LIBRARY_WORDS`) find their words in our catalog, in the current language.

    That lookup takes the language from the environment, so this sets ``LANGUAGE`` for
    this process (and the processes it starts) to the language chosen."""
    os.environ["LANGUAGE"] = current()
    gettext.bindtextdomain("euchre", str(LOCALE_DIR))
    gettext.textdomain("euchre")


LangOption = Annotated[str | None, typer.Option(
    "--lang", metavar="en|fr|de|da", show_default=False,
    help=N_("The language of the game: en, fr, de or da. Default: from the environment "
         "(LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."))]


def use(lang: str | None = None) -> str:
    """Speak ``lang`` from now on (``None``: the environment's language); returns it.

    A language euchre does not speak exits 2 with one line, naming those it does.
    A locale name or another case is read as its language:

    >>> use("FR"), use("fr_CA.UTF-8"), current(), use("en")
    ('fr', 'fr', 'fr', 'en')
    """
    if lang is None:
        chosen = from_environment()
    else:
        chosen = negotiate([lang])
        if chosen == "en" and not lang.lower().startswith(("en", "c", "posix")):
            typer.echo(f"euchre: --lang is one of {', '.join(LANGUAGES)}, not {lang!r}",
                       err=True)
            raise typer.Exit(2)
    _state["lang"] = chosen
    return chosen


def current() -> str:
    """The language spoken now.

    >>> use("da"), current(), use("en"), current()
    ('da', 'da', 'en', 'en')
    """
    return _state["lang"]


def _(message: str) -> str:
    """``message`` in the current language."""
    return translation(_state["lang"]).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the current language.

    >>> use("de"), ngettext("{n} point", "{n} points", 2).format(n=2), use("en")
    ('de', '2 Punkte', 'en')
    """
    return translation(_state["lang"]).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from its homonyms by ``context``.

    German declines "the left bower" after "with"; the context asks for that form:

    >>> use("de"), pgettext("after with", "the left bower"), _("the left bower"), use("en")
    ('de', 'dem linken Bower', 'der linke Bower', 'en')
    """
    return translation(_state["lang"]).pgettext(context, message)

