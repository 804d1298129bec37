"""Tournaments: bots against each other over many deals, duplicate, on every core.

A :class:`Tournament` names the rules, the bots (by name, e.g. ``("basic", "random")``),
the number of deal sets and a seed.  :func:`run_tournament` plays it, in chunks, on as
many worker processes as asked, and returns a :class:`TournamentResult`: for each bot its
points per deal with a 95% confidence interval, its share of the games won, and an
Elo-style rating.  Nothing here prints.

**Seating** (:func:`seatings`).  A *seating* gives each seat one of the bots.

* As many names as players: one bot a seat; the seatings are the ``n`` rotations, so each
  bot sits once in each seat.  Four-handed, the first and third names are partners
  (seats 0 and 2), as are the second and fourth.
* Two names four-handed: teams.  The first bot holds seats 0 and 2, the second 1 and 3,
  then the other way round: two seatings.
* Two names two-handed: one each, two seatings.
* Two names three- or five-handed: one seat for one bot and the rest for the other.
  Every seat in turn is the single seat, and each bot in turn is the single one:
  ``2 × n`` seatings.  Each bot then holds each seat equally often, alone as often as
  in company of copies of itself.
* One name: self-play, one seating.

Any other count is refused with a :class:`ValueError`.

**Duplicate** (the default).  Deal set ``i`` is one shuffle, ``Deal.random(rules, dealer_i,
random.Random(f"{seed}/deal/{i}"))``, played again under every seating, so each bot
holds each dealt hand (each seat's cards) equally often in every set, and the luck of the
cards cancels out of the comparison.  Without duplicate, every seating gets its own
shuffle of set ``i``.  The dealer of set ``i`` is ``(d + i) mod n`` for a first dealer
``d`` drawn from the seed, the same under every seating.

**Points per deal.**  For each bot and set: the mean of the points scored by the seats that
bot held, over the seatings (RULES §9; four-handed that is its side's points; a
thrown-in deal scores 0).  The reported figure is the mean of those per-set means, with
a 95% confidence interval from Student's t over the per-set means: the sets are the
independent units, so duplicate pairing, which makes the bots' per-set means move
together, narrows the interval of their difference.  ``margin`` is a bot's per-set mean
minus the mean of the other bots' per-set means, with its own interval; with two bots it
is the paired difference that duplicate is for.

**Utility per deal.**  Three- and five-handed a euchre scores for every defender, so raw
points hide strength.  A seat's *utility* for a deal is its points minus the mean of the
other seats' points (the measure under which those games are zero-sum); ``utility`` and
``utility_margin`` are taken over the sets exactly as points and margin are.  Two-handed
it is the seat's points minus the other's; four-handed, two thirds of its side's points
minus the opponents'.

**Games and the win rate.**  The deal sets are also played as games to the target: under
each seating, deals follow one another in set order with the running score (the deal
is built with it, so a bot may take the score into account), and when a seat reaches
the target the game ends (the highest score wins, ties share, RULES §10) and the next
deal starts a new game at 0.  Work is cut in chunks of consecutive sets
(:data:`CHUNK_SIZE`); each chunk starts with fresh games, and a game still going when
a chunk's sets run out is finished with extra *overtime* deals (dealt from the seed and
the chunk, duplicate like the others), which count for the game but not for points
per deal.  So every game is whole, and in duplicate every game is played on the same
sequence of cards under every seating.  A game's win is split equally among the
winning seats and credited to the bots that held them; a bot's ``win_rate`` is its
credit over the number of games (every bot sits in every game, so with two bots the
two rates add up to 1, with ``n`` bots one each to 1 as well).

**Elo.**  Bradley–Terry ratings on the Elo scale (400 points = odds of 10 to 1) fitted by
maximum likelihood to the pairwise game results: in each game, each pair of bots that
won anything splits a game between them in proportion to their credit (a game one of
them won counts as a win over the other; a game won by a third bot says nothing about
the pair).  One virtual drawn game is added to every pair that met, so a clean sweep
still gets a finite rating.  The ratings are shifted so that their mean is 1500.  Two
bots that always play as partners (four names four-handed) always draw each other.

**Workers and determinism.**  Chunks are independent: a worker builds the bots itself,
by name, seeded from the tournament seed, the chunk and the seat (nothing unpicklable
crosses processes), and the results are put back in chunk order.  So the results
depend on the rules, bots, deals, seed, duplicate and chunk size, never on the number
of workers or the backend: the pieces (a chunk under one seating) run through
:mod:`euchre.jobs.distributed`, in this process, on a pool of processes or on Ray, and
:func:`reduce_parts` puts them together in piece order, never in the order they finished
(``--checkpoint`` resumes from the pieces already done).  A worker plays one chunk under
one seating at a time (the seatings of a
chunk are independent of each other), so a tournament of one chunk still keeps as many
workers busy as it has seatings.  Workers are started with ``spawn`` (safe with threads
and with OpenSpiel), so a script that runs a tournament on several workers needs the usual
``if __name__ == "__main__":`` guard.

>>> t = Tournament(Rules(players=2), ("random", "random"), deals=4, seed=1)
>>> t.seatings
((0, 1), (1, 0))
>>> result = run_tournament(t)
>>> [r.bot for r in result.results], result.deals_played >= 8
(['random', 'random #2'], True)
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from euchre.bots import make_bot, normal_name, play_deal
from euchre.deal import Deal
from euchre.jobs.distributed import Backend, Status, StatusHook, run_job
from euchre.rules import Rules
from euchre.sides import utility as seat_utility

__all__ = [
    "CHUNK_SIZE",
    "BotResult",
    "ChunkResult",
    "DealHook",
    "Progress",
    "Tournament",
    "TournamentResult",
    "check_bots",
    "default_workers",
    "elo_ratings",
    "mean_ci",
    "reduce_parts",
    "run_chunk",
    "run_tournament",
    "seatings",
    "t_quantile",
    "work_units",
]

CHUNK_SIZE: Final = 50
"""Deal sets per chunk of work (and per run of games; see the module's docstring)."""

_T975: Final = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z975: Final = 1.959963984540054


# -- statistics ---------------------------------------------------------------------------
def t_quantile(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (two-sided 95%).

    Exact to three decimals up to 30, then a Cornish–Fisher expansion around the normal.

    >>> t_quantile(1), t_quantile(30), round(t_quantile(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom are 1 or more, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``values`` and its 95% confidence interval (Student's t).

    The interval is ``None`` for fewer than two values.

    >>> mean, (low, high) = mean_ci([1.0, 2.0, 3.0])
    >>> mean, round(low, 3), round(high, 3)
    (2.0, -0.484, 4.484)
    >>> mean_ci([5.0])
    (5.0, None)
    """
    m = len(values)
    if m == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / m
    if m < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (m - 1)
    half = t_quantile(m - 1) * math.sqrt(var / m)
    return mean, (mean - half, mean + half)


def elo_ratings(
    scores: Sequence[Sequence[float]],
    games: Sequence[Sequence[float]],
    prior_draws: float = 1.0,
) -> list[float]:
    """Bradley–Terry ratings on the Elo scale, mean 1500.

    ``scores[i][j]`` is what bot ``i`` scored against bot ``j`` (1 a win, ½ a draw) over
    ``games[i][j]`` games.  ``prior_draws`` virtual draws are added to every pair that
    met.  Fitted by the minorisation–maximisation iteration (Hunter 2004).

    With two bots it is the closed form ``400 log10(p / (1 - p))`` apart, here
    ``p = 75.5 / 101``:

    >>> [round(r) for r in elo_ratings([[0, 75], [25, 0]], [[0, 100], [100, 0]])]
    [1594, 1406]
    """
    k = len(scores)
    s = [[float(scores[i][j]) for j in range(k)] for i in range(k)]
    n = [[float(games[i][j]) for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j] > 0:
                s[i][j] += prior_draws / 2
                n[i][j] += prior_draws
    wins = [math.fsum(s[i]) for i in range(k)]
    gamma = [1.0] * k
    for _ in range(10_000):
        new = []
        for i in range(k):
            denom = math.fsum(n[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i)
            new.append(wins[i] / denom if denom > 0 and wins[i] > 0 else gamma[i])
        log_mean = math.fsum(math.log(g) for g in new) / k
        new = [g / math.exp(log_mean) for g in new]
        change = max(abs(a - b) / b for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < 1e-12:
            break
    ratings = [400 * math.log10(g) for g in gamma]
    shift = 1500 - math.fsum(ratings) / k
    return [r + shift for r in ratings]


# -- seating ---------------------------------------------------------------------------------
def seatings(players: int, bots: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of ``bots`` bots at ``players`` seats: ``seating[s]`` is the bot at seat s.

    >>> seatings(4, 2)
    ((0, 1, 0, 1), (1, 0, 1, 0))
    >>> seatings(3, 2)[:3]
    ((0, 1, 1), (1, 0, 1), (1, 1, 0))
    >>> seatings(3, 3)
    ((0, 1, 2), (2, 0, 1), (1, 2, 0))
    """
    n = players
    if bots == 1:
        return ((0,) * n,)
    if bots == n:
        return tuple(tuple((s - r) % n for s in range(n)) for r in range(n))
    if bots == 2 and n == 4:
        return ((0, 1, 0, 1), (1, 0, 1, 0))
    if bots == 2 and n in (3, 5):
        return tuple(
            tuple(lone if s == seat else 1 - lone for s in range(n))
            for lone in (0, 1) for seat in range(n)
        )
    counts = "1, 2 or 4 (partners: 1st and 3rd, 2nd and 4th)" if n == 4 else f"1, 2 or {n}"
    raise ValueError(f"a {n}-player tournament takes {counts} bot names, not {bots}")


def _labels(names: Sequence[str]) -> list[str]:
    """Names made unique: a repeated name gets `` #2``, `` #3``…"""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} #{seen[name]}")
    return out


# -- the tournament --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Tournament:
    """What to play: rules, bot names, deal sets, duplicate or not, seed, chunk size."""

    rules: Rules
    bots: tuple[str, ...]
    deals: int
    duplicate: bool = True
    seed: int = 0
    chunk_size: int = CHUNK_SIZE

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", tuple(normal_name(b) for b in self.bots))
        if not self.bots:
            raise ValueError("a tournament needs at least one bot")
        if self.deals < 1:
            raise ValueError(f"a tournament plays 1 or more deals, not {self.deals}")
        if self.chunk_size < 1:
            raise ValueError(f"the chunk size is 1 or more, not {self.chunk_size}")
        seatings(self.rules.players, len(self.bots))  # refuses a bad count

    @property
    def seatings(self) -> tuple[tuple[int, ...], ...]:
        """The seatings every deal set is played under (see :func:`seatings`)."""
        return seatings(self.rules.players, len(self.bots))

    @property
    def labels(self) -> list[str]:
        """The bots' names, made unique (`` #2`` on a repeated name)."""
        return _labels(self.bots)

    @property
    def chunks(self) -> int:
        """How many chunks of work."""
        return -(-self.deals // self.chunk_size)

    def chunk_sets(self, chunk: int) -> range:
        """The deal sets of a chunk."""
        start = chunk * self.chunk_size
        return range(start, min(start + self.chunk_size, self.deals))

    @property
    def first_dealer(self) -> int:
        """The dealer of deal set 0; set ``i`` is dealt by ``(first_dealer + i) mod n``."""
        return random.Random(f"{self.seed}/dealer").randrange(self.rules.players)

    def deal(self, index: int, rotation: int = 0, scores: Sequence[int] | None = None) -> Deal:
        """Deal set ``index`` as seating ``rotation`` gets it (the same for all in duplicate)."""
        key = f"{self.seed}/deal/{index}"
        if not self.duplicate:
            key += f"/seating/{rotation}"
        dealer = (self.first_dealer + index) % self.rules.players
        return Deal.random(self.rules, dealer, random.Random(key), scores=scores)

    # -- the work, for euchre.jobs.distributed: a unit is a chunk under one seating ----------
    kind = "tournament"

    def units(self) -> int:
        """Pieces of work: a chunk of deal sets under one seating (:func:`work_units`)."""
        return self.chunks * len(self.seatings)

    def parameters(self) -> dict[str, Any]:
        """What the result depends on (a checkpoint's identity).  ``pieces`` names the
        form of a checkpoint's lines: 2 since they carry the utility."""
        return {"rules": self.rules.to_dict(), "bots": list(self.bots), "deals": self.deals,
                "duplicate": self.duplicate, "seed": self.seed,
                "chunk_size": self.chunk_size, "pieces": 2}

    def run_unit(self, unit: int) -> dict[str, Any]:
        """Play piece ``unit``: chunk ``unit // seatings`` under seating ``unit % seatings``."""
        rotations = len(self.seatings)
        return _play_part(self, unit // rotations, (unit % rotations,)).to_json()

    def settle(self, unit: int, output: dict[str, Any]) -> dict[str, Any]:
        """A piece's summary is what it sent."""
        return output

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals a piece played."""
        return int(summary["played"])

    def overtime_deal(self, chunk: int, number: int, rotation: int = 0,
                      scores: Sequence[int] | None = None) -> Deal:
        """The ``number``-th deal after a chunk's sets, to finish a game in progress."""
        key = f"{self.seed}/overtime/{chunk}/{number}"
        if not self.duplicate:
            key += f"/seating/{rotation}"
        end = self.chunk_sets(chunk).stop
        dealer = (self.first_dealer + end + number) % self.rules.players
        return Deal.random(self.rules, dealer, random.Random(key), scores=scores)


@dataclass(slots=True)
class ChunkResult:
    """What one chunk produced: per-set points per bot, per-game win credit per bot."""

    chunk: int
    set_points: list[list[float]]
    """``set_points[i][b]``: bot b's mean points per seat-deal in the chunk's i-th set."""
    set_utility: list[list[float]]
    """``set_utility[i][b]``: the same for the seat's utility (the module doc)."""
    game_credit: list[list[float]]
    """``game_credit[g][b]``: bot b's share of game g's win (the shares add up to 1)."""
    deals_played: int
    """Deals played, every seating and the overtime included."""
    seconds: float


DealHook = Callable[[int | None, int, Deal], None]
"""Called after each deal with the set index (``None`` for overtime), seating and deal."""


def run_chunk(tournament: Tournament, chunk: int, on_deal: DealHook | None = None,
              rotations: Sequence[int] | None = None) -> ChunkResult:
    """Play one chunk's deal sets under every seating (or only ``rotations``, a share of
    the work whose shares :func:`merge_chunk` puts together), as games to the target."""
    start = time.perf_counter()
    part = _play_part(tournament, chunk, rotations, on_deal)
    return _chunk_result(tournament, chunk, [part], time.perf_counter() - start)


@dataclass(slots=True)
class _Part:
    """What some seatings of a chunk produced: the bots' summed points per set (whole
    numbers, so their sum does not depend on the order it is taken in), the games'
    win credit in seating order, and the deals played."""

    chunk: int
    rotations: tuple[int, ...]
    sums: list[list[float]]
    utility: list[list[float]]
    """The bots' summed utility per set, times ``n - 1`` (whole numbers, as ``sums``)."""
    credit: list[list[float]]
    played: int
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The piece as JSON (a checkpoint's line, what crosses to the driver)."""
        return {"chunk": self.chunk, "rotations": list(self.rotations), "sums": self.sums,
                "utility": self.utility, "credit": self.credit, "played": self.played}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> _Part:
        """The piece back from :meth:`to_json`."""
        return cls(data["chunk"], tuple(data["rotations"]), data["sums"], data["utility"],
                   data["credit"], data["played"])


def _play_part(tournament: Tournament, chunk: int, rotations: Sequence[int] | None,
               on_deal: DealHook | None = None) -> _Part:
    start = time.perf_counter()
    t = tournament
    rules = t.rules
    n, k = rules.players, len(t.bots)
    sets = t.chunk_sets(chunk)
    table = t.seatings
    chosen = tuple(range(len(table))) if rotations is None else tuple(rotations)
    sums = [[0.0] * k for _ in sets]
    utility = [[0.0] * k for _ in sets]
    credit: list[list[float]] = []
    played = 0
    for r in chosen:
        seating = table[r]
        bots = [make_bot(t.bots[b], random.Random(f"{t.seed}/bot/{chunk}/{r}/{s}"))
                for s, b in enumerate(seating)]
        scores = [0] * n
        in_game = 0

        def score(deal: Deal, seating: tuple[int, ...] = seating) -> None:
            nonlocal in_game, scores
            for s, p in enumerate(deal.result.points):
                scores[s] += p
            in_game += 1
            if max(scores) >= rules.target:
                best = max(scores)
                winners = [s for s in range(n) if scores[s] == best]
                shares = [0.0] * k
                for s in winners:
                    shares[seating[s]] += 1 / len(winners)
                credit.append(shares)
                scores = [0] * n
                in_game = 0

        for i, index in enumerate(sets):
            deal = play_deal(t.deal(index, r, scores), bots)
            played += 1
            points = deal.result.points
            for s, p in enumerate(points):
                sums[i][seating[s]] += p
                utility[i][seating[s]] += round((n - 1) * seat_utility(points, s))
            score(deal)
            if on_deal is not None:
                on_deal(index, r, deal)
        number = 0
        while in_game:
            deal = play_deal(t.overtime_deal(chunk, number, r, scores), bots)
            played += 1
            number += 1
            score(deal)
            if on_deal is not None:
                on_deal(None, r, deal)
    return _Part(chunk, chosen, sums, utility, credit, played, time.perf_counter() - start)


def _chunk_result(t: Tournament, chunk: int, parts: Sequence[_Part],
                  seconds: float) -> ChunkResult:
    """A chunk from its parts, taken in seating order."""
    k = len(t.bots)
    occupancy = [sum(seating.count(b) for seating in t.seatings) for b in range(k)]
    ordered = sorted(parts, key=lambda p: p.rotations)
    sums = [[0.0] * k for _ in t.chunk_sets(chunk)]
    usums = [[0.0] * k for _ in t.chunk_sets(chunk)]
    for part in ordered:
        for total, add in ((sums, part.sums), (usums, part.utility)):
            for row, more in zip(total, add, strict=True):
                for b in range(k):
                    row[b] += more[b]
    set_points = [[row[b] / occupancy[b] for b in range(k)] for row in sums]
    others = t.rules.players - 1
    set_utility = [[row[b] / occupancy[b] / others for b in range(k)] for row in usums]
    credit = [shares for part in ordered for shares in part.credit]
    return ChunkResult(chunk, set_points, set_utility, credit,
                       sum(p.played for p in ordered), seconds)


def work_units(tournament: Tournament) -> int:
    """The pieces the work is cut in, each for one worker: a chunk of deal sets under
    one seating.  More workers than this would sit idle."""
    return tournament.chunks * len(tournament.seatings)


# -- results -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's figures in a tournament."""

    bot: str
    """The bot's label: its name (`` #2`` on a repeated name)."""
    points_per_deal: float
    ci95: tuple[float, float] | None
    margin: float | None
    """Points per deal minus the other bots' mean, per set (``None`` with one bot)."""
    margin_ci95: tuple[float, float] | None
    games: int
    wins: float
    """Games won, a shared win counted by its share."""
    win_rate: float
    elo: float
    utility: float = 0.0
    """Utility per deal: a seat's points minus the others' mean (the module doc)."""
    utility_ci95: tuple[float, float] | None = None
    utility_margin: float | None = None
    """Utility per deal minus the other bots' mean, per set (``None`` with one bot)."""
    utility_margin_ci95: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The bot's entry in the ``results`` list of ``euchre tournament --json``."""
        return {
            "bot": self.bot,
            "points_per_deal": self.points_per_deal,
            "ci95": None if self.ci95 is None else list(self.ci95),
            "margin": self.margin,
            "margin_ci95": None if self.margin_ci95 is None else list(self.margin_ci95),
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "elo": self.elo,
            "utility": self.utility,
            "utility_ci95": None if self.utility_ci95 is None else list(self.utility_ci95),
            "utility_margin": self.utility_margin,
            "utility_margin_ci95": (None if self.utility_margin_ci95 is None
                                    else list(self.utility_margin_ci95)),
        }


@dataclass(slots=True)
class TournamentResult:
    """A played tournament: the raw per-set and per-game figures, and each bot's summary."""

    tournament: Tournament
    set_points: list[list[float]]
    set_utility: list[list[float]]
    """Per set and bot, the utility per seat-deal (the module doc)."""
    game_credit: list[list[float]]
    deals_played: int
    seconds: float
    workers: int
    results: list[BotResult] = field(init=False)

    def __post_init__(self) -> None:
        self.results = _summarise(self.tournament, self.set_points, self.game_credit,
                                  self.set_utility)

    @property
    def games(self) -> int:
        """Whole games played, over all seatings."""
        return len(self.game_credit)

    def to_json(self) -> dict[str, Any]:
        """The object ``euchre tournament --json`` prints."""
        t = self.tournament
        return {
            "rules": t.rules.to_dict(),
            "bots": list(t.bots),
            "deals": t.deals,
            "duplicate": t.duplicate,
            "seatings": [list(s) for s in t.seatings],
            "seed": t.seed,
            "chunk_size": t.chunk_size,
            "deals_played": self.deals_played,
            "games": self.games,
            "workers": self.workers,
            "seconds": round(self.seconds, 6),
            "results": [r.to_json() for r in self.results],
        }


def _margins(rows: list[list[float]], b: int
             ) -> tuple[float | None, tuple[float, float] | None]:
    """Bot ``b``'s per-set value minus the other bots' mean, with its interval."""
    k = len(rows[0]) if rows else 0
    if k < 2:
        return None, None
    return mean_ci([row[b] - (math.fsum(row) - row[b]) / (k - 1) for row in rows])


def _summarise(t: Tournament, set_points: list[list[float]],
               credit: list[list[float]], set_utility: list[list[float]]) -> list[BotResult]:
    k = len(t.bots)
    games = len(credit)
    pair_scores = [[0.0] * k for _ in range(k)]
    pair_games = [[0.0] * k for _ in range(k)]
    for shares in credit:
        for i in range(k):
            for j in range(i + 1, k):
                total = shares[i] + shares[j]
                if total > 0:
                    pair_scores[i][j] += shares[i] / total
                    pair_scores[j][i] += shares[j] / total
                    pair_games[i][j] += 1
                    pair_games[j][i] += 1
    elo = elo_ratings(pair_scores, pair_games)
    out = []
    for b, label in enumerate(t.labels):
        mean, ci = mean_ci([row[b] for row in set_points])
        margin, margin_ci = _margins(set_points, b)
        umean, uci = mean_ci([row[b] for row in set_utility])
        umargin, umargin_ci = _margins(set_utility, b)
        wins = math.fsum(shares[b] for shares in credit)
        out.append(BotResult(label, mean, ci, margin, margin_ci, games, wins,
                             wins / games if games else 0.0, elo[b],
                             umean, uci, umargin, umargin_ci))
    return out


# -- running -------------------------------------------------------------------------------------
Progress = Callable[[int, int, int], None]
"""Called as chunks finish with (deal sets done, deal sets in all, deals played so far)."""


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def check_bots(tournament: Tournament) -> None:
    """Build each bot once and let it refuse the rules (``check_rules``); raises ValueError."""
    for name in dict.fromkeys(tournament.bots):
        bot = make_bot(name, 0)
        check = getattr(bot, "check_rules", None)
        if check is not None:
            check(tournament.rules)


def run_tournament(
    tournament: Tournament,
    workers: int = 1,
    progress: Progress | None = None,
    backend: Backend | None = None,
    checkpoint: Path | None = None,
    status: StatusHook | None = None,
) -> TournamentResult:
    """Play a tournament on ``workers`` processes (1: in this process), or on ``backend``
    (:class:`euchre.jobs.distributed.Backend`: a pool of processes or Ray).

    The work is cut in :func:`work_units` pieces (a chunk under one seating), so at
    most that many workers are used; the pieces are put together in their order, never
    in the order they finished (:func:`reduce_parts`), so the result does not depend on
    the backend or the workers.  The bots are checked first (:func:`check_bots`).
    ``checkpoint``: a file of finished pieces to resume from and append to
    (:func:`euchre.jobs.distributed.run_job`).
    """
    if backend is None:
        if workers < 1:
            raise ValueError(f"workers are 1 or more, not {workers}")
        backend = Backend("local", min(workers, work_units(tournament)))
    check_bots(tournament)

    rotations = len(tournament.seatings)
    pieces = [0] * tournament.chunks
    sets = 0

    def report(s: Status) -> None:
        nonlocal sets
        for unit in (*s.skipped, *(() if s.unit is None else (s.unit,))):
            chunk = unit // rotations
            pieces[chunk] += 1
            if pieces[chunk] == rotations:
                sets += len(tournament.chunk_sets(chunk))
                if progress is not None and s.unit is not None:
                    progress(sets, tournament.deals, s.deals)
        if status is not None:
            status(s)

    run = run_job(tournament, backend, checkpoint, report)
    if backend.kind == "ray":
        used = run.workers
    elif backend.auto:  # the processes of the pool if one started, else this one
        used = len({place for place in run.where if place[1] != os.getpid()}) or 1
    else:
        used = max(1, min(backend.workers or 1, work_units(tournament)))
    return reduce_parts(tournament, run.summaries, run.seconds, used)


def reduce_parts(tournament: Tournament, summaries: Sequence[dict[str, Any]],
                 seconds: float, workers: int) -> TournamentResult:
    """The tournament's result from its pieces' summaries, in piece order (the one
    reduction, whatever ran the pieces)."""
    rotations = len(tournament.seatings)
    parts = [_Part.from_json(s) for s in summaries]
    chunks = [_chunk_result(tournament, c, parts[c * rotations:(c + 1) * rotations], 0.0)
              for c in range(tournament.chunks)]
    return TournamentResult(
        tournament,
        [row for r in chunks for row in r.set_points],
        [row for r in chunks for row in r.set_utility],
        [g for r in chunks for g in r.game_credit],
        sum(p.played for p in parts),
        seconds,
        workers,
    )
