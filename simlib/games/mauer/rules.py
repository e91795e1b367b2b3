"""Die Mauer's rules as pure functions over small integer arrays (compiled with Numba).

Pieces are numbered 0-6: wall pieces with 1-5 crenellations (0-4), gate (5), tower (6); 7 is the
hollow hand in a plan. The wall is three numbers: [length, left end piece, right end piece]; only
its ends matter for the Bauordnung (§1: pieces go on at the ends only).
"""

import numba as nb
import numpy as np

PIECES = ("wall1", "wall2", "wall3", "wall4", "wall5", "gate", "tower")
PLAN_NAMES = PIECES + ("hollow",)
N_TYPES = 7
GATE, TOWER, HOLLOW = 5, 6, 7
NONE = -1

# Where a piece went: the first piece starts the wall, later ones go on the left or right end.
END_START, END_LEFT, END_RIGHT = 0, 1, 2
END_NAMES = ("start", "left", "right")

# How a Baurunde resolved (Bauphase and Hohle Hand of the rule text).
BUILDER_BUILDS = 0        # nobody guessed the builder's plan (Beispiel A)
COMPETITORS_BUILD = 1     # 1 <= k <= sites competitors guessed it (Beispiel B)
BUILDER_OUTGUESSED = 2    # more competitors guessed a special than it has sites: builder builds (Beispiel C)
ILLEGAL_PLAN = 3          # the builder's special piece has no site: nobody builds (Beispiel D)
HOLLOW_1 = 4              # only the builder hollow: he builds a legal piece of his choice
HOLLOW_2 = 5              # builder and exactly one competitor hollow: that competitor gives a gift
HOLLOW_3 = 6              # builder and several competitors hollow: nothing happens
CASE_NAMES = ("builder_builds", "competitors_build", "builder_outguessed", "illegal_plan",
              "hollow_1", "hollow_2", "hollow_3")

# Why a Spielrunde ended.
EMPTIED = 0               # a player's supply became empty (the rule text's only end)
DEADLOCK = 1              # both ends special and nobody holds a wall piece: nothing can ever be built
BAURUNDE_LIMIT = 2        # the max_baurunden safety limit (policies that never build)
END_REASON_NAMES = ("emptied", "deadlock", "baurunde_limit")

KIT = np.ones(N_TYPES, dtype=np.int8)  # each player's Bausatz: one piece of each type


@nb.njit(cache=True, inline="always")
def is_special(piece):
    return piece >= GATE


@nb.njit(cache=True)
def special_sites(wall):
    """Sites for a gate or tower (§2): ends whose end piece is not special; an empty wall is one site."""
    if wall[0] == 0:
        return 1
    return (wall[1] < GATE) + (wall[2] < GATE)


@nb.njit(cache=True)
def can_build(piece, wall):
    return piece < GATE or special_sites(wall) > 0


@nb.njit(cache=True)
def legal_end_mask(piece, wall):
    """Bit e set when `piece` may go at end e (1 << END_START, 1 << END_LEFT, 1 << END_RIGHT)."""
    if wall[0] == 0:
        return 1 << END_START
    mask = 0
    if piece < GATE or wall[1] < GATE:
        mask |= 1 << END_LEFT
    if piece < GATE or wall[2] < GATE:
        mask |= 1 << END_RIGHT
    return mask


@nb.njit(cache=True)
def place(piece, end, wall):
    if wall[0] == 0:
        wall[1] = piece
        wall[2] = piece
    elif end == END_LEFT:
        wall[1] = piece
    else:
        wall[2] = piece
    wall[0] += 1


@nb.njit(cache=True)
def penalty(hand, pen):
    total = 0
    for t in range(N_TYPES):
        total += hand[t] * pen[t]
    return total


@nb.njit(cache=True)
def is_deadlocked(hands, wall):
    """No piece can ever be built again: both ends special and nobody holds a wall piece."""
    if wall[0] == 0 or wall[1] < GATE or wall[2] < GATE:
        return False
    for s in range(hands.shape[0]):
        for t in range(GATE):
            if hands[s, t] > 0:
                return False
    return True
