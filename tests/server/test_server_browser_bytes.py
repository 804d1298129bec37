"""The pages' weight as a browser meets it (issue 35, bytes), in Debian's chromium: the
lobby loads none of the table's, the history's, the review's or the host's modules; the
table page loads its own when a table opens; the files come compressed; a reload takes
them from the browser's cache without asking the server.  (The figures: benchmarks/
page_bytes.py, docs/benchmarks.md.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server, running_server
from test_server_browser import CHROMIUM, _table_against_bots

from euchre.server.assets import IMMUTABLE

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium is not installed at /usr/bin/chromium "
           "(make test installs it with apt-get install chromium)")

ELSEWHERE = ("table.js", "history.js", "review.js", "host.js", "keys.js", "notice.js",
             "puzzles.js")
"""The modules of the table, the history, the review and the host's dialog."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("bytes") / "bytes.sqlite3",
                        bot_delay=0.01) as srv:
        yield srv


class Network:
    """The browser's own log of a page's requests (the DevTools protocol): each
    response's URL, its headers, and whether it came from the browser's cache without
    asking the server (from its memory or from the disk)."""

    def __init__(self, context: Any, page: Any) -> None:
        self.responses: list[dict[str, Any]] = []
        self.cached: set[str] = set()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", lambda e: self.responses.append(
            {**e["response"], "requestId": e["requestId"]}))

    def from_cache(self, response: dict[str, Any]) -> bool:
        return bool(response["requestId"] in self.cached or response.get("fromDiskCache")
                    or response.get("fromMemoryCache"))

    def static(self) -> list[dict[str, Any]]:
        """The answers for the app's files."""
        return [r for r in self.responses if "/static/" in r["url"]]

    def names(self) -> set[str]:
        return {r["url"].rsplit("/", 1)[-1] for r in self.static()}

    @staticmethod
    def header(response: dict[str, Any], name: str) -> str:
        return next((v for k, v in response["headers"].items() if k.lower() == name), "")


def _open(browser: Any, locale: str = "en-US") -> tuple[Any, Any, Network]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    page = context.new_page()
    return context, page, Network(context, page)


def test_the_lobby_loads_none_of_the_other_pages_modules(browser: Any, site: Server) -> None:
    context, page, net = _open(browser)
    page.goto(site.base + "/")
    page.wait_for_selector("#create")
    page.wait_for_load_state("networkidle")
    assert {"app.js", "lobby.js", "style.css"} <= net.names()
    assert not net.names() & set(ELSEWHERE), net.names()
    # a table made from the lobby loads the table's modules then, the review's only
    # when it is asked for
    _table_against_bots(page, site.base)
    page.wait_for_selector(".hand-card")
    assert {"table.js", "host.js", "keys.js"} <= net.names()
    assert "review.js" not in net.names() and "history.js" not in net.names()
    context.close()


def test_the_files_come_compressed_and_versioned_to_be_kept_a_year(
        browser: Any, site: Server) -> None:
    """In French: the English catalogue is too small to gain from compression."""
    context, page, net = _open(browser, "fr-FR")
    page.goto(site.base + "/")
    page.wait_for_selector("#create")
    page.wait_for_load_state("networkidle")
    page_answer = next(r for r in net.responses if r["url"] == site.base + "/")
    assert net.header(page_answer, "content-encoding") == "gzip"
    assert net.header(page_answer, "cache-control") == "no-cache"
    words = next(r for r in net.responses if "/api/i18n" in r["url"])
    assert net.header(words, "content-encoding") == "gzip"
    for answer in net.static():
        assert net.header(answer, "cache-control") == IMMUTABLE, answer["url"]
        if answer["mimeType"] in ("text/javascript", "text/css"):  # the icon is too small
            assert net.header(answer, "content-encoding") == "gzip", answer["url"]
    context.close()


@pytest.mark.parametrize("where", ["lobby", "table"])
def test_a_reload_takes_the_files_from_the_cache(
        browser: Any, site: Server, where: str) -> None:
    """Reloaded, the page asks the server again for the page itself and its words (a 304
    while unchanged), never for a versioned file."""
    context, page, net = _open(browser)
    page.goto(site.base + "/")
    ready = "#create"
    if where == "table":
        _table_against_bots(page, site.base)
        ready = ".hand-card"
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    first = len(net.responses)
    page.reload()
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    again = [r for r in net.responses[first:] if "/static/" in r["url"]]
    assert {r["url"].rsplit("/", 1)[-1] for r in again} >= {"app.js", "style.css"}
    assert all(net.from_cache(r) for r in again), [
        r["url"] for r in again if not net.from_cache(r)]
    words = [r for r in net.responses[first:] if "/api/i18n" in r["url"]]
    assert words and words[0]["status"] in (200, 304)
    context.close()
