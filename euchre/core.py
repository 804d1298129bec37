"""The compiled rules core: one deal of every variant as a small int64 array.

:class:`~euchre.deal.Deal` is the readable rulebook, written for people and for error
messages.  This module plays exactly the same rules (RULES §3-§9), compiled by numba, on a
state that is one flat ``int64`` array, so that machines can run millions of deals: the
batched :class:`~euchre.vector.VectorDeals`, the expert bot's look-ahead through the
bidding, and random rollouts.  The small rules both need are written once and compiled in here
(:mod:`euchre.sides`: the maker's side, the cards the maker may call, who sits out beside
a lone defender, whose left leads; :mod:`euchre.scoring`: the points of RULES §9), and why
an action is refused is said here only (:func:`refusal`).  The two state machines are held
together by differential tests over random play of every variant and option
(``tests/test_core.py``).

Every function here is compiled by numba (:mod:`euchre._numba`, at its first call): plain
ints and int64 arrays, no Python objects.  With ``NUMBA_DISABLE_JIT=1`` the module runs as
plain Python, for debugging and coverage.

The state
---------
Fields are named offsets into the array (``state[PHASE]``, ``state[HANDS + seat]``).  A
hand is a bitmask of card ids (``suit * 8 + rank``, the joker 32; see :mod:`euchre.cards`),
actions are the ids of the fixed action space (:mod:`euchre.actions`), phases are the
order of :class:`~euchre.deal.Phase`.  Absent values are -1.

>>> from euchre.rules import Rules
>>> from euchre.cards import Card, card_mask, parse_cards
>>> st = new_state(Rules(players=2))
>>> hands = [card_mask(parse_cards(h)) for h in ('9C TC JC QC KC', 'AC 9D TD JD QD')]
>>> start(st, 0, hands[0], hands[1], 0, 0, 0, 0, Card.parse('KD'))
>>> int(st[PHASE]) == BID_TURNUP, int(st[TURN])
(True, 1)
>>> apply_action(st, ORDER), apply_action(st, DISCARD + Card.parse('KD'))
(True, True)
>>> int(st[PHASE]) == PLAY, int(st[TRUMP_SUIT]), int(st[LEADER])
(True, 1, 1)
>>> apply_action(st, PLAY_CARD + Card.parse('9S'))
False
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from euchre._numba import jit as _jit
from euchre._numba import jit_inline as _jit_inline
from euchre.actions import (
    CALL,
    DEFEND_ALONE,
    DISCARD,
    NUM_ACTIONS,
    ORDER,  # noqa: F401 - read as core.ORDER by callers and the doctests
    ORDER_ALONE,
    PASS,
    TRUMP,
    TRUMP_ALONE,
)
from euchre.actions import bid_bits as _plain_bid_bits
from euchre.cards import EFFECTIVE_SUIT, JOKER, SUIT_MASKS, TRICK_STRENGTH, pack_mask
from euchre.refusals import Refused
from euchre.rules import Rules
from euchre.scoring import deal_value as _plain_deal_value
from euchre.sides import callable_cards as _plain_callable
from euchre.sides import first_lead_after as _plain_first_lead
from euchre.sides import lone_defence_out as _plain_lone_out
from euchre.sides import makers_mask as _side_mask
from euchre.sides import next_defender as _plain_next_defender
from euchre.sides import utility as _utility

__all__ = [
    "ACTIVE",
    "BEST",
    "BIDS",
    "BID_SUIT",
    "BID_TURNUP",
    "CALLED",
    "CALL_PARTNER",
    "DEALER",
    "DEALER_MUST_TAKE_UP",
    "DEALT",
    "DEALT_DUMMY",
    "DEFEND",
    "DEFEND_ALONE_ON",
    "DUMMY",
    "DUMMY_LEFT",
    "DUMMY_MERGE",
    "EPISODE",
    "EXCHANGE",
    "FORCED",
    "HANDS",
    "HISTORY",
    "HISTORY_SIZE",
    "JOKER_SUIT",
    "LEADER",
    "LED",
    "LONE",
    "MAKER",
    "NAME_TRUMP",
    "N_ACTIONS",
    "OUT",
    "OVER",
    "PACK",
    "PARTNER",
    "PHASE",
    "PLAY",
    "PLAYERS",
    "PLAY_CARD",
    "RNG",
    "SEAT_SHIFT",
    "STATE_SIZE",
    "STICK_THE_DEALER",
    "TAKEN",
    "TRICKS",
    "TRICK_CARDS",
    "TRICK_LEN",
    "TRICK_NO",
    "TRUMP_SUIT",
    "TURN",
    "TURNUP",
    "WINNER",
    "Refused",
    "alone",
    "apply_action",
    "deal_random",
    "is_legal",
    "is_over",
    "leader",
    "legal_bits",
    "legal_mask",
    "makers_mask",
    "new_state",
    "next_active",
    "partner_of",
    "points",
    "random_action",
    "random_below",
    "random_rollout",
    "random_u32",
    "refusal",
    "start",
    "turnup_suit",
    "utility",
    "write_rules",
]

Int64Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


# -- the phases, in the order of euchre.deal.Phase (RULES §4-§8) ------------------------------
BID_TURNUP: Final = 0
"""Round 1: order up the turn-up's suit, or pass (RULES §4)."""
BID_SUIT: Final = 1
"""Round 2: name another suit, or pass (RULES §4)."""
NAME_TRUMP: Final = 2
"""A turned-up joker: the dealer names trump (RULES §3)."""
EXCHANGE: Final = 3
"""The dealer discards one card, the turn-up taken (RULES §5)."""
DUMMY_MERGE: Final = 4
"""Three-handed: the maker discards five from hand and dummy (RULES §6)."""
CALL_PARTNER: Final = 5
"""Five-handed: the maker names the partner's card (RULES §6)."""
DEFEND: Final = 6
"""Each defender in turn may defend alone (RULES §7)."""
PLAY: Final = 7
"""Five tricks (RULES §8)."""
OVER: Final = 8
"""Scored, or thrown in."""

