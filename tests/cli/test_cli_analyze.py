"""``euchre analyze``: the table, the JSON object, mistakes flagged, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from euchre.bots import make_bot, play_game
from euchre.cli import app
from euchre.deal import Deal
from euchre.records import game_record
from euchre.rules import Rules

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def bad_play_record() -> dict[str, Any]:
    """Seat 1 throws 9C where ruffing with JH makes its bid (see tests/test_analysis.py)."""
    deal = Deal.from_cards(Rules(players=2), dealer=1, turnup="9H",
                           hands=["TC KS 9D AS QD", "AC 9S TS JH 9C"])
    for a in ("pass", "order", "discard 9H", "TC", "AC", "9S", "KS", "9D", "TS", "AS",
              "9C", "QD", "JH"):
        deal.apply(a)
    return deal.to_record().to_json()


def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_json_flags_the_bad_play(tmp_path: Path) -> None:
    file = write(tmp_path, bad_play_record())
    # 64 worlds: the throw's cost (about a point) is then estimated well above 0.5
    result = runner.invoke(app, ["analyze", file, "--seat", "1", "--json", "--samples", "64"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert set(data) == {"seat", "decisions", "total_cost", "mistakes"}
    assert data["seat"] == 1
    for d in data["decisions"]:
        assert set(d) == {"deal", "index", "phase", "played", "best", "cost", "mistake"}
    bad = [d for d in data["decisions"] if d["index"] == 10]
    assert bad == [{"deal": 0, "index": 10, "phase": "play", "played": "play 9C",
                    "best": "play JH", "cost": bad[0]["cost"], "mistake": True}]
    assert bad[0]["cost"] >= 0.5
    assert data["mistakes"] >= 1
    assert data["total_cost"] >= bad[0]["cost"] - 1e-9


def test_table(tmp_path: Path) -> None:
    file = write(tmp_path, bad_play_record())
    result = runner.invoke(app, ["analyze", file, "--seat", "1", "--samples", "16"], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.stdout
    # seat 1 sits South; deals and moves count from 1; the 11th move, in trick 4
    assert "South's decisions (seat 1) against the expert bot" in out
    assert re.search(r"┃ deal ┃ move ┃ when +┃ played +┃ expert +┃ +cost ┃", out)
    assert re.search(r"│ +1 │ +11 │ trick 4 +│ 9C +│ JH +│ +\d\.\d\d │ mistake │", out)
    assert re.search(r"│ +1 │ +2 │ bidding, round 1 +│", out)
    assert "decisions" in out and "expected cost" in out


def test_table_explains_its_columns(tmp_path: Path) -> None:
    file = write(tmp_path, bad_play_record())
    out = runner.invoke(app, ["analyze", file, "--seat", "1", "--samples", "4"],
                        env=WIDE).stdout
    for column in ("deal: the deal's number, from 1", "move: the action's number in that "
                   "deal, from 1", "when: ", "played: ", "expert: ", "cost: the points"):
        assert column in out
    assert "(a cost of 0.3 points or more; --threshold)" in out


def test_a_game_saved_by_play_names_you(tmp_path: Path) -> None:
    game = play_game(Rules(players=2, target=2), [make_bot("basic", s) for s in range(2)],
                     seed=4)
    file = write(tmp_path, game_record(game, ["You", "North (basic)"]).to_json())
    out = runner.invoke(app, ["analyze", file, "--samples", "3"], env=WIDE).stdout
    assert "Your decisions (seat 0) against the expert bot" in out


def test_game_record_reviews_the_person_by_default(tmp_path: Path) -> None:
    game = play_game(Rules(players=2, target=2), [make_bot("basic", s) for s in range(2)],
                     seed=4)
    file = write(tmp_path, game_record(game, ["You", "North (basic)"]).to_json())
    result = runner.invoke(app, ["analyze", file, "--json", "--samples", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seat"] == 0 and data["decisions"]


def test_errors(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["analyze", str(tmp_path / "nope.json")])
    assert missing.exit_code == 1 and "cannot read" in missing.stderr
    file = write(tmp_path, bad_play_record())
    seat = runner.invoke(app, ["analyze", file, "--seat", "7"])
    assert seat.exit_code == 2 and "seat" in seat.stderr
    broken = bad_play_record()
    broken["actions"][3] = "JH"
    bad = runner.invoke(app, ["analyze", write(tmp_path, broken)])
    assert bad.exit_code == 1 and "action 4 " in bad.stderr
