"""The review of a finished game in the web app: each decision of one seat against the
expert's choice, as ``euchre analyze`` gives it in the terminal (:mod:`euchre.jobs.analysis`).

The expert judges every decision from the seat's observation only (RULES §12), so a
review says nothing of the cards the seat could not see; it is given only once the game
(or the rubber) is over, and only to the seat's own player (the route checks both).

A review is the same every time: each decision is judged by the expert's opinion
(:func:`euchre.bots.opinion.expert_opinion`: a fixed number of worlds, a seed derived
from the position), the very opinion the hint gave at that position, so a hinted choice
is never a mistake in the review.  The expert takes a moment, so it runs in a worker
thread, and the reviews made last are kept (:class:`ReviewCache`): asking again is
instant.

The expert (numba, the solver) is imported at the first review, not when the server
starts, as for the hint.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Final

from euchre.actions import ActionKind
from euchre.deal import Deal
from euchre.records import DealRecord, GameRecord, replay

__all__ = ["CACHE_SIZE", "ReviewCache", "ReviewKey", "review_match"]

CACHE_SIZE: Final = 64
"""Reviews kept in memory, the least recently asked for dropped first."""

ReviewKey = tuple[str, int, int]
"""A review's key: the table's id, the match's number and the seat."""


def _role(deal: Deal, seat: int) -> str:
    """How an order of the turn-up by ``seat`` is said: ``dealer`` (take it up),
    ``assist`` (the dealer's partner) or ``""`` (order it up)."""
    if seat == deal.dealer:
        return "dealer"
    return "assist" if seat == deal.rules.partner_of(deal.dealer) else ""


def _moments(record: DealRecord | GameRecord, seat: int) -> dict[tuple[int, int], dict[str, Any]]:
    """For each decision of ``seat`` in a game record, by (deal, action index): the
    seat's role in the bidding, and in the play the trick's number (from 1) and
    whether the seat led it."""
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for number, replayed in enumerate(replay(record)):
        final = replayed.deal
        deal = Deal.from_record(final.to_record(), apply_actions=False)
        role = _role(deal, seat)
        for i, action in enumerate(final.actions):
            if deal.to_move == seat:
                playing = action.kind is ActionKind.PLAY
                out[number, i] = {
                    "role": role,
                    "trick": len(deal.tricks) + 1 if playing else None,
                    "lead": playing and not deal.current_trick,
                }
            deal.apply(action)
    return out


def review_match(records: Sequence[DealRecord | GameRecord], seat: int,
                 samples: int | None = None) -> dict[str, Any]:
    """Review ``seat``'s decisions in every game of a match (one game record each, a
    rubber's in order), the expert sampling ``samples`` worlds a decision (``None``: the
    opinion's :data:`~euchre.bots.opinion.OPINION_WORLDS`, as the hints).

    Every decision is :meth:`euchre.jobs.analysis.Decision.to_json` with the game's index
    (``game``, from 0), the value of every legal choice for the seat's side, best
    first (``values``: ``action``, ``value``), and its moment: ``role`` (how an order
    is said), ``trick`` (from 1, in the play, else ``None``) and ``lead``.  The totals
    (``total_cost``, ``mistakes``) are over the whole match.

    Slow (the expert): call it in a worker thread.
    """
    from euchre.jobs.analysis import DEFAULT_SAMPLES, MISTAKE_THRESHOLD, review_records

    if samples is None:
        samples = DEFAULT_SAMPLES
    decisions: list[dict[str, Any]] = []
    total = 0.0
    mistakes = 0
    for game, record in enumerate(records):
        review = review_records([record], seat, samples=samples)
        moments = _moments(record, seat)
        total += review.total_cost
        mistakes += review.mistakes
        for d in review.decisions:
            ranked = sorted(d.values.items(), key=lambda av: -av[1])
            decisions.append({
                "game": game,
                **d.to_json(),
                "values": [{"action": str(a), "value": round(v, 3)} for a, v in ranked],
                **moments[d.deal, d.index],
            })
    return {
        "seat": seat,
        "games": len(records),
        "samples": samples,
        "threshold": MISTAKE_THRESHOLD,
        "decisions": decisions,
        "total_cost": round(total, 3),
        "mistakes": mistakes,
    }


class ReviewCache:
    """The reviews made last, by :data:`ReviewKey`, at most ``size`` of them.

    Two requests for a review being made share the one computation; one that fails is
    not kept (the next request tries again).
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        if size < 1:
            raise ValueError(f"a cache holds 1 review or more, not {size}")
        self.size = size
        self._done: OrderedDict[ReviewKey, dict[str, Any]] = OrderedDict()
        self._making: dict[ReviewKey, asyncio.Future[dict[str, Any]]] = {}

    def __len__(self) -> int:
        return len(self._done)

    def get(self, key: ReviewKey) -> dict[str, Any] | None:
        """The review kept for ``key``, if any (it becomes the most recently used)."""
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
        return found

    def making(self, key: ReviewKey) -> bool:
        """Is the review of ``key`` being made now?"""
        return key in self._making

    async def review(self, key: ReviewKey, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The review of ``key``: kept, being made, or made now by ``make()`` in a worker
        thread.  A request that goes away does not stop the work: the next one finds it."""
        found = self.get(key)
        if found is not None:
            return found
        future = self._making.get(key)
        if future is None:
            future = asyncio.ensure_future(asyncio.to_thread(make))
            self._making[key] = future
            future.add_done_callback(lambda f: self._keep(key, f))
        return await asyncio.shield(future)

    def _keep(self, key: ReviewKey, future: asyncio.Future[dict[str, Any]]) -> None:
        self._making.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self._done[key] = future.result()
        self._done.move_to_end(key)
        while len(self._done) > self.size:
            self._done.popitem(last=False)
