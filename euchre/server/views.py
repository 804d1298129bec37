"""What each connection is shown: a seat's view of the table, or the public one (RULES §12).

Every card a seat is sent comes from :meth:`Deal.observation` of that seat; a spectator's
view is :meth:`Deal.public_observation`, what the whole table sees (no hand, discard,
dummy or legal action; the five-handed partner once the called card is played), which
also gives every view its hand sizes.  The full :class:`Deal` is never
sent: the game record, which holds every hand, is offered only once the game is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from euchre.cards import Card, sort_hand
from euchre.deal import Deal, DealResult, Phase, Trick
from euchre.game import Draw, Game
from euchre.rules import Rules
from euchre.sides import makers_mask, seats

__all__ = [
    "deal_summary",
    "deal_view",
    "game_view",
    "summary_message",
    "summary_text",
]

_SUIT_WORDS: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _cards(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [str(c) for c in cards]


def _trick(trick: Trick) -> dict[str, Any]:
    return {
        "leader": trick.leader,
        "cards": [{"seat": s, "card": str(c)} for s, c in trick.cards],
        "winner": trick.winner,
    }


def _result(result: DealResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    out = result.to_json()
    out["outcome"] = result.outcome
    return out


def deal_view(deal: Deal, seat: int | None) -> dict[str, Any]:
    """One deal as ``seat`` may know it, or as a spectator (``seat=None``) may.

    Built only from ``deal.observation`` and ``deal.public_observation``: RULES §12 holds
    by construction.
    """
    public = deal.public_observation()
    obs = None if seat is None else deal.observation(seat)
    hand: list[str] | None = None
    partner = public.partner
    events = [{"seat": e.seat, "action": None if e.action is None else str(e.action)}
              for e in public.events]
    if obs is not None:
        cards = obs.hand
        if obs.phase is Phase.BID_TURNUP and obs.trump is None:
            # while the turn-up is bid on, sort as if its suit were trump
            suit = deal.turnup_suit
            cards = tuple(sort_hand(cards, suit))
        hand = _cards(cards)
        partner = obs.partner  # the called card's holder knows before the table does
        events = [{"seat": e.seat, "action": None if e.action is None else str(e.action)}
                  for e in obs.events]
    tricks = 0
    for event, effect in zip(events, deal.effects, strict=True):
        if effect.trick is not None:  # the play that completed a trick: its number, from 0
            event["trick"] = tricks
            tricks += 1
    return {
        "dealer": public.dealer,
        "phase": public.phase.name.lower(),
        "phase_text": public.phase.value,
        "to_move": public.to_move,
        "turnup": str(public.turnup),
        "turnup_taken": public.turnup_taken,
        "trump": None if public.trump is None else public.trump.char,
        "maker": public.maker,
        "makers": known_makers(public.rules, public.maker, partner),
        "alone": public.alone,
        "called": None if public.called is None else str(public.called),
        "partner": partner,
        "revealed": public.partner is not None,
        "lone_defender": public.lone_defender,
        "sitting_out": list(public.sitting_out),
        "hand": hand,
        "dummy": None if obs is None else _cards(obs.dummy),
        "discards": None if obs is None else _cards(obs.discards),
        "hand_sizes": list(public.hand_sizes),
        "events": events,
        "trick": [{"seat": s, "card": str(c)} for s, c in public.trick],
        "tricks": [_trick(t) for t in public.tricks],
        "tricks_won": list(public.tricks_won),
        "legal": [] if obs is None else [str(a) for a in obs.legal_actions],
        "result": _result(public.result),
    }


def _draw_view(draw: Draw | None) -> dict[str, Any] | None:
    if draw is None:
        return None
    return {
        "rounds": [[None if c is None else str(c) for c in row] for row in draw.rounds],
        "seats": list(draw.seats),
    }


def game_view(game: Game, index: int) -> dict[str, Any]:
    """The public state of one game: scores, target, winners, "at the bridge" (§10)."""
    return {
        "index": index,
        "deal": len(game.deals),
        "scores": list(game.scores),
        "target": game.rules.target,
        "over": game.is_over,
        "winners": list(game.winners),
        "bridge": game.at_the_bridge,
        "first_dealer": game.first_dealer,
        "draw": _draw_view(game.draw),
    }


def known_makers(rules: Rules, maker: int | None, partner: int | None) -> list[int]:
    """The maker's side as a seat knows it: the maker, the partner opposite four-handed,
    and five-handed the called card's holder once known (RULES §4, §6, §12)."""
    if maker is None:
        return []
    return list(seats(makers_mask(rules.players, maker, -1 if partner is None else partner)))


# -- the summary after each deal --------------------------------------------------------------
def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _points(value: int) -> str:
    return f"{value} point" + ("" if value == 1 else "s")


