"""What each action did (:class:`Effect`), the check that refuses an action without
applying it (:meth:`Deal.check`), and what everyone at the table sees
(:meth:`Deal.public_observation`): RULES §4-§9, §12.

The rule tests build positions with ``Deal.from_cards``; the property tests play random
deals of every variant and option (``tests/random_states.py``) and hold the records
against the observations before and after each action.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_states import random_deal, random_rules

from euchre.actions import NUM_ACTIONS, Action, ActionKind, InvalidActionError
from euchre.cards import Card, Suit
from euchre.deal import (
    Deal,
    DealResult,
    Effect,
    Event,
    IllegalActionError,
    Observation,
    Phase,
    PublicObservation,
    Trick,
    WonBy,
)
from euchre.rules import Rules

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Four-handed, dealer 3 (seat 0 bids first), turn-up 9H; the kitty is 9C TC JC.
FOUR = ["AC KC QC 9D TD", "JH QH 9S TS JS", "AH KH AD KD QD", "JD TH AS KS QS"]
# Four-handed, dealer 3, turn-up AC: seat 0 orders clubs; West (3), void in hearts, wins
# the first trick with JS, the left bower.
LEFT = ["TH AD KD QD 9C", "JS 9S TS QS KS", "9H QC KC 9D TD", "KH AH QH JD TC"]
# Three-handed, dealer 2, turn-up TH; the kitty is JC QD 9H.
THREE = ["AH KH QH 9C TC", "JH JD 9S TS JS", "AC KC QC AD KD"]
THREE_DUMMY = "QS KS AS 9D TD"
# Five-handed (28 cards), dealer 4, turn-up TH; the kitty is 8H 9H.
FIVE = ["AH KH QH 8C 9C", "JH JD 8S 9S TS", "AC KC QC JC TC", "AD KD QD TD 9D", "AS KS QS JS 8D"]


def four(**options: Any) -> Deal:
    return Deal.from_cards(Rules(players=4, **options), 3, hands=FOUR, turnup="9H")


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything an action refused or only checked must leave unchanged."""
    return (
        tuple(f"{name}={getattr(deal, name)!r}" for name in Deal.__slots__
              if name not in Deal.CACHE_SLOTS),
        deal.to_record(),
        deal.effects,
        deal.public_observation(),
        tuple(deal.observation(s) for s in range(deal.n)),
    )


# -- rule tests ------------------------------------------------------------------------------


def test_a_pass_records_only_the_action_and_its_seat() -> None:
    """RULES §4: a pass decides nothing."""
    deal = four()
    effect = deal.apply("pass")
    assert effect == Effect(0, Action.parse("pass"), Phase.BID_TURNUP)
    assert deal.effects == (effect,)


def test_ordering_up_records_trump_and_the_maker() -> None:
    """RULES §4: ordering up makes the turn-up's suit trump and the bidder the maker."""
    deal = four()
    deal.apply("pass")
    effect = deal.apply("order", seat=1)
    assert (effect.seat, effect.trump, effect.maker, effect.alone) == (1, Suit.HEARTS, 1, False)
    assert effect.sitting_out == () and effect.trick is None and effect.result is None


def test_going_alone_records_the_partner_sitting_out() -> None:
    """RULES §4: a maker alone makes the partner lay the hand down."""
    deal = four()
    effect = deal.apply("order alone")
    assert (effect.trump, effect.maker, effect.alone, effect.sitting_out) == (
        Suit.HEARTS,
        0,
        True,
        (2,),
    )


def test_defending_alone_records_the_seat_sitting_out() -> None:
    """RULES §7: a defender alone makes the other defender sit out."""
    deal = four(defend_alone=True)
    deal.apply("order alone")
    deal.apply("discard JD", seat=3)
    effect = deal.apply("defend alone", seat=1)
    assert effect.phase is Phase.DEFEND and effect.sitting_out == (3,)


def test_the_dealers_discard_is_recorded_with_its_card() -> None:
    """RULES §5, §12: the record is the engine's; a discard's card is in it, and the
    observations hide it from the other seats."""
    deal = four()
    deal.apply("order")
    effect = deal.apply("discard JD")
    assert effect.action == Action.parse("discard JD") and effect.phase is Phase.EXCHANGE
    assert deal.observation(0).events[-1] == Event(3, None)
    assert deal.public_observation().events[-1] == Event(3, None)


def test_a_completed_trick_records_its_winner() -> None:
    """RULES §2, §8: West wins the trick with the left bower, the only trump played in a
    trick led in hearts: trumped."""
    deal = Deal.from_cards(Rules(players=4), 3, hands=LEFT, turnup="AC")
    for action in ("order", "discard TC", "play TH", "play JS", "play 9H"):
        assert deal.apply(action).trick is None
    effect = deal.apply("play KH")
    cards = ((0, Card.TH), (1, Card.JS), (2, Card.parse("9H")), (3, Card.KH))
    assert effect.trick == Trick(0, cards, 1)
    assert effect.won_by is WonBy.TRUMPED
    assert effect.trick == deal.tricks[-1]


