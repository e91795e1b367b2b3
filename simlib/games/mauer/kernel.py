"""The batch kernel: whole matches of Die Mauer, compiled with Numba, one play after another.

Die Mauer branches at every step (seven resolution cases, hollow hands, gifts, ends), so a compiled
loop beats lockstep NumPy here (see `make bench`). The blocks are in play.py. Line-ups with a search seat run
search.simulate_search_matches, a kernel of its own over the same blocks, so that scripted runs never compile
the search.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.rng import play_key
from .constants import N_TYPES, NONE, START_CONTINUE, START_ROTATE
from .play import play_baurunden
from .rules import penalty


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
def seat_players(player_codes, player_prm, first, codes, prm, hands, built, wall, gave):
    """A Spielrunde's start: seat s is player (first + s) % n, every seat holds its kit, the wall is empty."""
    n = player_codes.shape[0]
    for s in range(n):
        codes[s] = player_codes[(first + s) % n]
        prm[s] = player_prm[(first + s) % n]
    hands[:] = 1
    built[:] = 0
    wall[:] = 0
    gave[:] = 0


@nb.njit(cache=True)
def end_spielrunde(out, i, first, nbr, reason, hands, pen, start_mode):
    """Writes play i's outputs; returns the next Spielrunde's first Bauherr (a table position)."""
    baurunden, end_reason, first_player, penalties, left = out
    n = hands.shape[0]
    baurunden[i] = nbr
    end_reason[i] = reason
    first_player[i] = first
    for s in range(n):
        penalties[i, s] = penalty(hands[s], pen)
        left[i, s] = hands[s]
    if start_mode == START_CONTINUE:
        return (first + nbr) % n   # the stone goes on to the left of the last Bauherr
    if start_mode == START_ROTATE:
        return (first + 1) % n
    return first


@nb.njit(cache=True)
def simulate_matches(seed, first_play, n_plays, rounds, start_mode, max_br, pen, player_codes, player_prm, defaults,
                     ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (whole matches of `rounds` Spielrunden) of scripted seats.

    Player p sits at table position p; in each Spielrunde, seat s is player (first + s) % n. `defaults`
    [policy code, parameter]: the scripted policies' default parameters (unused here: the signature is the
    search kernel's, search.simulate_search_matches). Returns per play: Baurunden, end reason, first Bauherr's
    table position; per play and seat: penalty and pieces left by type. With `ev_offsets` non-empty, also
    fills the event rows.
    """
    n = player_codes.shape[0]
    out = new_outputs(n_plays, n)
    hands, built = np.empty((n, N_TYPES), np.int8), np.empty((n, N_TYPES), np.int8)
    wall, plans = np.empty(3, np.int64), np.empty(n, np.int64)
    fixed, gave = np.full(n, NONE, np.int64), np.empty(n, np.int64)
    codes, prm = np.empty(n, np.int64), np.empty_like(player_prm)
    record = ev_offsets.shape[0] > 0
    for m in range(n_plays // rounds):
        first = 0
        for r in range(rounds):
            i = m * rounds + r
            seat_players(player_codes, player_prm, first, codes, prm, hands, built, wall, gave)
            nbr, reason = play_baurunden(play_key(seed, first_play + i), codes, prm, pen, max_br, hands, built, wall,
                                         plans, fixed, gave, 0, max_br, ev, ev_offsets[i] if record else -1,
                                         first_play + i)
            first = end_spielrunde(out, i, first, nbr, reason, hands, pen, start_mode)
    return out
