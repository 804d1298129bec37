"""One test per rule of RULES §3-§8: the deal, bidding, exchange, dummy, partner call,
defending alone and the play of the tricks, in every variant.

Positions are built with ``Deal.from_cards`` so every card is known.  Every refused action
is checked to raise :class:`IllegalActionError` (a ``ValueError``) naming the rule, and to
leave the deal exactly as it was.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from euchre.actions import NUM_ACTIONS, Action
from euchre.cards import Card, Suit, card_mask, cards_of, pack_mask, parse_cards
from euchre.deal import Deal, Event, IllegalActionError, Phase
from euchre.rules import Rules

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES

# -- helpers ---------------------------------------------------------------------------------


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything a refused action must leave unchanged, private slots included."""
    return (tuple(f"{name}={getattr(deal, name)!r}" for name in Deal.__slots__
                  if name not in Deal.CACHE_SLOTS),
            *public_state(deal))


def public_state(deal: Deal) -> tuple[object, ...]:
    """Everything the deal shows: its record, choices, hands, observations, result."""
    return (
        deal.to_record(),
        deal.legal_action_ids(),
        deal.phase,
        deal.to_move,
        tuple(deal.hand_mask(s) for s in range(deal.n)),
        tuple(deal.observation(s) for s in range(deal.n)),
        deal.result,
    )


def refuse(deal: Deal, action: str | int, *fragments: str, seat: int | None = None) -> str:
    """Apply ``action``, expect IllegalActionError naming ``fragments``, and check that
    nothing changed.  Returns the message."""
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action, seat=seat)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    assert snapshot(deal) == before
    return message


def act(deal: Deal, *steps: str) -> None:
    """Apply steps written ``"<seat> <action>"``, checking it is that seat's turn."""
    for step in steps:
        seat, _, action = step.partition(" ")
        assert deal.to_move == int(seat), (step, deal.to_move)
        deal.apply(action, seat=int(seat))


def phase(deal: Deal) -> Phase:
    """The deal's phase (a call, so that mypy does not narrow it between actions)."""
    return deal.phase


def mask(text: str) -> int:
    return card_mask(parse_cards(text))


def hand_text(deal: Deal, seat: int) -> set[str]:
    return {str(c) for c in deal.hand(seat)}


def legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def plays(text: str) -> list[str]:
    return [f"play {c}" for c in text.split()]


# Four-handed, dealer 3 (seat 0 bids first), turn-up 9H; the kitty is 9C TC JC.
FOUR = ["AC KC QC 9D TD", "JH QH 9S TS JS", "AH KH AD KD QD", "JD TH AS KS QS"]


def four(**options: Any) -> Deal:
    return Deal.from_cards(Rules(players=4, **options), 3, hands=FOUR, turnup="9H")


# Three-handed, dealer 2, turn-up TH; the kitty is JC QD 9H.
THREE = ["AH KH QH 9C TC", "JH JD 9S TS JS", "AC KC QC AD KD"]
THREE_DUMMY = "QS KS AS 9D TD"


def three(**options: Any) -> Deal:
    return Deal.from_cards(
        Rules(players=3, **options), 2, hands=THREE, dummy=THREE_DUMMY, turnup="TH"
    )


# Five-handed (28 cards), dealer 4, turn-up TH; the kitty is 8H 9H.
FIVE = ["AH KH QH 8C 9C", "JH JD 8S 9S TS", "AC KC QC JC TC", "AD KD QD TD 9D",
        "AS KS QS JS 8D"]


def five(**options: Any) -> Deal:
    return Deal.from_cards(Rules(players=5, **options), 4, hands=FIVE, turnup="TH")


# Two-handed, dealer 1, turn-up KD.
TWO = ["9C TC JC QC KC", "AC 9D TD JD QD"]


def two(**options: Any) -> Deal:
    return Deal.from_cards(Rules(players=2, **options), 1, hands=TWO, turnup="KD")


def four_trump_hearts(hands: list[str], joker: bool = False) -> Deal:
    """Four-handed, dealer 3: seat 0 orders up 9H and the dealer declines the exchange,
    so hearts are trump, the hands are as given and seat 0 leads."""
    deal = Deal.from_cards(Rules(players=4, joker=joker), 3, hands=hands, turnup="9H")
    act(deal, "0 order", "3 discard 9H")
    assert phase(deal) is Phase.PLAY and deal.trump is H and deal.to_move == 0
    return deal


def variants() -> list[Rules]:
    return [Rules(players=n) for n in (2, 3, 4, 5)]


# -- RULES §3: the deal ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "deck", "joker"),
    [(n, deck, joker) for n in (2, 3, 4, 5)
     for deck, joker in [(24, False), (24, True), (28, False), (32, True)]
     if 5 * (4 if n == 3 else n) + 1 <= deck + joker],
)
def test_deal_five_cards_to_each_hand_a_turnup_and_the_kitty(
    players: int, deck: int, joker: bool
) -> None:
    """RULES §3: five cards to each hand (and the dummy three-handed), then the turn-up;
    the rest of the stock is the kitty."""
    rules = Rules(players=players, deck=deck, joker=joker)
    for seed in range(5):
        deal = Deal.random(rules, dealer=seed % players, seed=seed)
        held = [deal.hand_mask(s) for s in range(players)]
        assert [h.bit_count() for h in held] == [5] * players
        assert deal.dealt == tuple(held)
        if players == 3:
            assert deal.dealt_dummy is not None and deal.dealt_dummy.bit_count() == 5
            held.append(deal.dealt_dummy)
        else:
            assert deal.dealt_dummy is None
        everything = held + [1 << deal.turnup] + [1 << c for c in deal.kitty]
        union = 0
        for m in everything:
            assert union & m == 0
            union |= m
        assert union == pack_mask(deck, joker)
        assert len(deal.kitty) == deck + joker - 5 * rules.hands - 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_starts_at_dealers_left_in_two_rounds_keeping_the_pattern(players: int) -> None:
    """RULES §3: two rounds of 3-then-2 or 2-then-3 from the dealer's left, the dealer
    keeping the pattern; three-handed, the dummy sits at the dealer's right.

    The stock's order is rebuilt here from the seed (shuffle, then the pattern)."""
    rules = Rules(players=players)
    patterns = set()
    for seed in range(12):
        dealer = seed % players
        deal = Deal.random(rules, dealer=dealer, seed=seed)
        rng = random.Random(seed)
        stock = list(cards_of(pack_mask(rules.deck, rules.joker)))
        rng.shuffle(stock)
        first = 3 if rng.random() < 0.5 else 2
        assert deal.pattern == (first, 5 - first)
        patterns.add(deal.pattern)
        if players == 3:
            places: list[int | None] = [(dealer + 1) % 3, (dealer + 2) % 3, None, dealer]
        else:
            places = [(dealer + 1 + k) % players for k in range(players)]
        got: dict[int | None, int] = {p: 0 for p in places}
        pos = 0
        for size in (first, 5 - first):
            for place in places:
                got[place] |= card_mask(stock[pos:pos + size])
                pos += size
        for place, cards in got.items():
            if place is None:
                assert deal.dealt_dummy == cards
            else:
                assert deal.hand_mask(place) == cards
        assert deal.turnup == stock[pos]
        assert list(deal.kitty) == stock[pos + 1:]
    assert patterns == {(3, 2), (2, 3)}


