"""Die Mauer's blocks: a Baurunde resolved, Baurunden played on from any state (the kernel's plays and a
search's rollouts are the same calls), the Spielrunde's end.

Every draw is keyed by (seed, play, what), so the results do not depend on which plays share a batch.
"""

import numba as nb
import numpy as np

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
    ONGOING,
)
from .decisions import case1_choice, end_choice, gift_choice, plan
from .rules import is_deadlocked, place, special_sites


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
def round_over(br, max_br, hands, wall):
    """The end reason if the Spielrunde cannot go on at Baurunde `br` (the limit, a deadlock), else ONGOING."""
    if br == max_br:
        return BAURUNDE_LIMIT
    if is_deadlocked(hands, wall):
        return DEADLOCK
    return ONGOING


@nb.njit(cache=True)
def _giver(builder, plans):
    """Hollow case 2's giver: the one competitor with the hollow hand."""
    n = plans.shape[0]
    for j in range(1, n):
        if plans[(builder + j) % n] == HOLLOW:
            return (builder + j) % n
    return NONE


@nb.njit(cache=True)
def play_baurunden(key, codes, prm, pen, max_br, hands, built, wall, plans, fixed, gave, br, limit, ev, ev_start,
                   play):
    """Baurunden from `br` on, at most `limit`; returns (the next Baurunde, the end reason or ONGOING).

    Seat s plans fixed[s] in the first Baurunde where fixed[s] != NONE (a search's choice), else by its policy.
    `gave[s]` collects the bits of the seats s gave a gift to (a search's view of what it has not seen).
    When `ev_start` >= 0, one event row per Baurunde is written to `ev` from row ev_start + br on.
    """
    n = hands.shape[0]
    stop = min(max_br, br + limit)
    first = True
    while True:
        reason = round_over(br, max_br, hands, wall)
        if reason != ONGOING or br == stop:
            return br, reason
        builder = br % n
        for s in range(n):
            if first and fixed[s] != NONE:
                plans[s] = fixed[s]
            else:
                plans[s] = plan(codes[s], prm[s], s, builder, hands, built, wall, pen, key, br)
        first = False
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
        if case == HOLLOW_2:
            gave[_giver(builder, plans)] |= 1 << builder
        br += 1
        for s in range(n):
            left = 0
            for t in range(N_TYPES):
                left += hands[s, t]
            if left == 0:
                return br, EMPTIED


@nb.njit(cache=True)
def play_spielrunde(key, codes, prm, pen, max_br, hands, built, wall, plans, ev, ev_start, play):
    """One Spielrunde of scripted seats; seats count from its first Bauherr. Returns (Baurunden, end reason).

    `hands` must hold the starting kits; `built` and `wall` must be zero. When `ev_start` >= 0,
    one event row per Baurunde is written to `ev` from that row on.
    """
    n = hands.shape[0]
    fixed, gave = np.full(n, NONE, np.int64), np.zeros(n, np.int64)
    return play_baurunden(key, codes, prm, pen, max_br, hands, built, wall, plans, fixed, gave, 0, max_br, ev,
                          ev_start, play)


