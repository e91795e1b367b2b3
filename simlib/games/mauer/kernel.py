"""The batch kernel: whole matches of Die Mauer, compiled with Numba, one play after another.

Die Mauer branches at every step (seven resolution cases, hollow hands, gifts, ends), so a compiled
loop beats lockstep NumPy here (see `make bench`). The blocks are in play.py; a search seat's plan
(search.py) is chosen before each Baurunde, the others' by their policies inside it.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.rng import play_key
from .constants import N_TYPES, NONE, ONGOING, START_CONTINUE, START_ROTATE
from .play import play_baurunden, round_over
from .policies import SEARCH
from .rules import penalty
from .search import search_plan


class MauerOutputs(NamedTuple):
    """simulate_matches' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    baurunden: np.ndarray     # [plays] Baurunden played
    end_reason: np.ndarray    # [plays] EMPTIED, DEADLOCK or BAURUNDE_LIMIT
    first_player: np.ndarray  # [plays] table position of the first Bauherr (seat 0)
    penalties: np.ndarray     # [plays, seats] penalty points
    left: np.ndarray          # [plays, seats, piece types] pieces still held


@nb.njit(cache=True)
def simulate_matches(seed, first_play, n_plays, rounds, start_mode, max_br, pen, player_codes, player_prm, defaults,
                     ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (whole matches of `rounds` Spielrunden).

    Player p sits at table position p; in each Spielrunde, seat s is player (first + s) % n. `defaults`
    [policy code, parameter]: the scripted policies' default parameters (a search's rollouts play its base
    policy with them). Returns per play: Baurunden, end reason, first Bauherr's table position; per play and
    seat: penalty and pieces left by type. With `ev_offsets` non-empty, also fills the event rows.
    """
    n = player_codes.shape[0]
    baurunden = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    first_player = np.zeros(n_plays, np.int8)
    penalties = np.zeros((n_plays, n), np.int16)
    left = np.zeros((n_plays, n, N_TYPES), np.int8)

    hands = np.empty((n, N_TYPES), np.int8)
    built = np.empty((n, N_TYPES), np.int8)
    wall = np.empty(3, np.int64)
    plans = np.empty(n, np.int64)
    fixed, gave = np.empty(n, np.int64), np.empty(n, np.int64)
    codes = np.empty(n, np.int64)
    prm = np.empty_like(player_prm)
    searching = False
    for c in player_codes:
        searching = searching or c == SEARCH
    per_call = 1 if searching else max_br  # a search seat plans before every Baurunde
    record = ev_offsets.shape[0] > 0
    for m in range(n_plays // rounds):
        first = 0
        for r in range(rounds):
            i = m * rounds + r
            play = first_play + i
            for s in range(n):
                codes[s] = player_codes[(first + s) % n]
                prm[s] = player_prm[(first + s) % n]
            hands[:] = 1
            built[:] = 0
            wall[:] = 0
            gave[:] = 0
            key = play_key(seed, play)
            ev_start = ev_offsets[i] if record else -1
            nbr, reason = 0, ONGOING
            while reason == ONGOING:
                fixed[:] = NONE
                if searching and round_over(nbr, max_br, hands, wall) == ONGOING:
                    for s in range(n):
                        if codes[s] == SEARCH:
                            fixed[s] = search_plan(s, key, nbr, prm, defaults, pen, max_br, hands, built,
                                                   wall, gave)
                nbr, reason = play_baurunden(key, codes, prm, pen, max_br, hands, built, wall, plans, fixed, gave,
                                             nbr, per_call, ev, ev_start, play)
            baurunden[i] = nbr
            end_reason[i] = reason
            first_player[i] = first
            for s in range(n):
                penalties[i, s] = penalty(hands[s], pen)
                left[i, s] = hands[s]
            if start_mode == START_CONTINUE:
                first = (first + nbr) % n   # the stone goes on to the left of the last Bauherr
            elif start_mode == START_ROTATE:
                first = (first + 1) % n
    return baurunden, end_reason, first_player, penalties, left
