"""``euchre replay``: exactly the RECORDS replay objects, and one stderr line for a fault."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from euchre import Deal, Rules
from euchre.bots import make_bot, play_game
from euchre.cli import app
from euchre.cli.results import score_words
from euchre.cli.seats import SeatNames
from euchre.records import game_record

runner = CliRunner()

# Four-handed, seat 1 holds the five top hearts, orders the ten of hearts up alone, and
# marches: seat 3 (the partner) sits out, the dealer (seat 0) exchanges (RULES §4, §5, §9).
HANDS = ["9C TC JC QC KC", "JH JD AH KH QH", "9S TS JS QS KS", "AC 9D TD QD KD"]
MARCH = ["order alone", "discard 9C",
         "JH", "9S", "TH",
         "JD", "TS", "TC",
         "AH", "JS", "JC",
         "KH", "QS", "QC",
         "QH", "KS", "KC"]
MARCH_RESULT = {"trump": "H", "maker": 1, "alone": True, "lone_defender": None,
                "partner": None, "tricks": [0, 5, 0, 0], "points": [0, 4, 0, 4],
                "complete": True}


def deal_record(actions: list[str]) -> dict[str, Any]:
    """The record of the deal above after ``actions`` (applied by the engine, so legal)."""
    deal = Deal.from_cards(Rules(players=4), dealer=0, hands=HANDS, turnup="TH")
    record = deal.to_record().to_json()
    record["actions"] = list(actions)
    return record


def replay(tmp_path: Path, text: str, *options: str) -> Result:
    """Write ``text`` to a file and replay it."""
    path = tmp_path / "records.json"
    path.write_text(text)
    return runner.invoke(app, ["replay", *options, str(path)], env={"COLUMNS": "250"})


def test_a_deal_replays_to_the_records_object(tmp_path: Path) -> None:
    result = replay(tmp_path, json.dumps(deal_record(MARCH)), "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert [json.loads(line) for line in result.stdout.splitlines()] == [MARCH_RESULT]
    # the exact text: RECORDS key order and JSON spacing
    assert result.stdout == json.dumps(MARCH_RESULT) + "\n"


def test_the_engine_agrees_with_the_scripted_deal() -> None:
    deal = Deal.from_record(deal_record(MARCH))
    assert deal.result.to_json() == MARCH_RESULT
    assert deal.sitting_out == (3,)


def test_an_unfinished_deal_replays_as_incomplete(tmp_path: Path) -> None:
    result = replay(tmp_path, json.dumps(deal_record(MARCH[:5])), "--json")
    assert result.exit_code == 0
    summary = json.loads(result.stdout)
    assert summary["complete"] is False and summary["tricks"] == [0, 1, 0, 0]
    assert summary["points"] == [0, 0, 0, 0]


def test_summary_gives_a_line_per_deal_in_words(tmp_path: Path) -> None:
    result = replay(tmp_path, json.dumps(deal_record(MARCH)), "--summary")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Deal 1 · South deals: West makes hearts trump alone; West marches alone: 4 points; "
        "tricks North & South 0 · East & West 5"]


def test_replay_tells_the_deal_trick_by_trick_with_every_hand_open(tmp_path: Path) -> None:
    result = replay(tmp_path, json.dumps(deal_record(MARCH)))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"─ Deal 1 · South deals ─", out)
    for name, hand in zip(["South", "West", "North", "East"], HANDS, strict=True):
        shown = re.search(rf"^  {name}: +(.*)$", out, re.MULTILINE)
        assert shown is not None and set(shown[1].split()) == set(hand.split())
    assert "West orders it up alone" in out
    assert "South picks up TH and discards 9C" in out  # open hands: the discard too
    assert "East lays the hand face down and sits out" in out
    rows = re.findall(r"^Trick (\d)  (.*)$", out, re.MULTILINE)
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5"]
    assert rows[0][1].startswith("West led JH (right bower) · North 9S · South TH  → West "
                                 "wins with JH, the right bower (the highest trump)")
    assert "West marches alone: 4 points" in out
    assert "seat" not in out


def test_replay_seat_tells_what_that_seat_saw(tmp_path: Path) -> None:
    result = replay(tmp_path, json.dumps(deal_record(MARCH)), "--seat", "2")
    assert result.exit_code == 0
    out = result.stdout
    # seat 2 sits South; the dealer (seat 0) is North, and its discard stays hidden
    assert "South's hand: KS QS JS TS 9S" in out
    assert "North picks up TH and discards a card face down" in out
    assert "9C" not in out.split("Trick 1")[0].replace("9C TC JC QC KC", "")
    assert "Kitty" not in out
    assert re.search(r"^Trick 1  East led JH", out, re.MULTILINE)


@pytest.mark.parametrize(("args", "words"), [
    (["--seat", "4"], "--seat is a seat from 0 to 3, not 4"),
    (["--json", "--summary"], "--json and --summary"),
])
def test_bad_options_exit_2_with_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    result = replay(tmp_path, json.dumps(deal_record(MARCH)), *args)
    assert result.exit_code == 2
    assert words in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == ""


@pytest.mark.parametrize(("index", "bad", "words"), [
    (2, "play 9S", "does not hold 9S"),          # seat 1 leads, and holds no spade
    (4, "KC", "must follow hearts"),             # the dealer holds TH: must follow
    (0, "trump H", "round 1"),                   # naming a suit in round 1
    (1, "discard AH", "does not hold AH"),       # the dealer's exchange
    (3, "plya 9S", "not an action"),             # malformed text
])
def test_an_illegal_action_stops_with_one_line(
    tmp_path: Path, index: int, bad: str, words: str
) -> None:
    actions = list(MARCH)
    actions[index] = bad
    result = replay(tmp_path, json.dumps(deal_record(actions)), "--json")
    assert result.exit_code == 1
    assert result.stdout == ""  # nothing else for that deal
    assert result.stderr.count("\n") == 1
    line = result.stderr.strip()
    assert f"deal 1, action {index + 1} " in line  # counted from 1, as people count
    assert repr(bad) in line
    assert words in line
    assert "RULES" in line or "not an action" in line


def test_json_lines_with_several_deals(tmp_path: Path) -> None:
    thrown_in = Deal.from_cards(Rules(players=4), dealer=2, hands=HANDS, turnup="TH")
    while not thrown_in.is_over:
        thrown_in.apply("pass")
    records = [deal_record(MARCH), thrown_in.to_record().to_json(), deal_record(MARCH[:3])]
    text = "\n".join(json.dumps(r) for r in records) + "\n"
    result = replay(tmp_path, text, "--json")
    assert result.exit_code == 0
    summaries = [json.loads(line) for line in result.stdout.splitlines()]
    assert summaries[0] == MARCH_RESULT
    assert summaries[1] == {"trump": None, "maker": None, "alone": False,
                            "lone_defender": None, "partner": None, "tricks": [0] * 4,
                            "points": [0] * 4, "complete": True}
    assert summaries[2]["complete"] is False
    text_result = replay(tmp_path, text, "--summary")
    lines = text_result.stdout.splitlines()
    assert [line.split(" · ")[0] for line in lines] == ["Deal 1", "Deal 2", "Deal 3"]
    assert lines[1] == "Deal 2 · North deals: all passed, the cards are thrown in"
    assert lines[2].endswith("unfinished after 0 tricks")
    told = replay(tmp_path, text).stdout
    assert re.findall(r"─ (Deal \d) · ", told) == ["Deal 1", "Deal 2", "Deal 3"]
    assert "The record stops here: the deal is unfinished." in told


def test_a_fault_in_a_later_record_keeps_the_earlier_ones(tmp_path: Path) -> None:
    bad = list(MARCH)
    bad[6] = "AH"
    text = json.dumps(deal_record(MARCH)) + "\n" + json.dumps(deal_record(bad)) + "\n"
    result = replay(tmp_path, text, "--json")
    assert result.exit_code == 1
    assert [json.loads(line) for line in result.stdout.splitlines()] == [MARCH_RESULT]
    assert re.match(r"euchre: \S+records\.json: record 2, deal 1, action 7 'AH'", result.stderr)
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_game_record_replays_with_the_running_score(players: int, tmp_path: Path) -> None:
    rules = Rules(players=players, target=5)
    game = play_game(rules, [make_bot("basic", seed=s) for s in range(players)], seed=3)
    record = game_record(game).to_json()
    result = replay(tmp_path, json.dumps(record), "--json")
    assert result.exit_code == 0
    summaries = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(summaries) == len(game.deals)
    assert [s["score"] for s in summaries] == [d["score"] for d in record["deals"]]
    assert summaries[-1]["score"] == list(game.scores)
    for summary, deal in zip(summaries, game.deals, strict=True):
        assert {k: v for k, v in summary.items() if k != "score"} == deal.result.to_json()
    text = replay(tmp_path, json.dumps(record), "--summary")
    assert text.exit_code == 0
    names = SeatNames.around(players, 0, person=False)
    assert text.stdout.splitlines()[-1].endswith(
        f"score {score_words(game.scores, names, 5)}")
    told = replay(tmp_path, json.dumps(record)).stdout
    assert told.count("Score: ") == len(game.deals)
    assert "Game over" in told and "Final score: " + score_words(game.scores, names, 5) in told


def test_a_game_saved_by_play_keeps_its_seat_names(tmp_path: Path) -> None:
    rules = Rules(players=4, target=3)
    game = play_game(rules, [make_bot("basic", seed=s) for s in range(4)], seed=2)
    record = game_record(game, ["You", "West (basic)", "North (basic)", "East (basic)"]).to_json()
    out = replay(tmp_path, json.dumps(record)).stdout
    assert "At the table, clockwise: You, West, North, East (Casual bots)" in out
    assert "You & North play against East & West" in out
    assert re.search(r"^  You: ", out, re.MULTILINE)
    assert re.findall(r"─ Deal (\d+) · ", out) == [str(k) for k in
                                                    range(1, len(game.deals) + 1)]


def test_a_missing_file_gives_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nothing.json")])
    assert result.exit_code == 1
    assert "cannot read" in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", "", '{"dealer": 0}'])
def test_malformed_json_gives_one_line(tmp_path: Path, text: str) -> None:
    result = replay(tmp_path, text, "--json")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("euchre: ") and result.stderr.count("\n") == 1


def test_standard_input() -> None:
    result = runner.invoke(app, ["replay", "--json", "-"],
                           input=json.dumps(deal_record(MARCH)))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == MARCH_RESULT
