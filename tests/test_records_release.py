"""Records written by the release before typed records still load, replay the same, and
write back byte for byte (RECORDS: one notation for saved games, downloads and replay).

The files under ``tests/records/`` were written by the code of commit 4f12ce9, the last
whose records were plain dicts: deal records of every variant and option (finished,
stopped mid-deal, with a game score), the vector core's records, game records (finished,
unfinished with the seed ``euchre play`` keeps, with and without seat names, the
four-handed draw, a rubber's games) one JSON line each as ``euchre play`` saves them, one
indented, and a rubber as the server's download writes it.  Beside each file of records,
``*.replayed.jsonl`` holds what ``replay`` gave for each record then.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from euchre import Deal, DealRecord, GameRecord
from euchre.records import RecordError, parse_records, read_record, replay

FOLDER = Path(__file__).parent / "records"


def _lines(name: str) -> list[str]:
    return (FOLDER / name).read_text(encoding="utf-8").splitlines()


def _typed(data: dict[str, Any]) -> DealRecord | GameRecord:
    return GameRecord.from_json(data) if "deals" in data else DealRecord.from_json(data)


@pytest.mark.parametrize("name", ["deals", "vector", "games"])
def test_a_saved_record_writes_back_byte_for_byte(name: str) -> None:
    """A record saved by the release, read into its typed record and written again, is
    the same line, character for character; reading the line written gives an equal
    record."""
    for line in _lines(f"{name}.jsonl"):
        record = _typed(json.loads(line))
        assert json.dumps(record.to_json()) == line
        assert _typed(json.loads(json.dumps(record.to_json()))) == record
        assert read_record(json.loads(line)) == record


@pytest.mark.parametrize("name", ["deals", "vector", "games"])
def test_a_saved_record_replays_as_the_release_replayed_it(name: str) -> None:
    """RECORDS replay: every saved record replays, from its JSON and from its typed
    record, to the summaries the release gave (trump, maker, tricks, points, the running
    score of a game)."""
    expected = [json.loads(line) for line in _lines(f"{name}.replayed.jsonl")]
    lines = _lines(f"{name}.jsonl")
    assert len(lines) == len(expected)
    for line, summaries in zip(lines, expected, strict=True):
        data = json.loads(line)
        assert [r.summary for r in replay(data)] == summaries
        assert [r.summary for r in replay(_typed(data))] == summaries


def test_every_variant_and_option_is_among_the_saved_records() -> None:
    """The saved records cover two to five hands, each deck, the joker with each way of
    naming trump under it, stick the dealer, the dealer made to take up, defending alone,
    the draw and the rubber."""
    rules = [GameRecord.from_json(json.loads(line)).rules for line in _lines("games.jsonl")]
    rules += [DealRecord.from_json(json.loads(line)).rules for line in _lines("deals.jsonl")]
    assert {r.players for r in rules} == {2, 3, 4, 5}
    assert {r.deck for r in rules} == {24, 28, 32}
    assert {r.joker_turnup for r in rules if r.joker} >= {"dealer_names", "suit:H"}
    for option in ("stick_the_dealer", "dealer_must_take_up", "defend_alone", "draw", "rubber"):
        assert {getattr(r, option) for r in rules} == {False, True}, option


def test_a_saved_game_keeps_its_seed_draw_and_unfinished_deal() -> None:
    """A game saved unfinished by ``euchre play`` keeps its seed (for --resume) and its
    last deal's actions so far; a four-handed game with the draw keeps the draw."""
    games = [GameRecord.from_json(json.loads(line)) for line in _lines("games.jsonl")]
    assert any(g.seed is not None and not g.winners for g in games)
    assert any(g.draw is not None for g in games)
    assert any(g.deals[-1].score is None and g.deals[-1].actions for g in games)
    for game in games:
        last = Deal.from_record(game.deals[-1])
        assert last.to_record() == dataclasses.replace(game.deals[-1], score=None)


def test_an_indented_saved_game_reads_as_its_one_line() -> None:
    """A game record written over several lines (indented by hand, say) is read whole and
    is the same record as its one line."""
    (data,) = parse_records((FOLDER / "game_indented.json").read_text(encoding="utf-8"))
    assert GameRecord.from_json(data) == GameRecord.from_json(json.loads(_lines("games.jsonl")[2]))


def test_a_rubber_downloaded_from_the_server_writes_back_byte_for_byte() -> None:
    """A rubber's record as the web's download wrote it (compact JSON, a list of game
    records) reads into typed game records that write the same text."""
    text = (FOLDER / "server_rubber.json").read_text(encoding="utf-8")
    games = [GameRecord.from_json(g) for g in json.loads(text)]
    assert len(games) > 1 and all(g.rules.rubber for g in games)
    again = json.dumps([g.to_json() for g in games], ensure_ascii=False, allow_nan=False,
                       indent=None, separators=(",", ":"))
    assert again == text


def test_a_game_record_without_its_optional_keys_writes_them_out_again() -> None:
    """RECORDS: only the rules and the deals are needed to replay a game; a record written
    elsewhere without seats, first dealer, scores or winners reads, replays and writes
    back without them."""
    full = json.loads(_lines("games.jsonl")[0])
    data = {"rules": full["rules"], "deals": full["deals"]}
    record = GameRecord.from_json(data)
    assert (record.seats, record.first_dealer, record.scores, record.winners) == (
        None, None, None, None)
    assert record.to_json() == data
    assert [r.score for r in replay(record)] == [r.score for r in replay(full)]


def test_a_game_records_json_replays_the_deals_before_a_damaged_one() -> None:
    """RECORDS: a malformed field stops the replay at its deal: the deals before it are
    told, and the error names the deal; the typed reader refuses the whole record with
    the same sentence."""
    data = json.loads(_lines("games.jsonl")[0])
    data["deals"][2]["turnup"] = 7
    told = []
    with pytest.raises(RecordError) as info:
        for r in replay(data):
            told.append(r)
    assert len(told) == 2
    assert (info.value.deal, str(info.value)) == (
        2, "deal 3: 'turnup' must be a card such as 'JH', not 7")
    with pytest.raises(RecordError, match=r"^deal 3: 'turnup' must be a card") as whole:
        GameRecord.from_json(data)
    assert whole.value.deal == 2


def test_a_typed_deal_record_is_checked_when_its_deal_is_built() -> None:
    """A typed record holds the cards as given; the pack (RULES §3) is checked when the
    deal is built from it, with the sentence of a record read from a file."""
    record = DealRecord.from_json(json.loads(_lines("deals.jsonl")[0]))
    twice = dataclasses.replace(record, turnup=record.hands[0][0])
    with pytest.raises(ValueError, match="is dealt twice"):
        Deal.from_record(twice)
    with pytest.raises(RecordError, match=r"^deal 1: .* is dealt twice"):
        list(replay(twice))
