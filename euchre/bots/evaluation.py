"""The ``expert`` bot's evaluation: the value of each candidate action, in points,
averaged over the worlds its seat may be in (:mod:`euchre.bots.knowledge`).

**Play** (RULES §8): each world is solved open-handed (:func:`euchre.solver.solve_position`,
every legal card's value); a card's value is the weighted average over the worlds.  The
``lookahead`` bot goes one card further (:class:`_LookaheadPlayEval`): its next card is
the one it would choose knowing only what it will have seen by then.
**Every other decision** -- bidding and going alone (§4), the dealer's exchange (§5), the
dummy merge and the partner call (§6), defending alone (§7) -- is evaluated by playing each
candidate action forward in every world: the decisions still to come before the first
lead are taken by a fixed rule-of-thumb policy (the basic bot's rules, on raw ints), and
the deal is then solved from the first lead.  The seat's own next decision on the way (its
round-2 bid after passing, its exchange as dealer, its call) is not left to the policy:
its few best options are played on in every world, and the one best on average over the
worlds that reach that point is taken in all of them (the seat will not know more then).
Playing forward runs the rules' compiled core (:mod:`euchre.core`), the same transitions
the engine plays, held to it by ``tests/test_core.py``.

**Values are points**: for each world the deal's result is scored by RULES §9 and the
seat's *utility* is its side's points minus the opponents' (the average of the others'
points three- and five-handed), plus the bot's ``game_bonus`` points
(:attr:`euchre.bots.expert.ExpertBot.game_bonus`) if the deal wins the game for the seat
and minus it if the deal loses the game (RULES §10): a lone march that reaches the target
is worth more, a euchre that hands the opponents the game costs more.  In play a tiny
``0.001`` per expected trick of the seat's side breaks ties.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence
from typing import ClassVar, Final, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from euchre import core, sides
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
from euchre.bots.basic import BasicBot, call_key, discard_card, march_value
from euchre.bots.knowledge import (
    _BID1,
    _BID2,
    _CALL,
    _DEFEND,
    _DUMMY,
    _EXCHANGE,
    _NAME,
    _keep_key,
    _Know,
    _Worlds,
    hand_estimate,
)
from euchre.cards import (
    EFFECTIVE_SUIT,
    JOKER,
    SUIT_MASKS,
    TRICK_STRENGTH,
    cards_of,
)
from euchre.scoring import deal_points
from euchre.solver import solve_position, solve_value
from euchre.worlds import _bits

_TRICK_TIE: Final = 0.001
_ALONE_SLACK = 1.2
"""Going alone is evaluated when the march estimate is within this of the basic bar."""


# -- the policy's card choices on bitmasks (the basic bot's rules) ------------------------------
def _keep_tie(trump: int, c: int) -> float:
    """A tiny amount growing with :func:`_keep_key`: breaks exact ties between cards."""
    group, rank = _keep_key(trump, c)
    return 1e-6 * (group * 16 + rank)


def _greedy_keep(cards: int, trump: int, keep: int = 5) -> int:
    """The ``keep`` best cards by :func:`_keep_key` (three-handed dummy merge policy)."""
    ranked = sorted(_bits(cards), key=lambda c: _keep_key(trump, c), reverse=True)
    m = 0
    for c in ranked[:keep]:
        m |= 1 << c
    return m


# -- what the evaluations share -----------------------------------------------------------------
class _Bot(Protocol):
    """What an evaluation needs of the bot it runs for: the expert's
    :class:`~euchre.bots.expert.ExpertBot`."""

    rng: random.Random

    @property
    def inference(self) -> bool:
        """Whether worlds are weighed by the others' cards played too
        (:class:`~euchre.bots.knowledge._Worlds`)."""
        ...

    worlds_used: int
    """Set to the worlds sampled for the decision."""

    @property
    def game_bonus(self) -> float:
        """Points added to a deal's utility when it wins the game, removed when it loses."""
        ...

    def _out_of_time(self, start: float, worlds: int, share: float = 1.0) -> bool:
        """Whether to stop sampling, ``worlds`` taken since ``start`` (perf_counter), when
        the sampling may spend ``share`` of the time budget."""
        ...


