"""Cards, packs and the trump-aware tables (RULES §1, §2; RECORDS "Cards")."""

from __future__ import annotations

import pytest

from euchre.cards import (
    JOKER,
    NO_TRUMP,
    RANK_CHARS,
    SUIT_CHARS,
    SUIT_MASKS,
    TRICK_STRENGTH,
    Card,
    Suit,
    card_mask,
    cards_of,
    effective_suit,
    format_cards,
    left_bower,
    pack_mask,
    parse_cards,
    right_bower,
    sort_hand,
    suit_mask,
    trick_strength,
)

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def texts(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


# -- RULES §1: the pack ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "ranks"),
    [(24, "9TJQKA"), (28, "89TJQKA"), (32, "789TJQKA")],
    ids=["24: 9 to A", "28: 8 to A", "32: 7 to A"],
)
def test_pack_holds_its_ranks_in_every_suit(deck: int, ranks: str) -> None:
    """RULES §1: 24 = 9 10 J Q K A, 28 = 8 to A, 32 = 7 to A, of each suit."""
    expected = sorted(r + s for s in "CDHS" for r in ranks)
    pack = pack_mask(deck, joker=False)
    assert pack.bit_count() == deck
    assert sorted(texts(pack)) == expected
    assert not pack >> JOKER & 1


@pytest.mark.parametrize("deck", [24, 28, 32])
def test_joker_adds_one_card_to_the_pack(deck: int) -> None:
    """RULES §1: "+ joker": any pack plus one joker (25 = British euchre)."""
    with_joker = pack_mask(deck, joker=True)
    assert with_joker.bit_count() == deck + 1
    assert with_joker == pack_mask(deck, joker=False) | 1 << JOKER
    assert texts(with_joker)[-1] == "JK"


def test_pack_of_24_excludes_sevens_and_eights() -> None:
    pack = pack_mask(24, joker=False)
    for text in ("7C", "8C", "7D", "8H", "7S", "8S"):
        assert not pack >> Card.parse(text) & 1, text
    pack28 = pack_mask(28, joker=False)
    assert pack28 >> Card.parse("8D") & 1
    assert not pack28 >> Card.parse("7D") & 1


# -- RECORDS "Cards": the notation -----------------------------------------------------


def test_card_ids_are_suit_times_eight_plus_rank() -> None:
    """A card is ``suit * 8 + rank`` with 7..A as 0..7; the joker is 32."""
    assert int(Card.parse("7C")) == 0
    assert int(Card.parse("AC")) == 7
    assert int(Card.parse("9D")) == 10
    assert int(Card.parse("JH")) == 20
    assert int(Card.parse("AS")) == 31
    assert int(Card.JK) == JOKER == 32
    for suit in Suit:
        for rank, char in enumerate(RANK_CHARS):
            card = Card.parse(char + SUIT_CHARS[suit])
            assert card == suit * 8 + rank
            assert card.suit == suit
            assert card.rank == rank
            assert card.rank_char == char


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("9C", "9C"),
        ("TD", "TD"),
        ("JH", "JH"),
        ("AS", "AS"),
        ("JK", "JK"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("10♥", "TH"),
        ("td", "TD"),
        ("t♦", "TD"),
        ("js", "JS"),
        ("a♠", "AS"),
        ("K♣", "KC"),
        ("q♦", "QD"),
        ("7c", "7C"),
        ("8S", "8S"),
        ("joker", "JK"),
        ("Joker", "JK"),
        ("JOKER", "JK"),
        ("jk", "JK"),
        ("  9c  ", "9C"),
    ],
)
def test_card_input_is_forgiving_and_output_canonical(text: str, canonical: str) -> None:
    """RECORDS: ranks 7 8 9 T J Q K A (also 10), suits C D H S (also ♣ ♦ ♥ ♠), any case;
    the joker is JK (input also ``joker``); output is always canonical."""
    card = Card.parse(text)
    assert str(card) == canonical
    assert f"{card}" == canonical
    assert Card.parse(canonical) is card


@pytest.mark.parametrize("text", ["", "X", "9", "1H", "11H", "6C", "9X", "JJ", "AHS", "10", "Z♥"])
def test_not_a_card_is_refused_with_its_text(text: str) -> None:
    with pytest.raises(ValueError, match="not a card") as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_every_card_prints_and_parses_back() -> None:
    pack = pack_mask(32, joker=True)
    assert pack.bit_count() == 33
    for card in cards_of(pack):
        assert Card.parse(str(card)) is card
        assert Card.parse(str(card).lower()) is card


