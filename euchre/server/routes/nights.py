"""A club night's HTTP API (:mod:`euchre.server.night`): making a night, its players,
its rounds and the tables' results.  The key a request gives (header ``X-Euchre-Key`` or
``?key=``, :func:`~.deps.key_of`) is the organiser's key or a player's token; every
refusal is a 4xx with a ``code`` and changes nothing.

Each request reads the night from the database and writes in one transaction, so the
server holds nothing of a night in memory: a restart or another process sees the same.
A write that collides (two phones reporting one table at once, two rounds started at
once) is answered after reading the night again: with what is stored (409), or, for a
new player, by numbering them again.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from euchre.night import MAX_PLAYERS, MAX_ROUNDS, Format, NightScoring, SitOutPolicy
from euchre.rules import Rules
from euchre.server import night as nights
from euchre.server.night import Entry, Night, NightError, Role, Writes
from euchre.server.protocol import clean_name, shown
from euchre.server.registry import Tables
from euchre.server.routes.deps import Address, AppTables, Rates, key_of
from euchre.server.routes.refusals import Refusal
from euchre.server.seating import new_token
from euchre.server.storage import PlaceRecord

__all__ = ["router"]

router = APIRouter()

Points = Annotated[int, Field(ge=0, le=1000)]
PlayerName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(clean_name)]
Value = Annotated[int, Field(ge=0, le=100)]
RoundNumber = Annotated[int, PathParam(ge=1, le=MAX_ROUNDS)]
TableNumber = Annotated[int, PathParam(ge=1, le=MAX_PLAYERS // 4)]
PlayerNumber = Annotated[int, PathParam(ge=1, le=MAX_PLAYERS)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScoringModel(_Body):
    """The values of a hand and the sit-out policy (:class:`~euchre.night.NightScoring`)."""

    made: Value = 1
    march: Value = 2
    lone_made: Value = 1
    lone_march: Value = 4
    euchre: Value = 2
    lone_euchre: Value = 4
    sit_out: SitOutPolicy = "average"


class CreateNight(_Body):
    """``POST /api/nights``: the night's name, day (ISO date; today by default), format
    (``partners``, ``winners``, ``teams``), hands or minutes per round, the rounds
    planned, the scoring, and the players known already (each present)."""

    name: Annotated[str, Field(min_length=1, max_length=60), AfterValidator(clean_name)]
    day: datetime.date | None = None
    format: Format = "partners"
    hands: Annotated[int, Field(ge=1, le=50)] | None = 8
    minutes: Annotated[int, Field(ge=1, le=240)] | None = None
    rounds: Annotated[int, Field(ge=1, le=64)] | None = None
    scoring: ScoringModel = ScoringModel()
    players: Annotated[list[PlayerName], Field(max_length=MAX_PLAYERS)] = []


class NewPlayer(_Body):
    """A player added by the organiser, or registering with the join link (``join``)."""

    name: PlayerName
    join: Annotated[str, Field(max_length=100)] | None = None


class Presence(_Body):
    """A player present from the next round on, or gone."""

    present: bool


class HandModel(_Body):
    """One hand: the side that made trump (0: the table's first side), its tricks,
    whether its maker went alone, and the maker's number."""

    makers: Literal[0, 1]
    tricks: Annotated[int, Field(ge=0, le=5)]
    alone: bool = False
    maker: Annotated[int, Field(ge=1, le=MAX_PLAYERS)]


class ResultModel(_Body):
    """A table's result: each side's points (the table's sides in order), or the hands,
    and the players who took all five alone (counted from the hands when given)."""

    points: Annotated[list[Points], Field(min_length=2, max_length=2)] | None = None
    hands: Annotated[list[HandModel], Field(max_length=40)] = []
    loners: Annotated[list[Annotated[int, Field(ge=1, le=MAX_PLAYERS)]],
                      Field(max_length=20)] = []

    def entry(self) -> Entry:
        """The result as :mod:`euchre.server.night` takes it."""
        points = (self.points[0], self.points[1]) if self.points is not None else None
        return Entry(points, tuple(h.model_dump() for h in self.hands), tuple(self.loners))


class Answer(_Body):
    """A correction (a result replacing report ``seq``), a confirmation or a dispute
    (of report ``seq``): ``seq`` is the table's latest report the phone showed."""

    seq: Annotated[int, Field(ge=1, le=10_000)]


class Correction(ResultModel):
    """A new result replacing report ``seq`` (the latest the phone showed)."""

    seq: Annotated[int, Field(ge=1, le=10_000)]


def _refusal(e: NightError) -> Refusal:
    return Refusal(e.status, e.code, str(e), **e.params)


async def _load(tables: Tables, night_id: str) -> Night:
    """The night (404 ``no_night``), with the games of its online tables that have
    ended since recorded (:meth:`~euchre.server.nightwatch.NightWatch.load`)."""
    night = await tables.nights.load(night_id)
    if night is None:
        raise Refusal(404, "no_night", f"no night {shown(night_id)!r}", night=shown(night_id))
    return night


async def _write(tables: Tables, night_id: str, writes: Writes) -> bool:
    return await tables.nights.write(night_id, writes)


def _organiser(night: Night, request: Request) -> None:
    if night.role(key_of(request)) != nights.ORGANISER:
        raise Refusal(403, "not_organiser", "only the organiser, with the night's organiser "
                      "link, may do this")


@router.post("/api/nights", status_code=201)
async def create_night(body: CreateNight, tables: AppTables, rates: Rates,
                       address: Address) -> dict[str, Any]:
    """Make a night; the answer holds the organiser's key (``host_key``), the join
    link's key and every player's token, with the night as the organiser sees it."""
    rates["tables"].check(address)
    settings: dict[str, Any] = {"hands": body.hands, "minutes": body.minutes, "rounds": body.rounds,
                "scoring": body.scoring.model_dump()}
    NightScoring(**settings["scoring"])  # the model's bounds are the engine's
    day = (body.day or datetime.date.today()).isoformat()
    try:
        night_id, writes = nights.create_night(body.name, day, body.format, settings,
                                               body.players)
    except NightError as e:
        raise _refusal(e) from None
    await _write(tables, night_id, writes)
    night = await _load(tables, night_id)
    return {**night.to_json(nights.ORGANISER), "host_key": night.host_key,
            "url": f"/night/{night_id}", "host_url": f"/night/{night_id}?key={night.host_key}",
            "join_url": f"/night/{night_id}?join={night.join_key}"}


@router.get("/api/nights/{night_id}")
async def night_view(night_id: str, request: Request, tables: AppTables) -> dict[str, Any]:
    """The night as the key's holder sees it (:meth:`~euchre.server.night.Night.to_json`;
    no key: what a projector shows)."""
    night = await _load(tables, night_id)
    return night.to_json(night.role(key_of(request)))


@router.get("/api/nights/{night_id}/standings")
async def night_standings(night_id: str, tables: AppTables) -> dict[str, Any]:
    """The standings after the rounds ended."""
    night = await _load(tables, night_id)
    return {"id": night.id, "rounds": sum(r.ended is not None for r in night.rounds),
            "standings": night.standings()}


def _export(night: Night) -> dict[str, Any]:
    names = night.names()
    tables = [{"round": r.number, **r.table_json(t, names)}
              for r in night.rounds if r.ended is not None
              for t in range(1, len(r.round.tables) + 1)]
    return {"id": night.id, "name": night.name, "day": night.day, "format": night.format,
            "settings": night.settings, "standings": night.standings(),
            "rounds": night.player_rounds(), "tables": tables}


def _csv(night: Night) -> str:
    """The final standings, a blank line, then each player's rounds, as CSV."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["place", "number", "name", "total", "won", "played", "loners", "tied"])
    for s in night.standings():
        w.writerow([s["place"], s["number"], s["name"], s["total"], s["won"], s["played"],
                    s["loners"], int(s["tied"])])
    w.writerow([])
    w.writerow(["number", "name", "round", "table", "partner", "opponents", "points", "won"])
    for r in night.player_rounds():
        w.writerow([r["number"], r["name"], r["round"], r["table"] or "", r["partner"] or "",
                    " ".join(map(str, r["opponents"])), r["points"], int(r["won"])])
    return out.getvalue()


@router.get("/api/nights/{night_id}/export.{kind}")
async def night_export(night_id: str, kind: Literal["json", "csv"],
                       tables: AppTables) -> Response:
    """The standings (with the tie-breaks: rounds won, then ``tied``: an extra hand) and
    each player's rounds (:meth:`~euchre.server.night.Night.player_rounds`), as JSON or
    CSV, to download; the JSON also holds each table of the rounds ended with every report
    of its result (who entered, corrected, confirmed, disputed or settled it).  The
    rounds ended count; a name a spreadsheet would read as a formula is written as it was
    typed (open the CSV as text)."""
    night = await _load(tables, night_id)
    name = f"night-{night.day}-{night.id}.{kind}"
    if kind == "json":
        body = json.dumps(_export(night), ensure_ascii=False, indent=1)
        media = "application/json"
    else:
        body, media = _csv(night), "text/csv; charset=utf-8"
    return Response(body, media_type=media,
                    headers={"content-disposition": f'attachment; filename="{name}"'})


@router.get("/api/nights/{night_id}/qr.svg")
async def night_qr(night_id: str, request: Request, tables: AppTables,
                   join: bool = False) -> Response:
    """A QR code (SVG) of the night's page, for a table tent; ``join=1``, with the
    organiser's key, of the join link (for the door)."""
    night = await _load(tables, night_id)
    url = f"{str(request.base_url).rstrip('/')}/night/{night.id}"
    if join:
        _organiser(night, request)
        url += f"?join={night.join_key}"
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=4, border=2, light="#fff",
                                    title="QR")
    return Response(svg.getvalue(), media_type="image/svg+xml",
                    headers={"cache-control": "no-store" if join else "no-cache"})


