"""The ``expert`` bot: Perfect Information Monte Carlo over the open-hand solver.

It sees only its :class:`~euchre.deal.Observation` (RULES §12).  For every decision it
samples *worlds*: the cards it cannot see dealt to the other hands (and to the kitty,
the dummy and the other discards), consistent with everything the seat has seen:

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
that bot bids at), and a seat that let an opponent's card win a trick is unlikely to have
held a legal card that beat it.

**Play** (RULES §8): each world is solved open-handed (:func:`euchre.solver.solve_position`,
every legal card's value); a card's value is the weighted average over the worlds.
**Every other decision** -- bidding and going alone (§4), the dealer's exchange (§5), the
dummy merge and the partner call (§6), defending alone (§7) -- is evaluated by playing each
candidate action forward in every world: the decisions still to come before the first
lead are taken by a fixed rule-of-thumb policy (the basic bot's rules, on raw ints), and
the deal is then solved from the first lead.  The seat's own next decision on the way (its
round-2 bid after passing, its exchange as dealer, its call) is not left to the policy:
its few best options are played on in every world, and the one best on average over the
worlds that reach that point is taken in all of them (the seat will not know more then).

**Values are points**: for each world the deal's result is scored by RULES §9 and the
seat's *utility* is its side's points minus the opponents' (the average of the others'
points three- and five-handed), plus :attr:`ExpertBot.game_bonus` points if the deal wins
the game for the seat and minus it if the deal loses the game (RULES §10): a lone march
that reaches the target is worth more, a euchre that hands the opponents the game costs
more.  In play a tiny ``0.001`` per expected trick of the seat's side breaks ties.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> str(ExpertBot(0, samples=8, time_budget=None).act(deal.observation(1)))
'order'
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Sequence
from typing import ClassVar, Final, NamedTuple

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
    ActionKind,
)
from euchre.bots.basic import BasicBot, march_value
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    SUIT_MASKS,
    TRICK_STRENGTH,
    cards_of,
    pack_mask,
)
from euchre.deal import Observation, Phase, deal_points
from euchre.solver import solve_position

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_TIME_BUDGET",
    "ExpertBot",
    "IntermediateBot",
    "World",
    "hand_estimate",
    "sample_world",
]

DEFAULT_SAMPLES: Final = 128
"""Worlds sampled per decision when the time budget does not stop the sampling first."""
DEFAULT_TIME_BUDGET: Final = 0.05
"""Seconds per decision (the sampling stops once spent; a few worlds are always taken)."""
_MIN_WORLDS: Final = 6
_TAU: Final = 0.5
"""Softness of the bid likelihood (in estimated tricks)."""
_FLOOR: Final = 0.05
_DUMMY_BONUS: Final = 1.45
"""Three-handed: what the dummy adds to a maker's estimate, on average (basic samples it)."""
_TRICK_TIE: Final = 0.001
_MODEL_MERGE = True
"""Three-handed: model the maker's hand as the best five of ten (else any five)."""
_ALONE_SLACK = 1.2
"""Going alone is evaluated when the march estimate is within this of the basic bar."""
_BRANCH = True
"""The seat's own later pre-play decisions: one choice per information set (else the
policy's)."""

# Internal phase numbers of the simulation.
_BID1, _BID2, _NAME, _EXCHANGE, _DUMMY, _CALL, _DEFEND, _PLAY, _OVER = range(9)
_PHASE_NO: Final = {
    Phase.BID_TURNUP: _BID1, Phase.BID_SUIT: _BID2, Phase.NAME_TRUMP: _NAME,
    Phase.EXCHANGE: _EXCHANGE, Phase.DUMMY: _DUMMY, Phase.CALL_PARTNER: _CALL,
    Phase.DEFEND: _DEFEND, Phase.PLAY: _PLAY, Phase.OVER: _OVER,
}

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


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def hand_estimate(mask: int, trump: int, players: int) -> float:
    """The basic bot's :func:`~euchre.bots.basic.hand_value` of a hand bitmask.

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


def _keep_tie(trump: int, c: int) -> float:
    """A tiny amount growing with :func:`_keep_key`: breaks exact ties between cards."""
    group, rank = _keep_key(trump, c)
    return 1e-6 * (group * 16 + rank)


def _discard_card(hand: int, trump: int, forbid: int = 0) -> int:
    """The basic bot's discard: the lowest non-trump, voiding a suit, aces kept."""
    best = -1
    best_key: tuple[int, int, int, int] = (9, 9, 9, 9)
    for c in _bits(hand & ~forbid):
        s = EFFECTIVE_SUIT[trump][c]
        if s == trump:
            key = (2, _trump_order(trump, c), 0, 0)
        else:
            length = (hand & SUIT_MASKS[trump][s]).bit_count()
            rank = c & 7
            key = (1, length, rank, 0) if rank == 7 else (0, 0 if length == 1 else 1, rank,
                                                          length)
        if key < best_key:
            best, best_key = c, key
    return best


