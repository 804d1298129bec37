"""Issue 30, items 7 and 8: French, German and Danish players type cards and moves as their
help says, in their own letters and words, at a real terminal (pexpect); where a letter
reads two ways and both cards are legal, the game asks."""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.cli.prompt import Ambiguous, Command, interpret, readings
from euchre.deal import Phase

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

PROMPT = r"› $"

SUITS = {"fr": {"♣": "T", "♦": "K", "♥": "C", "♠": "P"},
         "de": {"♣": "Kr", "♦": "K", "♥": "H", "♠": "P"},
         "da": {"♣": "K", "♦": "R", "♥": "H", "♠": "S"}}
"""The suit letters each language's help gives (its "writing cards" section)."""
PASS = {"fr": "passe", "de": "p", "da": "pas"}
SAID_PASS = {"fr": "Vous passez", "de": "Du passt", "da": "Du melder pas"}
NEXT_DEAL = {"fr": r"Donne \d+ ·", "de": r"Runde \d+ ·", "da": r"Runde \d+ ·"}
WHICH = {"fr": "Laquelle", "de": "Welche", "da": "Hvilken"}
CARD = re.compile(r"(10|[2-9AKDBRVEJ]|Kn)([♣♦♥♠])|🃏")


def spawn(folder: Path, *args: str) -> pexpect.spawn[str]:
    return pexpect.spawn(
        sys.executable, ["-c", "from euchre.cli import main; main()", "play", "--bots",
                         "basic", "--delay", "0", *args],
        cwd=str(folder), env={"TERM": "dumb", "PATH": "/usr/bin:/bin", "COLUMNS": "200",
                              "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
                              "XDG_CONFIG_HOME": str(folder / "config"),
                              "XDG_DATA_HOME": str(folder / "data")},
        encoding="utf-8", dimensions=(50, 200), timeout=120)


def typed(card: str, lang: str) -> str:
    """A card as the screen shows it (``V♥``), typed in the language's letters (``VC``)."""
    if card == "🃏":
        return "JK"
    found = CARD.fullmatch(card)
    assert found is not None, card
    return found.group(1) + SUITS[lang][found.group(2)]


@pytest.mark.parametrize("lang", ["fr", "de", "da"])
def test_a_player_plays_a_deal_typing_cards_and_moves_in_the_language(
        tmp_path: Path, lang: str) -> None:
    """Every answer is typed, never a number: the pass word of the language, and every card
    in the language's letters (the French cœur as C: where C also reads as clubs and both
    are legal, the game asks, and the first reading offered is cœur)."""
    child = spawn(tmp_path, "--seed", "11", "--lang", lang)
    log = io.StringIO()
    child.logfile_read = log
    cards_typed = 0
    while True:
        seen = child.expect([PROMPT, NEXT_DEAL[lang]])
        if seen == 1:  # a deal begins: stop once one was played (not sat out)
            if cards_typed:
                break
            continue
        screen = child.before or ""
        if WHICH[lang] in screen.splitlines()[-1]:  # the question of two readings
            offered = dict(re.findall(r"^ {2}(\d) ([^\r\n]+)", screen.split("?")[-2],
                                      re.MULTILINE))
            if "passe" in offered.values():  # German p in round 2: Pik, or pass
                assert lang == "de" and offered["1"].startswith("Trumpf Pik")
                child.sendline(next(k for k, said in offered.items() if said == "passe"))
            else:  # French C: cœur, or clubs in the notation
                assert lang == "fr" and "cœur" in offered["1"], offered
                child.sendline("1")
            continue
        choices = re.findall(r"^ {2}1 (\S+)", screen, re.MULTILINE)
        assert choices, screen[-500:]
        first = choices[-1]
        if CARD.fullmatch(first):
            child.sendline(typed(first, lang))
            cards_typed += 1
        elif re.search(rf"^ {{2}}\d {PASS[lang] if lang != 'de' else 'passe'}\b", screen,
                       re.MULTILINE):
            child.sendline(PASS[lang])
        else:  # must name a suit: the first as the list words it
            child.sendline(re.findall(r"^ {2}1 ([^\r\n]+?)(?: {2}|\r)", screen,
                                      re.MULTILINE)[-1])
    child.expect(PROMPT)  # what is typed before a question is thrown away
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    screen = log.getvalue()
    assert "✗" not in screen, screen[screen.index("✗") - 600:screen.index("✗") + 200]
    assert cards_typed and SAID_PASS[lang] in screen


@pytest.mark.parametrize(("lang", "answer", "action"), [
    ("fr", "passe", "pass"), ("fr", "commande seul", "order alone"), ("fr", "p", "pass"),
    ("de", "passe", "pass"), ("de", "p", "pass"), ("de", "bestelle", "order"),
    ("da", "pas", "pass"), ("da", "bestil alene", "order alone"), ("da", "pass", "pass"),
    ("de", "order", "order"),
])
def test_the_first_round_is_bid_in_the_language_or_in_english(
        lang: str, answer: str, action: str) -> None:
    """Issue 30: German ``passe`` and ``p`` were refused."""
    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    assert interpret(answer, deal.legal_actions(), deal.phase, lang) == Action.parse(action)


