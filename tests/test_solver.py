"""The open-hand solver (euchre/solver.py) against plain minimax, in every variant.

The bulk: thousands of random positions of the play phase (mid-trick included, lone makers
and lone defenders, the five-handed partner and the forced lone hand, the joker, the 28-
and 32-card packs) with few enough cards left for the engine-driven minimax
(:func:`euchre.solver.minimax_values`, no pruning, no table).  Then whole deals from the
first lead against a plain minimax on ints written here (independent of the solver's
card layout), hand-built positions with a known answer, and the ``euchre solve --json``
object.
"""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import pytest

from euchre import Action, Deal, Phase, Rules
from euchre.cards import EFFECTIVE_SUIT, SUIT_MASKS, TRICK_STRENGTH, Card, card_mask, parse_cards
from euchre.jobs.bench import bench_solver, random_play_deal
from euchre.solver import (
    PositionSolution,
    Solution,
    makers_side,
    minimax,
    minimax_values,
    solve,
    solve_position,
    solve_record,
)

VARIANTS: dict[str, Rules] = {
    "two-handed": Rules(players=2),
    "two-handed, 32 cards + joker": Rules(players=2, deck=32, joker=True),
    "three-handed": Rules(players=3),
    "three-handed, 32 cards + joker": Rules(players=3, deck=32, joker=True),
    "four-handed": Rules(players=4),
    "four-handed, defend alone + joker": Rules(players=4, defend_alone=True, joker=True),
    "four-handed, 32 cards": Rules(players=4, deck=32),
    "four-handed, 28 cards, take up": Rules(players=4, deck=28, dealer_must_take_up=True),
    "five-handed": Rules(players=5),
    "five-handed, 32 cards + joker": Rules(players=5, deck=32, joker=True),
}

POSITIONS_PER_VARIANT = 600
MAX_CARDS_LEFT = 12
"""Cards left in the hands that play: small enough for the engine-driven minimax."""


def active_cards(deal: Deal) -> int:
    """Cards left in the hands of the seats that play (not sitting out)."""
    out = deal.sitting_out
    return sum(deal.hand_mask(s).bit_count() for s in range(deal.n) if s not in out)


def random_position(rules: Rules, rng: random.Random, max_tricks: int = 3,
                    cap: int = MAX_CARDS_LEFT) -> Deal:
    """A random deal bid at random, then played at random until at most ``max_tricks``
    tricks' worth of cards (at most ``cap``; a random number, at least 1) are left in
    the hands of the seats that play: often mid-trick."""
    while True:
        deal = random_play_deal(rules, rng)
        active = rules.players - len(deal.sitting_out)
        target = rng.randint(1, min(cap, active * max_tricks))
        while not deal.is_over and active_cards(deal) > target:
            deal.apply(rng.choice(deal.legal_action_ids()))
        if not deal.is_over:
            return deal


def check_against_minimax(deal: Deal) -> Solution:
    sol = solve(deal)
    expected = minimax_values(deal)
    assert sol.values == expected, deal.to_record()
    assert list(sol.values) == deal.legal_actions()
    mover_side = sol.to_move in sol.makers
    best = max(expected.values())
    assert sol.values[sol.best] == best
    side = makers_side(deal)
    won = sum(deal.tricks_won[s] for s in side)
    assert sol.makers_tricks == won + minimax(deal)
    assert sol.makers_tricks + sol.defenders_tricks == 5
    assert sol.tricks_left == 5 - sum(deal.tricks_won)
    if mover_side:
        assert sol.makers_tricks == won + best
    else:
        assert sol.defenders_tricks == 5 - won - sol.tricks_left + best
    return sol


# -- the bulk: random positions against the engine-driven minimax ---------------------------
@pytest.mark.parametrize("name", list(VARIANTS))
def test_random_positions_agree_with_minimax(name: str) -> None:
    """Every legal card's value and the position's value equal plain minimax's."""
    rules = VARIANTS[name]
    rng = random.Random(f"positions {name}")
    seen = {"mid-trick": 0, "lone maker": 0, "lone defender": 0, "partner": 0,
            "forced alone": 0}
    for _ in range(POSITIONS_PER_VARIANT):
        deal = random_position(rules, rng, 4 if rules.players == 2 else 3)
        check_against_minimax(deal)
        seen["mid-trick"] += bool(deal.current_trick)
        seen["lone maker"] += deal.alone
        seen["lone defender"] += deal.lone_defender is not None
        seen["partner"] += deal.partner is not None
        seen["forced alone"] += deal.n == 5 and deal.partner is None and deal.called is not None
    assert seen["mid-trick"] > POSITIONS_PER_VARIANT // 4
    if rules.alone_allowed:
        assert seen["lone maker"] > 0
    if rules.defend_alone:
        assert seen["lone defender"] > 0
    if rules.players == 5:
        assert seen["partner"] > 0 and seen["forced alone"] > 0


