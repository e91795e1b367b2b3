"""The rules of 7 Steps as pure compiled functions over the board's arrays (named blocks the kernel,
the policies' search and the tests share).

The board state is `height` [49]: discs on each field (every disc of a tower has its field's colour); `bd` is
the board's arrays (state.BoardArrays).
A hand or the bag is 7 counts, one per colour.
"""

import numpy as np

from ...core.blocks import block
from ...core.rng import below, draw
from .constants import (
    DOWNHILL,
    HIGH_START,
    LEVEL,
    LINE,
    N_COLOURS,
    N_FIELDS,
    ONE_COLOUR,
    STEP_UP_2,
    STEPS_UP,
    TOP_LEVEL,
)


@block(_nrt=True)
def first_placements(height, bd, hand, effect, out):
    """Fields where a turn's first disc may go, into `out`; returns how many.

    A held colour's disc goes on a field of its colour at the lowest height of the field's group (the
    colour over the board, or the colour on one tile: option first_disc); under high_start, on any field of
    a held colour."""
    colour, group = bd.colour, bd.group
    lowest = np.empty(N_FIELDS, np.int64)  # per group (at most 49 groups)
    lowest[:] = 1 << 30
    for f in range(N_FIELDS):
        if height[f] < lowest[group[f]]:
            lowest[group[f]] = height[f]
    n = 0
    for f in range(N_FIELDS):
        if hand[colour[f]] > 0 and (effect == HIGH_START or height[f] == lowest[group[f]]):
            out[n] = f
            n += 1
    return n


@block(_nrt=False)
def threshold_points(disc_points, bonus, bonus_counts):
    """The points the tile threshold compares: the discs placed ("hierbei", option threshold_counts = discs),
    or with the victory-point tile's bonus (total)."""
    return disc_points + bonus if bonus_counts else disc_points


@block(_nrt=False)
def may_take_tile(placed, points, threshold):
    """A turn that placed a disc and scored fewer than `threshold` points (as `threshold_points` counts them)
    earns a tile."""
    return placed > 0 and points < threshold


@block(_nrt=False)
def step_allowed(level, last_level, effect):
    """May a disc at `level` follow one at `last_level`? Same or one higher; step_up_2 also two higher;
    downhill also lower."""
    if effect == DOWNHILL:
        return level <= last_level + 1
    if effect == STEP_UP_2:
        return last_level <= level <= last_level + 2
    return last_level <= level <= last_level + 1


@block(_nrt=False)
def next_placements(height, bd, hand, used, last_field, last_level, effect, out, out_dir):
    """Fields where the next disc may go (adjacent to the last, of a held colour, not used this turn, at
    an allowed level), with the direction stepped in; returns how many."""
    colour, neighbours = bd.colour, bd.neighbours
    n = 0
    for d in range(6):
        g = neighbours[last_field, d]
        if g >= 0 and not used[g] and hand[colour[g]] > 0 and step_allowed(height[g] + 1, last_level, effect):
            out[n] = g
            out_dir[n] = d
            n += 1
    return n


@block(_nrt=False)
def place_disc(height, colour, colour_fields, f):
    """Put a disc on field f; returns (its level, towers collapsed). A tower reaching 7 is removed and its
    discs go one onto each field of its colour; towers reaching 7 together go together (k discs each), and
    this repeats while any reaches 7."""
    height[f] += 1
    level = height[f]
    collapses = 0
    if level < TOP_LEVEL:
        return level, collapses
    fields = colour_fields[colour[f]]
    while True:
        k = 0
        for g in fields:
            if height[g] >= TOP_LEVEL:
                k += 1
                height[g] = 0
        if k == 0:
            return level, collapses
        collapses += k
        for g in fields:
            height[g] += k


@block(_nrt=True)
def measure(kind, n, fields, levels, dirs, colour):
    """A victory-point measure of the n discs placed this turn (fields, levels, the direction of each step)."""
    if kind == LEVEL:
        best = 0
        for i in range(n):
            best = max(best, levels[i])
        return best
    if kind == LINE:
        best = min(n, 2)  # two adjacent discs are a line of two
        run = 1
        for i in range(2, n):
            run = run + 1 if dirs[i] == dirs[i - 1] else 1
            best = max(best, run + 1)
        return best
    if kind == STEPS_UP:
        ups = 0
        for i in range(1, n):
            ups += levels[i] > levels[i - 1]
        return ups
    counts = np.zeros(N_COLOURS, np.int64)
    for i in range(n):
        counts[colour[fields[i]]] += 1
    if kind == ONE_COLOUR:
        return counts.max()
    used = 0
    for c in range(N_COLOURS):
        used += counts[c] > 0
    return used


@block(_nrt=False)
def bonus_earned(tile, bonus_measure, bonus_at_least, bonus_points, n, fields, levels, dirs, colour):
    """The points victory-point tile `tile` (-1: none) pays for this turn's discs (0 if its condition fails)."""
    if tile < 0:
        return 0
    if measure(bonus_measure[tile], n, fields, levels, dirs, colour) >= bonus_at_least[tile]:
        return bonus_points[tile]
    return 0


@block(_nrt=False)
def take_down_targets(height, out):
    """take_down: the towers whose top disc may go back to the bag (every non-empty field)."""
    n = 0
    for f in range(N_FIELDS):
        if height[f] > 0:
            out[n] = f
            n += 1
    return n


@block(_nrt=False)
def move_tower_targets(height, colour, colour_fields, out_from, out_to):
    """move_tower: every (tower, empty field of its colour) pair."""
    n = 0
    for f in range(N_FIELDS):
        if height[f] > 0:
            for g in colour_fields[colour[f]]:
                if height[g] == 0:
                    out_from[n] = f
                    out_to[n] = g
                    n += 1
    return n


@block(_nrt=False)
def draw_disc(bag, key, index):
    """Draw one disc from the bag (counts per colour), uniformly over the discs; returns its colour."""
    total = 0
    for c in range(N_COLOURS):
        total += bag[c]
    u = below(draw(key, index), total)
    for c in range(N_COLOURS):
        if u < bag[c]:
            bag[c] -= 1
            return c
        u -= bag[c]
    return -1


@block(_nrt=False)
def draw_tile(piles, n_piles, discards, n_discards, kind, key, index):
    """A random tile of pile `kind` (its face-down tiles are shuffled: any is equally likely); an empty pile
    is refilled from its discards first. Returns the tile, or -1 if pile and discards are empty.

    Each tile t in the pile draws number `index + t` and the least is taken: uniform, and keyed by the tile, so two
    variants of a play whose piles differ by a tile (taken in one only) take the same tile unless that one would
    win (a draw of a position among the pile's n would part nearly every later take)."""
    if n_piles[kind] == 0:
        for i in range(n_discards[kind]):
            piles[kind, i] = discards[kind, i]
        n_piles[kind] = n_discards[kind]
        n_discards[kind] = 0
    if n_piles[kind] == 0:
        return -1
    j, best = 0, draw(key, index + piles[kind, 0])
    for i in range(1, n_piles[kind]):
        u = draw(key, index + piles[kind, i])
        if u < best:
            j, best = i, u
    tile = piles[kind, j]
    n_piles[kind] -= 1
    piles[kind, j] = piles[kind, n_piles[kind]]
    return tile
