"""Die Mauer: matches per penalty total, by run, table position and policy, with how many of them the
position won (the lowest total of its match; ties count for each) and its win share summed with its square (a
tie splits the win: 1 / winners each), what the match win share and its interval need.

A Polars model that reads the seats one part file at a time: a match never spans two parts (parts hold
whole matches), so memory is bounded by a part, not by the run, and only counts are kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

INPUTS = ("lake_mauer_seats", "lake_mauer_runs")
OUTPUT = {"run_id": pl.String, "player": pl.Int8, "policy": pl.String, "total": pl.Int32, "rounds": pl.UInt32,
          "n_matches": pl.UInt32, "n_won": pl.UInt32, "won_share_sum": pl.Float64, "won_share_sq_sum": pl.Float64}


def _policies(con) -> pl.DataFrame:
    """The policy of each table position, from the runs' configurations."""
    rows = []
    for run_id, config in con.execute("select run_id, config from lake_mauer_runs").fetchall():
        for player, spec in enumerate(json.loads(config)["policies"]):
            rows.append({"run_id": run_id, "player": player, "policy": spec.split(":")[0]})
    return pl.DataFrame(rows, schema={"run_id": pl.String, "player": pl.Int8, "policy": pl.String})


def _part_counts(path: str) -> pl.DataFrame:
    run_id = Path(path).parent.name.removeprefix("run_id=")
    matches = (
        pl.read_parquet(path, columns=["match_id", "player", "penalty"])
        .group_by("match_id", "player")
        .agg(pl.col("penalty").cast(pl.Int32).sum().alias("total"), pl.len().alias("rounds"))
        .with_columns((pl.col("total") == pl.col("total").min().over("match_id")).alias("won"))
        .with_columns(share=pl.col("won") / pl.col("won").sum().over("match_id"))
    )
    return (matches.group_by("player", "total")
            .agg(pl.col("rounds").max(), pl.len().alias("n_matches"), pl.col("won").sum().alias("n_won"),
                 pl.col("share").sum().alias("won_share_sum"), (pl.col("share") ** 2).sum().alias("won_share_sq_sum"))
            .with_columns(pl.lit(run_id).alias("run_id")))


def model(ctx) -> pl.DataFrame:
    parts = [_part_counts(f) for f in ctx.files("mauer", "seats")]
    if not parts:
        return pl.DataFrame(schema=OUTPUT)
    counts = (pl.concat(parts)
              .group_by("run_id", "player", "total")
              .agg(pl.col("rounds").max(), pl.col("n_matches").sum(), pl.col("n_won").sum(),
                   pl.col("won_share_sum").sum(), pl.col("won_share_sq_sum").sum()))
    return (counts.join(_policies(ctx.con), on=["run_id", "player"])
            .select(*OUTPUT).cast(OUTPUT).sort("run_id", "player", "total"))
