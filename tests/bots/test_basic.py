"""The ``basic`` bot: always legal, follows its rules of thumb, and beats random play."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Action, Deal, Phase, Rules, RulesError
from euchre.bots import Bot, make_bot, play_game
from euchre.bots.basic import BasicBot, hand_value, march_value
from euchre.cards import Suit, parse_cards
from euchre.deal import Observation


# -- helpers --------------------------------------------------------------------------------
def _deal(rules: Rules, dealer: int, hands: Sequence[str], turnup: str,
          actions: Sequence[str] = (), dummy: str | None = None) -> Deal:
    deal = Deal.from_cards(rules, dealer, hands, turnup, dummy=dummy)
    for a in actions:
        deal.apply(a)
    return deal


def _act(deal: Deal, seed: int = 0) -> str:
    """What a basic bot does for the seat to move, as RECORDS text."""
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    action = BasicBot(seed).act(obs)
    assert action in obs.legal_actions
    return str(action)


def _all_rules() -> Iterator[Rules]:
    """Every variant with every option the rules allow (a pack big enough)."""
    for players, deck, joker, turnup, stick, take_up, defend in itertools.product(
        (2, 3, 4, 5), (24, 28, 32), (False, True), ("dealer_names", "suit:H"),
        (False, True), (False, True), (False, True),
    ):
        if turnup != "dealer_names" and not joker:
            continue
        try:
            yield Rules(players=players, deck=deck, joker=joker, joker_turnup=turnup,
                        stick_the_dealer=stick, dealer_must_take_up=take_up,
                        defend_alone=defend and players in (3, 4))
        except RulesError:
            continue


class _Checked:
    """Wraps a bot: asserts every answer is legal and records the phases it acted in."""

    def __init__(self, bot: Bot, phases: set[Phase]) -> None:
        self.bot = bot
        self.name = bot.name
        self.phases = phases

    def act(self, observation: Observation) -> Action:
        action = self.bot.act(observation)
        assert action in observation.legal_actions, (action, observation.legal_actions)
        self.phases.add(observation.phase)
        return action


def _play_checked(rules: Rules, deal: Deal, rng: random.Random, phases: set[Phase]) -> None:
    """Play a deal to its end with a mix of basic and random bots, all checked."""
    bots = [
        _Checked(make_bot("basic" if rng.random() < 0.6 else "random", rng.randrange(1000)),
                 phases)
        for _ in range(rules.players)
    ]
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        action = bots[seat].act(deal.observation(seat))
        deal.apply(action)


# -- always legal ----------------------------------------------------------------------------
def test_basic_is_legal_in_every_phase_of_every_variant_and_option() -> None:
    """Every answer is legal, and every phase of every variant comes up (RULES §4-§8)."""
    rng = random.Random(2024)
    seen: dict[int, set[Phase]] = {n: set() for n in (2, 3, 4, 5)}
    for rules in _all_rules():
        for _ in range(12):
            scores = [rng.randrange(rules.target) for _ in range(rules.players)]
            deal = Deal.random(rules, rng.randrange(rules.players), rng.randrange(1 << 30),
                               scores=scores)
            _play_checked(rules, deal, rng, seen[rules.players])
    common = {Phase.BID_TURNUP, Phase.BID_SUIT, Phase.NAME_TRUMP, Phase.EXCHANGE, Phase.PLAY}
    assert seen[2] >= common
    assert seen[3] >= common | {Phase.DUMMY, Phase.DEFEND}
    assert seen[4] >= common | {Phase.DEFEND}
    assert seen[5] >= common | {Phase.CALL_PARTNER}


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 5]),
    deck=st.sampled_from([24, 28, 32]),
    joker=st.booleans(),
    stick=st.booleans(),
    take_up=st.booleans(),
    seed=st.integers(0, 2**31),
)
def test_basic_only_plays_legal_actions(players: int, deck: int, joker: bool, stick: bool,
                                        take_up: bool, seed: int) -> None:
    """A whole deal of basic bots under any rules: every action is one of the legal ones."""
    try:
        rules = Rules(players=players, deck=deck, joker=joker, stick_the_dealer=stick,
                      dealer_must_take_up=take_up)
    except RulesError:
        return
    deal = Deal.random(rules, seed % players, seed)
    bots = [_Checked(BasicBot(seed + s), set()) for s in range(players)]
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].act(deal.observation(seat)))
    assert deal.result.complete


def test_basic_is_deterministic_for_a_seed() -> None:
    """The same seeds give the same game, move for move."""
    def run() -> list[str]:
        game = play_game(Rules(players=3), [BasicBot(s) for s in range(3)], seed=9)
        return [str(a) for d in game.deals for a in d.actions]

    assert run() == run()


def test_basic_needs_a_legal_action() -> None:
    """Asked out of turn (no legal action), the bot refuses instead of inventing one."""
    deal = Deal.random(Rules(players=4), 0, 1)
    with pytest.raises(ValueError, match="no legal action"):
        BasicBot(0).act(deal.observation(0))  # seat 1 is to move


# -- bidding -------------------------------------------------------------------------------
FOUR = Rules(players=4)
_REST4 = ["TC JC QC KC AC", "9D TD QD KD AD", "9S TS JS QS KS"]


def test_orders_alone_with_both_bowers_the_trump_ace_and_an_off_ace() -> None:
    """A hand that can march goes alone (RULES §4)."""
    deal = _deal(FOUR, 3, ["JH JD AH AS 9C", *_REST4], "9H")
    assert _act(deal) == "order alone"


def test_passes_a_hand_without_trumps() -> None:
    deal = _deal(FOUR, 3, ["9C TS KD QD AS", "JH JD AH KH TH", "TC JC QC KC AC",
                           "9D TD AD 9S JS"], "9H")
    assert _act(deal) == "pass"


def test_orders_a_good_hand_but_not_alone() -> None:
    """Right bower, trump ace, an off ace: worth a bid, not a lone hand."""
    deal = _deal(FOUR, 3, ["JH AH TH AS 9C", "JD KH QH TC JC", "QC KC AC 9D TD",
                           "QD KD AD 9S TS"], "9H")
    assert _act(deal) == "order"


def test_the_turnup_to_the_partner_is_a_plus_and_to_an_opponent_a_minus() -> None:
    """RULES §4-§5: the dealer takes the turn-up; a borderline hand orders it to its partner."""
    hand = "JH KH TC AS 9D"
    others = ["JD QH 9C JC QC", "KC AC TD QD KD", "AD TS JS QS KS"]
    to_partner = _deal(FOUR, 2, [hand, *others], "AH", ["pass"])
    to_opponent = _deal(FOUR, 1, [hand, *others], "AH", ["pass", "pass"])
    assert to_partner.to_move == 0 and to_opponent.to_move == 0
    assert _act(to_partner) == "order"
    assert _act(to_opponent) == "pass"


def test_never_goes_alone_two_handed() -> None:
    """RULES §4: no going alone two-handed; the strongest hand simply orders."""
    deal = _deal(Rules(players=2), 1, ["JH JD AH KH AS", "9C TC JC QC KC"], "QH")
    assert _act(deal) == "order"


def test_round_two_names_its_best_suit() -> None:
    """RULES §4: the turned-down suit is out; it names the suit its hand is long in."""
    deal = _deal(FOUR, 3, ["JS JC AS KS 9D", "TC QC KC AC 9H", "TD QD KD AD TH",
                           "QS 9C JD JH AH"], "9S", ["pass"] * 4)
    assert deal.phase is Phase.BID_SUIT
    # spades were turned down: clubs (right and left bower in JC, JS) are next best
    assert _act(deal) in ("trump C", "trump C alone")


def test_stuck_dealer_names_a_suit() -> None:
    """Stick the dealer (RULES §4): the dealer may not pass and names its best suit."""
    rules = Rules(players=4, stick_the_dealer=True)
    deal = _deal(rules, 0, ["TS 9S KD QD AH", "9C TC JC QC KC", "AC 9D TD JD AD",
                            "JS QS KS AS TH"], "9H", ["pass"] * 7)
    assert deal.phase is Phase.BID_SUIT and deal.to_move == 0
    assert _act(deal) in ("trump D", "trump S")


def test_dealer_names_trump_for_a_turned_up_joker() -> None:
    """RULES §3: a turned-up joker; the dealer names its strongest suit."""
    rules = Rules(players=4, joker=True)
    deal = Deal.from_cards(rules, 0, ["JS JC AS KS 9D", "TC QC KC AC 9H", "TD QD KD AD TH",
                                      "QS 9C JD JH AH"], "JK")
    assert deal.phase is Phase.NAME_TRUMP
    assert _act(deal) in ("trump S", "trump S alone")


def test_hand_and_march_values_rank_hands() -> None:
    strong = parse_cards("JH JD AH AS 9C")
    weak = parse_cards("9C TS KD QH AS")
    assert hand_value(strong, Suit.HEARTS) > 3 > hand_value(weak, Suit.HEARTS)
    assert march_value(strong, Suit.HEARTS) >= BasicBot.alone_bar[4]
    assert march_value(parse_cards("JD AH KH AS 9C"), Suit.HEARTS) == 0  # no right bower


# -- exchange, dummy, call, defence ------------------------------------------------------------
def test_dealer_discards_to_void_a_suit() -> None:
    """RULES §5: the dealer throws its lowest non-trump, a singleton first."""
    deal = _deal(FOUR, 0, ["JH AH 9C TC KD", "JC QC KC AC 9D", "TD JD QD AD 9H",
                           "9S TS JS QS KS"], "QH", ["order"])
    assert deal.phase is Phase.EXCHANGE
    assert _act(deal) == "discard KD"


def test_dealer_keeps_aces_and_trumps() -> None:
    deal = _deal(FOUR, 0, ["JH AH 9C AS AD", *_REST4[:1], "9D TD QD KD TH",
                           "9S TS JS QS KS"], "QH", ["order"])
    assert _act(deal) == "discard 9C"
    only_ace = _deal(FOUR, 0, ["JH JD AH KH AS", *_REST4], "QH", ["order"])
    assert _act(only_ace) == "discard AS"  # an off ace before any trump


@pytest.mark.parametrize("take_up", [False, True])
def test_dealer_never_discards_the_turnup_when_it_must_take_it_up(take_up: bool) -> None:
    """dealer_must_take_up (RULES §5): with five higher trumps the 9 still stays."""
    rules = Rules(players=4, dealer_must_take_up=take_up)
    deal = _deal(rules, 0, ["JH JD AH KH QH", *_REST4], "9H", ["order"])
    action = _act(deal)
    if take_up:
        assert action != "discard 9H" and action == "discard QH"
    else:
        assert action == "discard 9H"  # declining the exchange: the lowest trump goes


def test_dummy_merge_keeps_the_best_five() -> None:
    """RULES §6: the three-handed maker keeps trumps, then aces, from hand and dummy."""
    rules = Rules(players=3)
    deal = _deal(rules, 2, ["JH 9C TC 9D TD", "QC KC AC QD KD", "9S TS JS QS 9H"], "TH",
                 ["order", "discard 9S"], dummy="JD AH KH AS KS")
    assert deal.phase is Phase.DUMMY
    while deal.phase is Phase.DUMMY:
        deal.apply(_act(deal))
    kept = set(deal.hand(0))
    assert kept == set(parse_cards("JH JD AH KH AS"))


def test_calls_the_right_bower_when_it_lacks_it() -> None:
    """RULES §6: five-handed, the maker calls the highest trump it does not hold."""
    rules = Rules(players=5)
    hands = ["JD AH KH AS 9C", "JH QH TH 8H 9H", "TC JC QC KC AC",
             "8D 9D TD QD KD", "8S 9S TS JS QS"]
    deal = _deal(rules, 4, hands, "AD", ["pass"] * 5 + ["trump H"])
    assert deal.phase is Phase.CALL_PARTNER
    assert _act(deal) == "call JH"


def test_calls_the_joker_first_and_skips_what_it_holds() -> None:
    rules = Rules(players=5, joker=True)
    hands = ["JD AH KH AS 9C", "JH QH TH 8H 9H", "TC JC QC KC AC",
             "8D 9D TD QD KD", "8S 9S TS JS QS"]
    deal = _deal(rules, 4, hands, "AD", ["pass"] * 5 + ["trump H"])
    assert _act(deal) == "call JK"
    holding = _deal(rules, 4, ["JK JH AH KH AS", "JD QH TH 8H 9H", "TC JC QC KC AC",
                               "8D 9D TD QD KD", "8S 9S TS JS QS"], "AD",
                    ["pass"] * 5 + ["trump H"])
    assert _act(holding) == "call JD"


def test_defends_alone_only_with_a_commanding_holding() -> None:
    """RULES §7: three-handed, a defender with the top trumps defends alone; others pass."""
    rules = Rules(players=3)
    hands = ["9C TC 9D TD QH", "JH JD AH KH AS", "QC KC AC QD KD"]
    deal = _deal(rules, 2, hands, "TH", ["order", "discard QD"], dummy="9S TS JS QS KS")
    while deal.phase is Phase.DUMMY:
        deal.apply(_act(deal))
    assert deal.phase is Phase.DEFEND and deal.to_move == 1
    assert _act(deal) == "defend alone"
    weak = _deal(rules, 2, ["JH JD AH KH AS", "9C TC 9D TD QH", "QC KC AC QD KD"], "TH",
                 ["order", "discard QD"], dummy="9S TS JS QS KS")
    while weak.phase is Phase.DUMMY:
        weak.apply(_act(weak))
    assert weak.phase is Phase.DEFEND and weak.to_move == 1
    assert _act(weak) == "pass"


# -- play -------------------------------------------------------------------------------------
def _hearts(hands: Sequence[str], maker: int, plays: Sequence[str] = ()) -> Deal:
    """Four-handed, seat 3 deals, the 9D is turned down and ``maker`` names hearts.

    Seat 0 leads the first trick (RULES §8); ``plays`` are applied after that.
    """
    bids = ["pass"] * (4 + maker) + ["trump H"]
    return _deal(FOUR, 3, hands, "9D", [*bids, *plays])


def test_wins_as_cheaply_as_it_can() -> None:
    """Holding the ace, the king is as sure as the ace: it takes the trick with the king."""
    deal = _hearts(["9S TC QC KD QD", "QS 9C JC AC TD", "AS KS KC AD JH",
                    "TS JS JD AH KH"], 0, ["9S", "QS"])
    assert deal.to_move == 2
    assert _act(deal) == "play KS"


def test_plays_a_sure_winner_when_the_partner_is_not_winning() -> None:
    deal = _hearts(["9S TC QC KD QD", "KS 9C JC AC TD", "AS QS KC AD JH",
                    "TS JS JD AH KH"], 0, ["9S", "KS"])
    assert _act(deal) == "play AS"


def test_lets_the_partners_sure_trick_stand() -> None:
    """The partner's ace of a fresh suit holds: no trumping it, throw off low instead."""
    deal = _hearts(["AS TC QC KD QD", "9S TS JC AC TD", "9H TH KC 9C AD",
                    "QS KS JS JD AH"], 0, ["AS", "9S"])
    assert deal.to_move == 2
    assert _act(deal) == "play 9C"


