"""How likely the worlds a seat may be in are: the ``expert`` bot's player model.

A seat sees only its :class:`~euchre.deal.Observation` (RULES §12).  What it knows and
the worlds consistent with it are :mod:`euchre.worlds`'s (the expert draws them with
:meth:`euchre.worlds.InfoSet.world`); a world deals the cards it cannot see to the other
hands (and to the kitty, the dummy and the other discards), keeping:

* its own hand, its own discards, the dummy it took (three-handed maker), every card
  played, and the turn-up wherever it is known to lie (face up while round 1 is open,
  turned down, or in the dealer's hand after an order-up unless played, or the dealer
  is shown void in trump, or sits out);
* the voids a seat showed by failing to follow suit (trump-aware: the left bower and
  the joker are trump, RULES §2);
* five-handed, the called card is never in the maker's hand; its holder in a world is
  the maker's partner there (or nobody: the maker then plays alone, RULES §6);
* three-handed, the maker's hand came from hand and dummy: five of the ten it held, so a
  world deals it five unseen cards more than it holds and it keeps the best (trumps, then
  aces, then high cards) of those its shown voids allow; the others are discards.

Worlds are weighted by a light likelihood of what the others did: a seat that passed the
turn-up is unlikely to hold a strong hand in its suit, a maker likely holds trumps (a
logistic of the rule-of-thumb hand estimate of :mod:`euchre.bots.basic` around the bar
that bot bids at, computed on bitmasks by :func:`hand_estimate`), and a seat that let an
opponent's card win a trick is unlikely to have held a legal card that beat it.

With the *inference* on (the ``expert``; ``pimc`` keeps the above unchanged), every card
another seat played counts too, under a soft model of how players choose a card (shed the
lowest, win as cheaply as possible, of equal cards play the lower, lead low in a suit):
a world in which the seat then held a card the model would have played instead is less
likely by a factor fitted to ``pimc``'s play (:meth:`_Know.play_terms`); such worlds are
mostly redrawn rather than down-weighted (:meth:`_Worlds.weighted_world`).

The evaluation of the actions in these worlds is :mod:`euchre.bots.evaluation`.

>>> from euchre import Deal, Rules
>>> import random
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> world = sample_weighted_world(deal.observation(1), random.Random(1))
>>> world.hands[1] == deal.hand_mask(1), world.hands[0].bit_count()
(True, 5)
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator
from typing import Final, NamedTuple

from euchre.actions import ActionKind
from euchre.bots.basic import BasicBot
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    SUIT_MASKS,
    TRICK_STRENGTH,
)
from euchre.deal import Observation
from euchre.worlds import InfoSet, _bits, view_from_observation

__all__ = ["World", "hand_estimate", "sample_weighted_world"]

_TAU: Final = 0.5
"""Softness of the bid likelihood (in estimated tricks)."""
_FLOOR: Final = 0.05
_DUMMY_BONUS: Final = 1.45
"""Three-handed: what the dummy adds to a maker's estimate, on average (basic samples it)."""

# Phase numbers on raw ints (:mod:`euchre.core`'s), for what the seat knows and the
# simulation that plays on (:mod:`euchre.bots.evaluation`).
_BID1, _BID2, _NAME, _EXCHANGE, _DUMMY, _CALL, _DEFEND, _PLAY, _OVER = range(9)

# -- a fast hand estimate on bitmasks (the basic bot's hand_value) ----------------------------
_TRUMP_VALUE: Final = {10: 1.0, 9: 0.95, 8: 0.85, 7: 0.75, 6: 0.6, 5: 0.5,
                       3: 0.42, 2: 0.4, 1: 0.38, 0: 0.36}
_TV: Final = tuple(
    tuple(_TRUMP_VALUE[TRICK_STRENGTH[t][t][c] - 20] if EFFECTIVE_SUIT[t][c] == t else 0.0
          for c in range(33))
    for t in range(4)
)
"""``_TV[trump][card]``: a trump's share of a trick (0 for a non-trump)."""


def _off_table(two: bool) -> tuple[float, ...]:
    ace, guarded, bare = (0.85, 0.45, 0.25) if two else (0.7, 0.35, 0.15)
    out = []
    for p in range(256):
        n = p.bit_count()
        v = 0.0
        has_ace = bool(p >> 7 & 1)
        if has_ace:
            v += ace if n <= 3 else ace - 0.15
        if p >> 6 & 1:
            v += guarded if (has_ace or n >= 2) else bare
            if not has_ace and n == 1:
                v -= 0.05
        out.append(v)
    return tuple(out)


_OFF: Final = (_off_table(False), _off_table(True))


