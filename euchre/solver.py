"""The exact open-hand (double-dummy) solver: every hand known, perfect play by all.

For a deal in the play phase, in any variant (lone makers and lone defenders, the
five-handed partner known to the engine, the joker, any pack), :func:`solve` gives the
tricks each side takes under perfect play and the value of every legal card for the
player to move.  The search is alpha-beta with a transposition table at trick boundaries,
null-window tests on the small range of trick counts, and equivalent-card reduction
(cards of one hand that become adjacent in rank once the played cards are gone are one
choice); it runs compiled by numba (see :mod:`euchre._solver_kernel`).

The sides: the maker's side is the maker, with the partner opposite four-handed and the
called card's holder five-handed; everyone else defends.  A seat sitting out plays no card.

Importing this module compiles the kernel the first time (a few seconds) and loads it
from numba's cache after that (``__pycache__`` beside the module; a few tenths of a
second).  A whole four-handed deal from the first lead then takes some tens of µs
(``euchre bench solver``, docs/benchmarks.md).  Each thread gets its own working memory
(the web server runs bots in worker threads), so solves in different threads never share
a table.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> for action in ('pass', 'pass', 'trump C', 'play 9D'):
...     _ = deal.apply(action)
>>> s = solve(deal)
>>> s.to_move, s.values[Action.parse('play JC')], s.values[Action.parse('play 9C')]
(0, 4, 5)
>>> s.to_json()['best'], s.makers, s.makers_tricks, s.defenders_tricks
('play 9C', (1,), 0, 5)

Ruffing with the right bower lets the maker's ace of clubs win a trick later.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from euchre import _solver_kernel as _k
from euchre.actions import Action
from euchre.deal import Deal, Phase
from euchre.notation import DealRecord
from euchre.rules import Rules

__all__ = [
    "PositionSolution",
    "Solution",
    "makers_side",
    "minimax",
    "minimax_values",
    "nodes_searched",
    "position_of",
    "solve",
    "solve_position",
    "solve_record",
    "solve_value",
    "warm_up",
]

class _Memory(threading.local):
    """The kernel's working memory, one per thread: concurrent solves must not share the
    transposition table or the output array."""

    def __init__(self) -> None:
        self.tt = np.zeros(_k.TT_ENTRIES * 4, dtype=np.int64)
        self.stack = np.zeros((_k.STACK_DEPTH, _k.STACK_WIDTH), dtype=np.int64)
        self.stats = np.zeros(8, dtype=np.int64)
        self.out = np.zeros(_k.OUT_SIZE, dtype=np.int64)
        self.stamp = 0


_MEMORY = _Memory()


class PositionSolution(NamedTuple):
    """A solved position on raw ints (see :func:`solve_position`)."""

    to_move: int
    """The seat to move."""
    values: dict[int, int]
    """Card id -> the maker side's tricks from now (this trick included) after playing it."""
    value: int
    """The maker side's tricks from now under perfect play."""


@dataclass(frozen=True, slots=True)
class Solution:
    """A solved play-phase position (see :func:`solve`)."""

    to_move: int
    """The seat to move."""
    values: dict[Action, int]
    """Each legal play -> the tricks the mover's side takes from now (this trick
    included) with that card and perfect play after."""
    best: Action
    """A play of the highest value (the first such in card order)."""
    makers: tuple[int, ...]
    """The seats of the maker's side (sitting-out seats excluded)."""
    makers_tricks: int
    """The maker side's tricks for the whole deal: won so far plus perfect play from now."""
    defenders_tricks: int
    """The defenders' tricks for the whole deal, the same way."""
    tricks_left: int
    """Tricks still to be decided, the one in progress included."""

    def to_json(self) -> dict[str, Any]:
        """The ``euchre solve --json`` object: ``to_move``, ``values`` and ``best``."""
        return {
            "to_move": self.to_move,
            "values": {str(a): v for a, v in self.values.items()},
            "best": str(self.best),
        }


def makers_side(deal: Deal) -> tuple[int, ...]:
    """The maker's side: four-handed the maker and the seat opposite, five-handed the
    maker and the called card's holder (if any), otherwise the maker alone.  Seats
    sitting out are left out."""
    makers, _ = _sides(deal)
    return tuple(s for s in range(deal.n) if makers >> s & 1)


