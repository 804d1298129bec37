"""The expert with the learned belief (issue 23, item 2): its worlds weighed by the learned
policy's likelihood of what the other seats did, instead of its six hand-written rules.

Run ``python benchmarks/net_expert.py [--players 4] [--sets N] [--seed S] [--worlds 32]
[--candidates 256] [--power 0.5] [--mix 0] [--hidden none] [--expert] [--log FILE]``, or
``--time DEALS`` (see :func:`timing`), or ``--resume LOG``.

The variant (:class:`NetExpertBot`) is ``expert:WORLDS`` (fixed worlds, no time budget;
the learned correction of its pre-play values kept) whose worlds come from
:class:`euchre.bots.belief.NetBelief`: ``--candidates`` uniform whole deals the seat
cannot tell from its own (:func:`euchre.worlds.sample_world`; the expert's own sampler
deals the hands as they are now, not whole deals with the hidden discards, so the net
could not replay them), each weighed by the product of the net's probabilities of every
decision another seat took (tempered by ``--power``, mixed with the uniform choice by
``--mix``, the discards the seat did not see left at 1 unless ``--hidden`` says
otherwise: :data:`euchre.bots.belief.HIDDEN_MODES`), then ``WORLDS`` drawn by
systematic resampling; a world drawn several times is solved once and counts as many
times.  The expert's own likelihood (its six rules) is not used.  Nothing is registered:
the bot is built here, never by name, so the shipped bots cannot change.

The match is :func:`net_bids.match <benchmarks.net_bids.match>`: a duplicate tournament
against ``pimc:WORLDS`` played as ``euchre tournament --bots expert:WORLDS,pimc:WORLDS
--seed S`` plays it; ``--expert`` plays ``expert:WORLDS`` against ``pimc`` on the same sets
beside it, and the paired per-set difference of the two is reported too.  ``--log``
writes a JSON line per set, so a run stopped early still counts (``--resume FILE`` reads
such a log back and prints its figures).

>>> from euchre import Deal, Rules
>>> deal = Deal.random(Rules(players=4), dealer=0, seed=2)
>>> for _ in range(5):
...     _ = deal.apply(deal.legal_actions()[0])
>>> bot = NetExpertBot(1, samples=8, candidates=32)
>>> action = bot.act(deal.observation(deal.to_move))
>>> action in deal.legal_actions(), 1 <= bot.worlds_used <= 8
(True, True)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.bots import Bot
from euchre.bots.belief import DEFAULT_CANDIDATES, HIDDEN_MODES, NetBelief
from euchre.bots.evaluation import _Bot, _PlayEval, _PrePlayEval
from euchre.bots.expert import ExpertBot, PimcBot
from euchre.bots.knowledge import _PLAY, _Know
from euchre.bots.learned import model_for
from euchre.bots.net import net_for
from euchre.deal import Observation
from euchre.jobs.bench import cpu_model


def _net_bids() -> Any:
    """``benchmarks/net_bids.py`` (the folder is not a package): its match."""
    name = "bench_net_bids"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).resolve().parent / "net_bids.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class _Drawn:
    """The evaluators' worlds from a list drawn beforehand: each world once, weighed by
    the times it was drawn (replaces :class:`euchre.bots.knowledge._Worlds`'s sampling
    and weights)."""

    drawn: list[tuple[list[int], int]]
    _weight: float

    def world(self) -> list[int] | None:
        if not self.drawn:
            return None
        hands, times = self.drawn.pop(0)
        self._weight = float(times)
        return hands

    def weight(self, hands: list[int]) -> float:
        return self._weight

    def weighted_world(self) -> tuple[list[int] | None, float]:
        hands = self.world()
        return hands, 0.0 if hands is None else self._weight


class _DrawnPlayEval(_Drawn, _PlayEval):
    def __init__(self, bot: _Bot, k: _Know, drawn: list[tuple[list[int], int]]) -> None:
        super().__init__(bot, k)
        self.drawn = drawn


class _DrawnPrePlayEval(_Drawn, _PrePlayEval):
    def __init__(
        self, bot: _Bot, k: _Know, everything: bool, drawn: list[tuple[list[int], int]]
    ) -> None:
        super().__init__(bot, k, everything)
        self.drawn = drawn


class NetExpertBot(ExpertBot):
    """``expert:samples`` (no time budget) whose worlds are drawn from ``candidates``
    uniform ones weighed by the net (see the module)."""

    name = "netexpert"
    inference = False  # its worlds' weights are the net's, not the six rules'

    def __init__(
        self,
        seed: int | random.Random | None = None,
        samples: int = 32,
        candidates: int = DEFAULT_CANDIDATES,
        power: float = 0.5,
        mix: float = 0.0,
        hidden: str = "none",
    ) -> None:
        super().__init__(seed, samples, time_budget=None)
        self.candidates = candidates
        self.power = power
        self.mix = mix
        self.hidden = hidden
        self._beliefs: dict[int, NetBelief] = {}

    def belief(self, rules: Rules) -> NetBelief:
        """The weighing for these rules' net."""
        got = self._beliefs.get(rules.players)
        if got is None:
            model = net_for(rules)
            if model is None:
                raise ValueError("no net model for these rules")
            got = NetBelief(model, self.candidates, self.power, self.mix, self.hidden)
            self._beliefs[rules.players] = got
        return got

    def _values(
        self, obs: Observation, everything: bool
    ) -> tuple[dict[Action, float], dict[Action, float]]:
        k = _Know(obs)
        drawn = self.belief(obs.rules).draw(k, self.rng, self.samples)
        if k.phase == _PLAY:
            return _DrawnPlayEval(self, k, drawn).run()
        values, tie = _DrawnPrePlayEval(self, k, everything, drawn).run()
        if values:
            model = model_for(obs.rules, self.models)
            if model is not None:
                values = model.correct(obs, values)
        return values, tie


