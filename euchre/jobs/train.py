"""Training the expert's pre-play correction (:mod:`euchre.bots.learned`).

**Data** (:class:`PrebidData`, a chunked job of :mod:`euchre.jobs.distributed`).  Deal ``d`` is
dealt by seat ``d mod n`` from a random game score, both drawn from the seed and ``d``.
The *student* seat ``(d // n) mod n`` (four-handed with its partner) is the ``pimc`` bot with a
fixed number of worlds; every other seat is ``basic`` or ``pimc:16``, drawn from the seed.
At each of a student's decisions before the first lead with more than one legal action,
the student's PIMC value of every legal action is computed
(:meth:`~euchre.bots.expert.PimcBot.evaluate`); the ``top`` best of them, and passing when
it is legal, are each applied to a copy of the deal and played out to its end by fresh
bots of the same kinds, and the seat's *realised* utility of each is recorded beside its
PIMC value and its features (:func:`euchre.bots.learned.decision_features`).  The utility
is that of the evaluation (:func:`euchre.bots.evaluation.utility_of_gains`): its side's
points minus the opponents' (the others' mean three- and five-handed), with the game bonus
when the deal ends the game.  The real deal then goes on with the PIMC choice.  Every
seed is derived from the job's seed, the deal, the decision and the action, so the rows
are the same on any number of workers.

**Fit** (:func:`fit`).  For each decision group, ridge regression (closed form) of
realised minus PIMC value on the features, the constant unpenalised, the penalty chosen by
cross-validation over deals.  :func:`calibration` compares predicted and realised
differences between bidding and passing, before and after the correction.

This module does no I/O: the command line (:mod:`euchre.cli.train`) writes the rows and
the model.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre.actions import PASS as _PASS_ID
from euchre.bots import Bot, choose, make_bot, play_deal
from euchre.bots.evaluation import utility_of_gains
from euchre.bots.expert import PimcBot
from euchre.bots.learned import FEATURES, GROUPS, Model, decision_features, group_of
from euchre.bots.modelfiles import file_name, rules_key
from euchre.deal import Deal
from euchre.jobs.bench import side_seats
from euchre.jobs.tournament import mean_ci
from euchre.rules import Rules

__all__ = [
    "COLUMNS",
    "DEFAULT_TOP",
    "DEFAULT_WORLDS",
    "OPPONENTS",
    "PrebidData",
    "Rows",
    "binned",
    "calibration",
    "fit",
    "mean_half_width",
    "model_name",
]

DEFAULT_WORLDS: Final = 32
"""Worlds the student samples per decision."""
DEFAULT_TOP: Final = 3
"""Actions played out per decision, by PIMC value (passing besides, when legal)."""
OPPONENTS: Final = ("basic", "pimc:16")
"""The bots the other seats are drawn from."""
CHUNK_SIZE: Final = 10
RIDGES: Final = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
"""The ridge penalties cross-validation chooses from."""
MIN_ROWS: Final = 40
"""A group with fewer rows keeps zero weights."""

COLUMNS: Final = ("deal", "decision", "seat", "group", "action", "chosen", "pimc",
                  "realised", "features")
"""The columns of the rows: the deal, the decision's number among the recorded ones of the
deal, the seat, the group (:data:`~euchre.bots.learned.GROUPS`), the action id, whether it
was PIMC's choice, its PIMC value, its realised utility and its features."""

Rows = dict[str, npt.NDArray[Any]]
"""Columns of rows as arrays (``features``: one row of floats each)."""


