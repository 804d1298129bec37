"""The Ray backend on real clusters: one node in this process (started once per session),
and two nodes on this machine started with ``ray start``; the same results as on this
machine's cores, whatever worker or node dies midway."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")

from euchre import Rules  # noqa: E402
from euchre.jobs.distributed import Backend, Status, run_job  # noqa: E402
from euchre.jobs.selfplay import SelfPlay  # noqa: E402
from euchre.jobs.tournament import Tournament, TournamentResult, run_tournament  # noqa: E402

RAY = Path(sys.executable).with_name("ray")
QUIET = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
"""The test clusters listen on this machine only and live for one test: no token."""


@pytest.fixture(scope="session")
def ray_local() -> Iterator[None]:
    """A local Ray instance of 2 CPUs in this process, for the whole session."""
    saved = {k: os.environ.get(k) for k in (*QUIET, "RAY_ADDRESS")}
    os.environ.update(QUIET)
    os.environ.pop("RAY_ADDRESS", None)
    temp = tempfile.mkdtemp(prefix="eray", dir="/tmp")  # Ray's sockets want a short path
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=temp, logging_level=logging.WARNING,
             log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def comparable(data: dict[str, Any]) -> str:
    """A tournament's JSON, byte for byte, less the figures of the run rather than of the
    result (its seconds and its workers)."""
    data = dict(data)
    del data["seconds"], data["workers"]
    return json.dumps(data)


TOURNAMENT = Tournament(Rules(players=4), ("basic", "random"), deals=480, seed=21,
                        chunk_size=60)


@pytest.fixture(scope="module")
def reference() -> TournamentResult:
    """The tournament on two processes of this machine (multiprocessing)."""
    return run_tournament(TOURNAMENT, backend=Backend("local", 2))


def test_one_ray_node_gives_the_json_of_multiprocessing_though_a_worker_dies(
        ray_local: None, reference: TournamentResult) -> None:
    killed: list[int] = []

    def kill_a_worker(s: Status) -> None:
        # the worker that just returned a piece has already taken the next: kill it
        if not killed and s.where is not None and s.where[1] != os.getpid():
            killed.append(s.where[1])
            os.kill(s.where[1], signal.SIGKILL)

    result = run_tournament(TOURNAMENT, backend=Backend("ray"), status=kill_a_worker)
    assert killed
    assert comparable(result.to_json()) == comparable(reference.to_json())


def test_self_play_on_ray_writes_the_rows_of_this_machine(ray_local: None,
                                                          tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    tables = []
    for name, backend in (("here", Backend("local", 1)), ("ray", Backend("ray"))):
        job = SelfPlay(Rules(players=4), ("expert",) * 4, deals=6, seed=2,
                       out=str(tmp_path / name), chunk_size=3, worlds=2)
        Path(job.out).mkdir()
        run = run_job(job, backend)
        tables.append([pq.read_table(Path(job.out) / s["file"]).to_pylist()
                       for s in run.summaries])
    assert json.dumps(tables[0]) == json.dumps(tables[1])


def test_simulate_on_ray_plays_the_games_of_this_machine(ray_local: None) -> None:
    from typer.testing import CliRunner

    from euchre.cli import app

    args = ["simulate", "--json", "--players", "3", "--bots", "basic,random,basic",
            "--games", "120", "--seed", "4"]
    here = CliRunner().invoke(app, [*args, "--workers", "1"])
    there = CliRunner().invoke(app, [*args, "--ray"])
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    for data in (a, b):
        del data["seconds"], data["deals_per_second"]
    assert json.dumps(a) == json.dumps(b)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def two_nodes() -> Iterator[tuple[str, subprocess.Popen[bytes], dict[str, str]]]:
    """A head and a second node of one CPU each, by ``ray start``, on this machine; both
    stopped at the end (their process groups killed), whatever happened."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    temp = tempfile.mkdtemp(prefix="eray", dir="/tmp")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | QUIET
    # a dead node is noticed in about a second rather than half a minute
    head_env = env | {"RAY_health_check_period_ms": "500",
                      "RAY_health_check_failure_threshold": "3",
                      "RAY_health_check_timeout_ms": "500"}
    common = ["--node-ip-address", "127.0.0.1", "--num-cpus", "1", "--block",
              "--disable-usage-stats"]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(subprocess.Popen(
            [str(RAY), "start", "--head", "--port", str(port), "--temp-dir", temp,
             "--include-dashboard=false", "--ray-client-server-port", str(free_port()),
             *common], env=head_env, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_for_nodes(address, 1, env)
        procs.append(subprocess.Popen(
            [str(RAY), "start", "--address", address, *common], env=env,
            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        _wait_for_nodes(address, 2, env)
        yield address, procs[1], env
    finally:
        for proc in reversed(procs):
            _kill_group(proc)
        shutil.rmtree(temp, ignore_errors=True)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def _wait_for_nodes(address: str, nodes: int, env: dict[str, str]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        status = subprocess.run([str(RAY), "status", "--address", address], env=env,
                                capture_output=True, text=True, timeout=60)
        active = status.stdout.partition("Active:")[2].partition("Pending:")[0]
        if active.count("node_") >= nodes:
            return
        time.sleep(0.5)
    raise AssertionError(f"the Ray cluster at {address} has not {nodes} nodes after 90 s")


def test_two_nodes_give_the_json_of_multiprocessing_though_the_second_dies(
        reference: TournamentResult, tmp_path: Path) -> None:
    t = TOURNAMENT
    args = ["tournament", "--json", "--bots", ",".join(t.bots), "--deals", str(t.deals),
            "--seed", str(t.seed), "--chunk-size", str(t.chunk_size)]
    with two_nodes() as (address, second, env):
        whole = subprocess.run(
            [sys.executable, "-c", "from euchre.cli import main; main()", *args,
             "--ray-address", address], env=env, capture_output=True, text=True,
            timeout=300)
        assert whole.returncode == 0, whole.stderr
        assert comparable(json.loads(whole.stdout)) == comparable(reference.to_json())
        # again, and the second node dies once a few pieces are in
        checkpoint = tmp_path / "ck.jsonl"
        proc = subprocess.Popen(
            [sys.executable, "-c", "from euchre.cli import main; main()", *args,
             "--checkpoint", str(checkpoint)], env=env | {"RAY_ADDRESS": address},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 120
            while (not checkpoint.exists() or len(checkpoint.read_text().splitlines()) < 3
                   ) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            done_before = len(checkpoint.read_text().splitlines()) - 1
            _kill_group(second)
            out, err = proc.communicate(timeout=300)
        finally:
            proc.kill()
        assert proc.returncode == 0, err
        assert done_before < t.units(), "the run ended before the node was killed"
        assert comparable(json.loads(out)) == comparable(reference.to_json())


def test_the_expert_with_fixed_worlds_gives_the_same_json_on_ray_and_multiprocessing(
        ray_local: None) -> None:
    """``expert:WORLDS`` has no clock in its play, so its tournaments, like those of the
    bots without one, are the same for a seed on any backend."""
    t = Tournament(Rules(players=3), ("expert:4", "basic", "random"), deals=6, seed=5,
                   chunk_size=2)
    local = run_tournament(t, backend=Backend("local", 2))
    on_ray = run_tournament(t, backend=Backend("ray"))
    assert comparable(on_ray.to_json()) == comparable(local.to_json())
    assert comparable(run_tournament(t, workers=1).to_json()) == comparable(local.to_json())
