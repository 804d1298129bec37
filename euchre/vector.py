"""Many deals at once, for machines: :class:`VectorDeals` over the compiled rules core.

Each of ``n`` deals is one row of an ``int64`` array (:mod:`euchre.core`); every method
works on all rows in one compiled loop and answers with numpy arrays.  The actions are the
ids of the fixed action space (:mod:`euchre.actions`), the points are the RULES §9 table,
and :meth:`VectorDeals.record` gives any deal as a RECORDS deal record that
``euchre replay`` reads.

>>> from euchre import Rules
>>> v = VectorDeals(Rules(players=4), n=3, seed=1)
>>> v.legal_mask().shape, v.to_move.tolist()
((3, 111), [2, 1, 3])
>>> while not v.done.all():
...     v.step(v.random_actions())
>>> v.points.shape, bool((v.points >= 0).all())
((3, 4), True)
>>> from euchre import Deal
>>> Deal.from_record(v.record(0)).result.points == tuple(v.points[0])
True

The same seed gives the same deals whatever ``n``: deal ``i`` depends only on the seed and
``i`` (and, after :meth:`VectorDeals.reset`, on how many deals its row has dealt).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre import _numba, core
from euchre.actions import CALL, DEFEND_ALONE, DISCARD, NUM_ACTIONS, ORDER, PASS, TRUMP, Action
from euchre.cards import CARDS, cards_of
from euchre.deal import Deal, IllegalActionError
from euchre.notation import DealRecord
from euchre.rules import Rules

__all__ = ["VectorDeals", "deal_state", "observation_layout", "observation_size", "observe",
           "random_deals", "random_games", "record_of"]

Int64Array = npt.NDArray[np.int64]
_jit = _numba.jit

# -- the observation tensor: what RULES §12 lets a seat know ---------------------------------------
# Seats are relative to the observer: slot r is the seat r places to its left (0 = itself).
_CARD_FIELDS: Final = ("hand", "turnup", "called", "discards", "dummy")
_SEAT_FIELDS: Final = ("dealer", "to_move", "maker", "lone_defender", "sitting_out", "partner",
                       "trick_leader", "tricks_won")


def observation_layout(players: int) -> dict[str, tuple[int, int, str]]:
    """The observation tensor's fields for ``players`` seats: name -> (start, stop, meaning).

    Seats are counted from the observer to its left (0 is the observer itself).

    >>> layout = observation_layout(4)
    >>> layout['hand'][:2], layout['played'][:2]
    ((0, 33), (258, 390))
    """
    p = players
    fields = [
        ("hand", 33, "the observer's cards now, by card id"),
        ("turnup", 33, "the turn-up, by card id"),
        ("turnup_state", 3, "the turn-up: still open, taken (ordered up), turned down"),
        ("phase", 9, "the phase, in the order of euchre.deal.Phase"),
        ("trump", 4, "trump, once fixed: C D H S"),
        ("alone", 1, "the maker declared alone"),
        ("called", 33, "five-handed: the called card"),
        ("discards", 33, "the observer's own discards (exchange, dummy merge)"),
        ("dummy", 33, "three-handed: the dummy as dealt, for the maker who took it up"),
        ("dealer", p, "the dealer"),
        ("to_move", p, "the seat to move"),
        ("maker", p, "the maker"),
        ("lone_defender", p, "the defender who went alone"),
        ("sitting_out", p, "seats that sit out this deal"),
        ("partner", p, "five-handed: the partner, once the observer knows it"),
        ("trick_leader", p, "who led the trick in progress"),
        ("tricks_won", p, "tricks won by each seat, divided by 5"),
        ("round1", 3 * p, "per seat: passed, ordered up, ordered up alone (round 1)"),
        ("round2", 6 * p, "per seat: passed, named C, D, H, S, alone (round 2 or a joker)"),
        ("defend", 2 * p, "per seat: passed, defended alone"),
        ("played", 33 * p, "per seat: the cards it has played, by card id"),
        ("trick", 33 * p, "per seat: its card in the trick in progress"),
    ]
    out: dict[str, tuple[int, int, str]] = {}
    at = 0
    for name, size, meaning in fields:
        out[name] = (at, at + size, meaning)
        at += size
    return out


def observation_size(players: int) -> int:
    """The length of one seat's observation tensor: it grows with the seats to describe.

    >>> [observation_size(players) for players in (2, 3, 4, 5)]
    [352, 437, 522, 607]
    """
    return max(stop for _, stop, _ in observation_layout(players).values())


def _offsets(players: int) -> Int64Array:
    layout = observation_layout(players)
    return np.array([layout[name][0] for name in _OFFSET_NAMES], dtype=np.int64)


_OFFSET_NAMES: Final = ("hand", "turnup", "turnup_state", "phase", "trump", "alone", "called",
                        "discards", "dummy", "dealer", "to_move", "maker", "lone_defender",
                        "sitting_out", "partner", "trick_leader", "tricks_won", "round1",
                        "round2", "defend", "played", "trick")
(_HAND, _TURNUP, _TURNUP_STATE, _PHASE, _TRUMP, _ALONE, _CALLED, _DISCARDS, _DUMMY, _DEALER,
 _TO_MOVE, _MAKER, _LONE, _OUT, _PARTNER, _TRICK_LEADER, _TRICKS_WON, _ROUND1, _ROUND2,
 _DEFEND, _PLAYED, _TRICK) = range(len(_OFFSET_NAMES))


@_jit
def _set_cards(row: Any, at: int, cards: int) -> None:
    while cards:
        low = cards & -cards
        row[at + core._bit_index(low)] = 1.0
        cards ^= low


@_jit
def _observe(st: Int64Array, seat: int, off: Int64Array, row: Any) -> None:
    """One seat's observation of one deal (RULES §12) into a zeroed float32 row."""
    p = st[core.PLAYERS]
    phase = st[core.PHASE]

    def rel(s: int) -> int:
        r = s - seat  # the seat's place to the observer's left, without a division
        return r + p if r < 0 else r

    _set_cards(row, off[_HAND], st[core.HANDS + seat])
    row[off[_TURNUP] + st[core.TURNUP]] = 1.0
    if st[core.TAKEN]:
        row[off[_TURNUP_STATE] + 1] = 1.0
    elif phase == core.BID_TURNUP or phase == core.NAME_TRUMP:
        row[off[_TURNUP_STATE]] = 1.0
    else:
        row[off[_TURNUP_STATE] + 2] = 1.0
    row[off[_PHASE] + phase] = 1.0
    if st[core.TRUMP_SUIT] >= 0:
        row[off[_TRUMP] + st[core.TRUMP_SUIT]] = 1.0
    row[off[_ALONE]] = float(st[core.ALONE])
    if st[core.CALLED] >= 0:
        row[off[_CALLED] + st[core.CALLED]] = 1.0
    row[off[_DEALER] + rel(st[core.DEALER])] = 1.0
    if phase != core.OVER:
        row[off[_TO_MOVE] + rel(st[core.TURN])] = 1.0
    if st[core.MAKER] >= 0:
        row[off[_MAKER] + rel(st[core.MAKER])] = 1.0
    if st[core.LONE] >= 0:
        row[off[_LONE] + rel(st[core.LONE])] = 1.0
    for s in range(p):
        if st[core.OUT] >> s & 1:
            row[off[_OUT] + rel(s)] = 1.0
        row[off[_TRICKS_WON] + rel(s)] = st[core.TRICKS + s] / 5.0
    # the dummy, for the maker who took it up (RULES §12)
    if (p == 3 and seat == st[core.MAKER] and st[core.ALONE] == 0
            and phase >= core.DUMMY_MERGE):
        _set_cards(row, off[_DUMMY], st[core.DEALT_DUMMY])
    # the history: bids, calls, defences, own discards, cards played
    passes = 0
    made = False  # trump is made: later passes decline to defend alone
    called_played = False
    for k in range(st[core.N_ACTIONS]):
        entry = st[core.HISTORY + k]
        s = entry // core.SEAT_SHIFT
        a = entry % core.SEAT_SHIFT
        r = rel(s)
        if a < DISCARD:
            row[off[_PLAYED] + 33 * r + a] = 1.0
            if a == st[core.CALLED]:
                called_played = True
        elif a < CALL:
            if s == seat:
                row[off[_DISCARDS] + a - DISCARD] = 1.0
        elif a == PASS:
            if made:
                row[off[_DEFEND] + 2 * r] = 1.0
            elif passes < p:
                row[off[_ROUND1] + 3 * r] = 1.0
            else:
                row[off[_ROUND2] + 6 * r] = 1.0
            passes += 1
        elif a == ORDER or a == ORDER + 1:
            row[off[_ROUND1] + 3 * r + 1 + (a - ORDER)] = 1.0
            made = True
        elif TRUMP <= a < DEFEND_ALONE:
            made = True
            row[off[_ROUND2] + 6 * r + 1 + (a - TRUMP) % 4] = 1.0
            if a >= TRUMP + 4:
                row[off[_ROUND2] + 6 * r + 5] = 1.0
        elif a == DEFEND_ALONE:
            row[off[_DEFEND] + 2 * r + 1] = 1.0
    # the five-handed partner: known to itself, and to all once the called card is played
    partner = st[core.PARTNER]
    if partner >= 0 and (seat == partner or called_played):
        row[off[_PARTNER] + rel(partner)] = 1.0
    # the trick in progress, card by card from its leader
    if phase == core.PLAY:
        row[off[_TRICK_LEADER] + rel(st[core.LEADER])] = 1.0
        s = st[core.LEADER]
        for i in range(st[core.TRICK_LEN]):
            row[off[_TRICK] + 33 * rel(s) + st[core.TRICK_CARDS + i]] = 1.0
            s = core.next_active(st, s)


