"""Workbench jobs: a designer's "what if?" run chunk by chunk until it is stopped, its budget spent, or every
interval narrow enough; one job at a time, so the server is one writer to its lake.

A job is a sweep (core/sweep.py) of one table: the baseline and each variant. Chunk k is that sweep on seed
seed + k (chunk.py), so every chunk's plays are new and every chunk is a command-line sweep with its own run ids.
The first chunk is small, for a first verdict within seconds; each next one doubles while a chunk takes under
CHUNK_SECONDS, so the page is updated every few seconds however fast the game plays. The chunks' sizes are kept
with their commands: rerunning those commands gives the same runs and the same pooled numbers.

Chunks run in one worker process (spawned once, kernels loaded there), so the server's own thread is never held
by a kernel and the page stays responsive. Stopping lets the running chunk finish (a chunk is a few seconds) and
loses nothing: resuming a job goes on with its next seed, and a chunk cut short by a killed server is a run that
`runner.run` resumes.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core import limits
from ..core.errors import SimlibError
from ..core.executors import worker_start
from ..core.registry import games, get_game
from .chunk import ChunkRequest, PlayRequest, plays_per_second, run_chunk, tell_play
from .tally import Tally

FIRST_PLAYS = 1000  # the first chunk's plays per run: a verdict within seconds at random players
MIN_FIRST_PLAYS = 100  # and at the least, however slow the line-up
CHUNK_SECONDS = 4.0  # a chunk that took longer than this is not doubled
DEFAULT_BUDGET = 200_000  # plays per run
DEFAULT_WIDTH = 2.0  # percentage points (a share) or percent of the baseline's mean (any other figure)


class FieldErrors(SimlibError):
    """Bad values in a job's form: a message per field, shown beside it; nothing runs."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


@dataclass(frozen=True)
class JobSpec:
    """A job as the page sends it, checked."""

    game: str
    players: int
    lineup: str
    vary: dict[str, list[Any]]
    budget: int = DEFAULT_BUDGET
    width: float = DEFAULT_WIDTH
    seed: int = 1

    @classmethod
    def parse(cls, data: dict) -> JobSpec:
        """The form's values, checked field by field: every bad field is named with its own message."""
        errors: dict[str, str] = {}
        name = data.get("game")
        if name not in games():
            raise FieldErrors({"game": f"unknown game {name!r}"})
        game = get_game(name)
        players = _whole(data.get("players"), "players", errors)
        if players is not None and not game.min_players <= players <= game.max_players:
            errors["players"] = f"{game.title} takes {game.min_players} to {game.max_players} players"
        vary, params = {}, game.parameters()
        for key, text in (data.get("vary") or {}).items():
            values = [v.strip() for v in str(text).split(",") if v.strip()]
            if key not in params or params[key].derived:
                errors[f"vary:{key}"] = "not a rule parameter you can set"
                continue
            if not values:
                continue
            try:
                vary[key] = [params[key].coerce(v) for v in values]
            except SimlibError as exc:
                errors[f"vary:{key}"] = str(exc).removeprefix(f"option {key}: ")
        if not vary and not any(k.startswith("vary:") for k in errors):
            errors["vary"] = "change at least one rule parameter: type its new value (or several, with commas)"
        budget = _whole(data.get("budget", DEFAULT_BUDGET), "budget", errors, limits.BUDGET)
        width = _positive(data.get("width", DEFAULT_WIDTH), "width", errors)
        seed = _whole(data.get("seed", 1), "seed", errors, limits.SEED)
        lineup = str(data.get("lineup") or "").strip()
        if not lineup:
            errors["lineup"] = "choose who plays"
        if errors:
            raise FieldErrors(errors)
        spec = cls(name, players, lineup, vary, budget, width, seed)
        try:
            spec.block()  # every run configured: the line-up and the variants, as the command line checks them
        except SimlibError as exc:
            raise FieldErrors({"lineup" if "polic" in str(exc) else "vary": str(exc)}) from None
        return spec

    def request(self, chunk: int, plays: int, lake: str) -> ChunkRequest:
        return ChunkRequest(self.game, self.players, self.lineup, self.vary, plays, self.seed + chunk, lake)

    def block(self) -> int:
        """The plays of every chunk are a multiple of this: every run's block (a Die Mauer match's rounds)."""
        sweep = self.request(0, FIRST_PLAYS, "lake").sweep()
        return math.lcm(*(sweep.game.block_size(config) for config, _ in sweep.runs()))


