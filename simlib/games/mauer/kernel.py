"""The batch kernel: whole matches of Die Mauer, compiled with Numba, one play after another.

Die Mauer branches at every step (seven resolution cases, hollow hands, gifts, ends), so a compiled
loop beats lockstep NumPy here (see `make bench`). Every draw is keyed by (seed, play, what), so the
results do not depend on which plays share a batch.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.rng import play_key
from .constants import (
    BAURUNDE_LIMIT,
    BUILDER_BUILDS,
    BUILDER_OUTGUESSED,
    COMPETITORS_BUILD,
    DEADLOCK,
    EMPTIED,
    EV_BR,
    EV_BUILDER,
    EV_BUILT,
    EV_CASE,
    EV_END,
    EV_GIFT_FROM,
    EV_GIFT_PIECE,
    EV_LEFT,
    EV_LEN,
    EV_PLAN,
    EV_PLAY,
    EV_RIGHT,
    GATE,
    HOLLOW,
    HOLLOW_1,
    HOLLOW_2,
    HOLLOW_3,
    ILLEGAL_PLAN,
    N_TYPES,
    NONE,
    START_CONTINUE,
    START_ROTATE,
)
from .decisions import case1_choice, end_choice, gift_choice, plan
from .rules import is_deadlocked, penalty, place, special_sites


@nb.njit(cache=True)
def _build(seat, piece, code, hands, built, wall, key, br, ev, row):
    end = end_choice(code, seat, piece, hands, wall, key, br)
    place(piece, end, wall)
    hands[seat, piece] -= 1
    built[seat, piece] += 1
    if row >= 0:
        ev[row, EV_BUILT + seat] = piece
        ev[row, EV_END + seat] = end


@nb.njit(cache=True)
def resolve_baurunde(builder, plans, codes, pen, hands, built, wall, key, br, ev, row):
    """The Bauphase: compare the fists, build or give as the rules say, and return the case.

    `plans` holds every seat's piece or HOLLOW; builds and gifts change `hands`, `built` and `wall`.
    """
    n = hands.shape[0]
    goal = plans[builder]
    if goal == HOLLOW:
        hollow = 0
        giver = NONE
        for j in range(1, n):
            s = (builder + j) % n
            if plans[s] == HOLLOW:
                hollow += 1
                giver = s
        if hollow == 0:
            case = HOLLOW_1
            piece = case1_choice(codes[builder], builder, hands, wall, pen, key, br)
            if piece != NONE:
                _build(builder, piece, codes[builder], hands, built, wall, key, br, ev, row)
        elif hollow == 1:
            case = HOLLOW_2
            gift = gift_choice(codes[giver], giver, hands, pen, key, br)
            hands[giver, gift] -= 1
            hands[builder, gift] += 1
            if row >= 0:
                ev[row, EV_GIFT_FROM] = giver
                ev[row, EV_GIFT_PIECE] = gift
        else:
            case = HOLLOW_3
    else:
        sites = special_sites(wall)
        if goal >= GATE and sites == 0:
            case = ILLEGAL_PLAN
        else:
            guessed = 0
            for j in range(1, n):
                if plans[(builder + j) % n] == goal:
                    guessed += 1
            if guessed == 0:
                case = BUILDER_BUILDS
            elif goal >= GATE and guessed > sites:
                case = BUILDER_OUTGUESSED
            else:
                case = COMPETITORS_BUILD
            if case == COMPETITORS_BUILD:
                for j in range(1, n):
                    s = (builder + j) % n
                    if plans[s] == goal:
                        _build(s, goal, codes[s], hands, built, wall, key, br, ev, row)
            else:
                _build(builder, goal, codes[builder], hands, built, wall, key, br, ev, row)
    return case


@nb.njit(cache=True)
def play_spielrunde(key, codes, prm, pen, max_br, hands, built, wall, plans, ev, ev_start, play):
    """One Spielrunde; seats count from its first Bauherr. Returns (Baurunden, end reason).

    `hands` must hold the starting kits; `built` and `wall` must be zero. When `ev_start` >= 0,
    one event row per Baurunde is written to `ev` from that row on.
    """
    n = hands.shape[0]
    br = 0
    while True:
        if br == max_br:
            return br, BAURUNDE_LIMIT
        if is_deadlocked(hands, wall):
            return br, DEADLOCK
        builder = br % n
        for s in range(n):
            plans[s] = plan(codes[s], prm[s], s, builder, hands, built, wall, pen, key, br)
        row = -1
        if ev_start >= 0:
            row = ev_start + br
            ev[row, EV_PLAY] = play
            ev[row, EV_BR] = br
            ev[row, EV_BUILDER] = builder
            ev[row, EV_LEN] = wall[0]
            ev[row, EV_LEFT] = wall[1] if wall[0] > 0 else NONE
            ev[row, EV_RIGHT] = wall[2] if wall[0] > 0 else NONE
            ev[row, EV_GIFT_FROM] = NONE
            ev[row, EV_GIFT_PIECE] = NONE
            for s in range(n):
                ev[row, EV_PLAN + s] = plans[s]
                ev[row, EV_BUILT + s] = NONE
                ev[row, EV_END + s] = NONE

        case = resolve_baurunde(builder, plans, codes, pen, hands, built, wall, key, br, ev, row)
        if row >= 0:
            ev[row, EV_CASE] = case
        br += 1
        for s in range(n):
            left = 0
            for t in range(N_TYPES):
                left += hands[s, t]
            if left == 0:
                return br, EMPTIED


class MauerOutputs(NamedTuple):
    """simulate_matches' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    baurunden: np.ndarray     # [plays] Baurunden played
    end_reason: np.ndarray    # [plays] EMPTIED, DEADLOCK or BAURUNDE_LIMIT
    first_player: np.ndarray  # [plays] table position of the first Bauherr (seat 0)
    penalties: np.ndarray     # [plays, seats] penalty points
    left: np.ndarray          # [plays, seats, piece types] pieces still held


