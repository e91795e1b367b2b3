"""Die Mauer: penalty totals over a match of R Spielrunden, per run and table position.

A Polars model: a lazy scan of the lake's seats, summed per match, with a bootstrap interval for the
mean total (match totals are skewed, so a percentile bootstrap rather than a normal interval).
"""

from __future__ import annotations

import polars as pl

BOOTSTRAP_RESAMPLES = 200


def model(sources: dict[str, list[str]]) -> pl.DataFrame:
    seats = pl.scan_parquet(sources["seats"], hive_partitioning=True).filter(pl.col("game") == "mauer")
    matches = (
        seats.group_by("run_id", "match_id", "player")
        .agg(pl.col("penalty").cast(pl.Int64).sum().alias("total"),
             pl.col("policy").cast(pl.String).first().alias("policy"),
             pl.len().alias("rounds"))
        .with_columns((pl.col("total") == pl.col("total").min().over("run_id", "match_id")).alias("match_winner"))
        .collect()
    )
    keys = ["run_id", "player", "policy"]
    summary = matches.group_by(keys).agg(
        pl.len().alias("n_matches"),
        pl.col("rounds").max().alias("rounds"),
        pl.col("total").mean().alias("mean_total"),
        pl.col("total").quantile(0.05, "lower").alias("p05_total"),
        pl.col("total").median().alias("median_total"),
        pl.col("total").quantile(0.95, "lower").alias("p95_total"),
        pl.col("match_winner").mean().alias("match_win_rate"),
    )
    # Percentile bootstrap of the mean, resampling matches within each group; seeded, so reproducible.
    resampled = pl.concat([
        matches.group_by(keys).agg(
            pl.col("total").sample(fraction=1.0, with_replacement=True, seed=i).mean().alias("mean"))
        for i in range(BOOTSTRAP_RESAMPLES)
    ])
    interval = resampled.group_by(keys).agg(
        pl.col("mean").quantile(0.025, "linear").alias("mean_total_lo"),
        pl.col("mean").quantile(0.975, "linear").alias("mean_total_hi"),
    )
    return (
        summary.join(interval, on=keys)
        .with_columns(pl.lit("mauer").alias("game"), (pl.col("n_matches") * pl.col("rounds")).alias("n_plays"))
        .select("game", "run_id", "player", "policy", "n_matches", "rounds", "n_plays", "mean_total",
                "mean_total_lo", "mean_total_hi", "p05_total", "median_total", "p95_total", "match_win_rate")
        .sort(keys)
    )
