"""Die Mauer's search policy: each Baurunde's plan scored by rollouts, the best held. The decision loop is
core/rollout_decider.py's; this module supplies its blocks, over a Decision.

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

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.lineup import Lineup
from ...core.rng import below, draw, play_key
from ...core.rollout_decider import rollout_decider
from ...core.search import plan_arrays, rollout_key, win_share
from .constants import HOLLOW, N_TYPES, NONE, ONGOING
from .decisions import plan
from .kernel import end_spielrunde, new_outputs, new_seats, new_standing, seat_players
from .play import play_baurunden, round_over
from .policies import PARAMS, SEARCH
from .rules import penalty
from .state import Events, Setup, State, copy_state, new_state

DEAL_TRIES = 16


class Work(NamedTuple):
    """The search's work space, made once per kernel call."""

    sim: State          # the rollouts' copy of the Spielrunde
    cand: np.ndarray    # [candidate] a plan: a piece type the seat holds, or HOLLOW
    fixed: np.ndarray   # [seat] the rollout's candidate at the deciding seat, NONE elsewhere (the others plan)
    scores: np.ndarray  # [seat] minus the penalties (rollout_value)
    rollouts: Lineup    # the rollouts' line-up: every seat the deciding seat's base policy at its defaults
    quiet: Events       # no event rows: the rollouts write none
    schedule: tuple     # the decider's plan_arrays()


class Decision(NamedTuple):
    """A search seat's plan to decide, as the decider's blocks take it."""

    st: State         # the real Spielrunde before the Baurunde (read only)
    setup: Setup
    me: int           # the deciding seat
    key: np.uint64    # the play's key (the base policy's plan reads its draws)
    br: int           # the Baurunde
    limit: int        # Baurunden a rollout plays before it is scored by the pieces held
    work: Work


@block()
def new_work(n, lineup):
    rollouts = Lineup(np.empty(n, np.int64), np.empty((n, lineup.params.shape[1])), lineup.defaults)
    return Work(new_state(n), np.empty(N_TYPES + 1, np.int64), np.full(n, NONE, np.int64), np.empty(n, np.int64),
                rollouts, Events(np.zeros((0, 1), np.int32), 0, -1, np.zeros((0, 0))), plan_arrays())


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


@block(_nrt=False)
def candidates(at):
    """Every plan the seat may hold, into at.work.cand: each piece type it holds, then the hollow hand; how many."""
    hands, cand, me = at.st.hands, at.work.cand, at.me
    k = 0
    for t in range(N_TYPES):
        if hands[me, t] > 0:
            cand[k] = t
            k += 1
    cand[k] = HOLLOW
    return k + 1


@block(_nrt=False)
def base_plan(at, k):
    """The index among the k candidates of the plan the base policy would hold here (-1: none of them), with the
    play's own draws for this Baurunde (read, not used up: draws are keyed)."""
    base, me, n = at.work.rollouts, at.me, at.st.hands.shape[0]
    own = plan(at.st, at.setup.pen, base.codes[me], base.params[me], me, at.br % n, at.key, at.br)
    for c in range(k):
        if at.work.cand[c] == own:
            return c
    return -1


@block(inline="always")
def copy_play(at):
    copy_state(at.st, at.work.sim)


@block(_nrt=True)  # said, not inherited from the decider: determinize allocates its pool
def determinize_copy(at, key):
    """In the rollouts' copy, the pieces the gifts the seat has not seen touched, dealt again (determinize)."""
    sim = at.work.sim
    determinize(sim.hands, sim.built, sim.gave, at.me, key)


@block(inline="always")
def play_candidate(at, c, key):
    """In the rollouts' copy, candidate c planned by the seat in this Baurunde (the others plan with the base
    policy), then every seat the base policy to the end or the horizon. Returns the Baurunde it stopped at."""
    w = at.work
    w.fixed[at.me] = w.cand[c]
    return play_baurunden(w.sim, at.setup, w.rollouts, key, w.fixed, at.br, at.limit, w.quiet)[0]


