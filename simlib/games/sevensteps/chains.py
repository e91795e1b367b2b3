"""The chain search of the greedy and climber policies: every chain this turn can place, depth first,
the placement applied and undone in place.

A chain is fixed by its fields (discs of one colour are alike), so the search visits each legal chain
once: at most the simple paths of up to 7 fields whose colours the hand can pay for (7,664 on the
standard board's back, 3,861 on its front, for the worst hand on an empty board; docs/games/sevensteps.md).
`max_nodes` caps other layouts. A branch is cut when even discs climbing one level a step (two under
step_up_2), capped at 7, and the held victory-point tile could not reach the best value found. `top_chains`
keeps the best few chains for the search policy's candidates (search.py).
"""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.rng import below
from .constants import HAND, N_COLOURS, N_FIELDS, STEP_UP_2, TOP_LEVEL
from .rules import bonus_earned, first_placements, next_placements, place_disc, threshold_points
from .state import TIE_DRAWS, take

TOP_VALUE, TOP_N, TOP_FIELDS = range(3)  # top_chains' columns


class Query(NamedTuple):
    """What a chain search looks for, and within which limits."""

    max_discs: int     # the most discs the turn may place (a build-aid tile's limit, else 7)
    effect: int        # the build-aid tile's effect on the placing rules (-1: none)
    bonus_tile: int    # the victory-point tile held (-1: none): its points count where a chain meets it
    squares: bool      # value a chain by its squared levels (climber), not its levels
    threshold: int     # > 0: also the best chain below the tile threshold (then nothing is cut)
    bonus_counts: bool  # the threshold counts the bonus too (the rule option threshold_counts = total)
    max_nodes: int     # chains visited at most


class Chain(NamedTuple):
    """What best_chain found."""

    fields: np.ndarray      # the best chain's fields, in order (its first `length` entries)
    length: int
    value: int              # its value: levels (or squared levels) plus the bonus it earns
    score: int              # its points: levels plus the bonus
    low_fields: np.ndarray  # with a threshold: the highest-scoring chain whose threshold points (levels, plus
                            # the bonus when bonus_counts) are below it
    low_length: int         # (0: none)
    low_score: int
    nodes: int              # chains visited
    capped: bool            # stopped by max_nodes


@block(_nrt=False)
def _gain(level, squares):
    return level * level if squares else level


@block(_nrt=False)
def _upper_bound(last_level, discs, step, squares):
    add = 0
    for j in range(1, discs + 1):
        add += _gain(min(TOP_LEVEL, last_level + j * step), squares)
    return add


@block(_nrt=False)
def _undo(f, was_collapse, saved, height, colour, colour_fields, used, hand):
    """Take back the disc placed on f: one disc off, or (after a collapse) the colour's saved heights."""
    if was_collapse:
        for i in range(7):
            height[colour_fields[colour[f], i]] = saved[i]
    else:
        height[f] -= 1
    used[f] = False
    hand[colour[f]] += 1


@block(_nrt=False)
def _keep(best, ties, value, draws):
    """Reservoir choice among equal values: is this one kept? (ties counts those seen, this one included)."""
    if value > best:
        return True, 1
    if value < best:
        return False, ties
    ties += 1
    return below(take(draws, TIE_DRAWS), ties) == 0, ties


@block(_nrt=True)
def best_chain(height, hand, bd, ta, query, draws):
    """The chain of highest value (sum of levels, or of squared levels with query.squares, plus the held
    victory-point tile's points where the chain meets it), ties drawn uniformly (TIE_DRAWS of `draws`); with
    query.threshold > 0 also the highest-scoring chain that earns a tile: whose levels (plus its bonus, with
    query.bonus_counts: the rule's threshold_counts) are below it (then nothing is cut). `height` and `hand` are
    restored."""
    return _search(height, hand, bd, ta, query, draws, None)


@block(_nrt=True)
def top_chains(height, hand, bd, ta, query, draws, top):
    """best_chain (by the sum of levels: query.squares is False), which also keeps the top.shape[0] chains of
    highest value in `top` (rows: value, length, fields; the first of equal values kept; unfilled rows have
    length 0), the cut against the lowest of them. A search policy's candidates."""
    return _search(height, hand, bd, ta, query, draws, top)


@block(_nrt=True)  # a slice's copy may allocate
def _offer(top, count, value, n, fields):
    """Keep the chain among the best top.shape[0] by value (an equal value does not displace one kept).
    Returns (chains kept, the lowest value kept once they are top.shape[0], else -1)."""
    slot = count
    if count == top.shape[0]:
        slot = 0
        for r in range(1, count):
            if top[r, TOP_VALUE] < top[slot, TOP_VALUE]:
                slot = r
        if value <= top[slot, TOP_VALUE]:
            return count, top[slot, TOP_VALUE]
    else:
        count += 1
    top[slot, TOP_VALUE], top[slot, TOP_N] = value, n
    top[slot, TOP_FIELDS:TOP_FIELDS + n] = fields[:n]
    if count < top.shape[0]:
        return count, -1
    floor = top[0, TOP_VALUE]
    for r in range(1, count):
        floor = min(floor, top[r, TOP_VALUE])
    return count, floor


