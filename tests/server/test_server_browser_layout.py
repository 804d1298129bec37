"""The table reads well at every common window size: your hand, every choice you have and
the table are in view in every moment of a deal, phone included.  And every key means one
thing.

Playwright drives Debian's ``chromium`` (never a downloaded browser).  The page is served
by a real server, but its WebSocket is answered by the test with the states of
``tablestates.MOMENTS`` (each exactly what the server sends seat 0 at that moment), so
every moment is shown at every size quickly.  Screenshots go to ``artifacts/layout/``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import Server, running_server
from tablestates import MOMENTS, hello, state_for
from test_server_browser import ARTIFACTS, CHROMIUM, chromium

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed at /usr/bin/chromium "
           "(make test installs it with apt-get install chromium)")

SIZES = {"laptop": (1280, 800), "desktop": (1280, 900), "phone": (390, 844)}
"""The sizes the issue names: 1280×800, 1280×900 and a 390×844 phone."""
MORE_SIZES = {"small-laptop": (1366, 768), "hd": (1280, 720), "wide": (1920, 1080),
              "tablet": (768, 1024), "small-phone": (360, 740), "phone-on-its-side": (844, 390)}

# What is not in view at a size: every card of the hand, checked at its top-left index (the
# rank and suit a player reads), must be inside the window and on top; so must every
# button that acts.  Answered in the page as a list of complaints.
_CHECK = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const bad = [];
  const inView = (r) => r.left >= 0 && r.top >= 0 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const onTop = (el, x, y) => {
    const at = document.elementFromPoint(x, y);
    return at && el.contains(at);
  };
  for (const card of document.querySelectorAll(".hand-card")) {
    const r = card.getBoundingClientRect();
    if (!inView(r)) bad.push(`card ${card.dataset.card} is out of view: ${JSON.stringify(r)}`);
    else if (!onTop(card, r.left + r.width * 0.1, r.top + r.height * 0.14))
      bad.push(`card ${card.dataset.card} is covered`);
  }
  const buttons = "#controls [data-act], #controls [data-cmd], .summary-panel button";
  for (const b of document.querySelectorAll(buttons)) {
    const r = b.getBoundingClientRect();
    if (!inView(r)) bad.push(`button ${b.textContent.trim()} is out of view`);
    else if (!onTop(b, r.left + r.width / 2, r.top + r.height / 2))
      bad.push(`button ${b.textContent.trim()} is covered`);
  }
  for (const s of document.querySelectorAll(".seat")) {
    const r = s.getBoundingClientRect();
    const felt = document.querySelector("#felt").getBoundingClientRect();
    if (r.left < felt.left - 1 || r.right > felt.right + 1 || r.top < felt.top - 1
        || r.bottom > felt.bottom + 1)
      bad.push(`seat ${s.dataset.seat} spills out of the felt`);
  }
  if (document.documentElement.scrollWidth > vw + 1) bad.push("the page scrolls sideways");
  return bad;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, once for the module."""
    with chromium() as launched:
        yield launched


@contextlib.contextmanager
def app_page(browser: Any, server: Server, width: int = 1280, height: int = 800,
             **options: Any) -> Iterator[Any]:
    """A fresh page of the app at ``width``×``height`` (``options``: the browser context's,
    ``has_touch``), its script errors checked when it closes."""
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    yield page
    context.close()
    assert errors == []


@pytest.fixture
def page(browser: Any, static_server: Server) -> Iterator[Any]:
    """A fresh page of the app, its errors checked at the end."""
    with app_page(browser, static_server) as opened:
        yield opened


@pytest.fixture(scope="module")
def static_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Only the pages are served: the test answers the WebSocket itself."""
    db = tmp_path_factory.mktemp("layout") / "layout.sqlite3"
    with running_server(db) as srv:
        yield srv


def _show(page: Any, base: str, name: str) -> list[dict[str, Any]]:
    """Open the table page with the WebSocket answered by the state of moment ``name``;
    returns the list the page's messages to the server will be added to."""
    messages = [hello(name), state_for(name)]
    sent: list[dict[str, Any]] = []

    def answer(ws: Any) -> None:
        ws.on_message(lambda m: sent.append(json.loads(m)))
        for m in messages:
            ws.send(m)

    page.unroute_all()
    page.route_web_socket(re.compile(r"/ws/"), answer)
    table = f"t-{name}"
    page.evaluate(f"localStorage.setItem('euchre.joined.{table}', '1')")
    page.goto(f"{base}/table/{table}?token=token")
    page.wait_for_selector("#felt")
    return sent


def _check_sizes(page: Any, name: str, sizes: dict[str, tuple[int, int]],
                 shots: Path | None) -> list[str]:
    problems = []
    for label, (w, h) in sizes.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        for complaint in page.evaluate(_CHECK):
            problems.append(f"{name} at {label} {w}×{h}: {complaint}")
        if shots is not None:
            page.screenshot(path=str(shots / f"{name}-{w}x{h}.png"))
    return problems


