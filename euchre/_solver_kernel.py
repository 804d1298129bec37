"""The compiled kernel of the open-hand solver (see :mod:`euchre.solver`).

Everything here is compiled by numba for one signature when the module is imported, or
loaded from its disk cache (:func:`euchre._numba.jit_signature`): plain ints and small
int64 arrays, no Python objects.  Cards are re-laid out per trump so that each effective suit
is a contiguous run of bits in strength order, and trumps sit above every other suit:

=========  ==========  =======================================================
bits       field       cards, low to high
=========  ==========  =======================================================
0..7       plain 0     7 8 9 T J Q K A of the lowest non-trump suit
12..19     plain 1     the same for the middle non-trump suit
24..31     plain 2     the same for the highest non-trump suit
36..46     trump       7 8 9 T (the jack's slot is empty) Q K A, left, right, joker
=========  ==========  =======================================================

The left bower's slot in its printed suit stays empty.  With this layout one card beats
another in a trick exactly when it is a trump or of the led suit and its bit is higher,
and two cards of one hand are equivalent when no card still in play lies between them.
"""

from __future__ import annotations

import time
from typing import Final

import numpy as np
import numpy.typing as npt

from euchre._numba import jit_signature as _jit

__all__ = [
    "CARD_AT",
    "LOAD_SECONDS",
    "OUT_COUNT",
    "OUT_PAIRS",
    "OUT_SIZE",
    "OUT_TO_MOVE",
    "OUT_VALUE",
    "POS",
    "STACK_DEPTH",
    "STACK_WIDTH",
    "TT_ENTRIES",
    "solve_kernel",
]

_started = time.perf_counter()
Int64Array = npt.NDArray[np.int64]

_ARRAYS: Final = "int64[::1], int64[::1], int64[:, ::1], int64[::1]"  # hands, tt, st, stats


def _ints(n: int) -> str:
    return ", ".join(["int64"] * n)


# -- the layout ------------------------------------------------------------------------------
F0: Final = 0xFF
F1: Final = 0xFF << 12
F2: Final = 0xFF << 24
TRUMPS: Final = 0x7FF << 36
GUARD: Final = ((1 << 47) - 1) & ~(F0 | F1 | F2 | TRUMPS)
T12: Final = 1 << 12
T24: Final = 1 << 24
T36: Final = 1 << 36
NBITS: Final = 47
JOKER: Final = 32


def _build_layout() -> tuple[Int64Array, Int64Array]:
    pos = np.full((4, 33), -1, dtype=np.int64)
    card_at = np.full((4, NBITS), -1, dtype=np.int64)
    for trump in range(4):
        left = (trump ^ 3) * 8 + 4
        right = trump * 8 + 4
        plain = [s for s in range(4) if s != trump]
        for c in range(33):
            if c == JOKER:
                p = 36 + 10
            elif c == right:
                p = 36 + 9
            elif c == left:
                p = 36 + 8
            elif c >> 3 == trump:
                p = 36 + (c & 7)
            else:
                p = 12 * plain.index(c >> 3) + (c & 7)
            pos[trump, c] = p
            card_at[trump, p] = c
    return pos, card_at


POS, CARD_AT = _build_layout()
"""``POS[trump, card]``: the card's bit in the layout; ``CARD_AT[trump, bit]`` the inverse."""

_BIT67 = np.zeros(67, dtype=np.int64)
for _i in range(63):
    _BIT67[(1 << _i) % 67] = _i

TT_BITS: Final = 12
TT_ENTRIES: Final = 1 << TT_BITS
_TT_MASK: Final = TT_ENTRIES - 1
_HASH_MUL: Final = 0x9E3779B97F4A7C15 - (1 << 64)  # as a signed int64


# -- the search ------------------------------------------------------------------------------
@_jit("int64(int64)")
def _field(bit: int) -> int:
    """The suit field (as a mask) of a one-bit card."""
    if bit >= T36:
        return TRUMPS
    if bit >= T24:
        return F2
    if bit >= T12:
        return F1
    return F0