@pytest.mark.parametrize("rules", variants(), ids=lambda r: r.variant)
def test_same_seed_gives_the_same_deal(rules: Rules) -> None:
    a = Deal.random(rules, dealer=1, seed=1234)
    b = Deal.random(rules, dealer=1, seed=1234)
    c = Deal.random(rules, dealer=1, seed=1235)
    assert a.to_record() == b.to_record()
    assert a.pattern == b.pattern
    assert a.to_record() != c.to_record()


def test_kitty_is_never_seen() -> None:
    """RULES §3, §12: the kitty stays face down and is never seen in play."""
    deal = four()
    kitty = {str(c) for c in deal.kitty}
    assert kitty == {"9C", "TC", "JC"}
    act(deal, "0 order", "3 discard QS")
    for seat in range(4):
        assert not kitty & {str(c) for c in deal.observation(seat).hand}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_joker_turnup_dealer_names_trump_and_becomes_maker(players: int) -> None:
    """RULES §3 [decided]: a turned-up joker: the dealer names any suit as trump and is
    the maker; bidding is skipped; the joker counts as the turn-up taken (the dealer
    exchanges)."""
    rules = Rules(players=players, deck=28 if players == 5 else 24, joker=True)
    deal = Deal.random(rules, dealer=1, seed=0)
    record = deal.to_record().to_json()
    if record["turnup"] != "JK":  # move the joker to the turn-up, wherever it was dealt
        places = [*record["hands"], record["dummy"] or [], record["kitty"]]
        holder = next(p for p in places if "JK" in p)
        holder[holder.index("JK")] = record["turnup"]
        record["turnup"] = "JK"
    deal = Deal.from_record(record)
    assert deal.turnup == Card.JK
    assert phase(deal) is Phase.NAME_TRUMP
    assert deal.to_move == 1
    names = ["trump C", "trump D", "trump H", "trump S"]
    alone = [] if players == 2 else [n + " alone" for n in names]
    assert legal(deal) == names + alone
    refuse(deal, "pass", "the joker was turned up", "RULES §3")
    refuse(deal, "order", "RULES §3")
    refuse(deal, "trump S", "not seat 0", seat=0)
    if players == 2:
        refuse(deal, "trump S alone", "RULES §3")
    act(deal, "1 trump S")
    assert (deal.trump, deal.maker, deal.alone) == (S, 1, False)
    assert phase(deal) is Phase.EXCHANGE and deal.to_move == 1
    assert deal.hand_mask(1) >> Card.JK & 1
    assert deal.hand_mask(1).bit_count() == 6
    assert deal.observation(0).turnup_taken is True


def test_joker_turnup_dealer_may_name_alone() -> None:
    """RULES §3, §4: the dealer naming trump over a turned-up joker may go alone; the
    dealer still exchanges (the partner sits out)."""
    hands = ["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH", "QH KH AH 9S TS"]
    deal = Deal.from_cards(Rules(players=4, joker=True), 3, hands=hands, turnup="JK")
    act(deal, "3 trump H alone")
    assert (deal.trump, deal.maker, deal.alone, deal.sitting_out) == (H, 3, True, (1,))
    assert phase(deal) is Phase.EXCHANGE
    act(deal, "3 discard 9S")
    assert hand_text(deal, 3) == {"JK", "QH", "KH", "AH", "TS"}
    assert deal.to_move == 0


def test_joker_turnup_fixed_suit_bids_as_usual() -> None:
    """RULES §3 option ``joker_turnup = "suit:S"``: the joker stands for a fixed suit and
    the bidding goes as usual; an order makes that suit trump and the dealer takes the
    joker."""
    hands = ["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH", "QH KH AH 9S TS"]
    rules = Rules(players=4, joker=True, joker_turnup="suit:D")
    deal = Deal.from_cards(rules, 3, hands=hands, turnup="JK")
    assert phase(deal) is Phase.BID_TURNUP and deal.to_move == 0
    assert deal.turnup_suit is D
    act(deal, "0 pass", "1 order")
    assert (deal.trump, deal.maker) == (D, 1)
    assert phase(deal) is Phase.EXCHANGE and deal.to_move == 3
    assert "discard JK" in legal(deal)
    act(deal, "3 discard 9S")
    assert hand_text(deal, 3) == {"JK", "QH", "KH", "AH", "TS"}


def test_joker_turnup_fixed_suit_turned_down_may_not_be_named() -> None:
    """RULES §3, §4: with ``suit:S`` the joker's suit is the one turned down."""
    hands = ["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH", "QH KH AH 9S TS"]
    rules = Rules(players=4, joker=True, joker_turnup="suit:D")
    deal = Deal.from_cards(rules, 3, hands=hands, turnup="JK")
    act(deal, "0 pass", "1 pass", "2 pass", "3 pass")
    assert phase(deal) is Phase.BID_SUIT
    assert legal(deal) == ["pass", "trump C", "trump H", "trump S",
                           "trump C alone", "trump H alone", "trump S alone"]
    refuse(deal, "trump D", "diamonds was turned down", "RULES §4")


# -- RULES §4: making trump ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("dealer_offset", [0, 1])
def test_bidding_starts_at_dealers_left_and_goes_clockwise_both_rounds(
    players: int, dealer_offset: int
) -> None:
    """RULES §4: round 1 and round 2 each start at the dealer's left and go clockwise."""
    dealer = (players - 1 + dealer_offset) % players
    deal = Deal.random(Rules(players=players), dealer=dealer, seed=3)
    order = [(dealer + 1 + k) % players for k in range(players)]
    for seat in order:
        assert phase(deal) is Phase.BID_TURNUP
        assert deal.to_move == seat
        deal.apply("pass", seat=seat)
    for seat in order[:-1]:
        assert phase(deal) is Phase.BID_SUIT
        assert deal.to_move == seat
        deal.apply("pass", seat=seat)
    assert deal.to_move == dealer


