"""The Gymnasium environments: Gymnasium's own checker for every variant, the opponents,
the rewards against the records, the compiled vector environment."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")  # the optional extra (`make test` installs it)

from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from variants import each_variant

import euchre.envs.gymnasium  # noqa: F401 - registers euchre/Euchre-v0
from euchre import Deal
from euchre.bots import RandomBot
from euchre.deal import IllegalActionError, Observation
from euchre.envs.gymnasium import ENV_ID, EuchreEnv, VectorEuchreEnv
from euchre.vector import VectorDeals


def play(env: Any, seed: int) -> float:
    """One episode with the learner's first legal action each time; its total reward."""
    _, info = env.reset(seed=seed)
    total = 0.0
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return float(total)


@each_variant
@pytest.mark.parametrize("episode", ["deal", "game"])
def test_gymnasium_check_env_passes(variant: dict[str, Any], episode: str) -> None:
    env = gymnasium.make(ENV_ID, opponents="random", episode=episode, render_mode="ansi",
                         **variant)
    check_env(env.unwrapped)
    assert isinstance(env.unwrapped, EuchreEnv) and env.unwrapped.action_masks().any()


@each_variant
@pytest.mark.parametrize("seat", [0, 2])
def test_the_learners_rewards_are_its_points_in_the_records(variant: dict[str, Any],
                                                            seat: int) -> None:
    players = variant["players"]
    seat = min(seat, players - 1)
    env = gymnasium.make(ENV_ID, seat=seat, opponents="basic", episode="game", **variant)
    table = env.unwrapped.table  # type: ignore[attr-defined]
    for seed in range(2):
        total = play(env, seed)
        assert total == table.points()[seat]
        replayed = 0
        for record in table.records():
            replayed += record.to_json()["scores"][seat]
        assert total == replayed


def test_seeds_reproduce_episodes_against_bots_by_level() -> None:
    records = []
    for _ in range(2):
        env = gymnasium.make(ENV_ID, players=5, opponents="basic", episode="game", target=5)
        play(env, 9)
        records.append(env.unwrapped.table.records())  # type: ignore[attr-defined]
    assert records[0] == records[1]


def test_opponents_may_be_bots_callables_or_one_per_seat() -> None:
    seen: list[Observation] = []

    def first_legal(observation: Observation) -> int:
        seen.append(observation)
        return observation.legal_actions[0].id

    env = EuchreEnv(players=3, seat=1, opponents=[RandomBot(1), first_legal])
    play(env, 3)
    assert seen and all(o.seat == 2 for o in seen)
    assert isinstance(env.bots[0], RandomBot)
    with pytest.raises(ValueError, match="one for each of the 2 other seats"):
        EuchreEnv(players=3, opponents=["basic"])
    with pytest.raises(ValueError, match="unknown bot"):
        EuchreEnv(players=3, opponents="grandmaster")


def test_an_illegal_action_is_refused_or_raised_as_asked() -> None:
    env = EuchreEnv(players=4, opponents="random")
    obs, info = env.reset(seed=2)
    again, reward, terminated, _, info = env.step(0)  # a card in the bidding
    assert np.array_equal(again, obs) and reward == 0.0 and not terminated
    assert "legal" in info["illegal_action"]
    strict = EuchreEnv(players=4, opponents="random", illegal="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(0)


def test_utility_rewards_only_three_and_five_handed() -> None:
    with pytest.raises(ValueError, match="three- and five-handed"):
        EuchreEnv(players=4, reward="utility")
    env = EuchreEnv(players=5, reward="utility", opponents="random")
    total = play(env, 4)
    points = env.table.points()
    assert total == pytest.approx(points[0] - sum(points[1:]) / 4)


# -- the vector environment ------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_vector_env_steps_deals_to_their_recorded_points(players: int) -> None:
    env = gymnasium.make_vec(ENV_ID, num_envs=16, vectorization_mode="vector_entry_point",
                             players=players, seat=1, joker=True)
    vec = env.unwrapped
    assert isinstance(vec, VectorEuchreEnv)
    obs, _ = env.reset(seed=5)
    ended = 0
    for _ in range(40):
        masks = vec.action_masks()
        actions = vec.random_actions()
        live = ~vec._resetting
        assert masks[live, actions[live]].all()
        obs, rewards, terminated, _, _ = env.step(actions)
        for i in np.flatnonzero(terminated).tolist():
            deal = Deal.from_record(vec.records()[i])
            assert deal.is_over and rewards[i] == deal.result.points[1]
            ended += 1
        for i in range(16):
            if not terminated[i]:
                assert deal_to_move(vec, i) == 1
        check = VectorDeals(vec.rules, 16)
        check.states[:] = vec.deals.states
        assert np.array_equal(obs, check.observation_tensor(1))
    assert ended > 16


def deal_to_move(vec: VectorEuchreEnv, i: int) -> int | None:
    return Deal.from_record(vec.records()[i]).to_move


def test_the_vector_env_is_reproducible_and_refuses_illegal_actions() -> None:
    runs = []
    for _ in range(2):
        vec = VectorEuchreEnv(8, players=4)
        vec.reset(seed=3)
        for _ in range(10):
            vec.step(vec.random_actions())
        runs.append(vec.deals.states.copy())
    assert np.array_equal(runs[0], runs[1])
    with pytest.raises(IllegalActionError, match="environment 0"):
        vec.step(np.full(8, 200))
    with pytest.raises(ValueError, match="bots"):
        VectorEuchreEnv(4, opponents="basic")
    with pytest.raises(ValueError, match="deal episodes"):
        VectorEuchreEnv(4, episode="game")
