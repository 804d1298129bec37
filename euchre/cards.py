"""Cards, packs and the trump-aware tables (RULES §1, §2; RECORDS "Cards").

A card is a small int: ``suit * 8 + rank`` with ranks 7..A as 0..7, so each suit fills
one byte of a hand bitmask; the joker is 32.  A hand is an int bitmask of cards.

>>> Card.parse('10h')
Card.parse('TH')
>>> format_cards(parse_cards('js, 9♥ joker'))
'JS 9H JK'
>>> left_bower(Suit.HEARTS)
Card.parse('JD')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final

__all__ = [
    "JOKER",
    "RANK_CHARS",
    "SUIT_CHARS",
    "Card",
    "Suit",
    "card_mask",
    "cards_of",
    "effective_suit",
    "format_cards",
    "left_bower",
    "pack_mask",
    "parse_cards",
    "right_bower",
    "sort_hand",
    "suit_mask",
    "trick_strength",
]

RANK_CHARS: Final = "789TJQKA"
SUIT_CHARS: Final = "CDHS"
_SUIT_SYMBOLS: Final = "♣♦♥♠"
_JACK: Final = 4
_ACE: Final = 7


class Suit(enum.IntEnum):
    """A suit.  Clubs and spades are black, diamonds and hearts red.

    >>> Suit.parse('♥'), Suit.CLUBS.same_colour
    (Suit.HEARTS, Suit.SPADES)
    """

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``C D H S`` (any case), a suit symbol, or the suit's English name.

        >>> Suit.parse('h'), Suit.parse('♠'), Suit.parse('diamonds'), Suit.parse('Club')
        (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
        """
        t = text.strip().upper()
        for s in cls:
            if t in (SUIT_CHARS[s], _SUIT_SYMBOLS[s], s.name, s.name[:-1]):
                return s
        raise ValueError(f"not a suit: {text!r} (suits are C, D, H, S)")

    @property
    def char(self) -> str:
        """The one-letter RECORDS notation: ``C``, ``D``, ``H`` or ``S``.

        >>> Suit.HEARTS.char, str(Suit.HEARTS)
        ('H', 'H')
        """
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        """The suit symbol, for display.

        >>> ''.join(s.symbol for s in Suit)
        '♣♦♥♠'
        """
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Diamonds and hearts are red.

        >>> [s.char for s in Suit if s.red]
        ['D', 'H']
        """
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def same_colour(self) -> Suit:
        """The other suit of this colour ("next"): its jack is the left bower (RULES §2).

        >>> Suit.HEARTS.same_colour, Suit.SPADES.same_colour
        (Suit.DIAMONDS, Suit.CLUBS)
        """
        return Suit(self ^ 3)

    def __str__(self) -> str:
        return self.char

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


JOKER: Final = 32
_NUM_CARDS: Final = 33


class Card(enum.IntEnum):
    """A card as a small int; ``Card.parse`` reads the RECORDS notation.

    >>> Card.JH.rank_char, Card.JH.suit, str(Card.JK)
    ('J', Suit.HEARTS, 'JK')
    """

    _7C, _8C, _9C, TC, JC, QC, KC, AC = range(0, 8)
    _7D, _8D, _9D, TD, JD, QD, KD, AD = range(8, 16)
    _7H, _8H, _9H, TH, JH, QH, KH, AH = range(16, 24)
    _7S, _8S, _9S, TS, JS, QS, KS, AS = range(24, 32)
    JK = 32

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card: ``9C``, ``10h``, ``t♦``, ``JK`` or ``joker`` (case-insensitive).

        >>> Card.parse('9c'), Card.parse('10h'), Card.parse('t♦'), Card.parse('joker')
        (Card.parse('9C'), Card.parse('TH'), Card.parse('TD'), Card.parse('JK'))
        >>> Card.parse('1H')
        Traceback (most recent call last):
          ...
        ValueError: not a card: '1H' (rank 7 8 9 T J Q K A, then suit C D H S; or JK)
        """
        t = text.strip().upper()
        if t in ("JK", "JOKER", "BENNY"):
            return cls.JK
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) == 2 and t[0] in RANK_CHARS:
            try:
                suit = Suit.parse(t[1])
            except ValueError:
                pass
            else:
                return cls(suit * 8 + RANK_CHARS.index(t[0]))
        raise ValueError(
            f"not a card: {text!r} (rank 7 8 9 T J Q K A, then suit C D H S; or JK)"
        )

    @property
    def suit(self) -> Suit | None:
        """The printed suit; ``None`` for the joker.  The left bower's printed suit is
        not the suit it follows once trump is fixed (:func:`effective_suit`).

        >>> Card.JD.suit, Card.JK.suit
        (Suit.DIAMONDS, None)
        """
        return None if self == JOKER else Suit(self >> 3)

    @property
    def rank(self) -> int:
        """0 for a seven up to 7 for an ace; 8 for the joker.

        >>> Card.parse('7S').rank, Card.JH.rank, Card.AH.rank, Card.JK.rank
        (0, 4, 7, 8)
        """
        return 8 if self == JOKER else self & 7

    @property
    def rank_char(self) -> str:
        """The rank as one character of ``789TJQKA`` (``J`` for the joker).

        >>> Card.TC.rank_char, Card.JK.rank_char
        ('T', 'J')
        """
        return "J" if self == JOKER else RANK_CHARS[self & 7]

    @property
    def mask(self) -> int:
        """This card as a one-bit hand.

        >>> hand = Card.AS.mask | Card.JH.mask
        >>> bool(hand & Card.JH.mask), bool(hand & Card.JD.mask)
        (True, False)
        """
        return 1 << self

    def __str__(self) -> str:
        if self == JOKER:
            return "JK"
        return RANK_CHARS[self & 7] + SUIT_CHARS[self >> 3]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(_NUM_CARDS))


