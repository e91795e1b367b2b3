"""The kernel's inputs by name: the board, the cards and tiles, and the rule options."""

from typing import NamedTuple

import numpy as np

from .board import Board
from .components import Components
from .constants import START_HANDS


class BoardArrays(NamedTuple):
    stones: np.ndarray      # [11, 2] the two stone positions of each castle
    spot_kind: np.ndarray   # [11, 3] SPOT_* of each printed square spot
    spot_value: np.ndarray  # [11, 3] coins of a coins spot
    supply: np.ndarray      # [4] each player's pieces by kind, for this player count
    preplaced: np.ndarray   # [11, 4] the piece pre-placed on each square spot and the well spot (-1 none)


class CardArrays(NamedTuple):
    cards: np.ndarray            # [3] cards of each colour showing 1, 2, 3 coins
    jokers: int
    master_builders: np.ndarray  # the master-builder cards' coins
    swap_tiles: int
    bonus_effect: np.ndarray     # [tiles] EFFECTS code of each bonus tile
    bonus_value: np.ndarray      # [tiles] jokers of a `jokers` tile


class Rules(NamedTuple):
    start_hands: int         # STAGGERED or EQUAL
    central_price: np.ndarray  # [3] cards a wall, house, palas costs in the central castle
    central_jokers: bool
    central_master_builder: bool
    joker_exchange: int      # coins for a joker, 0 = off
    swap_return: bool        # a played swap tile returns to the supply
    max_turns: int


def board_arrays(board: Board, players: int) -> BoardArrays:
    return BoardArrays(board.stones, board.spot_kind, board.spot_value, board.supply[players],
                       board.preplaced[players])


def card_arrays(components: Components) -> CardArrays:
    c = components
    return CardArrays(c.cards, c.jokers, c.master_builders, c.swap_tiles, c.bonus_effect, c.bonus_value)


def rules(options: dict) -> Rules:
    o = options
    return Rules(START_HANDS.index(o["start_hands"]),
                 np.array([o["central_wall"], o["central_house"], o["central_palas"]], np.int64),
                 o["central_jokers"], o["central_master_builder"], o["joker_exchange"], o["swap_return"] == "supply",
                 o["max_turns"])
