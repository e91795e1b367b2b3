"""Die Mauer with the `random` policy in lockstep NumPy: every play of a batch advances one Baurunde
per step, branches become masks.

This is not used to simulate. It exists to measure the kernel design (`make bench` compares it
with the Numba kernel) and, since it makes the same keyed draws, the tests check that it gives
exactly the kernel's results: a second, independent implementation of the rules.
Single Spielrunden only (rounds = 1).
"""

from __future__ import annotations

import numpy as np

from .constants import BAURUNDE_LIMIT, DEADLOCK, EMPTIED, END_LEFT, END_RIGHT, END_START, GATE, HOLLOW, N_TYPES

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_PLAN, _CASE1, _GIFT, _END = 0, 1, 2, 3


def _mix64(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _play_keys(seed: int, plays: np.ndarray) -> np.ndarray:
    seed_key = _mix64(np.array([(seed + _GOLDEN) & _MASK64], np.uint64))[0]
    return _mix64(seed_key + plays.astype(np.uint64) * np.uint64(_GOLDEN))


def _draw(keys: np.ndarray, br: int, seat, purpose: int) -> np.ndarray:
    # A 1-element array rather than a scalar: NumPy wraps uint64 overflow silently only for arrays.
    index = (np.atleast_1d(np.asarray(seat, np.uint64)) + np.uint64(br * 8)) * np.uint64(8) + np.uint64(purpose)
    return _mix64(keys + index * np.uint64(_GOLDEN))


def _below(u: np.ndarray, n: np.ndarray) -> np.ndarray:
    return (((u >> np.uint64(32)) * n.astype(np.uint64)) >> np.uint64(32)).astype(np.int64)


def _nth(allowed: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Per row, the index of the r-th True (from 0) in `allowed`."""
    return np.argmax(allowed & (allowed.cumsum(axis=1) == (r + 1)[:, None]), axis=1)


def simulate_random(seed: int, first_play: int, n_plays: int, players: int, pen: np.ndarray, max_br: int):
    """Returns (baurunden, end_reason, penalties, left) like the kernel, for rounds = 1."""
    n = players
    out_br = np.zeros(n_plays, np.int32)
    out_reason = np.zeros(n_plays, np.int8)
    out_left = np.zeros((n_plays, n, N_TYPES), np.int8)

    ids = np.arange(n_plays)
    keys = _play_keys(seed, first_play + ids)
    hands = np.ones((n_plays, n, N_TYPES), np.int8)
    wall = np.zeros((n_plays, 3), np.int64)
    types = np.arange(N_TYPES)

    def build(rows, seat, piece, br):
        w = wall[rows]
        empty = w[:, 0] == 0
        free_left = (piece < GATE) | (w[:, 1] < GATE)
        free_right = (piece < GATE) | (w[:, 2] < GATE)
        coin = _below(_draw(keys[rows], br, seat, _END), np.full(len(rows), 2)) == 0
        end = np.where(empty, END_START,
                       np.where(free_left & free_right, np.where(coin, END_LEFT, END_RIGHT),
                                np.where(free_left, END_LEFT, END_RIGHT)))
        w[:, 1] = np.where(empty | (end == END_LEFT), piece, w[:, 1])
        w[:, 2] = np.where(empty | (end == END_RIGHT), piece, w[:, 2])
        w[:, 0] += 1
        wall[rows] = w
        hands[rows, seat, piece] -= 1

    br = 0
    while len(ids):
        held_any_wall = (hands[:, :, :GATE] > 0).any(axis=(1, 2))
        dead = (wall[:, 0] > 0) & (wall[:, 1] >= GATE) & (wall[:, 2] >= GATE) & ~held_any_wall
        stop = dead | (br == max_br)
        if stop.any():
            done = ids[stop]
            out_br[done] = br
            out_reason[done] = np.where(dead[stop], DEADLOCK, BAURUNDE_LIMIT)
            out_left[done] = hands[stop]
            ids, keys, hands, wall = ids[~stop], keys[~stop], hands[~stop], wall[~stop]
            if not len(ids):
                break
        m = len(ids)
        builder = br % n
        plans = np.empty((m, n), np.int64)
        for s in range(n):
            held = hands[:, s, :] > 0
            count = held.sum(axis=1)
            r = _below(_draw(keys, br, s, _PLAN), count + 1)
            plans[:, s] = np.where(r == count, HOLLOW, _nth(held, r))
        goal = plans[:, builder]
        competitors = [(builder + j) % n for j in range(1, n)]
        hollow_count = sum((plans[:, c] == HOLLOW).astype(np.int64) for c in competitors)
        guessed = sum((plans[:, c] == goal).astype(np.int64) for c in competitors)
        sites = np.where(wall[:, 0] == 0, 1, (wall[:, 1] < GATE).astype(np.int64) + (wall[:, 2] < GATE))
        is_hollow = goal == HOLLOW
        special = (goal >= GATE) & ~is_hollow
        illegal = special & (sites == 0)
        planned = ~is_hollow & ~illegal
        competitors_build = planned & (guessed > 0) & ~(special & (guessed > sites))
        builder_builds = planned & ~competitors_build

        rows = np.nonzero(builder_builds)[0]
        build(rows, builder, goal[rows], br)
        for c in competitors:
            rows = np.nonzero(competitors_build & (plans[:, c] == goal))[0]
            build(rows, c, goal[rows], br)
        # Hollow hand, case 1: a uniformly chosen buildable type of the builder's.
        rows = np.nonzero(is_hollow & (hollow_count == 0))[0]
        if len(rows):
            buildable = (hands[rows, builder, :] > 0) & ((types < GATE) | (sites[rows, None] > 0))
            count = buildable.sum(axis=1)
            has = count > 0
            r = _below(_draw(keys[rows], br, builder, _CASE1), np.maximum(count, 1))
            build(rows[has], builder, _nth(buildable, r)[has], br)
        # Case 2: the lone hollow competitor gives a uniformly chosen type of his.
        rows = np.nonzero(is_hollow & (hollow_count == 1))[0]
        if len(rows):
            giver = np.zeros(len(rows), np.int64)
            for c in competitors:
                giver = np.where(plans[rows, c] == HOLLOW, c, giver)
            held = hands[rows, giver, :] > 0
            gift = _nth(held, _below(_draw(keys[rows], br, giver, _GIFT), held.sum(axis=1)))
            hands[rows, giver, gift] -= 1
            hands[rows, builder, gift] += 1

        br += 1
        emptied = (hands.sum(axis=2) == 0).any(axis=1)
        if emptied.any():
            done = ids[emptied]
            out_br[done] = br
            out_reason[done] = EMPTIED
            out_left[done] = hands[emptied]
            ids, keys, hands, wall = ids[~emptied], keys[~emptied], hands[~emptied], wall[~emptied]
    penalties = (out_left.astype(np.int64) * pen).sum(axis=2).astype(np.int16)
    return out_br, out_reason, penalties, out_left
