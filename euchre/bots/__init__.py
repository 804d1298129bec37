"""Bots: players that choose an action from what their seat may see (RULES §12).

A bot gets an :class:`~euchre.deal.Observation`, never the deal itself, so it cannot
see hidden cards.  :func:`make_bot` builds one by name; :func:`play_game` seats bots
at a game and plays it to the end.

>>> from euchre import Rules
>>> game = play_game(Rules(players=3), [make_bot('basic', seed=s) for s in range(3)], seed=1)
>>> game.is_over
True
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from euchre.actions import Action
from euchre.deal import Deal, Observation
from euchre.game import Game
from euchre.rules import Rules

__all__ = ["BOTS", "BOT_OPTIONS", "LEVELS", "Bot", "RandomBot", "check_rules", "choose",
           "levels_for", "make_bot", "normal_name", "play_deal", "play_game"]


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and an ``act`` that picks one of ``obs.legal_actions``.

    A bot of one's own is a small class; it sees only its seat's observation:

    >>> from euchre import Rules
    >>> class Timid:
    ...     name = "timid"
    ...     def act(self, observation: Observation) -> Action:
    ...         "Pass whenever passing is legal, else the first legal action."
    ...         legal = observation.legal_actions
    ...         return Action.parse('pass') if Action.parse('pass') in legal else legal[0]
    >>> isinstance(Timid(), Bot)
    True
    >>> game = play_game(Rules(players=2, stick_the_dealer=True), [Timid(), Timid()], seed=1)
    >>> game.is_over
    True
    """

    name: str

    def act(self, observation: Observation) -> Action:
        """The action to take; it must be one of ``observation.legal_actions``.

        >>> from euchre import Deal, Rules
        >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
        >>> make_bot('basic', seed=1).act(deal.observation(deal.to_move))
        Action.parse('pass')
        """
        ...


class RandomBot:
    """Picks uniformly among the legal actions; the same seed, the same choices.

    >>> RandomBot(seed=3).act_ids([99, 100, 101]) == RandomBot(seed=3).act_ids([99, 100, 101])
    True
    """

    name = "random"
    needs_observation = False
    """The driver may call :meth:`act_ids` with the legal ids instead (faster)."""

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def act(self, observation: Observation) -> Action:
        """A uniformly random legal action.

        >>> from euchre import Deal, Rules
        >>> deal = Deal.random(Rules(players=2), dealer=0, seed=1)
        >>> RandomBot(seed=1).act(deal.observation(1)) in deal.legal_actions()
        True
        """
        return self.rng.choice(observation.legal_actions)

    def act_ids(self, legal: list[int]) -> int:
        """A uniformly random legal action id.

        >>> RandomBot(seed=1).act_ids([99, 100]) in (99, 100)
        True
        """
        return self.rng.choice(legal)

    def __repr__(self) -> str:
        return "RandomBot()"


def _basic(seed: int | random.Random | None) -> Bot:
    from euchre.bots.basic import BasicBot

    return BasicBot(seed)


_ADAPTER_BOTS: dict[str, str] = {"ismcts": "euchre.envs.ismcts"}
"""Bots another layer provides, by name: the module whose ``make_bot(seed, options)``
builds it.  The ``ismcts`` adapter runs OpenSpiel's search, so it lives with the
environments (:mod:`euchre.envs`), above the bots: it is found by name when asked for,
never imported here."""


def _ismcts(seed: int | random.Random | None, options: str = "") -> Bot:
    module = importlib.import_module(_ADAPTER_BOTS["ismcts"])
    make: Callable[[int | random.Random | None, str], Bot] = module.make_bot
    return make(seed, options)


def _cismcts(seed: int | random.Random | None, options: str = "") -> Bot:
    from euchre.bots.cismcts import CISMCTSBot, parse_options

    return CISMCTSBot(seed, **parse_options(options))


def _intermediate(seed: int | random.Random | None) -> Bot:
    from euchre.bots.expert import IntermediateBot

    return IntermediateBot(seed)


def _expert(seed: int | random.Random | None) -> Bot:
    from euchre.bots.cfr import CfrExpertBot

    return CfrExpertBot(seed, adopted=True)


def _pimc(seed: int | random.Random | None) -> Bot:
    from euchre.bots.expert import PimcBot

    return PimcBot(seed)


def _net(seed: int | random.Random | None) -> Bot:
    from euchre.bots.net import NetBot

    return NetBot(seed)


def _lookahead(seed: int | random.Random | None) -> Bot:
    from euchre.bots.expert import LookaheadBot

    return LookaheadBot(seed)


def _lookahead_worlds(seed: int | random.Random | None, options: str) -> Bot:
    from euchre.bots.expert import LookaheadBot

    return LookaheadBot(seed, samples=_worlds("lookahead", options), time_budget=None)


