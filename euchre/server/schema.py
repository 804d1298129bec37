"""The server's database schema, written once for SQLite and PostgreSQL.

Four tables hold everything needed to rebuild a table (:class:`~euchre.server.storage.TableRecord`):

* ``tables``: one row a table: its name, rules and options (JSON), when it was made, and
  its ``lock_key`` (the advisory lock of the process playing its bots, on PostgreSQL);
* ``places``: its places, in order, with their tokens and invitations;
* ``matches``: each game (or rubber) played at it: seed, start, end and result (JSON);
* ``actions``: every action of a match, numbered from 0 (``seq``) in the order applied.

A club night (:mod:`euchre.server.night`) is four more: ``nights`` (its name, day, format,
settings as JSON text, the organiser's key and the join link's key), ``night_players``
(numbered from 1, each with a personal token, present or not), ``night_rounds`` (each
round's seating as JSON text, when it started and ended) and ``night_reports`` (every
entry, correction, confirmation, dispute and settlement of a table's result, numbered
``seq`` from 1, with who made it; never updated).  A season (:mod:`euchre.server.season`)
is a row of ``seasons`` (its name and its organiser's key), and a night of it names it
(``nights.season_id``).  A puzzle player (:mod:`euchre.server.puzzle_players`) is a row of
``puzzle_players``: its key, and its rating and best streak in each variant (JSON text).

Deleting a table deletes its places and matches, and deleting a match its actions
(``ON DELETE CASCADE``).  The schema grows by :data:`MIGRATIONS`, one step a version,
kept here as data and applied by both storages alike (:func:`migrate`): the version a
database is at is the one row of the table ``schema_version``.  The statements are
written once; what the two databases spell differently (JSON, floating point and
boolean columns, parameter markers) is a :class:`Dialect`.

The statements both storages run (:data:`INSERT_TABLE` and the rest) are here too, with
``?`` for each parameter (:meth:`Dialect.sql` writes them for the driver).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

__all__ = [
    "COLUMNS",
    "MIGRATIONS",
    "POSTGRES",
    "SQLITE",
    "VERSION",
    "Connection",
    "Dialect",
    "Migration",
    "SchemaTooNew",
    "lock_key",
    "migrate",
    "unversioned_sqlite",
]


@dataclass(frozen=True, slots=True)
class Dialect:
    """What one database spells its own way.

    ``types`` names the SQL type of each kind of column the statements leave open
    (``{json}``, ``{real}``, ``{bool}``, ``{bigint}``); ``marker`` is the driver's
    parameter marker.

    >>> POSTGRES.ddl("rules {json} NOT NULL, claimed {bool}")
    'rules JSONB NOT NULL, claimed BOOLEAN'
    >>> SQLITE.ddl("rules {json} NOT NULL, claimed {bool}")
    'rules TEXT NOT NULL, claimed INTEGER'
    >>> POSTGRES.sql("SELECT seat FROM actions WHERE table_id = ? AND seq >= ?")
    'SELECT seat FROM actions WHERE table_id = %s AND seq >= %s'
    """

    name: str
    types: Mapping[str, str]
    marker: str

    def ddl(self, statement: str) -> str:
        """A statement of :data:`MIGRATIONS` in this dialect: its column types filled in."""
        return statement.format_map(self.types)

    def sql(self, statement: str) -> str:
        """A statement with ``?`` for each parameter, as this dialect's driver takes it."""
        if self.marker == "?":
            return statement
        return statement.replace("%", "%%").replace("?", self.marker)


SQLITE: Final = Dialect("sqlite", {
    "json": "TEXT", "real": "REAL", "bool": "INTEGER", "bigint": "INTEGER"}, "?")
"""SQLite: JSON as text, booleans as 0 and 1."""

POSTGRES: Final = Dialect("postgresql", {
    "json": "JSONB", "real": "DOUBLE PRECISION", "bool": "BOOLEAN", "bigint": "BIGINT"}, "%s")
