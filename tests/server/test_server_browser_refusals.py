"""A refused click explains why: a card you may not play, or any card out of turn, is sent
all the same, and the server's refusal shows on the page in words; a stale choice is
dropped quietly.

The page is served by a real server; its WebSocket is answered by the test with the states
of ``tablestates.MOMENTS`` and with refusals shaped as the server's (``protocol.py``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serverkit import Server
from tablestates import NAMES, hello, state_for
from test_server_browser import CHROMIUM
from test_server_browser_layout import app_page, browser, static_server

__all__ = ["browser", "static_server"]  # the fixtures, shared with the layout tests

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

Reply = Callable[[dict[str, Any]], dict[str, Any] | None]


@pytest.fixture
def page(browser: Any, static_server: Server) -> Iterator[Any]:
    """A fresh page at 390×844, its errors checked at the end."""
    with app_page(browser, static_server, 390, 844, has_touch=True) as opened:
        yield opened


def _serve(page: Any, base: str, state: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """Open the table page, its WebSocket answered with ``state``, then ``reply(message)``
    for every message the page sends; returns what the test saw (``sent``, ``url``)."""
    seen: dict[str, Any] = {"sent": [], "url": None}

    def answer(ws: Any) -> None:
        seen["url"] = ws.url

        def on_message(text: str) -> None:
            message = json.loads(text)
            seen["sent"].append(message)
            out = reply(message)
            if out is not None:
                ws.send(json.dumps(out))

        ws.on_message(on_message)
        ws.send(hello("four-play-last-to-a-trick"))
        ws.send(json.dumps(state))

    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.evaluate("localStorage.setItem('euchre.joined.t-refusals', '1')")
    page.goto(f"{base}/table/t-refusals?token=token")
    page.wait_for_selector(".hand-card")
    return seen


def _refusal(code: str, **params: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "params": params, "message": f"refused: {code}"}


def _playing(only_legal: bool) -> dict[str, Any]:
    """My turn in the play, one card alone legal (the others dimmed); or, with
    ``only_legal`` false, the seat at my left to play."""
    state: dict[str, Any] = json.loads(state_for("four-play-last-to-a-trick"))
    deal = state["deal"]
    if only_legal:
        deal["legal"] = [f"play {deal['hand'][0]}"]
    else:
        deal["to_move"] = 1
        deal["legal"] = []
    return state


def _visible_toast(page: Any) -> str:
    page.wait_for_selector("#toast:not([hidden])")
    box = page.locator("#toast").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    text: str = page.locator("#toast").inner_text()
    return text


def test_a_card_against_the_rules_is_sent_and_the_servers_reason_shows(
        page: Any, static_server: Server) -> None:
    state = _playing(only_legal=True)
    reason = "You cannot play KD. You must follow clubs: you hold KC, QC."
    seen = _serve(page, static_server.base, state,
                  lambda m: _refusal("illegal", action=m["action"], reason=reason)
                  if m["type"] == "act" else None)
    # the page connects in its language, and a player's page with its token
    assert "lang=en" in seen["url"] and "token=token" in seen["url"]
    dimmed = page.locator(".hand-card.dimmed").first
    card = dimmed.get_attribute("data-card")
    dimmed.click()
    assert _visible_toast(page) == reason
    acts = [m for m in seen["sent"] if m["type"] == "act"]
    assert acts == [{"type": "act", "action": f"play {card}", "seq": state["seq"]}]


def test_without_the_servers_reason_the_refusal_names_the_action(
        page: Any, static_server: Server) -> None:
    _serve(page, static_server.base, _playing(only_legal=True),
           lambda m: _refusal("illegal", action=m["action"]) if m["type"] == "act" else None)
    dimmed = page.locator(".hand-card.dimmed").first
    card = dimmed.get_attribute("data-card")
    dimmed.click()
    assert _visible_toast(page) == f"“play {card}” is not allowed now."


def test_a_card_clicked_out_of_turn_says_whose_turn_it_is(
        page: Any, static_server: Server) -> None:
    seen = _serve(page, static_server.base, _playing(only_legal=False),
                  lambda m: _refusal("not_your_turn", seat=1, you=0)
                  if m["type"] == "act" else None)
    page.locator(".hand-card").first.click()
    assert _visible_toast(page) == f"It is {NAMES[1]}'s turn."
    assert [m["type"] for m in seen["sent"]].count("act") == 1


def test_a_stale_choice_is_dropped_quietly_and_the_page_asks_for_the_state(
        page: Any, static_server: Server) -> None:
    state = _playing(only_legal=True)
    seen = _serve(page, static_server.base, state,
                  lambda m: _refusal("stale", given=m["seq"], at=m["seq"] + 1)
                  if m["type"] == "act" else None)
    page.locator(".hand-card.legal").first.click()
    deadline = time.monotonic() + 10  # the page asks for the state: wait for that
    while "sync" not in [m["type"] for m in seen["sent"]] and time.monotonic() < deadline:
        page.wait_for_timeout(30)
    assert page.locator("#toast").is_hidden()
    assert [m["type"] for m in seen["sent"]][-2:] == ["act", "sync"]


def test_a_spectators_page_connects_in_its_language_without_a_token(
        browser: Any, static_server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    page = context.new_page()
    urls: list[str] = []

    def answer(ws: Any) -> None:
        urls.append(ws.url)
        ws.send(hello("four-play-last-to-a-trick"))

    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.goto(f"{static_server.base}/table/t-watch")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    deadline = time.monotonic() + 10  # the socket opens after the words are loaded
    while not urls and time.monotonic() < deadline:
        page.wait_for_timeout(30)
    context.close()
    assert urls and urls[0].endswith("/ws/t-watch?lang=fr")