def _whole(value: Any, name: str, errors: dict, limit: limits.Limit | None = None) -> int | None:
    try:
        number = int(str(value).strip().replace(",", "").replace("_", ""))
    except ValueError:
        errors[name] = f"{value!r} is not a whole number"
        return None
    if limit is not None:
        try:
            limit.check(name, number)
        except SimlibError as exc:
            errors[name] = str(exc)
            return None
    return number


def _positive(value: Any, name: str, errors: dict) -> float | None:
    try:
        number = float(str(value).strip())
    except ValueError:
        number = math.nan
    if not number > 0 or math.isinf(number):
        errors[name] = f"{value!r} is not a number above 0"
        return None
    return number


def first_plays(speed: float, processes: int, runs: int, block: int) -> int:
    """The first chunk's plays per run: FIRST_PLAYS, or fewer (down to MIN_FIRST_PLAYS) where this line-up is so slow
    (a search) that they would take more than CHUNK_SECONDS on this machine."""
    fit = int(speed * processes * CHUNK_SECONDS / runs)
    return max(block, min(FIRST_PLAYS, max(MIN_FIRST_PLAYS, fit)) // block * block)


def next_plays(spec: JobSpec, done: list[dict], block: int, first: int = FIRST_PLAYS) -> int:
    """The next chunk's plays per run: `first`, then double while a chunk takes under CHUNK_SECONDS, never past
    the budget; a multiple of the block."""
    played = sum(c["plays"] for c in done)
    if not done:
        plays = first
    else:
        last = done[-1]
        plays = last["plays"] * 2 if last["seconds"] < CHUNK_SECONDS else last["plays"]
    plays = min(plays, spec.budget - played)
    return max(block, plays // block * block)


@dataclass
class Job:
    id: int
    spec: JobSpec
    lake: str
    state: str = "queued"  # queued, running, stopping, stopped, done, failed
    reason: str = ""  # why it stopped, in words
    chunks: list[dict] = field(default_factory=list)
    history: list[dict] = field(default_factory=list)  # after each chunk: plays and the widest interval
    verdicts: dict | None = None
    started: float = field(default_factory=time.time)
    first_verdict_seconds: float | None = None
    stop_asked: bool = False
    tally: Tally = field(default_factory=Tally, repr=False)

    def public(self) -> dict:
        """The job as JSON holds it (an interval's missing end, NaN, as null)."""
        return _finite({"id": self.id, "state": self.state, "reason": self.reason, "spec": asdict(self.spec),
                        "chunks": self.chunks, "history": self.history, "verdicts": self.verdicts,
                        "first_verdict_seconds": self.first_verdict_seconds})


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


class Workbench:
    """The server's jobs and their one worker: a queue, run one job at a time in a thread of its own."""

    def __init__(self, lake: str, workers: int | None = None):
        self.lake, self.workers = lake, workers
        self.jobs: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._queue: list[int] = []
        self._wake = threading.Condition()
        self._pool: ProcessPoolExecutor | None = None
        self._speeds: dict[tuple, float] = {}
        self._thread = threading.Thread(target=self._serve, name="workbench-jobs", daemon=True)
        self._closed = False
        self._thread.start()

    def submit(self, spec: JobSpec) -> Job:
        job = Job(next(self._ids), spec, self.lake)
        with self._wake:
            self.jobs[job.id] = job
            self._queue.append(job.id)
            self._wake.notify()
        return job

    def stop(self, job_id: int) -> Job:
        job = self.job(job_id)
        with self._wake:
            if job.state == "queued":
                self._queue.remove(job.id)
                job.state, job.reason = "stopped", "stopped before it started"
            elif job.state == "running":
                job.stop_asked, job.state = True, "stopping"
        return job

    def resume(self, job_id: int) -> Job:
        job = self.job(job_id)
        with self._wake:
            if job.state in ("stopped", "failed") and not self._done(job):
                job.state, job.reason, job.stop_asked = "queued", "", False
                job.started = time.time()
                self._queue.append(job.id)
                self._wake.notify()
        return job

    def queued_ahead(self, job: Job) -> int:
        """Jobs that run before this one (the one running included)."""
        with self._wake:
            running = sum(j.state in ("running", "stopping") for j in self.jobs.values())
            return running + (self._queue.index(job.id) if job.id in self._queue else 0)

    def tell_play(self, request: PlayRequest) -> dict:
        """One play told step by step, in the worker (it re-simulates the play with the game's kernel); after the
        chunk that is running, if any."""
        try:
            return self.pool().submit(tell_play, request).result()
        except BrokenProcessPool:
            self._pool = None
            raise SimlibError("the worker process ended while it told the play: try again") from None

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def job(self, job_id: int) -> Job:
        if job_id not in self.jobs:
            raise SimlibError(f"no job {job_id}")
        return self.jobs[job_id]

    def pool(self) -> ProcessPoolExecutor:
        """The worker process, started once: spawned (not forked from a server with threads), ending with the
        server however it ends."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=worker_start, initargs=(os.getpid(),))
        return self._pool

    def _serve(self) -> None:
        while True:
            with self._wake:
                while not self._queue and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
                job = self.jobs[self._queue.pop(0)]
                job.state = "running"
            try:
                self._run(job)
            except SimlibError as exc:
                job.state, job.reason = "failed", str(exc)
            except Exception as exc:  # the job fails in words; the server and the next jobs go on
                job.state, job.reason = "failed", f"{type(exc).__name__}: {exc}"

    def _done(self, job: Job) -> str:
        """Why the job has nothing left to run ("" while it has)."""
        played = sum(c["plays"] for c in job.chunks)
        if played >= job.spec.budget:
            return f"the budget of {job.spec.budget:,} plays per run is spent"
        widest = job.history[-1]["widest"] if job.history else None
        if job.history and (widest is None or widest <= job.spec.width):
            return (f"every interval is narrower than {job.spec.width:g}" if widest is not None
                    else "no variant's plays differ from the baseline's: nothing to narrow")
        return ""

    def speed(self, game: str, players: int, lineup: str) -> dict:
        """One process's plays a second of a line-up, measured once in the worker (which loads the kernel for the
        job to come), and the processes a chunk runs on."""
        key = (game, players, lineup)
        if key not in self._speeds:
            try:
                self._speeds[key] = self.pool().submit(plays_per_second, game, players, lineup).result()
            except BrokenProcessPool:
                self._pool = None
                raise SimlibError("the worker process ended while it measured: try again") from None
        return {"plays_per_second": self._speeds[key], "processes": self.workers or os.cpu_count() or 1,
                "first_plays": FIRST_PLAYS, "chunk_seconds": CHUNK_SECONDS}

    def _run(self, job: Job) -> None:
        block = job.spec.block()
        speed = self.speed(job.spec.game, job.spec.players, job.spec.lineup)
        runs = len(job.spec.request(0, block, job.lake).sweep().runs())
        first = first_plays(speed["plays_per_second"], speed["processes"], runs, block)
        while not (reason := self._done(job)):
            if job.stop_asked:
                job.state, job.reason = "stopped", "stopped by the designer"
                return
            request = job.spec.request(len(job.chunks), next_plays(job.spec, job.chunks, block, first), job.lake)
            try:
                result = self.pool().submit(run_chunk, request, self.workers).result()
            except BrokenProcessPool:
                self._pool = None  # the next chunk starts a new worker
                raise SimlibError("the worker process ended while it ran a chunk: resume the job to run it again") \
                    from None
            job.tally.add(result)
            job.chunks.append({"seed": request.seed, "plays": request.plays, "seconds": round(result.seconds, 2),
                               "command": request.command_line(), "run_ids": [r.run_id for r in result.runs]})
            game = get_game(job.spec.game)
            job.verdicts = job.tally.verdicts(game, job.spec.lineup.split(",") * (
                job.spec.players if "," not in job.spec.lineup else 1))
            job.history.append({"plays": job.tally.plays, "widest": job.verdicts["widest"], "intervals": [
                {"variant": v["words"], "metric": m["name"], "share": m["share"], "difference": m["difference"],
                 "lo": m["difference_lo"], "hi": m["difference_hi"]}
                for v in job.verdicts["variants"] for m in v["metrics"] if not m["unchanged"]]})
            if job.first_verdict_seconds is None:
                job.first_verdict_seconds = round(time.time() - job.started, 2)
        job.state, job.reason = "done", reason
