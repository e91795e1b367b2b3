"""Digests of what users see, to prove a restructuring changes no result.

- `tables`: per game, the `games` and `seats` tables simulated at fixed seeds (every player count);
  for Catan, the engine other games build on, also `production` and `events`, per policy at 3 and 4
  players (CATAN_CASES); for Die Mauerspechte, 7 Steps and Burgenland every table (MAUERSPECHTE_CASES,
  EVERY_TABLE_CASES).
- `marts`: every mart built by `simlib pipeline` over a small lake of every game.

Recorded once, before a restructuring, into tests/support/digests.json (`python tests/support/digests.py --record`);
tests/project/test_digests.py recomputes them and compares. A value stays the same when the rows are the same:
rows are sorted, dictionary columns decoded, floats rounded to 9 significant digits (a sum may be added
up in another order), and column types are part of the digest up to integer width.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import shutil
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from simlib.core.config import RunConfig
from simlib.core.feel import FEEL_FIELDS
from simlib.core.registry import get_game

RECORDED = Path(__file__).with_name("digests.json")

# (game, players, policies, plays, seed): small, but every player count of every game.
TABLE_CASES = [
    ("mauer", 3, ["random"], 60, 11), ("mauer", 4, ["random", "heavy", "reader", "hollow"], 60, 12),
    ("mauer", 5, ["heavy"], 30, 13), ("mauer", 6, ["random"], 30, 14),
    ("mauerbruch", 2, ["random"], 60, 21), ("mauerbruch", 3, ["greedy", "cautious", "random"], 60, 22),
    ("mauerbruch", 4, ["random"], 60, 23),
    ("catan", 3, ["random"], 12, 31), ("catan", 4, ["builder", "weighted", "random", "random"], 12, 32),
]

# Catan's engine is shared with its scenarios: every table, each policy alone and mixed, 3 and 4 players.
CATAN_CASES = [(players, policies, 10, 40 + k)
               for k, (players, policies) in enumerate(
                   [(n, [p]) for p in ("random", "weighted", "builder") for n in (3, 4)]
                   + [(3, ["builder", "weighted", "random"]), (4, ["weighted", "builder", "random", "builder"])])]
# Die Mauerspechte (on Catan's engine): every table, each policy at least once, 3 and 4 players, both layouts.
MAUERSPECHTE_CASES = [(3, ["random"], 8, 51, "fixed"),
                      (4, ["builder", "weighted", "specht", "hotelier"], 8, 52, "fixed"),
                      (4, ["random"], 8, 53, "shuffled")]
# 7 Steps: every table, each policy, 2 to 4 players, both sides and both readings of first_disc (they differ on
# the back only) and of threshold_counts (the defaults are the rule text's: tile, discs).
SEVENSTEPS_CASES = [(2, ["random"], 20, 61, {}),
                    (3, ["greedy", "climber", "random"], 10, 62, {"side": "back", "threshold_counts": "total"}),
                    (4, ["random", "greedy", "climber", "greedy:reach=2"], 10, 63, {"first_disc": "colour",
                                                                                  "side": "back"}),
                    (4, ["random"], 20, 64, {"side": "back", "tile_threshold": 8})]
# Burgenland: every table, each policy, 2 to 4 players, both starting hands, the central castle's options, both
# readings of the well marker (free_well_tile).
BURGENLAND_CASES = [(2, ["random"], 20, 71, {}), (3, ["builder", "saver", "random"], 20, 72, {"start_hands": "equal"}),
                    (4, ["random", "builder", "saver", "builder"], 20, 73,
                     {"central_master_builder": True, "swap_return": "out", "free_well_tile": True}),
                    (4, ["random"], 20, 74, {"central_jokers": False, "joker_exchange": 0})]
EVERY_TABLE_CASES = {"sevensteps": SEVENSTEPS_CASES, "burgenland": BURGENLAND_CASES}
# Columns added to a table after its digest was recorded (they are left out of the digest, so that a new
# column does not hide whether the old ones kept their values).
ADDED_SINCE_RECORDING = {"games": {f.name for f in FEEL_FIELDS}}
CATAN_ADDED_SINCE_RECORDING = {**ADDED_SINCE_RECORDING, "events": {"die_1", "die_2"}}

# The small lake the marts are built over: every game, runs with events, and tournaments.
LAKE_BATCHES = {
    "mauer": """
[[run]]
players = [3, 4]
policies = ["random", "heavy"]
plays = 120
[[run]]
players = [4]
policies = ["random,heavy,reader,hollow"]
plays = 40
events = true
[[tournament]]
players = 3
policies = ["random", "reader"]
plays = 30
options = { rounds = 1 }
""",
    "mauerbruch": """
[[run]]
players = [2, 4]
policies = ["random"]
plays = 120
[[run]]
players = [3]
policies = ["random,greedy,cautious"]
plays = 40
events = true
[[tournament]]
players = 3
policies = ["random", "greedy"]
plays = 20
""",
    "catan": """
[[run]]
players = [3, 4]
policies = ["random"]
plays = 16
[[run]]
players = [4]
policies = ["builder,weighted,random,random"]
plays = 8
events = true
[[tournament]]
players = 3
policies = ["random", "builder"]
plays = 6
""",
    "sevensteps": """
[[run]]
players = [2, 4]
policies = ["random"]
plays = 60
[[run]]
players = [4]
policies = ["greedy,random,random,random", "random,climber,random,random"]
plays = 20
options = { side = "back" }
[[run]]
players = [4]
policies = ["greedy"]
plays = 10
events = true
options = { tile_threshold = 8 }
""",
    "burgenland": """