def _sides(deal: Deal) -> tuple[int, int]:
    """The maker side's seats that play (:attr:`Deal.makers` less those sitting out) and
    the seats sitting out, as bitmasks."""
    if deal.maker is None:
        raise ValueError("trump is not fixed yet: there are no sides")
    out = sum(1 << s for s in deal.sitting_out)
    makers = sum(1 << s for s in deal.makers)
    return makers & ~out, out


def _check_play(deal: Deal) -> None:
    if deal.phase is not Phase.PLAY:
        raise ValueError(
            f"the solver needs a deal in the play phase; this one is in the "
            f"{deal.phase.value} phase"
        )


def solve_position(
    hands: Sequence[int],
    trump: int,
    makers: int,
    leader: int,
    trick: Sequence[int] = (),
    out: int = 0,
    all_values: bool = True,
) -> PositionSolution:
    """Solve a play position given on raw ints.

    ``hands[seat]`` is the card bitmask each seat still holds (the cards of the trick in
    progress already removed), ``trump`` the trump suit (0..3), ``makers`` the bitmask of
    the maker side's seats, ``leader`` the seat that led the trick in progress (or leads
    the next one), ``trick`` the card ids played to it so far in order, and ``out`` the
    bitmask of seats sitting out.  With ``all_values`` false only the best value is
    searched, and ``values`` holds a single card that reaches it.

    The position is not checked beyond that: it must be one the rules can reach (every
    seat that plays holds as many cards as the others, less one if it has played to the
    trick in progress).
    """
    value = _search(hands, trump, makers, leader, trick, out, all_values)
    o = _MEMORY.out.tolist()
    count = o[_k.OUT_COUNT]
    pairs = o[_k.OUT_PAIRS:_k.OUT_PAIRS + 2 * count]
    return PositionSolution(o[_k.OUT_TO_MOVE], dict(zip(pairs[::2], pairs[1::2], strict=True)),
                            value)


def solve_value(hands: Sequence[int], trump: int, makers: int, leader: int,
                out: int = 0) -> int:
    """The value alone (the maker side's tricks from now, best play) of a position at the
    start of a trick, on raw ints as :func:`solve_position` takes them: the same search
    with ``all_values`` false, without the cards' values (the expert's pre-play
    evaluation solves hundreds of thousands of these).

    >>> from euchre.cards import card_mask, parse_cards
    >>> hands = [card_mask(parse_cards(h)) for h in ('JC JS AC', 'AD KD QD')]
    >>> solve_value(hands, trump=0, makers=0b01, leader=0)
    3
    """
    return _search(hands, trump, makers, leader, (), out, False)


def _search(hands: Sequence[int], trump: int, makers: int, leader: int,
            trick: Sequence[int], out: int, all_values: bool) -> int:
    """Run the kernel; its value (the rest is in ``_MEMORY.out``)."""
    n = len(hands)
    if not 2 <= n <= 5:
        raise ValueError(f"2 to 5 hands, not {n}")
    packed = 0
    for i, c in enumerate(trick):
        packed |= c << (6 * i)
    m = _MEMORY
    m.stamp += 1
    h = [*hands, 0, 0, 0]
    value: int = _k.solve_kernel(n, trump, makers, out, leader, packed, len(trick),
                                 int(all_values), m.stamp, h[0], h[1], h[2], h[3], h[4], m.tt,
                                 m.stack, m.stats, m.out)
    if not m.out[_k.OUT_COUNT]:
        raise ValueError("the player to move holds no card: the deal is over")
    return value


def position_of(deal: Deal) -> tuple[list[int], int, int, int, list[int], int]:
    """A play-phase deal's arguments for :func:`solve_position`: ``(hands, trump, makers,
    leader, trick, out)``.

    Raises :class:`ValueError` if the deal is not in the play phase.
    """
    _check_play(deal)
    trump = deal.trump
    assert trump is not None
    makers, out = _sides(deal)
    trick = deal.current_trick
    leader = deal.leader
    assert leader is not None
    hands = [deal.hand_mask(s) for s in range(deal.n)]
    return hands, int(trump), makers, leader, [int(c) for _, c in trick], out


_PLAYS: tuple[Action, ...] = tuple(Action.play(c) for c in range(33))


