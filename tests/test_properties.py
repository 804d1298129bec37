"""Property tests over random deals of every variant and option (RULES §1-§9, §12).

Hypothesis draws the rules (players, pack, joker and its turn-up option, stick the dealer,
dealer must take up, defend alone), the dealer and a seed; the deal is then played to the
end with random legal actions.  The facts checked at every step are computed here,
independently of the engine's tables.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchre.actions import NUM_ACTIONS, Action, ActionKind
from euchre.cards import Card, Suit, cards_of, pack_mask
from euchre.deal import Deal, IllegalActionError, Observation, Phase
from euchre.rules import Rules

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# -- drawing rules and deals ---------------------------------------------------------------


@st.composite
def rules_st(draw: st.DrawFn) -> Rules:
    """Any valid rules set (RULES §1, §3, §4, §5, §7)."""
    players = draw(st.sampled_from([2, 3, 4, 5]))
    deck = draw(st.sampled_from([28, 32] if players == 5 else [24, 28, 32]))
    fixed_suit = draw(st.booleans())
    return Rules(
        players=players,
        deck=deck,
        joker=draw(st.booleans()),
        joker_turnup="suit:" + draw(st.sampled_from("CDHS")) if fixed_suit else "dealer_names",
        stick_the_dealer=draw(st.booleans()),
        dealer_must_take_up=draw(st.booleans()),
        defend_alone=draw(st.booleans()) if players in (3, 4) else False,
        target=draw(st.sampled_from([5, 7, 10])),
    )


@st.composite
def deal_st(draw: st.DrawFn) -> tuple[Deal, random.Random]:
    """A random deal, sometimes with the joker turned up, and the RNG that plays it."""
    rules = draw(rules_st())
    dealer = draw(st.integers(0, rules.players - 1))
    seed = draw(st.integers(0, 2**32 - 1))
    deal = Deal.random(rules, dealer=dealer, seed=seed)
    if rules.joker and draw(st.booleans()) and deal.turnup != Card.JK:
        record = deal.to_record().to_json()
        places = [*record["hands"], record["dummy"] or [], record["kitty"]]
        holder = next(p for p in places if "JK" in p)
        holder[holder.index("JK")] = record["turnup"]
        record["turnup"] = "JK"
        deal = Deal.from_record(record)
    return deal, random.Random(draw(st.integers(0, 2**32 - 1)))


# -- the rules, restated independently --------------------------------------------------------


def suit_of(card: int, trump: Suit) -> Suit:
    """RULES §2: the joker and the left bower belong to trump."""
    c = Card(card)
    if c == Card.JK or (c.rank_char == "J" and c.suit is trump.same_colour):
        return trump
    assert c.suit is not None
    return c.suit


def strength(card: int, trump: Suit, led: Suit) -> int:
    """RULES §2, §8: any trump beats the led suit, which beats everything else."""
    c = Card(card)
    suit = suit_of(c, trump)
    if suit is trump:
        if c == Card.JK:
            return 100
        if c.rank_char == "J":
            return 99 if c.suit is trump else 98
        return 50 + c.rank
    return 10 + c.rank if suit is led else 0


def expected_points(
    n: int, tricks: tuple[int, ...], maker: int, alone: bool, lone_defender: int | None,
    partner: int | None,
) -> tuple[int, ...]:
    """RULES §9, row by row."""
    side = {maker}
    if n == 4:
        side.add((maker + 2) % 4)
    if n == 5 and partner is not None:
        side.add(partner)
    made = sum(tricks[s] for s in side)
    if made == 5:
        value = {2: 2, 3: 4 if alone else 3, 4: 4 if alone else 2, 5: 5 if alone else 2}[n]
        scorers = side
    elif made >= 3:
        value, scorers = 1, side
    else:
        value, scorers = 2, set(range(n)) - side
        if n == 4 and lone_defender is not None:
            value = 4
        if n == 3 and lone_defender is not None and made == 0:
            value = 4
        if n == 5 and made == 0:
            value = 4
    return tuple(value if s in scorers else 0 for s in range(n))


# -- playing a deal out, keeping our own account ------------------------------------------------


@dataclass
class Log:
    """What the test itself saw happen, action by action."""

    played: list[int] = field(default_factory=list)
    discards: dict[int, list[int]] = field(default_factory=dict)
    turnup_taken: bool = False
    dummy_taken: bool = False
    maker: int | None = None
    alone: bool = False
    forced_alone: bool = False
    partner: int | None = None
    called: int | None = None
    lone_defender: int | None = None
    trick: list[tuple[int, int]] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)


def step(deal: Deal, rng: random.Random, log: Log) -> tuple[int, Action]:
    """Apply one random legal action, keeping the log; return who did what."""
    seat = deal.to_move
    assert seat is not None
    action = rng.choice(deal.legal_actions())
    before = [deal.hand_mask(s) for s in range(deal.n)]
    deal.apply(action, seat=seat)
    kind = action.kind
    if kind in (ActionKind.ORDER, ActionKind.TRUMP):
        log.maker, log.alone = seat, action.alone
    elif kind is ActionKind.DISCARD:
        assert action.card is not None
        log.discards.setdefault(seat, []).append(int(action.card))
    elif kind is ActionKind.CALL:
        assert action.card is not None
        log.called = int(action.card)
        holders = [s for s in range(deal.n) if before[s] >> log.called & 1]
        assert len(holders) <= 1
        log.partner = holders[0] if holders else None
        log.forced_alone = not holders
    elif kind is ActionKind.DEFEND_ALONE:
        log.lone_defender = seat
    elif kind is ActionKind.PLAY:
        assert action.card is not None
        log.played.append(int(action.card))
        log.trick.append((seat, int(action.card)))
    if deal.phase is Phase.EXCHANGE:
        log.turnup_taken = True
    if deal.phase is Phase.DUMMY:
        log.dummy_taken = True
    return seat, action


def playing(deal: Deal, rng: random.Random, log: Log) -> Iterator[tuple[int, Action]]:
    while not deal.is_over:
        yield step(deal, rng, log)


def snapshot(deal: Deal) -> tuple[object, ...]:
    return (
        deal.to_record(),
        deal.legal_action_ids(),
        deal.phase,
        deal.to_move,
        tuple(deal.hand_mask(s) for s in range(deal.n)),
        tuple(deal.observation(s) for s in range(deal.n)),
        deal.result,
    )


def internal_state(deal: Deal) -> tuple[str, ...]:
    """Every slot of the deal, private ones included: a refused action changes none."""
    return tuple(f"{name}={getattr(deal, name)!r}" for name in Deal.__slots__
                 if name not in Deal.CACHE_SLOTS)


def quick_state(deal: Deal) -> tuple[object, ...]:
    return (
        deal.phase, deal.to_move, len(deal.events), deal.trump, deal.maker, deal.alone,
        deal.sitting_out, deal.tricks_won, tuple(deal.hand_mask(s) for s in range(deal.n)),
    )


# -- the properties -----------------------------------------------------------------------------


def check_cards_conserved(deal: Deal, log: Log) -> None:
    """Hands + played + discards + kitty + turn-up (unless taken) + dummy (unless taken)
    account for the pack exactly once (RULES §1, §3, §5, §6)."""
    where: list[int] = []
    for s in range(deal.n):
        where += cards_of(deal.hand_mask(s))
    where += log.played
    for pile in log.discards.values():
        where += pile
    where += [int(c) for c in deal.kitty]
    if not log.turnup_taken:
        where.append(int(deal.turnup))
    if deal.dealt_dummy is not None and not log.dummy_taken:
        where += cards_of(deal.dealt_dummy)
    assert sorted(where) == list(cards_of(pack_mask(deal.rules.deck, deal.rules.joker)))
    # the engine's own public views agree with the log
    in_tricks = [int(c) for t in deal.tricks for _, c in t.cards]
    in_trick = [int(c) for _, c in deal.current_trick]
    assert in_tricks + in_trick == log.played
    for s in range(deal.n):
        assert [int(c) for c in deal.observation(s).discards] == log.discards.get(s, [])
    if deal.phase is Phase.PLAY:
        for s in range(deal.n):
            size = deal.hand_mask(s).bit_count()
            if s in deal.sitting_out:
                assert size == 5
            else:
                assert size == 5 - sum(1 for seat, _ in _plays(deal) if seat == s)


def _plays(deal: Deal) -> list[tuple[int, Card]]:
    return [sc for t in deal.tricks for sc in t.cards] + list(deal.current_trick)


@SETTINGS
@given(deal_st())
def test_cards_are_conserved_at_every_step(drawn: tuple[Deal, random.Random]) -> None:
    deal, rng = drawn
    log = Log()
    check_cards_conserved(deal, log)
    for _ in playing(deal, rng, log):
        check_cards_conserved(deal, log)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_st())
def test_offered_actions_are_accepted_and_all_others_refused(
    drawn: tuple[Deal, random.Random]
) -> None:
    """Every offered id is accepted (on a copy); every other id in the action space is
    refused with IllegalActionError and leaves the deal unchanged."""
    deal, rng = drawn
    log = Log()
    while True:
        full = snapshot(deal)
        inside = internal_state(deal)
        quick = quick_state(deal)
        offered = deal.legal_action_ids()
        assert offered == sorted(set(offered))
        assert [a.id for a in deal.legal_actions()] == offered
        assert deal.legal_mask() == [i in offered for i in range(NUM_ACTIONS)]
        for action_id in offered:
            other = deal.copy()
            assert deal.is_legal(action_id)
            other.apply(action_id)
            assert len(other.events) == len(deal.events) + 1
        for action_id in range(NUM_ACTIONS):
            if action_id in offered:
                continue
            assert not deal.is_legal(action_id)
            try:
                deal.apply(action_id)
            except IllegalActionError as e:
                assert "legal" in str(e) or "over" in str(e)
            else:
                raise AssertionError(f"{Action.from_id(action_id)} was accepted")
            assert quick_state(deal) == quick
        assert snapshot(deal) == full
        assert internal_state(deal) == inside
        if deal.is_over:
            assert offered == []
            break
        wrong_seat = (deal.to_move or 0) + 1
        try:
            deal.apply(offered[0], seat=wrong_seat % deal.n)
        except IllegalActionError as e:
            assert "turn" in str(e)
        else:
            raise AssertionError("an action out of turn was accepted")
        assert snapshot(deal) == full
        assert internal_state(deal) == inside
        step(deal, rng, log)


@SETTINGS
@given(deal_st())
def test_bidding_follows_rules_3_to_7(drawn: tuple[Deal, random.Random]) -> None:
    """RULES §3-§7: who bids when, what is offered, and what follows the bidding."""
    deal, rng = drawn
    rules, n, dealer = deal.rules, deal.n, deal.dealer
    log = Log()
    joker_named = deal.turnup == Card.JK and rules.joker_suit is None
    turnup_suit = rules.joker_suit if deal.turnup == Card.JK else Card(deal.turnup).suit
    seats = [(dealer + 1 + k) % n for k in range(n)]
    alone = [] if n == 2 else [" alone"]
    bid: Action | None = None
    if joker_named:  # RULES §3: the dealer names trump, bidding is skipped
        assert (deal.phase, deal.to_move) == (Phase.NAME_TRUMP, dealer)
        assert {str(a) for a in deal.legal_actions()} == {
            f"trump {s}{x}" for s in "CDHS" for x in ["", *alone]
        }
        step(deal, rng, log)
    else:  # RULES §4: two rounds from the dealer's left; the first acceptance ends it
        assert turnup_suit is not None
        for round_ in (1, 2):
            for seat in seats:
                assert deal.to_move == seat
                offered = {str(a) for a in deal.legal_actions()}
                if round_ == 1:
                    assert deal.phase is Phase.BID_TURNUP
                    assert offered == {"pass", "order", *(f"order{x}" for x in alone)}
                else:
                    assert deal.phase is Phase.BID_SUIT
                    names = {f"trump {s}{x}" for s in "CDHS" if s != turnup_suit.char
                             for x in ["", *alone]}
                    stuck = rules.stick_the_dealer and seat == dealer
                    assert offered == (names if stuck else names | {"pass"})
                _, bid = step(deal, rng, log)
                if bid.kind is not ActionKind.PASS:
                    break
            else:
                continue
            break
        else:
            assert deal.is_over and deal.result.thrown_in
            assert not rules.stick_the_dealer
            return
    assert log.maker is not None
    maker = log.maker
    took_turnup = joker_named or (bid is not None and bid.kind is ActionKind.ORDER)
    partner_alone = n == 4 and log.alone and maker == (dealer + 2) % 4
    expected_out = {(maker + 2) % 4} if n == 4 and log.alone else set()
    assert set(deal.sitting_out) == expected_out
    # RULES §5: the dealer's exchange, unless round 2 or the dealer sits out
    if took_turnup and not partner_alone:
        assert (deal.phase, deal.to_move) == (Phase.EXCHANGE, dealer)
        assert deal.hand_mask(dealer).bit_count() == 6
        offered_cards = {a.card for a in deal.legal_actions()}
        if rules.dealer_must_take_up:
            assert Card(deal.turnup) not in offered_cards
        assert offered_cards | {Card(deal.turnup)} == set(cards_of(deal.hand_mask(dealer)))
        step(deal, rng, log)
    # RULES §6.2: three-handed, maker not alone, takes up the dummy
    if n == 3 and not log.alone:
        for k in range(5):
            assert (deal.phase, deal.to_move) == (Phase.DUMMY, maker)
            assert deal.hand_mask(maker).bit_count() == 10 - k
            step(deal, rng, log)
    # RULES §6.3: five-handed, maker not alone, calls a card
    if n == 5 and not log.alone:
        assert (deal.phase, deal.to_move) == (Phase.CALL_PARTNER, maker)
        step(deal, rng, log)
    # RULES §6.4, §7: defenders from the dealer's left may defend alone, at most one
    if rules.defend_alone:
        makers = {maker, (maker + 2) % 4} if n == 4 else {maker}
        for seat in [s for s in seats if s not in makers]:
            assert (deal.phase, deal.to_move) == (Phase.DEFEND, seat)
            _, action = step(deal, rng, log)
            if action.kind is ActionKind.DEFEND_ALONE:
                break
    assert deal.phase is Phase.PLAY
    out = set(expected_out)
    if log.lone_defender is not None:
        d = log.lone_defender
        out |= {(d + 2) % 4} if n == 4 else {s for s in range(3) if s not in (d, maker)}
    assert set(deal.sitting_out) == out
    # RULES §8: who leads the first trick
    if n == 2:
        lead = 1 - dealer
    elif n == 3 and log.alone:
        lead = first_active_left_of(maker, n, out)
    elif n == 3 and log.lone_defender is not None:
        lead = first_active_left_of(log.lone_defender, n, out)
    else:
        lead = first_active_left_of(dealer, n, out)
    assert deal.to_move == lead


def first_active_left_of(seat: int, n: int, out: set[int]) -> int:
    t = (seat + 1) % n
    while t in out:
        t = (t + 1) % n
    return t


@SETTINGS
@given(deal_st())
def test_follow_suit_always_holds_and_the_best_card_wins(
    drawn: tuple[Deal, random.Random]
) -> None:
    """RULES §2, §8: a card off the led suit (trump-aware) is played only by a hand void in
    it; the highest trump, else the highest card of the led suit, wins; the winner leads."""
    deal, rng = drawn
    log = Log()
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        hand = deal.hand_mask(seat)
        trick = list(deal.current_trick)
        _, action = step(deal, rng, log)
        if action.kind is not ActionKind.PLAY:
            continue
        assert action.card is not None
        trump = deal.trump
        assert trump is not None
        if trick:
            led = suit_of(trick[0][1], trump)
            if suit_of(action.card, trump) is not led:
                assert not any(suit_of(c, trump) is led for c in cards_of(hand)), (
                    f"seat {seat} played {action.card} on {led.name} holding "
                    f"{[str(c) for c in cards_of(hand)]}"
                )
        if not deal.current_trick:  # the trick is complete
            done = deal.tricks[-1]
            assert [(s, int(c)) for s, c in done.cards] == log.trick
            led = suit_of(done.cards[0][1], trump)
            best = max(done.cards, key=lambda sc: strength(sc[1], trump, led))
            assert done.winner == best[0]
            assert len(done.cards) == deal.n - len(deal.sitting_out)
            log.trick = []
            if not deal.is_over:
                assert deal.to_move == done.winner
    if deal.result.maker is not None:
        assert len(deal.tricks) == 5


@SETTINGS
@given(deal_st())
def test_points_match_the_table_of_rules_9(drawn: tuple[Deal, random.Random]) -> None:
    deal, rng = drawn
    log = Log()
    for _ in playing(deal, rng, log):
        pass
    result = deal.result
    assert result.complete
    if log.maker is None:
        assert result.thrown_in
        assert result.points == (0,) * deal.n
        assert not deal.rules.stick_the_dealer
        return
    assert result.maker == log.maker
    assert result.alone == (log.alone or log.forced_alone)
    assert result.partner == log.partner
    assert result.lone_defender == log.lone_defender
    assert sum(result.tricks) == 5
    assert result.points == expected_points(
        deal.n, result.tricks, log.maker, log.alone or log.forced_alone, log.lone_defender,
        log.partner,
    )
    assert result.to_json()["points"] == list(result.points)
    assert json.loads(json.dumps(result.to_json())) == result.to_json()


def cards_in(value: object) -> Iterator[Card]:
    """Every Card anywhere inside an observation, recursively."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, enum.Enum | str | int | float | bool) or value is None:
        return
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from cards_in(getattr(value, f.name))
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from cards_in(item)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from cards_in(k)
            yield from cards_in(v)
    else:
        raise AssertionError(f"unexpected value in an observation: {value!r}")