@pytest.mark.parametrize(("lang", "answer", "action"), [
    ("fr", "atout cœur seul", "trump H alone"), ("fr", "atout pique", "trump S"),
    ("fr", "T", "trump C"), ("fr", "K", "trump D"), ("de", "Trumpf Kreuz", "trump C"),
    ("de", "kr", "trump C"), ("de", "K", "trump D"), ("da", "trumf ruder", "trump D"),
    ("da", "R", "trump D"), ("da", "K alene", "trump C alone"), ("da", "forsvar alene",
                                                                  "defend alone"),
])
def test_suits_and_moves_are_named_in_the_languages_letters_and_words(
        lang: str, answer: str, action: str) -> None:
    phase = Phase.DEFEND if action == "defend alone" else Phase.BID_SUIT
    legal = [Action.parse(action), Action.parse("pass")]
    assert interpret(answer, legal, phase, lang) == Action.parse(action)


@pytest.mark.parametrize(("lang", "answer", "card"), [
    ("fr", "VC", "JH"), ("fr", "RP", "KS"), ("fr", "AP", "AS"), ("fr", "DK", "QD"),
    ("fr", "10T", "TC"), ("de", "BP", "JS"), ("de", "KK", "KD"), ("de", "DK", "QD"),
    ("de", "AKr", "AC"), ("de", "BKr", "JC"), ("da", "EK", "AC"), ("da", "BH", "JH"),
    ("da", "KnR", "JD"), ("da", "KK", "KC"), ("da", "DS", "QS"),
])
def test_cards_are_typed_in_the_languages_letters(lang: str, answer: str, card: str) -> None:
    """The issue's ``AP RP BP KK DK``, refused before, and the rest of each language's
    letters."""
    legal = [Action.play(card)]
    assert interpret(answer, legal, Phase.PLAY, lang) == Action.play(card)
    assert interpret(f"discard {answer}", [Action.discard(card)], Phase.PLAY, lang) \
        == Action.discard(card)


def test_a_french_c_means_the_legal_card_and_asks_when_both_are() -> None:
    """French ``9C``: the nine of cœur, or of clubs in the notation."""
    hearts, clubs = Action.play("9H"), Action.play("9C")
    assert interpret("9C", [hearts], Phase.PLAY, "fr") == hearts
    assert interpret("9C", [clubs], Phase.PLAY, "fr") == clubs
    with pytest.raises(Ambiguous) as asked:
        interpret("9C", [clubs, hearts], Phase.PLAY, "fr")
    assert asked.value.readings == [hearts, clubs]  # the language's reading first
    # in English, C is clubs alone; in German and Danish C is no suit of theirs
    for lang in ("en", "de", "da"):
        assert interpret("9C", [clubs, hearts], Phase.PLAY, lang) == clubs


def test_p_where_trump_is_named_is_asked_in_german_and_french() -> None:
    """Round 2: ``p`` is Pik (pique) and pass; both legal, the game asks."""
    legal = [Action.parse("pass"), Action.parse("trump S"), Action.parse("trump H")]
    for lang in ("de", "fr"):
        with pytest.raises(Ambiguous):
            interpret("p", legal, Phase.BID_SUIT, lang)
    assert interpret("p", legal, Phase.BID_SUIT, "da") == Action.parse("pass")
    assert interpret("p", legal, Phase.BID_SUIT, "en") == Action.parse("pass")


@pytest.mark.parametrize(("lang", "word"), [("fr", "conseil"), ("de", "Tipp"),
                                            ("da", "tip"), ("fr", "aide"), ("de", "hilfe")])
def test_the_commands_have_their_words_in_the_language(lang: str, word: str) -> None:
    found = readings(word, Phase.BID_SUIT, lang)
    assert found in ([Command.HINT], [Command.HELP])


def test_a_french_player_is_asked_which_card_c_means(tmp_path: Path) -> None:
    """At the terminal: the person types a rank and C where both the cœur and the trèfle
    (clubs in the notation) of that rank are legal; the game asks, listing the cœur first,
    and plays the one chosen."""
    # seed 3, cards in French letters: a list holding AT and AC (an ace, 9 or 10 in both
    # suits: V, D, R are French alone) comes within the first deals; until then, choice 1
    child = spawn(tmp_path, "--seed", "3", "--to", "5", "--lang", "fr", "--letters")
    log = io.StringIO()
    child.logfile_read = log
    both: set[str] = set()
    while not both:
        child.expect(PROMPT)
        listed = re.findall(r"^ {2}1 [^\r\n]*", child.before or "", re.MULTILINE)
        cards = re.findall(r"\d (10|9|A)([TKCP])\b", listed[-1] if listed else "")
        both = {r for r, s in cards if s == "C"} & {r for r, s in cards if s == "T"}
        child.sendline(sorted(both)[0] + "C" if both else "1")
    rank = sorted(both)[0]
    child.expect(r"peut se lire de deux façons")
    child.expect(PROMPT)
    offered = child.before or ""
    assert re.search(rf"^ {{2}}1 [^\r\n]*{rank}C  cœur", offered, re.MULTILINE), offered
    assert re.search(rf"^ {{2}}2 [^\r\n]*{rank}T  trèfle", offered, re.MULTILINE), offered
    assert "Laquelle" in offered.splitlines()[-1]
    child.sendline("2")
    child.expect(rf"{rank}T")  # the trèfle chosen is played or discarded
    child.expect(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert "✗" not in log.getvalue()