def deal_state(deal: Deal) -> Int64Array:
    """The core's state of ``deal`` as dealt, before any action (apply the deal's actions
    with :func:`euchre.core.apply_action` to follow it).

    >>> from euchre import Rules
    >>> deal = Deal.random(Rules(players=2), dealer=0, seed=3)
    >>> hands = record_of(deal_state(deal), deal.rules).hands
    >>> list(hands[0]) == sorted(deal.hand(0))
    True
    """
    st = core.new_state(deal.rules)
    hands = [*deal.dealt, *[0] * (5 - len(deal.dealt))]
    core.start(st, deal.dealer, *hands, deal.dealt_dummy or 0, int(deal.turnup))
    return st


def observe(state: Int64Array, seat: int) -> npt.NDArray[np.float32]:
    """One seat's observation tensor of one state (:func:`observation_layout`).

    >>> from euchre import Rules
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=3)
    >>> row = observe(deal_state(deal), 1)
    >>> hand = observation_layout(4)["hand"]
    >>> [c for c in range(33) if row[hand[0] + c]] == sorted(int(c) for c in deal.hand(1))
    True
    """
    players = int(state[core.PLAYERS])
    row = np.zeros(observation_size(players), dtype=np.float32)
    _observe(state, seat, _offsets(players), row)
    return row


