"""Bids judged by play-outs under the learned policy (issue 23, item 3): the expert whose
decisions before the first lead are valued by playing each sampled world to the end of the
deal with every seat following the net's policy, instead of by open-hand solves.

Run ``python benchmarks/net_playouts.py [--players 4] [--sets N] [--seed S] [--worlds 32]
[--blend W ...] [--playouts N ...] [--expert] [--log FILE]`` (one arm per weight and number
of worlds played out), or ``--calibration DEALS`` (the expert's ``calibration`` of
:mod:`expert_diagnostics` with this bot's bids judged), ``--timing DEALS`` (the time of its
pre-play decisions alone) or ``--agree DEALS`` (:func:`agreement`).

The variant (:class:`PlayoutBot`) is ``expert:WORLDS`` (fixed worlds, no time budget) in
the play of the cards.  Before the first lead (bids, alone, trump, the dealer's discard,
the dummy merge, the five-handed call, defending alone) it samples ``WORLDS`` worlds the way
the expert samples them for its own pre-play values (:class:`euchre.bots.knowledge._Worlds`:
the hands as they are now, weighed by how likely the others' bids are with them), writes
each into the core state of the position (:mod:`euchre.core`, the history included, so
that every seat's observation tensor holds the bids so far), applies each candidate action,
and plays all the rows to the end of the deal together (:func:`play_out`): every seat
takes the legal action the net's policy ranks first (:func:`euchre.bots.net.net_for`), one
forward pass a step over the rows still going.  An action's value is the weighted mean
over the worlds of the seat's utility of the deal's points (its side's minus the
opponents', with the expert's game bonus: the unit of PIMC's values,
:func:`euchre.bots.evaluation.utility_of_gains`); a deal thrown in is worth 0.  The
candidates are the expert's own (going alone only with a hand that could march, the two
best suits in round 2).  ``--blend W`` values them by ``W`` times the play-out value plus
``1 - W`` times the expert's corrected PIMC value (1, the default: the play-outs alone).
Nothing is registered: the bots are built here, never by name.

The match is :func:`net_bids.match`: a duplicate tournament against ``pimc:WORLDS`` on the
sets ``euchre tournament --bots expert:WORLDS,pimc:WORLDS --seed S`` plays; ``--expert``
plays ``expert:WORLDS`` beside it on the same sets and reports the paired difference.

A play-out is the net playing every seat: the same deal as the ``net`` bot playing itself.

>>> from euchre import Deal, Rules
>>> from euchre.bots import play_deal
>>> from euchre.bots.net import NetBot
>>> from euchre.vector import deal_state
>>> rules = Rules(players=4)
>>> deal = Deal.random(rules, dealer=0, seed=5)
>>> points = play_out(MODEL_4, deal_state(deal)[None, :])
>>> played = play_deal(deal.copy(), [NetBot() for _ in range(4)])
>>> tuple(points[0, :4]) == played.result.points
True
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# one thread for the net's small products: on shared cores more only wait on each other
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
import expert_diagnostics
from net_bids import BotFactory, arm_figures, play_arms

from euchre import Deal, Rules, _numba, core, vector
from euchre.actions import NUM_ACTIONS, Action
from euchre.bots import Bot, choose
from euchre.bots.evaluation import _keep_tie, _PrePlayEval, utility_of_gains
from euchre.bots.expert import DEFAULT_SAMPLES, ExpertBot, PimcBot
from euchre.bots.knowledge import _EXCHANGE, _Know
from euchre.bots.net import NetModel, net_for
from euchre.deal import Observation, Phase
from euchre.jobs.bench import cpu_model, percentile
from euchre.worlds import view_from_observation

Int64Array = npt.NDArray[np.int64]


@_numba.jit
def _observe_to_move(states: Int64Array, rows: Int64Array, off: Int64Array, out: Any) -> None:
    """Row ``j`` of ``out`` (zeroed): the observation of ``states[rows[j]]`` by its seat to
    move."""
    for j in range(rows.shape[0]):
        st = states[rows[j]]
        vector._observe(st, st[core.TURN], off, out[j])


def play_out(model: NetModel, states: Int64Array) -> Int64Array:
    """Play every row of ``states`` (core states, changed in place) to the end of its deal,
    every seat taking the legal action ``model``'s policy ranks first; each row's RULES §9
    points by seat, ``(rows, 5)``.  The rows go on together: one forward pass a step over
    those not finished.

    A deal thrown in scores nothing:

    >>> from euchre import Rules
    >>> from euchre.actions import PASS
    >>> st = core.new_state(Rules(players=4)); core.deal_random(st, 1, 0, 0)
    >>> for _ in range(8):
    ...     _ = core.apply_action(st, PASS)
    >>> play_out(MODEL_4, st[None, :]).tolist()
    [[0, 0, 0, 0, 0]]
    """
    rows = states.shape[0]
    players = int(states[0, core.PLAYERS]) if rows else 4
    off = vector._offsets(players)
    size = vector.observation_size(players)
    actions = np.full(rows, -1, dtype=np.int64)
    while True:
        live = np.flatnonzero(states[:, core.PHASE] != core.OVER).astype(np.int64)
        if live.size == 0:
            break
        obs = np.zeros((live.size, size), dtype=np.float32)
        _observe_to_move(states, live, off, obs)
        mask = np.zeros((live.size, NUM_ACTIONS), dtype=np.bool_)
        vector._legal(states[live], mask)
        logits, _ = model.logits_and_value(obs)
        actions[:] = -1
        actions[live] = np.where(mask, logits, -np.inf).argmax(axis=1)
        vector._step(states, actions)
    points = np.zeros((rows, 5), dtype=np.int64)
    vector._points(states, points)
    return points


def playout_values(
    model: NetModel,
    worlds: Sequence[Int64Array],
    weights: Sequence[float],
    actions: Sequence[int],
    utility: Callable[[Sequence[int]], float],
) -> list[float]:
    """The value of each action id of ``actions`` applied to each of ``worlds`` (core
    states where the seat is to move), the deal then played out by ``model``'s policy:
    the ``weights``-weighted mean over the worlds of ``utility`` of the points.

    With every world the same, the value is that of the single play-out:

    >>> from euchre import Deal, Rules
    >>> from euchre.vector import deal_state
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=2)
    >>> world = deal_state(deal)
    >>> net = lambda points: float(points[1] - points[0])
    >>> one = playout_values(MODEL_4, [world], [1.0], [99, 100], net)
    >>> one == playout_values(MODEL_4, [world] * 5, [0.5, 1, 2, 1, 3], [99, 100], net)
    True
    """
    if not worlds:
        return [0.0] * len(actions)
    rows = []
    for world in worlds:
        for a in actions:
            st = world.copy()
            if not core.apply_action(st, a):
                raise ValueError(f"action {a} is not legal in a world")
            rows.append(st)
    points = play_out(model, np.stack(rows))
    players = int(worlds[0][core.PLAYERS])
    utils = np.array([utility(p[:players].tolist()) for p in points]).reshape(
        len(worlds), len(actions)
    )
    w = np.asarray(weights, dtype=np.float64)
    if w.sum() <= 0:
        w = np.ones(len(worlds))
    return [float(x) for x in w @ utils / w.sum()]


class PlayoutBot(ExpertBot):
    """The expert whose pre-play values are play-outs under the net's policy (blended
    with its own corrected PIMC values by ``blend``; 1.0: the play-outs alone).  Fixed
    worlds, no time budget, as ``expert:WORLDS``; ``playouts`` worlds for the play-outs
    (``samples`` by default)."""

    name = "playouts"

    def __init__(
        self,
        seed: int | random.Random | None = None,
        samples: int = DEFAULT_SAMPLES,
        blend: float = 1.0,
        playouts: int | None = None,
    ) -> None:
        super().__init__(seed, samples, time_budget=None)
        self.blend = blend
        self.playouts = samples if playouts is None else playouts
        self.times: list[float] = []
        """Milliseconds of each pre-play decision with a choice (:meth:`act`)."""

    def act(self, observation: Observation) -> Action:
        """The expert's :meth:`~euchre.bots.expert.PimcBot.act`, timed before the play."""
        if observation.phase is Phase.PLAY or len(observation.legal_actions) < 2:
            return super().act(observation)
        start = time.perf_counter()
        action = super().act(observation)
        self.times.append((time.perf_counter() - start) * 1000)
        return action

    def net_playout_values(self, obs: Observation, everything: bool) -> dict[Action, float]:
        """The play-out value of each candidate action (every legal one with
        ``everything``, else the expert's candidates) for ``obs``'s seat."""
        model = net_for(obs.rules)
        if model is None:
            raise ValueError("no net model for these rules")
        ev = _PrePlayEval(self, _Know(obs), everything)
        if obs.phase is Phase.DUMMY:
            legal = list(obs.legal_actions)
        else:
            ids = set(ev._candidates())
            legal = [a for a in obs.legal_actions if a.id in ids]
        view = view_from_observation(obs)
        base = ev.start.copy()
        used = int(view[core.N_ACTIONS])
        base[core.N_ACTIONS] = used
        base[core.HISTORY : core.HISTORY + used] = view[core.HISTORY : core.HISTORY + used]
        n = obs.rules.players
        worlds, weights = [], []
        for _ in range(self.playouts):
            hands = ev.world()
            if hands is None:
                break
            st = base.copy()
            st[core.HANDS : core.HANDS + n] = hands[:n]
            st[core.DUMMY] = hands[n] if n == 3 else 0
            worlds.append(st)
            weights.append(ev.weight(hands))
        me, scores, target, bonus = obs.seat, list(obs.scores), obs.rules.target, self.game_bonus

        def utility(points: Sequence[int]) -> float:
            return utility_of_gains(points, me, scores, target, bonus)

        got = playout_values(model, worlds, weights, [a.id for a in legal], utility)
        return dict(zip(legal, got, strict=True))

    def _values(
        self, obs: Observation, everything: bool
    ) -> tuple[dict[Action, float], dict[Action, float]]:
        if obs.phase is Phase.PLAY:
            return super()._values(obs, everything)
        if self.blend >= 1.0:
            values = self.net_playout_values(obs, everything)
            tie: dict[Action, float] = {}
            k = _Know(obs)
            if k.phase == _EXCHANGE:  # among equal values, throw the card least worth keeping
                for a in values:
                    c = int(a.card) if a.card is not None else 0
                    tie[a] = -_keep_tie(k.trump, c)
            return values, tie
        expert, tie = super()._values(obs, everything)
        play = self.net_playout_values(obs, everything)
        w = self.blend
        return {a: w * play[a] + (1 - w) * expert[a] for a in play if a in expert}, tie


