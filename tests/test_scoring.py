"""Every row of the RULES §9 table, in every variant, from explicit cards and scripted play.

Each case names the seat that wins each trick.  The cards are then laid out so that the
play is forced to go that way: in tricks 1-4 every active player follows the led suit
and the planned winner holds that trick's best card; in the last trick (when no suit has
a card for everyone left) the planned winner ruffs with a trump and the others hold no
trump.  The test deals exactly those cards (``Deal.from_cards``), applies the scripted
bidding, plays the scripted cards seat by seat, and checks each trick's winner, the
tricks, ``deal.result.points`` and the RECORDS replay object ``deal.result.to_json()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from euchre.cards import Card, Suit, cards_of, pack_mask
from euchre.deal import Deal, Phase
from euchre.rules import Rules

TRUMP = Suit.HEARTS
SIDE_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


@dataclass(frozen=True)
class Row:
    """One case: a row of the §9 table and the deal that produces it."""

    name: str
    players: int
    steps: tuple[str, ...]
    """``"<seat> <action>"`` from the first bid to the first lead; ``discard-dummy``,
    ``call-partner <seat>`` and ``call-kitty`` are filled in from the laid-out cards."""
    winners: tuple[int, ...]
    points: tuple[int, ...]
    maker: int = 0
    alone: bool = False
    lone_defender: int | None = None
    partner: int | None = None
    out: tuple[int, ...] = ()
    leader: int = 0
    turnup: str = "9S"
    defend_alone: bool | None = None


def named(players: int, alone: bool = False) -> tuple[str, ...]:
    """All pass in round 1 (the dealer is the last seat), then seat 0 names hearts."""
    passes = tuple(f"{s} pass" for s in range(players))
    return (*passes, "0 trump H alone" if alone else "0 trump H")


def count(players: int, winners: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(winners.count(s) for s in range(players))


DUMMY = ("0 discard-dummy",)
NOBODY_DEFENDS_ALONE = ("1 pass", "2 pass")

ROWS = [
    # -- two-handed [002]: made maker 1, march maker 2, euchred defender 2 ------------------
    Row("two-handed: made with 3 tricks", 2, named(2), (0, 1, 0, 1, 0), (1, 0)),
    Row("two-handed: made with 4 tricks", 2, named(2), (0, 0, 1, 0, 0), (1, 0)),
    Row("two-handed: march", 2, named(2), (0, 0, 0, 0, 0), (2, 0)),
    Row("two-handed: euchred with 2 tricks", 2, named(2), (1, 0, 1, 0, 1), (0, 2)),
    Row("two-handed: euchred with 0 tricks", 2, named(2), (1, 1, 1, 1, 1), (0, 2)),
    Row("two-handed: dealer takes it up and is euchred", 2,
        ("0 pass", "1 order", "1 discard 9H"), (1, 0, 0, 0, 1), (2, 0), maker=1, turnup="9H"),
    Row("two-handed: dealer takes it up, march", 2,
        ("0 pass", "1 order", "1 discard 9H"), (1, 1, 1, 1, 1), (0, 2), maker=1, turnup="9H"),
    # -- four-handed, partners [000]: makers 1 / 2, defenders 2 -----------------------------
    Row("four-handed partners: made with 3 tricks", 4, named(4), (0, 2, 0, 1, 3), (1, 0, 1, 0)),
    Row("four-handed partners: made with 4 tricks", 4, named(4), (2, 2, 0, 0, 1), (1, 0, 1, 0)),
    Row("four-handed partners: march", 4, named(4), (0, 0, 2, 0, 2), (2, 0, 2, 0)),
    Row("four-handed partners: euchred with 2 tricks", 4, named(4), (1, 0, 3, 2, 1),
        (0, 2, 0, 2)),
    Row("four-handed partners: euchred with 0 tricks", 4, named(4), (1, 1, 3, 3, 1),
        (0, 2, 0, 2)),
    Row("four-handed partners: dealer's partner assists, march", 4,
        ("0 pass", "1 order", "3 discard 9H"), (1, 3, 1, 3, 1), (0, 2, 0, 2),
        maker=1, turnup="9H"),
    # -- four-handed, maker alone [000]: 1 / 4 / 2 ------------------------------------------
    Row("four-handed alone: made with 3 tricks", 4, named(4, alone=True), (0, 0, 0, 1, 3),
        (1, 0, 1, 0), alone=True, out=(2,)),
    Row("four-handed alone: made with 4 tricks", 4, named(4, alone=True), (0, 1, 0, 0, 0),
        (1, 0, 1, 0), alone=True, out=(2,)),
    Row("four-handed alone: march", 4, named(4, alone=True), (0, 0, 0, 0, 0), (4, 0, 4, 0),
        alone=True, out=(2,)),
    Row("four-handed alone: euchred with 2 tricks", 4, named(4, alone=True), (1, 0, 3, 0, 1),
        (0, 2, 0, 2), alone=True, out=(2,)),
    Row("four-handed alone: euchred with 0 tricks", 4, named(4, alone=True), (1, 3, 1, 3, 3),
        (0, 2, 0, 2), alone=True, out=(2,)),
    Row("four-handed alone: dealer's partner alone, march", 4, ("0 pass", "1 order alone"),
        (1, 1, 1, 1, 1), (0, 4, 0, 4), maker=1, alone=True, out=(3,), turnup="9H"),
    Row("four-handed alone: dealer's left sits out, march", 4,
        ("0 pass", "1 pass", "2 order alone", "3 discard 9H"), (2, 2, 2, 2, 2), (4, 0, 4, 0),
        maker=2, alone=True, out=(0,), leader=1, turnup="9H"),
    # -- four-handed, lone defender (option) [decided]: euchre worth 4 ----------------------
    Row("four-handed lone defender: euchres with 3 tricks", 4, (*named(4), "1 defend alone"),
        (0, 1, 1, 2, 1), (0, 4, 0, 4), lone_defender=1, out=(3,), defend_alone=True),
    Row("four-handed lone defender: euchres with 5 tricks", 4, (*named(4), "1 defend alone"),
        (1, 1, 1, 1, 1), (0, 4, 0, 4), lone_defender=1, out=(3,), defend_alone=True),
    Row("four-handed lone defender: dealer defends alone and euchres", 4,
        (*named(4), "1 pass", "3 defend alone"), (3, 3, 3, 0, 0), (0, 4, 0, 4),
        lone_defender=3, out=(1,), defend_alone=True),
    Row("four-handed lone defender: makers made", 4, (*named(4), "1 defend alone"),
        (0, 2, 1, 0, 1), (1, 0, 1, 0), lone_defender=1, out=(3,), defend_alone=True),
    Row("four-handed lone defender: makers march", 4, (*named(4), "1 defend alone"),
        (0, 0, 0, 0, 0), (2, 0, 2, 0), lone_defender=1, out=(3,), defend_alone=True),
    Row("four-handed lone defender against a lone maker: euchred", 4,
        (*named(4, alone=True), "1 defend alone"), (1, 1, 0, 1, 0), (0, 4, 0, 4),
        alone=True, lone_defender=1, out=(2, 3), defend_alone=True),
    Row("four-handed lone defender against a lone maker: made", 4,
        (*named(4, alone=True), "1 defend alone"), (0, 0, 1, 1, 0), (1, 0, 1, 0),
        alone=True, lone_defender=1, out=(2, 3), defend_alone=True),
    Row("four-handed lone defender against a lone maker: march", 4,
        (*named(4, alone=True), "1 defend alone"), (0, 0, 0, 0, 0), (4, 0, 4, 0),
        alone=True, lone_defender=1, out=(2, 3), defend_alone=True),
    # -- three-handed, maker with the dummy [003]: 1 / 3 / each defender 2 ------------------
    Row("three-handed with dummy: made with 3 tricks", 3,
        (*named(3), *DUMMY, *NOBODY_DEFENDS_ALONE), (0, 1, 0, 2, 0), (1, 0, 0)),
    Row("three-handed with dummy: made with 4 tricks", 3,
        (*named(3), *DUMMY, *NOBODY_DEFENDS_ALONE), (0, 0, 0, 2, 0), (1, 0, 0)),
    Row("three-handed with dummy: march", 3,
        (*named(3), *DUMMY, *NOBODY_DEFENDS_ALONE), (0, 0, 0, 0, 0), (3, 0, 0)),
    Row("three-handed with dummy: euchred with 2 tricks", 3,
        (*named(3), *DUMMY, *NOBODY_DEFENDS_ALONE), (0, 1, 2, 1, 0), (0, 2, 2)),
    Row("three-handed with dummy: euchred with 0 tricks (still 2 each)", 3,
        (*named(3), *DUMMY, *NOBODY_DEFENDS_ALONE), (1, 1, 2, 2, 1), (0, 2, 2)),
    Row("three-handed with dummy: dealer takes it up, made", 3,
        ("0 pass", "1 pass", "2 order", "2 discard 9H", "2 discard-dummy", "0 pass", "1 pass"),
        (2, 2, 0, 2, 1), (0, 0, 1), maker=2, turnup="9H"),
    # -- three-handed, maker alone [decided]: 1 / 4 / each defender 2 -----------------------
    Row("three-handed alone: made with 3 tricks", 3,
        (*named(3, alone=True), *NOBODY_DEFENDS_ALONE), (0, 0, 0, 1, 2), (1, 0, 0),
        alone=True, leader=1),
    Row("three-handed alone: march", 3,
        (*named(3, alone=True), *NOBODY_DEFENDS_ALONE), (0, 0, 0, 0, 0), (4, 0, 0),
        alone=True, leader=1),
    Row("three-handed alone: euchred with 2 tricks", 3,
        (*named(3, alone=True), *NOBODY_DEFENDS_ALONE), (1, 0, 2, 0, 1), (0, 2, 2),
        alone=True, leader=1),
    Row("three-handed alone: euchred with 0 tricks (still 2 each)", 3,
        (*named(3, alone=True), *NOBODY_DEFENDS_ALONE), (1, 2, 1, 2, 1), (0, 2, 2),
        alone=True, leader=1),
    # -- three-handed, lone defender [003]: 1 / 3 / 2 each; 4 each if the defenders take 5 --
    Row("three-handed lone defender: made", 3, (*named(3), *DUMMY, "1 defend alone"),
        (0, 1, 0, 0, 1), (1, 0, 0), lone_defender=1, out=(2,)),
    Row("three-handed lone defender: march", 3, (*named(3), *DUMMY, "1 defend alone"),
        (0, 0, 0, 0, 0), (3, 0, 0), lone_defender=1, out=(2,)),
    Row("three-handed lone defender: euchred with 2 tricks", 3,
        (*named(3), *DUMMY, "1 defend alone"), (1, 0, 1, 0, 1), (0, 2, 2),
        lone_defender=1, out=(2,)),
    Row("three-handed lone defender: defenders take all 5, 4 each", 3,
        (*named(3), *DUMMY, "1 defend alone"), (1, 1, 1, 1, 1), (0, 4, 4),
        lone_defender=1, out=(2,)),
    Row("three-handed lone defender: dealer alone takes all 5, 4 each", 3,
        (*named(3), *DUMMY, "1 pass", "2 defend alone"), (2, 2, 2, 2, 2), (0, 4, 4),
        lone_defender=2, out=(1,)),
    # both alone: the maker-alone march (4) and the lone-defender euchre (4 each)
    Row("three-handed both alone: made", 3, (*named(3, alone=True), "1 defend alone"),
        (1, 0, 0, 0, 1), (1, 0, 0), alone=True, lone_defender=1, out=(2,), leader=1),
    Row("three-handed both alone: march", 3, (*named(3, alone=True), "1 defend alone"),
        (0, 0, 0, 0, 0), (4, 0, 0), alone=True, lone_defender=1, out=(2,), leader=1),
    Row("three-handed both alone: euchred with 2 tricks", 3,
        (*named(3, alone=True), "1 defend alone"), (0, 1, 0, 1, 1), (0, 2, 2),
        alone=True, lone_defender=1, out=(2,), leader=1),
    Row("three-handed both alone: defenders take all 5, 4 each", 3,
        (*named(3, alone=True), "1 defend alone"), (1, 1, 1, 1, 1), (0, 4, 4),
        alone=True, lone_defender=1, out=(2,), leader=1),
    # -- five-handed, maker + partner [001]: each 1 / each 2 / each defender 2; 4 if all 5 --
    Row("five-handed partner: made with 3 tricks", 5, (*named(5), "0 call-partner 2"),
        (0, 2, 0, 1, 3), (1, 0, 1, 0, 0), partner=2),
    Row("five-handed partner: made with 4 tricks", 5, (*named(5), "0 call-partner 2"),
        (0, 2, 2, 0, 4), (1, 0, 1, 0, 0), partner=2),
    Row("five-handed partner: march", 5, (*named(5), "0 call-partner 2"),
        (0, 2, 0, 2, 0), (2, 0, 2, 0, 0), partner=2),
    Row("five-handed partner: euchred with 2 tricks", 5, (*named(5), "0 call-partner 2"),
        (1, 0, 3, 2, 4), (0, 2, 0, 2, 2), partner=2),
    Row("five-handed partner: defenders take all 5, 4 each", 5,
        (*named(5), "0 call-partner 2"), (1, 3, 4, 1, 3), (0, 4, 0, 4, 4), partner=2),
    Row("five-handed partner: the dealer is the partner, march", 5,
        ("0 order", "4 discard 9H", "0 call-partner 4"), (0, 4, 4, 0, 0), (2, 0, 0, 0, 2),
        partner=4, turnup="9H"),
    # -- five-handed, maker alone by choice [decided]: 1 / 5 / each defender 2; 4 if all 5 --
    Row("five-handed chosen alone: made with 3 tricks", 5, named(5, alone=True),
        (0, 0, 1, 0, 2), (1, 0, 0, 0, 0), alone=True),
    Row("five-handed chosen alone: march", 5, named(5, alone=True), (0, 0, 0, 0, 0),
        (5, 0, 0, 0, 0), alone=True),
    Row("five-handed chosen alone: euchred with 2 tricks", 5, named(5, alone=True),
        (0, 1, 2, 0, 3), (0, 2, 2, 2, 2), alone=True),
    Row("five-handed chosen alone: defenders take all 5, 4 each", 5, named(5, alone=True),
        (1, 2, 3, 4, 1), (0, 4, 4, 4, 4), alone=True),
    # -- five-handed, maker alone forced (the called card in no hand) [decided] ------------
    Row("five-handed forced alone: made with 3 tricks", 5, (*named(5), "0 call-kitty"),
        (0, 0, 1, 0, 2), (1, 0, 0, 0, 0), alone=True),
    Row("five-handed forced alone: march", 5, (*named(5), "0 call-kitty"), (0, 0, 0, 0, 0),
        (5, 0, 0, 0, 0), alone=True),
    Row("five-handed forced alone: euchred with 2 tricks", 5, (*named(5), "0 call-kitty"),
        (0, 1, 2, 0, 3), (0, 2, 2, 2, 2), alone=True),
    Row("five-handed forced alone: defenders take all 5, 4 each", 5,
        (*named(5), "0 call-kitty"), (1, 2, 3, 4, 1), (0, 4, 4, 4, 4), alone=True),
    Row("five-handed forced alone: called the dealer's discard, march", 5,
        ("0 order", "4 discard 9H", "0 call 9H"), (0, 0, 0, 0, 0), (5, 0, 0, 0, 0),
        alone=True, turnup="9H"),
]

PACKS = [None, (32, True)]
"""The variant's own pack, and 32 cards with the joker."""


