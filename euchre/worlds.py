"""What a seat knows of a deal, and the worlds it may be in: one home for every bot.

A seat sees only its share of the deal (RULES §12).  A *world* deals the cards it cannot
see to the other hands (and to the kitty, the dummy and the other discards),
consistently with everything the seat has seen:

* its own cards as dealt, its own discards, the dummy it took (the three-handed maker),
  every card played and by whom, the turn-up wherever the rules make it known (face up
  in round 1, turned down, or kept by a dealer who took it and has not played it, unless
  the dealer showed itself void in trump or sits out);
* the voids a seat showed by failing to follow suit (trump-aware: the left bower and the
  joker are trump, RULES §2);
* five-handed, the called card is neither in the maker's hand nor its discard (RULES §6.3);
* three-handed, the maker's hand came from hand and dummy (RULES §6).

**The seat's view.**  Everything here reads a *view*: a :mod:`euchre.core` state array
in which only what the seat knows is written (the rules, the dealer, the turn-up, its
hand as dealt and as it is now, the dummy if it took it up, the phase, what the bidding
fixed for all to see, and every action, the others' discards as :data:`HIDDEN_DISCARD`).
:func:`view_of` makes it from a state,
:func:`view_from_observation` from a bot's :class:`~euchre.deal.Observation`; any state
is a view of itself too (only what the seat knows is read).  :class:`InfoSet` is what the
view tells (compiled: trump, maker, seats sitting out and the called card as the core's
state holds them; the voids and cards played from a pass over the play), with the places
the unseen cards go.

**One sampler, two ways to fill.**  :func:`sample_world` deals a world as a whole deal
(a core state, the actions replayed) *uniformly* among the deals the seat cannot tell
apart (by rejection, then a careful fill that keeps every group's constraint
satisfiable): ``cismcts``, OpenSpiel's ``python_euchre`` resampling, the ``ismcts``
adapter and the policy bot's encoding draw from it.  :meth:`InfoSet.world` deals the
same unseen cards the expert's way (:mod:`euchre.bots.knowledge` weighs those worlds by
its player model): the other hands as they are now, the seats with a shown void served
first from a shuffle the caller draws, the three-handed maker keeping the best five of
its ten, and, if the voids keep failing, a relaxed retry that ignores them;
:meth:`InfoSet.screened_world` redraws the worlds a player model finds unlikely.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> info = InfoSet.of_observation(deal.observation(1))
>>> hands = info.world(random.Random(1))
>>> hands[1] == deal.hand_mask(1), hands[0].bit_count()
(True, 5)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from euchre import _numba, core
from euchre.actions import (
    CALL,
    DISCARD,
)
from euchre.cards import EFFECTIVE_SUIT, SUIT_MASKS, TRICK_STRENGTH, card_mask
from euchre.deal import Observation, Phase

__all__ = ["HIDDEN_DISCARD", "InfoSet", "sample_world", "view_from_observation", "view_of"]

Int64Array = npt.NDArray[np.int64]

HIDDEN_DISCARD: Final = core.SEAT_SHIFT - 1
"""In a seat's view, the action of another seat's discard, whose card it may not see."""

_jit = _numba.jit
_EFFECTIVE: Final = np.array(EFFECTIVE_SUIT, dtype=np.int64)
_SUITS: Final = np.array(SUIT_MASKS, dtype=np.int64)
_MAX_GROUPS: Final = 8  # the places unseen cards go: the other hands, discards, dummy, kitty
_MAX_PLAYS: Final = 40
_PHASE_NO: Final = {p: i for i, p in enumerate(Phase)}
"""The phases as :mod:`euchre.core` numbers them (the same order)."""
_SAMPLE: Final = 11
"""The stream of the counter-based random numbers (core.random_u32) the worlds use."""


def _keep_keys() -> Int64Array:
    """``_KEEP[trump, card]``: higher is more worth keeping for the three-handed maker
    (trumps by rank, then aces, then by rank)."""
    out = np.zeros((4, 33), dtype=np.int64)
    for t in range(4):
        for c in range(33):
            if EFFECTIVE_SUIT[t][c] == t:
                out[t, c] = 200 + TRICK_STRENGTH[t][t][c] - 20
            else:
                out[t, c] = (100 if c & 7 == 7 else 0) + (c & 7)
    return out


_KEEP: Final = _keep_keys()

# -- the information set: what the seat saw --------------------------------------------------
I_TRUMP: Final = 0
I_MAKER: Final = 1  # -1 until trump is made
I_ALONE: Final = 2  # the maker declared alone
I_TAKEN: Final = 3  # the turn-up (or a turned-up joker) was taken
I_OUT: Final = 4  # bitmask of the seats sitting out
I_EXCHANGE_DUE: Final = 5  # the dealer owes (or made) the exchange's discard
I_EXCHANGE_DONE: Final = 6
I_MERGED: Final = 7  # discards made after the exchange's (the three-handed maker's)
I_CALLED: Final = 8  # -1 until called
I_PLAYS: Final = 9
I_ALL_PLAYED: Final = 10
I_HAND: Final = 11  # the seat's cards now
I_DUMMY: Final = 12  # the dummy as dealt, for the three-handed maker who took it up
I_DISCARDS: Final = 13  # the seat's own discards
I_VOIDS: Final = 14  # 5 slots: the suits (a bitmask) each seat showed it has none of
I_PLAYED: Final = 19  # 5 slots: the cards each seat played
I_PLAY_SEAT: Final = 24  # _MAX_PLAYS slots
I_PLAY_CARD: Final = I_PLAY_SEAT + _MAX_PLAYS
INFO_SIZE: Final = I_PLAY_CARD + _MAX_PLAYS


@_jit
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@_jit
def _nth_bit(bits: int, n: int) -> int:
    """The index of the ``n``-th set bit of ``bits`` (from the lowest, ``n`` from 0)."""
    for _ in range(n):
        bits &= bits - 1
    i = 0
    low = bits & -bits
    while low > 1:
        low >>= 1
        i += 1
    return i


@_jit
def _hidden(entry: int, seat: int) -> bool:
    """Whether a history entry is a discard ``seat`` may not see (RULES §12)."""
    s = entry // core.SEAT_SHIFT
    a = entry % core.SEAT_SHIFT
    return a == HIDDEN_DISCARD or (DISCARD <= a < CALL and s != seat)


@_jit
def _knows_dummy(st: Int64Array, seat: int) -> bool:
    """The three-handed maker who took up the dummy has seen it (RULES §6, §12)."""
    return (st[core.PLAYERS] == 3 and st[core.MAKER] == seat and st[core.ALONE] == 0
            and st[core.PHASE] >= core.DUMMY_MERGE)


_PUBLIC_BIDDING: Final = (core.TRUMP_SUIT, core.MAKER, core.ALONE, core.TAKEN, core.OUT,
                          core.CALLED, core.LONE)
"""The fields of the core's state that the bidding fixed and everyone sees (RULES §4-§7,
§12): a view keeps them, and :func:`_scan` reads the bidding from them."""


@_jit
def view_of(st: Int64Array, seat: int, out: Int64Array) -> None:
    """``seat``'s view of ``st`` into ``out``: the rules, the dealer, the turn-up, its hand
    as dealt and now, the dummy if it took it up, the phase, what the bidding fixed for
    all to see (trump, maker, alone, the turn-up taken, who sits out, the called card, the
    lone defender) and the actions, others' discards as :data:`HIDDEN_DISCARD`;
    everything else zero.  Two deals ``seat`` cannot
    tell apart have the same view.

    Two-handed, seat 1 cannot tell seat 0's clubs from hearts; seat 0 can:

    >>> from euchre import Deal, Rules
    >>> from euchre.vector import deal_state
    >>> def deal(first_hand: str) -> Deal:
    ...     return Deal.from_cards(Rules(players=2), dealer=0,
    ...                            hands=[first_hand, 'AC 9D TD JD QD'], turnup='KD')
    >>> clubs, hearts = deal('9C TC JC QC KC'), deal('9H TH JH QH KH')
    >>> def view(d: Deal, seat: int) -> Int64Array:
    ...     out = np.zeros(core.STATE_SIZE, dtype=np.int64)
    ...     view_of(deal_state(d), seat, out)
    ...     return out
    >>> bool((view(clubs, 1) == view(hearts, 1)).all())
    True
    >>> bool((view(clubs, 0) == view(hearts, 0)).all())
    False
    """
    for k in range(core.STATE_SIZE):
        out[k] = 0
    for k in range(core.DEALER):
        out[k] = st[k]
    out[core.DEALER] = st[core.DEALER]
    out[core.TURNUP] = st[core.TURNUP]
    out[core.PHASE] = st[core.PHASE]
    for f in _PUBLIC_BIDDING:
        out[f] = st[f]
    out[core.DEALT + seat] = st[core.DEALT + seat]
    out[core.HANDS + seat] = st[core.HANDS + seat]
    if _knows_dummy(st, seat):
        out[core.DEALT_DUMMY] = st[core.DEALT_DUMMY]
    n = st[core.N_ACTIONS]
    out[core.N_ACTIONS] = n
    for k in range(n):
        entry = st[core.HISTORY + k]
        if _hidden(entry, seat):
            entry = entry // core.SEAT_SHIFT * core.SEAT_SHIFT + HIDDEN_DISCARD
        out[core.HISTORY + k] = entry


def view_from_observation(obs: Observation) -> Int64Array:
    """The :func:`view_of` of the deal behind ``obs``, from what its seat sees: the one
    place a bot's observation becomes what the seat knows.

    >>> from euchre import Deal, Rules
    >>> from euchre.vector import deal_state
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=2)
    >>> seen = np.zeros(core.STATE_SIZE, dtype=np.int64)
    >>> view_of(deal_state(deal), 1, seen)
    >>> bool((view_from_observation(deal.observation(1)) == seen).all())
    True
    """
    seat, turnup = obs.seat, int(obs.turnup)
    st = core.new_state(obs.rules)
    hand = card_mask(int(c) for c in obs.hand)
    own = hand | card_mask(int(c) for c in obs.discards)
    for e in obs.events:
        if e.seat == seat and e.action is not None and e.action.id < DISCARD:
            own |= 1 << e.action.id
    if obs.dummy is not None:
        st[core.DEALT_DUMMY] = card_mask(int(c) for c in obs.dummy)
        own &= ~int(st[core.DEALT_DUMMY])
    own &= ~(1 << turnup)  # the turn-up is dealt to no hand; a dealer may take it (RULES §5)
    st[core.DEALER] = obs.dealer
    st[core.TURNUP] = turnup
    st[core.PHASE] = _PHASE_NO[obs.phase]
    st[core.TRUMP_SUIT] = -1 if obs.trump is None else int(obs.trump)
    st[core.MAKER] = -1 if obs.maker is None else obs.maker
    st[core.ALONE] = int(obs.alone)
    st[core.TAKEN] = int(obs.turnup_taken is True)
    st[core.OUT] = sum(1 << s for s in obs.sitting_out)
    st[core.CALLED] = -1 if obs.called is None else int(obs.called)
    st[core.LONE] = -1 if obs.lone_defender is None else obs.lone_defender
    st[core.DEALT + seat] = own
    st[core.HANDS + seat] = hand
    st[core.N_ACTIONS] = len(obs.events)
    for k, e in enumerate(obs.events):
        a = HIDDEN_DISCARD if e.action is None else e.action.id
        st[core.HISTORY + k] = e.seat * core.SEAT_SHIFT + a
    return st


@_jit
def _scan(view: Int64Array, seat: int, info: Int64Array) -> None:
    """What ``seat`` knows of ``view``, into ``info`` (the ``I_`` fields): the bidding
    from the core's fields (:data:`_PUBLIC_BIDDING`), the discards and the play from the
    actions (RULES §4-§8)."""
    for k in range(INFO_SIZE):
        info[k] = 0
    p = view[core.PLAYERS]
    dealer = view[core.DEALER]
    # the bidding, as the core's state holds it (RULES §4-§7)
    trump = view[core.TRUMP_SUIT]
    maker = view[core.MAKER]
    alone = view[core.ALONE] == 1
    taken = view[core.TAKEN] == 1
    out_mask = view[core.OUT]
    called = view[core.CALLED]
    partner = core.partner_of(p, maker) if maker >= 0 else -1
    maker_out = 1 << partner if alone and partner >= 0 else 0  # before any lone defender
    exchange_due = taken and not maker_out >> dealer & 1
    exchange_done = False
    merged = 0
    plays = 0
    discards = 0
    for k in range(view[core.N_ACTIONS]):
        entry = view[core.HISTORY + k]
        s = entry // core.SEAT_SHIFT
        a = entry % core.SEAT_SHIFT
        if _hidden(entry, seat) or DISCARD <= a < CALL:
            if exchange_due and not exchange_done:
                exchange_done = True
            else:
                merged += 1
            if not _hidden(entry, seat):
                discards |= 1 << (a - DISCARD)
        elif a < DISCARD:
            info[I_PLAY_SEAT + plays] = s
            info[I_PLAY_CARD + plays] = a
            plays += 1
    # voids shown by the play, trick by trick (RULES §8)
    active = p - _popcount(out_mask)
    suit_row = trump if trump >= 0 else 4
    for i in range(0, plays, active):
        led = _EFFECTIVE[suit_row, info[I_PLAY_CARD + i]]
        for j in range(i + 1, min(i + active, plays)):
            if _EFFECTIVE[suit_row, info[I_PLAY_CARD + j]] != led:
                info[I_VOIDS + info[I_PLAY_SEAT + j]] |= 1 << led
    all_played = 0
    for i in range(plays):
        info[I_PLAYED + info[I_PLAY_SEAT + i]] |= 1 << info[I_PLAY_CARD + i]
        all_played |= 1 << info[I_PLAY_CARD + i]
    merge_on = p == 3 and maker >= 0 and not alone and (not exchange_due or exchange_done)
    info[I_TRUMP] = trump
    info[I_MAKER] = maker
    info[I_ALONE] = alone
    info[I_TAKEN] = taken
    info[I_OUT] = out_mask
    info[I_EXCHANGE_DUE] = exchange_due
    info[I_EXCHANGE_DONE] = exchange_done
    info[I_MERGED] = merged
    info[I_CALLED] = called
    info[I_PLAYS] = plays
    info[I_ALL_PLAYED] = all_played
    info[I_HAND] = view[core.HANDS + seat]
    info[I_DUMMY] = view[core.DEALT_DUMMY] if merge_on and maker == seat else 0
    info[I_DISCARDS] = discards


# -- uniform worlds: whole deals, the actions replayed -------------------------------------------
@_jit
def _feasible(counts: Int64Array, masks: Int64Array, kinds: int, room: Int64Array,
              groups: int) -> bool:
    """Hall's condition: every set of groups has room for the cards that may go nowhere
    else."""
    for subset in range(1, 1 << groups):
        need = 0
        for m in range(kinds):
            if masks[m] & ~subset == 0:
                need += counts[m]
        space = 0
        for g in range(groups):
            if subset >> g & 1:
                space += room[g]
        if need > space:
            return False
    return True


@_jit
def _shuffle(idx: Int64Array, n: int, seed: int, ctr: int) -> int:
    """Shuffle ``idx[:n]`` in place (Fisher-Yates on the sampling stream); the random
    counter after."""
    for i in range(n - 1):
        j = i + core.random_below(seed, _SAMPLE, ctr, n - i)
        ctr += 1
        t = idx[i]
        idx[i] = idx[j]
        idx[j] = t
    return ctr


@_jit
def _fill(allowed: Int64Array, npool: int, sizes: Int64Array, groups: int, seed: int,
          ctr: int, group_of: Int64Array) -> int:
    """Deal ``npool`` cards into groups of ``sizes``, each card into a group its ``allowed``
    mask names, writing each card's group into ``group_of``; the random counter after, or
    -1 when nothing fits.  Uniform rejection sampling first, then a careful fill."""
    idx = np.arange(npool)
    for _ in range(64):
        ctr = _shuffle(idx, npool, seed, ctr)
        at = 0
        ok = True
        for g in range(groups):
            for _ in range(sizes[g]):
                i = idx[at]
                if not allowed[i] >> g & 1:
                    ok = False
                    break
                group_of[i] = g
                at += 1
            if not ok:
                break
        if ok:
            return ctr
    # the careful fill: each card in random order into a group drawn in proportion to its
    # room, among those that leave the rest satisfiable
    masks = np.zeros(npool, dtype=np.int64)
    counts = np.zeros(npool, dtype=np.int64)
    kinds = 0
    kind_of = np.zeros(npool, dtype=np.int64)
    for i in range(npool):
        m = allowed[i]
        k = 0
        while k < kinds and masks[k] != m:
            k += 1
        if k == kinds:
            masks[k] = m
            kinds += 1
        counts[k] += 1
        kind_of[i] = k
    room = sizes[:groups].copy()
    keys = np.zeros(groups, dtype=np.float64)
    ctr = _shuffle(idx, npool, seed, ctr)
    for at in range(npool):
        i = idx[at]
        counts[kind_of[i]] -= 1
        for g in range(groups):
            keys[g] = -1.0
            if allowed[i] >> g & 1 and room[g] > 0:
                u = (core.random_u32(seed, _SAMPLE, ctr) + 1.0) / 4294967296.0
                ctr += 1
                keys[g] = u ** (1.0 / room[g])
        placed = False
        for _ in range(groups):
            g = int(np.argmax(keys))
            if keys[g] < 0.0:
                break
            keys[g] = -1.0
            room[g] -= 1
            if _feasible(counts, masks, kinds, room, groups):
                group_of[i] = g
                placed = True
                break
            room[g] += 1
        if not placed:
            return -1
    return ctr


@_jit
def _sample(view: Int64Array, seat: int, seed: int, out: Int64Array) -> bool:
    """A world ``seat`` cannot tell from ``view``, into ``out`` (see :func:`sample_world`);
    False if none fits (a view no deal has)."""
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    _scan(view, seat, info)
    p = view[core.PLAYERS]
    dealer = view[core.DEALER]
    turnup = view[core.TURNUP]
    pack = view[core.PACK]
    trump = info[I_TRUMP]
    maker = info[I_MAKER]
    alone = info[I_ALONE] == 1
    exchange_due = info[I_EXCHANGE_DUE] == 1
    exchange_done = info[I_EXCHANGE_DONE] == 1
    merged = info[I_MERGED]
    called = info[I_CALLED]
    all_played = info[I_ALL_PLAYED]
    merge_on = p == 3 and maker >= 0 and not alone and (not exchange_due or exchange_done)
    dummy_known = merge_on and maker == seat
    # the places the unseen cards go, and how many each takes
    sizes = np.zeros(_MAX_GROUPS, dtype=np.int64)
    held_group = np.full(5, -1, dtype=np.int64)
    groups = 0
    for s in range(p):
        if s == seat:
            continue
        held = 5 - _popcount(info[I_PLAYED + s])
        if s == dealer and exchange_due and not exchange_done:
            held += 1
        if merge_on and s == maker:
            held += 5 - merged
        held_group[s] = groups
        sizes[groups] = held
        groups += 1
    exchange_group = -1
    if exchange_done and dealer != seat:
        exchange_group = groups
        sizes[groups] = 1
        groups += 1
    merge_group = -1
    if merge_on and maker != seat and merged > 0:
        merge_group = groups
        sizes[groups] = merged
        groups += 1
    dummy_group = -1
    if p == 3 and not merge_on:
        dummy_group = groups
        sizes[groups] = 5
        groups += 1
    hands = 4 if p == 3 else p
    sizes[groups] = _popcount(pack) - 5 * hands - 1  # the kitty
    groups += 1
    dealt_me = view[core.DEALT + seat]
    dummy = view[core.DEALT_DUMMY] if dummy_known else 0
    known = dealt_me | dummy | 1 << turnup | all_played
    turnup_hidden = (exchange_due and dealer != seat
                     and not info[I_PLAYED + dealer] >> turnup & 1)
    pool = np.zeros(33, dtype=np.int64)
    npool = 0
    for c in range(33):
        if (pack >> c & 1 and not known >> c & 1) or (c == turnup and turnup_hidden):
            pool[npool] = c
            npool += 1
    total = 0
    for g in range(groups):
        total += sizes[g]
    if total != npool:
        return False
    everywhere = (1 << groups) - 1
    allowed = np.zeros(npool, dtype=np.int64)
    for i in range(npool):
        c = pool[i]
        ok = everywhere
        if trump >= 0:
            for s in range(p):
                if held_group[s] >= 0 and info[I_VOIDS + s] >> _EFFECTIVE[trump, c] & 1:
                    ok &= ~(1 << held_group[s])
        if c == called and held_group[maker] >= 0:
            ok &= ~(1 << held_group[maker])  # the maker calls a card it does not hold
        if c == called and maker == dealer and exchange_group >= 0:
            ok &= ~(1 << exchange_group)  # nor its own discard (RULES §6.3)
        if c == turnup and turnup_hidden:
            ok &= 1 << held_group[dealer]
            if exchange_group >= 0 and not view[core.DEALER_MUST_TAKE_UP]:
                ok |= 1 << exchange_group
            if merge_group >= 0 and maker == dealer:
                ok |= 1 << merge_group
        allowed[i] = ok
    group_of = np.zeros(npool, dtype=np.int64)
    ctr = _fill(allowed, npool, sizes, groups, seed, 0, group_of)
    if ctr < 0:
        return False
    masks = np.zeros(_MAX_GROUPS, dtype=np.int64)
    for i in range(npool):
        masks[group_of[i]] |= 1 << pool[i]
    # the hands as dealt
    dealt = np.zeros(5, dtype=np.int64)
    for s in range(p):
        dealt[s] = dealt_me if s == seat else masks[held_group[s]] | info[I_PLAYED + s]
    if dummy_group >= 0:
        dummy = masks[dummy_group]
    exchanged = masks[exchange_group] if exchange_group >= 0 else 0
    if exchange_due and dealer != seat:
        dealt[dealer] = (dealt[dealer] | exchanged) & ~(1 << turnup)
    merge_cards = masks[merge_group] if merge_group >= 0 else 0
    if merge_on and maker != seat:
        ten = dealt[maker] | merge_cards
        must = 0
        if maker == dealer and exchange_due:  # the turn-up came in by the exchange
            ten &= ~(1 << turnup)
            must = exchanged & ~(1 << turnup)  # the exchange's discard was dealt
        rest = ten & ~must
        keep = must
        left = _popcount(rest)
        for _ in range(5 - _popcount(must)):
            pick = _nth_bit(rest, core.random_below(seed, _SAMPLE, ctr, left))
            ctr += 1
            keep |= 1 << pick
            rest &= ~(1 << pick)
            left -= 1
        dealt[maker] = keep
        dummy = ten & ~keep
    # the hidden discards in the order they were made: the exchange's, then the merge's
    hidden = np.zeros(6, dtype=np.int64)
    nhidden = 0
    if exchange_group >= 0:
        hidden[0] = _nth_bit(exchanged, 0)
        nhidden = 1
    rest = merge_cards
    left = _popcount(rest)
    while left:
        pick = _nth_bit(rest, core.random_below(seed, _SAMPLE, ctr, left))
        ctr += 1
        hidden[nhidden] = pick
        nhidden += 1
        rest &= ~(1 << pick)
        left -= 1
    # deal, then replay the actions
    for k in range(core.DEALER):
        out[k] = view[k]
    out[core.EPISODE] = 0
    core.start(out, dealer, dealt[0], dealt[1], dealt[2], dealt[3], dealt[4], dummy, turnup)
    used = 0
    for k in range(view[core.N_ACTIONS]):
        entry = view[core.HISTORY + k]
        s = entry // core.SEAT_SHIFT
        a = entry % core.SEAT_SHIFT
        if _hidden(entry, seat):
            if used == nhidden:
                return False
            a = DISCARD + hidden[used]
            used += 1
        if out[core.TURN] != s or not core.apply_action(out, a):
            return False
    return True


def sample_world(view: Int64Array, seat: int, seed: int) -> Int64Array:
    """A deal ``seat`` cannot tell from ``view`` (or from any state: only what ``seat``
    knows of it is read), drawn uniformly at random from ``seed``: the other hands, the
    kitty, the dummy it has not seen and the others' discards dealt afresh, keeping every
    void the play has shown and the rules' constraints on hidden cards (see the module),
    then the deal's actions replayed.

    >>> from euchre.rules import Rules
    >>> st = core.new_state(Rules(players=5)); core.deal_random(st, 7, 0, -1)
    >>> world = sample_world(st, 0, seed=3)
    >>> bool(world[core.DEALT] == st[core.DEALT]), bool(world[core.TURNUP] == st[core.TURNUP])
    (True, True)
    """
    out = np.zeros(core.STATE_SIZE, dtype=np.int64)
    if not _sample(np.ascontiguousarray(view, dtype=np.int64), int(seat),
                   int(seed) & 0xFFFFFFFF, out):
        raise ValueError(f"no deal fits what seat {seat} knows of this one")
    return out


# -- the expert's worlds: the hands as they are now -----------------------------------------------
# the plan of the expert's fill: where each slot's numbers lie in one int64 array
_P_MERGED: Final = 0  # the three-handed maker who merged, or -1
_P_TRUMP: Final = 1
_P_CONSTRAINED: Final = 2  # how many constrained slots
_P_FREE: Final = 3  # how many free slots
_P_SLOTS: Final = 4  # n + 2: the hands, the dummy, the rest
_P_NEED: Final = 8  # 7 slots each from here on
_P_FORBID: Final = _P_NEED + 7
_P_ORDER: Final = _P_FORBID + 7  # the constrained slots, least slack first, then the free
_P_START: Final = _P_ORDER + 7  # the cards each slot holds for sure
_P_SIZE: Final = _P_START + 7


@_jit
def _deal_ordered(cards: Int64Array, plan: Int64Array, relax: bool,
                  hands: Int64Array) -> bool:
    """Deal ``cards`` (shuffled by the caller) into ``hands`` by ``plan`` (the ``_P_``
    fields): the known cards first, then the three-handed maker who merged draws its
    cards plus five and keeps the best of those its voids allow, then each constrained
    slot takes the first cards it may hold, then each free slot the next ones; the rest
    (and the maker's discards) go to the last slot.  False if a slot cannot be served
    (``relax`` ignores the voids)."""
    ncards = len(cards)
    slots = plan[_P_SLOTS]
    for s in range(slots):
        hands[s] = plan[_P_START + s]
    used = np.zeros(ncards, dtype=np.bool_)
    pos = 0
    dead = 0
    merged = plan[_P_MERGED]
    trump = plan[_P_TRUMP]
    if merged >= 0:
        k = plan[_P_NEED + merged]
        take = min(k + 5, ncards)
        order = np.zeros(take, dtype=np.int64)
        nallowed = 0
        ban = 0 if relax else plan[_P_FORBID + merged]
        for i in range(take):
            c = cards[i]
            if not ban >> c & 1:
                # a stable sort, highest key first, in the order drawn among equals
                j = nallowed
                while j > 0 and _KEEP[trump, order[j - 1]] < _KEEP[trump, c]:
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = c
                nallowed += 1
        if nallowed < k:
            return False
        kept = 0
        for i in range(k):
            kept |= 1 << order[i]
        for i in range(take):
            c = cards[i]
            if kept >> c & 1:
                hands[merged] |= 1 << c
            else:
                dead |= 1 << c
            used[i] = True
        pos = take
    nconstrained = plan[_P_CONSTRAINED]
    for j in range(nconstrained):
        s = plan[_P_ORDER + j]
        k = plan[_P_NEED + s]
        ban = 0 if relax else plan[_P_FORBID + s]
        got = 0
        for i in range(pos, ncards):
            if got == k:
                break
            if not used[i] and not ban >> cards[i] & 1:
                hands[s] |= 1 << cards[i]
                used[i] = True
                got += 1
        if got < k:
            return False
    i = pos
    for j in range(nconstrained, nconstrained + plan[_P_FREE]):
        s = plan[_P_ORDER + j]
        got = 0
        while got < plan[_P_NEED + s] and i < ncards:
            if not used[i]:
                hands[s] |= 1 << cards[i]
                used[i] = True
                got += 1
            i += 1
    for i in range(pos, ncards):
        if not used[i]:
            dead |= 1 << cards[i]
    hands[slots - 1] = dead
    return True


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class InfoSet:
    """What one seat knows of a deal (RULES §12), from its view (see the module), and the
    places the cards it cannot see may go.

    Seats are ``0..n-1``; slot ``n`` is the three-handed dummy while it is not taken up.
    See the module's example: the seat's own hand is in every world it draws.
    """

    def __init__(self, view: Int64Array, seat: int) -> None:
        view = np.ascontiguousarray(view, dtype=np.int64)
        info = np.zeros(INFO_SIZE, dtype=np.int64)
        _scan(view, seat, info)
        self.view = view
        self.n = n = int(view[core.PLAYERS])
        self.me = me = seat
        self.dealer = dealer = int(view[core.DEALER])
        self.turnup = turnup = int(view[core.TURNUP])
        self.phase = phase = int(view[core.PHASE])
        """The phase, numbered as :mod:`euchre.core` numbers them."""
        self.deck = int(view[core.PACK])
        self.trump = trump = int(info[I_TRUMP])
        """-1 until made."""
        self.maker = maker = int(info[I_MAKER])
        """-1 until trump is made."""
        self.alone = alone = bool(info[I_ALONE])
        self.taken = taken = bool(info[I_TAKEN])
        """The turn-up (or a turned-up joker the dealer named) was taken."""
        self.out = out = int(info[I_OUT])
        """The seats sitting out, a bitmask."""
        self.called = called = int(info[I_CALLED])
        """Five-handed, the called card (-1 until called)."""
        self.hand = hand = int(info[I_HAND])
        self.dummy = dummy = int(info[I_DUMMY])
        """The dummy as dealt, for the three-handed maker who took it up; else 0."""
        self.discards = discards = int(info[I_DISCARDS])
        """The seat's own discards."""
        self.played = played = [int(info[I_PLAYED + s]) for s in range(n)]
        self.voids = [int(info[I_VOIDS + s]) for s in range(n)]
        """The suits (a bitmask, trump-aware) each seat showed it holds none of."""
        self.all_played = all_played = int(info[I_ALL_PLAYED])
        # the cards each slot cannot hold now: the suits it did not follow, the called card
        # for its maker
        self.forbid = forbid = [0] * (n + 1)
        for s in range(n):
            for suit in range(4):
                if self.voids[s] >> suit & 1:
                    forbid[s] |= SUIT_MASKS[trump][suit]
        known = hand | all_played | discards | dummy | 1 << turnup
        # the cards each slot holds for sure: a dealer who took the turn-up keeps it, unless
        # it played it, showed itself void in trump, sits out or has played all its cards
        self.require = require = [0] * (n + 1)
        tbit = 1 << turnup
        if (taken and dealer != me and not out >> dealer & 1 and not all_played & tbit
                and not forbid[dealer] & tbit and played[dealer].bit_count() < 5):
            require[dealer] |= tbit
        if called >= 0 and maker >= 0 and maker != me:
            forbid[maker] |= 1 << called  # the maker never holds the card it called
        self.pool = _bits(self.deck & ~known)
        """The cards the seat cannot see and no slot holds for sure, lowest first."""
        # how many unseen cards each other hand holds (a sitting-out hand does not count)
        need = [0] * (n + 1)
        for s in range(n):
            if s != me and not out >> s & 1:
                need[s] = 5 - played[s].bit_count() - require[s].bit_count()
        if n == 3 and phase <= core.EXCHANGE:
            need[n] = 5  # the dummy, not yet taken up
        self.need = need
        # three-handed, a maker who took the dummy kept the best five of its ten cards
        self.merged = -1
        if (n == 3 and maker >= 0 and maker != me and not alone
                and phase in (core.DEFEND, core.PLAY) and need[maker] > 0):
            self.merged = maker
        slots = [s for s in range(n + 1) if need[s] > 0 and s != self.merged]
        allowed = {s: sum(1 for c in self.pool if not forbid[s] >> c & 1) for s in slots}
        self.constrained = sorted((s for s in slots if forbid[s]),
                                  key=lambda s: allowed[s] - need[s])
        """The slots with a shown void (or the called card), least slack first."""
        self.free = [s for s in slots if not forbid[s]]
        plan = np.zeros(_P_SIZE, dtype=np.int64)
        plan[_P_MERGED] = self.merged
        plan[_P_TRUMP] = max(trump, 0)
        plan[_P_CONSTRAINED] = len(self.constrained)
        plan[_P_FREE] = len(self.free)
        plan[_P_SLOTS] = n + 2
        for s in range(n + 1):
            plan[_P_NEED + s] = need[s]
            plan[_P_FORBID + s] = forbid[s]
            plan[_P_START + s] = require[s]
        plan[_P_START + me] = hand
        for j, s in enumerate(self.constrained + self.free):
            plan[_P_ORDER + j] = s
        self._plan = plan

    @classmethod
    def of_observation(cls, obs: Observation) -> InfoSet:
        """What ``obs``'s seat knows.

        >>> from euchre import Deal, Rules
        >>> deal = Deal.random(Rules(players=3), dealer=0, seed=4)
        >>> info = InfoSet.of_observation(deal.observation(2))
        >>> info.n, info.world(random.Random(0))[2] == deal.hand_mask(2)
        (3, True)
        """
        return cls(view_from_observation(obs), obs.seat)

    def world(self, rng: random.Random, tries: int = 60, relax_after: int = 40,
              ) -> list[int] | None:
        """One world the expert's way (see the module): ``hands[seat]`` now (the seat's
        own included; a seat sitting out holds nothing), ``hands[n]`` the hidden dummy
        three-handed, ``hands[n + 1]`` every other unseen card (kitty, discards, sitting
        out).  Each try shuffles the unseen cards with ``rng``; from try ``relax_after``
        on the voids are ignored; ``None`` if no try fits.

        Seat 1 holds five diamonds and sees the king of diamonds turned up; every world
        gives seat 0 five of the other cards, and the kitty the rest:

        >>> from euchre import Deal, Rules
        >>> from euchre.cards import cards_of, format_cards
        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> hands = InfoSet.of_observation(deal.observation(1)).world(random.Random(3))
        >>> format_cards(cards_of(hands[1])), hands[0].bit_count(), hands[0] & hands[1]
        ('AC 9D TD JD QD', 5, 0)
        """
        hands = np.zeros(self.n + 2, dtype=np.int64)
        for attempt in range(tries):
            cards = self.pool.copy()
            rng.shuffle(cards)
            if _deal_ordered(np.array(cards, dtype=np.int64), self._plan,
                             attempt >= relax_after, hands):
                return hands.tolist()
        return None

    def screened_world(self, rng: random.Random, likelihood: Callable[[list[int]], float],
                       weigh: Callable[[list[int], float], float], keep: float,
                       redraws: int) -> tuple[list[int] | None, float]:
        """A world (:meth:`world`) screened by a player model, and its weight.

        A world of ``likelihood`` ``f`` (at most 1) below ``keep`` is kept with
        probability ``f / keep`` and weighed as if ``f`` were ``keep`` (so every world
        still counts in proportion to ``f``): ``weigh(hands, max(f, keep))``.  After
        ``redraws`` rejections the last world is taken with ``weigh(hands, f)``.  The
        weight is 0 when no world fits.

        A model that finds every world likely keeps the first; one that finds none
        likely still ends with a world, of weight ``f``:

        >>> from euchre import Deal, Rules
        >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
        >>> info = InfoSet.of_observation(deal.observation(1))
        >>> weigh = lambda hands, f: f
        >>> info.screened_world(random.Random(1), lambda hands: 1.0, weigh, 0.5, 3)[1]
        1.0
        >>> info.screened_world(random.Random(1), lambda hands: 0.0, weigh, 0.5, 3)[1]
        0.0
        """
        hands: list[int] | None = None
        f = 1.0
        for _ in range(redraws):
            hands = self.world(rng)
            if hands is None:
                return None, 0.0
            f = likelihood(hands)
            if f >= keep or rng.random() * keep < f:
                return hands, weigh(hands, max(f, keep))
        if hands is None:
            return None, 0.0
        return hands, weigh(hands, f)
