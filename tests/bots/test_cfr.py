"""The bidding learned by counterfactual regret (issue 34): the abstraction, the trainer,
its exploitability on games small enough to check, the shipped file and the bidder."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from euchre import Deal, Rules, core
from euchre.actions import ORDER, ORDER_ALONE, PASS
from euchre.bots import make_bot, play_deal
from euchre.bots.cfr import (
    ADOPTED,
    SLOTS,
    CfrExpertBot,
    Strategy,
    StrategyError,
    hand_bucket,
    infoset,
    infoset_of,
    strategy_for,
)
from euchre.bots.modelfiles import rules_key
from euchre.cards import pack_mask
from euchre.cli import app
from euchre.deal import Phase
from euchre.jobs.cfr import (
    TRICKS,
    BiddingGame,
    LeafFit,
    LeafTable,
    Tables,
    nash_conv,
    regret_matching,
    strategy_of,
    table_policy,
    train_rounds,
)
from euchre.scoring import deal_points
from euchre.sides import seats


# -- a toy game whose equilibrium is known ---------------------------------------------------
class BiasedPennies:
    """Matching pennies with unequal stakes, the second player not seeing the first's coin:
    player 0 wins 3 on two heads, 1 on two tails, and loses 2 on a mismatch.  Each
    player's equilibrium plays heads 3/8 of the time (the other is then indifferent:
    3q - 2(1 - q) = -2q + (1 - q) gives q = 3/8), and player 0's value is -1/8."""

    players = 2
    PAY: ClassVar[dict[tuple[int, int], float]] = {
        (0, 0): 3.0, (1, 1): 1.0, (0, 1): -2.0, (1, 0): -2.0}

    def deal(self, seed: int, stream: int) -> tuple[int, ...]:
        return ()

    def node(self, state: tuple[int, ...]) -> tuple[int, int, list[int]] | None:
        if len(state) == 2:
            return None
        return len(state), len(state), [0, 1, -1, -1, -1]  # key: whose coin

    def child(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        return (*state, action)

    def value(self, state: tuple[int, ...], player: int) -> float:
        v = self.PAY[(state[0], state[1])]
        return v if player == 0 else -v


def test_regret_matching_plays_only_available_actions_in_proportion_to_positive_regret(
) -> None:
    assert regret_matching(np.array([2.0, -1.0, 6.0, 9.0, 0.0]), [0, 1, 2, -1, -1]) == [
        0.25, 0.0, 0.75, 0.0, 0.0]


def test_on_a_toy_game_the_average_strategy_nears_the_known_equilibrium() -> None:
    """Exploitability (NashConv) shrinks with the iterations, to near zero, and each
    player's average heads probability approaches 3/8 (worked out by hand above)."""
    game = BiasedPennies()
    tables = Tables.empty(2)
    conv: list[float] = []
    train_rounds(game, tables, 400, 5, seed=3,
                 on_round=lambda t: conv.append(nash_conv(game, [(1.0, ())],
                                                          table_policy(t))))
    assert conv[-1] < conv[9] / 3
    assert conv[-1] < 0.15
    for key in (0, 1):
        heads = tables.strategy[key, 0] / tables.strategy[key].sum()
        assert heads == pytest.approx(3 / 8, abs=0.05)


def test_nash_conv_of_a_pure_strategy_is_what_a_best_response_gains_by_hand() -> None:
    """Both always heads: player 0 gets 3; its best response is heads (3, no gain);
    player 1's best response, tails, takes 2 instead of -3: a gain of 5."""
    def heads(key: int, slots: list[int]) -> list[float]:
        return [1.0, 0.0, 0.0, 0.0, 0.0]

    assert nash_conv(BiasedPennies(), [(1.0, ())], heads) == pytest.approx(5.0)


class FixedDeals(BiddingGame):
    """The bidding of a few fixed deals, chance choosing among them uniformly."""

    def __init__(self, rules: Rules, count: int) -> None:
        super().__init__(rules)
        self.roots = [BiddingGame(rules).deal(7, i) for i in range(count)]

    def deal(self, seed: int, stream: int) -> Any:
        rng = random.Random(f"{seed}/{stream}")
        return rng.choice(self.roots).copy()


def test_on_a_few_two_handed_deals_exploitability_in_the_abstraction_shrinks() -> None:
    game = FixedDeals(Rules(players=2), 3)
    roots = [(1 / 3, r.copy()) for r in game.roots]
    tables = Tables.empty()
    before = nash_conv(game, roots, table_policy(tables))
    train_rounds(game, tables, 60, 10, seed=1)
    after = nash_conv(game, roots, table_policy(tables))
    assert after < before / 2


# -- the abstraction -----------------------------------------------------------------------------
def _swap(card: int, a: int, b: int) -> int:
    """The card with suits ``a`` and ``b`` exchanged."""
    s = card >> 3
    if card == 32 or s not in (a, b):
        return card
    return ((b if s == a else a) << 3) | (card & 7)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), seat=st.integers(0, 3), dealer=st.integers(0, 3))
