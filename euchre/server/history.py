"""Finished games, replayed deal by deal for the history page.

Only a finished match is replayed: its record shows every hand, the kitty and every
discard, which nobody may see while the game is on (RULES §12).
"""

from __future__ import annotations

from typing import Any

from euchre.cards import Card
from euchre.deal import Deal
from euchre.notation import GameRecord
from euchre.server.views import summary_message, summary_text

__all__ = ["replay_frames"]


def _played(deal: Deal) -> list[tuple[int, Card]]:
    """Every card played so far this deal, with its seat."""
    return [*(c for t in deal.tricks for c in t.cards), *deal.current_trick]


def _snapshot(deal: Deal, last: tuple[int, str] | None, tricks_before: int) -> dict[str, Any]:
    """The deal after one action.  The trick shown is the one in progress, or, when that
    action was the trick's last card, the whole trick and its winner: each trick stays in
    view once complete, the deal's last one included."""
    n = deal.n
    tricks = deal.tricks
    just_won = tricks[-1] if len(tricks) > tricks_before else None
    shown = just_won.cards if just_won is not None else deal.current_trick
    called = deal.called
    # the five-handed partner is known to everybody once the called card is played; a
    # called card left in the kitty is never played, and the maker plays alone (RULES §6)
    revealed = called is not None and any(c == called for _, c in _played(deal))
    return {
        "action": None if last is None else {"seat": last[0], "action": last[1]},
        "phase": deal.phase.name.lower(),
        "to_move": deal.to_move,
        "hands": [[str(c) for c in deal.hand(s)] for s in range(n)],
        "trump": None if deal.trump is None else deal.trump.char,
        "maker": deal.maker,
        "alone": deal.alone,
        "sitting_out": list(deal.sitting_out),
        "trick": [{"seat": s, "card": str(c)} for s, c in shown],
        "trick_winner": None if just_won is None else just_won.winner,
        "called": None if called is None else str(called),
        "partner": deal.partner if revealed else None,
        "last_trick": (None if not deal.tricks else
                       {"cards": [{"seat": s, "card": str(c)}
                                  for s, c in deal.tricks[-1].cards],
                        "winner": deal.tricks[-1].winner}),
        "tricks_won": list(deal.tricks_won),
    }


def replay_frames(record: GameRecord) -> dict[str, Any]:
    """A game record (docs/rules.md, "Saved games") as frames: each deal's state after every action.

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
    game_rules = record.rules
    n = game_rules.players
    seats = list(record.seats) if record.seats is not None else [f"seat {s}" for s in range(n)]
    deals = []
    score = [0] * n
    for rec in record.deals:
        deal = Deal.from_record(rec, apply_actions=False)
        frames = [_snapshot(deal, None, 0)]
        for text in rec.actions:
            seat = deal.to_move
            assert seat is not None
            done = len(deal.tricks)
            deal.apply(text)
            frames.append(_snapshot(deal, (seat, text), done))
        before = list(score)
        result = deal.result
        if deal.is_over:
            score = [a + b for a, b in zip(score, result.points, strict=True)]
        cards = rec.to_json(with_rules=False)
        deals.append({
            "dealer": rec.dealer,
            "turnup": cards["turnup"],
            "kitty": cards["kitty"],
            "dummy": cards["dummy"],
            "discards": [[str(c) for c in deal.observation(s).discards] for s in range(n)],
            "actions": cards["actions"],
            "frames": frames,
            "score_before": before,
            "score_after": list(score),
            "result": {**result.to_json(), "outcome": result.outcome},
            "text": summary_text(result, game_rules, seats, rec.dealer),
            "message": summary_message(result, game_rules, rec.dealer),
        })
    return {"rules": game_rules.to_dict(), "seats": seats, "deals": deals,
            "scores": list(record.scores or score), "winners": list(record.winners or ())}
