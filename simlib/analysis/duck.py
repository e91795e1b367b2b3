"""DuckDB connections over the lake: macros, statistics functions and views of the lake's tables."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa

from ..core.lake import RUNS_SCHEMA
from ..core.registry import games
from .models import PIPELINES_DIR


def lake_tables() -> list[str]:
    """`runs` and every table any registered game writes (games, seats, events, deals, production...)."""
    return ["runs"] + sorted({t for g in games().values() for t in g.schemas()})


def _chi2_sf(statistic: float, dof: int) -> float:
    from scipy import stats  # imported on first use: `simlib sql` rarely needs it

    return float(stats.chi2.sf(statistic, dof))


# DuckDB streams from Parquet and spills to disk past this, so marts over any lake fit in bounded memory.
MEMORY_LIMIT = "1GB"


def connect(database: str = ":memory:") -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(database, config={"memory_limit": MEMORY_LIMIT})
    con.execute((PIPELINES_DIR / "macros.sql").read_text())
    con.create_function("chi2_sf", _chi2_sf, ["DOUBLE", "BIGINT"], "DOUBLE",
                        side_effects=False)
    return con


def _empty(table: str) -> pa.Table:
    """An empty table with every column any game writes to `table`, plus the hive partitions."""
    fields: dict[str, pa.Field] = {}
    schemas = [RUNS_SCHEMA] if table == "runs" else [g.schemas()[table] for g in games().values()
                                                     if table in g.schemas()]
    for schema in schemas:
        for f in schema:
            fields.setdefault(f.name, f)
    fields["game"] = pa.field("game", pa.string())
    fields["run_id"] = pa.field("run_id", pa.string())
    return pa.schema(list(fields.values())).empty_table()


def run_folders(lake: Path, table: str, runs: list[tuple[str, str]] | None) -> list[str]:
    """Parquet globs of `table` for the given (game, run_id) pairs, or for every run; only ones with files."""
    if runs is None:
        return [str(lake / table / "*" / "*" / "*.parquet")] if any((lake / table).glob("*/*/*.parquet")) else []
    folders = [lake / table / f"game={g}" / f"run_id={r}" for g, r in runs]
    return [str(f / "*.parquet") for f in folders if any(f.glob("*.parquet"))]


def create_lake_views(con: duckdb.DuckDBPyConnection, lake: Path, runs: list[tuple[str, str]] | None = None,
                      prefix: str = "lake_", persistent: bool = False) -> dict[str, list[str]]:
    """Views `<prefix><table>` over the lake (all runs, or the given ones); returns the globs used.

    Each view has every column any registered game writes to its table (NULL where a game has none),
    backed by an empty relation (a table when `persistent`: a database file keeps no in-memory data).
    """
    sources = {}
    for table in lake_tables():
        globs = run_folders(lake, table, runs)
        name = f"{prefix}{table}"
        # Every column any game writes, even when no file of that game is read, so models stay valid.
        empty = _empty(table)
        con.register(f"_empty_{name}", empty)
        kind = "table" if persistent else "view"
        con.execute(f"create or replace {kind} _all_columns_{name} as select * from _empty_{name}")
        if persistent:
            con.unregister(f"_empty_{name}")
        if globs:
            paths = ", ".join(f"'{g}'" for g in globs)
            con.execute(f"create or replace view {name} as select * from read_parquet([{paths}], "
                        f"hive_partitioning = true, union_by_name = true) "
                        f"union all by name select * from _all_columns_{name}")
        else:
            con.execute(f"create or replace view {name} as select * from _all_columns_{name}")
        sources[table] = globs
    return sources