PLAY_CARD: Final = 0
"""``PLAY_CARD + card`` is ``play <card>``: the card id is the action id (``actions.PLAY``)."""

# -- the state's fields -----------------------------------------------------------------------
# the rules (RULES §1-§7), copied in by new_state
PLAYERS: Final = 0
PACK: Final = 1  # bitmask of the pack's cards, the joker included if in play
STICK_THE_DEALER: Final = 2
DEALER_MUST_TAKE_UP: Final = 3
DEFEND_ALONE_ON: Final = 4
JOKER_SUIT: Final = 5  # the suit a turned-up joker stands for, -1 when the dealer names
# the deal as dealt (RULES §3)
DEALER: Final = 6
TURNUP: Final = 7
DEALT_DUMMY: Final = 8
# progress
PHASE: Final = 9
TURN: Final = 10
BIDS: Final = 11  # passes so far in this round of bidding
TRUMP_SUIT: Final = 12  # -1 until fixed
MAKER: Final = 13
ALONE: Final = 14  # the maker declared alone
FORCED: Final = 15  # five-handed: the called card is in no hand, the maker is alone
TAKEN: Final = 16  # the turn-up (or a turned-up joker) was taken
CALLED: Final = 17
PARTNER: Final = 18
LONE: Final = 19  # the lone defender
OUT: Final = 20  # bitmask of the seats sitting out
DUMMY: Final = 21  # the dummy's cards until the maker takes them up
DUMMY_LEFT: Final = 22  # discards the maker still owes from hand and dummy
LEADER: Final = 23  # who led the trick in progress
TRICK_NO: Final = 24
TRICK_LEN: Final = 25
LED: Final = 26
BEST: Final = 27  # the strength of the best card of the trick so far
WINNER: Final = 28  # who holds the trick so far
ACTIVE: Final = 29  # seats that play cards
N_ACTIONS: Final = 30  # length of the history
RNG: Final = 31  # the random draws made for this deal so far
EPISODE: Final = 32  # deals dealt in this slot before this one (see deal_random)
HANDS: Final = 33  # 5 slots: each seat's cards now
TRICKS: Final = 38  # 5 slots: tricks won by each seat
DEALT: Final = 43  # 5 slots: each seat's hand as dealt
TRICK_CARDS: Final = 48  # 5 slots: the cards of the trick in progress, in play order
HISTORY: Final = 53  # every action as seat * SEAT_SHIFT + action id
HISTORY_SIZE: Final = 75  # the longest deal takes 37 actions (five-handed)
STATE_SIZE: Final = HISTORY + HISTORY_SIZE  # 128 int64: one KiB a deal
SEAT_SHIFT: Final = 128

