"""``euchre play --resume FILE``: a game saved before its end goes on exactly where it
stopped; what cannot be resumed is refused in one line.  Also the bots' levels off a
terminal, and their plain names.  (At a terminal: tests/cli/test_cli_terminal.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from euchre.cli import app
from euchre.cli.difficulty import remember_level, remembered_level, settings_path

runner = CliRunner()

ANSWERS = "1\n" * 600
"""Enough "1"s for any game."""


@pytest.fixture(autouse=True)
def config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings go to a folder of the test's own, never the user's."""
    folder = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


def play(*args: str, answers: str = ANSWERS) -> Result:
    return runner.invoke(app, ["play", "--delay", "0", *args], input=answers)


def read(path: Path) -> dict[str, Any]:
    record = json.loads(path.read_text())
    assert isinstance(record, dict)
    return record


def left_early(tmp_path: Path, *args: str, moves: int = 3) -> Path:
    """A game left with ``q`` after ``moves`` answers, saved to ``left.json``."""
    path = tmp_path / "left.json"
    result = play(*args, "--save", str(path), answers="1\n" * moves + "q\ny\n")
    assert result.exit_code == 0, result.output
    assert read(path)["winners"] == []
    return path


VARIANTS = [
    ("--seed", "9"),
    ("--seed", "12", "--draw", "--seat", "1"),
    ("--seed", "4", "--players", "3", "--to", "3"),
    ("--seed", "28", "--players", "5", "--to", "3", "--bots", "random,basic,random,basic"),
    ("--seed", "6", "--players", "2", "--joker", "--to", "4"),
]


@pytest.mark.parametrize("args", VARIANTS)
def test_a_resumed_game_deals_the_deals_the_game_would_have_dealt(
        tmp_path: Path, args: tuple[str, ...]) -> None:
    """Quit, resume, finish: every deal is the one the same game played through deals, the
    bots and the seats are the same, and the deal in progress is told again."""
    left = read(left_early(tmp_path, *args))
    done_path = tmp_path / "done.json"
    resumed = play("--resume", str(tmp_path / "left.json"), "--save", str(done_path))
    assert resumed.exit_code == 0, resumed.output
    assert "Going on with the game saved in" in resumed.stdout
    assert "Game over" in resumed.stdout
    through_path = tmp_path / "through.json"
    assert play(*args, "--save", str(through_path)).exit_code == 0
    done, through = read(done_path), read(through_path)
    assert done["winners"]
    assert done["seats"] == through["seats"] == left["seats"]
    assert done["first_dealer"] == through["first_dealer"]
    assert done.get("draw") == through.get("draw")
    common = min(len(done["deals"]), len(through["deals"]))
    assert common > len(left["deals"])  # deals dealt after the game was resumed, too
    for mine, theirs in zip(done["deals"][:common], through["deals"][:common], strict=True):
        assert (mine["dealer"], mine["hands"], mine["turnup"], mine["kitty"]) == \
            (theirs["dealer"], theirs["hands"], theirs["turnup"], theirs["kitty"])
    first = left["deals"][-1]["actions"]
    assert done["deals"][len(left["deals"]) - 1]["actions"][:len(first)] == first


