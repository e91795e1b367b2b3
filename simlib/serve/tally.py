"""A workbench job's chunks added up, and what may be said of them: the report's estimators and sentences.

Each chunk is a sweep on its own seed; its plays are new plays, so sums over chunks are sums over distinct plays,
each counted once. The verdicts are the What-if page's (analysis/whatif.py: a change where the Holm-adjusted p is
below 0.05, "no change larger than" where the 90% interval lies within the margin, else "too few plays to tell")
and the index's start-player answer (analysis/sections.py), over the pooled sums.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from ..analysis.effects import effect_row, is_share_metric, with_holm
from ..analysis.estimators import SeatSums, effective_n, mean_interval, seat_summary, share_interval, share_p_value
from ..analysis.sections import start_player_verdict
from ..analysis.whatif import metric_name, variant_line, variant_sentence, variant_words
from ..core.setups import spec_words, table_words
from .chunk import ChunkResult


def _add_seats(a: SeatSums | None, b: SeatSums) -> SeatSums:
    return b if a is None else SeatSums(a.n + b.n, a.s + b.s, a.cross + b.cross)


def relative_width(row: dict) -> float:
    """A paired interval's width on one scale for every metric: percentage points for a share, percent of the
    baseline's mean for any other (the scales of the equivalence margins: 1 is a margin's half); infinite where the
    baseline's mean is 0 (no percent of it), so that the width never stops a job on it."""
    width = row["difference_hi"] - row["difference_lo"]
    if is_share_metric(row["metric"]):
        return 100 * width
    return 100 * width / abs(row["baseline_mean"]) if row["baseline_mean"] else math.inf


def _unchanged(row: dict) -> bool:
    """The variant's plays equal the baseline's in every pair: an artefact, not a measurement (no width to wait
    for)."""
    return row["difference_lo"] == row["difference_hi"] == 0


def _interval(lo: float, hi: float, value: float) -> dict:
    return {"value": value, "lo": None if math.isnan(lo) else lo, "hi": None if math.isnan(hi) else hi}


