"""A table kept in step with storage, and with other server processes on it.

A :class:`Sync` is one part of a :class:`~euchre.server.table.Table`.  When several
server processes share the database (:class:`~.storage.Peers`), each applies what the
others store as it hears of it (:meth:`Sync.catch_up`), an action stored first elsewhere
makes this process's one a conflict (the table reloads), and what a seat token or an
invitation opens is asked of the database when this process does not know it yet.  A
table's own bots play only in the process holding its bots' lock (stand-ins for a person
away play where the person's clock ran out: the database orders them like any action).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from euchre.actions import Action
from euchre.server.outbox import Connection
from euchre.server.outbox import error_message as _error
from euchre.server.storage import (
    Change,
    PlaceRecord,
    StorageConflict,
    StorageError,
    TableRecord,
)

if TYPE_CHECKING:
    from euchre.server.table import Table

__all__ = ["STORAGE_FAILED", "Sync"]

log = logging.getLogger("euchre.server")

STORAGE_FAILED = ("the server could not read or write its database: nothing was done; "
                  "try again in a moment")
"""What a person is told when the database failed (each page words it by its code,
``storage``, in its own language); the database's own words go to the log only."""


class Sync:
    """How a table follows storage: writes, conflicts, reloads, other processes."""

    def __init__(self, table: Table) -> None:
        self.table = table

    # -- places and settings as stored -------------------------------------------------------
    def take_places(self, record: TableRecord) -> None:
        """Places and settings as another process stored them (the lock is held): its
        bots play, and a connection whose seat token was revoked is ended."""
        table = self.table
        seating = table.seating
        bots_before = {(p.index, p.bot) for p in seating.places if p.kind == "bot"}
        seating.places = record.places
        seating.take_options(record.options)
        if {(p.index, p.bot) for p in seating.places if p.kind == "bot"} != bots_before:
            table.play.make_bots()
        seating.drop_revoked()

    async def read_places(self) -> None:
        """Places and settings as stored now (the lock is held)."""
        record = await self.table.storage.load_table(self.table.id)
        if record is not None:
            self.take_places(record)

    async def place_by_token_stored(self, token: str) -> PlaceRecord | None:
        """:meth:`~.seating.Seating.place_by_token`, and with other server processes, if
        this one knows no place of the token, the same asked of the places as stored now:
        a seat taken at another process a moment ago opens here before this process
        hears of it."""
        table = self.table
        found = table.seating.place_by_token(token)
        if found is None and table.peers is not None:
            async with table.lock:
                await self.read_places()
            found = table.seating.place_by_token(token)
        return found

    async def invited_place(self, invite: str) -> PlaceRecord | None:
        """The place an invitation opens, or ``None``; nothing is spent.  An invitation
        this process has not heard of is looked up again in the database (the host may
        have made it at another process a moment ago)."""
        table = self.table
        place = table.seating.place_by_invite(invite)
        if place is None and table.peers is not None:
            async with table.lock:
                await self.read_places()
            place = table.seating.place_by_invite(invite)
        return place

    async def holds_seat(self, conn: Connection) -> bool:
        """Does ``conn``'s seat token still hold its place?  With other server
        processes, the places are read again from the database first, so that a removal
        or a new invitation the host made at another process is in force here before
        that process answers the host; a connection that lost its place is ended."""
        table = self.table
        if table.peers is None or conn.place is None or conn.token is None:
            return True
        async with table.lock:
            await self.read_places()  # ends the connections whose seat went away
        place = table.seating.places[conn.place]
        return (place.claimed and place.kind != "bot" and place.token is not None
                and secrets.compare_digest(place.token.encode(), conn.token.encode()))

    # -- writes and conflicts ----------------------------------------------------------------
    async def write(self, write: Awaitable[None]) -> dict[str, Any] | None:
        """Wait for a person's write: ``None`` once stored, else the error to answer.
        A write storage already holds another (a conflict) reloads the table."""
        table = self.table
        try:
            await write
        except StorageConflict as e:
            await self.reload(e)
            return _error("stale", "the table was changed elsewhere and has been "
                          "reloaded: nothing was done", {"at": table.play.match.seq},
                          seq=table.play.match.seq)
        except StorageError as e:
            # the cause, in one line, is the log's; the player is told what it means
            log.error("table %s: an action was not stored: %s", table.id,
                      " ".join(str(e).split()))
            return _error("storage", STORAGE_FAILED)
        return None

    async def reload(self, conflict: StorageError) -> bool:
        """Rebuild the table from storage after a write conflict (the lock is held).

        Storage holds what another writer stored first; the table is rebuilt from it
        and everyone is sent the state again.  ``False`` (the table left as it was) if
        the stored table cannot be rebuilt.
        """
        table = self.table
        log.warning("table %s: %s; reloading it from storage", table.id, conflict)
        try:
            record = await table.storage.load_table(table.id)
            if record is None or not record.matches:
                raise StorageError("it is no longer stored")
            self._rebuild(record)
        except (StorageError, ValueError) as e:
            log.error("table %s cannot be reloaded: %s", table.id, e)
            return False
        table.audience.broadcast()
        table.play.kick()  # the stored state may be a bot's turn
        return True

    def _rebuild(self, record: TableRecord) -> None:
        """The table as stored (the lock is held); raises if it does not replay."""
        table = self.table
        play = table.play
        if play.match.number != record.matches[-1].number:
            play.away.clear()
            play.reading.clear()
        table.seating.places = record.places
        table.seating.take_options(record.options)
        play.match = play.replay(record.matches[-1])
        play.matches = len(record.matches)
        table.seating.drop_revoked()

    # -- other server processes ----------------------------------------------------------------
    def _apply_stored(self, actions: list[tuple[int, str]]) -> None:
        """Apply actions another process stored, one at a time, each state sent: the
        connections here miss none of them (the lock is held)."""
        table = self.table
        for seat, text in actions:
            table.play.deal_ended(table.play.match.apply(Action.parse(text), seat) is not None)
            table.clock.arm()
            table.audience.broadcast()

    async def catch_up(self, change: Change) -> bool:
        """Another server process stored something here: apply what is new, tell every
        connection, let the bots go on.  ``False`` if the table is no longer stored."""
        table = self.table
        async with table.lock:
            if table.closed:
                return True
            match = table.play.match
            if change.action and change.match == match.number and change.seq <= match.seq:
                return True  # already applied
            try:
                if change.action and change.match == match.number:
                    self._apply_stored(await table.storage.actions_since(
                        table.id, match.number, match.seq))
                else:
                    record = await table.storage.load_table(table.id)
                    if record is None or not record.matches:
                        return False
                    stored = record.matches[-1]
                    self.take_places(record)
                    if (stored.number == match.number
                            and stored.actions[:match.seq] == match.actions):
                        self._apply_stored(stored.actions[match.seq:])
                    else:  # another match, or a history that differs: rebuilt
                        self._rebuild(record)
                    table.clock.arm()
                    table.audience.broadcast()
            except (StorageError, ValueError) as e:
                log.error("table %s cannot follow the database: %s", table.id, e)
                return True
            table.last_active = time.time()
        table.play.kick()
        return True
