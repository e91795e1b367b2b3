"""The batch kernel: plays of Burgenland, compiled with Numba, one play after another.

A play: stones, master builders, well cards and bonus tiles shuffled, pieces handed out and pre-placed,
starting hands dealt; then turns in seat order (seat 0 first), each some free actions (a swap, an exchange)
and one main action (draw 2 or build 1), until a seat places its last piece. Every draw is keyed by
(seed, play, turn, stream, rank in the turn), so results do not depend on which plays share a batch and variants
of a play draw alike turn by turn.
The play is made of the blocks of play.py (re-exported here for the rules' tests). Line-ups with a search seat
run search.simulate_search_plays, a kernel of its own over the same blocks, so that scripted runs never compile
the search.
"""

import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from . import constants as C
from . import outputs as O
from .decisions import DEFAULT_WEIGHTS
from .play import (  # noqa: F401 (the blocks by their old address)
    PLAN_SIZE,
    build,
    close_row,
    deal,
    do_swap,
    draw_two,
    emit,
    exchange,
    held_tiles,
    new_row,
    play_turns,
    reward,
    set_up,
    start_play,
)
from .rules import CENTRAL_BUILT, RESHUFFLES, SWAPS_USED, WELLS_BUILT, total_cards
from .state import S_REASON, S_TURN, S_WINNER, new_play, new_work


@block()
def new_outputs(n_plays, n_seats):
    """BurgenlandOutputs' arrays for n_plays plays, as the kernels return them."""
    return (np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8), np.full(n_plays, -1, np.int8),
            np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16),
            np.zeros(n_plays, np.int16), np.zeros((n_plays, C.N_POSITIONS), np.int8), np.zeros(n_plays, np.int32),
            np.zeros((n_plays, len(O.SEAT_COLUMNS), n_seats), np.int32))


@block()
def begin_play(out, i, st, bd, cards, rules, rec, key, play, ev, ev_offsets):
    """Play i set up (start_play, its events from its offset); returns the next event row."""
    record = ev_offsets.shape[0] > 0
    n_events, stones_out, seats = out[8], out[7], out[9]
    row = start_play(st, bd, cards, rules, rec, key, play, ev, ev_offsets[i] if record else 0, record, seats[i],
                     n_events, i)
    stones_out[i] = st.stones
    return row


@block()
def write_outputs(out, i, st, bd):
    """Play i's outputs from its final state."""
    turns, end_reason, winner, wells, swaps, reshuffles, central, _, _, seats = out
    seat_out, n_seats = seats[i], seats.shape[2]
    turn, pool, supply = st.sc[S_TURN], st.pool, st.supply
    turns[i], end_reason[i], winner[i] = turn, st.sc[S_REASON], st.sc[S_WINNER]
    wells[i], swaps[i], reshuffles[i] = pool[WELLS_BUILT], pool[SWAPS_USED], pool[RESHUFFLES]
    central[i] = pool[CENTRAL_BUILT]
    for s in range(n_seats):
        for piece in range(4):
            seat_out[O.WALLS_LEFT + piece, s] = supply[s, piece]
        seat_out[O.PLACED, s] = bd.supply.sum() - supply[s].sum()
        seat_out[O.TURNS, s] = turn // n_seats + (s < turn % n_seats)
        seat_out[O.CARDS_LEFT, s] = total_cards(st.hands[s])
        seat_out[O.JOKERS_LEFT, s] = st.jokers[s]


@block()
def simulate_plays(seed, first_play, n_plays, n_seats, codes, prm, defaults, bd, cards, rules, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 of scripted seats (BurgenlandOutputs' arrays; with ev_offsets,
    the event rows). `defaults` [policy code, parameter]: the scripted policies' default parameters (unused
    here: the signature is the search kernel's, search.simulate_search_plays)."""
    out = new_outputs(n_plays, n_seats)
    st = new_play(n_seats, cards.bonus_effect.shape[0], cards.master_builders.shape[0])
    wk = new_work(DEFAULT_WEIGHTS)
    no_plan = np.full(PLAN_SIZE, -1, np.int64)
    record = ev_offsets.shape[0] > 0
    n_events, seats = out[8], out[9]
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        row = begin_play(out, i, st, bd, cards, rules, wk.rec, key, play, ev, ev_offsets)
        play_turns(st, wk, bd, cards, rules, codes, prm, codes, prm, key, False, no_plan, 0, -1, ev, row, record,
                   seats[i], n_events, i, play)
        write_outputs(out, i, st, bd)
    return out
