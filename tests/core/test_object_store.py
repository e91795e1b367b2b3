"""A lake on an object store: an S3-compatible server on 127.0.0.1 (moto), started here, written by a Dask
cluster and by local processes, then read by `simlib pipeline`, `simlib sql` and `simlib report`."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from dask.distributed import Client
from moto.server import ThreadedMotoServer

from simlib.analysis.pipeline import build
from simlib.cli import main
from simlib.core.executors import DaskExecutor
from simlib.core.lake import Lake
from simlib.core.runner import run

from support.cluster_runs import SHARD_SIZE, assert_same_lake, cheap_runs, local_cluster, run_locally
from support.digests import mart_digests

BUCKET = "simlib-test"
LAKE = f"s3://{BUCKET}/lake"


def start_or_fail(server: ThreadedMotoServer, where: str, timeout: float = 30) -> None:
    """Start the S3 test server, or fail the test saying why: these tests are never skipped (pyproject.toml).

    moto serves from a thread of its own and its start() waits forever when that thread dies (a port in use,
    Flask missing), so start() runs in a thread here too, and an error in either thread ends the wait at once."""
    errors: list[str] = []

    def record(args: threading.ExceptHookArgs) -> None:
        errors.append(f"{args.exc_type.__name__}: {args.exc_value}")

    def start() -> None:
        try:
            server.start()
        except BaseException as e:  # any error is the reason to report
            errors.append(f"{type(e).__name__}: {e}")

    previous, threading.excepthook = threading.excepthook, record
    try:
        starter = threading.Thread(target=start, daemon=True)
        starter.start()
        deadline = time.monotonic() + timeout
        while starter.is_alive() and not errors and time.monotonic() < deadline:
            starter.join(0.05)
    finally:
        threading.excepthook = previous
    if errors or starter.is_alive():
        why = "; ".join(errors) if errors else f"no answer within {timeout:g} s"
        pytest.fail(f"the S3 test server (moto) did not start on {where}: {why} (any message of the server's "
                    "is in the captured stderr); the object-store tests are never skipped", pytrace=False)


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """An S3 server on a free port of 127.0.0.1, and the standard AWS variables pointing at it, with dummy
    credentials (set before the cluster starts: its workers inherit them). A server that does not start fails
    every test of this file (never a skip)."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    start_or_fail(server, "127.0.0.1, a free port")
    host, port = server.get_host_and_port()
    aws_files = tmp_path_factory.mktemp("aws")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("AWS_ENDPOINT_URL", f"http://{host}:{port}")
        env.setenv("AWS_ACCESS_KEY_ID", "testing")
        env.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        env.setenv("AWS_DEFAULT_REGION", "us-east-1")
        # Nothing from a developer's own AWS set-up.
        env.setenv("AWS_CONFIG_FILE", str(aws_files / "config"))
        env.setenv("AWS_SHARED_CREDENTIALS_FILE", str(aws_files / "credentials"))
        env.delenv("AWS_PROFILE", raising=False)
        Lake.at(LAKE).fs.mkdir(BUCKET)
        yield
    server.stop()


@pytest.fixture(scope="module")
def cluster(s3):
    with local_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def local_lake(tmp_path_factory) -> Path:
    return run_locally(tmp_path_factory.mktemp("local"))


@pytest.fixture(scope="module")
def s3_lake(cluster) -> str:
    """The batch written to the bucket by the cluster's workers."""
    with Client(cluster) as client:
        for config in cheap_runs():
            run(config, LAKE, shard_size=SHARD_SIZE, progress=False, executor=DaskExecutor(client))
    return LAKE


def download(url: str, folder: Path) -> Path:
    lake = Lake.at(url)
    lake.fs.get(lake.root + "/", str(folder), recursive=True)
    return folder


def test_a_cluster_run_into_the_bucket_has_the_rows_of_a_local_run(s3_lake, local_lake, tmp_path):
    assert_same_lake(download(s3_lake, tmp_path / "copy"), local_lake)
    assert run(cheap_runs()[1], s3_lake, shard_size=SHARD_SIZE, progress=False).already_complete


def test_local_processes_write_the_same_lake_to_the_bucket(s3, local_lake, tmp_path, capsys):
    """The local executor writes to the object store too (forked workers, one PUT a part)."""
    url = f"s3://{BUCKET}/by-local-processes"
    assert main(["simulate", "mauerbruch", "--plays", "4000", "--players", "2", "--policies", "random", "--seed", "6",
                 "--shard-size", str(SHARD_SIZE), "--workers", "2", "--lake", url, "--quiet"]) == 0
    assert "4,000 plays" in capsys.readouterr().out
    reference = tmp_path / "reference"
    for path in local_lake.rglob("*.parquet"):
        if "game=mauerbruch" in str(path):
            (reference / path.relative_to(local_lake)).parent.mkdir(parents=True, exist_ok=True)
            (reference / path.relative_to(local_lake)).write_bytes(path.read_bytes())
    assert_same_lake(download(url, tmp_path / "copy"), reference)


