"""Bidding learned by counterfactual regret: the abstraction, the shipped strategy, the bidder.

The trainer (:mod:`euchre.jobs.cfr`, ``euchre train cfr``) runs Monte Carlo counterfactual
regret minimisation over the decisions before the first lead; this module holds what it and
the bot share, so that both see a decision the same way.

**The abstraction.**  A decision's *information set* is reduced to a small key, and its
actions to at most :data:`SLOTS` abstract actions (*slots*), by group (:data:`GROUPS`):

========  ==========================================  ======================================
group     key                                          slots
========  ==========================================  ======================================
bid1      seat from the dealer, turn-up rank, hand     pass, order up, order up alone
bid2      seat from the dealer, next suit?, hand       pass, name the best suit, alone
name      hand (a turned-up joker: the dealer names)   --, name the best suit, alone
exchange  the maker from the dealer, alone?, hand      the 1st, 2nd, 3rd likeliest discard
call      the maker from the dealer, hand              the 1st to 5th likeliest call
defend    seat from the dealer, hand                   pass, defend alone
========  ==========================================  ======================================

*Hand* is :func:`hand_bucket` in the suit that would be trump: which of the three highest
trumps it holds, how many lower trumps (up to 3), its off-suit aces (up to 3) and its void
off suits (up to 2), 384 buckets.  So hands equal up to the suits' symmetry relative to the
turn-up map to the same key (the two suits of the other colour are interchangeable, and
the cards below the ace of an off suit are not told apart).  The dealer's round-1 hand is
its hand with the turn-up taken and the basic bot's discard made.  In round 2 the "best
suit" is the one of highest :func:`~euchre.bots.knowledge.hand_estimate` among those
legal (another suit is never named), and "next" says whether it has the turned-down
suit's colour.  The discards and the calls are ranked by the basic bot's rules
(:func:`~euchre.bots.basic.discard_card`, :func:`~euchre.bots.basic.call_key`).  The score
of the game is left out: the strategy is one of single deals.  The three-handed dummy merge
is outside the abstraction (the trainer takes the basic keep, the bot the expert's).

**The bidder.**  :class:`CfrExpertBot` (``expert:W:cfr``) is the expert whose decisions
before the first lead follow the average strategy of the shipped file for the game's rules,
wherever the file knows the information set (trained at least ``visits`` times); elsewhere,
and in play, it is the expert.  It draws the abstract action from the strategy with its own
seeded generator after dropping what has less than :data:`PURIFY` of the weight (a small
trained table holds noise there), so the same seed gives the same bids.

>>> from euchre.cards import card_mask, parse_cards
>>> hand = card_mask(parse_cards('JH JD AH AS 9C'))
>>> hand_bucket(hand, 2, pack_mask(24, False)) == hand_bucket(
...     card_mask(parse_cards('JH JD AH AC 9S')), 2, pack_mask(24, False))
True
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre.actions import (
    CALL,
    DEFEND_ALONE,
    DISCARD,
    ORDER,
    ORDER_ALONE,
    PASS,
    TRUMP,
    TRUMP_ALONE,
    Action,
)
from euchre.bots.basic import call_key, discard_card
from euchre.bots.expert import DEFAULT_SAMPLES, DEFAULT_TIME_BUDGET, ExpertBot
from euchre.bots.knowledge import hand_estimate
from euchre.bots.modelfiles import file_name, rules_key, shipped
from euchre.cards import EFFECTIVE_SUIT, JOKER, SUIT_MASKS, TRICK_STRENGTH, pack_mask
from euchre.deal import Observation, Phase
from euchre.rules import Rules
from euchre.sides import callable_cards

__all__ = [
    "ADOPTED",
    "GROUPS",
    "KEYS",
    "PURIFY",
    "SLOTS",
    "STRATEGY_FORMAT",
    "CfrExpertBot",
    "Strategy",
    "StrategyError",
    "hand_bucket",
    "infoset",
    "infoset_of",
    "strategy_for",
    "strategy_name",
]

SLOTS: Final = 5
"""Abstract actions an information set may have (the call's five likeliest cards)."""
HANDS: Final = 384
"""The hand buckets of :func:`hand_bucket`: 8 top-trump patterns x 4 x 4 x 3."""
_SEATS: Final = 5

GROUPS: Final = ("bid1", "bid2", "name", "exchange", "call", "defend")
"""The groups of decisions, in the order of the keys."""
_SIZES: Final = (_SEATS * 3 * HANDS, _SEATS * 2 * HANDS, HANDS, _SEATS * 2 * HANDS,
                 _SEATS * HANDS, _SEATS * HANDS)
_OFFSETS: Final = tuple(sum(_SIZES[:i]) for i in range(len(_SIZES)))
KEYS: Final = sum(_SIZES)
"""The number of information-set keys: the rows of the trainer's tables."""

PURIFY: Final = 0.1
"""Abstract actions with less than this share of an information set's average strategy
are never taken by the bot."""

STRATEGY_FORMAT: Final = "euchre-cfr-strategy"
_VERSION: Final = 1

# the core's phases (euchre.core; the order of euchre.deal.Phase)
_BID1, _BID2, _NAME, _EXCHANGE, _DUMMY, _CALL, _DEFEND = range(7)


# -- the abstraction --------------------------------------------------------------------------
@cache
def _trumps_ranked(trump: int, pack: int) -> tuple[int, ...]:
    """The trump cards of the pack, highest first (RULES §2)."""
    cards = [c for c in range(33) if pack >> c & 1 and EFFECTIVE_SUIT[trump][c] == trump]
    return tuple(sorted(cards, key=lambda c: -TRICK_STRENGTH[trump][trump][c]))


def hand_bucket(hand: int, trump: int, pack: int) -> int:
    """The hand's bucket (0 to 383) with ``trump`` as trump: which of the three highest
    trumps of the pack it holds, its lower trumps, off-suit aces and void off suits.

    >>> from euchre.cards import card_mask, parse_cards
    >>> p = pack_mask(24, False)
    >>> hand_bucket(card_mask(parse_cards('9C TC QD KD KS')), 2, p)  # hearts: nothing
    0
    >>> hand_bucket(card_mask(parse_cards('JH JD AH TH 9H')), 2, p)  # every trump
    362
    """
    ranked = _trumps_ranked(trump, pack)
    top = sum(1 << i for i in range(3) if hand >> ranked[i] & 1)
    lower = min(3, (hand & SUIT_MASKS[trump][trump]).bit_count() - top.bit_count())
    aces = voids = 0
    for s in range(4):
        if s == trump:
            continue
        cards = hand & SUIT_MASKS[trump][s]
        if not cards:
            voids += 1
        elif cards >> (s * 8 + 7) & 1:
            aces += 1
    return ((top * 4 + lower) * 4 + min(aces, 3)) * 3 + min(voids, 2)


def _turnup_rank(turnup: int) -> int:
    """0 a jack or the joker (a bower for the maker), 1 an ace or a king, 2 lower."""
    if turnup == JOKER or turnup & 7 == 4:
        return 0
    return 1 if turnup & 7 >= 6 else 2


def _best_suit(hand: int, suits: Collection[int], players: int) -> int:
    """The suit of highest hand estimate among ``suits`` (the lowest on a tie)."""
    return max(sorted(suits), key=lambda s: hand_estimate(hand, s, players))


def _discards(hand: int, trump: int, forbid: int) -> list[int]:
    """The three likeliest discards by the basic bot's rule, likeliest first."""
    out = []
    rest = hand & ~forbid
    for _ in range(3):
        if not rest:
            break
        c = discard_card(rest, trump)
        out.append(c)
        rest &= ~(1 << c)
    return out


def infoset(rules: Rules, phase: int, seat: int, dealer: int, hand: int, turnup: int,
            trump: int, maker: int, alone: bool, legal: Collection[int], calls: int = 0
            ) -> tuple[int, list[int]] | None:
    """The key of a decision before the first lead and the action id of each slot
    (-1: not available), or ``None`` outside the abstraction (see the module doc).

    ``phase`` is the core's (:mod:`euchre.core`), ``hand`` a bitmask, ``trump`` and
    ``maker`` -1 until fixed, ``legal`` the legal action ids, ``calls`` the cards the maker
    may call (five-handed).

    >>> from euchre.cards import Card, card_mask, parse_cards
    >>> hand = card_mask(parse_cards('JH JD AH AS 9C'))
    >>> key, slots = infoset(Rules(players=4), 0, 1, 0, hand, int(Card.parse('KH')), -1,
    ...                      -1, False, {PASS, ORDER, ORDER_ALONE})
    >>> slots
    [99, 100, 101, -1, -1]
    """
    n = rules.players
    pack = pack_mask(rules.deck, rules.joker)
    pos = (seat - dealer) % n
    slots = [-1] * SLOTS

    def offer(slot: int, action: int) -> None:
        if action in legal:
            slots[slot] = action

    if phase == _BID1:
        t = turnup >> 3 if turnup != JOKER else rules.joker_suit
        if t is None:
            return None
        t = int(t)
        h = hand
        if seat == dealer:
            h |= 1 << turnup
            h &= ~(1 << discard_card(h, t, (1 << turnup) if rules.dealer_must_take_up else 0))
        key = _OFFSETS[0] + (pos * 3 + _turnup_rank(turnup)) * HANDS + hand_bucket(h, t, pack)
        offer(0, PASS)
        offer(1, ORDER)
        offer(2, ORDER_ALONE)
    elif phase in (_BID2, _NAME):
        suits = {(a - TRUMP) % 4 for a in legal if TRUMP <= a < DEFEND_ALONE}
        if not suits:
            return None
        best = _best_suit(hand, suits, n)
        bucket = hand_bucket(hand, best, pack)
        if phase == _BID2:
            nxt = int(turnup != JOKER and best == (turnup >> 3) ^ 3)
            key = _OFFSETS[1] + (pos * 2 + nxt) * HANDS + bucket
            offer(0, PASS)
        else:
            key = _OFFSETS[2] + bucket
        offer(1, TRUMP + best)
        offer(2, TRUMP_ALONE + best)
    elif phase == _EXCHANGE:
        forbid = (1 << turnup) if rules.dealer_must_take_up else 0
        mpos = (maker - dealer) % n
        key = _OFFSETS[3] + (mpos * 2 + int(alone)) * HANDS + hand_bucket(hand, trump, pack)
        for i, c in enumerate(_discards(hand, trump, forbid)):
            offer(i, DISCARD + c)
    elif phase == _CALL:
        cards = [c for c in range(33) if calls >> c & 1]
        cards.sort(key=lambda c: call_key(trump, hand, c))
        key = _OFFSETS[4] + pos * HANDS + hand_bucket(hand, trump, pack)
        for i, c in enumerate(cards[:SLOTS]):
            offer(i, CALL + c)
    elif phase == _DEFEND:
        key = _OFFSETS[5] + pos * HANDS + hand_bucket(hand, trump, pack)
        offer(0, PASS)
        offer(1, DEFEND_ALONE)
    else:
        return None
    if all(a < 0 for a in slots):
        return None
    return key, slots


_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(Phase)}