# -- batched kernels -------------------------------------------------------------------------------
@_jit
def _deal(states: Int64Array, seed: int, which: Any) -> None:
    for i in range(states.shape[0]):
        if which[i]:
            core.deal_random(states[i], seed, i, -1)


@_jit
def _legal(states: Int64Array, out: Any) -> None:
    for i in range(states.shape[0]):
        core.legal_mask(states[i], out[i])


@_jit
def _first_illegal(states: Int64Array, actions: Int64Array) -> int:
    for i in range(states.shape[0]):
        if states[i, core.PHASE] != core.OVER and not core.is_legal(states[i], actions[i]):
            return i
    return -1


@_jit
def _step(states: Int64Array, actions: Int64Array) -> None:
    for i in range(states.shape[0]):
        if states[i, core.PHASE] != core.OVER:
            core.apply_action(states[i], actions[i])


@_jit
def _random_actions(states: Int64Array, seed: int, out: Int64Array) -> None:
    for i in range(states.shape[0]):
        if states[i, core.PHASE] != core.OVER:
            out[i] = core.random_action(states[i], seed, i)
        else:
            out[i] = -1


@_jit
def _points(states: Int64Array, out: Int64Array) -> None:
    for i in range(states.shape[0]):
        core.points(states[i], out[i])


