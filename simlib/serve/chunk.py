"""One chunk of a workbench job, as its worker process runs it: `simlib sweep` on one seed, then the sums its
verdicts need.

A chunk is the command line's own sweep (core/sweep.py): the baseline and every variant on the chunk's seed, play
i of each paired with play i of the baseline. Its runs and its `sweeps` rows land in the lake under the run ids the
command `command_line` prints would write, so a designer can rerun any chunk from the shell and get the same rows.
The per-play values come from the pipeline's own models (design/metrics.py), reduced here to sums (analysis/
effects.py, analysis/estimators.py) so that chunks add up and only a few numbers cross back to the server.
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..analysis.effects import PairSums
from ..analysis.estimators import SeatSums, seat_sums
from ..core.executors import LocalExecutor
from ..core.lake import Lake
from ..core.registry import get_game
from ..core.sweep import Sweep


@dataclass(frozen=True)
class ChunkRequest:
    """What a chunk runs: one sweep's specification, on one seed, into one lake."""

    game: str
    players: int
    lineup: str  # one policy for every seat, or one per seat ("a,b,c")
    vary: dict[str, list[Any]]
    plays: int
    seed: int
    lake: str

    def sweep(self) -> Sweep:
        return Sweep(get_game(self.game), self.vary, [self.players], [self.lineup], self.plays, self.seed)

    def command_line(self) -> str:
        """The shell command that writes this chunk's runs (the same run ids, the same rows)."""
        words = ["simlib", "sweep", self.game]
        for name, values in self.vary.items():
            words += ["--vary", f"{name}={','.join(map(str, values))}"]
        words += ["--players", str(self.players), "--policies", self.lineup, "--plays", str(self.plays),
                  "--seed", str(self.seed), "--lake", self.lake, "--no-report"]
        return shlex.join(words)


@dataclass(frozen=True)
class RunSums:
    """One run of a chunk (the baseline or a variant), as sums: its seats' win shares, and each paired metric
    against the baseline's plays of the same seed (the baseline paired with itself, as the mart pairs it)."""

    key: str  # the variant's values as JSON: the same run of every chunk has the same key
    run_id: str
    is_baseline: bool
    seats: SeatSums
    pairs: dict[str, PairSums]
    # At a mixed table, each policy's win share as the report counts it, by policy spec: [plays, sum, sum of squares]
    policies: dict[str, np.ndarray]


@dataclass(frozen=True)
class ChunkResult:
    request: ChunkRequest
    runs: list[RunSums]
    headline: str  # the headline's name in the marts ("" for a game without one)
    seconds: float


def _pairs(values, base, headline: str) -> dict[str, PairSums]:
    fair = 1 / values.players
    pairs = {"seat0_advantage": PairSums.of(values.shares[:, 0] - fair, base.shares[:, 0] - fair),
             "length": PairSums.of(values.turns, base.turns)}
    both = ~np.isnan(values.headline) & ~np.isnan(base.headline)
    if headline and both.any():
        pairs[f"headline: {headline}"] = PairSums.of(values.headline[both], base.headline[both])
    return pairs


def run_chunk(request: ChunkRequest, workers: int | None = None) -> ChunkResult:
    """Simulate the chunk's runs into the lake (a complete run is read, not simulated again), write its sweep's
    rows, and sum its plays."""
    from ..core.runner import run
    from ..core.sweep import write_sweep
    from ..design.metrics import play_values_of_runs

    began = time.perf_counter()
    sweep, lake = request.sweep(), Lake.at(request.lake)
    rows = sweep.rows()
    executor = LocalExecutor(workers)
    run_ids = [run(config, lake, progress=False, executor=executor).run_id for config, _ in rows]
    write_sweep(lake, sweep)
    values = play_values_of_runs(lake, sweep.game, run_ids)
    headline = next((v.headline_name for v in values.values() if v.headline_name), "")
    base = values[run_ids[0]]  # Sweep.runs puts the baseline first
    mixed = len(set(request.lineup.split(","))) > 1
    policies = policy_share_sums(lake, sweep.game, run_ids) if mixed else {}
    runs = [RunSums(row["variant_values"], run_id, row["is_baseline"], seat_sums(values[run_id].shares),
                    _pairs(values[run_id], base, headline), policies.get(run_id, {}))
            for (_, row), run_id in zip(rows, run_ids)]
    return ChunkResult(request, runs, headline, time.perf_counter() - began)


