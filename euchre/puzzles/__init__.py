"""Puzzles: real positions where one decision matters, judged by the expert's opinion.

A :class:`Puzzle` is small plain data: the rules, the deal record up to the position (the
RECORDS notation: :meth:`Deal.from_record <euchre.deal.Deal.from_record>` rebuilds it), the
seat to move, the answer, the expert's value of every legal action, the themes and a rating.
:func:`judge` is the maker's criterion (one action beats every other by :data:`MARGIN`
points and the obvious choice, the ``basic`` bot's, is another); :func:`themes` tags a
position by rules over what the seat sees (RULES §12), never by hand.  The batch job that
plays deals and keeps puzzles is :mod:`euchre.jobs.puzzles`; the shipped sets are read
lazily by :func:`shipped`.

>>> from euchre import Deal, Rules
>>> deal = Deal.from_cards(Rules(players=2), dealer=0,
...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
>>> values = {Action.parse('order'): 1.2, Action.parse('pass'): 0.4}
>>> judge(values, obvious=Action.parse('pass'))
Action.parse('order')
>>> judge(values, obvious=Action.parse('order')) is None  # the obvious choice is right
True
>>> puzzle = make_puzzle(deal, 1, values, Action.parse('order'))
>>> puzzle.themes
('bid',)
>>> Puzzle.from_json(puzzle.to_json()) == puzzle
True
"""

from __future__ import annotations

import datetime
import functools
import gzip
import hashlib
import io
import json
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from euchre.actions import Action, ActionKind
from euchre.cards import (
    Card,
    Suit,
    cards_of,
    effective_suit,
    left_bower,
    pack_mask,
    right_bower,
    trick_strength,
)
from euchre.deal import Deal, Observation, Phase
from euchre.rules import Rules

__all__ = [
    "FORMAT",
    "MARGIN",
    "SOLVED_WITHIN",
    "THEMES",
    "Puzzle",
    "Reasons",
    "count_themes",
    "daily",
    "judge",
    "make_puzzle",
    "margin_of",
    "nearest",
    "read_puzzles",
    "reasons",
    "shipped",
    "shipped_header",
    "starting_rating",
    "suit_in_question",
    "themes",
    "trumps_held",
    "trumps_out",
    "write_puzzles",
]

MARGIN: Final = 0.3
"""Expected points by which a puzzle's answer beats every other legal action (the
review's mistake threshold, :data:`euchre.jobs.analysis.MISTAKE_THRESHOLD`)."""
SOLVED_WITHIN: Final = 0.05
"""An action within this many points of the answer's value solves the puzzle too (a
puzzle cut from a review may have two near-equal best actions)."""
FORMAT: Final = "euchre-puzzles"
"""The ``format`` of a puzzle file's header line."""

