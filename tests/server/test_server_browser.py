"""A person in a real browser creates a table against bots and plays a game to the end.

Playwright drives Debian's ``chromium`` (``apt-get install chromium``); no browser is
downloaded.  Screenshots are kept in ``artifacts/`` at the top of the repository.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import Server, running_server

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed at /usr/bin/chromium "
           "(make test installs it with apt-get install chromium)")


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[Server]:
    """Bots wait a little, as they do for people, so the page goes through each step."""
    with running_server(tmp_path / "browser.sqlite3", bot_delay=0.01) as srv:
        yield srv


def test_a_person_plays_a_whole_game_against_bots_by_clicking(
        slow_server: Server, tmp_path: Path) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(3)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(slow_server.base + "/")
        page.fill("#your-name", "Pat")
        page.click("text=Four-handed")
        page.fill("input[name=target]", "5")
        page.check("input[name=stick_the_dealer]")  # every deal is played out
        page.click("#create")
        page.wait_for_selector("#felt")
        assert page.locator(".seat.me").inner_text().startswith("You")

        clicks = 0
        summaries = 0
        mid_game_shot = False
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            if page.locator("#overlay:not([hidden])").count():
                dialog = page.locator("#overlay .dialog")
                if dialog.locator("#rematch-btn").count():
                    break  # the game is over
                summaries += 1
                page.click("#close-dialog")
                continue
            choices = page.locator(
                "#controls button[data-act]:not([disabled]), .hand-card[data-act], "
                ".call-card[data-act]:not([disabled])")
            n = choices.count()
            if n:
                if not mid_game_shot and page.locator(".hand-card.dimmed").count():
                    page.screenshot(path=str(ARTIFACTS / "browser-mid-game.png"))
                    mid_game_shot = True
                try:
                    choices.nth(rng.randrange(n)).click(timeout=2000)
                except PlaywrightTimeout:
                    continue  # a dialog opened over it, or the page moved on: look again
                clicks += 1
                continue
            page.wait_for_timeout(30)
        else:
            pytest.fail(f"the game did not end in time ({clicks} clicks)")

        title = page.locator("#overlay .summary-title").inner_text()
        assert "win" in title
        page.screenshot(path=str(ARTIFACTS / "browser-game-over.png"))
        assert clicks >= 10 and summaries >= 1
        # the record downloads from the page's link once the game is over
        href = page.locator("#overlay a[download]").first.get_attribute("href")
        assert href is not None
        record = slow_server.http.get(href)
        assert record.status_code == 200 and record.json()["seats"][0] == "Pat"
        # keyboard: Escape closes the dialog, "?" opens the shortcuts
        page.keyboard.press("Escape")
        page.keyboard.press("?")
        assert "Keyboard shortcuts" in page.locator("#overlay").inner_text()
        page.keyboard.press("Escape")
        # the game can be replayed deal by deal
        page.click("text=Replay deal by deal")
        page.wait_for_selector(".history-page")
        page.keyboard.press("ArrowRight")
        assert page.locator(".open-hand .card").count() > 0
        page.screenshot(path=str(ARTIFACTS / "browser-history.png"))
        browser.close()
    assert errors == []


def test_a_friend_joins_with_the_invitation_link_and_a_stranger_watches(
        slow_server: Server) -> None:
    from playwright.sync_api import sync_playwright

    answer = slow_server.create({"players": 2, "target": 3},
                                [{"kind": "you", "name": "Ann"}, {"kind": "friend"}])
    invite = slow_server.base + answer["invites"][0]["url"]
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        page = phone.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(invite)
        page.fill("#join-name", "Bo")
        page.click("text=Take my seat")
        page.wait_for_selector(".seat.me")
        assert "token=" not in page.url  # the secret leaves the address bar
        page.wait_for_selector(".hand-card")
        assert page.locator(".hand-card").count() == 5
        page.screenshot(path=str(ARTIFACTS / "browser-phone-friend.png"), full_page=True)
        names = [s["name"] for s in slow_server.http.get(
            f"/api/tables/{answer['id']}").json()["seats"]]
        assert names == ["Ann", "Bo"]
        # reloading resumes the same seat from this browser's storage
        page.reload()
        page.wait_for_selector(".seat.me")
        assert "Bo" not in page.locator(".seat.me").inner_text()  # shown as "You"
        watcher = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
        watcher.on("pageerror", lambda e: errors.append(str(e)))
        watcher.goto(slow_server.base + "/")
        watcher.click(f"a[href='/table/{answer['id']}']")
        watcher.wait_for_selector(".watching")
        assert watcher.locator(".hand-card").count() == 0
        browser.close()
    assert errors == []
