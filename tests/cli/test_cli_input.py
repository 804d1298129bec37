"""What a player may type in ``euchre play``, in each language: the cards as the screen
shows them, the suits by name, a suit on its own where trump is named, one card at a time;
and what a refusal echoes back."""

from __future__ import annotations

import os
import pty
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from euchre import Action, GameRecord, InvalidActionError, Phase, Rules, Suit
from euchre.cards import CARDS, Card
from euchre.cli import app
from euchre.cli.lang import use
from euchre.cli.prompt import Command, Prompter, interpret, suit_readings
from euchre.cli.save import SaveTarget
from euchre.cli.style import CardStyle, suit_name, suit_one
from euchre.wording import RANKS

runner = CliRunner()
WIDE = {"COLUMNS": "250"}


@pytest.fixture
def speaking(request: pytest.FixtureRequest) -> Iterator[str]:
    """The language of the test's ``lang`` parameter, English again afterwards."""
    lang: str = request.param
    use(lang)
    yield lang
    use("en")


def play(*args: str, answers: str, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, ["play", *args], input=answers, env=env or WIDE)


# -- the cards as the screen shows them --------------------------------------------------
@pytest.mark.parametrize("speaking", ["en", "fr", "de", "da"], indirect=True)
@pytest.mark.parametrize("symbols", [True, False])
def test_every_card_can_be_typed_as_the_screen_shows_it(speaking: str, symbols: bool) -> None:
    style = CardStyle.speaking(speaking, symbols, colour=False)
    for card in CARDS:
        shown = style.card(card)
        for typed in (shown, shown.lower(), shown.upper()):
            assert interpret(typed, [], Phase.PLAY) == Action.play(card), typed
            assert interpret(f"discard {typed}", [], Phase.PLAY) == Action.discard(card), typed


@pytest.mark.parametrize(("speaking", "typed", "card"), [
    ("fr", "D♠", "QS"), ("fr", "DS", "QS"), ("fr", "R♣", "KC"), ("fr", "RC", "KH"),
    ("fr", "RT", "KC"), ("fr", "V♥", "JH"), ("fr", "vh", "JH"), ("fr", "DD", "QD"),
    ("de", "B♣", "JC"), ("de", "bc", "JC"), ("de", "D♦", "QD"), ("de", "K♠", "KS"),
    ("da", "Kn♥", "JH"), ("da", "KnH", "JH"), ("da", "knh", "JH"), ("da", "E♠", "AS"),
    ("da", "K♥", "KH"), ("da", "D♣", "QC"),
], indirect=["speaking"])
def test_the_languages_own_letters_name_cards(speaking: str, typed: str, card: str) -> None:
    assert interpret(typed, [], Phase.PLAY) == Action.play(card)


@pytest.mark.parametrize("speaking", ["en", "fr", "de", "da"], indirect=True)
def test_the_notation_of_records_is_understood_in_every_language(speaking: str) -> None:
    for typed, action in [("JH", "play JH"), ("QS", "play QS"), ("10D", "play TD"),
                          ("call AH", "call AH"), ("discard 9C", "discard 9C"),
                          ("trump D", "trump D"), ("🃏", "play JK")]:
        # the notation's move is legal here: a letter that also reads otherwise in the
        # language (French C, cœur) means the legal move
        assert interpret(typed, [Action.parse(action)], Phase.PLAY) == Action.parse(
            action), typed


@pytest.mark.parametrize("speaking", ["en"], indirect=True)
def test_another_languages_letters_are_not_cards_in_english(speaking: str) -> None:
    """``D`` is a rank only where the screen shows it as one."""
    for typed in ("DS", "V♥", "Kn♥"):
        with pytest.raises(InvalidActionError, match="is not a choice or a move"):
            interpret(typed, [], Phase.PLAY)


