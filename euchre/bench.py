"""Timing the bots' decisions (``euchre bench bot NAME``), and what the benchmark
reports share: the machine's CPU and the interval of a win rate.

The solver has its own timing in :func:`euchre.solver.bench_solver`.
"""

from __future__ import annotations

import math
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from euchre.bots import choose, make_bot
from euchre.deal import Deal
from euchre.rules import Rules

__all__ = ["bench_bot", "cpu_model", "wilson"]

Z95 = 1.959963984540054


def cpu_model() -> str:
    """The CPU model as /proc/cpuinfo names it, else what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` successes in ``games`` trials.

    >>> [round(x, 3) for x in wilson(80, 100)]
    [0.711, 0.867]
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def side_seats(players: int, game_index: int) -> set[int]:
    """The seats of the bot under test in game (or deal) ``game_index`` of a benchmark
    that seats one bot against another: one seat that moves round the table from game to
    game, four-handed with its partner opposite.

    >>> sorted(side_seats(4, 1)), sorted(side_seats(5, 7))
    ([1, 3], [2])
    """
    first = game_index % players
    if players == 4:
        return {first, (first + 2) % 4}
    return {first}


def _percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def bench_bot(
    name: str,
    deals: int = 100,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Time every decision of bot ``name`` over ``deals`` random deals of every variant.

    All seats are played by the bot; each call of its ``act`` (observation included) is
    timed.  Returns the median and p99 in milliseconds per variant and over all.
    """
    rng = random.Random(seed)
    variants = [Rules(players=n) for n in (2, 3, 4, 5)]
    total = deals * len(variants)
    done = 0
    rows = []
    everything: list[float] = []
    for rules in variants:
        bots = [make_bot(name, rng.randrange(1 << 30)) for _ in range(rules.players)]
        times: list[float] = []
        for k in range(deals):
            deal = Deal.random(rules, k % rules.players, rng)
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                t0 = time.perf_counter()
                action = choose(bots[seat], deal)
                times.append((time.perf_counter() - t0) * 1000)
                deal.apply(action)
            done += 1
            if progress is not None:
                progress(done, total)
        everything += times
        rows.append({
            "variant": rules.variant,
            "decisions": len(times),
            "median_ms": statistics.median(times),
            "p99_ms": _percentile(times, 0.99),
            "max_ms": max(times),
        })
    return {
        "bot": name,
        "deals_per_variant": deals,
        "decisions": len(everything),
        "median_ms": statistics.median(everything),
        "p99_ms": _percentile(everything, 0.99),
        "variants": rows,
    }
