"""Two club nights end to end in a real browser (issue 32, "Done when"): a night of 13
(one player sits out each round) and a night of 24 (six tables, four in the room and two
played online at tables of the app, a bot in the seat of the player who stays away).

The organiser works on a desktop page, every player on a phone of their own (a browser
context each, on their personal link or registered with the join link); at the real
tables one player enters the result and a player of the other team confirms it, a result
is corrected (kept with who corrected it), a disagreement is settled by the organiser;
the projector's standings page, open all night, shows the totals after each round; the
printouts render to PDF on A4 and Letter (their pages kept as PNG to look at); the
export is downloaded from the organiser's page and read back.

Playwright drives Debian's ``chromium``; screenshots, PDFs and their pages go to
``artifacts/``.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from nightkit import enter, join, make_night, open_personal_link, phone, round_tables
from serverkit import Server, running_server
from test_server_browser import ARTIFACTS, CHOICES, CHROMIUM, _page

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou",
         "Max", "Ned", "Olf", "Pam", "Quin", "Rae", "Sam", "Tess", "Uma", "Vic", "Wes",
         "Xan"]



@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """The app over a fresh database, bots without delay (an online game plays out at
    once when bots hold its seats)."""
    with running_server(tmp_path / "night.sqlite3") as srv:
        yield srv


class Night:
    """A night being run: the organiser's page, the projector, each player's phone."""

    def __init__(self, server: Server, browser: Any, title: str, typed: list[str],
                 joining: list[str], tag: str) -> None:
        self.server, self.browser, self.tag = server, browser, tag
        self.errors: list[str] = []
        base = server.base
        self.host = _page(browser, self.errors)  # the organiser's desktop, 1280x800
        self.id, self.key = make_night(self.host, base, title, typed, hands="4")
        join_link = self.host.get_attribute("#join-link", "href")
        assert join_link is not None and "join=" in join_link
        self.projector = _page(browser, self.errors, 1280, 720)
        self.projector.goto(f"{base}/night/{self.id}/standings")
        self.projector.wait_for_selector("#night-clock")
        self.phones: dict[str, Any] = {}
        self.home: dict[str, str] = {}  # each player's night page, to come back to
        for name in joining:  # at the door, with the join link
            page = phone(browser, self.errors, len(self.phones))
            join(page, join_link, name)
            self.phones[name] = page
        count = len(typed) + len(joining)
        self.host.wait_for_selector(f"#players-title:has-text('{count} players present')")
        for name in typed:  # the organiser hands out the personal links
            page = phone(browser, self.errors, len(self.phones))
            open_personal_link(self.host, page, base, name)
            self.phones[name] = page
        for name, page in self.phones.items():
            self.home[name] = page.url
        self.names: dict[int, str] = {}
        self.points: dict[str, Fraction] = {name: Fraction(0) for name in self.phones}
        self.sat_out: list[str] = []

    def start(self, rnd: int, online: tuple[int, ...] = ()) -> list[dict[str, Any]]:
        """The organiser starts round ``rnd`` (``online``: its tables played online); every
        phone shows the player's table and partner, or that they sit out."""
        for number in online:
            self.host.check(f"input[name=online][value='{number}']")
        self.host.click("#start-form button[type=submit]")
        self.host.wait_for_selector(f"#end-round:has-text('End round {rnd}')")
        # the round shows at once; its online tables are opened just after it
        self.host.wait_for_function(
            "n => document.querySelectorAll('a.online-host').length === n", arg=len(online))
        tables = round_tables(self.server, self.id, self.key, rnd)
        night = self.server.http.get(f"/api/nights/{self.id}").json()
        self.names = {p["number"]: p["name"] for p in night["players"]}
        out = [p["name"] for p in night["rounds"][rnd - 1]["out"]]
        self.sat_out += out
        for t in tables:
            for side in t["sides"]:
                a, b = (p["name"] for p in side)
                for me, partner in ((a, b), (b, a)):
                    page = self.phones[me]
                    page.wait_for_selector(
                        f".big-line:text-is('Round {rnd}, table {t['table']}')")
                    assert page.inner_text(".seat-facts dd >> nth=0") == partner
                    if t["online"]:
                        page.wait_for_selector("a:has-text('Play at your online table')")
        for name in out:
            self.phones[name].wait_for_selector(
                f".big-line:text-is('Round {rnd}: you sit out.')")
        return tables

    def report(self, rnd: int, t: dict[str, Any], points: tuple[int, int], *,
               correct: tuple[int, int] | None = None, dispute: tuple[int, int] | None = None
               ) -> None:
        """A real table's result: the first player of side one enters ``points`` (side
        one's, side two's) on their phone; their partner corrects it to ``correct``; a
        player of the other team confirms it, or disputes it and the organiser settles it
        at ``dispute``."""
        (a, b), (c, _d) = ([p["name"] for p in side] for side in t["sides"])
        row = f".night-table[data-key='t{t['table']}']"
        entering, answering = self.phones[a], self.phones[c]
        enter(entering, *points)
        entering.wait_for_selector("text=The other team confirms it.")
        seq = 1
        if correct is not None:  # the partner sees the entry and corrects it
            partner = self.phones[b]
            partner.wait_for_selector(f".big-line:text-is('Us {points[0]}, them {points[1]}: "
                                      "reported, to be confirmed')")
            partner.click(".result details summary")
            enter(partner, *correct, form="#correct-form")
            partner.wait_for_selector(f".big-line:text-is('Us {correct[0]}, them "
                                      f"{correct[1]}: reported, to be confirmed')")
            points, seq = correct, 2
        answering.wait_for_selector(f"#confirm[data-seq='{seq}']")
        assert answering.inner_text(".result .big-line") == (
            f"Us {points[1]}, them {points[0]}: reported, to be confirmed")
        if rnd == 1 and t["table"] == 1:
            answering.screenshot(path=str(ARTIFACTS / f"{self.tag}-phone-confirm.png"),
                                 full_page=True)
        if dispute is None:
            answering.click("#confirm")
            answering.wait_for_selector(".result .big-line:has-text('confirmed')")
            self.host.wait_for_selector(f"{row}.status-confirmed")
        else:
            answering.click("#dispute")
            answering.wait_for_selector("text=The organiser settles it.")
            self.host.wait_for_selector(f"{row}.status-disputed")
            self.host.screenshot(path=str(ARTIFACTS / f"{self.tag}-organiser-disputed.png"),
                                 full_page=True)
            self.host.fill(f"{row} form.settle input[name=a]", str(dispute[0]))
            self.host.fill(f"{row} form.settle input[name=b]", str(dispute[1]))
            self.host.click(f"{row} form.settle button")
            self.host.wait_for_selector(f"{row}.status-settled")
            answering.wait_for_selector(".result .big-line:has-text('settled by the organiser')")
            points = dispute
        self._score(t, points)

    def _score(self, t: dict[str, Any], points: tuple[int, int]) -> None:
        for side, got in zip(t["sides"], points, strict=True):
            for p in side:
                self.points[p["name"]] += got

    def end(self, rnd: int, tables: list[dict[str, Any]], out: list[str]) -> None:
        """Every table has reported; the organiser ends the round; the projector shows
        each player's new total (a player sitting out scores the round's average)."""
        played = {p["name"] for t in tables for side in t["sides"] for p in side}
        final = round_tables(self.server, self.id, self.key, rnd)
        made = sum(2 * sum(t["result"]["points"]) for t in final)
        for name in out:
            self.points[name] += Fraction(made, len(played))
        count = len(tables)
        self.projector.wait_for_selector(
            f".projector-reported:text-is('{count} of {count} tables have reported.')")
        self.host.wait_for_selector(f"text={count} of {count} tables have reported.")
        self.host.click("#end-round")
        self.host.wait_for_selector(f"#start-form button:has-text('Start round {rnd + 1}')")
        self.projector.wait_for_selector(f"#night-clock:text-is('Round {rnd} is over.')")
        for name, want in self.points.items():  # the projector's totals are the night's
            shown = (f"{float(want):.1f}" if want.denominator != 1 else str(want))
            self.projector.wait_for_selector(
                f".standings.big tr:has(th:text-is('{name}')) td:nth-child(3):text-is('{shown}')")
        if rnd == 1:
            self.projector.screenshot(path=str(ARTIFACTS / f"{self.tag}-projector.png"))

    def play_online(self, rnd: int, t: dict[str, Any], first_deal: bool,
                    leaver: bool) -> None:
        """An online table: three of its players open the link on their phones and take
        their seats, the fourth stays away; the organiser opens the table from the night's
        page and starts the game, a bot taking the empty seat.  The players play the first
        deal (``first_deal``); one leaves (``leaver``: a bot plays on for them); the
        organiser seats bots for the others, who are called away, and the bots play the
        game out.  Its result is the table's, recorded by the night itself."""
        (a, b), (c, absent) = ([p["name"] for p in side] for side in t["sides"])
        seated = [a, c, b]
        for name in seated:
            page = self.phones[name]
            page.click("a:has-text('Play at your online table')")
            page.wait_for_selector("#join-name")
            assert page.input_value("#join-name") == name  # the seat was made for them
            page.click("button:text-is('Take my seat')")
            page.wait_for_selector("#waiting-room")
        assert self.phones[absent].is_visible("a:has-text('Play at your online table')")
        self.phones[a].wait_for_selector(f"#waiting-room li.arrived:has-text('{b}')")
        if rnd == 1 and t["table"] == 5:
            self.phones[a].screenshot(path=str(ARTIFACTS / f"{self.tag}-online-waiting.png"))
        row = f".night-table[data-key='t{t['table']}']"
        with self.host.context.expect_page() as opened:
            self.host.click(f"{row} a.online-host")
        table = opened.value
        table.wait_for_selector("button:text-is('Start now')")
        table.click("button:text-is('Start now')")
        table.wait_for_selector("#waiting-room", state="detached")
        pages = [self.phones[name] for name in seated]
        for page in pages:
            page.wait_for_selector("#waiting-room", state="detached")
        if first_deal:
            _play_a_deal(pages, random.Random(rnd * 10 + t["table"]))
            pages[0].screenshot(path=str(ARTIFACTS / f"{self.tag}-online-deal.png"))
        if leaver:
            page = pages.pop()
            page.click("#menu-button")  # on a phone the table's tools are in the menu
            page.click("#menu #tool-leave")
            page.click("#leave-confirm")
            page.wait_for_selector("#new-form")  # the lobby
        table.click("#tool-host")
        # the app's places: a, c, b, the absent one's; a seat left is open, and a stand-in
        # plays it only while a person is at the table: the organiser seats a bot there too
        for place in range(3):
            button = f".host-place[data-place='{place}'] [data-host=bot]"
            table.click(button)
            table.wait_for_selector(button, state="detached")
        table.click("#close-dialog")
        table.wait_for_selector("#overlay .game-over, .center-note:text-is('Game over')")
        table.close()
        self.host.wait_for_selector(f"{row}.status-played")
        for name in [*seated, absent]:
            page = self.phones[name]
            if name != absent:
                page.goto(self.home[name])
            page.wait_for_selector(".result:has-text('played online')")
        got = next(x for x in round_tables(self.server, self.id, self.key, rnd)
                   if x["table"] == t["table"])
        played = got["result"]["points"]
        assert max(played) >= 10 and got["reports"][-1]["kind"] == "played"
        self._score(t, (played[0], played[1]))

    def printouts(self, rounds: int, tables: int, online: int = 0) -> None:
        """The printouts on A4 and Letter: a PDF each, its pages kept as PNG.  The chart
        marks the ``online`` tables of each round, which have no score card."""
        printer = _page(self.browser, self.errors)
        for paper, width in (("a4", 595), ("letter", 612)):
            printer.goto(f"{self.server.base}/night/{self.id}/print?paper={paper}")
            printer.wait_for_selector(f".score-card h2:has-text('Round {rounds}, table 1')")
            assert printer.locator(".score-card").count() == tables - online
            assert printer.locator(".chart-round th:has-text('(online)')").count() == (
                rounds * online)
            assert printer.locator(".tent").count() == tables
            assert printer.locator(".chart-round:not(.ahead)").count() == rounds
            printer.wait_for_function(
                "() => [...document.querySelectorAll('img.qr')].every((i) => i.naturalWidth > 0)")
            path = ARTIFACTS / f"{self.tag}-print-{paper}.pdf"
            pdf = printer.pdf(path=str(path), prefer_css_page_size=True,
                              print_background=True)
            assert pdf.startswith(b"%PDF")
            pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
            assert pages >= 2 + tables  # the chart, the cards, a tent a table, standings
            box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
            assert box is not None and round(float(box.group(1))) == width
            _pages_as_png(printer, path)
        # on paper the page is white to its end: the screen's paper colour would fill the
        # rest of the last page (the PDFs showed it under the final standings)
        printer.emulate_media(media="print")
        for part in ("document.documentElement", "document.body"):
            assert printer.evaluate(f"getComputedStyle({part}).backgroundColor") == (
                "rgb(255, 255, 255)")
        printer.close()

    def export(self, rounds: int) -> dict[str, Any]:
        """The JSON and CSV exports, downloaded from the organiser's page and read back:
        the totals are the night's, each player has a row a round."""
        files = {}
        for kind in ("JSON", "CSV"):
            with self.host.expect_download() as got:
                self.host.click(f"a:text-is('Export {kind}')")
            files[kind] = Path(got.value.path()).read_text(encoding="utf-8")
        exported: dict[str, Any] = json.loads(files["JSON"])
        totals = {s["name"]: Fraction(s["total"]) for s in exported["standings"]}
        assert totals == self.points
        assert len(exported["rounds"]) == rounds * len(self.points)
        assert sorted(r["name"] for r in exported["rounds"] if r["table"] is None) == sorted(
            self.sat_out)
        rows = list(csv.reader(io.StringIO(files["CSV"])))
        blank = rows.index([])
        assert {r[2]: Fraction(r[3]) for r in rows[1:blank]} == self.points
        assert len(rows[blank + 2:]) == rounds * len(self.points)
        return exported

    def finish(self) -> None:
        """The organiser's page and a phone, looked at; nothing went wrong on any page."""
        self.host.screenshot(path=str(ARTIFACTS / f"{self.tag}-organiser.png"), full_page=True)
        for size, name in enumerate(list(self.phones)[:2]):
            self.phones[name].screenshot(
                path=str(ARTIFACTS / f"{self.tag}-phone-{size}.png"), full_page=True)
        assert self.errors == []


