"""A club night on the server: its players, rounds and the tables' reported results,
kept in the database (:mod:`euchre.server.schema`, version 3) and read afresh for every
request, so that a restart loses nothing and several server processes agree.

The seating and the scoring are the engine's (:mod:`euchre.night`); this module adds who
may do what, and the record of every report:

* the **organiser** holds the night's key (``host_key``): adds players, marks them
  present or gone, starts and ends rounds, settles a table's result;
* each **player** holds a personal token: reports the result of their own table in the
  current round, corrects it, confirms or disputes the other team's report, and marks
  themselves present or gone;
* whoever has the **join link** (``join_key``) registers as a new player.

A table's result is a list of reports (:class:`Report`), never updated: an entry or a
correction (points, the hands, the lone hands), a confirmation or a dispute by the other
team, a settlement by the organiser.  Each has its number (``seq``, from 1) and who made
it; a new report takes the next number, and the number is the row's key, so of two phones
reporting at once one wins and the other is told what was stored (:class:`NightError`,
409).

Every operation here is pure: it reads a :class:`Night` and returns the statements to
write (:data:`Writes`), which the storage runs in one transaction (``night_write``).
"""

from __future__ import annotations

import functools
import json
import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Literal

from euchre.bots import make_bot, play_deal
from euchre.deal import Deal
from euchre.night import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    Format,
    Hand,
    NightScoring,
    Round,
    RoundResult,
    Schedule,
    ScheduleError,
    TableResult,
    full_rounds,
    hand_points,
    partners,
    standings,
    teams,
    winners_first_round,
    winners_next_round,
)
from euchre.night.season import player_rounds
from euchre.rules import Rules
from euchre.server.seating import new_token
from euchre.server.storage import Statement

__all__ = [
    "Epoch",
    "Night",
    "NightError",
    "NightPlayer",
    "NightRound",
    "Report",
    "Role",
    "Writes",
    "add_player",
    "app_places",
    "awaiting_games",
    "create_night",
    "end_round",
    "load_queries",
    "night_from_rows",
    "opened",
    "played",
    "report",
    "same_key",
    "set_presence",
    "start_round",
]

ReportKind = Literal["entered", "corrected", "confirmed", "disputed", "settled", "opened",
                     "played"]
FINAL: Final = ("settled", "played")
"""The kinds of report that close a table's result to its players (the organiser may
still settle it)."""
ORGANISER: Final = "organiser"
Role = int | Literal["organiser"] | None
"""Who a key makes of its holder: the organiser, a player (their number), or nobody."""

Writes = list[tuple[Statement, bool]]
"""Statements to run in one transaction, each with whether it must change a row."""


