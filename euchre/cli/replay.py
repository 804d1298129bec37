"""``euchre replay``: replay deal or game records exactly as docs/rules.md describes them.

The file holds one JSON object, a JSON list, or JSON lines; each record is a deal record
or a game record.  JSON lines are read one at a time, so a file of any length replays in
the memory of one record.  Every deal is told trick by trick as ``euchre play`` tells it, every
hand open (or, with ``--seat``, as one seat saw it); ``--summary`` gives one line per
deal and ``--json`` the RECORDS replay object.  The first malformed field or illegal
action stops the replay with one line on standard error and exit status 1.

Deals are numbered from 1 and seats are named as at the table: South (or "You", for a
game saved by ``euchre play``) and clockwise from there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from itertools import chain, islice
from typing import Annotated, Any

import typer
from rich.console import Console

from euchre.cards import cards_of
from euchre.cli.lang import N_, LangOption, _, current, ngettext, use
from euchre.cli.narrate import Narrator
from euchre.cli.options import fail, input_records
from euchre.cli.results import result_words, score_words
from euchre.cli.seats import YOU, SeatNames
from euchre.cli.style import CardStyle, suit_name
from euchre.deal import Deal, Phase
from euchre.records import DrawRecord, GameRecord, Record, RecordError, Replayed, draw_of, replay
from euchre.rules import Rules

__all__ = ["REPLAY_HELP", "RecordNarration", "record_seats", "replay_command", "summary_line"]

_LABELLED = re.compile(r"^(?P<name>.*?)\s*\((?P<label>[^()]*)\)$")


REPLAY_HELP = N_(
    "Replay deal or game records: each deal trick by trick, every hand open.\n\n"
    "Seats are named as at the table (South, West, North, East; \"You\" for the person of "
    "a game saved by euchre play) and deals are numbered from 1.  An illegal or "
    "malformed action stops the replay: exit status 1 and one line on standard error "
    "naming where it is (record, deal and action, each numbered from 1), the action and "
    "the rule it breaks.")
"""The command's help (``--help``), in English; ``euchre`` shows it in the player's
language."""


def replay_command(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help=N_("A deal record or game record (JSON, or JSON lines); "
                             "- reads standard input."))],
    json_out: Annotated[bool, typer.Option(
        "--json", help=N_("Print one JSON object per deal (the RECORDS replay object; "
                       "game records add the running score)."))] = False,
    summary: Annotated[bool, typer.Option(
        "--summary", help=N_("One line per deal: who made trump, the result, the score."))
    ] = False,
    seat: Annotated[int | None, typer.Option(
        "--seat", metavar="N", show_default=False,
        help=N_("Tell the deals as seat N saw them (its own hand only). Default: every hand "
             "open."))] = None,
    symbols: Annotated[bool, typer.Option(
        "--symbols/--letters", help=N_("Show cards as 10♠ J♥ 🃏 instead of TS JH JK."))] = False,
    lang: LangOption = None,
) -> None:
    """Replay deal or game records (what it says: :data:`REPLAY_HELP`)."""
    if lang is not None:
        use(lang)
    if json_out and summary:
        fail("--json and --summary each choose an output: give one of them")
    records = input_records(file)
    first_two = list(islice(records, 2))  # with a second record, lines name their record
    several = len(first_two) > 1
    console = Console(highlight=False)
    for k, record in enumerate(chain(first_two, records)):
        where = f"{file}: " + (f"record {k + 1}, " if several else "")
        # deal records number by their place in the file; a game record's deals by game
        game = "deals" in record
        narration = None
        if not json_out:
            style = CardStyle.speaking(current(), symbols)
            narration = RecordNarration.of(console, record, seat, style,
                                           game_number=k + 1 if game and several else None)
        try:
            for i, replayed in enumerate(replay(record)):
                if json_out:
                    typer.echo(json.dumps(replayed.summary))
                    continue
                if narration is None:  # unreadable rules: replay() has refused already
                    continue
                number = (i if game else k) + 1
                if summary:
                    typer.echo(narration.summary(replayed, number))
                else:
                    narration.deal(replayed, number)
        except RecordError as e:
            fail(f"{where}{e}", 1)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as e:
            # a field of the wrong shape that the record reader did not anticipate
            fail(f"{where}malformed record: {e}", 1)
        if narration is not None and not summary:
            narration.end()


def record_seats(record: Record) -> tuple[list[str] | None, dict[int, str]]:
    """The seat names a game record keeps (``None`` if it keeps none) and the bots'
    labels by seat: ``"West (basic)"`` is West, a basic bot.  The record is typed, or
    its JSON as a file holds it.

    >>> record_seats({"seats": ["You", "West (basic)", "North (expert)", "East (basic)"]})
    (['You', 'West', 'North', 'East'], {1: 'basic', 2: 'expert', 3: 'basic'})
    >>> record_seats({"dealer": 0})  # a deal record names no seats
    (None, {})
    """
    seats = (record.get("seats") if isinstance(record, dict)
             else record.seats if isinstance(record, GameRecord) else None)
    if not isinstance(seats, list | tuple) or not all(isinstance(s, str) for s in seats):
        return None, {}
    names, labels = [], {}
    for s, text in enumerate(seats):
        match = _LABELLED.match(text)
        names.append(match["name"] if match else text)
        if match:
            labels[s] = match["label"]
    return names, labels


def _players(record: dict[str, Any]) -> int:
    rules = record.get("rules")
    rules = rules if isinstance(rules, dict) else {}
    return Rules.from_dict(rules).players


class RecordNarration:
    """Tells the deals of one record: a deal record, or a game record with its header,
    its running score and its end.

    The viewer is seat ``seat`` if given, else the seat a saved game names "You", else
    seat 0.  A game saved by ``euchre play`` keeps the names it was played with; in
    any other record the viewer sits South.
    """

    @classmethod
    def of(cls, console: Console, record: dict[str, Any], seat: int | None,
           style: CardStyle, game_number: int | None = None) -> RecordNarration | None:
        """The narration of a record; ``None`` when its rules are unreadable (replaying
        it then reports the fault).  A ``seat`` the record has not exits 2."""
        try:
            n = _players(record)
        except (TypeError, ValueError, AttributeError):
            return None
        if seat is not None and not 0 <= seat < n:
            fail(f"--seat is a seat from 0 to {n - 1}, not {seat}")
        return cls(console, record, n, seat, style, game_number)

    def __init__(self, console: Console, record: dict[str, Any], players: int,
                 seat: int | None, style: CardStyle, game_number: int | None = None) -> None:
        n = players
        saved, self.labels = record_seats(record)
        you = saved.index(YOU) if saved is not None and YOU in saved else None
        self.view = seat if seat is not None else you if you is not None else 0
        # a game saved by euchre play keeps its names; else the viewer sits South
        self.names = (SeatNames.around(n, you, person=True) if you is not None
                      else SeatNames.around(n, self.view, person=False))
        self.open = seat is None
        self.narrator = Narrator(console, self.names, self.view, style,
                                 open_hands=self.open)
        self.record = record
        self.game = "deals" in record
        self.title = f"Game {game_number} · " if game_number is not None else ""
        self.started = False
        self.last: Replayed | None = None

    def _start(self, rules: Rules) -> None:
        """A game record's header: the rules, who sat where, the draw."""
        self.started = True
        if not self.game:
            return
        self.narrator.console.print()
        self.narrator.game_start(rules, None, self.labels,
                                 draw_of(DrawRecord.from_json(self.record.get("draw"))))

    def summary(self, replayed: Replayed, number: int) -> str:
        """One line for a deal (``--summary``)."""
        return summary_line(replayed, self.names, number, self.title)

    def deal(self, replayed: Replayed, number: int) -> None:
        """Tell one replayed deal trick by trick, from its first action."""
        final = replayed.deal
        if not self.started:
            self._start(final.rules)
        narrate_deal(self.narrator, final, number, self.title, replayed.score)
        self.last = replayed

    def end(self) -> None:
        """A game record's end: who won, and the final score, once a side reached the
        target."""
        last = self.last
        if not self.game or last is None or last.score is None:
            return
        rules = last.deal.rules
        score = last.score
        if max(score) >= rules.target:
            winners = [s for s in range(rules.players) if score[s] == max(score)]
            self.narrator.game_end(winners, score, rules.target)