def utility_of_gains(gains: Sequence[float], me: int, scores: Sequence[int], target: int,
                     bonus: float) -> float:
    """Seat ``me``'s utility of a deal's points ``gains`` (by seat, RULES §9) from the
    game score ``scores``: its side's points minus the opponents' (the others' mean three-
    and five-handed), plus ``bonus`` if the deal wins the game for it (shared among tied
    winners outside four-handed) and minus ``bonus`` if it loses it (module doc)."""
    n = len(gains)
    # four-handed, the side's points minus the other side's (3/2 of the utility)
    net = float(gains[me] - gains[(me + 1) % 4]) if n == 4 else sides.utility(gains, me)
    new = [a + b for a, b in zip(scores, gains, strict=True)]
    top = max(new)
    if top >= target:
        winners = [s for s, v in enumerate(new) if v == top]
        if me in winners:
            net += bonus if n == 4 else bonus / len(winners)
        else:
            net -= bonus
    return net


class _Evaluator(_Worlds):
    """What the play and the pre-play evaluations share: worlds, weights, points."""

    def __init__(self, bot: _Bot, k: _Know) -> None:
        super().__init__(k, bot.rng, bot.inference)
        self.bot = bot
        obs = k.obs
        self.scores = obs.scores
        self.target = obs.rules.target
        self.alone_bar = BasicBot.alone_bar.get(k.n, 99.0)
        self._utils: dict[tuple[int, int, bool, bool], float] = {}

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
        side = sides.seats(sides.makers_mask(n, maker, partner))
        return self.utility_of_gains(deal_points(n, side, made, alone, lone_defender))

    def utility_of_gains(self, gains: Sequence[int]) -> float:
        """Net points for the seat, with the game bonus (module doc)."""
        return utility_of_gains(gains, self.k.me, self.scores, self.target,
                                self.bot.game_bonus)


# -- play ---------------------------------------------------------------------------------------
class _Side(NamedTuple):
    """The maker's side in one world, as :meth:`_Evaluator.utility` takes it, and the
    tricks it has won so far."""

    maker: int
    partner: int
    won: int
    alone: bool
    lone_defender: bool


class _PlayEval(_Evaluator):
    """Every legal card's value: the weighted average over worlds of the solved deal."""

    SAMPLING_SHARE: ClassVar[float] = 1.0
    """The share of the bot's time budget the sampling of worlds may spend."""

    def __init__(self, bot: _Bot, k: _Know) -> None:
        super().__init__(bot, k)
        self.active = [s for s in range(self.n) if not k.out >> s & 1]
        """The seats that play, in turn order."""

    def _seat_after(self, lead: int, played: int) -> int:
        active = self.active
        return active[(active.index(lead) + played) % len(active)]

    def _winner(self, lead: int, trick: list[int]) -> int:
        trump = self.k.trump
        row = TRICK_STRENGTH[trump][EFFECTIVE_SUIT[trump][trick[0]]]
        best = max(range(len(trick)), key=lambda i: row[trick[i]])
        return self._seat_after(lead, best)


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
        while not bot._out_of_time(start, worlds, self.SAMPLING_SHARE):
            hands, w = self.weighted_world()
            worlds += 1
            if hands is None:
                break
            # the maker's side in this world
            partner = -1
            alone = obs.alone
            fixed = obs.rules.partner_of(maker)
            if fixed is not None:
                partner = fixed
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
            makers = sides.makers_mask(n, maker, partner) & ~k.out
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
            self.on_world(play_hands, makers, leader, trick, sol.values, w,
                          _Side(maker, util_maker, side_won, alone, lone))
            weight_sum += w
        bot.worlds_used = worlds
        if weight_sum <= 0:
            weight_sum = 1.0
        sums = self.finish(totals)
        values = {Action.play(c): sums[c] / weight_sum for c in legal}
        # ties: more tricks, then the card least worth keeping (low cards go first)
        tie = {Action.play(c): _TRICK_TIE * tricks[c] / weight_sum - _keep_tie(trump, c)
               for c in legal}
        return values, tie

    def on_world(self, hands: list[int], makers: int, leader: int, trick: list[int],
                 values: dict[int, int], weight: float, side: _Side) -> None:
        """Called with every world solved: the open-hand values of the seat's cards (the
        maker side's tricks from now) and what :meth:`utility` needs of them.  Nothing
        here."""

    def finish(self, totals: dict[int, float]) -> dict[int, float]:
        """The weighted sums of the cards' values over the worlds: PIMC's, as they are."""
        return totals


