"""A season: several club nights of the same club, their leaderboard and a rating.

A season's players are known by name (each night numbers its own players; the same
name, whatever its case and spacing, is the same player).  The **leaderboard** adds up
every night by its own scoring (:func:`~euchre.night.scoring.round_points`): total
points, nights played, rounds won, rounds scored and the average per round, ranked as a
night is (total, then rounds won; players still level share their place and are
flagged ``tied``).

The **rating** is the Weng-Lin Bayesian rating of the ``openskill`` library (its
Plackett-Luce model): each table of each round is a match of two partnerships, in the
order the nights and their rounds were played, the side with more points the winner
(equal points: a draw).  Both partners of a side move together; a player who sits a
round out, or misses a night, is not rated for it.  ``ordinal`` (``mu - 3 sigma``)
ranks the players: it rises as the rating grows surer.

Besides, for the night itself (:func:`player_rounds`): each player's rounds, one line a
round (table, partner, opponents, points for and against, what they scored).

Pure functions over plain data: the same nights give the same answer, and each answer
has ``to_json``.

>>> from euchre.night.schedule import teams
>>> from euchre.night.scoring import NightScoring, RoundResult, TableResult
>>> r = teams(4).rounds[0]
>>> names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}
>>> first = SeasonNight("1", "2026-11-01", NightScoring(), names,
...                     (RoundResult(r, (TableResult((9, 3)),)),))
>>> [(line.place, line.name, str(line.total)) for line in leaderboard([first])]
[(1, 'Ann', '9'), (1, 'Bo', '9'), (3, 'Cy', '3'), (3, 'Di', '3')]
>>> [(x.name, x.matches) for x in ratings([first])][:2]
[('Ann', 1), ('Bo', 1)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from euchre.night.scoring import NightScoring, RoundResult, ranked, round_points, standings

__all__ = [
    "Leader",
    "PlayerRound",
    "Rating",
    "SeasonNight",
    "leaderboard",
    "player_key",
    "player_rounds",
    "ratings",
    "to_number",
]


def player_key(name: str) -> str:
    """Who a name is across a season's nights: its words, case folded.

    >>> player_key("  Ann  Lee ") == player_key("ann lee")
    True
    """
    return " ".join(name.split()).casefold()


def to_number(x: Fraction) -> int | str:
    """A number of points as JSON: a whole number, or a fraction as text (``"17/2"``).

    >>> to_number(Fraction(4)), to_number(Fraction(17, 2))
    (4, '17/2')
    """
    return int(x) if x.denominator == 1 else str(x)


@dataclass(frozen=True)
class SeasonNight:
    """A night of a season: its id, day, scoring, its players' names by number, and the
    results of the rounds it ended, in the order played.  A player without a name is
    not counted in the season (they cannot be told apart from night to night)."""

    id: str
    day: str
    scoring: NightScoring
    names: Mapping[int, str]
    results: tuple[RoundResult, ...]


@dataclass(frozen=True)
class Leader:
    """One line of a season's leaderboard: the place (shared by players level after the
    tie-breaks), the name (as first met), total points, nights and rounds (played or
    sat out) they scored in, rounds won, the average per round, and ``tied``."""

    place: int
    name: str
    total: Fraction
    nights: int
    rounds: int
    won: int
    tied: bool

    @property
    def average(self) -> Fraction:
        """The points per round scored."""
        return self.total / self.rounds if self.rounds else Fraction(0)

    def to_json(self) -> dict[str, Any]:
        """``{"place", "name", "total", "nights", "rounds", "won", "average", "tied"}``
        (``total`` as :func:`to_number`, ``average`` to two decimals)."""
        return {"place": self.place, "name": self.name, "total": to_number(self.total),
                "nights": self.nights, "rounds": self.rounds, "won": self.won,
                "average": round(float(self.average), 2), "tied": self.tied}


def _named(night: SeasonNight) -> dict[int, str]:
    return {p: n for p, n in night.names.items() if player_key(n)}


def leaderboard(nights: Sequence[SeasonNight]) -> tuple[Leader, ...]:
    """The season's leaderboard: by total points, then rounds won; players still level
    share their place, are listed by name and flagged ``tied``."""
    shown: dict[str, str] = {}
    total: dict[str, Fraction] = {}
    count: dict[str, list[int]] = {}  # nights, rounds, won
    for night in nights:
        named = _named(night)
        rounds: dict[int, int] = {}
        for result in night.results:
            for p in round_points(result, night.scoring):
                rounds[p] = rounds.get(p, 0) + 1
        for line in standings(night.results, night.scoring, named):
            if line.player not in named:
                continue
            k = player_key(line.name)
            shown.setdefault(k, " ".join(line.name.split()))
            total[k] = total.get(k, Fraction(0)) + line.total
            c = count.setdefault(k, [0, 0, 0])
            c[0] += 1
            c[1] += rounds.get(line.player, 0)
            c[2] += line.won
    won = {k: c[2] for k, c in count.items()}
    return tuple(Leader(place, shown[k], total[k], count[k][0], count[k][1], count[k][2],
                        tied)
                 for place, k, tied in ranked(total, won, lambda k: k))


@dataclass(frozen=True)
class Rating:
    """A player's rating after the season's nights: ``mu`` (the skill estimated),
    ``sigma`` (its uncertainty), ``ordinal`` (``mu - 3 sigma``, what ranks them) and the
    matches (tables) rated."""

    name: str
    mu: float
    sigma: float
    matches: int

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a rating the player is very likely above."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """``{"name", "mu", "sigma", "ordinal", "matches"}`` (to three decimals)."""
        return {"name": self.name, "mu": round(self.mu, 3), "sigma": round(self.sigma, 3),
                "ordinal": round(self.ordinal, 3), "matches": self.matches}


def ratings(nights: Sequence[SeasonNight]) -> tuple[Rating, ...]:
    """Each player's rating after the nights (in the order given, each night's rounds in
    the order played; each table a match of its two partnerships, decided by their
    points), best ``ordinal`` first, then by name.  A table with a player who has no
    name is not rated."""
    model = PlackettLuce()
    shown: dict[str, str] = {}
    rated: dict[str, Any] = {}
    matches: dict[str, int] = {}
    for night in nights:
        named = _named(night)
        for result in night.results:
            for table, res in zip(result.round.tables, result.tables, strict=True):
                players = [p for side in table.sides for p in side]
                if any(p not in named for p in players):
                    continue
                keys = [player_key(named[p]) for p in players]
                for p, k in zip(players, keys, strict=True):
                    shown.setdefault(k, " ".join(named[p].split()))
                    if k not in rated:
                        rated[k] = model.rating(name=k)
                    matches[k] = matches.get(k, 0) + 1
                a, b, c, d = (rated[k] for k in keys)
                [[a, b], [c, d]] = model.rate([[a, b], [c, d]], scores=list(res.points))
                for k, r in zip(keys, (a, b, c, d), strict=True):
                    rated[k] = r
    lines = [Rating(shown[k], float(r.mu), float(r.sigma), matches[k])
             for k, r in rated.items()]
    return tuple(sorted(lines, key=lambda x: (-x.ordinal, player_key(x.name))))


@dataclass(frozen=True)
class PlayerRound:
    """One round of one player at a night: the round (from 1), the table (from 1;
    ``None``: sat out), partner and opponents (numbers), the points of their side and
    of the other, what they scored (a sit-out: by the night's policy) and whether their
    side won the table."""

    round: int
    table: int | None
    partner: int | None
    opponents: tuple[int, ...]
    points: int | None
    against: int | None
    scored: Fraction
    won: bool

    def to_json(self) -> dict[str, Any]:
        """The round as JSON (``scored`` as :func:`to_number`)."""
        return {"round": self.round, "table": self.table, "partner": self.partner,
                "opponents": list(self.opponents), "points": self.points,
                "against": self.against, "scored": to_number(self.scored), "won": self.won}


def player_rounds(results: Sequence[RoundResult], scoring: NightScoring
                  ) -> dict[int, list[PlayerRound]]:
    """Each player's rounds at a night (by number), in the order played.

    >>> from euchre.night.schedule import partners
    >>> from euchre.night.scoring import TableResult
    >>> r = partners(5).rounds[0]
    >>> rounds = player_rounds([RoundResult(r, (TableResult((7, 4)),))], NightScoring())
    >>> rounds[2][0].partner, rounds[2][0].points, rounds[1][0].table, str(rounds[1][0].scored)
    (5, 7, None, '11/2')
    """
    out: dict[int, list[PlayerRound]] = {}
    for number, result in enumerate(results, 1):
        scored = round_points(result, scoring)
        for t, (table, res) in enumerate(zip(result.round.tables, result.tables,
                                             strict=True), 1):
            for side, pair in enumerate(table.sides):
                made, other = res.points[side], res.points[1 - side]
                for p in pair:
                    partner = pair[1] if pair[0] == p else pair[0]
                    out.setdefault(p, []).append(PlayerRound(
                        number, t, partner, tuple(table.sides[1 - side]), made, other,
                        scored[p], made > other))
        for p in result.round.out:
            out.setdefault(p, []).append(PlayerRound(number, None, None, (), None, None,
                                                     scored[p], False))
    return dict(sorted(out.items()))
