"""Training the net model (:mod:`euchre.bots.net`): a policy and a value of euchre play.

**Data.**  The rows of ``euchre selfplay`` (:mod:`euchre.jobs.selfplay`): one per decision,
the seat's observation tensor, the legal mask, the action the bot took and the deal's
points by seat.  :func:`read_selfplay` reads one or more self-play folders of the same
rules; the *outcome* of a row is its seat's utility of the deal's points
(:func:`euchre.bots.evaluation.utility_of_gains` from a score of 0: its side's points minus
the opponents', the others' mean three- and five-handed).

**Split.**  By deal: :func:`holdout_deals` holds out a share of the deals (every decision of
a held-out deal), drawn from the seed.

**Fit** (:func:`train`, CPU PyTorch of the ``rl`` extra).  A multilayer perceptron, ReLU
layers shared by a policy head (a logit per action id; the illegal ones masked out before
the softmax; cross-entropy against the action taken) and a value head (squared error
against the outcome, weighted by ``value_weight``), by Adam with a cosine learning rate,
in minibatches drawn from the seed, on one thread by default: the same data, seed and
options give the same model.  The model is then rounded to float16 as its file holds it,
and every statistic is that of the rounded model, computed with numpy
(:meth:`euchre.bots.net.NetModel.forward`): held-out top-1 accuracy against the bot's
choices on decisions with more than one legal action (all, bidding and the other
decisions before the first lead, card play), the held-out root mean squared error of the
value, and that of predicting the training rows' mean outcome for reference.

This module writes nothing: the command line (``euchre train net``) writes the model.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre.actions import DISCARD, NUM_ACTIONS
from euchre.bots.evaluation import utility_of_gains
from euchre.bots.modelfiles import rules_key
from euchre.bots.net import NetModel
from euchre.rules import Rules
from euchre.vector import observation_size

__all__ = [
    "DEFAULT_LAYERS",
    "NetData",
    "NetOptions",
    "accuracy",
    "holdout_deals",
    "read_selfplay",
    "train",
]

DEFAULT_LAYERS: Final = (256, 256)
"""The trunk's widths."""
CHECKS: Final = 16
"""Held-out observations whose decisions the model file records (:meth:`NetModel.check`)."""

_MISSING_TORCH = ("training the net needs PyTorch, of the optional extra rl: "
                  "pip install -e '.[rl]'")
_MISSING_ARROW = "reading self-play data needs pyarrow, of the optional extra data"


@dataclass(frozen=True)
class NetData:
    """The rows of one variant: ``obs`` ``(N, size)`` float32, ``legal`` ``(N, 111)``
    bool, ``action`` and ``deal`` ``(N,)`` int64 (deals numbered apart across folders),
    ``outcome`` ``(N,)`` float32, and where they came from."""

    rules: Rules
    obs: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]
    deal: npt.NDArray[np.int64]
    outcome: npt.NDArray[np.float32]
    sources: list[dict[str, Any]]
    """Per folder: its path, seed, deals, bots, worlds and rows (from its manifest)."""

    @property
    def deals(self) -> int:
        """Distinct deals in the rows."""
        return int(np.unique(self.deal).size)


def outcomes(points: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
             rules: Rules) -> npt.NDArray[np.float32]:
    """Each row's seat's utility of its deal's points (module doc)."""
    n = rules.players
    zeros = [0] * n
    cache: dict[tuple[tuple[int, ...], int], float] = {}
    out = np.empty(len(seats), dtype=np.float32)
    for i, (p, s) in enumerate(zip(points.tolist(), seats.tolist(), strict=True)):
        key = (tuple(p), s)
        v = cache.get(key)
        if v is None:
            v = cache[key] = utility_of_gains(p, s, zeros, rules.target, 0.0)
        out[i] = v
    return out


