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

import hashlib
import json
import multiprocessing
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path, PurePosixPath

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import SimlibError
from ..core.executors import worker_start
from ..core.lake import Lake, check_writable_folder, run_of, write_atomic
from ..core.locks import hold
from ..core.manifest import Audit, audit
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
    left_out: list[str]  # complete runs whose files do not match their manifest, and orphaned parts: a line each


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


def swept_runs(lake: Lake, checked: Audit) -> dict[str, set[str]]:
    """The runs each narrower scope of models covers: "sweeps", every what-if variant's and its baseline's (their
    plays are paired); "swept", those and every run of the skill ladder (ladder_runs: compared by headline)."""
    runs = set()
    for f in lake.glob("sweeps/game=*/run_id=*/*.parquet"):
        runs |= {run_of(f)[1], lake.read_table(f, columns=["baseline_run_id"]).column(0)[0].as_py()}
    return {"sweeps": runs, "swept": runs | ladder_runs(checked.rows())}


def ladder_runs(rows: list[dict]) -> set[str]:
    """Runs of a rung of a game's skill ladder alone, or of one rung against another (`[[ladder]]` batches), among
    the given runs rows."""
    runs, rungs = set(), {}
    for row in rows:
        name = row["game"]
        if name not in rungs:
            rungs[name] = set(get_game(name).ladder_rungs()) if name in games() else set()
        specs = set(json.loads(row["config"])["policies"])
        if len(specs) <= 2 and specs <= rungs[name]:
            runs.add(row["run_id"])
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


@cache
def _project_models() -> dict[str, Model]:
    """The models of the shared and the games' own folders, loaded once per process (models_for_runs is called at
    every step of a design search)."""
    return {m.name: m for m in load_models()}


@contextmanager
def models_for_runs(lake: Lake, runs: list[tuple[str, str]], names: set[str]) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection holding the named models, and every model they read, built over the given (game, run_id) runs
    alone: what a design search reads its runs' values from, so that a tuned value means what the marts mean. The
    connection is closed when the block ends."""
    models = _project_models()
    needed = _upstream(models, names)
    con = connect()
    try:
        ctx = ModelContext(con, create_lake_views(con, lake, runs), lake)
        for name, model in models.items():
            if name in needed:
                _materialize(con, model, ctx)
        yield con
    finally:
        con.close()


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
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=worker_start,
                             initargs=(os.getpid(),)) as pool:
        futures = [pool.submit(_compute_runs, models, lake, cache, group, set(missing), swept)
                   for missing, group in jobs]
        return [future.result() for future in futures]


def _drop_stale(cache: Path, models: dict[str, Model]) -> None:
    """Cached results of models that no longer exist or whose key changed."""
    if not cache.exists():
        return
    for folder in cache.iterdir():
        model = models.get(folder.name)
        if folder.name == FINGERPRINTS:
            continue
        if model is None:
            shutil.rmtree(folder)
            continue
        for keyed in folder.iterdir():
            if keyed.name != model.key:
                shutil.rmtree(keyed)


FINGERPRINTS = ".manifests"  # in the cache: each run's manifest hash when its results were computed


@contextmanager
def _new_database(db_path: Path, lake: Lake, files: dict[tuple[str, str], list[str]], marts_dir: Path,
                  marts: list[str]) -> Iterator[Callable[[], None]]:
    """data/simlib.duckdb: views over the lake's verified runs (absolute paths, or URLs) and the marts as tables.
    Built under a temporary name and checked whole; the block gets the step that renames it over the old one. A
    full disk, an error or a kill before that step leaves the previous database."""
    tmp = db_path.with_name(f".{db_path.name}.{uuid.uuid4().hex[:12]}.tmp")
    wal = tmp.with_name(tmp.name + ".wal")
    try:
        _fill_database(tmp, db_path, lake, files, marts_dir, marts)
        if wal.exists():
            raise SimlibError(f"cannot write {db_path}: its changes did not reach the file (disk full?)")
        yield partial(os.replace, tmp, db_path)
    finally:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)
            wal.unlink(missing_ok=True)


def _fill_database(path: Path, db_path: Path, lake: Lake, files: dict[tuple[str, str], list[str]], marts_dir: Path,
                   marts: list[str]) -> None:
    """The database's contents, written into `path` (a temporary name for `db_path`) and checked."""
    try:
        con = connect(str(path))
        create_lake_views(con, lake, prefix="", files=files)
        for name in marts:
            con.execute(f"create table {name} as select * from read_parquet('{marts_dir / name}.parquet')")
        con.execute("checkpoint")  # everything into the file itself: a WAL beside it would not be renamed with it
        con.close()
        check = duckdb.connect(str(path), read_only=True)
        tables = check.execute("select count(*) from duckdb_tables()").fetchone()[0]
        check.close()
    except (OSError, duckdb.Error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0]
        raise SimlibError(f"cannot write {db_path}: {reason}") from None
    if tables != len(marts):
        raise SimlibError(f"cannot write {db_path}: {tables} of {len(marts)} marts reached the file")


def cache_dir(marts_dir: Path) -> Path:
    """The per-run models' cache: beside the marts, not in them, as the marts folder is replaced at each build."""
    return marts_dir.parent / f".{marts_dir.name}-cache"


def _new_generation(marts_dir: Path) -> Path:
    """A fresh folder for this build's marts, beside the marts folder (the same file system, for the rename)."""
    folder = marts_dir.parent / f".{marts_dir.name}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
    folder.mkdir()
    return folder


def _generations(marts_dir: Path) -> list[Path]:
    """The folders _new_generation made for this marts folder (not another's: `marts-2024` is not `marts`)."""
    pattern = re.compile(rf"\.{re.escape(marts_dir.name)}-\d{{8}}-\d{{6}}-[0-9a-f]{{6}}")
    return [f for f in marts_dir.parent.iterdir() if pattern.fullmatch(f.name) and f.is_dir()]


