"""Tables in PostgreSQL, shared by several server processes (``--db postgresql://…``).

:class:`PostgresStorage` implements :class:`~euchre.server.storage.Storage` with psycopg 3
(the optional extra ``postgres``) and :class:`~euchre.server.storage.Peers`, what lets
several server processes, on one machine or many, serve the same tables:

* **Ordering.**  An action's key is ``(table, match, seq)``: of two processes storing
  action ``seq`` of a table at once, the database keeps the first and refuses the other
  (:class:`~euchre.server.storage.StorageConflict`), whose table reloads and re-checks.
  Nothing is applied twice, and every write is committed before it is acknowledged.
* **Fan-out.**  Every write sends ``NOTIFY euchre`` in its own transaction, so it is
  delivered only once committed; each process listens on one connection and loads what
  is new for the tables it holds (:data:`CHANNEL`, :class:`~euchre.server.storage.Change`).
* **Bots.**  Each table's bots are played by one process at a time: the one holding the
  table's advisory lock (``pg_try_advisory_lock``) on its lock connection.  When that
  process dies its session ends and the lock frees; another process finds the table
  without a holder (:meth:`PostgresStorage.orphaned_tables`, every ``takeover`` seconds)
  and takes it over.

The schema is created and migrated by the server itself (:mod:`euchre.server.schema`, the
one both storages share), under a lock so that processes starting together do it once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any, Final

from euchre.server import schema
from euchre.server.schema import POSTGRES, lock_key
from euchre.server.storage import (
    Change,
    MatchRecord,
    PlaceKind,
    PlaceRecord,
    Statement,
    StorageConflict,
    StorageError,
    TableRecord,
    new_table,
    place_update,
    table_record,
)

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.types.json import Jsonb
    from psycopg_pool import AsyncConnectionPool
except ImportError:  # pragma: no cover - the optional extra is missing
    psycopg = None  # type: ignore[assignment]

# the pool says in a warning of several lines each time it fails to connect; every read or
# write that fails for it is one line of the server's own (StorageError)
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

__all__ = ["CHANNEL", "PostgresStorage", "migrate", "shown_url"]

log = logging.getLogger("euchre.server")

CHANNEL: Final = "euchre"
"""The ``LISTEN``/``NOTIFY`` channel; a payload is ``SENDER TABLE KIND MATCH SEQ`` (kind
``g``: ``TABLE`` is a club night's id, the night was written)."""

CONNECT_WAIT: Final = 5.0
"""Seconds a read or a write waits for a connection to the database before it fails
(a person's action during an outage is answered within this time, nothing done)."""

_MIGRATION_LOCK: Final = 0x6575636872  # "euchr": one process migrates at a time

def _need_driver() -> None:
    if psycopg is None:
        raise StorageError("a PostgreSQL database needs the optional extra: "
                           "pip install 'euchre[postgres]'")


def migrate(url: str) -> int:
    """Create or bring the schema up to date (:func:`euchre.server.schema.migrate`);
    returns the version it is at."""
    _need_driver()
    try:
        with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            schema.migrate(conn, POSTGRES)
    except schema.SchemaTooNew as e:
        raise StorageError(str(e)) from None
    except pg_errors.DuplicateTable as e:  # another program's table of one of our names
        raise StorageError(f"the database {shown_url(url)} holds a table that is not "
                           f"euchre's ({_hidden(str(e), url)}): give the server a database "
                           f"of its own") from None
    except psycopg.Error as e:
        raise StorageError(f"the database {shown_url(url)} cannot be used: "
                           f"{_hidden(str(e), url)}") from None
    return schema.VERSION


def shown_url(url: str) -> str:
    """The URL without its password, to be shown: the one after the user's name and any
    ``password=`` parameter are left out.

    >>> shown_url("postgresql://euchre:secret@db:5432/euchre?password=x&sslmode=require")
    'postgresql://euchre@db:5432/euchre?sslmode=require'
    """
    head, sep, tail = url.partition("://")
    userinfo, at, rest = tail.rpartition("@")
    if at:
        tail = f"{userinfo.split(':', 1)[0]}@{rest}"
    path, query, params = tail.partition("?")
    if query:
        kept = [p for p in params.split("&") if not p.lower().startswith("password=")]
        tail = path + (f"?{'&'.join(kept)}" if kept else "")
    return f"{head}{sep}{tail}"


def _hidden(message: str, url: str) -> str:
    """The driver's message with the URL's password left out wherever it shows (libpq
    quotes a URL it cannot parse whole, or the token at fault), on one line.

    >>> _hidden('bad token: "s%3Acret" in "postgresql://u:s%3Acret@h/db"',
    ...         "postgresql://u:s%3Acret@h/db")
    'bad token: "***" in "postgresql://u@h/db"'
    """
    text = message.replace(url, shown_url(url))
    _, _, tail = url.partition("://")
    userinfo, at, rest = tail.rpartition("@")
    secrets_ = [userinfo.partition(":")[2]] if at else []
    secrets_ += [p.partition("=")[2] for p in rest.partition("?")[2].split("&")
                 if p.lower().startswith("password=")]
    for secret in secrets_:
        for form in {secret, urllib.parse.unquote(secret)}:
            if form:
                text = re.sub(rf"(?<![\w%]){re.escape(form)}(?![\w%])", "***", text)
    return " ".join(text.split())


class PostgresStorage:
    """:class:`~euchre.server.storage.Storage` and :class:`~euchre.server.storage.Peers`
    over one PostgreSQL database (see the module's documentation).

    The schema is migrated when the object is made (:class:`StorageError` if the
    database cannot be reached); the connections open at the first use, on the running
    event loop.  ``pool_size`` bounds the connections used for reads and writes (the
    listener and the lock holder take one more each); ``takeover`` is how often, in
    seconds, the process looks for tables whose bots nobody plays.

    Every failure of a read or a write (the connection lost, the disk full, a schema
    not this server's, a value the database cannot hold) is a :class:`StorageError`.
    """

    def __init__(self, url: str, *, pool_size: int = 8, takeover: float = 2.0) -> None:
        _need_driver()
        self.url = url
        self.takeover = takeover
        migrate(url)
        self._sender = secrets.token_hex(6)
        self._pool: AsyncConnectionPool[Any] | None = None
        self._pool_size = pool_size
        self._opening = asyncio.Lock()
        self._locks: psycopg.AsyncConnection[Any] | None = None
        self._locking = asyncio.Lock()
        self._held: set[str] = set()
        self._listener: asyncio.Task[None] | None = None
        self._closed = False

    def __repr__(self) -> str:
        return f"PostgresStorage({shown_url(self.url)!r})"

    # -- connections ---------------------------------------------------------------------------
    async def _open(self) -> AsyncConnectionPool[Any]:
        if self._closed:
            raise StorageError("the database is closed")
        if self._pool is not None:
            return self._pool
        async with self._opening:
            if self._pool is None:
                pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
                    self.url, min_size=1, max_size=self._pool_size, open=False,
                    kwargs={"autocommit": True}, name="euchre", timeout=CONNECT_WAIT)
                try:
                    await pool.open(wait=True, timeout=10)
                except Exception as e:
                    raise StorageError(f"the database {shown_url(self.url)} cannot be "
                                       f"reached: {_hidden(str(e), self.url)}") from None
                self._pool = pool
        return self._pool

    def _notice(self, table_id: str, kind: str, match: int = 0, seq: int = 0) -> str:
        return f"{self._sender} {table_id} {kind} {match} {seq}"

    def _notify(self, table_id: str, kind: str = "t") -> Statement:
        """The ``NOTIFY`` of a write at a table (``n``: a new table, ``t``: anything else)."""
        return "SELECT pg_notify(?, ?)", (CHANNEL, self._notice(table_id, kind))

    async def _write(self, statements: list[Statement]) -> None:
        """Run statements (:mod:`~euchre.server.schema`'s, with ``?`` markers) in one
        transaction, the last one its ``NOTIFY`` (delivered at commit)."""
        pool = await self._open()
        try:
            async with pool.connection() as conn, conn.transaction():
                for sql, params in statements:
                    await conn.execute(POSTGRES.sql(sql), params)
        except pg_errors.UniqueViolation as e:
            raise StorageConflict(f"the database already holds this write: {e}") from None
        except Exception as e:  # the driver's, the network's, or a value it cannot send
            raise StorageError(f"the database refused the write: {e}") from None

    async def _read(self, fn: Callable[[psycopg.AsyncConnection[Any]], Any]) -> Any:
        pool = await self._open()
        try:
            async with pool.connection() as conn:
                return await fn(conn)
        except Exception as e:  # the driver's, the network's, or a row of a foreign schema
            raise StorageError(f"the database refused the read: {e}") from None

    # -- writes ----------------------------------------------------------------------------------
    async def create_table(self, table: TableRecord) -> None:
        """Store a new table with its places and first match."""
        await self._write([*new_table(table, Jsonb), self._notify(table.id, "n")])

    async def claim_place(self, table_id: str, place: int, name: str,
                          open_only: bool = False) -> bool:
        """Mark a place as taken by a person called ``name`` (see :class:`Storage`): the
        row's ``claimed`` is the conflict, so of two processes giving away one open seat
        at once exactly one does."""
        pool = await self._open()
        try:
            async with pool.connection() as conn, conn.transaction():
                cursor = await conn.execute(POSTGRES.sql(schema.CLAIM_PLACE),
                                            (name, table_id, place, open_only))
                if cursor.rowcount == 0:
                    return False
                await conn.execute("SELECT pg_notify(%s, %s)",
                                   (CHANNEL, self._notice(table_id, "t")))
        except Exception as e:  # the driver's, the network's, or a value it cannot send
            raise StorageError(f"the database refused the write: {e}") from None
        return True

    async def start_match(self, table_id: str, number: int, seed: int) -> None:
        """Store a new match (a rematch) at a table."""
        await self._write([(schema.INSERT_MATCH, (table_id, number, seed, time.time())),
                           self._notify(table_id)])

    async def append_action(
        self, table_id: str, match: int, index: int, seat: int, action: str,
        token: str | None = None,
    ) -> None:
        """Store action ``index`` of a match; one statement, so one round trip, and its
        notification leaves with its commit.  :class:`StorageConflict` if another
        process stored action ``index`` first, or if ``token`` (a person's) no longer
        holds a place at the table."""
        pool = await self._open()
        notice = self._notice(table_id, "a", match, index + 1)
        try:
            async with pool.connection() as conn:
                cur = await conn.execute(
                    "WITH stored AS (INSERT INTO actions (table_id, match, seq, seat, action, "
                    "at) SELECT %s, %s, %s, %s, %s, %s WHERE %s::text IS NULL OR EXISTS "
                    "(SELECT 1 FROM places WHERE table_id = %s AND token = %s AND claimed "
                    "AND kind <> 'bot') RETURNING 1) "
                    "SELECT pg_notify(%s, %s) FROM stored",
                    (table_id, match, index, seat, action, time.time(), token, table_id,
                     token, CHANNEL, notice))
                stored = await cur.fetchone()
        except pg_errors.UniqueViolation as e:
            raise StorageConflict(f"the database already holds this action: {e}") from None
        except Exception as e:  # the driver's, the network's, or a value it cannot send
            raise StorageError(f"the database refused the write: {e}") from None
        if stored is None:
            raise StorageConflict("the seat token of this action no longer holds a place "
                                  "at the table")

    async def finish_match(self, table_id: str, match: int, result: dict[str, Any]) -> None:
        """Mark a match as over, with its scores and winners (once: the first to do it
        sets the time)."""
        await self._write([
            (schema.FINISH_MATCH, (time.time(), Jsonb(result), table_id, match))])

    async def release_place(
        self, table_id: str, place: int, kind: PlaceKind, name: str, token: str | None
    ) -> None:
        """A person left a place: it becomes ``kind`` again, unclaimed, with a new token."""
        await self._write([(schema.RELEASE_PLACE, (kind, name, token, table_id, place)),
                           self._notify(table_id)])

    async def update_place(self, table_id: str, place: PlaceRecord) -> None:
        """Store every field of ``place``."""
        await self._write([place_update(table_id, place), self._notify(table_id)])

    async def spend_invitation(self, table_id: str, place: PlaceRecord, invite: str
                               ) -> bool | None:
        """Store the place an invitation opens and start the table once every guest is
        here, in one transaction (see :class:`~euchre.server.storage.Storage`).  The
        transaction first locks the table's row, so two claims at one table on two
        processes run one after the other: the second one's count of the invitations
        still out sees the first one's seat taken (each statement of a transaction
        reads what was committed before it began)."""
        pool = await self._open()
        sql, params = place_update(table_id, place, invite)
        try:
            async with pool.connection() as conn, conn.transaction():
                cur = await conn.execute("SELECT options FROM tables WHERE id = %s FOR UPDATE",
                                         (table_id,))
                row = await cur.fetchone()
                if row is None:
                    return None
                cursor = await conn.execute(POSTGRES.sql(sql), params)
                if cursor.rowcount == 0:
                    return None
                started = bool((row[0] or {}).get("started", True))
                if not started:
                    cur = await conn.execute(POSTGRES.sql(
                        "UPDATE tables SET options = options || '{\"started\": true}' "
                        f"WHERE id = ? AND NOT EXISTS ({schema.INVITATIONS_OUT})"),
                        (table_id, table_id))
                    started = cur.rowcount > 0
                await conn.execute("SELECT pg_notify(%s, %s)",
                                   (CHANNEL, self._notice(table_id, "t")))
        except pg_errors.UniqueViolation as e:
            raise StorageConflict(f"the database already holds this token: {e}") from None
        except Exception as e:  # the driver's, the network's, or a value it cannot send
            raise StorageError(f"the database refused the write: {e}") from None
        return started

    async def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        """Store these options of the table, the others as stored; every process reads
        them again."""
        await self._write([
            ("UPDATE tables SET options = options || ? WHERE id = ?", (Jsonb(options), table_id)),
            self._notify(table_id)])

    async def discard_match(self, table_id: str, match: int) -> None:
        """Forget an unfinished match and its actions (an abandoned game)."""
        await self._write([(schema.DISCARD_MATCH, (table_id, match)), self._notify(table_id)])

    async def delete_table(self, table_id: str) -> None:
        """Forget a table: its places, every match and every action."""
        await self._write([(schema.DELETE_TABLE, (table_id,)), self._notify(table_id)])

    # -- reads -----------------------------------------------------------------------------------
    # -- club nights ---------------------------------------------------------------------------
    async def night_read(self, queries: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
        """The rows of each query, read in one transaction that sees one moment of the
        database (``REPEATABLE READ``)."""

        async def read(conn: psycopg.AsyncConnection[Any]) -> list[list[tuple[Any, ...]]]:
            out = []
            async with conn.transaction():
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                for sql, params in queries:
                    cur = await conn.execute(POSTGRES.sql(sql), params)
                    out.append([tuple(row) for row in await cur.fetchall()])
            return out

        result: list[list[tuple[Any, ...]]] = await self._read(read)
        return result

    async def night_write(self, writes: Sequence[Statement], checked: Sequence[bool],
                          announce: str | None = None) -> bool:
        """Run the writes in one transaction; ``False``, with nothing written, on a
        collision (see :class:`~euchre.server.storage.Storage`).  With ``announce`` (a
        night's id) the transaction ends with its ``NOTIFY`` (kind ``g``), delivered to
        the other processes once committed."""
        if announce is not None:
            writes = [*writes, self._notify(announce, "g")]
            checked = [*checked, False]
        pool = await self._open()
        try:
            async with pool.connection() as conn, conn.transaction():
                for (sql, params), check in zip(writes, checked, strict=True):
                    cur = await conn.execute(POSTGRES.sql(sql), params)
                    if check and cur.rowcount == 0:
                        raise StorageConflict("a checked write changed no row")
        except (pg_errors.UniqueViolation, StorageConflict):
            return False
        except Exception as e:  # the driver's, the network's, or a value it cannot send
            raise StorageError(f"the database refused the write: {e}") from None
        return True

    async def load_table(self, table_id: str) -> TableRecord | None:
        """A table with all its matches and actions, or ``None``."""
        result: TableRecord | None = await self._read(lambda conn: _load(conn, table_id))
        return result

    async def actions_since(self, table_id: str, match: int, index: int
                            ) -> list[tuple[int, str]]:
        """The actions of a match from action ``index`` on, in order."""
        async def read(conn: psycopg.AsyncConnection[Any]) -> list[tuple[int, str]]:
            cur = await conn.execute(POSTGRES.sql(schema.LOAD_ACTIONS),
                                     (table_id, match, index))
            return [(int(seat), str(action)) for seat, action in await cur.fetchall()]

        result: list[tuple[int, str]] = await self._read(read)
        return result

    async def unfinished_tables(self) -> list[TableRecord]:
        """Every table whose latest match is not over: the server resumes these."""
        async def read(conn: psycopg.AsyncConnection[Any]) -> list[TableRecord]:
            cur = await conn.execute(schema.UNFINISHED)
            out = []
            for (table_id,) in await cur.fetchall():
                table = await _load(conn, table_id)
                if table is not None:
                    out.append(table)
            return out

        result: list[TableRecord] = await self._read(read)
        return result

    async def finished_matches(self, limit: int = 50, offset: int = 0
                               ) -> list[tuple[TableRecord, MatchRecord]]:
        """The most recently finished matches, skipping ``offset``, without their actions."""
        async def read(conn: psycopg.AsyncConnection[Any]
                       ) -> list[tuple[TableRecord, MatchRecord]]:
            cur = await conn.execute(POSTGRES.sql(schema.FINISHED), (limit, offset))
            out = []
            for table_id, number, seed, started, finished, result in await cur.fetchall():
                table = await _load(conn, table_id, with_matches=False)
                if table is not None:
                    out.append((table, MatchRecord(number, seed, [], result, started,
                                                   finished)))
            return out

        result: list[tuple[TableRecord, MatchRecord]] = await self._read(read)
        return result

    # -- the other processes: notifications and the bots' locks -------------------------------
    async def listen(self, on_change: Callable[[Change], None]) -> None:
        """Call ``on_change`` for every write another process commits (and with
        ``Change("*")`` after the listener had to reconnect: anything may have changed)."""
        await self._open()
        ready = asyncio.get_running_loop().create_future()
        self._listener = asyncio.create_task(self._listen(on_change, ready))
        await ready

    async def _listen(self, on_change: Callable[[Change], None],
                      ready: asyncio.Future[None]) -> None:
        """Listen, and reconnect when the connection is lost: one line in the log when
        the notifications stop, one when they are back (not one per try), the tries
        spaced from 1 to 10 seconds."""
        first = True
        lost: float | None = None
        wait = 1.0
        while not self._closed:
            try:
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if first:
                        ready.set_result(None)
                        first = False
                    else:
                        on_change(Change("*"))
                    if lost is not None:
                        log.warning("the database's notifications are back after %.0f s",
                                    time.monotonic() - lost)
                        lost, wait = None, 1.0
                    async for note in conn.notifies():
                        change = self._parse(note.payload)
                        if change is not None:
                            on_change(change)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if first:
                    ready.set_exception(StorageError(f"cannot listen on the database: {e}"))
                    return
                if lost is None:
                    lost = time.monotonic()
                    log.error("the database's notifications stopped (%s); reconnecting",
                              _hidden(str(e), self.url))
                await asyncio.sleep(wait)
                wait = min(10.0, wait * 2)

    async def send_chat(self, table_id: str, message: dict[str, Any],
                        token: str | None = None) -> bool | None:
        """A chat message to the other processes, in a notification of its own (a
        message of 200 characters is far below the 8,000 bytes one may carry), sent only
        if the stored options do not mute its place and, given ``token``, that seat
        token still holds the place as stored; whether it was (``None``: the database
        failed, which is logged)."""
        payload = f"{self._notice(table_id, 'c')} {json.dumps(message)}"
        place = message.get("place")
        muted = json.dumps([place])

        async def send(conn: psycopg.AsyncConnection[Any]) -> bool:
            cur = await conn.execute(
                "SELECT pg_notify(%s, %s) FROM tables WHERE id = %s "
                "AND NOT coalesce(options->'muted', '[]'::jsonb) @> %s::jsonb "
                "AND (%s::text IS NULL OR EXISTS (SELECT 1 FROM places WHERE "
                "table_id = %s AND place = %s AND token = %s AND claimed "
                "AND kind <> 'bot'))",
                (CHANNEL, payload, table_id, muted, token, table_id, place, token))
            return await cur.fetchone() is not None

        try:
            sent: bool = await self._read(send)
        except StorageError as e:
            log.warning("a chat message did not reach the other processes: %s",
                        " ".join(str(e).split()))
            return None
        return sent

    def _parse(self, payload: str) -> Change | None:
        try:
            sender, table_id, kind, match, seq, *rest = payload.split(" ", 5)
            if sender == self._sender:
                return None  # our own write, already applied
            if kind == "c":
                return Change(table_id, chat=json.loads(rest[0]))
            if kind == "g":
                return Change(table_id, night=True)
            return Change(table_id, kind == "a", int(match), int(seq), created=kind == "n")
        except (ValueError, IndexError):
            log.warning("an unexpected notification: %r", payload)
            return None

    async def _lock_conn(self) -> psycopg.AsyncConnection[Any]:
        if self._locks is None or self._locks.closed or self._locks.broken:
            if self._locks is not None:  # the session ended: every lock with it
                log.error("the connection holding the bots' locks was lost")
                self._held.clear()
            self._locks = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        return self._locks

    def holds_bots(self, table_id: str) -> bool:
        """Does this process play the table's bots?"""
        return table_id in self._held

    async def claim_bots(self, table_id: str) -> bool:
        """Take the table's bots if no other process plays them; ``True`` if ours."""
        if table_id in self._held:
            return True
        async with self._locking:
            try:
                conn = await self._lock_conn()
                cur = await conn.execute("SELECT pg_try_advisory_lock(%s)",
                                         (lock_key(table_id),))
                row = await cur.fetchone()
            except Exception as e:
                log.error("the bots' lock of table %s could not be asked for: %s",
                          table_id, _hidden(str(e), self.url))
                return False
            if row is not None and row[0]:
                self._held.add(table_id)
                return True
            return False

    async def release_bots(self, table_id: str) -> None:
        """Let another process play the table's bots (the table left memory)."""
        if table_id not in self._held:
            return
        async with self._locking:
            self._held.discard(table_id)
            with contextlib.suppress(psycopg.Error, OSError):
                conn = await self._lock_conn()
                await conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))

    async def orphaned_tables(self, limit: int = 100) -> list[str]:
        """Unfinished tables with bots whose lock no process holds (its holder died, or
        let the table go): the oldest ``limit`` of them."""
        async def read(conn: psycopg.AsyncConnection[Any]) -> list[str]:
            cur = await conn.execute(
                "SELECT t.id FROM tables t JOIN matches m ON m.table_id = t.id "
                "WHERE m.finished IS NULL "
                "AND m.number = (SELECT max(number) FROM matches WHERE table_id = t.id) "
                "AND EXISTS (SELECT 1 FROM places p WHERE p.table_id = t.id "
                "            AND p.kind = 'bot') "
                "AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' "
                "    AND l.granted AND l.objsubid = 1 "
                "    AND l.database = (SELECT oid FROM pg_database "
                "                      WHERE datname = current_database()) "
                "    AND l.classid::bigint * 4294967296 + l.objid::bigint = t.lock_key) "
                "ORDER BY m.started LIMIT %s", (limit,))
            return [str(row[0]) for row in await cur.fetchall()]

        result: list[str] = await self._read(read)
        return result

    async def close(self) -> None:
        """Stop listening, let the bots' locks go and close every connection."""
        if self._closed:
            return
        self._closed = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
        self._held.clear()
        if self._pool is not None:
            await self._pool.close()


async def _load(conn: psycopg.AsyncConnection[Any], table_id: str, with_matches: bool = True
                ) -> TableRecord | None:
    cur = await conn.execute(POSTGRES.sql(schema.LOAD_TABLE), (table_id,))
    row = await cur.fetchone()
    if row is None:
        return None
    cur = await conn.execute(POSTGRES.sql(schema.LOAD_PLACES), (table_id,))
    places = await cur.fetchall()
    matches: list[tuple[Any, ...]] = []
    if with_matches:
        cur = await conn.execute(POSTGRES.sql(schema.LOAD_MATCHES), (table_id,))
        for match in await cur.fetchall():
            acts = await conn.execute(POSTGRES.sql(schema.LOAD_ACTIONS), (table_id, match[0], 0))
            matches.append((*match, await acts.fetchall()))
    return table_record(row, places, matches, lambda value, what: value)  # JSONB: read