def test_order_up_makes_the_turnup_suit_trump_and_ends_the_bidding() -> None:
    """RULES §4: the first acceptance of the turn-up's suit ends the bidding; its player
    is the maker."""
    deal = four()
    act(deal, "0 pass", "1 order")
    assert (deal.trump, deal.maker, deal.alone) == (H, 1, False)
    assert phase(deal) is Phase.EXCHANGE  # no one else bids
    assert deal.to_move == 3
    assert deal.observation(2).turnup_taken is True


def test_dealers_partner_assists() -> None:
    """RULES §4: the dealer's partner accepting ("assists") makes trump like any order."""
    deal = four()
    act(deal, "0 pass", "1 order")
    assert deal.maker == 1 == (deal.dealer + 2) % 4
    assert phase(deal) is Phase.EXCHANGE and deal.to_move == 3


def test_dealer_takes_it_up() -> None:
    """RULES §4: the dealer accepting the turn-up ("takes it up") is the maker."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 pass", "3 order")
    assert (deal.trump, deal.maker) == (H, 3)
    assert phase(deal) is Phase.EXCHANGE and deal.to_move == 3


def test_round_one_offers_pass_or_order_only() -> None:
    """RULES §4: round 1 is pass or accept the turn-up's suit (alone where allowed)."""
    deal = four()
    assert legal(deal) == ["pass", "order", "order alone"]
    refuse(deal, "trump H", "round 1", "RULES §4")
    refuse(deal, "trump S", "round 1", "RULES §4")
    refuse(deal, "play AC", "round 1", "RULES §4")
    refuse(deal, "discard AC", "RULES §4")
    refuse(deal, "defend alone", "RULES §4")


def test_turned_down_suit_may_not_be_named_in_round_two() -> None:
    """RULES §4: if all pass, the turn-up is turned down and its suit may not be named."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 pass", "3 pass")
    assert phase(deal) is Phase.BID_SUIT
    assert deal.to_move == 0
    assert legal(deal) == ["pass", "trump C", "trump D", "trump S",
                           "trump C alone", "trump D alone", "trump S alone"]
    refuse(deal, "trump H", "hearts was turned down and may not be named", "RULES §4")
    refuse(deal, "trump H alone", "hearts was turned down", "RULES §4")
    refuse(deal, "order", "round 2", "RULES §4")
    assert deal.observation(1).turnup_taken is False


def test_round_two_names_another_suit_and_makes_the_maker() -> None:
    """RULES §4: in round 2 a player names one of the other suits."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 pass", "3 pass", "0 pass", "1 trump S")
    assert (deal.trump, deal.maker, deal.alone) == (S, 1, False)
    assert phase(deal) is Phase.PLAY


@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_pass_in_round_two_throws_the_cards_in(players: int) -> None:
    """RULES §4 default: all pass twice, the deal is void (the next dealer deals)."""
    deal = Deal.random(Rules(players=players), dealer=0, seed=9)
    for _ in range(2 * players):
        deal.apply("pass")
    assert phase(deal) is Phase.OVER
    assert deal.is_over and deal.to_move is None
    assert deal.legal_action_ids() == []
    result = deal.result
    assert result.thrown_in and result.complete
    assert result.outcome == "thrown in"
    assert result.points == (0,) * players
    assert result.to_json() == {
        "trump": None, "maker": None, "alone": False, "lone_defender": None,
        "partner": None, "tricks": [0] * players, "points": [0] * players, "complete": True,
    }
    refuse(deal, "pass", "the deal is over")
    refuse(deal, "trump C", "the deal is over", seat=1)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_stick_the_dealer_forbids_dealer_pass_in_round_two(players: int) -> None:
    """RULES §4 ``stick_the_dealer``: the dealer may not pass in round 2 and must name a
    suit; the others still may pass."""
    rules = Rules(players=players, stick_the_dealer=True)
    deal = Deal.random(rules, dealer=0, seed=4)
    for _ in range(2 * players - 1):
        assert "pass" in legal(deal)
        deal.apply("pass")
    assert phase(deal) is Phase.BID_SUIT and deal.to_move == 0
    assert "pass" not in legal(deal)
    assert len(legal(deal)) == (3 if players == 2 else 6)
    refuse(deal, "pass", "stick the dealer", "must name a suit", "RULES §4")
    suit = next(s for s in "CDHS" if f"trump {s}" in legal(deal))
    deal.apply(f"trump {suit}")
    assert deal.maker == 0 and deal.trump is Suit.parse(suit)


def test_stick_the_dealer_is_the_default_five_handed() -> None:
    """RULES §4: stick the dealer is the default in five-handed."""
    deal = five()
    act(deal, *[f"{s} pass" for s in (0, 1, 2, 3, 4, 0, 1, 2, 3)])
    assert deal.to_move == 4
    refuse(deal, "pass", "stick the dealer", "RULES §4")


def test_five_handed_without_stick_the_dealer_may_throw_in() -> None:
    """RULES §4: ``stick_the_dealer`` is the five-handed default, so it may be turned off."""
    deal = five(stick_the_dealer=False)
    act(deal, *[f"{s} pass" for s in (0, 1, 2, 3, 4, 0, 1, 2, 3, 4)])
    assert phase(deal) is Phase.OVER and deal.result.thrown_in


def test_go_alone_with_the_bid_in_round_one() -> None:
    """RULES §4: the maker may declare alone with the bid itself, in round 1."""
    deal = four()
    act(deal, "0 order alone")
    assert (deal.maker, deal.alone, deal.sitting_out) == (0, True, (2,))
    assert deal.observation(1).alone is True


