"""How cards and suits look in the terminal: RECORDS notation, red and black.

Cards print in the RECORDS notation (``JH``, ``TC``, ``JK``), so what you read is what
you type; with ``symbols`` the suit letter becomes its symbol (``J♥``).  The colours are
rich markup; rich drops them when the terminal has none (or ``NO_COLOR`` is set).

>>> CardStyle().card(Card.JH)
'[bold red]JH[/]'
>>> CardStyle(symbols=True).cards([Card.AS, Card.JK])
'[bold]A♠[/] [bold magenta]JK[/]'
>>> CardStyle().suit(Suit.CLUBS)
'[bold]clubs[/]'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from euchre.cards import Card, Suit

__all__ = ["SUIT_NAMES", "CardStyle"]

SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

_RED: Final = "bold red"
_BLACK: Final = "bold"  # the terminal's own foreground: black is unreadable on dark themes
_JOKER: Final = "bold magenta"


@dataclass(frozen=True, slots=True)
class CardStyle:
    """Markup for cards and suits; ``symbols`` shows ``♥`` instead of ``H``."""

    symbols: bool = False

    def card(self, card: Card) -> str:
        """One card, coloured by its suit."""
        suit = card.suit
        if suit is None:
            return f"[{_JOKER}]JK[/]"
        text = card.rank_char + (suit.symbol if self.symbols else suit.char)
        return f"[{_RED if suit.red else _BLACK}]{text}[/]"

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces."""
        return " ".join(self.card(c) for c in cards)

    def suit(self, suit: Suit) -> str:
        """A suit's name in its colour, with its symbol when ``symbols`` is on."""
        name = f"{suit.symbol} {SUIT_NAMES[suit]}" if self.symbols else SUIT_NAMES[suit]
        return f"[{_RED if suit.red else _BLACK}]{name}[/]"