@block(_nrt=False)
def rollout_value(at):
    """A rollout's worth to the seat: its win share by lowest penalty, plus its margin over the best other seat
    as a fraction of all penalties in play (below one win: it orders plans that win or lose alike)."""
    hands, pen, scores, me = at.work.sim.hands, at.setup.pen, at.work.scores, at.me
    n = hands.shape[0]
    scale = 1
    for t in range(N_TYPES):
        scale += n * abs(pen[t])
    best_other = -scale
    for s in range(n):
        scores[s] = -penalty(hands[s], pen)
        if s != me:
            best_other = max(best_other, scores[s])
    return win_share(scores, me) + (scores[me] - best_other) / scale


decide_plan = rollout_decider(candidates, base_plan, copy_play, determinize_copy, play_candidate, rollout_value)


@block()
def search_plan(st, setup, seats, me, key, br, work):
    """The plan of search seat `me` in Baurunde `br` (a piece type or HOLLOW), its parameters in `seats` (by seat):
    budget, base policy, horizon (Baurunden a rollout plays before it is scored by the pieces held; 0: to the
    end). The rollouts play the base policy at its defaults for every seat."""
    prm = seats.params[me]
    base = int(prm[PARAMS.search.base])
    work.rollouts.codes[:] = base
    for s in range(work.rollouts.params.shape[0]):
        work.rollouts.params[s] = seats.defaults[base]
    work.fixed[:] = NONE
    horizon = int(prm[PARAMS.search.horizon])
    at = Decision(st, setup, me, key, br, horizon if horizon > 0 else setup.max_br, work)
    return work.cand[decide_plan(at, work.schedule, key, br * 8 + me, int(prm[PARAMS.search.budget]))]


@nb.njit(cache=True)
def simulate_search_matches(seed, first_play, n_plays, setup, lineup, sd, sd_offsets, ev, ev_offsets):
    """kernel.simulate_matches for line-ups with a search seat: before each Baurunde, each search seat's plan
    is chosen by search_plan (the rollouts play its base policy at the defaults in `lineup`), the others plan by
    their policies inside the Baurunde. The same arguments and outputs."""
    n = lineup.codes.shape[0]
    out = new_outputs(n_plays, n)
    st, seats = new_state(n), new_seats(lineup)
    work = new_work(n, lineup)
    fixed = np.empty(n, np.int64)
    record = ev_offsets.shape[0] > 0
    standing = new_standing(setup, n)
    for m in range(n_plays // setup.rounds):
        first = 0
        for r in range(setup.rounds):
            i = m * setup.rounds + r
            play = first_play + i
            key = play_key(seed, play)
            events = Events(ev, play, ev_offsets[i] if record else -1, standing)
            seat_players(lineup, first, seats, st)
            nbr, reason = 0, ONGOING
            while reason == ONGOING:  # one Baurunde a call: the search seats plan before it
                fixed[:] = NONE
                if round_over(st, nbr, setup.max_br) == ONGOING:
                    for s in range(n):
                        if seats.codes[s] == SEARCH:
                            fixed[s] = search_plan(st, setup, seats, s, key, nbr, work)
                nbr, reason = play_baurunden(st, setup, seats, key, fixed, nbr, 1, events)
            first = end_spielrunde(out, i, first, nbr, reason, st, setup, standing)
            keep_standing(sd, sd_offsets, i, standing, nbr)
    return out


@block()
def rollout_bench(seed, first_play, n_plays, setup, lineup):
    """For `make bench`: from each play's first Baurunde, a search's rollout (copy the state, determinize, play on
    with the seats' policies to the end) through the decider's blocks. Returns the Baurunden played."""
    n = lineup.codes.shape[0]
    st, work = new_state(n), new_work(n, lineup)
    seat_players(lineup, 0, work.rollouts, st)  # the seats' own policies; a Spielrunde's start
    work.cand[0] = NONE  # no plan of its own: every seat plans by its policy
    at = Decision(st, setup, 0, np.uint64(0), 0, setup.max_br, work)
    played = 0
    for i in range(n_plays):
        rollout = rollout_key(play_key(seed, first_play + i), 0, 0)
        copy_play(at)
        determinize_copy(at, rollout)
        played += play_candidate(at, 0, rollout)
    return played
