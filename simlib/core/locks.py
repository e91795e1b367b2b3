"""One writer at a time: an exclusive lock on a local file, held for a block, that dies with its process."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import SimlibError


@contextmanager
def hold(path: Path, what: str) -> Iterator[None]:
    """Hold the lock at `path` for the block, or leave at once with one line naming `what` (the work another
    process is doing). The kernel drops the lock when its holder ends, kill -9 included: no stale lock files
    to clean up (the empty file stays, and is reused)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Read-only: a lock file another user made locks for everyone (flock needs no write access).
        handle = open(os.open(path, os.O_RDONLY | os.O_CREAT, 0o666))
    except OSError as exc:
        raise SimlibError(f"cannot lock {path}: {exc.strerror}") from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SimlibError(f"{what} is being written by another process (lock {path}): wait for it to end, "
                              f"then run this again") from None
        yield
