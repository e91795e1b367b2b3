"""Runs simulated through the command line, play by play, for the test references' drivers.

A driver that imported simlib to get its tables would share the code a reference checks; this module imports
nothing from simlib either: it writes a batch file, runs `simlib batch` in a child process and reads the lake's
Parquet files back.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

# A run: (players, policies: one spec for every seat or one per seat, plays, seed, options).
Run = tuple[int, list[str], int, int, dict]
RUN_LINE = re.compile(r"^\[\d+/\d+\] (\S+) run ([0-9a-f]+):")


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value)


def _batch(runs: list[Run]) -> str:
    entries = []
    for players, policies, plays, seed, options in runs:
        opts = ", ".join(f"{k} = {_toml_value(v)}" for k, v in options.items())
        entries.append(f"[[run]]\nplayers = [{players}]\npolicies = [{json.dumps(','.join(policies))}]\n"
                       f"plays = {plays}\nseed = {seed}\nevents = true\nstandings = true\noptions = {{ {opts} }}\n")
    return "\n".join(entries)


def _read(lake: Path, table: str, game: str, run_id: str) -> pa.Table | None:
    parts = sorted((lake / table / f"game={game}" / f"run_id={run_id}").glob("part-*.parquet"))
    return pa.concat_tables([pq.read_table(p) for p in parts]) if parts else None


def simulated_plays(game: str, runs: dict[str, Run], options: bool = False) -> dict[str, tuple[dict, ...]]:
    """Every run's plays, each a dict of its rows (as dicts, in the lake's order) per table; with `options`, also
    the run's rule options as the lake records them (the `config` of its runs row) under "options"."""
    names = list(runs)
    with tempfile.TemporaryDirectory() as tmp:
        batch, lake = Path(tmp) / "batch.toml", Path(tmp) / "lake"
        batch.write_text(_batch([runs[n] for n in names]))
        done = subprocess.run([sys.executable, "-c", "import sys; from simlib.cli import main; sys.exit(main())",
                               "batch", game, "--file", str(batch), "--lake", str(lake), "--quiet"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        ids = [m.group(2) for m in map(RUN_LINE.match, done.stdout.splitlines()) if m]
        assert len(ids) == len(names), done.stdout
        out = {}
        for name, run_id in zip(names, ids):
            plays = [defaultdict(list) for _ in range(runs[name][2])]
            for table in sorted(p.name for p in lake.iterdir() if p.name != "runs"):
                rows = _read(lake, table, game, run_id)
                for row in rows.to_pylist() if rows is not None else ():
                    plays[row["play_index"]][table].append(row)
            if options:
                (config,) = _read(lake, "runs", game, run_id).column("config").to_pylist()
                for play in plays:
                    play["options"] = json.loads(config)["options"]
            out[name] = tuple(dict(play) for play in plays)
    return out
