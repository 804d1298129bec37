"""The web app's files as browsers should keep them: versioned, cached, compressed.

* **Versioned.**  Every file of ``static/`` is served under ``/static/VERSION/NAME``, where
  ``VERSION`` is a digest of the whole folder (:func:`static_version`), and the page
  (:func:`index_page`) names them there.  The modules import each other by relative URL
  (``./util.js``), so an import, a dynamic ``import()`` included, stays in the same version
  without any rewriting.  A versioned file never changes: it is served with
  :data:`IMMUTABLE` (kept a year, never asked again); a new release has a new version.  A
  version the server does not hold is a 404.  The same files at ``/static/NAME`` (no
  version) are asked again on every use (:data:`REVALIDATE`, answered 304 while unchanged).
* **Revalidated.**  The page itself and the word catalogues change with a release under
  the same URL: :func:`revalidated` answers them with an ``ETag`` and
  :data:`REVALIDATE`, and 304 (no body) when the browser already holds them.
* **Compressed.**  :class:`Compressed` gzips what a ``GET`` answers (Starlette's
  ``GZipMiddleware``): the pages, the scripts, the catalogues, the lobby's lists.  Answers
  to other methods are left as they are: they are small, and some carry a secret (a seat
  token, an invitation) next to words another person chose, which compression would let a
  watcher of the encrypted traffic guess from its length.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Final

from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["IMMUTABLE", "REVALIDATE", "STATIC", "CachedFiles", "Compressed", "index_page",
           "revalidated", "static_version"]

STATIC: Final = Path(__file__).parent / "static"
"""The single-page app's files."""

IMMUTABLE: Final = "public, max-age=31536000, immutable"
"""``Cache-Control`` of a versioned file: its URL changes whenever its content does."""

REVALIDATE: Final = "no-cache"
"""``Cache-Control`` of what keeps its URL across releases: kept, but asked again (a 304
while unchanged) before each use."""


def static_version(folder: Path = STATIC) -> str:
    """A digest of every file's name and content in ``folder``: the version in the
    files' URLs (12 hexadecimal digits).

    >>> len(static_version()), static_version() == static_version()
    (12, True)
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def index_page(version: str, folder: Path = STATIC) -> bytes:
    """The page (``index.html``) naming its style, icon and script under ``version``.

    >>> b'src="/static/abc/app.js"' in index_page("abc")
    True
    """
    text = (folder / "index.html").read_text(encoding="utf-8")
    return text.replace('"/static/', f'"/static/{version}/').encode()


def revalidated(request: Request, body: bytes, media_type: str, status: int = 200,
                vary: str | None = None) -> Response:
    """``body`` with an ``ETag`` (its digest) and :data:`REVALIDATE`; a 304 without it
    when the request's ``If-None-Match`` names that ``ETag``.  ``vary``: the request
    header the body depends on besides its URL."""
    etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'
    headers = {"etag": etag, "cache-control": REVALIDATE}
    if vary:
        headers["vary"] = vary
    asked = request.headers.get("if-none-match", "")
    if status == 200 and etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, status, headers=headers, media_type=media_type)


class CachedFiles(StaticFiles):
    """Starlette's static files, each answer (a 304 too) with ``cache_control``."""

    def __init__(self, *, directory: Path, cache_control: str) -> None:
        super().__init__(directory=directory)
        self.cache_control = cache_control

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        """The file, or 304, with the ``Cache-Control`` of these files."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = self.cache_control
        return response


class Compressed:
    """ASGI middleware: ``GET`` answers gzipped for a browser that accepts it (at least
    ``minimum_size`` bytes: a smaller one gains nothing); everything else untouched."""

    def __init__(self, app: ASGIApp, minimum_size: int = 500) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