"""PostgreSQL (psycopg's ``%s`` markers)."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema: the statements that bring a database from ``version - 1``
    to ``version`` (column types as ``{json}`` and the like, see :class:`Dialect`)."""

    version: int
    about: str
    statements: tuple[str, ...]


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "tables, places, matches, actions", (
        """CREATE TABLE tables (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            rules {json} NOT NULL,
            options {json} NOT NULL DEFAULT '{{}}',
            created {real} NOT NULL,
            lock_key {bigint} NOT NULL
        )""",
        """CREATE TABLE places (
            table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            place INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            bot TEXT,
            token TEXT UNIQUE,
            claimed {bool} NOT NULL,
            PRIMARY KEY (table_id, place)
        )""",
        """CREATE TABLE matches (
            table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            seed {bigint} NOT NULL,
            started {real} NOT NULL,
            finished {real},
            result {json},
            PRIMARY KEY (table_id, number)
        )""",
        """CREATE TABLE actions (
            table_id TEXT NOT NULL,
            match INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            at {real} NOT NULL,
            PRIMARY KEY (table_id, match, seq),
            FOREIGN KEY (table_id, match) REFERENCES matches ON DELETE CASCADE
        )""",
        "CREATE INDEX matches_finished ON matches (finished DESC) WHERE finished IS NOT NULL",
        "CREATE INDEX matches_open ON matches (table_id) WHERE finished IS NULL",
    )),
    Migration(2, "invitations, apart from seat tokens (a claim spends one and makes a "
                 "seat token)", (
        "ALTER TABLE places ADD COLUMN invite TEXT",
        # an index, not a UNIQUE column: SQLite adds no UNIQUE column to a table
        "CREATE UNIQUE INDEX places_invite ON places (invite)",
        # a friend's unclaimed token was an invitation: it becomes one, and claiming it
        # makes a seat token of its own
        "UPDATE places SET invite = token, token = NULL "
        "WHERE kind = 'friend' AND NOT claimed AND token IS NOT NULL",
    )),
    Migration(3, "club nights: their players, rounds and every report of a table's result", (
        """CREATE TABLE nights (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            day TEXT NOT NULL,
            format TEXT NOT NULL,
            settings TEXT NOT NULL,
            host_key TEXT NOT NULL UNIQUE,
            join_key TEXT NOT NULL UNIQUE,
            created {real} NOT NULL
        )""",
        """CREATE TABLE night_players (
            night_id TEXT NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            name TEXT NOT NULL,
            token TEXT NOT NULL UNIQUE,
            present INTEGER NOT NULL,
            PRIMARY KEY (night_id, number)
        )""",
        """CREATE TABLE night_rounds (
            night_id TEXT NOT NULL REFERENCES nights(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            seating TEXT NOT NULL,
            started {real} NOT NULL,
            ended {real},
            PRIMARY KEY (night_id, number)
        )""",
        # every entry, correction, confirmation, dispute and settlement, never updated:
        # the row's key is the conflict, so of two phones reporting at once one wins
        """CREATE TABLE night_reports (
            night_id TEXT NOT NULL,
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            by_player INTEGER,
            points_a INTEGER,
            points_b INTEGER,
            detail TEXT NOT NULL,
            at {real} NOT NULL,
            PRIMARY KEY (night_id, round, table_no, seq),
            FOREIGN KEY (night_id, round) REFERENCES night_rounds ON DELETE CASCADE
        )""",
    )),
    Migration(4, "seasons: several nights of one club, under their organiser's key", (
        """CREATE TABLE seasons (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            host_key TEXT NOT NULL UNIQUE,
            created {real} NOT NULL
        )""",
        # a night belongs to one season at most, for good (added once, never moved)
        "ALTER TABLE nights ADD COLUMN season_id TEXT REFERENCES seasons(id)",
        "CREATE INDEX nights_season ON nights (season_id) WHERE season_id IS NOT NULL",
    )),
    Migration(5, "puzzle players: one person's puzzle ratings, per variant, under a key", (
        """CREATE TABLE puzzle_players (
            id TEXT PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            variants TEXT NOT NULL,
            created {real} NOT NULL,
            updated {real} NOT NULL
        )""",
    )),
)
"""The schema, one step a version: a database at version ``v`` runs the steps after it."""

VERSION: Final = MIGRATIONS[-1].version
"""The version of the schema this server writes."""

assert [m.version for m in MIGRATIONS] == list(range(1, VERSION + 1))

COLUMNS: Final[Mapping[str, frozenset[str]]] = {
    "tables": frozenset({"id", "name", "rules", "created"}),
    "places": frozenset({"table_id", "place", "kind", "name", "bot", "token", "claimed"}),
    "matches": frozenset({"table_id", "number", "seed", "started", "finished", "result"}),
    "actions": frozenset({"table_id", "match", "seat", "action", "at"}),
}
"""The columns each of euchre's tables has had in every version, on either database (a
table of one of these names without them is another program's)."""