# -- the card tables of euchre.cards, as arrays (index 4 = no trump yet) -----------------------
_EFFECTIVE_SUIT: Final = np.array(EFFECTIVE_SUIT, dtype=np.int64)
_SUIT_MASKS: Final = np.array(SUIT_MASKS, dtype=np.int64)
_STRENGTH: Final = np.array(TRICK_STRENGTH, dtype=np.int64)
_DE_BRUIJN_INDEX: Final = np.zeros(32, dtype=np.int64)
for _i in range(32):
    _DE_BRUIJN_INDEX[((1 << _i) * 0x077CB531 & 0xFFFFFFFF) >> 27] = _i


def new_state(rules: Rules) -> Int64Array:
    """A state array for these rules, with no cards dealt yet (see :func:`start`)."""
    st = np.full(STATE_SIZE, 0, dtype=np.int64)
    write_rules(st, rules)
    return st


def write_rules(st: Int64Array, rules: Rules) -> None:
    """Copy the rules into a state (or a row of a batch)."""
    st[PLAYERS] = rules.players
    st[PACK] = pack_mask(rules.deck, rules.joker)
    st[STICK_THE_DEALER] = int(rules.stick_the_dealer)
    st[DEALER_MUST_TAKE_UP] = int(rules.dealer_must_take_up)
    st[DEFEND_ALONE_ON] = int(rules.defend_alone)
    suit = rules.joker_suit
    st[JOKER_SUIT] = -1 if suit is None else int(suit)


# -- seats --------------------------------------------------------------------------------------
@_jit_inline
def partner_of(players: int, seat: int) -> int:
    """The fixed partner: the seat opposite four-handed, else none (-1) (RULES §4)."""
    if players == 4:
        return (seat + 2) % 4
    return -1


@_jit_inline
def next_active(st: Int64Array, seat: int) -> int:
    """The next seat to the left that does not sit out (RULES §8)."""
    n = st[PLAYERS]
    t = (seat + 1) % n
    while st[OUT] >> t & 1:
        t = (t + 1) % n
    return t


@_jit_inline
def alone(st: Int64Array) -> bool:
    """The maker plays alone: declared, or forced by a called card in no hand (RULES §6)."""
    return st[ALONE] == 1 or st[FORCED] == 1


_makers_mask = _jit_inline(_side_mask)
_deal_value = _jit_inline(_plain_deal_value)
_shared_bid_bits = _jit_inline(_plain_bid_bits)
_callable_cards = _jit_inline(_plain_callable)
_first_lead_after = _jit_inline(_plain_first_lead)
_lone_defence_out = _jit_inline(_plain_lone_out)
_next_defender = _jit_inline(_plain_next_defender)
utility = _jit_inline(_utility)
"""Compiled :func:`euchre.sides.utility`, for the kernels: ``utility(points, seat,
players)``."""


@_jit_inline
def makers_mask(st: Int64Array) -> int:
    """The maker's side as a bitmask: the maker, the partner opposite four-handed, the
    called card's holder five-handed (RULES §4, §6); 0 before trump is fixed
    (:func:`euchre.sides.makers_mask`)."""
    return _makers_mask(st[PLAYERS], st[MAKER], st[PARTNER])


@_jit
def leader(st: Int64Array) -> int:
    """Who leads the first trick (RULES §8): the first active seat at the dealer's left;
    three-handed, at the lone player's left (the maker's when both are alone)."""
    return next_active(st, _first_lead_after(st[PLAYERS], st[DEALER], st[MAKER],
                                             st[ALONE] == 1, st[LONE]))


