"""Die Mauer: penalty totals over a match of R Spielrunden, per run and table position.

A Polars model: a lazy scan of the lake's seats, summed per match, with a bootstrap interval for the
mean total (match totals are skewed, so a percentile bootstrap rather than a normal interval).
Resampling n matches with replacement is the same as drawing the counts of each distinct total from a
multinomial, so each resample costs one draw over the few distinct totals, not over every match.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import polars as pl

BOOTSTRAP_RESAMPLES = 1000


def _bootstrap_interval(values: np.ndarray, counts: np.ndarray, seed_text: str) -> tuple[float, float]:
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:8], "little"))
    n = int(counts.sum())
    draws = rng.multinomial(n, counts / n, size=BOOTSTRAP_RESAMPLES)
    means = draws @ values / n
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def _policies(runs: list[str]) -> pl.DataFrame:
    """The policy of each table position, from the runs' configurations (cheaper than the seats)."""
    rows = []
    for run in pl.read_parquet(runs, hive_partitioning=True).filter(pl.col("game") == "mauer").iter_rows(named=True):
        for player, spec in enumerate(json.loads(run["config"])["policies"]):
            rows.append({"run_id": run["run_id"], "player": player, "policy": spec.split(":")[0]})
    return pl.DataFrame(rows, schema={"run_id": pl.String, "player": pl.Int8, "policy": pl.String})


OUTPUT = {"game": pl.String, "run_id": pl.String, "player": pl.Int8, "policy": pl.String, "n_matches": pl.UInt32,
          "rounds": pl.UInt32, "n_plays": pl.UInt32, "mean_total": pl.Float64, "mean_total_lo": pl.Float64,
          "mean_total_hi": pl.Float64, "p05_total": pl.Int32, "p25_total": pl.Int32, "median_total": pl.Float64,
          "p75_total": pl.Int32, "p95_total": pl.Int32, "share_zero": pl.Float64, "match_win_rate": pl.Float64}


def model(sources: dict[str, list[str]]) -> pl.DataFrame:
    seat_files = [p for p in sources["seats"] if "/game=mauer/" in p]
    if not seat_files:
        return pl.DataFrame(schema=OUTPUT)
    seats = pl.scan_parquet(seat_files, hive_partitioning=True,
                            hive_schema={"game": pl.Categorical, "run_id": pl.Categorical})
    matches = (
        seats.filter(pl.col("game") == "mauer")
        .group_by("run_id", "match_id", "player")
        .agg(pl.col("penalty").cast(pl.Int32).sum().alias("total"), pl.len().alias("rounds"))
        .with_columns((pl.col("total") == pl.col("total").min().over("run_id", "match_id")).alias("match_winner"),
                      pl.col("run_id").cast(pl.String))
        .collect(engine="streaming")
        .join(_policies(sources["runs"]), on=["run_id", "player"])
    )
    keys = ["run_id", "player", "policy"]
    summary = matches.group_by(keys).agg(
        pl.len().alias("n_matches"),
        pl.col("rounds").max().alias("rounds"),
        pl.col("total").mean().alias("mean_total"),
        pl.col("total").quantile(0.05, "lower").alias("p05_total"),
        pl.col("total").quantile(0.25, "lower").alias("p25_total"),
        pl.col("total").median().alias("median_total"),
        pl.col("total").quantile(0.75, "lower").alias("p75_total"),
        pl.col("total").quantile(0.95, "lower").alias("p95_total"),
        (pl.col("total") == 0).mean().alias("share_zero"),
        pl.col("match_winner").mean().alias("match_win_rate"),
    )
    # Percentile bootstrap of the mean, per group, seeded by the group: reproducible.
    distinct = matches.group_by(*keys, "total").agg(pl.len().alias("count")).sort(*keys, "total")
    rows = []
    for key, group in distinct.group_by(keys, maintain_order=True):
        lo, hi = _bootstrap_interval(group["total"].to_numpy().astype(float), group["count"].to_numpy(),
                                     "|".join(map(str, key)))
        rows.append(dict(zip(keys, key)) | {"mean_total_lo": lo, "mean_total_hi": hi})
    interval = pl.DataFrame(rows, schema=summary.select(keys).schema | {"mean_total_lo": pl.Float64,
                                                                        "mean_total_hi": pl.Float64})
    return (
        summary.join(interval, on=keys)
        .with_columns(pl.lit("mauer").alias("game"), (pl.col("n_matches") * pl.col("rounds")).alias("n_plays"))
        .select("game", "run_id", "player", "policy", "n_matches", "rounds", "n_plays", "mean_total",
                "mean_total_lo", "mean_total_hi", "p05_total", "p25_total", "median_total", "p75_total", "p95_total",
                "share_zero", "match_win_rate")
        .sort(keys)
        .cast(OUTPUT)
    )
