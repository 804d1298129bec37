"""What the server says about itself, and to whom: the security headers on every answer,
the host names it answers to (DNS rebinding), the proxies it believes, the bound on a
request's headers (slowloris), and a text frame that is not UTF-8.

The uvicorn-side parts (the header deadline, the WebSocket protocol, the proxies, no
``server`` banner) are those of ``euchre serve``: they are tested on ``python -m
euchre.server`` processes on loopback ports.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from serverkit import Server, free_port, running_server, server_process
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosedError, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from euchre.cli import app as cli_app
from euchre.server import __main__ as server_main
from euchre.server.security import (
    CONTENT_SECURITY_POLICY,
    SECURITY_HEADERS,
    GuardedApp,
    HostCheck,
    served_hosts,
)

STATIC = Path(__file__).resolve().parents[2] / "euchre" / "server" / "static"
CHROMIUM = Path("/usr/bin/chromium")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"
BOTS = [{"kind": "you"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The app on uvicorn in a thread, on SQLite (what is tested here is the same on
    PostgreSQL)."""
    with running_server(tmp_path / "euchre.sqlite3") as srv:
        yield srv


def _policy() -> dict[str, list[str]]:
    directives = [d.split() for d in CONTENT_SECURITY_POLICY.split(";")]
    return {d[0]: d[1:] for d in directives}


def _has_security_headers(headers: Any) -> bool:
    return all(headers.get(name.decode()) == value.decode() for name, value in SECURITY_HEADERS)


# -- the headers --------------------------------------------------------------------------
def test_the_policy_allows_only_the_servers_own_scripts_and_no_frame() -> None:
    policy = _policy()
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval
    assert policy["connect-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert "'unsafe-eval'" not in CONTENT_SECURITY_POLICY
    headers = dict(SECURITY_HEADERS)
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"referrer-policy"] == b"no-referrer"
    assert headers[b"x-frame-options"] == b"DENY"


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/", 200),
    ("GET", "/table/abc", 200),
    ("GET", "/history/abc/1", 200),
    ("GET", "/rules/fr", 200),
    ("GET", "/rules/xx", 404),
    ("GET", "/static/app.js", 200),
    ("GET", "/static/nothing.js", 404),
    ("GET", "/api/options", 200),
    ("GET", "/api/openapi.json", 200),
    ("GET", "/api/tables/nope", 404),
    ("GET", "/api/tables?offset=-1", 422),
    ("POST", "/api/tables", 422),
    ("GET", "/nowhere", 404),
    ("DELETE", "/", 405),
])
def test_every_answer_carries_the_security_headers(
        server: Server, method: str, path: str, status: int) -> None:
    r = server.http.request(method, path)
    assert r.status_code == status
    assert _has_security_headers(r.headers), dict(r.headers)


def test_a_server_error_carries_the_security_headers_too() -> None:
    app = GuardedApp()

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("boom")

    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as client:
        r = client.get("/boom")
    assert r.status_code == 500
    assert _has_security_headers(r.headers)


def test_a_refused_websocket_handshake_carries_the_security_headers(server: Server) -> None:
    tid = server.create({"players": 2}, BOTS)["id"]
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{server.ws_base}/ws/{tid}", origin=Origin("https://evil.example"),
                open_timeout=10)
    response = refused.value.response
    assert response.status_code == 403
    assert _has_security_headers(response.headers)


def test_the_rules_pages_one_inline_style_is_the_one_the_policy_allows(server: Server) -> None:
    page = server.http.get("/rules/en").text
    styles = re.findall(r"<style>(.*?)</style>", page, re.DOTALL)
    assert len(styles) == 1
    digest = base64.b64encode(hashlib.sha256(styles[0].encode()).digest()).decode()
    assert _policy()["style-src"] == ["'self'", f"'sha256-{digest}'"]
    assert "<script" not in page and " style=" not in page


def test_the_pages_hold_nothing_the_policy_refuses() -> None:
    for path in [*sorted(STATIC.glob("*.js")), STATIC / "index.html"]:
        text = path.read_text(encoding="utf-8")
        # styles set in markup (innerHTML) are refused: data-style goes through the CSSOM
        assert not re.search(r"""(?<![\w-])style=["'$]""", text), path.name
        assert not re.search(r"\bon[a-z]+=[\"']", text), path.name  # inline handlers
        assert not re.search(r"new Function\(|\beval\(|javascript:|data:", text), path.name
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/app.js">']


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at "
                    "/usr/bin/chromium (make test installs it with apt-get install chromium)")
