"""The top bar on a phone: one menu button holds the tools that do not fit (the last trick,
leaving, the shortcuts, the sound, the language, the rules), every control in the window and
clickable; the invitation links of a new table on the first screen, to share or to copy;
and the page's title saying it is your turn.

Playwright drives Debian's ``chromium``; screenshots go to ``artifacts/menu/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server, running_server
from tablestates import hello, state_for
from test_server_browser import ARTIFACTS, CHROMIUM
from test_server_browser_layout import browser, static_server

__all__ = ["browser", "static_server"]  # the fixtures, shared with the layout tests

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

SHOTS = ARTIFACTS / "menu"
PHONES = [(390, 844), (360, 640)]
MOMENT = "four-play-last-to-a-trick"

# each control in the window and the element at its own centre (nothing covers it);
# answered as a list of complaints
_REACHABLE = """(selector) => {
  const bad = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const what = el.id || el.className || el.textContent.trim();
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      bad.push(`${what} is out of the window`);
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!at || !el.contains(at)) bad.push(`${what} is covered by ${at && (at.id || at.className)}`);
  }
  return bad;
}"""
BAR = ".topbar > .brand, #topbar-tools > *, #menu-button"
MENU = "#menu button, #menu a, #menu select"


@pytest.fixture
def table(browser: Any, static_server: Server) -> Iterator[Any]:
    """The table page at 390×844 with an invitation to hand out, its WebSocket answered with
    a moment of the play; ``page.ws`` is the test's end of it."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def answer(ws: Any) -> None:
        page.ws = ws
        ws.send(hello(MOMENT))
        ws.send(state_for(MOMENT))

    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.goto(static_server.base + "/")
    page.evaluate("""() => { localStorage.setItem('euchre.joined.t-menu', '1');
      sessionStorage.setItem('euchre.invites.t-menu',
        JSON.stringify([{place: 2, url: '/table/t-menu?token=abc'}])); }""")
    page.goto(f"{static_server.base}/table/t-menu?token=token")
    page.wait_for_selector(".hand-card")
    yield page
    context.close()
    assert errors == []


def _settle(page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(r)))")


def test_on_a_phone_every_control_of_the_bar_and_its_menu_is_in_view_and_uncovered(
        table: Any) -> None:
    page = table
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in PHONES:
        _settle(page, width, height)
        button = page.locator("#menu-button")
        assert button.get_attribute("aria-expanded") == "false"
        assert page.evaluate(_REACHABLE, BAR) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # the bar keeps the hint and the invitations; the rest waits in the menu
        assert page.locator("#topbar-tools #tool-hint").is_visible()
        assert page.locator("#menu").is_hidden()
        button.click()
        assert button.get_attribute("aria-expanded") == "true"
        for part in ("#tool-last", "#tool-leave", "#tool-keys", "#tool-sound", "#language",
                     ".rules-link"):
            assert page.locator(f"#menu {part}").is_visible(), part
        assert page.evaluate(_REACHABLE, MENU) == []
        page.screenshot(path=str(SHOTS / f"menu-open-{width}x{height}.png"))
        # the language select shows its whole name
        select = page.locator("#menu #language")
        assert select.evaluate("(s) => s.scrollWidth <= s.clientWidth + 1")
        # Esc closes it, the focus back on its button
        page.keyboard.press("Escape")
        assert button.get_attribute("aria-expanded") == "false"
        assert page.evaluate("document.activeElement.id") == "menu-button"
        assert page.locator("#menu").is_hidden()


def test_the_menu_opens_from_the_keyboard_and_its_tools_work(table: Any) -> None:
    page = table
    page.focus("#menu-button")
    page.keyboard.press("Enter")
    assert page.get_attribute("#menu-button", "aria-expanded") == "true"
    # the focus goes into the menu, and Tab walks through its tools
    assert page.evaluate("document.activeElement.closest('#menu') !== null")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#menu') !== null")
    page.click("#menu #tool-keys")
    assert page.get_attribute("#menu-button", "aria-expanded") == "false"
    assert "Keyboard shortcuts" in page.locator("#overlay").inner_text()
    page.keyboard.press("Escape")
    # the shortcuts still work with the menu closed
    page.keyboard.press("l")
    assert "Last trick" in page.locator("#overlay").inner_text()
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    assert "Keyboard shortcuts" in page.locator("#overlay").inner_text()
    page.keyboard.press("Escape")
    # a click elsewhere closes the menu
    page.click("#menu-button")
    page.locator("#controls").click(position={"x": 2, "y": 2})
    assert page.get_attribute("#menu-button", "aria-expanded") == "false"


def test_on_a_wide_screen_the_tools_stand_in_the_bar_without_the_menu_button(
        table: Any) -> None:
    page = table
    _settle(page, 1280, 800)
    assert page.locator("#menu-button").is_hidden()
    assert page.evaluate(_REACHABLE, BAR + ", " + MENU) == []
    for part in ("#tool-last", "#tool-leave", "#tool-keys", "#tool-sound", "#language"):
        assert page.locator(part).is_visible(), part
    page.screenshot(path=str(SHOTS / "bar-1280x800.png"))


