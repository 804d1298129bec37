"""A PettingZoo AEC environment: euchre of every variant, each seat an agent.

Needs the optional extra ``pettingzoo`` (``pip install -e '.[pettingzoo]'``).

>>> from euchre.envs.pettingzoo import env
>>> table = env(players=3, joker=True, episode="deal", seed=7)
>>> table.reset(seed=7)
>>> for agent in table.agent_iter():
...     observation, reward, termination, truncation, info = table.last()
...     action = None if termination else int(observation["action_mask"].nonzero()[0][0])
...     table.step(action)
>>> table.possible_agents
['player_0', 'player_1', 'player_2']

Agents ``player_0`` .. ``player_{n-1}`` are the seats.  ``observe(agent)`` gives
``{"observation": float32 vector, "action_mask": int8 vector}``: the observation holds
exactly what RULES §12 lets that seat know (the layout is
:func:`euchre.envs.table.observation_layout`, written out in ``docs/research.md``); the
mask is over the fixed action space of 111 ids (:mod:`euchre.actions`) and is all zeros
for an agent that is not to move.  Rewards are the seat's points when a deal is scored
(four-handed, both partners get the side's points); three- and five-handed,
``reward="utility"`` gives the seat's points minus the others' mean.  With
``episode="game"`` deals follow one another until the target (RULES §10).

There is no ``parallel_env``: euchre is played in turns that do not go round in a fixed
cycle (the winner of a trick leads the next, lone hands sit out), which PettingZoo's
AEC-to-parallel conversion requires.
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from euchre.actions import NUM_ACTIONS
from euchre.envs.table import Episode, observation_high, observation_size, show
from euchre.rules import Rules

__all__ = ["EuchreAEC", "env", "raw_env"]

RENDER_MODES: Final = ("ansi", "human")


def env(players: int = 4, *, episode: str = "deal", reward: str = "points",
        render_mode: str | None = None, seed: int | None = None,
        **options: Any) -> EuchreAEC:
    """The environment for ``players`` seats under the rule ``options``.

    ``options`` are those of :class:`euchre.rules.Rules` (``deck``, ``joker``,
    ``joker_turnup``, ``stick_the_dealer``, ``dealer_must_take_up``, ``defend_alone``,
    ``target``, ``draw``, ``rubber``); unset ones take the variant's defaults.  The
    environment enforces PettingZoo's order itself (``reset`` before anything else), so it
    needs no wrapper; an illegal action raises :class:`~euchre.deal.IllegalActionError`
    with the rule it breaks, and changes nothing."""
    return EuchreAEC(Rules(players=players, **options), episode=episode, reward=reward,
                     render_mode=render_mode, seed=seed)


raw_env = env
"""PettingZoo's name for the environment without wrappers: the same function."""


class EuchreAEC(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Euchre under ``rules`` as a PettingZoo AEC environment (see the module)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's own class attribute
        "render_modes": list(RENDER_MODES),
        "name": "euchre_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: Rules, episode: str = "deal", reward: str = "points",
                 render_mode: str | None = None, seed: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.rules = rules
        self.episode = episode
        self.render_mode = render_mode
        self.table = Episode(rules, episode=episode, reward=reward)
        """The episode on the compiled core: records, points, the state."""
        self._seed = seed
        p = rules.players
        self.possible_agents = [f"player_{s}" for s in range(p)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        size = observation_size(p, episode)
        observation = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(
                low=np.zeros(size, dtype=np.float32), high=observation_high(rules, episode),
                dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(NUM_ACTIONS)
                              for a in self.possible_agents}
        self.agents: list[str] = []
        self._zero_rewards: dict[str, float] = dict.fromkeys(self.possible_agents, 0.0)
        self._scored = False
        self._has_reset = False

    def __repr__(self) -> str:
        return f"EuchreAEC({self.rules!r}, episode={self.episode!r})"

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same ``Dict`` space for every agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(111)``: the fixed action space of every variant."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; the same ``seed`` deals the same cards (a ``seed`` given to
        :func:`env` serves the first reset that has none)."""
        if seed is None:
            seed, self._seed = self._seed, None
        self.table.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict(self._zero_rewards)
        self._cumulative_rewards = dict(self._zero_rewards)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._scored = False
        self._has_reset = True
        self.agent_selection = self.possible_agents[self.table.to_move]

    def observe(self, agent: str) -> dict[str, Any]:
        """What RULES §12 lets the agent's seat know, and its legal actions."""
        if not self.agents and not self._has_reset:
            raise RuntimeError("reset the environment before observing it")
        observation, mask = self.table.observe_with_mask(self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Take ``action`` for the agent to move (``None`` for an agent that is done)."""
        if not self._has_reset:
            raise RuntimeError("reset the environment before stepping it")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for an agent that is done")
        table = self.table
        rewards = table.act(int(action))
        self._cumulative_rewards[agent] = 0.0
        if self._scored:
            self.rewards = dict(self._zero_rewards)
            self._scored = False
        if rewards is not None:
            for a, r in zip(self.possible_agents, rewards, strict=True):
                self.rewards[a] = r
                self._cumulative_rewards[a] += r
            self._scored = True
        if table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[table.to_move]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the table in RECORDS notation as text; ``human``: printed."""
        if not self._has_reset:
            raise RuntimeError("reset the environment before rendering it")
        return show(self.table, self.render_mode, gymnasium.logger.warn)

    def close(self) -> None:
        """Nothing to release."""
