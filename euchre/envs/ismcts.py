"""The ``ismcts`` bot: OpenSpiel's information-set MCTS as a peer at our table.

It needs the optional ``bench`` extra (``pip install -e '.[bench]'``, which brings
OpenSpiel's ``pyspiel``) and plays every variant.  Name it ``ismcts`` (1000 simulations
a decision), ``ismcts:SIMS`` or ``ismcts:SIMS:WORLDS`` (see below).

**Which OpenSpiel game it searches.**  Under the rules OpenSpiel's own C++ ``euchre``
plays (four-handed, 24 cards, no joker, the dealer must keep the turn-up, no defending
alone; stick the dealer on or off) it searches that game with OpenSpiel's C++
``ISMCTSBot``: the peer the four-handed benchmarks measure, compiled throughout and so
much faster per simulation.  Under any other rules it searches our own ``python_euchre``
(:mod:`euchre.envs.openspiel`) with OpenSpiel's Python ``ISMCTSBot``: see "Every other
variant" at the end.  :func:`plays_openspiel_euchre` tells which.

**What it sees.**  Like every bot it gets only its :class:`~euchre.deal.Observation`
(RULES §12).  At each decision it builds OpenSpiel states from that observation:

* the chance nodes of OpenSpiel's deal are set by hand: the dealer (our seats and
  OpenSpiel's players are the same numbers, both going clockwise), then twenty cards
  (OpenSpiel deals card ``i`` to player ``(dealer + i) mod 4``), then the upcard;
* the bot's own cards are its dealt hand; every card another player has played is put
  in that player's hand; the cards it cannot see (the rest of the other hands and the
  three-card kitty) are dealt at random among the other hands and the kitty, keeping
  every void the play has shown (a player who did not follow a suit holds none of it);
* then the public actions are replayed in OpenSpiel's order: bids, the dealer's discard
  (the card when the bot is the dealer, else a random unseen card of the dealer's),
  the maker's alone-or-not answer, the cards played.

Cards map as ``ours = suit * 8 + rank`` (7..A as 0..7) to ``OpenSpiel = (rank - 2) * 4
+ suit`` (9..A as 0..5, suits C D H S in the same order); actions 24 pass, 25..28 name
clubs..spades (in round 1 only the upcard's suit: "order it up"), 29 alone, 30 with
partner, 0..23 play or discard a card.

**Alone.**  Our maker declares alone with the bid (``order alone``, ``trump H alone``);
OpenSpiel asks the maker afterwards, and in round 1 only after the dealer's discard.
So when the bot bids it searches the bid; if it is not a pass, it applies the bid (and,
in round 1, the dealer's discard: its own choice, searched, when it is the dealer and
remembered for our exchange that follows; else a random unseen card) and searches the
alone question, and answers with the one action of ours.  When someone else makes
trump and the bot is the dealer, OpenSpiel has it discard before the maker's alone
answer is applied, exactly as OpenSpiel's own game does.

**No leak, and the kitty.**  OpenSpiel's ``InformationStateString`` and
``InformationStateTensor`` for a player hold the dealer, the upcard, that player's own
hand, the bidding, the alone flags and the tricks, nothing of another hand and not the
dealer's discard, so the random fill cannot show through them (a test checks that two
fills give the same information state).  But the ISMCTS bot samples its worlds with
``EuchreState::ResampleFromInfostate``, which reshuffles only the unplayed cards already
in the other hands: the three kitty cards and the dealer's discard stay where the state
has them.  In OpenSpiel's own game that lets the bot know which cards are dead; here
those cards are the random fill's, so within one search the bot believes in one random
kitty, a belief that is wrong but carries no information, and is drawn afresh at every
decision.  ``worlds`` splits the simulations over several independently filled states
and plays the action with the most visits summed over them, which averages that belief
out at the cost of shallower searches.  The default is one world (one OpenSpiel search
of all the simulations): in a duplicate match of 300 deal sets, ``ismcts:1000:1``
scored +0.073 ± 0.086 points a deal against ``ismcts:1000:8`` (not significant, and
not in favour of splitting).

**The search.**  ``pyspiel.ISMCTSBot`` with a random-rollout evaluator (one rollout),
UCT constant 2, a fresh world sample every simulation, and the normalised visit counts
as its policy.  It maximises OpenSpiel's returns: the deal's points for its side
minus the other side's (the same scores as ours, RULES §9); it does not look at the
game score.

**Every other variant.**  The bot deals the cards it cannot see at random, keeping every
void the play has shown (:func:`euchre.envs.openspiel.state_from_observation`), and
hands that ``python_euchre`` state to OpenSpiel's Python ``ISMCTSBot`` (same settings:
one random rollout, UCT constant 2, the normalised visit counts), which draws a fresh
world for every simulation with the state's ``resample_from_infostate``; that resampling
deals the kitty, the dummy and the hidden discards afresh too, so nothing dead is known.
The actions are our own (going alone is part of the bid), and the returns are
``python_euchre``'s ``zero_sum`` utility: the seat's points minus the average of the
others' points for the deal.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from euchre import core
from euchre.actions import CALL, DISCARD, Action, ActionKind
from euchre.bots import Bot
from euchre.cards import Card, Suit, cards_of, pack_mask
from euchre.deal import Observation, Phase
from euchre.rules import Rules
from euchre.worlds import sample_world, view_from_observation

__all__ = [
    "DEFAULT_SIMULATIONS",
    "DEFAULT_WORLDS",
    "NEEDS_OPENSPIEL",
    "OPENSPIEL_DEFAULTS",
    "ISMCTSBot",
    "available",
    "check_rules",
    "from_os_card",
    "make_bot",
    "parse_options",
    "plays_openspiel_euchre",
    "to_os_action",
    "to_os_card",
]

NEEDS_OPENSPIEL: Final = "the ismcts bot needs OpenSpiel: pip install -e '.[bench]'"
DEFAULT_SIMULATIONS: Final = 1000
DEFAULT_WORLDS: Final = 1
OPENSPIEL_DEFAULTS: Final = {"dealer_must_take_up": True, "stick_the_dealer": True}
"""The options of OpenSpiel's own euchre (the dealer keeps the turn-up; stick the dealer,
its default) that a four-handed game with the ``ismcts`` bot takes where the user left
them open (``euchre tournament``), so that the bot searches OpenSpiel's compiled game."""
UCT_C: Final = 2.0

