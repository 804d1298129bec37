"""The expert's card play by αμ search, ``expert:W:am`` (RULES §8, the play; RULES §12,
what a seat may see): its cards are chosen once per information set, the other seats
choosing per world, the open-hand solver at the leaves."""

from __future__ import annotations

import pytest
from play_positions import RULES, play_decisions

from euchre.bots import make_bot, play_deal
from euchre.bots.cfr import CfrExpertBot
from euchre.bots.evaluation import _AlphaMuPlayEval, _Side, pareto
from euchre.bots.expert import ExpertBot, PimcBot
from euchre.bots.knowledge import _Know
from euchre.cards import Card
from euchre.deal import Deal
from euchre.rules import Rules
from euchre.solver import solve_position


def searched(seed: int, samples: int, depth: int = 2) -> ExpertBot:
    return ExpertBot(seed, samples=samples, time_budget=None, search_depth=depth)


def test_the_option_parses_alone_and_with_cfr() -> None:
    plain = make_bot("expert:16", 1)
    assert isinstance(plain, ExpertBot) and plain.search_depth == 1
    am = make_bot("expert:16:am", 1)
    assert isinstance(am, ExpertBot) and am.search_depth == 2 and am.samples == 16
    assert am.time_budget is None
    assert make_bot(" Expert:16:AM3 ", 1).search_depth == 3  # type: ignore[attr-defined]
    both = make_bot("expert:16:cfr:am", 1)
    assert isinstance(both, CfrExpertBot) and both.search_depth == 2
    assert make_bot("expert:16:am:cfr", 1).search_depth == 2  # type: ignore[attr-defined]
    for bad in ("expert:16:am0", "expert:16:amx", "expert:16:am:am", "expert:16:cfr:cfr",
                "expert:16:alpha", "expert:16:cfr:nocfr"):
        with pytest.raises(ValueError, match="expert:WORLDS:OPTION"):
            make_bot(bad, 1)


@pytest.mark.parametrize("name", ["expert:16", "expert:16:am", "expert:16:am3",
                                  "expert:16:cfr", "expert:16:cfr:am", "expert:16:nocfr",
                                  "expert:16:nocfr:am", "intermediate"])
def test_a_searching_bot_s_repr_pastes_back_as_the_same_bot(name: str) -> None:
    bot = make_bot(name, 1)
    namespace = {"ExpertBot": ExpertBot, "CfrExpertBot": CfrExpertBot,
                 "IntermediateBot": type(bot)}
    again = eval(repr(bot), namespace)
    assert isinstance(bot, PimcBot) and type(again) is type(bot)
    assert repr(again) == repr(bot) and again.search_depth == bot.search_depth


def test_a_search_depth_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="search_depth is 1 or more"):
        ExpertBot(1, samples=4, search_depth=0)


