"""Burgenland, per run and kind of piece: the pieces each seat starts with (its supply), read from the map
file's text that the run's configuration carries (option map_text, `[[setup]]` for the run's player count).
The seats table gives the pieces left by kind but not the supply, so the pieces-left mart reads it here to say
what share of a kind was left. A Polars model: it parses TOML, which SQL cannot."""

from __future__ import annotations

import json
import tomllib

import polars as pl

INPUTS = ("lake_burgenland_runs",)
KINDS = ("wall", "house", "palas", "well")
OUTPUT = {"run_id": pl.String, "kind": pl.String, "supply": pl.Int32}


def _supply(config: dict) -> dict[str, int]:
    board = tomllib.loads(config["options"]["map_text"])
    setup = next(s for s in board["setup"] if s["players"] == config["players"])
    return {kind: int(setup["supply"][kind]) for kind in KINDS}


def model(ctx) -> pl.DataFrame:
    rows = []
    for run_id, config in ctx.con.execute("select run_id, config from lake_burgenland_runs").fetchall():
        supply = _supply(json.loads(config))
        rows += [{"run_id": run_id, "kind": kind, "supply": n} for kind, n in supply.items()]
        rows.append({"run_id": run_id, "kind": "any", "supply": sum(supply.values())})
    return pl.DataFrame(rows, schema=OUTPUT)
