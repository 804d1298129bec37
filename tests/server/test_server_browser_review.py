"""The expert's review of your decisions in a real browser: the game is played to its end
over the WebSocket, then the page opens at the game-over dialog, where a player (not a
spectator) opens the review; a refusal is shown in the dialog.

Playwright drives Debian's ``chromium``, as in :mod:`test_server_browser`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import Server, play_out, running_server
from test_server_browser import ARTIFACTS, CHROMIUM, _page

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")


@pytest.fixture
def finished(tmp_path: Path) -> Iterator[tuple[Server, dict[str, Any]]]:
    """A server with a two-handed game to 1 point played to its end: the table's
    creation answer (id, your token)."""
    with running_server(tmp_path / "review.sqlite3") as srv:
        answer = srv.create({"players": 2, "target": 1},
                            [{"kind": "you", "name": "Pat"}, {"kind": "bot", "bot": "basic"}])
        play_out(srv, answer["id"], answer["token"])
        yield srv, answer



def _open_table(browser: Any, errors: list[str], base: str, table: str,
                token: str | None) -> Any:
    """The table's page, as its player (already seated in this browser) or a spectator."""
    page = _page(browser, errors)
    if token is not None:
        page.add_init_script(f"localStorage.setItem('euchre.joined.{table}', '1')")
    page.goto(f"{base}/table/{table}" + (f"?token={token}" if token else ""))
    page.wait_for_selector("#overlay .game-over")
    return page


def test_a_player_opens_the_review_of_their_decisions_after_the_game(
        finished: tuple[Server, dict[str, Any]], browser: Any) -> None:
    server, answer = finished
    errors: list[str] = []
    page = _open_table(browser, errors, server.base, answer["id"], answer["token"])
    asked: list[Any] = []
    page.on("request", lambda r: asked.append(r) if r.url.endswith("/review") else None)
    page.click("#review-btn")
    page.wait_for_selector(".review-decision", timeout=60_000)
    decisions = page.locator(".review-decision")
    assert decisions.count() >= 1
    first = decisions.first.inner_text()
    assert "You:" in first and ("The expert" in first)
    assert "decision" in page.locator(".review-totals").inner_text()
    # a mistake, if any, is marked; the token went in a header, not the address
    assert page.locator(".review-decision.mistake").count() == page.locator(
        ".review-mistake").count()
    assert asked and "token" not in asked[0].url
    assert asked[0].headers.get("x-seat-token") == answer["token"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "browser-review.png"))
    # back to the game's end, and the review again: kept, the same
    page.click("#review-back")
    page.wait_for_selector("#overlay .game-over")
    page.click("#review-btn")
    page.wait_for_selector(".review-decision")
    assert page.locator(".review-decision").first.inner_text() == first
    # another language chosen meanwhile: the same review in its words
    page.select_option("#language", "fr")
    page.wait_for_selector("#overlay h2:has-text('Vos décisions')")
    assert page.locator(".review-decision").count() == decisions.count()
    assert errors == []


def test_a_spectator_is_offered_no_review(
        finished: tuple[Server, dict[str, Any]], browser: Any) -> None:
    server, answer = finished
    errors: list[str] = []
    page = _open_table(browser, errors, server.base, answer["id"], None)
    assert page.locator("#review-btn").count() == 0
    assert page.locator("#overlay a[download]").count() == 1  # the same dialog otherwise
    assert errors == []


def test_a_refused_review_is_said_in_the_dialog(
        finished: tuple[Server, dict[str, Any]], browser: Any) -> None:
    server, answer = finished
    errors: list[str] = []
    page = _open_table(browser, errors, server.base, answer["id"], answer["token"])
    body = json.dumps({"detail": "too many hints", "code": "rate_limited",
                       "params": {"what": "hints", "count": 1, "seconds": 60, "wait": 60}})
    page.route("**/review", lambda route: route.fulfill(
        status=429, content_type="application/json", body=body))
    page.click("#review-btn")
    page.wait_for_selector(".review-body .error")
    assert "Too many reviews" in page.locator(".review-body .error").inner_text()
    assert page.locator(".review-decision").count() == 0
    assert errors == []
