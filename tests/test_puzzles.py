"""Puzzles (issue 33): the maker's criterion, the themes tagged by rules over the
position, the Glicko-2 ratings, and the shipped sets, every one a position that
``Deal.from_record`` rebuilds with its answer legal there."""

from __future__ import annotations

import datetime
import importlib.util
import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from euchre import Deal, Rules
from euchre.actions import Action
from euchre.bots import make_bot
from euchre.jobs.puzzles import PuzzleMaker, collect, verdict
from euchre.puzzles import (
    MARGIN,
    THEMES,
    Puzzle,
    daily,
    judge,
    make_puzzle,
    nearest,
    read_puzzles,
    shipped,
    shipped_header,
    themes,
    trumps_out,
    write_puzzles,
)
from euchre.puzzles.rating import Rating, rate, rated_by_bots

A = Action.parse

# seat 1 bids first and leads; trump diamonds once seat 1 orders the KD up
HANDS = ["9C TC JC QC KC", "AC AS 9D TD JD", "9S TS AH KH QH", "KS QS JS 9H TH"]


def four(actions: list[str], stick_the_dealer: bool = False) -> Deal:
    rules = Rules(players=4, stick_the_dealer=stick_the_dealer)
    deal = Deal.from_cards(rules, dealer=0, hands=HANDS, turnup="KD", kitty=["QD", "AD", "JH"])
    for a in actions:
        deal.apply(a)
    return deal


def tagged(deal: Deal, answer: str) -> tuple[str, ...]:
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    assert A(answer) in obs.legal_actions
    return themes(obs, A(answer))


def test_the_criterion_wants_one_action_ahead_by_the_margin_and_not_the_obvious_one() -> None:
    values = {A("order"): 1.0, A("pass"): 1.0 - MARGIN, A("order alone"): -1.0}
    assert judge(values, obvious=A("pass")) == A("order")
    assert judge(values, obvious=A("order")) is None  # the obvious choice is the answer
    assert judge({**values, A("pass"): 0.8}, obvious=A("pass")) is None  # too close
    assert judge({A("pass"): 1.0}, obvious=A("order")) is None  # no choice at all


def test_bidding_themes_next_loner_and_stick_the_dealer() -> None:
    assert tagged(four([]), "order alone") == ("bid", "go alone", "loner")
    round_two = four(["pass"] * 4)
    assert tagged(round_two, "trump H") == ("bid", "next")  # hearts: diamonds' colour
    assert tagged(round_two, "trump S") == ("bid",)
    stuck = four(["pass"] * 7, stick_the_dealer=True)
    assert stuck.to_move == 0
    assert tagged(stuck, "trump C") == ("bid", "stick the dealer")


def test_play_themes_trump_lead_save_the_bower_and_partner_s_ace() -> None:
    lead = four(["order", "discard 9C"])
    assert tagged(lead, "9D") == ("lead", "trump lead", "save the bower")
    assert tagged(lead, "JD") == ("lead", "trump lead")
    assert tagged(lead, "AS") == ("lead", "save the bower")
    partner_ace = four(["order", "discard 9C", "AS", "9S"])  # seat 3's partner led the ace
    assert tagged(partner_ace, "QS") == ("follow", "partner's ace")
    # seat 1 sees its own trumps and the turn-up its partner took; three it has not seen
    assert [str(c) for c in trumps_out(lead.observation(1))] == ["QD", "AD", "JH"]


def test_the_maker_keeps_only_positions_that_meet_the_criterion() -> None:
    """A few two-handed deals at small worlds: every puzzle found is a position rebuilt
    from its record, the seat to move, its answer ahead of every other legal action by
    the margin and not the basic bot's choice there."""
    job = PuzzleMaker(Rules(players=2), deals=3, seed=4, worlds=96, play_worlds=8,
                      chunk_size=3)
    summary = job.settle(0, job.run_unit(0))
    assert summary["examined"] >= 3 * 5
    found = collect([summary])
    assert found  # seed 4 finds some
    for puzzle in found:
        check_puzzle(puzzle)
        assert puzzle.rating == rated_by_bots(puzzle)


