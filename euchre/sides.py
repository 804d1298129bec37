"""Who plays with whom in a deal, and what a deal's points are worth to a seat.

Small rules that the engine, the bots, the environments and the batch jobs all need,
written once: the *maker's side* (RULES §4, §6), the cards a maker may call for a partner
(RULES §6.3), who sits out beside a lone defender (RULES §7), whose left leads the first
trick (RULES §8), and a seat's *utility*, its points minus the mean of the others' points
(the measure under which three- and five-handed euchre are zero-sum).  They take plain
ints and sequences (or ``int64`` arrays), so that :mod:`euchre.core` compiles these very
functions for its kernels and :class:`~euchre.deal.Deal` calls them as they are.

>>> seats(makers_mask(4, 1)), seats(makers_mask(5, 0, partner=3)), seats(makers_mask(3, 2))
((1, 3), (0, 3), (2,))
>>> utility((0, 4, 4), 0), utility((1, 0, 0, 1, 0), 0)
(-4.0, 0.75)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["callable_cards", "first_lead_after", "lone_defence_out", "makers_mask",
           "next_defender", "seats", "utility"]


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


def callable_cards(pack: int, hand: int, taken: bool, turnup: int, own_discards: int) -> int:
    """The cards the five-handed maker may call, as a bitmask (RULES §6): any of the
    ``pack`` not in its own ``hand``, but none it knows to be out of play (RULES §6.3): the
    ``turnup`` unless it was ``taken``, and its ``own_discards``.

    >>> bin(callable_cards(0b1111, 0b0001, False, 3, 0b0100))
    '0b10'
    """
    bits = pack & ~hand & ~own_discards
    if not taken:
        bits &= ~(1 << turnup)
    return bits


def next_defender(players: int, dealer: int, maker: int, after: int) -> int:
    """The next defender to choose whether to defend alone after seat ``after`` (-1: the
    first), in turn from the dealer's left: every seat not on the maker's declared side
    (RULES §7); -1 once all have chosen.

    >>> next_defender(4, 0, 1, -1), next_defender(4, 0, 1, 2), next_defender(4, 0, 1, 0)
    (2, 0, -1)
    """
    declared = 1 << maker  # the declared side (makers_mask without a partner), inline so
    if players == 4:  # that the core compiles this function as it is
        declared |= 1 << (maker + 2) % 4
    k = (after - dealer - 1) % players + 1 if after >= 0 else 0
    while k < players:
        seat = (dealer + 1 + k) % players
        if not declared >> seat & 1:
            return seat
        k += 1
    return -1


def lone_defence_out(players: int, seat: int, maker: int) -> int:
    """The seats that sit out when ``seat`` defends alone, as a bitmask (RULES §7): its
    partner opposite four-handed; three-handed, the other defender.

    >>> lone_defence_out(4, 1, 0), lone_defence_out(3, 1, 0)
    (8, 4)
    """
    if players == 4:
        return 1 << (seat + 2) % 4
    out = 0
    for other in range(players):
        if other != seat and other != maker:
            out |= 1 << other
    return out


def first_lead_after(players: int, dealer: int, maker: int, alone: bool,
                     lone_defender: int) -> int:
    """The seat at whose left the first trick is led, by the first seat that plays
    (RULES §8): the dealer; three-handed, the lone player (the maker when both are alone;
    ``lone_defender`` is -1 when nobody defends alone).

    >>> first_lead_after(4, 0, 1, True, -1), first_lead_after(3, 0, 1, True, 2)
    (0, 1)
    """
    if players == 3 and alone:
        return maker
    if players == 3 and lone_defender >= 0:
        return lone_defender
    return dealer


def seats(mask: int) -> tuple[int, ...]:
    """The seats of a bitmask, in order.

    >>> seats(0b10101), seats(0)
    ((0, 2, 4), ())
    """
    return tuple(s for s in range(mask.bit_length()) if mask >> s & 1)


def utility(points: Sequence[float] | npt.NDArray[np.int64], seat: int, players: int = -1) -> float:
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
