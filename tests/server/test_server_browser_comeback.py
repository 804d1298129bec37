"""Coming back to a friends' table, in a real browser: the give-back link opened in the
friend's own browser wins over the seat token it kept, the host link opens the host's own
seat on a second device (and is shown when the table is made), a spent invitation is said
before a name is asked, the review of your decisions at a private table (from the game's
end and from the replay, after a reload), and what a phone shows meanwhile: the waiting
room, a chat message's badge, a stand-in bot's label, the host's dialog as the table
changes, a hint that never comes.

The friends' tests run on SQLite (one server) and on PostgreSQL with two server processes
(the ``servers`` fixture of :mod:`test_server_browser_friends`).  Playwright drives
Debian's ``chromium``; screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from serverkit import Server, play_out, running_server
from test_server_browser import ARTIFACTS, CHROMIUM, _page, join_by_invitation
from test_server_browser_friends import _holding, _token, servers

__all__ = ["servers"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")

IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


def _host_dialog_says(page: Any, place: int, words: str) -> None:
    """Wait until the open host dialog's row of ``place`` says ``words``."""
    page.wait_for_selector(f".host-dialog .host-place[data-place='{place}'] :text('{words}')")


def test_the_give_back_link_wins_over_the_stale_seat_in_the_friend_s_own_browser(
        servers: tuple[Server, Server], browser: Any) -> None:
    """Issue 30, item 2: an invitation in the address always wins over what the browser
    stored; the host's open dialog follows (item 5); a stand-in bot at a four-handed
    table is labelled a bot on a phone too."""
    one, two = servers
    answer = one.create({"players": 4, "target": 10},
                        [{"kind": "you", "name": "Hana"}, {"kind": "friend"},
                         {"kind": "friend"}, {"kind": "friend"}], private=True)
    tid = answer["id"]
    errors: list[str] = []
    hana = _page(browser, errors, 390, 844, has_touch=True)
    _holding(hana, tid, answer["token"], answer["host"])
    hana.goto(f"{one.base}/table/{tid}")
    hana.wait_for_selector("#waiting-room")
    ivo = _page(browser, errors, 1280, 800)
    join_by_invitation(ivo, two.base + answer["invites"][0]["url"], "Ivo")
    hana.wait_for_selector("#waiting-room :text('Ivo')")
    hana.click("[data-cmd=host-start]")  # the two others are late: bots keep their seats
    hana.wait_for_selector(".hand-card")
    ivo.wait_for_selector(".hand-card")
    stale = _token(ivo, tid)
    # a stand-in bot is labelled a bot on the phone, as at a five-handed table
    label = hana.locator(".seat[data-seat='2'] .seat-name small")
    assert label.is_visible() and "Bot: Casual" in label.inner_text()
    hana.screenshot(path=str(ARTIFACTS / "comeback-stand-in-390x844.png"))
    # Ivo closes his tab; the host seats a bot in his place, with a link to give it back
    ivo_context = ivo.context
    ivo.close()
    hana.click("#tool-host")
    _host_dialog_says(hana, 1, "away")
    hana.click(".host-place[data-place='1'] [data-host=bot]")
    _host_dialog_says(hana, 1, "a bot keeps the seat")
    back = hana.locator(".host-place[data-place='1'] input").input_value()
    assert "?invite=" in back
    # Ivo opens it in the same browser, which still holds his old seat token
    ivo = ivo_context.new_page()
    ivo.on("pageerror", lambda e: errors.append(str(e)))
    assert _token_in(ivo, two.base, tid) == stale
    join_by_invitation(ivo, back.replace(one.base, two.base), "Ivo")
    ivo.wait_for_selector(".hand-card")
    assert _token(ivo, tid) not in (None, stale)
    assert ivo.locator("text=You are watching").count() == 0
    # the host's dialog, left open, follows: Ivo is back (here, or on PostgreSQL
    # connected to the other process, which this one does not see)
    _host_dialog_says(hana, 1, "Ivo")
    assert hana.locator(".host-place[data-place='1'] :text('a bot keeps the seat')").count() == 0
    hana.screenshot(path=str(ARTIFACTS / "comeback-host-dialog-390x844.png"))
    seats = one.http.get(f"/api/tables/{tid}",  # a private table's facts: with a key
                         headers={"X-Euchre-Key": answer["host"]}).json()["seats"]
    assert seats[1]["kind"] == "person" and seats[1]["name"] == "Ivo"
    assert errors == []


