"""The expert's opinion of a position: the one evaluation that hints and reviews share.

The terminal's hint (``h`` in ``euchre play``), ``euchre analyze``, the web app's hint and
its review of a finished game all ask :func:`expert_opinion`, so they cannot disagree: the
action a hint recommends is the one a review takes as best, and the review never calls it
a mistake.  The opinion is the :class:`~euchre.bots.expert.ExpertBot`'s
:meth:`~euchre.bots.expert.PimcBot.evaluate` (the value of every legal action, from the
seat's observation only, RULES §12) over a **fixed number of worlds** (no time budget:
:data:`OPINION_WORLDS`) sampled with a **seed derived from the position**
(:func:`position_seed`): what the seat has seen, and nothing about who asks or when.  The
same position always gets the same answer, in any process, on any machine.

The expert playing a game is another matter: it thinks on a time budget
(:data:`~euchre.bots.expert.DEFAULT_TIME_BUDGET`) with its own random stream, as a player
does.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> opinion = expert_opinion(deal.observation(1), worlds=8)
>>> str(opinion.best), [str(a) for a, _ in opinion.ranked()]
('order', ['order', 'pass'])
>>> expert_opinion(deal.observation(1), worlds=8) == opinion
True
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Final

from euchre.actions import Action
from euchre.bots.expert import ExpertBot
from euchre.deal import Observation

__all__ = ["OPINION_WORLDS", "Opinion", "expert_opinion", "position_key", "position_seed"]

OPINION_WORLDS: Final = 256
"""Worlds sampled per opinion.  The median opinion takes well under the bots' 50 ms goal
in every variant (docs/benchmarks.md, "Hint and review"); fewer worlds made the values
too noisy for a review's 0.3-point mistake threshold (five-handed the value differences
were off by 0.13 points on average at 128 worlds, 0.08 at 256)."""


@dataclass(frozen=True, slots=True)
class Opinion:
    """The expert's values of every legal action of a position, and its choice.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> opinion = expert_opinion(deal.observation(1), worlds=8)
    >>> opinion.best, opinion.worlds, sorted(str(action) for action in opinion.values)
    (Action.parse('order'), 8, ['order', 'pass'])
    """

    values: dict[Action, float]
    """Every legal action's value, in the order of ``legal_actions``: the points the
    seat's side can expect from this deal (:meth:`ExpertBot.evaluate
    <euchre.bots.expert.PimcBot.evaluate>`)."""
    best: Action
    """The action of highest value (the first such in the legal order)."""
    worlds: int
    """The worlds sampled."""

    def ranked(self) -> list[tuple[Action, float]]:
        """(action, value) pairs, best first (equal values in the legal order).

        >>> Opinion({Action.parse('pass'): 0.5, Action.parse('order'): 1.5},
        ...         best=Action.parse('order'), worlds=8).ranked()
        [(Action.parse('order'), 1.5), (Action.parse('pass'), 0.5)]
        """
        return sorted(self.values.items(), key=lambda av: -av[1])


def position_key(obs: Observation) -> str:
    """The position as its seat saw it, as text: the rules, the dealer, the seat, the
    game score, the turn-up, the seat's hand (sorted), its own discards and the dummy it
    took, and every action so far as the seat saw it (a face-down discard as ``?``).

    Two observations of the same position give the same key however they were reached
    (played live, replayed from a record, on the web or in the terminal).

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> key = position_key(deal.observation(1))
    >>> key == position_key(Deal.from_record(deal.to_record()).observation(1))
    True
    >>> '"hand":["9D","AC","JD","QD","TD"]' in key, "9C" in key  # seat 0's cards are not in it
    (True, False)
    """
    data = {
        "rules": obs.rules.to_dict(),
        "dealer": obs.dealer,
        "seat": obs.seat,
        "scores": list(obs.scores),
        "turnup": str(obs.turnup),
        "hand": sorted(str(c) for c in obs.hand),
        "discards": sorted(str(c) for c in obs.discards),
        "dummy": None if obs.dummy is None else sorted(str(c) for c in obs.dummy),
        "actions": [[e.seat, "?" if e.action is None else str(e.action)]
                    for e in obs.events],
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def position_seed(obs: Observation, salt: int = 0) -> int:
    """The seed of the expert's sampling for a position: a hash of
    :func:`position_key` (and of ``salt``, 0 for the opinion every hint and review
    gives; another salt samples other worlds of the same position).

    >>> from euchre import Deal, Rules
    >>> deal = Deal.random(Rules(players=4), seed=1)
    >>> position_seed(deal.observation(1)) == position_seed(deal.observation(1))
    True
    >>> position_seed(deal.observation(1)) != position_seed(deal.observation(2))
    True
    """
    text = f"{salt}|{position_key(obs)}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def expert_opinion(obs: Observation, worlds: int = OPINION_WORLDS, salt: int = 0) -> Opinion:
    """The expert's opinion of the position of ``obs`` (its seat to move): the value of
    every legal action over ``worlds`` worlds sampled with :func:`position_seed`.

    Raises :class:`ValueError` when the seat has no legal action now, or for fewer than
    one world.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
    >>> expert_opinion(deal.observation(0), worlds=8)  # seat 1 bids first
    Traceback (most recent call last):
      ...
    ValueError: seat 0 has no legal action now
    """
    if not obs.legal_actions:
        raise ValueError(f"seat {obs.seat} has no legal action now")
    bot = ExpertBot(random.Random(position_seed(obs, salt)), samples=worlds,
                    time_budget=None)
    values = bot.evaluate(obs)
    # the values come in the legal order; an action the evaluation left out has none
    return Opinion(values, bot.best(values), bot.worlds_used)
