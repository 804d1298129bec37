"""The web app speaks the player's language: the page's catalog by ``Accept-Language`` or
by choice, every error code the server sends worded by the page in every language, every
word of the page's scripts in the catalogs, and the rules page in each language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_javascript
from fastapi.testclient import TestClient

from euchre.i18n import LANGUAGES, catalog_json
from euchre.server.app import create_app
from euchre.server.protocol import ERROR_CODES

SERVER = Path(__file__).resolve().parents[2] / "euchre" / "server"
STATIC = SERVER / "static"

# every way the server names an error code in its source
_CODE_SITES = [
    r'_error\(\s*"(\w+)"', r'Refusal\(\s*\d+,\s*"(\w+)"', r'LimitError\(\s*"(\w+)"',
    r'_refuse\(\s*websocket,\s*"(\w+)"', r'_deny\(\s*websocket,\s*"(\w+)"',
    r'"code":\s*"(\w+)"', r'\.shut\(\s*"(\w+)"', r'\.end\(\s*"(\w+)"', r'TableError\(\s*"(\w+)"',
    r'LimitError\(\s*\n\s*"(\w+)"',
]


def _server_codes() -> set[str]:
    codes = set()
    for path in SERVER.glob("*.py"):
        if path.name == "views.py":  # the deal summary's codes, not errors
            continue
        text = path.read_text(encoding="utf-8")
        for site in _CODE_SITES:
            codes.update(re.findall(site, text))
    return codes


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "i18n.sqlite3"))


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
    assert "<h1>" in page.text and "<table>" in page.text
    translated = (Path(__file__).resolve().parents[2] / "docs" / f"rules.{lang}.md").exists()
    assert f'<html lang="{lang if lang == "en" or translated else "en"}">' in page.text
    for other in LANGUAGES:
        assert f'href="/rules/{other}"' in page.text


def test_the_rules_follow_the_browser_and_refuse_an_unknown_language(
        client: TestClient) -> None:
    with client:
        german = client.get("/rules", headers={"Accept-Language": "de"})
        unknown = client.get("/rules/xx")
    assert german.status_code == 200 and "Zurück zur Lobby" in german.text
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_rules"
