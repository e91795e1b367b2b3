"""Die Mauer's rules as pure functions over small integer arrays (compiled with Numba).

Pieces are numbered 0-6: wall pieces with 1-5 crenellations (0-4), gate (5), tower (6); 7 is the
hollow hand in a plan. The wall is three numbers: [length, left end piece, right end piece]; only
its ends matter for the Bauordnung (§1: pieces go on at the ends only).
"""

import numba as nb

from .constants import END_LEFT, END_RIGHT, END_START, GATE, N_TYPES


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
def seen_penalty(built, pen):
    """A seat's penalty points as the table sees them during a Spielrunde: its kit's (one piece of each type) less
    the pieces it built. Gifts are handed over secretly, so they are not in it."""
    total = 0
    for t in range(N_TYPES):
        total += (1 - built[t]) * pen[t]
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