def test_go_alone_with_the_bid_in_round_two() -> None:
    """RULES §4: the maker may declare alone with the bid itself, in round 2."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 pass", "3 pass", "0 pass", "1 trump C alone")
    assert (deal.trump, deal.maker, deal.alone, deal.sitting_out) == (C, 1, True, (3,))


def test_alone_only_with_the_bid_itself() -> None:
    """RULES §4: alone is declared with the bid; no later action declares it."""
    deal = four()
    act(deal, "0 order")
    assert deal.alone is False
    refuse(deal, "order alone", "RULES §5")
    act(deal, "3 discard QS")
    refuse(deal, "order alone", "RULES §8")
    assert deal.alone is False and deal.sitting_out == ()


def test_four_handed_alone_partner_lays_the_hand_down() -> None:
    """RULES §4: four-handed, the lone maker's partner lays the hand down and does not play."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 order alone", "3 discard QS")
    assert deal.sitting_out == (0,)
    seen = set()
    while not deal.is_over:
        assert deal.to_move != 0
        seen.add(deal.to_move)
        deal.apply(deal.legal_action_ids()[0])
    assert seen == {1, 2, 3}
    assert all(len(t.cards) == 3 for t in deal.tricks)
    assert deal.hand_mask(0) == mask(FOUR[0])


def test_three_handed_alone_maker_does_not_take_the_dummy() -> None:
    """RULES §4: three-handed, alone means the maker does not use the dummy."""
    deal = three(defend_alone=False)
    act(deal, "0 order alone", "2 discard KD")
    assert phase(deal) is Phase.PLAY
    assert deal.sitting_out == ()
    assert deal.hand_mask(0) == mask(THREE[0])
    assert deal.observation(0).dummy is None


def test_five_handed_alone_calls_no_partner() -> None:
    """RULES §4: five-handed, alone means the maker calls no partner."""
    deal = five()
    act(deal, "0 order alone", "4 discard 8D")
    assert phase(deal) is Phase.PLAY
    assert (deal.alone, deal.called, deal.partner, deal.sitting_out) == (True, None, None, ())
    assert deal.to_move == 0


def test_two_handed_has_no_going_alone() -> None:
    """RULES §4: two-handed, there is no going alone, in either round."""
    deal = two()
    assert legal(deal) == ["pass", "order"]
    refuse(deal, "order alone", "no going alone two-handed", "RULES §4")
    act(deal, "0 pass", "1 pass")
    assert legal(deal) == ["pass", "trump C", "trump H", "trump S"]
    refuse(deal, "trump S alone", "no going alone two-handed", "RULES §4")


# -- RULES §5: the dealer's exchange ---------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_dealer_may_exchange_the_turnup_for_a_card(players: int) -> None:
    """RULES §5: when the turn-up's suit becomes trump in round 1 the dealer holds six
    cards and discards one face down."""
    deal = {2: two, 3: three, 4: four, 5: five}[players]()
    dealer = deal.dealer
    before = deal.hand_mask(dealer)
    deal.apply("order")
    assert phase(deal) is Phase.EXCHANGE and deal.to_move == dealer
    assert deal.hand_mask(dealer) == before | 1 << deal.turnup
    expected = sorted(f"discard {c}" for c in cards_of(before | 1 << deal.turnup))
    assert sorted(legal(deal)) == expected
    victim = next(cards_of(before))
    deal.apply(f"discard {victim}")
    assert deal.hand_mask(dealer) == (before | 1 << deal.turnup) & ~(1 << victim)
    assert deal.observation(dealer).discards == (victim,)
    assert phase(deal) is not Phase.EXCHANGE


def test_dealer_declines_the_exchange_by_discarding_the_turnup() -> None:
    """RULES §5: discarding the turn-up itself is declining the exchange."""
    deal = four()
    act(deal, "0 order", "3 discard 9H")
    assert deal.hand_mask(3) == mask(FOUR[3])
    assert deal.observation(3).discards == (Card.parse("9H"),)


def test_dealer_must_take_up_keeps_the_turnup() -> None:
    """RULES §5 option ``dealer_must_take_up``: the turn-up must be kept."""
    deal = four(dealer_must_take_up=True)
    act(deal, "0 order")
    assert "discard 9H" not in legal(deal)
    assert len(legal(deal)) == 5
    refuse(deal, "discard 9H", "dealer_must_take_up", "RULES §5")
    act(deal, "3 discard QS")
    assert deal.hand_mask(3) >> Card.parse("9H") & 1


def test_dealer_must_discard_a_card_held() -> None:
    """RULES §5: the dealer discards a card of the hand."""
    deal = four()
    act(deal, "0 order")
    refuse(deal, "discard AC", "does not hold AC", "RULES §5")
    refuse(deal, "discard QS", "not seat 0", seat=0)
    refuse(deal, "play QS", "discards one card face down", "RULES §5")
    refuse(deal, "pass", "RULES §5")


def test_dealer_partner_alone_dealer_sits_out_no_exchange() -> None:
    """RULES §5 [decided]: if the dealer's partner went alone, the dealer sits out and
    makes no exchange."""
    deal = four()
    act(deal, "0 pass", "1 order alone")
    assert deal.sitting_out == (3,)
    assert phase(deal) is Phase.PLAY
    assert deal.to_move == 0
    assert deal.hand_mask(3) == mask(FOUR[3])
    assert all(d == () for d in (deal.observation(s).discards for s in range(4)))


def test_round_two_has_no_exchange() -> None:
    """RULES §5: in round 2 there is no exchange."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 pass", "3 pass", "0 pass", "1 pass", "2 pass", "3 trump D")
    assert phase(deal) is Phase.PLAY
    assert deal.hand_mask(3) == mask(FOUR[3])
    assert deal.to_move == 0


def test_dealers_discard_is_face_down() -> None:
    """RULES §5, §12: the discard is face down: only the dealer sees it."""
    deal = four()
    act(deal, "0 order", "3 discard QS")
    for seat in range(4):
        obs = deal.observation(seat)
        shown = obs.events[-1]
        assert shown.seat == 3
        if seat == 3:
            assert shown.action == Action.parse("discard QS")
            assert obs.discards == (Card.parse("QS"),)
        else:
            assert shown.action is None
            assert obs.discards == ()
    assert deal.events[-1] == Event(3, Action.parse("discard QS"))


# -- RULES §6: what follows the bidding --------------------------------------------------------


def test_three_handed_maker_takes_the_dummy_and_discards_five_one_at_a_time() -> None:
    """RULES §6.2: three-handed, maker not alone: the maker takes up the dummy, holds ten
    cards and discards five, one at a time."""
    deal = three()
    act(deal, "0 pass", "1 pass", "2 pass", "0 trump S")
    assert phase(deal) is Phase.DUMMY and deal.to_move == 0
    assert deal.hand_mask(0) == mask(THREE[0]) | mask(THREE_DUMMY)
    assert deal.observation(0).dummy is not None
    discards = ["9C", "TC", "9D", "TD", "QH"]
    for k, card in enumerate(discards):
        assert phase(deal) is Phase.DUMMY
        assert deal.hand_mask(0).bit_count() == 10 - k
        assert sorted(legal(deal)) == sorted(f"discard {c}" for c in cards_of(deal.hand_mask(0)))
        act(deal, f"0 discard {card}")
    assert hand_text(deal, 0) == {"AH", "KH", "QS", "KS", "AS"}
    assert deal.observation(0).discards == tuple(Card.parse(c) for c in discards)
    assert phase(deal) is Phase.DEFEND


def test_three_handed_dummy_discard_must_be_held() -> None:
    """RULES §6.2: the maker discards from hand and dummy only."""
    deal = three()
    act(deal, "0 pass", "1 pass", "2 pass", "0 trump S")
    refuse(deal, "discard JH", "does not hold JH with the dummy", "RULES §6")
    refuse(deal, "play AS", "discards five cards", "RULES §6")


def test_exchange_comes_before_the_dummy() -> None:
    """RULES §6: first the dealer's exchange, then the maker takes up the dummy."""
    deal = three()
    act(deal, "0 order")
    assert phase(deal) is Phase.EXCHANGE and deal.to_move == 2
    act(deal, "2 discard KD")
    assert phase(deal) is Phase.DUMMY and deal.to_move == 0
    assert deal.hand_mask(0).bit_count() == 10


