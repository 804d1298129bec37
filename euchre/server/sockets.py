"""uvicorn's WebSocket protocol, with a refused handshake answered and closed, and a
flooding or unreading client cut off at once.

When the ``websockets`` library refuses a handshake itself (a request line past its 8 KiB,
as a 9,000-character table id makes; header lines too long; not HTTP at all), it queues
its answer (``414 Request-URI Too Long``, ``431``) or the end of the stream, but
uvicorn's protocol never sends it: the connection stays open with nothing said until the
client gives up, and when the server stops it fails on that connection with a traceback.
:class:`WebSocketProtocol` sends the answer and closes the connection at once.

Three more things it does differently:

* A text frame that is not UTF-8 closes its WebSocket with 1007 and one line in the log
  (uvicorn logs a traceback).
* When the app closes a socket for flooding (4429) or for not reading (4408), the
  connection is not read any more once the close frame is written, and is closed a second
  later, instead of being read (every frame parsed, then dropped) for up to 10 seconds
  while the peer is expected to answer the close: a flood stops costing the server when it
  is told to stop.
* A handshake the app refuses with an HTTP answer (``websocket.http.response``: a page
  of another site, too many sockets from one address) is not logged as an error ("ASGI
  callable returned without completing handshake"): one line per refusal would let a
  client fill the log.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["CLOSE_AT_ONCE", "CLOSE_GRACE", "WebSocketProtocol"]

CLOSE_GRACE = 1.0
"""Seconds a connection closed for flooding or not reading stays open, unread, so that the
client gets the close frame that says why."""

log = logging.getLogger("euchre.server")

CLOSE_AT_ONCE = frozenset({4408, 4429})
"""The close codes after which the connection is not read any more: a client that did not
read its messages (``slow_reader``), one that kept sending over its rate (``flooding``)."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol (its default), with the answer to a
    handshake ``websockets`` refused sent and the connection closed (``ws=`` of
    :func:`uvicorn.run`)."""

    def data_received(self, data: bytes) -> None:
        """Handle the bytes read; a refused handshake is answered and closed."""
        super().data_received(data)
        if (not self.handshake_complete and self.conn.handshake_exc is not None
                and not self.transport.is_closing()):
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

    async def send(self, message: Any) -> None:
        """The app's message to the client (an ASGI ``send``)."""
        await super().send(message)
        kind = message["type"]
        if (kind == "websocket.close" and message.get("code") in CLOSE_AT_ONCE
                and not self.transport.is_closing()):
            # nothing more is read; the peer has a moment to read the close frame (closing
            # a socket with unread data resets it, and the frame may be lost)
            if self.close_timer is not None:
                self.close_timer.cancel()
            self.read_paused = True
            self.transport.pause_reading()
            self.close_timer = self.loop.call_later(CLOSE_GRACE, self.transport.close)
        elif kind == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True  # answered: nothing to log

    def send_receive_event_to_app(self) -> None:
        """A whole message: to the app, unless it is text that is not UTF-8."""
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError as e:
                self.frames = []
                client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
                log.warning("closed the WebSocket of %s: a text message that is not "
                            "UTF-8 (%s)", client, e.reason)
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()
