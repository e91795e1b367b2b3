"""The batch kernel: whole games of Catan (with Seafarers ships), one play after another, each composed of the
blocks of play.py (the board, a new game, the opening and the turns); the final rows come from
scoring.final_rows. Line-ups with a search seat run search.simulate_search_games, a kernel of its own over the
same blocks, so that scripted runs never compile the search.
"""

import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.rng import play_key
from .constants import N_FAMILIES
from .play import play_game
from .scoring import final_rows, new_outputs
from .setup import deal_board, new_game, start_play
from .state import EventLog, Play, new_scratch, new_state, new_tally


@block()
def simulate_games(seed, first_play, n_plays, max_turns, seats, bd, rules, sd, sd_start, ev, ev_start):
    """Plays first_play .. first_play+n_plays-1 on board bd under rules, the seats' policies `seats` (state.Seats).
    Returns a scoring.CatanOutputs. Events: ev has no rows, or one per event of these plays, play i's
    from row ev_start[i] (the counts of a first pass). The log keeps each play's standing after every turn; with
    sd_start, each play's standing from row sd_start[i] of sd (a run with --standings).

    Positional parameters: a compiled entry point's, called by core/tables.record_kernel as every kernel is (the
    game's arguments, then the standing and event buffers)."""
    n_players = seats.codes.shape[0]
    out = new_outputs(n_plays, n_players)
    lg = EventLog(rows=ev, pos=np.zeros(1, np.int64), standing=np.zeros((max_turns, n_players)))
    pl = Play(new_state(bd, rules, n_players), new_tally(n_players), rules, bd,
              new_scratch(bd, n_players, N_FAMILIES), lg)
    st, tally, scratch, lg = pl.st, pl.tally, pl.scratch, pl.lg
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        lg.pos[0] = first
        start_play(st, tally, play_key(seed, first_play + i))
        deal_board(st, bd, scratch, lg)
        new_game(st, rules)
        turns, winner = play_game(pl, seats, max_turns)
        final_rows(out, i, pl, turns, winner, lg.pos[0] - first)
        keep_standing(sd, sd_start, i, lg.standing, turns)
    return out
