"""Berlin as data: the map file (hexes, West and East, the wall's sections, the hotel fields) and the
components file (hotel cards, the costs printed on the wall pieces), checked and turned into arrays once.

A map file is a Catan map (simlib/games/catan/board.py) with more keys: every one of the 36 tiles has
`side = "west" | "east"`; `frame = true` marks the sea frame around them (not counted, it may carry
harbours); `hotel = true` marks a hotel field, named as its card; `[[section]]` entries list a wall
section's edges, each as the two hexes it separates, and `water = true` marks the section over the sea.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core.errors import SimlibError
from ...core.params import data_file, read_toml
from ..catan.board import DESERT, DIRECTIONS, SEA, Board, build_board
from ..catan.constants import RESOURCES
from .constants import EAST, N_HOTELS, N_SECTIONS, SIDES

PACKAGE = Path(__file__).parent


@dataclass(frozen=True)
class Berlin:
    board: Board
    tile: np.ndarray            # [H] one of the map's tiles (not the frame)
    hex_side: np.ndarray        # [H] WEST, EAST, -1 frame
    node_side: np.ndarray       # [N] the side of the land tiles at the node, -1 none (or both: under the wall)
    ship_sea: np.ndarray        # [E] water on both sides, a sea tile on one: a ship may go here
    section_names: tuple        # the six land sections, then the water section
    section_edges: np.ndarray   # [7, k] edges under each section, -1 padded
    section_nodes: np.ndarray   # [7, k] intersections on them, -1 padded
    water_neighbours: np.ndarray  # land sections sharing an intersection with the water section
    wall_costs: np.ndarray      # [12, 5]: row 2s lower piece of section s, 2s+1 its upper piece
    hotel_names: tuple          # the six hotel cards in the components file's order
    hotel_hexes: np.ndarray     # [6] each card's field
    hotel_costs: np.ndarray     # [18, 5]: row 3h + CHIP_CLASS[chip]
    shuffled_hexes: np.ndarray  # producing hexes that are not hotel fields (their terrain may be shuffled)
    harbour_nodes: np.ndarray   # [K, 2] the two intersections of each harbour
    harbour_rate: np.ndarray    # [K]
    harbour_resource: np.ndarray  # [K] -1 for 3:1


def _path(spec: str, folder: str) -> Path:
    return data_file(spec, PACKAGE / folder, "map")


def load_berlin(map_spec: str, components_spec: str) -> Berlin:
    """A built-in map (maps/<name>.toml) or a map file by path, with a components file (`berlin` is the
    package's components.toml), checked; every problem is one SimlibError naming the entry."""
    map_path = _path(map_spec, "maps")
    spec = read_toml(map_path, "map")
    parts_path = PACKAGE / "components.toml" if components_spec == "berlin" else Path(components_spec)
    parts = read_toml(parts_path, "components file")
    board = build_board(spec, map_spec)
    where = f"map {map_spec}"
    tile, hex_side = _tiles(spec, board, where)
    sections, water = _sections(spec, board, where)
    names = tuple(s["name"] for s in sections)
    edges = [s["edges"] for s in sections]
    nodes = [sorted({int(n) for e in es for n in board.edge_nodes[e]}) for es in edges]
    width = max(max(map(len, edges)), max(map(len, nodes)))
    water_nodes = set(nodes[water])
    neighbours = [s for s in range(len(sections)) if s != water and water_nodes & set(nodes[s])]
    order = [s for s in range(len(sections)) if s != water] + [water]
    land_hexes = board.land_hexes
    hotel_fields = {board.named[name]: name for name in board.named
                    if any(h.get("hotel") and h.get("name") == name for h in spec.get("hex", []))}
    wall_costs = _wall_costs(parts, [names[s] for s in order[:N_SECTIONS]], f"components file {components_spec}")
    hotel_names, hotel_hexes, hotel_costs = _hotels(parts, hotel_fields, hex_side, board,
                                                    f"components file {components_spec}", where)
    producing = [h for h in land_hexes if board.hex_terrain[h] != DESERT and h not in hotel_fields]
    h_nodes, h_rate, h_res = _harbours(spec, board)
    return Berlin(
        board=board, tile=tile, hex_side=hex_side, node_side=_node_side(board, hex_side),
        ship_sea=_ship_sea(board, tile), section_names=tuple(names[s] for s in order),
        section_edges=_padded([edges[s] for s in order], width),
        section_nodes=_padded([nodes[s] for s in order], width),
        water_neighbours=np.array([order.index(s) for s in neighbours], np.int64), wall_costs=wall_costs,
        hotel_names=hotel_names, hotel_hexes=hotel_hexes, hotel_costs=hotel_costs,
        shuffled_hexes=np.array(producing, np.int64), harbour_nodes=h_nodes, harbour_rate=h_rate,
        harbour_resource=h_res)


def _tiles(spec, board: Board, where):
    """Which hexes are tiles (not frame), and each tile's side."""
    H = len(board.hex_coords)
    tile = np.zeros(H, bool)
    side = np.full(H, -1, np.int64)
    for n, h in enumerate(spec["hex"], 1):
        i = n - 1  # build_board keeps the file's order
        if h.get("frame"):
            if board.hex_terrain[i] != SEA:
                raise SimlibError(f"{where}, hex {n}: a frame hex must be sea")
            continue
        if h.get("side") not in SIDES:
            raise SimlibError(f"{where}, hex {n}: side must be one of {', '.join(SIDES)} (or frame = true)")
        tile[i] = True
        side[i] = SIDES.index(h["side"])
    return tile, side


def _sections(spec, board: Board, where):
    """The wall's sections with their edge indices; six land sections and one water section."""
    index = {tuple(c): h for h, c in enumerate(board.hex_coords.tolist())}
    sections, water = [], []
    for n, s in enumerate(spec.get("section", []), 1):
        w = f"{where}, section {n}"
        if not isinstance(s.get("name"), str) or not isinstance(s.get("edges"), list) or not s["edges"]:
            raise SimlibError(f"{w}: needs a name and a list of edges")
        edges = []
        for pair in s["edges"]:
            try:
                (q1, r1), (q2, r2) = pair
                a, b = index[(int(q1), int(r1))], index[(int(q2), int(r2))]
                side = DIRECTIONS.index((int(q2) - int(q1), int(r2) - int(r1)))
            except (KeyError, TypeError, ValueError):
                raise SimlibError(f"{w}: edge {pair!r} is not two neighbouring hexes of the map") from None
            del b
            edges.append(int(board.hex_edges[a, side]))
        if s.get("water"):
            water.append(len(sections))
        sections.append({"name": s["name"], "edges": edges})
    if len(sections) != N_SECTIONS + 1 or len(water) != 1:
        raise SimlibError(f"{where}: the wall needs {N_SECTIONS} land sections and one water section "
                          f"(found {len(sections) - len(water)} and {len(water)})")
    return sections, water[0]


def _node_side(board: Board, hex_side):
    side = np.full(len(board.node_hexes), -1, np.int64)
    for n, hexes in enumerate(board.node_hexes):
        sides = {int(hex_side[h]) for h in hexes if h >= 0 and board.hex_terrain[h] != SEA and hex_side[h] >= 0}
        if len(sides) == 1:
            side[n] = sides.pop()
    return side


def _ship_sea(board: Board, tile):
    """Ships only on edges with water on both sides (the frame is water), beside at least one sea tile."""
    hexes = board.edge_hexes
    sea = np.array([h >= 0 and board.hex_terrain[h] == SEA for h in hexes.ravel()]).reshape(hexes.shape)
    on_tile = np.array([h >= 0 and tile[h] for h in hexes.ravel()]).reshape(hexes.shape)
    return sea.all(axis=1) & on_tile.any(axis=1)


def _padded(rows, width):
    out = np.full((len(rows), width), -1, np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def _resources(value, count, where):
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or len(items) != count or any(r not in RESOURCES for r in items):
        raise SimlibError(f"{where}: needs {count} resource{'s' if count > 1 else ''} from {', '.join(RESOURCES)}")
    row = np.zeros(len(RESOURCES), np.int64)
    for r in items:
        row[RESOURCES.index(r)] += 1
    return row


def _wall_costs(parts, land_names, where):
    entries = {w.get("section"): w for w in parts.get("wall", [])}
    unknown = set(entries) - set(land_names)
    if unknown:
        raise SimlibError(f"{where}: wall costs for {sorted(map(str, unknown))}, which is no land section of the map")
    costs = np.zeros((2 * N_SECTIONS, len(RESOURCES)), np.int64)
    for s, name in enumerate(land_names):
        if name not in entries:
            raise SimlibError(f"{where}: no wall costs for section {name!r}")
        costs[2 * s] = _resources(entries[name].get("lower"), 3, f"{where}, wall {name!r} lower")
        costs[2 * s + 1] = _resources(entries[name].get("upper"), 2, f"{where}, wall {name!r} upper")
    return costs


def _hotels(parts, fields, hex_side, board, where, map_where):
    cards = parts.get("hotel", [])
    if len(cards) != N_HOTELS:
        raise SimlibError(f"{where}: needs {N_HOTELS} hotel cards (found {len(cards)})")
    names, hexes = [], []
    costs = np.zeros((3 * N_HOTELS, len(RESOURCES)), np.int64)
    for i, card in enumerate(cards):
        w = f"{where}, hotel {i + 1}"
        name = card.get("name")
        field = next((h for h, n in fields.items() if n == name), None)
        if field is None:
            raise SimlibError(f"{w}: {name!r} is no hotel field of the map (a hex with hotel = true and that name)")
        if name in names:
            raise SimlibError(f"{w}: a second card for {name!r}")
        if hex_side[field] != EAST or board.hex_token[field] <= 0:
            raise SimlibError(f"{map_where}: hotel field {name!r} must be an East Berlin hex with a token")
        base = _resources(card.get("base"), 3, f"{w} base")
        plus_5_9 = _resources(card.get("plus_5_9"), 1, f"{w} plus_5_9")
        plus_6_8 = _resources(card.get("plus_6_8"), 1, f"{w} plus_6_8")
        costs[3 * i] = base
        costs[3 * i + 1] = base + plus_5_9
        costs[3 * i + 2] = base + plus_5_9 + plus_6_8
        names.append(name)
        hexes.append(field)
    if len(fields) != N_HOTELS:
        raise SimlibError(f"{map_where}: needs {N_HOTELS} hotel fields (found {len(fields)})")
    return tuple(names), np.array(hexes, np.int64), costs


def _harbours(spec, board: Board):
    """Each harbour's two intersections, rate and resource (build_board has checked the entries)."""
    index = {tuple(c): h for h, c in enumerate(board.hex_coords.tolist())}
    nodes, rate, res = [], [], []
    for hb in spec.get("harbour", []):
        e = board.hex_edges[index[(int(hb["q"]), int(hb["r"]))], int(hb["side"])]
        nodes.append(board.edge_nodes[e])
        rate.append(int(hb["rate"]))
        res.append(RESOURCES.index(hb["resource"]) if int(hb["rate"]) == 2 else -1)
    return np.array(nodes, np.int64).reshape(-1, 2), np.array(rate, np.int64), np.array(res, np.int64)
