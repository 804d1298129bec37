"""People in a real browser: a whole game against bots, the deal's summary that the bots
wait for, a reload in the middle of a deal, the hint, leaving and deleting tables, the
turn timer, a friend on a phone.

Playwright drives Debian's ``chromium`` (``apt-get install chromium``); no browser is
downloaded.  Screenshots are kept in ``artifacts/`` at the top of the repository.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import Server, running_server

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SIZES = [(1280, 800), (1280, 900), (390, 844)]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed at /usr/bin/chromium "
           "(make test installs it with apt-get install chromium)")

CHOICES = ("#controls button[data-act]:not([disabled]), .hand-card[data-act], "
           ".call-card[data-act]:not([disabled])")

# every card of the hand inside the window, its corner index on top of everything
HAND_IN_VIEW = """() => {
  const cards = [...document.querySelectorAll(".hand-card")];
  return cards.length > 0 && cards.every((c) => {
    const r = c.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width * 0.1, r.top + r.height * 0.14);
    return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight
      && at !== null && c.contains(at);
  });
}"""


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[Server]:
    """Bots wait a little, as they do for people, so the page goes through each step."""
    with running_server(tmp_path / "browser.sqlite3", bot_delay=0.01) as srv:
        yield srv


_SHARED: dict[str, Any] = {}
"""The module's one Playwright and chromium (``playwright``, ``browser``), once launched;
closed at the module's end (``conftest._chromium_closed_at_the_end``)."""


def _shared_chromium() -> Any:
    """The module's chromium, launched at the first call (again if it has gone away)."""
    browser = _SHARED.get("browser")
    if browser is None or not browser.is_connected():
        if "playwright" not in _SHARED:
            from playwright.sync_api import sync_playwright

            _SHARED["playwright"] = sync_playwright().start()
        browser = _SHARED["playwright"].chromium.launch(executable_path=str(CHROMIUM),
                                                        args=CHROMIUM_ARGS)
        _SHARED["browser"] = browser
    return browser


