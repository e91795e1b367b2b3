"""The Dask executor: a run's shards as tasks on a cluster write the same lake as the local process pool, and
a worker lost mid-run costs only its shards."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from dask.distributed import Client, WorkerPlugin

from simlib.cli import main
from simlib.core.executors import DaskExecutor
from simlib.core.lake import part_path, write_atomic
from simlib.core.runner import run

from support.cluster_runs import SHARD_SIZE, assert_same_lake, cheap_runs, lake_files, local_cluster, run_locally


@pytest.fixture(scope="module")
def cluster():
    with local_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def local_lake(tmp_path_factory) -> Path:
    return run_locally(tmp_path_factory.mktemp("local"))


def test_a_batch_on_the_cluster_writes_the_lake_a_local_run_writes(cluster, local_lake, tmp_path):
    lake = tmp_path / "lake"
    with Client(cluster) as client:
        executor = DaskExecutor(client)
        results = [run(config, lake, shard_size=SHARD_SIZE, progress=False, executor=executor)
                   for config in cheap_runs()]
        assert [r.shards_written for r in results] == [5, 7]
        again = run(cheap_runs()[0], lake, shard_size=SHARD_SIZE, progress=False, executor=executor)
    assert again.already_complete
    assert_same_lake(lake, local_lake)


class ExitAfterFirstShard(WorkerPlugin):
    """Kills the first worker to finish a shard, once, right after it wrote its part files (os._exit: no
    clean-up, as if the machine went away). The marker file makes it one worker of all, and the worker its
    nanny starts again does not die too."""

    def __init__(self, marker: str):
        self.marker = marker

    def transition(self, key, start, finish, **kwargs):
        if finish != "memory":
            return
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return
        os._exit(1)


def test_a_worker_lost_mid_run_costs_only_its_shards(cluster, local_lake, tmp_path):
    lake, marker = tmp_path / "lake", tmp_path / "worker-killed"
    with Client(cluster) as client:
        client.register_plugin(ExitAfterFirstShard(str(marker)), name="exit-after-first-shard")
        try:
            for config in cheap_runs():
                result = run(config, lake, shard_size=SHARD_SIZE, progress=False, executor=DaskExecutor(client))
                assert not result.already_complete
        finally:
            client.unregister_worker_plugin("exit-after-first-shard")
    assert marker.exists()  # a worker did die
    assert_same_lake(lake, local_lake)  # every part once, the same rows


def test_the_command_line_runs_on_the_cluster_and_resumes(cluster, local_lake, tmp_path, capsys):
    """`--executor dask --scheduler ...`; a run cut short (two parts gone, the runs row `interrupted`) resumes on
    the cluster, writing only what is missing."""
    lake = tmp_path / "lake"
    mauer = ["simulate", "mauer", "--plays", "3000", "--players", "4", "--policies", "random,heavy,reader,hollow",
             "--seed", "5", "--rounds", "3", "--events", "--shard-size", str(SHARD_SIZE), "--lake", str(lake),
             "--quiet", "--executor", "dask", "--scheduler", cluster.scheduler_address]
    assert main(mauer) == 0
    run_id = capsys.readouterr().out.split("wrote run ")[1].split()[0]
    for table in ("games", "seats", "events"):
        for part in (2, 4):
            part_path(lake, table, "mauer", run_id, part).unlink()
    runs_file = part_path(lake, "runs", "mauer", run_id, 0)
    row = pq.read_table(runs_file).to_pylist()[0] | {"status": "interrupted"}
    write_atomic(pa.Table.from_pylist([row], schema=pq.read_schema(runs_file)), runs_file)

    assert main(mauer) == 0
    assert "(2 parts, resumed)" in capsys.readouterr().out
    mauer_only = tmp_path / "reference"
    for name in lake_files(local_lake):
        if "game=mauer/" in name:
            (mauer_only / name).parent.mkdir(parents=True, exist_ok=True)
            (mauer_only / name).write_bytes((local_lake / name).read_bytes())
    assert_same_lake(lake, mauer_only)


@pytest.mark.parametrize("flags,message", [
    (["--executor", "dask"], "needs the scheduler's address"),
    (["--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"], "cannot reach the Dask scheduler"),
    (["--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"], "--workers is for"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler is for --executor dask"),
])
def test_bad_executor_input_is_one_line_exit_2_nothing_written(tmp_path, monkeypatch, capsys, flags, message):
    monkeypatch.delenv("SIMLIB_DASK_SCHEDULER", raising=False)
    lake = tmp_path / "lake"
    assert main(["simulate", "mauer", "--plays", "30", "--players", "4", "--policies", "random", "--quiet",
                 "--lake", str(lake), *flags]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert not lake.exists()


def test_without_dask_installed_the_error_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # what an install without the extra sees
    assert main(["batch", "mauer", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1",
                 "--lake", str(tmp_path / "lake"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'simlib[dask]'" in err