def card_mask(cards: Iterable[int]) -> int:
    """The bitmask of some cards: a hand.  Bit ``c`` is card ``c``; each suit is a byte.

    >>> hex(card_mask(parse_cards('9C AC')))
    '0x84'
    >>> format_cards(cards_of(card_mask(parse_cards('AS JH 9C'))))
    '9C JH AS'
    """
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest first (clubs, diamonds, hearts, spades, the joker).

    >>> list(cards_of(Card.JK.mask | Card.AS.mask | Card.TD.mask))
    [Card.parse('TD'), Card.parse('AS'), Card.parse('JK')]
    """
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def pack_mask(deck: int, joker: bool) -> int:
    """The pack of 24, 28 or 32 cards (9-A, 8-A, 7-A), with the joker if asked (RULES §1).

    >>> pack_mask(24, False).bit_count(), pack_mask(28, True).bit_count()
    (24, 29)
    >>> format_cards(cards_of(pack_mask(24, False) & suit_mask(Suit.CLUBS, None)))
    '9C TC JC QC KC AC'
    """
    lowest = {24: 2, 28: 1, 32: 0}[deck]
    per_suit = (0xFF >> lowest) << lowest
    m = per_suit | per_suit << 8 | per_suit << 16 | per_suit << 24
    return m | (1 << JOKER) if joker else m


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas, or a list of card texts.

    >>> parse_cards('AS, 10d jk') == parse_cards(['AS', '10d', 'jk'])
    True
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(p) for p in parts]


def format_cards(cards: Iterable[int]) -> str:
    """The canonical notation of some cards, separated by spaces: what
    :func:`parse_cards` reads back.

    >>> format_cards([Card.TH, 32, Card.parse('9c')])
    'TH JK 9C'
    """
    return " ".join(str(CARDS[c]) for c in cards)


def right_bower(trump: Suit) -> Card:
    """The jack of trump (RULES §2).

    >>> right_bower(Suit.CLUBS)
    Card.parse('JC')
    """
    return CARDS[trump * 8 + _JACK]


def left_bower(trump: Suit) -> Card:
    """The jack of the other suit of trump's colour; it belongs to trump (RULES §2)."""
    return CARDS[(trump ^ 3) * 8 + _JACK]


# --- Tables built once per trump --------------------------------------------------------
# Index 4 stands for "no trump yet": plain suits and ranks, A high (RULES §2).
NO_TRUMP: Final = 4


def _build_effective_suit() -> tuple[tuple[int, ...], ...]:
    tables = []
    for trump in range(5):
        row = []
        for c in range(_NUM_CARDS):
            if c == JOKER:
                row.append(trump)  # the joker belongs to trump; before trump it has no suit
            elif trump < 4 and c == (trump ^ 3) * 8 + _JACK:
                row.append(trump)
            else:
                row.append(c >> 3)
        tables.append(tuple(row))
    return tuple(tables)


