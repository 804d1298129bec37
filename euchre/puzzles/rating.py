"""Ratings of players against puzzles: Glicko-2, by the ``glicko2`` library.

Every attempt is a rated game between the player and the puzzle: solved, the player won.
A player's rating, deviation and volatility are kept per variant (the terminal keeps them
in its settings file, :mod:`euchre.cli.puzzle`).  A puzzle's rating is its starting rating
(:func:`euchre.puzzles.starting_rating`) with the deviation :data:`PUZZLE_RD`.

>>> after = rate(Rating(), 1500, solved=True)
>>> after.rating > 1500, after.rd < 350
(True, True)
>>> rate(Rating(), 1500, solved=False).rating < 1500
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import glicko2

__all__ = ["PUZZLE_RD", "Rating", "rate"]

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
