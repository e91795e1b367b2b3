"""mart_variant_effects' numbers in Python, from sums that add up: a variant's plays paired with its baseline's.

The workbench (simlib/serve) pools a sweep run chunk by chunk, one seed a chunk, and states its verdicts after each
chunk with the What-if page's sentences (analysis/whatif.py). Those sentences read rows of mart_variant_effects; the
rows here are that mart's twins, computed by the same estimators (analysis/estimators.py) from the same sums as
int_variant_pair_sums (n, the variant's and the baseline's sums and squares, the differences' sum and square), so
that adding a chunk is adding its sums. tests/serve/test_jobs.py holds the twin to the mart on a workbench job's
chunks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .estimators import MARGIN_RELATIVE, MARGIN_SHARE, Z90, equivalent, holm, mean_interval, mean_p_value


@dataclass(frozen=True)
class PairSums:
    """Sums over paired plays (play i of the variant with play i of the baseline: the same seed)."""

    n: int = 0
    v: float = 0.0
    vv: float = 0.0
    b: float = 0.0
    bb: float = 0.0
    d: float = 0.0
    dd: float = 0.0

    @classmethod
    def of(cls, variant: np.ndarray, baseline: np.ndarray) -> PairSums:
        v, b = np.asarray(variant, float), np.asarray(baseline, float)
        d = v - b
        return cls(len(v), float(v.sum()), float(v @ v), float(b.sum()), float(b @ b), float(d.sum()), float(d @ d))

    def __add__(self, other: PairSums) -> PairSums:
        return PairSums(*(x + y for x, y in zip(self.astuple(), other.astuple())))

    def astuple(self) -> tuple:
        return (self.n, self.v, self.vv, self.b, self.bb, self.d, self.dd)


def is_share_metric(metric: str) -> bool:
    """A share's margin is absolute (1 percentage point), any other mean's relative (1% of the baseline's)."""
    return metric in ("seat0_advantage", "win_share") or metric.endswith("rate")


def effect_row(metric: str, sums: PairSums) -> dict:
    """One variant's row of mart_variant_effects for `metric` (p_holm left to `with_holm`)."""
    n = sums.n
    baseline_mean = sums.b / n
    lo, hi = mean_interval(n, sums.d, sums.dd)
    lo90, hi90 = mean_interval(n, sums.d, sums.dd, Z90)
    v_lo, v_hi = mean_interval(n, sums.v, sums.vv)
    margin = MARGIN_SHARE if is_share_metric(metric) else MARGIN_RELATIVE * abs(baseline_mean)
    return {"metric": metric, "n_plays": n, "variant_mean": sums.v / n, "variant_mean_lo": v_lo,
            "variant_mean_hi": v_hi, "baseline_mean": baseline_mean, "difference": sums.d / n,
            "difference_lo": lo, "difference_hi": hi, "difference_lo90": lo90, "difference_hi90": hi90,
            "p_value": mean_p_value(n, sums.d, sums.dd), "margin": margin,
            "equivalent": not math.isnan(lo90) and equivalent(lo90, hi90, margin)}


def with_holm(rows: list[dict]) -> list[dict]:
    """The rows with p_holm: Holm over every variant x metric of one sweep and table, as the mart adjusts them."""
    adjusted = holm([r["p_value"] for r in rows])
    return [r | {"p_holm": float(p)} for r, p in zip(rows, adjusted)]
