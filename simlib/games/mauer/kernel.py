"""The batch kernel: whole matches of Die Mauer, compiled with Numba, one play after another.

Die Mauer branches at every step (seven resolution cases, hollow hands, gifts, ends), so a compiled
loop beats lockstep NumPy here (see `make bench`). The blocks are in play.py. Line-ups with a search seat run
search.simulate_search_matches, a kernel of its own over the same blocks, so that scripted runs never compile
the search.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.lineup import Lineup
from ...core.rng import play_key
from .constants import N_TYPES, NONE, START_CONTINUE, START_ROTATE
from .play import play_baurunden
from .rules import penalty
from .state import Events, new_state


class MauerOutputs(NamedTuple):
    """simulate_matches' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    baurunden: np.ndarray     # [plays] Baurunden played
    end_reason: np.ndarray    # [plays] EMPTIED, DEADLOCK or BAURUNDE_LIMIT
    first_player: np.ndarray  # [plays] table position of the first Bauherr (seat 0)
    penalties: np.ndarray     # [plays, seats] penalty points
    left: np.ndarray          # [plays, seats, piece types] pieces still held


@nb.njit(cache=True)
def new_outputs(n_plays, n):
    """MauerOutputs' arrays for n_plays plays of n seats, as the kernels return them."""
    return (np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8), np.zeros(n_plays, np.int8),
            np.zeros((n_plays, n), np.int16), np.zeros((n_plays, n, N_TYPES), np.int8))


@nb.njit(cache=True)
def new_seats(lineup):
    """A Lineup by seat (Spielrunde by Spielrunde, seat_players fills it) for `lineup`, by table position."""
    return Lineup(np.empty_like(lineup.codes), np.empty_like(lineup.params), lineup.defaults)


@nb.njit(cache=True)
def seat_players(lineup, first, seats, st):
    """A Spielrunde's start: seat s is player (first + s) % n, every seat holds its kit, the wall is empty."""
    n = lineup.codes.shape[0]
    for s in range(n):
        seats.codes[s] = lineup.codes[(first + s) % n]
        seats.params[s] = lineup.params[(first + s) % n]
    st.hands[:] = 1
    st.built[:] = 0
    st.wall[:] = 0
    st.gave[:] = 0


@nb.njit(cache=True)
def end_spielrunde(out, i, first, nbr, reason, st, setup):
    """Writes play i's outputs; returns the next Spielrunde's first Bauherr (a table position)."""
    baurunden, end_reason, first_player, penalties, left = out
    hands = st.hands
    n = hands.shape[0]
    baurunden[i] = nbr
    end_reason[i] = reason
    first_player[i] = first
    for s in range(n):
        penalties[i, s] = penalty(hands[s], setup.pen)
        left[i, s] = hands[s]
    if setup.start == START_CONTINUE:
        return (first + nbr) % n   # the stone goes on to the left of the last Bauherr
    if setup.start == START_ROTATE:
        return (first + 1) % n
    return first


@nb.njit(cache=True)
def simulate_matches(seed, first_play, n_plays, setup, lineup, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (whole matches of setup.rounds Spielrunden) of scripted seats.

    Player p (`lineup`, core/lineup.py) sits at table position p; in each Spielrunde, seat s is player
    (first + s) % n. The search kernel (search.simulate_search_matches) takes the same arguments. Returns per
    play: Baurunden, end reason, first Bauherr's table position; per play and seat: penalty and pieces left by
    type. With `ev_offsets` non-empty, also fills the event rows.
    """
    n = lineup.codes.shape[0]
    out = new_outputs(n_plays, n)
    st, seats = new_state(n), new_seats(lineup)
    no_plan = np.full(n, NONE, np.int64)
    record = ev_offsets.shape[0] > 0
    for m in range(n_plays // setup.rounds):
        first = 0
        for r in range(setup.rounds):
            i = m * setup.rounds + r
            seat_players(lineup, first, seats, st)
            events = Events(ev, first_play + i, ev_offsets[i] if record else -1)
            nbr, reason = play_baurunden(st, setup, seats, play_key(seed, first_play + i), no_plan, 0, setup.max_br,
                                         events)
            first = end_spielrunde(out, i, first, nbr, reason, st, setup)
    return out
