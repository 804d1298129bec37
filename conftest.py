"""Plain ``pytest`` in an environment with only the ``dev`` extra: what needs another extra
is skipped, naming the extra, instead of failing to collect (issue 24).

``pytest`` collects ``tests/`` and, for their doctests, the modules of ``euchre/``
(``pyproject.toml``).  The web server's modules and tests need the ``web`` extra, and an
environment adapter its library; without them, importing the module fails.  Test modules
that need an extra skip themselves (``pytest.importorskip``); the folders and modules
below cannot (a package's ``__init__`` or a ``conftest.py`` fails first), so their
collection is reported as skipped here, with the extra to install.  With every extra
installed (``make test``) this file changes nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "pydantic", "websockets", "markdown_it"),
    "gymnasium": ("gymnasium",),
    "pettingzoo": ("pettingzoo", "gymnasium"),
    "bench": ("pyspiel",),
}
"""The modules each extra of ``pyproject.toml`` brings, by their import names."""

NEEDS: dict[str, str] = {
    "euchre/server": "web",
    "tests/server": "web",
    "euchre/envs/gymnasium.py": "gymnasium",
    "euchre/envs/pettingzoo.py": "pettingzoo",
    "euchre/envs/openspiel.py": "bench",
}
"""The folders and modules that cannot be imported without an extra."""


def installed(name: str) -> bool:
    """Whether the top-level module ``name`` can be imported (a module set to ``None`` in
    ``sys.modules``, as a test does to hide one, cannot)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` this environment lacks."""
    return [name for name in EXTRAS[extra] if not installed(name)]


def needed_extra(path: Path) -> str | None:
    """The extra that ``path`` (a folder or a module) needs and this environment lacks."""
    for where, extra in NEEDS.items():
        if path == ROOT / where or (ROOT / where) in path.parents:
            return extra if missing(extra) else None
    return None


def _reason(extra: str) -> str:
    return (
        f"needs the '{extra}' extra ({', '.join(missing(extra))} not installed): "
        f"pip install -e '.[{extra}]'"
    )


class NeedsExtra(pytest.File):
    """A folder whose extra is missing, collected as one skip that names the extra.  It is
    not a :class:`pytest.Directory`, so its ``conftest.py`` (which would fail to import) is
    not loaded."""

    extra: str

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        pytest.skip(_reason(self.extra))


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A folder that needs a missing extra is collected as a skip."""
    extra = needed_extra(path)
    if extra is None:
        return None
    folder: NeedsExtra = NeedsExtra.from_parent(parent, path=path)
    folder.extra = extra
    return folder


@pytest.hookimpl(tryfirst=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport | None:
    """A module that needs a missing extra is reported skipped, naming the extra, instead of
    being imported for its doctests."""
    path = getattr(collector, "path", None)
    if not isinstance(collector, pytest.File) or not isinstance(path, Path):
        return None
    extra = None if isinstance(collector, NeedsExtra) else needed_extra(path)
    if extra is None:
        return None
    return pytest.CollectReport(
        collector.nodeid, "skipped", (str(path), 0, "Skipped: " + _reason(extra)), []
    )