def timing(rules: Rules, deals: int, seed: int, bot: PimcBot) -> dict[str, Any]:
    """The bot's decision time: deals played by ``expert:32`` at every seat; at each
    decision with a choice, ``bot`` decides too, timed (wall clock, ms): median, p99.

    >>> t = timing(Rules(players=2), 1, 0, NetExpertBot(0, samples=4, candidates=16))
    >>> t["decisions"] > 0
    True
    """
    times: list[float] = []
    for i in range(deals):
        deal = Deal.random(rules, dealer=i % rules.players, seed=seed + i)
        players = [
            ExpertBot(seed + i * 8 + s, samples=32, time_budget=None) for s in range(rules.players)
        ]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            if len(obs.legal_actions) > 1:
                t = time.perf_counter()
                bot.act(obs)
                times.append((time.perf_counter() - t) * 1000)
            deal.apply(players[seat].act(obs))
    times.sort()
    return {
        "decisions": len(times),
        "median_ms": round(statistics.median(times), 2) if times else None,
        "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 2) if times else None,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the match(es), or time the decisions, and print the figures as JSON."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--sets", type=int, default=2000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--worlds", type=int, default=32)
    p.add_argument("--candidates", type=int, default=DEFAULT_CANDIDATES)
    p.add_argument("--power", type=float, default=0.5)
    p.add_argument("--mix", type=float, default=0.0)
    p.add_argument(
        "--hidden",
        choices=HIDDEN_MODES,
        default="none",
        help="which discards the seat did not see are weighed",
    )
    p.add_argument("--expert", action="store_true", help="expert:WORLDS against pimc too")
    p.add_argument("--log", help="a JSON line per set")
    p.add_argument("--resume", metavar="LOG", help="only print the figures of a log")
    p.add_argument("--time", type=int, metavar="DEALS", help="only time the decisions")
    args = p.parse_args(argv)
    rules = Rules(players=args.players)
    w = args.worlds

    def variant(rng: random.Random) -> Bot:
        return NetExpertBot(
            rng,
            samples=w,
            candidates=args.candidates,
            power=args.power,
            mix=args.mix,
            hidden=args.hidden,
        )

    def expert(rng: random.Random) -> Bot:
        return ExpertBot(rng, samples=w, time_budget=None)

    def pimc(rng: random.Random) -> Bot:
        return PimcBot(rng, samples=w, time_budget=None)

    info = {
        "players": args.players,
        "seed": args.seed,
        "worlds": w,
        "candidates": args.candidates,
        "power": args.power,
        "mix": args.mix,
        "hidden": args.hidden,
        "cpu": cpu_model(),
        "python": platform.python_version(),
    }
    if args.resume:
        with open(args.resume) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        figures = _net_bids().arm_figures(rows, ["netexpert", "expert"])
        json.dump({**info, **figures}, sys.stdout, indent=1)
        print()
        return 0
    if args.time:
        bot = NetExpertBot(
            args.seed,
            samples=w,
            candidates=args.candidates,
            power=args.power,
            mix=args.mix,
            hidden=args.hidden,
        )
        base = ExpertBot(args.seed, samples=w, time_budget=None)
        out = {
            **info,
            "netexpert": timing(rules, args.time, args.seed, bot),
            "expert": timing(rules, args.time, args.seed, base),
        }
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    arms = {"netexpert": variant, **({"expert": expert} if args.expert else {})}
    started = time.perf_counter()
    rows = _net_bids().play_arms(rules, arms, pimc, args.sets, args.seed, log=args.log)
    seconds = round(time.perf_counter() - started, 1)
    out = {**info, "seconds": seconds, **_net_bids().arm_figures(rows, ["netexpert", "expert"])}
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
