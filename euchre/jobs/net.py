"""Training the net model (:mod:`euchre.bots.net`): a policy and a value of euchre play.

**Data.**  The rows of ``euchre selfplay`` (:mod:`euchre.jobs.selfplay`): one per decision,
the seat's observation tensor, the legal mask, the action the bot took and the deal's
points by seat.  :func:`read_selfplay` reads one or more self-play folders of the same
rules; the *outcome* of a row is its seat's utility of the deal's points
(:func:`euchre.bots.evaluation.utility_of_gains` from a score of 0: its side's points minus
the opponents', the others' mean three- and five-handed).

**The options as inputs.**  The folders may be of rules that differ in the options a net
takes as inputs (:data:`euchre.bots.net.OPTION_FIELDS`: the deck, the joker, stick the
dealer, the dealer must take up, defending alone; the options of the game,
:data:`euchre.bots.net.GAME_LEVEL`, never count): the first folder's rules are the
model's own, every option whose value differs across the folders becomes an input, and
each row's observation gets its folder's option inputs appended
(:func:`euchre.bots.net.option_vector`, the encoding play uses).

**Split.**  By deal, folder by folder: :func:`holdout_deals` holds out a share of each
folder's deals (every decision of a held-out deal), drawn from the seed, so the first
folder's held-out deals do not depend on the folders given after it.

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
value, and that of predicting the training rows' mean outcome for reference; with option
inputs, the held-out figures of each rules set too.

This module writes nothing: the command line (``euchre train net``) writes the model.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre.actions import DISCARD, NUM_ACTIONS
from euchre.bots.evaluation import utility_of_gains
from euchre.bots.net import GAME_LEVEL, OPTION_FIELDS, NetModel, option_features, option_vector
from euchre.rules import Rules
from euchre.vector import observation_size

__all__ = [
    "DEFAULT_LAYERS",
    "NetData",
    "NetOptions",
    "accuracy",
    "holdout_deals",
    "holdout_rows",
    "options_label",
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
    """The rows of one variant: ``obs`` ``(N, size)`` float32 (the observation tensor,
    then the option inputs if any), ``legal`` ``(N, 111)`` bool, ``action`` and ``deal``
    ``(N,)`` int64 (deals numbered apart across folders), ``outcome`` ``(N,)`` float32,
    and where they came from."""

    rules: Rules
    obs: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int64]
    deal: npt.NDArray[np.int64]
    outcome: npt.NDArray[np.float32]
    sources: list[dict[str, Any]]
    """Per folder: its path, seed, deals, bots, worlds, rows (from its manifest) and, with
    option inputs, its rules."""
    source: npt.NDArray[np.int64] | None = None
    """Each row's folder, an index of :attr:`sources` (``None``: one folder)."""
    option_inputs: dict[str, list[Any]] = field(default_factory=dict)
    """The options taken as inputs: field -> its values in the data, :attr:`rules`'
    first (:func:`euchre.bots.net.option_features`)."""
    folder_rules: list[Rules] = field(default_factory=list)
    """Each folder's rules."""

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


def options_label(rules: Rules, base: Rules) -> str:
    """The options of ``rules`` that differ from ``base`` (the game's left out), as a
    figure's label: ``default`` where none.

    >>> options_label(Rules(players=4, deck=32, stick_the_dealer=True), Rules(players=4))
    'deck=32,stick_the_dealer'
    """
    given, own = rules.to_dict(), base.to_dict()
    parts = [name if value is True else f"{name}={value}" for name, value in given.items()
             if name not in GAME_LEVEL and own.get(name) != value]
    return ",".join(parts) or "default"


def read_selfplay(folders: Sequence[str | Path]) -> NetData:
    """The rows of self-play folders (``manifest.json`` and ``chunk-*.parquet``) of one
    variant; their rules may differ in the options a net takes as inputs (module doc), the
    first folder's being the model's own.  ``ValueError`` if one cannot be read or their
    rules differ otherwise (the options of the game aside)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ImportError(_MISSING_ARROW) from None
    parts: list[dict[str, Any]] = []
    sources: list[dict[str, Any]] = []
    folder_rules: list[Rules] = []
    offset = 0
    for index, folder in enumerate(map(Path, folders)):
        try:
            manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
            params = manifest["parameters"]
            these = Rules.from_dict(params["rules"])
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{folder} holds no self-play manifest: {e}") from e
        if folder_rules:
            first, own = folder_rules[0].to_dict(), these.to_dict()
            other = [k for k, v in own.items()
                     if k not in GAME_LEVEL and k not in OPTION_FIELDS and first.get(k) != v]
            if other or these.players != folder_rules[0].players:
                raise ValueError(f"{folder} holds deals of other rules than {folders[0]}: "
                                 f"train one variant at a time (the folders may differ only "
                                 f"in {', '.join(OPTION_FIELDS)})")
        folder_rules.append(these)
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

            seats = table.column("seat").to_numpy().astype(np.int64)
            parts.append({
                "obs": flat("observation", size, np.float32),
                "legal": flat("legal", NUM_ACTIONS, np.bool_),
                "action": table.column("action").to_numpy().astype(np.int64),
                "deal": table.column("deal").to_numpy().astype(np.int64) + offset,
                "outcome": outcomes(flat("points", these.players, np.int64), seats, these),
                "source": np.full(m, index, dtype=np.int64),
            })
        offset += int(params.get("deals", manifest.get("deals", 0))) + 1
        sources.append({"folder": str(folder), "seed": manifest.get("seed"),
                        "deals": manifest.get("deals"), "rows": manifest.get("rows"),
                        "bots": params.get("bots"), "worlds": params.get("worlds")})
    if not folder_rules or not parts:
        raise ValueError("no self-play rows were given")
    rules = folder_rules[0]
    inputs: dict[str, list[Any]] = {}
    for name in OPTION_FIELDS:
        values = {getattr(r, name) for r in folder_rules}
        if len(values) > 1:
            own = getattr(rules, name)
            inputs[name] = [own, *sorted(values - {own})]
    features = option_features(inputs)
    if features:
        for part in parts:
            these = folder_rules[int(part["source"][0])]
            extra = np.broadcast_to(option_vector(these, features),
                                    (len(part["obs"]), len(features)))
            part["obs"] = np.concatenate([part["obs"], extra], axis=1)
        for source, these in zip(sources, folder_rules, strict=True):
            source["rules"] = options_label(these, rules)
    cat = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return NetData(rules, cat["obs"], cat["legal"], cat["action"], cat["deal"],
                   cat["outcome"], sources, cat["source"] if len(sources) > 1 else None,
                   inputs, folder_rules)


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


def holdout_rows(data: NetData, share: float, seed: int) -> npt.NDArray[np.bool_]:
    """Which rows are held out: :func:`holdout_deals` folder by folder, so that a
    folder's held-out deals are those it has alone."""
    if data.source is None:
        return holdout_deals(data.deal, share, seed)
    held = np.zeros(len(data.deal), dtype=np.bool_)
    for index in np.unique(data.source):
        rows = data.source == index
        held[rows] = holdout_deals(data.deal[rows], share, seed)
    return held


