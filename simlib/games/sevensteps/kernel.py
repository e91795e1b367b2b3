"""The batch kernel: plays of 7 Steps, compiled with Numba, one play after another.

A play: 140 discs in the bag, each player draws 7; turns in seat order (seat 0 first) until a player
cannot refill to 7, then the round is completed and unused tiles score. Every draw is keyed by
(seed, play, the play's draw counter), so results do not depend on which plays share a batch.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.rng import play_key
from .constants import (
    AID,
    BAG_EMPTY,
    BONUS,
    DISCS_PER_COLOUR,
    EV_AID,
    EV_AID_FIELD,
    EV_AID_TARGET,
    EV_BAG_LEFT,
    EV_BONUS,
    EV_BONUS_POINTS,
    EV_COLLAPSES,
    EV_COLOUR,
    EV_DISC,
    EV_DRAWN,
    EV_FIELD,
    EV_HAND,
    EV_KIND,
    EV_LEVEL,
    EV_PLACED,
    EV_PLAY,
    EV_SCORE,
    EV_SEAT,
    EV_TAKEN,
    EV_TAKEN_TILE,
    EV_THROWN,
    EV_TURN,
    HAND,
    N_COLOURS,
    N_FIELDS,
    ROW_DISC,
    ROW_TURN,
    TURN_LIMIT,
)
from .decisions import apply_aid, choose_pile, plan_turn, play_bonus, random_aid, random_step, throw_back
from .policies import RANDOM
from .rules import bonus_earned, draw_disc, draw_tile, first_placements, may_take_tile, next_placements, place_disc


class SevenStepsOutputs(NamedTuple):
    """simulate_plays' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    turns: np.ndarray          # [plays] turns played (passes included)
    collapses: np.ndarray      # [plays] towers that reached 7 and collapsed
    end_reason: np.ndarray     # [plays] BAG_EMPTY or TURN_LIMIT
    bag_left: np.ndarray       # [plays] discs left in the bag at the end
    n_events: np.ndarray       # [plays] event rows (one per disc, one per turn)
    max_nodes: np.ndarray      # [plays] the most chains one search visited
    score: np.ndarray          # [plays, seats] final score (turns' points plus unused tiles)
    tile_points: np.ndarray    # [plays, seats] of which for tiles held at the end
    bonus_points: np.ndarray   # [plays, seats] of which from victory-point tiles played
    discs: np.ndarray          # [plays, seats] discs placed
    passes: np.ndarray         # [plays, seats] turns with an empty hand
    aids_taken: np.ndarray     # [plays, seats]
    bonuses_taken: np.ndarray  # [plays, seats]
    aids_played: np.ndarray    # [plays, seats]
    bonuses_played: np.ndarray  # [plays, seats]
    aid_left: np.ndarray       # [plays, seats] a build-aid tile held at the end (1/0)
    bonus_left: np.ndarray     # [plays, seats] a victory-point tile held at the end (1/0)
    thrown: np.ndarray         # [plays, seats] discs thrown back
    capped: np.ndarray         # [plays, seats] searches stopped by max_nodes


@nb.njit(cache=True)
def _sum(a):
    s = 0
    for x in a:
        s += x
    return s


@nb.njit(cache=True)
def _index_of(f, cand, n):
    for i in range(n):
        if cand[i] == f:
            return i
    return -1


@nb.njit(cache=True)
def place_chain(code, plan, plan_n, max_discs, effect, height, hand, bd, key, ctr, fields, levels, dirs, colls,
                used, cand, cdir):
    """Place the turn's discs: the planned chain (search policies) or random steps; each placement legal by
    the rules' lists. Returns how many discs were placed (fields, levels, directions, collapses filled);
    `used`, `cand`, `cdir` are work space."""
    used[:] = False
    n = 0
    while n < max_discs:
        if n == 0:
            k = first_placements(height, bd.colour, bd.group, hand, effect, cand)
        else:
            k = next_placements(height, bd.colour, bd.neighbours, hand, used, fields[n - 1], levels[n - 1], effect,
                                cand, cdir)
        if k == 0:
            break
        if code == RANDOM:
            j = random_step(k, n, key, ctr)
        else:
            j = _index_of(plan[n], cand, k) if n < plan_n else k
        if j >= k:  # stop (random), the plan's end, or (never) a planned field that is not legal
            break
        f = cand[j]
        level, collapses = place_disc(height, bd.colour, bd.colour_fields, f)
        used[f] = True
        hand[bd.colour[f]] -= 1
        fields[n], levels[n], dirs[n], colls[n] = f, level, cdir[j] if n > 0 else -1, collapses
        n += 1
    return n


