"""A server that cannot start says why in one line: no traceback, nothing made.

Every database ``--db`` may name that cannot be used (not SQLite, damaged, read-only,
another program's, a directory, a FIFO, a device, a path under ``/proc``, far too long a
path, a missing directory, a URL of another scheme, an unreachable PostgreSQL) stops
``python -m euchre.server`` and ``euchre serve`` with exactly one line on standard error
naming the database and the cause, exit status 1 (2 for a ``--db`` that is no database
name at all), and leaves no file or directory behind.  A stored table whose rules are
not JSON is left out with one line, and the server starts.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from pgcluster import Cluster
from serverkit import free_port, server_command, wait_until_serving
from typer.testing import CliRunner

from euchre.cli import app as cli_app
from euchre.rules import Rules
from euchre.server.storage import MatchRecord, PlaceRecord, SQLiteStorage, TableRecord

TIMEOUT = 60
"""Seconds a refused start may take at most (a FIFO must not hang it)."""


def make_database(path: Path, tables: int = 3) -> None:
    """A database of the server holding ``tables`` unfinished tables ``t0``, ``t1``…:
    a person's place nobody holds, and three bots."""

    async def fill() -> None:
        store = SQLiteStorage(path, synchronous="NORMAL")
        try:
            for k in range(tables):
                places = [PlaceRecord(0, "you", "Ann", None, f"token{k}"),
                          *(PlaceRecord(p, "bot", f"bot {p}", "basic") for p in (1, 2, 3))]
                await store.create_table(TableRecord(
                    f"t{k}", f"table {k}", Rules(players=4).to_dict(), places,
                    [MatchRecord(1, 40 + k, [], None, time.time())], time.time()))
        finally:
            await store.close()

    asyncio.run(fill())
    path.with_name(path.name + ".lock").unlink()  # as if the database came from elsewhere


def files_in(directory: Path) -> set[str]:
    """Every path under ``directory``, relative to it."""
    return {str(p.relative_to(directory)) for p in directory.rglob("*")}


def damage_page(db: Path, table: str) -> None:
    """Overwrite the first page of ``table`` with bytes SQLite cannot read."""
    with sqlite3.connect(db) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                            (table,)).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with db.open("r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xa5" * size)


# -- the cases ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """A database that cannot be used: how to make it (given the test's directory,
    returns ``--db``), the exit status, and words the one line must hold."""

    make: Callable[[Path], str]
    status: int
    words: tuple[str, ...]
    allowed: frozenset[str] = frozenset()
    """Files a refused start may leave (a damaged database's lock file: the server
    opened it before it read the damage)."""
    driver: bool = False
    """Needs PostgreSQL's driver (the ``postgres`` extra)."""

    def check_driver(self) -> None:
        if self.driver and importlib.util.find_spec("psycopg") is None:
            pytest.skip("a PostgreSQL URL needs the 'postgres' extra: pip install -e "
                        "'.[postgres]'")


def _not_sqlite(d: Path) -> str:
    (d / "notes.db").write_text("these are somebody's notes, not a database\n" * 20)
    return str(d / "notes.db")


