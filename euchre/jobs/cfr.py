"""Training the bidding by counterfactual regret (:mod:`euchre.bots.cfr`): ``euchre train cfr``.

**The algorithm: external-sampling Monte Carlo CFR with regret matching+, in rounds.**  An
iteration deals one deal (the chance node sampled), then for each seat in turn walks the
decisions before the first lead: at that seat's own information sets every abstract action
is tried (the regrets of each get its value minus the node's), at the other seats one
action is drawn from their current strategy (whose probabilities are added to the average
strategy).  External sampling suits a game whose leaves are dear: a deal's leaves are
shared by all the seats' walks and all the actions tried (one solve each, cached by the
position at the first lead), and no probabilities of reaching a node are divided by, so
the variance stays low where a few seats decide.  The iterations are grouped in *rounds*:
the units of a round (:class:`CfrRound`, a chunked job of :mod:`euchre.jobs.distributed`)
play against the regrets as they stood at the round's start, and their increments are
added on the driver in unit order.  So a round's result does not depend on how many
workers ran it, on this machine or on Ray, and a run stopped between rounds and resumed
from its checkpoint gives the same tables as one run.  Regrets are floored at zero after
each round (regret matching+, which forgets the early rounds' poor strategies, and takes a
round's batched increments without the wide swings plain regret matching shows), and the
average strategy weighs round ``r`` by ``r`` (linear averaging, as CFR+ and discounted
CFR do): both converge faster than plain MCCFR in the published comparisons.

**The game walked** (:class:`BiddingGame`): the compiled core's deals and transitions
(:mod:`euchre.core`) through every decision before the first lead of the variant: order
up, pass or go alone, round two's naming, a turned-up joker's naming, the dealer's
discard, the five-handed call, defending alone; the three-handed dummy merge is the basic
bot's keep.  The leaves are the deal's points (RULES §9) as the seat's utility (its side's
points minus the opponents', the others' mean three- and five-handed; no game score), with
the play valued by the open-hand solver from the first lead (``leaf="solver"``), or by a
play-out of the deal by the expert's own card play (``leaf="expert:W"``, the expert with
``W`` worlds at every seat: a hundred times dearer), or by the solver's tricks read
through a :class:`LeafTable` (``leaf="fitted:W"``): how often the expert's play-outs took
each number of tricks where the solver says the makers take so many, fitted beforehand
(:class:`LeafFit`) on leaves reached by uniform random bids, so a leaf is the expected
points of the expert's play at the solver's price.  The open-hand solver alone lets the
defenders play as if they saw the makers' cards; the expert's play sees less, on both
sides, and its tricks spread around the solver's.  Every kind is cached by the position
at the first lead.

**Exploitability** (:func:`nash_conv`): on a game small enough to walk whole (a fixed
handful of deals, or a toy game), the sum over the players of what a best response gains
over the strategy.  The best response is taken within the abstraction: it chooses one
abstract action per information-set key, the keys decided from the last decisions to the
first.

This module does no I/O; the command line (:mod:`euchre.cli.train`) writes the files.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from euchre import core
from euchre.actions import DISCARD
from euchre.bots.cfr import KEYS, SLOTS, Strategy, infoset
from euchre.bots.evaluation import utility_of_gains
from euchre.deal import DealResult
from euchre.rules import Rules
from euchre.scoring import deal_points
from euchre.sides import seats
from euchre.solver import solve_position
from euchre.worlds import _bits

__all__ = [
    "DEFAULT_ITERATIONS",
    "BiddingGame",
    "CfrRound",
    "Game",
    "LeafFit",
    "LeafTable",
    "Tables",
    "average_strategy",
    "finish_round",
    "nash_conv",
    "regret_matching",
    "run_round",
    "strategy_of",
    "table_policy",
    "train_rounds",
    "traverse",
]

DEFAULT_ITERATIONS: Final = 200
"""Iterations (deals) a unit of a round plays."""

Table = npt.NDArray[np.float64]


# -- the game protocol ---------------------------------------------------------------------------
class Game(Protocol):
    """What the walk needs of a game: deals, nodes, children and values.

    A *state* is whatever the game uses; :meth:`node` may advance it in place through
    moves nobody chooses (forced, or outside the abstraction)."""

    players: int

    def deal(self, seed: int, stream: int) -> Any:
        """A root state drawn by chance from ``seed`` and ``stream``."""
        ...

    def node(self, state: Any) -> tuple[int, int, list[int]] | None:
        """``(player, key, slots)`` at a decision (``slots[i]`` the concrete action of
        abstract action ``i``, -1 if unavailable); ``None`` at a leaf."""
        ...

    def child(self, state: Any, action: int) -> Any:
        """A new state: ``action`` taken in ``state`` (which stays as it was)."""
        ...

    def value(self, state: Any, player: int) -> float:
        """The player's utility at a leaf."""
        ...


