"""The package's imports go strictly downwards: the engine, then the solver and the worlds
a seat may be in, then the bots, then the batch jobs (``euchre.jobs``: tournaments,
self-play, training, reviews, timings, the work in chunks), then the adapters (CLI,
server, environments and OpenSpiel's game and search).  The package's root holds the
engine, the solver and the worlds alone.

Every module under ``euchre/`` is parsed, and every import in it counts, the ones inside
functions included: a lazy import still ties the modules together.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

import euchre

PACKAGE = Path(euchre.__file__).resolve().parent

ENGINE = frozenset({"euchre", "euchre.cards", "euchre.actions", "euchre.rules", "euchre.sides",
                    "euchre.deal", "euchre.game", "euchre.records", "euchre.core",
                    "euchre.scoring", "euchre.notation",
                    "euchre.vector", "euchre.i18n", "euchre.userdirs", "euchre._numba",
                    "euchre.refusals", "euchre.wording",
                    "euchre.night", "euchre.night.schedule", "euchre.night.scoring",
                    "euchre.night.whist", "euchre.night.whist_data", "euchre.night.season"})
"""``euchre.night`` is the engine of a club night (its seating and scoring), pure like
the rules.  ``euchre.i18n`` and ``euchre.userdirs`` import nothing of the package, only the standard
library: they sit at the bottom so that any layer may speak the player's language and
find the user's data folder.  ``euchre.wording`` words the game (moves, suits, why a move
is refused) in a language it is given, for the terminal and the web alike."""
SOLVER = frozenset({"euchre.solver", "euchre._solver_kernel", "euchre.worlds"})
"""What the searching bots stand on: the open-hand solver, and what a seat knows with
the worlds consistent with it (:mod:`euchre.worlds`)."""
ADAPTERS = ("euchre.cli", "euchre.server", "euchre.envs")
"""The packages that face a person or another library: the terminal, the web app, the
environments and OpenSpiel's game and search."""
LAYER_NAMES = ("engine", "solver", "bots", "jobs", "adapters")
"""The layers, lowest first; the puzzles' plain data, themes and ratings
(:mod:`euchre.puzzles`) sit with the bots, below the job that makes them."""


def module_name(path: Path) -> str:
    """``euchre/bots/expert.py`` -> ``euchre.bots.expert``; a package is its
    ``__init__``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def package_modules() -> dict[str, Path]:
    """Every module of the package by name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int | None:
    """The module's layer (an index into :data:`LAYER_NAMES`), or ``None`` if unplaced."""
    if module in ENGINE:
        return 0
    if module in SOLVER:
        return 1
    package = ".".join(module.split(".")[:2])
    if package in ("euchre.bots", "euchre.puzzles"):
        return 2
    if package == "euchre.jobs":
        return 3
    if package in ADAPTERS:
        return 4
    return None


def _type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """The nodes inside ``if TYPE_CHECKING:`` blocks: imports for the type checker alone."""
    return {inner for node in ast.walk(tree)
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
            for stmt in node.body for inner in ast.walk(stmt)}