class Tally:
    """The runs of a job (the baseline first, then each variant), summed over the chunks so far."""

    def __init__(self):
        self.seats: dict[str, SeatSums] = {}
        self.policies: dict[str, dict[str, np.ndarray]] = {}  # at a mixed table: chunk.RunSums.policies, added up
        self.pairs: dict[str, dict] = {}
        self.baseline = ""
        self.headline = ""

    def add(self, chunk: ChunkResult) -> None:
        self.headline = self.headline or chunk.headline
        for run in chunk.runs:
            if run.is_baseline:
                self.baseline = run.key
            self.seats[run.key] = _add_seats(self.seats.get(run.key), run.seats)
            shares = self.policies.setdefault(run.key, {})
            for spec, sums in run.policies.items():
                shares[spec] = shares[spec] + sums if spec in shares else sums
            mine = self.pairs.setdefault(run.key, {})
            for metric, sums in run.pairs.items():
                mine[metric] = mine[metric] + sums if metric in mine else sums

    @property
    def plays(self) -> int:
        """Paired plays per variant so far."""
        return self.seats[self.baseline].n if self.baseline else 0

    def metrics(self, one_policy: bool) -> list[str]:
        """The metrics a verdict reads, in the What-if page's order: the headline, seat 0's advantage where every
        seat plays one policy (at a mixed table it measures the policies), the length."""
        headline = [f"headline: {self.headline}"] if self.headline else []
        return headline + ["seat0_advantage"] * one_policy + ["length"]

    def effects(self, one_policy: bool) -> dict[str, dict[str, dict]]:
        """Each variant's rows by metric (those `metrics` reads), with p Holm-adjusted over every variant x metric the
        mart adjusts over: seat 0's advantage included at a mixed table too, as mart_variant_effects counts it."""
        tested = self.metrics(True)
        rows = [(key, effect_row(metric, self.pairs[key][metric])) for key in self.pairs if key != self.baseline
                for metric in tested if metric in self.pairs[key]]
        shown, effects = self.metrics(one_policy), {}
        for (key, _), row in zip(rows, with_holm([row for _, row in rows])):
            if row["metric"] in shown:
                effects.setdefault(key, {})[row["metric"]] = row
        return effects

    def _run(self, game, key: str, lineup: list[str]) -> dict:
        sums = self.seats[key]
        length = self.pairs[key]["length"]
        entry = {"key": key, "words": variant_words(game, key), "is_baseline": key == self.baseline,
                 "length": _interval(*mean_interval(length.n, length.v, length.vv), length.v / length.n)}
        headline = self.pairs[key].get(f"headline: {self.headline}")
        if headline is not None:
            entry["headline"] = _interval(*mean_interval(headline.n, headline.v, headline.vv),
                                          headline.v / headline.n)
        if len(set(lineup)) > 1:  # at a mixed table the seats' shares measure the policies, not the seats
            entry["policies"] = self._policy_shares(game, key, lineup)
        else:
            row = seat_summary(sums)
            entry["seat0"] = _interval(row["seat0_win_share_lo"], row["seat0_win_share_hi"], row["seat0_win_share"])
            entry["balance"] = _interval(row["balance_lo"] or math.nan, row["balance_hi"] or math.nan,
                                         row["balance"])
            entry["start_player"] = start_player_verdict(_seat_rows(sums, entry["words"]), "tables")
        return entry

    def _policy_shares(self, game, key: str, lineup: list[str]) -> list[dict]:
        """Each policy's win share with its 95% interval, as mart_policy_strength says it (chunk.policy_share_sums),
        in the line-up's order (its specs in full, as JobSpec reads them and the lake writes them), and the fair
        share."""
        shares = []
        for spec in dict.fromkeys(lineup):
            n, s, ss = self.policies[key][spec]
            shares.append({"policy": spec_words(game, spec), "fair": 1 / len(lineup),
                           "share": _interval(*share_interval(n, s, ss), s / n)})
        return shares

    def verdicts(self, game, lineup: list[str]) -> dict:
        """What the page shows after a chunk: each run's own figures and each variant's sentence against the
        baseline, as the report says them; `widest`, the widest paired interval of a figure that varies
        (relative_width; None where none varies)."""
        one_policy = len(set(lineup)) == 1
        baseline = variant_words(game, self.baseline)
        variants, widths = [], []
        for key, rows in self.effects(one_policy).items():
            words = variant_words(game, key)
            metrics = [row | {"name": metric_name(metric, game), "share": is_share_metric(metric),
                              "width": None if _unchanged(row) else relative_width(row), "unchanged": _unchanged(row)}
                       for metric, row in rows.items()]
            widths += [m["width"] for m in metrics if m["width"] is not None]
            variants.append({"key": key, "words": words, "sentence": variant_sentence(words, baseline, rows, game),
                             "line": variant_line(words, rows, game), "metrics": metrics})
        return {"plays": self.plays, "table": table_words(game, lineup), "baseline": baseline,
                "runs": [self._run(game, key, lineup) for key in self.seats],
                "variants": variants, "widest": max(widths) if widths else None}


def _seat_rows(sums: SeatSums, label: str) -> pl.DataFrame:
    """A run's seats as the rows of mart_seat_advantage that start_player_verdict reads."""
    n, k = sums.n, sums.players
    fair = 1 / k
    rows = []
    for seat in range(k):
        s, ss = float(sums.s[seat]), float(sums.cross[seat, seat])
        lo, hi = share_interval(n, s, ss)
        rows.append({"setup_id": label, "setup_label": label, "seat": seat, "win_share": s / n, "win_share_lo": lo,
                     "win_share_hi": hi, "fair_share": fair, "advantage": s / n - fair,
                     "effective_plays": effective_n(n, s, ss), "p_value": share_p_value(n, s, ss, fair)})
    return pl.DataFrame(rows)
