"""Why an action is not legal, said to the player: "You", and the rule in words.

The engine's :class:`~euchre.deal.IllegalActionError` speaks to developers (seat numbers,
rule sections).  At the table the person reads this instead: built from their own
observation (RULES §12), it names what they hold and what they may do.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> for action in ('order', 'discard 9C', 'AC'):
...     _ = deal.apply(action)
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
from euchre.cli.lang import N_, _, ngettext
from euchre.cli.prompt import move_text
from euchre.cli.style import CardStyle, card_role, role_words, suit_name, suit_one
from euchre.deal import Observation, Phase

__all__ = ["why_illegal"]

_PLAIN = CardStyle(colour=False)

_NO_ALONE = N_("There is no going alone in two-handed euchre.")


def _listed(words: Sequence[str], last: str = "and") -> str:
    """``QD``, ``QD and 9D``, ``AH, QD and 9D`` (``last="or"``: ``QD or 9D``), in the
    current language."""
    if len(words) <= 1:
        return "".join(words)
    message = _("{names} or {last}") if last == "or" else _("{names} and {last}")
    return message.format(names=", ".join(words[:-1]), last=words[-1])


def _example(action: Action, style: CardStyle) -> str:
    """A move as the player types it, in their language's words (``atout cœur``)."""
    return move_text(action, style)


def _cannot(action: Action, style: CardStyle) -> str:
    """What the person cannot do, as a sentence: ``You cannot play 9S.``"""
    kind = action.kind
    card = style.card(action.card) if action.card is not None else ""
    if kind is ActionKind.PASS:
        return _("You cannot pass.")
    if kind is ActionKind.ORDER:
        return _("You cannot order it up alone.") if action.alone else _("You cannot order it up.")
    if kind is ActionKind.TRUMP and action.suit is not None:
        suit = suit_name(action.suit)
        return (_("You cannot name {suit} and go alone.") if action.alone
                else _("You cannot name {suit}.")).format(suit=suit)
    if kind is ActionKind.DEFEND_ALONE:
        return _("You cannot defend alone.")
    if kind is ActionKind.DISCARD:
        return _("You cannot discard {card}.").format(card=card)
    if kind is ActionKind.CALL:
        return _("You cannot call {card}.").format(card=card)
    return _("You cannot play {card}.").format(card=card)


