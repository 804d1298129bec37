"""The table reads well at every common window size: your hand, every choice you have and
the table are in view in every moment of a deal, phone included.

Playwright drives Debian's ``chromium`` (never a downloaded browser).  The page is served
by a real server, but its WebSocket is answered by the test with the states of
``tablestates.MOMENTS`` (each exactly what the server sends seat 0 at that moment), so
every moment is shown at every size quickly.  Screenshots go to ``artifacts/layout/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import Server, running_server
from tablestates import MOMENTS, hello, state_for
from test_server_browser import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed at /usr/bin/chromium "
           "(make test installs it with apt-get install chromium)")

SIZES = {"laptop": (1280, 800), "desktop": (1280, 900), "phone": (390, 844)}
"""The sizes the issue names: 1280×800, 1280×900 and a 390×844 phone."""
MORE_SIZES = {"small-laptop": (1366, 768), "wide": (1920, 1080), "tablet": (768, 1024),
              "small-phone": (360, 740)}

# What is not in view at a size: every card of the hand, checked at its top-left index (the
# rank and suit a player reads), must be inside the window and on top; so must every
# button that acts.  Answered in the page as a list of complaints.
_CHECK = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const bad = [];
  const inView = (r) => r.left >= 0 && r.top >= 0 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5;
  const onTop = (el, x, y) => { const at = document.elementFromPoint(x, y); return at && el.contains(at); };
  for (const card of document.querySelectorAll(".hand-card")) {
    const r = card.getBoundingClientRect();
    if (!inView(r)) bad.push(`card ${card.dataset.card} is out of view: ${JSON.stringify(r)}`);
    else if (!onTop(card, r.left + r.width * 0.1, r.top + r.height * 0.14))
      bad.push(`card ${card.dataset.card} is covered`);
  }
  for (const b of document.querySelectorAll("#controls [data-act], #controls [data-cmd], .summary-panel button")) {
    const r = b.getBoundingClientRect();
    if (!inView(r)) bad.push(`button ${b.textContent.trim()} is out of view`);
    else if (!onTop(b, r.left + r.width / 2, r.top + r.height / 2))
      bad.push(`button ${b.textContent.trim()} is covered`);
  }
  for (const s of document.querySelectorAll(".seat")) {
    const r = s.getBoundingClientRect();
    const felt = document.querySelector("#felt").getBoundingClientRect();
    if (r.left < felt.left - 1 || r.right > felt.right + 1 || r.top < felt.top - 1 || r.bottom > felt.bottom + 1)
      bad.push(`seat ${s.dataset.seat} spills out of the felt`);
  }
  if (document.documentElement.scrollWidth > vw + 1) bad.push("the page scrolls sideways");
  return bad;
}"""


@pytest.fixture(scope="module")
def static_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Only the pages are served: the test answers the WebSocket itself."""
    db = tmp_path_factory.mktemp("layout") / "layout.sqlite3"
    with running_server(db) as srv:
        yield srv


def _show(page: Any, base: str, name: str) -> None:
    """Open the table page with the WebSocket answered by the state of moment ``name``."""
    messages = [hello(name), state_for(name)]

    def answer(ws: Any) -> None:
        for m in messages:
            ws.send(m)

    page.unroute_all()
    page.route_web_socket(re.compile(r"/ws/"), answer)
    table = f"t-{name}"
    page.evaluate(f"localStorage.setItem('euchre.joined.{table}', '1')")
    page.goto(f"{base}/table/{table}?token=token")
    page.wait_for_selector("#felt")


def _check_sizes(page: Any, name: str, sizes: dict[str, tuple[int, int]],
                 shots: Path | None) -> list[str]:
    problems = []
    for label, (w, h) in sizes.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        for complaint in page.evaluate(_CHECK):
            problems.append(f"{name} at {label} {w}×{h}: {complaint}")
        if shots is not None:
            page.screenshot(path=str(shots / f"{name}-{w}x{h}.png"))
    return problems


def test_your_hand_and_your_choices_are_in_view_in_every_moment_at_every_size(
        static_server: Server) -> None:
    from playwright.sync_api import sync_playwright

    shots = ARTIFACTS / "layout"
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(static_server.base + "/")
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
        browser.close()
    (shots / "problems.txt").write_text("".join(f"{x}\n" for x in problems))
    assert errors == []
    assert problems == []
