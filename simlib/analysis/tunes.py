"""What a design search found: the records the lake's `tunes` table keeps (a parameter's range, an evaluation and
its metrics' estimates) and a fix search's verdict read from them (the values tried, where the metric crosses its
fair value, the confirmation judged by TOST within a margin).

The design layer makes these records as it searches (simlib/design/tune.py, fixes.py); the report rebuilds them
from mart_tune_steps (simlib/analysis/design.py). One reading in the lower layer, so the command and the page say
the same.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from scipy import stats

from ..core.game import Game
from .estimators import Z95

FIX_MARGIN = 0.01  # fair: seat 0's advantage within ±1 percentage point, shown by TOST
TOST_ALPHA = 0.05  # each one-sided test's level: the 90% interval inside the margin
EVERY_VALUE_MOST = 64  # a range of at most this many values is searched at every value


@dataclass(frozen=True)
class Dimension:
    """One parameter's range: integers or reals from low to high, or a list of choices."""

    name: str
    low: Any = None
    high: Any = None
    choices: tuple = ()

    def __str__(self) -> str:
        if self.choices:
            return f"{self.name}={','.join(map(str, self.choices))}"
        return f"{self.name}={self.low}..{self.high}"


@dataclass(frozen=True)
class Estimate:
    """A metric over a run's plays: its value and 95% interval, a play's standard deviation and the plays."""

    value: float
    lo: float
    hi: float
    sd: float  # a play's standard deviation (for scaling distances between metrics)
    plays: int

    def contains(self, target: float) -> bool:
        return self.lo <= target <= self.hi


@dataclass(frozen=True)
class Evaluation:
    """One step of a tune: the values played, its run, each metric's estimate and the loss (a `tunes` row per
    metric)."""

    stage: str  # search, refine or confirm
    step: int
    values: dict[str, Any]
    run_id: str
    seed: int
    plays: int
    estimates: dict[str, Estimate]
    loss: float


def pp(x: float) -> str:
    """A share in signed percentage points: "+6.3 pp" (a value that rounds to zero reads +0.0)."""
    return f"{round(100 * x, 1) + 0.0:+.1f} pp"


def every_value(dim: Dimension) -> list[int] | None:
    """Each integer of the range when it holds at most EVERY_VALUE_MOST of them; None otherwise."""
    if isinstance(dim.low, int) and dim.high - dim.low + 1 <= EVERY_VALUE_MOST:
        return list(range(dim.low, dim.high + 1))
    return None


def candidate_ranges(game: Game, skip: set[str]) -> list[Dimension]:
    """Every settable number parameter of the rules (provenance seed or published: not our assumptions such as
    safety limits; not a choice, not true/false) with the range a fix is looked for in."""
    out = []
    for name, p in game.parameters().items():
        if (p.derived or p.choices or name in skip or type(p.default) not in (int, float)
                or p.provenance == "assumed" or name in game.match_parameters):
            continue
        low = p.minimum if p.minimum is not None else 0
        high = next((x for x in (p.search_maximum, p.maximum) if x is not None), max(2 * p.default, p.default + 4))
        low, high = type(p.default)(low), type(p.default)(high)
        if low < high:
            out.append(Dimension(name, low, high))
    return out


@dataclass(frozen=True)
class Equivalence:
    """TOST of a metric's distance from its fair value against ±margin: its estimate, 90% interval and plays."""

    value: float  # the estimate's distance from the fair value
    lo: float
    hi: float
    p: float  # the larger of the two one-sided p-values: fair within the margin when below TOST_ALPHA
    plays: int
    margin: float

    @property
    def verdict(self) -> str:
        """fair (the 90% interval inside ±margin), unfair (wholly beyond it on one side) or undecided."""
        if self.p < TOST_ALPHA:
            return "fair"
        return "unfair" if self.lo > self.margin or self.hi < -self.margin else "undecided"

    def words(self) -> str:
        """"fair within ±1 pp: +0.2 pp, 90% interval -0.6 to +0.9 pp, on 20,000 fresh plays"."""
        said = {"fair": "fair", "unfair": "not fair", "undecided": "too few plays to tell whether fair"}[self.verdict]
        return (f"{said} within ±{100 * self.margin:g} pp: {pp(self.value)}, 90% interval {pp(self.lo)[:-3]} to "
                f"{pp(self.hi)}, on {self.plays:,} fresh plays")


