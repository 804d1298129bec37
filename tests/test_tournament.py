"""Tournaments: seatings, duplicate deals, determinism across workers, and the statistics."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

import pytest

from euchre import Rules
from euchre.deal import Deal
from euchre.jobs.tournament import (
    Tournament,
    TournamentResult,
    elo_ratings,
    mean_ci,
    run_chunk,
    run_tournament,
    seatings,
    t_quantile,
)

CASES = [(2, ("basic", "random")), (3, ("basic", "random")), (3, ("basic", "random", "random")),
         (4, ("basic", "random")), (4, ("basic", "random", "random", "basic")),
         (5, ("basic", "random"))]


@pytest.mark.parametrize(("players", "bots"), [(2, 1), (2, 2), (3, 2), (3, 3), (4, 2), (4, 4),
                                               (5, 2), (5, 5)])
def test_every_bot_holds_every_seat_equally_often(players: int, bots: int) -> None:
    table = seatings(players, bots)
    per_seat = [Counter(seating[s] for seating in table) for s in range(players)]
    for counts in per_seat:
        assert set(counts) == set(range(bots))
        assert len(set(counts.values())) == 1, counts
    if bots == 2 and players in (3, 5):
        # alone as often as in company: each bot is the single seat once per seat
        singles = Counter(b for seating in table for b in range(2) if seating.count(b) == 1)
        assert singles == {0: players, 1: players}


@pytest.mark.parametrize(("players", "bots"), [(4, 3), (5, 3), (5, 4), (3, 4), (2, 3)])
def test_a_bad_number_of_names_is_refused(players: int, bots: int) -> None:
    with pytest.raises(ValueError, match="bot names"):
        Tournament(Rules(players=players), ("random",) * bots, deals=4)


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="deals"):
        Tournament(Rules(players=4), ("random", "basic"), deals=0)
    with pytest.raises(ValueError, match="workers"):
        run_tournament(Tournament(Rules(players=4), ("random", "basic"), deals=2), workers=0)


def _hand_key(deal: Deal, seat: int) -> int:
    return deal.dealt[seat]


@pytest.mark.parametrize(("players", "bots"), CASES)
def test_duplicate_rotates_the_hands(players: int, bots: tuple[str, ...]) -> None:
    t = Tournament(Rules(players=players), bots, deals=6, seed=5, chunk_size=6)
    table = t.seatings
    held: dict[int, Counter[tuple[int, int]]] = defaultdict(Counter)
    dealt: dict[int, set[tuple[tuple[int, ...], int, str]]] = defaultdict(set)
    overtime: dict[int, list[tuple[tuple[int, ...], str]]] = defaultdict(list)

    def record(index: int | None, rotation: int, deal: Deal) -> None:
        if index is None:
            overtime[rotation].append((deal.dealt, str(deal.turnup)))
            return
        dealt[index].add((deal.dealt, deal.dealer, str(deal.turnup)))
        for seat in range(players):
            held[index][(table[rotation][seat], _hand_key(deal, seat))] += 1

    result = run_chunk(t, 0, on_deal=record)
    assert len(result.set_points) == 6
    k = len(bots)
    for index in range(6):
        # one shuffle per set: the same cards and dealer under every seating
        assert len(dealt[index]) == 1
        hands = next(iter(dealt[index]))[0]
        # each bot held each dealt hand, equally often
        for b in range(k):
            counts = {h: held[index][(b, h)] for h in hands}
            assert len(set(counts.values())) == 1 and min(counts.values()) >= 1, counts
        assert sum(held[index].values()) == len(table) * players
    # the overtime deals are duplicate too: the j-th is the same wherever it was needed
    for j in range(max((len(v) for v in overtime.values()), default=0)):
        assert len({v[j] for v in overtime.values() if len(v) > j}) == 1


def test_without_duplicate_each_seating_gets_its_own_cards() -> None:
    t = Tournament(Rules(players=4), ("basic", "random"), deals=5, duplicate=False, seed=2)
    dealt: dict[int, set[tuple[int, ...]]] = defaultdict(set)
    run_chunk(t, 0, on_deal=lambda i, r, d: dealt[i].add(d.dealt) if i is not None else None)
    assert all(len(hands) == 2 for hands in dealt.values())


def _comparable(result: TournamentResult) -> dict[str, Any]:
    data = result.to_json()
    del data["seconds"], data["workers"]
    return data


def test_the_same_seed_gives_the_same_result_on_one_or_two_workers() -> None:
    t = Tournament(Rules(players=3), ("basic", "random"), deals=24, seed=7, chunk_size=8)
    seen: list[tuple[int, int, int]] = []
    one = run_tournament(t, workers=1, progress=lambda *a: seen.append(a))
    two = run_tournament(t, workers=2)
    assert two.workers == 2
    assert _comparable(one) == _comparable(two)
    assert one.set_points == two.set_points and one.game_credit == two.game_credit
    assert [s[0] for s in seen] == [8, 16, 24] and all(s[1] == 24 for s in seen)
    assert seen[-1][2] == one.deals_played
    other = run_tournament(Tournament(Rules(players=3), ("basic", "random"), deals=24,
                                      seed=8, chunk_size=8))
    assert other.set_points != one.set_points


def test_t_quantiles() -> None:
    assert t_quantile(1) == 12.706
    assert t_quantile(10) == 2.228
    assert t_quantile(40) == pytest.approx(2.021, abs=1e-3)
    assert t_quantile(120) == pytest.approx(1.980, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(1.95996, abs=1e-4)


def test_mean_and_interval() -> None:
    mean, ci = mean_ci([2.0, 4.0, 6.0, 8.0])
    assert mean == 5.0
    assert ci is not None
    sd = math.sqrt(20 / 3)
    half = 3.182 * sd / 2
    assert ci == pytest.approx((5 - half, 5 + half))
    assert mean_ci([3.0, 3.0]) == (3.0, (3.0, 3.0))
    assert mean_ci([1.0]) == (1.0, None)


def test_elo_ratings() -> None:
    # an even record: both at 1500
    assert elo_ratings([[0, 5], [5, 0]], [[0, 10], [10, 0]]) == pytest.approx([1500, 1500])
    # a clean sweep stays finite thanks to the virtual draw: 10.5 to 0.5
    a, b = elo_ratings([[0, 10], [0, 0]], [[0, 10], [10, 0]])
    assert a - b == pytest.approx(400 * math.log10(10.5 / 0.5))
    assert (a + b) / 2 == pytest.approx(1500)
    # three bots: transitive results give ordered ratings with mean 1500
    r = elo_ratings([[0, 7, 9], [3, 0, 7], [1, 3, 0]], [[0, 10, 10], [10, 0, 10], [10, 10, 0]])
    assert r[0] > r[1] > r[2]
    assert sum(r) / 3 == pytest.approx(1500)


def test_points_win_rate_and_elo_on_a_known_case() -> None:
    t = Tournament(Rules(players=4), ("basic", "random"), deals=3)
    result = TournamentResult(t, set_points=[[1.0, 0.0], [2.0, 1.0], [3.0, 2.0]],
                              set_utility=[[0.5, -0.5], [0.5, -0.5], [1.0, -1.0]],
                              game_credit=[[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.5, 0.5]],
                              deals_played=8, seconds=1.0, workers=1)
    basic, rand = result.results
    assert basic.points_per_deal == 2.0 and rand.points_per_deal == 1.0
    assert basic.ci95 == pytest.approx((2 - 4.303 / math.sqrt(3), 2 + 4.303 / math.sqrt(3)))
    # the paired difference is always 1: no spread at all
    assert basic.margin == 1.0 and basic.margin_ci95 == (1.0, 1.0)
    assert rand.margin == -1.0
    assert (basic.wins, basic.games, basic.win_rate) == (2.5, 4, 0.625)
    assert rand.win_rate == 0.375
    # 2.5 of 4 plus a virtual draw: 3 of 5
    assert basic.elo - rand.elo == pytest.approx(400 * math.log10(3 / 2))
    assert basic.elo + rand.elo == pytest.approx(3000)
    assert basic.utility == pytest.approx(2 / 3) and basic.utility_margin == pytest.approx(4 / 3)


def test_utility_is_own_points_minus_the_others_mean_three_handed() -> None:
    # RULES §9: a euchre scores for both defenders, so raw points rise together; the
    # utility (own points minus the others' mean) of every deal sums to zero over the seats
    t = Tournament(Rules(players=3), ("basic", "random"), deals=4, seed=2)
    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    held = [0, 0]
    for seating in t.seatings:
        for b in seating:
            held[b] += 1

    def record(index: int | None, rotation: int, deal: Deal) -> None:
        points = deal.result.points
        assert sum(p - (sum(points) - p) / 2 for p in points) == pytest.approx(0.0)
        if index is not None:
            for s, p in enumerate(points):
                sums[index][t.seatings[rotation][s]] += p - (sum(points) - p) / 2

    part = run_chunk(t, 0, on_deal=record)
    expected = [sums[i][b] / held[b] for i in range(4) for b in range(2)]
    assert [u for row in part.set_utility for u in row] == pytest.approx(expected)
    result = run_tournament(t, workers=1)
    assert [u for row in result.set_utility for u in row] == pytest.approx(expected)
    basic, rand = result.results
    assert basic.utility_margin is not None and rand.utility_margin is not None
    assert basic.utility_margin == pytest.approx(-rand.utility_margin)
    assert basic.utility == pytest.approx(sum(expected[0::2]) / 4)
    assert "utility_margin" in result.to_json()["results"][0]


def test_json_keys() -> None:
    t = Tournament(Rules(players=2), ("basic", "random"), deals=6, seed=3)
    data = run_tournament(t).to_json()
    assert {"rules", "bots", "deals", "duplicate", "seatings", "seed", "deals_played",
            "games", "workers", "seconds", "results"} <= set(data)
    assert [r["bot"] for r in data["results"]] == ["basic", "random"]
    for entry in data["results"]:
        assert {"bot", "points_per_deal", "ci95", "win_rate", "margin", "margin_ci95",
                "games", "wins", "elo"} <= set(entry)
        low, high = entry["ci95"]
        assert low <= entry["points_per_deal"] <= high
        assert 0 <= entry["win_rate"] <= 1
    assert sum(r["win_rate"] for r in data["results"]) == pytest.approx(1)


@pytest.mark.parametrize(("players", "bots"), CASES)
def test_games_are_whole_and_the_win_credit_adds_up(players: int, bots: tuple[str, ...]) -> None:
    t = Tournament(Rules(players=players, target=5), bots, deals=10, seed=4, chunk_size=5)
    result = run_tournament(t)
    assert result.games >= 2 * len(t.seatings)  # at least one game per seating per chunk
    assert all(sum(credit) == pytest.approx(1) for credit in result.game_credit)
    assert sum(r.win_rate for r in result.results) == pytest.approx(1)
    assert result.deals_played >= 10 * len(t.seatings)
    assert sum(r.elo for r in result.results) / len(bots) == pytest.approx(1500)


def test_random_against_random_is_even() -> None:
    t = Tournament(Rules(players=4), ("random", "random"), deals=300, seed=12)
    a, b = run_tournament(t).results
    assert (a.bot, b.bot) == ("random", "random #2")
    assert a.ci95 is not None and b.ci95 is not None and a.margin_ci95 is not None
    assert a.ci95[0] <= b.points_per_deal <= a.ci95[1]
    assert b.ci95[0] <= a.points_per_deal <= b.ci95[1]
    assert a.margin_ci95[0] <= 0 <= a.margin_ci95[1]


def test_basic_beats_random_four_handed() -> None:
    t = Tournament(Rules(players=4), ("basic", "random"), deals=100, seed=1)
    basic, rand = run_tournament(t).results
    assert basic.margin is not None and basic.margin_ci95 is not None
    assert basic.margin_ci95[0] > 0
    assert basic.win_rate > 0.8 and basic.elo > rand.elo