def test_a_trick_without_trump_is_won_by_the_highest_of_the_led_suit() -> None:
    """RULES §8: no trump played, the highest card of the suit led wins."""
    deal = Deal.from_cards(
        Rules(players=2), dealer=0, hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD"
    )
    for action in ("order", "discard 9C", "AC"):
        deal.apply(action)
    effect = deal.apply("TC")
    assert effect.trick is not None and effect.trick.winner == 1
    assert effect.won_by is WonBy.HIGHEST_LED


def test_a_trick_led_in_trump_is_won_by_the_highest_trump() -> None:
    """RULES §8: trump led, the highest trump wins."""
    deal = Deal.from_cards(
        Rules(players=2), dealer=0, hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD"
    )
    for action in ("order", "discard 9C", "JD"):
        deal.apply(action)
    effect = deal.apply("KD")
    assert effect.trick is not None and effect.trick.winner == 1
    assert effect.won_by is WonBy.HIGHEST_TRUMP


def test_playing_the_called_card_records_the_partner_revealed() -> None:
    """RULES §6.3: the called card's holder is the secret partner until it is played."""
    deal = Deal.from_cards(Rules(players=5), 4, hands=FIVE, turnup="TH")
    for action in ("order", "discard 8D"):
        deal.apply(action)
    call = deal.apply("call JH")
    assert call.partner is None  # the engine knows, the table does not
    assert deal.apply("play AH").partner is None
    assert deal.public_observation().partner is None
    effect = deal.apply("play JH")
    assert effect.partner == 1
    assert deal.public_observation().partner == 1


def test_the_last_trick_records_the_result() -> None:
    """RULES §9: the action that ends the deal carries its result."""
    deal = Deal.from_cards(
        Rules(players=2), dealer=0, hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD"
    )
    effects = [
        deal.apply(a)
        for a in ("order", "discard 9C", "JD", "KD", "QD", "TC", "TD", "JC", "9D", "QC", "AC", "KC")
    ]
    assert [e.result for e in effects[:-1]] == [None] * 11
    assert effects[-1].result == deal.result and deal.result.outcome == "march"
    assert [e.trick for e in effects if e.trick is not None] == list(deal.tricks)


def test_passing_twice_round_records_the_cards_thrown_in() -> None:
    """RULES §4: all pass twice without stick the dealer: the deal ends thrown in."""
    deal = four()
    effects = [deal.apply("pass") for _ in range(8)]
    result = effects[-1].result
    assert isinstance(result, DealResult) and result.thrown_in
    assert all(e.result is None for e in effects[:-1])


def test_the_dummy_discards_are_recorded_one_by_one() -> None:
    """RULES §6: the three-handed maker takes up the dummy and discards five."""
    deal = Deal.from_cards(Rules(players=3), 2, hands=THREE, dummy=THREE_DUMMY, turnup="TH")
    deal.apply("order")
    deal.apply("discard KD", seat=2)
    phases = [deal.apply(f"discard {c}").phase for c in ("9C", "TC", "9D", "TD", "QS")]
    assert phases == [Phase.DUMMY] * 5


def test_effects_are_kept_in_order_and_copied() -> None:
    """The records follow the actions; a copy keeps them and goes its own way."""
    deal = four()
    first = deal.apply("pass")
    copy = deal.copy()
    second = deal.apply("order", seat=1)
    assert deal.effects == (first, second)
    assert copy.effects == (first,)
    assert copy.apply("pass").seat == 1 and deal.effects == (first, second)


def test_an_effect_pastes_back_as_code() -> None:
    """The repr is code that rebuilds the record."""
    deal = Deal.from_cards(Rules(players=4), 3, hands=LEFT, turnup="AC")
    for action in ("order alone", "discard TC", "play TH", "play JS", "play KH"):
        effect = deal.apply(action)
        assert eval(repr(effect)) == effect
    namespace = {
        "Effect": Effect,
        "Action": Action,
        "Phase": Phase,
        "Suit": Suit,
        "Card": Card,
        "Trick": Trick,
        "WonBy": WonBy,
        "DealResult": DealResult,
    }
    assert eval(repr(deal.effects[0]), namespace) == deal.effects[0]
    with pytest.raises(AttributeError):
        deal.effects[0].seat = 2  # type: ignore[misc]


def test_check_refuses_as_apply_does_and_changes_nothing() -> None:
    """RULES §4, §8: ``check`` raises the message ``apply`` would, and leaves the deal."""
    deal = four()
    for action, seat in (("order", 1), ("play AC", None), ("trump C", None), ("pass", 2)):
        before = snapshot(deal)
        with pytest.raises(IllegalActionError) as checked:
            deal.check(action, seat=seat)
        assert snapshot(deal) == before
        with pytest.raises(IllegalActionError) as applied:
            deal.apply(action, seat=seat)
        assert str(checked.value) == str(applied.value)
        assert snapshot(deal) == before
    with pytest.raises(InvalidActionError):
        deal.check("hop")
    deal.check("order", seat=0)
    assert deal.effects == ()


