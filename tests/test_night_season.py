"""A season of club nights (issue 32, item 6; euchre.night.season): the leaderboard adds
up every night by its own scoring and ranks with the night's tie-breaks; the rating
(openskill) moves a partnership's winners up and its losers down, both partners alike,
follows the order the nights were played, and leaves alone whoever missed a night."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.night import NightScoring, RoundResult, TableResult, partners, teams
from euchre.night.season import (
    SeasonNight,
    leaderboard,
    player_key,
    player_rounds,
    ratings,
)

FOUR = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}


def night(day: str, names: dict[int, str], *points: tuple[int, int],
          scoring: NightScoring | None = None) -> SeasonNight:
    """A night of ``len(names)`` players, its rotating-partners rounds with each table
    of each round scoring ``points`` (one pair a round)."""
    chart = partners(len(names), rounds=len(points))
    results = tuple(RoundResult(r, tuple(TableResult(p) for _ in r.tables))
                    for r, p in zip(chart.rounds, points, strict=True))
    return SeasonNight(day, day, scoring or NightScoring(), names, results)


def one_table(day: str, names: dict[int, str], a: int, b: int) -> SeasonNight:
    """Fixed teams at one table, players 1 and 2 against 3 and 4, for one round."""
    r = teams(4).rounds[0]
    return SeasonNight(day, day, NightScoring(), names,
                       (RoundResult(r, (TableResult((a, b)),)),))


def by_name(nights: list[SeasonNight]) -> dict[str, float]:
    return {x.name: x.mu for x in ratings(nights)}


def test_the_rating_moves_the_winning_partnership_up_and_the_losers_down() -> None:
    after = by_name([one_table("d1", FOUR, 9, 2)])
    assert after["Ann"] > 25 > after["Cy"]
    assert ratings([one_table("d1", FOUR, 9, 2)])[0].name in {"Ann", "Bo"}


def test_a_partnerships_result_updates_both_partners_alike() -> None:
    rated = {x.name: x for x in ratings([one_table("d1", FOUR, 3, 8)])}
    assert rated["Ann"].mu == rated["Bo"].mu < rated["Cy"].mu == rated["Di"].mu
    assert rated["Ann"].sigma == rated["Bo"].sigma
    assert all(x.matches == 1 for x in rated.values())


def test_equal_points_at_a_table_are_a_draw() -> None:
    after = by_name([one_table("d1", FOUR, 5, 5)])
    assert after["Ann"] == after["Cy"]


def test_the_ratings_follow_the_order_the_nights_were_played() -> None:
    first = one_table("d1", FOUR, 9, 1)
    second = one_table("d2", FOUR, 1, 9)
    forward, backward = by_name([first, second]), by_name([second, first])
    assert forward != backward
    # the later night weighs more: the side that won it ends ahead
    assert forward["Cy"] > forward["Ann"] and backward["Ann"] > backward["Cy"]
    assert by_name([first, second]) == forward  # the same nights, the same ratings


def test_a_player_who_misses_a_night_keeps_their_rating_and_is_counted_once() -> None:
    first = one_table("d1", FOUR, 9, 1)
    others = {1: "Ann", 2: "Bo", 3: "Eve", 4: "Fay"}
    second = one_table("d2", others, 9, 1)
    after = {x.name: x for x in ratings([first, second])}
    alone = {x.name: x for x in ratings([first])}
    assert after["Cy"] == alone["Cy"] and after["Di"] == alone["Di"]
    assert after["Ann"].matches == 2 and after["Cy"].matches == 1
    board = {x.name: x for x in leaderboard([first, second])}
    assert board["Ann"].nights == 2 and board["Cy"].nights == 1 and board["Eve"].nights == 1
    assert board["Ann"].total == 18 and board["Ann"].won == 2


def test_a_name_is_one_player_from_night_to_night_whatever_its_case() -> None:
    first = one_table("d1", FOUR, 9, 1)
    second = one_table("d2", {1: "ann", 2: " Bo ", 3: "CY", 4: "Di"}, 9, 1)
    board = leaderboard([first, second])
    assert [x.name for x in board] == ["Ann", "Bo", "Cy", "Di"]
    assert player_key("ANN") == player_key("ann")


def test_players_level_on_total_and_rounds_won_share_their_place_and_are_flagged() -> None:
    # Ann and Bo make 10 and win one round; Cy and Di make 5 and 5 and win the other
    r1, r2 = teams(4, rounds=2).rounds
    board = leaderboard([SeasonNight("n", "d", NightScoring(), FOUR, (
        RoundResult(r1, (TableResult((10, 5)),)), RoundResult(r2, (TableResult((0, 5)),))))])
    assert [(x.place, x.name, int(x.total), x.won, x.tied) for x in board] == [
        (1, "Ann", 10, 1, True), (1, "Bo", 10, 1, True),
        (1, "Cy", 10, 1, True), (1, "Di", 10, 1, True)]


def test_the_leaderboard_ranks_by_total_then_rounds_won() -> None:
    r1, r2, r3 = teams(4, rounds=3).rounds
    board = leaderboard([SeasonNight("n", "d", NightScoring(), FOUR, (
        RoundResult(r1, (TableResult((10, 0)),)), RoundResult(r2, (TableResult((0, 5)),)),
        RoundResult(r3, (TableResult((0, 5)),))))])
    assert [(x.place, x.name, int(x.total), x.won, x.tied) for x in board] == [
        (1, "Cy", 10, 2, True), (1, "Di", 10, 2, True),
        (3, "Ann", 10, 1, True), (3, "Bo", 10, 1, True)]


def test_a_sit_out_counts_as_a_round_scored_by_the_nights_policy() -> None:
    five = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di", 5: "Ed"}
    n = night("d1", five, (7, 4))
    out = n.results[0].round.out[0]
    lines = {x.name: x for x in leaderboard([n])}
    assert lines[five[out]].rounds == 1 and lines[five[out]].total == Fraction(11, 2)
    assert lines[five[out]].won == 0
    assert all(x.matches == 1 for x in ratings([n]))
    assert five[out] not in by_name([n])
    rounds = player_rounds(n.results, n.scoring)
    assert rounds[out][0].table is None and rounds[out][0].scored == Fraction(11, 2)


names_st = st.lists(st.sampled_from(["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal",
                                     "Ivy"]), min_size=4, max_size=9, unique=True)
table_points = st.tuples(st.integers(0, 15), st.integers(0, 15))


@st.composite
def seasons(draw: st.DrawFn) -> list[SeasonNight]:
    out = []
    for i in range(draw(st.integers(1, 3))):
        players = draw(names_st)
        rounds = draw(st.lists(table_points, min_size=1, max_size=3))
        out.append(night(f"d{i}", dict(enumerate(players, 1)), *rounds))
    return out


@settings(max_examples=30, deadline=None)
@given(seasons())
def test_the_season_is_deterministic_and_adds_up_each_nights_points(
        nights: list[SeasonNight]) -> None:
    board = leaderboard(nights)
    assert leaderboard(nights) == board and ratings(nights) == ratings(nights)
    per_night = sum((sum((x.total for x in leaderboard([n])), Fraction(0)) for n in nights),
                    Fraction(0))
    assert sum((x.total for x in board), Fraction(0)) == per_night
    assert [x.place for x in board] == sorted(x.place for x in board)
    for x in board:
        assert 1 <= x.nights <= len(nights) and x.won <= x.rounds
        assert x.to_json()["name"] == x.name
    assert {x.name for x in ratings(nights)} <= {x.name for x in board}


@settings(max_examples=30, deadline=None)
@given(seasons())
def test_a_table_won_never_lowers_its_winners(nights: list[SeasonNight]) -> None:
    before = by_name(nights)
    win = one_table("last", {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}, 9, 1)
    after = {x.name: x for x in ratings([*nights, win])}
    for name in ("Ann", "Bo"):
        assert after[name].mu > before.get(name, 25.0) - 1e-9
    for name in ("Cy", "Di"):
        assert after[name].mu < before.get(name, 25.0) + 1e-9
