"""The ``euchre`` command: play in the terminal, simulate bot games, replay and analyze
records.

A thin adapter over the engine: every rule comes from :mod:`euchre`; this package only
reads options and answers, and prints.  The app and its subcommands
(:mod:`euchre.cli.commands`) load on first use, so that a module of one command
(``euchre.cli.serve``, which ``python -m euchre.server`` runs) imports only what it needs.

>>> from euchre.cli import main
>>> main.__module__
'euchre.cli.commands'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from euchre.cli.commands import SUMMARIES, app, command_in, lang_of_argv, main

__all__ = ["SUMMARIES", "app", "command_in", "lang_of_argv", "main"]


def __getattr__(name: str) -> Any:
    """The app's names (``app``, ``main``, …), from :mod:`euchre.cli.commands` at first use."""
    if name in __all__:
        from euchre.cli import commands

        return getattr(commands, name)
    raise AttributeError(f"module 'euchre.cli' has no attribute {name!r}")