def _worlds(name: str, options: str) -> int:
    try:
        worlds = int(options)
    except ValueError:
        worlds = 0
    if worlds < 1:
        raise ValueError(f"{name}:WORLDS takes a whole number of worlds, 1 or more, "
                         f"not {options!r}")
    return worlds


_EXPERT_OPTIONS = ("cfr", "nocfr", "am", "amDEPTH")
"""What may follow ``expert:WORLDS:``, alone or a bidding and a play joined by a colon:
``cfr``, the bidding learned by counterfactual regret (:mod:`euchre.bots.cfr`) under every
rules it was trained for, and ``nocfr``, under none (the plain expert bids by it under the
rules of :data:`euchre.bots.cfr.ADOPTED`); ``am``, the card play by αμ search two of the
seat's cards deep (``am3``: three; :class:`euchre.bots.evaluation._AlphaMuPlayEval`)."""


def _expert_worlds(seed: int | random.Random | None, options: str) -> Bot:
    worlds, _, rest = options.partition(":")
    samples = _worlds("expert", worlds)
    bidding = ""
    depth = 1
    for option in rest.split(":") if rest else []:
        if option in ("cfr", "nocfr") and not bidding:
            bidding = option
        elif option.startswith("am") and depth == 1 and (
                option == "am" or (option[2:].isdigit() and int(option[2:]) >= 1)):
            depth = int(option[2:] or 2)
        else:
            raise ValueError(f"expert:WORLDS:OPTION takes {', '.join(_EXPERT_OPTIONS)} as "
                             f"the option (a bidding and am joined by a colon), not "
                             f"{rest!r}")
    if bidding == "nocfr":
        from euchre.bots.expert import ExpertBot

        return ExpertBot(seed, samples=samples, time_budget=None, search_depth=depth)
    from euchre.bots.cfr import CfrExpertBot

    return CfrExpertBot(seed, samples=samples, time_budget=None, search_depth=depth,
                        adopted=bidding != "cfr")


def _pimc_worlds(seed: int | random.Random | None, options: str) -> Bot:
    from euchre.bots.expert import PimcBot

    return PimcBot(seed, samples=_worlds("pimc", options), time_budget=None)


def _intermediate_worlds(seed: int | random.Random | None, options: str) -> Bot:
    from euchre.bots.expert import IntermediateBot

    return IntermediateBot(seed, samples=_worlds("intermediate", options), time_budget=None)


BOTS: dict[str, Callable[[int | random.Random | None], Bot]] = {
    "random": RandomBot,
    "basic": _basic,
    "intermediate": _intermediate,
    "expert": _expert,
    "pimc": _pimc,
    "lookahead": _lookahead,
    "cismcts": _cismcts,
    "net": _net,
}
"""Bot names and their constructors (taking a seed).  ``net`` plays a learned policy
alone, no search (:mod:`euchre.bots.net`), under the rules a model is shipped for."""

BOT_OPTIONS: dict[str, Callable[[int | random.Random | None, str], Bot]] = {
    "cismcts": _cismcts,
    "expert": _expert_worlds,
    "pimc": _pimc_worlds,
    "lookahead": _lookahead_worlds,
    "intermediate": _intermediate_worlds,
}
"""Bots that take options after a colon (``ismcts:500``): constructors of a seed and the
text after the colon.  ``expert:WORLDS``, ``pimc:WORLDS``, ``lookahead:WORLDS`` and
``intermediate:WORLDS`` sample that many worlds a decision with no time budget, so that
their play, unlike the plain names' (which stop on the clock), is the same for a seed on
any machine.  ``expert:WORLDS:cfr`` is that expert bidding by the strategy learned by
counterfactual regret (:mod:`euchre.bots.cfr`; ``euchre train cfr``);
``expert:WORLDS:am`` plays its cards by αμ search (``am3``: deeper), and
``expert:WORLDS:cfr:am`` does both."""

if importlib.util.find_spec("pyspiel") is not None:  # the ``bench`` extra: OpenSpiel
    BOTS["ismcts"] = _ismcts
    BOT_OPTIONS["ismcts"] = _ismcts


def _policy(seed: int | random.Random | None, path: str) -> Bot:
    from euchre.bots.policy import PolicyBot

    return PolicyBot.load(path, seed)


BOT_OPTIONS["policy"] = _policy
"""``policy:PATH``: a policy trained on the Gymnasium environment (the ``rl`` extra)."""

_VERBATIM = frozenset({"policy"})
"""Bots whose options keep their case (a path)."""


def normal_name(name: str) -> str:
    """A bot name as :func:`make_bot` reads it: trimmed, in lower case, except the
    options of ``policy:PATH`` (a path keeps its case).

    >>> normal_name('  Expert:64 '), normal_name('Policy:Models/P.zip')
    ('expert:64', 'policy:Models/P.zip')
    """
    key, colon, options = name.strip().partition(":")
    key = key.strip().lower()
    return key + colon + (options if key in _VERBATIM else options.lower())


