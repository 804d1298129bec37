"""Chunked work on this machine's cores or on a Ray cluster, with a checkpoint file.

Tournaments (:mod:`euchre.jobs.tournament`), ``euchre simulate`` and self-play
(:mod:`euchre.jobs.selfplay`) cut their work the same way: a :class:`ChunkedJob` is a number of
*units* (a unit is a chunk of deals, with every seed it needs derived from the job's seed
and the unit's number), each run by :meth:`ChunkedJob.run_unit` wherever a worker is, and
turned by :meth:`ChunkedJob.settle` on the driver into a small JSON summary.
:func:`run_job` returns those summaries **in unit order**, never in the order the units
finished, and the job reduces them itself: so for a seed the result is the same on one
process, on a pool of processes (:class:`Backend` ``local``) or on Ray (``ray``), on any
number of workers and nodes.

Every summary goes through JSON before it is reduced, whether it was just computed or read
back from a checkpoint, so a resumed run reduces exactly the values an undisturbed one does.

**Checkpoint.**  With ``checkpoint=FILE`` the file starts with one line naming the job
(its :meth:`ChunkedJob.parameters`), then one JSON line per finished unit, ``{"unit": u,
"summary": ...}``, written and flushed as units finish, and forced to the disk (``fsync``)
at most every :data:`SYNC_SECONDS` and at the end: a killed driver loses nothing, a crashed
machine at most the units of that last half second, which run again.  A run
given an existing checkpoint skips the units it holds; one made with other parameters is
refused with a :class:`CheckpointError` naming the differences.  A line cut short by a
kill is ignored (that unit runs again).

**Ray.**  ``ray`` is imported only when the Ray backend is asked for (the ``distributed``
extra).  Units go out as Ray tasks, at most a few per CPU of the cluster at a time, each
retried by Ray if its worker or its node dies (:data:`RAY_RETRIES`); the job itself is put
in the object store once.  The backend joins a running cluster (its address, or
``RAY_ADDRESS``, or the one started on this machine with ``ray start``) or else starts a
local Ray instance, and stops only what it started.

>>> class Squares:
...     kind = "squares"
...     def units(self): return 5
...     def parameters(self): return {"units": 5}
...     def run_unit(self, unit): return unit * unit
...     def settle(self, unit, output): return {"square": output}
...     def deals_of(self, summary): return 1
>>> [s["square"] for s in run_job(Squares()).summaries]
[0, 1, 4, 9, 16]
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, Protocol

from euchre import __version__

__all__ = [
    "POOL_START",
    "RAY_RETRIES",
    "SYNC_SECONDS",
    "Backend",
    "CheckpointError",
    "ChunkedJob",
    "JobRun",
    "Status",
    "StatusHook",
    "pays",
    "run_job",
]

RAY_RETRIES: Final = 8
"""How many times Ray runs a unit again after its worker or its node died."""
SYNC_SECONDS: Final = 0.5
"""A checkpoint is forced to the disk at most this often (each line is written and
flushed at once): an ``fsync`` per unit would bound a large cluster's rate."""
_PER_CPU: Final = 3
"""Ray tasks in flight per CPU of the cluster (enough to keep every worker busy)."""
POOL_START: Final = 2.0
"""Seconds a pool of spawned workers takes to start and do its first unit's setup (each
imports the package), measured by ``benchmarks/pool_start.py`` (docs/benchmarks.md, "When
workers pay"): a :class:`Backend` with ``auto`` starts them only for work that takes longer
than that in one process."""


class ChunkedJob(Protocol):
    """Work cut in units: what :func:`run_job` runs.  It must pickle (it is sent to the
    workers), and :meth:`run_unit` must depend only on the job and the unit number."""

    @property
    def kind(self) -> str:
        """A name for the kind of work (``tournament``, ``selfplay``…), kept in checkpoints."""
        ...

    def units(self) -> int:
        """How many units of work."""
        ...

    def parameters(self) -> dict[str, Any]:
        """Everything the results depend on, as JSON: a checkpoint's identity."""
        ...

    def run_unit(self, unit: int) -> Any:
        """Do one unit of work (on a worker); the output goes back to the driver."""
        ...

    def settle(self, unit: int, output: Any) -> dict[str, Any]:
        """On the driver: a unit's output as its JSON summary (self-play writes its file)."""
        ...

    def deals_of(self, summary: dict[str, Any]) -> int:
        """Deals a unit played, from its summary (for the progress report)."""
        ...


