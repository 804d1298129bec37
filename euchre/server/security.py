"""What every answer of the server carries, and which host names it answers to.

* :class:`SecurityHeaders`: the headers of :data:`SECURITY_HEADERS` on every HTTP answer
  (pages, the API, static files, errors, and a refused WebSocket's answer): a
  Content-Security-Policy under which the pages run only the server's own scripts and
  styles and may not be framed, ``nosniff``, and no ``Referer`` (seat tokens, invitations
  and host keys travel in URLs).
* :class:`AllowedHosts`: a request whose ``Host`` names a host the server was not told it
  serves is refused, HTTP and WebSocket alike (HTTP 400 ``bad_host``).  A page of
  ``evil.example`` whose name its owner points at 127.0.0.1 ("DNS rebinding") sends
  ``Host: evil.example`` and its own origin: without this check it could open a laptop
  server's tables as if it were the server's own page.
* :class:`GuardedApp`: FastAPI with both outside every other layer, so that its own error
  pages (a 500 too) carry the headers.

Both are plain ASGI (not Starlette's ``BaseHTTPMiddleware``, which would buffer streams and
does not see WebSockets).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import re
import socket
from collections.abc import Iterable, Sequence
from typing import Any

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from euchre.server.rulespage import STYLE_HASH

__all__ = ["CONTENT_SECURITY_POLICY", "LOOPBACK_HOSTS", "SECURITY_HEADERS", "AllowedHosts",
           "GuardedApp", "HostCheck", "SecurityHeaders", "check_host_name", "host_name",
           "served_hosts"]

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    # the rules page's one inline <style>, by its hash; the single-page app sets computed
    # styles through the CSSOM (element.style), which the policy does not restrict
    f"style-src 'self' '{STYLE_HASH}'",
    "img-src 'self'",
    "font-src 'self'",
    # 'self' covers ws: and wss: to the same host and port (Chromium 71, Safari 16)
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""The pages' Content-Security-Policy: nothing from elsewhere, no inline script, no
``eval``, no inline style attributes, never in a frame."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors, for browsers before CSP 2
)
"""The headers added to every HTTP answer (an answer that sets one keeps its own)."""

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Host names always allowed: no page of another site can be addressed by them."""

