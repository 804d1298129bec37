"""``euchre play``: a person plays a whole game in the terminal against bots.

The :class:`TerminalGame` drives a :class:`~euchre.game.Game`: it asks the bots and the
person for actions, and hands the :class:`~euchre.cli.narrate.Narrator` what each one did (the
:class:`~euchre.deal.Effect` that :meth:`Deal.apply` returns) with the person's
observation after it.  Nothing here decides a rule: legality, turns,
scores and the draw all come from the engine.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from euchre.actions import Action, ActionKind, InvalidActionError
from euchre.bots import Bot, choose
from euchre.cli.analyze import offer_review
from euchre.cli.difficulty import (
    DEFAULT_LEVEL,
    choose_level,
    level_name,
    remember_level,
    remembered_level,
)
from euchre.cli.lang import N_, LangOption, _, current, use
from euchre.cli.narrate import Narrator
from euchre.cli.options import (
    RulesGiven,
    SeedOption,
    bot_names,
    command_name,
    fail,
    make_bots,
    rules_options,
)
from euchre.cli.prompt import (
    Ambiguous,
    Command,
    Prompter,
    QuitGame,
    Stopped,
    choices,
    interpret,
)
from euchre.cli.results import score_words
from euchre.cli.resume import (
    RULE_FLAGS,
    SavedGame,
    bot_seats,
    conflicts,
    load_saved_game,
    players_at,
)
from euchre.cli.rules import rules_hint
from euchre.cli.save import SaveTarget, keep_game, offer_save
from euchre.cli.seats import SeatNames
from euchre.cli.style import CardStyle
from euchre.deal import Deal, Effect, IllegalActionError, Observation
from euchre.game import Game
from euchre.records import game_record
from euchre.rules import Rules
from euchre.wording import card_role, why_illegal

__all__ = ["PLAY_HELP", "Seating", "TerminalGame", "play"]


class TerminalGame:
    """One game played in the terminal: bots at some seats, perhaps a person at one.

    ``view`` is the seat whose observations are shown: the person's, or (watching) the
    seat the spectator looks over.  ``autoplay``: when the person has a single legal
    action, it is said and taken for them after ``forced_pause`` seconds.
    ``replaying``: the actions already taken in the current deal of a resumed game,
    applied and told before anyone is asked.
    """

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        narrator: Narrator,
        prompter: Prompter,
        person: int | None,
        delay: float = 0.0,
        autoplay: bool = True,
        forced_pause: float = 0.0,
        replaying: Sequence[Action] = (),
    ) -> None:
        self.game = game
        self.bots = bots
        self.narrator = narrator
        self.prompter = prompter
        self.person = person
        self.view = narrator.view
        self.delay = delay
        self.autoplay = autoplay
        self.forced_pause = forced_pause
        self._replaying = list(replaying)
        """Actions taken before the game was saved, applied and told again first."""

    def run(self) -> None:
        """Play the game to its end; raises :class:`QuitGame` if the person leaves."""
        game = self.game
        number = len(game.deals)
        while not game.is_over:
            deal = game.deal
            number += 1
            self.narrator.deal_start(deal.observation(self.view), number)
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                again = bool(self._replaying)
                if again:
                    effect = deal.apply(self._replaying.pop(0))
                elif seat == self.person:
                    effect = self._person_acts(deal)
                else:
                    effect = deal.apply(choose(self.bots[seat], deal))
                shown = self.narrator.tell(effect, deal.observation(self.view))
                if seat != self.person and shown and not again:
                    self._pause(self.delay * (2 if effect.trick is not None else 1))
                self._heed_interrupt()
            game.next_deal()
            self.narrator.deal_end(deal.observation(self.view), game.scores,
                                   game.at_the_bridge, game.dealer)
            self._pause(self.delay * 2)
            self._heed_interrupt()
        self.narrator.game_end(game.winners, game.scores, game.rules.target)

    def _heed_interrupt(self) -> None:
        """A Ctrl-C pressed while the bots played is answered between two moves."""
        if self.prompter.interrupted():
            self._new_line()
            self._leave_if_meant()

    def _leave_if_meant(self) -> None:
        """``q`` or Ctrl-C: ask whether to leave; raises :class:`QuitGame` if so (then the
        game is offered for saving), or for a second Ctrl-C at the question (then it
        ends at once, and is saved only to ``--save``)."""
        try:
            leave = self.prompter.confirm(_("Quit this game?"))
        except EOFError:
            leave = True
        except Stopped:
            raise
        except KeyboardInterrupt:
            raise QuitGame(_("interrupted"), 130) from None
        if leave:
            raise QuitGame(_("you left the game"), 0)

    @staticmethod
    def _pause(seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)

    def _hint(self, obs: Observation) -> None:
        """The expert's choice and the value of every legal action, from the person's
        observation only (RULES §12): the expert's opinion, the one ``euchre analyze``
        judges this position by (it draws nothing from the game's random streams)."""
        from euchre.bots.opinion import expert_opinion

        opinion = expert_opinion(obs)
        self.narrator.hint(obs, opinion.best, opinion.values)

    def _ask(self, question: str) -> str:
        try:
            return self.prompter.ask(question)
        except EOFError:
            raise QuitGame(_("the input ended before the game did"), 1) from None

    def _person_acts(self, deal: Deal) -> Effect:
        """Ask until the answer is a legal action the person stands by, then apply it."""
        assert self.person is not None
        obs = deal.observation(self.person)
        legal = obs.legal_actions
        if self.autoplay and len(legal) == 1:
            self.narrator.forced(obs, legal[0])
            self._pause(self.forced_pause)
            return deal.apply(legal[0], seat=self.person)
        self.narrator.turn(obs)
        while True:
            try:
                effect = self._answered(deal, obs)
                if effect is not None:
                    return effect
            except Stopped:
                raise
            except KeyboardInterrupt:
                if not self.prompter.interactive:
                    raise
                self._new_line()
                self._leave_if_meant()

    def _new_line(self) -> None:
        """End the line that Ctrl-C cut (the terminal shows ``^C``), so that the question
        starts on its own."""
        self.narrator.console.print()

    def _answered(self, deal: Deal, obs: Observation) -> Effect | None:
        """Ask once; what the answer did once applied, or ``None`` if it was not a legal
        action the person stands by."""
        answer = self._ask(self.narrator.prompt(obs))
        try:
            choice: Action | Command = interpret(answer, choices(obs), obs.phase)
        except Ambiguous as two:
            meant = self._which(two)
            if meant is None:
                self.narrator.say(self.narrator.choices(obs))
                return None
            choice = meant
        except InvalidActionError as e:
            self.narrator.refuse(escape(str(e)))
            return None
        if choice is Command.HELP:
            self.narrator.help(obs)
            return None
        if choice is Command.HINT:
            self._hint(obs)
            return None
        if choice is Command.QUIT:
            self._leave_if_meant()
            return None
        if choice is Command.NOTHING:
            self.narrator.say(self.narrator.choices(obs))
            return None
        try:
            deal.check(choice, seat=self.person)
        except IllegalActionError:
            self.narrator.refuse(why_illegal(obs, choice, current(), self.narrator.style))
            return None
        if not self._stands_by(obs, choice):
            return None
        return deal.apply(choice, seat=self.person)

    def _which(self, two: Ambiguous) -> Action | None:
        """Ask which reading of an answer was meant (French ``9C``: the nine of hearts or
        of clubs, both legal); ``None`` for anything but one of their numbers."""
        narrator = self.narrator
        narrator.say(_("{text} can be read two ways; which do you mean?").format(
            text=f"[bold]{escape(two.answer)}[/]"), 0)
        for k, action in enumerate(two.readings, 1):
            narrator.say(f"[cyan]{k}[/] {narrator.move(action, named=True)}"
                         + (f"  [dim]{narrator.card_words(action.card)}[/]"
                            if action.card is not None else ""))
        answer = self._ask("[bold]" + _("Which one?") + "[/] › ")
        if answer.isdecimal() and 1 <= int(answer) <= len(two.readings):
            return two.readings[int(answer) - 1]
        return None

    def _stands_by(self, obs: Observation, action: Action) -> bool:
        """Discarding a bower or the joker is asked again: it is rarely meant."""
        card = action.card
        if action.kind is not ActionKind.DISCARD or card is None:
            return True
        role = card_role(card, obs.trump)
        if role is None:
            return True
        named = self.narrator.style.named(card, obs.trump)
        try:
            sure = self.prompter.confirm(_("Discard {card}, one of the best trumps?").format(
                card=named))
        except EOFError:
            raise QuitGame(_("the input ended before the game did"), 1) from None
        if not sure:
            self.narrator.say(_("You keep {card}.").format(card=self.narrator.style.card(card)),
                              0)
            self.narrator.say(self.narrator.choices(obs))
        return sure


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where once the game is set up: the viewer's seat and the bots by seat."""

    view: int
    """The person's seat (watching: the seat looked over)."""
    bots: dict[int, Bot]
    labels: dict[int, str]
    """The bots' names by seat."""

    @classmethod
    def at(cls, game: Game, player: int, bots: dict[int, str], seed: int) -> Seating:
        """Seat ``player`` (the person or the watched one) and the bots, by player number.

        Without the draw player ``p`` sits at seat ``p``; the draw re-seats everyone:
        ``Draw.seats[s]`` is the player at seat ``s`` (RULES §11).
        """
        n = game.rules.players
        player_at = list(game.draw.seats) if game.draw is not None else list(range(n))
        made = dict(zip(bots, make_bots(list(bots.values()), seed, game.rules), strict=True))
        return cls(
            view=player_at.index(player),
            bots={s: made[p] for s, p in enumerate(player_at) if p in made},
            labels={s: bots[p] for s, p in enumerate(player_at) if p in bots},
        )


PLAY_HELP = N_(
    "Play a game of euchre in the terminal against bots.\n\n"
    "At your turn, answer with the number of a listed choice, or type the move: a card "
    "such as JH (jack of hearts; 9C, TD or 10D, QS, KC, AH; JK the joker), pass, order, "
    "order alone, trump H, trump H alone, discard 9C, call AH, defend alone.  In French, "
    "German and Danish the moves and cards may also be typed in the language's own words "
    "and letters (French passe, atout cœur, VC for the jack of hearts).  ? explains the "
    "choices and the letters, h shows the expert's hint (its choice and the value of "
    "every legal move; where trump is named, h is hearts and hint is the hint), q or "
    "Ctrl-C quits, after asking.  The rules: euchre rules.\n\n"
    "A game stopped before its end (Ctrl-C twice, Ctrl-D, the program told to stop) is "
    "saved to --save FILE, or else in euchre's folder of your data directory, and the "
    "screen says how to go on with it (--resume).\n\n"
    "Exit status: 0 when the game ends or you quit, 1 when the input ends first (Ctrl-D), "
    "130 on Ctrl-C at the question whether to quit (or off a terminal), 128 and the "
    "signal's number when the program is told to stop (143 for SIGTERM), 2 for bad "
    "options.")
"""The command's help (``--help``), in English; ``euchre`` shows it in the player's
language."""


@rules_options(not_here={"rubber": "euchre play plays one game; rubbers are played in "
                                    "the browser (euchre serve)"})
def play(
    ctx: typer.Context,
    rules_given: RulesGiven,
    seed: SeedOption = None,
    bots: Annotated[str | None, typer.Option(
        "--bots", metavar="NAME[,NAME...]", show_default=False,
        help=N_("Bots: one name for every bot seat or one per seat, comma-separated: random, "
             "basic, net, intermediate, expert, or another bot of euchre simulate. Default: "
             "at a terminal, a menu of levels (Beginner, Casual, Intuitive, Good, Expert; "
             "the last choice is remembered); else basic."))] = None,
    resume: Annotated[Path | None, typer.Option(
        "--resume", metavar="FILE", show_default=False,
        help=N_("Go on with a game saved before its end: the same rules, deals and bots, "
             "from where it stopped. Options that disagree with the saved game are "
             "refused."))] = None,
    seat: Annotated[int, typer.Option(
        "--seat", metavar="N",
        help=N_("Your seat, 0 to players-1 (with --draw: your place in the draw, "
             "which then seats you)."))] = 0,
    watch: Annotated[bool, typer.Option(
        "--watch", help=N_("Bots at every seat, played at a readable pace; you look over "
                        "the shoulder of --seat."))] = False,
    delay: Annotated[float | None, typer.Option(
        "--delay", metavar="SECONDS", show_default=False,
        help=N_("Pause after each bot action. Default 0.8 with --watch, 0.3 on a terminal, "
             "else 0."))] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE", dir_okay=False, show_default=False,
        help=N_("Write the game record to FILE at the end (also when you quit). An existing "
             "FILE is replaced only if you say so at the end; without a terminal to ask, "
             "the game does not start."))] = None,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help=N_("Replace an existing --save FILE without asking."))] = False,
    symbols: Annotated[bool | None, typer.Option(
        "--symbols/--letters", show_default=False,
        help=N_("Show cards as 10♠ J♥ and the joker as 🃏 instead of TS JH JK. Default: "
             "letters in English, symbols in other languages."))] = None,
    autoplay: Annotated[bool, typer.Option(
        "--autoplay/--no-autoplay",
        help=N_("When you have only one legal move, say so and make it for you after a short "
             "pause."))] = True,
    lang: LangOption = None,
) -> None:
    """Play a game of euchre in the terminal against bots (what it says: :data:`PLAY_HELP`)."""
    if lang is not None:
        use(lang)
    if delay is not None and delay < 0:
        fail(f"--delay is a number of seconds, 0 or more, not {delay}")
    given = _given(ctx)
    players = rules_given.players
    if resume is None:
        rules = rules_given.build()
        if not 0 <= seat < players:
            fail(f"--seat is a seat from 0 to {players - 1}, not {seat}")
    console = Console(highlight=False)
    prompter = Prompter(console)
    target = SaveTarget(console, prompter, overwrite)
    if save is not None:
        refusal = target.refusal(save)
        if refusal is not None:
            fail(refusal)
    seed_given = seed
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    saved = None
    if resume is not None:
        saved, seat = _resumed(str(resume), seed, seed_given, seat, watch, bots, given,
                               console, prompter)
        rules, game, watch = saved.rules, saved.game, saved.person is None
        players = rules.players
        bots_of = {players_at(saved)[s]: saved.bots[s] for s in bot_seats(saved)}
        seed = saved.seed if saved.seed is not None else seed
    else:
        others = [p for p in range(players) if watch or p != seat]
        level = bots if bots is not None else _level(console, prompter, watch, rules)
        bots_of = dict(zip(others, bot_names(level, len(others)), strict=True))
        game = Game(rules, seed)
    seating = Seating.at(game, seat, bots_of, seed)
    names = SeatNames.around(players, seating.view, person=not watch)
    speaking = current()
    if symbols is None:
        symbols = speaking != "en"
    narrator = Narrator(console, names, seating.view,
                        CardStyle.speaking(speaking, symbols))
    if delay is None:
        delay = 0.8 if watch else 0.3 if console.is_terminal else 0.0
    person = None if watch else seating.view
    table = TerminalGame(game, seating.bots, narrator, prompter, person, delay,
                  autoplay=autoplay, forced_pause=3 * delay,
                  replaying=saved.actions if saved is not None else ())
    kept_seed = seed if saved is None else saved.seed  # the seed that deals every deal
    narrator.game_start(rules, kept_seed, seating.labels, game.draw)
    if saved is not None:
        _resuming(narrator, str(resume), saved, seed)
    if not watch:
        narrator.say("[dim]" + _("The rules: {command}. At your turn, ? explains what to "
                                 "type.").format(command=rules_hint(players)) + "[/]", 0)
    with prompter.holding_interrupts():
        status = _run(table, console)
        # the record names seats in English whatever the language: it is read back by
        # --resume, replay and analyze (docs/rules.md, "Saved games"), which find the
        # person as "You"
        seat_names = [f"{names.names[s]} ({seating.labels[s]})" if s in seating.labels
                      else names.names[s]
                      for s in range(players)]
        record = game_record(game, seat_names)
        if kept_seed is not None:
            record = dataclasses.replace(record, seed=kept_seed)
        if status:  # interrupted, input ended or stopped: ask nothing more, lose nothing
            prompter.ended = True
            with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
                keep_game(target, record, save)
        else:
            if game.is_over and person is not None and target.may_ask():
                offer_review(console, prompter, record, person)
            offer_save(target, record, save)
    if prompter.stopped is not None:  # stopped after the game, during the review, say
        status = status or 128 + prompter.stopped
    _activate_hint(console)
    if status:
        raise typer.Exit(status)