def why_illegal(obs: Observation, action: Action, style: CardStyle = _PLAIN) -> str:
    """Two short sentences in the current language: what the person cannot do, and the
    rule in words.

    ``obs`` is the person's observation at their turn; ``action`` is the refused one.
    Only the words are the terminal's: the engine says what is legal (``legal_actions``).
    """
    return _("{cannot} {reason}").format(cannot=_cannot(action, style),
                                         reason=_reason(obs, action, style))


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
            return _(_NO_ALONE)
        dealer = obs.seat == obs.dealer
        if kind is ActionKind.TRUMP:
            return (_("In the first round of bidding you either pass or take it up ({suit} "
                      "trump); you may name another suit in the second round, if everyone "
                      "passes.") if dealer else
                    _("In the first round of bidding you either pass or order it up ({suit} "
                      "trump); you may name another suit in the second round, if everyone "
                      "passes.")).format(suit=suit_name(suit))
        return (_("It is the first round of bidding: pass, or take it up ({suit} trump).")
                if dealer else
                _("It is the first round of bidding: pass, or order it up ({suit} trump).")
                ).format(suit=suit_name(suit))
    if phase is Phase.BID_SUIT:
        down = obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
        if kind is ActionKind.TRUMP and action.suit is not None and action.suit == down:
            may_pass = any(a.kind is ActionKind.PASS for a in legal)
            return (_("{suit} was turned down: it cannot be trump this deal. Name another "
                      "suit, or pass.") if may_pass else
                    _("{suit} was turned down: it cannot be trump this deal. Stick the "
                      "dealer: name another suit.")).format(suit=suit_name(down).capitalize())
        if kind is ActionKind.PASS:
            return _("Stick the dealer: when everyone else has passed twice, the dealer "
                     "must name trump.")
        if action.alone and not obs.rules.alone_allowed:
            return _(_NO_ALONE)
        return _("It is the second round of bidding: name a suit (for example {example}) or "
                 "pass.").format(example=_example(Action.trump(Suit.HEARTS), style))
    if phase is Phase.NAME_TRUMP:
        if action.alone and not obs.rules.alone_allowed:
            return _(_NO_ALONE)
        return _("The joker was turned up: you are the dealer and name trump "
                 "(for example {example}).").format(
                     example=_example(Action.trump(Suit.HEARTS), style))
    if phase is Phase.EXCHANGE:
        turnup = style.card(obs.turnup)
        if kind is ActionKind.DISCARD and card is not None:
            if card == obs.turnup and obs.rules.dealer_must_take_up:
                return _("In this game the dealer must keep the turn-up {card}: discard "
                         "another card.").format(card=turnup)
            if card not in obs.hand:
                return _("You do not hold it.")
        return _("You are the dealer and picked up {card}: discard one card (discarding "
                 "{card} keeps your hand as it was).").format(card=turnup)
    if phase is Phase.DUMMY:
        left = len(obs.hand) - 5
        if kind is ActionKind.DISCARD and card is not None and card not in obs.hand:
            return _("It is not in your hand or in the dummy.")
        return ngettext("You took up the dummy: discard {n} more card, one at a time.",
                        "You took up the dummy: discard {n} more cards, one at a time.",
                        left).format(n=left)
    if phase is Phase.CALL_PARTNER:
        if kind is ActionKind.CALL and card is not None:
            if card in obs.hand:
                return _("You hold it yourself: call a card you do not hold.")
            # a card the maker knows to be out of play would be a lone hand in secret
            if card in obs.discards:
                return _("You discarded it, and a card you know to be out of play may not "
                         "be called.")
            if card == obs.turnup and obs.turnup_taken is False:
                return _("It was turned down in the first round, and a card you know to "
                         "be out of play may not be called.")
            if not pack_mask(obs.rules.deck, obs.rules.joker) >> card & 1:
                return _("It is not in this pack of {n} cards.").format(
                    n=obs.rules.pack_size)
        return _("Call your partner: name a card you do not hold (for example "
                 "{example}).").format(example=_example(Action.call(Card.AH), style))
    if phase is Phase.DEFEND:
        if kind is ActionKind.DEFEND_ALONE and not any(
                a.kind is ActionKind.DEFEND_ALONE for a in legal):
            return _("You may not defend alone now.")
        return _("You may defend alone, or pass.")
    return _("It is not your turn.")


def _play_reason(obs: Observation, action: Action, style: CardStyle) -> str:
    playable = [a.card for a in obs.legal_actions if a.card is not None]
    may = _listed([style.card(c) for c in sort_hand(playable, obs.trump)], "or")
    card = action.card
    if action.kind is not ActionKind.PLAY or card is None:
        return _("It is time to play a card: you may play {cards}.").format(cards=may)
    if card not in obs.hand:
        return _("You do not hold it; you may play {cards}.").format(cards=may)
    trump = obs.trump
    assert trump is not None and obs.trick
    led = effective_suit(obs.trick[0][1], trump)
    held = _listed([style.card(c) for c in sort_hand(playable, trump)])
    rule = (_("You must follow trump ({suit}): you hold {cards}.") if led == trump
            else _("You must follow {suit}: you hold {cards}.")).format(
                suit=suit_name(led), cards=held)
    return rule + _belonging_notes(card, led, trump, playable, style)


def _belonging_notes(card: Card, led: Suit, trump: Suit, playable: Sequence[Card],
                     style: CardStyle) -> str:
    """Where the bowers and the joker belong, when that is why (RULES §2)."""
    notes = []
    left = left_bower(trump)
    if card == left and left.suit == led:
        role = card_role(card, trump)
        assert role is not None
        notes.append(_("{card} is {role}: it counts as a {trump}, not a {led}.").format(
            card=style.card(card), role=role_words(role), trump=suit_one(trump),
            led=suit_one(led)))
    elif card == Card.JK:
        notes.append(_("{card} is the joker: it counts as a {trump}.").format(
            card=style.card(card), trump=suit_one(trump)))
    for c in playable:
        role = card_role(c, trump)
        if role in ("the left bower", "the joker") and led == trump:
            assert role is not None
            notes.append(_("{card}, {role}, counts as a {trump}.").format(
                card=style.card(c), role=role_words(role), trump=suit_one(trump)))
    return "".join(" " + n for n in notes)
