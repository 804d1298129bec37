"""``euchre simulate``: bots play whole games; a summary of wins, points and speed.

Wins count per seat: a game counts as a win for **every** winning seat.  Four-handed,
both partners of the winning side count it; where players tie at the top (three- and
five-handed, RULES §10) each of them counts it.  So the wins add up to at least the
number of games (twice the games, four-handed).
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Annotated, Any, Final

import typer
from rich.console import Console
from rich.table import Table

from euchre.bots import make_bot, play_game
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
from euchre.cli.results import describe_rules
from euchre.deal import Deal
from euchre.game import Game, winners_of
from euchre.jobs.distributed import Backend, CheckpointError, run_job
from euchre.jobs.tournament import default_workers
from euchre.records import game_record
from euchre.rules import Rules
from euchre.vector import random_games

__all__ = ["GAMES_PER_CHUNK", "Simulation", "simulate"]


@rules_options(not_here={"rubber": "simulate plays games; rubbers are played in the "
                                    "browser (euchre serve)"})
def simulate(
    rules_given: RulesGiven,
    games: Annotated[int, typer.Option("--games", "-g", metavar="G",
                                       help="How many games to play.")] = 100,
    bots: BotsOption = "basic",
    seed: SeedOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object on standard output (a progress bar shows "
                       "on standard error only when that is a terminal): "
                       "games, deals, seconds, deals_per_second, wins and points by seat, "
                       "rules, bots, seed.")] = False,
    record: Annotated[Path | None, typer.Option(
        "--record", metavar="FILE", dir_okay=False, show_default=False,
        help="Write every game as a game record, one JSON object a line; "
             "`euchre replay FILE` replays them.")] = None,
    workers: WorkersOption = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    checkpoint: CheckpointOption = None,
) -> None:
    """Let bots play whole games and summarise wins, points and speed.

    A game counts as a win for every winning seat: both partners four-handed, and each
    player tied at the top (docs/rules.md, "Winning the game").  Points are the final
    scores, added up.
    """
    rules = rules_given.build()
    players = rules.players
    if games < 1:
        fail(f"--games is a number of games, 1 or more, not {games}")
    names = bot_names(bots, players)
    make_bots(names, 0, rules)  # an unknown bot or one that refuses the rules: one line
    backend = backend_of(ray, ray_address, workers)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    stats = _run(rules, names, seed, games, record, show_progress(json_out), backend,
                 checkpoint)
    if json_out:
        typer.echo(json.dumps(stats))
    else:
        _summary(Console(highlight=False), stats, rules)


GAMES_PER_CHUNK: Final = 50
"""Games per chunk of work (:mod:`euchre.jobs.distributed`)."""


@dataclass(frozen=True, slots=True)
class Simulation:
    """The games to play, cut in chunks of :data:`GAMES_PER_CHUNK` (a
    :class:`euchre.jobs.distributed.ChunkedJob`).

    Game ``g`` is seeded from the seed and ``g``; the bots of a chunk from the seed, the
    chunk and the seat.  When every seat is the ``random`` bot (and no draw or rubber is
    asked for), whole games run on the compiled rules core
    (:func:`euchre.vector.random_games`), each game with its own random stream; otherwise
    the bots play through the engine.  So the games depend on the seed and the chunk size,
    never on the workers.
    """

    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int
    record: bool = False
    chunk_size: int = GAMES_PER_CHUNK

    kind = "simulate"

    @property
    def fast(self) -> bool:
        """Whether the games run on the compiled core (every seat random)."""
        return (all(name == "random" for name in self.bots) and not self.rules.draw
                and not self.rules.rubber)

    def units(self) -> int:
        """Chunks of games."""
        return -(-self.games // self.chunk_size)

    def parameters(self) -> dict[str, Any]:
        """What the games depend on."""
        return {"rules": self.rules.to_dict(), "bots": list(self.bots), "games": self.games,
                "seed": self.seed, "record": self.record, "chunk_size": self.chunk_size}

    def run_unit(self, unit: int) -> dict[str, Any]:
        """Play chunk ``unit``'s games: wins, points and deals by seat (and the records)."""
        rules, n = self.rules, self.rules.players
        seats = [f"seat {s} ({name})" for s, name in enumerate(self.bots)]
        bots = [] if self.fast else [
            make_bot(name, random.Random(f"{self.seed}/bot/{unit}/{k}"))
            for k, name in enumerate(self.bots)]
        wins, points, deals, records = [0] * n, [0] * n, 0, []
        start = unit * self.chunk_size
        for g in range(start, min(start + self.chunk_size, self.games)):
            if self.fast:
                final, played, kept = next(random_games(rules, 1, self.seed, self.record, g))
                scores = list(final)
                deals += played
                winners = list(winners_of(scores, rules.target))
                game = (Game.from_deals(rules, [Deal.from_record(r) for r in kept])
                        if self.record else None)
            else:
                game_seed = random.Random(f"{self.seed}/game/{g}").getrandbits(64)
                game = play_game(rules, bots, seed=game_seed)
                deals += len(game.deals)
                scores, winners = list(game.scores), list(game.winners)
            for s in winners:
                wins[s] += 1
            for s, score in enumerate(scores):
                points[s] += score
            if game is not None and self.record:
                records.append(game_record(game, seats).to_json())
        summary: dict[str, Any] = {"deals": deals, "wins": wins, "points": points}
        if self.record:
            summary["records"] = records
        return summary

    def settle(self, unit: int, output: dict[str, Any]) -> dict[str, Any]:
        """A chunk's summary is what it sent."""
        return output

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals a chunk played."""
        return int(summary["deals"])


def _run(rules: Rules, names: list[str], seed: int, games: int, record: Path | None,
         progress: bool, backend: Backend | None = None,
         checkpoint: Path | None = None) -> dict[str, Any]:
    """Play the games; the summary as the ``--json`` object.  The chunks' figures are
    added up in chunk order, and the records written in that order."""
    n = rules.players
    job = Simulation(rules, tuple(names), games, seed, record is not None)
    if backend is None or backend.kind == "local":
        auto = backend is None or backend.workers is None
        asked = default_workers() if backend is None else backend.workers or default_workers()
        # every core by default, but only where the work pays for starting them
        backend = Backend("local", min(asked, job.units()), auto=auto)
    with ExitStack() as stack:
        out: IO[str] | None = None
        if record is not None:
            try:
                out = stack.enter_context(record.open("w", encoding="utf-8"))
            except OSError as e:
                fail(f"cannot write the records to {record}: {e.strerror}", 1)
        update = stack.enter_context(chunk_bar("simulating", job.units(), progress,
                                                checkpoint))
        try:
            run = run_job(job, backend, checkpoint, update)
        except (CheckpointError, ImportError) as e:
            fail(str(e))
        wins, points, deals = [0] * n, [0] * n, 0
        for summary in run.summaries:
            deals += summary["deals"]
            for s in range(n):
                wins[s] += summary["wins"][s]
                points[s] += summary["points"][s]
            if out is not None:
                for game in summary["records"]:
                    out.write(json.dumps(game) + "\n")
    seconds = run.seconds
    return {
        "games": games,
        "deals": deals,
        "seconds": round(seconds, 6),
        "deals_per_second": round(deals / seconds, 1) if seconds > 0 else None,
        "wins": wins,
        "points": points,
        "rules": rules.to_dict(),
        "bots": names,
        "seed": seed,
    }


def _summary(console: Console, stats: dict[str, Any], rules: Rules) -> None:
    """The table of wins and points by seat, and the speed."""
    games = stats["games"]
    console.print(f"[bold]{games} games[/] · {describe_rules(rules)}")
    table = Table()
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("points", justify="right")
    table.add_column("points/game", justify="right")
    for s, name in enumerate(stats["bots"]):
        wins, points = stats["wins"][s], stats["points"][s]
        table.add_row(str(s), name, str(wins), f"{100 * wins / games:.1f}",
                      str(points), f"{points / games:.2f}")
    console.print(table)
    who = "both partners, tied seats each" if rules.players == 4 else "tied seats each"
    console.print(f"[dim]wins: each winning seat counts the game ({who})[/]")
    speed = stats["deals_per_second"]
    console.print(f"{stats['deals']} deals in {stats['seconds']:.2f} s: "
                  f"[bold]{speed if speed is not None else '∞'}[/] deals per second "
                  f"[dim](seed {stats['seed']})[/]")
