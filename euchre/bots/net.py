"""A learned policy and value of euchre play, and the ``net`` bot that plays the policy alone.

A *net model* is a small multilayer perceptron over a seat's observation tensor
(:func:`euchre.vector.observation_layout`: only what RULES §12 lets the seat know), trained
on the expert's self-play decisions (``euchre selfplay``, then ``euchre train net``;
:mod:`euchre.jobs.net`).  A shared trunk of ReLU layers feeds two heads:

- the **policy**: a logit per action id (:mod:`euchre.actions`); the illegal actions are
  masked out and a softmax gives the probability of each legal action, the expert's choice
  predicted;
- the **value**: the seat's outcome of the deal in points, its side's points minus the
  opponents' (the others' mean three- and five-handed;
  :func:`euchre.bots.evaluation.utility_of_gains` from a score of 0, so without a game
  bonus), predicted from what it knows.

:meth:`NetModel.forward` gives both for a batch of observations and legal masks: the one
function play uses, and inference or play-out valuation can use.  The weights of a variant
are a small ``.npz`` file in ``euchre/bots/models/`` (``net-4.npz``; package data), the
arrays in float16 and a JSON header naming the rules, the command, the seed, the deals,
the held-out statistics, and a few observations with the decisions the model took on them
when it was written (:meth:`NetModel.check`).  :func:`net_for` finds the one made for the
rules of a game.  Only numpy is needed at run time.

The ``net`` bot (:class:`NetBot`) plays the legal action the policy ranks first: no search,
a fraction of a millisecond of arithmetic a decision.  Under rules no shipped model was
made for it refuses in one line (:meth:`NetBot.check_rules`).

**The rules options as inputs.**  A model may take some rules options as inputs: a small
fixed vector (:func:`option_vector`) appended to the observation tensor, one number per
option value besides the base rules' (``stick_the_dealer`` on, ``deck`` 32, ...; the
header's ``option_inputs`` names the values it was trained on).  Such a model plays every
rules set that differs from its own only in those values (:meth:`NetModel.accepts`), and
:func:`net_for` hands it out bound to the rules asked for (:meth:`NetModel.under`), so
that an observation tensor given to :meth:`NetModel.forward` gets the right options
appended.  Options of the game rather than of one deal (:data:`GAME_LEVEL`: the target,
the draw, the rubber) never stop a model: the net reads one deal and no score.

>>> import numpy as np
>>> from euchre import Deal, Rules
>>> model = net_for(Rules(players=4))
>>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
>>> x = encode_observation(deal.observation(deal.to_move))
>>> legal = np.zeros((1, 111), dtype=bool)
>>> legal[0, deal.legal_action_ids()] = True
>>> probs, value = model.forward(x[None, :], legal)
>>> probs.shape, value.shape, round(float(probs.sum()), 5), bool(probs[0, ~legal[0]].any())
((1, 111), (1,), 1.0, False)
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre.actions import NUM_ACTIONS, Action
from euchre.bots.modelfiles import file_name, rules_key, shipped
from euchre.deal import Observation
from euchre.rules import OPTIONS, Rules

__all__ = [
    "GAME_LEVEL",
    "MODEL_FORMAT",
    "OPTION_FIELDS",
    "NetBot",
    "NetError",
    "NetModel",
    "encode_observation",
    "net_for",
    "net_name",
    "option_features",
    "option_vector",
    "shipped_nets",
]

MODEL_FORMAT: Final = "euchre-net-model"
"""The ``format`` of a net model's header."""
MODEL_VERSION: Final = 1
PREFIX: Final = "net-"
"""The shipped net models' file names begin with it."""

OPTION_FIELDS: Final = tuple(o.name for o in OPTIONS
                             if o.per_deal and o.name != "players" and o.type is not str)
