"""Die Mauer's blocks: a Baurunde resolved, Baurunden played on from any state (the kernel's plays and a
search's rollouts are the same calls), the Spielrunde's end.

Every draw is keyed by (seed, play, what), so the results do not depend on which plays share a batch.

The blocks called every Baurunde (plan, resolve_baurunde, _build, round_over) allocate nothing and are compiled
without Numba's reference counts (`_nrt=False`): taking the State's arrays out of the tuple counted a reference
to each on every call, and made plays 15-20% slower than the positional lists before; without the counts they are
faster than those (measured 2026-12-06, see the commit).
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
from .rules import is_deadlocked, place, seen_penalty, special_sites


@nb.njit(cache=True, _nrt=False)
def _build(st, seat, piece, code, key, br, ev, row):
    hands, built, wall = st.hands, st.built, st.wall
    end = end_choice(code, seat, piece, hands, wall, key, br)
    place(piece, end, wall)
    hands[seat, piece] -= 1
    built[seat, piece] += 1
    if row >= 0:
        ev[row, EV_BUILT + seat] = piece
        ev[row, EV_END + seat] = end


@nb.njit(cache=True, _nrt=False)
def resolve_baurunde(st, builder, codes, pen, key, br, ev, row):
    """The Bauphase: compare the fists (st.plans: every seat's piece or HOLLOW), build or give as the rules say,
    and return the case. Builds and gifts change the hands, built pieces and wall; event row `row` if >= 0."""
    hands, wall, plans = st.hands, st.wall, st.plans
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
                _build(st, builder, piece, codes[builder], key, br, ev, row)
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
                        _build(st, s, goal, codes[s], key, br, ev, row)
            else:
                _build(st, builder, goal, codes[builder], key, br, ev, row)
    return case


@nb.njit(cache=True, _nrt=False)
def round_over(st, br, max_br):
    """The end reason if the Spielrunde cannot go on at Baurunde `br` (the limit, a deadlock), else ONGOING."""
    if br == max_br:
        return BAURUNDE_LIMIT
    if is_deadlocked(st.hands, st.wall):
        return DEADLOCK
    return ONGOING


@nb.njit(cache=True, _nrt=False)
def _seen_after(standing, br, built, pen, builder, case):
    """Row br of the standing: each seat's penalty points as the table sees them after Baurunde br, negated. Only
    the builder can have built in every case but competitors_build, so the others' are carried over (counting every
    seat every Baurunde cost plays 5%)."""
    for s in range(built.shape[0]):
        if br == 0 or s == builder or case == COMPETITORS_BUILD:
            standing[br, s] = -seen_penalty(built[s], pen)
        else:
            standing[br, s] = standing[br - 1, s]


@nb.njit(cache=True)
def _giver(builder, plans):
    """Hollow case 2's giver: the one competitor with the hollow hand."""
    n = plans.shape[0]
    for j in range(1, n):
        if plans[(builder + j) % n] == HOLLOW:
            return (builder + j) % n
    return NONE


@nb.njit(cache=True)
def _start_row(st, builder, br, events):
    """The Baurunde's event row, before the Bauphase: the wall, the fists; nothing built or given yet."""
    ev, row, wall, plans = events.table, events.start + br, st.wall, st.plans
    ev[row, EV_PLAY] = events.play
    ev[row, EV_BR] = br
    ev[row, EV_BUILDER] = builder
    ev[row, EV_LEN] = wall[0]
    ev[row, EV_LEFT] = wall[1] if wall[0] > 0 else NONE
    ev[row, EV_RIGHT] = wall[2] if wall[0] > 0 else NONE
    ev[row, EV_GIFT_FROM] = NONE
    ev[row, EV_GIFT_PIECE] = NONE
    for s in range(plans.shape[0]):
        ev[row, EV_PLAN + s] = plans[s]
        ev[row, EV_BUILT + s] = NONE
        ev[row, EV_END + s] = NONE
    return row


@nb.njit(cache=True)
def play_baurunden(st, setup, seats, key, fixed, br, limit, events):
    """Baurunden from `br` on, at most `limit`; returns (the next Baurunde, the end reason or ONGOING).

    Seat s plans fixed[s] in the first Baurunde where fixed[s] != NONE (a search's choice), else by its policy
    (`seats`, a core Lineup by seat). `st.gave[s]` collects the bits of the seats s gave a gift to (a search's
    view of what it has not seen). When events.start >= 0, one event row per Baurunde is written from row
    events.start + br on.
    """
    hands, plans, gave, codes, params, pen = st.hands, st.plans, st.gave, seats.codes, seats.params, setup.pen
    n = hands.shape[0]
    stop = min(setup.max_br, br + limit)
    first = True
    while True:
        reason = round_over(st, br, setup.max_br)
        if reason != ONGOING or br == stop:
            return br, reason
        builder = br % n
        for s in range(n):
            if first and fixed[s] != NONE:
                plans[s] = fixed[s]
            else:
                plans[s] = plan(st, pen, codes[s], params[s], s, builder, key, br)
        first = False
        row = _start_row(st, builder, br, events) if events.start >= 0 else -1
        case = resolve_baurunde(st, builder, codes, pen, key, br, events.table, row)
        if row >= 0:
            events.table[row, EV_CASE] = case
        if case == HOLLOW_2:
            gave[_giver(builder, plans)] |= 1 << builder
        if events.standing.shape[0] > 0:
            _seen_after(events.standing, br, st.built, pen, builder, case)
        br += 1
        for s in range(n):
            left = 0
            for t in range(N_TYPES):
                left += hands[s, t]
            if left == 0:
                return br, EMPTIED


@nb.njit(cache=True)
def play_spielrunde(st, setup, seats, key, events):
    """One Spielrunde of scripted seats; seats count from its first Bauherr. Returns (Baurunden, end reason).

    `st.hands` must hold the starting kits; the built pieces, wall and gifts must be zero.
    """
    n = st.hands.shape[0]
    return play_baurunden(st, setup, seats, key, np.full(n, NONE, np.int64), 0, setup.max_br, events)