def summary_text(result: DealResult, rules: Rules, names: Sequence[str], dealer: int,
                 you: int | None = None) -> str:
    """The deal in one or two sentences: "Euchred! Ann and Cy took only 2 tricks: …".

    With ``you``, that seat is "you" (the sentence as its player reads it).

    >>> from euchre.deal import DealResult
    >>> from euchre.cards import Suit
    >>> r = DealResult(Suit.HEARTS, 1, False, None, None, (0, 2, 3, 0), (2, 0, 2, 0), True)
    >>> summary_text(r, Rules(players=4), ["Ann", "Bo", "Cy", "Di"], 0, you=2)
    'Euchred! Bo and Di made hearts trump but took only 2 tricks: Ann and you score 2 points.'
    """
    n = rules.players

    def name(seat: int) -> str:
        return "you" if seat == you else names[seat]

    def says(sentence: str) -> str:
        return sentence[0].upper() + sentence[1:]

    if result.thrown_in:
        following = (dealer + 1) % n
        deals = "deal" if following == you else "deals"
        return (f"Everybody passed twice: the cards are thrown in and {name(following)} "
                f"{deals} next.")
    if result.maker is None or result.trump is None:
        return "The deal is unfinished."
    side = result.makers  # as it scores: a lone maker's partner opposite too (RULES §9)
    who = _join([name(s) for s in side])
    if result.alone and n == 4:
        who = f"{name(result.maker)}, alone,"
    elif result.alone:
        who = f"{name(result.maker)} (alone)"
    trump = _SUIT_WORDS[result.trump.char]
    taken = result.makers_tricks
    points = result.points
    if result.outcome == "euchred":
        defenders = [s for s in range(n) if s not in side and points[s]]
        value = max(points)
        took = "no tricks" if taken == 0 else f"only {taken} trick" + ("s" if taken > 1 else "")
        if len(defenders) > 1:
            verb = "each score" if n in (3, 5) else "score"
        else:
            verb = "score" if defenders and defenders[0] == you else "scores"
        lone = ""
        if result.lone_defender is not None:
            lone = f" {says(name(result.lone_defender))} defended alone."
        return (f"Euchred! {says(who)} made {trump} trump but took {took}: "
                f"{_join([name(s) for s in defenders])} {verb} {_points(value)}.{lone}")
    value = points[result.maker]
    if result.outcome == "march":
        return f"March! {says(who)} took all five tricks with {trump} trump: {_points(value)}."
    return f"{says(who)} made {trump} trump with {taken} tricks: {_points(value)}."


def summary_message(result: DealResult, rules: Rules, dealer: int) -> dict[str, Any]:
    """The deal's outcome as a code and its parameters (seats, not names), for the page
    to word in its player's language (:func:`summary_text` says it in English).

    ``code`` is ``thrown_in`` (``next_dealer``), ``unfinished``, or the outcome
    ``euchred``, ``march`` or ``made`` with ``makers`` (the maker's side as it scores),
    ``maker``, ``alone``, ``trump``, ``tricks`` (the makers'), ``points`` (each
    scoring seat's), ``defenders`` (the seats that score a euchre) and
    ``lone_defender``.

    >>> from euchre.deal import DealResult
    >>> from euchre.cards import Suit
    >>> r = DealResult(Suit.HEARTS, 1, False, None, None, (0, 2, 3, 0), (2, 0, 2, 0), True)
    >>> summary_message(r, Rules(players=4), 0)["params"]["defenders"]
    [0, 2]
    """
    n = rules.players
    if result.thrown_in:
        return {"code": "thrown_in", "params": {"next_dealer": (dealer + 1) % n}}
    if result.maker is None or result.trump is None:
        return {"code": "unfinished", "params": {}}
    side = list(result.makers)
    points = result.points
    defenders = [s for s in range(n) if s not in side and points[s]]
    value = max(points) if result.outcome == "euchred" else points[result.maker]
    return {"code": result.outcome, "params": {
        "makers": side, "maker": result.maker, "alone": result.alone,
        "trump": result.trump.char, "tricks": result.makers_tricks, "points": value,
        "defenders": defenders if result.outcome == "euchred" else [],
        "lone_defender": result.lone_defender}}


def deal_summary(
    game: Game, game_index: int, deal: Deal, names: Sequence[str], game_over: bool,
) -> dict[str, Any]:
    """The summary shown after a deal ends: outcome, points, running score, the tricks.

    Everything in it is public once the deal is over: the five tricks were played face
    up, and a five-handed partner has shown the called card (RULES §12).
    """
    result = deal.result
    number = game.deals.index(deal) if deal in game.deals else len(game.deals)
    scores = [sum(d.result.points[s] for d in game.deals[:number + 1])
              for s in range(game.rules.players)]
    called = deal.called
    return {
        "game": game_index,
        "number": number,
        "dealer": deal.dealer,
        "trump": None if result.trump is None else result.trump.char,
        "maker": result.maker,
        "makers": list(result.makers),
        "alone": result.alone,
        "partner": result.partner,
        "called": None if called is None else str(called),
        "lone_defender": result.lone_defender,
        "tricks_won": list(result.tricks),
        "makers_tricks": result.makers_tricks,
        "points": list(result.points),
        "outcome": result.outcome,
        "scores": scores,
        "tricks": [_trick(t) for t in deal.tricks],
        "text": summary_text(result, game.rules, names, deal.dealer),
        "message": summary_message(result, game.rules, deal.dealer),
        "game_over": game_over and number == len(game.deals) - 1,
        "winners": list(game.winners) if game_over else [],
    }
