"""Friends at a table, in a real browser: an invitation that holds, a host who recovers
the links from another browser and starts the game, a re-issued invitation that ends the
old seat on the other server process, a bot seated for an absent friend and the seat given
back, a private table, the chat.

Each test runs on SQLite (one server) and on PostgreSQL with two server processes, the
people spread over both.  Playwright drives Debian's ``chromium``; screenshots go to
``artifacts/``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serverkit import Database, Server, free_port, running_server, server_process
from test_server_browser import ARTIFACTS, CHROMIUM, _page, join_by_invitation

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")

BOT_DELAY = 0.01


@pytest.fixture
def servers(database: Database, backend: str) -> Iterator[tuple[Server, Server]]:
    """Two ends of one database: on SQLite the same server twice (one process holds a
    file); on PostgreSQL two server processes."""
    db = database("friends")
    if backend == "sqlite":
        with running_server(db, bot_delay=BOT_DELAY) as srv:
            yield srv, srv
        return
    ports = free_port(), free_port()
    with contextlib.ExitStack() as stack:
        for port in ports:
            stack.enter_context(server_process(db, port, BOT_DELAY))
        pair = Server(ports[0]), Server(ports[1])
        for srv in pair:
            stack.callback(srv.http.close)
        yield pair


def _token(page: Any, tid: str, what: str = "token") -> str | None:
    value: str | None = page.evaluate(f"localStorage.getItem('euchre.{what}.{tid}')")
    return value


def _seats_once(srv: Server, tid: str, key: str,
                check: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
    """The table's seats as ``srv`` tells them (with the table's ``key``) once they pass
    ``check``: a process hears what another stored a moment after it is stored, so the
    test waits for that, not for a time (at most 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        r = srv.http.get(f"/api/tables/{tid}", headers={"X-Euchre-Key": key})
        assert r.status_code == 200, r.text
        seats: list[dict[str, Any]] = r.json()["seats"]
        if check(seats) or time.monotonic() > deadline:
            return seats
        time.sleep(0.05)


def _holding(page: Any, tid: str, token: str, host: str | None = None) -> None:
    """Let ``page`` hold a seat token (and the host key) of table ``tid``, as the
    browser that created it does."""
    script = f"localStorage.setItem('euchre.token.{tid}', '{token}');"
    if host:
        script += f"localStorage.setItem('euchre.host.{tid}', '{host}');"
    page.add_init_script(script)


def test_a_spent_invitation_refuses_a_second_browser_and_the_first_keeps_the_seat(
        servers: tuple[Server, Server], browser: Any) -> None:
    one, two = servers
    answer = one.create({"players": 2, "target": 3},
                        [{"kind": "you", "name": "Ann"}, {"kind": "friend"}], private=True)
    tid = answer["id"]
    errors: list[str] = []
    bob = _page(browser, errors, 390, 844, has_touch=True)
    join_by_invitation(bob, two.base + answer["invites"][0]["url"], "Bob")
    bob.wait_for_selector(".hand-card")  # the last invited person arrived: the cards are dealt
    assert "invite=" not in bob.url
    bob_token = _token(bob, tid)
    assert bob_token and bob_token != answer["invites"][0]["invite"]
    carl = _page(browser, errors, 1280, 800)
    carl.goto(one.base + answer["invites"][0]["url"])
    carl.wait_for_selector("#join-refused")  # said when the page opens: no name asked
    assert carl.locator("#join-name").count() == 0
    text = carl.locator("#join-refused").inner_text()
    assert "taken" in text and "Ask the host" in text  # a private table: no watching
    assert _token(carl, tid) is None  # nothing kept in the second browser
    carl.screenshot(path=str(ARTIFACTS / "friends-spent-invitation.png"))
    # the first browser still holds the seat, under its own name
    bob.reload()
    bob.wait_for_selector(".hand-card")
    seats = _seats_once(one, tid, answer["host"], lambda s: s[1]["name"] == "Bob")
    assert [s["name"] for s in seats] == ["Ann", "Bob"]
    # a forged link opens nothing of a private table, not even its name, and leaves no
    # seat behind either
    forged = _page(browser, errors, 1280, 800)
    forged.goto(f"{two.base}/table/{tid}?invite=forged-{'x' * 20}")
    forged.wait_for_selector("#join-refused")
    assert "does not work" in forged.locator("#join-refused").inner_text()
    assert _token(forged, tid) is None
    assert errors == []


def test_the_host_recovers_the_links_in_another_browser_and_starts_the_game(
        servers: tuple[Server, Server], browser: Any) -> None:
    one, two = servers
    errors: list[str] = []
    first = _page(browser, errors, 1280, 800)
    first.goto(one.base + "/")
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
    # the lobby lists it under "Your tables" (its facts asked for with this browser's key)
    first.goto(one.base + "/")
    first.wait_for_selector("#my-tables .table-item")
    assert "Friday <b>game</b>" in first.locator("#my-tables").inner_text()
    first.context.close()  # the tab and its browser are gone
    # a private table is not in the lobby
    listing = one.http.get("/api/tables").json()
    assert tid not in [t["id"] for t in listing["open"]]
    second = _page(browser, errors, 390, 844, has_touch=True)
    second.goto(f"{two.base}/table/{tid}?host={host}")
    second.wait_for_selector("#tool-host")
    assert "host=" not in second.url
    second.click("#tool-host")
    links = second.locator(".host-dialog input")
    values = [links.nth(i).input_value() for i in range(links.count())]
    assert sum("?invite=" in v for v in values) == 2
    assert any("?watch=" in v for v in values)
    second.screenshot(path=str(ARTIFACTS / "friends-host-panel-phone.png"))
    # a friend arrives with a recovered link, at the other process
    friend = _page(browser, errors, 1280, 800)
    invite = next(v for v in values if "?invite=" in v).replace(two.base, one.base)
    join_by_invitation(friend, invite, "Finn")
    friend.wait_for_selector("#waiting-room")  # one invited seat is still empty
    assert "Finn" in friend.locator("#waiting-room").inner_text()
    second.click("text=Close")
    second.click("[data-cmd=host-start]")  # the host starts: a bot takes the empty seat
    friend.wait_for_selector("#waiting-room", state="detached")
    friend.wait_for_selector(".hand-card")
    seats = _seats_once(one, tid, host, lambda s: s[2]["kind"] == "bot")
    assert [s["kind"] for s in seats] == ["person", "person", "bot", "bot"]
    assert seats[0]["name"] == "Hana" and seats[1]["name"] == "Finn"
    # a watcher without the watch link is refused
    stranger = _page(browser, errors, 1280, 800)
    stranger.goto(f"{two.base}/table/{tid}")
    stranger.wait_for_selector("#table-refused")
    assert "private" in stranger.locator("#table-refused").inner_text()
    assert errors == []


def test_a_new_invitation_ends_the_old_seat_and_a_bot_keeps_it_until_it_is_given_back(
        servers: tuple[Server, Server], browser: Any) -> None:
    one, two = servers
    answer = one.create({"players": 2, "target": 5},
                        [{"kind": "you", "name": "Ann"}, {"kind": "friend"}], private=True)
    tid = answer["id"]
    errors: list[str] = []
    bob = _page(browser, errors, 390, 844, has_touch=True)
    join_by_invitation(bob, two.base + answer["invites"][0]["url"], "Bob")
    bob.wait_for_selector(".hand-card")
    old = _token(bob, tid)
    ann = _page(browser, errors, 1280, 800)
    _holding(ann, tid, answer["token"], answer["host"])
    ann.goto(f"{one.base}/table/{tid}")
    ann.wait_for_selector("#tool-host")
    # Bob lost his phone: the host invites the seat anew, and the old seat token is dead
    # at once, on the other process too
    ann.click("#tool-host")
    ann.click(".host-place[data-place='1'] [data-host=invite]")
    bob.wait_for_selector("text=Your seat was changed by the host")
    refused = two.http.post(f"/api/tables/{tid}/leave", json={"token": old})
    assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
    # Bob does not come back yet: a bot keeps the seat, with a link to give it back
    ann.click(".host-place[data-place='1'] [data-host=bot]")
    ann.wait_for_selector("text=Give the seat back with this link:")
    back = ann.locator(".host-place[data-place='1'] input").input_value()
    assert "?invite=" in back
    seats = _seats_once(one, tid, answer["host"], lambda s: True)  # seated here
    assert seats[1]["kind"] == "bot"
    ann.screenshot(path=str(ARTIFACTS / "friends-host-bot.png"))
    ann.click("#close-dialog")
    # Bob, on a new phone, takes his seat back from the bot
    phone = _page(browser, errors, 390, 844, has_touch=True)
    join_by_invitation(phone, back.replace(one.base, two.base), "Bob")
    phone.wait_for_selector(".hand-card")
    # claimed at the other process: this one hears of it a moment later
    seats = _seats_once(one, tid, answer["host"], lambda s: s[1]["kind"] == "person")
    assert seats[1]["kind"] == "person" and seats[1]["name"] == "Bob"
    assert _token(phone, tid) not in (None, old)
    assert errors == []


def test_the_chat_is_escaped_limited_and_the_host_mutes(servers: tuple[Server, Server],
                                                        browser: Any) -> None:
    one, two = servers
    answer = one.create({"players": 2, "target": 3},
                        [{"kind": "you", "name": "Ann"}, {"kind": "friend"}])
    tid = answer["id"]
    errors: list[str] = []
    ann = _page(browser, errors, 1280, 800)
    _holding(ann, tid, answer["token"], answer["host"])
    bob = _page(browser, errors, 1280, 800)
    join_by_invitation(bob, two.base + answer["invites"][0]["url"], "Bob")
    ann.goto(f"{one.base}/table/{tid}")
    ann.wait_for_selector("#chat-text")
    bob.wait_for_selector("#chat-text")
    hostile = "<img src=x onerror=alert(1)> hi"
    bob.fill("#chat-text", hostile)
    bob.press("#chat-text", "Enter")
    ann.wait_for_selector("#chat-lines li")  # said at one process, read at the other
    assert hostile in ann.locator("#chat-lines").inner_text()
    assert ann.locator("#chat-lines img").count() == 0
    assert bob.get_attribute("#chat-text", "maxlength") == "200"
    ann.click("[data-chat=good_game]")
    bob.wait_for_function("() => document.querySelectorAll('#chat-lines li').length >= 2")
    assert "Good game" in bob.locator("#chat-lines").inner_text()
    # the host mutes Bob: his chat says so, and a message is refused
    r = one.http.post(f"/api/tables/{tid}/host/mute",
                      json={"host": answer["host"], "place": 1, "muted": True})
    assert r.status_code == 200
    bob.wait_for_selector("text=The host has muted you at this table.")
    assert bob.locator("#chat-text").count() == 0
    assert errors == []
