"""The rules and help page for players in the browser, in each language.

The page is written for people playing at this site: first how to play here (tables, seats,
invitation and host links, hints, the turn timer, the keys, the chat), then the rules every
variant shares, then each variant's own.  Its text is Markdown shipped in the package,
``euchre/server/help/help.md`` and its translations ``help.<lang>.md``, which keep the
English page's headings, at the same levels and in the same order: every heading gets the
English heading's anchor (:func:`anchors`), so ``/rules/fr#the-pack`` is the French pack.
A language whose page is not written is shown the English one.

Each variant's section is a ``<details>`` element (``id="variant-N"``), closed unless the
page is asked for that variant (``/rules/en?variant=5``, as the table's rules link does):
the page opens on the how-to and the shared rules, and the reader opens the variant they
play.  The terminal's manual (``docs/rules.md``) is another page, for the terminal.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from euchre.i18n import LANGUAGES, catalog_json

__all__ = ["STYLE_HASH", "VARIANT_SECTIONS", "anchors", "asked_variant", "help_file", "render_help",
           "rules_page", "slug"]

HELP = Path(__file__).parent / "help"
RULES_TITLE = "The rules of the game"
BACK = "Back to the lobby"
"""Words of the page that are the JavaScript's too (``web`` catalog)."""

HOW_TO = "how-to-play-at-this-site"
"""The anchor of the section on playing at this site, the page's first."""
VARIANT_SECTIONS = {
    2: "two-handed-euchre",
    3: "three-handed-cutthroat",
    4: "four-handed-partnership",
    5: "five-handed-euchre-with-a-secret-partner",
}
"""The anchor of each variant's section, by number of players."""

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
details.variant { border: 1px solid #ccd; border-radius: 8px; margin: 1rem 0;
  padding: 0 1rem; background: #fff; }
details.variant[open] { padding-bottom: 0.5rem; }
details.variant > summary { cursor: pointer; padding: 0.6rem 0; }
details.variant > summary > h2 { display: inline; margin: 0; font-size: 1.35rem; }
"""
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(_STYLE.encode()).digest()).decode()
"""The page's one inline ``<style>`` as a Content-Security-Policy source
(:mod:`euchre.server.security`): the policy allows this style and no other."""


def help_file(lang: str) -> Path:
    """The Markdown of the page in ``lang``: ``help.md`` for English, ``help.fr.md`` and
    so on; the English file where the language's is missing."""
    name = "help.md" if lang == "en" else f"help.{lang}.md"
    if (HELP / name).is_file():
        return HELP / name
    if lang != "en":
        return help_file("en")
    raise FileNotFoundError(f"the players' page ({HELP / name}) is not installed")


def slug(title: str) -> str:
    """A heading's anchor: its words in lower case joined by hyphens ("Choosing trump: the
    bidding" is ``choosing-trump-the-bidding``).

    >>> slug("Choosing trump: the bidding")
    'choosing-trump-the-bidding'
    """
    return "-".join(re.findall(r"\w+", re.sub(r"['’]", "", title.lower())))


def asked_variant(text: str | None) -> int | None:
    """The variant a page is asked for (``?variant=5``): 2 to 5 players, else ``None``.

    >>> asked_variant("5"), asked_variant("9"), asked_variant("four"), asked_variant(None)
    (5, None, None, None)
    """
    if text is None or not text.strip().isdigit():
        return None
    number = int(text)
    return number if number in VARIANT_SECTIONS else None


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _headings(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if t.type == "heading_open"]


def _title(tokens: list[Token], opening: Token) -> str:
    return tokens[tokens.index(opening) + 1].content


@functools.cache
def anchors() -> tuple[str, ...]:
    """The anchor of every heading of the page, in order: the English heading's
    :func:`slug`, the same in every language (the pages have the same headings), so
    ``/rules/fr#the-pack`` is the French pack."""
    tokens = _markdown().parse(help_file("en").read_text(encoding="utf-8"))
    found: list[str] = []
    for opening in _headings(tokens):
        base = slug(_title(tokens, opening))
        found.append(base if base not in found else f"{base}-{found.count(base) + 1}")
    return tuple(found)


_BEFORE_PUNCTUATION = re.compile(r" ([:;!?»])|(«) ")


def _french_spacing(tokens: list[Token]) -> None:
    """French puts a space before ``: ; ! ?`` and inside « »: make it one no line break
    separates from its mark (the Markdown keeps plain spaces, easier to edit)."""
    for token in tokens:
        for child in token.children or []:
            if child.type == "text":
                child.content = _BEFORE_PUNCTUATION.sub(
                    lambda m: f"\u00a0{m[1]}" if m[1] else f"{m[2]}\u00a0", child.content)


def render_help(text: str, variant: int | None = None, lang: str = "en") -> str:
    """The Markdown of the page in ``lang`` as HTML: every heading with its
    :func:`anchors` id, and each variant's section a ``<details id="variant-N">`` with its
    heading as the summary, open only for ``variant``."""
    md = _markdown()
    tokens = md.parse(text)
    if lang == "fr":
        _french_spacing(tokens)
    ids = anchors()
    headings = _headings(tokens)
    for i, opening in enumerate(headings):
        own = slug(_title(tokens, opening))
        opening.attrSet("id", ids[i] if len(headings) == len(ids) else own)
    variants = {anchor: n for n, anchor in VARIANT_SECTIONS.items()}

    def render(part: list[Token]) -> str:
        done: str = md.renderer.render(part, md.options, {})
        return done

    starts = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    parts = [render(tokens[:starts[0] if starts else len(tokens)])]
    for start, end in zip(starts, [*starts[1:], len(tokens)], strict=True):
        number = variants.get(str(tokens[start].attrGet("id")))
        if number is None:
            parts.append(render(tokens[start:end]))
            continue
        heading, body = tokens[start:start + 3], tokens[start + 3:end]
        opened = " open" if number == variant else ""
        parts.append(f'<details class="variant" id="variant-{number}"{opened}>'
                     f"<summary>{render(heading).strip()}</summary>\n"
                     f"{render(body)}</details>\n")
    return "".join(parts)


@functools.cache
def rules_page(lang: str, variant: int | None = None) -> str:
    """The page in ``lang`` as a whole HTML document, with one bar of links: back to the
    lobby, and the other languages (for the same variant); ``variant``'s section open.

    >>> page = rules_page("en", 5)
    >>> '<h1 id="playing-euchre-here">' in page and 'lang="en"' in page
    True
    >>> '<details class="variant" id="variant-5" open>' in page
    True
    >>> '<details class="variant" id="variant-4">' in page
    True
    """
    if lang not in LANGUAGES:
        lang = "en"
    source = help_file(lang)
    shown = "en" if source.name == "help.md" else lang
    body = render_help(source.read_text(encoding="utf-8"), variant, shown)
    # the page's words come from the `web` catalog (the JavaScript's messages)
    words = catalog_json(lang, "web")["messages"]
    assert isinstance(words, dict)

    def word(text: str) -> str:
        found = words.get(text)
        return found if isinstance(found, str) and found else text

    names = {"en": "English", "fr": "Français", "de": "Deutsch", "da": "Dansk"}
    query = "" if variant is None else f"?variant={variant}"
    links = " ".join(
        f'<a href="/rules/{code}{query}" lang="{code}"'
        f'{" aria-current=page" if code == lang else ""}>{names[code]}</a>'
        for code in LANGUAGES)
    title = html.escape(word(RULES_TITLE))
    back = html.escape(word(BACK))
    return (f'<!doctype html>\n<html lang="{shown}">\n<head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{_STYLE}</style></head>\n<body>"
            f'<nav><a class="home" href="/">{back}</a>{links}</nav>\n'
            f"<main>{body}</main></body></html>\n")
