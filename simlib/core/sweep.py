"""What-if sweeps: variants of a game's rules, each one run, compared with a baseline run.

Every run of a sweep has the same seed, so play i of each variant draws the same random numbers as play i
of the baseline wherever the rules consume them alike (common random numbers, simlib/core/rng.py): a
difference is measured on paired plays, which narrows its interval. A sweep is not part of any run id (a
variant shared by two sweeps is one run); the `sweeps` lake table says which runs form a sweep, one row
per variant, under the variant's run (`sweeps/game=<g>/run_id=<run>/sweep-<sweep_id>.parquet`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from . import __version__
from .config import RunConfig
from .errors import SimlibError
from .game import Game
from .lake import Lake
from .schemas import SWEEPS_SCHEMA

# A play count that every block size from 1 to 16 divides (lcm(1..16)): a probe configures runs with it to ask the
# game their block size (Game.block_size: a Die Mauer match's Spielrunden) before their plays are chosen.
PROBE_PLAYS = 720_720


def sweep_name(game: str, run_id: str, sweep_id: str) -> str:
    """A sweeps file's path inside the lake."""
    return f"sweeps/game={game}/run_id={run_id}/sweep-{sweep_id}.parquet"


@dataclass(frozen=True)
class Sweep:
    """A sweep as a designer writes it: the values each parameter takes, crossed with player counts and
    policy line-ups. The baseline is the game's defaults with `base` (and `options`, which every run
    shares) applied; it runs too when it is not among the variants."""

    game: Game
    vary: dict[str, list[Any]]
    players: list[int]
    policies: list[str]  # line-ups: one policy for every seat, or one per seat ("a,b,c")
    plays: int
    seed: int = 1
    base: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    events: bool = False

    def __post_init__(self):
        params = self.game.parameters()
        if not self.vary:
            raise SimlibError("a sweep needs at least one parameter to vary (--vary NAME=V1,V2)")
        for name in [*self.vary, *self.base, *self.options]:
            if name not in params or params[name].derived:
                settable = ", ".join(n for n, p in params.items() if not p.derived)
                raise SimlibError(f"{name!r} is not a rule parameter of {self.game.name} (parameters: {settable})")
        fixed = sorted(set(self.vary) & set(self.options))
        if fixed:
            raise SimlibError(f"{', '.join(fixed)} is both varied and fixed for every run: give its baseline "
                              f"value with --base instead")
        vary = {}
        for name, values in self.vary.items():
            vary[name] = [params[name].coerce(v) for v in values]
            if not values or len(set(map(repr, vary[name]))) != len(values):
                raise SimlibError(f"--vary {name}: give one or more different values")
        if not self.players or len(set(self.players)) != len(self.players):
            raise SimlibError(f"a sweep's player counts must be different, not {self.players}")
        if not self.policies or len(set(self.policies)) != len(self.policies):
            raise SimlibError(f"a sweep's line-ups must be different, not {self.policies}")
        # Coerced, so that the same sweep typed on the command line or in a batch file has one id.
        object.__setattr__(self, "vary", vary)
        object.__setattr__(self, "base", {k: params[k].coerce(v) for k, v in self.base.items()})
        object.__setattr__(self, "options", {k: params[k].coerce(v) for k, v in self.options.items()})

    @property
    def sweep_id(self) -> str:
        """A hash of the specification and, as in a run id, the rules and simlib version: the same sweep after a
        version bump is new runs, and a new sweep beside the old one."""
        spec = {"game": self.game.name, "vary": self.vary, "players": self.players, "policies": self.policies,
                "plays": self.plays, "seed": self.seed, "base": self.base, "options": self.options,
                "events": self.events, "rules_version": self.game.rules_version, "simlib": __version__}
        if self.game.engines:
            spec["rules_versions"] = self.game.rules_versions()
        return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def _config(self, players: int, lineup: str, values: dict[str, Any]) -> RunConfig:
        return RunConfig.build(self.game, players=players, policies=lineup.split(","), plays=self.plays,
                               seed=self.seed, options=self.options | self.base | values, events=self.events)

    def runs(self) -> list[tuple[RunConfig, dict]]:
        """Every run of the sweep with its `sweeps` row (the run id filled in by `rows`): per player count and
        line-up, the baseline first, then the variants in the order given."""
        names = list(self.vary)
        combos = [dict(zip(names, values)) for values in itertools.product(*self.vary.values())]
        sweep_id, result = self.sweep_id, []
        for players, lineup in itertools.product(self.players, self.policies):
            baseline = self._config(players, lineup, {})
            base_values = {name: baseline.options[name] for name in names}
            entries = [(base_values, True)] + [(c, False) for c in combos if c != base_values]
            for values, is_baseline in entries:
                config = baseline if is_baseline else self._config(players, lineup, values)
                result.append((config, {
                    "sweep_id": sweep_id, "parameters": ",".join(names),
                    "variant": " ".join(f"{k}={v}" for k, v in values.items()),
                    "variant_order": combos.index(values) if values in combos else -1,
                    "variant_values": json.dumps(values, sort_keys=True, default=str), "is_baseline": is_baseline,
                    "players": players, "policies": ",".join(map(str, config.policies)), "plays": self.plays,
                    "seed": self.seed}))
        return result

    def rows(self) -> list[tuple[RunConfig, dict]]:
        """`runs()` with each row's baseline run id, for the `sweeps` table."""
        versions = self.game.rules_versions()
        runs = self.runs()
        baselines = {(c.players, row["policies"]): c.run_id(versions) for c, row in runs if row["is_baseline"]}
        return [(c, row | {"baseline_run_id": baselines[(c.players, row["policies"])]}) for c, row in runs]


def parse_vary(items: list[str]) -> dict[str, list[str]]:
    """`NAME=V1,V2,...` flags into {name: [values]} (values as text; the game's parameters coerce them)."""
    vary = {}
    for item in items:
        name, eq, values = item.partition("=")
        if not eq or not values.strip():
            raise SimlibError(f"--vary needs NAME=V1,V2,..., got {item!r}")
        if name.strip() in vary:
            raise SimlibError(f"--vary {name.strip()} is given twice")
        vary[name.strip()] = [v.strip() for v in values.split(",")]
    return vary


def write_sweep(lake: Lake, sweep: Sweep) -> None:
    """The sweep's rows in the `sweeps` table, one file per variant run; call when every run is complete."""
    for config, row in sweep.rows():
        run_id = config.run_id(sweep.game.rules_versions())
        table = pa.Table.from_pylist([row], schema=SWEEPS_SCHEMA)
        lake.write_table(table, lake.path(sweep_name(sweep.game.name, run_id, sweep.sweep_id)))
