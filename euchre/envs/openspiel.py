"""One deal of any variant as an OpenSpiel game: importing this module registers
``python_euchre``.

It needs the optional ``bench`` extra (``pip install -e '.[bench]'``, OpenSpiel's
``pyspiel``)::

    >>> import pyspiel
    >>> import euchre.envs.openspiel
    >>> game = pyspiel.load_game("python_euchre(players=3)")
    >>> game.num_players(), game.num_distinct_actions()
    (3, 111)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())   # the dealer
    (True, 3)

**The game.**  One deal of our rules (RULES §3-§9), played on the compiled core
(:mod:`euchre.core`); the actions are our fixed action space (111 ids,
:mod:`euchre.actions`), so ``state.legal_actions()`` are the ids ``Deal.legal_action_ids``
gives.  The returns are each seat's RULES §9 points for the deal (four-handed both
partners score the side's points): a general-sum game.  With ``utility=zero_sum`` each
seat's return is its points minus the average of the others' points, which sums to zero
(four-handed it is two thirds of the side's margin).  A deal thrown in returns zeros.

**Parameters** (each with one default, as OpenSpiel needs): ``players`` (4), ``deck``
(0: the variant's pack, 28 five-handed, else 24), ``joker`` (false), ``joker_turnup``
(``dealer_names`` or ``suit:S``), ``stick_the_dealer`` (false), ``dealer_must_take_up``
(false), ``defend_alone`` (false), ``utility`` (``points`` or ``zero_sum``).  The
defaults are fixed, not the variant's: five-handed stick the dealer and three-handed
defending alone must be asked for (:func:`game_string` writes every option of a
:class:`~euchre.rules.Rules`).  The target, the draw and rubbers belong to a game of many
deals and are not parameters.

**Chance nodes deal the cards, one hand at a time**: the dealer (``players`` outcomes),
then each hand from the dealer's left, three-handed the dummy, then the turn-up (a card
id).  A hand's outcome ``k`` is the ``k``-th five-card set of the cards not dealt yet
(the combinatorial number system over those cards in id order), each with the same
probability: the deal is exactly a shuffled deal, in four to seven chance nodes instead of
one per card.  The outcome lists are large (42,504 hands from 24 cards) but built once
and shared; each chance node saved is one round trip less between Python and
OpenSpiel's C++ (docs/openspiel.md).  :func:`deal_outcomes` gives the outcomes that
deal given cards.

**What a seat sees** (RULES §12).  ``observation_tensor`` is the core's encoding
(:func:`euchre.vector.observation_layout`); ``information_state_tensor`` adds the deal's
actions so far, one row per action (the seat relative to the observer, then the action
id, with one more column for a discard the observer may not see); both are zeros until
the deal is dealt.  ``information_state_string`` is the seat's dealt hand (and the dummy,
for the maker who took it), the turn-up, the dealer and every action as RECORDS writes
it, others' discards as ``discard ?``.  ``resample_from_infostate(player, sampler)``
deals the cards the player cannot see at random, keeping every void the play has shown,
and replays the deal (used by OpenSpiel's Python ISMCTS): a world of
:func:`euchre.worlds.sample_world`, the one sampler the bots draw from too.

For speed from Python, ``legal_actions``, ``is_chance_node``, ``current_player``,
``is_terminal`` and ``chance_outcomes`` are answered by Python directly; OpenSpiel's C++
reaches the same answers through its usual hooks.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre import _numba, core
from euchre.actions import (
    CALL,
    DISCARD,
    NUM_ACTIONS,
    Action,
)
from euchre.cards import CARDS, card_mask, cards_of, pack_mask
from euchre.deal import Deal, IllegalActionError, Observation
from euchre.notation import DealRecord
from euchre.rules import OPTIONS, Rules
from euchre.sides import utility as seat_utility
from euchre.vector import _observe, _offsets, observation_size, record_of
from euchre.worlds import sample_world, view_from_observation

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the bench extra is installed in the tests
    raise ImportError("euchre.envs.openspiel needs OpenSpiel: pip install -e '.[bench]'") from e

__all__ = ["SHORT_NAME", "EuchreGame", "EuchreState", "deal_outcomes", "game_string",
           "rules_of", "state_from_observation"]

SHORT_NAME: Final = "python_euchre"
CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
HIDDEN: Final = -1
"""In a seat's history: another seat's discard, which it may not see (RULES §12)."""
UTILITIES: Final = ("points", "zero_sum")

_DEFAULTS: Final[dict[str, Any]] = {
    **{o.name: o.type() if o.default is None else o.default
       for o in OPTIONS if o.per_deal},
    "utility": "points",
}
"""The game's parameters: the rules of one deal from the rules' table
(:data:`euchre.rules.OPTIONS`; a game's target, the draw and rubbers are not a deal's),
and the utility.  OpenSpiel's parameters have a type and no ``None``: an option the
variant decides is ``0`` or ``False`` here, and ``deck=0`` means the variant's pack."""
_MAX_POINTS: Final = {2: 2, 3: 4, 4: 4, 5: 5}
"""The most a seat scores in one deal (RULES §9): a march, alone where that pays more."""
_BINOMIAL: Final = [[math.comb(n, k) for n in range(34)] for k in range(6)]
_ACTION_TEXT: Final = tuple(str(Action.from_id(a)) for a in range(NUM_ACTIONS))
_CARD_TEXT: Final = tuple(str(c) for c in CARDS)

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Euchre (one deal, every variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` of a ``python_euchre`` parameter set (refused as our rules are)."""
    options = {k: v for k, v in params.items() if k != "utility"}
    if options.get("deck") == 0:
        del options["deck"]
    return Rules(**options)


def game_string(rules: Rules, utility: str = "points") -> str:
    """The ``load_game`` string of ``python_euchre`` under ``rules``, every option written.

    >>> game_string(Rules(players=5))
    'python_euchre(players=5,deck=28,joker=False,joker_turnup=dealer_names,stick_the_dealer=True,dealer_must_take_up=False,defend_alone=False,utility=points)'
    """
    values = {k: getattr(rules, k) for k in _DEFAULTS if k != "utility"}
    values["utility"] = utility
    return SHORT_NAME + "(" + ",".join(f"{k}={v}" for k, v in values.items()) + ")"


def max_game_length(players: int) -> int:
    """The most decisions a deal takes: two rounds of bidding, the exchange, the dummy's
    five discards, the call, the defenders, five tricks."""
    p = players
    return 2 * p + 1 + (5 if p == 3 else 0) + (1 if p == 5 else 0) + (p - 1) + 5 * p


_ILLEGAL: Final = -100


@_numba.jit
def _step(st: npt.NDArray[np.int64], action: int) -> int:
    """Apply a decision; the next player (OpenSpiel's terminal player once over), or
    ``_ILLEGAL`` and no change."""
    if not core.apply_action(st, action):
        return _ILLEGAL
    if st[core.PHASE] == core.OVER:
        return TERMINAL
    return int(st[core.TURN])


_BITS: Final = (1 << 34) - 1


@_numba.jit
def _legal(st: npt.NDArray[np.int64]) -> int:
    """The legal actions as one int: the first id above bit 34, a bit per id below
    (one int crosses from compiled code faster than a tuple)."""
    base, bits = core.legal_bits(st)
    return int((base << 34) | bits)


# -- the chance nodes --------------------------------------------------------------------------
def _rank(hand: int, undealt: int) -> int:
    """The outcome that deals ``hand`` from ``undealt``: its rank among the five-card sets."""
    k, rank, pos = 0, 0, 0
    for c in range(33):
        if undealt >> c & 1:
            if hand >> c & 1:
                k += 1
                rank += _BINOMIAL[k][pos]
            pos += 1
    if k != 5 or hand & ~undealt:
        raise ValueError("a hand is five cards not dealt yet")
    return rank


def _unrank(rank: int, cards: Sequence[int]) -> list[int]:
    """The hand of outcome ``rank`` among the undealt ``cards`` (in id order), highest
    card first (see :func:`_rank`)."""
    hand = []
    top = len(cards)
    for k in range(5, 0, -1):
        pos = bisect.bisect_right(_BINOMIAL[k], rank, 0, top) - 1
        rank -= _BINOMIAL[k][pos]
        hand.append(cards[pos])
        top = pos
    return hand


def deal_outcomes(rules: Rules, dealer: int, hands: Sequence[int], turnup: int,
                  dummy: int = 0) -> list[int]:
    """The chance outcomes that deal these cards (hands as bitmasks by seat)."""
    p = rules.players
    undealt = pack_mask(rules.deck, rules.joker)
    out = [dealer]
    masks = [hands[(dealer + 1 + k) % p] for k in range(p)] + ([dummy] if p == 3 else [])
    for hand in masks:
        out.append(_rank(hand, undealt))
        undealt &= ~hand
    if not undealt >> turnup & 1:
        raise ValueError(f"the turn-up {CARDS[turnup]} is already dealt")
    out.append(turnup)
    return out


class _Table:
    """What every state of one game shares: the rules, the chance outcome lists, the
    observation layout.  Copies of a state share it (``deepcopy`` returns it)."""

    def __init__(self, rules: Rules, utility: str) -> None:
        self.rules = rules
        self.utility = utility
        self.players = rules.players
        self.pack = pack_mask(rules.deck, rules.joker)
        self.chance_steps = 1 + rules.hands + 1
        self.obs_size = observation_size(rules.players)
        self.history_rows = max_game_length(rules.players)
        self.offsets = _offsets(rules.players)
        self.blank = core.new_state(rules)
        self.dealer_outcomes = tuple((s, 1.0 / self.players) for s in range(self.players))
        self._hands: dict[int, tuple[tuple[int, float], ...]] = {}
        self.game: Any = None

    def hand_outcomes(self, undealt: int) -> tuple[tuple[int, float], ...]:
        n = undealt.bit_count()
        out = self._hands.get(n)
        if out is None:
            total = math.comb(n, 5)
            p = 1.0 / total
            out = self._hands[n] = tuple((k, p) for k in range(total))
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Table], tuple[str]]:
        return _table_of, (game_string(self.rules, self.utility),)


def _table_of(text: str) -> _Table:
    table: _Table = pyspiel.load_game(text)._table
    return table


# -- the game ------------------------------------------------------------------------------------
class EuchreGame(pyspiel.Game):  # type: ignore[misc]
    """``python_euchre``: one deal of euchre under the rules its parameters give."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        utility = params["utility"]
        if utility not in UTILITIES:
            raise ValueError(f"python_euchre's utility is 'points' or 'zero_sum', not {utility!r}")
        rules = rules_of(params)
        p = rules.players
        top = float(_MAX_POINTS[p])
        zero_sum = utility == "zero_sum"
        game_type = _GAME_TYPE
        if zero_sum:
            game_type = pyspiel.GameType(
                **{**_type_fields(_GAME_TYPE), "utility": pyspiel.GameType.Utility.ZERO_SUM})
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=math.comb(rules.pack_size, 5),
            num_players=p,
            min_utility=-top if zero_sum else 0.0,
            max_utility=top,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=max_game_length(p),
        )
        super().__init__(game_type, info, params)
        self._table = _Table(rules, utility)
        self._table.game = self

    @property
    def rules(self) -> Rules:
        """The rules this game plays."""
        return self._table.rules

    def new_initial_state(self) -> EuchreState:
        """A deal before its first chance node (the dealer)."""
        return EuchreState(self, self._table)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> EuchreObserver:
        """The observer OpenSpiel asks for: one seat's observation, with perfect recall
        (the information state) or without."""
        if params:
            raise ValueError(f"python_euchre's observer takes no parameters, not {params}")
        perfect_recall = False
        if iig_obs_type is not None:
            if (not iig_obs_type.public_info or iig_obs_type.private_info
                    != pyspiel.PrivateInfoType.SINGLE_PLAYER):
                raise ValueError("python_euchre observes the public information with one "
                                 "seat's private cards, nothing else")
            perfect_recall = bool(iig_obs_type.perfect_recall)
        return EuchreObserver(self._table, perfect_recall)


def _type_fields(game_type: Any) -> dict[str, Any]:
    names = ("short_name", "long_name", "dynamics", "chance_mode", "information", "utility",
             "reward_model", "max_num_players", "min_num_players",
             "provides_information_state_string", "provides_information_state_tensor",
             "provides_observation_string", "provides_observation_tensor",
             "parameter_specification")
    return {n: getattr(game_type, n) for n in names}


# -- the state -----------------------------------------------------------------------------------
class EuchreState(pyspiel.State):  # type: ignore[misc]
    """One deal in progress: the chance nodes deal it, then the core plays it."""

    def __init__(self, game: EuchreGame, table: _Table) -> None:
        super().__init__(game)
        self._t = table
        self._st = table.blank.copy()
        self._player = CHANCE
        self._step = 0
        self._dealer = -1
        self._hands: list[int] = []
        self._undealt = table.pack
        self._undealt_cards: list[int] | None = None

    # -- the questions, answered in Python -------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's chance (-1) or terminal (-4) player."""
        return self._player

    def is_terminal(self) -> bool:
        """Five tricks played, or the cards thrown in."""
        return self._player == TERMINAL

    def is_chance_node(self) -> bool:
        """The deal is still being dealt."""
        return self._player == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids (sorted) of ``player`` (default: the one to move)."""
        if player is not None and player != self._player:
            return []
        if self._player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self._player == TERMINAL:
            return []
        return self._legal_actions(self._player)

    def _legal_actions(self, player: int) -> list[int]:
        packed = _legal(self._st)
        base, bits = packed >> 34, packed & _BITS
        out = []
        while bits:
            low = bits & -bits
            out.append(base + low.bit_length() - 1)
            bits ^= low
        return out

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """The dealer, a hand (see the module), or the turn-up, each equally likely."""
        t = self._t
        if self._step == 0:
            return t.dealer_outcomes
        if self._step < t.chance_steps - 1:
            return t.hand_outcomes(self._undealt)
        cards = [c for c in range(33) if self._undealt >> c & 1]
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    # -- acting ----------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self._player == CHANCE:
            self._deal(action)
            return
        player = _step(self._st, action)
        if player == _ILLEGAL:
            raise IllegalActionError(self._explain(action))
        self._player = player

    def _deal(self, outcome: int) -> None:
        t = self._t
        p = t.players
        step = self._step
        if step == 0:
            if not 0 <= outcome < p:
                raise ValueError(f"the dealer is a seat from 0 to {p - 1}, not {outcome}")
            self._dealer = outcome
        elif step < t.chance_steps - 1:
            total = math.comb(self._undealt.bit_count(), 5)
            if not 0 <= outcome < total:
                raise ValueError(f"a hand is an outcome from 0 to {total - 1}, not {outcome}")
            hand = card_mask(_unrank(outcome, self._cards()))
            self._hands.append(hand)
            self._undealt &= ~hand
            self._undealt_cards = None
        else:
            if not (0 <= outcome < 33 and self._undealt >> outcome & 1):
                raise ValueError(f"the turn-up must be a card not dealt yet, not {outcome}")
            dealer = self._dealer
            seats = [0] * 5
            for k in range(p):
                seats[(dealer + 1 + k) % p] = self._hands[k]
            dummy = self._hands[p] if p == 3 else 0
            core.start(self._st, dealer, *seats, dummy, outcome)
            self._player = int(self._st[core.TURN])
        self._step = step + 1

    def _cards(self) -> list[int]:
        """The cards not dealt yet, in id order (kept until the next hand is dealt)."""
        if self._undealt_cards is None:
            self._undealt_cards = [c for c in range(33) if self._undealt >> c & 1]
        return self._undealt_cards

    def _explain(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            return f"action ids are 0 to {NUM_ACTIONS - 1}, not {action}"
        deal = Deal.from_record(record_of(self._st, self._t.rules))
        try:
            deal.check(action)
        except IllegalActionError as e:
            return str(e)
        return f"'{Action.from_id(action)}' is not legal"  # pragma: no cover - the core agrees

    def _action_to_string(self, player: int, action: int) -> str:
        if player != CHANCE:
            return _ACTION_TEXT[action]
        step, t = self._step, self._t
        if step == 0:
            return f"dealer {action}"
        if step < t.chance_steps - 1:
            hand = " ".join(_CARD_TEXT[c] for c in reversed(_unrank(action, self._cards())))
            k = step - 1
            if k == t.players:
                return f"dummy {hand}"
            return f"deal {hand} to seat {(self._dealer + 1 + k) % t.players}"
        return f"turn-up {_CARD_TEXT[action]}"

    # -- results ---------------------------------------------------------------------------------
    def points(self) -> list[int]:
        """Each seat's RULES §9 points (zeros until the deal is over, and if thrown in)."""
        out = np.zeros(5, dtype=np.int64)
        if self._player == TERMINAL:
            core.points(self._st, out)
        return [int(x) for x in out[:self._t.players]]

    def returns(self) -> list[float]:
        """The points, or with ``utility=zero_sum`` each seat's points minus the average of
        the others'."""
        pts = self.points()
        if self._t.utility == "points":
            return [float(x) for x in pts]
        return [seat_utility(pts, s) for s in range(len(pts))]

    @property
    def dealt(self) -> bool:
        """All chance nodes are behind: the deal is being bid or played."""
        return self._step == self._t.chance_steps

    @property
    def core_state(self) -> npt.NDArray[np.int64]:
        """The :mod:`euchre.core` state (a copy)."""
        return self._st.copy()

    def record(self) -> DealRecord:
        """The deal so far as a RECORDS deal record (``euchre replay`` reads its
        ``to_json()``)."""
        if not self.dealt:
            raise ValueError("the deal is not dealt yet")
        return record_of(self._st, self._t.rules)

    def __str__(self) -> str:
        if not self.dealt:
            return f"dealing: dealer {self._dealer}, {len(self._hands)} hands dealt"
        rec = self.record()
        hands = " / ".join(" ".join(map(str, h)) for h in rec.hands)
        return (f"dealer {rec.dealer}; hands {hands}; turn-up {rec.turnup}; "
                f"actions: {', '.join(rec.actions)}")

    # -- what a seat knows -------------------------------------------------------------------------
    def history_of(self, player: int) -> list[tuple[int, int]]:
        """The deal's actions as ``player`` may see them: ``(seat, id)``, another seat's
        discard as ``(seat, HIDDEN)``."""
        st = self._st
        out = []
        for k in range(int(st[core.N_ACTIONS])):
            entry = int(st[core.HISTORY + k])
            s, a = divmod(entry, core.SEAT_SHIFT)
            out.append((s, HIDDEN if DISCARD <= a < CALL and s != player else a))
        return out

    def known_dummy(self, player: int) -> int | None:
        """The dummy as dealt, for the three-handed maker who took it up (RULES §12)."""
        st = self._st
        if (self._t.players == 3 and int(st[core.MAKER]) == player and not st[core.ALONE]
                and st[core.PHASE] >= core.DUMMY_MERGE):
            return int(st[core.DEALT_DUMMY])
        return None

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` knows, as text: its dealt hand, the dummy if it took it, the
        turn-up, the dealer and every action (others' discards as ``discard ?``)."""
        seat = self._player if player is None else player
        return _info_string(self, seat)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> EuchreState:
        """A deal ``player`` cannot tell from this one: the cards it cannot see dealt
        afresh at random (keeping the voids the play has shown), the actions replayed."""
        if not self.dealt:
            raise ValueError("resample_from_infostate needs a dealt deal")
        seed = int(sampler() * 2 ** 53) if callable(sampler) else random.getrandbits(53)
        return _of_world(self._t.game, sample_world(self._st, player, seed))


def _info_string(state: EuchreState, seat: int) -> str:
    t = state._t
    if not state.dealt:
        dealt = state._hands
        k = (seat - state._dealer - 1) % t.players if state._dealer >= 0 else -1
        hand = dealt[k] if 0 <= k < len(dealt) else 0
        return f"seat {seat} dealing; hand {_cards(hand)}"
    st = state._st
    head = (f"seat {seat} dealer {int(st[core.DEALER])} hand {_cards(int(st[core.DEALT + seat]))}"
            f" turn-up {_CARD_TEXT[int(st[core.TURNUP])]}")
    dummy = state.known_dummy(seat)
    if dummy is not None:
        head += f" dummy {_cards(dummy)}"
    acts = " ".join(f"{s}:{'discard ?' if a == HIDDEN else _ACTION_TEXT[a]}"
                    for s, a in state.history_of(seat))
    return f"{head} | {acts}"


def _cards(mask: int) -> str:
    return " ".join(_CARD_TEXT[c] for c in cards_of(mask))


def _build(game: EuchreGame, chance: Sequence[int], actions: Sequence[int]) -> EuchreState:
    state = game.new_initial_state()
    for a in chance:
        state.apply_action(a)
    for a in actions:
        state.apply_action(a)
    return state


# -- observers -------------------------------------------------------------------------------------
class EuchreObserver:
    """One seat's observation tensor (the core's layout) and text; with perfect recall,
    also every action of the deal so far (see the module)."""

    def __init__(self, table: _Table, perfect_recall: bool) -> None:
        from euchre.vector import observation_layout

        self._t = table
        self.perfect_recall = perfect_recall
        p = table.players
        self.row = p + NUM_ACTIONS + 1
        size = table.obs_size + (table.history_rows * self.row if perfect_recall else 0)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        for name, (start, stop, _) in observation_layout(p).items():
            self.dict[name] = self.tensor[start:stop]
        if perfect_recall:
            self.dict["history"] = self.tensor[table.obs_size:].reshape(
                table.history_rows, self.row)

    def set_from(self, state: EuchreState, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor`."""
        tensor = self.tensor
        tensor.fill(0.0)
        if not state.dealt:
            return
        t = self._t
        _observe(state._st, player, t.offsets, tensor[:t.obs_size])
        if self.perfect_recall:
            p, row, at = t.players, self.row, t.obs_size
            for k, (s, a) in enumerate(state.history_of(player)):
                base = at + k * row
                tensor[base + (s - player) % p] = 1.0
                tensor[base + p + (NUM_ACTIONS if a == HIDDEN else a)] = 1.0

    def string_from(self, state: EuchreState, player: int) -> str:
        """``player``'s view as text: the information state, or what is on the table now."""
        if self.perfect_recall or not state.dealt:
            return _info_string(state, player)
        st = state._st
        trump = int(st[core.TRUMP_SUIT])
        parts = [f"seat {player} hand {_cards(int(st[core.HANDS + player]))}",
                 f"dealer {int(st[core.DEALER])}",
                 f"turn-up {_CARD_TEXT[int(st[core.TURNUP])]}"]
        if trump >= 0:
            parts.append(f"trump {'CDHS'[trump]} maker {int(st[core.MAKER])}"
                         + (" alone" if st[core.ALONE] else ""))
        if st[core.PHASE] == core.PLAY:
            trick = " ".join(_CARD_TEXT[int(st[core.TRICK_CARDS + i])]
                             for i in range(int(st[core.TRICK_LEN])))
            parts.append(f"leader {int(st[core.LEADER])} trick [{trick}]")
        won = " ".join(str(int(st[core.TRICKS + s])) for s in range(self._t.players))
        parts.append(f"tricks {won}")
        parts.append(f"to move {state.current_player()}")
        return "; ".join(parts)


# -- deals consistent with what one seat knows (euchre.worlds) -------------------------------------
def _of_world(game: EuchreGame, world: npt.NDArray[np.int64]) -> EuchreState:
    """The ``python_euchre`` state of a world of :func:`euchre.worlds.sample_world`."""
    rules = game.rules
    dealt = [int(world[core.DEALT + s]) for s in range(rules.players)]
    chance = deal_outcomes(rules, int(world[core.DEALER]), dealt, int(world[core.TURNUP]),
                           int(world[core.DEALT_DUMMY]))
    actions = [int(world[core.HISTORY + k]) % core.SEAT_SHIFT
               for k in range(int(world[core.N_ACTIONS]))]
    return _build(game, chance, actions)


def state_from_observation(game: EuchreGame, obs: Observation,
                           rng: random.Random) -> EuchreState:
    """A ``python_euchre`` state that ``obs``'s seat cannot tell from the real deal: the
    cards it cannot see dealt at random (:func:`euchre.worlds.sample_world`)."""
    world = sample_world(view_from_observation(obs), obs.seat, rng.getrandbits(32))
    return _of_world(game, world)


pyspiel.register_game(_GAME_TYPE, EuchreGame)