def _play_a_deal(pages: list[Any], rng: random.Random) -> None:
    """The people at an online table click legal choices until the deal's summary shows
    on each of their phones (every click is what the page offers the player to move)."""
    deadline = time.monotonic() + 120
    while not all(p.locator(".summary-panel, #overlay .game-over").count() for p in pages):
        assert time.monotonic() < deadline, "the first deal did not end"
        clicked = False
        for page in pages:
            choices = page.locator(CHOICES)
            n = choices.count()
            if n and not page.locator(".summary-panel").count():
                try:
                    choices.nth(rng.randrange(n)).click(timeout=2000)
                    clicked = True
                except Exception:  # the page moved on meanwhile: look again
                    continue
        if not clicked:  # nobody to move here yet: a bot, or the server, is moving
            pages[0].wait_for_timeout(50)


def _pages_as_png(page: Any, pdf: Path) -> None:
    """A PDF's pages as PNG next to it (Debian's poppler-utils, where installed), else the
    print page as the printer sees it, in one picture."""
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "50", "-png", str(pdf), str(pdf.with_suffix(""))],
                       check=True, timeout=120)
    else:
        page.emulate_media(media="print")
        page.screenshot(path=str(pdf.with_suffix(".png")), full_page=True)
        page.emulate_media(media="screen")


