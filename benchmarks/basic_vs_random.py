"""How often the ``basic`` bot beats the ``random`` bot, in every variant.

Run ``python benchmarks/basic_vs_random.py [--games N] [--seed S] [--bot NAME] [--json]``;
``--bot`` seats another bot in basic's place (``expert``: how far any bot can get against
random players, five-handed in particular).  Options of the rules (``--deck``,
``--joker``, ``--stick-the-dealer``, ``--dealer-must-take-up``, ``--defend-alone``) apply
to every variant that allows them, and ``--variants`` picks some of 2, 3, 4, 5.

Whole games to the target are played with :func:`euchre.bots.play_game`:

* two-handed: basic against random;
* three-handed: one basic against two random;
* four-handed: a basic pair (partners, opposite) against a random pair;
* five-handed: one basic against four random.

The basic bot's seat(s) rotate from one game to the next (game ``g`` puts it at seat
``g mod n``, and four-handed its partner opposite), and game ``g`` is dealt from seed
``S + g``, so a run is reproducible.  A game is won by the seats in ``game.winners``;
when a basic seat ties for the win with random seats it gets its share (RULES §10).
The report gives the basic side's share of the games with a 95% Wilson interval, beside
its fair share (what random play would get: 1/2, 1/3, 1/2, 1/5).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from euchre import Rules, RulesError
from euchre.bots import Bot, make_bot, play_game
from euchre.deal import DealResult
from euchre.jobs.bench import side_seats, wilson

VARIANTS: tuple[int, ...] = (2, 3, 4, 5)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The basic (or ``--bot``) side's results over a run of games of one variant."""

    players: int
    rules: str
    bot: str
    games: int
    wins: float
    deals: int
    seconds: float
    census: dict[str, float]
    """Shares of the finished deals (and points per deal) seen from the bot's seats:
    see :func:`count_deal`."""

    @property
    def share(self) -> float:
        """The basic side's share of the games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def fair_share(self) -> float:
        """The share a bot no better than random would get: its seats over all seats."""
        return len(side_seats(self.players, 0)) / self.players

    @property
    def interval(self) -> tuple[float, float]:
        """A 95% Wilson score interval for the share."""
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        """The outcome as a JSON object."""
        lo, hi = self.interval
        return {
            "players": self.players,
            "rules": self.rules,
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "share": self.share,
            "interval95": [lo, hi],
            "fair_share": self.fair_share,
            "deals": self.deals,
            "seconds": self.seconds,
            "census": self.census,
        }


CENSUS_KEYS: tuple[str, ...] = (
    "bot_points", "other_points", "bot_makes", "other_makes", "other_maker_euchred",
    "bot_called")


def count_deal(result: DealResult, seats: set[int], tally: dict[str, float]) -> None:
    """Add one finished deal to ``tally``, seen from the bot's ``seats``: its points and
    the others' (per seat), whether the bot's side or another seat made trump, whether
    that other maker was euchred, and whether the bot was called as partner
    (five-handed)."""
    n = len(result.points)
    tally["deals"] = tally.get("deals", 0.0) + 1
    counts = {
        "bot_points": sum(result.points[s] for s in seats) / len(seats),
        "other_points": sum(p for s, p in enumerate(result.points) if s not in seats)
        / (n - len(seats)),
        "bot_makes": float(result.maker in seats),
        "other_makes": float(result.maker is not None and result.maker not in seats),
        "other_maker_euchred": float(result.maker is not None and result.maker not in seats
                                     and result.outcome == "euchred"),
        "bot_called": float(result.partner in seats),
    }
    for key, value in counts.items():
        tally[key] = tally.get(key, 0.0) + value


def play_variant(rules: Rules, games: int, seed: int, bot: str = "basic") -> Outcome:
    """Play ``games`` games of ``rules`` and count the wins of ``bot``'s side."""
    n = rules.players
    wins = 0.0
    deals = 0
    tally: dict[str, float] = {}
    start = time.perf_counter()
    for g in range(games):
        seats = side_seats(n, g)
        bots: list[Bot] = [
            make_bot(bot if s in seats else "random", seed=(seed + g) * 8 + s)
            for s in range(n)
        ]
        game = play_game(rules, bots, seed=seed + g)
        winners = game.winners
        wins += sum(1 for s in winners if s in seats) / len(winners)
        deals += len(game.deals)
        for deal in game.deals:
            if deal.is_over and not deal.result.thrown_in:
                count_deal(deal.result, seats, tally)
    counted = tally.get("deals", 0.0) or 1.0
    census = {key: tally.get(key, 0.0) / counted for key in CENSUS_KEYS}
    return Outcome(n, repr(rules), bot, games, wins, deals, time.perf_counter() - start,
                   census)


