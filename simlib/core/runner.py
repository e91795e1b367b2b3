"""The batch runner: splits a run into shards, simulates them in worker processes, writes the lake."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import closing, nullcontext
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

import pyarrow as pa
from tqdm import tqdm

from . import __version__
from .config import RunConfig
from .errors import SimlibError
from .executors import Executor, LocalExecutor, worker_start
from .game import Game
from .jit import compiled_here, compiled_sources, mark_compiled
from .lake import Lake, read_run
from .limits import check_parts
from .manifest import describe_file, expected_files, file_entry, manifest_json, mismatches, run_files
from .registry import get_game
from .schemas import RUNS_SCHEMA
from .summary import setup_words

DEFAULT_SHARD_SIZE = 50_000
# Progress: how often the display reads the plays done, how long a chunk of a shard takes while it is shown (long
# next to a kernel call's set-up, so chunks cost nothing measurable), and how often a log gets a line.
POLL_SECONDS = 0.25
CHUNK_SECONDS = 0.5
LOG_SECONDS = 15.0
# A first compile's seconds per KB of a game's compiled sources, fitted to the whole default batch on the 2-core
# machine of docs/compile.md (828 KB over 2 workers compiled in 74 s: 0.16; alone a game takes 0.09 to 0.34 s a KB);
# a little above, as that machine is noisy.
COMPILE_SECONDS_PER_KB = 0.18
# A kernel's first compile against a scripted kernel's: every game's search kernel besides its scripted one took
# 360 s where the scripted kernels alone took 123 s (fresh clones on that machine, 2026-12-06).
KERNEL_COMPILE_WEIGHT = {"scripted": 1.0, "search": 2.0}
BAR_DELAY = 3.0  # a bar only for a run that lasts: a quick one prints its result, not a flash of a bar
# The plays simulated so far in the run being shown, counted by whoever simulates them, chunk by chunk: shared
# memory made before the executor forks its workers, which inherit it (it cannot be pickled into a task). None
# when nothing is shown, and in processes that were not forked from this one (Dask's): they count whole shards.
_plays_done = None
# Held while the display writes: a worker forked meanwhile would inherit a locked stream (as logging does it).
_showing = threading.Lock()


def _new_showing_lock() -> None:
    global _showing
    _showing = threading.Lock()


os.register_at_fork(before=lambda: _showing.acquire(), after_in_parent=lambda: _showing.release(),
                    after_in_child=_new_showing_lock)


@dataclass(frozen=True)
class RunResult:
    run_id: str
    lake: Lake
    plays: int
    shards_written: int
    resumed: bool
    already_complete: bool


def _shards(plays: int, block: int, shard_size: int) -> list[tuple[int, int, int]]:
    size = max(block, shard_size // block * block)
    return [(i, start, min(start + size, plays)) for i, start in enumerate(range(0, plays, size))]


def _tables_for(game: Game, config: RunConfig) -> list[str]:
    """The tables a run writes: the events tables only with --events, the standings only with --standings."""
    return [t for t in game.schemas() if (t not in game.event_tables or config.events)
            and (t != "standings" or config.standings)]


def _write_shard(config: RunConfig, lake: Lake, run_id: str, part: int, start: int, stop: int) -> dict:
    """Simulate a shard and write its part files; returns its manifest entry (manifest.py)."""
    game = get_game(config.game)
    tables = _simulate(game, config, start, stop)
    files = {}
    for name in _tables_for(game, config):
        data = lake.write_table(tables[name], lake.part_path(name, game.name, run_id, part))
        files[name] = file_entry(tables[name].num_rows, data)
    return _part_entry(part, start, stop, files)


def _part_entry(part: int, start: int, stop: int, files: dict) -> dict:
    return {"part": part, "first_play": start, "plays": stop - start, "files": files}


def _simulate(game: Game, config: RunConfig, start: int, stop: int) -> dict[str, pa.Table]:
    """A shard's tables. While progress is shown, simulated in chunks of about CHUNK_SECONDS, each counted as it
    ends, and joined: a play's rows depend only on the seed, its index and the configuration, so the joined tables
    equal one call's (tests/core/test_progress.py)."""
    counter = _plays_done
    if counter is None:
        return game.simulate(config, start, stop, events=config.events)
    block = game.block_size(config)
    parts, at, size = [], start, block
    while at < stop:
        end = min(at + size, stop)
        began = time.perf_counter()
        parts.append(game.simulate(config, at, end, events=config.events))
        with counter.get_lock():
            counter.value += end - at
        size = _next_chunk(end - at, time.perf_counter() - began, block)
        at = end
    if len(parts) == 1:
        return parts[0]
    return {name: pa.concat_tables([p[name] for p in parts]).combine_chunks() for name in parts[0]}


