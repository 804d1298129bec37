"""One deal as a state machine: bidding, exchange, dummy, partner call, defence, play, score.

Every phase of RULES §3-§9 for every variant lives here, with the variants as
configuration (:class:`~euchre.rules.Rules`).  A state answers whose turn it is, the legal
actions (typed and as ints), applies an action or raises :class:`IllegalActionError`
leaving itself untouched, and gives each seat the observation RULES §12 allows.

>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> deal.phase, deal.to_move, [str(a) for a in deal.legal_actions()]
(Phase.BID_TURNUP, 1, ['pass', 'order'])
>>> _ = deal.apply('order'); _ = deal.apply('discard 9C')
>>> deal.phase, deal.trump, deal.to_move
(Phase.PLAY, Suit.DIAMONDS, 1)
>>> deal.apply('9S')
Traceback (most recent call last):
...
euchre.deal.IllegalActionError: seat 1 does not hold 9S (RULES §8): 'play 9S' is not legal;
legal: play AC, play 9D, play TD, play JD, play QD
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Final

from euchre.actions import (
    CALL,
    DEFEND_ALONE,
    DISCARD,
    NUM_ACTIONS,
    ORDER_ALONE,
    PASS,
    PLAY,
    TRUMP,
    TRUMP_ALONE,
    Action,
    bid_bits,
)
from euchre.cards import (
    CARDS,
    EFFECTIVE_SUIT,
    JOKER,
    NO_TRUMP,
    SUIT_MASKS,
    TRICK_STRENGTH,
    Card,
    Suit,
    card_mask,
    cards_of,
    format_cards,
    pack_mask,
    sort_hand,
)
from euchre.notation import DealRecord, card_value, card_values
from euchre.refusals import Refused
from euchre.rules import Rules, describe_value
from euchre.scoring import deal_points, makers_of
from euchre.sides import (
    callable_cards,
    first_lead_after,
    lone_defence_out,
    next_defender,
)

if TYPE_CHECKING:
    from euchre import core

__all__ = [
    "Deal",
    "DealResult",
    "Effect",
    "Event",
    "IllegalActionError",
    "Observation",
    "Phase",
    "PublicObservation",
    "Trick",
    "WonBy",
    "deal_points",
    "won_by",
]


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message names the rule and the choices.
    The deal is left as it was.

    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
    >>> deal.apply('call AH')
    Traceback (most recent call last):
      ...
    euchre.deal.IllegalActionError: ... 'call AH' is not legal; legal: pass, order, order alone
    >>> deal.actions
    []
    """


class Phase(enum.Enum):
    """The phases of a deal, in order (RULES §4-§8); a phase a variant lacks is skipped.

    >>> [phase.name for phase in Phase][:3], Phase.CALL_PARTNER.value
    (['BID_TURNUP', 'BID_SUIT', 'NAME_TRUMP'], 'partner call')
    """

    BID_TURNUP = "bidding, round 1"
    BID_SUIT = "bidding, round 2"
    NAME_TRUMP = "joker turned up"
    EXCHANGE = "dealer's exchange"
    DUMMY = "dummy merge"
    CALL_PARTNER = "partner call"
    DEFEND = "defending alone"
    PLAY = "play"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


_PHASES: Final = tuple(Phase)
(_BID1, _BID2, _NAME, _EXCHANGE, _DUMMY, _CALL, _DEFEND, _PLAY, _OVER) = range(9)

# Packed history entries: seat * _SEAT + action id.
_SEAT: Final = 128

# ids of the cards of a mask, by 11-bit chunk: _IDS[base][chunk][bits] (see _ids).
_CHUNK: Final = 11
_CHUNK_MASK: Final = (1 << _CHUNK) - 1


def _build_id_tables() -> dict[int, tuple[tuple[list[int], ...], ...]]:
    out = {}
    for base in (PLAY, DISCARD, CALL, PASS):
        chunks = []
        for k in range(3):
            chunks.append(tuple(
                [base + k * _CHUNK + i for i in range(_CHUNK) if bits >> i & 1]
                for bits in range(1 << _CHUNK)
            ))
        out[base] = tuple(chunks)
    return out


_IDS: Final = _build_id_tables()


def _ids(mask: int, base: int) -> list[int]:
    t0, t1, t2 = _IDS[base]
    return t0[mask & _CHUNK_MASK] + t1[mask >> _CHUNK & _CHUNK_MASK] + t2[mask >> 22]


_P0, _P1, _P2 = _IDS[PLAY]  # the play ids, unpacked for the hot path

_BIDS: Final[dict[tuple[int, int, int, bool], list[int]]] = {}
"""The legal bids (:func:`euchre.actions.bid_bits`) by phase, players, the suit bid in
round 1 and whether the dealer is stuck: worked out once each."""


_SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True, slots=True)
class Event:
    """One action taken: by whom, and what (``None`` where the seat may not see it)."""

    seat: int
    action: Action | None

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.action if self.action else 'discard (face down)'}"


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in play order with their seats, who won.

    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> _ = deal.apply('order'), deal.apply('discard 9C'), deal.apply('AC'), deal.apply('KC')
    >>> deal.tricks
    (Trick(leader=1, cards=((1, Card.parse('AC')), (0, Card.parse('KC'))), winner=1),)
    """

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int


class WonBy(enum.Enum):
    """Why a trick's winner won it (RULES §8), as the narrator says it."""

    HIGHEST_LED = "highest of the led suit"
    """No trump was played: the highest card of the suit led wins."""
    TRUMPED = "trumped"
    """A suit other than trump was led and one trump was played: it wins."""
    HIGHEST_TRUMP = "highest trump"
    """Trump was led, or several trumps were played: the highest trump wins."""

    def __repr__(self) -> str:
        return f"WonBy.{self.name}"