# OpenSpiel's euchre action ids (open_spiel/games/euchre/euchre.h)
OS_PASS: Final = 24
OS_TRUMP: Final = 25  # + suit: clubs, diamonds, hearts, spades
OS_ALONE: Final = 29
OS_PARTNER: Final = 30
_HIDDEN: Final = -1  # the dealer's discard, unseen by this seat
_PACK: Final = tuple(c for c in range(32) if pack_mask(24, False) >> c & 1)


def available() -> bool:
    """Whether ``pyspiel`` can be imported (without importing it)."""
    return importlib.util.find_spec("pyspiel") is not None


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError as e:
        raise ImportError(NEEDS_OPENSPIEL) from e
    return pyspiel


def to_os_card(card: int) -> int:
    """Our card id (``suit * 8 + rank``) as OpenSpiel's (``rank * 4 + suit``, 9 is rank 0).

    >>> to_os_card(Card.parse('9C')), to_os_card(Card.parse('AS')), to_os_card(Card.parse('JH'))
    (0, 23, 10)
    """
    rank = (card & 7) - 2
    if not 0 <= rank < 6 or card >= 32:
        raise ValueError(f"{Card(card)} is not in OpenSpiel's 24-card pack")
    return rank * 4 + (card >> 3)


def from_os_card(card: int) -> Card:
    """OpenSpiel's card id as ours.

    >>> from_os_card(10)
    Card.parse('JH')
    """
    return Card((card % 4) * 8 + card // 4 + 2)


def to_os_action(action: Action, turnup: Card) -> int:
    """One of our actions as OpenSpiel's, the alone flag left out (OpenSpiel asks it apart).

    >>> to_os_action(Action.parse('order alone'), Card.parse('9H'))
    27
    """
    kind = action.kind
    if kind is ActionKind.PASS:
        return OS_PASS
    if kind is ActionKind.ORDER:
        suit = turnup.suit
        assert suit is not None
        return OS_TRUMP + suit
    if kind is ActionKind.TRUMP:
        assert action.suit is not None
        return OS_TRUMP + action.suit
    if kind in (ActionKind.PLAY, ActionKind.DISCARD):
        assert action.card is not None
        return to_os_card(action.card)
    raise ValueError(f"OpenSpiel's euchre has no action like '{action}'")


def plays_openspiel_euchre(rules: Rules) -> bool:
    """Whether OpenSpiel's C++ ``euchre`` plays ``rules`` (see :func:`check_rules`)."""
    try:
        check_rules(rules)
    except ValueError:
        return False
    return True


def check_rules(rules: Rules) -> None:
    """Refuse rules OpenSpiel's C++ euchre does not play, with a sentence naming them."""
    wrong = []
    if rules.players != 4:
        wrong.append(f"{rules.players} players (it plays four-handed)")
    if rules.deck != 24:
        wrong.append(f"a {rules.deck}-card pack (it plays 24)")
    if rules.joker:
        wrong.append("the joker")
    if not rules.dealer_must_take_up:
        wrong.append("a dealer who may decline the turn-up (add --dealer-must-take-up)")
    if rules.defend_alone:
        wrong.append("defending alone")
    if wrong:
        raise ValueError("the ismcts bot plays only OpenSpiel's euchre (four-handed, 24 cards, "
                         "no joker, the dealer must take up, no defending alone), not "
                         + ", ".join(wrong))


def parse_options(text: str) -> dict[str, int]:
    """The options after ``ismcts:``: ``SIMS`` or ``SIMS:WORLDS``.

    >>> parse_options('500'), parse_options('2000:4'), parse_options('')
    ({'simulations': 500}, {'simulations': 2000, 'worlds': 4}, {})
    """
    if not text:
        return {}
    parts = text.split(":")
    if len(parts) > 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"ismcts takes ismcts:SIMULATIONS or ismcts:SIMULATIONS:WORLDS "
                         f"with positive whole numbers, not 'ismcts:{text}'")
    out = {"simulations": int(parts[0])}
    if len(parts) == 2:
        out["worlds"] = int(parts[1])
    return out


