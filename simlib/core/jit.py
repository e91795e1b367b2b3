"""Keeping Numba's on-disk cache honest.

Numba (cache=True) checks only the source file of the function it compiled, not the files of the
functions it calls: after an edit to, say, a game's policies.py, the kernel would still load code
compiled from the old policies. A game calls `drop_stale_cache` before importing its kernel. It hashes
the game package's sources and every source they import from the games and the core, transitively
(`compiled_sources`: relative imports and `simlib.` imports, read with `ast`), so a package compiled
against another game's engine (a scenario such as Die Mauerspechte on Catan's) follows that engine's
edits. When the hash changed, the compiled files of every package involved are cleared. The stamp
(`__pycache__/numba-sources.sha256` in the package) lists the sources it hashed, so an unchanged tree is
checked by hashing them again, without parsing.

Imports of the rest of simlib (the analysis side, the command line) are not followed: no kernel is
compiled from them.
"""

from __future__ import annotations

import ast
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

_SIMLIB = Path(__file__).resolve().parent.parent
_FOLLOWED = (_SIMLIB / "games", _SIMLIB / "core")  # where compiled code and the values it reads live
# A game's files that no kernel is compiled from: its report sections (the analysis side). An edit there
# keeps the compiled kernels.
_NOT_COMPILED = ("report.py",)
_COMPILED_MARK = "numba-compiled"


def _package_files(package: Path) -> list[Path]:
    return sorted(p for p in package.glob("*.py") if p.name not in _NOT_COMPILED)


def drop_stale_cache(package: Path) -> None:
    package = package.resolve()
    stamp = package / "__pycache__" / "numba-sources.sha256"
    try:
        recorded = stamp.read_text()
    except OSError:
        recorded = ""
    if recorded and _still_holds(package, recorded):
        return
    sources = compiled_sources(package)
    current = _stamp(package, sources)
    if current == recorded:
        return
    for folder in sorted({source.parent for source in sources}):
        for cached in list((folder / "__pycache__").glob("*.nb[ic]")):
            cached.unlink(missing_ok=True)
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(current)
    except OSError:
        pass  # a read-only install: nothing cached there either


def compiled_here(package: Path, kernel: str = "") -> bool:
    """Whether this machine's Numba cache holds the package's `kernel` (Game.kernel_of: "scripted", "search") as
    its sources now are, as far as simlib knows: the runner marks a kernel once it compiled it, and the mark names
    the sources' digest (the stamp drop_stale_cache keeps) and the cache folder, so an edit or another
    NUMBA_CACHE_DIR unmarks it."""
    try:
        return _mark(package, kernel).read_text() == _compiled_text(package)
    except OSError:
        return False


def mark_compiled(package: Path, kernel: str = "") -> None:
    try:
        _mark(package, kernel).write_text(_compiled_text(package))
    except OSError:
        pass  # a read-only install: the notice is shown again, nothing else changes


def _mark(package: Path, kernel: str) -> Path:
    return package / "__pycache__" / (f"{_COMPILED_MARK}-{kernel}" if kernel else _COMPILED_MARK)


def _compiled_text(package: Path) -> str:
    try:
        digest = (package / "__pycache__" / "numba-sources.sha256").read_text().split("\n", 1)[0]
    except OSError:
        digest = ""
    return f"{digest}\n{os.environ.get('NUMBA_CACHE_DIR', '')}\n"


def _stamp(package: Path, sources: list[Path]) -> str:
    """A digest of the sources' names and contents, then their names (relative to the package), one a line."""
    names = [os.path.relpath(source, package) for source in sources]
    digest = hashlib.sha256()
    for name, source in zip(names, sources):
        digest.update(name.encode())
        digest.update(source.read_bytes())
    return "\n".join([digest.hexdigest(), *names]) + "\n"


def _still_holds(package: Path, recorded: str) -> bool:
    """The recorded sources are unchanged and the package has no new file, so its imports are the recorded
    ones too (the quick check, without parsing anything)."""
    sources = [(package / name).resolve() for name in recorded.splitlines()[1:]]
    if not set(_package_files(package)) <= set(sources):
        return False
    try:
        return _stamp(package, sources) == recorded
    except OSError:
        return False


def compiled_sources(package: Path) -> list[Path]:
    """The package's *.py (its report sections aside) and, transitively, the files of the modules they import
    from sibling packages, simlib's games and simlib's core; sorted."""
    package = package.resolve()
    followed = (package.parent, *_FOLLOWED)
    found: set[Path] = set()
    todo = _package_files(package)
    while todo:
        source = todo.pop()
        if source not in found:
            found.add(source)
            todo.extend(f for f in _imported_files(source) if any(f.is_relative_to(d) for d in followed))
    return sorted(found)


def _imported_files(source: Path) -> Iterator[Path]:
    """Files of the modules `source` imports by a relative name or a `simlib.` name (those that exist)."""
    try:
        tree = ast.parse(source.read_bytes(), str(source))
    except (SyntaxError, ValueError):
        return  # mid-edit: hashed all the same, and Python will say what is wrong when it is imported
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _module_files(_absolute(alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                module = _absolute(node.module or "")
            elif node.level <= len(source.parents):
                module = source.parents[node.level - 1].joinpath(*(node.module or "").split("."))
            else:
                continue
            if module is not None:
                yield from _module_files(module)
                for alias in node.names:  # `from package import module`
                    yield from _module_files(module / alias.name)


def _absolute(name: str) -> Path | None:
    parts = name.split(".")
    return _SIMLIB.parent.joinpath(*parts) if parts[0] == _SIMLIB.name else None


def _module_files(module: Path | None) -> Iterator[Path]:
    if module is not None:
        for path in (module.parent / f"{module.name}.py", module / "__init__.py"):
            if path.is_file():
                yield path
