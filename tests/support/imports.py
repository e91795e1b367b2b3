"""The project's import graph, read with `ast`: every module under a package folder and the project modules
each imports, wherever the import is written (inside a function or under TYPE_CHECKING too)."""

from __future__ import annotations

import ast
from pathlib import Path

from support.paths import SIMLIB


def module_names(root: Path) -> dict[str, Path]:
    """Every module under the package folder `root`, by dotted name (a package by its own name)."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The project modules `module` imports. `from a import b` counts as module a.b when there is one, else as a;
    relative imports are resolved against the module's package."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names}
    return {name for name in found if name in known and name != module}


def import_graph(root: Path = SIMLIB) -> dict[str, set[str]]:
    names = module_names(root)
    return {module: imports_of(module, path, set(names)) for module, path in names.items()}
