"""The expert's opinion of a position (``euchre.bots.opinion``): the same answer for the
same position, however it was reached and whoever asks, every legal action valued."""

from __future__ import annotations

import json
import random

import pytest

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.bots import choose, make_bot, play_game
from euchre.bots.opinion import OPINION_WORLDS, expert_opinion, position_key, position_seed
from euchre.deal import Observation
from euchre.records import game_record, replay


def positions(rules: Rules, seed: int, count: int) -> list[tuple[Deal, int]]:
    """Positions with a choice in random deals the basic bot plays: the deal replayed
    from its record up to that point, and the seat to move."""
    rng = random.Random(seed)
    bots = [make_bot("basic", seed=s) for s in range(rules.players)]
    out: list[tuple[Deal, int]] = []
    while len(out) < count:
        deal = Deal.random(rules, dealer=rng.randrange(rules.players), seed=rng.randrange(10**6))
        stops = []
        while not deal.is_over:
            if len(deal.legal_action_ids()) > 1:
                stops.append(len(deal.actions))
            deal.apply(choose(bots[deal.to_move or 0], deal))
        record = deal.to_record().to_json()
        for k in rng.sample(stops, min(2, len(stops))):
            at = Deal.from_record({**record, "actions": record["actions"][:k]})
            assert at.to_move is not None
            out.append((at, at.to_move))
    return out[:count]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_same_position_gets_the_same_opinion_however_it_was_reached(
        players: int) -> None:
    rules = Rules(players=players)
    for deal, seat in positions(rules, players, 4):
        obs = deal.observation(seat)
        # the same position replayed from its record is another object, the same position
        again = Deal.from_record(deal.to_record()).observation(seat)
        assert again is not obs and position_key(again) == position_key(obs)
        first = expert_opinion(obs, worlds=12)
        assert expert_opinion(again, worlds=12) == first
        assert set(first.values) == set(obs.legal_actions)
        assert first.values[first.best] == max(first.values.values())
        assert first.worlds == 12


def test_what_the_seat_cannot_see_does_not_change_the_opinion() -> None:
    """Two deals that differ only in the cards seat 1 cannot see are one position to
    seat 1: the same seed, the same opinion."""
    hands = {"9C TC JC QC KC": "AC 9D TD JD QD", "9S TS JS QS KS": "AC 9D TD JD QD"}
    seen = [Deal.from_cards(Rules(players=2), dealer=0, hands=[other, mine], turnup="KD")
            .observation(1) for other, mine in hands.items()]
    assert seen[0].hand == seen[1].hand and seen[0].to_move == 1
    assert position_seed(seen[0]) == position_seed(seen[1])
    assert expert_opinion(seen[0], 8) == expert_opinion(seen[1], 8)


def test_each_seat_move_and_score_is_its_own_position() -> None:
    deal = Deal.random(Rules(players=4), dealer=0, seed=5)
    seeds = {position_seed(deal.observation(s)) for s in range(4)}
    deal.apply("pass")
    seeds.add(position_seed(deal.observation(1)))
    later = Deal.random(Rules(players=4), dealer=0, seed=5, scores=[6, 2, 6, 2])
    seeds.add(position_seed(later.observation(0)))
    assert len(seeds) == 6
    # the salt samples other worlds of the same position
    assert position_seed(deal.observation(2), salt=1) != position_seed(deal.observation(2))


def test_the_opinion_asks_the_expert_for_its_worlds_no_clock() -> None:
    deal = Deal.random(Rules(players=5), dealer=0, seed=9)
    obs = deal.observation(deal.to_move or 0)
    opinion = expert_opinion(obs)
    assert opinion.worlds == OPINION_WORLDS
    ranked = opinion.ranked()
    assert ranked[0] == (opinion.best, opinion.values[opinion.best])
    assert [v for _, v in ranked] == sorted(opinion.values.values(), reverse=True)


def test_a_seat_with_no_move_gets_no_opinion() -> None:
    deal = Deal.random(Rules(players=4), dealer=0, seed=5)
    idle: Observation = deal.observation((deal.to_move or 0) + 1)
    with pytest.raises(ValueError, match="no legal action now"):
        expert_opinion(idle)


def test_a_game_record_replays_to_the_positions_the_table_saw() -> None:
    """The review replays a saved game: each position there is the one the hint saw live
    (the running score included: a later deal is another position than the same cards
    at 0-0)."""
    keys: list[str] = []
    basic = make_bot("basic", seed=1)

    class Watch:
        name = "watch"

        def act(self, obs: Observation) -> Action:
            keys.append(position_key(obs))
            return basic.act(obs)

    game = play_game(Rules(players=3, target=4),
                     [Watch(), make_bot("basic", seed=2), make_bot("basic", seed=3)], seed=3)
    replayed = []
    for r in replay(game_record(game)):
        end = r.deal
        deal = Deal(end.rules, end.dealer, end.dealt, end.turnup, end.kitty, end.dealt_dummy,
                    end.pattern, end.scores)  # as the review replays it
        for action in end.actions:
            if deal.to_move == 0:
                replayed.append(position_key(deal.observation(0)))
            deal.apply(action)
    assert replayed == keys
    assert len({json.loads(k)["scores"].__repr__() for k in keys}) > 1  # several deals
