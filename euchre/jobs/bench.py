"""The ``euchre bench`` commands' timings: the open-hand solver on full deals
(``euchre bench solver``, :func:`bench_solver`) and the bots' decisions (``euchre bench
bot NAME``, :func:`bench_bot`), and what the benchmark reports share: random deals bid up
to the first lead, the machine, and the interval of a win rate.
"""

from __future__ import annotations

import math
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from euchre.actions import ORDER_ALONE, PASS, TRUMP_ALONE
from euchre.bots import Bot, check_rules, choose, make_bot
from euchre.deal import Deal, Phase
from euchre.rules import Rules, fixed_partner

__all__ = [
    "bench_bot",
    "bench_solver",
    "bench_vector",
    "cpu_model",
    "format_bench",
    "load_average",
    "random_play_deal",
    "wilson",
]

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


def load_average() -> list[float]:
    """The machine's load averages over 1, 5 and 15 minutes, to two places (zeros where
    the platform does not say): the figure a benchmark's report gives beside the CPU."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return [round(x, 2) for x in load]


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
    partner = fixed_partner(players, first)
    return {first} if partner is None else {first, partner}


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
    timed.  Returns the median and p99 in milliseconds per variant and over all.  A variant
    the bot refuses (``check_rules``: the ``net`` bot where no model is shipped) is left
    out, with the reason under ``skipped``.
    """
    rng = random.Random(seed)
    variants = [Rules(players=n) for n in (2, 3, 4, 5)]
    total = deals * len(variants)
    done = 0
    rows = []
    everything: list[float] = []
    skipped: dict[str, str] = {}
    for rules in variants:
        bots = [make_bot(name, rng.randrange(1 << 30)) for _ in range(rules.players)]
        try:
            check_rules(bots[0], rules)
        except ValueError as e:
            skipped[rules.variant] = str(e)
            done += deals
            continue
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
    if not everything:
        raise ValueError(next(iter(skipped.values())))
    return {
        "bot": name,
        "deals_per_variant": deals,
        "decisions": len(everything),
        "median_ms": statistics.median(everything),
        "p99_ms": _percentile(everything, 0.99),
        "variants": rows,
        "skipped": skipped,
    }


# -- the open-hand solver ---------------------------------------------------------------------
def random_play_deal(rules: Rules, rng: random.Random, alone: bool | None = None,
                     bidding: str = "random") -> Deal:
    """A random deal bid up to the first lead (thrown-in deals are dealt again).

    ``bidding="random"`` picks every bidding action at random; ``alone`` (if not ``None``)
    then forces the maker's choice to go alone or not.  ``bidding="basic"`` lets the
    ``basic`` bot bid for every seat (``alone`` is ignored)."""
    if bidding not in ("random", "basic"):
        raise ValueError(f"bidding is 'random' or 'basic', not {bidding!r}")
    bot: Bot | None = make_bot("basic", rng) if bidding == "basic" else None
    while True:
        deal = Deal.random(rules, dealer=rng.randrange(rules.players), seed=rng)
        while not deal.is_over and deal.phase is not Phase.PLAY:
            if bot is not None:
                deal.apply(choose(bot, deal))
                continue
            ids = deal.legal_action_ids()
            if alone is not None and deal.phase in (Phase.BID_TURNUP, Phase.BID_SUIT,
                                                    Phase.NAME_TRUMP):
                keep = [a for a in ids if a == PASS or (a in _ALONE_BIDS) == alone]
                if keep:
                    ids = keep
            deal.apply(rng.choice(ids))
        if deal.phase is Phase.PLAY:
            return deal


_ALONE_BIDS = frozenset({ORDER_ALONE, *range(TRUMP_ALONE, TRUMP_ALONE + 4)})


def _machine() -> dict[str, Any]:
    import numba
    import numpy as np

    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "system": f"{platform.system()} {platform.release()}",
    }


def _summary(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"deals": 0}
    xs = sorted(xs)
    return {
        "deals": len(xs),
        "median_us": round(statistics.median(xs), 2),
        "p99_us": round(xs[min(len(xs) - 1, math.ceil(0.99 * len(xs)) - 1)], 2),
        "mean_us": round(statistics.fmean(xs), 2),
        "max_us": round(xs[-1], 2),
    }


