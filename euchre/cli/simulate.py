"""``euchre simulate``: bots play whole games; a summary of wins, points and speed.

Wins count per seat: a game counts as a win for **every** winning seat.  Four-handed,
both partners of the winning side count it; where players tie at the top (three- and
five-handed, RULES §10) each of them counts it.  So the wins add up to at least the
number of games (twice the games, four-handed).
"""

from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from euchre.bots import play_game
from euchre.cli.options import (
    BotsOption,
    DeckOption,
    DefendAloneOption,
    DrawOption,
    JokerOption,
    JokerTurnupOption,
    MustTakeUpOption,
    PlayersOption,
    SeedOption,
    StickOption,
    TargetOption,
    bot_names,
    build_rules,
    fail,
    make_bots,
    show_progress,
)
from euchre.cli.results import describe_rules
from euchre.deal import Deal
from euchre.game import Game, winners_of
from euchre.records import game_record
from euchre.rules import Rules
from euchre.vector import random_games

__all__ = ["simulate"]


def simulate(
    players: PlayersOption = 4,
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
    deck: DeckOption = None,
    joker: JokerOption = None,
    joker_turnup: JokerTurnupOption = None,
    stick_the_dealer: StickOption = None,
    defend_alone: DefendAloneOption = None,
    dealer_must_take_up: MustTakeUpOption = None,
    to: TargetOption = None,
    draw: DrawOption = None,
) -> None:
    """Let bots play whole games and summarise wins, points and speed.

    A game counts as a win for every winning seat: both partners four-handed, and each
    player tied at the top (docs/rules.md, "Winning the game").  Points are the final
    scores, added up.
    """
    rules = build_rules(
        players, deck=deck, joker=joker, joker_turnup=joker_turnup,
        stick_the_dealer=stick_the_dealer, defend_alone=defend_alone,
        dealer_must_take_up=dealer_must_take_up, target=to, draw=draw)
    if games < 1:
        fail(f"--games is a number of games, 1 or more, not {games}")
    names = bot_names(bots, players)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    stats = _run(rules, names, seed, games, record, progress=show_progress(json_out))
    if json_out:
        typer.echo(json.dumps(stats))
    else:
        _summary(Console(highlight=False), stats, rules)


def _run(rules: Rules, names: list[str], seed: int, games: int, record: Path | None,
         progress: bool) -> dict[str, Any]:
    """Play the games; the summary as the ``--json`` object.

    When every seat is the ``random`` bot (and no draw or rubber is asked for), whole
    games run on the compiled rules core (:func:`euchre.vector.random_games`), each
    game with its own random stream; otherwise the bots play through the engine."""
    n = rules.players
    fast = all(name == "random" for name in names) and not rules.draw and not rules.rubber
    bots = [] if fast else make_bots(names, seed, rules)
    rng = random.Random(seed)
    wins = [0] * n
    points = [0] * n
    deals = 0
    seats = [f"seat {s} ({name})" for s, name in enumerate(names)]
    bar = Progress(TextColumn("[bold]simulating[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("games · {task.fields[deals]} deals"), TimeElapsedColumn(),
                   console=Console(stderr=True), disable=not progress, transient=True)
    with ExitStack() as stack:
        out: IO[str] | None = None
        if record is not None:
            try:
                out = stack.enter_context(record.open("w", encoding="utf-8"))
            except OSError as e:
                fail(f"cannot write the records to {record}: {e.strerror}", 1)
        stack.enter_context(bar)
        task = bar.add_task("games", total=games, deals=0)
        start = time.perf_counter()
        for g in range(games):
            if fast:
                scores, played, kept = next(random_games(rules, 1, seed, out is not None, g))
                deals += played
                for s in winners_of(scores, rules.target):
                    wins[s] += 1
                for s, score in enumerate(scores):
                    points[s] += score
                if out is not None:
                    game = Game.from_deals(rules, [Deal.from_record(r) for r in kept])
                    out.write(json.dumps(game_record(game, seats)) + "\n")
                bar.update(task, advance=1, deals=deals)
                continue
            game = play_game(rules, bots, seed=rng.getrandbits(64))
            deals += len(game.deals)
            for s in game.winners:
                wins[s] += 1
            for s, score in enumerate(game.scores):
                points[s] += score
            if out is not None:
                out.write(json.dumps(game_record(game, seats)) + "\n")
            bar.update(task, advance=1, deals=deals)
        seconds = time.perf_counter() - start
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
