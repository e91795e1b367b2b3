"""Reading the game's data files (tiles, layout, specials): a built-in name or a path, kept as text so that a
run carries its data with it (the run id hashes it; a worker or a replay needs no file), and one clear
SimlibError line for every problem, naming the entry."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ...core.errors import SimlibError
from ...core.params import data_file

PACKAGE = Path(__file__).parent


def file_text(spec: str, built_in: Path, what: str) -> str:
    """The text of a built-in data file (`built_in`, if it exists) or of the file at path `spec`."""
    path = data_file(spec, built_in.parent, what)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SimlibError(f"cannot read {what} {spec}: {getattr(exc, 'strerror', None) or exc}") from None


def parse(text: str, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SimlibError(f"{where} is not valid TOML: {exc}") from None


def tables(raw: dict, key: str, where: str) -> list[dict]:
    """The `[[key]]` entries of a file, checked to be a list of tables."""
    entries = raw.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise SimlibError(f"{where}: {key} must be a list of [[{key}]] tables")
    return entries


def integer(entry: dict, key: str, where: str, low: int | None = None, high: int | None = None) -> int:
    value = entry.get(key)
    ok = isinstance(value, int) and not isinstance(value, bool)
    if not ok or (low is not None and value < low) or (high is not None and value > high):
        span = f" from {low} to {high}" if low is not None and high is not None else ""
        raise SimlibError(f"{where}: {key} must be an integer{span} (found {value!r})")
    return value
