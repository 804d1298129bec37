"""The share of the package's public definitions whose docstring has a doctest.

Run ``python benchmarks/doctest_share.py [--by-module] [--json] [PATH ...]`` (default:
``euchre/``).  A public definition is a function, a class, or a method or property of a
public class, at any depth of classes but not inside a function, whose name does not
start with ``_``, in a module whose name does not start with ``_`` (``__init__`` and
``__main__`` count).  It has a doctest when its own docstring holds a ``>>>`` line.
Module docstrings are counted apart: they teach too, but are not definitions.
(PokerKit, the model issue 24 names, has doctests on 38% of its public definitions.)
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Share:
    """Public definitions, those with a doctest, and the modules whose docstring has one."""

    definitions: int = 0
    with_doctest: int = 0
    modules: int = 0
    modules_with_doctest: int = 0
    missing: list[str] = field(default_factory=list)
    """The qualified names of the public definitions without a doctest."""

    @property
    def percent(self) -> float:
        """The share of definitions with a doctest, in percent."""
        return 100.0 * self.with_doctest / self.definitions if self.definitions else 0.0

    def add(self, other: Share) -> None:
        """Count ``other``'s definitions and modules too."""
        self.definitions += other.definitions
        self.with_doctest += other.with_doctest
        self.modules += other.modules
        self.modules_with_doctest += other.modules_with_doctest
        self.missing += other.missing


def has_doctest(node: ast.AST) -> bool:
    """Whether a module's, class's or function's own docstring holds a ``>>>`` line."""
    assert isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    doc = ast.get_docstring(node, clean=True) or ""
    return any(line.lstrip().startswith(">>>") for line in doc.splitlines())


def share(source: str) -> Share:
    """Count the public definitions of one module's source.

    >>> s = share('''
    ... def shown():
    ...     \"\"\"Doubles.
    ...
    ...     >>> 2 * 2
    ...     4
    ...     \"\"\"
    ... def _hidden(): pass
    ... class Card:
    ...     def rank(self): pass
    ...     def _cache(self): pass
    ...     def __repr__(self): return ''
    ... ''')
    >>> s.definitions, s.with_doctest, s.missing
    (3, 1, ['Card', 'Card.rank'])
    >>> f"{s.percent:.0f}%"
    '33%'
    """
    tree = ast.parse(source)
    result = Share(modules=1, modules_with_doctest=int(has_doctest(tree)))

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if node.name.startswith("_"):
                continue
            result.definitions += 1
            if has_doctest(node):
                result.with_doctest += 1
            else:
                result.missing.append(prefix + node.name)
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return result


def modules(paths: list[Path]) -> list[Path]:
    """The public modules under ``paths`` (files, or folders searched recursively)."""
    found: list[Path] = []
    for path in paths:
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            if file.stem.startswith("_") and file.stem not in ("__init__", "__main__"):
                continue
            found.append(file)
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure and print the share, in total and, with ``--by-module``, per module."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("paths", nargs="*", type=Path, default=[ROOT / "euchre"])
    parser.add_argument("--by-module", action="store_true", help="a line per module")
    parser.add_argument("--missing", action="store_true", help="name those without one")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    total = Share()
    rows = []
    for file in modules(args.paths):
        one = share(file.read_text(encoding="utf-8"))
        total.add(one)
        name = str(file.relative_to(ROOT)) if file.is_relative_to(ROOT) else str(file)
        rows.append((name, one))
    if args.json:
        print(
            json.dumps(
                {
                    "definitions": total.definitions,
                    "with_doctest": total.with_doctest,
                    "percent": round(total.percent, 1),
                    "modules": total.modules,
                    "modules_with_doctest": total.modules_with_doctest,
                    "by_module": {name: [one.with_doctest, one.definitions] for name, one in rows},
                }
            )
        )
        return 0
    if args.by_module:
        for name, one in rows:
            print(f"{name:<40} {one.with_doctest:4} / {one.definitions:4}  {one.percent:5.1f}%")
            if args.missing:
                print("".join(f"    {m}\n" for m in one.missing), end="")
    print(
        f"public definitions with a doctest: {total.with_doctest} of {total.definitions} "
        f"({total.percent:.1f}%); module docstrings with one: {total.modules_with_doctest} "
        f"of {total.modules}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