def test_hands_equal_up_to_the_other_colours_suits_share_a_key(seed: int, seat: int,
                                                               dealer: int) -> None:
    """Swapping the two suits of the colour other than the turn-up's changes no key:
    round 1's (order up, pass, alone) and, trump made in the turn-up's suit, the
    dealer's discard and defending alone."""
    rules = Rules(players=4, defend_alone=True)
    rng = random.Random(seed)
    pack = [c for c in range(33) if pack_mask(24, False) >> c & 1]
    rng.shuffle(pack)
    turnup = pack[0]
    hand = sum(1 << c for c in pack[1:6])
    t = turnup >> 3
    a, b = [s for s in range(4) if s not in (t, t ^ 3)]
    swapped = sum(1 << _swap(c, a, b) for c in pack[1:6])
    legal = {PASS, ORDER, ORDER_ALONE}
    for phase, trump, h, h2 in ((0, -1, hand, swapped), (6, t, hand, swapped),
                                (3, t, hand | 1 << turnup, swapped | 1 << turnup)):
        one = infoset(rules, phase, seat, dealer, h, turnup, trump, 1, False,
                      legal | {110} | {33 + c for c in range(33)})
        two = infoset(rules, phase, seat, dealer, h2, turnup, trump, 1, False,
                      legal | {110} | {33 + c for c in range(33)})
        assert one is not None and two is not None
        assert one[0] == two[0]
        assert [x >= 0 for x in one[1]] == [x >= 0 for x in two[1]]
    assert hand_bucket(hand, t, pack_mask(24, False)) == hand_bucket(
        swapped, t, pack_mask(24, False))


@pytest.mark.parametrize("rules", [
    Rules(players=2), Rules(players=3), Rules(players=4, defend_alone=True), Rules(players=5),
    Rules(players=4, joker=True), Rules(players=4, joker=True, joker_turnup="suit:S"),
    Rules(players=4, stick_the_dealer=True, dealer_must_take_up=True),
    Rules(players=5, joker=True), Rules(players=3, deck=32, joker=True)], ids=repr)
def test_every_decision_before_the_lead_but_the_dummy_has_a_key_with_legal_slots(
        rules: Rules) -> None:
    players = rules.players
    for d in range(30):
        deal = Deal.random(rules, dealer=d % players, seed=d)
        bots = [make_bot("basic", seed=s) for s in range(players)]
        while deal.phase not in (Phase.PLAY, Phase.OVER):
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            found = infoset_of(obs)
            if deal.phase is Phase.DUMMY:
                assert found is None
            else:
                assert found is not None, (deal.phase, obs.legal_actions)
                _key, slots = found
                assert {a for a in slots if a >= 0} <= {a.id for a in obs.legal_actions}
            deal.apply(bots[seat].act(obs).id)


# -- the shipped file and the bidder ------------------------------------------------------------
_STRATEGIES: dict[Rules, Strategy] = {}


