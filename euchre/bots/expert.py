"""The ``expert`` bot: Perfect Information Monte Carlo over the open-hand solver.

It sees only its :class:`~euchre.deal.Observation` (RULES §12).  For every decision it
samples *worlds*: the cards it cannot see, dealt consistently with everything its seat
has seen and weighted by what the others bid and played (:mod:`euchre.bots.knowledge`).
It values every candidate action in points for its side, averaged over the worlds: a
card by solving each world open-handed, any other decision by playing it forward to the
first lead and solving from there (:mod:`euchre.bots.evaluation`).  It takes the action
of highest value.

This module is the bot itself: how many worlds and how much time a decision gets, and
the ``intermediate`` level (fewer worlds, a little noise).

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> str(ExpertBot(0, samples=8, time_budget=None).act(deal.observation(1)))
'order'
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import ClassVar, Final

from euchre.actions import Action, ActionKind
from euchre.bots.evaluation import _AlphaMuPlayEval, _LookaheadPlayEval, _PlayEval, _PrePlayEval
from euchre.bots.knowledge import _PLAY, _Know
from euchre.bots.learned import Model, model_for
from euchre.cards import effective_suit
from euchre.deal import Observation, Phase

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_TIME_BUDGET",
    "ExpertBot",
    "IntermediateBot",
    "LookaheadBot",
    "PimcBot",
    "rash",
]

DEFAULT_SAMPLES: Final = 128
"""Worlds sampled per decision when the time budget does not stop the sampling first."""
DEFAULT_TIME_BUDGET: Final = 0.05
"""Seconds per decision (the sampling stops once spent; a few worlds are always taken)."""
_MIN_WORLDS: Final = 6


# -- the bot --------------------------------------------------------------------------------
class PimcBot:
    """Perfect Information Monte Carlo over the open-hand solver (see the module doc):
    the ``pimc`` bot, kept unchanged as the yardstick of the ``expert``.

    ``samples`` is the number of worlds per decision; ``time_budget`` the seconds per
    decision after which sampling stops (``None``: always the full ``samples``, so the
    bot is deterministic for its seed); ``noise`` the standard deviation (in points) of a
    Gaussian added to the values before choosing (0 for the expert): one draw per
    distinct value, so that actions of equal value stay tied and the tie-breakers decide.

    Without a time budget the same seed gives the same values:

    >>> from euchre import Deal, Rules
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=2)
    >>> def values(seed: int) -> dict[Action, float]:
    ...     return PimcBot(seed, samples=8, time_budget=None).evaluate(deal.observation(1))
    >>> values(1) == values(1)
    True
    """

    name = "pimc"
    needs_observation = True

    game_bonus: ClassVar[float] = 3.0
    """Points added to a deal's utility when it wins the game, removed when it loses it."""
    inference: ClassVar[bool] = False
    """Weigh the worlds by the cards the others played too, not only by their bids
    (:mod:`euchre.bots.knowledge`)."""
    lookahead: ClassVar[bool] = False
    """In play, choose the seat's next card once per information set rather than once per
    world (:class:`~euchre.bots.evaluation._LookaheadPlayEval`)."""

    def __init__(
        self,
        seed: int | random.Random | None = None,
        samples: int = DEFAULT_SAMPLES,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        noise: float = 0.0,
        search_depth: int = 1,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples is 1 or more, not {samples}")
        if search_depth < 1:
            raise ValueError(f"search_depth is 1 or more, not {search_depth}")
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.samples = samples
        self.time_budget = time_budget
        self.noise = noise
        self.worlds_used = 0
        """Worlds sampled for the last decision (for benchmarks and tests)."""
        self.search_depth = search_depth
        """In play, how many of the seat's own cards the αμ search chooses once per
        information set (:class:`~euchre.bots.evaluation._AlphaMuPlayEval`); 1: PIMC."""
        self.last_values: dict[Action, float] = {}
        """The values the last :meth:`act` computed, as :meth:`evaluate` gives them (the
        candidates it weighed: empty when only one action was legal).  Self-play records
        them (:mod:`euchre.jobs.selfplay`)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._repr_fields()})"

    def _repr_fields(self) -> str:
        """The constructor's arguments that differ from a default, as ``repr`` shows them."""
        fields = f"samples={self.samples}, time_budget={self.time_budget}"
        if self.noise:
            fields += f", noise={self.noise}"
        if self.search_depth != 1:
            fields += f", search_depth={self.search_depth}"
        return fields

    # -- the public API ------------------------------------------------------------------
    def act(self, observation: Observation) -> Action:
        """The action to take: always one of ``observation.legal_actions``.  The values it
        chose from are kept in :attr:`last_values`.

        >>> from euchre import Deal, Rules
        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=2)
        >>> bot = PimcBot(1, samples=8, time_budget=None)
        >>> action = bot.act(deal.observation(1))
        >>> action in deal.legal_actions(), bot.best(bot.last_values) == action
        (True, True)
        """
        legal = observation.legal_actions
        if not legal:
            raise ValueError(f"seat {observation.seat} has no legal action now")
        self.last_values = {}
        if len(legal) == 1:
            self.worlds_used = 0
            return legal[0]
        values, tie = self._values(observation, everything=False)
        self.last_values = {a: values[a] + tie.get(a, 0.0) for a in legal if a in values}
        if not values:
            return legal[0]
        if self.noise > 0:
            # one draw per distinct value: actions of equal value stay equal, and the
            # tie-breakers (more tricks, then the card least worth keeping) decide them
            draws: dict[float, float] = {}
            for v in values.values():
                if v not in draws:
                    draws[v] = self.rng.gauss(0.0, self.noise)
            values = {a: v + draws[v] for a, v in values.items()}
        best = max(values, key=lambda a: (values[a], tie.get(a, 0.0)))
        return best if best in legal else legal[0]

    def evaluate(self, observation: Observation) -> dict[Action, float]:
        """The expected value of every legal action, in points for the seat's side.

        The unit is the utility of :mod:`euchre.bots.evaluation`: the seat's side's
        points minus the opponents' for this deal (RULES §9), with :attr:`game_bonus` for
        a deal that wins or loses the game.  In play the value of a card includes
        ``0.001`` per expected trick of the seat's side.  Empty when the seat is not to
        move.

        >>> from euchre import Deal, Rules
        >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
        ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
        >>> bot = PimcBot(1, samples=8, time_budget=None)
        >>> sorted(str(action) for action in bot.evaluate(deal.observation(1)))
        ['order', 'pass']
        >>> bot.evaluate(deal.observation(0))  # the dealer is not to move
        {}
        """
        if not observation.legal_actions:
            return {}
        values, tie = self._values(observation, everything=True)
        return {a: values[a] + tie.get(a, 0.0) for a in observation.legal_actions
                if a in values}

    def best(self, values: dict[Action, float]) -> Action:
        """The action of highest value (the first such in the dict's order).

        >>> pass_, order = Action.parse('pass'), Action.parse('order')
        >>> PimcBot().best({pass_: 0.5, order: 1.5}), PimcBot().best({pass_: 1.0, order: 1.0})
        (Action.parse('order'), Action.parse('pass'))
        """
        return max(values, key=lambda a: values[a])

    # -- shared ---------------------------------------------------------------------------
    def _values(self, obs: Observation,
                everything: bool) -> tuple[dict[Action, float], dict[Action, float]]:
        """(value of each candidate action, tie-breaker); ``everything``: no pruning."""
        k = _Know(obs)
        if k.phase == _PLAY:
            if self.search_depth > 1:
                return _AlphaMuPlayEval(self, k, self.search_depth).run()
            return (_LookaheadPlayEval if self.lookahead else _PlayEval)(self, k).run()
        return _PrePlayEval(self, k, everything).run()

    def _out_of_time(self, start: float, worlds: int, share: float = 1.0) -> bool:
        if worlds >= self.samples:
            return True
        budget = self.time_budget
        return (budget is not None and worlds >= _MIN_WORLDS
                and time.perf_counter() - start > budget * share)


class ExpertBot(PimcBot):
    """The ``expert``: :class:`PimcBot` with what was learned beyond it.  Same arguments.

    Before the first lead its PIMC values get the learned correction of
    :mod:`euchre.bots.learned` when a model was trained for the game's rules (else they
    stay PIMC's); :meth:`act` and :meth:`evaluate` both give the corrected values, so
    hints and ``euchre analyze`` show them.  The play of the cards is PIMC's.
    """

    name = "expert"
    inference = True

    def __init__(
        self,
        seed: int | random.Random | None = None,
        samples: int = DEFAULT_SAMPLES,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        noise: float = 0.0,
        models: Sequence[Model] | None = None,
        search_depth: int = 1,
    ) -> None:
        super().__init__(seed, samples, time_budget, noise, search_depth)
        self.models = models
        """The pre-play models to choose from by the game's rules; ``None``: the ones
        shipped in the package (:func:`euchre.bots.learned.model_for`)."""

    def _values(self, obs: Observation,
                everything: bool) -> tuple[dict[Action, float], dict[Action, float]]:
        values, tie = super()._values(obs, everything)
        if obs.phase is not Phase.PLAY and values:
            model = model_for(obs.rules, self.models)
            if model is not None:
                values = model.correct(obs, values)
        return values, tie


class LookaheadBot(ExpertBot):
    """The ``expert`` whose play looks one card further: its next card is chosen once
    per information set, not once per world (:attr:`PimcBot.lookahead`)."""

    name = "lookahead"
    lookahead = True


class IntermediateBot(PimcBot):
    """The expert with fewer worlds and a little noise in its values: between ``basic``
    and ``expert`` (docs/benchmarks.md, "The levels"). More noise than this made it
    weaker than ``basic``.

    Before the play it keeps to the choices the ``basic`` bot would weigh at all
    (:func:`rash`): it makes trump only in a suit it holds a trump of, and discards a
    trump only when it holds nothing else.  Its few worlds, valued open-handed, made
    such moves look good where they are not: five-handed, one point from the game, it
    ordered up a hand without a trump nearly half the time, and as the dealer it threw
    a trump to leave the maker without the partner it would call.
    """

    name = "intermediate"

    def __init__(self, seed: int | random.Random | None = None, samples: int = 16,
                 time_budget: float | None = 0.015, noise: float = 0.05) -> None:
        super().__init__(seed, samples=samples, time_budget=time_budget, noise=noise)

    def _values(self, obs: Observation,
                everything: bool) -> tuple[dict[Action, float], dict[Action, float]]:
        values, tie = super()._values(obs, everything)
        if not everything and obs.phase is not Phase.PLAY:
            sensible = {a: v for a, v in values.items() if not rash(obs, a)}
            if sensible:
                values = sensible
        return values, tie


def rash(obs: Observation, action: Action) -> bool:
    """Whether ``action`` is a move the ``basic`` bot never considers: to make trump
    (order up, name a suit) holding no trump of it (the dealer counts the turn-up it
    takes), or to discard a trump while holding a card of another suit.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=4), dealer=3, turnup='KD',
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD', '9H TH JH QH KH', 'AH 9S TS JS QS'])
    >>> obs = deal.observation(0)
    >>> rash(obs, Action.parse('order')), rash(obs, Action.parse('pass'))
    (True, False)
    """
    kind = action.kind
    if kind is ActionKind.ORDER:
        trump = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        cards = (*obs.hand, obs.turnup) if obs.seat == obs.dealer else obs.hand
    elif kind is ActionKind.TRUMP:
        trump, cards = action.suit, obs.hand
    elif kind is ActionKind.DISCARD and action.card is not None and obs.trump is not None:
        t = obs.trump
        others = [c for c in obs.hand if effective_suit(int(c), t) != t]
        return effective_suit(int(action.card), t) == t and bool(others)
    else:
        return False
    return trump is not None and all(effective_suit(int(c), trump) != trump for c in cards)