def test_pipeline_sql_and_report_read_the_bucket(s3_lake, local_lake, tmp_path, capsys):
    """The marts over the bucket equal the marts over the same runs in a folder; `simlib sql` and `simlib report`
    read it (marts, simlib.duckdb and the report stay local)."""
    marts, local_marts = tmp_path / "marts", tmp_path / "local_marts"
    assert main(["pipeline", "--lake", s3_lake, "--marts", str(marts), "--db", str(tmp_path / "simlib.duckdb")]) == 0
    assert "over 2 runs" in capsys.readouterr().out
    build(local_lake, local_marts, tmp_path / "local.duckdb")
    assert mart_digests(marts) == mart_digests(local_marts) != {}

    query = "select game, count(*) as seat_rows, sum(winner::int) as wins from seats group by game order by game"
    answers = []
    for lake, folder in ((s3_lake, marts), (str(local_lake), local_marts)):
        assert main(["sql", query, "--lake", lake, "--marts", str(folder), "--format", "csv"]) == 0
        answers.append(capsys.readouterr().out)
    assert answers[0] == answers[1] and answers[0].count("\n") == 3, answers
    # Still read-only: nothing outside the lake and the marts.
    assert main(["sql", "select * from read_csv('/etc/hostname')", "--lake", s3_lake, "--marts", str(marts)]) == 1

    assert main(["report", "--lake", s3_lake, "--marts", str(marts), "--out", str(tmp_path / "reports")]) == 0
    index = (tmp_path / "reports" / "index.html").read_text()
    assert f"from lake <code>{s3_lake}</code>" in index and "mauerbruch.html" in index


@pytest.mark.parametrize("lake,message", [
    ("s3://no-such-bucket/lake", "not writable"),
    ("nope://somewhere/lake", "Protocol not known"),
])
def test_a_lake_that_cannot_be_written_is_one_line_exit_2_nothing_written(s3, capsys, lake, message):
    assert main(["simulate", "mauer", "--plays", "30", "--players", "4", "--policies", "random", "--quiet",
                 "--lake", lake]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert Lake.at(LAKE).fs.ls("", detail=False) == [BUCKET]  # no bucket made, nothing written elsewhere


def test_a_sweep_on_the_cluster_into_the_bucket_gives_the_rows_of_a_local_sweep(cluster, tmp_path, capsys):
    """The issue's check, small: the same sweep on a Dask cluster into the bucket and locally into a folder
    gives the same files and rows, sweeps table included, and the same mart_variant_effects."""
    url, folder = f"s3://{BUCKET}/sweep", tmp_path / "local"
    sweep = ["sweep", "mauer", "--vary", "penalty_tower=8,12", "--players", "4", "--policies", "random",
             "--plays", "3000", "--no-report", "--quiet"]
    assert main([*sweep, "--executor", "dask", "--scheduler", cluster.scheduler_address, "--lake", url]) == 0
    assert main([*sweep, "--workers", "1", "--lake", str(folder)]) == 0
    capsys.readouterr()
    copy = download(url, tmp_path / "copy")
    # The same rows in every table of every run (part boundaries follow the workers, rows do not).
    folders = sorted({str(p.parent.relative_to(folder)) for p in folder.rglob("*.parquet")})
    assert folders == sorted({str(p.parent.relative_to(copy)) for p in copy.rglob("*.parquet")})
    assert sum(f.startswith("sweeps/") for f in folders) == 3
    for name in folders:
        mine, theirs = pq.read_table(copy / name), pq.read_table(folder / name)
        if name.startswith("runs/"):
            # part boundaries, and so the manifest, follow the workers
            times_and_parts = ["started_at", "ended_at", "shard_size", "manifest"]
            mine, theirs = (t.drop_columns(times_and_parts) for t in (mine, theirs))
        assert mine.equals(theirs), name
    marts = []
    for lake in (url, str(folder)):
        out = tmp_path / f"marts-{len(marts)}"
        assert main(["pipeline", "--lake", lake, "--marts", str(out), "--db", str(out / "simlib.duckdb")]) == 0
        marts.append(pq.read_table(out / "mart_variant_effects.parquet").sort_by(
            [("run_id", "ascending"), ("metric", "ascending"), ("seat", "ascending")]))
    # 3 runs x (seat 0's advantage, length, the headline, and 4 seats' win share and score)
    assert marts[0].num_rows == 3 * 11 and marts[0].equals(marts[1])


def test_a_server_that_does_not_start_fails_the_tests_instead_of_skipping_them():
    """The fixture's start-up check, on a server that cannot start: its port is taken."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        started = time.monotonic()
        with pytest.raises(pytest.fail.Exception, match=f"did not start on 127.0.0.1:{port}: "):
            start_or_fail(server, f"127.0.0.1:{port}")
        assert time.monotonic() - started < 10  # the dead server thread ends the wait, not the 30 s timeout
