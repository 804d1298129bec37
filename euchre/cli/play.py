"""``euchre play``: a person plays a whole game in the terminal against bots.

The :class:`Table` drives a :class:`~euchre.game.Game`: it asks the bots and the person
for actions, and hands the :class:`~euchre.cli.narrate.Narrator` the person's
observations before and after each one.  Nothing here decides a rule: legality, turns,
scores and the draw all come from the engine.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from euchre.actions import Action, ActionKind, InvalidActionError
from euchre.bots import Bot, choose
from euchre.cli.illegal import why_illegal
from euchre.cli.lang import N_, RANKS, LangOption, _, current, use
from euchre.cli.narrate import Narrator, rules_page
from euchre.cli.options import (
    BotsOption,
    DeckOption,
    DefendAloneOption,
    DrawOption,
    JokerOption,
    JokerTurnupOption,
    MustTakeUpOption,
    PlayersOption,
    SeedOption,
    StickOption,
    TargetOption,
    bot_names,
    build_rules,
    fail,
    make_bots,
)
from euchre.cli.prompt import Command, Prompter, QuitGame, choices, interpret
from euchre.cli.save import SaveTarget, offer_save
from euchre.cli.seats import SeatNames
from euchre.cli.style import CardStyle, card_role
from euchre.deal import Deal, IllegalActionError, Observation
from euchre.game import Game
from euchre.records import game_record

__all__ = ["PLAY_HELP", "Seating", "Table", "play"]


class Table:
    """One game at the table: bots at some seats, perhaps a person at one.

    ``view`` is the seat whose observations are shown: the person's, or (watching) the
    seat the spectator looks over.  ``autoplay``: when the person has a single legal
    action, it is said and taken for them after ``forced_pause`` seconds.
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
                before = deal.observation(self.view)
                if seat == self.person:
                    self._person_acts(deal)
                else:
                    deal.apply(choose(self.bots[seat], deal))
                after = deal.observation(self.view)
                shown = self.narrator.action(before, after)
                if seat != self.person and shown:
                    self._pause(self.delay * (2 if len(after.tricks) > len(before.tricks)
                                              else 1))
            game.next_deal()
            self.narrator.deal_end(deal.observation(self.view), game.scores,
                                   game.at_the_bridge, game.dealer)
            self._pause(self.delay * 2)
        self.narrator.game_end(game.winners, game.scores, game.rules.target)

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

    def _person_acts(self, deal: Deal) -> None:
        """Ask until the answer is a legal action the person stands by, then apply it."""
        assert self.person is not None
        obs = deal.observation(self.person)
        legal = obs.legal_actions
        if self.autoplay and len(legal) == 1:
            self.narrator.forced(obs, legal[0])
            self._pause(self.forced_pause)
            deal.apply(legal[0], seat=self.person)
            return
        self.narrator.turn(obs)
        while True:
            answer = self._ask(self.narrator.prompt(obs))
            try:
                choice = interpret(answer, choices(obs), obs.phase)
            except InvalidActionError as e:
                self.narrator.refuse(escape(str(e)))
                continue
            if choice is Command.HELP:
                self.narrator.help(obs)
                continue
            if choice is Command.HINT:
                self._hint(obs)
                continue
            if choice is Command.QUIT:
                try:
                    leave = self.prompter.confirm(_("Quit this game?"))
                except EOFError:
                    leave = True
                if leave:
                    raise QuitGame(_("you left the game"), 0)
                continue
            if choice is Command.NOTHING:
                self.narrator.say(self.narrator.choices(obs))
                continue
            if not deal.is_legal(choice):
                self.narrator.refuse(why_illegal(obs, choice, self.narrator.style))
                continue
            if not self._stands_by(obs, choice):
                continue
            try:
                deal.apply(choice, seat=self.person)
            except IllegalActionError:
                self.narrator.refuse(why_illegal(obs, choice, self.narrator.style))
                continue
            return

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
    "order alone, trump H, trump H alone, discard 9C, call AH, defend alone.  ? explains "
    "the choices, h shows the expert's hint (its choice and the value of every legal "
    "move), q quits.  The rules: docs/rules.md.\n\n"
    "Exit status: 0 when the game ends or you quit, 1 when the input ends first (Ctrl-D), "
    "130 on Ctrl-C, 2 for bad options.")
"""The command's help (``--help``), in English; ``euchre`` shows it in the player's
language."""


def play(
    players: PlayersOption = 4,
    deck: DeckOption = None,
    joker: JokerOption = None,
    joker_turnup: JokerTurnupOption = None,
    stick_the_dealer: StickOption = None,
    defend_alone: DefendAloneOption = None,
    dealer_must_take_up: MustTakeUpOption = None,
    to: TargetOption = None,
    draw: DrawOption = None,
    seed: SeedOption = None,
    bots: BotsOption = "basic",
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
    rules = build_rules(
        players, deck=deck, joker=joker, joker_turnup=joker_turnup,
        stick_the_dealer=stick_the_dealer, defend_alone=defend_alone,
        dealer_must_take_up=dealer_must_take_up, target=to, draw=draw)
    if not 0 <= seat < players:
        fail(f"--seat is a seat from 0 to {players - 1}, not {seat}")
    if delay is not None and delay < 0:
        fail(f"--delay is a number of seconds, 0 or more, not {delay}")
    others = [p for p in range(players) if watch or p != seat]
    bots_of = dict(zip(others, bot_names(bots, len(others)), strict=True))
    console = Console(highlight=False)
    prompter = Prompter(console)
    target = SaveTarget(console, prompter, overwrite)
    if save is not None:
        refusal = target.refusal(save)
        if refusal is not None:
            fail(refusal)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    game = Game(rules, seed)
    seating = Seating.at(game, seat, bots_of, seed)
    names = SeatNames.around(players, seating.view, person=not watch)
    speaking = current()
    if symbols is None:
        symbols = speaking != "en"
    narrator = Narrator(console, names, seating.view,
                        CardStyle(symbols=symbols, ranks=RANKS[speaking]))
    if delay is None:
        delay = 0.8 if watch else 0.3 if console.is_terminal else 0.0
    person = None if watch else seating.view
    table = Table(game, seating.bots, narrator, prompter, person, delay,
                  autoplay=autoplay, forced_pause=3 * delay)
    narrator.game_start(rules, seed, seating.labels, game.draw)
    if not watch:
        narrator.say("[dim]" + _("The rules in words: {page}. At your turn, ? explains what "
                                 "to type.").format(page=rules_page()) + "[/]", 0)
    status = 0
    try:
        table.run()
    except QuitGame as q:
        console.print("\n[bold]" + _("Game abandoned:") + f"[/] {escape(q.reason)}.")
        status = q.status
    except KeyboardInterrupt:
        console.print("\n[bold]" + _("Game abandoned:") + "[/] " + _("interrupted") + ".")
        status = 130
    seat_names = [f"{names[s]} ({seating.labels[s]})" if s in seating.labels else names[s]
                  for s in range(players)]
    record = game_record(game, seat_names)
    if status == 130:  # interrupted: save only where asked, ask nothing more
        prompter.ended = True
        if save is not None:
            target.save(save, record)
    else:
        offer_save(target, record, save)
    if status:
        raise typer.Exit(status)