def regret_matching(regrets: Table, slots: Sequence[int]) -> list[float]:
    """The current strategy: the available slots in proportion to their positive regret,
    uniform when none is positive; zero on the unavailable ones.

    >>> regret_matching(np.array([1.0, 3.0, -2.0, 0.0, 0.0]), [99, 100, 101, -1, -1])
    [0.25, 0.75, 0.0, 0.0, 0.0]
    >>> regret_matching(np.zeros(5), [-1, 100, 101, -1, -1])
    [0.0, 0.5, 0.5, 0.0, 0.0]
    """
    pos = [max(float(r), 0.0) if a >= 0 else 0.0 for r, a in zip(regrets, slots, strict=True)]
    total = sum(pos)
    if total > 0:
        return [p / total for p in pos]
    n = sum(1 for a in slots if a >= 0)
    return [1.0 / n if a >= 0 else 0.0 for a in slots]


@dataclass
class Tables:
    """The regret and average-strategy sums, by information-set key and slot, and how
    often each key was trained (a decision of the walking seat) or sampled."""

    regret: Table
    strategy: Table
    visits: npt.NDArray[np.int64]
    rounds: int = 0

    @classmethod
    def empty(cls, keys: int = KEYS) -> Tables:
        """Zero tables of ``keys`` rows."""
        return cls(np.zeros((keys, SLOTS)), np.zeros((keys, SLOTS)),
                   np.zeros(keys, dtype=np.int64))

    def add(self, summary: dict[str, Any], weight: float) -> None:
        """Add a unit's increments (:meth:`CfrRound.settle`): the regrets as they are, the
        strategy weighted by ``weight`` (the round's number, 1 first)."""
        keys = np.asarray(summary["keys"], dtype=np.int64)
        if not len(keys):
            return
        np.add.at(self.regret, keys, np.asarray(summary["regret"], dtype=np.float64))
        np.add.at(self.strategy, keys,
                  weight * np.asarray(summary["strategy"], dtype=np.float64))
        np.add.at(self.visits, keys, np.asarray(summary["visits"], dtype=np.int64))

    def equal(self, other: Tables) -> bool:
        """Whether both hold exactly the same numbers."""
        return (self.rounds == other.rounds and np.array_equal(self.regret, other.regret)
                and np.array_equal(self.strategy, other.strategy)
                and np.array_equal(self.visits, other.visits))


def average_strategy(tables: Tables, key: int) -> list[float] | None:
    """The average strategy of ``key`` (``None`` if it never was sampled)."""
    row = tables.strategy[key]
    total = float(row.sum())
    if total <= 0:
        return None
    return [float(v) / total for v in row]


