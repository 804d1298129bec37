"""``euchre play``: a person plays a whole game in the terminal against bots.

The :class:`Table` drives a :class:`~euchre.game.Game`: it asks the bots and the person
for actions, and hands the :class:`~euchre.cli.narrate.Narrator` the person's
observations before and after each one.  Nothing here decides a rule: legality, turns,
scores and the draw all come from the engine.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from euchre.actions import InvalidActionError
from euchre.bots import Bot, choose
from euchre.cli.narrate import Narrator
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
from euchre.cli.seats import SeatNames
from euchre.cli.style import CardStyle
from euchre.deal import Deal, IllegalActionError, Observation
from euchre.game import Game
from euchre.records import game_record

if TYPE_CHECKING:
    from euchre.bots.expert import ExpertBot

__all__ = ["Seating", "Table", "play"]


class Table:
    """One game at the table: bots at some seats, perhaps a person at one.

    ``view`` is the seat whose observations are shown: the person's, or (watching) the
    seat the spectator looks over.
    """

    def __init__(
        self,
        game: Game,
        bots: dict[int, Bot],
        narrator: Narrator,
        prompter: Prompter,
        person: int | None,
        delay: float = 0.0,
    ) -> None:
        self.game = game
        self.bots = bots
        self.narrator = narrator
        self.prompter = prompter
        self.person = person
        self.view = narrator.view
        self.delay = delay
        self._hinter: ExpertBot | None = None

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
                self.narrator.action(before, after)
                if seat != self.person:
                    self._pause(2 if len(after.tricks) > len(before.tricks) else 1)
            game.next_deal()
            self.narrator.deal_end(deal.observation(self.view), game.scores,
                                   game.at_the_bridge, game.dealer)
            self._pause(2)
        self.narrator.game_end(game.winners, game.scores, game.rules.target)

    def _pause(self, beats: int) -> None:
        if self.delay > 0:
            time.sleep(self.delay * beats)

    def _hint(self, obs: Observation) -> None:
        """The expert's choice and the value of every legal action, from the person's
        observation only (RULES §12)."""
        if self._hinter is None:
            from euchre.bots.expert import ExpertBot

            # its own seed: asking for a hint must not change the game's deals
            self._hinter = ExpertBot(random.Random(f"hint/{self.person}"), time_budget=0.5)
        values = self._hinter.evaluate(obs)
        self.narrator.hint(obs, self._hinter.best(values), values)

    def _person_acts(self, deal: Deal) -> None:
        """Ask until the answer is a legal action, then apply it."""
        assert self.person is not None
        obs = deal.observation(self.person)
        self.narrator.turn(obs)
        while True:
            try:
                answer = self.prompter.ask(self.narrator.prompt(obs))
            except EOFError:
                raise QuitGame("the input ended before the game did", 1) from None
            try:
                choice = interpret(answer, choices(obs), obs.phase)
            except InvalidActionError as e:
                self.narrator.refuse(str(e))
                continue
            if choice is Command.HELP:
                self.narrator.help(obs)
                continue
            if choice is Command.HINT:
                self._hint(obs)
                continue
            if choice is Command.QUIT:
                try:
                    leave = self.prompter.confirm("Quit this game?")
                except EOFError:
                    leave = True
                if leave:
                    raise QuitGame("you left the game", 0)
                continue
            if choice is Command.NOTHING:
                self.narrator.say(self.narrator.choices(obs))
                continue
            try:
                deal.apply(choice, seat=self.person)
            except IllegalActionError as e:
                self.narrator.refuse(str(e))
                continue
            return


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


def _save(console: Console, path: Path, record: dict[str, Any]) -> bool:
    """Write a game record as one line of JSON; say where, or why not."""
    try:
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    except OSError as e:
        console.print(f"[red]Could not save the game record:[/] {escape(str(e))}")
        return False
    console.print(f"Saved the game record to {escape(str(path))} "
                  f"[dim](euchre replay {escape(str(path))})[/]")
    return True


def _offer_save(console: Console, prompter: Prompter, record: dict[str, Any],
                save: Path | None) -> None:
    """Save to ``--save``, or offer to when a person sits at a terminal."""
    if save is not None:
        _save(console, save, record)
        return
    if not prompter.interactive:
        return
    try:
        name = prompter.ask("Save the game record? File name [dim](Enter to skip)[/] › ")
    except (EOFError, KeyboardInterrupt):
        console.print()
        return
    if name:
        _save(console, Path(name).expanduser(), record)


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
        help="Your seat, 0 to players-1 (with --draw: your place in the draw, "
             "which then seats you).")] = 0,
    watch: Annotated[bool, typer.Option(
        "--watch", help="Bots at every seat, played at a readable pace; you look over "
                        "the shoulder of --seat.")] = False,
    delay: Annotated[float | None, typer.Option(
        "--delay", metavar="SECONDS", show_default=False,
        help="Pause after each bot action. Default 0.8 with --watch, 0.3 on a terminal, "
             "else 0.")] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE", dir_okay=False, show_default=False,
        help="Write the game record to FILE at the end, without asking.")] = None,
    symbols: Annotated[bool, typer.Option(
        "--symbols/--letters", help="Show suits as ♣ ♦ ♥ ♠ instead of C D H S.")] = False,
) -> None:
    """Play a game of euchre in the terminal against bots.

    At your turn, answer with the number of a listed action or the action itself in
    RECORDS notation: pass, order, order alone, trump H, trump H alone, discard 9C,
    call AH, defend alone, JH (or play JH).  ? lists your choices, h shows the
    expert's hint (its choice and the value of every legal action), q quits.

    Exit status: 0 when the game ends or you quit, 1 when the input ends first,
    130 on Ctrl-C, 2 for bad options.
    """
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
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    game = Game(rules, seed)
    seating = Seating.at(game, seat, bots_of, seed)
    console = Console(highlight=False)
    names = SeatNames.around(players, seating.view, person=not watch)
    narrator = Narrator(console, names, seating.view, CardStyle(symbols=symbols))
    prompter = Prompter(console)
    if delay is None:
        delay = 0.8 if watch else 0.3 if console.is_terminal else 0.0
    person = None if watch else seating.view
    table = Table(game, seating.bots, narrator, prompter, person, delay)
    narrator.game_start(rules, seed, seating.labels, game.draw)
    status = 0
    try:
        table.run()
    except QuitGame as q:
        console.print(f"\n[bold]Game abandoned:[/] {escape(q.reason)}.")
        status = q.status
    except KeyboardInterrupt:
        console.print("\n[bold]Game abandoned:[/] interrupted.")
        status = 130
    seat_names = [f"{names[s]} ({seating.labels[s]})" if s in seating.labels else names[s]
                  for s in range(players)]
    record = game_record(game, seat_names)
    if status == 130:  # interrupted: save only where asked, ask nothing more
        if save is not None:
            _save(console, save, record)
    else:
        _offer_save(console, prompter, record, save)
    if status:
        raise typer.Exit(status)
