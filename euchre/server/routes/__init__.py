"""The app's routes, one :class:`fastapi.APIRouter` per resource, and what they share
(:mod:`.deps`: FastAPI dependencies; :mod:`.refusals`: how a request is refused).

=================  ======================================================================
:mod:`.pages`      the lobby's and a table's page, the rules pages, the page's words
:mod:`.options`    the variants, bots and rules options the lobby's form is made of
:mod:`.tables`     the lobby's list, a new table, one table's facts, deleting a table
:mod:`.seats`      taking a place (an invitation, an open seat), leaving it
:mod:`.host`       the host's powers, with the host link's key
:mod:`.nights`     a club night: its players, rounds and the tables' results
:mod:`.seasons`    a season of nights: leaderboard, ratings; a night's export
:mod:`.history`    a finished game: its page, record, replay, and the expert's review
:mod:`.puzzles`    the puzzles' page and API: a puzzle served, an answer judged
:mod:`.websocket`  the table's WebSocket
=================  ======================================================================
"""

from __future__ import annotations

from fastapi import APIRouter

from euchre.server.routes import (
    history,
    host,
    nights,
    options,
    pages,
    puzzles,
    seasons,
    seats,
    tables,
    websocket,
)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (pages.router, options.router, tables.router, seats.router,
                                  host.router, nights.router, seasons.router,
                                  history.router, puzzles.router, websocket.router)
"""Every router, in the order the app includes them (the API's schema lists its paths
in this order)."""
