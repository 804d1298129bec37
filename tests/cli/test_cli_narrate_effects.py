"""The narrator tells an action from what :meth:`Deal.apply` returned (its
:class:`~euchre.deal.Effect`) and the viewer's observation after it, word for word as it
tells it from the observations before and after (RULES §12: the record's hidden parts, a
discard's card, are never read)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from euchre.cli.narrate import Narrator
from euchre.cli.seats import SeatNames

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from random_states import random_deal, random_rules


def _narrator(players: int, view: int) -> tuple[Narrator, Console]:
    console = Console(record=True, width=200, color_system=None)
    return Narrator(console, SeatNames.around(players, view, True), view), console


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_telling_the_record_says_what_the_two_observations_say(seed: int) -> None:
    """Every variant and option, a random deal, a random viewer: the same lines, and the
    same answer to whether anything was printed, action by action."""
    rng = random.Random(seed)
    deal = random_deal(rng, random_rules(rng))
    view = rng.randrange(deal.n)
    by_record, told = _narrator(deal.n, view)
    by_diff, diffed = _narrator(deal.n, view)
    while not deal.is_over:
        before = deal.observation(view)
        effect = deal.apply(rng.choice(deal.legal_action_ids()))
        after = deal.observation(view)
        assert by_record.tell(effect, after) == by_diff.action(before, after)
    text = told.export_text()
    assert text and text == diffed.export_text()
