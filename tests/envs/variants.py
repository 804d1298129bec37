"""Every variant, and combinations of the rule options, for the environments' tests."""

from __future__ import annotations

from typing import Any

import pytest

VARIANTS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 2, "deck": 32, "joker": True, "stick_the_dealer": True, "target": 5},
    {"players": 3},
    {"players": 3, "joker": True, "joker_turnup": "suit:H", "defend_alone": False},
    {"players": 4},
    {"players": 4, "deck": 28, "defend_alone": True, "dealer_must_take_up": True},
    {"players": 4, "joker": True, "stick_the_dealer": True, "target": 5, "draw": True},
    {"players": 4, "target": 5, "rubber": True},
    {"players": 5},
    {"players": 5, "deck": 32, "joker": True, "stick_the_dealer": False, "target": 7},
]
"""The presets of the four variants, and every option switched on somewhere."""


def variant_id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


each_variant = pytest.mark.parametrize("variant", VARIANTS, ids=variant_id)
"""Run a test once for each of :data:`VARIANTS` (its argument ``variant``)."""