def test_solve_position_on_raw_ints_matches_solve() -> None:
    """``solve_position`` (raw ints) gives the maker side's values of ``solve``."""
    rng = random.Random(7)
    for name, rules in VARIANTS.items():
        for _ in range(20):
            deal = random_position(rules, rng, 5, cap=25)
            sol = solve(deal)
            trick = deal.current_trick
            makers = sum(1 << s for s in sol.makers)
            out = sum(1 << s for s in deal.sitting_out)
            assert deal.trump is not None and deal.to_move is not None
            leader = trick[0][0] if trick else deal.to_move
            pos = solve_position([deal.hand_mask(s) for s in range(deal.n)], int(deal.trump),
                                 makers, leader, [int(c) for _, c in trick], out)
            assert isinstance(pos, PositionSolution)
            assert pos.to_move == deal.to_move, name
            mover_maker = deal.to_move in sol.makers
            for action, v in sol.values.items():
                assert action.card is not None
                own = pos.values[int(action.card)]
                assert (own if mover_maker else sol.tricks_left - own) == v
            assert sorted(pos.values) == [int(a.card) for a in sol.values if a.card is not None]
            won = sum(deal.tricks_won[s] for s in sol.makers)
            assert won + pos.value == sol.makers_tricks
            quick = solve_position([deal.hand_mask(s) for s in range(deal.n)],
                                   int(deal.trump), makers, leader,
                                   [int(c) for _, c in trick], out, all_values=False)
            assert quick.value == pos.value
            [(card, v)] = quick.values.items()
            assert v == pos.value and pos.values[card] == pos.value


# -- whole deals from the first lead ------------------------------------------------------
def plain_minimax_ints(deal: Deal) -> dict[int, int]:
    """Exhaustive minimax on ints with the engine's own tables (no pruning, no ordering,
    no card equivalence; exact values remembered at trick boundaries): for each legal
    card, the maker side's tricks from now (this trick included)."""
    n = deal.n
    trump = deal.trump
    assert trump is not None
    t = int(trump)
    out = set(deal.sitting_out)
    nxt = {}
    for s in range(n):
        u = (s + 1) % n
        while u in out:
            u = (u + 1) % n
        nxt[s] = u
    active = n - len(out)
    side = set(makers_side(deal))
    effective = EFFECTIVE_SUIT[t]
    suits = SUIT_MASKS[t]
    strength = TRICK_STRENGTH[t]

    def legal(hand: int, trick: tuple[tuple[int, int], ...]) -> list[int]:
        if trick:
            follow = hand & suits[effective[trick[0][1]]]
            if follow:
                hand = follow
        cards = []
        while hand:
            low = hand & -hand
            cards.append(low.bit_length() - 1)
            hand ^= low
        return cards

    def value(hands: tuple[int, ...], trick: tuple[tuple[int, int], ...], turn: int) -> int:
        if len(trick) == active:
            led = effective[trick[0][1]]
            winner = max(trick, key=lambda sc: strength[led][sc[1]])[0]
            gain = 1 if winner in side else 0
            if not hands[winner]:
                return gain
            return gain + boundary(hands, winner)
        results = [after(hands, trick, turn, c) for c in legal(hands[turn], trick)]
        return max(results) if turn in side else min(results)

    memo: dict[tuple[tuple[int, ...], int], int] = {}

    def boundary(hands: tuple[int, ...], leader: int) -> int:
        key = (hands, leader)
        v = memo.get(key)
        if v is None:
            v = memo[key] = value(hands, (), leader)
        return v

    def after(hands: tuple[int, ...], trick: tuple[tuple[int, int], ...], turn: int,
              c: int) -> int:
        new = list(hands)
        new[turn] &= ~(1 << c)
        return value(tuple(new), (*trick, (turn, c)), nxt[turn])

    hands = tuple(deal.hand_mask(s) for s in range(n))
    trick = tuple((s, int(c)) for s, c in deal.current_trick)
    turn = deal.to_move
    assert turn is not None
    return {c: after(hands, trick, turn, c) for c in legal(hands[turn], trick)}