class _Path(NamedTuple):
    """One world played on open-handed from a candidate card to the seat's next turn."""

    seen: tuple[tuple[int, int], ...]
    """The (seat, card) plays the seat sees on the way."""
    winners: tuple[int, ...]
    """The seats that won the tricks completed on the way."""
    lead: int
    trick: list[int]
    """The trick in progress at the seat's next turn: its leader and cards."""
    values: dict[int, float]
    """The seat's utility in that world of each next card (the solver's play after it)."""


class _LookaheadPlayEval(_PlayEval):
    """PIMC whose seat chooses its *next* card as it will then choose it.

    PIMC values a card as if, after it, the seat would see every hidden card (strategy
    fusion): in each world it takes the next card best for that world.  Here, after each
    candidate card, every world is played on open-handed to the seat's next turn (the
    other seats play the solver's card, as PIMC assumes of them).  There the seat will
    have seen those plays and no more, so its next card is the one best on the weighted
    sum over the sampled worlds that agree with them: the worlds in which each seat held
    the card it played and the suits it did not follow (at most :attr:`MEMBERS` of them,
    its own world first).  A candidate's value is the weighted mean over the worlds of
    its result with that next card; the cards after it are the solver's (a depth-two
    search over the seat's information sets with the open-hand solver at the leaves).
    With two cards or fewer in hand the next card is forced, and this is PIMC.  With one
    world it is PIMC too; otherwise no card is worth more than PIMC says.
    """

    MEMBERS: ClassVar[int] = 8
    """The most worlds an information set takes."""
    SAMPLING_SHARE = 0.35  # the information sets of :meth:`finish` take about twice as long

    def __init__(self, bot: _Bot, k: _Know) -> None:
        super().__init__(bot, k)
        self.worlds: list[tuple[list[int], int, _Side, float]] = []
        self.paths: dict[int, list[_Path]] = {}
        self.root_trick = [int(c) for _, c in k.obs.trick]

    def on_world(self, hands: list[int], makers: int, leader: int, trick: list[int],
                 values: dict[int, int], weight: float, side: _Side) -> None:
        me = self.k.me
        if hands[me].bit_count() < 3:
            return
        trump = self.k.trump
        out = self.k.out
        self.worlds.append((hands, makers, side, weight))
        for c in values:
            h = list(hands)
            h[me] &= ~(1 << c)
            t = [*trick, c]
            lead = leader
            seen: list[tuple[int, int]] = []
            winners: list[int] = []
            while True:
                if len(t) == len(self.active):
                    lead = self._winner(lead, t)
                    winners.append(lead)
                    t = []
                seat = self._seat_after(lead, len(t))
                if seat == me:
                    break
                played = next(iter(solve_position(h, trump, makers, lead, t, out,
                                                  False).values))
                h[seat] &= ~(1 << played)
                t.append(played)
                seen.append((seat, played))
            path = _Path(tuple(seen), tuple(winners), lead, t, {})
            path.values.update(self._next_values(h, makers, side, path))
            self.paths.setdefault(c, []).append(path)

    def _next_values(self, hands: list[int], makers: int, side: _Side,
                     path: _Path) -> dict[int, float]:
        """The seat's utility of each next card in a world at the end of ``path``."""
        nxt = solve_position(hands, self.k.trump, makers, path.lead, path.trick, self.k.out,
                             True).values
        done = sum(1 for s in path.winners if makers >> s & 1)
        return {c2: self.utility(side.maker, side.partner, side.won + done + v2, side.alone,
                                 side.lone_defender) for c2, v2 in nxt.items()}

    def _agrees(self, hands: list[int], c: int, path: _Path) -> bool:
        """Whether a world's hands could have played ``path`` after the seat's ``c``."""
        trump = self.k.trump
        shown = [0] * self.n
        trick = [*self.root_trick, c]
        lead_suit = EFFECTIVE_SUIT[trump][trick[0]]
        count = len(trick)
        for seat, card in path.seen:
            if count == len(self.active):
                count = 0
            if not hands[seat] >> card & 1:
                return False
            if count == 0:
                lead_suit = EFFECTIVE_SUIT[trump][card]
            elif (EFFECTIVE_SUIT[trump][card] != lead_suit
                  and hands[seat] & ~shown[seat] & SUIT_MASKS[trump][lead_suit]):
                return False
            shown[seat] |= 1 << card
            count += 1
        return True

    def finish(self, totals: dict[int, float]) -> dict[int, float]:
        if not self.paths:
            return totals
        me = self.k.me
        worlds = self.worlds
        values = dict.fromkeys(totals, 0.0)
        for c, paths in self.paths.items():
            choice: dict[tuple[tuple[int, int], ...], int] = {}
            for i, path in enumerate(paths):
                best = choice.get(path.seen)
                if best is None:
                    sums = {c2: worlds[i][3] * u for c2, u in path.values.items()}
                    members = 1
                    for j, (hands, makers, side, w) in enumerate(worlds):
                        if members >= self.MEMBERS:
                            break
                        if j == i or not self._agrees(hands, c, path):
                            continue
                        members += 1
                        h = list(hands)
                        h[me] &= ~(1 << c)
                        for seat, card in path.seen:
                            h[seat] &= ~(1 << card)
                        for c2, u in self._next_values(h, makers, side, path).items():
                            sums[c2] += w * u
                    best = max(sums, key=lambda c2: sums[c2])
                    choice[path.seen] = best
                values[c] += worlds[i][3] * path.values[best]
        return values


