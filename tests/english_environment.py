"""The fixture every test runs under (``tests/conftest.py`` makes it autouse): English,
whatever the machine's locale.

It lives here, not in ``conftest.py`` itself, because mypy cannot tell two modules named
``conftest`` apart (``tests/server/conftest.py`` is the other) and skips this one's."""

from __future__ import annotations

import pytest

from euchre.cli.lang import use

__all__ = ["english_environment"]


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch,
                        tmp_path_factory: pytest.TempPathFactory) -> None:
    """An English environment (``LANG=C.UTF-8``, no ``LANGUAGE``, ``LC_ALL`` or
    ``LC_MESSAGES``) and the terminal speaking English, so that the English tests pass
    on a German machine; a test about languages sets its own.  The user's data folder
    (``XDG_DATA_HOME``, where an abandoned game is saved) is a fresh one, never the
    user's own."""
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    use("en")
