"""The short version of `make calibrate`: on lakes whose truth is known by construction (relabelled real plays,
variants that change nothing, Bernoulli seats with set rates), every 95% interval of the report covers its truth in
at least 93% of the replicates and every 5% test rejects a true hypothesis in at most 7% (simlib/calibrate.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simlib import calibrate
from simlib.analysis import estimators as E


@pytest.fixture(scope="module")
def checks() -> list[calibrate.Check]:
    return calibrate.run_checks(quick=True)


def test_every_interval_covers_and_every_test_holds_its_size(checks):
    failing = [f"{c.estimator} at {c.truth}: {c.kind} {c.rate:.1%}" for c in checks if not c.passes]
    assert not failing, failing
    kinds = {c.kind for c in checks}
    assert kinds == {"coverage", "size"}
    assert len(checks) >= 15


def test_the_known_truths_are_what_they_claim():
    """The constructions themselves: relabelled plays make every seat fair; Bernoulli seats' closed-form shares."""
    rng = np.random.default_rng(1)
    pool = np.zeros((500, 3))
    pool[:, 0] = 1.0  # seat 0 wins every play of the pool: relabelling alone makes the seats fair
    plays = calibrate.relabelled(pool, 60_000, rng)
    assert plays.mean(axis=0) == pytest.approx([1 / 3] * 3, abs=0.01)
    p, tie = np.array([0.5, 0.3, 0.2]), 0.4
    drawn = calibrate.bernoulli(p, tie, 200_000, rng)
    assert drawn.mean(axis=0) == pytest.approx(calibrate.bernoulli_truth(p, tie), abs=0.005)
    assert drawn.sum(axis=1) == pytest.approx(np.ones(200_000))


def test_a_check_that_misses_fails():
    """The bar can fail: an interval that covers 90% of the time, or a test that rejects 10%, does not pass."""
    assert not calibrate.Check("x", "t", "coverage", 900, 1000, 10).passes
    assert not calibrate.Check("x", "t", "size", 100, 1000, 10).passes
    assert calibrate.Check("x", "t", "coverage", 950, 1000, 10).passes


def test_the_old_seat_test_would_have_failed():
    """The per-run chi-square the marts used before (a seats x (won, lost) table, as if the seats were independent)
    rejects fair relabelled plays well above 5%: the calibration would have caught it."""
    from scipy import stats

    rng = np.random.default_rng(3)
    pool = calibrate.bernoulli(np.full(4, 0.25), 0.0, 5000, rng)
    rejected = 0
    for _ in range(400):
        won = calibrate.relabelled(pool, 1000, rng) > 0
        table = np.stack([won.sum(axis=0), (~won).sum(axis=0)])
        rejected += stats.chi2_contingency(table, correction=False)[1] < 0.05
        assert E.seat_test(E.seat_sums(won.astype(float))).dof == 3
    assert rejected / 400 > calibrate.SIZE_CEILING
