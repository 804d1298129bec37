"""Worlds weighed by the learned policy: how likely each is to have led the other seats to
do what they did (issue 23, item 2).

A seat that cannot see the other hands (RULES §12) draws whole deals it cannot tell from
its own (:func:`euchre.worlds.sample_world`: uniform and consistent, the others' hidden
discards dealt too) and weighs each by the product, over every decision another seat
took so far, of the learned policy's probability of the action it took
(:meth:`euchre.bots.net.NetModel.forward`), on that seat's observation tensor at that
moment in that world.  The deal of every candidate is replayed from the start in one
compiled kernel (:func:`_decisions`); only the decisions with a choice count, and the
forward pass of all of them is one batch.  The weights are tempered (``power``), the
probabilities mixed with the uniform choice among the legal actions (``mix``), and the
discards the seat did not see left out (likelihood 1), or only a discard of the turn-up
itself weighed, or all (``hidden``, :data:`HIDDEN_MODES`); ``docs/benchmarks.md`` ("The
belief from the learned policy", "The expert with the learned belief") measured these
choices.

:meth:`NetBelief.draw` then resamples the candidates by weight (systematic resampling)
into at most ``count`` distinct worlds, each with how many times it was drawn, in the
expert's form (:meth:`euchre.worlds.InfoSet.world`: the hands now, the hidden dummy,
the rest of the unseen cards), for the expert's open-hand solves.

>>> import random
>>> from euchre import Deal, Rules
>>> from euchre.bots.net import net_for
>>> from euchre.worlds import InfoSet, view_from_observation
>>> rules = Rules(players=4)
>>> deal = Deal.random(rules, dealer=0, seed=3)
>>> for _ in range(6):  # four passes, then two bids of round 2 (or the play)
...     _ = deal.apply(deal.legal_actions()[0])
>>> obs = deal.observation(deal.to_move)
>>> belief = NetBelief(net_for(rules), candidates=64)
>>> drawn = belief.draw(InfoSet.of_observation(obs), random.Random(1), count=8)
>>> sum(times for _, times in drawn), len(drawn) <= 8
(8, True)
>>> all(hands[obs.seat] == deal.hand_mask(obs.seat) for hands, _ in drawn)
True
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre import _numba, core
from euchre.actions import DISCARD, NUM_ACTIONS
from euchre.bots.net import NetModel
from euchre.vector import _observe, _offsets, observation_size
from euchre.worlds import HIDDEN_DISCARD, InfoSet, _sample

__all__ = ["DEFAULT_CANDIDATES", "HIDDEN_MODES", "NetBelief", "resample"]

Int64Array = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

DEFAULT_CANDIDATES: Final = 256
"""Candidate worlds weighed a decision: with 64 the learned likelihood loses to the
expert's rules, with 256 it wins four- and two-handed (docs/benchmarks.md)."""

HIDDEN_MODES: Final = ("none", "turnup", "all")
"""How the discards the seat did not see count (:class:`NetBelief`'s ``hidden``): not at
all (likelihood 1: the default); only a discard of the turn-up itself, which a uniform
world makes one dealer's exchange in six (the expert's worlds never) and players hardly
ever do; or every one."""

_jit = _numba.jit


@_jit
def _sample_many(view: Int64Array, seat: int, seeds: Int64Array, out: Int64Array) -> int:
    """Uniform worlds of ``seat``'s ``view`` (:func:`euchre.worlds.sample_world`), one a
    seed, into the first rows of ``out``; how many were found."""
    got = 0
    for i in range(seeds.shape[0]):
        if _sample(view, seat, seeds[i], out[got]):
            got += 1
    return got


