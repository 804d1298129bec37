"""The tables the server holds in memory, each rebuilt exactly from storage.

A :class:`Table` owns one :class:`~euchre.game.Match` (a game, or a rubber of games, RULES
§10-§11) made from a stored seed; re-creating it with the same seed and re-applying the stored
actions in order reproduces the state exactly, so a restarted server resumes every
unfinished game where it stopped.  Bot decisions are re-applied from storage, never
recomputed.

Every action, a person's or a bot's, goes the same way under the table's lock: checked
against the rules, written to storage, applied, then broadcast.  Nothing is acknowledged
before it is stored, and nothing that fails a check changes anything.

When several server processes share the database (:class:`~.storage.Peers`), each applies
what the others store as it hears of it (:meth:`Table.catch_up`), an action stored first
elsewhere makes this process's one a conflict (the table reloads), and a table's own bots
play only in the process holding its bots' lock (stand-ins for a person away play where
the person's clock ran out: the database orders them like any action).

The registry of every table is :mod:`euchre.server.registry`; what a table sends each
connection goes through the connection's outbox (:mod:`euchre.server.outbox`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
import time
import zlib
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from euchre.actions import Action, InvalidActionError
from euchre.bots import BOTS, Bot, make_bot
from euchre.deal import Deal, IllegalActionError
from euchre.game import Match
from euchre.records import GameRecord, game_record
from euchre.rules import Rules
from euchre.server import views
from euchre.server.outbox import CHAT_RATE, Connection
from euchre.server.outbox import error_message as _error
from euchre.server.storage import (
    Change,
    MatchRecord,
    Peers,
    PlaceRecord,
    Storage,
    StorageConflict,
    StorageError,
    TableRecord,
)

__all__ = ["BOT_NAMES", "FAST_BOTS", "HINT_BOT", "STORAGE_FAILED", "Settings", "Table",
           "TableError", "new_token"]

log = logging.getLogger("euchre.server")

HINT_BOT = "expert"
"""The bot asked for hints; the hint button exists only when it is in ``BOTS``."""

FAST_BOTS = frozenset({"random", "basic"})
"""Bots quick enough to run on the event loop; any other runs in a worker thread."""

BOT_RETRIES = 5
"""Times a bot's action is tried again when storage refuses it (waiting 2, 4, … 32 s);
then the bots wait until someone acts or connects."""

EVICT_AFTER = 30.0
"""Seconds a finished table nobody watches stays in memory before it may make room."""

LOBBY_QUIET = 600.0
"""Seconds a public table stays in the lobby's list with no person connected to it (it
can still be resumed with its links, and expires as any idle table).  It is also how
long a table counts against the server's limit of tables in play after its last person
left (:meth:`~.registry.Tables.make_room`)."""

PRESENCE_DELAY = 1.0
"""Seconds the players wait to hear that spectators came or went: the watching count is
sent at most once in this time, however many arrive (a crowd of N costs O(N) messages)."""

STORAGE_FAILED = ("the server could not read or write its database: nothing was done; "
                  "try again in a moment")
"""What a person is told when the database failed (each page words it by its code,
``storage``, in its own language); the database's own words go to the log only."""

SPECTATOR_PACE = 0.2
"""Seconds at least between two states sent to a table's spectators: they see the newest
state at most five times a second (people at the speed of play see every one)."""

CROWD_RATE = 1000
"""States a second at most that a table sends its spectators, all of them together: a
crowd larger than ``CROWD_RATE * SPECTATOR_PACE`` sees the newest state less often (1,000
spectators once a second), so its cost is bounded whatever its size."""

CHAT_LENGTH = 200
"""The longest chat message, in characters."""

CHAT_KEPT = 30
"""Chat messages a table keeps in memory for people who connect later."""

QUICK_MESSAGES = ("nice", "good_game", "oops", "well_played", "thanks", "hurry")
"""The preset chat messages; each page words them in its own language."""

BOT_NAMES = ("Ada", "Bea", "Cal", "Dot", "Eve")
"""Default names of bots, by place, so that every seat reads differently."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Server settings that are not rules of the game."""

    bot_delay: float = 0.0
    """Seconds a bot waits before acting, so people can follow (0 in tests)."""
    trick_pause: float = 0.0
    """Extra seconds a bot waits before leading after a trick is complete."""
    idle_expiry: float = 24 * 3600.0
    """Seconds an unfinished table may sit with nobody connected and nothing played
    before it is abandoned (:meth:`~.registry.Tables.expire_idle`)."""
    stand_in: str = "basic"
    """The bot that plays a seat whose person ran out of time or left the table."""
    unvisited_expiry: float = 300.0
    """Seconds a new table may wait for its first visitor (a person at one of its places,
    or, at a table of bots only, a spectator) before it is abandoned: tables made and
    never opened cannot pile up (:meth:`~.registry.Tables.expire_idle`)."""


