"""Who plays with whom in a deal, and what a deal's points are worth to a seat.

Two small rules that the engine, the bots, the environments and the batch jobs all need,
written once: the *maker's side* (RULES §4, §6) and a seat's *utility*, its points minus
the mean of the others' points (the measure under which three- and five-handed euchre are
zero-sum).  Both take plain ints and sequences (or ``int64`` arrays), so that
:mod:`euchre.core` compiles these very functions for its kernels.

>>> seats(makers_mask(4, 1)), seats(makers_mask(5, 0, partner=3)), seats(makers_mask(3, 2))
((1, 3), (0, 3), (2,))
>>> utility((0, 4, 4), 0), utility((1, 0, 0, 1, 0), 0)
(-4.0, 0.75)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["makers_mask", "seats", "utility"]


def makers_mask(players: int, maker: int, partner: int = -1) -> int:
    """The maker's side as a bitmask of seats (RULES §4, §6): the maker; four-handed also
    the seat opposite (a lone maker's partner too, sitting out: the side scores together,
    RULES §9); five-handed also ``partner``, the called card's holder, where it is given
    (``-1``: unknown, or nobody holds the card).  Two- and three-handed the maker is alone.
    0 when ``maker`` is ``-1`` (trump not fixed yet).

    Without ``partner`` it is the side every seat knows of: the *declared* side, whose
    opponents may defend alone (RULES §7).

    >>> bin(makers_mask(4, 3)), makers_mask(5, 2), makers_mask(5, 2, 4), makers_mask(2, -1)
    ('0b1010', 4, 20, 0)
    """
    if maker < 0:
        return 0
    side = 1 << maker
    if players == 4:
        side |= 1 << (maker + 2) % 4
    elif partner >= 0:
        side |= 1 << partner
    return side


def seats(mask: int) -> tuple[int, ...]:
    """The seats of a bitmask, in order.

    >>> seats(0b10101), seats(0)
    ((0, 2, 4), ())
    """
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)


def utility(points: Sequence[int] | npt.NDArray[np.int64], seat: int, players: int = -1) -> float:
    """Seat ``seat``'s points minus the mean of the other seats' points, from a deal's
    points by seat (RULES §9): the *utility*, which sums to zero over the seats.
    ``players`` is how many of ``points`` count (all of them by default; the compiled
    kernels pass an array longer than the table).

    Four-handed a side's two seats score alike, so this is two thirds of the side's points
    minus the other side's.

    >>> utility([1, 0, 0], 0), utility([1, 0, 0], 1), utility([2, 0], 1)
    (1.0, -0.5, -2.0)
    """
    n = len(points) if players < 0 else players
    total = 0.0
    for s in range(n):
        total += points[s]
    mine = points[seat]
    return mine - (total - mine) / (n - 1)
