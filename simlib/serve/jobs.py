"""Workbench jobs: a designer's "what if?" run chunk by chunk until it is stopped, its budget spent, or every
interval narrow enough (spec.py); one job at a time, so the server is one writer to its lake.

A job is a sweep (core/sweep.py) of one table: the baseline and each variant; chunk k is that sweep on seed
seed + k (chunk.py), a command-line sweep with its own run ids. Chunks run in one worker process (spawned once,
kernels loaded there), so the server's own threads are never held by a kernel and the page stays responsive.

Stopping lets the running chunk finish; every finished chunk's runs stay in the lake, and resuming goes on with the
next seed. A job itself lives in the server's memory: a restarted server has no jobs, though their runs are in the
lake (the report reads them), and a chunk cut short by a killed server is a run that `runner.run` resumes when the
same chunk runs again.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.errors import SimlibError
from ..core.executors import worker_start
from ..core.registry import get_game
from .chunk import PlayRequest, plays_per_second, run_chunk, tell_play
from .spec import JobSpec, first_plays, next_plays, why_done
from .tally import Tally


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
    """The server's jobs and their one worker: a queue, run one job at a time in a thread of its own. A job's state,
    chunks, verdicts and history change only under the lock, together, so a poll never sees a chunk without its
    verdicts."""

    def __init__(self, lake: str, workers: int | None = None):
        self.lake, self.workers = lake, workers
        self.jobs: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._queue: list[int] = []
        self._wake = threading.Condition()
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        # Every call goes to the worker from this one thread, which lives as long as the server: the thread that
        # submits first spawns the worker, and the worker's parent-death signal (worker_start) comes when that
        # thread ends. A request's thread ends after a few idle seconds, and the worker would die with it. So `close`,
        # which ends this thread, ends the worker at once, as the server's exit would: a chunk cut short is a run
        # that runner.run resumes when it runs again.
        self._submitter = ThreadPoolExecutor(1, thread_name_prefix="workbench-submit")
        self._speeds: dict[tuple, float] = {}
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="workbench-jobs", daemon=True)
        self._thread.start()

    # What the page asks ---------------------------------------------------------------------------------------

    def submit(self, spec: JobSpec) -> Job:
        with self._wake:
            job = Job(next(self._ids), spec, self.lake)
            self.jobs[job.id] = job
            self._queue.append(job.id)
            self._wake.notify()
        return job

    def stop(self, job_id: int) -> Job:
        with self._wake:
            job = self.job(job_id)
            if job.state == "queued":
                self._queue.remove(job.id)
                job.state, job.reason = "stopped", "stopped before it started"
            elif job.state == "running":
                job.stop_asked, job.state = True, "stopping"
        return job

    def resume(self, job_id: int) -> Job:
        with self._wake:
            job = self.job(job_id)
            if job.state in ("stopped", "failed"):
                reason = self._why_done(job)
                if reason:
                    job.reason = f"nothing left to run: {reason}"
                else:
                    job.state, job.reason, job.stop_asked = "queued", "", False
                    job.started = time.time()
                    self._queue.append(job.id)
                    self._wake.notify()
        return job

    def job(self, job_id: int) -> Job:
        if job_id not in self.jobs:
            raise SimlibError(f"no job {job_id}")
        return self.jobs[job_id]

    def public(self, job: Job) -> dict:
        """The job as JSON holds it, and how many jobs run before it."""
        with self._wake:
            running = sum(j.state in ("running", "stopping") for j in self.jobs.values())
            ahead = running + (self._queue.index(job.id) if job.id in self._queue else 0)
            return job.public() | {"ahead": ahead}

    def speed(self, game: str, players: int, lineup: str) -> dict:
        """One process's plays a second of a line-up, measured once in the worker (which loads the kernels for the
        job to come); the processes a chunk runs on; and what a first chunk of the baseline and one variant would
        be: its plays per run and its seconds."""
        key = (game, players, lineup)
        if key not in self._speeds:
            self._speeds[key] = self._in_worker(plays_per_second, game, players, lineup)
        rate, processes = self._speeds[key], self.workers or os.cpu_count() or 1
        first = first_plays(rate, processes, 2, 1)
        return {"plays_per_second": rate, "processes": processes, "first_plays": first,
                "first_seconds": 2 * first / (rate * processes)}

    def tell_play(self, request: PlayRequest) -> dict:
        """One play told step by step, in the worker (it re-simulates the play with the game's kernel); after the
        chunk that is running, if any."""
        return self._in_worker(tell_play, request)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        with self._pool_lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
        self._submitter.shutdown(wait=False)

    # The worker -----------------------------------------------------------------------------------------------

    def _in_worker(self, function, *args):
        """`function(*args)` in the worker process, started once: spawned (not forked from a server with threads),
        ending with the server however it ends; a worker that died is replaced for the next call."""
        with self._pool_lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=worker_start, initargs=(os.getpid(),))
            pool = self._pool
        try:
            return self._submitter.submit(pool.submit, function, *args).result().result()
        except BrokenProcessPool:
            with self._pool_lock:
                if self._pool is pool:
                    self._pool = None
            raise SimlibError("the worker process ended while it worked: try again (a job: Resume)") from None

    # The job thread -------------------------------------------------------------------------------------------

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
                reason = self._run(job)
            except SimlibError as exc:
                reason = f"failed: {exc}"
            except Exception as exc:  # the job fails in words; the server and the next jobs go on
                reason = f"failed: {type(exc).__name__}: {exc}"
            with self._wake:
                if reason.startswith("failed: "):
                    job.state, job.reason = "failed", reason.removeprefix("failed: ")
                elif reason == STOPPED:
                    job.state, job.reason = "stopped", reason
                else:
                    job.state, job.reason = "done", reason

    def _why_done(self, job: Job) -> str:
        widest = job.history[-1]["widest"] if job.history else None
        return why_done(job.spec, sum(c["plays"] for c in job.chunks), widest, bool(job.history))

    def _run(self, job: Job) -> str:
        """Chunk after chunk until the job has run enough or is stopped; why it ended."""
        spec, game = job.spec, get_game(job.spec.game)
        block = spec.block()
        speed = self.speed(spec.game, spec.players, spec.lineup)
        first = first_plays(speed["plays_per_second"], speed["processes"], spec.runs(), block)
        while not (reason := self._why_done(job)):
            if job.stop_asked:
                return STOPPED
            request = spec.request(len(job.chunks), next_plays(spec.budget, job.chunks, block, first), job.lake)
            result = self._in_worker(run_chunk, request, self.workers)
            job.tally.add(result)
            verdicts = job.tally.verdicts(game, spec.seats())
            chunk = {"seed": request.seed, "plays": request.plays, "seconds": round(result.seconds, 2),
                     "command": request.command_line(), "run_ids": [r.run_id for r in result.runs]}
            with self._wake:  # one step for a poll: the chunk, its verdicts and its history together
                job.chunks.append(chunk)
                job.verdicts = verdicts
                job.history.append(_history(verdicts))
                if job.first_verdict_seconds is None:
                    job.first_verdict_seconds = round(time.time() - job.started, 2)
        return reason


STOPPED = "stopped by the designer"


def _history(verdicts: dict) -> dict:
    """What the narrowing panels draw of one chunk: each changed figure's paired difference and interval."""
    return {"plays": verdicts["plays"], "widest": verdicts["widest"], "intervals": [
        {"variant": v["words"], "metric": m["name"], "share": m["share"], "difference": m["difference"],
         "lo": m["difference_lo"], "hi": m["difference_hi"]}
        for v in verdicts["variants"] for m in v["metrics"] if not m["unchanged"]]}
