"""What a deal's points are worth to a seat.

A small rule that the engine, the bots, the environments and the batch jobs all need,
written once: a seat's *utility*, its points minus the mean of the others' points (the
measure under which three- and five-handed euchre are zero-sum).  It takes plain ints and
sequences (or ``int64`` arrays), so that :mod:`euchre.core` compiles this very function
for its kernels.

>>> utility((0, 4, 4), 0), utility((1, 0, 0, 1, 0), 0)
(-4.0, 0.75)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["utility"]


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
