"""The batch kernel: plays of Burgenland, compiled with Numba, one play after another.

A play: stones, master builders, well cards and bonus tiles shuffled, pieces handed out and pre-placed,
starting hands dealt; then turns in seat order (seat 0 first), each some free actions (a swap, an exchange)
and one main action (draw 2 or build 1), until a seat places its last piece. Every draw is keyed by
(seed, play, the play's draw counter), so results do not depend on which plays share a batch.
The play is made of the blocks of play.py (re-exported here for the rules' tests); `play_turns` plays the
turns, stopping where a search seat is to choose its main action (its free actions are its base policy's):
search.py chooses it, one turn plays it, and the play goes on.
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
from .policies import BASE, SEARCH
from .rules import CENTRAL_BUILT, RESHUFFLES, SWAPS_USED, WELLS_BUILT, total_cards
from .search import new_search, search_turn
from .state import S_REASON, S_TURN, S_WINNER, new_play, new_work


@block()
def simulate_plays(seed, first_play, n_plays, n_seats, codes, prm, defaults, bd, cards, rules, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (BurgenlandOutputs' arrays; with ev_offsets, the event rows).
    `defaults` [policy code, parameter]: the scripted policies' default parameters (a search's rollouts play
    its base policy with them)."""
    turns = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    winner = np.full(n_plays, -1, np.int8)
    wells, swaps = np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16)
    reshuffles, central = np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16)
    stones_out = np.zeros((n_plays, C.N_POSITIONS), np.int8)
    n_events = np.zeros(n_plays, np.int32)
    seats = np.zeros((n_plays, len(O.SEAT_COLUMNS), n_seats), np.int32)
    st = new_play(n_seats, cards.bonus_effect.shape[0], cards.master_builders.shape[0])
    wk = new_work(DEFAULT_WEIGHTS)
    plan = np.full(PLAN_SIZE, -1, np.int64)
    free_codes, free_prm = codes.copy(), prm.copy()  # a search seat's free actions are its base policy's
    for s in range(n_seats):
        if codes[s] == SEARCH:
            free_codes[s] = int(prm[s, BASE])
            free_prm[s] = defaults[free_codes[s]]
    sw = new_search(st)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        seat_out = seats[i]
        row = start_play(st, bd, cards, rules, wk.rec, key, play, ev, ev_offsets[i] if record else 0, record,
                         seat_out, n_events, i)
        stones_out[i] = st.stones
        while True:  # the scripted seats' turns; a search seat's turn chosen, then played
            row = play_turns(st, wk, bd, cards, rules, codes, prm, free_codes, free_prm, key, False, plan, 0, SEARCH,
                             ev, row, record, seat_out, n_events, i, play)
            if st.sc[S_REASON] >= 0:
                break
            search_turn(st, wk, sw, bd, cards, rules, prm, defaults, key, plan)
            row = play_turns(st, wk, bd, cards, rules, codes, prm, free_codes, free_prm, key, True, plan, 1, -1, ev,
                             row, record, seat_out, n_events, i, play)
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
    return turns, end_reason, winner, wells, swaps, reshuffles, central, stones_out, n_events, seats
