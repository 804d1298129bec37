"""``euchre play`` driven through typer's CliRunner with scripted answers."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from euchre.cli import app
from euchre.deal import Deal
from euchre.game import Game
from euchre.records import replay
from euchre.rules import Rules

runner = CliRunner()

ALWAYS_FIRST = "1\n" * 4000
"""Answer every question with the first listed action: always legal, so games finish."""

CARD = re.compile(r"\b(?:[789TJQKA][CDHS]|JK)\b")

VARIANTS = [
    ["--players", "2"],
    ["--players", "2", "--stick-the-dealer", "--deck", "32"],
    ["--players", "3"],
    ["--players", "3", "--joker", "--no-defend-alone"],
    ["--players", "4"],
    ["--players", "4", "--defend-alone", "--dealer-must-take-up"],
    ["--players", "4", "--joker", "--joker-turnup", "suit:S"],
    ["--players", "4", "--draw", "--seat", "2"],
    ["--players", "5"],
    ["--players", "5", "--joker", "--no-stick-the-dealer"],
]


WIDE = {"COLUMNS": "250"}
"""A wide console, so rich wraps no line (messages are checked whole)."""


def play(*args: str, answers: str = ALWAYS_FIRST) -> Result:
    """Run ``euchre play`` with the answers as standard input."""
    return runner.invoke(app, ["play", *args], input=answers, env=WIDE)


def random_answers(seed: int, count: int = 6000) -> str:
    """Numbers (some out of range), junk, help and empty answers, at random."""
    rng = random.Random(seed)
    pool = ["1", "2", "3", "4", "5", "6", "7", "8", "?", "zz", "", "defend alone"]
    return "".join(rng.choice(pool) + "\n" for _ in range(count))


@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
def test_a_whole_game_answering_the_first_action(variant: list[str]) -> None:
    result = play(*variant, "--to", "2", "--seed", "3")
    out = result.stdout
    assert result.exit_code == 0, out[-2000:]
    assert "Your hand:" in out
    assert "Turn-up:" in out
    assert re.search(r"\b(passes|pass|orders it up|assists|takes it up|names)\b", out)
    assert re.search(r"^Trick 1 +\w+ led \S+ (\([a-z ]+\) )?· ", out, re.MULTILINE)
    assert re.search(r"→ \w+ wins? with ", out)
    assert re.search(r"make it|makes it|march|Euchred!|thrown in", out)
    assert "Score:" in out
    assert "Game over" in out
    assert re.search(r"wins? the game|share the win", out)
    assert "Final score:" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_with_random_answers(variant: list[str], seed: int) -> None:
    """Wrong numbers, junk and ? re-prompt; the other answers reach every phase."""
    result = play(*variant, "--to", "3", "--seed", str(seed), answers=random_answers(seed))
    assert result.exit_code == 0, result.stdout[-2000:]
    assert "Game over" in result.stdout


def test_a_bad_answer_re_prompts_with_the_reason() -> None:
    answers = "zz\n99\ndefend alone\n?\n" + ALWAYS_FIRST
    result = play("--seed", "5", "--to", "1", answers=answers)
    out = result.stdout
    assert result.exit_code == 0
    assert "'zz' is not a choice or a move" in out
    assert "There is no choice 99" in out
    assert "You cannot defend alone." in out
    assert "How to answer" in out  # the help of ?
    assert "RULES" not in out and "RECORDS" not in out and "seat " not in out
    # each refusal asks the same question again
    first_prompt = next(line for line in out.splitlines() if "›" in line)
    question = first_prompt.split("›")[0]
    assert out.count(question) >= 5


def test_answers_in_records_notation() -> None:
    """Actions in RECORDS notation (any case) are accepted as well as numbers."""
    # sit at the first dealer's left: the first question is then the round-1 bid
    dealer = Game(Rules(players=4, target=1), seed=5).first_dealer
    seat = (dealer + 1) % 4
    answers = "PASS\n" + ALWAYS_FIRST
    result = play("--seed", "5", "--to", "1", "--seat", str(seat), answers=answers)
    assert result.exit_code == 0
    assert "You pass" in result.stdout


def test_q_quits_after_confirming() -> None:
    result = play("--seed", "1", answers="q\ny\n")
    assert result.exit_code == 0
    assert "Quit this game?" in result.stdout
    assert "Game abandoned: you left the game." in result.stdout
    assert "Game over" not in result.stdout


def test_q_not_confirmed_goes_on() -> None:
    result = play("--seed", "1", "--to", "1", answers="q\nn\n" + ALWAYS_FIRST)
    assert result.exit_code == 0
    assert "Game over" in result.stdout


def test_quitting_with_save_writes_the_unfinished_game(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    result = play("--seed", "1", "--save", str(path), answers="q\ny\n")
    assert result.exit_code == 0
    record = json.loads(path.read_text())
    assert record["winners"] == []
    assert [r.summary["complete"] for r in replay(record)] == [False]


def test_the_end_of_input_abandons_the_game_cleanly() -> None:
    result = play("--seed", "1", answers="")
    assert result.exit_code == 1
    assert "input ended" in result.stdout
    assert isinstance(result.exception, SystemExit)


def test_ctrl_c_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    result = play("--seed", "1")
    assert result.exit_code == 130
    assert "interrupted" in result.stdout
    assert isinstance(result.exception, SystemExit)


def test_no_save_offer_without_a_terminal() -> None:
    """Off a terminal the offer to save does not wait for (or eat) an answer."""
    result = play("--seed", "2", "--to", "1")
    assert result.exit_code == 0
    assert "Save the game record?" not in result.stdout


def test_save_writes_a_game_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play("--seed", "4", "--to", "3", "--save", str(path))
    assert result.exit_code == 0
    assert f"Saved the game record to {path}" in result.stdout.replace("\n", "")
    record = json.loads(path.read_text())
    assert record["seats"][0] == "You"
    summaries = [r.summary for r in replay(record)]
    assert summaries[-1]["score"] == record["scores"]
    assert max(record["scores"]) >= 3
    final = re.search(r"Final score: You & North (\d+) · East & West (\d+)", result.stdout)
    assert final is not None
    assert [int(final[1]), int(final[2])] == [record["scores"][0], record["scores"][1]]


def test_watch_plays_bots_at_every_seat() -> None:
    result = runner.invoke(app, ["play", "--watch", "--delay", "0", "--seed", "3",
                                 "--to", "2"], env=WIDE)
    assert result.exit_code == 0
    assert "South's hand:" in result.stdout
    assert "You " not in result.stdout
    assert "Game over" in result.stdout


def test_four_handed_to_5_shows_the_markers() -> None:
    result = play("--seed", "6", "--to", "5")
    assert result.exit_code == 0
    assert re.search(r"(East & West|You & North)'s markers: the (four|three) face (up|down) "
                     r"on the (three|four)", result.stdout)


def test_the_draw_is_shown() -> None:
    result = play("--draw", "--seed", "2", "--to", "1")
    out = result.stdout
    assert result.exit_code == 0
    assert "The draw for partners" in out
    assert re.search(r"You draws? [789TJQKA][CDHS]", out)
    assert "drew lowest and partner against" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "6"], "--players is 2, 3, 4 or 5, not 6"),
    (["--players", "5", "--deck", "24"], "five hands need 26 cards"),
    (["--players", "5", "--deck", "24"], "use --deck 28 or --deck 32"),
    (["--deck", "30"], "--deck is 24, 28 or 32"),
    (["--draw", "--players", "3"], "--draw is for four-handed euchre only"),
    (["--players", "2", "--defend-alone"], "--defend-alone is played three- and four-handed"),
    (["--joker-turnup", "suit:X"], "--joker-turnup is dealer_names"),
    (["--seat", "4"], "--seat"),
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--bots", "basic,random"], "--bots takes one name, or 3"),
    (["--to", "0"], "--to is the points that win the game"),
])
def test_bad_options_give_one_line_naming_the_flag_and_exit_2(args: list[str],
                                                              message: str) -> None:
    result = play(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1
    assert "RULES" not in result.stderr and "=" not in result.stderr
    assert result.stdout == ""


def _without_help(answers: str) -> str:
    """No ``?`` or junk: their help texts show example cards, from no hand."""
    return answers.replace("?\n", "99\n").replace("zz\n", "99\n")


def _sections(out: str) -> list[str]:
    """The output of each deal (from its header to the next)."""
    parts = re.split(r"^─+ Deal \d+ · .*$", out, flags=re.MULTILINE)
    return parts[1:]


ROW = re.compile(r"^Trick (\d+) +(.*)$")
"""A trick's row (or the trick so far, at your turn): ``Trick 2  East led AS · West KS``."""