"""The rules options a net may take as inputs, in the order of their numbers (that of
:data:`~euchre.rules.OPTIONS`): the options of a deal besides the variant (a model is of one)
and the turned-up joker's string, those that change how a deal is bid or played and whose
cards the observation tensor can show (it has a place for each of the 33 card ids, the
joker's and the 7s' and 8s' included).

>>> OPTION_FIELDS
('deck', 'joker', 'stick_the_dealer', 'dealer_must_take_up', 'defend_alone')
"""
GAME_LEVEL: Final = tuple(o.name for o in OPTIONS if not o.per_deal)
"""Options of the game, not of the deal (:attr:`~euchre.rules.RuleOption.per_deal`): the
net judges one deal and reads no score (its value is the deal's points, no game bonus), so
any of them is played by the model of the rest of the rules.

>>> GAME_LEVEL
('target', 'draw', 'rubber')
"""

F32 = npt.NDArray[np.float32]
Layer = tuple[F32, F32]
Feature = tuple[str, Any]


class NetError(ValueError):
    """A net model that cannot be read, or rules no net model was made for."""


def net_name(rules: Rules) -> str:
    """The model file's name for the rules: ``net-4.npz``, with the options that differ
    from the variant's defaults (``net-4-stick_the_dealer.npz``).

    >>> net_name(Rules(players=4)), net_name(Rules(players=4, stick_the_dealer=True))
    ('net-4.npz', 'net-4-stick_the_dealer.npz')
    """
    return file_name(PREFIX, rules)


def encode_observation(observation: Observation) -> F32:
    """The observation tensor of ``observation``'s seat (:func:`euchre.bots.policy.encode`:
    every world its seat cannot tell from the deal gives the same numbers)."""
    from euchre.bots.policy import encode

    return encode(observation, random.Random(0))


def option_features(inputs: Mapping[str, Sequence[Any]]) -> tuple[Feature, ...]:
    """The numbers a model appends for its ``option_inputs`` (field -> the values it was
    trained on, the base rules' first): one ``(field, value)`` per value besides the
    first, in the order of :data:`OPTION_FIELDS`.

    >>> option_features({"stick_the_dealer": [False, True], "deck": [24, 28, 32]})
    (('deck', 28), ('deck', 32), ('stick_the_dealer', True))
    """
    unknown = set(inputs) - set(OPTION_FIELDS)
    if unknown:
        raise NetError(f"a net cannot take the option {sorted(unknown)[0]} as an input; "
                       f"it takes {', '.join(OPTION_FIELDS)}")
    return tuple((name, value) for name in OPTION_FIELDS for value in inputs.get(name, ())[1:])


def option_vector(rules: Rules, features: Sequence[Feature]) -> F32:
    """The option inputs of ``rules``: 1 for each feature whose value the rules hold.
    Training and play both call it, so a model reads the options as it was taught.

    >>> option_vector(Rules(players=4, deck=32), (("deck", 28), ("deck", 32))).tolist()
    [0.0, 1.0]
    """
    return np.array([getattr(rules, name) == value for name, value in features],
                    dtype=np.float32)


def _relu(x: F32) -> F32:
    return np.maximum(x, np.float32(0.0))