def check_observation(deal: Deal, seat: int, log: Log) -> None:
    """RULES §12: a seat sees its own cards, every card played, the turn-up, its own
    discards, the called card, and the dummy only as the maker who took it."""
    obs: Observation = deal.observation(seat)
    allowed = set(cards_of(deal.hand_mask(seat)))
    allowed |= {Card(c) for c in log.played}
    allowed.add(Card(deal.turnup))
    allowed |= {Card(c) for c in log.discards.get(seat, [])}
    if log.called is not None:
        allowed.add(Card(log.called))
    if log.dummy_taken and seat == log.maker and deal.dealt_dummy is not None:
        allowed |= set(cards_of(deal.dealt_dummy))
    public = dataclasses.replace(obs, legal_actions=())
    for card in cards_in(public):
        assert card in allowed, f"seat {seat} sees {card} ({deal.phase})"
    # legal actions: its own cards, except the partner call, which offers every card of
    # the pack not in the caller's hand, nor one it knows to be out of play (its own
    # discards, a turn-up turned down in round 1: RULES §6.3), known from the rules, that
    # hand and what the seat saw alone
    calls = {a.card for a in obs.legal_actions if a.kind is ActionKind.CALL}
    if calls:
        pack = pack_mask(deal.rules.deck, deal.rules.joker)
        out = sum(1 << c for c in log.discards.get(seat, []))
        if not log.turnup_taken:
            out |= 1 << int(deal.turnup)
        assert calls == set(cards_of(pack & ~deal.hand_mask(seat) & ~out))
    for action in obs.legal_actions:
        if action.kind is not ActionKind.CALL and action.card is not None:
            assert action.card in allowed
    if seat != deal.to_move:
        assert obs.legal_actions == ()
    # other seats' discards are face down
    for event in obs.events:
        if event.seat != seat and event.action is not None:
            assert event.action.kind is not ActionKind.DISCARD
    # the called card's holder is unknown until the card is played
    if log.partner is not None and seat != log.partner and log.called not in log.played:
        assert obs.partner is None
    if obs.partner is not None:
        assert obs.partner == log.partner
    # a forced alone is not announced
    if log.forced_alone and not deal.is_over:
        assert obs.alone is False
    if deal.dealt_dummy is not None and not (log.dummy_taken and seat == log.maker):
        assert obs.dummy is None


