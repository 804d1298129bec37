"""Self-play data: every decision of every deal, as Parquet files a training job can stream.

A :class:`SelfPlay` names the rules, the bots (one name per seat), the number of deals and
a seed.  Deal ``d`` is ``Deal.random(rules, dealer_d, random.Random(f"{seed}/deal/{d}"))``,
dealt by ``(first dealer + d) mod n`` and played from a score of 0, each seat's bot
seeded from the seed, the deal and the seat; so a deal depends on the seed and its number
only, never on the chunk, the worker or the machine that played it.  The ``expert`` and
``intermediate`` bots sample a fixed number of worlds per decision (``worlds``; no time
budget, which would make the data depend on the machine's speed).

The deals go out in chunks of :attr:`SelfPlay.chunk_size` (:mod:`euchre.jobs.distributed`:
this machine's cores, or Ray); a worker encodes its chunk as Parquet and the driver writes
the bytes as ``chunk-NNNNNN.parquet`` in the output folder as they come back, and
:func:`write_manifest` ends with ``manifest.json``.  One row per decision (:func:`schema`):

``deal``
    the deal's number (``int64``); ``decision``: its place in the deal (``int16``);
``seat``
    the seat to move (``int8``);
``observation``
    what RULES §12 lets that seat know, the tensor of :func:`euchre.vector.observation_layout`
    (``float32``, fixed size for the player count);
``legal``
    the legal actions, a mask over the action ids of :mod:`euchre.actions` (``bool``, 111);
``action``
    the action id taken (``int16``);
``values``
    the bot's value of each action it weighed, in the unit of
    :meth:`euchre.bots.expert.ExpertBot.evaluate` (its side's points minus the opponents'
    for the deal, with a game bonus), NaN for every action it did not weigh, all NaN for a
    bot that computes no values and for the expert's bids drawn from its learned strategy
    (:data:`euchre.bots.cfr.ADOPTED`) (``float32``, 111);
``points``
    the deal's final points by seat, RULES §9 (``int16``, one per seat);
``record``
    the deal record (RECORDS notation, JSON text), which ``euchre replay`` replays.

>>> import tempfile
>>> from euchre import Rules
>>> out = tempfile.mkdtemp()
>>> job = SelfPlay(Rules(players=2), ("basic", "basic"), deals=3, seed=1, out=out)
>>> summary = job.settle(0, job.run_unit(0))
>>> summary["deals"], summary["rows"] > 3
([0, 3], True)
"""

from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from euchre import core
from euchre.actions import NUM_ACTIONS, Action
from euchre.bots import Bot, choose, make_bot, normal_name
from euchre.bots.expert import PimcBot
from euchre.deal import Deal
from euchre.jobs.distributed import JobRun, versions
from euchre.rules import Rules
from euchre.vector import deal_state, observation_layout, observation_size, observe

__all__ = ["CHUNK_SIZE", "DEFAULT_WORLDS", "SelfPlay", "play_chunk", "schema",
           "write_manifest"]

CHUNK_SIZE: Final = 100
"""Deals per chunk (per Parquet file)."""
DEFAULT_WORLDS: Final = 32
"""Worlds the expert samples per decision in self-play."""
MANIFEST: Final = "manifest.json"


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ImportError("self-play writes Parquet with pyarrow: pip install -e '.[data]'"
                          ) from None
    return pyarrow