def lock_key(table_id: str) -> int:
    """The table's ``lock_key``: 62 bits of a hash of its id (non-negative, so that
    PostgreSQL's ``pg_locks`` shows it as two halves that add up without overflow).

    >>> lock_key("abcdefgh") == lock_key("abcdefgh") >= 0
    True
    """
    return int.from_bytes(hashlib.blake2b(table_id.encode(), digest_size=8).digest()) >> 2


class SchemaTooNew(ValueError):
    """The database was migrated by a newer server than this one."""

    def __init__(self, version: int) -> None:
        self.version = version
        super().__init__(f"the database's schema (version {version}) is newer than this "
                         f"server's ({VERSION}): upgrade euchre")


class _Cursor(Protocol):
    def fetchone(self) -> Any: ...


class Connection(Protocol):
    """A connection of either driver (``sqlite3``'s or psycopg's), in a transaction."""

    def execute(self, query: str, /) -> _Cursor: ...


def migrate(conn: Connection, dialect: Dialect) -> int:
    """Bring the database's schema to :data:`VERSION` (a new database: make it), in the
    caller's transaction; returns the version it was at (0: none).  Raises
    :class:`SchemaTooNew` for a database a newer server migrated.

    >>> import sqlite3
    >>> conn = sqlite3.connect(":memory:")
    >>> migrate(conn, SQLITE), migrate(conn, SQLITE)
    (0, 5)
    """
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    version = 0 if row is None or row[0] is None else int(row[0])
    if version > VERSION:
        raise SchemaTooNew(version)
    if version == VERSION:
        return version
    for step in MIGRATIONS[version:]:
        for statement in step.statements:
            conn.execute(dialect.ddl(statement))
    conn.execute("DELETE FROM schema_version")
    conn.execute(f"INSERT INTO schema_version (version) VALUES ({VERSION})")
    return version


# -- SQLite databases of the releases before the schema had versions ----------------------------
_SET_ASIDE: Final = (
    # the releases before had no options at first, and an index of the name of ours
    "CREATE TABLE IF NOT EXISTS table_options (table_id TEXT PRIMARY KEY REFERENCES tables(id), "
    "options TEXT NOT NULL)",
    "DROP INDEX IF EXISTS matches_open",
    "ALTER TABLE actions RENAME TO unversioned_actions",
    "ALTER TABLE matches RENAME TO unversioned_matches",
    "ALTER TABLE places RENAME TO unversioned_places",
    "ALTER TABLE table_options RENAME TO unversioned_table_options",
    "ALTER TABLE tables RENAME TO unversioned_tables",
)

_COPY: Final = (
    "INSERT INTO tables (id, name, rules, options, created, lock_key) "
    "SELECT t.id, t.name, t.rules, coalesce(o.options, '{}'), t.created, lock_key(t.id) "
    "FROM unversioned_tables t LEFT JOIN unversioned_table_options o ON o.table_id = t.id",
    "INSERT INTO places (table_id, place, kind, name, bot, token, claimed, invite) "
    "SELECT table_id, place, kind, name, bot, token, claimed, invite FROM unversioned_places",
    "INSERT INTO matches (table_id, number, seed, started, finished, result) "
    "SELECT table_id, number, seed, started, finished, result FROM unversioned_matches",
    # an action of no stored match could not be read back: it stays behind
    "INSERT INTO actions (table_id, match, seq, seat, action, at) "
    "SELECT a.table_id, a.match, a.idx, a.seat, a.action, a.at FROM unversioned_actions a "
    "WHERE EXISTS (SELECT 1 FROM matches m WHERE m.table_id = a.table_id "
    "AND m.number = a.match)",
    "DROP TABLE unversioned_actions",
    "DROP TABLE unversioned_matches",
    "DROP TABLE unversioned_places",
    "DROP TABLE unversioned_table_options",
    "DROP TABLE unversioned_tables",
)

_UNVERSIONED_INVITES: Final = (
    "ALTER TABLE places ADD COLUMN invite TEXT",
    "UPDATE places SET invite = token, token = NULL "
    "WHERE kind = 'friend' AND claimed = 0 AND token IS NOT NULL",
)


