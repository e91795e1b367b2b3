"""`simlib sql` and `simlib.connect()`: ad-hoc, read-only DuckDB queries over every lake table and every mart.

Read-only is enforced twice: a query is one statement that DuckDB's own parser calls a SELECT (or an EXPLAIN,
without ANALYZE, of a SELECT: EXPLAIN ANALYZE runs its statement), and the connection can open files only in
the lake and the marts folder. The views show the lake's verified runs only (core/manifest.py).
"""

from __future__ import annotations

import io
import math
import sys
import threading
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..core.errors import SimlibError
from ..core.lake import Lake, write_bytes_atomic
from ..core.manifest import audit
from . import SQL_TIMEOUT
from .duck import connect, create_lake_views

FORMATS = ("table", "csv", "json", "parquet")
_POLL = 0.1  # how often the waiting thread looks at the clock and for Ctrl-C


class QueryError(Exception):
    """DuckDB refused the query (exit status 1)."""


def open_readonly(lake: Lake | Path | str, marts: Path) -> ReadOnlyConnection:
    """A connection with a view per lake table (`runs`, `games`, `seats`, `events`, ...: every game), per
    game and lake table (`mauer_seats`, `catan_production`, ...) and per mart, over the lake's verified runs
    (a folder or an object-store URL), that can read only the lake and the marts and runs queries only (see
    docs/lake.md). On an object store, the views show the files there when it opens."""
    lake, marts = Lake.at(lake).snapshot(), marts.absolute()  # not resolved: the marts link follows each build
    con = connect()
    create_lake_views(con, lake, prefix="", files=audit(lake).files())
    for mart in sorted(marts.glob("*.parquet")):
        con.execute(f"create view {mart.stem} as select * from read_parquet('{marts / mart.name}')")
    readable = [str(marts) + "/"] if marts.exists() else []
    if lake.exists(lake.root):
        readable.append(lake.url(lake.root) + "/")
    con.execute(f"set allowed_directories = {readable!r}")
    con.execute("set enable_external_access = false")
    con.execute("set lock_configuration = true")
    return ReadOnlyConnection(con)


# A relation's methods that write a file or a table; everything else it does reads.
_WRITES = frozenset({"to_parquet", "write_parquet", "to_csv", "write_csv", "insert", "insert_into", "create",
                     "to_table", "update"})
# What a connection gives besides queries: the results of the one it ran.
_RESULTS = frozenset({"df", "pl", "arrow", "description", "rowcount", "torch", "tf"})


def _read_only(value):
    """A DuckDB relation wrapped so that it cannot write; anything else as it is."""
    return ReadOnlyRelation(value) if isinstance(value, duckdb.DuckDBPyRelation) else value


class ReadOnlyRelation:
    """A DuckDB relation without its writing methods (to_parquet, write_csv, insert, create, ...): `df()`,
    `pl()`, `fetchall()`, `show()`, `filter()` ... as DuckDB's own, each relation it gives read-only too."""

    def __init__(self, relation: duckdb.DuckDBPyRelation):
        self._relation = relation

    def __getattr__(self, name: str):
        if name in _WRITES:
            raise QueryError(f"{name}() writes, and this connection is read-only: fetch the result (df(), pl()) and "
                             f"write it from there")
        attribute = getattr(self._relation, name)
        if not callable(attribute):
            return _read_only(attribute)
        return lambda *args, **kwargs: _read_only(attribute(*args, **kwargs))

    def __repr__(self) -> str:
        return repr(self._relation)

    def __str__(self) -> str:
        return str(self._relation)

    def __len__(self) -> int:
        return len(self._relation)


