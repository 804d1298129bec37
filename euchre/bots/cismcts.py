"""The ``cismcts`` bot: information-set MCTS compiled with numba over the rules core.

It searches exactly as the ``ismcts`` bot does with OpenSpiel's Python ``ISMCTSBot`` on
``python_euchre`` (:mod:`euchre.envs.ismcts`), but every step runs compiled over
:mod:`euchre.core` states, so a decision of 1000 simulations takes milliseconds, not
seconds.  It needs no OpenSpiel and plays every variant with every option.  Name it
``cismcts`` (1000 simulations a decision) or ``cismcts:SIMS``.

**The search** (single-observer ISMCTS, the settings of the ``ismcts`` bot):

* every simulation starts from a fresh world, :func:`sample_world`: the cards the seat
  to move cannot see are dealt again at random, consistent with everything it knows
  (RULES §12), and the deal's actions are replayed on it;
* the tree's nodes are keyed by the information state of the player to move in that
  world: a 63-bit hash of its seat, the dealer, its hand as dealt, the turn-up, the
  dummy if it took it up, and every action of the deal in order, other seats' discards
  hidden (what ``python_euchre``'s ``information_state_string`` holds: perfect recall);
* a node met for the first time is created and valued by one random rollout to the end
  of the deal (so one node is added a simulation); at a known node an untried action is
  tried first (picked at random), and once all have been, the action of highest UCT
  value ``mean + c * sqrt(ln N / n)`` with ``c = 2`` (ties within 1e-5 broken at
  random);
* the returns are ``python_euchre``'s zero-sum utility: a seat's points minus the
  average of the others' points for the deal; four-handed, the side's points minus the
  other side's, as OpenSpiel's own C++ ``euchre`` returns them (the four-handed peer);
* the action played is the one with the most visits at the root (ties at random).

It looks at one deal only, never at the game score, as the ``ismcts`` bot.

**What a seat knows** (RULES §12) and the worlds consistent with it are
:mod:`euchre.worlds`'s: :func:`~euchre.worlds.view_of` gives the seat's view of a state
(the hidden cards wiped out), :func:`~euchre.worlds.view_from_observation` builds the
same view from a bot's :class:`~euchre.deal.Observation`, and
:func:`~euchre.worlds.sample_world` deals a world uniformly among the deals that fit it
(all three are importable from here too).  :func:`search` runs the search on a view.

>>> from euchre import Rules
>>> from euchre.bots import play_game, make_bot
>>> game = play_game(Rules(players=3, target=5), [make_bot('cismcts:50', seed=s)
...                                               for s in range(3)], seed=2)
>>> game.is_over
True
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre import _numba, core
from euchre.actions import Action
from euchre.deal import Observation
from euchre.worlds import (
    HIDDEN_DISCARD,
    _hidden,
    _knows_dummy,
    _nth_bit,
    _popcount,
    _sample,
    sample_world,
    view_from_observation,
    view_of,
)

__all__ = ["DEFAULT_SIMULATIONS", "HIDDEN_DISCARD", "UCT_C", "CISMCTSBot", "info_key",
           "parse_options", "sample_world", "search", "view_from_observation", "view_of"]

DEFAULT_SIMULATIONS: Final = 1000
UCT_C: Final = 2.0
"""The UCT constant, the ``ismcts`` bot's."""
TIE_TOLERANCE: Final = 1e-5
"""UCT values this close to the best count as ties (OpenSpiel's ISMCTS uses the same)."""

Int64Array = npt.NDArray[np.int64]

_jit = _numba.jit
# the streams of the counter-based random numbers (core.random_u32); the worlds draw on
# stream 11 (euchre.worlds)
_WORLD: Final = 12
_ROLLOUT: Final = 13
_TREE: Final = 14