def check_whole_deal(deal: Deal) -> None:
    expected = plain_minimax_ints(deal)
    sol = solve(deal)
    mover_maker = sol.to_move in sol.makers
    got = {int(a.card): (v if mover_maker else sol.tricks_left - v)
           for a, v in sol.values.items() if a.card is not None}
    assert got == expected, deal.to_record()
    best = max(expected.values()) if mover_maker else min(expected.values())
    won = sum(deal.tricks_won[s] for s in sol.makers)
    assert sol.makers_tricks == won + best


def test_plain_minimax_on_ints_agrees_with_the_engine_minimax() -> None:
    """The whole-deal reference below is itself checked against the engine-driven one."""
    rng = random.Random(11)
    for rules in VARIANTS.values():
        for _ in range(10):
            deal = random_position(rules, rng, 2)
            mover_maker = deal.to_move in makers_side(deal)
            left = 5 - sum(deal.tricks_won)
            expected = {int(a.card): (v if mover_maker else left - v)
                        for a, v in minimax_values(deal).items() if a.card is not None}
            assert plain_minimax_ints(deal) == expected


@pytest.mark.parametrize(("name", "count", "alone"), [
    ("two-handed", 30, None),
    ("two-handed, 32 cards + joker", 10, None),
    ("three-handed", 10, None),
    ("three-handed, 32 cards + joker", 6, None),
    ("four-handed", 10, True),
    ("four-handed", 8, False),
    ("four-handed, defend alone + joker", 6, None),
    ("four-handed, 32 cards", 1, False),
    ("five-handed", 1, None),
])
def test_whole_deals_from_the_first_lead(name: str, count: int, alone: bool | None) -> None:
    """Whole deals solved from the first lead agree with exhaustive minimax."""
    rules = VARIANTS[name]
    rng = random.Random(f"whole {name} {alone}")
    for _ in range(count):
        deal = random_play_deal(rules, rng, alone=alone)
        assert active_cards(deal) == 5 * (rules.players - len(deal.sitting_out))
        check_whole_deal(deal)


def test_whole_deals_after_some_tricks() -> None:
    """Deals stopped after one or two tricks, and a few cards into the next."""
    rng = random.Random(5)
    for rules in VARIANTS.values():
        for _ in range(4):
            deal = random_play_deal(rules, rng)
            active = rules.players - len(deal.sitting_out)
            for _ in range(active * rng.randint(1, 2) + rng.randrange(active)):
                deal.apply(rng.choice(deal.legal_action_ids()))
            check_whole_deal(deal)


# -- known positions --------------------------------------------------------------------
def phase_of(deal: Deal) -> Phase:
    """The deal's phase (a call, so that type checkers do not narrow it)."""
    return deal.phase


def four_handed_hearts(maker_hand: str, alone: bool = False) -> Deal:
    """Four-handed, dealer 0; all pass round 1 (clubs turned down); seat 1 names hearts."""
    hands = ["9C TC QC KC AC", maker_hand, "9S TS QS KS AS", "9D TD QD KD AD"]
    deal = Deal.from_cards(Rules(players=4), dealer=0, hands=hands, turnup="JC")
    for _ in range(4):
        deal.apply("pass")
    deal.apply("trump H alone" if alone else "trump H")
    assert deal.phase is Phase.PLAY and deal.maker == 1
    return deal


def test_a_maker_with_all_the_top_trumps_takes_every_trick() -> None:
    """JH JD AH KH QH: whatever the maker leads, the makers take all five."""
    for alone in (False, True):
        deal = four_handed_hearts("JH JD AH KH QH", alone)
        sol = solve(deal)
        assert sol.to_move == 1
        assert sol.values == {a: 5 for a in deal.legal_actions()}
        assert sol.makers_tricks == 5 and sol.defenders_tricks == 0
        assert sol.makers == ((1,) if alone else (1, 3))


