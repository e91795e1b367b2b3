"""Where a run's shards are simulated: this machine's worker processes (the default), or a Dask cluster.

The runner hands an executor one task, `write_shard(part, start, stop) -> entry`, that simulates a shard and
writes its part files, and the shards to do; the executor yields each shard's entry (its plays and files, for
the run's manifest) as it finishes, in any order. A shard's part files depend only on its arguments, so where it
ran changes nothing in the lake.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Protocol

from .errors import SimlibError

Shard = tuple[int, int, int]  # (part, first play, play after the last)
SCHEDULER_ENV = "SIMLIB_DASK_SCHEDULER"
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent ends
# Reruns of a shard whose task raised (a store's passing error, say); a shard whose worker died is rerun by
# the scheduler itself, up to its `distributed.scheduler.allowed-failures` (3 by default).
DASK_RETRIES = 3


class Executor(Protocol):
    workers: int  # shards it runs at once: a run is cut into at least this many

    def map_shards(self, write_shard: Callable[[int, int, int], dict], shards: list[Shard],
                   warm_up: Callable[[], object]) -> Iterator[dict]:
        """Run `write_shard(*shard)` for every shard, yielding each one's result as it finishes. `warm_up`
        compiles the kernel where that saves each worker doing it."""


def worker_start(parent: int, ignore_ctrl_c: bool = False) -> None:
    """A worker process's first step: it ends when its parent `parent` does, however the parent ends (kill -9
    included), instead of simulating on, unseen, for minutes. Linux's parent-death signal, set from the
    worker itself; a parent already gone before it was set is caught by the check that follows. The signal comes
    when the parent's *thread* that started the worker ends: start workers from a thread that outlives them
    (a pool in a `with` block, or serve/jobs.py's submitting thread)."""
    if ignore_ctrl_c:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the C library this process runs on
    except (OSError, AttributeError):  # not Linux: workers end when their parent's pool shuts down
        return
    if os.getppid() != parent:
        os._exit(1)


class LocalExecutor:
    """Forked worker processes on this machine (one shard at a time in this process for one worker)."""

    def __init__(self, workers: int | None = None):
        if workers is not None and workers <= 0:
            raise SimlibError(f"--workers must be positive, not {workers}")
        self.workers = workers or os.cpu_count() or 1

    def map_shards(self, write_shard, shards, warm_up):
        workers = min(self.workers, max(1, len(shards)))
        if workers == 1:
            for shard in shards:
                yield write_shard(*shard)
            return
        warm_up()  # compile (or load the cached) kernel once in the parent, so forked workers share it
        # Workers ignore Ctrl-C (the parent cancels the queued shards and lets running ones finish) and end with
        # their parent.
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=worker_start, initargs=(os.getpid(), True))
        try:
            pending = {pool.submit(write_shard, *shard) for shard in shards}
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """The workers of a Dask cluster: each shard one task, each worker writing its own part files (so the
    lake must be one they all reach: a shared folder, or an object store)."""

    def __init__(self, client):
        self.client = client
        self.workers = max(1, sum(client.nthreads().values()))

    def map_shards(self, write_shard, shards, warm_up):
        from dask.distributed import as_completed

        # pure=False: a shard rerun after an interrupted run is a new task, not a cancelled one's key.
        futures = [self.client.submit(write_shard, *shard, retries=DASK_RETRIES, pure=False) for shard in shards]
        try:
            for future in as_completed(futures, loop=self.client.loop):
                yield future.result()
        finally:
            self.client.cancel(futures)  # on an error or Ctrl-C, the shards not yet run are dropped


@contextmanager
def open_executor(kind: str = "local", scheduler: str | None = None,
                  workers: int | None = None) -> Iterator[Executor]:
    """The executor the command line names: `local` (with `workers` processes) or `dask` (connected to the
    scheduler at `scheduler`, or at $SIMLIB_DASK_SCHEDULER, for as long as the block runs)."""
    if kind == "local":
        if scheduler:
            raise SimlibError("--scheduler is for --executor dask")
        yield LocalExecutor(workers)
        return
    if kind != "dask":
        raise SimlibError(f"--executor is local or dask, not {kind!r}")
    if workers is not None:
        raise SimlibError("--workers is for --executor local: a Dask cluster runs as many shards as it has threads")
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV)
    if not scheduler:
        raise SimlibError(f"--executor dask needs the scheduler's address: --scheduler tcp://HOST:8786 "
                          f"or {SCHEDULER_ENV}")
    try:
        from dask.distributed import Client
    except ImportError:
        raise SimlibError("--executor dask needs Dask: pip install 'simlib[dask]'") from None
    try:
        client = Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimlibError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        yield DaskExecutor(client)
    finally:
        client.close()
