"""``euchre bench``: how fast the solver and the bots are, like a chess engine's bench.

Only the command line: the options, a progress bar, and the report printed.  What is timed
and how the report reads are :mod:`euchre.jobs.bench`'s, which the scripts in
``benchmarks/`` use too.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from euchre.cli.options import RulesGiven, fail, rules_options

__all__ = ["bench_app"]

bench_app = typer.Typer(
    help="Time the open-hand solver, a bot's decisions, or the compiled rules core.",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
)


@bench_app.command("solver")
def bench_solver_command(
    deals: Annotated[int, typer.Option(help="Random four-handed deals to solve.")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Solve full four-handed deals from the first lead; median and p99 in µs."""
    if deals < 1:
        fail(f"--deals must be at least 1, not {deals}")
    from euchre.jobs.bench import bench_solver, format_bench

    report = bench_solver(deals=deals, seed=seed)
    typer.echo(json.dumps(report) if json_out else format_bench(report))


@bench_app.command("bot")
def bench_bot_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The bot: random, basic, ...")],
    deals: Annotated[int, typer.Option(help="Deals of each variant.")] = 50,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Time a bot's decisions over deals of every variant; median and p99 in ms."""
    from euchre.bots import make_bot
    from euchre.jobs.bench import bench_bot, format_bot_bench

    if deals < 1:
        fail(f"--deals must be at least 1, not {deals}")
    try:
        make_bot(name, 0)
    except (ValueError, ImportError) as e:
        fail(str(e))
    console = Console(stderr=True)
    with Progress(console=console, transient=True, disable=json_out) as bar:
        task = bar.add_task(f"bench {name}", total=deals * 4)
        try:
            report = bench_bot(name, deals, seed,
                               progress=lambda done, total: bar.update(task, completed=done))
        except ValueError as e:  # every variant refused
            fail(str(e))
    typer.echo(json.dumps(report) if json_out else format_bot_bench(report))


_DEALS_ONLY = "the compiled core plays random deals, not games"


@bench_app.command("vector")
@rules_options(not_here={"target": _DEALS_ONLY, "draw": _DEALS_ONLY, "rubber": _DEALS_ONLY},
               names={"players": ("-p",)})
def bench_vector_command(
    rules_given: RulesGiven,
    deals: Annotated[int, typer.Option(help="Random deals per repeat.")] = 500_000,
    repeats: Annotated[int, typer.Option(help="Timed repeats; the median is shown.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Random self-play deals per second of the compiled rules core, on one core."""
    rules = rules_given.build()
    if deals < 1 or repeats < 1:
        fail(f"--deals and --repeats must be at least 1, not {deals} and {repeats}")
    from euchre.jobs.bench import bench_vector, format_vector_bench

    status = Console(stderr=True).status("timing the compiled core")
    with nullcontext() if json_out else status:
        report = bench_vector(players=rules.players, deals=deals, seed=seed,
                              repeats=repeats, rules=rules)
    typer.echo(json.dumps(report) if json_out else format_vector_bench(report))
