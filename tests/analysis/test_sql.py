"""`simlib sql`: ad-hoc queries over the lake and marts, read-only, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from simlib.analysis.pipeline import build

from support.lake_fixture import seats_from_penalties, write_run


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("sql")
    games, seats = seats_from_penalties([[0, 5, 10], [3, 0, 6], [0, 4, 0]])
    write_run(root / "lake", "r1", 3, ["random"] * 3, games, seats)
    build(root / "lake", root / "marts", root / "simlib.duckdb")
    return root


def sql(data, *args):
    return subprocess.run([sys.executable, "-m", "simlib.cli", "sql", *args, "--lake", str(data / "lake"),
                           "--marts", str(data / "marts")], capture_output=True, text=True)


def test_a_query_over_lake_and_marts_prints_a_table(data):
    result = sql(data, "select seat, count(*) as n from seats group by seat order by seat")
    assert result.returncode == 0 and "seat" in result.stdout and "│" in result.stdout
    result = sql(data, "select wins from mart_seat_outcomes where seat = 0")
    assert result.returncode == 0 and "2" in result.stdout


def test_csv_json_parquet_output(data, tmp_path):
    result = sql(data, "select seat, wins from mart_seat_outcomes order by seat", "--format", "csv")
    assert result.stdout.splitlines()[:2] == ['"seat","wins"', "0,2"]
    result = sql(data, "select seat, wins from mart_seat_outcomes order by seat", "--format", "json")
    assert json.loads(result.stdout)[0] == {"seat": 0, "wins": 2}
    out = tmp_path / "q.parquet"
    result = sql(data, "select * from games", "--format", "parquet", "--output", str(out))
    assert result.returncode == 0 and pq.read_table(out).num_rows == 3


def test_malformed_query_is_one_line_exit_1(data):
    result = sql(data, "selec * from games")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1 and "syntax error" in result.stderr


@pytest.mark.parametrize("query", [
    "copy (select 1) to 'x.csv'",
    "create table t as select 1",
    "insert into games select * from games",
    "drop view games",
])
def test_queries_cannot_change_anything(data, query):
    before = sorted(p.stat().st_mtime_ns for p in (data / "lake").rglob("*.parquet"))
    result = sql(data, query)
    assert result.returncode == 1 and "read-only" in result.stderr
    assert sorted(p.stat().st_mtime_ns for p in (data / "lake").rglob("*.parquet")) == before


def test_files_outside_the_lake_cannot_be_read(data):
    result = sql(data, "select * from read_csv('/etc/hostname')")
    assert result.returncode == 1 and len(result.stderr.strip().splitlines()) == 1


def test_lake_views_have_one_type_per_column_and_per_game_views_only_their_columns(tmp_path, tmp_path_factory):
    from simlib.analysis.sql import open_readonly
    from simlib.core.registry import get_game

    from support.digests import small_lake

    lake, marts = small_lake(tmp_path_factory, tmp_path)
    con = open_readonly(lake, marts)
    types = {name: type_ for name, type_, *_ in con.execute("describe seats").fetchall()}
    # score is int16 in Die Mauer and Mauerbruch, int8 in Catan; policy is dictionary<int8> or <int16>
    assert types["score"] == "SMALLINT" and types["policy"] == "VARCHAR" and types["run_id"] == "VARCHAR"
    by_game = con.execute("select game, typeof(score), count(*) from seats group by all order by game").fetchall()
    assert [g for g, *_ in by_game] == ["burgenland", "catan", "mauer", "mauerbruch", "sevensteps"]
    assert {t for _, t, _ in by_game} == {"SMALLINT"}
    for game in ("mauer", "catan"):
        own = [name for name, *_ in con.execute(f"describe {game}_seats").fetchall()]
        assert own == get_game(game).schemas()["seats"].names + ["game", "run_id"]
        assert con.execute(f"select count(distinct game) from {game}_seats").fetchall() == [(1,)]
    assert con.execute("select sum(amount) from catan_production").fetchall()[0][0] > 0
    assert "penalty" in types and "points" in types  # each game's own columns, NULL for the others