@functools.lru_cache(maxsize=1 << 16)
def hand_estimate(mask: int, trump: int, players: int) -> float:
    """The basic bot's :func:`~euchre.bots.basic.hand_value` of a hand bitmask (kept
    for the last 65,536 hands asked: the expert asks for the same hands again and again
    while it weighs and plays out its worlds).

    >>> from euchre.cards import card_mask, parse_cards
    >>> round(hand_estimate(card_mask(parse_cards('JH JD AH AS 9C')), 2, 4), 2)
    3.5
    """
    tv = _TV[trump]
    tm = mask & SUIT_MASKS[trump][trump]
    v = 0.0
    for c in _bits(tm):
        v += tv[c]
    off = _OFF[players == 2]
    present = 0
    for s in range(4):
        if s == trump:
            continue
        p = (mask & SUIT_MASKS[trump][s]) >> (8 * s) & 0xFF
        if p:
            present += 1
            v += off[p]
    nt = tm.bit_count()
    if nt >= 2:
        v += 0.25 * (3 - present)
    if nt >= 4:
        v += 0.2 * (nt - 3)
    return v


def _trump_order(trump: int, card: int) -> int:
    return TRICK_STRENGTH[trump][trump][card] - 20


def _keep_key(trump: int, c: int) -> tuple[int, int]:
    """Higher is more worth keeping: trumps by rank, then aces, then by rank."""
    if EFFECTIVE_SUIT[trump][c] == trump:
        return (2, _trump_order(trump, c))
    return (1 if c & 7 == 7 else 0, c & 7)

