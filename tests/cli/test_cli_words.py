"""The words of the CLI: seat names, results of deals, scores, and reading answers."""

from __future__ import annotations

import pytest

from euchre import Action, Card, Deal, DealResult, InvalidActionError, Phase, Rules, Suit
from euchre.cli.lang import use
from euchre.cli.prompt import Command, choices, interpret
from euchre.cli.results import marker_words, result_words, score_words, winner_words
from euchre.cli.seats import SeatNames

H = Suit.HEARTS


def four(view: int = 0, person: bool = True) -> SeatNames:
    """Four-handed names; seat 0 is you, South."""
    return SeatNames.around(4, view, person)


@pytest.mark.parametrize(("players", "names"), [
    (2, ("You", "North")),
    (3, ("You", "West", "East")),
    (4, ("You", "West", "North", "East")),
    (5, ("You", "West", "Northwest", "Northeast", "East")),
])
def test_seats_are_named_around_the_table(players: int, names: tuple[str, ...]) -> None:
    assert SeatNames.around(players, 0, person=True).names == names
    watched = SeatNames.around(players, 0, person=False)
    assert watched.names == ("South", *names[1:])
    assert watched.you is None


def test_partners_sit_opposite_four_handed() -> None:
    names = four(view=3)
    assert names[3] == "You" and names[1] == "North"
    assert names.partner(3) == 1
    assert names.sides() == ((1, 3), (0, 2))
    assert names.side_name((1, 3)) == "You & North"
    assert SeatNames.around(3, 0, True).partner(0) is None


def test_grammar_for_you_and_for_groups() -> None:
    names = four()
    assert names.does(0, "takes it up") == "You take it up"
    assert names.does(2, "takes it up") == "North takes it up"
    assert names.does([1, 3], "scores") == "East and West score"
    assert names.does(0, "lays the hand face down and sits out") == (
        "You lay the hand face down and sit out")
    assert names.possessive(0) == "your" and names.possessive(1) == "West's"


def result(maker: int | None, tricks: tuple[int, ...], points: tuple[int, ...], *,
           alone: bool = False, lone: int | None = None, partner: int | None = None,
           thrown_in: bool = False) -> DealResult:
    """A finished deal's result with hearts trump."""
    return DealResult(None if maker is None else H, maker, alone, lone, partner, tricks,
                      points, True, thrown_in)


def test_four_handed_results_in_words() -> None:
    names = four()
    assert result_words(result(1, (1, 2, 0, 2), (0, 1, 0, 1)), names, 0) == (
        "East and West make it with 4 tricks: 1 point")
    assert result_words(result(1, (2, 1, 2, 0), (2, 0, 2, 0)), names, 0) == (
        "Euchred! You and North score 2")
    assert result_words(result(0, (5, 0, 0, 0), (4, 0, 4, 0), alone=True), names, 0) == (
        "You march alone: 4 points")
    assert result_words(result(0, (1, 4, 0, 0), (0, 4, 0, 4), alone=True, lone=1),
                        names, 0) == "Euchred by West defending alone (you went alone)! " \
                                     "East and West score 4"
    assert result_words(result(None, (0,) * 4, (0,) * 4, thrown_in=True), names, 0) == (
        "All passed: the cards are thrown in; You deal next")


def test_a_lone_defender_or_maker_who_is_you_is_named_in_your_own_words() -> None:
    """"by you", "(you went alone)": never "You" (German "Du") put in another seat's slot,
    where German needs "dir" and "du spieltest" (issue 22, item 10)."""
    names = four()
    by_you = result(1, (4, 1, 0, 0), (4, 0, 4, 0), alone=True, lone=0)
    assert result_words(by_you, names, 0) == (
        "Euchred by you defending alone (West went alone)! You and North score 4")
    you_alone = result(0, (1, 4, 0, 0), (0, 4, 0, 4), alone=True, lone=1)
    use("de")
    assert result_words(by_you, names, 0) == (
        "Gescheitert an dir als alleinigem Verteidiger (West spielte allein)! "
        "Du und Nord bekommen 4")
    assert result_words(you_alone, names, 0) == (
        "Gescheitert an West als alleinigem Verteidiger (du spieltest allein)! "
        "Ost und West bekommen 4")
    use("da")
    # the euchre is by you (af dig), not against you (mod dig): issue 30
    assert result_words(by_you, names, 0).startswith("Bet af dig som eneste forsvarer")


