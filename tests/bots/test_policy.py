"""The ``policy:PATH`` bot: its name, its errors, its import, and its observation, which
must be the Gymnasium environment's own for the same seat and moment."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys

import numpy as np
import pytest

from euchre.bots import make_bot, normal_name

needs_envs = pytest.mark.skipif(
    importlib.util.find_spec("gymnasium") is None or importlib.util.find_spec("pyspiel") is None,
    reason="needs the optional extras gymnasium and bench (or rl)")


def test_a_policy_path_keeps_its_case_and_other_names_are_lowered() -> None:
    assert normal_name(" Policy:Runs/My PPO.zip") == "policy:Runs/My PPO.zip"
    assert normal_name(" BASIC ") == "basic"
    assert normal_name("ISMCTS:500:X") == "ismcts:500:x"


def test_a_policy_needs_a_path() -> None:
    with pytest.raises(ValueError, match="policy:PATH"):
        make_bot("policy")


def test_a_missing_policy_file_is_refused_in_one_sentence(tmp_path: object) -> None:
    pytest.importorskip("sb3_contrib")
    with pytest.raises(ValueError, match="no saved policy at"):
        make_bot(f"policy:{tmp_path}/nothing.zip")


def test_without_the_rl_extra_the_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # an import of it fails
    with pytest.raises(ImportError, match=r"extra rl"):
        make_bot("policy:whatever.zip")


def test_importing_the_bots_imports_neither_torch_nor_sb3() -> None:
    code = ("import sys, euchre, euchre.bots, euchre.bots.policy, euchre.jobs.tournament; "
            "print(sorted(m for m in ('torch', 'sb3_contrib', 'stable_baselines3') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


@needs_envs
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_bots_observation_is_the_environments(players: int) -> None:
    """At each of the learner's moves, the observation rebuilt from what the seat saw is
    the environment's, whatever cards the bot dealt to the others."""
    import gymnasium

    import euchre.envs.gymnasium  # noqa: F401 - registers euchre/Euchre-v0
    from euchre.bots.policy import encode

    env = gymnasium.make("euchre/Euchre-v0", players=players, seat=1, opponents="basic")
    rng = np.random.default_rng(players)
    checked = 0
    for episode in range(12):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            deal = env.unwrapped.table.deal  # type: ignore[attr-defined]
            seen = deal.observation(1)
            for world in range(2):
                assert np.array_equal(encode(seen, random.Random(world)), obs)
            checked += 1
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, done, _, info = env.step(action)
    assert checked > 30


def test_the_web_server_never_seats_a_policy() -> None:
    """A saved policy is read with pickle: a table asking for one is refused."""
    from euchre.bots import BOTS
    from euchre.server.protocol import CreateTable

    seats = [{"kind": "you"}, {"kind": "bot", "bot": "policy:x.zip"}]
    body = CreateTable.model_validate({"rules": {"players": 2}, "seats": seats})
    with pytest.raises(ValueError, match=r"unknown bot 'policy:x\.zip'"):
        body.check(BOTS)
