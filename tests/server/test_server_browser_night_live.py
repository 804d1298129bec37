"""A club night's pages followed live, in a real browser (issue 32, items 2, 4 and 6): the
projector's standings and a player's phone change as the results come in without
reading the night again (the night's WebSocket brings each change); the organiser sees
the night ahead as a chart and each phone its coming rounds; a player who sits out with
the policy "a bot plays" is told what the bot in their place scored; a season's page
shows its leaderboard with each player's rating, and its organiser adds a night they
organised in this browser.  On a 360x640 phone and a 1280x800 desktop.

Playwright drives Debian's ``chromium``; screenshots go to ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nightkit import post
from serverkit import Server, running_server
from test_server_browser import ARTIFACTS, CHROMIUM, _page
from test_server_browser_a11y import serious_faults

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")

PHONE = {"width": 360, "height": 640}
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path / "live.sqlite3") as srv:
        yield srv


def _phone(browser: Any, errors: list[str]) -> Any:
    return _page(browser, errors, PHONE["width"], PHONE["height"], is_mobile=True,
                 has_touch=True)


def _reads_of_the_night(page: Any, night_id: str) -> list[str]:
    """Every request of this page that reads the night over HTTP, from now on."""
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url)
            if r.method == "GET" and r.url.split("?")[0].endswith(f"/api/nights/{night_id}")
            else None)
    return reads


def test_the_projector_and_the_phones_follow_the_night_live_and_show_the_night_ahead(
        server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    night = server.http.post("/api/nights", json={
        "name": "Legion hall", "players": NAMES, "rounds": 4,
        "scoring": {"sit_out": "bot"}}).json()
    nid, host = night["id"], night["host_key"]
    tokens = night["tokens"]
    base = server.base

    organiser = _page(browser, errors)
    organiser.goto(f"{base}/night/{nid}?key={host}")
    organiser.wait_for_selector("#ahead-title")
    # the whole night ahead, round by round: 4 rounds planned, 2 tables and 1 out each
    assert organiser.locator(".night-ahead table.chart-round").count() == 4
    assert organiser.locator(".night-ahead table.chart-round").first.locator(
        "tbody tr").count() == 3
    assert serious_faults(organiser) == []

    projector = _page(browser, errors)
    projector.goto(f"{base}/night/{nid}/standings")
    projector.wait_for_selector(".projector h1")
    phone = _phone(browser, errors)
    phone.goto(f"{base}/night/{nid}?key={tokens['1']}")
    phone.wait_for_selector("#coming-title")
    assert phone.locator(".coming-rounds li").count() == 4
    phone.screenshot(path=str(ARTIFACTS / "night-live-phone-coming.png"), full_page=True)
    assert serious_faults(phone) == []
    projector_reads = _reads_of_the_night(projector, nid)
    phone_reads = _reads_of_the_night(phone, nid)

    rnd = post(server, f"/api/nights/{nid}/rounds", host)
    # the phone shows the round as soon as it is seated, without reading the night
    phone.wait_for_selector("#you-title ~ .big-line")
    assert phone.locator(".coming-rounds li").count() == 3  # round 1 is no longer ahead
    for t in rnd["tables"]:
        (a, _), (c, _) = [[p["number"] for p in side] for side in t["sides"]]
        seq = post(server, f"/api/nights/{nid}/rounds/1/tables/{t['table']}/report",
                    tokens[str(a)], {"points": [6, 2]})["reports"][-1]["seq"]
        post(server, f"/api/nights/{nid}/rounds/1/tables/{t['table']}/confirm",
              tokens[str(c)], {"seq": seq})
    projector.wait_for_function(
        "() => document.querySelector('.projector-reported')?.textContent.includes('2 of 2')")
    post(server, f"/api/nights/{nid}/rounds/1/end", host)
    nine = "() => document.querySelectorAll('.standings tbody tr').length === 9"
    projector.wait_for_function(nine)
    phone.wait_for_function(nine)
    assert projector_reads == [] and phone_reads == []  # every change came by the socket
    projector.screenshot(path=str(ARTIFACTS / "night-live-projector.png"))

    # the player who sat out: what the bot in their place scored, by the rules of the night
    out = rnd["out"][0]["number"]
    ended = server.http.get(f"/api/nights/{nid}").json()
    scored = ended["rounds"][0]["out"][0]["stand_in"]
    sitter = _phone(browser, errors)
    sitter.goto(f"{base}/night/{nid}?key={tokens[str(out)]}")
    sitter.wait_for_selector(".sit-out")
    assert sitter.locator(".sit-out").inner_text() == f"The bot in your place scored {scored}."
    sitter.screenshot(path=str(ARTIFACTS / "night-live-phone-sitter.png"), full_page=True)
    organiser.wait_for_function(
        "() => document.querySelectorAll('.night-ahead table.chart-round').length === 3")
    organiser.screenshot(path=str(ARTIFACTS / "night-live-organiser-ahead.png"),
                         full_page=True)
    assert errors == []


def test_a_seasons_page_shows_its_leaderboard_with_ratings_and_its_organiser_adds_a_night(
        server: Server, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    ids, keys = [], []
    for name in ("Week 1", "Week 2"):
        night = server.http.post("/api/nights", json={"name": name, "players": NAMES[:8]}).json()
        ids.append(night["id"])
        keys.append(night["host_key"])
        rnd = post(server, f"/api/nights/{night['id']}/rounds", night["host_key"])
        for t in rnd["tables"]:
            post(server, f"/api/nights/{night['id']}/rounds/1/tables/{t['table']}/settle",
                  night["host_key"], {"points": [t["table"] + 4, 3]})
        post(server, f"/api/nights/{night['id']}/rounds/1/end", night["host_key"])
    desk = _page(browser, errors)
    desk.goto(f"{server.base}/season/new")
    desk.fill("input[name=name]", "Legion league")
    desk.click("text=Make the season")
    desk.wait_for_selector("#season-add-title")
    season_id = desk.evaluate("location.pathname.split('/')[2]")
    assert desk.locator(".season-nights").count() == 0  # no night yet
    # this browser organised week 2: it is offered to the season's organiser here
    desk.evaluate(f"localStorage.setItem('euchre.nighthost.{ids[1]}', '{keys[1]}')")
    desk.reload()
    desk.wait_for_selector(f"[data-night='{ids[1]}']")
    desk.click(f"[data-night='{ids[1]}']")
    desk.wait_for_selector(".season-nights li")
    board = desk.locator(".season-board tbody tr")
    assert board.count() == 8
    # each line: place, name, points, nights, rounds, won, average, rating (a number)
    first = board.first.locator("td").all_inner_texts()
    assert first[2] == "1" and first[3] == "1" and first[-1] not in ("", "–")
    assert serious_faults(desk) == []
    desk.screenshot(path=str(ARTIFACTS / "season-desktop.png"), full_page=True)
    phone = _phone(browser, errors)
    phone.goto(f"{server.base}/season/{season_id}")
    phone.wait_for_selector(".season-board")
    assert phone.locator("#season-add-title").count() == 0  # no key here: no organiser's part
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(ARTIFACTS / "season-phone.png"), full_page=True)
    assert errors == []