def test_your_hand_and_your_choices_are_in_view_in_every_moment_at_every_size(
        static_server: Server, page: Any) -> None:
    shots = ARTIFACTS / "layout"
    shots.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for name in MOMENTS:
        _show(page, static_server.base, name)
        if name == "five-summary":
            page.wait_for_selector(".summary-panel")
        if name == "four-game-over":
            page.wait_for_selector("#overlay:not([hidden])")
            page.keyboard.press("Escape")  # the game-over dialog; the table stays
        problems += _check_sizes(page, name, SIZES, shots)
        problems += _check_sizes(page, name, MORE_SIZES, None)
        hand = page.locator(".hand-card").count()
        assert name == "four-game-over" or hand >= 4, f"{name}: {hand} cards shown"
    (shots / "problems.txt").write_text("".join(f"{x}\n" for x in problems))
    assert problems == []


# -- the keyboard ------------------------------------------------------------------------------
def _acted(sent: list[dict[str, Any]], page: Any, expected: str | None) -> list[str]:
    """The actions the page sent: once the expected one came (at most 10 s), or, when
    none is expected, after a pause in which a wrong one would have been sent."""
    deadline = time.monotonic() + 10
    while True:
        page.wait_for_timeout(50 if expected is not None else 300)
        acted = [m["action"] for m in sent if m["type"] == "act"]
        if expected is None or acted or time.monotonic() > deadline:
            return acted


@pytest.mark.parametrize(("moment", "keys", "action"), [
    ("three-defend-alone", ["d"], None),                   # D is diamonds, never "defend"
    ("three-defend-alone", ["a"], "defend alone"),         # A is "alone"
    ("three-defend-alone", ["p"], "pass"),
    ("four-bid-round-1", ["o"], "order"),
    ("four-bid-round-1", ["a"], "order alone"),
    ("four-bid-round-1", ["d"], None),
    ("four-bid-round-2", ["d"], "trump D"),
    ("four-bid-round-2", ["Shift+D"], "trump D alone"),
    ("four-bid-round-2", ["a", "d"], "trump D alone"),      # A first: the next suit alone
    ("five-call-partner", ["h", "Enter"], "call AH"),       # a suit key picks a card to call
    ("five-call-partner", ["h", "ArrowRight", "Enter"], "call KH"),
    ("five-call-partner", ["a"], None),
])
def test_each_key_means_one_thing(static_server: Server, page: Any, moment: str,
                                  keys: list[str], action: str | None) -> None:
    state = json.loads(state_for(moment))
    if moment == "four-bid-round-2":
        assert "trump D" in state["deal"]["legal"]
    if moment == "five-call-partner":
        assert {"call AH", "call KH"} <= set(state["deal"]["legal"])
    sent = _show(page, static_server.base, moment)
    for key in keys:
        page.keyboard.press(key)
    acted = _acted(sent, page, action)
    assert acted == ([] if action is None else [action])


def test_the_list_of_shortcuts_names_each_key_once(static_server: Server, page: Any) -> None:
    _show(page, static_server.base, "four-play-last-to-a-trick")
    page.keyboard.press("?")
    rows = page.locator(".keys tr").evaluate_all("rows => rows.map((r) => r.dataset.keys)")
    text = page.locator("#overlay").inner_text()
    keys = [k for row in rows for k in row.split(",")]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    assert {"d", "a", "p", "o", "c", "h", "s", "l", "i", "r", "?"} <= set(keys)
    assert "defend alone" in text and "diamonds" in text


# -- German, the longest words, at phone width -----------------------------------------------
_CLIPPED = """() => {
  const bad = [];
  const parts = "button:not(.hand-card), .badge, .chip, .seat-name, .prompt, .score-name, "
    + ".bubble, .turnup-label";
  for (const el of document.querySelectorAll(parts)) {
    if (!el.getClientRects().length) continue;
    if (el.scrollWidth > el.clientWidth + 1)
      bad.push(`${el.className || el.tagName} clips "${el.textContent.trim().slice(0, 40)}"`);
  }
  return bad;
}"""


def test_the_table_holds_the_german_words_at_phone_width(
        browser: Any, static_server: Server) -> None:
    shots = ARTIFACTS / "layout-de"
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(static_server.base + "/")
    problems: list[str] = []
    phones = {"phone": SIZES["phone"], "small-phone": MORE_SIZES["small-phone"]}
    for name in MOMENTS:
        _show(page, static_server.base, name)
        assert page.evaluate("document.documentElement.lang") == "de"
        if name == "four-game-over":
            page.wait_for_selector("#overlay:not([hidden])")
            page.keyboard.press("Escape")
        problems += _check_sizes(page, name, phones, shots)
        problems += [f"{name}: {x}" for x in page.evaluate(_CLIPPED)]
    context.close()
    (shots / "problems.txt").write_text("".join(f"{x}\n" for x in problems))
    assert errors == []
    assert problems == []