def test_three_handed_dealer_maker_exchanges_then_takes_the_dummy() -> None:
    """RULES §5, §6: a dealer who takes it up exchanges, then takes up the dummy."""
    deal = three()
    act(deal, "0 pass", "1 pass", "2 order", "2 discard KD")
    assert phase(deal) is Phase.DUMMY and deal.to_move == 2
    assert deal.hand_mask(2) == mask("AC KC QC AD TH") | mask(THREE_DUMMY)


def test_five_handed_maker_calls_a_card_not_in_own_hand() -> None:
    """RULES §6.3: five-handed, maker not alone: the maker calls a partner by naming a
    card not in their own hand."""
    deal = five()
    act(deal, "0 order", "4 discard 8D")
    assert phase(deal) is Phase.CALL_PARTNER and deal.to_move == 0
    expected = pack_mask(28, False) & ~deal.hand_mask(0)
    assert sorted(legal(deal)) == sorted(f"call {c}" for c in cards_of(expected))
    assert len(legal(deal)) == 23
    refuse(deal, "call AH", "not in their own hand, not AH", "RULES §6")
    refuse(deal, "call 7C", "7C is not in this pack", "RULES §1")
    refuse(deal, "pass", "calls a partner", "RULES §6")


def test_five_handed_partner_is_the_holder_of_the_called_card_and_is_secret() -> None:
    """RULES §6.3, §12: the called card's holder is the partner and says nothing; the
    others learn it only when the card is played."""
    deal = five()
    act(deal, "0 order", "4 discard 8D", "0 call JH")
    assert (deal.called, deal.partner, deal.alone) == (Card.parse("JH"), 1, False)
    assert phase(deal) is Phase.PLAY and deal.to_move == 0
    for seat in range(5):
        obs = deal.observation(seat)
        assert obs.called == Card.parse("JH")
        assert obs.partner == (1 if seat == 1 else None)
    act(deal, "0 play AH", "1 play JH")
    for seat in range(5):
        assert deal.observation(seat).partner == 1


def test_five_handed_called_card_in_kitty_forces_alone() -> None:
    """RULES §6.3: a called card in the kitty: the maker plays alone without knowing it."""
    deal = five()
    act(deal, "0 order", "4 discard 8D", "0 call 9H")
    assert Card.parse("9H") in deal.kitty
    assert (deal.called, deal.partner, deal.alone) == (Card.parse("9H"), None, True)
    assert phase(deal) is Phase.PLAY
    for seat in range(5):
        obs = deal.observation(seat)
        assert obs.alone is False  # nobody is told
        assert obs.partner is None


def test_five_handed_called_dealers_discard_forces_alone() -> None:
    """RULES §6.3: the called card was the dealer's discard, which the maker could not
    know: the maker plays alone."""
    deal = five()
    act(deal, "0 order", "4 discard AS", "0 call AS")
    assert (deal.partner, deal.alone) == (None, True)
    assert deal.result.alone is True


def test_the_maker_may_not_call_a_card_it_discarded() -> None:
    """RULES §6.3: a dealer-maker may not name its own discard, a card it knows to be
    out of play; the refusal names the rule."""
    deal = five()
    act(deal, "0 pass", "1 pass", "2 pass", "3 pass", "4 order", "4 discard 8D")
    assert phase(deal) is Phase.CALL_PARTNER and deal.to_move == 4
    expected = pack_mask(28, False) & ~deal.hand_mask(4) & ~mask("8D")
    assert sorted(legal(deal)) == sorted(f"call {c}" for c in cards_of(expected))
    assert not deal.is_legal("call 8D")
    refuse(deal, "call 8D", "may not call 8D, its own discard", "out of play",
           "RULES §6.3")
    act(deal, "4 call AH")
    assert (deal.partner, deal.alone) == (0, False)


def test_the_dealer_naming_a_turned_up_joker_may_not_call_its_discard() -> None:
    """RULES §3, §6.3: the joker turned up, the dealer names trump and exchanges; its
    discard is out of play and may not be called."""
    hands = [h.replace("8D", "TH") for h in FIVE]
    deal = Deal.from_cards(Rules(players=5, joker=True), 4, hands=hands, turnup="JK")
    act(deal, "4 trump S", "4 discard TH")
    refuse(deal, "call TH", "its own discard", "RULES §6.3")


def test_the_maker_may_not_call_the_turned_down_card() -> None:
    """RULES §6.3: in round 2 the turn-up turned down in round 1 is out of play, and the
    maker, who saw it turned down, may not name it; the refusal names the rule."""
    deal = five()
    act(deal, *[f"{s} pass" for s in (0, 1, 2, 3, 4, 0)], "1 trump S")
    assert phase(deal) is Phase.CALL_PARTNER and deal.to_move == 1
    assert "call TH" not in legal(deal)
    refuse(deal, "call TH", "may not call TH, the turn-up turned down in round 1",
           "RULES §6.3")
    act(deal, "1 call 9H")  # a card in the kitty, which the maker could not know
    assert (deal.maker, deal.partner, deal.alone) == (1, None, True)


