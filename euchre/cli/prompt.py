"""Reading the person's answers: a number from the list, or the move itself (``JH``,
``pass``, ``trump H``; the notation of RECORDS.md, explained to players in docs/rules.md).

Answers come through :class:`Prompter`, which reads standard input with ``input()``; so a
test drives a whole game by feeding lines (typer's ``CliRunner(input=...)``).

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> legal = deal.legal_actions()
>>> interpret('2', legal, deal.phase), interpret('Order', legal, deal.phase)
(Action.parse('order'), Action.parse('order'))
>>> interpret('?', legal, deal.phase), interpret('h', legal, deal.phase)
(<Command.HELP: '?'>, <Command.HINT: 'h'>)
>>> interpret('9', legal, deal.phase)
Traceback (most recent call last):
...
euchre.actions.InvalidActionError: there is no choice 9: choose 1 to 2, or type the move itself
>>> interpret('9c', legal, Phase.EXCHANGE)
Action.parse('discard 9C')
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Sequence

from rich.console import Console

from euchre.actions import Action, ActionKind, InvalidActionError
from euchre.cards import Card, Suit, effective_suit, sort_hand, trick_strength
from euchre.cli.lang import _, ngettext
from euchre.cli.style import JOKER_SYMBOL
from euchre.deal import Observation, Phase

__all__ = ["Command", "Prompter", "QuitGame", "choices", "interpret", "weakest_first"]


class QuitGame(Exception):
    """The person leaves before the game is over: ``q``, end of input, or Ctrl-C."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        """The exit status: 0 for ``q``, 1 when the input ended, 130 for Ctrl-C."""


class Command(enum.Enum):
    """Answers that are not actions."""

    HELP = "?"
    HINT = "h"
    QUIT = "q"
    NOTHING = ""


_HELP = ("?", "help")
_HINT = ("h", "hint")
_QUIT = ("q", "quit", "exit")


def weakest_first(cards: Sequence[Card], trump: Suit) -> list[Card]:
    """Cards from the weakest to the strongest once trump is fixed: the plain cards by
    rank, then the trumps, the bowers and the joker last (RULES §2).

    >>> from euchre.cards import format_cards, parse_cards
    >>> format_cards(weakest_first(parse_cards('JH AS JD KH TC JK'), Suit.HEARTS))
    'TC AS KH JD JH JK'
    """
    shown = {c: k for k, c in enumerate(sort_hand(cards, trump))}

    def strength(card: Card) -> tuple[int, int]:
        return trick_strength(card, effective_suit(card, trump), trump), shown[card]

    return sorted(cards, key=strength)


def choices(obs: Observation) -> list[Action]:
    """The legal actions as listed to the person: cards to play in the order of the sorted
    hand; cards to discard from the weakest, so that a quick ``1`` never throws away a
    bower or the joker."""
    legal = list(obs.legal_actions)
    cards = [a.card for a in legal if a.card is not None]
    if len(cards) != len(legal):
        return legal
    if obs.phase in (Phase.EXCHANGE, Phase.DUMMY) and obs.trump is not None:
        order = weakest_first(cards, obs.trump)
    else:
        order = sort_hand(cards, obs.trump)
    rank = {c: k for k, c in enumerate(order)}
    return sorted(legal, key=lambda a: rank[a.card] if a.card is not None else 0)


def interpret(answer: str, legal: Sequence[Action], phase: Phase) -> Action | Command:
    """The action an answer means: the number of a listed legal action, or RECORDS text.

    A bare card discards it in the dealer's exchange and the dummy merge, and calls it in
    the partner call (a bare card otherwise plays it, as RECORDS says).  Raises
    :class:`InvalidActionError`, worded for the player, for text that is no action;
    whether the action is legal is the engine's to say.
    """
    text = answer.strip().replace(JOKER_SYMBOL, "JK")
    low = text.lower()
    if not text:
        return Command.NOTHING
    if low in _HELP:
        return Command.HELP
    if low in _HINT:
        return Command.HINT
    if low in _QUIT:
        return Command.QUIT
    if text.isdigit():
        k = int(text)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        raise InvalidActionError(ngettext(
            "there is no choice {k}: the only choice is 1, or type the move itself",
            "there is no choice {k}: choose 1 to {n}, or type the move itself",
            len(legal)).format(k=k, n=len(legal)))
    try:
        action = Action.parse(text)
    except InvalidActionError:
        raise InvalidActionError(_(
            "{text} is not a choice or a move: type the number of a choice, or the move "
            "itself (a card such as 9C or JH, or pass); ? explains").format(
                text=repr(text))) from None
    if action.kind is ActionKind.PLAY and len(text.split()) == 1 and action.card is not None:
        if phase in (Phase.EXCHANGE, Phase.DUMMY):
            return Action.discard(action.card)
        if phase is Phase.CALL_PARTNER:
            return Action.call(action.card)
    return action


class Prompter:
    """Asks the person questions on the console and reads the answers from ``input()``.

    ``interactive`` (default: standard input is a terminal) says whether it may ask
    questions the game does not need, like the offer to save: on a pipe it would block
    or eat the next line.  Off a terminal the answers are echoed, so a transcript reads
    as a conversation.
    """

    def __init__(self, console: Console, interactive: bool | None = None) -> None:
        self.console = console
        self.interactive = sys.stdin.isatty() if interactive is None else interactive
        self.ended = False
        """The input has ended (Ctrl-D): nothing more is read, so that a line typed
        afterwards can never be taken for an answer (or a file name)."""

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` (rich markup) and read one line; ``EOFError`` at the end, and
        at once for every question after it."""
        if self.ended:
            raise EOFError
        self.console.print(prompt, end="")
        try:
            answer = input()
        except EOFError:
            self.ended = True
            raise
        if not self.interactive:
            self.console.print(answer, markup=False, highlight=False)
        return answer.strip()

    def confirm(self, question: str) -> bool:
        """A yes/no question; no unless the answer starts with ``y`` (or the language's
        own yes: ``o``, ``j``)."""
        # TRANSLATORS: the letter that answers yes to a [y/N] question
        yes = _("y")
        answer = self.ask(f"{question} [dim]\\[{yes}/N][/] ").lower()
        return answer.startswith(("y", yes.lower()))
