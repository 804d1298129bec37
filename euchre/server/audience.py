"""Who is connected to a table, and the state each connection is sent.

An :class:`Audience` is one part of a :class:`~euchre.server.table.Table`: its players'
and spectators' connections, and what each is shown (RULES §12: a seat sees its own
cards, a spectator none).  The players get every state at once; the spectators get the
newest state at a bounded pace, so a crowd costs a bounded number of messages a second
and never holds up the players.  What a table sends a connection goes through the
connection's outbox (:mod:`euchre.server.outbox`).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from euchre.bots import BOTS
from euchre.deal import Deal
from euchre.server import views
from euchre.server.outbox import Connection
from euchre.server.play import HINT_BOT

if TYPE_CHECKING:
    from euchre.server.table import Table

__all__ = ["CROWD_RATE", "LOBBY_QUIET", "PRESENCE_DELAY", "SPECTATOR_PACE", "Audience"]

LOBBY_QUIET = 600.0
"""Seconds a public table stays in the lobby's list with no person connected to it (it
can still be resumed with its links, and expires as any idle table).  It is also how
long a table counts against the server's limit of tables in play after its last person
left (:meth:`~.registry.Tables.make_room`)."""

PRESENCE_DELAY = 1.0
"""Seconds the players wait to hear that spectators came or went: the watching count is
sent at most once in this time, however many arrive (a crowd of N costs O(N) messages)."""

SPECTATOR_PACE = 0.2
"""Seconds at least between two states sent to a table's spectators: they see the newest
state at most five times a second (people at the speed of play see every one)."""

CROWD_RATE = 1000
"""States a second at most that a table sends its spectators, all of them together: a
crowd larger than ``CROWD_RATE * SPECTATOR_PACE`` sees the newest state less often (1,000
spectators once a second), so its cost is bounded whatever its size."""


class Audience:
    """A table's connections, players and spectators, and what each is sent."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.connections: list[Connection] = []
        self.last_person = time.time()
        """When a person was last connected here (a public table nobody visits leaves
        the lobby's list after :data:`LOBBY_QUIET` seconds)."""
        self._last_texts: tuple[Deal | None, dict[int | None, str]] = (None, {})
        self._presence: asyncio.TimerHandle | None = None
        self._watchers: asyncio.TimerHandle | None = None
        """The spectators' next state, when one is due (:meth:`_spectators_later`)."""
        self._watchers_told = -SPECTATOR_PACE

    # -- connections -------------------------------------------------------------------------
    async def join(self, conn: Connection) -> None:
        """A connection arrives: greet it, claim its place if new, tell everyone."""
        table = self.table
        places = table.seating.places
        place = places[conn.place] if conn.place is not None else None
        self.connections.append(conn)
        if place is not None:
            self.last_person = time.time()
        settings = table.settings
        conn.push_json({
            "type": "hello",
            "table": table.id,
            "place": conn.place,
            "seat": table.play.seat_of(conn),
            "role": "spectator" if conn.place is None else "player",
            "pause_ms": int(1000 * max(settings.bot_delay, settings.trick_pause)),
            "owner": place is not None and place.kind == "you",
        })
        if table.talk.chat_log:
            conn.push_json({"type": "chat_log", "messages": list(table.talk.chat_log)})
        table.last_active = time.time()
        if place is not None or not any(p.kind != "bot" for p in places):
            table.visited = True
        if place is None:  # the state to the spectator alone; the players hear later
            self.broadcast([conn])
            self._presence_changed()
        else:  # the place shows as connected to everyone
            self.broadcast()
        table.play.kick()

    def leave(self, conn: Connection) -> None:
        """A connection is gone."""
        if conn in self.connections:
            self.connections.remove(conn)
            self.table.last_active = time.time()
            if conn.place is not None:
                self.last_person = time.time()
                self.broadcast()
            else:
                self._presence_changed()

    def connected_places(self) -> set[int]:
        """Places with at least one live connection."""
        return {c.place for c in self.connections if c.place is not None}

    @property
    def watching(self) -> int:
        """Spectators connected here."""
        return sum(c.place is None for c in self.connections)

    @property
    def listed(self) -> bool:
        """Shown in the lobby's list: public, unfinished, and a person connected lately."""
        return (not self.table.seating.private and not self.table.play.is_over
                and (any(c.place is not None for c in self.connections)
                     or time.time() - self.last_person < LOBBY_QUIET))

    # -- what is sent ----------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The public facts of the table: rules and who sits where (no tokens)."""
        table = self.table
        seating = table.seating
        match = table.play.match
        connected = self.connected_places()
        seats = [{"seat": seat, **self.seat_facts(p, connected)}
                 for seat, p in enumerate(match.place_at)]
        return {
            "id": table.id,
            "name": table.name,
            "rules": table.rules.to_dict(),
            "variant": table.rules.variant,
            "partners": [table.rules.partner_of(s) for s in range(table.rules.players)],
            "seats": seats,
            "hint": HINT_BOT in BOTS,
            "match": match.number,
            "matches": table.play.matches,
            "turn_timer": seating.turn_timer,
            "private": seating.private,
            "started": seating.started,
            "watching": self.watching,
            "host": seating.has_host,
        }

    def seat_facts(self, p: int, connected: set[int]) -> dict[str, Any]:
        """What everyone may know of place ``p`` (``connected``: places with a person
        connected)."""
        seating = self.table.seating
        place = seating.places[p]
        return {
            "place": p,
            "name": seating.place_name(place),
            "kind": "bot" if place.kind == "bot" else "person",
            "bot": place.bot,
            "open": place.kind == "open" and not place.claimed,
            "claimed": place.kind == "bot" or place.claimed,
            "invited": place.invite is not None and not place.claimed,
            "connected": place.kind == "bot" or p in connected,
            "away": p in self.table.play.away,
            "muted": p in self.table.talk.muted,
        }

    def host_view(self) -> dict[str, Any]:
        """What the host sees: every place with its state and, for a place whose
        invitation is out, the invitation's link; the watch link of a private table."""
        table = self.table
        seating = table.seating
        connected = self.connected_places()
        places = []
        for p in seating.places:
            facts = self.seat_facts(p.index, connected)
            facts["seat"] = table.play.match.seat_of[p.index]
            facts["invite_url"] = (f"/table/{table.id}?invite={p.invite}"
                                   if p.invite is not None and not p.claimed else None)
            places.append(facts)
        watch = seating.options.get("watch")
        return {"id": table.id, "name": table.name, "private": seating.private,
                "started": seating.started, "turn_timer": seating.turn_timer,
                "over": table.play.is_over, "watching": self.watching,
                "watch_url": f"/table/{table.id}?watch={watch}" if watch else None,
                "places": places}

    def state(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The whole state as ``seat`` may know it (RULES §12); ``None``: a spectator.

        ``shared`` is the public part (:meth:`public_state`), when already built.
        """
        if shared is None:
            shared = self.public_state()
        return {**shared, "you": seat,
                "deal": views.deal_view(self.table.play.match.game.deal, seat),
                "last_text": self._last_text(seat)}

    def _last_text(self, seat: int | None) -> str | None:
        """The last deal's summary in a sentence as ``seat``'s player reads it ("you")."""
        last = self.table.play.match.last_deal
        if last is None:
            return None
        deal = last[1]
        kept, texts = self._last_texts
        if kept is not deal:  # worded once per deal and seat, not at every broadcast
            texts = {}
            self._last_texts = (deal, texts)
        text = texts.get(seat)
        if text is None:
            text = texts[seat] = views.summary_text(deal.result, self.table.rules,
                                                    self.table.seating.names(),
                                                    deal.dealer, seat)
        return text

    def public_state(self) -> dict[str, Any]:
        """The part of the state every connection may see: table, scores, last deal."""
        match = self.table.play.match
        names = self.table.seating.names()
        games = match.games
        game = match.game
        last = None
        if match.last_deal is not None:
            gi, deal = match.last_deal
            finished_game = games[gi]
            last = views.deal_summary(finished_game, gi, deal, names, finished_game.is_over)
        rubber = None
        if match.rubber is not None:
            r = match.rubber
            rubber = {
                "games_won": list(r.games_won),
                "points": list(r.rubber_points),
                "over": r.is_over,
                "winner": r.winner,
                "margin": r.margin if r.is_over else None,
                "games": [{"scores": list(g.scores), "winners": list(g.winners)}
                          for g in r.games],
            }
        return {
            "type": "state",
            "seq": match.seq,
            "table": self.info(),
            "over": match.is_over,
            "game": views.game_view(game, len(games) - 1),
            "rubber": rubber,
            "last_deal": last,
            **self.table.clock.waiting_view(),
        }

    def broadcast(self, to: list[Connection] | None = None) -> None:
        """Send every connection (or those of ``to``) the state its seat may see, each
        view built once.

        The players get every state at once.  The spectators of a table get the newest
        state only, after the players and at most once every :data:`SPECTATOR_PACE`
        seconds (less often for a crowd, :data:`CROWD_RATE`; :meth:`_tell_spectators`):
        a crowd at a table that moves fast costs a bounded number of messages a second,
        whatever the pace of play, and never holds up the players of any table.  A
        spectator named in ``to`` (one who just came) gets the state at once.
        """
        conns = self.connections if to is None else to
        if not conns:
            return
        players = [c for c in conns if c.place is not None]
        if to is None:
            if len(players) < len(conns):
                self._spectators_later()
            conns = players
        if conns:
            self._send_state(conns)

    def _send_state(self, conns: list[Connection]) -> None:
        """The state to each of ``conns`` as its seat may see it, each view built once
        (a spectator's replacing one still queued for it: :meth:`Connection.push_state`)."""
        # the public part is encoded once; each seat adds only its own view of the deal
        head = json.dumps(self.public_state(), separators=(",", ":"))[:-1]
        deal = self.table.play.match.game.deal
        cache: dict[int | None, str] = {}
        for conn in conns:
            seat = self.table.play.seat_of(conn)
            text = cache.get(seat)
            if text is None:
                view = json.dumps(views.deal_view(deal, seat), separators=(",", ":"))
                you = "null" if seat is None else str(seat)
                last = json.dumps(self._last_text(seat))
                text = cache[seat] = f'{head},"you":{you},"deal":{view},"last_text":{last}}}'
            if seat is None:
                conn.push_state(text)
            else:
                conn.push(text)

    def _spectators_later(self) -> None:
        """Send the spectators the newest state once the players' sends are queued, and
        not sooner than :data:`SPECTATOR_PACE` after the last time (once, however many
        states came meanwhile)."""
        if self._watchers is not None or self.table.closed:
            return
        loop = asyncio.get_running_loop()
        pace = max(SPECTATOR_PACE, self.watching / CROWD_RATE)
        wait = max(0.0, self._watchers_told + pace - loop.time())
        self._watchers = loop.call_later(wait, self._tell_spectators)

    def _tell_spectators(self) -> None:
        self._watchers = None
        self._watchers_told = asyncio.get_running_loop().time()
        watchers = [c for c in self.connections if c.place is None]
        if watchers and not self.table.closed:
            self._send_state(watchers)

    def _presence_changed(self) -> None:
        """A spectator came or went: the players hear the watching count within
        :data:`PRESENCE_DELAY`, once for any number of comings and goings; the other
        spectators see it with the next move."""
        if self._presence is not None or self.table.closed:
            return

        def tell() -> None:
            self._presence = None
            if not self.table.closed:
                self.broadcast([c for c in self.connections if c.place is not None])

        self._presence = asyncio.get_running_loop().call_later(PRESENCE_DELAY, tell)

    def stop_presence(self) -> None:
        """Cancel the players' watching count and the spectators' state still due."""
        for timer in (self._presence, self._watchers):
            if timer is not None:
                timer.cancel()
        self._presence = self._watchers = None