THEMES: Final = (
    # the kind of decision
    "bid", "go alone", "discard", "call", "defend alone", "lead", "follow", "ruff",
    "throw off",
    # what the position turns on
    "next", "loner", "stick the dealer", "trump lead", "save the bower", "count trumps",
    "partner's ace",
)
"""Every theme a puzzle may have, in English (the terminal words them)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position, the seat to move, its answer and the expert's values (see the module)."""

    rules: dict[str, Any]
    """The rules (:meth:`Rules.to_dict <euchre.rules.Rules.to_dict>`)."""
    record: dict[str, Any]
    """The deal record up to the position: the last action is the one before the seat's
    decision."""
    seat: int
    answer: str
    """The action to find (RECORDS notation)."""
    values: dict[str, float]
    """Every legal action's value, in expected points for the seat's side this deal."""
    themes: tuple[str, ...]
    rating: int
    """The starting rating (Glicko-2 scale): the bots' solving of it for a made puzzle
    (:func:`euchre.puzzles.rating.rated_by_bots`), :func:`starting_rating` for a player's
    own mistake."""

    @property
    def id(self) -> str:
        """A short name of the position (a hash of the record and the seat)."""
        text = json.dumps([self.record, self.seat], sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()

    @property
    def players(self) -> int:
        """The variant's players."""
        return int(self.rules["players"])

    def deal(self) -> Deal:
        """The position, rebuilt from the record."""
        return Deal.from_record(self.record)

    def observation(self) -> Observation:
        """What the seat sees at the position (RULES §12)."""
        return self.deal().observation(self.seat)

    @property
    def margin(self) -> float:
        """How far the answer beats the next best action."""
        return margin_of({Action.parse(a): v for a, v in self.values.items()},
                         Action.parse(self.answer))

    def value(self, action: Action) -> float:
        """An action's value (``-inf`` for one not legal here)."""
        return self.values.get(str(action), -math.inf)

    def solved_by(self, action: Action) -> bool:
        """Whether ``action`` is the answer, or as good (within :data:`SOLVED_WITHIN`)."""
        return (str(action) == self.answer
                or self.value(action) >= self.values[self.answer] - SOLVED_WITHIN)

    def to_json(self) -> dict[str, Any]:
        """The plain object of ``euchre puzzle --export --json`` and of the files."""
        return {"id": self.id, "rules": self.rules, "record": self.record, "seat": self.seat,
                "answer": self.answer, "values": self.values, "themes": list(self.themes),
                "rating": self.rating}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle of :meth:`to_json`'s object (``id`` is derived, not read)."""
        return cls(dict(data["rules"]), dict(data["record"]), int(data["seat"]),
                   str(data["answer"]),
                   {str(a): float(v) for a, v in data["values"].items()},
                   tuple(str(t) for t in data["themes"]), int(data["rating"]))


def margin_of(values: dict[Action, float], action: Action) -> float:
    """How far ``action``'s value beats every other action's (negative when another is
    better; ``inf`` when it is the only one).

    >>> margin_of({Action.parse('pass'): 0.5, Action.parse('order'): 1.5},
    ...           Action.parse('order'))
    1.0
    """
    others = [v for a, v in values.items() if a != action]
    return values[action] - max(others) if others else math.inf


def judge(values: dict[Action, float], obvious: Action, margin: float = MARGIN
          ) -> Action | None:
    """The maker's criterion: the answer of a position whose expert ``values`` have one
    action better than every other by ``margin`` or more, when the ``obvious`` choice (the
    ``basic`` bot's) is another; else ``None``."""
    if len(values) < 2:
        return None
    best = max(values, key=lambda a: values[a])
    if best == obvious or margin_of(values, best) < margin:
        return None
    return best


def starting_rating(margin: float, choices: int) -> int:
    """A rule of thumb for a puzzle's starting rating, where the bots have not tried it (a
    player's own mistakes): harder with more legal actions to choose from and with a
    smaller margin (a subtler difference).  Glicko-2's scale, 1500 for an average puzzle.
    The maker rates its puzzles by the bots' solving instead
    (:func:`euchre.puzzles.rating.rated_by_bots`).

    >>> starting_rating(0.3, 2) > starting_rating(2.0, 2)
    True
    >>> starting_rating(1.0, 5) > starting_rating(1.0, 2)
    True
    """
    subtle = 1 - min(max(margin, 0.0), 2.0) / 2.0
    return round(1150 + 150 * math.log2(max(choices, 2)) + 400 * subtle)


# -- what the position shows ---------------------------------------------------------------

def _bid_suit(obs: Observation, answer: Action) -> Suit | None:
    """The suit a bid is about: the suit named, the turn-up's, or trump once fixed."""
    if obs.trump is not None:
        return obs.trump
    if answer.suit is not None:
        return answer.suit
    return obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit


def trumps_held(obs: Observation, trump: Suit) -> list[Card]:
    """The seat's cards that are trumps when ``trump`` is (the bowers and the joker
    included), strongest first."""
    held = [c for c in obs.hand if effective_suit(c, trump) == trump]
    return sorted(held, key=lambda c: -trick_strength(c, trump, trump))


def trumps_out(obs: Observation) -> list[Card]:
    """The trumps the seat has not seen (not held, not played, not its own discard nor the
    turn-up taken): where the other hands may hold them.  Empty before trump is fixed."""
    trump = obs.trump
    if trump is None:
        return []
    seen = set(obs.hand) | set(obs.discards) | set(obs.dummy or ())
    seen |= {c for trick in obs.tricks for _, c in trick.cards} | {c for _, c in obs.trick}
    if obs.turnup_taken:
        seen.add(obs.turnup)
    return [c for c in _pack(obs.rules) if effective_suit(c, trump) == trump and c not in seen]


def _pack(rules: Rules) -> list[Card]:
    return list(cards_of(pack_mask(rules.deck, rules.joker)))


def _partner(obs: Observation) -> int | None:
    """The seat's partner as it knows it: four-handed the seat opposite; five-handed the
    maker's called partner once known."""
    n = obs.rules.players
    if n == 4:
        return (obs.seat + 2) % 4
    if n == 5 and obs.partner is not None and obs.maker is not None:
        pair = {obs.maker, obs.partner}
        if obs.seat in pair:
            return (pair - {obs.seat}).pop()
    return None


def themes(obs: Observation, answer: Action) -> tuple[str, ...]:
    """The themes of a position (its seat to move) and its answer, by rules over what the
    seat sees, in the order of :data:`THEMES`:

    - the kind of decision: ``bid`` (order up, name trump or pass), ``go alone`` (the
      answer bids alone), ``discard``, ``call`` (the five-handed partner), ``defend alone``
      (the decision whether to), ``lead``, ``follow`` (following suit), ``ruff`` (trumping a
      led plain suit), ``throw off`` (neither following nor trumping);
    - ``next``: in round 2, naming the suit of the turned-down card's colour;
    - ``loner``: someone plays alone, or the answer does;
    - ``stick the dealer``: the dealer must name trump;
    - ``trump lead``: leading a trump;
    - ``save the bower``: holding a bower (or the joker) back when it could be played;
    - ``count trumps``: from the third trick on, at most one trump the seat has not seen;
    - ``partner's ace``: the partner is winning the trick with an ace and the answer does
      not take it over.
    """
    found: set[str] = set()
    phase = obs.phase
    kind = answer.kind
    if phase in (Phase.BID_TURNUP, Phase.BID_SUIT, Phase.NAME_TRUMP):
        found.add("bid")
        if answer.alone:
            found.add("go alone")
        if (phase is Phase.BID_SUIT and kind is ActionKind.TRUMP and answer.suit is not None
                and obs.turnup.suit is not None and answer.suit == obs.turnup.suit.same_colour):
            found.add("next")
        if phase is Phase.BID_SUIT and not any(a.kind is ActionKind.PASS
                                               for a in obs.legal_actions):
            found.add("stick the dealer")
    elif phase in (Phase.EXCHANGE, Phase.DUMMY):
        found.add("discard")
    elif phase is Phase.CALL_PARTNER:
        found.add("call")
    elif phase is Phase.DEFEND:
        found.add("defend alone")
    if answer.alone or kind is ActionKind.DEFEND_ALONE or (obs.alone and phase is Phase.PLAY):
        found.add("loner")
    if phase is Phase.PLAY and answer.card is not None and obs.trump is not None:
        _play_themes(obs, answer.card, obs.trump, found)
    return tuple(t for t in THEMES if t in found)


def _play_themes(obs: Observation, card: Card, trump: Suit, found: set[str]) -> None:
    suit = effective_suit(card, trump)
    if not obs.trick:
        found.add("lead")
        if suit == trump:
            found.add("trump lead")
    else:
        led = effective_suit(obs.trick[0][1], trump)
        found.add("follow" if suit == led else "ruff" if suit == trump else "throw off")
        partner = _partner(obs)
        winner, best = obs.trick[0]
        for seat, played in obs.trick[1:]:
            if trick_strength(played, led, trump) > trick_strength(best, led, trump):
                winner, best = seat, played
        if (winner == partner and best.rank == 7 and effective_suit(best, trump) != trump
                and trick_strength(card, led, trump) < trick_strength(best, led, trump)):
            found.add("partner's ace")
    bowers = {right_bower(trump), left_bower(trump), Card.JK}
    legal_cards = {a.card for a in obs.legal_actions}
    if card not in bowers and any(c in bowers for c in legal_cards):
        found.add("save the bower")
    if len(obs.tricks) >= 2 and len(trumps_out(obs)) <= 1:
        found.add("count trumps")


def suit_in_question(obs: Observation, answer: Action) -> Suit | None:
    """The suit the reasons speak of: trump once fixed; in the bidding the suit the
    ``answer`` names, else the turn-up's (round 1), else the suit of which the seat would
    hold the most trumps."""
    if obs.trump is not None:
        return obs.trump
    if answer.suit is not None:
        return answer.suit
    if obs.phase is Phase.BID_TURNUP:
        return obs.turnup.suit if obs.turnup.suit is not None else obs.rules.joker_suit
    named = [a.suit for a in obs.legal_actions if a.suit is not None]
    if not named:
        return None
    return max(named, key=lambda s: sum(effective_suit(c, s) == s for c in obs.hand))


@dataclass(frozen=True, slots=True)
class Reasons:
    """What a puzzle's explanation says, as facts that the terminal and the web page word
    (:func:`reasons`)."""

    bidding: bool
    """Whether the decision is a bid (round 1 or 2, or naming trump)."""
    suit: Suit | None
    """The suit that is trump, or would be (:func:`suit_in_question`)."""
    held: tuple[Card, ...]
    """The seat's trumps in that suit, strongest first."""
    passed: tuple[int, ...]
    """In the bidding: the other seats that passed before, each once, in the order of
    their first pass."""
    maker: int | None
    """After the bidding: the seat that made trump."""
    alone: bool
    """Whether the maker plays alone."""
    out: tuple[Card, ...] | None
    """In the play: the trumps the seat has not seen (:func:`trumps_out`); else ``None``."""

    def to_json(self) -> dict[str, Any]:
        """The facts as the web page reads them (cards and suits in the RECORDS notation;
        ``passed`` in the bidding only, ``maker`` and ``alone`` once trump is made, ``out``
        in the play only)."""
        facts: dict[str, Any] = {"bidding": self.bidding,
                                 "suit": self.suit.char if self.suit is not None else None,
                                 "held": [str(c) for c in self.held]}
        if self.bidding:
            facts["passed"] = list(self.passed)
        elif self.maker is not None:
            facts["maker"] = self.maker
            facts["alone"] = self.alone
            if self.out is not None:
                facts["out"] = [str(c) for c in self.out]
        return facts


def reasons(obs: Observation, answer: Action) -> Reasons:
    """The facts a puzzle's explanation gives, from what the seat sees (RULES §12): the
    trumps it holds (or would hold, in the bidding), who passed before it, who made trump
    and alone or not, and the trumps it has not seen.  One place for the terminal and the
    web page.

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> r = reasons(deal.observation(1), Action.parse('order'))
    >>> r.bidding, str(r.suit), [str(c) for c in r.held], r.passed
    (True, 'D', ['JD', 'QD', 'TD', '9D'], ())

    In round 2, the others that passed, once each (not the seat itself):

    >>> four = Deal.random(Rules(players=4), dealer=3, seed=1)
    >>> effects = [four.apply("pass") for _ in range(5)]
    >>> four.to_move, reasons(four.observation(1), Action.parse("pass")).passed
    (1, (0, 2, 3))
    """
    bidding = obs.phase in (Phase.BID_TURNUP, Phase.BID_SUIT, Phase.NAME_TRUMP)
    suit = suit_in_question(obs, answer)
    held = tuple(trumps_held(obs, suit)) if suit is not None else ()
    # each other seat that passed, once, in the order of its first pass (in round 2 the
    # seat itself passed in round 1, and the others may have passed twice)
    passed = tuple(dict.fromkeys(
        e.seat for e in obs.events if e.action is not None
        and e.action.kind is ActionKind.PASS and e.seat != obs.seat)) if bidding else ()
    made = not bidding and obs.trump is not None and obs.maker is not None
    out = tuple(trumps_out(obs)) if made and obs.phase is Phase.PLAY else None
    return Reasons(bidding, suit, held, passed, obs.maker if made else None,
                   bool(obs.alone) if made else False, out)


# -- making one ----------------------------------------------------------------------------

def make_puzzle(deal: Deal, seat: int, values: dict[Action, float], answer: Action,
                rating: int | None = None) -> Puzzle:
    """The puzzle of ``deal`` as it stands (``seat`` to move), with the expert's ``values``
    and the ``answer``; its themes by :func:`themes`, its rating by :func:`starting_rating`
    unless given."""
    obs = deal.observation(seat)
    if rating is None:
        rating = starting_rating(margin_of(values, answer), len(values))
    return Puzzle(deal.rules.to_dict(), deal.to_record().to_json(), seat, str(answer),
                  {str(a): round(v, 3) for a, v in values.items()}, themes(obs, answer),
                  rating)


# -- files -----------------------------------------------------------------------------------

def write_puzzles(path: Path, puzzles: Iterable[Puzzle], header: dict[str, Any]) -> int:
    """Write a puzzle file: a header line (``format``, and what made it: ``header``), then
    one puzzle a line; gzip-compressed when the name ends in ``.gz``.  Returns the count."""
    lines = [json.dumps({"format": FORMAT, **header}, sort_keys=True)]
    lines += [json.dumps(p.to_json(), sort_keys=True, separators=(",", ":")) for p in puzzles]
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data, mtime=0) if path.name.endswith(".gz") else data)
    return len(lines) - 1


