"""The RECORDS notation of deals and games: card values, and the typed deal and game
records with their JSON.

Below :mod:`euchre.deal`, which builds a deal from a :class:`DealRecord`
(:meth:`Deal.from_record <euchre.deal.Deal.from_record>`) and writes one
(:meth:`Deal.to_record <euchre.deal.Deal.to_record>`); :mod:`euchre.records` reads and
replays whole files of records above it.  :meth:`DealRecord.to_json` and
:meth:`GameRecord.to_json` are the one writer of the JSON, :meth:`DealRecord.from_json` and
:meth:`GameRecord.from_json` the one reader: a record written by either reads back to an
equal record, and writes the same JSON again.  Every refusal is a :class:`ValueError` whose
sentence names the key at fault (a :class:`RecordError`, with the deal's index, for a game
record's).

>>> record = DealRecord.from_json({"rules": {"players": 2}, "dealer": 0,
...     "hands": ["9C TC JC QC KC", ["AC", "9D", "TD", "JD", "QD"]], "turnup": "KD",
...     "kitty": ["AD"], "actions": ["order"]})
>>> record.dealer, [str(c) for c in record.hands[1]], record.kitty, record.actions
(0, ['AC', '9D', 'TD', 'JD', 'QD'], (Card.parse('AD'),), ('order',))
>>> record.to_json()["hands"]
[['9C', 'TC', 'JC', 'QC', 'KC'], ['AC', '9D', 'TD', 'JD', 'QD']]
>>> card_values("9C 10h", "'hands[0]'"), card_value(7, "'turnup'")
([2, 19], 7)
>>> card_value(7, "'turnup'", text_only=True)
Traceback (most recent call last):
...
ValueError: 'turnup' must be a card such as 'JH', not 7
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from euchre.cards import CARDS, Card, parse_cards
from euchre.rules import Rules, describe_value

__all__ = ["DealRecord", "DrawRecord", "GameRecord", "RecordError", "card_value", "card_values"]


class RecordError(ValueError):
    """A malformed record, or an action in it that the rules refuse.

    ``deal`` and ``action`` are the 0-based indexes of the offending deal and action
    (``action`` is ``None`` when the fault is not in an action); the message, written for
    people, counts from 1: ``deal 1, action 7`` is ``deals[0]["actions"][6]``.

    >>> from euchre import Deal
    >>> from euchre.records import replay
    >>> record = Deal.random(Rules(players=2), dealer=0, seed=1).to_record().to_json()
    >>> record["actions"] = ["pass", "play AS"]
    >>> try:
    ...     list(replay(record))
    ... except RecordError as e:
    ...     print(e.deal, e.action, e)
    0 1 deal 1, action 2 'play AS': seat 0 bids on the turn-up in round 1 (RULES §4): ...
    """

    def __init__(self, message: str, deal: int = 0, action: int | None = None) -> None:
        super().__init__(message)
        self.deal = deal
        self.action = action


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal, enough to replay it exactly (RECORDS, "Deal record"): the rules, the
    cards as dealt and the actions in order.

    The cards are checked against each other and the pack only when a deal is built
    from the record (:meth:`Deal.from_record <euchre.deal.Deal.from_record>`); the
    actions are kept as written, and checked as the deal replays them.
    """

    rules: Rules
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    """``hands[i]``: seat i's hand as dealt."""
    turnup: Card
    kitty: tuple[Card, ...]
    """The rest of the stock under the turn-up."""
    dummy: tuple[Card, ...] | None = None
    """The three-handed dummy (else ``None``)."""
    actions: tuple[str, ...] = ()
    score: tuple[int, ...] | None = None
    """In a game record, the game's running score after this deal, once it is over."""

    def to_json(self, with_rules: bool = True) -> dict[str, Any]:
        """The record as RECORDS writes it; a game record's deals leave out their rules
        (``with_rules`` false), which are the game's.

        >>> from euchre import Deal
        >>> Deal.from_cards(Rules(players=2), dealer=0, hands=['9C TC JC QC KC',
        ...     'AC 9D TD JD QD'], turnup='KD').to_record().to_json(with_rules=False)["turnup"]
        'KD'
        """
        out: dict[str, Any] = {"rules": self.rules.to_dict()} if with_rules else {}
        out["dealer"] = self.dealer
        out["hands"] = [_texts(h) for h in self.hands]
        out["dummy"] = None if self.dummy is None else _texts(self.dummy)
        out["turnup"] = str(self.turnup)
        out["kitty"] = _texts(self.kitty)
        out["actions"] = list(self.actions)
        if self.score is not None:
            out["score"] = list(self.score)
        return out

    @classmethod
    def from_json(cls, data: object, rules: Rules | None = None) -> DealRecord:
        """The record a JSON object holds, each value of its type: ``dealer`` a seat
        number, the cards texts such as ``"JH"`` (not numbers), ``kitty`` present, the
        actions texts; else :class:`ValueError` naming the key and the type expected.
        ``rules`` are a game's, for a deal record that leaves its own out.

        >>> DealRecord.from_json({"dealer": 0, "hands": [], "turnup": 7, "kitty": []})
        Traceback (most recent call last):
        ...
        ValueError: 'turnup' must be a card such as 'JH', not 7
        """
        if not isinstance(data, dict):
            raise ValueError(f"a deal record must be an object, not {describe_value(data)}")
        if rules is None or "rules" in data:
            rules = Rules.from_dict(data.get("rules", {}))
        for key in ("dealer", "hands", "turnup", "kitty"):
            if key not in data:
                raise ValueError(f"a deal record needs {key!r}" + (
                    " (the rest of the pack, under the turn-up)" if key == "kitty" else ""))
        n = rules.players
        dealer, hands, dummy = data["dealer"], data["hands"], data.get("dummy")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"'dealer' must be a seat number from 0 to {n - 1}, "
                             f"not {describe_value(dealer)}")
        if not isinstance(hands, list):
            raise ValueError(f"'hands' must be a list of {n} hands, not {describe_value(hands)}")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise ValueError(f"'actions' must be a list of actions such as 'play JH', "
                             f"not {describe_value(actions)}")
        for i, text in enumerate(actions):
            if not isinstance(text, str):
                raise ValueError(f"'actions[{i}]' must be an action such as 'play JH', "
                                 f"not {describe_value(text)}")
        score = data.get("score")
        if score is not None and not (
                isinstance(score, list) and len(score) == n
                and all(isinstance(p, int) and not isinstance(p, bool) for p in score)):
            raise ValueError(f"'score' must be a list of {n} numbers of points, "
                             f"not {describe_value(score)}")
        return cls(
            rules, dealer,
            tuple(_cards(h, f"'hands[{s}]'") for s, h in enumerate(hands)),
            CARDS[card_value(data["turnup"], "'turnup'", text_only=True)],
            kitty=_cards(data["kitty"], "'kitty'"),
            dummy=None if dummy is None else _cards(dummy, "'dummy'"),
            actions=tuple(actions),
            score=None if score is None else tuple(score),
        )


