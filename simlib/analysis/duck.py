"""DuckDB connections over the lake: statistics macros and typed views of the lake's tables.

Two kinds of view per lake table (docs/lake.md, "Views"):
- per game, `<game>_<table>` (e.g. `mauer_seats`, `catan_production`): that game's files and columns only,
  typed as the game's schema declares;
- generic, `<table>` (e.g. `seats`): every game's rows, each column with one type across games (integers
  widened, text as VARCHAR), NULL where a game has no such column.
Every view exists even when the lake holds no file for it, so models and queries bind on any lake.
"""

from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

import duckdb
import pyarrow as pa

from ..core.errors import SimlibError
from ..core.lake import Lake
from ..core.registry import games
from ..core.resources import shared_pipelines
from ..core.schemas import lake_schemas

# DuckDB streams from Parquet and spills to disk past this, so marts over any lake fit in bounded memory.
MEMORY_LIMIT = "1GB"
PARTITIONS = {"game": "VARCHAR", "run_id": "VARCHAR"}
_INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT")


def _chi2_sf(statistic: float, dof: int) -> float:
    from scipy import stats  # imported on first use: `simlib sql` rarely needs it

    return float(stats.chi2.sf(statistic, dof))


def _norm_sf(z: float) -> float:
    from scipy import stats

    return float(stats.norm.sf(z))


def connect(database: str = ":memory:") -> duckdb.DuckDBPyConnection:
    # Spills go to a folder of this process's own: the pipeline's processes side by side must not share one.
    spill = os.path.join(tempfile.gettempdir(), f"simlib-duckdb-{os.getpid()}")
    con = duckdb.connect(database, config={"memory_limit": MEMORY_LIMIT, "temp_directory": spill})
    con.create_function("chi2_sf", _chi2_sf, ["DOUBLE", "BIGINT"], "DOUBLE", side_effects=False)
    con.create_function("norm_sf", _norm_sf, ["DOUBLE"], "DOUBLE", side_effects=False)
    con.execute((shared_pipelines() / "macros.sql").read_text())  # after the functions its macros call
    return con


def duck_type(t: pa.DataType) -> str:
    """The DuckDB type a lake column is read as (dictionary-encoded text is plain VARCHAR)."""
    if pa.types.is_dictionary(t) or pa.types.is_string(t):
        return "VARCHAR"
    if pa.types.is_list(t):
        return f"{duck_type(t.value_type)}[]"
    if pa.types.is_struct(t):
        return "STRUCT(" + ", ".join(f'"{f.name}" {duck_type(f.type)}' for f in t) + ")"
    if pa.types.is_timestamp(t):
        return "TIMESTAMP WITH TIME ZONE" if t.tz else "TIMESTAMP"
    names = {pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INTEGER", pa.int64(): "BIGINT",
             pa.bool_(): "BOOLEAN", pa.float32(): "FLOAT", pa.float64(): "DOUBLE"}
    if t not in names:
        raise SimlibError(f"lake column type {t} has no DuckDB counterpart here")
    return names[t]


def _common_type(column: str, types: dict[str, str]) -> str:
    """One type for a column that several games write: the widest integer, or the one type they share."""
    distinct = set(types.values())
    if len(distinct) == 1:
        return distinct.pop()
    if distinct <= set(_INTEGERS):
        return max(distinct, key=_INTEGERS.index)
    if distinct <= set(_INTEGERS) | {"FLOAT", "DOUBLE"}:
        return "DOUBLE"
    lists = {t.removesuffix("[]") for t in distinct if t.endswith("[]")}
    if len(lists) == len(distinct) and lists <= set(_INTEGERS):
        return max(lists, key=_INTEGERS.index) + "[]"
    raise SimlibError(f"lake column {column!r} has types that do not unify: "
                      + ", ".join(f"{g}: {t}" for g, t in sorted(types.items())))


def table_columns() -> dict[str, dict[str, dict[str, str]]]:
    """table -> game -> column -> DuckDB type, for every lake table (simlib/core/schemas.py)."""
    return _table_columns(tuple(games().values()))


@cache
def _table_columns(registered: tuple) -> dict[str, dict[str, dict[str, str]]]:
    """Worked out once per set of registered games: a pipeline asks for it at every step. Not to be mutated."""
    return {table: {game: {f.name: duck_type(f.type) for f in schema} for game, schema in per_game.items()}
            for table, per_game in lake_schemas(registered).items()}


def generic_columns(per_game: dict[str, dict[str, str]]) -> dict[str, str]:
    """The generic view's columns in first-seen order, each with its one type across games."""
    seen: dict[str, dict[str, str]] = {}
    for game, columns in per_game.items():
        for column, type_ in columns.items():
            seen.setdefault(column, {})[game] = type_
    return {column: _common_type(column, types) for column, types in seen.items()} | PARTITIONS