def make_bot(seed: int | random.Random | None, options: str = "") -> Bot:
    """The ``ismcts`` or ``ismcts:OPTIONS`` bot (:func:`euchre.bots.make_bot` asks here)."""
    return ISMCTSBot(seed, **parse_options(options))


# -- what the seat knows, in OpenSpiel's terms ------------------------------------------------
@dataclass(slots=True)
class Knowledge:
    """What one seat knows of the deal (:mod:`euchre.worlds`'s view), with the public
    actions in OpenSpiel's terms, for building OpenSpiel states."""

    seat: int
    dealer: int
    turnup: int
    dealt: list[int]
    """This seat's five cards as dealt (ours)."""
    actions: list[int]
    """OpenSpiel's actions after the deal, ``-1`` standing for the dealer's unseen discard."""
    view: Any = None
    """The seat's view (:func:`euchre.worlds.view_from_observation`), which worlds are
    drawn from."""

    @property
    def key(self) -> tuple[int, int, tuple[int, ...]]:
        """Identifies the deal: dealer, turn-up and this seat's dealt hand."""
        return self.dealer, self.turnup, tuple(sorted(self.dealt))


def knowledge(obs: Observation) -> Knowledge:
    """What ``obs``'s seat knows, with the public actions mapped to OpenSpiel's."""
    seat, turnup = obs.seat, int(obs.turnup)
    turnup_suit = turnup >> 3
    actions: list[int] = []
    alone = OS_PARTNER
    pending = False  # a round-1 bid waits for the dealer's discard, then the alone answer
    for event in obs.events:
        a = event.action
        if a is None or a.kind is ActionKind.DISCARD:  # the dealer's exchange
            actions.append(_HIDDEN if a is None else to_os_card(_card(a)))
            actions.append(alone)
            pending = False
            continue
        kind = a.kind
        if kind is ActionKind.PASS:
            actions.append(OS_PASS)
        elif kind is ActionKind.ORDER:
            actions.append(OS_TRUMP + turnup_suit)
            alone = OS_ALONE if a.alone else OS_PARTNER
            pending = True
        elif kind is ActionKind.TRUMP:
            assert a.suit is not None
            actions += [OS_TRUMP + a.suit, OS_ALONE if a.alone else OS_PARTNER]
        elif kind is ActionKind.PLAY:
            if pending:  # the dealer sat out (partner alone): no exchange in our deal
                actions += [_HIDDEN, alone]
                pending = False
            actions.append(to_os_card(_card(a)))
        else:
            raise ValueError(f"OpenSpiel's euchre has no action like '{a}'")
    if pending and obs.phase is Phase.PLAY:  # the dealer sits out and nobody has played yet
        actions += [_HIDDEN, alone]
    view = view_from_observation(obs)
    dealt = [int(c) for c in cards_of(int(view[core.DEALT + seat]))]
    return Knowledge(seat, obs.dealer, turnup, dealt, actions, view)


