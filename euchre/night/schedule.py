"""The seating of a club night: who plays with and against whom, round by round, at
which table, and who sits out.

Three movements (:data:`FORMATS`):

- ``partners``, rotating partners: a whist tournament where one is shipped (every N ≡ 0
  or 1 (mod 4) from 4 to 32, and 33, 36, 37, 53, 61: each pair partners exactly once and
  opposes exactly twice),
  else the round-robin's partnerships (the circle method), so that no pair partners
  twice, seated at tables so that the pairs oppose as evenly as a quick search finds,
  with the sit-outs spread so that nobody sits out twice before everyone has once.
- ``winners``, winners move up: the winners of each table split and move up a table, the
  losers split and move down, the head table's winners stay and the foot table's losers
  stay.  Each round is a function of the previous one and its results
  (:func:`winners_next_round`).
- ``teams``, fixed teams: players 1 and 2 are a team, 3 and 4, ...; the even teams keep
  their table, the odd teams move up a table each round (from the head table to the
  foot); with an odd number of teams, the odd team at the empty place sits out.

A schedule is plain data: :class:`Schedule` of :class:`Round` of :class:`Table`, players
numbered from 1, with :meth:`Schedule.to_json`.  Everything here is pure and
deterministic (a ``seed`` only relabels the players).

>>> night = partners(5)
>>> len(night.rounds), night.rounds[0]
(5, Round(tables=(Table(sides=((2, 5), (3, 4))),), out=(1,)))
>>> partners(6, rounds=2).to_json()["rounds"][0]
{'tables': [[[2, 5], [3, 4]]], 'out': [1, 6]}
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from euchre.night.whist import WHIST_COUNTS, whist_rounds

__all__ = [
    "FORMATS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MIN_PLAYERS",
    "Format",
    "Round",
    "Schedule",
    "ScheduleError",
    "Table",
    "full_rounds",
    "make_schedule",
    "opposed_counts",
    "partnered_counts",
    "partners",
    "teams",
    "winners_first_round",
    "winners_next_round",
]

Format = Literal["partners", "winners", "teams"]
FORMATS: Final[tuple[Format, ...]] = get_args(Format)
"""The movements: rotating partners, winners move up, fixed teams."""

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 64
MAX_ROUNDS: Final = 64
"""The most rounds of a night of winners or of fixed teams (rotating partners stop at
the end of their cycle: :func:`full_rounds`)."""

Pair = tuple[int, int]


class ScheduleError(ValueError):
    """A night that cannot be seated: too few or too many players or rounds, fixed
    teams of an odd number of players, results that do not fit the round."""


@dataclass(frozen=True)
class Table:
    """One table of a round: two partnerships, each two player numbers (from 1)."""

    sides: tuple[Pair, Pair]

    @property
    def players(self) -> tuple[int, int, int, int]:
        """The four players, partnership by partnership."""
        (a, b), (c, d) = self.sides
        return a, b, c, d


@dataclass(frozen=True)
class Round:
    """One round: its tables (the head table first) and who sits it out."""

    tables: tuple[Table, ...]
    out: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"tables": [[[a, b], [c, d]], ...], "out": [e, ...]}``."""
        return {"tables": [[list(side) for side in t.sides] for t in self.tables],
                "out": list(self.out)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        """The round :meth:`to_json` wrote."""
        return cls(tuple(Table((_pair(a), _pair(b))) for a, b in data["tables"]),
                   tuple(int(p) for p in data.get("out", ())))


def _pair(side: Sequence[Any]) -> Pair:
    a, b = side
    return int(a), int(b)


@dataclass(frozen=True)
class Schedule:
    """A night's seating: the number of players, the movement and the rounds."""

    players: int
    format: Format
    rounds: tuple[Round, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"players": N, "format": "...", "rounds": [...]}`` (:meth:`Round.to_json`)."""
        return {"players": self.players, "format": self.format,
                "rounds": [r.to_json() for r in self.rounds]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Schedule:
        """The schedule :meth:`to_json` wrote."""
        fmt = data["format"]
        if fmt not in FORMATS:
            raise ScheduleError(f"no such format: {fmt!r}")
        return cls(int(data["players"]), fmt,
                   tuple(Round.from_json(r) for r in data["rounds"]))


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ScheduleError(f"a night seats {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                            f"not {players}")


def full_rounds(players: int, fmt: Format = "partners") -> int:
    """The rounds of a whole night: rotating partners, the whole cycle of partners (N - 1
    rounds for an even N, N for an odd N: everyone sits out as often); fixed teams,
    until each odd team has met each even team; winners move up, one round per table
    and at least five.

    >>> full_rounds(8), full_rounds(13), full_rounds(16, "teams"), full_rounds(24, "winners")
    (7, 13, 4, 6)
    """
    _check_players(players)
    if fmt == "partners":
        return players - 1 if players % 2 == 0 else players
    if fmt == "teams":
        return (players // 2 + 1) // 2
    return max(5, players // 4)


def _check_rounds(players: int, fmt: Format, rounds: int | None) -> int:
    most = full_rounds(players) if fmt == "partners" else MAX_ROUNDS
    if rounds is None:
        return full_rounds(players, fmt)
    if not 1 <= rounds <= most:
        raise ScheduleError(f"a night of {players} players in format {fmt} has 1 to "
                            f"{most} rounds, not {rounds}")
    return rounds


# ---- counts ------------------------------------------------------------------------

def partnered_counts(rounds: Iterable[Round]) -> dict[frozenset[int], int]:
    """How often each pair of players partnered (pairs that never did are absent)."""
    counts: dict[frozenset[int], int] = {}
    for r in rounds:
        for t in r.tables:
            for a, b in t.sides:
                key = frozenset((a, b))
                counts[key] = counts.get(key, 0) + 1
    return counts


def opposed_counts(rounds: Iterable[Round]) -> dict[frozenset[int], int]:
    """How often each pair of players opposed (pairs that never did are absent)."""
    counts: dict[frozenset[int], int] = {}
    for r in rounds:
        for t in r.tables:
            (a, b), (c, d) = t.sides
            for x, y in ((a, c), (a, d), (b, c), (b, d)):
                key = frozenset((x, y))
                counts[key] = counts.get(key, 0) + 1
    return counts


# ---- rotating partners -------------------------------------------------------------

def _circle(n_even: int, r: int) -> list[Pair]:
    """Round ``r`` of the round-robin of ``n_even`` players (numbered from 0): the
    circle method over Z_{n-1} and a fixed point ``n - 1``, which partners ``r``."""
    n = n_even - 1
    return [(n, r)] + [((r + i) % n, (r - i) % n) for i in range(1, n // 2 + 1)]


def _round_robin(players: int) -> list[tuple[list[Pair], list[int]]]:
    """The whole night's partnerships and sit-outs, players from 0, for any count.

    Every round's partnerships come from one round of the round-robin of the even
    count at or above ``players``, so no pair partners twice.  The sit-outs: N ≡ 1 (mod
    4), the partner of the phantom (player N), so each player once, in turn; N ≡ 3, the
    phantom's partner ``r`` and the partnership ``r - 1, r + 1`` beside it, the rounds
    played in the order that takes the players three by three round the circle;
    N ≡ 2, one partnership of each round (:func:`_k2_sitouts`).
    """
    k = players % 4
    if k == 0:
        return [(_circle(players, r), []) for r in range(players - 1)]
    if k == 2:
        return [([p for p in _circle(players, r) if p != pair], list(pair))
                for r, pair in _k2_sitouts(players)]
    phantom = players
    night = []
    for r in _k3_order(players) if k == 3 else range(players):
        pairs = [p for p in _circle(players + 1, r) if phantom not in p]
        out = [r]
        if k == 3:
            beside = ((r + 1) % players, (r - 1) % players)
            pairs.remove(beside)
            out = [beside[1], r, beside[0]]
        night.append((pairs, out))
    return night


def _k2_sitouts(players: int) -> list[tuple[int, Pair]]:
    """The rounds of a night of N = 4t + 2 players in the order played, each with the
    partnership of the round-robin that sits it out (over Z_n, n = 4t + 1, and ∞ = n).

    A finite pair ``a, b`` are partners in round ``(a + b) / 2``, ∞ and ``r`` in round
    ``r``.  First lap, everyone once: ∞ and 0, then 1 and 2, 3 and 4, ... 4t - 1 and 4t
    (their sums 0 and 3, 7, ... 8t - 1 are distinct modulo n).  Second lap, everyone
    but 2t + 1 and 4t once: 2 and 3, 4 and 5, ... 4t - 2 and 4t - 1 but not 2t and
    2t + 1 (whose round, sum 4t + 1 = 0, is ∞'s), then 0 and 1 (sum 1) and ∞ and 2t
    (round 2t, as sum 4t): all the sums left.

    >>> _k2_sitouts(6)
    [(0, (5, 0)), (4, (1, 2)), (1, (3, 4)), (3, (0, 1)), (2, (5, 2))]
    """
    n = players - 1
    half = (n + 1) // 2  # 1/2 modulo n
    t = (players - 2) // 4

    def finite(a: int, b: int) -> tuple[int, Pair]:
        r = (a + b) * half % n
        pair = next(p for p in _circle(players, r) if set(p) == {a, b})
        return r, pair

    first = [(0, (n, 0))] + [finite(x, x + 1) for x in range(1, n, 2)]
    second = [finite(x, x + 1) for x in range(2, 4 * t - 1, 2) if x != 2 * t]
    second += [finite(0, 1), (2 * t, (n, 2 * t))]
    return first + second


def _k3_order(players: int) -> list[int]:
    """The rounds of a night of N ≡ 3 (mod 4) players in the order played: round ``r``
    sits out ``r - 1, r, r + 1``, so the rounds go three by three round the circle
    (when 3 divides N, one lap from 1, then one from 2, then one from 3).

    >>> _k3_order(7), _k3_order(15)[:6]
    ([1, 4, 0, 3, 6, 2, 5], [1, 4, 7, 10, 13, 2])
    """
    if players % 3:
        return [(1 + 3 * j) % players for j in range(players)]
    lap = players // 3
    return [(1 + j // lap + 3 * (j % lap)) % players for j in range(players)]


def _cost(count: int) -> int:
    """What one more meeting of a pair that already opposed ``count`` times costs: a
    third meeting of a pair far more than a second, and a second than a first."""
    return 1 << (3 * count)  # 8 ** count


def _seat(pairs: Sequence[Pair], opposed: dict[Pair, int]) -> list[tuple[Pair, Pair]]:
    """The partnerships of a round seated two by two at tables, greedily, so that the
    pairs who opposed least meet."""
    def cost(p: Pair, q: Pair) -> int:
        return sum(_cost(opposed.get(k, 0)) for k in _crossings(p, q))

    left = list(pairs)
    tables: list[tuple[Pair, Pair]] = []
    while left:
        p = left.pop(0)
        q = min(left, key=lambda q: cost(p, q))
        left.remove(q)
        tables.append((p, q))
    return tables


def _key(x: int, y: int) -> Pair:
    return (x, y) if x < y else (y, x)


def _crossings(p: Pair, q: Pair) -> list[Pair]:
    """The four pairs of opponents when partnerships ``p`` and ``q`` meet."""
    return [_key(x, y) for x in p for y in q]


def _seated(night: Sequence[tuple[list[Pair], list[int]]],
            passes: int = 1) -> list[tuple[list[tuple[Pair, Pair]], list[int]]]:
    """Each round of ``night`` (partnerships and sit-outs) seated at tables: round by
    round greedily, then the whole night improved by re-pairing the partnerships of two
    tables of a round wherever that makes the meetings of opponents more even (less
    :func:`_cost` summed over every pair), for at most ``passes`` passes."""
    opposed: dict[Pair, int] = {}
    seated = []
    for pairs, sitting in night:
        tables = _seat(pairs, opposed)
        for p, q in tables:
            for k in _crossings(p, q):
                opposed[k] = opposed.get(k, 0) + 1
        seated.append((tables, sitting))

    def change(remove: list[Pair], add: list[Pair]) -> int:
        delta = 0
        for k in remove:
            c = opposed[k]
            delta += _cost(c - 1) - _cost(c)
            opposed[k] = c - 1
        for k in add:
            c = opposed.get(k, 0)
            delta += _cost(c + 1) - _cost(c)
            opposed[k] = c + 1
        return delta

    for _ in range(passes):
        improved = False
        for tables, _sitting in seated:
            for i, j in itertools.combinations(range(len(tables)), 2):
                (p, q), (r, s) = tables[i], tables[j]
                before = _crossings(p, q) + _crossings(r, s)
                for first, second in (((p, r), (q, s)), ((p, s), (q, r))):
                    after = _crossings(*first) + _crossings(*second)
                    if change(before, after) < 0:
                        tables[i], tables[j] = first, second
                        improved = True
                        break
                    change(after, before)
        if not improved:
            break
    return seated


def _spread(rounds: Sequence[tuple[Sequence[tuple[Pair, Pair]], Sequence[int]]]) -> tuple[int, int]:
    """How unevenly ``rounds`` seat opponents: the most meetings of a pair, and the sum
    of the squares of the meetings (less is more even)."""
    counts: dict[Pair, int] = {}
    for tables, _ in rounds:
        for (a, b), (c, d) in tables:
            for x, y in ((a, c), (a, d), (b, c), (b, d)):
                k = (x, y) if x < y else (y, x)
                counts[k] = counts.get(k, 0) + 1
    return max(counts.values(), default=0), sum(c * c for c in counts.values())


def partners(players: int, rounds: int | None = None, seed: int | None = None) -> Schedule:
    """A night of rotating partners for ``players`` (4 to 64), ``rounds`` long (at most,
    and by default, the whole cycle: :func:`full_rounds`).

    The whole cycle of N ≡ 0 or 1 (mod 4) players up to 32 (and 33, 36, 37, 53, 61) is a
    whist tournament (each pair partners once and opposes twice).  Otherwise, and for a
    shorter night, no pair partners twice, the sit-outs go round so that nobody sits out
    twice before everyone has once, and the opponents are spread: the shorter night is
    the start of the whist tournament or of the round-robin seated afresh, whichever
    spreads them more evenly.
    ``seed`` relabels the players at random (the same seed, the same night).

    >>> night = partners(8)
    >>> len(night.rounds), sorted(set(opposed_counts(night.rounds).values()))
    (7, [2])
    >>> [len(r.out) for r in partners(11, rounds=3).rounds]
    [3, 3, 3]
    """
    _check_players(players)
    length = _check_rounds(players, "partners", rounds)
    whole = length == full_rounds(players)
    if players in WHIST_COUNTS and whole:
        chosen = list(whist_rounds(players))
    else:
        chosen = _seated(_round_robin(players)[:length])
        if players in WHIST_COUNTS:
            start = list(whist_rounds(players))[:length]
            if _spread(start) <= _spread(chosen):
                chosen = start
    label = list(range(1, players + 1))
    if seed is not None:
        random.Random(seed).shuffle(label)
    return Schedule(players, "partners", tuple(
        Round(tuple(Table(((label[a], label[b]), (label[c], label[d])))
                    for (a, b), (c, d) in tables),
              tuple(sorted(label[p] for p in out)))
        for tables, out in chosen))


# ---- fixed teams -------------------------------------------------------------------

def teams(players: int, rounds: int | None = None) -> Schedule:
    """A night of fixed teams: players 1 and 2 are team 1, 3 and 4 team 2, ...; at first
    team 1 meets team 2 at the head table, team 3 meets team 4 at the next; then each
    round the even teams stay and the odd teams move up a table (the head table's odd
    team goes to the foot).  With an odd number of teams the last table has no even
    team: the odd team there sits out.  ``rounds`` defaults to one lap (each odd team
    meets each even team once), at most :data:`MAX_ROUNDS`.

    >>> [r.to_json()["tables"] for r in teams(8).rounds]
    [[[[1, 2], [3, 4]], [[5, 6], [7, 8]]], [[[5, 6], [3, 4]], [[1, 2], [7, 8]]]]
    >>> teams(6).rounds[1]
    Round(tables=(Table(sides=((5, 6), (3, 4))),), out=(1, 2))
    """
    _check_players(players)
    if players % 2:
        raise ScheduleError(f"fixed teams need an even number of players, not {players}")
    length = _check_rounds(players, "teams", rounds)
    n_teams = players // 2
    places = (n_teams + 1) // 2

    def team(number: int) -> Pair:
        return 2 * number - 1, 2 * number

    night = []
    for j in range(length):
        tables: list[Table] = []
        out: list[int] = []
        for place in range(places):
            odd = 2 * ((place + j) % places) + 1  # the odd team that reaches `place`
            even = 2 * place + 2
            if even <= n_teams:
                tables.append(Table((team(odd), team(even))))
            else:
                out.extend(team(odd))
        night.append(Round(tuple(tables), tuple(out)))
    return Schedule(players, "teams", tuple(night))


# ---- winners move up ---------------------------------------------------------------

def winners_first_round(players: int, seed: int | None = None) -> Round:
    """The first round of a night where winners move up: players in order (or shuffled
    by ``seed``), four to a table from the head table, 1 and 2 against 3 and 4; the last
    N mod 4 sit out.

    >>> winners_first_round(9)
    Round(tables=(Table(sides=((1, 2), (3, 4))), Table(sides=((5, 6), (7, 8)))), out=(9,))
    """
    _check_players(players)
    order = list(range(1, players + 1))
    if seed is not None:
        random.Random(seed).shuffle(order)
    n_tables = players // 4
    tables = tuple(Table(((order[4 * t], order[4 * t + 1]), (order[4 * t + 2], order[4 * t + 3])))
                   for t in range(n_tables))
    return Round(tables, tuple(order[4 * n_tables:]))


def winners_next_round(players: int, played: Sequence[Round], results: Sequence[int]) -> Round:
    """The round after the last of ``played``, given its ``results`` (for each table,
    head table first, the side that won: 0 or 1).

    The winners of each table split and move up a table, the losers split and move
    down; the head table's winners stay, and so do the foot table's losers.  At each
    table the pair who came from above and the pair who came from below split: each
    partners one of the others.  Then the N mod 4 players who sat out fewest times (of
    those who played; the lowest tables first) sit out, and those who sat out the last
    round take their seats, so nobody sits out twice before everyone has once.

    >>> first = winners_first_round(8)
    >>> winners_next_round(8, [first], [1, 0])
    Round(tables=(Table(sides=((3, 5), (4, 6))), Table(sides=((1, 7), (2, 8)))), out=())
    """
    _check_players(players)
    if not played:
        raise ScheduleError("the next round needs the rounds played so far")
    last = played[-1]
    if len(results) != len(last.tables) or any(w not in (0, 1) for w in results):
        raise ScheduleError(f"the last round had {len(last.tables)} tables: give 0 or 1 "
                            f"(the side that won) for each, not {list(results)}")
    n = len(last.tables)
    won = [t.sides[w] for t, w in zip(last.tables, results, strict=True)]
    lost = [t.sides[1 - w] for t, w in zip(last.tables, results, strict=True)]
    seats: list[list[int]] = []  # per table: above[0], below[0], above[1], below[1]
    for t in range(n):
        above = lost[t - 1] if t > 0 else won[0]
        below = won[t + 1] if t < n - 1 else lost[n - 1]
        seats.append([above[0], below[0], above[1], below[1]])
    count = {p: 0 for p in range(1, players + 1)}
    for r in played:
        for p in r.out:
            count[p] += 1
    coming_back = list(last.out)
    if coming_back:
        # the lowest tables' players first, the last seat of a table first
        candidates = [(count[p], -t, -s, p) for t, row in enumerate(seats)
                      for s, p in enumerate(row)]
        out = [p for *_, p in sorted(candidates)[:len(coming_back)]]
        back = iter(coming_back)
        seats = [[next(back) if p in out else p for p in row] for row in seats]
    else:
        out = []
    tables = tuple(Table(((row[0], row[1]), (row[2], row[3]))) for row in seats)
    return Round(tables, tuple(sorted(out)))


def make_schedule(players: int, fmt: Format = "partners", rounds: int | None = None,
                  seed: int | None = None) -> Schedule:
    """The schedule of a night in any format; winners move up gives only its first
    round (the next ones follow from the results: :func:`winners_next_round`).

    >>> make_schedule(12, "winners").rounds[0].out
    ()
    """
    if fmt == "partners":
        return partners(players, rounds, seed)
    if fmt == "teams":
        return teams(players, rounds)
    if fmt == "winners":
        _check_rounds(players, fmt, rounds)
        return Schedule(players, "winners", (winners_first_round(players, seed),))
    raise ScheduleError(f"no such format: {fmt!r}")
