"""The hint: what the expert bot would do in a seat's place, the value of every legal
choice, and why, from that seat's observation only (RULES §12).

The values are the expert's opinion (:func:`euchre.bots.opinion.expert_opinion`): the
points the seat's side can expect from this deal, on average over deals of the unseen
cards consistent with everything the seat has seen.  It is the opinion the terminal's hint,
``euchre analyze`` and the web's review give too: the same position always gets the same
answer, and a review never calls a hinted choice a mistake.
"""

from __future__ import annotations

from typing import Any, Final

from euchre.actions import Action, ActionKind
from euchre.bots.opinion import expert_opinion
from euchre.cards import Card
from euchre.deal import Observation, Phase

__all__ = ["action_words", "advise", "reason", "reason_params"]

_SUIT_WORDS: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_CLOSE: Final = 0.05
"""Values nearer than this (in points) are a close call."""
_CLEAR: Final = 0.5
"""A lead of this many points over the next choice is clear."""


def _card(card: Card) -> str:
    text = str(card)
    if text == "JK":
        return "the joker"
    rank = "10" if text[0] == "T" else text[0]
    return f"the {rank}{_SYMBOLS[text[1]]}"


def action_words(action: Action, obs: Observation) -> str:
    """An action as the seat would say it: "order it up", "name hearts alone",
    "play the J♥"."""
    kind = action.kind
    alone = " alone" if action.alone else ""
    if kind is ActionKind.PASS:
        return "pass"
    if kind is ActionKind.ORDER:
        if obs.seat == obs.dealer:
            return f"take it up{alone}"
        if obs.seat == obs.rules.partner_of(obs.dealer):
            return f"assist{alone}"
        return f"order it up{alone}"
    if kind is ActionKind.TRUMP and action.suit is not None:
        return f"name {_SUIT_WORDS[action.suit.char]}{alone}"
    if kind is ActionKind.DEFEND_ALONE:
        return "defend alone"
    if action.card is not None:
        return f"{kind.value} {_card(action.card)}"
    return str(action)  # pragma: no cover


def _points(value: float) -> str:
    return f"{value:+.2f} point" + ("" if abs(value) == 1 else "s")


def reason(obs: Observation, ranked: list[tuple[Action, float]], worlds: int) -> str:
    """Why the expert chose ``ranked[0]``: how its values were found, and how far ahead
    of the next choice it is (``ranked`` is best first)."""
    if len(ranked) == 1:
        return "It is the only legal choice."
    (best, v1), (second, v2) = ranked[0], ranked[1]
    how = ("solved the play of every one with all the cards face up"
           if obs.phase is Phase.PLAY else "played each choice out in every one")
    seen = ("the bidding and the play so far" if obs.tricks or obs.trick
            else "the bidding so far" if obs.events else "your hand and the turn-up")
    first = (f"The expert dealt the cards you cannot see {worlds} ways that fit {seen}, "
             f"and {how}.")
    words = action_words(best, obs)
    compare = (f"To {words} is worth {_points(v1)} to your side on average; "
               f"the next best, to {action_words(second, obs)}, {_points(v2)}.")
    gap = v1 - v2
    if gap < _CLOSE:
        verdict = " A close call."
    elif gap >= _CLEAR:
        verdict = " Clearly the best."
    else:
        verdict = ""
    return f"{first} {compare}{verdict}"


def reason_params(obs: Observation, ranked: list[tuple[Action, float]],
                  worlds: int) -> dict[str, Any]:
    """:func:`reason` as codes and numbers, for the page to word in its player's
    language: ``only`` (a single legal choice), ``worlds``, ``seen`` (``hand``,
    ``bidding`` or ``play``: what the dealt worlds fit), ``how`` (``solved`` in the
    play, else ``played``) and ``verdict`` (``close``, ``clear`` or ``""``); the two
    values compared are the first two of the hint's ``values``."""
    if len(ranked) == 1:
        return {"only": True, "worlds": worlds, "seen": "", "how": "", "verdict": ""}
    gap = ranked[0][1] - ranked[1][1]
    return {
        "only": False,
        "worlds": worlds,
        "seen": "play" if obs.tricks or obs.trick else "bidding" if obs.events else "hand",
        "how": "solved" if obs.phase is Phase.PLAY else "played",
        "verdict": "close" if gap < _CLOSE else "clear" if gap >= _CLEAR else "",
    }


def advise(obs: Observation) -> dict[str, Any]:
    """The hint for the seat of ``obs`` (its turn): the expert's choice, every legal
    choice with its value (best first), and the reason; the same for the same position
    every time (:func:`~euchre.bots.opinion.expert_opinion`).

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> hint = advise(deal.observation(1))
    >>> hint["action"], [v["action"] for v in hint["values"]]
    ('order', ['order', 'pass'])
    """
    opinion = expert_opinion(obs)
    ranked = opinion.ranked()
    return {
        "action": str(opinion.best),
        "values": [{"action": str(a), "value": round(v, 3), "words": action_words(a, obs)}
                   for a, v in ranked],
        "reason": reason(obs, ranked, opinion.worlds),
        "reason_params": reason_params(obs, ranked, opinion.worlds),
        "worlds": opinion.worlds,
    }
