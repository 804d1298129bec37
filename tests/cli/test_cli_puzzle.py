"""``euchre puzzle`` at a real terminal (issue 33): a puzzle answered right and wrong
moves the rating kept in the settings, the daily puzzle is the day's for everyone, a
streak ends at the first miss; ``--export`` prints puzzles that ``Deal.from_record``
rebuilds; the mistakes a review finds become the player's own puzzles."""

from __future__ import annotations

import datetime
import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest
from typer.testing import CliRunner

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.cli import app
from euchre.puzzles import Puzzle, daily, make_puzzle, write_puzzles

runner = CliRunner()
PROMPT = r"› ?$"
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def two_puzzles() -> list[Puzzle]:
    """Seat 1 of a two-handed deal: order the KD up (rated lower), then lead the right
    bower (rated higher)."""
    hands = ["9C TC JC QC KC", "AC 9D TD JD QD"]
    deal = Deal.from_cards(Rules(players=2), dealer=0, hands=hands, turnup="KD")
    bid = make_puzzle(deal, 1, {Action.parse("order"): 1.2, Action.parse("pass"): 0.4},
                      Action.parse("order"), rating=1400)
    deal.apply("order")
    deal.apply("discard 9C")
    values = {a: 0.9 if str(a) == "play JD" else 0.1 for a in deal.legal_actions()}
    lead = make_puzzle(deal, 1, values, Action.parse("JD"), rating=1700)
    return [bid, lead]


@pytest.fixture
def puzzles(tmp_path: Path) -> tuple[Path, dict[str, Puzzle]]:
    path = tmp_path / "puzzles.jsonl"
    made = two_puzzles()
    write_puzzles(path, made, {"command": "made by the test", "seed": 0})
    return path, {p.id: p for p in made}


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", *args],
        cwd=str(tmp_path), env={"TERM": "dumb", "PATH": "/usr/bin:/bin",
                                "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
                                "LANG": "C.UTF-8", "XDG_CONFIG_HOME": str(tmp_path / "config"),
                                "XDG_DATA_HOME": str(tmp_path / "data")},
        encoding="utf-8", dimensions=(50, 200), timeout=120)


def served(child: pexpect.spawn[str], known: dict[str, Puzzle]) -> Puzzle:
    """The puzzle whose position the trainer tells, once it asks."""
    child.expect(r"Puzzle ([0-9a-f]{12}) · rated")
    shown = child.match
    assert isinstance(shown, re.Match)
    child.expect(PROMPT)
    return known[shown.group(1)]


def saved_rating(tmp_path: Path) -> float:
    settings = json.loads((tmp_path / "config" / "euchre" / "settings.json").read_text())
    return float(settings["puzzles"]["2"]["rating"]["rating"])


def wrong(puzzle: Puzzle) -> str:
    return min(puzzle.values, key=lambda a: puzzle.values[a]).removeprefix("play ")


@pytest.mark.parametrize("right", [True, False])
def test_an_answer_right_or_wrong_is_explained_and_moves_the_rating(
        tmp_path: Path, puzzles: tuple[Path, dict[str, Puzzle]], right: bool) -> None:
    """The player types the move as in a game; the trainer says whether it is the
    expert's, every action's value and why, and the rating's change, which is kept."""
    path, known = puzzles
    child = spawn(tmp_path, "puzzle", "--players", "2", "--file", str(path), "--seed", "3")
    puzzle = served(child, known)
    child.sendline(puzzle.answer.removeprefix("play ") if right else wrong(puzzle))
    child.expect("Right!" if right else "Not this one. The expert's move is")
    child.expect(r"Values \(expected points for your side this deal\): ")
    child.expect(r"Your rating: 1500 → (\d+) \(([+-]\d+)\)")
    found = child.match
    assert isinstance(found, re.Match)
    assert (int(found.group(2)) > 0) is right
    child.expect(r"Another puzzle\? \[Y/n\]")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (saved_rating(tmp_path) > 1500) is right


