"""The package build's step beyond pyproject.toml: compile the translation catalogs.

The ``.po`` files are in the repository, the compiled ``.mo`` files never are; building
the package (a wheel, or an editable install) compiles each ``euchre/locale/<lang>/
LC_MESSAGES/<domain>.po`` into the ``.mo`` beside it before the package data is
collected, so the wheel ships them (Babel is in ``[build-system] requires``).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path(__file__).resolve().parent / "euchre" / "locale"


def compile_catalogs(locale: Path = LOCALE) -> list[Path]:
    """Compile every catalog under ``locale`` whose ``.mo`` is missing or older than its
    ``.po``; a catalog with errors (a placeholder lost in translation) stops the build."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    built = []
    for po in sorted(locale.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem)
        errors = [f"{po}: {message.id!r}: {error}"
                  for message, found in catalog.check() for error in found]
        if errors:
            raise SystemExit("\n".join(errors))
        with mo.open("wb") as f:
            write_mo(f, catalog)
        built.append(mo)
    return built


class BuildPy(build_py):
    """``build_py`` that compiles the catalogs first."""

    def run(self) -> None:
        compile_catalogs()
        super().run()


setup(cmdclass={"build_py": BuildPy})
