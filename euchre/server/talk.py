"""The chat at a table: what the players say, and the host's mute.

A :class:`Talk` is one part of a :class:`~euchre.server.table.Table`.  Players talk
(spectators read); the host may mute a place.  The latest messages are kept in memory for
people who connect later; with other server processes, a message said at one reaches
every process's connections (:meth:`Talk.receive_chat`).
"""

from __future__ import annotations

import collections
import time
from typing import TYPE_CHECKING, Any

from euchre.server.outbox import CHAT_RATE, Connection
from euchre.server.outbox import error_message as _error

if TYPE_CHECKING:
    from euchre.server.table import Table

__all__ = ["CHAT_KEPT", "CHAT_LENGTH", "QUICK_MESSAGES", "Talk"]

CHAT_LENGTH = 200
"""The longest chat message, in characters."""

CHAT_KEPT = 30
"""Chat messages a table keeps in memory for people who connect later."""

QUICK_MESSAGES = ("nice", "good_game", "oops", "well_played", "thanks", "hurry")
"""The preset chat messages; each page words them in its own language."""


class Talk:
    """A table's chat: its latest messages, who may talk, the host's mute."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.chat_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=CHAT_KEPT)
        """The latest chat messages, for people who connect later (kept in memory only)."""

    @property
    def muted(self) -> frozenset[int]:
        """Places the host has muted in the chat."""
        return frozenset(int(p) for p in self.table.seating.options.get("muted", ()))

    async def mute(self, place_index: int, muted: bool) -> None:
        """The host mutes (or unmutes) a place in the chat."""
        table = self.table
        async with table.lock:
            now = set(self.muted)
            if muted:
                now.add(place_index)
            else:
                now.discard(place_index)
            await table.seating.store_options(muted=sorted(now))
            table.audience.broadcast()

    async def chat(self, conn: Connection, text: str | None, preset: str | None
                   ) -> dict[str, Any] | None:
        """A player says something to the table; returns an error, or ``None`` once sent
        to every connection (spectators read it but may not talk).  With other server
        processes, the database says first whether the place is muted: a mute the host
        set at another process is in force before the host is answered."""
        table = self.table
        if conn.place is None:
            return _error("spectator", "a spectator may not talk to the players",
                          {"asked": "chat"})
        if table.peers is None and conn.place in self.muted:
            return _error("muted", "the host has muted you at this table")
        wait = conn.chat.take(time.monotonic())
        if wait:
            return _error("rate_limited", "you are talking too fast: wait a moment",
                          {"what": "chat", "count": CHAT_RATE.count,
                           "seconds": CHAT_RATE.seconds, "wait": int(wait) + 1},
                          retry_ms=int(1000 * wait) + 1)
        message: dict[str, Any] = {"type": "chat", "place": conn.place,
                                   "seat": table.play.seat_of(conn),
                                   "name": table.seating.place_name(
                                       table.seating.places[conn.place]),
                                   "at": time.time()}
        if preset is not None:
            if preset not in QUICK_MESSAGES:
                return _error("malformed", f"no quick message {preset!r}")
            message["preset"] = preset
        else:
            clean = " ".join("".join(ch for ch in (text or "") if ch.isprintable()).split())
            if not clean:
                return _error("malformed", "an empty chat message")
            message["text"] = clean[:CHAT_LENGTH]
        if table.peers is not None:
            sent = await table.peers.send_chat(table.id, message, conn.token)
            if sent is False and not await table.sync.holds_seat(conn):
                return None  # removed or replaced at another process: the socket ends
            if sent is False or (sent is None and conn.place in self.muted):
                return _error("muted", "the host has muted you at this table")
        self.receive_chat(message)
        return None

    def receive_chat(self, message: dict[str, Any]) -> None:
        """A chat message, said here or at another server process: every connection
        gets it, and it is kept for those who come later."""
        self.chat_log.append(message)
        for conn in self.table.audience.connections:
            conn.push_json(message)
