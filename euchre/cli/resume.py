"""``euchre play --resume FILE``: go on with a game saved before its end.

A game record saved by ``euchre play`` (docs/rules.md, "Saved games") holds the rules,
the seats (``"You"``,
``"West (basic)"``: the bots' levels), every deal as dealt with its actions, and the seed
the game was dealt from (``"seed"``).  The game is rebuilt from it exactly: the finished
deals are played again, the deal in progress is dealt as it was and its actions so far are
told again at the table, and the deals to come are dealt from the same seed, so they are
the deals the game would have had.  The bots sit at their seats with their levels, seeded
as at the game's start (their choices to come need not be those they would have made).

A record without a seed (saved by an older ``euchre play``, or elsewhere) is resumed too:
its deals are played again as recorded, and the deals to come are dealt from ``--seed``,
else a fresh seed (said at the table); the record saved afterwards keeps no seed, since
no seed deals all its deals.

Each fault is one line on standard error, with exit status 1: a file that is not a game
record (a deal record alone, several records, not JSON, damaged), a finished game, a
record whose deals are not those its seed deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from euchre.actions import Action
from euchre.cli.options import command_name, fail, read_input
from euchre.cli.replay import record_seats
from euchre.cli.seats import YOU
from euchre.deal import Deal
from euchre.game import Game
from euchre.records import (
    MAX_DOCUMENT_TEXT,
    DealRecord,
    GameRecord,
    RecordError,
    Replayed,
    draw_of,
    parse_records,
    replay,
)
from euchre.rules import OPTIONS, Rules, RulesError

__all__ = ["RULE_FLAGS", "SavedGame", "bot_seats", "conflicts", "load_saved_game", "players_at",
           "rule_conflicts"]

RULE_FLAGS: Final = {o.name: (o.flag, o.name) for o in OPTIONS}
"""Each rules option of ``euchre play``: its flag and the field of :class:`Rules` it sets."""


@dataclass(slots=True)
class SavedGame:
    """A saved game, rebuilt up to the deal in progress, that deal's actions to come."""

    rules: Rules
    game: Game
    """The finished deals played again; ``game.deal`` as it was dealt."""
    actions: list[Action]
    """The deal in progress's actions so far, to be applied (and told) again."""
    seed: int | None
    """The seed that deals every deal of the game (``None``: the record keeps none)."""
    person: int | None
    """The seat named "You"; ``None`` for a game that was watched (bots at every seat)."""
    bots: dict[int, str]
    """The bots' names (levels) by seat, as the record labels them; a bot seat without a
    label is missing here."""
    seats: list[str]
    """The seats' names in the record, without the bots' labels."""
    guessed: str | None = None
    """The level given to the bot seats the record left without one, if any."""


def _fail(file: str, message: str) -> NoReturn:
    fail(f"{file}: {message}", 1)


def load_saved_game(file: str, new_seed: int | None) -> SavedGame:
    """The game saved in ``file`` (``-``: standard input), ready to go on; exits 1 with one
    line when it cannot be resumed.  ``new_seed`` deals the deals to come when the record
    keeps no seed (``None``: a fresh one)."""
    text = read_input(file, MAX_DOCUMENT_TEXT, ", more than a saved game holds")
    try:
        records = parse_records(text)
    except RecordError as e:
        _fail(file, f"not a saved game: {e}")
    if len(records) != 1:
        _fail(file, f"the file holds {len(records)} records; --resume takes one game saved "
                    f"by euchre play")
    record = records[0]
    if "deals" not in record:
        if "hands" in record or "dealer" in record:
            _fail(file, f"this is the record of one deal, not of a game; "
                        f"{command_name()} replay {file} tells it")
        _fail(file, "not a saved game: a game saved by euchre play is one line of JSON "
                    "with the rules, the seats and the deals")
    try:
        game = GameRecord.from_json(record)
        replayed = list(replay(game))
        return _rebuild(file, game, replayed, new_seed)
    except RecordError as e:
        _fail(file, f"a damaged game record: {e}")
    except (TypeError, KeyError, AttributeError, IndexError, ValueError) as e:
        _fail(file, f"a damaged game record: {e}")


def _rebuild(file: str, record: GameRecord, replayed: list[Replayed],
             new_seed: int | None) -> SavedGame:
    rules = record.rules
    n = rules.players
    if not replayed:
        _fail(file, "the game record holds no deal to go on from")
    score = replayed[-1].score or (0,) * n
    if max(score) >= rules.target:
        kept = record_seats(record)[0]
        who = kept if kept is not None and len(kept) == n else [f"seat {s}" for s in range(n)]
        best = max(score)
        won = " and ".join(who[s] for s in range(n) if score[s] == best)
        _fail(file, f"that game is over: {won} won with {best} points after "
                    f"{len(replayed)} deals; {command_name()} replay {file} tells it")
    for k, r in enumerate(replayed[:-1]):
        if not r.deal.is_over:
            _fail(file, f"deal {k + 1} is unfinished, yet more deals follow it")
    seed = record.seed
    if seed is not None:
        game, actions = _dealt_again(file, rules, seed, record, replayed)
    else:
        game, actions = _played_again(rules, record, replayed, new_seed)
    names, labels = record_seats(record)
    if names is None or len(names) != n:
        _fail(file, "the game record does not name its seats; only a game saved by "
                    "euchre play can be resumed")
    person = names.index(YOU) if YOU in names else None
    if person is None and len(labels) < n:
        _fail(file, "no seat is named You, so the record does not say where you sat; only "
                    "a game saved by euchre play can be resumed")
    bots = {s: label for s, label in labels.items() if s != person}
    return SavedGame(rules, game, actions, seed, person, bots, names)