@_jit
def info_key(st: Int64Array, seat: int) -> int:
    """A 63-bit hash of ``seat``'s information state in ``st`` (never 0): what
    :func:`view_of` keeps, the actions in order."""
    h1 = 0x2545F491
    h2 = 0x6A09E667
    values = (seat, st[core.DEALER], st[core.TURNUP], st[core.DEALT + seat],
              st[core.DEALT_DUMMY] if _knows_dummy(st, seat) else -1)
    k = 0
    for v in values:
        h1 = core.random_u32(h1, v, k)
        h2 = core.random_u32(h2, v, k + 0x3C6EF372)
        k += 1
    n = st[core.N_ACTIONS]
    for i in range(n):
        entry = st[core.HISTORY + i]
        if _hidden(entry, seat):
            entry = entry // core.SEAT_SHIFT * core.SEAT_SHIFT + HIDDEN_DISCARD
        h1 = core.random_u32(h1, entry, k)
        h2 = core.random_u32(h2, entry, k + 0x3C6EF372)
        k += 1
    h1 = core.random_u32(h1, n, k)
    key = (h1 & 0x7FFFFFFF) << 32 | h2
    return key if key != 0 else 1


# -- the search ------------------------------------------------------------------------------
@_jit
def _utility(st: Int64Array, pts: Int64Array, out: Any) -> None:
    """Each seat's return for the finished deal: its points minus the others' mean; four-
    handed, its side's points minus the other side's."""
    p = st[core.PLAYERS]
    core.points(st, pts)
    for s in range(p):
        if p == 4:
            out[s] = pts[s] - pts[(s + 1) % 4]
        else:
            out[s] = core.utility(pts, s, p)


@_jit
def _search(view: Int64Array, seat: int, seed: int, simulations: int, uct_c: float,
            visits: Int64Array) -> int:
    """ISMCTS from ``seat``'s view: the root's visits by legal bit into ``visits`` (33);
    the root's action base, or -1 when no world fits the view."""
    cap = 1
    while cap < 2 * (simulations + 2):
        cap <<= 1
    keys = np.zeros(cap, dtype=np.int64)
    slots = np.zeros(cap, dtype=np.int64)
    most = simulations + 2
    total = np.zeros(most, dtype=np.int64)
    expanded = np.zeros(most, dtype=np.int64)
    child_visits = np.zeros((most, 33), dtype=np.int64)
    child_sums = np.zeros((most, 33), dtype=np.float64)
    nodes = 0
    world = np.zeros(core.STATE_SIZE, dtype=np.int64)
    pts = np.zeros(5, dtype=np.int64)
    util = np.zeros(5, dtype=np.float64)
    path_node = np.zeros(core.HISTORY_SIZE, dtype=np.int64)
    path_bit = np.zeros(core.HISTORY_SIZE, dtype=np.int64)
    path_player = np.zeros(core.HISTORY_SIZE, dtype=np.int64)
    values = np.zeros(33, dtype=np.float64)
    ctr = 0
    root_key = info_key(view, seat)
    root_base = -1
    for sim in range(simulations):
        if not _sample(view, seat, core.random_u32(seed, _WORLD, sim), world):
            return -1
        if sim == 0:
            root_base, _ = core.legal_bits(world)
        depth = 0
        while world[core.PHASE] != core.OVER:
            player = world[core.TURN]
            key = info_key(world, player)
            at = key & (cap - 1)
            while keys[at] != 0 and keys[at] != key:
                at = (at + 1) & (cap - 1)
            if keys[at] == 0:  # a new node: valued by one random rollout
                keys[at] = key
                slots[at] = nodes
                nodes += 1
                core.random_rollout(world, core.random_u32(seed, _ROLLOUT, sim), 0)
                break
            node = slots[at]
            base, bits = core.legal_bits(world)
            untried = bits & ~expanded[node]
            if untried:
                bit = _nth_bit(untried, core.random_below(seed, _TREE, ctr, _popcount(untried)))
                ctr += 1
                expanded[node] |= 1 << bit
            else:
                log_n = math.log(total[node])
                best = -np.inf
                rest = bits
                while rest:
                    i = _nth_bit(rest, 0)
                    rest &= rest - 1
                    n = child_visits[node, i]
                    values[i] = child_sums[node, i] / n + uct_c * math.sqrt(log_n / n)
                    if values[i] > best:
                        best = values[i]
                ties = 0
                rest = bits
                while rest:
                    i = _nth_bit(rest, 0)
                    rest &= rest - 1
                    if values[i] > best - TIE_TOLERANCE:
                        ties |= 1 << i
                bit = _nth_bit(ties, core.random_below(seed, _TREE, ctr, _popcount(ties)))
                ctr += 1
            total[node] += 1
            child_visits[node, bit] += 1
            path_node[depth] = node
            path_bit[depth] = bit
            path_player[depth] = player
            depth += 1
            core.apply_action(world, base + bit)
        _utility(world, pts, util)
        for d in range(depth):
            child_sums[path_node[d], path_bit[d]] += util[path_player[d]]
    for i in range(33):
        visits[i] = 0
    at = root_key & (cap - 1)
    while keys[at] != 0:
        if keys[at] == root_key:
            for i in range(33):
                visits[i] = child_visits[slots[at], i]
            break
        at = (at + 1) & (cap - 1)
    return root_base


