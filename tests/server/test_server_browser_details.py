"""Smaller things the table must get right, each in a real browser: a result line begins
with a capital in every language; a 40-character name ends in an ellipsis without breaking
the score bar; the five-handed trick count tells nobody who the secret partner is; a
trick's cards never overlap; the shortcuts dialog fits the window in German; a rubber's end
shows every game, the winners first.

The page is served by a real server; its WebSocket is answered by the test with the states
of ``tablestates`` (edited where a test needs another name or another winner).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server
from tablestates import MOMENTS, _actions, _first, _game_over, _left_orders, hello, state_for
from test_server_browser import ARTIFACTS, CHROMIUM
from test_server_browser_layout import _CHECK, browser, static_server

from euchre.rules import Rules
from euchre.server.storage import MatchRecord, PlaceRecord, TableRecord
from euchre.server.table import Settings, Table

__all__ = ["browser", "static_server"]  # the fixtures, shared with the layout tests

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

SHOTS = ARTIFACTS / "details"
SIZES = [(1280, 800), (390, 844), (360, 640)]
LONG = "Maximiliana Wolkenstein-Oberhausen-Bergh"  # 40 characters
assert len(LONG) == 40


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context at 1280×800, in English."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    yield context
    context.close()


def _show(context: Any, base: str, state: dict[str, Any], moment: str) -> Any:
    """A page of the table, its WebSocket answered with ``state``."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def answer(ws: Any) -> None:
        ws.send(hello(moment))
        ws.send(json.dumps(state))

    page.route_web_socket(re.compile(r"/ws/"), answer)
    page.goto(base + "/")
    page.evaluate("localStorage.setItem('euchre.joined.t-details', '1')")
    page.goto(f"{base}/table/t-details?token=token")
    page.wait_for_selector("#felt")
    page.errors = errors
    return page


def _settle(page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                  "requestAnimationFrame(r)))")


# -- capitals ------------------------------------------------------------------------------
_SUMMARIES = """async (lang) => {
  const i18n = await import("/static/i18n.js");
  const { summaryText } = await import("/static/messages.js");
  await i18n.loadLanguage(lang);
  const who = (seat) => ["Ann", "Bo", "Cy", "Di"][seat];
  const common = { makers: [0, 2], maker: 0, alone: false, tricks: 3, points: 1,
    defenders: [1, 3], lone_defender: null };
  return ["C", "D", "H", "S"].flatMap((trump) => ["made", "march", "euchred"].map((code) =>
    summaryText({ code, params: { ...common, trump } }, who)))
    .concat([summaryText({ code: "thrown_in", params: { next_dealer: 1 } }, who)]);
}"""


@pytest.mark.parametrize("lang", ["en", "fr", "de", "da"])
def test_every_deal_result_line_begins_with_a_capital(
        context: Any, static_server: Server, lang: str) -> None:
    page = context.new_page()
    page.goto(static_server.base + "/")
    lines = page.evaluate(_SUMMARIES, lang)
    assert len(lines) == 13
    for line in lines:
        assert line[0] == line[0].upper() and line[0].isalpha(), line
    if lang == "en":
        assert "Hearts trump, made by Ann and Cy with 3 tricks: 1 point." in lines


# -- long names ----------------------------------------------------------------------------
def test_a_40_character_name_ends_in_an_ellipsis_and_keeps_the_score_bar_whole(
        context: Any, static_server: Server) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    moment = "four-play-last-to-a-trick"
    state = json.loads(state_for(moment))
    for seat in state["table"]["seats"]:
        seat["name"] = LONG
    page = _show(context, static_server.base, state, moment)
    for width, height in [(1280, 800), (390, 844)]:
        _settle(page, width, height)
        page.screenshot(path=str(SHOTS / f"long-names-{width}x{height}.png"))
        assert page.evaluate(_CHECK) == []
        bar = page.locator(".scoreboard").bounding_box()
        main = page.locator("#table-main").bounding_box()
        assert bar["x"] + bar["width"] <= main["x"] + main["width"] + 0.5
        # one line per side at most: the long names do not wrap
        rows = page.locator(".score-row").all()
        assert len(rows) == 2
        # the other side's two names, 83 characters, are cut short…
        other = rows[1].locator(".score-name")
        assert other.inner_text() == f"{LONG} & {LONG}"
        assert other.evaluate("(e) => e.scrollWidth > e.clientWidth")
        assert other.evaluate("(e) => getComputedStyle(e).textOverflow") == "ellipsis"
        for row in rows:
            box = row.bounding_box()
            assert box["height"] < 40
            value = row.locator(".score-value").bounding_box()  # …the score in view
            assert value["x"] + value["width"] <= width
        for chip in page.locator(".chip").all():
            box = chip.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.errors == []


