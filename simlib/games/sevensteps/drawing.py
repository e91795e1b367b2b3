"""A 7 Steps play's board as a drawing (Game.drawing): the 49 fields in their colours, and each tower's height after
every turn.

The heights are the play's own events replayed through the kernel's named blocks (decisions.apply_aid for a
build-aid tile's edit, rules.place_disc for a disc with its collapses), from the empty board; each disc's level must
come out as the events table recorded it, or the drawing is refused. Geometry: the fields' axial coordinates
(board.py), laid out as core/drawing.py lays hexes out.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ...core.drawing import SETUP_TURN, hex_centre, hex_corners
from ...core.errors import SimlibError
from .board import Board
from .constants import COLOURS, N_COLOURS
from .decisions import apply_aid
from .rules import place_disc
from .specials import Specials

FIELD_COLOURS = {"blue": "#2f6fd0", "yellow": "#f2d13c", "black": "#2b2b2b", "red": "#d33c32", "white": "#f4f4f4",
                 "orange": "#f08a24", "purple": "#7d4bb0"}
def _heights(board: Board, specials: Specials, turns: list[dict], discs: dict[int, list[dict]]) -> list[np.ndarray]:
    """The towers' heights after each turn, replayed from the empty board."""
    height, bag = np.zeros(len(board.colour), np.int64), np.zeros(N_COLOURS, np.int64)
    effect_of = {aid: int(effect) for aid, effect in zip(specials.aid_ids, specials.aid_effect)}
    after = []
    for t in turns:
        if t["aid"] is not None:
            target = -1 if t["aid_target"] is None else t["aid_target"]
            field = -1 if t["aid_field"] is None else t["aid_field"]
            apply_aid(effect_of[t["aid"]], field, target, height, bag, board.colour)
        for d in discs.get(t["turn"], []):
            level, _ = place_disc(height, board.colour, board.colour_fields, d["field"])
            if level != d["level"]:
                raise SimlibError(f"the board drawn does not follow the play: turn {t['turn']}, field {d['field']} "
                                  f"comes out at {level}, the events say {d['level']}")
        after.append(height.copy())
    return after


def board_drawing(board: Board, specials: Specials, result: dict[str, pa.Table], play: int) -> dict:
    """The play's board, as Game.drawing describes it."""
    turns = sorted((t for t in result["turns"].to_pylist() if t["play_index"] == play), key=lambda t: t["turn"])
    discs: dict[int, list[dict]] = {}
    for d in sorted((d for d in result["events"].to_pylist() if d["play_index"] == play),
                    key=lambda d: (d["turn"], d["disc"])):
        discs.setdefault(d["turn"], []).append(d)
    after = _heights(board, specials, turns, discs)
    shapes = []
    for f, (q, r) in enumerate(board.coords):
        centre, colour = hex_centre(int(q), int(r)), COLOURS[board.colour[f]]
        shapes.append({"kind": "polygon", "points": hex_corners(centre), "fill": FIELD_COLOURS[colour],
                       "title": f"field {f}: {colour}"})
        shown, since = 0, SETUP_TURN
        for t, heights in zip((t["turn"] for t in turns), after):
            if heights[f] != shown:
                if shown:
                    shapes.append(_height(centre, shown, since, t, colour))
                shown, since = int(heights[f]), t
        if shown:
            shapes.append(_height(centre, shown, since, None, colour))
    return {"shapes": shapes, "turns": len(turns),
            "legend": "the fields in their colours; a number: the tower's height there (the points a disc on it "
                      "scores), after the turn chosen"}


def _height(centre: tuple[float, float], height: int, since: int, until: int | None, colour: str) -> dict:
    shape = {"kind": "text", "points": [centre], "label": str(height), "from": since,
             "fill": "#fff" if colour in ("black", "blue", "purple", "red") else "#222",
             "title": f"a tower of {height}"}
    if until is not None:
        shape["until"] = until
    return shape
