"""The tables the server holds in memory, each rebuilt exactly from storage.

A :class:`Table` owns one :class:`~euchre.game.Match` (a game, or a rubber of games, RULES
§10-§11) made from a stored seed; re-creating it with the same seed and re-applying the stored
actions in order reproduces the state exactly, so a restarted server resumes every
unfinished game where it stopped.  Bot decisions are re-applied from storage, never
recomputed.

Every action, a person's or a bot's, goes the same way under the table's lock: checked
against the rules, written to storage, applied, then broadcast.  Nothing is acknowledged
before it is stored, and nothing that fails a check changes anything.

When several server processes share the database (:class:`~.storage.Peers`), each applies
what the others store as it hears of it (:meth:`.Sync.catch_up`), an action stored first
elsewhere makes this process's one a conflict (the table reloads), and a table's own bots
play only in the process holding its bots' lock (stand-ins for a person away play where
the person's clock ran out: the database orders them like any action).

A table is made of parts, each holding its own state, which the :class:`Table` wires
together; the server asks the part that owns what it wants (``table.seating.invite``,
``table.play.act``, ``table.talk.chat``):

* :class:`~.seating.Seating`: the places, their tokens and invitations, the host's powers;
* :class:`~.play.Play`: the match, people's actions, the bots and stand-ins, rematches;
* :class:`~.audience.Audience`: the connections, and the state each is sent;
* :class:`~.talk.Talk`: the chat, and the host's mute;
* :class:`~.clock.Clock`: the turn timer;
* :class:`~.sync.Sync`: writes, conflicts, and other server processes on the database.

The registry of every table is :mod:`euchre.server.registry`; what a table sends each
connection goes through the connection's outbox (:mod:`euchre.server.outbox`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from euchre.game import Match
from euchre.rules import Rules
from euchre.server.audience import LOBBY_QUIET, PRESENCE_DELAY, Audience
from euchre.server.clock import Clock
from euchre.server.play import FAST_BOTS, HINT_BOT, Play
from euchre.server.play import _explain as _explain
from euchre.server.seating import BOT_NAMES, Seating, TableError, new_token
from euchre.server.storage import (
    Peers,
    PlaceRecord,
    Storage,
    TableRecord,
)
from euchre.server.sync import STORAGE_FAILED, Sync
from euchre.server.talk import Talk

__all__ = ["BOT_NAMES", "EVICT_AFTER", "FAST_BOTS", "HINT_BOT", "LOBBY_QUIET",
           "PRESENCE_DELAY", "STORAGE_FAILED", "Settings", "Table", "TableError", "new_token"]

EVICT_AFTER = 30.0
"""Seconds a finished table nobody watches stays in memory before it may make room."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Server settings that are not rules of the game."""

    bot_delay: float = 0.0
    """Seconds a bot waits before acting, so people can follow (0 in tests)."""
    trick_pause: float = 0.0
    """Extra seconds a bot waits before leading after a trick is complete."""
    idle_expiry: float = 24 * 3600.0
    """Seconds an unfinished table may sit with nobody connected and nothing played
    before it is abandoned (:meth:`~.registry.Tables.expire_idle`)."""
    stand_in: str = "basic"
    """The bot that plays a seat whose person ran out of time or left the table."""
    unvisited_expiry: float = 300.0
    """Seconds a new table may wait for its first visitor (a person at one of its places,
    or, at a table of bots only, a spectator) before it is abandoned: tables made and
    never opened cannot pile up (:meth:`~.registry.Tables.expire_idle`)."""


