"""The ``cismcts`` bot: information-set MCTS compiled with numba over the rules core.

It searches exactly as the ``ismcts`` bot does with OpenSpiel's Python ``ISMCTSBot`` on
``python_euchre`` (:mod:`euchre.bots.ismcts`), but every step runs compiled over
:mod:`euchre.core` states, so a decision of 1000 simulations takes milliseconds, not
seconds.  It needs no OpenSpiel and plays every variant with every option.  Name it
``cismcts`` (1000 simulations a decision) or ``cismcts:SIMS``.

**The search** (single-observer ISMCTS, the settings of the ``ismcts`` bot):

* every simulation starts from a fresh world, :func:`sample_world`: the cards the seat
  to move cannot see are dealt again at random, consistent with everything it knows
  (RULES §12), and the deal's actions are replayed on it;
* the tree's nodes are keyed by the information state of the player to move in that
  world: a 63-bit hash of its seat, the dealer, its hand as dealt, the turn-up, the
  dummy if it took it up, and every action of the deal in order, other seats' discards
  hidden (what ``python_euchre``'s ``information_state_string`` holds: perfect recall);
* a node met for the first time is created and valued by one random rollout to the end
  of the deal (so one node is added a simulation); at a known node an untried action is
  tried first (picked at random), and once all have been, the action of highest UCT
  value ``mean + c * sqrt(ln N / n)`` with ``c = 2`` (ties within 1e-5 broken at
  random);
* the returns are ``python_euchre``'s zero-sum utility: a seat's points minus the
  average of the others' points for the deal; four-handed, the side's points minus the
  other side's, as OpenSpiel's own C++ ``euchre`` returns them (the four-handed peer);
* the action played is the one with the most visits at the root (ties at random).

It looks at one deal only, never at the game score, as the ``ismcts`` bot.

**What a seat knows** (RULES §12), and so what :func:`sample_world` keeps: its own cards
as dealt, the dealer and the turn-up, every bid, call and defence, whether the turn-up was
taken, the called card, every card played and by whom, the voids a seat showed by not
following suit, its own discards and, for the three-handed maker who took it up, the
dummy.  It deals afresh the other hands, the kitty, the others' discards and the dummy
it has not seen; the only other constraints are the ones the rules put on hidden cards:
a dealer who must take up kept the turn-up, and the five-handed maker neither holds nor
discarded the card it called (RULES §6.3).  A world is drawn uniformly among the deals
that fit (by rejection; if the voids make that slow, a careful fill that keeps every
group's constraint satisfiable).

:func:`view_of` gives the seat's view of a state (the hidden cards wiped out),
:func:`view_from_observation` builds the same view from a bot's
:class:`~euchre.deal.Observation`, and :func:`search` runs the search on a view.

>>> from euchre import Rules
>>> from euchre.bots import play_game, make_bot
>>> game = play_game(Rules(players=3, target=5), [make_bot('cismcts:50', seed=s)
...                                               for s in range(3)], seed=2)
>>> game.is_over
True
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre import core
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
from euchre.cards import EFFECTIVE_SUIT, JOKER, card_mask
from euchre.deal import Observation

__all__ = ["DEFAULT_SIMULATIONS", "HIDDEN_DISCARD", "UCT_C", "CISMCTSBot", "info_key",
           "parse_options", "sample_world", "search", "view_from_observation", "view_of"]

DEFAULT_SIMULATIONS: Final = 1000
UCT_C: Final = 2.0
"""The UCT constant, the ``ismcts`` bot's."""
HIDDEN_DISCARD: Final = core.SEAT_SHIFT - 1
"""In a seat's view, the action of another seat's discard, whose card it may not see."""
TIE_TOLERANCE: Final = 1e-5
"""UCT values this close to the best count as ties (OpenSpiel's ISMCTS uses the same)."""

Int64Array = npt.NDArray[np.int64]