@_jit("int64(int64, int64)")
def _reduce(cards: int, blockers: int) -> int:
    """One card (the lowest) of each run of equivalent cards: cards with no blocker
    between them (blockers hold the guard bits, so a run never crosses suits)."""
    out = 0
    prev = 0
    x = cards
    while x:
        b = x & -x
        x ^= b
        if prev == 0 or ((b - (prev << 1)) & blockers) != 0:
            out |= b
        prev = b
    return out


@_jit("int64(int64)")
def _top(x: int) -> int:
    """The highest bit of a non-empty mask."""
    while x & (x - 1):
        x &= x - 1
    return x


@_jit("int64(int64)")
def _count(x: int) -> int:
    """The number of bits of a mask."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@_jit("int64(int64[::1], int64, int64)")
def _sure_tricks(hands: Int64Array, leader: int, remaining: int) -> int:
    """Tricks the leader's side is sure of: the leader's trumps above every other trump,
    and when no one else holds a trump, the leader's top cards of each suit too."""
    hand = hands[leader]
    others = remaining ^ hand
    ot = others & TRUMPS
    mine = hand & TRUMPS
    if ot:
        return _count(mine & ~((_top(ot) << 1) - 1))
    q = _count(mine)
    for f in (F0, F1, F2):
        o = others & f
        h = hand & f
        if o:
            q += _count(h & ~((_top(o) << 1) - 1))
        else:
            q += _count(h)
    return q


@_jit("int64(int64[::1], int64, int64, int64)")
def _last_trick(hands: Int64Array, k: int, side: int, leader: int) -> int:
    """Every player holds one card: the maker side's tricks (0 or 1)."""
    best = hands[leader]
    led = _field(best) | TRUMPS
    win = leader
    p = leader
    for _ in range(k - 1):
        p += 1
        if p == k:
            p = 0
        x = hands[p]
        if (x & led) != 0 and x > best:
            best = x
            win = p
    return (side >> win) & 1


# stack fields: one row per ply of the search
S_TURN: Final = 0
S_LEADER: Final = 1
S_NPLAYED: Final = 2
S_LED: Final = 3
S_BEST: Final = 4
S_WINNER: Final = 5
S_REM: Final = 6
S_TLEFT: Final = 7
S_A: Final = 8
S_B: Final = 9
S_V: Final = 10
S_IDX: Final = 11
S_N: Final = 12
S_HAND: Final = 13
S_BEATS: Final = 14
S_W: Final = 15
S_CUR: Final = 16
S_BESTMOVE: Final = 17
S_SLOT: Final = 18
S_KEY: Final = 19
S_LO: Final = 20
S_HI: Final = 21
S_A0: Final = 22
S_B0: Final = 23
S_MOVES: Final = 24
STACK_DEPTH: Final = 32
STACK_WIDTH: Final = 32