def _cards(record: DealRecord) -> tuple[object, ...]:
    """What a deal record holds of the cards as dealt."""
    return record.dealer, record.hands, record.dummy, record.turnup, record.kitty


def _dealt_again(file: str, rules: Rules, seed: int, record: GameRecord,
                 replayed: list[Replayed]) -> tuple[Game, list[Action]]:
    """The game dealt again from its seed, each deal checked against the record's."""
    game = Game(rules, seed)
    drawn = record.draw
    if game.draw is not None and drawn is not None and drawn.seats != game.draw.seats:
        _fail(file, f"the draw for partners is not the one seed {seed} draws; the record "
                    f"was changed")
    for k, r in enumerate(replayed):
        if _cards(game.deal.to_record()) != _cards(r.deal.to_record()):
            _fail(file, f"deal {k + 1} is not the one seed {seed} deals; the record was "
                        f"changed")
        if not r.deal.is_over:
            return game, list(r.deal.actions)
        for action in r.deal.actions:
            game.deal.apply(action)
        game.next_deal()
    return game, []


def _played_again(rules: Rules, record: GameRecord, replayed: list[Replayed],
                  new_seed: int | None) -> tuple[Game, list[Action]]:
    """The game of the recorded deals, the deals to come dealt from ``new_seed``."""
    game = Game.from_deals(rules, [r.deal for r in replayed])
    game.rng = random.Random(new_seed if new_seed is not None
                             else random.SystemRandom().randrange(1_000_000))
    game.draw = draw_of(record.draw)
    last = replayed[-1].deal
    if last.is_over:  # saved between two deals: deal the next one
        game.deal = Deal.random(rules, (last.dealer + 1) % rules.players, game.rng,
                                scores=game.scores)
        return game, []
    game.deal = Deal.from_record(last.to_record(), apply_actions=False)
    game.deal.scores = game.scores
    return game, list(last.actions)


def rule_conflicts(saved: SavedGame, given: dict[str, Any]) -> list[str]:
    """The rules options given on the command line (by ``euchre play``'s parameter name)
    that the saved game's rules contradict, each as ``--to 5 (saved: target 10)``."""
    found = []
    for name, value in given.items():
        flag, field = RULE_FLAGS[name]
        kept = getattr(saved.rules, field)
        try:
            same = getattr(Rules.from_dict({**saved.rules.to_dict(), field: value}),
                           field) == kept
        except (RulesError, ValueError, TypeError):
            same = False
        if not same:
            typed = (flag if value else "--no-" + flag[2:]) if isinstance(value, bool) \
                else f"{flag} {value}"
            found.append(f"{typed} (saved: {field} {_shown(kept)})")
    return found


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def bot_seats(saved: SavedGame) -> list[int]:
    """The seats that bots take, in the order of the players (``--bots`` names them so):
    every seat but the person's."""
    order = players_at(saved)
    return sorted((s for s in range(saved.rules.players) if s != saved.person),
                  key=lambda s: order[s])


def players_at(saved: SavedGame) -> list[int]:
    """The player at each seat: the draw's seating, else player ``s`` at seat ``s``."""
    draw = saved.game.draw
    return list(draw.seats) if draw is not None else list(range(saved.rules.players))


def conflicts(saved: SavedGame, rules_given: dict[str, Any], seed: int | None,
            seat: int | None, watch: bool, bots: list[str] | None) -> str | None:
    """Why the options given with ``--resume`` cannot go with the saved game (``None``:
    they can): rules the game was not played by, another ``--seed``, another seat,
    ``--watch`` for a game with a person's seat, other bots than the record's.  Options
    that agree with the saved game are accepted.  ``seed``, ``seat`` and ``bots`` are
    those given (``None``: not given); ``bots`` by player, one per bot seat."""
    found = rule_conflicts(saved, rules_given)
    if seed is not None and saved.seed is not None and seed != saved.seed:
        found.append(f"--seed {seed} (saved: seed {saved.seed})")
    if saved.person is not None:
        player = players_at(saved)[saved.person]
        if watch:
            found.append(f"--watch (saved: you play, at seat {player})")
        elif seat is not None and seat != player:
            found.append(f"--seat {seat} (saved: seat {player})")
    seats = bot_seats(saved)
    if bots is not None and all(s in saved.bots for s in seats):
        kept = [saved.bots[s] for s in seats]
        if bots != kept:
            found.append(f"--bots {_names(bots)} (saved: {_names(kept)})")
    if not found:
        return None
    return (f"{'; '.join(found)}: the saved game was played otherwise; leave "
            f"{'this option' if len(found) == 1 else 'these options'} out to resume it")


def _names(bots: list[str]) -> str:
    """Bots as ``--bots`` takes them: one name for all, else one per seat."""
    return bots[0] if len(set(bots)) == 1 else ",".join(bots)