EFFECTIVE_SUIT: Final = _build_effective_suit()
"""``EFFECTIVE_SUIT[trump][card]``: the suit a card belongs to for following and leading."""

SUIT_MASKS: Final = tuple(
    tuple(
        card_mask(c for c in range(_NUM_CARDS) if EFFECTIVE_SUIT[t][c] == s) for s in range(5)
    )
    for t in range(5)
)
"""``SUIT_MASKS[trump][suit]``: every card of that suit in the trump-aware sense."""


def _trump_order(trump: int, c: int) -> int:
    """Trump rank, higher is better: joker 10, right 9, left 8, then A..7 as 7..0."""
    if c == JOKER:
        return 10
    if c == trump * 8 + _JACK:
        return 9
    if c == (trump ^ 3) * 8 + _JACK:
        return 8
    return c & 7


def _build_strength() -> tuple[tuple[tuple[int, ...], ...], ...]:
    tables = []
    for trump in range(5):
        per_led = []
        for led in range(5):
            row = []
            for c in range(_NUM_CARDS):
                suit = EFFECTIVE_SUIT[trump][c]
                if trump < 4 and suit == trump:
                    row.append(20 + _trump_order(trump, c))
                elif suit == led:
                    row.append(1 + (c & 7))
                else:
                    row.append(0)
            per_led.append(tuple(row))
        tables.append(tuple(per_led))
    return tuple(tables)


TRICK_STRENGTH: Final = _build_strength()
"""``TRICK_STRENGTH[trump][led][card]``: the highest value in a trick wins it (RULES §8).

Trump cards rank above every card of the led suit, which ranks above every other card
(worth 0: it cannot win)."""


def effective_suit(card: int, trump: Suit | None) -> Suit:
    """The suit a card follows once trump is fixed: bowers and joker are trump (RULES §2).

    >>> effective_suit(Card.JD, Suit.HEARTS)
    Suit.HEARTS
    """
    s = EFFECTIVE_SUIT[NO_TRUMP if trump is None else trump][card]
    if s == NO_TRUMP:
        raise ValueError("the joker has no suit until trump is fixed")
    return Suit(s)


def suit_mask(suit: Suit, trump: Suit | None) -> int:
    """Every card of ``suit`` in the trump-aware sense, as a bitmask.

    Hearts trump: the jack of diamonds is a heart, and diamonds lack their jack.

    >>> format_cards(cards_of(suit_mask(Suit.HEARTS, Suit.HEARTS) & pack_mask(24, False)))
    'JD 9H TH JH QH KH AH'
    >>> format_cards(cards_of(suit_mask(Suit.DIAMONDS, Suit.HEARTS) & pack_mask(24, False)))
    '9D TD QD KD AD'
    """
    return SUIT_MASKS[NO_TRUMP if trump is None else trump][suit]


def trick_strength(card: int, led: Suit, trump: Suit) -> int:
    """How strongly a card bids for a trick led in ``led``; the highest wins (RULES §8).

    Spades trump, diamonds led: the nine of trump beats the ace led, and a club cannot win.

    >>> [trick_strength(c, Suit.DIAMONDS, Suit.SPADES) for c in (Card.AD, Card._9S, Card.KC)]
    [8, 22, 0]
    >>> trick_strength(Card.JC, Suit.DIAMONDS, Suit.SPADES)  # the left bower: 20 + 8
    28
    """
    return TRICK_STRENGTH[trump][led][card]


def sort_hand(cards: Iterable[int], trump: Suit | None = None) -> list[Card]:
    """Cards grouped by suit, trump first once it is fixed, highest first within a suit.

    >>> format_cards(sort_hand(parse_cards('9H JD AS JH KC'), Suit.HEARTS))
    'JH JD 9H KC AS'
    """
    t = NO_TRUMP if trump is None else int(trump)
    if trump is None:
        suit_order = [3, 2, 0, 1]  # spades, hearts, clubs, diamonds: colours alternate
    else:
        others = [s for s in range(4) if s not in (t, t ^ 3)]
        suit_order = [t, others[0], t ^ 3, others[1]]

    def key(c: int) -> tuple[int, int]:
        s = EFFECTIVE_SUIT[t][c]
        if s == NO_TRUMP:  # the joker before trump is fixed: show it first
            return (-1, 0)
        return (suit_order.index(s), -TRICK_STRENGTH[t][s][c])

    return sorted((CARDS[c] for c in cards), key=key)
