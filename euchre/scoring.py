"""The score of a deal: the RULES §9 table, and the maker's side it scores.

>>> deal_points(4, makers_of(4, 1, None), 5, alone=False, lone_defender=False)
(0, 2, 0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable

from euchre.sides import makers_mask, seats

__all__ = ["deal_points", "makers_of"]


def deal_points(
    players: int, makers: Iterable[int], made: int, alone: bool, lone_defender: bool
) -> tuple[int, ...]:
    """Each seat's points for a finished deal (the RULES §9 table).

    ``makers`` are the seats of the maker's side, ``made`` the tricks they took,
    ``alone`` whether the maker played alone (declared or, five-handed, forced), and
    ``lone_defender`` whether a defender went alone.

    >>> deal_points(4, {1, 3}, 5, alone=True, lone_defender=False)
    (0, 4, 0, 4)
    >>> deal_points(3, {0}, 0, alone=False, lone_defender=True)
    (0, 4, 4)
    """
    n = players
    side = set(makers)
    if made >= 3:
        march = made == 5
        if n == 2:
            value = 2 if march else 1
        elif n == 3:
            value = (4 if alone else 3) if march else 1
        elif n == 4:
            value = (4 if alone else 2) if march else 1
        else:
            value = (5 if alone else 2) if march else 1
        scorers = side
    else:
        if n == 4:
            value = 4 if lone_defender else 2
        elif n == 3:
            value = 4 if lone_defender and made == 0 else 2
        elif n == 5:
            value = 4 if made == 0 else 2
        else:
            value = 2
        scorers = set(range(n)) - side
    return tuple(value if s in scorers else 0 for s in range(n))


def makers_of(players: int, maker: int | None, partner: int | None) -> tuple[int, ...]:
    """The maker's side (:func:`euchre.sides.makers_mask`) as seats (RULES §4, §6, §9): the
    maker, the seat opposite four-handed, else the five-handed partner if any; empty
    before trump is fixed.

    >>> makers_of(4, 3, None), makers_of(5, 3, 0), makers_of(5, 3, None)
    ((1, 3), (0, 3), (3,))
    """
    return seats(makers_mask(players, -1 if maker is None else maker,
                             -1 if partner is None else partner))