def test_the_pages_work_in_a_browser_under_the_policy(tmp_path: Path) -> None:
    from test_server_browser import CHOICES, _click_something, _page, _table_against_bots, chromium

    with running_server(tmp_path / "b.sqlite3", bot_delay=0.01) as srv, chromium() as browser:
        errors: list[str] = []
        csp: list[str] = []
        page = _page(browser, errors)
        page.on("console", lambda m: csp.append(m.text)
                if "Content Security Policy" in m.text else None)
        _table_against_bots(page, srv.base)  # the table's WebSocket opens
        rng = random.Random(3)
        deadline = time.monotonic() + 60
        while not page.locator(".trick-card").count() and time.monotonic() < deadline:
            if not _click_something(page, rng):
                page.wait_for_timeout(30)
        # the styles computed by the scripts are set through the CSSOM, and apply
        assert page.evaluate("""() => {
            const hand = document.querySelector(".hand");
            return getComputedStyle(hand).getPropertyValue("--count").trim()
              === String(hand.querySelectorAll(".hand-card").length);
        }""")
        assert page.evaluate(
            "getComputedStyle(document.querySelector('.trick-card')).zIndex") != "auto"
        page.wait_for_selector(CHOICES)
        page.click("#tool-hint")
        page.wait_for_selector(".hint-in-side .hint-bar span")
        assert page.evaluate("""[...document.querySelectorAll(".hint-bar span")]
            .every((bar) => bar.style.width.endsWith("%"))""")
        # the French plural rule, read without eval: 0 cards is singular in French
        said = page.evaluate("""async () => {
            const i18n = await import("/static/i18n.js");
            await i18n.loadLanguage("fr");
            return i18n.ngettext("discard {count} more card", "discard {count} more cards", 0);
        }""")
        assert said == "écartez encore {count} carte"
        # the rules page's own style applies
        page.goto(srv.base + "/rules/en")
        assert page.evaluate("getComputedStyle(document.body).maxWidth") == "736px"
        page.goto(srv.base + "/")
        page.wait_for_selector("#create")
    assert csp == [] and errors == []


# -- the host names ------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["localhost", "localhost:1234", "127.0.0.1", "[::1]:8000",
                                  "LOCALHOST.", None])
def test_loopback_names_are_always_answered(server: Server, host: str | None) -> None:
    headers = {} if host is None else {"host": host}
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"GET /api/options HTTP/1.0\r\n"
                     + b"".join(f"{k}: {v}\r\n".encode() for k, v in headers.items())
                     + b"\r\n")
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def test_a_request_for_another_host_is_refused_with_bad_host(server: Server) -> None:
    r = server.http.get("/api/options", headers={"host": "evil.example"})
    assert r.status_code == 400
    assert r.json() == {"detail": "this server does not answer to the host name "
                                  "'evil.example': a page of another site, or a name its "
                                  "operator has not allowed (--allow-host)",
                        "code": "bad_host", "params": {"host": "evil.example"}}
    assert _has_security_headers(r.headers)
    made = server.http.post("/api/tables", headers={"host": "evil.example:8000"},
                            json={"rules": {"players": 2}, "seats": BOTS})
    assert made.status_code == 400
    assert server.http.get("/api/tables").json()["open_total"] == 0  # nothing made
    long = server.http.get("/", headers={"host": "x" * 5000 + ".example"})
    assert long.status_code == 400 and len(long.content) < 600


