"""`simlib sensitivity`: which parameters move which metrics, by SALib's Morris screening or Sobol indices.

SALib draws the points of the parameter box (Morris trajectories, or Saltelli's sample for Sobol); each distinct
point is a run of `plays` plays in the lake, every point on the same seed (common random numbers: a parameter
that does not touch a metric leaves it exactly unchanged, so its effect is 0, not noise). Morris' noise floor, what
mu_star would be from the plays' noise alone, comes from replicated points: one step of each parameter played again
on fresh seeds (noise_floors). Integer parameters
take the sampled value rounded. A list of values (`--vary opening=discard,piles`: a choice, or chosen numbers) is
sampled as a range over its positions, 0 to n, each value taking an equal share, in the order given: its Morris
effect is per whole range like any other's. SALib's own bootstrap gives each index its 95% interval.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis.tunes import Dimension, Estimate
from ..core.config import RunConfig, check_players
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.limits import SIZE, seeds
from .metrics import check_metric

METHODS = ("morris", "sobol")
MORRIS_LEVELS = 4


@dataclass(frozen=True)
class Effect:
    parameter: str
    metric: str
    index: str  # mu_star, sigma (Morris); S1, ST (Sobol)
    value: float
    conf: float  # half width of its 95% interval (SALib's bootstrap); NaN where SALib gives none
    noise: float = float("nan")  # mu_star: what the plays' own noise alone would give it (NaN for other indices)

    def words(self) -> str:
        half = "" if np.isnan(self.conf) else f" ± {_clean(self.conf):.4g}"
        floor = "" if np.isnan(self.noise) else f"  (noise alone: {self.noise:.2g})"
        return f"{self.parameter:<16} {self.metric:<18} {self.index:<8} {_clean(self.value):.4g}{half}{floor}"


@dataclass(frozen=True)
class Analysis:
    """A sensitivity analysis as the command gives it: what every point plays, and the record's key."""

    game: Game
    box: list[Dimension]
    method: str
    metrics: list[str]
    players: int
    policies: str  # the line-up as given: one policy, or one per seat (a,b,c)
    plays: int
    seed: int
    size: int
    options: dict[str, Any]  # the rule parameters fixed for every point

    def __post_init__(self):
        check_players(self.game, self.players)  # before a metric is made per seat
        for metric in self.metrics:
            check_metric(self.game, self.players, metric)
        fixed = sorted({d.name for d in self.box} & set(self.options))
        if fixed:
            raise SimlibError(f"{', '.join(fixed)} is both varied and fixed (--option): give one")

    def config(self, values: dict[str, Any], seed: int | None = None) -> RunConfig:
        """The run of one point: its values on `seed` (default the analysis's)."""
        return RunConfig.build(self.game, players=self.players, policies=self.policies.split(","),
                               plays=self.plays, seed=self.seed if seed is None else seed,
                               options=self.options | values)


def _clean(x: float) -> float:
    """SALib's sums of exact zeros come back as 1e-15s: they are 0."""
    return 0.0 if abs(x) < 1e-12 else x


def problem(box: list[Dimension]) -> dict:
    bounds = [[0, len(d.choices)] if d.choices else [d.low, d.high] for d in box]
    return {"num_vars": len(box), "names": [d.name for d in box], "bounds": bounds}


def sample(box: list[Dimension], method: str, size: int, seed: int) -> np.ndarray:
    """SALib's points: `size` Morris trajectories, or Saltelli's sample of `size` base points (a power of 2)."""
    from SALib.sample import morris, sobol

    if method not in METHODS:
        raise SimlibError(f"--method must be one of {', '.join(METHODS)}, not {method!r}")
    seeds(REPLICATES if method == "morris" else 0).check("--seed", seed)  # Morris' noise floor: seed + 1..3
    if method == "morris":
        if size < 2:
            raise SimlibError(f"--size: Morris needs 2 or more trajectories, not {size}")
        return morris.sample(problem(box), SIZE.check("--size", size), num_levels=MORRIS_LEVELS, seed=seed)
    if size < 2 or size & (size - 1):
        raise SimlibError(f"--size: Sobol needs a power of 2 base points (e.g. 64), not {size}")
    return sobol.sample(problem(box), SIZE.check("--size", size), calc_second_order=False, seed=seed)


def point_values(box: list[Dimension], row: np.ndarray) -> dict[str, Any]:
    return {d.name: _value(d, x) for d, x in zip(box, row)}


def _value(d: Dimension, x: float) -> Any:
    if d.choices:  # position x in 0..n: the value whose share it falls in (n itself: the last)
        return d.choices[min(int(x), len(d.choices) - 1)]
    return int(round(x)) if isinstance(d.low, int) else float(x)


REPLICATES = 3  # fresh seeds each replicated step is played on again: the noise floor's degrees of freedom