@_jit
def is_over(st: Int64Array) -> bool:
    """Five tricks played, or the cards thrown in."""
    return st[PHASE] == OVER


# -- dealing (RULES §3) -------------------------------------------------------------------------
@_jit
def start(st: Int64Array, dealer: int, h0: int, h1: int, h2: int, h3: int, h4: int,
          dummy: int, turnup: int) -> None:
    """Deal these hands (bitmasks by seat), dummy and turn-up; the rules stay as written.

    A turned-up joker goes to the dealer to name trump unless the rules fix its suit
    (RULES §3); otherwise round 1 opens at the dealer's left (RULES §4)."""
    n = st[PLAYERS]
    episode = st[EPISODE]
    for k in range(HISTORY - DEALER):
        st[DEALER + k] = 0
    st[EPISODE] = episode
    st[DEALER] = dealer
    st[TURNUP] = turnup
    st[DEALT_DUMMY] = dummy
    st[DUMMY] = dummy
    hands = (h0, h1, h2, h3, h4)
    for s in range(5):
        h = hands[s] if s < n else 0
        st[HANDS + s] = h
        st[DEALT + s] = h
        st[TRICK_CARDS + s] = -1
    for f in (TRUMP_SUIT, MAKER, CALLED, PARTNER, LONE, LEADER, LED, WINNER):
        st[f] = -1
    st[ACTIVE] = n
    if turnup == JOKER and st[JOKER_SUIT] < 0:
        st[PHASE] = NAME_TRUMP
        st[TURN] = dealer
    else:
        st[PHASE] = BID_TURNUP
        st[TURN] = (dealer + 1) % n


@_jit_inline
def turnup_suit(st: Int64Array) -> int:
    """The suit bid in round 1: the turn-up's, or the fixed suit of a turned-up joker."""
    if st[TURNUP] == JOKER:
        return st[JOKER_SUIT]
    return st[TURNUP] >> 3


# -- legal actions --------------------------------------------------------------------------------
@_jit_inline
def _playable(st: Int64Array) -> int:
    """The cards the seat to move may play: it must follow the led suit if able (RULES §8)."""
    hand = st[HANDS + st[TURN]]
    if st[TRICK_LEN] > 0:
        follow = hand & _SUIT_MASKS[st[TRUMP_SUIT], st[LED]]
        if follow:
            return follow
    return hand


@_jit_inline
def _discardable(st: Int64Array) -> int:
    """The cards the seat to move may discard in the exchange or the dummy merge."""
    hand = st[HANDS + st[TURN]]
    if st[PHASE] == EXCHANGE and st[DEALER_MUST_TAKE_UP]:
        hand &= ~(1 << st[TURNUP])  # the turn-up must be kept (RULES §5)
    return hand


@_jit_inline
def _callable(st: Int64Array) -> int:
    """The cards the maker may call: any of the pack not in its own hand, but none it
    knows to be out of play: a turn-up turned down in round 1, a dealer-maker's own
    discard, the one discard of the history five-handed (RULES §6.3)."""
    maker = st[MAKER]
    own = 0
    if st[TAKEN] and maker == st[DEALER]:
        for k in range(st[N_ACTIONS]):
            a = st[HISTORY + k] % SEAT_SHIFT
            if DISCARD <= a < CALL:
                own |= 1 << (a - DISCARD)
    return _callable_cards(st[PACK], st[HANDS + maker], st[TAKEN] == 1, st[TURNUP], own)


@_jit_inline
def _bid_bits(st: Int64Array) -> int:
    """Bidding, a turned-up joker and defending alone (:func:`euchre.actions.bid_bits`)."""
    stuck = st[STICK_THE_DEALER] == 1 and st[TURN] == st[DEALER]
    return _shared_bid_bits(st[PHASE], st[PLAYERS], turnup_suit(st), stuck)


