"""Die Mauer's search policy: each Baurunde's plan scored by rollouts (simlib/core/search.py), the best held.

A candidate is a plan: a piece type the seat holds, or the hollow hand. Plans are secret and simultaneous, so
the search is a best response to sampled plans of the others: in each rollout every other seat plans with the
search's base policy, from the rollout's own draws (the seat has not seen the others' coins), and so on to the
end of the Spielrunde; the search assumes every other seat plays that base policy. What else the seat has not
seen is which piece each gift between two other seats was (gifts are handed over secretly; who gave to whom is
seen when the fists open): before each rollout, the pieces held by the seats such a gift touched are dealt
again among them, each keeping its count, so that a seat that never received a gift holds at most its kit
minus what it built (each such seat draws from the shuffled pool what it may hold; after 16 failed tries, any
deal keeping the counts). A rollout's value is the seat's win share of the Spielrunde
by lowest penalty, plus its penalty margin over the best other seat below one win. The search seat's other
choices (the piece in hollow case 1, a gift, the end to build at) are the scripted heuristics': heaviest
buildable, heaviest held, covering a special end.
"""

import numba as nb
import numpy as np

from ...core.lineup import Lineup
from ...core.rng import below, draw, play_key
from ...core.search import (
    V_COUNT,
    best_candidate,
    next_rollout,
    plan_arrays,
    record,
    rollout_key,
    start_plan,
    win_share,
)
from .constants import HOLLOW, N_TYPES, NONE, ONGOING
from .decisions import plan
from .kernel import end_spielrunde, new_outputs, new_seats, seat_players
from .play import play_baurunden, round_over
from .policies import PARAMS, SEARCH
from .rules import penalty
from .state import Events, copy_state, new_state

TIE_ROLLOUT = 1 << 40  # the rollout index whose key breaks ties among equally good candidates
SWITCH_Z = 1.0  # standard errors by which a plan must beat the base policy's own to replace it
DEAL_TRIES = 16


@nb.njit(cache=True)
def _unseen_gifts(gave, me):
    """The bits of the seats that took part in a gift `me` neither gave nor received."""
    n, unsure = gave.shape[0], 0
    for g in range(n):
        for r in range(n):
            if (gave[g] >> r) & 1 and g != me and r != me:
                unsure |= (1 << g) | (1 << r)
    return unsure


@nb.njit(cache=True)
def determinize(hands, built, gave, me, key):
    """Deal the pieces of the seats touched by gifts `me` has not seen again among them (keyed by `key`)."""
    unsure = _unseen_gifts(gave, me)
    if unsure == 0:
        return
    n = hands.shape[0]
    received = 0
    for g in range(n):
        received |= gave[g]
    pool = np.empty(n * N_TYPES * 2, np.int64)
    sizes = np.zeros(n, np.int64)
    m = 0  # the pool in piece order: what the seat knows of it is the pieces, not who holds which
    for t in range(N_TYPES):
        for s in range(n):
            if (unsure >> s) & 1:
                for _ in range(hands[s, t]):
                    pool[m] = t
                    m += 1
                    sizes[s] += 1
    taken = np.zeros(m, np.bool_)
    for attempt in range(DEAL_TRIES + 1):
        for c in range(m - 1, 0, -1):
            j = below(draw(key, attempt * 1024 + c), c + 1)
            pool[c], pool[j] = pool[j], pool[c]
        taken[:m] = False
        short = 0
        for free in (False, True):  # seats that never received a gift first: what they may hold is bounded
            for s in range(n):
                if not (unsure >> s) & 1 or ((received >> s) & 1 == 1) != free:
                    continue
                hands[s, :] = 0
                need = sizes[s]
                for c in range(m):  # the first pieces of the shuffled pool the seat may hold
                    if need > 0 and not taken[c] and (free or attempt == DEAL_TRIES
                                                      or hands[s, pool[c]] + built[s, pool[c]] < 1):
                        hands[s, pool[c]] += 1
                        taken[c] = True
                        need -= 1
                short += need
        if short == 0:
            return


@nb.njit(cache=True)
def _value(hands, pen, me):
    """A rollout's worth to `me`: its win share by lowest penalty, plus its margin over the best other seat as
    a fraction of all penalties in play (below one win: it orders plans that win or lose alike)."""
    n = hands.shape[0]
    scores = np.empty(n, np.int64)
    scale = 1
    for t in range(N_TYPES):
        scale += n * abs(pen[t])
    best_other = -scale
    for s in range(n):
        scores[s] = -penalty(hands[s], pen)
        if s != me:
            best_other = max(best_other, scores[s])
    return win_share(scores, me) + (scores[me] - best_other) / scale