# -- before the play -------------------------------------------------------------------------
State = npt.NDArray[np.int64]
"""A deal's state in the compiled core (:mod:`euchre.core`)."""


class _Branch(NamedTuple):
    """The seat's own later decision in one world: its information set and the value of
    each option there."""

    key: tuple[int, ...]
    values: dict[int, float]


class _PrePlayEval(_Evaluator):
    """Each candidate action played forward in every world, then solved from the lead."""

    def __init__(self, bot: _Bot, k: _Know, everything: bool) -> None:
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
    def _start_state(self) -> State:
        """The position now as a core state (:mod:`euchre.core`) without the hidden
        cards, which each world fills in."""
        k = self.k
        obs = k.obs
        n = self.n
        st = core.new_state(k.rules)
        core.start(st, k.dealer, 0, 0, 0, 0, 0, 0, k.turnup)
        st[core.PHASE] = k.phase
        st[core.TURN] = k.me
        passes = sum(1 for e in obs.events
                     if e.action is not None and e.action.kind is ActionKind.PASS)
        if k.phase == _BID1:
            st[core.BIDS] = passes
        elif k.phase == _BID2:
            st[core.BIDS] = passes - n
        st[core.TRUMP_SUIT] = k.trump
        st[core.MAKER] = -1 if obs.maker is None else obs.maker
        st[core.ALONE] = int(obs.alone)
        st[core.TAKEN] = int(bool(obs.turnup_taken))
        st[core.OUT] = k.out
        if k.phase == _DUMMY:
            st[core.DUMMY_LEFT] = k.hand.bit_count() - 5
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
            base[core.HANDS:core.HANDS + self.n] = hands[:self.n]
            base[core.DUMMY] = hands[self.n] if self.n == 3 else 0
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
    def _finish(self, st: State, first: int, cache: dict[tuple[int, ...], float],
                branch: bool = False) -> float | _Branch:
        """Apply ``first`` then the policy up to the first lead; the solved utility.

        With ``branch``, at the seat's own next decision (see :meth:`_own_options`)
        every option is played on by the policy, and the values come back as a
        :class:`_Branch` for the caller to choose from."""
        a: int | None = first
        me = self.k.me
        while st[core.PHASE] < core.PLAY:
            if a is None:
                if branch and st[core.TURN] == me:
                    options = self._own_options(st)
                    if options:
                        key = (first, int(st[core.PHASE]), int(st[core.MAKER]),
                               int(st[core.TRUMP_SUIT]), int(st[core.ALONE]),
                               int(st[core.HANDS + me]))
                        values = {}
                        for o in options:
                            got = self._finish(st.copy(), o, cache)
                            assert not isinstance(got, _Branch)
                            values[o] = got
                        return _Branch(key, values)
                a = self._policy(st)
            self._apply(st, a)
            a = None
        if st[core.PHASE] == core.OVER:
            return self.utility_of_gains([0] * self.n)
        return self._solve(st, cache)

    def _own_options(self, st: State) -> list[int]:
        """The options weighed at the seat's own later decision: round 2 (pass and the
        two best suits, alone with the best when plausible), the exchange (the three
        likeliest discards) and the call (the five likeliest cards); else none."""
        k = self.k
        me = k.me
        p = st[core.PHASE]
        hand = int(st[core.HANDS + me])
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
                c = discard_card(rest, int(st[core.TRUMP_SUIT]))
                out.append(DISCARD + c)
                rest &= ~(1 << c)
            return out
        if p == _CALL:
            return [CALL + c for c in self._call_cards(st)[:5]]
        return []

    def _solve(self, st: State, cache: dict[tuple[int, ...], float]) -> float:
        n = self.n
        out = int(st[core.OUT])
        hands = [0 if out >> s & 1 else int(st[core.HANDS + s]) for s in range(n)]
        trump = int(st[core.TRUMP_SUIT])
        makers = core.makers_mask(st) & ~out
        lead = int(st[core.LEADER])
        alone = bool(core.alone(st))
        lone = int(st[core.LONE])
        key = (*hands, trump, makers, out, lead, int(alone), lone)
        u = cache.get(key)
        if u is None:
            value = solve_value(hands, trump, makers, lead, out)
            util_partner = int(st[core.PARTNER]) if n == 5 else -1
            u = self.utility(int(st[core.MAKER]), util_partner, value, alone, lone >= 0)
            cache[key] = u
        return u

    # -- the rules' transitions: the compiled core ----------------------------------------------
    def _apply(self, st: State, a: int) -> None:
        """Take action ``a`` in the core; in the dummy merge ``a`` is the keep-set of
        five, discarded down to one card at a time (RULES §6)."""
        if st[core.PHASE] == core.DUMMY_MERGE:
            for c in _bits(int(st[core.HANDS + st[core.TURN]]) & ~a):
                ok = core.apply_action(st, DISCARD + c)
                assert ok, (c, a)
            return
        ok = core.apply_action(st, a)
        assert ok, a

    # -- the policy for the decisions still to come ----------------------------------------
    def _policy(self, st: State) -> int:
        k = self.k
        n = self.n
        p = st[core.PHASE]
        seat = int(st[core.TURN])
        hand = int(st[core.HANDS + seat])
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
            return DISCARD + discard_card(hand, int(st[core.TRUMP_SUIT]), forbid)
        if p == _DUMMY:
            return _greedy_keep(hand, int(st[core.TRUMP_SUIT]))
        if p == _CALL:
            return CALL + self._call_card(st)
        # defending alone: a commanding trump holding
        t = int(st[core.TRUMP_SUIT])
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

    def _call_card(self, st: State) -> int:
        """The basic bot's call: the highest trump not held, then the best off ace."""
        return self._call_cards(st)[0]

    def _call_cards(self, st: State) -> list[int]:
        """The cards the maker may call (the core's legal calls, RULES §6.3), the basic
        bot's preference first."""
        k = self.k
        t = int(st[core.TRUMP_SUIT])
        maker = int(st[core.MAKER])
        hand = int(st[core.HANDS + maker])
        legal = int(core.legal_bits(st)[1])
        if maker == k.me:
            legal &= ~self._known_out  # the world's core may not hold the history
        return sorted(_bits(legal), key=lambda c: call_key(t, hand, c))