def trained(rules: Rules) -> Strategy:
    """A strategy of a few hundred deals of ``rules`` (made once per rules)."""
    if rules not in _STRATEGIES:
        tables = train_rounds(BiddingGame(rules), Tables.empty(), 3, 100, seed=5)
        _STRATEGIES[rules] = strategy_of(tables, {"rules": rules.to_dict()}, 1)
    return _STRATEGIES[rules]


@pytest.fixture(scope="module")
def small_strategy() -> Strategy:
    """A strategy trained on a few hundred four-handed deals."""
    return trained(Rules(players=4))


def test_the_strategy_file_round_trips(small_strategy: Strategy, tmp_path: Path) -> None:
    path = tmp_path / "cfr-4.npz"
    small_strategy.save(path)
    back = Strategy.load(path)
    assert np.array_equal(back.keys, small_strategy.keys)
    assert np.array_equal(back.probabilities, small_strategy.probabilities)
    assert np.array_equal(back.visits, small_strategy.visits)
    assert back.rules == Rules(players=4)
    key = int(back.keys[0])
    found = back.lookup(key)
    assert found is not None and np.array_equal(found, small_strategy.probabilities[0])
    assert back.lookup(key, visits=10**9) is None


def test_a_file_that_is_not_a_strategy_is_refused_in_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, keys=np.zeros(1))
    with pytest.raises(StrategyError, match="cannot read the strategy"):
        Strategy.load(path)


def test_the_four_handed_strategy_is_shipped_and_read_only_when_asked_for() -> None:
    shipped = strategy_for(Rules(players=4))
    assert shipped is not None
    assert shipped.probabilities.shape == (len(shipped.keys), SLOTS)
    assert np.allclose(shipped.probabilities.sum(axis=1), 1.0, atol=1e-3)


def test_the_spec_expert_w_cfr_is_the_cfr_bidder_and_other_options_are_refused() -> None:
    bot = make_bot("expert:8:cfr", seed=1)
    assert isinstance(bot, CfrExpertBot) and bot.samples == 8 and bot.time_budget is None
    with pytest.raises(ValueError, match="expert:WORLDS:OPTION takes cfr"):
        make_bot("expert:8:bold")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_cfr_bidder_takes_only_legal_actions(players: int) -> None:
    """Under every variant, with a strategy trained for it: :func:`play_deal` refuses an
    illegal action, and the strategy took bids."""
    rules = Rules(players=players)
    took = 0
    for d in range(3):
        deal = Deal.random(rules, dealer=d % players, seed=40 + d)
        bots = [CfrExpertBot(s, samples=2, time_budget=None, strategy=trained(rules),
                             visits=1) for s in range(players)]
        play_deal(deal, bots)
        assert deal.is_over
        took += sum(b.learned for b in bots)
    assert took > 0


def test_the_expert_bids_by_the_strategy_only_under_the_rules_where_it_won() -> None:
    """``expert`` and ``expert:W`` bid by the shipped strategy under :data:`ADOPTED`
    (four-handed), by their values elsewhere; ``expert:W:cfr`` wherever a strategy is
    shipped (three-handed too), ``expert:W:nocfr`` nowhere."""
    assert {rules_key(Rules(players=4))} == ADOPTED
    for name in ("expert", "expert:8"):
        bot = make_bot(name, 1)
        assert isinstance(bot, CfrExpertBot) and bot.adopted and bot.name == "expert"
    assert not isinstance(make_bot("expert:8:nocfr", 1), CfrExpertBot)
    assert not make_bot("expert:8:cfr", 1).adopted  # type: ignore[attr-defined]
    for rules, adopted, shipped in ((Rules(players=4), True, True),
                                    (Rules(players=3), False, True),
                                    (Rules(players=4, stick_the_dealer=True), False, False)):
        assert (strategy_for(rules) is not None) == shipped
        took = {"expert:8": 0, "expert:8:cfr": 0}
        for d in range(30):
            deal = Deal.random(rules, dealer=d % rules.players, seed=d)
            obs = deal.observation(deal.to_move or 0)
            for name in took:
                bot = make_bot(name, d)
                assert isinstance(bot, CfrExpertBot)
                took[name] += bot.bid(obs) is not None
        assert (took["expert:8"] > 0) == adopted
        assert (took["expert:8:cfr"] > 0) == shipped