def _activate_hint(console: Console) -> None:
    """Started by its path from a virtual environment not activated (``make play``): how
    to type just ``euchre`` next time."""
    started = Path(sys.argv[0])
    activate = started.parent / "activate"
    if command_name() == "euchre" or not activate.is_file():
        return
    with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
        console.print("[dim]" + _("The euchre command is in {folder}: run {command} to type "
                                  "just euchre.").format(
            folder=escape(str(started.parent)),
            command=f"[bold]. {escape(shlex.quote(str(activate)))}[/]") + "[/]",
            soft_wrap=True)


def _given(ctx: typer.Context) -> dict[str, Any]:
    """The parameters given on the command line (or by the environment), not defaulted,
    with their values."""
    given = {}
    for name, value in ctx.params.items():
        source = ctx.get_parameter_source(name)
        if source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP"):
            given[name] = value
    return given


def _level(console: Console, prompter: Prompter, watch: bool, rules: Rules) -> str:
    """The bots' level when ``--bots`` is not given: at a terminal, for a person playing,
    the menu of the levels that play ``rules`` (the level chosen last time by default, and
    remembered); else the default."""
    if watch or not prompter.interactive:
        return DEFAULT_LEVEL
    try:
        level = choose_level(console, prompter, remembered_level() or DEFAULT_LEVEL, rules)
    except EOFError:
        console.print()
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print()
        raise typer.Exit(130) from None
    remember_level(level)
    return level


