"""A whole game in French (three-handed: the dummy's words), German (five-handed: the called
card's) and Danish (four-handed) in a real browser, its language from the browser's
``Accept-Language``: no English word left outside the notation, a screenshot per language in
``artifacts/i18n/``; the game-over dialog and the history page after a language switch; and
a language chosen on the page mid-game changes only the words (the same game, the same
connection)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from serverkit import Server, running_server
from test_server_browser import ARTIFACTS, CHROMIUM, _click_something, chromium

from euchre.i18n import LOCALE_DIR, catalog_json

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

# words of the English messages that are words of the other language too, or that the
# glossary keeps in English (RULES words, names of things)
KEPT = {"joker", "euchre", "euchred", "bower", "march", "point", "partner", "dame", "bot",
        "bots", "normal", "score", "variante", "variant", "revanche", "lobby", "rubber",
        "link", "points", "record", "tip", "hint", "stand", "dealer", "ace", "pass",
        "alone", "trump", "off", "and", "the", "for", "you", "your"}
KEPT_BY_LANG = {"fr": {"face", "points", "score", "place", "variante", "pages", "page", "table",
                       "tables", "message", "action", "actions", "normal", "secret", "final"},
                "de": {"partner", "variante", "name", "normal", "links", "bot", "chat"},
                "da": {"point", "variant", "normal", "bot", "tip", "under", "bord", "spil",
                       "chat", "send", "fire"}}  # Danish "fire" is four


def _english_words() -> set[str]:
    with (LOCALE_DIR / "web.pot").open("rb") as f:
        catalog = read_po(f)
    words: set[str] = set()
    for m in catalog:
        for text in ([m.id] if isinstance(m.id, str) else list(m.id)):
            text = re.sub(r"\{\w+\}", " ", text)
            words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", text))
    return words


ENGLISH = _english_words()
NOTATION = re.compile(r"\b(?:[2-9TJQKA]|10)[CDHS]\b|\bJK\b")


def _english_left(text: str, lang: str) -> set[str]:
    text = NOTATION.sub(" ", text)
    found = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿæøåÆØÅœ]+", text)}
    return (found & ENGLISH) - KEPT - KEPT_BY_LANG[lang] - {"pat", "ada", "bea", "cal", "dot",
                                                            "eve", "basic", "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("i18n") / "i18n.sqlite3",
                        bot_delay=0.01) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, once for the module."""
    with chromium() as launched:
        yield launched


def _word(lang: str, message: str) -> str:
    """A message of the page in ``lang``, up to its first parameter: "Carte appelée"."""
    words = catalog_json(lang, "web")["messages"]
    assert isinstance(words, dict)
    return str(words[message]).split("{")[0].strip()


def _open(browser: Any, base: str, locale: str, errors: list[str], players: int = 4) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    # count the WebSockets the page opens: switching language must not open another
    context.add_init_script("""localStorage.setItem('euchre.pace', 'fast');
      window.socketsOpened = 0;
      const Original = window.WebSocket;
      window.WebSocket = function (...args) { window.socketsOpened += 1;
        return new Original(...args); };
      window.WebSocket.prototype = Original.prototype;
      Object.assign(window.WebSocket, { OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2 });""")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    page.wait_for_selector("#new-form")
    page.fill("#your-name", "Pat")
    page.click(f"#variant input[value='{players}'] + span")  # the radio lies under its word
    page.fill("input[name=target]", "1")
    page.check("input[name=stick_the_dealer]")  # every deal is played out
    page.click("#create")
    page.wait_for_selector("#felt")
    return page


SWITCH_TO = {"fr": "de", "de": "da", "da": "fr"}
"""The language chosen at the game's end, to see the dialog and the history page in it."""


@pytest.mark.parametrize(("lang", "locale", "players"), [("fr", "fr-FR", 3), ("de", "de-DE", 5),
                                                         ("da", "da-DK", 4)])