# -- the five-handed trick count -----------------------------------------------------------
def _tally(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.evaluate("""() => [...document.querySelectorAll(
        ".tricks-chip .tally")].map((t) => [t.querySelector(".tally-name").textContent,
        t.querySelector("b").textContent])""")
    return rows


def _five_handed(revealed: bool, mine: bool = False) -> dict[str, Any]:
    """The five-handed play, maker Bea (seat 1) having called a card held by Dot (seat 3):
    each seat has won a trick; the called card played (``revealed``) or not yet, and then
    ``mine``: the page is the partner's own, which knows the partner before the table."""
    state: dict[str, Any] = json.loads(state_for("five-play"))
    deal = state["deal"]
    assert deal["maker"] == 1 and deal["called"]
    deal["tricks_won"] = [1, 1, 0, 1, 1]
    plays = [e for e in deal["events"] if (e["action"] or "").startswith("play ")]
    called = f"play {deal['called']}"
    deal["revealed"] = revealed
    if revealed:
        deal["partner"] = 3
        deal["makers"] = [1, 3]
        if not any(e["action"] == called for e in plays):
            deal["events"].append({"seat": 3, "action": called})
    else:
        deal["partner"] = 3 if mine else None
        deal["makers"] = [1, 3] if mine else [1]
        deal["events"] = [e for e in deal["events"] if e["action"] != called]
    return state


def test_before_the_called_card_is_played_the_trick_count_shows_the_maker_and_the_others(
        context: Any, static_server: Server) -> None:
    page = _show(context, static_server.base, _five_handed(revealed=False), "five-play")
    assert _tally(page) == [["Bea (partner secret)", "1"], ["the others", "3"]]


def test_the_partners_own_page_counts_it_among_the_others_until_the_called_card_is_played(
        context: Any, static_server: Server) -> None:
    """RULES §12: nothing on the secret partner's page shows the others who it is."""
    page = _show(context, static_server.base, _five_handed(revealed=False, mine=True),
                 "five-play")
    assert _tally(page) == [["Bea (partner secret)", "1"], ["the others", "3"]]


def test_once_the_called_card_is_played_the_makers_count_holds_the_partners_tricks(
        context: Any, static_server: Server) -> None:
    page = _show(context, static_server.base, _five_handed(revealed=True), "five-play")
    assert _tally(page) == [["Bea & Dot", "2"], ["You & Cal & Eve", "2"]]


# -- a trick's cards -----------------------------------------------------------------------
_OVERLAPS = """() => {
  const cards = [...document.querySelectorAll(".trick-card")].map((c) => [c.dataset.seat,
    c.querySelector(".card").getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < cards.length; i += 1) for (let j = i + 1; j < cards.length; j += 1) {
    const [a, ra] = cards[i]; const [b, rb] = cards[j];
    const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
    const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
    if (x > 0.5 && y > 0.5) out.push(`${a} and ${b} overlap by ${x}×${y}`);
  }
  return [cards.length, out];
}"""


@pytest.mark.parametrize("moment", ["two-play", "four-play-last-to-a-trick", "five-play"])
def test_the_cards_of_a_whole_trick_do_not_overlap(
        context: Any, static_server: Server, moment: str) -> None:
    state = json.loads(state_for(moment))
    deal = state["deal"]
    # my card too: the trick whole, as it stays in view before it is gathered
    deal["trick"].append({"seat": 0, "card": deal["hand"][0]})
    deal["hand"] = deal["hand"][1:]
    deal["legal"] = []
    deal["to_move"] = None
    page = _show(context, static_server.base, state, moment)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        _settle(page, width, height)
        count, overlaps = page.evaluate(_OVERLAPS)
        assert count == len(deal["trick"]) and overlaps == [], (width, height, overlaps)
        page.screenshot(path=str(SHOTS / f"trick-{moment}-{width}x{height}.png"))


# -- the shortcuts in German ---------------------------------------------------------------
def test_the_german_shortcuts_dialog_fits_the_window_and_scrolls_inside_it(
        browser: Any, static_server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    moment = "four-play-last-to-a-trick"
    page = _show(context, static_server.base, json.loads(state_for(moment)), moment)
    page.keyboard.press("?")
    page.wait_for_selector("#overlay .keys")
    assert page.locator("#overlay h2").inner_text() == "Tastenkürzel"
    for width, height in SIZES:
        _settle(page, width, height)
        box = page.locator("#overlay .dialog").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height
        # its title and its button in view and on top; the list scrolls
        for part in ("#overlay h2", "#close-dialog"):
            assert page.locator(part).evaluate("""(el) => { const r = el.getBoundingClientRect();
                const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return r.top >= 0 && r.bottom <= innerHeight && at !== null
                  && el.contains(at); }""")
        page.screenshot(path=str(SHOTS / f"keys-de-{width}x{height}.png"))
    scroll = page.locator("#overlay .dialog-scroll")
    assert scroll.evaluate("(e) => e.scrollHeight > e.clientHeight")  # at 360×640
    page.keyboard.press("Escape")
    assert page.locator("#overlay").is_hidden()
    assert page.errors == []
    context.close()


# -- a rubber's end ------------------------------------------------------------------------
def _rubber_won_by_the_other_side() -> dict[str, Any]:
    """A four-handed rubber, over: seat 0's side lost it 1–2 (the real rubber's end, each
    game's scores turned one seat round)."""
    rules = Rules(players=4, target=3, rubber=True, stick_the_dealer=True)
    seed, actions = _actions(rules, _first, _game_over)
    places = [PlaceRecord(0, "you", "Pat", None, "token", True)]
    places += [PlaceRecord(i, "bot", n, "basic") for i, n in enumerate(["Bea", "Cal", "Dot"], 1)]
    record = TableRecord("t-rubber", "", rules.to_dict(), places,
                         [MatchRecord(1, seed, actions)], 0.0)
    table = Table(record, storage=None, settings=Settings())  # type: ignore[arg-type]
    state: dict[str, Any] = json.loads(json.dumps(table.audience.state(0)))
    rubber = state["rubber"]
    assert rubber["over"] and rubber["winner"] == 0 and len(rubber["games"]) == 3
    for game in rubber["games"]:
        game["scores"] = game["scores"][-1:] + game["scores"][:-1]
        game["winners"] = sorted((w + 1) % 4 for w in game["winners"])
    rubber["games_won"].reverse()
    rubber["points"].reverse()
    rubber["winner"] = 1
    state["game"]["scores"] = rubber["games"][-1]["scores"]
    state["game"]["winners"] = rubber["games"][-1]["winners"]
    return state


def test_a_rubbers_end_shows_every_game_and_the_rubber_points_the_winners_first(
        context: Any, static_server: Server) -> None:
    state = _rubber_won_by_the_other_side()
    rubber = state["rubber"]
    page = _show(context, static_server.base, state, "four-game-over")
    page.wait_for_selector("#overlay .points.rubber")
    rows = page.locator("#overlay .points.rubber tbody tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()))")
    head = page.locator("#overlay .points.rubber thead th").evaluate_all(
        "(cells) => cells.map((c) => c.textContent.trim())")
    assert head == ["Side", "Game 1", "Game 2", "Game 3", "Rubber points"]
    winners = [g["scores"][1] for g in rubber["games"]]
    losers = [g["scores"][0] for g in rubber["games"]]
    mark = [" ✓" if 1 in g["winners"] else "" for g in rubber["games"]]
    assert rows[0] == ["Bea & Dot", *(f"{v}{m}" for v, m in zip(winners, mark, strict=True)),
                       str(rubber["points"][1])]
    assert rows[1][0] == "You & Cal" and rows[1][-1] == str(rubber["points"][0])
    assert rows[1][1:-1] == [f"{v}{' ✓' if not m else ''}" for v, m in
                             zip(losers, mark, strict=True)]
    text = page.locator("#overlay").inner_text()
    assert "Bea & Dot win" in text
    assert f"Rubber won 2–1, by {rubber['margin']} points." in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        _settle(page, width, height)
        box = page.locator("#overlay .dialog").bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height
        assert page.locator("#overlay .dialog").evaluate(
            "(e) => e.scrollWidth <= e.clientWidth + 1")
        page.screenshot(path=str(SHOTS / f"rubber-over-{width}x{height}.png"))
    assert page.errors == []


def test_the_moments_of_the_layout_tests_are_the_ones_used_here() -> None:
    assert {"two-play", "four-play-last-to-a-trick", "five-play", "four-game-over"} <= set(MOMENTS)


# -- the last trick, in German --------------------------------------------------------------
def _first_trick_won_by(seat: int) -> dict[str, Any]:
    """Seat 0's state four-handed, the first trick just won by ``seat``."""
    rules = Rules(players=4)

    def done(match: Any) -> bool:
        tricks = match.game.deal.tricks
        return len(tricks) == 1 and tricks[0].winner == seat

    seed, actions = _actions(rules, _left_orders, done)
    places = [PlaceRecord(0, "you", "Pat", None, "token", True)]
    places += [PlaceRecord(i, "bot", n, "basic") for i, n in enumerate(["Bea", "Cal", "Dot"], 1)]
    record = TableRecord("t-details", "", rules.to_dict(), places,
                         [MatchRecord(1, seed, actions)], 0.0)
    table = Table(record, storage=None, settings=Settings())  # type: ignore[arg-type]
    state: dict[str, Any] = json.loads(json.dumps(table.audience.state(0)))
    return state


@pytest.mark.parametrize(("winner", "said"), [(0, "Von dir gewonnen."),
                                              (2, "Gewonnen von Cal.")])
def test_the_last_trick_says_who_won_it_in_the_case_german_needs(
        browser: Any, static_server: Server, winner: int, said: str) -> None:
    """"Gewonnen von Cal", but never "Gewonnen von Du": your own trick has its own sentence
    (issue 22, item 10)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    page = _show(context, static_server.base, _first_trick_won_by(winner), "four-play")
    page.keyboard.press("l")
    text = page.locator("#overlay").inner_text()
    assert said in text and "von Du" not in text
    assert page.errors == []
    context.close()