def _rebinding_socket(port: int, path: str) -> ClientConnection:
    """A WebSocket as a page of evil.example, whose name resolves to 127.0.0.1, opens it:
    ``Host: evil.example:PORT`` and ``Origin: http://evil.example:PORT``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return connect(f"ws://evil.example:{port}{path}", sock=sock,
                   origin=Origin(f"http://evil.example:{port}"), open_timeout=10)


def test_a_dns_rebinding_page_cannot_open_a_websocket(server: Server) -> None:
    answer = server.create({"players": 2}, BOTS)
    with pytest.raises(InvalidStatus) as refused:
        _rebinding_socket(server.port, f"/ws/{answer['id']}?token={answer['token']}")
    response = refused.value.response
    assert response.status_code == 400
    assert json.loads(response.body or b"{}")["code"] == "bad_host"
    assert _has_security_headers(response.headers)


def test_the_names_an_operator_allows_are_answered_and_no_other(tmp_path: Path) -> None:
    with running_server(tmp_path / "a.sqlite3", hosts=["cards.example", "*.club.example"]) as srv:
        for host, status in [("cards.example", 200), ("Cards.Example:443", 200),
                             ("a.club.example", 200), ("a.b.club.example:80", 200),
                             ("club.example", 400), ("cards.example.evil", 400),
                             ("evil.example", 400), ("127.0.0.1:9", 200)]:
            assert srv.http.get("/api/options", headers={"host": host}).status_code == status
        tid = srv.create({"players": 2}, BOTS)["id"]
        sock = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        with connect(f"ws://cards.example/ws/{tid}", sock=sock,
                     origin=Origin("https://cards.example"), open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    with running_server(tmp_path / "b.sqlite3", hosts=["*"]) as srv:
        assert srv.http.get("/api/options", headers={"host": "anything.example"}).is_success


def test_on_every_address_ip_addresses_and_the_machines_name_are_answered() -> None:
    every = HostCheck(served_hosts("0.0.0.0"))
    machine = socket.gethostname().lower()
    assert every.allows("192.168.1.20:8000") and every.allows("[fe80::1]:8000")
    assert every.allows(f"{machine}:8000") and every.allows(f"{machine}.local")
    assert not every.allows("evil.example")
    one = HostCheck(served_hosts("192.168.1.20", ["cards.example"]))
    assert one.allows("192.168.1.20:8000") and one.allows("cards.example")
    assert not one.allows("192.168.1.21") and not one.allows("evil.example")


def test_bad_host_proxy_and_timeout_options_exit_with_one_line(
        tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def serve(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a bad option was let through to serve")

    monkeypatch.setattr("euchre.server.serve", serve)
    db = str(tmp_path / "x.sqlite3")
    for option, value, said in [
            ("--allow-host", "http://cards.example",
             "--allow-host takes a host name such as cards.example, not "
             "'http://cards.example'"),
            ("--trusted-proxy", "nginx",
             "--trusted-proxy takes an IP address or a network such as 172.28.0.0/16, "
             "not 'nginx'"),
            ("--header-timeout", "0", "--header-timeout is a number of seconds above 0, not 0")]:
        result = CliRunner().invoke(cli_app, ["serve", "--db", db, option, value])
        assert result.exit_code == 2 and said in result.output, result.output
        with pytest.raises(SystemExit) as stopped:
            server_main.main(["--db", db, option, value])
        assert stopped.value.code == 2
        assert said in capsys.readouterr().err
    assert not Path(db).exists()  # refused before the database is opened


def test_every_option_of_euchre_serve_is_in_the_options_tables() -> None:
    import typer

    serve = typer.main.get_command(cli_app).commands["serve"]  # type: ignore[attr-defined]
    rows = [line for line in DOCS.read_text(encoding="utf-8").splitlines()
            if line.startswith("|")]
    documented = set(re.findall(r"`(--[a-z-]+)", "\n".join(rows)))
    options = {opt for p in serve.params for opt in p.opts if opt.startswith("--")}
    assert options - {"--help"} <= documented, sorted(options - documented)


# -- the server process: proxies, the header deadline, the banner, UTF-8 -----------------
@contextlib.contextmanager
def _process(tmp_path: Path, *args: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m euchre.server`` with ``args``, and its ``host:port``."""
    port = free_port()
    with server_process(tmp_path / f"p{port}.sqlite3", port, 0.0, *args) as proc:
        yield proc, f"127.0.0.1:{port}"


