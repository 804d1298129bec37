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
from typing import Annotated, Any, Final

import typer

from euchre import __version__
from euchre.cli.analyze import ANALYZE_HELP, analyze_command
from euchre.cli.bench import bench_app
from euchre.cli.lang import N_, LangOption, _, lend_words, use
from euchre.cli.night import night_app
from euchre.cli.options import HELP_TEMPLATES
from euchre.cli.play import PLAY_HELP, play
from euchre.cli.puzzle import puzzle_app
from euchre.cli.replay import REPLAY_HELP, replay_command
from euchre.cli.rules import RULES_HELP, rules_command
from euchre.cli.selfplay import selfplay_command
from euchre.cli.serve import serve_command
from euchre.cli.simulate import simulate
from euchre.cli.solve import solve_command
from euchre.cli.tournament import tournament
from euchre.cli.train import train_app
from euchre.i18n import LANGUAGES

__all__ = ["SUMMARIES", "app", "command_in", "lang_of_argv", "main"]

app = typer.Typer(
    name="euchre",
    help=N_("Euchre for two to five players: play in the terminal against bots, let bots "
            "play each other, replay recorded deals and games, review a game against the "
            "expert bot."),
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
app.add_typer(night_app, name="night")
app.add_typer(puzzle_app, name="puzzle")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"euchre {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help=N_("Print the version and exit."))] = False,
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


SUMMARIES: Final = (
    N_("Let bots play whole games and summarise wins, points and speed."),
    N_("Play bots against each other over many deals and rank them."),
    N_("Serve euchre in the browser: tables against bots or friends, saved and resumable."),
    N_("Let bots play deals and write every decision as training data (Parquet)."),
    N_("Solve a deal with every hand open: the tricks the mover's side takes with each "
       "card."),
    N_("Time the open-hand solver, a bot's decisions, or the compiled rules core."),
    N_("Solve full four-handed deals from the first lead; median and p99 in µs."),
    N_("Time a bot's decisions over deals of every variant; median and p99 in ms."),
    N_("Random self-play deals per second of the compiled rules core, on one core."),
    N_("Train the bots' learned models: `prebid` plays deals, records the expert's pre-play "
       "decisions played out to the end and fits its correction; `fit` fits it again from "
       "saved rows; `net` trains the net bot's policy and value on self-play data; `cfr` "
       "learns the bidding by counterfactual regret. See docs/training.md."),
    N_("Learn the bidding by counterfactual regret, and write its average strategy."),
    N_("Record the pimc bot's pre-play decisions played out to the end, and fit the "
       "expert's correction of its values."),
    N_("Fit the pre-play correction again from saved rows and write the model."),
    N_("Train the net: a learned policy and value of play, from self-play decisions."),
    N_("Make puzzles: the expert plays deals against itself and keeps the positions where "
       "one action beats every other by 0.3 points and the basic bot chooses another."),
)
"""The first paragraph of the help of each command whose help is its docstring, the
summary ``euchre --help`` lists: marked here for translation (the rest of those
commands' help, written for developers, stays English)."""


def _translate(text: str | None) -> str | None:
    """A help text in the current language: whole when the catalog has it, else
    paragraph by paragraph (a docstring's summary, :data:`SUMMARIES`)."""
    if not text:
        return text
    template, fields = HELP_TEMPLATES.get(text, (text, {}))
    if fields:
        return _(template).format(**fields)
    whole = _(template)
    if whole != template:
        return whole
    return "\n\n".join(_paragraph(part) for part in template.split("\n\n"))


def _paragraph(text: str) -> str:
    """One paragraph of a help text in the current language, if the catalog has it
    (looked up with its lines joined, as a docstring wraps them)."""
    flowing = " ".join(text.split())
    said = _(flowing)
    return said if said != flowing else text


def _speaking(context_class: type[Any]) -> type[Any]:
    """A subclass of click's ``Context`` whose help begins with "Usage:" in the current
    language (click's own formatter writes it in English)."""
    formatter_class = context_class.formatter_class

    def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        formatter_class.write_usage(self, prog, args,
                                    _("Usage:") + " " if prefix is None else prefix)

    formatter = type("Formatter", (formatter_class,), {"write_usage": write_usage})
    return type("Context", (context_class,), {"formatter_class": formatter})


def command_in(lang: str | None = None) -> Callable[..., Any]:
    """The ``euchre`` command with its help (``--help``) in ``lang`` (default: the
    environment's language): the commands' and options' own words, and click's and
    typer's around them ("Usage:", "Options", "[default: 4]", "Show this message and
    exit.": :data:`~euchre.cli.lang.LIBRARY_WORDS`)."""
    use(lang)
    lend_words()
    command = typer.main.get_command(app)
    # click's classes, whichever click typer brings (its own, in recent versions)
    stack: list[tuple[Any, Any]] = [(command, None)]
    while stack:
        cmd, parent = stack.pop()
        cmd.help = _translate(cmd.help)
        for param in cmd.params:
            if hasattr(param, "help"):
                param.help = _translate(param.help)
        if cmd.options_metavar == "[OPTIONS]":
            cmd.options_metavar = _("[OPTIONS]")
        if getattr(cmd, "subcommand_metavar", None) == "COMMAND [ARGS]...":
            cmd.subcommand_metavar = _("COMMAND [ARGS]...")
        cmd.context_class = _speaking(type(cmd).context_class)
        context = cmd.context_class(cmd, parent=parent, info_name=cmd.name,
                                    **cmd.context_settings)
        help_option = cmd.get_help_option(context)  # made once, and kept, by the command
        if help_option is not None:
            help_option.help = _("Show this message and exit.")
        stack.extend((sub, context) for sub in getattr(cmd, "commands", {}).values())
    return command


def main() -> None:
    """The console script's entry point: the language is chosen first (``--lang``, else
    the environment), so that ``--help`` speaks it too."""
    command_in(lang_of_argv(sys.argv[1:]))(prog_name="euchre")
