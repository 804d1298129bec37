"""What the commands share: the rule options (docs/rules.md), the bots at the table, errors.

Every rule option defaults to ``None``: an option the user does not give is left out of
``Rules(...)``, so it takes the variant's default (docs/rules.md), not one the CLI invents.
A rules set the engine refuses is told in the command line's words, naming the flags:

>>> build_rules(4, deck=None, joker=True, target=5)
Rules(players=4, joker=True, target=5)
>>> option_words(RulesError("five hands need 26 cards (5 × 5 + the turn-up) but the pack "
...                         "has 24 (RULES §1); use deck=28 or deck=32"))
'five hands need 26 cards (5 × 5 + the turn-up) but the pack has 24; use --deck 28 or --deck 32'
>>> bot_names('basic', 3)
['basic', 'basic', 'basic']
"""

from __future__ import annotations

import functools
import inspect
import random
import re
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Annotated, Any, Final, NoReturn

import typer

from euchre.bots import BOTS, Bot, check_rules, make_bot, normal_name
from euchre.cli.lang import N_
from euchre.records import RecordError, bounded_lines, length_words, read_records
from euchre.rules import OPTIONS, RuleOption, Rules, RulesError, option

__all__ = [
    "HELP_TEMPLATES",
    "BotsOption",
    "PlayersOption",
    "RulesGiven",
    "SeedOption",
    "bot_names",
    "build_rules",
    "fail",
    "input_lines",
    "input_records",
    "make_bots",
    "option_words",
    "read_input",
    "rules_options",
]

_BOTS_HELP = N_("Bots: one name for every bot seat or one per seat, comma-separated. "
                "Known: {known}.")

HELP_TEMPLATES: Final = {_BOTS_HELP.format(known=", ".join(BOTS)): (_BOTS_HELP,
                                                                    {"known": ", ".join(BOTS)})}
"""An option's help that has a value filled in, by its English text: the message to look
up and the values (``euchre --help`` in the player's language)."""

_RULES = "Rules (unset: the variant's default; the rules in words: docs/rules.md)"


def _rule_option(o: RuleOption, names: Sequence[str] = ()) -> Any:
    """The typer parameter of one option of the rules' table (:data:`euchre.rules.OPTIONS`):
    ``None`` when not given, so that the variant's default holds (the players: 4)."""
    decls = [f"{o.flag}/--no-{o.flag[2:]}" if o.negatable else o.flag]
    decls += [o.short] if o.short else []
    decls += list(names)
    kind: Any = o.type if o.name == "players" else o.type | None
    return Annotated[kind, typer.Option(*decls, metavar=o.metavar, rich_help_panel=_RULES,
                                        show_default=o.name == "players", help=o.help)]


PlayersOption = _rule_option(option("players"))
"""``--players``, for a command that takes the variant alone (``euchre rules``)."""


@dataclass(frozen=True, slots=True)
class RulesGiven:
    """The rules options a command was given: the players, and only the options given
    (the others take the variant's defaults)."""

    players: int
    options: dict[str, Any]

    def build(self) -> Rules:
        """The rules; a set the engine refuses exits 2 with one line naming the flags."""
        return build_rules(self.players, **self.options)


