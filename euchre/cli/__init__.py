"""The ``euchre`` command: play in the terminal, simulate bot games, replay and analyze
records.

A thin adapter over the engine: every rule comes from :mod:`euchre`; this package only
reads options and answers, and prints.

>>> from typer.testing import CliRunner
>>> CliRunner().invoke(app, ['--version']).output
'euchre 0.1.0\\n'
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer

from euchre import __version__
from euchre.cli.analyze import ANALYZE_HELP, analyze_command
from euchre.cli.bench import bench_app
from euchre.cli.lang import LangOption, _, lend_words, use
from euchre.cli.options import HELP_TEMPLATES
from euchre.cli.play import PLAY_HELP, play
from euchre.cli.replay import REPLAY_HELP, replay_command
from euchre.cli.rules import RULES_HELP, rules_command
from euchre.cli.selfplay import selfplay_command
from euchre.cli.serve import serve_command
from euchre.cli.simulate import simulate
from euchre.cli.solve import solve_command
from euchre.cli.tournament import tournament
from euchre.cli.train import train_app
from euchre.i18n import LANGUAGES

__all__ = ["app", "command_in", "lang_of_argv", "main"]

app = typer.Typer(
    name="euchre",
    help="Euchre for two to five players: play in the terminal against bots, let bots "
         "play each other, replay recorded deals and games, review a game against the "
         "expert bot.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.command("play", help=PLAY_HELP)(play)
app.command("simulate")(simulate)
app.command("replay", help=REPLAY_HELP)(replay_command)
app.command("rules", help=RULES_HELP)(rules_command)
app.command("analyze", help=ANALYZE_HELP)(analyze_command)
app.command("tournament")(tournament)
app.command("serve")(serve_command)
app.command("selfplay")(selfplay_command)
app.command("solve")(solve_command)
app.add_typer(bench_app, name="bench")
app.add_typer(train_app, name="train")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"euchre {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False,
    lang: LangOption = None,
) -> None:
    """Euchre for two to five players: play, simulate, replay, analyze."""
    use(lang)


def lang_of_argv(argv: Sequence[str]) -> str | None:
    """The last ``--lang`` of a command line that euchre speaks, if any (the command
    itself reads it again, and refuses one it does not speak).

    >>> lang_of_argv(["--lang", "da", "play", "--lang=fr", "--help"])
    'fr'
    >>> lang_of_argv(["play", "--lang", "es"]) is None, lang_of_argv(["play"]) is None
    (True, True)
    """
    found = None
    for k, arg in enumerate(argv):
        value = (argv[k + 1] if arg == "--lang" and k + 1 < len(argv)
                 else arg.partition("=")[2] if arg.startswith("--lang=") else None)
        if value is not None:
            found = value if value in LANGUAGES else found
    return found


def _translate(text: str | None) -> str | None:
    if not text:
        return text
    template, fields = HELP_TEMPLATES.get(text, (text, {}))
    return _(template).format(**fields) if fields else _(template)


def command_in(lang: str | None = None) -> Callable[..., Any]:
    """The ``euchre`` command with its help (``--help``) in ``lang`` (default: the
    environment's language): the commands' and options' own words, and typer's around
    them (:data:`~euchre.cli.lang.LIBRARY_WORDS`); "Usage:" and "Show this message and
    exit." are written into typer and stay English."""
    use(lang)
    lend_words()
    command = typer.main.get_command(app)
    # click's classes, whichever click typer brings (its own, in recent versions)
    stack: list[Any] = [command]
    while stack:
        cmd = stack.pop()
        cmd.help = _translate(cmd.help)
        for param in cmd.params:
            if hasattr(param, "help"):
                param.help = _translate(param.help)
        stack.extend(getattr(cmd, "commands", {}).values())
    return command


def main() -> None:
    """The console script's entry point: the language is chosen first (``--lang``, else
    the environment), so that ``--help`` speaks it too."""
    command_in(lang_of_argv(sys.argv[1:]))(prog_name="euchre")
