"""On the server's path an action is checked, stored, applied, then every seat is shown
the new state; the legal choices of each state are computed once along it (RULES §4-§8):
the view of the seat to move, the check and the apply share them."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from pathlib import Path

from euchre.rules import Rules
from euchre.server.app import open_storage
from euchre.server.outbox import Connection
from euchre.server.registry import Tables
from euchre.server.storage import PlaceRecord
from euchre.server.table import Settings


async def _nowhere(text: str) -> None:
    pass


def test_a_persons_actions_compute_the_legal_choices_once_a_state(
        tmp_path: Path, computed: Counter[tuple[int, int]]) -> None:
    """Two people play a game to its end through :meth:`.Play.act`, each choosing from
    the choices its page was shown; no state's choices are computed twice."""

    async def scenario() -> int:
        store = open_storage(tmp_path / "legal.sqlite3", synchronous="OFF")
        tables = Tables(store, Settings())
        places = [PlaceRecord(0, "you", "Ann", None, "t0", True),
                  PlaceRecord(1, "friend", "Bo", None, "t1", True)]
        table = await tables.create("once", Rules(players=2, target=3,
                                                  stick_the_dealer=True), places)
        conns = {p: Connection(_nowhere, p) for p in (0, 1)}
        for conn in conns.values():
            await table.audience.join(conn)
        rng = random.Random(5)
        actions = 0
        while not table.play.is_over:
            deal = table.match.game.deal
            seat = deal.to_move
            assert seat is not None
            shown = table.audience.state(seat)["deal"]["legal"]  # what the page offers
            conn = conns[table.match.place_at[seat]]
            assert await table.play.act(conn, rng.choice(shown), table.match.seq) is None
            actions += 1
        await tables.stop()
        await store.close()
        return actions

    actions = asyncio.run(scenario())
    assert actions > 20
    assert computed and max(computed.values()) == 1, [k for k, n in computed.items() if n > 1]


def test_the_bots_actions_compute_the_legal_choices_once_a_state(
        tmp_path: Path, computed: Counter[tuple[int, int]]) -> None:
    """A table of bots plays its game to the end (each bot's choice is checked against
    its observation's choices, then stored and applied): once a state."""

    async def scenario() -> None:
        store = open_storage(tmp_path / "bots.sqlite3", synchronous="OFF")
        tables = Tables(store, Settings())
        places = [PlaceRecord(p, "bot", name, "basic") for p, name in enumerate("ABC")]
        table = await tables.create("bots", Rules(players=3, target=3,
                                                  stick_the_dealer=True), places)
        await table.audience.join(Connection(_nowhere, None))  # a spectator: bots play for it
        for _ in range(6000):
            if table.play.is_over:
                break
            await asyncio.sleep(0.005)
        assert table.play.is_over
        await tables.stop()
        await store.close()

    asyncio.run(scenario())
    assert computed and max(computed.values()) == 1, [k for k, n in computed.items() if n > 1]