@_jit
def _decisions(
    worlds: Int64Array,
    view: Int64Array,
    me: int,
    hidden: int,
    off: Int64Array,
    obs: Any,
    legal: Any,
    actions: Int64Array,
    which: Int64Array,
) -> int:
    """Replay every world's deal from the start; before each decision of a seat other than
    ``me`` with more than one legal action, write that seat's observation, its legal mask,
    the action taken and the world's row into the next row of ``obs``, ``legal``,
    ``actions``, ``which``; the rows written.  A discard ``me`` did not see counts as
    ``hidden`` says (:data:`HIDDEN_MODES`): never, only a discard of the turn-up, or
    always."""
    st = np.zeros(core.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    steps = view[core.N_ACTIONS]
    turnup_discard = DISCARD + view[core.TURNUP]
    m = 0
    for i in range(worlds.shape[0]):
        w = worlds[i]
        for j in range(core.DEALER):
            st[j] = w[j]
        core.start(
            st,
            w[core.DEALER],
            w[core.DEALT],
            w[core.DEALT + 1],
            w[core.DEALT + 2],
            w[core.DEALT + 3],
            w[core.DEALT + 4],
            w[core.DEALT_DUMMY],
            w[core.TURNUP],
        )
        for k in range(steps):
            entry = w[core.HISTORY + k]
            seat = entry // core.SEAT_SHIFT
            a = entry % core.SEAT_SHIFT
            counts = seat != me
            if counts and view[core.HISTORY + k] % core.SEAT_SHIFT == HIDDEN_DISCARD:
                counts = hidden == 2 or (hidden == 1 and a == turnup_discard)
            if counts:
                core.legal_mask(st, mask)
                count = 0
                for b in range(NUM_ACTIONS):
                    if mask[b]:
                        count += 1
                if count > 1:
                    row = obs[m]
                    for j in range(row.shape[0]):
                        row[j] = 0.0
                    _observe(st, seat, off, row)
                    for b in range(NUM_ACTIONS):
                        legal[m, b] = mask[b]
                    actions[m] = a
                    which[m] = i
                    m += 1
            core.apply_action(st, a)
    return m


class NetBelief:
    """Candidate worlds weighed by ``model``'s likelihood of the other seats' decisions
    (see the module): ``candidates`` worlds a decision, each decision's probability mixed
    with the uniform choice (share ``mix``), the product raised to ``power``; the discards
    the seat did not see weighed as ``hidden`` says (one of :data:`HIDDEN_MODES`)."""

    def __init__(
        self,
        model: NetModel,
        candidates: int = DEFAULT_CANDIDATES,
        power: float = 0.5,
        mix: float = 0.0,
        hidden: str = "none",
    ) -> None:
        if candidates < 1:
            raise ValueError(f"candidates is 1 or more, not {candidates}")
        if hidden not in HIDDEN_MODES:
            raise ValueError(f"hidden is one of {', '.join(HIDDEN_MODES)}, not {hidden!r}")
        self.model = model
        self.candidates = candidates
        self.power = power
        self.mix = mix
        self.hidden = hidden
        self._buffers: dict[tuple[int, int], tuple[Any, ...]] = {}

    def __repr__(self) -> str:
        return (
            f"NetBelief(candidates={self.candidates}, power={self.power}, "
            f"mix={self.mix}, hidden={self.hidden!r})"
        )

    def worlds(self, view: Int64Array, seat: int, rng: random.Random) -> Int64Array:
        """Up to :attr:`candidates` uniform worlds of ``seat``'s ``view`` (core states,
        one a row), seeded from ``rng``."""
        seeds = np.array([rng.getrandbits(32) for _ in range(self.candidates)], dtype=np.int64)
        out = np.zeros((self.candidates, core.STATE_SIZE), dtype=np.int64)
        got = _sample_many(np.ascontiguousarray(view, dtype=np.int64), seat, seeds, out)
        return out[:got]

    def log_weights(self, worlds: Int64Array, view: Int64Array, seat: int) -> F64:
        """Each world's log-likelihood of the other seats' decisions (see the class).

        With no decision of another seat yet, every world weighs the same:

        >>> from euchre import Deal, Rules
        >>> from euchre.bots.net import net_for
        >>> from euchre.worlds import view_from_observation
        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> view = view_from_observation(deal.observation(1))
        >>> belief = NetBelief(net_for(Rules(players=4)), candidates=5)
        >>> worlds = belief.worlds(view, 1, random.Random(0))
        >>> belief.log_weights(worlds, view, 1).tolist()
        [0.0, 0.0, 0.0, 0.0, 0.0]
        """
        k = worlds.shape[0]
        n = int(view[core.PLAYERS])
        steps = int(view[core.N_ACTIONS])
        rows = max(k * steps, 1)
        obs, legal, actions, which = self._buffer(n, rows)
        m = _decisions(
            worlds,
            np.ascontiguousarray(view, dtype=np.int64),
            seat,
            HIDDEN_MODES.index(self.hidden),
            _offsets(n),
            obs,
            legal,
            actions,
            which,
        )
        if m == 0:
            return np.zeros(k)
        probs, _ = self.model.forward(obs[:m], legal[:m])
        taken = probs[np.arange(m), actions[:m]].astype(np.float64)
        if self.mix:
            nlegal = legal[:m].sum(axis=1)
            taken = (1.0 - self.mix) * taken + self.mix / nlegal
        logp = self.power * np.log(np.maximum(taken, 1e-30))
        return np.asarray(np.bincount(which[:m], weights=logp, minlength=k), dtype=np.float64)

    def _buffer(self, n: int, rows: int) -> tuple[Any, ...]:
        """Reusable arrays for at least ``rows`` decisions of ``n``-handed deals."""
        got = self._buffers.get((n, 0))
        if got is None or got[0].shape[0] < rows:
            rows = max(rows, 1024)
            got = (
                np.empty((rows, observation_size(n)), dtype=np.float32),
                np.empty((rows, NUM_ACTIONS), dtype=np.bool_),
                np.empty(rows, dtype=np.int64),
                np.empty(rows, dtype=np.int64),
            )
            self._buffers[n, 0] = got
        return got

    def draw(
        self,
        info: InfoSet,
        rng: random.Random,
        count: int,
    ) -> list[tuple[list[int], int]]:
        """At most ``count`` distinct worlds of what ``info``'s seat knows, resampled
        from the weighed candidates (systematic resampling: ``count`` evenly spaced
        draws from the weights' cumulative sum, one random offset), each in the form of
        :meth:`euchre.worlds.InfoSet.world` (the hands now, the hidden dummy, the rest of
        the unseen cards) with how many of the ``count`` draws fell on it.  Empty if no
        world fits (it should not happen)."""
        view, seat = info.view, info.me
        worlds = self.worlds(view, seat, rng)
        if worlds.shape[0] == 0:
            return []
        picked, times = resample(self.log_weights(worlds, view, seat), count, rng)
        return [(_hands_now(worlds[i], info), t) for i, t in zip(picked, times, strict=True)]


def resample(log_weights: F64, count: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """Systematic resampling: ``count`` evenly spaced draws (one random offset) from the
    cumulative sum of the normalised weights; the rows drawn, each once, and how many
    draws fell on each.

    >>> resample(np.log([0.5, 0.25, 0.25, 1e-9]), 4, random.Random(0))
    ([0, 1, 2], [2, 1, 1])
    """
    w = np.exp(log_weights - log_weights.max())
    cdf = np.cumsum(w / w.sum())
    cdf[-1] = 1.0
    u = (rng.random() + np.arange(count)) / count
    picked, times = np.unique(np.searchsorted(cdf, u, side="right"), return_counts=True)
    return [int(i) for i in picked], [int(t) for t in times]


def _hands_now(world: Int64Array, info: InfoSet) -> list[int]:
    """The world as :meth:`euchre.worlds.InfoSet.world` gives it: each seat's cards now
    (none for a seat sitting out), the dummy three-handed while no one took it up, then
    every other card the seat cannot see."""
    n = info.n
    out = int(world[core.OUT])
    hands = [0 if out >> s & 1 else int(world[core.HANDS + s]) for s in range(n)]
    dummy = int(world[core.DUMMY]) if n == 3 and info.phase <= core.EXCHANGE else 0
    known = info.hand | info.all_played | info.discards | info.dummy | 1 << info.turnup
    rest = info.deck & ~known
    for h in (*hands, dummy):
        rest &= ~h
    return [*hands, dummy, rest]
