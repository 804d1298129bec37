"""The net with the rules options as inputs (issue 23, item 1): net models compared on the
held-out deals of self-play folders, rules set by rules set.

Run ``python benchmarks/net_options.py --models A.npz[,B.npz...] FOLDER... [--holdout 0.1]
[--seed 1] [--bootstrap 1000]``.

The folders are read as ``euchre train net`` reads them (:func:`euchre.jobs.net.read_selfplay`,
the first folder's rules the model's own) and the held-out deals are drawn as it draws them
(:func:`euchre.jobs.net.holdout_rows`, folder by folder from ``--seed``), so a model trained
with that seed on those folders is judged on deals it never saw, and the first folder's
held-out deals are those of a model trained on it alone.  A model without option inputs
(the default rules' shipped one) reads the observation tensor alone, blind to the options.
Printed per model and rules set: the top-1 accuracy against the expert's choices (decisions
with more than one legal action: all, before the first lead, card play), the log loss and the
value's RMSE (:func:`euchre.jobs.net.accuracy`); and for each model after the first, its
difference from the first on the same rows with a 95 % interval from ``--bootstrap``
resamples of the held-out deals (the noise of the comparison, the deals paired).

>>> rows = np.array([0, 0, 1, 2, 2])
>>> a = np.array([1.0, 0.0, 1.0, 1.0, 1.0])
>>> low, high = paired_interval(rows, a, np.zeros(5), 200, 1)
>>> 0.0 < low <= high <= 1.0
True
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from euchre.actions import DISCARD
from euchre.bots.net import NetModel
from euchre.jobs.bench import cpu_model
from euchre.jobs.net import accuracy, holdout_rows, options_label, read_selfplay


def paired_interval(deals: npt.NDArray[np.int64], a: npt.NDArray[np.float64],
                    b: npt.NDArray[np.float64], resamples: int, seed: int
                    ) -> tuple[float, float]:
    """The 95 % interval of ``mean(a) - mean(b)`` over rows, the deals resampled whole."""
    unique, index = np.unique(deals, return_inverse=True)
    diff_sum = np.bincount(index, a - b)
    count = np.bincount(index).astype(np.float64)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, unique.size, (resamples, unique.size))
    means = diff_sum[draws].sum(axis=1) / count[draws].sum(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def per_row(model: NetModel, obs: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
            action: npt.NDArray[np.int64], outcome: npt.NDArray[np.float32]
            ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each row's hit (the policy's first choice is the action taken) and squared error."""
    probs, value = model.forward(obs, legal)
    best = np.where(legal, probs, -1.0).argmax(axis=1)
    return (best == action).astype(np.float64), ((value - outcome) ** 2).astype(np.float64)


def main(argv: Sequence[str] | None = None) -> int:
    """Print one JSON object: per model and rules set, the held-out figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("folders", nargs="+", help="self-play folders, the model's own rules first")
    p.add_argument("--models", required=True, help="model files, comma-separated")
    p.add_argument("--holdout", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bootstrap", type=int, default=1000)
    args = p.parse_args(argv)
    paths = args.models.split(",")
    models = [NetModel.load(path) for path in paths]
    data = read_selfplay(args.folders)
    held = holdout_rows(data, args.holdout, args.seed)
    mean = float(data.outcome[~held].mean())
    labels = [options_label(r, data.rules) for r in data.folder_rules]
    source = data.source if data.source is not None else np.zeros(len(data.deal), np.int64)
    out: dict[str, Any] = {"folders": args.folders, "seed": args.seed,
                           "holdout": args.holdout, "cpu": cpu_model(),
                           "python": platform.python_version(), "models": {}}
    rows_of = {label: held & np.isin(source, [i for i, x in enumerate(labels) if x == label])
               for label in dict.fromkeys(labels)}
    first: dict[str, tuple[Any, Any]] = {}
    for path, model in zip(paths, models, strict=True):
        obs = data.obs if model.input_size == data.obs.shape[1] else \
            data.obs[:, :model.observation_size]
        figures: dict[str, Any] = {}
        for label, rows in rows_of.items():
            f = accuracy(model, obs[rows], data.legal[rows], data.action[rows],
                         data.outcome[rows], mean)
            f["deals"] = int(np.unique(data.deal[rows]).size)
            hit, sq = per_row(model, obs[rows], data.legal[rows], data.action[rows],
                              data.outcome[rows])
            choice = data.legal[rows].sum(axis=1) > 1
            if label not in first:
                first[label] = (hit, sq)
            else:
                hit0, sq0 = first[label]
                deals = data.deal[rows]
                d_top1 = float(hit[choice].mean() - hit0[choice].mean())
                f["top1_diff"] = round(d_top1, 4)
                f["top1_diff_ci95"] = [round(x, 4) for x in paired_interval(
                    deals[choice], hit[choice], hit0[choice], args.bootstrap, args.seed)]
                f["mse_diff"] = round(float(sq.mean() - sq0.mean()), 4)
                f["mse_diff_ci95"] = [round(x, 4) for x in paired_interval(
                    deals, sq, sq0, args.bootstrap, args.seed)]
                pre = choice & (data.action[rows] >= DISCARD)
                f["top1_preplay_diff"] = round(float(hit[pre].mean() - hit0[pre].mean()), 4)
            figures[label] = f
        out["models"][path] = figures
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
