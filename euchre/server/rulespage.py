"""The rules of the game for players (``docs/rules.md`` and its translations), as pages.

The package carries the rules as ``euchre/server/rules/rules*.md`` (copied there from
``docs/`` by the package build, ``setup.py``); run from the repository (an editable
install), the pages are read from ``docs/`` itself, so an edit shows at once.  A
language whose page is not written yet is shown the English one.
"""

from __future__ import annotations

import functools
import html
from pathlib import Path

from markdown_it import MarkdownIt

from euchre.i18n import LANGUAGES, catalog_json

__all__ = ["rules_file", "rules_page"]

PACKAGED = Path(__file__).parent / "rules"
REPOSITORY = Path(__file__).resolve().parents[2] / "docs"
RULES_TITLE = "The rules of the game"
BACK = "Back to the lobby"
"""Words of the page that are the JavaScript's too (``web`` catalog)."""

_STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 46rem;
  padding: 0.5rem 1rem 3rem; color: #1d2b22; background: #fbfaf6; }
nav { display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: baseline;
  padding: 0.5rem 0; border-bottom: 1px solid #ccd; }
nav .home { font-weight: bold; margin-right: auto; }
a { color: #14532d; }
a[aria-current] { font-weight: bold; text-decoration: none; color: inherit; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid #ccd; padding: 0.2rem 0.5rem; text-align: left; }
code { background: #eef0ea; padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
pre { overflow-x: auto; }
h1, h2, h3 { line-height: 1.2; hyphens: auto; }
"""


def rules_file(lang: str) -> Path:
    """The Markdown of the rules in ``lang``: ``rules.md`` for English, ``rules.fr.md``
    and so on; the English file where the language's is missing."""
    name = "rules.md" if lang == "en" else f"rules.{lang}.md"
    for folder in (REPOSITORY, PACKAGED):
        if (folder / name).is_file():
            return folder / name
    if lang != "en":
        return rules_file("en")
    raise FileNotFoundError("the rules (docs/rules.md) are not installed")


@functools.cache
def rules_page(lang: str) -> str:
    """The rules in ``lang`` as a whole HTML page, with links to the other languages.

    >>> "<h1>" in rules_page("en") and 'lang="en"' in rules_page("en")
    True
    """
    if lang not in LANGUAGES:
        lang = "en"
    source = rules_file(lang)
    shown = "en" if source.name == "rules.md" else lang
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(
        source.read_text(encoding="utf-8"))
    # the page's words come from the `web` catalog (the JavaScript's messages)
    words = catalog_json(lang, "web")["messages"]
    assert isinstance(words, dict)

    def word(text: str) -> str:
        found = words.get(text)
        return found if isinstance(found, str) and found else text

    names = {"en": "English", "fr": "Français", "de": "Deutsch", "da": "Dansk"}
    links = " ".join(
        f'<a href="/rules/{code}" lang="{code}"'
        f'{" aria-current=page" if code == lang else ""}>{names[code]}</a>'
        for code in LANGUAGES)
    title = html.escape(word(RULES_TITLE))
    back = html.escape(word(BACK))
    return (f'<!doctype html>\n<html lang="{shown}">\n<head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{_STYLE}</style></head>\n<body>"
            f'<nav><a class="home" href="/">{back}</a>{links}</nav>\n'
            f"<main>{body}</main></body></html>\n")
