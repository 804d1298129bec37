"""The messages of the web protocol, validated with pydantic.

JSON over a WebSocket at ``/ws/{table}?token=SEAT_TOKEN`` (no token: a spectator).
Actions and cards inside the messages use the RECORDS notation.

From the client (one JSON object per text frame):

================================================  =============================================
``{"type": "act", "action": "play JH", "seq": 17}``  an action; ``seq`` (optional) is the state it
                                                  answers, so a late click is refused as stale
``{"type": "sync"}``                               send the state again
``{"type": "hint"}``                               what the expert bot would do (if installed)
``{"type": "rematch"}``                            a new game, once this one is over
``{"type": "ping"}``                               answered by ``{"type": "pong"}``
``{"type": "continue"}``                           the deal's summary is read: bots may go on
``{"type": "reclaim"}``                            take back a seat a stand-in bot is playing
``{"type": "chat", "text": "hi"}``                 say something to the table (players only;
                                                  or ``"preset": "nice"``, a quick message)
================================================  =============================================

From the server:

* ``{"type": "hello", "table", "place", "seat", "role", "pause_ms"}`` once on connecting;
* ``{"type": "state", "seq", "you", "table", "over", "game", "rubber", "deal",
  "last_deal"}`` after every change, with only what the receiving seat may know
  (RULES §12; see :mod:`euchre.server.views`);
* ``{"type": "error", "code", "params", "message"}`` for a message that is malformed
  (``malformed``), not an action (``invalid_action``), out of turn (``not_your_turn``),
  illegal (``illegal``), stale (``stale``) or otherwise refused; it changes nothing.
  ``code`` (one of :data:`ERROR_CODES`) and ``params`` let the page word it in its
  player's language; ``message`` says it in English, for other clients and logs.  The
  HTTP API's refusals carry the same three (``detail`` is the English message);
* ``{"type": "hint", "seq", "action"}`` and ``{"type": "pong"}`` in answer;
* ``{"type": "chat", "place", "seat", "name", "text" or "preset", "at"}`` to everyone at
  the table, and ``{"type": "chat_log", "messages"}`` (the latest) on connecting.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    create_model,
)

from euchre.bots import check_rules, make_bot
from euchre.rules import OPTIONS, RuleOption, Rules, RulesError

__all__ = [
    "ERROR_CODES",
    "MAX_MATCH",
    "MAX_MESSAGE",
    "MAX_OFFSET",
    "ActMessage",
    "ChatMessage",
    "ClientMessage",
    "ContinueMessage",
    "CreateTable",
    "HintMessage",
    "HostRequest",
    "JoinRequest",
    "LeaveRequest",
    "PingMessage",
    "ProtocolError",
    "ReclaimMessage",
    "RematchMessage",
    "RulesModel",
    "SeatChoice",
    "SyncMessage",
    "check_bot",
    "clean_name",
    "is_table_id",
    "parse_client_message",
    "shown",
]

MAX_MESSAGE = 4096
"""The longest client message accepted, in characters."""

MAX_OFFSET = 2**31 - 1
"""The largest ``offset`` of a page of tables (``GET /api/tables``): far past any stored
history, and a number every database takes."""

MAX_MATCH = 2**31 - 1
"""The largest game number in a path (a table's games are numbered from 1; the column
holding them is a 32-bit integer)."""

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def is_table_id(text: str) -> bool:
    """Can ``text`` be a table's id?  The server makes ids of eight characters of the
    URL-safe alphabet (``secrets.token_urlsafe(6)``, since the first version); anything
    outside that alphabet or past 64 characters (a NUL, a slash, a 60,000-character
    string) is no table's, answered at once without asking the database.

    >>> is_table_id("tA7-x_9Q"), is_table_id("a\\x00b"), is_table_id(".."), is_table_id("")
    (True, False, False, False)
    """
    return _TABLE_ID.fullmatch(text) is not None


def shown(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (``…`` marks the cut), to echo what a client
    sent in a refusal or a log line without echoing a megabyte of it.

    >>> shown("abc"), shown("x" * 50, 5)
    ('abc', 'xxxxx…')
    """
    return text if len(text) <= limit else text[:limit] + "…"