@nb.njit(cache=True)
def simulate_plays(seed, first_play, n_plays, n_seats, codes, prm, bd, ta, rules, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (SevenStepsOutputs' arrays; with ev_offsets, the event rows)."""
    turns = np.zeros(n_plays, np.int32)
    collapses = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    bag_left = np.zeros(n_plays, np.int16)
    n_events = np.zeros(n_plays, np.int32)
    max_nodes = np.zeros(n_plays, np.int32)
    seat_out = np.zeros((13, n_plays, n_seats), np.int32)
    (SCORE, TILE_POINTS, BONUS_POINTS, DISCS, PASSES, AIDS_TAKEN, BONUSES_TAKEN, AIDS_PLAYED, BONUSES_PLAYED,
     AID_LEFT, BONUS_LEFT, THROWN, CAPPED) = range(13)
    n_aid, n_bonus = ta.aid_effect.shape[0], ta.bonus_measure.shape[0]
    piles = np.empty((2, max(n_aid, n_bonus)), np.int64)
    discards = np.empty((2, max(n_aid, n_bonus)), np.int64)
    n_piles = np.empty(2, np.int64)
    n_discards = np.empty(2, np.int64)
    height = np.empty(N_FIELDS, np.int64)
    bag = np.empty(N_COLOURS, np.int64)
    hands = np.empty((n_seats, N_COLOURS), np.int64)
    held = np.empty((n_seats, 2), np.int64)
    fields = np.empty(HAND, np.int64)
    levels = np.empty(HAND, np.int64)
    dirs = np.empty(HAND, np.int64)
    colls = np.empty(HAND, np.int64)
    hand_before = np.empty(N_COLOURS, np.int64)
    thrown = np.empty(N_COLOURS, np.int64)
    drawn = np.empty(N_COLOURS, np.int64)
    ctr = np.zeros(1, np.int64)
    used = np.empty(N_FIELDS, np.bool_)
    cand = np.empty(N_FIELDS, np.int64)
    cdir = np.empty(N_FIELDS, np.int64)
    record = ev_offsets.shape[0] > 0

    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        ctr[0] = 0
        height[:] = 0
        bag[:] = DISCS_PER_COLOUR
        held[:] = -1
        for kind, n_tiles in ((AID, n_aid), (BONUS, n_bonus)):
            for t in range(n_tiles):
                piles[kind, t] = t
            n_piles[kind] = n_tiles
            n_discards[kind] = 0
        hands[:] = 0
        for s in range(n_seats):
            for _ in range(HAND):
                hands[s, draw_disc(bag, key, ctr[0])] += 1
                ctr[0] += 1
        row = ev_offsets[i] if record else 0
        rows = 0
        turn = 0
        ending = False
        while True:
            s = turn % n_seats
            code = codes[s]
            hand = hands[s]
            hand_before[:] = hand
            aid_tile, aid_a, aid_b, effect, max_discs = -1, -1, -1, -1, HAND
            plan = fields  # unused by random
            plan_n = 0
            n = 0
            if _sum(hand) > 0:
                if code == RANDOM:
                    if held[s, AID] >= 0:
                        play_it, aid_a, aid_b = random_aid(held[s, AID], height, bd, ta, key, ctr)
                        if play_it:
                            aid_tile = held[s, AID]
                else:
                    threshold = rules.tile_threshold if held[s, AID] < 0 else 0
                    play_it, aid_a, aid_b, plan, plan_n, nodes, capped = plan_turn(
                        code, prm[s], held[s, AID], held[s, BONUS], height, bag, bd, ta, hand, threshold, key, ctr)
                    max_nodes[i] = max(max_nodes[i], nodes)
                    seat_out[CAPPED, i, s] += capped
                    if play_it:
                        aid_tile = held[s, AID]
                if aid_tile >= 0:
                    effect = ta.aid_effect[aid_tile]
                    max_discs = ta.aid_max_discs[aid_tile]
                    apply_aid(effect, aid_a, aid_b, height, bag, bd.colour)
                    discards[AID, n_discards[AID]] = aid_tile
                    n_discards[AID] += 1
                    held[s, AID] = -1
                    seat_out[AIDS_PLAYED, i, s] += 1
                n = place_chain(code, plan, plan_n, max_discs, effect, height, hand, bd, key, ctr, fields, levels,
                                dirs, colls, used, cand, cdir)
            else:
                seat_out[PASSES, i, s] += 1
            points = _sum(levels[:n])
            bonus_tile, bonus = -1, 0
            if n > 0 and held[s, BONUS] >= 0:
                earned = bonus_earned(held[s, BONUS], ta.bonus_measure, ta.bonus_at_least, ta.bonus_points, n,
                                      fields, levels, dirs, bd.colour)
                if earned > 0 and play_bonus(code, key, ctr):
                    bonus_tile, bonus = held[s, BONUS], earned
                    discards[BONUS, n_discards[BONUS]] = bonus_tile
                    n_discards[BONUS] += 1
                    held[s, BONUS] = -1
                    seat_out[BONUSES_PLAYED, i, s] += 1
                    seat_out[BONUS_POINTS, i, s] += bonus
            points += bonus
            seat_out[SCORE, i, s] += points
            seat_out[DISCS, i, s] += n
            for k in range(n):
                collapses[i] += colls[k]
            taken, taken_tile = -1, -1
            if may_take_tile(n, points, rules.tile_threshold):
                can_aid = held[s, AID] < 0 and n_piles[AID] + n_discards[AID] > 0
                can_bonus = held[s, BONUS] < 0 and n_piles[BONUS] + n_discards[BONUS] > 0
                taken = choose_pile(code, prm[s], can_aid, can_bonus, key, ctr)
                if taken >= 0:
                    taken_tile = draw_tile(piles, n_piles, discards, n_discards, taken, key, ctr[0])
                    ctr[0] += 1
                    held[s, taken] = taken_tile
                    seat_out[AIDS_TAKEN if taken == AID else BONUSES_TAKEN, i, s] += 1
            throw_back(code, prm[s], hand, height, bd, thrown)
            for c in range(N_COLOURS):
                hand[c] -= thrown[c]
                bag[c] += thrown[c]
            seat_out[THROWN, i, s] += _sum(thrown)
            drawn[:] = 0
            for _ in range(HAND - _sum(hand)):
                if _sum(bag) == 0:
                    ending = True  # he cannot refill to 7: the round is completed, then the game ends
                    break
                c = draw_disc(bag, key, ctr[0])
                ctr[0] += 1
                hand[c] += 1
                drawn[c] += 1
            if record:
                for k in range(n):
                    r = row + rows + k
                    ev[r, EV_KIND], ev[r, EV_PLAY], ev[r, EV_TURN], ev[r, EV_SEAT] = ROW_DISC, play, turn, s
                    ev[r, EV_SCORE], ev[r, EV_DISC], ev[r, EV_FIELD] = points, k, fields[k]
                    ev[r, EV_COLOUR], ev[r, EV_LEVEL], ev[r, EV_COLLAPSES] = bd.colour[fields[k]], levels[k], colls[k]
                r = row + rows + n
                ev[r, EV_KIND], ev[r, EV_PLAY], ev[r, EV_TURN], ev[r, EV_SEAT], ev[r, EV_SCORE] = (
                    ROW_TURN, play, turn, s, points)
                ev[r, EV_AID], ev[r, EV_AID_FIELD], ev[r, EV_AID_TARGET] = aid_tile, aid_a, aid_b
                ev[r, EV_BONUS], ev[r, EV_BONUS_POINTS] = bonus_tile, bonus
                ev[r, EV_TAKEN], ev[r, EV_TAKEN_TILE], ev[r, EV_PLACED] = taken, taken_tile, n
                ev[r, EV_BAG_LEFT] = _sum(bag)
                for c in range(N_COLOURS):
                    ev[r, EV_HAND + c], ev[r, EV_THROWN + c], ev[r, EV_DRAWN + c] = hand_before[c], thrown[c], drawn[c]
            rows += n + 1
            turn += 1
            if ending and s == n_seats - 1:
                end_reason[i] = BAG_EMPTY
                break
            if turn >= rules.max_turns:
                end_reason[i] = TURN_LIMIT
                break
        turns[i] = turn
        bag_left[i] = _sum(bag)
        n_events[i] = rows
        for s in range(n_seats):
            for kind, column in ((AID, AID_LEFT), (BONUS, BONUS_LEFT)):
                if held[s, kind] >= 0:
                    seat_out[column, i, s] = 1
                    seat_out[TILE_POINTS, i, s] += rules.unused_tile_points
            seat_out[SCORE, i, s] += seat_out[TILE_POINTS, i, s]
    return (turns, collapses, end_reason, bag_left, n_events, max_nodes, seat_out[0], seat_out[1], seat_out[2],
            seat_out[3], seat_out[4], seat_out[5], seat_out[6], seat_out[7], seat_out[8], seat_out[9], seat_out[10],
            seat_out[11], seat_out[12])