def replicated_steps(box: list[Dimension], points: np.ndarray) -> dict[int, tuple[int, int]]:
    """For each parameter, the first step of a trajectory that moves it alone: its two points' rows (the step whose
    elementary effect the noise floor replays on fresh seeds)."""
    steps = {}
    for i in range(len(points) - 1):
        moved = np.flatnonzero(points[i] != points[i + 1])
        if len(moved) == 1 and int(moved[0]) not in steps and (i + 1) % (len(box) + 1) != 0:
            steps[int(moved[0])] = (i, i + 1)
    return steps


def morris_noise(effects: list[float]) -> float:
    """The mu_star that noise alone gives, from one step's elementary effects replayed on several seeds: each is
    (metric after - metric before) / the step in the unit box, on one seed, the two points sharing their random
    numbers, so their spread
    across seeds is the effect's own noise (the common random numbers narrow it: two points taken as independent
    would overstate it about twofold); the mean of its absolute value is sqrt(2 / pi) times its sd."""
    return float(np.sqrt(2 / np.pi) * np.std(effects, ddof=1)) if len(effects) > 1 else float("nan")


def analyse(box: list[Dimension], method: str, points: np.ndarray, results: dict[str, np.ndarray],
            seed: int, floors: dict[tuple[str, str], float] | None = None) -> list[Effect]:
    """Each parameter's indices for each metric (results: metric -> its value at each point, in order; floors:
    (parameter, metric) -> the mu_star noise alone gives, from replicated steps)."""
    from SALib.analyze import morris, sobol

    effects = []
    for metric, y in results.items():
        if method == "morris":
            r = morris.analyze(problem(box), points, y, num_levels=MORRIS_LEVELS, seed=seed)
            names = (("mu_star", "mu_star_conf"), ("sigma", None))
        else:
            r = sobol.analyze(problem(box), y, calc_second_order=False, seed=seed)
            names = (("S1", "S1_conf"), ("ST", "ST_conf"))
        for k, d in enumerate(box):
            floor = (floors or {}).get((d.name, metric), float("nan")) if method == "morris" else float("nan")
            for index, conf in names:
                effects.append(Effect(d.name, metric, index, float(r[index][k]),
                                      float(r[conf][k]) if conf else float("nan"),
                                      floor if index == "mu_star" else float("nan")))
    return effects


def run_points(box: list[Dimension], points: np.ndarray, build: Callable[[dict, int], RunConfig],
               evaluate: Callable[[RunConfig], dict[str, Estimate]], metrics: list[str],
               seed: int) -> dict[str, np.ndarray]:
    """Every point played on `seed` (a point drawn twice, or two points that round alike, plays once): each metric's
    value at each point."""
    configs = {json.dumps(point_values(box, row), sort_keys=True): None for row in points}
    for key in configs:  # every point's configuration checked before anything runs
        configs[key] = build(json.loads(key), seed)
    seen = {key: evaluate(config) for key, config in configs.items()}
    return {m: np.array([seen[json.dumps(point_values(box, row), sort_keys=True)][m].value for row in points])
            for m in metrics}


def noise_floors(box: list[Dimension], points: np.ndarray, results: dict[str, np.ndarray],
                 build: Callable[[dict, int], RunConfig], evaluate: Callable[[RunConfig], dict[str, Estimate]],
                 seed: int) -> dict[tuple[str, str], float]:
    """Morris' noise floor per parameter and metric from replicated points: one step of each parameter played again
    on REPLICATES fresh seeds (both its points on each seed), its elementary effects' spread across the seeds."""
    floors = {}
    for k, (a, b) in replicated_steps(box, points).items():
        step = (points[b][k] - points[a][k]) / (box[k].high - box[k].low if not box[k].choices else len(box[k].choices))
        replays = [(evaluate(build(point_values(box, points[a]), seed + r)),
                    evaluate(build(point_values(box, points[b]), seed + r))) for r in range(1, REPLICATES + 1)]
        for metric, y in results.items():
            effects = [(y[b] - y[a]) / step] + [(after[metric].value - before[metric].value) / step
                                                 for before, after in replays]
            floors[(box[k].name, metric)] = morris_noise(effects)
    return floors


def rows(effects: list[Effect], analysis: Analysis, n_points: int) -> list[dict]:
    """The `sensitivities` rows of an analysis."""
    from ..core import __version__

    a = analysis
    spec = {"method": a.method, "box": [str(d) for d in a.box], "metrics": a.metrics, "players": a.players,
            "policies": a.policies, "plays": a.plays, "seed": a.seed, "size": a.size, "options": a.options,
            "rules_versions": a.game.rules_versions(), "simlib": __version__}
    analysis_id = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return [{"analysis_id": analysis_id, "method": a.method, "box": " ".join(map(str, a.box)),
             "players": a.players, "policies": a.policies, "plays": a.plays, "seed": a.seed,
             "options": json.dumps(a.options, sort_keys=True, default=str),
             "n_points": n_points, "parameter": e.parameter, "metric": e.metric, "index_name": e.index,
             "value": _clean(e.value), "conf": None if np.isnan(e.conf) else _clean(e.conf),
             "noise": None if np.isnan(e.noise) else e.noise} for e in effects]
