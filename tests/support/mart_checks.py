"""What the games' pipeline tests share: the statistics their worked answers are computed with (another
engine's arithmetic, not the marts' SQL nor simlib/analysis/estimators.py), picking a mart's row, and a small
real run through the command line.

The shared estimators are written here again from their words in docs/statistics.md, so that a mistake the marts
and their Python twins share cannot hide: a win share's interval at the effective number of plays and its score
test, Holm's step-down adjustment, the seat test (a Wald statistic, solved without a pseudo-inverse) and what can be
checked of balance by hand (its interval against the simultaneous pairwise bounds; the median-unbiased estimate
itself is a redraw, not re-implemented)."""

from __future__ import annotations

import contextlib
import io
import math
import statistics
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlib.cli import main

Z = 1.96


def wilson(k, n, z=Z):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def wilson_clamped(k, n, z=Z):
    """Wilson's interval kept inside [0, 1] (at k = 0 or k = n its end strays past by a rounding)."""
    lo, hi = wilson(k, n, z)
    return max(0.0, lo), min(1.0, hi)


# --- win shares (docs/statistics.md, "Is a seat favoured? The win share") -----------------------------------------

def shares_of(winners, players: int) -> list[list[Fraction]]:
    """Each play's win share by seat, exactly: 1/(number of winners) for a winner, 0 for the others."""
    return [[Fraction(int(seat in w), len(w)) if w else Fraction(0) for seat in range(players)] for w in winners]


def effective_n(shares) -> float:
    """n p(1 - p) / v over a seat's per-play shares, v = mean(x^2) - p^2; n where nothing varies (p = 0, p = 1 or
    the same share in every play). Worked in fractions: exact."""
    x = [Fraction(v) for v in shares]
    n = len(x)
    if len(set(x)) == 1:
        return float(n)
    p = sum(x) / n
    return float(n * p * (1 - p) / (sum(v * v for v in x) / n - p * p))


def share_interval(shares, z=Z) -> tuple[float, float]:
    """Wilson's interval at the effective number of plays: the mean share as the rate, n_eff as the trials."""
    m = effective_n(shares)
    return wilson_clamped(float(sum(Fraction(v) for v in shares) / len(shares)) * m, m, z)


def share_p(shares, p0: float) -> float:
    """Two-sided p of the score test of the mean share against p0: z = (p - p0) / sqrt(p0 (1 - p0) / n_eff)."""
    p = float(sum(Fraction(v) for v in shares) / len(shares))
    zscore = (p - p0) / math.sqrt(p0 * (1 - p0) / effective_n(shares))
    return math.erfc(abs(zscore) / math.sqrt(2))


def share_p_above(shares, p0: float) -> float:
    """One-sided p of the score test that the mean share exceeds p0."""
    p = float(sum(Fraction(v) for v in shares) / len(shares))
    zscore = (p - p0) / math.sqrt(p0 * (1 - p0) / effective_n(shares))
    return math.erfc(zscore / math.sqrt(2)) / 2


