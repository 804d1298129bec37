"""``euchre replay``, ``solve`` and ``analyze`` under bad input: one line on standard error
and exit status 1, never a traceback; ``replay`` reads JSON lines one at a time."""

from __future__ import annotations

import io
import json
import random
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from euchre import Deal, Phase, Rules
from euchre.cli import app
from euchre.cli.replay import replay_command
from euchre.game import Game
from euchre.records import RecordError, game_record, read_records

runner = CliRunner()
COMMANDS = {
    "replay": ["replay", "-"],
    "solve": ["solve", "-"],
    "analyze": ["analyze", "-", "--json", "--samples", "1"],
}


def run(command: str, text: str) -> Result:
    """``euchre COMMAND -`` with ``text`` on standard input (a lone surrogate is written as
    it is: bytes that are not UTF-8)."""
    return runner.invoke(app, COMMANDS[command], input=text.encode("utf-8", "surrogatepass"))


def assert_clean(result: Result) -> None:
    """Success, or exit status 1 with exactly one line on standard error; no traceback."""
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        assert result.exception is None
        return
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("euchre: ")


def play_record(players: int = 4, joker: bool = False, seed: int = 0) -> dict[str, Any]:
    """A deal record of the engine stopped at the start of the play phase."""
    rules = Rules(players=players, joker=joker, deck=32 if players == 5 else 24)
    rng = random.Random(seed)
    deal = Deal.random(rules, dealer=seed % players, seed=seed)
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_action_ids()))
    return deal.to_record().to_json()


# -- point 19: one line and exit status 1 for any file ----------------------------------------
def huge_number_text() -> str:
    return json.dumps(play_record()).replace('"dealer": 0', '"dealer": ' + "9" * 5000)


def deep_list_text() -> str:
    return "[" * 100_000 + "]" * 100_000


def deep_object_text() -> str:
    return '{"rules": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001


def joker_turnup_text() -> str:
    return json.dumps({**play_record(), "rules": {"joker_turnup": 5}})


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("text", "words"), [
    (huge_number_text(), "a number of 5000 digits"),
    (deep_list_text(), "nest deeper than any record"),
    (deep_object_text(), "nest deeper than any record"),
    (joker_turnup_text(), "rules option 'joker_turnup' must be a string, not 5"),
    ('{"rules": {"players": NaN}}', "NaN is not a number JSON knows"),
])
def test_bad_files_give_one_line_and_status_1(command: str, text: str, words: str) -> None:
    """A number of more than 4,300 digits, nesting deeper than Python's recursion limit and
    a rules option of the wrong type gave tracebacks (analyze: status 2)."""
    result = run(command, text)
    assert_clean(result)
    assert result.exit_code == 1
    assert words in result.stderr


def test_a_huge_number_on_a_later_line_names_the_line() -> None:
    good = json.dumps(play_record())
    result = runner.invoke(app, ["replay", "--summary", "-"], input=(
        good + "\n" + good + "\n\n" + huge_number_text() + "\n"))
    assert result.exit_code == 1
    assert result.stderr == ("euchre: -: line 4: a number of 5000 digits is far too long for "
                             "a seat, a score or a target\n")
    assert len(result.stdout.splitlines()) == 2  # the deals before it replayed, a line each


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_rules_value_of_the_wrong_type_names_the_key(command: str) -> None:
    """Point 20 at the command line: "false" is not false."""
    record = {**play_record(), "rules": {"players": 4, "joker": "false"}}
    result = run(command, json.dumps(record))
    assert result.exit_code == 1
    assert result.stderr.endswith(
        "rules option 'joker' must be true or false, not the string 'false'\n")


# -- the fuzz: records of the engine, mutated ----------------------------------------------
def _base_records() -> list[dict[str, Any]]:
    """Valid records of every variant: deal records fresh, in the play phase and over,
    and game records."""
    records = []
    for players in (2, 3, 4, 5):
        for joker in (False, True):
            rules = Rules(players=players, joker=joker, deck=32 if players == 5 else 24)
            rng = random.Random(players * 2 + joker)
            deal = Deal.random(rules, dealer=players - 1, seed=rng)
            records.append(deal.to_record().to_json())
            while deal.phase is not Phase.PLAY:
                deal.apply(rng.choice(deal.legal_action_ids()))
            records.append(deal.to_record().to_json())
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_action_ids()))
            records.append(deal.to_record().to_json())
            game = Game(rules.replace(target=2, stick_the_dealer=True), seed=players)
            while not game.is_over:
                game.apply(rng.choice(game.deal.legal_action_ids()))
            records.append(game_record(game, [f"p{s}" for s in range(players)]).to_json())
    return records


BASES = _base_records()
HUGE, DEEP = "\x00huge", "\x00deep"  # stand-ins for what json.dumps cannot write
KEYS = ["rules", "dealer", "hands", "dummy", "turnup", "kitty", "actions", "deals", "score",
        "first_dealer", "seats", "players", "deck", "joker", "joker_turnup", "target",
        "stick_the_dealer", "defend_alone", "draw", "rubber", "dealer_must_take_up"]
WORDS = ["pass", "order", "order alone", "trump H", "trump x", "trump H alone", "discard 9C",
         "call AH", "defend alone", "play JH", "JH", "JK", "7C", "10h", "AS", "", " ", "\n",
         "joker", "♥", "\ud800", "9C TC", "x" * 300]

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10 ** 30), 10 ** 30), st.integers(-3, 40),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(WORDS), st.text(max_size=8),
    st.sampled_from([HUGE, DEEP]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=4),
    max_leaves=8,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, the root first."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, child in items:
        yield from _paths(child, (*path, key))


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


