"""The maker's side and a seat's utility (euchre.sides), and the compiled copies the
core makes of them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from random_states import random_states

from euchre import core
from euchre.rules import Rules
from euchre.sides import makers_mask, seats, utility


def test_rules_4_and_6_the_makers_side_of_each_variant() -> None:
    """RULES §4: partners sit opposite four-handed; RULES §6: five-handed the called
    card's holder joins the maker, three-handed and two-handed the maker is alone."""
    assert seats(makers_mask(2, 1)) == (1,)
    assert seats(makers_mask(3, 0)) == (0,)
    assert seats(makers_mask(4, 0)) == (0, 2)
    assert seats(makers_mask(4, 3, partner=1)) == (1, 3)
    assert seats(makers_mask(5, 4)) == (4,)
    assert seats(makers_mask(5, 4, partner=1)) == (1, 4)
    assert makers_mask(5, -1, partner=2) == 0  # trump not fixed: no side


def test_rules_6_the_makers_side_is_the_same_in_the_engine_the_core_and_sides() -> None:
    """RULES §4, §6: on random states of every variant the deal's, the core's and
    :func:`makers_mask`'s maker's side agree, and the declared side (no hidden partner)
    is what the defenders see."""
    checked = 0
    for deal, state in random_states(300, seed=24):
        mask = sum(1 << s for s in deal.makers)
        assert core.makers_mask(state) == mask
        maker = -1 if deal.maker is None else deal.maker
        partner = -1 if deal.partner is None else deal.partner
        assert makers_mask(deal.n, maker, partner) == mask
        declared = makers_mask(deal.n, maker)
        assert declared == (
            0 if maker < 0 else 1 << maker | (1 << (maker + 2) % 4 if deal.n == 4 else 0)
        )
        checked += deal.maker is not None
    assert checked > 50


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
