"""``euchre selfplay``: the Parquet files read back with pyarrow agree with ``euchre
replay --json`` of their deals, decision by decision."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from euchre.actions import NUM_ACTIONS, Action  # noqa: E402
from euchre.cli import app  # noqa: E402
from euchre.deal import Deal, Phase  # noqa: E402
from euchre.vector import observation_layout, observation_size  # noqa: E402

runner = CliRunner()


def selfplay(out: Path, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["selfplay", "--json", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay")
    selfplay(out, "--players", "3", "--bots", "expert", "--deals", "6", "--chunk-size", "4",
             "--seed", "5", "--worlds", "3", "--workers", "1")
    return out


def test_the_manifest_names_the_chunks_the_rows_and_the_schema(data: Path) -> None:
    manifest = json.loads((data / "manifest.json").read_text())
    assert manifest["format"] == "euchre-selfplay" and manifest["seed"] == 5
    assert [c["file"] for c in manifest["chunks"]] == ["chunk-000000.parquet",
                                                       "chunk-000001.parquet"]
    assert [c["deals"] for c in manifest["chunks"]] == [[0, 4], [4, 6]]
    tables = [pq.read_table(data / c["file"]) for c in manifest["chunks"]]
    assert [t.num_rows for t in tables] == [c["rows"] for c in manifest["chunks"]]
    assert manifest["rows"] == sum(t.num_rows for t in tables)
    assert [f["name"] for f in manifest["schema"]] == tables[0].schema.names
    assert manifest["parameters"]["worlds"] == 3 and manifest["parameters"]["bots"] == [
        "expert"] * 3
    assert manifest["observation_layout"]["hand"][:2] == [0, 33]
    assert manifest["actions"][0] == str(Action.from_id(0))
    assert {"euchre", "python", "pyarrow"} <= set(manifest["versions"])


def test_every_row_agrees_with_the_replay_of_its_deal(data: Path, tmp_path: Path) -> None:
    rows = pa.concat_tables([pq.read_table(p) for p in sorted(data.glob("*.parquet"))])
    table = rows.to_pydict()
    deals = sorted(set(table["deal"]))
    assert deals == list(range(6))
    hand = observation_layout(3)["hand"]
    weighed = 0
    for d in deals:
        at = [i for i, x in enumerate(table["deal"]) if x == d]
        record = json.loads(table["record"][at[0]])
        assert all(table["record"][i] == table["record"][at[0]] for i in at)
        path = tmp_path / f"deal{d}.json"
        path.write_text(json.dumps(record))
        replayed = runner.invoke(app, ["replay", "--json", str(path)])
        assert replayed.exit_code == 0, replayed.output
        summary = json.loads(replayed.stdout)
        assert all(table["points"][i] == summary["points"] for i in at)
        # the rows are the deal's actions, in order, each legal where it was taken
        assert [table["decision"][i] for i in at] == list(range(len(at)))
        assert [str(Action.from_id(table["action"][i])) for i in at] == record["actions"]
        deal = Deal.from_record(record, apply_actions=False)
        for i in at:
            seat = deal.to_move
            assert seat is not None and table["seat"][i] == seat
            legal = deal.legal_action_ids()
            assert [a for a in range(NUM_ACTIONS) if table["legal"][i][a]] == legal
            obs = table["observation"][i]
            assert len(obs) == observation_size(3)
            cards = [c for c in range(33) if obs[hand[0] + c]]
            assert cards == sorted(int(c) for c in deal.hand(seat))
            values = table["values"][i]
            valued = [a for a in range(NUM_ACTIONS)
                      if values[a] is not None and not math.isnan(values[a])]
            assert set(valued) <= set(legal)
            if len(legal) > 1 and valued:
                assert table["action"][i] in valued  # the expert took one it weighed
                assert values[table["action"][i]] == max(values[a] for a in valued)
                weighed += 1
            elif len(legal) > 1:  # a bid of the learned strategy: no values weighed
                assert deal.phase is not Phase.PLAY
            else:
                assert valued == []
            deal.apply(table["action"][i])
        assert deal.is_over
    assert weighed > 0


def test_the_same_seed_gives_the_same_rows_on_any_number_of_workers(
        data: Path, tmp_path: Path) -> None:
    selfplay(tmp_path, "--players", "3", "--bots", "expert", "--deals", "6", "--chunk-size",
             "4", "--seed", "5", "--worlds", "3", "--workers", "2")
    for name in ("chunk-000000.parquet", "chunk-000001.parquet"):
        a, b = pq.read_table(data / name), pq.read_table(tmp_path / name)
        assert a.drop(["values"]).equals(b.drop(["values"]))
        va, vb = a.column("values").to_pylist(), b.column("values").to_pylist()
        assert json.dumps(va) == json.dumps(vb)  # NaN written the same way on both sides


def test_other_bots_write_no_values(tmp_path: Path) -> None:
    selfplay(tmp_path, "--players", "2", "--bots", "basic,random", "--deals", "2",
             "--seed", "1", "--workers", "1")
    table = pq.read_table(tmp_path / "chunk-000000.parquet").to_pydict()
    assert all(math.isnan(v) for row in table["values"] for v in row)


def test_without_pyarrow_one_line_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    result = runner.invoke(app, ["selfplay", "--out", str(tmp_path), "--deals", "1"])
    assert result.exit_code == 2
    assert "pip install -e '.[data]'" in result.stderr
    assert list(tmp_path.iterdir()) == []