def infoset_of(obs: Observation) -> tuple[int, list[int]] | None:
    """:func:`infoset` of a seat's observation (``None`` in play, in the dummy merge, or
    when the seat is not to move)."""
    if not obs.legal_actions:
        return None
    hand = 0
    for c in obs.hand:
        hand |= 1 << int(c)
    calls = 0
    if obs.phase is Phase.CALL_PARTNER:
        own = 0
        for c in obs.discards:
            own |= 1 << int(c)
        calls = callable_cards(pack_mask(obs.rules.deck, obs.rules.joker), hand,
                               bool(obs.turnup_taken), int(obs.turnup), own)
    return infoset(obs.rules, _PHASE_INDEX[obs.phase], obs.seat, obs.dealer, hand,
                   int(obs.turnup), -1 if obs.trump is None else int(obs.trump),
                   -1 if obs.maker is None else obs.maker, obs.alone,
                   {a.id for a in obs.legal_actions}, calls)


# -- the shipped strategy -------------------------------------------------------------------------
class StrategyError(ValueError):
    """A strategy file that cannot be read, or is not a CFR strategy."""


@dataclass(frozen=True)
class Strategy:
    """An average strategy: ``probabilities[i]`` over the slots of information set
    ``keys[i]`` (the keys sorted), trained ``visits[i]`` times; the header names the
    rules, the command, the seed and the iterations."""

    keys: npt.NDArray[np.int32]
    probabilities: npt.NDArray[np.float32]
    visits: npt.NDArray[np.int32]
    header: dict[str, Any]

    def __post_init__(self) -> None:
        if (self.probabilities.shape != (len(self.keys), SLOTS)
                or self.visits.shape != self.keys.shape):
            raise StrategyError(f"a strategy of {len(self.keys)} keys needs probabilities "
                                f"of shape {(len(self.keys), SLOTS)}, not "
                                f"{self.probabilities.shape}")

    @property
    def rules(self) -> Rules:
        """The rules the strategy was trained for."""
        return Rules.from_dict(self.header["rules"])

    def lookup(self, key: int, visits: int = 1) -> npt.NDArray[np.float32] | None:
        """The slots' probabilities of information set ``key``, or ``None`` when it was
        trained fewer than ``visits`` times."""
        i = int(np.searchsorted(self.keys, key))
        if i >= len(self.keys) or self.keys[i] != key or self.visits[i] < visits:
            return None
        row: npt.NDArray[np.float32] = self.probabilities[i]
        return row

    def save(self, path: str | Path) -> None:
        """Write the strategy as a compressed ``.npz`` with its JSON header."""
        header = {**self.header, "format": STRATEGY_FORMAT, "version": _VERSION,
                  "groups": list(GROUPS), "slots": SLOTS, "keys": KEYS}
        with open(path, "wb") as f:
            np.savez_compressed(f, keys=self.keys, probabilities=self.probabilities,
                                visits=self.visits,
                                header=np.array(json.dumps(header, sort_keys=True)))

    @classmethod
    def load(cls, path: str | Path) -> Strategy:
        """Read a file :meth:`save` wrote; :class:`StrategyError` if it cannot."""
        try:
            with np.load(path, allow_pickle=False) as data:
                keys = np.asarray(data["keys"], dtype=np.int32)
                probs = np.asarray(data["probabilities"], dtype=np.float32)
                visits = np.asarray(data["visits"], dtype=np.int32)
                header = json.loads(str(data["header"]))
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise StrategyError(f"cannot read the strategy {path}: {e}") from e
        if not isinstance(header, dict) or header.get("format") != STRATEGY_FORMAT:
            raise StrategyError(f"{path} is not a CFR strategy ({STRATEGY_FORMAT})")
        if (header.get("version") != _VERSION or header.get("groups") != list(GROUPS)
                or header.get("keys") != KEYS):
            raise StrategyError(f"{path} was made for another abstraction; train it again "
                                f"with `euchre train cfr`")
        if not np.all(np.isfinite(probs)) or np.any(np.diff(keys) <= 0):
            raise StrategyError(f"{path} holds probabilities that are not numbers, or "
                                f"keys out of order")
        return cls(keys, probs, visits, header)


