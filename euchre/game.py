"""Games to a target, rubbers, and the four-handed draw (RULES §3, §10, §11).

A :class:`Game` deals until someone reaches the target, the dealer moving left after
every deal (a thrown-in deal included).  Scores are kept per seat; in four-handed both
partners carry their side's score.  A :class:`Rubber` plays games until a side has won
two; a :class:`Match` is whichever of the two the rules ask for, with who sits where and
every action taken (what a table of the web server plays).

>>> game = Game(Rules(players=2, target=3, stick_the_dealer=True), seed=3)
>>> while not game.is_over:
...     _ = game.apply(game.deal.legal_action_ids()[0])
>>> game.winners, game.scores
((1,), (2, 4))
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from euchre.actions import Action
from euchre.cards import CARDS, Card, pack_mask
from euchre.deal import Deal, DealResult, IllegalActionError
from euchre.rules import Rules

__all__ = ["Draw", "Game", "Match", "Rubber", "draw_for_partners", "rubber_points",
           "winners_of"]

# For the draw the order is K (high), Q, J, 10, 9, 8, 7, A (low) (RULES §11).
_DRAW_ORDER: Final = {7: 0, 0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7}  # rank -> draw value


@dataclass(frozen=True, slots=True)
class Draw:
    """The four-handed draw for partners and the first deal (RULES §11).

    ``rounds[k][p]`` is the card player ``p`` drew in round ``k`` (``None`` when ``p``
    was not tied and did not draw again).  ``seats[s]`` is the player who sits at
    seat ``s``: the two lowest at seats 0 and 2 (partners, the lowest deals first, at
    seat 0), the two highest at seats 1 and 3.

    Here player 3 drew the ace (lowest for the draw) and deals, partnered with player 0's
    ten; the king (player 2) is highest:

    >>> draw = draw_for_partners(random.Random(2), Rules(players=4, draw=True))
    >>> [str(card) for card in draw.rounds[0]], draw.seats, draw.dealer
    (['TC', 'JC', 'KS', 'AD'], (3, 1, 0, 2), 0)
    """

    rounds: tuple[tuple[Card | None, ...], ...]
    seats: tuple[int, ...]
    dealer: int = 0


def draw_for_partners(rng: random.Random, rules: Rules) -> Draw:
    """Each player draws from the spread pack; equal cards draw again (RULES §11).

    The joker, if in the pack, is set aside for the draw: it has no place in the
    draw's order.  The same generator state draws the same cards:

    >>> rules = Rules(players=4, draw=True, joker=True)
    >>> draw_for_partners(random.Random(7), rules) == draw_for_partners(random.Random(7), rules)
    True
    >>> sorted(draw_for_partners(random.Random(7), rules).seats)
    [0, 1, 2, 3]
    """
    pack = [c for c in range(32) if pack_mask(rules.deck, False) >> c & 1]
    rng.shuffle(pack)
    rounds: list[list[Card | None]] = []
    # order[p]: the sequence of draw values, compared lexicographically
    keys: dict[int, list[int]] = {p: [] for p in range(4)}
    to_draw = [0, 1, 2, 3]
    while to_draw:
        row: list[Card | None] = [None] * 4
        for p in to_draw:
            if not pack:
                raise RuntimeError("the draw ran out of cards")  # pragma: no cover
            card = pack.pop()
            row[p] = CARDS[card]
            keys[p].append(_DRAW_ORDER[card & 7])
        rounds.append(row)
        # players whose whole sequence so far ties with another's draw again
        to_draw = [p for p in range(4)
                   if any(q != p and keys[q] == keys[p] for q in range(4))]
    ranked = sorted(range(4), key=lambda p: keys[p])  # lowest first
    seats = (ranked[0], ranked[2], ranked[1], ranked[3])
    return Draw(tuple(tuple(r) for r in rounds), seats, 0)


def rubber_points(loser_score: int) -> int:
    """Rubber points for a game won: 3 if the losers had 0 or less, 2 for 1-2, 1 for 3+
    (RULES §11).

    >>> [rubber_points(losers) for losers in (-2, 0, 1, 2, 3, 9)]
    [3, 3, 2, 2, 1, 1]
    """
    if loser_score <= 0:
        return 3
    return 2 if loser_score <= 2 else 1


def winners_of(scores: Sequence[int], target: int) -> tuple[int, ...]:
    """The seats that won: the highest score at or past the target, ties sharing the win
    (RULES §10); none while nobody has reached the target.

    >>> winners_of([10, 11, 11], 10), winners_of([9, 3], 10)
    ((1, 2), ())
    """
    best = max(scores)
    if best < target:
        return ()
    return tuple(s for s, v in enumerate(scores) if v == best)


class Game:
    """Deals until the target (RULES §10).  Drive it with :meth:`apply`, or drive
    ``game.deal`` and call :meth:`next_deal` when it is over."""

    def __init__(
        self,
        rules: Rules,
        seed: int | random.Random | None = None,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        n = rules.players
        self.draw: Draw | None = None
        if dealer is None:
            if rules.draw:
                self.draw = draw_for_partners(self.rng, rules)
                dealer = self.draw.dealer
            else:
                dealer = self.rng.randrange(n)  # RULES §3: first dealer at random
        if not 0 <= dealer < n:
            raise ValueError(f"the dealer is a seat from 0 to {n - 1}, not {dealer}")
        self.first_dealer = dealer
        self._scores = list(scores) if scores is not None else [0] * n
        self.deals: list[Deal] = []
        self.deal = Deal.random(rules, dealer, self.rng, scores=self._scores)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per seat (four-handed: both partners show their side's points).

        >>> Game(Rules(players=4), seed=1, scores=[3, 1, 3, 1]).scores
        (3, 1, 3, 1)
        """
        return tuple(self._scores)

    @property
    def dealer(self) -> int:
        """The dealer of the current deal: the first at random (RULES §3), then the next
        seat to the left after every deal.

        >>> game = Game(Rules(players=2, stick_the_dealer=True), seed=1)
        >>> first = game.dealer
        >>> while not game.deal.is_over:
        ...     _ = game.deal.apply(game.deal.legal_action_ids()[-1])
        >>> _ = game.next_deal()
        >>> game.dealer == (first + 1) % 2
        True
        """
        return self.deal.dealer

    @property
    def is_over(self) -> bool:
        """Someone reached the target.

        >>> Game(Rules(players=3, target=5), seed=1, scores=[5, 2, 0]).is_over
        True
        """
        return max(self._scores) >= self.rules.target

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats: the highest score at or past the target; ties share (§10).
        Four-handed, both partners win.

        >>> Game(Rules(players=4), seed=1, scores=[11, 6, 11, 6]).winners
        (0, 2)
        >>> Game(Rules(players=4), seed=1).winners
        ()
        """
        return winners_of(self._scores, self.rules.target)

    @classmethod
    def from_deals(cls, rules: Rules, deals: Sequence[Deal]) -> Game:
        """The game made of deals played elsewhere (a record, the compiled core): the first
        deal's dealer deals first, the deal passes left, each finished deal's points are
        added in turn (RULES §3, §9, §10).  Only the last deal may be unfinished.

        Raises ``ValueError`` when the deals cannot be one game: a dealer out of turn, a
        deal after the game was won, an unfinished deal before the last.

        >>> game = Game(Rules(players=2, target=3, stick_the_dealer=True), seed=3)
        >>> while not game.is_over:
        ...     _ = game.apply(game.deal.legal_action_ids()[0])
        >>> Game.from_deals(game.rules, game.deals).scores == game.scores
        True
        >>> Game.from_deals(game.rules, [game.deals[0], game.deals[2]])
        Traceback (most recent call last):
          ...
        ValueError: deal 2 is dealt by seat 0, not seat 1: the deal passes left (RULES §3)
        """
        if not deals:
            raise ValueError("a game needs at least one deal")
        n = rules.players
        game = cls(rules, seed=0, dealer=deals[0].dealer)
        for k, deal in enumerate(deals):
            if game.is_over:
                raise ValueError(f"deal {k + 1} comes after the game was won (RULES §10)")
            if deal.dealer != (game.first_dealer + k) % n:
                raise ValueError(f"deal {k + 1} is dealt by seat {deal.dealer}, not seat "
                                 f"{(game.first_dealer + k) % n}: the deal passes left "
                                 f"(RULES §3)")
            deal.scores = game.scores
            game.deal = deal
            if deal.is_over:
                game.add_points(deal.result)
                game.deals.append(deal)
            elif k < len(deals) - 1:
                raise ValueError(f"deal {k + 1} is unfinished but more deals follow it")
        return game

    @property
    def at_the_bridge(self) -> int | None:
        """Four-handed game to 5: the side (0 or 1) with 4 while the other has 2 or less
        (RULES §10); ``None`` otherwise.

        >>> rules = Rules(players=4, target=5)
        >>> Game(rules, seed=1, scores=[2, 4, 2, 4]).at_the_bridge
        1
        >>> Game(rules, seed=1, scores=[3, 4, 3, 4]).at_the_bridge is None
        True
        """
        if self.rules.players != 4 or self.rules.target != 5:
            return None
        for side in (0, 1):
            if self._scores[side] == 4 and self._scores[1 - side] <= 2:
                return side
        return None

    def apply(self, action: Action | int | str, seat: int | None = None) -> DealResult | None:
        """Apply an action to the current deal; when it ends, score it and deal the next.

        ``seat``, when given, must be the seat to move (:meth:`Deal.apply`).  Returns the
        finished deal's result, else ``None``.

        >>> game = Game(Rules(players=2, stick_the_dealer=True), seed=1)
        >>> results = [game.apply(game.deal.legal_action_ids()[-1]) for _ in range(3)]
        >>> results, len(game.deals)
        ([None, None, None], 0)
        """
        if self.is_over:
            raise ValueError("the game is over (RULES §10): no action is legal")
        self.deal.apply(action, seat)
        if self.deal.is_over:
            return self.next_deal()
        return None

    def next_deal(self) -> DealResult:
        """Score the finished current deal and, unless the game is over, deal the next.
        For a caller that drives ``game.deal`` itself.

        >>> game = Game(Rules(players=2, stick_the_dealer=True), seed=1)
        >>> while not game.deal.is_over:
        ...     _ = game.deal.apply(game.deal.legal_action_ids()[-1])
        >>> result = game.next_deal()
        >>> result.points, game.scores, len(game.deals), game.deal.is_over
        ((0, 1), (0, 1), 1, False)
        """
        deal = self.deal
        if not deal.is_over:
            raise ValueError("the current deal is not over")
        result = deal.result
        self.add_points(result)
        self.deals.append(deal)
        if not self.is_over:
            dealer = (deal.dealer + 1) % self.rules.players  # the deal passes left (RULES §3)
            self.deal = Deal.random(self.rules, dealer, self.rng, scores=self._scores)
        return result

    def add_points(self, result: DealResult) -> None:
        """Add a deal's points to the score."""
        for s, p in enumerate(result.points):
            self._scores[s] += p


