"""A learned correction of the expert's values before the first lead.

The ``pimc`` bot values a bid, going alone, the dealer's discard, the dummy merge, the
partner call and defending alone by Perfect Information Monte Carlo
(:mod:`euchre.bots.evaluation`): worlds, a fixed policy up to the first lead, and an
open-hand solve.  Open-handed defenders play too well, so those values are biased (ordering
up is under-rated).  The ``expert`` adds a small linear correction fitted on deals played
out to their end::

    value(a) = pimc(a) + w_k · phi(observation, a)

``k`` is the *group* of the decision (:data:`GROUPS`) and ``phi`` the features of
:func:`decision_features`, the one function training (:mod:`euchre.jobs.train`) and play both
call.  The weights of a variant are a small ``.npz`` file in ``euchre/bots/models/``
(package data) with a JSON header naming the rules, the command, the seed, the deals and
the fit's statistics; :func:`model_for` loads the one made for the rules of a game, once,
and gives ``None`` when there is none (the expert then keeps the PIMC values).

Only numpy is needed at run time.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre.actions import Action, ActionKind
from euchre.bots.knowledge import hand_estimate
from euchre.bots.modelfiles import rules_key, shipped
from euchre.cards import EFFECTIVE_SUIT, JOKER, SUIT_MASKS
from euchre.deal import Observation, Phase
from euchre.rules import Rules
from euchre.sides import makers_mask

__all__ = [
    "FEATURES",
    "GROUPS",
    "MODEL_FORMAT",
    "Model",
    "ModelError",
    "decision_features",
    "group_of",
    "model_for",
    "rules_key",
]

MODEL_FORMAT: Final = "euchre-prebid-model"
"""The ``format`` of a model file's header."""
MODEL_VERSION: Final = 1

GROUPS: Final = ("bid1", "bid2", "exchange", "dummy", "call", "defend")
"""Decision groups, one set of weights each: the round-1 bid, the round-2 bid (and naming
trump on a turned-up joker), the dealer's exchange, the dummy merge, the partner call and
defending alone."""

_GROUP_OF: Final = {
    Phase.BID_TURNUP: 0, Phase.BID_SUIT: 1, Phase.NAME_TRUMP: 1, Phase.EXCHANGE: 2,
    Phase.DUMMY: 3, Phase.CALL_PARTNER: 4, Phase.DEFEND: 5,
}

FEATURES: Final = (
    "constant",
    "pass", "bid", "alone", "defend alone", "card",
    "pimc value", "pimc minus best",
    "bid: hand estimate", "bid: trumps", "bid: right bower", "bid: left bower",
    "bid: off aces",
    "alone: hand estimate", "alone: trumps",
    "bid: dealer", "bid: dealer+1", "bid: dealer+2", "bid: dealer+3", "bid: dealer+4",
    "maker",
    "own score", "best other score",
    "bid: own score", "bid: best other score", "alone: own score",
    "card: trump", "card: off ace", "card: rank",
    "bid: pimc value", "alone: pimc value",
)
"""The names of the features of :func:`decision_features`, in order.  Points are divided
by 4, scores by the target, trump counts by 5; ``bid:`` features are zero unless the
action makes (or keeps) the seat's side the makers."""

_SCALE: Final = 4.0


def group_of(phase: Phase) -> int | None:
    """The index in :data:`GROUPS` of a pre-play phase; ``None`` in play or after."""
    return _GROUP_OF.get(phase)


def _hand_terms(hand: int, trump: int, players: int) -> tuple[float, float, float, float,
                                                              float]:
    """(hand estimate / 4, trumps / 5, right bower, left bower, off aces) of a hand."""
    trumps = hand & SUIT_MASKS[trump][trump]
    right = left = aces = 0
    c = hand
    while c:
        low = c & -c
        card = low.bit_length() - 1
        c ^= low
        if card == JOKER:
            continue
        if EFFECTIVE_SUIT[trump][card] == trump:
            if card & 7 == 4:
                if card >> 3 == trump:
                    right = 1
                else:
                    left = 1
        elif card & 7 == 7:
            aces += 1
    return (hand_estimate(hand, trump, players) / _SCALE, trumps.bit_count() / 5,
            float(right), float(left), float(aces))