@router.post("/api/nights/{night_id}/players", status_code=201)
async def add_player(night_id: str, body: NewPlayer, request: Request, tables: AppTables,
                     rates: Rates, address: Address) -> dict[str, Any]:
    """Add a player: by the organiser (their key), or by the player with the join
    link's key (``join``, counted as a seat taken: the ``joins`` rate).  The answer is
    the player's number, name and token."""
    if body.join is not None:
        rates["joins"].check(address)
    for _ in range(20):  # a collision is another player numbered at once: number again
        night = await _load(tables, night_id)
        if body.join is None:
            _organiser(night, request)
        elif not nights.same_key(body.join, night.join_key):
            raise Refusal(403, "bad_join", "this join link is not the night's")
        try:
            player, writes = nights.add_player(night, body.name)
        except NightError as e:
            raise _refusal(e) from None
        if await _write(tables, night_id, writes):
            return {"number": player.number, "name": player.name, "token": player.token,
                    "url": f"/night/{night_id}?key={player.token}"}
    raise Refusal(409, "busy", "too many players joined at once: try again")


@router.post("/api/nights/{night_id}/players/{number}/presence")
async def set_presence(night_id: str, number: PlayerNumber, body: Presence, request: Request,
                       tables: AppTables) -> dict[str, Any]:
    """Mark a player present or gone from the next round on (the organiser: anyone; a
    player: themselves)."""
    night = await _load(tables, night_id)
    role = _role(night, request)
    try:
        writes = nights.set_presence(night, role, number, body.present)
    except NightError as e:
        raise _refusal(e) from None
    await _write(tables, night_id, writes)
    return (await _load(tables, night_id)).to_json(role)


