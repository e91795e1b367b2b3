"""7 Steps' search policy: each turn's plan scored by rollouts (simlib/core/search.py), the best one played.

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

import numpy as np

from ...core.blocks import block
from ...core.rng import below, play_key
from ...core.search import (
    MAX_CANDIDATES,
    V_COUNT,
    best_candidate,
    next_rollout,
    plan_arrays,
    record,
    rollout_key,
    start_plan,
    win_share,
)
from .constants import AID, BONUS, HAND, N_COLOURS
from .decisions import apply_aid, plan_turn
from .kernel import new_outputs, write_outputs
from .outputs import SCORE
from .play import _run, _sum, deal, play_on
from .policies import AID_MARGIN, BASE, BUDGET, CHAINS, GREEDY, HORIZON, MAX_NODES, RANDOM, SEARCH
from .rules import draw_disc
from .search import TOP_FIELDS, TOP_N, top_chains
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
    begin_draws,
    copy_state,
    new_state,
    take,
    take_index,
)

TIE_ROLLOUT = 1 << 40  # the rollout index whose key breaks ties among equally good candidates
BASE_ROLLOUT = TIE_ROLLOUT + 1  # the one whose key draws the candidates' own ties
SWITCH_Z = 1.0  # standard errors by which a plan must beat the base policy's own to replace it


@block()
def determinize(st, seat, key):
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
    for kind in (AID, BONUS):
        m = st.n_piles[kind]
        for t in range(n):
            if t != seat and st.held[t, kind] >= 0:
                st.piles[kind, m] = st.held[t, kind]
                m += 1
        st.piles[kind, :m] = np.sort(st.piles[kind, :m])  # in tile order: the deal depends only on what it knows
        for t in range(n):
            if t != seat and st.held[t, kind] >= 0:
                j = below(take(key, draw_turn, drawn, TILE_DRAWS), m)
                m -= 1
                st.held[t, kind], st.piles[kind, j] = st.piles[kind, j], st.piles[kind, m]
        st.n_piles[kind] = m


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
def _add_chains(st, s, bd, ta, rules, greedy_prm, aid, a, b, n_chains, key, draw_turn, drawn, cand, k):
    """The n_chains best chains by points (after the build-aid tile on (a, b), when `aid`), and the best one
    below the tile threshold (as rules.bonus_counts counts) when a tile may then be taken, as candidates from k.
    Returns how many there are."""
    height, hand, effect, max_discs = st.height.copy(), st.hands[s].copy(), -1, HAND
    if aid:
        tile = st.held[s, AID]
        effect, max_discs = ta.aid_effect[tile], ta.aid_max_discs[tile]
        apply_aid(effect, a, b, height, np.zeros(N_COLOURS, np.int64), bd.colour)
    low = _may_take(st, s, AID, aid) or _may_take(st, s, BONUS, aid)
    top = np.empty((n_chains, TOP_FIELDS + HAND), np.int64)
    found = top_chains(height, bd.colour, bd.neighbours, bd.colour_fields, bd.group, hand, max_discs, effect,
                       st.held[s, BONUS], ta.bonus_measure, ta.bonus_at_least, ta.bonus_points,
                       rules.tile_threshold if low else 0, rules.bonus_counts, np.int64(greedy_prm[MAX_NODES]), key,
                       draw_turn, drawn, top)
    for r in range(n_chains):
        if top[r, TOP_N] > 0:
            k = _add(cand, k, int(aid), a, b, top[r, TOP_N], top[r, TOP_FIELDS:])
    if low and found.low_length > 0:
        k = _add(cand, k, int(aid), a, b, found.low_length, found.low_fields)
    return k


@block()
def candidates(st, s, base, base_prm, greedy_prm, bd, ta, rules, n_chains, key, cand):
    """Seat s's turn plans into cand (module docstring); returns (how many, the incumbent's index or -1). With
    an empty hand the one plan is a pass. The candidates' own ties are draws of `key` (a key of their own: their
    draws start afresh)."""
    draw_turn, drawn = np.zeros(1, np.int64), np.zeros(N_STREAMS, np.int64)
    hand, aid_tile, bonus_tile = st.hands[s].copy(), st.held[s, AID], st.held[s, BONUS]
    if _sum(hand) == 0:
        return _add(cand, 0, 0, -1, -1, 0, cand[0, PL_CHAIN:]), -1
    k, incumbent = 0, -1
    if base != RANDOM:
        play, a, b, chain, n, _, _ = plan_turn(base, base_prm, aid_tile, bonus_tile, st.height, bd, ta, hand,
                                              rules.tile_threshold, rules.bonus_counts, key, draw_turn, drawn)
        k, incumbent = _add(cand, 0, int(play), a, b, n, chain), 0
    k = _add_chains(st, s, bd, ta, rules, greedy_prm, False, -1, -1, n_chains, key, draw_turn, drawn, cand, k)
    if aid_tile >= 0:  # greedy's best target, whatever the gain
        eager = greedy_prm.copy()
        eager[AID_MARGIN] = -1e9
        play, a, b, _, _, _, _ = plan_turn(GREEDY, eager, aid_tile, bonus_tile, st.height, bd, ta, hand, 0,
                                           rules.bonus_counts, key, draw_turn, drawn)
        if play:
            k = _add_chains(st, s, bd, ta, rules, greedy_prm, True, a, b, n_chains, key, draw_turn, drawn, cand, k)
    return k, incumbent


@block()
def _value(st, seat, unused_tile_points, points):
    """A rollout's worth to the seat: its win share by points, plus its margin over the best other seat
    relative to the two scores (within (-1, 1), so below one win: it orders plans that win or lose alike, and
    varies less). Stopped at a horizon, the tiles held count as at the end."""
    n = points.shape[0]
    for t in range(n):
        points[t] = st.seat_out[SCORE, t]
        if st.sc[S_REASON] < 0:
            points[t] += unused_tile_points * ((st.held[t, AID] >= 0) + (st.held[t, BONUS] >= 0))
    best_other = 0
    for t in range(n):
        if t != seat:
            best_other = max(best_other, points[t])
    return win_share(points, seat) + (points[seat] - best_other) / (points[seat] + best_other + 1)


@block()
def search_turn(st, scratch, prm, defaults, bd, ta, rules, key, cand, plan):
    """The search seat's turn plan into `plan` (always set). prm[seat]: budget, base policy code, horizon,
    chains; `scratch` is work space."""
    turn, n = st.sc[S_TURN], st.hands.shape[0]
    s = turn % n
    base = int(prm[s, BASE])
    k, incumbent = candidates(st, s, base, defaults[base], defaults[GREEDY], bd, ta, rules, int(prm[s, CHAINS]),
                              rollout_key(key, turn, BASE_ROLLOUT), cand)
    if k == 1:
        plan[:] = cand[0]
        return
    codes = np.full(n, base, np.int64)
    base_prm = np.empty((n, defaults.shape[1]))
    for t in range(n):
        base_prm[t] = defaults[base]
    schedule, stats = plan_arrays()
    points = np.empty(n, np.int64)
    start_plan(k, int(prm[s, BUDGET]), incumbent, schedule, stats)
    while True:
        c = next_rollout(schedule, stats)
        if c < 0:
            break
        rkey = rollout_key(key, turn, int(stats[V_COUNT, c]))  # a candidate's j-th rollout: the same deal for all
        copy_state(st, scratch)
        determinize(scratch, s, rkey)
        play_on(scratch, codes, base_prm, bd, ta, rules, rkey, cand[c], defaults[GREEDY], int(prm[s, HORIZON]))
        record(schedule, stats, c, _value(scratch, s, rules.unused_tile_points, points))
    plan[:] = cand[best_candidate(schedule, stats, rollout_key(key, turn, TIE_ROLLOUT), SWITCH_Z)]


@block()
def simulate_search_plays(seed, first_play, n_plays, n_seats, codes, prm, defaults, bd, ta, rules, ev, ev_offsets):
    """kernel.simulate_plays for line-ups with a search seat: the scripted seats' turns run until a search seat
    is to move, its turn is chosen by search_turn (the rollouts play its base policy with `defaults` [policy
    code, parameter]), then played. The same arguments and outputs."""
    out = new_outputs(n_plays, n_seats)
    n_aid, n_bonus = ta.aid_effect.shape[0], ta.bonus_measure.shape[0]
    st, scratch = new_state(n_seats, n_aid, n_bonus), new_state(n_seats, n_aid, n_bonus)
    # out of the tuple once
    height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc = st
    no_plan, plan = np.zeros(PLAN_WIDTH, np.int64), np.zeros(PLAN_WIDTH, np.int64)
    cand = np.zeros((MAX_CANDIDATES, PLAN_WIDTH), np.int64)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, n_aid, n_bonus, key)
        row = ev_offsets[i] if record else -1
        while sc[S_REASON] < 0:  # scripted seats' turns; a search seat's turn chosen, then played
            row = _run(height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out, sc,
                       codes, prm, bd, ta, rules, key, no_plan, defaults[GREEDY], 0, SEARCH, ev, row, play)
            if sc[S_REASON] < 0:
                search_turn(st, scratch, prm, defaults, bd, ta, rules, key, cand, plan)
                row = _run(height, bag, hands, held, piles, n_piles, discards, n_discards, draw_turn, drawn, seat_out,
                           sc, codes, prm, bd, ta, rules, key, plan, defaults[GREEDY], 1, -1, ev, row, play)
        write_outputs(out, i, bag, seat_out, sc)
    return out


@block()
def rollout_bench(seed, first_play, n_plays, codes, prm, bd, ta, rules):
    """For `make bench`: from each play's deal, what a search's rollout does (copy the state, determinize,
    play on with the seats' policies to the end). Returns the turns played."""
    n, n_aid, n_bonus = codes.shape[0], ta.aid_effect.shape[0], ta.bonus_measure.shape[0]
    st, scratch = new_state(n, n_aid, n_bonus), new_state(n, n_aid, n_bonus)
    no_plan = np.zeros(PLAN_WIDTH, np.int64)
    turns = 0
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        deal(st, n_aid, n_bonus, key)
        copy_state(st, scratch)
        rkey = rollout_key(key, 0, 0)
        determinize(scratch, 0, rkey)
        play_on(scratch, codes, prm, bd, ta, rules, rkey, no_plan, prm[0], 0)
        turns += scratch.sc[S_TURN]
    return turns
