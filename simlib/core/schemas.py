"""The lake tables' registry: every table's schema, by table and game.

Each game declares its own tables (`Game.table_schemas`: games, seats, event tables). Four tables are every
game's, each file under its game's and run's folder like a part: `runs` (one row per run) and the records of
the commands that group runs, `sweeps` (simlib/core/sweep.py), `tunes` and `sensitivities` (written by the
design searches, simlib/design/record.py). Their schemas are declared here, in the lowest layer, so that the
lake's audit (simlib/core/manifest.py), its documentation (docs/lake.md) and its DuckDB views read one list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pyarrow as pa

from .game import Game
from .lake import described

RUNS_SCHEMA = pa.schema([
    described("rules_version", pa.int16(), "The game's rules version the run was simulated with."),
    described("rules_versions", pa.string(),
              'The rules version of the game and of every engine its kernel runs, as JSON ({"catan": 3, '
              '"mauerspechte": 1}); all of them are part of the run id.'),
    described("simlib_version", pa.string(), "The simlib version that wrote the run."),
    described("config", pa.string(),
              "The full run configuration as JSON: players, policies, every rule option, plays, seed."),
    described("seed", pa.int64(), "The run's seed; with the play index it fixes every random draw of a play."),
    described("players", pa.int8(), "Number of players."),
    described("policies", pa.string(), "Policy per table position, comma-separated (`name:param=value`)."),
    described("plays", pa.int64(), "Number of plays in the run."),
    described("shard_size", pa.int64(), "Plays per part file (does not change any result)."),
    described("started_at", pa.timestamp("ms", tz="UTC"), "When the run started."),
    described("ended_at", pa.timestamp("ms", tz="UTC"), "When the run ended (null while running).", nullable=True),
    described("status", pa.string(), "running, complete, interrupted or failed."),
    described("manifest", pa.string(),
              'Every part file of a complete run, as JSON: {"parts": [{"part", "first_play", "plays", "files": '
              '{table: {"rows", "bytes", "sha256"}}}]}; null until the run completes. A run counts only while its '
              'files match it (docs/lake.md, "Runs that verify themselves").', nullable=True),
])

SWEEPS_SCHEMA = pa.schema([
    described("sweep_id", pa.string(), "The sweep: a hash of its specification (parameters, values, base, "
                                       "players, policies, plays, seed)."),
    described("parameters", pa.string(), "The rule parameters the sweep varies, comma-separated."),
    described("variant", pa.string(), "The variant: `name=value` of each varied parameter."),
    described("variant_order", pa.int16(), "The variant's position in the sweep, in the order its values were "
                                           "given; -1 for a baseline whose values were not among them."),
    described("variant_values", pa.string(), "The varied parameters' values as a JSON object."),
    described("is_baseline", pa.bool_(), "This variant is the baseline the others are compared with."),
    described("baseline_run_id", pa.string(), "The baseline's run: same seed, players, policies and plays."),
    described("players", pa.int8(), "Number of players."),
    described("policies", pa.string(), "Policy per table position, comma-separated (as in `runs`)."),
    described("plays", pa.int64(), "Plays in the run (and in its baseline)."),
    described("seed", pa.int64(), "The seed every run of the sweep shares."),
])

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


@dataclass(frozen=True)
class SharedTable:
    schema: pa.Schema
    title: str  # its heading in docs/lake.md: what a row is, and which files hold the rows


SHARED_TABLES = {
    "runs": SharedTable(RUNS_SCHEMA, "runs (one row per run)"),
    "sweeps": SharedTable(SWEEPS_SCHEMA, "sweeps (one row per run of a what-if sweep, `sweep-<sweep_id>.parquet`; "
                                         "simlib/core/sweep.py)"),
    "tunes": SharedTable(TUNES_SCHEMA, "tunes (one row per evaluation of a design search and metric, "
                                       "`tune-<tune_id>-<step>.parquet`; simlib/design/record.py)"),
    "sensitivities": SharedTable(SENSITIVITIES_SCHEMA, "sensitivities (one row per index of a sensitivity analysis, "
                                                       "`sensitivity-<analysis_id>.parquet` under its first point's "
                                                       "run; simlib/design/record.py)"),
}


def lake_schemas(registered: Iterable[Game]) -> dict[str, dict[str, pa.Schema]]:
    """table -> game -> schema, for the shared tables (first, in SHARED_TABLES' order) and every table the given
    games write (in the order they are first declared)."""
    tables: dict[str, dict[str, pa.Schema]] = {name: {} for name in SHARED_TABLES}
    for game in registered:
        for name, table in SHARED_TABLES.items():
            tables[name][game.name] = table.schema
        for name, schema in game.schemas().items():
            tables.setdefault(name, {})[game.name] = schema
    return tables
