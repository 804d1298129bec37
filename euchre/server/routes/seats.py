"""The seats: taking a place (by invitation, or an open one), checking an invitation
before the page asks a name, and giving a place up."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from euchre.server.protocol import JoinRequest, LeaveRequest
from euchre.server.routes.deps import Address, AppTables, Rates, table_or_404
from euchre.server.routes.refusals import Refusal, invitation_refused
from euchre.server.table import TableError

__all__ = ["router"]

router = APIRouter()


@router.post("/api/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinRequest, tables: AppTables, rates: Rates,
                     address: Address) -> dict[str, Any]:
    """Take a place: with an invitation token, or an open place by its number."""
    rates["joins"].check(address)
    table = await table_or_404(table_id, tables)
    if body.invite is not None:
        try:
            place = await table.seating.claim_invite(body.invite, body.name or None)
        except TableError as e:
            raise invitation_refused(table, body.invite, e) from None
        return {"id": table.id, "place": place.index, "token": place.token,
                "url": f"/table/{table.id}"}
    async with table.lock:  # two asking at once for one open seat: one gets it
        if body.place is not None and body.place < len(table.places):
            place = table.places[body.place]
            if place.kind != "open" or place.claimed:
                raise Refusal(409, "seat_taken", f"place {body.place} is not an open seat",
                              place=body.place)
        else:
            raise Refusal(422, "no_seat_given",
                          "give an invitation or the number of an open place")
        try:
            await table.seating.claim(place.index, body.name or None, open_only=True)
        except TableError as e:  # another process gave the seat away a moment ago
            raise Refusal(409, "seat_taken", str(e), place=place.index) from None
    return {"id": table.id, "place": place.index, "token": place.token,
            "url": f"/table/{table.id}"}


@router.post("/api/tables/{table_id}/invitation")
async def check_invitation(table_id: str, body: JoinRequest, tables: AppTables, rates: Rates,
                           address: Address) -> dict[str, Any]:
    """Would this invitation open a seat?  Checked when its link is opened, before
    the page asks a name (it answers the table's name and number of players, and the
    name the seat was made for, if any: a club night's player at its online table);
    nothing is spent.  Refused as the claim would be: 403
    ``bad_invitation``, 409 ``invitation_spent``."""
    rates["joins"].check(address)
    table = await table_or_404(table_id, tables)
    place = await table.sync.invited_place(body.invite or "")
    if place is None:
        raise invitation_refused(table, body.invite or "", TableError(
            "bad_invitation", "this invitation does not open a seat at this table"))
    if place.claimed:
        raise invitation_refused(table, body.invite or "", TableError(
            "invitation_spent", "this invitation was used already: the seat is taken"))
    return {"id": table.id, "place": place.index, "name": table.name,
            "players": table.rules.players,
            "seat": place.name if place.kind == "friend" else ""}


@router.post("/api/tables/{table_id}/leave")
async def leave_table(table_id: str, body: LeaveRequest, tables: AppTables) -> dict[str, Any]:
    """Give up your place: it opens to others and a bot plays it meanwhile; the last
    person to leave an unfinished game closes the table."""
    table = await table_or_404(table_id, tables)
    place = await table.sync.place_by_token_stored(body.token)
    if place is None:
        raise Refusal(403, "bad_token", "this seat token opens no seat at this table")
    await tables.leave(table, place.index)
    return {"id": table.id, "place": place.index, "closed": table.closed}
