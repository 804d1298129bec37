"""The host's powers, with the host link's key (:data:`~.deps.HostedTable`): the host's
view, their own seat, invitations, removing a person, seating a bot, dealing now, the
turn timer, muting, ending the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from euchre.bots import BOTS
from euchre.server.protocol import check_bot
from euchre.server.routes.deps import AppSettings, AppTables, HostedPlace, HostedTable
from euchre.server.routes.refusals import Refusal

__all__ = ["router"]

router = APIRouter()


@router.post("/api/tables/{table_id}/host")
async def host_view(hosted: HostedTable) -> dict[str, Any]:
    """What the host sees: the places, their invitations, the watch link."""
    return hosted.table.audience.host_view()


@router.post("/api/tables/{table_id}/host/seat")
async def host_seat(hosted: HostedTable) -> dict[str, Any]:
    """The host's own seat, for the host link opened on another device: the seat
    token of the place the host made the table in, while the host still holds it
    (``place`` and ``token`` null when not)."""
    table = hosted.table
    own = next((p for p in table.places if p.kind == "you" and p.claimed), None)
    return {"id": table.id, "place": own.index if own else None,
            "token": own.token if own else None}


@router.post("/api/tables/{table_id}/host/invite")
async def host_invite(hosted: HostedPlace) -> dict[str, Any]:
    """A new invitation for a place; whoever held it loses it at once."""
    table, body = hosted
    assert body.place is not None
    await table.seating.invite(body.place)
    return table.audience.host_view()


@router.post("/api/tables/{table_id}/host/remove")
async def host_remove(hosted: HostedPlace) -> dict[str, Any]:
    """Remove the person at a place: the seat waits for a new invitation's guest."""
    table, body = hosted
    assert body.place is not None
    await table.seating.invite(body.place, "removed")
    return table.audience.host_view()


@router.post("/api/tables/{table_id}/host/bot")
async def host_bot(hosted: HostedPlace, cfg: AppSettings) -> dict[str, Any]:
    """Seat a bot in a place (``bot``: its level, Casual by default)."""
    table, body = hosted
    assert body.place is not None
    level = body.bot or cfg.stand_in
    try:
        check_bot(level, table.rules, BOTS)
    except ValueError as e:
        raise Refusal(422, "bad_rules", str(e)) from None
    await table.seating.seat_bot(body.place, level)
    return table.audience.host_view()


@router.post("/api/tables/{table_id}/host/start")
async def host_start(hosted: HostedTable) -> dict[str, Any]:
    """Deal now: every invited seat nobody took is played by a bot meanwhile."""
    table = hosted.table
    await table.seating.start()
    return table.audience.host_view()


@router.post("/api/tables/{table_id}/host/timer")
async def host_timer(hosted: HostedTable) -> dict[str, Any]:
    """Set the turn timer (``turn_timer`` seconds; none: off)."""
    table, body = hosted
    await table.clock.set_timer(body.turn_timer)
    return table.audience.host_view()


@router.post("/api/tables/{table_id}/host/mute")
async def host_mute(hosted: HostedPlace) -> dict[str, Any]:
    """Mute (``muted``: true) or unmute a place in the chat."""
    table, body = hosted
    assert body.place is not None
    await table.talk.mute(body.place, body.muted)
    return table.audience.host_view()


@router.post("/api/tables/{table_id}/host/end")
async def host_end(hosted: HostedTable, tables: AppTables) -> dict[str, Any]:
    """End the table for everyone, with every game played at it."""
    table = hosted.table
    await tables.delete(table)
    return {"id": table.id, "deleted": True}
