"""A Catan play's board as a drawing (Game.drawing): the map's hexes with the terrain and tokens the play drew, and
every settlement, city, road and ship with the turn it was placed (and a moved ship's turn it left), so that the
workbench can show the board as it stood after any turn.

Geometry from the map's axial coordinates (board.py), as core/drawing.py lays hexes out.
"""

from __future__ import annotations

import pyarrow as pa

from ...core.drawing import SETUP_TURN, hex_centre, hex_corner, hex_corners
from .board import SEA, TERRAINS, Board

TERRAIN_COLOURS = {"forest": "#3f7f3f", "hills": "#c0643c", "pasture": "#9acd5a", "fields": "#e8c84a",
                   "mountains": "#8c8c8c", "desert": "#e6d3a3", "sea": "#bcdcf0"}
def _node_points(board: Board) -> dict[int, tuple[float, float]]:
    points = {}
    for h, (q, r) in enumerate(board.hex_coords):
        centre = hex_centre(int(q), int(r))
        for i, node in enumerate(board.hex_nodes[h]):
            points.setdefault(int(node), hex_corner(centre, i))
    return points


def _hexes(board: Board, events: list[dict]) -> list[dict]:
    drawn = {e["hex"]: (e["terrain"], e["token"]) for e in events if e["action"] == "hex"}
    shapes = []
    for h, (q, r) in enumerate(board.hex_coords):
        centre = hex_centre(int(q), int(r))
        terrain, token = drawn.get(h, (TERRAINS[SEA] if board.hex_terrain[h] == SEA else "desert", None))
        shapes.append({"kind": "polygon", "points": hex_corners(centre),
                       "fill": TERRAIN_COLOURS[terrain], "label": "" if token is None else str(token),
                       "title": f"hex {h}: {terrain}" + ("" if token is None else f" {token}")})
    return shapes


def _pieces(board: Board, events: list[dict]) -> list[dict]:
    """Every piece with the turn it came (`from`) and, where it went (a settlement become a city, a moved ship),
    the turn it left (`until`)."""
    nodes, pieces, at = _node_points(board), [], {}

    def path(edge: int) -> list[tuple[float, float]]:
        a, b = board.edge_nodes[edge]
        return [nodes[int(a)], nodes[int(b)]]

    for e in events:
        turn = SETUP_TURN if e["turn"] is None else e["turn"]
        action = e["action"]
        if action in ("setup_settlement", "settlement", "city"):
            if action == "city":
                pieces[at[e["node"]]]["until"] = turn
            at[e["node"]] = len(pieces)
            pieces.append({"kind": "city" if action == "city" else "settlement", "seat": e["seat"],
                           "points": [nodes[e["node"]]], "from": turn, "title": f"{action} of seat {e['seat']}"})
        elif action in ("setup_road", "road", "ship"):
            pieces.append({"kind": "ship" if action == "ship" else "road", "seat": e["seat"], "points": path(e["edge"]),
                           "from": turn, "edge": e["edge"], "title": f"{action.removeprefix('setup_')} of seat "
                                                                    f"{e['seat']}"})
        elif action == "move_ship":
            moved = next(p for p in reversed(pieces) if p["kind"] == "ship" and p.get("edge") == e["edge"]
                         and "until" not in p)
            moved["until"] = turn
            pieces.append({"kind": "ship", "seat": e["seat"], "points": path(e["edge_to"]), "from": turn,
                           "edge": e["edge_to"], "title": f"ship of seat {e['seat']} (moved)"})
    for piece in pieces:
        piece.pop("edge", None)
    return pieces


def board_drawing(board: Board, result: dict[str, pa.Table], play: int) -> dict:
    """The play's board, as Game.drawing describes it."""
    events = [e for e in result["events"].to_pylist() if e["play_index"] == play]
    turns = result["games"].to_pylist()[0]["turns"]
    return {"shapes": _hexes(board, events) + _pieces(board, events), "turns": turns, "background": "#bcdcf0",
            "legend": "hexes by terrain with their number tokens; seats' settlements (small), cities (large), "
                      "roads and ships (dashed)"}
