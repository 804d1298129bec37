"""Finished games, replayed deal by deal for the history page.

Only a finished match is replayed: its record shows every hand, the kitty and every
discard, which nobody may see while the game is on (RULES §12).
"""

from __future__ import annotations

from typing import Any

from euchre.deal import Deal
from euchre.rules import Rules
from euchre.server.views import summary_message, summary_text

__all__ = ["replay_frames"]


def _snapshot(deal: Deal, last: tuple[int, str] | None) -> dict[str, Any]:
    n = deal.n
    return {
        "action": None if last is None else {"seat": last[0], "action": last[1]},
        "phase": deal.phase.name.lower(),
        "to_move": deal.to_move,
        "hands": [[str(c) for c in deal.hand(s)] for s in range(n)],
        "trump": None if deal.trump is None else deal.trump.char,
        "maker": deal.maker,
        "alone": deal.alone,
        "sitting_out": list(deal.sitting_out),
        "trick": [{"seat": s, "card": str(c)} for s, c in deal.current_trick],
        "last_trick": (None if not deal.tricks else
                       {"cards": [{"seat": s, "card": str(c)}
                                  for s, c in deal.tricks[-1].cards],
                        "winner": deal.tricks[-1].winner}),
        "tricks_won": list(deal.tricks_won),
    }


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """A game record (RECORDS.md) as frames: each deal's state after every action.

    >>> from euchre.game import Game
    >>> from euchre.records import game_record
    >>> from euchre.rules import Rules
    >>> game = Game(Rules(players=2, target=1, stick_the_dealer=True), seed=4)
    >>> while not game.is_over:
    ...     _ = game.apply(game.deal.legal_action_ids()[0])
    >>> out = replay_frames(game_record(game, ["Ann", "Bob"]))
    >>> len(out["deals"][0]["frames"]) == len(out["deals"][0]["actions"]) + 1
    True
    """
    rules = record["rules"]
    game_rules = Rules.from_dict(rules)
    n = game_rules.players
    deals = []
    score = [0] * n
    for rec in record["deals"]:
        deal = Deal.from_record({**rec, "rules": rules}, apply_actions=False)
        frames = [_snapshot(deal, None)]
        for text in rec["actions"]:
            seat = deal.to_move
            assert seat is not None
            deal.apply(text)
            frames.append(_snapshot(deal, (seat, text)))
        before = list(score)
        result = deal.result
        if deal.is_over:
            score = [a + b for a, b in zip(score, result.points, strict=True)]
        deals.append({
            "dealer": rec["dealer"],
            "turnup": rec["turnup"],
            "kitty": rec.get("kitty", []),
            "dummy": rec.get("dummy"),
            "discards": [[str(c) for c in deal.observation(s).discards] for s in range(n)],
            "actions": rec["actions"],
            "frames": frames,
            "score_before": before,
            "score_after": list(score),
            "result": {**result.to_json(), "outcome": result.outcome},
            "text": summary_text(result, game_rules, record["seats"], rec["dealer"]),
            "message": summary_message(result, game_rules, rec["dealer"]),
        })
    return {"rules": rules, "seats": record["seats"], "deals": deals,
            "scores": record["scores"], "winners": record["winners"]}