_jit = core._jit
_EFFECTIVE: Final = np.array(EFFECTIVE_SUIT, dtype=np.int64)
_MAX_GROUPS: Final = 8  # the places unseen cards go: the other hands, discards, dummy, kitty
_MAX_PLAYS: Final = 40
# the streams of the counter-based random numbers (core.random_u32)
_SAMPLE: Final = 11
_WORLD: Final = 12
_ROLLOUT: Final = 13
_TREE: Final = 14


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


@_jit
def view_of(st: Int64Array, seat: int, out: Int64Array) -> None:
    """``seat``'s view of ``st`` into ``out``: the rules, the dealer, the turn-up, its hand
    as dealt, the dummy if it took it up, and the actions, others' discards as
    :data:`HIDDEN_DISCARD`; everything else zero.  Two deals ``seat`` cannot tell apart
    have the same view."""
    for k in range(core.STATE_SIZE):
        out[k] = 0
    for k in range(core.DEALER):
        out[k] = st[k]
    out[core.DEALER] = st[core.DEALER]
    out[core.TURNUP] = st[core.TURNUP]
    out[core.DEALT + seat] = st[core.DEALT + seat]
    if _knows_dummy(st, seat):
        out[core.DEALT_DUMMY] = st[core.DEALT_DUMMY]
    n = st[core.N_ACTIONS]
    out[core.N_ACTIONS] = n
    for k in range(n):
        entry = st[core.HISTORY + k]
        if _hidden(entry, seat):
            entry = entry // core.SEAT_SHIFT * core.SEAT_SHIFT + HIDDEN_DISCARD
        out[core.HISTORY + k] = entry


@_jit
def info_key(st: Int64Array, seat: int) -> int:
    """A 63-bit hash of ``seat``'s information state in ``st`` (never 0): what
    :func:`view_of` keeps, the actions in order."""
    h1 = 0x2545F491
    h2 = 0x6A09E667
    values = (seat, st[core.DEALER], st[core.TURNUP], st[core.DEALT + seat],
              st[core.DEALT_DUMMY] if _knows_dummy(st, seat) else -1)
    k = 0
    for v in values:
        h1 = core.random_u32(h1, v, k)
        h2 = core.random_u32(h2, v, k + 0x3C6EF372)
        k += 1
    n = st[core.N_ACTIONS]
    for i in range(n):
        entry = st[core.HISTORY + i]
        if _hidden(entry, seat):
            entry = entry // core.SEAT_SHIFT * core.SEAT_SHIFT + HIDDEN_DISCARD
        h1 = core.random_u32(h1, entry, k)
        h2 = core.random_u32(h2, entry, k + 0x3C6EF372)
        k += 1
    h1 = core.random_u32(h1, n, k)
    key = (h1 & 0x7FFFFFFF) << 32 | h2
    return key if key != 0 else 1