def test_a_guess_pimc_thinks_it_makes_in_every_world() -> None:
    """Two-handed, clubs trump, the seat (the maker, two tricks won) leads the third trick
    holding A♣ K♦ A♥; the other holds J♣ T♣ and the 9 of diamonds or of hearts (the two
    worlds).  Leading A♣ loses to the right bower, the T♣ comes back, and the seat must
    throw K♦ or A♥ before it sees which 9 is led last: open-handed it keeps the right
    king in each world (1 point in both), so PIMC values A♣ as much as the safe leads, but
    one plan for both worlds is euchred in one (1 − 2 = −1 over the two).  Leading A♥ or
    K♦ first takes a trick in both worlds.  αμ in full (the other seat's every legal
    card) sees it; the fast form, which weighs only the others' open-hand best cards (of
    equal ones the least worth keeping: the 9 led at once), does not."""
    deal = Deal.from_cards(Rules(players=2), dealer=1, turnup="QH",
                           hands=["AS KS AC KD AH", "9S TS JC TC 9D"])
    for action in ("pass", "pass", "trump C", "play AS", "play 9S", "play KS", "play TS"):
        deal.apply(action)
    obs = deal.observation(0)
    assert obs.tricks_won == (2, 0) and deal.to_move == 0
    nine_d, nine_h = int(Card.parse("9D")), int(Card.parse("9H"))
    world1 = [deal.hand_mask(0), deal.hand_mask(1)]
    world2 = [world1[0], world1[1] & ~(1 << nine_d) | 1 << nine_h]
    side = _Side(maker=0, partner=-1, won=2, alone=False, lone_defender=False)
    cards = [int(a.card) for a in obs.legal_actions if a.card is not None]
    ace = int(Card.parse("AC"))

    def values(wide: bool) -> tuple[dict[int, float], dict[int, float]]:
        search = type("Search", (_AlphaMuPlayEval,), {"WIDE": wide})(
            ExpertBot(0, samples=2, time_budget=None), _Know(obs), 2)
        search.worlds = [(world1, 1, side, 1.0), (world2, 1, side, 1.0)]
        pimc = {c: sum(search._utility_after(i, (), solve_position(
            hands, search.k.trump, 1, 0, [], 0, True).values[c])
            for i, (hands, _, _, _) in enumerate(search.worlds)) for c in cards}
        return search.finish(dict.fromkeys(cards, 0.0)), pimc

    full, pimc = values(wide=True)
    assert pimc == dict.fromkeys(cards, 2.0)  # PIMC cannot tell the guess from the safe leads
    assert full[ace] == pytest.approx(-1.0)
    assert max(full, key=lambda c: full[c]) != ace
    assert all(full[c] == pytest.approx(2.0) for c in cards if c != ace)
    fast, _ = values(wide=False)
    assert fast == pimc


def test_pareto_fronts_keep_what_no_other_beats() -> None:
    front = pareto([(1.0, 0.0, 2.0), (0.0, 1.0, 2.0), (1.0, 0.0, 1.0), (0.5, 0.5, 2.0)], 8,
                   (1.0, 1.0, 1.0))
    assert sorted(front) == [(0.0, 1.0, 2.0), (0.5, 0.5, 2.0), (1.0, 0.0, 2.0)]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_at_depth_one_or_in_one_world_the_search_is_pimc(rules: Rules) -> None:
    """At depth 1 no card of the seat's is searched past the open-hand values; with one
    world every information set is that world: both give PIMC's values exactly."""
    for obs in play_decisions(rules, 2, 1)[:8]:
        pimc = ExpertBot(5, samples=1, time_budget=None).evaluate(obs)
        assert searched(5, 1).evaluate(obs) == pytest.approx(pimc, abs=1e-9)
        many = ExpertBot(5, samples=8, time_budget=None).evaluate(obs)
        assert searched(5, 8, depth=1).evaluate(obs) == pytest.approx(many, abs=1e-9)


@pytest.mark.parametrize("rules", RULES[::2], ids=repr)
def test_a_plan_per_information_set_is_never_worth_more_than_pimc(rules: Rules) -> None:
    """The same worlds (same seed): choosing the seat's next card once for the worlds it
    cannot tell apart is worth at most choosing it in each world."""
    for obs in play_decisions(rules, 3, 2)[:10]:
        pimc = ExpertBot(6, samples=12, time_budget=None).evaluate(obs)
        search = searched(6, 12).evaluate(obs)
        assert search.keys() == pimc.keys()
        for action, value in pimc.items():
            assert search[action] <= value + 1e-9


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_the_searching_expert_plays_every_variant_legally_and_deterministically(
        rules: Rules) -> None:
    """``play_deal`` refuses an illegal action (``choose``); the same seeds, the same deal."""
    def play(seed: int) -> list[str]:
        bots = [make_bot("expert:4:am", s) for s in range(rules.players)]
        deal = play_deal(Deal.random(rules, dealer=seed % rules.players, seed=seed), bots)
        assert deal.is_over
        return [str(a) for a in deal.actions]

    assert play(3) == play(3)
