"""``euchre train``: the expert's learned pre-play correction (:mod:`euchre.jobs.train`).

``euchre train prebid`` plays the deals (in chunks, on this machine's cores or Ray),
writes the rows (Parquet with the ``data`` extra, else ``.npz``), fits the model and writes
it with a report; ``euchre train fit`` fits again from saved rows.  The files are written
here, never by :mod:`euchre.jobs.train`.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
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

from euchre.bots.learned import FEATURES, GROUPS
from euchre.bots.modelfiles import rules_key
from euchre.cli.chunks import (
    CheckpointOption,
    RayAddressOption,
    RayOption,
    WorkersOption,
    backend_of,
    chunk_bar,
)
from euchre.cli.options import (
    RulesGiven,
    fail,
    rules_options,
    show_progress,
)
from euchre.jobs.distributed import Backend, CheckpointError, run_job, versions
from euchre.jobs.net import DEFAULT_LAYERS, NetOptions
from euchre.jobs.train import (
    COLUMNS,
    DEFAULT_TOP,
    DEFAULT_WORLDS,
    PrebidData,
    Rows,
    as_rows,
    gather,
    holdout,
    make_model,
    model_name,
)
from euchre.rules import Rules

if TYPE_CHECKING:
    from euchre.jobs.cfr import LeafTable

__all__ = ["read_rows", "train_app", "write_rows"]

train_app = typer.Typer(
    help="Train the bots' learned models: `prebid` plays deals, records the expert's "
         "pre-play decisions played out to the end and fits its correction; `fit` fits it "
         "again from saved rows; `net` trains the net bot's policy and value on self-play "
         "data; `cfr` learns the bidding by counterfactual regret. See docs/training.md.",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
)

_FORMAT = "euchre-prebid-rows"


# -- the rows' files ---------------------------------------------------------------------
def _pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet
    except ImportError:
        return None
    return pa


def write_rows(rows: Rows, header: dict[str, Any], folder: Path, stem: str) -> Path:
    """Write the rows with their header: Parquet when pyarrow is there, else ``.npz``."""
    meta = json.dumps({**header, "format": _FORMAT, "features": list(FEATURES)})
    pa = _pyarrow()
    if pa is not None:
        arrays = [pa.array(rows[c]) for c in COLUMNS if c != "features"]
        feats = rows["features"]
        arrays.append(pa.FixedSizeListArray.from_arrays(
            pa.array(feats.reshape(-1), type=pa.float64()), len(FEATURES)))
        table = pa.Table.from_arrays(arrays, names=list(COLUMNS))
        table = table.replace_schema_metadata({"euchre": meta})
        path = folder / f"{stem}.parquet"
        pa.parquet.write_table(table, path)
        return path
    path = folder / f"{stem}.npz"
    with path.open("wb") as f:
        named: dict[str, Any] = {"header": np.array(meta), **rows}
        np.savez_compressed(f, **named)
    return path


def read_rows(path: Path) -> tuple[Rows, dict[str, Any]]:
    """Rows and header of a file :func:`write_rows` wrote; ``ValueError`` if it cannot."""
    try:
        if path.suffix == ".parquet":
            pa = _pyarrow()
            if pa is None:
                raise ValueError("reading Parquet needs pyarrow: pip install 'euchre[data]'")
            table = pa.parquet.read_table(path)
            meta = (table.schema.metadata or {}).get(b"euchre")
            header = json.loads(meta) if meta else {}
            cols: dict[str, Any] = {c: table.column(c).to_pylist() for c in COLUMNS}
            rows = as_rows(cols)
        else:
            with np.load(path, allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                rows = as_rows({c: data[c] for c in COLUMNS})
    except (OSError, KeyError, ValueError, EOFError) as e:
        raise ValueError(f"cannot read the rows {path}: {e}") from e
    if header.get("format") != _FORMAT or header.get("features") != list(FEATURES):
        raise ValueError(f"{path} holds no pre-play rows of this version's features")
    return rows, header


# -- report ------------------------------------------------------------------------------------
def _calibration_lines(report: dict[str, Any]) -> list[str]:
    out = [f"held-out deals: {report['rows']} rows; calibration error (mean |predicted - "
           f"realised|, bid minus pass) {report['error_before']:.3f} -> "
           f"{report['error_after']:.3f}; squared error {report['mse_before']:.3f} -> "
           f"{report['mse_after']:.3f}; choices changed "
           f"{report['changed']['changed']:.1%} of {report['changed']['decisions']}, "
           f"realised gain {report['changed']['gain']:+.3f} ± "
           f"{report['changed']['gain_ci95']:.3f} a decision"]
    for when in ("before", "after"):
        out.append(f"{when} the correction: bid minus pass, predicted and realised")
        for t in report[when]:
            out.append(f"  {t['group']:5s} {t['kind']:5s} [{t['from']:+.1f}, {t['to']:+.1f})"
                       f"  n={t['n']:5d}  predicted {t['predicted']:+.2f}  realised "
                       f"{t['realised']:+.2f} ± {t['ci95']:.2f}")
    return out


def _fit_and_write(rows: Rows, rules: Rules, header: dict[str, Any], model_path: Path,
                   json_out: bool) -> dict[str, Any]:
    report = holdout(rows)
    model, result = make_model(rows, rules, {**header, "holdout": {
        k: report[k] for k in ("rows", "error_before", "error_after", "mse_before",
                               "mse_after", "changed")}})
    try:
        model.save(model_path)
    except OSError as e:
        fail(f"cannot write the model {model_path}: {e.strerror}", 1)
    summary = {"model": str(model_path), "rows": len(rows["deal"]), "fit": result.stats,
               "holdout": report}
    if not json_out:
        typer.echo(f"model {model_path}: {len(rows['deal'])} rows")
        for name in GROUPS:
            s = result.stats.get(name)
            if s and s.get("fitted"):
                typer.echo(f"  {name:8s} rows {s['rows']:6.0f}  penalties "
                           f"{s['penalty_within']:g}, {s['penalty']:g}  squared error "
                           f"{s['mse_pimc']:.3f} -> {s['mse_fit']:.3f}, between actions "
                           f"{s['mse_differences_pimc']:.3f} -> "
                           f"{s['mse_differences_fit']:.3f}  bias {s['bias_pimc']:+.3f}")
            elif s:
                typer.echo(f"  {name:8s} rows {s['rows']:6.0f}  too few: not corrected")
        for line in _calibration_lines(report):
            typer.echo(line)
    return summary


def _command() -> str:
    return shlex.join(["euchre", *sys.argv[1:]])


# -- commands ----------------------------------------------------------------------------
@train_app.command("prebid")
@rules_options(not_here={"draw": "the rows are of single deals, not games",
                         "rubber": "the rows are of single deals, not games"})
def prebid_command(
    rules_given: RulesGiven,
    deals: Annotated[int, typer.Option(
        "--deals", "-k", metavar="D", help="Deals to play.")] = 500,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", help="Seed of the deals, the scores and the bots: the same "
                                    "seed gives the same rows and model.")] = 1,
    worlds: Annotated[int, typer.Option(
        "--worlds", metavar="W", help="Worlds the student (pimc) samples a decision.")
    ] = DEFAULT_WORLDS,
    top: Annotated[int, typer.Option(
        "--top", metavar="K", help="Actions played out a decision, the best by PIMC value "
                                   "(and passing besides, when legal).")] = DEFAULT_TOP,
    out: Annotated[Path, typer.Option(
        "--out", metavar="DIR", file_okay=False,
        help="The folder for the rows, the model (prebid-N....npz) and the report; made if "
             "missing. Copy the model into euchre/bots/models/ to ship it.")
    ] = Path("train-prebid"),
    workers: WorkersOption = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    checkpoint: CheckpointOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: the files, the fit and the held-out "
                       "calibration.")] = False,
) -> None:
    """Record the pimc bot's pre-play decisions played out to the end, and fit the
    expert's correction of its values.

    Each decision before the first lead of the student seat (bids, going alone, the
    exchange, the dummy, the call, defending alone): its best actions by PIMC value and
    passing are each played out to the end of the deal; the model learns realised minus
    PIMC value from the decision's features, by ridge regression. Prints the fit and the
    calibration on held-out deals (one in five) before and after the correction.
    """
    rules = rules_given.build()
    if deals < 1:
        fail(f"--deals is a number of deals, 1 or more, not {deals}")
    if worlds < 1 or top < 1:
        fail("--worlds and --top are 1 or more")
    backend = backend_of(ray, ray_address, workers)
    job = PrebidData(rules, deals, seed, worlds, top)
    if backend.kind == "local":
        from euchre.jobs.tournament import default_workers

        backend = Backend("local", min(workers or default_workers(), job.units()))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot make the folder {out}: {e.strerror}", 1)
    try:
        with chunk_bar("train prebid", job.units(), show_progress(json_out),
                       checkpoint) as update:
            run = run_job(job, backend, checkpoint, update)
    except (CheckpointError, ImportError) as e:
        fail(str(e))
    rows = gather(run.summaries)
    header = {"command": _command(), "parameters": job.parameters(), "seed": seed,
              "deals": deals, "seconds": round(run.seconds, 3), "versions": versions()}
    name = model_name(rules)
    stem = name.removesuffix(".npz")
    data_path = write_rows(rows, header, out, f"rows-{stem}")
    summary = _fit_and_write(rows, rules, header, out / name, json_out)
    summary.update(data=str(data_path), deals=deals, seconds=round(run.seconds, 3))
    (out / f"report-{stem}.json").write_text(json.dumps(summary, indent=1) + "\n",
                                             encoding="utf-8")
    if json_out:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(f"{deals} deals in {run.seconds:.1f} s; rows {data_path}")


@train_app.command("fit")
def fit_command(
    data: Annotated[list[Path], typer.Argument(
        metavar="ROWS...", help="Rows written by `euchre train prebid` (.parquet or .npz), "
                                "all of the same rules.")],
    out: Annotated[Path, typer.Option(
        "--out", metavar="FILE", dir_okay=False,
        help="The model file to write (.npz).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Fit the pre-play correction again from saved rows and write the model."""
    parts: list[Rows] = []
    headers: list[dict[str, Any]] = []
    for i, path in enumerate(data):
        try:
            rows, header = read_rows(path)
        except ValueError as e:
            fail(str(e), 1)
        rows["deal"] = rows["deal"] + i * 1_000_000_000  # distinct deals across files
        parts.append(rows)
        headers.append(header)
    rules_of = {json.dumps(h.get("parameters", {}).get("rules"), sort_keys=True)
                for h in headers}
    if len(rules_of) != 1:
        fail("the rows are of different rules: fit one variant at a time")
    rules = Rules.from_dict(headers[0]["parameters"]["rules"])
    rows = {c: np.concatenate([p[c] for p in parts]) for c in parts[0]}
    header = {"command": _command(), "sources": [_source(h) for h in headers],
              "deals": sum(int(h.get("deals", 0)) for h in headers),
              "versions": versions()}
    summary = _fit_and_write(rows, rules, header, out, json_out)
    if json_out:
        typer.echo(json.dumps(summary))