def unversioned_sqlite(invites: bool) -> tuple[str, ...]:
    """The statements that bring an SQLite database of the releases before the schema
    had versions (``PRAGMA user_version = 1``, no ``schema_version``, actions numbered
    by ``idx``, options in a table of their own) to version 2, which holds the same
    facts; ``invites``: whether its places have their ``invite`` column already (the
    releases before that kept an invitation as the friend's unclaimed token).

    Its tables are set aside, version 2's made, every row copied, the old ones dropped;
    SQLite must know the function ``lock_key`` (:func:`lock_key`) while they run.
    """
    first = () if invites else _UNVERSIONED_INVITES
    made = tuple(SQLITE.ddl(s) for step in MIGRATIONS[:2] for s in step.statements)
    return (*first, *_SET_ASIDE, *made, *_COPY,
            "CREATE TABLE schema_version (version INTEGER NOT NULL)",
            "INSERT INTO schema_version (version) VALUES (2)")


# -- the statements both storages run (``?``: a parameter; see Dialect.sql) -------------------
INSERT_TABLE: Final = ("INSERT INTO tables (id, name, rules, options, created, lock_key) "
                       "VALUES (?, ?, ?, ?, ?, ?)")
INSERT_PLACE: Final = ("INSERT INTO places (table_id, place, kind, name, bot, token, claimed, "
                       "invite) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_MATCH: Final = "INSERT INTO matches (table_id, number, seed, started) VALUES (?, ?, ?, ?)"
INSERT_ACTION: Final = ("INSERT INTO actions (table_id, match, seq, seat, action, at) "
                        "VALUES (?, ?, ?, ?, ?, ?)")
"""On PostgreSQL, only while the acting seat's token holds its place (its own statement)."""
CLAIM_PLACE: Final = ("UPDATE places SET claimed = true, name = ? WHERE table_id = ? "
                      "AND place = ? AND (NOT ? OR NOT claimed)")
"""Parameters: name, table, place, whether only an unclaimed place may be taken."""
UPDATE_PLACE: Final = (
    "UPDATE places SET kind = ?, name = ?, bot = ?, token = ?, claimed = ?, invite = ? "
    "WHERE table_id = ? AND place = ? "
    "AND (CAST(? AS TEXT) IS NULL OR (invite = ? AND NOT claimed))")
"""Every field of a place; given an invitation (twice), only while the place holds it
unspent: the row is the conflict, so of two claims one wins."""
RELEASE_PLACE: Final = ("UPDATE places SET kind = ?, name = ?, token = ?, claimed = false, "
                        "invite = NULL WHERE table_id = ? AND place = ?")
FINISH_MATCH: Final = ("UPDATE matches SET finished = ?, result = ? "
                       "WHERE table_id = ? AND number = ? AND finished IS NULL")
"""Once: the first to finish a match sets its time."""
DISCARD_MATCH: Final = ("DELETE FROM matches WHERE table_id = ? AND number = ? "
                        "AND finished IS NULL")
DELETE_TABLE: Final = "DELETE FROM tables WHERE id = ?"
INVITATIONS_OUT: Final = ("SELECT 1 FROM places WHERE table_id = ? AND invite IS NOT NULL "
                          "AND NOT claimed AND kind IN ('friend', 'bot')")
"""Is a guest still awaited at the table?"""

LOAD_TABLE: Final = "SELECT id, name, rules, created, options FROM tables WHERE id = ?"
LOAD_PLACES: Final = ("SELECT place, kind, name, bot, token, claimed, invite FROM places "
                      "WHERE table_id = ? ORDER BY place")
LOAD_MATCHES: Final = ("SELECT number, seed, started, finished, result FROM matches "
                       "WHERE table_id = ? ORDER BY number")
LOAD_ACTIONS: Final = ("SELECT seat, action FROM actions WHERE table_id = ? AND match = ? "
                       "AND seq >= ? ORDER BY seq")
"""A match's actions from ``seq`` on."""
UNFINISHED: Final = ("SELECT m.table_id FROM matches m WHERE m.finished IS NULL AND m.number = "
                     "(SELECT max(number) FROM matches WHERE table_id = m.table_id) "
                     "ORDER BY m.started")
"""The tables whose latest match is not over, oldest first."""
FINISHED: Final = ("SELECT table_id, number, seed, started, finished, result FROM matches "
                   "WHERE finished IS NOT NULL ORDER BY finished DESC LIMIT ? OFFSET ?")