def test_list_of_cards_separated_by_spaces_or_commas() -> None:
    """RECORDS: a list of cards is separated by spaces or commas."""
    expected = ["9C", "TD", "JH", "AS", "JK"]
    assert [str(c) for c in parse_cards("9C TD JH AS JK")] == expected
    assert [str(c) for c in parse_cards("9c,10d, j♥  ,as joker")] == expected
    assert [str(c) for c in parse_cards(["9c", "10D", "JH", "a♠", "JOKER"])] == expected
    assert parse_cards("") == []
    assert format_cards(parse_cards("9c,10d, j♥  ,as joker")) == "9C TD JH AS JK"
    assert format_cards([]) == ""
    with pytest.raises(ValueError, match="not a card"):
        parse_cards("9C 1D")


def test_card_mask_and_cards_of_round_trip() -> None:
    hand = cards("AS 9C JK TD")
    mask = card_mask(hand)
    assert mask == 1 << 2 | 1 << 11 | 1 << 31 | 1 << 32
    assert list(cards_of(mask)) == cards("9C TD AS JK")
    assert list(cards_of(0)) == []
    assert Card.parse("JH").mask == 1 << 20


def test_card_repr_pastes_back() -> None:
    """STYLE: ``repr(card)`` is ``Card.parse('JH')`` and evaluates to the card."""
    assert repr(Card.parse("jh")) == "Card.parse('JH')"
    assert repr(Card.JK) == "Card.parse('JK')"
    for card in cards_of(pack_mask(32, joker=True)):
        assert eval(repr(card)) is card


def test_suit_parse_print_and_repr() -> None:
    for text, suit in [("C", C), ("d", D), ("♥", H), ("♠", S), ("hearts", H), ("Spade", S)]:
        assert Suit.parse(text) is suit
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert repr(H) == "Suit.HEARTS"
    for s in Suit:
        assert eval(repr(s)) is s
    with pytest.raises(ValueError, match="not a suit"):
        Suit.parse("X")


def test_suit_colours_and_same_colour() -> None:
    """Clubs/spades are black, diamonds/hearts red; "next" is the other suit of a colour."""
    assert [s.red for s in Suit] == [False, True, True, False]
    assert C.same_colour is S
    assert S.same_colour is C
    assert D.same_colour is H
    assert H.same_colour is D


def test_joker_has_no_printed_suit() -> None:
    assert Card.JK.suit is None
    assert Card.JK.rank == 8
    assert Card.JK.rank_char == "J"
    assert str(Card.JK) == "JK"


# -- RULES §2: rank of cards -------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "right", "left"),
    [(C, "JC", "JS"), (D, "JD", "JH"), (H, "JH", "JD"), (S, "JS", "JC")],
)
def test_bowers_are_the_jacks_of_trump_colour(trump: Suit, right: str, left: str) -> None:
    """RULES §2: right bower = jack of trump, left bower = other jack of the same colour."""
    assert str(right_bower(trump)) == right
    assert str(left_bower(trump)) == left


@pytest.mark.parametrize("trump", list(Suit))
def test_left_bower_follows_trump(trump: Suit) -> None:
    """RULES §2: the left bower belongs to the trump suit for following, leading, winning."""
    left = left_bower(trump)
    assert left.suit is trump.same_colour  # printed suit
    assert effective_suit(left, trump) is trump
    assert suit_mask(trump, trump) >> left & 1
    assert not suit_mask(trump.same_colour, trump) >> left & 1


@pytest.mark.parametrize("trump", list(Suit))
def test_joker_is_a_trump_in_every_suit(trump: Suit) -> None:
    """RULES §2: the joker belongs to the trump suit."""
    assert effective_suit(Card.JK, trump) is trump
    assert suit_mask(trump, trump) >> JOKER & 1
    for other in Suit:
        if other is not trump:
            assert not suit_mask(other, trump) >> JOKER & 1


def test_joker_has_no_suit_before_trump_is_fixed() -> None:
    """RULES §2: before trump is fixed cards have their plain ranks and suits."""
    with pytest.raises(ValueError, match="joker"):
        effective_suit(Card.JK, None)
    for s in Suit:
        assert not suit_mask(s, None) >> JOKER & 1


def test_suit_that_lost_its_jack_lacks_it() -> None:
    """RULES §2: with hearts trump, diamonds are A K Q 10 9 (no JD); clubs keep their jack."""
    assert texts(suit_mask(D, H) & pack_mask(24, False)) == ["9D", "TD", "QD", "KD", "AD"]
    assert texts(suit_mask(H, H) & pack_mask(24, True)) == [
        "JD", "9H", "TH", "JH", "QH", "KH", "AH", "JK"
    ]
    assert texts(suit_mask(C, H) & pack_mask(24, False)) == ["9C", "TC", "JC", "QC", "KC", "AC"]
    assert texts(suit_mask(S, H) & pack_mask(24, False)) == ["9S", "TS", "JS", "QS", "KS", "AS"]


