"""7 Steps' search policy: each turn's plan scored by rollouts, the best one played. The decision loop is
core/rollout_decider.py's; this module supplies its blocks, over a Decision.

A candidate is a turn plan: whether to play the held build-aid tile (and on what), and the chain to place. The
candidates are the base policy's own plan (the incumbent), the `chains` best chains by points (greedy's value:
levels plus the held victory-point tile's bonus where met) without the build-aid tile and with it on greedy's
best target, and, when a tile may be taken, the best chain scoring below the tile threshold as the rule counts
(threshold_counts: the discs' points, or the total with the bonus), a low turn earning a tile. The rest of the
turn is greedy's: a met victory-point tile is played, the pile taken from is the one it holds nothing of
(holding neither: build-aid), nothing is thrown back.

What the deciding seat has not seen (the rules' open question 14: hands behind screens, tiles face down, the
bag's count public): the other seats' hands and which tiles they hold. Before each rollout their hands are
re-dealt from the discs it cannot see (the bag and those hands, each hand keeping its size), and their tiles
re-drawn from the unseen tiles of the same kind (the pile and those tiles; played tiles lie face up). The bag
has no order (every draw is uniform), and the rollout's draws come from its own key (the re-deal is its set-up,
turn -1; its turns draw as the play's do, by turn and stream), so future draws are re-sampled too and no rollout
reads the play's own. A rollout plays the candidate and then every seat with the base policy (its default
parameters) to the end, or `horizon` turns; its value is the deciding seat's win share by points (at a horizon:
points so far and the held tiles' end points) plus a margin term below one win.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.lineup import Lineup
from ...core.rng import below, play_key
from ...core.rollout_decider import TIE_ROLLOUT, rollout_decider
from ...core.search import MAX_CANDIDATES, plan_arrays, rollout_key, win_share
from .chains import TOP_FIELDS, TOP_N, Query, top_chains
from .constants import AID, BONUS, EV_COLS, HAND, N_COLOURS, SCORE
from .decisions import apply_aid, plan_turn
from .kernel import new_outputs, new_standing, write_outputs
from .play import Events, TurnWork, Until, _sum, deal, new_turn_work, play_on
from .policies import AID_MARGIN, GREEDY, MAX_NODES, PARAMS, RANDOM, SEARCH
from .rules import draw_disc
from .state import (
    BAG_DRAWS,
    N_STREAMS,
    PL_A,
    PL_AID,
    PL_B,
    PL_CHAIN,
    PL_N,
    PL_SET,
    PLAN_WIDTH,
    S_REASON,
    S_TURN,
    TILE_DRAWS,
    Draws,
    Setup,
    State,
    begin_draws,
    copy_state,
    new_state,
    take,
    take_index,
)

BASE_ROLLOUT = TIE_ROLLOUT + 1  # the rollout index whose key draws the candidates' own ties


class Work(NamedTuple):
    """The search's work space, made once per kernel call."""

    sim: State         # the rollouts' copy of the play
    cand: np.ndarray   # [candidate, PLAN_WIDTH] the turn plans (state.py's PL_* columns)
    points: np.ndarray  # [seat] a rollout's points (rollout_value)
    rollouts: Lineup   # the rollouts' line-up: every seat the deciding seat's base policy at its defaults
    quiet: Events      # no event rows: the rollouts write none
    turn: TurnWork     # the turn's work arrays (play_on's)
    schedule: tuple    # the decider's plan_arrays()


class Decision(NamedTuple):
    """A search seat's turn to decide, as the decider's blocks take it."""

    st: State       # the real play, the seat to move (read only)
    setup: Setup
    key: np.uint64  # the play's key (the candidates' own draws are keyed apart from it: BASE_ROLLOUT)
    seat: int
    base: int       # the base policy's code
    horizon: int    # turns a rollout plays before it is scored (0: to the end)
    chains: int     # the best chains by points taken as candidates
    work: Work


@block()
def new_work(n_seats, n_aid, n_bonus, lineup):
    rollouts = Lineup(np.empty(n_seats, np.int64), np.empty((n_seats, lineup.params.shape[1])), lineup.defaults)
    return Work(new_state(n_seats, n_aid, n_bonus), np.zeros((MAX_CANDIDATES, PLAN_WIDTH), np.int64),
                np.empty(n_seats, np.int64), rollouts,
                Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0))), new_turn_work(),
                plan_arrays())


@block()
def _add(cand, k, aid, a, b, n, fields):
    """The plan (aid played?, its targets, the chain's n fields) as candidate k, unless it is one already.
    Returns how many candidates there are."""
    for c in range(k):
        same = cand[c, PL_AID] == aid and cand[c, PL_A] == a and cand[c, PL_B] == b and cand[c, PL_N] == n
        for i in range(n):
            same = same and cand[c, PL_CHAIN + i] == fields[i]
        if same:
            return k
    cand[k, :] = 0
    cand[k, PL_SET], cand[k, PL_AID], cand[k, PL_A], cand[k, PL_B], cand[k, PL_N] = 1, aid, a, b, n
    cand[k, PL_CHAIN:PL_CHAIN + n] = fields[:n]
    return k + 1


