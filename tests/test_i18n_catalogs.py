"""The translation catalogs are complete and current: every message marked in the code is
in every language's catalog, translated, with its placeholders kept, and nothing a catalog
holds is gone from the code; the compiled ``.mo`` files are those of the ``.po`` files.

The messages are extracted afresh here with Babel's Python API and the repository's own
configuration (``babel-<domain>.cfg``), exactly as ``make catalogs`` extracts them.  A
failure here is mended by ``make catalogs`` (then translating what is new) and ``make
compile-catalogs``.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from euchre.i18n import DOMAINS, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
CASES = [(domain, lang) for domain in DOMAINS for lang in TRANSLATED]

Key = tuple[str | None, str | tuple[str, ...]]


def key(message_id: object, context: str | None) -> Key:
    """A message as gettext finds it: its context and its id (singular and plural)."""
    if isinstance(message_id, str):
        return context, message_id
    assert isinstance(message_id, (list, tuple))
    return context, tuple(str(part) for part in message_id)


def extract(domain: str, root: Path) -> set[Key]:
    """The messages marked in the files under ``root``, by the domain's configuration."""
    with open(ROOT / f"babel-{domain}.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    return {key(message, context) for _file, _line, message, _comments, context
            in extract_from_dir(str(root), method_map, options_map, keywords=DEFAULT_KEYWORDS)}


@cache
def extracted(domain: str) -> frozenset[Key]:
    """The messages marked in the code today."""
    return frozenset(extract(domain, ROOT))


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def messages(catalog: Catalog) -> dict[Key, Message]:
    return {key(m.id, m.context): m for m in catalog if m.id}


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_template_holds_exactly_the_messages_in_the_code(domain: str) -> None:
    template = set(messages(read(LOCALE_DIR / f"{domain}.pot")))
    code = extracted(domain)
    assert sorted(map(str, code - template)) == [], "new messages: run make catalogs"
    assert sorted(map(str, template - code)) == [], "messages gone: run make catalogs"


@pytest.mark.parametrize("domain, lang", CASES)
def test_every_message_is_translated_in_every_language(domain: str, lang: str) -> None:
    catalog = read(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", lang)
    held = messages(catalog)
    code = extracted(domain)
    assert sorted(map(str, code - set(held))) == [], f"missing in {lang}: run make catalogs"
    assert sorted(map(str, set(held) - code)) == [], f"stale in {lang}: run make catalogs"
    assert not catalog.obsolete, "obsolete entries: run make catalogs"
    untranslated = []
    for k, m in held.items():
        forms = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if m.fuzzy or not all(forms):
            untranslated.append(k)
    assert untranslated == []


@pytest.mark.parametrize("domain, lang", CASES)
def test_each_catalog_checks_and_has_its_languages_plural_forms(domain: str,
                                                                lang: str) -> None:
    """Placeholders kept (Babel's checks), the header not fuzzy, and the language's plural
    forms for every count the game shows (CLDR's rule, as ``pybabel init`` writes it).

    Babel 2.19 gives French a third form for exact millions ("un million de points"); no
    count in the game comes near a million, so the catalogs keep the two forms a count
    below it needs, and the test compares the rules on those counts rather than the headers.
    """
    catalog = read(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", lang)
    problems = [(m.id, errors) for m, errors in catalog.check()]
    assert problems == []
    assert not catalog.fuzzy
    assert str(catalog.locale) == lang
    plural = get_plural(Locale.parse(lang))
    ours, cldr = gettext.c2py(catalog.plural_expr), gettext.c2py(plural.plural_expr)
    counts = range(0, 100_000)
    # the same counts share a form under both rules, and our catalog has no unused form
    pairs = {(ours(n), cldr(n)) for n in counts}
    assert len(pairs) == len({a for a, _ in pairs}) == len({b for _, b in pairs})
    assert {a for a, _ in pairs} == set(range(catalog.num_plurals))
    for m in catalog:
        if m.id and m.pluralizable:
            assert isinstance(m.string, (list, tuple)), m.id
            assert len(m.string) == catalog.num_plurals, m.id


@pytest.mark.parametrize("domain, lang", CASES)
def test_the_compiled_catalog_is_the_current_one(domain: str, lang: str) -> None:
    """``make`` (or the package build) compiled the ``.po`` as it is now."""
    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    mo = po.with_suffix(".mo")
    assert mo.exists(), "not compiled: run make compile-catalogs"
    fresh = io.BytesIO()
    write_mo(fresh, read(po, lang))
    assert mo.read_bytes() == fresh.getvalue(), "out of date: run make compile-catalogs"


def test_the_extraction_sees_every_kind_of_marked_message(tmp_path: Path) -> None:
    """The comparison above cannot pass blind: gettext, ngettext and pgettext calls are
    all extracted, in Python and in JavaScript, with the repository's configurations."""
    (tmp_path / "euchre" / "server" / "static").mkdir(parents=True)
    (tmp_path / "euchre" / "m.py").write_text(
        'print(_("a"), ngettext("{n} b", "{n} bs", 2), pgettext("c", "d"), N_("e"))\n')
    (tmp_path / "euchre" / "server" / "static" / "m.js").write_text(
        'show(_("f"), ngettext("{n} g", "{n} gs", 2), pgettext("h", "i"));\n')
    found = {domain: extract(domain, tmp_path) for domain in DOMAINS}
    assert found["euchre"] == {(None, "a"), (None, ("{n} b", "{n} bs")), ("c", "d"),
                               (None, "e")}
    assert found["web"] == {(None, "f"), (None, ("{n} g", "{n} gs")), ("h", "i")}
