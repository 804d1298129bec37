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

from euchre.cards import Card, Suit, left_bower, right_bower
from euchre.cli.lang import N_, RANKS, SUIT_LETTERS, _, pgettext
from euchre.i18n import translation

__all__ = ["JOKER_SYMBOL", "SUIT_NAMES", "CardStyle", "card_role", "role_words", "suit_name",
           "suit_one"]

SUIT_NAMES: Final = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
"""The suits by :class:`Suit`, in English (:func:`suit_name`: in the current language)."""

_SUIT_ONE: Final = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))

_ROLES: Final = {
    "the joker": (N_("the joker"), N_("joker")),
    "the right bower": (N_("the right bower"), N_("right bower")),
    "the left bower": (N_("the left bower"), N_("left bower")),
}


def suit_name(suit: Suit, lang: str | None = None) -> str:
    """The suit in ``lang`` (default: the current language): ``hearts``, ``cœur``,
    ``Herz``, ``hjerter``.

    >>> from euchre.cli.lang import use
    >>> suit_name(Suit.HEARTS), use("de"), suit_name(Suit.HEARTS), use("en")
    ('hearts', 'de', 'Herz', 'en')
    """
    return _(SUIT_NAMES[suit]) if lang is None else translation(lang).gettext(SUIT_NAMES[suit])


def suit_one(suit: Suit, lang: str | None = None) -> str:
    """One card of the suit, as in "the highest heart".

    >>> suit_one(Suit.HEARTS), suit_one(Suit.CLUBS)
    ('heart', 'club')
    """
    return _(_SUIT_ONE[suit]) if lang is None else translation(lang).gettext(_SUIT_ONE[suit])


def role_words(role: str, short: bool = False, after_with: bool = False) -> str:
    """A :func:`card_role` in the current language; ``short``: without its article;
    ``after_with``: as it reads after "with" ("wins with JS, the left bower"), where
    German declines it (dem linken Bower).

    >>> from euchre.cli.lang import use
    >>> role_words("the left bower"), role_words("the left bower", short=True)
    ('the left bower', 'left bower')
    >>> use("de"), role_words("the left bower", after_with=True), use("en")
    ('de', 'dem linken Bower', 'en')
    """
    if after_with and not short:
        # TRANSLATORS: "West wins with JS, the left bower": the words after "with" and a card
        return {"the joker": pgettext("after with", "the joker"),
                "the right bower": pgettext("after with", "the right bower"),
                "the left bower": pgettext("after with", "the left bower")}[role]
    return _(_ROLES[role][short])

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