@_jit
def _observe_all(states: Int64Array, seat: int, off: Int64Array, out: Any) -> None:
    for i in range(states.shape[0]):
        _observe(states[i], seat, off, out[i])


@_jit
def random_deals(states: Int64Array, seed: int, count: int) -> int:
    """Deal and play ``count`` deals at random, one after another in each row of
    ``states`` (the rules already written); the actions taken.  For benchmarks: every
    deal is dealt, bid, played and scored (RULES §3-§9) with uniformly random legal
    actions, and the last deal of each row stays in it."""
    taken = 0
    rows = states.shape[0]
    score = np.zeros(5, dtype=np.int64)
    for k in range(count):
        st = states[k % rows]
        core.deal_random(st, seed, k % rows, -1)
        taken += core.random_rollout(st, seed, k % rows)
        core.points(st, score)
    return taken


def record_of(state: Int64Array, rules: Rules) -> DealRecord:
    """A core state's deal as a RECORDS deal record: the cards as dealt (the kitty in
    card order) and the actions so far.

    >>> from euchre import Rules
    >>> deal = Deal.random(Rules(players=4), dealer=1, seed=5)
    >>> record = record_of(deal_state(deal), deal.rules)
    >>> sorted(record.to_json()), record.dealer, record.actions
    (['actions', 'dealer', 'dummy', 'hands', 'kitty', 'rules', 'turnup'], 1, ())
    """
    p = rules.players
    hands = [int(state[core.DEALT + s]) for s in range(p)]
    dummy = int(state[core.DEALT_DUMMY]) if p == 3 else None
    turnup = int(state[core.TURNUP])
    used = (1 << turnup) | (dummy or 0)
    for h in hands:
        used |= h
    kitty = int(state[core.PACK]) & ~used
    history = state[core.HISTORY:core.HISTORY + state[core.N_ACTIONS]] % core.SEAT_SHIFT
    return DealRecord(
        rules, int(state[core.DEALER]), tuple(tuple(cards_of(h)) for h in hands),
        CARDS[turnup], tuple(cards_of(kitty)),
        None if dummy is None else tuple(cards_of(dummy)),
        tuple(str(Action.from_id(int(a))) for a in history))


# -- whole games at random -------------------------------------------------------------------------
_GAME_SALT: Final = 0x5BD1E995


@_jit
def _random_game(st: Int64Array, seed: int, game: int, target: int, scores: Int64Array,
                 kept: Int64Array) -> int:
    """Play game number ``game`` at random: a random first dealer, then deal after deal,
    the deal passing left, until a seat reaches ``target`` (RULES §3, §10).  The final
    scores go to ``scores``; each finished deal's state to a row of ``kept`` while there
    is room.  Returns the number of deals."""
    n = st[core.PLAYERS]
    points = np.zeros(5, dtype=np.int64)
    for s in range(5):
        scores[s] = 0
    dealer = core.random_below(seed ^ _GAME_SALT, game, 0, n)
    st[core.EPISODE] = 0
    deals = 0
    while True:
        core.deal_random(st, seed, game, dealer)
        core.random_rollout(st, seed, game)
        core.points(st, points)
        if deals < kept.shape[0]:
            kept[deals] = st
        deals += 1
        best = 0
        for s in range(n):
            scores[s] += points[s]
            best = max(best, scores[s])
        if best >= target:
            return deals
        dealer = (dealer + 1) % n


