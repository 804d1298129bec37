"""Telling a game in words, as one seat sees it (RULES §12).

The :class:`Narrator` reads nothing but observations of its viewer's seat
(``deal.observation(view)``) and the public part of what each action did (the
:class:`~euchre.deal.Effect` that :meth:`Deal.apply` returns: trump fixed, seats sitting
out, the called card shown, the trick won and why): it cannot show another hand, the
kitty, the dummy (unless the viewer is the maker who took it) or another player's
discard.  Replaying a record with every hand open (``euchre replay``) is the one
exception, and it says so (``open_hands``): the hidden cards are handed to
:meth:`Narrator.show_all_hands`, :meth:`Narrator.tell` (``secret``) and
:meth:`Narrator.partner_revealed` explicitly.

Each trick is one row, printed when it is complete: who led, every card, who won and
why, and the tricks each side (or player) has taken:

    Trick 3  You led TC · West JS (left bower) · North 9D · East KC
             → West wins with JS, the left bower (the highest trump)
             tricks: You & North 1 · East & West 2

A row wraps between its parts only, to the console's width.
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.numbers import format_decimal
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.text import Text

from euchre.actions import Action, ActionKind
from euchre.cards import Card, Suit, effective_suit, sort_hand
from euchre.cli.difficulty import level_name
from euchre.cli.lang import N_, _, current, ngettext
from euchre.cli.prompt import choices, example_card, move_text, move_word, suit_readings
from euchre.cli.results import (
    describe_rules,
    marker_words,
    result_words,
    score_words,
    winner_words,
)
from euchre.cli.rules import rules_hint
from euchre.cli.seats import SeatNames
from euchre.cli.style import CardStyle, role_words, suit_name, suit_one
from euchre.deal import Effect, Observation, Phase, WonBy
from euchre.game import Draw
from euchre.rules import Rules
from euchre.wording import RANKS, RANKS_TYPED, SUIT_LETTERS, card_role

__all__ = ["Narrator"]

_LABEL = 9
"""The width of a row's label (``Trick 3``); its continuation lines are indented so."""

_STALE_HAND = 8
"""Lines after which the hand is shown again at the person's turn, though unchanged."""