def test_five_handed_dealer_can_be_the_partner() -> None:
    """RULES §6.3: the partner is whoever holds the called card, the turn-up included."""
    deal = five()
    act(deal, "0 order", "4 discard 8D", "0 call TH")
    assert (deal.partner, deal.alone) == (4, False)


def test_defending_alone_comes_after_the_dummy_and_before_play() -> None:
    """RULES §6.4: each defender in turn from the dealer's left may declare alone."""
    deal = three()
    act(deal, "0 pass", "1 order", "2 discard KD")
    for card in ["9S", "TS", "JS", "9D", "TD"]:
        act(deal, f"1 discard {card}")
    assert phase(deal) is Phase.DEFEND
    assert deal.to_move == 0  # the first defender from the dealer's left
    assert legal(deal) == ["pass", "defend alone"]
    refuse(deal, "play AH", "defend alone or pass", "RULES §7")
    act(deal, "0 pass")
    assert phase(deal) is Phase.DEFEND and deal.to_move == 2
    act(deal, "2 pass")
    assert phase(deal) is Phase.PLAY
    assert deal.lone_defender is None


def test_at_most_one_defender_alone() -> None:
    """RULES §6.4: at most one defender alone per deal: the first to declare ends it."""
    deal = four(defend_alone=True)
    act(deal, "0 order", "3 discard QS")
    assert phase(deal) is Phase.DEFEND and deal.to_move == 1
    act(deal, "1 defend alone")
    assert phase(deal) is Phase.PLAY
    assert (deal.lone_defender, deal.sitting_out) == (1, (3,))


def test_only_defenders_are_asked_to_defend_alone() -> None:
    """RULES §6.4: the maker's side is not asked."""
    deal = four(defend_alone=True)
    act(deal, "0 pass", "1 order", "3 discard QS")
    asked = []
    while phase(deal) is Phase.DEFEND:
        assert deal.to_move is not None
        asked.append(deal.to_move)
        deal.apply("pass")
    assert asked == [0, 2]


# -- RULES §7: defending alone ----------------------------------------------------------------


def test_three_handed_defend_alone_on_by_default_other_defender_sits_out() -> None:
    """RULES §7: three-handed, on by default; the other defender sits out."""
    deal = three()
    act(deal, "0 order alone", "2 discard KD")
    assert phase(deal) is Phase.DEFEND and deal.to_move == 1
    act(deal, "1 pass", "2 defend alone")
    assert (deal.lone_defender, deal.sitting_out) == (2, (1,))
    assert phase(deal) is Phase.PLAY


def test_three_handed_maker_and_defender_both_alone() -> None:
    """RULES §7: the maker and a defender may both be alone in the same deal."""
    deal = three()
    act(deal, "0 order alone", "2 discard KD", "1 defend alone")
    assert (deal.alone, deal.lone_defender, deal.sitting_out) == (True, 1, (2,))
    assert deal.result.to_json()["lone_defender"] == 1


def test_three_handed_defend_alone_can_be_turned_off() -> None:
    """RULES §7: on by default three-handed, so an option."""
    deal = three(defend_alone=False)
    act(deal, "0 order alone", "2 discard KD")
    assert phase(deal) is Phase.PLAY


def test_four_handed_defend_alone_off_by_default() -> None:
    """RULES §7: four-handed, off by default."""
    deal = four()
    act(deal, "0 order", "3 discard QS")
    assert phase(deal) is Phase.PLAY
    refuse(deal, "defend alone", "plays a card", "RULES §8")


def test_four_handed_defend_alone_option_partner_sits_out() -> None:
    """RULES §6.4, §7 option ``defend_alone``: the lone defender's partner sits out."""
    deal = four(defend_alone=True)
    act(deal, "0 order alone", "3 discard QS", "1 pass", "3 defend alone")
    assert (deal.lone_defender, deal.sitting_out) == (3, (1, 2))
    assert deal.to_move == 0
    while not deal.is_over:
        assert deal.to_move in (0, 3)
        deal.apply(deal.legal_action_ids()[0])
    assert all(len(t.cards) == 2 for t in deal.tricks)


@pytest.mark.parametrize("players", [2, 5])
def test_no_defending_alone_two_or_five_handed(players: int) -> None:
    """RULES §7: not in two- or five-handed: play follows the bidding directly."""
    deal = two() if players == 2 else five()
    deal.apply("order alone" if players == 5 else "order")
    deal.apply(legal(deal)[0])
    assert phase(deal) is Phase.PLAY
    refuse(deal, "defend alone", "RULES §8")


# -- RULES §8: play of the tricks ---------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_two_handed_non_dealer_leads(dealer: int) -> None:
    """RULES §8: two-handed, the non-dealer leads to the first trick."""
    deal = Deal.from_cards(Rules(players=2), dealer, hands=TWO, turnup="KD")
    deal.apply("order")
    deal.apply(legal(deal)[0])
    assert phase(deal) is Phase.PLAY and deal.to_move == 1 - dealer


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("dealer", [0, 2])
def test_dealers_left_leads_four_and_five_handed(players: int, dealer: int) -> None:
    """RULES §8: four- and five-handed, the player at the dealer's left leads."""
    deal = Deal.random(Rules(players=players), dealer=dealer, seed=2)
    for _ in range(players + 1):
        deal.apply("pass")
    deal.apply(next(a for a in legal(deal) if a.startswith("trump")))
    if phase(deal) is Phase.CALL_PARTNER:
        deal.apply(legal(deal)[0])
    assert phase(deal) is Phase.PLAY
    assert deal.to_move == (dealer + 1) % players


def test_four_handed_dealer_left_sits_out_opposite_leads() -> None:
    """RULES §8: when the player at the dealer's left sits out, the player opposite the
    dealer leads."""
    deal = four()
    act(deal, "0 pass", "1 pass", "2 order alone", "3 discard QS")
    assert deal.sitting_out == (0,)
    assert deal.to_move == 1


def test_four_handed_lone_defender_first_active_at_dealers_left_leads() -> None:
    """RULES §8: the first active player at the dealer's left leads."""
    deal = four(defend_alone=True)
    act(deal, "0 pass", "1 order", "3 discard QS", "0 pass", "2 defend alone")
    assert deal.sitting_out == (0,)
    assert deal.to_move == 1


def test_three_handed_dealers_left_leads_when_nobody_alone() -> None:
    """RULES §8: three-handed, the player at the dealer's left leads."""
    deal = three()
    act(deal, "0 pass", "1 order", "2 discard KD")
    for card in ["9S", "TS", "JS", "9D", "TD"]:
        act(deal, f"1 discard {card}")
    act(deal, "0 pass", "2 pass")
    assert deal.to_move == 0