def test_pull_the_last_trump_before_cashing_the_ace() -> None:
    """Two-handed, spades trump, two tricks left: the right bower first takes both;
    the ace of hearts first is ruffed and the opponent's king of diamonds is then led
    into the bower: one trick."""
    hands = [card_mask(parse_cards("JS AH")), card_mask(parse_cards("9S KD"))]
    pos = solve_position(hands, 3, makers=0b01, leader=0)
    assert pos.to_move == 0
    assert pos.values == {int(Card.parse("JS")): 2, int(Card.parse("AH")): 1}
    assert pos.value == 2
    # the defender to move after the ace: it must ruff (void in hearts): the maker takes 1
    after = solve_position([card_mask(parse_cards("JS")), hands[1]], 3, makers=0b01,
                           leader=0, trick=[int(Card.parse("AH"))])
    assert after.to_move == 1 and after.values == {int(Card.parse("9S")): 1,
                                                   int(Card.parse("KD")): 2}
    assert after.value == 1


def test_left_bower_is_a_trump_and_the_joker_the_highest() -> None:
    """Hearts trump: the jack of diamonds follows hearts and beats the ace; the joker
    beats both bowers."""
    jd, ah, jk, jh = (int(Card.parse(c)) for c in ("JD", "AH", "JK", "JH"))
    # seat 1 (defender) must follow the led ace of hearts with the left bower and wins
    pos = solve_position([0, 1 << jd | 1 << int(Card.parse("AD"))], 2, makers=0b01,
                         leader=0, trick=[ah])
    assert pos.values == {jd: 0}
    pos = solve_position([1 << jh, 1 << jk], 2, makers=0b01, leader=0)
    assert pos.values == {jh: 0} and pos.value == 0


def test_equivalent_cards_get_the_same_value_and_all_are_listed() -> None:
    """Cards made adjacent by the played ones are one choice, but each is listed."""
    deal = four_handed_hearts("JH JD AH KH QH")
    sol = solve(deal)
    assert len(sol.values) == 5
    # four-handed, all legal first leads of a random deal are listed
    rng = random.Random(3)
    for _ in range(20):
        deal = random_play_deal(Rules(players=4), rng)
        assert list(solve(deal).values) == deal.legal_actions()


def test_five_handed_partner_and_forced_alone() -> None:
    """Five-handed: the called card's holder is the maker's partner; a card in the kitty
    leaves the maker alone (scored and solved as alone)."""
    rules = Rules(players=5)
    rng = random.Random(9)
    found = {"partner": False, "alone": False}
    while not all(found.values()):
        deal = Deal.random(rules, dealer=0, seed=rng)
        deal.apply("order")
        deal.apply(deal.legal_action_ids()[0])  # the dealer's discard
        assert deal.phase is Phase.CALL_PARTNER
        maker = deal.maker
        assert maker is not None
        kitty = [c for c in deal.kitty if not deal.hand_mask(maker) >> c & 1]
        held = [c for s in range(5) if s != maker for c in range(33)
                if deal.hand_mask(s) >> c & 1]
        want = "alone" if not found["alone"] and kitty else "partner"
        card = kitty[0] if want == "alone" else held[0]
        deal.apply(Action.call(card))
        assert phase_of(deal) is Phase.PLAY
        sol = solve(deal)
        if want == "alone":
            assert deal.alone and deal.partner is None and sol.makers == (maker,)
        else:
            assert deal.partner is not None and sol.makers == tuple(sorted({maker,
                                                                             deal.partner}))
        found[want] = True
        for _ in range(15):
            deal.apply(rng.choice(deal.legal_action_ids()))
        check_against_minimax(deal)


# -- the solve --json object -----------------------------------------------------------------
def stopped_record() -> dict[str, Any]:
    deal = random_play_deal(Rules(players=4), random.Random(21), alone=False)
    for _ in range(6):  # one trick and two cards of the next
        deal.apply(deal.legal_action_ids()[0])
    return deal.to_record().to_json()


def test_solve_record_prints_the_records_object() -> None:
    """``{"to_move": seat, "values": {"play JH": tricks, ...}, "best": "play JH"}``."""
    record = stopped_record()
    out = solve_record(record)
    assert set(out) == {"to_move", "values", "best"}
    deal = Deal.from_record(record)
    assert out["to_move"] == deal.to_move
    assert list(out["values"]) == [str(a) for a in deal.legal_actions()]
    assert all(isinstance(v, int) and 0 <= v <= 4 for v in out["values"].values())
    assert out["values"][out["best"]] == max(out["values"].values())
    assert json.loads(json.dumps(out)) == out
    assert out == solve(deal).to_json()
    expected = minimax_values(deal) if active_cards(deal) <= 12 else None
    if expected is not None:
        assert out["values"] == {str(a): v for a, v in expected.items()}