def decision_features(observation: Observation, values: Mapping[Action, float]
                      ) -> tuple[list[Action], npt.NDArray[np.float64]]:
    """The actions of ``values`` and one row of :data:`FEATURES` per action.

    ``values`` are the PIMC values of the candidate actions of a pre-play decision (as
    :meth:`euchre.bots.expert.PimcBot.evaluate` gives them).  This is the one feature
    function: :mod:`euchre.jobs.train` calls it on the decisions it records, the expert on
    the decisions it takes.
    """
    obs = observation
    rules = obs.rules
    n = rules.players
    actions = list(values)
    x = np.zeros((len(actions), len(FEATURES)), dtype=np.float64)
    if not actions:
        return actions, x
    best = max(values.values())
    hand = 0
    for card in obs.hand:
        hand |= 1 << int(card)
    turnup = int(obs.turnup)
    if turnup == JOKER:
        fixed = rules.joker_suit
        turnup_suit = -1 if fixed is None else int(fixed)
    else:
        turnup_suit = turnup >> 3
    target = max(rules.target, 1)
    scores = obs.scores
    own = scores[obs.seat] / target
    others = [s for i, s in enumerate(scores) if i != obs.seat
              and rules.partner_of(obs.seat) != i]
    best_other = (max(others) if others else 0) / target
    place = (obs.seat - obs.dealer) % n
    maker_now = obs.maker is not None and makers_mask(n, obs.maker) >> obs.seat & 1 == 1
    trump_now = -1 if obs.trump is None else int(obs.trump)
    for i, a in enumerate(actions):
        row = x[i]
        v = values[a]
        row[0] = 1.0
        row[6] = v / _SCALE
        row[7] = (v - best) / _SCALE
        kind = a.kind
        trump = -1
        bid = alone = False
        if kind is ActionKind.PASS:
            row[1] = 1.0
        elif kind is ActionKind.ORDER:
            trump, bid, alone = turnup_suit, True, a.alone
        elif kind is ActionKind.TRUMP:
            trump, bid, alone = int(a.suit) if a.suit is not None else -1, True, a.alone
        elif kind is ActionKind.DEFEND_ALONE:
            row[4] = 1.0
            trump, alone = trump_now, True
        elif a.card is not None:
            row[5] = 1.0
            c = int(a.card)
            t = trump_now
            if t >= 0:
                if c == JOKER or EFFECTIVE_SUIT[t][c] == t:
                    row[26] = 1.0
                elif c & 7 == 7:
                    row[27] = 1.0
            row[28] = 1.0 if c == JOKER else (c & 7) / 7
            bid = maker_now
            trump = t
        if bid and a.card is None:
            row[2] = 1.0
        if alone and kind is not ActionKind.DEFEND_ALONE:
            row[3] = 1.0
        cards = hand
        if kind is ActionKind.ORDER and obs.seat == obs.dealer:
            cards |= 1 << turnup
        terms = _hand_terms(cards, trump, n) if trump >= 0 else (0.0,) * 5
        if bid:
            row[8:13] = terms
            row[15 + place] = 1.0
            row[23] = own
            row[24] = best_other
            row[29] = v / _SCALE
        if alone:
            row[13:15] = terms[:2]
            row[25] = own
            row[30] = v / _SCALE
        row[20] = 1.0 if bid or (maker_now and kind is not ActionKind.PASS) else 0.0
        row[21] = own
        row[22] = best_other
    return actions, x


class ModelError(ValueError):
    """A model file that cannot be read, or is not a pre-play model."""


@dataclass(frozen=True)
class Model:
    """The weights of one variant: ``weights[k]`` the correction of group ``k``."""

    weights: npt.NDArray[np.float64]
    """Shape ``(len(GROUPS), len(FEATURES))``; a group without data has zero weights."""
    header: dict[str, Any]
    """The rules, the command, the seed, the deals and the fit's statistics."""

    def __post_init__(self) -> None:
        if self.weights.shape != (len(GROUPS), len(FEATURES)):
            raise ModelError(f"model weights of shape {self.weights.shape}, expected "
                             f"{(len(GROUPS), len(FEATURES))}")

    @property
    def rules(self) -> Rules:
        """The rules the model was trained for."""
        return Rules.from_dict(self.header["rules"])

    def correct(self, observation: Observation, values: Mapping[Action, float]
                ) -> dict[Action, float]:
        """The corrected values of a pre-play decision (unchanged in play)."""
        k = group_of(observation.phase)
        if k is None or not values:
            return dict(values)
        actions, x = decision_features(observation, values)
        delta = x @ self.weights[k]
        return {a: float(values[a] + d) for a, d in zip(actions, delta, strict=True)}

    def save(self, path: str | Path) -> None:
        """Write the model as ``.npz``: the weights and the JSON header."""
        header = {**self.header, "format": MODEL_FORMAT, "version": MODEL_VERSION,
                  "groups": list(GROUPS), "features": list(FEATURES)}
        with open(path, "wb") as f:
            np.savez(f, weights=self.weights, header=np.array(json.dumps(header,
                                                                          sort_keys=True)))

    @classmethod
    def load(cls, path: str | Path) -> Model:
        """Read a model written by :meth:`save`; :class:`ModelError` if it cannot."""
        try:
            with np.load(path, allow_pickle=False) as data:
                weights = np.asarray(data["weights"], dtype=np.float64)
                header = json.loads(str(data["header"]))
        except (OSError, ValueError, KeyError, EOFError) as e:
            raise ModelError(f"cannot read the model {path}: {e}") from e
        if not isinstance(header, dict) or header.get("format") != MODEL_FORMAT:
            raise ModelError(f"{path} is not a pre-play model ({MODEL_FORMAT})")
        if (header.get("features") != list(FEATURES) or header.get("groups") != list(GROUPS)
                or header.get("version") != MODEL_VERSION):
            raise ModelError(f"{path} was made for other features (version "
                             f"{header.get('version')}); retrain it with `euchre train`")
        if not np.all(np.isfinite(weights)):
            raise ModelError(f"{path} holds weights that are not finite numbers")
        return cls(weights, header)


def shipped_models() -> list[Path]:
    """The pre-play model files shipped in the package (``prebid-*.npz``), by name."""
    return shipped("prebid-")


@cache
def _shipped() -> dict[str, Model]:
    out: dict[str, Model] = {}
    for path in shipped_models():
        try:
            model = Model.load(path)
            out[rules_key(model.rules)] = model
        except (ModelError, ValueError) as e:  # the expert keeps its PIMC values
            warnings.warn(f"{e}; the expert uses its PIMC values for these rules",
                          RuntimeWarning, stacklevel=2)
    return out


def model_for(rules: Rules, models: Sequence[Model] | None = None) -> Model | None:
    """The model made for ``rules`` (of the shipped ones unless ``models`` are given),
    or ``None``.  The shipped files are read once, on first use."""
    if models is not None:
        key = rules_key(rules)
        for m in models:
            if rules_key(m.rules) == key:
                return m
        return None
    try:
        return _BY_RULES[rules]
    except KeyError:
        model = _BY_RULES[rules] = _shipped().get(rules_key(rules))
        return model


_BY_RULES: dict[Rules, Model | None] = {}