def won_by(cards: Sequence[tuple[int, Card]], winner: int, trump: Suit) -> WonBy:
    """Why ``winner`` took the trick of ``cards`` (seat and card, in play order) with
    ``trump`` (RULES §8).

    >>> won_by(((0, Card.parse('AS')), (1, Card.parse('9H'))), 1, Suit.HEARTS)
    WonBy.TRUMPED
    """
    effective = EFFECTIVE_SUIT[trump]
    best = next(c for s, c in cards if s == winner)
    if effective[best] != trump:
        return WonBy.HIGHEST_LED
    if effective[cards[0][1]] != trump and sum(effective[c] == trump for _, c in cards) == 1:
        return WonBy.TRUMPED
    return WonBy.HIGHEST_TRUMP


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended (RECORDS ``euchre replay --json``)."""

    trump: Suit | None
    maker: int | None
    alone: bool
    lone_defender: int | None
    partner: int | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    complete: bool
    thrown_in: bool = False

    @property
    def makers(self) -> tuple[int, ...]:
        """The maker's side as scored (RULES §9): the maker, the partner opposite
        four-handed (even sitting out), the called card's holder five-handed."""
        return makers_of(len(self.tricks), self.maker, self.partner)

    @property
    def makers_tricks(self) -> int:
        """Tricks taken by the maker's side.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order'), deal.apply('discard 9C')
        >>> while not deal.is_over:
        ...     _ = deal.apply(deal.legal_action_ids()[0])
        >>> deal.result.makers, deal.result.makers_tricks, deal.result.outcome
        ((1,), 4, 'made')
        """
        return sum(self.tricks[s] for s in self.makers)

    @property
    def outcome(self) -> str:
        """``"made"``, ``"march"``, ``"euchred"``, ``"thrown in"`` or ``"unfinished"``.

        >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
        >>> deal.result.outcome
        'unfinished'
        >>> for _ in range(4):  # everyone passes twice: the cards are thrown in
        ...     _ = deal.apply('pass')
        >>> deal.result.outcome, deal.result.points
        ('thrown in', (0, 0))
        """
        if self.thrown_in:
            return "thrown in"
        if not self.complete:
            return "unfinished"
        t = self.makers_tricks
        return "march" if t == 5 else "made" if t >= 3 else "euchred"

    def to_json(self) -> dict[str, Any]:
        """The RECORDS replay object (``euchre replay --json``): suits as letters, lists
        for tuples.

        >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
        >>> deal.result.to_json()
        {'trump': None, 'maker': None, 'alone': False, 'lone_defender': None, 'partner': None,
         'tricks': [0, 0], 'points': [0, 0], 'complete': False}
        """
        return {
            "trump": None if self.trump is None else self.trump.char,
            "maker": self.maker,
            "alone": self.alone,
            "lone_defender": self.lone_defender,
            "partner": self.partner,
            "tricks": list(self.tricks),
            "points": list(self.points),
            "complete": self.complete,
        }


@dataclass(frozen=True, slots=True)
class Effect:
    """What one action did, as :meth:`Deal.apply` returns it and :attr:`Deal.effects`
    keeps it: the action and its seat, and whatever it fixed or ended.

    Only what the action decided is set; the rest keeps its default.  ``action`` is the
    action itself, a discard included: hide it from seats that may not see it (RULES §12).

    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> deal.apply('order')
    Effect(seat=1, action=Action.parse('order'), phase=Phase.BID_TURNUP,
           trump=Suit.DIAMONDS, maker=1)
    """

    seat: int
    """The seat that acted."""
    action: Action
    """What it did."""
    phase: Phase
    """The phase the action was taken in."""
    trump: Suit | None = None
    """Trump, when this action fixed it (RULES §3, §4)."""
    maker: int | None = None
    """The maker, when this action fixed trump."""
    alone: bool = False
    """The maker declared alone with this action (RULES §4)."""
    sitting_out: tuple[int, ...] = ()
    """Seats that lay their hand down because of this action (RULES §4, §7)."""
    partner: int | None = None
    """Five-handed: the partner, when this action played the called card and so showed
    the table who holds it (RULES §6.3)."""
    trick: Trick | None = None
    """The trick this action completed (RULES §8)."""
    won_by: WonBy | None = None
    """Why the trick's winner won it."""
    result: DealResult | None = None
    """The deal's result, when this action ended the deal (RULES §4, §9)."""

    def __repr__(self) -> str:
        parts = [f"seat={self.seat!r}", f"action={self.action!r}", f"phase={self.phase!r}"]
        for name, default in _EFFECT_DEFAULTS:
            value = getattr(self, name)
            if value != default:
                parts.append(f"{name}={value!r}")
        return f"Effect({', '.join(parts)})"


_EFFECT_DEFAULTS: Final = (
    ("trump", None), ("maker", None), ("alone", False), ("sitting_out", ()),
    ("partner", None), ("trick", None), ("won_by", None), ("result", None),
)

# Effects of actions that decide nothing, shared: key phase * _PLAIN_KEY + history entry.
_PLAIN: dict[int, Effect] = {}
_PLAIN_KEY: Final = 1024


def _plain(key: int) -> Effect:
    phase, entry = divmod(key, _PLAIN_KEY)
    seat, a = divmod(entry, 128)
    effect = _PLAIN[key] = Effect(seat, Action.from_id(a), _PHASES[phase])
    return effect


# Building a record on the hot path (every completed trick) through the frozen dataclass's
# __init__ costs about twice setting its slots directly, which is what these do; the
# property tests compare their records with ones built the ordinary way.
_new = object.__new__
(_E_SEAT, _E_ACTION, _E_PHASE, _E_TRUMP, _E_MAKER, _E_ALONE, _E_OUT, _E_PARTNER, _E_TRICK,
 _E_WHY, _E_RESULT) = (Effect.__dict__[f.name].__set__ for f in fields(Effect))
_T_LEADER, _T_CARDS, _T_WINNER = (Trick.__dict__[f.name].__set__ for f in fields(Trick))
_SUITS: Final = tuple(Suit)


def _trick_effect(seat: int, action: Action, partner: int | None, trick: Trick, why: WonBy,
                  result: DealResult | None) -> Effect:
    e = _new(Effect)
    _E_SEAT(e, seat)
    _E_ACTION(e, action)
    _E_PHASE(e, Phase.PLAY)
    _E_TRUMP(e, None)
    _E_MAKER(e, None)
    _E_ALONE(e, False)
    _E_OUT(e, ())
    _E_PARTNER(e, partner)
    _E_TRICK(e, trick)
    _E_WHY(e, why)
    _E_RESULT(e, result)
    return e


def _trick(leader: int, cards: tuple[tuple[int, Card], ...], winner: int) -> Trick:
    t = _new(Trick)
    _T_LEADER(t, leader)
    _T_CARDS(t, cards)
    _T_WINNER(t, winner)
    return t


@dataclass(frozen=True, slots=True)
class PublicObservation:
    """What everyone at the table sees, a spectator included (RULES §12): no hand, no
    discard, the five-handed partner only once the called card is played.

    A seat's :class:`Observation` is this and what that seat alone may know.
    """

    rules: Rules
    dealer: int
    phase: Phase
    to_move: int | None
    turnup: Card
    turnup_taken: bool | None
    """``None`` while round 1 is open; ``True`` once ordered up; ``False`` once turned down."""
    trump: Suit | None
    maker: int | None
    alone: bool
    called: Card | None
    partner: int | None
    """The five-handed partner, once known to whoever looks: to everyone once the called
    card is played; to its holder (in its :class:`Observation`) from the start."""
    lone_defender: int | None
    sitting_out: tuple[int, ...]
    events: tuple[Event, ...]
    """Every action; a discard's ``action`` is ``None`` (face down) unless the seat that
    looks made it."""
    hand_sizes: tuple[int, ...]
    """The cards each seat holds: the dealer six in the exchange, the three-handed maker
    hand and dummy while discarding (RULES §5, §6)."""
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    result: DealResult | None