class NightError(Exception):
    """A request the night refuses: an HTTP ``status``, a ``code`` the page words
    (:data:`~euchre.server.protocol.ERROR_CODES`), an English message, ``params``."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.params = params


@dataclass(frozen=True)
class NightPlayer:
    """A player of the night: their number (from 1), name, token, and whether they are
    in the room for the next round."""

    number: int
    name: str
    token: str
    present: bool


@dataclass(frozen=True)
class Report:
    """One report of a table's result: its number, kind, who made it (a player's number;
    ``None``: the organiser), and for an entry, a correction or a settlement the points
    of each side (the table's sides in order), the hands and the players who took all
    five alone."""

    seq: int
    kind: ReportKind
    by: int | None
    points: tuple[int, int] | None
    hands: tuple[dict[str, Any], ...]
    loners: tuple[int, ...]
    at: float
    online: Mapping[str, Any] = field(default_factory=dict)
    """For ``opened``: the app table's ``id``, its ``host`` key and each player's
    ``invites`` (by number, as text)."""

    def to_json(self) -> dict[str, Any]:
        """``{"seq", "kind", "by", "points", "hands", "loners", "at"}`` (``by`` null:
        the organiser or, for ``opened`` and ``played``, the night itself)."""
        return {"seq": self.seq, "kind": self.kind, "by": self.by,
                "points": list(self.points) if self.points else None,
                "hands": list(self.hands), "loners": list(self.loners), "at": self.at}


@dataclass(frozen=True)
class Epoch:
    """The schedule a round was taken from: the night's player numbers in the order the
    schedule numbers them (its player 1 first), the round's index in it, and its seed.
    A round continues the last one's schedule while the same players are present."""

    players: tuple[int, ...]
    index: int
    seed: int


@dataclass
class NightRound:
    """A round as seated (night player numbers), its schedule, when it started and ended
    (``None``: still being played), and each table's reports (tables from 1)."""

    number: int
    round: Round
    epoch: Epoch
    started: float
    ended: float | None
    reports: dict[int, list[Report]] = field(default_factory=dict)
    stand_ins: dict[int, int] = field(default_factory=dict)
    """For the sit-out policy ``bot``: what the bot that played in each sitter's place
    scored (by player number), fixed when the round ended (:func:`stand_in_points`)."""

    def table_status(self, table: int) -> tuple[str, Report | None]:
        """A table's status and its current result (the latest entry, correction or
        settlement): ``waiting`` (none yet), ``playing`` (an online table, its game not
        over), ``entered`` (to be confirmed by the other team), ``confirmed``,
        ``disputed``, ``settled`` or ``played`` (an online table's game, over)."""
        reports = self.reports.get(table, [])
        current = next((r for r in reversed(reports) if r.points is not None), None)
        if not reports:
            return "waiting", None
        last = reports[-1].kind
        return {"corrected": "entered", "opened": "playing"}.get(last, last), current

    def online(self, table: int) -> Report | None:
        """The report that opened an app table for ``table`` (an online table), if any."""
        return next((r for r in self.reports.get(table, []) if r.kind == "opened"), None)

    def table_json(self, table: int, names: Mapping[int, str]) -> dict[str, Any]:
        """A table of the round: its number, its app table's id (an online table; else
        null), the two sides (numbers and names), its status, its current result and
        every report."""
        status, current = self.table_status(table)
        sides = self.round.tables[table - 1].sides
        opened = self.online(table)
        return {"table": table,
                "online": opened.online["id"] if opened else None,
                "sides": [[{"number": p, "name": names.get(p, "")} for p in side]
                          for side in sides],
                "status": status,
                "result": current.to_json() if current else None,
                "reports": [r.to_json() for r in self.reports.get(table, [])]}


@dataclass
class Night:
    """A club night as stored."""

    id: str
    name: str
    day: str
    format: Format
    settings: dict[str, Any]
    host_key: str
    join_key: str
    created: float
    players: list[NightPlayer]
    rounds: list[NightRound]

    @property
    def scoring(self) -> NightScoring:
        """The values of a hand and the sit-out policy."""
        return NightScoring(**self.settings["scoring"])

    @property
    def current(self) -> NightRound | None:
        """The round being played (started, not ended), if any."""
        return self.rounds[-1] if self.rounds and self.rounds[-1].ended is None else None

    def role(self, key: str | None) -> Role:
        """Who ``key`` makes of its holder (compared in constant time)."""
        if not key:
            return None
        if same_key(key, self.host_key):
            return ORGANISER
        for p in self.players:
            if same_key(key, p.token):
                return p.number
        return None

    def names(self) -> dict[int, str]:
        """Each player's name by number."""
        return {p.number: p.name for p in self.players}

    def standings(self) -> list[dict[str, Any]]:
        """The standings after the rounds ended (:func:`euchre.night.standings`): place,
        number, name, total (a string when a fraction: ``"17/2"``), rounds won and
        played, lone hands, tied."""
        results = self.results()
        return [{"place": s.place, "number": s.player, "name": s.name,
                 "total": _number(s.total), "won": s.won, "played": s.played,
                 "loners": s.loners, "tied": s.tied}
                for s in standings(results, self.scoring, self.names())]

    @functools.cached_property
    def ahead_json(self) -> list[dict[str, Any]]:
        """The rounds to come if the players present stay (:func:`ahead`): ``{"number",
        "tables": [[[a, b], [c, d]], ...], "out": [...]}``, players by number."""
        return [{"number": number, **rnd.to_json()} for number, rnd in ahead(self)]

    def results(self) -> list[RoundResult]:
        """The results of the rounds ended, in order."""
        results = []
        for r in self.rounds:
            if r.ended is None:
                continue
            tables = []
            for t in range(1, len(r.round.tables) + 1):
                _, current = r.table_status(t)
                assert current is not None and current.points is not None
                tables.append(TableResult(current.points, current.loners))
            results.append(RoundResult(r.round, tuple(tables), tuple(r.stand_ins.items())))
        return results

    def player_rounds(self) -> list[dict[str, Any]]:
        """Each player's rounds ended (:func:`euchre.night.season.player_rounds`), one row
        per player and round: ``{"number", "name", "round", "table" (null: sat out),
        "partner", "opponents", "points" (the player's score for the round by the night's
        scoring, a string when a fraction), "won" (their side made more points)}``."""
        names = self.names()
        numbers = [r.number for r in self.rounds if r.ended is not None]
        return [{"number": p, "name": names.get(p, ""), "round": numbers[r.round - 1],
                 "table": r.table, "partner": r.partner, "opponents": list(r.opponents),
                 "points": _number(r.scored), "won": r.won}
                for p, played in player_rounds(self.results(), self.scoring).items()
                for r in played]

    def to_json(self, role: Role) -> dict[str, Any]:
        """The night as ``role`` sees it: what everyone sees (:attr:`shared_json`) and
        what the role adds (:meth:`role_json`)."""
        return {**self.shared_json, **self.role_json(role)}

    @functools.cached_property
    def shared_json(self) -> dict[str, Any]:
        """What everyone sees of the night: the night, its players (number, name,
        present), its rounds (each table's sides, status, result and reports; who sits
        out), the rounds ahead (:attr:`ahead_json`), the standings."""
        names = self.names()
        return {
            "id": self.id, "name": self.name, "day": self.day, "format": self.format,
            "settings": self.settings, "created": self.created,
            "players": [{"number": p.number, "name": p.name, "present": p.present}
                        for p in self.players],
            "rounds": [{"number": r.number, "started": r.started, "ended": r.ended,
                        "tables": [r.table_json(t, names)
                                   for t in range(1, len(r.round.tables) + 1)],
                        "out": [{"number": p, "name": names.get(p, ""),
                                 "stand_in": r.stand_ins.get(p)} for p in r.round.out]}
                       for r in self.rounds],
            "current": self.current.number if self.current else None,
            "ahead": self.ahead_json,
            "standings": self.standings(),
        }

    def role_json(self, role: Role) -> dict[str, Any]:
        """What ``role`` adds to :attr:`shared_json`: ``role`` (``organiser``, ``player``
        or null).  A player: ``you`` (their number, name, and this round's table, side,
        partner and opponents).  The organiser: the join key, every player's token and
        the online tables' host links."""
        out: dict[str, Any] = {
            "role": "organiser" if role == ORGANISER else "player" if role else None}
        if role == ORGANISER:
            out["join_key"] = self.join_key
            out["tokens"] = {str(p.number): p.token for p in self.players}
            out["online"] = [{"round": r.number, "table": t, "id": o.online["id"],
                              "host_url": f"/table/{o.online['id']}?host={o.online['host']}"}
                             for r in self.rounds for t in sorted(r.reports)
                             if (o := r.online(t)) is not None]
        elif isinstance(role, int):
            out["you"] = self.seat_of(role)
        return out

    def seat_of(self, number: int) -> dict[str, Any]:
        """A player's place in the latest round: ``{"number", "name", "round", "table"
        (null: sitting out or not in it), "side", "partner", "opponents"}``, and at an
        online table ``"online": {"id", "url"}`` (the invitation to their seat there)."""
        names = self.names()
        you: dict[str, Any] = {"number": number, "name": names.get(number, ""),
                               "round": None, "table": None, "side": None,
                               "partner": None, "opponents": []}
        if not self.rounds:
            return you
        last = self.rounds[-1]
        you["round"] = last.number
        found = _seat(last.round, number)
        if found is not None:
            t, side = found
            a, b = last.round.tables[t - 1].sides[side]
            you.update(table=t, side=side, partner=b if a == number else a,
                       opponents=list(last.round.tables[t - 1].sides[1 - side]))
            opened = last.online(t)
            if opened is not None:
                invite = opened.online["invites"][str(number)]
                you["online"] = {"id": opened.online["id"],
                                 "url": f"/table/{opened.online['id']}?invite={invite}"}
        return you


def same_key(given: str, key: str) -> bool:
    """Whether a key given is ``key`` (compared in constant time).

    >>> same_key("abc", "abc"), same_key("abd", "abc")
    (True, False)
    """
    return secrets.compare_digest(given.encode(), key.encode())


def _number(x: Fraction) -> int | str:
    return int(x) if x.denominator == 1 else str(x)


def _seat(rnd: Round, player: int) -> tuple[int, int] | None:
    """The table (from 1) and side where ``player`` sits in a round, if they play."""
    for t, table in enumerate(rnd.tables, 1):
        for side, pair in enumerate(table.sides):
            if player in pair:
                return t, side
    return None


# -- the database's rows ---------------------------------------------------------------------
_LOAD_NIGHT: Final = ("SELECT id, name, day, format, settings, host_key, join_key, created "
                      "FROM nights WHERE id = ?")
_LOAD_PLAYERS: Final = ("SELECT number, name, token, present FROM night_players "
                        "WHERE night_id = ? ORDER BY number")
_LOAD_ROUNDS: Final = ("SELECT number, seating, started, ended FROM night_rounds "
                       "WHERE night_id = ? ORDER BY number")
_LOAD_REPORTS: Final = ("SELECT round, table_no, seq, kind, by_player, points_a, points_b, "
                        "detail, at FROM night_reports WHERE night_id = ? "
                        "ORDER BY round, table_no, seq")
_INSERT_NIGHT: Final = ("INSERT INTO nights (id, name, day, format, settings, host_key, "
                        "join_key, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_INSERT_PLAYER: Final = ("INSERT INTO night_players (night_id, number, name, token, present) "
                         "VALUES (?, ?, ?, ?, ?)")
_SET_PRESENT: Final = "UPDATE night_players SET present = ? WHERE night_id = ? AND number = ?"
_INSERT_ROUND: Final = ("INSERT INTO night_rounds (night_id, number, seating, started) "
                        "VALUES (?, ?, ?, ?)")
_END_ROUND: Final = ("UPDATE night_rounds SET ended = ?, seating = ? WHERE night_id = ? "
                     "AND number = ? AND ended IS NULL")
_INSERT_REPORT: Final = ("INSERT INTO night_reports (night_id, round, table_no, seq, kind, "
                         "by_player, points_a, points_b, detail, at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def load_queries(night_id: str) -> list[Statement]:
    """The queries that read a night (:func:`night_from_rows` reads their rows)."""
    return [(q, (night_id,)) for q in (_LOAD_NIGHT, _LOAD_PLAYERS, _LOAD_ROUNDS, _LOAD_REPORTS)]


def night_from_rows(rows: Sequence[Sequence[tuple[Any, ...]]]) -> Night | None:
    """The night the rows of :func:`load_queries` hold, or ``None`` if there is none."""
    nights, players, rounds, reports = rows
    if not nights:
        return None
    nid, name, day, fmt, settings, host_key, join_key, created = nights[0]
    night = Night(nid, name, day, fmt, json.loads(settings), host_key, join_key,
                  float(created),
                  [NightPlayer(int(n), pname, token, bool(present))
                   for n, pname, token, present in players], [])
    for number, seating, started, ended in rounds:
        data = json.loads(seating)
        epoch = data["epoch"]
        night.rounds.append(NightRound(
            int(number), Round.from_json(data),
            Epoch(tuple(epoch["players"]), int(epoch["index"]), int(epoch["seed"])),
            float(started), None if ended is None else float(ended),
            stand_ins={int(p): int(v) for p, v in data.get("stand_ins", {}).items()}))
    by_number = {r.number: r for r in night.rounds}
    for rnd, table, seq, kind, by, a, b, detail, at in reports:
        extra = json.loads(detail)
        by_number[int(rnd)].reports.setdefault(int(table), []).append(Report(
            int(seq), kind, None if by is None else int(by),
            None if a is None else (int(a), int(b)),
            tuple(extra.get("hands", ())), tuple(extra.get("loners", ())), float(at),
            extra.get("online", {})))
    return night


# -- making a night and its players ----------------------------------------------------------
def create_night(name: str, day: str, fmt: Format, settings: dict[str, Any],
                 players: Sequence[str]) -> tuple[str, Writes]:
    """A new night's id and the writes that store it with its first players (present).
    ``settings``: ``hands``, ``minutes``, ``rounds`` and ``scoring``
    (:class:`~euchre.night.NightScoring`'s fields), checked already."""
    if len(players) > MAX_PLAYERS:
        raise NightError(409, "night_full", f"a night seats at most {MAX_PLAYERS} players",
                         max=MAX_PLAYERS)
    night_id = secrets.token_urlsafe(9)
    writes: Writes = [((_INSERT_NIGHT, (night_id, name, day, fmt, json.dumps(settings),
                                        new_token(), new_token(), time.time())), True)]
    for number, player in enumerate(players, 1):
        writes.append(((_INSERT_PLAYER, (night_id, number, player, new_token(), 1)), True))
    return night_id, writes


def add_player(night: Night, name: str) -> tuple[NightPlayer, Writes]:
    """A new player (the next number, present, a new token) and the write storing them;
    of two added at once one collides and is added again after."""
    if len(night.players) >= MAX_PLAYERS:
        raise NightError(409, "night_full", f"a night seats at most {MAX_PLAYERS} players",
                         max=MAX_PLAYERS)
    player = NightPlayer(len(night.players) + 1, name, new_token(), True)
    return player, [((_INSERT_PLAYER, (night.id, player.number, name, player.token, 1)), True)]


def set_presence(night: Night, role: Role, number: int, present: bool) -> Writes:
    """Mark a player present (a late arrival) or gone (an early leaver): they are seated
    from the next round on, or no more.  The organiser may mark anyone, a player only
    themselves."""
    if role != ORGANISER and role != number:
        raise NightError(403, "not_you", "a player's link marks only that player present "
                         "or gone")
    if not any(p.number == number for p in night.players):
        raise NightError(404, "no_player", f"the night has no player {number}",
                         number=number)
    return [((_SET_PRESENT, (1 if present else 0, night.id, number)), True)]


# -- rounds ----------------------------------------------------------------------------------
def _winners(r: NightRound) -> list[int]:
    """Each table's winning side (a drawn table: the first side)."""
    out = []
    for t in range(1, len(r.round.tables) + 1):
        _, current = r.table_status(t)
        assert current is not None and current.points is not None
        a, b = current.points
        out.append(1 if b > a else 0)
    return out


def _relabel(rnd: Round, players: Sequence[int]) -> Round:
    """A round of a schedule (its players numbered from 1) in the night's numbers."""
    return Round.from_json({"tables": [[[players[p - 1] for p in side] for side in t.sides]
                                       for t in rnd.tables],
                            "out": [players[p - 1] for p in rnd.out]})


def _unlabel(rnd: Round, players: Sequence[int]) -> Round:
    index = {p: i for i, p in enumerate(players, 1)}
    return Round.from_json({"tables": [[[index[p] for p in side] for side in t.sides]
                                       for t in rnd.tables],
                            "out": [index[p] for p in rnd.out]})


@functools.lru_cache(maxsize=16)
def _partners(count: int, seed: int) -> Schedule:
    """A whole night of rotating partners (a second of work at 64 players: kept)."""
    return partners(count, seed=seed)


def _planned(fmt: Format, present: tuple[int, ...], last: Epoch | None, number: int
             ) -> tuple[Round, Epoch]:
    """Round ``number`` of rotating partners or fixed teams, in schedule numbers: the
    last round's schedule continued while the same players are present and it has
    rounds left, else a new one (rotating partners: seeded by the round's number)."""
    count = len(present)
    same = last is not None and last.players == present
    if fmt == "partners":
        if same and last is not None and last.index + 1 < full_rounds(count):
            epoch = Epoch(present, last.index + 1, last.seed)
        else:
            epoch = Epoch(present, 0, number)
        return _partners(count, epoch.seed).rounds[epoch.index], epoch
    if count % 2:
        raise NightError(409, "odd_teams", "fixed teams need an even number of "
                         f"players present, not {count}", count=count)
    if same and last is not None and last.index + 1 < MAX_ROUNDS:
        epoch = Epoch(present, last.index + 1, 0)
    else:
        epoch = Epoch(present, 0, 0)
    return teams(count, MAX_ROUNDS).rounds[epoch.index], epoch


def _present(night: Night) -> tuple[int, ...]:
    present = tuple(p.number for p in night.players if p.present)
    if len(present) < MIN_PLAYERS:
        raise NightError(409, "too_few_players", f"a round needs {MIN_PLAYERS} players "
                         f"present, not {len(present)}", count=len(present),
                         min=MIN_PLAYERS)
    return present


def next_seating(night: Night) -> tuple[Round, Epoch]:
    """The next round's seating for the players present (:mod:`euchre.night`): the last
    round's schedule continued while the same players are present and it has rounds
    left, else a new one for those present (its seed: the round's number, so that the
    partnerships start elsewhere)."""
    present = _present(night)
    count = len(present)
    number = len(night.rounds) + 1
    last = night.rounds[-1] if night.rounds else None
    try:
        if night.format != "winners":
            rnd, epoch = _planned(night.format, present, last.epoch if last else None, number)
        elif last is not None and last.epoch.players == present:
            epoch = Epoch(present, last.epoch.index + 1, last.epoch.seed)
            played = [_unlabel(r.round, present) for r in night.rounds
                      if r.epoch.players == present and r.epoch.seed == epoch.seed]
            rnd = winners_next_round(count, played, _winners(last))
        else:
            epoch = Epoch(present, 0, number)
            rnd = winners_first_round(count)
    except ScheduleError as e:  # pragma: no cover - the counts are checked above
        raise NightError(409, "too_few_players", str(e), count=count,
                         min=MIN_PLAYERS) from None
    return _relabel(rnd, present), epoch


def ahead(night: Night) -> list[tuple[int, Round]]:
    """The rounds still to come if the players present now stay (rotating partners and
    fixed teams; winners move up is seated from each round's results: none), by number:
    up to the rounds planned (``settings["rounds"]``), else to the end of the schedule
    being played (rotating partners: its whole cycle; fixed teams: the lap)."""
    if night.format == "winners":
        return []
    try:
        present = _present(night)
        last = night.rounds[-1].epoch if night.rounds else None
        number = len(night.rounds) + 1
        planned = night.settings.get("rounds")
        lap = full_rounds(len(present), night.format)
        out: list[tuple[int, Round]] = []
        while number <= min(MAX_ROUNDS, planned or MAX_ROUNDS):
            rnd, epoch = _planned(night.format, present, last, number)
            if planned is None and out and epoch.index % lap == 0:
                break  # the schedule's end: a new one would start
            out.append((number, _relabel(rnd, present)))
            last, number = epoch, number + 1
        return out
    except NightError:
        return []


def start_round(night: Night) -> tuple[int, Writes]:
    """Seat the next round (:func:`next_seating`) once the last one has ended; of two
    starts at once one collides (the round's number is the row's key)."""
    if night.current is not None:
        raise NightError(409, "round_open", f"round {night.current.number} is still being "
                         "played: end it first", round=night.current.number)
    number = len(night.rounds) + 1
    if number > MAX_ROUNDS:
        raise NightError(409, "too_many_rounds", f"a night has at most {MAX_ROUNDS} rounds",
                         max=MAX_ROUNDS)
    rnd, epoch = next_seating(night)
    seating = {**rnd.to_json(), "epoch": {"players": list(epoch.players),
                                          "index": epoch.index, "seed": epoch.seed}}
    return number, [((_INSERT_ROUND, (night.id, number, json.dumps(seating), time.time())),
                     True)]


def round_of(night: Night, number: int) -> NightRound:
    """Round ``number`` of the night (404 ``no_round``)."""
    if not 1 <= number <= len(night.rounds):
        raise NightError(404, "no_round", f"the night has no round {number}", round=number)
    return night.rounds[number - 1]


def end_round(night: Night, number: int) -> Writes:
    """End a round once each of its tables has a result that is not disputed (409
    ``tables_open`` names the others); an unconfirmed result stands as entered."""
    r = round_of(night, number)
    if r.ended is not None:
        raise NightError(409, "round_over", f"round {number} has ended", round=number)
    open_tables = [t for t in range(1, len(r.round.tables) + 1)
                   if r.table_status(t)[0] in ("waiting", "playing", "disputed")]
    if open_tables:
        raise NightError(409, "tables_open", "these tables have no result, or a disputed "
                         "one: settle them first", tables=open_tables)
    seating: dict[str, Any] = {**r.round.to_json(), "epoch": {
        "players": list(r.epoch.players), "index": r.epoch.index, "seed": r.epoch.seed}}
    if night.scoring.sit_out == "bot" and r.round.out:
        hands = int(night.settings.get("hands") or STAND_IN_HANDS)
        seating["stand_ins"] = {str(p): stand_in_points(
            night.scoring, hands, f"{night.id} {number} {p}") for p in r.round.out}
    return [((_END_ROUND, (time.time(), json.dumps(seating), night.id, number)), True)]


STAND_IN_HANDS: Final = 8
"""The hands a stand-in bot plays for a round timed in minutes (a round's usual eight)."""


def stand_in_points(scoring: NightScoring, hands: int, seed: str) -> int:
    """What a bot playing in the place of a player who sits a round out scores (the
    sit-out policy ``bot``): four bots (``basic``) play ``hands`` deals of four-handed
    euchre (a deal thrown in is dealt again), and the stand-in in seat 0 scores its
    side's points by the night's values.  The same seed gives the same points.

    >>> stand_in_points(NightScoring(), 8, "night 1 13") == stand_in_points(
    ...     NightScoring(), 8, "night 1 13")
    True
    """
    rng = random.Random(seed)
    bots = [make_bot("basic", seed=rng.randrange(2**32)) for _ in range(4)]
    rules = Rules(players=4)
    points = played = dealt = 0
    while played < hands and dealt < 20 * hands:
        deal = play_deal(Deal.random(rules, dealer=dealt % 4, seed=rng.randrange(2**63)),
                         bots)
        dealt += 1
        result = deal.result
        if result.maker is None:  # thrown in
            continue
        played += 1
        points += hand_points(Hand(result.maker % 2, result.makers_tricks, result.alone),
                              scoring)[0]
    return points


# -- a table's result ------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A result as a phone or the organiser sends it: each side's points and the players
    who took all five alone, or the hands (``{"makers", "tricks", "alone", "maker"}``)
    from which they are counted (:meth:`euchre.night.TableResult.from_hands`)."""

    points: tuple[int, int] | None = None
    hands: tuple[dict[str, Any], ...] = ()
    loners: tuple[int, ...] = ()


def _result(night: Night, r: NightRound, table: int, entry: Entry
            ) -> tuple[tuple[int, int], tuple[int, ...]]:
    seated = r.round.tables[table - 1]
    try:
        if entry.hands:
            counted = TableResult.from_hands(
                seated, [(Hand(int(h["makers"]), int(h["tricks"]), bool(h.get("alone"))),
                          int(h["maker"])) for h in entry.hands], night.scoring)
            if entry.points is not None and entry.points != counted.points:
                raise ValueError(f"the hands make {list(counted.points)}, not "
                                 f"{list(entry.points)}")
            return counted.points, counted.loners
        if entry.points is None:
            raise ValueError("a result gives the points or the hands")
        if any(p not in seated.players for p in entry.loners):
            raise ValueError("a lone hand is a player's of this table")
        return entry.points, entry.loners
    except (ValueError, KeyError, TypeError) as e:
        raise NightError(422, "bad_result", str(e)) from None


def report(night: Night, role: Role, number: int, table: int, kind: ReportKind,
           entry: Entry | None = None, seq: int | None = None) -> tuple[Report, Writes]:
    """A new report of a table's result and its write.

    ``entered`` (the first result, by a player at the table), ``corrected`` (a new
    result by a player at the table, replacing report ``seq``, the current one),
    ``confirmed`` or ``disputed`` (report ``seq`` by a player of the other team than
    the one who entered it), ``settled`` (by the organiser, at any time).  Players report
    only while the round is played."""
    r = round_of(night, number)
    if not 1 <= table <= len(r.round.tables):
        raise NightError(404, "no_night_table", f"round {number} has no table {table}",
                         round=number, table=table)
    status, current = r.table_status(table)
    reports = r.reports.get(table, [])
    last_seq = reports[-1].seq if reports else 0
    stored: dict[str, Any] = {"result": current.to_json() if current else None,
                              "state": status, "seq": last_seq}
    if kind == "settled":
        if role != ORGANISER:
            raise NightError(403, "not_organiser", "only the organiser, with the night's "
                             "organiser link, may do this")
        by: int | None = None
    else:
        if not isinstance(role, int):
            raise NightError(403, "bad_night_key", "this link opens no place at the night")
        seat = _seat(r.round, role)
        if seat is None or seat[0] != table:
            raise NightError(403, "not_at_table", f"you do not play at table {table} of "
                             f"round {number}", round=number, table=table)
        if r.ended is not None:
            raise NightError(409, "round_over", f"round {number} has ended: the organiser "
                             "corrects its results", round=number, **stored)
        by = role
        if kind == "entered" and (current is not None or status == "playing"):
            raise NightError(409, "already_reported", "this table's result was reported "
                             "already", **stored)
        if kind != "entered":
            if current is None or seq != reports[-1].seq:
                raise NightError(409, "stale_report", "the table's result changed since "
                                 "you saw it", **stored)
            if status in FINAL:
                raise NightError(409, "settled", "the organiser settled this table's "
                                 "result, or its online game did", **stored)
        if kind in ("confirmed", "disputed"):
            assert current is not None
            entrant = current.by
            assert entrant is not None
            theirs = _seat(r.round, entrant)
            if theirs is not None and theirs[1] == seat[1]:
                raise NightError(403, "same_team", "the other team confirms or disputes a "
                                 "result, not the team that entered it", **stored)
            if status in ("confirmed", "disputed"):
                raise NightError(409, "stale_report", "the result was confirmed or "
                                 "disputed already", **stored)
    points: tuple[int, int] | None = None
    loners: tuple[int, ...] = ()
    hands: tuple[dict[str, Any], ...] = ()
    if kind in ("entered", "corrected", "settled"):
        if entry is None:
            raise NightError(422, "bad_result", "a result gives the points or the hands")
        points, loners = _result(night, r, table, entry)
        hands = entry.hands
    new = Report(last_seq + 1, kind, by, points, hands, loners, time.time())
    detail = json.dumps({"hands": list(hands), "loners": list(loners)})
    return new, [((_INSERT_REPORT, (
        night.id, number, table, new.seq, kind, by, None if points is None else points[0],
        None if points is None else points[1], detail, new.at)), True)]


# -- online tables -----------------------------------------------------------------------------
def app_places(r: NightRound, table: int) -> list[int]:
    """The night's players in the app table's places for ``table``: partners across
    (places 0 and 2 the first side, 1 and 3 the other), as four-handed euchre seats
    them without the draw."""
    (a, b), (c, d) = r.round.tables[table - 1].sides
    return [a, c, b, d]


def opened(night: Night, number: int, table: int, table_id: str, host: str,
           invites: Mapping[int, str]) -> Writes:
    """The report that an app table (``table_id``, its host key, each player's
    invitation) plays ``table`` of round ``number``."""
    r = round_of(night, number)
    reports = r.reports.get(table, [])
    detail = json.dumps({"online": {"id": table_id, "host": host,
                                    "invites": {str(p): i for p, i in invites.items()}}})
    return [((_INSERT_REPORT, (night.id, number, table, len(reports) + 1, "opened", None,
                               None, None, detail, time.time())), True)]


def played(night: Night, number: int, table: int, scores: Sequence[int]) -> Writes:
    """The report of an online table's game, over: each side's points are its score
    (side 0 holds the app table's places 0 and 2)."""
    r = round_of(night, number)
    seq = len(r.reports.get(table, [])) + 1
    detail = json.dumps({"hands": [], "loners": []})
    return [((_INSERT_REPORT, (night.id, number, table, seq, "played", None, int(scores[0]),
                               int(scores[1]), detail, time.time())), True)]


def awaiting_games(night: Night) -> list[tuple[int, int, str]]:
    """The online tables whose game has not been recorded: (round, table, app table id)."""
    return [(r.number, t, o.online["id"]) for r in night.rounds for t in sorted(r.reports)
            if (o := r.online(t)) is not None and r.reports[t][-1].kind == "opened"]