def test_a_whole_game_in_each_language_leaves_no_english_word(
        server: Server, browser: Any, lang: str, locale: str, players: int) -> None:
    shots = ARTIFACTS / "i18n"
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    page = _open(browser, server.base, locale, errors, players)
    assert page.evaluate("document.documentElement.lang") == lang
    rng = random.Random(7)
    left: dict[str, str] = {}
    seen = ""
    deadline = time.monotonic() + 90
    shot = False
    while time.monotonic() < deadline:
        text = page.evaluate("document.body.innerText")
        seen += text
        for word in _english_left(text, lang):
            left.setdefault(word, text[:300])
        if page.locator(".summary-panel").count() and not shot:
            page.screenshot(path=str(shots / f"{lang}-summary.png"))
            shot = True
        if page.locator("#overlay .game-over").count():
            break
        if page.locator("#summary-continue").count():
            page.click("#summary-continue")
        elif not _click_something(page, rng):
            page.wait_for_timeout(30)
    else:
        pytest.fail("the game did not end in time")
    page.screenshot(path=str(shots / f"{lang}-game-over.png"))
    text = page.evaluate("document.body.innerText")
    for word in _english_left(text, lang):
        left.setdefault(word, text[:300])
    if players == 5:  # the maker called a card for a partner, unless going alone
        assert _word(lang, "Called {card}") in seen or _word(lang, "Maker, alone") in seen
    # another language chosen at the end: the game-over dialog is worded again
    other = SWITCH_TO[lang]
    history = page.get_attribute("#overlay a[href^='/history/']", "href")
    page.select_option("#language", other)
    page.wait_for_function(f"() => document.documentElement.lang === '{other}'")
    dialog = page.locator("#overlay .game-over")
    assert _word(other, "Rematch") in dialog.inner_text()
    for word in _english_left(dialog.inner_text(), other):
        left.setdefault(word, f"the game-over dialog in {other}")
    page.keyboard.press("?")
    for word in _english_left(page.locator("#overlay").inner_text(), other):
        left.setdefault(word, "the keyboard shortcuts")
    # the history page in the language chosen, then switched back on the page itself
    page.goto(server.base + history)
    page.wait_for_selector(".history-page")
    for shown in (other, lang):
        if shown == lang:
            page.select_option("#language", lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        text = page.evaluate("document.body.innerText")
        assert _word(shown, "game {number} · replay") in text
        if players == 3:  # three-handed: every deal has its dummy
            assert _word(shown, "dummy: {cards}") in text
        for word in _english_left(text, shown):
            left.setdefault(word, f"the history page in {shown}")
    page.screenshot(path=str(shots / f"{lang}-history.png"))
    assert left == {}
    assert errors == []
    page.context.close()


def test_choosing_a_language_mid_game_keeps_the_game_and_its_connection(
        server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = _open(browser, server.base, "fr-FR", errors)
    rng = random.Random(5)
    for _ in range(6):
        _click_something(page, rng)
        page.wait_for_timeout(50)
    url = page.url
    log = page.locator("#log li").count()
    assert "Enchères et jeu" in page.inner_text("#side")
    page.select_option("#language", "da")
    page.wait_for_function("() => document.documentElement.lang === 'da'")
    page.wait_for_selector("text=Meldinger og træk")
    assert page.url == url
    assert page.evaluate("window.socketsOpened") == 1
    assert page.locator("#log li").count() >= log
    assert page.evaluate("localStorage.getItem('euchre.lang')") == "da"
    page.reload()  # remembered in this browser, whatever the browser's own language
    page.wait_for_selector("text=Meldinger og træk")
    assert errors == []
    page.context.close()


PLAIN_LEVELS = [
    ("en-US", ["Bot: Beginner", "Bot: Casual", "Bot: Intuitive", "Bot: Good", "Bot: Expert"],
     "Follows simple rules of thumb"),
    ("fr-FR", ["Bot\u202f: Débutant", "Bot\u202f: Amateur", "Bot\u202f: Intuitif",
               "Bot\u202f: Confirmé", "Bot\u202f: Expert"],
     "Suit quelques règles simples de bon sens"),
]
"""The bots the lobby offers a seat, by their plain names, in English and in French, and
the line under a seat given to the default level (Casual)."""


@pytest.mark.parametrize(("locale", "offered", "casual"), PLAIN_LEVELS)
def test_the_lobby_offers_exactly_five_bot_levels_by_plain_names_in_the_pages_language(
        server: Server, browser: Any, locale: str, offered: list[str], casual: str) -> None:
    from euchre.bots import BOTS

    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select[name=seat1]")
    options = page.eval_on_selector_all(
        "#seats select[name=seat1] option",
        "found => found.map((o) => ({ value: o.value, text: o.textContent.trim() }))")
    bots = [o["text"] for o in options if o["value"].startswith("bot:")]
    assert bots == offered
    shown = " ".join(o["text"].lower() for o in options)
    raw = set(BOTS) - {"expert"}  # the bots' own names ("expert" is also a plain one)
    assert [name for name in sorted(raw) if re.search(rf"\b{name}\b", shown)] == []
    # the default is Casual, with its line under the seat
    chosen = page.eval_on_selector("#seats select[name=seat1]",
                                   "s => s.options[s.selectedIndex].textContent.trim()")
    assert chosen == offered[1]
    note = page.inner_text("#seats .seat-choice:nth-child(2) .seat-note")
    assert note == casual
    # at the table, the bots' seats name their level the same way
    page.fill("#your-name", "Pat")
    page.click("#create")
    page.wait_for_selector("#felt .seat")
    seats = page.inner_text("#felt")
    assert seats.count(offered[1]) == 3 and "basic" not in seats
    assert errors == []
    context.close()


def test_five_handed_the_lobby_leaves_out_the_learned_level(server: Server, browser: Any) -> None:
    """No learned model was made five-handed: choosing five players takes Intuitive off the
    seats' menus, and a seat that had it falls back to Casual; four-handed it comes back."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select[name=seat1]")
    page.select_option("#seats select[name=seat1]", "bot:net")
    page.click("#variant input[value='5'] + span")
    page.wait_for_selector("#seats select[name=seat4]")
    offered = page.eval_on_selector_all(
        "#seats select[name=seat1] option", "found => found.map((o) => o.value)")
    assert "bot:net" not in offered and "bot:basic" in offered
    assert page.eval_on_selector("#seats select[name=seat1]", "s => s.value") == "bot:basic"
    page.click("#variant input[value='4'] + span")
    page.wait_for_selector("#seats select[name=seat3]")
    offered = page.eval_on_selector_all(
        "#seats select[name=seat1] option", "found => found.map((o) => o.value)")
    assert "bot:net" in offered
    assert errors == []
    context.close()


def test_the_rules_link_at_a_table_opens_its_variant_in_the_pages_language(
        server: Server, browser: Any) -> None:
    """At a three-handed table in German, the top bar's rules link leads to the German page
    with the three-handed section open and in view; back in the lobby, to the page alone."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.wait_for_selector("#new-form")
    assert page.get_attribute(".rules-link", "href") == "/rules/de"
    page.click("#variant input[value='3'] + span")
    page.click("#create")
    page.wait_for_selector("#felt .seat")
    href = page.get_attribute(".rules-link", "href")
    assert href == "/rules/de?variant=3#variant-3"
    rules = context.new_page()
    rules.goto(server.base + href)
    assert rules.evaluate("document.documentElement.lang") == "de"
    opened = rules.eval_on_selector_all("details[open]", "found => found.map((d) => d.id)")
    assert opened == ["variant-3"]
    top = rules.evaluate("document.querySelector('#variant-3').getBoundingClientRect().top")
    assert -1 <= top < 100  # in view (a scroll may land a fraction of a pixel past)
    assert "Strohmann" in rules.inner_text("#variant-3")
    page.click(".brand")
    page.wait_for_selector("#new-form")
    assert page.get_attribute(".rules-link", "href") == "/rules/de"
    assert errors == []
    context.close()