# -- laying out the cards --------------------------------------------------------------------


def follows(card: Card) -> Suit:
    """The suit a card follows with hearts trump (RULES §2), computed here."""
    if card == Card.JK or (card.rank_char == "J" and card.suit is TRUMP.same_colour):
        return TRUMP
    assert card.suit is not None
    return card.suit


def power(card: Card) -> int:
    """Rank within its suit, higher is better (RULES §2), computed here."""
    if card == Card.JK:
        return 20
    if card.rank_char == "J" and follows(card) is TRUMP:
        return 19 if card.suit is TRUMP else 18
    return card.rank


def lay_out(
    rules: Rules, row: Row
) -> tuple[list[list[tuple[int, Card]]], list[list[Card]], list[Card] | None]:
    """The scripted tricks, the hands as dealt and the dummy (three-handed)."""
    n = rules.players
    turnup = Card.parse(row.turnup)
    pools: dict[Suit, list[Card]] = {s: [] for s in Suit}
    for card in cards_of(pack_mask(rules.deck, rules.joker)):
        if card != turnup:
            pools[follows(card)].append(card)
    for pool in pools.values():
        pool.sort(key=power, reverse=True)
    tricks: list[list[tuple[int, Card]]] = []
    lead = row.leader
    for number, winner in enumerate(row.winners):
        order = [(lead + k) % n for k in range(n) if (lead + k) % n not in row.out]
        assert winner in order
        fits = [s for s in (TRUMP, *SIDE_SUITS) if len(pools[s]) >= len(order)]
        if fits:  # everyone follows; the winner holds the best card of the suit
            suit = max(fits, key=lambda s: len(pools[s]))
            group = pools[suit][: len(order)]
            del pools[suit][: len(order)]
            rest = iter(group[1:])
            tricks.append([(s, group[0] if s == winner else next(rest)) for s in order])
        else:  # the last trick: the winner ruffs, nobody else holds a trump
            assert number == 4, "the plan needs a ruff before the last trick"
            ruff = pools[TRUMP].pop(0)
            others = [c for s in SIDE_SUITS for c in pools[s]][: len(order) - 1]
            for c in others:
                pools[follows(c)].remove(c)
            rest = iter(others)
            tricks.append([(s, ruff if s == winner else next(rest)) for s in order])
        lead = winner
    hands: list[list[Card]] = [[] for _ in range(n)]
    for trick in tricks:
        for seat, card in trick:
            hands[seat].append(card)
    left = sorted(c for pool in pools.values() for c in pool)
    for seat in row.out:
        hands[seat], left = left[:5], left[5:]
    dummy = None
    if n == 3:
        dummy, left = left[:5], left[5:]
    return tricks, hands, dummy


