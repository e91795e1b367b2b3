"""`simlib sensitivity`: which parameters move which metrics, by SALib's Morris screening or Sobol indices.

SALib draws the points of the parameter box (Morris trajectories, or Saltelli's sample for Sobol); each distinct
point is a run of `plays` plays in the lake, every point on the same seed (common random numbers: a parameter
that does not touch a metric leaves it exactly unchanged, so its effect is 0, not noise). Integer parameters
take the sampled value rounded. SALib's own bootstrap gives each index its 95% interval.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.config import RunConfig
from ..core.errors import SimlibError
from ..core.game import Game
from .metrics import Estimate
from .tune import Dimension

METHODS = ("morris", "sobol")
MORRIS_LEVELS = 4


@dataclass(frozen=True)
class Effect:
    parameter: str
    metric: str
    index: str  # mu_star, sigma (Morris); S1, ST (Sobol)
    value: float
    conf: float  # half width of its 95% interval (SALib's bootstrap); NaN where SALib gives none

    def words(self) -> str:
        half = "" if np.isnan(self.conf) else f" ± {_clean(self.conf):.4g}"
        return f"{self.parameter:<16} {self.metric:<18} {self.index:<8} {_clean(self.value):.4g}{half}"


def _clean(x: float) -> float:
    """SALib's sums of exact zeros come back as 1e-15s: they are 0."""
    return 0.0 if abs(x) < 1e-12 else x


def problem(box: list[Dimension]) -> dict:
    if any(d.choices for d in box):
        raise SimlibError("sensitivity needs number ranges (--vary NAME=LO..HI), not choices")
    return {"num_vars": len(box), "names": [d.name for d in box], "bounds": [[d.low, d.high] for d in box]}


def sample(box: list[Dimension], method: str, size: int, seed: int) -> np.ndarray:
    """SALib's points: `size` Morris trajectories, or Saltelli's sample of `size` base points (a power of 2)."""
    from SALib.sample import morris, sobol

    if method not in METHODS:
        raise SimlibError(f"--method must be one of {', '.join(METHODS)}, not {method!r}")
    if method == "morris":
        if size < 2:
            raise SimlibError(f"--size: Morris needs 2 or more trajectories, not {size}")
        return morris.sample(problem(box), size, num_levels=MORRIS_LEVELS, seed=seed)
    if size < 2 or size & (size - 1):
        raise SimlibError(f"--size: Sobol needs a power of 2 base points (e.g. 64), not {size}")
    return sobol.sample(problem(box), size, calc_second_order=False, seed=seed)


def point_values(box: list[Dimension], row: np.ndarray) -> dict[str, Any]:
    return {d.name: int(round(x)) if isinstance(d.low, int) else float(x) for d, x in zip(box, row)}


def analyse(box: list[Dimension], method: str, points: np.ndarray, results: dict[str, np.ndarray],
            seed: int) -> list[Effect]:
    """Each parameter's indices for each metric (results: metric -> its value at each point, in order)."""
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
            for index, conf in names:
                effects.append(Effect(d.name, metric, index, float(r[index][k]),
                                      float(r[conf][k]) if conf else float("nan")))
    return effects


def run_points(game: Game, box: list[Dimension], points: np.ndarray, build: Callable[[dict], RunConfig],
               evaluate: Callable[[RunConfig], dict[str, Estimate]], metrics: list[str]) -> dict[str, np.ndarray]:
    """Every point played (a point drawn twice, or two points that round alike, plays once)."""
    seen: dict[str, dict[str, Estimate]] = {}
    out = {m: np.empty(len(points)) for m in metrics}
    for i, row in enumerate(points):
        values = point_values(box, row)
        key = json.dumps(values, sort_keys=True)
        if key not in seen:
            seen[key] = evaluate(build(values))
        for m in metrics:
            out[m][i] = seen[key][m].value
    return out


def rows(effects: list[Effect], box: list[Dimension], args, n_points: int) -> list[dict]:
    """The `sensitivities` rows of an analysis (args: the command's method, metrics, line-up, plays, seed)."""
    spec = {"method": args.method, "box": [str(d) for d in box], "metrics": args.metric, "players": args.players,
            "policies": args.policies, "plays": args.plays, "seed": args.seed, "size": args.size}
    analysis_id = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
    return [{"analysis_id": analysis_id, "method": args.method, "box": " ".join(map(str, box)),
             "players": args.players, "policies": args.policies, "plays": args.plays, "seed": args.seed,
             "n_points": n_points, "parameter": e.parameter, "metric": e.metric, "index_name": e.index,
             "value": _clean(e.value), "conf": None if np.isnan(e.conf) else _clean(e.conf)} for e in effects]