def timing(
    rules: Rules, deals: int, seed: int, worlds: int, blend: float, playouts: int | None = None
) -> list[float]:
    """The milliseconds of the variant's pre-play decisions with a choice, on ``deals``
    deals it plays at every seat.

    >>> len(timing(Rules(players=4), 1, 0, 2, 1.0)) >= 1
    True
    """
    out: list[float] = []
    for i in range(deals):
        deal = Deal.random(rules, dealer=i % rules.players, seed=seed + i)
        bot = PlayoutBot(i, samples=worlds, blend=blend, playouts=playouts)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            deal.apply(choose(bot, deal))
        out += bot.times
    return out


def agreement(
    rules: Rules, deals: int, seed: int, worlds: int, playouts: int | None = None
) -> dict[str, list[int]]:
    """How often the variant (the play-outs alone) takes another action than
    ``expert:WORLDS`` before the first lead, on deals the expert plays at every seat:
    ``{phase: [differ, decisions with a choice]}`` (as :func:`net_bids.agreement`).

    >>> agreement(Rules(players=4), 1, 0, 2)["BID_TURNUP"][1] >= 1
    True
    """
    out: dict[str, list[int]] = {}
    for i in range(deals):
        deal = Deal.random(rules, dealer=i % rules.players, seed=seed + i)
        expert = ExpertBot(i, samples=worlds, time_budget=None)
        variant = PlayoutBot(i, samples=worlds, playouts=playouts)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            a = expert.act(obs)
            if len(obs.legal_actions) > 1:
                row = out.setdefault(obs.phase.name, [0, 0])
                row[0] += variant.act(obs) != a
                row[1] += 1
            deal.apply(a)
    return out


