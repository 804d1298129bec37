"""The environments' speed: the PettingZoo AEC env against OpenSpiel's ``euchre`` from
Python, and the compiled Gymnasium vector env.

Run ``python benchmarks/envs.py [--steps N] [--repeats R] [--envs E] [--json]``; the
process is pinned to one core while it measures (restored afterwards).  Per repeat, the
sides interleaved (the one that goes first alternates):

* **PettingZoo AEC**: ``euchre.envs.pettingzoo.env(players=4)`` under OpenSpiel's rules
  (stick the dealer, the dealer keeps the turn-up), the loop of PettingZoo's
  ``performance_benchmark``: ``env.last()`` (the observation and its action mask), a
  random legal action ``random.choice(np.flatnonzero(mask).tolist())``, ``env.step``;
  ``env.reset()`` when every agent is done.  Decisions per second (the ``None`` steps of
  finished agents and the resets are timed, not counted).
* **OpenSpiel**: ``pyspiel.load_game("euchre")`` in the same shape: chance nodes sampled
  with ``random.choice``, at each decision ``information_state_tensor(player)`` (its
  euchre has no ``observation_tensor``) and ``legal_actions(player)``, a random legal
  action, ``apply_action``; a new state when one ends.  Decisions per second.
* **vector env**: ``VectorEuchreEnv(E, players=4)`` (one learning seat, random
  opponents in compiled code), ``env.step(env.random_actions())``; environment steps
  (E per call) per second.

Medians over the repeats, and the median of the per-repeat AEC/OpenSpiel ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from selfplay import machine

from euchre.envs.gymnasium import VectorEuchreEnv
from euchre.envs.ismcts import OPENSPIEL_DEFAULTS
from euchre.envs.pettingzoo import env

try:
    import pyspiel
except ImportError:  # the optional `bench` extra is not installed
    pyspiel = None

OPENSPIEL_OPTIONS: dict[str, Any] = dict(OPENSPIEL_DEFAULTS)
"""The rules OpenSpiel's ``euchre`` plays with its default parameters."""


def aec_rate(steps: int, seed: int) -> float:
    """Decisions per second of the PettingZoo AEC env with random legal actions."""
    rng = random.Random(seed)
    table = env(players=4, seed=seed, **OPENSPIEL_OPTIONS)
    table.reset()
    done = 0
    start = time.perf_counter()
    while done < steps:
        observation, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            if not table.agents:
                table.reset()
            continue
        table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        done += 1
    return steps / (time.perf_counter() - start)


def openspiel_rate(steps: int, seed: int) -> float:
    """Decisions per second of OpenSpiel's euchre stepped from Python the same way."""
    rng = random.Random(seed)
    game = pyspiel.load_game("euchre")
    state = game.new_initial_state()
    done = 0
    start = time.perf_counter()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        player = state.current_player()
        state.information_state_tensor(player)
        state.apply_action(rng.choice(state.legal_actions(player)))
        done += 1
    return steps / (time.perf_counter() - start)


def vector_rate(envs: int, calls: int, seed: int) -> float:
    """Environment steps per second of the compiled vector env, random legal actions.

    One call steps every environment of the batch, so ``envs * calls`` steps are timed
    (the first call, which compiles, is not):

    >>> vector_rate(envs=8, calls=2, seed=0) > 0
    True
    """
    vec = VectorEuchreEnv(envs, players=4)
    vec.reset(seed=seed)
    vec.step(vec.random_actions())  # compiled before the clock starts
    start = time.perf_counter()
    for _ in range(calls):
        vec.step(vec.random_actions())
    return envs * calls / (time.perf_counter() - start)


def run(steps: int, repeats: int, envs: int) -> dict[str, Any]:
    aec_rate(1000, 0)  # compile the kernels before any clock
    sides = ["aec", "openspiel"] if pyspiel is not None else ["aec"]
    rates: dict[str, list[float]] = {"aec": [], "openspiel": [], "vector": []}
    calls = max(1, 4 * steps // envs)
    for r in range(repeats):
        for side in sides if r % 2 == 0 else sides[::-1]:
            rate = aec_rate(steps, r + 1) if side == "aec" else openspiel_rate(steps, r + 1)
            rates[side].append(rate)
        rates["vector"].append(vector_rate(envs, calls, r + 1))
    report: dict[str, Any] = {
        "steps": steps, "repeats": repeats, "envs": envs,
        "aec_steps_per_second": statistics.median(rates["aec"]),
        "vector_steps_per_second": statistics.median(rates["vector"]),
        "machine": machine(),
    }
    if rates["openspiel"]:
        report["openspiel_steps_per_second"] = statistics.median(rates["openspiel"])
        report["aec_over_openspiel"] = statistics.median(
            a / o for a, o in zip(rates["aec"], rates["openspiel"], strict=True))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if before is not None:
        os.sched_setaffinity(0, {max(before)})
    try:
        report = run(args.steps, args.repeats, args.envs)
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"PettingZoo AEC env: {report['aec_steps_per_second']:,.0f} decisions/s")
    if "openspiel_steps_per_second" in report:
        print(f"OpenSpiel euchre:   {report['openspiel_steps_per_second']:,.0f} decisions/s")
        print(f"ratio (median of repeats): {report['aec_over_openspiel']:.2f}")
    else:
        print("OpenSpiel is not installed (the `bench` extra): no comparison")
    print(f"vector env ({args.envs} deals): {report['vector_steps_per_second']:,.0f} steps/s")
    print(f"machine: {report['machine']['cpu']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