class ReadOnlyConnection:
    """A DuckDB connection that runs queries only: `sql`, `query`, `execute` and `table` as DuckDB's own, each
    statement checked first (check_read_only), their relations read-only (ReadOnlyRelation); after `execute`,
    the result's `fetchall()`, `df()`, `pl()` ..."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self._con = con

    def sql(self, query: str, **kwargs) -> ReadOnlyRelation | None:
        return _read_only(self._con.sql(check_read_only(query), **kwargs))

    query = sql

    def execute(self, query: str, parameters=None) -> ReadOnlyConnection:
        self._con.execute(check_read_only(query), parameters)
        return self

    def table(self, name: str) -> ReadOnlyRelation:
        return _read_only(self._con.table(name))

    def __getattr__(self, name: str):
        if name.startswith("fetch") or name in _RESULTS:
            return getattr(self._con, name)
        raise AttributeError(f"a read-only connection has no {name}(): it runs queries (sql, execute) only")

    def interrupt(self) -> None:
        self._con.interrupt()

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> ReadOnlyConnection:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_read_only(sql: str) -> str:
    """The query to run for `sql`, if it is one query (SELECT, or EXPLAIN of one without ANALYZE; its comments
    taken out, so that no comment can hide a word from this check), else a QueryError saying why."""
    statement = _one_statement(sql)
    if statement.type == duckdb.StatementType.EXPLAIN:
        text = _without_comments(statement.query)
        _check_explained(text)
        return text
    if statement.type != duckdb.StatementType.SELECT:
        raise QueryError(f"simlib sql runs queries only (SELECT, EXPLAIN), not {_kind(statement)}: the lake is "
                         f"read-only")
    return sql


def _one_statement(sql: str):
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryError(str(exc).splitlines()[0]) from None
    if not statements:
        raise QueryError("no query given")
    if len(statements) > 1:  # DuckDB would run them all and show only the last result
        raise QueryError(f"{len(statements)} statements given: simlib sql runs one at a time")
    return statements[0]


def _kind(statement) -> str:
    return str(statement.type).rsplit(".", 1)[-1]


def _without_comments(text: str) -> str:
    """`text` with every comment (as DuckDB's tokenizer finds them) replaced by a space."""
    tokens = duckdb.tokenize(text)
    ends = [pos for pos, _ in tokens[1:]] + [len(text)]
    kept, at = [], 0
    for (pos, kind), end in zip(tokens, ends):
        if kind == duckdb.token_type.comment:
            kept += [text[at:pos], " "]
            at = end
    return "".join(kept) + text[at:]


def _check_explained(text: str) -> None:
    """An EXPLAIN (without comments): ANALYZE, which runs the statement, is refused, and what it explains must be
    one SELECT. The statement is the text after EXPLAIN if that is one; else after EXPLAIN's options `(...)`."""
    found = duckdb.tokenize(text)
    ends = [pos for pos, _ in found[1:]] + [len(text)]
    tokens = [(pos, text[pos:end].strip().lower()) for (pos, _), end in zip(found, ends)]
    if len(tokens) < 2:
        raise QueryError("EXPLAIN of nothing")
    if tokens[1][1] in ("analyze", "analyse"):
        raise QueryError("EXPLAIN ANALYZE runs its statement: simlib sql allows EXPLAIN without ANALYZE")
    if _is_select(text[tokens[1][0]:]):
        return
    depth, at = 0, 1
    for at, (_, word) in enumerate(tokens[1:], 1):  # EXPLAIN (option, ...) statement
        if word in ("analyze", "analyse"):
            raise QueryError("EXPLAIN ANALYZE runs its statement: simlib sql allows EXPLAIN without ANALYZE")
        depth += (word == "(") - (word == ")")
        if depth == 0:
            break
    if at + 1 >= len(tokens) or not _is_select(text[tokens[at + 1][0]:]):
        raise QueryError("simlib sql explains one query (SELECT) only: the lake is read-only")


def _is_select(text: str) -> bool:
    try:
        statements = duckdb.extract_statements(text)
    except duckdb.Error:
        return False
    return len(statements) == 1 and statements[0].type == duckdb.StatementType.SELECT


def _write(table: pa.Table, fmt: str, output: str | None) -> None:
    if fmt == "parquet" and output is None:
        raise SimlibError("--format parquet needs --output FILE")
    if output is None:
        _write_to(table, fmt, sys.stdout.buffer)
        return
    sink = io.BytesIO()
    _write_to(table, fmt, sink)
    write_bytes_atomic(sink.getvalue(), Path(output))  # whole, or one line and nothing


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


# The table format is for reading in a terminal: more rows are --format csv's job.
MAX_SHOWN_ROWS = 1_000_000


def run_query(sql: str, lake: Lake | Path | str, marts: Path, fmt: str = "table", output: str | None = None,
              max_rows: int = 40, timeout: float = SQL_TIMEOUT) -> None:
    """Run one query and show or write its result. The query runs in a thread of its own while this one waits:
    Ctrl-C, or `timeout` seconds (0: none), interrupts DuckDB at once, whatever it is doing."""
    if not 1 <= max_rows <= MAX_SHOWN_ROWS:
        raise SimlibError(f"--max-rows must be 1 to {MAX_SHOWN_ROWS:,} (more rows: --format csv), not {max_rows}")
    if not (timeout >= 0 and math.isfinite(timeout)):
        raise SimlibError(f"--timeout must be a number of seconds, 0 or more (0: no limit), not {timeout}")
    lake = Lake.at(lake)
    _check_lake(lake)
    sql = check_read_only(sql)
    con = open_readonly(lake, marts)
    outcome: dict = {}
    finished = threading.Event()

    def work() -> None:
        try:
            relation = con.sql(sql)
            if relation is None:
                return
            if fmt == "table" and output is None:
                relation.show(max_rows=max_rows, max_width=200)
                return
            outcome["table"] = relation.to_arrow_table()
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome["error"] = exc
        finally:
            finished.set()

    try:
        threading.Thread(target=work, daemon=True).start()
        _wait(finished, con, timeout)
        if "error" in outcome:
            raise outcome["error"]
        if "table" in outcome:
            _write(outcome["table"], "csv" if fmt == "table" else fmt, output)
    except duckdb.Error as exc:
        raise QueryError(str(exc).split("\n")[0]) from None
    finally:
        con.close()


def _wait(finished: threading.Event, con: ReadOnlyConnection, timeout: float) -> None:
    """Wait for the query's thread to finish, interrupting DuckDB on Ctrl-C or at the time limit. An Event, not
    Thread.join: a join that Ctrl-C breaks can mark a running thread as ended (Python 3.11)."""
    began = time.monotonic()
    try:
        while not finished.wait(_POLL):
            if timeout and time.monotonic() - began > timeout:
                con.interrupt()
                finished.wait()
                raise QueryError(f"stopped after {timeout:g} s (the --timeout; --timeout 0 for no limit)")
    except KeyboardInterrupt:
        con.interrupt()
        finished.wait()
        raise
