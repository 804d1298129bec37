"""Friends at a table, in a real browser: an invitation that holds, a host who recovers
the links from another browser and starts the game, a private table, the chat.

Playwright drives Debian's ``chromium``; screenshots go to ``artifacts/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from serverkit import Server
from test_server_browser import (
    ARTIFACTS,
    CHROMIUM,
    _page,
    browser,
    join_by_invitation,
    slow_server,
)

__all__ = ["browser", "slow_server"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")


def _token(page: Any, tid: str, what: str = "token") -> str | None:
    value: str | None = page.evaluate(f"localStorage.getItem('euchre.{what}.{tid}')")
    return value


def test_a_spent_invitation_refuses_a_second_browser_and_the_first_keeps_the_seat(
        slow_server: Server, browser: Any) -> None:
    answer = slow_server.create({"players": 2, "target": 3},
                                [{"kind": "you", "name": "Ann"}, {"kind": "friend"}],
                                private=True)
    tid = answer["id"]
    invite = slow_server.base + answer["invites"][0]["url"]
    errors: list[str] = []
    bob = _page(browser, errors, 390, 844, has_touch=True)
    join_by_invitation(bob, invite, "Bob")
    bob.wait_for_selector(".hand-card")  # the last invited person arrived: the cards are dealt
    assert "invite=" not in bob.url
    bob_token = _token(bob, tid)
    assert bob_token and bob_token != answer["invites"][0]["invite"]
    carl = _page(browser, errors, 1280, 800)
    join_by_invitation(carl, invite, "Carl")
    carl.wait_for_selector("#join-refused")
    text = carl.locator("#join-refused").inner_text()
    assert "taken" in text and "Ask the host" in text  # a private table: no watching
    assert _token(carl, tid) is None  # nothing kept in the second browser
    carl.screenshot(path=str(ARTIFACTS / "friends-spent-invitation.png"))
    # the first browser still holds the seat, under its own name
    bob.reload()
    bob.wait_for_selector(".hand-card")
    names = [s["name"] for s in slow_server.http.get(f"/api/tables/{tid}").json()["seats"]]
    assert names == ["Ann", "Bob"]
    # a forged link leaves no seat behind either
    forged = _page(browser, errors, 1280, 800)
    join_by_invitation(forged, f"{slow_server.base}/table/{tid}?invite=forged-{'x' * 20}", "Eve")
    forged.wait_for_selector("#join-refused")
    assert _token(forged, tid) is None
    assert errors == []


def test_the_host_recovers_the_links_in_another_browser_and_starts_the_game(
        slow_server: Server, browser: Any) -> None:
    errors: list[str] = []
    first = _page(browser, errors, 1280, 800)
    first.goto(slow_server.base + "/")
    first.fill("#your-name", "Hana")
    first.fill("#table-name", "Friday <b>game</b>")
    first.select_option("select[name=seat1]", "friend")
    first.select_option("select[name=seat2]", "friend")
    assert not first.is_checked("#public")  # private, with invitations
    first.click("#create")
    first.wait_for_selector("#waiting-room")
    tid = first.url.rsplit("/", 1)[-1]
    host = _token(first, tid, "host")
    assert host
    first.context.close()  # the tab and its browser are gone
    # a private table is not in the lobby
    listing = slow_server.http.get("/api/tables").json()
    assert tid not in [t["id"] for t in listing["open"]]
    second = _page(browser, errors, 390, 844, has_touch=True)
    second.goto(f"{slow_server.base}/table/{tid}?host={host}")
    second.wait_for_selector("#tool-host")
    assert "host=" not in second.url
    second.click("#tool-host")
    links = second.locator(".host-dialog input")
    values = [links.nth(i).input_value() for i in range(links.count())]
    assert sum("?invite=" in v for v in values) == 2
    assert any("?watch=" in v for v in values)
    second.screenshot(path=str(ARTIFACTS / "friends-host-panel-phone.png"))
    # a friend arrives with a recovered link
    friend = _page(browser, errors, 1280, 800)
    join_by_invitation(friend, next(v for v in values if "?invite=" in v), "Finn")
    friend.wait_for_selector("#waiting-room")  # one invited seat is still empty
    assert "Finn" in friend.locator("#waiting-room").inner_text()
    second.click("text=Close")
    second.click("[data-cmd=host-start]")  # the host starts: a bot takes the empty seat
    friend.wait_for_selector("#waiting-room", state="detached")
    friend.wait_for_selector(".hand-card")
    seats = slow_server.http.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["kind"] for s in seats] == ["person", "person", "bot", "bot"]
    assert seats[0]["name"] == "Hana" and seats[1]["name"] == "Finn"
    # a watcher without the watch link is refused
    stranger = _page(browser, errors, 1280, 800)
    stranger.goto(f"{slow_server.base}/table/{tid}")
    stranger.wait_for_selector("#table-refused")
    assert "private" in stranger.locator("#table-refused").inner_text()
    assert errors == []


def test_the_chat_is_escaped_limited_and_the_host_mutes(slow_server: Server,
                                                        browser: Any) -> None:
    answer = slow_server.create({"players": 2, "target": 3},
                                [{"kind": "you", "name": "Ann"}, {"kind": "friend"}])
    tid = answer["id"]
    errors: list[str] = []
    ann = _page(browser, errors, 1280, 800)
    ann.add_init_script(f"localStorage.setItem('euchre.token.{tid}', '{answer['token']}');"
                        f"localStorage.setItem('euchre.host.{tid}', '{answer['host']}')")
    bob = _page(browser, errors, 1280, 800)
    join_by_invitation(bob, slow_server.base + answer["invites"][0]["url"], "Bob")
    ann.goto(f"{slow_server.base}/table/{tid}")
    ann.wait_for_selector("#chat-text")
    bob.wait_for_selector("#chat-text")
    hostile = "<img src=x onerror=alert(1)> hi"
    bob.fill("#chat-text", hostile)
    bob.press("#chat-text", "Enter")
    ann.wait_for_selector("#chat-lines li")
    assert hostile in ann.locator("#chat-lines").inner_text()
    assert ann.locator("#chat-lines img").count() == 0
    assert bob.get_attribute("#chat-text", "maxlength") == "200"
    ann.click("[data-chat=good_game]")
    bob.wait_for_function("document.querySelectorAll('#chat-lines li').length >= 2")
    assert "Good game" in bob.locator("#chat-lines").inner_text()
    # the host mutes Bob: his chat says so, and a message is refused
    r = slow_server.http.post(f"/api/tables/{tid}/host/mute",
                              json={"host": answer["host"], "place": 1, "muted": True})
    assert r.status_code == 200
    bob.wait_for_selector("text=The host has muted you at this table.")
    assert bob.locator("#chat-text").count() == 0
    assert errors == []
