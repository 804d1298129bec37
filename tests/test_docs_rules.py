"""The players' rules page in every language (issue 14): ``docs/rules.md`` and its French,
German and Danish versions have the same sections, tables, cards, moves and options, link to
one another, and point to nothing a player does not have."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from euchre.cli.lang import use
from euchre.cli.prompt import readings, suit_of
from euchre.deal import Phase

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = {"en": "rules.md", "fr": "rules.fr.md", "de": "rules.de.md", "da": "rules.da.md"}
"""Each language's rules page, in the order of the line of links atop every page."""
NAMES = {"en": "English", "fr": "Français", "de": "Deutsch", "da": "Dansk"}
TRANSLATIONS = [lang for lang in PAGES if lang != "en"]

CODE_SPAN = re.compile(r"`([^`\n]+)`")
CARD = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9TJQKA])[CDHS]|JK)(?![A-Za-z0-9])")
"""A card in the notation players type: rank and suit (``9C``, ``TD``, ``10D``) or ``JK``."""
LETTERS = {"en": {}, "fr": {"R": "K", "D": "Q", "V": "J"}, "de": {"D": "Q", "B": "J"},
           "da": {"E": "A", "D": "Q", "Kn": "J"}}
"""The letters the terminal shows on the face of a card in each language (the glossary's), for
the rank one types: French ``VS`` is ``JS``."""


def shown_card(lang: str) -> re.Pattern[str]:
    """A card as the terminal shows it in ``lang``: the notation, or its rank in the
    language's letters."""
    ranks = "|".join(["10", "[2-9TJQKA]", *LETTERS[lang]])
    return re.compile(rf"(?<![A-Za-z0-9])(?:({ranks})([CDHS])|JK)(?![A-Za-z0-9])")


SUIT_WORDS = {"en": [], "fr": ["trèfle", "carreau", "cœur", "coeur", "pique"],
              "de": ["Kreuz", "Karo", "Herz", "Pik"], "da": ["klør", "ruder", "hjerter", "spar"]}
"""The suits' names a player may type in each language (``trump cœur``)."""


def local_notation(lang: str) -> re.Pattern[str]:
    """What a translation may quote beyond the English page: a rank letter of the notation or
    of the language, alone or with a suit (``T``, ``V``, ``VH``, ``Kn♥``), to tell players what
    the letters they type and the letters they see stand for; and a suit named in the
    language, alone or after ``trump`` (``trump Herz``)."""
    ranks = "|".join(["10", "[2-9TJQKA]", *LETTERS[lang]])
    words = "|".join(SUIT_WORDS[lang]) or "(?!)"
    return re.compile(rf"(?:{ranks})[CDHS♣♦♥♠]?|(?:trump )?(?:{words})")


def names_a_suit(lang: str, span: str) -> bool:
    """Whether ``span`` names a suit, alone or after ``trump``, as the terminal reads it in
    ``lang`` (``cœur``, ``trump coeur``, ``trump Herz``)."""
    use(lang)
    return suit_of(span.removeprefix("trump ")) is not None


def reads_as_a_move(lang: str, span: str) -> bool:
    """Whether the terminal reads ``span`` as a move or a command in ``lang``, at some
    moment of a deal (issue 30: ``passe``, ``atout cœur seul``, ``écarte 9T``, ``Tipp``)."""
    return any(readings(span, phase, lang) for phase in Phase)


@dataclass
class Section:
    """One heading and what follows it up to the next heading (the preamble has level 0)."""

    level: int
    title: str
    tables: list[tuple[int, int]] = field(default_factory=list)
    """(columns, rows) of each table, header row included."""
    spans: Counter[str] = field(default_factory=Counter)
    """The inline code spans, verbatim."""
    cards: Counter[str] = field(default_factory=Counter)
    """Cards in the notation, in code spans and in code blocks."""
    commands: list[str] = field(default_factory=list)
    """The command part (before the comment) of every line of a shell code block."""
    blocks: int = 0


