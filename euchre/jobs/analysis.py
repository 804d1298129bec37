"""Reviews of recorded games: each decision of one seat against the expert's choice.

``euchre analyze FILE`` replays a deal or game record (docs/rules.md, "Saved games") and,
at every decision
of the seat that had a choice (two or more legal actions), asks the expert's opinion
(:func:`euchre.bots.opinion.expert_opinion`) for the value of every legal action from that
seat's observation only (RULES §12): the same opinion the hints give, so a hinted action
is never a mistake here.  The *cost* of a decision is the value of the
expert's best action minus the value of the action played, in the expert's unit:
expected points for the seat's side this deal (with the expert's game bonus, see
:mod:`euchre.bots.evaluation`).  A decision that costs :data:`MISTAKE_THRESHOLD` points or
more is a mistake.

The review is deterministic: every decision is evaluated over a fixed number of sampled
worlds (no time budget) with a seed derived from the position as the seat saw it
(:func:`euchre.bots.opinion.position_seed`); ``seed`` 0 keeps that seed (the hints'),
another mixes into it to sample other worlds.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> for a in ['pass', 'pass', 'pass', 'trump C', '9D', '9C']:
...     _ = deal.apply(a)
>>> review = review_record(deal.to_record(), seat=1, samples=8)
>>> [(d.index, str(d.played), str(d.best), d.mistake) for d in review.decisions]
[(0, 'pass', 'order', True), (2, 'pass', 'trump H', True), (4, 'play 9D', 'play 9D', False)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from euchre.actions import Action
from euchre.bots.opinion import OPINION_WORLDS, expert_opinion
from euchre.deal import Deal
from euchre.notation import GameRecord
from euchre.records import Record, RecordError, replay
from euchre.rules import Rules

__all__ = [
    "DEFAULT_SAMPLES",
    "MISTAKE_THRESHOLD",
    "Decision",
    "Review",
    "count_decisions",
    "default_seat",
    "review_record",
    "review_records",
]

MISTAKE_THRESHOLD: Final = 0.3
"""Expected points lost by a decision from which on it counts as a mistake."""
DEFAULT_SAMPLES: Final = OPINION_WORLDS
"""Worlds per decision in a review: the hints' (:data:`~euchre.bots.opinion.OPINION_WORLDS`)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat."""

    deal: int
    """The deal's number (0-based, in the order of the file)."""
    index: int
    """The action's index in the deal record's ``actions``."""
    phase: str
    """The phase, as a word: ``bid_turnup``, ``bid_suit``, ``name_trump``, ``exchange``,
    ``dummy``, ``call_partner``, ``defend`` or ``play``."""
    played: Action
    best: Action
    cost: float
    """Expected points lost against the expert's best action (0 when it was played)."""
    mistake: bool
    values: dict[Action, float]
    """The expert's value of every legal action."""

    def to_json(self) -> dict[str, Any]:
        """The ``euchre analyze --json`` object of one decision."""
        return {
            "deal": self.deal,
            "index": self.index,
            "phase": self.phase,
            "played": str(self.played),
            "best": str(self.best),
            "cost": round(self.cost, 3),
            "mistake": self.mistake,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's decisions over a record, with their costs."""

    seat: int
    decisions: tuple[Decision, ...]
    threshold: float = MISTAKE_THRESHOLD

    @property
    def total_cost(self) -> float:
        """The expected points lost over all the decisions."""
        return sum(d.cost for d in self.decisions)

    @property
    def mistakes(self) -> int:
        """How many decisions cost at least the threshold."""
        return sum(1 for d in self.decisions if d.mistake)

    def to_json(self) -> dict[str, Any]:
        """The ``euchre analyze --json`` object."""
        return {
            "seat": self.seat,
            "decisions": [d.to_json() for d in self.decisions],
            "total_cost": round(self.total_cost, 3),
            "mistakes": self.mistakes,
        }


def default_seat(records: Sequence[Record]) -> int:
    """The seat to review when none is given: a seat named "You…" in a game record
    (``euchre play`` names the person so), else seat 0."""
    for record in records:
        seats = (record.get("seats") if isinstance(record, dict)
                 else record.seats if isinstance(record, GameRecord) else None)
        if isinstance(seats, list | tuple):
            for s, name in enumerate(seats):
                if isinstance(name, str) and name.strip().lower().startswith("you"):
                    return s
    return 0


def _deals(records: Sequence[Record]) -> Iterator[tuple[int, Deal, list[Action]]]:
    """Every deal of the records, replayed (so checked), as a fresh deal at its start
    (with the game score before it) and its actions."""
    number = 0
    for k, record in enumerate(records):
        try:
            replayed = list(replay(record))
        except RecordError as e:
            where = f"record {k + 1}, " if len(records) > 1 else ""
            raise RecordError(f"{where}{e}", e.deal, e.action) from None
        for r in replayed:
            end = r.deal
            fresh = Deal(end.rules, end.dealer, end.dealt, end.turnup, end.kitty,
                         end.dealt_dummy, end.pattern, end.scores)
            yield number, fresh, end.actions
            number += 1


def _players(records: Sequence[Record]) -> int:
    record = records[0]
    if not isinstance(record, dict):
        return record.rules.players
    rules = record.get("rules", {})
    try:
        return Rules.from_dict(rules if isinstance(rules, dict) else {}).players
    except ValueError as e:  # the record's fault, not the command's: RecordError
        raise RecordError(f"{'game rules' if 'deals' in record else 'deal 1'}: {e}") from None


def count_decisions(records: Sequence[Record], seat: int) -> int:
    """How many decisions with a choice the seat took (the length of a review)."""
    total = 0
    for _, deal, actions in _deals(records):
        for action in actions:
            if deal.to_move == seat and len(deal.legal_action_ids()) > 1:
                total += 1
            deal.apply(action)
    return total


def review_records(
    records: Sequence[Record],
    seat: int,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    threshold: float = MISTAKE_THRESHOLD,
    progress: Callable[[], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions over deal and game records (one after the other).

    ``samples`` and ``seed`` are the opinion's worlds and salt
    (:func:`~euchre.bots.opinion.expert_opinion`): with the defaults, each decision is
    judged by the very opinion a hint gives at that position.  ``progress`` is called
    after each decision.  Raises :class:`RecordError` for a
    malformed record and :class:`ValueError` for a seat the rules do not have.
    """
    if not records:
        raise RecordError("the file holds no record")
    n = _players(records)
    if not 0 <= seat < n:
        raise ValueError(f"--seat is a seat from 0 to {n - 1}, not {seat}")
    decisions = []
    for number, deal, actions in _deals(records):
        for i, action in enumerate(actions):
            if deal.to_move == seat and len(deal.legal_action_ids()) > 1:
                obs = deal.observation(seat)
                opinion = expert_opinion(obs, samples, salt=seed)
                values, best = opinion.values, opinion.best
                played = values.get(action)
                cost = 0.0 if played is None else max(0.0, values[best] - played)
                if played is not None and cost <= 1e-9:
                    best, cost = action, 0.0  # the played action is as good as any
                decisions.append(Decision(number, i, obs.phase.name.lower(), action, best,
                                          cost, cost >= threshold, values))
                if progress is not None:
                    progress()
            deal.apply(action)
    return Review(seat, tuple(decisions), threshold)


def review_record(record: Record, seat: int, samples: int = DEFAULT_SAMPLES,
                  seed: int = 0, threshold: float = MISTAKE_THRESHOLD) -> Review:
    """Review ``seat``'s decisions in one deal or game record."""
    return review_records([record], seat, samples, seed, threshold)
