"""Seat names as the table sees them, and the small grammar of "West passes", "You pass".

Seats are named by their place around the table as seen from one seat, the viewer's,
which sits South; a person playing is "You".  Four-handed this gives North, East,
South and West with partners opposite (RULES §4).

>>> names = SeatNames.around(4, view=1, person=True)
>>> names.names
('East', 'You', 'West', 'North')
>>> names.does(3, 'passes'), names.does(1, 'passes'), names.does([1, 3], 'marches')
('North passes', 'You pass', 'You and North march')
>>> names.sides()
((1, 3), (0, 2))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from euchre.cli.lang import N_, _
from euchre.rules import fixed_partner

__all__ = ["SeatNames", "base_form"]

YOU: Final = N_("You")

_AROUND: Final = {
    2: (N_("South"), N_("North")),
    3: (N_("South"), N_("West"), N_("East")),
    4: (N_("South"), N_("West"), N_("North"), N_("East")),
    5: (N_("South"), N_("West"), N_("Northwest"), N_("Northeast"), N_("East")),
}
"""Places clockwise (to the left, RULES "Seats") from the viewer, who sits South."""

_ORDER: Final = (YOU, "North", "East", "South", "West")
"""Four-handed, names are listed you first, then clockwise from North; else clockwise
from the viewer."""

_IRREGULAR: Final = {"is": "are", "has": "have", "does": "do", "goes": "go"}


def base_form(verb: str) -> str:
    """The verb for "you" from the one for "she": ``passes`` → ``pass``.

    >>> [base_form(v) for v in ('passes', 'marches', 'takes', 'is', 'names')]
    ['pass', 'march', 'take', 'are', 'name']
    """
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "ches", "shes", "xes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


@dataclass(frozen=True, slots=True)
class SeatNames:
    """The name of each seat, and whether a person plays (the seat named "You").

    Five-handed, seen by a person at seat 2:

    >>> SeatNames.around(5, view=2, person=True).names
    ('Northeast', 'East', 'You', 'West', 'Northwest')
    """

    names: tuple[str, ...]
    you: int | None = None

    @classmethod
    def around(cls, players: int, view: int, person: bool) -> SeatNames:
        """Names seen from seat ``view`` (South); ``person``: that seat is "You".

        >>> SeatNames.around(3, view=0, person=False).names
        ('South', 'West', 'East')
        """
        names = [""] * players
        for k, place in enumerate(_AROUND[players]):
            names[(view + k) % players] = place
        if person:
            names[view] = YOU
        return cls(tuple(names), view if person else None)

    @property
    def players(self) -> int:
        """How many seats.

        >>> SeatNames.around(4, view=1, person=True).players
        4
        """
        return len(self.names)

    def __getitem__(self, seat: int) -> str:
        """The seat's name in the current language (``names`` keeps the English ones)."""
        return _(self.names[seat])

    def possessive(self, seat: int) -> str:
        """``your`` or ``West's`` (English only: other languages word the whole
        sentence, see :meth:`act`).

        >>> names = SeatNames.around(4, view=1, person=True)
        >>> names.possessive(1), names.possessive(3)
        ('your', "North's")
        """
        return "your" if seat == self.you else f"{self.names[seat]}'s"

    def _ordered(self, seats: Iterable[int]) -> list[int]:
        """Seats you first, then four-handed clockwise from North, else clockwise."""
        if self.players == 4:
            return sorted(set(seats), key=lambda s: _ORDER.index(self.names[s]))
        view = self.names.index(YOU if self.you is not None else "South")
        return sorted(set(seats), key=lambda s: (s - view) % self.players)

    def clockwise(self) -> list[int]:
        """Every seat, clockwise from the viewer's (the person's, or the one watched).

        >>> SeatNames.around(3, view=1, person=False).clockwise()
        [1, 2, 0]
        """
        view = self.names.index(YOU if self.you is not None else "South")
        return [(view + k) % self.players for k in range(self.players)]

    def listed(self, seats: Iterable[int]) -> str:
        """Names joined in words, you first: ``You and North``, ``West, North and East``.

        >>> SeatNames.around(4, view=1, person=True).listed([3, 1])
        'You and North'
        >>> SeatNames.around(3, view=0, person=False).listed([2, 1, 0])
        'South, West and East'
        """
        words = [self[s] for s in self._ordered(seats)]
        if len(words) <= 1:
            return "".join(words)
        return _("{names} and {last}").format(names=", ".join(words[:-1]), last=words[-1])

    def act(self, seats: int | Iterable[int], other: str, you: str,
            group: str | None = None, **fields: object) -> str:
        """A sentence about a seat (``other``: ``{who} passes``), about you (``you``: ``You
        pass``) or about several (``group``, else ``other``: ``{who} pass``), in the current
        language, with ``{who}`` and ``fields`` filled in.

        >>> SeatNames.around(4, 0, True).act([1, 3], "{who} scores", "You score", "{who} score")
        'East and West score'
        """
        members = [seats] if isinstance(seats, int) else list(seats)
        single = you if members[0] == self.you else other
        message = (group or other) if len(members) > 1 else single
        return _(message).format(who=self.listed(members), **fields)

    def does(self, seats: int | Iterable[int], verb: str) -> str:
        """Subject and verb that agree: ``West passes``, ``You pass``, ``East and West score``.

        ``verb`` is the third-person singular form, and may go on: ``"orders it up"``;
        each verb after an "and" agrees too: ``"names trump and takes it up"``.
        """
        group = [seats] if isinstance(seats, int) else list(seats)
        if len(group) > 1 or group[0] == self.you:
            verb = " and ".join(_base_first(part) for part in verb.split(" and "))
        return f"{self.listed(group)} {verb}"

    def partner(self, seat: int) -> int | None:
        """The partner opposite, four-handed; else ``None`` (RULES §4).

        >>> SeatNames.around(4, view=1, person=True).partner(1)
        3
        >>> SeatNames.around(3, view=0, person=False).partner(0) is None
        True
        """
        return fixed_partner(self.players, seat)

    def sides(self) -> tuple[tuple[int, int], ...]:
        """Four-handed: the two sides, the viewer's (seat ``you`` or South) first."""
        if self.players != 4:
            return ()
        view = self.names.index(YOU) if self.you is not None else self.names.index("South")
        sides = []
        for seat in (view, (view + 1) % 4):
            partner = self.partner(seat)
            assert partner is not None  # four-handed
            sides.append(_pair(seat, partner))
        return tuple(sides)

    def side_name(self, side: Iterable[int]) -> str:
        """A side in a table or score line: ``You & North``.

        >>> names = SeatNames.around(4, view=1, person=True)
        >>> names.side_name((1, 3)), names.side_name((0, 2))
        ('You & North', 'East & West')
        """
        return " & ".join(self[s] for s in self._ordered(side))


def _base_first(phrase: str) -> str:
    head, _, rest = phrase.partition(" ")
    return f"{base_form(head)} {rest}" if rest else base_form(head)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)
