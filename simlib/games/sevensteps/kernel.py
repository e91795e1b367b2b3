"""The batch kernel: plays of 7 Steps, compiled with Numba, one play after another.

A play: 140 discs in the bag, each player draws 7; turns in seat order (seat 0 first) until a player
cannot refill to 7, then the round is completed and unused tiles score. Every draw is keyed by
(seed, play, the play's draw counter), so results do not depend on which plays share a batch.
The play is made of the blocks of play.py; a search seat's turn is chosen by rollouts.py before it is played.
"""

import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from ...core.search import MAX_CANDIDATES
from .outputs import SEAT_COLUMNS
from .play import _run, _sum, deal
from .policies import GREEDY, SEARCH
from .rollouts import search_turn
from .state import PLAN_WIDTH, S_COLLAPSES, S_EVENTS, S_MAX_NODES, S_REASON, S_TURN, new_state


@block()
def simulate_plays(seed, first_play, n_plays, n_seats, codes, prm, defaults, bd, ta, rules, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (SevenStepsOutputs' arrays; with ev_offsets, the event rows).

    `defaults` [policy code, parameter]: the scripted policies' default parameters (a search's rollouts play
    its base policy with them)."""
    turns = np.zeros(n_plays, np.int32)
    collapses = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    bag_left = np.zeros(n_plays, np.int16)
    n_events = np.zeros(n_plays, np.int32)
    max_nodes = np.zeros(n_plays, np.int32)
    seats = np.zeros((n_plays, len(SEAT_COLUMNS), n_seats), np.int32)
    n_aid, n_bonus = ta.aid_effect.shape[0], ta.bonus_measure.shape[0]
    st, scratch = new_state(n_seats, n_aid, n_bonus), new_state(n_seats, n_aid, n_bonus)
    height, bag, hands, held, piles, n_piles, discards, n_discards, ctr, seat_out, sc = st  # out of the tuple once
    no_plan, plan = np.zeros(PLAN_WIDTH, np.int64), np.zeros(PLAN_WIDTH, np.int64)
    searching = False
    for c in codes:
        searching = searching or c == SEARCH
    cand = np.zeros((MAX_CANDIDATES if searching else 0, PLAN_WIDTH), np.int64)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, n_aid, n_bonus, key)
        row = ev_offsets[i] if record else -1
        while sc[S_REASON] < 0:  # scripted seats' turns; a search seat's turn chosen, then played
            row = _run(height, bag, hands, held, piles, n_piles, discards, n_discards, ctr, seat_out, sc, codes, prm,
                       bd, ta, rules, key, no_plan, defaults[GREEDY], 0, SEARCH, ev, row, play)
            if sc[S_REASON] < 0:
                search_turn(st, scratch, prm, defaults, bd, ta, rules, key, cand, plan)
                row = _run(height, bag, hands, held, piles, n_piles, discards, n_discards, ctr, seat_out, sc, codes,
                           prm, bd, ta, rules, key, plan, defaults[GREEDY], 1, -1, ev, row, play)
        turns[i] = sc[S_TURN]
        collapses[i] = sc[S_COLLAPSES]
        end_reason[i] = sc[S_REASON]
        bag_left[i] = _sum(bag)
        n_events[i] = sc[S_EVENTS]
        max_nodes[i] = sc[S_MAX_NODES]
        seats[i] = seat_out
    return turns, collapses, end_reason, bag_left, n_events, max_nodes, seats