@dataclass(frozen=True, slots=True)
class Observation(PublicObservation):
    """What one seat may know (RULES §12) and nothing more: what the table sees
    (:class:`PublicObservation`) and the seat's own cards, discards and choices.

    Another seat's hand, the kitty, the dummy (unless this seat is the maker who took
    it) and other seats' discards never appear: a hidden discard shows as an
    :class:`Event` whose action is ``None``.
    """

    seat: int
    hand: tuple[Card, ...]
    discards: tuple[Card, ...]
    dummy: tuple[Card, ...] | None
    legal_actions: tuple[Action, ...]


class Deal:
    """The state of one deal.  Build it with :meth:`random`, :meth:`from_cards` or
    :meth:`from_record`; drive it with :meth:`legal_actions` and :meth:`apply`."""

    CACHE_SLOTS: ClassVar[frozenset[str]] = frozenset({"_legal", "_legal_at"})
    """The slots that keep what was computed of the current state (the legal choices),
    not the state: a refused or checked action may fill them, nothing else changes."""

    __slots__ = (
        "_active",
        "_alone",
        "_best",
        "_bids",
        "_called",
        "_discards",
        "_dummy",
        "_dummy_left",
        "_effects",
        "_follow",
        "_forced_alone",
        "_hands",
        "_history",
        "_leader",
        "_led",
        "_legal",
        "_legal_at",
        "_lone_defender",
        "_maker",
        "_next",
        "_out",
        "_partner",
        "_phase",
        "_row",
        "_taken",
        "_trick",
        "_trick_no",
        "_tricks",
        "_trump",
        "_turn",
        "_winner",
        "dealer",
        "dealt",
        "dealt_dummy",
        "kitty",
        "n",
        "pattern",
        "rules",
        "scores",
        "turnup",
    )

    rules: Rules
    n: int
    dealer: int
    dealt: tuple[int, ...]
    dealt_dummy: int | None
    turnup: Card
    kitty: tuple[Card, ...]
    pattern: tuple[int, int]
    scores: tuple[int, ...]

    # -- construction --------------------------------------------------------------------
    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[int],
        turnup: int,
        kitty: Sequence[int],
        dummy: int | None = None,
        pattern: tuple[int, int] = (3, 2),
        scores: Sequence[int] | None = None,
    ) -> None:
        """A deal from hand bitmasks; prefer :meth:`random` or :meth:`from_cards`."""
        n = rules.players
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.dealt = tuple(hands)
        self.dealt_dummy = dummy
        self.turnup = CARDS[turnup]
        self.kitty = tuple(CARDS[c] for c in kitty)
        self.pattern = pattern
        self.scores = tuple(scores) if scores is not None else (0,) * n
        self._hands = list(hands)
        self._dummy = dummy or 0
        self._history: list[int] = []
        self._effects: list[Effect] = []
        self._legal: list[int] = []
        self._legal_at = -1
        self._bids = 0
        self._trump = NO_TRUMP
        self._maker = -1
        self._alone = False
        self._forced_alone = False
        self._taken = False
        self._called = -1
        self._partner = -1
        self._lone_defender = -1
        self._out = 0
        self._discards: list[list[int]] = [[] for _ in range(n)]
        self._dummy_left = 0
        self._trick: list[int] = []
        self._trick_no = 0
        self._tricks = [0] * n
        self._led = NO_TRUMP
        self._follow = 0
        self._row: tuple[int, ...] = ()
        self._best = -1
        self._winner = -1
        self._leader = -1
        self._next: list[int] = []
        self._active = n
        self._turn = (dealer + 1) % n
        if turnup == JOKER and rules.joker_suit is None:
            self._phase = _NAME  # the dealer names trump; bidding is skipped (RULES §3)
            self._turn = dealer
        else:
            self._phase = _BID1

    @classmethod
    def random(
        cls,
        rules: Rules,
        dealer: int = 0,
        seed: int | random.Random | None = None,
        scores: Sequence[int] | None = None,
    ) -> Deal:
        """Shuffle and deal (RULES §3); the same seed gives the same deal.

        >>> Deal.random(Rules(players=4), dealer=1, seed=7).turnup
        Card.parse('JS')
        """
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        cards = list(_pack_cards(rules))
        rng.shuffle(cards)
        n = rules.players
        first = 3 if rng.random() < 0.5 else 2
        pattern = (first, 5 - first)
        nh = rules.hands
        masks = [0] * nh  # in dealing order, starting at the dealer's left
        pos = 0
        for size in pattern:
            for k in range(nh):
                for c in cards[pos:pos + size]:
                    masks[k] |= 1 << c
                pos += size
        hands = [0] * n
        dummy = None
        if n == 3:
            # the dummy sits at the dealer's right: dealt third, before the dealer
            order = [(dealer + 1) % 3, (dealer + 2) % 3, -1, dealer]
        else:
            order = [(dealer + 1 + k) % n for k in range(n)]
        for k, seat in enumerate(order):
            if seat < 0:
                dummy = masks[k]
            else:
                hands[seat] = masks[k]
        turnup = cards[5 * nh]
        return cls(rules, dealer, hands, turnup, cards[5 * nh + 1:], dummy, pattern, scores)

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        dealer: int,
        hands: Sequence[str | Iterable[int | str]],
        turnup: str | int,
        kitty: str | Iterable[int | str] | None = None,
        dummy: str | Iterable[int | str] | None = None,
        scores: Sequence[int] | None = None,
        pattern: tuple[int, int] = (3, 2),
    ) -> Deal:
        """A deal from explicit cards; the kitty defaults to the rest of the pack.

        A card is its text (``"JH"``) or its number (``Card.JH``); a list of cards may be
        one text (``"9C TC JC"``).  Refused with a sentence when a value has the wrong type
        or the cards are not exactly one pack of these rules.

        >>> Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', '9C 9D TD JD QD'], turnup='KD')
        Traceback (most recent call last):
          ...
        ValueError: 9C is dealt twice
        """
        n = rules.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"'dealer' must be a seat number from 0 to {n - 1}, "
                             f"not {describe_value(dealer)}")
        if isinstance(hands, str | Mapping) or not isinstance(hands, Sequence):
            raise ValueError(f"'hands' must be a list of {n} hands, not {describe_value(hands)}")
        if len(hands) != n:
            raise ValueError(f"{n} players need {n} hands, not {len(hands)}")
        parsed = [card_values(h, f"'hands[{seat}]'") for seat, h in enumerate(hands)]
        for seat, h in enumerate(parsed):
            if len(h) != 5:
                raise ValueError(f"seat {seat} holds {len(h)} cards, not 5 (RULES §3)")
        d = None if dummy is None else card_values(dummy, "'dummy'")
        if n == 3 and d is None:
            raise ValueError("three-handed needs a dummy of 5 cards (RULES §3)")
        if n != 3 and d:
            raise ValueError("only three-handed euchre has a dummy (RULES §3)")
        if d is not None and len(d) != 5:
            raise ValueError(f"the dummy holds {len(d)} cards, not 5 (RULES §3)")
        t = card_value(turnup, "'turnup'")
        used = [c for h in parsed for c in h] + (d or []) + [t]
        pack = pack_mask(rules.deck, rules.joker)
        seen = 0
        for c in used:
            if not (pack >> c) & 1:
                raise ValueError(f"{CARDS[c]} is not in the pack of these rules "
                                 f"({rules.deck} cards{' and the joker' if rules.joker else ''})")
            if (seen >> c) & 1:
                raise ValueError(f"{CARDS[c]} is dealt twice")
            seen |= 1 << c
        rest = pack & ~seen
        if kitty is None:
            k: list[int] = list(cards_of(rest))
        else:
            k = card_values(kitty, "'kitty'")
            if card_mask(k) != rest or len(k) != rest.bit_count():
                raise ValueError(
                    f"the kitty must be the rest of the pack: {format_cards(cards_of(rest))}"
                )
        return cls(rules, dealer, [card_mask(h) for h in parsed], t, k,
                   None if d is None else card_mask(d), pattern, scores)

    def copy(self) -> Deal:
        """A cheap, independent copy.

        >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
        >>> trial = deal.copy()
        >>> _ = trial.apply('pass')
        >>> len(trial.actions), len(deal.actions)
        (1, 0)
        """
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = self._hands.copy()
        other._history = self._history.copy()
        other._effects = self._effects.copy()
        other._discards = [d.copy() for d in self._discards]
        other._trick = self._trick.copy()
        other._tricks = self._tricks.copy()
        return other

    __copy__ = copy

    # -- what the state answers ------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The current phase.

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> _ = deal.apply('pass'), deal.apply('order alone')  # seat 2 orders up, alone
        >>> deal.phase  # the dealer sits out: no exchange
        Phase.PLAY
        """
        return _PHASES[self._phase]

    @property
    def is_over(self) -> bool:
        """Five tricks played, or the cards thrown in.

        >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
        >>> for _ in range(4):
        ...     _ = deal.apply('pass')
        >>> deal.is_over, deal.to_move, deal.result.points
        (True, None, (0, 0))
        """
        return self._phase == _OVER

    @property
    def to_move(self) -> int | None:
        """The seat whose turn it is; ``None`` once the deal is over.

        >>> deal = Deal.random(Rules(players=4), dealer=3, seed=1)
        >>> deal.to_move  # the dealer's left bids first
        0
        """
        return None if self._phase == _OVER else self._turn

    @property
    def trump(self) -> Suit | None:
        """Trump once fixed.

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> _ = deal.apply('pass'), deal.apply('order alone')  # seat 2 orders up, alone
        >>> deal.turnup, deal.trump
        (Card.parse('JD'), Suit.DIAMONDS)
        """
        return None if self._trump == NO_TRUMP else Suit(self._trump)

    @property
    def maker(self) -> int | None:
        """The seat that fixed trump.

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> _ = deal.apply('pass'), deal.apply('order alone')  # seat 2 orders up, alone
        >>> deal.maker, deal.alone
        (2, True)
        """
        return None if self._maker < 0 else self._maker

    @property
    def alone(self) -> bool:
        """The maker plays alone: declared, or (five-handed) forced by a buried card."""
        return self._alone or self._forced_alone

    @property
    def called(self) -> Card | None:
        """The five-handed called card.

        >>> deal = Deal.random(Rules(players=5), dealer=0, seed=2)
        >>> _ = deal.apply('order'), deal.apply('discard TC')  # seat 1 makes; the dealer discards
        >>> _ = deal.apply('call 8C')
        >>> deal.called, deal.partner  # the engine knows the holder; the players do not yet
        (Card.parse('8C'), 3)
        """
        return None if self._called < 0 else CARDS[self._called]

    @property
    def partner(self) -> int | None:
        """The five-handed partner (the called card's holder), known to the engine.

        See :attr:`called`; four-handed the partner sits opposite and this is ``None``:

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> _ = deal.apply('order')
        >>> deal.partner, deal.makers
        (None, (1, 3))
        """
        return None if self._partner < 0 else self._partner

    @property
    def makers(self) -> tuple[int, ...]:
        """The maker's side as scored (RULES §9): the maker, the partner opposite
        four-handed (even sitting out), the called card's holder five-handed (known to the
        engine, not yet to the players); empty before trump is fixed."""
        return makers_of(self.n, self.maker, self.partner)

    @property
    def leader(self) -> int | None:
        """Who led the trick in progress, or leads the next one (RULES §8); ``None``
        before the play.

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> _ = deal.apply('pass'), deal.apply('order alone')  # seat 2 orders up, alone
        >>> deal.leader  # the first seat at the dealer's left that plays
        1
        """
        return self._leader if self._phase in (_PLAY, _OVER) and self._leader >= 0 else None

    @property
    def lone_defender(self) -> int | None:
        """The defender who declared alone.

        >>> deal = Deal.random(Rules(players=3), dealer=0, seed=3)
        >>> _ = deal.apply('order')  # seat 1 makes; the dealer exchanges, seat 1 takes the dummy
        >>> while deal.phase is not Phase.DEFEND:
        ...     _ = deal.apply(deal.legal_action_ids()[0])
        >>> [str(action) for action in deal.legal_actions()]
        ['pass', 'defend alone']
        >>> _ = deal.apply('defend alone')
        >>> deal.lone_defender, deal.sitting_out
        (2, (0,))
        """
        return None if self._lone_defender < 0 else self._lone_defender

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """Seats that lay their hand down this deal (a lone player's partner).

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> _ = deal.apply('pass'), deal.apply('order alone')  # seat 2 orders up, alone
        >>> deal.sitting_out  # the maker's partner, the dealer
        (0,)
        """
        return tuple(s for s in range(self.n) if self._out >> s & 1)

    @property
    def turnup_suit(self) -> Suit | None:
        """The suit bid in round 1: the turn-up's, or the fixed suit of a turned-up joker.

        >>> deal = Deal.from_cards(Rules(players=4, joker=True, joker_turnup='suit:S'),
        ...     dealer=0, hands=['9C TC JC QC KC', 'AC 9D TD JD QD', 'KD AD 9H TH QH',
        ...                      'KH AH 9S TS JS'], turnup='JK')
        >>> deal.turnup_suit, deal.phase
        (Suit.SPADES, Phase.BID_TURNUP)
        """
        if self.turnup == JOKER:
            return self.rules.joker_suit
        return Suit(self.turnup >> 3)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks won by each seat so far.

        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> while not deal.is_over:
        ...     _ = deal.apply(deal.legal_action_ids()[-1])
        >>> deal.tricks_won, sum(deal.tricks_won)
        ((3, 2, 0, 0), 5)
        """
        return tuple(self._tricks)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards now, sorted by suit with trump first.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KH')
        >>> _ = deal.apply('order'), deal.apply('discard 9C')
        >>> deal.hand(1)  # hearts trump: the jack of diamonds leads as the left bower
        (Card.parse('JD'), Card.parse('AC'), Card.parse('QD'), Card.parse('TD'), Card.parse('9D'))
        """
        return tuple(sort_hand(cards_of(self._hands[seat]), self.trump))

    def hand_mask(self, seat: int) -> int:
        """A seat's cards now, as a bitmask.

        >>> from euchre.cards import card_mask, parse_cards
        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> deal.hand_mask(1) == card_mask(parse_cards('AC 9D TD JD QD'))
        True
        """
        return self._hands[seat]

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards of the trick in progress, with their seats.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order'), deal.apply('discard 9C'), deal.apply('AC')
        >>> deal.current_trick
        ((1, Card.parse('AC')),)
        """
        seat = self._leader
        out = []
        for c in self._trick:
            out.append((seat, CARDS[c]))
            seat = self._next[seat]
        return tuple(out)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks."""
        out: list[Trick] = []
        current: list[tuple[int, Card]] = []
        trump = self._trump
        for entry in self._history:
            a = entry % _SEAT
            if a >= DISCARD:
                continue
            current.append((entry // _SEAT, CARDS[a]))
            if len(current) == self._active:
                led = EFFECTIVE_SUIT[trump][current[0][1]]
                winner = max(current, key=lambda sc: TRICK_STRENGTH[trump][led][sc[1]])[0]
                out.append(Trick(current[0][0], tuple(current), winner))
                current = []
        return tuple(out)

    @property
    def events(self) -> tuple[Event, ...]:
        """Every action so far, with its seat.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order'), deal.apply('discard 9C')
        >>> [str(event) for event in deal.events]
        ['seat 1: order', 'seat 0: discard 9C']
        >>> [str(event) for event in deal.observation(1).events]  # seat 0's discard is hidden
        ['seat 1: order', 'seat 0: discard (face down)']
        """
        return tuple(Event(e // _SEAT, Action.from_id(e % _SEAT)) for e in self._history)

    @property
    def actions(self) -> list[Action]:
        """Every action so far, in order.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order'), deal.apply('discard 9C')
        >>> deal.actions
        [Action.parse('order'), Action.parse('discard 9C')]
        """
        return [Action.from_id(e % _SEAT) for e in self._history]

    def legal_action_ids(self) -> list[int]:
        """The legal actions as sorted ints of the fixed action space.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> deal.legal_action_ids()  # pass, order (two-handed: no going alone)
        [99, 100]
        """
        p = self._phase
        if p == _PLAY:
            hand = self._hands[self._turn]
            if self._trick:
                follow = hand & self._follow
                if follow:
                    hand = follow
            return _P0[hand & 2047] + _P1[hand >> 11 & 2047] + _P2[hand >> 22]
        if p <= _NAME or p == _DEFEND:
            stuck = self.rules.stick_the_dealer and self._turn == self.dealer
            t = self.turnup
            down = t >> 3 if t != JOKER else int(self.rules.joker_suit or 0)
            key = (p, self.n, down, stuck)
            ids = _BIDS.get(key)
            if ids is None:
                ids = _BIDS[key] = _ids(bid_bits(p, self.n, down, stuck), PASS)
            return ids.copy()
        if p == _EXCHANGE:
            hand = self._hands[self.dealer]
            if self.rules.dealer_must_take_up:
                hand &= ~(1 << self.turnup)
            return _ids(hand, DISCARD)
        if p == _DUMMY:
            return _ids(self._hands[self._maker], DISCARD)
        if p == _CALL:
            maker = self._maker
            return _ids(callable_cards(pack_mask(self.rules.deck, self.rules.joker),
                                       self._hands[maker], self._taken, self.turnup,
                                       card_mask(self._discards[maker])), CALL)
        return []

    def _legal_now(self) -> list[int]:
        """The legal action ids of the current state, computed once per state and kept
        until the next action (a state is known by the number of actions taken: only
        :meth:`apply` changes it, by one action).  :meth:`check`, :meth:`apply`, the
        observation of the seat to move and :meth:`legal_actions` share them, so that an
        adapter that shows the choices, checks an action, stores it and then applies it
        (the web server) computes them once.  The list is never handed out: callers get
        a new one from :meth:`legal_action_ids`."""
        at = len(self._history)
        if self._legal_at != at:
            self._legal = self.legal_action_ids()
            self._legal_at = at
        return self._legal

    def legal_actions(self) -> list[Action]:
        """The legal actions as typed objects."""
        return [Action.from_id(a) for a in self._legal_now()]

    def legal_mask(self) -> list[bool]:
        """A mask over the whole action space: ``True`` where the action is legal.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> mask = deal.legal_mask()
        >>> len(mask), [i for i, legal in enumerate(mask) if legal]
        (111, [99, 100])
        """
        mask = [False] * NUM_ACTIONS
        for a in self.legal_action_ids():
            mask[a] = True
        return mask

    def is_legal(self, action: Action | int | str) -> bool:
        """Whether ``action`` may be applied now.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> deal.is_legal('order'), deal.is_legal('trump H'), deal.is_legal('not an action')
        (True, False, False)
        """
        try:
            return _action_id(action) in self._legal_now()
        except ValueError:
            return False

    # -- applying actions ------------------------------------------------------------------
    def check(self, action: Action | int | str, seat: int | None = None) -> None:
        """Raise what :meth:`apply` would raise for ``action``, changing nothing.

        :class:`IllegalActionError` names the rule and the legal choices; an action that
        is no action at all (bad text, an id out of range) raises
        :class:`~euchre.actions.InvalidActionError`.  :meth:`apply` runs this same check,
        on the legal choices computed once for the state: an adapter that checks an
        action, stores it, then applies it (the web server) does not compute them twice.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> deal.check('order', seat=0)
        Traceback (most recent call last):
        ...
        euchre.deal.IllegalActionError: it is seat 1's turn, not seat 0's (bidding, round 1)
        >>> deal.check('order', seat=1); deal.effects
        ()
        """
        self._check(action if type(action) is int else _action_id(action), seat)

    def _check(self, a: int, seat: int | None) -> None:
        """The one legality check of an action id (RULES §4-§8)."""
        p = self._phase
        if seat is not None and (p == _OVER or seat != self._turn):
            raise IllegalActionError(self._not_your_turn(seat))
        if p == _PLAY:
            hand = self._hands[self._turn]
            if self._trick:
                follow = hand & self._follow
                if follow:
                    hand = follow
            if not 0 <= a < DISCARD or not hand >> a & 1:
                raise IllegalActionError(self._explain(a))
        elif a not in self._legal_now():
            raise IllegalActionError(self._explain(a))

    def apply(self, action: Action | int | str, seat: int | None = None) -> Effect:
        """Apply one action of the seat to move; return what it did.

        ``action`` is an :class:`Action`, its int id, or RECORDS text (a bare card plays it).
        ``seat``, when given, must be the seat to move.  An illegal action raises
        :class:`IllegalActionError` (see :meth:`check`) and changes nothing.  The
        :class:`Effect` returned is also kept, in order, in :attr:`effects`.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> for text in ('order', 'discard 9C', 'AC'):
        ...     effect = deal.apply(text)
        >>> effect.trick
        >>> deal.apply('TC')
        Effect(seat=0, action=Action.parse('play TC'), phase=Phase.PLAY,
               trick=Trick(leader=1, cards=((1, Card.parse('AC')), (0, Card.parse('TC'))),
                           winner=1),
               won_by=WonBy.HIGHEST_LED)
        """
        a = action if type(action) is int else _action_id(action)
        p = self._phase
        turn = self._turn
        effect: Effect | None
        self._check(a, seat)
        entry = turn * _SEAT + a
        self._history.append(entry)
        if p == _PLAY:
            hand = self._hands[turn]
            trick = self._trick
            self._hands[turn] = hand ^ (1 << a)
            if not trick:
                trump = self._trump
                self._led = led = EFFECTIVE_SUIT[trump][a]
                self._follow = SUIT_MASKS[trump][led]
                self._row = row = TRICK_STRENGTH[trump][led]
                self._best = row[a]
                self._winner = turn
            else:
                strength = self._row[a]
                if strength > self._best:
                    self._best = strength
                    self._winner = turn
            trick.append(a)
            if len(trick) == self._active:
                effect = self._trick_done(turn, a)
            else:
                self._turn = self._next[turn]
                if a == self._called:
                    effect = Effect(turn, Action.from_id(a), Phase.PLAY, partner=turn)
                else:
                    effect = _PLAIN.get(_PLAY * _PLAIN_KEY + entry) or _plain(
                        _PLAY * _PLAIN_KEY + entry)
            self._effects.append(effect)
            return effect
        out = self._out
        if p == _BID1:
            self._bid_turnup(a)
        elif p in (_BID2, _NAME):
            self._name_suit(a)
        elif p == _EXCHANGE:
            self._hands[self.dealer] &= ~(1 << (a - DISCARD))
            self._discards[self.dealer].append(a - DISCARD)
            self._after_exchange()
        elif p == _DUMMY:
            self._hands[self._maker] &= ~(1 << (a - DISCARD))
            self._discards[self._maker].append(a - DISCARD)
            self._dummy_left -= 1
            if not self._dummy_left:
                self._after_dummy()
        elif p == _CALL:
            self._call(a - CALL)
        else:
            self._defend(a)
        if (a == PASS or p > _NAME) and self._out == out and self._phase != _OVER:
            effect = _PLAIN.get(p * _PLAIN_KEY + entry) or _plain(p * _PLAIN_KEY + entry)
        else:
            fixed = p <= _NAME and a != PASS
            newly_out = self._out & ~out
            effect = Effect(
                turn, Action.from_id(a), _PHASES[p],
                trump=_SUITS[self._trump] if fixed else None,
                maker=self._maker if fixed else None,
                alone=fixed and self._alone,
                sitting_out=tuple(s for s in range(self.n) if newly_out >> s & 1),
                result=self.result if self._phase == _OVER else None,
            )
        self._effects.append(effect)
        return effect

    def _trick_done(self, turn: int, a: int) -> Effect:
        """The last card of a trick is down: score the trick, and say what it did."""
        trick = self._trick
        winner = self._winner
        self._tricks[winner] += 1
        self._trick = []
        self._trick_no += 1
        leader = seat = self._leader
        nxt = self._next
        trump = self._trump
        effective = EFFECTIVE_SUIT[trump]
        cards = []
        trumps = 0
        best = a
        for c in trick:
            cards.append((seat, CARDS[c]))
            if effective[c] == trump:
                trumps += 1
            if seat == winner:
                best = c
            seat = nxt[seat]
        if effective[best] != trump:
            why = WonBy.HIGHEST_LED
        elif trumps == 1 and effective[trick[0]] != trump:
            why = WonBy.TRUMPED
        else:
            why = WonBy.HIGHEST_TRUMP
        if self._trick_no == 5:
            self._phase = _OVER
            result: DealResult | None = self.result
        else:
            self._leader = self._turn = winner
            result = None
        return _trick_effect(turn, Action.from_id(a), turn if a == self._called else None,
                             _trick(leader, tuple(cards), winner), why, result)

    @property
    def effects(self) -> tuple[Effect, ...]:
        """What every action so far did, in order (:meth:`apply`'s returns)."""
        return tuple(self._effects)

    def _bid_turnup(self, a: int) -> None:
        if a == PASS:
            self._bids += 1
            if self._bids == self.n:  # the turn-up is turned down (RULES §4)
                self._phase = _BID2
                self._bids = 0
            self._turn = (self._turn + 1) % self.n
            return
        suit = self.turnup_suit
        assert suit is not None
        self._fix_trump(self._turn, int(suit), a == ORDER_ALONE, exchange=True)

    def _name_suit(self, a: int) -> None:
        if a == PASS:
            self._bids += 1
            if self._bids == self.n:  # all passed twice: thrown in (RULES §4)
                self._phase = _OVER
            else:
                self._turn = (self._turn + 1) % self.n
            return
        alone = a >= TRUMP_ALONE
        suit = a - (TRUMP_ALONE if alone else TRUMP)
        # a turned-up joker counts as the turn-up taken: the dealer exchanges (RULES §3)
        self._fix_trump(self._turn, suit, alone, exchange=self._phase == _NAME)

    def _fix_trump(self, maker: int, suit: int, alone: bool, exchange: bool) -> None:
        self._trump = suit
        self._maker = maker
        self._alone = alone
        self._taken = exchange
        partner = self.rules.partner_of(maker)
        if alone and partner is not None:
            self._out |= 1 << partner
        if exchange and not self._out >> self.dealer & 1:
            self._phase = _EXCHANGE
            self._turn = self.dealer
            self._hands[self.dealer] |= 1 << self.turnup
            return
        self._after_exchange()

    def _after_exchange(self) -> None:
        if self.n == 3 and not self._alone:
            # the maker takes up the dummy and discards five, one at a time (RULES §6)
            self._phase = _DUMMY
            self._turn = self._maker
            self._hands[self._maker] |= self._dummy
            self._dummy_left = 5
            return
        self._after_dummy()

    def _after_dummy(self) -> None:
        if self.n == 5 and not self._alone:
            self._phase = _CALL
            self._turn = self._maker
            return
        self._after_call()

    def _call(self, card: int) -> None:
        self._called = card
        bit = 1 << card
        for seat in range(self.n):
            if self._hands[seat] & bit:
                self._partner = seat
                break
        else:  # in the kitty or discarded: the maker plays alone unknowingly (RULES §6)
            self._forced_alone = True
        self._after_call()

    def _after_call(self) -> None:
        if self.rules.defend_alone:
            self._phase = _DEFEND
            self._turn = next_defender(self.n, self.dealer, self._maker, -1)
            return
        self._start_play()

    def _defend(self, a: int) -> None:
        seat = self._turn
        if a == DEFEND_ALONE:
            self._lone_defender = seat
            self._out |= lone_defence_out(self.n, seat, self._maker)
            self._start_play()
            return
        following = next_defender(self.n, self.dealer, self._maker, seat)
        if following < 0:
            self._start_play()
        else:
            self._turn = following

    def _start_play(self) -> None:
        n = self.n
        active = [s for s in range(n) if not self._out >> s & 1]
        self._active = len(active)
        self._next = [0] * n
        for s in range(n):
            t = (s + 1) % n
            while self._out >> t & 1:
                t = (t + 1) % n
            self._next[s] = t
        lead = self._next[first_lead_after(n, self.dealer, self._maker, self._alone,
                                           self._lone_defender)]
        self._leader = self._turn = lead
        self._phase = _PLAY

    # -- the result --------------------------------------------------------------------------
    @property
    def result(self) -> DealResult:
        """The result so far; ``complete`` once five tricks are played (RULES §9).

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order'), deal.apply('discard 9C')
        >>> while not deal.is_over:
        ...     _ = deal.apply(deal.legal_action_ids()[0])
        >>> deal.result
        DealResult(trump=Suit.DIAMONDS, maker=1, alone=False, lone_defender=None,
                   partner=None, tricks=(1, 4), points=(0, 1), complete=True, thrown_in=False)
        """
        n = self.n
        if self._maker < 0:
            return DealResult(None, None, False, None, None, (0,) * n, (0,) * n,
                              self._phase == _OVER, thrown_in=self._phase == _OVER)
        complete = self._phase == _OVER
        partner = None if self._partner < 0 else self._partner
        return DealResult(
            trump=Suit(self._trump),
            maker=self._maker,
            alone=self.alone,
            lone_defender=None if self._lone_defender < 0 else self._lone_defender,
            partner=partner,
            tricks=tuple(self._tricks),
            points=self._points() if complete else (0,) * n,
            complete=complete,
        )

    def _points(self) -> tuple[int, ...]:
        side = self.makers
        made = sum(self._tricks[s] for s in side)
        return deal_points(self.n, side, made, self.alone, self._lone_defender >= 0)

    # -- observations ------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (RULES §12).

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> seen = deal.observation(1)
        >>> seen.seat, seen.turnup, [str(card) for card in seen.hand]
        (1, Card.parse('KD'), ['AC', 'QD', 'JD', 'TD', '9D'])
        """
        if not 0 <= seat < self.n:
            raise ValueError(f"seats are 0 to {self.n - 1}, not {seat}")
        took_dummy = self.n == 3 and seat == self._maker and not self._alone
        return Observation(
            **self._shown(seat),
            seat=seat,
            hand=self.hand(seat),
            discards=tuple(CARDS[c] for c in self._discards[seat]),
            dummy=(tuple(sort_hand(cards_of(self._dummy), self.trump))
                   if took_dummy and self._phase >= _DUMMY else None),
            legal_actions=(tuple(Action.from_id(a) for a in self._legal_now())
                           if seat == self.to_move else ()),
        )

    def public_observation(self) -> PublicObservation:
        """What everyone at the table sees, a spectator included (RULES §12).

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order')
        >>> public = deal.public_observation()
        >>> public.hand_sizes, public.trump, [str(e) for e in public.events]
        ((6, 5), Suit.DIAMONDS, ['seat 1: order'])
        >>> _ = deal.apply('discard 9C')
        >>> public.phase, [str(e) for e in deal.public_observation().events][-1]
        (Phase.EXCHANGE, 'seat 0: discard (face down)')
        """
        return PublicObservation(**self._shown(None))

    def _shown(self, seat: int | None) -> dict[str, Any]:
        """The fields of :class:`PublicObservation` as ``seat`` sees them (``None``: a
        spectator): its own discards face up, the partner known to its holder."""
        p = self._phase
        turnup_taken: bool | None
        if self._taken:
            turnup_taken = True
        elif p in (_BID1, _NAME):
            turnup_taken = None
        else:
            turnup_taken = False
        events = []
        for e in self._history:
            s, a = divmod(e, _SEAT)
            hidden = DISCARD <= a < CALL and s != seat
            events.append(Event(s, None if hidden else Action.from_id(a)))
        knows_partner = self._partner >= 0 and (
            seat == self._partner or any(e % _SEAT == self._called for e in self._history))
        return {
            "rules": self.rules,
            "dealer": self.dealer,
            "phase": _PHASES[p],
            "to_move": self.to_move,
            "turnup": self.turnup,
            "turnup_taken": turnup_taken,
            "trump": self.trump,
            "maker": self.maker,
            "alone": self._alone,
            "called": self.called,
            "partner": self._partner if knows_partner else None,
            "lone_defender": self.lone_defender,
            "sitting_out": self.sitting_out,
            "events": tuple(events),
            "hand_sizes": tuple(h.bit_count() for h in self._hands),
            "trick": self.current_trick,
            "tricks": self.tricks,
            "tricks_won": tuple(self._tricks),
            "scores": self.scores,
            "result": self.result if p == _OVER else None,
        }

    # -- error messages -------------------------------------------------------------------------
    def _legal_text(self) -> str:
        return ", ".join(str(a) for a in self.legal_actions())

    def _not_your_turn(self, seat: int) -> str:
        if self._phase == _OVER:
            return "the deal is over (RULES §8): no action is legal"
        return f"it is seat {self._turn}'s turn, not seat {seat}'s ({self.phase.value})"

    def _core_state(self) -> core.Int64Array:
        """The rules core's state of this deal (:mod:`euchre.core`): the cards as dealt,
        then every action so far.  The compiled core loads at the first refusal asked."""
        from euchre import core

        st = core.new_state(self.rules)
        hands = [*self.dealt, *[0] * (5 - self.n)]
        core.start(st, self.dealer, *hands, self.dealt_dummy or 0, int(self.turnup))
        for entry in self._history:
            core.apply_action(st, entry % _SEAT)
        return st

    def refusal(self, action: Action | int | str, seat: int | None = None
                ) -> tuple[Refused, int, int]:
        """Why the rules core refuses ``action`` (by ``seat``, or the seat to move): its
        :class:`~euchre.core.Refused` code and the code's two arguments;
        ``Refused.LEGAL`` where the action is legal.  :func:`euchre.wording.why_illegal`
        words the code for a player, :class:`IllegalActionError` for a programmer.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> deal.refusal('order alone'), deal.refusal('order', seat=0)
        ((<Refused.NO_ALONE: 3>, 0, 0), (<Refused.NOT_YOUR_TURN: 2>, 1, 0))
        """
        from euchre import core

        code, x, y = core.refusal(self._core_state(), -1 if seat is None else seat,
                                  _action_id(action))
        return Refused(code), int(x), int(y)

    def _explain(self, a: int) -> str:
        """The refusal of action ``a`` for a programmer: the rule by its RULES section,
        and the legal choices."""
        code, x, y = self.refusal(a)
        text = str(Action.from_id(a))
        if code is Refused.DEAL_OVER:
            return f"the deal is over (RULES §8): '{text}' is not legal"
        seat = self._turn
        if self._phase == _NAME:  # the joker's rule, going alone or not (RULES §3)
            code = Refused.JOKER_NAMES
        why = {
            Refused.NO_ALONE: "there is no going alone two-handed (RULES §4)",
            Refused.ROUND_ONE: f"seat {seat} bids on the turn-up in round 1 (RULES §4)",
            Refused.ROUND_ONE_NAMED: f"seat {seat} bids on the turn-up in round 1 (RULES §4)",
            Refused.STICK_THE_DEALER: ("stick the dealer: the dealer may not pass in round 2 "
                                       "and must name a suit (RULES §4)"),
            Refused.ROUND_TWO: f"seat {seat} names a suit or passes in round 2 (RULES §4)",
            Refused.JOKER_NAMES: "the joker was turned up: the dealer must name trump (RULES §3)",
            Refused.KEEP_TURNUP: "dealer_must_take_up: the turn-up must be kept (RULES §5)",
            Refused.EXCHANGE: f"the dealer (seat {seat}) discards one card face down (RULES §5)",
            Refused.DUMMY: (f"the maker (seat {seat}) discards five cards from hand and dummy, "
                            f"one at a time (RULES §6)"),
            Refused.CALL_A_CARD: (f"the maker (seat {seat}) calls a partner by naming a card "
                                  "(RULES §6)"),
            Refused.DEFEND: f"seat {seat} may defend alone or pass (RULES §7)",
            Refused.PLAY_A_CARD: f"seat {seat} plays a card (RULES §8)",
        }.get(code)
        if why is None:
            why = self._explain_card(code, x, y)
        return f"{why}: '{text}' is not legal; legal: {self._legal_text()}"

    def _explain_card(self, code: Refused, x: int, led: int) -> str:
        """The reasons that name a card (``x``) or a suit (``x``, or ``led``) (see
        :meth:`_explain`)."""
        seat = self._turn
        card = CARDS[x]
        if code is Refused.TURNED_DOWN:
            return (f"{_SUIT_NAMES[x]} was turned down and may not be named this deal "
                    f"(RULES §4)")
        if code is Refused.DISCARD_NOT_HELD:
            return f"seat {seat} does not hold {card} (RULES §5)"
        if code is Refused.DUMMY_NOT_HELD:
            return f"seat {seat} does not hold {card} with the dummy (RULES §6)"
        if code is Refused.CALL_OWN_CARD:
            return f"the maker must call a card not in their own hand, not {card} (RULES §6)"
        if code is Refused.CALL_OWN_DISCARD:
            return (f"the maker may not call {card}, its own discard: a card it knows to be "
                    "out of play (RULES §6.3)")
        if code is Refused.CALL_TURNED_DOWN:
            return (f"the maker may not call {card}, the turn-up turned down in round 1: a "
                    "card it knows to be out of play (RULES §6.3)")
        if code is Refused.CALL_NOT_IN_PACK:
            return f"{card} is not in this pack (RULES §1)"
        if code is Refused.PLAY_NOT_HELD:
            return f"seat {seat} does not hold {card} (RULES §8)"
        # Refused.MUST_FOLLOW
        trump = self._trump
        follow = self._hands[seat] & SUIT_MASKS[trump][led]
        held = format_cards(sort_hand(cards_of(follow), self.trump))
        notes = []
        left = (trump ^ 3) * 8 + 4
        if follow >> left & 1 and led == trump:
            notes.append(f"{CARDS[left]}, the left bower, is trump")
        if card == left:
            notes.append(f"{CARDS[left]} is the left bower: a trump, not "
                         f"{_SUIT_NAMES[left >> 3]}")
        extra = f"; {'; '.join(notes)}" if notes else ""
        return f"seat {seat} must follow {_SUIT_NAMES[led]} (holds {held}{extra}) (RULES §2, §8)"

    # -- records -----------------------------------------------------------------------------
    def to_record(self) -> DealRecord:
        """The deal record (docs/rules.md, "Saved games"): rules, cards as dealt, and the
        actions so far; :meth:`DealRecord.to_json <euchre.notation.DealRecord.to_json>`
        writes it.  :meth:`from_record` reads it back into the same deal.

        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> _ = deal.apply('order'), deal.apply('discard 9C')
        >>> record = deal.to_record()
        >>> str(record.turnup), record.actions
        ('KD', ('order', 'discard 9C'))
        >>> Deal.from_record(record).observation(1) == deal.observation(1)
        True
        """
        return DealRecord(
            self.rules, self.dealer, tuple(tuple(cards_of(h)) for h in self.dealt),
            self.turnup, self.kitty,
            None if self.dealt_dummy is None else tuple(cards_of(self.dealt_dummy)),
            tuple(str(a) for a in self.actions))

    @classmethod
    def from_record(cls, record: DealRecord | dict[str, Any],
                    apply_actions: bool = True) -> Deal:
        """A deal from its record, or from the record's JSON (read by
        :meth:`DealRecord.from_json <euchre.notation.DealRecord.from_json>`); its actions
        are applied unless ``apply_actions`` is false.

        Every value must have the type RECORDS gives it: ``dealer`` a seat number, the cards
        texts such as ``"JH"`` (not numbers), ``kitty`` present, the actions texts.  A value
        of the wrong type raises :class:`ValueError` naming the key and the type expected;
        an illegal action raises :class:`IllegalActionError` with its number (from 1).
        """
        if not isinstance(record, DealRecord):
            record = DealRecord.from_json(record)
        deal = cls.from_cards(record.rules, record.dealer, record.hands, record.turnup,
                              kitty=record.kitty, dummy=record.dummy)
        if apply_actions:
            for i, text in enumerate(record.actions):
                try:
                    deal.apply(text)
                except ValueError as e:
                    raise IllegalActionError(f"action {i + 1} {text!r}: {e}") from None
        return deal

    def __str__(self) -> str:
        return json.dumps(self.to_record().to_json())

    def __repr__(self) -> str:
        return f"Deal.from_record({self.to_record().to_json()!r})"


_PACKS: dict[tuple[int, bool], tuple[int, ...]] = {}


def _pack_cards(rules: Rules) -> tuple[int, ...]:
    key = (rules.deck, rules.joker)
    pack = _PACKS.get(key)
    if pack is None:
        pack = _PACKS[key] = tuple(cards_of(pack_mask(rules.deck, rules.joker)))
    return pack


def _action_id(action: Action | int | str) -> int:
    if isinstance(action, Action):
        return action.id
    if isinstance(action, str):
        return Action.parse(action).id
    return Action.from_id(int(action)).id
