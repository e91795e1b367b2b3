"""Every run's set-up: what a designer compares runs by, and the one place a run's configuration is read.

A set-up is the number of players, the line-up of policies by table position (with their parameters), the rule
options that differ from the game's defaults and the rules versions. Runs of one set-up play the same games at the
same seed and play index (a run plays the indices 0 .. plays - 1), so per set-up and seed the run with the most plays
holds every other as a prefix: it is the one `counted` (ties: the lowest run id), and the pooled marts count
only those, each distinct play once, never pooling two set-ups. `events` is not part of a set-up (it adds
tables, not plays), nor are a game's match parameters at a table of one policy (`Game.match_parameters`: how
rounds are grouped into matches cannot change a play when every seat plays alike). The label says the set-up
in words, from the game's `setup_options` phrases; an option without a phrase is named as it is, and a data
file edited in place (its hash differs, not its name) says so. `fixed_opening` marks a set-up whose plays all open
the same way (Game.fixed_opening): the report draws no verdict from it.

A table model, computed at every build over the complete runs (a few hundred rows): it reads the games'
phrases, which no cache key follows, and `counted` needs every run. So no per-run model may read it.
"""

from __future__ import annotations

import hashlib
import json

import polars as pl

from simlib.core.registry import get_game
from simlib.core.setups import changed_options, lineup_label, option_text, options_label, spec_words

INPUTS = ("stg_runs", "int_run_lineups")
OUTPUT = {
    "game": pl.String, "run_id": pl.String, "seed": pl.Int64, "n_plays": pl.Int64, "players": pl.Int32,
    "setup_id": pl.String, "setup_label": pl.String, "lineup_kind": pl.String, "lineup_label": pl.String,
    "focal": pl.String, "focal_spec": pl.String, "field": pl.String, "field_spec": pl.String, "focal_seat": pl.Int32,
    "options": pl.String, "options_label": pl.String, "option_values": pl.String, "pairing_id": pl.String,
    "pairing_label": pl.String, "counted": pl.Boolean, "counted_in": pl.String, "rules_versions": pl.String,
    "simlib_version": pl.String, "events": pl.Boolean, "fixed_opening": pl.Boolean,
}


def setup_row(run: dict, lineup: dict) -> dict:
    game = get_game(run["game"])
    config = json.loads(run["config"])
    specs = config["policies"]
    kind = lineup["lineup_kind"]
    changed = changed_options(game, config["options"], kind == "one_policy")
    options = " ".join(f"{k}={option_text(v)}" for k, v in changed.items())
    words = options_label(game, changed)
    lineup_words = lineup_label(game, run["players"], kind, specs, lineup)
    label = lineup_words if not words else lineup_words + (" — " if kind == "mixed" else ", ") + words
    # Plays of two rules versions are different plays: never pooled or deduplicated as one set-up.
    key = json.dumps([run["game"], run["players"], specs, options, json.loads(run["rules_versions"])])
    # Runs that pool into one policy pairing: the same focal and field policies and options, any seat.
    pairing = json.dumps([run["game"], run["players"], lineup["focal_spec"], lineup["field_spec"], options,
                          json.loads(run["rules_versions"])])
    pairing_words = lineup_words
    if kind == "one_vs_field":
        pairing_words = (f"{spec_words(game, lineup['focal_spec'])} against {run['players'] - 1} "
                         f"{spec_words(game, lineup['field_spec'])}")
    if words:
        pairing_words += ", " + words
    values = {n: option_text(config["options"][n]) for n in [*game.setup_options, *changed] if n in config["options"]}
    return {"game": run["game"], "run_id": run["run_id"], "seed": run["seed"], "n_plays": run["plays"],
            "rules_versions": run["rules_versions"], "simlib_version": run["simlib_version"],
            "events": bool(config["events"]),
            "fixed_opening": game.fixed_opening(config["options"], specs),
            "players": run["players"], "setup_id": hashlib.sha256(key.encode()).hexdigest()[:12],
            "setup_label": label, "lineup_kind": kind, "lineup_label": lineup_words, "options": options,
            **{k: lineup[k] for k in ("focal", "focal_spec", "field", "field_spec", "focal_seat")},
            "options_label": words,
            "option_values": json.dumps(values, sort_keys=True),
            "pairing_id": hashlib.sha256(pairing.encode()).hexdigest()[:12] if kind != "mixed" else None,
            "pairing_label": pairing_words if kind != "mixed" else None}


def model(ctx) -> pl.DataFrame:
    runs = ctx.con.sql("select game, run_id, seed, plays, players, config, rules_versions, simlib_version "
                       "from stg_runs where status = 'complete' order by game, run_id").pl()
    lineups = {r["run_id"]: r for r in ctx.con.sql("select * from int_run_lineups").pl().iter_rows(named=True)}
    rows = [setup_row(r, lineups[r["run_id"]]) for r in runs.iter_rows(named=True) if r["run_id"] in lineups]
    setups = pl.DataFrame(rows, schema={k: v for k, v in OUTPUT.items() if k not in ("counted", "counted_in")})
    holder = (setups.sort(["n_plays", "run_id"], descending=[True, False])
              .group_by("game", "setup_id", "seed", maintain_order=True).first()
              .select("game", "setup_id", "seed", pl.col("run_id").alias("counted_in")))
    return (setups.join(holder, on=["game", "setup_id", "seed"])
            .with_columns((pl.col("run_id") == pl.col("counted_in")).alias("counted"))
            .select(*OUTPUT).cast(OUTPUT).sort("game", "run_id"))
