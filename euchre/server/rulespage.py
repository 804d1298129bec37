"""The rules of the game for players (``docs/rules.md`` and its translations), as pages.

The package carries the rules as ``euchre/server/rules/rules*.md`` (copied there from
``docs/`` by the package build, ``setup.py``); run from the repository (an editable
install), the pages are read from ``docs/`` itself, so an edit shows at once.  A
language whose page is not written yet is shown the English one.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from euchre.i18n import LANGUAGES, catalog_json

__all__ = ["anchors", "render_rules", "rules_file", "rules_page", "slug"]

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


def slug(title: str) -> str:
    """A heading's anchor: its words in lower case joined by hyphens ("Choosing trump: the
    bidding" is ``choosing-trump-the-bidding``).

    >>> slug("Choosing trump: the bidding")
    'choosing-trump-the-bidding'
    """
    return "-".join(re.findall(r"\w+", re.sub(r"['’]", "", title.lower())))


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _headings(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.type == "heading_open"]


def _title(tokens: list[Token], opening: Token) -> str:
    return tokens[tokens.index(opening) + 1].content


@functools.cache
def anchors() -> tuple[str, ...]:
    """The anchor of every heading of the rules, in order: the English heading's
    :func:`slug`, the same in every language (the pages have the same sections, as
    ``tests/test_docs_rules.py`` holds), so ``/rules/fr#the-deal`` is the French deal."""
    tokens = _markdown().parse(rules_file("en").read_text(encoding="utf-8"))
    found: list[str] = []
    for opening in _headings(tokens):
        base = slug(_title(tokens, opening))
        found.append(base if base not in found else f"{base}-{found.count(base) + 1}")
    return tuple(found)


def _rules_href(href: str) -> str | None:
    """``/rules/fr#the-deal`` for a link to another rules page (``rules.fr.md#the-deal``),
    else ``None``."""
    match = _RULES_LINK.fullmatch(href)
    if match is None:
        return None
    lang, fragment = match.group(1) or "en", match.group(2) or ""
    return f"/rules/{lang}{fragment}"


_RULES_LINK = re.compile(r"(?:\./)?rules(?:\.(\w\w))?\.md(#[\w-]*)?")


def _is_language_line(line: Token) -> bool:
    """The Markdown line of links to the other languages that opens every rules page
    (the page's own bar replaces it)."""
    links = [c.attrGet("href") for c in line.children or [] if c.type == "link_open"]
    return bool(links) and all(isinstance(h, str) and _RULES_LINK.fullmatch(h)
                               for h in links)


def render_rules(text: str) -> str:
    """The Markdown of a rules page as HTML: without its line of links to the other
    languages, every heading with its :func:`anchors` id, and every link to another
    rules page turned into that page's address (``/rules/xx``)."""
    md = _markdown()
    tokens = md.parse(text)
    if (len(tokens) > 2 and tokens[0].type == "paragraph_open"
            and _is_language_line(tokens[1])):
        tokens = tokens[3:]
    ids = anchors()
    headings = _headings(tokens)
    for i, opening in enumerate(headings):
        own = slug(_title(tokens, opening))
        opening.attrSet("id", ids[i] if len(headings) == len(ids) else own)
    for token in tokens:
        for child in token.children or []:
            href = child.attrGet("href") if child.type == "link_open" else None
            if isinstance(href, str) and (local := _rules_href(href)) is not None:
                child.attrSet("href", local)
    html_text: str = md.renderer.render(tokens, md.options, {})
    return html_text


@functools.cache
def rules_page(lang: str) -> str:
    """The rules in ``lang`` as a whole HTML page, with one bar of links: back to the
    lobby, and the other languages.

    >>> page = rules_page("en")
    >>> '<h1 id="how-to-play-euchre">' in page and 'lang="en"' in page
    True
    >>> "rules.fr.md" in page
    False
    """
    if lang not in LANGUAGES:
        lang = "en"
    source = rules_file(lang)
    shown = "en" if source.name == "rules.md" else lang
    body = render_rules(source.read_text(encoding="utf-8"))
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