@dataclass(frozen=True, slots=True)
class Backend:
    """Where the units run: ``local`` (``workers`` processes; 1: this process) or ``ray``
    (``address``: a running cluster; ``None``: ``RAY_ADDRESS``, a cluster started on this
    machine, or a new local instance of ``workers`` CPUs, or every core if ``None``).

    ``auto`` (local): ``workers`` is the most; the units run in this process, and the rest
    go to a pool of workers only once the work left is worth their start (:func:`pays`)."""

    kind: str = "local"
    workers: int | None = 1
    address: str | None = None
    auto: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("local", "ray"):
            raise ValueError(f"the backend is local or ray, not {self.kind!r}")
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers are 1 or more, not {self.workers}")

    def describe(self) -> str:
        """``ray (auto)``, ``ray 10.0.0.1:6379``, ``local``."""
        if self.kind == "local":
            return "local"
        return f"ray {self.address or os.environ.get('RAY_ADDRESS') or '(local)'}"


@dataclass(frozen=True, slots=True)
class Status:
    """Where a run is: units done (skipped ones from a checkpoint included), deals played,
    and the nodes and worker processes that have returned work so far."""

    done: int
    total: int
    deals: int
    nodes: int
    workers: int
    resumed: int = 0
    """Units read back from the checkpoint rather than run."""
    unit: int | None = None
    """The unit that just finished (``None`` in the first report, before any ran)."""
    skipped: tuple[int, ...] = ()
    """In the first report: the units read back from the checkpoint."""
    where: tuple[str, int] | None = None
    """The node and the process that ran :attr:`unit`."""


StatusHook = Callable[[Status], None]


@dataclass(slots=True)
class JobRun:
    """What :func:`run_job` returns: the summaries in unit order and how the run went."""

    summaries: list[dict[str, Any]]
    seconds: float
    nodes: int
    workers: int
    resumed: int = 0
    deals: int = 0
    backend: str = "local"
    where: set[tuple[str, int]] = field(default_factory=set)


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used for this run."""


# -- checkpoints ------------------------------------------------------------------------------
def _header(job: ChunkedJob) -> dict[str, Any]:
    return {"checkpoint": job.kind, "units": job.units(),
            "parameters": _json_copy(job.parameters())}


def _json_copy(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _differences(was: dict[str, Any], now: dict[str, Any], prefix: str = "") -> list[str]:
    out = []
    for key in sorted(set(was) | set(now)):
        a, b = was.get(key), now.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{key}.")
        elif a != b:
            out.append(f"{prefix}{key} was {json.dumps(a)}, now {json.dumps(b)}")
    return out


def read_checkpoint(path: Path, job: ChunkedJob) -> dict[int, dict[str, Any]]:
    """The finished units a checkpoint holds (none if the file is missing or empty).

    Raises :class:`CheckpointError` if it was written for other work."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    lines = text.splitlines()
    if not lines:
        return {}
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or "checkpoint" not in header:
        raise CheckpointError(f"{path} is not a checkpoint of euchre (its first line names "
                              f"no work)")
    expected = _header(job)
    if header != expected:
        diff = _differences({k: v for k, v in header.items() if k != "parameters"}
                            | header.get("parameters", {}),
                            {k: v for k, v in expected.items() if k != "parameters"}
                            | expected["parameters"])
        raise CheckpointError(f"the checkpoint {path} was made for other work: "
                              + "; ".join(diff))
    done: dict[int, dict[str, Any]] = {}
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when the run was killed: that unit runs again
        if isinstance(entry, dict) and isinstance(entry.get("unit"), int):
            done[entry["unit"]] = entry["summary"]
    return done


