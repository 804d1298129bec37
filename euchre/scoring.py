"""The score of a deal: the RULES §9 table, and the maker's side it scores.

>>> deal_points(4, makers_of(4, 1, None), 5, alone=False, lone_defender=False)
(0, 2, 0, 2)
"""

from __future__ import annotations

from collections.abc import Iterable

from euchre.sides import makers_mask, seats

__all__ = ["deal_points", "deal_value", "makers_of"]


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
    side = set(makers)
    value = deal_value(players, made, alone, lone_defender)
    scorers = side if made >= 3 else set(range(players)) - side
    return tuple(value if s in scorers else 0 for s in range(players))


def deal_value(players: int, made: int, alone: bool, lone_defender: bool) -> int:
    """The points each seat of the scoring side earns (the RULES §9 table): the maker's
    side when it ``made`` three tricks or more, else each defender.  Plain ints only, so
    that the compiled core scores with this same function (:func:`euchre.core.points`).

    >>> deal_value(4, 5, alone=True, lone_defender=False), deal_value(5, 0, False, False)
    (4, 4)
    """
    n = players
    if made >= 3:
        if made < 5:
            return 1
        if n == 2:
            return 2
        if n == 3:
            return 4 if alone else 3
        if n == 4:
            return 4 if alone else 2
        return 5 if alone else 2
    # euchred: 4 against a lone defender four-handed, and where the defenders take all
    # five against a lone defender three-handed or five-handed
    if n == 4:
        return 4 if lone_defender else 2
    if n == 3:
        return 4 if lone_defender and made == 0 else 2
    if n == 5:
        return 4 if made == 0 else 2
    return 2


def makers_of(players: int, maker: int | None, partner: int | None) -> tuple[int, ...]:
    """The maker's side (:func:`euchre.sides.makers_mask`) as seats (RULES §4, §6, §9): the
    maker, the seat opposite four-handed, else the five-handed partner if any; empty
    before trump is fixed.

    >>> makers_of(4, 3, None), makers_of(5, 3, 0), makers_of(5, 3, None)
    ((1, 3), (0, 3), (3,))
    """
    return seats(makers_mask(players, -1 if maker is None else maker,
                             -1 if partner is None else partner))
