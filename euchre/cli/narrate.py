"""Telling a game in words, as one seat sees it (RULES §12).

The :class:`Narrator` reads nothing but observations of its viewer's seat
(``deal.observation(view)``): it cannot show another hand, the kitty, the dummy (unless
the viewer is the maker who took it) or another player's discard.  Each action is told
from the observations just before and just after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from euchre.actions import Action, ActionKind
from euchre.cards import Card
from euchre.cli.prompt import choices
from euchre.cli.results import describe_rules, result_words, score_words, winner_words
from euchre.cli.seats import SeatNames
from euchre.cli.style import SUIT_NAMES, CardStyle
from euchre.deal import Observation, Phase
from euchre.game import Draw
from euchre.rules import Rules

__all__ = ["Narrator"]


class Narrator:
    """Prints a game on a rich console from the observations of seat ``view``."""

    def __init__(self, console: Console, names: SeatNames, view: int,
                 style: CardStyle | None = None) -> None:
        self.console = console
        self.names = names
        self.view = view
        self.style = style or CardStyle()
        self._dummy_shown = False
        self._hand_on_screen = False
        """The last line printed is the viewer's hand as it is now."""
        self._trick_headed = 0
        """The number of the last trick whose header is printed."""

    # -- small pieces -------------------------------------------------------------------
    def say(self, markup: str, indent: int = 2) -> None:
        """One line of markup, indented."""
        self.console.print(" " * indent + markup)
        self._hand_on_screen = False

    def _show_hand(self, obs: Observation) -> None:
        self.say(self._hand_line(obs), 0)
        self._hand_on_screen = True

    def _card(self, card: Card | None) -> str:
        return "a card" if card is None else self.style.card(card)

    def _hand_line(self, obs: Observation) -> str:
        whose = "Your" if self.names.you == self.view else f"{self.names[self.view]}'s"
        trump = f"   [dim]trump[/] {self.style.suit(obs.trump)}" if obs.trump is not None else ""
        return f"{whose} hand: {self.style.cards(obs.hand)}{trump}"

    def _tally(self, obs: Observation) -> str:
        won = obs.tricks_won
        if self.names.players == 4:
            return " · ".join(f"{self.names.side_name(side)} {won[side[0]] + won[side[1]]}"
                              for side in self.names.sides())
        seats = [s for s in range(self.names.players) if won[s]]
        seats.sort(key=lambda s: (-won[s], s != self.names.you, s))
        return ", ".join(f"{self.names[s]} {won[s]}" for s in seats)

    # -- the game -------------------------------------------------------------------------
    def game_start(self, rules: Rules, seed: int, bots: dict[int, str],
                   draw: Draw | None = None) -> None:
        """The rules, the seed, the draw if there is one, and who sits where."""
        names = self.names
        self.console.rule(f"[bold]Euchre[/] · {describe_rules(rules)}")
        self.say(f"[dim]seed {seed}: play it again with --seed {seed}[/]", 0)
        if draw is not None:
            self.draw(draw)
        around = [(self.view + k) % names.players for k in range(names.players)]
        labels = set(bots.values())
        if len(labels) == 1 and len(bots) == names.players - (names.you is not None):
            seats = ", ".join(names[s] for s in around) + f" ({labels.pop()} bots)"
        else:
            seats = ", ".join(f"{names[s]} ({bots[s]})" if s in bots else names[s]
                              for s in around)
        self.say(f"At the table, clockwise: {seats}", 0)
        if names.players == 4:
            sides = names.sides()
            self.say(f"{names.side_name(sides[0])} play against "
                     f"{names.side_name(sides[1])}; partners sit opposite.", 0)

    def draw(self, draw: Draw) -> None:
        """The four-handed draw: who drew what, who partners whom, who deals (RULES §11)."""
        names = self.names
        self.console.rule("The draw for partners")
        self.say("[dim]K high, then Q J T 9 8 7, A low; equal cards draw again[/]", 0)
        for player in range(4):
            seat = draw.seats.index(player)
            drawn = [row[player] for row in draw.rounds if row[player] is not None]
            again = " [dim](tied, drew again)[/]" if len(drawn) > 1 else ""
            cards = " then ".join(self.style.card(c) for c in drawn if c is not None)
            self.say(f"{names.does(seat, 'draws')} {cards}{again}")
        # the two lowest sit at seats 0 and 2, the lowest at seat 0 deals (Draw.seats)
        self.say(f"{names.listed((0, 2))} drew lowest and partner against "
                 f"{names.listed((1, 3))}; {names.does(0, 'deals')} first.", 0)

    def deal_start(self, obs: Observation, number: int) -> None:
        """The deal's header, the turn-up and the viewer's hand."""
        self._dummy_shown = False
        self._trick_headed = 0
        names = self.names
        self.console.print()
        self.console.rule(f"Deal {number} · {names.does(obs.dealer, 'deals')}")
        turnup = f"Turn-up: {self._card(obs.turnup)}"
        if obs.turnup.suit is None:
            if obs.rules.joker_suit is None:
                turnup += (" — [bold]the joker![/] "
                           + names.does(obs.dealer, "names trump and takes it up"))
            else:
                turnup += f" — the joker, standing for {self.style.suit(obs.rules.joker_suit)}"
        self.say(turnup, 0)
        self._show_hand(obs)

    def action(self, before: Observation, after: Observation) -> None:
        """Tell the action just taken, and what it changed at the table."""
        event = after.events[-1]
        seat, action = event.seat, event.action
        names = self.names
        phase = before.phase
        if phase is Phase.BID_TURNUP and action is not None:
            if action.kind is ActionKind.PASS:
                self.say(names.does(seat, "passes"))
                if after.phase is not Phase.BID_TURNUP:
                    self.say(f"[dim]Everyone passed: {self._card(after.turnup)} is turned "
                             f"down; round 2, name another suit[/]")
            else:
                if seat == before.dealer:
                    verb = "takes it up"
                elif names.partner(seat) == before.dealer:
                    verb = "assists"
                else:
                    verb = "orders it up"
                self.say(names.does(seat, verb + (" alone" if action.alone else "")))
        elif phase in (Phase.BID_SUIT, Phase.NAME_TRUMP) and action is not None:
            if action.kind is ActionKind.PASS:
                self.say(names.does(seat, "passes"))
            elif action.suit is not None:
                alone = " and goes alone" if action.alone else ""
                self.say(names.does(seat, f"names {self.style.suit(action.suit)}{alone}"))
        elif phase is Phase.EXCHANGE:
            self._exchange(before, after, seat, action)
        elif phase is Phase.DUMMY:
            if action is not None and action.card is not None:
                self.say(f"{names.does(seat, 'discards')} {self._card(action.card)}")
            elif after.phase is not Phase.DUMMY:
                self.say(names.does(seat, "takes up the dummy and discards five cards "
                                          "face down"))
        elif phase is Phase.CALL_PARTNER and action is not None:
            self.say(f"{names.does(seat, 'calls')} {self._card(action.card)}: its holder is "
                     f"{names.possessive(seat)} secret partner")
            if after.partner == self.view and self.view != seat:
                self.say(f"[bold]You hold {self._card(action.card)}: you are "
                         f"{names.possessive(seat)} partner.[/] Keep it quiet.")
        elif phase is Phase.DEFEND and action is not None:
            if action.kind is ActionKind.DEFEND_ALONE:
                self.say(names.does(seat, "defends alone"))
            else:
                self.say(names.does(seat, "does not defend alone"))
        elif phase is Phase.PLAY and action is not None:
            self._play(before, after, seat, action)
        self._changes(before, after)

    def _exchange(self, before: Observation, after: Observation, seat: int,
                  action: Action | None) -> None:
        names = self.names
        turnup = self._card(before.turnup)
        if action is None or action.card is None:
            self.say(names.does(seat, f"picks up {turnup} and discards a card face down"))
        elif action.card == before.turnup:
            self.say(f"{names.does(seat, 'discards')} the turn-up {turnup}: no exchange")
        else:
            self.say(names.does(seat, f"picks up {turnup} and discards "
                                      f"{self._card(action.card)}"))

    def _play(self, before: Observation, after: Observation, seat: int, action: Action) -> None:
        names = self.names
        card = self._card(action.card)
        if not before.trick:
            self._trick_header(before)
            self.say(f"{names.does(seat, 'leads')} {card}")
        else:
            self.say(f"{names.does(seat, 'plays')} {card}")
        if before.partner is None and after.partner is not None and before.maker is not None:
            self.say(f"[bold]That is the called card: {names[after.partner]} "
                     f"{'are' if after.partner == names.you else 'is'} "
                     f"{names.possessive(before.maker)} partner.[/]")
        if len(after.tricks) > len(before.tricks):
            trick = after.tricks[-1]
            best = next(c for s, c in trick.cards if s == trick.winner)
            mark = "green" if self._friendly(after, trick.winner) else "yellow"
            self.say(f"[{mark}]{names.does(trick.winner, 'wins')} the trick[/] with "
                     f"{self._card(best)}   [dim]tricks:[/] {self._tally(after)}")

    def _trick_header(self, obs: Observation) -> None:
        number = len(obs.tricks) + 1
        if self._trick_headed != number:
            self._trick_headed = number
            self.say(f"[bold]Trick {number}[/]", 0)

    def _friendly(self, obs: Observation, seat: int) -> bool:
        """Whether ``seat`` is on the viewer's side, as far as the viewer knows."""
        if seat == self.view:
            return True
        if self.names.players == 4:
            return seat == (self.view + 2) % 4
        maker = obs.maker
        return obs.partner is not None and {seat, self.view} == {maker, obs.partner}

    def _changes(self, before: Observation, after: Observation) -> None:
        names = self.names
        if before.trump is None and after.trump is not None and after.maker is not None:
            alone = " alone" if after.alone else ""
            self.say(f"[bold]Trump: {self.style.suit(after.trump)}[/] · "
                     f"{names.does(after.maker, 'is')} the maker{alone}")
            if self.names.you != self.view:
                self._show_hand(after)
        for seat in after.sitting_out:
            if seat not in before.sitting_out:
                self.say(f"[dim]{names.does(seat, 'lays the hand face down and sits out')} "
                         f"this deal[/]")

    def deal_end(self, obs: Observation, scores: Sequence[int], bridge: int | None,
                 next_dealer: int) -> None:
        """The deal's result in words, then the score (and who is at the bridge)."""
        result = obs.result
        if result is None:
            return
        words = result_words(result, self.names, next_dealer, obs.called, obs.alone)
        colour = "bold"
        if self.names.you is not None and not result.thrown_in:
            colour = "bold green" if result.points[self.view] > 0 else "bold red"
        self.say(f"[{colour}]{words}[/]", 0)
        self.say(f"Score: {score_words(scores, self.names, obs.rules.target)}", 0)
        if bridge is not None:
            side = (0, 2) if bridge == 0 else (1, 3)
            self.say(f"[bold]{self.names.does(side, 'is')} at the bridge[/] "
                     f"(4 to {scores[(side[0] + 1) % 4]})", 0)

    def game_end(self, winners: Sequence[int], scores: Sequence[int], target: int) -> None:
        """The winner(s) and the final score."""
        self.console.print()
        self.console.rule("Game over")
        won = self.names.you in winners or self.names.you is None
        colour = "bold green" if won else "bold red"
        self.say(f"[{colour}]{winner_words(winners, scores, self.names)}[/]", 0)
        self.say(f"Final score: {score_words(scores, self.names, target)}", 0)

    # -- the person's turn -------------------------------------------------------------
    def turn(self, obs: Observation) -> None:
        """The person's hand and the numbered legal actions."""
        if obs.phase is Phase.PLAY and not obs.trick:
            self._trick_header(obs)
        if obs.phase is Phase.DUMMY and obs.dummy is not None and not self._dummy_shown:
            self._dummy_shown = True
            self.say(f"You take up the dummy: {self.style.cards(obs.dummy)}", 0)
        if not self._hand_on_screen:
            self._show_hand(obs)
        self.say(self.choices(obs))

    def choices(self, obs: Observation) -> str:
        """The legal actions, numbered: cards in rows, bids one per line."""
        legal = choices(obs)
        lines: list[str] = []
        if all(a.card is not None for a in legal):
            # wrap by hand so that a number never parts from its card
            room = self.console.width - 2
            row: list[str] = []
            used = 0
            for k, action in enumerate(legal, 1):
                width = len(str(k)) + 3
                if row and used + 3 + width > room:
                    lines.append("   ".join(row))
                    row, used = [], 0
                used += width + (3 if row else 0)
                row.append(f"[cyan]{k}[/] {self._card(action.card)}")
            lines.append("   ".join(row))
            return "\n  ".join(lines)
        for k, action in enumerate(legal, 1):
            gloss = self._gloss(obs, action)
            line = f"[cyan]{k}[/] [bold]{escape(str(action))}[/]"
            lines.append(f"{line}  [dim]{gloss}[/]" if gloss else line)
        return "\n  ".join(lines)

    def _gloss(self, obs: Observation, action: Action) -> str:
        kind = action.kind
        if kind is ActionKind.PASS:
            return "do not defend alone" if obs.phase is Phase.DEFEND else ""
        if kind is ActionKind.ORDER:
            suit = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
            assert suit is not None
            if obs.seat == obs.dealer:
                what = "take it up"
            elif self.names.partner(obs.seat) == obs.dealer:
                what = "assist"
            else:
                what = "order it up"
            return f"{what}{' alone' if action.alone else ''}: {SUIT_NAMES[suit]} trump"
        if kind is ActionKind.TRUMP and action.suit is not None:
            return f"{SUIT_NAMES[action.suit]} trump" + (", alone" if action.alone else "")
        if kind is ActionKind.DEFEND_ALONE:
            return ("your partner sits out" if self.names.players == 4
                    else "the other defender sits out")
        return ""

    def prompt(self, obs: Observation) -> str:
        """The question of the person's turn."""
        phase = obs.phase
        names = self.names
        question = {
            Phase.BID_TURNUP: "Order it up or pass?",
            Phase.BID_SUIT: "Name trump or pass?",
            Phase.NAME_TRUMP: "The joker is turned up: name trump.",
            Phase.EXCHANGE: f"Discard a card (discarding {self._card(obs.turnup)} "
                            f"declines the exchange).",
            Phase.DUMMY: f"Discard {len(obs.hand) - 5} more.",
            Phase.CALL_PARTNER: "Call your partner: name a card you do not hold.",
            Phase.DEFEND: "Defend alone?",
        }.get(phase, "Your play?" if obs.trick else "Your lead?")
        if phase is Phase.BID_TURNUP and obs.seat == obs.dealer:
            question = "Take it up or pass?"
        if phase is Phase.BID_SUIT and all(a.kind is not ActionKind.PASS
                                           for a in obs.legal_actions):
            question = "Stick the dealer: you must name trump."
        if phase is Phase.PLAY and obs.trick:
            leader = obs.trick[0][0]
            question = f"Your play? ({names.does(leader, 'led')} {self._card(obs.trick[0][1])})"
        return f"[bold]{question}[/] [dim](? help, h hint, q quit)[/] › "

    def help(self, obs: Observation) -> None:
        """What the person may type."""
        self.say("Type the number of a choice, or the action in RECORDS notation: "
                 "[bold]pass[/], [bold]order[/], [bold]order alone[/], [bold]trump H[/], "
                 "[bold]trump H alone[/], [bold]discard 9C[/], [bold]call AH[/], "
                 "[bold]defend alone[/], [bold]JH[/] or [bold]play JH[/]. "
                 "[bold]?[/] shows this, [bold]h[/] asks the expert for a hint (its choice "
                 "and the value of every legal action), [bold]q[/] quits.", 0)
        if obs.trick:
            played = ", ".join(f"{self.names[s]} {self._card(c)}" for s, c in obs.trick)
            self.say(f"This trick: {played}", 0)
        if obs.phase is Phase.PLAY:
            self.say(f"Tricks: {self._tally(obs)}", 0)
        self.turn(obs)

    def hint(self, obs: Observation, best: Action, values: dict[Action, float]) -> None:
        """The expert's choice and the value of each legal action (expected points for
        the person's side this deal), best first."""
        def name(action: Action) -> str:
            if action.kind is ActionKind.PLAY:
                return self._card(action.card)
            if action.card is not None:
                return f"{action.kind.value} {self._card(action.card)}"
            return f"[bold]{escape(str(action))}[/]"

        what = f"play {name(best)}" if best.kind is ActionKind.PLAY else name(best)
        self.say(f"Hint: the expert would {what}.", 0)
        ranked = sorted(values, key=lambda a: -values[a])
        cells = [f"{name(a)} {values[a]:+.2f}" for a in ranked]
        self.say("Values [dim](expected points for your side this deal)[/]: "
                 + " · ".join(cells), 0)

    def refuse(self, message: str) -> None:
        """An answer that is not a legal action, with the engine's reason."""
        self.say(f"[red]Not that:[/] {escape(message)}", 0)