def _publish(marts_dir: Path, generation: Path) -> None:
    """Make `generation` the marts folder in one step: `marts_dir` is a symbolic link to the current build's
    folder, replaced atomically (a reader sees the old marts or the new, never a mix). Folders of builds before
    the last two go (a connection opened on the previous marts keeps reading them)."""
    legacy = marts_dir.with_name(f".{marts_dir.name}-legacy")
    link = marts_dir.with_name(f".{marts_dir.name}.{uuid.uuid4().hex[:12]}.link")
    try:
        link.symlink_to(generation.name)
        if marts_dir.is_dir() and not marts_dir.is_symlink():  # a marts folder of an older simlib: moved aside once
            shutil.rmtree(legacy, ignore_errors=True)
            marts_dir.rename(legacy)
        previous = os.readlink(marts_dir) if marts_dir.is_symlink() else None
        os.replace(link, marts_dir)
    except OSError as exc:
        link.unlink(missing_ok=True)
        raise SimlibError(f"cannot write the marts folder {marts_dir}: {exc.strerror or exc}") from None
    for old in _generations(marts_dir):
        if old.name not in (generation.name, previous):
            shutil.rmtree(old, ignore_errors=True)
    shutil.rmtree(legacy, ignore_errors=True)


def _drop_changed_runs(cache: Path, checked: Audit) -> None:
    """Cached results of a run whose files changed since they were computed (a run mended by `simlib check --mend`,
    or cached before runs had manifests): each run's manifest is fingerprinted beside the cache, and a run whose
    fingerprint differs loses its cached results, to be computed again from its files as they are now."""
    prints = cache / FINGERPRINTS
    prints.mkdir(parents=True, exist_ok=True)
    for game, run_id in checked.verified:
        now = hashlib.sha256(checked.runs[(game, run_id)].row["manifest"].encode()).hexdigest()
        mark = prints / run_id
        if mark.exists() and mark.read_text() == now:
            continue
        for stale in cache.glob(f"*/*/{run_id}.parquet"):
            stale.unlink()
        mark.write_text(now)


def build(lake: Lake | Path | str, marts_dir: Path, db_path: Path,
          folders: dict[str | None, Path] | None = None, workers: int | None = None,
          progress: Callable[[str], None] | None = None) -> BuildResult:
    """Build every model over the lake's verified runs (a folder or an object-store URL) into `marts_dir` and
    `db_path`, both local; new runs are computed by up to `workers` processes (default: one per core).
    `progress(text)` hears what is being built. One build per marts folder at a time; the marts and the database
    are each replaced whole, so a failed or killed build leaves the previous ones."""
    marts_dir = marts_dir.absolute()
    check_writable_folder(marts_dir.parent, f"the marts folder {marts_dir}")
    check_writable_folder(db_path.absolute().parent, f"the database {db_path}")
    with hold(marts_dir.with_name(f".{marts_dir.name}.lock"), f"the marts folder {marts_dir}"):
        return _build(Lake.at(lake).snapshot(), marts_dir, db_path, folders, workers, progress or (lambda text: None))


def _build(lake: Lake, marts_dir: Path, db_path: Path, folders: dict[str | None, Path] | None, workers: int | None,
           say: Callable[[str], None]) -> BuildResult:
    began = time.perf_counter()
    models = {m.name: m for m in load_models(folders)}
    checked = audit(lake)
    runs = checked.verified
    if not runs:
        why = f" ({len(checked.problems)} left out: simlib check says why)" if checked.problems else ""
        raise SimlibError(f"no complete runs in lake {lake}{why}: simulate first: simlib simulate or simlib batch")
    cache = cache_dir(marts_dir)
    _drop_stale(cache, models)
    _drop_changed_runs(cache, checked)

    per_run = [m for m in models.values() if m.materialized in CACHED]
    swept = swept_runs(lake, checked)
    lake_files = checked.files()
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
    ctx = ModelContext(con, create_lake_views(con, lake, files=lake_files), lake)
    for i, model in enumerate(models.values(), 1):
        if model.is_mart:
            say(f"model {i}/{len(models)}: {model.name}")
        files = [_cached(cache, model, r) for g, r in runs if _in_scope(model, g, r, swept)]
        if model.materialized in CACHED and files:
            _from_cache(con, model, files)
        else:  # views, cross-run tables, and per-run models no run is in scope of (empty, with their columns)
            _materialize(con, model, ctx, empty=model.materialized in CACHED)
    marts = [m.name for m in models.values() if m.is_mart]
    generation = _new_generation(marts_dir)
    published = False
    try:
        for name in marts:
            write_atomic(con.table(name).to_arrow_table(), generation / f"{name}.parquet")
        f, n = run_data_tests(con, [m for m in models.values() if m.materialized != "view"],
                              documented_only=[m for m in models.values() if m.materialized == "view"])
        con.close()
        say(f"the database {db_path}")
        # A database inside the marts folder is a file of the new marts, published with them.
        inside = db_path.absolute().parent == marts_dir
        with _new_database(generation / db_path.name if inside else db_path, lake, lake_files, generation,
                           marts) as replace_database:
            if inside:
                replace_database()
            _publish(marts_dir, generation)
            published = True
            if not inside:
                replace_database()
    except BaseException:
        if not published:  # published marts are the marts folder now, whatever fails after
            shutil.rmtree(generation, ignore_errors=True)
        raise
    return BuildResult(len(runs), sum(map(len, groups.values())), marts, failures + f, count + n,
                       time.perf_counter() - began, checked.problems)