@_jit(f"int64({_ARRAYS}, {_ints(13)})")
def _search(hands: Int64Array, tt: Int64Array, st: Int64Array, stats: Int64Array,
            k: int, side: int, stamp: int, turn: int, leader: int, nplayed: int,
            led: int, best: int, winner: int, remaining: int, tleft: int,
            alpha: int, beta: int) -> int:
    """Alpha-beta, fail-soft, iterative (one row of ``st`` per ply): the maker side's
    tricks from here, this trick included.

    ``hands`` (by player, in play order) hold the cards not yet played; ``remaining`` is
    their union.  ``nplayed`` cards of the trick led by ``leader`` are down; ``led`` is the
    led suit's field, ``best`` the best card so far, played by ``winner``.  A transposition
    table (``tt``) keeps bounds at trick boundaries."""
    d = 0
    while True:
        # ---- enter a node: its parameters are in the locals ----
        stats[0] += 1
        done = False
        r = 0
        if nplayed == 0:
            if tleft <= 1:
                done = True
                r = 0 if tleft == 0 else _last_trick(hands, k, side, leader)
            else:
                key = remaining | (leader << 48)
                slot = (((key * _HASH_MUL) >> 40) & _TT_MASK) * 4
                lo = 0
                hi = tleft
                hint = 0
                if tt[slot] == key and tt[slot + 1] >> 8 == stamp:
                    meta = tt[slot + 1]
                    lo = meta & 15
                    hi = (meta >> 4) & 15
                    hint = tt[slot + 2]
                else:
                    q = _sure_tricks(hands, leader, remaining)
                    if (side >> leader) & 1:
                        lo = q
                    else:
                        hi = tleft - q
                    # the holder of the top trumps wins a trick with each of them
                    t = remaining & TRUMPS
                    if t:
                        top = _top(t)
                        p = 0
                        while (hands[p] & top) == 0:
                            p += 1
                        if p != leader:
                            mine = hands[p] & t
                            o = t ^ mine
                            j = _count(mine & ~((_top(o) << 1) - 1)) if o else _count(mine)
                            if (side >> p) & 1:
                                if j > lo:
                                    lo = j
                            elif tleft - j < hi:
                                hi = tleft - j
                if lo >= beta or lo == hi:
                    done = True
                    r = lo
                elif hi <= alpha:
                    done = True
                    r = hi
                else:
                    a = alpha if alpha > lo else lo
                    b = beta if beta < hi else hi
                    hand = hands[leader]
                    cand = _reduce(hand, (remaining ^ hand) | GUARD)
                    n = 0
                    if hint:
                        st[d, S_MOVES] = hint
                        n = 1
                    x = cand & ~hint
                    while x:  # highest first
                        top = _top(x)
                        x ^= top
                        st[d, S_MOVES + n] = top
                        n += 1
                    st[d, S_TURN] = leader
                    st[d, S_LEADER] = leader
                    st[d, S_NPLAYED] = 0
                    st[d, S_REM] = remaining
                    st[d, S_TLEFT] = tleft
                    st[d, S_A] = a
                    st[d, S_B] = b
                    st[d, S_A0] = a
                    st[d, S_B0] = b
                    st[d, S_V] = -1 if (side >> leader) & 1 else 99
                    st[d, S_IDX] = 0
                    st[d, S_N] = n
                    st[d, S_HAND] = hand
                    st[d, S_BESTMOVE] = 0
                    st[d, S_SLOT] = slot
                    st[d, S_KEY] = key
                    st[d, S_LO] = lo
                    st[d, S_HI] = hi
        else:
            hand = hands[turn]
            legal = hand & led
            if legal == 0:
                legal = hand
            cand = _reduce(legal, (remaining ^ hand) | GUARD | best)
            beats = cand & (led | TRUMPS) & ~((best << 1) - 1)
            rest = cand ^ beats
            if ((side >> winner) ^ (side >> turn)) & 1 == 0:
                first = rest
                second = beats
            else:
                first = beats
                second = rest
            n = 0
            x = first
            while x:
                m = x & -x
                x ^= m
                st[d, S_MOVES + n] = m
                n += 1
            x = second
            while x:
                m = x & -x
                x ^= m
                st[d, S_MOVES + n] = m
                n += 1
            st[d, S_TURN] = turn
            st[d, S_LEADER] = leader
            st[d, S_NPLAYED] = nplayed
            st[d, S_LED] = led
            st[d, S_BEST] = best
            st[d, S_WINNER] = winner
            st[d, S_REM] = remaining
            st[d, S_TLEFT] = tleft
            st[d, S_A] = alpha
            st[d, S_B] = beta
            st[d, S_V] = -1 if (side >> turn) & 1 else 99
            st[d, S_IDX] = 0
            st[d, S_N] = n
            st[d, S_HAND] = hand
            st[d, S_BEATS] = beats

        # ---- return results upwards until some node has a child to try ----
        while True:
            if done:
                if d == 0:
                    return r
                d -= 1
                turn = st[d, S_TURN]
                hands[turn] = st[d, S_HAND]
                r += st[d, S_W]
                v = st[d, S_V]
                if (side >> turn) & 1:
                    if r > v:
                        v = r
                        st[d, S_V] = v
                        st[d, S_BESTMOVE] = st[d, S_CUR]
                        if v > st[d, S_A]:
                            st[d, S_A] = v
                else:
                    if r < v:
                        v = r
                        st[d, S_V] = v
                        st[d, S_BESTMOVE] = st[d, S_CUR]
                        if v < st[d, S_B]:
                            st[d, S_B] = v
                done = False
            idx = st[d, S_IDX]
            if st[d, S_A] >= st[d, S_B] or idx >= st[d, S_N]:
                # the node is finished: its value is v
                v = st[d, S_V]
                if st[d, S_NPLAYED] == 0:
                    lo = st[d, S_LO]
                    hi = st[d, S_HI]
                    if v <= st[d, S_A0]:
                        if v < hi:
                            hi = v
                    elif v >= st[d, S_B0]:
                        if v > lo:
                            lo = v
                    else:
                        lo = v
                        hi = v
                    slot = st[d, S_SLOT]
                    tt[slot] = st[d, S_KEY]
                    tt[slot + 1] = (stamp << 8) | (hi << 4) | lo
                    tt[slot + 2] = st[d, S_BESTMOVE]
                done = True
                r = v
                continue
            # descend into the next child
            m = st[d, S_MOVES + idx]
            st[d, S_IDX] = idx + 1
            st[d, S_CUR] = m
            turn = st[d, S_TURN]
            hands[turn] = st[d, S_HAND] ^ m
            remaining = st[d, S_REM] ^ m
            tleft = st[d, S_TLEFT]
            alpha = st[d, S_A]
            beta = st[d, S_B]
            np_ = st[d, S_NPLAYED]
            leader = st[d, S_LEADER]
            w = 0
            if np_ == 0:
                led = _field(m)
                best = m
                winner = turn
                nplayed = 1
                turn += 1
                if turn == k:
                    turn = 0
            else:
                led = st[d, S_LED]
                if m & st[d, S_BEATS]:
                    best = m
                    winner = turn
                else:
                    best = st[d, S_BEST]
                    winner = st[d, S_WINNER]
                if np_ == k - 1:
                    w = (side >> winner) & 1
                    turn = winner
                    leader = winner
                    nplayed = 0
                    tleft -= 1
                    alpha -= w
                    beta -= w
                else:
                    nplayed = np_ + 1
                    turn += 1
                    if turn == k:
                        turn = 0
            st[d, S_W] = w
            d += 1
            break


