"""The ``basic`` bot: the rules of thumb a decent club player follows.

It sees only its :class:`~euchre.deal.Observation` (RULES §12) and decides every phase
with a few lines of arithmetic, no search:

* **bidding** (RULES §4): a hand is worth an estimate of the tricks it takes with a given
  trump (bowers, joker, trump A/K/Q/low, off-suit aces, voids); round 1 counts the
  turn-up going to the dealer (to us, to our partner, or to an opponent); the bar to
  clear depends on who helps the maker (a partner four-handed, the dummy three-handed,
  a called partner five-handed, nobody two-handed), and drops a little when an opponent
  is near the target.  It goes alone only with a hand that can march.
* **exchange** (RULES §5): discards its lowest non-trump card, preferring one that voids
  a suit, never trump or an off ace while something else will do.
* **dummy merge** (RULES §6): keeps the best five of its ten cards.
* **partner call** (RULES §6): calls the highest trump it lacks.
* **defending alone** (RULES §7): only with a commanding trump holding.
* **play** (RULES §8): counts the cards played, leads trump when its side made it and
  holds the top trump, cashes aces, lets a partner's sure trick stand, wins as cheaply
  as it can, and otherwise throws off its least useful card.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=4), dealer=3,
...     hands=['JH JD AH AS 9C', 'TC JC QC KC AC', '9D TD QD KD AD', '9S TS JS QS KS'],
...     turnup='9H')
>>> str(BasicBot(0).act(deal.observation(0)))
'order alone'
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import ClassVar, Final

from euchre.actions import Action, ActionKind
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    SUIT_MASKS,
    TRICK_STRENGTH,
    Card,
    Suit,
    card_mask,
    pack_mask,
)
from euchre.deal import Observation, Phase

__all__ = ["BasicBot", "call_key", "discard_card", "hand_value", "march_value"]

# -- hand values -----------------------------------------------------------------------
# Trump order as TRICK_STRENGTH gives it (minus 20): joker 10, right 9, left 8, A 7, K 6,
# Q 5, 10 3, 9 2, 8 1, 7 0.  The value is a rough share of a trick.
_TRUMP_VALUE: Final = {10: 1.0, 9: 0.95, 8: 0.85, 7: 0.75, 6: 0.6, 5: 0.5,
                       3: 0.42, 2: 0.4, 1: 0.38, 0: 0.36}
_ACE: Final = 7
_KING: Final = 6


def _strength(trump: int, led: int, card: int) -> int:
    return TRICK_STRENGTH[trump][led][card]


def _suit(trump: int, card: int) -> int:
    return EFFECTIVE_SUIT[trump][card]


def _trump_order(trump: int, card: int) -> int:
    return TRICK_STRENGTH[trump][trump][card] - 20


def hand_value(cards: Iterable[int], trump: int, players: int = 4) -> float:
    """An estimate of the tricks ``cards`` take with ``trump``, before any help.

    Bowers, the joker and high trumps count most; an off-suit ace about three quarters
    of a trick, a guarded king a little; a void is worth something when there are trumps
    to ruff with.  Two-handed the off-suit cards are worth more (one opponent only).

    >>> from euchre.cards import parse_cards
    >>> round(hand_value(parse_cards('JH JD AH AS 9C'), Suit.HEARTS), 2)
    3.5
    """
    hand = list(cards)
    trumps = [c for c in hand if _suit(trump, c) == trump]
    value = sum(_TRUMP_VALUE[_trump_order(trump, c)] for c in trumps)
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        s = _suit(trump, c)
        if s != trump:
            by_suit.setdefault(s, []).append(c & 7)
    ace, guarded_king, bare_king = (0.85, 0.45, 0.25) if players == 2 else (0.7, 0.35, 0.15)
    for ranks in by_suit.values():
        if _ACE in ranks:
            value += ace if len(ranks) <= 3 else ace - 0.15
        if _KING in ranks:
            value += guarded_king if (_ACE in ranks or len(ranks) >= 2) else bare_king
            if _ACE not in ranks and len(ranks) == 1:
                value -= 0.05
    n_trumps = len(trumps)
    if n_trumps >= 2:
        voids = 3 - len(by_suit)
        value += 0.25 * voids
    if n_trumps >= 4:
        value += 0.2 * (n_trumps - 3)
    return value


def _best_subset(cards: Sequence[int], keep: int, trump: int, players: int) -> tuple[int, ...]:
    """The ``keep`` cards of ``cards`` worth most with ``trump`` (ties: lowest ids)."""
    best: tuple[int, ...] = tuple(cards[:keep])
    best_value = -1.0
    for combo in itertools.combinations(sorted(cards), keep):
        v = hand_value(combo, trump, players)
        if v > best_value + 1e-9:
            best, best_value = combo, v
    return best


def _greedy_best(cards: Sequence[int], keep: int, trump: int) -> list[int]:
    """A fast stand-in for :func:`_best_subset`: top trumps, then aces, then the rest."""
    def key(c: int) -> tuple[int, int]:
        if _suit(trump, c) == trump:
            return (2, _trump_order(trump, c))
        return (1 if c & 7 == _ACE else 0, c & 7)

    return sorted(cards, key=key, reverse=True)[:keep]


# -- the bot -----------------------------------------------------------------------------
class BasicBot:
    """A rule-of-thumb player for every variant, option and phase (see the module doc).

    Deterministic for a given seed: the seed drives the few random samples it takes
    (three-handed, to guess what the dummy adds to a bid).

    With four diamonds and the ace of clubs it orders up the king of diamonds:

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> BasicBot(seed=1).act(deal.observation(1))
    Action.parse('order')
    """

    name = "basic"
    needs_observation = True

    bid_bar: ClassVar[dict[int, float]] = {2: 2.25, 3: 2.6, 4: 2.35, 5: 1.7}
    """Estimated tricks the maker's side needs before bidding, by number of players.

    Three-handed the dummy is already counted in the estimate; four-handed the hand
    counts on its partner, five-handed on the partner it calls, two-handed on nobody
    (but there is only one opponent)."""
    alone_bar: ClassVar[dict[int, float]] = {3: 4.2, 4: 3.5, 5: 3.75}
    """The :func:`march_value` needed to go alone (never two-handed, RULES §4)."""
    defend_alone_bar: ClassVar[float] = 3.9
    """The :func:`hand_value` in the maker's trump needed to defend alone."""
    dummy_gain_cap: ClassVar[float] = 1.6
    """Three-handed: the most the unseen dummy may add to a hand's estimate."""

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def __repr__(self) -> str:
        return "BasicBot()"

    def act(self, observation: Observation) -> Action:
        """The action to take: always one of ``observation.legal_actions``.

        With nines and tens and no diamond it passes the king of diamonds:

        >>> from euchre import Deal, Rules
        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9D TD JD QD AC', '9C TC 9S 9H QC'], turnup='KD')
        >>> BasicBot(seed=1).act(deal.observation(1))
        Action.parse('pass')
        """
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action now")
        if len(legal) == 1:
            return legal[0]
        phase = observation.phase
        if phase is Phase.PLAY:
            choice = _Play(observation).choose()
        elif phase is Phase.BID_TURNUP:
            choice = self._bid_turnup(observation)
        elif phase in (Phase.BID_SUIT, Phase.NAME_TRUMP):
            choice = self._name_trump(observation)
        elif phase is Phase.EXCHANGE:
            choice = _exchange(observation)
        elif phase is Phase.DUMMY:
            choice = _dummy_discard(observation)
        elif phase is Phase.CALL_PARTNER:
            choice = _call(observation)
        elif phase is Phase.DEFEND:
            choice = _defend(observation, self.defend_alone_bar)
        else:
            choice = legal[0]
        return choice if choice in legal else legal[0]

    # -- bidding (RULES §4) ------------------------------------------------------------
    def _bid_turnup(self, obs: Observation) -> Action:
        trump = _turnup_suit(obs)
        if trump is None:  # cannot happen: round 1 always has a suit
            return Action(ActionKind.PASS)
        own = self._estimate(obs, trump, round1=True)
        if self._alone_ok(obs, trump, round1=True):
            return Action(ActionKind.ORDER, alone=True)
        if own >= self._bar(obs):
            return Action(ActionKind.ORDER)
        return Action(ActionKind.PASS)

    def _name_trump(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        suits = sorted({int(a.suit) for a in legal if a.suit is not None})
        forced = Action(ActionKind.PASS) not in legal
        best: tuple[float, int] | None = None
        for s in suits:
            own = self._estimate(obs, s, round1=False)
            if best is None or own > best[0]:
                best = (own, s)
        if best is None:
            return legal[0]
        own, pick = best
        if self._alone_ok(obs, pick, round1=False):
            return Action.trump(Suit(pick), alone=True)
        if forced or own >= self._bar(obs):
            return Action.trump(Suit(pick))
        return Action(ActionKind.PASS)

    def _bar(self, obs: Observation) -> float:
        """The estimated tricks needed to bid; lower when an opponent nears the target."""
        n = obs.rules.players
        bar = self.bid_bar[n]
        target = obs.rules.target
        mine = obs.scores[obs.seat]
        others = [v for s, v in enumerate(obs.scores)
                  if s not in (obs.seat, obs.rules.partner_of(obs.seat))]
        if others and max(others) >= target - 2 and max(others) >= mine:
            bar -= 0.2
        if n == 4 and mine >= target - 1 and max(others, default=0) < target - 3:
            bar += 0.15  # one point from home: no need to risk a euchre
        return bar

    def _estimate(self, obs: Observation, trump: int, round1: bool) -> float:
        """The tricks the maker's side may take with ``trump``, counted in this hand."""
        n = obs.rules.players
        hand = [int(c) for c in obs.hand]
        dealer = obs.dealer
        me = obs.seat
        turnup = int(obs.turnup)
        takes_turnup = round1 or obs.phase is Phase.NAME_TRUMP
        if takes_turnup and dealer == me:
            if obs.rules.dealer_must_take_up:
                own_cards = _best_keeping(hand, turnup, trump, n)
            else:
                own_cards = list(_best_subset([*hand, turnup], 5, trump, n))
            own = hand_value(own_cards, trump, n)
        else:
            own = hand_value(hand, trump, n)
            own_cards = hand
            if takes_turnup:
                tv = _TRUMP_VALUE[_trump_order(trump, turnup)]
                if dealer == obs.rules.partner_of(me):
                    own += 0.6 * tv  # our partner picks it up
                else:
                    own -= 0.5 * tv  # an opponent picks it up
        if (not takes_turnup and n == 4 and me == (dealer + 1) % 4
                and trump == (int(turnup) >> 3) ^ 3 and int(turnup) != JOKER):
            # "next": the dealer's side showed no interest in the turned-down colour
            own += 0.15
        if n == 3:
            # the dummy helps, but a bid that only hopes for it is a euchre waiting
            with_dummy = self._with_dummy(obs, own_cards, trump, takes_turnup)
            own = min(with_dummy, own + self.dummy_gain_cap)
        return own

    def _with_dummy(self, obs: Observation, cards: list[int], trump: int,
                    takes_turnup: bool) -> float:
        """Three-handed: the average worth of the best five of hand and dummy (sampled)."""
        pack = pack_mask(obs.rules.deck, obs.rules.joker)
        seen = set(cards) | {int(obs.turnup)} | {int(c) for c in obs.hand}
        unseen = [c for c in range(33) if pack >> c & 1 and c not in seen]
        total = 0.0
        samples = 16
        for _ in range(samples):
            dummy = self.rng.sample(unseen, 5)
            best = _greedy_best([*cards, *dummy], 5, trump)
            total += hand_value(best, trump, 3)
        value = total / samples
        if takes_turnup and obs.dealer != obs.seat:
            value -= 0.3 * _TRUMP_VALUE[_trump_order(trump, int(obs.turnup))]
        return value

    def _alone_ok(self, obs: Observation, trump: int, round1: bool) -> bool:
        """A hand that can march: sure trump tricks from the top and little to lose."""
        n = obs.rules.players
        if n not in self.alone_bar:
            return False
        hand = [int(c) for c in obs.hand]
        if (round1 or obs.phase is Phase.NAME_TRUMP) and obs.dealer == obs.seat:
            if obs.rules.dealer_must_take_up:
                hand = _best_keeping(hand, int(obs.turnup), trump, n)
            else:
                hand = list(_best_subset([*hand, int(obs.turnup)], 5, trump, n))
        top = 10 if obs.rules.joker and not _joker_out(obs) else 9
        return march_value(hand, trump, top) >= self.alone_bar[n]


def march_value(cards: Iterable[int], trump: int, top: int = 9) -> float:
    """Tricks a hand takes playing alone: sure trumps from the top, then the rest.

    ``top`` is the highest trump in play (10 with the joker, else 9 for the right
    bower).  Trumps in an unbroken run from the top are sure tricks; once they have
    drawn the opponents' trumps the other trumps and the off-suit aces mostly win too.
    Without the joker a run from the right bower counts, less what the joker may take.

    >>> from euchre.cards import parse_cards
    >>> round(march_value(parse_cards('JH JD AH AS 9C'), Suit.HEARTS), 2)
    3.8
    """
    hand = list(cards)
    orders = sorted((_trump_order(trump, c) for c in hand if _suit(trump, c) == trump),
                    reverse=True)
    sure = 0
    penalty = 0.0
    want = top
    if top == 10 and orders and orders[0] == 9:
        want, penalty = 9, 0.75  # the joker is out against us
    for o in orders:
        if o != want:
            break
        sure += 1
        want -= 1
    if sure == 0:
        return 0.0
    value = float(sure) + 0.65 * (len(orders) - sure) - penalty
    drawn = sure >= 2 or len(orders) >= 4
    for c in hand:
        if _suit(trump, c) == trump:
            continue
        if c & 7 == _ACE:
            value += 0.8 if drawn else 0.6
        elif c & 7 == _KING and any(h == c + 1 for h in hand):
            value += 0.5
    return value


def _joker_out(obs: Observation) -> bool:
    """The joker was turned up and turned down: it is out of play this deal."""
    return int(obs.turnup) == JOKER and obs.turnup_taken is False


def _turnup_suit(obs: Observation) -> int | None:
    """The suit bid in round 1: the turn-up's, or a turned-up joker's fixed suit."""
    if int(obs.turnup) == JOKER:
        fixed = obs.rules.joker_suit
        return None if fixed is None else int(fixed)
    return int(obs.turnup) >> 3


def _best_keeping(hand: list[int], turnup: int, trump: int, players: int) -> list[int]:
    """The best five of six when the turn-up must be kept."""
    rest = _best_subset(hand, 4, trump, players)
    return [*rest, turnup]


# -- exchange, dummy, call, defence (RULES §5-§7) ------------------------------------------
# The discard and the call are taken on bitmasks, so that the expert's look-ahead
# (euchre.bots.evaluation) plays the very same rules for the seats it does not search.
def discard_card(hand: int, trump: int, forbid: int = 0) -> int:
    """The basic bot's discard from the bitmask ``hand`` (RULES §5, §6), leaving out the
    cards of ``forbid``: the lowest non-trump, one that voids a suit first, aces kept,
    trump last; ties go to the lowest card id.  -1 when every card is forbidden.

    >>> from euchre.cards import card_mask, parse_cards
    >>> hand = card_mask(parse_cards('9C TC AD JH QS KH'))
    >>> str(Card(discard_card(hand, Suit.HEARTS)))
    'QS'
    """
    best = -1
    best_key = (9, 9, 9, 9)
    rest = hand & ~forbid
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        s = EFFECTIVE_SUIT[trump][c]
        if s == trump:
            key = (2, _trump_order(trump, c), 0, 0)
        else:
            length = (hand & SUIT_MASKS[trump][s]).bit_count()
            rank = c & 7
            key = (1, length, rank, 0) if rank == _ACE else (
                0, 0 if length == 1 else 1, rank, length)
        if key < best_key:
            best, best_key = c, key
    return best


def call_key(trump: int, hand: int, card: int) -> tuple[int, int]:
    """The basic bot's order of the cards to call five-handed (RULES §6), lowest first:
    the highest trump, then an off ace of a suit the bitmask ``hand`` holds, any ace,
    then high cards.

    >>> from euchre.cards import card_mask, parse_cards
    >>> hand = card_mask(parse_cards('9C TC AD JH QS'))
    >>> [str(c) for c in sorted(parse_cards('AH AC AS'),
    ...                         key=lambda c: call_key(Suit.HEARTS, hand, int(c)))]
    ['AH', 'AC', 'AS']
    """
    if EFFECTIVE_SUIT[trump][card] == trump:
        return (0, -_trump_order(trump, card))
    held = (hand & SUIT_MASKS[trump][card >> 3]).bit_count()
    return (1, -(card & 7) * 4 - held)


def _choice(obs: Observation, card: int) -> Action:
    """The legal action of ``obs`` that names ``card``."""
    return next(a for a in obs.legal_actions if a.card is not None and int(a.card) == card)


def _legal_cards(obs: Observation) -> int:
    """The cards the legal actions name, as a bitmask."""
    return card_mask(a.card for a in obs.legal_actions if a.card is not None)


def _exchange(obs: Observation) -> Action:
    """Discard the lowest non-trump, voiding a suit where possible (RULES §5)."""
    trump = obs.trump
    if trump is None:
        return obs.legal_actions[0]
    hand = card_mask(obs.hand)
    return _choice(obs, discard_card(hand, trump, hand & ~_legal_cards(obs)))


def _dummy_discard(obs: Observation) -> Action:
    """Three-handed: discard a card outside the best five of hand and dummy (RULES §6)."""
    trump = obs.trump
    if trump is None:
        return obs.legal_actions[0]
    hand = card_mask(obs.hand)
    illegal = hand & ~_legal_cards(obs)
    keep = card_mask(_best_subset([int(c) for c in obs.hand], 5, trump, 3))
    card = discard_card(hand, trump, illegal | keep)
    return _choice(obs, card if card >= 0 else discard_card(hand, trump, illegal))


def _call(obs: Observation) -> Action:
    """Five-handed: call the highest trump not held, then the best off-suit ace (§6)."""
    trump = obs.trump
    legal = [a for a in obs.legal_actions if a.card is not None]
    if trump is None or not legal:
        return obs.legal_actions[0]
    # the legal calls leave out the cards known to be out of play (RULES §6.3)
    hand = card_mask(obs.hand)
    return min(legal, key=lambda a: call_key(trump, hand, int(a.card or 0)))


def _defend(obs: Observation, bar: float) -> Action:
    """Defend alone only with a commanding holding in the maker's trump (RULES §7)."""
    trump = obs.trump
    if trump is None:
        return Action(ActionKind.PASS)
    hand = [int(c) for c in obs.hand]
    trumps = [_trump_order(trump, c) for c in hand if _suit(trump, c) == trump]
    value = hand_value(hand, trump, obs.rules.players)
    top = 10 if obs.rules.joker else 9
    if len(trumps) >= 3 and top in trumps and value >= bar:
        return Action(ActionKind.DEFEND_ALONE)
    return Action(ActionKind.PASS)


# -- play (RULES §8) -------------------------------------------------------------------------
class _Play:
    """One play decision: what has been seen, who is with us, and the card to play."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        trump = obs.trump
        assert trump is not None
        self.trump = t = int(trump)
        self.me = obs.seat
        self.n = obs.rules.players
        self.hand = [int(c) for c in obs.hand]
        self.legal = [int(a.card) for a in obs.legal_actions if a.card is not None]
        played: set[int] = set()
        self.void: dict[int, set[int]] = {}
        for trick in obs.tricks:
            self._note(trick.cards)
            played.update(int(c) for _, c in trick.cards)
        self._note(obs.trick)
        played.update(int(c) for _, c in obs.trick)
        known = played | set(self.hand) | {int(c) for c in obs.discards}
        if obs.turnup_taken is False:
            known.add(int(obs.turnup))
        pack = pack_mask(obs.rules.deck, obs.rules.joker)
        self.unseen = [c for c in range(33) if pack >> c & 1 and c not in known]
        self.unseen_trumps = [c for c in self.unseen if _suit(t, c) == t]
        self.team = self._team()
        self.makers = self._makers()
        out = set(obs.sitting_out)
        self.active = [s for s in range(self.n) if s not in out]

    def _note(self, cards: Sequence[tuple[int, Card]]) -> None:
        """Remember who showed out of the led suit."""
        if not cards:
            return
        t = self.trump
        led = _suit(t, int(cards[0][1]))
        for seat, c in cards[1:]:
            if _suit(t, int(c)) != led:
                self.void.setdefault(seat, set()).add(led)

    def _team(self) -> set[int]:
        """The seats known to play with us this deal."""
        obs, me, n = self.obs, self.me, self.n
        out = set(obs.sitting_out)
        maker = obs.maker
        partner = obs.rules.partner_of(me)
        if partner is not None:
            return {s for s in (me, partner) if s not in out}
        if n == 3 and maker is not None and maker != me:
            return {s for s in range(3) if s != maker and s not in out}
        if n == 5 and maker is not None:
            partner = obs.partner
            if maker == me:
                return {me} if partner is None else {me, partner}
            if partner == me:
                return {me, maker}
            if obs.alone or partner is not None:
                return {s for s in range(5) if s not in (maker, partner)}
        return {me}

    def _makers(self) -> bool:
        """Whether our side made trump (as far as we know)."""
        maker = self.obs.maker
        return maker is not None and maker in self.team

    # -- card facts ------------------------------------------------------------------
    def beaten_by_unseen(self, card: int, led: int) -> list[int]:
        """Unseen cards that would beat ``card`` in a trick led in ``led``."""
        s = _strength(self.trump, led, card)
        return [c for c in self.unseen if _strength(self.trump, led, c) > s]

    def is_boss(self, card: int) -> bool:
        """No unseen card of its own suit beats ``card`` (a ruff aside)."""
        t = self.trump
        s = _suit(t, card)
        return not any(_suit(t, c) == s for c in self.beaten_by_unseen(card, s))

    def holds(self, card: int, led: int, after: Sequence[int]) -> bool:
        """Whether ``card``, now best in the trick, likely stays best after ``after`` play."""
        if not after:
            return True
        t = self.trump
        threats = self.beaten_by_unseen(card, led)
        if not threats:
            return True
        if led == t or any(_suit(t, c) != t for c in threats):
            return False  # a higher card of the led suit is out
        # only trumps beat it: fine unless someone after us may be void in the led suit
        if any(led in self.void.get(s, set()) and t not in self.void.get(s, set())
               for s in after):
            return False
        led_left = sum(1 for c in self.unseen if _suit(t, c) == led)
        return led_left >= 2 * len(after)

    def seats_after(self) -> list[int]:
        """Active seats still to play to this trick after us, in order."""
        played = {s for s, _ in self.obs.trick}
        order = []
        i = self.active.index(self.me)
        for k in range(1, len(self.active)):
            s = self.active[(i + k) % len(self.active)]
            if s not in played:
                order.append(s)
        return order

    # -- choosing ----------------------------------------------------------------------
    def choose(self) -> Action:
        """The card to play."""
        card = self.lead() if not self.obs.trick else self.follow()
        return Action.play(card)

    def throw_off(self, options: Sequence[int]) -> int:
        """The least useful card: lowest non-trump, voiding a suit, keeping bosses."""
        t = self.trump

        def key(c: int) -> tuple[int, int, int, int]:
            if _suit(t, c) == t:
                return (2, _trump_order(t, c), 0, 0)
            s = _suit(t, c)
            length = sum(1 for h in self.hand if _suit(t, h) == s)
            boss = 1 if self.is_boss(c) else 0
            return (boss, c & 7, 0 if length == 1 else 1, length)

        return min(options, key=key)

    def follow(self) -> int:
        """Second hand or later: let a partner's sure trick stand, else win cheaply."""
        t = self.trump
        trick = self.obs.trick
        led = _suit(t, int(trick[0][1]))
        best_seat, best_card = max(trick, key=lambda sc: _strength(t, led, int(sc[1])))
        best = int(best_card)
        best_s = _strength(t, led, best)
        after = [s for s in self.seats_after() if s not in self.team]
        winners = sorted((c for c in self.legal if _strength(t, led, c) > best_s),
                         key=lambda c: _strength(t, led, c))
        if best_seat in self.team:
            if self.holds(best, led, after) or not winners:
                return self.throw_off(self.legal)
            sure = [c for c in winners if self.holds(c, led, after)]
            return sure[0] if sure else self.throw_off(self.legal)
        if not winners:
            return self.throw_off(self.legal)
        if not after:
            return winners[0]
        sure = [c for c in winners if self.holds(c, led, after)]
        if sure:
            return sure[0]
        # No sure winner: play high, but no higher than needed to beat what our best
        # card beats (the same unseen cards beat both); a low ruff risks an overruff.
        threats = set(self.beaten_by_unseen(winners[-1], led))
        for c in winners:
            if set(self.beaten_by_unseen(c, led)) == threats:
                return c
        return winners[-1]

    def lead(self) -> int:
        """On lead: draw trumps for the makers, cash sure winners, else lead low."""
        t = self.trump
        hand = self.legal
        trumps = sorted((c for c in hand if _suit(t, c) == t),
                        key=lambda c: _trump_order(t, c), reverse=True)
        others = [c for c in hand if _suit(t, c) != t]
        opponents = [s for s in self.active if s not in self.team]
        opp_trumps = bool(self.unseen_trumps) and not all(
            t in self.void.get(s, set()) for s in opponents)
        if trumps and opp_trumps and self.makers:
            # draw the opponents' trumps: from the top with the top trump, else from the
            # bottom with length; the maker's partner leads its top trump to the maker
            if self.is_boss(trumps[0]) and (
                    len(trumps) >= 2 or not others or self.obs.maker != self.me):
                return trumps[0]
            if len(trumps) >= 3:
                return trumps[-1]
        # cash off-suit winners, in suits where nobody is known to ruff
        cashable = []
        for c in others:
            if not self.is_boss(c):
                continue
            s = _suit(t, c)
            ruffers = [o for o in opponents if s in self.void.get(o, set())
                       and t not in self.void.get(o, set())]
            if ruffers and opp_trumps:
                continue
            left = sum(1 for u in self.unseen if _suit(t, u) == s)
            cashable.append((left, c & 7, c))
        if cashable:
            return max(cashable)[2]
        if trumps and not opp_trumps:
            return trumps[0]  # only our trumps remain: they all win
        if trumps and self.makers and len(trumps) >= 2:
            return trumps[-1]
        if others:
            return self.lead_low(others)
        return trumps[0] if self.is_boss(trumps[0]) else trumps[-1]

    def lead_low(self, others: Sequence[int]) -> int:
        """A low off-suit lead, from a short suit (to make a void for ruffing)."""
        t = self.trump

        def key(c: int) -> tuple[int, int]:
            s = _suit(t, c)
            length = sum(1 for h in self.hand if _suit(t, h) == s)
            return (c & 7, length)

        return min(others, key=key)
