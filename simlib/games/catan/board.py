"""Catan boards as data: a map file of hexes and harbours, and the topology derived from it once.

Hexes use axial coordinates (q, r), pointy-top, with the six directions E, NE, NW, W, SW, SE.
A node (intersection) is named by the three hexes around it, an edge (path) by the two hexes it
separates, on or off the map, so every hex's corners and sides are found by arithmetic. From a map
the topology arrays are built once: hex → 6 nodes and 6 edges, node → 3 hexes, 3 neighbour nodes,
3 edges, edge → 2 nodes and 2 hexes (land or sea), harbours per node.

    name = "standard"
    [[hex]]
    q = 0
    r = 0
    terrain = "desert"      # forest hills pasture fields mountains desert sea, or "random"
    token = 0               # 2-6, 8-12; 0 = none; "spiral" for the official token order
    name = "Stadtmitte"     # optional: a named field
    [[harbour]]
    q = 0                   # a sea hex ...
    r = -3
    side = 5                # ... and the direction (0-5) of the land hex it serves
    rate = 3                # 3 (any resource) or 2 (one resource)
    resource = "ore"        # for rate 2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...core.errors import SimlibError
from ...core.params import data_file, read_toml
from .constants import RESOURCES  # what terrain t < DESERT produces

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # E, NE, NW, W, SW, SE
TERRAINS = ("forest", "hills", "pasture", "fields", "mountains", "desert", "sea")
FOREST, HILLS, PASTURE, FIELDS, MOUNTAINS, DESERT, SEA = range(7)
RANDOM = -1  # a land hex whose terrain the game draws
SPIRAL = -1  # a token the game places in the official order
TOKENS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
NO_HARBOUR = 4  # the bank's rate without a harbour

MAPS = Path(__file__).parent / "maps"


@dataclass(frozen=True)
class Board:
    name: str
    hex_coords: np.ndarray      # [H, 2] axial q, r
    hex_terrain: np.ndarray     # [H] index into TERRAINS, or RANDOM
    hex_token: np.ndarray       # [H] number token, 0 none, SPIRAL to be placed
    hex_nodes: np.ndarray       # [H, 6] corner i lies between directions i and i+1
    hex_edges: np.ndarray       # [H, 6] side i faces direction i
    node_hexes: np.ndarray      # [N, 3] hexes around the node, -1 off the map
    node_nodes: np.ndarray      # [N, 3] neighbouring nodes, -1 none
    node_edges: np.ndarray      # [N, 3] edges at the node, -1 none
    node_land: np.ndarray       # [N] touches a land hex: a settlement may stand here
    edge_nodes: np.ndarray      # [E, 2]
    edge_hexes: np.ndarray      # [E, 2] the two hexes the edge separates, -1 off the map
    edge_land: np.ndarray       # [E] borders a land hex: a road may go here
    edge_sea: np.ndarray        # [E] borders a sea hex (or the map's edge beside sea): a ship may go here
    node_harbour_rate: np.ndarray      # [N] 4 (none), 3 or 2
    node_harbour_resource: np.ndarray  # [N] resource for a 2:1 harbour, else -1
    named: dict[str, int] = field(default_factory=dict)  # named fields → hex index

    @property
    def land_hexes(self) -> np.ndarray:
        return np.nonzero(self.hex_terrain != SEA)[0]


def _key_node(h, i):
    (q, r), (a, b), (c, d) = h, DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]
    return frozenset({(q, r), (q + a, r + b), (q + c, r + d)})


def _key_edge(h, i):
    (q, r), (a, b) = h, DIRECTIONS[i]
    return frozenset({(q, r), (q + a, r + b)})


def _terrain(value, where):
    if value == "random":
        return RANDOM
    if value not in TERRAINS:
        raise SimlibError(f"{where}: unknown terrain {value!r} (known: {', '.join(TERRAINS)}, random)")
    return TERRAINS.index(value)


def _token(value, terrain, where):
    if value in (0, None):
        return 0
    if value == "spiral":
        token = SPIRAL
    elif value in TOKENS:
        token = value
    else:
        raise SimlibError(f"{where}: token {value!r} is not one of {', '.join(map(str, TOKENS))} or spiral")
    if terrain in (SEA, DESERT):
        raise SimlibError(f"{where}: a number token on {TERRAINS[terrain]}")
    return token


def build_board(spec: dict, source: str) -> Board:
    """Validate a parsed map file and derive its topology."""
    hexes = spec.get("hex", [])
    if not hexes:
        raise SimlibError(f"map {source}: no hexes")
    coords, terrains, tokens, named = [], [], [], {}
    index: dict[tuple[int, int], int] = {}
    for n, h in enumerate(hexes, 1):
        where = f"map {source}, hex {n}"
        try:
            q, r = int(h["q"]), int(h["r"])
        except (KeyError, TypeError, ValueError):
            raise SimlibError(f"{where}: needs whole-number q and r") from None
        if (q, r) in index:
            raise SimlibError(f"{where}: ({q}, {r}) is already hex {index[(q, r)] + 1}")
        terrain = _terrain(h.get("terrain"), where)
        index[(q, r)] = len(coords)
        coords.append((q, r))
        terrains.append(terrain)
        tokens.append(_token(h.get("token", 0), terrain, where))
        if "name" in h:
            named[h["name"]] = len(coords) - 1
    terrain_arr = np.array(terrains, np.int8)
    land = [i for i, t in enumerate(terrains) if t != SEA]
    if not land:
        raise SimlibError(f"map {source}: no land hexes")
    # A ragged grid: land must be surrounded by map hexes (land or sea), never by nothing.
    for i in land:
        q, r = coords[i]
        for a, b in DIRECTIONS:
            if (q + a, r + b) not in index:
                raise SimlibError(f"map {source}, hex {i + 1} ({q}, {r}): land at the edge of the map "
                                  f"(no hex at ({q + a}, {r + b})); frame the land with sea")
    # Nodes and edges: every map hex's corners and sides, shared ones counted once.
    node_ids: dict[frozenset, int] = {}
    edge_ids: dict[frozenset, int] = {}
    hex_nodes = np.empty((len(coords), 6), np.int32)
    hex_edges = np.empty((len(coords), 6), np.int32)
    for h, c in enumerate(coords):
        for i in range(6):
            hex_nodes[h, i] = node_ids.setdefault(_key_node(c, i), len(node_ids))
            hex_edges[h, i] = edge_ids.setdefault(_key_edge(c, i), len(edge_ids))
    n_nodes, n_edges = len(node_ids), len(edge_ids)

    def hex_index(c):
        return index.get(c, -1)

    node_hexes = np.full((n_nodes, 3), -1, np.int32)
    for key, n in node_ids.items():
        node_hexes[n] = sorted((hex_index(c) for c in key), reverse=True)
    edge_hexes = np.full((n_edges, 2), -1, np.int32)
    edge_nodes = np.full((n_edges, 2), -1, np.int32)
    for h, c in enumerate(coords):
        for i in range(6):
            e = hex_edges[h, i]
            edge_hexes[e] = sorted((hex_index(x) for x in _key_edge(c, i)), reverse=True)
            edge_nodes[e] = sorted((hex_nodes[h, (i - 1) % 6], hex_nodes[h, i]))
    node_edges = np.full((n_nodes, 3), -1, np.int32)
    node_nodes = np.full((n_nodes, 3), -1, np.int32)
    filled = np.zeros(n_nodes, np.int32)
    for e, (a, b) in enumerate(edge_nodes):
        for x, y in ((a, b), (b, a)):
            node_edges[x, filled[x]] = e
            node_nodes[x, filled[x]] = y
            filled[x] += 1

    def is_land(h):
        return h >= 0 and terrain_arr[h] != SEA

    def is_sea(h):
        return h >= 0 and terrain_arr[h] == SEA

    node_land = np.array([any(is_land(h) for h in hs) for hs in node_hexes])
    edge_land = np.array([any(is_land(h) for h in hs) for hs in edge_hexes])
    edge_sea = np.array([any(is_sea(h) for h in hs) for hs in edge_hexes])

    rate = np.full(n_nodes, NO_HARBOUR, np.int8)
    resource = np.full(n_nodes, -1, np.int8)
    for n, hb in enumerate(spec.get("harbour", []), 1):
        where = f"map {source}, harbour {n}"
        try:
            c = (int(hb["q"]), int(hb["r"]))
            side = int(hb["side"])
            hb_rate = int(hb["rate"])
        except (KeyError, TypeError, ValueError):
            raise SimlibError(f"{where}: needs q, r, side and rate") from None
        h = hex_index(c)
        if not 0 <= side < 6:
            raise SimlibError(f"{where}: side {side} is not 0-5")
        across = hex_index((c[0] + DIRECTIONS[side][0], c[1] + DIRECTIONS[side][1]))
        if not is_sea(h) or not is_land(across):
            raise SimlibError(f"{where}: not on a coast (it must be a sea hex whose side {side} faces land)")
        if hb_rate == 3:
            res = -1
        elif hb_rate == 2:
            if hb.get("resource") not in RESOURCES:
                raise SimlibError(f"{where}: a 2:1 harbour needs a resource ({', '.join(RESOURCES)})")
            res = RESOURCES.index(hb["resource"])
        else:
            raise SimlibError(f"{where}: rate {hb_rate} is neither 3 nor 2")
        for node in edge_nodes[hex_edges[h, side]]:
            rate[node] = min(rate[node], hb_rate)
            resource[node] = res if hb_rate == 2 else resource[node]
    return Board(spec.get("name", Path(source).stem), np.array(coords, np.int32), terrain_arr,
                 np.array(tokens, np.int8), hex_nodes, hex_edges, node_hexes, node_nodes, node_edges, node_land,
                 edge_nodes, edge_hexes, edge_land, edge_sea, rate, resource, named)


def load_board(spec: str) -> Board:
    """A built-in map by name (maps/<name>.toml), or a map file by path."""
    return build_board(read_toml(data_file(spec, MAPS, "map"), "map"), spec)


def spiral(board: Board) -> np.ndarray:
    """Land hexes in the official token order: from a corner of the outer ring, counter-clockwise,
    ring by ring inwards (for the standard board; any board whose land is a hexagon around (0, 0))."""
    land = {tuple(board.hex_coords[h]): h for h in board.land_hexes}
    radius = max(max(abs(q), abs(r), abs(q + r)) for q, r in land)
    order = []
    for k in range(radius, 0, -1):
        q, r = k, -k  # the top-right corner of ring k
        for side in (3, 4, 5, 0, 1, 2):  # walk W, SW, SE, E, NE, NW: counter-clockwise
            for _ in range(k):
                if (q, r) in land:
                    order.append(land[(q, r)])
                q, r = q + DIRECTIONS[side][0], r + DIRECTIONS[side][1]
    if (0, 0) in land:
        order.append(land[(0, 0)])
    return np.array(order, np.int32)
