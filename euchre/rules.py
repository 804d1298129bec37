"""The rules of one game: a frozen, validated configuration with a preset per variant.

Every option of the rules (docs/rules.md) is a field; an invalid combination is refused at
construction with a sentence that names the rule and the numbers.

>>> Rules.preset('five-handed')
Rules(players=5)
>>> Rules.preset('five-handed').deck
28
>>> Rules(players=4, defend_alone=True)
Rules(players=4, defend_alone=True)
>>> Rules(players=5, deck=24)
Traceback (most recent call last):
...
euchre.rules.RulesError: five hands need 26 cards (5 × 5 + the turn-up) but the pack has 24 ...
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from euchre.cards import Suit

__all__ = ["OPTIONS", "VARIANTS", "RuleOption", "Rules", "RulesError", "describe_value",
           "fixed_partner", "option"]

VARIANTS: Final = {
    "two-handed": 2,
    "three-handed": 3,
    "cutthroat": 3,
    "four-handed": 4,
    "partnership": 4,
    "five-handed": 5,
    "call-your-partner": 5,
}
"""Variant names accepted by :meth:`Rules.preset`, with their number of players."""

_NAMES: Final = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_UNSET: Final[Any] = None


def fixed_partner(players: int, seat: int) -> int | None:
    """Four-handed, partners sit opposite; no other variant has a fixed partner (RULES §4).

    >>> fixed_partner(4, 1), fixed_partner(3, 1)
    (3, None)
    """
    return (seat + 2) % 4 if players == 4 else None


class RulesError(ValueError):
    """A rules set that the rules (docs/rules.md, sections 1 to 11) do not allow.  Its
    message names the rule and the numbers.

    >>> Rules(players=4, target=0)
    Traceback (most recent call last):
      ...
    euchre.rules.RulesError: the target must be a positive number of points, not 0 (RULES §10)
    """


def describe_value(value: object) -> str:
    """A value as an error message shows it: in JSON's words, and short whatever it holds.

    >>> describe_value("false"), describe_value(True), describe_value(None), describe_value(5)
    ("the string 'false'", 'true', 'null', '5')
    >>> describe_value(10 ** 5000), describe_value([[1]])
    ('a number of about 5000 digits', 'a list of 1 item')
    >>> describe_value("x" * 99)
    "the string 'xxxxxxxxxxxxxxxxxxxxxxxx'… (99 characters)"
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 64:  # printing it whole would drown the message
            return f"a number of about {round(value.bit_length() * 0.30103)} digits"
        return int.__repr__(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if len(value) > 24:
            return f"the string {value[:24]!r}… ({len(value)} characters)"
        return f"the string {value!r}"
    if isinstance(value, list | tuple):
        size = len(value)
        return "an empty list" if not size else f"a list of {size} item{'s' * (size > 1)}"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


_TYPE_WORDS: Final = {
    "bool": "true or false",
    "int": "a whole number",
    "str": "a string",
}
"""What a rules option of each field type must be, as a message says it."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One game's rules (docs/rules.md).  Unset options take the variant's defaults.

    ``players`` picks the variant: 2 two-handed, 3 three-handed "cutthroat" with a dummy,
    4 partnership, 5 with a called secret partner.  The repr names only the options that
    differ from the variant's defaults:

    >>> rules = Rules(players=5)
    >>> rules, rules.deck, rules.stick_the_dealer
    (Rules(players=5), 28, True)
    """

    players: int = 4
    deck: int = _UNSET
    """24, 28 or 32 cards (RULES §1); default 28 five-handed, else 24."""
    joker: bool = False
    """Add the joker ("benny"), the highest trump (RULES §1, §2)."""
    joker_turnup: str = "dealer_names"
    """A turned-up joker: ``"dealer_names"`` (the dealer names trump) or ``"suit:S"``."""
    stick_the_dealer: bool = _UNSET
    """The dealer may not pass in round 2 (RULES §4); default on five-handed only."""
    dealer_must_take_up: bool = False
    """The dealer must keep the turn-up when it is ordered up (RULES §5)."""
    defend_alone: bool = _UNSET
    """A defender may declare alone (RULES §7); default on three-handed only."""
    target: int = 10
    """Points that win the game (RULES §10)."""
    draw: bool = False
    """Four-handed: the draw fixes partners and the first dealer (RULES §11)."""
    rubber: bool = False
    """Four-handed: play a rubber, best of three games (RULES §11)."""

    def __post_init__(self) -> None:
        """Fill in the variant's defaults and check the options: each against its own
        bounds in :data:`OPTIONS` (:meth:`RuleOption.check`), the pack against the hands."""
        self._check_types()
        n = self.players
        option("players").check(self)
        defaults = {
            "deck": 28 if n == 5 else 24,
            "stick_the_dealer": n == 5,
            "defend_alone": n == 3,
        }
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        if self.joker_turnup != "dealer_names":
            prefix, _, suit = self.joker_turnup.partition(":")
            try:
                if prefix == "suit":
                    object.__setattr__(self, "joker_turnup", "suit:" + Suit.parse(suit).char)
            except ValueError:
                pass  # refused below, with the value as given
        option("deck").check(self)
        size = self.pack_size
        need = 5 * self.hands + 1
        if need > size:
            what = f"{_NAMES[self.hands]} hands"
            if n == 3:
                what += " (three players and the dummy)"
            fix = " or ".join(
                f"deck={d}" for d in (28, 32) if 5 * self.hands + 1 <= d + self.joker
            )
            raise RulesError(
                f"{what} need {need} cards (5 × {self.hands} + the turn-up) but the pack has "
                f"{size} (RULES §1); use {fix}"
            )
        for o in OPTIONS[2:]:
            o.check(self)

    def _check_types(self) -> None:
        """Each option has its field's type: a bool is true or false (never the string
        ``"false"``), a number is an int (never a bool), ``joker_turnup`` a string."""
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue  # the variant's default
            if f.type == "bool":
                ok = isinstance(value, bool)
            elif f.type == "int":
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, str)
            if not ok:
                raise RulesError(f"rules option {f.name!r} must be {_TYPE_WORDS[str(f.type)]}, "
                                 f"not {describe_value(value)}")

    # -- presets ---------------------------------------------------------------------
    @classmethod
    def preset(cls, variant: str | int, **options: Any) -> Rules:
        """The rules of a variant by name (``two-handed`` … ``five-handed``) or player count.

        >>> Rules.preset(3).defend_alone
        True
        """
        if isinstance(variant, int) or (isinstance(variant, str) and variant.isdigit()):
            players = int(variant)
        else:
            key = variant.strip().lower().replace("_", "-").replace(" ", "-")
            if key not in VARIANTS:
                raise RulesError(
                    f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}"
                )
            players = VARIANTS[key]
        return cls(players=players, **options)

    # -- derived facts -----------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The variant's name, e.g. ``"four-handed"``.

        >>> Rules(players=3).variant
        'three-handed'
        """
        return f"{_NAMES[self.players]}-handed"

    @property
    def hands(self) -> int:
        """Hands dealt: one per player, plus the dummy three-handed (RULES §3).

        >>> Rules(players=3).hands, Rules(players=4).hands
        (4, 4)
        """
        return 4 if self.players == 3 else self.players

    @property
    def pack_size(self) -> int:
        """Cards in the pack, the joker included.

        >>> Rules(players=5).pack_size, Rules(players=4, joker=True).pack_size
        (28, 25)
        """
        return self.deck + (1 if self.joker else 0)

    @property
    def partnership(self) -> bool:
        """Four-handed: fixed partners sit opposite and score together.

        >>> [players for players in (2, 3, 4, 5) if Rules(players=players).partnership]
        [4]
        """
        return self.players == 4

    def partner_of(self, seat: int) -> int | None:
        """The fixed partner: the seat opposite four-handed, else nobody (RULES §4).

        >>> Rules(players=4).partner_of(3), Rules(players=5).partner_of(3)
        (1, None)
        """
        return fixed_partner(self.players, seat)

    @property
    def alone_allowed(self) -> bool:
        """The maker may go alone in every variant but two-handed (RULES §4).

        >>> Rules(players=2).alone_allowed, Rules(players=3).alone_allowed
        (False, True)
        """
        return self.players != 2

    @property
    def joker_suit(self) -> Suit | None:
        """The fixed suit a turned-up joker stands for, or ``None`` when the dealer names.

        >>> Rules(joker=True, joker_turnup="suit:S").joker_suit, Rules(joker=True).joker_suit
        (Suit.SPADES, None)
        """
        if self.joker_turnup == "dealer_names":
            return None
        return Suit.parse(self.joker_turnup[5:])

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (and defaults recomputed for a new variant).

        The options set by hand are kept; those left to the variant take the new one's:

        >>> Rules(players=4, joker=True).replace(players=5)
        Rules(players=5, joker=True)
        >>> Rules(players=4, joker=True).replace(players=5).deck
        28
        """
        if "players" in changes and changes["players"] != self.players:
            base = Rules(players=self.players).to_dict()
            kept = {k: v for k, v in self.to_dict().items() if v != base[k]}
            kept.update(changes)
            return Rules(**kept)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as RECORDS writes them under ``"rules"``: every one, the defaults
        filled in, so a record reads the same whatever the defaults become.

        >>> Rules(players=2).to_dict()["defend_alone"], Rules.from_dict(Rules(players=2).to_dict())
        (False, Rules(players=2))
        """
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a record's ``"rules"`` object; omitted keys take the defaults.

        Each value must have its option's type (see :meth:`_check_types`):

        >>> Rules.from_dict({"joker": "false"})
        Traceback (most recent call last):
        ...
        euchre.rules.RulesError: rules option 'joker' must be true or false, not the string 'false'
        """
        if not isinstance(data, dict):
            raise RulesError(f"'rules' must be an object of rules options, "
                             f"not {describe_value(data)}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            shown = sorted(k if len(k) <= 24 else k[:24] + "…" for k in map(str, unknown))
            more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
            raise RulesError(f"unknown rules option(s): {', '.join(map(repr, shown[:3]))}{more}; "
                             f"known: {', '.join(sorted(known))}")
        return cls(**data)

    def changed(self) -> dict[str, Any]:
        """The options whose values differ from the variant's defaults, in the order of
        the fields (what the repr names; a puzzle's page calls them its house rules).

        >>> Rules(players=4, stick_the_dealer=True, target=5).changed()
        {'stick_the_dealer': True, 'target': 5}
        >>> Rules(players=5, deck=28).changed()
        {}
        """
        base = Rules(players=self.players)
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name != "players" and getattr(self, f.name) != getattr(base, f.name)}

    def house_rules(self) -> dict[str, Any]:
        """The options of one deal that differ from the variant's defaults: :meth:`changed`
        without the game's own (the target, the draw, rubbers), as a puzzle names them.

        >>> Rules(players=4, stick_the_dealer=True, target=5).house_rules()
        {'stick_the_dealer': True}
        """
        return {name: value for name, value in self.changed().items()
                if option(name).per_deal}

    def __repr__(self) -> str:
        shown = [f"players={self.players}"]
        shown += [f"{name}={value!r}" for name, value in self.changed().items()]
        return f"Rules({', '.join(shown)})"


