"""Games are found through the `simlib.games` entry-point group, so adding one never edits the core."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from .errors import SimlibError
from .game import Game


@cache
def games() -> dict[str, Game]:
    found = {}
    for ep in entry_points(group="simlib.games"):
        game = ep.load()
        found[game.name] = game
    return dict(sorted(found.items()))


def get_game(name: str) -> Game:
    try:
        return games()[name]
    except KeyError:
        known = ", ".join(games()) or "none installed"
        raise SimlibError(f"unknown game {name!r} (known: {known})") from None