@dataclass(frozen=True)
class NetModel:
    """The weights of one variant's net: ``trunk`` layers (weight ``(in, out)``, bias),
    then the ``policy`` and ``value`` heads; all float32 in memory."""

    trunk: tuple[Layer, ...]
    policy: Layer
    value: Layer
    header: dict[str, Any] = field(default_factory=dict)
    """The rules, the command, the seed, the deals, the held-out statistics and the
    check observations' expected decisions."""
    checks: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    """A few inputs (``obs``, the option inputs appended), their legal masks (``legal``),
    the actions the model chose (``action``) and its values (``value``) when it was
    written."""
    bound: Rules | None = field(default=None, compare=False)
    """The rules an observation tensor is read under (:meth:`under`); ``None``: the
    model's own."""

    def __post_init__(self) -> None:
        if len(self.features) >= self.input_size:
            raise NetError(f"a net of {self.input_size} inputs cannot take "
                           f"{len(self.features)} option inputs")
        size = self.input_size
        for w, b in self.trunk:
            if w.ndim != 2 or w.shape[0] != size or b.shape != (w.shape[1],):
                raise NetError(f"a net layer of shape {w.shape} cannot follow one of "
                               f"width {size}")
            size = w.shape[1]
        for (w, b), out in ((self.policy, NUM_ACTIONS), (self.value, 1)):
            if w.shape != (size, out) or b.shape != (out,):
                raise NetError(f"a net head of shape {w.shape}, expected {(size, out)}")

    @property
    def input_size(self) -> int:
        """The length of the observation tensor the net reads."""
        return int((self.trunk[0][0] if self.trunk else self.policy[0]).shape[0])

    @property
    def option_inputs(self) -> dict[str, list[Any]]:
        """The rules options the model takes as inputs: field -> the values it was
        trained on, its own rules' first; empty for a model of one rules set."""
        return dict(self.header.get("option_inputs", {}))

    @property
    def features(self) -> tuple[Feature, ...]:
        """The option inputs appended to the observation tensor (:func:`option_features`)."""
        return option_features(self.option_inputs)

    @property
    def observation_size(self) -> int:
        """The length of the observation tensor (:func:`euchre.vector.observation_size`):
        the inputs less the option inputs."""
        return self.input_size - len(self.features)

    @property
    def base_rules(self) -> Rules:
        """The rules the model was trained for, the option inputs at their first value."""
        return Rules.from_dict(self.header["rules"])

    @property
    def rules(self) -> Rules:
        """The rules the model plays: those it is bound to (:meth:`under`), else its own."""
        return self.bound if self.bound is not None else self.base_rules

    def accepts(self, rules: Rules) -> bool:
        """Whether the model plays ``rules``: the same players, and every option that
        differs from its own either of the game (:data:`GAME_LEVEL`) or an option input
        at a value it was trained on, and not one its header's ``withheld`` names (an
        input value under which it did not beat ``basic``, so it is not offered there)."""
        base = self.header["rules"]
        inputs = self.option_inputs
        given = rules.to_dict()
        if given["players"] != base.get("players"):
            return False
        withheld = self.header.get("withheld", {})
        if any(given.get(name) in values for name, values in withheld.items()):
            return False
        return all(name in GAME_LEVEL or base.get(name) == value
                   or any(type(v) is type(value) and v == value for v in inputs.get(name, ()))
                   for name, value in given.items())

    def under(self, rules: Rules) -> NetModel:
        """The model reading observation tensors under ``rules`` (the same weights);
        :class:`NetError` if it does not play them (:meth:`accepts`)."""
        if not self.accepts(rules):
            raise NetError(f"the net model of {rules_key(self.base_rules)} does not play "
                           f"{rules_key(rules)}")
        return replace(self, bound=rules)

    def inputs(self, obs: npt.ArrayLike) -> F32:
        """The net's inputs of a batch ``(B, n)``: observation tensors (``n`` =
        :attr:`observation_size`) get the option inputs of :attr:`rules` appended;
        rows of :attr:`input_size` numbers are taken as they are."""
        h = np.asarray(obs, dtype=np.float32)
        if h.ndim == 2 and h.shape[1] == self.input_size:
            return h
        if h.ndim != 2 or h.shape[1] != self.observation_size:
            raise NetError(f"the net reads observations of {self.observation_size} numbers, "
                           f"not an array of shape {h.shape}")
        options = np.broadcast_to(option_vector(self.rules, self.features),
                                  (h.shape[0], len(self.features)))
        return np.concatenate([h, options], axis=1)

    def logits_and_value(self, obs: npt.ArrayLike) -> tuple[F32, F32]:
        """The raw logits ``(B, 111)`` and values ``(B,)`` of a batch of observations
        (:meth:`inputs`)."""
        h = self.inputs(obs)
        for w, b in self.trunk:
            h = _relu(h @ w + b)
        logits = h @ self.policy[0] + self.policy[1]
        value = (h @ self.value[0] + self.value[1])[:, 0]
        return logits, value

    def forward(self, obs: npt.ArrayLike, legal: npt.ArrayLike) -> tuple[F32, F32]:
        """The masked action probabilities ``(B, 111)`` (zero on every illegal action)
        and the values ``(B,)`` of a batch of observations (:meth:`inputs`) and their
        legal masks ``(B, 111)``; a row without a legal action gets all-zero
        probabilities."""
        logits, value = self.logits_and_value(obs)
        mask = np.asarray(legal, dtype=np.bool_)
        if mask.shape != logits.shape:
            raise NetError(f"legal masks of shape {mask.shape}, expected {logits.shape}")
        masked = np.where(mask, logits, np.float32(-np.inf))
        top = masked.max(axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, np.float32(0.0))
        e = np.where(mask, np.exp(masked - top), np.float32(0.0))
        total = e.sum(axis=1, keepdims=True)
        probs = e / np.where(total > 0, total, np.float32(1.0))
        return probs.astype(np.float32), value

    def best(self, obs: npt.ArrayLike, legal: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """The legal action id each row's policy ranks first (the masked argmax)."""
        logits, _ = self.logits_and_value(obs)
        mask = np.asarray(legal, dtype=np.bool_)
        if not mask.any(axis=1).all():
            raise NetError("a row without a legal action has no best action")
        return np.asarray(np.where(mask, logits, -np.inf).argmax(axis=1), dtype=np.int64)

    def check(self) -> None:
        """Raise :class:`NetError` unless the model takes, on its check observations, the
        decisions it took when it was written (and values within 1e-3)."""
        c = self.checks
        if not c:
            return
        got = self.best(c["obs"], c["legal"])
        if not np.array_equal(got, c["action"].astype(np.int64)):
            raise NetError("the net's decisions on its check observations differ from those "
                           "recorded when it was trained")
        _, value = self.logits_and_value(c["obs"])
        if not np.allclose(value, c["value"], atol=1e-3):
            raise NetError("the net's values on its check observations differ from those "
                           "recorded when it was trained")

    # -- files ---------------------------------------------------------------------------
    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The arrays of the file: the layers in float16, the checks as they are."""
        out: dict[str, npt.NDArray[Any]] = {}
        named = [(f"trunk{i}", layer) for i, layer in enumerate(self.trunk)]
        for name, (w, b) in [*named, ("policy", self.policy), ("value", self.value)]:
            out[f"{name}_w"] = w.astype(np.float16)
            out[f"{name}_b"] = b.astype(np.float16)
        for name, a in self.checks.items():
            out[f"check_{name}"] = a
        return out

    def rounded(self) -> NetModel:
        """The model as its file holds it: every weight rounded to float16."""
        def r(layer: Layer) -> Layer:
            return (layer[0].astype(np.float16).astype(np.float32),
                    layer[1].astype(np.float16).astype(np.float32))
        return NetModel(tuple(r(x) for x in self.trunk), r(self.policy), r(self.value),
                        self.header, self.checks, self.bound)

    def save(self, path: str | Path) -> None:
        """Write the model as a compressed ``.npz``: the arrays and the JSON header."""
        header = {**self.header, "format": MODEL_FORMAT, "version": MODEL_VERSION,
                  "layers": [int(w.shape[1]) for w, _ in self.trunk],
                  "input_size": self.input_size}
        arrays: dict[str, Any] = {"header": np.array(json.dumps(header, sort_keys=True)),
                                  **self.arrays()}
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> NetModel:
        """Read a model written by :meth:`save`; :class:`NetError` if it cannot."""
        try:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                arrays = {k: np.asarray(data[k]) for k in data.files if k != "header"}
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise NetError(f"cannot read the net model {path}: {e}") from e
        if not isinstance(header, dict) or header.get("format") != MODEL_FORMAT:
            raise NetError(f"{path} is not a net model ({MODEL_FORMAT})")
        if header.get("version") != MODEL_VERSION:
            raise NetError(f"{path} is a net model of version {header.get('version')}; "
                           f"retrain it with `euchre train net`")
        try:
            def layer(name: str) -> Layer:
                w = arrays[f"{name}_w"].astype(np.float32)
                b = arrays[f"{name}_b"].astype(np.float32)
                if not (np.all(np.isfinite(w)) and np.all(np.isfinite(b))):
                    raise NetError(f"{path} holds weights that are not finite numbers")
                return w, b
            trunk = tuple(layer(f"trunk{i}") for i in range(len(header.get("layers", []))))
            checks = {k.removeprefix("check_"): a for k, a in arrays.items()
                      if k.startswith("check_")}
            return cls(trunk, layer("policy"), layer("value"), header, checks)
        except KeyError as e:
            raise NetError(f"{path} lacks the array {e}") from e


def shipped_nets() -> list[Path]:
    """The net model files shipped in the package (``euchre/bots/models/net-*.npz``)."""
    return shipped(PREFIX)


@cache
def _shipped() -> dict[str, NetModel]:
    out: dict[str, NetModel] = {}
    for path in shipped_nets():
        try:
            model = NetModel.load(path)
            out[rules_key(model.rules)] = model
        except (NetError, ValueError) as e:  # the net bot refuses these rules
            warnings.warn(str(e), RuntimeWarning, stacklevel=2)
    return out


def net_for(rules: Rules) -> NetModel | None:
    """The shipped net model that plays ``rules`` (:meth:`NetModel.accepts`: any target,
    and the options it takes as inputs), bound to them (:meth:`NetModel.under`), or
    ``None``.  The files are read once, on first use."""
    return _net_for(rules)


@lru_cache(maxsize=256)
def _net_for(rules: Rules) -> NetModel | None:
    models = _shipped()
    exact = models.get(rules_key(rules))
    for model in ([exact] if exact is not None else []) + list(models.values()):
        if model.accepts(rules):
            return model.under(rules)
    return None


def _variants() -> str:
    by_players: dict[int, set[str]] = {}
    for m in _shipped().values():
        options = by_players.setdefault(m.base_rules.players, set())
        withheld = m.header.get("withheld", {})
        options.update(f"{name}" if value is True else f"{name} {value}"
                       for name, value in m.features if value not in withheld.get(name, ()))
    if not by_players:
        return "none"
    return "; ".join(f"{n}-handed, default options"
                     + (f" or {', '.join(sorted(by_players[n]))}" if by_players[n] else "")
                     for n in sorted(by_players))


class NetBot:
    """Plays the learned policy alone: the legal action it ranks first.  It is
    deterministic, so the seed :func:`euchre.bots.make_bot` hands every bot is not used;
    ``model`` plays that model under its rules instead of the shipped one."""

    name = "net"
    needs_observation = True

    def __init__(self, seed: int | random.Random | None = None,
                 model: NetModel | None = None) -> None:
        del seed
        self.model = model

    def model_for(self, rules: Rules) -> NetModel:
        """The model this bot plays under ``rules``; :class:`NetError` if none."""
        if self.model is not None and self.model.accepts(rules):
            return self.model if self.model.rules == rules else self.model.under(rules)
        model = net_for(rules)
        if model is None:
            raise NetError(f"the net bot has no learned policy for these rules (it has "
                           f"one for: {_variants()}); pick another bot")
        return model

    def check_rules(self, rules: Rules) -> None:
        """Refuse rules no net model was made for (:class:`NetError`, a ``ValueError``)."""
        self.model_for(rules)

    def act(self, observation: Observation) -> Action:
        """The legal action the policy ranks first."""
        model = self.model_for(observation.rules)
        x = encode_observation(observation)[None, :]
        legal = np.zeros((1, NUM_ACTIONS), dtype=np.bool_)
        ids = [a.id for a in observation.legal_actions]
        legal[0, ids] = True
        return Action.from_id(int(model.best(x, legal)[0]))

    def __repr__(self) -> str:
        return "NetBot()"
