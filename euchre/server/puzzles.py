"""Puzzles in the web app: the position in the table's state shape, the puzzle served
(near a rating, the day's, the streak's), and the judgement of an answer.

The page draws a puzzle's position with the table's own drawing code, so the position is
sent as the WebSocket's ``state`` message would be for the puzzle's seat
(:func:`puzzle_state`, built by :func:`~euchre.server.views.deal_view` from the seat's
observation: RULES §12 holds by construction).  What is sent before the attempt is that
and the puzzle's id and rating: never its answer, values or themes (a theme such as
"trump lead" would give the answer away).  :func:`judge_answer` gives them after, with the
player's new rating by the terminal's own Glicko-2 code (:mod:`euchre.puzzles.rating`).
"""

from __future__ import annotations

import datetime
import functools
import random
from collections.abc import Sequence
from typing import Any

from euchre.actions import Action
from euchre.deal import Deal
from euchre.puzzles import (
    Puzzle,
    count_themes,
    daily,
    make_puzzle,
    nearest,
    reasons,
    shipped,
)
from euchre.puzzles.rating import Rating, rate
from euchre.records import Record, replay
from euchre.rules import Rules
from euchre.server import views

__all__ = ["by_id", "daily_puzzle", "house_rules", "judge_answer", "legal_here", "mistake_puzzle",
           "next_puzzle", "puzzle_state", "served", "streak_puzzle", "theme_counts"]


def puzzle_state(puzzle: Puzzle) -> dict[str, Any]:
    """The position as the table's ``state`` message for the puzzle's seat: the table's
    page draws it as it draws a game (the seats' names are the page's)."""
    deal = puzzle.deal()
    rules = Rules.from_dict(puzzle.rules)
    n = rules.players
    seats = [{"seat": s, "place": s, "name": "", "kind": "person", "bot": None, "open": False,
              "claimed": True, "invited": False, "connected": True, "away": False,
              "muted": False} for s in range(n)]
    return {
        "type": "state", "seq": 0, "you": puzzle.seat, "over": False,
        "table": {"id": "puzzle", "name": "", "rules": rules.to_dict(),
                  "variant": rules.variant,
                  "partners": [rules.partner_of(s) for s in range(n)], "seats": seats,
                  "hint": False, "match": 1, "matches": 1, "turn_timer": None,
                  "private": True, "started": True, "watching": 0, "host": False},
        "game": {"index": 0, "deal": 0, "scores": [0] * n, "target": rules.target,
                 "over": False, "winners": [], "bridge": None, "first_dealer": deal.dealer,
                 "draw": None},
        "rubber": None, "last_deal": None, "reading": [], "clock": None,
        "deal": views.deal_view(deal, puzzle.seat), "last_text": None,
    }


def served(puzzle: Puzzle) -> dict[str, Any]:
    """What the page gets before the attempt: the id, the variant, the rating and the
    position (no answer, values or themes)."""
    return {"id": puzzle.id, "players": puzzle.players, "rating": puzzle.rating,
            "state": puzzle_state(puzzle), "house_rules": house_rules(puzzle)}


def house_rules(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The options of the puzzle's deal that differ from the variant's defaults
    (:meth:`Rules.house_rules <euchre.rules.Rules.house_rules>`), each ``{"option",
    "value"}`` in the order of the options' table: the page names them above the position.

    >>> house_rules(Puzzle(rules=Rules(players=4, stick_the_dealer=True, target=5).to_dict(),
    ...                    record={}, seat=0, answer="pass", values={}, themes=(), rating=1500))
    [{'option': 'stick_the_dealer', 'value': True}]
    """
    return [{"option": name, "value": value}
            for name, value in Rules.from_dict(puzzle.rules).house_rules().items()]


@functools.cache
def _by_id(players: int) -> dict[str, Puzzle]:
    return {p.id: p for p in shipped(players)}


def by_id(players: int, puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle of the variant with that id, if any."""
    return _by_id(players).get(puzzle_id)


@functools.cache
def theme_counts(players: int) -> dict[str, int]:
    """How many shipped puzzles of the variant have each theme, in the order of
    :data:`~euchre.puzzles.THEMES` (a theme none has is left out): the page offers these.

    >>> from euchre.puzzles import THEMES
    >>> counts = theme_counts(4)
    >>> counts["bid"] > 0 and set(counts) <= set(THEMES)
    True
    """
    return count_themes(shipped(players))


def next_puzzle(players: int, rating: float, themes: Sequence[str], skip: Sequence[str],
                rng: random.Random) -> Puzzle | None:
    """A shipped puzzle near ``rating`` with every theme of ``themes``, not one of
    ``skip`` while others remain (:func:`euchre.puzzles.nearest`)."""
    return nearest(shipped(players), rating, rng, wanted=themes, skip=skip)


def daily_puzzle(players: int, day: datetime.date) -> Puzzle | None:
    """The day's puzzle of the variant, the same for everyone (and the terminal's)."""
    return daily(shipped(players), day)


def streak_puzzle(players: int, step: int) -> Puzzle | None:
    """The streak's puzzle number ``step`` (from 0): the shipped puzzles from the easiest
    up, as the terminal's streak; ``None`` past the last."""
    ordered = sorted(shipped(players), key=lambda p: (p.rating, p.id))
    return ordered[step] if 0 <= step < len(ordered) else None


def judge_answer(puzzle: Puzzle, action: Action, player: Rating) -> dict[str, Any]:
    """The judgement of ``action`` (legal at the position): solved or not, the answer,
    every legal action's value best first, the reasons' facts, the themes, and the
    player's rating before and after."""
    obs = puzzle.observation()
    answer = Action.parse(puzzle.answer)
    solved = puzzle.solved_by(action)
    after = rate(player, puzzle.rating, solved)
    ranked = sorted(puzzle.values.items(), key=lambda av: -av[1])
    return {
        "id": puzzle.id, "solved": solved, "chosen": str(action), "answer": puzzle.answer,
        "values": [{"action": a, "value": v} for a, v in ranked],
        "facts": reasons(obs, answer).to_json(), "themes": list(puzzle.themes),
        "puzzle_rating": puzzle.rating,
        "before": player.to_json(), "rating": after.to_json(),
    }


def legal_here(puzzle: Puzzle, action: Action) -> bool:
    """Whether ``action`` is legal for the puzzle's seat at its position."""
    deal: Deal = puzzle.deal()
    return deal.to_move == puzzle.seat and action in deal.legal_actions()


def mistake_puzzle(review: dict[str, Any], records: Sequence[Record], k: int
                   ) -> Puzzle | None:
    """The puzzle of decision ``k`` of a web review (:func:`~.review.review_match`) when
    it was a mistake: the position before it, the expert's values and choice; ``None``
    for no such decision or one that was no mistake."""
    decisions = review["decisions"]
    if not 0 <= k < len(decisions) or not decisions[k]["mistake"]:
        return None
    d = decisions[k]
    final = list(replay(records[d["game"]]))[d["deal"]].deal
    deal = Deal.from_record(final.to_record(), apply_actions=False)
    for action in final.actions[:d["index"]]:
        deal.apply(action)
    values = {Action.parse(v["action"]): float(v["value"]) for v in d["values"]}
    return make_puzzle(deal, int(review["seat"]), values, Action.parse(d["best"]))
