"""Why the rules refuse an action: the codes the rules core gives (:func:`euchre.core.refusal`).

A module of its own, without numba, so that :class:`~euchre.deal.Deal` and
:mod:`euchre.wording` name the codes without loading the compiled core: the core is
imported only when a refusal is asked for.

>>> Refused.NO_ALONE, Refused(3)
(<Refused.NO_ALONE: 3>, <Refused.NO_ALONE: 3>)
"""

from __future__ import annotations

import enum

__all__ = ["Refused"]


class Refused(enum.IntEnum):
    """Why :func:`refusal` refuses an action, with its two arguments ``(a, b)`` (0 where
    unused).  The one account of the reasons: :class:`~euchre.deal.Deal`'s errors and
    :func:`euchre.wording.why_illegal` word these codes, each in its own way."""

    LEGAL = 0
    """Not refused."""
    DEAL_OVER = 1
    """The deal is over (RULES §8)."""
    NOT_YOUR_TURN = 2
    """Another seat is to move; ``a``: that seat."""
    NO_ALONE = 3
    """Two-handed: no going alone (RULES §4)."""
    ROUND_ONE = 4
    """Round 1: pass or order up; ``a``: the turn-up's suit, ``b``: 1 for the dealer
    (RULES §4)."""
    ROUND_ONE_NAMED = 5
    """A suit named in round 1 (it is named in round 2); ``a``, ``b`` as ROUND_ONE."""
    TURNED_DOWN = 6
    """Round 2 names the turned-down suit; ``a``: the suit, ``b``: 1 if the seat may
    pass (RULES §4)."""
    STICK_THE_DEALER = 7
    """Stick the dealer: the dealer may not pass in round 2 (RULES §4)."""
    ROUND_TWO = 8
    """Round 2: name a suit or pass (RULES §4)."""
    JOKER_NAMES = 9
    """A turned-up joker: the dealer names trump (RULES §3)."""
    KEEP_TURNUP = 10
    """The dealer must keep the turn-up; ``a``: the turn-up (RULES §5)."""
    DISCARD_NOT_HELD = 11
    """The dealer discards a card not held; ``a``: the card (RULES §5)."""
    EXCHANGE = 12
    """The dealer discards one card; ``a``: the turn-up (RULES §5)."""
    DUMMY_NOT_HELD = 13
    """The maker discards a card not in hand or dummy; ``a``: the card (RULES §6)."""
    DUMMY = 14
    """The maker discards from hand and dummy; ``a``: discards still owed (RULES §6)."""
    CALL_OWN_CARD = 15
    """The maker calls a card it holds; ``a``: the card (RULES §6)."""
    CALL_OWN_DISCARD = 16
    """The maker calls its own discard; ``a``: the card (RULES §6.3)."""
    CALL_TURNED_DOWN = 17
    """The maker calls the turn-up turned down; ``a``: the card (RULES §6.3)."""
    CALL_NOT_IN_PACK = 18
    """The maker calls a card not in the pack; ``a``: the card (RULES §1)."""
    CALL_A_CARD = 19
    """The maker calls a partner by naming a card (RULES §6)."""
    DEFEND = 20
    """A defender may defend alone or pass (RULES §7)."""
    PLAY_A_CARD = 21
    """The seat plays a card (RULES §8)."""
    PLAY_NOT_HELD = 22
    """A card not held; ``a``: the card (RULES §8)."""
    MUST_FOLLOW = 23
    """The seat must follow the led suit; ``a``: the card, ``b``: the led suit (RULES §2,
    §8)."""