def solve(deal: Deal) -> Solution:
    """Solve a deal in the play phase: the value of every legal card and the best play.

    Raises :class:`ValueError` if the deal is not in the play phase.
    """
    hands, trump, makers, leader, trick, out = position_of(deal)
    sol = solve_position(hands, trump, makers, leader, trick, out)
    mover = sol.to_move
    won_by_seat = deal.tricks_won
    tricks_left = 5 - sum(won_by_seat)
    items = sorted(sol.values.items())
    if not makers >> mover & 1:
        items = [(c, tricks_left - v) for c, v in items]
    top = max(v for _, v in items)
    best = next(c for c, v in items if v == top)  # the first in card order
    side = tuple(s for s in range(deal.n) if makers >> s & 1)
    won = sum(won_by_seat[s] for s in side)
    return Solution(
        to_move=mover,
        values={_PLAYS[c]: v for c, v in items},
        best=_PLAYS[best],
        makers=side,
        makers_tricks=won + sol.value,
        defenders_tricks=5 - won - sol.value,
        tricks_left=tricks_left,
    )


def solve_record(record: DealRecord | dict[str, Any]) -> dict[str, Any]:
    """``euchre solve FILE --json``: solve a deal record (docs/rules.md) stopped anywhere in
    the play phase, and return ``{"to_move": seat, "values": {"play JH": tricks, ...},
    "best": "play JH"}``; ``tricks`` is what the mover's side takes from here (this trick
    included) with that card and perfect play after.

    Raises :class:`ValueError` with a sentence if the record is malformed, holds an
    illegal action, or does not stop in the play phase.
    """
    deal = Deal.from_record(record)
    if deal.phase is not Phase.PLAY:
        if deal.is_over:
            raise ValueError(
                "the record's deal is over (all five tricks played or the cards thrown in): "
                "there is nothing to solve; the solver needs a deal stopped in the play phase"
            )
        raise ValueError(
            f"the record stops in the {deal.phase.value} phase (seat {deal.to_move} to "
            f"act); the solver needs a deal stopped in the play phase, after trump is "
            f"fixed and before the last card"
        )
    return solve(deal).to_json()


# -- the plain minimax reference -------------------------------------------------------------
def _side_tricks(deal: Deal, side: Iterable[int]) -> int:
    return sum(deal.tricks_won[s] for s in side)


def minimax(deal: Deal) -> int:
    """Plain minimax on the engine itself (no pruning, no table): the maker side's tricks
    from now under perfect play.  Slow; for tests on small positions."""
    _check_play(deal)
    side = set(makers_side(deal))
    base = _side_tricks(deal, side)
    return _minimax(deal, side) - base


def _minimax(deal: Deal, side: set[int]) -> int:
    if deal.is_over:
        return _side_tricks(deal, side)
    mover = deal.to_move
    results = []
    for a in deal.legal_action_ids():
        child = deal.copy()
        child.apply(a)
        results.append(_minimax(child, side))
    return max(results) if mover in side else min(results)


def minimax_values(deal: Deal) -> dict[Action, int]:
    """Plain minimax for every legal play: the tricks the mover's side takes from now
    (this trick included) with that card, as in :attr:`Solution.values`."""
    _check_play(deal)
    side = set(makers_side(deal))
    mover = deal.to_move
    assert mover is not None
    tricks_left = 5 - sum(deal.tricks_won)
    base = _side_tricks(deal, side)
    out: dict[Action, int] = {}
    for a in deal.legal_action_ids():
        child = deal.copy()
        child.apply(a)
        v = _minimax(child, side) - base
        out[Action.play(a)] = v if mover in side else tricks_left - v
    return out


# -- for the benchmarks (euchre.jobs.bench) -------------------------------------------------------
def nodes_searched() -> int:
    """The search nodes this thread's solves have visited so far (the difference over a
    solve is its size)."""
    return int(_MEMORY.stats[0])


def warm_up() -> float:
    """The seconds it took to compile the kernel (or load it from numba's cache) when
    this module was imported, plus a first solve of each kind."""
    t = time.perf_counter() - _k.LOAD_SECONDS
    deal = Deal.from_cards(Rules(players=4), dealer=0,
                           hands=["AH KH 9S TS 9C", "JH JD QH AS KS", "TH AC KC QC JC",
                                  "AD KD QD TD 9D"], turnup="9H")
    for action in ("order", "discard 9S"):
        deal.apply(action)
    solve(deal)
    hands, trump, makers, leader, trick, out = position_of(deal)
    solve_position(hands, trump, makers, leader, trick, out, all_values=False)
    return time.perf_counter() - t
