"""The web app speaks the player's language: the page's catalog by ``Accept-Language`` or
by choice, every error code the server sends worded by the page in every language, every
word of the page's scripts in the catalogs, and the rules and help page in each language:
how to play at this site, then each variant's rules, the one asked for open."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_javascript
from fastapi.testclient import TestClient

from euchre.i18n import LANGUAGES, catalog_json
from euchre.rules import OPTIONS
from euchre.server.app import create_app
from euchre.server.protocol import ERROR_CODES
from euchre.server.rulespage import HELP, HOW_TO, VARIANT_SECTIONS, anchors

SERVER = Path(__file__).resolve().parents[2] / "euchre" / "server"
STATIC = SERVER / "static"

# every way the server names an error code in its source
_CODE_SITES = [
    r'_error\(\s*"(\w+)"', r'Refusal\(\s*\d+,\s*"(\w+)"', r'LimitError\(\s*"(\w+)"',
    r'_refuse\(\s*websocket,\s*"(\w+)"', r'_deny\(\s*websocket,\s*"(\w+)"',
    r'"code":\s*"(\w+)"', r'\.shut\(\s*"(\w+)"', r'\.end\(\s*"(\w+)"', r'TableError\(\s*"(\w+)"',
    r'LimitError\(\s*\n\s*"(\w+)"', r'NightError\(\s*\d+,\s*"(\w+)"',
]


def _server_codes() -> set[str]:
    codes = set()
    for path in SERVER.rglob("*.py"):
        if path.name == "views.py":  # the deal summary's codes, not errors
            continue
        text = path.read_text(encoding="utf-8")
        for site in _CODE_SITES:
            codes.update(re.findall(site, text))
    return codes


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    # a loopback name: the app answers no other host it was not told of
    return TestClient(create_app(tmp_path / "i18n.sqlite3"), base_url="http://localhost")


def test_every_error_code_the_server_sends_is_listed_and_worded_by_the_page() -> None:
    sent = _server_codes()
    assert {"illegal", "not_your_turn", "no_table", "rate_limited", "bad_rules"} <= sent
    assert sent <= set(ERROR_CODES), sorted(sent - set(ERROR_CODES))
    script = (STATIC / "messages.js").read_text(encoding="utf-8")
    block = script.split("export const ERRORS = {", 1)[1].split("\n};", 1)[0]
    worded = set(re.findall(r"^  (\w+): ", block, re.MULTILINE))
    assert worded == set(ERROR_CODES)


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_error_wording_is_translated(lang: str) -> None:
    script = (STATIC / "messages.js").read_text(encoding="utf-8")
    wordings = re.findall(r'_\("((?:[^"\\]|\\.)*)"\)', script)
    catalog = catalog_json(lang)["messages"]
    assert isinstance(catalog, dict)
    untranslated = [w for w in wordings if not catalog.get(w)]
    assert len(wordings) > 40 and untranslated == []


def test_every_marked_word_of_the_scripts_reaches_the_catalogs() -> None:
    """Babel's extractor reads ``${…}`` in template strings only up to a quote or a brace
    of the text around it: every ``_("…")`` written must be one it finds."""
    calls = re.compile(r'\b(_|ngettext|pgettext)\(\s*"((?:[^"\\]|\\.)*)"'
                       r'(?:\s*,\s*"((?:[^"\\]|\\.)*)")?')
    lost = []
    for path in sorted(STATIC.glob("*.js")):
        found: set[str] = set()
        with path.open("rb") as f:
            for _line, _func, message, _comments in extract_javascript(
                    f, DEFAULT_KEYWORDS, [], {"parse_template_string": True}):
                found.update([message] if isinstance(message, str) else
                             [m for m in message if m])
        text = path.read_text(encoding="utf-8")
        for m in calls.finditer(text):
            wanted = m[3] if m[1] == "pgettext" else m[2]
            if wanted not in found:
                lost.append(f"{path.name}:{text[:m.start()].count(chr(10)) + 1}: {wanted}")
    assert lost == []


@pytest.mark.parametrize(("header", "lang", "word"), [
    ("de-DE,de;q=0.9,en;q=0.5", "de", "Neuer Tisch"),
    ("fr-CH, fr;q=0.9", "fr", "Nouvelle table"),
    ("en-GB,da;q=0.8", "en", None),
    ("es, da;q=0.3", "da", "Nyt bord"),
])
def test_the_page_gets_the_catalog_its_browser_asks_for(
        client: TestClient, header: str, lang: str, word: str | None) -> None:
    with client:
        data = client.get("/api/i18n", headers={"Accept-Language": header}).json()
    assert data["lang"] == lang
    assert data["messages"].get("New table") == word


def test_a_chosen_language_wins_over_the_browsers(client: TestClient) -> None:
    with client:
        data = client.get("/api/i18n?lang=da", headers={"Accept-Language": "fr"}).json()
        odd = client.get("/api/i18n?lang=xx", headers={"Accept-Language": "de"}).json()
    assert data["lang"] == "da" and data["plural"] == "(n != 1)"
    assert odd["lang"] == "de"


def test_refusals_carry_a_code_and_parameters(client: TestClient) -> None:
    with client:
        answer = client.get("/api/tables/nope")
        bad = client.post("/api/tables", json={"rules": {"players": 4}, "seats": [
            {"kind": "you"}, {"kind": "you"}, {"kind": "open"}, {"kind": "open"}]})
    assert answer.status_code == 404
    assert answer.json() == {"detail": "no table 'nope'", "code": "no_table",
                             "params": {"table": "nope"}}
    assert bad.status_code == 422 and bad.json()["code"] == "bad_rules"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_is_served_in_each_language(client: TestClient, lang: str) -> None:
    with client:
        page = client.get(f"/rules/{lang}")
    assert page.status_code == 200
    assert '<h1 id="playing-euchre-here">' in page.text and "<table>" in page.text
    assert (HELP / ("help.md" if lang == "en" else f"help.{lang}.md")).is_file()
    assert f'<html lang="{lang}">' in page.text
    for other in LANGUAGES:  # one bar of languages
        assert page.text.count(f'href="/rules/{other}"') == 1
    assert ".md" not in page.text


def _main(page: str) -> str:
    """The words of a rules page, without its tags and its bar of links."""
    return re.sub(r"<[^>]+>", " ", page.split("<main>", 1)[1])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_the_how_to_and_a_section_for_each_variant(
        client: TestClient, lang: str) -> None:
    with client:
        page = client.get(f"/rules/{lang}").text
    ids = _parsed(page).ids
    assert HOW_TO in ids
    assert page.index(f'id="{HOW_TO}"') < page.index('id="variant-2"')  # how to play first
    for players, section in VARIANT_SECTIONS.items():
        assert f'<details class="variant" id="variant-{players}"><summary><h2 id="{section}">' \
            in page
    if lang != "en":  # written in the language, not the English page again
        english = _main(client.get("/rules/en").text)
        assert _main(page) != english and "Creating a table" not in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_variant_asked_for_is_the_one_section_open(client: TestClient, lang: str) -> None:
    with client:
        five = client.get(f"/rules/{lang}?variant=5").text
        plain = client.get(f"/rules/{lang}").text
        odd = client.get(f"/rules/{lang}?variant=nine")
        beyond = client.get(f"/rules/{lang}?variant=6").text
    assert re.findall(r'<details class="variant" id="variant-(\d)" open>', five) == ["5"]
    for page in (plain, odd.text, beyond):  # no variant (or none there is): all closed
        assert odd.status_code == 200
        assert re.findall(r"<details[^>]* open>", page) == []
    # the other languages of the page keep the variant open
    for other in LANGUAGES:
        assert f'href="/rules/{other}?variant=5"' in five


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_rules_page_speaks_of_the_terminal_or_its_flags(client: TestClient, lang: str) -> None:
    with client:
        words = _main(client.get(f"/rules/{lang}").text)
    assert re.findall(r"--\w+", words) == []
    assert re.findall(r"(?i)terminal|json|\bseat \d", words) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_names_the_bot_levels_as_the_lobby_does(
        client: TestClient, lang: str) -> None:
    words = catalog_json(lang, "web")["messages"]
    assert isinstance(words, dict)
    with client:
        page = _main(client.get(f"/rules/{lang}").text)
    for level in ("Beginner", "Casual", "Good", "Expert"):
        assert (words.get(level) or level) in page, level


def test_every_rules_page_has_the_english_headings_levels_in_the_same_order() -> None:
    """Each heading takes the English one's anchor by its place (``/rules/fr#the-pack``):
    the translations must keep the English page's headings, level by level."""
    def levels(path: Path) -> list[int]:
        return [len(line) - len(line.lstrip("#")) for line in
                path.read_text(encoding="utf-8").splitlines() if line.startswith("#")]

    english = levels(HELP / "help.md")
    assert len(english) == len(anchors())
    for lang in LANGUAGES:
        if lang != "en":
            assert levels(HELP / f"help.{lang}.md") == english, lang