def random_games(rules: Rules, games: int, seed: int, keep: bool = False,
                 first: int = 0) -> Iterator[tuple[list[int], int, list[DealRecord]]]:
    """Games ``first`` to ``first + games - 1`` played at random on the core: for each,
    the final scores, the number of deals and (with ``keep``) each deal's record.

    Every seat picks uniformly among its legal actions, as the ``random`` bot does; game
    ``g`` depends only on the seed and ``g``.  Games of the draw or a rubber are not
    played here.

    >>> scores, deals, records = next(random_games(Rules(players=2), 1, seed=3, keep=True))
    >>> max(scores) >= 10, deals == len(records)
    (True, True)
    """
    if rules.draw or rules.rubber:
        raise ValueError("random_games plays plain games: not the draw nor rubbers")
    state = core.new_state(rules)
    scores = np.zeros(5, dtype=np.int64)
    room = 64 if keep else 0
    for g in range(first, first + games):
        while True:
            kept = np.zeros((room, core.STATE_SIZE), dtype=np.int64)
            deals = _random_game(state, seed, g, rules.target, scores, kept)
            if deals <= room or not keep:
                break
            room = 2 * deals  # a long game: play it again with room for every deal
        records = [record_of(kept[d], rules) for d in range(deals)] if keep else []
        yield scores[:rules.players].tolist(), deals, records


