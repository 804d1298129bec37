"""The replay of a finished game on a phone (issue 30, item 5), in Debian's chromium at
390×844: the trump is shown clear of every seat, the open hands are large enough to read,
the deals' heading names no keys a phone has not got, and a partnership game's scores
are one per side, with whose they are.

The page is the server's; its replay (``/api/tables/ID/matches/1/replay``) is answered by
the test with the frames of a game played through the engine (:func:`replay_frames`)."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server
from test_server_browser import ARTIFACTS, CHROMIUM
from test_server_browser_layout import browser, static_server

from euchre.game import Game
from euchre.records import game_record
from euchre.rules import Rules
from euchre.server.history import replay_frames

__all__ = ["browser", "static_server"]  # the fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed at /usr/bin/chromium "
           "(make test installs it with apt-get install chromium)")

NAMES = ["Annabelle", "Bo", "Cyrille", "Dimitri", "Ed"]


def _replay(players: int) -> dict[str, Any]:
    game = Game(Rules(players=players, target=5, stick_the_dealer=True), seed=11)
    while not game.is_over:
        game.apply(game.deal.legal_action_ids()[0])
    return {"id": "abcdefgh", "name": "", "match": 1,
            "games": [replay_frames(game_record(game, NAMES[:players]))]}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                  has_touch=True, is_mobile=True)
    yield context
    context.close()


def _open(context: Any, base: str, data: dict[str, Any]) -> Any:
    page = context.new_page()
    page.route("**/api/tables/abcdefgh/matches/1/replay", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(data)))
    page.goto(base + "/history/abcdefgh/1")
    page.wait_for_selector(".history-seat")
    shown = page.locator(".history-page .chip:visible")
    for _ in range(40):  # on through the bidding until trump is named
        if shown.count():
            break
        frame = page.locator("#h-frame").input_value()
        page.locator("#h-next").click()
        page.wait_for_function("(f) => document.querySelector('#h-frame').value !== f", arg=frame)
    assert shown.count()
    return page


def _box(page: Any, selector: str) -> list[dict[str, float]]:
    return [page.locator(selector).nth(i).bounding_box()
            for i in range(page.locator(selector).count())]


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_on_a_phone_the_trump_is_shown_clear_of_every_seat(
        phone: Any, static_server: Server, players: int) -> None:
    page = _open(phone, static_server.base, _replay(players))
    chips = [b for b in _box(page, ".history-page .chip") if b is not None]
    assert len(chips) == 1, chips  # one trump shown (the other place is not displayed)
    seats = _box(page, ".history-seat")
    assert not any(_overlap(chips[0], seat) for seat in seats)
    assert page.locator(".history-page .chip:visible").filter(has_text="Trump").count() == 1
    page.screenshot(path=str(ARTIFACTS / f"replay-phone-{players}.png"))


@pytest.mark.parametrize("players", [3, 4])
def test_on_a_phone_each_card_of_an_open_hand_shows_its_corner(
        phone: Any, static_server: Server, players: int) -> None:
    """Every card of every open hand is at least 30 px wide, and at least 12 px of each
    (its corner: rank and suit) are not covered by the next one, a three-handed maker's
    ten cards (the dummy taken up, before the discards) too."""
    page = _open(phone, static_server.base, _replay(players))
    page.screenshot(path=str(ARTIFACTS / f"replay-phone-hands-{players}.png"))
    hands = page.locator(".open-hand")
    for h in range(hands.count()):
        hand = hands.nth(h).locator(".card")
        cards = [hand.nth(i).bounding_box() for i in range(hand.count())]
        assert cards and all(c["width"] >= 30 for c in cards)
        steps = [round(b["x"] - a["x"], 1) for a, b in itertools.pairwise(cards)]
        assert all(step >= 12 for step in steps), (h, steps)


def test_on_a_phone_the_deals_heading_names_no_keys(phone: Any, static_server: Server) -> None:
    page = _open(phone, static_server.base, _replay(4))
    heading = page.locator(".side .log-title")
    assert heading.inner_text().strip() == "Deals"


@pytest.mark.parametrize(("players", "scores"), [(4, 2), (3, 3)])
def test_the_deals_scores_are_per_side_in_a_partnership_game_and_say_whose(
        phone: Any, static_server: Server, players: int, scores: int) -> None:
    """Four-handed, partners share a score: each deal shows two numbers, in the order the
    line above the list names the sides; three-handed, one per player."""
    data = _replay(players)
    page = _open(phone, static_server.base, data)
    order = page.locator(".score-order").inner_text()
    if players == 4:
        assert "Annabelle & Cyrille – Bo & Dimitri" in order
    else:
        assert "Annabelle – Bo – Cyrille" in order
    deals = data["games"][0]["deals"]
    for i, deal in enumerate(deals):
        text = page.locator(".deal-link").nth(i).inner_text()
        found = re.search(r"\(([\d–]+)\)\s*$", text)
        assert found is not None, text
        shown = [int(x) for x in found[1].split("–")]
        after = deal["score_after"]
        assert shown == (after[:2] if players == 4 else after) and len(shown) == scores