def tost(x: Estimate, fair: float, margin: float) -> Equivalence:
    """Two one-sided t-tests of the mean's distance from `fair` against -margin and +margin (Schuirmann's TOST),
    from the estimate's mean, per-play standard deviation and plays; the 90% t interval beside them (it lies
    inside ±margin exactly when both tests reject at 5%)."""
    d, df = x.value - fair, max(x.plays - 1, 1)
    se = x.sd / math.sqrt(x.plays)
    if se == 0:  # every play alike: the distance is known exactly
        return Equivalence(d, d, d, 0.0 if abs(d) < margin else 1.0, x.plays, margin)
    p = max(stats.t.sf((d + margin) / se, df), stats.t.cdf((d - margin) / se, df))
    lo, hi = stats.t.interval(1 - 2 * TOST_ALPHA, df, loc=d, scale=se)
    return Equivalence(d, float(lo), float(hi), float(p), x.plays, margin)


def estimate_from_interval(value: float, lo: float, hi: float, plays: int) -> Estimate:
    """An estimate as the lake's `tunes` table records it (its 95% normal interval over the plays) with its per-play
    standard deviation read back from the interval's width (the report's marts keep no sd)."""
    return Estimate(value, lo, hi, (hi - lo) / (2 * Z95) * math.sqrt(plays), plays)


@dataclass(frozen=True)
class Crossing:
    """Neighbouring values tried on the search seed on either side of the fair value: the fair point lies between."""

    low: Any
    low_estimate: Estimate
    high: Any
    high_estimate: Estimate

    def clear(self, fair: float) -> bool:
        """Both ends' 95% intervals exclude the fair value: the sign change is beyond the search's noise."""
        return not (self.low_estimate.contains(fair) or self.high_estimate.contains(fair))

    def words(self, fair: float) -> str:
        """"0 (+8.1 pp) and 1 (-0.6 pp, within noise of 0)": an end whose interval holds the fair value says so."""
        def end(value, x: Estimate) -> str:
            return f"{value} ({pp(x.value)}{f', within noise of {fair:g}' if x.contains(fair) else ''})"
        return f"{end(self.low, self.low_estimate)} and {end(self.high, self.high_estimate)}"