def _build_beaters() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``_BEATERS[trump][led][strength]``: the cards stronger than that in such a trick."""
    out = []
    for t in range(4):
        per_led = []
        for led in range(4):
            row = TRICK_STRENGTH[t][led]
            per_led.append(tuple(sum(1 << c for c in range(33) if row[c] > v)
                                 for v in range(32)))
        out.append(tuple(per_led))
    return tuple(out)


_BEATERS: Final = _build_beaters()
_DUCK: Final = 0.35
"""The likelihood factor of a world in which a seat let an opponent win a trick it
could have taken (the basic bot, like most players, takes such a trick)."""


# -- the play likelihood: how the others' cards fit a world's hands -------------------------
# A seat's card, under a soft model of how players choose (the basic bot's play rules, and
# the solver's tie-break that the ``expert`` and ``pimc`` follow), rules out some of the
# cards it may have held then; a world in which it held one is that much less likely.
# Each kind of evidence has its likelihood factor: the odds of the card played when the
# seat held such a card, against when it did not.
_LOW_FOLLOW: Final = 0.05
"""It followed suit with a card that did not win the trick while holding a lower card
of the suit (players shed their lowest)."""
_LOW_DISCARD: Final = 0.7
"""It could not follow and threw a card that did not win while holding a lower card of
a plain suit (or, throwing a trump, any plain card or a lower trump)."""
_CHEAP_WIN: Final = 0.05
"""Last to play, it won the trick with a card while holding a cheaper card that also
won."""
_EQUAL_WIN: Final = 0.05
"""It won (for now) with a card while holding the next lower card still out, which
was just as good (only played cards between them): players win with the lower."""
_EQUAL_LEAD: Final = 0.3
"""It led a card while holding the next lower card of the suit still out.  The solver's
players (``pimc``, the ``expert``) never do, the basic bot, which cashes its aces first,
as often as not: 0.3 keeps most of what it tells about either (log loss of the true
hands, three-handed, pimc 1.479 without the inference, 1.371 with 0.1, 1.388 with 0.3;
basic 1.296, 1.293, 1.256)."""
_LOW_LEAD: Final = 0.85
"""It led a plain card while holding a lower one of the same suit."""
_KEEP: Final = 0.3
"""Worlds of a lower play likelihood are redrawn (see :meth:`_Worlds.weighted_world`)."""
_REDRAWS: Final = 12
"""With the inference on, the most worlds drawn for one kept (see
:meth:`_Worlds.weighted_world`)."""


def _rank_below() -> tuple[int, ...]:
    """``_RANK_BELOW[r]``: the plain cards (no joker) of rank below ``r``, every suit."""
    return tuple(sum(1 << c for c in range(32) if c & 7 < r) for r in range(8))


_RANK_BELOW: Final = _rank_below()
_FULL: Final = (1 << 33) - 1


def _tricks(obs: Observation, trump: int) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """The tricks played so far, the one in progress last if begun: each as its led suit
    (trump-aware, RULES §2) and its (seat, card id) plays in order."""
    for trick in (*(t.cards for t in obs.tricks), obs.trick):
        if trick:
            yield (EFFECTIVE_SUIT[trump][int(trick[0][1])],
                   [(seat, int(card)) for seat, card in trick])


def _played_after(order: list[tuple[int, int]], seat: int, at: int) -> int:
    """The cards ``seat`` played after play ``at`` of ``order`` (the (seat, card id) plays
    of the deal so far), as a bitmask: with its hand now, its hand at that play."""
    later = 0
    for s, c in order[at + 1:]:
        if s == seat:
            later |= 1 << c
    return later


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


# -- what the seat knows, and the likelihood of what the others did ----------------------
class _Know(InfoSet):
    """What the observation tells about where the unseen cards may lie
    (:class:`~euchre.worlds.InfoSet`), and the evidence of the others' bids and plays."""

    def __init__(self, obs: Observation) -> None:
        super().__init__(view_from_observation(obs), obs.seat)
        self.obs = obs
        self.rules = obs.rules
        turnup = self.turnup
        if turnup == JOKER:
            fixed = self.rules.joker_suit
            self.turnup_suit = -1 if fixed is None else int(fixed)
        else:
            self.turnup_suit = turnup >> 3
        me = self.me
        trump = self.trump
        # (seat, winning seat, cards that would have beaten it, the seat's cards played
        # later): a seat that let an opponent's card stand when it held a legal card that
        # beat it (its hand then: its hand now and the cards it played since)
        ducks: list[tuple[int, int, int, int]] = []
        order: list[tuple[int, int]] = []
        for led, trick in _tricks(obs, trump):
            row = TRICK_STRENGTH[trump][led]
            best = -1
            winner = -1
            for seat, c in trick:
                follows = EFFECTIVE_SUIT[trump][c] == led
                if winner >= 0 and row[c] <= best and seat != me:
                    beat = _BEATERS[trump][led][best]
                    if follows:
                        beat &= SUIT_MASKS[trump][led]
                    ducks.append((seat, winner, beat, len(order)))
                if row[c] > best:
                    best, winner = row[c], seat
                order.append((seat, c))
        self.ducks = [(seat, winner, beat, _played_after(order, seat, at))
                      for seat, winner, beat, at in ducks]
        self.bid_terms = self._bid_terms()
        self._play_terms: list[tuple[int, int, int, float]] | None = None

    def _lead_terms(self, terms: list[tuple[int, int, int, float]], seat: int,
                    c: int, seen: int, at: int) -> None:
        """The terms of a lead (see :meth:`play_terms`)."""
        trump = self.trump
        suit = EFFECTIVE_SUIT[trump][c]
        row = TRICK_STRENGTH[trump][suit]
        mine = self.hand
        same = SUIT_MASKS[trump][suit] & self.deck & ~(1 << c)
        lower = same & ~_BEATERS[trump][suit][row[c] - 1]
        below = lower & ~seen
        if below:
            nxt = max(_bits(below), key=lambda x: row[x])
            if not mine >> nxt & 1:
                terms.append((seat, 1 << nxt, at, _EQUAL_LEAD))
        if suit != trump and lower:
            terms.append((seat, lower, at, _LOW_LEAD))

    def play_terms(self) -> list[tuple[int, int, int, float]]:
        """(seat, cards, cards it played later, factor) for each card another seat played
        that tells against its having held any of ``cards`` then (the kinds of evidence
        and their factors: ``_LOW_FOLLOW`` to ``_LOW_LEAD``); computed once, on first
        use."""
        if self._play_terms is not None:
            return self._play_terms
        terms: list[tuple[int, int, int, float]] = []  # (seat, bad, index played, factor)
        me = self.me
        trump = self.trump
        obs = self.obs
        seats = self.n - self.out.bit_count()
        trumps = SUIT_MASKS[trump][trump] if trump >= 0 else 0
        seen = 0
        order: list[tuple[int, int]] = []
        for led, trick in _tricks(obs, trump):
            ledmask = SUIT_MASKS[trump][led]
            beaters = _BEATERS[trump][led]
            row = TRICK_STRENGTH[trump][led]
            best = -1
            for i, (seat, c) in enumerate(trick):
                bit = 1 << c
                v = row[c]
                if seat != me and i == 0:
                    self._lead_terms(terms, seat, c, seen, len(order))
                if seat != me and i > 0:
                    follows = EFFECTIVE_SUIT[trump][c] == led
                    if v <= best:
                        # it did not win: it would have shed a lower card
                        if follows:
                            bad = ledmask & ~beaters[v - 1]
                            terms.append((seat, bad & ~bit, len(order), _LOW_FOLLOW))
                        elif c & trumps:
                            bad = _FULL & ~trumps | (trumps & ~beaters[v - 1])
                            terms.append((seat, bad & ~bit & ~ledmask, len(order),
                                          _LOW_DISCARD))
                        else:
                            bad = _RANK_BELOW[c & 7] & ~trumps & ~ledmask
                            terms.append((seat, bad, len(order), _LOW_DISCARD))
                    else:
                        # it won: with the cheapest card that would
                        suit = ledmask if follows else trumps
                        cheaper = beaters[best] & ~beaters[v - 1] & suit & ~bit
                        if i == seats - 1:
                            terms.append((seat, cheaper, len(order), _CHEAP_WIN))
                        else:
                            # the next lower card still out, if it wins too
                            below = cheaper & ~seen
                            if below:
                                nxt = max(_bits(below), key=lambda x: row[x])
                                if not self.hand >> nxt & 1:
                                    terms.append((seat, 1 << nxt, len(order),
                                                  _EQUAL_WIN))
                if v > best:
                    best = v
                seen |= bit
                order.append((seat, c))
        out = []
        for seat, bad, at, factor in terms:
            if bad:
                out.append((seat, bad, _played_after(order, seat, at), factor))
        self._play_terms = out
        return out

    def _bid_terms(self) -> list[tuple[int, int, int, bool]]:
        """(seat, kind, suit, alone) of the other seats' bids: kind 0 pass round 1,
        1 order, 2 pass round 2 (suit: the one turned down), 3 name a suit."""
        obs = self.obs
        n = self.n
        terms: list[tuple[int, int, int, bool]] = []
        passes = 0
        naming = self.turnup == JOKER and self.rules.joker_suit is None
        for e in obs.events:
            a = e.action
            if a is None:
                continue
            k = a.kind
            if k is ActionKind.PASS:
                if naming:
                    break
                kind = 0 if passes < n else 2
                passes += 1
                if e.seat != self.me:
                    terms.append((e.seat, kind, self.turnup_suit, False))
            elif k is ActionKind.ORDER:
                if e.seat != self.me:
                    terms.append((e.seat, 1, self.turnup_suit, a.alone))
                break
            elif k is ActionKind.TRUMP:
                if e.seat != self.me and a.suit is not None:
                    terms.append((e.seat, 3 if not naming else 4, int(a.suit), a.alone))
                break
            else:
                break
        return terms


