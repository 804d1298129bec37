"""Does looking one card further in the play (the ``lookahead`` bot) beat PIMC's play?

Run ``python benchmarks/lookahead.py [--players 2 3 4 5] [--deals N] [--worlds W]
[--playouts R] [--workers K] [--seed S] [--json]``.

The ``lookahead`` bot is the ``expert`` whose next card is chosen once per information
set rather than once per world (:class:`euchre.bots.evaluation._LookaheadPlayEval`).  The
two bots differ only in the play, and only at a small share of the decisions, so a
tournament between them measures mostly noise.  This benchmark looks where they differ:

1. Deals of each variant's default rules are played by ``expert:W`` at every seat.
2. At every play decision with two or more legal cards and three or more cards in hand
   (where the lookahead can differ), both ``ExpertBot`` and ``LookaheadBot`` with ``W``
   worlds and the same seed choose a card.
3. Where they choose differently, each of the two cards is played on the true deal and
   the deal is played out ``R`` times, the seat playing on as the bot that chose the card
   and every other seat as ``expert:W`` (the same bot seeds for both cards, so the
   playouts are paired; ``--one-card``: the seat plays on as the expert after either
   card); the score is the seat's utility (its side's points minus the opponents', the
   others' mean three- and five-handed).

Reported per variant: the decisions, how many differed, the mean gain of the lookahead's
card at a differing decision, and that gain spread over all deals (the points per deal the
lookahead would add to its side in self-play), each with its 95% interval over the
differing decisions.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import time
from typing import Any

from euchre import Rules
from euchre.bots import Bot, choose, make_bot, play_deal
from euchre.bots.evaluation import utility_of_gains
from euchre.bots.expert import ExpertBot, LookaheadBot
from euchre.deal import Deal, Phase
from euchre.jobs.bench import cpu_model
from euchre.solver import warm_up


def _utility(deal: Deal, seat: int) -> float:
    return utility_of_gains(deal.result.points, seat, [0] * deal.n, 10**6, 0.0)


def one_deal(job: tuple[int, int, int, int, int, bool]) -> dict[str, Any]:
    """Play deal ``d`` of a variant; return its decisions and the gains where they differ."""
    players, d, seed, worlds, playouts, continue_own = job
    warm_up()
    rules = Rules(players=players)
    deal = Deal.random(rules, dealer=d % players, seed=seed * 100_003 + d)
    bots = [make_bot(f"expert:{worlds}", seed + d * 8 + s) for s in range(players)]
    decisions = 0
    gains: list[float] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        if obs.phase is Phase.PLAY and len(obs.legal_actions) > 1 and len(obs.hand) >= 3:
            decisions += 1
            mine = ExpertBot(d, samples=worlds, time_budget=None).act(obs)
            other = LookaheadBot(d, samples=worlds, time_budget=None).act(obs)
            if mine != other:
                total = 0.0
                for r in range(playouts):
                    got = []
                    for card, own in ((other, LookaheadBot), (mine, ExpertBot)):
                        copy = deal.copy()
                        copy.apply(card)
                        seats: list[Bot] = [make_bot(f"expert:{worlds}", 7919 * r + d * 8 + s)
                                            for s in range(players)]
                        if continue_own:
                            seats[seat] = own(7919 * r + d * 8 + seat, samples=worlds,
                                              time_budget=None)
                        play_deal(copy, seats)
                        got.append(_utility(copy, seat))
                    total += got[0] - got[1]
                gains.append(total / playouts)
        deal.apply(choose(bots[seat], deal))
    return {"decisions": decisions, "gains": gains}


def _ci(values: list[float], deals: int) -> tuple[float, float, float]:
    """Sum over the deals / deals, with a 95% half-width (each deal's sum one sample).

    ``values`` holds one number per deal where the bots differed; the other deals count as
    zeros, so ``deals`` may exceed ``len(values)``: the mean, the half-width and the
    standard deviation are per deal played.

    >>> [round(x, 3) for x in _ci([2.0, 0.0, 1.0, 1.0], 4)]
    [1.0, 0.693, 0.707]
    >>> [round(x, 3) for x in _ci([2.0], 4)]  # three deals where the bots agreed
    [0.5, 0.849, 0.866]
    """
    mean = sum(values) / deals
    sq = sum(v * v for v in values) / deals
    sd = math.sqrt(max(sq - mean * mean, 0.0))
    return mean, 1.96 * sd / math.sqrt(deals), sd


def run_variant(players: int, deals: int, seed: int, worlds: int, playouts: int,
                workers: int, continue_own: bool = True) -> dict[str, Any]:
    jobs = [(players, d, seed, worlds, playouts, continue_own) for d in range(deals)]
    start = time.perf_counter()
    with multiprocessing.Pool(workers) as pool:
        results = pool.map(one_deal, jobs, chunksize=2)
    seconds = time.perf_counter() - start
    decisions = sum(r["decisions"] for r in results)
    gains = [g for r in results for g in r["gains"]]
    per_deal = [sum(r["gains"]) for r in results]
    mean_deal, half_deal, _ = _ci(per_deal, deals)
    row: dict[str, Any] = {
        "players": players, "deals": deals, "decisions": decisions,
        "differing": len(gains),
        "gain_per_deal": mean_deal, "gain_per_deal_ci95": [mean_deal - half_deal,
                                                           mean_deal + half_deal],
        "seconds": round(seconds, 1),
    }
    if len(gains) > 1:
        m = statistics.fmean(gains)
        h = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
        row["gain_when_differing"] = m
        row["gain_when_differing_ci95"] = [m - h, m + h]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--playouts", type=int, default=8)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--one-card", action="store_true",
                    help="after the differing card, the seat plays on as the expert in both "
                         "playouts (else each bot plays on as itself)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for players in args.players:
        row = run_variant(players, args.deals, args.seed, args.worlds, args.playouts,
                          args.workers, not args.one_card)
        rows.append(row)
        if not args.json:
            w = row.get("gain_when_differing")
            wci = row.get("gain_when_differing_ci95", [math.nan, math.nan])
            print(f"{players}-handed: {row['differing']} of {row['decisions']} decisions "
                  f"differ; gain when they do {w if w is not None else math.nan:+.3f} "
                  f"({wci[0]:+.3f} to {wci[1]:+.3f}); per deal "
                  f"{row['gain_per_deal']:+.4f} ({row['gain_per_deal_ci95'][0]:+.4f} to "
                  f"{row['gain_per_deal_ci95'][1]:+.4f}); {row['seconds']} s", flush=True)
    if args.json:
        print(json.dumps({"cpu": cpu_model(), "worlds": args.worlds,
                          "playouts": args.playouts, "seed": args.seed, "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
