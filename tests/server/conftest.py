"""Fixtures for the web server tests: a real server on a loopback port per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import Server, running_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The app on uvicorn in a thread, over a fresh SQLite file, bots without delay."""
    with running_server(tmp_path / "euchre.sqlite3") as srv:
        yield srv
