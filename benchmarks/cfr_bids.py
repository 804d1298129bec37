"""The CFR bidder seat by seat: what ``expert:W:cfr`` gains at each seat from the dealer.

Run ``python benchmarks/cfr_bids.py [--players 4] [--sets N] [--worlds W] [--seed S]
[--json]``.

For each set (one deal, its dealer turning round the table), the deal is played by
``pimc:W`` at every seat (the baseline), then once for each seat ``p`` from the dealer with
``expert:W:cfr`` at that seat alone, and once with ``expert:W:nocfr`` (the expert bidding
by its values) there instead; every other
seat is ``pimc:W`` with the same seed in all of them, so the cards and the other bots'
seeds cancel.  The score is seat ``p``'s utility (its side's points minus the opponents',
the others' mean three- and five-handed; no game score).  Reported per seat from the dealer
(0 the dealer, 1 its left, ...): the CFR bidder's gain over ``pimc:W`` at that seat, and
over ``expert:W:nocfr`` (the same card play: the bidding alone), each with its 95 % interval
over the sets; and the share of the seat's bids the strategy took.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from euchre import Rules
from euchre.bots import make_bot, play_deal
from euchre.bots.cfr import CfrExpertBot
from euchre.bots.evaluation import utility_of_gains
from euchre.deal import Deal
from euchre.jobs.bench import cpu_model
from euchre.jobs.tournament import mean_ci


def _play(rules: Rules, s: int, seed: int, names: list[str]) -> tuple[list[float], int]:
    """Set ``s`` played by ``names`` (by seat); each seat's utility, and the bids the
    strategy took."""
    n = rules.players
    deal = Deal.random(rules, dealer=s % n, seed=seed * 100_003 + s)
    bots = [make_bot(name, random.Random(f"{seed}/{s}/{seat}"))
            for seat, name in enumerate(names)]
    play_deal(deal, bots)
    learned = sum(b.learned for b in bots if isinstance(b, CfrExpertBot))
    return ([utility_of_gains(deal.result.points, p, [0] * n, 10**6, 0.0) for p in range(n)],
            learned)


def run(players: int, sets: int, worlds: int, seed: int) -> dict[str, Any]:
    """The per-seat gains (module doc).

    >>> report = run(players=2, sets=1, worlds=1, seed=1)
    >>> [r["seat_from_dealer"] for r in report["seats"]]
    [0, 1]
    """
    rules = Rules(players=players)
    n = players
    base_name = f"pimc:{worlds}"
    over_pimc: list[list[float]] = [[] for _ in range(n)]
    over_expert: list[list[float]] = [[] for _ in range(n)]
    learned = [0] * n
    start = time.perf_counter()
    for s in range(sets):
        dealer = s % n
        base, _ = _play(rules, s, seed, [base_name] * n)
        for rel in range(n):
            p = (dealer + rel) % n
            names = [base_name] * n
            names[p] = f"expert:{worlds}:cfr"
            cfr, took = _play(rules, s, seed, names)
            names[p] = f"expert:{worlds}:nocfr"
            expert, _ = _play(rules, s, seed, names)
            over_pimc[rel].append(cfr[p] - base[p])
            over_expert[rel].append(cfr[p] - expert[p])
            learned[rel] += took
    rows = []
    for rel in range(n):
        m1, ci1 = mean_ci(over_pimc[rel])
        m2, ci2 = mean_ci(over_expert[rel])
        rows.append({"seat_from_dealer": rel, "over_pimc": m1, "over_pimc_ci95": ci1,
                     "over_expert": m2, "over_expert_ci95": ci2,
                     "strategy_bids": learned[rel]})
    return {"players": players, "sets": sets, "worlds": worlds, "seed": seed,
            "seconds": round(time.perf_counter() - start, 1), "cpu": cpu_model(),
            "seats": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sets", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.players, args.sets, args.worlds, args.seed)
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.players}-handed, {args.sets} sets, {args.worlds} worlds, seed {args.seed}, "
          f"{report['seconds']} s on {report['cpu']}")
    for r in report["seats"]:
        lo1, hi1 = r["over_pimc_ci95"] or (float("nan"),) * 2
        lo2, hi2 = r["over_expert_ci95"] or (float("nan"),) * 2
        print(f"  dealer+{r['seat_from_dealer']}: over pimc {r['over_pimc']:+.3f} "
              f"({lo1:+.3f} to {hi1:+.3f}), over the expert {r['over_expert']:+.3f} "
              f"({lo2:+.3f} to {hi2:+.3f}), {r['strategy_bids']} bids by the strategy")


if __name__ == "__main__":
    main()