# -- worlds: the hidden cards dealt again (RULES §12) --------------------------------------------
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
def _fill(pool: Int64Array, allowed: Int64Array, npool: int, sizes: Int64Array, groups: int,
          seed: int, ctr: int, group_of: Int64Array) -> int:
    """Deal ``pool`` into groups of ``sizes``, each card into a group its ``allowed`` mask
    names, writing each card's group into ``group_of``; the random counter after, or -1
    when nothing fits.  Uniform rejection sampling first, then a careful fill."""
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
    p = view[core.PLAYERS]
    dealer = view[core.DEALER]
    turnup = view[core.TURNUP]
    pack = view[core.PACK]
    # a symbolic pass over the public actions (RULES §4-§8)
    trump = -1
    maker = -1
    alone = False
    taken = False
    out_mask = 0
    exchange_due = False
    exchange_done = False
    merged = 0
    called = -1
    play_seat = np.zeros(_MAX_PLAYS, dtype=np.int64)
    play_card = np.zeros(_MAX_PLAYS, dtype=np.int64)
    plays = 0
    n_actions = view[core.N_ACTIONS]
    for k in range(n_actions):
        entry = view[core.HISTORY + k]
        s = entry // core.SEAT_SHIFT
        a = entry % core.SEAT_SHIFT
        if ORDER <= a <= ORDER_ALONE or TRUMP <= a < DEFEND_ALONE:
            if a <= ORDER_ALONE:
                trump = core.turnup_suit(view)
                alone = a == ORDER_ALONE
                taken = True
            else:
                trump = (a - TRUMP) % 4
                alone = a >= TRUMP_ALONE
                taken = turnup == JOKER and view[core.JOKER_SUIT] < 0  # the dealer named
            maker = s
            partner = core.partner_of(p, maker)
            if alone and partner >= 0:
                out_mask |= 1 << partner
            exchange_due = taken and not out_mask >> dealer & 1
        elif _hidden(entry, seat) or DISCARD <= a < CALL:
            if exchange_due and not exchange_done:
                exchange_done = True
            else:
                merged += 1
        elif CALL <= a < PASS:
            called = a - CALL
        elif a == DEFEND_ALONE:
            partner = core.partner_of(p, s)
            if partner >= 0:
                out_mask |= 1 << partner
            else:
                for x in range(p):
                    if x != s and x != maker:
                        out_mask |= 1 << x
        elif a < DISCARD:
            play_seat[plays] = s
            play_card[plays] = a
            plays += 1
    merge_on = p == 3 and maker >= 0 and not alone and (not exchange_due or exchange_done)
    dummy_known = merge_on and maker == seat
    # voids shown by the play, trick by trick (RULES §8)
    voids = np.zeros(5, dtype=np.int64)
    played = np.zeros(5, dtype=np.int64)
    active = p - _popcount(out_mask)
    suit_row = trump if trump >= 0 else 4
    for i in range(0, plays, active):
        led = _EFFECTIVE[suit_row, play_card[i]]
        for j in range(i + 1, min(i + active, plays)):
            if _EFFECTIVE[suit_row, play_card[j]] != led:
                voids[play_seat[j]] |= 1 << led
    all_played = 0
    for i in range(plays):
        played[play_seat[i]] |= 1 << play_card[i]
        all_played |= 1 << play_card[i]
    # the places the unseen cards go, and how many each takes
    sizes = np.zeros(_MAX_GROUPS, dtype=np.int64)
    held_group = np.full(5, -1, dtype=np.int64)
    groups = 0
    for s in range(p):
        if s == seat:
            continue
        held = 5 - _popcount(played[s])
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
    turnup_hidden = exchange_due and dealer != seat and not played[dealer] >> turnup & 1
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
                if held_group[s] >= 0 and voids[s] >> _EFFECTIVE[trump, c] & 1:
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
    ctr = _fill(pool, allowed, npool, sizes, groups, seed, 0, group_of)
    if ctr < 0:
        return False
    masks = np.zeros(_MAX_GROUPS, dtype=np.int64)
    for i in range(npool):
        masks[group_of[i]] |= 1 << pool[i]
    # the hands as dealt
    dealt = np.zeros(5, dtype=np.int64)
    for s in range(p):
        dealt[s] = dealt_me if s == seat else masks[held_group[s]] | played[s]
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
    for k in range(n_actions):
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
    knows of it is read), drawn at random from ``seed``: the other hands, the kitty, the
    dummy it has not seen and the others' discards dealt afresh, keeping every void the
    play has shown and the rules' constraints on hidden cards (see the module), then the
    deal's actions replayed.

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


# -- the search ------------------------------------------------------------------------------
@_jit
def _utility(st: Int64Array, pts: Int64Array, out: Any) -> None:
    """Each seat's return for the finished deal: its points minus the others' mean; four-
    handed, its side's points minus the other side's."""
    p = st[core.PLAYERS]
    core.points(st, pts)
    total = 0
    for s in range(p):
        total += pts[s]
    for s in range(p):
        if p == 4:
            out[s] = pts[s] - pts[(s + 1) % 4]
        else:
            out[s] = pts[s] - (total - pts[s]) / (p - 1)


