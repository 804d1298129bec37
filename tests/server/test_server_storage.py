"""The storage, on SQLite and on PostgreSQL: what is written is read back, concurrent
writes (grouped into commits on SQLite) fail alone, and the data survives reopening."""

from __future__ import annotations

import asyncio

import pytest
from serverkit import Database

from euchre.server.app import open_storage
from euchre.server.storage import (
    MatchRecord,
    PlaceRecord,
    StorageConflict,
    StorageError,
    TableRecord,
)


def _table(table_id: str) -> TableRecord:
    places = [PlaceRecord(0, "you", "Ann", None, f"tok-{table_id}", True),
              PlaceRecord(1, "bot", "Bea", "basic")]
    return TableRecord(table_id, "a table", {"players": 2}, places,
                       [MatchRecord(1, 12345, started=1.0)], created=1.0)


def test_tables_actions_and_results_are_read_back(database: Database) -> None:
    async def main() -> None:
        store = open_storage(database("s"), synchronous="NORMAL")
        await store.create_table(_table("t1"))
        await store.create_table(_table("t2"))
        await store.append_action("t1", 1, 0, 1, "pass")
        await store.append_action("t1", 1, 1, 0, "order")
        assert await store.claim_place("t1", 0, "Annie")
        # a place already taken is not given away again to someone asking for an open one
        assert not await store.claim_place("t1", 0, "Zed", open_only=True)
        await store.finish_match("t2", 1, {"games": [{"scores": [10, 2], "winners": [0]}]})
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert loaded.rules == {"players": 2}
        assert [(p.name, p.kind, p.token, p.claimed) for p in loaded.places] == [
            ("Annie", "you", "tok-t1", True), ("Bea", "bot", None, False)]
        assert loaded.matches[0].seed == 12345
        assert loaded.matches[0].actions == [(1, "pass"), (0, "order")]
        assert await store.actions_since("t1", 1, 1) == [(0, "order")]
        assert await store.actions_since("t1", 1, 2) == []
        with pytest.raises(StorageConflict):  # action 1 is stored already
            await store.append_action("t1", 1, 1, 0, "pass")
        assert [t.id for t in await store.unfinished_tables()] == ["t1"]
        finished = await store.finished_matches()
        assert [(t.id, m.number, m.result) for t, m in finished] == [
            ("t2", 1, {"games": [{"scores": [10, 2], "winners": [0]}]})]
        assert await store.load_table("nope") is None
        await store.start_match("t2", 2, 99)
        assert [t.id for t in await store.unfinished_tables()] == ["t1", "t2"]
        await store.close()
        with pytest.raises(StorageError):
            await store.append_action("t1", 1, 2, 1, "pass")

    asyncio.run(main())


def test_concurrent_writes_group_into_commits_and_a_bad_one_fails_alone(
        database: Database) -> None:
    async def main() -> None:
        store = open_storage(database("s"))  # FULL: each commit is synced
        await store.create_table(_table("t"))
        writes = [store.append_action("t", 1, i, i % 2, f"play {i}") for i in range(300)]
        writes.append(store.append_action("t", 1, 5, 0, "again"))  # index 5 twice
        results = await asyncio.gather(*writes, return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        assert len(failed) == 1 and isinstance(failed[0], StorageError)
        loaded = await store.load_table("t")
        assert loaded is not None
        assert [a for _, a in loaded.matches[0].actions] == [f"play {i}" for i in range(300)]
        await store.close()

    asyncio.run(main())


def test_the_data_survives_reopening(database: Database) -> None:
    async def write() -> None:
        store = open_storage(database("s"))
        await store.create_table(_table("t"))
        await store.append_action("t", 1, 0, 1, "pass")
        await store.close()

    async def read() -> list[tuple[int, str]]:
        store = open_storage(database("s"))
        loaded = await store.load_table("t")
        await store.close()
        assert loaded is not None
        return loaded.matches[0].actions

    asyncio.run(write())
    assert asyncio.run(read()) == [(1, "pass")]