# -- sampling worlds -------------------------------------------------------------------------
class World(NamedTuple):
    """One sampled deal of the cards a seat cannot see (see :func:`sample_weighted_world`)."""

    hands: tuple[int, ...]
    """Each seat's cards now as a bitmask (the observing seat's own hand included; a
    seat sitting out holds nothing here: its cards are in ``rest``)."""
    dummy: int
    """Three-handed, before the maker takes it up: the dummy; else 0."""
    rest: int
    """Every other unseen card: the kitty, the others' discards, a sitting-out hand."""
    weight: float
    """The likelihood of the other seats' bids with these hands (unnormalised)."""


def sample_weighted_world(observation: Observation, rng: random.Random | None = None,
                          inference: bool = False) -> World | None:
    """Deal the cards ``observation``'s seat cannot see, consistently with what it saw
    (the module doc lists the constraints), and weigh the deal by the bids seen (and,
    with ``inference``, by the cards the others played).

    Unlike :func:`euchre.worlds.sample_world` (a uniform world as a core state, for the
    searches), it reads a :class:`~euchre.deal.Observation` and returns a :class:`World`
    of bitmasks with the likelihood the expert weighs it by.

    ``None`` only if no consistent deal was found (it should not happen).
    """
    worlds = _Worlds(_Know(observation), rng if rng is not None else random.Random(),
                     inference)
    hands = worlds.world()
    if hands is None:
        return None
    n = worlds.n
    return World(tuple(hands[:n]), hands[n] if n == 3 else 0, hands[n + 1],
                 worlds.weight(hands))