class Rubber:
    """Four-handed: the first side to win two games wins the rubber (RULES §11).

    Sides are 0 (seats 0 and 2) and 1 (seats 1 and 3).  Side 0 wins this rubber two
    games to one; the games won at 10-2 and at 12-6 are worth 2 and 1 rubber points, the
    one lost at 6-11 gives side 1 one point, and the margin is 2 + 3 - 1:

    >>> rubber = Rubber(Rules(players=4), seed=5)
    >>> while not rubber.is_over:
    ...     _ = rubber.apply(rubber.game.deal.legal_action_ids()[-1])
    >>> [game.scores[:2] for game in rubber.games]
    [(10, 2), (6, 11), (12, 6)]
    >>> rubber.games_won, rubber.rubber_points, rubber.winner, rubber.margin
    ((2, 1), (3, 1), 0, 4)
    """

    def __init__(self, rules: Rules, seed: int | random.Random | None = None) -> None:
        if rules.players != 4:
            raise ValueError("rubbers belong to four-handed euchre (RULES §11)")
        self.rules = rules
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.games: list[Game] = []
        self.game = Game(rules, self.rng)
        self.draw = self.game.draw

    @property
    def games_won(self) -> tuple[int, int]:
        """Games won by each side."""
        won = [0, 0]
        for g in self.games:
            won[g.winners[0] % 2] += 1
        return won[0], won[1]

    @property
    def is_over(self) -> bool:
        """A side has won two games."""
        return max(self.games_won) >= 2

    @property
    def rubber_points(self) -> tuple[int, int]:
        """Rubber points per side: 3, 2 or 1 per game won by the losers' score (§11)."""
        pts = [0, 0]
        for g in self.games:
            side = g.winners[0] % 2
            pts[side] += rubber_points(g.scores[1 - side])
        return pts[0], pts[1]

    @property
    def winner(self) -> int | None:
        """The side that won the rubber."""
        won = self.games_won
        return None if not self.is_over else (0 if won[0] > won[1] else 1)

    @property
    def margin(self) -> int:
        """2 (bonus) + the winners' rubber points − the losers' (RULES §11)."""
        w = self.winner
        if w is None:
            raise ValueError("the rubber is not over")
        pts = self.rubber_points
        return 2 + pts[w] - pts[1 - w]

    def apply(self, action: Action | int | str, seat: int | None = None) -> DealResult | None:
        """Apply an action in the current game (``seat``, when given, must be the seat to
        move); a won game starts the next one."""
        if self.is_over:
            raise ValueError("the rubber is over (RULES §11): no action is legal")
        result = self.game.apply(action, seat)
        if self.game.is_over:
            self.games.append(self.game)
            if not self.is_over:
                dealer = (self.game.deals[-1].dealer + 1) % 4
                self.game = Game(self.rules, self.rng, dealer=dealer)
        return result



