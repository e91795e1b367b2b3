"""A Spielrunde of Die Mauer in progress, as arrays: what the blocks read and write, and what a search copies
before each rollout; and what every play of a run shares."""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from .constants import N_TYPES


class State(NamedTuple):
    hands: np.ndarray  # [seat, piece type] pieces held (secret, but for the kit minus what was built)
    built: np.ndarray  # [seat, piece type] pieces built (public)
    wall: np.ndarray   # [length, left end piece, right end piece]: only the ends matter to the rules
    plans: np.ndarray  # [seat] the Baurunde's fists: a piece type or HOLLOW
    gave: np.ndarray   # [seat] bit r set when the seat gave seat r a gift (who gave to whom is seen)


class Setup(NamedTuple):
    """The rules' numbers every play of a run shares."""

    pen: np.ndarray  # [piece type] penalty points for a piece left in hand
    max_br: int      # Baurunden after which a Spielrunde ends (baurunde_limit)
    rounds: int      # Spielrunden per match
    start: int       # how the next Spielrunde's first Bauherr is chosen: START_CONTINUE, START_ROTATE, START_FIXED


class Events(NamedTuple):
    """Where a Spielrunde's event rows go: one per Baurunde, row start + Baurunde; start -1: none written. Its
    standing (each seat's penalty points as the table sees them, negated) after each Baurunde goes into `standing`
    (no rows: not kept, as in a search's rollouts)."""

    table: np.ndarray
    play: int
    start: int
    standing: np.ndarray  # [Baurunde, seat]


@nb.njit(cache=True)
def new_state(n):
    return State(np.empty((n, N_TYPES), np.int8), np.empty((n, N_TYPES), np.int8), np.empty(3, np.int64),
                 np.empty(n, np.int64), np.empty(n, np.int64))


@block(_nrt=True)  # said, not inherited from the search's decider: a slice's copy may allocate
def copy_state(src, dst):
    """The Spielrunde's arrays into dst (the plans are the Baurunde's work space: not copied)."""
    dst.hands[:] = src.hands
    dst.built[:] = src.built
    dst.wall[:] = src.wall
    dst.gave[:] = src.gave