def expand(step: str, hands: list[list[Card]], dummy: list[Card] | None, deal: Deal) -> list[str]:
    seat, _, action = step.partition(" ")
    if action == "discard-dummy":
        assert dummy is not None
        return [f"{seat} discard {c}" for c in dummy]
    if action.startswith("call-partner"):
        return [f"{seat} call {hands[int(action.split()[1])][0]}"]
    if action == "call-kitty":
        return [f"{seat} call {Card(deal.kitty[0])}"]
    return [step]


# -- the table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("pack", PACKS, ids=["own pack", "32 cards + joker"])
@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_points_of_a_deal(row: Row, pack: tuple[int, bool] | None) -> None:
    """RULES §9: made (3 or 4 tricks), march (5), euchred (fewer than 3), for each row."""
    options: dict[str, Any] = {}
    if pack is not None:
        options["deck"], options["joker"] = pack
    if row.defend_alone is not None:
        options["defend_alone"] = row.defend_alone
    rules = Rules(players=row.players, **options)
    n = rules.players
    tricks, hands, dummy = lay_out(rules, row)
    deal = Deal.from_cards(
        rules, n - 1, hands=[[str(c) for c in h] for h in hands], turnup=row.turnup,
        dummy=None if dummy is None else [str(c) for c in dummy],
    )
    for step in row.steps:
        for text in expand(step, hands, dummy, deal):
            who, _, action = text.partition(" ")
            assert deal.to_move == int(who), (text, deal.phase, deal.to_move)
            deal.apply(action, seat=int(who))
    assert deal.phase is Phase.PLAY
    assert deal.sitting_out == row.out
    assert deal.to_move == row.leader
    for number, trick in enumerate(tricks):
        for seat, card in trick:
            assert deal.to_move == seat
            deal.apply(f"play {card}", seat=seat)
        assert deal.tricks[number].winner == row.winners[number]
    assert deal.is_over
    result = deal.result
    assert result.tricks == count(n, row.winners)
    assert result.points == row.points
    assert result.to_json() == {
        "trump": "H",
        "maker": row.maker,
        "alone": row.alone,
        "lone_defender": row.lone_defender,
        "partner": row.partner,
        "tricks": list(count(n, row.winners)),
        "points": list(row.points),
        "complete": True,
    }
    makers = sum(
        result.tricks[s] for s in range(n)
        if s == row.maker or s == row.partner or (n == 4 and s == (row.maker + 2) % 4)
    )
    assert result.outcome == ("march" if makers == 5 else "made" if makers >= 3 else "euchred")


