"""Random self-play throughput: this engine side by side with OpenSpiel's ``euchre``.

Run ``python benchmarks/selfplay.py [--deals N] [--repeats R] [--seed S] [--json]``
(``make bench`` installs the ``bench`` extra and runs it).  Everything happens in one
process pinned to one core (where ``os.sched_setaffinity`` exists).

What is measured, per repeat, with the two sides interleaved so that machine noise hits
both (the side that goes first alternates from one repeat to the next):

* **deals per second**: ``N`` full four-handed 24-card deals (deal, bidding, play,
  scoring) played at random through each side's public Python API, with the same kind
  of RNG (:class:`random.Random`):

  - this engine: ``Deal.random(rules, dealer, rng)``, then
    ``deal.apply(rng.choice(deal.legal_action_ids()))`` until ``deal.is_over``, then
    ``deal.result`` (the score), under the rules OpenSpiel plays: stick the dealer, and
    the dealer keeps the turn-up;
  - OpenSpiel: ``game.new_initial_state()``, then chance nodes (dealer, cards) sampled
    with ``rng.choice(state.chance_outcomes())[0]`` and decision nodes with
    ``rng.choice(state.legal_actions())``, ``state.apply_action(a)`` until
    ``state.is_terminal()``, then ``state.returns()``;

* **µs per action**: ``legal_actions`` + ``apply`` on decision nodes only.  Random
  deals are prepared and dealt beforehand (untimed) together with the index of the move
  to take at each decision; the timed loop replays them as
  ``deal.apply(deal.legal_action_ids()[i])`` and
  ``state.apply_action(state.legal_actions()[i])``;

* **dealing only**: µs to get a dealt deal to its first decision (``Deal.random`` with
  its dealer draw; OpenSpiel's initial state and its 22 chance nodes).

Medians over the repeats are quoted.  Extra lines time this engine alone on its default
four-handed rules (thrown-in deals count as deals) and on the two-, three- and
five-handed variants.  Without OpenSpiel (``import pyspiel`` fails) only this engine's
side runs, and the report says so.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from euchre import Deal, Rules
from euchre.jobs.bench import machine as bench_machine
from euchre.jobs.bench import pin_to_one_core, version_of

try:
    import pyspiel
except ImportError:  # the optional `bench` extra is not installed
    pyspiel = None

OPENSPIEL_RULES = Rules(players=4, deck=24, stick_the_dealer=True, dealer_must_take_up=True)
"""The rules OpenSpiel's ``euchre`` plays with its default parameters."""

EXTRA_RULES: tuple[tuple[str, Rules], ...] = (
    ("four-handed, default rules", Rules(players=4)),
    ("two-handed", Rules(players=2)),
    ("three-handed", Rules(players=3)),
    ("five-handed", Rules(players=5)),
)
"""Further lines for this engine only: the presets as a new player gets them."""

_perf = time.perf_counter


# -- this engine ------------------------------------------------------------------------
def ours_selfplay(rules: Rules, deals: int, seed: int) -> float:
    """Seconds to play ``deals`` random deals through the public API."""
    rng = random.Random(seed)
    n = rules.players
    start = _perf()
    for _ in range(deals):
        deal = Deal.random(rules, rng.randrange(n), rng)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_action_ids()))
        deal.result  # noqa: B018 -- the score is part of a deal
    return _perf() - start


def ours_dealing(rules: Rules, deals: int, seed: int) -> float:
    """Seconds to deal ``deals`` deals (dealer draw, shuffle, hands, turn-up)."""
    rng = random.Random(seed)
    n = rules.players
    start = _perf()
    for _ in range(deals):
        Deal.random(rules, rng.randrange(n), rng)
    return _perf() - start


def ours_prepare(rules: Rules, deals: int, seed: int) -> list[tuple[Deal, list[int]]]:
    """Dealt deals, each with the index of the random move to take at each decision."""
    rng = random.Random(seed)
    n = rules.players
    work = []
    for _ in range(deals):
        deal = Deal.random(rules, rng.randrange(n), rng)
        probe = deal.copy()
        picks = []
        while not probe.is_over:
            legal = probe.legal_action_ids()
            i = rng.randrange(len(legal))
            picks.append(i)
            probe.apply(legal[i])
        work.append((deal, picks))
    return work


def ours_replay(work: list[tuple[Deal, list[int]]]) -> tuple[float, int]:
    """Seconds for the ``legal_action_ids`` + ``apply`` pairs of prepared deals."""
    fresh = [(deal.copy(), picks) for deal, picks in work]
    actions = sum(len(picks) for _, picks in fresh)
    start = _perf()
    for deal, picks in fresh:
        for i in picks:
            deal.apply(deal.legal_action_ids()[i])
    return _perf() - start, actions


