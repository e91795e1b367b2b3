"""`simlib fixes`: for each number parameter of a game alone, whether some value of it makes the start player fair,
which values bracket the fair point, and whether the best of them is fair within a stated margin on fresh plays.

1. Search. A parameter whose range holds at most 64 values is played at every value; a longer range (or a real
   parameter) on a coarse grid, then by halving where the metric crosses its fair value. Every value plays the
   search seed (common random numbers: two values differ by their rules, not by their luck). Wherever neighbouring
   values give the metric opposite sides of its fair value, the fair point lies between them: every such crossing
   is named with both values and their estimates (seat 0's advantage can cross zero twice between two grid points,
   as Die Mauer's tower cost does at four readers).
2. Confirm. The value nearest fair on the search seed plays a fresh seed (seed + 1, on which nothing was chosen).
   "Fair" means equivalent within a margin (default ±1 percentage point), shown by two one-sided tests at 5%
   (TOST: the 90% interval inside ±margin). An interval that merely contains the fair value is "too few plays to
   tell", not fair: absence of evidence is easier to reach with fewer plays. The confirmation's plays are sized
   from the search's per-play standard deviation so that its 90% interval's half width is half the margin (about
   20,000 plays at four players and ±1 pp): a value that is truly fair then passes about nine times in ten. A
   candidate whose search interval misses the margin band is not confirmed (it could not pass), nor one the
   budget's remaining plays could not show fair even at an estimate of exactly 0.

Each parameter is one tune (simlib/design/tune.py) of the metric aimed at its fair value, so every evaluation is
a run in the lake and the `tunes` table holds each parameter's search and confirmation. A parameter's range is its
allowed range where the game gives one, up to its `search_max` where the game narrows it (Die Mauer's penalties:
twice the rule text's value, at least 4 more, of the 0..500 allowed); otherwise from its minimum (or 0) to twice its
value (at least 4 more).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from scipy import stats

from ..core.config import RunConfig, check_players
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.lake import Lake
from ..core.limits import MARGIN, Limit, seeds
from .metrics import METRICS, Z95, Estimate, canonical, check_metric, estimate, play_values_of_runs
from .tune import MIN_TRIAL_PLAYS, Dimension, EvaluateMany, Evaluation, Step, Tune, stepper_many

FIX_MARGIN = 0.01  # fair: seat 0's advantage within ±1 percentage point, shown by TOST
TOST_ALPHA = 0.05  # each one-sided test's level: the 90% interval inside the margin
EVERY_VALUE_MOST = 64  # a range of at most this many values is searched at every value
FIX_TRIALS = 12  # a longer range: a grid of 6 over it, then 6 halvings (an interval of up to 64 values to one step)
FIX_SEARCH_SHARE = 0.5  # of a parameter's budget; the confirmation takes what it needs of the rest
CONFIRM_HALF_WIDTH = 0.5  # the confirmation's 90% interval aims at this share of the margin either side

FIXABLE = ("seat0_advantage",)  # balance's fair value 1 lies at the edge of its range: its interval never holds it


def fair_value(game: Game, players: int, metric: str) -> float:
    name = canonical(game, check_metric(game, players, metric))
    if name not in FIXABLE:
        raise SimlibError(f"{metric} has no fair value a fix can be confirmed at (metrics: {', '.join(FIXABLE)})")
    return METRICS[name][1]


def check_margin(margin: float) -> float:
    """A margin of equivalence: a share above 0 and below 1 (0.01 is ±1 percentage point)."""
    return MARGIN.check("--margin", margin)


def pp(x: float) -> str:
    """A share in signed percentage points: "+6.3 pp" (a value that rounds to zero reads +0.0)."""
    return f"{round(100 * x, 1) + 0.0:+.1f} pp"


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


def chosen_ranges(game: Game, only: list[str], skip: set[str]) -> list[Dimension]:
    """The parameters searched: every candidate (less `skip`), or those `only` names (`NAME`, or `NAME=LO..HI`
    for a range of its allowed values), each checked."""
    ranges = {d.name: d for d in candidate_ranges(game, skip)}
    if not only:
        return list(ranges.values())
    params, chosen = game.parameters(), []
    for item in only:
        name, eq, text = (part.strip() for part in item.partition("="))
        if name not in ranges:
            what = ("not a rule parameter" if name not in params else "skipped" if name in skip else
                    "not a number of the rule text (a choice, an assumption or a match parameter)")
            raise SimlibError(f"--only {name}: {what} of {game.name} (searched for fixes: {', '.join(ranges)})")
        if name in (d.name for d in chosen):
            raise SimlibError(f"--only {name} is given twice")
        chosen.append(_range(params[name], text) if eq else ranges[name])
    return chosen


def _range(p, text: str) -> Dimension:
    """`LO..HI` of one parameter, each end one of its allowed values."""
    low, dots, high = text.partition("..")
    if not dots:
        raise SimlibError(f"--only {p.name}={text}: give a range LO..HI")
    low, high = p.coerce(low), p.coerce(high)
    if not low < high:
        raise SimlibError(f"--only {p.name}={text}: the range is empty (give LO..HI with LO < HI)")
    return Dimension(p.name, low, high)


def every_value(dim: Dimension) -> list[int] | None:
    """Each integer of the range when it holds at most EVERY_VALUE_MOST of them; None otherwise."""
    if isinstance(dim.low, int) and dim.high - dim.low + 1 <= EVERY_VALUE_MOST:
        return list(range(dim.low, dim.high + 1))
    return None


@dataclass(frozen=True)
class FixSearch(Tune):
    """One parameter's fix search: a tune of one parameter aimed at the metric's fair value, whose search plays
    every value (or a grid then halving) and whose confirmation is an equivalence test within `margin`."""

    margin: float = FIX_MARGIN
    SEEDS: ClassVar[Limit] = seeds(1)  # no sampler takes the seed: any a run takes, less the confirmation's + 1

    @property
    def dim(self) -> Dimension:
        return self.box[0]

    def spec(self) -> dict[str, Any]:
        return super().spec() | {"search": "fixes", "margin": self.margin}

    def stage_plays(self, budget: int | None = None) -> tuple[int, int, int]:
        """Plays of a value searched, of a refined candidate (none: the search's values are not refined) and
        the most the confirmation may take (what the search leaves of the budget)."""
        budget = self.budget if budget is None else budget
        trial = int(budget * FIX_SEARCH_SHARE / self.trials // self.block) * self.block
        return trial, 0, int((budget - trial * self.trials) // self.block) * self.block

    def check_budget(self) -> None:
        if self.stage_plays()[0] < MIN_TRIAL_PLAYS:
            raise SimlibError(f"--budget {self.budget:,} is too small to search {self.dim.name}: its {self.trials} "
                              f"values need at least {least_budget(self.trials, self.block):,} plays "
                              f"({MIN_TRIAL_PLAYS} a value on the search seed, as many again to confirm)")


def least_budget(trials: int, block: int) -> int:
    """The least budget that gives each of `trials` values MIN_TRIAL_PLAYS plays after rounding to blocks."""
    per_value = -(-MIN_TRIAL_PLAYS // block) * block
    return math.ceil(per_value * trials / FIX_SEARCH_SHARE)


def fix_searches(game: Game, metric: str, players: int, lineup: str, budget: int, seed: int,
                 options: dict[str, Any], only: list[str] = (), skip: set[str] = frozenset(),
                 margin: float = FIX_MARGIN, lift: bool = False) -> list[FixSearch]:
    """One search per parameter, each of `budget` plays, checked before anything runs; `lift` raises a budget
    below a parameter's least to that least (a report batch at a small --scale) instead of refusing it."""
    check_players(game, players)  # before a metric is made per seat
    fair, margin = fair_value(game, players, metric), check_margin(margin)
    searches = []
    for dim in chosen_ranges(game, list(only), set(skip) | set(options)):
        values = every_value(dim)
        trials = len(values) if values else FIX_TRIALS

        def search(plays: int, dim=dim, trials=trials) -> FixSearch:
            return FixSearch(game, [dim], {metric: fair}, players, lineup, plays, seed, trials, options, margin)
        least = least_budget(trials, search(10**9).block) if lift else 0
        searches.append(search(max(budget, least)))
    return searches


def grid_then_bisection(tune: Tune, step: Step) -> None:
    """The search stage for a range too long to play every value: a coarse grid over it (half the trials, both ends
    included), then halving the grid interval nearest the rule's value where the metric crosses the target. No
    crossing on the grid: the target is taken as out of reach (a narrow dip between grid points could be missed;
    the answer names the values tried)."""
    (dim,), ((metric, target),) = tune.box, tune.targets.items()
    plays, whole = tune.stage_plays()[0], isinstance(dim.low, int)
    n = tune.trials // 2
    points = sorted({round(dim.low + (dim.high - dim.low) * k / (n - 1)) if whole
                     else dim.low + (dim.high - dim.low) * k / (n - 1) for k in range(n)})

    def above(value) -> bool:
        return step("search", {dim.name: value}, plays, tune.seed).estimates[metric].value > target

    sides = [above(v) for v in points]
    default = tune.game.parameters()[dim.name].default
    crossings = [(points[i], points[i + 1], sides[i]) for i in range(len(points) - 1) if sides[i] != sides[i + 1]]
    if not crossings:
        return
    lo, hi, lo_above = min(crossings, key=lambda c: abs((c[0] + c[1]) / 2 - default))
    for _ in range(tune.trials - len(points)):
        mid = (lo + hi) // 2 if whole else (lo + hi) / 2
        if mid in (lo, hi):
            return
        if above(mid) == lo_above:
            lo = mid
        else:
            hi = mid


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


def confirm_plays(sd: float, margin: float, block: int) -> tuple[int, int]:
    """The plays a confirmation aims at (its 90% interval's half width CONFIRM_HALF_WIDTH of the margin) and the
    fewest with which TOST could pass at all (half width under the margin: an estimate of exactly 0 passes)."""
    z = stats.norm.ppf(1 - TOST_ALPHA)

    def blocks(plays: float) -> int:
        return max(1, math.ceil(plays / block)) * block
    return blocks((z * sd / (CONFIRM_HALF_WIDTH * margin)) ** 2), blocks((z * sd / margin) ** 2 + 1)


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


def _confirm(search: FixSearch, fix: Fix, step_many) -> Fix:
    """The candidate played on fresh plays (seed + 1), sized from its per-play sd within what the budget leaves;
    or the fix as it was, saying why not."""
    if fix.no_effect or not fix.reachable:
        return fix
    value, x = fix.candidate
    left = search.stage_plays()[2]
    aim, least = confirm_plays(x.sd, search.margin, search.block)
    fix = replace(fix, needed=(aim, least), left=left)
    if left < least:
        return fix
    (confirmation,) = step_many("confirm", [{fix.name: value}], min(aim, left), search.seed + 1)
    return replace(fix, confirmation=confirmation)


def find_fix(search: FixSearch, evaluate_many: EvaluateMany,
             said: Callable[[Evaluation], None] = lambda e: None) -> Fix:
    """One parameter's search (every value at once where the range is short) and confirmation."""
    (metric, fair), = search.targets.items()
    done: list[Evaluation] = []
    step_many = stepper_many(search, evaluate_many, said, done)
    values, plays = every_value(search.dim), search.stage_plays()[0]
    if values:
        step_many("search", [{search.dim.name: v} for v in values], plays, search.seed)
    else:
        grid_then_bisection(search, lambda stage, values, plays, seed: step_many(stage, [values], plays, seed)[0])
    default = search.game.parameters()[search.dim.name].default
    fix = Fix(search.dim.name, default, search.dim, metric, fair, search.margin, list(done))
    return _confirm(search, fix, step_many)


def find_fixes(searches: list[FixSearch], evaluate_many: EvaluateMany, said: Callable[[FixSearch, Evaluation], None],
               skipped: Callable[[Dimension, str], None]) -> list[Fix]:
    """Each parameter's fix, the fixes first (smallest change first), then brackets and the others (nearest the
    fair value first), those with no effect on the plays last."""
    fixes = []
    for search in searches:
        try:
            fixes.append(find_fix(search, evaluate_many, lambda e, search=search: said(search, e)))
        except SimlibError as exc:  # e.g. Die Mauer's rounds: a value the plays of a trial do not divide
            skipped(search.dim, str(exc))
    return sorted(fixes, key=Fix.rank)


SPREAD_SECONDS = 0.5  # a run expected to take longer is spread over the executor's workers


def lake_evaluator(lake: Lake, game: Game, metric: str, executor) -> EvaluateMany:
    """Runs configurations into the lake on `executor`, then the metric of each from one pass of the models. On
    local workers a short run plays in this process: forking them costs about 0.15 s a run, more than a search
    value's few hundred plays take (the last run's speed says which runs are short)."""
    import time

    from ..core.executors import LocalExecutor
    from ..core.runner import run

    here = LocalExecutor(1) if isinstance(executor, LocalExecutor) else executor
    seconds_a_play = [0.0]

    def one(config: RunConfig) -> str:
        short = config.plays * seconds_a_play[0] < SPREAD_SECONDS
        began = time.perf_counter()
        result = run(config, lake, progress=False, executor=here if short else executor)
        if not result.already_complete:
            seconds_a_play[0] = (time.perf_counter() - began) / config.plays
        return result.run_id

    def evaluate_many(configs: list[RunConfig]) -> list[dict[str, Estimate]]:
        run_ids = [one(config) for config in configs]
        values = play_values_of_runs(lake, game, run_ids)
        return [{metric: estimate(values[r], canonical(game, metric))} for r in run_ids]
    return evaluate_many


def unsearchable_words(game: Game) -> str:
    """A game with no number parameter of the rule text: that plainly, with what it has instead."""
    others = ", ".join(n for n, p in game.parameters().items() if not p.derived)
    return (f"{game.name}: no number parameter of the rule text to search (its parameters: {others}); a choice's "
            f"effect: simlib sweep {game.name} --vary NAME=VALUE")
