"""Every "RULES §N" the code, the tests and the docs cite names a section of the players'
rules page, ``docs/rules.md``, and of each translation (issue 24, part 4).

The page's numbered headings (``## 3. The deal``, ``### 6.3 Five players: calling a
partner``) are the sections; a citation ``RULES §6.3``, a list ``RULES §1, §3`` or a bare
``(§10)`` in a docstring must name one of them.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = {"en": "rules.md", "fr": "rules.fr.md", "de": "rules.de.md", "da": "rules.da.md"}
CITING = [ROOT / "euchre", ROOT / "tests", ROOT / "docs", ROOT / "README.md"]
"""Where citations are looked for (folders are searched for the suffixes below)."""
SUFFIXES = {".py", ".pyx", ".js", ".html", ".md", ".po", ".pot"}

NUMBERED = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? \S", re.MULTILINE)
"""A numbered heading: ``## 3. The deal``, ``### 6.3 Five players: calling a partner``."""
CITED = re.compile(r"§(\d+(?:\.\d+)?)")
"""One section number after a ``§``; the trailing full stop of a sentence is not part of it."""


def numbered_sections(text: str) -> list[str]:
    """The section numbers of a Markdown page's numbered headings, in order.

    >>> numbered_sections("# Title\\n## 1. The pack\\n## 6. After\\n### 6.1 First\\n## Other")
    ['1', '6', '6.1']
    """
    return [number for _, number in NUMBERED.findall(text)]


def citations() -> Counter[str]:
    """Every section number cited with ``§``, with where: ``"8"`` -> count."""
    found: Counter[str] = Counter()
    for place in CITING:
        files = [place] if place.is_file() else sorted(place.rglob("*"))
        for path in files:
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            found.update(CITED.findall(path.read_text(encoding="utf-8", errors="replace")))
    return found


def page(lang: str) -> str:
    return (ROOT / "docs" / PAGES[lang]).read_text(encoding="utf-8")


def test_the_code_cites_the_rules_by_section() -> None:
    """The search sees the citations, so the test below means something."""
    cited = citations()
    assert cited["4"] > 20 and cited["6.3"] > 5 and cited["12"] > 20


@pytest.mark.parametrize("lang", PAGES)
def test_every_cited_section_is_on_the_rules_page(lang: str) -> None:
    """RULES §1..§12: each number cited in the code, the tests and the docs is a numbered
    heading of the page (and so has an anchor)."""
    sections = set(numbered_sections(page(lang)))
    missing = sorted(set(citations()) - sections, key=lambda n: [int(x) for x in n.split(".")])
    assert not missing, f"{PAGES[lang]} has no section {', '.join(missing)}"


def test_the_english_page_is_numbered_like_the_specification() -> None:
    """Sections 1 to 12 in order, §6's steps 6.1 to 6.5 under section 6."""
    expected = (
        [str(n) for n in range(1, 7)]
        + [f"6.{n}" for n in range(1, 6)]
        + [str(n) for n in range(7, 13)]
    )
    assert numbered_sections(page("en")) == expected


@pytest.mark.parametrize("lang", [lang for lang in PAGES if lang != "en"])
def test_a_translation_has_the_same_numbered_sections(lang: str) -> None:
    assert numbered_sections(page(lang)) == numbered_sections(page("en"))


@pytest.mark.parametrize("lang", PAGES)
def test_the_page_says_what_a_citation_means(lang: str) -> None:
    """The top of the page (before its first section) tells that "RULES §N" is section N."""
    top = page(lang).split("\n## ", 1)[0]
    assert "RULES §8" in top and "RULES §6.3" in top