def strategy_name(rules: Rules) -> str:
    """The strategy file's name for the rules: ``cfr-4.npz`` and the options that differ
    from the variant's defaults."""
    return file_name("cfr-", rules)


@cache
def _shipped() -> dict[str, Strategy]:
    out: dict[str, Strategy] = {}
    for path in shipped("cfr-"):
        try:
            s = Strategy.load(path)
            out[rules_key(s.rules)] = s
        except (StrategyError, ValueError) as e:  # the bot bids as the expert
            warnings.warn(f"{e}; the cfr bidder bids as the expert for these rules",
                          RuntimeWarning, stacklevel=2)
    return out


def strategy_for(rules: Rules) -> Strategy | None:
    """The strategy shipped for ``rules``, or ``None``; the files are read once, on first
    use."""
    return _shipped().get(rules_key(rules))


ADOPTED: Final = frozenset({rules_key(Rules(players=4))})
"""The rules whose shipped strategy the ``expert`` bids by: where its bids beat the
expert's own and ``pimc``'s, duplicate, the card play alike, and win as many games
against ``basic`` (docs/benchmarks.md, "The long training, and what the expert took").
Three-handed the strategy wins the duplicate sets but fewer whole games against
``basic``: it does not see the score.  Elsewhere the expert bids by its values."""