@block(_nrt=True)
def _search(height, hand, bd, ta, query, draws, top):
    """best_chain, and with `top` (not None) top_chains. best_chain passes None, so that Numba compiles its
    version without the `top` code: an empty array there made greedy plays about 15% slower (measured
    2026-12-03)."""
    colour, colour_fields = bd.colour, bd.colour_fields
    bonus_measure, bonus_at_least, bonus_points = ta.bonus_measure, ta.bonus_at_least, ta.bonus_points
    max_discs, effect, bonus_tile, squares = query.max_discs, query.effect, query.bonus_tile, query.squares
    threshold, bonus_counts, max_nodes = query.threshold, query.bonus_counts, query.max_nodes
    cand = np.empty((HAND + 1, N_FIELDS), np.int64)
    cdir = np.empty((HAND + 1, N_FIELDS), np.int64)
    ncand = np.zeros(HAND + 1, np.int64)
    pos = np.zeros(HAND + 1, np.int64)
    fields = np.empty(HAND, np.int64)
    levels = np.empty(HAND, np.int64)
    dirs = np.zeros(HAND, np.int64)
    saved = np.empty((HAND, 7), np.int64)
    collapsed = np.zeros(HAND, np.bool_)
    used = np.zeros(N_FIELDS, np.bool_)
    best = np.empty(HAND, np.int64)
    low = np.empty(HAND, np.int64)
    best_n, best_value, best_score, ties = 0, -1, 0, 0
    low_n, low_score, low_ties = 0, -1, 0
    nodes, capped = 0, False
    top_count, floor = 0, -1
    if top is not None:
        top[:, TOP_VALUE], top[:, TOP_N] = -1, 0
    step = 2 if effect == STEP_UP_2 else 1
    possible_bonus = bonus_points[bonus_tile] if bonus_tile >= 0 else 0
    in_hand = 0
    for c in range(N_COLOURS):
        in_hand += hand[c]
    ncand[0] = first_placements(height, bd, hand, effect, cand[0])
    d = 0
    gained = 0  # sum of the placed discs' gains (levels or squares)
    total = 0   # sum of their levels
    while d >= 0:
        if pos[d] < ncand[d] and nodes >= max_nodes:
            capped = True
        if pos[d] >= ncand[d] or capped:
            d -= 1
            if d >= 0:  # back to depth d: take its disc back
                _undo(fields[d], collapsed[d], saved[d], height, colour, colour_fields, used, hand)
                gained -= _gain(levels[d], squares)
                total -= levels[d]
            continue
        f = cand[d, pos[d]]
        dirs[d] = cdir[d, pos[d]] if d > 0 else -1
        pos[d] += 1
        for i in range(7):
            saved[d, i] = height[colour_fields[colour[f], i]]
        level, collapses = place_disc(height, colour, colour_fields, f)
        collapsed[d] = collapses > 0
        fields[d] = f
        levels[d] = level
        used[f] = True
        hand[colour[f]] -= 1
        gained += _gain(level, squares)
        total += level
        nodes += 1
        n = d + 1
        bonus = bonus_earned(bonus_tile, bonus_measure, bonus_at_least, bonus_points, n, fields, levels, dirs, colour)
        kept, ties = _keep(best_value, ties, gained + bonus, draws)
        if kept:
            best_value, best_score, best_n = gained + bonus, total + bonus, n
            best[:n] = fields[:n]
        if top is not None:
            top_count, floor = _offer(top, top_count, gained + bonus, n, fields)
        if threshold > 0 and threshold_points(total, bonus, bonus_counts) < threshold:
            kept, low_ties = _keep(low_score, low_ties, total + bonus, draws)
            if kept:
                low_score, low_n = total + bonus, n
                low[:n] = fields[:n]
        left = min(max_discs - n, in_hand - n)
        deeper = left > 0
        if deeper and threshold <= 0:
            bar = best_value if top is None else floor
            deeper = gained + _upper_bound(level, left, step, squares) + possible_bonus >= bar
        if deeper:
            ncand[n] = next_placements(height, bd, hand, used, f, level, effect, cand[n], cdir[n])
            pos[n] = 0
            d = n
        else:  # stay at depth d: take this disc back, then try its next sibling
            _undo(f, collapsed[d], saved[d], height, colour, colour_fields, used, hand)
            gained -= _gain(level, squares)
            total -= level
    return Chain(best, best_n, best_value, best_score, low, low_n, low_score, nodes, capped)
