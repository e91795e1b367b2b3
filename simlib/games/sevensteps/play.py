"""The blocks a play of 7 Steps is made of, over a State (state.py): `deal`, then `_run`, the play's turns (per
turn `choose_aid` and `place_chain`, a build-aid tile and the chain; `score_turn`, a victory-point tile;
`take_tile`, `throw_and_refill`, `record_turn`; `final_tiles` at the end) until it ends or stops where a search
seat is to move; `play_on` wraps it for a search's rollout. The kernel (kernel.py) and the search
(rollouts.py) both play through these.

The turn's blocks are inlined into `_run` (inline="always"): as calls, passing some twenty arrays a turn made
the random policy's plays 20-30% slower (measured, 2026-11-30).
"""

import numba as nb
import numpy as np

from ...core.blocks import block
from . import constants as C
from .decisions import apply_aid, choose_pile, plan_turn, play_bonus, random_aid, random_step, throw_back
from .outputs import (
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
from .policies import RANDOM, SEARCH
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
    begin_draws,
    draw_index,
    take_index,
)


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
def place_chain(code, plan, plan_n, max_discs, effect, height, hand, bd, key, draw_turn, drawn, fields, levels,
                dirs, colls, used, cand, cand_dir):
    """Place the turn's discs: the planned chain (search policies) or random steps; each placement is taken
    from the rules' legal lists. Returns how many were placed (fields, levels, directions, collapses filled;
    `used`, `cand`, `cand_dir` are work space)."""
    used[:] = False
    n = 0
    while n < max_discs:
        if n == 0:
            k = first_placements(height, bd.colour, bd.group, hand, effect, cand)
        else:
            k = next_placements(height, bd.colour, bd.neighbours, hand, used, fields[n - 1], levels[n - 1], effect,
                                cand, cand_dir)
        if k == 0:
            break
        if code == RANDOM:
            j = random_step(k, n, key, draw_turn, drawn)
        elif n < plan_n:
            j = 0
            while j < k and cand[j] != plan[n]:
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
def choose_aid(code, prm, held, height, bd, ta, hand, threshold, bonus_counts, key, draw_turn, drawn, seat_out, s, sc,
               no_plan):
    """Whether to play the held build-aid tile, on what, and (search policies) the chain to place.
    Returns (the tile played or -1, its targets, the planned chain and its length; `no_plan` and 0 for the
    random policy)."""
    aid_tile, aid_a, aid_b = -1, -1, -1
    plan, plan_n = no_plan, 0
    if code == RANDOM:
        if held[s, C.AID] >= 0:
            play_it, aid_a, aid_b = random_aid(held[s, C.AID], height, bd, ta, key, draw_turn, drawn)
            if play_it:
                aid_tile = held[s, C.AID]
    else:
        play_it, aid_a, aid_b, plan, plan_n, nodes, capped = plan_turn(
            code, prm, held[s, C.AID], held[s, C.BONUS], height, bd, ta, hand, threshold, bonus_counts, key, draw_turn,
            drawn)
        sc[S_MAX_NODES] = max(sc[S_MAX_NODES], nodes)
        seat_out[CAPPED, s] += capped
        if play_it:
            aid_tile = held[s, C.AID]
    return aid_tile, aid_a, aid_b, plan, plan_n


@nb.njit(cache=True, inline="always")
def discard(discards, n_discards, kind, tile):
    discards[kind, n_discards[kind]] = tile
    n_discards[kind] += 1


@nb.njit(cache=True, inline="always")
def score_turn(code, n, held, s, discards, n_discards, bd, ta, fields, levels, dirs, key, draw_turn, drawn,
               seat_out):
    """The turn's points: its levels, and a held victory-point tile whose condition the chain meets (if
    the policy plays it). Returns (points, the tile played or -1, its bonus)."""
    points = _sum(levels[:n])
    tile = held[s, C.BONUS]
    if n == 0 or tile < 0:
        return points, -1, 0
    bonus = bonus_earned(tile, ta.bonus_measure, ta.bonus_at_least, ta.bonus_points, n, fields, levels, dirs,
                         bd.colour)
    if bonus == 0 or not play_bonus(code, key, draw_turn, drawn):
        return points, -1, 0
    discard(discards, n_discards, C.BONUS, tile)
    held[s, C.BONUS] = -1
    seat_out[BONUSES_PLAYED, s] += 1
    seat_out[BONUS_POINTS, s] += bonus
    return points + bonus, tile, bonus


