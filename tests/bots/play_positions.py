"""Rule sets and play positions shared by the tests of the searches past PIMC in the play
(``test_lookahead.py``, ``test_alphamu.py``)."""

from __future__ import annotations

import random

from euchre.bots.expert import ExpertBot
from euchre.deal import Deal, Observation, Phase
from euchre.rules import Rules

RULES = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=3, joker=True, defend_alone=False),
    Rules(players=4),
    Rules(players=4, defend_alone=True, joker=True),
    Rules(players=5),
    Rules(players=5, joker=True, deck=32),
]
"""Every variant, and the options that change the play (the joker, defending alone)."""


def play_decisions(rules: Rules, deals: int, seed: int) -> list[Observation]:
    """Play decisions where a search can differ from PIMC: two or more legal cards and
    three or more in hand, from deals the expert plays at every seat."""
    rng = random.Random(seed)
    found = []
    for d in range(deals):
        deal = Deal.random(rules, dealer=d % rules.players, seed=rng.getrandbits(32))
        bot = ExpertBot(d, samples=4, time_budget=None)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            if obs.phase is Phase.PLAY and len(obs.legal_actions) > 1 and len(obs.hand) >= 3:
                found.append(obs)
            deal.apply(bot.act(obs))
    return found