@_jit
def _search(view: Int64Array, seat: int, seed: int, simulations: int, uct_c: float,
            visits: Int64Array) -> int:
    """ISMCTS from ``seat``'s view: the root's visits by legal bit into ``visits`` (33);
    the root's action base, or -1 when no world fits the view."""
    cap = 1
    while cap < 2 * (simulations + 2):
        cap <<= 1
    keys = np.zeros(cap, dtype=np.int64)
    slots = np.zeros(cap, dtype=np.int64)
    most = simulations + 2
    total = np.zeros(most, dtype=np.int64)
    expanded = np.zeros(most, dtype=np.int64)
    child_visits = np.zeros((most, 33), dtype=np.int64)
    child_sums = np.zeros((most, 33), dtype=np.float64)
    nodes = 0
    world = np.zeros(core.STATE_SIZE, dtype=np.int64)
    pts = np.zeros(5, dtype=np.int64)
    util = np.zeros(5, dtype=np.float64)
    path_node = np.zeros(core.HISTORY_SIZE, dtype=np.int64)
    path_bit = np.zeros(core.HISTORY_SIZE, dtype=np.int64)
    path_player = np.zeros(core.HISTORY_SIZE, dtype=np.int64)
    values = np.zeros(33, dtype=np.float64)
    ctr = 0
    root_key = info_key(view, seat)
    root_base = -1
    for sim in range(simulations):
        if not _sample(view, seat, core.random_u32(seed, _WORLD, sim), world):
            return -1
        if sim == 0:
            root_base, _ = core.legal_bits(world)
        depth = 0
        while world[core.PHASE] != core.OVER:
            player = world[core.TURN]
            key = info_key(world, player)
            at = key & (cap - 1)
            while keys[at] != 0 and keys[at] != key:
                at = (at + 1) & (cap - 1)
            if keys[at] == 0:  # a new node: valued by one random rollout
                keys[at] = key
                slots[at] = nodes
                nodes += 1
                core.random_rollout(world, core.random_u32(seed, _ROLLOUT, sim), 0)
                break
            node = slots[at]
            base, bits = core.legal_bits(world)
            untried = bits & ~expanded[node]
            if untried:
                bit = _nth_bit(untried, core.random_below(seed, _TREE, ctr, _popcount(untried)))
                ctr += 1
                expanded[node] |= 1 << bit
            else:
                log_n = math.log(total[node])
                best = -np.inf
                rest = bits
                while rest:
                    i = _nth_bit(rest, 0)
                    rest &= rest - 1
                    n = child_visits[node, i]
                    values[i] = child_sums[node, i] / n + uct_c * math.sqrt(log_n / n)
                    if values[i] > best:
                        best = values[i]
                ties = 0
                rest = bits
                while rest:
                    i = _nth_bit(rest, 0)
                    rest &= rest - 1
                    if values[i] > best - TIE_TOLERANCE:
                        ties |= 1 << i
                bit = _nth_bit(ties, core.random_below(seed, _TREE, ctr, _popcount(ties)))
                ctr += 1
            total[node] += 1
            child_visits[node, bit] += 1
            path_node[depth] = node
            path_bit[depth] = bit
            path_player[depth] = player
            depth += 1
            core.apply_action(world, base + bit)
        _utility(world, pts, util)
        for d in range(depth):
            child_sums[path_node[d], path_bit[d]] += util[path_player[d]]
    for i in range(33):
        visits[i] = 0
    at = root_key & (cap - 1)
    while keys[at] != 0:
        if keys[at] == root_key:
            for i in range(33):
                visits[i] = child_visits[slots[at], i]
            break
        at = (at + 1) & (cap - 1)
    return root_base


