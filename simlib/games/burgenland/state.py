"""The kernel's inputs by name (the board, the cards and tiles, the rule options: a Setup), a play in progress as
arrays (what a search copies), the turn's view and work space, where a play's actions are written (Events), and
the kernel's outputs by name."""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.feel import Feel
from . import constants as C
from .board import Board
from .builds import MAX_BUILDS
from .components import Components
from .constants import START_HANDS
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


class Setup(NamedTuple):
    """What every play of a run shares, as the kernels take it."""

    bd: BoardArrays
    cards: CardArrays
    rules: Rules


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


class Turn(NamedTuple):
    """Whose turn it is and what its start shows (play.play_turns makes one a turn; the search one a decision)."""

    s: int                # the seat to move
    marker: int           # the castle of the top well card (-1: none)
    master_need: int      # the top master builder's coins
    tile_of: np.ndarray   # [effect] a bonus tile with that effect the seat holds (-1: none; play.held_tiles)


class Events(NamedTuple):
    """Where a play's actions go: its event rows (if `record`) and its seats' outputs, added up row by row."""

    ev: np.ndarray        # [row, EV_COLS] the batch's event rows
    record: bool
    seat_out: np.ndarray  # [SEAT_COLUMNS, seats] the play's
    n_events: np.ndarray  # [plays] rows per play
    i: int                # the play's index in the batch
    play: int             # the play's number
    standing: np.ndarray  # [turn, seats] each seat's pieces placed after each turn (no rows: not kept, as in rollouts)


class TurnWork(NamedTuple):
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
    return TurnWork(np.zeros(C.EV_COLS, np.int64), np.zeros((MAX_BUILDS, 4), np.int64), np.zeros(cards, np.int64),
                np.zeros(cards, np.int64), np.zeros(cards, np.int64), saver_weights.copy(),
                np.zeros(C.N_EFFECTS, np.int64), np.zeros(C.N_CASTLES, np.bool_))


@block(_nrt=True)  # said, not inherited from a caller without it (the search's decider): a slice's copy may allocate
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


# The per-seat outputs, rows of BurgenlandOutputs.seats in this order (the tables read them by name).
SEAT_COLUMNS = ("placed", "walls_left", "houses_left", "palases_left", "wells_left", "turns", "draws", "builds",
                "start_cards", "cards_drawn", "cards_rewarded", "jokers_walls", "jokers_spots", "jokers_tiles",
                "jokers_exchanged", "jokers_used", "spot_bonuses", "swaps_taken", "swaps_played", "tiles_taken",
                "tiles_played", "wells_built", "well_coins", "central_built", "cards_left", "jokers_left",
                "coins_paid")
(PLACED, WALLS_LEFT, HOUSES_LEFT, PALASES_LEFT, WELLS_LEFT, TURNS, DRAWS, BUILDS, START_CARDS, CARDS_DRAWN,
 CARDS_REWARDED, JOKERS_WALLS, JOKERS_SPOTS, JOKERS_TILES, JOKERS_EXCHANGED, JOKERS_USED, SPOT_BONUSES, SWAPS_TAKEN,
 SWAPS_PLAYED, TILES_TAKEN, TILES_PLAYED, WELLS_BUILT_SEAT, WELL_COINS, CENTRAL_BUILT_SEAT, CARDS_LEFT, JOKERS_LEFT,
 COINS_PAID) = range(len(SEAT_COLUMNS))


class BurgenlandOutputs(NamedTuple):
    """simulate_plays' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    turns: np.ndarray       # [plays] turns played (deals not counted)
    end_reason: np.ndarray  # [plays] LAST_PIECE, TURN_LIMIT or STALLED
    winner: np.ndarray      # [plays] the seat that placed its last piece, -1 if none
    wells: np.ndarray       # [plays] wells built in play (pre-placed ones not counted)
    swaps: np.ndarray       # [plays] swaps played (swap tiles and swap bonus tiles)
    reshuffles: np.ndarray  # [plays] times the discard pile became the face-down pile
    central: np.ndarray     # [plays] pieces built in the central castle
    stones: np.ndarray      # [plays, 8] the colour of the stone on each position at set-up
    n_events: np.ndarray    # [plays] event rows
    seats: np.ndarray       # [plays, SEAT_COLUMNS, seats]
    feel: Feel              # how the play felt, from the pieces placed after each turn (core/feel.py)

    def seat(self, name: str) -> np.ndarray:
        """[plays, seats] of one of SEAT_COLUMNS."""
        return self.seats[:, SEAT_COLUMNS.index(name)]
