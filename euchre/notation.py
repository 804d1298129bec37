"""Reading the RECORDS notation of a deal: card values, and a deal record's fields.

Below :mod:`euchre.deal`, which builds the deal from what is read here
(:meth:`Deal.from_cards <euchre.deal.Deal.from_cards>`,
:meth:`Deal.from_record <euchre.deal.Deal.from_record>`); :mod:`euchre.records` reads and
replays whole files of records above it.  Every refusal is a :class:`ValueError` whose
sentence names the key at fault.

>>> fields = read_deal_record({"rules": {"players": 2}, "dealer": 0,
...     "hands": ["9C TC JC QC KC", ["AC", "9D", "TD", "JD", "QD"]], "turnup": "KD",
...     "kitty": ["AD"], "actions": ["order"]})
>>> fields.dealer, [str(Card(c)) for c in fields.hands[1]], fields.kitty, fields.actions
(0, ['AC', '9D', 'TD', 'JD', 'QD'], [15], ['order'])
>>> card_values("9C 10h", "'hands[0]'"), card_value(7, "'turnup'")
([2, 19], 7)
>>> card_value(7, "'turnup'", text_only=True)
Traceback (most recent call last):
...
ValueError: 'turnup' must be a card such as 'JH', not 7
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from euchre.cards import CARDS, Card, parse_cards
from euchre.rules import Rules, describe_value

__all__ = ["DealFields", "card_value", "card_values", "read_deal_record"]


class DealFields(NamedTuple):
    """A deal record's fields, read and typed (cards as ids); not yet checked against
    each other or the pack: :meth:`Deal.from_cards <euchre.deal.Deal.from_cards>` does."""

    rules: Rules
    dealer: Any
    """As given: :meth:`Deal.from_cards <euchre.deal.Deal.from_cards>` checks the seat."""
    hands: list[list[int]]
    turnup: int
    kitty: list[int]
    dummy: list[int] | None
    actions: list[str]


def read_deal_record(record: object) -> DealFields:
    """The fields of a deal record (docs/rules.md, "Saved games"), each of its type:
    the cards texts such as ``"JH"`` (not numbers), ``kitty`` present, the actions texts;
    else :class:`ValueError` naming the key and the type expected."""
    if not isinstance(record, dict):
        raise ValueError(f"a deal record must be an object, not {describe_value(record)}")
    rules = Rules.from_dict(record.get("rules", {}))
    for key in ("dealer", "hands", "turnup", "kitty"):
        if key not in record:
            raise ValueError(f"a deal record needs {key!r}" + (
                " (the rest of the pack, under the turn-up)" if key == "kitty" else ""))
    hands, dummy = record["hands"], record.get("dummy")
    if not isinstance(hands, list):
        raise ValueError(f"'hands' must be a list of {rules.players} hands, "
                         f"not {describe_value(hands)}")
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise ValueError(f"'actions' must be a list of actions such as 'play JH', "
                         f"not {describe_value(actions)}")
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise ValueError(f"'actions[{i}]' must be an action such as 'play JH', "
                             f"not {describe_value(text)}")
    return DealFields(
        rules, record["dealer"],
        [card_values(h, f"'hands[{s}]'", text_only=True) for s, h in enumerate(hands)],
        card_value(record["turnup"], "'turnup'", text_only=True),
        kitty=card_values(record["kitty"], "'kitty'", text_only=True),
        dummy=None if dummy is None else card_values(dummy, "'dummy'", text_only=True),
        actions=actions,
    )


def card_value(card: object, key: str, text_only: bool = False) -> int:
    """One card given for ``key``: its text, or (unless ``text_only``, as in a record) its
    number; anything else is refused with a sentence that names the key."""
    if isinstance(card, str) and len(card) <= 8:  # 'joker', ' 10h ': longer is no card
        try:
            return int(Card.parse(card))
        except ValueError as e:
            raise ValueError(f"{key}: {e}") from None
    if (not text_only and isinstance(card, int) and not isinstance(card, bool)
            and 0 <= card < len(CARDS)):
        return card
    raise ValueError(f"{key} must be a card such as 'JH', not {describe_value(card)}")


def card_values(cards: object, key: str, text_only: bool = False) -> list[int]:
    """The cards given for ``key`` (quoted): one text (``"9C TC"``) or a list of cards
    (:func:`card_value`), each named by its index in the list."""
    if isinstance(cards, str):
        try:
            return [int(c) for c in parse_cards(cards)]
        except ValueError as e:
            raise ValueError(f"{key}: {e}") from None
    if isinstance(cards, Mapping) or not isinstance(cards, Iterable):
        raise ValueError(f"{key} must be a list of cards such as ['9C', 'JH'], "
                         f"not {describe_value(cards)}")
    return [card_value(c, f"{key[:-1]}[{i}]'", text_only) for i, c in enumerate(cards)]
