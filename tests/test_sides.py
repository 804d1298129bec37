"""A seat's utility (euchre.sides), and the compiled copy the core makes of it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre import core
from euchre.rules import Rules
from euchre.sides import utility


@given(st.lists(st.sampled_from([0, 1, 2, 3, 4, 5]), min_size=2, max_size=5))
def test_rules_9_utility_is_points_minus_the_others_mean_and_sums_to_zero(
    points: list[int],
) -> None:
    """RULES §9 points, seen from each seat: its points minus the mean of the others';
    the compiled copy the kernels call gives the same, on an array longer than the table."""
    n = len(points)
    values = [utility(points, s) for s in range(n)]
    assert sum(values) == pytest.approx(0.0)
    padded = np.zeros(5, dtype=np.int64)
    padded[:n] = points
    for s in range(n):
        others = [p for t, p in enumerate(points) if t != s]
        assert values[s] == pytest.approx(points[s] - sum(others) / (n - 1))
        assert core.utility(padded, s, n) == values[s]


def test_rules_9_four_handed_utility_is_two_thirds_of_the_sides_margin() -> None:
    """RULES §9: four-handed both partners score; a seat's utility is two thirds of its
    side's points minus the other side's."""
    assert utility((2, 0, 2, 0), 0) == pytest.approx(4 / 3)
    assert utility((2, 0, 2, 0), 1) == pytest.approx(-4 / 3)
    assert Rules(players=4).partner_of(0) == 2