@dataclass(frozen=True)
class PrebidData:
    """The data job: ``deals`` deals of ``rules`` from ``seed`` (see the module doc)."""

    rules: Rules
    deals: int
    seed: int
    worlds: int = DEFAULT_WORLDS
    top: int = DEFAULT_TOP
    chunk_size: int = CHUNK_SIZE

    kind = "train-prebid"

    # -- euchre.jobs.distributed --------------------------------------------------------------
    def units(self) -> int:
        """Chunks of deals."""
        return -(-self.deals // self.chunk_size)

    def parameters(self) -> dict[str, Any]:
        """What the rows depend on."""
        return {"rules": self.rules.to_dict(), "deals": self.deals, "seed": self.seed,
                "worlds": self.worlds, "top": self.top, "chunk_size": self.chunk_size,
                "opponents": list(OPPONENTS)}

    def run_unit(self, unit: int) -> dict[str, list[Any]]:
        """The rows of a chunk's deals, column by column."""
        cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}
        for d in self.chunk_deals(unit):
            for row in self.deal_rows(d):
                for c in COLUMNS:
                    cols[c].append(row[c])
        return cols

    def settle(self, unit: int, output: dict[str, list[Any]]) -> dict[str, Any]:
        """The chunk's rows as its summary (a few per deal: small)."""
        deals = self.chunk_deals(unit)
        return {"deals": [deals.start, deals.stop], "rows": output}

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals in a chunk."""
        return int(summary["deals"][1] - summary["deals"][0])

    def chunk_deals(self, chunk: int) -> range:
        """The deals of a chunk."""
        start = chunk * self.chunk_size
        return range(start, min(start + self.chunk_size, self.deals))

    # -- one deal --------------------------------------------------------------------------
    def start(self, d: int) -> tuple[Deal, list[str]]:
        """Deal ``d`` from its random score, and the bot of each seat."""
        rules = self.rules
        n = rules.players
        rng = random.Random(f"{self.seed}/deal/{d}")
        top = max(rules.target - 1, 0)
        partner = rules.partner_of(0)
        if partner is not None:
            sides = [rng.randint(0, top), rng.randint(0, top)]
            scores = [sides[s % 2] for s in range(n)]
        else:
            scores = [rng.randint(0, top) for _ in range(n)]
        students = self.students(d)
        names = [f"pimc:{self.worlds}" if s in students else rng.choice(OPPONENTS)
                 for s in range(n)]
        return Deal.random(rules, d % n, rng, scores), names

    def students(self, d: int) -> set[int]:
        """The student seats of deal ``d``: seat ``(d // n) mod n`` (four-handed with its
        partner), so that over ``n * n`` deals each seat is the student under each dealer."""
        n = self.rules.players
        return side_seats(n, (d // n) % n)

    def bots(self, d: int, names: Sequence[str], tag: str) -> list[Bot]:
        """Fresh bots for deal ``d``, seeded from the seed, the deal, ``tag`` and the seat."""
        return [make_bot(name, random.Random(f"{self.seed}/bot/{d}/{tag}/{s}"))
                for s, name in enumerate(names)]

    def deal_rows(self, d: int) -> list[dict[str, Any]]:
        """Play deal ``d``; the rows of its students' pre-play decisions."""
        deal, names = self.start(d)
        students = self.students(d)
        bots = self.bots(d, names, "main")
        rows: list[dict[str, Any]] = []
        decision = 0
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            group = group_of(deal.phase)
            bot = bots[seat]
            if (seat in students and group is not None and isinstance(bot, PimcBot)
                    and len(deal.legal_action_ids()) > 1):
                obs = deal.observation(seat)
                values = bot.evaluate(obs)
                chosen = max(values, key=lambda a: values[a])
                actions, x = decision_features(obs, values)
                ranked = sorted(actions, key=lambda a: -values[a])[:self.top]
                played = [a for a in actions if a in ranked or a.id == _PASS_ID]
                for a in played:
                    branch = deal.copy()
                    branch.apply(a.id)
                    play_deal(branch, self.bots(d, names, f"{decision}/{a.id}"))
                    real = utility_of_gains(branch.result.points, seat, deal.scores,
                                            self.rules.target, PimcBot.game_bonus)
                    rows.append({"deal": d, "decision": decision, "seat": seat,
                                 "group": group, "action": a.id, "chosen": a == chosen,
                                 "pimc": values[a], "realised": real,
                                 "features": [float(v) for v in x[actions.index(a)]]})
                decision += 1
                deal.apply(chosen.id)
                continue
            deal.apply(choose(bot, deal))
        return rows



def gather(summaries: Sequence[Mapping[str, Any]]) -> Rows:
    """The rows of a run's chunk summaries (in unit order) as arrays."""
    cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    for s in summaries:
        for c in COLUMNS:
            cols[c].extend(s["rows"][c])
    return as_rows(cols)


def as_rows(cols: Mapping[str, Any]) -> Rows:
    """Columns as typed arrays (see :data:`COLUMNS`)."""
    f = len(FEATURES)
    feats = np.asarray(cols["features"], dtype=np.float64).reshape(-1, f)
    return {"deal": np.asarray(cols["deal"], dtype=np.int64),
            "decision": np.asarray(cols["decision"], dtype=np.int64),
            "seat": np.asarray(cols["seat"], dtype=np.int64),
            "group": np.asarray(cols["group"], dtype=np.int64),
            "action": np.asarray(cols["action"], dtype=np.int64),
            "chosen": np.asarray(cols["chosen"], dtype=np.bool_),
            "pimc": np.asarray(cols["pimc"], dtype=np.float64),
            "realised": np.asarray(cols["realised"], dtype=np.float64),
            "features": feats}


def select(rows: Rows, mask: npt.NDArray[np.bool_]) -> Rows:
    """The rows where ``mask`` is true."""
    return {c: v[mask] for c, v in rows.items()}


def model_name(rules: Rules) -> str:
    """The model file's name for the rules: ``prebid-4.npz``, and the options that
    differ from the variant's defaults (``prebid-4-stick_the_dealer-...npz``)."""
    return file_name("prebid-", rules)


