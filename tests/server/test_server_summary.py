"""The deal's summary as each player reads it, and the maker's side from the engine."""

from __future__ import annotations

from euchre.cards import Suit
from euchre.deal import DealResult
from euchre.rules import Rules
from euchre.server.views import known_makers, summary_text

NAMES = ["Ann", "Bo", "Cy", "Di"]


def test_a_lone_maker_partner_scores_with_the_side_but_is_not_named() -> None:
    """RULES §9: four-handed, a lone maker's partner sits out but scores with the side."""
    lone_march = DealResult(Suit.SPADES, 0, True, None, None, (5, 0, 0, 0), (4, 0, 4, 0), True)
    assert lone_march.makers == (0, 2)
    assert summary_text(lone_march, Rules(players=4), NAMES, 3) == (
        "March! Ann, alone, took all five tricks with spades trump: 4 points.")
    assert summary_text(lone_march, Rules(players=4), NAMES, 3, you=0) == (
        "March! You, alone, took all five tricks with spades trump: 4 points.")


def test_the_summary_says_you_to_its_reader() -> None:
    euchred = DealResult(Suit.HEARTS, 1, False, None, None, (2, 1, 1, 1), (2, 0, 2, 0), True)
    three = Rules(players=3)
    made = DealResult(Suit.CLUBS, 0, False, None, None, (3, 1, 1), (1, 0, 0), True)
    assert summary_text(euchred, Rules(players=4), NAMES, 0, you=0) == (
        "Euchred! Bo and Di made hearts trump but took only 2 tricks: you and Cy score "
        "2 points.")
    assert summary_text(euchred, Rules(players=4), NAMES, 0, you=1).startswith(
        "Euchred! You and Di made hearts trump")
    assert summary_text(made, three, NAMES, 0, you=1) == (
        "Ann made clubs trump with 3 tricks: 1 point.")
    thrown = DealResult(None, None, False, None, None, (0,) * 4, (0,) * 4, True, thrown_in=True)
    assert summary_text(thrown, Rules(players=4), NAMES, 1, you=2) == (
        "Everybody passed twice: the cards are thrown in and you deal next.")


def test_the_makers_a_seat_knows() -> None:
    """RULES §12: five-handed, the partner joins the maker's side once it is known."""
    assert known_makers(Rules(players=4), 1, None) == [1, 3]
    assert known_makers(Rules(players=5), 2, None) == [2]
    assert known_makers(Rules(players=5), 2, 4) == [2, 4]
    assert known_makers(Rules(players=3), None, None) == []


def test_the_server_starts_without_the_expert() -> None:
    """The expert bot (numba, the solver) loads at the first hint: eagerly it tripled the
    objects the garbage collector walks and the 200-table p99 went from 13-17 to 60-95 ms
    (docs/benchmarks.md)."""
    import subprocess
    import sys

    code = "import sys, euchre.server.app; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True)
    assert out.stdout.strip() == "False"
