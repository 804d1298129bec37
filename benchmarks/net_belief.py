"""The belief from the learned policy (issue 23, item 2): worlds weighed by how likely the
net finds what the other seats did, against ``pimc``'s and the ``expert``'s worlds.

Run ``python benchmarks/net_belief.py [--players 4 2 3] [--deals N] [--seed S]
[--worlds W] [--json]``.  The cases are those of ``benchmarks/inference.py`` (its
:func:`cases`: every decision with two or more legal actions of ``pimc:16`` self-play, the
default rules, seed 7000) and the score is its: the mean natural log of the weighted share
of the worlds that put each card another seat truly holds in that seat's hand (a share
below 0.001 counts as 0.001), for the play and the bids (both rounds) separately.

``pimc`` and ``expert``
    As ``benchmarks/inference.py`` scores them (:func:`inference.belief`, inference off
    and on), with ``W`` worlds (its own figures: 64).

``uniform``
    ``W`` whole deals the seat cannot tell from its own (:func:`euchre.worlds.sample_world`:
    uniform and consistent, the others' hidden discards dealt too), equal weights: the
    control of the weighted rows below, drawn from the same worlds.

``net``
    The same worlds, each weighed by the product, over every decision another seat took
    so far, of the learned policy's probability of the action it took
    (:meth:`euchre.bots.net.NetModel.forward` on that seat's observation tensor at that
    moment in that world: the world's deal replayed from the start, one batch a case).
    The world fixes every hidden discard, so a discard the observer did not see is
    weighed too; ``net, hidden discards 1`` leaves those decisions out (likelihood 1).
    ``net^0.5`` takes the square root of every world's weight (a tempered policy);
    ``net mixed 0.2`` mixes each probability with the uniform choice among the legal
    actions (one part in five: the net was trained on the expert, the cases are played by
    ``pimc:16``, and an action it finds all but impossible would end a world alone);
    ``... x expert`` multiplies the weight by the expert's six rules
    (:meth:`euchre.bots.knowledge._Worlds.weight`) on the world's hands now.  The
    effective number of worlds under the ``net`` weights (``(sum w)^2 / sum w^2``,
    median) is reported beside.

``net^0.5, hidden 1`` and ``net^0.5, turn-up discard``
    Tempered, the hidden discards left at 1; or only a discard of the turn-up itself
    weighed (:class:`euchre.bots.belief.NetBelief` with ``hidden="turnup"``, the weights
    it computes itself: a uniform world makes the turn-up the dealer's discard one
    exchange in six).
    ``..., D drawn`` (``--drawn D``, 32 by default; also of ``net mixed 0.2``, the
    weighting it plays two-handed) are the worlds the expert with the
    learned belief solves (``benchmarks/net_expert.py``): ``D`` draws from those weights
    by systematic resampling (:func:`euchre.bots.belief.resample`), each world weighed by
    the times it was drawn; ``expert, D`` is the expert's own belief with ``D`` worlds,
    what ``expert:D`` solves.

``ms``
    The median time of the net weighting per case: the replays, the encodings and the
    forward pass of the ``W`` worlds (not their sampling), one Python loop over compiled
    steps; the wall clock and the process's CPU time (the one to trust on a busy machine
    under ``nice``).  Run it with ``OMP_NUM_THREADS=1``: numpy's BLAS would spread each
    forward pass over threads that wait for each other on a shared machine (ten times
    the CPU time measured).

Only the variants with a shipped net (two-, three- and four-handed) are measured.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from euchre import Rules, core
from euchre.actions import NUM_ACTIONS
from euchre.bots.belief import NetBelief, resample
from euchre.bots.knowledge import _Know, _Worlds
from euchre.bots.net import NetModel, net_for
from euchre.deal import Observation, Phase
from euchre.jobs.bench import cpu_model, load_average
from euchre.solver import warm_up
from euchre.vector import _observe, _offsets, observation_size
from euchre.worlds import HIDDEN_DISCARD, _bits, sample_world, view_from_observation


def _inference() -> Any:
    """``benchmarks/inference.py`` (the folder is not a package)."""
    name = "bench_inference"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).resolve().parent / "inference.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


Replay = tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64],
               npt.NDArray[np.bool_]]


def replay(world: npt.NDArray[np.int64], view: npt.NDArray[np.int64], me: int) -> Replay:
    """The decisions the other seats took in ``world`` (a core state): replay its deal
    from the start and, before each action of a seat other than ``me``, that seat's
    observation tensor and legal mask; with the action taken and whether ``me`` could not
    see it (a hidden discard in ``view``, ``me``'s view of the deal).

    Replaying a real deal with seat 0 as the observer gives the three others' first
    decisions:

    >>> from euchre import Deal
    >>> from euchre.vector import deal_state
    >>> deal = Deal.random(Rules(players=4), dealer=3, seed=1)
    >>> for _ in range(4):
    ...     _ = deal.apply(deal.observation(deal.to_move).legal_actions[0])
    >>> st = deal_state(Deal.from_record(deal.to_record()))
    >>> for a in deal.actions:
    ...     assert core.apply_action(st, a.id)
    >>> obs, legal, actions, hidden = replay(st, st, 0)
    >>> obs.shape[0], bool(legal[np.arange(3), actions].all()), bool(hidden.any())
    (3, True, False)
    """
    n = int(world[core.PLAYERS])
    off = _offsets(n)
    st = np.zeros(core.STATE_SIZE, dtype=np.int64)
    st[:core.DEALER] = world[:core.DEALER]
    dealt = [int(world[core.DEALT + s]) for s in range(5)]
    core.start(st, int(world[core.DEALER]), *dealt, int(world[core.DEALT_DUMMY]),
               int(world[core.TURNUP]))
    steps = int(world[core.N_ACTIONS])
    obs = np.zeros((steps, observation_size(n)), dtype=np.float32)
    legal = np.zeros((steps, NUM_ACTIONS), dtype=np.bool_)
    actions = np.zeros(steps, dtype=np.int64)
    hidden = np.zeros(steps, dtype=np.bool_)
    m = 0
    for k in range(steps):
        entry = int(world[core.HISTORY + k])
        seat, a = divmod(entry, core.SEAT_SHIFT)
        if seat != me:
            _observe(st, seat, off, obs[m])
            core.legal_mask(st, legal[m])
            actions[m] = a
            hidden[m] = int(view[core.HISTORY + k]) % core.SEAT_SHIFT == HIDDEN_DISCARD
            m += 1
        if not core.apply_action(st, a):
            raise ValueError(f"the world's action {a} at step {k} is illegal")
    return obs[:m], legal[:m], actions[:m], hidden[:m]


Decisions = tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.bool_],
                  npt.NDArray[np.int64]]


def decisions(model: NetModel, worlds: list[npt.NDArray[np.int64]],
              view: npt.NDArray[np.int64], me: int) -> Decisions:
    """The others' decisions in every world (:func:`replay`), in one forward pass of the
    net: the policy's probability of the action taken, the number of legal actions,
    whether ``me`` could not see it, and the world it belongs to."""
    parts = [replay(w, view, me) for w in worlds]
    sizes = [p[0].shape[0] for p in parts]
    which = np.repeat(np.arange(len(worlds)), sizes)
    if sum(sizes) == 0:
        return (np.ones(0), np.ones(0, dtype=np.int64), np.zeros(0, dtype=np.bool_), which)
    obs = np.concatenate([p[0] for p in parts])
    legal = np.concatenate([p[1] for p in parts])
    actions = np.concatenate([p[2] for p in parts])
    hidden = np.concatenate([p[3] for p in parts])
    probs, _ = model.forward(obs, legal)
    taken = probs[np.arange(len(actions)), actions].astype(np.float64)
    return taken, legal.sum(axis=1).astype(np.int64), hidden, which


def log_likelihood(d: Decisions, worlds: int, mix: float = 0.0, power: float = 1.0,
                   hidden_as_one: bool = False) -> npt.NDArray[np.float64]:
    """Each world's log-likelihood of the others' decisions: the product of the policy's
    probabilities, each mixed with the uniform choice among the legal actions (share
    ``mix``), raised to ``power``; the hidden discards count 1 with ``hidden_as_one``.

    >>> d = (np.array([0.5, 0.0, 1.0]), np.array([2, 4, 3]), np.array([False, False, True]),
    ...      np.array([0, 1, 1]))
    >>> np.round(np.exp(log_likelihood(d, 2, mix=0.2)), 4).tolist()
    [0.5, 0.0433]
    >>> np.round(np.exp(log_likelihood(d, 2, hidden_as_one=True)), 4).tolist()
    [0.5, 0.0]
    """
    taken, nlegal, hidden, which = d
    p = (1.0 - mix) * taken + mix / np.maximum(nlegal, 1)
    logp = power * np.log(np.maximum(p, 1e-30))
    if hidden_as_one:
        logp = np.where(hidden, 0.0, logp)
    return np.asarray(np.bincount(which, weights=logp, minlength=worlds), dtype=np.float64)


def hands_now(world: npt.NDArray[np.int64]) -> list[int]:
    """The world as :meth:`euchre.worlds.InfoSet.world` gives it: each seat's cards now,
    the dummy three-handed while no one took it, then every other card of the pack."""
    n = int(world[core.PLAYERS])
    out_seats = int(world[core.OUT])
    hands = [0 if out_seats >> s & 1 else int(world[core.HANDS + s]) for s in range(n)]
    dummy = int(world[core.DUMMY]) if n == 3 else 0
    rest = int(world[core.PACK])
    for h in [*hands, dummy]:
        rest &= ~h
    return [*hands, dummy, rest]


def score(obs: Observation, true: list[int], hands: list[list[int]],
          weights: npt.NDArray[np.float64]) -> float | None:
    """The score of ``benchmarks/inference.py``'s :func:`belief` for these worlds and
    weights: the mean log of the weighted share of worlds that place each hidden card
    where it is (floor 0.001).

    >>> from euchre import Deal
    >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
    >>> obs = deal.observation(1)
    >>> true = [deal.hand_mask(s) for s in range(2)]
    >>> score(obs, true, [true, [0, 0]], np.array([1.0, 0.0]))
    0.0
    >>> round(score(obs, true, [true, [0, 0]], np.array([1.0, 1.0])), 4)  # log 0.5
    -0.6931
    """
    n = obs.rules.players
    total = float(weights.sum())
    if not total > 0:
        return None
    mass: dict[tuple[int, int], float] = {}
    for h, w in zip(hands, weights, strict=True):
        for s in range(n):
            if s != obs.seat:
                for c in _bits(h[s]):
                    mass[s, c] = mass.get((s, c), 0.0) + float(w)
    logs = [math.log(max(mass.get((s, c), 0.0) / total, 1e-3))
            for s in range(n) if s != obs.seat for c in _bits(true[s])]
    return statistics.mean(logs) if logs else None


KINDS = ("pimc", "expert", "uniform", "net", "net, hidden discards 1", "net^0.5",
         "net mixed 0.2", "net x expert", "net mixed 0.2 x expert", "net^0.5, hidden 1",
         "net^0.5, turn-up discard", "net^0.5, hidden 1, D drawn",
         "net^0.5, turn-up discard, D drawn", "net mixed 0.2, D drawn", "expert, D")
"""The rows of the report (see the module)."""
NET_KINDS: dict[str, dict[str, Any]] = {
    "net": {}, "net, hidden discards 1": {"hidden_as_one": True}, "net^0.5": {"power": 0.5},
    "net mixed 0.2": {"mix": 0.2}, "net^0.5, hidden 1": {"power": 0.5, "hidden_as_one": True}}
"""The net's weightings: :func:`log_likelihood`'s options."""


def paired(a: dict[int, float], b: dict[int, float]) -> list[float]:
    """The mean of ``a - b`` over the cases both score, and its standard error.

    >>> paired({0: -1.0, 1: -2.0, 2: -1.0}, {0: -1.5, 1: -2.5, 2: -2.0})
    [0.6667, 0.1667]
    """
    d = [a[i] - b[i] for i in a if i in b]
    if len(d) < 2:
        return [round(statistics.mean(d), 4) if d else 0.0, 0.0]
    return [round(statistics.mean(d), 4), round(statistics.stdev(d) / math.sqrt(len(d)), 4)]


def measure(players: int, deals: int, seed: int, worlds: int, drawn_worlds: int = 32,
            ) -> dict[str, Any]:
    """The belief scores of one variant (see the module) and the net weighting's time."""
    model = net_for(Rules(players=players))
    if model is None:
        raise SystemExit(f"no shipped net for {players}-handed deals")
    bench = _inference()
    kept = [c for c in bench.cases(players, deals, seed)
            if c[0].phase in (Phase.BID_TURNUP, Phase.BID_SUIT, Phase.PLAY)]
    scores: dict[str, dict[str, dict[int, float]]] = {
        k: {"play": {}, "bids": {}} for k in KINDS}

    def add(kind: str, i: int, got: float | None) -> None:
        if got is not None:
            scores[kind]["play" if kept[i][0].phase is Phase.PLAY else "bids"][i] = got

    for kind, inference, count in (("pimc", False, worlds), ("expert", True, worlds),
                                   ("expert, D", True, drawn_worlds)):
        rng = random.Random(seed)  # as benchmarks/inference.py draws them
        for i, case in enumerate(kept):
            add(kind, i, bench.belief(case, inference, rng, count))
    belief = NetBelief(model, worlds, power=0.5, hidden="turnup")
    rng = random.Random(seed)
    ms: list[float] = []
    cpu_ms: list[float] = []
    ess: list[float] = []
    for i, (obs, true) in enumerate(kept):
        view = view_from_observation(obs)
        try:
            drawn = [sample_world(view, obs.seat, rng.getrandbits(32)) for _ in range(worlds)]
        except ValueError:
            continue
        t, cpu = time.perf_counter(), time.process_time()
        d = decisions(model, drawn, view, obs.seat)
        logw = {k: log_likelihood(d, worlds, **opts) for k, opts in NET_KINDS.items()}
        ms.append((time.perf_counter() - t) * 1000)
        cpu_ms.append((time.process_time() - cpu) * 1000)
        hands = [hands_now(w) for w in drawn]
        rules = _Worlds(_Know(obs), rng, True)
        expert = np.log(np.maximum([rules.weight(h) for h in hands], 1e-300))
        logw["net^0.5, turn-up discard"] = belief.log_weights(np.stack(drawn), view,
                                                               obs.seat)
        for k in ("net^0.5, hidden 1", "net^0.5, turn-up discard", "net mixed 0.2"):
            picked, times = resample(logw[k], drawn_worlds, rng)
            add(f"{k}, D drawn", i, score(obs, true, [hands_now(drawn[j]) for j in picked],
                                          np.array(times, dtype=np.float64)))
        logw["net x expert"] = logw["net"] + expert
        logw["net mixed 0.2 x expert"] = logw["net mixed 0.2"] + expert
        net = np.exp(logw["net"] - logw["net"].max())
        ess.append(float(net.sum() ** 2 / (net ** 2).sum()))
        add("uniform", i, score(obs, true, hands, np.ones(worlds)))
        for k, lw in logw.items():
            add(k, i, score(obs, true, hands, np.exp(lw - lw.max())))
    return {
        "players": players, "deals": deals, "decisions": len(kept), "worlds": worlds,
        "belief": {k: {p: round(statistics.mean(v.values()), 4) for p, v in s.items() if v}
                   for k, s in scores.items()},
        "minus_expert": {k: {p: paired(v, scores["expert"][p]) for p, v in s.items() if v}
                         for k, s in scores.items() if k != "expert"},
        "net_ms_median": round(statistics.median(ms), 2) if ms else None,
        "net_cpu_ms_median": round(statistics.median(cpu_ms), 2) if cpu_ms else None,
        "net_effective_worlds_median": round(statistics.median(ess), 1) if ess else None,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print (see the module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 2, 3])
    parser.add_argument("--deals", type=int, default=30, help="deals per variant")
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--worlds", type=int, default=64, help="worlds weighed a case")
    parser.add_argument("--drawn", type=int, default=32,
                        help="worlds resampled from the weighed ones (the D rows)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    warm_up()
    rows = []
    for p in args.players:
        rows.append(measure(p, args.deals, args.seed, args.worlds, args.drawn))
        if not args.json:
            print(json.dumps(rows[-1]), flush=True)
    rep = {"cpu": cpu_model(), "load_average": load_average(), "rows": rows}
    if args.json:
        print(json.dumps(rep, indent=2))
        return 0
    print(f"{rep['cpu']}, load {rep['load_average']}")
    print("players | decisions | part | " + " | ".join(KINDS)
          + " | net ms (CPU ms) | net ESS")
    for r in rows:
        for part in ("play", "bids"):
            cells = " | ".join(str(r["belief"][k].get(part)) for k in KINDS)
            print(f"{r['players']} | {r['decisions']} | {part} | {cells} | "
                  f"{r['net_ms_median']} ({r['net_cpu_ms_median']}) | "
                  f"{r['net_effective_worlds_median']}")
    print("players | part | minus the expert (mean, standard error): "
          + " | ".join(k for k in KINDS if k != "expert"))
    for r in rows:
        for part in ("play", "bids"):
            cells = " | ".join(str(r["minus_expert"][k].get(part)) for k in KINDS
                               if k != "expert")
            print(f"{r['players']} | {part} | {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