# -- the bidder ---------------------------------------------------------------------------------
class CfrExpertBot(ExpertBot):
    """The expert that bids by the average strategy (see the module doc): ``expert:W:cfr``.

    ``strategy``: the one to play (default: the one shipped for the game's rules; one made
    for other rules is never played);
    ``visits``: the training an information set needs before the strategy is trusted there.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=2)
    >>> bot = CfrExpertBot(1, samples=8, time_budget=None)
    >>> bot.act(deal.observation(1)) in deal.legal_actions()
    True
    """

    name = "expert-cfr"

    def __init__(self, seed: int | random.Random | None = None,
                 samples: int = DEFAULT_SAMPLES,
                 time_budget: float | None = DEFAULT_TIME_BUDGET,
                 strategy: Strategy | None = None, visits: int = 10,
                 search_depth: int = 1, adopted: bool = False) -> None:
        super().__init__(seed, samples, time_budget, search_depth=search_depth)
        self.strategy = strategy
        self.visits = visits
        self.adopted = adopted
        """Bid by the shipped strategy only under the rules of :data:`ADOPTED`: the
        ``expert`` as shipped (its name is then ``expert``)."""
        if adopted:
            self.name = "expert"
        self.learned = 0
        """Decisions taken by the strategy so far (the rest were the expert's)."""

    def __repr__(self) -> str:
        adopted = ", adopted=True" if self.adopted else ""
        return f"CfrExpertBot({self._repr_fields()}, visits={self.visits}{adopted})"

    def bid(self, obs: Observation) -> Action | None:
        """The strategy's action for a decision before the first lead, or ``None`` where
        it does not know the information set (or, :attr:`adopted`, where the expert does
        not bid by it)."""
        if self.adopted and rules_key(obs.rules) not in ADOPTED:
            return None
        strategy = self.strategy or strategy_for(obs.rules)
        if strategy is None or obs.phase in (Phase.PLAY, Phase.OVER):
            return None
        if strategy.header.get("rules_key", rules_key(strategy.rules)) != rules_key(obs.rules):
            return None  # a strategy of other rules: their keys mean other hands
        found = infoset_of(obs)
        if found is None:
            return None
        key, slots = found
        probs = strategy.lookup(key, self.visits)
        if probs is None:
            return None
        weights = [float(p) if a >= 0 and p >= PURIFY else 0.0
                   for p, a in zip(probs, slots, strict=True)]
        if sum(weights) <= 0:
            return None
        slot = self.rng.choices(range(SLOTS), weights)[0]
        return Action.from_id(slots[slot])

    def act(self, observation: Observation) -> Action:
        """The strategy's bid where it knows the information set, else the expert's."""
        if len(observation.legal_actions) > 1:
            action = self.bid(observation)
            if action is not None and action in observation.legal_actions:
                self.learned += 1
                self.last_values = {}
                return action
        return super().act(observation)