# -- play: alpha-mu search ----------------------------------------------------------------------
Vector = tuple[float, ...]
"""The seat's utility in each world of a node (in the node's order of its worlds)."""


def pareto(vectors: list[Vector], cap: int, weights: Sequence[float]) -> list[Vector]:
    """The vectors no other one dominates (at least as good in every world, and not equal),
    at most ``cap`` of them: those of the highest weighted sum first.

    >>> pareto([(1.0, 0.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0)], 8, (1.0, 1.0))
    [(1.0, 0.0), (0.0, 1.0)]
    >>> pareto([(1.0, 0.0), (0.0, 2.0)], 1, (1.0, 1.0))
    [(0.0, 2.0)]
    """
    def score(v: Vector) -> float:
        return sum(w * x for w, x in zip(weights, v, strict=True))

    ranked = sorted(set(vectors), key=score, reverse=True)
    front: list[Vector] = []
    for v in ranked:
        if not any(all(a >= b for a, b in zip(f, v, strict=True)) for f in front):
            front.append(v)
            if len(front) >= cap:
                break
    return front


class _AlphaMuPlayEval(_PlayEval):
    """αμ search (Cazenave and Ventos, for bridge) at a depth of :attr:`depth` of the
    seat's own cards, over the same sampled worlds, the open-hand solver at the leaves.

    PIMC values a card as if, after it, the seat would see every hidden card (strategy
    fusion).  Here the seat's cards are chosen once per information set: a node of the
    search is what the seat will have seen (the cards played since the decision), and
    the worlds there are the sampled worlds in which those plays were possible.  A node
    is worth a *Pareto front*: the vectors, one utility per world of the node, that some
    plan of the seat reaches there, none dominated by another.  At the seat's own turn
    the front is the union of its cards' fronts (one card in every world); at another
    seat's turn that seat chooses in each world apart (it is assumed to see every hand,
    as PIMC assumes), so the fronts of its cards are combined in every way, world by
    world, by the worse for the seat where it is an opponent there and the better where
    it is on the seat's side (five-handed the side can differ by world).  To keep it fast
    the other seats' cards weighed are those that are some world's open-hand best (of
    equal ones, the least worth keeping), each in every world of the node that holds it
    as a legal card (every legal card when :attr:`WIDE`: αμ in full).  At the seat's turn
    after ``depth`` of its cards the vector of each card is its open-hand value in each
    world.  A candidate is worth the vector of its front with the highest weighted sum.
    At depth 1 this is PIMC; with two cards or fewer in hand the seat's next card is
    forced and it is PIMC too.
    """

    WIDE: ClassVar[bool] = False
    """Let the other seats play any legal card, not only their open-hand best."""
    CAP: ClassVar[int] = 16
    """The most vectors a front keeps (the highest weighted sums)."""

    def __init__(self, bot: _Bot, k: _Know, depth: int = 2) -> None:
        super().__init__(bot, k)
        self.depth = depth
        self.worlds: list[tuple[list[int], int, _Side, float]] = []
        self.root_trick = [int(c) for _, c in k.obs.trick]
        self.root_leader = k.obs.trick[0][0] if k.obs.trick else k.me

    def on_world(self, hands: list[int], makers: int, leader: int, trick: list[int],
                 values: dict[int, int], weight: float, side: _Side) -> None:
        if self.depth > 1 and hands[self.k.me].bit_count() >= 3:
            self.worlds.append((hands, makers, side, weight))

    def finish(self, totals: dict[int, float]) -> dict[int, float]:
        if not self.worlds:
            return totals
        every = list(range(len(self.worlds)))
        weights = [w for _, _, _, w in self.worlds]
        played = [0] * self.n
        values = {}
        for c in totals:
            front = self._after(c, every, played, self.root_leader, self.root_trick, (),
                                self.depth - 1)
            values[c] = max(sum(w * x for w, x in zip(weights, v, strict=True))
                            for v in front)
        return values

    # -- the search -----------------------------------------------------------------------
    def _after(self, card: int, worlds: list[int], played: list[int], lead: int,
               trick: list[int], winners: tuple[int, ...], left: int) -> list[Vector]:
        """The front after the seat to move plays ``card`` (the same in every world)."""
        seat = self._seat_after(lead, len(trick))
        played = list(played)
        played[seat] |= 1 << card
        trick = [*trick, card]
        if len(trick) == len(self.active):
            lead = self._winner(lead, trick)
            winners = (*winners, lead)
            trick = []
        return self._node(worlds, played, lead, trick, winners, left)

    def _node(self, worlds: list[int], played: list[int], lead: int, trick: list[int],
              winners: tuple[int, ...], left: int) -> list[Vector]:
        """The front of a node: ``left`` more of the seat's own cards are searched."""
        k = self.k
        me = k.me
        seat = self._seat_after(lead, len(trick))
        weights = [self.worlds[i][3] for i in worlds]
        if not self.worlds[worlds[0]][0][seat] & ~played[seat]:  # the deal is over
            return [tuple(self._utility_after(i, winners, 0) for i in worlds)]
        if seat == me and left > 0:
            hand = self.worlds[worlds[0]][0][me] & ~played[me]
            fronts: list[Vector] = []
            for c in self._legal(hand, trick):
                fronts += self._after(c, worlds, played, lead, trick, winners, left - 1)
            return pareto(fronts, self.CAP, weights)
        sols = []
        for i in worlds:
            hands, makers, _, _ = self.worlds[i]
            h = [hands[s] & ~played[s] for s in range(self.n)]
            sols.append(solve_position(h, k.trump, makers, lead, trick, k.out, True).values)
        if seat == me:  # the leaves: each card's open-hand value in every world
            return pareto([tuple(self._utility_after(i, winners, sol[c])
                                 for i, sol in zip(worlds, sols, strict=True))
                           for c in sols[0]], self.CAP, weights)
        # another seat: its cards' fronts, combined world by world
        cards: set[int] = set()
        ally: dict[int, bool] = {}
        for i, sol in zip(worlds, sols, strict=True):
            makers = self.worlds[i][1]
            maker = makers >> seat & 1 == 1
            ally[i] = maker == (makers >> me & 1 == 1)
            if self.WIDE:
                cards.update(sol)
            else:  # its open-hand best, the one least worth keeping of equal ones
                best = max(sol.values()) if maker else min(sol.values())
                cards.add(min((c for c, v in sol.items() if v == best),
                              key=lambda c: _keep_key(k.trump, c)))
        # each card's worlds: those in which the seat may play it (RULES §8)
        children = {c: [i for i, sol in zip(worlds, sols, strict=True) if c in sol]
                    for c in sorted(cards)}
        # the vectors combined so far, as {world: utility} over the worlds they cover
        combined: list[dict[int, float]] = [{}]
        for c, sub in children.items():
            front = self._after(c, sub, played, lead, trick, winners, left)
            merged = []
            for r in combined:
                for v in front:
                    m = dict(r)
                    for i, x in zip(sub, v, strict=True):
                        y = m.get(i)
                        m[i] = x if y is None else max(x, y) if ally[i] else min(x, y)
                    merged.append(m)
            known = sorted(merged[0])
            w = [self.worlds[i][3] for i in known]
            combined = [dict(zip(known, v, strict=True))
                        for v in pareto([tuple(m[i] for i in known) for m in merged],
                                        self.CAP, w)]
        return [tuple(m[i] for i in worlds) for m in combined]

    def _utility_after(self, i: int, winners: tuple[int, ...], value: int) -> float:
        """World ``i``'s utility for the seat when the maker side takes ``value`` more
        tricks after the tricks ``winners`` won on the way."""
        _, makers, side, _ = self.worlds[i]
        done = sum(1 for s in winners if makers >> s & 1)
        return self.utility(side.maker, side.partner, side.won + done + value, side.alone,
                            side.lone_defender)

    def _legal(self, hand: int, trick: list[int]) -> list[int]:
        """The seat's legal cards: those of the suit led if it holds any (RULES §8)."""
        if trick:
            trump = self.k.trump
            follow = hand & SUIT_MASKS[trump][EFFECTIVE_SUIT[trump][trick[0]]]
            if follow:
                hand = follow
        return _bits(hand)