def test_the_deal_in_progress_is_told_again_up_to_where_it_stopped(tmp_path: Path) -> None:
    path = left_early(tmp_path, "--seed", "9", moves=2)
    result = play("--resume", str(path), answers="q\ny\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "You pass" in out  # the person's own bid, before the game was saved
    assert out.index("Going on with") < out.index("Deal 1") < out.index("You pass")
    assert "seed 9: play it again with --seed 9" in out


def test_a_game_resumed_and_left_again_can_be_resumed_again(tmp_path: Path) -> None:
    first = left_early(tmp_path, "--seed", "9", moves=2)
    again = tmp_path / "again.json"
    assert play("--resume", str(first), "--save", str(again),
                answers="1\n" * 8 + "q\ny\n").exit_code == 0
    assert read(again)["seed"] == 9
    assert len(read(again)["deals"]) >= len(read(first)["deals"])
    result = play("--resume", str(again))
    assert result.exit_code == 0 and "Game over" in result.stdout


def one_line_refusal(result: Result, status: int = 1) -> str:
    assert result.exit_code == status, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    return result.stderr


def test_resuming_a_finished_game_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "over.json"
    assert play("--seed", "9", "--players", "2", "--to", "1",
                "--save", str(path)).exit_code == 0
    said = one_line_refusal(play("--resume", str(path)))
    assert f"{path}: that game is over: North won with " in said
    assert "replay" in said


@pytest.mark.parametrize(("text", "said"), [
    ("garbage\n", "not a saved game: line 1 is not JSON"),
    ("", "not a saved game: the file holds no record"),
    ("[1, 2]\n", "not a saved game: record 1 is not a JSON object"),
    ('{"rules": {}, "deals": [], "seats": []}\n', "holds no deal to go on from"),
    ('{"rules": {"players": 9}, "deals": [{}]}\n', "a damaged game record: game rules"),
    ('{"rules": {}, "deals": [{"dealer": 0}]}\n', "a damaged game record: deal 1"),
])
def test_resuming_what_is_not_a_saved_game_is_refused_in_one_line(
        tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(text)
    assert said in one_line_refusal(play("--resume", str(path)))


def test_resuming_a_deal_record_or_several_records_is_refused_in_one_line(
        tmp_path: Path) -> None:
    game = read(left_early(tmp_path, "--seed", "9"))
    deal = {"rules": game["rules"], **game["deals"][0]}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal) + "\n")
    assert "the record of one deal, not of a game" in one_line_refusal(
        play("--resume", str(path)))
    path.write_text(json.dumps(game) + "\n" + json.dumps(game) + "\n")
    assert "the file holds 2 records" in one_line_refusal(play("--resume", str(path)))


def test_a_record_whose_cards_were_changed_is_refused_in_one_line(tmp_path: Path) -> None:
    path = left_early(tmp_path, "--seed", "9")
    record = read(path)
    hands = record["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    record["deals"][0]["actions"] = []
    path.write_text(json.dumps(record) + "\n")
    said = one_line_refusal(play("--resume", str(path)))
    assert "deal 1 is not the one seed 9 deals" in said


def test_a_missing_file_is_refused_in_one_line(tmp_path: Path) -> None:
    assert "cannot read" in one_line_refusal(play("--resume", str(tmp_path / "none.json")))


def test_options_that_disagree_with_the_saved_game_are_refused_naming_them(
        tmp_path: Path) -> None:
    path = left_early(tmp_path, "--seed", "9")
    said = one_line_refusal(play("--resume", str(path), "--to", "5", "--seed", "3",
                                 "--joker", "--bots", "expert", "--seat", "2"), 2)
    for named in ("--to 5 (saved: target 10)", "--seed 3 (saved: seed 9)",
                  "--joker (saved: joker off)", "--bots expert (saved: basic)",
                  "--seat 2 (saved: seat 0)"):
        assert named in said
    assert "--watch (saved: you play" in one_line_refusal(
        play("--resume", str(path), "--watch"), 2)


def test_options_that_agree_with_the_saved_game_are_accepted(tmp_path: Path) -> None:
    path = left_early(tmp_path, "--seed", "9")
    result = play("--resume", str(path), "--players", "4", "--to", "10", "--seed", "9",
                  "--bots", "basic", "--seat", "0", "--no-joker")
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout


def test_a_record_without_seed_or_levels_goes_on_with_new_deals_and_the_bots_given(
        tmp_path: Path) -> None:
    """A game record from elsewhere (no seed, bots unnamed): its deals are played again as
    recorded, the deals to come come from --seed, the bots from --bots, and both are
    said."""
    path = left_early(tmp_path, "--seed", "9")
    record = read(path)
    del record["seed"]
    record["seats"] = ["You", "West", "North", "East"]
    path.write_text(json.dumps(record) + "\n")
    done = tmp_path / "done.json"
    result = play("--resume", str(path), "--seed", "77", "--bots", "expert",
                  "--save", str(done))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "the deals to come are dealt from seed 77" in out
    assert "they play as Expert" in out and "(Expert bots)" in out
    assert "play it again with --seed" not in out  # no seed replays these deals
    saved = read(done)
    assert "seed" not in saved and saved["seats"][1] == "West (expert)"
    assert saved["deals"][0]["hands"] == record["deals"][0]["hands"]


def test_a_watched_game_is_resumed_watched(tmp_path: Path) -> None:
    path = tmp_path / "watched.json"
    result = play("--seed", "9", "--watch", "--save", str(path), answers="")
    assert result.exit_code == 0
    record = read(path)
    record["deals"] = record["deals"][:1]
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:5]
    del record["deals"][0]["score"]
    record["winners"], record["scores"] = [], [0, 0, 0, 0]
    path.write_text(json.dumps(record) + "\n")
    result = play("--resume", str(path), answers="")
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout and "Your hand" not in result.stdout