def _greedy_keep(cards: int, trump: int, keep: int = 5) -> int:
    """The ``keep`` best cards by :func:`_keep_key` (three-handed dummy merge policy)."""
    ranked = sorted(_bits(cards), key=lambda c: _keep_key(trump, c), reverse=True)
    m = 0
    for c in ranked[:keep]:
        m |= 1 << c
    return m


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


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


# -- what the seat knows ----------------------------------------------------------------
class _Know:
    """Everything the observation tells about where the unseen cards may lie."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        self.obs = obs
        self.n = n = rules.players
        self.me = me = obs.seat
        self.rules = rules
        self.dealer = obs.dealer
        self.phase = _PHASE_NO[obs.phase]
        self.trump = -1 if obs.trump is None else int(obs.trump)
        self.turnup = turnup = int(obs.turnup)
        if turnup == JOKER:
            fixed = rules.joker_suit
            self.turnup_suit = -1 if fixed is None else int(fixed)
        else:
            self.turnup_suit = turnup >> 3
        self.out = 0
        for s in obs.sitting_out:
            self.out |= 1 << s
        self.hand = hand = _mask(obs.hand)
        self.played = played = [0] * n
        self.forbid = forbid = [0] * (n + 1)
        trump = self.trump
        # (seat, winning seat, cards that would have beaten it, the seat's cards played
        # later): a seat that let an opponent's card stand when it held a legal card that
        # beat it (its hand then: its hand now and the cards it played since)
        self.ducks: list[tuple[int, int, int, int]] = []
        order: list[tuple[int, int]] = []
        for trick in (*((t.cards) for t in obs.tricks), obs.trick):
            if not trick:
                continue
            led = EFFECTIVE_SUIT[trump][int(trick[0][1])]
            row = TRICK_STRENGTH[trump][led]
            best = -1
            winner = -1
            for seat, card in trick:
                c = int(card)
                played[seat] |= 1 << c
                follows = EFFECTIVE_SUIT[trump][c] == led
                if not follows:
                    forbid[seat] |= SUIT_MASKS[trump][led]
                if winner >= 0 and row[c] <= best and seat != me:
                    beat = _BEATERS[trump][led][best]
                    if follows:
                        beat &= SUIT_MASKS[trump][led]
                    self.ducks.append((seat, winner, beat, len(order)))
                if row[c] > best:
                    best, winner = row[c], seat
                order.append((seat, c))
        ducks = []
        for seat, winner, beat, at in self.ducks:
            later = 0
            for s2, c in order[at + 1:]:
                if s2 == seat:
                    later |= 1 << c
            ducks.append((seat, winner, beat, later))
        self.ducks = ducks
        all_played = 0
        for m in played:
            all_played |= m
        self.all_played = all_played
        known = hand | all_played | _mask(obs.discards)
        if obs.dummy is not None:
            known |= _mask(obs.dummy)
        self.require = require = [0] * (n + 1)
        tbit = 1 << turnup
        known |= tbit
        if (obs.turnup_taken and self.dealer != me and not self.out >> self.dealer & 1
                and not all_played & tbit and not forbid[self.dealer] & tbit):
            require[self.dealer] |= tbit
        # five-handed: the maker never holds the card it called
        if obs.called is not None and obs.maker is not None and obs.maker != me:
            forbid[obs.maker] |= 1 << int(obs.called)
        self.pool = _bits(pack_mask(rules.deck, rules.joker) & ~known)
        # how many unseen cards each other hand holds (a sitting-out hand does not count)
        need = [0] * (n + 1)
        for s in range(n):
            if s == me or self.out >> s & 1:
                continue
            if self.phase == _PLAY:
                need[s] = 5 - played[s].bit_count()
            else:
                need[s] = 5
            need[s] -= require[s].bit_count()
        if n == 3 and self.phase in (_BID1, _BID2, _NAME, _EXCHANGE):
            need[n] = 5  # the dummy, not yet taken up
        self.need = need
        # three-handed, a maker who took the dummy kept the best five of its ten cards
        self.merged = -1
        if (_MODEL_MERGE and n == 3 and obs.maker is not None and obs.maker != me
                and not obs.alone
                and self.phase in (_DEFEND, _PLAY) and need[obs.maker] > 0):
            self.merged = obs.maker
        slots = [s for s in range(n + 1) if need[s] > 0 and s != self.merged]
        allowed = {s: sum(1 for c in self.pool if not forbid[s] >> c & 1) for s in slots}
        self.constrained = sorted((s for s in slots if forbid[s]),
                                  key=lambda s: allowed[s] - need[s])
        self.free = [s for s in slots if not forbid[s]]
        self.bid_terms = self._bid_terms()

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


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


# -- the bot --------------------------------------------------------------------------------
class ExpertBot:
    """Perfect Information Monte Carlo over the open-hand solver (see the module doc).

    ``samples`` is the number of worlds per decision; ``time_budget`` the seconds per
    decision after which sampling stops (``None``: always the full ``samples``, so the
    bot is deterministic for its seed); ``noise`` the standard deviation (in points) of a
    Gaussian added to every value before choosing (0 for the expert).
    """

    name = "expert"
    needs_observation = True

    game_bonus: ClassVar[float] = 3.0
    """Points added to a deal's utility when it wins the game, removed when it loses it."""

    def __init__(
        self,
        seed: int | random.Random | None = None,
        samples: int = DEFAULT_SAMPLES,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        noise: float = 0.0,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples is 1 or more, not {samples}")
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.samples = samples
        self.time_budget = time_budget
        self.noise = noise
        self.worlds_used = 0
        """Worlds sampled for the last decision (for benchmarks and tests)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(samples={self.samples}, time_budget={self.time_budget})"

    # -- the public API ------------------------------------------------------------------
    def act(self, observation: Observation) -> Action:
        """The action to take: always one of ``observation.legal_actions``."""
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action now")
        if len(legal) == 1:
            self.worlds_used = 0
            return legal[0]
        values, tie = self._values(observation, everything=False)
        if not values:
            return legal[0]
        if self.noise > 0:
            values = {a: v + self.rng.gauss(0.0, self.noise) for a, v in values.items()}
        best = max(values, key=lambda a: (values[a], tie.get(a, 0.0)))
        return best if best in legal else legal[0]

    def evaluate(self, observation: Observation) -> dict[Action, float]:
        """The expected value of every legal action, in points for the seat's side.

        The unit is the utility of the module doc: the seat's side's points minus the
        opponents' for this deal (RULES §9), with :attr:`game_bonus` for a deal that wins
        or loses the game.  In play the value of a card includes ``0.001`` per expected
        trick of the seat's side.  Empty when the seat is not to move.
        """
        if not observation.legal_actions:
            return {}
        values, tie = self._values(observation, everything=True)
        return {a: values[a] + tie.get(a, 0.0) for a in observation.legal_actions
                if a in values}

    def best(self, values: dict[Action, float]) -> Action:
        """The action of highest value (the first such in the dict's order)."""
        return max(values, key=lambda a: values[a])

    # -- shared ---------------------------------------------------------------------------
    def _values(self, obs: Observation,
                everything: bool) -> tuple[dict[Action, float], dict[Action, float]]:
        """(value of each candidate action, tie-breaker); ``everything``: no pruning."""
        k = _Know(obs)
        if k.phase == _PLAY:
            return _PlayEval(self, k).run()
        return _PrePlayEval(self, k, everything).run()

    def _out_of_time(self, start: float, worlds: int) -> bool:
        if worlds >= self.samples:
            return True
        budget = self.time_budget
        return (budget is not None and worlds >= _MIN_WORLDS
                and time.perf_counter() - start > budget)


class IntermediateBot(ExpertBot):
    """The expert with fewer worlds and a little noise in its values: between ``basic``
    and ``expert`` (docs/benchmarks.md, "The levels"). More noise than this made it
    weaker than ``basic``."""

    name = "intermediate"

    def __init__(self, seed: int | random.Random | None = None, samples: int = 16,
                 time_budget: float | None = 0.015, noise: float = 0.05) -> None:
        super().__init__(seed, samples=samples, time_budget=time_budget, noise=noise)


# -- sampling worlds -------------------------------------------------------------------------
class World(NamedTuple):
    """One sampled deal of the cards a seat cannot see (see :func:`sample_world`)."""

    hands: tuple[int, ...]
    """Each seat's cards now as a bitmask (the observing seat's own hand included; a
    seat sitting out holds nothing here: its cards are in ``rest``)."""
    dummy: int
    """Three-handed, before the maker takes it up: the dummy; else 0."""
    rest: int
    """Every other unseen card: the kitty, the others' discards, a sitting-out hand."""
    weight: float
    """The likelihood of the other seats' bids with these hands (unnormalised)."""


def sample_world(observation: Observation,
                 rng: random.Random | None = None) -> World | None:
    """Deal the cards ``observation``'s seat cannot see, consistently with what it saw
    (the module doc lists the constraints), and weigh the deal by the bids seen.

    ``None`` only if no consistent deal was found (it should not happen).
    """
    bot = ExpertBot(rng if rng is not None else random.Random())
    ev = _Evaluator(bot, _Know(observation))
    hands = ev.world()
    if hands is None:
        return None
    n = ev.n
    return World(tuple(hands[:n]), hands[n] if n == 3 else 0, hands[n + 1],
                 ev.weight(hands))


class _Evaluator:
    """What the play and the pre-play evaluations share: worlds, weights, points."""

    def __init__(self, bot: ExpertBot, k: _Know) -> None:
        self.bot = bot
        self.k = k
        self.rng = bot.rng
        self.n = k.n
        obs = k.obs
        self.scores = obs.scores
        self.target = obs.rules.target
        self.bar = BasicBot.bid_bar[k.n]
        self.alone_bar = BasicBot.alone_bar.get(k.n, 99.0)
        self._utils: dict[tuple[int, int, bool, bool], float] = {}

    def world(self) -> list[int] | None:
        """One sampled world: ``hands[seat]`` (mine included), ``hands[n]`` the hidden
        dummy three-handed, ``hands[n + 1]`` the rest (kitty, discards, sitting out)."""
        for attempt in range(60):
            relax = attempt >= 40
            got = self._try_world(relax)
            if got is not None:
                return got
        return None

    def _try_world(self, relax: bool) -> list[int] | None:
        k = self.k
        cards = k.pool.copy()
        self.rng.shuffle(cards)
        hands = [0] * (k.n + 2)
        for s in range(k.n + 1):
            hands[s] = k.require[s]
        hands[k.me] = k.hand
        dead = 0
        m = k.merged
        if m >= 0:
            # its hand and the dummy: five unseen cards more than it holds now; it kept
            # the best (by the dummy-merge policy) of those it may still hold
            need = k.need[m]
            drawn = cards[:need + 5]
            cards = cards[need + 5:]
            forbid = 0 if relax else k.forbid[m]
            allowed = sorted((c for c in drawn if not forbid >> c & 1),
                             key=lambda c: _keep_key(k.trump, c), reverse=True)
            if len(allowed) < need:
                return None
            kept = allowed[:need]
            for c in drawn:
                if c in kept:
                    hands[m] |= 1 << c
                else:
                    dead |= 1 << c
        for s in k.constrained:
            need = k.need[s]
            forbid = 0 if relax else k.forbid[s]
            got = 0
            rest = []
            m = hands[s]
            for c in cards:
                if got < need and not forbid >> c & 1:
                    m |= 1 << c
                    got += 1
                else:
                    rest.append(c)
            if got < need:
                return None
            hands[s] = m
            cards = rest
        pos = 0
        for s in k.free:
            need = k.need[s]
            m = hands[s]
            for c in cards[pos:pos + need]:
                m |= 1 << c
            hands[s] = m
            pos += need
        r = dead
        for c in cards[pos:]:
            r |= 1 << c
        hands[k.n + 1] = r
        return hands

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
                if n == 4 and k.dealer == (seat + 2) % 4:
                    v += 0.6 * tv
                else:
                    v -= 0.5 * tv
            elif (n == 4 and seat == (k.dealer + 1) % 4 and k.turnup != JOKER
                    and trump == k.turnup >> 3 ^ 3):
                v += 0.15  # "next": the dealer's side showed no interest in that colour
        if n == 3 and not alone:
            v += _DUMMY_BONUS
        return v

    def weight(self, hands: list[int]) -> float:
        """How likely the other seats' bids and plays are with these hands
        (unnormalised)."""
        k = self.k
        w = 1.0
        if k.ducks and _DUCK < 1:
            for seat, winner, beat, later in k.ducks:
                if (hands[seat] | later) & beat and not self._same_side(seat, winner, hands):
                    w *= _DUCK
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

    # -- points ----------------------------------------------------------------------------
    def utility(self, maker: int, partner: int, made: int, alone: bool,
                lone_defender: bool) -> float:
        """The seat's utility of a deal's result (see the module doc); cached."""
        key = (maker * 8 + partner + 1, made, alone, lone_defender)
        u = self._utils.get(key)
        if u is None:
            u = self._utility(maker, partner, made, alone, lone_defender)
            self._utils[key] = u
        return u

    def _utility(self, maker: int, partner: int, made: int, alone: bool,
                 lone_defender: bool) -> float:
        n = self.n
        side = {maker}
        if n == 4:
            side.add((maker + 2) % 4)
        elif n == 5 and partner >= 0:
            side.add(partner)
        return self.utility_of_gains(deal_points(n, side, made, alone, lone_defender))

    def utility_of_gains(self, gains: Sequence[int]) -> float:
        """Net points for the seat, with the game bonus (module doc)."""
        n = self.n
        me = self.k.me
        if n == 4:
            net = float(gains[me] - gains[(me + 1) % 4])
        elif n == 2:
            net = float(gains[me] - gains[1 - me])
        else:
            net = gains[me] - sum(g for s, g in enumerate(gains) if s != me) / (n - 1)
        new = [a + b for a, b in zip(self.scores, gains, strict=True)]
        top = max(new)
        if top >= self.target:
            winners = [s for s, v in enumerate(new) if v == top]
            bonus = self.bot.game_bonus
            if me in winners:
                net += bonus if n == 4 else bonus / len(winners)
            else:
                net -= bonus
        return net


# -- play ---------------------------------------------------------------------------------------
class _PlayEval(_Evaluator):
    """Every legal card's value: the weighted average over worlds of the solved deal."""

    def run(self) -> tuple[dict[Action, float], dict[Action, float]]:
        k = self.k
        obs = k.obs
        legal = [int(a.card) for a in obs.legal_actions if a.card is not None]
        n = self.n
        trump = k.trump
        maker = obs.maker
        assert maker is not None
        trick = [int(c) for _, c in obs.trick]
        leader = obs.trick[0][0] if obs.trick else k.me
        tricks_left = 5 - len(obs.tricks)
        won = obs.tricks_won
        lone = obs.lone_defender is not None
        called = -1 if obs.called is None else int(obs.called)
        totals = dict.fromkeys(legal, 0.0)
        tricks = dict.fromkeys(legal, 0.0)
        weight_sum = 0.0
        start = time.perf_counter()
        worlds = 0
        bot = self.bot
        while not bot._out_of_time(start, worlds):
            hands = self.world()
            worlds += 1
            if hands is None:
                break
            w = self.weight(hands)
            # the maker's side in this world
            partner = -1
            alone = obs.alone
            if n == 4:
                partner = (maker + 2) % 4
            elif n == 5 and not obs.alone:
                if obs.partner is not None:
                    partner = obs.partner
                elif called >= 0:
                    bit = 1 << called
                    for s in range(n):
                        if hands[s] & bit:
                            partner = s
                            break
                    else:
                        alone = True  # the called card is buried: alone unknowingly
            makers = 1 << maker
            if partner >= 0 and not k.out >> partner & 1:
                makers |= 1 << partner
            play_hands = [0 if k.out >> s & 1 else hands[s] for s in range(n)]
            sol = solve_position(play_hands, trump, makers, leader, trick, k.out, True)
            side_won = won[maker] + (won[partner] if partner >= 0 else 0)
            mine = makers >> k.me & 1 == 1
            util_maker = partner if n == 5 else -1
            for c, v in sol.values.items():
                if c not in totals:
                    continue
                u = self.utility(maker, util_maker, side_won + v, alone, lone)
                totals[c] += w * u
                tricks[c] += w * (v if mine else tricks_left - v)
            weight_sum += w
        bot.worlds_used = worlds
        if weight_sum <= 0:
            weight_sum = 1.0
        values = {Action.play(c): totals[c] / weight_sum for c in legal}
        # ties: more tricks, then the card least worth keeping (low cards go first)
        tie = {Action.play(c): _TRICK_TIE * tricks[c] / weight_sum - _keep_tie(trump, c)
               for c in legal}
        return values, tie


# -- before the play -------------------------------------------------------------------------
class _Sim:
    """The rest of the bidding, exchange, dummy, call and defence of one world, on raw
    ints, as the engine plays them (RULES §4-§8)."""

    __slots__ = ("alone", "bids", "dummy", "exchange", "forced", "hands", "lone", "maker",
                 "out", "partner", "phase", "queue", "trump", "turn")

    def __init__(self) -> None:
        self.phase = _BID1
        self.turn = 0
        self.bids = 0
        self.trump = -1
        self.maker = -1
        self.alone = False
        self.exchange = False
        self.forced = False
        self.out = 0
        self.lone = -1
        self.partner = -1
        self.queue: list[int] = []
        self.hands: list[int] = []
        self.dummy = 0

    def copy(self) -> _Sim:
        other = _Sim.__new__(_Sim)
        for name in _Sim.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands.copy()
        other.queue = self.queue.copy()
        return other


class _Branch(NamedTuple):
    """The seat's own later decision in one world: its information set and the value of
    each option there."""

    key: tuple[int, ...]
    values: dict[int, float]


class _PrePlayEval(_Evaluator):
    """Each candidate action played forward in every world, then solved from the lead."""

    def __init__(self, bot: ExpertBot, k: _Know, everything: bool) -> None:
        super().__init__(bot, k)
        self.everything = everything
        obs = k.obs
        self.legal = list(obs.legal_actions)
        self.start = self._start_state()
        self._known_out = 0
        for c in obs.discards:
            self._known_out |= 1 << int(c)
        if obs.turnup_taken is False:
            self._known_out |= 1 << k.turnup

    # -- the state now ----------------------------------------------------------------------
    def _start_state(self) -> _Sim:
        k = self.k
        obs = k.obs
        n = self.n
        st = _Sim()
        st.phase = k.phase
        st.turn = k.me
        passes = sum(1 for e in obs.events
                     if e.action is not None and e.action.kind is ActionKind.PASS)
        if k.phase == _BID1:
            st.bids = passes
        elif k.phase == _BID2:
            st.bids = passes - n
        st.trump = k.trump
        st.maker = -1 if obs.maker is None else obs.maker
        st.alone = obs.alone
        st.exchange = bool(obs.turnup_taken)
        st.out = k.out
        if k.phase == _DEFEND:
            side = {st.maker, (st.maker + 2) % 4} if n == 4 else {st.maker}
            order = [(k.dealer + 1 + i) % n for i in range(n)]
            queue = [s for s in order if s not in side]
            st.queue = queue[queue.index(k.me):]
        return st

    # -- candidates ----------------------------------------------------------------------
    def _candidates(self) -> list[int]:
        """Action ids (dummy merge: keep masks, see :meth:`_dummy_candidates`)."""
        k = self.k
        legal = [a.id for a in self.legal]
        if self.everything or k.phase in (_EXCHANGE, _CALL, _DEFEND):
            return legal
        me = k.me
        if k.phase == _BID1:
            keep = [PASS, ORDER]
            if ORDER_ALONE in legal and self._alone_plausible(k.turnup_suit, True):
                keep.append(ORDER_ALONE)
            return [a for a in keep if a in legal]
        # round 2 or a turned-up joker: the two best suits, alone with the best
        suits = sorted({(a - TRUMP) % 4 for a in legal if TRUMP <= a < DEFEND_ALONE},
                       key=lambda s: -self.estimate(k.hand, s, me, k.phase == _NAME))
        out = [PASS] if PASS in legal else []
        out += [TRUMP + s for s in suits[:2]]
        if suits and TRUMP_ALONE + suits[0] in legal and self._alone_plausible(
                suits[0], k.phase == _NAME):
            out.append(TRUMP_ALONE + suits[0])
        return out

    def _alone_plausible(self, trump: int, takes_turnup: bool, hand: int = -1) -> bool:
        k = self.k
        if hand < 0:
            hand = k.hand
        if takes_turnup and k.dealer == k.me:
            hand |= 1 << k.turnup
            if hand.bit_count() > 5:
                hand = _greedy_keep(hand, trump)
        top = 10 if k.rules.joker else 9
        return march_value(list(cards_of(hand)), trump, top) >= self.alone_bar - _ALONE_SLACK

    def _dummy_candidates(self) -> list[int]:
        """Keep-sets of five for the dummy merge: the best by the hand estimate, and for
        each legal discard the best set without that card."""
        k = self.k
        cards = _bits(k.hand)
        ranked = sorted(
            (sum(1 << c for c in combo) for combo in itertools.combinations(cards, 5)),
            key=lambda m: -hand_estimate(m, k.trump, 3))
        top = ranked[:6 if self.everything else 5]
        best_without: dict[int, int] = {}
        for c in cards:
            for m in ranked:
                if not m >> c & 1:
                    best_without[c] = m
                    break
        if self.everything:
            for m in best_without.values():
                if m not in top:
                    top.append(m)
        return top

    # -- running -------------------------------------------------------------------------
    def run(self) -> tuple[dict[Action, float], dict[Action, float]]:
        k = self.k
        dummy_phase = k.phase == _DUMMY
        cands = self._dummy_candidates() if dummy_phase else self._candidates()
        totals = [0.0] * len(cands)
        # the seat's own later decisions (its round-2 bid, its exchange, its call) are
        # taken once per information set, the same in every world: the option best on
        # average over the worlds that reach it
        branched: list[tuple[int, float, _Branch]] = []
        at_key: dict[tuple[int, ...], dict[int, float]] = {}
        weight_sum = 0.0
        bot = self.bot
        start = time.perf_counter()
        worlds = 0
        while not bot._out_of_time(start, worlds):
            hands = self.world()
            worlds += 1
            if hands is None:
                break
            w = self.weight(hands)
            base = self.start.copy()
            base.hands = hands[:self.n]
            base.dummy = hands[self.n] if self.n == 3 else 0
            cache: dict[tuple[int, ...], float] = {}
            for i, a in enumerate(cands):
                st = base.copy()
                got = self._finish(st, a, cache, branch=not dummy_phase)
                if isinstance(got, _Branch):
                    branched.append((i, w, got))
                    sums = at_key.setdefault(got.key, {})
                    for o, v in got.values.items():
                        sums[o] = sums.get(o, 0.0) + w * v
                else:
                    totals[i] += w * got
            weight_sum += w
        chosen = {key: max(sums, key=lambda o: sums[o]) for key, sums in at_key.items()}
        for i, w, b in branched:
            totals[i] += w * b.values[chosen[b.key]]
        bot.worlds_used = worlds
        if weight_sum <= 0:
            weight_sum = 1.0
        value_of = {a: t / weight_sum for a, t in zip(cands, totals, strict=True)}
        values: dict[Action, float] = {}
        tie: dict[Action, float] = {}
        if dummy_phase:
            for action in self.legal:
                c = int(action.card) if action.card is not None else -1
                options = [v for m, v in value_of.items() if not m >> c & 1]
                if options:
                    values[action] = max(options)
                    # among equal keep-sets, throw the least useful card first
                    tie[action] = -_keep_tie(k.trump, c)
        else:
            for action in self.legal:
                if action.id in value_of:
                    values[action] = value_of[action.id]
            if k.phase == _EXCHANGE:
                for action in values:
                    c = int(action.card) if action.card is not None else 0
                    tie[action] = -_keep_tie(k.trump, c)
        return values, tie

    # -- one world, one candidate ------------------------------------------------------------
    def _finish(self, st: _Sim, first: int, cache: dict[tuple[int, ...], float],
                branch: bool = False) -> float | _Branch:
        """Apply ``first`` then the policy up to the first lead; the solved utility.

        With ``branch``, at the seat's own next decision (see :meth:`_own_options`)
        every option is played on by the policy, and the values come back as a
        :class:`_Branch` for the caller to choose from."""
        a: int | None = first
        while st.phase < _PLAY:
            if a is None:
                if branch and _BRANCH and st.turn == self.k.me:
                    options = self._own_options(st)
                    if options:
                        key = (first, st.phase, st.maker, st.trump, int(st.alone),
                               st.hands[self.k.me])
                        values = {}
                        for o in options:
                            got = self._finish(st.copy(), o, cache)
                            assert not isinstance(got, _Branch)
                            values[o] = got
                        return _Branch(key, values)
                a = self._policy(st)
            self._apply(st, a)
            a = None
        if st.phase == _OVER:
            return self.utility_of_gains([0] * self.n)
        return self._solve(st, cache)

    def _own_options(self, st: _Sim) -> list[int]:
        """The options weighed at the seat's own later decision: round 2 (pass and the
        two best suits, alone with the best when plausible), the exchange (the three
        likeliest discards) and the call (the five likeliest cards); else none."""
        k = self.k
        me = k.me
        p = st.phase
        hand = st.hands[me]
        if p == _BID2:
            suits = sorted((s for s in range(4) if s != k.turnup_suit),
                           key=lambda s: -self.estimate(hand, s, me, False))
            stuck = k.rules.stick_the_dealer and me == k.dealer
            out = [] if stuck else [PASS]
            out += [TRUMP + s for s in suits[:2]]
            if k.rules.alone_allowed and self._alone_plausible(suits[0], False, hand):
                out.append(TRUMP_ALONE + suits[0])
            return out
        if p == _EXCHANGE:
            forbid = 1 << k.turnup if k.rules.dealer_must_take_up else 0
            out = []
            rest = hand & ~forbid
            for _ in range(3):
                if not rest:
                    break
                c = _discard_card(rest, st.trump)
                out.append(DISCARD + c)
                rest &= ~(1 << c)
            return out
        if p == _CALL:
            return [CALL + c for c in self._call_cards(st)[:5]]
        return []

    def _solve(self, st: _Sim, cache: dict[tuple[int, ...], float]) -> float:
        n = self.n
        k = self.k
        out = st.out
        hands = [0 if out >> s & 1 else st.hands[s] for s in range(n)]
        maker = st.maker
        makers = 1 << maker
        partner = -1
        if n == 4:
            partner = (maker + 2) % 4
        elif n == 5:
            partner = st.partner
        if partner >= 0 and not out >> partner & 1:
            makers |= 1 << partner
        # who leads (RULES §8)
        nxt = self._next_active(out)
        if n == 3 and st.alone:
            lead = nxt[maker]
        elif n == 3 and st.lone >= 0:
            lead = nxt[st.lone]
        else:
            lead = nxt[k.dealer]
        key = (*hands, st.trump, makers, out, lead, int(st.alone or st.forced), st.lone)
        u = cache.get(key)
        if u is None:
            sol = solve_position(hands, st.trump, makers, lead, (), out, False)
            alone = st.alone or st.forced
            util_partner = partner if n == 5 else -1
            u = self.utility(maker, util_partner, sol.value, alone, st.lone >= 0)
            cache[key] = u
        return u

    def _next_active(self, out: int) -> list[int]:
        n = self.n
        nxt = [0] * n
        for s in range(n):
            t = (s + 1) % n
            while out >> t & 1:
                t = (t + 1) % n
            nxt[s] = t
        return nxt

    # -- the engine's transitions, on raw ints -------------------------------------------------
    def _apply(self, st: _Sim, a: int) -> None:
        n = self.n
        k = self.k
        p = st.phase
        if p == _BID1:
            if a == PASS:
                st.bids += 1
                if st.bids == n:
                    st.phase = _BID2
                    st.bids = 0
                st.turn = (st.turn + 1) % n
                return
            self._fix(st, st.turn, k.turnup_suit, a == ORDER_ALONE, True)
        elif p in (_BID2, _NAME):
            if a == PASS:
                st.bids += 1
                if st.bids == n:
                    st.phase = _OVER
                else:
                    st.turn = (st.turn + 1) % n
                return
            alone = a >= TRUMP_ALONE
            self._fix(st, st.turn, a - (TRUMP_ALONE if alone else TRUMP), alone, p == _NAME)
        elif p == _EXCHANGE:
            st.hands[k.dealer] &= ~(1 << (a - DISCARD))
            self._after_exchange(st)
        elif p == _DUMMY:
            st.hands[st.maker] = a  # a keep-set of five (see _dummy_candidates)
            self._after_dummy(st)
        elif p == _CALL:
            bit = 1 << (a - CALL)
            for s in range(n):
                if st.hands[s] & bit:
                    st.partner = s
                    break
            else:
                st.forced = True
            self._after_call(st)
        elif p == _DEFEND:
            seat = st.queue.pop(0)
            if a == DEFEND_ALONE:
                st.lone = seat
                if n == 4:
                    st.out |= 1 << ((seat + 2) % 4)
                else:
                    other = next(s for s in range(n) if s not in (seat, st.maker))
                    st.out |= 1 << other
                st.queue = []
            if not st.queue:
                st.phase = _PLAY

    def _fix(self, st: _Sim, maker: int, suit: int, alone: bool, exchange: bool) -> None:
        k = self.k
        st.trump = suit
        st.maker = maker
        st.alone = alone
        st.exchange = exchange
        if alone and self.n == 4:
            st.out |= 1 << ((maker + 2) % 4)
        if exchange and not st.out >> k.dealer & 1:
            st.phase = _EXCHANGE
            st.turn = k.dealer
            st.hands[k.dealer] |= 1 << k.turnup
            return
        self._after_exchange(st)

    def _after_exchange(self, st: _Sim) -> None:
        if self.n == 3 and not st.alone:
            st.phase = _DUMMY
            st.turn = st.maker
            st.hands[st.maker] |= st.dummy
            st.dummy = 0
            return
        self._after_dummy(st)

    def _after_dummy(self, st: _Sim) -> None:
        if self.n == 5 and not st.alone:
            st.phase = _CALL
            st.turn = st.maker
            return
        self._after_call(st)

    def _after_call(self, st: _Sim) -> None:
        k = self.k
        n = self.n
        if k.rules.defend_alone:
            side = {st.maker, (st.maker + 2) % 4} if n == 4 else {st.maker}
            st.queue = [s for s in ((k.dealer + 1 + i) % n for i in range(n)) if s not in side]
            st.phase = _DEFEND
            st.turn = st.queue[0]
            return
        st.phase = _PLAY

    # -- the policy for the decisions still to come ----------------------------------------
    def _policy(self, st: _Sim) -> int:
        k = self.k
        n = self.n
        p = st.phase
        seat = st.turn if p != _DEFEND else st.queue[0]
        hand = st.hands[seat]
        if p == _BID1:
            t = k.turnup_suit
            est = self.estimate(hand, t, seat, True)
            if est >= self.bar:
                if n != 2 and self._alone_ok(hand, t, seat, True):
                    return ORDER_ALONE
                return ORDER
            return PASS
        if p in (_BID2, _NAME):
            naming = p == _NAME
            suits = [s for s in range(4) if naming or s != k.turnup_suit]
            best_s = max(suits, key=lambda s: self.estimate(hand, s, seat, naming))
            est = self.estimate(hand, best_s, seat, naming)
            stuck = naming or (k.rules.stick_the_dealer and seat == k.dealer)
            if est >= self.bar or stuck:
                if n != 2 and est >= self.bar and self._alone_ok(hand, best_s, seat, naming):
                    return TRUMP_ALONE + best_s
                return TRUMP + best_s
            return PASS
        if p == _EXCHANGE:
            forbid = 1 << k.turnup if k.rules.dealer_must_take_up else 0
            return DISCARD + _discard_card(hand, st.trump, forbid)
        if p == _DUMMY:
            return _greedy_keep(hand, st.trump)
        if p == _CALL:
            return CALL + self._call_card(st)
        # defending alone: a commanding trump holding
        t = st.trump
        trumps = hand & SUIT_MASKS[t][t]
        top = JOKER if k.rules.joker else t * 8 + 4
        if (trumps.bit_count() >= 3 and trumps >> top & 1
                and hand_estimate(hand, t, n) >= BasicBot.defend_alone_bar):
            return DEFEND_ALONE
        return PASS

    def _alone_ok(self, hand: int, trump: int, seat: int, takes_turnup: bool) -> bool:
        k = self.k
        if takes_turnup and seat == k.dealer:
            full = hand | 1 << k.turnup
            if full.bit_count() > 5:
                hand = _greedy_keep(full, trump)
        top = 10 if k.rules.joker else 9
        return march_value(list(cards_of(hand)), trump, top) >= self.alone_bar

    def _call_card(self, st: _Sim) -> int:
        """The basic bot's call: the highest trump not held, then the best off ace."""
        return self._call_cards(st)[0]

    def _call_cards(self, st: _Sim) -> list[int]:
        """The cards the maker may call, the basic bot's preference first."""
        k = self.k
        t = st.trump
        hand = st.hands[st.maker]
        pack = pack_mask(k.rules.deck, k.rules.joker)
        known_out = self._known_out if st.maker == k.me else 0
        keyed = []
        for c in _bits(pack & ~hand):
            out = 1 if known_out >> c & 1 else 0
            if EFFECTIVE_SUIT[t][c] == t:
                key = (out, 0, -_trump_order(t, c))
            else:
                held = (hand & SUIT_MASKS[t][c >> 3]).bit_count()
                key = (out, 1, -(c & 7) * 4 - held)
            keyed.append((key, c))
        keyed.sort()
        return [c for _, c in keyed]
