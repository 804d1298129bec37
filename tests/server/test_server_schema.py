"""One schema for both databases (``euchre/server/schema.py``), and databases made by the
releases before it open and are migrated forward with nothing lost.

The databases of the earlier releases are made here from their own statements (kept below
as they were written, not derived from today's code) with rows as those releases stored
them; the storage opens each, and every table, place, match, action and option reads back
as it was, and takes new writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from pgcluster import Cluster

from euchre.server import schema
from euchre.server.storage import (
    MatchRecord,
    PlaceRecord,
    SQLiteStorage,
    StorageError,
    TableRecord,
)

# -- the releases before: their statements, as written then -------------------------------------
SQLITE_RELEASE = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS places (
    table_id TEXT NOT NULL REFERENCES tables(id),
    place INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    token TEXT UNIQUE,
    claimed INTEGER NOT NULL,
    invite TEXT,
    PRIMARY KEY (table_id, place)
);
CREATE TABLE IF NOT EXISTS matches (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    match INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, match, idx)
);
CREATE INDEX IF NOT EXISTS matches_open ON matches(finished);
PRAGMA user_version = 1;
CREATE TABLE IF NOT EXISTS table_options (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    options TEXT NOT NULL
);
"""
"""The SQLite schema of the release before schema versions (the options' table came in
with the host's settings, the ``invite`` column with invitations)."""

SQLITE_BEFORE_INVITES = (SQLITE_RELEASE.replace("    invite TEXT,\n", "")
                         .split("CREATE TABLE IF NOT EXISTS table_options")[0])
"""The SQLite schema of the releases before invitations and the host's settings."""

POSTGRES_RELEASE = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        rules JSONB NOT NULL,
        options JSONB NOT NULL DEFAULT '{}',
        created DOUBLE PRECISION NOT NULL,
        lock_key BIGINT NOT NULL
    );
    CREATE TABLE places (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        place INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        bot TEXT,
        token TEXT UNIQUE,
        claimed BOOLEAN NOT NULL,
        PRIMARY KEY (table_id, place)
    );
    CREATE TABLE matches (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        seed BIGINT NOT NULL,
        started DOUBLE PRECISION NOT NULL,
        finished DOUBLE PRECISION,
        result JSONB,
        PRIMARY KEY (table_id, number)
    );
    CREATE TABLE actions (
        table_id TEXT NOT NULL,
        match INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, match, seq),
        FOREIGN KEY (table_id, match) REFERENCES matches ON DELETE CASCADE
    );
    CREATE INDEX matches_finished ON matches (finished DESC) WHERE finished IS NOT NULL;
    CREATE INDEX matches_open ON matches (table_id) WHERE finished IS NULL;
    """,
    """
    ALTER TABLE places ADD COLUMN invite TEXT UNIQUE;
    UPDATE places SET invite = token, token = NULL
        WHERE kind = 'friend' AND NOT claimed AND token IS NOT NULL;
    """,
)
"""The PostgreSQL migrations of the release before one schema, version 1 and 2."""

# -- the rows: two tables, as those releases stored them --------------------------------------
RESULT = '{"games": [{"scores": [10, 7], "winners": [0, 2]}]}'
BIG_SEED = 2**40 + 7  # seeds are 64-bit
OPTIONS = '{"timer": 30, "private": true, "started": false, "muted": [2]}'

# (table, place, kind, name, bot, token, claimed, invite)
PLACES = [
    ("t1", 0, "you", "Ann", None, "tok-ann", 1, None),
    ("t1", 1, "friend", "Bea", None, None, 0, "inv-bea"),
    ("t1", 2, "bot", "Cy", "basic", None, 0, None),
    ("t1", 3, "friend", "Di", None, "tok-di", 1, None),
    ("t2", 0, "you", "Ed", None, "tok-ed", 1, None),
    ("t2", 1, "bot", "Flo", "random", None, 0, None),
]
MATCHES = [  # (table, number, seed, started, finished, result)
    ("t1", 1, 12345, 1700000001.25, 1700000100.5, RESULT),
    ("t1", 2, BIG_SEED, 1700000101.0, None, None),
    ("t2", 1, 777, 1700000002.0, None, None),
]
ACTIONS = [  # (table, match, idx, seat, action, at)
    ("t1", 1, 0, 1, "pass", 1700000002.0),
    ("t1", 1, 1, 2, "order", 1700000003.0),
    ("t1", 1, 2, 0, "discard 9C", 1700000004.0),
    ("t1", 2, 0, 1, "pass", 1700000102.0),
    ("t1", 2, 1, 2, "pass", 1700000103.0),
    ("t2", 1, 0, 1, "pass", 1700000005.0),
]


def expected_t1(invite: str | None = "inv-bea", token: str | None = None) -> TableRecord:
    """Table t1 as it was stored, read back."""
    places = [PlaceRecord(0, "you", "Ann", None, "tok-ann", True),
              PlaceRecord(1, "friend", "Bea", None, token, False, invite),
              PlaceRecord(2, "bot", "Cy", "basic"),
              PlaceRecord(3, "friend", "Di", None, "tok-di", True)]
    matches = [
        MatchRecord(1, 12345, [(1, "pass"), (2, "order"), (0, "discard 9C")],
                    {"games": [{"scores": [10, 7], "winners": [0, 2]}]},
                    1700000001.25, 1700000100.5),
        MatchRecord(2, BIG_SEED, [(1, "pass"), (2, "pass")], None, 1700000101.0, None)]
    return TableRecord("t1", "Ann's table", {"players": 4, "target": 10}, places, matches,
                       1700000000.5, {"timer": 30, "private": True, "started": False,
                                      "muted": [2]})


def sqlite_release(path: Path, statements: str = SQLITE_RELEASE, options: bool = True
                   ) -> None:
    """A database as the release before schema versions left it: t1 mid-rubber with a
    finished game, the host's settings and a guest awaited, t2 without settings."""
    invites = "invite TEXT" in statements
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(statements)
        conn.executemany("INSERT INTO tables VALUES (?, ?, ?, ?)", [
            ("t1", "Ann's table", '{"players": 4, "target": 10}', 1700000000.5),
            ("t2", "Ed's table", '{"players": 2}', 1700000000.75)])
        if options:
            conn.execute("INSERT INTO table_options VALUES ('t1', ?)", (OPTIONS,))
        rows = PLACES if invites else [  # an invitation was the friend's unclaimed token
            (*p[:5], p[7] if p[7] else p[5], p[6]) for p in PLACES]
        conn.executemany(f"INSERT INTO places VALUES ({', '.join('?' * len(rows[0]))})", rows)
        conn.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?)", MATCHES)
        conn.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", ACTIONS)
        conn.commit()


