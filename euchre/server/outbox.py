"""A WebSocket's outbox: what the server has to tell one client, sent by the client's own
task so that a slow reader never holds up a table.

A :class:`Connection` is the place a WebSocket plays (``None`` for a spectator), the
language its page speaks, how fast it may chat, and a bounded queue of messages
(:data:`SLOW_READER` closes a client that lets too much pile up unread); a spectator's
states are coalesced, so a slow one gets the newest state once.  :func:`error_message`
is the one shape of a refusal the server sends.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from euchre.server.limits import Limits, Rate, TokenBucket

__all__ = ["CHAT_RATE", "SLOW_READER", "Connection", "error_message"]

log = logging.getLogger("euchre.server")

SLOW_READER = 4408
"""The close code of a connection that let more than its outbox limit pile up unread."""

CHAT_RATE = Rate(5, 10)
"""Chat messages one connection may send: 5 at once, then 5 more every 10 seconds."""


class Connection:
    """One WebSocket: the place it plays (``None`` for a spectator) and an outbox.

    Messages are queued and sent by the connection's own task, so a slow client never
    holds up a table.  The outbox is bounded (``max_outbox`` characters, the messages
    being ASCII JSON): a client that lets more pile up unread is disconnected with
    ``close(SLOW_READER, "slow_reader")`` and what was queued for it is dropped.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], place: int | None, *,
                 close: Callable[[int, str], Coroutine[Any, Any, None]] | None = None,
                 max_outbox: int = Limits().outbox, reads_summaries: bool = False,
                 token: str | None = None, lang: str = "en") -> None:
        self.place = place
        self.token = token
        """The seat token the connection came with: when the place's token changes (the
        host invited someone else to it), the connection is ended."""
        self.lang = lang
        """The language the page speaks: refusals are explained in it."""
        self.chat = TokenBucket(CHAT_RATE, time.monotonic())
        """How often this connection may talk at the table."""
        self.reads_summaries = reads_summaries
        """The client shows each deal's summary and says ``continue`` once it is read."""
        self._send = send
        self._close_socket = close
        self.max_outbox = max_outbox
        self.overflowed = False
        """The client read too slowly and is being disconnected."""
        self._queued = 0
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._state: str | None = None
        """A spectator's newest state, queued and not yet sent (:meth:`push_state`)."""
        self._task = asyncio.create_task(self._pump())
        self._closing: asyncio.Task[None] | None = None

    def push(self, text: str) -> None:
        """Queue one message (dropped, and the client disconnected, over the limit)."""
        if self.overflowed:
            return
        if self._queued + len(text) > self.max_outbox:
            self._overflow()
            return
        self._queued += len(text)
        self._outbox.put_nowait(text)

    def push_state(self, text: str) -> None:
        """Queue a state that replaces any state still waiting to be sent: a client that
        reads slowly gets the newest state once, not every state in between (for
        spectators, whose page shows the table as it is now)."""
        if self.overflowed:
            return
        if self._state is not None:  # the older one is still queued: send this instead
            self._queued += len(text) - len(self._state)
            self._state = text
            return
        if self._queued + len(text) > self.max_outbox:
            self._overflow()
            return
        self._queued += len(text)
        self._state = text
        self._outbox.put_nowait(_NEWEST_STATE)

    def _overflow(self) -> None:
        self.overflowed = True
        self._task.cancel()
        while not self._outbox.empty():  # give the memory back now
            self._outbox.get_nowait()
        self._queued = 0
        log.warning("a client read too slowly (over %d characters queued): disconnected",
                    self.max_outbox)
        if self._close_socket is not None:
            self._closing = asyncio.create_task(self._close_socket(SLOW_READER, "slow_reader"))

    def push_json(self, message: dict[str, Any]) -> None:
        """Queue one message as JSON."""
        self.push(json.dumps(message, separators=(",", ":")))

    async def _pump(self) -> None:
        while True:
            text = await self._outbox.get()
            if text is None:
                return
            if text is _NEWEST_STATE:
                text, self._state = self._state or "", None
            try:
                await self._send(text)
            except Exception:  # the socket closed: the receive loop notices and leaves
                return
            finally:
                self._queued -= len(text)

    async def close(self) -> None:
        """Send what is queued (for at most 2 seconds), then stop."""
        self._outbox.put_nowait(None)
        tasks = {self._task} if self._closing is None else {self._task, self._closing}
        await asyncio.wait(tasks, timeout=2)
        self._task.cancel()  # a client that stopped reading gets no more

    async def end(self, code: str, message: str, close_code: int,
                  params: dict[str, Any] | None = None) -> None:
        """Tell the client why, send what is queued, and close the socket."""
        self.push_json(error_message(code, message, params))
        await self.close()
        if self._close_socket is not None:
            with contextlib.suppress(Exception):
                await self._close_socket(close_code, code)


_NEWEST_STATE = "newest state"
"""Queued in a connection's outbox where its coalesced state goes (never sent as is)."""

def error_message(code: str, message: str, params: dict[str, Any] | None = None,
                             **extra: Any) -> dict[str, Any]:
    """An error message: ``code`` and ``params`` for the page to word in its player's
    language, ``message`` in English for other clients and logs."""
    return {"type": "error", "code": code, "message": message, "params": params or {},
            **extra}