def test_the_public_observation_is_what_every_seat_sees_in_common() -> None:
    """RULES §12: no hand, no discard; hand sizes as held (six for the dealer in the
    exchange)."""
    deal = four()
    deal.apply("order")
    public = deal.public_observation()
    assert public.hand_sizes == (5, 5, 5, 6)
    deal.apply("discard JD")
    public = deal.public_observation()
    assert public.hand_sizes == (5, 5, 5, 5)
    assert not hasattr(public, "hand") and not hasattr(public, "discards")


# -- property tests over random play ----------------------------------------------------------


def _agrees(effect: Effect, before: Observation, after: Observation, deal: Deal) -> None:
    """The record of one action against the full observations before and after it."""
    event = after.events[-1]
    assert (effect.seat, effect.action) == (event.seat, deal.actions[-1])
    assert effect.phase is before.phase
    fixed = before.trump is None and after.trump is not None
    assert (effect.trump is not None) == fixed
    if fixed:
        assert (effect.trump, effect.maker, effect.alone) == (after.trump, after.maker, after.alone)
    else:
        assert effect.maker is None and not effect.alone
    assert effect.sitting_out == tuple(s for s in after.sitting_out if s not in before.sitting_out)
    assert (effect.trick is not None) == (len(after.tricks) > len(before.tricks))
    if effect.trick is not None:
        assert effect.trick == after.tricks[-1]
        assert after.trump is not None and effect.won_by is not None
        assert effect.won_by is _why(effect.trick, after.trump)
    else:
        assert effect.won_by is None
    assert effect.result == after.result


def _why(trick: Trick, trump: Suit) -> WonBy:
    """RULES §2, §8, restated: the winner's card trump or not, the other trumps."""

    def is_trump(card: Card) -> bool:
        return (
            card == Card.JK
            or card.suit is trump
            or (card.rank_char == "J" and card.suit is trump.same_colour)
        )

    best = next(c for s, c in trick.cards if s == trick.winner)
    if not is_trump(best):
        return WonBy.HIGHEST_LED
    trumps = sum(is_trump(c) for _, c in trick.cards)
    return WonBy.TRUMPED if not is_trump(trick.cards[0][1]) and trumps == 1 else WonBy.HIGHEST_TRUMP


def _public_agrees(public: PublicObservation, deal: Deal, revealed: bool) -> None:
    """The public observation is each seat's, less what is private."""
    for seat in range(deal.n):
        obs = deal.observation(seat)
        assert isinstance(obs, PublicObservation)  # a seat sees what the table sees, and more
        for field in dataclasses.fields(PublicObservation):
            name = field.name
            if name in ("events", "partner"):
                continue
            assert getattr(public, name) == getattr(obs, name), name
        assert len(public.events) == len(obs.events)
        for mine, theirs in zip(public.events, obs.events, strict=True):
            assert mine.seat == theirs.seat
            hidden = theirs.action is None or theirs.action.kind is ActionKind.DISCARD
            assert mine.action == (None if hidden else theirs.action)
    assert public.hand_sizes == tuple(len(deal.hand(s)) for s in range(deal.n))
    assert public.partner == (deal.partner if revealed else None)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_check_raises_exactly_when_apply_does_and_changes_nothing(seed: int) -> None:
    """Every variant and option: at each step of a random deal, random actions (legal
    and not, with and without a seat) are checked, then applied on a copy; ``check``
    raises exactly when ``apply`` does, with the same message, and never changes the
    deal; a refused ``apply`` changes nothing either."""
    rng = random.Random(seed)
    deal = random_deal(rng, random_rules(rng))
    while True:
        legal = deal.legal_action_ids()
        tries = [rng.randrange(NUM_ACTIONS) for _ in range(3)] + legal[:2]
        for a in tries:
            seat = rng.choice([None, deal.to_move, rng.randrange(deal.n)])
            before = snapshot(deal)
            try:
                deal.check(a, seat=seat)
                checked = None
            except IllegalActionError as e:
                checked = str(e)
            assert snapshot(deal) == before
            other = deal.copy()
            try:
                other.apply(a, seat=seat)
                applied = None
            except IllegalActionError as e:
                applied = str(e)
                assert snapshot(other) == before
            assert checked == applied
            assert (checked is None) == (a in legal and seat in (None, deal.to_move))
        if deal.is_over:
            break
        deal.apply(rng.choice(legal))


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_records_agree_with_the_observations(seed: int) -> None:
    """Every variant and option: each action's record says what the observations of
    every seat show changed, and the public observation is theirs less the private."""
    rng = random.Random(seed)
    deal = random_deal(rng, random_rules(rng))
    revealed = False
    effects = []
    while not deal.is_over:
        seat = rng.randrange(deal.n)
        before = deal.observation(seat)
        effect = deal.apply(rng.choice(deal.legal_action_ids()))
        effects.append(effect)
        after = deal.observation(seat)
        _agrees(effect, before, after, deal)
        if effect.partner is not None:
            assert not revealed and effect.partner == deal.partner
            assert effect.action.card == deal.called
            revealed = True
        _public_agrees(deal.public_observation(), deal, revealed)
    assert deal.effects == tuple(effects)
    assert effects[-1].result == deal.result
    assert revealed == (
        deal.called is not None and deal.called in {c for t in deal.tricks for _, c in t.cards}
    )