def _card(action: Action) -> int:
    assert action.card is not None
    return int(action.card)


# -- the bot -----------------------------------------------------------------------------------
class ISMCTSBot:
    """OpenSpiel's ``ISMCTSBot`` playing one seat from our observations (see the module)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | random.Random | None = None,
        simulations: int = DEFAULT_SIMULATIONS,
        worlds: int = DEFAULT_WORLDS,
    ) -> None:
        if simulations < 1 or worlds < 1:
            raise ValueError("ismcts needs at least 1 simulation and 1 world")
        pyspiel = _pyspiel()
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.simulations = simulations
        self.worlds = min(worlds, simulations)
        per_world = max(1, simulations // self.worlds)
        evaluator = pyspiel.RandomRolloutEvaluator(1, self.rng.getrandbits(31))
        self._search_bot = pyspiel.ISMCTSBot(
            self.rng.getrandbits(31), evaluator, UCT_C, per_world, -1,
            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
        self._games: dict[bool | str, Any] = {}
        self._planned: tuple[tuple[int, int, tuple[int, ...]], int] | None = None
        self.state: Any = None
        """The last OpenSpiel state built for a decision (one of its worlds)."""

    def __repr__(self) -> str:
        return f"ISMCTSBot(simulations={self.simulations}, worlds={self.worlds})"

    def _game(self, rules: Rules) -> Any:
        stick = bool(rules.stick_the_dealer)
        if stick not in self._games:
            self._games[stick] = _pyspiel().load_game(
                "euchre", {"stick_the_dealer": stick, "allow_lone_defender": False})
        return self._games[stick]

    # -- OpenSpiel states ------------------------------------------------------------------------
    def world(self, obs: Observation, know: Knowledge | None = None) -> Any:
        """One OpenSpiel state consistent with what ``obs``'s seat knows (see the module):
        the deal of a world of :func:`euchre.worlds.sample_world`."""
        k = knowledge(obs) if know is None else know
        rng = self.rng
        me, dealer, turnup = k.seat, k.dealer, k.turnup
        world = sample_world(k.view, me, rng.getrandbits(32))
        hands = [[int(c) for c in cards_of(int(world[core.DEALT + p]))] for p in range(4)]
        discard = -1
        for i in range(int(world[core.N_ACTIONS])):
            a = int(world[core.HISTORY + i]) % core.SEAT_SHIFT
            if DISCARD <= a < CALL:
                discard = a - DISCARD
        if discard < 0 and _HIDDEN in k.actions:
            # the dealer sits out: OpenSpiel has it discard all the same, any card of its own
            discard = min(hands[dealer])
        state = self._game(obs.rules).new_initial_state()
        state.apply_action(dealer)
        for cards in hands:
            rng.shuffle(cards)
        for i in range(20):
            state.apply_action(to_os_card(hands[(dealer + i) % 4].pop()))
        state.apply_action(to_os_card(turnup))
        for a in k.actions:
            state.apply_action(to_os_card(discard) if a == _HIDDEN else a)
        self.state = state
        return state

    def _search(self, states: Sequence[Any]) -> int:
        """The action with the most visits over the searches of ``states``."""
        totals: dict[int, float] = {}
        for state in states:
            for a, p in self._search_bot.get_policy(state):
                totals[a] = totals.get(a, 0.0) + p
        best = max(totals.values())
        return int(self.rng.choice(sorted(a for a, v in totals.items() if v >= best - 1e-9)))

    def _worlds(self, obs: Observation, know: Knowledge) -> list[Any]:
        states = [self.world(obs, know) for _ in range(self.worlds)]
        _check_sync(obs, states[0])
        return states

    # -- acting ------------------------------------------------------------------------------------
    def act(self, observation: Observation) -> Action:
        """Search with OpenSpiel's ISMCTS and answer with one of our legal actions."""
        obs = observation
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if not plays_openspiel_euchre(obs.rules):
            return self._act_python(obs)
        know = knowledge(obs)
        phase = obs.phase
        if phase is Phase.EXCHANGE and self._planned is not None and self._planned[0] == know.key:
            planned = Action.discard(self._planned[1])
            self._planned = None
            if planned in legal:
                return planned
        states = self._worlds(obs, know)
        choice = self._search(states)
        if phase is Phase.EXCHANGE or phase is Phase.PLAY:
            card = from_os_card(choice)
            return Action.discard(card) if phase is Phase.EXCHANGE else Action.play(card)
        if phase not in (Phase.BID_TURNUP, Phase.BID_SUIT):
            raise ValueError(f"OpenSpiel's euchre has no {phase.value} phase")
        if choice == OS_PASS:
            return Action.parse("pass")
        suit = Suit(choice - OS_TRUMP)
        for state in states:
            state.apply_action(choice)
        if phase is Phase.BID_TURNUP:  # OpenSpiel: the dealer discards before the alone answer
            if obs.dealer == obs.seat:
                discard = self._search(states)
                self._planned = (know.key, int(from_os_card(discard)))
                for state in states:
                    state.apply_action(discard)
            else:
                for state in states:
                    state.apply_action(self.rng.choice(state.legal_actions()))
        alone = self._search(states) == OS_ALONE
        if phase is Phase.BID_TURNUP:
            return Action.parse("order alone" if alone else "order")
        return Action.trump(suit, alone)

    # -- every other variant: python_euchre and OpenSpiel's Python ISMCTS -------------------------
    def _python_game(self, rules: Rules) -> Any:
        from euchre.envs.openspiel import game_string

        key = game_string(rules, "zero_sum")
        if key not in self._games:
            self._games[key] = _pyspiel().load_game(key)
        return self._games[key]

    def _act_python(self, obs: Observation) -> Action:
        """Search ``python_euchre`` with OpenSpiel's Python ISMCTS (see the module)."""
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from euchre.envs.openspiel import state_from_observation

        game = self._python_game(obs.rules)
        rng = np.random.RandomState(self.rng.getrandbits(31))
        search = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rng), UCT_C,
            max(1, self.simulations // self.worlds), random_state=rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT)
        draw = self.rng.random
        search.set_resampler(
            lambda state, player: state.resample_from_infostate(player, draw))
        totals: dict[int, float] = {}
        for _ in range(self.worlds):
            state = state_from_observation(game, obs, self.rng)
            self.state = state
            for a, p in search.get_policy(state):
                totals[a] = totals.get(a, 0.0) + p
        best = max(totals.values())
        choice = self.rng.choice(sorted(a for a, v in totals.items() if v >= best - 1e-9))
        return Action.from_id(int(choice))


def _check_sync(obs: Observation, state: Any) -> None:
    """Raise if OpenSpiel's state disagrees with the observation on turn, hand or choices."""
    turnup = obs.turnup
    ours = sorted({to_os_action(a, turnup) for a in obs.legal_actions})
    theirs = sorted(state.legal_actions())
    hand = sorted(to_os_card(c) for c in obs.hand)
    holders = state.card_holder()
    held = sorted(c for c in range(24) if holders[c] == obs.seat)
    if state.current_player() != obs.seat or ours != theirs or hand != held:
        raise RuntimeError(
            f"ismcts: OpenSpiel's state is out of step with the deal at seat {obs.seat} "
            f"({obs.phase.value}): player {state.current_player()}, legal {theirs} "
            f"against ours {ours}, hand {held} against ours {hand}")