def _resumed(file: str, seed: int, seed_given: int | None, seat: int, watch: bool,
             bots: str | None, given: dict[str, Any], console: Console,
             prompter: Prompter) -> tuple[SavedGame, int]:
    """The saved game of ``--resume`` and the seat (the player number) to sit at or look
    over; options that contradict the game exit 2 with one line naming them.  Bot seats
    the record leaves without a level get ``--bots``, else the level of a new game."""
    saved = load_saved_game(file, seed)
    n = saved.rules.players
    seats = bot_seats(saved)
    missing = [s for s in seats if s not in saved.bots]
    typed = bot_names(bots, len(seats)) if bots is not None and not missing else None
    why = conflicts(saved, {k: v for k, v in given.items() if k in RULE_FLAGS}, seed_given,
                    seat if "seat" in given else None, watch, typed)
    if why is not None:
        fail(f"{file}: {why}")
    if missing:
        level = bots if bots is not None else _level(console, prompter, saved.person is None,
                                                     saved.rules)
        saved.bots.update(zip(missing, bot_names(level, len(missing)), strict=True))
        saved.guessed = level
    if saved.person is not None:
        return saved, players_at(saved)[saved.person]
    if not 0 <= seat < n:
        fail(f"--seat is a seat from 0 to {n - 1}, not {seat}")
    return saved, seat


