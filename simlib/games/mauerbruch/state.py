"""A play of Mauerbruch in progress, as arrays: what the kernel's blocks read and write, and what a search
copies before each rollout."""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from .constants import N_STACKS

# The scalars of a play (State.sc).
(S_PLAYER, S_PHASE, S_TURN, S_FIRST, S_MUST_TAKE, S_TAKE, S_REASON, S_EMPTIED, S_BONUS_STACK, S_BONUS_CARDS,
 S_OPENING_PAIRS, S_BREAKER) = range(12)
N_SCALARS = 12
T_PAIRS, T_DOUBLES, T_SWAPS = range(3)  # State.tally's rows


class State(NamedTuple):
    stacks: np.ndarray   # [stack, height] cards, bottom first; only the top card of a stack is seen
    heights: np.ndarray  # [stack]
    tops: np.ndarray     # [stack] the top card (-1: empty), as refresh() left it
    pile: np.ndarray     # [table position, card] cards won, in the order taken (public)
    pile_n: np.ndarray   # [table position]
    tally: np.ndarray    # [T_*, table position] pairs taken in turns, of them doubles, swaps
    sc: np.ndarray       # the scalars S_*: player to move, phase, turn, ..., S_REASON -1 while the play goes on


class Pairs(NamedTuple):
    """Work space for the pairs on the wall (list_pairs) and those the phase allows (their first `n`)."""

    a: np.ndarray
    b: np.ndarray
    kind: np.ndarray
    fa: np.ndarray
    fb: np.ndarray
    fk: np.ndarray


class Cards(NamedTuple):
    """The deck: per card its kind, symbol and value; gcd over values."""

    kinds: np.ndarray
    symbols: np.ndarray
    values: np.ndarray
    gcd: np.ndarray


class Setup(NamedTuple):
    """What every play of a run shares: the deck, the stacks' sizes, where the opening's double pairs go."""

    cards: Cards
    sizes: np.ndarray      # [stack] cards dealt
    discard_opening: bool  # the opening's double pairs are discarded (else onto the piles)


@block()
def new_state(n, n_cards, height_max):
    return State(np.empty((N_STACKS, height_max), np.int16), np.empty(N_STACKS, np.int64),
                 np.empty(N_STACKS, np.int64), np.empty((n, n_cards), np.int16), np.zeros(n, np.int64),
                 np.zeros((3, n), np.int16), np.zeros(N_SCALARS, np.int64))


@block()
def new_pairs():
    return Pairs(np.empty(21, np.int64), np.empty(21, np.int64), np.empty(21, np.int64), np.empty(21, np.int64),
                 np.empty(21, np.int64), np.empty(21, np.int64))


@block(_nrt=True)  # said, not inherited from a caller without it: a slice's copy may allocate
def copy_state(src, dst):
    dst.stacks[:] = src.stacks
    dst.heights[:] = src.heights
    dst.tops[:] = src.tops
    dst.pile[:] = src.pile
    dst.pile_n[:] = src.pile_n
    dst.tally[:] = src.tally
    dst.sc[:] = src.sc