def read_selfplay(folders: Sequence[str | Path]) -> NetData:
    """The rows of self-play folders (``manifest.json`` and ``chunk-*.parquet``) of one
    variant; ``ValueError`` if one cannot be read or their rules differ (the target
    aside)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError(_MISSING_ARROW) from None
    parts: list[dict[str, Any]] = []
    sources: list[dict[str, Any]] = []
    rules: Rules | None = None
    offset = 0
    for folder in map(Path, folders):
        try:
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
            params = manifest["parameters"]
            these = Rules.from_dict(params["rules"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{folder} holds no self-play manifest: {e}") from e
        if rules is None:
            rules = these
        elif rules_key(these) != rules_key(rules):
            raise ValueError(f"{folder} holds deals of other rules than {folders[0]}: "
                             f"train one variant at a time")
        size = observation_size(these.players)
        for chunk in manifest.get("chunks", []):
            try:
                table = pq.read_table(folder / chunk["file"], columns=[
                    "deal", "seat", "observation", "legal", "action", "points"])
            except (OSError, ValueError, KeyError) as e:
                raise ValueError(f"cannot read the self-play chunk {chunk!r} of {folder}: "
                                 f"{e}") from e
            m = table.num_rows

            def flat(name: str, width: int, dtype: Any, t: Any = table, m: int = m) -> Any:
                values = t.column(name).combine_chunks().flatten()
                return np.asarray(values.to_numpy(zero_copy_only=False),
                                  dtype=dtype).reshape(m, width)

            parts.append({
                "obs": flat("observation", size, np.float32),
                "legal": flat("legal", NUM_ACTIONS, np.bool_),
                "action": table.column("action").to_numpy().astype(np.int64),
                "deal": table.column("deal").to_numpy().astype(np.int64) + offset,
                "seat": table.column("seat").to_numpy().astype(np.int64),
                "points": flat("points", these.players, np.int64),
            })
        offset += int(params.get("deals", manifest.get("deals", 0))) + 1
        sources.append({"folder": str(folder), "seed": manifest.get("seed"),
                        "deals": manifest.get("deals"), "rows": manifest.get("rows"),
                        "bots": params.get("bots"), "worlds": params.get("worlds")})
    if rules is None or not parts:
        raise ValueError("no self-play rows were given")
    cat = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return NetData(rules, cat["obs"], cat["legal"], cat["action"], cat["deal"],
                   outcomes(cat["points"], cat["seat"], rules), sources)


def holdout_deals(deals: npt.NDArray[np.int64], share: float, seed: int
                  ) -> npt.NDArray[np.bool_]:
    """Which rows belong to held-out deals: a ``share`` of the distinct deals, drawn
    from ``seed``.

    >>> holdout_deals(np.array([0, 0, 1, 1, 2, 3]), 0.5, 1).tolist()
    [False, False, True, True, False, True]
    """
    unique = np.unique(deals)
    rng = np.random.default_rng([seed, 23])
    held = rng.permutation(unique)[: round(share * unique.size)]
    return np.isin(deals, held)


@dataclass(frozen=True)
class NetOptions:
    """How to train: the trunk's widths, epochs, minibatch, learning rate, the value
    loss's weight, the weight decay, the held-out share, the seed and the threads."""

    layers: tuple[int, ...] = DEFAULT_LAYERS
    epochs: int = 6
    batch: int = 512
    lr: float = 2e-3
    value_weight: float = 0.5
    weight_decay: float = 1e-5
    holdout: float = 0.1
    seed: int = 1
    threads: int = 1

    def __post_init__(self) -> None:
        if not self.layers or min(self.layers) < 1:
            raise ValueError("the trunk needs one layer or more, each of 1 unit or more")
        if self.epochs < 1 or self.batch < 1 or self.threads < 1:
            raise ValueError("the epochs, the batch and the threads are 1 or more")
        if not 0.0 < self.holdout < 1.0:
            raise ValueError(f"the held-out share lies between 0 and 1, not {self.holdout}")
        if not (self.lr > 0 and self.value_weight >= 0 and self.weight_decay >= 0):
            raise ValueError("the learning rate is positive, the value weight and the weight "
                             "decay 0 or more")


def accuracy(model: NetModel, obs: npt.NDArray[np.float32], legal: npt.NDArray[np.bool_],
             action: npt.NDArray[np.int64], outcome: npt.NDArray[np.float32],
             mean: float, batch: int = 8192) -> dict[str, Any]:
    """The model's figures on rows: top-1 accuracy against ``action`` on the decisions
    with more than one legal action (``all``, ``preplay``: before the first lead, ``play``:
    card play), their counts, the mean log loss of the action taken, the value's RMSE and
    that of predicting ``mean``."""
    best = np.empty(len(action), dtype=np.int64)
    value = np.empty(len(action), dtype=np.float32)
    taken = np.empty(len(action), dtype=np.float64)
    for i in range(0, len(action), batch):
        sl = slice(i, i + batch)
        probs, v = model.forward(obs[sl], legal[sl])
        best[sl] = np.where(legal[sl], probs, -1.0).argmax(axis=1)
        value[sl] = v
        taken[sl] = probs[np.arange(probs.shape[0]), action[sl]]
    choice = legal.sum(axis=1) > 1
    play = action < DISCARD
    hit = best == action
    out: dict[str, Any] = {"rows": len(action)}
    for name, rows in (("all", choice), ("preplay", choice & ~play), ("play", choice & play)):
        n = int(rows.sum())
        out[f"top1_{name}"] = round(float(hit[rows].mean()), 4) if n else None
        out[f"decisions_{name}"] = n
    out["log_loss"] = round(float(-np.log(np.maximum(taken[choice], 1e-12)).mean()), 4)
    out["value_rmse"] = round(float(np.sqrt(np.mean((value - outcome) ** 2))), 4)
    out["mean_rmse"] = round(float(np.sqrt(np.mean((mean - outcome) ** 2))), 4)
    return out