@dataclass(frozen=True)
class Fix:
    """One parameter's answer: its search on one seed, and the confirmation of the value nearest fair (if any)."""

    name: str
    default: Any
    range: Dimension
    metric: str
    fair: float
    margin: float
    searched: list[Evaluation]  # the search stage, in the order played
    confirmation: Evaluation | None = None
    needed: tuple[int, int] = (0, 0)  # the plays the confirmation aimed at and the fewest that could pass
    left: int = 0  # the plays the search left of the budget

    @property
    def points(self) -> list[tuple[Any, Estimate]]:
        """Each value tried with its estimate on the search seed (the most plays where a value played twice)."""
        best: dict[Any, Evaluation] = {}
        for e in self.searched:
            v = e.values[self.name]
            if v not in best or e.plays > best[v].plays:
                best[v] = e
        return [(v, best[v].estimates[self.metric]) for v in sorted(best)]

    @property
    def crossings(self) -> list[Crossing]:
        pts = self.points
        return [Crossing(a, x, b, y) for (a, x), (b, y) in zip(pts, pts[1:])
                if (x.value - self.fair) * (y.value - self.fair) < 0]

    @property
    def clear_crossings(self) -> list[Crossing]:
        return [c for c in self.crossings if c.clear(self.fair)]

    def crossing_words(self) -> str:
        """Every pair of neighbouring values the metric changes sign between, each end within the search's noise of
        the fair value marked ("" where it never changes sign)."""
        if not self.crossings:
            return ""
        return (f"the fair point lies between {self.name} "
                + ", and between ".join(c.words(self.fair) for c in self.crossings))

    @property
    def no_effect(self) -> bool:
        """The metric came out the same at every value searched on the same plays (one seed, the same random
        numbers; runs of other lengths compared apart): the parameter does not touch these plays, e.g. Die
        Mauerspechte's three-player points at four players."""
        outcomes: dict[tuple, set[float]] = {}
        for e in self.searched:
            outcomes.setdefault((e.seed, e.plays), set()).add(e.estimates[self.metric].value)
        return len(self.points) > 1 and all(len(values) == 1 for values in outcomes.values())

    @property
    def candidate(self) -> tuple[Any, Estimate]:
        """The value to confirm: of those whose estimate on the search seed lies within the margin and whose interval
        holds the fair value (any of them could be fair), the one nearest the rule text's value, the smallest change
        (the rule text's own value first); where there is none, the value nearest fair on the search seed (of two as
        near, the one nearer the rule text's value)."""
        possible = [p for p in self.points
                    if p[1].lo <= self.fair <= p[1].hi and abs(p[1].value - self.fair) < self.margin]
        if possible:
            return min(possible, key=lambda p: (abs(p[0] - self.default), abs(p[1].value - self.fair)))
        return min(self.points, key=lambda p: (abs(p[1].value - self.fair), abs(p[0] - self.default)))

    @property
    def reachable(self) -> bool:
        """The candidate's search interval reaches the margin band: a confirmation could pass."""
        x = self.candidate[1]
        return x.lo < self.fair + self.margin and x.hi > self.fair - self.margin

    @property
    def equivalence(self) -> Equivalence | None:
        if self.confirmation is None:
            return None
        return tost(self.confirmation.estimates[self.metric], self.fair, self.margin)

    @property
    def is_fix(self) -> bool:
        return self.equivalence is not None and self.equivalence.verdict == "fair"

    @property
    def value(self) -> Any:
        return self.confirmation.values[self.name] if self.confirmation else self.candidate[0]

    @property
    def change(self) -> float:
        """How large a change from the rule text's value, relative to it."""
        return abs(self.value - self.default) / max(abs(self.default), 1)

    @property
    def gap(self) -> float:
        """How near the fair value the nearest value tried came on the search seed."""
        return abs(self.candidate[1].value - self.fair)

    def rank(self) -> tuple:
        """Fixes first, smallest change first; then brackets beyond noise, then sign changes within it, then the
        others, each nearest fair first; no effect last."""
        return (self.no_effect, not self.is_fix, not self.clear_crossings, not self.crossings,
                self.change if self.is_fix else self.gap)

    def unconfirmed_words(self) -> str:
        """The candidate on the search seed and why it was not played on fresh plays ("" when it was)."""
        if self.confirmation is not None or self.no_effect:
            return ""
        value, x = self.candidate
        nearest = f"the nearest fair is {self.name} {value} ({pp(x.value)} on the search seed)"
        if not self.reachable:
            return (f"{nearest}, not confirmed: its 95% interval there, {pp(x.lo)[:-3]} to {pp(x.hi)}, lies beyond "
                    f"±{100 * self.margin:g} pp")
        aim, least = self.needed
        plays = (f" (the budget leaves {self.left:,} plays; TOST within ±{100 * self.margin:g} pp needs at least "
                 f"{least:,}, {aim:,} to pass nine times in ten)" if least else "")
        return f"{nearest}, not confirmed: too few plays left to tell{plays}"

    def lines(self) -> list[str]:
        """The answer in words: the verdict line, then the crossings, then the values tried."""
        pts, plays = self.points, max((e.plays for e in self.searched), default=0)
        tried = f"{pts[0][0]}..{pts[-1][0]}" if every_value(self.range) else ", ".join(str(v) for v, _ in pts)
        search = f"on the search seed ({plays:,} plays a value, {self.name} {tried})"
        values = [x.value for _, x in pts]
        if self.no_effect:
            return [f"{self.name}: no effect on these plays ({self.metric} {pp(values[0])} at every value tried, "
                    f"{tried})"]
        eq = self.equivalence
        at = f"{self.name} {self.default} (the rule text's value)" if self.value == self.default else \
            f"{self.name} {self.default} -> {self.value}"
        first = (f"{at}: {eq.words()} (seed {self.confirmation.seed})" if eq
                 else f"{self.name} (rule text {self.default}): {self.unconfirmed_words()}")
        if eq and eq.verdict == "fair":
            first += "; no change needed" if self.value == self.default else f"; a change of {self.change:.0%}"
        lines = [first]
        if self.crossings:
            lines.append(f"  {self.crossing_words()}, {search}")
        else:
            side = "above" if min(values) > self.fair else "below"
            lines.append(f"  no value tried brings it to {self.fair:g}: {self.metric} reads {side} it at every value, "
                         f"{pp(min(values))[:-3]} to {pp(max(values))}, {search}")
        return lines
