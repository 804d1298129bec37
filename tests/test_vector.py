"""``VectorDeals``: many deals stepped together over the compiled core (euchre/vector.py).

Its answers are checked against the reference engine deal by deal: legal masks, seats to
move, points, records that ``euchre replay`` reads, and each seat's observation, which
must hold exactly what RULES §12 lets that seat know.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from euchre import core
from euchre.actions import NUM_ACTIONS, Action
from euchre.cli import app
from euchre.deal import Deal, IllegalActionError, Phase
from euchre.game import Game, winners_of
from euchre.rules import Rules
from euchre.vector import VectorDeals, observation_layout, observation_size, random_games

RULES = [Rules(players=2), Rules(players=3), Rules(players=3, joker=True, defend_alone=False),
         Rules(players=4), Rules(players=4, defend_alone=True, joker=True, deck=28),
         Rules(players=4, stick_the_dealer=True, dealer_must_take_up=True),
         Rules(players=5), Rules(players=5, joker=True, deck=32)]
IDS = [repr(r) for r in RULES]


def play_out(v: VectorDeals, check: bool = True) -> None:
    """Step every deal to its end with random actions, checking each step against the
    engine replaying the same deal."""
    while not v.done.all():
        if check:
            mask, to_move = v.legal_mask(), v.to_move
            for i in range(v.n):
                deal = Deal.from_record(v.record(i))
                assert np.flatnonzero(mask[i]).tolist() == deal.legal_action_ids()
                assert to_move[i] == (-1 if deal.to_move is None else deal.to_move)
        v.step(v.random_actions())


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_vector_deals_follow_the_engine_step_by_step(rules: Rules) -> None:
    """RULES §3-§9: every step of 6 random deals agrees with the reference engine, and
    the points are the engine's (§9)."""
    v = VectorDeals(rules, n=6, seed=11)
    play_out(v)
    points = v.points
    assert points.shape == (6, rules.players)
    for i in range(v.n):
        deal = Deal.from_record(v.record(i))
        assert deal.is_over
        assert tuple(points[i]) == deal.result.points


def test_the_same_seed_deals_the_same_cards_whatever_n() -> None:
    """Deal ``i`` depends on the seed and ``i`` only, not on how many deals there are."""
    small = VectorDeals(Rules(players=4), n=3, seed=7)
    large = VectorDeals(Rules(players=4), n=50, seed=7)
    assert all(small.record(i) == large.record(i) for i in range(3))
    assert VectorDeals(Rules(players=4), n=3, seed=8).record(0) != small.record(0)
    for v in (small, large):
        for _ in range(8):
            v.step(v.random_actions())
    assert all(small.record(i) == large.record(i) for i in range(3))


def test_an_illegal_action_names_the_deal_and_changes_nothing() -> None:
    """An illegal action anywhere in the batch is refused before any deal moves."""
    v = VectorDeals(Rules(players=4), n=5, seed=3)
    actions = v.random_actions()
    before = v.states.copy()
    actions[3] = 0  # "play 7C": nobody plays a card in the bidding
    with pytest.raises(IllegalActionError, match=r"^deal 3: .*RULES §4.*'play 7C' is not legal"):
        v.step(actions)
    assert (v.states == before).all()
    with pytest.raises(ValueError, match="one action per deal: 5, not 2"):
        v.step([99, 99])


def test_finished_deals_ignore_their_entries_and_reset_deals_afresh() -> None:
    v = VectorDeals(Rules(players=2), n=4, seed=5)
    play_out(v, check=False)
    over = v.states.copy()
    v.step(np.full(4, 12345))  # entries of finished deals are ignored, even nonsense
    assert (v.states == over).all()
    first = [v.record(i) for i in range(4)]
    v.reset(done_only=True)
    assert not v.done.any()
    assert all(v.record(i) != first[i] for i in range(4))
    assert all(not v.record(i).actions for i in range(4))


def test_reset_deals_afresh_only_where_done() -> None:
    v = VectorDeals(Rules(players=3), n=40, seed=2)
    while v.done.sum() < 10:
        v.step(v.random_actions())
    done = v.done.copy()
    assert not done.all()
    before = [v.record(i) for i in range(v.n)]
    v.reset(done_only=True)
    for i in range(v.n):
        assert (v.record(i) == before[i]) is not bool(done[i])
    assert not v.done.any()


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=5)], ids=["3", "5"])
def test_records_replay_with_euchre_replay_to_the_same_points(
        rules: Rules, tmp_path: Path) -> None:
    """``VectorDeals.record(i)`` is a RECORDS deal record: ``euchre replay --json`` gives
    the points the core scored (RULES §9)."""
    v = VectorDeals(rules, n=5, seed=9)
    play_out(v, check=False)
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(v.record(i).to_json()) + "\n" for i in range(v.n)))
    result = CliRunner().invoke(app, ["replay", "--json", str(path)])
    assert result.exit_code == 0, result.output
    replayed = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["points"] for r in replayed] == v.points.tolist()
    assert all(r["complete"] for r in replayed)


def replay_into(v: VectorDeals, record: dict[str, Any]) -> bool:
    """Deal 0 of ``v`` becomes ``record``'s deal with its actions; False if one is illegal."""
    deal = Deal.from_record(record, apply_actions=False)
    state = v.states[0]
    hands = [*deal.dealt, *[0] * (5 - deal.n)]
    core.start(state, deal.dealer, *hands, deal.dealt_dummy or 0, int(deal.turnup))
    return all(core.apply_action(state, Action.parse(text).id) for text in record["actions"])


