"""The tables: the lobby's list (open tables, finished games), a new table, one table's
facts, and its host deleting it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from euchre.bots import BOTS
from euchre.rules import Rules
from euchre.server.limits import LimitError
from euchre.server.protocol import MAX_OFFSET, CreateTable, LeaveRequest, shown
from euchre.server.registry import Tables
from euchre.server.routes.deps import (
    Address,
    AppLimits,
    AppTables,
    KeyedTable,
    Rates,
    key_of,
    table_or_404,
)
from euchre.server.routes.refusals import Refusal
from euchre.server.storage import PlaceRecord
from euchre.server.table import BOT_NAMES, Table, new_token

__all__ = ["router"]

router = APIRouter()


def _summary(table: Table) -> dict[str, Any]:
    match = table.match
    deal = match.game.deal
    return {
        **table.audience.info(),
        "scores": list(match.game.scores),
        "over": match.is_over,
        "deal": len(match.game.deals) + (0 if match.is_over else 1),
        "to_move": None if match.is_over else deal.to_move,
        "created": table.created,
    }


@router.get("/api/tables")
async def list_tables(tables: AppTables, lim: AppLimits, offset: int = 0,
                      limit: int | None = None) -> dict[str, Any]:
    """Open tables (to join or watch) and recently finished games (to replay), a
    page of each: ``limit`` of them (at most the page limit) after the ``offset``
    first; ``next`` is the offset of the next page, if there is one."""
    size = lim.page if limit is None else limit
    if size > lim.page:
        given = size if size.bit_length() <= 53 else None  # JSON for a page's script
        raise LimitError("page_too_large", f"a page holds at most {lim.page} tables, "
                         f"not {shown(str(size), 20)}", 422,
                         params={"max": lim.page, "given": given})
    if size < 1 or not 0 <= offset <= MAX_OFFSET:
        raise Refusal(422, "bad_page", f"limit is at least 1 and offset from 0 to "
                      f"{MAX_OFFSET}")
    open_tables = tables.open_tables()
    stored = await tables.storage.finished_matches(size + 1, offset)
    more = len(open_tables) > offset + size or len(stored) > size
    finished = []
    for record, match in stored[:size]:
        if record.options.get("private"):
            continue  # shown to its players only
        finished.append({
            "id": record.id, "name": record.name, "match": match.number,
            "variant": Rules.from_dict(record.rules).variant,
            "names": [p.name or (f"{p.bot} bot" if p.bot else "player")
                      for p in record.places],
            "result": match.result, "finished": match.finished,
        })
    return {"open": [_summary(t) for t in open_tables[offset:offset + size]],
            "open_total": len(open_tables), "finished": finished,
            "offset": offset, "limit": size, "next": offset + size if more else None}


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, tables: AppTables, lim: AppLimits, rates: Rates,
                       address: Address) -> dict[str, Any]:
    """Create a table; the answer holds your seat token and the invitation links."""
    made = tables.created_by(address)
    if made >= lim.per_address:
        raise LimitError("too_many_tables", f"this address has {made} unfinished tables "
                         f"already, the most it may hold at once: finish or leave one "
                         f"first", 429, None, {"max": lim.per_address})
    rates["tables"].check(address)
    with tables.making(address):  # counted from this step on, before any await
        return await _create_table(tables, address, body)


async def _create_table(tables: Tables, address: str, body: CreateTable) -> dict[str, Any]:
    try:
        rules = body.check(BOTS)
    except ValueError as e:
        raise Refusal(422, "bad_rules", str(e)) from None
    places = []
    for i, seat in enumerate(body.seats):
        if seat.kind == "bot":
            places.append(PlaceRecord(i, "bot", seat.name or BOT_NAMES[i], seat.bot))
        elif seat.kind == "friend":  # an invitation, never itself a seat's key
            places.append(PlaceRecord(i, "friend", seat.name, invite=new_token()))
        else:
            places.append(PlaceRecord(i, seat.kind, seat.name, None, new_token(),
                                      claimed=seat.kind == "you"))
    for p in places:
        if p.kind == "you" and not p.name:
            p.name = "You"
    # no name: stored empty, and each page words the variant's name in its language
    name = body.name
    invited = any(p.kind == "friend" for p in places)
    private = invited if body.private is None else body.private
    host = new_token()
    options: dict[str, Any] = {"host": host, "private": private, "started": not invited}
    if private:
        options["watch"] = new_token()
    if body.turn_timer is not None:
        options["turn_timer"] = body.turn_timer
    table = await tables.create(name, rules, places, options, address)
    you = next((p for p in places if p.kind == "you"), None)
    return {
        "id": table.id,
        "url": f"/table/{table.id}",
        "token": you.token if you else None,
        "place": you.index if you else None,
        "host": host,
        "host_url": f"/table/{table.id}?host={host}",
        "watch_url": (f"/table/{table.id}?watch={options['watch']}" if private else None),
        "private": private,
        "invites": [{"place": p.index, "invite": p.invite,
                     "url": f"/table/{table.id}?invite={p.invite}"}
                    for p in places if p.kind == "friend"],
    }


@router.get("/api/tables/{table_id}")
async def get_table(request: Request, table: KeyedTable) -> dict[str, Any]:
    """One table's facts: rules, seats, score; a private table's only with one of
    its keys (header ``X-Euchre-Key``).  Given an invitation, whether it is spent
    (``invitation``), which opening it would not do."""
    summary = _summary(table)
    key = key_of(request)
    invited = table.seating.place_by_invite(key) if key else None
    if invited is not None:
        summary["invitation"] = {"place": invited.index, "spent": invited.claimed}
    return summary


@router.delete("/api/tables/{table_id}")
async def delete_table(table_id: str, body: LeaveRequest, tables: AppTables
                       ) -> dict[str, Any]:
    """The host ends a table, with every game played at it (``token``: the host
    link's key; at a table made before host links, the creator's seat token)."""
    table = await table_or_404(table_id, tables)
    if not table.seating.is_host(body.token):
        place = None if table.seating.has_host else table.seating.place_by_token(body.token)
        if place is None or place.kind != "you":
            raise Refusal(403, "not_creator",
                          "only the table's host may delete it")
    await tables.delete(table)
    return {"id": table.id, "deleted": True}