@st.composite
def mutated_text(draw: st.DrawFn) -> str:
    """A valid record's text with one to three faults: a value replaced (wrong types, huge
    numbers, deep nesting, bad cards and actions), a key or item removed or added, the
    text cut short, or several records on JSON lines."""
    record = json.loads(json.dumps(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(record))
        path = draw(st.sampled_from(paths[1:] + paths[:1]))  # the root seldom
        kind = draw(st.sampled_from(["replace", "word", "remove", "add"]))
        if not path:
            if kind in ("replace", "word"):
                record = draw(json_values)
            continue
        parent, key = _at(record, path[:-1]), path[-1]
        if kind == "replace":
            parent[key] = draw(json_values)
        elif kind == "word":
            parent[key] = draw(st.sampled_from(WORDS))
        elif kind == "remove":
            del parent[key]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS))] = draw(json_values)
        else:
            parent.insert(key, draw(json_values | st.sampled_from(WORDS)))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    text = text.replace(json.dumps(HUGE), "-" * draw(st.booleans()) + "7" * 4400)
    text = text.replace(json.dumps(DEEP), "[" * 5000 + "]" * 5000)
    layout = draw(st.sampled_from(["one", "lines", "list", "cut"]))
    if layout == "lines":
        others = [json.dumps(r) for r in draw(st.lists(st.sampled_from(BASES), max_size=2))]
        lines = [*others, text]
        draw(st.randoms()).shuffle(lines)
        text = "\n".join(lines)
    elif layout == "list":
        text = f"[{text}, {json.dumps(draw(st.sampled_from(BASES)))}]"
    elif layout == "cut":
        text = text[:draw(st.integers(0, len(text)))]
    return text


@pytest.mark.parametrize("command", list(COMMANDS))
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=mutated_text())
def test_mutated_records_fail_in_one_line_with_status_1(command: str, text: str) -> None:
    """Whatever a file holds, each command replays it or says what is wrong in one line on
    standard error with exit status 1: never a traceback, never another status, and never
    the last-resort "malformed record" that repeats Python's own words."""
    result = run(command, text)
    assert_clean(result)
    assert "malformed record" not in result.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_base_record_is_valid(command: str) -> None:
    """The fuzz starts from records the commands accept (solve: those in the play phase)."""
    for record in BASES:
        result = run(command, json.dumps(record))
        if command == "solve" and (record.get("deals") or
                                   Deal.from_record(record).phase is not Phase.PLAY):
            assert result.exit_code == 1
        else:
            assert result.exit_code == 0, result.stderr


# -- point 21: replay streams JSON lines ------------------------------------------------------
def test_read_records_takes_one_line_per_record() -> None:
    """JSON lines are read one at a time: when a record comes out, no line after it has
    been read."""
    read = 0
    line = json.dumps(play_record()) + "\n"

    def lines() -> Iterator[str]:
        nonlocal read
        for _ in range(50):
            read += 1
            yield line

    for k, record in enumerate(read_records(lines())):
        assert read == k + 1
        assert record["dealer"] == 0
    assert read == 50


@pytest.mark.parametrize(("text", "message"), [
    ('{"dealer": 0}\n{"dealer": 1\n{"dealer": 2}\n', "line 2 is not JSON: Expecting ',' "
                                                     "delimiter (column 13)"),
    ('{\n  "dealer": 0,\n  "hands": [\n', "line 3 is not JSON: Expecting value (column 13)"),
    ('[{"dealer": 0}]\n{"dealer": 1}\n', "line 1 holds a list; a file of JSON lines holds one "
                                         "record a line"),
    ("\n \n", "the file holds no record"),
    ('{"dealer": 0}\n"deal"\n', "record 2 is not a JSON object but the string 'deal'"),
])
def test_read_records_names_the_line_at_fault(text: str, message: str) -> None:
    with pytest.raises(RecordError) as info:
        list(read_records(io.StringIO(text)))
    assert str(info.value) == message


def test_read_records_reads_one_document_over_several_lines() -> None:
    record = play_record()
    assert list(read_records(io.StringIO(json.dumps(record, indent=2)))) == [record]
    both = json.dumps([record, record], indent=1)
    assert list(read_records(io.StringIO("\n" + both + "\n"))) == [record, record]


class _Sink(io.TextIOBase):
    """Standard output that counts what is written and keeps none of it."""

    def __init__(self) -> None:
        self.lines = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.lines += text.count("\n")
        return len(text)


def test_replay_of_a_long_json_lines_file_takes_bounded_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 63 MB file of JSON lines took 874 MB: replay held the whole text and every record.
    Now its peak is far below the file's size (here about 700 kB; the old reader peaked
    above it, the text alone being that long)."""
    path = tmp_path / "deals.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for k in range(1500):
            f.write(json.dumps(play_record(seed=k % 40)) + "\n")
    size = path.stat().st_size
    sink = _Sink()
    monkeypatch.setattr(sys, "stdout", sink)
    replay_command(str(path), json_out=True)  # once for the engine's first-use tables
    sink.lines = 0
    tracemalloc.start()
    try:
        replay_command(str(path), json_out=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sink.lines == 1500
    assert peak < size / 4, (peak, size)
