"""The rungs of every game's skill ladder (`Game.skill_ladder`), weakest first: what the ladder marts order
policies by. A rung's label is its policy's name, with the parameters that tell it from the game's other rungs
of the same policy ('search (budget=16)').

A table model, computed at every build: it reads the games' declarations, which no cache key follows."""

from __future__ import annotations

import polars as pl

from simlib.core.registry import get_game
from simlib.core.setups import distinct_labels

INPUTS = ("stg_runs",)
OUTPUT = {"game": pl.String, "rung": pl.Int32, "rung_spec": pl.String, "rung_label": pl.String,
          "n_rungs": pl.Int32, "best_heuristic": pl.Boolean, "match_parameters": pl.List(pl.String)}


def model(ctx) -> pl.DataFrame:
    names = ctx.con.sql("select distinct game from stg_runs order by game").pl()["game"].to_list()
    rows = []
    for name in names:
        game = get_game(name)
        specs = game.ladder_rungs()
        best = game.best_heuristic_spec()
        rows += [{"game": name, "rung": i, "rung_spec": spec, "rung_label": label, "n_rungs": len(specs),
                  "best_heuristic": spec == best, "match_parameters": list(game.match_parameters)}
                 for i, (spec, label) in enumerate(zip(specs, distinct_labels(specs)))]
    return pl.DataFrame(rows, schema=OUTPUT)
