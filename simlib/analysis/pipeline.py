"""`simlib pipeline`: build every model over the lake, run the data tests, write marts and simlib.duckdb.

- `view` models (staging) are views over the lake; their data tests run over the runs being computed.
- `per_run` models are computed once per complete run and cached under
  `<marts>/.cache/<model>/<key>/<run_id>.parquet`; a run is computed only by the models whose key it
  lacks (a new run, or an edited model and what reads it). Runs missing the same models are computed
  together.
- `per_part` models are cached like `per_run` ones but computed a step at a time: one part file of a large
  run, or several small runs together, at most DEFAULT_SHARD_SIZE plays (the lake views then show that step
  only), for work that would otherwise hold a whole run in memory, such as joining each play's seats to the
  play; their rows are sums a `per_run` model adds up, each with its run's run_id.
- `table` models are computed over all runs from the per-run results, at every build.
Marts (`mart_*`) land in `<marts>/<name>.parquet` and, with views over the lake, in simlib.duckdb.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import SimlibError
from ..core.lake import Lake, run_of, write_atomic
from ..core.registry import games, get_game
from ..core.runner import DEFAULT_SHARD_SIZE
from .duck import connect, create_lake_views
from .models import CACHED, Model, lake_views, load_models
from .tests import run_data_tests


@dataclass(frozen=True)
class BuildResult:
    runs: int
    runs_computed: int
    marts: list[str]
    test_failures: list[str]
    tests_run: int
    seconds: float


@dataclass(frozen=True)
class ModelContext:
    """What a Polars model gets: the connection (upstream models are its tables and views) and the
    lake's Parquet files of the runs being computed."""

    con: duckdb.DuckDBPyConnection
    globs: dict[tuple[str, str], list[str]]
    lake: Lake

    def files(self, game: str, table: str) -> list[str]:
        """The Parquet files (paths, or URLs such as s3://... on an object store) of one game's lake table,
        sorted by run and part."""
        found = [f for g in self.globs.get((game, table), []) for f in self.lake.fs.glob(g)]
        return sorted(self.lake.url(f) for f in found)


def complete_runs(lake: Lake | Path | str) -> list[tuple[str, str]]:
    lake = Lake.at(lake)
    runs = []
    for f in lake.glob("runs/game=*/run_id=*/part-00000.parquet"):
        if lake.read_table(f, columns=["status"]).column("status")[0].as_py() == "complete":
            runs.append(run_of(f))
    return runs


def swept_runs(lake: Lake) -> dict[str, set[str]]:
    """The runs each narrower scope of models covers: "sweeps", every what-if variant's and its baseline's (their
    plays are paired); "swept", those and every run of the skill ladder (ladder_runs: compared by headline)."""
    runs = set()
    for f in lake.glob("sweeps/game=*/run_id=*/*.parquet"):
        runs |= {run_of(f)[1], lake.read_table(f, columns=["baseline_run_id"]).column(0)[0].as_py()}
    return {"sweeps": runs, "swept": runs | ladder_runs(lake)}


def ladder_runs(lake: Lake) -> set[str]:
    """Runs of a rung of a game's skill ladder alone, or of one rung against another (`[[ladder]]` batches)."""
    runs, rungs = set(), {}
    for f in lake.glob("runs/game=*/run_id=*/part-00000.parquet"):
        name, run_id = run_of(f)
        if name not in rungs:
            rungs[name] = set(get_game(name).ladder_rungs()) if name in games() else set()
        specs = set(json.loads(lake.read_table(f, columns=["config"]).column(0)[0].as_py())["policies"])
        if len(specs) <= 2 and specs <= rungs[name]:
            runs.add(run_id)
    return runs


def _in_scope(model: Model, game: str, run_id: str, swept: dict[str, set[str]]) -> bool:
    return model.covers(game) and (model.runs == "all" or run_id in swept[model.runs])


def _cached(cache: Path, model: Model, run_id: str) -> Path:
    return cache / model.name / model.key / f"{run_id}.parquet"


def _materialize(con, model: Model, ctx: ModelContext, empty: bool = False) -> None:
    """Create the model's table (or view) in `con`; with `empty`, only its columns (a per-run model that no
    run is in scope of: nothing is computed)."""
    kind = "view" if model.materialized in ("view", "union") else "table"
    try:
        if empty and model.path.suffix == ".sql":
            con.execute(f"create or replace temp table {model.name} as select * from ({model.sql()}) where false")
        elif model.path.suffix == ".py":
            frame = model.python_module().model(ctx)
            con.register(f"_frame_{model.name}", frame.to_arrow())
            con.execute(f"create or replace temp table {model.name} as select * from _frame_{model.name}")
            con.unregister(f"_frame_{model.name}")
        else:
            con.execute(f"create or replace temp {kind} {model.name} as {model.sql()}")
    except duckdb.Error as exc:
        raise SimlibError(f"model {model.name} ({model.path}): {str(exc).splitlines()[0]}") from None


