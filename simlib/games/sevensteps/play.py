"""The blocks a play of 7 Steps is made of, over a State (state.py): `deal`, then `play_on`, the play's turns (per
turn `choose_aid` and `place_chain`, a build-aid tile and the chain; `score_turn`, a victory-point tile;
`take_tile`, `throw_and_refill`, `record_turn`; `final_tiles` at the end) until it ends or stops where a search
seat is to move. The kernel (kernel.py), the search kernel and a search's rollouts (search.py) all play through
`play_on`.

The turn's blocks are inlined into `play_on` (inline="always"): as calls, passing some twenty arrays a turn made
the random policy's plays 20-30% slower (measured, 2026-11-30).
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from . import constants as C
from .constants import (
    AID_LEFT,
    AIDS_PLAYED,
    AIDS_TAKEN,
    BONUS_LEFT,
    BONUS_POINTS,
    BONUSES_PLAYED,
    BONUSES_TAKEN,
    CAPPED,
    DISCS,
    PASSES,
    SCORE,
    THROWN,
    TILE_POINTS,
)
from .decisions import apply_aid, choose_pile, plan_turn, play_bonus, random_aid, random_step, throw_back
from .policies import GREEDY, RANDOM, SEARCH
from .rules import (
    bonus_earned,
    draw_disc,
    draw_tile,
    first_placements,
    may_take_tile,
    next_placements,
    place_disc,
    threshold_points,
)
from .state import (
    BAG_DRAWS,
    PL_A,
    PL_AID,
    PL_B,
    PL_CHAIN,
    PL_N,
    PL_SET,
    S_COLLAPSES,
    S_ENDING,
    S_EVENTS,
    S_MAX_NODES,
    S_REASON,
    S_TURN,
    TILE_DRAWS,
    Draws,
    begin_draws,
    draw_index,
    take_index,
)


class Until(NamedTuple):
    """Where play_on stops before the play's end: after `turns` more turns (0: no limit), where a seat of policy
    `code` is to move and no plan is left (-1: none)."""

    turns: int
    code: int


TO_THE_END = Until(0, -1)


class Events(NamedTuple):
    """What a play records: event rows being written (`table` [row, EV_*], the play's index (its rows' EV_PLAY),
    the next row to write, -1: the play writes none), and the standing, every seat's score after each turn
    ([turn, seat], the last with the unused tiles' points; no rows: not kept, as in a search's rollouts)."""

    table: np.ndarray
    play: int
    row: int
    standing: np.ndarray


class TurnWork(NamedTuple):
    """A turn's work arrays: the discs placed, the hand before the turn and what it threw back and drew, and the
    legal placements' lists."""

    fields: np.ndarray       # [7] the discs placed: their fields, levels, the directions stepped in, collapses
    levels: np.ndarray
    dirs: np.ndarray
    colls: np.ndarray
    hand_before: np.ndarray  # [7 colours]
    thrown: np.ndarray       # [7 colours]
    refill: np.ndarray       # [7 colours] drawn after the turn
    plan: np.ndarray         # [7] the chain a policy plans (choose_aid)
    used: np.ndarray         # [49] fields placed on this turn
    cand: np.ndarray         # [49] the legal placements, and the direction stepped to each
    cand_dir: np.ndarray


class TurnDone(NamedTuple):
    """What a turn did besides its discs (its turn row)."""

    placed: int
    points: int
    aid: int         # the build-aid tile played (-1: none), on aid_a (and aid_b)
    aid_a: int
    aid_b: int
    bonus_tile: int  # the victory-point tile played (-1: none), and the points it paid
    bonus: int
    taken: int       # the pile a tile was taken from (-1: none), and the tile
    taken_tile: int


@block()
def new_turn_work():
    return TurnWork(np.zeros(C.HAND, np.int64), np.zeros(C.HAND, np.int64), np.zeros(C.HAND, np.int64),
                    np.zeros(C.HAND, np.int64), np.zeros(C.N_COLOURS, np.int64), np.zeros(C.N_COLOURS, np.int64),
                    np.zeros(C.N_COLOURS, np.int64), np.zeros(C.HAND, np.int64), np.zeros(C.N_FIELDS, np.bool_),
                    np.zeros(C.N_FIELDS, np.int64), np.zeros(C.N_FIELDS, np.int64))


@nb.njit(cache=True, inline="always")
def _sum(a):
    s = 0
    for x in a:
        s += x
    return s


