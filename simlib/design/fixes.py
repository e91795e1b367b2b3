"""`simlib fixes`: for each number parameter of a game alone, the value (if any in its range) that brings a metric
to its fair value, confirmed on fresh plays, ranked by how small a change from the rule text's value it is.

Each parameter is one tune (simlib/design/tune.py) over its range with the metric's fair value as the target, so
every evaluation is a run in the lake and the `tunes` table holds each parameter's path. A parameter's range is
its allowed range where the game gives one; otherwise from its minimum (or 0) to twice its value (at least 4
more), said in the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import SimlibError
from ..core.game import Game
from .metrics import METRICS, Estimate, canonical, check_metric
from .tune import Dimension, Evaluation, Step, Tune, bracket, search

FIX_TRIALS = 12  # a grid of 6 over the range, then 6 halvings: an interval of up to 64 values to one step


FIXABLE = ("seat0_advantage",)  # balance's fair value 1 lies at the edge of its range: its interval never holds it


def fair_value(game: Game, players: int, metric: str) -> float:
    name = canonical(game, check_metric(game, players, metric))
    if name not in FIXABLE:
        raise SimlibError(f"{metric} has no fair value a fix can be confirmed at (metrics: {', '.join(FIXABLE)})")
    return METRICS[name][1]


def candidate_ranges(game: Game, skip: set[str]) -> list[Dimension]:
    """Every settable number parameter of the rules (provenance seed or published: not our assumptions such as
    safety limits; not a choice, not true/false) with the range a fix is looked for in."""
    out = []
    for name, p in game.parameters().items():
        if (p.derived or p.choices or name in skip or type(p.default) not in (int, float)
                or p.provenance == "assumed" or name in game.match_parameters):
            continue
        low = p.minimum if p.minimum is not None else 0
        high = p.maximum if p.maximum is not None else max(2 * p.default, p.default + 4)
        low, high = type(p.default)(low), type(p.default)(high)
        if low < high:
            out.append(Dimension(name, low, high))
    return out


def grid_then_bisection(tune: Tune, step: Step) -> None:
    """The search stage for one number parameter and one target, every value on the search seed (the same random
    numbers, so the metric's steps are the rule's, not luck's): a coarse grid over the range (half the trials,
    both ends included), then halving the grid interval nearest the rule's value where the metric crosses the
    target. No crossing on the grid: the target is taken as out of reach (a narrow dip between grid points could
    be missed; the answer names the values tried)."""
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
class Fix:
    name: str
    default: Any
    range: Dimension
    value: Any
    estimate: Estimate  # the metric confirmed on fresh plays at `value`
    fair: float
    tune: Tune
    done: list[Evaluation]  # the tune's evaluations, the confirmation last

    @property
    def reaches(self) -> bool:
        return self.estimate.contains(self.fair)

    @property
    def change(self) -> float:
        """How large a change from the rule text's value, relative to it."""
        return abs(self.value - self.default) / max(abs(self.default), 1)

    @property
    def no_effect(self) -> bool:
        """The metric came out the same at every value searched on the same plays (one seed, the same random numbers;
        a refined candidate plays more plays than a trial, so stages are compared apart): the parameter does not
        touch these plays, e.g. Die Mauerspechte's three-player points at four players."""
        outcomes: dict[tuple, set[float]] = {}
        for e in self.done[:-1]:
            for m, x in e.estimates.items():
                outcomes.setdefault((e.seed, e.plays, m), set()).add(x.value)
        return all(len(values) == 1 for values in outcomes.values())

    @property
    def gap(self) -> float:
        """How near the fair value the nearest value tried came (for ranking the parameters that do not reach it)."""
        return min(abs(e.estimates[m].value - self.fair) for e in self.done for m in e.estimates)

    def words(self, metric: str) -> str:
        x = self.estimate
        at = f"{self.name} {self.default} -> {self.value}: {metric} {x.value:+.4f} ({x.lo:+.4f} to {x.hi:+.4f})"
        values = [e.estimates[metric].value for e in self.done[:-1]]
        tried = ", ".join(str(v) for v in sorted({e.values[self.name] for e in self.done[:-1]}))
        if self.no_effect:
            return f"{self.name}: no effect on these plays ({metric} {values[0]:+.4f} at every value tried: {tried})"
        if self.reaches:
            return f"{at}, fair ({self.fair:g}) inside; a change of {self.change:.0%}"
        side = "above" if min(values) > self.fair else "below" if max(values) < self.fair else ""
        if side:
            return (f"{self.name}: no value tried reaches {self.fair:g} ({metric} stays {side}, {min(values):+.4f} "
                    f"to {max(values):+.4f}, at {tried} in {self.range.low}..{self.range.high})")
        return f"{at}, fair ({self.fair:g}) outside; " + bracket(self.tune, self.done, metric, self.fair)[0].lstrip()


def find_fixes(game: Game, metric: str, players: int, lineup: str, budget: int, seed: int,
               options: dict[str, Any], evaluate: Callable, said: Callable[[Tune, Evaluation], None],
               skipped: Callable[[Dimension, str], None], skip: set[str] = frozenset()) -> list[Fix]:
    """One tune per parameter (each `budget` plays): the fixes first, smallest change first, then the others, the
    nearest to the fair value first, those with no effect on the plays last."""
    fair, fixes = fair_value(game, players, metric), []
    for dim in candidate_ranges(game, set(skip) | set(options)):
        tune = Tune(game, [dim], {metric: fair}, players, lineup, budget, seed, FIX_TRIALS, options)
        try:
            done = search(tune, evaluate, lambda e, tune=tune: said(tune, e), grid_then_bisection)
        except SimlibError as exc:  # e.g. Die Mauer's rounds: a value the plays of a trial do not divide
            skipped(dim, str(exc))
            continue
        default = game.parameters()[dim.name].default
        fixes.append(Fix(dim.name, default, dim, done[-1].values[dim.name], done[-1].estimates[metric], fair, tune,
                         done))
    return sorted(fixes, key=lambda f: (f.no_effect, not f.reaches, f.change if f.reaches else f.gap))