def test_every_variant_and_column_is_covered() -> None:
    """The table above holds made, march and euchred for every row of RULES §9."""
    seen = {(r.name.split(":")[0], outcome)
            for r in ROWS for outcome in ("made", "march", "euchred", "all 5")
            if outcome in r.name}
    for row_name in ("two-handed", "four-handed partners", "four-handed alone",
                     "three-handed with dummy", "three-handed alone",
                     "three-handed lone defender", "five-handed partner",
                     "five-handed chosen alone", "five-handed forced alone"):
        for outcome in ("made", "march", "euchred"):
            assert (row_name, outcome) in seen, (row_name, outcome)
    for row_name in ("three-handed lone defender", "five-handed partner",
                     "five-handed chosen alone", "five-handed forced alone"):
        assert (row_name, "all 5") in seen


def test_unfinished_deal_scores_nothing_yet() -> None:
    """RECORDS: a deal that stops early replays with ``"complete": false``."""
    deal = Deal.from_cards(Rules(players=2), 1, hands=["9C TC JC QC KC", "AC 9D TD JD QD"],
                           turnup="KD")
    deal.apply("order")
    result = deal.result
    assert (result.complete, result.points, result.outcome) == (False, (0, 0), "unfinished")
    assert result.to_json() == {
        "trump": "D", "maker": 0, "alone": False, "lone_defender": None, "partner": None,
        "tricks": [0, 0], "points": [0, 0], "complete": False,
    }