# -- the entry point -------------------------------------------------------------------------
OUT_TO_MOVE: Final = 0
OUT_VALUE: Final = 1
OUT_COUNT: Final = 2
OUT_PAIRS: Final = 3
OUT_SIZE: Final = 3 + 2 * 16


@_jit(f"int64({_ARRAYS}, {_ints(14)})")
def _child(hands: Int64Array, tt: Int64Array, st: Int64Array, stats: Int64Array,
           k: int, side: int, stamp: int, turn: int, leader: int, nplayed: int,
           led: int, best: int, winner: int, remaining: int, tleft: int, m: int,
           alpha: int, beta: int) -> int:
    """The value of playing ``m`` now (the mover is ``turn``), fail-soft in (alpha, beta)."""
    hand = hands[turn]
    hands[turn] = hand ^ m
    if nplayed == 0:
        led = _field(m)
        nb = m
        nw = turn
    elif (m & (led | TRUMPS)) != 0 and m > best:
        nb = m
        nw = turn
    else:
        nb = best
        nw = winner
    if nplayed == k - 1:
        w = (side >> nw) & 1
        r = w + _search(hands, tt, st, stats, k, side, stamp, nw, nw, 0, 0, 0, 0,
                        remaining ^ m, tleft - 1, alpha - w, beta - w)
    else:
        nxt = turn + 1
        if nxt == k:
            nxt = 0
        r = _search(hands, tt, st, stats, k, side, stamp, nxt, leader, nplayed + 1,
                    led, nb, nw, remaining ^ m, tleft, alpha, beta)
    hands[turn] = hand
    return r