@nb.njit(cache=True)
def simulate_matches(seed, first_play, n_plays, rounds, start_mode, max_br, pen, player_codes, player_prm,
                     ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (whole matches of `rounds` Spielrunden).

    Player p sits at table position p; in each Spielrunde, seat s is player (first + s) % n.
    Returns per play: Baurunden, end reason, first Bauherr's table position; per play and seat:
    penalty and pieces left by type. With `ev_offsets` non-empty, also fills the event rows.
    """
    n = player_codes.shape[0]
    baurunden = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    first_player = np.zeros(n_plays, np.int8)
    penalties = np.zeros((n_plays, n), np.int16)
    left = np.zeros((n_plays, n, N_TYPES), np.int8)

    hands = np.empty((n, N_TYPES), np.int8)
    built = np.empty((n, N_TYPES), np.int8)
    wall = np.empty(3, np.int64)
    plans = np.empty(n, np.int64)
    codes = np.empty(n, np.int64)
    prm = np.empty_like(player_prm)
    record = ev_offsets.shape[0] > 0
    for m in range(n_plays // rounds):
        first = 0
        for r in range(rounds):
            i = m * rounds + r
            play = first_play + i
            for s in range(n):
                codes[s] = player_codes[(first + s) % n]
                prm[s] = player_prm[(first + s) % n]
            hands[:] = 1
            built[:] = 0
            wall[:] = 0
            key = play_key(seed, play)
            ev_start = ev_offsets[i] if record else -1
            nbr, reason = play_spielrunde(key, codes, prm, pen, max_br, hands, built, wall, plans, ev, ev_start,
                                          play)
            baurunden[i] = nbr
            end_reason[i] = reason
            first_player[i] = first
            for s in range(n):
                penalties[i, s] = penalty(hands[s], pen)
                left[i, s] = hands[s]
            if start_mode == START_CONTINUE:
                first = (first + nbr) % n   # the stone goes on to the left of the last Bauherr
            elif start_mode == START_ROTATE:
                first = (first + 1) % n
    return baurunden, end_reason, first_player, penalties, left