def read_puzzles(data: bytes) -> tuple[dict[str, Any], list[Puzzle]]:
    """A puzzle file's header and puzzles (its bytes, gzip-compressed or not).  Raises
    :class:`ValueError` for a file that is not one."""
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    header: dict[str, Any] | None = None
    puzzles = []
    for line in io.StringIO(data.decode()):
        if not line.strip():
            continue
        obj = json.loads(line)
        if header is None:
            if not isinstance(obj, dict) or obj.get("format") != FORMAT:
                raise ValueError("not a puzzle file: its first line is no header")
            header = obj
        else:
            puzzles.append(Puzzle.from_json(obj))
    if header is None:
        raise ValueError("not a puzzle file: it is empty")
    return header, puzzles


@functools.cache
def _shipped(players: int) -> tuple[dict[str, Any], tuple[Puzzle, ...]]:
    ref = resources.files("euchre.puzzles") / "data" / f"{players}.jsonl.gz"
    try:
        data = ref.read_bytes()
    except (FileNotFoundError, OSError):
        return {"format": FORMAT}, ()
    header, puzzles = read_puzzles(data)
    return header, tuple(puzzles)


def shipped(players: int) -> tuple[Puzzle, ...]:
    """The puzzles shipped for ``players`` (the variant's default rules), read on first
    use; empty where none are."""
    return _shipped(players)[1]


