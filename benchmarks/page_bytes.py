"""What the web pages cost to load: requests and bytes of the lobby and of a table, the
first time (an empty cache) and on a reload.

Starts ``python -m euchre.server`` on a loopback port with a fresh SQLite file (``--source
DIR``: the package from ``DIR`` instead, to measure another version, e.g. one unpacked by
``git archive``), and opens its pages in Debian's chromium (Playwright), one new browser
context (an empty cache) per page:

* **lobby**: ``/``, until the form and the table lists are shown;
* **table**: a four-handed table against three bots created through the API, opened at
  its seat's URL, until the cards are shown.

Each page is then reloaded (the browser's reload button) and counted again.  The browser's
own network log (the DevTools protocol) gives, per request, the bytes on the wire (headers
included, compressed where the answer is) and the bytes of the body once decoded, and
whether it came from the browser's cache without asking the server.  The table's
WebSocket is left out (it is the game, not the page).

    .venv/bin/python benchmarks/page_bytes.py
    .venv/bin/python benchmarks/page_bytes.py --locale fr-FR --json
    # another version: its files (and compiled catalogues) in a folder of their own
    git archive c36acd4 | tar -x -C /tmp/before
    .venv/bin/python benchmarks/page_bytes.py --source /tmp/before
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

HOST = "127.0.0.1"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@dataclass
class Load:
    """The requests of one page load, by the browser's request id."""

    urls: dict[str, str] = field(default_factory=dict)
    wire: dict[str, int] = field(default_factory=dict)
    body: dict[str, int] = field(default_factory=dict)
    cached: set[str] = field(default_factory=set)
    encoding: dict[str, str] = field(default_factory=dict)

    def figures(self) -> dict[str, Any]:
        """Requests made (from the server, and from the cache alone), bytes on the wire
        and decoded, and how many answers were compressed.

        >>> load = Load({"1": "http://h/", "2": "http://h/a.js", "3": "data:,"},
        ...             {"1": 700, "2": 0}, {"1": 1300, "2": 900}, {"2"}, {"1": "gzip"})
        >>> load.figures()["requests"], load.figures()["from_cache"], load.figures()["wire_bytes"]
        (2, 1, 700)
        """
        ids = [i for i, url in self.urls.items() if url.startswith("http")]
        return {
            "requests": len(ids),
            "from_cache": sum(i in self.cached for i in ids),
            "wire_bytes": sum(self.wire.get(i, 0) for i in ids),
            "body_bytes": sum(self.body.get(i, 0) for i in ids),
            "compressed": sum(self.encoding.get(i) in ("gzip", "br", "deflate") for i in ids),
            "urls": sorted(self.urls[i].split("?")[0].split("/", 3)[-1] for i in ids),
        }


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def server(source: Path | None) -> Iterator[str]:
    """A server on a fresh SQLite file; its base URL."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = dict(os.environ)
        if source is not None:
            env["PYTHONPATH"] = str(source)
        proc = subprocess.Popen(
            [sys.executable, "-m", "euchre.server", "--host", HOST, "--port", str(port),
             "--db", str(Path(tmp) / "pages.sqlite3"), "--bot-delay", "0.5"],
            env=env, cwd=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://{HOST}:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    httpx2.get(base + "/api/options", timeout=1)
                    break
                except httpx2.HTTPError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def watch(context: Any, page: Any) -> list[Load]:
    """The page's loads: a new :class:`Load` is appended before each navigation."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    loads = [Load()]

    def sent(e: dict[str, Any]) -> None:
        loads[-1].urls[e["requestId"]] = e["request"]["url"]

    def received(e: dict[str, Any]) -> None:
        response = e["response"]
        if response.get("fromDiskCache") or response.get("fromMemoryCache"):
            loads[-1].cached.add(e["requestId"])
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        loads[-1].encoding[e["requestId"]] = headers.get("content-encoding", "")

    def data(e: dict[str, Any]) -> None:
        body = loads[-1].body
        body[e["requestId"]] = body.get(e["requestId"], 0) + e["dataLength"]

    def finished(e: dict[str, Any]) -> None:
        loads[-1].wire[e["requestId"]] = int(e["encodedDataLength"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.requestServedFromCache", lambda e: loads[-1].cached.add(e["requestId"]))
    cdp.on("Network.responseReceived", received)
    cdp.on("Network.dataReceived", data)
    cdp.on("Network.loadingFinished", finished)
    return loads


def measure(browser: Any, url: str, ready: str, locale: str) -> dict[str, Any]:
    """A cold load of ``url`` in a new context (a browser speaking ``locale``), then a
    reload; each until ``ready`` is shown and the network is quiet."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    page = context.new_page()
    loads = watch(context, page)
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    cold = loads[-1].figures()
    loads.append(Load())
    page.reload()
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    warm = loads[-1].figures()
    context.close()
    return {"cold": cold, "reload": warm}


def run(source: Path | None, locale: str = "en-US") -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with server(source) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        lobby = measure(browser, base + "/", "#create", locale)
        bot = {"kind": "bot", "bot": "basic"}
        made = httpx2.post(base + "/api/tables", json={
            "rules": {"players": 4}, "seats": [{"kind": "you", "name": "Pat"}, bot, bot, bot]},
            timeout=10).json()
        table = measure(browser, f"{base}/table/{made['id']}?token={made['token']}",
                        ".hand-card", locale)
        browser.close()
    return {"lobby": lobby, "table": table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=None,
                        help="run the server from the package in this folder")
    parser.add_argument("--locale", default="en-US",
                        help="the browser's language (fr-FR: the French catalogue)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.source, args.locale)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{'page':<8}{'load':<8}{'requests':>9}{'cached':>8}{'wire B':>9}{'body B':>9}"
          f"{'gzipped':>9}")
    for page, loads in result.items():
        for name, f in loads.items():
            print(f"{page:<8}{name:<8}{f['requests']:>9}{f['from_cache']:>8}"
                  f"{f['wire_bytes']:>9}{f['body_bytes']:>9}{f['compressed']:>9}")
    for page, loads in result.items():
        print(f"{page}, cold: " + " ".join(loads["cold"]["urls"]))


if __name__ == "__main__":
    main()
