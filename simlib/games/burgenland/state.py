"""The kernel's inputs by name (the board, the cards and tiles, the rule options), a play in progress as arrays
(what a search copies) and the turn's work space."""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from . import constants as C
from .board import Board
from .components import Components
from .constants import START_HANDS
from .decisions import MAX_BUILDS
from .rules import POOL_SIZE


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


def card_arrays(components: Components, options: dict) -> CardArrays:
    """The cards and tiles as the kernel plays them under the run's options: with `free_well_tile` false (the
    text's "immer nur": no tile lifts the well marker) a tile of effect any_well acts as ignore_house_rule."""
    c = components
    effect = c.bonus_effect
    if not options["free_well_tile"]:
        effect = np.where(effect == C.ANY_WELL, C.IGNORE_HOUSE_RULE, effect)
    return CardArrays(c.cards, c.jokers, c.master_builders, c.swap_tiles, effect, c.bonus_value)


def rules(options: dict) -> Rules:
    o = options
    return Rules(START_HANDS.index(o["start_hands"]),
                 np.array([o["central_wall"], o["central_house"], o["central_palas"]], np.int64),
                 o["central_jokers"], o["central_master_builder"], o["joker_exchange"], o["swap_return"] == "supply",
                 o["max_turns"])


# A play in progress: what the kernel's blocks read and write, and what a search copies before each rollout.
# Play.sc: turns played; turns in a row without a build or a card drawn (the stalled rule); the end reason
# (-1 while the play goes on); the winning seat (-1: none); 1 when the turn's free actions are played and
# its main action is to be chosen (a search seat's).
S_TURN, S_IDLE, S_REASON, S_WINNER, S_PENDING = range(5)
N_SCALARS = 5


class Play(NamedTuple):
    stones: np.ndarray       # [8] the colour of the stone on each position
    master: np.ndarray       # [12] the master-builder pile (pool[MASTER_TOP] % 12 is the top)
    well_order: np.ndarray   # [11] the well cards (pool[WELL_TOP] is the top)
    bonus_order: np.ndarray  # [tiles] the face-down bonus tiles (from pool[BONUS_TOP] on)
    deck: np.ndarray         # [8, 3] the face-down pile, by card type
    discard: np.ndarray      # [8, 3] the open discard pile
    hands: np.ndarray        # [seats, 8, 3] colour cards held
    jokers: np.ndarray       # [seats] jokers held
    pool: np.ndarray         # the scalars of rules.py (piles, tops, counts)
    counts: np.ndarray       # [12, 4] pieces by castle (11: central) and kind
    spot_piece: np.ndarray   # [11, MAX_SPOTS] the piece on each square spot (-1 free)
    n_spots: np.ndarray      # [11] square spots of each castle (extra spots included)
    supply: np.ndarray       # [seats, 4] pieces left by kind
    swaps_held: np.ndarray   # [seats] swap tiles held
    tiles_held: np.ndarray   # [seats, tiles] bonus tiles held
    waiting: np.ndarray      # [seats] turns in a row without a small-castle build (the policies' patience)
    draw_turn: np.ndarray    # [1] the turn the next draws belong to (-1: the set-up)
    drawn: np.ndarray        # [N_STREAMS] draws taken from each stream in this turn (rules.take)
    sc: np.ndarray           # the scalars S_*


class Work(NamedTuple):
    """The turn's work space: an event row, the legal builds, payments, held tiles by effect."""

    rec: np.ndarray
    builds: np.ndarray
    paid: np.ndarray
    after: np.ndarray
    scratch: np.ndarray
    saver_weights: np.ndarray
    tile_of: np.ndarray
    castles_ok: np.ndarray


@block()
def new_play(n_seats, n_tiles, n_master):
    cards = (C.N_COLOURS, C.MAX_COINS)
    return Play(np.zeros(C.N_POSITIONS, np.int64), np.zeros(n_master, np.int64), np.zeros(C.N_CASTLES, np.int64),
                np.zeros(n_tiles, np.int64), np.zeros(cards, np.int64), np.zeros(cards, np.int64),
                np.zeros((n_seats, C.N_COLOURS, C.MAX_COINS), np.int64), np.zeros(n_seats, np.int64),
                np.zeros(POOL_SIZE, np.int64), np.zeros((C.N_CASTLES + 1, 4), np.int64),
                np.zeros((C.N_CASTLES, C.MAX_SPOTS), np.int64), np.zeros(C.N_CASTLES, np.int64),
                np.zeros((n_seats, 4), np.int64), np.zeros(n_seats, np.int64), np.zeros((n_seats, n_tiles), np.bool_),
                np.zeros(n_seats, np.int64), np.zeros(1, np.int64), np.zeros(C.N_STREAMS, np.int64),
                np.zeros(N_SCALARS, np.int64))


@block()
def new_work(saver_weights):
    cards = (C.N_COLOURS, C.MAX_COINS)
    return Work(np.zeros(C.EV_COLS, np.int64), np.zeros((MAX_BUILDS, 4), np.int64), np.zeros(cards, np.int64),
                np.zeros(cards, np.int64), np.zeros(cards, np.int64), saver_weights.copy(),
                np.zeros(C.N_EFFECTS, np.int64), np.zeros(C.N_CASTLES, np.bool_))


@block()
def copy_play(src, dst):
    dst.stones[:] = src.stones
    dst.master[:] = src.master
    dst.well_order[:] = src.well_order
    dst.bonus_order[:] = src.bonus_order
    dst.deck[:] = src.deck
    dst.discard[:] = src.discard
    dst.hands[:] = src.hands
    dst.jokers[:] = src.jokers
    dst.pool[:] = src.pool
    dst.counts[:] = src.counts
    dst.spot_piece[:] = src.spot_piece
    dst.n_spots[:] = src.n_spots
    dst.supply[:] = src.supply
    dst.swaps_held[:] = src.swaps_held
    dst.tiles_held[:] = src.tiles_held
    dst.waiting[:] = src.waiting
    dst.draw_turn[:] = src.draw_turn
    dst.drawn[:] = src.drawn
    dst.sc[:] = src.sc