def rules_options(not_here: dict[str, str] | None = None,
                  names: dict[str, Sequence[str]] | None = None
                  ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A command with every option of the rules' table, handed to it as one
    :class:`RulesGiven` in its parameter ``rules_given``.

    ``not_here``: the options the command cannot apply, each with the reason, said in one
    line (exit 2) when one is given; ``names``: other names of a flag (``-p``).
    """
    refused = not_here or {}

    def wrap(command: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(command, eval_str=True)
        params: list[inspect.Parameter] = []
        for p in signature.parameters.values():
            if p.name != "rules_given":
                params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY))
                continue
            params += [inspect.Parameter(
                o.name, inspect.Parameter.KEYWORD_ONLY,
                default=4 if o.name == "players" else None,
                annotation=_rule_option(o, (names or {}).get(o.name, ())))
                for o in OPTIONS]

        @functools.wraps(command)
        def run(**kwargs: Any) -> Any:
            players = kwargs.pop("players")
            given = {o.name: kwargs.pop(o.name) for o in OPTIONS[1:]}
            for name, why in refused.items():
                if given.get(name) is not None:
                    fail(f"{option(name).flag} does not apply here: {why}")
            options = {k: v for k, v in given.items() if v is not None}
            return command(**kwargs, rules_given=RulesGiven(players, options))

        run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in params}
        return run

    return wrap


SeedOption = Annotated[int | None, typer.Option(
    "--seed", metavar="S", show_default=False,
    help=N_("Seed for the shuffle and the bots: the same seed plays the same game. "
         "Default: a fresh random seed, shown so the game can be replayed."))]
BotsOption = Annotated[str, typer.Option(
    "--bots", metavar="NAME[,NAME...]",
    help=_BOTS_HELP.format(known=", ".join(BOTS)))]


def show_progress(json_out: bool) -> bool:
    """Whether to draw a progress bar on standard error: always for the table output,
    and with ``--json`` too when standard error is a terminal (standard output keeps
    only the JSON)."""
    return not json_out or sys.stderr.isatty()


def command_name(argv0: str | None = None) -> str:
    """How the person can run ``euchre`` again from this shell: ``euchre`` when that
    name finds this very program on the ``PATH``, else the path it was started by
    (``.venv/bin/euchre`` after ``make play``, the virtual environment not activated).

    >>> command_name("/nowhere/bin/euchre")
    '/nowhere/bin/euchre'
    """
    import os
    import shutil

    started = argv0 if argv0 is not None else sys.argv[0]
    if os.path.basename(started) not in ("euchre", "euchre.exe"):
        return "euchre"  # python -m euchre, a test harness: the documented name
    found = shutil.which("euchre")
    if found is not None and os.path.realpath(found) == os.path.realpath(started):
        return "euchre"
    path = os.path.abspath(started)
    here = os.getcwd() + os.sep
    return os.path.relpath(path) if path.startswith(here) else path


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line on standard error and exit with ``code`` (2: bad usage)."""
    typer.echo(f"euchre: {' '.join(message.split())}", err=True)
    raise typer.Exit(code)


_FLAGS: Final = {o.name: o.flag for o in OPTIONS}
"""Each option of ``Rules`` and the flag that sets it."""

_PLAYERS: Final = {2: "two", 3: "three", 4: "four", 5: "five"}


def option_words(error: RulesError, players: int | None = None,
                 given: dict[str, Any] | None = None) -> str:
    """The engine's refusal of a rules set, as a command-line user reads it: the flags
    (``--deck 28``, not ``deck=28``), no section numbers of the specification."""
    given = given or {}
    text = re.sub(r"\s*\(RULES §[\d, §-]+\)", "", str(error))
    text = re.sub(r"\b(\w+)=(\S+?)(?=[\s,;)]|$)",
                  lambda m: f"{_FLAGS.get(m[1], m[1])} {m[2]}", text)
    if players is not None and players not in _PLAYERS:
        return f"--players is 2, 3, 4 or 5, not {players}"
    if text.startswith("the target must"):
        return f"--to is the points that win the game: 1 or more, not {given.get('target')}"
    if text.startswith("joker_turnup is"):
        return ("--joker-turnup is dealer_names (the dealer names trump) or suit:S with S "
                f"one of C D H S, not {given.get('joker_turnup')!r}")
    if text.startswith("the pack has"):
        return f"--deck is 24, 28 or 32 (cards in the pack), not {given.get('deck')}"
    if text.startswith("defending alone is not played") and players is not None:
        return (f"--defend-alone is played three- and four-handed only, not "
                f"{_PLAYERS[players]}-handed")
    if text.startswith("the draw belong") and players is not None:
        return f"--draw is for four-handed euchre only, not {_PLAYERS[players]}-handed"
    return text


def build_rules(players: int, **given: Any) -> Rules:
    """``Rules(players=..., **only the options given)``; a bad set exits 2 with one line
    that names the flags.

    ``target`` is the ``--to`` option; options that are ``None`` were not given.
    """
    options = {name: value for name, value in given.items() if value is not None}
    for o in OPTIONS[1:]:  # the bound a person may ask for (the engine's is wider)
        value = options.get(o.name)
        if o.high is not None and isinstance(value, int) and value > o.high:
            fail(f"{o.flag} is at most {o.high}, not {value}")
    try:
        return Rules(players=players, **options)
    except RulesError as e:
        fail(option_words(e, players, options))


def read_input(file: str, limit: int, advice: str = "") -> str:
    """The text of ``file`` (``-``: standard input), at most ``limit`` characters; exits
    1 with one line if it is unreadable or longer (``advice`` ends that line), so that
    ``/dev/zero`` or a pipe that never ends is read no further than the limit."""
    try:
        if file == "-":
            text = sys.stdin.read(limit + 1)
        else:
            with open(file, encoding="utf-8") as f:
                text = f.read(limit + 1)
    except OSError as e:
        fail(f"cannot read {file}: {e.strerror}", 1)
    except UnicodeDecodeError:
        fail(f"{file} is not a text file", 1)
    if len(text) > limit:
        fail(f"{file} is longer than {length_words(limit)}{advice}", 1)
    return text


def input_lines(file: str) -> Generator[str, None, None]:
    """The lines of ``file`` (``-``: standard input), read one at a time as they are asked
    for, so a long file is never held whole, and each at most
    :data:`~euchre.records.MAX_DOCUMENT_TEXT` long (:func:`~euchre.records.bounded_lines`);
    exits 1 with one line if it is unreadable."""
    try:
        with open(file, encoding="utf-8") if file != "-" else nullcontext(sys.stdin) as f:
            yield from bounded_lines(f)
    except OSError as e:
        fail(f"cannot read {file}: {e.strerror}", 1)
    except UnicodeDecodeError:
        fail(f"{file} is not a text file", 1)


def input_records(file: str) -> Iterator[dict[str, Any]]:
    """The records of ``file`` (``-``: standard input) as they are read, one at a time
    (:func:`~euchre.records.read_records`); a fault in the file (not JSON, a record too
    long…) exits 1 with one line naming the file once the records before it are used."""
    lines = input_lines(file)
    try:
        yield from read_records(lines)
    except RecordError as e:
        fail(f"{file}: {e}", 1)
    finally:
        lines.close()  # the file is closed now, not when the error's traceback goes


def bot_names(text: str, seats: int, what: str = "seat") -> list[str]:
    """The bot name for each of ``seats`` seats: one name for all, or one per seat.

    An unknown name or a wrong count exits 2 with one line.
    """
    names = [normal_name(name) for name in text.split(",")]
    for name in names:
        base = name.partition(":")[0]
        if base not in BOTS and base not in ("ismcts", "policy"):
            fail(f"unknown bot {name!r} in --bots; bots: {', '.join(BOTS)}, policy:PATH")
        if base not in BOTS or base != name:  # OpenSpiel missing, or options to check
            try:
                make_bot(name, 0)
            except (ImportError, ValueError) as e:
                fail(f"{e} (in --bots)")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        fail(f"--bots takes one name, or {seats} (one per bot {what}), not {len(names)}")
    return names


def make_bots(names: Sequence[str], seed: int | None, rules: Rules | None = None) -> list[Bot]:
    """One bot per name, each seeded from ``seed`` and its place (or at random).

    With ``rules``, a bot that cannot play them exits 2 with one line.
    """
    bots = [
        make_bot(name, None if seed is None else random.Random(f"{seed}/bot/{k}"))
        for k, name in enumerate(names)
    ]
    if rules is not None:
        for bot in bots:
            try:
                check_rules(bot, rules)
            except ValueError as e:
                fail(f"{e} (in --bots)")
    return bots
