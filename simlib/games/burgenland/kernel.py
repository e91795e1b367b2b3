"""The batch kernel: plays of Burgenland, compiled with Numba, one play after another.

A play: stones, master builders, well cards and bonus tiles shuffled, pieces handed out and pre-placed,
starting hands dealt; then turns in seat order (seat 0 first), each some free actions (a swap, an exchange)
and one main action (draw 2 or build 1), until a seat places its last piece. Every draw is keyed by
(seed, play, turn, stream, rank in the turn), so results do not depend on which plays share a batch and variants
of a play draw alike turn by turn.
The play is made of the blocks of play.py. Line-ups with a search seat
run search.simulate_search_plays, a kernel of its own over the same blocks, so that scripted runs never compile
the search.
"""

import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing, new_feel, record_feel
from ...core.rng import play_key
from . import constants as C
from . import state as O
from .decisions import DEFAULT_WEIGHTS
from .play import PLAN_SIZE, Until, play_turns, start_play
from .rules import CENTRAL_BUILT, RESHUFFLES, SWAPS_USED, WELLS_BUILT, total_cards
from .state import S_REASON, S_TURN, S_WINNER, Events, new_play, new_work


@block()
def new_outputs(n_plays, n_seats):
    """BurgenlandOutputs' arrays for n_plays plays, as the kernels return them."""
    return (np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8), np.full(n_plays, -1, np.int8),
            np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16),
            np.zeros(n_plays, np.int16), np.zeros((n_plays, C.N_POSITIONS), np.int8), np.zeros(n_plays, np.int32),
            np.zeros((n_plays, len(O.SEAT_COLUMNS), n_seats), np.int32), new_feel(n_plays))


@block()
def new_standing(setup, n_seats):
    """The standing's rows for one play: every seat's pieces placed after each turn (at most rules.max_turns)."""
    return np.zeros((setup.rules.max_turns, n_seats))


@block()
def play_events(out, i, play, ev, ev_offsets, standing):
    """Where play i's actions go (Events; its standing into `standing`), and its first event row."""
    record = ev_offsets.shape[0] > 0
    return Events(ev, record, out[9][i], out[8], i, play, standing), ev_offsets[i] if record else 0


@block()
def begin_play(out, st, setup, rec, key, events, row):
    """The play set up (start_play, its events from `row`); returns the next event row."""
    row = start_play(st, setup, rec, key, events, row)
    out[7][events.i] = st.stones
    return row


@block()
def write_outputs(out, i, st, bd, standing):
    """Play i's outputs from its final state and its standing after each turn."""
    turns, end_reason, winner, wells, swaps, reshuffles, central, _, _, seats, feel = out
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
    record_feel(feel, i, standing, turn, st.sc[S_WINNER])


@block()
def simulate_plays(seed, first_play, n_plays, setup, lineup, sd, sd_offsets, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 of scripted seats (`lineup`, core/lineup.py) under `setup`
    (state.Setup): BurgenlandOutputs' arrays; with ev_offsets, the event rows."""
    n_seats = lineup.codes.shape[0]
    out = new_outputs(n_plays, n_seats)
    st = new_play(n_seats, setup.cards.bonus_effect.shape[0], setup.cards.master_builders.shape[0])
    wk = new_work(DEFAULT_WEIGHTS)
    to_the_end = Until(np.full(PLAN_SIZE, -1, np.int64), False, 0, -1)
    standing = new_standing(setup, n_seats)
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        events, row = play_events(out, i, play, ev, ev_offsets, standing)
        row = begin_play(out, st, setup, wk.rec, key, events, row)
        play_turns(st, wk, setup, lineup, lineup, key, to_the_end, events, row)
        write_outputs(out, i, st, setup.bd, standing)
        keep_standing(sd, sd_offsets, i, standing, out[0][i])  # out[0]: the turns
    return out
