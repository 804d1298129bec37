"""The scoring of a club night (issue 32): individual points, the values of a hand the
night chooses, the sit-out policies, and the standings with their tie-breaks."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre.night import (
    Hand,
    NightScoring,
    RoundResult,
    TableResult,
    hand_points,
    partners,
    round_points,
    standings,
    teams,
)

scorings = st.builds(
    NightScoring,
    made=st.integers(0, 5), march=st.integers(0, 5), lone_made=st.integers(0, 5),
    lone_march=st.integers(0, 8), euchre=st.integers(0, 5), lone_euchre=st.integers(0, 8),
    sit_out=st.sampled_from(["average", "zero", "bot"]))
hands = st.builds(Hand, makers=st.integers(0, 1), tricks=st.integers(0, 5),
                  alone=st.booleans())


@st.composite
def nights(draw: st.DrawFn) -> list[RoundResult]:
    """A few rounds of rotating partners for 4 to 23 players, every table's points
    drawn (up to 30 a side: a round's points may exceed 10), bots' points too."""
    players = draw(st.integers(4, 23))
    length = draw(st.integers(1, 3))
    night = partners(players, rounds=length)
    points = st.tuples(st.integers(0, 30), st.integers(0, 30))
    results = []
    for r in night.rounds:
        tables = tuple(TableResult(draw(points)) for _ in r.tables)
        bots = tuple((p, draw(st.integers(0, 12))) for p in r.out)
        results.append(RoundResult(r, tables, bots))
    return results


@given(hands, scorings)
def test_one_side_scores_a_hand_the_makers_when_they_take_three(
        hand: Hand, scoring: NightScoring) -> None:
    a, b = hand_points(hand, scoring)
    assert min(a, b) == 0
    winner = 0 if a > 0 else 1 if b > 0 else None
    if winner is not None:
        assert (winner == hand.makers) == (hand.tricks >= 3)


def test_the_house_values_by_default() -> None:
    """A lone hand that takes all five scores 4, euchring a loner 4 (the common house
    rules), a march 2, a euchre 2."""
    s = NightScoring()
    assert hand_points(Hand(0, 5, alone=True), s) == (4, 0)
    assert hand_points(Hand(0, 1, alone=True), s) == (0, 4)
    assert hand_points(Hand(1, 5), s) == (0, 2)
    assert hand_points(Hand(1, 4), s) == (0, 1)
    assert hand_points(Hand(1, 2), s) == (2, 0)
    assert hand_points(Hand(0, 5, alone=True), NightScoring(lone_march=5)) == (5, 0)


@pytest.mark.parametrize("bad", [{"made": -1}, {"lone_march": 101}, {"euchre": 1.5},
                                 {"sit_out": "half"}])
def test_a_night_refuses_values_it_cannot_score(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        NightScoring(**bad)  # type: ignore[arg-type]


def test_a_table_result_from_its_hands_counts_the_loners() -> None:
    table = teams(4).rounds[0].tables[0]
    hands = [(Hand(0, 5, alone=True), 1), (Hand(1, 3), 4), (Hand(1, 0, alone=True), 3)]
    assert TableResult.from_hands(table, hands, NightScoring()) == TableResult((8, 1), (1,))
    with pytest.raises(ValueError, match="not on side"):
        TableResult.from_hands(table, [(Hand(0, 3), 3)], NightScoring())


@given(nights(), scorings)
def test_each_player_scores_their_sides_points(results: list[RoundResult],
                                              scoring: NightScoring) -> None:
    """At a table each player scores their side's points; who sat out scores the
    average of those who played, nothing, or their bot's points, as the night says."""
    for result in results:
        points = round_points(result, scoring)
        everyone = [p for t in result.round.tables for p in t.players]
        assert sorted(points) == sorted(everyone + list(result.round.out))
        played = []
        for table, res in zip(result.round.tables, result.tables, strict=True):
            for side, made in zip(table.sides, res.points, strict=True):
                for p in side:
                    assert points[p] == made
                    played.append(made)
        for p in result.round.out:
            expected = {"average": Fraction(sum(played), len(played)), "zero": Fraction(0),
                        "bot": Fraction(dict(result.stand_ins)[p])}[scoring.sit_out]
            assert points[p] == expected


@given(nights(), scorings)
def test_standings_rank_by_total_then_rounds_won(results: list[RoundResult],
                                                 scoring: NightScoring) -> None:
    """The standings list everyone once, by total then rounds won; players level on
    both share a place and are flagged for an extra hand, the others are not."""
    lines = standings(results, scoring)
    players = {p for r in results for t in r.round.tables for p in t.players}
    players |= {p for r in results for p in r.round.out}
    assert sorted(s.player for s in lines) == sorted(players)
    keys = [(-s.total, -s.won) for s in lines]
    assert keys == sorted(keys)
    for i, s in enumerate(lines):
        level = [t for t in lines if (t.total, t.won) == (s.total, s.won)]
        assert s.tied == (len(level) > 1)
        assert s.place == 1 + sum(1 for t in lines if (-t.total, -t.won) < keys[i])
    totals = {p: sum((round_points(r, scoring).get(p, Fraction(0)) for r in results),
                     Fraction(0)) for p in players}
    assert all(s.total == totals[s.player] for s in lines)


@given(nights(), scorings)
def test_standings_do_not_depend_on_the_order_of_the_rounds(
        results: list[RoundResult], scoring: NightScoring) -> None:
    assert standings(results, scoring) == standings(results[::-1], scoring)


def test_a_round_is_won_by_the_side_with_more_points_and_a_draw_by_nobody() -> None:
    r = teams(8).rounds[0]
    lines = standings([RoundResult(r, (TableResult((12, 3)), TableResult((6, 6))))],
                      NightScoring())
    won = {s.player: s.won for s in lines}
    assert won == {1: 1, 2: 1, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0}
    assert [s.place for s in lines] == [1, 1, 3, 3, 3, 3, 7, 7]


def test_names_order_the_players_still_level_who_need_an_extra_hand() -> None:
    r = teams(4).rounds[0]
    lines = standings([RoundResult(r, (TableResult((5, 5)),))], NightScoring(),
                      {1: "Dee", 2: "Al", 3: "Cy", 4: "Bo"})
    assert [s.name for s in lines] == ["Al", "Bo", "Cy", "Dee"]
    assert all(s.tied and s.place == 1 for s in lines)