def _rows(lines: list[str]) -> list[tuple[int, str, int]]:
    """Each trick row with its continuation lines joined: (trick number, text, line)."""
    rows = []
    for k, line in enumerate(lines):
        match = ROW.match(line)
        if match:
            text = match[2]
            for more in lines[k + 1:]:
                if not more.startswith(" " * 9) or not more.strip():
                    break
                text += " " + more.strip()
            rows.append((int(match[1]), text, k))
    return rows


def _row_cards(text: str) -> list[str]:
    """The cards played in a row, in order (not the winner's card after the arrow)."""
    return CARD.findall(text.split("→")[0])


@pytest.mark.parametrize("variant", VARIANTS, ids=" ".join)
@pytest.mark.parametrize("seed", [1, 7])
def test_no_hidden_card_is_shown_before_it_is_played(
    variant: list[str], seed: int, tmp_path: Path
) -> None:
    """RULES §12: another hand, the kitty, the dummy and others' discards stay hidden.

    A card outside your hand shows first in a trick's row, and each row holds the
    cards of that trick as they were played.
    """
    path = tmp_path / "game.json"
    result = play(*variant, "--to", "3", "--seed", str(seed), "--save", str(path),
                  answers=_without_help(random_answers(seed)))
    assert result.exit_code == 0
    record = json.loads(path.read_text())
    me = record["seats"].index("You")
    sections = _sections(result.stdout)
    assert len(sections) == len(record["deals"])
    for section, rec in zip(sections, record["deals"], strict=True):
        deal = Deal.from_record({**rec, "rules": record["rules"]})
        mine = set(rec["hands"][me]) | {rec["turnup"]}
        if deal.maker == me and rec["dummy"] is not None and not deal.alone:
            mine |= set(rec["dummy"])  # the maker took the dummy (RULES §6)
        if deal.called is not None:
            mine.add(str(deal.called))  # the call is public; its holder is not
        tricks = [[str(c) for _, c in t.cards] for t in deal.tricks]
        lines = section.splitlines()
        rows = {k: (number, text) for number, text, k in _rows(lines)}
        played: set[str] = set()
        for k, line in enumerate(lines):
            # the partner call lists every card not in your hand: no hand is revealed
            if k + 1 < len(lines) and "Call your partner" in lines[k + 1]:
                continue
            if k in rows:
                number, text = rows[k]
                cards = _row_cards(text)
                assert cards == tricks[number - 1][:len(cards)], f"row {line!r}"
                played |= set(cards)
            for card in CARD.findall(line):
                assert card not in rec["kitty"], f"kitty card {card} shown: {line!r}"
                assert card in mine or card in played, f"hidden {card} shown: {line!r}"
