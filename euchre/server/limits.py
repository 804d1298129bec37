"""How much the server accepts from one client, and how it says no.

Each limit has a default that a normal game, and the load benchmark of
``benchmarks/ws_load.py``, never reach; each is an option of ``euchre serve`` and a field
of :class:`Limits` (given to :func:`~euchre.server.app.create_app`).  A refused request
changes nothing and names its limit with an error code (``docs/server.md``):

================  ======================================================  =================
limit             default                                                 refused with
================  ======================================================  =================
``tables``        600 tables created per hour per client address          429 ``rate_limited``
``joins``         60 seats taken per minute per client address            429 ``rate_limited``
``hints``         30 hints per minute per client address                  ``rate_limited``
``messages``      1,000 WebSocket messages per 10 s per connection        ``rate_limited``;
                  (100 more over it: closed, the address refused 60 s)    close 4429 ``flooding``
``outbox``        256 KiB of messages queued for one connection           close 4408 ``slow_reader``
``sockets``       64 WebSockets open at once per client address           429 ``too_many_sockets``
``per_address``   20 unfinished tables made by one client address         429 ``too_many_tables``
``max_tables``    2,000 tables in play (a person there in the last 10     503 ``server_full``
                  minutes; tables never visited do not count)
``page``          50 tables per page of ``GET /api/tables``               422 ``page_too_large``
================  ======================================================  =================

A rate is a token bucket: ``Rate(600, 3600)`` allows 600 at once, and one more every
6 seconds after that.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["LimitError", "Limits", "Rate", "RateLimiter", "TokenBucket"]


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``count`` at once, and ``count`` more every ``seconds`` after that.

    >>> str(Rate(30, 60)), Rate(30, 60) == Rate.parse("30/60")
    ('30/60', True)
    >>> Rate(0, 10)
    Traceback (most recent call last):
      ...
    ValueError: a rate is a count of at least 1 per a number of seconds above 0, not 0/10
    """

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0 or math.isinf(self.seconds):
            raise ValueError(f"a rate is a count of at least 1 per a number of seconds "
                             f"above 0, not {self.count}/{self.seconds}")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"30/60"``: 30 per 60 seconds; ``"off"``: no limit (``None``).

        >>> Rate.parse("30/60")
        Rate(count=30, seconds=60.0)
        >>> Rate.parse("off") is None
        True
        """
        given = text.strip().lower()
        if given == "off":
            return None
        count, sep, seconds = given.partition("/")
        try:
            if not sep:
                raise ValueError
            return cls(int(count), float(seconds))
        except ValueError:
            raise ValueError(f"a rate is COUNT/SECONDS (such as 30/60) or 'off', "
                             f"not {text!r}") from None

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"


@dataclass(frozen=True, slots=True)
class Limits:
    """What the server accepts; a rate of ``None`` is no limit.

    >>> limits = Limits(hints=None)
    >>> str(limits.tables), limits.hints, limits.page
    ('600/3600', None, 50)
    """

    tables: Rate | None = Rate(600, 3600)
    """Tables created (``POST /api/tables``) per client address."""
    joins: Rate | None = Rate(60, 60)
    """Seats taken (``POST /api/tables/{id}/join``) per client address."""
    hints: Rate | None = Rate(30, 60)
    """Hints (the expert bot, run outside the table's lock) per client address."""
    messages: Rate | None = Rate(1000, 10)
    """WebSocket messages per connection; the ones over it are dropped unread, and a
    connection that sends another tenth of the rate (at least 10) over it is closed
    (``flooding``), its address refused new sockets for a minute.  A page sends a message
    a click; a program playing flat out may burst well past a person."""
    sockets: int = 64
    """WebSockets open at once from one client address."""
    per_address: int = 20
    """Unfinished tables one client address has made that the server holds at once."""
    outbox: int = 256 * 1024
    """Bytes of messages queued for one connection; a client that lets more pile up
    unread is disconnected (it reconnects and gets the state afresh)."""
    max_tables: int = 2000
    """Tables held in memory; finished tables nobody watches make room first."""
    page: int = 50
    """Tables (and finished games) per page of ``GET /api/tables``, at most."""

    def __post_init__(self) -> None:
        for name in ("outbox", "max_tables", "page", "sockets", "per_address"):
            if getattr(self, name) < 1:
                raise ValueError(f"the {name} limit is at least 1, not {getattr(self, name)}")


class LimitError(Exception):
    """A request over a limit; nothing was done.

    ``code`` names the limit for the client (``rate_limited``, ``server_full``, …),
    ``status`` is the HTTP status, ``retry_after`` the seconds until it may succeed;
    ``params`` are the numbers in the message, for the page to word it in its language.
    """

    def __init__(self, code: str, message: str, status: int,
                 retry_after: float | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.retry_after = retry_after
        self.params = dict(params or {})


class TokenBucket:
    """One client's budget for one :class:`Rate`.  The clock is the caller's: every
    method takes ``now`` in seconds.

    >>> bucket = TokenBucket(Rate(2, 10), now=0.0)
    >>> [bucket.take(0.0) for _ in range(3)]  # two at once; the third waits 5 s
    [0.0, 0.0, 5.0]
    """

    __slots__ = ("_per_second", "_stamp", "_tokens", "rate")

    def __init__(self, rate: Rate, now: float) -> None:
        self.rate = rate
        self._per_second = rate.count / rate.seconds
        self._tokens = float(rate.count)
        self._stamp = now

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._stamp)
        self._tokens = min(float(self.rate.count), self._tokens + elapsed * self._per_second)
        self._stamp = now

    def take(self, now: float) -> float:
        """Spend one token: 0 if there was one, else the seconds until there is one.

        >>> bucket = TokenBucket(Rate(1, 10), now=0.0)
        >>> bucket.take(0.0), round(bucket.take(4.0), 6), bucket.take(10.0)
        (0.0, 6.0, 0.0)
        """
        self._refill(now)
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self._per_second

    def is_full(self, now: float) -> bool:
        """Nothing spent that is not back: forgetting this bucket changes nothing.

        >>> bucket = TokenBucket(Rate(2, 10), now=0.0)
        >>> bucket.take(0.0), bucket.is_full(1.0), bucket.is_full(5.0)
        (0.0, False, True)
        """
        self._refill(now)
        return self._tokens >= self.rate.count


class RateLimiter:
    """A :class:`Rate` per key (a client address); idle keys are forgotten.

    Each address has its own budget:

    >>> limiter = RateLimiter(Rate(1, 60), "hints", clock=lambda: 0.0)
    >>> limiter.check("192.0.2.1"); limiter.check("192.0.2.2")
    >>> limiter.check("192.0.2.1")
    Traceback (most recent call last):
      ...
    euchre.server.limits.LimitError: too many hints: at most 1 per minute; try again in 60 s
    """

    PRUNE_AT = 4096
    """Keys held before the full (idle) buckets are dropped, so memory stays bounded."""

    def __init__(self, rate: Rate | None, what: str,
                 clock: Callable[[], float] = time.monotonic, kind: str = "") -> None:
        self.rate = rate
        self.what = what
        self.kind = kind
        """What is counted, as a code for the page (``tables``, ``joins``, ``hints``)."""
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}
        self._prune_at = self.PRUNE_AT

    def check(self, key: str) -> None:
        """Count one request of ``key``; raise :class:`LimitError` (429) over the rate.
        The error tells the client when to try again:

        >>> now = [0.0]
        >>> limiter = RateLimiter(Rate(2, 60), "hints", clock=lambda: now[0], kind="hints")
        >>> limiter.check("192.0.2.1"); limiter.check("192.0.2.1")
        >>> try:
        ...     limiter.check("192.0.2.1")
        ... except LimitError as e:
        ...     print(e.code, e.status, e.params)
        rate_limited 429 {'what': 'hints', 'count': 2, 'seconds': 60, 'wait': 30}
        >>> now[0] = 30.0
        >>> limiter.check("192.0.2.1")  # a token is back
        """
        if self.rate is None:
            return
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._prune_at:
                self._prune(now)
            bucket = self._buckets[key] = TokenBucket(self.rate, now)
        wait = bucket.take(now)
        if wait > 0:
            raise LimitError(
                "rate_limited",
                f"too many {self.what}: at most {self.rate.count} per "
                f"{_seconds(self.rate.seconds)}; try again in {math.ceil(wait)} s",
                429, wait, {"what": self.kind, "count": self.rate.count,
                            "seconds": self.rate.seconds, "wait": math.ceil(wait)})

    def _prune(self, now: float) -> None:
        self._buckets = {k: b for k, b in self._buckets.items() if not b.is_full(now)}
        # many clients busy at once: prune again only when their number has doubled
        self._prune_at = max(self.PRUNE_AT, 2 * len(self._buckets))


def _seconds(seconds: float) -> str:
    if seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return "hour" if hours == 1 else f"{hours} hours"
    if seconds % 60 == 0:
        minutes = int(seconds // 60)
        return "minute" if minutes == 1 else f"{minutes} minutes"
    return f"{seconds:g} seconds"
