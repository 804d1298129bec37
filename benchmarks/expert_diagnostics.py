"""Where the ``expert`` bot's edge over ``basic`` comes from, and how well it judges bids.

Two measurements, both on single deals from a 0-0 score (no game around them), each deal
played once with the bot under test at every seat in turn (four-handed: with its partner
opposite) and ``basic`` at the other seats:

``split``
    The expert's edge per deal, and the same for two hybrids: ``basic`` bidding with the
    expert playing the cards, and the expert bidding with ``basic`` playing. "Bidding"
    is every decision before the first lead (bids, going alone, the exchange, the dummy,
    the call, defending alone). The unit is the seat's *utility* of the deal: its points
    minus the average of the others' (four-handed: its side's minus the other side's).
    Averaged over the seats, ``basic`` in place of the bot scores exactly 0, so each
    figure is the bot's edge over ``basic`` in points per deal, with a 95% interval over
    the deals; the hybrids are also given as a paired difference from the expert.

``calibration``
    At each bid of the expert (rounds 1 and 2, two or more legal actions) the values
    :meth:`~euchre.bots.expert.ExpertBot.evaluate` gives every legal action, and what
    each action actually brought: the deal is copied, the action applied, and the
    copy played out by the same kinds of bots. Grouped by the predicted difference
    between bidding (or going alone) and passing, the realised difference shows whether
    the expert over- or under-rates a bid against these opponents.

Run ``python benchmarks/expert_diagnostics.py split --players 3 --deals 1000`` or
``... calibration --players 5 --deals 800``; ``--json`` for the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.bots import Bot, choose, play_deal
from euchre.bots.basic import BasicBot
from euchre.bots.expert import ExpertBot, PimcBot
from euchre.deal import Observation, Phase
from euchre.jobs.bench import side_seats
from euchre.jobs.train import binned, mean_half_width


class Hybrid:
    """One bot before the first lead, another for the play of the cards."""

    name = "hybrid"
    needs_observation = True

    def __init__(self, bidder: Bot, player: Bot) -> None:
        self.bidder = bidder
        self.player = player

    def act(self, observation: Observation) -> Action:
        """The player's choice in the play, the bidder's before it."""
        bot = self.player if observation.phase is Phase.PLAY else self.bidder
        return bot.act(observation)


BOTS: dict[str, Callable[[int], Bot]] = {
    "expert": lambda s: ExpertBot(s),
    "basic bids, expert plays": lambda s: Hybrid(BasicBot(s), ExpertBot(s + 1)),
    "expert bids, basic plays": lambda s: Hybrid(ExpertBot(s), BasicBot(s + 1)),
}


JUDGED: dict[str, Callable[[int], Bot]] = {
    "expert": lambda s: ExpertBot(s),
    "pimc": lambda s: PimcBot(s),
}
"""The bots whose bids ``calibration`` judges."""


def utility(points: tuple[int, ...], seat: int) -> float:
    """The seat's points minus the others' average (four-handed: minus the other side's).

    >>> utility((2, 0, 2, 0), 0), utility((0, 2, 2), 0), utility((1, 0), 1)
    (2.0, -2.0, -1.0)
    """
    n = len(points)
    if n == 4:
        return float(points[seat] - points[(seat + 1) % 4])
    return points[seat] - (sum(points) - points[seat]) / (n - 1)


def new_deal(players: int, index: int, seed: int) -> Deal:
    """Deal ``index`` of a run (the dealer rotates with the index)."""
    return Deal.random(Rules(players=players), dealer=index % players,
                       seed=seed * 1_000_003 + index)


def seated(players: int, seat: int, index: int, make: Callable[[int], Bot],
           salt: int = 0) -> list[Bot]:
    """The bot under test at ``seat`` (and its partner), ``basic`` elsewhere."""
    mine = side_seats(players, seat)
    return [make(index * 16 + s + salt) if s in mine else BasicBot(index * 16 + s)
            for s in range(players)]


def split_deal(args: tuple[int, int, int]) -> dict[str, float]:
    """One deal of ``split``: each bot's seat-averaged utility."""
    players, index, seed = args
    out: dict[str, float] = {}
    for name, make in BOTS.items():
        total = 0.0
        for seat in range(players):
            deal = new_deal(players, index, seed)
            play_deal(deal, seated(players, seat, index, make))
            total += utility(deal.result.points, seat)
        out[name] = total / players
    return out


def _kind(action: str) -> str:
    return "alone" if action.endswith(" alone") else "pass" if action == "pass" else "bid"


def calibration_deal(args: tuple[int, int, int, str]) -> list[dict[str, Any]]:
    """One deal of ``calibration``: the bids of the bot named (``expert`` or ``pimc``),
    predicted and realised."""
    players, index, seed, name = args
    rows: list[dict[str, Any]] = []
    for seat in range(players):
        deal = new_deal(players, index, seed)
        bots = seated(players, seat, index, JUDGED[name])
        expert = bots[seat]
        assert isinstance(expert, PimcBot)
        while not deal.is_over:
            to_move = deal.to_move
            assert to_move is not None
            if (to_move == seat and deal.phase in (Phase.BID_TURNUP, Phase.BID_SUIT)
                    and len(deal.legal_action_ids()) > 1):
                obs = deal.observation(seat)
                values = expert.evaluate(obs)
                real: dict[str, float] = {}
                for action in values:
                    branch = deal.copy()
                    branch.apply(action.id)
                    play_deal(branch, seated(players, seat, index, JUDGED[name], salt=7))
                    real[str(action)] = utility(branch.result.points, seat)
                rows.append({"phase": deal.phase.name,
                             "predicted": {str(a): v for a, v in values.items()},
                             "realised": real})
                deal.apply(expert.act(obs).id)
                continue
            deal.apply(choose(bots[to_move], deal))
    return rows


def calibration_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Predicted against realised (action minus pass), by phase, kind and bin."""
    table = []
    for phase in (Phase.BID_TURNUP.name, Phase.BID_SUIT.name):
        pairs: dict[str, list[tuple[float, float]]] = {"bid": [], "alone": []}
        for r in rows:
            pred, real = r["predicted"], r["realised"]
            if r["phase"] != phase or "pass" not in pred:
                continue
            for a in pred:
                if a != "pass":
                    pairs[_kind(a)].append((pred[a] - pred["pass"], real[a] - real["pass"]))
        for kind, xs in pairs.items():
            table += [{"phase": phase, "kind": kind, **b} for b in binned(xs, 10)]
    return table


def calibration_means(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Predicted against realised values, averaged by phase and kind of action."""
    groups: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for r in rows:
        for a, v in r["predicted"].items():
            groups.setdefault((r["phase"], _kind(a)), []).append((v, r["realised"][a]))
    out = []
    for (phase, kind), xs in sorted(groups.items()):
        real_mean, half = mean_half_width([q for _, q in xs])
        out.append({"phase": phase, "kind": kind, "n": len(xs),
                    "predicted": statistics.fmean(p for p, _ in xs),
                    "realised": real_mean, "ci95": half})
    return out


def _run(func: Callable[[Any], Any], players: int, deals: int,
         seed: int, workers: int, *extra: Any) -> Iterator[Any]:
    jobs = [(players, i, seed, *extra) for i in range(deals)]
    with multiprocessing.Pool(workers) as pool:
        for done, got in enumerate(pool.imap(func, jobs, chunksize=4), 1):
            if done % 50 == 0 or done == deals:
                print(f"\r{done}/{deals} deals", end="", file=sys.stderr, flush=True)
            yield got
    print(file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, measure, and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("what", choices=("split", "calibration"))
    parser.add_argument("--players", type=int, choices=(2, 3, 4, 5), default=3)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", choices=sorted(JUDGED), default="expert",
                        help="calibration: whose bids to judge")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.deals < 2 or args.workers < 1:
        parser.error("--deals must be 2 or more and --workers 1 or more")
    start = time.perf_counter()
    head = {"command": " ".join(["python", *sys.argv]), "players": args.players,
            "deals": args.deals, "seed": args.seed}
    if args.what == "split":
        got = list(_run(split_deal, args.players, args.deals, args.seed, args.workers))
        results = []
        for name in BOTS:
            xs = [g[name] for g in got]
            m, h = mean_half_width(xs)
            diff = [g[name] - g["expert"] for g in got]
            dm, dh = mean_half_width(diff)
            results.append({"bot": name, "edge": m, "ci95": h,
                            "minus_expert": dm, "minus_expert_ci95": dh})
        report: dict[str, Any] = {**head, "results": results,
                                  "seconds": time.perf_counter() - start}
        if args.json:
            print(json.dumps(report, indent=2))
        else:
            for r in results:
                extra = ("" if r["bot"] == "expert" else
                         f"   minus expert {r['minus_expert']:+.3f} ± "
                         f"{r['minus_expert_ci95']:.3f}")
                print(f"{r['bot']:26s} edge {r['edge']:+.3f} ± {r['ci95']:.3f}{extra}")
        return 0
    head["bot"] = args.bot
    rows = [r for chunk in _run(calibration_deal, args.players, args.deals, args.seed,
                                args.workers, args.bot) for r in chunk]
    table = calibration_table(rows)
    means = calibration_means(rows)
    report = {**head, "decisions": len(rows), "means": means, "table": table,
              "seconds": time.perf_counter() - start}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{len(rows)} bids of {args.bot}; mean value by kind of action")
        for t in means:
            print(f"{t['phase']:10s} {t['kind']:5s} n={t['n']:5d}  predicted "
                  f"{t['predicted']:+.2f}  realised {t['realised']:+.2f} ± {t['ci95']:.2f}")
        print("action minus pass, predicted and realised")
        for t in table:
            print(f"{t['phase']:10s} {t['kind']:5s} [{t['from']:+.1f}, {t['to']:+.1f})  "
                  f"n={t['n']:5d}  predicted {t['predicted']:+.2f}  "
                  f"realised {t['realised']:+.2f} ± {t['ci95']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