def _read_all(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (b"" if it resets it)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def _closed_by_server(sock: socket.socket, trickle: bytes = b"") -> bool:
    """Send ``trickle`` a byte at a time (none: stay silent) until the server closes the
    connection; False if it is still open after 20 seconds."""
    deadline = time.monotonic() + 20
    sock.settimeout(0.2)
    i = 0
    while time.monotonic() < deadline:
        try:
            if trickle:
                sock.sendall(trickle[i % len(trickle):i % len(trickle) + 1])
                i += 1
            if sock.recv(65536) == b"":
                return True
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return True
    return False


def test_the_forwarded_address_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    new = {"rules": {"players": 2}, "seats": BOTS}

    def made(base: str, forwarded: str) -> int:
        return httpx2.post(f"http://{base}/api/tables", json=new, timeout=10,
                           headers={"x-forwarded-for": forwarded}).status_code

    # by default the connection's address counts, whatever a client claims to forward
    with _process(tmp_path, "--rate-tables", "1/3600") as (_, base):
        assert made(base, "10.0.0.1") == 201
        assert made(base, "10.0.0.2") == 429
    # behind a trusted proxy each forwarded address counts apart
    with _process(tmp_path, "--rate-tables", "1/3600", "--trusted-proxy", "127.0.0.1") as (
            _, base):
        assert made(base, "10.0.0.1") == 201
        assert made(base, "10.0.0.2") == 201
        assert made(base, "10.0.0.1") == 429
        # the proxy appends the address it saw: what the client wrote before it is not its
        assert made(base, "10.0.0.2, 10.0.0.3") == 201
        assert made(base, "10.0.0.1, 10.0.0.3") == 429


def test_the_server_names_no_software_and_dates_its_answers(tmp_path: Path) -> None:
    with _process(tmp_path) as (_, base):
        r = httpx2.get(f"http://{base}/api/options", timeout=10)
    assert "server" not in r.headers
    assert re.fullmatch(r"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT", r.headers["date"])
    assert _has_security_headers(r.headers)


def test_half_requests_are_closed_after_the_header_timeout(tmp_path: Path) -> None:
    with _process(tmp_path, "--header-timeout", "1") as (_, base):
        host, port = base.split(":")
        address = (host, int(port))
        with socket.create_connection(address) as silent:
            assert _closed_by_server(silent)
        with socket.create_connection(address) as half:
            half.sendall(b"GET /api/opt")
            assert _closed_by_server(half)
        with socket.create_connection(address) as slow:  # a header line a byte at a time
            slow.sendall(b"GET /api/options HTTP/1.1\r\nHost: localhost\r\n")
            assert _closed_by_server(slow, b"X-Slow: " + b"a" * 500)
        with socket.create_connection(address, timeout=10) as kept:
            # a whole request is answered; the next one, begun and not finished, is closed
            kept.sendall(b"GET /api/options HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert kept.recv(65536).startswith(b"HTTP/1.1 200")
            kept.sendall(b"GET /api/options HTTP/1.1\r\nHo")
            assert _closed_by_server(kept)
        # whole requests, and a WebSocket open far longer than the timeout, are served
        answer = httpx2.post(f"http://{base}/api/tables", timeout=10,
                             json={"rules": {"players": 2}, "seats": BOTS}).json()
        with connect(f"ws://{base}/ws/{answer['id']}?token={answer['token']}",
                     open_timeout=10) as ws:
            time.sleep(3)
            ws.send(json.dumps({"type": "ping"}))
            types = set()
            while "pong" not in types:
                types.add(json.loads(ws.recv(timeout=10))["type"])
        assert httpx2.get(f"http://{base}/api/options", timeout=10).status_code == 200


def test_a_text_frame_that_is_not_utf8_closes_with_1007_and_one_line_of_log(
        tmp_path: Path) -> None:
    with _process(tmp_path) as (proc, base):
        answer = httpx2.post(f"http://{base}/api/tables", timeout=10,
                             json={"rules": {"players": 2}, "seats": BOTS}).json()
        with connect(f"ws://{base}/ws/{answer['id']}?token={answer['token']}",
                     open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            # a masked text frame of two bytes that are no UTF-8, written past the library
            mask = os.urandom(4)
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(b"\xff\xfe"))
            ws.socket.sendall(bytes([0x81, 0x80 | 2]) + mask + payload)
            with pytest.raises(ConnectionClosedError) as closed:
                while True:
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        # the server goes on serving
        assert httpx2.get(f"http://{base}/api/options", timeout=10).status_code == 200
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
        assert proc.stderr is not None
        log = proc.stderr.read().decode()
    assert "Traceback" not in log, log
    lines = [line for line in log.splitlines() if "UTF-8" in line]
    assert len(lines) == 1 and "not UTF-8" in lines[0], log