@block()
def _may_take(st, s, kind, playing_aid):
    """Could seat s take a tile of `kind` after this turn (the build-aid tile it plays is no longer held)?"""
    holds = st.held[s, kind] >= 0 and not (kind == AID and playing_aid)
    return not holds and st.n_piles[kind] + st.n_discards[kind] > 0


@block()
def _add_chains(at, aid, a, b, draws, k):
    """The at.chains best chains by points (after the build-aid tile on (a, b), when `aid`), and the best one
    below the tile threshold (as the rules' bonus_counts counts) when a tile may then be taken, as candidates
    from k. Returns how many there are."""
    st, s, bd, ta, rules = at.st, at.seat, at.setup.board, at.setup.tiles, at.setup.rules
    height, hand, effect, max_discs = st.height.copy(), st.hands[s].copy(), -1, HAND
    if aid:
        tile = st.held[s, AID]
        effect, max_discs = ta.aid_effect[tile], ta.aid_max_discs[tile]
        apply_aid(effect, a, b, height, np.zeros(N_COLOURS, np.int64), bd.colour)
    low = _may_take(st, s, AID, aid) or _may_take(st, s, BONUS, aid)
    top = np.empty((at.chains, TOP_FIELDS + HAND), np.int64)
    query = Query(max_discs, effect, st.held[s, BONUS], False, rules.tile_threshold if low else 0, rules.bonus_counts,
                  np.int64(at.work.rollouts.defaults[GREEDY, MAX_NODES]))
    found = top_chains(height, hand, bd, ta, query, draws, top)
    for r in range(at.chains):
        if top[r, TOP_N] > 0:
            k = _add(at.work.cand, k, int(aid), a, b, top[r, TOP_N], top[r, TOP_FIELDS:])
    if low and found.low_length > 0:
        k = _add(at.work.cand, k, int(aid), a, b, found.low_length, found.low_fields)
    return k


@block(python_entry=True, _nrt=True)  # said, not inherited from the decider: it allocates
def candidates(at):
    """The seat's turn plans into at.work.cand (module docstring), the base policy's own first (a random base has
    none); how many. With an empty hand the one plan is a pass. The candidates' own ties are draws of a key of
    their own (the decision's BASE_ROLLOUT: their draws start afresh)."""
    st, setup, s, cand, base = at.st, at.setup, at.seat, at.work.cand, at.base
    defaults = at.work.rollouts.defaults
    draws = Draws(rollout_key(at.key, st.sc[S_TURN], BASE_ROLLOUT), np.zeros(1, np.int64),
                  np.zeros(N_STREAMS, np.int64))
    hand, aid_tile, bonus_tile = st.hands[s].copy(), st.held[s, AID], st.held[s, BONUS]
    if _sum(hand) == 0:
        return _add(cand, 0, 0, -1, -1, 0, cand[0, PL_CHAIN:])
    k = 0
    if base != RANDOM:
        chain = np.empty(HAND, np.int64)
        play, a, b, n, _, _ = plan_turn(base, defaults[base], aid_tile, bonus_tile, st.height, hand, setup, draws,
                                        chain)
        k = _add(cand, 0, int(play), a, b, n, chain)
    k = _add_chains(at, False, -1, -1, draws, k)
    if aid_tile >= 0:  # greedy's best target, whatever the gain
        eager = defaults[GREEDY].copy()
        eager[AID_MARGIN] = -1e9
        play, a, b, _, _, _ = plan_turn(GREEDY, eager, aid_tile, bonus_tile, st.height, hand, setup, draws,
                                        np.empty(HAND, np.int64))
        if play:
            k = _add_chains(at, True, a, b, draws, k)
    return k


@block(inline="always")
def base_plan(at, k):
    """The base policy's own plan: listed first by candidates (-1: a random base lists none)."""
    return 0 if at.base != RANDOM else -1


@block(inline="always")
def copy_play(at):
    copy_state(at.st, at.work.sim)


@block(python_entry=True, _nrt=True)  # said, not inherited from the decider: it allocates
def redeal(st, seat, key):
    """Re-deal what `seat` has not seen (module docstring): a rollout's set-up, draws of `key` in turn -1."""
    n, draw_turn, drawn = st.hands.shape[0], st.draw_turn, st.drawn
    begin_draws(draw_turn, drawn, -1)
    pool = st.bag.copy()
    for t in range(n):
        if t != seat:
            pool += st.hands[t]
    for t in range(n):
        if t != seat:
            size = _sum(st.hands[t])
            st.hands[t] = 0
            for _ in range(size):
                st.hands[t, draw_disc(pool, key, take_index(draw_turn, drawn, BAG_DRAWS))] += 1
    st.bag[:] = pool
    draws = Draws(key, draw_turn, drawn)
    for kind in (AID, BONUS):
        m = st.n_piles[kind]
        for t in range(n):
            if t != seat and st.held[t, kind] >= 0:
                st.piles[kind, m] = st.held[t, kind]
                m += 1
        st.piles[kind, :m] = np.sort(st.piles[kind, :m])  # in tile order: the deal depends only on what it knows
        for t in range(n):
            if t != seat and st.held[t, kind] >= 0:
                j = below(take(draws, TILE_DRAWS), m)
                m -= 1
                st.held[t, kind], st.piles[kind, j] = st.piles[kind, j], st.piles[kind, m]
        st.n_piles[kind] = m