@block()
def deal(st, n_aid, n_bonus, key):
    """An empty board, 140 discs in the bag, both tile piles whole, 7 discs to each seat (the set-up's draws,
    turn -1); seat 0 to move."""
    hands, draw_turn, drawn = st.hands, st.draw_turn, st.drawn
    begin_draws(draw_turn, drawn, -1)
    st.height[:] = 0
    st.bag[:] = C.DISCS_PER_COLOUR
    st.held[:] = -1
    for t in range(n_aid):
        st.piles[C.AID, t] = t
    for t in range(n_bonus):
        st.piles[C.BONUS, t] = t
    st.n_piles[C.AID], st.n_piles[C.BONUS] = n_aid, n_bonus
    st.n_discards[:] = 0
    st.seat_out[:] = 0
    st.sc[:] = 0
    st.sc[S_REASON] = -1
    hands[:] = 0
    for s in range(hands.shape[0]):
        for _ in range(C.HAND):
            hands[s, draw_disc(st.bag, key, take_index(draw_turn, drawn, BAG_DRAWS))] += 1


@nb.njit(cache=True, inline="always")
def place_chain(code, chain, effect, max_discs, height, hand, bd, draws, work):
    """Place the turn's discs: the planned `chain` (chain-searching policies) or random steps; each placement is
    taken from the rules' legal lists. Returns how many were placed (work.fields, levels, dirs, colls filled;
    work.used, cand, cand_dir are work space)."""
    fields, levels, dirs, colls = work.fields, work.levels, work.dirs, work.colls
    used, cand, cand_dir = work.used, work.cand, work.cand_dir
    used[:] = False
    n = 0
    while n < max_discs:
        if n == 0:
            k = first_placements(height, bd, hand, effect, cand)
        else:
            k = next_placements(height, bd, hand, used, fields[n - 1], levels[n - 1], effect, cand, cand_dir)
        if k == 0:
            break
        if code == RANDOM:
            j = random_step(k, n, draws)
        elif n < chain.shape[0]:
            j = 0
            while j < k and cand[j] != chain[n]:
                j += 1
            if j == k:
                raise AssertionError("a planned disc is not a legal placement")
        else:
            j = k
        if j == k:  # stop (random), or the plan's end
            break
        f = cand[j]
        level, collapses = place_disc(height, bd.colour, bd.colour_fields, f)
        used[f] = True
        hand[bd.colour[f]] -= 1
        fields[n], levels[n], colls[n] = f, level, collapses
        dirs[n] = cand_dir[j] if n > 0 else -1
        n += 1
    return n


@nb.njit(cache=True, inline="always")
def choose_aid(st, setup, draws, s, code, prm, chain):
    """Whether seat s plays its held build-aid tile, on what, and (chain-searching policies) the chain to place,
    into `chain`. Returns (the tile played or -1, its targets, the chain's length: 0 for the random policy)."""
    held, height = st.held, st.height
    aid_tile, aid_a, aid_b = -1, -1, -1
    plan_n = 0
    if code == RANDOM:
        if held[s, C.AID] >= 0:
            play_it, aid_a, aid_b = random_aid(held[s, C.AID], height, setup.board, setup.tiles, draws)
            if play_it:
                aid_tile = held[s, C.AID]
    else:
        play_it, aid_a, aid_b, plan_n, nodes, capped = plan_turn(code, prm, held[s, C.AID], held[s, C.BONUS], height,
                                                                 st.hands[s], setup, draws, chain)
        st.sc[S_MAX_NODES] = max(st.sc[S_MAX_NODES], nodes)
        st.seat_out[CAPPED, s] += capped
        if play_it:
            aid_tile = held[s, C.AID]
    return aid_tile, aid_a, aid_b, plan_n


@nb.njit(cache=True, inline="always")
def discard(discards, n_discards, kind, tile):
    discards[kind, n_discards[kind]] = tile
    n_discards[kind] += 1


@nb.njit(cache=True, inline="always")
def score_turn(st, setup, draws, work, code, s, n):
    """The turn's points: the levels of its n discs, and a held victory-point tile whose condition the chain meets
    (if the policy plays it). Returns (points, the tile played or -1, its bonus)."""
    held, seat_out, ta = st.held, st.seat_out, setup.tiles
    points = _sum(work.levels[:n])
    tile = held[s, C.BONUS]
    if n == 0 or tile < 0:
        return points, -1, 0
    bonus = bonus_earned(tile, ta.bonus_measure, ta.bonus_at_least, ta.bonus_points, n, work.fields, work.levels,
                         work.dirs, setup.board.colour)
    if bonus == 0 or not play_bonus(code, draws):
        return points, -1, 0
    discard(st.discards, st.n_discards, C.BONUS, tile)
    held[s, C.BONUS] = -1
    seat_out[BONUSES_PLAYED, s] += 1
    seat_out[BONUS_POINTS, s] += bonus
    return points + bonus, tile, bonus


