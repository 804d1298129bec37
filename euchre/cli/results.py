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
from euchre.cli.lang import N_, _, ngettext
from euchre.cli.seats import SeatNames
from euchre.cli.style import suit_name
from euchre.deal import DealResult
from euchre.rules import OPTIONS, Rules, option

__all__ = ["describe_rules", "house_rules", "marker_words", "result_words", "score_words",
           "winner_words"]

_MARKERS: Final = {
    1: N_("the four face down on the three, one pip showing"),
    2: N_("the three face down on the four, two pips showing"),
    3: N_("the three face up on the four"),
    4: N_("the four face up on the three"),
}


def marker_words(points: int) -> str:
    """A side's score in a game to 5 as its three-and-four markers (RULES §11).

    >>> marker_words(3)
    'the three face up on the four'
    """
    return _(_MARKERS[points]) if points in _MARKERS else ""


def _points(value: int) -> str:
    return ngettext("{n} point", "{n} points", value).format(n=value)


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

    >>> from euchre import DealResult, Suit
    >>> names = SeatNames.around(5, view=0, person=True)
    >>> made = DealResult(Suit.SPADES, 0, True, None, None, (3, 0, 1, 1, 0), (1, 0, 0, 0, 0), True)
    >>> result_words(made, names, next_dealer=1, called=Card.AS, declared_alone=False)
    'You make it alone (nobody held the called AS) with 3 tricks: 1 point'
    >>> result_words(made, names, next_dealer=1, called=Card.AS, declared_alone=True)
    'You make it alone with 3 tricks: 1 point'
    """
    n = names.players
    if result.thrown_in:
        return names.act(next_dealer,
                         N_("All passed: the cards are thrown in; {who} deals next"),
                         N_("All passed: the cards are thrown in; You deal next"))
    maker = result.maker
    if maker is None or not result.complete:
        return _("The deal is unfinished")
    scorers = [s for s in range(n) if result.points[s] > 0]
    value = max(result.points)
    each = len(scorers) > 1 and n != 4
    points = (ngettext("{n} point each", "{n} points each", value).format(n=value) if each
              else _points(value))
    side = [maker] if result.alone else scorers  # when made: the makers score
    forced = ""
    if result.alone and called is not None and declared_alone is False:
        forced = " " + _("(nobody held the called {card})").format(card=called)
    tricks = result.makers_tricks
    outcome = result.outcome
    if outcome == "march":
        said = (names.act(side, N_("{who} marches alone"), N_("You march alone"))
                if result.alone else
                names.act(side, N_("{who} marches"), N_("You march"), N_("{who} march")))
        # TRANSLATORS: "You march: 2 points" (French: a narrow space before ":")
        return _("{said}: {points}").format(said=f"{said}{forced}", points=points)
    if outcome == "made":
        said = (names.act(side, N_("{who} makes it alone"), N_("You make it alone"))
                if result.alone else
                names.act(side, N_("{who} makes it"), N_("You make it"), N_("{who} make it")))
        with_tricks = ngettext("with {n} trick", "with {n} tricks", tricks).format(n=tricks)
        return _("{said}: {points}").format(said=f"{said}{forced} {with_tricks}",
                                            points=points)
    lone = result.lone_defender
    by = (" " + names.act(lone, N_("by {who} defending alone"), N_("by you defending alone"))
          if lone is not None else "")
    if result.alone and not forced:
        by += " " + names.act(maker, N_("({who} went alone)"), N_("(you went alone)"))
    by += forced  # a five-handed maker without a partner, unknowing (RULES §6.3)
    if each:
        scored = names.act(scorers, N_("{who} scores {n}"), N_("You score {n}"),
                           N_("{who} score {n} each"), n=value)
    else:
        scored = names.act(scorers, N_("{who} scores {n}"), N_("You score {n}"),
                           N_("{who} score {n}"), n=value)
    return _("Euchred{by}! {scored}").format(by=by, scored=scored)


def score_words(scores: Sequence[int], names: SeatNames, target: int,
                markers: bool = False) -> str:
    """The running score: by side four-handed, else by player clockwise from the viewer
    (as the tricks are counted); ``markers``: with each side's three and four in a game
    to 5.

    >>> score_words([7, 9, 2], SeatNames.around(3, view=0, person=True), target=10)
    'You 7 · West 9 · East 2'
    >>> print(score_words([3, 1, 3, 1], SeatNames.around(4, view=2, person=False), target=5,
    ...                   markers=True))  # doctest: +NORMALIZE_WHITESPACE
    North & South 3 [dim](the three face up on the four)[/] · East & West 1
    [dim](the four face down on the three, one pip showing)[/]
    """
    if names.players == 4:
        parts = []
        for side in names.sides():
            text = f"{names.side_name(side)} {scores[side[0]]}"
            markers_text = marker_words(scores[side[0]]) if target == 5 and markers else ""
            parts.append(f"{text} [dim]({markers_text})[/]" if markers_text else text)
        return " · ".join(parts)
    return " · ".join(f"{names[s]} {scores[s]}" for s in names.clockwise())


def winner_words(winners: Sequence[int], scores: Sequence[int], names: SeatNames) -> str:
    """Who won the game: a side four-handed, else a player; ties share (RULES §10).

    >>> winner_words((0, 2), [10, 6, 10, 6], SeatNames.around(4, view=2, person=False))
    'North and South win the game, 10 to 6!'
    >>> winner_words((1, 2), [8, 11, 11], SeatNames.around(3, view=0, person=True))
    'West and East share the win with 11 points!'
    """
    best = scores[winners[0]]
    if names.players == 4:
        losers = scores[(winners[0] + 1) % 4]
        return names.act(winners, N_("{who} wins the game, {best} to {losers}!"),
                         N_("You win the game, {best} to {losers}!"),
                         N_("{who} win the game, {best} to {losers}!"),
                         best=best, losers=losers)
    if len(winners) > 1:
        return names.act(winners, N_("{who} shares the win with {points}!"),
                         N_("You share the win with {points}!"),
                         N_("{who} share the win with {points}!"), points=_points(best))
    return names.act(winners[0], N_("{who} wins the game with {points}!"),
                     N_("You win the game with {points}!"), points=_points(best))


def describe_rules(rules: Rules) -> str:
    """The rules in a line: variant, pack, target and the options that are on (in the
    words of the rules' table, :data:`euchre.rules.OPTIONS`).

    >>> describe_rules(Rules(players=4, stick_the_dealer=True, draw=True))
    'four-handed, 24 cards, game to 10, stick the dealer, the draw for partners'
    """
    pack = (_("{n} cards and the joker") if rules.joker else _("{n} cards")).format(
        n=rules.deck)
    parts = [_(_VARIANTS.get(rules.variant, rules.variant)), pack,
             _("game to {target}").format(target=rules.target)]
    if rules.joker and rules.joker_suit is not None:
        parts.append(_("a turned-up joker stands for {suit}").format(
            suit=suit_name(rules.joker_suit)))
    parts += [_(o.on_words) for o in OPTIONS if o.on_words and getattr(rules, o.name)]
    return ", ".join(parts)


def house_rules(rules: Rules) -> str:
    """The rules of one deal that differ from the variant's defaults, in a line (empty when
    none do): what a puzzle shows above its position.

    >>> house_rules(Rules(players=4, stick_the_dealer=True, joker=True, target=5))
    'the joker, stick the dealer'
    >>> house_rules(Rules(players=3, defend_alone=False, deck=32))
    '32 cards, Defend alone: off'
    >>> house_rules(Rules(players=5))
    ''
    """
    parts = []
    for name, value in rules.house_rules().items():
        o = option(name)
        if o.name == "deck":
            parts.append(_("{n} cards").format(n=value))
        elif o.name == "joker":
            parts.append(_("the joker") if value else _("{option}: off").format(
                option=_(o.label)))
        elif o.name == "joker_turnup":
            if rules.joker and rules.joker_suit is not None:
                parts.append(_("a turned-up joker stands for {suit}").format(
                    suit=suit_name(rules.joker_suit)))
        elif value is True:
            parts.append(_(o.on_words or o.label))
        elif value is False:
            parts.append(_("{option}: off").format(option=_(o.label)))
        else:
            parts.append(f"{_(o.label)}: {value}")
    return ", ".join(parts)


_VARIANTS: Final = {
    "two-handed": N_("two-handed"),
    "three-handed": N_("three-handed"),
    "four-handed": N_("four-handed"),
    "five-handed": N_("five-handed"),
}
