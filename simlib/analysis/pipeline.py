"""`simlib pipeline`: build every model over the lake, run the data tests, write marts and simlib.duckdb.

Per-run models are computed only for complete runs not seen before (cached under
`<marts>/.cache/<fingerprint>/`), then unioned; cross-run models are computed from those unions.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..core.errors import SimlibError
from ..core.lake import write_atomic
from .duck import connect, create_lake_views
from .models import Model, fingerprint, load_models
from .tests import run_data_tests


@dataclass(frozen=True)
class BuildResult:
    runs: int
    runs_computed: int
    marts: list[str]
    test_failures: list[str]
    tests_run: int
    seconds: float


def complete_runs(lake: Path) -> list[tuple[str, str]]:
    files = sorted(lake.glob("runs/game=*/run_id=*/part-00000.parquet"))
    runs = []
    for f in files:
        if pq.read_table(f, columns=["status"]).column("status")[0].as_py() == "complete":
            runs.append((f.parent.parent.name.removeprefix("game="), f.parent.name.removeprefix("run_id=")))
    return runs


def _materialize(con, model: Model, sources: dict[str, list[str]]) -> None:
    try:
        _create(con, model, sources)
    except duckdb.Error as exc:
        raise SimlibError(f"model {model.name} ({model.path.name}): {str(exc).splitlines()[0]}") from None


def _create(con, model: Model, sources: dict[str, list[str]]) -> None:
    if model.path.suffix == ".py":
        frame = model.python_model()(sources)
        con.register(f"_frame_{model.name}", frame.to_arrow())
        con.execute(f"create or replace temp table {model.name} as select * from _frame_{model.name}")
        con.unregister(f"_frame_{model.name}")
    elif model.materialized == "view":
        con.execute(f"create or replace temp view {model.name} as {model.sql()}")
    else:
        con.execute(f"create or replace temp table {model.name} as {model.sql()}")


def _compute_new_runs(models: list[Model], lake: Path, cache: Path, todo: list[tuple[str, str]]) -> None:
    con = connect()
    sources = create_lake_views(con, lake, todo)
    for model in models:
        if model.materialized in ("view", "per_run"):
            _materialize(con, model, sources)
    for model in models:
        if model.materialized != "per_run":
            continue
        result = con.table(model.name).to_arrow_table()
        for _, run_id in todo:
            rows = result.filter(pc.equal(result["run_id"], run_id))
            write_atomic(rows, cache / model.name / f"{run_id}.parquet")
    for _, run_id in todo:  # written last: a run counts as cached only when every model has it
        (cache / "_done").mkdir(parents=True, exist_ok=True)
        (cache / "_done" / run_id).touch()
    con.close()


def _write_database(db_path: Path, lake: Path, marts_dir: Path, marts: list[str]) -> None:
    """data/simlib.duckdb: views over the lake (absolute paths) and the marts as tables."""
    tmp = db_path.with_name(f".{db_path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    con = connect(str(tmp))
    create_lake_views(con, lake.resolve(), prefix="", persistent=True)
    for name in marts:
        con.execute(f"create table {name} as select * from read_parquet('{marts_dir.resolve() / name}.parquet')")
    con.close()
    os.replace(tmp, db_path)


def build(lake: Path, marts_dir: Path, db_path: Path, models: list[Model] | None = None) -> BuildResult:
    began = time.perf_counter()
    models = models if models is not None else load_models()
    runs = complete_runs(lake)
    if not runs:
        raise SimlibError(f"no complete runs in lake {lake}: simulate first (make simulate)")
    try:
        marts_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimlibError(f"cannot write marts to {marts_dir}: {exc.strerror}") from None
    cache_root = marts_dir / ".cache"
    cache = cache_root / fingerprint()
    for old in cache_root.glob("*"):
        if old != cache:
            shutil.rmtree(old)  # results of other model versions
    todo = [r for r in runs if not (cache / "_done" / r[1]).exists()]
    if todo:
        _compute_new_runs(models, lake, cache, todo)

    con = connect()
    create_lake_views(con, lake, runs)
    for model in models:
        if model.materialized == "view":
            _materialize(con, model, {})
        elif model.materialized == "per_run":
            files = ", ".join(f"'{cache / model.name / r}.parquet'" for _, r in runs)
            con.execute(f"create or replace temp view {model.name} as select * from read_parquet([{files}])")
        else:
            _materialize(con, model, {})
    marts = [m.name for m in models if m.is_mart]
    for name in marts:
        write_atomic(con.table(name).to_arrow_table(), marts_dir / f"{name}.parquet")
    failures, count = run_data_tests(con, [m for m in models if m.materialized != "view"])
    con.close()
    _write_database(db_path, lake, marts_dir, marts)
    return BuildResult(len(runs), len(todo), marts, failures, count, time.perf_counter() - began)