# -- the walk ----------------------------------------------------------------------------------
@dataclass
class _Increments:
    regret: dict[int, list[float]] = field(default_factory=dict)
    strategy: dict[int, list[float]] = field(default_factory=dict)
    visits: dict[int, int] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        keys = sorted(set(self.regret) | set(self.strategy) | set(self.visits))
        zero = [0.0] * SLOTS
        return {"keys": keys,
                "regret": [self.regret.get(k, zero) for k in keys],
                "strategy": [self.strategy.get(k, zero) for k in keys],
                "visits": [self.visits.get(k, 0) for k in keys]}


def traverse(game: Game, state: Any, walker: int, regrets: Table, rng: random.Random,
             inc: _Increments) -> float:
    """One external-sampling walk for ``walker`` from ``state``; its utility (module doc).
    The regrets read are ``regrets`` (the round's start); the increments go to ``inc``."""
    while True:
        got = game.node(state)
        if got is None:
            return game.value(state, walker)
        player, key, slots = got
        sigma = regret_matching(regrets[key], slots)
        if player == walker:
            values = [0.0] * SLOTS
            node = 0.0
            for i, a in enumerate(slots):
                if a >= 0:
                    values[i] = traverse(game, game.child(state, a), walker, regrets, rng,
                                         inc)
                    node += sigma[i] * values[i]
            row = inc.regret.setdefault(key, [0.0] * SLOTS)
            for i, a in enumerate(slots):
                if a >= 0:
                    row[i] += values[i] - node
            inc.visits[key] = inc.visits.get(key, 0) + 1
            return node
        row = inc.strategy.setdefault(key, [0.0] * SLOTS)
        for i in range(SLOTS):
            row[i] += sigma[i]
        i = rng.choices(range(SLOTS), sigma)[0]
        state = game.child(state, slots[i])


def run_round(game: Game, regrets: Table, seed: int, first: int, iterations: int,
              rng: random.Random) -> dict[str, Any]:
    """``iterations`` deals (streams ``first`` on), every player walked on each; the
    increments as a JSON-ready summary (keys in order)."""
    inc = _Increments()
    for i in range(iterations):
        root = game.deal(seed, first + i)
        for walker in range(game.players):
            traverse(game, root, walker, regrets, rng, inc)
    return inc.summary()