def _next_chunk(size: int, took: float, block: int) -> int:
    """The next chunk's plays: what takes CHUNK_SECONDS at the last chunk's pace, at most four times the last (a
    first chunk of one block is too short to time), a multiple of the block."""
    wanted = 4 * size if took <= 0 else min(4 * size, size * CHUNK_SECONDS / took)
    return max(block, int(wanted) // block * block)


class Progress:
    """A run's plays done, shown while it simulates: on a terminal a bar (tqdm, after 3 s) that moves as workers
    finish chunks of their shards; elsewhere (a CI log, a redirected `make report`) a line every LOG_SECONDS. A
    thread shows them, since the main thread waits on the executor, which returns whole shards only."""

    def __init__(self, label: str, total: int, stream=None):
        self.label, self.total, self.stream = label, total, sys.stderr if stream is None else stream
        self.counter = multiprocessing.get_context("fork").Value("q", 0)
        self.shards = 0  # plays of the shards returned: the count where workers cannot share the counter (Dask)
        self.began = self.logged = time.perf_counter()
        self.bar = None
        if self.stream.isatty():
            self.bar = tqdm(total=total, unit="play", unit_scale=total >= 10_000, delay=BAR_DELAY, desc=label,
                            file=self.stream)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Progress:
        global _plays_done
        _plays_done = self.counter
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        global _plays_done
        self._stop.set()
        self._thread.join()
        _plays_done = None
        if self.bar is not None:
            self.bar.update(self.done() - self.bar.n)
            self.bar.close()

    def shard_done(self, plays: int) -> None:
        self.shards += plays

    def done(self) -> int:
        return min(self.total, max(self.counter.value, self.shards))

    def _watch(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            with _showing:
                self._show()

    def _show(self) -> None:
        done, now = self.done(), time.perf_counter()
        if self.bar is not None:
            self.bar.update(done - self.bar.n)
        elif now - self.logged >= LOG_SECONDS:
            self.logged = now
            print(f"{self.label}: {done:,} of {self.total:,} plays ({done / max(1, self.total):.0%}) "
                  f"after {now - self.began:.0f} s", file=self.stream, flush=True)


def _run_files(lake: Lake, tables: list[str], game: str, run_id: str, pattern: str) -> set[str]:
    """A run's files matching `pattern` in the given tables, one listing of its folder per table."""
    return {f for t in tables for f in lake.glob(f"{t}/game={game}/run_id={run_id}/{pattern}")}


def _load_kernels(configs: list[RunConfig]) -> str:
    """One game's kernels (one config per kernel it needs), compiled or loaded in one process: they share blocks."""
    game = get_game(configs[0].game)
    for config in configs:
        game.simulate(config, 0, game.block_size(config), events=False)
    return game.name


def compile_kernels(configs: list[RunConfig], workers: int | None = None) -> None:
    """Compile the kernels the games among `configs` need (Game.kernel_of) that this machine has not compiled
    yet (jit.compiled_here), one process per game and core at a time, before a batch runs them one after the
    other. A first compile takes minutes for a large kernel; games compiled side by side cost the slowest one,
    not the sum, and no two of a run's workers compile the same kernel. A compiled kernel is left to the runs to
    load. A first compile is announced with the time it usually takes, and timed."""
    needed: dict[str, dict[str, RunConfig]] = {}
    for config in configs:
        needed.setdefault(config.game, {}).setdefault(get_game(config.game).kernel_of(config), config)
    cold = {name: [config for kernel, config in kernels.items()
                   if not compiled_here(get_game(name).package, kernel)] for name, kernels in needed.items()}
    cold = {name: todo for name, todo in cold.items() if todo}
    if not cold:
        return
    workers = min(len(cold), workers or os.cpu_count() or 1)
    games_ = {get_game(name): sum(KERNEL_COMPILE_WEIGHT.get(get_game(name).kernel_of(c), 1.0) for c in todo)
              for name, todo in cold.items()}
    print(f"simlib: compiling the kernels of {', '.join(g.title.split(' (')[0] for g in games_)} first: once per "
          f"machine, and again after an edit to a game's rules; usually {_compile_estimate(games_, workers)}",
          flush=True)
    began = time.perf_counter()
    if workers >= 2:
        # Longest first, so that the slowest compile starts at once (its sources' size stands in for its time).
        order = sorted(cold.values(), key=lambda c: -_compiled_size(get_game(c[0].game)))
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=worker_start,
                                 initargs=(os.getpid(),)) as pool:
            list(pool.map(_load_kernels, order))
    else:
        for todo in cold.values():
            _load_kernels(todo)
    for name, todo in cold.items():
        for config in todo:
            mark_compiled(get_game(name).package, get_game(name).kernel_of(config))
    print(f"simlib: kernels compiled in {time.perf_counter() - began:.0f} s", flush=True)


def _compile_estimate(games: dict[Game, float], workers: int) -> str:
    """The first compile's usual time: the games' compiled sources' sizes at COMPILE_SECONDS_PER_KB, times the
    weight of the kernels to compile (KERNEL_COMPILE_WEIGHT), the largest first on the least busy worker (as
    compile_kernels runs them)."""
    busy = [0.0] * workers
    for size in sorted((_compiled_size(g) * weight for g, weight in games.items()), reverse=True):
        busy[busy.index(min(busy))] += size / 1000 * COMPILE_SECONDS_PER_KB
    minutes = max(busy) / 60
    side_by_side = f", {workers} games side by side" if workers > 1 else ""
    usual = "under a minute" if minutes < 1 else f"about {minutes:.0f} minute{'s' if minutes >= 1.5 else ''}"
    return usual + side_by_side


def _compiled_size(game: Game) -> int:
    return sum(path.stat().st_size for path in compiled_sources(game.package))


def _runs_row(game: Game, config: RunConfig, run_id: str, shard_size: int, started: datetime,
              status: str, manifest: str | None = None) -> pa.Table:
    ended = None if status == "running" else datetime.now(timezone.utc)
    row = {
        "rules_version": game.rules_version, "rules_versions": json.dumps(game.rules_versions()),
        "simlib_version": __version__, "config": config.to_json(),
        "seed": config.seed, "players": config.players, "policies": ",".join(map(str, config.policies)),
        "plays": config.plays, "shard_size": shard_size, "started_at": started, "ended_at": ended,
        "status": status, "manifest": manifest,
    }
    return pa.Table.from_pylist([row], schema=RUNS_SCHEMA)


def run(config: RunConfig, lake: Lake | Path | str, workers: int | None = None,
        shard_size: int = DEFAULT_SHARD_SIZE, progress: bool = True, executor: Executor | None = None) -> RunResult:
    """Simulate every play of `config` into the lake; resumes an interrupted run with the same id, and mends a
    complete one whose files no longer match its manifest. The shards run on `executor` (default: `workers`
    local processes). One writer per run: a second one leaves with one line."""
    game = get_game(config.game)
    lake = Lake.at(lake)
    if shard_size <= 0:
        raise SimlibError(f"--shard-size must be positive, not {shard_size}")
    check_parts(config.plays, shard_size)
    if executor is not None and workers is not None:
        raise SimlibError("give workers or an executor, not both: an executor has its own workers")
    executor = executor or LocalExecutor(workers)
    lake.check_writable()
    run_id = config.run_id(game.rules_versions())
    with lake.lock(f"{game.name}-{run_id}", f"run {run_id} of {game.name}"):
        return _run_locked(game, config, lake, run_id, executor, shard_size, progress)


def _run_locked(game: Game, config: RunConfig, lake: Lake, run_id: str, executor: Executor, shard_size: int,
                progress: bool) -> RunResult:
    try:
        previous = read_run(lake, game.name, run_id)
    except Exception:  # noqa: BLE001 - an unreadable runs row: the run starts again from nothing it cannot trust
        previous = None
    tables = _tables_for(game, config)
    if previous is not None and previous["status"] == "complete":
        found = run_files(lake, game.name, run_id)
        found.row = previous
        if not mismatches(found):
            return RunResult(run_id, lake, config.plays, 0, False, True)
    if previous is not None:
        shard_size = previous["shard_size"]  # resume with the same part boundaries
    else:
        shard_size = min(shard_size, -(-config.plays // executor.workers))  # enough shards for every worker
    started = previous["started_at"] if previous else datetime.now(timezone.utc)
    shards = _shards(config.plays, game.block_size(config), shard_size)
    kept = _kept_parts(lake, game, config, run_id, shards, previous)
    todo = [s for s in shards if s[0] not in kept]
    runs_path = lake.part_path("runs", game.name, run_id, 0)
    lake.write_table(_runs_row(game, config, run_id, shard_size, started, "running"), runs_path)

    total = sum(stop - start for _, start, stop in todo)
    shown = Progress(f"{game.name}: {setup_words(game, config)}", total) if progress else nullcontext()
    write_shard = partial(_write_shard, config, lake, run_id)
    warm_up = partial(game.simulate, config, 0, game.block_size(config), events=config.events)
    written = dict(kept)
    try:
        # The display is on before the executor forks its workers (they inherit its counter); on an error or
        # Ctrl-C, the executor stops before the run's status is written.
        with shown, closing(executor.map_shards(write_shard, todo, warm_up)) as shards_done:
            for entry in shards_done:
                written[entry["part"]] = entry
                if progress:
                    shown.shard_done(entry["plays"])
    except KeyboardInterrupt:
        lake.write_table(_runs_row(game, config, run_id, shard_size, started, "interrupted"), runs_path)
        raise
    except BaseException:
        lake.write_table(_runs_row(game, config, run_id, shard_size, started, "failed"), runs_path)
        raise
    # Parts a killed writer was writing, since written again in full: the lock says no one else writes here.
    for stale in _run_files(lake, [*tables, "runs"], game.name, run_id, ".*.tmp"):
        lake.remove(stale)
    if sorted(written) != [part for part, _, _ in shards]:  # a shard lost on the way: never a complete run
        raise SimlibError(f"run {run_id} of {game.name}: parts {sorted(set(range(len(shards))) - set(written))} "
                          f"were not written; run the same command again to resume")
    manifest = manifest_json(written.values())
    lake.write_table(_runs_row(game, config, run_id, shard_size, started, "complete", manifest), runs_path)
    return RunResult(run_id, lake, config.plays, len(todo), previous is not None, False)


def _kept_parts(lake: Lake, game: Game, config: RunConfig, run_id: str, shards: list[tuple[int, int, int]],
                previous: dict | None) -> dict[int, dict]:
    """The parts already in the lake that the run keeps, with their manifest entries: every table's file there,
    whole, its games file a row per play of the part, and (for a run that completed once) as its manifest
    recorded it. A run without a runs row keeps nothing: its parts' boundaries are unknown. Files of no part of
    the plan are removed; a part with any table's file missing, damaged or unlike its manifest is simulated
    again."""
    tables = _tables_for(game, config)
    on_disk = run_files(lake, game.name, run_id).paths
    recorded = expected_files(previous["manifest"]) if previous and previous.get("manifest") else {}
    plan = {f"{t}/part-{part:05d}.parquet" for part, _, _ in shards for t in tables} if previous else set()
    for name in sorted(set(on_disk) - plan):
        lake.remove(on_disk[name])
    kept = {}
    for part, start, stop in shards:
        files = {}
        for table in tables:
            name = f"{table}/part-{part:05d}.parquet"
            entry = describe_file(lake, on_disk[name]) if name in plan and name in on_disk else None
            if entry is None or recorded.get(name, entry) != entry:
                break
            files[table] = entry
        else:
            if files["games"]["rows"] == stop - start:  # a row per play: the part holds the plays it stands for
                kept[part] = _part_entry(part, start, stop, files)
    return kept