def _from_cache(con, model: Model, files: list[Path]) -> None:
    paths = ", ".join(f"'{f}'" for f in files)
    con.execute(f"create or replace temp view {model.name} as select * from read_parquet([{paths}])")


def _upstream(models: dict[str, Model], names: set[str]) -> set[str]:
    needed, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += models[name].inputs
    return needed


def _lake_tables(models: dict[str, Model], model: Model) -> set[str]:
    """The lake tables a model reads, directly or through views."""
    views = lake_views()
    return {views[s] for name in _upstream(models, {model.name}) for s in models[name].sources}


def _run_plays(lake: Lake, game: str, run_id: str) -> int:
    runs = lake.part_path("runs", game, run_id, 0)
    return lake.read_table(runs, columns=["plays"]).column("plays")[0].as_py()


def _steps(lake: Lake, runs: list[tuple[str, str]]):
    """The steps a per_part model takes over `runs`: (runs, part, last), last when the step ends its runs. A large
    run goes part by part; small runs (at most DEFAULT_SHARD_SIZE plays) go together, as many as make up one
    part's plays, so that a report's hundreds of small runs take a few steps, not one each (a step has a cost of
    its own: views, a query, a result)."""
    together, plays = [], 0
    for game, run_id in runs:
        found = lake.glob(f"games/game={game}/run_id={run_id}/part-*.parquet")
        if not found:
            raise SimlibError(f"run {run_id} of {game} is complete but has no part files in {lake}")
        n = _run_plays(lake, game, run_id)
        if n > DEFAULT_SHARD_SIZE:
            parts = sorted(int(PurePosixPath(f).stem.removeprefix("part-")) for f in found)
            for part in parts:
                yield [(game, run_id)], part, part == parts[-1]
            continue
        if together and plays + n > DEFAULT_SHARD_SIZE:
            yield together, None, True
            together, plays = [], 0
        together.append((game, run_id))
        plays += n
    if together:
        yield together, None, True


def _compute_parts(con, models: dict[str, Model], model: Model, lake: Lake, cache: Path,
                   runs: list[tuple[str, str]]) -> None:
    """A per_part model, step by step (_steps): the lake views show one part of a large run, or several small
    runs, at a time; a run's rows are written to its cache file when its last step is done."""
    tables = _lake_tables(models, model)
    create_lake_views(con, lake, [], tables=tables)  # every view empty; then only the step in hand shows
    pieces: dict[str, list[pa.Table]] = {}
    for step, part, last in _steps(lake, runs):
        games_of_step = {game for game, _ in step}
        create_lake_views(con, lake, step, part=part, tables=tables, games=games_of_step)
        _materialize(con, model, ModelContext(con, {}, lake))
        result = con.table(model.name).to_arrow_table()
        create_lake_views(con, lake, [], tables=tables, games=games_of_step)
        if "run_id" not in result.column_names:  # whatever the step: a lake's grouping must not decide it
            raise SimlibError(f"model {model.name} ({model.path}) is per_part but has no run_id column")
        mine = {run_id: result.filter(pc.equal(result["run_id"], run_id)) for _, run_id in step}
        if sum(t.num_rows for t in mine.values()) != result.num_rows:
            raise SimlibError(f"model {model.name} ({model.path}) gives rows of no run of its step (run_id null "
                              f"or another run's): a per_part model's rows are each its own run's")
        for _, run_id in step:
            pieces.setdefault(run_id, []).append(mine[run_id])
            if last:
                write_atomic(pa.concat_tables(pieces.pop(run_id)), _cached(cache, model, run_id))
    con.execute(f"drop table {model.name}")


def _compute_runs(models: dict[str, Model], lake: Lake, cache: Path, group: list[tuple[str, str]],
                  missing: set[str], swept: dict[str, set[str]]) -> tuple[list[str], int]:
    """Compute the `missing` per-run models for the runs of `group`; returns staging test results."""
    con = connect()
    ctx = ModelContext(con, create_lake_views(con, lake, group), lake)
    needed = _upstream(models, missing)
    for model in models.values():
        if model.name not in needed:
            continue
        covered = [(game, run_id) for game, run_id in group if _in_scope(model, game, run_id, swept)]
        if model.name in missing and model.materialized == "per_part":
            _compute_parts(con, models, model, lake, cache, covered)
            # The group's views again for what follows (only the tables the parts replaced).
            create_lake_views(con, lake, group, tables=_lake_tables(models, model))
            _from_cache(con, model, [_cached(cache, model, r) for _, r in covered])
        elif model.name in missing:
            _materialize(con, model, ctx)
            result = con.table(model.name).to_arrow_table()
            if "run_id" not in result.column_names:
                raise SimlibError(f"model {model.name} ({model.path}) is per_run but has no run_id column")
            for _, run_id in covered:
                write_atomic(result.filter(pc.equal(result["run_id"], run_id)), _cached(cache, model, run_id))
        elif model.materialized in CACHED:
            _from_cache(con, model, [_cached(cache, model, r) for _, r in covered])
        else:
            _materialize(con, model, ctx)
    staging = [m for m in models.values() if m.materialized == "view" and m.name in needed]
    results = run_data_tests(con, staging)
    con.close()
    return results


