"""The kernel's inputs by name: the board's topology, the special tiles and the rule options."""

from typing import NamedTuple

import numpy as np

from .board import Board
from .constants import FIRST_DISC
from .specials import Specials


class BoardArrays(NamedTuple):
    colour: np.ndarray         # [49] colour of each field
    neighbours: np.ndarray     # [49, 6] neighbour per direction, -1 off the board
    colour_fields: np.ndarray  # [7, 7] fields of each colour
    group: np.ndarray          # [49] the first disc's group: the colour (first_disc = colour) or colour x tile
    distance: np.ndarray       # [49, 49] steps between fields


class TileArrays(NamedTuple):
    aid_effect: np.ndarray
    aid_max_discs: np.ndarray
    bonus_measure: np.ndarray
    bonus_at_least: np.ndarray
    bonus_points: np.ndarray


class Rules(NamedTuple):
    tile_threshold: int      # a turn scoring fewer points lets the player take a tile
    unused_tile_points: int  # per tile held at the end
    max_turns: int           # a safety limit (end reason turn_limit)


def board_arrays(board: Board, first_disc: str) -> BoardArrays:
    group = board.colour if first_disc == FIRST_DISC[0] else board.colour * 7 + board.tile
    return BoardArrays(board.colour, board.neighbours, board.colour_fields, group.astype(np.int64), board.distance)


def tile_arrays(specials: Specials) -> TileArrays:
    return TileArrays(specials.aid_effect, specials.aid_max_discs, specials.bonus_measure, specials.bonus_at_least,
                      specials.bonus_points)
