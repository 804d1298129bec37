"""Fixtures for the web server tests: a real server on a loopback port per test.

The server's tests run on SQLite and on PostgreSQL (``backend``): one throwaway PostgreSQL
cluster for the whole session (:mod:`pgcluster`), a fresh database for each test.  Where
Debian's ``postgresql`` or the ``postgres`` extra is missing, the PostgreSQL runs are
skipped, saying why.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pgcluster import Cluster, find_binaries, running_cluster
from serverkit import Database, Server, running_server


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL server for the session, stopped and deleted at the end."""
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("PostgreSQL tests need the 'postgres' extra: pip install -e '.[postgres]'")
    bindir = find_binaries()
    if bindir is None:
        pytest.skip("PostgreSQL tests need Debian's postgresql package (make installs it "
                    "with apt-get): no /usr/lib/postgresql/*/bin/initdb here")
    with running_cluster(bindir) as cluster:
        yield cluster


@pytest.fixture(scope="module", autouse=True)
def _chromium_closed_at_the_end() -> Iterator[None]:
    """A module's browser tests share one chromium (``test_server_browser.chromium``):
    closed when the module's tests are done.  Not kept for the session: a running
    Playwright holds an asyncio loop in the main thread, and the later modules'
    ``asyncio.run`` would refuse to start."""
    yield
    browser_tests = sys.modules.get("test_server_browser")
    if browser_tests is not None:
        browser_tests.close_chromium()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """The database the server runs on."""
    name: str = request.param
    return name


@pytest.fixture(scope="session")
def pg_spare() -> list[str]:
    """PostgreSQL databases emptied after their test, for the next (making one costs
    far more than emptying one)."""
    return []


@pytest.fixture
def database(backend: str, tmp_path: Path, request: pytest.FixtureRequest
             ) -> Iterator[Database]:
    """Fresh databases of the test's backend: ``database("a")`` is an SQLite file in the
    test's directory, or an empty PostgreSQL database (the same name, the same
    database)."""
    if backend == "sqlite":
        yield lambda name: tmp_path / f"{name}.sqlite3"
        return
    import psycopg

    cluster: Cluster = request.getfixturevalue("pg_cluster")
    spare: list[str] = request.getfixturevalue("pg_spare")
    made: dict[str, str] = {}

    def named(name: str) -> str:
        if name not in made:
            made[name] = spare.pop() if spare else cluster.new_database()
        return made[name]

    yield named
    for url in made.values():  # every server of the test has stopped: empty it
        with psycopg.connect(url, autocommit=True) as conn:
            if conn.execute("SELECT to_regclass('actions')").fetchone() != (None,):
                conn.execute("TRUNCATE tables, places, matches, actions, nights, "
                             "night_players, night_rounds, night_reports, seasons")
        spare.append(url)


@pytest.fixture
def server(database: Database) -> Iterator[Server]:
    """The app on uvicorn in a thread, over a fresh database, bots without delay."""
    with running_server(database("euchre")) as srv:
        yield srv


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's chromium, headless: the module's one (``test_server_browser.chromium``),
    each test's browser contexts closed after it.  A module that wants its pages kept
    from test to test defines a module-scoped ``browser`` of its own."""
    from test_server_browser import chromium

    with chromium() as launched:
        yield launched

