"""The rules set: validity (RULES §1), presets, variant defaults, options per variant."""

from __future__ import annotations

from typing import Any

import pytest

from euchre.cards import Suit
from euchre.rules import VARIANTS, Rules, RulesError

PACKS = [(deck, joker) for deck in (24, 28, 32) for joker in (False, True)]


def pack_id(pack: tuple[int, bool]) -> str:
    return f"{pack[0]}{'+joker' if pack[1] else ''}"


# -- RULES §1: 5 × hands + 1 ≤ pack ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("pack", PACKS, ids=pack_id)
def test_rules_valid_only_when_the_pack_holds_every_hand_and_the_turnup(
    players: int, pack: tuple[int, bool]
) -> None:
    """RULES §1: valid only if 5 × hands + 1 ≤ pack size (the dummy is a hand)."""
    deck, joker = pack
    hands = 4 if players == 3 else players
    if 5 * hands + 1 <= deck + joker:
        rules = Rules(players=players, deck=deck, joker=joker)
        assert rules.hands == hands
        assert rules.pack_size == deck + joker
    else:
        with pytest.raises(RulesError):
            Rules(players=players, deck=deck, joker=joker)


@pytest.mark.parametrize(("joker", "size"), [(False, 24), (True, 25)])
def test_five_handed_on_24_or_25_cards_is_refused_naming_the_numbers(
    joker: bool, size: int
) -> None:
    """RULES §1: five-handed on a 24- or 25-card pack is invalid; the message names the
    numbers (26 needed, the pack's size)."""
    with pytest.raises(RulesError) as info:
        Rules(players=5, deck=24, joker=joker)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert "26" in message
    assert f"has {size}" in message
    assert "5 × 5" in message
    assert "RULES §1" in message
    assert message == (
        f"five hands need 26 cards (5 × 5 + the turn-up) but the pack has {size} "
        f"(RULES §1); use deck=28 or deck=32"
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_smaller_games_fit_the_24_card_pack(players: int) -> None:
    """RULES §1: 24 cards serve two-, three- (with the dummy: 21 cards) and four-handed."""
    assert Rules(players=players, deck=24).deck == 24


@pytest.mark.parametrize("deck", [0, 20, 25, 36, 52])
def test_other_pack_sizes_are_refused(deck: int) -> None:
    """RULES §1: the pack has 24, 28 or 32 cards (plus the joker)."""
    with pytest.raises(RulesError, match=f"24, 28 or 32 cards, not {deck}"):
        Rules(players=4, deck=deck)


@pytest.mark.parametrize("players", [0, 1, 6, 7])
def test_euchre_is_for_two_to_five_players(players: int) -> None:
    with pytest.raises(RulesError, match=f"2 to 5 players, not {players}"):
        Rules(players=players)


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


# -- presets -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), sorted(VARIANTS.items()))
def test_preset_by_name(name: str, players: int) -> None:
    rules = Rules.preset(name)
    assert rules == Rules(players=players)
    assert rules.players == players


def test_variant_names() -> None:
    assert VARIANTS == {
        "two-handed": 2,
        "three-handed": 3,
        "cutthroat": 3,
        "four-handed": 4,
        "partnership": 4,
        "five-handed": 5,
        "call-your-partner": 5,
    }
    assert [Rules(players=n).variant for n in (2, 3, 4, 5)] == [
        "two-handed", "three-handed", "four-handed", "five-handed"
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_preset_by_player_count(players: int) -> None:
    assert Rules.preset(players) == Rules(players=players)
    assert Rules.preset(str(players)) == Rules(players=players)


@pytest.mark.parametrize("name", ["Five-Handed", "five_handed", "FIVE HANDED", " five-handed "])
def test_preset_names_are_forgiving(name: str) -> None:
    assert Rules.preset(name) == Rules(players=5)


def test_preset_takes_options() -> None:
    rules = Rules.preset("four-handed", defend_alone=True, target=5)
    assert rules == Rules(players=4, defend_alone=True, target=5)


def test_unknown_preset_is_refused_listing_the_known() -> None:
    with pytest.raises(RulesError, match="unknown variant 'six-handed'") as info:
        Rules.preset("six-handed")
    assert "two-handed" in str(info.value) and "five-handed" in str(info.value)


# -- variant defaults ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deck", "stick", "defend"),
    [(2, 24, False, False), (3, 24, False, True), (4, 24, False, False), (5, 28, True, False)],
    ids=["two-handed", "three-handed", "four-handed", "five-handed"],
)
def test_variant_defaults(players: int, deck: int, stick: bool, defend: bool) -> None:
    """RULES §1 (24 cards, 28 five-handed), §4 (stick the dealer five-handed), §7 (defend
    alone three-handed), §10 (target 10), and every other option off."""
    rules = Rules(players=players)
    assert rules.deck == deck
    assert rules.stick_the_dealer is stick
    assert rules.defend_alone is defend
    assert rules.joker is False
    assert rules.joker_turnup == "dealer_names"
    assert rules.joker_suit is None
    assert rules.dealer_must_take_up is False
    assert rules.target == 10
    assert rules.draw is False
    assert rules.rubber is False


def test_five_handed_defaults_deck_28_and_stick_the_dealer() -> None:
    """RULES §1: 28 cards five-handed; §4: stick the dealer is the default five-handed."""
    rules = Rules.preset("five-handed")
    assert (rules.deck, rules.stick_the_dealer, rules.pack_size) == (28, True, 28)


def test_three_handed_defaults_defend_alone_and_a_dummy_hand() -> None:
    """RULES §7: defending alone is on by default three-handed; §3: the dummy is a hand."""
    rules = Rules.preset("three-handed")
    assert rules.defend_alone is True
    assert rules.hands == 4


def test_explicit_options_override_defaults() -> None:
    """RULES §4 and §7 give these as options in the other variants."""
    assert Rules(players=5, stick_the_dealer=False).stick_the_dealer is False
    assert Rules(players=5, deck=32).deck == 32
    assert Rules(players=3, defend_alone=False).defend_alone is False
    assert Rules(players=4, defend_alone=True).defend_alone is True
    for n in (2, 3, 4):
        assert Rules(players=n, stick_the_dealer=True).stick_the_dealer is True
        assert Rules(players=n, deck=28).deck == 28
        assert Rules(players=n, deck=32, joker=True).pack_size == 33
    for n in (2, 3, 4, 5):
        assert Rules(players=n, dealer_must_take_up=True).dealer_must_take_up is True


@pytest.mark.parametrize(("players", "alone"), [(2, False), (3, True), (4, True), (5, True)])
def test_going_alone_in_every_variant_but_two_handed(players: int, alone: bool) -> None:
    """RULES §4: two-handed: there is no going alone."""
    assert Rules(players=players).alone_allowed is alone


def test_partnership_only_four_handed() -> None:
    assert [Rules(players=n).partnership for n in (2, 3, 4, 5)] == [False, False, True, False]


@pytest.mark.parametrize("target", [5, 7, 10])
def test_four_handed_target_by_agreement(target: int) -> None:
    """RULES §10: 5, 7 or 10 by agreement in four-handed."""
    assert Rules(players=4, target=target).target == target


@pytest.mark.parametrize("target", [0, -1])
def test_target_must_be_positive(target: int) -> None:
    with pytest.raises(RulesError, match="RULES §10"):
        Rules(players=4, target=target)


# -- options refused where RULES says they do not apply -------------------------------------


@pytest.mark.parametrize(("players", "word"), [(2, "two"), (5, "five")])
def test_defend_alone_refused_in_two_and_five_handed(players: int, word: str) -> None:
    """RULES §7: defending alone is not in two- or five-handed."""
    with pytest.raises(RulesError, match="RULES §7") as info:
        Rules(players=players, defend_alone=True)
    assert f"not played {word}-handed" in str(info.value)
    assert Rules(players=players, defend_alone=False).defend_alone is False


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("option", ["draw", "rubber"])
def test_draw_and_rubber_belong_to_four_handed(players: int, option: str) -> None:
    """RULES §11: the draw and rubbers are four-handed extras."""
    options: dict[str, Any] = {option: True}
    with pytest.raises(RulesError, match="RULES §11"):
        Rules(players=players, **options)
    assert getattr(Rules(players=4, **options), option) is True


# -- the joker's turn-up option (RULES §3) ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical", "suit"),
    [
        ("suit:H", "suit:H", Suit.HEARTS),
        ("suit:h", "suit:H", Suit.HEARTS),
        ("suit:♠", "suit:S", Suit.SPADES),
        ("suit:c", "suit:C", Suit.CLUBS),
        ("suit:D", "suit:D", Suit.DIAMONDS),
    ],
)
def test_joker_turnup_fixed_suit(text: str, canonical: str, suit: Suit) -> None:
    """RULES §3: ``joker_turnup = "suit:<S>"``: a turned-up joker stands for a fixed suit."""
    rules = Rules(players=4, joker=True, joker_turnup=text)
    assert rules.joker_turnup == canonical
    assert rules.joker_suit is suit