def search(view: Int64Array, seat: int, seed: int,
           simulations: int = DEFAULT_SIMULATIONS, uct_c: float = UCT_C) -> dict[int, int]:
    """Search ``seat``'s decision in ``view`` (``seat`` to move): each legal action id
    with its visits at the root.

    >>> from euchre.rules import Rules
    >>> st = core.new_state(Rules(players=2)); core.deal_random(st, 5, 0, 0)
    >>> visits = search(st, int(st[core.TURN]), seed=1, simulations=200)
    >>> sorted(visits) == [core.PASS, core.ORDER], sum(visits.values())
    (True, 199)
    """
    visits = np.zeros(33, dtype=np.int64)
    base = _search(np.ascontiguousarray(view, dtype=np.int64), int(seat),
                   int(seed) & 0xFFFFFFFF, int(simulations), float(uct_c), visits)
    if base < 0:
        raise ValueError(f"no deal fits what seat {seat} knows of this one")
    world = sample_world(view, seat, seed)
    if int(world[core.TURN]) != seat or int(world[core.PHASE]) == core.OVER:
        raise ValueError(f"seat {seat} is not to move")
    _, bits = core.legal_bits(world)
    return {base + i: int(visits[i]) for i in range(33) if bits >> i & 1}


def parse_options(text: str) -> dict[str, int]:
    """The options after ``cismcts:``: the simulations a decision.

    >>> parse_options('500'), parse_options('')
    ({'simulations': 500}, {})
    """
    if not text:
        return {}
    if not text.isdigit() or int(text) <= 0:
        raise ValueError(f"cismcts takes cismcts:SIMULATIONS, a positive whole number, "
                         f"not 'cismcts:{text}'")
    return {"simulations": int(text)}


class CISMCTSBot:
    """Information-set MCTS over the compiled core (see the module): ``simulations`` a
    decision, UCT constant ``uct_c``; ``seed`` makes its choices reproducible."""

    name = "cismcts"

    def __init__(self, seed: int | random.Random | None = None,
                 simulations: int = DEFAULT_SIMULATIONS, uct_c: float = UCT_C) -> None:
        if simulations < 1:
            raise ValueError(f"cismcts needs at least one simulation, not {simulations}")
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.simulations = simulations
        self.uct_c = uct_c

    def __repr__(self) -> str:
        return f"CISMCTSBot(simulations={self.simulations})"

    def act(self, observation: Observation) -> Action:
        """Search the seat's decision and play the action visited most."""
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        view = view_from_observation(observation)
        visits = search(view, observation.seat, self.rng.getrandbits(32), self.simulations,
                        self.uct_c)
        ids = {a.id for a in legal}
        if set(visits) != ids:
            raise RuntimeError(f"cismcts: the worlds of seat {observation.seat} have the "
                               f"legal actions {sorted(visits)}, the deal {sorted(ids)}")
        best = max(visits.values())
        return Action.from_id(self.rng.choice(sorted(a for a, v in visits.items() if v == best)))