class _Worlds:
    """Sampling worlds for a seat's knowledge, and weighing them by the others' bids and
    plays."""

    def __init__(self, k: _Know, rng: random.Random, inference: bool = False) -> None:
        self.k = k
        self.rng = rng
        self.n = k.n
        self.bar = BasicBot.bid_bar[k.n]
        self.inference = inference
        """Weigh worlds by the others' cards too (:meth:`_Know.play_terms`)."""
        self.play_terms = k.play_terms() if inference and k.phase == _PLAY else []

    def world(self) -> list[int] | None:
        """One sampled world (:meth:`euchre.worlds.InfoSet.world`): ``hands[seat]`` (mine
        included), ``hands[n]`` the hidden dummy three-handed, ``hands[n + 1]`` the rest
        (kitty, discards, sitting out)."""
        return self.k.world(self.rng)

    # -- the bid likelihood ------------------------------------------------------------------
    def estimate(self, hand: int, trump: int, seat: int, takes_turnup: bool,
                 alone: bool = False) -> float:
        """The basic bot's estimate of the tricks ``seat``'s side takes with ``trump``."""
        k = self.k
        n = self.n
        if takes_turnup and seat == k.dealer:
            full = hand | 1 << k.turnup
            if full.bit_count() > 5:
                keep = full & ~(1 << k.turnup) if k.rules.dealer_must_take_up else full
                best = -1.0
                for c in _bits(keep):
                    best = max(best, hand_estimate(full & ~(1 << c), trump, n))
                return best + (0.0 if alone or n != 3 else _DUMMY_BONUS)
            v = hand_estimate(full, trump, n)
        else:
            v = hand_estimate(hand, trump, n)
            if takes_turnup:
                tv = _TV[trump][k.turnup]
                if k.dealer == k.rules.partner_of(seat):
                    v += 0.6 * tv
                else:
                    v -= 0.5 * tv
            elif (n == 4 and seat == (k.dealer + 1) % 4 and k.turnup != JOKER
                    and trump == k.turnup >> 3 ^ 3):
                v += 0.15  # "next": the dealer's side showed no interest in that colour
        if n == 3 and not alone:
            v += _DUMMY_BONUS
        return v

    def weighted_world(self) -> tuple[list[int] | None, float]:
        """A world (see :meth:`world`) and its weight (:meth:`weight`).

        With the inference on, a world the cards the others played tell against is
        mostly redrawn rather than solved for little weight
        (:meth:`euchre.worlds.InfoSet.screened_world`, with the play likelihood
        :meth:`play_factor`, ``_KEEP`` and ``_REDRAWS``)."""
        if not self.inference or not (self.play_terms or self.k.ducks):
            hands = self.world()
            return hands, 0.0 if hands is None else self.weight(hands)
        return self.k.screened_world(self.rng, self.play_factor, self.bid_factor, _KEEP,
                                     _REDRAWS)

    def weight(self, hands: list[int]) -> float:
        """How likely the other seats' bids and plays are with these hands
        (unnormalised)."""
        return self.bid_factor(hands, self.play_factor(hands))

    def play_factor(self, hands: list[int]) -> float:
        """How likely the cards the other seats played are with these hands, relative to
        hands that fit them best (at most 1)."""
        k = self.k
        w = 1.0
        if k.ducks and _DUCK < 1:
            for seat, winner, beat, later in k.ducks:
                if (hands[seat] | later) & beat and not self._same_side(seat, winner, hands):
                    w *= _DUCK
        for seat, bad, later, factor in self.play_terms:
            if (hands[seat] | later) & bad:
                w *= factor
        return w

    def bid_factor(self, hands: list[int], w: float = 1.0) -> float:
        """``w`` times how likely the other seats' bids are with these hands (at most
        1)."""
        k = self.k
        for seat, kind, suit, alone in k.bid_terms:
            hand = hands[seat] | k.played[seat]
            if kind == 0:
                est = self.estimate(hand, suit, seat, True)
                x = (self.bar - est) / _TAU
            elif kind == 1:
                est = self.estimate(hand, suit, seat, True, alone)
                x = (est - self.bar - (1.0 if alone else 0.0)) / _TAU
            elif kind == 2:
                est = max(self.estimate(hand, s, seat, False) for s in range(4) if s != suit)
                x = (self.bar - est) / _TAU
            else:
                est = self.estimate(hand, suit, seat, kind == 4, alone)
                x = (est - self.bar - (1.0 if alone else 0.0)) / _TAU
            w *= max(_FLOOR, _sigmoid(x))
        return w

    def _same_side(self, seat: int, other: int, hands: list[int]) -> bool:
        """Whether ``seat`` plays with ``other`` this deal, as far as ``seat`` knows."""
        n = self.n
        obs = self.k.obs
        maker = obs.maker
        if n == 4:
            return (seat - other) % 2 == 0
        if n == 3:
            return seat != maker and other != maker
        if n == 5 and maker is not None and obs.called is not None:
            called = int(obs.called)
            holder = obs.partner
            if holder is None:
                holder = next((s for s in range(n) if hands[s] >> called & 1), -1)
            return (seat == holder and other == maker) or (
                seat != maker and seat != holder and other != maker and other != holder)
        return False