class VectorDeals:
    """``n`` deals of one rules set, stepped together (see the module's example).

    ``seed`` fixes every deal: deal ``i`` is the same whatever ``n``.

    >>> from euchre import Rules
    >>> VectorDeals(Rules(players=4), n=3, seed=1).record(1) == VectorDeals(
    ...     Rules(players=4), n=5, seed=1).record(1)
    True
    """

    def __init__(self, rules: Rules, n: int, seed: int = 0) -> None:
        if n < 1:
            raise ValueError(f"VectorDeals needs at least one deal, not n={n}")
        self.rules = rules
        self.n = n
        self.seed = seed
        self.states: Int64Array = np.tile(core.new_state(rules), (n, 1))
        """One row of :mod:`euchre.core` state per deal."""
        _deal(self.states, seed, np.ones(n, dtype=np.bool_))

    def __repr__(self) -> str:
        return f"VectorDeals({self.rules!r}, n={self.n}, seed={self.seed})"

    @property
    def to_move(self) -> Int64Array:
        """The seat to move in each deal; -1 where the deal is over.  At the start, the
        seat at each dealer's left bids first.

        >>> from euchre import Rules
        >>> VectorDeals(Rules(players=4), n=3, seed=1).to_move.tolist()
        [2, 1, 3]
        """
        over = self.states[:, core.PHASE] == core.OVER
        return np.where(over, -1, self.states[:, core.TURN])

    @property
    def done(self) -> npt.NDArray[np.bool_]:
        """Where the deal is over: five tricks played, or the cards thrown in.

        >>> from euchre import Rules
        >>> deals = VectorDeals(Rules(players=2), n=2, seed=1)
        >>> deals.done.tolist()
        [False, False]
        >>> while not deals.done.all():
        ...     deals.step(deals.random_actions())
        >>> deals.to_move.tolist()
        [-1, -1]
        """
        return np.asarray(self.states[:, core.PHASE] == core.OVER)

    @property
    def phase(self) -> Int64Array:
        """Each deal's phase, in the order of :class:`euchre.deal.Phase`.

        >>> from euchre import Rules
        >>> from euchre.deal import Phase
        >>> [list(Phase)[k].name for k in VectorDeals(Rules(players=4), n=2).phase]
        ['BID_TURNUP', 'BID_TURNUP']
        """
        return self.states[:, core.PHASE].copy()

    @property
    def points(self) -> Int64Array:
        """Each seat's RULES §9 points, ``(n, players)``; zeros until a deal is over.
        Four-handed, partners (seats 0 and 2, 1 and 3) score the same.

        >>> from euchre import Rules
        >>> deals = VectorDeals(Rules(players=4), n=3, seed=1)
        >>> while not deals.done.all():
        ...     deals.step(deals.random_actions())
        >>> deals.points.tolist()
        [[0, 2, 0, 2], [0, 1, 0, 1], [0, 2, 0, 2]]
        """
        out = np.zeros((self.n, 5), dtype=np.int64)
        _points(self.states, out)
        return out[:, :self.rules.players]

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """``(n, NUM_ACTIONS)``: the legal actions of the seat to move (none once over).

        >>> from euchre import Rules
        >>> mask = VectorDeals(Rules(players=4), n=3, seed=1).legal_mask()
        >>> [str(Action.from_id(int(i))) for i in np.flatnonzero(mask[0])]
        ['pass', 'order', 'order alone']
        """
        out = np.zeros((self.n, NUM_ACTIONS), dtype=np.bool_)
        _legal(self.states, out)
        return out

    def step(self, actions: npt.ArrayLike) -> None:
        """Apply one action id per deal; entries for finished deals are ignored.

        An illegal action raises :class:`~euchre.deal.IllegalActionError` naming the deal
        and the rule, and no deal changes.

        >>> from euchre import Rules
        >>> deals = VectorDeals(Rules(players=4), n=2, seed=1)
        >>> deals.step([99, 100])  # deal 0 passes, deal 1 orders up
        >>> deals.step([110, 99])
        Traceback (most recent call last):
          ...
        euchre.deal.IllegalActionError: deal 0: ... 'defend alone' is not legal; legal: ...
        """
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.n:
            raise ValueError(f"step needs one action per deal: {self.n}, not {acts.shape[0]}")
        bad = _first_illegal(self.states, acts)
        if bad >= 0:
            raise IllegalActionError(f"deal {bad}: {self._explain(bad, int(acts[bad]))}")
        _step(self.states, acts)

    def _explain(self, i: int, action: int) -> str:
        deal = Deal.from_record(self.record(i))
        if not 0 <= action < NUM_ACTIONS:
            return f"action ids are 0 to {NUM_ACTIONS - 1}, not {action}"
        try:
            deal.apply(action)
        except IllegalActionError as e:
            return str(e)
        return f"'{Action.from_id(action)}' is not legal"  # pragma: no cover - the core agrees

    def random_actions(self) -> Int64Array:
        """A uniformly random legal action per deal (-1 where over), from the deals' own
        random streams: the same seed gives the same random play.  Each call draws the
        next numbers of those streams (a counter kept in each deal's state).

        >>> from euchre import Rules
        >>> first = VectorDeals(Rules(players=4), n=3, seed=1).random_actions()
        >>> first.tolist() == VectorDeals(Rules(players=4), n=3, seed=1).random_actions().tolist()
        True
        """
        out = np.empty(self.n, dtype=np.int64)
        _random_actions(self.states, self.seed, out)
        return out

    def observation_tensor(self, seat: int) -> npt.NDArray[np.float32]:
        """``(n, K)`` float32: what RULES §12 lets ``seat`` know in each deal.  The layout
        is :func:`observation_layout` (``docs/research.md``).

        >>> from euchre import Rules
        >>> VectorDeals(Rules(players=4), n=3).observation_tensor(0).shape
        (3, 522)
        """
        p = self.rules.players
        if not 0 <= seat < p:
            raise ValueError(f"seats are 0 to {p - 1}, not {seat}")
        out = np.zeros((self.n, observation_size(p)), dtype=np.float32)
        _observe_all(self.states, seat, _offsets(p), out)
        return out

    def record(self, i: int) -> DealRecord:
        """Deal ``i`` as a RECORDS deal record (``euchre replay`` reads it).

        >>> from euchre import Rules
        >>> deals = VectorDeals(Rules(players=4), n=2, seed=1)
        >>> deals.step([99, 100])
        >>> deals.record(0).actions, deals.record(1).actions
        (('pass',), ('order',))
        """
        return record_of(self.states[i], self.rules)

    def reset(self, done_only: bool = True) -> None:
        """Deal afresh: where a deal is over (``done_only``), or everywhere.

        >>> from euchre import Rules
        >>> deals = VectorDeals(Rules(players=2), n=2, seed=1)
        >>> while not deals.done.all():
        ...     deals.step(deals.random_actions())
        >>> deals.reset()
        >>> deals.done.tolist(), deals.points.tolist()
        ([False, False], [[0, 0], [0, 0]])
        """
        which = self.done if done_only else np.ones(self.n, dtype=np.bool_)
        _deal(self.states, self.seed, which)