# -- the options' table ------------------------------------------------------------------
def N_(message: str) -> str:
    """Marks ``message`` for translation (both catalogs: the terminal's ``euchre`` and the
    page's ``web``); the front end that shows it translates it."""
    return message


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One option of :class:`Rules`, as every front end offers it.

    The command line's options, the server's request model, the lobby's form (served as
    JSON) and OpenSpiel's game parameters are all made from :data:`OPTIONS`; the engine's
    own checks stay in :class:`Rules`.
    """

    name: str
    """The field of :class:`Rules` (and the key of a record's ``"rules"``), which declares
    the option's type (:attr:`type`) and its value when unset (:attr:`default`)."""
    flag: str
    """The command line's option, e.g. ``--to`` for ``target``."""
    help: str
    """The command line's help (marked for the catalogs)."""
    label: str
    """The lobby's label of the option (marked for the catalogs)."""
    note: str
    """What the option means, in one line (marked for the catalogs)."""
    section: str
    """Its section of the rules page: the anchor of the English heading."""
    choices: tuple[Any, ...] = ()
    """The only values allowed, if the option has a short list of them (:class:`Rules`
    refuses any other with :attr:`refused`)."""
    low: int | None = None
    """The least value of a number (the most: :attr:`high`); :class:`Rules` refuses a
    smaller one with :attr:`refused`."""
    high: int | None = None
    """The largest value of a number a person may ask for (the server's and the
    command line's bound; a record may hold a larger target)."""
    max_length: int | None = None
    """The longest string a request may give (the engine reads the value further)."""
    variants: tuple[int, ...] = (2, 3, 4, 5)
    """The numbers of players whose game the option may be turned on for (:class:`Rules`
    refuses it on in another with :attr:`refused`)."""
    refused: str = ""
    """The sentence that refuses a value outside :attr:`choices` or under :attr:`low`
    (``{value}``: the value given), or the option turned on in a variant not among
    :attr:`variants` (``{variant}``: e.g. ``two-handed``); it cites its RULES §."""
    negatable: bool = False
    """Whether the command line also has ``--no-FLAG`` (to turn off a variant's default)."""
    short: str | None = None
    """The command line's one-letter flag, if any."""
    metavar: str | None = None
    """How the command line's help shows the value."""
    per_deal: bool = True
    """A rule of one deal (OpenSpiel's game is one deal); ``False``: of the game."""
    suggestions: tuple[int, ...] = ()
    """Values the lobby proposes for a number, in the variants of :attr:`suggested_for`."""
    suggested_for: tuple[int, ...] = ()
    """The numbers of players whose games :attr:`suggestions` are proposed for."""
    on_words: str | None = None
    """The option in a line of the rules in force (``euchre simulate``'s summary), when
    it is on."""
    shown_with: str | None = None
    """The option this one is asked with, shown only when that one is on."""
    choice_labels: tuple[tuple[str, str], ...] = ()
    """Words for some of :attr:`choices` (marked for the catalogs)."""

    @property
    def type(self) -> type:
        """``bool``, ``int`` or ``str``: the type of its field of :class:`Rules`.

        >>> option("deck").type, option("joker_turnup").type
        (<class 'int'>, <class 'str'>)
        """
        return _TYPES[str(_FIELDS[self.name].type)]

    @property
    def default(self) -> Any:
        """The value when unset, its field's default; ``None``: the variant's
        (:meth:`defaults`).

        >>> option("target").default, option("deck").default
        (10, None)
        """
        return _FIELDS[self.name].default

    def check(self, rules: Rules) -> None:
        """Raise :class:`RulesError` with :attr:`refused` if ``rules`` give the option a
        value outside :attr:`choices`, under :attr:`low`, or turn it on in a variant not
        among :attr:`variants`.

        >>> option("deck").check(Rules(players=4))
        """
        value = getattr(rules, self.name)
        if ((self.choices and value not in self.choices)
                or (self.low is not None and value < self.low)):
            raise RulesError(self.refused.format(value=describe_value(value)))
        if value is True and rules.players not in self.variants:
            raise RulesError(self.refused.format(variant=rules.variant))

    def defaults(self) -> dict[int, Any]:
        """The option's value when unset, by number of players.

        >>> option("deck").defaults()
        {2: 24, 3: 24, 4: 24, 5: 28}
        """
        return {n: getattr(Rules(players=n), self.name) for n in range(2, 6)}

    def to_json(self) -> dict[str, Any]:
        """The option as the server serves it (``GET /api/rules/options``): every field
        in JSON's terms (the type by name), and the defaults by variant; the lobby's form
        is made from it.

        >>> option("draw").to_json()["variants"], option("draw").to_json()["defaults"]["4"]
        ([4], False)
        """
        out: dict[str, Any] = {"name": self.name, "type": self.type.__name__,
                               "default": self.default}
        for f in dataclasses.fields(self)[1:]:
            if f.name == "refused":
                continue  # the engine's sentence; the lobby's form words its own
            value = getattr(self, f.name)
            if f.name == "choice_labels":
                value = dict(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        out["defaults"] = {str(n): v for n, v in self.defaults().items()}
        return out


OPTIONS: Final[tuple[RuleOption, ...]] = (
    RuleOption(
        "players", "--players", short="-n", metavar="2..5", low=2, high=5,
        choices=(2, 3, 4, 5), section="", label=N_("Variant"),
        refused="Euchre is for 2 to 5 players, not {value} (RULES §1)",
        help=N_("Players: 2, 3 (cutthroat, with a dummy), 4 (partners) or 5 (called "
                "partner)."),
        note=N_("The number of players picks the variant")),
    RuleOption(
        "deck", "--deck", metavar="24|28|32", choices=(24, 28, 32), section="the-pack",
        label=N_("Pack"), refused="the pack has 24, 28 or 32 cards, not {value} (RULES §1)",
        help=N_("Cards in the pack: 24 (9 to A), 28 (8 to A) or 32 (7 to A). "
                "Default 28 five-handed, else 24."),
        note=N_("24, 28 or 32 cards")),
    RuleOption(
        "joker", "--joker", negatable=True, section="the-pack",
        label=N_("Joker (benny)"),
        help=N_("Add the joker (benny), the highest trump. Default: no joker."),
        note=N_("Add the joker, the highest trump")),
    RuleOption(
        "joker_turnup", "--joker-turnup", metavar="dealer_names|suit:S",
        choices=("dealer_names", "suit:C", "suit:D", "suit:H", "suit:S"),
        max_length=20, section="the-pack", label=N_("Joker turned up"), shown_with="joker",
        choice_labels=(("dealer_names", N_("the dealer names trump")),),
        refused="joker_turnup is 'dealer_names' or 'suit:S' with S one of C D H S, "
                "not {value} (RULES §3)",
        help=N_("A turned-up joker: the dealer names trump (dealer_names, the default), "
                "or it stands for a fixed suit (suit:S) and bidding goes on as usual."),
        note=N_("A turned-up joker: the dealer names trump, or it stands for a suit")),
    RuleOption(
        "stick_the_dealer", "--stick-the-dealer", negatable=True,
        section="choosing-trump-the-bidding", label=N_("Stick the dealer"),
        on_words=N_("stick the dealer"),
        help=N_("The dealer may not pass in round 2. Default on five-handed only."),
        note=N_("The dealer may not pass in the second bidding round")),
    RuleOption(
        "dealer_must_take_up", "--dealer-must-take-up",
        section="after-the-bidding", label=N_("Dealer must take up"),
        on_words=N_("the dealer must take up"),
        help=N_("The dealer must keep an ordered-up turn-up. Default: the dealer may "
                "decline."),
        note=N_("The dealer must keep the turn-up when ordered up")),
    RuleOption(
        "defend_alone", "--defend-alone", negatable=True, variants=(3, 4),
        section="defending-alone", label=N_("Defend alone"),
        on_words=N_("defending alone allowed"),
        refused="defending alone is not played {variant}, only three- and four-handed "
                "(RULES §7)",
        help=N_("A defender may declare alone. Default on three-handed; "
                "four-handed may turn it on."),
        note=N_("A defender may go alone")),
    RuleOption(
        "target", "--to", metavar="N", low=1, high=100, per_deal=False,
        suggestions=(5, 7, 10), suggested_for=(4,), section="", label=N_("Play to"),
        refused="the target must be a positive number of points, not {value} (RULES §10)",
        help=N_("Points that win the game. Default 10."),
        note=N_("Points that win the game")),
    RuleOption(
        "draw", "--draw", variants=(4,), per_deal=False,
        section="four-handed-extras", label=N_("The draw for partners"),
        on_words=N_("the draw for partners"),
        refused="the draw belong to four-handed euchre, not {variant} (RULES §11)",
        help=N_("Four-handed: draw cards for partners and the first deal."),
        note=N_("The draw fixes partners and the first dealer")),
    RuleOption(
        "rubber", "--rubber", variants=(4,), per_deal=False,
        section="four-handed-extras", label=N_("Rubber (best of three)"),
        on_words=N_("a rubber, best of three games"),
        refused="rubbers belong to four-handed euchre, not {variant} (RULES §11)",
        help=N_("Four-handed: play a rubber, the best of three games, with rubber points."),
        note=N_("Best of three games, with rubber points")),
)
"""Every option of :class:`Rules`, in its fields' order: the one place that declares
them besides the field (its type and default); the engine's checks of a value are made
from it (:meth:`RuleOption.check`).

>>> [o.name for o in OPTIONS] == [f.name for f in dataclasses.fields(Rules)]
True
>>> option("target").flag, option("target").high
('--to', 100)
"""


_FIELDS: Final = {f.name: f for f in dataclasses.fields(Rules)}
"""Each option's field of :class:`Rules`: its type and its default."""
_TYPES: Final[dict[str, type]] = {"bool": bool, "int": int, "str": str}


def option(name: str) -> RuleOption:
    """The option of :data:`OPTIONS` named ``name`` (a field of :class:`Rules`).

    >>> option("target").flag, option("target").type
    ('--to', <class 'int'>)
    """
    for o in OPTIONS:
        if o.name == name:
            return o
    raise KeyError(name)