# -- suits by name, and a suit on its own where trump is named ------------------------------
@pytest.mark.parametrize("speaking", ["en", "fr", "de", "da"], indirect=True)
def test_suits_are_named_in_the_language_or_in_english(speaking: str) -> None:
    for suit in Suit:
        names = {suit_name(suit), suit_one(suit), suit.name.lower(), suit.char, suit.symbol}
        # French C is cœur, and clubs in the notation: the legal one is meant
        legal = [Action.trump(suit), Action.trump(suit, alone=True)]
        for name in names | {n.upper() for n in names} | {n.capitalize() for n in names}:
            assert suit in suit_readings(name), name
            assert interpret(f"trump {name}", legal, Phase.PLAY) == Action.trump(suit), name
            assert interpret(name, legal, Phase.BID_SUIT) == Action.trump(suit), name
            assert interpret(f"{name} alone", legal, Phase.NAME_TRUMP) == Action.trump(
                suit, alone=True), name


@pytest.mark.parametrize(("speaking", "typed"), [
    ("fr", "trump coeur"), ("fr", "trump cœur"), ("fr", "Cœur"), ("de", "herz"),
    ("de", "trump Herz alone"), ("da", "hjerter"), ("en", "hearts"), ("en", "H"),
    ("en", "♥"), ("en", "h"),
], indirect=["speaking"])
def test_hearts_named_in_round_2(speaking: str, typed: str) -> None:
    assert interpret(typed, [], Phase.BID_SUIT) == Action.trump(
        Suit.HEARTS, alone=typed.endswith("alone"))


def test_h_is_the_hint_except_where_a_suit_is_named() -> None:
    assert interpret("h", [], Phase.BID_TURNUP) is Command.HINT
    assert interpret("h", [], Phase.PLAY) is Command.HINT
    assert interpret("h", [], Phase.BID_SUIT) == Action.trump(Suit.HEARTS)
    assert interpret("hint", [], Phase.BID_SUIT) is Command.HINT
    assert interpret("q", [], Phase.BID_SUIT) is Command.QUIT


def test_h_names_hearts_in_round_2_and_the_help_says_so() -> None:
    # seed 1, two-handed: you deal, both pass the turn-up AD, then you name trump
    out = play("--seed", "1", "--players", "2", "--delay", "0",
               answers="pass\n?\nh\nq\ny\n").stdout
    second = out.split("Name trump or pass?", 1)[1]
    assert "(? help, hint, q quit)" in second
    assert "h is hearts here, not the hint" in second
    assert "hint  a hint" in second
    assert "You name hearts" in second and "Hint:" not in second


# -- one card at a time, and what a refusal echoes ---------------------------------------
@pytest.mark.parametrize(("typed", "first"), [("discard 9C 9D", "discard 9C"),
                                               ("9C 9D QS", "9C"), ("play AH KH", "play AH")])
def test_several_cards_at_once_are_refused_one_card_at_a_time(typed: str, first: str) -> None:
    with pytest.raises(InvalidActionError) as refused:
        interpret(typed, [], Phase.DUMMY)
    assert str(refused.value) == f"{typed!r}: one card at a time, please; type {first} first"


def test_a_long_answer_is_cut_in_the_refusal() -> None:
    out = play("--seed", "7", answers="x" * 5000 + "\n" + "9" * 5000 + "\nq\ny\n").stdout
    assert "x" * 100 not in out and "9" * 100 not in out
    assert re.search(r"'x{39}…' is not a choice or a move", out)
    assert re.search(r"There is no choice 9{39}…: choose 1 to 3", out)


# -- the help speaks of the letters on the screen -------------------------------------------
@pytest.mark.parametrize(("lang", "ranks", "suits"), [
    ("fr", "A as, R roi, D dame, V valet", "T trèfle, K carreau, C cœur, P pique"),
    ("de", "A Ass, K König, D Dame, B Bube", "Kr Kreuz, K Karo, H Herz, P Pik"),
    ("da", "E es, K konge, D dame, Kn knægt, B knægt", "K klør, R ruder, H hjerter, S spar"),
])
def test_the_help_says_what_each_letter_means_in_the_language(lang: str, ranks: str,
                                                               suits: str) -> None:
    """Issue 30: the help names the language's own letters, not the notation's as if
    they were the language's (French "C trèfle")."""
    out = play("--seed", "7", "--lang", lang, answers="?\nq\ny\n").stdout
    out = out.replace("\u202f", " ")  # French: a thin space before ":"
    help_text = " ".join(out.split("?", 2)[-1].split())  # the help, its lines joined
    assert ranks in help_text and suits in help_text
    assert "C clubs" not in help_text  # the notation's letters are said to be the notation's
    if lang == "fr":  # C reads two ways: the help says what happens
        assert "C est cœur, ou trèfle dans la notation anglaise" in help_text


