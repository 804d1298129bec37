"""One episode at the table, for the environments: a deal or a game on the compiled core.

:class:`Episode` holds one :mod:`euchre.core` state and plays a **deal episode** (one deal;
a deal thrown in ends it with no points) or a **game episode** (deals until a seat
reaches the target, the deal passing left, RULES §3, §10; with ``rubber`` set, until a
side has won two games, RULES §11).  It answers what every environment needs:

* :meth:`Episode.observe`: a seat's observation, the core's
  :meth:`~euchre.vector.VectorDeals.observation_tensor` (what RULES §12 lets the seat
  know) followed, in game episodes, by the score, the target and the games won;
* :meth:`Episode.legal_mask`: the legal actions of the seat to move over the fixed action
  space (:mod:`euchre.actions`), as ``int8``;
* :meth:`Episode.act`: apply an action; when a deal is scored, the rewards of every seat;
* :meth:`Episode.records`: the episode as RECORDS records that ``euchre replay`` reads.

>>> from euchre import Rules
>>> table = Episode(Rules(players=3), episode="deal", reward="utility")
>>> table.reset(seed=4)
>>> rewards = None
>>> while not table.over:
...     rewards = table.act(int(table.legal_mask().nonzero()[0][0]))
>>> rewards is None or abs(sum(rewards)) < 1e-9
True
>>> table.observe(0).shape == (observation_size(3, "deal"),)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from euchre import _numba, core, vector
from euchre.actions import NUM_ACTIONS, Action
from euchre.cards import cards_of
from euchre.deal import Deal, IllegalActionError
from euchre.game import Game, winners_of
from euchre.notation import DealRecord, GameRecord
from euchre.records import game_record
from euchre.rules import Rules
from euchre.sides import utility as seat_utility

__all__ = ["EPISODES", "REWARDS", "Episode", "observation_high", "observation_layout",
           "observation_size", "show"]

EPISODES: Final = ("deal", "game")
"""An episode is one deal, or one game to the target (a rubber with ``Rules.rubber``)."""
REWARDS: Final = ("points", "utility")
"""Rewards are each seat's points, or (three- and five-handed) its points minus the
others' mean."""

Float32Array = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]
Int64Array = npt.NDArray[np.int64]

_SEED_RANGE: Final = 1 << 32  # the core's random streams read 32 bits of the seed


def observation_layout(players: int, episode: str = "deal") -> dict[str, tuple[int, int, str]]:
    """The environments' observation for ``players`` seats: name -> (start, stop, meaning).

    The core's fields (:func:`euchre.vector.observation_layout`), then, in game episodes,
    the game's: seats counted from the observer to its left.

    >>> layout = observation_layout(4, "game")
    >>> layout["score"][:2], layout["target"][:2], layout["games_won"][:2]
    ((522, 526), (526, 527), (527, 531))
    """
    _check_episode(episode)
    out = vector.observation_layout(players)
    if episode == "game":
        at = vector.observation_size(players)
        for name, size, meaning in (
            ("score", players, "each seat's game score (every finished deal), "
                               "divided by the target"),
            ("target", 1, "the target, in points"),
            ("games_won", players, "rubbers: games each seat's side has won, divided by 2"),
        ):
            out[name] = (at, at + size, meaning)
            at += size
    return out


def observation_size(players: int, episode: str = "deal") -> int:
    """The length of one seat's observation; a game episode adds the game's fields.

    >>> observation_size(4, "deal"), observation_size(4, "game")
    (522, 531)
    """
    return max(stop for _, stop, _ in observation_layout(players, episode).values())


def observation_high(rules: Rules, episode: str = "deal") -> Float32Array:
    """The largest value of each entry of the observation (the lowest is 0 everywhere).

    A score can pass the target by at most 4 points: it is below the target before the
    last deal, which scores at most 5 (RULES §9, §10)."""
    layout = observation_layout(rules.players, episode)
    high = np.ones(observation_size(rules.players, episode), dtype=np.float32)
    if episode == "game":
        start, stop, _ = layout["score"]
        high[start:stop] = (rules.target + 4) / rules.target
        high[layout["target"][0]] = rules.target
    return high


