"""The game at a table: its match, the actions of people and bots, hints, rematches.

A :class:`Play` is one part of a :class:`~euchre.server.table.Table`.  It owns the
table's :class:`~euchre.game.Match` (a game, or a rubber of games, RULES §10-§11) made
from a stored seed; re-creating it with the same seed and re-applying the stored actions
in order reproduces the state exactly.  Bot decisions are re-applied from storage, never
recomputed.

Every action, a person's or a bot's, goes the same way under the table's lock: checked
against the rules, written to storage, applied, then broadcast.  Nothing is acknowledged
before it is stored, and nothing that fails a check changes anything.  A stand-in bot
plays for a person away (out of time, or gone) until the person takes the seat back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import zlib
from typing import TYPE_CHECKING, Any

from euchre.actions import Action, InvalidActionError
from euchre.bots import BOTS, Bot, make_bot
from euchre.deal import Deal, IllegalActionError, Observation
from euchre.game import Match
from euchre.records import GameRecord, game_record
from euchre.server.outbox import Connection
from euchre.server.outbox import error_message as _error
from euchre.server.storage import MatchRecord, StorageConflict, StorageError, TableRecord
from euchre.wording import why_illegal

if TYPE_CHECKING:
    from euchre.server.table import Table

__all__ = ["BOT_RETRIES", "FAST_BOTS", "HINT_BOT", "Play"]

log = logging.getLogger("euchre.server")

HINT_BOT = "expert"
"""The bot asked for hints; the hint button exists only when it is in ``BOTS``."""

FAST_BOTS = frozenset({"random", "basic"})
"""Bots quick enough to run on the event loop; any other runs in a worker thread."""

BOT_RETRIES = 5
"""Times a bot's action is tried again when storage refuses it (waiting 2, 4, … 32 s);
then the bots wait until someone acts or connects."""


class Play:
    """A table's match and who plays it: people's actions, the bots, the stand-ins."""

    def __init__(self, table: Table, record: TableRecord) -> None:
        self.table = table
        self.bots: dict[int, Bot] = {}
        """The bots of the places a bot holds, by place."""
        self._bot_task: asyncio.Task[None] | None = None
        self._stand_ins: dict[int, Bot] = {}
        self.match = self.replay(record.matches[-1])
        self.matches = len(record.matches)
        self.away: set[int] = set()
        """Places a stand-in bot plays for now: the person ran out of time, or left."""
        self.reading: set[int] = set()
        """Places whose person is reading the last deal's summary: the bots wait."""

    # -- rebuilding from storage --------------------------------------------------------------
    def replay(self, stored: MatchRecord) -> Match:
        """The stored match rebuilt, its bots made (raises if it does not replay)."""
        match = Match(self.table.rules, stored.seed, stored.number)
        for i, (seat, text) in enumerate(stored.actions):
            try:
                match.apply(Action.parse(text), seat)
            except ValueError as e:
                raise StorageError(
                    f"table {self.table.id}, match {stored.number}: stored action {i} "
                    f"{text!r} of seat {seat} does not replay: {e}") from None
        self.make_bots(stored.number)
        return match

    def make_bots(self, match: int | None = None) -> None:
        """A bot for each place a bot holds, seeded for ``match`` (the current one)."""
        number = self.match.number if match is None else match
        bots = {}
        for p in self.table.seating.places:
            if p.kind != "bot" or p.bot is None:
                continue
            name = p.bot
            if name not in BOTS:  # e.g. a bot of an optional extra no longer installed
                fallback = "basic" if "basic" in BOTS else "random"
                log.warning("table %s: no bot %r here; %s plays place %d instead",
                            self.table.id, name, fallback, p.index)
                name = fallback
            bots[p.index] = make_bot(name, self._bot_seed(p.index, number))
        self.bots = bots

    def replay_match(self, stored: MatchRecord) -> Match:
        """Another match of this table, rebuilt from storage (for the history)."""
        if stored.number == self.match.number:
            return self.match
        match = Match(self.table.rules, stored.seed, stored.number)
        for seat, text in stored.actions:
            match.apply(Action.parse(text), seat)
        return match

    def _bot_seed(self, place: int, match: int) -> int:
        return zlib.crc32(f"{self.table.id}:{place}:{match}".encode())

    @property
    def is_over(self) -> bool:
        """The current match is over."""
        return self.match.is_over

    def seat_of(self, conn: Connection) -> int | None:
        """The seat a connection plays in the current match (``None``: spectator)."""
        return None if conn.place is None else self.match.seat_of[conn.place]

    def game_records(self, match: Match) -> list[GameRecord]:
        """The RECORDS game records of a match, one a game (a rubber's in order)."""
        names = self.table.seating.names(match)
        return [game_record(g, names) for g in match.games]

    def record(self, match: Match) -> Any:
        """The JSON of a finished match's RECORDS game record(s), to download: one game,
        or a rubber's list."""
        records = [r.to_json() for r in self.game_records(match)]
        return records[0] if match.rubber is None else records

    # -- actions -------------------------------------------------------------------------------
    async def act(self, conn: Connection, text: str, seq: int | None) -> dict[str, Any] | None:
        """A person's action; returns an error message, or ``None`` once applied."""
        table = self.table
        seat = self.seat_of(conn)
        if seat is None:
            return _error("spectator", "a spectator may watch but not act", {"asked": "act"})
        async with table.lock:
            match = self.match
            if table.closed:
                return _error("closed", "the table is closed: nothing was done")
            if match.is_over:
                return _error("game_over", "the game is over (RULES §10): no action is legal; "
                              "ask for a rematch")
            if not table.seating.started:
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
                who = table.seating.names()[mover] if mover is not None else "nobody"
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
            refused = await table.sync.write(self.commit(seat, action, conn.token))
            if refused is not None:
                return refused
        self.kick()
        return None

    async def commit(self, seat: int, action: Action, token: str | None = None) -> None:
        """Store, apply and broadcast one legal action (the lock is held); ``token``, a
        person's seat token, must still hold its place in the database.

        The action is stored before it is applied; a match it ends is marked finished
        before anyone is told.
        """
        table = self.table
        match = self.match
        await table.storage.append_action(table.id, match.number, match.seq, seat,
                                          str(action), token)
        ended = match.apply(action, seat)
        if match.is_over:
            await table.storage.finish_match(table.id, match.number, match.result())
            if table.on_game_over is not None:
                table.on_game_over(table)
        table.last_active = time.time()
        self.deal_ended(ended is not None)
        table.clock.arm()
        table.audience.broadcast()

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

    async def rematch(self, conn: Connection) -> dict[str, Any] | None:
        """A new match with the same rules and places, once this one is over."""
        table = self.table
        if conn.place is None:
            return _error("spectator", "a spectator cannot start a rematch",
                          {"asked": "rematch"})
        if not await table.sync.holds_seat(conn):
            return None  # the host gave the seat away: the socket ends
        async with table.lock:
            if not self.match.is_over:
                return _error("not_over", "the game is not over yet: finish it first")
            number = self.match.number + 1
            seed = secrets.randbits(63)
            refused = await table.sync.write(table.storage.start_match(table.id, number, seed))
            if refused is not None:
                return refused
            self.match = Match(table.rules, seed, number)
            self.matches = number
            self.make_bots(number)
            table.audience.broadcast()
        if table.peers is not None and self.bots:
            await table.peers.claim_bots(table.id)
        self.kick()
        return None

    # -- bots ------------------------------------------------------------------------------------
    def _bot_to_move(self) -> int | None:
        table = self.table
        match = self.match
        if match.is_over:
            return None
        seat = match.game.deal.to_move
        if seat is None or self.reading or table.closed or not table.seating.started:
            return None
        place = match.place_at[seat]
        if place in self.away:
            # a stand-in plays for a person away only while someone is at the table: a
            # table everybody left does not play itself
            return (place if any(c.place is not None for c in table.audience.connections)
                    else None)
        if place in self.bots and (table.peers is None or table.peers.holds_bots(table.id)):
            return place
        return None

    def kick(self) -> None:
        """Let the bots play if one is to move and none is already playing."""
        self.table.clock.arm()
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self._bot_to_move() is None:
            return
        self._bot_task = asyncio.create_task(self._play_bots())

    @property
    def bots_at_work(self) -> bool:
        """A bot is choosing or about to choose (the bots' task runs)."""
        return self._bot_task is not None and not self._bot_task.done()

    async def stop(self) -> None:
        """Stop the bots' task, and wait for it."""
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(BaseException):
                await self._bot_task

    async def _play_bots(self) -> None:
        table = self.table
        failures = 0
        while True:
            place = self._bot_to_move()
            if place is None:
                return
            deal = self.match.game.deal
            delay = table.settings.bot_delay
            if deal.phase.name == "PLAY" and not deal.current_trick and deal.tricks:
                delay += table.settings.trick_pause  # let people see the finished trick
            await asyncio.sleep(delay)
            try:
                async with table.lock:
                    if self._bot_to_move() != place:
                        continue
                    deal = self.match.game.deal
                    seat = deal.to_move
                    assert seat is not None
                    action = await self._bot_action(self._player_bot(place), deal, seat)
                    try:
                        await self.commit(seat, action)
                    except StorageConflict as e:
                        # storage is ahead of memory: play on from what it holds
                        if not await table.sync.reload(e):
                            return
                        if table.peers is not None:
                            # the bots' lock may have gone with a lost connection to the
                            # database, and another process taken the bots: ask again
                            await table.peers.release_bots(table.id)
                            await table.peers.claim_bots(table.id)
                        continue
                failures = 0
            except StorageError as e:
                failures += 1
                if failures > BOT_RETRIES:
                    log.error("table %s: a bot's action was not stored %d times (%s); the "
                              "bots wait for the next action or connection", table.id,
                              failures, e)
                    return
                log.error("table %s: a bot's action was not stored (%s); retrying in %d s",
                          table.id, e, 2 ** failures)
                await asyncio.sleep(2 ** failures)
            except Exception:
                log.exception("table %s: the bot at place %d failed", table.id, place)
                return

    async def _bot_action(self, bot: Bot, deal: Deal, seat: int) -> Action:
        obs = deal.observation(seat)
        if bot.name in FAST_BOTS:
            action = bot.act(obs)
        else:
            action = await asyncio.to_thread(bot.act, obs)
        if action not in obs.legal_actions:
            log.error("table %s: bot %s chose an illegal action %s; playing a legal one",
                      self.table.id, bot.name, action)
            action = obs.legal_actions[0]
        return action

    # -- the summary's wait, stand-ins --------------------------------------------------------
    def deal_ended(self, ended: bool) -> None:
        """After a deal, the bots wait for every person whose page shows its summary."""
        if not ended or self.match.is_over:
            return
        self.reading = {c.place for c in self.table.audience.connections
                        if c.reads_summaries and c.place is not None
                        and c.place not in self.away}

    def done_reading(self, conn: Connection) -> None:
        """A person closed the deal's summary: the bots may go on once everyone has."""
        if conn.place is None or conn.place not in self.reading:
            return
        self.reading.discard(conn.place)
        self.table.audience.broadcast()
        self.kick()

    async def reclaim(self, conn: Connection) -> dict[str, Any] | None:
        """A person takes back the seat a stand-in bot has been playing."""
        table = self.table
        if conn.place is None:
            return _error("spectator", "a spectator has no seat to take back",
                          {"asked": "reclaim"})
        if not await table.sync.holds_seat(conn):
            return None  # the host gave the seat away: the socket ends
        if conn.place in self.away:
            self.away.discard(conn.place)
            table.clock.stop()  # a fresh turn timer for the person who is back
            table.clock.arm()
            table.audience.broadcast()
        return None

    def stand_in_level(self) -> str:
        """The level of the bot that keeps a person's seat (the settings', if installed)."""
        stand_in = self.table.settings.stand_in
        return stand_in if stand_in in BOTS else "random"

    def _player_bot(self, place: int) -> Bot:
        """The bot that acts for ``place``: its own, or the stand-in of a person away."""
        bot = self.bots.get(place)
        if bot is not None:
            return bot
        stand_in = self._stand_ins.get(place)
        if stand_in is None:
            stand_in = make_bot(self.stand_in_level(),
                                self._bot_seed(place, self.match.number))
            self._stand_ins[place] = stand_in
        return stand_in


def _explain(obs: Observation, action: Action, lang: str) -> str:
    """Why ``action`` is not legal, in ``lang``: the words the terminal says too
    (:func:`euchre.wording.why_illegal`), the cards in the notation."""
    return why_illegal(obs, action, lang)