def ours_census(rules: Rules, deals: int, seed: int) -> dict[str, float]:
    """What the timed deals contain (replays the same seed, untimed)."""
    rng = random.Random(seed)
    n = rules.players
    decisions = thrown_in = alone = 0
    for _ in range(deals):
        deal = Deal.random(rules, rng.randrange(n), rng)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_action_ids()))
            decisions += 1
        result = deal.result
        thrown_in += result.thrown_in
        alone += result.alone
    return {
        "decisions_per_deal": decisions / deals,
        "chance_nodes_per_deal": 0.0,
        "thrown_in_share": thrown_in / deals,
        "alone_share": alone / deals,
    }


# -- OpenSpiel --------------------------------------------------------------------------
def os_selfplay(game: Any, deals: int, seed: int) -> float:
    """Seconds to play ``deals`` random deals of OpenSpiel's euchre from Python."""
    rng = random.Random(seed)
    start = _perf()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        state.returns()
    return _perf() - start


def os_dealing(game: Any, deals: int, seed: int) -> float:
    """Seconds to reach the first decision node (dealer and card chance nodes)."""
    rng = random.Random(seed)
    start = _perf()
    for _ in range(deals):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
    return _perf() - start


def os_prepare(game: Any, deals: int, seed: int) -> list[tuple[Any, list[int]]]:
    """Dealt states, each with the index of the random move to take at each decision."""
    rng = random.Random(seed)
    work = []
    for _ in range(deals):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        probe = state.clone()
        picks = []
        while not probe.is_terminal():
            if probe.is_chance_node():
                raise RuntimeError("a chance node after the deal: replay cannot time it")
            legal = probe.legal_actions()
            i = rng.randrange(len(legal))
            picks.append(i)
            probe.apply_action(legal[i])
        work.append((state, picks))
    return work


def os_replay(work: list[tuple[Any, list[int]]]) -> tuple[float, int]:
    """Seconds for the ``legal_actions`` + ``apply_action`` pairs of prepared states."""
    fresh = [(state.clone(), picks) for state, picks in work]
    actions = sum(len(picks) for _, picks in fresh)
    start = _perf()
    for state, picks in fresh:
        for i in picks:
            state.apply_action(state.legal_actions()[i])
    return _perf() - start, actions


def os_census(game: Any, deals: int, seed: int) -> dict[str, float]:
    """What the timed deals contain (replays the same seed, untimed)."""
    rng = random.Random(seed)
    decisions = chance = thrown_in = alone = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                chance += 1
            else:
                a = rng.choice(state.legal_actions())
                alone += state.action_to_string(a) == "Alone"
                state.apply_action(a)
                decisions += 1
        thrown_in += not any(state.returns())
    return {
        "decisions_per_deal": decisions / deals,
        "chance_nodes_per_deal": chance / deals,
        "thrown_in_share": thrown_in / deals,
        "alone_share": alone / deals,
    }


# -- the run ----------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    """The facts a reader needs to compare figures across machines
    (:func:`euchre.jobs.bench.machine`), and OpenSpiel's version."""
    return bench_machine() | {
        "open_spiel": version_of("open-spiel") if pyspiel is not None else None}


def median(values: list[float]) -> float:
    return statistics.median(values)


def spread(values: list[float]) -> list[float]:
    """The lowest and the highest of the repeats, reported beside their median.

    >>> spread([3.0, 1.0, 2.0]), median([3.0, 1.0, 2.0])
    ([1.0, 3.0], 2.0)
    """
    return [min(values), max(values)]