def percentiles(times: Sequence[float]) -> dict[str, float]:
    """Median and 99th percentile, in ms.

    >>> percentiles([1.0, 2.0, 3.0])["median_ms"]
    2.0
    """
    if not times:
        return {}
    xs = sorted(times)
    return {
        "decisions": len(xs),
        "median_ms": round(statistics.median(xs), 2),
        "p99_ms": round(percentile(xs, 0.99), 2),
    }


def label(blend: float, playouts: int | None = None) -> str:
    """An arm's name: ``playouts`` alone, ``blend0.5`` blended, ``/128`` with 128 worlds
    played out rather than ``--worlds``.

    >>> label(1.0), label(0.5), label(1.0, 128)
    ('playouts', 'blend0.5', 'playouts/128')
    """
    name = "playouts" if blend >= 1.0 else f"blend{blend:g}"
    return name if playouts is None else f"{name}/{playouts}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the match(es), the calibration or the timing, and print the figures as JSON."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--sets", type=int, default=2000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument(
        "--blend",
        type=float,
        nargs="+",
        default=[1.0],
        help="one arm per weight of the play-outs (1: the play-outs alone)",
    )
    p.add_argument(
        "--playouts",
        type=int,
        nargs="+",
        help="worlds played out (--worlds by default); one arm per number and weight",
    )
    p.add_argument("--expert", action="store_true", help="expert:WORLDS against pimc too")
    p.add_argument("--log", help="a JSON line per set")
    p.add_argument(
        "--start",
        type=int,
        default=0,
        help="the first set (a multiple of 50): the rest of a longer run, set for set",
    )
    p.add_argument(
        "--calibration",
        type=int,
        metavar="DEALS",
        help="expert_diagnostics calibration of the variant's bids (seed 7 there)",
    )
    p.add_argument("--timing", type=int, metavar="DEALS", help="only the pre-play times")
    p.add_argument(
        "--agree", type=int, metavar="DEALS", help="only how often the variant's bids differ"
    )
    args = p.parse_args(argv)
    rules = Rules(players=args.players)
    w, blend = args.worlds, args.blend[0]
    counts: list[int | None] = list(args.playouts or [None])
    if args.calibration:
        expert_diagnostics.JUDGED["playouts"] = lambda s: PlayoutBot(
            s, samples=w, blend=blend, playouts=counts[0]
        )
        return expert_diagnostics.main(
            [
                "calibration",
                "--bot",
                "playouts",
                "--players",
                str(args.players),
                "--deals",
                str(args.calibration),
                "--seed",
                str(args.seed),
                "--workers",
                "1",
                "--json",
            ]
        )
    if args.agree:
        json.dump(agreement(rules, args.agree, args.seed, w, counts[0]), sys.stdout)
        print()
        return 0
    if args.timing:
        times = timing(rules, args.timing, args.seed, w, blend, counts[0])
        json.dump(
            {
                "players": args.players,
                "worlds": w,
                "blend": blend,
                "playouts": counts[0] or w,
                "cpu": cpu_model(),
                **percentiles(times),
            },
            sys.stdout,
        )
        print()
        return 0

    made: list[PlayoutBot] = []

    def variant(weight: float, count: int | None) -> BotFactory:
        def make(rng: random.Random) -> Bot:
            bot = PlayoutBot(rng, samples=w, blend=weight, playouts=count)
            if weight >= 1.0 and count == counts[0]:
                made.append(bot)
            return bot

        return make

    def expert(rng: random.Random) -> Bot:
        return ExpertBot(rng, samples=w, time_budget=None)

    def pimc(rng: random.Random) -> Bot:
        return PimcBot(rng, samples=w, time_budget=None)

    arms = {label(b, c): variant(b, c) for c in counts for b in args.blend}
    if args.expert:
        arms["expert"] = expert
    started = time.perf_counter()
    rows = play_arms(rules, arms, pimc, args.sets, args.seed, args.start, args.log)
    out = {
        "players": args.players,
        "seed": args.seed,
        "worlds": w,
        "blend": args.blend,
        "playout_worlds": args.playouts or [w],
        "seconds": round(time.perf_counter() - started, 1),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        **arm_figures(rows, list(arms)),
        "pre_play_times": percentiles([t for bot in made for t in bot.times]),
    }
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


MODEL_4 = net_for(Rules(players=4))
"""The shipped four-handed net (for the examples)."""

if __name__ == "__main__":
    raise SystemExit(main())