class _Checkpoint:
    """The open checkpoint file: a line per finished unit, handed to the operating system
    before it counts (so the death of this process loses nothing), and forced to the disk
    (``fsync``) at most every :data:`SYNC_SECONDS` and at the end (so a crash of the
    machine loses at most those last units, which then run again)."""

    def __init__(self, path: Path, job: ChunkedJob, fresh: bool) -> None:
        cut = not fresh and not path.read_bytes().endswith(b"\n")
        self.file: IO[str] = path.open("a", encoding="utf-8")
        self.synced = 0.0
        if cut:  # a line cut short by a kill: the next one starts on a line of its own
            self.file.write("\n")
        if fresh:
            self._write(_header(job))

    def _write(self, entry: dict[str, Any]) -> None:
        self.file.write(json.dumps(entry) + "\n")
        self.file.flush()
        now = time.monotonic()
        if now - self.synced >= SYNC_SECONDS:
            os.fsync(self.file.fileno())
            self.synced = now

    def add(self, unit: int, summary: dict[str, Any]) -> None:
        self._write({"unit": unit, "summary": summary})

    def close(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()


# -- running ------------------------------------------------------------------------------
def _where() -> tuple[str, int]:
    """This worker: its node (Ray's node id in a Ray worker, else the host's name) and
    its process."""
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        return str(ray.get_runtime_context().get_node_id()), os.getpid()
    return socket.gethostname(), os.getpid()


def _unit_task(job: ChunkedJob, unit: int) -> tuple[int, Any, tuple[str, int]]:
    """One unit on a worker, with where it ran (module level: Ray and the pool import it)."""
    return unit, job.run_unit(unit), _where()


def _pool_task(args: tuple[ChunkedJob, int]) -> tuple[int, Any, tuple[str, int]]:
    return _unit_task(*args)


Finished = Iterator[tuple[int, Any, tuple[str, int]]]


def _run_here(job: ChunkedJob, todo: list[int]) -> Finished:
    for unit in todo:
        yield _unit_task(job, unit)


def _run_pool(job: ChunkedJob, todo: list[int], workers: int) -> Finished:
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        yield from pool.imap_unordered(_pool_task, [(job, u) for u in todo])


def pays(left_seconds: float, workers: int, start: float = POOL_START) -> bool:
    """Whether a pool of ``workers`` finishes work that would take ``left_seconds`` in
    this process sooner, its ``start`` included: ``start + left / workers < left``.

    >>> pays(0.05, 2), pays(3.0, 2), pays(5.0, 2), pays(100.0, 1)
    (False, False, True, False)
    """
    return workers > 1 and start + left_seconds / workers < left_seconds


def _run_auto(job: ChunkedJob, todo: list[int], workers: int) -> Finished:
    """Units in this process, one after the other; after each, the time the last one took
    estimates the rest, and once a pool :func:`pays` for them, the rest go to one.  The
    first unit may include loading or compiling what later ones reuse (a worker would pay
    it too): it decides alone only when it took longer than a pool's start."""
    for i, unit in enumerate(todo):
        start = time.perf_counter()
        yield _unit_task(job, unit)
        took = time.perf_counter() - start
        rest = todo[i + 1:]
        pool = min(workers, len(rest))
        if (i >= 1 or took > POOL_START) and rest and pays(took * len(rest), pool):
            yield from _run_pool(job, rest, pool)
            return


def ray_connect(address: str | None, workers: int | None) -> bool:
    """Join a Ray cluster or start a local instance; whether it was started here (and so
    must be stopped by :func:`ray_disconnect`).  Does nothing if Ray is already up in
    this process."""
    try:
        import ray
    except ImportError:
        raise ImportError("the Ray backend needs Ray: pip install -e '.[distributed]'") from None
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False,
                             "configure_logging": True}
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, **quiet)
        return True
    try:
        ray.init(address="auto", **quiet)  # a cluster started on this machine (ray start)
    except ConnectionError:
        ray.init(num_cpus=workers, include_dashboard=False, **quiet)
    return True