def imported(source: str, module: str, is_package: bool, known: set[str],
             runtime_only: bool = False) -> set[str]:
    """The package's modules that ``source`` (module ``module``) imports, anywhere in it
    (with ``runtime_only``, not those imported for the type checker alone).

    ``from euchre.server import views`` names the module ``euchre.server.views`` when
    there is one (``known``), else the package ``euchre.server``."""
    out: set[str] = set()
    here = module.split(".") if is_package else module.split(".")[:-1]
    tree = ast.parse(source)
    skipped = _type_checking_only(tree) if runtime_only else set()
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here[:len(here) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    return {m for m in out if m == "euchre" or m.startswith("euchre.")}


def import_graph(runtime_only: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (itself left out); with
    ``runtime_only``, leaving out the imports made for the type checker alone."""
    modules = package_modules()
    known = set(modules)
    graph = {}
    for name, path in modules.items():
        deps = imported(path.read_text(encoding="utf-8"), name, path.name == "__init__.py",
                        known, runtime_only)
        graph[name] = deps - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path that returns to its start, or ``None``."""
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack: list[tuple[str, list[str]]] = [(root, sorted(graph.get(root, ())))]
        path.append(root)
        on_path.add(root)
        while stack:
            node, todo = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
                continue
            nxt = todo.pop()
            if nxt in on_path:
                return [*path[path.index(nxt):], nxt]
            if nxt not in done:
                stack.append((nxt, sorted(graph.get(nxt, ()))))
                path.append(nxt)
                on_path.add(nxt)
    return None


def test_imports_inside_functions_and_relative_imports_are_seen() -> None:
    """The parser misses no kind of import (else the checks below could not fail)."""
    source = (
        "import euchre.cards\n"
        "from euchre.deal import Deal\n"
        "from euchre import solver, Rules\n"
        "from . import basic\n"
        "def f():\n"
        "    from euchre.bots import make_bot\n"
        "    if True:\n"
        "        import euchre.jobs.bench as b\n"
    )
    known = {"euchre", "euchre.cards", "euchre.deal", "euchre.solver", "euchre.bots",
             "euchre.bots.basic", "euchre.jobs.bench"}
    assert imported(source, "euchre.bots.expert", False, known) == known


def test_every_module_has_a_layer() -> None:
    """A new module must be placed in a layer here before it can be checked."""
    unplaced = [m for m in package_modules() if layer(m) is None]
    assert unplaced == []


def test_the_package_root_holds_the_engine_solver_and_worlds_alone() -> None:
    """A batch job or an adapter is a module of its own package, never one beside
    ``cards`` and ``deal``."""
    root = {name for name in package_modules() if name.count(".") <= 1}
    subpackages = {"euchre.bots", "euchre.puzzles", "euchre.jobs", *ADAPTERS}
    assert sorted(root - ENGINE - SOLVER - subpackages) == []


def test_imports_go_to_the_same_layer_or_below() -> None:
    """The engine imports only the engine, the solver the engine and itself, the bots
    nothing above themselves, the jobs nothing of the terminal, the server or the
    environments; only the adapters may import anything."""
    upward = []
    for module, deps in sorted(import_graph().items()):
        own = layer(module)
        assert own is not None
        for dep in sorted(deps):
            theirs = layer(dep)
            assert theirs is not None, f"{module} imports {dep}, which is not a module here"
            if theirs > own:
                upward.append(f"{module} ({LAYER_NAMES[own]}) imports {dep} "
                              f"({LAYER_NAMES[theirs]})")
    assert upward == []


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for dep in graph.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def test_the_server_imports_nothing_of_the_terminal() -> None:
    """Issue 31, item 4: the web server words a refusal with :mod:`euchre.wording`, in
    each player's language, never with the terminal's words and its process-wide
    language.  No module of ``euchre.server`` reaches ``euchre.cli``, directly or through
    another, but ``python -m euchre.server`` (``__main__``), which is the ``euchre serve``
    command itself and reads its command line as the terminal does."""
    graph = import_graph()
    borrowed = sorted(f"{module} reaches {dep}"
                      for module in graph
                      if module.startswith("euchre.server") and module != "euchre.server.__main__"
                      for dep in reachable(graph, module)
                      if dep == "euchre.cli" or dep.startswith("euchre.cli."))
    assert borrowed == []


def test_reachable_follows_imports_through_other_modules() -> None:
    """The check above could fail: an import two steps away is seen."""
    graph = {"euchre.server.table": {"euchre.wording"}, "euchre.wording": {"euchre.cli.lang"},
             "euchre.cli.lang": set()}
    assert reachable(graph, "euchre.server.table") == {"euchre.wording", "euchre.cli.lang"}


def test_the_package_has_no_import_cycle() -> None:
    """No module imports itself back at run time, through any others (a part that names
    its owner for the type checker alone is no cycle: :mod:`euchre.server.talk`'s `Table`)."""
    cycle = find_cycle(import_graph(runtime_only=True))
    assert cycle is None, " -> ".join(cycle or ())


@pytest.mark.parametrize("graph, has_cycle", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, False),
    ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, False),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, True),
    ({"a": {"b"}, "b": {"b"}}, True),
])
def test_find_cycle_finds_exactly_the_cycles(graph: dict[str, set[str]],
                                             has_cycle: bool) -> None:
    cycle = find_cycle(graph)
    assert (cycle is not None) == has_cycle
    if cycle is not None:
        assert cycle[0] == cycle[-1]
        assert all(b in graph[a] for a, b in itertools.pairwise(cycle))