class Narrator:
    """Prints a game on a rich console from the observations of seat ``view``."""

    def __init__(self, console: Console, names: SeatNames, view: int,
                 style: CardStyle | None = None, open_hands: bool = False) -> None:
        self.console = console
        self.names = names
        self.view = view
        self.style = style or CardStyle()
        self.open_hands = open_hands
        """Every hand is open (a replay): they are shown at the deal's start, not the
        viewer's alone."""
        self._dummy_shown = False
        self._hand_shown: tuple[tuple[Card, ...], Suit | None] | None = None
        """The viewer's hand (and trump) as last printed."""
        self._lines = 0
        """Lines printed since the hand was."""

    # -- small pieces -------------------------------------------------------------------
    def say(self, markup: str, indent: int = 2) -> None:
        """One line of markup (or several, each indented as the first), indented; a line
        too long for the terminal wraps under its own start, not at the margin."""
        if indent:
            lines = [line.removeprefix(" " * indent) for line in markup.split("\n")]
            for line in lines:
                self.console.print(Padding(line, (0, 0, 0, indent), expand=False))
        else:
            self.console.print(markup)
        self._lines += 1 + markup.count("\n")

    def _show_hand(self, obs: Observation) -> None:
        self.say(self._hand_line(obs), 0)
        self._hand_shown = (obs.hand, obs.trump)
        self._lines = 0

    def _hand_is_stale(self, obs: Observation) -> bool:
        """The hand is shown again when it changed, scrolled away, or for a play (its
        line holds the tricks taken)."""
        return (obs.phase is Phase.PLAY or self._hand_shown != (obs.hand, obs.trump)
                or self._lines > _STALE_HAND)

    def _card(self, card: Card | None) -> str:
        return _("a card") if card is None else self.style.card(card)

    def _hand_line(self, obs: Observation) -> str:
        """The hand, trump and the tricks taken, on one line where the terminal is wide
        enough, else each on its own line (a part never breaks in the middle)."""
        cards = self.style.cards(obs.hand)
        parts = [_("Your hand: {cards}").format(cards=cards) if self.names.you == self.view
                 else _("{who}'s hand: {cards}").format(who=self.names[self.view],
                                                        cards=cards)]
        if obs.trump is not None:
            parts.append("[dim]" + _("trump") + f"[/] {self.style.suit(obs.trump)}")
        if obs.phase is Phase.PLAY:
            parts.append("[dim]" + _("tricks:") + f"[/] {self._tally(obs)}")
        line = "   ".join(parts)
        if Text.from_markup(line).cell_len <= self.console.width:
            return line
        return "\n  ".join(parts)

    def _tally(self, obs: Observation) -> str:
        """Tricks taken so far: by side four-handed, else by player (those playing)."""
        won = obs.tricks_won
        names = self.names
        if names.players == 4:
            return " · ".join(f"{names.side_name(side)} {won[side[0]] + won[side[1]]}"
                              for side in names.sides())
        around = [(self.view + k) % names.players for k in range(names.players)]
        return " · ".join(f"{names[s]} {won[s]}" for s in around
                          if s not in obs.sitting_out)

    def _row(self, label: str, parts: Sequence[tuple[str, str]]) -> None:
        """A labelled row of ``(joiner, markup)`` parts, wrapped between parts only, with
        its continuation lines under the first part."""
        room = max(self.console.width - _LABEL, 20)
        lines: list[str] = []
        line, used = "", 0
        for joiner, part in parts:
            width = Text.from_markup(part).cell_len
            if line and used + len(joiner) + width > room:
                lines.append(line + joiner.rstrip())  # the "·" stays, at the line's end
                line, used = "", 0
            if line:
                line += joiner
                used += len(joiner)
            line += part
            used += width
        lines.append(line)
        head = f"[bold]{label}[/]" + " " * (_LABEL - len(label))
        self.say(head + ("\n" + " " * _LABEL).join(lines), 0)

    # -- the game -------------------------------------------------------------------------
    def game_start(self, rules: Rules, seed: int | None, bots: dict[int, str],
                   draw: Draw | None = None) -> None:
        """The rules, the seed, the draw if there is one, and who sits where: ``bots`` are
        the bots' names by seat, shown by their levels' plain names (``Casual``)."""
        names = self.names
        self.console.rule(f"[bold]Euchre[/] · {describe_rules(rules)}")
        if seed is not None:
            self.say("[dim]" + _("seed {seed}: play it again with --seed {seed}").format(
                seed=seed) + "[/]", 0)
        if draw is not None:
            self.draw(draw)
        around = [(self.view + k) % names.players for k in range(names.players)]
        bots = {s: level_name(bot) for s, bot in bots.items()}  # "Casual", not "basic"
        labels = set(bots.values())
        if len(labels) == 1 and len(bots) == names.players - (names.you is not None):
            label = labels.pop()
            kind = ngettext("{label} bot", "{label} bots", len(bots)).format(label=label)
            seats = ", ".join(names[s] for s in around) + f" ({kind})"
        else:
            seats = ", ".join(f"{names[s]} ({bots[s]})" if s in bots else names[s]
                              for s in around)
        self.say(_("At the table, clockwise: {seats}").format(seats=seats), 0)
        if names.players == 4:
            sides = names.sides()
            self.say(_("{side} play against {other}; partners sit opposite.").format(
                side=names.side_name(sides[0]), other=names.side_name(sides[1])), 0)
            if rules.target == 5:
                self.say("[dim]" + _("In a game to 5 each side keeps its score with a three "
                                     "and a four; the score line tells how they lie when "
                                     "they move.") + "[/]", 0)

    def draw(self, draw: Draw) -> None:
        """The four-handed draw: who drew what, who partners whom, who deals (RULES §11)."""
        names = self.names
        self.console.rule(_("The draw for partners"))
        self.say("[dim]" + _("K high, then Q J 10 9 8 7, A low; equal cards draw again")
                 + "[/]", 0)
        for player in range(4):
            seat = draw.seats.index(player)
            drawn = [row[player] for row in draw.rounds if row[player] is not None]
            again = " [dim](" + _("tied, drew again") + ")[/]" if len(drawn) > 1 else ""
            cards = _(" then ").join(self.style.card(c) for c in drawn if c is not None)
            self.say(names.act(seat, N_("{who} draws {cards}"), N_("You draw {cards}"),
                               cards=cards) + again)
        # the two lowest sit at seats 0 and 2, the lowest at seat 0 deals (Draw.seats);
        # the sentence agrees with "you" among them, or dealing
        high = names.listed((1, 3))
        if names.you == 0:
            line = _("You and {partner} drew lowest and partner against {high}; you deal "
                     "first.").format(partner=names[2], high=high)
        elif names.you == 2:
            line = _("You and {partner} drew lowest and partner against {high}; {dealer} "
                     "deals first.").format(partner=names[0], high=high, dealer=names[0])
        else:
            line = _("{low} drew lowest and partner against {high}; {dealer} deals first."
                     ).format(low=names.listed((0, 2)), high=high, dealer=names[0])
        self.say(line, 0)

    def deal_start(self, obs: Observation, number: int, title: str = "") -> None:
        """The deal's header, the turn-up and the viewer's hand.

        ``number`` counts from 1; ``title`` goes before it (``Game 2 · ``).
        """
        self._dummy_shown = False
        names = self.names
        self.console.print()
        self.console.rule(title + names.act(obs.dealer, N_("Deal {number} · {who} deals"),
                                            N_("Deal {number} · You deal"), number=number))
        turnup = _("Turn-up: {card}").format(card=self._card(obs.turnup))
        if obs.turnup.suit is None:
            if obs.rules.joker_suit is None:
                turnup += (" — [bold]" + _("the joker!") + "[/] "
                           + names.act(obs.dealer, N_("{who} names trump and takes it up"),
                                       N_("You name trump and take it up")))
            else:
                turnup += " — " + _("the joker, standing for {suit}").format(
                    suit=self.style.suit(obs.rules.joker_suit))
        self.say(turnup, 0)
        if not self.open_hands:
            self._show_hand(obs)

    def show_all_hands(self, hands: Sequence[Sequence[Card]], dummy: Sequence[Card] | None,
                       kitty: Sequence[Card]) -> None:
        """Every hand face up, with the dummy and the kitty (a replay, not a game)."""
        n = self.names.players
        width = max(len(self.names[s]) for s in range(n)) + 1
        for k in range(n):
            seat = (self.view + k) % n
            name = f"{self.names[seat]}:".ljust(width)
            self.say(f"{name} {self.style.cards(sort_hand(hands[seat]))}")
        if dummy is not None:
            dummy_label = _("Dummy:")
            self.say(f"{dummy_label.ljust(width)} {self.style.cards(sort_hand(dummy))}")
        kitty_label = _("Kitty:")
        self.say(f"[dim]{kitty_label.ljust(width)}[/] {self.style.cards(kitty)}")

    def tell(self, effect: Effect, after: Observation, secret: Action | None = None) -> bool:
        """Tell the action just taken, and what it changed at the table; whether anything
        was printed (a card played to an unfinished trick is not: its trick's row is).

        ``effect`` is what :meth:`Deal.apply` returned; of it only what the whole table
        sees is read (the phase, trump and maker, seats sitting out, the partner shown,
        the trick and why it was won): the action itself is read from ``after``, the
        viewer's observation just after it, so another seat's discard stays hidden.
        ``secret`` is the action itself when the viewer may not see it (another seat's
        discard); only a replay with every hand open gives it.
        """
        event = after.events[-1]
        seat = event.seat
        action = event.action if event.action is not None else secret
        names = self.names
        phase = effect.phase
        lines = self._lines
        if phase is Phase.BID_TURNUP and action is not None:
            if action.kind is ActionKind.PASS:
                self.say(names.act(seat, N_("{who} passes"), N_("You pass")))
                if after.phase is not Phase.BID_TURNUP:
                    self.say("[dim]" + _("Everyone passed: {card} is turned down; round 2, "
                                         "name another suit").format(
                        card=self._card(after.turnup)) + "[/]")
            else:
                if seat == after.dealer:
                    forms = ((N_("{who} takes it up"), N_("You take it up")),
                             (N_("{who} takes it up alone"), N_("You take it up alone")))
                elif names.partner(seat) == after.dealer:
                    forms = ((N_("{who} assists"), N_("You assist")),
                             (N_("{who} assists alone"), N_("You assist alone")))
                else:
                    forms = ((N_("{who} orders it up"), N_("You order it up")),
                             (N_("{who} orders it up alone"), N_("You order it up alone")))
                self.say(names.act(seat, *forms[action.alone]))
        elif phase in (Phase.BID_SUIT, Phase.NAME_TRUMP) and action is not None:
            if action.kind is ActionKind.PASS:
                self.say(names.act(seat, N_("{who} passes"), N_("You pass")))
            elif action.suit is not None:
                suit = self.style.suit(action.suit)
                if action.alone:
                    self.say(names.act(seat, N_("{who} names {suit} and goes alone"),
                                       N_("You name {suit} and go alone"), suit=suit))
                else:
                    self.say(names.act(seat, N_("{who} names {suit}"), N_("You name {suit}"),
                                       suit=suit))
        elif phase is Phase.EXCHANGE:
            self._exchange(after, seat, action)
        elif phase is Phase.DUMMY:
            if action is not None and action.card is not None:
                self.say(names.act(seat, N_("{who} discards {card}"), N_("You discard {card}"),
                                   card=self._card(action.card)))
            elif after.phase is not Phase.DUMMY:
                self.say(names.act(
                    seat, N_("{who} takes up the dummy and discards five cards face down"),
                    N_("You take up the dummy and discard five cards face down")))
        elif phase is Phase.CALL_PARTNER and action is not None:
            card = self._card(action.card)
            self.say(names.act(seat, N_("{who} calls {card}: its holder is {who}'s secret "
                                        "partner"),
                               N_("You call {card}: its holder is your secret partner"),
                               card=card))
            if after.partner == self.view and self.view != seat:
                self.say("[bold]" + _("You hold {card}: you are {who}'s partner.").format(
                    card=card, who=names[seat]) + "[/] " + _("Keep it quiet."))
        elif phase is Phase.DEFEND and action is not None:
            if action.kind is ActionKind.DEFEND_ALONE:
                self.say(names.act(seat, N_("{who} defends alone"), N_("You defend alone")))
            else:
                self.say(names.act(seat, N_("{who} does not defend alone"),
                                   N_("You do not defend alone")))
        elif phase is Phase.PLAY and action is not None:
            self._play(effect, after, seat, action)
        self._changes(effect, after)
        return self._lines != lines

    def partner_revealed(self, holder: int | None, card: Card) -> None:
        """Open hands: who holds the called card (``None``: nobody, the maker is alone)."""
        if holder is None:
            self.say("[dim](" + _("open hands: nobody holds {card}; the maker plays alone")
                     .format(card=self._card(card)) + ")[/]")
        else:
            self.say("[dim](" + self.names.act(
                holder, N_("open hands: {who} holds {card}"), N_("open hands: you hold {card}"),
                card=self._card(card)) + ")[/]")

    def _exchange(self, obs: Observation, seat: int, action: Action | None) -> None:
        names = self.names
        turnup = self._card(obs.turnup)
        if action is None or action.card is None:
            self.say(names.act(seat, N_("{who} picks up {turnup} and discards a card face down"),
                               N_("You pick up {turnup} and discard a card face down"),
                               turnup=turnup))
        elif action.card == obs.turnup:
            self.say(names.act(seat, N_("{who} discards the turn-up {turnup}: no exchange"),
                               N_("You discard the turn-up {turnup}: no exchange"),
                               turnup=turnup))
        else:
            self.say(names.act(seat, N_("{who} picks up {turnup} and discards {card}"),
                               N_("You pick up {turnup} and discard {card}"),
                               turnup=turnup, card=self._card(action.card)))

    def _play(self, effect: Effect, after: Observation, seat: int, action: Action) -> None:
        names = self.names
        # the called card played shows the table its holder, who knew already: say it to
        # the partner too (RULES §6.3)
        partner, maker = effect.partner, after.maker
        if partner is not None and maker is not None:
            played = names.act(seat, N_("{who} plays {card}, the called card:"),
                               N_("You play {card}, the called card:"),
                               card=self._card(action.card))
            if partner == names.you:
                words = _("you are {maker}'s partner.").format(maker=names[maker])
            elif maker == names.you:
                words = _("{who} is your partner.").format(who=names[partner])
            else:
                words = _("{who} is {maker}'s partner.").format(
                    who=names[partner], maker=names[maker])
            self.say(f"[bold]{played} {words}[/]")
        if effect.trick is not None:
            assert after.trump is not None
            self._trick_row(effect, len(after.tricks), after)

    def _cards_parts(self, leader: int, cards: Sequence[tuple[int, Card]],
                     trump: Suit | None) -> list[tuple[str, str]]:
        """``You led TC``, ``West JS (left bower)``: a row's cards, the bowers and the
        joker marked, for they are trumps whatever suit they show."""
        parts = []
        for seat, card in cards:
            role = card_role(card, trump)
            text = self._card(card) + (f" [dim]({role_words(role, short=True)})[/]"
                                       if role else "")
            if seat == leader:
                parts.append(("", self.names.act(seat, N_("{who} led {card}"),
                                                 N_("You led {card}"), card=text)))
            else:
                parts.append((" · ", f"{self.names[seat]} {text}"))
        return parts

    def _trick_row(self, effect: Effect, number: int, after: Observation) -> None:
        """A finished trick: its cards, who won it and why, and the tricks so far."""
        trump = after.trump
        trick = effect.trick
        assert trump is not None and trick is not None
        best = next(c for s, c in trick.cards if s == trick.winner)
        if effect.won_by is WonBy.HIGHEST_LED:
            why = _("the highest {suit}").format(
                suit=suit_one(effective_suit(trick.cards[0][1], trump)))
        elif effect.won_by is WonBy.TRUMPED:
            why = _("trumped")
        else:
            why = _("the highest trump")
        mark = "green" if self._friendly(after, trick.winner) else "yellow"
        win = "→ " + self.names.act(
            trick.winner, N_("[{mark}]{who} wins[/] with {card} ({why})"),
            N_("[{mark}]You win[/] with {card} ({why})"),
            mark=mark, card=self.style.named(best, trump, after_with=True), why=why)
        tally = "[dim]" + _("tricks:") + f"[/] {self._tally(after)}"
        self._row(_("Trick {number}").format(number=number),
                  [*self._cards_parts(trick.leader, trick.cards, trump), ("  ", win),
                   ("  ", tally)])

    def _friendly(self, obs: Observation, seat: int) -> bool:
        """Whether ``seat`` is on the viewer's side, as far as the viewer knows."""
        if seat == self.view:
            return True
        if self.names.players == 4:
            return seat == self.names.partner(self.view)
        maker = obs.maker
        return obs.partner is not None and {seat, self.view} == {maker, obs.partner}

    def _changes(self, effect: Effect, after: Observation) -> None:
        names = self.names
        if effect.trump is not None and after.trump is not None and after.maker is not None:
            trump = "[bold]" + _("Trump: {suit}").format(suit=self.style.suit(after.trump))
            if after.alone:
                maker = names.act(after.maker, N_("{who} is the maker alone"),
                                  N_("You are the maker alone"))
            else:
                maker = names.act(after.maker, N_("{who} is the maker"), N_("You are the maker"))
            self.say(f"{trump}[/] · {maker}")
            if self.names.you != self.view and not self.open_hands:
                self._show_hand(after)
        for seat in effect.sitting_out:
            self.say("[dim]" + names.act(
                seat, N_("{who} lays the hand face down and sits out this deal"),
                N_("You lay the hand face down and sit out this deal")) + "[/]")

    def deal_end(self, obs: Observation, scores: Sequence[int] | None, bridge: int | None,
                 next_dealer: int) -> None:
        """The deal's result in words, then the score (and who is at the bridge).

        ``scores`` is the game's score after the deal (``None`` for a deal on its own);
        in a game to 5 four-handed, the markers of a side that scored are told.
        """
        result = obs.result
        if result is None:  # a record that stops before the end
            self.say("[dim]" + _("The record stops here: the deal is unfinished.") + "[/]", 0)
            return
        words = result_words(result, self.names, next_dealer, obs.called, obs.alone)
        colour = "bold"
        if self.names.you is not None and not result.thrown_in:
            colour = "bold green" if result.points[self.view] > 0 else "bold red"
        self.say(f"[{colour}]{words}[/]", 0)
        if scores is None:
            return
        line = _("Score: {score}").format(
            score=score_words(scores, self.names, obs.rules.target))
        if self.names.players == 4 and obs.rules.target == 5:
            moved = [side for side in self.names.sides()
                     if result.points[side[0]] > 0 and marker_words(scores[side[0]])]
            markers = " · ".join(_("{side}'s markers: {markers}").format(
                side=self.names.side_name(side), markers=marker_words(scores[side[0]]))
                for side in moved)
            if markers:
                line += f"   [dim]{markers}[/]"
        self.say(line, 0)
        if bridge is not None:
            side = (0, 2) if bridge == 0 else (1, 3)
            self.say("[bold]" + self.names.act(side, N_("{who} is at the bridge"),
                                               N_("You are at the bridge"),
                                               N_("{who} are at the bridge"))
                     + "[/] " + _("(4 to {other})").format(other=scores[(side[0] + 1) % 4]), 0)

    def game_end(self, winners: Sequence[int], scores: Sequence[int], target: int) -> None:
        """The winner(s) and the final score."""
        self.console.print()
        self.console.rule(_("Game over"))
        won = self.names.you in winners or self.names.you is None
        colour = "bold green" if won else "bold red"
        self.say(f"[{colour}]{winner_words(winners, scores, self.names)}[/]", 0)
        self.say(_("Final score: {score}").format(score=score_words(scores, self.names, target)),
                 0)

    # -- the person's turn -------------------------------------------------------------
    def _trick_so_far(self, obs: Observation) -> None:
        trick = obs.trick
        if trick:
            self._row(_("Trick {number}").format(number=len(obs.tricks) + 1),
                      self._cards_parts(trick[0][0], trick, obs.trump))

    def turn(self, obs: Observation, again: bool = False) -> None:
        """The trick so far, the person's hand and the numbered legal actions.

        The hand is shown when it changed since it was last, or scrolled away; ``again``
        shows everything (after ``?``).
        """
        if obs.phase is Phase.PLAY:
            self._trick_so_far(obs)
        if obs.phase is Phase.DUMMY and obs.dummy is not None and not self._dummy_shown:
            self._dummy_shown = True
            self.say(_("You take up the dummy: {cards}").format(
                cards=self.style.cards(obs.dummy)), 0)
        if again or self._hand_is_stale(obs):
            self._show_hand(obs)
        if obs.phase in (Phase.EXCHANGE, Phase.DUMMY):
            self.say("[dim]" + _("from the weakest card to the strongest:") + "[/]")
        self.say(self.choices(obs))

    def forced(self, obs: Observation, action: Action) -> None:
        """The person has one legal action: say which and why; it is played for them."""
        if action.kind is ActionKind.PLAY and action.card is not None:
            self._trick_so_far(obs)
            card = self.style.named(action.card, obs.trump)
            if len(obs.hand) == 1:
                why = _("your last card")
            else:
                assert obs.trump is not None
                led = effective_suit(obs.trick[0][1], obs.trump)
                why = (_("your only trump: you must follow suit") if led == obs.trump
                       else _("your only {suit}: you must follow suit").format(
                           suit=suit_one(led)))
            self.say(_("Only one card may be played: {card} ({why}). Playing it.").format(
                card=card, why=why), 0)
        else:
            self.say(_("Only one choice: {action}. Taking it.").format(
                action=f"[bold]{self.move(action)}[/]"), 0)

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
                entry = f"[cyan]{k}[/] {self._card(action.card)}"
                width = Text.from_markup(entry).cell_len
                if row and used + 3 + width > room:
                    lines.append("   ".join(row))
                    row, used = [], 0
                used += width + (3 if row else 0)
                row.append(entry)
            lines.append("   ".join(row))
            return "\n  ".join(lines)
        for k, action in enumerate(legal, 1):
            gloss = self._gloss(obs, action)
            line = f"[cyan]{k}[/] [bold]{self.move(action)}[/]"
            lines.append(f"{line}  [dim]{gloss}[/]" if gloss else line)
        return "\n  ".join(lines)

    def move(self, action: Action, named: bool = False) -> str:
        """An action as the person types it in their language (:func:`move_text`)."""
        return move_text(action, self.style, named)

    @staticmethod
    def card_words(card: Card) -> str:
        """What tells a card from another with the same letters: its suit in words."""
        return "" if card.suit is None else suit_name(card.suit)

    def _alone_words(self) -> str:
        return _({3: N_("without the dummy"), 4: N_("without your partner"),
                  5: N_("without calling a partner")}.get(self.names.players, ""))

    def _gloss(self, obs: Observation, action: Action) -> str:
        kind = action.kind
        if kind is ActionKind.PASS:
            return _("do not defend alone") if obs.phase is Phase.DEFEND else ""
        if kind is ActionKind.ORDER:
            suit = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
            assert suit is not None
            if obs.seat == obs.dealer:
                what = _("take it up")
            elif self.names.partner(obs.seat) == obs.dealer:
                what = _("assist")
            else:
                what = _("order it up")
            alone = f", {self._alone_words()}" if action.alone else ""
            trump = _("{suit} trump").format(suit=suit_name(suit)) + alone
            # TRANSLATORS: a bid's gloss, "order it up: hearts trump" (French: a space before ":")
            return _("{what}: {trump}").format(what=what, trump=trump)
        if kind is ActionKind.TRUMP and action.suit is not None:
            if current() != "en":  # the move itself names the suit in words
                return self._alone_words() if action.alone else ""
            alone = f", {self._alone_words()}" if action.alone else ""
            return _("{suit} trump").format(suit=suit_name(action.suit)) + alone
        if kind is ActionKind.DEFEND_ALONE:
            return (_("your partner sits out") if self.names.players == 4
                    else _("the other defender sits out"))
        return ""

    def prompt(self, obs: Observation) -> str:
        """The question of the person's turn."""
        phase = obs.phase
        left = len(obs.hand) - 5
        question = {
            Phase.BID_TURNUP: _("Order it up or pass?"),
            Phase.BID_SUIT: _("Name trump or pass?"),
            Phase.NAME_TRUMP: _("The joker is turned up: name trump."),
            Phase.EXCHANGE: (_("Discard a card; you must keep {card}.")
                             if obs.rules.dealer_must_take_up else
                             _("Discard a card (discarding {card} declines the exchange)."))
                            .format(card=self._card(obs.turnup)),
            Phase.DUMMY: (_("Discard five cards, one at a time.") if len(obs.hand) == 10
                          else ngettext("Discard {n} more.", "Discard {n} more.", left)
                          .format(n=left)),
            Phase.CALL_PARTNER: _("Call your partner: name a card you do not hold."),
            Phase.DEFEND: _("Defend alone?"),
        }.get(phase, _("Your play?") if obs.trick else
              _("Your lead to trick {number}?").format(number=len(obs.tricks) + 1))
        if phase is Phase.BID_TURNUP and obs.seat == obs.dealer:
            question = _("Take it up or pass?")
        if phase is Phase.BID_SUIT and all(a.kind is not ActionKind.PASS
                                           for a in obs.legal_actions):
            question = _("Stick the dealer: you must name trump.")
        keys = (_("? help, hint, q quit") if phase in (Phase.BID_SUIT, Phase.NAME_TRUMP)
                else _("? help, h hint, q quit"))  # where a suit is named, h is hearts
        return f"[bold]{question}[/] [dim]({keys})[/] › "

    def help(self, obs: Observation) -> None:
        """What the person may type, in plain words, for the choices of this turn."""
        say = self.say
        say(_("[bold]How to answer[/]: type the number of a choice, or type the move itself "
              "(upper or lower case)."), 0)
        if current() == "en":
            say(_("A card is its rank and its suit: [bold]9C[/] the nine of clubs, [bold]TD[/] "
                  "or [bold]10D[/] the ten of diamonds,"))
            say(_("[bold]JH[/] the jack of hearts, [bold]QS[/], [bold]KC[/], [bold]AD[/]; "
                  "[bold]JK[/] the joker. Suits: C clubs, D diamonds, H hearts, S spades."))
        else:
            for line in self._letters_help():
                say(line)
        if self.style.symbols:
            say(_("Cards show with symbols ({ten}, {jack}, {joker} the joker); type them "
                  "either way.").format(ten=self.style.card(Card.TD),
                                        jack=self.style.card(Card.JH),
                                        joker=self.style.card(Card.JK)))
        for line in self._moves_help(obs):
            say(line)
        naming = obs.phase in (Phase.BID_SUIT, Phase.NAME_TRUMP)
        say(_("[bold]{key}[/]  a hint: what the expert bot would do, and what each choice is "
              "worth").format(key=escape(move_word("hint")) if naming else "h"))
        say(_("[bold]q[/]  quit the game    [bold]?[/]  this help"))
        say(_("The rules, in words and with examples: {command}").format(
            command=f"[bold]{rules_hint(self.names.players)}[/]"), 0)
        if obs.phase is Phase.PLAY:
            say(_("Tricks so far: {tally}").format(tally=self._tally(obs)), 0)
        self.turn(obs, again=True)

    def _letters_help(self) -> list[str]:
        """What each letter means in the language, beside the notation's, and what
        happens where a letter reads two ways (French ``C``)."""
        lang = current()
        words = (N_("ace"), N_("king"), N_("queen"), N_("jack"))
        ranks = [f"[bold]{shown}[/] {_(word)}"
                 for rank, word in zip("AKQJ", words, strict=True)
                 for shown in (RANKS[lang][rank], *self._more_ranks(rank))]
        suits = [f"[bold]{letter}[/] {suit_name(suit)}" for suit in Suit
                 for letter in SUIT_LETTERS[lang].get(suit.char, ())]
        lines = [_("In this language: {ranks}, [bold]10[/] to [bold]7[/]; suits "
                   "{suits} (or their symbols and names). For example {card}.").format(
                       ranks=", ".join(ranks), suits=", ".join(suits),
                       card=f"[bold]{example_card()}[/]")]
        lines.append(_("The notation of the rules is understood too ([bold]9C[/], "
                       "[bold]QS[/], [bold]pass[/]; C clubs, D diamonds, H hearts, S "
                       "spades), and so are the two mixed ([bold]DS[/] the queen of "
                       "spades)."))
        twice = sorted({letter for letters in SUIT_LETTERS[lang].values()
                        for letter in letters if len(suit_readings(letter)) > 1})
        for letter in twice:
            read = suit_readings(letter)
            lines.append(_("[bold]{letter}[/] is {first}, or {second} in the notation: where "
                           "both are legal you are asked which, else the legal one is "
                           "taken.").format(letter=letter, first=suit_name(read[0]),
                                            second=suit_name(read[1])))
        return lines

    @staticmethod
    def _more_ranks(rank: str) -> tuple[str, ...]:
        return RANKS_TYPED[current()].get(rank, ())

    def _example_suit(self) -> Suit:
        """The suit of the examples: hearts, unless its letter reads two ways."""
        for suit in (Suit.HEARTS, Suit.SPADES):
            letters = SUIT_LETTERS[current()].get(suit.char, (suit.char,))
            if suit_readings(letters[0]) == [suit]:
                return suit
        return Suit.SPADES

    def _moves_help(self, obs: Observation) -> list[str]:
        """The moves of this turn, each with what it means, in the words of the
        language."""
        kinds = {a.kind for a in obs.legal_actions}
        suit = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        lines = []

        def bold(*words: str) -> str:
            return "[bold]" + escape(" ".join(move_word(w) for w in words)) + "[/]"

        if ActionKind.PASS in kinds and obs.phase is not Phase.DEFEND:
            lines.append(_("{word}  let the next player decide").format(word=bold("pass")))
        if ActionKind.ORDER in kinds and suit is not None:
            pick = (_("pick up the turned-up card") if obs.seat == obs.dealer
                    else _("the dealer picks up the turned-up card"))
            lines.append(_("{word}  make {suit} trump; {pick}").format(
                word=bold("order"), suit=suit_name(suit), pick=pick))
            if any(a.alone for a in obs.legal_actions):
                lines.append(_("{word}  the same, and play {alone}").format(
                    word=bold("order", "alone"), alone=self._alone_words()))
        if ActionKind.TRUMP in kinds:
            named = sorted({a.suit for a in obs.legal_actions if a.suit is not None})
            own = SUIT_LETTERS[current()]
            letters = ", ".join(own.get(s.char, (s.char,))[0] for s in named)
            example = self._example_suit()
            letter = own.get(example.char, (example.char,))[0]
            trump = escape(move_word("trump"))
            lines.append(_("{word}, or just {letter} or {name}  make {suit} trump (you may "
                           "name {letters})").format(
                word=f"[bold]{trump} {letter}[/]", letter=f"[bold]{letter}[/]",
                name=f"[bold]{suit_name(example)}[/]", suit=suit_name(example),
                letters=letters))
            if any(a.alone for a in obs.legal_actions):
                lines.append(_("{word}  the same, and play {alone}").format(
                    word=f"[bold]{trump} {letter} {escape(move_word('alone'))}[/]",
                    alone=self._alone_words()))
            lines.append(_("[bold]h[/] is hearts here, not the hint"))
        card = example_card()
        if ActionKind.DISCARD in kinds:
            nine = example_card(card=Card.parse("9C"))
            lines.append(_("{word} (or just {card})  put that card face down, out of the "
                           "deal").format(word=f"[bold]{escape(move_word('discard'))} {nine}[/]",
                                          card=f"[bold]{nine}[/]"))
        if ActionKind.CALL in kinds:
            ace = example_card(card=Card.AH)
            call = escape(move_word("call"))
            lines.append(_("{word} (or just {card})  whoever holds {card} is your secret "
                           "partner this deal").format(word=f"[bold]{call} {ace}[/]",
                                                       card=f"[bold]{ace}[/]"))
        if ActionKind.DEFEND_ALONE in kinds:
            lines.append(_("{word}  play against the maker by yourself; {other}  do "
                           "not").format(word=bold("defend", "alone"), other=bold("pass")))
        if ActionKind.PLAY in kinds:
            lines.append(_("a card, such as {card}  play it. You must follow the suit "
                           "led if you can. Trump comes first in your hand; its jack (the "
                           "right bower) and the other jack of its colour (the left bower, "
                           "which counts as a trump) are its highest cards.").format(
                               card=f"[bold]{card}[/]"))
        return lines

    def hint(self, obs: Observation, best: Action, values: dict[Action, float]) -> None:
        """The expert's choice and the value of each legal action (expected points for
        the person's side this deal), best first."""
        def name(action: Action) -> str:
            return self.move(action, named=True) if action.kind is ActionKind.PLAY \
                else f"[bold]{self.move(action, named=True)}[/]"

        if best.kind is ActionKind.PLAY:
            self.say(_("Hint: the expert would play {card}.").format(card=name(best)), 0)
        elif best.kind is ActionKind.TRUMP and best.suit is not None:
            self.say((_("Hint: the expert would name {suit} trump and go alone.") if best.alone
                      else _("Hint: the expert would name {suit} trump.")).format(
                suit=self.style.suit(best.suit)), 0)
        else:
            self.say(_("Hint: the expert would {action}.").format(action=name(best)), 0)
        ranked = sorted(values, key=lambda a: -values[a])
        cells = [f"{name(a)} {format_decimal(values[a], '+0.00;-0.00', locale=current())}"
                 for a in ranked]
        self.say(_("Values [dim](expected points for your side this deal)[/]: ")
                 + " · ".join(cells), 0)

    def refuse(self, message: str) -> None:
        """An answer that is not a legal action, and why (rich markup)."""
        self.say(f"[red]✗[/] {message}", 0)
