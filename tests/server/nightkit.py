"""A club night in the browser, for the night's tests (issue 32): the organiser's page on
a desktop, each player's on a phone, and what they do there (make the night, report a
table's result, read the night as the organiser's key does)."""

from __future__ import annotations

from typing import Any

from serverkit import Server
from test_server_browser import _page

PHONES = ({"width": 390, "height": 844}, {"width": 360, "height": 640})
"""The phones the players hold (each player's is its own browser context)."""


def phone(browser: Any, errors: list[str], size: int = 0) -> Any:
    """A page on a phone of its own (``size``: which of :data:`PHONES`)."""
    screen = PHONES[size % len(PHONES)]
    return _page(browser, errors, screen["width"], screen["height"], is_mobile=True,
                 has_touch=True)


def organiser_view(srv: Server, night_id: str, key: str) -> dict[str, Any]:
    """The night as the organiser's key reads it."""
    r = srv.http.get(f"/api/nights/{night_id}", headers={"X-Euchre-Key": key})
    assert r.status_code == 200, r.text
    night: dict[str, Any] = r.json()
    return night


def round_tables(srv: Server, night_id: str, key: str, rnd: int) -> list[dict[str, Any]]:
    """The tables of round ``rnd`` as the organiser's key reads them."""
    tables: list[dict[str, Any]] = organiser_view(srv, night_id, key)["rounds"][rnd - 1][
        "tables"]
    return tables


def make_night(host: Any, base: str, name: str, players: list[str],
               **fields: str) -> tuple[str, str]:
    """Make a night on the organiser's page (``/night/new``) with ``players`` typed in and
    the form's other ``fields`` (input name: value); the night's id and organiser's key."""
    host.goto(f"{base}/night/new")
    host.wait_for_selector("#night-form")
    host.fill("input[name=name]", name)
    host.fill("textarea[name=players]", "\n".join(players))
    for field, value in fields.items():
        host.fill(f"input[name={field}]", value)
    host.click("text=Make the night")
    host.wait_for_selector("#join-link")
    night_id: str = host.evaluate("location.pathname.split('/')[2]")
    key: str = host.evaluate(f"localStorage.getItem('euchre.nighthost.{night_id}')")
    return night_id, key


def join(page: Any, link: str, name: str) -> None:
    """Register at the night with its join link, as a player at the door does."""
    page.goto(link)
    page.wait_for_selector("#join-form")
    page.fill("input[name=name]", name)
    page.click("#join-form button")
    page.wait_for_selector(f"#you-title:text-is('{name}')")


def open_personal_link(host: Any, page: Any, base: str, name: str) -> None:
    """Open on ``page`` the personal link the organiser's page shows for ``name``."""
    link = host.get_attribute(f"a[aria-label^='{name}\\'s personal link']", "href")
    page.goto(base + link)
    page.wait_for_selector(f"#you-title:text-is('{name}')")


def enter(page: Any, ours: int, theirs: int, form: str = "#report-form") -> None:
    """Type the table's result on a player's phone and send it (``form``: the report's,
    or ``#correct-form`` for a correction)."""
    page.fill(f"{form} input[name=ours]", str(ours))
    page.fill(f"{form} input[name=theirs]", str(theirs))
    page.click(f"{form} button[type=submit]")


def post(server: Server, path: str, key: str, body: dict[str, Any] | None = None
         ) -> dict[str, Any]:
    """``POST path`` with a night's (or a season's) key; the answer, which must be a 200
    or a 201."""
    r = server.http.post(path, json=body or {}, headers={"X-Euchre-Key": key})
    assert r.status_code in (200, 201), r.text
    answer: dict[str, Any] = r.json()
    return answer