def sqlite_layout(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """Every table and index of a database, with the statement that made it."""
    return conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                        "ORDER BY name").fetchall()


async def read_back(store: Any) -> tuple[TableRecord | None, list[str], list[tuple[str, int]]]:
    """Table t1, the unfinished tables and the finished matches, as the storage reads them."""
    return (await store.load_table("t1"), [t.id for t in await store.unfinished_tables()],
            [(t.id, m.number) for t, m in await store.finished_matches()])


async def write_on(store: Any) -> tuple[bool | None, TableRecord | None, TableRecord | None]:
    """New writes on a migrated database: an action, Bea's invitation spent (the last
    guest awaited: the table starts), t2 deleted with all it held."""
    await store.append_action("t1", 2, 2, 3, "pass")
    bea = PlaceRecord(1, "friend", "Bea", None, "tok-bea", True, "inv-bea")
    started = await store.spend_invitation("t1", bea, "inv-bea")
    await store.delete_table("t2")
    return started, await store.load_table("t1"), await store.load_table("t2")


def check_writes(started: bool | None, t1: TableRecord | None, t2: TableRecord | None) -> None:
    assert started is True
    assert t1 is not None and t1.options["started"] is True
    assert t1.places[1] == PlaceRecord(1, "friend", "Bea", None, "tok-bea", True, "inv-bea")
    assert t1.matches[1].actions == [(1, "pass"), (2, "pass"), (3, "pass")]
    assert t2 is None


# -- SQLite ------------------------------------------------------------------------------------
def test_an_sqlite_database_of_the_release_before_opens_with_every_row(tmp_path: Path) -> None:
    db = tmp_path / "release.sqlite3"
    sqlite_release(db)

    async def main() -> Any:
        store = SQLiteStorage(db, "NORMAL")
        try:
            return await read_back(store), await write_on(store)
        finally:
            await store.close()

    (t1, unfinished, finished), writes = asyncio.run(main())
    assert t1 == expected_t1()
    assert unfinished == ["t2", "t1"]  # the oldest game first: t2's, then t1's rematch
    assert finished == [("t1", 1)]
    check_writes(*writes)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [
            (schema.VERSION,)]
        # the tables are today's, as a new database has them, none left over
        fresh = sqlite3.connect(":memory:")
        schema.migrate(fresh, schema.SQLITE)
        assert sqlite_layout(conn) == sqlite_layout(fresh)
        # no action is left of the deleted table, none of its places or matches
        assert conn.execute("SELECT count(*) FROM actions WHERE table_id = 't2'").fetchone() \
            == (0,)
        assert conn.execute("SELECT lock_key FROM tables").fetchall() == [
            (schema.lock_key("t1"),)]


def test_an_sqlite_database_of_the_releases_before_invitations_keeps_its_guest(
        tmp_path: Path) -> None:
    # before invitations, a friend's unclaimed token was the invitation: it becomes one
    db = tmp_path / "older.sqlite3"
    sqlite_release(db, SQLITE_BEFORE_INVITES, options=False)

    async def main() -> TableRecord | None:
        store = SQLiteStorage(db, "NORMAL")
        try:
            return await store.load_table("t1")
        finally:
            await store.close()

    t1 = asyncio.run(main())
    want = expected_t1()
    want.options = {}
    assert t1 == want