def _cards(cards: object, key: str) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in card_values(cards, key, text_only=True))


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """The four-handed draw for partners a game record keeps (RULES §11):
    ``rounds[k][p]`` the card player p drew in round k (``None``: p did not draw
    again), ``seats[s]`` the player at seat s."""

    rounds: tuple[tuple[Card | None, ...], ...]
    seats: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The draw as a game record writes it."""
        return {"rounds": [[None if c is None else str(c) for c in row] for row in self.rounds],
                "seats": list(self.seats)}

    @classmethod
    def from_json(cls, data: object) -> DrawRecord | None:
        """The draw a game record holds, if it is readable (a draw that is not is not
        shown, and refuses nothing: ``None``)."""
        if not isinstance(data, dict):
            return None
        rounds, seats = data.get("rounds"), data.get("seats")
        if not isinstance(rounds, list) or not isinstance(seats, list) \
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in seats):
            return None
        try:
            cards = tuple(tuple(None if c is None else Card.parse(c) for c in row)
                          for row in rounds)
        except (TypeError, ValueError, AttributeError):
            return None
        return cls(cards, tuple(seats))


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game (RECORDS, "game record"): its rules, who sat where, the first dealer, the
    deals in order (each with the running score once over), the final scores and
    winners, and, where the game had them, the draw for partners and the seed that dealt
    every deal (``euchre play`` keeps it for ``--resume``).

    Only ``rules`` and ``deals`` are needed to replay a game; a key a record leaves out
    is ``None`` here and left out again when written.
    """

    rules: Rules
    deals: tuple[DealRecord, ...]
    seats: tuple[str, ...] | None = None
    first_dealer: int | None = None
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    draw: DrawRecord | None = None
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The record as RECORDS writes it, its deals without their rules."""
        out: dict[str, Any] = {"rules": self.rules.to_dict()}
        if self.seats is not None:
            out["seats"] = list(self.seats)
        if self.first_dealer is not None:
            out["first_dealer"] = self.first_dealer
        out["deals"] = [d.to_json(with_rules=False) for d in self.deals]
        if self.scores is not None:
            out["scores"] = list(self.scores)
        if self.winners is not None:
            out["winners"] = list(self.winners)
        if self.draw is not None:
            out["draw"] = self.draw.to_json()
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        """The game record a JSON object holds; a fault raises :class:`RecordError`
        naming the deal at fault.

        >>> GameRecord.from_json({"rules": {"players": 2}, "deals": [
        ...     {"dealer": 2, "hands": [], "turnup": "9C", "kitty": []}]})
        Traceback (most recent call last):
        ...
        euchre.notation.RecordError: deal 1: 'dealer' must be a seat number from 0 to 1, not 2
        """
        head, deals = cls.read(data)
        return dataclasses.replace(head, deals=tuple(deals))

    @classmethod
    def read(cls, data: object) -> tuple[GameRecord, Iterator[DealRecord]]:
        """The game record's header (every key but the deals, checked at once) and its
        deals, each read when the iterator reaches it: a replay tells the deals before a
        faulty one."""
        if not isinstance(data, dict):
            raise RecordError(f"a game record must be an object, not {describe_value(data)}")
        try:
            rules = Rules.from_dict(data.get("rules", {}))
        except (ValueError, TypeError) as e:
            raise RecordError(f"game rules: {e}") from None
        deals = data.get("deals")
        if not isinstance(deals, list):
            raise RecordError(f"'deals' must be a list of deal records, "
                              f"not {describe_value(deals)}")
        n = rules.players
        for k, rec in enumerate(deals):
            if not isinstance(rec, dict):
                raise RecordError(f"deal {k + 1} is not a JSON object but {describe_value(rec)}",
                                  deal=k)
        first = data.get("first_dealer")
        if first is not None and not _is_seat(first, n):
            raise RecordError(f"'first_dealer' must be a seat number from 0 to {n - 1}, "
                              f"not {describe_value(first)}")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError(f"'seed' must be a whole number, not {describe_value(seed)}")
        seats = data.get("seats")
        head = cls(
            rules, (),
            seats=tuple(seats) if isinstance(seats, list)
            and all(isinstance(s, str) for s in seats) else None,
            first_dealer=first,
            scores=_numbers(data.get("scores")),
            winners=_numbers(data.get("winners")),
            draw=DrawRecord.from_json(data.get("draw")),
            seed=seed,
        )
        return head, _deals(deals, rules)


def _deals(deals: list[dict[str, Any]], rules: Rules) -> Iterator[DealRecord]:
    for k, rec in enumerate(deals):
        try:
            yield DealRecord.from_json(rec, rules)
        except ValueError as e:
            raise RecordError(f"deal {k + 1}: {e}", deal=k) from None


def _numbers(value: object) -> tuple[int, ...] | None:
    """A list of whole numbers (scores, seats), else ``None``."""
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in value):
        return tuple(value)
    return None


def _is_seat(value: object, n: int) -> bool:
    """Whether ``value`` is an int from 0 to n - 1 (a bool is no seat)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


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