def search(view: Int64Array, seat: int, seed: int,
           simulations: int = DEFAULT_SIMULATIONS, uct_c: float = UCT_C) -> dict[int, int]:
    """Search ``seat``'s decision in ``view`` (``seat`` to move): each legal action id
    with its visits at the root.

    >>> from euchre.rules import Rules
    >>> st = core.new_state(Rules(players=2)); core.deal_random(st, 5, 0, 0)
    >>> visits = search(st, int(st[core.TURN]), seed=1, simulations=200)
    >>> sorted(visits) == [core.PASS, core.ORDER], sum(visits.values())
    (True, 199)
    """
    visits = np.zeros(33, dtype=np.int64)
    base = _search(np.ascontiguousarray(view, dtype=np.int64), int(seat),
                   int(seed) & 0xFFFFFFFF, int(simulations), float(uct_c), visits)
    if base < 0:
        raise ValueError(f"no deal fits what seat {seat} knows of this one")
    world = sample_world(view, seat, seed)
    if int(world[core.TURN]) != seat or int(world[core.PHASE]) == core.OVER:
        raise ValueError(f"seat {seat} is not to move")
    _, bits = core.legal_bits(world)
    return {base + i: int(visits[i]) for i in range(33) if bits >> i & 1}


def view_from_observation(obs: Observation) -> Int64Array:
    """The :func:`view_of` of the deal behind ``obs``, from what its seat sees."""
    seat, turnup = obs.seat, int(obs.turnup)
    st = core.new_state(obs.rules)
    own = card_mask(int(c) for c in obs.hand) | card_mask(int(c) for c in obs.discards)
    own |= card_mask(int(e.action.card) for e in obs.events if e.seat == seat
                     and e.action is not None and e.action.kind is ActionKind.PLAY
                     and e.action.card is not None)
    if obs.dummy is not None:
        st[core.DEALT_DUMMY] = card_mask(int(c) for c in obs.dummy)
        own &= ~int(st[core.DEALT_DUMMY])
    own &= ~(1 << turnup)  # the turn-up is dealt to no hand; a dealer may take it (RULES §5)
    st[core.DEALER] = obs.dealer
    st[core.TURNUP] = turnup
    st[core.DEALT + seat] = own
    st[core.N_ACTIONS] = len(obs.events)
    for k, e in enumerate(obs.events):
        a = HIDDEN_DISCARD if e.action is None else e.action.id
        st[core.HISTORY + k] = e.seat * core.SEAT_SHIFT + a
    return st


def parse_options(text: str) -> dict[str, int]:
    """The options after ``cismcts:``: the simulations a decision.

    >>> parse_options('500'), parse_options('')
    ({'simulations': 500}, {})
    """
    if not text:
        return {}
    if not text.isdigit() or int(text) <= 0:
        raise ValueError(f"cismcts takes cismcts:SIMULATIONS, a positive whole number, "
                         f"not 'cismcts:{text}'")
    return {"simulations": int(text)}


class CISMCTSBot:
    """Information-set MCTS over the compiled core (see the module): ``simulations`` a
    decision, UCT constant ``uct_c``; ``seed`` makes its choices reproducible."""

    name = "cismcts"

    def __init__(self, seed: int | random.Random | None = None,
                 simulations: int = DEFAULT_SIMULATIONS, uct_c: float = UCT_C) -> None:
        if simulations < 1:
            raise ValueError(f"cismcts needs at least one simulation, not {simulations}")
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.simulations = simulations
        self.uct_c = uct_c

    def __repr__(self) -> str:
        return f"CISMCTSBot(simulations={self.simulations})"

    def act(self, observation: Observation) -> Action:
        """Search the seat's decision and play the action visited most."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        view = view_from_observation(observation)
        visits = search(view, observation.seat, self.rng.getrandbits(32), self.simulations,
                        self.uct_c)
        ids = {a.id for a in legal}
        if set(visits) != ids:
            raise RuntimeError(f"cismcts: the worlds of seat {observation.seat} have the "
                               f"legal actions {sorted(visits)}, the deal {sorted(ids)}")
        best = max(visits.values())
        return Action.from_id(self.rng.choice(sorted(a for a, v in visits.items() if v == best)))
