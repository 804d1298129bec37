"""A club night in a real browser (issue 32): the organiser on a desktop makes the night,
five players on phones (two register with the join link, three open the personal links
the organiser hands out), two rounds are played at a real table (a result entered and
confirmed; one entered, disputed and settled by the organiser), the projector's standings
update, the printouts render to PDF on A4 and Letter, and the export reads back.

Playwright drives Debian's ``chromium``; screenshots and the PDFs go to ``artifacts/``.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from nightkit import enter, round_tables
from nightkit import phone as new_phone
from serverkit import Server, running_server
from test_server_browser import ARTIFACTS, CHROMIUM, _page
from test_server_browser_a11y import serious_faults

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed at /usr/bin/chromium")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path / "night.sqlite3") as srv:
        yield srv


def test_a_night_of_five_from_the_organiser_to_the_export(server: Server, browser: Any) -> None:
    """Issue 32, items 1, 4, 5 and 6: one night end to end, each person on their page."""
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    base = server.base
    host = _page(browser, errors)
    host.goto(f"{base}/night/new")
    host.wait_for_selector("#night-form")
    assert serious_faults(host) == []
    host.fill("input[name=name]", "Fire hall euchre")
    host.fill("textarea[name=players]", "Ann\nBo\nCy")
    host.fill("input[name=lone_march]", "5")
    host.click("text=Make the night")
    host.wait_for_selector("#join-link")
    night_id = host.evaluate("location.pathname.split('/')[2]")
    key = host.evaluate(f"localStorage.getItem('euchre.nighthost.{night_id}')")
    assert server.http.get(f"/api/nights/{night_id}").json()["settings"]["scoring"][
        "lone_march"] == 5
    join = host.get_attribute("#join-link", "href")
    assert join and "join=" in join
    host.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0")

    phones: dict[str, Any] = {}
    for name in ("Di", "Ed"):  # register with the join link
        phone = new_phone(browser, errors)
        phone.goto(join)
        phone.wait_for_selector("#join-form")
        if name == "Di":
            assert serious_faults(phone) == []
        phone.fill("input[name=name]", name)
        phone.click("#join-form button")
        phone.wait_for_selector(f"#you-title:text-is('{name}')")
        phones[name] = phone
    host.wait_for_selector("#players-title:has-text('5')")
    for name in ("Ann", "Bo", "Cy"):  # the personal links the organiser hands out
        link = host.get_attribute(f"a[aria-label^='{name}']", "href")
        phone = new_phone(browser, errors)
        phone.goto(base + link)
        phone.wait_for_selector(f"#you-title:text-is('{name}')")
        phones[name] = phone

    projector = _page(browser, errors, 1280, 720)
    projector.goto(f"{base}/night/{night_id}/standings")
    projector.wait_for_selector("#night-clock")

    def play(rnd: int, points: tuple[int, int], dispute: bool) -> None:
        host.click(f"text=Start round {rnd}")
        host.wait_for_selector(f"#end-round:has-text('End round {rnd}')")
        tables = round_tables(server, night_id, key, rnd)
        assert len(tables) == 1
        table = tables[0]
        names = [[p["name"] for p in side] for side in table["sides"]]
        playing = {n for side in names for n in side}
        for name, phone in phones.items():
            phone.wait_for_selector(f".big-line:has-text('Round {rnd}')")
            if name not in playing:
                assert "sit out" in phone.inner_text(".big-line")
        entering, answering = phones[names[0][0]], phones[names[1][0]]
        enter(entering, *points)
        entering.wait_for_selector("text=The other team confirms it.")
        answering.wait_for_selector("#confirm")
        if rnd == 1:
            entering.screenshot(path=str(ARTIFACTS / "night-phone-entered.png"))
            answering.screenshot(path=str(ARTIFACTS / "night-phone-confirm.png"), full_page=True)
        if dispute:
            answering.click("#dispute")
            host.wait_for_selector(".night-table.status-disputed")
            host.screenshot(path=str(ARTIFACTS / "night-organiser-disputed.png"), full_page=True)
            host.fill("form.settle input[name=a]", "6")
            host.fill("form.settle input[name=b]", "4")
            host.click("form.settle button")
            host.wait_for_selector(".night-table.status-settled")
        else:
            answering.click("#confirm")
            host.wait_for_selector(".night-table.status-confirmed")
        host.wait_for_selector("text=1 of 1 tables have reported.")
        host.click("#end-round")
        host.wait_for_selector(f"text=Start round {rnd + 1}")

    play(1, (7, 3), dispute=False)
    projector.wait_for_selector("#night-clock:has-text('Round 1 is over')")
    projector.wait_for_selector(".standings.big tbody tr")
    play(2, (2, 8), dispute=True)
    projector.wait_for_selector("#night-clock:has-text('Round 2 is over')")
    projector.screenshot(path=str(ARTIFACTS / "night-projector.png"))
    stand = server.http.get(f"/api/nights/{night_id}/standings").json()["standings"]
    top = stand[0]
    projector.wait_for_function(
        "(n) => document.querySelector('.standings.big tbody th').textContent === n",
        arg=top["name"])
    for name, phone in phones.items():  # each phone's running total is the standings'
        mine = next(s for s in stand if s["name"] == name)
        phone.wait_for_selector(f".running:has-text('place {mine['place']}')")
    phones["Ann"].screenshot(path=str(ARTIFACTS / "night-phone.png"), full_page=True)
    host.screenshot(path=str(ARTIFACTS / "night-organiser.png"), full_page=True)
    for page in (host, phones["Ann"], projector):
        assert serious_faults(page) == []

    # the printouts, on A4 and on Letter
    printer = _page(browser, errors)
    for paper, size in (("a4", "A4"), ("letter", "Letter")):
        printer.goto(f"{base}/night/{night_id}/print?paper={paper}")
        printer.wait_for_selector(".score-card h2:has-text('Round 2, table 1')")
        printer.select_option("select[name=round]", "1")  # the cards of another round
        printer.wait_for_selector(".score-card h2:has-text('Round 1, table 1')")
        printer.wait_for_function(
            "() => [...document.querySelectorAll('img.qr')].every((i) => i.naturalWidth > 0)")
        pdf = printer.pdf(path=str(ARTIFACTS / f"night-print-{paper}.pdf"),
                          prefer_css_page_size=True, print_background=True)
        assert pdf.startswith(b"%PDF")
        # chart, score card, a table tent, the standings: a page each at least
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 4
        box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
        assert box is not None
        width = round(float(box.group(1)))
        assert width == {"A4": 595, "Letter": 612}[size]
    assert serious_faults(printer) == []
    printer.emulate_media(media="print")
    printer.screenshot(path=str(ARTIFACTS / "night-print.png"), full_page=True)
    assert printer.is_hidden(".print-controls")

    # the export, read back
    got = server.http.get(f"/api/nights/{night_id}/export.csv")
    assert got.status_code == 200 and "attachment" in got.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(got.text)))
    blank = rows.index([])
    assert [r[2] for r in rows[1:blank]] == [s["name"] for s in stand]
    assert len(rows[blank + 2:]) == 10  # five players, two rounds each
    exported = json.loads(server.http.get(f"/api/nights/{night_id}/export.json").text)
    assert exported["standings"] == stand and len(exported["rounds"]) == 10
    assert errors == []
