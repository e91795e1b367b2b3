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

from ..analysis.tunes import (
    FIX_MARGIN,
    TOST_ALPHA,
    Dimension,
    Evaluation,
    Fix,
    candidate_ranges,
    every_value,
)
from ..core.config import check_players
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.limits import MARGIN, Limit, seeds
from .metrics import METRICS, canonical, check_metric
from .tune import MIN_TRIAL_PLAYS, EvaluateMany, Step, Tune, stepper_many

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
            raise SimlibError(f"--only {name!r}: {what} of {game.name} (searched for fixes: {', '.join(ranges)})")
        if name in (d.name for d in chosen):
            raise SimlibError(f"--only {name!r} is given twice")
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
                 options: dict[str, Any], *, only: list[str] = (), skip: set[str] = frozenset(),
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


def confirm_plays(sd: float, margin: float, block: int) -> tuple[int, int]:
    """The plays a confirmation aims at (its 90% interval's half width CONFIRM_HALF_WIDTH of the margin) and the
    fewest with which TOST could pass at all (half width under the margin: an estimate of exactly 0 passes)."""
    z = stats.norm.ppf(1 - TOST_ALPHA)

    def blocks(plays: float) -> int:
        return max(1, math.ceil(plays / block)) * block
    return blocks((z * sd / (CONFIRM_HALF_WIDTH * margin)) ** 2), blocks((z * sd / margin) ** 2 + 1)


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


def unsearchable_words(game: Game) -> str:
    """A game with no number parameter of the rule text: that plainly, with what it has instead."""
    others = ", ".join(n for n, p in game.parameters().items() if not p.derived)
    return (f"{game.name}: no number parameter of the rule text to search (its parameters: {others}); a choice's "
            f"effect: simlib sweep {game.name} --vary NAME=VALUE")