@nb.njit(cache=True, inline="always")
def take_tile(code, prm, held, s, piles, n_piles, discards, n_discards, key, draw_turn, drawn, seat_out):
    """After a low turn: a random tile of a pile the policy picks among those the seat may take from.
    Returns (the pile or -1, the tile)."""
    can_aid = held[s, C.AID] < 0 and n_piles[C.AID] + n_discards[C.AID] > 0
    can_bonus = held[s, C.BONUS] < 0 and n_piles[C.BONUS] + n_discards[C.BONUS] > 0
    kind = choose_pile(code, prm, can_aid, can_bonus, key, draw_turn, drawn)
    if kind < 0:
        return -1, -1
    # a turn takes one tile at most: its draws are ranked by pile and tile (rules.draw_tile), not counted
    tile = draw_tile(piles, n_piles, discards, n_discards, kind, key,
                     draw_index(draw_turn, TILE_DRAWS, kind * piles.shape[1]))
    held[s, kind] = tile
    seat_out[AIDS_TAKEN if kind == C.AID else BONUSES_TAKEN, s] += 1
    return kind, tile


@nb.njit(cache=True, inline="always")
def throw_and_refill(code, prm, hand, bag, height, bd, thrown, refill, key, draw_turn, drawn):
    """Discs thrown back (the policy's choice), then drawn up to 7 (per colour into `refill`). Returns True if the
    bag ran short."""
    throw_back(code, prm, hand, height, bd, thrown)
    for c in range(C.N_COLOURS):
        hand[c] -= thrown[c]
        bag[c] += thrown[c]
    refill[:] = 0
    for _ in range(C.HAND - _sum(hand)):
        if _sum(bag) == 0:
            return True
        c = draw_disc(bag, key, take_index(draw_turn, drawn, BAG_DRAWS))
        hand[c] += 1
        refill[c] += 1
    return False


@nb.njit(cache=True, inline="always")
def record_turn(ev, r, play, turn, s, n, points, aid, aid_a, aid_b, bonus_tile, bonus, taken, taken_tile, bag,
                colour, fields, levels, colls, hand_before, thrown, drawn):
    """The turn's event rows from row r: one per disc, then the turn's own. Returns the next free row."""
    for k in range(n):
        ev[r, C.EV_KIND], ev[r, C.EV_PLAY], ev[r, C.EV_TURN], ev[r, C.EV_SEAT] = C.ROW_DISC, play, turn, s
        ev[r, C.EV_SCORE], ev[r, C.EV_DISC], ev[r, C.EV_FIELD] = points, k, fields[k]
        ev[r, C.EV_COLOUR], ev[r, C.EV_LEVEL], ev[r, C.EV_COLLAPSES] = colour[fields[k]], levels[k], colls[k]
        r += 1
    ev[r, C.EV_KIND], ev[r, C.EV_PLAY], ev[r, C.EV_TURN], ev[r, C.EV_SEAT] = C.ROW_TURN, play, turn, s
    ev[r, C.EV_SCORE], ev[r, C.EV_AID], ev[r, C.EV_AID_FIELD], ev[r, C.EV_AID_TARGET] = points, aid, aid_a, aid_b
    ev[r, C.EV_BONUS], ev[r, C.EV_BONUS_POINTS] = bonus_tile, bonus
    ev[r, C.EV_TAKEN], ev[r, C.EV_TAKEN_TILE], ev[r, C.EV_PLACED] = taken, taken_tile, n
    ev[r, C.EV_BAG_LEFT] = _sum(bag)
    for c in range(C.N_COLOURS):
        ev[r, C.EV_HAND + c], ev[r, C.EV_THROWN + c], ev[r, C.EV_DRAWN + c] = hand_before[c], thrown[c], drawn[c]
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


