"""uvicorn's WebSocket protocol, with a refused handshake answered and closed.

When the ``websockets`` library refuses a handshake itself (a request line past its 8 KiB,
as a 9,000-character table id makes; header lines too long; not HTTP at all), it queues
its answer (``414 Request-URI Too Long``, ``431``) or the end of the stream, but
uvicorn's protocol never sends it: the connection stays open with nothing said until the
client gives up, and when the server stops it fails on that connection with a traceback.
:class:`WebSocketProtocol` sends the answer and closes the connection at once.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["WebSocketProtocol"]


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
