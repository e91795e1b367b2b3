"""The design searches' lake tables: `tunes` (which runs form a tune and what each gave, one row per evaluation
and metric) and `sensitivities` (a sensitivity analysis's indices, one row per parameter, metric and index).

A row lives under its evaluation's run (`tunes/game=<g>/run_id=<run>/tune-<tune_id>-<step>.parquet`), as a
sweep's rows do, and is written when that run is complete: an interrupted tune resumes with its rows so far.
"""

from __future__ import annotations

import json

import pyarrow as pa

from ..core.lake import Lake, described
from .tune import Evaluation, Tune

TUNES_SCHEMA = pa.schema([
    described("tune_id", pa.string(), "The tune: a hash of its specification (box, targets, players, line-up, "
                                      "budget, seed, trials, options, rules and simlib version)."),
    described("box", pa.string(), "The parameters varied and their ranges, space-separated (NAME=LO..HI, "
                                  "NAME=A,B)."),
    described("players", pa.int8(), "Number of players."),
    described("policies", pa.string(), "The line-up as given (one policy, or one per seat)."),
    described("stage", pa.string(), "search (the optimiser's trials), refine (the best candidates with more "
                                    "plays, same seed) or confirm (the recommendation on a fresh seed)."),
    described("step", pa.int32(), "The evaluation's place in the tune, from 0."),
    described("step_values", pa.string(), "The varied parameters' values at this step, as a JSON object."),
    described("seed", pa.int64(), "The evaluation run's seed."),
    described("plays", pa.int64(), "Plays in the evaluation run."),
    described("loss", pa.float64(), "Sum over the targets of ((value - target) / a play's standard deviation)^2."),
    described("metric", pa.string(), "The metric (simlib/design/metrics.py)."),
    described("target", pa.float64(), "The metric's target."),
    described("value", pa.float64(), "The metric over the run's plays."),
    described("value_lo", pa.float64(), "Lower end of its 95% interval."),
    described("value_hi", pa.float64(), "Upper end of its 95% interval."),
])


def tune_name(game: str, run_id: str, tune_id: str, step: int) -> str:
    return f"tunes/game={game}/run_id={run_id}/tune-{tune_id}-{step:04d}.parquet"


def write_evaluation(lake: Lake, tune: Tune, e: Evaluation) -> None:
    rows = [{"tune_id": tune.tune_id, "box": " ".join(map(str, tune.box)), "players": tune.players,
             "policies": tune.lineup, "stage": e.stage, "step": e.step,
             "step_values": json.dumps(e.values, sort_keys=True, default=str), "seed": e.seed, "plays": e.plays,
             "loss": e.loss, "metric": metric, "target": target, "value": e.estimates[metric].value,
             "value_lo": e.estimates[metric].lo, "value_hi": e.estimates[metric].hi}
            for metric, target in tune.targets.items()]
    lake.write_table(pa.Table.from_pylist(rows, schema=TUNES_SCHEMA),
                     lake.path(tune_name(tune.game.name, e.run_id, tune.tune_id, e.step)))


SENSITIVITIES_SCHEMA = pa.schema([
    described("analysis_id", pa.string(), "The analysis: a hash of its method, box, metrics, line-up, plays, seed, "
                                          "size, fixed options, rules and simlib version."),
    described("method", pa.string(), "morris (mu_star: the mean absolute effect over the range; sigma: how much it "
                                     "depends on the others) or sobol (S1: first order; ST: total)."),
    described("box", pa.string(), "The parameters varied and their ranges, space-separated (NAME=LO..HI, NAME=A,B)."),
    described("players", pa.int8(), "Number of players."),
    described("policies", pa.string(), "The line-up as given (one policy, or one per seat)."),
    described("plays", pa.int64(), "Plays at each point."),
    described("seed", pa.int64(), "The seed every point plays."),
    described("options", pa.string(), "The rule parameters fixed for every point (--option), as a JSON object."),
    described("n_points", pa.int32(), "Points SALib drew (distinct points play once)."),
    described("parameter", pa.string(), "The parameter the index is of."),
    described("metric", pa.string(), "The metric (simlib/design/metrics.py)."),
    described("index_name", pa.string(), "mu_star, sigma, S1 or ST."),
    described("value", pa.float64(), "The index."),
    described("conf", pa.float64(), "Half width of its 95% interval (SALib's bootstrap; null for sigma).",
              nullable=True),
    described("noise", pa.float64(), "Morris' mu_star: what the plays' own noise alone would give it (from the "
                                     "points' standard errors); null for the other indices.", nullable=True),
])


def write_sensitivity(lake: Lake, game: str, run_id: str, rows: list[dict]) -> None:
    """An analysis's rows, under the run of its first point, written once every point has run."""
    name = f"sensitivities/game={game}/run_id={run_id}/sensitivity-{rows[0]['analysis_id']}.parquet"
    lake.write_table(pa.Table.from_pylist(rows, schema=SENSITIVITIES_SCHEMA), lake.path(name))
