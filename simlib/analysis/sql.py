"""`simlib sql`: ad-hoc, read-only DuckDB queries over every lake table and every mart."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..core.errors import SimlibError
from ..core.lake import Lake
from .duck import connect, create_lake_views

READ_ONLY_STATEMENTS = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}
FORMATS = ("table", "csv", "json", "parquet")


class QueryError(Exception):
    """DuckDB refused the query (exit status 1)."""


def open_readonly(lake: Lake | Path | str, marts: Path) -> duckdb.DuckDBPyConnection:
    """A connection with a view per lake table (`runs`, `games`, `seats`, `events`, ...: every game), per
    game and lake table (`mauer_seats`, `catan_production`, ...) and per mart, that can read only the
    lake (a folder or an object-store URL) and the marts and can write nothing (see docs/lake.md). On an
    object store, the views show the files there when it opens."""
    lake, marts = Lake.at(lake).snapshot(), marts.resolve()
    con = connect()
    create_lake_views(con, lake, prefix="")
    for mart in sorted(marts.glob("*.parquet")):
        con.execute(f"create view {mart.stem} as select * from read_parquet('{mart}')")
    readable = [str(marts) + "/"] if marts.exists() else []
    if lake.exists(lake.root):
        readable.append(lake.url(lake.root) + "/")
    con.execute(f"set allowed_directories = {readable!r}")
    con.execute("set enable_external_access = false")
    con.execute("set lock_configuration = true")
    return con


def _check_read_only(sql: str) -> None:
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryError(str(exc).splitlines()[0]) from None
    if not statements:
        raise QueryError("no query given")
    if len(statements) > 1:  # DuckDB would run them all and show only the last result
        raise QueryError(f"{len(statements)} statements given: simlib sql runs one at a time")
    for statement in statements:
        if statement.type not in READ_ONLY_STATEMENTS:
            kind = str(statement.type).rsplit(".", 1)[-1]
            raise QueryError(f"simlib sql runs queries only (SELECT, EXPLAIN), not {kind}: the lake is read-only")


def _write(table: pa.Table, fmt: str, output: str | None) -> None:
    if fmt == "parquet" and output is None:
        raise SimlibError("--format parquet needs --output FILE")
    if output is None:
        _write_to(table, fmt, sys.stdout.buffer)
        return
    target = Path(output)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")  # renamed when complete: never a half-written file
    try:
        with open(tmp, "wb") as sink:  # Python's open: its errors carry a reason, not the temporary name
            _write_to(table, fmt, sink)
        os.replace(tmp, target)
    except OSError as exc:
        raise SimlibError(f"cannot write {output}: {exc.strerror or 'write failed'}") from None
    finally:
        tmp.unlink(missing_ok=True)


def _write_to(table: pa.Table, fmt: str, sink) -> None:
    """The result in `fmt` into a binary file. A closed pipe (`simlib sql ... | head`) is not a write error: the
    BrokenPipeError goes on to the command line, which stops quietly."""
    if fmt == "csv":
        pacsv.write_csv(table, sink)
    elif fmt == "json":
        import polars as pl

        sink.write((pl.from_arrow(table).write_json() + "\n").encode())
    else:
        pq.write_table(table, sink)


def _check_lake(lake: Lake) -> None:
    """A lake to query: a folder (or an object-store prefix) with a runs table. A typo in --lake, or a folder with
    no lake, is an error naming the path, not an empty result."""
    where = lake.url(lake.root)
    if not lake.fs.isdir(lake.root):
        raise SimlibError(f"no lake at {where}: no such folder (simulate first, or give --lake)")
    if not lake.fs.isdir(lake.path("runs")):
        raise SimlibError(f"no lake at {where}: the folder has no runs table (simulate into it first, or give --lake)")


def run_query(sql: str, lake: Lake | Path | str, marts: Path, fmt: str = "table", output: str | None = None,
              max_rows: int = 40) -> None:
    if max_rows < 1:
        raise SimlibError(f"--max-rows must be at least 1, not {max_rows}")
    lake = Lake.at(lake)
    _check_lake(lake)
    _check_read_only(sql)
    con = open_readonly(lake, marts)
    try:
        relation = con.sql(sql)
        if relation is None:
            return
        if fmt == "table" and output is None:
            relation.show(max_rows=max_rows, max_width=200)
            return
        _write(relation.to_arrow_table(), "csv" if fmt == "table" else fmt, output)
    except duckdb.Error as exc:
        raise QueryError(" ".join(str(exc).split("\n")[0:1])) from None
    finally:
        con.close()