def test_a_night_of_thirteen_one_sitting_out_each_round(server: Server, browser: Any) -> None:
    """Issue 32, "Done when": 13 players at three real tables for three rounds, one sits
    out each round and scores the round's average; a correction, a disagreement settled,
    the projector, the printouts and the export."""
    ARTIFACTS.mkdir(exist_ok=True)
    night = Night(server, browser, "Fire hall thirteen", NAMES[:10], NAMES[10:13], "night13")
    plan = {1: {"correct": 1}, 2: {"dispute": 2}, 3: {}}
    for rnd, special in plan.items():
        tables = night.start(rnd)
        assert len(tables) == 3 and len(night.sat_out) == rnd
        for t in tables:
            points = (rnd + t["table"] + 2, 9 - t["table"])
            night.report(
                rnd, t, points,
                correct=(points[0] + 1, points[1]) if special.get("correct") == t["table"]
                else None,
                dispute=(6, 4) if special.get("dispute") == t["table"] else None)
        night.end(rnd, tables, night.sat_out[-1:])
    assert len(set(night.sat_out)) == 3  # a different player sits out each round
    night.printouts(rounds=3, tables=3)
    exported = night.export(rounds=3)
    kinds = {(x["round"], x["table"]): [(r["kind"], r["by"]) for r in x["reports"]]
             for x in exported["tables"]}
    number = {name: n for n, name in night.names.items()}
    first = next(t for t in exported["tables"] if t["round"] == 1 and t["table"] == 1)
    (a, b), (c, _d) = ([number[p["name"]] for p in side] for side in first["sides"])
    assert kinds[(1, 1)] == [("entered", a), ("corrected", b), ("confirmed", c)]
    second = next(t for t in exported["tables"] if t["round"] == 2 and t["table"] == 2)
    (a, _b), (c, _d) = ([number[p["name"]] for p in side] for side in second["sides"])
    assert kinds[(2, 2)] == [("entered", a), ("disputed", c), ("settled", None)]
    assert second["result"]["points"] == [6, 4]
    night.finish()


