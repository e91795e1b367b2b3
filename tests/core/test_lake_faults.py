"""A lake that cannot lie: the probe's cases (issue 36), each as it happens to a user.

Read-only SQL that is read-only; runs whose parts are checked against their manifest (missing, extra,
truncated, foreign, orphaned); one writer per run; a full disk that says so in one line and keeps the last
good marts and database; workers that end with their parent; Ctrl-C and a time limit in `simlib sql`.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from simlib.analysis import pipeline
from simlib.analysis.pipeline import build
from simlib.analysis.sql import QueryError, run_query
from simlib.cli import main
from simlib.core import lake as lake_module
from simlib.core.config import RunConfig
from simlib.core.errors import SimlibError
from simlib.core.lake import Lake
from simlib.core.locks import hold
from simlib.core.manifest import audit
from simlib.core.registry import get_game
from simlib.core.runner import run

PLAYS, SHARD = 4_000, 1_000


def config(plays: int = PLAYS, seed: int = 7) -> RunConfig:
    return RunConfig.build(get_game("mauer"), players=4, policies=["random"], plays=plays, seed=seed)


def digest(lake: Path) -> dict[str, str]:
    """Every part file's bytes (not the runs row, which carries times)."""
    return {str(p.relative_to(lake)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(lake.rglob("part-*.parquet")) if p.parts[len(lake.parts)] != "runs"}


def games_rows(lake: Path) -> int:
    return sum(pq.read_metadata(p).num_rows for p in (lake / "games").rglob("*.parquet"))


def simlib(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "simlib.cli", *args], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("faults")
    result = run(config(), root / "lake", workers=1, shard_size=SHARD, progress=False)
    build(root / "lake", root / "marts", root / "simlib.duckdb", workers=1)
    return root, result.run_id


@pytest.fixture
def fresh(tmp_path):
    """A run of four parts of its own, to damage."""
    result = run(config(), tmp_path / "lake", workers=1, shard_size=SHARD, progress=False)
    return tmp_path / "lake", result.run_id


def part(lake: Path, run_id: str, table: str, number: int) -> Path:
    return lake / table / "game=mauer" / f"run_id={run_id}" / f"part-{number:05d}.parquet"


# --- read-only means read-only ---------------------------------------------------------------------------------

@pytest.mark.parametrize("query", [
    "EXPLAIN ANALYZE COPY (select * replace (0.99 as win_rate) from mart_seat_outcomes) TO '{mart}' (FORMAT parquet)",
    "explain (analyze) copy (select 1) to '{mart}'",
    "/* hidden */ explain analyse copy (select 1) to '{mart}'",
    "explain (format json, analyze) select 1",
    "explain copy (select 1) to '{mart}'",
    "EXPLAIN (analyze/*(*/) create or replace view v as /*)*/ select 0.99 as x",  # a comment hiding ANALYZE
    "EXPLAIN/**/ANALYZE/**/SELECT 1",
    "explain -- a line comment\n analyze select 1",
])
def test_explain_cannot_write(built, query):
    root, _ = built
    mart = root / "marts" / "mart_seat_outcomes.parquet"
    before = mart.read_bytes()
    with pytest.raises(QueryError, match="ANALYZE|read-only"):
        run_query(query.format(mart=mart), root / "lake", root / "marts")
    assert mart.read_bytes() == before


@pytest.mark.parametrize("query", ["explain select count(*) from seats", "explain (select 1)",
                                   "explain (select 1) union all (select 2)", "explain (format json) select 1"])
def test_explain_without_analyze_still_explains(built, capsys, query):
    root, _ = built
    run_query(query, root / "lake", root / "marts")
    assert "explain" in capsys.readouterr().out.lower()


def test_a_notebook_connection_cannot_write_through_a_relation(built, tmp_path):
    from simlib.analysis.sql import open_readonly

    root, run_id = built
    mart = root / "marts" / "mart_seat_outcomes.parquet"
    before = mart.read_bytes()
    con = open_readonly(root / "lake", root / "marts")
    relation = con.sql("select 0.99 as win_rate")
    for write in (lambda: relation.to_parquet(str(mart)), lambda: relation.filter("true").write_csv(str(mart)),
                  lambda: con.table("seats").insert([1]), lambda: relation.create("t")):
        with pytest.raises(QueryError, match="read-only"):
            write()
    with pytest.raises(AttributeError, match="read-only"):
        con.read_csv(str(mart))
    assert mart.read_bytes() == before
    assert con.execute("select count(*) from seats").fetchall() == [(PLAYS * 4,)]
    assert relation.df()["win_rate"].tolist() == [0.99]


def test_a_query_stops_at_its_time_limit(built):
    root, _ = built
    began = time.monotonic()
    with pytest.raises(QueryError, match="stopped after 1 s"):
        run_query("select count(*) from seats a, seats b, seats c", root / "lake", root / "marts", timeout=1)
    assert time.monotonic() - began < 10


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's CPU time from /proc (Linux)")
def test_ctrl_c_stops_a_table_query_at_once(built):
    root, _ = built
    proc = subprocess.Popen([sys.executable, "-m", "simlib.cli", "sql", "select count(*) from seats a, seats b, "
                             "seats c", "--lake", str(root / "lake"), "--marts", str(root / "marts")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _cpu_seconds(proc.pid) < 6 and time.monotonic() < deadline:  # start-up takes 2 s: then the query runs
        time.sleep(0.2)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    began = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert time.monotonic() - began < 5 and proc.returncode == 130 and len(err.strip().splitlines()) == 1


# --- runs that verify themselves ----------------------------------------------------------------------------

def test_a_missing_part_is_left_out_named_and_mended_identical(fresh, tmp_path):
    lake, run_id = fresh
    before = digest(lake)
    part(lake, run_id, "seats", 2).rename(tmp_path / "aside.parquet")
    found = audit(Lake.at(lake))
    assert found.verified == [] and "seats/part-00002.parquet: missing" in found.damaged[("mauer", run_id)]
    with pytest.raises(SimlibError, match="no complete runs.*1 left out"):
        build(lake, tmp_path / "marts", tmp_path / "db.duckdb", workers=1)
    again = run(config(), lake, workers=1, progress=False)  # not "already complete": one part is re-simulated
    assert not again.already_complete and again.shards_written == 1
    assert digest(lake) == before and audit(Lake.at(lake)).verified == [("mauer", run_id)]


def test_an_extra_part_is_left_out_and_removed_by_the_mend(fresh, tmp_path, capsys):
    lake, run_id = fresh
    before = digest(lake)
    shutil.copy(part(lake, run_id, "games", 0), part(lake, run_id, "games", 9))
    assert "games/part-00009.parquet: not in the manifest" in audit(Lake.at(lake)).damaged[("mauer", run_id)]
    assert main(["check", "--lake", str(lake)]) == 1
    assert main(["check", "--lake", str(lake), "--mend", "--quiet"]) == 0
    assert digest(lake) == before and games_rows(lake) == PLAYS


def test_a_truncated_part_and_a_foreign_part_of_the_same_size(fresh, tmp_path, capsys):
    lake, run_id = fresh
    before = digest(lake)
    truncated = part(lake, run_id, "games", 1)
    truncated.write_bytes(truncated.read_bytes()[:-100])
    foreign = part(lake, run_id, "seats", 3)
    data = bytearray(foreign.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size: only the checksum tells
    foreign.write_bytes(bytes(data))
    marts = tmp_path / "marts"
    marts.mkdir()
    (marts / "mart_x.parquet").write_bytes(part(lake, run_id, "runs", 0).read_bytes())
    run_query("select count(*) from mart_x", lake, marts)  # a damaged part breaks no query that does not read it
    assert "1" in capsys.readouterr().out
    quick = audit(Lake.at(lake)).damaged[("mauer", run_id)]
    assert "games/part-00001.parquet" in quick and "seats/part-00003" not in quick
    deep = audit(Lake.at(lake), deep=True).damaged[("mauer", run_id)]
    assert "seats/part-00003.parquet: its contents differ" in deep
    assert main(["check", "--lake", str(lake), "--mend", "--quiet"]) == 0
    assert digest(lake) == before and main(["check", "--lake", str(lake)]) == 0


def test_an_orphan_simulated_again_with_another_shard_size_neither_drops_nor_doubles(fresh):
    lake, run_id = fresh
    shutil.rmtree(lake / "runs")  # the shard size of the parts is lost with the runs row
    run(config(), lake, workers=1, shard_size=2 * SHARD, progress=False)
    found = audit(Lake.at(lake), deep=True)
    assert found.verified == [("mauer", run_id)] and not found.problems
    plays = sorted(pq.read_table(lake / "games").column("play_index").to_pylist())
    assert plays == list(range(PLAYS))


def test_an_unreadable_runs_row_is_a_problem_and_a_new_simulation_mends_it(fresh, capsys):
    lake, run_id = fresh
    part(lake, run_id, "runs", 0).write_bytes(b"not parquet")
    found = audit(Lake.at(lake))
    assert found.verified == [] and "unreadable runs row" in found.orphans[("mauer", run_id)]
    assert main(["check", "--lake", str(lake)]) == 1
    assert main(["check", "--lake", str(lake), "--mend", "--quiet"]) == 1  # no configuration to mend it from
    run(config(), lake, workers=1, shard_size=SHARD, progress=False)
    assert audit(Lake.at(lake), deep=True).verified == [("mauer", run_id)] and games_rows(lake) == PLAYS


def test_an_orphaned_run_shows_in_no_view(fresh, tmp_path):
    lake, run_id = fresh
    shutil.rmtree(lake / "runs")
    found = audit(Lake.at(lake))
    assert found.verified == [] and "no runs row" in found.orphans[("mauer", run_id)]
    (tmp_path / "marts").mkdir()
    from simlib.analysis.sql import open_readonly

    con = open_readonly(lake, tmp_path / "marts")
    assert con.sql("select count(*) from seats").fetchall() == [(0,)]


def test_views_and_marts_count_only_verified_runs(built, tmp_path):
    root, run_id = built
    lake = tmp_path / "lake"
    shutil.copytree(root / "lake", lake)
    other = run(config(seed=8), lake, workers=1, shard_size=SHARD, progress=False).run_id
    part(lake, other, "games", 0).unlink()
    result = build(lake, tmp_path / "marts", tmp_path / "db.duckdb", workers=1)
    assert result.runs == 1 and len(result.left_out) == 1 and other in result.left_out[0]
    plays = pq.read_table(tmp_path / "marts" / "mart_run_balance.parquet").column("n_plays").to_pylist()
    assert plays == [PLAYS]


# --- one writer per run --------------------------------------------------------------------------------------

def test_a_second_writer_leaves_with_one_line_and_writes_nothing(tmp_path):
    cfg = config()
    run_id = cfg.run_id(get_game("mauer").rules_versions())
    with hold(tmp_path / "lake" / ".locks" / f"mauer-{run_id}.lock", "another"):
        with pytest.raises(SimlibError, match="being written by another process"):
            run(cfg, tmp_path / "lake", workers=1, progress=False)
    assert not (tmp_path / "lake" / "runs").exists()


def test_two_writers_at_once_with_other_shard_sizes_neither_duplicate_nor_drop(tmp_path):
    lake = tmp_path / "lake"
    args = ["simulate", "mauer", "--plays", "60000", "--players", "4", "--policies", "random", "--seed", "3",
            "--lake", str(lake), "--quiet", "--workers", "1"]
    procs = [subprocess.Popen([sys.executable, "-m", "simlib.cli", *args, "--shard-size", size],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for size in ("20000", "30000")]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    assert {code for code, _ in results} <= {0, 2}
    for code, err in results:
        assert code == 0 or ("being written by another process" in err and len(err.strip().splitlines()) == 1)
    found = audit(Lake.at(lake), deep=True)
    assert len(found.verified) == 1 and not found.problems and games_rows(lake) == 60_000


# --- fail cleanly, keep the last good state ----------------------------------------------------------------

class _FullFile:
    """A file on a full disk: half of the first write lands, then ENOSPC."""

    def __init__(self, real):
        self.real = real

    def write(self, data):
        self.real.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def _disk_full(monkeypatch, after: int = 0):
    """Files simlib writes whole fail as on a full disk, after `after` of them were written."""
    count = [0]

    def full_open(path, mode="r", *args, **kwargs):
        handle = open(path, mode, *args, **kwargs)
        if "w" in mode:
            count[0] += 1
            if count[0] > after:
                return _FullFile(handle)
        return handle

    monkeypatch.setattr(lake_module, "open", full_open, raising=False)


def test_a_full_disk_while_simulating_is_one_line_and_the_run_resumes(tmp_path, monkeypatch, capsys):
    _disk_full(monkeypatch, after=3)
    args = ["simulate", "mauer", "--plays", str(PLAYS), "--players", "4", "--policies", "random", "--seed", "7",
            "--lake", str(tmp_path / "lake"), "--shard-size", str(SHARD), "--workers", "1", "--quiet"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0] and "part-" in err[0]
    assert not list((tmp_path / "lake").rglob("*.tmp"))
    monkeypatch.undo()
    assert main(args) == 0 and games_rows(tmp_path / "lake") == PLAYS


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("mount"), reason="mounting a small tmpfs needs root")
def test_a_real_full_disk_keeps_the_last_good_database_and_marts(built, tmp_path):
    root, _ = built
    full = tmp_path / "full"
    full.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", str(full)]).returncode != 0:
        pytest.skip("this machine does not let a test mount a tmpfs")
    try:
        result = simlib("pipeline", "--lake", str(root / "lake"), "--marts", str(full / "marts"),
                        "--db", str(full / "simlib.duckdb"))
        errors = [line for line in result.stderr.splitlines() if not line.startswith("pipeline: ")]
        assert result.returncode == 2 and len(errors) == 1 and "No space left on device" in errors[0]
        assert not (full / "marts").exists()  # nothing published: no half set of marts
        # the marts fit elsewhere, the database (megabytes) not on the full disk: the previous marts stay
        marts = tmp_path / "marts"
        shutil.copytree(root / "marts", marts)
        before = {p.name: p.read_bytes() for p in marts.glob("*.parquet")}
        assert len(before) > 40
        result = simlib("pipeline", "--lake", str(root / "lake"), "--marts", str(marts), "--db",
                        str(full / "simlib.duckdb"))
        errors = [line for line in result.stderr.splitlines() if not line.startswith("pipeline: ")]
        assert result.returncode == 2 and len(errors) == 1 and "cannot write" in errors[0], result.stderr
        assert {p.name: p.read_bytes() for p in marts.glob("*.parquet")} == before
        assert not (full / "simlib.duckdb").exists()
        assert [p.name for p in full.iterdir() if p.is_file()] == [".marts.lock"]  # no temporary file, no WAL
        free = os.statvfs(full)
        (full / "filler").write_bytes(b"x" * (free.f_bavail * free.f_frsize - 20_000))  # room for no page
        report = simlib("report", "--lake", str(root / "lake"), "--marts", str(root / "marts"), "--out",
                        str(full / "reports"))
        errors = [line for line in report.stderr.splitlines() if not line.startswith("report: ")]
        assert report.returncode == 2 and len(errors) == 1 and "No space left on device" in errors[0]
        assert not [p for p in (full / "reports").rglob("*") if p.is_file()]
    finally:
        subprocess.run(["umount", str(full)])


def test_a_failed_build_leaves_the_previous_marts_and_database(built, tmp_path, monkeypatch):
    root, _ = built
    shutil.copytree(root / "lake", tmp_path / "lake")
    build(tmp_path / "lake", tmp_path / "marts", tmp_path / "db.duckdb", workers=1)
    marts = {p.name: p.read_bytes() for p in (tmp_path / "marts").glob("*.parquet")}
    database = (tmp_path / "db.duckdb").read_bytes()
    run(config(seed=9), tmp_path / "lake", workers=1, shard_size=SHARD, progress=False)

    def killed(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "_publish", killed)
    with pytest.raises(KeyboardInterrupt):
        build(tmp_path / "lake", tmp_path / "marts", tmp_path / "db.duckdb", workers=1)
    assert {p.name: p.read_bytes() for p in (tmp_path / "marts").glob("*.parquet")} == marts
    assert len(list(tmp_path.glob(".marts-2*"))) == 1  # the failed build's folder is gone
    assert (tmp_path / "db.duckdb").read_bytes() == database and not list(tmp_path.glob(".db.duckdb*"))
    monkeypatch.undo()
    build(tmp_path / "lake", tmp_path / "marts", tmp_path / "db.duckdb", workers=1)
    plays = pq.read_table(tmp_path / "marts" / "mart_run_balance.parquet").column("n_plays").to_pylist()
    assert sorted(plays) == [PLAYS, PLAYS]


@pytest.mark.parametrize("command", [
    ["pipeline", "--marts", "{blocked}/marts"],
    ["pipeline", "--db", "{blocked}/simlib.duckdb"],
    ["report", "--out", "{blocked}/reports"],
    ["sql", "select 1", "--format", "csv", "--output", "{blocked}/out.csv"],
    ["simulate", "mauer", "--plays", "100", "--players", "4", "--policies", "random", "--lake", "{blocked}/lake"],
])
def test_an_unwritable_output_is_one_line_and_nothing_half_written(built, tmp_path, command, capsys):
    root, _ = built
    blocked = tmp_path / "a-file"  # a path below a file: no one, root included, can write there
    blocked.write_text("")
    args = [a.format(blocked=blocked) for a in command]
    defaults = {"--lake": str(root / "lake"), "--marts": str(root / "marts"), "--db": str(tmp_path / "db.duckdb"),
                "--out": str(tmp_path / "reports")}
    valid = {"pipeline": ("--lake", "--marts", "--db"), "report": ("--lake", "--marts", "--out"),
             "sql": ("--lake", "--marts"), "simulate": ()}[args[0]]
    args += [x for flag in valid if flag not in args for x in (flag, defaults[flag])]
    assert main(args) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("simlib: error")]
    assert len(errors) == 1 and str(blocked) in errors[0]
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["a-file"]


def test_publishing_marts_leaves_other_marts_folders_and_the_previous_build(built, tmp_path):
    root, _ = built
    other = build(root / "lake", tmp_path / "marts-2024", tmp_path / "a.duckdb", workers=1)
    (tmp_path / "sub").mkdir()
    for _ in range(3):
        build(root / "lake", tmp_path / "sub" / ".." / "marts", tmp_path / "b.duckdb", workers=1)
    assert other.marts and (tmp_path / "marts-2024" / "mart_seat_outcomes.parquet").exists()
    folders = sorted(p.name for p in tmp_path.iterdir() if re.fullmatch(r"\.marts-\d{8}-\d{6}-[0-9a-f]{6}", p.name))
    assert len(folders) == 2 and (tmp_path / "marts").resolve().name in folders  # this build and the previous


# --- no orphans --------------------------------------------------------------------------------------------------

def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.add(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_their_parent(tmp_path, how):
    proc = subprocess.Popen([sys.executable, "-m", "simlib.cli", "simulate", "mauer", "--plays", "4000000",
                             "--players", "4", "--policies", "random", "--lake", str(tmp_path / "lake"),
                             "--workers", "2", "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = _children(proc.pid)
    assert len(workers) >= 2
    proc.send_signal(how)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [w for w in workers if Path(f"/proc/{w}").exists()
             and "Z" not in (Path(f"/proc/{w}") / "stat").read_text().rsplit(")", 1)[1].split()[0]]
    assert alive == []


# --- stale pooling ------------------------------------------------------------------------------------------------

def test_a_bumped_rules_version_is_its_own_set_up_never_held_by_the_old(built, tmp_path, monkeypatch):
    root, old_run = built
    lake = tmp_path / "lake"
    shutil.copytree(root / "lake", lake)
    game = get_game("mauer")
    monkeypatch.setattr(game, "rules_version", game.rules_version + 1)  # the same seed, under new rules
    new_run = run(config(), lake, workers=1, shard_size=SHARD, progress=False).run_id
    monkeypatch.undo()
    build(lake, tmp_path / "marts", tmp_path / "db.duckdb", workers=1)
    setups = {r["run_id"]: r for r in pq.read_table(tmp_path / "marts" / "mart_run_setups.parquet").to_pylist()}
    assert new_run != old_run and setups[new_run]["counted"] and setups[old_run]["counted"]
    assert setups[new_run]["setup_id"] != setups[old_run]["setup_id"]
    balance = pq.read_table(tmp_path / "marts" / "mart_setup_balance.parquet").to_pylist()
    assert sorted(r["n_plays"] for r in balance if r["game"] == "mauer") == [PLAYS, PLAYS]