@_jit_inline
def legal_bits(st: Int64Array) -> tuple[int, int]:
    """The legal actions as ``(base, bits)``: action ``base + i`` is legal where bit ``i``
    of ``bits`` is set."""
    p = st[PHASE]
    if p == PLAY:
        return PLAY_CARD, _playable(st)
    if p in (EXCHANGE, DUMMY_MERGE):
        return DISCARD, _discardable(st)
    if p == CALL_PARTNER:
        return CALL, _callable(st)
    return PASS, _bid_bits(st)


@_jit_inline
def is_legal(st: Int64Array, a: int) -> bool:
    """Whether action ``a`` may be taken now by the seat to move."""
    base, bits = legal_bits(st)
    i = a - base
    return 0 <= i < 33 and (bits >> i & 1) == 1


@_jit
def legal_mask(st: Int64Array, out: BoolArray) -> None:
    """Write the legal actions of the seat to move into ``out`` (bool, NUM_ACTIONS)."""
    for a in range(NUM_ACTIONS):
        out[a] = False
    base, bits = legal_bits(st)
    i = 0
    while bits:
        if bits & 1:
            out[base + i] = True
        bits >>= 1
        i += 1


# -- why an action is refused --------------------------------------------------------------------
@_jit
def refusal(st: Int64Array, seat: int, a: int) -> tuple[int, int, int]:
    """Why action ``a`` by ``seat`` (below 0: the seat to move) is refused now, as
    ``(code, a, b)`` (:class:`Refused`); ``Refused.LEGAL`` where it is legal.

    >>> from euchre.rules import Rules
    >>> from euchre.cards import Card, card_mask, parse_cards
    >>> st = new_state(Rules(players=2))
    >>> hands = [card_mask(parse_cards(h)) for h in ('9C TC JC QC KC', 'AC 9D TD JD QD')]
    >>> start(st, 0, hands[0], hands[1], 0, 0, 0, 0, Card.parse('KD'))
    >>> Refused(refusal(st, 0, PASS)[0]), Refused(refusal(st, 1, ORDER_ALONE)[0])
    (<Refused.NOT_YOUR_TURN: 2>, <Refused.NO_ALONE: 3>)
    """
    p = st[PHASE]
    if p == OVER:
        return Refused.DEAL_OVER, 0, 0
    turn = st[TURN]
    if seat >= 0 and seat != turn:
        return Refused.NOT_YOUR_TURN, turn, 0
    if is_legal(st, a):
        return Refused.LEGAL, 0, 0
    naming = TRUMP <= a < DEFEND_ALONE
    no_alone = st[PLAYERS] == 2 and (a == ORDER_ALONE or TRUMP_ALONE <= a < DEFEND_ALONE)
    if p == BID_TURNUP:
        suit = turnup_suit(st)
        dealer = int(turn == st[DEALER])
        if a == ORDER_ALONE:
            return Refused.NO_ALONE, 0, 0
        if naming:
            return Refused.ROUND_ONE_NAMED, suit, dealer
        return Refused.ROUND_ONE, suit, dealer
    if p == BID_SUIT:
        down = turnup_suit(st)
        if naming and (a - TRUMP) % 4 == down:
            return Refused.TURNED_DOWN, down, _bid_bits(st) & 1  # may pass
        if a == PASS:
            return Refused.STICK_THE_DEALER, 0, 0
        if no_alone:
            return Refused.NO_ALONE, 0, 0
        return Refused.ROUND_TWO, 0, 0
    if p == NAME_TRUMP:
        if no_alone:
            return Refused.NO_ALONE, 0, 0
        return Refused.JOKER_NAMES, 0, 0
    card = a - DISCARD
    discarding = DISCARD <= a < CALL
    hand = st[HANDS + turn]
    if p == EXCHANGE:
        if discarding and card == st[TURNUP] and st[DEALER_MUST_TAKE_UP]:
            return Refused.KEEP_TURNUP, card, 0
        if discarding:
            return Refused.DISCARD_NOT_HELD, card, 0
        return Refused.EXCHANGE, st[TURNUP], 0
    if p == DUMMY_MERGE:
        if discarding:
            return Refused.DUMMY_NOT_HELD, card, 0
        return Refused.DUMMY, st[DUMMY_LEFT], 0
    if p == CALL_PARTNER:
        card = a - CALL
        if CALL <= a < PASS:
            if hand >> card & 1:
                return Refused.CALL_OWN_CARD, card, 0
            if st[PACK] >> card & 1 and st[TAKEN]:
                return Refused.CALL_OWN_DISCARD, card, 0
            if st[PACK] >> card & 1:
                return Refused.CALL_TURNED_DOWN, card, 0
            return Refused.CALL_NOT_IN_PACK, card, 0
        return Refused.CALL_A_CARD, 0, 0
    if p == DEFEND:
        return Refused.DEFEND, 0, 0
    if a >= DISCARD:
        return Refused.PLAY_A_CARD, 0, 0
    if not hand >> a & 1:
        return Refused.PLAY_NOT_HELD, a, 0
    return Refused.MUST_FOLLOW, a, st[LED]