def test_a_strategy_of_other_rules_is_never_played(small_strategy: Strategy) -> None:
    deal = Deal.random(Rules(players=4, stick_the_dealer=True), dealer=0, seed=1)
    bot = CfrExpertBot(1, samples=2, time_budget=None, strategy=small_strategy, visits=1)
    assert bot.bid(deal.observation(1)) is None


def test_the_cfr_bidder_is_deterministic_for_a_seed(small_strategy: Strategy) -> None:
    def bids(seed: int) -> list[str]:
        out = []
        for d in range(12):
            deal = Deal.random(Rules(players=4), dealer=d % 4, seed=d)
            bot = CfrExpertBot(seed, samples=4, time_budget=None, strategy=small_strategy,
                               visits=1)
            while deal.phase in (Phase.BID_TURNUP, Phase.BID_SUIT):
                seat = deal.to_move
                assert seat is not None
                action = bot.act(deal.observation(seat))
                out.append(str(action))
                deal.apply(action.id)
        return out

    assert bids(3) == bids(3)


def test_the_bidder_follows_the_strategy_where_it_knows_the_information_set(
        small_strategy: Strategy) -> None:
    bot = CfrExpertBot(1, samples=2, time_budget=None, strategy=small_strategy, visits=1)
    known = 0
    for d in range(40):
        deal = Deal.random(Rules(players=4), dealer=d % 4, seed=d)
        obs = deal.observation(deal.to_move or 0)
        found = infoset_of(obs)
        assert found is not None
        if small_strategy.lookup(found[0]) is not None:
            known += 1
            assert bot.bid(obs) in obs.legal_actions
    assert known > 0