def run_globs(lake: Lake, table: str, game: str, runs: list[tuple[str, str]] | None,
              part: int | None = None) -> list[str]:
    """Parquet globs (URLs, for DuckDB) of one game's `table` for the given (game, run_id) pairs (None: every
    run), all their parts or the one numbered `part`."""
    folder = f"{table}/game={game}"
    name = "*.parquet" if part is None else f"part-{part:05d}.parquet"
    if runs is None:
        wanted = [f"{folder}/*/{name}"]
    else:
        wanted = [f"{folder}/run_id={r}/{name}" for g, r in runs if g == game]
    return [lake.url(lake.path(w)) for w in wanted if lake.glob(w)]


def _select(columns: dict[str, str], source: str) -> str:
    return "select " + ", ".join(f'cast("{c}" as {t}) as "{c}"' for c, t in columns.items()) + f" from {source}"


def _empty(columns: dict[str, str]) -> str:
    return "select " + ", ".join(f'null::{t} as "{c}"' for c, t in columns.items()) + " where false"


def create_lake_views(con: duckdb.DuckDBPyConnection, lake: Lake | Path | str,
                      runs: list[tuple[str, str]] | None = None,
                      prefix: str = "lake_", part: int | None = None, tables: set[str] | None = None,
                      games: set[str] | None = None,
                      files: dict[tuple[str, str], list[str]] | None = None) -> dict[tuple[str, str], list[str]]:
    """Per-game views `<prefix><game>_<table>` and generic views `<prefix><table>` over the lake (all runs,
    or the given (game, run_id) pairs; all parts, or one; all tables, or the given ones); returns the
    Parquet globs per (game, table). With `games`, only those games' per-game views are replaced: the generic
    views read them by name, so they follow (a pipeline stepping through parts replaces one view a part). With
    `files` ((game, table) -> paths: a lake audit's verified files), the views read exactly those, not globs."""
    lake = Lake.at(lake)
    lake.register(con)
    globs = {}
    for table, per_game in table_columns().items():
        if tables is not None and table not in tables:
            continue
        branches = []
        generic = generic_columns(per_game)
        for game, own in per_game.items():
            if games is not None and game not in games:
                continue
            columns = own | PARTITIONS
            if files is None:
                found = run_globs(lake, table, game, runs, part)
            else:
                found = [lake.url(path) for path in files.get((game, table), [])]
            globs[(game, table)] = found
            view = f"{prefix}{game}_{table}"
            if found:
                paths = ", ".join(f"'{g}'" for g in found)
                hive = "{" + ", ".join(f"'{k}': '{v}'" for k, v in PARTITIONS.items()) + "}"
                source = (f"read_parquet([{paths}], hive_partitioning = true, hive_types = {hive}, "
                          f"union_by_name = true)")
                con.execute(f"create or replace view {view} as {_select(columns, source)}")
            else:
                con.execute(f"create or replace view {view} as {_empty(columns)}")
            branches.append("select " + ", ".join(
                f'cast("{c}" as {t}) as "{c}"' if c in columns else f'null::{t} as "{c}"'
                for c, t in generic.items()) + f" from {view}")
        if games is None:
            con.execute(f"create or replace view {prefix}{table} as " + " union all ".join(branches))
    return globs


def views_markdown() -> str:
    """The views section of docs/lake.md: what `simlib sql`, `simlib.connect()` and the pipelines see."""
    lines = [
        "## Views",
        "",
        "`simlib sql`, `simlib.connect()` and data/simlib.duckdb show the lake through views (the pipelines'",
        "models read the same views with a `lake_` prefix):",
        "- per game and table, `<game>_<table>` (e.g. `mauer_seats`, `catan_production`): that game's rows",
        "  and columns only, typed as its schema above says (dictionary-encoded text is VARCHAR);",
        "- per table, `<table>` (e.g. `seats`): every game's rows, each column with one type across games (the",
        "  widest integer where games differ), NULL where a game has no such column.",
        "Both kinds exist even when the lake has no file for them, so a query binds on any lake.",
        "",
    ]
    for table, per_game in table_columns().items():
        columns = generic_columns(per_game)
        lines += [f"### `{table}`", "",
                  "Per game: " + ", ".join(f"`{game}_{table}`" for game in per_game) + ".", "",
                  "| column | type | games |", "|---|---|---|"]
        for column, type_ in columns.items():
            having = [g for g, own in per_game.items() if column in own]
            who = "all" if column in PARTITIONS or len(having) == len(per_game) else ", ".join(having)
            lines.append(f"| `{column}` | {type_} | {who} |")
        lines.append("")
    return "\n".join(lines)
