"""The puzzles page in a real browser (Debian's chromium), on a phone and a desktop: a
puzzle solved and one missed (the judgement, every choice's value, the reasons, the
rating kept in the browser), the day's puzzle, and a streak that ends at the first miss,
in French; every mode (rated, daily, streak, your mistakes) in English, French, German and
Danish on a 360x640 phone and a desktop.  The answer is known to the test from the shipped
set, never from the page.

Playwright drives Debian's ``chromium``, as in :mod:`test_server_browser`.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from serverkit import Server, play_out, untranslated
from test_server_browser import ARTIFACTS, CHROMIUM, _page, module_fixtures

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.i18n import catalog_json
from euchre.puzzles import Puzzle, daily, make_puzzle, shipped
from euchre.server.puzzles import served, theme_counts

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")

SHOTS = ARTIFACTS / "puzzles"


server, browser = module_fixtures("puzzles")


def _puzzle(players: int, puzzle_id: str) -> Puzzle:
    return next(p for p in shipped(players) if p.id == puzzle_id)


def _wrong(puzzle: Puzzle) -> str:
    """A legal action that does not solve the puzzle (one without ``alone`` first)."""
    wrong = [a for a in puzzle.values if not puzzle.solved_by(Action.parse(a))]
    return sorted(wrong, key=lambda a: "alone" in a)[0]


def _open(browser: Any, base: str, size: tuple[int, int], locale: str = "en-US"
          ) -> tuple[Any, Any, list[str]]:
    errors: list[str] = []
    page = _page(browser, errors, size[0], size[1], locale=locale)
    return page.context, page, errors


def _served(page: Any, what: str, go: Any) -> Puzzle:
    """Do ``go()`` and return the puzzle the page was then served (``what``: the API's
    path after /api/puzzles/)."""
    with page.expect_response(lambda r: f"/api/puzzles/{what}" in r.url) as info:
        go()
    data = info.value.json()
    page.wait_for_selector("#pz-board #felt .seat")
    return _puzzle(data["players"], data["id"])


def _answer(page: Any, action: str) -> dict[str, Any]:
    """Choose ``action`` on the drawn position as a player would; the server's judgement."""
    text = action.removesuffix(" alone")
    if text != action and action.startswith("trump"):
        page.check("#alone-toggle")
    with page.expect_response(lambda r: r.url.endswith("/answer")) as info:
        page.click(f'[data-act="{action}"]')
    page.wait_for_selector("#pz-result-title")
    result: dict[str, Any] = info.value.json()
    return result


