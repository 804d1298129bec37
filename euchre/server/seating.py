"""Who sits where at a table: its places, their tokens and invitations, and the host's
powers over the seats.

A :class:`Seating` is one part of a :class:`~euchre.server.table.Table`; it holds the
table's places and its stored settings that are not rules (the host's and the watchers'
keys, privacy, whether the game has started, who is muted, the turn timer).  A seat and
its cards open only with the place's own token; the host's powers only with the host's
key (compared in constant time).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from euchre.game import Match
from euchre.server.storage import PlaceRecord, TableRecord

if TYPE_CHECKING:
    from euchre.server.table import Table

__all__ = ["BOT_NAMES", "Seating", "TableError", "new_token"]

BOT_NAMES = ("Ada", "Bea", "Cal", "Dot", "Eve")
"""Default names of bots, by place, so that every seat reads differently."""


class TableError(ValueError):
    """A request the table refuses; ``code`` names the kind of problem for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Seating:
    """A table's places and settings: who holds which seat, invitations, the host."""

    def __init__(self, table: Table, record: TableRecord) -> None:
        self.table = table
        self.places = record.places
        self.options: dict[str, Any] = {}
        """The table's settings that are not rules (stored): the turn timer, the host's
        and the watchers' keys, privacy, whether the game has started, who is muted."""
        self.turn_timer: float | None = None
        """Seconds a person has to act before a stand-in bot plays the seat (None: off)."""
        self.take_options(record.options)

    # -- who is who ----------------------------------------------------------------------------
    def place_by_token(self, token: str) -> PlaceRecord | None:
        """The place this seat token opens, if any (compared in constant time): a place
        a person holds, never a bot's or an empty one."""
        found = None
        given = token.encode()
        for p in self.places:
            if (p.token is not None and p.claimed and p.kind != "bot"
                    and secrets.compare_digest(p.token.encode(), given)):
                found = p
        return found

    def place_by_invite(self, invite: str) -> PlaceRecord | None:
        """The place this invitation was made for, spent or not (constant time)."""
        found = None
        given = invite.encode()
        for p in self.places:
            if p.invite is not None and secrets.compare_digest(p.invite.encode(), given):
                found = p
        return found

    def names(self, match: Match | None = None) -> list[str]:
        """The name at each seat of a match (the current one by default)."""
        m = match or self.table.play.match
        return [self.place_name(self.places[p]) for p in m.place_at]

    @staticmethod
    def place_name(place: PlaceRecord) -> str:
        """The name a place shows: its person's, its bot's, or what it is."""
        if place.kind == "bot":
            return place.name or f"{place.bot} bot"
        return place.name or ("open seat" if place.kind == "open" else "friend")

    def invited(self) -> list[PlaceRecord]:
        """Places whose invitation is out and not yet taken (a bot may play meanwhile)."""
        return [p for p in self.places
                if p.invite is not None and not p.claimed and p.kind in ("friend", "bot")]

    def people(self) -> list[PlaceRecord]:
        """The places a person has taken."""
        return [p for p in self.places if p.kind != "bot" and p.claimed]

    # -- the table's settings: host, privacy, waiting room ---------------------------------------
    def take_options(self, options: dict[str, Any]) -> None:
        """Take these settings as the table's (as stored)."""
        self.options = dict(options)
        timer = self.options.get("turn_timer")
        self.turn_timer = None if timer is None else float(timer)

    def _key_matches(self, name: str, given: str | None) -> bool:
        key = self.options.get(name)
        return (isinstance(key, str) and given is not None
                and secrets.compare_digest(key.encode(), given.encode()))

    def is_host(self, token: str | None) -> bool:
        """Does ``token`` hold the host's powers here (the host link's key)?"""
        return self._key_matches("host", token)

    @property
    def has_host(self) -> bool:
        """The table was made with a host link (tables made before hosts had none)."""
        return isinstance(self.options.get("host"), str)

    @property
    def private(self) -> bool:
        """Not in the lobby's list, and watched only with the host's watch link."""
        return bool(self.options.get("private", False))

    def may_watch(self, key: str | None) -> bool:
        """May a spectator with this key (or none) watch?  Anyone at a public table; at a
        private one, the watch link's key or the host's."""
        return not self.private or self._key_matches("watch", key) or self.is_host(key)

    def may_see(self, key: str | None) -> bool:
        """May someone with this key (or none) read the table's facts and its finished
        games?  Anyone at a public table; at a private one, whoever holds one of its
        keys: a seat token, an invitation out for one of its places, the host's key or
        the watch link's (a person removed or replaced holds none of them any more)."""
        return self.may_watch(key) or (bool(key) and (
            self.place_by_token(key or "") is not None
            or self.place_by_invite(key or "") is not None))

    @property
    def started(self) -> bool:
        """Has the game begun?  A table with invited seats waits until every invited
        person has arrived or the host starts it (tables made before had no wait)."""
        return bool(self.options.get("started", True))

    async def store_place(self, place: PlaceRecord) -> None:
        """Write one place (the lock is held)."""
        await self.table.storage.update_place(self.table.id, place)

    async def store_options(self, **changes: Any) -> None:
        """Store these options (the others stay as stored) and take them."""
        await self.table.storage.set_options(self.table.id, changes)
        self.take_options({**self.options, **changes})

    def drop_revoked(self, why: str = "reinvited") -> None:
        """End every connection whose seat token no longer opens its place (the host
        invited someone else to it, removed the person, or seated a bot)."""
        connections = self.table.audience.connections
        for conn in list(connections):
            if conn.place is None:
                continue
            place = self.places[conn.place]
            if (conn.token is not None and place.token is not None and place.claimed
                    and place.kind != "bot"
                    and secrets.compare_digest(place.token.encode(), conn.token.encode())):
                continue
            connections.remove(conn)
            message = {
                "removed": "the host removed you from this table",
                "replaced": "the host seated a bot in your place",
            }.get(why, "the host gave your seat to someone else: ask the host for a new "
                       "invitation")
            task = asyncio.create_task(conn.end("revoked", message, 4403, {"why": why}))
            _KEEP.add(task)
            task.add_done_callback(_KEEP.discard)

    # -- taking and leaving a seat ---------------------------------------------------------------
    async def claim(self, place_index: int, name: str | None,
                    open_only: bool = False) -> PlaceRecord:
        """A person takes a place (friend or open); ``name`` replaces the default.  With
        ``open_only`` the place must still be open in the database, which another server
        process may have given away a moment ago (:class:`TableError` ``seat_taken``)."""
        table = self.table
        place = self.places[place_index]
        if place.kind == "bot":
            raise TableError("bot_place", f"place {place_index} is played by a bot")
        new_name = (name or place.name or "").strip()[:40] or (
            "Friend" if place.kind == "friend" else f"Player {place_index + 1}")
        if not await table.storage.claim_place(table.id, place.index, new_name, open_only):
            raise TableError("seat_taken", f"place {place_index} is not an open seat")
        place.claimed = True
        place.name = new_name
        table.play.away.discard(place.index)
        table.clock.arm()
        table.audience.broadcast()
        return place

    async def claim_invite(self, invite: str, name: str | None) -> PlaceRecord:
        """A person opens an invitation: the place is theirs, with a new seat token, and
        the invitation is spent.  :class:`TableError` ``bad_invitation`` (no place has
        it) or ``invitation_spent`` (someone took the seat with it already)."""
        table = self.table
        async with table.lock:
            place = self.place_by_invite(invite)
            if place is None and table.peers is not None:
                # the host may have made it at another process a moment ago, before this
                # one heard of it: the database says
                await table.sync.read_places()
                place = self.place_by_invite(invite)
            if place is None:
                raise TableError("bad_invitation",
                                 "this invitation does not open a seat at this table")
            if place.claimed:
                raise TableError("invitation_spent", "this invitation was used already: "
                                 "the seat is taken")
            kept = place.name if place.kind == "friend" else ""
            new_name = (name or "").strip()[:40] or kept or "Friend"
            claimed = PlaceRecord(place.index, "friend", new_name, None, new_token(), True,
                                  place.invite)
            # whether everyone is here is the database's to say, in the claim's own
            # transaction: another process may have seated the other guests a moment ago
            started = await table.storage.spend_invitation(table.id, claimed, invite)
            if started is None:
                raise TableError("invitation_spent", "this invitation was used already: "
                                 "the seat is taken")
            was_bot = place.kind == "bot"
            self.places[place.index] = claimed
            if was_bot:  # a late arrival takes the seat back from the bot keeping it
                table.play.make_bots()
            table.play.away.discard(place.index)
            if started and not self.started:  # everyone is here: deal
                self.take_options({**self.options, "started": True})
            table.clock.arm()
            table.audience.broadcast()
        table.play.kick()
        return claimed

    async def release(self, place_index: int) -> None:
        """A person leaves for good: the place becomes an open seat with a new token,
        and a stand-in bot plays it until someone takes it."""
        table = self.table
        place = self.places[place_index]
        async with table.lock:
            token = new_token()
            await table.storage.release_place(table.id, place.index, "open", "", token)
            place.kind = "open"
            place.name = ""
            place.claimed = False
            place.token = token
            place.invite = None
            if not table.play.is_over:
                table.play.away.add(place.index)
            table.play.reading.discard(place.index)
            connections = table.audience.connections
            gone = [c for c in connections if c.place == place.index]
            for conn in gone:
                connections.remove(conn)
            table.clock.arm()
            table.audience.broadcast()
        for conn in gone:
            await conn.end("left", "you left this table: your seat is open to others", 4403)
        table.play.kick()

    # -- invitations and the host's powers ----------------------------------------------------
    async def invite(self, place_index: int, why: str = "reinvited") -> PlaceRecord:
        """The host makes a new invitation for a place: whoever held it loses it at once
        (their seat token stops working, here and on every other server process), and a
        bot keeping the seat plays on until the invited person arrives.  An empty seat of
        a started game is played by a stand-in meanwhile."""
        table = self.table
        async with table.lock:
            place = self.places[place_index]
            if place.kind == "bot":
                fresh = PlaceRecord(place.index, "bot", place.name, place.bot, None, False,
                                    new_token())
            else:
                fresh = PlaceRecord(place.index, "friend", "", None, None, False, new_token())
            await self.store_place(fresh)
            self.places[place_index] = fresh
            if fresh.kind == "friend" and self.started and not table.play.is_over:
                table.play.away.add(place_index)
            self.drop_revoked(why)
            table.clock.arm()
            table.audience.broadcast()
        table.play.kick()
        return fresh

    async def seat_bot(self, place_index: int, level: str) -> PlaceRecord:
        """The host puts a bot in a place: whoever held it loses it; the place keeps a
        new invitation, which gives the seat back to the person the host sends it to."""
        table = self.table
        async with table.lock:
            place = self.places[place_index]
            name = place.name if place.kind == "bot" and place.name else BOT_NAMES[place_index]
            fresh = PlaceRecord(place.index, "bot", name, level, None, False, new_token())
            await self.store_place(fresh)
            self.places[place_index] = fresh
            table.play.away.discard(place_index)
            table.play.reading.discard(place_index)
            table.play.make_bots()
            self.drop_revoked("replaced")
            table.clock.arm()
            table.audience.broadcast()
        if table.peers is not None:
            await table.peers.claim_bots(table.id)
        table.play.kick()
        return fresh

    async def start(self) -> list[int]:
        """The host starts the game: every invited seat nobody took is played by a bot
        (its invitation stays good: a late arrival takes the seat back).  Returns the
        places the bots took."""
        table = self.table
        async with table.lock:
            if self.started:
                return []
            taken = []
            for place in self.invited():
                if place.kind == "bot":
                    continue
                fresh = PlaceRecord(place.index, "bot", BOT_NAMES[place.index],
                                    table.play.stand_in_level(), None, False, place.invite)
                await self.store_place(fresh)
                self.places[place.index] = fresh
                taken.append(place.index)
            table.play.make_bots()
            await self.store_options(started=True)
            table.clock.arm()
            table.audience.broadcast()
        if table.peers is not None and table.play.bots:
            await table.peers.claim_bots(table.id)
        table.play.kick()
        return taken


_KEEP: set[asyncio.Task[Any]] = set()
"""Tasks started and not awaited (a connection being ended), kept until they finish."""


def new_token() -> str:
    """An unguessable seat token (192 random bits)."""
    return secrets.token_urlsafe(24)