# -- fitting -------------------------------------------------------------------------------
def _ridge(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
           penalty: float) -> npt.NDArray[np.float64]:
    """Ridge regression in closed form, the constant (column 0) almost unpenalised."""
    p = np.eye(x.shape[1]) * penalty
    p[0, 0] = 1e-9 if np.any(x[:, 0]) else penalty
    w = np.linalg.solve(x.T @ x + p, x.T @ y)
    return np.asarray(w, dtype=np.float64)


def _cv_penalty(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64],
                deals: npt.NDArray[np.int64], folds: int = 5) -> tuple[float, float]:
    """The penalty of least cross-validated squared error (folds by deal), and that error."""
    fold = deals % folds
    best = (math.inf, RIDGES[-1])
    for penalty in RIDGES:
        err = 0.0
        for f in range(folds):
            test = fold == f
            if test.all() or not test.any():
                continue
            w = _ridge(x[~test], y[~test], penalty)
            err += float(np.sum((x[test] @ w - y[test]) ** 2))
        best = min(best, (err / len(y), penalty))
    return best[1], best[0]


def _demeaned(a: npt.NDArray[np.float64], key: npt.NDArray[np.int64]
              ) -> npt.NDArray[np.float64]:
    """``a`` minus its mean over the rows of the same decision (``key``)."""
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    shape = (len(counts), *a.shape[1:])
    sums = np.zeros(shape)
    np.add.at(sums, inverse, a)
    out: npt.NDArray[np.float64] = a - (sums / counts.reshape(-1, *([1] * (a.ndim - 1))))[
        inverse]
    return out


@dataclass(frozen=True)
class Fit:
    """A fitted model and its statistics, by group."""

    weights: npt.NDArray[np.float64]
    stats: dict[str, dict[str, float]]


def fit(rows: Rows, min_rows: int = MIN_ROWS, within: bool = True) -> Fit:
    """Fit each group's correction on ``rows`` (see the module doc); a group of fewer
    than ``min_rows`` rows keeps zero weights."""
    weights = np.zeros((len(GROUPS), len(FEATURES)))
    stats: dict[str, dict[str, float]] = {}
    for k, name in enumerate(GROUPS):
        mask = rows["group"] == k
        n = int(mask.sum())
        if n < min_rows:
            if n:
                stats[name] = {"rows": n, "fitted": 0}
            continue
        x = rows["features"][mask]
        y = rows["realised"][mask] - rows["pimc"][mask]
        deals = rows["deal"][mask]
        # first the differences between the actions of a decision: their outcomes share
        # the deal's cards, so differences are far less noisy than the values
        key = deals * 64 + rows["decision"][mask]
        xd, yd = _demeaned(x, key), _demeaned(y, key)
        penalty_within, _ = _cv_penalty(xd, yd, deals)
        w = _ridge(xd, yd, penalty_within) if within else np.zeros(x.shape[1])
        # then the level, on what is left, from the features every action of a decision
        # shares (the others would bring the deals' luck back into the differences)
        rest = y - x @ w
        level = [0] + [j for j in range(1, x.shape[1]) if not np.any(np.abs(xd[:, j]) > 1e-12)]
        penalty, cv = _cv_penalty(x[:, level], rest, deals)
        w[level] += _ridge(x[:, level], rest, penalty)
        weights[k] = w
        stats[name] = {"rows": n, "fitted": 1, "penalty_within": penalty_within,
                       "penalty": penalty, "mse_pimc": float(np.mean(y ** 2)),
                       "mse_fit": float(np.mean((y - x @ w) ** 2)),
                       "mse_differences_pimc": float(np.mean(yd ** 2)),
                       "mse_differences_fit": float(np.mean((yd - xd @ w) ** 2)),
                       "mse_cv": cv, "bias_pimc": float(np.mean(y))}
    return Fit(weights, stats)