@nb.njit(cache=True, inline="always")
def take_tile(st, draws, code, prm, s):
    """After a low turn: a random tile of a pile the policy picks among those seat s may take from.
    Returns (the pile or -1, the tile)."""
    held, piles, n_piles, discards, n_discards = st.held, st.piles, st.n_piles, st.discards, st.n_discards
    can_aid = held[s, C.AID] < 0 and n_piles[C.AID] + n_discards[C.AID] > 0
    can_bonus = held[s, C.BONUS] < 0 and n_piles[C.BONUS] + n_discards[C.BONUS] > 0
    kind = choose_pile(code, prm, can_aid, can_bonus, draws)
    if kind < 0:
        return -1, -1
    # a turn takes one tile at most: its draws are ranked by pile and tile (rules.draw_tile), not counted
    tile = draw_tile(piles, n_piles, discards, n_discards, kind, draws.key,
                     draw_index(draws.turn, TILE_DRAWS, kind * piles.shape[1]))
    held[s, kind] = tile
    st.seat_out[AIDS_TAKEN if kind == C.AID else BONUSES_TAKEN, s] += 1
    return kind, tile


@nb.njit(cache=True, inline="always")
def throw_and_refill(st, bd, draws, work, code, prm, hand):
    """Discs thrown back (the policy's choice, into work.thrown), then drawn up to 7 (per colour into
    work.refill). Returns True if the bag ran short."""
    bag, thrown, refill = st.bag, work.thrown, work.refill
    throw_back(code, prm, hand, st.height, bd, thrown)
    for c in range(C.N_COLOURS):
        hand[c] -= thrown[c]
        bag[c] += thrown[c]
    refill[:] = 0
    for _ in range(C.HAND - _sum(hand)):
        if _sum(bag) == 0:
            return True
        c = draw_disc(bag, draws.key, take_index(draws.turn, draws.drawn, BAG_DRAWS))
        hand[c] += 1
        refill[c] += 1
    return False


@nb.njit(cache=True, inline="always")
def record_turn(events, turn, s, bag, colour, work, done):
    """The turn's event rows from row events.row: one per disc, then the turn's own. Returns the next free row."""
    ev, play, r, fields, levels, colls = events.table, events.play, events.row, work.fields, work.levels, work.colls
    points = done.points
    for k in range(done.placed):
        ev[r, C.EV_KIND], ev[r, C.EV_PLAY], ev[r, C.EV_TURN], ev[r, C.EV_SEAT] = C.ROW_DISC, play, turn, s
        ev[r, C.EV_SCORE], ev[r, C.EV_DISC], ev[r, C.EV_FIELD] = points, k, fields[k]
        ev[r, C.EV_COLOUR], ev[r, C.EV_LEVEL], ev[r, C.EV_COLLAPSES] = colour[fields[k]], levels[k], colls[k]
        r += 1
    ev[r, C.EV_KIND], ev[r, C.EV_PLAY], ev[r, C.EV_TURN], ev[r, C.EV_SEAT] = C.ROW_TURN, play, turn, s
    ev[r, C.EV_SCORE], ev[r, C.EV_AID], ev[r, C.EV_AID_FIELD] = points, done.aid, done.aid_a
    ev[r, C.EV_AID_TARGET], ev[r, C.EV_BONUS], ev[r, C.EV_BONUS_POINTS] = done.aid_b, done.bonus_tile, done.bonus
    ev[r, C.EV_TAKEN], ev[r, C.EV_TAKEN_TILE], ev[r, C.EV_PLACED] = done.taken, done.taken_tile, done.placed
    ev[r, C.EV_BAG_LEFT] = _sum(bag)
    for c in range(C.N_COLOURS):
        ev[r, C.EV_HAND + c], ev[r, C.EV_THROWN + c] = work.hand_before[c], work.thrown[c]
        ev[r, C.EV_DRAWN + c] = work.refill[c]
    return r + 1


@nb.njit(cache=True, inline="always")
def final_tiles(held, unused_tile_points, seat_out):
    """Every tile still held scores."""
    for s in range(held.shape[0]):
        for kind, column in ((C.AID, AID_LEFT), (C.BONUS, BONUS_LEFT)):
            if held[s, kind] >= 0:
                seat_out[column, s] = 1
                seat_out[TILE_POINTS, s] += unused_tile_points
        seat_out[SCORE, s] += seat_out[TILE_POINTS, s]


