"""Every table the server holds in memory: the registry that makes, loads, finds,
evicts and expires them (:class:`Tables`).

Unfinished tables are resumed from storage at start-up, others are loaded when asked
for; at most ``max_tables`` are held, finished tables nobody watches making room.  With
other server processes on the database (:class:`~.storage.Peers`), the registry hears
what they store and hands each table's changes to it (:meth:`.sync.Sync.catch_up`),
and takes over the bots of tables whose process went away.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any

from euchre.rules import Rules
from euchre.server.limits import LimitError, Limits
from euchre.server.nightwatch import NightWatch
from euchre.server.protocol import is_table_id
from euchre.server.storage import (
    Change,
    MatchRecord,
    Peers,
    PlaceRecord,
    Storage,
    StorageError,
    TableRecord,
)
from euchre.server.table import EVICT_AFTER, Settings, Table

__all__ = ["Tables"]

log = logging.getLogger("euchre.server")


class Tables:
    """Every table the server holds: unfinished ones from start-up, others on demand.

    At most ``max_tables`` are held: finished tables nobody watches are dropped to make
    room (they are read from storage again when asked for); when none can be, a new or
    reloaded table is refused (:class:`LimitError` ``server_full``).
    """

    def __init__(self, storage: Storage, settings: Settings,
                 max_tables: int = Limits().max_tables) -> None:
        self.storage = storage
        self.settings = settings
        self.max_tables = max_tables
        self._tables: dict[str, Table] = {}
        self._making: collections.Counter[str] = collections.Counter()
        self._expiry: asyncio.Task[None] | None = None
        self.peers: Peers | None = storage if isinstance(storage, Peers) else None
        """Other server processes on the same database, if any."""
        self._takeover: asyncio.Task[None] | None = None
        self._following: set[asyncio.Task[Any]] = set()
        self.nights = NightWatch(storage)
        """The club nights: read, written and followed live (:mod:`~.nightwatch`)."""

    async def start(self) -> None:
        """Resume every unfinished table from storage and let its bots play on.

        With other processes on the database, start hearing what they store first, and
        play the bots of the tables no other process plays.
        """
        if self.peers is not None:
            await self.peers.listen(self._changed)
        records = await self.storage.unfinished_tables()
        if len(records) > self.max_tables:  # the most recently started ones
            log.warning("%d unfinished tables but room for %d: the others are loaded "
                        "when asked for", len(records), self.max_tables)
            records = records[-self.max_tables:]
        for record in records:
            try:
                table = self._build(record)
            except (StorageError, ValueError) as e:
                log.error("table %s cannot be resumed: %s", record.id, e)
                continue
            self._tables[table.id] = table
            if table.play.is_over:  # the server stopped between the last action and its result
                await self.storage.finish_match(table.id, table.match.number,
                                                table.match.result())
            await self._claim_bots(table)
            table.play.kick()
        log.info("resumed %d unfinished table(s)", len(self._tables))
        period = min(600.0, max(1.0, min(self.settings.idle_expiry,
                                         self.settings.unvisited_expiry) / 10))
        self._expiry = asyncio.create_task(
            _every(period, self.expire_idle, "idle tables could not be closed"))
        if self.peers is not None:
            self._takeover = asyncio.create_task(
                _every(self.peers.takeover, self.take_over,
                       "tables without a process for their bots"))

    def _build(self, record: TableRecord) -> Table:
        """A table from its record, the end of its game told to its club night, if any
        (an online table of a night, :meth:`~.nightwatch.NightWatch.game_over`)."""
        table = Table(record, self.storage, self.settings)
        table.on_game_over = self._game_over
        return table

    def _game_over(self, table: Table) -> None:
        night = table.seating.options.get("night")
        if isinstance(night, dict) and isinstance(night.get("id"), str):
            self.nights.game_over(night["id"])

    # -- other server processes on the same database ------------------------------------------
    async def _claim_bots(self, table: Table) -> None:
        """Play the table's bots here if no other process does."""
        if (self.peers is not None and not table.play.is_over
                and any(p.kind == "bot" for p in table.places)):
            await self.peers.claim_bots(table.id)

    def _changed(self, change: Change) -> None:
        """Another process stored something: the table, if held here, follows (a club
        night: its pages here are told)."""
        if change.night or change.table_id == "*":
            self.nights.changed(change.table_id)
            if change.night:
                return
        if change.chat is not None:  # said at another process: no storage involved
            held = self._tables.get(change.table_id)
            if held is not None:
                held.talk.receive_chat(change.chat)
            return
        if change.table_id == "*":
            targets = list(self._tables.values())
        else:
            table = self._tables.get(change.table_id)
            targets = [] if table is None else [table]
        jobs = [self._follow(table, change) for table in targets]
        if change.created and not targets:  # a new table: in this lobby too
            jobs.append(self._adopt(change.table_id))
        for job in jobs:
            task = asyncio.create_task(job)
            self._following.add(task)
            task.add_done_callback(self._following.discard)

    async def _adopt(self, table_id: str) -> None:
        """Hold a table another process made, if there is room."""
        with contextlib.suppress(LimitError, StorageError):
            await self.get(table_id)

    async def _follow(self, table: Table, change: Change) -> None:
        if change.table_id == "*":
            change = Change(table.id)
        if not await table.sync.catch_up(change):  # deleted, or its game abandoned, elsewhere
            if self._tables.get(table.id) is table:
                del self._tables[table.id]
            table.closed = True
            await self._let_go(table)
            await table.shut("closed", "the table was closed")

    async def _let_go(self, table: Table) -> None:
        if self.peers is not None:
            with contextlib.suppress(StorageError):
                await self.peers.release_bots(table.id)

    async def take_over(self) -> list[str]:
        """Play the bots of every table whose bots no process plays (their process
        died); returns their ids."""
        if self.peers is None:
            return []
        taken = []
        for table_id in await self.peers.orphaned_tables():
            try:
                table = await self.get(table_id)
            except LimitError:
                break  # no room here: another process may have some
            if table is None or not await self.peers.claim_bots(table_id):
                continue
            await table.sync.catch_up(Change(table_id))  # what the last holder stored
            taken.append(table_id)
        if taken:
            log.info("took over the bots of %d table(s)", len(taken))
        return taken

    async def stop(self) -> None:
        """Stop every table's bots and connections."""
        for task in (self._expiry, self._takeover, *self._following):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await self.nights.stop()
        await asyncio.gather(*(table.close() for table in self._tables.values()))

    def in_play(self) -> int:
        """The tables that count against ``max_tables``: held, and neither idle,
        quiet, nor never visited."""
        return sum(not (t.is_idle or t.is_quiet or t.unvisited)
                   for t in self._tables.values())

    async def make_room(self) -> None:
        """Room for one more table: at the limit, drop a table nobody needs in memory.

        Only tables in play count against ``max_tables``: a finished table nobody
        watches (:attr:`Table.is_idle`) or an unfinished one nobody has been at for a
        while (:attr:`Table.is_quiet`) leaves memory (it stays stored); tables never
        visited (:attr:`Table.unvisited`, which expire within minutes) do not count,
        though at most ``max_tables`` of them are held (the oldest is abandoned).
        Raises :class:`LimitError` (``server_full``) if ``max_tables`` are in play.
        """
        if len(self._tables) < self.max_tables:
            return
        tables = list(self._tables.values())
        spare = [t for t in tables if t.is_idle] or [t for t in tables if t.is_quiet]
        if spare:
            self._drop(min(spare, key=lambda t: t.used))
            return
        unvisited = [t for t in tables if t.unvisited]
        if len(tables) - len(unvisited) >= self.max_tables:
            raise LimitError("server_full", f"the server already holds its limit of "
                             f"{self.max_tables} tables in play: try again later", 503,
                             EVICT_AFTER, {"max": self.max_tables})
        if len(unvisited) >= self.max_tables:  # made faster than they expire: the oldest
            oldest = min(unvisited, key=lambda t: t.created)
            await self.abandon(oldest, "nobody came to it", "unvisited")

    def _drop(self, table: Table) -> None:
        """Forget a table held in memory (it stays stored)."""
        del self._tables[table.id]
        table.stop_timers()
        if self.peers is not None and self.peers.holds_bots(table.id):
            self._later(self._let_go(table))

    def _later(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    def created_by(self, address: str) -> int:
        """Unfinished tables held here that ``address`` made, or is making now."""
        return self._making[address] + sum(
            t.creator == address and not t.play.is_over and not t.closed
            for t in self._tables.values())

    @contextlib.contextmanager
    def making(self, address: str) -> Iterator[None]:
        """Count a table ``address`` is making in :meth:`created_by` until it is made (or
        refused): enter it in the same step as the check, so that requests at once cannot
        all pass a quota that only the tables already made would fill."""
        self._making[address] += 1
        try:
            yield
        finally:
            self._making[address] -= 1
            if not self._making[address]:
                del self._making[address]

    async def create(self, name: str, rules: Rules, places: list[PlaceRecord],
                     options: dict[str, Any] | None = None, creator: str = "") -> Table:
        """Store and open a new table (``options``: the turn timer, the host's key…;
        ``creator``: the address that asks, counted while the table is unfinished)."""
        await self.make_room()
        table_id = secrets.token_urlsafe(6)
        while table_id in self._tables or await self.storage.load_table(table_id):
            table_id = secrets.token_urlsafe(6)
        now = time.time()
        record = TableRecord(table_id, name, rules.to_dict(), places,
                             [MatchRecord(1, secrets.randbits(63), started=now)], now,
                             dict(options or {}))
        table = self._build(record)
        table.creator = creator
        await self._claim_bots(table)  # before it is stored: no other process takes it
        try:
            await self.storage.create_table(record)
        except StorageError:
            await self._let_go(table)
            raise
        self._tables[table_id] = table
        table.play.kick()
        return table

    async def get(self, table_id: str) -> Table | None:
        """A table by id, loaded from storage if it is not in memory; ``None`` for an id
        that cannot be a table's (:func:`~.protocol.is_table_id`) without asking storage.
        :class:`StorageError` if storage fails, or holds the table damaged."""
        if not is_table_id(table_id):  # no table's: storage is not asked
            return None
        table = self._tables.get(table_id)
        if table is None:
            record = await self.storage.load_table(table_id)
            if record is None:
                return None
            table = self._tables.get(table_id)
            if table is None:
                await self.make_room()
                # loaded meanwhile by another request: that one is the table
                table = self._tables.get(table_id)
            if table is None:
                try:
                    loaded = self._build(record)
                except (ValueError, KeyError, TypeError) as e:
                    raise StorageError(f"table {table_id} is stored but cannot be "
                                       f"rebuilt: {e}") from None
                table = self._tables[table_id] = loaded
                await self._claim_bots(table)
                if self.peers is not None:  # what was stored while it loaded
                    self._changed(Change(table_id, True, table.match.number,
                                         table.match.seq + 1))
        table.used = time.monotonic()
        return table

    # -- tables nobody plays at any more ----------------------------------------------------
    async def delete(self, table: Table) -> None:
        """Its creator deletes a table: it is gone, with every game played at it."""
        async with table.lock:
            await self.storage.delete_table(table.id)
            table.closed = True  # under the lock: no bot acts at the table after this
            self._tables.pop(table.id, None)
        await self._let_go(table)
        await table.shut("closed", "the table was deleted by its creator",
                         {"why": "deleted"})

    async def abandon(self, table: Table, why: str, code: str = "") -> None:
        """Nobody plays at the table any more: its unfinished game is forgotten (a
        finished one stays in the history) and it leaves the open tables."""
        async with table.lock:
            if table.play.is_over:
                return
            if table.play.matches > 1:  # earlier games were finished: keep them for replays
                await self.storage.discard_match(table.id, table.match.number)
            else:
                await self.storage.delete_table(table.id)
            table.closed = True  # under the lock: no bot acts at the table after this
            self._tables.pop(table.id, None)
        await self._let_go(table)
        await table.shut("closed", f"the table was closed: {why}", {"why": code})

    async def leave(self, table: Table, place: int) -> None:
        """A person leaves a table; the last one to leave closes it."""
        await table.seating.release(place)
        if not table.seating.people() and not table.play.is_over:
            await self.abandon(table, "everybody left", "everybody_left")

    async def expire_idle(self, now: float | None = None) -> list[str]:
        """Abandon every unfinished table with nobody connected and nothing played for
        :attr:`Settings.idle_expiry` seconds, and every one never visited
        (:attr:`Table.unvisited`) made :attr:`Settings.unvisited_expiry` seconds ago;
        returns their ids."""
        now = time.time() if now is None else now
        expired = []
        for table in list(self._tables.values()):
            if table.play.is_over or table.audience.connections:
                continue
            if table.unvisited and now - table.created > self.settings.unvisited_expiry:
                await self.abandon(table, "nobody came to it", "unvisited")
            elif now - table.last_active > self.settings.idle_expiry:
                await self.abandon(table, "nobody played at it for a long time", "idle")
            else:
                continue
            expired.append(table.id)
        if expired:
            log.info("closed %d idle table(s)", len(expired))
        return expired

    def open_tables(self) -> list[Table]:
        """The tables the lobby lists, newest first: public, unfinished, with a person
        connected in the last :data:`~.table.LOBBY_QUIET` seconds."""
        return sorted((t for t in self._tables.values() if t.audience.listed),
                      key=lambda t: -t.created)


async def _every(period: float, work: Callable[[], Awaitable[object]], failed: str) -> None:
    """Run ``work`` every ``period`` seconds until cancelled; a storage error is logged
    (``failed: why``) and the next round tries again."""
    while True:
        await asyncio.sleep(period)
        try:
            await work()
        except StorageError as e:
            log.error("%s: %s", failed, e)
