"""Gymnasium environments: one seat of euchre against our bots, and many deals at once.

Needs the optional extra ``gymnasium`` (``pip install -e '.[gymnasium]'``).  Importing this
module registers ``euchre/Euchre-v0``:

>>> import gymnasium
>>> import euchre.envs.gymnasium
>>> env = gymnasium.make("euchre/Euchre-v0", players=3, seat=0, opponents="random")
>>> observation, info = env.reset(seed=1)
>>> mask = info["action_mask"]
>>> observation, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))
>>> observation.shape, env.action_space
((437,), Discrete(111))

:class:`EuchreEnv` seats the learner at ``seat`` and the bots (``opponents``: a level such
as ``"basic"``, a :class:`~euchre.bots.Bot`, a callable from an
:class:`~euchre.deal.Observation` to an action, or one of these per other seat) at the
other seats; they play until the learner is to move.  The observation and the rewards are
those of :mod:`euchre.envs.pettingzoo` for the learner's seat; ``action_masks()`` (and
``info["action_mask"]``) gives the legal actions for maskable algorithms.

:class:`VectorEuchreEnv` is a :class:`gymnasium.vector.VectorEnv` over the compiled core:
``num_envs`` deals stepped together in compiled code, the opponents playing uniformly at
random; ``gymnasium.make_vec("euchre/Euchre-v0", num_envs=1024,
vectorization_mode="vector_entry_point")`` makes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from euchre import _numba, core, vector
from euchre.actions import NUM_ACTIONS, Action
from euchre.bots import Bot, check_rules, choose, make_bot
from euchre.deal import IllegalActionError, Observation
from euchre.envs.table import Episode, observation_high, observation_size, show
from euchre.notation import DealRecord
from euchre.rules import Rules

__all__ = ["ENV_ID", "EuchreEnv", "VectorEuchreEnv"]

ENV_ID: Final = "euchre/Euchre-v0"

Float32Array = npt.NDArray[np.float32]
Opponent = str | Bot | Callable[[Observation], Action | int | str]
"""A bot level (``"basic"``), a bot, or a callable from an observation to an action."""

_SEED_RANGE: Final = 1 << 31


class _CallableBot:
    """A callable from an observation to an action, seated as a bot."""

    def __init__(self, fn: Callable[[Observation], Action | int | str]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "callable")

    def act(self, observation: Observation) -> Action:
        a = self.fn(observation)
        if isinstance(a, Action):
            return a
        return Action.parse(a) if isinstance(a, str) else Action.from_id(int(a))


class EuchreEnv(gymnasium.Env[Float32Array, np.int64]):
    """One seat of euchre under ``players`` and the rule ``options`` against bots.

    ``episode`` is ``"deal"`` or ``"game"``, ``reward`` ``"points"`` or (three- and
    five-handed) ``"utility"``.  An illegal action changes nothing and gives no reward;
    ``info["illegal_action"]`` says why (``illegal="raise"`` raises
    :class:`~euchre.deal.IllegalActionError` instead).  Opponents named by level are
    seeded from ``reset(seed=...)``, so a seed reproduces the whole episode; bots and
    callables given as objects keep their own randomness.  An episode in which the
    learner has nothing to decide (four-handed, its partner alone from the first bid) is
    played out by the bots and the next one is dealt.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, players: int = 4, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] = "basic", *,
                 episode: str = "deal", reward: str = "points", illegal: str = "ignore",
                 render_mode: str | None = None, **options: Any) -> None:
        rules = Rules(players=players, **options)
        if not 0 <= seat < players:
            raise ValueError(f"seat is 0 to {players - 1}, not {seat}")
        if illegal not in ("ignore", "raise"):
            raise ValueError(f"illegal is 'ignore' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is None, 'ansi' or 'human', not {render_mode!r}")
        self.rules = rules
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.table = Episode(rules, episode=episode, reward=reward, keep_deal=True)
        """The episode: the compiled core, the :class:`~euchre.deal.Deal` the bots read."""
        others = [s for s in range(players) if s != seat]
        given: list[Opponent]
        if isinstance(opponents, str | Bot) or callable(opponents):
            given = [opponents] * len(others)
        else:
            given = list(opponents)
        if len(given) != len(others):
            raise ValueError(f"opponents: one for each of the {len(others)} other seats, "
                             f"not {len(given)}")
        self._opponents: dict[int, Opponent] = dict(zip(others, given, strict=True))
        self.bots: dict[int, Bot] = {s: self._seat_bot(o, None)
                                     for s, o in self._opponents.items()}
        """The bot at each other seat."""
        for bot in self.bots.values():
            check_rules(bot, rules)
        self.observation_space = gymnasium.spaces.Box(
            low=np.zeros(observation_size(players, episode), dtype=np.float32),
            high=observation_high(rules, episode), dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self._pending = 0.0  # rewards of deals the learner sat out before its first move

    @staticmethod
    def _seat_bot(opponent: Opponent, seed: int | None) -> Bot:
        if isinstance(opponent, str):
            return make_bot(opponent, seed)
        if isinstance(opponent, Bot):
            return opponent
        if callable(opponent):
            return _CallableBot(opponent)
        raise ValueError(f"an opponent is a bot level, a bot or a callable, not {opponent!r}")

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Float32Array, dict[str, Any]]:
        """Deal a new episode and let the bots play to the learner's first move."""
        super().reset(seed=seed)
        rng = self.np_random
        for s, opponent in self._opponents.items():
            if isinstance(opponent, str):
                self.bots[s] = make_bot(opponent, int(rng.integers(_SEED_RANGE)))
        table_seed = int(rng.integers(_SEED_RANGE))
        self._pending = 0.0
        self.table.reset(table_seed)
        self._pending = self._play_bots()
        while self.table.over:  # the learner had nothing to decide in this episode
            self.table.reset()
            self._pending = self._play_bots()
        return self.table.observe(self.seat), self._info()

    def _play_bots(self) -> float:
        """The bots act until the learner is to move or the episode ends; the learner's
        rewards meanwhile."""
        table = self.table
        total = 0.0
        while not table.over and table.to_move != self.seat:
            assert table.deal is not None
            rewards = table.act(choose(self.bots[table.to_move], table.deal))
            if rewards is not None:
                total += rewards[self.seat]
        return total

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions over the action space (for maskable algorithms)."""
        if self.table.over or self.table.to_move != self.seat:
            return np.zeros(NUM_ACTIONS, dtype=np.bool_)
        return self.table.legal_mask().astype(np.bool_)

    def step(self, action: Any) -> tuple[Float32Array, float, bool, bool, dict[str, Any]]:
        """The learner's ``action`` (an action id), then the bots' until its next move."""
        table = self.table
        if table.over:
            raise RuntimeError("the episode is over: reset the environment first")
        try:
            rewards = table.act(int(action))
        except IllegalActionError as e:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = str(e)
            return table.observe(self.seat), 0.0, False, False, info
        reward = self._pending + (rewards[self.seat] if rewards is not None else 0.0)
        self._pending = 0.0
        reward += self._play_bots()
        if self.render_mode == "human":
            self.render()
        return table.observe(self.seat), reward, table.over, False, self._info()

    def render(self) -> str | None:
        """``ansi``: the table in RECORDS notation as text; ``human``: printed."""
        return show(self.table, self.render_mode, gymnasium.logger.warn)


# -- many deals at once --------------------------------------------------------------------------
@_numba.jit
def _fresh(st: Any, seed: int, i: int, seat: int) -> None:
    """Deal row ``i`` afresh and play the random opponents to the learner's move; a deal
    that ends without one is dealt again."""
    while True:
        core.deal_random(st, seed, i, -1)
        while st[core.PHASE] != core.OVER and st[core.TURN] != seat:
            core.apply_action(st, core.random_action(st, seed, i))
        if st[core.PHASE] != core.OVER:
            return


@_numba.jit
def _first_illegal(states: Any, actions: Any, resetting: Any) -> int:
    for i in range(states.shape[0]):
        if not resetting[i] and not core.is_legal(states[i], actions[i]):
            return i
    return -1


@_numba.jit
def _vector_step(states: Any, seed: int, seat: int, actions: Any, resetting: Any,
                 utility: bool, off: Any, rewards: Any, terminated: Any, obs: Any,
                 masks: Any) -> None:
    """One step of every row: a reset where the row ended last step, else the learner's
    action and the random opponents' up to its next move; then the rewards, the
    observations and the legal actions."""
    points = np.zeros(5, dtype=np.int64)
    p = states[0, core.PLAYERS]
    for i in range(states.shape[0]):
        st = states[i]
        rewards[i] = 0.0
        terminated[i] = False
        if resetting[i]:
            _fresh(st, seed, i, seat)
        else:
            core.apply_action(st, actions[i])
            while st[core.PHASE] != core.OVER and st[core.TURN] != seat:
                core.apply_action(st, core.random_action(st, seed, i))
            if st[core.PHASE] == core.OVER:
                terminated[i] = True
                core.points(st, points)
                rewards[i] = core.utility(points, seat, p) if utility else float(points[seat])
        row = obs[i]
        for k in range(row.shape[0]):
            row[k] = 0.0
        vector._observe(st, seat, off, row)
        mask = masks[i]
        for k in range(NUM_ACTIONS):
            mask[k] = False
        if st[core.PHASE] != core.OVER:
            core.legal_mask(st, mask)


@_numba.jit
def _learner_random(states: Any, seed: int, out: Any) -> None:
    for i in range(states.shape[0]):
        st = states[i]
        out[i] = core.random_action(st, seed, i) if st[core.PHASE] != core.OVER else 0


class VectorEuchreEnv(VectorEnv[Float32Array, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` deal episodes of one seat against random opponents, stepped together
    in compiled code.

    Deals reset themselves the step after they end (Gymnasium's ``NEXT_STEP`` autoreset:
    that step's action is ignored).  The observation and rewards are those of
    :class:`EuchreEnv` with ``episode="deal"``; ``action_masks()`` is ``(num_envs, 111)``.
    An illegal action raises :class:`~euchre.deal.IllegalActionError` naming the
    environment, and no deal moves.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int = 1, players: int = 4, seat: int = 0,
                 opponents: str = "random", *, episode: str = "deal", reward: str = "points",
                 **options: Any) -> None:
        rules = Rules(players=players, **options)
        if opponents != "random":
            raise ValueError(f"the vector environment's opponents play at random in compiled "
                             f"code, not {opponents!r}: use EuchreEnv for bots")
        if episode != "deal":
            raise ValueError("the vector environment plays deal episodes; use EuchreEnv "
                             "for games")
        Episode(rules, episode, reward)  # refuses a reward that does not fit the variant
        if not 0 <= seat < players:
            raise ValueError(f"seat is 0 to {players - 1}, not {seat}")
        self.rules = rules
        self.seat = seat
        self.num_envs = num_envs
        self.utility = reward == "utility"
        self.deals = vector.VectorDeals(rules, num_envs, 0)
        """The deals, one per environment."""
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, 1.0, (vector.observation_size(players),), dtype=np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._offsets = vector._offsets(players)
        self._obs = np.zeros((num_envs, vector.observation_size(players)), dtype=np.float32)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._resetting = np.ones(num_envs, dtype=np.bool_)
        self._none = np.zeros(num_envs, dtype=np.int64)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Float32Array, dict[str, Any]]:
        """Deal every environment afresh; the same ``seed`` deals the same cards."""
        if isinstance(seed, list):
            seed = seed[0]
        super().reset(seed=seed)
        if seed is not None:
            self.deals.seed = int(seed) % (1 << 32)
            self.deals.states[:, core.EPISODE] = 0
        elif not hasattr(self, "_seeded"):
            self.deals.seed = random.SystemRandom().randrange(1 << 32)
        self._seeded = True
        self._resetting[:] = True
        self._run(self._none)
        return self._obs.copy(), {}

    def _run(self, actions: npt.NDArray[np.int64]) -> None:
        _vector_step(self.deals.states, self.deals.seed, self.seat, actions, self._resetting,
                     self.utility, self._offsets, self._rewards, self._terminated, self._obs,
                     self._masks)

    def step(self, actions: Any) -> tuple[Float32Array, npt.NDArray[Any], npt.NDArray[Any],
                                          npt.NDArray[Any], dict[str, Any]]:
        """One action per environment (ignored where the deal ended last step)."""
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise ValueError(f"step needs one action per environment: {self.num_envs}, "
                             f"not {acts.shape[0]}")
        bad = _first_illegal(self.deals.states, acts, self._resetting)
        if bad >= 0:
            raise IllegalActionError(
                f"environment {bad}: {self.deals._explain(bad, int(acts[bad]))}")
        self._run(acts)
        self._resetting[:] = self._terminated
        return (self._obs.copy(), self._rewards.copy(), self._terminated.copy(),
                self._truncated.copy(), {})

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """``(num_envs, 111)``: the learner's legal actions in each deal (none where the
        deal is over and resets at the next step)."""
        return self._masks.copy()

    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per environment, drawn in compiled code from
        the deals' own random streams (for benchmarks and baselines)."""
        out = np.empty(self.num_envs, dtype=np.int64)
        _learner_random(self.deals.states, self.deals.seed, out)
        return out

    def records(self) -> list[DealRecord]:
        """Each environment's deal as a RECORDS deal record (``euchre replay`` reads its
        ``to_json()``)."""
        return [self.deals.record(i) for i in range(self.num_envs)]


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=EuchreEnv, vector_entry_point=VectorEuchreEnv)
