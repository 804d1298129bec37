"""The turn timer of a table: how long a person may take before a stand-in plays.

A :class:`Clock` is one part of a :class:`~euchre.server.table.Table`.  When the host set
a turn timer and the table waits on a person (to act, or to close the deal's summary),
the clock runs once per state; when it runs out nobody reads on, and a stand-in bot plays
the seat until the person takes it back.  The clock lives in memory only: after a restart
it starts again.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from euchre.server.table import Table

__all__ = ["Clock"]


class Clock:
    """A table's turn timer, armed once per state that waits on a person."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._clock: asyncio.TimerHandle | None = None
        self._clock_key: tuple[int, int] | None = None
        self._clock_deadline = 0.0

    async def set_timer(self, seconds: float | None) -> None:
        """The host sets the turn timer (``None``: off)."""
        table = self.table
        async with table.lock:
            await table.seating.store_options(turn_timer=seconds)
            self.stop()
            self.arm()
            table.audience.broadcast()
        table.play.kick()

    def _waits_on_a_person(self) -> bool:
        table = self.table
        play = table.play
        match = play.match
        if match.is_over or table.closed or not table.seating.started:
            return False
        if play.reading:
            return True
        seat = match.game.deal.to_move
        if seat is None:
            return False
        place = match.place_at[seat]
        return place not in play.bots and place not in play.away

    def arm(self) -> None:
        """Start the turn timer when the table waits on a person, once per state."""
        turn_timer = self.table.seating.turn_timer
        if turn_timer is None:
            return
        match = self.table.play.match
        key = (match.number, match.seq)
        if self._clock_key == key:
            return  # already running for this state
        self.stop()
        if not self._waits_on_a_person():
            return
        loop = asyncio.get_running_loop()
        self._clock_key = key
        self._clock_deadline = loop.time() + turn_timer
        self._clock = loop.call_later(turn_timer, self._time_out, key)

    def stop(self) -> None:
        """Stop the turn timer."""
        if self._clock is not None:
            self._clock.cancel()
        self._clock = None
        self._clock_key = None

    def _time_out(self, key: tuple[int, int]) -> None:
        """The turn timer ran out: nobody reads on, and a stand-in bot plays the seat."""
        table = self.table
        play = table.play
        if self._clock_key != key or table.closed:
            return
        self._clock = None
        play.reading.clear()
        seat = play.match.game.deal.to_move
        if not play.match.is_over and seat is not None:
            place = play.match.place_at[seat]
            if place not in play.bots:
                play.away.add(place)
        table.audience.broadcast()
        play.kick()

    def waiting_view(self) -> dict[str, Any]:
        """Who the table waits for: the seats reading the summary, and the turn timer."""
        play = self.table.play
        seat_of = play.match.seat_of
        clock = None
        if self._clock is not None:
            remaining = self._clock_deadline - asyncio.get_running_loop().time()
            deal = play.match.game.deal
            clock = {"seat": deal.to_move, "remaining": round(max(0.0, remaining), 1),
                     "limit": self.table.seating.turn_timer}
        return {"reading": sorted(seat_of[p] for p in play.reading), "clock": clock}