def test_other_variants_results_in_words() -> None:
    three = SeatNames.around(3, 0, True)
    assert result_words(result(1, (2, 2, 1), (2, 0, 2)), three, 0) == (
        "Euchred! You and East score 2 each")
    assert result_words(result(1, (0, 5, 0), (0, 3, 0)), three, 0) == "West marches: 3 points"
    five = SeatNames.around(5, 0, True)
    made = result(2, (0, 1, 2, 1, 1), (0, 1, 1, 0, 0), partner=1)
    assert result_words(made, five, 0) == (
        "West and Northwest make it with 3 tricks: 1 point each")
    forced = result(2, (0, 0, 5, 0, 0), (0, 0, 5, 0, 0), alone=True)
    assert result_words(forced, five, 0, Card.AH, declared_alone=False) == (
        "Northwest marches alone (nobody held the called AH): 5 points")
    two = SeatNames.around(2, 0, True)
    assert result_words(result(0, (2, 3), (0, 2)), two, 0) == "Euchred! North scores 2"


def test_a_euchre_says_when_nobody_held_the_called_card() -> None:
    """RULES §6.3, five-handed: a maker euchred without a partner (the called card in the
    kitty) is told so, as the made and march lines tell it; a declared lone hand is not."""
    five = SeatNames.around(5, 0, True)
    forced = result(2, (1, 1, 2, 1, 0), (2, 2, 0, 2, 2), alone=True)
    assert result_words(forced, five, 0, Card.AH, declared_alone=False) == (
        "Euchred (nobody held the called AH)! You, West, Northeast and East score 2 each")
    assert result_words(forced, five, 0, None, declared_alone=True) == (
        "Euchred (Northwest went alone)! You, West, Northeast and East score 2 each")


def test_scores_and_winners_in_words() -> None:
    names = four()
    assert score_words([3, 1, 3, 1], names, 10) == "You & North 3 · East & West 1"
    assert score_words([3, 1, 3, 1], names, 5) == "You & North 3 · East & West 1"
    assert "three face up on the four" in score_words([3, 1, 3, 1], names, 5, markers=True)
    assert [marker_words(p) for p in (0, 4)] == ["", "the four face up on the three"]
    assert winner_words([0, 2], [10, 6, 10, 6], names) == "You and North win the game, 10 to 6!"
    three = SeatNames.around(3, 1, True)
    assert winner_words([0, 2], [11, 8, 11], three) == "West and East share the win with 11 " \
                                                       "points!"
    assert winner_words([1], [3, 10, 4], three) == "You win the game with 10 points!"


def test_answers_are_numbers_or_records_notation() -> None:
    deal = Deal.from_cards(Rules(players=4), dealer=0, hands=[
        "9C TC JC QC KC", "JH JD AH KH QH", "9S TS JS QS KS", "AC 9D TD QD KD"], turnup="TH")
    obs = deal.observation(1)
    legal = choices(obs)
    assert [str(a) for a in legal] == ["pass", "order", "order alone"]
    assert interpret("3", legal, obs.phase) == Action.parse("order alone")
    assert interpret("  ORDER alone ", legal, obs.phase) == Action.parse("order alone")
    assert interpret("", legal, obs.phase) is Command.NOTHING
    assert interpret("Q", legal, obs.phase) is Command.QUIT
    with pytest.raises(InvalidActionError, match="choose 1 to 3"):
        interpret("0", legal, obs.phase)
    with pytest.raises(InvalidActionError, match="'order it' is not a choice or a move"):
        interpret("order it", legal, obs.phase)
    assert interpret("play 10h", legal, Phase.PLAY) == Action.play("TH")
    assert interpret("J♥", legal, Phase.PLAY) == Action.play("JH")
    assert interpret("ah", legal, Phase.CALL_PARTNER) == Action.call("AH")
    assert interpret("play AH", legal, Phase.EXCHANGE) == Action.play("AH")  # as written


def test_cards_to_play_are_listed_in_the_order_of_the_hand() -> None:
    deal = Deal.from_cards(Rules(players=4), dealer=0, hands=[
        "9C TC JC QC KC", "JH JD AH KH QH", "9S TS JS QS KS", "AC 9D TD QD KD"], turnup="TH")
    deal.apply("order")
    deal.apply("discard 9C")
    obs = deal.observation(1)  # seat 1 leads, trump hearts
    assert [a.card for a in choices(obs)] == list(obs.hand)
    assert [str(a) for a in choices(obs)][:2] == ["play JH", "play JD"]


def test_cards_to_discard_are_listed_from_the_weakest() -> None:
    """A reflex 1 in the dealer's exchange never throws away a bower or the joker."""
    deal = Deal.from_cards(Rules(players=4, joker=True), dealer=0, hands=[
        "JK JD 9C AS KS", "JH TH AH KH QH", "9S TS JS QS QC", "AC 9D TD QD KD"], turnup="9H")
    deal.apply("order")
    obs = deal.observation(0)  # the dealer's exchange, trump hearts
    listed = [str(a.card) for a in choices(obs)]
    assert listed == ["9C", "KS", "AS", "9H", "JD", "JK"]
    assert obs.hand[0] == Card.JK  # while the hand shows the joker first