# -- the command ----------------------------------------------------------------------------------
def _train(out: Path, deals: int) -> None:
    result = CliRunner().invoke(app, ["train", "cfr", "--players", "2", "--deals", str(deals),
                                      "--round", "20", "--units", "2", "--workers", "1",
                                      "--seed", "4", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output


def _tables(folder: Path) -> dict[str, Any]:
    with np.load(folder / "checkpoint-cfr-2.npz") as data:
        return {k: np.array(data[k]) for k in ("regret", "strategy", "visits", "rounds")}


def test_training_stopped_and_resumed_gives_the_tables_of_one_run(tmp_path: Path) -> None:
    _train(tmp_path / "one", 60)
    _train(tmp_path / "two", 20)
    _train(tmp_path / "two", 60)  # the same options but --deals: resumes from round 1
    one, two = _tables(tmp_path / "one"), _tables(tmp_path / "two")
    assert int(one["rounds"]) == 3
    for k in one:
        assert np.array_equal(one[k], two[k]), k
    assert Strategy.load(tmp_path / "one" / "cfr-2.npz").keys.tolist() == Strategy.load(
        tmp_path / "two" / "cfr-2.npz").keys.tolist()


def test_a_checkpoint_of_other_options_is_refused_naming_them(tmp_path: Path) -> None:
    _train(tmp_path, 20)
    result = CliRunner().invoke(app, ["train", "cfr", "--players", "2", "--deals", "40",
                                      "--round", "20", "--units", "2", "--seed", "5",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "other options (seed)" in result.stderr


# -- the fitted leaf ----------------------------------------------------------------------------
def _leaves(rules: Rules, count: int, seed: int = 11) -> list[Any]:
    """Positions at the first lead of ``count`` deals, bid by seeded random choices."""
    game = BiddingGame(rules)
    rng = random.Random(seed)
    out = []
    for i in range(count):
        pos = game.deal(seed, i)
        while (got := game.node(pos)) is not None:
            pos = game.child(pos, rng.choice([a for a in got[2] if a >= 0]))
        if pos[core.PHASE] != core.OVER:
            out.append(pos)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_fitted_leaf_whose_play_outs_agree_with_the_solver_is_the_solver(
        players: int) -> None:
    """Every play-out took the solver's tricks: the leaf is the solver's (RULES §9)."""
    rules = Rules(players=players)
    same = LeafTable.of("expert:4", [(k, s, s) for k in range(4) for s in range(TRICKS)])
    solver, fitted = BiddingGame(rules), BiddingGame(rules, "fitted:4", same)
    for pos in _leaves(rules, 12):
        for seat in range(players):
            assert fitted.value(pos, seat) == pytest.approx(solver.value(pos, seat))


def test_a_fitted_leaf_weighs_the_points_of_each_played_out_count() -> None:
    """Where the solver gives the makers two tricks and three play-outs of four took three,
    the leaf is a quarter of a euchre and three quarters of a made bid (RULES §9)."""
    rules = Rules(players=4)
    game = BiddingGame(rules)
    pos = next(pos for pos in _leaves(rules, 200)
              if game.solver_tricks(pos) == 2 and not core.alone(pos))
    table = LeafTable.of("expert:4", [(0, 2, 3)] * 3)
    fitted = BiddingGame(rules, "fitted:4", table)
    side = seats(int(core.makers_mask(pos)))
    euchred = deal_points(4, side, 2, False, False)
    made = deal_points(4, side, 3, False, False)
    maker = min(side)
    want = 0.25 * (euchred[maker] - euchred[(maker + 1) % 4]) + 0.75 * (
        made[maker] - made[(maker + 1) % 4])
    assert fitted.value(pos, maker) == pytest.approx(want)
    assert fitted.value(pos, maker) > game.value(pos, maker)


def test_a_leaf_is_named_and_a_fitted_one_needs_its_table() -> None:
    rules = Rules(players=4)
    for bad in ("expert", "expert:x", "fitted:0", "open"):
        with pytest.raises(ValueError, match="solver, expert:WORLDS or fitted:WORLDS"):
            BiddingGame(rules, bad)
    with pytest.raises(ValueError, match="takes its LeafTable"):
        BiddingGame(rules, "fitted:4")
    with pytest.raises(ValueError, match="takes its LeafTable"):
        BiddingGame(rules, "solver", LeafTable.of("expert:4", []))


def test_the_leaf_fit_counts_each_deal_it_plays_out_the_same_way_twice() -> None:
    fit = LeafFit(Rules(players=2), seed=3, units_=2, deals=6, bot="expert:2")
    first = fit.run_unit(1)
    assert first == fit.run_unit(1)
    assert 0 < sum(first) <= 6
    assert first != fit.run_unit(0)
    table = LeafTable.sum("expert:2", [first, fit.run_unit(0)])
    assert table.samples == sum(first) + sum(fit.run_unit(0))
    for kind in range(4):
        for solved in range(TRICKS):
            assert sum(table.probabilities(kind, solved)) == pytest.approx(1.0)


def test_training_on_a_fitted_leaf_fits_it_first_and_resumes_it(tmp_path: Path) -> None:
    def run(deals: int) -> Any:
        return CliRunner().invoke(app, [
            "train", "cfr", "--players", "2", "--deals", str(deals), "--round", "20",
            "--units", "2", "--workers", "1", "--seed", "4", "--leaf", "fitted:2",
            "--fit-deals", "250", "--out", str(tmp_path), "--json"])

    result = run(20)
    assert result.exit_code == 0, result.output
    header = Strategy.load(tmp_path / "cfr-2.npz").header
    counts = header["leaf_table"]["counts"]
    assert header["leaf_table"]["bot"] == "expert:2" and 0 < sum(counts) <= 250
    assert header["parameters"]["fit_deals"] == 250
    result = run(40)  # the fit is read back, the training resumed
    assert result.exit_code == 0, result.output
    assert Strategy.load(tmp_path / "cfr-2.npz").header["leaf_table"]["counts"] == counts
    refused = CliRunner().invoke(app, [
        "train", "cfr", "--players", "2", "--deals", "40", "--round", "20", "--units",
        "2", "--workers", "1", "--seed", "4", "--leaf", "fitted:2", "--fit-deals", "500",
        "--out", str(tmp_path)])
    assert refused.exit_code == 1
    assert "other options" in refused.stderr
