"""The ``euchre`` command: play in the terminal, simulate bot games, replay and analyze
records.

A thin adapter over the engine: every rule comes from :mod:`euchre`; this package only
reads options and answers, and prints.

>>> from typer.testing import CliRunner
>>> CliRunner().invoke(app, ['--version']).output
'euchre 0.1.0\\n'
"""

from __future__ import annotations

from typing import Annotated

import typer

from euchre import __version__
from euchre.cli.analyze import analyze_command
from euchre.cli.bench import bench_app
from euchre.cli.lang import LangOption, use
from euchre.cli.play import play
from euchre.cli.replay import replay_command
from euchre.cli.selfplay import selfplay_command
from euchre.cli.serve import serve_command
from euchre.cli.simulate import simulate
from euchre.cli.solve import solve_command
from euchre.cli.tournament import tournament

__all__ = ["app", "main"]

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
app.command("play")(play)
app.command("simulate")(simulate)
app.command("replay")(replay_command)
app.command("analyze")(analyze_command)
app.command("tournament")(tournament)
app.command("serve")(serve_command)
app.command("selfplay")(selfplay_command)
app.command("solve")(solve_command)
app.add_typer(bench_app, name="bench")


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


def main() -> None:
    """The console script's entry point."""
    app()