def _truncated(d: Path) -> str:
    make_database(d / "db.sqlite3", tables=40)
    data = (d / "db.sqlite3").read_bytes()
    (d / "db.sqlite3").write_bytes(data[:len(data) // 2])
    return str(d / "db.sqlite3")


def _damaged(d: Path) -> str:
    make_database(d / "db.sqlite3")
    damage_page(d / "db.sqlite3", "matches")  # read at start-up, to resume the tables
    return str(d / "db.sqlite3")


def _foreign_tables(d: Path) -> str:
    with sqlite3.connect(d / "other.db") as conn:
        conn.execute("CREATE TABLE tables (legs INTEGER, wood TEXT)")
        conn.execute("INSERT INTO tables VALUES (4, 'oak')")
    return str(d / "other.db")


def _other_program(d: Path) -> str:
    with sqlite3.connect(d / "other.db") as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    return str(d / "other.db")


def _directory(d: Path) -> str:
    (d / "games").mkdir()
    return str(d / "games")


def _fifo(d: Path) -> str:
    os.mkfifo(d / "pipe")
    return str(d / "pipe")


CASES: dict[str, Case] = {
    "not SQLite": Case(_not_sqlite, 1, ("notes.db", "is not an SQLite database")),
    "truncated": Case(_truncated, 1, ("db.sqlite3", "is damaged")),
    "a damaged page": Case(_damaged, 1, ("db.sqlite3", "cannot be resumed", "is damaged"),
                           frozenset({"db.sqlite3.lock"})),
    "a foreign tables table": Case(_foreign_tables, 1,
                                   ("other.db", "a table 'tables' that is not euchre's")),
    "another program's": Case(_other_program, 1,
                              ("other.db", "belongs to another program", "'invoices'")),
    "a directory": Case(_directory, 1, ("games", "is a directory")),
    "a FIFO": Case(_fifo, 1, ("pipe", "is a FIFO")),
    "/dev/null": Case(lambda d: "/dev/null", 1, ("/dev/null", "is a character device")),
    "under /proc": Case(lambda d: "/proc/self/euchre.sqlite3", 1, ("/proc/self",)),
    "a 5,000-character path": Case(lambda d: str(d / ("a" * 5000)), 1,
                                   ("cannot be opened", "File name too long",
                                    "a path of 5,")),
    "a missing directory": Case(lambda d: str(d / "nowhere" / "db.sqlite3"), 1,
                                ("nowhere", "does not exist")),
    "empty": Case(lambda d: "", 2, ("--db is empty",)),
    "ftp://": Case(lambda d: "ftp://x/y", 2, ("not 'ftp://x/y'",)),
    "sqlite://": Case(lambda d: "sqlite:///tmp/x.db", 2, ("give its path, /tmp/x.db",)),
    "http://": Case(lambda d: "http://example.com/db", 2, ("postgresql:// URL",)),
    "a PostgreSQL URL libpq cannot read": Case(
        lambda d: "postgresql://euchre:s3cret@[::1/euchre", 1,
        ("postgresql://euchre@[::1/euchre", "cannot be used"), driver=True),
}


def assert_one_line(stderr: str, words: tuple[str, ...]) -> str:
    """Exactly one line, ``euchre: …``, holding ``words``; no traceback, no password."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    line = lines[0]
    assert line.startswith("euchre: "), line
    for word in words:
        assert word in line, (word, line)
    assert "Traceback" not in stderr and "s3cret" not in stderr
    assert len(line) < 400, line  # a long path is shortened
    return line


def _dev_null_locks() -> bool:
    return Path("/dev/null.lock").exists()


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_python_m_euchre_server_refuses_a_database_in_one_line_and_makes_nothing(
        case: Case, tmp_path: Path) -> None:
    case.check_driver()
    work = tmp_path / "work"
    work.mkdir()
    db = case.make(work)
    before, dev_null_lock = files_in(work), _dev_null_locks()
    proc = subprocess.run(server_command(db, free_port()), capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=work)
    assert proc.returncode == case.status, proc.stderr
    assert_one_line(proc.stderr, case.words)
    assert proc.stdout == ""  # it never said it was serving
    assert files_in(work) - before <= case.allowed
    assert _dev_null_locks() == dev_null_lock


@pytest.mark.parametrize("case", [c for c in CASES.values() if c.make is not _damaged],
                         ids=[k for k, c in CASES.items() if c.make is not _damaged])
def test_euchre_serve_refuses_a_database_in_one_line_and_makes_nothing(
        case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case.check_driver()
    work = tmp_path / "work"
    work.mkdir()
    db = case.make(work)
    monkeypatch.chdir(work)
    before = files_in(work)
    result = CliRunner().invoke(cli_app, ["serve", "--db", db, "--port", str(free_port())])
    assert result.exit_code == case.status, result.output
    assert_one_line(result.stderr, case.words)
    assert files_in(work) == before


def test_euchre_serve_on_a_damaged_database_exits_with_one_line(tmp_path: Path) -> None:
    """The damage is found while the stored tables are resumed, before the server
    listens: said in one line, as at once."""
    db = _damaged(tmp_path)
    euchre = Path(sys.executable).with_name("euchre")
    proc = subprocess.run([str(euchre), "serve", "--db", db, "--port", str(free_port())],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 1
    line = assert_one_line(proc.stderr, CASES["a damaged page"].words)
    assert line.startswith(f"euchre: the tables stored in {db} cannot be resumed: ")


# -- read-only files and directories ------------------------------------------------------------
@functools.cache
def _can_mount() -> bool:
    """Can this (root) user make a read-only bind mount in a mount namespace of its own?"""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind -o ro / /"],
                           capture_output=True, timeout=TIMEOUT)
    return probe.returncode == 0


def read_only(command: list[str], target: Path) -> list[str]:
    """``command`` with ``target`` (a file or a directory) read-only for it: its
    permissions taken away, or for root (whom permissions do not stop) mounted
    read-only in a mount namespace of the command's own."""
    if os.geteuid() != 0:
        target.chmod(0o555 if target.is_dir() else 0o444)
        return command
    if not _can_mount():
        pytest.skip("as root a read-only file needs a read-only mount: unshare -m failed")
    return ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"',
            str(target), *command]


@pytest.mark.parametrize(("target", "words"), [
    ("file", ("db.sqlite3", "is read-only")),
    ("directory", ("is read-only",)),  # the file in it too, for root: a read-only mount
])
def test_a_read_only_database_is_refused_in_one_line(
        target: str, words: tuple[str, ...], tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    db = work / "db.sqlite3"
    make_database(db)
    data, before = db.read_bytes(), files_in(work)
    command = read_only(server_command(db, free_port()), db if target == "file" else work)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    finally:
        work.chmod(0o755)
        db.chmod(0o644)
    assert proc.returncode == 1, proc.stderr
    assert_one_line(proc.stderr, words)
    assert files_in(work) == before and db.read_bytes() == data


def test_a_new_database_in_a_read_only_directory_is_refused_in_one_line(
        tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    command = read_only(server_command(work / "db.sqlite3", free_port()), work)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    finally:
        work.chmod(0o755)
    assert proc.returncode == 1, proc.stderr
    assert_one_line(proc.stderr, ("the directory", "is read-only", "cannot be made there"))
    assert files_in(work) == set()


# -- held, or another program's -----------------------------------------------------------------
def test_a_database_another_server_holds_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    make_database(db)

    async def hold() -> subprocess.CompletedProcess[str]:
        store = SQLiteStorage(db, synchronous="NORMAL")
        try:
            return await asyncio.to_thread(
                subprocess.run, server_command(db, free_port()), capture_output=True,
                text=True, timeout=TIMEOUT)
        finally:
            await store.close()

    proc = asyncio.run(hold())
    assert proc.returncode == 1
    assert_one_line(proc.stderr, ("is in use by another euchre server (process",))


def test_another_programs_database_is_left_as_it_was(tmp_path: Path) -> None:
    """Not even switched to SQLite's write-ahead log: the file's bytes are the same."""
    db = Path(_foreign_tables(tmp_path))
    data = db.read_bytes()
    proc = subprocess.run(server_command(db, free_port()), capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 1
    assert db.read_bytes() == data


def test_a_foreign_tables_table_in_postgresql_is_refused_in_one_line(
        pg_cluster: Cluster) -> None:
    import psycopg

    url = pg_cluster.new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE tables (legs INTEGER, wood TEXT)")
    proc = subprocess.run(server_command(url, free_port()), capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert proc.returncode == 1
    assert_one_line(proc.stderr, ("holds a table that is not euchre's",
                                  url.rpartition("@")[2]))
    with psycopg.connect(url, autocommit=True) as conn:  # nothing was made in it
        assert conn.execute("SELECT to_regclass('schema_version')").fetchone() == (None,)


def test_an_unreachable_postgresql_is_refused_in_one_line_without_its_password() -> None:
    CASES["a PostgreSQL URL libpq cannot read"].check_driver()
    port = free_port()  # nothing listens there
    proc = subprocess.run(
        server_command(f"postgresql://euchre:s3cret@127.0.0.1:{port}/euchre?password=s3cret",
                       free_port()), capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 1
    assert_one_line(proc.stderr, (f"postgresql://euchre@127.0.0.1:{port}/euchre ",
                                  "cannot be used"))


# -- a table that cannot be read ------------------------------------------------------------------
def test_a_table_whose_stored_rules_are_not_json_is_left_out_in_one_line(
        tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    make_database(db)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET rules = '{\"players\": 4,' WHERE id = 't1'")
    port = free_port()
    proc = subprocess.Popen(server_command(db, port), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        wait_until_serving(proc, f"http://127.0.0.1:{port}", time.monotonic() + TIMEOUT)
        for table in ("t0", "t2"):  # the others are resumed
            r = httpx2.get(f"http://127.0.0.1:{port}/api/tables/{table}", timeout=10)
            assert r.status_code == 200, r.text
    finally:
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=TIMEOUT)
    assert stderr.decode().splitlines() == [
        "table t1 cannot be resumed: its stored rules are not JSON"]


# -- one command line ---------------------------------------------------------------------------
def test_python_m_euchre_server_is_the_euchre_serve_command() -> None:
    """Declared once: the same options, the same help."""
    module = subprocess.run([sys.executable, "-m", "euchre.server", "--help"],
                            capture_output=True, text=True, timeout=TIMEOUT)
    command = CliRunner().invoke(cli_app, ["serve", "--help"], terminal_width=80)
    assert module.returncode == 0 and command.exit_code == 0
    assert module.stdout.startswith("Usage: python -m euchre.server [OPTIONS]")

    def options(text: str) -> list[str]:
        return [word for word in text.split() if word.startswith("--")]

    assert options(module.stdout) == options(command.output)
    assert "--rate-tables" in options(module.stdout)