def test_the_sound_is_off_at_first_and_switched_on_in_the_menu_for_good(table: Any) -> None:
    page = table
    page.click("#menu-button")
    sound = page.locator("#tool-sound")
    assert sound.get_attribute("aria-pressed") == "false"
    sound.click()
    assert page.locator("#tool-sound").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('euchre.sound')") == "1"
    page.reload()
    page.wait_for_selector(".hand-card")
    assert page.locator("#tool-sound").get_attribute("aria-pressed") == "true"


# -- the invitations of a new table ------------------------------------------------------------
def _new_table_with_a_friend(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.fill("#your-name", "Pat")
    page.select_option("select[name=seat1]", "friend")
    page.click("#create")
    page.wait_for_selector("#invite-box")


@pytest.fixture
def server(tmp_path: Any) -> Iterator[Server]:
    """A real server: the lobby creates the table and its invitations."""
    with running_server(tmp_path / "menu.sqlite3") as srv:
        yield srv


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_a_new_tables_invitations_are_on_the_first_screen_of_a_phone_to_copy(
        browser: Any, server: Server, width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    _new_table_with_a_friend(page, server.base)
    assert page.evaluate("typeof navigator.share") == "undefined"  # Debian's chromium
    box = page.locator("#invite-box").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height
    assert page.evaluate(_REACHABLE, "#invite-box button, #invite-box input") == []
    assert page.locator("#invite-box .share").count() == 0
    # the invitation, and the host link with its line to keep it (issue 30)
    assert page.locator("#invite-box .copy").count() == 2
    link = page.locator("#invite-box .invite:not(.host-link) input").input_value()
    assert re.search(r"/table/[\w-]+\?invite=", link)
    host = page.locator("#invite-box .host-link")
    assert "keep it to get back in" in host.inner_text()
    assert re.search(r"/table/[\w-]+\?host=", host.locator("input").input_value())
    page.screenshot(path=str(SHOTS / f"invite-{width}x{height}.png"))
    context.close()


def test_where_the_browser_can_share_the_invitation_is_shared(
        browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.add_init_script("""navigator.share = (data) => {
        window.shared = data; return Promise.resolve(); };""")
    page = context.new_page()
    _new_table_with_a_friend(page, server.base)
    share = page.locator("#invite-box .share")
    assert page.evaluate(_REACHABLE, "#invite-box .share") == []
    share.click()
    page.wait_for_function("() => window.shared !== undefined")
    shared = page.evaluate("window.shared")
    assert shared["url"] == page.locator("#invite-box .invite:not(.host-link) input").input_value()
    context.close()


# -- your turn while the tab is hidden -----------------------------------------------------------
def _hide(page: Any, hidden: bool) -> None:
    page.evaluate("""(hidden) => {
        Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
        document.dispatchEvent(new Event("visibilitychange")); }""", hidden)


def test_the_title_says_it_is_your_turn_while_the_tab_is_hidden(table: Any) -> None:
    page = table
    mine = json.loads(state_for(MOMENT))
    assert mine["deal"]["to_move"] == 0
    theirs = json.loads(json.dumps(mine))
    theirs["deal"].update(to_move=1, legal=[])
    page.ws.send(json.dumps(theirs))
    page.wait_for_selector(".prompt.waiting")
    assert page.title() == "Euchre"
    _hide(page, True)
    mine["seq"] = theirs["seq"] + 1
    page.ws.send(json.dumps(mine))
    page.wait_for_function("() => document.title !== 'Euchre'")
    assert page.title() == "● Your turn — Euchre"
    # shown again, the title still says it while the turn lasts, and no longer after it
    _hide(page, False)
    assert page.title() == "● Your turn — Euchre"
    theirs["seq"] = mine["seq"] + 1
    page.ws.send(json.dumps(theirs))
    page.wait_for_function("() => document.title === 'Euchre'")


def test_the_title_says_it_is_your_turn_in_view_too(table: Any) -> None:
    """A screen reader reads the title: it says your turn whether the tab is hidden or not."""
    page = table
    state = json.loads(state_for(MOMENT))
    state["deal"].update(to_move=1, legal=[])
    page.ws.send(json.dumps(state))
    page.wait_for_selector(".prompt.waiting")
    assert page.title() == "Euchre"
    mine = json.loads(state_for(MOMENT))
    mine["seq"] = state["seq"] + 1
    page.ws.send(json.dumps(mine))
    page.wait_for_selector(".hand-card.legal")
    page.wait_for_function("() => document.title === '● Your turn — Euchre'")


def test_the_turn_title_is_in_the_pages_language(browser: Any, static_server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    page = context.new_page()
    page.goto(static_server.base + "/")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    # the page's own module (its version's URL), which shares the page's language
    title = page.evaluate("""async () => (await import(new URL("notice.js",
        document.querySelector("script[type=module]").src))).turnTitle()""")
    assert title.startswith("● ") and "Euchre" in title and "Your turn" not in title
    context.close()
