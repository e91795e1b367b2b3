"""Die Mauer: penalty totals over a match of R Spielrunden, per run and table position.

A Polars model over the counts of int_mauer_match_counts (matches per total), so memory does not grow
with the number of plays. Quantiles are read off the counts exactly (Polars' "lower" rule, the median
the midpoint of the two middle totals). The mean gets a percentile-bootstrap interval (match totals are
skewed): resampling n matches with replacement is drawing the counts of each distinct total from a
multinomial, so a resample costs one draw over the few distinct totals, not over every match. The match win share
splits a tied match among its winners, as every fairness figure does (docs/statistics.md), with Wilson's interval at
the effective number of matches (simlib/analysis/estimators.py: share_interval).
"""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl

from simlib.analysis.estimators import share_interval

INPUTS = ("int_mauer_match_counts",)
BOOTSTRAP_RESAMPLES = 1000
KEYS = ["run_id", "player", "policy"]
OUTPUT = {"game": pl.String, "run_id": pl.String, "player": pl.Int8, "policy": pl.String, "n_matches": pl.UInt32,
          "rounds": pl.UInt32, "n_plays": pl.UInt32, "mean_total": pl.Float64, "mean_total_lo": pl.Float64,
          "mean_total_hi": pl.Float64, "p05_total": pl.Int32, "p25_total": pl.Int32, "median_total": pl.Float64,
          "p75_total": pl.Int32, "p95_total": pl.Int32, "share_zero": pl.Float64, "match_win_share": pl.Float64,
          "match_win_share_lo": pl.Float64, "match_win_share_hi": pl.Float64}


def _bootstrap_interval(values: np.ndarray, counts: np.ndarray, seed_text: str) -> tuple[float, float]:
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:8], "little"))
    n = int(counts.sum())
    draws = rng.multinomial(n, counts / n, size=BOOTSTRAP_RESAMPLES)
    means = draws @ values / n
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def _at(values: np.ndarray, counts: np.ndarray, index: int) -> int:
    """The value at a 0-based position of the sorted totals the counts stand for."""
    return int(values[np.searchsorted(np.cumsum(counts), index, side="right")])


def _lower(values: np.ndarray, counts: np.ndarray, q: float) -> int:
    return _at(values, counts, int(np.floor((counts.sum() - 1) * q)))


def _summary(key: tuple, group: pl.DataFrame) -> dict:
    values = group["total"].to_numpy().astype(float)
    counts = group["n_matches"].to_numpy().astype(np.int64)
    n = int(counts.sum())
    lo, hi = _bootstrap_interval(values, counts, "|".join(map(str, key)))
    rounds = int(group["rounds"].max())
    share_sum, share_sq_sum = float(group["won_share_sum"].sum()), float(group["won_share_sq_sum"].sum())
    share_lo, share_hi = share_interval(n, share_sum, share_sq_sum)
    return dict(zip(KEYS, key)) | {
        "game": "mauer", "n_matches": n, "rounds": rounds, "n_plays": n * rounds,
        "mean_total": float(values @ counts) / n, "mean_total_lo": lo, "mean_total_hi": hi,
        "p05_total": _lower(values, counts, 0.05), "p25_total": _lower(values, counts, 0.25),
        "median_total": (_at(values, counts, (n - 1) // 2) + _at(values, counts, n // 2)) / 2,
        "p75_total": _lower(values, counts, 0.75), "p95_total": _lower(values, counts, 0.95),
        "share_zero": float(counts[values == 0].sum()) / n,
        "match_win_share": share_sum / n, "match_win_share_lo": share_lo, "match_win_share_hi": share_hi,
    }


def model(ctx) -> pl.DataFrame:
    counts = ctx.con.table("int_mauer_match_counts").pl().sort(*KEYS, "total")
    rows = [_summary(key, group) for key, group in counts.group_by(KEYS, maintain_order=True)]
    return pl.DataFrame(rows, schema=OUTPUT).select(*OUTPUT).sort(KEYS)