# -- observations (RULES §12) -------------------------------------------------------------------
def field(obs: np.ndarray, players: int, name: str) -> np.ndarray:
    start, stop, _ = observation_layout(players)[name]
    return obs[start:stop]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_observations_hold_what_the_seat_may_know(rules: Rules) -> None:
    """The tensor agrees with the engine's Observation (RULES §12) at every step of
    random deals, for every seat: own hand, turn-up, own discards, the dummy only for the
    maker who took it, the partner only once known, every card played by whom."""
    p = rules.players
    v = VectorDeals(rules, n=4, seed=21)
    size = observation_size(p)
    while not v.done.all():
        for seat in range(p):
            tensor = v.observation_tensor(seat)
            assert tensor.shape == (4, size) and tensor.dtype == np.float32
            for i in range(v.n):
                obs = Deal.from_record(v.record(i)).observation(seat)
                row = tensor[i]

                def cards(name: str, row: np.ndarray = row) -> set[int]:
                    return set(np.flatnonzero(field(row, p, name)).tolist())

                assert cards("hand") == {int(c) for c in obs.hand}
                assert cards("turnup") == {int(obs.turnup)}
                assert cards("discards") == {int(c) for c in obs.discards}
                assert cards("dummy") == ({int(c) for c in obs.dummy} if obs.dummy else set())
                assert cards("called") == (set() if obs.called is None else {int(obs.called)})
                assert cards("phase") == {list(Phase).index(obs.phase)}
                partner = cards("partner")
                assert partner == (set() if obs.partner is None
                                   else {(obs.partner - seat) % p})
                played = field(row, p, "played").reshape(p, 33)
                seen = {(int(s), int(c)) for t in obs.tricks for s, c in t.cards}
                seen |= {(int(s), int(c)) for s, c in obs.trick}
                assert {((r + seat) % p, c) for r, c in zip(*np.nonzero(played),
                                                             strict=True)} == seen
        v.step(v.random_actions())


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_observation_does_not_change_when_only_hidden_cards_change(players: int) -> None:
    """RULES §12: swap two cards between hands the seat may not see (or the kitty): the
    seat's observation is the same, over many random states of every variant."""
    rng = random.Random(players)
    rules = Rules(players=players)
    checked = 0
    for k in range(60):
        v = VectorDeals(rules, n=1, seed=k)
        for _ in range(rng.randrange(25)):
            if v.done[0]:
                break
            v.step(v.random_actions())
        record = v.record(0).to_json()
        seat = rng.randrange(players)
        obs = v.observation_tensor(seat)[0]
        # two unseen cards: in other seats' hands as dealt, not yet played nor discarded
        deal = Deal.from_record(record)
        known = deal.observation(seat)
        seen = {str(c) for c in (*known.hand, *(known.dummy or ()))} | {record["turnup"]}
        seen |= {a.split()[-1] for a in record["actions"] if a.split()[0] in ("play", "call")}
        places = [record["hands"][s] for s in range(players) if s != seat]
        places.append(record["kitty"])
        hidden = [(h, c) for h in places for c in h if c not in seen]
        acted = {a.split()[-1] for a in record["actions"] if a.startswith("discard")}
        hidden = [(h, c) for h, c in hidden if c not in acted]
        owners = {id(h) for h, _ in hidden}
        if len(owners) < 2:
            continue
        (h1, c1), (h2, c2) = rng.sample(hidden, 2)
        while h1 is h2:
            (h1, c1), (h2, c2) = rng.sample(hidden, 2)
        h1[h1.index(c1)], h2[h2.index(c2)] = c2, c1
        swapped = VectorDeals(rules, n=1, seed=0)
        if not replay_into(swapped, record):
            continue  # the swap made a later action illegal (a revoke): another history
        assert (swapped.observation_tensor(seat)[0] == obs).all(), (record, seat)
        checked += 1
    assert checked >= 20


def test_observation_layout_covers_the_tensor_without_gaps() -> None:
    for players in (2, 3, 4, 5):
        spans = sorted((a, b) for a, b, _ in observation_layout(players).values())
        assert spans[0][0] == 0 and spans[-1][1] == observation_size(players)
        assert all(spans[k][1] == spans[k + 1][0] for k in range(len(spans) - 1))
    assert NUM_ACTIONS == 111


# -- whole games at random ----------------------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(players=2), Rules(players=3, target=5),
                                   Rules(players=4, target=7), Rules(players=5)],
                         ids=["2", "3", "4", "5"])
def test_random_games_end_where_the_engine_ends_them(rules: Rules) -> None:
    """RULES §3, §9, §10: a game played at random on the core is, replayed deal by deal
    through the engine's Game, the same game: the deal passing left, the same scores,
    won exactly at its last deal."""
    for scores, deals, records in random_games(rules, 30, seed=4, keep=True):
        game = Game.from_deals(rules, [Deal.from_record(r) for r in records])
        assert len(records) == deals
        assert game.is_over and list(game.scores) == scores
        assert game.winners == winners_of(scores, rules.target)


def test_random_games_depend_on_the_seed_and_game_number_only() -> None:
    rules = Rules(players=3)
    all_at_once = list(random_games(rules, 6, seed=2))
    one_by_one = [next(random_games(rules, 1, seed=2, first=g)) for g in range(6)]
    assert all_at_once == one_by_one
    assert list(random_games(rules, 6, seed=3)) != all_at_once


def test_a_long_game_keeps_every_deal() -> None:
    """More deals than the first buffer holds (64): the game is played again with room."""
    rules = Rules(players=4, target=200)
    scores, deals, records = next(random_games(rules, 1, seed=1, keep=True))
    assert deals > 64 and len(records) == deals and max(scores) >= 200
    assert Game.from_deals(rules, [Deal.from_record(r) for r in records]).is_over
