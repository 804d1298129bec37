"""Every screen of a club night in English, French, German and Danish, on a 360x640 phone
and a 1280x800 desktop (issue 32, item 8): the new night's form, the organiser's page,
a player's phone (a result to confirm), the phone of one who sits out, the projector's
standings, the printouts and the season's page.  Each is worded in the page's language
(no English phrase of the web catalog left), fits the screen's width, and keeps clear of
axe-core's serious faults.

Playwright drives Debian's ``chromium``; screenshots go to ``artifacts/night-i18n/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from nightkit import post
from serverkit import Server, untranslated
from test_server_browser import ARTIFACTS, CHROMIUM, _page, module_fixtures
from test_server_browser_a11y import serious_faults

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")

LOCALES = {"en": "en-US", "fr": "fr-FR", "de": "de-DE", "da": "da-DK"}
SIZES = [(360, 640), (1280, 800)]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
SHOTS = ARTIFACTS / "night-i18n"
WIDER = """(width) => [...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > width)
  .slice(-3).map((el) => `${el.tagName}.${el.className}: ${el.textContent.slice(0, 40)}`)"""
"""The last elements (the innermost) that reach past the screen's right edge."""

server, browser = module_fixtures("night-i18n")


@pytest.fixture(scope="module")
def night(server: Server) -> dict[str, Any]:
    """A night of nine in its second round (one sits out each round): round 1 settled and
    over; in round 2, table 1's result entered and waiting for the other team; the night
    in a season.  The keys of the organiser, of the player who is to confirm, and of the
    one sitting out."""
    made = server.http.post("/api/nights", json={"name": "Legion hall", "players": NAMES})
    assert made.status_code == 201, made.text
    nid, host = made.json()["id"], made.json()["host_key"]
    first = post(server, f"/api/nights/{nid}/rounds", host)
    for t in first["tables"]:
        post(server, f"/api/nights/{nid}/rounds/1/tables/{t['table']}/settle", host,
              {"points": [t["table"] + 5, 4]})
    post(server, f"/api/nights/{nid}/rounds/1/end", host)
    second = post(server, f"/api/nights/{nid}/rounds", host)
    tokens = server.http.get(f"/api/nights/{nid}",
                             headers={"X-Euchre-Key": host}).json()["tokens"]
    (a, _b), (c, _d) = ([p["number"] for p in side] for side in second["tables"][0]["sides"])
    post(server, f"/api/nights/{nid}/rounds/2/tables/1/report", tokens[str(a)],
          {"points": [7, 3]})
    season = server.http.post("/api/seasons", json={"name": "Winter league"}).json()
    post(server, f"/api/seasons/{season['id']}/nights", season["host_key"],
          {"night": nid, "key": host})
    return {"id": nid, "host": host, "confirmer": tokens[str(c)],
            "sitter": tokens[str(second["out"][0]["number"])], "season": season["id"]}


def _screens(night: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Each screen: its name, its path, and what shows once it is drawn."""
    nid = night["id"]
    return [
        ("new", "/night/new", "#night-form"),
        ("organiser", f"/night/{nid}?key={night['host']}", "#end-round"),
        ("confirm", f"/night/{nid}?key={night['confirmer']}", "#you-title"),
        ("sitter", f"/night/{nid}?key={night['sitter']}", "#you-title"),
        ("projector", f"/night/{nid}/standings", ".projector h1"),
        ("print", f"/night/{nid}/print?key={night['host']}", ".score-card"),
        ("season", f"/season/{night['season']}", ".season-board"),
    ]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_screen_of_a_night_speaks_the_pages_language_and_fits(
        server: Server, browser: Any, night: dict[str, Any], lang: str,
        size: tuple[int, int]) -> None:
    """Issue 32, item 8: each screen of the night in ``lang`` at ``size``: no English
    phrase of the page left (in another language), nothing wider than the screen, no
    serious accessibility fault, no script error."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    phone = size[0] < 600
    page = _page(browser, errors, size[0], size[1], locale=LOCALES[lang], is_mobile=phone,
                 has_touch=phone)
    page.add_init_script(f"localStorage.setItem('euchre.lang', '{lang}')")
    for name, path, drawn in _screens(night):
        page.goto(server.base + path)
        page.wait_for_selector(drawn)
        assert page.evaluate("document.documentElement.lang") == lang, name
        body = page.inner_text("body")
        assert untranslated(body, lang) == [], name
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], (
            name, page.evaluate(WIDER, size[0]))
        if name != "print":  # the printouts are paper: their screen view is a preview
            assert serious_faults(page) == [], name
        page.screenshot(path=str(SHOTS / f"{name}-{lang}-{size[0]}x{size[1]}.png"),
                        full_page=True)
    page.context.close()
    assert errors == []