def test_a_night_of_twenty_four_with_two_tables_online(server: Server, browser: Any) -> None:
    """Issue 32, "Done when": 24 players, six tables a round, four in the room and two
    played online at tables of the app (a bot in the seat of the player who stays away,
    and of one who leaves), for two rounds; a correction, a disagreement settled, the
    projector, the printouts and the export."""
    ARTIFACTS.mkdir(exist_ok=True)
    night = Night(server, browser, "Club twenty-four", NAMES[:20], NAMES[20:24], "night24")
    for rnd in (1, 2):
        tables = night.start(rnd, online=(5, 6))
        assert len(tables) == 6 and [bool(t["online"]) for t in tables] == [False] * 4 + [True] * 2
        for t in tables[:4]:
            points = (rnd + t["table"] + 3, 10 - t["table"])
            night.report(rnd, t, points,
                         correct=(points[0], points[1] + 2) if (rnd, t["table"]) == (1, 3)
                         else None,
                         dispute=(8, 2) if (rnd, t["table"]) == (1, 2) else None)
        for t in tables[4:]:
            night.play_online(rnd, t, first_deal=rnd == 1 and t["table"] == 5,
                              leaver=rnd == 2)
        night.end(rnd, tables, [])
    night.printouts(rounds=2, tables=6, online=2)
    exported = night.export(rounds=2)
    kinds = {(x["round"], x["table"]): [r["kind"] for r in x["reports"]]
             for x in exported["tables"]}
    assert kinds[(1, 3)] == ["entered", "corrected", "confirmed"]
    assert kinds[(1, 2)] == ["entered", "disputed", "settled"]
    assert all(kinds[(r, t)] == ["opened", "played"] for r in (1, 2) for t in (5, 6))
    night.finish()