def ray_disconnect(started: bool) -> None:
    """Leave the cluster joined by :func:`ray_connect` (stopping an instance it started)."""
    if started:
        import ray

        ray.shutdown()


def _run_ray(job: ChunkedJob, todo: list[int]) -> Finished:
    import ray

    task = ray.remote(num_cpus=1, max_retries=RAY_RETRIES, retry_exceptions=False)(_unit_task)
    job_ref = ray.put(job)
    resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
    cpus = max(1, int(resources.get("CPU", 1)))
    queue = iter(todo)
    flying: list[Any] = []

    def submit(count: int) -> None:
        for unit in queue:
            flying.append(task.remote(job_ref, unit))
            count -= 1
            if count <= 0:
                return

    submit(_PER_CPU * cpus)
    while flying:
        # wait for one, then take every other one finished by now: one call each for
        # many chunks, so the driver's cost per chunk falls as the cluster grows
        ready, rest = ray.wait(flying, num_returns=1)
        if rest:
            more, rest = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        flying[:] = rest
        submit(len(ready))
        yield from ray.get(ready)


def run_job(job: ChunkedJob, backend: Backend | None = None, checkpoint: Path | None = None,
            status: StatusHook | None = None) -> JobRun:
    """Run every unit of ``job`` not already in ``checkpoint``; the summaries in unit order.

    Raises :class:`CheckpointError` for a checkpoint of other work, ``ImportError`` for
    the Ray backend without Ray."""
    backend = backend or Backend()
    start = time.perf_counter()
    total = job.units()
    done: dict[int, dict[str, Any]] = {}
    if checkpoint is not None:
        done = read_checkpoint(checkpoint, job)
    resumed = len(done)
    todo = [u for u in range(total) if u not in done]
    deals = sum(job.deals_of(s) for s in done.values())
    where: set[tuple[str, int]] = set()
    book = None
    if checkpoint is not None:
        book = _Checkpoint(checkpoint, job, fresh=not done and not _has_header(checkpoint))

    def report(unit: int | None, place: tuple[str, int] | None = None) -> None:
        if status is not None:
            status(Status(len(done), total, deals, len({n for n, _ in where}), len(where),
                          resumed, unit, tuple(sorted(done)) if unit is None else (), place))

    # Ray prints its notices to the driver (a task retried, a node lost) on standard
    # output, from a thread: keep standard output for the command's own output
    quiet = redirect_stdout(sys.stderr) if backend.kind == "ray" else nullcontext()
    with quiet:
        started = False
        try:
            report(None)
            finished: Iterable[tuple[int, Any, tuple[str, int]]]
            if backend.kind == "ray":
                started = ray_connect(backend.address, backend.workers)
                finished = _run_ray(job, todo)
            elif backend.auto and (backend.workers or 1) > 1 and len(todo) > 1:
                finished = _run_auto(job, todo, backend.workers or 1)
            elif (backend.workers or 1) > 1 and len(todo) > 1:
                finished = _run_pool(job, todo, min(backend.workers or 1, len(todo)))
            else:
                finished = _run_here(job, todo)
            for unit, output, place in finished:
                summary = _json_copy(job.settle(unit, output))
                if book is not None:
                    book.add(unit, summary)
                done[unit] = summary
                deals += job.deals_of(summary)
                where.add(place)
                report(unit, place)
        finally:
            if book is not None:
                book.close()
            ray_disconnect(started)
    summaries = [_json_copy(done[u]) for u in range(total)]
    return JobRun(summaries, time.perf_counter() - start, len({n for n, _ in where}),
                  len(where), resumed, deals, backend.kind, where)


def _has_header(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


def versions() -> dict[str, str]:
    """The versions of euchre, Python and the optional libraries a run used."""
    import platform

    out = {"euchre": __version__, "python": platform.python_version()}
    for name in ("numpy", "pyarrow", "ray"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        out[name] = str(getattr(module, "__version__", "?"))
    return out
