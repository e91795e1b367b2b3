"""Batches of runs described in TOML: the report's default batch, a designer's sweep.

    [[run]]                      # one run per (players, policies) pair
    players = [3, 4]
    policies = ["random", "heavy,random,random"]   # one name for every seat, or one per seat
    plays = 100_000
    options = { penalty_tower = 12 }               # optional rule parameters
    events = false
    seed = 1                                       # optional, default 1

    [[tournament]]               # one `policy` at each seat of a table of `field`, for every ordered pair,
    players = 4                  # plus a table of each policy alone
    policies = ["random", "heavy"]
    plays = 20_000               # per seating
"""

from __future__ import annotations

from itertools import permutations
from pathlib import Path
from typing import Any

from .config import RunConfig
from .errors import SimlibError
from .game import Game
from .params import read_toml

_RUN_KEYS = {"players", "policies", "plays", "options", "events", "seed"}


def _plays(value: Any, scale: float, block: int) -> int:
    plays = max(block, round(value * scale / block) * block)
    return plays


def _configs(game: Game, entry: dict, kind: str, scale: float) -> list[RunConfig]:
    unknown = set(entry) - _RUN_KEYS
    if unknown:
        raise SimlibError(f"batch {kind}: unknown key(s) {', '.join(sorted(unknown))}")
    try:
        players = entry["players"]
        policies = entry["policies"]
        plays = entry["plays"]
    except KeyError as missing:
        raise SimlibError(f"batch {kind}: missing key {missing}") from None
    players = players if isinstance(players, list) else [players]
    options = entry.get("options", {})
    seed = entry.get("seed", 1)
    if kind == "run":
        tables = [(n, p.split(",")) for n in players for p in policies]
    else:
        tables = []
        for n in players:
            tables += [(n, [p]) for p in policies]
            for focal, field in permutations(policies, 2):
                tables += [(n, [field] * seat + [focal] + [field] * (n - seat - 1)) for seat in range(n)]
    configs = []
    for n, seats in tables:
        probe = RunConfig.build(game, players=n, policies=seats, plays=10**9, seed=seed, options=options)
        configs.append(RunConfig.build(game, players=n, policies=seats, seed=seed, options=options,
                                       plays=_plays(plays, scale, game.block_size(probe)),
                                       events=bool(entry.get("events", False))))
    return configs


def load_batch(game: Game, path: Path, scale: float = 1.0) -> list[RunConfig]:
    if scale <= 0:
        raise SimlibError(f"--scale must be positive, not {scale}")
    spec = read_toml(path, "batch file")
    configs = []
    for kind in ("run", "tournament"):
        for entry in spec.get(kind, []):
            configs += _configs(game, entry, kind, scale)
    unknown = set(spec) - {"run", "tournament"}
    if unknown:
        raise SimlibError(f"batch file {path}: unknown section(s) {', '.join(sorted(unknown))}")
    return configs