def test_trumps_an_opponents_trick_it_cannot_otherwise_win() -> None:
    deal = _hearts(["QS TC QC KD QD", "AS TS JC AC TD", "9H TH KC 9C AD",
                    "9S KS JS JD AH"], 0, ["QS", "AS"])
    assert _act(deal) == "play 9H"  # the lowest trump will do: an overruff is unlikely


def test_follows_suit() -> None:
    """RULES §2, §8: it follows diamonds with the king; the left bower is not a diamond."""
    deal = _hearts(["QD TC QC AS KS", "KD JD 9C JC AC", "TD AD KC 9S TS",
                    "JS QS 9H TH AH"], 0, ["QD"])
    assert deal.to_move == 1
    assert _act(deal) == "play KD"


def test_throws_off_its_lowest_card_when_it_cannot_win() -> None:
    deal = _hearts(["AS 9S JS TC QC", "KS QS TS JC KC", "9C AC KD AD TD",
                    "QD JD 9H TH AH"], 0, ["AS"])
    assert deal.to_move == 1
    assert _act(deal) == "play TS"  # must follow spades and cannot beat the ace
    deal.apply("TS")
    assert _act(deal) == "play 9C"  # void, no trump: the lowest card, keeping the aces


def test_maker_leads_trump_with_the_top_trump() -> None:
    deal = _hearts(["JH AH 9S TC AC", "KS QS TS JC KC", "9C QC KD AD TD",
                    "QD JD JS AS KH"], 0)
    assert deal.to_move == 0 and deal.maker == 0
    assert _act(deal) == "play JH"