class Match:
    """One game, or four-handed with ``rules.rubber`` a rubber of games (RULES §10, §11),
    dealt from one seed: a :class:`Game` or a :class:`Rubber` behind one interface, with
    who sits where and every action taken, in order.

    The same seed and the same actions give the same match, so a match is stored as its
    seed and its actions, and rebuilt by applying them again.  Four-handed with the draw,
    the draw seats the players (RULES §11): :attr:`place_at` says which player (place)
    sits at each seat.  A rubber to 5 points, played to its end:

    >>> match = Match(Rules(players=4, target=5, rubber=True), seed=7)
    >>> while not match.is_over:
    ...     _ = match.apply(match.game.deal.legal_action_ids()[-1])
    >>> [game.scores[:2] for game in match.games], match.result()["rubber"]
    ([(2, 6), (2, 5)], {'winner': 1, 'margin': 6, 'points': [0, 4]})
    >>> match.seq == sum(len(deal.actions) for game in match.games for deal in game.deals)
    True
    """

    def __init__(self, rules: Rules, seed: int, number: int = 1) -> None:
        self.rules = rules
        self.seed = seed
        """The seed every deal of the match is shuffled from."""
        self.number = number
        """Which match this is of those the same players play in turn (rematches), from 1."""
        self.rubber = Rubber(rules, seed) if rules.rubber else None
        """The rubber being played; ``None`` for a single game."""
        self._game = None if self.rubber is not None else Game(rules, seed)
        self.actions: list[tuple[int, str]] = []
        """Every action applied, in order: the seat that took it and its RECORDS text."""
        self.last_deal: tuple[int, Deal] | None = None
        """The most recently finished deal, with the index of its game in :attr:`games`."""
        draw = self.games[0].draw
        self.place_at: tuple[int, ...] = (
            tuple(draw.seats) if draw is not None else tuple(range(rules.players)))
        """``place_at[seat]``: the place (player) at each seat; the draw decides (§11)."""
        self.seat_of: dict[int, int] = {p: s for s, p in enumerate(self.place_at)}
        """``seat_of[place]``: the seat of each place (player)."""

    @property
    def game(self) -> Game:
        """The game being played (the last one, once the match is over)."""
        if self.rubber is not None:
            return self.rubber.game
        assert self._game is not None
        return self._game

    @property
    def games(self) -> list[Game]:
        """Every game of the match so far, the current one included."""
        if self.rubber is None:
            return [self.game]
        done = self.rubber.games
        return done if done and done[-1] is self.rubber.game else [*done, self.rubber.game]

    @property
    def is_over(self) -> bool:
        """The game (or the rubber) is won."""
        return self.rubber.is_over if self.rubber is not None else self.game.is_over

    @property
    def seq(self) -> int:
        """The number of actions applied: the version of the match's state."""
        return len(self.actions)

    def apply(self, action: Action | int | str, seat: int | None = None) -> DealResult | None:
        """Apply the action of the seat to move (``seat``, when given, must be it);
        returns the finished deal's result, if one ended.  The game scores a finished
        deal and deals the next; a rubber starts its next game after a won one (RULES
        §10, §11).

        Raises :class:`~euchre.deal.IllegalActionError` (changing nothing) once the match
        is over, if it is not ``seat``'s turn, or if the rules refuse the action; an
        action that is no action at all raises
        :class:`~euchre.actions.InvalidActionError`.

        >>> match = Match(Rules(players=2), seed=1)
        >>> match.apply('order', seat=match.game.deal.dealer)
        Traceback (most recent call last):
          ...
        euchre.deal.IllegalActionError: it is seat 1's turn, not seat 0's (bidding, round 1)
        """
        if self.is_over:
            raise IllegalActionError("the game is over (RULES §10): no action is legal")
        if not isinstance(action, Action):
            action = Action.parse(action) if isinstance(action, str) else Action.from_id(action)
        game = self.game
        index = len(self.games) - 1
        deal = game.deal
        mover = deal.to_move
        assert mover is not None  # a deal that is not over has a seat to move
        played = self.rubber if self.rubber is not None else game
        result = played.apply(action, seat)
        self.actions.append((mover, str(action)))
        if result is not None:
            self.last_deal = (index, deal)
        return result

    def result(self) -> dict[str, Any]:
        """Scores and winners of each game, and the rubber's outcome, as plain data (the
        form the server stores).

        >>> match = Match(Rules(players=2, target=3, stick_the_dealer=True), seed=3)
        >>> while not match.is_over:
        ...     _ = match.apply(match.game.deal.legal_action_ids()[0])
        >>> match.result()
        {'games': [{'scores': [2, 4], 'winners': [1]}]}
        """
        out: dict[str, Any] = {
            "games": [{"scores": list(g.scores), "winners": list(g.winners)}
                      for g in self.games],
        }
        if self.rubber is not None and self.rubber.is_over:
            out["rubber"] = {"winner": self.rubber.winner, "margin": self.rubber.margin,
                             "points": list(self.rubber.rubber_points)}
        return out