@pytest.mark.parametrize("text", ["suit:X", "suit:", "names", "dealer", "H", "suit H"])
def test_joker_turnup_other_values_refused(text: str) -> None:
    with pytest.raises(RulesError, match="RULES §3") as info:
        Rules(players=4, joker=True, joker_turnup=text)
    assert repr(text) in str(info.value)


# -- representation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=4),
        Rules(players=2, deck=32, joker=True, joker_turnup="suit:D"),
        Rules(players=3, defend_alone=False, stick_the_dealer=True),
        Rules(players=4, defend_alone=True, target=5, draw=True, rubber=True),
        Rules(players=5, deck=32, joker=True, stick_the_dealer=False, dealer_must_take_up=True),
    ],
    ids=repr,
)
def test_rules_repr_pastes_back_and_dict_round_trips(rules: Rules) -> None:
    assert eval(repr(rules)) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


def test_repr_shows_only_what_differs_from_the_variant() -> None:
    assert repr(Rules(players=5, deck=28, stick_the_dealer=True)) == "Rules(players=5)"
    assert repr(Rules(players=4, defend_alone=True)) == "Rules(players=4, defend_alone=True)"


def test_to_dict_holds_every_option() -> None:
    assert Rules(players=4).to_dict() == {
        "players": 4, "deck": 24, "joker": False, "joker_turnup": "dealer_names",
        "stick_the_dealer": False, "dealer_must_take_up": False, "defend_alone": False,
        "target": 10, "draw": False, "rubber": False,
    }