def test_defender_cashes_an_off_ace_rather_than_lead_trump() -> None:
    deal = _hearts(["AC JH 9S TD QD", "KS QS TS JC KC", "9C QC KD AD TC",
                    "JD JS AS KH AH"], 1)
    assert deal.to_move == 0 and deal.maker == 1
    assert _act(deal) == "play AC"


def test_counts_the_cards_played() -> None:
    """Once the ace of clubs has fallen, the king is the highest club: it leads it."""
    deal = _hearts(["TC KC JH TD QD", "AC KS QS TS AD", "JD 9S JS KD QH",
                    "9C QC AH KH AS"], 1, ["TC", "AC", "JD", "9C", "9S", "AS", "JH", "TS"])
    assert deal.tricks[1].winner == 0 and deal.to_move == 0
    assert _act(deal) == "play KC"


def test_does_not_cash_into_a_known_ruff() -> None:
    """An opponent showed out of clubs: the king, though the highest club, waits."""
    deal = _hearts(["TC KC JH TD QD", "AC KS QS TS AD", "9C QC KD JS JD",
                    "AH KH QH 9S AS"], 1, ["TC", "AC", "9C", "AH", "9S", "JH", "TS", "JS"])
    assert deal.tricks[1].winner == 0 and deal.to_move == 0
    assert _act(deal) != "play KC"


# -- strength --------------------------------------------------------------------------------
def test_basic_pair_beats_a_random_pair() -> None:
    """A fixed-seed 40-game match, four-handed: the basic pair wins nearly all of it."""
    wins = 0
    for g in range(40):
        side = g % 2
        bots: list[Bot] = [make_bot("basic" if s % 2 == side else "random", seed=g * 4 + s)
                           for s in range(4)]
        game = play_game(FOUR, bots, seed=g)
        wins += game.winners[0] % 2 == side
    assert wins >= 34


def test_basic_beats_random_in_every_variant() -> None:
    """A short fixed-seed run per variant: clearly better than its fair share."""
    for players, fair in ((2, 0.5), (3, 1 / 3), (5, 0.2)):
        rules = Rules(players=players)
        share = 0.0
        games = 30
        for g in range(games):
            me = g % players
            bots: list[Bot] = [make_bot("basic" if s == me else "random", seed=g * 8 + s)
                               for s in range(players)]
            game = play_game(rules, bots, seed=g)
            share += game.winners.count(me) / len(game.winners)
        assert share / games > fair + 0.15, players
