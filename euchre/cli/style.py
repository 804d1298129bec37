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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from euchre import wording
from euchre.cards import Card, Suit
from euchre.cli.lang import current
from euchre.wording import RANKS, SUIT_LETTERS, card_role

__all__ = ["JOKER_SYMBOL", "CardStyle", "role_words", "suit_name", "suit_one"]

def suit_name(suit: Suit, lang: str | None = None) -> str:
    """The suit in ``lang`` (default: the current language): ``hearts``, ``cœur``,
    ``Herz``, ``hjerter`` (:func:`euchre.wording.suit_name`).

    >>> from euchre.cli.lang import use
    >>> suit_name(Suit.HEARTS), use("de"), suit_name(Suit.HEARTS), use("en")
    ('hearts', 'de', 'Herz', 'en')
    """
    return wording.suit_name(suit, current() if lang is None else lang)


def suit_one(suit: Suit, lang: str | None = None) -> str:
    """One card of the suit, as in "the highest heart" (default: the current language).

    >>> suit_one(Suit.HEARTS), suit_one(Suit.CLUBS)
    ('heart', 'club')
    """
    return wording.suit_one(suit, current() if lang is None else lang)


def role_words(role: str, short: bool = False, after_with: bool = False) -> str:
    """A :func:`euchre.wording.card_role` in the current language
    (:func:`euchre.wording.role_words`); ``short``: without its article;
    ``after_with``: as it reads after "with".

    >>> from euchre.cli.lang import use
    >>> role_words("the left bower"), role_words("the left bower", short=True)
    ('the left bower', 'left bower')
    >>> use("de"), role_words("the left bower", after_with=True), use("en")
    ('de', 'dem linken Bower', 'en')
    """
    return wording.role_words(role, current(), short=short, after_with=after_with)


JOKER_SYMBOL: Final = "🃏"
"""The joker with ``--symbols`` (typed, it reads as ``JK``)."""

_RED: Final = "bold red"
_BLACK: Final = "bold"  # the terminal's own foreground: black is unreadable on dark themes
_JOKER: Final = "bold magenta"


@dataclass(frozen=True, slots=True)
class CardStyle:
    """Markup for cards and suits; ``symbols`` shows ``10♥`` instead of ``TH``.

    >>> CardStyle(symbols=True, colour=False).cards([Card.TS, Card.JK])
    '10♠ 🃏'
    >>> CardStyle(colour=False, ranks={"J": "V"}).card(Card.JH)  # French letters
    'VH'
    """

    symbols: bool = False
    colour: bool = True
    """Rich markup for the colours; off, plain text."""
    ranks: Mapping[str, str] = field(default_factory=dict)
    """The letters shown for ranks in the player's language (``{"J": "V"}`` in French);
    a rank not in it shows as typed."""
    suits: Mapping[str, str] = field(default_factory=dict)
    """Without symbols, the letters shown for suits in the player's language, by the
    notation's letter (``{"H": "C"}`` in French, cœur); a suit not in it shows as typed."""

    @classmethod
    def speaking(cls, lang: str, symbols: bool, colour: bool = True) -> CardStyle:
        """Cards as ``lang``'s players read and type them: their rank letters, and
        (without symbols) their suit letters.

        >>> CardStyle.speaking("fr", symbols=False, colour=False).cards([Card.JH, Card.AS])
        'VC AP'
        """
        suits = {char: letters[0] for char, letters in SUIT_LETTERS[lang].items()}
        return cls(symbols=symbols, colour=colour, ranks=RANKS[lang], suits=suits)

    def card(self, card: Card) -> str:
        """One card, coloured by its suit (the joker has a colour of its own).

        >>> CardStyle().card(Card.AS), CardStyle().card(Card.JK)
        ('[bold]AS[/]', '[bold magenta]JK[/]')
        """
        suit = card.suit
        if suit is None:
            return self._paint(_JOKER, JOKER_SYMBOL if self.symbols else "JK")
        if self.symbols:
            rank = "10" if card.rank_char == "T" else card.rank_char
            text = self.ranks.get(rank, rank) + suit.symbol
        else:
            # the language's own letters write the ten 10: French T is trèfle
            rank = "10" if card.rank_char == "T" and self.suits else card.rank_char
            text = self.ranks.get(rank, rank) + self.suits.get(suit.char, suit.char)
        return self._paint(_RED if suit.red else _BLACK, text)

    def _paint(self, colour: str, text: str) -> str:
        return f"[{colour}]{text}[/]" if self.colour else text

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces.

        >>> CardStyle(colour=False).cards([Card.AS, Card.JH])
        'AS JH'
        """
        return " ".join(self.card(c) for c in cards)

    def named(self, card: Card, trump: Suit | None, after_with: bool = False) -> str:
        """A card, and what it is when it is a bower or the joker: ``JS, the left bower``
        (``after_with``: as it reads after "with", see :func:`role_words`)."""
        role = card_role(card, trump)
        return (self.card(card) if role is None
                else f"{self.card(card)}, {role_words(role, after_with=after_with)}")

    def suit(self, suit: Suit) -> str:
        """A suit's name in its colour, with its symbol when ``symbols`` is on.

        >>> CardStyle(symbols=True).suit(Suit.HEARTS)
        '[bold red]♥ hearts[/]'
        """
        name = f"{suit.symbol} {suit_name(suit)}" if self.symbols else suit_name(suit)
        return self._paint(_RED if suit.red else _BLACK, name)