@dataclass(frozen=True)
class NetOptions:
    """How to train: the trunk's widths, epochs, minibatch, learning rate, the value
    loss's weight, the weight decay, the held-out share, the seed, the threads and the
    seed of the held-out deals (``None``: the seed; another seed of the weights on the
    same held-out deals measures the noise of training)."""

    layers: tuple[int, ...] = DEFAULT_LAYERS
    epochs: int = 6
    batch: int = 512
    lr: float = 2e-3
    value_weight: float = 0.5
    weight_decay: float = 1e-5
    holdout: float = 0.1
    seed: int = 1
    threads: int = 1
    split_seed: int | None = None

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
    held = holdout_rows(data, o.holdout, o.seed if o.split_seed is None else o.split_seed)
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
        model = to_numpy(net, data.rules, data.option_inputs).rounded()
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
    if data.option_inputs and data.source is not None:
        by_rules: dict[str, Any] = {}
        labels = [options_label(r, data.rules) for r in data.folder_rules]
        for label in dict.fromkeys(labels):
            of = np.isin(data.source, [i for i, x in enumerate(labels) if x == label])
            rows = held & of
            by_rules[label] = accuracy(model, data.obs[rows], data.legal[rows],
                                       data.action[rows], data.outcome[rows], mean)
            by_rules[label]["deals"] = int(np.unique(data.deal[rows]).size)
        stats["holdout_by_rules"] = by_rules
    checks = _checks(model, data, held)
    header = {"rules": data.rules.to_dict(), "seed": o.seed, "deals": data.deals,
              "options": {k: (list(v) if isinstance(v, tuple) else v)
                          for k, v in o.__dict__.items()},
              "sources": data.sources, "stats": stats,
              **({"option_inputs": data.option_inputs} if data.option_inputs else {}),
              "value_unit": "the seat's side's points minus the opponents' for the deal "
                            "(the others' mean three- and five-handed), no game bonus"}
    return NetModel(model.trunk, model.policy, model.value, header, checks), stats


def _checks(model: NetModel, data: NetData, held: npt.NDArray[np.bool_]
            ) -> dict[str, npt.NDArray[Any]]:
    """The first :data:`CHECKS` held-out rows with a choice (half before the first lead
    where there are enough), with the model's decisions and values on them; with option
    inputs, that many of each rules set's."""
    choice = held & (data.legal.sum(axis=1) > 1)
    if data.option_inputs and data.source is not None:
        labels = [options_label(r, data.rules) for r in data.folder_rules]
        groups = [np.isin(data.source, [i for i, x in enumerate(labels) if x == label])
                  for label in dict.fromkeys(labels)]
    else:
        groups = [np.ones(len(data.deal), dtype=np.bool_)]
    picks = []
    for group in groups:
        rows = np.flatnonzero(choice & group)
        pre = rows[data.action[rows] >= DISCARD][: CHECKS // 2]
        play = rows[data.action[rows] < DISCARD][: CHECKS - pre.size]
        picks.extend([pre, play])
    pick = np.sort(np.concatenate(picks))
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


def to_numpy(net: Any, rules: Rules, option_inputs: dict[str, list[Any]] | None = None
             ) -> NetModel:
    """The :class:`NetModel` of a PyTorch net of :func:`_torch_net` (float32 weights),
    taking ``option_inputs`` (:attr:`NetData.option_inputs`)."""
    def layer(lin: Any) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        return (lin.weight.detach().numpy().T.astype(np.float32).copy(),
                lin.bias.detach().numpy().astype(np.float32).copy())

    header: dict[str, Any] = {"rules": rules.to_dict()}
    if option_inputs:
        header["option_inputs"] = option_inputs
    return NetModel(tuple(layer(lin) for lin in net.trunk), layer(net.policy),
                    layer(net.value), header)


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