def test_from_dict_omitted_keys_take_the_variants_defaults() -> None:
    """RECORDS: ``rules`` may omit any key; ``players`` picks the variant."""
    assert Rules.from_dict({}) == Rules(players=4)
    five = Rules.from_dict({"players": 5})
    assert (five.deck, five.stick_the_dealer) == (28, True)
    assert Rules.from_dict({"players": 3, "deck": 32}).defend_alone is True


def test_from_dict_refuses_unknown_options() -> None:
    data: dict[str, Any] = {"players": 4, "maker_leads": True}
    with pytest.raises(RulesError, match="unknown rules option"):
        Rules.from_dict(data)


def test_replace_recomputes_defaults_for_a_new_variant() -> None:
    assert Rules(players=4).replace(players=5) == Rules(players=5)
    assert Rules(players=3).replace(players=4).defend_alone is False
    assert Rules(players=2, joker=True).replace(players=3) == Rules(players=3, joker=True)
    assert Rules(players=4).replace(target=7) == Rules(players=4, target=7)
    with pytest.raises(RulesError, match="RULES §1"):
        Rules(players=4).replace(players=5, deck=24)


def test_rules_are_frozen() -> None:
    rules = Rules(players=4)
    with pytest.raises(AttributeError):
        rules.players = 5  # type: ignore[misc]


@pytest.mark.parametrize(("data", "message"), [
    ({"joker": "false"}, "rules option 'joker' must be true or false, not the string 'false'"),
    ({"joker": 0}, "rules option 'joker' must be true or false, not 0"),
    ({"stick_the_dealer": None, "draw": None}, "rules option 'draw' must be true or false, "
                                               "not null"),
    ({"players": True}, "rules option 'players' must be a whole number, not true"),
    ({"players": "4"}, "rules option 'players' must be a whole number, not the string '4'"),
    ({"deck": 24.0}, "rules option 'deck' must be a whole number, not 24.0"),
    ({"target": False}, "rules option 'target' must be a whole number, not false"),
    ({"joker_turnup": 5}, "rules option 'joker_turnup' must be a string, not 5"),
    ({"defend_alone": [True]}, "rules option 'defend_alone' must be true or false, not a list "
                                            "of 1 item"),
])
def test_rules_options_must_have_their_type(data: dict[str, Any], message: str) -> None:
    """A record's rules are refused, naming the option and the type it takes, when a value
    has another type: the string "false" would otherwise turn the joker on, and true would
    count as one player."""
    with pytest.raises(RulesError) as info:
        Rules.from_dict(data)
    assert str(info.value) == message
    with pytest.raises(RulesError, match="must be"):
        Rules(**{"players": 4, **data})


def test_unset_options_may_be_null_and_take_the_variant_default() -> None:
    rules = Rules.from_dict({"players": 5, "deck": None, "stick_the_dealer": None,
                             "defend_alone": None})
    assert rules == Rules(players=5)


def test_rules_must_be_an_object() -> None:
    with pytest.raises(RulesError, match="must be an object of rules options, not a list of 1"):
        Rules.from_dict([["players", 4]])  # type: ignore[arg-type]


def test_huge_numbers_in_rules_are_refused_in_a_short_sentence() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"target": -(10 ** 5000)})
    assert str(info.value) == ("the target must be a positive number of points, not a number "
                               "of about 5000 digits (RULES §10)")
