"""The batch kernel: whole matches of Die Mauer, compiled with Numba, one play after another.

Die Mauer branches at every step (seven resolution cases, hollow hands, gifts, ends), so a compiled
loop beats lockstep NumPy here (see `make bench`). The blocks are in play.py. Line-ups with a search seat run
search.simulate_search_matches, a kernel of its own over the same blocks, so that scripted runs never compile
the search.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.feel import keep_standing, new_feel, record_feel, sole_best
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
    feel: tuple               # core/feel.Feel: how the Spielrunde felt, from its standing after each Baurunde


@nb.njit(cache=True)
def new_outputs(n_plays, n):
    """MauerOutputs' arrays for n_plays plays of n seats, as the kernels return them."""
    return (np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8), np.zeros(n_plays, np.int8),
            np.zeros((n_plays, n), np.int16), np.zeros((n_plays, n, N_TYPES), np.int8), new_feel(n_plays))


@nb.njit(cache=True)
def new_standing(setup, n):
    """A Spielrunde's standing rows: each seat's penalty points as the table sees them, negated (more is better),
    after each Baurunde (at most setup.max_br)."""
    return np.zeros((setup.max_br, n))


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
def end_spielrunde(out, i, first, nbr, reason, st, setup, standing):
    """Writes play i's outputs (its feel from `standing`, after each of its Baurunden, the last row replaced by
    the penalty points scored); returns the next Spielrunde's first Bauherr (a table position)."""
    baurunden, end_reason, first_player, penalties, left, feel = out
    hands = st.hands
    n = hands.shape[0]
    baurunden[i] = nbr
    end_reason[i] = reason
    first_player[i] = first
    for s in range(n):
        penalties[i, s] = penalty(hands[s], setup.pen)
        left[i, s] = hands[s]
        standing[nbr - 1, s] = -penalties[i, s]  # the hands are shown and scored
    record_feel(feel, i, standing, nbr, sole_best(standing[nbr - 1]))
    if setup.start == START_CONTINUE:
        return (first + nbr) % n   # the stone goes on to the left of the last Bauherr
    if setup.start == START_ROTATE:
        return (first + 1) % n
    return first


@nb.njit(cache=True)
def simulate_matches(seed, first_play, n_plays, setup, lineup, sd, sd_offsets, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (whole matches of setup.rounds Spielrunden) of scripted seats.

    Player p (`lineup`, core/lineup.py) sits at table position p; in each Spielrunde, seat s is player
    (first + s) % n. The search kernel (search.simulate_search_matches) takes the same arguments. Returns per
    play: Baurunden, end reason, first Bauherr's table position; per play and seat: penalty and pieces left by
    type. With `sd_offsets` non-empty, also keeps each play's standing after each Baurunde in `sd`; with `ev_offsets`
    non-empty, fills the event rows.
    """
    n = lineup.codes.shape[0]
    out = new_outputs(n_plays, n)
    st, seats = new_state(n), new_seats(lineup)
    no_plan = np.full(n, NONE, np.int64)
    record = ev_offsets.shape[0] > 0
    standing = new_standing(setup, n)
    for m in range(n_plays // setup.rounds):
        first = 0
        for r in range(setup.rounds):
            i = m * setup.rounds + r
            seat_players(lineup, first, seats, st)
            events = Events(ev, first_play + i, ev_offsets[i] if record else -1, standing)
            nbr, reason = play_baurunden(st, setup, seats, play_key(seed, first_play + i), no_plan, 0, setup.max_br,
                                         events)
            first = end_spielrunde(out, i, first, nbr, reason, st, setup, standing)
            keep_standing(sd, sd_offsets, i, standing, nbr)
    return out