def run(deals: int, repeats: int, seed: int, log: Callable[[str], None]) -> dict[str, Any]:
    """Every measurement, ``repeats`` times, interleaved; returns the report."""
    core = pin_to_one_core()
    game = pyspiel.load_game("euchre") if pyspiel is not None else None
    rules = OPENSPIEL_RULES
    if game is not None:
        params = game.get_parameters()
        if params.get("stick_the_dealer") is not True or params.get("allow_lone_defender"):
            raise RuntimeError(f"OpenSpiel's euchre parameters changed: {params}")

    # Warm up both sides (imports, tables, allocator) before any timing.
    ours_selfplay(rules, 200, seed)
    if game is not None:
        os_selfplay(game, 200, seed)

    ours_rate: list[float] = []
    os_rate: list[float] = []
    ratios: list[float] = []
    ours_us: list[float] = []
    os_us: list[float] = []
    ours_deal_us: list[float] = []
    os_deal_us: list[float] = []
    extra_rate: dict[str, list[float]] = {name: [] for name, _ in EXTRA_RULES}

    for r in range(repeats):
        s = seed + r
        ours_work = ours_prepare(rules, deals, s)
        os_work = os_prepare(game, deals, s) if game is not None else []
        sides: list[str] = ["ours", "openspiel"] if game is not None else ["ours"]
        if r % 2:
            sides.reverse()
        done: dict[str, float] = {}
        for side in sides:
            if side == "ours":
                done[side] = deals / ours_selfplay(rules, deals, s)
                t, a = ours_replay(ours_work)
                ours_us.append(t / a * 1e6)
                ours_deal_us.append(ours_dealing(rules, deals, s) / deals * 1e6)
            else:
                done[side] = deals / os_selfplay(game, deals, s)
                t, a = os_replay(os_work)
                os_us.append(t / a * 1e6)
                os_deal_us.append(os_dealing(game, deals, s) / deals * 1e6)
        ours_rate.append(done["ours"])
        if game is not None:
            os_rate.append(done["openspiel"])
            ratios.append(done["ours"] / done["openspiel"])
        for name, extra in EXTRA_RULES:
            extra_rate[name].append(deals / ours_selfplay(extra, deals, s))
        line = f"repeat {r + 1}/{repeats}: ours {done['ours']:,.0f} deals/s"
        if game is not None:
            line += f", OpenSpiel {done['openspiel']:,.0f} deals/s, ratio {ratios[-1]:.2f}"
        log(line)

    report: dict[str, Any] = {
        "command": " ".join([os.path.basename(sys.executable), *sys.argv]),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "pinned_core": core,
        "deals_per_repeat": deals,
        "repeats": repeats,
        "seed": seed,
        "openspiel_available": game is not None,
        "rules": repr(rules),
        "ours": {
            "deals_per_s": median(ours_rate),
            "deals_per_s_range": spread(ours_rate),
            "us_per_action": median(ours_us),
            "us_per_action_range": spread(ours_us),
            "us_dealing": median(ours_deal_us),
            **ours_census(rules, deals, seed),
        },
        "extra": {
            name: {
                "rules": repr(extra),
                "deals_per_s": median(extra_rate[name]),
                "deals_per_s_range": spread(extra_rate[name]),
                **ours_census(extra, deals, seed),
            }
            for name, extra in EXTRA_RULES
        },
    }
    if game is not None:
        report["openspiel"] = {
            "parameters": dict(game.get_parameters()),
            "deals_per_s": median(os_rate),
            "deals_per_s_range": spread(os_rate),
            "us_per_action": median(os_us),
            "us_per_action_range": spread(os_us),
            "us_dealing": median(os_deal_us),
            **os_census(game, deals, seed),
        }
        report["ratio"] = median(ratios)
        report["ratio_range"] = spread(ratios)
        report["per_action_time_ratio"] = median(ours_us) / median(os_us)
    return report


def format_report(rep: dict[str, Any]) -> str:
    """The report as a few readable lines."""
    m = rep["machine"]
    core = rep["pinned_core"]
    out = [
        f"{m['cpu']}, {m['cores']} cores, pinned to "
        + (f"core {core}" if core is not None else "no core (unsupported here)"),
        f"Python {m['python']}, euchre {m['euchre']}, "
        f"OpenSpiel {m['open_spiel'] or 'not installed'}",
        f"{rep['deals_per_repeat']:,} deals x {rep['repeats']} repeats, seed {rep['seed']}, "
        f"medians (min-max)",
        "",
    ]
    if not rep["openspiel_available"]:
        out += ["OpenSpiel is not installed (`import pyspiel` failed): this engine only.",
                "Install it with: pip install -e '.[dev,bench]'", ""]

    def rate(side: dict[str, Any]) -> str:
        lo, hi = side["deals_per_s_range"]
        return f"{side['deals_per_s']:>9,.0f} deals/s ({lo:,.0f}-{hi:,.0f})"

    def per_action(side: dict[str, Any]) -> str:
        lo, hi = side["us_per_action_range"]
        return f"{side['us_per_action']:5.2f} µs/action ({lo:.2f}-{hi:.2f})"

    def census(side: dict[str, Any]) -> str:
        text = (f"{side['decisions_per_deal']:.1f} decisions"
                f" + {side['chance_nodes_per_deal']:.0f} chance nodes per deal")
        text += f", {side['alone_share']:.0%} alone"
        if side["thrown_in_share"]:
            text += f", {side['thrown_in_share']:.2%} thrown in"
        return text

    ours = rep["ours"]
    out.append(f"Four-handed, 24 cards, {rep['rules']}:")
    out.append(f"  euchre     {rate(ours)}  {per_action(ours)}  "
               f"dealing {ours['us_dealing']:.1f} µs  [{census(ours)}]")
    if rep["openspiel_available"]:
        osp = rep["openspiel"]
        out.append(f"  OpenSpiel  {rate(osp)}  {per_action(osp)}  "
                   f"dealing {osp['us_dealing']:.1f} µs  [{census(osp)}]")
        lo, hi = rep["ratio_range"]
        out.append(f"  ours/OpenSpiel: {rep['ratio']:.2f}x the deals per second "
                   f"({lo:.2f}-{hi:.2f}); {rep['per_action_time_ratio']:.2f}x the time per action")
    out += ["", "This engine only:"]
    for name, side in rep["extra"].items():
        out.append(f"  {name:<27}{rate(side)}  [{census(side)}]")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=5000, help="deals per timed run")
    parser.add_argument("--repeats", type=int, default=7, help="interleaved repeats")
    parser.add_argument("--seed", type=int, default=1, help="first RNG seed")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be positive")

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if pyspiel is None:
        log("OpenSpiel is not installed (`import pyspiel` failed): timing this engine only")
    report = run(args.deals, args.repeats, args.seed, log)
    print(json.dumps(report, indent=2) if args.json else "\n" + format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
