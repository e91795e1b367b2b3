"""The plays the report names as examples (mart_setup_feel: per set-up, one play won from last place at half-time
and one whose winner led throughout), for the workbench to open: the report itself links nowhere, as it is read
without a server and shows no run id in its sentences."""

from __future__ import annotations

from pathlib import Path

import polars as pl

KINDS = {"comeback_play": "won from last place at half-time", "runaway_play": "its winner led throughout"}


def report_examples(marts: Path) -> list[dict]:
    """The example plays of each table of one policy (the set-ups the report's feel figure draws), by game and
    set-up, from the marts the report was written from ([] if none)."""
    path = marts / "mart_setup_feel.parquet"
    if not path.is_file():
        return []
    feel = pl.read_parquet(path).filter(pl.col("lineup_kind") == "one_policy")
    examples = []
    for row in feel.sort("game", "players", "setup_label").iter_rows(named=True):
        plays = [{"kind": words, "play": row[column]} for column, words in KINDS.items() if row[column] is not None]
        if plays and row["example_run_id"]:
            examples.append({"game": row["game"], "setup": row["setup_label"], "run_id": row["example_run_id"],
                             "plays": plays})
    return examples
