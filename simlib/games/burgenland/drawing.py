"""A Burgenland play's board as a drawing (Game.drawing): the eight border stones in their colours (swaps move
them), the eleven small castles between their two stones, each with its square spots and its well, filled by the
seat that built there, and the central castle's pieces, each from the turn it came.

The map places its stone positions on the corners of a cube (position p: its bits x, y, z) and its castles on the
cube's edges (maps/standard.toml); the drawing shows that cube as seen through its front face: the front face (z = 0)
the outer square, the back face (z = 1) a smaller square inside it, so that no two edges' middles meet. Everything
else comes from the play's games row (the stones at set-up) and events (swaps and builds), and the map's pre-placed
pieces.
"""

from __future__ import annotations

import pyarrow as pa

from ...core.drawing import SETUP_TURN
from .board import Board
from .constants import PIECES

EDGE = 20.0  # the outer square's side in the drawing's units; a spot is 0.9
SPOT = 0.9
LETTERS = {"wall": "W", "house": "H", "palas": "P", "well": "w"}


def _position(p: int) -> tuple[float, float]:
    """Stone position p on the cube, seen through the front face (y downwards)."""
    x, y, z = p & 1, (p >> 1) & 1, (p >> 2) & 1
    side, inset = (EDGE, 0.0) if z == 0 else (0.4 * EDGE, 0.3 * EDGE)
    return inset + side * x, inset + side * (1 - y)


def _stones(stones: list[str], events: list[dict]) -> list[dict]:
    """Each position's stone, one shape per colour it held: swaps exchange two positions' stones."""
    colour, since, shapes = list(stones), [SETUP_TURN] * len(stones), []
    for e in events:
        if e["action"] == "swap" and e["swapped"]:
            a, b = e["swapped"]
            for p in (a, b):
                shapes.append(_stone(p, colour[p], since[p], e["turn"]))
                since[p] = e["turn"]
            colour[a], colour[b] = colour[b], colour[a]
    return shapes + [_stone(p, colour[p], since[p], None) for p in range(len(colour))]


def _stone(p: int, colour: str, since: int, until: int | None) -> dict:
    shape = {"kind": "circle", "points": [_position(p)], "r": 0.55, "fill": colour, "from": since,
             "title": f"stone {p}: {colour}"}
    return shape | ({"until": until} if until is not None else {})


def _spot_point(board: Board, castle: int, spot: int) -> tuple[float, float]:
    """Square spot `spot` (0, 1, 2, extra ones after) of castle `castle` (0..10), or its well (spot -1): in a row
    at the middle of the castle's edge, the well below."""
    (ax, ay), (bx, by) = (_position(int(p)) for p in board.stones[castle])
    mx, my = (ax + bx) / 2, (ay + by) / 2
    if spot < 0:
        return mx, my + 1.0
    return mx + (spot - 1) * (SPOT + 0.1), my


def _castles(board: Board, players: int, events: list[dict]) -> list[dict]:
    shapes = [{"kind": "line", "points": [_position(int(a)), _position(int(b))]} for a, b in board.stones]
    for c in range(len(board.stones)):
        shapes.append({"kind": "text", "points": [(_spot_point(board, c, 0)[0] - 0.9, _spot_point(board, c, 0)[1])],
                       "label": str(c + 1), "title": f"castle {c + 1}"})
        for s in range(board.spot_kind.shape[1]):
            shapes.append({"kind": "square", "points": [_spot_point(board, c, s)], "size": SPOT, "fill": "#fff",
                           "title": f"castle {c + 1}, spot {'abc'[s]}"})
        shapes.append({"kind": "circle", "points": [_spot_point(board, c, -1)], "r": SPOT / 2, "fill": "#fff",
                       "title": f"castle {c + 1}, the well"})
    preplaced = board.preplaced.get(players)
    if preplaced is not None:
        for c, spots in enumerate(preplaced):
            for s, piece in enumerate(spots[:-1]):
                if piece >= 0:
                    shapes.append(_piece(_spot_point(board, c, s), PIECES[piece], None, SETUP_TURN, "pre-placed"))
    central = 0
    for e in events:
        if e["action"] != "build":
            continue
        if e["castle"] == 0:  # the central castle: its pieces in rows below the cube
            point = (central % 20 * (SPOT + 0.1), EDGE + 4.0 + central // 20 * (SPOT + 0.1))
            central += 1
        elif e["piece"] == "well":
            point = _spot_point(board, e["castle"] - 1, -1)
        else:
            point = _spot_point(board, e["castle"] - 1, e["spot"])
        shapes.append(_piece(point, e["piece"], e["seat"], e["turn"], f"seat {e['seat']}"))
    return shapes


def _piece(point, piece: str, seat: int | None, turn: int, whose: str) -> dict:
    shape = {"kind": "square", "points": [point], "size": SPOT, "label": LETTERS[piece], "from": turn,
             "title": f"{piece} ({whose})"}
    return shape | ({"seat": seat} if seat is not None else {"fill": "#bbb"})


def board_drawing(board: Board, result: dict[str, pa.Table], play: int) -> dict:
    """The play's board, as Game.drawing describes it."""
    game = next(g for g in result["games"].to_pylist() if g["play_index"] == play)
    events = [e for e in result["events"].to_pylist() if e["play_index"] == play]
    shapes = _stones(game["stones"], events) + _castles(board, game["players"], events)
    central = (-0.45, EDGE + 2.8)
    shapes.append({"kind": "text", "points": [central], "label": "central castle:", "anchor": "start"})
    return {"shapes": shapes, "turns": game["turns"],
            "legend": "the border stones in their colours (a swap exchanges two); castles 1-11 between their two "
                      "stones, each with its square spots a-c and its well below; below the cube the central "
                      "castle's pieces. W wall, H house, P palas, w well, in the colour of the seat that built it "
                      "(grey: pre-placed)"}