[[run]]
players = [2, 4]
policies = ["random"]
plays = 60
[[run]]
players = [4]
policies = ["random"]
plays = 60
options = { start_hands = "equal" }
[[run]]
players = [4]
policies = ["builder,random,saver,random"]
plays = 20
events = true
""",
}


def _value(v):
    if isinstance(v, Decimal) and v == v.to_integral_value():
        return int(v)
    if isinstance(v, float):
        return None if math.isnan(v) else float(f"{v:.9g}")
    if isinstance(v, list):
        return [_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    return v


def _kind(t: pa.DataType) -> str:
    """A column's type up to its width: integers of any width (and whole decimals) are one kind."""
    if pa.types.is_dictionary(t):
        return _kind(t.value_type)
    if pa.types.is_integer(t) or (pa.types.is_decimal(t) and t.scale == 0):
        return "integer"
    if pa.types.is_list(t):
        return f"list<{_kind(t.value_type)}>"
    return str(t)


def table_digest(table: pa.Table) -> str:
    """Order-free digest of a table's rows and column kinds (integer widths may change, values not)."""
    types = [f"{f.name}:{_kind(f.type)}" for f in table.schema]
    rows = sorted(json.dumps(_value(r), sort_keys=True, default=str) for r in table.to_pylist())
    digest = hashlib.sha256("|".join(types).encode())
    for r in rows:
        digest.update(r.encode())
    return digest.hexdigest()[:16]


def recorded_digest(name: str, table: pa.Table, added: dict[str, set[str]] = ADDED_SINCE_RECORDING) -> str:
    """table_digest of the columns the recording had (those `added` since left out)."""
    return table_digest(table.select([c for c in table.column_names if c not in added.get(name, ())]))


def table_digests() -> dict[str, str]:
    out = {}
    for name, players, policies, plays, seed in TABLE_CASES:
        game = get_game(name)
        config = RunConfig.build(game, players=players, policies=policies, plays=plays, seed=seed)
        tables = game.simulate(config, 0, plays, events=False)
        for table in ("games", "seats"):
            out[f"{name}/{players}p/{table}"] = recorded_digest(table, tables[table])
    for players, policies, plays, seed in CATAN_CASES:
        game = get_game("catan")
        config = RunConfig.build(game, players=players, policies=policies, plays=plays, seed=seed)
        tables = game.simulate(config, 0, plays, events=True)
        for table in ("games", "seats", "production", "events"):
            out[f"catan/{players}p/{','.join(policies)}/{table}"] = recorded_digest(table, tables[table],
                                                                                    CATAN_ADDED_SINCE_RECORDING)
    game = get_game("mauerspechte")
    for players, policies, plays, seed, layout in MAUERSPECHTE_CASES:
        config = RunConfig.build(game, players=players, policies=policies, plays=plays, seed=seed,
                                 options={"layout": layout})
        for table, rows in game.simulate(config, 0, plays, events=True).items():
            out[f"mauerspechte/{players}p/{','.join(policies)}/{layout}/{table}"] = recorded_digest(table, rows)
    for name, cases in EVERY_TABLE_CASES.items():
        game = get_game(name)
        for players, policies, plays, seed, options in cases:
            config = RunConfig.build(game, players=players, policies=policies, plays=plays, seed=seed,
                                     options=options)
            label = ",".join(f"{k}={v}" for k, v in options.items())
            for table, rows in game.simulate(config, 0, plays, events=True).items():
                out[f"{name}/{players}p/{','.join(policies)}/{label}/{table}"] = recorded_digest(table, rows)
    return out


def build_small_lake(root: Path) -> tuple[Path, Path]:
    """Simulate LAKE_BATCHES into root/lake and build the marts into root/marts; returns both paths."""
    from simlib.analysis.pipeline import build
    from simlib.core.runner import run
    from simlib.design.batch import load_batch

    lake, marts = root / "lake", root / "marts"
    root.mkdir(parents=True, exist_ok=True)
    for name, text in LAKE_BATCHES.items():
        batch = root / f"{name}.toml"
        batch.write_text(text)
        for config in load_batch(get_game(name), batch):
            run(config, lake, workers=1, progress=False)
    result = build(lake, marts, root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    return lake, marts


def small_lake(tmp_path_factory, dest: Path) -> tuple[Path, Path]:
    """build_small_lake's folder copied into dest as `make report` leaves data/ (the lake, the marts' link and
    generation, their cache; not the database, whose views name the shared lake); returns dest/lake and dest/marts.
    Built once per test session: pytest-xdist's workers share a folder beside their own temporary ones and the
    first to take its lock builds while the others wait (a build is about 20 s, and six modules use it). A build
    is renamed into place whole, so a failed one leaves nothing a later module would take for a lake."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent / "small-lake" if os.environ.get("PYTEST_XDIST_WORKER") else base / "small-lake"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (shared / "made").exists():
            building = Path(tempfile.mkdtemp(dir=shared))
            build_small_lake(building)
            building.rename(shared / "made")
    shutil.copytree(shared / "made", dest, symlinks=True, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("simlib.duckdb", "*.toml", ".marts.lock"))
    return dest / "lake", dest / "marts"


def mart_digests(marts: Path) -> dict[str, str]:
    return {p.stem: table_digest(pq.read_table(p)) for p in sorted(marts.glob("mart_*.parquet"))}


def all_digests() -> dict[str, dict[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        _, marts = build_small_lake(Path(tmp))
        return {"tables": table_digests(), "marts": mart_digests(marts)}


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/support/digests.py --record   (writes tests/support/digests.json)")
    RECORDED.write_text(json.dumps(all_digests(), indent=2, sort_keys=True) + "\n")
    print(f"wrote {RECORDED}")