def _source(header: dict[str, Any]) -> dict[str, Any]:
    return {k: header.get(k) for k in ("command", "seed", "deals", "parameters")}



# -- the net: a learned policy and value (euchre.jobs.net) ----------------------------------
@train_app.command("net")
@rules_options(not_here={"draw": "the rows are of single deals, not games",
                         "rubber": "the rows are of single deals, not games"})
def net_command(
    rules_given: RulesGiven,
    data: Annotated[list[Path], typer.Argument(
        metavar="SELFPLAY...", help="Folders written by `euchre selfplay` (manifest.json "
                                    "and its Parquet chunks), the first of the rules given; "
                                    "the others may differ in the deck, the joker, stick "
                                    "the dealer, the dealer must take up and defending "
                                    "alone, which the model then takes as inputs.")],
    out: Annotated[Path, typer.Option(
        "--out", metavar="FILE", dir_okay=False,
        help="The model file to write (.npz); a report (.json) is written beside it. Name "
             "it net-N....npz (as `euchre train net` prints) in euchre/bots/models/ to "
             "ship it.")],
    layers: Annotated[str, typer.Option(
        "--layers", metavar="W[,W...]", help="The widths of the shared layers.")
    ] = ",".join(map(str, DEFAULT_LAYERS)),
    epochs: Annotated[int, typer.Option("--epochs", metavar="E", help="Passes over the "
                                        "training rows.")] = NetOptions.epochs,
    batch: Annotated[int, typer.Option("--batch", metavar="B", help="Rows a step.")
                     ] = NetOptions.batch,
    lr: Annotated[float, typer.Option("--lr", metavar="LR", help="The peak learning "
                                      "rate (one cycle).")] = NetOptions.lr,
    value_weight: Annotated[float, typer.Option(
        "--value-weight", metavar="V", help="The value loss's weight beside the "
                                            "policy's.")] = NetOptions.value_weight,
    weight_decay: Annotated[float, typer.Option(
        "--weight-decay", metavar="WD", help="AdamW's weight decay.")
    ] = NetOptions.weight_decay,
    holdout: Annotated[float, typer.Option(
        "--holdout", metavar="SHARE", help="The share of the deals held out, every "
                                           "decision of them.")] = NetOptions.holdout,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", help="Seed of the split, the initial weights and the "
                                    "minibatches: the same data and seed give the same "
                                    "model.")] = NetOptions.seed,
    threads: Annotated[int, typer.Option(
        "--threads", metavar="T", help="CPU threads PyTorch may use.")] = NetOptions.threads,
    split_seed: Annotated[int | None, typer.Option(
        "--split-seed", metavar="S", help="Seed of the held-out deals alone (default: "
                                          "--seed), to train again on the same split.")
    ] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: the file and the statistics.")] = False,
) -> None:
    """Train the net: a learned policy and value of play, from self-play decisions.

    A small network over each decision's observation tensor predicts the action the bot
    took (the illegal ones masked out) and the seat's points of the deal. Held out: a
    share of the deals. Prints the held-out top-1 accuracy (all decisions with a choice,
    those before the first lead, card play) and the value's error beside that of
    predicting the mean. Data of several rules sets train one model that takes the options
    in which they differ as inputs, and plays under each. Needs the rl extra (PyTorch) to
    train; the `net` bot plays the file with numpy alone.
    """
    from euchre.bots.net import NetModel, net_name
    from euchre.jobs.net import NetOptions as Options
    from euchre.jobs.net import read_selfplay, train

    rules = rules_given.build()
    try:
        widths = tuple(int(w) for w in layers.split(","))
        options = Options(widths, epochs, batch, lr, value_weight, weight_decay, holdout,
                          seed, threads, split_seed)
    except ValueError as e:
        fail(f"--layers takes widths such as 256,256, and the numbers their ranges: {e}")
    try:
        rows = read_selfplay(data)
    except (ValueError, ImportError) as e:
        fail(str(e), 1)
    given, played = rules.to_dict(), rows.rules.to_dict()
    differ = {k: v for k, v in played.items() if k != "target" and given.get(k) != v}
    if differ:
        fail(f"the data were played under other rules than those given ({json.dumps(differ)}"
             f"): give the rules they were played under")
    if not json_out:
        typer.echo(f"{len(rows.action)} decisions of {rows.deals} deals; training "
                   f"{net_name(rules)}")
    bar = Progress(TextColumn("[bold]train net[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("epochs · loss {task.fields[loss]}"), TimeElapsedColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True),
                   disable=not show_progress(json_out), transient=True)
    try:
        with bar:
            task = bar.add_task("train net", total=epochs, loss="–")

            def progress(epoch: int, loss: float) -> None:
                bar.update(task, completed=epoch, loss=f"{loss:.4f}")

            model, stats = train(rows, options, progress)
    except ImportError as e:
        fail(str(e))
    model = NetModel(model.trunk, model.policy, model.value,
                     {**model.header, "command": _command(), "versions": versions()},
                     model.checks)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        model.save(out)
        out.with_suffix(".json").write_text(json.dumps(model.header, indent=1) + "\n",
                                            encoding="utf-8")
    except OSError as e:
        fail(f"cannot write the model {out}: {e.strerror}", 1)
    summary = {"model": str(out), "bytes": out.stat().st_size, "stats": stats}
    if json_out:
        typer.echo(json.dumps(summary))
        return
    typer.echo(f"model {out} ({out.stat().st_size:,} bytes), {stats['seconds']:.0f} s")
    for split in ("train", "holdout"):
        s = stats[split]
        typer.echo(f"  {split:7s} top-1 {s['top1_all']:.3f} of {s['decisions_all']} "
                   f"decisions with a choice: before the first lead {s['top1_preplay']:.3f} "
                   f"({s['decisions_preplay']}), card play {s['top1_play']:.3f} "
                   f"({s['decisions_play']}); log loss {s['log_loss']:.3f}; value RMSE "
                   f"{s['value_rmse']:.3f} (the mean's {s['mean_rmse']:.3f})")
    for label, s in stats.get("holdout_by_rules", {}).items():
        top1 = {k: "–" if s[k] is None else f"{s[k]:.3f}"
                for k in ("top1_all", "top1_preplay", "top1_play")}
        typer.echo(f"  held out, {label}: top-1 {top1['top1_all']} of {s['decisions_all']}, "
                   f"before the first lead {top1['top1_preplay']}, card play "
                   f"{top1['top1_play']}; value RMSE {s['value_rmse']:.3f}")


# -- the bidding by counterfactual regret (euchre.jobs.cfr) ----------------------------------
_CFR_CHECKPOINT = "euchre-cfr-checkpoint"


def _save_tables(path: Path, tables: Any, parameters: dict[str, Any]) -> None:
    """Write the tables and the run's parameters, whole or not at all (a temporary file
    renamed over the old one)."""
    part = path.with_name(path.name + ".part")
    with part.open("wb") as f:
        np.savez(f, regret=tables.regret, strategy=tables.strategy, visits=tables.visits,
                 rounds=np.array(tables.rounds),
                 header=np.array(json.dumps({"format": _CFR_CHECKPOINT,
                                             "parameters": parameters}, sort_keys=True)))
    part.replace(path)


def _load_tables(path: Path, parameters: dict[str, Any]) -> Any:
    """The tables of a checkpoint made with the same parameters; exits naming the
    difference otherwise."""
    from euchre.jobs.cfr import Tables

    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            tables = Tables(np.array(data["regret"]), np.array(data["strategy"]),
                            np.array(data["visits"]), int(data["rounds"]))
    except (OSError, ValueError, KeyError, EOFError) as e:
        fail(f"cannot read the checkpoint {path}: {e}", 1)
    if header.get("format") != _CFR_CHECKPOINT:
        fail(f"{path} is not a checkpoint of `euchre train cfr`", 1)
    was = header.get("parameters", {})
    differ = sorted(k for k in set(was) | set(parameters) if was.get(k) != parameters.get(k))
    if differ:
        fail(f"the checkpoint {path} was made with other options ({', '.join(differ)}): "
             f"give the same ones to resume, or another --out", 1)
    return tables


_FIT_UNIT = 250
"""Deals a unit of the leaf's fit plays out."""


def _fit_leaf(rules: Rules, seed: int, deals: int, bot: str, checkpoint: Path,
              backend: Backend, json_out: bool) -> LeafTable:
    """The fitted leaf's table (``--leaf fitted:W``): its play-outs run as a chunked job
    with a progress bar, kept in ``checkpoint`` and resumed from it."""
    from euchre.jobs.cfr import LeafFit, LeafTable
    from euchre.jobs.distributed import Status

    units = -(-deals // _FIT_UNIT)
    job = LeafFit(rules, seed, units, _FIT_UNIT, bot)
    bar = Progress(TextColumn("[bold]fit the leaf[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("units"), TimeElapsedColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), disable=not show_progress(json_out),
                   transient=True)
    try:
        with bar:
            task = bar.add_task("fit", total=units)

            def status(s: Status) -> None:
                bar.update(task, completed=s.done)

            run = run_job(job, backend, checkpoint, status)
    except CheckpointError as e:
        fail(f"{e}: give the same options to resume, or another --out", 1)
    except KeyboardInterrupt:
        fail(f"interrupted while fitting the leaf; the finished units are in {checkpoint}: "
             f"run the same command to resume", 130)
    except ImportError as e:
        fail(str(e))
    return LeafTable.sum(bot, (s["counts"] for s in run.summaries))


@train_app.command("cfr")
@rules_options(not_here={"draw": "the strategy is of single deals, not games",
                         "rubber": "the strategy is of single deals, not games",
                         "target": "the strategy is of single deals, without the score"})
def cfr_command(
    rules_given: RulesGiven,
    deals: Annotated[int, typer.Option(
        "--deals", "-k", metavar="D", help="Deals to train on in all (iterations: each "
                                           "walks every seat's decisions).")] = 2000,
    round_deals: Annotated[int, typer.Option(
        "--round", metavar="R", help="Deals a round: the regrets are updated between "
                                     "rounds, and a checkpoint written.")] = 200,
    units: Annotated[int, typer.Option(
        "--units", metavar="U", help="Chunks a round is cut into (the work the workers "
                                     "share); part of the result, unlike --workers.")] = 4,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", help="Seed of the deals and the sampled actions: the same "
                                    "seed and options give the same strategy.")] = 1,
    leaf: Annotated[str, typer.Option(
        "--leaf", metavar="solver|expert:W|fitted:W",
        help="How a deal is valued from its first lead: the open-hand solver; played out "
             "by expert:W at every seat; or the solver's tricks read through a table of "
             "how expert:W's play-outs spread around them (fitted first, on --fit-deals "
             "deals).")] = "solver",
    fit_deals: Annotated[int, typer.Option(
        "--fit-deals", metavar="F", help="With --leaf fitted:W: deals played out to fit "
                                         "the table (in units of 250; kept in --out, "
                                         "resumed like the training).")] = 10000,
    min_visits: Annotated[int, typer.Option(
        "--min-visits", metavar="V", help="Ship only the information sets trained at "
                                          "least this often.")] = 5,
    out: Annotated[Path, typer.Option(
        "--out", metavar="DIR", file_okay=False,
        help="The folder for the checkpoint, the strategy (cfr-N....npz) and the report; "
             "made if missing. Run again with the same options to resume; copy the "
             "strategy into euchre/bots/models/ to ship it.")] = Path("train-cfr"),
    workers: WorkersOption = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object: the files and the tables' statistics.")
    ] = False,
) -> None:
    """Learn the bidding by counterfactual regret, and write its average strategy.

    External-sampling Monte Carlo CFR (regret matching+, linear averaging) over every
    decision before the first lead, on an abstraction of the information sets
    (euchre.bots.cfr), the deals valued by the open-hand solver or by the expert's play
    (euchre.jobs.cfr). Rounds of --round deals, each cut into --units chunks run on this
    machine's cores or on Ray against the regrets of the round's start: the result does
    not depend on the workers, and a run stopped and started again resumes from the
    checkpoint in --out with the same result. The `expert:W:cfr` bot plays the strategy.
    """
    from euchre.bots.cfr import strategy_name
    from euchre.jobs.cfr import (
        BiddingGame,
        CfrRound,
        LeafTable,
        Tables,
        finish_round,
        strategy_of,
    )

    rules = rules_given.build()
    if deals < 1 or round_deals < 1 or units < 1 or min_visits < 0 or fit_deals < 1:
        fail("--deals, --round, --units and --fit-deals are 1 or more, --min-visits 0 or "
             "more")
    if round_deals % units:
        fail(f"--round ({round_deals}) must be a multiple of --units ({units})")
    fitted = leaf.startswith("fitted:")
    try:
        BiddingGame(rules, leaf, LeafTable.of("", []) if fitted else None)
    except ValueError as e:
        fail(str(e))
    rounds = -(-deals // round_deals)
    backend = backend_of(ray, ray_address, workers)
    if backend.kind == "local":
        from euchre.jobs.tournament import default_workers

        backend = Backend("local", min(workers or default_workers(), units))
    parameters: dict[str, Any] = {"rules": rules.to_dict(), "seed": seed,
                                  "round": round_deals, "units": units, "leaf": leaf}
    if fitted:
        parameters["fit_deals"] = fit_deals
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"cannot make the folder {out}: {e.strerror}", 1)
    name = strategy_name(rules)
    stem = name.removesuffix(".npz")
    checkpoint = out / f"checkpoint-{stem}.npz"
    tables = _load_tables(checkpoint, parameters) if checkpoint.exists() else Tables.empty()
    table = (_fit_leaf(rules, seed, fit_deals, "expert:" + leaf.partition(":")[2],
                       out / f"leaf-{stem}.jsonl", backend, json_out) if fitted else None)
    resumed = tables.rounds
    bar = Progress(TextColumn("[bold]train cfr[/]"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("rounds · {task.fields[rate]} deals/s"), TimeElapsedColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True),
                   disable=not show_progress(json_out), transient=True)
    seconds = 0.0
    try:
        with bar:
            task = bar.add_task("train cfr", total=rounds, completed=min(resumed, rounds),
                                rate="–")
            while tables.rounds < rounds:
                job = CfrRound(rules, seed, tables.rounds, units, round_deals // units,
                               tables.regret.copy(), leaf, table)
                run = run_job(job, backend)
                seconds += run.seconds
                finish_round(tables, run.summaries)
                _save_tables(checkpoint, tables, parameters)
                done = (tables.rounds - resumed) * round_deals
                bar.update(task, completed=tables.rounds,
                           rate=f"{done / seconds:,.1f}" if seconds > 0 else "–")
    except KeyboardInterrupt:
        fail(f"interrupted after {tables.rounds} of {rounds} rounds; the finished ones are "
             f"in {checkpoint}: run the same command to resume", 130)
    except ImportError as e:
        fail(str(e))
    header = {"command": _command(), "parameters": parameters, "deals": rounds * round_deals,
              "rounds": tables.rounds, "rules": rules.to_dict(),
              "rules_key": rules_key(rules), "versions": versions()}
    if table is not None:
        header["leaf_table"] = table.to_dict()
    strategy = strategy_of(tables, header, min_visits)
    try:
        strategy.save(out / name)
    except OSError as e:
        fail(f"cannot write the strategy {out / name}: {e.strerror}", 1)
    trained = int((tables.visits > 0).sum())
    summary = {"strategy": str(out / name), "checkpoint": str(checkpoint),
               "bytes": (out / name).stat().st_size, "rounds": tables.rounds,
               "resumed_rounds": resumed, "deals": rounds * round_deals,
               "seconds": round(seconds, 3), "information_sets_trained": trained,
               "information_sets_shipped": len(strategy.keys)}
    (out / f"report-{stem}.json").write_text(json.dumps(summary, indent=1) + "\n",
                                             encoding="utf-8")
    if json_out:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(f"strategy {out / name} ({summary['bytes']:,} bytes): "
                   f"{len(strategy.keys)} information sets of {trained} trained, "
                   f"{rounds * round_deals} deals in {tables.rounds} rounds, "
                   f"{seconds:.1f} s this run")