def _compute_groups(models: dict[str, Model], lake: Lake, cache: Path,
                    groups: dict[frozenset[str], list[tuple[str, str]]], swept: dict[str, set[str]],
                    workers: int | None) -> list[tuple[list[str], int]]:
    """`_compute_runs` for every group, side by side in up to `workers` processes (default: one per core): the
    groups share no run and write different cache files. Largest first, so that the last to start is short."""
    jobs = sorted(groups.items(), key=lambda item: -len(item[1]))
    workers = min(len(jobs), workers or os.cpu_count() or 1)
    if workers < 2:
        return [_compute_runs(models, lake, cache, group, set(missing), swept) for missing, group in jobs]
    # Spawned, not forked: a forked DuckDB or Polars (threads of their own) can hang.
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(_compute_runs, models, lake, cache, group, set(missing), swept)
                   for missing, group in jobs]
        return [future.result() for future in futures]


def _drop_stale(cache: Path, models: dict[str, Model]) -> None:
    """Cached results of models that no longer exist or whose key changed."""
    if not cache.exists():
        return
    for folder in cache.iterdir():
        model = models.get(folder.name)
        if model is None:
            shutil.rmtree(folder)
            continue
        for keyed in folder.iterdir():
            if keyed.name != model.key:
                shutil.rmtree(keyed)


def _write_database(db_path: Path, lake: Lake, marts_dir: Path, marts: list[str]) -> None:
    """data/simlib.duckdb: views over the lake (absolute paths, or URLs) and the marts as tables."""
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    con = connect(str(tmp))
    create_lake_views(con, lake, prefix="")
    for name in marts:
        con.execute(f"create table {name} as select * from read_parquet('{marts_dir.resolve() / name}.parquet')")
    con.close()
    os.replace(tmp, db_path)


def build(lake: Lake | Path | str, marts_dir: Path, db_path: Path,
          folders: dict[str | None, Path] | None = None, workers: int | None = None,
          progress: Callable[[str], None] | None = None) -> BuildResult:
    """Build every model over the lake (a folder or an object-store URL) into `marts_dir` and `db_path`, both
    local; new runs are computed by up to `workers` processes (default: one per core). `progress(text)` hears
    what is being built."""
    say = progress or (lambda text: None)
    began = time.perf_counter()
    lake = Lake.at(lake).snapshot()  # the runs it builds are complete: their files do not change
    models = {m.name: m for m in load_models(folders)}
    runs = complete_runs(lake)
    if not runs:
        raise SimlibError(f"no complete runs in lake {lake}: simulate first: simlib simulate or simlib batch")
    try:
        marts_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimlibError(f"cannot write marts to {marts_dir}: {exc.strerror}") from None
    cache = marts_dir / ".cache"
    _drop_stale(cache, models)

    per_run = [m for m in models.values() if m.materialized in CACHED]
    swept = swept_runs(lake)
    groups: dict[frozenset[str], list[tuple[str, str]]] = {}
    for game, run_id in runs:
        missing = frozenset(m.name for m in per_run if _in_scope(m, game, run_id, swept)
                            and not _cached(cache, m, run_id).exists())
        if missing:
            groups.setdefault(missing, []).append((game, run_id))
    failures, count = [], 0
    new = sum(map(len, groups.values()))
    say(f"per-run models of {new} new runs ({len(runs) - new} cached)" if new else f"{len(runs)} runs, all cached")
    for f, n in _compute_groups(models, lake, cache, groups, swept, workers):
        failures, count = failures + f, count + n

    con = connect()
    ctx = ModelContext(con, create_lake_views(con, lake, runs), lake)
    for i, model in enumerate(models.values(), 1):
        if model.is_mart:
            say(f"model {i}/{len(models)}: {model.name}")
        files = [_cached(cache, model, r) for g, r in runs if _in_scope(model, g, r, swept)]
        if model.materialized in CACHED and files:
            _from_cache(con, model, files)
        else:  # views, cross-run tables, and per-run models no run is in scope of (empty, with their columns)
            _materialize(con, model, ctx, empty=model.materialized in CACHED)
    marts = [m.name for m in models.values() if m.is_mart]
    for name in marts:
        write_atomic(con.table(name).to_arrow_table(), marts_dir / f"{name}.parquet")
    for stale in marts_dir.glob("mart_*.parquet"):
        if stale.stem not in marts:
            stale.unlink()
    f, n = run_data_tests(con, [m for m in models.values() if m.materialized != "view"],
                          documented_only=[m for m in models.values() if m.materialized == "view"])
    con.close()
    say(f"the database {db_path}")
    _write_database(db_path, lake, marts_dir, marts)
    return BuildResult(len(runs), sum(map(len, groups.values())), marts, failures + f, count + n,
                       time.perf_counter() - began)
