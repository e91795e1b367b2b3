"""Tiny hand-made lakes for testing SQL models with known answers."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa

from simlib.core.lake import Lake, part_path, write_atomic
from simlib.core.manifest import describe_file, manifest_json, run_files
from simlib.core.schemas import RUNS_SCHEMA
from simlib.games.mauer.tables import EVENTS, GAMES, SEATS


def _table(schema: pa.Schema, rows: list[dict]) -> pa.Table:
    filled = []
    for row in rows:
        full = {}
        for f in schema:
            if f.name in row:
                full[f.name] = row[f.name]
            elif pa.types.is_list(f.type):
                full[f.name] = []
            elif pa.types.is_boolean(f.type):
                full[f.name] = False
            elif pa.types.is_dictionary(f.type) or pa.types.is_string(f.type):
                full[f.name] = None if f.nullable else "x"
            else:
                full[f.name] = None if f.nullable else 0
        filled.append(full)
    return pa.Table.from_pylist(filled, schema=schema)


def write_run(lake: Path, run_id: str, players: int, policies: list[str], games: list[dict], seats: list[dict],
              events: list[dict] | None = None, rounds: int = 1, status: str = "complete", seed: int = 1,
              options: dict | None = None) -> None:
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    config = {"game": "mauer", "players": players, "policies": policies, "plays": len(games), "seed": seed,
              "options": {"rounds": rounds, "start": "continue", "max_baurunden": 500} | (options or {}),
              "events": events is not None}
    runs = pa.Table.from_pylist([{
        "rules_version": 1, "rules_versions": '{"mauer": 1}', "simlib_version": "test", "config": json.dumps(config),
        "seed": seed, "players": players,
        "policies": ",".join(policies), "plays": len(games), "shard_size": 100, "started_at": now, "ended_at": now,
        "status": status}], schema=RUNS_SCHEMA)
    write_atomic(runs, part_path(lake, "runs", "mauer", run_id, 0))
    for g in games:
        g.setdefault("players", players)
        g.setdefault("end_reason", "emptied")
        g.setdefault("completed", True)
        g.setdefault("match_id", g["play_index"] // rounds)
        g.setdefault("round", g["play_index"] % rounds)
    write_atomic(_table(GAMES, games), part_path(lake, "games", "mauer", run_id, 0))
    for s in seats:
        s.setdefault("match_id", s["play_index"] // rounds)
        s.setdefault("round", s["play_index"] % rounds)
        s.setdefault("player", s["seat"])
        s.setdefault("policy", policies[s["player"]])
        s.setdefault("policy_spec", policies[s["player"]])
        s.setdefault("score", -s["penalty"])
    write_atomic(_table(SEATS, seats), part_path(lake, "seats", "mauer", run_id, 0))
    if events is not None:
        write_atomic(_table(EVENTS, events), part_path(lake, "events", "mauer", run_id, 0))
    seal_run(lake, "mauer", run_id)


def seal_run(lake: Path, game: str, run_id: str) -> None:
    """Record a hand-made run's manifest as simlib's runner does when a run completes: every part file there,
    described (rows, bytes, checksum), in the runs row. Without it the run would not count (core/manifest.py)."""
    lake = Lake.at(lake)
    found = run_files(lake, game, run_id)
    parts: dict[int, dict] = {}
    for name, path in found.paths.items():
        table, file = name.split("/")
        part = int(file.removeprefix("part-").removesuffix(".parquet"))
        parts.setdefault(part, {"part": part, "files": {}})["files"][table] = describe_file(lake, path)
    first = 0
    for part in sorted(parts):  # a games row per play, as the runner's parts
        parts[part] |= {"first_play": first, "plays": parts[part]["files"]["games"]["rows"]}
        first += parts[part]["plays"]
    runs_path = lake.part_path("runs", game, run_id, 0)
    row = lake.read_table(runs_path).to_pylist()[0]
    if row["status"] == "complete":
        row["manifest"] = manifest_json(parts.values())
    write_atomic(pa.Table.from_pylist([row], schema=RUNS_SCHEMA), Path(runs_path))


def seats_from_penalties(penalties: list[list[int]]) -> tuple[list[dict], list[dict]]:
    """games and seats rows from a penalty matrix (play x seat); the lowest penalty wins."""
    games, seats = [], []
    for play, row in enumerate(penalties):
        best = min(row)
        winners = [s for s, p in enumerate(row) if p == best]
        games.append({"play_index": play, "winners": winners, "turns": 7 + 2 * play})
        for seat, p in enumerate(row):
            seats.append({"play_index": play, "seat": seat, "penalty": p, "winner": p == best,
                          "rank": 1 + sum(q < p for q in row)})
    return games, seats