def _resuming(narrator: Narrator, file: str, saved: SavedGame, seed: int) -> None:
    """Where the game goes on from, and the seed of the deals to come when the record
    keeps none."""
    narrator.say(_("Going on with the game saved in {file}: {score}").format(
        file=escape(file), score=score_words(saved.game.scores, narrator.names,
                                             saved.rules.target)), 0)
    if saved.guessed is not None:
        narrator.say("[dim]" + _("The saved game does not say how well the bots play: they "
                                 "play as {level}.").format(level=level_name(saved.guessed))
                     + "[/]", 0)
    if saved.seed is None:
        narrator.say("[dim]" + _("The saved game keeps no seed: the deals to come are dealt "
                                 "from seed {seed}.").format(seed=seed) + "[/]", 0)


def _run(table: TerminalGame, console: Console) -> int:
    """Play the game; the exit status: 0 at its end or when the person leaves, 1 when the
    input ends first, 130 for Ctrl-C (at a terminal: Ctrl-C twice, once to ask and
    again at the question)."""
    try:
        table.run()
    except QuitGame as q:
        console.print("\n[bold]" + _("Game abandoned:") + f"[/] {escape(q.reason)}.")
        return q.status
    except Stopped as s:
        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
            console.print("\n[bold]" + _("Game abandoned:") + "[/] "
                          + _("the program was told to stop") + ".")
        return 128 + s.signum
    except KeyboardInterrupt:
        console.print("\n[bold]" + _("Game abandoned:") + "[/] " + _("interrupted") + ".")
        return 130
    return 0