def _token_in(page: Any, base: str, tid: str) -> str | None:
    """The seat token a browser context keeps for a table (read on the site's lobby)."""
    page.goto(base + "/")
    return _token(page, tid)


def test_the_host_link_opens_the_host_s_seat_on_a_second_device(
        servers: tuple[Server, Server], browser: Any) -> None:
    """Issue 30, item 3: the host link, shown when the table is made with a line saying
    to keep it, opens the host's own seat on another device; and the waiting room on a
    phone (item 5): no cards before the game begins, "Start now" in view, opaque."""
    one, two = servers
    errors: list[str] = []
    phone = _page(browser, errors, 390, 844, has_touch=True)
    phone.goto(one.base + "/")
    phone.fill("#your-name", "Hana")
    phone.select_option("select[name=seat1]", "friend")
    phone.click("#create")
    phone.wait_for_selector("#waiting-room")
    tid = phone.url.rsplit("/", 1)[-1]
    row = phone.locator(".invite.host-link")
    assert "keep it to get back in" in row.inner_text()
    link = row.locator("input").input_value()
    assert "?host=" in link
    # the waiting room: nothing dealt in view yet, the host's start within the screen
    assert phone.locator(".hand-card").count() == 0
    assert "Deal 1" not in phone.locator("#log").inner_text()
    assert phone.locator("[data-cmd=host-start]").evaluate(IN_VIEW)
    background = phone.locator("#waiting-room").evaluate(
        "(el) => getComputedStyle(el).backgroundColor")
    assert background.startswith("rgb(")  # no transparency
    phone.screenshot(path=str(ARTIFACTS / "comeback-waiting-room-390x844.png"))
    answer_invite = phone.locator(".invite:not(.host-link) input").first.input_value()
    friend = _page(browser, errors, 1280, 800)
    join_by_invitation(friend, answer_invite.replace(one.base, two.base), "Finn")
    friend.wait_for_selector(".hand-card")
    phone.wait_for_selector(".hand-card")
    # the host's phone is lost: the host link on a laptop opens the host's own seat
    laptop = _page(browser, errors, 1280, 800)
    laptop.goto(link.replace(one.base, two.base))
    laptop.wait_for_selector(".hand-card")
    assert "host=" not in laptop.url
    assert laptop.locator(".seat.me .seat-name").inner_text().strip().startswith("You")
    # the host's powers are asked for after the table shows (refreshHostView): wait for them
    laptop.wait_for_selector("#tool-host")
    assert laptop.locator("#tool-host").count() == 1
    assert _token(laptop, tid) == _token(phone, tid)
    laptop.screenshot(path=str(ARTIFACTS / "comeback-host-link-1280x800.png"))
    # a spent invitation says so when its page opens, before any name is asked
    late = _page(browser, errors, 390, 844, has_touch=True)
    late.goto(answer_invite)
    late.wait_for_selector("#join-refused")
    assert late.locator("#join-name").count() == 0
    assert "taken" in late.locator("#join-refused").inner_text()
    assert errors == []


