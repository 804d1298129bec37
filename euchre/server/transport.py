"""How uvicorn serves the app's connections (:func:`uvicorn_options`, used by
:func:`euchre.server.serve`).

* **A request's headers must arrive within a bound** (``header_timeout``, 10 s by
  default): a connection that sends nothing, or half a request line, or trickles its
  headers ("slowloris"), is closed.  Uvicorn itself waits for them forever.  The clock
  starts when the connection opens, or when a kept-alive connection's next request
  begins, and stops once the headers are complete: a request's body, a response, and a
  WebSocket, however long they last, are not bounded by it.
* **A text frame that is not UTF-8** closes its WebSocket with 1007 and one line in the
  log (uvicorn logs a traceback).
* **The client's address** is the connection's, unless it comes from a trusted proxy
  (``trusted_proxies``: addresses or networks), whose ``X-Forwarded-For`` and
  ``X-Forwarded-Proto`` are then believed.  No proxy is trusted by default: a client on
  the server's own machine may not claim other addresses to escape the per-address
  limits.
* No ``server: uvicorn`` banner.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["DEFAULT_HEADER_TIMEOUT", "HeaderDeadline", "check_proxy", "uvicorn_options"]

log = logging.getLogger("euchre.server")

DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds a connection has to send a request's headers before it is closed."""


class HeaderDeadline(asyncio.Protocol):
    """Mixed into uvicorn's HTTP protocol: closes a connection whose request headers are
    not complete ``header_timeout`` seconds after it opened, or after its next request
    began.

    A request's headers are complete when uvicorn starts its request cycle (``cycle``
    changes), or hands the connection to the WebSocket protocol."""

    header_timeout = DEFAULT_HEADER_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None
    # uvicorn's protocols set these
    transport: asyncio.Transport
    cycle: Any

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """The connection opened: its first request's headers are due."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Bytes of a request: a new one's headers are due; complete ones stop the clock."""
        cycle = self.cycle
        if self._deadline is None and (cycle is None or cycle.response_complete):
            self._arm()  # a kept-alive connection's next request begins
        super().data_received(data)
        if self.cycle is not cycle or self.transport.get_protocol() is not self:
            self._disarm()  # headers complete: a request cycle, or a WebSocket now

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed: no deadline."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            loop = asyncio.get_running_loop()
            self._deadline = loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def _http_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """Uvicorn's HTTP protocol (httptools' parser where installed, else h11's) with the
    header deadline."""
    base: type[asyncio.Protocol]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] installs httptools
        base = H11Protocol
    else:
        base = HttpToolsProtocol
    return type(f"HeaderDeadline{base.__name__}", (HeaderDeadline, base),
                {"header_timeout": header_timeout})


def _ws_protocol() -> type[asyncio.Protocol]:
    """Uvicorn's WebSocket protocol (on the ``websockets`` library) as
    :mod:`euchre.server.sockets` changes it: a refused handshake answered, a text frame
    that is not UTF-8 logged as one line, a flood no longer read."""
    from euchre.server.sockets import WebSocketProtocol

    return WebSocketProtocol


def check_proxy(text: str) -> str:
    """A ``--trusted-proxy`` value, checked: an IP address, a network
    (``172.28.0.0/16``), or ``*`` (any: only where no client can reach the server but
    through the proxy).  ``ValueError`` names what is wrong.

    >>> check_proxy(" 172.28.0.10 "), check_proxy("fd00::/8")
    ('172.28.0.10', 'fd00::/8')
    """
    value = text.strip()
    if value == "*":
        return value
    try:
        if "/" in value:
            ipaddress.ip_network(value, strict=False)
        else:
            ipaddress.ip_address(value)
    except ValueError:
        raise ValueError(f"--trusted-proxy takes an IP address or a network such as "
                         f"172.28.0.0/16, not {text!r}") from None
    return value


def uvicorn_options(trusted_proxies: Sequence[str] = (),
                    header_timeout: float = DEFAULT_HEADER_TIMEOUT) -> dict[str, Any]:
    """The options of ``uvicorn.run`` / ``uvicorn.Config`` for the server: the header
    deadline, the WebSocket protocol, the trusted proxies (none: ``X-Forwarded-*``
    ignored, whatever ``$FORWARDED_ALLOW_IPS`` says), no ``server`` header."""
    if not header_timeout > 0:
        raise ValueError(f"--header-timeout is a number of seconds above 0, "
                         f"not {header_timeout}")
    proxies = [check_proxy(p) for p in trusted_proxies]
    return {"http": _http_protocol(header_timeout), "ws": _ws_protocol(),
            "proxy_headers": bool(proxies), "forwarded_allow_ips": proxies or None,
            "server_header": False}
