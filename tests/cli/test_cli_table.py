"""What the table shows in ``euchre play``: a row per trick, the hand once, the score,
the help, and the guards against a reflex answer."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from euchre import Deal
from euchre.cli import app
from euchre.deal import Phase

runner = CliRunner()
WIDE = {"COLUMNS": "250"}
ALWAYS_FIRST = "1\n" * 4000


def play(*args: str, answers: str = ALWAYS_FIRST) -> Result:
    return runner.invoke(app, ["play", *args], input=answers, env=WIDE)


def saved(tmp_path: Path, *args: str, answers: str = ALWAYS_FIRST) -> tuple[str, dict[str, Any]]:
    """Play, save the record, and return the output and the record."""
    path = tmp_path / "game.json"
    result = play(*args, "--save", str(path), answers=answers)
    assert result.exit_code == 0, result.stdout[-2000:]
    record: dict[str, Any] = json.loads(path.read_text())
    return result.stdout, record


def deals_of(out: str) -> list[str]:
    return re.split(r"^─+ Deal \d+ · .*$", out, flags=re.MULTILINE)[1:]


# -- no reflex disasters ----------------------------------------------------------------
# Seed 14: you deal the first deal, the turn-up is KH and you hold JD, the left bower.
BOWER_SEED = ("--seed", "14", "--to", "1")


@pytest.mark.parametrize(("sure", "discarded"), [("n", "9S"), ("y", "JD")])
def test_discarding_a_bower_is_asked_again(tmp_path: Path, sure: str, discarded: str) -> None:
    answers = f"order\ndiscard JD\n{sure}\n" + ALWAYS_FIRST
    out, record = saved(tmp_path, *BOWER_SEED, answers=answers)
    assert "Discard JD, the left bower, one of the best trumps? [y/N]" in out
    assert ("You keep JD." in out) == (sure == "n")
    first = record["deals"][0]
    assert first["dealer"] == 0 and first["turnup"] == "KH"
    assert f"discard {discarded}" in first["actions"]


def test_the_discard_lists_the_weakest_card_first(tmp_path: Path) -> None:
    out, record = saved(tmp_path, *BOWER_SEED)
    assert "from the weakest card to the strongest:\n  1 9S   2 TC   3 TD   4 QH   5 KH   6 JD" \
        in out
    assert "discard 9S" in record["deals"][0]["actions"]  # a reflex 1 threw the weakest


def test_a_single_legal_play_is_said_and_made_for_you(tmp_path: Path) -> None:
    out, record = saved(tmp_path, "--seed", "9", "--to", "3")
    forced = re.findall(r"^Only one card may be played: (\S+) \((.+)\)\. Playing it\.$", out,
                        re.MULTILINE)
    assert any(why == "your last card" for _, why in forced)
    assert any(why.endswith("you must follow suit") for _, why in forced)
    # exactly the plays of the record where you had a single legal card
    single = []
    for rec in record["deals"]:
        deal = Deal.from_record({**rec, "rules": record["rules"], "actions": []})
        for action in rec["actions"]:
            legal = deal.legal_actions()
            if deal.to_move == 0 and deal.phase is Phase.PLAY and len(legal) == 1:
                single.append(str(legal[0].card))
            deal.apply(action)
    assert [card for card, _ in forced] == single


def test_no_autoplay_asks_even_for_a_single_legal_play() -> None:
    auto = play("--seed", "9", "--to", "3")
    asked = play("--seed", "9", "--to", "3", "--no-autoplay")
    assert asked.exit_code == 0
    assert "Only one card" not in asked.stdout
    forced = auto.stdout.count("Only one card may be played")
    assert forced
    # the same game, and a question for each play that was made for you
    assert asked.stdout.count("›") == auto.stdout.count("›") + forced
    assert asked.stdout.split("Game over")[1] == auto.stdout.split("Game over")[1]


# -- the table at a glance ---------------------------------------------------------------
def test_the_hand_is_shown_once_before_the_first_bid() -> None:
    out = play("--seed", "4", "--to", "3").stdout
    sections = deals_of(out)
    bots_bid_first = 0
    for section in sections:
        head = section.split("›")[0]
        if "Trump:" in head:  # the bidding ended before your turn
            continue
        assert head.count("Your hand:") == 1, head
        bots_bid_first += bool(re.search(r"^  (West|North|East) passes", head, re.MULTILINE))
    assert bots_bid_first  # the case of the issue: bots pass, then you bid


def test_each_trick_is_a_row_with_who_led_who_won_and_why(tmp_path: Path) -> None:
    out, record = saved(tmp_path, "--seed", "9", "--to", "3")
    rows = re.findall(r"^Trick (\d) +(\w+) led (\S+)(?: \([a-z ]+\))?( · .*?)  → (\w+) "
                      r"wins? with (.+?) "
                      r"\((trumped|the highest trump|the highest \w+)\)  tricks: (.+)$",
                      out, re.MULTILINE)
    tricks = [t for rec in record["deals"]
              for t in Deal.from_record({**rec, "rules": record["rules"]}).tricks]
    assert len(rows) == len(tricks)
    names = ["You", "West", "North", "East"]
    for row, trick in zip(rows, tricks, strict=True):
        _, leader, led, _, winner, card, _, _ = row
        assert leader == names[trick.leader] and led == str(trick.cards[0][1])
        assert winner == names[trick.winner]
        assert card.split(",")[0] == str(dict(trick.cards)[trick.winner])
    # the bowers are named as such; the tricks so far end every row
    assert re.search(r"with J[CDHS], the (left|right) bower \(", out)
    assert re.search(r" J[CDHS] \((left|right) bower\)", out)
    assert all(re.fullmatch(r"You & North \d · East & West \d", r[-1]) for r in rows)


def test_tricks_are_shown_per_player_when_there_are_no_sides() -> None:
    out = play("--players", "3", "--seed", "4", "--to", "2").stdout
    assert re.search(r"tricks: You \d · West \d · East \d$", out, re.MULTILINE)
    assert re.search(r"^Your hand: .*   tricks: You \d · West \d · East \d$", out,
                     re.MULTILINE)


def test_symbols_show_the_ten_and_the_joker() -> None:
    out = play("--symbols", "--joker", "--seed", "3", "--to", "3").stdout
    assert re.search(r"\b10[♣♦♥♠]", out)
    assert "🃏" in out
    assert not re.search(r"\bT[♣♦♥♠CDHS]\b|\bJK\b", out)


def test_the_joker_symbol_can_be_typed() -> None:
    from euchre.cli.prompt import interpret
    from euchre.deal import Phase

    assert str(interpret("🃏", [], Phase.PLAY)) == "play JK"


def test_score_markers_are_told_only_when_a_side_scores() -> None:
    out = play("--seed", "6", "--to", "5").stdout
    scores = re.findall(r"^Score: (.*)$", out, re.MULTILINE)
    assert scores
    told = 0
    for line in scores:
        # the markers of the side(s) that just scored, after the score itself
        score, _, markers = line.partition("   ")
        assert re.fullmatch(r"You & North \d+ · East & West \d+", score)
        assert "face" not in score
        told += markers.count("markers:")
    assert 0 < told < 2 * len(scores)
    final = re.search(r"^Final score: (.*)$", out, re.MULTILINE)
    assert final is not None and "face" not in final[1]
    assert out.count("keeps its score with a three and a four") == 1


def test_one_bot_is_one_bot() -> None:
    out = play("--players", "2", "--seed", "1", "--to", "1").stdout
    assert "At the table, clockwise: You, North (Casual bot)\n" in out
    out = play("--players", "3", "--seed", "1", "--to", "1").stdout
    assert "(Casual bots)" in out


def test_the_help_explains_the_notation_in_plain_words() -> None:
    out = play("--seed", "3", "--players", "2", answers="?\nq\ny\n").stdout
    help_text = out.split("How to answer")[1]
    assert "9C the nine of clubs" in help_text and "JK the joker" in help_text
    assert "Suits: C clubs, D diamonds, H hearts, S spades" in help_text
    assert "euchre rules --players 2" in help_text  # a command the player has
    assert "RECORDS" not in out and "RULES" not in out and "../shared" not in out
    # the moves of this turn, with what they mean
    assert re.search(r"(pass  let the next player decide|trump H  make hearts trump)",
                     help_text)
