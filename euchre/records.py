"""Deal and game records (RECORDS.md): write them, read them, replay them.

A deal record holds the rules, the cards as dealt and the actions; a game record holds
the rules, the seats and the list of deal records with the running score.

>>> from euchre.game import Game
>>> game = Game(Rules(players=2, target=2, stick_the_dealer=True), seed=1)
>>> while not game.is_over:
...     _ = game.apply(game.deal.legal_action_ids()[-1])
>>> record = game_record(game, ["North", "South"])
>>> [r.summary["points"] for r in replay(record)]
[[0, 1], [1, 0], [2, 0]]
>>> game.scores
(3, 1)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from euchre.deal import Deal
from euchre.game import Game
from euchre.rules import Rules

__all__ = [
    "RecordError",
    "Replayed",
    "game_record",
    "parse_records",
    "replay",
    "replay_text",
]


class RecordError(ValueError):
    """A malformed record, or an action in it that the rules refuse.

    ``deal`` and ``action`` are the 0-based indexes of the offending deal and action
    (``action`` is ``None`` when the fault is not in an action).
    """

    def __init__(self, message: str, deal: int = 0, action: int | None = None) -> None:
        super().__init__(message)
        self.deal = deal
        self.action = action


@dataclass(frozen=True, slots=True)
class Replayed:
    """One replayed deal: the final state and its RECORDS summary object."""

    deal: Deal
    summary: dict[str, Any]
    score: tuple[int, ...] | None = field(default=None)
    """The running game score after this deal (game records only)."""


def game_record(game: Game, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of a game: rules, seats, first dealer, the deals with the running score."""
    n = game.rules.players
    deals = []
    running = [0] * n
    for deal in [*game.deals, *([] if game.deal in game.deals else [game.deal])]:
        rec = deal.to_record()
        del rec["rules"]  # the game's rules apply to every deal
        if deal.is_over:
            for s, p in enumerate(deal.result.points):
                running[s] += p
            rec["score"] = list(running)
        deals.append(rec)
    out: dict[str, Any] = {
        "rules": game.rules.to_dict(),
        "seats": list(seats) if seats is not None else [f"seat {s}" for s in range(n)],
        "first_dealer": game.first_dealer,
        "deals": deals,
        "scores": list(game.scores),
        "winners": list(game.winners),
    }
    if game.draw is not None:
        out["draw"] = {
            "rounds": [[None if c is None else str(c) for c in row] for row in game.draw.rounds],
            "seats": list(game.draw.seats),
        }
    return out


def parse_records(text: str) -> list[dict[str, Any]]:
    """The records of a file: one JSON object, a JSON list of them, or JSON lines."""
    stripped = text.strip()
    if not stripped:
        raise RecordError("the file holds no record")
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError:
        data = None
        records = []
        for number, line in enumerate(stripped.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise RecordError(f"line {number} is not JSON: {e.msg}") from None
        data = records
    items = data if isinstance(data, list) else [data]
    for k, item in enumerate(items):
        if not isinstance(item, dict):
            raise RecordError(f"record {k} is not a JSON object", deal=k)
    return items


def _summary(deal: Deal) -> dict[str, Any]:
    return deal.result.to_json()


def _replay_deal(record: dict[str, Any], index: int, rules: Rules | None) -> Deal:
    data = dict(record)
    if rules is not None and "rules" not in data:
        data["rules"] = rules.to_dict()
    try:
        deal = Deal.from_record(data, apply_actions=False)
    except ValueError as e:
        raise RecordError(f"deal {index}: {e}", deal=index) from None
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"deal {index}: 'actions' must be a list", deal=index)
    for i, text in enumerate(actions):
        try:
            deal.apply(str(text))
        except ValueError as e:  # IllegalActionError or InvalidActionError
            raise RecordError(f"deal {index}, action {i} {text!r}: {e}",
                              deal=index, action=i) from None
    return deal


def replay(record: dict[str, Any]) -> Iterator[Replayed]:
    """Replay a deal record or a game record, deal by deal.

    Raises :class:`RecordError` at the first malformed field or illegal action; the
    deals before it have been yielded.
    """
    if "deals" not in record:
        yield Replayed(d := _replay_deal(record, 0, None), _summary(d))
        return
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except (ValueError, TypeError) as e:
        raise RecordError(f"game rules: {e}") from None
    deals = record["deals"]
    if not isinstance(deals, list):
        raise RecordError("'deals' must be a list")
    n = rules.players
    first = record.get("first_dealer", deals[0].get("dealer", 0) if deals else 0)
    score = [0] * n
    for k, rec in enumerate(deals):
        if not isinstance(rec, dict):
            raise RecordError(f"deal {k} is not a JSON object", deal=k)
        if max(score) >= rules.target:
            raise RecordError(f"deal {k} comes after the game was won (RULES §10)", deal=k)
        expected = (first + k) % n
        if rec.get("dealer") != expected:
            raise RecordError(
                f"deal {k} is dealt by seat {rec.get('dealer')}, but the deal passes left "
                f"after every deal: seat {expected} deals it (RULES §3)", deal=k)
        deal = _replay_deal(rec, k, rules)
        deal.scores = tuple(score)
        if deal.is_over:
            for s, p in enumerate(deal.result.points):
                score[s] += p
        recorded = rec.get("score")
        if recorded is not None and deal.is_over and list(recorded) != score:
            raise RecordError(
                f"deal {k}: the record gives the score {recorded}, the deals give {score}",
                deal=k)
        summary = _summary(deal)
        summary["score"] = list(score)
        yield Replayed(deal, summary, tuple(score))


_OUTCOME_WORDS = {
    "made": "made it",
    "march": "marched",
    "euchred": "were euchred",
}


def replay_text(replayed: Replayed, index: int) -> str:
    """One line of plain words for a replayed deal."""
    s = replayed.summary
    deal = replayed.deal
    head = f"deal {index}: dealer seat {deal.dealer}"
    result = deal.result
    if result.thrown_in:
        text = f"{head}: all passed, thrown in"
    elif s["trump"] is None:
        text = f"{head}: unfinished in bidding"
    else:
        who = f"seat {s['maker']}" + (" alone" if s["alone"] else "")
        if s["partner"] is not None:
            who += f" with seat {s['partner']}"
        text = f"{head}: trump {s['trump']} by {who}"
        if s["lone_defender"] is not None:
            text += f", seat {s['lone_defender']} defending alone"
        if s["complete"]:
            text += (f"; tricks {s['tricks']}, {_OUTCOME_WORDS[result.outcome]}; "
                     f"points {s['points']}")
        else:
            text += f"; unfinished after {sum(s['tricks'])} tricks"
    if replayed.score is not None:
        text += f"; score {list(replayed.score)}"
    return text