@SETTINGS
@given(deal_st())
def test_observations_never_show_a_hidden_card(drawn: tuple[Deal, random.Random]) -> None:
    deal, rng = drawn
    log = Log()
    for s in range(deal.n):
        check_observation(deal, s, log)
    for _ in playing(deal, rng, log):
        for s in range(deal.n):
            check_observation(deal, s, log)


@SETTINGS
@given(deal_st(), st.integers(0, 40))
def test_record_replays_to_the_same_state(
    drawn: tuple[Deal, random.Random], stop: int
) -> None:
    """RECORDS: a deal record holds enough to replay the deal exactly, also when its
    actions stop early; it survives JSON."""
    deal, rng = drawn
    log = Log()
    for k, _ in enumerate(playing(deal, rng, log)):
        if k == stop:
            break
    record: dict[str, Any] = json.loads(json.dumps(deal.to_record().to_json()))
    again = Deal.from_record(record)
    assert snapshot(again) == snapshot(deal)
    assert again.to_record() == deal.to_record()
    assert again.result == deal.result
    assert again.result.to_json() == deal.result.to_json()
    pasted = eval(repr(deal), {"Deal": Deal})
    assert snapshot(pasted) == snapshot(deal)


@SETTINGS
@given(rules_st(), st.integers(0, 4), st.integers(0, 2**32 - 1))
def test_same_seed_gives_the_same_deal(rules: Rules, dealer: int, seed: int) -> None:
    dealer %= rules.players
    a = Deal.random(rules, dealer=dealer, seed=seed)
    b = Deal.random(rules, dealer=dealer, seed=seed)
    assert a.to_record() == b.to_record()
    assert a.pattern == b.pattern
    assert a.pattern in ((3, 2), (2, 3))
    c = Deal.random(rules, dealer=dealer, seed=random.Random(seed))
    assert c.to_record() == a.to_record()
    for x, y in zip(playing(a, random.Random(seed), Log()), playing(b, random.Random(seed), Log()),
                    strict=True):
        assert x == y
    assert a.result == b.result
