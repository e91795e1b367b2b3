"""The batch runner: splits a run into shards, simulates them in worker processes, writes the lake."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pyarrow as pa
from tqdm import tqdm

from .. import __version__
from .config import RunConfig
from .errors import SimlibError
from .game import Game
from .jit import compiled_sources
from .lake import RUNS_SCHEMA, check_writable, part_path, read_run, write_atomic
from .registry import get_game

DEFAULT_SHARD_SIZE = 50_000


@dataclass(frozen=True)
class RunResult:
    run_id: str
    lake: Path
    plays: int
    shards_written: int
    resumed: bool
    already_complete: bool


def _shards(plays: int, block: int, shard_size: int) -> list[tuple[int, int, int]]:
    size = max(block, shard_size // block * block)
    return [(i, start, min(start + size, plays)) for i, start in enumerate(range(0, plays, size))]


def _tables_for(game: Game, config: RunConfig) -> list[str]:
    return [t for t in game.schemas() if t not in game.event_tables or config.events]


def _write_shard(config: RunConfig, lake: Path, run_id: str, part: int, start: int, stop: int) -> int:
    game = get_game(config.game)
    tables = game.simulate(config, start, stop, events=config.events)
    for name in _tables_for(game, config):
        write_atomic(tables[name], part_path(lake, name, game.name, run_id, part))
    return stop - start


def _load_kernel(config: RunConfig) -> str:
    game = get_game(config.game)
    game.simulate(config, 0, game.block_size(config), events=False)
    return game.name


def compile_kernels(configs: list[RunConfig], workers: int | None = None) -> None:
    """Compile (or load from the on-disk cache) the kernel of every game among `configs`, one process per
    game and core at a time, before a batch runs them one after the other. A first compile takes minutes
    for a large kernel; games compiled side by side cost the slowest one, not the sum. Nothing to do for
    one game, or one worker."""
    first = {}
    for config in configs:
        first.setdefault(config.game, config)
    workers = min(len(first), workers or os.cpu_count() or 1)
    if workers < 2:
        return
    # Longest first, so that the slowest compile starts at once (its compiled code's size stands in for its time).
    order = sorted(first.values(), key=lambda c: -_compiled_size(get_game(c.game)))
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        list(pool.map(_load_kernel, order))


def _compiled_size(game: Game) -> int:
    return sum(path.stat().st_size for path in compiled_sources(game.package))


def _runs_row(game: Game, config: RunConfig, run_id: str, shard_size: int, started: datetime,
              status: str) -> pa.Table:
    ended = None if status == "running" else datetime.now(timezone.utc)
    row = {
        "rules_version": game.rules_version, "simlib_version": __version__, "config": config.to_json(),
        "seed": config.seed, "players": config.players, "policies": ",".join(map(str, config.policies)),
        "plays": config.plays, "shard_size": shard_size, "started_at": started, "ended_at": ended,
        "status": status,
    }
    return pa.Table.from_pylist([row], schema=RUNS_SCHEMA)


def run(config: RunConfig, lake: Path, workers: int | None = None, shard_size: int = DEFAULT_SHARD_SIZE,
        progress: bool = True) -> RunResult:
    """Simulate every play of `config` into the lake; resumes an interrupted run with the same id."""
    game = get_game(config.game)
    if shard_size <= 0:
        raise SimlibError(f"--shard-size must be positive, not {shard_size}")
    if workers is not None and workers <= 0:
        raise SimlibError(f"--workers must be positive, not {workers}")
    check_writable(lake)
    run_id = config.run_id(game.rules_version)
    previous = read_run(lake, game.name, run_id)
    if previous is not None and previous["status"] == "complete":
        return RunResult(run_id, lake, config.plays, 0, False, True)
    wanted_workers = workers or os.cpu_count() or 1
    if previous is not None:
        shard_size = previous["shard_size"]  # resume with the same part boundaries
        for stale in lake.glob(f"*/game={game.name}/run_id={run_id}/.*.tmp"):
            stale.unlink()  # a part a killed worker was writing; it is simulated again
    else:
        shard_size = min(shard_size, -(-config.plays // wanted_workers))  # enough shards for every worker
    started = previous["started_at"] if previous else datetime.now(timezone.utc)

    tables = _tables_for(game, config)
    todo = [s for s in _shards(config.plays, game.block_size(config), shard_size)
            if not all(part_path(lake, t, game.name, run_id, s[0]).exists() for t in tables)]
    runs_path = part_path(lake, "runs", game.name, run_id, 0)
    write_atomic(_runs_row(game, config, run_id, shard_size, started, "running"), runs_path)

    workers = min(wanted_workers, max(1, len(todo)))
    bar = tqdm(total=sum(stop - start for _, start, stop in todo), unit="play", unit_scale=True,
               delay=3.0, disable=not progress, desc=f"{game.name} {run_id}")
    try:
        if workers == 1:
            for part, start, stop in todo:
                bar.update(_write_shard(config, lake, run_id, part, start, stop))
        else:
            # Compile (or load the cached) kernel once in the parent so forked workers share it.
            game.simulate(config, 0, game.block_size(config), events=config.events)
            ctx = multiprocessing.get_context("fork")
            # Workers ignore Ctrl-C: the parent cancels the queued shards and lets running ones finish.
            pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=signal.signal,
                                       initargs=(signal.SIGINT, signal.SIG_IGN))
            try:
                pending = {pool.submit(_write_shard, config, lake, run_id, *s) for s in todo}
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        bar.update(fut.result())
            finally:
                pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:
        write_atomic(_runs_row(game, config, run_id, shard_size, started, "interrupted"), runs_path)
        raise
    except BaseException:
        write_atomic(_runs_row(game, config, run_id, shard_size, started, "failed"), runs_path)
        raise
    finally:
        bar.close()
    write_atomic(_runs_row(game, config, run_id, shard_size, started, "complete"), runs_path)
    return RunResult(run_id, lake, config.plays, len(todo), previous is not None, False)