class _Links(HTMLParser):
    """The links of a page and the ids of its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))
        if found.get("id"):
            self.ids.add(str(found["id"]))


def _parsed(text: str) -> _Links:
    links = _Links()
    links.feed(text)
    return links


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_link_on_a_rules_page_leads_to_a_page_and_its_section(
        client: TestClient, lang: str) -> None:
    with client:
        page = _parsed(client.get(f"/rules/{lang}").text)
        assert len(page.hrefs) >= len(LANGUAGES) + 1
        for href in page.hrefs:
            url = urlsplit(href)
            assert not url.scheme and url.path.startswith("/"), href
            target = client.get(url.path)
            assert target.status_code == 200, href
            if url.fragment:
                assert url.fragment in _parsed(target.text).ids, href


def test_the_headings_have_the_same_anchors_in_every_language(client: TestClient) -> None:
    """A section has one address in every language (``/rules/fr#the-deal``), and the
    lobby's notes link to sections that exist."""
    linked = {o.section for o in OPTIONS if o.section}
    assert linked == {"the-pack", "choosing-trump-the-bidding", "after-the-bidding",
                      "defending-alone", "four-handed-extras"}
    assert linked <= set(anchors())
    # the four-handed extras lie in the four-handed section: the lobby opens it with them
    assert {o.variants for o in OPTIONS if o.section == "four-handed-extras"} == {(4,)}
    with client:
        for lang in LANGUAGES:
            page = client.get(f"/rules/{lang}?variant=4").text
            assert set(anchors()) <= _parsed(page).ids, lang
            opened = page.split('id="variant-4" open>', 1)[1].split("</details>", 1)[0]
            assert 'id="four-handed-extras"' in opened


def test_the_rules_follow_the_browser_and_refuse_an_unknown_language(
        client: TestClient) -> None:
    with client:
        german = client.get("/rules", headers={"Accept-Language": "de"})
        unknown = client.get("/rules/xx")
    assert german.status_code == 200 and "Zurück zur Lobby" in german.text
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_rules"


def test_a_table_without_a_name_is_named_by_each_page_in_its_language(
        client: TestClient) -> None:
    """The server stores no English name for a table created without one: the page words
    its variant in the reader's language ("Euchre à quatre"), from ``rules.players``."""
    util = (STATIC / "util.js").read_text(encoding="utf-8")
    seats = [{"kind": "you"}, {"kind": "open"}, {"kind": "open"}]
    with client:
        made = client.post("/api/tables", json={"rules": {"players": 3}, "seats": seats})
        named = client.post("/api/tables", json={"name": "Friday", "rules": {"players": 3},
                                                 "seats": seats})
        listed = {t["id"]: t for t in client.get("/api/tables").json()["open"]}
    assert made.status_code == 201 and named.status_code == 201
    assert listed[made.json()["id"]]["name"] == ""
    assert listed[named.json()["id"]]["name"] == "Friday"
    assert '_("Three-handed euchre")' in util
    french = catalog_json("fr", "web")["messages"]
    assert isinstance(french, dict) and french["Four-handed euchre"] == "Euchre à quatre"
