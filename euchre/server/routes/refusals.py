"""How the app refuses: :class:`Refusal` (a 4xx with a ``code`` a page words in its
player's language) and the answers to the errors the routes raise (a limit, a refusal,
a request FastAPI could not read, storage that failed, Starlette's own refusals), each as
JSON ``{"detail", "code", "params"}``.  :func:`~euchre.server.app.create_app` installs
the answers (:data:`HANDLERS`)."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from euchre.server.limits import LimitError
from euchre.server.protocol import shown
from euchre.server.storage import StorageError
from euchre.server.table import STORAGE_FAILED, Table, TableError

__all__ = ["HANDLERS", "Refusal", "invitation_refused", "limit_message", "log_storage",
           "no_table"]

log = logging.getLogger("euchre.server")


def limit_message(e: LimitError) -> dict[str, Any]:
    """A limit met, as the error message a WebSocket sends (``retry_ms``: when to try
    again, where the limit says)."""
    out: dict[str, Any] = {"type": "error", "code": e.code, "message": str(e),
                           "params": e.params}
    if e.retry_after is not None:
        out["retry_ms"] = int(1000 * e.retry_after) + 1
    return out


async def _limit_response(request: Request, e: LimitError) -> JSONResponse:
    headers = {} if e.retry_after is None else {"Retry-After": str(int(e.retry_after) + 1)}
    return JSONResponse({"detail": str(e), "code": e.code, "params": e.params}, e.status,
                        headers)


class Refusal(HTTPException):
    """An HTTP request the server refuses: ``code`` and ``params`` let the page word the
    English ``detail`` in its player's language (:data:`~.protocol.ERROR_CODES`)."""

    def __init__(self, status: int, code: str, message: str, **params: Any) -> None:
        super().__init__(status, message)
        self.code = code
        self.params = params


async def _refusal_response(request: Request, e: Refusal) -> JSONResponse:
    return JSONResponse({"detail": e.detail, "code": e.code, "params": e.params},
                        e.status_code, e.headers)


def invitation_refused(table: Table, invite: str, e: TableError) -> Refusal:
    """An invitation that opens no seat (403 ``bad_invitation``) or one spent already
    (409 ``invitation_spent``: whether the table may be watched, and the place)."""
    if e.code == "bad_invitation":
        return Refusal(403, e.code, str(e))
    spent = table.seating.place_by_invite(invite)
    return Refusal(409, e.code, str(e), watch=not table.seating.private,
                   place=spent.index if spent else None)


def no_table(table_id: str) -> Refusal:
    """404 ``no_table``, echoing at most 40 characters of the id asked."""
    return Refusal(404, "no_table", f"no table {shown(table_id)!r}", table=shown(table_id))


def log_storage(method: str, path: str, e: StorageError) -> None:
    """One line in the log for a request storage failed (the cause is the database's,
    not the client's: the traceback would say nothing more)."""
    log.error("%s %s: %s", method, shown(path, 80), " ".join(str(e).split()))


async def _storage_response(request: Request, e: StorageError) -> JSONResponse:
    """Storage failed (a full disk, a lost connection, a foreign schema): a 503 with
    code ``storage`` and one line in the log, as the table's socket refuses an action."""
    log_storage(request.method, request.url.path, e)
    return JSONResponse({"detail": STORAGE_FAILED, "code": "storage", "params": {}}, 503)


async def _http_response(request: Request, e: StarletteHTTPException) -> Response:
    """Starlette's and FastAPI's own refusals (no route: 404 or 405, a body that is not
    JSON or too deep to read: 400, one too large: 413) as JSON with a ``code``."""
    if e.status_code in (204, 304):
        return Response(status_code=e.status_code, headers=e.headers)
    code = "not_found" if e.status_code in (404, 405) else "invalid_request"
    return JSONResponse({"detail": str(e.detail), "code": code, "params": {}},
                        e.status_code, e.headers)


async def _validation_response(request: Request, e: RequestValidationError) -> Response:
    """FastAPI's 422 with code ``invalid_request``: each error's type, place and message,
    and what was given, cut short (:func:`_given`: a lone surrogate shown as U+FFFD, a
    megabyte string or a deep list not echoed whole, 1e400 or NaN as text)."""
    detail = []
    for err in e.errors()[:10]:
        item: dict[str, Any] = {
            "type": str(err.get("type", "")),
            "loc": [x if isinstance(x, int) else _given(x) for x in err.get("loc", ())],
            "msg": _given(err.get("msg", ""), 300),
            "input": _given(err.get("input")),
        }
        if isinstance(err.get("ctx"), dict):
            item["ctx"] = {_given(k): _given(v) for k, v in err["ctx"].items()}
        detail.append(item)
    body = json.dumps({"detail": detail, "code": "invalid_request", "params": {}},
                      ensure_ascii=False, allow_nan=False).encode()
    return Response(body, 422, media_type="application/json")


def _given(value: Any, limit: int = 100) -> Any:
    """What a client sent, as JSON that cannot fail: text cut to ``limit`` characters
    (a lone surrogate replaced), a number out of JSON's range as text, and a list or an
    object (any depth) named by its kind only."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):  # beyond 2**53 a page's JavaScript would round it
        return value if value.bit_length() <= 53 else f"an integer of {value.bit_length()} bits"
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        cut = value[:limit + 1]  # shown() marks the cut
        return shown(cut.encode("utf-16", "surrogatepass").decode("utf-16", "replace"), limit)
    if isinstance(value, (list, tuple, dict)):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    return shown(type(value).__name__, limit)


HANDLERS: tuple[tuple[type[Exception], Callable[[Request, Any], Awaitable[Response]]], ...] = (
    (LimitError, _limit_response),
    (Refusal, _refusal_response),
    (RequestValidationError, _validation_response),
    (StorageError, _storage_response),
    (StarletteHTTPException, _http_response),
)
"""Each error the routes raise, with its answer, in the order the app installs them."""
