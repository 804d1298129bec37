"""A bot that plays a policy trained on the Gymnasium environment (``policy:PATH``).

``make_bot("policy:runs/ppo.zip")`` loads a MaskablePPO policy saved by
``examples/maskable_ppo.py`` (sb3-contrib's ``.zip``) and, at each decision, picks the
legal action the policy likes best (the masked argmax: deterministic).

The policy reads the environment's observation (:func:`euchre.envs.table.observation_layout`,
deal episodes), which the compiled core computes from a core state.  A bot is given an
:class:`~euchre.deal.Observation`, not the deal, so the bot deals the cards its seat
cannot see at random, consistently with what it saw (:func:`euchre.worlds.sample_world`,
compiled), and encodes that state with the environments' own encoder
(:func:`euchre.vector.observe`).  The observation holds only what the seat may know
(RULES §12), so every such deal gives the same tensor.

A saved policy is read with pickle, as sb3 saves it: load only files you trust (the web
server seats only the bots of :data:`euchre.bots.BOTS`, never a policy).

Needs the optional extra ``rl`` (sb3-contrib, CPU PyTorch and OpenSpiel); they are
imported when a policy is loaded, never when :mod:`euchre.bots` is.
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import numpy.typing as npt

from euchre.actions import NUM_ACTIONS, Action
from euchre.deal import Observation
from euchre.rules import Rules
from euchre.worlds import sample_world, view_from_observation

__all__ = ["PolicyBot", "encode"]

_MISSING = ("the policy bot needs the optional extra rl (sb3-contrib, torch and "
            "open-spiel): pip install -e '.[rl]'")

_LOADED: dict[tuple[str, float], Any] = {}
"""Loaded policies by path and modification time (a tournament builds many bots)."""


def _load_model(path: str) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise ImportError(_MISSING) from e
    if not os.path.isfile(path):
        raise ValueError(f"no saved policy at {path!r}")
    key = (os.path.abspath(path), os.path.getmtime(path))
    if key not in _LOADED:
        _LOADED[key] = MaskablePPO.load(path, device="cpu")
    return _LOADED[key]


def encode(observation: Observation, rng: random.Random | None = None) -> npt.NDArray[np.float32]:
    """The Gymnasium environment's observation (deal episodes) of ``observation``'s seat:
    :func:`euchre.vector.observe` of a world its seat cannot tell from the deal
    (:func:`euchre.worlds.sample_world`; every such world gives the same numbers)."""
    from euchre import vector

    view = view_from_observation(observation)
    seed = (rng or random.Random(0)).getrandbits(32)
    return vector.observe(sample_world(view, observation.seat, seed), observation.seat)


class PolicyBot:
    """Plays a saved MaskablePPO policy: the legal action it ranks first."""

    needs_observation = True

    def __init__(self, model: Any, path: str = "",
                 seed: int | random.Random | None = None) -> None:
        self.model = model
        self.path = path
        self.name = f"policy:{path}" if path else "policy"
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        shape = getattr(getattr(model, "observation_space", None), "shape", None)
        self.size = int(shape[0]) if shape else None

    @classmethod
    def load(cls, path: str, seed: int | random.Random | None = None) -> PolicyBot:
        """The policy saved at ``path`` (an sb3-contrib MaskablePPO ``.zip``)."""
        return cls(_load_model(path), path, seed)

    def check_rules(self, rules: Rules) -> None:
        """Refuse rules whose observation does not fit the policy's input."""
        from euchre import vector

        size = vector.observation_size(rules.players)
        if self.size is not None and self.size != size:
            raise ValueError(f"the policy {self.path or ''} reads observations of "
                             f"{self.size} numbers; {rules.players}-handed deals give {size}")

    def act(self, observation: Observation) -> Action:
        """The legal action the policy ranks first."""
        obs = encode(observation, self.rng)
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        for a in observation.legal_actions:
            mask[a.id] = True
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        return Action.from_id(int(action))

    def __repr__(self) -> str:
        return f"PolicyBot({self.path!r})"
