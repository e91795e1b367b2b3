"""The report's estimators, defined once: the Python twins of pipelines/shared/macros.sql and the estimators too
large for SQL (the seat test, balance), used by the marts written in Python and by the design commands.

Every estimand is written in words in docs/statistics.md; `make calibrate` (simlib/calibrate.py) measures each
interval's coverage and each test's size on lakes whose truth is known by construction.

The unit is the play: a play's seats share its dice, so every variance here is over plays, and an estimator
handed per-seat rows is handed their sums over each play. Inputs are sums (a count, a sum, a sum of squares,
seat x seat cross products) so that the marts can add parts and runs up before estimating.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

Z95 = 1.96  # the two-sided 95% normal quantile, rounded as the SQL macros round it: one z everywhere
Z90 = 1.6448536269514722  # the 90% interval of TOST (two one-sided tests at 5%)
MARGIN_SHARE = 0.01  # the equivalence margin of a share or a seat's advantage: +/- 1 percentage point
MARGIN_RELATIVE = 0.01  # of any other mean: +/- 1% of the baseline's mean
BALANCE_DRAWS = 4000  # normal draws for balance's interval and estimate (a fixed stream: reruns agree)


# Shares (a seat's win share: 1/winners when it wins, else 0; the mean over plays) ------------------------------


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for k successes in n trials (k may be fractional), clamped to [0, 1]."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0))
    return (max(0.0, (centre - half) / (1 + z * z / n)), min(1.0, (centre + half) / (1 + z * z / n)))


def newcombe(k1: float, n1: float, k2: float, n2: float, z: float = Z95) -> tuple[float, float, float]:
    """p2 - p1 of two independent proportions k/n, with Newcombe's hybrid score interval (1998, method 10: from the
    two Wilson intervals); calibrated in `make calibrate`."""
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = wilson(k1, n1, z), wilson(k2, n2, z)
    d = p2 - p1
    return d, d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def effective_n(n: float, s: float, ss: float) -> float:
    """How many plays of a win-or-lose share would vary as these n shares do (Kish's effective size): n p(1-p) over
    the shares' own variance. Ties split a win, so shares vary less than wins and n_eff >= n; without ties n_eff = n.
    Where the shares do not vary (p at 0 or 1, or every play the same), n."""
    if n <= 0:
        return float(n)
    p = s / n
    var = ss / n - p * p
    bernoulli = p * (1 - p)
    if bernoulli <= 1e-12 or var <= 1e-12 * bernoulli:
        return float(n)
    return n * bernoulli / var


def share_interval(n: float, s: float, ss: float, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a mean share from its count, sum and sum of squares: Wilson's interval at the effective
    size (the SQL macros share_lo, share_hi)."""
    m = effective_n(n, s, ss)
    return wilson(s / n * m, m, z) if n > 0 else (math.nan, math.nan)


def share_p_value(n: float, s: float, ss: float, p0: float) -> float:
    """Two-sided p of the score test that the mean share is p0: the test whose inversion is share_interval (the SQL
    macro share_p)."""
    if n <= 0 or not 0 < p0 < 1:
        return math.nan
    m = effective_n(n, s, ss)
    zscore = (s / n - p0) / math.sqrt(p0 * (1 - p0) / m)
    return float(2 * stats.norm.sf(abs(zscore)))


# Ratios of two sums over plays (events counted within plays) --------------------------------------------------------


def ratio_pvar(k: float, kk: float, km: float, m: float, mm: float) -> float:
    """The per-play variance of R = k / m from the plays' sums (k, m), squares (kk, mm) and cross products (km):
    sum (k_i - R m_i)^2 / m^2 (the SQL macro ratio_pvar)."""
    r = k / m
    return max(kk - 2 * r * km + r * r * mm, 0.0) / (m * m)


def ratio_se(n: float, k: float, kk: float, km: float, m: float, mm: float) -> float:
    """The ratio estimator's standard error, sqrt(ratio_pvar n / (n - 1)); NaN with one play (macro ratio_se)."""
    if n <= 1 or m <= 0:
        return math.nan
    return math.sqrt(ratio_pvar(k, kk, km, m, mm) * n / (n - 1))


def ratio_share_interval(k: float, kk: float, km: float, m: float, mm: float, z: float = Z95) -> tuple[float, float]:
    """A share counted within plays: Wilson's interval at the effective size R(1 - R) / ratio_pvar (the m units where
    nothing varies; with one unit a play, share_interval's); the SQL macros ratio_share_lo, ratio_share_hi."""
    r, pvar = k / m, ratio_pvar(k, kk, km, m, mm)
    bernoulli = r * (1 - r)
    size = m if bernoulli <= 1e-12 or pvar <= 1e-12 * bernoulli / m else bernoulli / pvar
    return wilson(r * size, size, z)


# Means and paired differences ------------------------------------------------------------------------------------


def sd_from_sums(n: float, s: float, ss: float) -> float:
    """The sample standard deviation (n - 1) from a count, a sum and a sum of squares."""
    return math.sqrt(max((ss - s * s / n) / (n - 1), 0.0)) if n > 1 else math.nan


def mean_interval(n: float, s: float, ss: float, z: float = Z95) -> tuple[float, float]:
    """The normal interval of a mean over n independent units (plays)."""
    if n <= 1:
        return (math.nan, math.nan)
    half = z * sd_from_sums(n, s, ss) / math.sqrt(n)
    return (s / n - half, s / n + half)


def mean_p_value(n: float, s: float, ss: float, mu0: float = 0.0) -> float:
    """Two-sided p that the mean is mu0 (normal; 1 where nothing varies and the mean is mu0, 0 where it is not)."""
    sd = sd_from_sums(n, s, ss)
    if not sd > 0:
        return 1.0 if s / n == mu0 else 0.0
    return float(2 * stats.norm.sf(abs(s / n - mu0) / (sd / math.sqrt(n))))


def equivalent(lo90: float, hi90: float, margin: float) -> bool:
    """TOST at 5%: the 90% interval lies inside +/- margin, so a change larger than the margin is ruled out."""
    return -margin < lo90 and hi90 < margin


def tost_p_value(mean: float, se: float, margin: float) -> float:
    """The p of two one-sided tests that the true value lies inside +/- margin (the larger of the two)."""
    if not se > 0:
        return 0.0 if abs(mean) < margin else 1.0
    return float(max(stats.norm.sf((mean + margin) / se), stats.norm.sf((margin - mean) / se)))


# Many tests, one error rate --------------------------------------------------------------------------------------


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (family-wise error rate), in the order given; NaN stays NaN and does not
    count in the family (the SQL of mart_variant_effects computes the same)."""
    p = np.asarray(p_values, float)
    out = np.full(p.shape, np.nan)
    idx = np.flatnonzero(~np.isnan(p))
    if idx.size == 0:
        return out
    order = idx[np.argsort(p[idx], kind="stable")]
    m = order.size
    adjusted = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    out[order] = adjusted
    return out


# Seats of one table: the seat test and balance -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatSums:
    """A table's plays as sums over plays of each seat's win share (`s`, k) and of the products of two seats'
    shares (`cross`, k x k: the diagonal is each seat's sum of squares)."""

    n: int
    s: np.ndarray
    cross: np.ndarray

    @property
    def players(self) -> int:
        return len(self.s)

    def covariance(self) -> np.ndarray:
        """The shares' covariance over plays (n - 1)."""
        m = self.s / self.n
        return (self.cross - self.n * np.outer(m, m)) / max(self.n - 1, 1)


def seat_sums(shares: np.ndarray) -> SeatSums:
    """SeatSums of per-play shares (plays x seats)."""
    shares = np.asarray(shares, float)
    return SeatSums(len(shares), shares.sum(axis=0), shares.T @ shares)


@dataclass(frozen=True)
class SeatTest:
    statistic: float
    dof: int
    p_value: float


def seat_test(sums: SeatSums) -> SeatTest:
    """Do the seats' win shares differ from the fair share 1/players? A Wald test on the vector of mean shares with
    their covariance over plays (seats share a play: their shares are not independent samples), taken about the
    fair shares so that a seat that never wins still counts: T = n d' S+ d with d the mean shares minus fair and
    S the shares' second moments about fair; chi-square with S's rank as degrees of freedom (players - 1 when
    every play has a winner, as the shares then sum to 1)."""
    n, k = sums.n, sums.players
    fair = np.full(k, 1 / k)
    d = sums.s / n - fair
    second = sums.cross / n - np.outer(sums.s / n, fair) - np.outer(fair, sums.s / n) + np.outer(fair, fair)
    values = np.linalg.eigvalsh(second)
    rank = int((values > 1e-10 * max(values.max(), 1e-300)).sum())
    if n < 2 or rank == 0:
        return SeatTest(math.nan, rank, math.nan)
    statistic = float(n * d @ np.linalg.pinv(second, rcond=1e-10, hermitian=True) @ d)
    return SeatTest(statistic, rank, float(stats.chi2.sf(statistic, rank)))


@dataclass(frozen=True)
class Balance:
    """1 - (the largest seat's win share - the smallest's): 1 when every seat wins an equal share."""

    value: float
    lo: float
    hi: float


def _pair_gaps(means: np.ndarray) -> np.ndarray:
    """Each pair's difference (rows of means: draws x seats -> draws x pairs, i < j)."""
    i, j = np.triu_indices(means.shape[-1], 1)
    return means[..., i] - means[..., j]


def balance(sums: SeatSums) -> Balance:
    """Balance with its 95% interval. The interval holds every pair of seats' difference in share at once (their
    simultaneous 95% intervals, the quantile of the largest standardised difference drawn from the shares' normal
    distribution): if every pair's difference lies in its interval, the largest gap lies between the largest lower
    end and the largest upper end, so the interval covers at least 95% and never passes 100%. The largest observed
    gap picks the best and worst seat from the same plays, so it overstates the true gap (a fair game shows one):
    the estimate is median-unbiased instead, the true gap at which the observed gap would come out below and above
    the one seen equally often (the seats' shares spread as seen), kept inside the interval. On a fair game half
    the estimates read exactly 100%."""
    k, n = sums.players, sums.n
    if n < 2 or k < 2:
        return Balance(math.nan, math.nan, math.nan)
    m = sums.s / n
    values, vectors = np.linalg.eigh(sums.covariance() / n)
    noise = np.random.default_rng(0).standard_normal((BALANCE_DRAWS, k)) @ (
        vectors * np.sqrt(np.clip(values, 0, None))).T
    i, j = np.triu_indices(k, 1)
    cov = sums.covariance() / n
    se = np.sqrt(np.clip(cov[i, i] + cov[j, j] - 2 * cov[i, j], 0, None))
    z = float(np.quantile((np.abs(_pair_gaps(noise)) / np.where(se > 0, se, np.inf)).max(axis=1), 0.95))
    d = np.abs(_pair_gaps(m))
    gap, low, high = float(d.max()), float(max(0.0, (d - z * se).max())), float((d + z * se).max())
    return Balance(1 - min(max(_median_unbiased_gap(m, noise, gap), low), high), max(0.0, 1 - high), 1 - low)


def _median_unbiased_gap(m: np.ndarray, noise: np.ndarray, gap: float) -> float:
    """The true largest gap g (the seats' shares spread as seen, scaled to g) at which the observed largest gap has
    median `gap`: 0 where even a fair game would show more than `gap` half the time."""
    fair = np.full(len(m), m.mean())

    def median_gap(g: float) -> float:
        drawn = fair + (m - fair) * (g / gap if gap > 0 else 0.0) + noise
        return float(np.median(drawn.max(axis=1) - drawn.min(axis=1)))

    if gap <= 0 or median_gap(0.0) >= gap:
        return 0.0
    lo, hi = 0.0, gap
    for _ in range(30):  # the median grows with g: halve the bracket to well below a share's rounding
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if median_gap(mid) < gap else (lo, mid)
    return (lo + hi) / 2


# Trends over ordered groups (the skill ladder's rungs) -------------------------------------------------------------


@dataclass(frozen=True)
class Trend:
    slope: float
    lo: float
    hi: float
    p_value: float


def weighted_trend(x, y, se) -> Trend:
    """The weighted least-squares slope of y on x, each point weighted by 1 / se^2 (independent estimates), with
    its 95% interval and two-sided p: a trend over every point, not the two ends (the SQL of mart_ladder_depth)."""
    x, y, w = np.asarray(x, float), np.asarray(y, float), 1 / np.asarray(se, float) ** 2
    if len(x) < 2:
        return Trend(math.nan, math.nan, math.nan, math.nan)
    xbar, ybar = (w * x).sum() / w.sum(), (w * y).sum() / w.sum()
    sxx = (w * (x - xbar) ** 2).sum()
    slope = float((w * (x - xbar) * (y - ybar)).sum() / sxx)
    half = Z95 / math.sqrt(sxx)
    return Trend(slope, slope - half, slope + half, float(2 * stats.norm.sf(abs(slope) * math.sqrt(sxx))))


# A table's seats in one row (mart_run_balance per run, mart_setup_balance per set-up) -----------------------------


SEAT_SUMMARY = {name: float for name in (
    "seat0_win_share", "seat0_win_share_lo", "seat0_win_share_hi", "seat0_advantage", "seat0_advantage_lo",
    "seat0_advantage_hi")} | {"largest_seat": int, "largest_advantage": float, "largest_p_holm": float} | {
    name: float for name in ("balance", "balance_lo", "balance_hi", "seat_test_statistic")} | {
    "seat_test_dof": int, "seat_test_p": float}  # seat_summary's columns and their types


def seat_summary(sums: SeatSums) -> dict:
    """Seat 0's win share and advantage with their intervals, the seat with the largest advantage either way (its p
    Holm-adjusted over the table's seats), the seat test and balance: the columns the balance marts share."""
    n, k = sums.n, sums.players
    ss = np.diag(sums.cross)
    fair = 1 / k
    shares = sums.s / n
    lo0, hi0 = share_interval(n, sums.s[0], ss[0])
    p = holm([share_p_value(n, sums.s[i], ss[i], fair) for i in range(k)])
    largest = int(np.argmax(np.abs(shares - fair).round(12)))  # ties: the lowest seat, so reruns agree
    test, bal = seat_test(sums), balance(sums)
    row = {"seat0_win_share": shares[0], "seat0_win_share_lo": lo0, "seat0_win_share_hi": hi0,
            "seat0_advantage": shares[0] - fair, "seat0_advantage_lo": lo0 - fair, "seat0_advantage_hi": hi0 - fair,
            "largest_seat": largest, "largest_advantage": shares[largest] - fair, "largest_p_holm": p[largest],
            "balance": bal.value, "balance_lo": bal.lo, "balance_hi": bal.hi,
            "seat_test_statistic": test.statistic, "seat_test_dof": test.dof, "seat_test_p": test.p_value}
    return {name: None if isinstance(x, float) and math.isnan(x) else x for name, x in row.items()}  # NaN: null


def seat_sums_of(seats, cross) -> SeatSums:
    """SeatSums from a table's rows of seat sums (`seat`, `n` plays, `s` summed shares) and of cross sums (`seat_a`,
    `seat_b`, `product_sum`), as the marts hold them (Polars frames; a pair of seats that never won together has no
    row)."""
    k = int(seats["seat"].max()) + 1
    s, n = np.zeros(k), int(seats["n"].max())
    s[seats["seat"].to_numpy()] = seats["s"].to_numpy()
    products = np.zeros((k, k))
    products[cross["seat_a"].to_numpy(), cross["seat_b"].to_numpy()] = cross["product_sum"].to_numpy()
    return SeatSums(n, s, products)