# -- euchre's bidding ---------------------------------------------------------------------------
class BiddingGame:
    """The decisions before the first lead of ``rules`` on the compiled core (module doc).

    >>> game = BiddingGame(Rules(players=4))
    >>> st = game.deal(1, 0)
    >>> player, key, slots = game.node(st)
    >>> player == (int(st[core.DEALER]) + 1) % 4, slots[:3]
    (True, [99, 100, 101])
    """

    def __init__(self, rules: Rules, leaf: str = "solver",
                 table: LeafTable | None = None) -> None:
        kind, _, worlds = leaf.partition(":")
        if not (leaf == "solver" or (kind in ("expert", "fitted") and worlds.isdigit()
                                     and int(worlds) > 0)):
            raise ValueError(f"the leaf is solver, expert:WORLDS or fitted:WORLDS, "
                             f"not {leaf!r}")
        if (kind == "fitted") != (table is not None):
            raise ValueError("a fitted leaf, and only a fitted one, takes its LeafTable")
        self.rules = rules
        self.players = rules.players
        self.leaf = leaf
        self.table = table
        self._cache: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._deal: tuple[int, int] = (-1, -1)

    def deal(self, seed: int, stream: int) -> core.Int64Array:
        """A fresh deal by the core's shuffle, its dealer drawn too."""
        st = core.new_state(self.rules)
        core.deal_random(st, seed, stream, -1)
        if self._deal != (seed, stream):
            self._deal = (seed, stream)
            self._cache = {}  # positions of another deal never recur
        return st

    def node(self, st: core.Int64Array) -> tuple[int, int, list[int]] | None:
        while st[core.PHASE] < core.PLAY:
            seat = int(st[core.TURN])
            phase = int(st[core.PHASE])
            if phase == core.DUMMY_MERGE:
                self._keep_dummy(st)
                continue
            base, bits = core.legal_bits(st)
            legal = {int(base) + i for i in _bits(int(bits))}
            calls = int(bits) if phase == core.CALL_PARTNER else 0
            got = infoset(self.rules, phase, seat, int(st[core.DEALER]),
                          int(st[core.HANDS + seat]), int(st[core.TURNUP]),
                          int(st[core.TRUMP_SUIT]), int(st[core.MAKER]),
                          bool(st[core.ALONE]), legal, calls)
            if got is None:
                core.apply_action(st, min(legal))
                continue
            key, slots = got
            if sum(1 for a in slots if a >= 0) == 1:
                core.apply_action(st, next(a for a in slots if a >= 0))
                continue
            return seat, key, slots
        return None

    def _keep_dummy(self, st: core.Int64Array) -> None:
        """The basic keep of the dummy merge: the five best cards (RULES §6)."""
        from euchre.bots.evaluation import _greedy_keep

        hand = int(st[core.HANDS + st[core.TURN]])
        keep = _greedy_keep(hand, int(st[core.TRUMP_SUIT]))
        for c in _bits(hand & ~keep):
            core.apply_action(st, DISCARD + c)

    def child(self, st: core.Int64Array, action: int) -> core.Int64Array:
        out = st.copy()
        ok = core.apply_action(out, action)
        assert ok, action
        return out

    def value(self, st: core.Int64Array, player: int) -> float:
        gains = self.gains(st)
        return utility_of_gains(gains, player, [0] * self.players, 1 << 30, 0.0)

    def gains(self, st: core.Int64Array) -> tuple[float, ...]:
        """Each seat's points of the deal from the first lead (module doc), expected ones
        for a fitted leaf; cached by the position."""
        n = self.players
        if st[core.PHASE] == core.OVER:  # thrown in
            return (0,) * n
        out = int(st[core.OUT])
        hands = [0 if out >> s & 1 else int(st[core.HANDS + s]) for s in range(n)]
        key = (*hands, int(st[core.TRUMP_SUIT]), int(core.makers_mask(st)), out,
               int(st[core.LEADER]), int(core.alone(st)), int(st[core.LONE]),
               int(st[core.MAKER]), int(st[core.PARTNER]))
        got = self._cache.get(key)
        if got is None:
            if self.leaf == "solver":
                got = self._points(st, self.solver_tricks(st))
            elif self.table is not None:
                got = self._expected(st, self.table.row(st, self.solver_tricks(st)))
            else:
                got = tuple(self.play_out(st).points)
            self._cache[key] = got
        return got

    def solver_tricks(self, st: core.Int64Array) -> int:
        """The tricks the makers take from the first lead, every seat open-handed."""
        out = int(st[core.OUT])
        hands = [0 if out >> s & 1 else int(st[core.HANDS + s]) for s in range(self.players)]
        makers = int(core.makers_mask(st)) & ~out
        return solve_position(hands, int(st[core.TRUMP_SUIT]), makers, int(st[core.LEADER]),
                              (), out, False).value

    def _points(self, st: core.Int64Array, tricks: int) -> tuple[int, ...]:
        side = seats(int(core.makers_mask(st)))
        return tuple(deal_points(self.players, side, tricks, bool(core.alone(st)),
                                 int(st[core.LONE]) >= 0))

    def _expected(self, st: core.Int64Array, probs: Sequence[float]) -> tuple[float, ...]:
        gains = [0.0] * self.players
        for tricks, p in enumerate(probs):
            if p > 0:
                for s, g in enumerate(self._points(st, tricks)):
                    gains[s] += p * g
        return tuple(gains)

    def play_out(self, st: core.Int64Array, bot: str | None = None) -> DealResult:
        """The deal played from its first lead by ``bot`` (the leaf's expert) at every
        seat, each seeded by the deal."""
        from euchre.bots import make_bot, play_deal
        from euchre.deal import Deal

        n = self.players
        dealt = [[c for c in _bits(int(st[core.DEALT + s]))] for s in range(n)]
        dummy = _bits(int(st[core.DEALT_DUMMY])) if n == 3 else None
        deal = Deal.from_cards(self.rules, int(st[core.DEALER]), dealt, int(st[core.TURNUP]),
                               dummy=dummy)
        for k in range(int(st[core.N_ACTIONS])):
            deal.apply(int(st[core.HISTORY + k]) % core.SEAT_SHIFT)
        tag = ",".join(str(int(v)) for v in st[core.DEALT:core.DEALT + n])
        name = bot or "expert:" + self.leaf.partition(":")[2]
        bots = [make_bot(name, random.Random(f"{tag}/{s}")) for s in range(n)]
        play_deal(deal, bots)
        return deal.result