def test_three_handed_lead_left_of_lone_maker() -> None:
    """RULES §8: three-handed, when the maker is alone, the player at the maker's left
    leads (here the dealer, not the dealer's left)."""
    deal = three()
    act(deal, "0 pass", "1 order alone", "2 discard KD", "0 pass", "2 pass")
    assert deal.to_move == 2


def test_three_handed_lead_left_of_lone_defender() -> None:
    """RULES §8: three-handed, when a defender is alone, the first active player at the
    lone defender's left leads."""
    deal = three()
    act(deal, "0 pass", "1 order", "2 discard KD")
    for card in ["9S", "TS", "JS", "9D", "TD"]:
        act(deal, f"1 discard {card}")
    act(deal, "0 defend alone")
    assert deal.sitting_out == (2,)
    assert deal.to_move == 1  # the maker, at the lone defender's left; not seat 0


def test_three_handed_lead_left_of_lone_maker_when_both_alone() -> None:
    """RULES §8: three-handed, maker and defender both alone: the first active player at
    the maker's left leads."""
    deal = three()
    act(deal, "0 order alone", "2 discard KD", "1 pass", "2 defend alone")
    assert deal.sitting_out == (1,)
    assert deal.to_move == 2  # seat 1 sits out; the lone defender's left would be 0


# The four-handed deal played through, trump hearts, dealer 3 keeps 9H and discards QS:
#   T1 0:AC 1:9S 2:QD 3:9H   -> 3 (a trump beats the led ace)
#   T2 3:JD 0:KC 1:JH 2:KH   -> 1 (left bower led is a trump lead; right beats left)
#   T3 1:TS 2:AD 3:AS 0:TD   -> 3 (no trump: the highest spade)
#   T4 3:KS 0:QC 1:JS 2:KD   -> 3 (an off-suit king cannot win)
#   T5 3:TH 0:9D 1:QH 2:AH   -> 2
TRICKS = [
    ["0 play AC", "1 play 9S", "2 play QD", "3 play 9H"],
    ["3 play JD", "0 play KC", "1 play JH", "2 play KH"],
    ["1 play TS", "2 play AD", "3 play AS", "0 play TD"],
    ["3 play KS", "0 play QC", "1 play JS", "2 play KD"],
    ["3 play TH", "0 play 9D", "1 play QH", "2 play AH"],
]


def played_four(tricks: int, extra: int = 0) -> Deal:
    deal = four()
    act(deal, "0 order", "3 discard QS")
    for trick in TRICKS[:tricks]:
        act(deal, *trick)
    if extra:
        act(deal, *TRICKS[tricks][:extra])
    return deal


def test_player_void_in_the_led_suit_may_play_any_card() -> None:
    """RULES §8: a player unable to follow may play any card."""
    deal = played_four(0, extra=1)
    assert deal.to_move == 1
    assert sorted(legal(deal)) == sorted(plays(FOUR[1]))


def test_must_follow_the_led_suit() -> None:
    """RULES §8: each player must follow the led suit if able."""
    deal = played_four(2, extra=2)
    assert deal.to_move == 3
    assert sorted(legal(deal)) == ["play AS", "play KS"]
    refuse(deal, "play TH", "seat 3 must follow spades (holds AS KS)", "RULES §2, §8")


def test_trump_beats_the_led_suit() -> None:
    """RULES §8: the highest trump wins the trick."""
    deal = played_four(1)
    assert deal.tricks[0].winner == 3
    assert deal.tricks[0].leader == 0
    assert deal.to_move == 3


def test_left_bower_led_is_a_trump_lead() -> None:
    """RULES §2: the left bower belongs to trump for leading: a player holding diamonds
    but no trump may play anything; a player holding trump must follow trump."""
    deal = played_four(1, extra=1)
    assert deal.to_move == 0
    assert sorted(legal(deal)) == sorted(plays("KC QC 9D TD"))
    act(deal, "0 play KC")
    refuse(deal, "play TS", "seat 1 must follow hearts (holds JH QH)")
    assert sorted(legal(deal)) == ["play JH", "play QH"]


def test_right_bower_beats_left_bower() -> None:
    """RULES §2: right bower above the left bower."""
    deal = played_four(2)
    assert deal.tricks[1].winner == 1
    assert deal.tricks[1].cards[0] == (3, Card.parse("JD"))


def test_highest_of_the_led_suit_wins_without_trump() -> None:
    """RULES §8: if no trump was played, the highest card of the led suit wins."""
    deal = played_four(4)
    assert [t.winner for t in deal.tricks[2:4]] == [3, 3]


def test_winner_of_a_trick_leads_the_next() -> None:
    """RULES §8: the winner of a trick leads to the next."""
    deal = played_four(5)
    tricks = deal.tricks
    assert [t.winner for t in tricks] == [3, 1, 3, 3, 2]
    assert [t.leader for t in tricks] == [0, 3, 1, 3, 3]
    for previous, current in itertools.pairwise(tricks):
        assert current.leader == previous.winner


def test_five_tricks_in_every_deal_then_the_deal_is_over() -> None:
    """RULES §8: five tricks in every deal."""
    deal = played_four(5)
    assert len(deal.tricks) == 5
    assert phase(deal) is Phase.OVER and deal.to_move is None
    assert deal.tricks_won == (0, 1, 1, 3)
    assert deal.legal_action_ids() == []
    assert deal.result.complete and deal.result.points == (0, 2, 0, 2)
    refuse(deal, "play AH", "the deal is over")
    for action_id in range(NUM_ACTIONS):
        refuse(deal, action_id, "the deal is over")


def test_playing_a_card_not_held_is_refused() -> None:
    """RULES §8: a player plays a card of their own hand."""
    deal = played_four(0)
    refuse(deal, "play AH", "seat 0 does not hold AH", "RULES §8")
    refuse(deal, "play JK", "seat 0 does not hold JK", "RULES §8")


def test_playing_out_of_turn_is_refused() -> None:
    """RULES §8: play moves to the left; only the seat to move may act."""
    deal = played_four(0)
    refuse(deal, "play JH", "it is seat 0's turn, not seat 1's", seat=1)


def test_left_bower_follows_trump() -> None:
    """RULES §2, §8: the left bower is a trump: holding it as the only trump, a player
    must play it when trump is led."""
    deal = four_trump_hearts(
        ["AH KC QC JC TC", "JD 9D 9C AC 9S", "KH QH TH TS JS", "AD KD QD TD AS"]
    )
    act(deal, "0 play AH")
    assert legal(deal) == ["play JD"]
    refuse(deal, "play 9D", "seat 1 must follow hearts (holds JD; JD, the left bower, is trump)")