_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_HOST_PORT = re.compile(r"(\[[0-9a-fA-F:.]+\]|[^:/\[\]@\s]+|[0-9a-fA-F:.]+)(:[0-9]{1,5})?")
"""A host, an IPv6 address in brackets, or one bare; a port after the first two."""


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer, and on the HTTP
    answer that refuses a WebSocket's handshake."""

    def __init__(self, app: ASGIApp,
                 headers: Sequence[tuple[bytes, bytes]] = SECURITY_HEADERS) -> None:
        self.app = app
        self.headers = tuple(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = list(message.get("headers", ()))
                present = {bytes(name).lower() for name, _ in headers}
                headers.extend(h for h in self.headers if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(host: str) -> str:
    """The name a ``Host`` header (or an ``--allow-host`` value) names: lower case, without
    its port, brackets or final dot.

    >>> host_name("Cards.Example.:8443"), host_name("[::1]:8000"), host_name("::1")
    ('cards.example', '::1', '::1')
    """
    text = host.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        text = text[1:end] if end > 0 else text[1:]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def check_host_name(text: str) -> str:
    """An ``--allow-host`` value, checked: a host name (``cards.example``), ``*.`` and a
    domain (any name under it), an IP address, ``0.0.0.0`` or ``::`` (any IPv4 or IPv6
    address), or ``*`` (any host); a port given is dropped (any port is allowed).
    ``ValueError`` names what is wrong.

    >>> check_host_name("Cards.example:443"), check_host_name("*.cards.example")
    ('cards.example', '*.cards.example')
    >>> check_host_name("http://cards.example")
    Traceback (most recent call last):
    ValueError: --allow-host takes a host name such as cards.example, not 'http://cards.example'
    """
    value = text.strip()
    if value == "*":
        return "*"
    if _HOST_PORT.fullmatch(value):
        name = host_name(value)
        wild = name.startswith("*.")
        bare = name[2:] if wild else name
        if (not wild and _ip(bare) is not None) or (
                len(bare) <= 253 and all(_LABEL.fullmatch(label) for label in bare.split("."))):
            return name
    raise ValueError(f"--allow-host takes a host name such as cards.example, not {text!r}")


class HostCheck:
    """Which ``Host`` a request may name: the :data:`LOOPBACK_HOSTS` and ``names`` (as
    :func:`check_host_name` takes them), any port.  No ``Host`` at all is not a browser
    (a browser always sends one): it may.

    Out of the box only this machine's own names; ``0.0.0.0`` allows any IPv4 address:

    >>> [HostCheck().allows(h) for h in ("localhost", "127.0.0.1:8000", "[::1]:8000",
    ...                                   "cards.example")]
    [True, True, True, False]
    >>> [HostCheck(["0.0.0.0"]).allows(h) for h in ("192.168.1.5:8000", "cards.example")]
    [True, False]
    """

    def __init__(self, names: Iterable[str] = ()) -> None:
        given = {check_host_name(n) for n in names}
        self.any = "*" in given
        self.any_ipv4 = "0.0.0.0" in given
        self.any_ipv6 = "::" in given
        self.suffixes = tuple(n[1:] for n in given if n.startswith("*."))
        self.names = frozenset(host_name(n) for n in (*LOOPBACK_HOSTS, *given)
                               if not n.startswith("*"))

    def allows(self, host: str | None) -> bool:
        """May a request with this ``Host`` header be answered?

        >>> check = HostCheck(["cards.example", "*.club.example"])
        >>> [check.allows(h) for h in ("cards.example:8000", "localhost:8000",
        ...                            "a.club.example", "evil.example", None)]
        [True, True, True, False, True]
        """
        if host is None or self.any:
            return True
        name = host_name(host)
        if name in self.names or (self.suffixes and name.endswith(self.suffixes)):
            return True
        if self.any_ipv4 or self.any_ipv6:
            ip = _ip(name)
            return ip is not None and (self.any_ipv4 if ip.version == 4 else self.any_ipv6)
        return False


def served_hosts(listen: str, names: Sequence[str] = ()) -> list[str]:
    """The host names a server listening on ``listen`` answers to, besides the loopback
    names: ``listen`` itself and ``names`` (``--allow-host``).  Listening on every address
    (``0.0.0.0``, ``::``), any IP address too (a page addressed by an IP address is that
    server's own: DNS rebinding needs a name), and this machine's name (``laptop``,
    ``laptop.local``).  ``ValueError`` for a name :func:`check_host_name` refuses.

    >>> served_hosts("192.168.1.20", ["cards.example"])
    ['192.168.1.20', 'cards.example']
    >>> served_hosts("0.0.0.0")[:2]
    ['0.0.0.0', '::']
    """
    names = [check_host_name(n) for n in names]  # ValueError before anything is opened
    name = host_name(listen)
    ip = _ip(name)
    if name and (ip is None or not ip.is_unspecified):
        return [name, *names]
    machine = []
    with contextlib.suppress(OSError, ValueError):
        name = check_host_name(socket.gethostname())
        machine = [name] if name.endswith(".local") else [name, f"{name}.local"]
    return ["0.0.0.0", "::", *machine, *names]


class AllowedHosts:
    """ASGI middleware: a request whose ``Host`` the :class:`HostCheck` does not allow is
    refused before the app sees it: HTTP 400 with ``{"detail", "code": "bad_host",
    "params": {"host"}}``; a WebSocket's handshake gets the same answer and never opens."""

    def __init__(self, app: ASGIApp, check: HostCheck) -> None:
        self.app = app
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((value.decode("latin-1") for name, value in scope["headers"]
                         if name == b"host"), None)
            if not self.check.allows(host):
                await _refuse_host(scope, receive, send, host or "")
                return
        await self.app(scope, receive, send)


async def _refuse_host(scope: Scope, receive: Receive, send: Send, host: str) -> None:
    shown = host if len(host) <= 100 else host[:100] + "…"
    body = json.dumps({
        "detail": f"this server does not answer to the host name {shown!r}: a page of "
                  "another site, or a name its operator has not allowed (--allow-host)",
        "code": "bad_host", "params": {"host": shown}}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await receive()  # the handshake: websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": 400,
                    "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:  # a server that cannot answer a handshake with HTTP: refused all the same
        await send({"type": "websocket.close", "code": 1008})


class GuardedApp(FastAPI):
    """FastAPI with :class:`SecurityHeaders` and :class:`AllowedHosts` (for ``hosts``)
    outside every other layer, its own error answers included."""

    def __init__(self, *, hosts: Iterable[str] = (), **options: Any) -> None:
        self.host_check = HostCheck(hosts)
        super().__init__(**options)

    def build_middleware_stack(self) -> ASGIApp:
        """The app's own stack inside the host check, inside the headers."""
        return SecurityHeaders(AllowedHosts(super().build_middleware_stack(),
                                            self.host_check))