def test_an_sqlite_database_migrated_by_a_newer_server_is_refused_as_it_is(
        tmp_path: Path) -> None:
    db = tmp_path / "newer.sqlite3"
    with contextlib.closing(sqlite3.connect(db)) as conn:
        schema.migrate(conn, schema.SQLITE)
        conn.execute("UPDATE schema_version SET version = ?", (schema.VERSION + 1,))
        conn.commit()
        before = sqlite_layout(conn)
    with pytest.raises(StorageError, match="newer euchre server") as refused:
        SQLiteStorage(db, "NORMAL")
    assert "\n" not in str(refused.value)
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert sqlite_layout(conn) == before
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [
            (schema.VERSION + 1,)]


# -- PostgreSQL --------------------------------------------------------------------------------
@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A new PostgreSQL database of its own."""
    return pg_cluster.new_database()


def postgres_release(url: str, versions: int = 2) -> None:
    """A database as the release before one schema made it, at version ``versions``,
    with the rows it stored (the guest's invitation, before version 2, her token)."""
    import psycopg
    from psycopg.types.json import Jsonb

    with psycopg.connect(url) as conn, conn.cursor() as cur:
        cur.execute(POSTGRES_RELEASE[0])
        cur.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        cur.execute("INSERT INTO schema_version VALUES (%s)", (versions,))
        if versions >= 2:
            cur.execute(POSTGRES_RELEASE[1])
        cur.executemany("INSERT INTO tables VALUES (%s, %s, %s, %s, %s, %s)", [
            ("t1", "Ann's table", Jsonb({"players": 4, "target": 10}), Jsonb(
                {"timer": 30, "private": True, "started": False, "muted": [2]}),
             1700000000.5, schema.lock_key("t1")),
            ("t2", "Ed's table", Jsonb({"players": 2}), Jsonb({}), 1700000000.75,
             schema.lock_key("t2"))])
        for table_id, place, kind, name, bot, token, claimed, invite in PLACES:
            if versions >= 2:
                cur.execute("INSERT INTO places VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                            (table_id, place, kind, name, bot, token, bool(claimed), invite))
            else:
                cur.execute("INSERT INTO places VALUES (%s, %s, %s, %s, %s, %s, %s)",
                            (table_id, place, kind, name, bot, invite or token,
                             bool(claimed)))
        cur.executemany("INSERT INTO matches VALUES (%s, %s, %s, %s, %s, %s)", [
            (*m[:5], None if m[5] is None else Jsonb({
                "games": [{"scores": [10, 7], "winners": [0, 2]}]})) for m in MATCHES])
        cur.executemany("INSERT INTO actions VALUES (%s, %s, %s, %s, %s, %s)", ACTIONS)


def _postgres_round(url: str) -> Any:
    from euchre.server.pgstorage import PostgresStorage

    async def main() -> Any:
        store = PostgresStorage(url)
        try:
            return await read_back(store), await write_on(store)
        finally:
            await store.close()

    return asyncio.run(main())


@pytest.mark.parametrize("versions", [2, 1])
def test_a_postgresql_database_of_the_release_before_opens_with_every_row(
        pg_url: str, versions: int) -> None:
    import psycopg

    postgres_release(pg_url, versions)
    (t1, unfinished, finished), writes = _postgres_round(pg_url)
    assert t1 == expected_t1()
    assert unfinished == ["t2", "t1"]
    assert finished == [("t1", 1)]
    check_writes(*writes)
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [
            (schema.VERSION,)]
        assert conn.execute("SELECT count(*) FROM actions WHERE table_id = 't2'").fetchone() \
            == (0,)


def test_a_postgresql_database_migrated_by_a_newer_server_is_refused(pg_url: str) -> None:
    import psycopg

    from euchre.server.pgstorage import PostgresStorage, migrate

    migrate(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (schema.VERSION + 1,))
    with pytest.raises(StorageError, match="newer than this server"):
        PostgresStorage(pg_url)


def test_both_databases_have_the_same_tables_and_columns(pg_url: str) -> None:
    import psycopg

    from euchre.server.pgstorage import migrate

    lite = sqlite3.connect(":memory:")
    schema.migrate(lite, schema.SQLITE)
    names = [n for (n,) in lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    in_sqlite = {n: [row[1] for row in lite.execute(f"PRAGMA table_info({n})")]
                 for n in names}
    migrate(pg_url)
    with psycopg.connect(pg_url) as conn:
        in_postgres: dict[str, list[str]] = {}
        for table, column in conn.execute(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position"):
            in_postgres.setdefault(table, []).append(column)
        indexes = {n for (n,) in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
            "AND indexname NOT LIKE '%pkey' AND indexname NOT LIKE '%key'")}
    assert in_sqlite == in_postgres
    assert set(schema.COLUMNS) < set(in_sqlite)
    assert all(schema.COLUMNS[n] <= set(in_sqlite[n]) for n in schema.COLUMNS)
    assert indexes == {n for (n,) in lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
