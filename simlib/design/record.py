"""The design searches' lake tables: `tunes` (which runs form a tune and what each gave, one row per evaluation
and metric) and `sensitivities` (a sensitivity analysis's indices, one row per parameter, metric and index).

A row lives under its evaluation's run (`tunes/game=<g>/run_id=<run>/tune-<tune_id>-<step>.parquet`), as a
sweep's rows do, and is written when that run is complete: an interrupted tune resumes with its rows so far.
The schemas are in the lake tables' registry (simlib/core/schemas.py), which every layer may read.
"""

from __future__ import annotations

import json

import pyarrow as pa

from ..analysis.tunes import Evaluation
from ..core.lake import Lake
from ..core.schemas import SENSITIVITIES_SCHEMA, TUNES_SCHEMA
from .tune import Tune


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


def write_sensitivity(lake: Lake, game: str, run_id: str, rows: list[dict]) -> None:
    """An analysis's rows, under the run of its first point, written once every point has run."""
    name = f"sensitivities/game={game}/run_id={run_id}/sensitivity-{rows[0]['analysis_id']}.parquet"
    lake.write_table(pa.Table.from_pylist(rows, schema=SENSITIVITIES_SCHEMA), lake.path(name))
