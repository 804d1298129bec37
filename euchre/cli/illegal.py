"""Why an action is not legal, said to the player: "You", and the rule in words.

The engine's :class:`~euchre.deal.IllegalActionError` speaks to developers (seat numbers,
rule sections).  At the table the person reads this instead: built from their own
observation (RULES §12), it names what they hold and what they may do.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> for action in ('order', 'discard 9C', 'AC'):
...     deal.apply(action)
>>> obs = deal.observation(0)
>>> print(why_illegal(obs, Action.parse('KD')))
You cannot play KD. You must follow clubs: you hold KC, QC, JC and TC.
>>> print(why_illegal(obs, Action.parse('AH')))
You cannot play AH. You do not hold it; you may play KC, QC, JC or TC.
"""

from __future__ import annotations

from collections.abc import Sequence

from euchre.actions import Action, ActionKind
from euchre.cards import Card, Suit, effective_suit, left_bower, pack_mask, sort_hand
from euchre.cli.style import SUIT_NAMES, CardStyle, card_role
from euchre.deal import Observation, Phase

__all__ = ["why_illegal"]

_PLAIN = CardStyle(colour=False)


def _listed(words: Sequence[str], last: str = "and") -> str:
    """``QD``, ``QD and 9D``, ``AH, QD and 9D``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _what(action: Action, style: CardStyle) -> str:
    """The action as a verb phrase: ``play 9S``, ``name hearts``, ``order it up alone``."""
    kind = action.kind
    card = style.card(action.card) if action.card is not None else ""
    alone = " alone" if action.alone else ""
    if kind is ActionKind.PASS:
        return "pass"
    if kind is ActionKind.ORDER:
        return f"order it up{alone}"
    if kind is ActionKind.TRUMP and action.suit is not None:
        return f"name {SUIT_NAMES[action.suit]}{alone}"
    if kind is ActionKind.DEFEND_ALONE:
        return "defend alone"
    return f"{kind.value} {card}"


def why_illegal(obs: Observation, action: Action, style: CardStyle = _PLAIN) -> str:
    """Two short sentences: what the person cannot do, and the rule in words.

    ``obs`` is the person's observation at their turn; ``action`` is the refused one.
    """
    head = f"You cannot {_what(action, style)}."
    return f"{head} {_reason(obs, action, style)}"


def _reason(obs: Observation, action: Action, style: CardStyle) -> str:
    phase = obs.phase
    kind = action.kind
    legal = obs.legal_actions
    card = action.card
    if phase is Phase.PLAY:
        return _play_reason(obs, action, style)
    if phase is Phase.BID_TURNUP:
        suit = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        assert suit is not None
        if kind is ActionKind.ORDER and action.alone and not obs.rules.alone_allowed:
            return "There is no going alone in two-handed euchre."
        accept = "take it up" if obs.seat == obs.dealer else "order it up"
        if kind is ActionKind.TRUMP:
            return (f"In the first round of bidding you either pass or {accept} "
                    f"({SUIT_NAMES[suit]} trump); you may name another suit in the second "
                    f"round, if everyone passes.")
        return f"It is the first round of bidding: pass, or {accept} ({SUIT_NAMES[suit]} trump)."
    if phase is Phase.BID_SUIT:
        down = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        if kind is ActionKind.TRUMP and action.suit is not None and action.suit == down:
            return (f"{SUIT_NAMES[down].capitalize()} was turned down: it cannot be trump this "
                    f"deal. Name another suit, or pass.")
        if kind is ActionKind.PASS:
            return ("Stick the dealer: when everyone else has passed twice, the dealer "
                    "must name trump.")
        if action.alone and not obs.rules.alone_allowed:
            return "There is no going alone in two-handed euchre."
        return "It is the second round of bidding: name a suit (for example trump H) or pass."
    if phase is Phase.NAME_TRUMP:
        if action.alone and not obs.rules.alone_allowed:
            return "There is no going alone in two-handed euchre."
        return ("The joker was turned up: you are the dealer and name trump "
                "(for example trump H).")
    if phase is Phase.EXCHANGE:
        if kind is ActionKind.DISCARD and card is not None:
            if card == obs.turnup and obs.rules.dealer_must_take_up:
                return (f"In this game the dealer must keep the turn-up "
                        f"{style.card(obs.turnup)}: discard another card.")
            if card not in obs.hand:
                return "You do not hold it."
        return (f"You are the dealer and picked up {style.card(obs.turnup)}: discard one card "
                f"(discarding {style.card(obs.turnup)} keeps your hand as it was).")
    if phase is Phase.DUMMY:
        left = len(obs.hand) - 5
        if kind is ActionKind.DISCARD and card is not None and card not in obs.hand:
            return "It is not in your hand or in the dummy."
        return (f"You took up the dummy: discard {left} more card{'s' if left != 1 else ''}, "
                f"one at a time.")
    if phase is Phase.CALL_PARTNER:
        if kind is ActionKind.CALL and card is not None:
            if card in obs.hand:
                return "You hold it yourself: call a card you do not hold."
            if not pack_mask(obs.rules.deck, obs.rules.joker) >> card & 1:
                return f"It is not in this pack of {obs.rules.pack_size} cards."
        return "Call your partner: name a card you do not hold (for example call AH)."
    if phase is Phase.DEFEND:
        if kind is ActionKind.DEFEND_ALONE and not any(
                a.kind is ActionKind.DEFEND_ALONE for a in legal):
            return "You may not defend alone now."
        return "You may defend alone, or pass."
    return "It is not your turn."


def _play_reason(obs: Observation, action: Action, style: CardStyle) -> str:
    playable = [a.card for a in obs.legal_actions if a.card is not None]
    may = _listed([style.card(c) for c in sort_hand(playable, obs.trump)], "or")
    card = action.card
    if action.kind is not ActionKind.PLAY or card is None:
        return f"It is time to play a card: you may play {may}."
    if card not in obs.hand:
        return f"You do not hold it; you may play {may}."
    trump = obs.trump
    assert trump is not None and obs.trick
    led = effective_suit(obs.trick[0][1], trump)
    held = [style.card(c) for c in sort_hand(playable, trump)]
    rule = (f"You must follow trump ({SUIT_NAMES[led]})" if led == trump
            else f"You must follow {SUIT_NAMES[led]}")
    notes = _belonging_notes(card, led, trump, playable, style)
    return f"{rule}: you hold {_listed(held)}.{notes}"


def _belonging_notes(card: Card, led: Suit, trump: Suit, playable: Sequence[Card],
                     style: CardStyle) -> str:
    """Where the bowers and the joker belong, when that is why (RULES §2)."""
    notes = []
    left = left_bower(trump)
    trump_name = SUIT_NAMES[trump][:-1]  # "heart"
    if card == left and left.suit == led:
        notes.append(f"{style.card(card)} is {card_role(card, trump)}: it counts as a "
                     f"{trump_name}, not a {SUIT_NAMES[led][:-1]}.")
    elif card == Card.JK:
        notes.append(f"{style.card(card)} is the joker: it counts as a {trump_name}.")
    for c in playable:
        role = card_role(c, trump)
        if role in ("the left bower", "the joker") and led == trump:
            notes.append(f"{style.card(c)}, {role}, counts as a {trump_name}.")
    return "".join(" " + n for n in notes)
