"""The report's estimators (docs/statistics.md): the SQL macros and SQL written in the marts against their Python
twins in simlib/analysis/estimators.py, on a grid of sums with every edge a share can have, and the twins against
known answers and against the tests' own arithmetic (tests/support/mart_checks.py, written from the doc's words).

Edges of a share's sums: no ties (every share 0 or 1), ties (1/2, 1/3), a seat that never wins (p = 0), one that
always wins (p = 1), the same share in every play (nothing varies), a single play (n = 1).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from simlib.analysis import estimators as E
from simlib.analysis.duck import connect
from simlib.core.resources import shared_pipelines

from support import mart_checks as by_hand

# Per-play shares of one seat, named by what they exercise.
SHARES = {
    "no ties": [1, 0, 0, 1, 0, 0, 0, 1, 0, 0],
    "no ties, one play in two": [0, 1],
    "ties": [1, Fraction(1, 2), 0, Fraction(1, 3), 1, 0, Fraction(1, 2)],
    "ties only": [Fraction(1, 2), Fraction(1, 2), 0, Fraction(1, 3)],
    "never wins (p = 0)": [0, 0, 0, 0, 0],
    "always wins (p = 1)": [1, 1, 1],
    "the same share every play": [Fraction(1, 2)] * 6,
    "a three-way tie every play": [Fraction(1, 3)] * 9,
    "one play, won (n = 1)": [1],
    "one play, lost (n = 1)": [0],
    "one play, shared (n = 1)": [Fraction(1, 2)],
}
# The same as sums (n, s, ss), as the marts hold them, and a few of a size the marts see.
SUMS = {name: (len(x), float(sum(x)), float(sum(Fraction(v) ** 2 for v in x))) for name, x in SHARES.items()} | {
    "100,000 plays, ties": (100_000, 31_250.5, 27_100.25),
    "100,000 plays, no ties": (100_000, 26_017.0, 26_017.0),
}
FAIR = (1 / 2, 1 / 3, 1 / 4)


@pytest.fixture(scope="module")
def con():
    return connect()


def sql(con, expression: str, n, s, ss, *more) -> float | None:
    values = ", ".join(f"{float(v)!r}::double" for v in (s, ss, *more))
    return con.execute(f"select {expression} from (select {int(n)}::bigint as n, {values}) "
                       f"as t(n, s, ss{''.join(f', a{i}' for i in range(len(more)))})").fetchone()[0]


# --- (a) the SQL and its Python twin -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", SUMS)
def test_share_effective_n_is_the_twin_of_effective_n(con, name):
    n, s, ss = SUMS[name]
    assert sql(con, "share_effective_n(n, s, ss)", n, s, ss) == pytest.approx(E.effective_n(n, s, ss), rel=1e-12)


@pytest.mark.parametrize("name", SHARES)
def test_effective_n_is_the_docs_n_p_1_minus_p_over_v(name):
    n, s, ss = SUMS[name]
    assert E.effective_n(n, s, ss) == pytest.approx(by_hand.effective_n(SHARES[name]), rel=1e-12)


@pytest.mark.parametrize("name", SUMS)
def test_share_lo_and_share_hi_are_the_twins_of_share_interval(con, name):
    """The same formula, at the macros' z (wilson_lo, wilson_hi: 1.96); that the twin's default z is the same one is
    test_the_twins_interval_at_their_own_z_is_the_macros'."""
    n, s, ss = SUMS[name]
    got = (sql(con, "share_lo(n, s, ss)", n, s, ss), sql(con, "share_hi(n, s, ss)", n, s, ss))
    assert got == pytest.approx(E.share_interval(n, s, ss, z=1.96), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("name", SHARES)
def test_share_interval_is_the_docs_wilson_at_the_effective_n(name):
    n, s, ss = SUMS[name]
    assert E.share_interval(n, s, ss, z=1.96) == pytest.approx(by_hand.share_interval(SHARES[name]), rel=1e-12,
                                                                abs=1e-15)


@pytest.mark.parametrize("p0", FAIR)
@pytest.mark.parametrize("name", SUMS)
def test_share_p_is_the_twin_of_share_p_value(con, name, p0):
    n, s, ss = SUMS[name]
    assert sql(con, "share_p(n, s, ss, a0)", n, s, ss, p0) == pytest.approx(E.share_p_value(n, s, ss, p0),
                                                                            rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("name", SUMS)
def test_mean_ci90_half_is_the_twin_of_the_90_percent_mean_interval(con, name):
    n, s, ss = SUMS[name]
    half = sql(con, "mean_ci90_half(sd_from_sums(n, s, ss), n)", n, s, ss)
    if n < 2:
        assert half is None and all(math.isnan(x) for x in E.mean_interval(n, s, ss, z=E.Z90))
        return
    lo, hi = E.mean_interval(n, s, ss, z=E.Z90)
    assert (s / n - half, s / n + half) == pytest.approx((lo, hi), rel=1e-12, abs=1e-15)
    assert sql(con, "sd_from_sums(n, s, ss)", n, s, ss) == pytest.approx(E.sd_from_sums(n, s, ss), rel=1e-12,
                                                                         abs=1e-15)
    assert E.Z90 == pytest.approx(stats.norm.ppf(0.95), rel=1e-15)


@pytest.mark.parametrize("name", [k for k, (n, _, _) in SUMS.items() if n > 1])
def test_mean_ci_half_is_the_twin_of_the_95_percent_mean_interval(con, name):
    n, s, ss = SUMS[name]
    half = sql(con, "mean_ci_half(sd_from_sums(n, s, ss), n)", n, s, ss)
    assert (s / n - half, s / n + half) == pytest.approx(E.mean_interval(n, s, ss, z=1.96), rel=1e-12, abs=1e-15)


def test_the_twins_intervals_at_their_own_z_are_the_macros(con):
    """One interval whichever computes it: the marts written in Python (mart_run_balance, mart_setup_balance, Die
    Mauer's match totals) call share_interval at its default z, the SQL marts share_lo/share_hi at 1.96 (and
    mean_ci_half too). A set-up's seat 0 must read alike in mart_seat_advantage and mart_setup_balance."""
    n, s, ss = SUMS["ties"]
    got = (sql(con, "share_lo(n, s, ss)", n, s, ss), sql(con, "share_hi(n, s, ss)", n, s, ss))
    assert got == pytest.approx(E.share_interval(n, s, ss), rel=1e-12), (
        f"share_lo/share_hi use z = 1.96, estimators.share_interval z = {E.Z95!r}")
    half = sql(con, "mean_ci_half(sd_from_sums(n, s, ss), n)", n, s, ss)
    assert (s / n - half, s / n + half) == pytest.approx(E.mean_interval(n, s, ss), rel=1e-12), (
        f"mean_ci_half uses z = 1.96, estimators.mean_interval z = {E.Z95!r}")


def cte(model: str, name: str) -> str:
    """The body of one CTE of a shared model's SQL, as written there."""
    text = (shared_pipelines() / f"{model}.sql").read_text()
    start = re.search(rf"\b{name} as \(", text).end()
    depth, at = 1, start
    while depth:
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        at += 1
    return text[start:at - 1]


# Families of p-values: ties, p = 0, p = 1, products past 1, one test alone, a null (a baseline: no test).
FAMILIES = [
    [0.01, 0.04, 0.03, 0.005],
    [0.02, 0.02, 0.5, 0.02],
    [0.0, 1.0, 0.3, 0.0],
    [0.4, 0.6, 0.9],
    [0.03],
    [0.2, None, 0.01, 0.04],
]


def holm_of(family):
    return list(E.holm([math.nan if p is None else p for p in family]))


def test_holm_in_mart_seat_advantage_is_the_twin_of_holm(con):
    rows = [(f"setup{i}", len(f), seat, p) for i, f in enumerate(FAMILIES) if None not in f for seat, p in enumerate(f)]
    con.execute("create or replace temp table seat_tests (setup_id varchar, players int, seat int, p_value double)")
    con.executemany("insert into seat_tests values (?, ?, ?, ?)", rows)
    got = con.execute(f"""
        with tested as (select 'g' as game, * from seat_tests), adjusted as ({cte("mart_seat_advantage", "adjusted")})
        select setup_id, seat, p_holm from adjusted order by setup_id, seat""").fetchall()
    want = {(f"setup{i}", seat): p for i, f in enumerate(FAMILIES) if None not in f
            for seat, p in enumerate(holm_of(f))}
    assert len(got) == len(want)
    for setup_id, seat, p_holm in got:
        assert p_holm == pytest.approx(want[setup_id, seat], rel=1e-15), (setup_id, seat)


def test_holm_in_mart_variant_effects_is_the_twin_of_holm(con):
    # Each family is one figure's tests (a sweep, player count and line-up): variants x metrics, the per-seat rows
    # a family of their own; a null p (the baseline) is no test.
    rows = []
    for i, family in enumerate(FAMILIES):
        for j, p in enumerate(family):
            rows.append((f"sweep{i}", 4, "random", None, f"metric{j % 2}", j, p))
            rows.append((f"sweep{i}", 4, "random", j % 4, "win_share", j // 4, p))
    con.execute("create or replace temp table figure_tests (sweep_id varchar, players int, policies varchar, "
                "seat int, metric varchar, variant_order int, p_value double)")
    con.executemany("insert into figure_tests values (?, ?, ?, ?, ?, ?, ?)", rows)
    got = con.execute(f"""
        with tested as (select 'g' as game, * from figure_tests),
             adjusted as ({cte("mart_variant_effects", "adjusted")})
        select sweep_id, seat is null, metric, seat, variant_order, p_holm from adjusted""").fetchall()
    want = {}
    for i, family in enumerate(FAMILIES):
        for j, adjusted in enumerate(holm_of(family)):
            want[f"sweep{i}", True, f"metric{j % 2}", None, j] = adjusted
            want[f"sweep{i}", False, "win_share", j % 4, j // 4] = adjusted
    assert len(got) == len(want)
    for *key, p_holm in got:
        expected = want[tuple(key)]
        if math.isnan(expected):
            assert p_holm is None, key
        else:
            assert p_holm == pytest.approx(expected, rel=1e-15), key


def test_holm_in_mart_ladder_head_to_head_is_the_twin_of_holm(con):
    rows = [(f"opts{i}", rung, p) for i, f in enumerate(FAMILIES) if None not in f for rung, p in enumerate(f)]
    con.execute("create or replace temp table step_tests (table_options varchar, rung int, p_one_sided double)")
    con.executemany("insert into step_tests values (?, ?, ?)", rows)
    got = con.execute(f"""
        with tested as (select 'g' as game, 3 as players, * from step_tests),
             adjusted as ({cte("mart_ladder_head_to_head", "adjusted")})
        select table_options, rung, p_holm from adjusted""").fetchall()
    want = {(f"opts{i}", rung): p for i, f in enumerate(FAMILIES) if None not in f for rung, p in enumerate(holm_of(f))}
    assert len(got) == len(want)
    for options, rung, p_holm in got:
        assert p_holm == pytest.approx(want[options, rung], rel=1e-15), (options, rung)


# --- (b) known answers ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k, n", [(0, 1), (1, 1), (0, 5), (3, 10), (10, 10), (26_017, 100_000)])
def test_without_ties_the_share_interval_is_plain_wilson(k, n):
    """Shares of 0 or 1 are wins: their squares sum to their sum, v = p(1-p), n_eff = n."""
    assert E.effective_n(n, k, k) == pytest.approx(n, rel=1e-12)
    assert E.share_interval(n, k, k) == pytest.approx(E.wilson(k, n), rel=1e-12, abs=1e-15)
    lo, hi = by_hand.wilson(k, n, z=E.Z95)  # the tests' own Wilson
    assert E.wilson(k, n) == pytest.approx((max(lo, 0.0), min(hi, 1.0)), rel=1e-12, abs=1e-15)
    assert E.Z95 == pytest.approx(stats.norm.isf(0.025), abs=5e-5)  # 1.96, as the SQL macros round it


def test_ties_make_the_effective_n_larger_and_the_interval_narrower():
    """Shares 1, 0, 1/2, 1, 0, 0, 1/2 (tests/analysis/test_pooling.py, seat 0 of A + C): p = 3/7, v = 8.5/49 < p(1-p) =
    12/49, n_eff = 168/17 > 7; the interval lies inside Wilson's for 3 wins in 7."""
    n, s, ss = 7, 3.0, 2.5
    assert E.effective_n(n, s, ss) == pytest.approx(168 / 17, rel=1e-15)
    lo, hi = E.share_interval(n, s, ss)
    wins_lo, wins_hi = E.wilson(3, 7)
    assert wins_lo < lo < 3 / 7 < hi < wins_hi


@pytest.mark.parametrize("name", ["never wins (p = 0)", "always wins (p = 1)", "the same share every play"])
def test_where_nothing_varies_the_interval_is_wilsons_at_n_and_never_a_point(name):
    n, s, ss = SUMS[name]
    assert E.effective_n(n, s, ss) == n
    lo, hi = E.share_interval(n, s, ss)
    assert 0 <= lo <= s / n <= hi <= 1 and lo < hi


@pytest.mark.parametrize("n, k", [(10, 5), (10, 8), (40, 13), (7, 0), (1000, 530)])
def test_the_seat_test_of_two_seats_without_ties_is_the_square_of_the_score_z(n, k):
    """Two seats, no ties: seat 0 wins k of n plays, seat 1 the rest. S about 1/2 is (1/4) [[1, -1], [-1, 1]],
    rank 1, and T = 4 n (p - 1/2)^2 = z^2 with z the score z against 1/2; its p the score test's two-sided p."""
    shares = np.array([[1.0, 0.0]] * k + [[0.0, 1.0]] * (n - k))
    test = E.seat_test(E.seat_sums(shares))
    zscore = (k / n - 0.5) / math.sqrt(0.25 / n)
    assert (test.statistic, test.dof) == (pytest.approx(zscore ** 2, rel=1e-12, abs=1e-12), 1)
    assert test.p_value == pytest.approx(E.share_p_value(n, k, k, 0.5), rel=1e-9)


def random_table(rng, plays: int, seats: int, tie_rate: float = 0.3, nobody_rate: float = 0.0) -> np.ndarray:
    """Shares (plays x seats) of plays with one winner, a tie of two or more, or (nobody_rate) no winner."""
    table = np.zeros((plays, seats))
    for row in table:
        if rng.random() < nobody_rate:
            continue
        winners = rng.choice(seats, size=rng.integers(2, seats + 1) if rng.random() < tie_rate else 1,
                             replace=False, p=np.linspace(2, 1, seats) / np.linspace(2, 1, seats).sum())
        row[winners] = 1 / len(winners)
    return table


@pytest.mark.parametrize("seed, plays, seats, nobody", [(1, 50, 3, 0.0), (2, 200, 4, 0.0), (3, 30, 5, 0.0),
                                                        (4, 80, 3, 0.2), (5, 12, 2, 0.0)])
def test_the_seat_test_is_the_docs_wald_statistic(seed, plays, seats, nobody):
    table = random_table(np.random.default_rng(seed), plays, seats, nobody_rate=nobody)
    test = E.seat_test(E.seat_sums(table))
    statistic, dof, p = by_hand.seat_test([[Fraction(v).limit_denominator(12) for v in row] for row in table])
    assert (test.statistic, test.dof, test.p_value) == (pytest.approx(statistic, rel=1e-9), dof,
                                                        pytest.approx(p, rel=1e-9))
    assert dof == (seats - 1 if nobody == 0 else seats)  # the shares sum to 1 only when every play has a winner


def test_holm_against_a_worked_example():
    """p = 0.01, 0.04, 0.03, 0.005: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 give 0.02, 0.03, 0.06, 0.04;
    kept non-decreasing: 0.02, 0.03, 0.06, 0.06; in the order given 0.03, 0.06, 0.06, 0.02."""
    assert list(E.holm([0.01, 0.04, 0.03, 0.005])) == pytest.approx([0.03, 0.06, 0.06, 0.02], rel=1e-15)
    assert by_hand.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], rel=1e-15)
    # Never above 1; a NaN is no test and does not count in the family (0.2 x 2, not x 3).
    assert list(E.holm([0.6, 0.9])) == [1.0, 1.0]
    got = E.holm([0.2, math.nan, 0.01])
    assert math.isnan(got[1]) and list(got[[0, 2]]) == pytest.approx([0.2, 0.02])
    assert E.holm([]).size == 0


def test_weighted_trend_recovers_a_known_slope_on_exact_data():
    """y = 0.1 - 0.02 x exactly: the slope is -0.02 whatever the weights; its interval is +- 1.96 / sqrt(sxx) with
    sxx = sum w (x - xbar)^2, here w = 1 / 0.01^2 = 10,000 at x = 0 .. 4: xbar = 2, sxx = 100,000."""
    x = np.arange(5)
    trend = E.weighted_trend(x, 0.1 - 0.02 * x, np.full(5, 0.01))
    half = E.Z95 / math.sqrt(100_000)
    assert (trend.slope, trend.lo, trend.hi) == pytest.approx((-0.02, -0.02 - half, -0.02 + half), rel=1e-12)
    assert trend.p_value == pytest.approx(math.erfc(0.02 * math.sqrt(100_000) / math.sqrt(2)), rel=1e-9)
    # Unequal weights, data off the line: NumPy's weighted fit (weights 1/se on the residuals) agrees.
    y, se = np.array([0.05, 0.02, 0.04, -0.01]), np.array([0.02, 0.01, 0.03, 0.015])
    trend = E.weighted_trend(np.arange(4), y, se)
    (slope, _), cov = np.polyfit(np.arange(4), y, 1, w=1 / se, cov="unscaled")
    assert (trend.slope, trend.hi - trend.lo) == pytest.approx((slope, 2 * E.Z95 * math.sqrt(cov[0, 0])), rel=1e-9)
    assert math.isnan(E.weighted_trend([0], [0.1], [0.01]).slope)  # one rung: no trend


def balance_of(table) -> dict:
    b = E.balance(E.seat_sums(table))
    return {"balance": b.value, "balance_lo": b.lo, "balance_hi": b.hi}


@pytest.mark.parametrize("seed, plays, seats", [(1, 50, 3), (2, 400, 4), (3, 30, 5), (4, 1000, 3), (5, 20, 2),
                                                (6, 5000, 4)])
def test_balance_never_exceeds_1_and_its_interval_holds_the_estimate(seed, plays, seats):
    table = random_table(np.random.default_rng(seed), plays, seats)
    got = balance_of(table)
    assert 0 <= got["balance_lo"] <= got["balance"] <= got["balance_hi"] <= 1
    by_hand.assert_balance(got, table)  # the simultaneous pairwise bounds, worked by hand


def test_balance_shrinks_the_observed_gap_and_reruns_agree():
    """The largest observed gap picks the best and worst seat from the same plays: the estimate is never below
    1 - that gap; drawn from a fixed stream, the same sums give the same balance."""
    table = random_table(np.random.default_rng(7), 300, 4)
    means = table.mean(axis=0)
    first, again = balance_of(table), balance_of(table.copy())
    assert first == again
    assert first["balance"] >= 1 - (means.max() - means.min())


@pytest.mark.parametrize("table", [
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]] * 5,  # every seat wins a third of the plays alone
    [[1 / 3, 1 / 3, 1 / 3]] * 8,  # a three-way tie every play: identical shares in every seat and play
    [[0.5, 0.5, 0], [0, 0.5, 0.5], [0.5, 0, 0.5]] * 4,  # two-way ties, each seat in two of every three
    [[1, 0], [0, 1]] * 10,
], ids=["one winner in turn", "always a three-way tie", "two-way ties in turn", "two seats in turn"])
def test_a_fair_table_with_identical_shares_in_every_seat_reads_exactly_1(table):
    got = balance_of(np.array(table, dtype=float))
    assert got["balance"] == 1.0 and got["balance_hi"] == 1.0
    assert 0 <= got["balance_lo"] <= 1
    if np.ptp(np.array(table), axis=0).max() == 0:  # nothing varies either: the interval is the point 1
        assert got["balance_lo"] == pytest.approx(1.0, abs=1e-6)


def test_balance_and_the_seat_test_need_two_plays():
    one_play = E.seat_sums(np.array([[1.0, 0.0, 0.0]]))
    assert math.isnan(E.balance(one_play).value) and math.isnan(E.seat_test(one_play).statistic)
    summary = E.seat_summary(one_play)
    assert summary["balance"] is None and summary["seat_test_statistic"] is None


@pytest.mark.parametrize("plays", [
    [(1, 3), (0, 2), (2, 4), (1, 1)],          # events of a kind k within each play's m events
    [(0, 3), (0, 2), (0, 5)],                  # never: the events themselves
    [(2, 2), (3, 3)],                          # always
    [(1, 4)],                                  # one play: no variance to estimate
    [(5, 10), (5, 10), (5, 10)],               # every play alike
])
def test_the_ratio_macros_are_their_twins_and_count_plays_as_units(plays):
    k, m = np.array([p[0] for p in plays], float), np.array([p[1] for p in plays], float)
    sums = (k.sum(), (k * k).sum(), (k * m).sum(), m.sum(), (m * m).sum())
    con = connect()
    try:
        se, lo, hi, mean_lo = con.execute(
            "select ratio_se($1, $2, $3, $4, $5, $6), ratio_share_lo($2, $3, $4, $5, $6), "
            "ratio_share_hi($2, $3, $4, $5, $6), ratio_mean_lo($1, $2, $3, $4, $5, $6)",
            [len(plays), *sums]).fetchone()
    finally:
        con.close()
    twin_se = E.ratio_se(len(plays), *sums)
    assert (se is None and math.isnan(twin_se)) or se == pytest.approx(twin_se, rel=1e-12)
    assert (lo, hi) == pytest.approx(E.ratio_share_interval(*sums), rel=1e-12, abs=1e-15)
    if len(plays) > 1 and 0 < k.sum() < m.sum():  # by hand: the ratio estimator's variance over plays
        r = k.sum() / m.sum()
        by_hand = math.sqrt(((k - r * m) ** 2).sum() / (len(plays) * (len(plays) - 1))) / m.mean()
        assert twin_se == pytest.approx(by_hand, rel=1e-12)
        assert mean_lo == pytest.approx(r - 1.96 * by_hand, rel=1e-12)


def test_with_one_unit_a_play_the_ratio_share_is_the_win_share():
    """m = 1 in every play: a share counted within plays is a plain share, and its interval share_interval's."""
    shares = np.array([1, 0, 0.5, 1, 0, 0, 0.5, 1, 0, 0])
    k, m = shares, np.ones_like(shares)
    ratio = E.ratio_share_interval(k.sum(), (k * k).sum(), (k * m).sum(), m.sum(), (m * m).sum())
    assert ratio == pytest.approx(E.share_interval(len(shares), shares.sum(), (shares ** 2).sum()), rel=1e-12)