def narrate_deal(narrator: Narrator, final: Deal, number: int, title: str = "",
                 score: Sequence[int] | None = None) -> None:
    """Tell a finished (or stopped) deal from its start, action by action, through
    ``narrator``: as ``euchre play`` tells it, every hand open when the narrator's
    ``open_hands`` is on.  ``score`` is the game's score after it (game records)."""
    deal = Deal.from_record(final.to_record(), apply_actions=False)
    deal.scores = final.scores
    view = narrator.view
    narrator.deal_start(deal.observation(view), number, title)
    if narrator.open_hands:
        dummy = None if deal.dealt_dummy is None else list(cards_of(deal.dealt_dummy))
        narrator.show_all_hands([deal.hand(s) for s in range(deal.n)], dummy, deal.kitty)
    for action in final.actions:
        effect = deal.apply(action)
        narrator.tell(effect, deal.observation(view),
                      secret=action if narrator.open_hands else None)
        if narrator.open_hands and effect.phase is Phase.CALL_PARTNER and deal.called:
            narrator.partner_revealed(deal.partner, deal.called)
    rules = deal.rules
    bridge = None
    if score is not None and rules.players == 4 and rules.target == 5:
        bridge = next((side for side in (0, 1)
                       if score[side] == 4 and score[1 - side] <= 2), None)
    narrator.deal_end(deal.observation(view), score, bridge, (deal.dealer + 1) % deal.n)


