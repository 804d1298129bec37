"""A fixture shared by the deal's and the server's tests that legality is computed once
per state (``tests/conftest.py`` offers it to every test): it counts the calls of
:meth:`euchre.deal.Deal.legal_action_ids`."""

from __future__ import annotations

from collections import Counter

import pytest

from euchre.deal import Deal

__all__ = ["computed"]


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[int, int]]:
    """How many times the legal ids were computed, per (deal, actions taken so far)."""
    counts: Counter[tuple[int, int]] = Counter()
    compute = Deal.legal_action_ids

    def counted(deal: Deal) -> list[int]:
        counts[id(deal), len(deal.actions)] += 1
        return compute(deal)

    monkeypatch.setattr(Deal, "legal_action_ids", counted)
    return counts