def corrected(rows: Rows, weights: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each row's corrected value under ``weights``."""
    w = weights[rows["group"]]
    out: npt.NDArray[np.float64] = rows["pimc"] + np.einsum("ij,ij->i", rows["features"], w)
    return out


BINS: Final = ((-math.inf, -1.0), (-1.0, -0.5), (-0.5, -0.2), (-0.2, 0.0), (0.0, 0.2),
               (0.2, 0.5), (0.5, 1.0), (1.0, math.inf))
"""Bins of the predicted difference between an action and passing."""


def mean_half_width(xs: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (Student's t,
    :func:`euchre.jobs.tournament.mean_ci`); NaN where there are too few values.

    >>> mean, half = mean_half_width([1.0, 2.0, 3.0])
    >>> mean, round(half, 3)
    (2.0, 2.484)
    """
    if not xs:
        return math.nan, math.nan
    mean, ci = mean_ci(xs)
    return mean, math.nan if ci is None else (ci[1] - ci[0]) / 2


def binned(pairs: Sequence[tuple[float, float]], least: int) -> list[dict[str, Any]]:
    """(predicted, realised) pairs by :data:`BINS` of the prediction: each bin of at least
    ``least`` pairs with its bounds, size, mean prediction and mean realised value ± its
    95% half-width."""
    out = []
    for lo, hi in BINS:
        got = [(p, q) for p, q in pairs if lo <= p < hi]
        if len(got) < least:
            continue
        real, half = mean_half_width([q for _, q in got])
        out.append({"from": lo, "to": hi, "n": len(got),
                    "predicted": statistics.fmean(p for p, _ in got),
                    "realised": real, "ci95": half})
    return out


def bid_pairs(rows: Rows, values: npt.NDArray[np.float64]
              ) -> list[tuple[str, str, float, float]]:
    """(group, kind, predicted, realised) of every bid against passing at the same
    decision, ``values`` the predictions; kind ``bid`` or ``alone``."""
    alone_col = FEATURES.index("alone")
    out = []
    key = rows["deal"] * 64 + rows["decision"]
    passes = {int(key[i]): i for i in np.flatnonzero(rows["action"] == _PASS_ID)}
    for i in range(len(key)):
        g = int(rows["group"][i])
        if g > 1 or rows["action"][i] == _PASS_ID:
            continue
        j = passes.get(int(key[i]))
        if j is None:
            continue
        kind = "alone" if rows["features"][i, alone_col] else "bid"
        out.append((GROUPS[g], kind, float(values[i] - values[j]),
                    float(rows["realised"][i] - rows["realised"][j])))
    return out


def calibration(rows: Rows, weights: npt.NDArray[np.float64] | None = None
                ) -> list[dict[str, Any]]:
    """Predicted against realised (bid minus pass) by group, kind and bin of the
    prediction: PIMC's values, or corrected by ``weights``."""
    values = rows["pimc"] if weights is None else corrected(rows, weights)
    pairs = bid_pairs(rows, values)
    table = []
    for group in GROUPS[:2]:
        for kind in ("bid", "alone"):
            xs = [(p, q) for g, k, p, q in pairs if g == group and k == kind]
            table += [{"group": group, "kind": kind, **b} for b in binned(xs, 5)]
    return table


def calibration_error(table: Sequence[Mapping[str, Any]]) -> float:
    """The mean absolute gap between predicted and realised, weighted by rows."""
    n = sum(int(t["n"]) for t in table)
    if not n:
        return math.nan
    return sum(int(t["n"]) * abs(float(t["predicted"]) - float(t["realised"]))
               for t in table) / n


def holdout(rows: Rows, every: int = 5, within: bool = True) -> dict[str, Any]:
    """Fit on the deals not divisible by ``every``, test on the others: the calibration
    before and after, and how often the choice at a decision changes."""
    test = rows["deal"] % every == 0
    trained = fit(select(rows, ~test), within=within)
    held = select(rows, test)
    before = calibration(held)
    after = calibration(held, trained.weights)
    y = held["realised"]
    after_values = corrected(held, trained.weights)
    return {"rows": int(test.sum()), "before": before, "after": after,
            "error_before": calibration_error(before), "error_after": calibration_error(after),
            "mse_before": float(np.mean((y - held["pimc"]) ** 2)) if len(y) else math.nan,
            "mse_after": float(np.mean((y - after_values) ** 2)) if len(y) else math.nan,
            "changed": _changed(held, after_values)}


def _changed(rows: Rows, values: npt.NDArray[np.float64]) -> dict[str, float]:
    """Of the decisions of ``rows``: how many, the share whose best action changes under
    ``values``, and the realised gain of the new choices over PIMC's in points a decision
    (zero where unchanged), with its 95% interval."""
    key = rows["deal"] * 64 + rows["decision"]
    gains: list[float] = []
    changed = 0
    for k in np.unique(key):
        idx = np.flatnonzero(key == k)
        old = idx[np.argmax(rows["pimc"][idx])]
        new = idx[np.argmax(values[idx])]
        gains.append(float(rows["realised"][new] - rows["realised"][old]))
        changed += old != new
    n = len(gains)
    gain, half = mean_half_width(gains)
    return {"decisions": n, "changed": float(changed / n) if n else math.nan, "gain": gain,
            "gain_ci95": half}


def make_model(rows: Rows, rules: Rules, header: Mapping[str, Any]) -> tuple[Model, Fit]:
    """Fit on every row and wrap the weights with the header (rules and statistics)."""
    result = fit(rows)
    model = Model(result.weights, {**header, "rules": rules.to_dict(),
                                   "rules_key": rules_key(rules), "fit": result.stats})
    return model, result