def clean_name(name: str) -> str:
    """A name as others will read it (a table's, a seat's): each run of white space (tabs
    and line breaks too) becomes one space, the ends trimmed; any other control character
    (``U+0000`` NUL, which PostgreSQL cannot store, ``U+001B`` escape, ``U+007F``, …) is
    refused with ``ValueError`` naming it, on every database alike, as is a lone
    surrogate (``"\\ud800"`` in JSON: no character at all).

    >>> clean_name("  Ann\\t\\n Lee ")
    'Ann Lee'
    >>> clean_name("a\\x00b")
    Traceback (most recent call last):
    ...
    ValueError: a name may not hold the control character U+0000
    """
    name = " ".join(name.split())
    bad = next((ch for ch in name if unicodedata.category(ch) in ("Cc", "Cs")), None)
    if bad is not None:
        what = "control character" if unicodedata.category(bad) == "Cc" else "lone surrogate"
        raise ValueError(f"a name may not hold the {what} U+{ord(bad):04X}")
    return name


ERROR_CODES: dict[str, str] = {
    # the table's WebSocket
    "malformed": "not a valid message",
    "invalid_action": "not an action of RECORDS notation (params: action)",
    "not_your_turn": "out of turn (params: seat, you; or asked: hint)",
    "illegal": "against the rules now (params: action)",
    "stale": "answers an older state (params: at, and given)",
    "spectator": "a spectator asked what only a player may (params: asked)",
    "closed": "the table is closed (params: why: deleted, everybody_left, idle, "
              "unvisited)",
    "game_over": "the game is over: no action",
    "not_over": "the game is not over yet",
    "no_hint": "the hint's bot is not installed (params: bot)",
    "storage": "storage refused the write",
    "left": "you left the table",
    "bad_origin": "a page of another site",
    "bad_host": "a host name the server does not answer to (params: host)",
    "no_table": "no such table (params: table)",
    "bad_token": "the seat token opens no seat",
    "bot_place": "the place is a bot's",
    # limits (params: what, count, seconds, wait; or max, given)
    "rate_limited": "too many requests or messages",
    "server_full": "the server holds its limit of tables",
    "too_many_tables": "the client address holds its limit of unfinished tables (params: max)",
    "too_many_sockets": "the client address holds its limit of WebSockets (params: max)",
    "flooding": "the connection kept sending over its message rate: closed (params: count)",
    "page_too_large": "a page of tables too large",
    # the lobby's HTTP API
    "bad_page": "a page's limit or offset out of range",
    "bad_rules": "rules or seats the rules (docs/rules.md) do not allow",
    "bad_invitation": "the invitation opens no seat",
    "invitation_spent": "the invitation was used: the seat is taken (params: place, watch)",
    "not_host": "only the host (with the host link) may do this",
    "no_place": "the table has no such place (params: place)",
    "private": "a private table: watching needs the host's watch link",
    "waiting": "the game has not started: it waits for the invited players or the host",
    "revoked": "your seat token stopped working: the host changed your seat (params: why)",
    "muted": "the host muted you in the chat",
    "seat_taken": "the place is not an open seat (params: place)",
    "no_seat_given": "neither an invitation nor an open place",
    "not_creator": "only the table's creator may delete it",
    # the puzzles
    "no_puzzle": "no such puzzle in the variant (params: puzzle)",
    "no_puzzle_player": "no such puzzle player (params: player)",
    "not_puzzle_player": "only the puzzle player's key reads or moves its ratings",
    "answers_at_once": "other answers of the same puzzle player came at once: answer again",
    "no_game": "the table has no such game (params: table, game)",
    "invalid_request": "the request's fields, or its body, are not valid",
    "not_found": "nothing at this address, or not for this method",
    "no_rules": "no rules page in that language (params: lang)",
    # a club night's HTTP API (euchre.server.night)
    "no_night": "no such night (params: night)",
    "not_organiser": "only the organiser (with the night's organiser link) may do this",
    "bad_night_key": "the link opens no place at the night",
    "bad_join": "the join link is not the night's",
    "not_you": "a player's link marks only that player present or gone",
    "no_player": "the night has no such player (params: number)",
    "night_full": "the night seats its most players (params: max)",
    "busy": "too many players joined at once",
    "too_few_players": "too few players present for a round (params: count, min)",
    "odd_teams": "fixed teams need an even number of players present (params: count)",
    "round_open": "a round is being played: end it first (params: round)",
    "round_over": "the round has ended (params: round; result, state, seq)",
    "too_many_rounds": "the night has its most rounds (params: max)",
    "no_round": "the night has no such round (params: round)",
    "tables_open": "tables without a result, or with a disputed one (params: tables)",
    "no_night_table": "the round has no such table (params: round, table)",
    "bad_result": "a result that does not add up (points, hands, lone hands)",
    "already_reported": "the table's result is reported already (params: result, state, "
                        "seq: what is stored)",
    "stale_report": "the table's result changed since the phone saw it (params: result, "
                    "state, seq)",
    "settled": "the organiser settled the table's result (params: result, state, seq)",
    "same_team": "the team that entered a result may not confirm or dispute it",
    "not_at_table": "the player does not play at that table (params: round, table)",
    # a season of nights (euchre.server.season)
    "no_season": "no such season (params: season)",
    "in_season": "the night is in another season already (params: night)",
}
"""Every error ``code`` the server sends, with what it means (the page words each)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ActMessage(_Message):
    """An action in RECORDS notation (``pass``, ``order alone``, ``play JH``, …).

    >>> parse_client_message('{"type": "act", "action": "pass", "seq": 3}')
    ActMessage(type='act', action='pass', seq=3)
    """

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    seq: Annotated[int, Field(ge=0)] | None = None


class SyncMessage(_Message):
    """Ask for the current state again.

    >>> parse_client_message('{"type": "sync"}')
    SyncMessage(type='sync')
    """

    type: Literal["sync"]


class HintMessage(_Message):
    """Ask the expert bot what to do.

    >>> parse_client_message('{"type": "hint"}')
    HintMessage(type='hint')
    """

    type: Literal["hint"]


class RematchMessage(_Message):
    """Start a new game with the same rules and seats, once the game is over.

    >>> parse_client_message('{"type": "rematch"}')
    RematchMessage(type='rematch')
    """

    type: Literal["rematch"]


class PingMessage(_Message):
    """Keep the connection alive.

    >>> parse_client_message('{"type": "ping"}')
    PingMessage(type='ping')
    """

    type: Literal["ping"]


class ContinueMessage(_Message):
    """The deal's summary was read: the bots may start the next deal once every person
    whose page shows summaries (``?summary=wait``) has said so.

    >>> parse_client_message('{"type": "continue"}')
    ContinueMessage(type='continue')
    """

    type: Literal["continue"]


class ReclaimMessage(_Message):
    """Take back the seat a stand-in bot played after the turn timer ran out.

    >>> parse_client_message('{"type": "reclaim"}')
    ReclaimMessage(type='reclaim')
    """

    type: Literal["reclaim"]


class ChatMessage(_Message):
    """Say something to the table: a quick message (``preset``, worded by each page in
    its reader's language) or up to 200 characters of ``text``.

    >>> parse_client_message('{"type": "chat", "preset": "gg"}')
    ChatMessage(type='chat', text=None, preset='gg')
    >>> parse_client_message('{"type": "chat", "text": "%s"}' % ("x" * 201))
    Traceback (most recent call last):
      ...
    euchre.server.protocol.ProtocolError: malformed message: chat.text: String should have ...
    """

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    preset: Annotated[str, Field(min_length=1, max_length=20)] | None = None


ClientMessage = Annotated[
    ActMessage | SyncMessage | HintMessage | RematchMessage | PingMessage | ContinueMessage
    | ReclaimMessage | ChatMessage,
    Field(discriminator="type"),
]
"""Any message a client may send."""

_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(ValueError):
    """A malformed client message; the text names the problem.

    >>> parse_client_message('{"type": "fly"}')
    Traceback (most recent call last):
      ...
    euchre.server.protocol.ProtocolError: malformed message: message: Input tag 'fly' ...
    """


def _describe(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:3]:
        where = ".".join(str(x) for x in err["loc"]) or "message"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def parse_client_message(text: str) -> ClientMessage:
    """Validate one client message, or raise :class:`ProtocolError` naming the problem.

    >>> parse_client_message('{"type": "act", "action": "play JH"}')
    ActMessage(type='act', action='play JH', seq=None)
    >>> parse_client_message('{"type": "act"}')
    Traceback (most recent call last):
    ...
    euchre.server.protocol.ProtocolError: malformed message: act.action: Field required
    """
    if len(text) > MAX_MESSAGE:
        raise ProtocolError(f"malformed message: longer than {MAX_MESSAGE} characters")
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as e:
        if any(err["type"] == "json_invalid" for err in e.errors()):
            raise ProtocolError("malformed message: not a JSON object") from None
        raise ProtocolError(f"malformed message: {_describe(e)}") from None


# -- the lobby's requests --------------------------------------------------------------------
class _RulesBase(BaseModel):
    """What every rules request shares: no option outside the table, and the engine's
    rules from it."""

    model_config = ConfigDict(extra="forbid")

    def to_rules(self) -> Rules:
        """The engine's rules; :class:`RulesError` names the rule (docs/rules.md) it breaks."""
        return Rules(**self.model_dump())


def _field(o: RuleOption) -> tuple[Any, Any]:
    """One option of the rules' table as a pydantic field: its type (a number: its
    bounds, or else its choices; a string: its length, the engine reading the rest), and
    its default; an option the variant decides may be ``null``."""
    numbers = o.type is int and o.choices and o.low is None and o.high is None
    kind: Any = Literal[o.choices] if numbers else o.type
    if o.low is not None or o.high is not None or o.max_length is not None:
        kind = Annotated[kind, Field(ge=o.low, le=o.high, max_length=o.max_length)]
    if o.default is None:
        kind = kind | None
    return kind, o.default


if TYPE_CHECKING:
    RulesModel = _RulesBase
else:
    RulesModel = create_model(
        "RulesModel", __base__=_RulesBase, __module__=__name__,
        __doc__="Every option of the rules (docs/rules.md, :data:`euchre.rules.OPTIONS`); "
                "omitted ones take the variant's defaults.",
        **{o.name: _field(o) for o in OPTIONS})


class SeatChoice(BaseModel):
    """Who fills one place: ``you``, a ``friend`` (invitation link), an ``open`` seat
    anyone in the lobby may take, or a ``bot`` of a level from ``euchre.bots.BOTS``.

    >>> SeatChoice(kind="bot", bot="expert"), SeatChoice(kind="you", name="  Ann ").name
    (SeatChoice(kind='bot', name='', bot='expert'), 'Ann')
    """

    model_config = ConfigDict(extra="forbid")

    kind: Literal["you", "friend", "open", "bot"]
    name: Annotated[str, Field(max_length=40), AfterValidator(clean_name)] = ""
    bot: Annotated[str, Field(max_length=40)] | None = None


class CreateTable(BaseModel):
    """``POST /api/tables``: the rules and one seat choice per player."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=60), AfterValidator(clean_name)] = ""
    """The table's name (:func:`clean_name`); empty (the default): none, and each page
    names the table after its variant in its reader's language."""
    rules: RulesModel = RulesModel()
    seats: Annotated[list[SeatChoice], Field(min_length=2, max_length=5)]
    turn_timer: Annotated[float, Field(ge=1, le=3600)] | None = None
    """Seconds a person has to act before a stand-in bot plays the seat; ``None``: no
    timer (the lobby proposes one for tables with open seats, none among friends)."""
    private: bool | None = None
    """Not listed in the lobby, watched only with the host's watch link; ``None`` (the
    default): private when a seat is a friend's (an invitation), else public."""

    def check(self, bots: Any) -> Rules:
        """The rules, after checking the seats against them; raises ``ValueError``."""
        rules = self.rules.to_rules()
        if len(self.seats) != rules.players:
            raise RulesError(f"{rules.players} players need {rules.players} seats, "
                             f"not {len(self.seats)}")
        if sum(s.kind == "you" for s in self.seats) > 1:
            raise ValueError("only one seat can be yours")
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                check_bot(s.bot, rules, bots, f"seat {i}: ")
        return rules


def check_bot(level: str | None, rules: Rules, bots: Any, where: str = "") -> None:
    """Raise ``ValueError`` unless ``level`` is a bot of ``bots`` that plays ``rules`` (a
    bot may refuse rules it cannot play); ``where`` heads the message of an unknown one."""
    if level is None or level not in bots:
        raise ValueError(f"{where}unknown bot {level!r}; bots: {', '.join(bots)}")
    check_rules(make_bot(level, 0), rules)


class JoinRequest(BaseModel):
    """``POST /api/tables/{id}/join``: take a place with its invitation (spent by the
    claim, which answers a seat token of the place's own), or an open place by number.

    >>> JoinRequest(place=2, name="Ann")
    JoinRequest(invite=None, place=2, name='Ann')
    """

    model_config = ConfigDict(extra="forbid")

    invite: Annotated[str, Field(max_length=100)] | None = None
    place: Annotated[int, Field(ge=0, le=4)] | None = None
    name: Annotated[str, Field(max_length=40), AfterValidator(clean_name)] = ""


class LeaveRequest(BaseModel):
    """``POST /api/tables/{id}/leave`` and ``DELETE /api/tables/{id}``: the seat token of
    the person leaving, or of the table's creator deleting it."""

    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(min_length=1, max_length=100)]


class HostRequest(BaseModel):
    """The host's requests (``POST /api/tables/{id}/host/...``): the host link's key, and
    what the request needs of ``place``, ``bot``, ``turn_timer`` and ``muted``."""

    model_config = ConfigDict(extra="forbid")

    host: Annotated[str, Field(min_length=1, max_length=100)]
    place: Annotated[int, Field(ge=0, le=4)] | None = None
    bot: Annotated[str, Field(max_length=40)] | None = None
    turn_timer: Annotated[float, Field(ge=1, le=3600)] | None = None
    muted: bool = True
