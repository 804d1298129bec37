"""How cards and suits look in the terminal: the notation you type, red and black.

Cards print as you type them (``JH``, ``TC``, ``JK``), so what you read is what you
type; with ``symbols`` the suit letter becomes its symbol, the ten is ``10`` and the
joker is ``🃏`` (``J♥``, ``10♠``).  The colours are rich markup; rich drops them when the
terminal has none (or ``NO_COLOR`` is set).

>>> CardStyle().card(Card.JH)
'[bold red]JH[/]'
>>> CardStyle(symbols=True).cards([Card.TS, Card.JK])
'[bold]10♠[/] [bold magenta]🃏[/]'
>>> CardStyle().suit(Suit.CLUBS)
'[bold]clubs[/]'
>>> CardStyle().named(Card.JS, Suit.CLUBS), CardStyle().named(Card.AS, Suit.CLUBS)
('[bold]JS[/], the left bower', '[bold]AS[/]')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from euchre.cards import Card, Suit, left_bower, right_bower

__all__ = ["JOKER_SYMBOL", "SUIT_NAMES", "CardStyle", "card_role"]

SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

JOKER_SYMBOL: Final = "🃏"
"""The joker with ``--symbols`` (typed, it reads as ``JK``)."""

_RED: Final = "bold red"
_BLACK: Final = "bold"  # the terminal's own foreground: black is unreadable on dark themes
_JOKER: Final = "bold magenta"


def card_role(card: Card, trump: Suit | None) -> str | None:
    """``the right bower``, ``the left bower`` or ``the joker``; else ``None``.

    The jacks are bowers only once trump is fixed (RULES §2).

    >>> card_role(Card.JD, Suit.HEARTS), card_role(Card.JH, Suit.HEARTS), card_role(Card.JH, None)
    ('the left bower', 'the right bower', None)
    """
    if card == Card.JK:
        return "the joker"
    if trump is None:
        return None
    if card == right_bower(trump):
        return "the right bower"
    if card == left_bower(trump):
        return "the left bower"
    return None


@dataclass(frozen=True, slots=True)
class CardStyle:
    """Markup for cards and suits; ``symbols`` shows ``10♥`` instead of ``TH``."""

    symbols: bool = False
    colour: bool = True
    """Rich markup for the colours; off, plain text."""

    def card(self, card: Card) -> str:
        """One card, coloured by its suit."""
        suit = card.suit
        if suit is None:
            return self._paint(_JOKER, JOKER_SYMBOL if self.symbols else "JK")
        if self.symbols:
            rank = "10" if card.rank_char == "T" else card.rank_char
            text = rank + suit.symbol
        else:
            text = card.rank_char + suit.char
        return self._paint(_RED if suit.red else _BLACK, text)

    def _paint(self, colour: str, text: str) -> str:
        return f"[{colour}]{text}[/]" if self.colour else text

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces."""
        return " ".join(self.card(c) for c in cards)

    def named(self, card: Card, trump: Suit | None) -> str:
        """A card, and what it is when it is a bower or the joker: ``JS, the left bower``."""
        role = card_role(card, trump)
        return self.card(card) if role is None else f"{self.card(card)}, {role}"

    def suit(self, suit: Suit) -> str:
        """A suit's name in its colour, with its symbol when ``symbols`` is on."""
        name = f"{suit.symbol} {SUIT_NAMES[suit]}" if self.symbols else SUIT_NAMES[suit]
        return self._paint(_RED if suit.red else _BLACK, name)
