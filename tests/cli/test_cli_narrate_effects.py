"""The narrator tells an action from what :meth:`Deal.apply` returned (its
:class:`~euchre.deal.Effect`) and the viewer's observation after it; the record holds
every discard's card, and the narrator never tells another seat's (RULES §12)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from euchre.actions import ActionKind
from euchre.cli.narrate import Narrator
from euchre.cli.seats import SeatNames

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from random_states import random_deal, random_rules


def _narrator(players: int, view: int) -> tuple[Narrator, Console]:
    console = Console(record=True, width=200, color_system=None)
    return Narrator(console, SeatNames.around(players, view, True), view), console


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_telling_the_record_never_shows_another_seats_discard(seed: int) -> None:
    """Every variant and option, a random deal, a random viewer: a discard the viewer did
    not make is told without its card, one the viewer made with it, and the deal's end is
    told."""
    rng = random.Random(seed)
    deal = random_deal(rng, random_rules(rng))
    view = rng.randrange(deal.n)
    said, console = _narrator(deal.n, view)
    discards = 0
    while not deal.is_over:
        effect = deal.apply(rng.choice(deal.legal_action_ids()))
        after = deal.observation(view)
        start = len(console.export_text(clear=False))
        said.tell(effect, after)  # a dummy's discards are told together, after the last
        text = console.export_text(clear=False)[start:]
        card = effect.action.card
        if effect.action.kind is ActionKind.DISCARD and card is not None:
            discards += 1
            shown = Text.from_markup(said.style.card(card)).plain
            if effect.seat == view:
                assert shown in text, text
            elif card != deal.turnup:  # "picks up the turn-up and discards a card"
                assert shown not in text, text
    assert discards > 0 or not any(e.phase.name in ("EXCHANGE", "DUMMY") for e in deal.effects)