def test_the_daily_puzzle_is_the_day_s_for_everyone(
        tmp_path: Path, puzzles: tuple[Path, dict[str, Puzzle]]) -> None:
    path, known = puzzles
    day = datetime.datetime.now(datetime.UTC).date()  # the day by UTC, the world's
    today = daily(list(known.values()), day)
    assert today is not None
    child = spawn(tmp_path, "puzzle", "--players", "2", "--file", str(path), "--daily")
    child.expect(r"Daily puzzle (\S+) · rated (\d+)")
    found = child.match
    assert isinstance(found, re.Match)
    assert found.group(1) == day.isoformat() and int(found.group(2)) == today.rating
    child.expect(PROMPT)
    child.sendline(today.answer.removeprefix("play "))
    child.expect("Right!")
    child.expect(r"Your rating: 1500 → \d+")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_streak_serves_the_easiest_first_and_ends_at_the_first_miss(
        tmp_path: Path, puzzles: tuple[Path, dict[str, Puzzle]]) -> None:
    path, known = puzzles
    easy, hard = sorted(known.values(), key=lambda p: p.rating)
    child = spawn(tmp_path, "puzzle", "--players", "2", "--file", str(path), "--streak")
    child.expect(r"Streak 1 · rated (\d+)")
    child.expect(PROMPT)
    child.sendline(easy.answer)
    child.expect("Right!")
    child.expect(r"Streak 2 · rated (\d+)")
    found = child.match
    assert isinstance(found, re.Match) and int(found.group(1)) == hard.rating
    child.expect(PROMPT)
    child.sendline(wrong(hard))
    child.expect("Not this one.")
    child.expect(r"Streak over: 1 puzzle solved in a row\. Your best: 1\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("players", [2, 4])
def test_export_prints_puzzles_whose_records_rebuild_the_position(players: int) -> None:
    result = runner.invoke(app, ["puzzle", "--export", "5", "--players", str(players),
                                 "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    for line in lines:
        data = json.loads(line)
        assert {"rules", "record", "seat", "answer", "values", "themes", "rating"} <= set(data)
        deal = Deal.from_record(data["record"])
        assert deal.rules.players == players and deal.to_move == data["seat"]
        assert Action.parse(data["answer"]) in deal.legal_actions()
        assert set(data["values"]) == {str(a) for a in deal.legal_actions()}


def test_a_review_s_mistakes_become_the_player_s_own_puzzles(tmp_path: Path) -> None:
    """``euchre analyze`` finds passing with four trumps a mistake; ``euchre puzzle
    --mine`` then serves that position, and once solved it leaves the list."""
    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    for a in ["pass", "pass", "pass", "trump C", "9D", "9C"]:
        deal.apply(a)
    record = tmp_path / "deal.json"
    record.write_text(json.dumps(deal.to_record().to_json()))
    review = runner.invoke(app, ["analyze", str(record), "--seat", "1", "--json"])
    assert review.exit_code == 0, review.output
    assert json.loads(review.stdout)["mistakes"] >= 1
    exported = runner.invoke(app, ["puzzle", "--mine", "--players", "2", "--export", "9"])
    mine = [Puzzle.from_json(json.loads(line)) for line in exported.stdout.splitlines()]
    assert mine and mine[0].record["actions"] == []  # the first pass was the mistake
    assert mine[0].answer == "order"
    answers = "".join(f"{p.answer}\ny\n" for p in mine)
    solved = runner.invoke(app, ["puzzle", "--mine", "--players", "2"], input=answers)
    assert solved.exit_code == 0, solved.output
    assert "You have solved all your own puzzles." in solved.stdout
    again = runner.invoke(app, ["puzzle", "--mine", "--players", "2"])
    assert "No mistakes of yours kept yet" in again.stdout


def test_the_mistakes_of_a_game_s_review_become_the_player_s_puzzles(tmp_path: Path) -> None:
    """A game of one deal played at the terminal, reviewed at its end: each mistake the
    review counts is one of the player's own puzzles, each a position of that game."""
    child = spawn(tmp_path, "play", "--players", "2", "--to", "1", "--seed", "5",
                  "--delay", "0", "--bots", "basic")
    while child.expect([r"Review your decisions\? \[Y/n\] $", PROMPT]) == 1:
        child.sendline("1")
    child.sendline("")  # yes
    child.expect(r"(\d+) mistakes? \(a cost of")
    counted = child.match
    assert isinstance(counted, re.Match)
    child.expect(r"Save the game record\? File name \(Enter to skip\) › $")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    path = tmp_path / "data" / "euchre" / "puzzles-mine.jsonl"
    lines = path.read_text().splitlines() if path.exists() else []
    assert len(lines) == int(counted.group(1)) >= 1  # playing the first choice errs
    for line in lines:
        puzzle = Puzzle.from_json(json.loads(line))
        assert puzzle.seat == 0 and puzzle.record["rules"]["players"] == 2
        assert Action.parse(puzzle.answer) in Deal.from_record(puzzle.record).legal_actions()


def test_a_puzzle_under_house_rules_names_them_above_the_position(tmp_path: Path) -> None:
    """A puzzle whose deal was played with options other than the variant's defaults
    (here stick the dealer and the joker, two-handed: RULES §1, §4) names them before it
    asks; one under the defaults names none."""
    rules = Rules(players=2, stick_the_dealer=True, joker=True)
    hands = ["9C TC JC QC KC", "AC 9D TD JD QD"]
    deal = Deal.from_cards(rules, dealer=0, hands=hands, turnup="KD")
    house = make_puzzle(deal, 1, {Action.parse("order"): 1.2, Action.parse("pass"): 0.4},
                        Action.parse("order"), rating=1500)
    path = tmp_path / "house.jsonl"
    write_puzzles(path, [house], {"command": "made by the test", "seed": 0})
    child = spawn(tmp_path, "puzzle", "--players", "2", "--file", str(path))
    child.expect(f"Puzzle {house.id} · rated")
    child.expect("House rules: the joker, stick the dealer")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    plain = two_puzzles()[0]
    path = tmp_path / "plain.jsonl"
    write_puzzles(path, [plain], {"command": "made by the test", "seed": 0})
    child = spawn(tmp_path, "puzzle", "--players", "2", "--file", str(path))
    served(child, {plain.id: plain})
    assert "House rules" not in (child.before or "")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()


def test_a_theme_no_puzzle_has_names_the_themes_there_are(
        puzzles: tuple[Path, dict[str, Puzzle]]) -> None:
    """Asking for a theme none of the variant's puzzles has says so, and counts the
    themes there are, rather than a bare "no puzzles"."""
    path, _known = puzzles
    result = runner.invoke(app, ["puzzle", "--players", "2", "--file", str(path),
                                 "--theme", "loner", "--lang", "en"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "No puzzle here has every theme asked (loner)." in said
    assert "Themes here: bidding (1), the lead (1), trump lead (1)" in said
