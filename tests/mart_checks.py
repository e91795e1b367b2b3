"""What the games' pipeline tests share: the statistics their worked answers are computed with (another
engine's arithmetic, not the marts' SQL), picking a mart's row, and a small real run through the command line."""

from __future__ import annotations

import contextlib
import io
import math
import statistics
from pathlib import Path

import polars as pl

from simlib.cli import main

Z = 1.96


def wilson(k, n, z=Z):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_ci(values):
    mean = statistics.mean(values)
    half = Z * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def row(frame: pl.DataFrame, **where) -> dict:
    """The one row of a mart matching `where` (None matches null)."""
    for key, value in where.items():
        frame = frame.filter(pl.col(key).is_null() if value is None else pl.col(key) == value)
    assert frame.height == 1, (where, frame)
    return frame.row(0, named=True)


def marts_of(folder: Path) -> dict[str, pl.DataFrame]:
    return {p.stem: pl.read_parquet(p) for p in folder.glob("mart_*.parquet")}


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(args))
    return status, out.getvalue()


def pipeline_and_report(root: Path, lake: Path) -> tuple[dict[str, pl.DataFrame], Path]:
    """`simlib pipeline` and `simlib report` over a lake (every data test passing): the marts and the reports."""
    marts, reports = root / "marts", root / "reports"
    status, out = cli("pipeline", "--lake", str(lake), "--marts", str(marts), "--db", str(root / "simlib.duckdb"))
    assert status == 0 and ", 0 failed" in out, out
    status, out = cli("report", "--lake", str(lake), "--marts", str(marts), "--out", str(reports))
    assert status == 0, out
    return marts_of(marts), reports


def lake_table(lake: Path, game: str, table: str) -> pl.DataFrame:
    return pl.read_parquet(str(lake / table / f"game={game}" / "**" / "*.parquet"), hive_partitioning=True)