def train(data: NetData, options: NetOptions,
          progress: Callable[[int, float], None] | None = None
          ) -> tuple[NetModel, dict[str, Any]]:
    """Fit the net on the training deals; the float16-rounded model (its header holding
    the rules, the options, the data's sources and the statistics, without the command)
    and the statistics.  ``progress(epoch, loss)`` is called after each epoch."""
    try:
        import torch
    except ImportError:
        raise ImportError(_MISSING_TORCH) from None
    start = time.perf_counter()
    o = options
    held = holdout_deals(data.deal, o.holdout, o.seed)
    tr = ~held
    torch.manual_seed(o.seed)
    threads = torch.get_num_threads()
    torch.set_num_threads(o.threads)
    try:
        net = _torch_net(torch, data.obs.shape[1], o.layers)
        x = torch.from_numpy(data.obs[tr])
        mask = torch.from_numpy(data.legal[tr])
        y = torch.from_numpy(data.action[tr])
        v = torch.from_numpy(data.outcome[tr])
        mean = float(data.outcome[tr].mean())
        n = x.shape[0]
        steps = o.epochs * math.ceil(n / o.batch)
        opt = torch.optim.AdamW(net.parameters(), lr=o.lr, weight_decay=o.weight_decay)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=o.lr, total_steps=steps,
                                                    pct_start=0.1)
        gen = torch.Generator().manual_seed(o.seed)
        neg = torch.tensor(-1e9)
        for epoch in range(o.epochs):
            net.train()
            order = torch.randperm(n, generator=gen)
            total = 0.0
            for i in range(0, n, o.batch):
                idx = order[i:i + o.batch]
                logits, value = net(x[idx])
                logits = torch.where(mask[idx], logits, neg)
                loss = (torch.nn.functional.cross_entropy(logits, y[idx])
                        + o.value_weight * torch.mean((value - v[idx]) ** 2))
                opt.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                opt.step()
                sched.step()
                total += float(loss.detach()) * idx.shape[0]
            if progress is not None:
                progress(epoch + 1, total / n)
        model = to_numpy(net, data.rules).rounded()
    finally:
        torch.set_num_threads(threads)
    stats = {
        "train": accuracy(model, data.obs[tr], data.legal[tr], data.action[tr],
                          data.outcome[tr], mean),
        "holdout": accuracy(model, data.obs[held], data.legal[held], data.action[held],
                            data.outcome[held], mean),
        "train_deals": int(np.unique(data.deal[tr]).size),
        "holdout_deals": int(np.unique(data.deal[held]).size),
        "mean_outcome": round(mean, 4),
        "seconds": round(time.perf_counter() - start, 1),
    }
    checks = _checks(model, data, held)
    header = {"rules": data.rules.to_dict(), "seed": o.seed, "deals": data.deals,
              "options": {k: (list(v) if isinstance(v, tuple) else v)
                          for k, v in o.__dict__.items()},
              "sources": data.sources, "stats": stats,
              "value_unit": "the seat's side's points minus the opponents' for the deal "
                            "(the others' mean three- and five-handed), no game bonus"}
    return NetModel(model.trunk, model.policy, model.value, header, checks), stats


def _checks(model: NetModel, data: NetData, held: npt.NDArray[np.bool_]
            ) -> dict[str, npt.NDArray[Any]]:
    """The first :data:`CHECKS` held-out rows with a choice (half before the first lead
    where there are enough), with the model's decisions and values on them."""
    rows = np.flatnonzero(held & (data.legal.sum(axis=1) > 1))
    pre = rows[data.action[rows] >= DISCARD][: CHECKS // 2]
    play = rows[data.action[rows] < DISCARD][: CHECKS - pre.size]
    pick = np.sort(np.concatenate([pre, play]))
    obs, legal = data.obs[pick], data.legal[pick]
    _, value = model.logits_and_value(obs)
    return {"obs": obs.astype(np.float32), "legal": legal,
            "action": model.best(obs, legal).astype(np.int16), "value": value}


def _torch_net(torch: Any, size: int, layers: Sequence[int]) -> Any:
    """The PyTorch module of the net: the trunk, then the two heads."""
    nn = torch.nn

    class Net(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            widths = [size, *layers]
            self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(widths))
            self.policy = nn.Linear(widths[-1], NUM_ACTIONS)
            self.value = nn.Linear(widths[-1], 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            for layer in self.trunk:
                x = torch.relu(layer(x))
            return self.policy(x), self.value(x)[:, 0]

    return Net()


def to_numpy(net: Any, rules: Rules) -> NetModel:
    """The :class:`NetModel` of a PyTorch net of :func:`_torch_net` (float32 weights)."""
    def layer(lin: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return (lin.weight.detach().numpy().T.astype(np.float32).copy(),
                lin.bias.detach().numpy().astype(np.float32).copy())

    return NetModel(tuple(layer(lin) for lin in net.trunk), layer(net.policy),
                    layer(net.value), {"rules": rules.to_dict()})


def to_torch(model: NetModel) -> Any:
    """A PyTorch net with ``model``'s weights (for checking the numpy forward pass)."""
    try:
        import torch
    except ImportError:
        raise ImportError(_MISSING_TORCH) from None
    net = _torch_net(torch, model.input_size, [w.shape[1] for w, _ in model.trunk])
    with torch.no_grad():
        for lin, (w, b) in zip([*net.trunk, net.policy, net.value],
                               [*model.trunk, model.policy, model.value], strict=True):
            lin.weight.copy_(torch.from_numpy(w.T.copy()))
            lin.bias.copy_(torch.from_numpy(b.copy()))
    return net