def test_solve_record_from_the_first_lead_and_mid_trick() -> None:
    """A record stopped at the first lead, and one stopped mid-trick."""
    deal = four_handed_hearts("JH JD AH KH QH")
    out = solve_record(deal.to_record())
    assert out == {"to_move": 1,
                   "values": {"play JD": 5, "play QH": 5, "play KH": 5, "play AH": 5,
                              "play JH": 5},
                   "best": "play JD"}
    deal.apply("play AH")
    out = solve_record(deal.to_record())
    assert out["to_move"] == 2
    assert out["values"] == {"play 9S": 0, "play TS": 0, "play QS": 0, "play KS": 0,
                             "play AS": 0}


def test_solve_record_refuses_a_record_not_in_play() -> None:
    """Bidding, a finished deal and a thrown-in deal are refused with a sentence."""
    record = stopped_record()
    bidding = dict(record, actions=[])
    with pytest.raises(ValueError, match="play phase") as info:
        solve_record(bidding)
    assert "bidding, round 1" in str(info.value)
    deal = Deal.from_record(record)
    while not deal.is_over:
        deal.apply(deal.legal_action_ids()[0])
    with pytest.raises(ValueError, match="over"):
        solve_record(deal.to_record())
    thrown = Deal.random(Rules(players=4), dealer=0, seed=1)
    while not thrown.is_over:
        thrown.apply("pass")
    with pytest.raises(ValueError, match="over"):
        solve_record(thrown.to_record())
    with pytest.raises(ValueError, match="play phase"):
        solve(Deal.from_record(bidding))
    with pytest.raises(ValueError, match="action 1 "):
        solve_record(dict(record, actions=["play 9H"]))


def test_bench_solver_reports_median_and_p99() -> None:
    """A tiny run of the benchmark: the report's shape."""
    report = bench_solver(deals=6, seed=2)
    assert report["deals"] == 6 and report["alone_deals"] == 3
    assert report["median_us"] > 0 and report["p99_us"] >= report["median_us"]
    for mode in ("all_values", "value_only", "solve_api"):
        assert report[mode]["all"]["deals"] == 6
        assert report[mode]["median_nodes"]["partnered"] > 0
    json.dumps(report)


def test_without_a_writable_cache_a_kernel_compiles_with_one_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """numba finds no cache locator (RuntimeError) when no cache directory is writable:
    the kernel is then compiled without a cache, and the package says so once."""
    import numba

    from euchre import _numba

    class NoLocator(_numba._KeyedCache):
        def __init__(self, py_func: Any) -> None:
            raise RuntimeError("cannot cache function 'f': no locator available for file")

    monkeypatch.setattr(_numba, "_KeyedCache", NoLocator)
    monkeypatch.setattr(_numba, "uncached", [])

    def double(x: int) -> int:
        return 2 * x

    def triple(x: int) -> int:
        return 3 * x

    with pytest.warns(numba.core.errors.NumbaWarning, match="no writable cache"):
        compiled = _numba.jit_signature("int64(int64)")(double)
    assert compiled(21) == 42
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _numba.jit_signature("int64(int64)")(triple)(2) == 6
    assert _numba.uncached == ["double", "triple"]


def test_solve_position_refuses_a_finished_position() -> None:
    """No card left to play: a ValueError, with either search."""
    for all_values in (True, False):
        with pytest.raises(ValueError, match="holds no card"):
            solve_position([0, 0, 0, 0], 0, 0b0101, 0, all_values=all_values)


def test_solves_in_concurrent_threads_agree_with_sequential_solves() -> None:
    """The web server runs bots in worker threads: concurrent solves must not share the
    kernel's working memory (a shared table once gave wrong answers and crashes)."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(77)
    deals = [random_play_deal(Rules(players=4), rng) for _ in range(40)]
    expected = [solve(d).values for d in deals]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(5):
            assert list(pool.map(lambda d: solve(d).values, deals)) == expected