# -- the fitted leaf ---------------------------------------------------------------------------
TRICKS: Final = 6
"""A side's tricks in a deal: 0 to 5."""

FIT_STREAM: Final = 1 << 40
"""The fit's deals are streams from here on: never a deal the training walks."""


def _leaf_kind(st: core.Int64Array) -> int:
    return 2 * bool(core.alone(st)) + (int(st[core.LONE]) >= 0)


@dataclass(frozen=True)
class LeafTable:
    """How many of the expert's play-outs took each number of tricks for the makers where
    the open-hand solver gives them ``s``, by the kind of contract (module doc):
    ``counts`` is flat, index ``(kind * 6 + s) * 6 + t``, with ``kind`` two for the maker
    alone plus one for a defender alone.  A row is read with one more play-out at the
    solver's own count, so a row never seen is the solver's value.

    >>> table = LeafTable.of("expert:8", [(0, 2, 3), (0, 2, 2), (0, 2, 3)])
    >>> table.probabilities(0, 2)
    [0.0, 0.0, 0.5, 0.5, 0.0, 0.0]
    >>> table.probabilities(2, 5)
    [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    >>> table.samples
    3
    """

    bot: str
    counts: tuple[int, ...]

    @classmethod
    def of(cls, bot: str, samples: Iterable[tuple[int, int, int]]) -> LeafTable:
        """The table of ``(kind, solver's tricks, played-out tricks)`` samples."""
        counts = [0] * (4 * TRICKS * TRICKS)
        for kind, solved, played in samples:
            counts[(kind * TRICKS + solved) * TRICKS + played] += 1
        return cls(bot, tuple(counts))

    @classmethod
    def sum(cls, bot: str, parts: Iterable[Sequence[int]]) -> LeafTable:
        """The table of several units' flat counts added up."""
        counts = [0] * (4 * TRICKS * TRICKS)
        for part in parts:
            for i, c in enumerate(part):
                counts[i] += int(c)
        return cls(bot, tuple(counts))

    @property
    def samples(self) -> int:
        """Play-outs counted."""
        return sum(self.counts)

    def probabilities(self, kind: int, solved: int) -> list[float]:
        """The played-out tricks' distribution where the solver gives ``solved``."""
        row = list(self.counts[(kind * TRICKS + solved) * TRICKS:][:TRICKS])
        row[solved] += 1
        total = sum(row)
        return [c / total for c in row]

    def row(self, st: core.Int64Array, solved: int) -> list[float]:
        """:meth:`probabilities` for the contract of the position ``st``."""
        return self.probabilities(_leaf_kind(st), solved)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON): the bot and the counts."""
        return {"bot": self.bot, "counts": list(self.counts)}


@dataclass(frozen=True)
class LeafFit:
    """The play-outs a :class:`LeafTable` is fitted on, as a chunked job: ``units_`` units
    of ``deals`` deals of ``seed`` (streams from :data:`FIT_STREAM`), each bid by uniform
    random choices among the abstraction's actions up to the first lead, then solved
    open-handed and played out by ``bot`` at every seat."""

    rules: Rules
    seed: int
    units_: int
    deals: int
    bot: str

    kind = "fit-leaf"

    def units(self) -> int:
        """Units of the fit."""
        return self.units_

    def parameters(self) -> dict[str, Any]:
        """What the counts depend on."""
        return {"rules": self.rules.to_dict(), "seed": self.seed, "units": self.units_,
                "deals": self.deals, "bot": self.bot}

    def run_unit(self, unit: int) -> list[int]:
        """The unit's flat counts."""
        game = BiddingGame(self.rules)
        rng = random.Random(f"{self.seed}/leaf/{unit}")
        samples = []
        for i in range(self.deals):
            st = game.deal(self.seed, FIT_STREAM + unit * self.deals + i)
            while (got := game.node(st)) is not None:
                st = game.child(st, rng.choice([a for a in got[2] if a >= 0]))
            if st[core.PHASE] == core.OVER:  # thrown in
                continue
            samples.append((_leaf_kind(st), game.solver_tricks(st),
                            game.play_out(st, self.bot).makers_tricks))
        return list(LeafTable.of(self.bot, samples).counts)

    def settle(self, unit: int, output: list[int]) -> dict[str, Any]:
        """The counts as they are (JSON)."""
        return {"counts": output}

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals a unit played."""
        return self.deals


# -- one round as a chunked job ---------------------------------------------------------------
@dataclass(frozen=True)
class CfrRound:
    """Round ``number`` (0 first) of a training: ``units`` units of ``iterations`` deals
    each, against the regrets at the round's start (``regrets``)."""

    rules: Rules
    seed: int
    number: int
    units_: int
    iterations: int
    regrets: Table
    leaf: str = "solver"
    table: LeafTable | None = None

    kind = "train-cfr"

    def units(self) -> int:
        """Units of the round."""
        return self.units_

    def parameters(self) -> dict[str, Any]:
        """What the round's increments depend on (the regrets by their sum)."""
        return {"rules": self.rules.to_dict(), "seed": self.seed, "round": self.number,
                "units": self.units_, "iterations": self.iterations, "leaf": self.leaf,
                "leaf_samples": self.table.samples if self.table else 0,
                "regret_sum": float(self.regrets.sum())}

    def run_unit(self, unit: int) -> dict[str, Any]:
        """The unit's increments."""
        first = (self.number * self.units_ + unit) * self.iterations
        rng = random.Random(f"{self.seed}/cfr/{self.number}/{unit}")
        return run_round(BiddingGame(self.rules, self.leaf, self.table), self.regrets,
                         self.seed, first, self.iterations, rng)

    def settle(self, unit: int, output: dict[str, Any]) -> dict[str, Any]:
        """The increments as they are (JSON)."""
        return output

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals a unit played."""
        return self.iterations


def strategy_of(tables: Tables, header: dict[str, Any], min_visits: int = 1) -> Strategy:
    """The average strategy of the keys trained at least ``min_visits`` times, as the
    compact file ships it (probabilities in float32)."""
    totals = tables.strategy.sum(axis=1)
    keep = np.flatnonzero((totals > 0) & (tables.visits >= min_visits))
    probs = (tables.strategy[keep] / totals[keep, None]).astype(np.float32)
    return Strategy(keep.astype(np.int32), probs,
                    np.minimum(tables.visits[keep], 2**31 - 1).astype(np.int32), header)


# -- exploitability -----------------------------------------------------------------------------
Policy = Callable[[int, list[int]], list[float]]
"""A strategy to judge: the slots' probabilities at a key, given the slots."""