@block(inline="always")
def determinize(at, key):
    redeal(at.work.sim, at.seat, key)


@block(inline="always")
def play_candidate(at, c, key):
    """In the rollouts' copy, candidate c's plan, then every seat the base policy to the end or the horizon."""
    w = at.work
    play_on(w.sim, at.setup, w.rollouts, key, w.cand[c], Until(at.horizon, -1), w.quiet, w.turn)


@block(inline="always")
def rollout_value(at):
    """A rollout's worth to the seat: its win share by points, plus its margin over the best other seat
    relative to the two scores (within (-1, 1), so below one win: it orders plans that win or lose alike, and
    varies less). Stopped at a horizon, the tiles held count as at the end."""
    sim, points, seat, unused = at.work.sim, at.work.points, at.seat, at.setup.rules.unused_tile_points
    n = points.shape[0]
    for t in range(n):
        points[t] = sim.seat_out[SCORE, t]
        if sim.sc[S_REASON] < 0:
            points[t] += unused * ((sim.held[t, AID] >= 0) + (sim.held[t, BONUS] >= 0))
    best_other = 0
    for t in range(n):
        if t != seat:
            best_other = max(best_other, points[t])
    return win_share(points, seat) + (points[seat] - best_other) / (points[seat] + best_other + 1)


decide_turn = rollout_decider(candidates, base_plan, copy_play, determinize, play_candidate, rollout_value)


@nb.njit(cache=True, inline="always")
def search_turn(st, setup, lineup, key, work):
    """The search seat to move's turn plan: its index in work.cand (always one). The seat's budget, base policy,
    horizon and chains are its parameters in `lineup`."""
    turn, n = st.sc[S_TURN], st.hands.shape[0]
    s = turn % n
    prm = lineup.params[s]
    base = int(prm[PARAMS.search.base])
    work.rollouts.codes[:] = base
    for t in range(n):
        work.rollouts.params[t] = lineup.defaults[base]
    at = Decision(st, setup, key, s, base, int(prm[PARAMS.search.horizon]), int(prm[PARAMS.search.chains]), work)
    return decide_turn(at, work.schedule, key, turn, int(prm[PARAMS.search.budget]))


@block()
def simulate_search_plays(seed, first_play, n_plays, setup, lineup, sd, sd_offsets, ev, ev_offsets):
    """kernel.simulate_plays for line-ups with a search seat: the scripted seats' turns run until a search seat
    is to move, its turn is chosen by search_turn, then played. The same arguments and outputs."""
    n_seats = lineup.codes.shape[0]
    out = new_outputs(n_plays, n_seats)
    n_aid, n_bonus = setup.tiles.aid_effect.shape[0], setup.tiles.bonus_measure.shape[0]
    st, work = new_state(n_seats, n_aid, n_bonus), new_work(n_seats, n_aid, n_bonus, lineup)
    no_plan = np.zeros(PLAN_WIDTH, np.int64)
    standing = new_standing(setup, n_seats)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, n_aid, n_bonus, key)
        row = ev_offsets[i] if record else -1
        while st.sc[S_REASON] < 0:  # scripted seats' turns; a search seat's turn chosen, then played
            row = play_on(st, setup, lineup, key, no_plan, Until(0, SEARCH), Events(ev, play, row, standing),
                          work.turn)
            if st.sc[S_REASON] < 0:
                c = search_turn(st, setup, lineup, key, work)
                row = play_on(st, setup, lineup, key, work.cand[c], Until(1, -1), Events(ev, play, row, standing),
                              work.turn)
        write_outputs(out, i, st, standing)
        keep_standing(sd, sd_offsets, i, standing, out[0][i])  # out[0]: the turns
    return out


@block()
def rollout_bench(seed, first_play, n_plays, setup, lineup):
    """For `make bench`: from each play's deal, a search's rollout (copy the play, determinize, play on with the
    seats' policies to the end) through the decider's blocks. Returns the turns played."""
    n, n_aid, n_bonus = lineup.codes.shape[0], setup.tiles.aid_effect.shape[0], setup.tiles.bonus_measure.shape[0]
    st, work = new_state(n, n_aid, n_bonus), new_work(n, n_aid, n_bonus, lineup)
    work.rollouts.codes[:] = lineup.codes
    work.rollouts.params[:] = lineup.params
    work.cand[0] = 0  # no plan of its own (PL_SET 0): the seats' policies from the first turn
    at = Decision(st, setup, np.uint64(0), 0, RANDOM, 0, 0, work)
    turns = 0
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        deal(st, n_aid, n_bonus, key)
        rollout = rollout_key(key, 0, 0)
        copy_play(at)
        determinize(at, rollout)
        play_candidate(at, 0, rollout)
        turns += work.sim.sc[S_TURN]
    return turns
