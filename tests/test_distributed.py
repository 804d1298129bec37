"""The shared runner of chunked work: results in unit order, the checkpoint, and a
tournament killed mid-run and resumed from its checkpoint (on this machine's cores;
tests/test_ray.py runs the same on Ray)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from euchre import Rules
from euchre.cli.simulate import Simulation
from euchre.jobs.distributed import Backend, CheckpointError, Status, pays, run_job
from euchre.jobs.tournament import Tournament, run_tournament


@dataclass(frozen=True)
class Slow:
    """Units that finish in the reverse of their order on two workers."""

    n: int = 4
    salt: str = "a"
    kind = "slow"

    def units(self) -> int:
        return self.n

    def parameters(self) -> dict[str, Any]:
        return {"n": self.n, "salt": self.salt}

    def run_unit(self, unit: int) -> dict[str, Any]:
        time.sleep(0.3 * (self.n - unit) / self.n)
        return {"unit": unit, "pid": os.getpid(), "third": unit / 3}

    def settle(self, unit: int, output: dict[str, Any]) -> dict[str, Any]:
        return {"unit": output["unit"], "third": output["third"]}

    def deals_of(self, summary: dict[str, Any]) -> int:
        return 1


def test_summaries_come_back_in_unit_order_whatever_the_order_they_finish() -> None:
    seen: list[int] = []
    run = run_job(Slow(), Backend("local", 2),
                  status=lambda s: seen.append(s.unit) if s.unit is not None else None)
    assert [s["unit"] for s in run.summaries] == [0, 1, 2, 3]
    assert sorted(seen) == [0, 1, 2, 3]
    assert run.deals == 4 and run.nodes == 1 and run.workers == 2


def test_a_checkpoint_is_resumed_and_its_units_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    whole = run_job(Slow(), checkpoint=path)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 4
    # keep the header and two units, and a third line cut short by a kill
    path.write_text("\n".join(lines[:3]) + "\n" + lines[3][:10])
    statuses: list[Status] = []
    again = run_job(Slow(), checkpoint=path, status=statuses.append)
    assert again.summaries == whole.summaries
    assert again.resumed == 2 and statuses[0].done == 2
    assert sorted(statuses[0].skipped) == [json.loads(line)["unit"] for line in lines[1:3]]
    entries = [json.loads(line) for line in path.read_text().splitlines()[1:] if line.strip()
               and line != lines[3][:10]]
    assert sorted(e["unit"] for e in entries) == [0, 1, 2, 3]


def test_a_checkpoint_of_other_work_is_refused_naming_the_difference(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    run_job(Slow(n=2), checkpoint=path)
    with pytest.raises(CheckpointError, match=r'salt was "a", now "b"'):
        run_job(Slow(n=2, salt="b"), checkpoint=path)
    with pytest.raises(CheckpointError, match="n was 2, now 3"):
        run_job(Slow(n=3), checkpoint=path)
    (tmp_path / "other.txt").write_text("hello\n")
    with pytest.raises(CheckpointError, match="not a checkpoint"):
        run_job(Slow(), checkpoint=tmp_path / "other.txt")


def test_a_tournament_on_a_pool_is_the_tournament_in_one_process() -> None:
    t = Tournament(Rules(players=3), ("basic", "random"), deals=12, seed=3, chunk_size=4)
    one = run_tournament(t, workers=1).to_json()
    pool = run_tournament(t, backend=Backend("local", 2)).to_json()
    for data in (one, pool):
        del data["seconds"], data["workers"]
    assert json.dumps(one) == json.dumps(pool)


@dataclass(frozen=True)
class Steady:
    """Units that each take the same time."""

    n: int
    seconds: float
    kind = "steady"

    def units(self) -> int:
        return self.n

    def parameters(self) -> dict[str, Any]:
        return {"n": self.n, "seconds": self.seconds}

    def run_unit(self, unit: int) -> dict[str, Any]:
        time.sleep(self.seconds)
        return {"unit": unit}

    def settle(self, unit: int, output: dict[str, Any]) -> dict[str, Any]:
        return output

    def deals_of(self, summary: dict[str, Any]) -> int:
        return 1


def test_a_small_job_runs_in_the_calling_process_without_starting_workers() -> None:
    """Issue 30: 3,000 random games (60 chunks) are done long before two workers would
    have started; by default (``auto``) no worker starts for them."""
    job = Simulation(Rules(), ("random",) * 4, 3000, seed=1)
    here = run_job(job)  # in this process: the compiled core loaded (once per process)
    run = run_job(job, Backend("local", 2, auto=True))
    assert {pid for _, pid in run.where} == {os.getpid()}
    assert len(run.summaries) == job.units()
    assert run.summaries == here.summaries


def test_workers_start_once_the_work_left_pays_for_their_start() -> None:
    """Sixteen units of half a second: after the second, the fourteen left (7 s in one
    process) are worth a pool of two (its start, then 3.5 s); they run there, and the
    summaries still come back in unit order."""
    assert pays(7.0, 2) and not pays(7.0, 1)
    run = run_job(Steady(16, 0.5), Backend("local", 2, auto=True))
    assert [s["unit"] for s in run.summaries] == list(range(16))
    assert os.getpid() in {pid for _, pid in run.where}
    assert len({pid for _, pid in run.where} - {os.getpid()}) >= 1


def euchre_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from euchre.cli import main; main()", *args]


TOURNAMENT = ("tournament", "--json", "--bots", "basic,random", "--deals", "240",
              "--chunk-size", "10", "--seed", "11", "--workers", "1")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def comparable(stdout: str) -> str:
    """The tournament's JSON without the two figures that describe the run, not its
    result (its seconds and its workers), byte for byte otherwise."""
    data = json.loads(stdout)
    del data["seconds"], data["workers"]
    return json.dumps(data)


def test_a_killed_tournament_resumes_from_its_checkpoint_to_the_same_result(
        tmp_path: Path) -> None:
    plain = subprocess.run(euchre_command(*TOURNAMENT), capture_output=True, text=True,
                           check=True, timeout=300)
    path = tmp_path / "ck.jsonl"
    for sig in (signal.SIGKILL, signal.SIGINT):
        path.unlink(missing_ok=True)
        # A shell's background job ignores SIGINT, and a child inherits that, so Python
        # would never raise KeyboardInterrupt: give the run the default, as a terminal's.
        proc = subprocess.Popen(euchre_command(*TOURNAMENT, "--checkpoint", str(path)),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=_default_sigint)
        try:
            deadline = time.monotonic() + 120
            while (not path.exists() or len(path.read_text().splitlines()) < 4) \
                    and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
        if sig == signal.SIGINT:  # Ctrl-C: one line, and how to resume
            assert proc.returncode == 130, err
            assert "run the same command to resume" in err
        kept = len(path.read_text().splitlines()) - 1
        assert 3 <= kept < 48, f"the run was not stopped midway ({kept} of 48 pieces)"
        resumed = subprocess.run(euchre_command(*TOURNAMENT, "--checkpoint", str(path)),
                                 capture_output=True, text=True, check=True, timeout=300)
        assert comparable(resumed.stdout) == comparable(plain.stdout)
        units = [json.loads(line)["unit"] for line in path.read_text().splitlines()[1:]
                 if line.startswith("{")]
        assert sorted(set(units)) == list(range(48))


def test_the_cli_refuses_a_checkpoint_of_another_tournament(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    args = ("tournament", "--json", "--bots", "basic,random", "--deals", "4", "--seed", "1",
            "--workers", "1", "--checkpoint", str(path))
    subprocess.run(euchre_command(*args), check=True, capture_output=True, timeout=120)
    other = subprocess.run(euchre_command(*args[:-2], "--seed", "2", "--checkpoint",
                                          str(path)), capture_output=True, text=True,
                           timeout=120)
    assert other.returncode == 2
    assert "seed was 1, now 2" in other.stderr
