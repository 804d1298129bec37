"""A table everyone can play (issue 35): axe-core finds no serious or critical fault on any
page (the lobby, a table mid-deal, a deal's summary, the waiting room, the game's end, the
host's dialog, a replay, the rules) in English and French, on a laptop and on a phone; a
whole deal played by the keyboard alone while the bots move, the focus never lost; the
status line says your turn, each trick's winner and the deal's result; the dialogs keep
the focus and give it back; the focus ring stands out on every surface it meets.

axe-core's script is the one the PyPI package ``axe-playwright-python`` ships (the ``dev``
extra); it is injected into each page and run with the WCAG 2.0 and 2.1 A and AA rules.
Playwright drives Debian's ``chromium``; screenshots go to ``artifacts/a11y/``.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import play_out, running_server
from tablestates import hello, state_for
from test_server_browser import ARTIFACTS, CHROMIUM, chromium

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

SHOTS = ARTIFACTS / "a11y"
SIZES = [(1280, 800), (390, 844)]
LANGUAGES = {"en": "en-US", "fr": "fr-FR"}
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # an experimental rule the audit ran: a control's name holds the words seen on it
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
}


@functools.cache
def _axe_script() -> str:
    return (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text("utf-8")


def serious_faults(page: Any) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each
    (the rule, and where)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    found = page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
    return [f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')}"
            for v in found["violations"] if v["impact"] in ("serious", "critical")
            for node in v["nodes"]]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, once for the module."""
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with what every page needs: a finished game to replay, a table waiting for
    an invited friend (its seat token and host key), the address."""
    db = tmp_path_factory.mktemp("a11y") / "a11y.sqlite3"
    with running_server(db) as srv:
        done = srv.create({"players": 4, "target": 1},
                          [{"kind": "you", "name": "Pat"}] + [{"kind": "bot", "bot": "basic"}] * 3)
        play_out(srv, done["id"], done["token"])
        waiting = srv.create({"players": 4},
                             [{"kind": "you", "name": "Pat"}, {"kind": "friend"},
                              {"kind": "bot", "bot": "basic"}, {"kind": "bot", "bot": "basic"}])
        yield {"server": srv, "done": done, "waiting": waiting}


def _open(browser: Any, lang: str, size: tuple[int, int], script: str = "") -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  locale=LANGUAGES[lang])
    if script:
        context.add_init_script(script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def _moment(page: Any, base: str, name: str) -> list[dict[str, Any]]:
    """The table page, its WebSocket answered with the state of moment ``name``; returns
    the list the page's messages go to."""
    sent: list[dict[str, Any]] = []

    def answer(ws: Any) -> None:
        page.ws = ws
        ws.on_message(lambda m: sent.append(json.loads(m)))
        ws.send(hello(name))
        ws.send(state_for(name))

    page.unroute_all()
    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.goto(base + "/")
    page.evaluate(f"localStorage.setItem('euchre.joined.t-{name}', '1')")
    page.goto(f"{base}/table/t-{name}?token=token")
    page.wait_for_selector("#felt")
    return sent


