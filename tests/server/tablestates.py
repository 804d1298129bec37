"""States of a table as the server sends them to seat 0, one for every kind of moment:
each bidding round, the dealer's exchange, the dummy, the partner call, defending alone,
the play, a deal's summary, the game's end.  The browser tests show each of them at
several window sizes (see ``test_server_browser_layout.py``).

Each state comes from a real :class:`~euchre.server.table.Table` rebuilt from a stored
list of actions, exactly as the server would send it; the actions are found by playing
a seeded game with a simple policy until the wanted moment comes.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from euchre.actions import Action, ActionKind
from euchre.deal import Deal, Phase
from euchre.game import Match
from euchre.rules import Rules
from euchre.server.storage import MatchRecord, PlaceRecord, TableRecord
from euchre.server.table import Settings, Table

__all__ = ["MOMENTS", "hello", "state_for"]

NAMES = ("Pat", "Bea", "Cal", "Dot", "Eve")
ME = 0

Policy = Callable[[Deal, int], Action]
"""Who does what: ``policy(deal, seat)`` for the seat to move."""
Done = Callable[[Match], bool]
"""Whether the wanted moment has come."""


def _first(deal: Deal, seat: int) -> Action:
    return deal.legal_actions()[0]


def _passing(deal: Deal, seat: int) -> Action:
    """Everybody passes while passing is legal."""
    legal = deal.legal_actions()
    return next((a for a in legal if a.kind is ActionKind.PASS), legal[0])


def _i_order(deal: Deal, seat: int) -> Action:
    """I order it up (not alone); the others pass the bidding, then play on."""
    legal = deal.legal_actions()
    if seat == ME:
        return next((a for a in legal if a.kind is ActionKind.ORDER and not a.alone), legal[0])
    return _passing(deal, seat)


def _left_orders(deal: Deal, seat: int) -> Action:
    """The seat at my left orders it up; everybody else passes while they may."""
    legal = deal.legal_actions()
    if seat == 1:
        return next((a for a in legal if a.kind is ActionKind.ORDER and not a.alone), legal[0])
    return _passing(deal, seat)


def _my_turn_in(phase: Phase, trick: int | None = None) -> Done:
    def done(match: Match) -> bool:
        deal = match.game.deal
        return (deal.to_move == ME and deal.phase is phase
                and (trick is None or len(deal.current_trick) == trick))
    return done


def _deal_over(match: Match) -> bool:
    return len(match.game.deals) >= 1 and match.game.deal.to_move is not None


def _game_over(match: Match) -> bool:
    return match.is_over


MOMENTS: dict[str, tuple[Rules, Policy, Done, bool]] = {
    # name: rules, policy, when to stop, whether the state is a deal's summary to read
    "four-bid-round-1": (Rules(players=4), _passing, _my_turn_in(Phase.BID_TURNUP), False),
    "four-bid-round-2": (Rules(players=4), _passing, _my_turn_in(Phase.BID_SUIT), False),
    "four-exchange": (Rules(players=4), _i_order, _my_turn_in(Phase.EXCHANGE), False),
    "four-play-last-to-a-trick": (Rules(players=4), _left_orders,
                                  _my_turn_in(Phase.PLAY, trick=3), False),
    "three-dummy": (Rules(players=3), _i_order, _my_turn_in(Phase.DUMMY), False),
    "three-defend-alone": (Rules(players=3), _left_orders, _my_turn_in(Phase.DEFEND), False),
    "five-call-partner": (Rules(players=5), _i_order, _my_turn_in(Phase.CALL_PARTNER), False),
    "five-play": (Rules(players=5), _left_orders, _my_turn_in(Phase.PLAY, trick=4), False),
    "two-play": (Rules(players=2), _left_orders, _my_turn_in(Phase.PLAY, trick=1), False),
    "five-summary": (Rules(players=5), _first, _deal_over, True),
    "four-game-over": (Rules(players=4, target=3, stick_the_dealer=True), _first,
                       _game_over, False),
}


def _actions(rules: Rules, policy: Policy, done: Done) -> tuple[int, list[tuple[int, str]]]:
    """A seed and the actions that bring its game to the wanted moment."""
    for seed in range(200):
        match = Match(rules, seed, 1)
        for _ in range(2000):
            if done(match):
                return seed, list(match.actions)
            if match.is_over:
                break
            deal = match.game.deal
            seat = deal.to_move
            assert seat is not None
            match.apply(policy(deal, seat), seat)
    raise AssertionError(f"no seed brings {rules} to the wanted moment")


def _table(name: str) -> Table:
    rules, policy, done, reading = MOMENTS[name]
    seed, actions = _actions(rules, policy, done)
    places = [PlaceRecord(0, "you", NAMES[0], None, "token", True)]
    places += [PlaceRecord(i, "bot", NAMES[i], "basic") for i in range(1, rules.players)]
    record = TableRecord(f"t-{name}", f"{rules.variant} euchre", rules.to_dict(), places,
                         [MatchRecord(1, seed, actions)], 0.0)
    table = Table(record, storage=None, settings=Settings())  # type: ignore[arg-type]
    if reading:
        table.play.reading = {0}
    return table


@functools.cache
def state_for(name: str) -> str:
    """The state message seat 0 gets at the moment ``name`` of :data:`MOMENTS`, as JSON."""
    return json.dumps(_table(name).audience.state(ME))


def hello(name: str) -> str:
    """The hello message that comes before it."""
    return json.dumps({"type": "hello", "table": f"t-{name}", "place": 0, "seat": 0,
                       "role": "player", "pause_ms": 0, "owner": True})


def _check() -> dict[str, Any]:  # pragma: no cover - a quick look by hand
    return {name: json.loads(state_for(name))["deal"]["phase"] for name in MOMENTS}


if __name__ == "__main__":  # pragma: no cover
    print(_check())
