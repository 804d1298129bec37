"""The compiled ISMCTS (``cismcts``) as a peer: checked against OpenSpiel's ISMCTS, then
measured against the expert in every variant.

Run ``python benchmarks/ismcts_peer.py COMMAND [options] [--json]``:

* ``validate``: ``cismcts:SIMS`` against ``ismcts:SIMS``, duplicate, two-handed (where
  ``ismcts`` is OpenSpiel's Python ``ISMCTSBot`` on ``python_euchre``) and four-handed
  under OpenSpiel's rules (24 cards, the dealer must take up, stick the dealer: there
  ``ismcts`` is OpenSpiel's C++ ``ISMCTSBot`` on its own ``euchre``).  Same algorithm and
  settings, so the margin should not differ significantly from zero.  Options
  ``--sets-two``, ``--sets-four``, ``--sims``, ``--seed``, ``--workers``.
* ``table``: ``expert`` against ``cismcts:SIMS``, duplicate, ``--sets`` deal sets in each
  of ``--variants`` (2 3 4 5, each with its default rules; ``4os`` is four-handed under
  OpenSpiel's rules, the rules of the measured C++ row), printed as the Markdown table of
  ``docs/benchmarks.md``.
* ``times``: median decision times (decisions with two or more legal actions) of
  ``cismcts`` and ``ismcts`` in each variant, side by side in one run, over ``--deals``
  deals where both bots play every seat in turn.  The ``ismcts`` of three- and
  five-handed takes seconds a decision: keep ``--deals`` small.

Every figure is a :func:`euchre.jobs.tournament.run_tournament` result (the margin is the
paired per-set difference, with its 95% interval), the same as ``euchre tournament
--bots A,B --players N --deals K --seed S --json``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from euchre import Deal, Rules
from euchre.bots import make_bot
from euchre.jobs.bench import cpu_model
from euchre.jobs.tournament import Tournament, TournamentResult, run_tournament

VARIANTS: tuple[str, ...] = ("2", "3", "4", "5")


def rules_of(variant: str) -> Rules:
    """A variant's rules: ``2``..``5`` the defaults, ``4os`` OpenSpiel's four-handed rules.

    >>> rules_of("4os").dealer_must_take_up, rules_of("3").players
    (True, 3)
    """
    if variant == "4os":
        return Rules(players=4, dealer_must_take_up=True, stick_the_dealer=True)
    if variant not in VARIANTS:
        raise ValueError(f"variants are 2, 3, 4, 5 and 4os, not {variant!r}")
    return Rules(players=int(variant))


def match(rules: Rules, bots: tuple[str, str], sets: int, seed: int,
          workers: int) -> dict[str, Any]:
    """A duplicate match of ``sets`` deal sets: the first bot's figures and the run's."""
    result: TournamentResult = run_tournament(
        Tournament(rules, bots, sets, seed=seed), workers=workers)
    first = result.results[0]
    assert first.margin is not None and first.margin_ci95 is not None
    return {"players": rules.players, "rules": rules.to_dict(), "bots": list(bots),
            "sets": sets, "seed": seed, "workers": result.workers,
            "deals_played": result.deals_played, "seconds": round(result.seconds, 1),
            "points_per_deal": [r.points_per_deal for r in result.results],
            "margin": first.margin, "margin_ci95": list(first.margin_ci95),
            "games": result.games, "wins": first.wins, "win_rate": first.win_rate}


def verdict(row: dict[str, Any]) -> str:
    """Whether the first bot's margin differs from zero at 95%.

    >>> verdict({"margin_ci95": [-0.1, 0.2]}), verdict({"margin_ci95": [0.1, 0.2]})
    ('not significantly different', 'first bot ahead')
    """
    low, high = row["margin_ci95"]
    if low > 0:
        return "first bot ahead"
    if high < 0:
        return "first bot behind"
    return "not significantly different"


def decision_times(rules: Rules, names: Sequence[str], deals: int,
                   seed: int) -> dict[str, float]:
    """Median seconds a decision of each bot, over ``deals`` deals in which the bots
    take turns at every seat (bot ``(seat + deal) mod len(names)``)."""
    bots = [make_bot(name, seed + i) for i, name in enumerate(names)]
    times: dict[str, list[float]] = {name: [] for name in names}
    for d in range(deals):
        deal = Deal.random(rules, dealer=d % rules.players, seed=seed + d)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            k = (seat + d) % len(names)
            obs = deal.observation(seat)
            start = time.perf_counter()
            action = bots[k].act(obs)
            elapsed = time.perf_counter() - start
            if len(obs.legal_actions) > 1:
                times[names[k]].append(elapsed)
            deal.apply(action)
    return {name: statistics.median(ts) for name, ts in times.items() if ts}


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The table of ``table``'s rows, as in ``docs/benchmarks.md``."""
    lines = ["| variant | deal sets | expert points/deal | cismcts points/deal "
             "| expert's margin (95% interval) | expert's games won |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        low, high = r["margin_ci95"]
        name = f"{r['players']}-handed" + (" (OpenSpiel's rules)"
                                           if r["rules"]["dealer_must_take_up"] else "")
        lines.append(f"| {name} | {r['sets']:,} | {r['points_per_deal'][0]:.3f} "
                     f"| {r['points_per_deal'][1]:.3f} | **{r['margin']:+.3f}** "
                     f"({low:+.3f} to {high:+.3f}) | {r['win_rate']:.1%} of {r['games']} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("validate", "table", "times"))
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--sets", type=int, default=1000, help="table: deal sets a variant")
    parser.add_argument("--sets-two", type=int, default=100)
    parser.add_argument("--sets-four", type=int, default=1000)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--deals", type=int, default=4, help="times: deals a variant")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sims = args.sims
    report: dict[str, Any] = {"command": args.command, "cpu": cpu_model(),
                              "python": platform.python_version()}
    if args.command == "validate":
        rows = []
        for variant, sets in (("2", args.sets_two), ("4os", args.sets_four)):
            if sets >= 2:
                row = match(rules_of(variant), (f"cismcts:{sims}", f"ismcts:{sims}"), sets,
                            args.seed, args.workers)
                row["verdict"] = verdict(row)
                rows.append(row)
        report["results"] = rows
    elif args.command == "table":
        rows = [match(rules_of(v), ("expert", f"cismcts:{sims}"), args.sets, args.seed,
                      args.workers) for v in args.variants]
        report["results"] = rows
        report["markdown"] = markdown(rows)
    else:
        report["results"] = [
            {"variant": v, "median_seconds": decision_times(
                rules_of(v), (f"cismcts:{sims}", f"ismcts:{sims}"), args.deals, args.seed)}
            for v in args.variants]
    if args.json:
        print(json.dumps(report))
    else:
        for row in report["results"]:
            print(row)
        if "markdown" in report:
            print(report["markdown"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
