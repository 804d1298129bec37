"""Benchmarking's one home: the ``euchre bench`` commands' timings, and the helpers every
timing shares.

* The commands: the open-hand solver on full deals (``euchre bench solver``,
  :func:`bench_solver`), the bots' decisions (``euchre bench bot NAME``,
  :func:`bench_bot`) and the compiled core's random deals (``euchre bench vector``,
  :func:`bench_vector`), each with the few lines of text it prints (:func:`format_bench`,
  :func:`format_bot_bench`, :func:`format_vector_bench`); ``euchre.cli.bench`` only reads
  the options and prints.
* What the scripts in ``benchmarks/`` (the measurements behind ``docs/benchmarks.md``)
  share with them: the machine a figure was taken on (:func:`machine`, :func:`cpu_model`,
  :func:`load_average`), one core to run on (:func:`pin_to_one_core`), the nearest-rank
  :func:`percentile`, random deals bid up to the first lead (:func:`random_play_deal`),
  the seats of a bot under test (:func:`side_seats`) and the interval of a win rate
  (:func:`wilson`).
"""

from __future__ import annotations

import math
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from importlib import metadata
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
    "format_bot_bench",
    "format_vector_bench",
    "load_average",
    "machine",
    "percentile",
    "pin_to_one_core",
    "random_play_deal",
    "side_seats",
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


def version_of(dist: str) -> str | None:
    """An installed distribution's version, or ``None``.

    >>> version_of("euchre") is not None, version_of("no-such-distribution")
    (True, None)
    """
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def machine() -> dict[str, Any]:
    """The facts a reader needs to compare figures across machines: the CPU, its cores,
    the load when the figure was taken, the system, and the versions that time the work.

    >>> sorted(machine())
    ['cores', 'cpu', 'euchre', 'load_average', 'numba', 'numpy', 'python', 'system']
    """
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load_average": load_average(),
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "euchre": version_of("euchre"),
        "numpy": version_of("numpy"),
        "numba": version_of("numba"),
    }


def pin_to_one_core(core: int | None = None) -> int | None:
    """Pin this process to ``core`` (default: the last one it may use), so that a timing
    is not moved from core to core; the core, or ``None`` where the platform cannot."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    chosen = max(os.sched_getaffinity(0)) if core is None else core
    os.sched_setaffinity(0, {chosen})
    return chosen


def percentile(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``xs``, nearest rank: always one of the values, never
    an interpolation between two.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.9)
    (3.0, 4.0)
    >>> percentile([float(x) for x in range(1, 101)], 0.99)
    99.0
    """
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


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
            "p99_ms": percentile(times, 0.99),
            "max_ms": max(times),
        })
    if not everything:
        raise ValueError(next(iter(skipped.values())))
    return {
        "bot": name,
        "deals_per_variant": deals,
        "decisions": len(everything),
        "median_ms": statistics.median(everything),
        "p99_ms": percentile(everything, 0.99),
        "variants": rows,
        "skipped": skipped,
    }


def format_bot_bench(report: dict[str, Any]) -> str:
    """The :func:`bench_bot` report as a few lines of plain text: over all, then each
    variant, then each variant the bot refused and why.

    >>> print(format_bot_bench({"bot": "random", "decisions": 9, "median_ms": 0.01,
    ...     "p99_ms": 0.02, "variants": [{"variant": "two-handed", "decisions": 9,
    ...     "median_ms": 0.01, "p99_ms": 0.02}], "skipped": {"five-handed": "no model"}}))
    bot random: 9 decisions, median 0.010 ms, p99 0.020 ms
      two-handed         9 decisions  median 0.010 ms  p99 0.020 ms
      five-handed   skipped: no model
    """
    lines = [f"bot {report['bot']}: {report['decisions']} decisions, median "
             f"{report['median_ms']:.3f} ms, p99 {report['p99_ms']:.3f} ms"]
    lines += [f"  {row['variant']:<13} {row['decisions']:>6} decisions  median "
              f"{row['median_ms']:.3f} ms  p99 {row['p99_ms']:.3f} ms"
              for row in report["variants"]]
    lines += [f"  {variant:<13} skipped: {why}" for variant, why in report["skipped"].items()]
    return "\n".join(lines)


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


def _summary(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {"deals": 0}
    xs = sorted(xs)
    return {
        "deals": len(xs),
        "median_us": round(statistics.median(xs), 2),
        "p99_us": round(percentile(xs, 0.99), 2),
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

    if core is not None:
        pin_to_one_core(core)
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
    report["machine"] = machine()
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
        **machine(),
    }


def format_vector_bench(report: dict[str, Any]) -> str:
    """The :func:`bench_vector` report as one line of plain text.

    >>> print(format_vector_bench({"players": 4, "deals_per_second": 1e6, "repeats": 5,
    ...     "lowest": 9e5, "highest": 1.1e6, "actions_per_deal": 24.04,
    ...     "bytes_per_deal": 1024, "cpu": "Example CPU"}))
    4-handed, random play on the compiled core: 1,000,000 deals per second (median of 5; \
900,000 to 1,100,000), 24.0 actions a deal, 1024 bytes a deal, on Example CPU
    """
    return (f"{report['players']}-handed, random play on the compiled core: "
            f"{report['deals_per_second']:,.0f} deals per second (median of "
            f"{report['repeats']}; {report['lowest']:,.0f} to {report['highest']:,.0f}), "
            f"{report['actions_per_deal']:.1f} actions a deal, "
            f"{report['bytes_per_deal']} bytes a deal, on {report['cpu']}")