def _pages(page: Any, site: dict[str, Any], lang: str) -> Iterator[str]:
    """Open each page in turn, yielding its name once it is shown."""
    base = site["server"].base
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    yield "lobby"
    page.goto(f"{base}/puzzles")
    page.wait_for_selector("#pz-board .hand-card")
    yield "puzzles"
    page.goto(f"{base}/rules/{lang}")
    page.wait_for_selector("h1")
    yield "rules"
    done = site["done"]
    page.goto(f"{base}/history/{done['id']}/1")
    page.wait_for_selector(".history-seat")
    yield "history"
    waiting = site["waiting"]
    page.goto(f"{base}/table/{waiting['id']}")
    page.wait_for_selector("#waiting-room")
    yield "waiting room"
    page.click("#tool-host")
    page.wait_for_selector("#overlay .dialog")
    yield "host dialog"
    page.keyboard.press("Escape")
    _moment(page, base, "four-play-last-to-a-trick")
    page.wait_for_selector(".hand-card.legal")
    yield "table mid-deal"
    _moment(page, base, "five-summary")
    page.wait_for_selector(".summary-panel")
    yield "deal summary"
    _moment(page, base, "four-game-over")
    page.wait_for_selector("#overlay .game-over")
    yield "game over"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_no_serious_fault_on_any_page(browser: Any, site: dict[str, Any], lang: str,
                                                size: tuple[int, int]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    waiting = site["waiting"]
    holds = (f"localStorage.setItem('euchre.token.{waiting['id']}', '{waiting['token']}');"
             f"localStorage.setItem('euchre.host.{waiting['id']}', '{waiting['host']}');")
    context, page = _open(browser, lang, size, holds)
    faults: list[str] = []
    shown = []
    for name in _pages(page, site, lang):
        shown.append(name)
        faults += [f"{name}: {x}" for x in serious_faults(page)]
        shot = f"{name.replace(' ', '-')}-{lang}-{size[0]}x{size[1]}.png"
        page.screenshot(path=str(SHOTS / shot))
    context.close()
    assert len(shown) == 9
    assert not faults, "\n".join(faults)
    assert page.errors == []


# -- the keyboard, a whole deal ------------------------------------------------------------------
# Every change of the page is watched: after each, where the focus is (nothing, or the
# page's body, is a loss); each line the status line says; each line taken out of the log.
_WATCH = """() => {
  window.lost = [];
  window.said = [];
  window.logRemoved = 0;
  const where = (el) => el ? `${el.tagName}#${el.id}.${el.className}` : "nothing";
  new MutationObserver(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el.id === "app") window.lost.push(where(el));
  }).observe(document.body, { subtree: true, childList: true, attributes: true,
    characterData: true });
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) window.said.push(n.textContent);
  }).observe(document.getElementById("table-status"), { childList: true });
  new MutationObserver((records) => {
    for (const r of records) window.logRemoved += r.removedNodes.length;
  }).observe(document.getElementById("log"), { childList: true });
}"""

# what the focus is on: a card of the hand (or the hand, with no card left), a choice of the
# table, or what else
_FOCUS = """() => {
  const el = document.activeElement;
  if (el && el.matches(".hand-card, #hand")) return "card";
  if (el && el.matches("#controls button, #summary-continue")) return "choice";
  return el ? `${el.tagName}#${el.id}.${el.className}` : "nothing";
}"""

# the status line's last words are your turn's prompt
_TURN_SAID = """() => /(Your (turn|lead|bid)|Name a suit|Stick the dealer|You took up)[^]*$/
  .test(document.getElementById("table-status").lastElementChild.textContent)"""
_MY_TURN = "() => document.title.startsWith('●') || !!document.querySelector('.summary-panel')"


def _key_for(page: Any) -> list[str]:
    """The keys that make a legal choice now: a card by the arrows and Enter, else pass,
    else the first suit that may be named trump."""
    if page.locator(".hand-card.legal").count():
        return ["ArrowRight", "Enter"]
    acts = page.locator("#controls [data-act]").evaluate_all(
        "(buttons) => buttons.map((b) => b.dataset.act)")
    if "pass" in acts:
        return ["p"]
    suit = next(a.split()[1] for a in acts if a.startswith("trump "))
    return [suit.lower()]


def _a_deal_by_keyboard(page: Any) -> int:
    """Play your seat by the keyboard until the deal's summary shows, the focus checked
    after each key and each move; returns how many cards you played."""
    played = 0
    while not page.locator(".summary-panel").count():
        page.wait_for_function(_MY_TURN, timeout=30_000)
        if page.locator(".summary-panel").count():
            break
        # your turn: the status line and the title say so
        page.wait_for_function(_TURN_SAID)
        # the log grew line by line, none taken out, while the deal went on
        assert page.evaluate("window.logRemoved") == 0
        said = page.evaluate("window.said.length")
        keys = _key_for(page)
        for key in keys:
            page.keyboard.press(key)
            focus = page.evaluate(_FOCUS)
            assert focus in ("card", "choice"), (key, focus)
        # the move is taken: the status line says it (and what follows)
        page.wait_for_function(f"() => window.said.length > {said}", timeout=30_000)
        focus = page.evaluate(_FOCUS)
        assert focus in ("card", "choice"), focus
        played += page.evaluate(f"window.said.slice({said}).some((x) => x.startsWith('You play'))")
    return played


def test_a_whole_deal_is_played_by_the_keyboard_and_the_focus_is_never_lost(
        browser: Any, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with running_server(tmp_path / "keys.sqlite3", bot_delay=0.05) as srv:
        context, page = _open(browser, "en", (1280, 800),
                              "localStorage.setItem('euchre.pace', 'fast')")
        page.goto(srv.base + "/")
        page.fill("#your-name", "Pat")
        page.click("text=Four-handed")
        page.check("input[name=stick_the_dealer]")  # every deal is played out
        page.click("#create")
        page.wait_for_selector(".hand-card")
        # the focus starts in the hand
        page.wait_for_function("() => document.activeElement.matches('.hand-card')")
        page.evaluate(_WATCH)
        for _ in range(4):  # a deal where you play (not one your partner plays alone)
            played = _a_deal_by_keyboard(page)
            # the summary takes the focus on its button
            page.wait_for_function("() => document.activeElement.id === 'summary-continue'")
            if played == 5:
                break
            page.keyboard.press("Enter")  # on to the next deal, its log begun anew
            page.wait_for_selector(".summary-panel", state="detached")
            page.evaluate("window.logRemoved = 0")
        assert played == 5  # a card a trick
        page.screenshot(path=str(SHOTS / "keyboard-deal-over-1280x800.png"))
        said = page.evaluate("window.said")
        result = page.locator(".summary-text").inner_text()
        assert any(re.search(r"Trick \d to (you|Bea|Cal|Dot)\.", x) for x in said), said
        assert any(result in x for x in said), (result, said)
        assert any(re.search(r"(Bea|Cal|Dot) plays the \w+ of \w+\.", x) for x in said), said
        assert page.evaluate("window.lost") == []
        # Enter reads on to the next deal, the focus back in the hand
        page.keyboard.press("Enter")
        page.wait_for_selector(".summary-panel", state="detached")
        page.wait_for_function("() => document.activeElement.matches('.hand-card')")
        context.close()
        assert page.errors == []


def test_the_status_line_names_the_card_played_and_your_turn_in_french(
        browser: Any, site: dict[str, Any]) -> None:
    context, page = _open(browser, "fr", (390, 844))
    now = json.loads(state_for("four-play-last-to-a-trick"))
    # the moment before: the last card of the trick not yet played, its player to move
    before = json.loads(json.dumps(now))
    last = before["deal"]["events"].pop()
    before["deal"]["trick"].pop()
    before["deal"].update(to_move=last["seat"], legal=[])
    before["seq"] = now["seq"] - 1
    base = site["server"].base

    def answer(ws: Any) -> None:
        page.ws = ws
        ws.send(hello("four-play-last-to-a-trick"))
        ws.send(json.dumps(before))

    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('euchre.joined.t-four-play-last-to-a-trick', '1')")
    page.goto(f"{base}/table/t-four-play-last-to-a-trick?token=token")
    page.wait_for_selector(".prompt.waiting")
    page.ws.send(json.dumps(now))
    page.wait_for_selector(".hand-card.legal")
    said = page.locator("#table-status p").last.inner_text()
    name = ["Pat", "Bea", "Cal", "Dot"][last["seat"]]
    card = last["action"].split()[1]
    rank = {"9": "neuf", "T": "dix", "J": "valet", "Q": "dame", "K": "roi", "A": "as"}[card[0]]
    assert re.match(rf"{name} joue (le |la |l’|l')\s?{rank} de \w+\. À vous : jouez une carte\.$",
                    said), said
    assert page.title() == "● À vous de jouer — Euchre"
    context.close()
    assert page.errors == []


def test_the_pace_buttons_keep_their_arrows_and_the_numbers_still_play(
        browser: Any, site: dict[str, Any]) -> None:
    context, page = _open(browser, "en", (1280, 800))
    sent = _moment(page, site["server"].base, "four-play-last-to-a-trick")
    page.wait_for_selector(".hand-card.legal")
    page.focus("input[name=pace]:checked")
    before = page.evaluate("document.querySelector('input[name=pace]:checked').value")
    page.keyboard.press("ArrowRight")  # the radio buttons' own key: the next pace
    after = page.evaluate("document.querySelector('input[name=pace]:checked').value")
    assert after != before
    page.keyboard.press("Enter")
    assert [m for m in sent if m["type"] == "act"] == []  # no card was played
    assert page.evaluate("document.activeElement.name") == "pace"
    number = page.locator(".hand-card.legal").first.get_attribute("data-index")
    card = page.locator(".hand-card.legal").first.get_attribute("data-card")
    page.keyboard.press(str((int(number or 0) + 1) % 10))  # a card's number plays it
    page.wait_for_function("() => document.querySelector('.hand-card[data-act]') === null")
    assert [m["action"] for m in sent if m["type"] == "act"] == [f"play {card}"]
    context.close()
    assert page.errors == []


def test_a_dialog_keeps_the_focus_inside_and_gives_it_back(
        browser: Any, site: dict[str, Any]) -> None:
    context, page = _open(browser, "en", (390, 844))
    _moment(page, site["server"].base, "four-game-over")
    dialog = page.locator("#overlay .dialog")
    dialog.wait_for()
    # labelled by its heading
    label = dialog.get_attribute("aria-labelledby")
    assert label and page.locator(f"#{label}").inner_text() == dialog.locator("h2").inner_text()
    for _ in range(12):
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('overlay').contains(document.activeElement)")
    for _ in range(4):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.getElementById('overlay').contains(document.activeElement)")
    page.keyboard.press("Escape")
    # the last trick's dialog, opened from a control, gives the focus back to it
    page.focus("#controls a[href='/']")
    page.keyboard.press("l")
    page.wait_for_selector("#overlay .dialog")
    assert page.evaluate("document.getElementById('overlay').contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/"
    context.close()
    assert page.errors == []


# -- the focus ring -------------------------------------------------------------------------------
# The focused element's ring: its bands' colours, and the colour of the surface around it
# (the first ancestor with a background colour of its own; the felt's is its gradient's
# darker end); each answered as [r, g, b].
_RING = """(el) => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const style = getComputedStyle(el);
  const shadows = style.boxShadow.match(/rgba?\\([^)]*\\)/g) || [];
  const bands = [rgb(style.outlineColor), ...shadows.map(rgb)];
  let surface = null;
  for (let at = el.parentElement; at && !surface; at = at.parentElement) {
    const bg = rgb(getComputedStyle(at).backgroundColor);
    if (bg.length === 3 || (bg.length === 4 && bg[3] > 0.5)) surface = bg.slice(0, 3);
    if (!surface && at.id === "felt") surface = [27, 82, 49];
  }
  return { width: parseFloat(style.outlineWidth), bands: bands.map((b) => b.slice(0, 3)),
    surface: surface || [255, 255, 255] };
}"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    """WCAG's contrast ratio of two colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _ring_stands_out(page: Any, selector: str, what: str, shown: str = "") -> None:
    """The ring of ``selector`` focused (drawn on ``shown``, where that is another element)
    has a band that contrasts 3:1 with the surface around it."""
    page.focus(selector)
    ring = page.locator(shown or selector).first.evaluate(_RING)
    assert ring["width"] >= 3, what
    best = max(contrast(band, ring["surface"]) for band in ring["bands"])
    assert best >= 3, f"{what}: the ring's best band contrasts {best:.2f}:1 with {ring['surface']}"
    # the bands tell apart from each other too, whatever is under them
    assert max(contrast(a, b) for a in ring["bands"] for b in ring["bands"]) >= 3, what


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_focus_ring_stands_out_on_every_surface(browser: Any, site: dict[str, Any],
                                                     size: tuple[int, int]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context, page = _open(browser, "en", size)
    base = site["server"].base
    tag = f"{size[0]}x{size[1]}"
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.keyboard.press("Tab")  # the keyboard is in use: the ring shows
    for selector, what in (("#your-name", "a field on a cream panel"),
                           ("#create", "a gold button on a cream panel")):
        _ring_stands_out(page, selector, what)
        page.screenshot(path=str(SHOTS / f"ring-lobby-{what.split()[1]}-{tag}.png"))
    _moment(page, base, "four-play-last-to-a-trick")
    page.wait_for_selector(".hand-card.legal")
    page.keyboard.press("ArrowRight")
    _ring_stands_out(page, ".hand-card.legal", "a card on the felt")
    page.screenshot(path=str(SHOTS / f"ring-card-{tag}.png"))
    _ring_stands_out(page, "input[name=pace]:checked", "a pace button beside the table",
                     "input[name=pace]:checked + span")
    page.screenshot(path=str(SHOTS / f"ring-pace-{tag}.png"))
    _ring_stands_out(page, "#tool-hint", "a tool of the top bar")
    page.screenshot(path=str(SHOTS / f"ring-topbar-{tag}.png"))
    page.focus(".hand-card.legal")
    page.keyboard.press("?")
    page.wait_for_selector("#overlay .dialog")
    _ring_stands_out(page, "#overlay #close-dialog", "a gold button in a dialog")
    page.screenshot(path=str(SHOTS / f"ring-dialog-{tag}.png"))
    page.keyboard.press("Shift+Tab")
    _ring_stands_out(page, "#overlay .dialog-scroll", "a list in a dialog")
    context.close()
    assert page.errors == []
