"""Catan boards as data (issue 5, first step): the standard board's topology and map validation."""

from __future__ import annotations

import numpy as np
import pytest

from simlib.core.errors import SimlibError
from simlib.games.catan.board import DIRECTIONS, RESOURCES, SEA, build_board, load_board, spiral


@pytest.fixture(scope="module")
def board():
    return load_board("standard")


def test_standard_board_has_54_intersections_and_72_paths(board):
    assert len(board.land_hexes) == 19
    assert board.node_land.sum() == 54 and board.edge_land.sum() == 72


def test_every_land_hex_has_six_land_corners_and_sides(board):
    for h in board.land_hexes:
        assert len(set(board.hex_nodes[h])) == 6 and board.node_land[board.hex_nodes[h]].all()
        assert len(set(board.hex_edges[h])) == 6 and board.edge_land[board.hex_edges[h]].all()
        for i in range(6):
            assert h in board.node_hexes[board.hex_nodes[h, i]]
            assert h in board.edge_hexes[board.hex_edges[h, i]]


def test_corners_and_sides_fit_together(board):
    for e, (a, b) in enumerate(board.edge_nodes):
        assert b in board.node_nodes[a] and a in board.node_nodes[b]
        assert e in board.node_edges[a] and e in board.node_edges[b]
        # The edge's two hexes are exactly the hexes its two nodes share.
        shared = set(board.node_hexes[a]) & set(board.node_hexes[b])
        on_map = {h for h in board.edge_hexes[e] if h >= 0}
        assert on_map <= shared


def test_the_centre_hexs_corners_each_touch_three_land_hexes(board):
    centre = next(h for h in board.land_hexes if tuple(board.hex_coords[h]) == (0, 0))
    for node in board.hex_nodes[centre]:
        hexes = board.node_hexes[node]
        assert (hexes >= 0).all() and (board.hex_terrain[hexes] != SEA).all()


def test_coast_edges_border_land_and_sea(board):
    coast = board.edge_land & board.edge_sea
    assert coast.sum() == 30  # the standard island's perimeter


def test_harbours_four_generic_and_one_per_resource(board):
    nodes = board.node_harbour_rate < 4
    assert nodes.sum() == 18 and board.node_land[nodes].all()
    specific = board.node_harbour_resource[board.node_harbour_rate == 2]
    assert sorted(np.unique(specific).tolist()) == list(range(len(RESOURCES)))
    assert (board.node_harbour_rate == 3).sum() == 8


def test_spiral_starts_at_a_corner_goes_round_and_ends_in_the_centre(board):
    order = spiral(board)
    coords = [tuple(board.hex_coords[h]) for h in order]
    assert len(coords) == 19 == len(set(coords))
    assert coords[0] == (2, -2) and coords[-1] == (0, 0)
    for (q1, r1), (q2, r2) in zip(coords[:12], coords[1:12]):
        assert (q2 - q1, r2 - r1) in DIRECTIONS  # the outer ring walked step by step


def hexes(*rows):
    return [{"q": q, "r": r, "terrain": t, **extra} for q, r, t, extra in rows]


def ring_of_sea(land):
    seen = {(q, r) for q, r, *_ in land}
    sea = set()
    for q, r, *_ in land:
        for a, b in DIRECTIONS:
            if (q + a, r + b) not in seen:
                sea.add((q + a, r + b))
    return [(q, r, "sea", {}) for q, r in sorted(sea)]


ISLAND = [(0, 0, "forest", {"token": 6})]


@pytest.mark.parametrize("spec,message", [
    ({"hex": hexes((0, 0, "lava", {}))}, "unknown terrain 'lava'"),
    ({"hex": hexes(*[(0, 0, "desert", {"token": 8})] + ring_of_sea(ISLAND))}, "number token on desert"),
    ({"hex": hexes(*[(0, 0, "forest", {})] + [(1, 0, "sea", {"token": 5})] + ring_of_sea(ISLAND)[1:])},
     "number token on sea"),
    ({"hex": hexes(*[(0, 0, "forest", {"token": 7})] + ring_of_sea(ISLAND))}, "token 7"),
    ({"hex": hexes(*ISLAND)}, "land at the edge of the map"),
    ({"hex": hexes(*ISLAND + ISLAND)}, "already hex 1"),
    ({"hex": hexes(*ISLAND + ring_of_sea(ISLAND)), "harbour": [{"q": 0, "r": 0, "side": 0, "rate": 3}]},
     "not on a coast"),
    ({"hex": hexes(*ISLAND + ring_of_sea(ISLAND)), "harbour": [{"q": 1, "r": 0, "side": 0, "rate": 3}]},
     "not on a coast"),
    ({"hex": hexes(*ISLAND + ring_of_sea(ISLAND)), "harbour": [{"q": 1, "r": 0, "side": 3, "rate": 2}]},
     "needs a resource"),
])
def test_invalid_maps_name_the_entry(spec, message):
    with pytest.raises(SimlibError, match=message):
        build_board(spec, "test.toml")


def test_a_small_island_map_with_a_named_field_and_a_harbour():
    island = [(0, 0, "mountains", {"token": 8, "name": "Friedrichstraße"})]
    spec = {"hex": hexes(*island + ring_of_sea(island)),
            "harbour": [{"q": 1, "r": 0, "side": 3, "rate": 2, "resource": "ore"}]}
    board = build_board(spec, "island.toml")
    assert board.node_land.sum() == 6 and board.edge_land.sum() == 6
    assert board.named == {"Friedrichstraße": 0}
    assert (board.node_harbour_resource == RESOURCES.index("ore")).sum() == 2


@pytest.mark.parametrize("name", ["standard", "beginner"])
def test_the_reference_topology_is_the_kernels(name):
    """The one place where tests/support/catan_reference.py's own topology (derived from the map file by corner
    geometry on a lattice, numbered by first appearance over the file's hexes, corners and sides k = 0..5)
    is matched to the kernel's: the events carry the kernel's node and edge indices, so every index and
    every relation must be the same, and the standard board must have the published 54 intersections and
    72 paths."""
    from support.catan_reference import topology

    kernel, mine = load_board(name), topology(name)
    assert [tuple(c) for c in kernel.hex_coords.tolist()] == mine.hex_coords  # hex index = the file's order
    assert kernel.hex_nodes.tolist() == mine.hex_nodes  # corner k of every hex is the same node
    assert kernel.hex_edges.tolist() == mine.hex_edges  # side k of every hex is the same edge
    assert kernel.node_hexes.tolist() == mine.node_hexes
    assert [tuple(pair) for pair in kernel.edge_nodes.tolist()] == mine.edge_nodes
    assert kernel.edge_hexes.tolist() == mine.edge_hexes
    for theirs, ours in ((kernel.node_nodes, mine.node_nodes), (kernel.node_edges, mine.node_edges)):
        assert [sorted(x for x in row if x >= 0) for row in theirs.tolist()] == [sorted(row) for row in ours]
    assert kernel.node_land.tolist() == mine.node_land
    assert kernel.edge_land.tolist() == mine.edge_land and kernel.edge_sea.tolist() == mine.edge_sea
    harbours = [set() if rate == 4 else {(int(rate), RESOURCES[res] if res >= 0 else None)}
                for rate, res in zip(kernel.node_harbour_rate.tolist(), kernel.node_harbour_resource.tolist())]
    assert harbours == mine.node_harbours
    assert len(mine.land_hexes) == 19 and sum(mine.node_land) == 54 and sum(mine.edge_land) == 72
    assert sum(len(h) for h in mine.node_harbours) == 18 and sum(map(all, zip(mine.edge_land, mine.edge_sea))) == 30
