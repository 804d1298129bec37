"""The table's log of bids and plays marks each trick where it was won: the play that
completed it carries the trick's number in the view (the deal's record of it), and the
log puts "Trick N to ..." after that play (RULES §8)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from test_server_browser import (  # the fixtures and helpers of the browser tests
    _click_something,
    _page,
    _table_against_bots,
    slow_server,
)

__all__ = ["slow_server"]  # a fixture, used by name (``browser`` is conftest's)


def test_the_log_tells_each_trick_after_the_play_that_won_it(slow_server: Any,
                                                             browser: Any) -> None:
    rng = random.Random(11)
    errors: list[str] = []
    page = _page(browser, errors)
    _table_against_bots(page, slow_server.base)
    deadline = time.monotonic() + 60
    while page.locator("#log li.trick-won").count() < 2:
        if time.monotonic() > deadline:
            pytest.fail("two tricks were not played in time")
        if not _click_something(page, rng):
            page.wait_for_timeout(30)
    lines = page.locator("#log li").all_inner_texts()
    marks = [k for k, line in enumerate(lines) if line.startswith("Trick ")]
    assert [lines[k].split(" to ")[0] for k in marks[:2]] == ["Trick 1", "Trick 2"]
    # four-handed with every seat in: four plays before each mark
    assert marks[1] - marks[0] in (5, 4)  # four plays (a lone maker's deal: three) + mark
    assert not errors