# -- the bots' level off a terminal, and its plain name ---------------------------------
def test_off_a_terminal_the_bots_are_casual_whatever_is_remembered(
        config_folder: Path) -> None:
    remember_level("expert")
    result = play("--seed", "9", "--players", "2", "--to", "1")
    assert result.exit_code == 0
    assert "How well" not in result.stdout
    assert "At the table, clockwise: You, North (Casual bot)" in result.stdout
    assert remembered_level() == "expert"  # nothing chosen, nothing forgotten


def test_the_settings_live_in_the_user_configuration_folder(config_folder: Path) -> None:
    assert settings_path() == config_folder / "euchre" / "settings.json"
    remember_level("random")
    assert json.loads(settings_path().read_text()) == {"level": "random"}
    settings_path().write_text('{"level": "expert", "other": 1}')
    remember_level("basic")  # other settings are kept
    assert json.loads(settings_path().read_text()) == {"level": "basic", "other": 1}


@pytest.mark.parametrize("damage", [b"{", b"[]", b'{"level": 3}', b'{"level": "x"}',
                                    b"\xff\xfe", b"[" * 100_000])
def test_a_damaged_settings_file_remembers_nothing(damage: bytes) -> None:
    settings_path().parent.mkdir(parents=True)
    settings_path().write_bytes(damage)
    assert remembered_level() is None


def test_an_unwritable_settings_folder_is_no_error(config_folder: Path) -> None:
    config_folder.write_text("a file where the folder should be")
    remember_level("expert")  # nothing raised
    assert remembered_level() is None


@pytest.mark.parametrize(("lang", "shown"), [("fr", "(bot\u202f: Amateur)"),
                                             ("de", "(Bot: Freizeitspieler)"),
                                             ("da", "(bot: Hyggespiller)")])
def test_the_header_names_the_level_plainly_in_the_language(lang: str, shown: str) -> None:
    result = play("--seed", "9", "--players", "2", "--to", "1", "--lang", lang)
    assert shown in result.stdout


@pytest.mark.parametrize(("lang", "yes"), [("fr", "o"), ("de", "j"), ("da", "j")])
def test_a_game_saved_in_another_language_names_you_and_is_resumed(
        tmp_path: Path, lang: str, yes: str) -> None:
    """The record names the seats in English whatever the game's language (RECORDS.md):
    ``--resume``, ``replay`` and ``analyze`` find the person as ``You``."""
    path = tmp_path / "left.json"
    result = play("--seed", "9", "--lang", lang, "--save", str(path),
                  answers="1\n" * 3 + f"q\n{yes}\n")
    assert result.exit_code == 0, result.output
    assert read(path)["seats"] == ["You", "West (basic)", "North (basic)", "East (basic)"]
    resumed = play("--resume", str(path), "--lang", lang)
    assert resumed.exit_code == 0, resumed.output
