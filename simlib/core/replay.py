"""Replaying one play alone and checking it against what the batch wrote."""

from __future__ import annotations

from pathlib import Path

import pyarrow.compute as pc
import pyarrow.dataset as ds

from .config import RunConfig
from .game import Game
from .lake import Lake


def compare_with_lake(game: Game, config: RunConfig, lake: Lake | Path | str, run_id: str, play: int) -> list[str]:
    """The tables whose rows for `play` differ between a replay alone and the lake (empty: identical)."""
    lake = Lake.at(lake)
    block = game.block_size(config)
    first = play - play % block
    replayed = game.simulate(config, first, first + block, events=False)
    differs = []
    for name in ("games", "seats"):
        folder = lake.path(f"{name}/game={game.name}/run_id={run_id}")
        stored = ds.dataset(folder, format="parquet", filesystem=lake.arrow_fs).to_table(
            filter=pc.field("play_index") == play)
        mine = replayed[name].filter(pc.equal(replayed[name]["play_index"], play))
        # A run written before a column was added is compared on the columns it has.
        if not set(stored.column_names) <= set(mine.column_names) or \
                not stored.equals(mine.select(stored.column_names).cast(stored.schema)):
            differs.append(name)
    return differs