def policy_share_sums(lake: Lake, game, run_ids: list[str]) -> dict[str, dict[str, np.ndarray]]:
    """Each run's policies' win shares as mart_policy_strength sums them (int_policy_play_sums): the play is the
    unit, and a policy at several seats is their mean share in the play; a policy's seats need not be the seats the
    line-up gives it (Die Mauer's seat 0 is each Spielrunde's first Bauherr)."""
    from ..analysis.pipeline import models_for_runs

    with models_for_runs(lake, [(game.name, r) for r in run_ids], {"int_policy_play_sums"}) as con:
        rows = con.execute("select run_id, policy_spec, sum(n_plays), sum(share_sum), sum(share_sq_sum) "
                           "from int_policy_play_sums group by all").fetchall()
    sums: dict[str, dict[str, np.ndarray]] = {}
    for run_id, spec, n, s, ss in rows:
        sums.setdefault(run_id, {})[spec] = np.array([n, s, ss], float)
    return sums


RUN_ID = re.compile(r"[0-9a-f]{16}")  # RunConfig.run_id's form: nothing else reaches the lake's paths


@dataclass(frozen=True)
class PlayRequest:
    """One play of a run in the lake, to be told step by step."""

    game: str
    run_id: str
    play: int
    lake: str


def tell_play(request: PlayRequest) -> dict:
    """The play as `simlib replay` tells it, each seat's standing after each turn (re-simulated, as the replay
    does), and whether the re-simulation matches the lake's rows."""
    from ..core.config import RunConfig
    from ..core.errors import SimlibError
    from ..core.lake import find_run
    from ..core.replay import compare_with_lake
    from ..core.setups import changed_options, options_label

    if not RUN_ID.fullmatch(request.run_id):
        raise SimlibError(f"{request.run_id!r} is not a run id (16 hexadecimal digits)")
    game, lake = get_game(request.game), Lake.at(request.lake)
    config = RunConfig.from_json(find_run(lake, game.name, request.run_id)["config"], game)
    if not 0 <= request.play < config.plays:
        raise SimlibError(f"run {request.run_id} has plays 0..{config.plays - 1}, not {request.play}")
    block = game.block_size(config)
    start = request.play // block * block
    tables = game.replayed(config, start, start + block)
    standings = []
    if "standings" in tables:
        rows = tables["standings"].to_pylist()
        standings = [[r["turn"], r["seat"], r["standing"]] for r in rows if r["play_index"] == request.play]
    return {"game": game.name, "title": game.title, "run_id": request.run_id, "play": request.play,
            "plays": config.plays, "players": config.players, "text": game.describe_play(config, request.play),
            "rules": options_label(game, changed_options(game, config.options, one_policy=False)),
            "standings": standings, "drawing": game.drawing(config, request.play),
            "unit": game.standing.unit if game.standing else "",
            "step": game.standing.plural if game.standing else "",
            "mismatch": ", ".join(compare_with_lake(game, config, lake, request.run_id, request.play))}


MEASURE_SECONDS = 0.5  # a speed is measured over at least this long (after a first, warming call)
SPEED_CONFIG_PLAYS = 60  # plays of the configuration the speed is measured with: a multiple of every game's block


def plays_per_second(game: str, players: int, lineup: str) -> float:
    """One process's plays a second of a line-up on this machine, the games table only (as a chunk's runs write
    it): blocks of plays, four times more each time, until a call takes MEASURE_SECONDS."""
    from ..core.config import RunConfig

    rules = get_game(game)
    config = RunConfig.build(rules, players=players, policies=lineup.split(","), plays=SPEED_CONFIG_PLAYS, seed=0)
    plays = rules.block_size(config)
    rules.simulate(config, 0, plays, events=False)  # loads (or compiles) the kernel
    while True:
        began = time.perf_counter()
        rules.simulate(config, 0, plays, events=False)
        took = time.perf_counter() - began
        if took >= MEASURE_SECONDS or plays >= 10**6:
            return plays / took
        plays *= 4