def _role(night: Night, request: Request) -> Role:
    role = night.role(key_of(request))
    if role is None:
        raise Refusal(403, "bad_night_key", "this link opens no place at the night")
    return role


class StartRound(_Body):
    """The tables of the new round played online (each an app table), by number."""

    online: Annotated[list[Annotated[int, Field(ge=1, le=MAX_PLAYERS // 4)]],
                      Field(max_length=MAX_PLAYERS // 4)] = []


@router.post("/api/nights/{night_id}/rounds", status_code=201)
async def start_round(night_id: str, request: Request, tables: AppTables, address: Address,
                      body: StartRound | None = None) -> dict[str, Any]:
    """Start the next round, seated for the players present (the organiser); each table
    named in ``online`` is played at a table of the app (:func:`_open_online`)."""
    night = await _load(tables, night_id)
    _organiser(night, request)
    try:
        number, writes = nights.start_round(night)
    except NightError as e:
        raise _refusal(e) from None
    online = sorted(set(body.online)) if body else []
    if not await _write(tables, night_id, writes):
        night = await _load(tables, night_id)
        raise Refusal(409, "round_open", "another round was started at the same moment",
                      round=len(night.rounds))
    night = await _load(tables, night_id)
    for table in online:
        if table <= len(night.rounds[number - 1].round.tables):
            await _open_online(tables, night, number, table, address)
    night = await _load(tables, night_id)
    return night.to_json(nights.ORGANISER)["rounds"][number - 1]  # type: ignore[no-any-return]


async def _open_online(tables: Tables, night: Night, number: int, table: int,
                       address: str) -> None:
    """Open an app table for ``table`` of round ``number`` (the app's own table-making,
    :meth:`~euchre.server.registry.Tables.create`): four-handed euchre by the default
    rules, each scheduled player invited to their place (partners across); the
    organiser's host link there starts the game with bots in the seats nobody took.
    Its game's scores become the table's result when it ends."""
    r = night.rounds[number - 1]
    names = night.names()
    places = [PlaceRecord(i, "friend", names.get(p, ""), invite=new_token())
              for i, p in enumerate(nights.app_places(r, table))]
    host = new_token()
    options = {"host": host, "private": True, "watch": new_token(), "started": False,
               "night": {"id": night.id, "round": number, "table": table}}
    made = await tables.create(f"{night.name} {number}.{table}", Rules(), places, options,
                               address)
    invites = {p: place.invite or "" for p, place in zip(nights.app_places(r, table), places,
                                                         strict=True)}
    await _write(tables, night.id, nights.opened(night, number, table, made.id, host, invites))


@router.post("/api/nights/{night_id}/rounds/{number}/end")
async def end_round(night_id: str, number: RoundNumber, request: Request,
                    tables: AppTables) -> dict[str, Any]:
    """End a round (the organiser) once each table has a result not disputed."""
    night = await _load(tables, night_id)
    _organiser(night, request)
    try:
        writes = nights.end_round(night, number)
    except NightError as e:
        raise _refusal(e) from None
    if not await _write(tables, night_id, writes):
        raise Refusal(409, "round_over", f"round {number} has ended", round=number)
    return (await _load(tables, night_id)).to_json(nights.ORGANISER)


async def _report(night_id: str, number: RoundNumber, table: TableNumber, request: Request,
                  tables: AppTables, kind: nights.ReportKind, entry: Entry | None = None,
                  seq: int | None = None) -> dict[str, Any]:
    night = await _load(tables, night_id)
    role = night.role(key_of(request))
    try:
        _, writes = nights.report(night, role, number, table, kind, entry, seq)
    except NightError as e:
        raise _refusal(e) from None
    if not await _write(tables, night_id, writes):  # another phone's report came first
        night = await _load(tables, night_id)
        stored = night.rounds[number - 1].table_json(table, night.names())
        raise Refusal(409, "already_reported", "another report of this table's result "
                      "came first", result=stored["result"], state=stored["status"],
                      seq=stored["reports"][-1]["seq"])
    night = await _load(tables, night_id)
    return night.rounds[number - 1].table_json(table, night.names())


@router.post("/api/nights/{night_id}/rounds/{number}/tables/{table}/report", status_code=201)
async def enter_result(night_id: str, number: RoundNumber, table: TableNumber, body: ResultModel,
                       request: Request, tables: AppTables) -> dict[str, Any]:
    """A player at the table enters its result (the first report): the other team is
    asked to confirm it.  A result there already: 409 ``already_reported`` with it."""
    return await _report(night_id, number, table, request, tables, "entered", body.entry())


@router.post("/api/nights/{night_id}/rounds/{number}/tables/{table}/correct",
             status_code=201)
async def correct_result(night_id: str, number: RoundNumber, table: TableNumber, body: Correction,
                         request: Request, tables: AppTables) -> dict[str, Any]:
    """A player at the table replaces the latest report (``seq``) with a new result."""
    return await _report(night_id, number, table, request, tables, "corrected",
                         body.entry(), body.seq)


@router.post("/api/nights/{night_id}/rounds/{number}/tables/{table}/confirm",
             status_code=201)
async def confirm_result(night_id: str, number: RoundNumber, table: TableNumber, body: Answer,
                         request: Request, tables: AppTables) -> dict[str, Any]:
    """A player of the other team confirms the latest report (``seq``)."""
    return await _report(night_id, number, table, request, tables, "confirmed", seq=body.seq)


@router.post("/api/nights/{night_id}/rounds/{number}/tables/{table}/dispute",
             status_code=201)
async def dispute_result(night_id: str, number: RoundNumber, table: TableNumber, body: Answer,
                         request: Request, tables: AppTables) -> dict[str, Any]:
    """A player of the other team disputes the latest report (``seq``): the organiser
    settles it."""
    return await _report(night_id, number, table, request, tables, "disputed", seq=body.seq)


@router.post("/api/nights/{night_id}/rounds/{number}/tables/{table}/settle",
             status_code=201)
async def settle_result(night_id: str, number: RoundNumber, table: TableNumber, body: ResultModel,
                        request: Request, tables: AppTables) -> dict[str, Any]:
    """The organiser sets a table's result (a disagreement settled, a correction after
    the round ended, a table that never reported)."""
    return await _report(night_id, number, table, request, tables, "settled", body.entry())

