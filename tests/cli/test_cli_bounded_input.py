"""``euchre replay``, ``solve`` and ``analyze`` read their files with a bound: a stream
that never ends (``/dev/zero``, ``/dev/urandom``, a FIFO) is read no further than the
limit, a record longer than 1 MiB is refused in one line, and a long file of JSON lines
is read one record at a time by ``replay`` and ``solve``; ``analyze``, which holds what
it reviews, refuses a file above its limit in one line.

The limits are module constants (:data:`euchre.records.MAX_RECORD_TEXT`,
:data:`~euchre.records.MAX_DOCUMENT_TEXT`,
:data:`euchre.cli.analyze.MAX_ANALYZED_TEXT`); the tests of a stream that never ends
lower them, to stay fast.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_cli_bad_input import _Sink, play_record
from typer.testing import CliRunner, Result

import euchre.cli.analyze
import euchre.records
from euchre.cli import app
from euchre.cli.solve import solve_command
from euchre.records import RecordError, read_records

runner = CliRunner()
COMMANDS = {
    "replay": ["replay", "--json"],
    "solve": ["solve", "--json"],
    "analyze": ["analyze", "--json", "--samples", "1"],
}
SMALL = 64 * 1024
"""The limits the tests of endless streams lower to (characters)."""


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(euchre.records, "MAX_DOCUMENT_TEXT", SMALL)
    monkeypatch.setattr(euchre.cli.analyze, "MAX_ANALYZED_TEXT", SMALL)


def run(command: str, path: Path | str) -> Result:
    name, *options = COMMANDS[command]
    return runner.invoke(app, [name, str(path), *options])


def one_line(result: Result, *words: str) -> str:
    """Exit status 1 and exactly one line on standard error, holding ``words``."""
    assert "Traceback" not in result.output
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# -- streams that never end ---------------------------------------------------------------------
@pytest.mark.usefixtures("small_limits")
@pytest.mark.parametrize("command", COMMANDS)
def test_dev_zero_is_read_no_further_than_the_limit(command: str, tmp_path: Path) -> None:
    zero = tmp_path / "game.json"
    zero.symlink_to("/dev/zero")
    line = one_line(run(command, zero), str(zero), "longer than 65,536 characters")
    assert line.startswith("euchre: ")


@pytest.mark.parametrize("command", COMMANDS)
def test_dev_urandom_is_not_a_text_file(command: str, tmp_path: Path) -> None:
    noise = tmp_path / "game.json"
    noise.symlink_to("/dev/urandom")
    one_line(run(command, noise), f"{noise} is not a text file")


@contextlib.contextmanager
def endless_fifo(path: Path, chunk: str) -> Iterator[None]:
    """A FIFO at ``path`` that a writer fills with ``chunk`` until its reader is gone."""
    os.mkfifo(path)

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), path.open("w") as f:
            while True:
                f.write(chunk)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield
    finally:
        writer.join(30)
        assert not writer.is_alive()


@pytest.mark.usefixtures("small_limits")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_fifo_that_never_ends_a_line_is_read_no_further_than_the_limit(
        command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    with endless_fifo(fifo, '{"dealer": 0, "pad": "' + "x" * 4096):
        one_line(run(command, fifo), str(fifo), "longer than 65,536 characters")


@pytest.mark.usefixtures("small_limits")
def test_a_fifo_of_blank_lines_that_never_ends_is_read_no_further_than_the_limit(
        tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    with endless_fifo(fifo, "\n" * 4096):
        one_line(run("replay", fifo), "blank lines in a row")


# -- a record far too long ----------------------------------------------------------------------
def _padded(size: int) -> str:
    """A deal record with a field that makes its line ``size`` characters long."""
    record = play_record()
    record["pad"] = ""
    record["pad"] = "x" * (size - len(json.dumps(record)))
    text = json.dumps(record)
    assert len(text) == size
    return text


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("line", [1, 3])
def test_a_record_longer_than_1_mib_is_refused_in_one_line(
        command: str, line: int, tmp_path: Path) -> None:
    path = tmp_path / "deals.jsonl"
    fine = json.dumps(play_record())
    lines = [fine] * (line - 1) + [_padded((1 << 20) + 1)]
    path.write_text("\n".join(lines) + "\n")
    one_line(run(command, path), str(path),
             f"line {line} holds a record longer than 1 MiB (a game's record is a few KB)")


def test_a_record_of_1_mib_is_read() -> None:
    text = _padded(1 << 20)
    assert [r["pad"][:3] for r in read_records([text + "\n"])] == ["xxx"]


def test_a_record_over_several_lines_longer_than_1_mib_is_refused() -> None:
    record = json.loads(_padded((1 << 20) + 100))
    text = json.dumps(record, indent=2)
    with pytest.raises(RecordError, match="the record from line 1 on is longer than 1 MiB"):
        list(read_records(text.splitlines(keepends=True)))


@pytest.mark.usefixtures("small_limits")
def test_a_json_document_longer_than_the_limit_is_refused_with_advice() -> None:
    """A list of records over several lines is read whole: up to the limit."""
    text = json.dumps([play_record(seed=k) for k in range(200)], indent=1)
    assert len(text) > SMALL
    with pytest.raises(RecordError, match="write its records as JSON lines"):
        list(read_records(text.splitlines(keepends=True)))


# -- a long file of many records ----------------------------------------------------------------
def test_solve_reads_a_long_json_lines_file_one_record_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each record is solved and printed before the next is read: the peak is far below
    the file's size (the old reader held the text and every record: above it)."""
    path = tmp_path / "deals.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for k in range(1500):
            f.write(json.dumps(play_record(seed=k % 40)) + "\n")
    size = path.stat().st_size
    sink = _Sink()
    monkeypatch.setattr(sys, "stdout", sink)
    solve_command(str(path), json_out=True)  # once for the solver's first-use tables
    sink.lines = 0
    tracemalloc.start()
    try:
        solve_command(str(path), json_out=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert sink.lines == 1500
    assert peak < size / 4, (peak, size)


def test_analyze_refuses_a_file_above_its_limit_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(play_record(seed=k)) + "\n" for k in range(40)))
    monkeypatch.setattr(euchre.cli.analyze, "MAX_ANALYZED_TEXT", path.stat().st_size - 1)
    line = one_line(run("analyze", path), str(path), "more than euchre analyze reviews at once")
    assert line.endswith("split it")
    monkeypatch.setattr(euchre.cli.analyze, "MAX_ANALYZED_TEXT", path.stat().st_size)
    result = run("analyze", path)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["decisions"]