def test_a_chat_message_below_the_hand_shows_a_badge_on_a_phone(
        servers: tuple[Server, Server], browser: Any) -> None:
    """Issue 30, item 5: chat on a phone arrives below the hand; a badge says so and
    brings the chat into view."""
    one, two = servers
    answer = one.create({"players": 2, "target": 5},
                        [{"kind": "you", "name": "Ann"}, {"kind": "friend"}], private=True)
    tid = answer["id"]
    errors: list[str] = []
    ann = _page(browser, errors, 360, 640, has_touch=True)
    _holding(ann, tid, answer["token"], answer["host"])
    bob = _page(browser, errors, 1280, 800)
    join_by_invitation(bob, two.base + answer["invites"][0]["url"], "Bob")
    ann.goto(f"{one.base}/table/{tid}")
    ann.wait_for_selector(".hand-card")
    bob.wait_for_selector("#chat-text")
    for words in ("hello Ann", "your turn"):
        bob.fill("#chat-text", words)
        bob.press("#chat-text", "Enter")
    ann.wait_for_selector("#chat-notice[aria-label='2 new messages in the chat']")
    assert ann.locator("#chat-notice").inner_text().strip() == "2"
    assert ann.locator("#chat-notice").evaluate(IN_VIEW)
    ann.screenshot(path=str(ARTIFACTS / "comeback-chat-badge-360x640.png"))
    ann.click("#chat-notice")
    ann.wait_for_selector("#chat-notice", state="detached")
    assert "your turn" in ann.locator("#chat-lines").inner_text()
    # your own message brings no badge
    ann.fill("#chat-text", "hi")
    ann.press("#chat-text", "Enter")
    ann.wait_for_selector("#chat-lines li:has-text('hi')")
    assert ann.locator("#chat-notice").count() == 0
    assert errors == []


@pytest.fixture
def finished_private(tmp_path: Path) -> Any:
    """A private two-handed game to 1 point, played to its end: the server and the
    table's creation answer."""
    with running_server(tmp_path / "review.sqlite3") as srv:
        answer = srv.create({"players": 2, "target": 1},
                            [{"kind": "you", "name": "Pat"}, {"kind": "bot", "bot": "basic"}],
                            private=True)
        play_out(srv, answer["id"], answer["token"])
        yield srv, answer


def test_the_review_opens_at_a_private_table_from_the_end_and_from_the_replay(
        finished_private: tuple[Server, dict[str, Any]], browser: Any) -> None:
    """Issue 30, item 1: at a private table the review opens with the seat token; after
    Close, or a reload, it is in the controls and on the replay's page."""
    server, answer = finished_private
    tid = answer["id"]
    errors: list[str] = []
    page = _page(browser, errors, 390, 844, has_touch=True)
    _holding(page, tid, answer["token"])
    page.goto(f"{server.base}/table/{tid}")
    page.wait_for_selector("#overlay .game-over")
    page.click("#review-btn")
    page.wait_for_selector(".review-totals, .review-body .error", timeout=120_000)
    assert page.locator(".review-body .error").count() == 0
    page.wait_for_selector(".review-totals")
    page.screenshot(path=str(ARTIFACTS / "comeback-review-private-390x844.png"))
    page.click("#close-dialog")
    # after Close (and after a reload, where the game's end is not shown again)
    page.reload()
    page.wait_for_selector("#controls [data-cmd=review]")
    assert page.locator("#overlay .game-over").count() == 0
    page.click("#controls [data-cmd=review]")
    page.wait_for_selector(".review-totals")
    page.click("#close-dialog")
    # on the replay's page, after a reload too
    page.click("text=Replay deal by deal")
    page.wait_for_selector("#h-review")
    page.reload()
    page.wait_for_selector("#h-review")
    page.screenshot(path=str(ARTIFACTS / "comeback-replay-390x844.png"), full_page=True)
    page.click("#h-review")
    page.wait_for_selector(".review-totals")
    assert page.locator(".review-body .error").count() == 0
    page.screenshot(path=str(ARTIFACTS / "comeback-review-history-390x844.png"))
    # a browser holding no seat there is offered none, and a forged token is refused
    other = _page(browser, errors, 1280, 800)
    watch = answer["watch_url"]
    other.goto(server.base + watch)
    other.wait_for_selector("#overlay .game-over")
    assert other.locator("#review-btn").count() == 0
    refused = server.http.get(f"/api/tables/{tid}/matches/1/review",
                              headers={"X-Seat-Token": "forged-" + "x" * 20})
    assert refused.status_code == 403
    assert errors == []


