"""A small batch for the executor and object-store tests, and how two lakes are compared."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from simlib.core.config import RunConfig
from simlib.core.registry import get_game

SHARD_SIZE = 600  # several parts a run, so that shards are spread over the workers


def cheap_runs() -> list[RunConfig]:
    """Two runs of the two cheapest games: 5 parts of Die Mauer (with events), 7 of Mauerbruch."""
    return [RunConfig.build(get_game("mauer"), players=4, policies=["random", "heavy", "reader", "hollow"],
                            plays=3000, seed=5, options={"rounds": 3}, events=True),
            RunConfig.build(get_game("mauerbruch"), players=2, policies=["random"], plays=4000, seed=6)]


def local_cluster():
    """The tests' Dask cluster: two worker processes of one thread each."""
    from dask.distributed import LocalCluster

    return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)


def run_locally(lake: Path) -> Path:
    """The small batch by the local executor, one process: what every cluster run is compared with."""
    from simlib.core.runner import run

    for config in cheap_runs():
        run(config, lake, workers=1, shard_size=SHARD_SIZE, progress=False)
    return lake


def lake_files(lake: Path) -> list[str]:
    """The lake's files, not its runs' lock files (`.locks/`, kept for the next writer)."""
    return sorted(str(p.relative_to(lake)) for p in lake.rglob("*") if p.is_file() and p.parent.name != ".locks")


def assert_same_lake(lake: Path, reference: Path) -> None:
    """The same part files, each with the same rows in the same order; the runs rows the same but for when
    they ran."""
    files = lake_files(lake)
    assert files == lake_files(reference)
    assert all(f.endswith(".parquet") and "/part-" in f for f in files)  # no temporary files left
    for name in files:
        mine, theirs = pq.read_table(lake / name), pq.read_table(reference / name)
        if name.startswith("runs/"):
            mine, theirs = (t.drop_columns(["started_at", "ended_at"]) for t in (mine, theirs))
            assert mine.column("status").to_pylist() == ["complete"]
        assert mine.equals(theirs), name
