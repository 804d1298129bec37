"""A crowd costs the server O(N) messages, and tables nobody came to do not stay.

The probe of the open internet found every connect and disconnect sending the whole
state to every socket of the table (1,500 spectators: 1.12 M messages), and tables made
and never opened holding the cap for a day.  Now a spectator who comes gets the state
alone, the players hear the watching count at most once a second, a slow spectator gets
the newest state rather than every one, and a table nobody came to closes within minutes
(docs/server.md, "Limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from serverkit import Database, Server, latest_state
from websockets.sync.client import ClientConnection

from euchre.rules import Rules
from euchre.server import table as table_module
from euchre.server.app import open_storage
from euchre.server.outbox import Connection
from euchre.server.registry import Tables
from euchre.server.storage import PlaceRecord
from euchre.server.table import Settings

WAITING = [{"kind": "you", "name": "Ann"}, {"kind": "friend", "name": "Bo"}]
"""A table waiting for its invited player: nothing moves while the crowd comes."""


def _drain(ws: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """Every message that arrives within ``seconds``."""
    got = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            got.append(json.loads(ws.recv(timeout=left)))
        except TimeoutError:
            break
    return got


def test_a_spectator_who_comes_gets_the_state_alone(server: Server) -> None:
    answer = server.create({"players": 2}, WAITING)
    crowd = 40
    with server.ws(answer["id"], answer["token"]) as player:
        latest_state(player)
        _drain(player, 0.2)
        began = time.monotonic()
        with contextlib.ExitStack() as stack:
            spectators = [stack.enter_context(server.ws(answer["id"])) for _ in range(crowd)]
            took = time.monotonic() - began
            heard = _drain(player, 2 * table_module.PRESENCE_DELAY + 0.5)
            seen = [_drain(ws, 0.3) for ws in spectators]
    # each spectator got one state, its own: none for the others who came after it
    assert [sum(m["type"] == "state" for m in got) for got in seen] == [1] * crowd
    # the player heard the watching count once per PRESENCE_DELAY, not once a spectator
    states = [m for m in heard if m["type"] == "state"]
    assert 1 <= len(states) <= took / table_module.PRESENCE_DELAY + 2
    assert states[-1]["table"]["watching"] == crowd


def test_a_player_who_comes_is_shown_connected_to_everyone_at_once(server: Server) -> None:
    answer = server.create({"players": 2}, [{"kind": "you", "name": "Ann"},
                                            {"kind": "open"}])
    joined = server.http.post(f"/api/tables/{answer['id']}/join",
                              json={"place": 1, "name": "Bo"}).json()
    with server.ws(answer["id"]) as spectator:
        latest_state(spectator)
        with server.ws(answer["id"], joined["token"]):
            state = latest_state(spectator)
            seats = {s["place"]: s for s in state["table"]["seats"]}
            assert seats[1]["connected"] is True


def test_a_slow_spectator_gets_the_newest_state_not_every_one() -> None:
    async def scenario() -> list[str]:
        sent: list[str] = []
        gate = asyncio.Event()

        async def send(text: str) -> None:
            await gate.wait()  # the client reads nothing until the gate opens
            sent.append(text)

        conn = Connection(send, None)
        conn.push('{"type":"hello"}')
        await asyncio.sleep(0)  # the pump waits on the first message
        for n in range(5):
            conn.push_state(f'{{"type":"state","seq":{n}}}')
        conn.push('{"type":"pong"}')
        conn.push_state('{"type":"state","seq":5}')
        gate.set()
        await conn.close()
        return sent

    sent = asyncio.run(scenario())
    assert sent == ['{"type":"hello"}', '{"type":"state","seq":5}', '{"type":"pong"}']


def test_a_table_nobody_came_to_closes_within_minutes(database: Database) -> None:
    async def scenario() -> None:
        store = open_storage(database("unvisited"), synchronous="NORMAL")
        tables = Tables(store, Settings(idle_expiry=24 * 3600, unvisited_expiry=300))
        rules = Rules(players=2)

        def seats(token: str) -> list[PlaceRecord]:
            return [PlaceRecord(0, "you", "Ann", None, token, True),
                    PlaceRecord(1, "bot", "Bea", "basic")]

        nobody = await tables.create("nobody", rules, seats("t1"))
        visited = await tables.create("visited", rules, seats("t2"))
        watched = await tables.create("watched", rules,
                                      [PlaceRecord(0, "bot", "Ada", "random"),
                                       PlaceRecord(1, "bot", "Bea", "random")])

        async def nowhere(text: str) -> None:
            pass

        for table, place in ((visited, 0), (watched, None)):  # someone came, then left
            conn = Connection(nowhere, place, token="t2" if place == 0 else None)
            await table.audience.join(conn)
            table.audience.leave(conn)
            await conn.close()
        assert nobody.unvisited and not visited.unvisited
        assert watched.visited  # at a table of bots only, a spectator is who it was for
        soon = nobody.created + 299
        assert await tables.expire_idle(soon) == []
        assert await tables.expire_idle(nobody.created + 301) == [nobody.id]
        assert await store.load_table(nobody.id) is None  # gone with its game
        assert await store.load_table(visited.id) is not None
        await tables.stop()
        await store.close()

    asyncio.run(scenario())
