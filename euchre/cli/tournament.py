"""``euchre tournament``: bots against each other over many duplicate deals, on every core
(as many as there are pieces of work: a chunk of deal sets under one seating).

The work is :mod:`euchre.jobs.tournament`'s; this command reads the options, shows a progress
bar on standard error and prints the results table (or, with ``--json``, one JSON object).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from euchre.cli.chunks import (
    CheckpointOption,
    RayAddressOption,
    RayOption,
    WorkersOption,
    backend_of,
    chunk_bar,
)
from euchre.cli.options import (
    RulesGiven,
    SeedOption,
    bot_names,
    build_rules,
    fail,
    rules_options,
    show_progress,
)
from euchre.cli.results import describe_rules
from euchre.envs.ismcts import OPENSPIEL_DEFAULTS
from euchre.jobs.distributed import Backend, CheckpointError
from euchre.jobs.tournament import (
    CHUNK_SIZE,
    Tournament,
    TournamentResult,
    check_bots,
    default_workers,
    run_tournament,
    work_units,
)

__all__ = ["tournament"]


@rules_options(not_here={
    "draw": "a tournament seats the bots itself, under every seating",
    "rubber": "a tournament plays deal sets and games, not rubbers"})
def tournament(
    rules_given: RulesGiven,
    bots: Annotated[str, typer.Option(
        "--bots", metavar="A,B[,...]",
        help="The bots: two names (four-handed: partners, A at seats 0 and 2; three- and "
             "five-handed: one seat A, the rest B, and the other way round), or one name "
             "per seat. expert, pimc (the expert before inference and learned bids), "
             "lookahead (the expert choosing its next card per information set) and "
             "intermediate stop on a time budget; expert:WORLDS (pimc:WORLDS, "
             "lookahead:WORLDS, intermediate:WORLDS) samples that many worlds a decision "
             "instead, so the results are the same for a seed on any machine or cluster; "
             "the expert bids by the trained CFR strategy four-handed, "
             "expert:WORLDS:cfr wherever one is trained, expert:WORLDS:nocfr never; "
             "expert:WORLDS:am plays "
             "its cards by alpha-mu search two cards deep (amN: N deep), and "
             "expert:WORLDS:cfr:am does both. "
             "cismcts[:SIMS] is information-set MCTS compiled over our rules "
             "(every variant, no OpenSpiel). ismcts[:SIMS[:WORLDS]] needs OpenSpiel and "
             "plays every variant; "
             "four-handed it turns on OpenSpiel's rules unless told otherwise (the dealer "
             "must take up, stick the dealer). policy:PATH plays a policy saved by "
             "examples/maskable_ppo.py (the rl extra).")] = "basic,random",
    deals: Annotated[int, typer.Option(
        "--deals", "-k", metavar="K",
        help="Deal sets to play; each is played under every seating.")] = 1000,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate/--no-duplicate",
        help="Replay each shuffled deal under every seating, so each bot holds each hand "
             "(the cards cancel out); --no-duplicate shuffles afresh for every seating.")
    ] = True,
    workers: WorkersOption = None,
    chunk_size: Annotated[int, typer.Option(
        "--chunk-size", metavar="C",
        help="Deal sets per chunk: a piece of work is a chunk under one seating. Games are "
             "cut at chunks (the last game of a chunk is finished with extra deals), so "
             "the results depend on it; larger chunks cost less scheduling on a cluster.")
    ] = CHUNK_SIZE,
    seed: SeedOption = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    checkpoint: CheckpointOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object on standard output (a progress bar shows "
                       "on standard error only when that is a terminal), "
                       "with a `results` list: one entry per bot with bot, "
                       "points_per_deal, ci95, margin, margin_ci95, games, wins, "
                       "win_rate, elo, utility, utility_ci95, utility_margin and "
                       "utility_margin_ci95 (utility: a seat's points minus the others' "
                       "mean).")] = False,
) -> None:
    """Play bots against each other over many deals and rank them.

    Each deal set is one shuffle played again under every seating (duplicate), so every
    bot holds every hand. The table gives points per deal with a 95% confidence
    interval, the margin over the other bots, the share of games won when the deals
    are played as games to the target, and an Elo rating (mean 1500). See
    euchre.jobs.tournament for the exact definitions.
    """
    given = rules_given.options
    if rules_given.players == 4 and any(name.strip().lower().partition(":")[0] == "ismcts"
                                        for name in bots.split(",")):
        given = {**OPENSPIEL_DEFAULTS, **given}  # ismcts searches OpenSpiel's own game
    rules = build_rules(rules_given.players, **given)
    if deals < 2:
        fail(f"--deals is a number of deal sets, 2 or more (for a confidence interval), "
             f"not {deals}")
    backend = backend_of(ray, ray_address, workers)
    names = [bot_names(name, 1)[0] for name in bots.split(",")]
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    try:
        t = Tournament(rules, tuple(names), deals, duplicate=duplicate, seed=seed,
                       chunk_size=chunk_size)
        check_bots(t)
    except (ValueError, ImportError) as e:
        fail(str(e))
    asked = workers or default_workers()
    if backend.kind == "local":
        backend = Backend("local", min(asked, work_units(t)), auto=workers is None)
    try:
        result = _run(t, backend, checkpoint, progress=show_progress(json_out))
    except (CheckpointError, ImportError) as e:
        fail(str(e))
    if json_out:
        typer.echo(json.dumps(result.to_json()))
    else:
        _table(Console(highlight=False), result,
               asked if backend.kind == "local" else result.workers)


def _run(t: Tournament, backend: Backend, checkpoint: Path | None,
         progress: bool) -> TournamentResult:
    with chunk_bar("tournament", work_units(t), progress, checkpoint) as update:
        return run_tournament(t, backend=backend, checkpoint=checkpoint, status=update)


def _pm(value: float, ci: tuple[float, float] | None, sign: bool = False) -> str:
    """``1.480 ± 0.078``: the value and the half-width of its 95% interval."""
    text = f"{value:+.3f}" if sign else f"{value:.3f}"
    return text if ci is None else f"{text} ± {(ci[1] - ci[0]) / 2:.3f}"


def played_words(result: TournamentResult, asked: int) -> str:
    """How many deals were played and why, and on how many workers and why.

    Every deal set is played under every seating; then each seating's game still going
    when a chunk's sets run out is finished with extra deals, which count for the games
    but not for points per deal (see :mod:`euchre.jobs.tournament`).
    """
    t = result.tournament
    rotations = len(t.seatings)
    base = t.deals * rotations
    extra = result.deals_played - base
    text = (f"{result.deals_played} deals played: {t.deals} deal sets × {rotations} "
            f"seating{'s' if rotations != 1 else ''} = {base}")
    if extra:
        text += (f", and {extra} more to finish the games still going when the deal sets "
                 f"ran out (they count for the games, not for points per deal)")
    speed = result.deals_played / result.seconds if result.seconds > 0 else float("inf")
    text += (f"; {result.games} games, in {result.seconds:.1f} s on {result.workers} "
             f"worker{'s' if result.workers != 1 else ''}")
    units = work_units(t)
    if result.workers < asked and units >= asked:
        text += f", not {asked}: workers start only for work that pays for their start"
    elif result.workers < asked:
        text += (f", not {asked}: the work is {units} piece{'s' if units != 1 else ''} "
                 f"({t.chunks} chunk{'s' if t.chunks != 1 else ''} of up to {t.chunk_size} "
                 f"deal sets × {rotations} seating{'s' if rotations != 1 else ''}), one "
                 f"per worker")
    return text + f": {speed:.0f} deals per second"


def _table(console: Console, result: TournamentResult, asked: int) -> None:
    """The results table and a line on how it was played."""
    t = result.tournament
    rotations = len(t.seatings)
    console.print(f"[bold]{t.deals} deal sets × {rotations} seating"
                  f"{'s' if rotations != 1 else ''}[/] "
                  f"({'duplicate' if t.duplicate else 'not duplicate'}) · "
                  f"{describe_rules(t.rules)}")
    table = Table()
    table.add_column("bot")
    table.add_column("points/deal ± 95%", justify="right")
    table.add_column("margin ± 95%", justify="right")
    with_utility = t.rules.players in (3, 5)
    if with_utility:
        table.add_column("utility margin ± 95%", justify="right")
    table.add_column("games won", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("Elo", justify="right")
    ranked = sorted(result.results, key=lambda r: -r.points_per_deal)
    for r in ranked:
        margin = "–" if r.margin is None else _pm(r.margin, r.margin_ci95, sign=True)
        extra = []
        if with_utility:
            extra.append("–" if r.utility_margin is None
                         else _pm(r.utility_margin, r.utility_margin_ci95, sign=True))
        table.add_row(r.bot, _pm(r.points_per_deal, r.ci95), margin, *extra,
                      f"{r.wins:g} / {r.games}", f"{100 * r.win_rate:.1f}", f"{r.elo:.0f}")
    console.print(table)
    console.print("[dim]points/deal: a seat's points per deal, over the seats the bot held; "
                  "margin: minus the other bots'; "
                  + ("utility: a seat's points minus the others' mean, the measure under "
                     "which this game is zero-sum; " if with_utility else "")
                  + f"games: the deals played as games to {t.rules.target} under every "
                  "seating, a shared win split[/]")
    console.print(f"{played_words(result, asked)} [dim](seed {t.seed})[/]")