def make_bot(name: str, seed: int | random.Random | None = None) -> Bot:
    """A bot by name (``random``, ``basic``, ``intermediate`` or ``intermediate:WORLDS``,
    ``expert``, ``expert:WORLDS``, ``expert:WORLDS:cfr``, ``expert:WORLDS:am``, ``cismcts`` or
    ``cismcts:SIMS``, ``ismcts`` or ``ismcts:SIMS`` with OpenSpiel, ``policy:PATH`` with
    the ``rl`` extra).

    >>> make_bot("expert:32").time_budget is None
    True
    >>> make_bot("expert:none")
    Traceback (most recent call last):
    ...
    ValueError: expert:WORLDS takes a whole number of worlds, 1 or more, not 'none'
    """
    key, colon, options = normal_name(name).partition(":")
    if key == "policy" and not colon:
        raise ValueError("the policy bot needs the path of a saved policy: policy:PATH")
    if key == "ismcts" and key not in BOTS:
        raise ImportError("the ismcts bot needs OpenSpiel: pip install -e '.[bench]'")
    if key not in BOTS and key not in BOT_OPTIONS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}, policy:PATH")
    if colon:
        if key not in BOT_OPTIONS:
            raise ValueError(f"the {key} bot takes no options: {name!r}")
        return BOT_OPTIONS[key](seed, options)
    return BOTS[key](seed)


def check_rules(bot: Bot, rules: Rules) -> None:
    """Raise ``ValueError`` if ``bot`` cannot play under ``rules``.

    A bot that plays only some rules (``ismcts``: OpenSpiel's four-handed euchre) has a
    ``check_rules`` method; every other bot plays every variant.
    """
    check = getattr(bot, "check_rules", None)
    if check is not None:
        check(rules)


LEVELS = ("random", "basic", "net", "intermediate", "expert")
"""The bots a person chooses among, weakest first, as the duplicate tournaments place them
(docs/benchmarks.md, "The levels" and "The net bot against the levels"): the terminal's
menu and the web's lobby offer these, by plain names; research bots are named in full."""


def levels_for(rules: Rules) -> list[str]:
    """The :data:`LEVELS` that play under ``rules``, weakest first: every one, except the
    ``net`` where no model was made for the rules (five-handed, for one).

    >>> from euchre import Rules
    >>> levels_for(Rules(players=4))
    ['random', 'basic', 'net', 'intermediate', 'expert']
    >>> levels_for(Rules(players=5))
    ['random', 'basic', 'intermediate', 'expert']
    """
    offered = []
    for level in LEVELS:
        try:
            check_rules(make_bot(level, 0), rules)
        except ValueError:
            continue
        offered.append(level)
    return offered


def choose(bot: Bot, deal: Deal) -> int:
    """Ask ``bot`` for the action of the seat to move; returns the action id.

    Raises ``ValueError`` if the bot answers with an illegal action.

    >>> from euchre import Rules
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
    >>> choose(make_bot('basic', seed=1), deal), deal.legal_action_ids()
    (99, [99, 100, 101])
    """
    seat = deal.to_move
    if seat is None:
        raise ValueError("the deal is over: nobody is to move")
    if not getattr(bot, "needs_observation", True):
        return int(bot.act_ids(deal.legal_action_ids()))  # type: ignore[attr-defined]
    action = bot.act(deal.observation(seat))
    a = action.id
    if a not in deal.legal_action_ids():
        raise ValueError(f"bot {bot.name} at seat {seat} chose an illegal action: {action}")
    return a


def play_deal(deal: Deal, bots: Sequence[Bot]) -> Deal:
    """Let the bots play ``deal`` to its end (``bots[s]`` plays seat ``s``).

    >>> from euchre import Rules
    >>> deal = Deal.random(Rules(players=4), dealer=0, seed=1)
    >>> played = play_deal(deal, [make_bot('basic', seed=s) for s in range(4)])
    >>> played is deal, deal.is_over, deal.result.points
    (True, True, (1, 0, 1, 0))
    """
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        deal.apply(choose(bots[seat], deal))
    return deal


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int | random.Random | None = None,
    on_deal: Callable[[Game, Deal], None] | None = None,
) -> Game:
    """Seat ``bots`` at a new game and play it to the target.

    ``on_deal`` is called after each finished deal with the game and that deal.

    >>> from euchre import Rules
    >>> scores = []
    >>> game = play_game(Rules(players=2), [make_bot('basic', seed=1), make_bot('random', seed=2)],
    ...                  seed=3, on_deal=lambda game, deal: scores.append(game.scores))
    >>> game.winners, game.scores, len(scores) == len(game.deals), scores[-1] == game.scores
    ((0,), (11, 4), True, True)
    """
    if len(bots) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} bots, not {len(bots)}")
    for bot in bots:
        check_rules(bot, rules)
    game = Game(rules, seed)
    while not game.is_over:
        deal = game.deal
        play_deal(deal, bots)
        game.next_deal()
        if on_deal is not None:
            on_deal(game, deal)
    return game
