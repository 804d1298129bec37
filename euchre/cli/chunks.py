"""The options and the progress bar of the commands whose work goes out in chunks
(``euchre tournament``, ``simulate``, ``selfplay``): ``--workers``, ``--ray``,
``--ray-address``, ``--checkpoint``, and one bar over all chunks with the deals per second
and the nodes and workers in use (:mod:`euchre.jobs.distributed`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from euchre.cli.options import fail
from euchre.jobs.distributed import Backend, Status, StatusHook

__all__ = ["CheckpointOption", "RayAddressOption", "RayOption", "WorkersOption", "backend_of",
           "chunk_bar"]

RayOption = Annotated[bool, typer.Option(
    "--ray", help="Run the chunks as Ray tasks (the distributed extra): join the cluster "
                  "of --ray-address or RAY_ADDRESS, else one started on this machine with "
                  "`ray start`, else start a local Ray instance (of --workers CPUs). The "
                  "results are the same as without it.")]
RayAddressOption = Annotated[str | None, typer.Option(
    "--ray-address", metavar="ADDRESS", envvar="RAY_ADDRESS", show_default=False,
    help="The Ray cluster to run on, HOST:PORT of its head (implies --ray). Default: "
         "RAY_ADDRESS.")]
WorkersOption = Annotated[int | None, typer.Option(
    "--workers", "-w", metavar="W", show_default=False,
    help="Processes to play on (with --ray: the CPUs of a local Ray instance it "
         "starts). Default: every core, once the work left pays for starting them "
         "(a small job runs in this process).")]
CheckpointOption = Annotated[Path | None, typer.Option(
    "--checkpoint", metavar="FILE", dir_okay=False, show_default=False,
    help="Append every finished chunk to FILE (JSON lines) as it completes; run again "
         "with the same FILE and the same options to resume, skipping them, with the same "
         "result.")]


def backend_of(ray: bool, address: str | None, workers: int | None) -> Backend:
    """The backend the options ask for (``--ray-address`` implies ``--ray``)."""
    if workers is not None and workers < 1:
        fail(f"--workers is a number of processes, 1 or more, not {workers}")
    if ray or address:
        return Backend("ray", workers, address or None)
    return Backend("local", workers)


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{secs:02d}" if minutes >= 60 else \
        f"{minutes}:{secs:02d}"


@contextmanager
def chunk_bar(label: str, chunks: int, show: bool,
              checkpoint: Path | None = None) -> Iterator[StatusHook]:
    """A bar over ``chunks`` units of work on standard error; yields the status hook that
    moves it.  Ctrl-C ends the command with one line (and how to resume from
    ``checkpoint``) and exit status 130."""
    bar = Progress(TextColumn(f"[bold]{label}[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("chunks · {task.fields[rate]} deals/s · {task.fields[nodes]} "
                              "node(s), {task.fields[workers]} worker(s)"),
                   TimeElapsedColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), disable=not show, transient=True)
    start = time.perf_counter()
    first: list[int] = []
    # Not a terminal (a log file, a pipe, CI): no bar can be drawn, so a line at each
    # tenth of the work instead.
    lines = show and not bar.console.is_terminal
    said = [0]
    with bar:
        task = bar.add_task(label, total=chunks, rate="–", nodes=0, workers=0)

        def update(s: Status) -> None:
            if not first:
                first.append(s.deals)
            seconds = time.perf_counter() - start
            rate = f"{(s.deals - first[0]) / seconds:,.0f}" if seconds > 0 else "–"
            bar.update(task, completed=s.done, rate=rate, nodes=s.nodes, workers=s.workers)
            tenth = s.done * 10 // max(chunks, 1)
            if lines and tenth > said[0] and s.resumed < s.done < chunks:
                said[0] = tenth
                left = seconds / max(s.done - s.resumed, 1) * (chunks - s.done)
                bar.console.print(f"{label}: {s.done}/{chunks} chunks, {rate} deals/s, "
                                  f"{_clock(seconds)} elapsed, about {_clock(left)} left",
                                  markup=False, highlight=False)

        try:
            yield update
        except KeyboardInterrupt:
            bar.stop()
            done = bar.tasks[0].completed
            how = (f"; the {done:.0f} finished are in {checkpoint}: run the same command "
                   f"to resume" if checkpoint is not None else
                   " (give --checkpoint FILE to be able to resume)")
            fail(f"interrupted after {done:.0f} of {chunks} chunks{how}", 130)