class Table:
    """A table: its rules, places, current match, connections and bots.

    Each idea is a part holding its own state (:attr:`seating`, :attr:`play`,
    :attr:`audience`, :attr:`talk`, :attr:`clock`, :attr:`sync`), and the server asks the
    part for what it owns; the table keeps its identity, its lock and its life in the
    registry, and names the two facts nearly every caller reads (:attr:`places`,
    :attr:`match`).
    """

    def __init__(self, record: TableRecord, storage: Storage, settings: Settings) -> None:
        self.id = record.id
        self.name = record.name
        self.rules = Rules.from_dict(record.rules)
        self.created = record.created
        self.storage = storage
        self.settings = settings
        self.peers: Peers | None = storage if isinstance(storage, Peers) else None
        """Other server processes on the same database, if any."""
        self.lock = asyncio.Lock()
        self.closed = False
        self.on_game_over: Callable[[Table], None] | None = None
        """Called when a game here ends (stored finished): the registry tells the club
        night an online table plays for."""
        self.seating = Seating(self, record)
        self.play = Play(self, record)
        self.audience = Audience(self)
        self.talk = Talk(self)
        self.clock = Clock(self)
        self.sync = Sync(self)
        self.used = time.monotonic()
        """When the table was last asked for (a finished table idle long enough may be
        dropped from memory, :meth:`~.registry.Tables.make_room`)."""
        self.last_active = time.time()
        """When something last happened here (an action, a connection coming or going)."""
        self.creator = ""
        """The address that made the table, while this process holds it (tables per
        address are bounded, :attr:`~.limits.Limits.tables_per_address`)."""
        self.visited = self._visited_before(record)
        """Someone it was made for has come: a person at one of its places (at a table of
        bots only, a spectator).  A table never visited expires within minutes."""

    def _visited_before(self, record: TableRecord) -> bool:
        """Whether a person played here (a table read from storage): an action stored
        from a place no bot holds, or a game before this one.  (A table of bots only
        leaves no trace of its spectators: it waits for one anew.)"""
        if len(record.matches) > 1:
            return True
        bots = {p.index for p in self.places if p.kind == "bot"}
        match = self.match
        return any(match.place_at[seat] not in bots for seat, _ in match.actions)

    # -- the two facts nearly every caller reads --------------------------------------------------
    @property
    def places(self) -> list[PlaceRecord]:
        """The table's places, by index (:attr:`Seating.places <.seating.Seating>`)."""
        return self.seating.places

    @property
    def match(self) -> Match:
        """The current match."""
        return self.play.match

    # -- the table's life in the registry --------------------------------------------------------
    @property
    def is_idle(self) -> bool:
        """Finished, unwatched, no bot or request at work, and not asked for lately."""
        return (self.play.is_over and not self.audience.connections and not self.lock.locked()
                and not self.play.bots_at_work
                and time.monotonic() - self.used >= EVICT_AFTER)

    @property
    def is_quiet(self) -> bool:
        """Unfinished, but nobody connected, no bot or request at work, and no person
        here for :data:`LOBBY_QUIET` seconds: it may leave memory to make room (it
        stays stored, and is read again when asked for)."""
        return (not self.play.is_over and self.visited and not self.audience.connections
                and not self.lock.locked()
                and not self.play.bots_at_work
                and time.time() - self.audience.last_person >= LOBBY_QUIET)

    @property
    def unvisited(self) -> bool:
        """Unfinished, nobody connected, and never visited since it was made (see
        :attr:`visited`): it does not count against the tables in play."""
        return not self.visited and not self.play.is_over and not self.audience.connections

    def stop_timers(self) -> None:
        """Stop the turn clock and the presence timers (the table leaves memory)."""
        self.clock.stop()
        self.audience.stop_presence()

    async def _stop_tasks(self) -> None:
        """Stop the turn clock, the presence timer and the bots' task, and wait for it."""
        self.stop_timers()
        await self.play.stop()

    async def close(self) -> None:
        """Stop the bots and the connections (the server is stopping)."""
        await self._stop_tasks()
        # all at once: each waits at most 2 s for a slow client
        await asyncio.gather(*(conn.close() for conn in list(self.audience.connections)))

    async def shut(self, code: str, message: str,
                   params: dict[str, Any] | None = None) -> None:
        """The table closes: bots stop and every connection is told why."""
        self.closed = True
        await self._stop_tasks()
        conns, self.audience.connections = self.audience.connections, []
        for conn in conns:
            await conn.end(code, message, 4404, params)