def _walk(game: Game, state: Any, policy: Policy, br: int, reach: float,
          seen: dict[int, list[tuple[Any, float]]], depth: dict[int, int], own: int) -> None:
    got = game.node(state)
    if got is None:
        return
    player, key, slots = got
    if player == br:
        seen.setdefault(key, []).append((state, reach))
        depth[key] = max(depth.get(key, 0), own)
        for a in slots:
            if a >= 0:
                _walk(game, game.child(state, a), policy, br, reach, seen, depth, own + 1)
        return
    for p, a in zip(policy(key, slots), slots, strict=True):
        if a >= 0 and p > 0:
            _walk(game, game.child(state, a), policy, br, reach * p, seen, depth, own)


def _value(game: Game, state: Any, policy: Policy, player: int,
           br: dict[int, int] | None) -> float:
    got = game.node(state)
    if got is None:
        return game.value(state, player)
    who, key, slots = got
    if br is not None and who == player and key in br:
        return _value(game, game.child(state, slots[br[key]]), policy, player, br)
    return sum(p * _value(game, game.child(state, a), policy, player, br)
               for p, a in zip(policy(key, slots), slots, strict=True) if a >= 0 and p > 0)


def _slots(game: Game, state: Any) -> list[int]:
    got = game.node(state)
    assert got is not None
    return got[2]