def schema(players: int) -> Any:
    """The Arrow schema of the rows for ``players`` seats."""
    pa = _pyarrow()
    return pa.schema([
        ("deal", pa.int64()),
        ("decision", pa.int16()),
        ("seat", pa.int8()),
        ("observation", pa.list_(pa.float32(), observation_size(players))),
        ("legal", pa.list_(pa.bool_(), NUM_ACTIONS)),
        ("action", pa.int16()),
        ("values", pa.list_(pa.float32(), NUM_ACTIONS)),
        ("points", pa.list_(pa.int16(), players)),
        ("record", pa.string()),
    ])


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """What to generate: rules, one bot name per seat, deals, seed, chunk size, the
    expert's worlds per decision, and the output folder (written by the driver)."""

    rules: Rules
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    out: str = "."
    chunk_size: int = CHUNK_SIZE
    worlds: int = DEFAULT_WORLDS

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", tuple(normal_name(b) for b in self.bots))
        if len(self.bots) != self.rules.players:
            raise ValueError(f"{self.rules.players} players need {self.rules.players} bot "
                             f"names, not {len(self.bots)}")
        if self.deals < 1:
            raise ValueError(f"self-play plays 1 or more deals, not {self.deals}")
        if self.chunk_size < 1 or self.worlds < 1:
            raise ValueError("the chunk size and the worlds are 1 or more")

    @property
    def first_dealer(self) -> int:
        """The dealer of deal 0; deal ``d`` is dealt by ``(first_dealer + d) mod n``."""
        return random.Random(f"{self.seed}/dealer").randrange(self.rules.players)

    def deal(self, index: int) -> Deal:
        """Deal ``index``, shuffled and dealt, nothing played."""
        dealer = (self.first_dealer + index) % self.rules.players
        return Deal.random(self.rules, dealer, random.Random(f"{self.seed}/deal/{index}"))

    def seat_bots(self, index: int) -> list[Bot]:
        """The bots of deal ``index``, seeded from the seed, the deal and the seat."""
        bots = [make_bot(name, random.Random(f"{self.seed}/bot/{index}/{s}"))
                for s, name in enumerate(self.bots)]
        for bot in bots:
            if isinstance(bot, PimcBot):
                bot.samples, bot.time_budget = self.worlds, None
        return bots

    def chunk_deals(self, chunk: int) -> range:
        """The deals of a chunk."""
        start = chunk * self.chunk_size
        return range(start, min(start + self.chunk_size, self.deals))

    # -- the work, for euchre.jobs.distributed ---------------------------------------------------
    kind = "selfplay"

    def units(self) -> int:
        """Chunks of deals."""
        return -(-self.deals // self.chunk_size)

    def parameters(self) -> dict[str, Any]:
        """What the data depend on (a checkpoint's identity), and where they go."""
        return {"rules": self.rules.to_dict(), "bots": list(self.bots), "deals": self.deals,
                "seed": self.seed, "chunk_size": self.chunk_size, "worlds": self.worlds,
                "out": str(Path(self.out).resolve())}

    def run_unit(self, unit: int) -> tuple[int, bytes]:
        """Play chunk ``unit``: its rows, and its Parquet file's bytes (encoded here, on
        the worker: some 70 times smaller than the rows in memory, for the trip back)."""
        pa = _pyarrow()
        table = play_chunk(self, unit)
        sink = pa.BufferOutputStream()
        pa.parquet.write_table(table, sink)
        return table.num_rows, sink.getvalue().to_pybytes()

    def settle(self, unit: int, output: tuple[int, bytes]) -> dict[str, Any]:
        """Write the chunk's Parquet file (whole, then renamed into place); its summary."""
        rows, data = output
        name = f"chunk-{unit:06d}.parquet"
        path = Path(self.out) / name
        part = path.with_name(name + ".part")
        with part.open("wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        part.replace(path)
        deals = self.chunk_deals(unit)
        return {"file": name, "rows": rows, "deals": [deals.start, deals.stop]}

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals in a chunk."""
        return int(summary["deals"][1] - summary["deals"][0])


def play_chunk(job: SelfPlay, chunk: int) -> Any:
    """Play a chunk's deals, every decision a row (see the module's docstring)."""
    pa = _pyarrow()
    n = job.rules.players
    columns: dict[str, list[Any]] = {name: [] for name in schema(n).names}
    for d in job.chunk_deals(chunk):
        deal = job.deal(d)
        bots = job.seat_bots(d)
        state = deal_state(deal)
        first = len(columns["deal"])
        step = 0
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            legal = np.zeros(NUM_ACTIONS, dtype=np.bool_)
            legal[deal.legal_action_ids()] = True
            obs = observe(state, seat)
            bot = bots[seat]
            action = choose(bot, deal)
            values = np.full(NUM_ACTIONS, math.nan, dtype=np.float32)
            for a, v in getattr(bot, "last_values", {}).items():
                values[a.id] = v
            columns["deal"].append(d)
            columns["decision"].append(step)
            columns["seat"].append(seat)
            columns["observation"].append(obs)
            columns["legal"].append(legal)
            columns["action"].append(action)
            columns["values"].append(values)
            deal.apply(action)
            if not _apply(state, action):
                raise AssertionError(f"the core refused action {Action.from_id(action)} of "
                                     f"deal {d}, which the engine took")
            step += 1
        points = list(deal.result.points)
        record = json.dumps(deal.to_record().to_json())
        for _ in range(first, len(columns["deal"])):
            columns["points"].append(points)
            columns["record"].append(record)
    sch = schema(n)
    arrays = []
    for field in sch:
        column = columns[field.name]
        if field.name in ("observation", "legal", "values"):
            size = field.type.list_size
            flat: Any = np.concatenate(column) if column else []
            arrays.append(pa.FixedSizeListArray.from_arrays(
                pa.array(flat, type=field.type.value_type), size))
        else:
            arrays.append(pa.array(column, type=field.type))
    return pa.Table.from_arrays(arrays, schema=sch)


def _apply(state: Any, action: int) -> bool:
    return bool(core.apply_action(state, action))


def write_manifest(job: SelfPlay, run: JobRun) -> Path:
    """``manifest.json`` in the output folder: the schema, the observation's layout, the
    action ids' texts, the chunks and their rows, the seed, the parameters, the versions."""
    sch = schema(job.rules.players)
    manifest = {
        "format": "euchre-selfplay",
        "version": 1,
        "rows": sum(s["rows"] for s in run.summaries),
        "deals": job.deals,
        "seed": job.seed,
        "parameters": job.parameters(),
        "schema": [{"name": f.name, "type": str(f.type)} for f in sch],
        "observation_layout": {k: list(v) for k, v in
                               observation_layout(job.rules.players).items()},
        "actions": [str(Action.from_id(a)) for a in range(NUM_ACTIONS)],
        "chunks": run.summaries,
        "versions": versions(),
    }
    path = Path(job.out) / MANIFEST
    part = path.with_name(MANIFEST + ".part")
    part.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    part.replace(path)
    return path
