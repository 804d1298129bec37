"""Whist tournaments: each pair of players partners exactly once and opposes exactly
twice.  They exist for every count of players N ≡ 0 or 1 (mod 4), a theorem
of design theory.  The package ships one for every such N from 4 to 32, and for 33, 36,
37, 53 and 61, as the initial round of a design developed over an abelian group
(:data:`~euchre.night.whist_data.INITIAL_ROUNDS`, found or built once by
``scripts/find_whist.py``).

N ≡ 1 (mod 4): the players are the elements of a group G of order N (Z_N; Z_3 x Z_3
for nine, which has no cyclic whist tournament); round g adds g to every element of the
initial round, so the element g sits out round g.  N ≡ 0 (mod 4): the players are G of
order N - 1 and a fixed point ∞; round g adds g to every element but ∞.

>>> rounds = whist_rounds(5)
>>> len(rounds), rounds[0]
(5, ([((1, 4), (2, 3))], [0]))
>>> rounds[1]
([((2, 0), (3, 4))], [1])
"""

from __future__ import annotations

import functools
from typing import Final

from euchre.night.whist_data import INITIAL_ROUNDS

__all__ = ["WHIST_COUNTS", "group_moduli", "whist_rounds"]

Pair = tuple[int, int]
TablePairs = tuple[Pair, Pair]

WHIST_COUNTS: Final = frozenset(INITIAL_ROUNDS)
"""The counts of players with a whist tournament shipped: every N ≡ 0 or 1 (mod 4)
from 4 to 32, and 33, 36, 37, 53 and 61."""


def group_moduli(order: int) -> tuple[int, ...]:
    """The cyclic factors of the group the tournament of ``order`` elements is developed
    over: Z_3 x Z_3 for nine, else Z_order.  An element is a number in mixed radix.

    >>> group_moduli(9), group_moduli(13)
    ((3, 3), (13,))
    """
    return (3, 3) if order == 9 else (order,)


def _add(moduli: tuple[int, ...], x: int, y: int) -> int:
    """``x + y`` in the group of ``moduli`` (elements in mixed radix)."""
    out, scale = 0, 1
    for q in reversed(moduli):
        out += ((x % q + y % q) % q) * scale
        x, y, scale = x // q, y // q, scale * q
    return out


@functools.cache
def whist_rounds(players: int) -> tuple[tuple[list[TablePairs], list[int]], ...]:
    """The whist tournament of ``players`` (a key of :data:`WHIST_COUNTS`), round by
    round: the tables (two partnerships each) and who sits out, players numbered from 0.
    """
    initial = INITIAL_ROUNDS[players]
    rotational = players % 4 == 0
    order = players - 1 if rotational else players
    moduli = group_moduli(order)

    def move(x: int, g: int) -> int:
        return x if rotational and x == order else _add(moduli, x, g)

    rounds = []
    for g in range(order):
        tables = [((move(a, g), move(b, g)), (move(c, g), move(d, g)))
                  for (a, b), (c, d) in initial]
        rounds.append((tables, [] if rotational else [g]))
    return tuple(rounds)