# -- applying an action ----------------------------------------------------------------------------
@_jit
def apply_action(st: Int64Array, a: int) -> bool:
    """Take action ``a`` for the seat to move.  An illegal action returns False and
    changes nothing."""
    if not is_legal(st, a):
        return False
    _apply(st, a)
    return True


@_jit
def _apply(st: Int64Array, a: int) -> None:
    """Take a legal action (see :func:`apply_action`)."""
    seat = st[TURN]
    st[HISTORY + st[N_ACTIONS]] = seat * SEAT_SHIFT + a
    st[N_ACTIONS] += 1
    p = st[PHASE]
    if p == PLAY:
        _play(st, seat, a)
    elif p == BID_TURNUP:
        if a == PASS:
            _pass(st, BID_SUIT)
        else:
            _fix_trump(st, seat, turnup_suit(st), a == ORDER_ALONE, True)
    elif p in (BID_SUIT, NAME_TRUMP):
        if a == PASS:
            _pass(st, OVER)  # all passed twice: the deal is thrown in (RULES §4)
        else:
            lone = a >= TRUMP_ALONE
            suit = a - TRUMP_ALONE if lone else a - TRUMP
            # a turned-up joker counts as the turn-up taken: the dealer exchanges (RULES §3)
            _fix_trump(st, seat, suit, lone, p == NAME_TRUMP)
    elif p == EXCHANGE:
        st[HANDS + seat] &= ~(1 << (a - DISCARD))
        _after_exchange(st)
    elif p == DUMMY_MERGE:
        st[HANDS + seat] &= ~(1 << (a - DISCARD))
        st[DUMMY_LEFT] -= 1
        if st[DUMMY_LEFT] == 0:
            _after_dummy(st)
    elif p == CALL_PARTNER:
        _call(st, a - CALL)
    else:
        _defend(st, seat, a == DEFEND_ALONE)


@_jit
def _pass(st: Int64Array, when_all_passed: int) -> None:
    """A pass: when every seat has passed, the round ends (RULES §4)."""
    st[BIDS] += 1
    n = st[PLAYERS]
    if st[BIDS] == n:
        st[PHASE] = when_all_passed
        st[BIDS] = 0
        if when_all_passed == OVER:
            return
    st[TURN] = (st[TURN] + 1) % n


@_jit
def _fix_trump(st: Int64Array, maker: int, suit: int, lone: bool, exchange: bool) -> None:
    """Trump is made; a lone maker's partner sits out (RULES §4); the dealer exchanges
    when the turn-up was taken, unless sitting out (RULES §5)."""
    st[TRUMP_SUIT] = suit
    st[MAKER] = maker
    st[ALONE] = int(lone)
    st[TAKEN] = int(exchange)
    partner = partner_of(st[PLAYERS], maker)
    if lone and partner >= 0:
        st[OUT] |= 1 << partner
    dealer = st[DEALER]
    if exchange and not st[OUT] >> dealer & 1:
        st[PHASE] = EXCHANGE
        st[TURN] = dealer
        st[HANDS + dealer] |= 1 << st[TURNUP]
        return
    _after_exchange(st)


