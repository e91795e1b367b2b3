"""Games are found through the `simlib.games` entry-point group, so adding one never edits the core."""

from __future__ import annotations

import importlib.util
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path

from .errors import SimlibError
from .game import Game
from .jit import drop_stale_cache


@cache
def games() -> dict[str, Game]:
    found = {}
    registered = list(entry_points(group="simlib.games"))
    # Every game's Numba cache is checked before any game is imported: a game's package may import
    # another's kernel (a scenario on a base game's engine).
    for ep in registered:
        package = _package_folder(ep.module)
        if package is not None:
            drop_stale_cache(package)
    for ep in registered:
        game = ep.load()
        found[game.name] = game
    return dict(sorted(found.items()))


def _package_folder(module: str) -> Path | None:
    """The folder of the package that holds `module`, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def get_game(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        known = ", ".join(games()) or "none installed"
        raise SimlibError(f"unknown game {name!r} (known: {known})") from None
