"""The kernel's inputs by name (the board's topology, the special tiles and the rule options: a Setup), a play in
progress as arrays (State), and its keyed draws (Draws, `take`, `begin_draws`)."""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import begin_turn_draws as begin_draws  # noqa: F401 (the game's blocks import it from here)
from ...core.rng import draw, turn_draw_index
from ...core.rng import next_turn_draw_index as take_index
from .board import Board
from .constants import FIRST_DISC, HAND, N_COLOURS, N_FIELDS, SEAT_COLUMNS, THRESHOLD_COUNTS
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
    bonus_counts: bool       # the threshold compares the turn's total, bonus included (threshold_counts = total)
    unused_tile_points: int  # per tile held at the end
    max_turns: int           # a safety limit (end reason turn_limit)


class Setup(NamedTuple):
    """What every play of a run shares."""

    board: BoardArrays
    tiles: TileArrays
    rules: Rules


def rule_options(options: dict) -> Rules:
    """The kernel's rule options from a run's options."""
    return Rules(options["tile_threshold"], options["threshold_counts"] == THRESHOLD_COUNTS[1],
                 options["unused_tile_points"], options["max_turns"])


def board_arrays(board: Board, first_disc: str) -> BoardArrays:
    group = board.colour if first_disc == FIRST_DISC[0] else board.colour * 7 + board.tile
    return BoardArrays(board.colour, board.neighbours, board.colour_fields, group.astype(np.int64), board.distance)


def tile_arrays(specials: Specials) -> TileArrays:
    return TileArrays(specials.aid_effect, specials.aid_max_discs, specials.bonus_measure, specials.bonus_at_least,
                      specials.bonus_points)


# Draw streams. A draw is keyed by (turn, stream, its rank among the stream's draws in that turn), not by a running
# count: two variants of a play (a sweep's value and its baseline) draw the same discs and tiles turn by turn after
# their first different choice, so their difference stays paired (issue 25). One stream per purpose, so that a draw
# one variant takes and the other does not (a build-aid tile held in one only) shifts no other purpose's draws: the
# bag (the deal and refills), the tile piles (ranked by pile and tile, rules.draw_tile), the random policy's discs,
# the build-aid tile's play and targets, the chain search's ties, the other choices (a victory-point tile played,
# the pile taken from). One stream for all the policies' choices paired the report sweeps 10-15% less well
# (measured; docs/games/sevensteps.md, Draws).
BAG_DRAWS, TILE_DRAWS, STEP_DRAWS, AID_DRAWS, TIE_DRAWS, CHOICE_DRAWS = range(6)
N_STREAMS = 6

# A play in progress (State.sc): the turn (the seat to move is turn % seats), whether a refill ran short (the
# round is then completed), the end reason (-1 while the play goes on), and the play's collapses, event rows
# and the most nodes one chain search visited.
S_TURN, S_ENDING, S_REASON, S_COLLAPSES, S_EVENTS, S_MAX_NODES = range(6)
N_SCALARS = 6
# A turn's plan (a search's choice, or a candidate): set, play the held build-aid tile, its targets, the chain.
PL_SET, PL_AID, PL_A, PL_B, PL_N, PL_CHAIN = range(6)
PLAN_WIDTH = PL_CHAIN + HAND


class State(NamedTuple):
    """A play of 7 Steps in progress: what the kernel's blocks read and write, and what a search copies
    before each rollout."""

    height: np.ndarray      # [49] discs on each field
    bag: np.ndarray         # [7] discs per colour (the bag has no order: every draw is uniform)
    hands: np.ndarray       # [seat, 7]
    held: np.ndarray        # [seat, AID/BONUS] the tile held (-1: none)
    piles: np.ndarray       # [AID/BONUS, tile] the face-down tiles (the first n_piles)
    n_piles: np.ndarray     # [2]
    discards: np.ndarray    # [AID/BONUS, tile] tiles played, face up
    n_discards: np.ndarray  # [2]
    draw_turn: np.ndarray   # [1] the turn the next draws belong to (-1: the set-up)
    drawn: np.ndarray       # [N_STREAMS] draws taken from each stream in this turn
    seat_out: np.ndarray    # [SEAT_COLUMNS, seat] the seats' outputs, the score among them
    sc: np.ndarray          # the scalars S_*


@block()
def new_state(n_seats, n_aid, n_bonus):
    size = max(n_aid, n_bonus)
    return State(np.zeros(N_FIELDS, np.int64), np.zeros(N_COLOURS, np.int64), np.zeros((n_seats, N_COLOURS), np.int64),
                 np.zeros((n_seats, 2), np.int64), np.zeros((2, size), np.int64), np.zeros(2, np.int64),
                 np.zeros((2, size), np.int64), np.zeros(2, np.int64), np.zeros(1, np.int64),
                 np.zeros(N_STREAMS, np.int64), np.zeros((len(SEAT_COLUMNS), n_seats), np.int32),
                 np.zeros(N_SCALARS, np.int64))


@block(_nrt=True)  # said, not inherited from a caller without it (the search's decider): a slice's copy may allocate
def copy_state(src, dst):
    dst.height[:] = src.height
    dst.bag[:] = src.bag
    dst.hands[:] = src.hands
    dst.held[:] = src.held
    dst.piles[:] = src.piles
    dst.n_piles[:] = src.n_piles
    dst.discards[:] = src.discards
    dst.n_discards[:] = src.n_discards
    dst.draw_turn[:] = src.draw_turn
    dst.drawn[:] = src.drawn
    dst.seat_out[:] = src.seat_out
    dst.sc[:] = src.sc


class Draws(NamedTuple):
    """Where a turn's keyed draws come from: the play's key (or a rollout's), the turn they belong to ([1]) and how
    many each stream has given in it ([N_STREAMS]); a play's are its State's draw_turn and drawn."""

    key: np.uint64
    turn: np.ndarray
    drawn: np.ndarray


@nb.njit(cache=True, inline="always")
def draw_index(draw_turn, stream, rank):
    """The index of the stream's draw of rank `rank` in this turn."""
    return turn_draw_index(draw_turn[0], N_STREAMS, stream, rank)


@nb.njit(cache=True, inline="always")
def take(draws, stream):
    """The stream's next draw in this turn."""
    return draw(draws.key, take_index(draws.turn, draws.drawn, stream))
