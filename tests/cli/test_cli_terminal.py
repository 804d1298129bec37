"""``euchre play`` at a real terminal (a pseudo-terminal driven by pexpect): the questions
that are asked only there (the menu of levels, the review, the offer to save), Ctrl-D and
Ctrl-C, keys typed ahead, line editing, a game quit and resumed."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

PROMPT = r"› $"
SAVE_PROMPT = r"Save the game record\? File name \(Enter to skip\) › $"
REPLACE = r"Replace it\? \[y/N\] $"
REVIEW = r"Review your decisions\? \[Y/n\] $"
MENU = r"Level \(Enter: (\w+)\) › $"

FINISHED = {"rules": {"players": 2}, "seats": ["You", "North"], "deals": [{}, {}],
            "winners": [1]}
"""A stand-in for a finished game saved earlier: only what is kept matters."""


def spawn(folder: Path, *args: str, menu: bool = False) -> pexpect.spawn[str]:
    """``euchre play`` on a pseudo-terminal, without colours, wide enough for every line.

    Its settings (the level remembered) go to ``folder/config``.  Unless ``menu``, the
    bots are named (``--bots basic``, today's default), so that no menu of levels is
    shown."""
    bots = [] if menu or "--bots" in args else ["--bots", "basic"]
    child = pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", "play", *bots, *args],
        cwd=str(folder), env={"TERM": "dumb", "PATH": "/usr/bin:/bin",
                 "PYTHONPATH": os.environ.get("PYTHONPATH", ""), "COLUMNS": "200",
                              "XDG_CONFIG_HOME": str(folder / "config"),
                              "XDG_DATA_HOME": str(folder / "data")},
        encoding="utf-8", dimensions=(50, 200), timeout=120)  # a loaded machine starts slowly
    return child


def waiting_at_the_question(child: pexpect.spawn[str]) -> pexpect.spawn[str]:
    """``child`` once it waits for the answer to the question it printed, as a person sees.

    The question is printed a moment before the line editor waits for a key; a signal in
    that moment (Ctrl-C, SIGTERM) is caught by Python but heard only at the next key
    (CPython's readline looks for signals only once it waits).  No person is that quick,
    but a test on a loaded machine is: so this waits until the game sleeps in its wait for
    input (the kernel's ``wchan`` of the process), for a minute at most."""
    deadline = time.monotonic() + 60
    wchan = Path(f"/proc/{child.pid}/wchan")
    while time.monotonic() < deadline:
        try:
            waiting = wchan.read_text()
        except OSError:  # no /proc here: at once, as before
            break
        if "poll" in waiting or "select" in waiting:
            break
        time.sleep(0.01)
    return child


def interrupt_at_the_question(child: pexpect.spawn[str]) -> None:
    """Ctrl-C once the game waits for the answer to its question."""
    waiting_at_the_question(child).sendintr()


def answer_first_until_the_end(child: pexpect.spawn[str]) -> None:
    """Answer 1 to every question of the game, no to the review, up to the offer to
    save."""
    while (asked := child.expect([SAVE_PROMPT, PROMPT, REVIEW])) != 0:
        child.sendline("1" if asked == 1 else "n")


def finished_game_file(folder: Path) -> Path:
    path = folder / "g.json"
    path.write_text(json.dumps(FINISHED) + "\n")
    return path


def test_saving_onto_an_existing_file_asks_before_replacing_it(tmp_path: Path) -> None:
    path = finished_game_file(tmp_path)
    child = spawn(tmp_path, "--seed", "9", "--delay", "0", "--to", "1")
    answer_first_until_the_end(child)
    child.sendline("g.json")
    child.expect(r"g\.json already exists \(a saved finished game of 2 deals\)\. " + REPLACE)
    child.sendline("n")
    child.expect("Kept g.json as it was.")
    assert json.loads(path.read_text()) == FINISHED
    child.expect(SAVE_PROMPT)  # asked for another name
    child.sendline("g.json")
    child.expect(REPLACE)
    child.sendline("y")
    child.expect(r"Saved the game record to g\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads(path.read_text())
    assert record["winners"] and len(record["deals"]) >= 1 and record["seats"][0] == "You"


def test_save_option_onto_an_existing_file_asks_at_the_end(tmp_path: Path) -> None:
    path = finished_game_file(tmp_path)
    child = spawn(tmp_path, "--seed", "9", "--delay", "0", "--to", "1", "--save", "g.json")
    answer_first_until_the_end_or_replace(child)
    child.sendline("")  # no: keep it
    child.expect("Kept g.json as it was.")
    child.expect(SAVE_PROMPT)
    child.sendline("")  # and save nowhere
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert json.loads(path.read_text()) == FINISHED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def answer_first_until_the_end_or_replace(child: pexpect.spawn[str]) -> None:
    """Answer 1 to every question of the game, no to the review, up to the question to
    replace a file."""
    while (asked := child.expect([REPLACE, PROMPT, REVIEW])) != 0:
        child.sendline("1" if asked == 1 else "n")


def saved_games(folder: Path) -> list[Path]:
    """The games saved in the default place (the spawned game's data folder)."""
    games = folder / "data" / "euchre" / "games"
    return sorted(games.iterdir()) if games.is_dir() else []


def test_ctrl_d_ends_the_game_without_asking_for_a_file_name_and_saves_it(
        tmp_path: Path) -> None:
    """The line typed after Ctrl-D goes to the shell, never into a file name; the game is
    saved in the default place, and the screen says where and how to go on."""
    child = spawn(tmp_path, "--seed", "9", "--delay", "0")
    log = logged(child)
    child.expect(PROMPT)
    child.sendeof()
    child.expect("Game abandoned: the input ended before the game did.")
    child.expect(r"Saved the game record to (\S+)\r\nTo go on with this game: euchre play "
                 r"--resume (\S+)\r\n")
    found = child.match
    assert isinstance(found, re.Match) and found.group(1) == found.group(2)
    child.sendline("typed-afterwards.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "File name" not in log.getvalue()
    [game] = saved_games(tmp_path)
    assert str(game) == found.group(1)
    assert json.loads(game.read_text())["winners"] == []


def test_ctrl_d_with_save_keeps_the_existing_file_and_saves_beside_it(tmp_path: Path) -> None:
    path = finished_game_file(tmp_path)
    child = spawn(tmp_path, "--seed", "9", "--delay", "0", "--save", "g.json")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"g\.json already exists and is kept; this game goes to g-2\.json instead\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert json.loads(path.read_text()) == FINISHED
    unfinished = json.loads((tmp_path / "g-2.json").read_text())
    assert unfinished["winners"] == [] and len(unfinished["deals"]) == 1


# -- what is typed, and when ----------------------------------------------------------
# Seed 7, four-handed: North deals the first deal and East bids before you, so the bots
# play (and, with --delay, pause) before your first question.
REFUSED = "is not a choice or a move"


def logged(child: pexpect.spawn[str]) -> io.StringIO:
    """Everything the game writes from now on."""
    log = io.StringIO()
    child.logfile_read = log
    return log


def leave_without_saving(child: pexpect.spawn[str]) -> None:
    """``q``, yes, no file name: the game ends with status 0."""
    child.sendline("q")
    child.expect(r"\[y/N\] $")
    child.sendline("y")
    child.expect(SAVE_PROMPT)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_keys_typed_while_the_bots_play_do_not_answer_the_next_question(
        tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "1")
    log = logged(child)
    child.expect("Deal 1")
    child.sendline("zz")  # typed while East thinks: gone before the question is shown
    child.expect(PROMPT)
    child.sendline("?")  # the first answer read is the one typed after the question
    child.expect("How to answer")
    child.expect(PROMPT)
    leave_without_saving(child)
    assert REFUSED not in log.getvalue()


def test_a_double_enter_while_the_bots_play_bids_nothing(tmp_path: Path) -> None:
    """The report's case: ``pass``, ``2`` typed ahead named no trump for you."""
    child = spawn(tmp_path, "--seed", "7", "--delay", "1")
    log = logged(child)
    child.expect("Deal 1")
    child.send("pass\r2\r")
    child.expect(r"Order it up or pass\? .* › $")
    leave_without_saving(child)
    assert "You pass" not in log.getvalue() and "You name" not in log.getvalue()


@pytest.mark.skipif(importlib.util.find_spec("readline") is None,
                    reason="this Python has no readline")
def test_up_arrow_brings_back_the_last_answer_and_arrows_type_nothing(
        tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    log = logged(child)
    child.expect(PROMPT)
    child.sendline("zz")
    child.expect(PROMPT)
    child.send("\x1b[A")  # up: "zz" again
    child.send("\x1b[D\x1b[C\r")  # left and right move in the line, and type nothing
    child.expect(PROMPT)
    leave_without_saving(child)
    assert log.getvalue().count("'zz' " + REFUSED) == 2
    assert "\\x1b" not in log.getvalue()  # no escape code reached a refusal


def test_ctrl_c_asks_like_q_and_offers_to_save(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    child.expect(PROMPT)
    interrupt_at_the_question(child)
    child.expect(r"Quit this game\? \[y/N\] $")
    child.sendline("y")
    child.expect("Game abandoned: you left the game.")
    child.expect(SAVE_PROMPT)
    child.sendline("left.json")
    child.expect(r"Saved the game record to left\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = json.loads((tmp_path / "left.json").read_text())
    assert record["winners"] == [] and len(record["deals"]) == 1


def test_ctrl_c_answered_no_goes_on_with_the_game(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    child.expect(PROMPT)
    interrupt_at_the_question(child)
    child.expect(r"Quit this game\? \[y/N\] $")
    child.sendline("n")
    child.expect(r"Order it up or pass\? .* › $")
    leave_without_saving(child)


def test_ctrl_c_while_the_bots_play_asks_between_two_moves(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "1")
    child.expect("Deal 1")
    child.sendintr()
    child.expect(r"Quit this game\? \[y/N\] $")
    child.sendline("n")
    child.expect(r"Order it up or pass\? .* › $")  # the game went on where it was
    leave_without_saving(child)


def test_a_second_ctrl_c_at_the_question_quits_at_once_and_saves_the_game(
        tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    log = logged(child)
    child.expect(PROMPT)
    interrupt_at_the_question(child)
    child.expect(r"Quit this game\? \[y/N\] $")
    interrupt_at_the_question(child)
    child.expect("Game abandoned: interrupted.")
    child.expect(r"Saved the game record to \S+\r\nTo go on with this game: euchre play "
                 r"--resume \S+\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "File name" not in log.getvalue()
    [game] = saved_games(tmp_path)
    assert json.loads(game.read_text())["winners"] == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_game_stopped_by_a_signal_is_saved_and_says_where(
        tmp_path: Path, signum: signal.Signals) -> None:
    """SIGTERM (the system stopping the program) and SIGHUP (the terminal closed) end the
    game at once, saved in the default place."""
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    child.expect(PROMPT)
    waiting_at_the_question(child).kill(signum)
    child.expect("Game abandoned: the program was told to stop.")
    child.expect(r"Saved the game record to \S+\r\nTo go on with this game: euchre play "
                 r"--resume \S+\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + signum
    [game] = saved_games(tmp_path)
    assert json.loads(game.read_text())["winners"] == []


def test_a_game_left_with_ctrl_c_twice_or_ctrl_d_is_resumed_from_where_the_screen_says(
        tmp_path: Path) -> None:
    """The issue's lost game: Ctrl-C, Ctrl-C again at the question; then Ctrl-D in the
    game resumed; each time the command the screen names goes on with it."""
    args = ("--players", "2", "--to", "3", "--seed", "5", "--delay", "0")
    child = spawn(tmp_path, *args)
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    interrupt_at_the_question(child)
    child.expect(r"Quit this game\? \[y/N\] $")
    interrupt_at_the_question(child)
    child.expect(r"To go on with this game: euchre play --resume (\S+)\r\n")
    found = child.match
    assert isinstance(found, re.Match)
    first = found.group(1)
    child.expect(pexpect.EOF)
    child.close()

    child = spawn(tmp_path, "--resume", first, "--delay", "0")
    child.expect(r"Going on with the game saved in ")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"To go on with this game: euchre play --resume (\S+)\r\n")
    found = child.match
    assert isinstance(found, re.Match)
    second = found.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert second != first
    left = json.loads(Path(second).read_text())
    assert left["winners"] == [] and left["seed"] == 5
    assert len(left["deals"][-1]["actions"]) > len(
        json.loads(Path(first).read_text())["deals"][-1]["actions"])

    child = spawn(tmp_path, "--resume", second, "--delay", "0")
    log = logged(child)
    answer_first_until_the_end(child)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Game over" in log.getvalue()


@pytest.mark.parametrize(("name", "said"), [
    ("missing/g.json", "Could not save the game record: there is no folder missing"),
    ("folder", "Could not save the game record: folder is a folder; give a file name"),
])
def test_a_file_name_that_cannot_be_saved_to_gets_one_line_and_another_try(
        tmp_path: Path, name: str, said: str) -> None:
    (tmp_path / "folder").mkdir()
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    log = logged(child)
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"\[y/N\] $")
    child.sendline("y")
    child.expect(SAVE_PROMPT)
    child.sendline(name)
    child.expect(re.escape(said) + r"\r\n")
    child.expect(SAVE_PROMPT)  # asked again
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = log.getvalue()
    assert "Errno" not in screen and ".tmp" not in screen and "Replace it?" not in screen
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


# -- the bots' level ------------------------------------------------------------------
def settings(folder: Path) -> Path:
    return folder / "config" / "euchre" / "settings.json"


def choose(child: pexpect.spawn[str], answer: str) -> str:
    """Answer the menu of levels; the default it offered."""
    child.expect(r"How well should the bots play\?")
    child.expect(MENU)
    found = child.match
    assert isinstance(found, re.Match)
    offered = str(found.group(1))
    child.sendline(answer)
    return offered


def quit_now(child: pexpect.spawn[str]) -> None:
    child.expect(PROMPT)
    leave_without_saving(child)


def test_without_bots_a_menu_of_levels_is_offered_and_the_choice_remembered(
        tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0", menu=True)
    log = logged(child)
    assert choose(child, "4") == "Casual"
    child.expect(r"At the table, clockwise: You, West, North, East \(Good bots\)")
    quit_now(child)
    for name in ("Beginner", "Casual", "Intuitive", "Good", "Expert"):
        assert name in log.getvalue()
    assert json.loads(settings(tmp_path).read_text()) == {"level": "intermediate"}

    child = spawn(tmp_path, "--seed", "7", "--delay", "0", menu=True)
    assert choose(child, "") == "Good"  # Enter keeps the level chosen last time
    child.expect(r"\(Good bots\)")
    quit_now(child)


def test_the_menu_takes_a_level_by_name_and_asks_again_for_anything_else(
        tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0", menu=True)
    choose(child, "grandmaster")
    child.expect(r"'grandmaster' is not a level: type 1 to 5, or its name")
    child.expect(MENU)
    child.sendline("expert")
    child.expect(r"\(Expert bots\)")
    quit_now(child)
    assert json.loads(settings(tmp_path).read_text()) == {"level": "expert"}


def test_five_handed_the_menu_leaves_out_the_learned_level_and_its_remembered_choice(
        tmp_path: Path) -> None:
    """No learned model was made five-handed, so the menu offers four levels, and a
    remembered Intuitive (``net``) falls back to Casual there; four-handed it stays."""
    settings(tmp_path).parent.mkdir(parents=True)
    settings(tmp_path).write_text('{"level": "net"}')
    child = spawn(tmp_path, "-n", "5", "--seed", "7", "--delay", "0", menu=True)
    log = logged(child)
    assert choose(child, "intuitive") == "Casual"
    child.expect(r"'intuitive' is not a level: type 1 to 4, or its name")
    child.expect(MENU)
    child.sendline("")
    child.expect(r"\(Casual bots\)")
    quit_now(child)
    assert "Intuitive" not in log.getvalue()
    assert json.loads(settings(tmp_path).read_text()) == {"level": "basic"}

    settings(tmp_path).write_text('{"level": "net"}')
    child = spawn(tmp_path, "--seed", "7", "--delay", "0", menu=True)
    assert choose(child, "") == "Intuitive"
    child.expect(r"\(Intuitive bots\)")
    quit_now(child)


@pytest.mark.parametrize("damage", ["{not json", "[1, 2]", '{"level": "grandmaster"}', "\x00\xff"])
def test_a_damaged_settings_file_is_ignored(tmp_path: Path, damage: str) -> None:
    settings(tmp_path).parent.mkdir(parents=True)
    settings(tmp_path).write_text(damage, encoding="latin-1")
    child = spawn(tmp_path, "--seed", "7", "--delay", "0", menu=True)
    log = logged(child)
    assert choose(child, "1") == "Casual"
    child.expect(r"\(Beginner bots\)")
    quit_now(child)
    assert "Traceback" not in log.getvalue()
    assert json.loads(settings(tmp_path).read_text()) == {"level": "random"}


def test_bots_given_means_no_menu(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0", "--bots", "expert", menu=True)
    log = logged(child)
    child.expect(r"\(Expert bots\)")
    quit_now(child)
    assert "How well" not in log.getvalue()
    assert not settings(tmp_path).exists()


# -- the review at the game's end -----------------------------------------------------
SHORT = ("--players", "2", "--to", "1", "--seed", "3", "--delay", "0")
"""A game of one deal."""


def play_to_the_review(child: pexpect.spawn[str]) -> None:
    while child.expect([REVIEW, PROMPT]) == 1:
        child.sendline("1")


def test_the_review_is_offered_when_the_game_ends_and_then_the_offer_to_save(
        tmp_path: Path) -> None:
    child = spawn(tmp_path, *SHORT)
    log = logged(child)
    play_to_the_review(child)
    child.sendline("")  # yes
    child.expect(r"Your decisions \(seat 0\) against the expert bot")
    child.expect(r"\d+ decisions · expected cost [\d.]+ points")
    child.expect(SAVE_PROMPT)  # saying yes to the review keeps the offer to save
    child.sendline("g.json")
    child.expect(r"Saved the game record to g\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = log.getvalue()
    assert screen.index("Game over") < screen.index("Review your decisions?")
    assert "bidding, round 1" in screen  # a row of the review
    assert json.loads((tmp_path / "g.json").read_text())["winners"]


def test_ctrl_c_during_the_review_stops_it_and_the_offer_to_save_follows(
        tmp_path: Path) -> None:
    """A whole four-handed game, so that the review takes a while; should it end before
    the Ctrl-C arrives, that Ctrl-C still costs no more than the review."""
    child = spawn(tmp_path, "--seed", "3", "--delay", "0")
    play_to_the_review(child)
    child.sendline("")
    child.sendintr()
    child.expect(SAVE_PROMPT)
    child.sendline("g.json")
    child.expect(r"Saved the game record to g\.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_declining_the_review_goes_on_to_the_offer_to_save(tmp_path: Path) -> None:
    child = spawn(tmp_path, *SHORT)
    log = logged(child)
    play_to_the_review(child)
    child.sendline("n")
    child.expect(SAVE_PROMPT)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "against the expert bot" not in log.getvalue()


def test_a_watched_game_offers_no_review(tmp_path: Path) -> None:
    child = spawn(tmp_path, *SHORT, "--watch")
    log = logged(child)
    child.expect(SAVE_PROMPT)
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert "Review your decisions" not in log.getvalue()


def test_a_game_left_before_its_end_offers_no_review(tmp_path: Path) -> None:
    child = spawn(tmp_path, *SHORT)
    log = logged(child)
    quit_now(child)
    assert "Review your decisions" not in log.getvalue()


# -- a game quit, saved and resumed ---------------------------------------------------
def test_a_game_quit_with_q_and_saved_is_resumed_where_it_stopped_and_finished(
        tmp_path: Path) -> None:
    args = ("--players", "2", "--to", "3", "--seed", "5", "--delay", "0")
    child = spawn(tmp_path, *args)
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"Quit this game\? \[y/N\] $")
    child.sendline("y")
    child.expect(SAVE_PROMPT)
    child.sendline("g.json")
    child.expect(r"Saved the game record to g\.json\r\n"
                 r"To go on with this game: euchre play --resume g\.json\r\n")
    child.expect(pexpect.EOF)
    child.close()
    left = json.loads((tmp_path / "g.json").read_text())
    assert left["winners"] == [] and left["seed"] == 5

    child = spawn(tmp_path, "--resume", "g.json", "--delay", "0")
    log = logged(child)
    child.expect(r"Going on with the game saved in g\.json")
    answer_first_until_the_end(child)
    child.sendline("done.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = log.getvalue()
    assert "North (Casual bot)" in screen and "Game over" in screen
    done = json.loads((tmp_path / "done.json").read_text())
    assert done["winners"] and done["seed"] == 5
    first = left["deals"][0]
    assert done["deals"][0]["hands"] == first["hands"]
    assert done["deals"][0]["actions"][:len(first["actions"])] == first["actions"]


def test_ctrl_c_at_the_file_name_of_a_game_left_saves_it_in_the_default_place(
        tmp_path: Path) -> None:
    """Quitting with q and cutting the offer to save with Ctrl-C is no choice to lose the
    game (Enter is: it skips); the game goes where the screen says."""
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(r"\[y/N\] $")
    child.sendline("y")
    child.expect(SAVE_PROMPT)
    interrupt_at_the_question(child)
    child.expect(r"To go on with this game: euchre play --resume (\S+)\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    [game] = saved_games(tmp_path)
    assert json.loads(game.read_text())["winners"] == []


def test_enter_at_the_file_name_of_a_game_left_saves_nothing(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seed", "7", "--delay", "0")
    child.expect(PROMPT)
    leave_without_saving(child)
    assert saved_games(tmp_path) == []