@_jit
def _after_exchange(st: Int64Array) -> None:
    """Three-handed, a maker not alone takes up the dummy and owes five discards (RULES §6)."""
    if st[PLAYERS] == 3 and not st[ALONE]:
        maker = st[MAKER]
        st[PHASE] = DUMMY_MERGE
        st[TURN] = maker
        st[HANDS + maker] |= st[DUMMY]
        st[DUMMY] = 0
        st[DUMMY_LEFT] = 5
        return
    _after_dummy(st)


@_jit
def _after_dummy(st: Int64Array) -> None:
    """Five-handed, a maker not alone calls a partner by naming a card (RULES §6)."""
    if st[PLAYERS] == 5 and not st[ALONE]:
        st[PHASE] = CALL_PARTNER
        st[TURN] = st[MAKER]
        return
    _after_call(st)


@_jit
def _call(st: Int64Array, card: int) -> None:
    """The called card's holder is the partner; a card in no hand leaves the maker alone
    without knowing it (RULES §6)."""
    st[CALLED] = card
    st[FORCED] = 1
    for s in range(st[PLAYERS]):
        if st[HANDS + s] >> card & 1:
            st[PARTNER] = s
            st[FORCED] = 0
    _after_call(st)


@_jit
def _after_call(st: Int64Array) -> None:
    """Where defending alone is on, each defender may declare it in turn (RULES §7)."""
    if st[DEFEND_ALONE_ON]:
        st[PHASE] = DEFEND
        st[TURN] = _next_defender(st[PLAYERS], st[DEALER], st[MAKER], -1)
        return
    _start_play(st)


@_jit
def _defend(st: Int64Array, seat: int, lone: bool) -> None:
    """At most one lone defender; its partner (three-handed: the other defender) sits out."""
    if lone:
        st[LONE] = seat
        st[OUT] |= _lone_defence_out(st[PLAYERS], seat, st[MAKER])
        _start_play(st)
        return
    following = _next_defender(st[PLAYERS], st[DEALER], st[MAKER], seat)
    if following < 0:
        _start_play(st)
    else:
        st[TURN] = following


@_jit
def _start_play(st: Int64Array) -> None:
    n = st[PLAYERS]
    active = 0
    for s in range(n):
        if not st[OUT] >> s & 1:
            active += 1
    st[ACTIVE] = active
    first = leader(st)
    st[LEADER] = first
    st[TURN] = first
    st[PHASE] = PLAY


@_jit
def _play(st: Int64Array, seat: int, card: int) -> None:
    """One card to the trick; the highest trump, else the highest of the led suit, wins,
    and the winner leads the next (RULES §8)."""
    st[HANDS + seat] &= ~(1 << card)
    trump = st[TRUMP_SUIT]
    k = st[TRICK_LEN]
    st[TRICK_CARDS + k] = card
    if k == 0:
        led = _EFFECTIVE_SUIT[trump, card]
        st[LED] = led
        st[BEST] = _STRENGTH[trump, led, card]
        st[WINNER] = seat
    else:
        strength = _STRENGTH[trump, st[LED], card]
        if strength > st[BEST]:
            st[BEST] = strength
            st[WINNER] = seat
    k += 1
    if k < st[ACTIVE]:
        st[TRICK_LEN] = k
        st[TURN] = next_active(st, seat)
        return
    winner = st[WINNER]
    st[TRICKS + winner] += 1
    st[TRICK_LEN] = 0
    for i in range(5):
        st[TRICK_CARDS + i] = -1
    st[TRICK_NO] += 1
    if st[TRICK_NO] == 5:
        st[PHASE] = OVER
    else:
        st[LEADER] = winner
        st[TURN] = winner


# -- scoring (RULES §9) ---------------------------------------------------------------------------
@_jit
def points(st: Int64Array, out: Int64Array) -> None:
    """Each seat's points for a finished deal into ``out`` (RULES §9); zeros for a deal
    thrown in or not finished."""
    n = st[PLAYERS]
    for s in range(n):
        out[s] = 0
    if st[PHASE] != OVER or st[MAKER] < 0:
        return
    side = makers_mask(st)
    made = 0
    for s in range(n):
        if side >> s & 1:
            made += st[TRICKS + s]
    value = _deal_value(n, made, alone(st), st[LONE] >= 0)
    scorers = side if made >= 3 else ~side
    for s in range(n):
        if scorers >> s & 1:
            out[s] = value