def _check_episode(episode: str) -> None:
    if episode not in EPISODES:
        raise ValueError(f"episode is 'deal' or 'game', not {episode!r}")


@_numba.jit
def _observe(st: Int64Array, seat: int, off: Int64Array, at: int, scores: Int64Array,
             target: int, games: Int64Array, obs: Any, mask: Any) -> None:
    """Seat ``seat``'s observation into a zeroed ``obs`` (the game's fields from ``at``
    when ``at > 0``), and the legal actions into a zeroed ``mask`` if it is to move."""
    vector._observe(st, seat, off, obs)
    p = st[core.PLAYERS]
    if at > 0:
        for s in range(p):
            r = (s - seat) % p
            obs[at + r] = scores[s] / target
            obs[at + p + 1 + r] = games[s] / 2.0
        obs[at + p] = target
    if st[core.PHASE] != core.OVER and st[core.TURN] == seat:
        base, bits = core.legal_bits(st)
        i = 0
        while bits:
            if bits & 1:
                mask[base + i] = 1
            bits >>= 1
            i += 1


class Episode:
    """One episode of ``rules`` on the compiled core (see the module's example).

    ``keep_deal`` also keeps :attr:`deal`, a :class:`~euchre.deal.Deal` of the deal in
    progress that every action is applied to, for bots that read
    :meth:`~euchre.deal.Deal.observation`.
    """

    def __init__(self, rules: Rules, episode: str = "deal", reward: str = "points",
                 keep_deal: bool = False) -> None:
        _check_episode(episode)
        if reward not in REWARDS:
            raise ValueError(f"reward is 'points' or 'utility', not {reward!r}")
        p = rules.players
        if reward == "utility" and p not in (3, 5):
            raise ValueError(f"reward='utility' is for three- and five-handed euchre, where "
                             f"every seat scores for itself; with {p} players use "
                             f"reward='points'")
        self.rules = rules
        self.episode = episode
        self.reward = reward
        self.keep_deal = keep_deal
        self.state: Int64Array = core.new_state(rules)
        """The :mod:`euchre.core` state of the deal in progress (or the last one)."""
        self.seed = 0
        self.scores: Int64Array = np.zeros(p, dtype=np.int64)
        """Each seat's score in the game in progress (four-handed: its side's)."""
        self.games_won: Int64Array = np.zeros(p, dtype=np.int64)
        """Rubbers: games won by each seat's side."""
        self.over = True
        self.deal: Deal | None = None
        self._offsets = vector._offsets(p)
        self._game_at = vector.observation_size(p) if episode == "game" else 0
        self._size = observation_size(p, episode)
        self._points = np.zeros(5, dtype=np.int64)
        self._games: list[list[Int64Array]] = []  # finished deals' states, game by game
        self._seeded = False

    def __repr__(self) -> str:
        return (f"Episode({self.rules!r}, episode={self.episode!r}, reward={self.reward!r}, "
                f"keep_deal={self.keep_deal})")

    # -- the episode ---------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start a new episode.  The same ``seed`` deals the same cards; without one, the
        episode after the last one (a fresh seed the first time).

        >>> from euchre import Rules
        >>> table = Episode(Rules(players=4))
        >>> table.reset(seed=1)
        >>> other = Episode(Rules(players=4))
        >>> other.reset(seed=1)
        >>> bool((table.observe(0) == other.observe(0)).all())
        True
        """
        if seed is not None:
            self.seed = int(seed) % _SEED_RANGE
            self.state[core.EPISODE] = 0
        elif not self._seeded:
            self.seed = int(np.random.SeedSequence().entropy) % _SEED_RANGE  # type: ignore[arg-type]
        self._seeded = True
        self.scores[:] = 0
        self.games_won[:] = 0
        self._games = [[]]
        self.over = False
        # four-handed with the draw, the lowest draw sits at seat 0 and deals first (§11)
        self._deal(0 if self.rules.draw and self.episode == "game" else -1)

    def _deal(self, dealer: int) -> None:
        core.deal_random(self.state, self.seed, 0, dealer)
        if self.keep_deal:
            self.deal = Deal.from_record(vector.record_of(self.state, self.rules))
            self.deal.scores = tuple(int(s) for s in self.scores)

    @property
    def to_move(self) -> int:
        """The seat to move; -1 once the episode is over.

        >>> from euchre import Rules
        >>> table = Episode(Rules(players=4))
        >>> table.reset(seed=1)
        >>> table.to_move  # the seat at the dealer's left bids first
        2
        """
        return -1 if self.over else int(self.state[core.TURN])

    def act(self, action: int) -> list[float] | None:
        """Take ``action`` (an id of the action space) for the seat to move.

        Returns every seat's reward when the action ends a deal, else ``None``.  An
        illegal action raises :class:`~euchre.deal.IllegalActionError` naming the rule,
        and changes nothing.

        >>> from euchre import Rules
        >>> table = Episode(Rules(players=4))
        >>> table.reset(seed=1)
        >>> table.act(99), table.to_move  # seat 2 passes: no reward yet
        (None, 3)
        >>> while not table.over:
        ...     rewards = table.act(int(table.legal_mask().nonzero()[0][-1]))
        >>> rewards, table.points()
        ([0.0, 1.0, 0.0, 1.0], [0, 1, 0, 1])
        """
        st = self.state
        if self.over:
            raise IllegalActionError("the episode is over: no action is legal; reset first")
        if not core.apply_action(st, action):
            raise IllegalActionError(self._explain(action))
        if self.deal is not None:
            self.deal.apply(action)
        if st[core.PHASE] != core.OVER:
            return None
        core.points(st, self._points)
        p = self.rules.players
        points = self._points[:p].tolist()
        self._games[-1].append(st.copy())
        if self.episode == "deal":
            self.over = True
        else:
            self.scores += self._points[:p]
            if int(self.scores.max()) >= self.rules.target:
                self._end_game()
            if not self.over:
                self._deal((int(st[core.DEALER]) + 1) % p)  # the deal passes left (§3)
        if self.reward == "points":
            return [float(x) for x in points]
        return [seat_utility(points, s) for s in range(p)]

    def _end_game(self) -> None:
        if not self.rules.rubber:
            self.over = True
            return
        for s in winners_of(self.scores.tolist(), self.rules.target):
            self.games_won[s] += 1  # four-handed, both partners carry the side's games
        if int(self.games_won.max()) >= 2:
            self.over = True
        else:
            self.scores[:] = 0
            self._games.append([])

    def _explain(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            return f"action ids are 0 to {NUM_ACTIONS - 1}, not {action}"
        deal = Deal.from_record(vector.record_of(self.state, self.rules))
        try:
            deal.check(action)
        except IllegalActionError as e:
            return str(e)
        return f"'{Action.from_id(action)}' is not legal"  # pragma: no cover - the core agrees

    # -- what a seat sees ------------------------------------------------------------------
    def observe(self, seat: int) -> Float32Array:
        """What RULES §12 lets ``seat`` know, as float32 (:func:`observation_layout`).

        >>> from euchre import Rules
        >>> table = Episode(Rules(players=4))
        >>> table.reset(seed=1)
        >>> table.observe(0).shape, table.observe(0).dtype
        ((522,), dtype('float32'))
        """
        return self.observe_with_mask(seat)[0]

    def observe_with_mask(self, seat: int) -> tuple[Float32Array, Int8Array]:
        """:meth:`observe` and the seat's legal actions (all zeros unless it is to move).

        >>> from euchre import Rules
        >>> table = Episode(Rules(players=4))
        >>> table.reset(seed=1)
        >>> _, mask = table.observe_with_mask(table.to_move)
        >>> _, other = table.observe_with_mask((table.to_move + 1) % 4)
        >>> int(mask.sum()), int(other.sum())
        (3, 0)
        """
        obs = np.zeros(self._size, dtype=np.float32)
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        _observe(self.state, seat, self._offsets, self._game_at, self.scores,
                 self.rules.target, self.games_won, obs, mask)
        return obs, mask

    def legal_mask(self) -> Int8Array:
        """The legal actions of the seat to move, ``int8`` over the action space.

        >>> from euchre import Action, Rules
        >>> table = Episode(Rules(players=4))
        >>> table.reset(seed=1)
        >>> [str(Action.from_id(int(i))) for i in table.legal_mask().nonzero()[0]]
        ['pass', 'order', 'order alone']
        """
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.over:
            base, bits = core.legal_bits(self.state)
            for i in range(33):
                if bits >> i & 1:
                    mask[base + i] = 1
        return mask

    def points(self) -> list[int]:
        """Each seat's points over the episode so far (four-handed: its side's).

        >>> from euchre import Rules
        >>> table = Episode(Rules(players=2, target=3, stick_the_dealer=True), episode="game")
        >>> table.reset(seed=2)
        >>> while not table.over:
        ...     _ = table.act(int(table.legal_mask().nonzero()[0][0]))
        >>> table.points(), table.to_move
        ([0, 3], -1)
        """
        total = np.zeros(self.rules.players, dtype=np.int64)
        for game in self._games:
            for st in game:
                core.points(st, self._points)
                total += self._points[:self.rules.players]
        return [int(x) for x in total]

    # -- records ---------------------------------------------------------------------------
    def records(self) -> list[DealRecord | GameRecord]:
        """The episode as RECORDS records: a deal episode, its deal record; a game episode,
        its game record (one per game of a rubber).  An unfinished deal is included with
        the actions so far.  Their ``to_json()`` is what ``euchre replay`` reads."""
        if self.episode == "deal":
            return [vector.record_of(self.state, self.rules)]
        out: list[DealRecord | GameRecord] = []
        for k, states in enumerate(self._games):
            deals = [Deal.from_record(vector.record_of(st, self.rules)) for st in states]
            last = k == len(self._games) - 1
            if last and not self.over:
                deals.append(Deal.from_record(vector.record_of(self.state, self.rules)))
            if deals:
                out.append(game_record(Game.from_deals(self.rules, deals)))
        return out

    def render(self) -> str:
        """The table in RECORDS notation: the rules, the score, every hand now, the turn-up,
        the actions so far and who is to move with what."""
        deal = Deal.from_record(vector.record_of(self.state, self.rules))
        p = self.rules.players
        lines = [f"{self.rules!r}; dealer: seat {deal.dealer}"]
        if self.episode == "game":
            score = " ".join(str(int(s)) for s in self.scores)
            lines.append(f"score: {score} (target {self.rules.target})")
            if self.rules.rubber:
                lines.append("games won: " + " ".join(str(int(g)) for g in self.games_won))
        for s in range(p):
            hand = " ".join(str(c) for c in deal.hand(s))
            out = " (sits out)" if s in deal.sitting_out else ""
            lines.append(f"seat {s}: {hand}{out}")
        if deal.dealt_dummy is not None:
            dummy = " ".join(str(c) for c in cards_of(deal.dealt_dummy))
            lines.append(f"dummy (as dealt): {dummy}")
        lines.append(f"turn-up: {deal.turnup}")
        lines.append("actions: " + (", ".join(str(a) for a in deal.actions) or "none yet"))
        if deal.is_over:
            points = " ".join(str(x) for x in deal.result.points)
            lines.append(f"over: points {points}")
        else:
            legal = ", ".join(str(a) for a in deal.legal_actions())
            lines.append(f"seat {deal.to_move} to move: {legal}")
        return "\n".join(lines)


def show(table: Episode, render_mode: str | None, warn: Callable[[str], None]) -> str | None:
    """``render()`` of both environments: ``"ansi"`` returns the table's text,
    ``"human"`` prints it, and no render mode warns through the library's logger."""
    if render_mode is None:
        warn("render() was called without a render_mode: make the environment with "
             "render_mode='ansi' or 'human'")
        return None
    text = table.render()
    if render_mode == "human":
        print(text)
        return None
    return text