def test_left_bower_does_not_follow_its_printed_suit() -> None:
    """RULES §2: the left bower is not a card of its printed suit: with a diamond led the
    holder of JD and 9D must play 9D."""
    deal = four_trump_hearts(
        ["AD KC QC JC TC", "JD 9D 9C AC 9S", "KH QH TH TS JS", "AH KD QD TD AS"]
    )
    act(deal, "0 play AD")
    assert legal(deal) == ["play 9D"]
    refuse(deal, "play JD", "must follow diamonds (holds 9D; JD is the left bower: a trump, "
           "not diamonds)")


def test_holding_only_the_left_bower_is_void_in_its_printed_suit() -> None:
    """RULES §2: a player holding only the left bower "in" its printed suit does not hold
    that suit, so may play any card."""
    deal = four_trump_hearts(
        ["AD KC QC JC TC", "JD 9C AC 9S KS", "KH QH TH TS JS", "AH KD QD TD 9D"]
    )
    act(deal, "0 play AD")
    assert sorted(legal(deal)) == sorted(plays("JD 9C AC 9S KS"))
    act(deal, "1 play JD", "2 play KH", "3 play 9D")
    assert deal.tricks[0].winner == 1  # the left bower trumped the ace


def test_joker_follows_trump_and_is_the_highest_trump() -> None:
    """RULES §2: the joker belongs to trump and is its highest card."""
    deal = four_trump_hearts(
        ["AH KC QC JC TC", "JK 9D 9C AC 9S", "JH QH TH TS JS", "AD KD QD TD AS"], joker=True
    )
    act(deal, "0 play AH")
    assert legal(deal) == ["play JK"]
    refuse(deal, "play 9D", "must follow hearts")
    act(deal, "1 play JK", "2 play JH", "3 play AS")
    assert deal.tricks[0].winner == 1


def test_joker_led_is_a_trump_lead() -> None:
    """RULES §2: leading the joker leads trump: the left bower must follow it."""
    deal = four_trump_hearts(
        ["JK KC QC JC TC", "JD 9D 9C AC 9S", "JH QH TH TS JS", "AD KD QD TD AS"], joker=True
    )
    act(deal, "0 play JK")
    assert legal(deal) == ["play JD"]
    act(deal, "1 play JD")
    assert sorted(legal(deal)) == ["play JH", "play QH", "play TH"]
    act(deal, "2 play JH")
    assert sorted(legal(deal)) == sorted(plays("AD KD QD TD AS"))
    act(deal, "3 play AS")
    assert deal.tricks[0].winner == 0


def test_wrong_phase_actions_name_the_phase_rule() -> None:
    deal = four()
    refuse(deal, "play AC", "seat 0 bids on the turn-up in round 1 (RULES §4)")
    refuse(deal, "call AH", "RULES §4")


def test_every_refused_id_leaves_the_deal_unchanged() -> None:
    """RULES §3-§8: at every step of a played deal, only the offered ids are accepted."""
    deal = four()
    script = ["0 order", "3 discard QS"] + [s for t in TRICKS for s in t]
    for step in script:
        offered = set(deal.legal_action_ids())
        for action_id in range(NUM_ACTIONS):
            if action_id not in offered:
                refuse(deal, action_id)
        act(deal, step)
    assert deal.is_over


# -- records ------------------------------------------------------------------------------------


def test_record_round_trip_and_repr_paste_back() -> None:
    deal = played_four(3, extra=2)
    record = deal.to_record().to_json()
    assert record["hands"][0] == ["QC", "KC", "AC", "9D", "TD"]
    assert record["turnup"] == "9H"
    assert record["kitty"] == ["9C", "TC", "JC"]
    assert record["dummy"] is None
    assert record["actions"][:3] == ["order", "discard QS", "play AC"]
    again = Deal.from_record(record)
    assert public_state(again) == public_state(deal)
    pasted = eval(repr(deal), {"Deal": Deal})
    assert isinstance(pasted, Deal) and public_state(pasted) == public_state(deal)


def test_from_record_names_the_illegal_action_and_its_index() -> None:
    record = four().to_record().to_json()
    record["actions"] = ["pass", "order", "discard AC"]
    with pytest.raises(IllegalActionError, match="action 3 'discard AC'") as info:
        Deal.from_record(record)
    assert "does not hold AC" in str(info.value)


@pytest.mark.parametrize(
    ("hands", "dummy", "turnup", "message"),
    [
        (["AC KC QC 9D TD", "AC QH 9S TS JS", FOUR[2], FOUR[3]], None, "9H", "AC is dealt twice"),
        (["7C KC QC 9D TD", FOUR[1], FOUR[2], FOUR[3]], None, "9H", "7C is not in the pack"),
        (["AC KC QC 9D", FOUR[1], FOUR[2], FOUR[3]], None, "9H", "seat 0 holds 4 cards"),
        (FOUR[:3], None, "9H", "4 players need 4 hands, not 3"),
        (FOUR, "9C TC JC 9H JK", "AH", "only three-handed euchre has a dummy"),
        (FOUR, None, "JK", "JK is not in the pack"),
        (FOUR, None, "QS", "QS is dealt twice"),
    ],
)
def test_from_cards_refuses_what_is_not_one_pack(
    hands: list[str], dummy: str | None, turnup: str, message: str
) -> None:
    """RULES §1, §3: a deal is exactly one pack of these rules."""
    with pytest.raises(ValueError, match=message):
        Deal.from_cards(Rules(players=4), 3, hands=hands, dummy=dummy, turnup=turnup)


def test_from_cards_three_handed_needs_the_dummy() -> None:
    with pytest.raises(ValueError, match="needs a dummy"):
        Deal.from_cards(Rules(players=3), 2, hands=THREE, turnup="TH")


def test_from_cards_kitty_must_be_the_rest() -> None:
    with pytest.raises(ValueError, match="the kitty must be the rest of the pack"):
        Deal.from_cards(Rules(players=4), 3, hands=FOUR, turnup="9H", kitty="9C TC")
    deal = Deal.from_cards(Rules(players=4), 3, hands=FOUR, turnup="9H", kitty="JC 9C TC")
    assert [str(Card(c)) for c in deal.kitty] == ["JC", "9C", "TC"]