def test_the_verdict_asks_no_second_opinion_when_the_first_leads_by_less_than_the_floor(
) -> None:
    """The verdict's second opinion is spared when the first cannot be part of a puzzle
    (its lead under the floor): one opinion then, two without a floor."""
    deal = four([])
    values, bests = verdict(deal, worlds=16, floor=math.inf)
    assert len(bests) == 1 and set(values) == set(deal.legal_actions())
    assert len(verdict(deal, worlds=16)[1]) == 2


def merge_script() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "scripts" / "merge_puzzles.py"
    spec = importlib.util.spec_from_file_location("merge_puzzles", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_merging_keeps_the_bots_ratings_and_rates_an_older_file_again(tmp_path: Path) -> None:
    """``scripts/merge_puzzles.py``: a file rated by the bots (the maker's header says so)
    keeps its ratings, an older one is rated by the bots again; each position once, and
    every part's command and seed in the header."""
    deal = Deal.from_cards(Rules(players=2), dealer=0,
                           hands=["9C TC JC QC KC", "AC 9D TD JD QD"], turnup="KD")
    puzzle = make_puzzle(deal, 1, {A("order"): 1.2, A("pass"): 0.4}, A("order"), rating=1234)
    made = {"command": "euchre puzzle make --players 2 --seed 7", "seed": 7, "examined": 3}
    rated, older = tmp_path / "rated.jsonl.gz", tmp_path / "older.jsonl"
    write_puzzles(rated, [puzzle], {**made, "rating": "bots"})
    write_puzzles(older, [puzzle], made)
    merge = merge_script().merge
    header, puzzles = merge([rated, older])
    assert [p.rating for p in puzzles] == [1234]
    assert [part["seed"] for part in header["parts"]] == [7, 7] and header["examined"] == 6
    header, puzzles = merge([older])
    assert [p.rating for p in puzzles] == [rated_by_bots(puzzle)] != [1234]
    assert header["rating"] == "bots"
    out = tmp_path / "merged.jsonl.gz"
    write_puzzles(out, puzzles, header)
    assert read_puzzles(out.read_bytes()) == (
        {"format": "euchre-puzzles", **header}, puzzles)


def check_puzzle(puzzle: Puzzle) -> None:
    deal = Deal.from_record(puzzle.record)
    assert deal.to_move == puzzle.seat
    obs = deal.observation(puzzle.seat)
    assert A(puzzle.answer) in obs.legal_actions
    assert set(puzzle.values) == {str(a) for a in obs.legal_actions}
    assert puzzle.margin >= MARGIN - 1e-3
    assert make_bot("basic", 0).act(obs) != A(puzzle.answer)
    assert set(puzzle.themes) <= set(THEMES)
    assert Puzzle.from_json(puzzle.to_json()) == puzzle


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_shipped_set_names_its_command_and_its_puzzles_are_sound(players: int) -> None:
    puzzles = shipped(players)
    assert puzzles, f"no puzzles shipped for {players} players"
    made = shipped_header(players)
    assert made["command"].startswith("euchre puzzle make") and "seed" in made
    for puzzle in puzzles:
        assert puzzle.players == players
        deal = Deal.from_record(puzzle.record)
        assert deal.to_move == puzzle.seat
        assert A(puzzle.answer) in deal.legal_actions()
        assert puzzle.margin >= MARGIN - 1e-3


def test_ratings_move_by_glicko_2_and_choosing_is_near_the_rating() -> None:
    player = Rating()
    won = rate(player, 1500, solved=True)
    lost = rate(player, 1500, solved=False)
    assert lost.rating < player.rating < won.rating and won.rd < player.rd
    assert rate(player, 1900, True).rating - 1500 > won.rating - 1500  # a harder one: more
    assert Rating.from_json(won.to_json()).rating == pytest.approx(won.rating, abs=0.01)
    assert Rating.from_json("damaged") == Rating()
    pool = []
    for passes, r in enumerate((1000, 1500, 2000)):  # three positions, three ratings
        deal = four(["pass"] * passes)
        assert deal.to_move is not None
        pool.append(make_puzzle(deal, deal.to_move, {A("order"): 1.0, A("pass"): 0.0,
                                                     A("order alone"): -1.0},
                                A("order"), rating=r))
    assert nearest(pool, 1450, random.Random(1), among=1) is pool[1]
    assert nearest(pool, 1450, random.Random(1), wanted=["next"]) is None
    day = datetime.date(2026, 11, 29)
    assert daily(pool, day) is daily(list(reversed(pool)), day)  # the same for everyone


def test_the_reasons_come_from_one_place_for_the_terminal_and_the_web() -> None:
    """The explanation's facts (trumps held, who passed, who made trump, the trumps not
    seen) are worked out once, by euchre.puzzles.reasons: the terminal words them and the
    web page gets them as they are."""
    from rich.console import Console
    from rich.text import Text

    from euchre.cli.lang import use
    from euchre.cli.puzzle import Trainer
    from euchre.cli.seats import SeatNames
    from euchre.puzzles import reasons
    from euchre.server.puzzles import judge_answer

    use("en")
    bidding = four(["pass", "pass"])  # seat 3 to bid, after seats 1 and 2 passed
    facts = reasons(bidding.observation(3), A("order"))
    assert facts.bidding and facts.passed == (1, 2) and str(facts.suit) == "D"
    assert facts.maker is None and facts.out is None
    playing = four(["order", "discard 9C"])
    facts = reasons(playing.observation(1), A("JD"))
    assert not facts.bidding and facts.maker == 1 and not facts.alone
    assert [str(c) for c in facts.held] == ["JD", "TD", "9D"]
    assert [str(c) for c in facts.out or ()] == ["QD", "AD", "JH"]
    assert facts.to_json()["out"] == ["QD", "AD", "JH"]

    puzzle = make_puzzle(playing, 1, {A("JD"): 1.0, A("9D"): 0.2, A("AS"): 0.1,
                                      A("AC"): 0.0, A("TD"): 0.1}, A("JD"))
    web = judge_answer(puzzle, A("9D"), Rating())["facts"]
    assert web == reasons(puzzle.observation(), A("JD")).to_json()
    trainer = Trainer(Console(record=True, width=200), None, symbols=False)  # type: ignore[arg-type]
    names = SeatNames.around(4, 1, person=True)
    lines = [Text.from_markup(line).plain
             for line in trainer.reasons(puzzle.observation(), A("JD"), names)]
    assert lines[0] == "You hold 3 trumps: JD TD 9D." and web["held"] == ["JD", "TD", "9D"]
    assert lines[1] == "You made trump. 3 trumps you have not seen: QD AD JH."


def test_a_puzzle_is_rated_by_how_the_bots_solve_it() -> None:
    """Each bot attempt is a rated Glicko-2 game between a bot of a fixed rating and the
    puzzle: a puzzle the intermediate bot misses rates above one it solves, one that only
    the expert solves above both; the maker's puzzles are rated so."""
    from euchre.puzzles.rating import bot_attempts, rating_of_attempts

    weak = [("random", 0.0), ("random", 1.0), ("basic", 0.0)]
    solved = rating_of_attempts([*weak, ("intermediate", 1.0), ("expert", 1.0)])
    half = rating_of_attempts([*weak, ("intermediate", 1.0), ("intermediate", 0.0),
                               ("expert", 1.0)])
    missed = rating_of_attempts([*weak, ("intermediate", 0.0), ("expert", 1.0)])
    assert solved < half < missed
    assert rating_of_attempts([("random", 1.0), ("random", 1.0)]) < 1500

    puzzle = shipped(2)[0]
    attempts = bot_attempts(puzzle)
    assert [b for b, _ in attempts].count("random") == len(puzzle.values)
    assert ("basic", 0.0) in attempts  # the answer is never the basic bot's choice
    assert bot_attempts(puzzle) == attempts  # the same attempts every time
    assert rated_by_bots(puzzle) == rating_of_attempts(attempts)
