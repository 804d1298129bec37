"""The seating of a club night (issue 32, item 2), checked for every count of players
from 4 to 64 in each movement, not a sample: whist tournaments where they are shipped,
and otherwise no pair partnering twice, the sit-outs spread, the opponents spread.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from euchre.night import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Round,
    Schedule,
    ScheduleError,
    full_rounds,
    opposed_counts,
    partnered_counts,
    partners,
    teams,
    winners_first_round,
    winners_next_round,
)
from euchre.night.whist import WHIST_COUNTS

COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
WHIST = [n for n in range(4, 33) if n % 4 in (0, 1)]


def seated(r: Round) -> list[int]:
    """Everyone the round places: at its tables, then sitting out."""
    return [p for t in r.tables for p in t.players] + list(r.out)


def check_seats_everyone_once(players: int, rounds: tuple[Round, ...]) -> None:
    """Each round seats every player exactly once, four to a table."""
    for r in rounds:
        assert sorted(seated(r)) == list(range(1, players + 1))


def check_sit_outs_spread(players: int, rounds: tuple[Round, ...]) -> None:
    """After every round the players' sit-outs differ by at most one: nobody sits out
    twice before everyone has once; and N mod 4 sit out each round."""
    count = Counter({p: 0 for p in range(1, players + 1)})
    for r in rounds:
        assert len(r.out) == players % 4
        count.update(r.out)
        assert max(count.values()) - min(count.values()) <= 1


def ideal_squares(players: int, rounds: tuple[Round, ...]) -> int:
    """The least sum over the pairs of their meetings squared that the night's opposed
    meetings allow: every pair meets ⌊m⌋ or ⌈m⌉ times, m the mean."""
    meetings = 4 * sum(len(r.tables) for r in rounds)
    pairs = players * (players - 1) // 2
    q, extra = divmod(meetings, pairs)
    return pairs * q * q + extra * (2 * q + 1)


def test_a_whist_tournament_is_shipped_for_every_count_0_or_1_mod_4_up_to_32() -> None:
    """And for the larger counts where one was found (33, 36) or built (37, 53, 61)."""
    assert set(WHIST) <= WHIST_COUNTS
    assert all(n % 4 in (0, 1) and n <= MAX_PLAYERS for n in WHIST_COUNTS)


@pytest.mark.parametrize("players", sorted(WHIST_COUNTS))
def test_whist_tournament_each_pair_partners_once_and_opposes_twice(players: int) -> None:
    """The whole night of N ≡ 0 or 1 (mod 4) players up to 32 (and those shipped
    beyond): N - 1 rounds where
    everyone plays (N ≡ 0), N rounds with one player out each round (N ≡ 1)."""
    night = partners(players)
    assert len(night.rounds) == (players - 1 if players % 4 == 0 else players)
    check_seats_everyone_once(players, night.rounds)
    check_sit_outs_spread(players, night.rounds)
    everyone = [frozenset(p) for p in itertools.combinations(range(1, players + 1), 2)]
    partnered = partnered_counts(night.rounds)
    opposed = opposed_counts(night.rounds)
    assert all(partnered.get(pair) == 1 for pair in everyone)
    assert all(opposed.get(pair) == 2 for pair in everyone)


@pytest.mark.parametrize("players", COUNTS)
def test_rotating_partners_whole_night_for_every_count(players: int) -> None:
    """Every count from 4 to 64: the whole cycle (N - 1 rounds for an even N, N for an
    odd N), no pair partners twice, the sit-outs spread, and the opponents spread: no
    pair meets more than three times more often than the mean allows, and the sum of
    the meetings squared stays within a third of the least possible (a heuristic's
    bound, not an optimum)."""
    night = partners(players)
    assert len(night.rounds) == full_rounds(players)
    check_seats_everyone_once(players, night.rounds)
    check_sit_outs_spread(players, night.rounds)
    assert max(partnered_counts(night.rounds).values()) == 1
    opposed = opposed_counts(night.rounds)
    mean = 4 * sum(len(r.tables) for r in night.rounds) / (players * (players - 1) / 2)
    assert max(opposed.values()) <= mean + 3
    squares = sum(c * c for c in opposed.values())
    assert squares <= 1.34 * ideal_squares(players, night.rounds)


def short_nights(players: int) -> list[int]:
    """A few lengths shorter than the whole cycle: 1, 2, 3, half, all but one."""
    full = full_rounds(players)
    return sorted({r for r in (1, 2, 3, full // 2, full - 1) if 1 <= r < full})


@pytest.mark.parametrize("players", COUNTS)
def test_rotating_partners_short_nights_for_every_count(players: int) -> None:
    """A night shorter than the cycle keeps the rules: no pair partners twice, the
    sit-outs spread, nobody meets the same opponent more than twice when the mean
    meetings are under one, and the sum of the meetings squared stays within 60% of
    the least possible."""
    for length in short_nights(players):
        night = partners(players, rounds=length)
        assert len(night.rounds) == length
        check_seats_everyone_once(players, night.rounds)
        check_sit_outs_spread(players, night.rounds)
        assert max(partnered_counts(night.rounds).values(), default=0) <= 1
        opposed = opposed_counts(night.rounds)
        squares = sum(c * c for c in opposed.values())
        assert squares <= 1.6 * ideal_squares(players, night.rounds)
        if 2 * length < players - 1:
            assert max(opposed.values()) <= 2 + (players == 6)


def test_rotating_partners_first_round_of_a_short_night_has_no_repeat() -> None:
    night = partners(24, rounds=1)
    assert set(opposed_counts(night.rounds).values()) == {1}


def test_a_seed_relabels_the_players_and_is_repeatable() -> None:
    a, b, plain = partners(17, seed=3), partners(17, seed=3), partners(17)
    assert a == b and a != plain
    assert sorted(Counter(opposed_counts(a.rounds).values()).items()) == [(2, 136)]


@pytest.mark.parametrize("players", [3, 0, -1, 65, 100])
def test_a_night_seats_4_to_64_players(players: int) -> None:
    with pytest.raises(ScheduleError, match="4 to 64 players"):
        partners(players)


@pytest.mark.parametrize("rounds", [0, -2, 8])
def test_rotating_partners_stop_at_the_end_of_the_cycle(rounds: int) -> None:
    with pytest.raises(ScheduleError, match="1 to 7 rounds"):
        partners(8, rounds=rounds)


# ---- fixed teams -------------------------------------------------------------------

@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1, 2))
def test_fixed_teams_for_every_even_count(players: int) -> None:
    """The teams never change; the even teams keep their table, the odd teams move up
    one table a round (from the head table to the foot); over a lap each odd team meets
    each even team once; with an odd number of teams, one odd team sits out each round,
    never the same twice in a lap."""
    n_teams = players // 2
    places = (n_teams + 1) // 2
    night = teams(players)
    assert len(night.rounds) == places == full_rounds(players, "teams")
    check_seats_everyone_once(players, night.rounds)
    team_of = {p: (p + 1) // 2 for p in range(1, players + 1)}
    met: Counter[tuple[int, int]] = Counter()
    place_of: list[dict[int, int]] = []
    for r in night.rounds:
        here = {}
        for k, t in enumerate(r.tables):
            odd, even = (team_of[side[0]] for side in t.sides)
            assert [team_of[p] for p in t.sides[0]] == [odd, odd]
            assert [team_of[p] for p in t.sides[1]] == [even, even]
            assert odd % 2 == 1 and even == 2 * k + 2  # an even team keeps its table
            here[odd] = k
            met[odd, even] += 1
        if n_teams % 2:
            assert len(r.out) == 2 and team_of[r.out[0]] % 2 == 1
            here[team_of[r.out[0]]] = places - 1
        else:
            assert r.out == ()
        place_of.append(here)
    for before, after in itertools.pairwise(place_of):
        assert all(after[t] == (before[t] - 1) % places for t in before)
    assert set(met.values()) == {1}
    assert len(met) == (n_teams // 2) * places


def test_fixed_teams_continue_round_the_tables_past_a_lap() -> None:
    night = teams(8, rounds=5)
    assert [r.tables for r in night.rounds[2:4]] == [r.tables for r in night.rounds[:2]]


@pytest.mark.parametrize("players", range(MIN_PLAYERS + 1, MAX_PLAYERS, 2))
def test_fixed_teams_refuse_an_odd_count(players: int) -> None:
    with pytest.raises(ScheduleError, match="even number of players"):
        teams(players)


# ---- winners move up ---------------------------------------------------------------

def play_winners(players: int, rounds: int, seed: int) -> list[tuple[Round, list[int]]]:
    """A night of winners move up with random results: each round and its results."""
    rng = random.Random(seed)
    played: list[Round] = [winners_first_round(players)]
    out = []
    for _ in range(rounds):
        results = [rng.randrange(2) for _ in played[-1].tables]
        out.append((played[-1], results))
        played.append(winners_next_round(players, played, results))
    return out


@pytest.mark.parametrize("players", COUNTS)
def test_winners_move_up_for_every_count(players: int) -> None:
    """Each round follows from the last: the winners of a table sit one table higher
    (the head table's stay), the losers one lower (the foot table's stay), every pair
    of partners is split, the players who sat out come back, and nobody sits out twice
    before everyone has once."""
    night = play_winners(players, rounds=12, seed=players)
    rounds = tuple(r for r, _ in night)
    check_seats_everyone_once(players, rounds)
    check_sit_outs_spread(players, rounds)
    for (r, results), (nxt, _) in itertools.pairwise(night):
        table_of = {p: k for k, t in enumerate(nxt.tables) for p in t.players}
        last = len(r.tables) - 1
        for k, (t, won) in enumerate(zip(r.tables, results, strict=True)):
            for p in t.sides[won]:
                assert p in nxt.out or table_of[p] == max(k - 1, 0)
            for p in t.sides[1 - won]:
                assert p in nxt.out or table_of[p] == min(k + 1, last)
        assert not set(partnered_counts([r])) & set(partnered_counts([nxt]))
        assert not set(r.out) & set(nxt.out)


def test_winners_first_round_seats_players_in_order() -> None:
    first = winners_first_round(14)
    assert first.to_json() == {"tables": [[[1, 2], [3, 4]], [[5, 6], [7, 8]],
                                          [[9, 10], [11, 12]]], "out": [13, 14]}


@pytest.mark.parametrize("results", [[0], [0, 1, 1], [0, 2], [-1, 0]])
def test_winners_next_round_refuses_results_that_do_not_fit(results: list[int]) -> None:
    first = winners_first_round(8)
    with pytest.raises(ScheduleError, match="the last round had 2 tables"):
        winners_next_round(8, [first], results)


# ---- the plain data ----------------------------------------------------------------

@pytest.mark.parametrize("night", [partners(13), teams(10), partners(6, rounds=2)])
def test_a_schedule_is_json_and_back(night: Schedule) -> None:
    data = json.loads(json.dumps(night.to_json()))
    assert set(data) == {"players", "format", "rounds"}
    assert all(set(r) == {"tables", "out"} for r in data["rounds"])
    assert all(len(t) == 2 and all(len(side) == 2 for side in t)
               for r in data["rounds"] for t in r["tables"])
    assert Schedule.from_json(data) == night
