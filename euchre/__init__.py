"""Euchre for two to five players: a faithful rules engine (docs/rules.md) and its adapters.

>>> from euchre import Deal, Rules
>>> deal = Deal.random(Rules.preset('four-handed'), dealer=0, seed=1)
>>> deal.phase, deal.to_move
(Phase.BID_TURNUP, 1)
"""

from euchre.actions import NUM_ACTIONS, Action, ActionKind, InvalidActionError
from euchre.cards import JOKER, Card, Suit, format_cards, parse_cards
from euchre.deal import (
    Deal,
    DealResult,
    Effect,
    Event,
    IllegalActionError,
    Observation,
    Phase,
    PublicObservation,
    Trick,
    WonBy,
)
from euchre.notation import DealRecord, GameRecord
from euchre.rules import VARIANTS, Rules, RulesError

__all__ = [
    "JOKER",
    "NUM_ACTIONS",
    "VARIANTS",
    "Action",
    "ActionKind",
    "Card",
    "Deal",
    "DealRecord",
    "DealResult",
    "Effect",
    "Event",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "Observation",
    "Phase",
    "PublicObservation",
    "Rules",
    "RulesError",
    "Suit",
    "Trick",
    "WonBy",
    "format_cards",
    "parse_cards",
]
__version__ = "0.1.0"
