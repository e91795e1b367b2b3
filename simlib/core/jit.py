"""Keeping Numba's on-disk cache honest.

Numba (cache=True) checks only the source file of the function it compiled, not the files of the
functions it calls: after an edit to, say, a game's policies.py, the kernel would still load code
compiled from the old policies. A game calls `drop_stale_cache` before importing its kernel; it
clears the cache of the game's package and the core whenever the game's sources or the core's
compiled modules changed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_CORE = Path(__file__).parent
_COMPILED_CORE = (_CORE / "rng.py",)  # the core's own Numba code, called by every game's kernel


def drop_stale_cache(package: Path) -> None:
    folders = [package, _CORE]
    digest = hashlib.sha256()
    for source in sorted(package.glob("*.py")) + list(_COMPILED_CORE):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    stamp = package / "__pycache__" / "numba-sources.sha256"
    current = digest.hexdigest()
    try:
        if stamp.read_text() == current:
            return
    except OSError:
        pass
    for folder in folders:
        for cached in list((folder / "__pycache__").glob("*.nb[ic]")):
            cached.unlink(missing_ok=True)
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(current)
    except OSError:
        pass  # a read-only install: nothing cached there either
