"""What a game comes to, in words: the rules played, each deal's result, the score, the
winner (RULES §9-§11).

The result of a deal in words:

>>> from euchre import DealResult, Suit
>>> names = SeatNames.around(4, view=2, person=False)
>>> names.names
('North', 'East', 'South', 'West')
>>> euchred = DealResult(Suit.HEARTS, 0, False, None, None, (1, 2, 0, 2), (0, 2, 0, 2), True)
>>> result_words(euchred, names, next_dealer=0)
'Euchred! East and West score 2'
>>> made = DealResult(Suit.HEARTS, 2, False, None, None, (1, 1, 2, 1), (1, 0, 1, 0), True)
>>> result_words(made, names, next_dealer=0)
'North and South make it with 3 tricks: 1 point'
>>> march = DealResult(Suit.HEARTS, 2, True, None, None, (0, 0, 5, 0), (4, 0, 4, 0), True)
>>> result_words(march, names, next_dealer=0)
'South marches alone: 4 points'
>>> thrown = DealResult(None, None, False, None, None, (0,) * 4, (0,) * 4, True, True)
>>> result_words(thrown, names, next_dealer=1)
'All passed: the cards are thrown in; East deals next'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from euchre.cards import Card
from euchre.cli.seats import SeatNames
from euchre.cli.style import SUIT_NAMES
from euchre.deal import DealResult
from euchre.rules import Rules

__all__ = ["describe_rules", "marker_words", "result_words", "score_words", "winner_words"]

_MARKERS: Final = {
    1: "the four face down on the three, one pip showing",
    2: "the three face down on the four, two pips showing",
    3: "the three face up on the four",
    4: "the four face up on the three",
}


def marker_words(points: int) -> str:
    """A side's score in a game to 5 as its three-and-four markers (RULES §11).

    >>> marker_words(3)
    'the three face up on the four'
    """
    return _MARKERS.get(points, "")


def _points(value: int) -> str:
    return f"{value} point{'' if value == 1 else 's'}"


def result_words(
    result: DealResult,
    names: SeatNames,
    next_dealer: int,
    called: Card | None = None,
    declared_alone: bool | None = None,
) -> str:
    """The end of a deal in one sentence: made, march, euchred or thrown in (RULES §9).

    ``next_dealer`` is named when the cards are thrown in.  ``declared_alone`` (what the
    table saw declared) tells a five-handed maker forced to play alone by a buried called
    card from one who chose to.
    """
    n = names.players
    if result.thrown_in:
        return (f"All passed: the cards are thrown in; "
                f"{names.does(next_dealer, 'deals')} next")
    maker = result.maker
    if maker is None or not result.complete:
        return "The deal is unfinished"
    scorers = [s for s in range(n) if result.points[s] > 0]
    value = max(result.points)
    each = " each" if len(scorers) > 1 and n != 4 else ""
    points = _points(value) + each
    side = [maker] if result.alone else scorers  # when made: the makers score
    forced = ""
    if result.alone and called is not None and declared_alone is False:
        forced = f" (nobody held the called {called})"
    tricks = result.makers_tricks
    outcome = result.outcome
    if outcome == "march":
        verb = "marches alone" if result.alone else "marches"
        return f"{names.does(side, verb)}{forced}: {points}"
    if outcome == "made":
        verb = "makes it alone" if result.alone else "makes it"
        return f"{names.does(side, verb)}{forced} with {tricks} tricks: {points}"
    lone = result.lone_defender
    by = f" by {names[lone]} defending alone" if lone is not None else ""
    if result.alone and not forced:
        by += f" ({names[maker]} went alone)"
    return f"Euchred{by}! {names.does(scorers, 'scores')} {value}{each}"


def score_words(scores: Sequence[int], names: SeatNames, target: int,
                markers: bool = False) -> str:
    """The running score: by side four-handed; ``markers``: with each side's three and
    four in a game to 5."""
    if names.players == 4:
        parts = []
        for side in names.sides():
            text = f"{names.side_name(side)} {scores[side[0]]}"
            markers_text = marker_words(scores[side[0]]) if target == 5 and markers else ""
            parts.append(f"{text} [dim]({markers_text})[/]" if markers_text else text)
        return " · ".join(parts)
    order = sorted(range(names.players), key=lambda s: (s != names.you, s))
    return " · ".join(f"{names[s]} {scores[s]}" for s in order)


def winner_words(winners: Sequence[int], scores: Sequence[int], names: SeatNames) -> str:
    """Who won the game: a side four-handed, else a player; ties share (RULES §10)."""
    best = scores[winners[0]]
    if names.players == 4:
        losers = scores[(winners[0] + 1) % 4]
        return f"{names.does(winners, 'wins')} the game, {best} to {losers}!"
    if len(winners) > 1:
        return f"{names.does(winners, 'shares')} the win with {_points(best)}!"
    return f"{names.does(winners[0], 'wins')} the game with {_points(best)}!"


def describe_rules(rules: Rules) -> str:
    """The rules in a line: variant, pack, target and the options that are on."""
    parts = [rules.variant, f"{rules.deck} cards" + (" and the joker" if rules.joker else ""),
             f"game to {rules.target}"]
    if rules.joker and rules.joker_suit is not None:
        parts.append(f"a turned-up joker stands for {SUIT_NAMES[rules.joker_suit]}")
    if rules.stick_the_dealer:
        parts.append("stick the dealer")
    if rules.defend_alone:
        parts.append("defending alone allowed")
    if rules.dealer_must_take_up:
        parts.append("the dealer must take up")
    if rules.draw:
        parts.append("the draw for partners")
    return ", ".join(parts)