@nb.njit(cache=True)
def search_plan(st, setup, seats, me, key, br):
    """The plan of search seat `me` in Baurunde `br` (a piece type or HOLLOW), its parameters in `seats` (by seat):
    budget, base policy, horizon (Baurunden a rollout plays before it is scored by the pieces held; 0: to the
    end). The rollouts play the base policy at its defaults for every seat."""
    hands, pen = st.hands, setup.pen
    n = hands.shape[0]
    cand = np.empty(N_TYPES + 1, np.int64)
    k = 0
    for t in range(N_TYPES):
        if hands[me, t] > 0:
            cand[k] = t
            k += 1
    cand[k] = HOLLOW
    k += 1
    prm = seats.params[me]
    base = int(prm[PARAMS.search.base])
    rollouts = Lineup(np.full(n, base, np.int64), np.empty((n, seats.defaults.shape[1])), seats.defaults)
    for s in range(n):
        rollouts.params[s] = seats.defaults[base]
    own = plan(st, pen, base, rollouts.params[me], me, br % n, key, br)  # the play's draws, read only
    incumbent = -1
    for c in range(k):
        if cand[c] == own:
            incumbent = c
    horizon = int(prm[PARAMS.search.horizon])
    limit = horizon if horizon > 0 else setup.max_br
    copy = new_state(n)
    fixed = np.full(n, NONE, np.int64)
    no_events = Events(np.zeros((0, 1), np.int32), 0, -1)
    schedule, stats = plan_arrays()
    decision = br * 8 + me
    start_plan(k, int(prm[PARAMS.search.budget]), incumbent, schedule, stats)
    while True:
        c = next_rollout(schedule, stats)
        if c < 0:
            break
        rkey = rollout_key(key, decision, int(stats[V_COUNT, c]))  # a candidate's j-th rollout: the same deal
        copy_state(st, copy)
        determinize(copy.hands, copy.built, copy.gave, me, rkey)
        fixed[me] = cand[c]
        play_baurunden(copy, setup, rollouts, rkey, fixed, br, limit, no_events)
        record(schedule, stats, c, _value(copy.hands, pen, me))
    return cand[best_candidate(schedule, stats, rollout_key(key, decision, TIE_ROLLOUT), SWITCH_Z)]


@nb.njit(cache=True)
def simulate_search_matches(seed, first_play, n_plays, setup, lineup, ev, ev_offsets):
    """kernel.simulate_matches for line-ups with a search seat: before each Baurunde, each search seat's plan
    is chosen by search_plan (the rollouts play its base policy at the defaults in `lineup`), the others plan by
    their policies inside the Baurunde. The same arguments and outputs."""
    n = lineup.codes.shape[0]
    out = new_outputs(n_plays, n)
    st, seats = new_state(n), new_seats(lineup)
    fixed = np.empty(n, np.int64)
    record = ev_offsets.shape[0] > 0
    for m in range(n_plays // setup.rounds):
        first = 0
        for r in range(setup.rounds):
            i = m * setup.rounds + r
            play = first_play + i
            key = play_key(seed, play)
            events = Events(ev, play, ev_offsets[i] if record else -1)
            seat_players(lineup, first, seats, st)
            nbr, reason = 0, ONGOING
            while reason == ONGOING:  # one Baurunde a call: the search seats plan before it
                fixed[:] = NONE
                if round_over(st, nbr, setup.max_br) == ONGOING:
                    for s in range(n):
                        if seats.codes[s] == SEARCH:
                            fixed[s] = search_plan(st, setup, seats, s, key, nbr)
                nbr, reason = play_baurunden(st, setup, seats, key, fixed, nbr, 1, events)
            first = end_spielrunde(out, i, first, nbr, reason, st, setup)
    return out


@nb.njit(cache=True)
def rollout_bench(seed, first_play, n_plays, setup, lineup):
    """For `make bench`: from each play's first Baurunde, what a search's rollout does (copy the state,
    determinize, play on with the seats' policies to the end). Returns the Baurunden played."""
    n = lineup.codes.shape[0]
    st, copy = new_state(n), new_state(n)
    st.hands[:] = 1
    st.built[:] = 0
    st.wall[:] = 0
    st.gave[:] = 0
    fixed, no_events = np.full(n, NONE, np.int64), Events(np.zeros((0, 1), np.int32), 0, -1)
    played = 0
    for i in range(n_plays):
        rkey = rollout_key(play_key(seed, first_play + i), 0, 0)
        copy_state(st, copy)
        determinize(copy.hands, copy.built, copy.gave, 0, rkey)
        played += play_baurunden(copy, setup, lineup, rkey, fixed, 0, setup.max_br, no_events)[0]
    return played
