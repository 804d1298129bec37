"""Ratings of players against puzzles: Glicko-2, by the ``glicko2`` library.

Every attempt is a rated game between the player and the puzzle: solved, the player won.
A player's rating, deviation and volatility are kept per variant (the terminal keeps them
in its settings file, :mod:`euchre.cli.puzzle`).  A puzzle's rating, taken to have the
deviation :data:`PUZZLE_RD`, is its starting rating: the maker rates each puzzle by how
the bots solve it (:func:`rated_by_bots`): every bot attempt is a rated game between a
bot of a fixed rating (:data:`BOT_RATINGS`) and the puzzle, which wins when the bot
misses it.

>>> after = rate(Rating(), 1500, solved=True)
>>> after.rating > 1500, after.rd < 350
(True, True)
>>> rate(Rating(), 1500, solved=False).rating < 1500
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import glicko2

if TYPE_CHECKING:
    from euchre.puzzles import Puzzle

__all__ = ["BOT_RATINGS", "BOT_RD", "PUZZLE_RD", "Rating", "bot_attempts", "rate",
           "rated_by_bots", "rating_of_attempts"]

PUZZLE_RD: Final = 80.0
"""The rating deviation a puzzle is taken to have."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating: the rating, its deviation and the volatility (a new
    player's are Glicko-2's defaults)."""

    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06

    def to_json(self) -> dict[str, float]:
        """The plain object kept in the settings."""
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2),
                "vol": round(self.vol, 6)}

    @classmethod
    def from_json(cls, data: Any) -> Rating:
        """A rating from :meth:`to_json`'s object; a new player's for anything else."""
        try:
            return cls(float(data["rating"]), float(data["rd"]), float(data["vol"]))
        except (TypeError, KeyError, ValueError):
            return cls()


def rate(player: Rating, puzzle_rating: float, solved: bool) -> Rating:
    """The player's rating after one attempt at a puzzle rated ``puzzle_rating``."""
    one = glicko2.Player(rating=player.rating, rd=player.rd, vol=player.vol)
    one.update_player([puzzle_rating], [PUZZLE_RD], [1.0 if solved else 0.0])
    return Rating(float(one.rating), float(one.rd), float(one.vol))


BOT_RATINGS: Final = {"random": 1000.0, "basic": 1300.0, "intermediate": 1600.0,
                      "expert": 1900.0}
"""The fixed ratings of the bots that rate a puzzle, weakest first: anchors a few hundred
points apart (the levels' order, docs/benchmarks.md "The levels"), not measured."""
BOT_RD: Final = 30.0
"""The rating deviation a bot is taken to have (it is a fixed anchor)."""
INTERMEDIATE_TRIES: Final = 8
"""Attempts by the ``intermediate`` bot (seeded apart: its noise makes it vary)."""


def rating_of_attempts(attempts: list[tuple[str, float]]) -> int:
    """A puzzle's rating from bot attempts ``(bot, solved)`` (``solved`` 1 or 0, or the
    share of a try that solved it): one Glicko-2 rating period of a new puzzle against
    bots of :data:`BOT_RATINGS`, the puzzle winning what the bot missed.

    >>> easy = rating_of_attempts([("random", 1), ("basic", 0), ("intermediate", 1)])
    >>> hard = rating_of_attempts([("random", 0), ("basic", 0), ("intermediate", 0)])
    >>> easy < 1500 < hard
    True
    """
    puzzle = glicko2.Player()
    puzzle.update_player([BOT_RATINGS[b] for b, _ in attempts], [BOT_RD] * len(attempts),
                         [1.0 - float(solved) for _, solved in attempts])
    return round(float(puzzle.rating))


def bot_attempts(puzzle: Puzzle) -> list[tuple[str, float]]:
    """How the bots solve ``puzzle``: ``random`` once for every legal action (each try
    solves it or not), ``basic`` once (it misses every puzzle the maker keeps: the answer is
    not its choice), ``intermediate`` :data:`INTERMEDIATE_TRIES` times at 16 worlds with
    seeds of the puzzle's id, and the expert's hint once
    (:func:`euchre.bots.opinion.expert_opinion`, a hint's worlds).  The same attempts for
    a puzzle on any machine."""
    from euchre.bots import make_bot
    from euchre.bots.opinion import expert_opinion

    obs = puzzle.observation()
    attempts: list[tuple[str, float]] = [
        ("random", float(puzzle.solved_by(a))) for a in obs.legal_actions]
    attempts.append(("basic", float(puzzle.solved_by(make_bot("basic", 0).act(obs)))))
    for k in range(INTERMEDIATE_TRIES):
        bot = make_bot("intermediate:16", random.Random(f"{puzzle.id}/{k}"))
        attempts.append(("intermediate", float(puzzle.solved_by(bot.act(obs)))))
    attempts.append(("expert", float(puzzle.solved_by(expert_opinion(obs).best))))
    return attempts


def rated_by_bots(puzzle: Puzzle) -> int:
    """The starting rating of ``puzzle`` from the bots' attempts at it
    (:func:`bot_attempts`, :func:`rating_of_attempts`)."""
    return rating_of_attempts(bot_attempts(puzzle))
