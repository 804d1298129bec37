"""The pages: the lobby and a table's page (one single-page app, ``static/``), the rules
for players (``/rules/{lang}``), and the page's words in a language (``/api/i18n``)."""

from __future__ import annotations

import functools
import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from euchre.i18n import LANGUAGES, catalog_json, from_accept_language
from euchre.server.assets import revalidated
from euchre.server.protocol import is_table_id, shown
from euchre.server.routes.deps import shared_of
from euchre.server.routes.refusals import Refusal
from euchre.server.rulespage import asked_variant, rules_page

__all__ = ["page", "router"]

router = APIRouter()


def page(request: Request, status: int = 200) -> Response:
    """The single-page app's page, asked again on each use (a 304 while unchanged)."""
    return revalidated(request, shared_of(request).index, "text/html; charset=utf-8", status)


@functools.cache
def _catalog_bytes(lang: str) -> bytes:
    """The ``web`` catalog of ``lang`` as the JSON ``/api/i18n`` answers."""
    return json.dumps(catalog_json(lang, "web"), ensure_ascii=False,
                      separators=(",", ":")).encode()


@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> Response:
    return page(request)


@router.get("/table/{table_id}", include_in_schema=False)
async def table_page(request: Request, table_id: str) -> Response:
    """The page; an id that cannot be a table's is a 404 (the page says so)."""
    return page(request, 200 if is_table_id(table_id) else 404)


@router.get("/night/new", include_in_schema=False)
@router.get("/night/{night_id}", include_in_schema=False)
@router.get("/night/{night_id}/{view}", include_in_schema=False)
async def night_page(request: Request, night_id: str = "", view: str = "") -> Response:
    """A club night's pages (the organiser's, a player's, the standings for a projector,
    the printouts): the single-page app, which asks the night's API."""
    known = view in ("", "standings", "print")
    return page(request, 200 if known and len(night_id) <= 64 else 404)


@router.get("/season/{season_id}", include_in_schema=False)
async def season_page(request: Request, season_id: str) -> Response:
    """A season's page (its leaderboard and ratings; ``new`` makes one): the single-page
    app, which asks the season's API."""
    return page(request, 200 if len(season_id) <= 64 else 404)


@router.get("/rules/{lang}", include_in_schema=False)
async def rules(lang: str, variant: str | None = None) -> HTMLResponse:
    """How to play here and the rules, in ``lang`` (English where not yet
    translated), with the section of ``variant`` (2 to 5 players) open."""
    if lang not in LANGUAGES:
        raise Refusal(404, "no_rules", f"no rules in {shown(lang)!r}", lang=shown(lang))
    return HTMLResponse(rules_page(lang, asked_variant(variant)))


@router.get("/rules", include_in_schema=False)
async def rules_default(request: Request, variant: str | None = None) -> HTMLResponse:
    """The rules in the browser's language."""
    return HTMLResponse(rules_page(
        from_accept_language(request.headers.get("accept-language", "")),
        asked_variant(variant)))


@router.get("/api/i18n")
async def i18n(request: Request, lang: str | None = None) -> Response:
    """The page's words (the ``web`` catalog) in ``lang``, or in the language the
    browser's ``Accept-Language`` prefers; English for any other.  Asked again on
    each use, a 304 while unchanged."""
    chosen = lang is not None and lang in LANGUAGES
    if lang is None or lang not in LANGUAGES:
        lang = from_accept_language(request.headers.get("accept-language", ""))
    return revalidated(request, _catalog_bytes(lang), "application/json",
                       vary=None if chosen else "Accept-Language")
