"""Where tables live between restarts: their rules, seats, seeds and every action.

The server writes each action here *before* it acknowledges it, and on start-up replays
what it finds to resume every unfinished game exactly.  :class:`Storage` is the interface
the server uses (all coroutines, so a server database with an async driver can implement
it); :class:`SQLiteStorage` implements it over one SQLite file, for one server process.
Several processes share a PostgreSQL database (:mod:`euchre.server.pgstorage`), which
also implements :class:`Peers`: what one process hears of the others' writes, and which
of them plays each table's bots.  :func:`euchre.server.app.open_storage` picks one from ``--db``.

SQLite calls are blocking, so one worker thread owns the connection and commits in groups:
every write queued while the previous commit was running goes into the next transaction
(each in its own savepoint, so one failing write fails alone), and every waiting coroutine
resumes once that commit is done.  With ``synchronous="FULL"`` (the default) a commit
survives a power cut, and grouping keeps that affordable under load.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import re
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Literal, Protocol, TypeVar, runtime_checkable

from euchre.server import schema
from euchre.userdirs import data_folder

__all__ = [
    "Change",
    "MatchRecord",
    "Peers",
    "PlaceRecord",
    "SQLiteStorage",
    "Statement",
    "Storage",
    "StorageConflict",
    "StorageError",
    "TableRecord",
    "database_location",
    "default_db_path",
    "is_postgres_url",
    "lock_database",
    "new_table",
    "place_update",
    "table_record",
]

log = logging.getLogger("euchre.server")

T = TypeVar("T")
Synchronous = Literal["FULL", "NORMAL", "OFF"]

PlaceKind = Literal["you", "friend", "open", "bot"]
"""Who fills a place: the creator, a friend with an invitation link, anyone from the
lobby, or a bot."""


class StorageError(RuntimeError):
    """The database refused a write or a read; the action it carried did not happen.

    Its message is one line, whatever the driver's said (libpq's span several): one
    failure is one line in the log."""

    def __init__(self, message: str = "") -> None:
        super().__init__(" ".join(str(message).split()))


class StorageConflict(StorageError):
    """A write collided with one already stored (another writer got there first): the
    table in memory is behind the database and must be reloaded."""


@dataclass(slots=True)
class PlaceRecord:
    """One place at a table, as chosen in the lobby.

    Places are the players in the order they were listed; the seat a place takes in a
    game is its own index, except after the four-handed draw (RULES §11).
    """

    index: int
    kind: PlaceKind
    name: str
    bot: str | None = None
    token: str | None = None
    """The seat token: the secret that lets the person holding the place play and resume
    it (``None`` while nobody holds it, and for a bot)."""
    claimed: bool = False
    invite: str | None = None
    """The place's invitation: a secret that lets one person claim the place once.  It
    is never a seat token: claiming it makes a new one.  It stays stored once spent
    (``claimed``), so a second person opening it is told the seat is taken; a new
    invitation from the host replaces it."""


@dataclass(slots=True)
class MatchRecord:
    """One game (or one rubber of games) at a table: its seed and its actions."""

    number: int
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    """``(seat, action)`` in the order applied, the action in RECORDS notation."""
    result: dict[str, Any] | None = None
    """Set when the game is over: scores and winners."""
    started: float = 0.0
    finished: float | None = None


@dataclass(slots=True)
class TableRecord:
    """Everything needed to rebuild a table exactly."""

    id: str
    name: str
    rules: dict[str, Any]
    places: list[PlaceRecord]
    matches: list[MatchRecord]
    created: float = 0.0
    options: dict[str, Any] = field(default_factory=dict)
    """Table options that are not rules of the game (the turn timer)."""


class Storage(Protocol):
    """What the server needs from a database.  Every write is durable when it returns."""

    async def create_table(self, table: TableRecord) -> None:
        """Store a new table with its places and first match."""
        ...

    async def claim_place(self, table_id: str, place: int, name: str,
                          open_only: bool = False) -> bool:
        """Mark a place as taken by a person called ``name``.  With ``open_only`` the
        database takes it only if nobody has (another server process may have given it
        away a moment ago): returns whether the place was taken now."""
        ...

    async def start_match(self, table_id: str, number: int, seed: int) -> None:
        """Store a new match (a rematch) at a table."""
        ...

    async def append_action(
        self, table_id: str, match: int, index: int, seat: int, action: str,
        token: str | None = None,
    ) -> None:
        """Store action ``index`` of a match (RECORDS notation).

        Refused (:class:`StorageConflict`) if action ``index`` is already stored, and,
        given the seat ``token`` of the person acting, if that token no longer holds a
        place at the table (the host gave the seat away at another process a moment
        ago: in force before the host was answered).
        """
        ...

    async def finish_match(self, table_id: str, match: int, result: dict[str, Any]) -> None:
        """Mark a match as over, with its scores and winners."""
        ...

    async def load_table(self, table_id: str) -> TableRecord | None:
        """A table with all its matches and actions, or ``None``."""
        ...

    async def actions_since(self, table_id: str, match: int, index: int
                            ) -> list[tuple[int, str]]:
        """The actions ``(seat, action)`` of a match from action ``index`` on, in order."""
        ...

    async def unfinished_tables(self) -> list[TableRecord]:
        """Every table whose latest match is not over: the server resumes these."""
        ...

    async def finished_matches(self, limit: int = 50, offset: int = 0
                               ) -> list[tuple[TableRecord, MatchRecord]]:
        """The most recently finished matches, skipping the ``offset`` latest (the
        table's other matches left out)."""
        ...

    async def close(self) -> None:
        """Finish pending writes and release the database."""
        ...

    async def release_place(
        self, table_id: str, place: int, kind: PlaceKind, name: str, token: str | None
    ) -> None:
        """A person left a place: it becomes ``kind`` again, unclaimed, with a new token."""
        ...

    async def discard_match(self, table_id: str, match: int) -> None:
        """Forget an unfinished match and its actions (an abandoned game)."""
        ...

    async def update_place(self, table_id: str, place: PlaceRecord) -> None:
        """Store every field of ``place``."""
        ...

    async def spend_invitation(self, table_id: str, place: PlaceRecord, invite: str
                               ) -> bool | None:
        """A person opens the invitation ``invite``: store ``place`` (theirs now) only if
        the place still has that invitation unspent, so of two people opening one
        invitation at once exactly one gets the seat, and in the same transaction, once
        no place's invitation is left unspent, mark the table started (its option
        ``started``): of the last two guests arriving at once on two server processes,
        the second to commit sees the first's seat taken and deals.  Returns ``None``
        when the invitation was spent already, else whether the table is started."""
        ...

    async def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """Store these options of the table (the host's settings: timer, privacy,
        start): each replaces the stored one of its name, the others stay as stored (a
        process whose copy of the others is a moment old does not undo their change)."""
        ...

    async def night_read(self, queries: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
        """The rows of each query (a club night's, :mod:`euchre.server.night`), all read
        in one transaction."""
        ...

    async def night_write(self, writes: Sequence[Statement], checked: Sequence[bool],
                          announce: str | None = None) -> bool:
        """Run a club night's writes in one transaction; ``False``, with nothing written,
        when one of them collides with a row stored already (a key taken) or one
        ``checked`` changes no row (another writer got there first).  ``announce``: the
        night whose pages the other server processes are told of the write (with
        :class:`Peers`; a :class:`Change` with ``night`` set)."""
        ...

    async def delete_table(self, table_id: str) -> None:
        """Forget a table: its places, every match and every action."""
        ...


@dataclass(frozen=True, slots=True)
class Change:
    """Another server process stored something at a table.

    ``action``: it stored the match's actions up to ``seq`` (their count); ``created``:
    the table is new (every process lists it in its lobby); otherwise anything else may
    have changed (a place, a new match, the table deleted) and the table is read again.
    The table id ``"*"`` means any table (notifications were lost).
    """

    table_id: str
    action: bool = False
    match: int = 0
    seq: int = 0
    created: bool = False
    chat: dict[str, Any] | None = None
    """A chat message said at the table (nothing was stored)."""
    night: bool = False
    """``table_id`` is a club night's id: the night was written."""


@runtime_checkable
class Peers(Protocol):
    """A database several server processes share: each process hears what the others
    store, and each table's bots are played by exactly one process at a time."""

    takeover: float
    """Seconds between two looks for tables whose bots no process plays."""

    async def listen(self, on_change: Callable[[Change], None]) -> None:
        """Call ``on_change`` for every write another process commits, from now on."""
        ...

    def holds_bots(self, table_id: str) -> bool:
        """Does this process play the table's bots?"""
        ...

    async def claim_bots(self, table_id: str) -> bool:
        """Take the table's bots if no other process plays them; ``True`` if ours."""
        ...

    async def release_bots(self, table_id: str) -> None:
        """Let another process play the table's bots."""
        ...

    async def orphaned_tables(self, limit: int = 100) -> list[str]:
        """Unfinished tables with bots that no process plays."""
        ...

    async def send_chat(self, table_id: str, message: dict[str, Any],
                        token: str | None = None) -> bool | None:
        """Pass a chat message said here to the other processes (nothing is stored),
        unless the stored options of the table mute its place (``message["place"]``),
        or ``token`` (the speaker's seat token) no longer holds that place as stored:
        whether it was sent, ``None`` if the database could not be asked.  A mute, a
        removal or a new invitation stored at another process is in force here before
        that process answers its host, whatever this one has heard of it."""
        ...


def is_postgres_url(db: object) -> bool:
    """Does ``--db`` name a PostgreSQL database (``postgresql://…``) rather than a file?

    >>> is_postgres_url("postgresql://euchre@db/euchre"), is_postgres_url("games.sqlite3")
    (True, False)
    """
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def database_location(db: str | Path | None) -> str | Path:
    """What ``--db`` names: a ``postgresql://`` (or ``postgres://``) URL as it is, a file
    path as a :class:`~pathlib.Path`, or ``None`` as :func:`default_db_path`.

    Raises :class:`ValueError` for an empty name and for a URL of any other scheme
    (``sqlite:///games.db``, ``ftp://…``), which would otherwise be taken as a path of
    directories ``sqlite:`` or ``ftp:``.

    >>> database_location("games.sqlite3"), database_location("postgres://db/euchre")
    (PosixPath('games.sqlite3'), 'postgres://db/euchre')
    >>> database_location("sqlite:///tmp/games.db")
    Traceback (most recent call last):
    ValueError: --db is a file's path or a postgresql:// URL, not 'sqlite:///tmp/games.db':
    for an SQLite file give its path, /tmp/games.db
    """
    if db is None:
        return default_db_path()
    if isinstance(db, Path):
        return db
    if is_postgres_url(db):
        return db
    if not db.strip():
        raise ValueError("--db is empty: give it an SQLite file's path or a "
                         "postgresql:// URL")
    url = _URL.match(db)
    if url:
        rest = db[url.end():]
        hint = (f": for an SQLite file give its path, {rest}"
                if url.group().lower().startswith("sqlite") and rest else "")
        shown = db if len(db) <= 80 else db[:80] + "…"
        raise ValueError(f"--db is a file's path or a postgresql:// URL, not {shown!r}{hint}")
    return Path(db)


def default_db_path() -> Path:
    """``euchre.sqlite3`` in the user's data directory (XDG on Linux:
    :func:`euchre.userdirs.data_folder`)."""
    return data_folder() / "euchre.sqlite3"


# -- the rows both storages write and read (statements of euchre.server.schema) ---------------
Statement = tuple[str, tuple[Any, ...]]
"""A statement of :mod:`euchre.server.schema` (``?`` markers) and its parameters."""


def new_table(table: TableRecord, json: Callable[[Any], Any]) -> list[Statement]:
    """The statements storing a new table, its places and first matches; ``json`` gives
    a JSON value as the driver takes it."""
    return [
        (schema.INSERT_TABLE, (table.id, table.name, json(table.rules), json(table.options),
                               table.created, schema.lock_key(table.id))),
        *((schema.INSERT_PLACE, (table.id, p.index, p.kind, p.name, p.bot, p.token, p.claimed,
                                 p.invite)) for p in table.places),
        *((schema.INSERT_MATCH, (table.id, m.number, m.seed, m.started))
          for m in table.matches)]


def place_update(table_id: str, place: PlaceRecord, spend: str | None = None) -> Statement:
    """The statement storing every field of a place (with ``spend``, only while the place
    holds that invitation unspent)."""
    return (schema.UPDATE_PLACE, (place.kind, place.name, place.bot, place.token,
                                  place.claimed, place.invite, table_id, place.index,
                                  spend, spend))


def table_record(row: Sequence[Any], places: Iterable[Sequence[Any]],
                 matches: Iterable[Sequence[Any]], decode: Callable[[Any, str], Any]
                 ) -> TableRecord:
    """A table as read: its row (:data:`~euchre.server.schema.LOAD_TABLE`), its places'
    (:data:`~euchre.server.schema.LOAD_PLACES`), and its matches' (those of
    :data:`~euchre.server.schema.LOAD_MATCHES`, each with its actions' rows added);
    ``decode(value, what)`` reads a stored JSON value, ``what`` naming it."""
    table_id, name, rules, created, options = row
    return TableRecord(
        table_id, name, decode(rules, "rules"),
        [PlaceRecord(index, kind, place_name, bot, token, bool(claimed), invite)
         for index, kind, place_name, bot, token, claimed, invite in places],
        [MatchRecord(number, int(seed), [(int(seat), str(action)) for seat, action in actions],
                     None if result is None else decode(result, f"result of match {number}"),
                     started, finished)
         for number, seed, started, finished, result, actions in matches],
        created, decode(options, "options") or {})


_Job = tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]


class SQLiteStorage:
    """:class:`Storage` over one SQLite file, written by a single worker thread.

    ``synchronous`` is SQLite's setting: ``"FULL"`` survives a power cut, ``"NORMAL"``
    survives the server being killed (tests use it for speed).

    One server at a time: the file ``<path>.lock`` is locked while the storage is open,
    and a second one on the same database is refused (:class:`StorageError`) instead of
    serving tables that go stale behind the first one's writes.

    Refused as well, each with one sentence naming the file and the cause, before
    anything is made next to it: a directory, a FIFO or a device, a path in a directory
    that does not exist (the directory is not made), a read-only file or directory, a
    file that is not an SQLite database, a damaged one, and another program's database
    (tables none of which is euchre's, or a table ``tables`` without euchre's columns).
    """

    def __init__(self, path: str | Path, synchronous: Synchronous = "FULL") -> None:
        self.path = Path(path)
        _check_file(self.path)  # before anything is made next to it
        self._lock: IO[str] | None
        self._lock, made = _lock(self.path)
        try:
            conn = _connect(self.path, synchronous)
        except BaseException:
            self._release(forget=made)
            raise
        self._conn = conn
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="euchre-sqlite", daemon=True)
        self._thread.start()

    # -- the worker ------------------------------------------------------------------------
    def _work(self) -> None:
        conn = self._conn
        while True:
            job = self._jobs.get()
            if job is None:
                break
            batch = [job]
            stop = False
            while True:  # group every write already waiting into this commit
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            outcomes: list[tuple[bool, Any]] = []
            try:
                conn.execute("BEGIN IMMEDIATE")
                for fn, _, _ in batch:
                    conn.execute("SAVEPOINT job")
                    try:
                        outcomes.append((True, fn(conn)))
                        conn.execute("RELEASE job")
                    except Exception as e:  # one write fails alone
                        conn.execute("ROLLBACK TO job")
                        conn.execute("RELEASE job")
                        outcomes.append((False, _as_storage_error(e)))
                conn.execute("COMMIT")
            except Exception as e:  # the commit itself failed: nothing in it happened
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                outcomes = [(False, _as_storage_error(e))] * len(batch)
            for (_, future, loop), (ok, value) in zip(batch, outcomes, strict=True):
                loop.call_soon_threadsafe(_settle, future, ok, value)
            if stop:
                break
        conn.close()

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed:
            raise StorageError("the database is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((fn, future, loop))
        return await future

    # -- writes ------------------------------------------------------------------------------
    async def create_table(self, table: TableRecord) -> None:
        """Store a new table with its places and first match."""

        def write(conn: sqlite3.Connection) -> None:
            for sql, params in new_table(table, json.dumps):
                conn.execute(sql, params)

        await self._run(write)

    async def claim_place(self, table_id: str, place: int, name: str,
                          open_only: bool = False) -> bool:
        """Mark a place as taken by a person called ``name`` (see :class:`Storage`)."""

        def write(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(schema.CLAIM_PLACE, (name, table_id, place, open_only))
            return cursor.rowcount > 0

        return await self._run(write)

    async def start_match(self, table_id: str, number: int, seed: int) -> None:
        """Store a new match (a rematch) at a table."""

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(schema.INSERT_MATCH, (table_id, number, seed, time.time()))

        await self._run(write)

    async def append_action(
        self, table_id: str, match: int, index: int, seat: int, action: str,
        token: str | None = None,
    ) -> None:
        """Store action ``index`` of a match (RECORDS notation); one process holds the
        file, and its tables end a revoked seat's connections at once, so ``token`` is
        not asked about."""
        now = time.time()

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(schema.INSERT_ACTION, (table_id, match, index, seat, action, now))

        await self._run(write)

    async def finish_match(self, table_id: str, match: int, result: dict[str, Any]) -> None:
        """Mark a match as over, with its scores and winners (once)."""
        now = time.time()

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(schema.FINISH_MATCH, (now, json.dumps(result), table_id, match))

        await self._run(write)

    # -- reads ---------------------------------------------------------------------------------
    async def load_table(self, table_id: str) -> TableRecord | None:
        """A table with all its matches and actions, or ``None``."""
        return await self._run(lambda conn: _load(conn, table_id))

    async def actions_since(self, table_id: str, match: int, index: int
                            ) -> list[tuple[int, str]]:
        """The actions ``(seat, action)`` of a match from action ``index`` on, in order."""
        return await self._run(lambda conn: [(seat, action) for seat, action in conn.execute(
            schema.LOAD_ACTIONS, (table_id, match, index))])

    async def unfinished_tables(self) -> list[TableRecord]:
        """Every table whose latest match is not over: the server resumes these."""

        def read(conn: sqlite3.Connection) -> list[TableRecord]:
            ids = [row[0] for row in conn.execute(schema.UNFINISHED)]
            out = []
            for table_id in ids:
                try:
                    table = _load(conn, table_id)
                except _Unreadable as e:  # one damaged table does not stop the server
                    log.error("table %s cannot be resumed: %s", table_id, e.reason)
                    continue
                if table is not None:
                    out.append(table)
            return out

        return await self._run(read)

    async def finished_matches(self, limit: int = 50, offset: int = 0
                               ) -> list[tuple[TableRecord, MatchRecord]]:
        """The most recently finished matches, skipping ``offset``, without their actions."""

        def read(conn: sqlite3.Connection) -> list[tuple[TableRecord, MatchRecord]]:
            out = []
            rows = conn.execute(schema.FINISHED, (limit, offset))
            for table_id, number, seed, started, finished, result in rows.fetchall():
                try:
                    table = _load(conn, table_id, with_matches=False)
                    outcome = _decode(result, table_id, f"result of match {number}")
                except _Unreadable as e:  # left out of the history
                    log.error("%s", e)
                    continue
                if table is not None:
                    match = MatchRecord(number, seed, [], outcome, started, finished)
                    out.append((table, match))
            return out

        return await self._run(read)

    # -- leaving, abandoning, deleting -------------------------------------------------------
    async def release_place(
        self, table_id: str, place: int, kind: PlaceKind, name: str, token: str | None
    ) -> None:
        """A person left a place: it becomes ``kind`` again, unclaimed, with a new token."""

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(schema.RELEASE_PLACE, (kind, name, token, table_id, place))

        await self._run(write)

    async def update_place(self, table_id: str, place: PlaceRecord) -> None:
        """Store every field of ``place``."""

        def write(conn: sqlite3.Connection) -> None:
            conn.execute(*place_update(table_id, place))

        await self._run(write)

    async def spend_invitation(self, table_id: str, place: PlaceRecord, invite: str
                               ) -> bool | None:
        """Store the place an invitation opens and start the table once every guest is
        here, in one transaction (see :class:`Storage`)."""

        def write(conn: sqlite3.Connection) -> bool | None:
            if conn.execute(*place_update(table_id, place, invite)).rowcount == 0:
                return None
            options = _options(conn, table_id)
            if options.get("started", True):
                return True
            if conn.execute(schema.INVITATIONS_OUT, (table_id,)).fetchone() is not None:
                return False
            _merge_options(conn, table_id, {"started": True})
            return True

        return await self._run(write)

    async def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """Store these options of the table, the others as stored."""

        def write(conn: sqlite3.Connection) -> None:
            _merge_options(conn, table_id, options)

        await self._run(write)

    async def discard_match(self, table_id: str, match: int) -> None:
        """Forget an unfinished match and its actions (an abandoned game)."""

        def write(conn: sqlite3.Connection) -> None:  # its actions go with it
            conn.execute(schema.DISCARD_MATCH, (table_id, match))

        await self._run(write)

    async def delete_table(self, table_id: str) -> None:
        """Forget a table: its places, every match and every action."""

        def write(conn: sqlite3.Connection) -> None:  # the rest go with it
            conn.execute(schema.DELETE_TABLE, (table_id,))

        await self._run(write)

    # -- club nights ---------------------------------------------------------------------------
    async def night_read(self, queries: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
        """The rows of each query, read in one transaction (see :class:`Storage`)."""
        return await self._run(lambda conn: [
            [tuple(row) for row in conn.execute(sql, params)] for sql, params in queries])

    async def night_write(self, writes: Sequence[Statement], checked: Sequence[bool],
                          announce: str | None = None) -> bool:
        """Run the writes in one transaction (its own savepoint); ``False``, with nothing
        written, on a collision (see :class:`Storage`; one process holds the file, so
        there is nobody to ``announce`` the night to)."""

        def write(conn: sqlite3.Connection) -> None:
            for (sql, params), check in zip(writes, checked, strict=True):
                try:
                    changed = conn.execute(sql, params).rowcount
                except sqlite3.IntegrityError as e:
                    raise StorageConflict(str(e)) from None
                if check and changed == 0:
                    raise StorageConflict("a checked write changed no row")

        try:
            await self._run(write)
        except StorageConflict:
            return False
        return True

    async def close(self) -> None:
        """Finish pending writes and stop the worker."""
        if self._closed:
            return
        self._closed = True
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        self._release()

    def _release(self, forget: bool = False) -> None:
        """Unlock the database; with ``forget``, remove the lock file as well (this
        storage made it, and never opened the database)."""
        if self._lock is not None:
            if forget:
                with contextlib.suppress(OSError):
                    os.unlink(self._lock.name)
            self._lock.close()  # closing the file releases its lock
            self._lock = None


def lock_database(path: Path) -> IO[str]:
    """Lock ``<path>.lock`` for this process, or raise :class:`StorageError` naming who
    holds it.  The lock goes with the returned file (and with the process, however it
    ends); the file itself stays, holding the last holder's process id."""
    return _lock(path)[0]


def _lock(path: Path) -> tuple[IO[str], bool]:
    """:func:`lock_database`, and whether the lock file was made now."""
    lock_path = path.with_name(path.name + ".lock")
    made = not os.path.lexists(lock_path)
    try:
        file = open(lock_path, "a+", encoding="ascii")  # noqa: SIM115 (held while serving)
    except OSError as e:
        raise StorageError(f"the database's lock file {_shown(lock_path)} cannot be made: "
                           f"{e.strerror}") from None
    try:
        _try_lock(file)
    except OSError:
        holder = ""
        with contextlib.suppress(OSError, UnicodeDecodeError):
            file.seek(0)
            holder = file.read(20).strip()
        file.close()
        who = f" (process {holder})" if holder.isdigit() else ""
        raise StorageError(
            f"the database {_shown(path)} is in use by another euchre server{who}: stop "
            f"that one, or give this one another database") from None
    file.seek(0)
    file.truncate()
    file.write(f"{os.getpid()}\n")
    file.flush()
    return file, made


if sys.platform == "win32":  # pragma: no cover
    import msvcrt

    def _try_lock(file: IO[str]) -> None:
        file.seek(0)
        msvcrt.locking(file.fileno(), msvcrt.LK_NBLCK, 1)
else:
    import fcntl

    def _try_lock(file: IO[str]) -> None:
        # flock, not fcntl: SQLite's own POSIX locks on the database stay independent,
        # and a second open in the same process is refused as well
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():  # the waiting coroutine was cancelled
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _as_storage_error(e: Exception) -> StorageError:
    if isinstance(e, StorageError):
        return e
    if isinstance(e, sqlite3.IntegrityError):
        return StorageConflict(f"the database already holds this write: {e}")
    if isinstance(e, sqlite3.DatabaseError) and "malformed" in str(e):
        return StorageError(f"the database is damaged (SQLite: {e})")
    return StorageError(f"the database refused the write: {e}")


_HEADER: Final = b"SQLite format 3\x00"
"""The first bytes of every SQLite database file."""

_COLUMNS: Final = {**schema.COLUMNS, "table_options": frozenset({"table_id", "options"})}
"""The columns every version of euchre's tables has had (and the options' own table of
the releases before the schema had versions)."""


def _shown(path: Path) -> str:
    """A path as an error message names it: a very long one shortened in the middle."""
    text = str(path)
    if len(text) <= 160:
        return text
    return f"{text[:80]}…{text[-60:]} (a path of {len(text):,} characters)"


def _file_kind(mode: int) -> str:
    for test, kind in ((stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "a special file"


def _check_file(path: Path) -> None:
    """Refuse (:class:`StorageError`, one sentence) a path that cannot hold the server's
    database, before anything is made next to it: a directory, a FIFO or a device, a
    file that is not SQLite's, a read-only file or directory, a missing directory."""
    shown = _shown(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        parent = path.parent
        if not parent.is_dir():
            raise StorageError(
                f"the directory {_shown(parent)} of the database {shown} does not exist: "
                f"create it, or give --db a file in a directory that does") from None
        if not os.access(parent, os.W_OK | os.X_OK):
            raise StorageError(f"the directory {_shown(parent)} is read-only: the database "
                               f"{shown} cannot be made there") from None
        return  # a new database
    except (OSError, ValueError) as e:  # too long a name, no permission, a NUL byte…
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise StorageError(f"the database {shown} cannot be opened: {reason}") from None
    if stat.S_ISDIR(st.st_mode):
        raise StorageError(f"the database {shown} is a directory: give --db a file's path")
    if not stat.S_ISREG(st.st_mode):
        raise StorageError(f"the database {shown} is {_file_kind(st.st_mode)}, not a file: "
                           f"give --db a file's path")
    if not os.access(path, os.R_OK | os.W_OK):
        raise StorageError(f"the database {shown} is read-only: the server stores every "
                           f"action in it")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StorageError(f"the directory {_shown(path.parent)} is read-only: the server "
                           f"keeps its lock and journal files next to the database {shown}")
    try:
        with open(path, "rb") as f:
            head = f.read(len(_HEADER))
    except OSError as e:
        raise StorageError(f"the database {shown} cannot be read: {e.strerror}") from None
    if head and head != _HEADER:
        raise StorageError(f"the file {shown} is not an SQLite database")


def _connect(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    """Open the database, check that it is euchre's (or new), and bring its schema up to
    date; any fault is one :class:`StorageError` naming the file."""
    shown = _shown(path)
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as e:
        raise StorageError(f"the database {shown} cannot be opened: {e}") from None
    try:
        _check_schema(conn, shown)  # before anything is written to another program's file
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.create_function("lock_key", 1, schema.lock_key, deterministic=True)
        _migrate(conn)
    except schema.SchemaTooNew as e:
        conn.close()
        raise StorageError(f"the database {shown} was migrated by a newer euchre server "
                           f"(its schema is at version {e.version}, this one's at "
                           f"{schema.VERSION}): upgrade euchre") from None
    except BaseException as e:
        conn.close()
        if isinstance(e, sqlite3.Error):
            raise StorageError(_sqlite_fault(shown, e)) from None
        raise
    return conn


def _sqlite_fault(shown: str, e: sqlite3.Error) -> str:
    """What an SQLite error opening the database means, in one sentence."""
    text = str(e)
    if "not a database" in text:
        return f"the file {shown} is not an SQLite database"
    if "malformed" in text:
        return (f"the database {shown} is damaged (SQLite: {text}): restore it from a "
                f"backup, or give the server another database")
    if "readonly" in text:
        return f"the database {shown} is read-only: the server stores every action in it"
    if "locked" in text or "busy" in text:
        return f"the database {shown} is locked by another program"
    return f"the database {shown} cannot be used: {text}"


def _check_schema(conn: sqlite3.Connection, shown: str) -> None:
    """Refuse another program's database: one whose tables are none of euchre's, or
    that holds a table of the name of one of euchre's without its columns."""
    tables = [name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    ours = [name for name in tables if name in _COLUMNS]
    if tables and not ours:
        names = ", ".join(repr(name) for name in sorted(tables)[:5])
        more = ", …" if len(tables) > 5 else ""
        raise StorageError(f"the database {shown} belongs to another program (its tables: "
                           f"{names}{more}): give the server a database of its own")
    for name in ours:
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({name})")}
        missing = sorted(_COLUMNS[name] - columns)
        if missing:
            raise StorageError(
                f"the database {shown} holds a table {name!r} that is not euchre's (it "
                f"has no column {', '.join(missing)}): give the server a database of its own")


class _Unreadable(StorageError):
    """A stored field of a table that is not JSON: the table cannot be rebuilt."""

    def __init__(self, table_id: str, what: str) -> None:
        self.table_id = table_id
        self.reason = f"its stored {what} {'are' if what.endswith('s') else 'is'} not JSON"
        super().__init__(f"table {table_id}: {self.reason}")


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema up to date in one transaction (:mod:`euchre.server.schema`): a
    database of the releases before the schema had versions is rebuilt first."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        names = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "tables" in names and "schema_version" not in names:
            invites = "invite" in {row[1] for row in conn.execute("PRAGMA table_info(places)")}
            for statement in schema.unversioned_sqlite(invites):
                conn.execute(statement)
        schema.migrate(conn, schema.SQLITE)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _options(conn: sqlite3.Connection, table_id: str) -> dict[str, Any]:
    row = conn.execute("SELECT options FROM tables WHERE id = ?", (table_id,)).fetchone()
    options: dict[str, Any] = {} if row is None else _decode(row[0], table_id, "options")
    return options


def _merge_options(conn: sqlite3.Connection, table_id: str, changes: dict[str, Any]) -> None:
    """Store ``changes`` over the table's stored options (in the caller's transaction)."""
    conn.execute("UPDATE tables SET options = ? WHERE id = ?",
                 (json.dumps({**_options(conn, table_id), **changes}), table_id))


def _decode(text: Any, table_id: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        raise _Unreadable(table_id, what) from None


def _load(conn: sqlite3.Connection, table_id: str, with_matches: bool = True
          ) -> TableRecord | None:
    row = conn.execute(schema.LOAD_TABLE, (table_id,)).fetchone()
    if row is None:
        return None
    places = conn.execute(schema.LOAD_PLACES, (table_id,)).fetchall()
    matches = [(*match, conn.execute(schema.LOAD_ACTIONS, (table_id, match[0], 0)).fetchall())
               for match in (conn.execute(schema.LOAD_MATCHES, (table_id,)).fetchall()
                             if with_matches else ())]
    return table_record(row, places, matches,
                        lambda text, what: _decode(text, table_id, what))
