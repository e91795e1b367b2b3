"""The batch kernel: plays of 7 Steps, compiled with Numba, one play after another.

A play: 140 discs in the bag, each player draws 7; turns in seat order (seat 0 first) until a player
cannot refill to 7, then the round is completed and unused tiles score. Every draw is keyed by
(seed, play, turn, stream, rank in the turn; state.take), so results do not depend on which plays share a batch,
and two variants of a play draw the same discs and tiles turn by turn.
The play is made of the blocks of play.py. Line-ups with a search seat run rollouts.simulate_search_plays, a
kernel of its own over the same blocks, so that scripted runs never compile the search.
"""

import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from .outputs import SEAT_COLUMNS
from .play import _run, _sum, deal
from .policies import GREEDY
from .state import PLAN_WIDTH, S_COLLAPSES, S_EVENTS, S_MAX_NODES, S_REASON, S_TURN, new_state


@block()
def new_outputs(n_plays, n_seats):
    """SevenStepsOutputs' arrays for n_plays plays, as the kernels return them."""
    return (np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8),
            np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int32),
            np.zeros((n_plays, len(SEAT_COLUMNS), n_seats), np.int32))


@block()
def write_outputs(out, i, bag, seat_out, sc):
    """Play i's outputs from its final state."""
    turns, collapses, end_reason, bag_left, n_events, max_nodes, seats = out
    turns[i] = sc[S_TURN]
    collapses[i] = sc[S_COLLAPSES]
    end_reason[i] = sc[S_REASON]
    bag_left[i] = _sum(bag)
    n_events[i] = sc[S_EVENTS]
    max_nodes[i] = sc[S_MAX_NODES]
    seats[i] = seat_out


@block()
def simulate_plays(seed, first_play, n_plays, n_seats, codes, prm, defaults, bd, ta, rules, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 of scripted seats (SevenStepsOutputs' arrays; with ev_offsets,
    the event rows). `defaults` [policy code, parameter]: the scripted policies' default parameters (the
    signature is the search kernel's too, rollouts.simulate_search_plays)."""
    out = new_outputs(n_plays, n_seats)
    n_aid, n_bonus = ta.aid_effect.shape[0], ta.bonus_measure.shape[0]
    st = new_state(n_seats, n_aid, n_bonus)
    # out of the tuple once
    height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc = st
    no_plan = np.zeros(PLAN_WIDTH, np.int64)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, n_aid, n_bonus, key)
        _run(height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc, codes, prm,
             bd, ta, rules, key, no_plan, defaults[GREEDY], 0, -1, ev, ev_offsets[i] if record else -1, play)
        write_outputs(out, i, bag, seat_out, sc)
    return out