def sections(text: str, lang: str = "en") -> list[Section]:
    """Split a Markdown page in ``lang`` into its sections, outside code blocks."""
    found = [Section(0, "")]
    shown = shown_card(lang)
    fence: str | None = None
    table_rows = 0
    table_columns = 0

    def end_table() -> None:
        nonlocal table_rows
        if table_rows:
            found[-1].tables.append((table_columns, table_rows))
        table_rows = 0

    for line in text.splitlines():
        section = found[-1]
        if fence is not None:
            if line.startswith("```"):
                fence = None
                continue
            for match in shown.finditer(line):
                rank, suit = match.groups()
                section.cards[LETTERS[lang].get(rank, rank) + suit if rank else "JK"] += 1
            if fence == "sh":
                section.commands.append(line.split("  #")[0].rstrip())
            continue
        if line.startswith("```"):
            end_table()
            fence = line[3:].strip()
            section.blocks += 1
            continue
        if line.startswith("|"):
            if not table_rows:
                table_columns = line.strip().strip("|").count("|") + 1
            if not re.fullmatch(r"\|(?:-+\|)+", line.strip()):
                table_rows += 1
            assert line.strip().strip("|").count("|") + 1 == table_columns, line
        else:
            end_table()
        heading = re.match(r"(#+) (.+)", line)
        if heading:
            found.append(Section(len(heading.group(1)), heading.group(2)))
            continue
        for span in CODE_SPAN.findall(line):
            section.spans[span] += 1
            section.cards.update(CARD.findall(span))
    end_table()
    assert fence is None, "a code block is not closed"
    return found


def page(lang: str) -> str:
    return (DOCS / PAGES[lang]).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def english() -> list[Section]:
    return sections(page("en"))


def test_the_parser_sees_the_english_page(english: list[Section]) -> None:
    """The parser finds what is on the English page, so the comparisons below mean something."""
    assert [s.title for s in english[:3]] == ["", "How to play euchre", "The game in a minute"]
    options = next(s for s in english if s.title == "Every option")
    assert options.tables == [(3, 11)]
    assert options.spans["--to N"] == 1
    assert sum(s.cards["JD"] for s in english) == 4
    assert sum(s.blocks for s in english) == 2
    assert "euchre replay game.json --seat 0" in english[-1].commands


@pytest.mark.parametrize("lang", PAGES)
def test_every_page_starts_with_links_to_the_others(lang: str) -> None:
    first = page(lang).splitlines()[0]
    assert first == " · ".join(
        f"**{NAMES[other]}**" if other == lang else f"[{NAMES[other]}]({PAGES[other]})"
        for other in PAGES)
    for target in re.findall(r"\]\(([^)]+)\)", first):
        assert (DOCS / target).is_file(), target


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_translation_has_the_same_headings(lang: str, english: list[Section]) -> None:
    translated = sections(page(lang), lang)
    assert [s.level for s in translated] == [s.level for s in english]
    for ours, theirs in zip(translated[1:], english[1:], strict=True):
        assert ours.title != theirs.title, f"{lang}: {ours.title!r} is not translated"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_translation_has_the_same_tables_and_code_blocks(
        lang: str, english: list[Section]) -> None:
    for ours, theirs in zip(sections(page(lang), lang), english, strict=True):
        assert ours.tables == theirs.tables, f"{lang}, {ours.title}"
        assert ours.blocks == theirs.blocks, f"{lang}, {ours.title}"
        assert ours.commands == theirs.commands, f"{lang}, {ours.title}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_translation_shows_the_same_cards_moves_and_options(
        lang: str, english: list[Section]) -> None:
    """Card notation, moves, options and commands stay as typed: every code span of the English
    section is in the translated one, and the translation adds only rank letters (of the
    notation or of its language), alone or with a suit, and the suit names of its language
    that the terminal reads (``Herz``, ``trump Herz``), and the moves typed in its words
    (``passe``); the cards the terminal shows in code
    blocks are the same once its letters are read as the notation."""
    for ours, theirs in zip(sections(page(lang), lang), english, strict=True):
        assert ours.cards == theirs.cards, f"{lang}, {ours.title}"
        assert not theirs.spans - ours.spans, f"{lang}, {ours.title}"
        extra = ours.spans - theirs.spans
        letters = local_notation(lang)
        assert all(letters.fullmatch(span) or names_a_suit(lang, span)
                   or reads_as_a_move(lang, span) for span in extra), \
            f"{lang}, {ours.title}: {extra}"


@pytest.mark.parametrize("lang", PAGES)
def test_a_page_points_to_nothing_the_player_lacks(lang: str) -> None:
    text = page(lang)
    assert "../shared" not in text
    assert not re.search(r"seeds|/work/|RULES\.md|RECORDS\.md", text)


def test_the_readme_links_every_rules_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in PAGES.values():
        assert f"(docs/{name})" in readme, name