class TableError(ValueError):
    """A request the table refuses; ``code`` names the kind of problem for the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Table:
    """A table: its rules, places, current match, connections and bots."""

    def __init__(self, record: TableRecord, storage: Storage, settings: Settings) -> None:
        self.id = record.id
        self.name = record.name
        self.rules = Rules.from_dict(record.rules)
        self.places = record.places
        self.created = record.created
        self.storage = storage
        self.settings = settings
        self.peers: Peers | None = storage if isinstance(storage, Peers) else None
        """Other server processes on the same database, if any."""
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self._bots: dict[int, Bot] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self.match = self._replay(record.matches[-1])
        self.matches = len(record.matches)
        self._last_texts: tuple[Deal | None, dict[int | None, str]] = (None, {})
        self.used = time.monotonic()
        """When the table was last asked for (a finished table idle long enough may be
        dropped from memory, :meth:`~.registry.Tables.make_room`)."""
        self.options: dict[str, Any] = {}
        """The table's settings that are not rules (stored): the turn timer, the host's
        and the watchers' keys, privacy, whether the game has started, who is muted."""
        self.turn_timer: float | None = None
        """Seconds a person has to act before a stand-in bot plays the seat (None: off)."""
        self._take_options(record.options)
        self.chat_log: collections.deque[dict[str, Any]] = collections.deque(maxlen=CHAT_KEPT)
        """The latest chat messages, for people who connect later (kept in memory only)."""
        self.last_person = time.time()
        """When a person was last connected here (a public table nobody visits leaves
        the lobby's list after :data:`LOBBY_QUIET` seconds)."""
        self.away: set[int] = set()
        """Places a stand-in bot plays for now: the person ran out of time, or left."""
        self.reading: set[int] = set()
        """Places whose person is reading the last deal's summary: the bots wait."""
        self.last_active = time.time()
        """When something last happened here (an action, a connection coming or going)."""
        self.creator = ""
        """The address that made the table, while this process holds it (tables per
        address are bounded, :attr:`~.limits.Limits.tables_per_address`)."""
        self.visited = self._visited_before(record)
        """Someone it was made for has come: a person at one of its places (at a table of
        bots only, a spectator).  A table never visited expires within minutes."""
        self._presence: asyncio.TimerHandle | None = None
        self._watchers: asyncio.TimerHandle | None = None
        """The spectators' next state, when one is due (:meth:`_spectators_later`)."""
        self._watchers_told = -SPECTATOR_PACE
        self.closed = False
        self._stand_ins: dict[int, Bot] = {}
        self._clock: asyncio.TimerHandle | None = None
        self._clock_key: tuple[int, int] | None = None
        self._clock_deadline = 0.0

    # -- rebuilding from storage --------------------------------------------------------------
    def _visited_before(self, record: TableRecord) -> bool:
        """Whether a person played here (a table read from storage): an action stored
        from a place no bot holds, or a game before this one.  (A table of bots only
        leaves no trace of its spectators: it waits for one anew.)"""
        if len(record.matches) > 1:
            return True
        bots = {p.index for p in self.places if p.kind == "bot"}
        return any(self.match.place_at[seat] not in bots for seat, _ in self.match.actions)

    def _replay(self, stored: MatchRecord) -> Match:
        match = Match(self.rules, stored.seed, stored.number)
        for i, (seat, text) in enumerate(stored.actions):
            try:
                match.apply(Action.parse(text), seat)
            except ValueError as e:
                raise StorageError(
                    f"table {self.id}, match {stored.number}: stored action {i} "
                    f"{text!r} of seat {seat} does not replay: {e}") from None
        self._bots = self._make_bots(stored.number)
        return match

    def _make_bots(self, match: int) -> dict[int, Bot]:
        bots = {}
        for p in self.places:
            if p.kind != "bot" or p.bot is None:
                continue
            name = p.bot
            if name not in BOTS:  # e.g. a bot of an optional extra no longer installed
                fallback = "basic" if "basic" in BOTS else "random"
                log.warning("table %s: no bot %r here; %s plays place %d instead",
                            self.id, name, fallback, p.index)
                name = fallback
            bots[p.index] = make_bot(name, self._bot_seed(p.index, match))
        return bots

    def replay_match(self, stored: MatchRecord) -> Match:
        """Another match of this table, rebuilt from storage (for the history)."""
        if stored.number == self.match.number:
            return self.match
        match = Match(self.rules, stored.seed, stored.number)
        for seat, text in stored.actions:
            match.apply(Action.parse(text), seat)
        return match

    def _bot_seed(self, place: int, match: int) -> int:
        return zlib.crc32(f"{self.id}:{place}:{match}".encode())

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

    # -- the table's settings: host, privacy, waiting room ---------------------------------------
    def _take_options(self, options: dict[str, Any]) -> None:
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

    @property
    def muted(self) -> frozenset[int]:
        """Places the host has muted in the chat."""
        return frozenset(int(p) for p in self.options.get("muted", ()))

    def invited(self) -> list[PlaceRecord]:
        """Places whose invitation is out and not yet taken (a bot may play meanwhile)."""
        return [p for p in self.places
                if p.invite is not None and not p.claimed and p.kind in ("friend", "bot")]

    @property
    def watching(self) -> int:
        """Spectators connected here."""
        return sum(c.place is None for c in self.connections)

    @property
    def listed(self) -> bool:
        """Shown in the lobby's list: public, unfinished, and a person connected lately."""
        return (not self.private and not self.is_over
                and (any(c.place is not None for c in self.connections)
                     or time.time() - self.last_person < LOBBY_QUIET))

    def seat_of(self, conn: Connection) -> int | None:
        """The seat a connection plays in the current match (``None``: spectator)."""
        return None if conn.place is None else self.match.seat_of[conn.place]

    def names(self, match: Match | None = None) -> list[str]:
        """The name at each seat of a match (the current one by default)."""
        m = match or self.match
        return [self._place_name(self.places[p]) for p in m.place_at]

    @staticmethod
    def _place_name(place: PlaceRecord) -> str:
        if place.kind == "bot":
            return place.name or f"{place.bot} bot"
        return place.name or ("open seat" if place.kind == "open" else "friend")

    def _seat_facts(self, p: int, connected: set[int]) -> dict[str, Any]:
        place = self.places[p]
        return {
            "place": p,
            "name": self._place_name(place),
            "kind": "bot" if place.kind == "bot" else "person",
            "bot": place.bot,
            "open": place.kind == "open" and not place.claimed,
            "claimed": place.kind == "bot" or place.claimed,
            "invited": place.invite is not None and not place.claimed,
            "connected": place.kind == "bot" or p in connected,
            "away": p in self.away,
            "muted": p in self.muted,
        }

    def connected_places(self) -> set[int]:
        """Places with at least one live connection."""
        return {c.place for c in self.connections if c.place is not None}

    @property
    def is_over(self) -> bool:
        """The current match is over."""
        return self.match.is_over

    # -- what is sent ----------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The public facts of the table: rules and who sits where (no tokens)."""
        connected = self.connected_places()
        seats = [{"seat": seat, **self._seat_facts(p, connected)}
                 for seat, p in enumerate(self.match.place_at)]
        return {
            "id": self.id,
            "name": self.name,
            "rules": self.rules.to_dict(),
            "variant": self.rules.variant,
            "partners": [self.rules.partner_of(s) for s in range(self.rules.players)],
            "seats": seats,
            "hint": HINT_BOT in BOTS,
            "match": self.match.number,
            "matches": self.matches,
            "turn_timer": self.turn_timer,
            "private": self.private,
            "started": self.started,
            "watching": self.watching,
            "host": self.has_host,
        }

    def state(self, seat: int | None, shared: dict[str, Any] | None = None) -> dict[str, Any]:
        """The whole state as ``seat`` may know it (RULES §12); ``None``: a spectator.

        ``shared`` is the public part (:meth:`public_state`), when already built.
        """
        if shared is None:
            shared = self.public_state()
        return {**shared, "you": seat, "deal": views.deal_view(self.match.game.deal, seat),
                "last_text": self._last_text(seat)}

    def _last_text(self, seat: int | None) -> str | None:
        """The last deal's summary in a sentence as ``seat``'s player reads it ("you")."""
        last = self.match.last_deal
        if last is None:
            return None
        deal = last[1]
        kept, texts = self._last_texts
        if kept is not deal:  # worded once per deal and seat, not at every broadcast
            texts = {}
            self._last_texts = (deal, texts)
        text = texts.get(seat)
        if text is None:
            text = texts[seat] = views.summary_text(deal.result, self.rules, self.names(),
                                                    deal.dealer, seat)
        return text

    def public_state(self) -> dict[str, Any]:
        """The part of the state every connection may see: table, scores, last deal."""
        match = self.match
        names = self.names()
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
            **self._waiting_view(),
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
        deal = self.match.game.deal
        cache: dict[int | None, str] = {}
        for conn in conns:
            seat = self.seat_of(conn)
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
        if self._watchers is not None or self.closed:
            return
        loop = asyncio.get_running_loop()
        pace = max(SPECTATOR_PACE, self.watching / CROWD_RATE)
        wait = max(0.0, self._watchers_told + pace - loop.time())
        self._watchers = loop.call_later(wait, self._tell_spectators)

    def _tell_spectators(self) -> None:
        self._watchers = None
        self._watchers_told = asyncio.get_running_loop().time()
        watchers = [c for c in self.connections if c.place is None]
        if watchers and not self.closed:
            self._send_state(watchers)

    def _presence_changed(self) -> None:
        """A spectator came or went: the players hear the watching count within
        :data:`PRESENCE_DELAY`, once for any number of comings and goings; the other
        spectators see it with the next move."""
        if self._presence is not None or self.closed:
            return

        def tell() -> None:
            self._presence = None
            if not self.closed:
                self.broadcast([c for c in self.connections if c.place is not None])

        self._presence = asyncio.get_running_loop().call_later(PRESENCE_DELAY, tell)

    # -- connections -------------------------------------------------------------------------
    async def join(self, conn: Connection) -> None:
        """A connection arrives: greet it, claim its place if new, tell everyone."""
        place = self.places[conn.place] if conn.place is not None else None
        self.connections.append(conn)
        if place is not None:
            self.last_person = time.time()
        conn.push_json({
            "type": "hello",
            "table": self.id,
            "place": conn.place,
            "seat": self.seat_of(conn),
            "role": "spectator" if conn.place is None else "player",
            "pause_ms": int(1000 * max(self.settings.bot_delay, self.settings.trick_pause)),
            "owner": place is not None and place.kind == "you",
        })
        if self.chat_log:
            conn.push_json({"type": "chat_log", "messages": list(self.chat_log)})
        self.last_active = time.time()
        if place is not None or not any(p.kind != "bot" for p in self.places):
            self.visited = True
        if place is None:  # the state to the spectator alone; the players hear later
            self.broadcast([conn])
            self._presence_changed()
        else:  # the place shows as connected to everyone
            self.broadcast()
        self.kick()

    def leave(self, conn: Connection) -> None:
        """A connection is gone."""
        if conn in self.connections:
            self.connections.remove(conn)
            self.last_active = time.time()
            if conn.place is not None:
                self.last_person = time.time()
                self.broadcast()
            else:
                self._presence_changed()

    async def claim(self, place_index: int, name: str | None,
                    open_only: bool = False) -> PlaceRecord:
        """A person takes a place (friend or open); ``name`` replaces the default.  With
        ``open_only`` the place must still be open in the database, which another server
        process may have given away a moment ago (:class:`TableError` ``seat_taken``)."""
        place = self.places[place_index]
        if place.kind == "bot":
            raise TableError("bot_place", f"place {place_index} is played by a bot")
        new_name = (name or place.name or "").strip()[:40] or (
            "Friend" if place.kind == "friend" else f"Player {place_index + 1}")
        if not await self.storage.claim_place(self.id, place.index, new_name, open_only):
            raise TableError("seat_taken", f"place {place_index} is not an open seat")
        place.claimed = True
        place.name = new_name
        self.away.discard(place.index)
        self._arm_clock()
        self.broadcast()
        return place

    # -- actions -------------------------------------------------------------------------------
    async def act(self, conn: Connection, text: str, seq: int | None) -> dict[str, Any] | None:
        """A person's action; returns an error message, or ``None`` once applied."""
        seat = self.seat_of(conn)
        if seat is None:
            return _error("spectator", "a spectator may watch but not act", {"asked": "act"})
        async with self.lock:
            match = self.match
            if self.closed:
                return _error("closed", "the table is closed: nothing was done")
            if match.is_over:
                return _error("game_over", "the game is over (RULES §10): no action is legal; "
                              "ask for a rematch")
            if not self.started:
                return _error("waiting", "the game starts when every invited player has "
                              "arrived, or when the host starts it: nothing was done")
            if seq is not None and seq != match.seq:
                return _error("stale", f"your message answers state {seq} but the table is "
                              f"at state {match.seq}: nothing was done",
                              {"given": seq, "at": match.seq}, seq=match.seq)
            try:
                action = Action.parse(text)
            except InvalidActionError as e:
                return _error("invalid_action", str(e), {"action": text})
            deal = match.game.deal
            if deal.to_move != seat:
                mover = deal.to_move
                who = self.names()[mover] if mover is not None else "nobody"
                return _error("not_your_turn",
                              f"it is seat {mover}'s turn ({who}), not yours (seat {seat})",
                              {"seat": mover, "you": seat, "name": who})
            try:
                deal.check(action, seat=seat)
            except IllegalActionError as e:
                reason = _explain(deal.observation(seat), action, conn.lang)
                return _error("illegal", str(e), {"action": str(action), "reason": reason})
            place = self.match.place_at[seat]
            self.away.discard(place)  # acting takes the seat back
            self.reading.discard(place)  # and is reading on
            refused = await self._write(self._commit(seat, action, conn.token))
            if refused is not None:
                return refused
        self.kick()
        return None

    async def _commit(self, seat: int, action: Action, token: str | None = None) -> None:
        """Store, apply and broadcast one legal action (the lock is held); ``token``, a
        person's seat token, must still hold its place in the database.

        The action is stored before it is applied; a match it ends is marked finished
        before anyone is told.
        """
        match = self.match
        await self.storage.append_action(self.id, match.number, match.seq, seat, str(action),
                                         token)
        ended = match.apply(action, seat)
        if match.is_over:
            await self.storage.finish_match(self.id, match.number, match.result())
        self.last_active = time.time()
        self._deal_ended(ended is not None)
        self._arm_clock()
        self.broadcast()

    # -- bots ------------------------------------------------------------------------------------
    def _bot_to_move(self) -> int | None:
        match = self.match
        if match.is_over:
            return None
        seat = match.game.deal.to_move
        if seat is None or self.reading or self.closed or not self.started:
            return None
        place = match.place_at[seat]
        if place in self.away:
            # a stand-in plays for a person away only while someone is at the table: a
            # table everybody left does not play itself
            return place if any(c.place is not None for c in self.connections) else None
        if place in self._bots and (self.peers is None or self.peers.holds_bots(self.id)):
            return place
        return None

    def kick(self) -> None:
        """Let the bots play if one is to move and none is already playing."""
        self._arm_clock()
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self._bot_to_move() is None:
            return
        self._bot_task = asyncio.create_task(self._play_bots())

    async def _play_bots(self) -> None:
        failures = 0
        while True:
            place = self._bot_to_move()
            if place is None:
                return
            deal = self.match.game.deal
            delay = self.settings.bot_delay
            if deal.phase.name == "PLAY" and not deal.current_trick and deal.tricks:
                delay += self.settings.trick_pause  # let people see the finished trick
            await asyncio.sleep(delay)
            try:
                async with self.lock:
                    if self._bot_to_move() != place:
                        continue
                    deal = self.match.game.deal
                    seat = deal.to_move
                    assert seat is not None
                    action = await self._bot_action(self._player_bot(place), deal, seat)
                    try:
                        await self._commit(seat, action)
                    except StorageConflict as e:
                        # storage is ahead of memory: play on from what it holds
                        if not await self._reload(e):
                            return
                        if self.peers is not None:
                            # the bots' lock may have gone with a lost connection to the
                            # database, and another process taken the bots: ask again
                            await self.peers.release_bots(self.id)
                            await self.peers.claim_bots(self.id)
                        continue
                failures = 0
            except StorageError as e:
                failures += 1
                if failures > BOT_RETRIES:
                    log.error("table %s: a bot's action was not stored %d times (%s); the "
                              "bots wait for the next action or connection", self.id,
                              failures, e)
                    return
                log.error("table %s: a bot's action was not stored (%s); retrying in %d s",
                          self.id, e, 2 ** failures)
                await asyncio.sleep(2 ** failures)
            except Exception:
                log.exception("table %s: the bot at place %d failed", self.id, place)
                return

    async def _write(self, write: Awaitable[None]) -> dict[str, Any] | None:
        """Wait for a person's write: ``None`` once stored, else the error to answer.
        A write storage already holds another (a conflict) reloads the table."""
        try:
            await write
        except StorageConflict as e:
            await self._reload(e)
            return _error("stale", "the table was changed elsewhere and has been "
                          "reloaded: nothing was done", {"at": self.match.seq},
                          seq=self.match.seq)
        except StorageError as e:
            # the cause, in one line, is the log's; the player is told what it means
            log.error("table %s: an action was not stored: %s", self.id, " ".join(str(e).split()))
            return _error("storage", STORAGE_FAILED)
        return None

    async def _reload(self, conflict: StorageError) -> bool:
        """Rebuild the table from storage after a write conflict (the lock is held).

        Storage holds what another writer stored first; the table is rebuilt from it
        and everyone is sent the state again.  ``False`` (the table left as it was) if
        the stored table cannot be rebuilt.
        """
        log.warning("table %s: %s; reloading it from storage", self.id, conflict)
        try:
            record = await self.storage.load_table(self.id)
            if record is None or not record.matches:
                raise StorageError("it is no longer stored")
            self._rebuild(record)
        except (StorageError, ValueError) as e:
            log.error("table %s cannot be reloaded: %s", self.id, e)
            return False
        self.broadcast()
        self.kick()  # the stored state may be a bot's turn
        return True

    def _rebuild(self, record: TableRecord) -> None:
        """The table as stored (the lock is held); raises if it does not replay."""
        if self.match.number != record.matches[-1].number:
            self.away.clear()
            self.reading.clear()
        self.places = record.places
        self._take_options(record.options)
        self.match = self._replay(record.matches[-1])
        self.matches = len(record.matches)
        self._drop_revoked()

    def _apply_stored(self, actions: list[tuple[int, str]]) -> None:
        """Apply actions another process stored, one at a time, each state sent: the
        connections here miss none of them (the lock is held)."""
        for seat, text in actions:
            self._deal_ended(self.match.apply(Action.parse(text), seat) is not None)
            self._arm_clock()
            self.broadcast()

    async def catch_up(self, change: Change) -> bool:
        """Another server process stored something here: apply what is new, tell every
        connection, let the bots go on.  ``False`` if the table is no longer stored."""
        async with self.lock:
            if self.closed:
                return True
            match = self.match
            if change.action and change.match == match.number and change.seq <= match.seq:
                return True  # already applied
            try:
                if change.action and change.match == match.number:
                    self._apply_stored(await self.storage.actions_since(
                        self.id, match.number, match.seq))
                else:
                    record = await self.storage.load_table(self.id)
                    if record is None or not record.matches:
                        return False
                    stored = record.matches[-1]
                    self._take_places(record)
                    if (stored.number == match.number
                            and stored.actions[:match.seq] == match.actions):
                        self._apply_stored(stored.actions[match.seq:])
                    else:  # another match, or a history that differs: rebuilt
                        self._rebuild(record)
                    self._arm_clock()
                    self.broadcast()
            except (StorageError, ValueError) as e:
                log.error("table %s cannot follow the database: %s", self.id, e)
                return True
            self.last_active = time.time()
        self.kick()
        return True

    async def _bot_action(self, bot: Bot, deal: Deal, seat: int) -> Action:
        obs = deal.observation(seat)
        if bot.name in FAST_BOTS:
            action = bot.act(obs)
        else:
            action = await asyncio.to_thread(bot.act, obs)
        if action not in obs.legal_actions:
            log.error("table %s: bot %s chose an illegal action %s; playing a legal one",
                      self.id, bot.name, action)
            action = obs.legal_actions[0]
        return action

    async def hint(self, conn: Connection) -> dict[str, Any]:
        """What the expert bot would do in this seat's place now, the value of every
        legal choice and why (:func:`euchre.server.hints.advise`)."""
        seat = self.seat_of(conn)
        if seat is None:
            return _error("spectator", "a spectator gets no hints", {"asked": "hint"})
        if HINT_BOT not in BOTS:
            return _error("no_hint", f"hints need the {HINT_BOT} bot, which is not installed",
                          {"bot": HINT_BOT})
        match = self.match
        deal = match.game.deal
        if match.is_over or deal.to_move != seat:
            return _error("not_your_turn", "a hint is given only when it is your turn",
                          {"asked": "hint"})
        seq = match.seq
        obs = deal.observation(seat)
        # the expert (numba, the solver: 140 MB and many objects for the garbage collector
        # to walk) is loaded at the first hint, not at start-up
        from euchre.server.hints import advise

        advice = await asyncio.to_thread(advise, obs)
        return {"type": "hint", "seq": seq, **advice}

    async def _holds_seat(self, conn: Connection) -> bool:
        """Does ``conn``'s seat token still hold its place?  With other server
        processes, the places are read again from the database first, so that a removal
        or a new invitation the host made at another process is in force here before
        that process answers the host; a connection that lost its place is ended."""
        if self.peers is None or conn.place is None or conn.token is None:
            return True
        async with self.lock:
            await self._read_places()  # ends the connections whose seat went away
        place = self.places[conn.place]
        return (place.claimed and place.kind != "bot" and place.token is not None
                and secrets.compare_digest(place.token.encode(), conn.token.encode()))

    async def rematch(self, conn: Connection) -> dict[str, Any] | None:
        """A new match with the same rules and places, once this one is over."""
        if conn.place is None:
            return _error("spectator", "a spectator cannot start a rematch",
                          {"asked": "rematch"})
        if not await self._holds_seat(conn):
            return None  # the host gave the seat away: the socket ends
        async with self.lock:
            if not self.match.is_over:
                return _error("not_over", "the game is not over yet: finish it first")
            number = self.match.number + 1
            seed = secrets.randbits(63)
            refused = await self._write(self.storage.start_match(self.id, number, seed))
            if refused is not None:
                return refused
            self.match = Match(self.rules, seed, number)
            self.matches = number
            self._bots = self._make_bots(number)
            self.broadcast()
        if self.peers is not None and self._bots:
            await self.peers.claim_bots(self.id)
        self.kick()
        return None

    def game_records(self, match: Match) -> list[GameRecord]:
        """The RECORDS game records of a match, one a game (a rubber's in order)."""
        names = self.names(match)
        return [game_record(g, names) for g in match.games]

    def record(self, match: Match) -> Any:
        """The JSON of a finished match's RECORDS game record(s), to download: one game,
        or a rubber's list."""
        records = [r.to_json() for r in self.game_records(match)]
        return records[0] if match.rubber is None else records

    @property
    def is_idle(self) -> bool:
        """Finished, unwatched, no bot or request at work, and not asked for lately."""
        return (self.is_over and not self.connections and not self.lock.locked()
                and (self._bot_task is None or self._bot_task.done())
                and time.monotonic() - self.used >= EVICT_AFTER)

    @property
    def is_quiet(self) -> bool:
        """Unfinished, but nobody connected, no bot or request at work, and no person
        here for :data:`LOBBY_QUIET` seconds: it may leave memory to make room (it
        stays stored, and is read again when asked for)."""
        return (not self.is_over and self.visited and not self.connections
                and not self.lock.locked()
                and (self._bot_task is None or self._bot_task.done())
                and time.time() - self.last_person >= LOBBY_QUIET)

    @property
    def unvisited(self) -> bool:
        """Unfinished, nobody connected, and never visited since it was made (see
        :attr:`visited`): it does not count against the tables in play."""
        return not self.visited and not self.is_over and not self.connections

    async def _stop_tasks(self) -> None:
        """Stop the turn clock, the presence timer and the bots' task, and wait for it."""
        self._stop_clock()
        self._stop_presence()
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(BaseException):
                await self._bot_task

    async def close(self) -> None:
        """Stop the bots and the connections (the server is stopping)."""
        await self._stop_tasks()
        # all at once: each waits at most 2 s for a slow client
        await asyncio.gather(*(conn.close() for conn in list(self.connections)))


    def _stop_presence(self) -> None:
        for timer in (self._presence, self._watchers):
            if timer is not None:
                timer.cancel()
        self._presence = self._watchers = None

    # -- the summary's wait, the turn timer, stand-ins, leaving ----------------------------------
    def _deal_ended(self, ended: bool) -> None:
        """After a deal, the bots wait for every person whose page shows its summary."""
        if not ended or self.match.is_over:
            return
        self.reading = {c.place for c in self.connections
                        if c.reads_summaries and c.place is not None
                        and c.place not in self.away}

    def done_reading(self, conn: Connection) -> None:
        """A person closed the deal's summary: the bots may go on once everyone has."""
        if conn.place is None or conn.place not in self.reading:
            return
        self.reading.discard(conn.place)
        self.broadcast()
        self.kick()

    async def reclaim(self, conn: Connection) -> dict[str, Any] | None:
        """A person takes back the seat a stand-in bot has been playing."""
        if conn.place is None:
            return _error("spectator", "a spectator has no seat to take back",
                          {"asked": "reclaim"})
        if not await self._holds_seat(conn):
            return None  # the host gave the seat away: the socket ends
        if conn.place in self.away:
            self.away.discard(conn.place)
            self._stop_clock()  # a fresh turn timer for the person who is back
            self._arm_clock()
            self.broadcast()
        return None

    def _stand_in_level(self) -> str:
        """The level of the bot that keeps a person's seat (the settings', if installed)."""
        return self.settings.stand_in if self.settings.stand_in in BOTS else "random"

    def _player_bot(self, place: int) -> Bot:
        """The bot that acts for ``place``: its own, or the stand-in of a person away."""
        bot = self._bots.get(place)
        if bot is not None:
            return bot
        stand_in = self._stand_ins.get(place)
        if stand_in is None:
            stand_in = make_bot(self._stand_in_level(),
                                self._bot_seed(place, self.match.number))
            self._stand_ins[place] = stand_in
        return stand_in

    def _waits_on_a_person(self) -> bool:
        match = self.match
        if match.is_over or self.closed or not self.started:
            return False
        if self.reading:
            return True
        seat = match.game.deal.to_move
        if seat is None:
            return False
        place = match.place_at[seat]
        return place not in self._bots and place not in self.away

    def _arm_clock(self) -> None:
        """Start the turn timer when the table waits on a person, once per state."""
        if self.turn_timer is None:
            return
        key = (self.match.number, self.match.seq)
        if self._clock_key == key:
            return  # already running for this state
        self._stop_clock()
        if not self._waits_on_a_person():
            return
        loop = asyncio.get_running_loop()
        self._clock_key = key
        self._clock_deadline = loop.time() + self.turn_timer
        self._clock = loop.call_later(self.turn_timer, self._time_out, key)

    def _stop_clock(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
        self._clock = None
        self._clock_key = None

    def _time_out(self, key: tuple[int, int]) -> None:
        """The turn timer ran out: nobody reads on, and a stand-in bot plays the seat."""
        if self._clock_key != key or self.closed:
            return
        self._clock = None
        self.reading.clear()
        seat = self.match.game.deal.to_move
        if not self.match.is_over and seat is not None:
            place = self.match.place_at[seat]
            if place not in self._bots:
                self.away.add(place)
        self.broadcast()
        self.kick()

    def _waiting_view(self) -> dict[str, Any]:
        """Who the table waits for: the seats reading the summary, and the turn timer."""
        seat_of = self.match.seat_of
        clock = None
        if self._clock is not None:
            remaining = self._clock_deadline - asyncio.get_running_loop().time()
            deal = self.match.game.deal
            clock = {"seat": deal.to_move, "remaining": round(max(0.0, remaining), 1),
                     "limit": self.turn_timer}
        return {"reading": sorted(seat_of[p] for p in self.reading), "clock": clock}

    def people(self) -> list[PlaceRecord]:
        """The places a person has taken."""
        return [p for p in self.places if p.kind != "bot" and p.claimed]

    async def release(self, place_index: int) -> None:
        """A person leaves for good: the place becomes an open seat with a new token,
        and a stand-in bot plays it until someone takes it."""
        place = self.places[place_index]
        async with self.lock:
            token = new_token()
            await self.storage.release_place(self.id, place.index, "open", "", token)
            place.kind = "open"
            place.name = ""
            place.claimed = False
            place.token = token
            place.invite = None
            if not self.is_over:
                self.away.add(place.index)
            self.reading.discard(place.index)
            gone = [c for c in self.connections if c.place == place.index]
            for conn in gone:
                self.connections.remove(conn)
            self._arm_clock()
            self.broadcast()
        for conn in gone:
            await conn.end("left", "you left this table: your seat is open to others", 4403)
        self.kick()

    async def shut(self, code: str, message: str,
                   params: dict[str, Any] | None = None) -> None:
        """The table closes: bots stop and every connection is told why."""
        self.closed = True
        await self._stop_tasks()
        conns, self.connections = self.connections, []
        for conn in conns:
            await conn.end(code, message, 4404, params)


    # -- invitations and the host's powers ----------------------------------------------------
    def _take_places(self, record: TableRecord) -> None:
        """Places and settings as another process stored them (the lock is held): its
        bots play, and a connection whose seat token was revoked is ended."""
        bots_before = {(p.index, p.bot) for p in self.places if p.kind == "bot"}
        self.places = record.places
        self._take_options(record.options)
        if {(p.index, p.bot) for p in self.places if p.kind == "bot"} != bots_before:
            self._bots = self._make_bots(self.match.number)
        self._drop_revoked()

    async def _read_places(self) -> None:
        """Places and settings as stored now (the lock is held)."""
        record = await self.storage.load_table(self.id)
        if record is not None:
            self._take_places(record)

    async def place_by_token_stored(self, token: str) -> PlaceRecord | None:
        """:meth:`place_by_token`, and with other server processes, if this one knows
        no place of the token, the same asked of the places as stored now: a seat taken
        at another process a moment ago opens here before this process hears of it."""
        found = self.place_by_token(token)
        if found is None and self.peers is not None:
            async with self.lock:
                await self._read_places()
            found = self.place_by_token(token)
        return found

    def _drop_revoked(self, why: str = "reinvited") -> None:
        """End every connection whose seat token no longer opens its place (the host
        invited someone else to it, removed the person, or seated a bot)."""
        for conn in list(self.connections):
            if conn.place is None:
                continue
            place = self.places[conn.place]
            if (conn.token is not None and place.token is not None and place.claimed
                    and place.kind != "bot"
                    and secrets.compare_digest(place.token.encode(), conn.token.encode())):
                continue
            self.connections.remove(conn)
            message = {
                "removed": "the host removed you from this table",
                "replaced": "the host seated a bot in your place",
            }.get(why, "the host gave your seat to someone else: ask the host for a new "
                       "invitation")
            task = asyncio.create_task(conn.end("revoked", message, 4403, {"why": why}))
            _KEEP.add(task)
            task.add_done_callback(_KEEP.discard)

    async def _store_place(self, place: PlaceRecord) -> None:
        """Write one place (the lock is held)."""
        await self.storage.update_place(self.id, place)

    async def _store_options(self, **changes: Any) -> None:
        """Store these options (the others stay as stored) and take them."""
        await self.storage.set_options(self.id, changes)
        self._take_options({**self.options, **changes})

    async def invited_place(self, invite: str) -> PlaceRecord | None:
        """The place an invitation opens, or ``None``; nothing is spent.  An invitation
        this process has not heard of is looked up again in the database (the host may
        have made it at another process a moment ago)."""
        place = self.place_by_invite(invite)
        if place is None and self.peers is not None:
            async with self.lock:
                await self._read_places()
            place = self.place_by_invite(invite)
        return place

    async def claim_invite(self, invite: str, name: str | None) -> PlaceRecord:
        """A person opens an invitation: the place is theirs, with a new seat token, and
        the invitation is spent.  :class:`TableError` ``bad_invitation`` (no place has
        it) or ``invitation_spent`` (someone took the seat with it already)."""
        async with self.lock:
            place = self.place_by_invite(invite)
            if place is None and self.peers is not None:
                # the host may have made it at another process a moment ago, before this
                # one heard of it: the database says
                await self._read_places()
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
            started = await self.storage.spend_invitation(self.id, claimed, invite)
            if started is None:
                raise TableError("invitation_spent", "this invitation was used already: "
                                 "the seat is taken")
            was_bot = place.kind == "bot"
            self.places[place.index] = claimed
            if was_bot:  # a late arrival takes the seat back from the bot keeping it
                self._bots = self._make_bots(self.match.number)
            self.away.discard(place.index)
            if started and not self.started:  # everyone is here: deal
                self._take_options({**self.options, "started": True})
            self._arm_clock()
            self.broadcast()
        self.kick()
        return claimed

    async def invite(self, place_index: int, why: str = "reinvited") -> PlaceRecord:
        """The host makes a new invitation for a place: whoever held it loses it at once
        (their seat token stops working, here and on every other server process), and a
        bot keeping the seat plays on until the invited person arrives.  An empty seat of
        a started game is played by a stand-in meanwhile."""
        async with self.lock:
            place = self.places[place_index]
            if place.kind == "bot":
                fresh = PlaceRecord(place.index, "bot", place.name, place.bot, None, False,
                                    new_token())
            else:
                fresh = PlaceRecord(place.index, "friend", "", None, None, False, new_token())
            await self._store_place(fresh)
            self.places[place_index] = fresh
            if fresh.kind == "friend" and self.started and not self.is_over:
                self.away.add(place_index)
            self._drop_revoked(why)
            self._arm_clock()
            self.broadcast()
        self.kick()
        return fresh

    async def seat_bot(self, place_index: int, level: str) -> PlaceRecord:
        """The host puts a bot in a place: whoever held it loses it; the place keeps a
        new invitation, which gives the seat back to the person the host sends it to."""
        async with self.lock:
            place = self.places[place_index]
            name = place.name if place.kind == "bot" and place.name else BOT_NAMES[place_index]
            fresh = PlaceRecord(place.index, "bot", name, level, None, False, new_token())
            await self._store_place(fresh)
            self.places[place_index] = fresh
            self.away.discard(place_index)
            self.reading.discard(place_index)
            self._bots = self._make_bots(self.match.number)
            self._drop_revoked("replaced")
            self._arm_clock()
            self.broadcast()
        if self.peers is not None:
            await self.peers.claim_bots(self.id)
        self.kick()
        return fresh

    async def start(self) -> list[int]:
        """The host starts the game: every invited seat nobody took is played by a bot
        (its invitation stays good: a late arrival takes the seat back).  Returns the
        places the bots took."""
        async with self.lock:
            if self.started:
                return []
            taken = []
            for place in self.invited():
                if place.kind == "bot":
                    continue
                fresh = PlaceRecord(place.index, "bot", BOT_NAMES[place.index],
                                    self._stand_in_level(), None, False, place.invite)
                await self._store_place(fresh)
                self.places[place.index] = fresh
                taken.append(place.index)
            self._bots = self._make_bots(self.match.number)
            await self._store_options(started=True)
            self._arm_clock()
            self.broadcast()
        if self.peers is not None and self._bots:
            await self.peers.claim_bots(self.id)
        self.kick()
        return taken

    async def set_timer(self, seconds: float | None) -> None:
        """The host sets the turn timer (``None``: off)."""
        async with self.lock:
            await self._store_options(turn_timer=seconds)
            self._stop_clock()
            self._arm_clock()
            self.broadcast()
        self.kick()

    async def mute(self, place_index: int, muted: bool) -> None:
        """The host mutes (or unmutes) a place in the chat."""
        async with self.lock:
            now = set(self.muted)
            if muted:
                now.add(place_index)
            else:
                now.discard(place_index)
            await self._store_options(muted=sorted(now))
            self.broadcast()

    def host_view(self) -> dict[str, Any]:
        """What the host sees: every place with its state and, for a place whose
        invitation is out, the invitation's link; the watch link of a private table."""
        connected = self.connected_places()
        places = []
        for p in self.places:
            facts = self._seat_facts(p.index, connected)
            facts["seat"] = self.match.seat_of[p.index]
            facts["invite_url"] = (f"/table/{self.id}?invite={p.invite}"
                                   if p.invite is not None and not p.claimed else None)
            places.append(facts)
        watch = self.options.get("watch")
        return {"id": self.id, "name": self.name, "private": self.private,
                "started": self.started, "turn_timer": self.turn_timer,
                "over": self.is_over, "watching": self.watching,
                "watch_url": f"/table/{self.id}?watch={watch}" if watch else None,
                "places": places}

    # -- the chat ---------------------------------------------------------------------------------
    async def chat(self, conn: Connection, text: str | None, preset: str | None
                   ) -> dict[str, Any] | None:
        """A player says something to the table; returns an error, or ``None`` once sent
        to every connection (spectators read it but may not talk).  With other server
        processes, the database says first whether the place is muted: a mute the host
        set at another process is in force before the host is answered."""
        if conn.place is None:
            return _error("spectator", "a spectator may not talk to the players",
                          {"asked": "chat"})
        if self.peers is None and conn.place in self.muted:
            return _error("muted", "the host has muted you at this table")
        wait = conn.chat.take(time.monotonic())
        if wait:
            return _error("rate_limited", "you are talking too fast: wait a moment",
                          {"what": "chat", "count": CHAT_RATE.count,
                           "seconds": CHAT_RATE.seconds, "wait": int(wait) + 1},
                          retry_ms=int(1000 * wait) + 1)
        message: dict[str, Any] = {"type": "chat", "place": conn.place,
                                   "seat": self.seat_of(conn),
                                   "name": self._place_name(self.places[conn.place]),
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
        if self.peers is not None:
            sent = await self.peers.send_chat(self.id, message, conn.token)
            if sent is False and not await self._holds_seat(conn):
                return None  # removed or replaced at another process: the socket ends
            if sent is False or (sent is None and conn.place in self.muted):
                return _error("muted", "the host has muted you at this table")
        self.receive_chat(message)
        return None

    def receive_chat(self, message: dict[str, Any]) -> None:
        """A chat message, said here or at another server process: every connection
        gets it, and it is kept for those who come later."""
        self.chat_log.append(message)
        for conn in self.connections:
            conn.push_json(message)


_KEEP: set[asyncio.Task[Any]] = set()
"""Tasks started and not awaited (a connection being ended), kept until they finish."""


def _explain(obs: Any, action: Action, lang: str) -> str:
    """Why ``action`` is not legal, in ``lang``: the terminal's own explanation."""
    from euchre.cli import lang as cli_lang
    from euchre.cli.illegal import why_illegal

    before = cli_lang.current()
    cli_lang.use(lang)
    try:
        return why_illegal(obs, action)
    finally:
        cli_lang.use(before)


def new_token() -> str:
    """An unguessable seat token (192 random bits)."""
    return secrets.token_urlsafe(24)