def _rating(page: Any, players: int = 4) -> Any:
    return page.evaluate(f"JSON.parse(localStorage.getItem('euchre.puzzles.rating.{players}'))")


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_puzzle_solved_then_one_missed_judged_explained_and_rated(
        server: Server, browser: Any, size: tuple[int, int]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context, page, errors = _open(browser, server.base, size)
    puzzle = _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    assert page.locator("#pz-board .hand-card").count() > 0  # the position, as a table draws it
    page.screenshot(path=str(SHOTS / f"puzzle-{size[0]}x{size[1]}.png"))
    result = _answer(page, puzzle.answer)
    assert result["solved"] and "✓" in page.inner_text("#pz-result-title")
    # every legal action's value is shown, and the reasons
    assert page.locator(".puzzle-result .review-values li").count() == len(puzzle.values)
    assert page.locator(".pz-reasons li").count() >= 1
    after_right = _rating(page)
    assert after_right["rating"] > 1500 and after_right == result["rating"]
    page.screenshot(path=str(SHOTS / f"solved-{size[0]}x{size[1]}.png"))
    # the next puzzle, missed: the rating goes down from the one kept
    second = _served(page, "next", lambda: page.click("#pz-next"))
    assert second.id != puzzle.id
    result = _answer(page, _wrong(second))
    assert not result["solved"] and "✗" in page.inner_text("#pz-result-title")
    assert result["before"] == after_right
    assert _rating(page)["rating"] < after_right["rating"]
    page.screenshot(path=str(SHOTS / f"missed-{size[0]}x{size[1]}.png"))
    context.close()
    assert errors == []


def test_the_daily_puzzle_and_a_streak_ending_at_a_miss_in_french(
        server: Server, browser: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context, page, errors = _open(browser, server.base, (390, 844), "fr-FR")
    _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    assert page.text_content("#pz-title") == "Problèmes"
    # the day's puzzle: the same for everyone today (the terminal's)
    today = datetime.datetime.now(datetime.UTC).date()
    puzzle = _served(page, "daily", lambda: page.click("input[value=daily] + span"))
    assert puzzle == daily(shipped(4), today)
    _answer(page, puzzle.answer)
    assert "Exact" in page.inner_text("#pz-result-title")
    # a streak: easiest first, on until the first miss
    first = _served(page, "streak", lambda: page.click("input[value=streak] + span"))
    rating = _rating(page)
    _answer(page, first.answer)
    second = _served(page, "streak", lambda: page.click("#pz-next"))
    _answer(page, _wrong(second))
    said = page.inner_text(".pz-after")
    assert "Série terminée" in said and "1" in said, said
    assert page.evaluate("localStorage.getItem('euchre.puzzles.streak.4')") == "1"
    assert _rating(page) == rating  # a streak is not rated
    page.screenshot(path=str(SHOTS / "streak-over-fr-390x844.png"))
    # a new streak starts again from the easiest
    again = _served(page, "streak", lambda: page.click("#pz-next"))
    assert again == first
    context.close()
    assert errors == []


def test_the_lobby_links_to_the_puzzles(server: Server, browser: Any) -> None:
    context, page, errors = _open(browser, server.base, (390, 844))
    page.goto(server.base + "/")
    page.wait_for_selector("#create")
    _served(page, "next", lambda: page.click("a[href='/puzzles']"))
    assert json.loads(page.evaluate("JSON.stringify(location.pathname)")) == "/puzzles"
    context.close()
    assert errors == []




def test_a_mistake_from_your_review_becomes_one_of_your_puzzles(
        server: Server, browser: Any) -> None:
    """The review of a game you played here offers each mistake to your puzzles; the
    puzzles page serves it ("your mistakes"), and once solved it leaves the list."""
    game = server.create({"players": 2, "target": 1},
                         [{"kind": "you", "name": "Pat"}, {"kind": "bot", "bot": "basic"}])
    tid, token = game["id"], game["token"]
    play_out(server, tid, token)
    review = server.http.get(f"/api/tables/{tid}/matches/1/review",
                             headers={"X-Seat-Token": token}, timeout=120).json()
    mistakes = [k for k, d in enumerate(review["decisions"]) if d["mistake"]]
    if not mistakes:
        pytest.skip("no mistake in this game's review")
    context, page, errors = _open(browser, server.base, (390, 844))
    page.add_init_script(f"localStorage.setItem('euchre.token.{tid}', '{token}')")
    page.goto(f"{server.base}/history/{tid}/1")
    page.click("#h-review")
    page.click(".keep-mistake >> nth=0")
    page.wait_for_selector(".keep-mistake[disabled] >> nth=0")
    page.keyboard.press("Escape")
    page.goto(server.base + "/puzzles")
    page.wait_for_selector("#pz-board #felt .seat")
    with page.expect_response(lambda r: f"/puzzles/{mistakes[0]}" in r.url):
        page.click("input[value=mine] + span")
    page.wait_for_selector("#pz-board .seat")
    _answer(page, review["decisions"][mistakes[0]]["best"])
    assert "✓" in page.inner_text("#pz-result-title")
    page.screenshot(path=str(SHOTS / "mine-solved-390x844.png"))
    assert page.evaluate("localStorage.getItem('euchre.puzzles.mine')") == "[]"
    context.close()
    assert errors == []


LOCALES = {"en": "en-US", "fr": "fr-FR", "de": "de-DE", "da": "da-DK"}


@pytest.fixture(scope="module")
def mistake(server: Server) -> dict[str, Any] | None:
    """A game played here (two-handed, to 1 point, against the basic bot) and the first
    decision its review found a mistake: the table, the seat's token, the decision and
    its best action; ``None`` when three games had none."""
    for _ in range(3):
        game = server.create({"players": 2, "target": 1},
                             [{"kind": "you", "name": "Pat"}, {"kind": "bot", "bot": "basic"}])
        play_out(server, game["id"], game["token"])
        review = server.http.get(f"/api/tables/{game['id']}/matches/1/review",
                                 headers={"X-Seat-Token": game["token"]}, timeout=120).json()
        for k, d in enumerate(review["decisions"]):
            if d["mistake"]:
                return {"table": game["id"], "token": game["token"], "k": k, "best": d["best"]}
    return None


@pytest.mark.parametrize("size", [(360, 640), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", list(LOCALES))
def test_every_mode_of_the_puzzles_page_in_four_languages_on_a_phone_and_a_desktop(
        server: Server, browser: Any, mistake: dict[str, Any] | None, lang: str,
        size: tuple[int, int]) -> None:
    """Rated, the day's puzzle, a streak and your own mistakes, each answered, in the
    page's language: the title, the modes, the judgement and what follows it are worded in
    that language and no English phrase of the page is left."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    words = catalog_json(lang, "web")["messages"] if lang != "en" else {}
    assert isinstance(words, dict)

    def said(english: str) -> str:
        return str(words.get(english) or english)

    context, page, errors = _open(browser, server.base, size, LOCALES[lang])
    if mistake is not None:
        kept = json.dumps([{"table": mistake["table"], "match": 1, "k": mistake["k"]}])
        page.add_init_script(f"localStorage.setItem('euchre.puzzles.mine', '{kept}');"
                             f"localStorage.setItem('euchre.token.{mistake['table']}', "
                             f"'{mistake['token']}')")
    tag = f"{lang}-{size[0]}x{size[1]}"
    # rated: the next puzzle near your rating, solved
    puzzle = _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    assert page.text_content("#pz-title") == said("Puzzles")
    modes = page.inner_text(".puzzle-bar [role=radiogroup]")
    for mode in ("Rated", "Daily", "Streak", "Your mistakes"):
        assert said(mode) in modes, (mode, modes)
    _answer(page, puzzle.answer)
    assert said("Right!") in page.inner_text("#pz-result-title")
    page.screenshot(path=str(SHOTS / f"rated-{tag}.png"), full_page=True)
    assert untranslated(page.inner_text("body"), lang) == []
    # the day's puzzle, missed
    today = datetime.datetime.now(datetime.UTC).date()
    puzzle = _served(page, "daily", lambda: page.click("input[value=daily] + span"))
    assert puzzle == daily(shipped(4), today)
    _answer(page, _wrong(puzzle))
    assert said("Not this one.") in page.inner_text("#pz-result-title")
    page.screenshot(path=str(SHOTS / f"daily-{tag}.png"), full_page=True)
    assert untranslated(page.inner_text("body"), lang) == []
    # a streak, over at its first miss
    puzzle = _served(page, "streak", lambda: page.click("input[value=streak] + span"))
    _answer(page, _wrong(puzzle))
    assert said("New streak") == page.inner_text("#pz-next")
    page.screenshot(path=str(SHOTS / f"streak-{tag}.png"), full_page=True)
    assert untranslated(page.inner_text("body"), lang) == []
    # your mistakes: the one kept from the review, solved; or the word that none is kept
    if mistake is None:
        page.click("input[value=mine] + span")
        page.wait_for_selector("#pz-board p.panel")
        assert said("No mistakes of yours kept yet: in the review of a game you played "
                    "here, add its mistakes to your puzzles.") in page.inner_text("body")
    else:
        with page.expect_response(lambda r: f"/puzzles/{mistake['k']}" in r.url):
            page.click("input[value=mine] + span")
        page.wait_for_selector("#pz-board .seat")
        _answer(page, mistake["best"])
        assert said("Solved: it leaves your list.") in page.inner_text(".pz-after")
    page.screenshot(path=str(SHOTS / f"mine-{tag}.png"), full_page=True)
    assert untranslated(page.inner_text("body"), lang) == []
    context.close()
    assert errors == []


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_puzzle_under_house_rules_names_them_above_the_position(
        server: Server, browser: Any, lang: str) -> None:
    """A puzzle from a deal played with options other than its variant's defaults (stick
    the dealer and the joker, two-handed: RULES §1, §4) names them in the page's language,
    as the server lists them; the page's own request is answered with what the server
    serves for that puzzle."""
    rules = Rules(players=2, stick_the_dealer=True, joker=True)
    deal = Deal.from_cards(rules, dealer=0, hands=["9C TC JC QC KC", "AC 9D TD JD QD"],
                           turnup="KD")
    puzzle = make_puzzle(deal, 1, {Action.parse("order"): 1.2, Action.parse("pass"): 0.4},
                         Action.parse("order"), rating=1500)
    body = served(puzzle)
    assert body["house_rules"] == [{"option": "joker", "value": True},
                                   {"option": "stick_the_dealer", "value": True}]
    words = catalog_json(lang, "web")["messages"] if lang != "en" else {}
    assert isinstance(words, dict)

    def said(english: str) -> str:
        return str(words.get(english) or english)

    context, page, errors = _open(browser, server.base, (360, 640), LOCALES[lang])
    page.add_init_script("localStorage.setItem('euchre.puzzles.players', '2')")
    page.route("**/api/puzzles/next?*", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(body)))
    page.goto(server.base + "/puzzles")
    page.wait_for_selector("#pz-board #felt .seat")
    listed = ", ".join([said("Joker (benny)"), said("stick the dealer")])
    assert page.inner_text("#pz-house") == said("House rules: {rules}").format(rules=listed)
    assert untranslated(page.inner_text("body"), lang) == []
    page.screenshot(path=str(SHOTS / f"house-rules-{lang}.png"), full_page=True)
    assert errors == []
    context.close()


def test_the_theme_list_offers_the_variant_s_themes_with_their_counts(
        server: Server, browser: Any) -> None:
    """The theme list holds only themes some four-handed puzzle has, each with its count,
    and choosing one serves a puzzle with it."""
    counts = theme_counts(4)
    context, page, errors = _open(browser, server.base, (360, 640))
    _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    options = page.eval_on_selector_all("#pz-theme option", "os => os.map(o => o.value)")
    assert options == ["", *counts]
    label = page.inner_text("#pz-theme option[value=next]")
    assert label == f"next ({counts['next']:,})"
    puzzle = _served(page, "next", lambda: page.select_option("#pz-theme", "next"))
    assert "next" in puzzle.themes
    assert page.eval_on_selector("#pz-theme", "s => s.value") == "next"
    assert errors == []
    context.close()


def _rating_shown(page: Any) -> int:
    text = page.inner_text("#pz-facts")
    return int("".join(ch for ch in text.split("·")[0] if ch.isdigit()))


def test_a_link_opens_your_puzzle_ratings_on_another_device(
        server: Server, browser: Any) -> None:
    """A rating earned on a phone follows its link to a desktop that held puzzle ratings
    of its own (the server keeps the phone's under the link's key), and an answer there is
    the phone's rating on its next visit."""
    phone, page, errors = _open(browser, server.base, (360, 640))
    puzzle = _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    assert page.query_selector("#pz-device") is None  # no player before the first answer
    judged = _answer(page, puzzle.answer)
    assert judged["player"]["variants"]["4"]["rating"] == judged["rating"]
    earned = round(judged["rating"]["rating"])
    page.wait_for_selector("#pz-device")
    assert _rating_shown(page) == earned
    page.click("#pz-device")
    link = page.input_value("#pz-device-link")
    assert link.startswith(server.base + "/puzzles#player=")
    page.screenshot(path=str(SHOTS / "another-device-phone.png"), full_page=True)
    page.click("#close-dialog")
    desktop, other, other_errors = _open(browser, server.base, (1280, 800))
    # the desktop has puzzle ratings of its own already (a player of its own): the link
    # makes the phone's its player, and shows the phone's rating
    before = _served(other, "next", lambda: other.goto(server.base + "/puzzles"))
    own = _answer(other, _wrong(before))["player"]["id"]
    theirs = _served(other, "next", lambda: other.goto(link))
    assert _rating_shown(other) == earned
    kept = json.loads(other.evaluate("localStorage.getItem('euchre.puzzles.player')"))
    assert kept["id"] == judged["player"]["id"] != own
    assert "#" not in other.url  # the key leaves the address bar
    moved = _answer(other, _wrong(theirs))
    assert moved["before"]["rating"] == judged["rating"]["rating"]
    after = round(moved["rating"]["rating"])
    _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    assert _rating_shown(page) == after != earned
    assert errors == [] and other_errors == []
    phone.close()
    desktop.close()


def test_a_player_the_server_does_not_know_is_forgotten_and_a_new_one_made(
        server: Server, browser: Any) -> None:
    """A browser holding a puzzle player this server never made (another server's, or a
    database started afresh) is not stuck: the page forgets it, the answer is judged, and
    a new player keeps the rating."""
    context, page, errors = _open(browser, server.base, (360, 640))
    page.add_init_script("localStorage.setItem('euchre.puzzles.player', "
                         "JSON.stringify({id: 'nobody', key: 'not-a-key'}))")
    puzzle = _served(page, "next", lambda: page.goto(server.base + "/puzzles"))
    judged = _answer(page, puzzle.answer)
    assert judged["solved"] and judged["player"]["id"] != "nobody"
    kept = json.loads(page.evaluate("localStorage.getItem('euchre.puzzles.player')"))
    assert kept["id"] == judged["player"]["id"]
    mine = server.http.get(f"/api/puzzles/players/{kept['id']}",
                           headers={"X-Euchre-Key": kept["key"]})
    assert mine.json()["variants"]["4"]["rating"] == judged["rating"]
    assert errors == []
    context.close()
