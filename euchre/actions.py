"""Actions: typed objects for people, ints of one fixed action space for machines.

The text of an action is the RECORDS notation.  Every action has one id in
``range(NUM_ACTIONS)``, the same in every variant:

====================  ========================================
ids                   action
====================  ========================================
0 .. 32               ``play <card>`` (card id = action id)
33 .. 65              ``discard <card>``
66 .. 98              ``call <card>``
99                    ``pass``
100, 101              ``order``, ``order alone``
102 .. 105            ``trump C`` … ``trump S``
106 .. 109            ``trump C alone`` … ``trump S alone``
110                   ``defend alone``
====================  ========================================

>>> Action.parse('order alone')
Action.parse('order alone')
>>> Action.parse('10h').id, Action.from_id(20)
(19, Action.parse('play JH'))
>>> str(Action.parse('TRUMP ♠ Alone'))
'trump S alone'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from euchre.cards import CARDS, Card, Suit

__all__ = [
    "CALL",
    "DEFEND_ALONE",
    "DISCARD",
    "NUM_ACTIONS",
    "ORDER",
    "ORDER_ALONE",
    "PASS",
    "PLAY",
    "TRUMP",
    "TRUMP_ALONE",
    "Action",
    "ActionKind",
    "InvalidActionError",
    "bid_bits",
]

PLAY: Final = 0
DISCARD: Final = 33
CALL: Final = 66
PASS: Final = 99
ORDER: Final = 100
ORDER_ALONE: Final = 101
TRUMP: Final = 102
TRUMP_ALONE: Final = 106
DEFEND_ALONE: Final = 110
NUM_ACTIONS: Final = 111


def bid_bits(phase: int, players: int, down: int, stuck: bool) -> int:
    """The legal bids of a phase as bits over the ids from :data:`PASS` (bit ``i``: action
    ``PASS + i``), written once for :class:`~euchre.deal.Deal` and the compiled core.

    ``phase`` numbers the phases as :class:`~euchre.deal.Phase` orders them: 0, round 1:
    pass or order up, alone too but two-handed (RULES §4); 1, round 2: pass, unless the
    dealer is ``stuck`` (stick the dealer), or name a suit but the turned-``down`` one;
    2, a turned-up joker: the dealer names any suit (RULES §3); 6, a defender may defend
    alone or pass (RULES §7).  Other phases have no bids (0).

    >>> [PASS + i for i in range(12) if bid_bits(1, 2, 3, False) >> i & 1]
    [99, 102, 103, 104]
    """
    alone_ok = players != 2
    if phase == 0:
        return 0b111 if alone_ok else 0b11
    if phase == 1 or phase == 2:
        bits = 1 if phase == 1 and not stuck else 0
        for suit in range(4):
            if phase == 2 or suit != down:
                bits |= 1 << (TRUMP - PASS + suit)
                if alone_ok:
                    bits |= 1 << (TRUMP_ALONE - PASS + suit)
        return bits
    if phase == 6:
        return 1 | 1 << (DEFEND_ALONE - PASS)
    return 0


class InvalidActionError(ValueError):
    """Text that is not an action of the RECORDS notation; the message lists the forms.

    >>> Action.parse('bid 3')
    Traceback (most recent call last):
      ...
    euchre.actions.InvalidActionError: not an action: 'bid 3' (...); actions are pass, ...
    """


class ActionKind(enum.Enum):
    """What an action does; the value is its first word in RECORDS.

    >>> Action.parse('order alone').kind, Action.parse('JH').kind.value
    (<ActionKind.ORDER: 'order'>, 'play')
    """

    PASS = "pass"
    ORDER = "order"
    TRUMP = "trump"
    DISCARD = "discard"
    CALL = "call"
    DEFEND_ALONE = "defend alone"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Action:
    """One action; ``str`` gives the RECORDS text and ``repr`` pastes back as code.

    The same action made three ways, and its fields:

    >>> Action.trump('H', alone=True) == Action.parse('trump ♥ alone') == Action.from_id(108)
    True
    >>> a = Action.parse('trump H alone')
    >>> a.kind.name, a.suit, a.alone, a.card
    ('TRUMP', Suit.HEARTS, True, None)
    """

    kind: ActionKind
    card: Card | None = None
    suit: Suit | None = None
    alone: bool = False

    @property
    def id(self) -> int:
        """The action's int in the fixed action space (the table atop the module).

        >>> [Action.parse(text).id for text in ('play 9C', 'discard 9C', 'call 9C', 'pass')]
        [2, 35, 68, 99]
        """
        k = self.kind
        if k is ActionKind.PLAY:
            return PLAY + _card(self)
        if k is ActionKind.DISCARD:
            return DISCARD + _card(self)
        if k is ActionKind.CALL:
            return CALL + _card(self)
        if k is ActionKind.PASS:
            return PASS
        if k is ActionKind.ORDER:
            return ORDER_ALONE if self.alone else ORDER
        if k is ActionKind.TRUMP:
            if self.suit is None:
                raise InvalidActionError("'trump' needs a suit")
            return (TRUMP_ALONE if self.alone else TRUMP) + self.suit
        return DEFEND_ALONE

    @staticmethod
    def from_id(action_id: int) -> Action:
        """The action with this id; every id of ``range(NUM_ACTIONS)`` is one.

        >>> Action.from_id(110), Action.from_id(32)
        (Action.parse('defend alone'), Action.parse('play JK'))
        >>> all(Action.from_id(i).id == i for i in range(NUM_ACTIONS))
        True
        """
        if not 0 <= action_id < NUM_ACTIONS:
            raise InvalidActionError(
                f"action ids are 0 to {NUM_ACTIONS - 1}, not {action_id}"
            )
        return _BY_ID[action_id]

    @staticmethod
    def parse(text: str) -> Action:
        """Read the RECORDS notation, forgivingly: case, ``10``, suit symbols, a bare card.

        >>> Action.parse('discard 9c'), Action.parse('Call A♥')
        (Action.parse('discard 9C'), Action.parse('call AH'))
        """
        words = text.replace(",", " ").lower().split()
        try:
            return _parse_words(words)
        except ValueError as e:
            raise InvalidActionError(
                f"not an action: {text!r} ({e}); actions are pass, order [alone], "
                f"trump S [alone], discard C, call C, defend alone, play C or a card C"
            ) from None

    @staticmethod
    def play(card: Card | int | str) -> Action:
        """``play <card>``.

        >>> Action.play('10d'), Action.play(Card.JK)
        (Action.parse('play TD'), Action.parse('play JK'))
        """
        return _BY_ID[PLAY + _as_card(card)]

    @staticmethod
    def discard(card: Card | int | str) -> Action:
        """``discard <card>``: the dealer's exchange, or the dummy's five (three-handed).

        >>> str(Action.discard(Card.parse('9S')))
        'discard 9S'
        """
        return _BY_ID[DISCARD + _as_card(card)]

    @staticmethod
    def call(card: Card | int | str) -> Action:
        """``call <card>``: the five-handed partner call (RULES §6.3).

        >>> Action.call('AH').card
        Card.parse('AH')
        """
        return _BY_ID[CALL + _as_card(card)]

    @staticmethod
    def trump(suit: Suit | str, alone: bool = False) -> Action:
        """``trump <suit> [alone]``: naming trump in round 2, or after a turned-up joker.

        >>> Action.trump(Suit.CLUBS), Action.trump('s', alone=True)
        (Action.parse('trump C'), Action.parse('trump S alone'))
        """
        s = Suit.parse(suit) if isinstance(suit, str) else suit
        return _BY_ID[(TRUMP_ALONE if alone else TRUMP) + s]

    def __str__(self) -> str:
        k = self.kind
        if k in (ActionKind.PLAY, ActionKind.DISCARD, ActionKind.CALL):
            return f"{k.value} {self.card}"
        if k is ActionKind.TRUMP:
            return f"trump {self.suit}" + (" alone" if self.alone else "")
        if k is ActionKind.ORDER and self.alone:
            return "order alone"
        return str(k.value)

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def _card(action: Action) -> int:
    if action.card is None:
        raise InvalidActionError(f"'{action.kind.value}' needs a card")
    return int(action.card)


def _as_card(card: Card | int | str) -> int:
    return int(Card.parse(card)) if isinstance(card, str) else int(card)


def _parse_words(words: list[str]) -> Action:
    if not words:
        raise ValueError("it is empty")
    head, rest = words[0], words[1:]
    if head == "pass" and not rest:
        return _BY_ID[PASS]
    if head == "order":
        if not rest:
            return _BY_ID[ORDER]
        if rest == ["alone"]:
            return _BY_ID[ORDER_ALONE]
        raise ValueError("'order' may be followed only by 'alone'")
    if head == "trump":
        if not rest or len(rest) > 2 or (len(rest) == 2 and rest[1] != "alone"):
            raise ValueError("write 'trump H' or 'trump H alone'")
        return Action.trump(Suit.parse(rest[0]), alone=len(rest) == 2)
    if head == "defend" and rest == ["alone"]:
        return _BY_ID[DEFEND_ALONE]
    if head in ("play", "discard", "call"):
        if len(rest) != 1:
            raise ValueError(f"'{head}' takes one card")
        base = {"play": PLAY, "discard": DISCARD, "call": CALL}[head]
        return _BY_ID[base + Card.parse(rest[0])]
    if len(words) == 1:
        try:
            return _BY_ID[PLAY + Card.parse(head)]
        except ValueError:
            raise ValueError(f"{head!r} is neither an action nor a card") from None
    raise ValueError(f"unknown word {head!r}")


def _all_actions() -> tuple[Action, ...]:
    out: list[Action] = []
    for kind in (ActionKind.PLAY, ActionKind.DISCARD, ActionKind.CALL):
        out.extend(Action(kind, card=c) for c in CARDS)
    out.append(Action(ActionKind.PASS))
    out.append(Action(ActionKind.ORDER))
    out.append(Action(ActionKind.ORDER, alone=True))
    out.extend(Action(ActionKind.TRUMP, suit=s) for s in Suit)
    out.extend(Action(ActionKind.TRUMP, suit=s, alone=True) for s in Suit)
    out.append(Action(ActionKind.DEFEND_ALONE))
    assert len(out) == NUM_ACTIONS
    return tuple(out)


_BY_ID: Final = _all_actions()