def summary_line(replayed: Replayed, names: SeatNames, number: int, title: str = "") -> str:
    """A deal in one line of words: who dealt, who made what trump, the result, the
    tricks, and the game's score after it.

    >>> from euchre import Rules
    >>> deal = Deal.from_cards(Rules(players=2), dealer=0,
    ...     hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    >>> for action in ["order", "discard 9C", "JD"]:
    ...     _ = deal.apply(action)
    >>> summary_line(Replayed(deal, {}), SeatNames.around(2, 0, person=False), 1)
    'Deal 1 · South deals: North makes diamonds trump; unfinished after 0 tricks'
    """
    deal = replayed.deal
    result = deal.result
    head = title + names.act(deal.dealer, N_("Deal {number} · {who} deals"),
                             N_("Deal {number} · You deal"), number=number)
    if result.thrown_in:
        text = _("{head}: all passed, the cards are thrown in").format(head=head)
    elif result.trump is None or result.maker is None:
        text = _("{head}: unfinished, in the bidding").format(head=head)
    else:
        declared = deal.observation(result.maker).alone
        suit = suit_name(result.trump)
        made = (names.act(result.maker, N_("{who} makes {suit} trump alone"),
                          N_("You make {suit} trump alone"), suit=suit) if declared else
                names.act(result.maker, N_("{who} makes {suit} trump"),
                          N_("You make {suit} trump"), suit=suit))
        if result.partner is not None:
            made = names.act(result.partner, N_("{made}, {who} the partner"),
                             N_("{made}, you the partner"), made=made)
        if result.lone_defender is not None:
            made += ", " + names.act(result.lone_defender, N_("{who} defends alone"),
                                     N_("You defend alone"))
        if result.complete:
            words = result_words(result, names, (deal.dealer + 1) % deal.n, deal.called,
                                 declared)
            text = _("{head}: {made}; {result}; tricks {tricks}").format(
                head=head, made=made, result=words, tricks=_tricks(result.tricks, names))
        else:
            played = sum(result.tricks)
            text = ngettext("{head}: {made}; unfinished after {n} trick",
                            "{head}: {made}; unfinished after {n} tricks", played).format(
                head=head, made=made, n=played)
    if replayed.score is not None:
        text = _("{text}; score {score}").format(
            text=text, score=score_words(replayed.score, names, deal.rules.target))
    return text


def _tricks(tricks: Sequence[int], names: SeatNames) -> str:
    if names.players == 4:
        return " · ".join(f"{names.side_name(side)} {tricks[side[0]] + tricks[side[1]]}"
                          for side in names.sides())
    view = names.names.index(YOU if names.you is not None else "South")
    around = [(view + k) % names.players for k in range(names.players)]
    return " · ".join(f"{names[s]} {tricks[s]}" for s in around)
