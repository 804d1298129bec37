"""The scoring of a club night: individual points round by round, and the standings.

House rules of progressive euchre: a round is a few hands (often eight) at one table;
each player scores the points their side made in the round (which may exceed 10), and
those add up over the night.  The values of a hand are the night's to choose
(:class:`NightScoring`: a lone hand that takes all five scores 4 by default, some
clubs give 5; euchring a lone hand 4).  Whoever sits a round out scores the round's
average, nothing, or what a bot made in their place (:data:`SIT_OUT_POLICIES`).  The
standings rank by total points, then by rounds won; players still level share their
place and are flagged: one extra hand decides between them.

Pure functions over plain data; points are exact fractions (an average of a round may
be one).

>>> from euchre.night.schedule import partners
>>> night = partners(5, rounds=2)
>>> scoring = NightScoring()
>>> first = RoundResult(night.rounds[0], (TableResult((7, 4), loners=(2,)),))
>>> second = RoundResult(night.rounds[1], (TableResult((3, 9)),))
>>> [(s.place, s.player, str(s.total), s.won) for s in standings([first, second], scoring)]
[(1, 5, '16', 2), (2, 2, '13', 1), (2, 4, '13', 1), (4, 1, '17/2', 0), (5, 3, '7', 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Literal, TypeVar, get_args

from euchre.night.schedule import Round, Table

__all__ = [
    "SIT_OUT_POLICIES",
    "Hand",
    "NightScoring",
    "RoundResult",
    "SitOutPolicy",
    "Standing",
    "TableResult",
    "hand_points",
    "ranked",
    "round_points",
    "standings",
]

SitOutPolicy = Literal["average", "zero", "bot"]
SIT_OUT_POLICIES: Final[tuple[SitOutPolicy, ...]] = get_args(SitOutPolicy)
"""What a player who sits a round out scores: the average of the players who played
it, nothing, or the points of the bot that played in their place."""

MAX_VALUE: Final = 100

K = TypeVar("K")


@dataclass(frozen=True)
class NightScoring:
    """The values of a hand at the night, and the sit-out policy; all editable.

    >>> NightScoring(lone_march=5).lone_march
    5
    >>> NightScoring(euchre=-1)
    Traceback (most recent call last):
    ...
    ValueError: euchre is a whole number of points from 0 to 100, not -1
    """

    made: int = 1
    """The makers take three or four tricks."""
    march: int = 2
    """The makers take all five."""
    lone_made: int = 1
    """A lone hand takes three or four tricks."""
    lone_march: int = 4
    """A lone hand takes all five."""
    euchre: int = 2
    """The defenders euchre the makers (take three tricks or more)."""
    lone_euchre: int = 4
    """The defenders euchre a lone hand."""
    sit_out: SitOutPolicy = "average"

    def __post_init__(self) -> None:
        for name in ("made", "march", "lone_made", "lone_march", "euchre", "lone_euchre"):
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= MAX_VALUE:
                raise ValueError(f"{name} is a whole number of points from 0 to "
                                 f"{MAX_VALUE}, not {value!r}")
        if self.sit_out not in SIT_OUT_POLICIES:
            raise ValueError(f"sit_out is one of {', '.join(SIT_OUT_POLICIES)}, "
                             f"not {self.sit_out!r}")


@dataclass(frozen=True)
class Hand:
    """One hand played at a table: the side that made trump (0 or 1, as the table's
    sides), the tricks that side took, and whether its maker played alone."""

    makers: int
    tricks: int
    alone: bool = False

    def __post_init__(self) -> None:
        if self.makers not in (0, 1) or not 0 <= self.tricks <= 5:
            raise ValueError(f"a hand's makers are side 0 or 1 and take 0 to 5 tricks, "
                             f"not side {self.makers} with {self.tricks}")


def hand_points(hand: Hand, scoring: NightScoring) -> tuple[int, int]:
    """Each side's points for one hand, by the night's values.

    >>> hand_points(Hand(0, 5, alone=True), NightScoring())
    (4, 0)
    >>> hand_points(Hand(1, 2, alone=True), NightScoring())
    (4, 0)
    >>> hand_points(Hand(1, 3), NightScoring())
    (0, 1)
    """
    if hand.tricks >= 3:
        if hand.alone:
            value = scoring.lone_march if hand.tricks == 5 else scoring.lone_made
        else:
            value = scoring.march if hand.tricks == 5 else scoring.made
        winner = hand.makers
    else:
        value = scoring.lone_euchre if hand.alone else scoring.euchre
        winner = 1 - hand.makers
    return (value, 0) if winner == 0 else (0, value)


@dataclass(frozen=True)
class TableResult:
    """What a table made in a round: each side's points (as the table's sides), and the
    players who took all five tricks alone (once per such hand)."""

    points: tuple[int, int]
    loners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if any(type(p) is not int or p < 0 for p in self.points):
            raise ValueError(f"a side's points are a whole number, not negative: "
                             f"{self.points}")

    @classmethod
    def from_hands(cls, table: Table, hands: Sequence[tuple[Hand, int]],
                   scoring: NightScoring) -> TableResult:
        """The result of a table from its hands, each with the player who named trump.

        >>> t = Table(((1, 2), (3, 4)))
        >>> TableResult.from_hands(t, [(Hand(0, 5, alone=True), 2), (Hand(1, 1), 3)],
        ...                        NightScoring())
        TableResult(points=(6, 0), loners=(2,))
        """
        a = b = 0
        loners = []
        for hand, maker in hands:
            if maker not in table.sides[hand.makers]:
                raise ValueError(f"player {maker} is not on side {hand.makers} of {table}")
            x, y = hand_points(hand, scoring)
            a, b = a + x, b + y
            if hand.alone and hand.tricks == 5:
                loners.append(maker)
        return cls((a, b), tuple(loners))


@dataclass(frozen=True)
class RoundResult:
    """A round as seated and its tables' results (in the order of its tables), and, for
    the sit-out policy ``bot``, the points of the bots that stood in for the players who
    sat out (a player not named scores nothing)."""

    round: Round
    tables: tuple[TableResult, ...]
    stand_ins: tuple[tuple[int, int], ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.tables) != len(self.round.tables):
            raise ValueError(f"the round has {len(self.round.tables)} tables, the result "
                             f"{len(self.tables)}")


def round_points(result: RoundResult, scoring: NightScoring) -> dict[int, Fraction]:
    """Each player's points for a round: the points of their side at their table; who
    sat out, by the night's policy.

    >>> from euchre.night.schedule import partners
    >>> r = partners(5).rounds[0]
    >>> points = round_points(RoundResult(r, (TableResult((7, 4)),)), NightScoring())
    >>> {p: str(v) for p, v in sorted(points.items())}
    {1: '11/2', 2: '7', 3: '4', 4: '4', 5: '7'}
    """
    points: dict[int, Fraction] = {}
    for table, res in zip(result.round.tables, result.tables, strict=True):
        for side, made in zip(table.sides, res.points, strict=True):
            for p in side:
                points[p] = Fraction(made)
    played = list(points.values())
    bots = dict(result.stand_ins)
    for p in result.round.out:
        if scoring.sit_out == "average":
            points[p] = sum(played, Fraction(0)) / len(played) if played else Fraction(0)
        elif scoring.sit_out == "bot":
            points[p] = Fraction(bots.get(p, 0))
        else:
            points[p] = Fraction(0)
    return points


@dataclass(frozen=True)
class Standing:
    """One line of the standings: the place (shared by players level after every
    tie-break), the player and their name, the total, the rounds won and played, the
    lone hands that took all five, and whether an extra hand must decide the place."""

    place: int
    player: int
    name: str
    total: Fraction
    won: int
    played: int
    loners: int
    tied: bool


def standings(results: Sequence[RoundResult], scoring: NightScoring,
              names: Mapping[int, str] | None = None) -> tuple[Standing, ...]:
    """The standings after ``results``: by total points, then rounds won (a round is
    won by the side with more points at its table); players still level share their
    place, listed by name (those without one first, by number), and are flagged
    ``tied`` (an extra hand decides).

    >>> from euchre.night.schedule import teams
    >>> r = teams(4).rounds[0]
    >>> [(s.place, s.name, s.tied) for s in standings(
    ...     [RoundResult(r, (TableResult((5, 5)),))], NightScoring(), {1: "Ann", 3: "Bo"})]
    [(1, '', True), (1, '', True), (1, 'Ann', True), (1, 'Bo', True)]
    """
    names = names or {}
    total: dict[int, Fraction] = {}
    won: dict[int, int] = {}
    played: dict[int, int] = {}
    loners: dict[int, int] = {}
    for result in results:
        for p, v in round_points(result, scoring).items():
            total[p] = total.get(p, Fraction(0)) + v
            won.setdefault(p, 0)
            played.setdefault(p, 0)
            loners.setdefault(p, 0)
        for table, res in zip(result.round.tables, result.tables, strict=True):
            a, b = res.points
            for side in table.sides:
                for p in side:
                    played[p] += 1
            if a != b:
                for p in table.sides[0 if a > b else 1]:
                    won[p] += 1
            for p in res.loners:
                loners[p] = loners.get(p, 0) + 1

    def name(p: int) -> str:
        return names.get(p, "")

    return tuple(Standing(place, p, name(p), total[p], won[p], played[p], loners.get(p, 0),
                          tied)
                 for place, p, tied in ranked(total, won, lambda p: (name(p), p)))


def ranked(total: Mapping[K, Fraction], won: Mapping[K, int],
              within: Callable[[K], Any]) -> list[tuple[int, K, bool]]:
    """The order of a night's standings or a season's leaderboard: by total points, then
    rounds won; those still level share the place of the first of them (ordered among
    themselves by ``within``) and are flagged tied.  Each line: (place, key, tied).

    >>> ranked({"a": Fraction(9), "b": Fraction(9), "c": Fraction(12)},
    ...        {"a": 1, "b": 1, "c": 0}, str)
    [(1, 'c', False), (2, 'a', True), (2, 'b', True)]
    """
    order = sorted(total, key=lambda k: (-total[k], -won[k], within(k)))
    rank = {k: (total[k], won[k]) for k in order}
    level: dict[tuple[Fraction, int], int] = {}
    for k in order:
        level[rank[k]] = level.get(rank[k], 0) + 1
    lines = []
    place = 0
    for i, k in enumerate(order):
        if i == 0 or rank[k] != rank[order[i - 1]]:
            place = i + 1
        lines.append((place, k, level[rank[k]] > 1))
    return lines
