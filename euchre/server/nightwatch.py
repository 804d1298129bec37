"""A club night's live pages: reading and writing a night (:mod:`~euchre.server.night`)
for the routes, and telling the pages that follow it (the standings on a projector, the
players' phones, the organiser's screen, each over a WebSocket ``/ws/night/{id}``) the
night afresh whenever it changes.

A night changes by a write in this process (:meth:`NightWatch.write`), by a write at
another server process on the same PostgreSQL database (its ``NOTIFY``, heard as a
:class:`~.storage.Change` with ``night`` set, :meth:`NightWatch.changed`), or when the
game of one of its online tables ends (:meth:`NightWatch.game_over`, which records it).

The night is read once per change for all its watchers in this process, one read at a
time per night (changes during a read make one more read after it), and rendered once per
role; each watcher keeps only the latest night to send, so a slow phone skips states and
never piles them up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from euchre.server import night as nights
from euchre.server.night import Night, Role, Writes
from euchre.server.storage import Storage, StorageError

__all__ = ["NightWatch", "Watcher"]

log = logging.getLogger("euchre.server")


class Watcher:
    """One page following a night: its holder's role, and the latest night to send it
    (as JSON text)."""

    def __init__(self, night_id: str, role: Role) -> None:
        self.night_id = night_id
        self.role = role
        self._latest: str | None = None
        self._ready = asyncio.Event()

    def put(self, text: str) -> None:
        """The night as it is now: replaces one not yet sent."""
        self._latest = text
        self._ready.set()

    async def next(self) -> str:
        """The night to send next, once there is one."""
        await self._ready.wait()
        self._ready.clear()
        text, self._latest = self._latest, None
        assert text is not None
        return text


class NightWatch:
    """The nights of one server process: read, written and followed live."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._watchers: dict[str, set[Watcher]] = {}
        self._dirty: set[str] = set()
        self._reading: dict[str, asyncio.Task[None]] = {}
        self._jobs: set[asyncio.Task[Any]] = set()

    # -- reading and writing ---------------------------------------------------------------------
    async def read(self, night_id: str) -> Night | None:
        """The night as stored, or ``None`` (an id no night could have is not asked)."""
        if len(night_id) > 64:
            return None
        return nights.night_from_rows(await self.storage.night_read(
            nights.load_queries(night_id)))

    async def load(self, night_id: str) -> Night | None:
        """The night, with the games of its online tables that have ended since recorded:
        each game's scores become its table's points.  Of two loads recording one game at
        once, one stores it."""
        night = await self.read(night_id)
        if night is None:
            return None
        recorded = False
        for number, table, table_id in nights.awaiting_games(night):
            record = await self.storage.load_table(table_id)
            game = record.matches[0] if record and record.matches else None
            if game is None or game.finished is None or not game.result:
                continue
            scores = game.result["games"][0]["scores"]
            recorded |= await self.write(night_id, nights.played(night, number, table, scores))
        return await self.read(night_id) if recorded else night

    async def write(self, night_id: str, writes: Writes) -> bool:
        """Run a night's writes in one transaction (``False``: one collided, nothing was
        written); the night's watchers here and at the other processes hear of it."""
        done = await self.storage.night_write([w for w, _ in writes], [c for _, c in writes],
                                              announce=night_id)
        if done:
            self.changed(night_id)
        return done

    # -- following -----------------------------------------------------------------------------
    def watch(self, night: Night, role: Role) -> Watcher:
        """A new watcher of ``night`` as ``role`` sees it, given the night as it is now."""
        watcher = Watcher(night.id, role)
        self._watchers.setdefault(night.id, set()).add(watcher)
        watcher.put(json.dumps({"type": "night", "night": night.to_json(role)}))
        return watcher

    def unwatch(self, watcher: Watcher) -> None:
        """The page went away."""
        found = self._watchers.get(watcher.night_id)
        if found is not None:
            found.discard(watcher)
            if not found:
                del self._watchers[watcher.night_id]

    def watchers(self, night_id: str) -> int:
        """How many pages here follow the night."""
        return len(self._watchers.get(night_id, ()))

    def changed(self, night_id: str) -> None:
        """The night changed (here, or ``"*"``: any night, the notifications were lost):
        its watchers here are told once it is read again."""
        ids = list(self._watchers) if night_id == "*" else [night_id]
        for nid in ids:
            if nid not in self._watchers:
                continue
            self._dirty.add(nid)
            if nid not in self._reading:
                task = asyncio.create_task(self._tell(nid))
                self._reading[nid] = task

    def game_over(self, night_id: str) -> None:
        """The game of one of the night's online tables ended: record it (which tells the
        watchers here and elsewhere)."""
        task = asyncio.create_task(self._record(night_id))
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _record(self, night_id: str) -> None:
        try:
            await self.load(night_id)
        except StorageError as e:
            log.warning("the game of an online table of night %s is recorded at the "
                        "night's next read: %s", night_id, e)

    async def _tell(self, night_id: str) -> None:
        try:
            while night_id in self._dirty:
                self._dirty.discard(night_id)
                try:
                    night = await self.load(night_id)
                except StorageError as e:
                    log.warning("night %s could not be read for its live pages: %s",
                                night_id, e)
                    continue
                if night is None:
                    continue
                # what everyone sees is written once; each role's part is added to it
                shared = json.dumps(night.shared_json)[:-1]
                shown: dict[Role, str] = {}
                for watcher in list(self._watchers.get(night_id, ())):
                    if watcher.role not in shown:
                        own = json.dumps(night.role_json(watcher.role))[1:]
                        shown[watcher.role] = f'{{"type": "night", "night": {shared}, {own}}}'
                    watcher.put(shown[watcher.role])
        finally:
            del self._reading[night_id]

    async def stop(self) -> None:
        """Stop reading for the watchers and recording games."""
        for task in [*self._reading.values(), *self._jobs]:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