def bench_solver(deals: int = 2000, seed: int = 1, bidding: str = "random",
                 core: int | None = None) -> dict[str, Any]:
    """``euchre bench solver``: time full four-handed deals (24 cards, default rules)
    solved from the first lead, one at a time on one core, after the JIT warm-up.

    The deals are random; with ``bidding="random"`` the bidding is random up to the play
    phase, and the maker goes alone in every second deal (so half the deals are played
    by four, half by three); with ``bidding="basic"`` the ``basic`` bot bids for every
    seat.  Each deal is solved three ways, each timed on its own:

    * ``all_values``: :func:`~euchre.solver.solve_position` on the deal's raw ints, the
      value of every legal first lead (what ``euchre solve`` prints, what a PIMC sample
      needs);
    * ``value_only``: the same with ``all_values=False`` (the deal's value and one best
      lead);
    * ``solve_api``: :func:`~euchre.solver.solve` on the :class:`~euchre.deal.Deal`
      (``all_values`` plus reading the deal and building :class:`~euchre.actions.Action`
      objects).

    ``core`` pins the process to that core first (Linux).  The headline ``median_us`` and
    ``p99_us`` are ``all_values`` over the deals the four play (maker not alone).
    ``cpu_share`` is the process's CPU time over the wall time of the timed loop: well
    below 1 means other work shared the core and the figures are inflated.
    """
    # importing the solver compiles its kernel: only this benchmark pays for it
    from euchre.solver import nodes_searched, position_of, solve, solve_position, warm_up

    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})
    warm = warm_up()
    rng = random.Random(seed)
    rules = Rules(players=4)
    dealt = []
    for i in range(deals):
        deal = random_play_deal(rules, rng, alone=i % 2 == 1, bidding=bidding)
        dealt.append((deal, position_of(deal)))
    modes = ("all_values", "value_only", "solve_api")
    times: dict[str, dict[bool, list[float]]] = {m: {False: [], True: []} for m in modes}
    nodes: dict[str, dict[bool, list[int]]] = {m: {False: [], True: []} for m in modes}
    clock = time.perf_counter_ns
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    for deal, (hands, trump, makers, leader, trick, out) in dealt:
        alone = deal.alone
        for mode in modes:
            nodes0 = nodes_searched()
            if mode == "solve_api":
                t0 = clock()
                solve(deal)
                t1 = clock()
            else:
                all_values = mode == "all_values"
                t0 = clock()
                solve_position(hands, trump, makers, leader, trick, out, all_values)
                t1 = clock()
            times[mode][alone].append((t1 - t0) / 1000)
            nodes[mode][alone].append(nodes_searched() - nodes0)
    cpu_share = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    report: dict[str, Any] = {
        "benchmark": "open-hand solver, full four-handed deals from the first lead",
        "rules": "four-handed, 24 cards, default rules",
        "deals": deals,
        "seed": seed,
        "bidding": bidding,
        "alone_deals": len(times["all_values"][True]),
        "core": core,
        "warm_up_s": round(warm, 3),
        "cpu_share": round(cpu_share, 3),
    }
    head = _summary(times["all_values"][False])
    report["median_us"] = head.get("median_us")
    report["p99_us"] = head.get("p99_us")
    for mode in modes:
        by = times[mode]
        report[mode] = {
            "partnered": _summary(by[False]),
            "alone": _summary(by[True]),
            "all": _summary(by[False] + by[True]),
            "median_nodes": {
                "partnered": int(statistics.median(nodes[mode][False] or [0])),
                "alone": int(statistics.median(nodes[mode][True] or [0])),
            },
        }
    report["machine"] = _machine()
    return report


def format_bench(report: dict[str, Any]) -> str:
    """The :func:`bench_solver` report as a few lines of plain text."""
    lines = [
        f"{report['benchmark']}: {report['deals']} deals ({report['alone_deals']} with the "
        f"maker alone), seed {report['seed']}, {report['bidding']} bidding, "
        f"warm-up {report['warm_up_s']} s, CPU share {report['cpu_share']}",
        f"median {report['median_us']} µs, p99 {report['p99_us']} µs "
        f"(every first lead's value, the deals the four play)",
    ]
    for mode in ("all_values", "value_only", "solve_api"):
        part = report[mode]
        cells = []
        for group in ("partnered", "alone", "all"):
            g = part[group]
            if g.get("deals"):
                cells.append(f"{group} {g['median_us']} / {g['p99_us']}")
        lines.append(f"  {mode:<11} median / p99 µs: " + ", ".join(cells)
                     + f"; median nodes {part['median_nodes']['partnered']} / "
                     f"{part['median_nodes']['alone']}")
    m = report["machine"]
    lines.append(f"  machine: {m['cpu']}, {m['cores']} cores, {m['system']}, Python "
                 f"{m['python']}, numba {m['numba']}")
    return "\n".join(lines)


def bench_vector(players: int = 4, deals: int = 500_000, seed: int = 1, repeats: int = 5,
                 rules: Rules | None = None, rows: int = 64) -> dict[str, Any]:
    """Random self-play on the compiled core (``euchre bench vector``), on one thread.

    Each repeat deals, bids, plays and scores ``deals`` deals with uniformly random legal
    actions (:func:`euchre.vector.random_deals`) over the ``rows`` rows of a
    :class:`~euchre.vector.VectorDeals`.  The figure is the median over the repeats.

    >>> report = bench_vector(players=3, deals=2_000, repeats=1)
    >>> report['deals_per_second'] > 0, report['bytes_per_deal']
    (True, 1024)
    """
    from euchre import core
    from euchre.vector import VectorDeals, random_deals

    rules = rules or Rules(players=players)
    v = VectorDeals(rules, n=rows, seed=seed)
    random_deals(v.states, seed, rows)  # compile, or load from numba's cache
    rates = []
    actions = 0
    for r in range(repeats):
        start = time.perf_counter()
        actions = random_deals(v.states, seed + r, deals)
        rates.append(deals / (time.perf_counter() - start))
    return {
        "players": rules.players,
        "rules": rules.to_dict(),
        "deals": deals,
        "repeats": repeats,
        "deals_per_second": round(statistics.median(rates), 1),
        "lowest": round(min(rates), 1),
        "highest": round(max(rates), 1),
        "actions_per_deal": round(actions / deals, 3),
        "bytes_per_deal": core.STATE_SIZE * 8,
        **_machine(),
    }
