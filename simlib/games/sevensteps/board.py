"""The board as data: a tiles file (the seven double-sided tiles) and a layout file (where each lies),
checked and turned into the kernel's topology arrays."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ...core.errors import SimlibError
from .constants import COLOURS, DIRECTIONS, N_COLOURS, N_FIELDS, N_TILES, SIDES
from .datafile import PACKAGE, file_text, integer, parse, tables


@dataclass(frozen=True)
class Board:
    """One side of a laid-out board. Field f = 7 * place + printed field (place: the layout entry's position)."""

    name: str
    side: str
    coords: np.ndarray      # [49, 2] axial (q, r)
    colour: np.ndarray      # [49] colour index
    tile: np.ndarray        # [49] the layout place the field lies on
    neighbours: np.ndarray  # [49, 6] the neighbour in each direction (E, NE, NW, W, SW, SE), -1 off the board
    colour_fields: np.ndarray  # [7, 7] the fields of each colour
    distance: np.ndarray    # [49, 49] steps between fields over the board


def tiles_text(spec: str) -> str:
    """A tiles file's text: a built-in name (tiles/<name>.toml) or a path."""
    return file_text(spec, PACKAGE / "tiles" / f"{spec}.toml", "tiles file")


def layout_text(spec: str) -> str:
    """A layout file's text: a built-in name (layouts/<name>.toml) or a path."""
    return file_text(spec, PACKAGE / "layouts" / f"{spec}.toml", "layout file")


def _tiles(text: str, spec: str) -> dict[int, dict[str, list[int]]]:
    """Tile id → {'front': 7 colour indices, 'back': 7 colour indices}."""
    where = f"tiles file {spec}"
    raw = parse(text, where)
    colours = raw.get("colours", list(COLOURS))
    if not isinstance(colours, list) or tuple(colours) != COLOURS:
        raise SimlibError(f"{where}: colours must be {', '.join(COLOURS)} in this order")
    tiles = {}
    for n, entry in enumerate(tables(raw, "tile", where), 1):
        w = f"{where}, tile {n}"
        tid = integer(entry, "id", w)
        if tid in tiles:
            raise SimlibError(f"{w}: tile id {tid} repeated")
        sides = {}
        for side in SIDES:
            value = entry.get(side)
            fields = [value] * 7 if isinstance(value, str) else value
            if not isinstance(fields, list) or len(fields) != 7:
                raise SimlibError(f"{w}: {side} must be one colour or a list of 7 (centre, then E, NE, NW, W, SW, SE)")
            unknown = [c for c in fields if not isinstance(c, str) or c not in COLOURS]
            if unknown:
                raise SimlibError(f"{w}: {side} colour {unknown[0]!r} is not one of {', '.join(COLOURS)}")
            sides[side] = [COLOURS.index(c) for c in fields]
        tiles[tid] = sides
    if sorted(tiles) != list(range(N_TILES)):
        raise SimlibError(f"{where}: needs tiles with ids 0..{N_TILES - 1} (found {sorted(tiles)})")
    for side in SIDES:
        counts = np.bincount([c for t in tiles.values() for c in t[side]], minlength=N_COLOURS)
        if (counts != 7).any():
            bad = int(np.flatnonzero(counts != 7)[0])
            raise SimlibError(f"{where}: the {side} sides show {counts[bad]} {COLOURS[bad]} fields, not 7")
    return tiles


def _hex_distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _layout(text: str, spec: str) -> list[tuple[int, int, int, int]]:
    """The places (tile, q, r, rotation), checked: every tile once, no overlap, connected."""
    where = f"layout file {spec}"
    raw = parse(text, where)
    places = []
    for n, entry in enumerate(tables(raw, "place", where), 1):
        w = f"{where}, place {n}"
        tile, q, r, rot = (integer(entry, k, w) for k in ("tile", "q", "r", "rotation"))
        if not 0 <= rot <= 5:
            raise SimlibError(f"{w}: rotation must be 0..5 (found {rot})")
        if tile in [p[0] for p in places]:
            raise SimlibError(f"{w}: tile {tile} placed twice")
        if not 0 <= tile < N_TILES:
            raise SimlibError(f"{w}: tile must be 0..{N_TILES - 1} (found {tile})")
        for m, other in enumerate(places, 1):
            if _hex_distance((q, r), other[1:3]) < 3:
                raise SimlibError(f"{w}: overlaps place {m} (tile centres must be at least 3 steps apart)")
        places.append((tile, q, r, rot))
    if len(places) != N_TILES:
        raise SimlibError(f"{where}: needs {N_TILES} places, one per tile (found {len(places)})")
    reached, todo = {0}, [0]
    while todo:
        a = todo.pop()
        for b in range(N_TILES):
            if b not in reached and _hex_distance(places[a][1:3], places[b][1:3]) == 3:
                reached.add(b)
                todo.append(b)
    if len(reached) < N_TILES:
        lone = min(set(range(N_TILES)) - reached) + 1
        raise SimlibError(f"{where}: place {lone} does not touch the rest (the tiles must form one board)")
    return places


def load_board(tiles_spec: str, layout_spec: str, side: str) -> Board:
    """A built-in tiles/layout name or a file path each; every problem is one SimlibError naming the entry."""
    return board_from_text(tiles_spec, tiles_text(tiles_spec), layout_spec, layout_text(layout_spec), side)


def board_from_text(tiles_spec: str, tiles: str, layout_spec: str, layout: str, side: str) -> Board:
    """The board of a tiles file's and a layout file's text (the specs name them in errors)."""
    tiles = _tiles(tiles, tiles_spec)
    places = _layout(layout, layout_spec)
    coords, colour, tile = [], [], []
    for p, (tid, q, r, rot) in enumerate(places):
        for i in range(7):
            dq, dr = (0, 0) if i == 0 else DIRECTIONS[(i - 1 + rot) % 6]
            coords.append((q + dq, r + dr))
            colour.append(tiles[tid][side][i])
            tile.append(p)
    index = {c: f for f, c in enumerate(coords)}
    neighbours = np.array([[index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS] for q, r in coords], np.int64)
    colour_arr = np.array(colour, np.int64)
    return Board(f"{tiles_spec}/{layout_spec}", side, np.array(coords, np.int64), colour_arr, np.array(tile, np.int64),
                 neighbours, np.array([np.flatnonzero(colour_arr == c) for c in range(N_COLOURS)], np.int64),
                 _distances(neighbours))


def _distances(neighbours: np.ndarray) -> np.ndarray:
    dist = np.full((N_FIELDS, N_FIELDS), N_FIELDS, np.int64)
    for start in range(N_FIELDS):
        dist[start, start] = 0
        queue = deque([start])
        while queue:
            f = queue.popleft()
            for g in neighbours[f]:
                if g >= 0 and dist[start, g] > dist[start, f] + 1:
                    dist[start, g] = dist[start, f] + 1
                    queue.append(g)
    return dist