@block()
def _run(height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc, codes, prm,
         bd, ta, rules, key, plan, plan_prm, turns, stop_code, ev, row, play):
    """Turns of the play until it ends (then the unused tiles score), or `turns` more turns (0: no limit), or a
    seat of policy `stop_code` is to move (-1: none). `plan` (when plan[PL_SET]) is a search's choice for the
    first turn, whose tile pile and throw-back follow `plan_prm` (a scripted policy's parameters); otherwise the
    seats' policies choose. Records the turns from event row `row` (>= 0); returns the next row.

    The play's turn and end are held in locals for the loop and written back to `sc` at the end, and the
    arrays come one by one (Mauerbruch measured a State taken apart each turn at 1.7x slower). The turn's work
    arrays are the call's own: nothing outside a call reads them."""
    fields, levels = np.zeros(C.HAND, np.int64), np.zeros(C.HAND, np.int64)  # the discs placed
    dirs, colls = np.zeros(C.HAND, np.int64), np.zeros(C.HAND, np.int64)
    hand_before, thrown, refill = np.zeros(C.N_COLOURS, np.int64), np.zeros(C.N_COLOURS, np.int64), np.zeros(
        C.N_COLOURS, np.int64)
    used, cand, cand_dir = np.zeros(C.N_FIELDS, np.bool_), np.zeros(C.N_FIELDS, np.int64), np.zeros(
        C.N_FIELDS, np.int64)
    n_seats = hands.shape[0]
    turn, ending, reason = sc[S_TURN], sc[S_ENDING] != 0, sc[S_REASON]
    planned, done = plan[PL_SET] != 0, 0
    while reason < 0 and (turns == 0 or done < turns):
        s = turn % n_seats
        code, tprm = codes[s], prm[s]
        if code == stop_code and not planned:
            break
        if planned:
            code, tprm = SEARCH, plan_prm
        begin_draws(draw_turn, drawn, turn)  # here, not before a stop: a search seat's turn begins once
        done += 1
        hand = hands[s]
        hand_before[:] = hand
        n, aid, aid_a, aid_b = 0, -1, -1, -1
        if _sum(hand) > 0:
            if planned:
                aid = held[s, C.AID] if plan[PL_AID] != 0 else -1
                aid_a, aid_b, chain, chain_n = plan[PL_A], plan[PL_B], plan[PL_CHAIN:], plan[PL_N]
            else:
                aid, aid_a, aid_b, chain, chain_n = choose_aid(code, tprm, held, height, bd, ta, hand,
                                                               rules.tile_threshold, rules.bonus_counts, key,
                                                               draw_turn, drawn, seat_out, s, sc, fields)
            effect, max_discs = -1, C.HAND
            if aid >= 0:
                effect, max_discs = ta.aid_effect[aid], ta.aid_max_discs[aid]
                apply_aid(effect, aid_a, aid_b, height, bag, bd.colour)
                discard(discards, n_discards, C.AID, aid)
                held[s, C.AID] = -1
                seat_out[AIDS_PLAYED, s] += 1
            n = place_chain(code, chain, chain_n, max_discs, effect, height, hand, bd, key, draw_turn, drawn, fields,
                            levels, dirs, colls, used, cand, cand_dir)
        else:
            seat_out[PASSES, s] += 1
        planned = False
        points, bonus_tile, bonus = score_turn(code, n, held, s, discards, n_discards, bd, ta, fields, levels, dirs,
                                               key, draw_turn, drawn, seat_out)
        seat_out[SCORE, s] += points
        seat_out[DISCS, s] += n
        sc[S_COLLAPSES] += _sum(colls[:n])
        taken, taken_tile = -1, -1
        if may_take_tile(n, threshold_points(points - bonus, bonus, rules.bonus_counts), rules.tile_threshold):
            taken, taken_tile = take_tile(code, tprm, held, s, piles, n_piles, discards, n_discards, key, draw_turn,
                                          drawn, seat_out)
        # a refill short of 7 ends the game once the round is completed
        ending |= throw_and_refill(code, tprm, hand, bag, height, bd, thrown, refill, key, draw_turn, drawn)
        seat_out[THROWN, s] += _sum(thrown)
        if row >= 0:
            row = record_turn(ev, row, play, turn, s, n, points, aid, aid_a, aid_b, bonus_tile, bonus, taken,
                              taken_tile, bag, bd.colour, fields, levels, colls, hand_before, thrown, refill)
        sc[S_EVENTS] += n + 1
        turn += 1
        if ending and s == n_seats - 1:
            reason = C.BAG_EMPTY
        elif turn >= rules.max_turns:
            reason = C.TURN_LIMIT
        if reason >= 0:
            final_tiles(held, rules.unused_tile_points, seat_out)
    sc[S_TURN], sc[S_ENDING], sc[S_REASON] = turn, ending, reason
    return row


@block()
def play_on(st, codes, prm, bd, ta, rules, key, plan, plan_prm, turns):
    """The play on with the seats' scripted policies (`plan` for the first turn, if set) until it ends, or
    `turns` more turns (0: no limit): a search's rollout."""
    height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc = st
    _run(height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc, codes, prm, bd,
         ta, rules, key, plan, plan_prm, turns, -1, np.zeros((0, C.EV_COLS), np.int32), -1, 0)