def test_holding_only_the_left_bower_is_not_holding_its_printed_suit() -> None:
    """RULES §2: a player holding only the left bower "in" its printed suit does not
    hold that suit."""
    hand = card_mask(cards("JD 9C AS"))
    assert hand & suit_mask(D, H) == 0
    assert hand & suit_mask(H, H) == card_mask(cards("JD"))


@pytest.mark.parametrize("trump", list(Suit))
def test_every_card_but_bowers_and_joker_keeps_its_printed_suit(trump: Suit) -> None:
    for card in cards_of(pack_mask(32, False)):
        expected = trump if card in (right_bower(trump), left_bower(trump)) else card.suit
        assert effective_suit(card, trump) is expected, str(card)
        assert effective_suit(card, None) is card.suit


def test_suit_masks_partition_the_cards_for_every_trump() -> None:
    """Every card belongs to exactly one suit once trump is fixed; before, the joker
    belongs to none."""
    every_card = (1 << 33) - 1
    for t in range(5):
        union = 0
        for m in SUIT_MASKS[t][:4]:
            assert union & m == 0
            union |= m
        if t == NO_TRUMP:
            assert union == every_card & ~(1 << JOKER)
            assert SUIT_MASKS[t][NO_TRUMP] == 1 << JOKER
        else:
            assert union == every_card
            assert SUIT_MASKS[t][NO_TRUMP] == 0


def order(trump: Suit, led: Suit, text: str) -> list[str]:
    """The given cards from strongest to weakest in a trick."""
    return [
        str(c)
        for c in sorted(cards(text), key=lambda c: -trick_strength(c, led, trump))
    ]


@pytest.mark.parametrize(
    ("trump", "expected"),
    [
        (H, "JK JH JD AH KH QH TH 9H 8H 7H"),
        (D, "JK JD JH AD KD QD TD 9D 8D 7D"),
        (C, "JK JC JS AC KC QC TC 9C 8C 7C"),
        (S, "JK JS JC AS KS QS TS 9S 8S 7S"),
    ],
)
def test_trump_rank_joker_right_left_then_a_to_7(trump: Suit, expected: str) -> None:
    """RULES §2: joker, right bower, left bower, A, K, Q, 10, 9, 8, 7."""
    shuffled = " ".join(reversed(expected.split()))
    assert order(trump, trump, shuffled) == expected.split()
    strengths = [trick_strength(c, trump, trump) for c in cards(expected)]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


@pytest.mark.parametrize(
    ("trump", "led", "expected"),
    [
        (H, C, "AC KC QC JC TC 9C 8C 7C"),
        (H, D, "AD KD QD TD 9D 8D 7D"),
        (H, S, "AS KS QS JS TS 9S 8S 7S"),
        (C, S, "AS KS QS TS 9S 8S 7S"),
    ],
)
def test_other_suits_rank_a_to_7_with_jack_in_place(trump: Suit, led: Suit, expected: str) -> None:
    """RULES §2: every other suit A, K, Q, J, 10, 9, 8, 7 (minus a lost jack)."""
    assert order(trump, led, " ".join(sorted(expected.split()))) == expected.split()


def test_any_trump_beats_any_card_of_the_led_suit() -> None:
    """RULES §8: the highest trump wins; otherwise the highest card of the led suit."""
    assert trick_strength(Card.parse("7H"), C, H) > trick_strength(Card.parse("AC"), C, H)
    assert trick_strength(Card.parse("JD"), D, H) > trick_strength(Card.parse("AD"), D, H)
    assert trick_strength(Card.JK, C, H) > trick_strength(Card.parse("JH"), C, H)


def test_a_card_neither_trump_nor_led_cannot_win() -> None:
    for text in ("AS", "KD", "JC", "9S"):
        assert trick_strength(Card.parse(text), C if text[1] != "C" else D, H) == 0
    assert trick_strength(Card.parse("9C"), C, H) > 0


def test_plain_ranks_before_trump_is_fixed() -> None:
    """RULES §2: before trump is fixed cards have their plain ranks (A high)."""
    table = TRICK_STRENGTH[NO_TRUMP]
    for s in Suit:
        row = [table[s][c] for c in cards_of(pack_mask(32, False) & suit_mask(s, None))]
        assert row == sorted(row) and len(set(row)) == 8  # 7 .. A ascending, jack in place
    assert format_cards(sort_hand(cards("9H JD AS JH KC"))) == "AS JH 9H KC JD"


def test_sort_hand_puts_trump_first_with_left_bower() -> None:
    assert format_cards(sort_hand(cards("9H JD AS JH KC"), H)) == "JH JD 9H KC AS"
    assert format_cards(sort_hand(cards("9C JS JK AD JC"), C)) == "JK JC JS 9C AD"
    assert format_cards(sort_hand(cards("JK 9C AD"))) == "JK 9C AD"