def rules_for(players: int, args: argparse.Namespace) -> Rules | None:
    """The rules of a variant with the command's options, or ``None`` if they do not fit.

    One set of options serves every variant: an option a variant does not play is left out
    (defending alone two-handed), and a variant the options cannot make is skipped, saying
    why on stderr (five hands do not fit a 24-card pack, RULES §1).

    >>> options = argparse.Namespace(deck=None, joker=True, joker_turnup=None,
    ...     stick_the_dealer=False, dealer_must_take_up=False, defend_alone=True)
    >>> rules_for(4, options)
    Rules(players=4, joker=True, defend_alone=True)
    >>> rules_for(2, options)
    Rules(players=2, joker=True)
    >>> options.deck = 24
    >>> rules_for(5, options) is None
    True
    """
    options: dict[str, Any] = {}
    if args.deck is not None:
        options["deck"] = args.deck
    if args.joker:
        options["joker"] = True
    if args.joker_turnup is not None:
        options["joker_turnup"] = args.joker_turnup
    if args.stick_the_dealer:
        options["stick_the_dealer"] = True
    if args.dealer_must_take_up:
        options["dealer_must_take_up"] = True
    if args.defend_alone and players in (3, 4):
        options["defend_alone"] = True
    try:
        return Rules(players=players, **options)
    except RulesError as e:
        print(f"skipping {players}-handed: {e}", file=sys.stderr)
        return None


def format_outcome(o: Outcome) -> str:
    """Two lines of the report: the share of games, and the census of the deals."""
    lo, hi = o.interval
    c = o.census
    return (f"{o.bot} · {o.players} players  {o.share:6.1%}  (95% {lo:5.1%}-{hi:6.1%}; "
            f"fair share {o.fair_share:.0%})  {o.wins:g}/{o.games} games, {o.deals} deals, "
            f"{o.seconds:.1f} s  {o.rules}\n"
            f"    per deal: {o.bot} {c['bot_points']:.2f} points, the others "
            f"{c['other_points']:.2f} each; trump made by {o.bot} {c['bot_makes']:.1%}, by "
            f"the others {c['other_makes']:.1%} (euchred {c['other_maker_euchred']:.1%}); "
            f"{o.bot} called as partner {c['bot_called']:.1%}")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, play, and print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=500, help="games per variant")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--bot", default="basic", help="the bot in basic's place")
    parser.add_argument("--variants", type=int, nargs="+", default=list(VARIANTS),
                        choices=VARIANTS, help="numbers of players to play")
    parser.add_argument("--deck", type=int, choices=(24, 28, 32), help="pack size")
    parser.add_argument("--joker", action="store_true", help="add the joker")
    parser.add_argument("--joker-turnup", help="'dealer_names' or 'suit:S'")
    parser.add_argument("--stick-the-dealer", action="store_true")
    parser.add_argument("--dealer-must-take-up", action="store_true")
    parser.add_argument("--defend-alone", action="store_true",
                        help="let a defender go alone (three- and four-handed)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be positive")

    outcomes = []
    for players in args.variants:
        rules = rules_for(players, args)
        if rules is None:
            continue
        outcome = play_variant(rules, args.games, args.seed, args.bot)
        outcomes.append(outcome)
        if not args.json:
            print(format_outcome(outcome), flush=True)
    if args.json:
        report = {
            "command": " ".join(["python", *sys.argv]),
            "games_per_variant": args.games,
            "seed": args.seed,
            "results": [o.to_json() for o in outcomes],
        }
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
