"""``euchre selfplay``: bots play deals and every decision is written as a row of Parquet
(the seat's observation, the legal actions, the action, the bot's values, the deal's
points and record), chunk by chunk, with a ``manifest.json``; see :mod:`euchre.jobs.selfplay`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer

from euchre.cli.chunks import (
    CheckpointOption,
    RayAddressOption,
    RayOption,
    WorkersOption,
    backend_of,
    chunk_bar,
)
from euchre.cli.options import (
    BotsOption,
    RulesGiven,
    SeedOption,
    bot_names,
    fail,
    make_bots,
    rules_options,
    show_progress,
)
from euchre.jobs.distributed import Backend, CheckpointError, run_job
from euchre.jobs.selfplay import CHUNK_SIZE, DEFAULT_WORLDS, SelfPlay, schema, write_manifest

__all__ = ["selfplay_command"]


@rules_options(not_here={"draw": "self-play plays single deals, not games",
                         "rubber": "self-play plays single deals, not games"})
def selfplay_command(
    out: Annotated[Path, typer.Option(
        "--out", metavar="DIR", file_okay=False,
        help="The folder for the Parquet files (chunk-NNNNNN.parquet) and manifest.json; "
             "made if missing.")],
    rules_given: RulesGiven,
    bots: BotsOption = "expert",
    deals: Annotated[int, typer.Option(
        "--deals", "-k", metavar="K", help="Deals to play.")] = 1000,
    seed: SeedOption = None,
    worlds: Annotated[int, typer.Option(
        "--worlds", metavar="W",
        help="Worlds the expert (and intermediate) bot samples per decision; fixed, so "
             "the data do not depend on the machine's speed.")] = DEFAULT_WORLDS,
    chunk_size: Annotated[int, typer.Option(
        "--chunk-size", metavar="C", help="Deals per chunk (per Parquet file).")
    ] = CHUNK_SIZE,
    workers: WorkersOption = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    checkpoint: CheckpointOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: the manifest's rows, deals, chunks and "
                       "path.")] = False,
) -> None:
    """Let bots play deals and write every decision as training data (Parquet).

    One row per decision: the seat's observation tensor, the legal-action mask, the
    action taken, the bot's value of each action it weighed (NaN elsewhere), the deal's
    final points by seat and the deal record, which `euchre replay` replays.
    """
    rules = rules_given.build()
    players = rules.players
    if deals < 1:
        fail(f"--deals is a number of deals, 1 or more, not {deals}")
    if worlds < 1 or chunk_size < 1:
        fail("--worlds and --chunk-size are 1 or more")
    names = bot_names(bots, players)
    make_bots(names, 0, rules)  # an unknown bot or one that refuses the rules: one line
    try:
        schema(players)  # pyarrow is there
    except ImportError as e:
        fail(str(e))
    backend = backend_of(ray, ray_address, workers)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    job = SelfPlay(rules, tuple(names), deals, seed, str(out), chunk_size, worlds)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot make the folder {out}: {e.strerror}", 1)
    if backend.kind == "local":
        from euchre.jobs.tournament import default_workers

        backend = Backend("local", min(workers or default_workers(), job.units()))
    try:
        with chunk_bar("self-play", job.units(), show_progress(json_out),
                       checkpoint) as update:
            run = run_job(job, backend, checkpoint, update)
    except (CheckpointError, ImportError) as e:
        fail(str(e))
    path = write_manifest(job, run)
    rows = sum(s["rows"] for s in run.summaries)
    if json_out:
        typer.echo(json.dumps({"rows": rows, "deals": deals, "chunks": len(run.summaries),
                               "manifest": str(path), "seconds": round(run.seconds, 6)}))
    else:
        rate = deals / run.seconds if run.seconds > 0 else float("inf")
        typer.echo(f"{rows} decisions of {deals} deals in {len(run.summaries)} chunks, "
                   f"{run.seconds:.1f} s ({rate:.1f} deals per second): {path}")