def test_a_hint_that_never_comes_is_not_left_thinking(tmp_path: Path, browser: Any) -> None:
    """Issue 30, item 5: "The expert is thinking…" stays until the hint comes, and goes
    when the table moves on first (here the hint is held back until after the choice,
    as when the seat changed hands meanwhile)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with running_server(tmp_path / "hint.sqlite3", bot_delay=0.01) as server:
        answer = server.create({"players": 2, "target": 5},
                               [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"}])
        tid = answer["id"]
        errors: list[str] = []
        page = _page(browser, errors, 390, 844, has_touch=True)
        _holding(page, tid, answer["token"])
        held: list[str] = []

        def route(ws: Any) -> None:
            upstream = ws.connect_to_server()
            ws.on_message(upstream.send)

            def down(message: str | bytes) -> None:
                if isinstance(message, str) and json.loads(message).get("type") == "hint":
                    held.append(message)  # answered late
                else:
                    ws.send(message)

            upstream.on_message(down)

        page.route_web_socket("**/ws/**", route)
        page.goto(f"{server.base}/table/{tid}")
        # Ann's first choice: a bid, or the dealer's discard when the bot ordered up
        choices = "#controls button[data-act], .hand-card[data-act]"
        page.wait_for_selector(choices)
        page.click("#tool-hint")
        page.wait_for_selector("#toast:has-text('The expert is thinking')")
        page.locator(choices).first.click()
        page.wait_for_selector("#toast", state="hidden")
        assert page.locator(".hint-panel").count() == 0
        # no choice of the bidding is lit as if advised (issue 30, item 5): played on to
        # a turn of the bidding
        for _ in range(200):
            page.wait_for_selector(f"{choices}, #summary-continue")
            if page.locator("#controls button[data-act]").count():
                assert page.locator("#controls button[data-act].primary").count() == 0
                break
            with contextlib.suppress(PlaywrightTimeout):  # the page moved on: look again
                page.locator(f"{choices}, #summary-continue").first.click(timeout=2000)
        else:
            raise AssertionError("no turn of the bidding came")
        assert errors == []


def test_every_choice_of_a_hint_is_in_view_on_a_small_phone(tmp_path: Path,
                                                           browser: Any) -> None:
    """Issue 30, item 5: at 360x640, in German, a hint with several choices (a lead or a
    discard) shows every one of them over the felt, the reason below them."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with running_server(tmp_path / "hint.sqlite3", bot_delay=0.01) as server:
        answer = server.create({"players": 2, "target": 5},
                               [{"kind": "you", "name": "Ann"}, {"kind": "bot", "bot": "basic"}])
        tid = answer["id"]
        errors: list[str] = []
        page = _page(browser, errors, 360, 640, has_touch=True)
        _holding(page, tid, answer["token"])
        page.add_init_script("localStorage.setItem('euchre.lang', 'de')")
        page.goto(f"{server.base}/table/{tid}")
        choices = "#summary-continue, #controls button[data-act], .hand-card[data-act]"
        for _ in range(200):
            page.wait_for_selector(choices)
            if page.locator(".hand-card[data-act]").count() >= 4:
                break  # four cards or more to choose from
            with contextlib.suppress(PlaywrightTimeout):  # the page moved on: look again
                page.locator(choices).first.click(timeout=2000)
        else:
            pytest.fail("no turn with four cards to choose from")
        # the thumb is on the hand, at the bottom of the page: the hint opens above it
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.click("#tool-hint")
        page.wait_for_selector(".hint-on-felt .hint-panel", timeout=120_000)
        rows = page.locator(".hint-on-felt .hint-values li")
        assert rows.count() >= 4
        box = page.locator(".hint-on-felt").bounding_box()
        bar = page.locator(".topbar").bounding_box()
        for i in range(rows.count()):
            row = rows.nth(i).bounding_box()
            assert box["y"] <= row["y"] and row["y"] + row["height"] <= box["y"] + box["height"]
            assert rows.nth(i).evaluate(IN_VIEW)
            assert row["y"] >= bar["y"] + bar["height"]  # not under the sticky top bar
        page.screenshot(path=str(ARTIFACTS / "comeback-hint-de-360x640.png"))
        assert errors == []