def shipped_header(players: int) -> dict[str, Any]:
    """The header of the shipped set: the command and seed that made it."""
    return _shipped(players)[0]


# -- choosing one -------------------------------------------------------------------------

def _with_themes(puzzles: Sequence[Puzzle], wanted: Sequence[str]) -> list[Puzzle]:
    return [p for p in puzzles if all(t in p.themes for t in wanted)]


def count_themes(puzzles: Iterable[Puzzle]) -> dict[str, int]:
    """How many of ``puzzles`` have each theme, in the order of :data:`THEMES` (a theme
    none has is left out).

    >>> from euchre import Deal, Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=['9C TC JC QC KC', 'AC 9D TD JD QD'], turnup='KD')
    >>> bid = make_puzzle(deal, 1, {Action.parse('order'): 1.0, Action.parse('pass'): 0.2},
    ...                   Action.parse('order'))
    >>> count_themes([bid, bid])
    {'bid': 2}
    """
    found = Counter(t for p in puzzles for t in p.themes)
    return {t: found[t] for t in THEMES if found[t]}


def nearest(puzzles: Sequence[Puzzle], rating: float, rng: random.Random,
            wanted: Sequence[str] = (), skip: Iterable[str] = (), among: int = 12
            ) -> Puzzle | None:
    """A puzzle near ``rating``: one of the ``among`` nearest with every ``wanted``
    theme, not one whose id is in ``skip`` (unless all are); ``None`` when none has the
    themes."""
    pool = _with_themes(puzzles, wanted)
    skipped = set(skip)
    fresh = [p for p in pool if p.id not in skipped] or pool
    if not fresh:
        return None
    fresh.sort(key=lambda p: (abs(p.rating - rating), p.id))
    return rng.choice(fresh[:among])


def daily(puzzles: Sequence[Puzzle], day: datetime.date) -> Puzzle | None:
    """The puzzle of the day: the same for everyone that day (drawn with the date as the
    seed), ``None`` when there is none."""
    if not puzzles:
        return None
    ordered = sorted(puzzles, key=lambda p: p.id)
    return random.Random(f"daily/{day.isoformat()}").choice(ordered)
