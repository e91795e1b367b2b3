"""The Parquet lake: `<root>/<table>/game=<name>/run_id=<id>/part-NNNNN.parquet`.

Every file is written under a hidden temporary name and renamed when complete, so a reader (or a
glob such as `**/*.parquet`) never sees a half-written file, and an interrupted run keeps every
part it finished.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .errors import SimlibError


def described(name: str, type_: pa.DataType, doc: str, nullable: bool = False) -> pa.Field:
    """A schema field whose meaning travels with it (and into docs/lake.md)."""
    return pa.field(name, type_, nullable=nullable, metadata={"doc": doc})


RUNS_SCHEMA = pa.schema([
    described("rules_version", pa.int16(), "The game's rules version the run was simulated with."),
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
])

# The generic contract: what every game's tables provide (checked for each registered game in the tests).
REQUIRED_COLUMNS = {
    "games": ("rules_version", "play_index", "players", "turns", "end_reason", "completed", "winners"),
    "seats": ("rules_version", "play_index", "seat", "policy", "policy_spec", "score", "rank", "winner"),
}

PARTITION_DOCS = {
    "game": "Hive partition: the game's registry name.",
    "run_id": "Hive partition: the run's id, a hash of its configuration, rules and simlib version.",
}


def part_path(root: Path, table: str, game: str, run_id: str, part: int) -> Path:
    return root / table / f"game={game}" / f"run_id={run_id}" / f"part-{part:05d}.parquet"


def check_writable(root: Path) -> None:
    """Fail early, before anything is written, when the lake cannot take files."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".probe-"):
            pass
    except OSError as exc:
        raise SimlibError(f"lake {root} is not writable: {exc.strerror}") from None


def write_atomic(table: pa.Table, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def read_run(root: Path, game: str, run_id: str) -> dict | None:
    """The runs row of a run, or None if the lake has no such run."""
    path = part_path(root, "runs", game, run_id, 0)
    if not path.exists():
        return None
    return pq.read_table(path).to_pylist()[0]


def find_run(root: Path, game: str, run_id: str) -> dict:
    row = read_run(root, game, run_id)
    if row is None:
        raise SimlibError(f"no run {run_id!r} of {game} in lake {root}")
    return row