# -- the small print -----------------------------------------------------------------------
def test_a_wrapped_trick_row_keeps_its_separators() -> None:
    out = play("--seed", "3", "--to", "3", answers="1\n" * 400,
               env={"COLUMNS": "60"}).stdout
    rows = [row for row in re.findall(r"^Trick \d.*\n(?:^ {9}.*\n)*", out, flags=re.MULTILINE)
            if "→" in row]  # finished tricks (the trick so far is shown at your turn too)
    cards = [re.split(r"→", " ".join(row.split()))[0] for row in rows]
    wrapped = [row for row in rows if "\n " in row.split("→")[0]]
    assert rows and wrapped  # at 60 columns some rows wrap among their cards
    assert all(part.count("·") == 3 for part in cards), cards


@pytest.mark.parametrize("players", [3, 5])
def test_watching_lists_the_score_in_the_order_of_the_tricks(players: int) -> None:
    out = play("--players", str(players), "--watch", "--seat", "1", "--seed", "3", "--to", "2",
               "--delay", "0", answers="").stdout
    tricks = re.findall(r"tricks: (.*)$", out, flags=re.MULTILINE)[-1]
    score = re.findall(r"^Score: (.*)$", out, flags=re.MULTILINE)[-1]
    assert re.findall(r"[A-Z][a-z]+", tricks) == re.findall(r"[A-Z][a-z]+", score)
    assert score.startswith("South")  # the seat watched first


def test_saving_into_a_missing_folder_or_onto_a_folder_says_so_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    console = Console(record=True, width=200)
    target = SaveTarget(console, Prompter(console, interactive=True))
    record = GameRecord(Rules(), ())
    assert not target.save(Path("nowhere/g.json"), record)
    assert not target.save(Path("folder"), record)
    assert not target.save(Path("x" * 5000 + ".json"), record)
    assert console.export_text().splitlines() == [
        "Could not save the game record: there is no folder nowhere",
        "Could not save the game record: folder is a folder; give a file name",
        f"Could not save the game record: …{'x' * 54}.json: the name is too long",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_the_game_points_at_rules_the_player_has() -> None:
    out = play("--seed", "7", "--players", "5", answers="q\ny\n").stdout
    assert "The rules: euchre rules --players 5." in out
    rules = runner.invoke(app, ["rules", "--players", "5"], env=WIDE)
    assert rules.exit_code == 0
    assert "Five-handed euchre with a secret partner" in rules.stdout
    assert "Two-handed" not in rules.stdout and "How to play at this site" not in rules.stdout


def test_the_rules_speak_the_language() -> None:
    rules = runner.invoke(app, ["rules", "--players", "2", "--lang", "de"], env=WIDE)
    assert rules.exit_code == 0
    assert "Euchre zu zweit" in rules.stdout and "Das Spiel" in rules.stdout


def test_card_letters_are_only_the_screens() -> None:
    """The letters come from the table the screen uses (the test above would pass blind
    if a language showed none)."""
    assert {lang: sorted(set(r.values()) - set(r)) for lang, r in RANKS.items()} == {
        "en": [], "fr": ["D", "R", "V"], "de": ["B", "D"], "da": ["D", "E", "Kn"]}
    assert Card.parse("QS") == Card.QS


def test_a_ctrl_c_keeps_the_line_typed_before_it_while_the_game_holds_interrupts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While the game holds Ctrl-C, the terminal keeps what was typed when one is pressed
    (``noflsh``): a line answered and a Ctrl-C at once are both heard, where the line
    editor would else wait for a key that had been thrown away.  The terminal is as it
    was afterwards."""
    termios = pytest.importorskip("termios")
    main, side = pty.openpty()
    try:
        with open(side, closefd=False) as tty:
            monkeypatch.setattr("sys.stdin", tty)
            before = termios.tcgetattr(side)
            assert not before[3] & termios.NOFLSH
            prompter = Prompter(Console(), interactive=True)
            with prompter.holding_interrupts():
                assert termios.tcgetattr(side)[3] & termios.NOFLSH
            assert termios.tcgetattr(side) == before
    finally:
        os.close(main)
        os.close(side)