@_jit(f"int64({_ARRAYS}, {_ints(15)})")
def _exact(hands: Int64Array, tt: Int64Array, st: Int64Array, stats: Int64Array,
           k: int, side: int, stamp: int, turn: int, leader: int, nplayed: int,
           led: int, best: int, winner: int, remaining: int, tleft: int, m: int,
           lo: int, hi: int, guess: int) -> int:
    """The exact value of playing ``m``, known to lie in [lo, hi], by null-window tests,
    the first one at ``guess`` (tests whether the value reaches ``guess``)."""
    while lo < hi:
        if lo < guess <= hi:
            mid = guess
            guess = -1
        else:
            mid = (lo + hi + 1) >> 1
        r = _child(hands, tt, st, stats, k, side, stamp, turn, leader, nplayed, led, best,
                   winner, remaining, tleft, m, mid - 1, mid)
        if r >= mid:
            lo = r
        else:
            hi = r
    return lo


@_jit("int64(int64)")
def _bit_index(bit: int) -> int:
    """The index of a one-bit mask (2**i mod 67 differs for every i < 64)."""
    return int(_BIT67[bit % 67])


@_jit(f"int64({_ints(14)}, int64[::1], int64[:, ::1], int64[::1], int64[::1])")
def solve_kernel(n: int, trump: int, makers: int, outmask: int, leader_seat: int,
                 trick: int, ntrick: int, all_values: int, stamp: int,
                 h0: int, h1: int, h2: int, h3: int, h4: int,
                 tt: Int64Array, st: Int64Array, stats: Int64Array, out: Int64Array) -> int:
    """Solve a play position: ``n`` seats holding ``h0``..``h4`` (card masks), the maker
    side's seats in the mask ``makers``, the seats sitting out in ``outmask``; the trick in
    progress was led by ``leader_seat`` and holds ``ntrick`` cards, 6 bits each in ``trick``
    (first card lowest).  ``stamp`` must differ from every earlier call's (it tells this
    solve's table entries from older ones).

    Writes the seat to move, the value, and ``(card, value)`` pairs to ``out`` (see
    ``OUT_*``): every legal card with its value (the maker side's tricks from now, this
    trick included), or with ``all_values`` false one card that reaches the best value.
    Returns the maker side's tricks from now under perfect play."""
    hands = np.zeros(5, dtype=np.int64)
    seat_of = np.zeros(5, dtype=np.int64)
    k = 0
    side = 0
    remaining = 0
    leader = 0
    for s in range(n):
        if (outmask >> s) & 1:
            continue
        if s == 0:
            h = h0
        elif s == 1:
            h = h1
        elif s == 2:
            h = h2
        elif s == 3:
            h = h3
        else:
            h = h4
        lh = 0
        while h:
            low = h & -h
            h ^= low
            lh |= 1 << POS[trump, _bit_index(low)]
        hands[k] = lh
        remaining |= lh
        seat_of[k] = s
        if s == leader_seat:
            leader = k
        if (makers >> s) & 1:
            side |= 1 << k
        k += 1
    turn = leader
    led = 0
    best = 0
    winner = leader
    for i in range(ntrick):
        m = 1 << POS[trump, (trick >> (6 * i)) & 63]
        if i == 0:
            led = _field(m)
            best = m
        elif (m & (led | TRUMPS)) != 0 and m > best:
            best = m
            winner = turn
        turn += 1
        if turn == k:
            turn = 0
    hand = hands[turn]
    tleft = 0
    x = hand
    while x:
        x &= x - 1
        tleft += 1
    out[OUT_TO_MOVE] = seat_of[turn]
    if ntrick:
        legal = hand & led
        if legal == 0:
            legal = hand
        blockers = (remaining ^ hand) | GUARD | best
    else:
        legal = hand
        blockers = (remaining ^ hand) | GUARD
    cand = _reduce(legal, blockers)
    maxi = (side >> turn) & 1
    count = 0
    if cand == 0:  # nothing to play: the deal is over
        out[OUT_COUNT] = 0
        out[OUT_VALUE] = 0
        return 0
    # the moves, lowest first, with what the tests below learn of their values
    nm = 0
    x = cand
    while x:
        m = x & -x
        x ^= m
        st[STACK_DEPTH - 1, nm] = m
        st[STACK_DEPTH - 1, 8 + nm] = 0
        st[STACK_DEPTH - 1, 16 + nm] = tleft
        nm += 1
    # the best value: bisection by null-window tests on the position
    lo = 0
    hi = tleft
    bestm = 0
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        # does some move reach mid (maximizer) / stay below mid (minimizer)?
        reached = False
        far = -1 if maxi else 99
        for i in range(nm):
            m = st[STACK_DEPTH - 1, i]
            if st[STACK_DEPTH - 1, 16 + i] < mid:
                r = st[STACK_DEPTH - 1, 16 + i]  # known to fail
            elif st[STACK_DEPTH - 1, 8 + i] >= mid:
                r = st[STACK_DEPTH - 1, 8 + i]  # known to pass
            else:
                r = _child(hands, tt, st, stats, k, side, stamp, turn, leader, ntrick, led,
                           best, winner, remaining, tleft, m, mid - 1, mid)
                if r >= mid:
                    st[STACK_DEPTH - 1, 8 + i] = r
                else:
                    st[STACK_DEPTH - 1, 16 + i] = r
            if maxi:
                if r >= mid:
                    reached = True
                    bestm = m
                    lo = r
                    break
                far = max(far, r)
            else:
                if r < mid:
                    reached = True
                    bestm = m
                    hi = r
                    break
                far = min(far, r)
        if not reached:  # every move failed: fail-soft bound
            if maxi:
                hi = far
            else:
                lo = far
    total = lo
    if bestm == 0:  # no test ever succeeded: every move has this value
        bestm = cand & -cand
    if not all_values:
        out[OUT_PAIRS] = CARD_AT[trump, _bit_index(bestm)]
        out[OUT_PAIRS + 1] = total
        count = 1
    else:
        for i in range(nm):
            m = st[STACK_DEPTH - 1, i]
            if m == bestm:
                r = total
            else:
                r = _exact(hands, tt, st, stats, k, side, stamp, turn, leader, ntrick, led,
                           best, winner, remaining, tleft, m, st[STACK_DEPTH - 1, 8 + i],
                           st[STACK_DEPTH - 1, 16 + i], total if maxi else total + 1)
            # every legal card equivalent to m (in its run) has its value
            y = legal
            prev = 0
            run = 0
            while y:
                b = y & -y
                y ^= b
                if prev == 0 or ((b - (prev << 1)) & blockers) != 0:
                    run = b
                if run == m:
                    out[OUT_PAIRS + 2 * count] = CARD_AT[trump, _bit_index(b)]
                    out[OUT_PAIRS + 2 * count + 1] = r
                    count += 1
                prev = b
    out[OUT_COUNT] = count
    out[OUT_VALUE] = total
    return total


LOAD_SECONDS: Final = time.perf_counter() - _started
"""How long compiling the kernel (or loading it from numba's cache) took at import."""