def nash_conv(game: Game, roots: Iterable[tuple[float, Any]], policy: Policy) -> float:
    """The sum over the players of a best response's gain over ``policy`` (0 at an
    equilibrium), on a game walked whole from ``roots`` (chance's probability, state)."""
    roots = list(roots)
    total = 0.0
    for player in range(game.players):
        seen: dict[int, list[tuple[Any, float]]] = {}
        depth: dict[int, int] = {}
        for p, root in roots:
            _walk(game, root, policy, player, p, seen, depth, 0)
        br: dict[int, int] = {}
        for key in sorted(seen, key=lambda k: -depth[k]):
            best, best_v = -1, -float("inf")
            # the slots mean the same at every state of a key (the concrete action may
            # differ: the likeliest discard of one hand or another)
            states = [(s, w, _slots(game, s)) for s, w in seen[key]]
            for i in range(SLOTS):
                if any(slots[i] < 0 for _, _, slots in states):
                    continue
                v = sum(w * _value(game, game.child(s, slots[i]), policy, player, br)
                        for s, w, slots in states)
                if v > best_v:
                    best, best_v = i, v
            br[key] = best
        best_response = sum(p * _value(game, root, policy, player, br) for p, root in roots)
        now = sum(p * _value(game, root, policy, player, None) for p, root in roots)
        total += best_response - now
    return total


def table_policy(tables: Tables) -> Policy:
    """The average strategy of ``tables`` as a :data:`Policy` (uniform where unseen)."""
    def policy(key: int, slots: list[int]) -> list[float]:
        avg = average_strategy(tables, key)
        if avg is None:
            return regret_matching(np.zeros(SLOTS), slots)
        masked = [p if a >= 0 else 0.0 for p, a in zip(avg, slots, strict=True)]
        total = sum(masked)
        return [p / total for p in masked] if total > 0 else regret_matching(
            np.zeros(SLOTS), slots)
    return policy


def train_rounds(game: Game, tables: Tables, rounds: int, iterations: int, seed: int,
                 on_round: Callable[[Tables], None] | None = None) -> Tables:
    """Run ``rounds`` more rounds of one unit in this process (tests and toy games; the
    command line runs :class:`CfrRound` through the job runner)."""
    for _ in range(rounds):
        r = tables.rounds
        rng = random.Random(f"{seed}/cfr/{r}/0")
        summary = run_round(game, tables.regret.copy(), seed, r * iterations, iterations, rng)
        finish_round(tables, [summary])
        if on_round is not None:
            on_round(tables)
    return tables


def finish_round(tables: Tables, summaries: Sequence[dict[str, Any]]) -> None:
    """Add a round's unit increments in unit order and floor the regrets (RM+)."""
    weight = float(tables.rounds + 1)
    for s in summaries:
        tables.add(s, weight)
    np.maximum(tables.regret, 0.0, out=tables.regret)
    tables.rounds += 1
