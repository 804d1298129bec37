"""What a browser is told to keep, and in what form (issue 35, bytes): the app's files under
a versioned URL kept a year, the page and the catalogues asked again and answered 304 while
unchanged, GET answers compressed, and the answers that carry a seat's token never.

The same in Debian's chromium: the lobby loads none of the table's modules, the table
page loads its own when it opens, and a reload takes the files from the browser's cache
without asking the server (tests/server/test_server_browser_bytes.py)."""

from __future__ import annotations

import re

import pytest
from serverkit import Server

from euchre.server.assets import IMMUTABLE, REVALIDATE, static_version

GZIP = {"accept-encoding": "gzip"}
BOT = {"kind": "bot", "bot": "random"}


def _version(server: Server) -> str:
    page = server.http.get("/").text
    found = re.search(r'src="/static/([0-9a-f]+)/app\.js"', page)
    assert found is not None, page
    return found[1]


def test_the_page_names_its_files_under_the_folders_version(server: Server) -> None:
    """Every file the page names (style, icon, script) is under one version, the digest
    of the static folder; no unversioned /static/ URL is left in it."""
    page = server.http.get("/").text
    version = _version(server)
    assert version == static_version()
    urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert len(urls) == 3 and all(u.startswith(f"/static/{version}/") for u in urls)


@pytest.mark.parametrize("name", ["app.js", "table.js", "style.css", "favicon.svg"])
def test_a_versioned_file_is_kept_a_year_and_never_asked_again(
        server: Server, name: str) -> None:
    r = server.http.get(f"/static/{_version(server)}/{name}")
    assert r.status_code == 200 and r.headers["cache-control"] == IMMUTABLE
    again = server.http.get(f"/static/{_version(server)}/{name}",
                            headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE


def test_a_version_the_server_does_not_hold_is_not_found(server: Server) -> None:
    """Never another version's URL answered with these files (a browser would keep
    them a year under the wrong name)."""
    assert server.http.get("/static/000000000000/app.js").status_code == 404
    assert server.http.get(f"/static/{_version(server)}/nothing.js").status_code == 404
    assert server.http.get(f"/static/{_version(server)}/../app.py").status_code == 404


def test_the_unversioned_files_are_asked_again_before_each_use(server: Server) -> None:
    r = server.http.get("/static/app.js")
    assert r.status_code == 200 and r.headers["cache-control"] == REVALIDATE
    assert server.http.get("/static/app.js", headers={
        "if-none-match": r.headers["etag"]}).status_code == 304


@pytest.mark.parametrize("path", ["/", "/table/abcdefgh", "/history/abcdefgh/1",
                                  "/api/i18n?lang=fr", "/api/i18n"])
def test_the_page_and_its_words_are_asked_again_and_a_304_while_unchanged(
        server: Server, path: str) -> None:
    """The page and the catalogues keep their URL across releases: the browser asks
    again each time (no-cache) and the server answers 304, without a body, while its
    copy is the same."""
    r = server.http.get(path, headers={"accept-language": "de"})
    assert r.status_code == 200 and r.headers["cache-control"] == REVALIDATE
    again = server.http.get(path, headers={"accept-language": "de",
                                           "if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    if path == "/api/i18n":  # the browser's language chose the catalogue
        assert "accept-language" in r.headers["vary"].lower()
        other = server.http.get(path, headers={"accept-language": "da",
                                               "if-none-match": r.headers["etag"]})
        assert other.status_code == 200 and other.json()["lang"] == "da"


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/i18n?lang=fr", "/api/options"])
def test_get_answers_are_compressed_for_a_browser_that_accepts_it(
        server: Server, path: str) -> None:
    if path.startswith("/static/"):
        path = path.replace("/static/", f"/static/{_version(server)}/")
    plain = server.http.get(path, headers={"accept-encoding": "identity"})
    packed = server.http.get(path, headers=GZIP)
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in packed.headers["vary"].lower()
    assert packed.content == plain.content  # the client decodes it
    assert int(packed.headers["content-length"]) < len(plain.content) / 2


def test_an_answer_carrying_a_seat_token_is_never_compressed(server: Server) -> None:
    """A table's creation and a claimed invitation answer a seat token next to names
    people chose: compressed, their length could give the token away to someone who
    watches the encrypted traffic and chooses a name."""
    made = server.http.post("/api/tables", headers=GZIP, json={
        "rules": {"players": 4}, "private": False,
        "seats": [{"kind": "you", "name": "Ann " * 9}, {"kind": "friend"}, BOT, BOT]})
    assert made.status_code == 201 and "content-encoding" not in made.headers
    invite = made.json()["invites"][0]["invite"]
    joined = server.http.post(f"/api/tables/{made.json()['id']}/join", headers=GZIP,
                              json={"invite": invite, "name": "Bo " * 9})
    assert joined.status_code == 200 and "content-encoding" not in joined.headers
