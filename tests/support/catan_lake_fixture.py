"""Tiny hand-made Catan lakes for testing Catan's SQL models with known answers (as lake_fixture does for
Die Mauer): a run's games, seats and production rows, every column not given filled with a default."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa

from simlib.core.lake import part_path, write_atomic
from simlib.core.schemas import RUNS_SCHEMA
from simlib.games.catan.tables import GAMES, PRODUCTION, SEATS

from support.lake_fixture import _table, seal_run


def write_catan_run(lake: Path, run_id: str, players: int, policies: list[str], seats: list[dict],
                    production: list[dict], status: str = "complete") -> None:
    """A run of Catan from its seat rows (play_index, seat, and what the test needs: points, winner, card
    holders, received_/robbed_/discarded_<resource>) and production rows; the games rows follow from the
    seats (winners: the seats marked winner)."""
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    plays = sorted({s["play_index"] for s in seats})
    config = {"game": "catan", "players": players, "policies": policies, "plays": len(plays), "seed": 1,
              "options": {"map": "standard", "victory_points": 10, "max_turns": 1000}, "events": False}
    runs = pa.Table.from_pylist([{
        "rules_version": 2, "rules_versions": '{"catan": 2}', "simlib_version": "test", "config": json.dumps(config),
        "seed": 1, "players": players,
        "policies": ",".join(policies), "plays": len(plays), "shard_size": 100, "started_at": now, "ended_at": now,
        "status": status}], schema=RUNS_SCHEMA)
    write_atomic(runs, part_path(lake, "runs", "catan", run_id, 0))
    games = []
    for play in plays:
        mine = sorted((s for s in seats if s["play_index"] == play), key=lambda s: s["seat"])
        winners = [s["seat"] for s in mine if s.get("winner")]
        games.append({"play_index": play, "players": players, "turns": 40 + play, "rounds": 10 + play,
                      "end_reason": "won" if winners else "turn_limit", "completed": bool(winners),
                      "winners": winners, "final_points": [s.get("points", 0) for s in mine]})
    write_atomic(_table(GAMES, games), part_path(lake, "games", "catan", run_id, 0))
    for s in seats:
        s.setdefault("policy", policies[s["seat"]])
        s.setdefault("policy_spec", policies[s["seat"]])
        s.setdefault("points", 10 if s.get("winner") else 5)
        s.setdefault("score", s["points"])
        s.setdefault("rank", 1 if s.get("winner") else 2)
    write_atomic(_table(SEATS, seats), part_path(lake, "seats", "catan", run_id, 0))
    write_atomic(_table(PRODUCTION, production), part_path(lake, "production", "catan", run_id, 0))
    seal_run(lake, "catan", run_id)