@block(_nrt=False)
def play_on(st, setup, lineup, key, plan, until, events, work):
    """Turns of the play with the seats' policies (`lineup`) until it ends (then the unused tiles score), or
    `until` says. `plan` (when plan[PL_SET]) is a search's choice for the first turn, whose tile pile and
    throw-back are greedy's at its defaults; otherwise the seats' policies choose. Records the turns from
    events.row (if >= 0); returns the next row. `work`: the turn's work arrays (new_turn_work), read by nothing
    outside a call.

    The play's turn and end are held in locals for the loop and written back to `st.sc` at the end. It
    allocates nothing and is compiled without reference counts: with them, every array the turn's inline blocks
    take out of the NamedTuples cost a count up and down, and random plays ran at 0.85x (measured 2026-12-06);
    the blocks it calls that allocate say `_nrt=True`."""
    height, bag, hands, held, seat_out, sc = st.height, st.bag, st.hands, st.held, st.seat_out, st.sc
    draw_turn, drawn, discards, n_discards = st.draw_turn, st.drawn, st.discards, st.n_discards
    bd, ta, rules, codes, prm = setup.board, setup.tiles, setup.rules, lineup.codes, lineup.params
    plan_prm = lineup.defaults[GREEDY]
    draws = Draws(key, draw_turn, drawn)
    colls, hand_before, thrown = work.colls, work.hand_before, work.thrown
    n_seats, row = hands.shape[0], events.row
    turn, ending, reason = sc[S_TURN], sc[S_ENDING] != 0, sc[S_REASON]
    planned, done = plan[PL_SET] != 0, 0
    while reason < 0 and (until.turns == 0 or done < until.turns):
        s = turn % n_seats
        code, tprm = codes[s], prm[s]
        if code == until.code and not planned:
            break
        if planned:
            code, tprm = SEARCH, plan_prm
        begin_draws(draw_turn, drawn, turn)  # here, not before a stop: a search seat's turn begins once
        done += 1
        hand = hands[s]
        for c in range(C.N_COLOURS):
            hand_before[c] = hand[c]
        n, aid, aid_a, aid_b = 0, -1, -1, -1
        if _sum(hand) > 0:
            if planned:
                aid = held[s, C.AID] if plan[PL_AID] != 0 else -1
                aid_a, aid_b, chain, chain_n = plan[PL_A], plan[PL_B], plan[PL_CHAIN:], plan[PL_N]
            else:
                aid, aid_a, aid_b, chain_n = choose_aid(st, setup, draws, s, code, tprm, work.plan)
                chain = work.plan
            effect, max_discs = -1, C.HAND
            if aid >= 0:
                effect, max_discs = ta.aid_effect[aid], ta.aid_max_discs[aid]
                apply_aid(effect, aid_a, aid_b, height, bag, bd.colour)
                discard(discards, n_discards, C.AID, aid)
                held[s, C.AID] = -1
                seat_out[AIDS_PLAYED, s] += 1
            n = place_chain(code, chain[:chain_n], effect, max_discs, height, hand, bd, draws, work)
        else:
            seat_out[PASSES, s] += 1
        planned = False
        points, bonus_tile, bonus = score_turn(st, setup, draws, work, code, s, n)
        seat_out[SCORE, s] += points
        seat_out[DISCS, s] += n
        sc[S_COLLAPSES] += _sum(colls[:n])
        taken, taken_tile = -1, -1
        if may_take_tile(n, threshold_points(points - bonus, bonus, rules.bonus_counts), rules.tile_threshold):
            taken, taken_tile = take_tile(st, draws, code, tprm, s)
        # a refill short of 7 ends the game once the round is completed
        ending |= throw_and_refill(st, bd, draws, work, code, tprm, hand)
        seat_out[THROWN, s] += _sum(thrown)
        if row >= 0:
            row = record_turn(Events(events.table, events.play, row, events.standing), turn, s, bag, bd.colour, work,
                              TurnDone(n, points, aid, aid_a, aid_b, bonus_tile, bonus, taken, taken_tile))
        sc[S_EVENTS] += n + 1
        turn += 1
        if ending and s == n_seats - 1:
            reason = C.BAG_EMPTY
        elif turn >= rules.max_turns:
            reason = C.TURN_LIMIT
        if reason >= 0:
            final_tiles(held, rules.unused_tile_points, seat_out)
        if events.standing.shape[0] > 0:
            for q in range(n_seats):
                events.standing[turn - 1, q] = seat_out[SCORE, q]
    sc[S_TURN], sc[S_ENDING], sc[S_REASON] = turn, ending, reason
    return row
