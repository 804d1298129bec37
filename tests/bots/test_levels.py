"""The levels stay in order: random < basic < intermediate < expert (docs/benchmarks.md,
"The levels"), and the learned policy alone (``net``) between basic and intermediate
("A learned policy and value").  Small duplicate tournaments with fixed worlds (no
clock), so each is the same on any machine; the bounds are loose on purpose, the real
figures are benchmarks."""

from __future__ import annotations

import pytest

from euchre import Rules
from euchre.jobs.tournament import Tournament, run_tournament


@pytest.mark.parametrize(("players", "stronger", "weaker", "sets"), [
    (2, "basic", "random", 60),
    (4, "basic", "random", 60),
    (2, "intermediate:16", "basic", 200),
    (4, "intermediate:16", "basic", 200),
    (4, "expert:16", "basic", 200),
    (2, "expert:16", "intermediate:16", 200),
    (2, "net", "basic", 200),
    (4, "net", "basic", 200),
    (4, "intermediate:16", "net", 200),
])
def test_a_higher_level_is_not_weaker(players: int, stronger: str, weaker: str,
                                      sets: int) -> None:
    t = Tournament(Rules(players=players), (stronger, weaker), deals=sets, seed=11)
    result = run_tournament(t, workers=1)
    top = result.results[0]
    assert top.margin is not None and top.margin_ci95 is not None
    # the interval must not lie wholly below zero, and the point must not be clearly negative
    assert top.margin_ci95[1] > 0 and top.margin > -0.05, (stronger, weaker, top)