def close_chromium() -> None:
    """Close the module's chromium and its Playwright, if launched (the module's end)."""
    browser, playwright = _SHARED.pop("browser", None), _SHARED.pop("playwright", None)
    if browser is not None and browser.is_connected():
        browser.close()
    if playwright is not None:
        playwright.stop()


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium, headless (the browser fixtures' one browser).

    Launching chromium costs a second or more, and two Playwrights cannot run at once: a
    test module launches it once and every fixture of the module shares it.  Each test's
    pages are in browser contexts of their own (no storage or cookies shared), and every
    context opened through this one is closed on exit, so a fixture leaves nothing running
    behind it.
    """
    browser = _shared_chromium()
    before = list(browser.contexts)
    try:
        yield browser
    finally:
        if browser.is_connected():
            for context in browser.contexts:
                if context not in before:
                    context.close()



def module_fixtures(name: str) -> tuple[Any, Any]:
    """A test module's own ``server`` (its database named ``name``) and ``browser``
    (one chromium), each started once for the module: ``server, browser =
    module_fixtures("lobby")``."""

    @pytest.fixture(scope="module", name="server")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
        with running_server(tmp_path_factory.mktemp(name) / f"{name}.sqlite3") as srv:
            yield srv

    @pytest.fixture(scope="module", name="browser")
    def module_browser() -> Iterator[Any]:
        with chromium() as launched:
            yield launched

    return server, module_browser


def _page(browser: Any, errors: list[str], width: int = 1280, height: int = 800,
          pace: str = "fast", **options: Any) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.add_init_script(f"localStorage.setItem('euchre.pace', '{pace}')")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a script, style or connection the server's Content-Security-Policy refuses
    page.on("console", lambda m: errors.append(m.text)
            if "Content Security Policy" in m.text else None)
    return page


def _table_against_bots(page: Any, base: str, players: str = "Four-handed",
                        target: int = 5) -> None:
    page.goto(base + "/")
    page.fill("#your-name", "Pat")
    page.click(f"text={players}")
    page.fill("input[name=target]", str(target))
    if players == "Four-handed":
        page.check("input[name=stick_the_dealer]")  # every deal is played out
    page.click("#create")
    page.wait_for_selector("#felt")


def join_by_invitation(page: Any, url: str, name: str) -> None:
    """Open an invitation link and claim its seat under ``name``, as a friend does."""
    page.goto(url)
    page.fill("#join-name", name)
    page.click("text=Take my seat")


def _click_something(page: Any, rng: random.Random) -> bool:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    choices = page.locator(CHOICES)
    n = choices.count()
    if not n:
        return False
    try:
        choices.nth(rng.randrange(n)).click(timeout=2000)
    except PlaywrightTimeout:
        return False  # the page moved on: look again
    return True


def _play_to_the_summary(page: Any, rng: random.Random, seconds: float = 60) -> None:
    """Click legal choices until the deal's summary shows."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator(".summary-panel").count():
            return
        if not _click_something(page, rng):
            page.wait_for_timeout(30)
    pytest.fail("no deal ended in time")


def _state(page: Any) -> dict[str, Any]:
    """What the server says now: the table's public facts, from the page's own seat."""
    tid = page.url.rsplit("/", 1)[-1]
    token = page.evaluate(f"localStorage.getItem('euchre.token.{tid}')")
    return {"id": tid, "token": token}


# -- a whole game, with the trick labels, the tricks per side and the gathering pace -----------
def test_a_person_plays_a_whole_game_against_bots_by_clicking(
        slow_server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(3)
    errors: list[str] = []
    page = _page(browser, errors, pace="fast")
    _table_against_bots(page, slow_server.base)
    assert page.locator(".seat.me").inner_text().startswith("You")
    names = {int(s.get_attribute("data-seat")): s.locator(".seat-name > span:not(.dot)")
             .first.inner_text() for s in page.locator(".seat").all()}

    clicks = summaries = labelled = 0
    gathered: list[str] = []  # the pace each gathering of a trick went at
    shots = set()
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if page.locator("#overlay:not([hidden]) #rematch-btn").count():
            break  # the game is over
        if page.locator(".summary-panel").count():
            summaries += 1
            page.click("#summary-continue")
            continue
        trick = page.evaluate("""() => [...document.querySelectorAll(".trick-card")].map(
            (c) => [Number(c.dataset.seat), c.querySelector(".trick-who").textContent])""")
        for seat, who in trick:  # every card of the trick says who played it
            assert who == names[seat], (who, seat)
            labelled += 1
        pace = page.evaluate("""() => {
            const g = document.querySelector(".trick-card.gathering");
            return g && [g.style.animationDuration, localStorage.getItem("euchre.pace")]; }""")
        if pace and (not gathered or gathered[-1] != pace[0]):
            # the cards are gathered to the winner at the pace the player set: fast, then
            # slow for one trick, then fast again
            assert pace == {"fast": ["250ms", "fast"], "slow": ["700ms", "slow"]}[pace[1]]
            gathered.append(pace[0])
            page.click(f".pace span:text-is('{'slow' if len(gathered) == 1 else 'fast'}')")
        # read in one go: between two calls the page may have drawn the table anew
        tally = page.evaluate("""() => { const c = document.querySelector(".tricks-chip");
            return c && [...c.querySelectorAll(".tally b")].map((b) => b.textContent); }""")
        if tally is not None:
            assert len(tally) == 2 and sum(map(int, tally)) <= 5, tally
        if page.locator(".hand-card.dimmed").count() and "mid" not in shots:
            page.screenshot(path=str(ARTIFACTS / "browser-mid-game.png"))
            shots.add("mid")
        if _click_something(page, rng):
            clicks += 1
        else:
            page.wait_for_timeout(30)
    else:
        pytest.fail(f"the game did not end in time ({clicks} clicks)")

    title = page.locator("#overlay .summary-title").inner_text()
    assert "win" in title
    page.screenshot(path=str(ARTIFACTS / "browser-game-over.png"))
    assert clicks >= 10 and summaries >= 1 and labelled >= 4
    assert gathered[:3] == ["250ms", "700ms", "250ms"]
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
    assert errors == []


# -- the deal's summary waits for the player; a reload shows the deal in progress ------------------
def test_the_next_deal_waits_until_you_have_read_the_summary(
        slow_server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _table_against_bots(page, slow_server.base)
    _play_to_the_summary(page, random.Random(5))
    page.wait_for_timeout(400)  # the bots, who wait 10 ms, would have bid by now
    # nobody has bid in the next deal: its log is only its heading, no seat has a bubble
    log = page.locator("#log li").all_inner_texts()
    assert log[-1].startswith("Deal 2:")
    assert page.locator(".bubble").count() == 0
    assert page.evaluate(HAND_IN_VIEW)  # the new hand shows below the summary
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(HAND_IN_VIEW), (width, height)
        page.screenshot(path=str(ARTIFACTS / f"browser-summary-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.keyboard.press("Enter")
    assert page.locator(".summary-panel").count() == 0
    # now the bidding starts: someone bids, or it is your turn
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 2 "
                           "|| document.querySelector('#controls [data-act]') !== null")
    assert errors == []


def test_a_reload_mid_deal_shows_the_deal_in_progress(slow_server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _table_against_bots(page, slow_server.base)
    rng = random.Random(8)
    _play_to_the_summary(page, rng)
    # a reload while the summary is unread: the table still waits for you, so it shows
    page.reload()
    page.wait_for_selector(".summary-panel")
    page.click("#summary-continue")
    # into the next deal, then reload
    deadline = time.monotonic() + 30
    while len(page.locator("#log li").all_inner_texts()) < 6 and time.monotonic() < deadline:
        if not _click_something(page, rng):
            page.wait_for_timeout(30)
    before = page.locator("#log li").all_inner_texts()
    deal_head = next(t for t in before if t.startswith("Deal 2:"))
    for again in (page, page.context.new_page()):  # a reload, and the table in a new tab
        if again is page:
            page.reload()
        else:
            again.on("pageerror", lambda e: errors.append(str(e)))
            again.goto(page.url)
        again.wait_for_selector("#felt")
        # the deal in progress is shown once its log holds a move after the heading (a
        # loaded machine takes its time: the test waits for that, not for a time)
        again.wait_for_function(
            """(head) => {
              const log = [...document.querySelectorAll('#log li')].map((li) => li.innerText);
              const at = log.indexOf(head);
              return at >= 0 && at < log.length - 1;
            }""", arg=deal_head)
        assert again.locator(".summary-panel").count() == 0
        assert again.locator("#overlay:not([hidden])").count() == 0
        log = again.locator("#log li").all_inner_texts()
        assert deal_head in log  # the deal in progress, with its bids and plays
        assert log.index(deal_head) < len(log) - 1
        assert "trump" in log[0]  # the last deal's result, in the log only
        assert again.evaluate(HAND_IN_VIEW)
    assert errors == []


# -- the hint --------------------------------------------------------------------------------------
def test_the_hint_shows_the_value_of_every_choice_and_why(
        slow_server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    _table_against_bots(page, slow_server.base)
    rng = random.Random(2)
    while True:  # your turn, with a choice to weigh
        page.wait_for_selector(CHOICES)
        choices = set(page.locator("#controls [data-act], .hand-card[data-act]")
                      .evaluate_all("els => els.map((e) => e.dataset.act)"))
        if len(choices) > 1:
            break
        _click_something(page, rng)
        page.wait_for_timeout(50)
    page.click("#tool-hint")
    page.wait_for_selector(".hint-in-side .hint-panel")
    panel = page.locator(".hint-in-side .hint-panel")
    rows = panel.locator(".hint-values li")
    assert rows.count() == len(choices)
    values = [float(v.replace("−", "-")) for v in panel.locator(".hint-value").all_inner_texts()]
    assert values == sorted(values, reverse=True)
    assert "ways" in panel.locator(".hint-reason").inner_text()
    assert page.locator(".hinted").count() >= 1  # the expert's choice is lit
    page.screenshot(path=str(ARTIFACTS / "browser-hint-1280x800.png"))
    page.keyboard.press("Escape")
    assert page.locator(".hint-panel").count() == 0
    # on a phone the hint is over the felt, and the hand stays in view
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("i")
    page.wait_for_selector(".hint-on-felt .hint-panel")
    assert page.locator(".hint-on-felt .hint-values li").count() == len(choices)
    assert page.evaluate(HAND_IN_VIEW)
    page.screenshot(path=str(ARTIFACTS / "browser-hint-390x844.png"))
    assert errors == []


# -- tables nobody plays at ------------------------------------------------------------------------
def test_leaving_a_table_and_deleting_your_own(slow_server: Server, browser: Any) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    page.on("dialog", lambda d: d.accept())
    # the lobby proposes a turn timer for a table with an open seat, none among friends
    page.goto(slow_server.base + "/")
    page.select_option("select[name=seat1]", "friend")
    assert page.input_value("#turn-timer") == ""
    page.select_option("select[name=seat1]", "open")
    assert page.input_value("#turn-timer") == "60"
    page.click("#create")
    page.wait_for_selector("#felt")
    first = _state(page)
    assert slow_server.http.get(f"/api/tables/{first['id']}").json()["turn_timer"] == 60
    # leave from the table: the only person there, so the table closes
    page.click("#tool-leave")
    page.click("#leave-confirm")
    page.wait_for_selector("#new-form")
    assert slow_server.http.get(f"/api/tables/{first['id']}").status_code == 404
    # a public table of yours with a friend's seat: delete it from the lobby
    page.select_option("select[name=seat1]", "friend")
    page.check("#public")
    page.click("#create")
    page.wait_for_selector("#felt")
    second = _state(page)
    page.goto(slow_server.base + "/")
    delete = f".table-delete[data-table='{second['id']}']"
    page.click(delete)
    page.wait_for_selector(delete, state="detached")
    assert slow_server.http.get(f"/api/tables/{second['id']}").status_code == 404
    assert errors == []


def test_the_turn_timer_hands_an_idle_seat_to_a_bot_and_you_take_it_back(
        tmp_path: Path, browser: Any) -> None:
    with running_server(tmp_path / "timer.sqlite3", bot_delay=0.3) as server:
        _turn_timer(server, browser)


def _turn_timer(slow_server: Server, browser: Any) -> None:
    r = slow_server.http.post("/api/tables", json={
        "rules": {"players": 2},
        "seats": [{"kind": "you", "name": "Pat"}, {"kind": "bot", "bot": "basic"}]})
    answer = r.json()
    errors: list[str] = []
    page = _page(browser, errors)
    page.goto(slow_server.base + "/")
    page.evaluate(f"localStorage.setItem('euchre.token.{answer['id']}', '{answer['token']}')")
    page.goto(slow_server.base + answer["url"])
    page.wait_for_selector(".hand-card")
    # the host sets the timer once the page shows the table: set at the table's creation,
    # it could run out while a loaded machine still opens the page, which then never
    # shows the clock running
    r = slow_server.http.post(f"/api/tables/{answer['id']}/host/timer",
                              json={"host": answer["host"], "turn_timer": 2})
    assert r.status_code == 200, r.text
    page.wait_for_selector("#controls [data-clock]")  # your turn, and the clock runs
    page.wait_for_selector("text=A bot is playing your seat", timeout=15000)
    assert page.locator(".seat.me .badge.away").count() == 1
    page.click("text=Take my seat back")
    page.wait_for_selector(".seat.me .badge.away", state="detached")
    # gone from the table's prompt (the status line, for a screen reader, keeps it said)
    assert page.locator("#controls", has_text="A bot is playing your seat").count() == 0
    assert errors == []


# -- a friend on a phone -----------------------------------------------------------------------
def test_a_friend_joins_with_the_invitation_link_and_a_stranger_watches(
        slow_server: Server, browser: Any) -> None:
    answer = slow_server.create({"players": 2, "target": 3},
                                [{"kind": "you", "name": "Ann"}, {"kind": "friend"}])
    invite = slow_server.base + answer["invites"][0]["url"]
    errors: list[str] = []
    page = _page(browser, errors, 390, 844, has_touch=True)
    join_by_invitation(page, invite, "Bo")
    page.wait_for_selector(".seat.me")
    assert "token=" not in page.url  # the secret leaves the address bar
    page.wait_for_selector(".hand-card")
    assert page.locator(".hand-card").count() == 5
    assert page.evaluate(HAND_IN_VIEW)
    page.screenshot(path=str(ARTIFACTS / "browser-phone-friend.png"), full_page=True)
    names = [s["name"] for s in slow_server.http.get(
        f"/api/tables/{answer['id']}").json()["seats"]]
    assert names == ["Ann", "Bo"]
    # reloading resumes the same seat from this browser's storage
    page.reload()
    page.wait_for_selector(".seat.me")
    assert "Bo" not in page.locator(".seat.me").inner_text()  # shown as "You"
    watcher = _page(browser, errors, 1024, 768)
    watcher.goto(slow_server.base + "/")
    watcher.click(f"a[href='/table/{answer['id']}']")
    watcher.wait_for_selector(".watching")
    assert watcher.locator(".hand-card").count() == 0
    assert errors == []


def test_the_lobby_pages_through_the_open_tables(tmp_path: Path, browser: Any) -> None:
    """``/api/tables`` answers a page at a time (a limit of the server): the lobby shows
    where it is and pages to older and newer tables."""
    from euchre.server.limits import Limits

    with running_server(tmp_path / "pages.sqlite3", limits=Limits(page=2)) as srv:
        for k in range(3):
            srv.create({"players": 2}, [{"kind": "you", "name": f"P{k}"}, {"kind": "friend"}])
        errors: list[str] = []
        page = _page(browser, errors)
        page.goto(srv.base + "/")
        where = page.locator("#page-where")
        where.wait_for()
        assert where.inner_text() == "open tables 1–2 of 3"
        assert page.locator("#open-tables .table-item").count() == 2
        assert page.locator("#page-newer").is_disabled()
        page.click("#page-older")
        page.wait_for_function(
            "() => document.querySelector('#page-where').textContent"
            ".startsWith('open tables 3')")
        assert page.locator("#open-tables .table-item").count() == 1
        assert page.locator("#page-older").is_disabled()
        page.click("#page-newer")
        page.wait_for_function(
            "() => document.querySelector('#page-where').textContent"
            ".startsWith('open tables 1')")
        assert errors == []