def holm(p_values) -> list[float]:
    """Holm's step-down adjusted p: the i-th smallest p (from 1) times (m - i + 1), never below an earlier one's
    adjusted p, at most 1."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted, running = [0.0] * len(p_values), 0.0
    for i, at in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - i) * p_values[at]))
        adjusted[at] = running
    return adjusted


# --- a table's seats: the seat test and balance (docs/statistics.md) ---------------------------------------------

def seat_test(plays) -> tuple[float | None, int, float | None]:
    """The seat test of every seat's mean share against 1/k from the plays' shares (plays x seats): T = n d' S+ d
    with d the mean shares minus fair and S their second moment about fair, dof the rank of S. Where every play
    has a winner the shares sum to 1, S's null space is the all-ones vector and d lies across it, so T is the
    Wald statistic of the first k - 1 seats with S's ordinary inverse there (no pseudo-inverse needed). No test
    (None) from fewer than 2 plays or where S is 0."""
    x = np.array([[float(v) for v in play] for play in plays])
    n, k = x.shape
    centred = x - 1 / k
    d = centred.mean(axis=0)
    second = centred.T @ centred / n
    rank = int(np.linalg.matrix_rank(second))
    if n < 2 or rank == 0:
        return None, rank, None
    if all(sum(play) == 1 for play in plays) and rank == k - 1:
        statistic = float(n * d[:-1] @ np.linalg.solve(second[:-1, :-1], d[:-1]))
    else:
        statistic = float(n * d @ np.linalg.pinv(second) @ d)
    return statistic, rank, float(stats.chi2.sf(statistic, rank))


def pair_gaps(plays) -> tuple[np.ndarray, np.ndarray]:
    """For every pair of seats: the absolute difference of their mean shares and its standard error, from the
    per-play differences (their variance over plays includes the two seats' covariance)."""
    x = np.array([[float(v) for v in play] for play in plays])
    n, k = x.shape
    i, j = np.triu_indices(k, 1)
    diff = x[:, i] - x[:, j]
    return np.abs(diff.mean(axis=0)), diff.std(axis=0, ddof=1) / math.sqrt(n)


def balance_bounds(plays, z: float) -> tuple[float, float]:
    """Balance's interval at the simultaneous quantile z: if every pair's difference lies within z se of the
    observed one, the largest true gap lies between the largest lower end and the largest upper end."""
    gap, se = pair_gaps(plays)
    return max(0.0, 1 - float((gap + z * se).max())), 1 - max(0.0, float((gap - z * se).max()))


def assert_balance(got: dict, plays, noise: float = 0.15) -> None:
    """What can be checked of balance by hand (docs/statistics.md, "Balance"):
    - lo <= balance <= hi <= 1, and the estimate no lower than 1 - the observed largest gap (that gap picks the
      best and worst seat from the same plays, so the estimate shrinks it, never widens it);
    - every seat's mean share alike: exactly 1;
    - the interval is the pairwise bounds at one simultaneous quantile z, and z lies between one pair's 95%
      quantile and Bonferroni's over the pairs (less and more `noise`: z is read off 4,000 normal draws)."""
    lo, value, hi = got["balance_lo"], got["balance"], got["balance_hi"]
    gap, se = pair_gaps(plays)
    assert 0 <= lo <= value <= hi <= 1, (lo, value, hi)
    assert value >= 1 - gap.max() - 1e-12, (value, 1 - gap.max())
    if gap.max() == 0:
        assert value == hi == 1, got
    pairs = len(gap)
    z_one, z_all = float(stats.norm.isf(0.025)), float(stats.norm.isf(0.025 / pairs))
    widest, narrowest = balance_bounds(plays, z_all + noise), balance_bounds(plays, z_one - noise)
    assert widest[0] - 1e-12 <= lo <= narrowest[0] + 1e-12, (lo, widest, narrowest)
    assert narrowest[1] - 1e-12 <= hi <= widest[1] + 1e-12, (hi, widest, narrowest)
    # One z for both ends: solved from an end that is not clamped, it gives the other.
    if 0 < lo or hi < 1:
        end, target = (0, lo) if 0 < lo else (1, hi)
        below, above = 0.0, z_all + 2 * noise
        for _ in range(200):  # the lower end falls and the upper end rises as z grows
            z = (below + above) / 2
            short = balance_bounds(plays, z)[end] > target if end == 0 else balance_bounds(plays, z)[end] < target
            below, above = (z, above) if short else (below, z)
        assert balance_bounds(plays, below) == pytest.approx((lo, hi), abs=1e-9), (below, lo, hi)


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


# A ratio of two sums over plays (a mean per seat-play, a share counted within plays), the play the unit: `pairs` is
# every play's (m, y), m its units (the group's seats, its pairs) and y their summed value (0, 0 for a play without
# one), every play listed.


def clustered(pairs) -> tuple[float, float]:
    """sum y / sum m and the ratio estimator's variance, sum (y - R m)^2 n / ((n - 1) (sum m)^2)."""
    n, m, y = len(pairs), sum(a for a, _ in pairs), sum(b for _, b in pairs)
    r = y / m
    return r, sum((b - r * a) ** 2 for a, b in pairs) * n / ((n - 1) * m * m)


def clustered_mean(pairs) -> tuple[float, float, float]:
    """The mean per unit and its 95% normal interval."""
    r, var = clustered(pairs)
    return r, r - Z * math.sqrt(var), r + Z * math.sqrt(var)


def clustered_share(pairs) -> tuple[float, float, float]:
    """A share per unit and Wilson's interval at its effective size r (1 - r) / var, var taken without n / (n - 1)
    as share_effective_n's is (the units themselves where nothing varies)."""
    r, m = sum(b for _, b in pairs) / sum(a for a, _ in pairs), sum(a for a, _ in pairs)
    var = sum((b - r * a) ** 2 for a, b in pairs) / (m * m)
    n_eff = m if r * (1 - r) <= 1e-12 or var <= 1e-12 * r * (1 - r) / m else r * (1 - r) / var
    lo, hi = wilson(r * n_eff, n_eff)
    return r, max(lo, 0.0), min(hi, 1.0)