# -- random play -----------------------------------------------------------------------------------
@_jit_inline
def random_u32(seed: int, stream: int, counter: int) -> int:
    """A uniform 32-bit number from (seed, stream, counter): a counter-based hash, so that
    deal ``i`` of a batch is the same whatever the batch size.  Every product is masked to
    32 bits, which gives the same numbers compiled and as plain Python."""
    x = (int(seed) * 0x9E3779B1 + int(stream) * 0x85EBCA77
         + int(counter) * 0xC2B2AE3D) & 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    x ^= x >> 16
    return x


@_jit_inline
def random_below(seed: int, stream: int, counter: int, bound: int) -> int:
    """A uniform int in ``range(bound)`` (bound below 2**31)."""
    return (random_u32(seed, stream, counter) * int(bound)) >> 32


@_jit
def deal_random(st: Int64Array, seed: int, stream: int, dealer: int) -> None:
    """Shuffle and deal (RULES §3): five cards to each hand from the dealer's left,
    three-handed the dummy at the dealer's right, then the turn-up.  A ``dealer`` below
    0 is drawn at random.

    The cards depend only on ``seed``, ``stream`` (a deal's index in a batch) and how
    many deals this state has dealt before (``state[EPISODE]``, counted here)."""
    n = st[PLAYERS]
    episode = st[EPISODE]
    seed = seed ^ episode * 0x632BE5AB
    # the history's slots serve as the shuffled pack, and the dealt slots as the hands:
    # start() writes both afresh
    cards = st[HISTORY:HISTORY + 33]
    pack = st[PACK]
    size = 0
    for c in range(33):
        if pack >> c & 1:
            cards[size] = c
            size += 1
    # Fisher-Yates from the front, as far as the turn-up: the kitty stays in pack order
    dealt = 5 * (4 if n == 3 else n) + 1
    counter = 1
    for i in range(dealt):
        j = i + random_below(seed, stream, counter, size - i)
        counter += 1
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
    if dealer < 0:
        dealer = random_below(seed, stream, 0, n)
    hands = st[DEALT:DEALT + 5]
    hands[:] = 0
    dummy = 0
    pos = 0
    for k in range(4 if n == 3 else n):
        mask = 0
        for _ in range(5):
            mask |= 1 << cards[pos]
            pos += 1
        if n == 3 and k == 2:
            dummy = mask  # the dummy sits at the dealer's right: dealt third of four
        else:
            hands[(dealer + 1 + k) % n if k < 2 or n != 3 else dealer] = mask
    start(st, dealer, hands[0], hands[1], hands[2], hands[3], hands[4], dummy, cards[pos])
    st[RNG] = counter
    st[EPISODE] = episode + 1


@_jit_inline
def _bit_index(low: int) -> int:
    """The index of a single set bit below 2**33 (a de Bruijn sequence: no loop)."""
    if low >> 32:
        return 32
    return _DE_BRUIJN_INDEX[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]


@_jit
def random_action(st: Int64Array, seed: int, stream: int) -> int:
    """A uniformly random legal action, drawn from the state's own counter."""
    base, bits = legal_bits(st)
    count = 0
    rest = bits
    while rest:
        rest &= rest - 1
        count += 1
    pick = random_below(seed ^ st[EPISODE] * 0x632BE5AB, stream, st[RNG], count)
    st[RNG] += 1
    for _ in range(pick):
        bits &= bits - 1
    return base + _bit_index(bits & -bits)


@_jit
def random_rollout(st: Int64Array, seed: int, stream: int) -> int:
    """Play the deal to its end with uniformly random legal actions; the actions taken."""
    taken = 0
    while st[PHASE] != OVER:
        _apply(st, random_action(st, seed, stream))
        taken += 1
    return taken


