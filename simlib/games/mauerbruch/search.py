"""Mauerbruch's search policy: each take scored by rollouts, the best one played. The decision loop is
core/rollout_decider.py's; this module supplies its blocks, over a Decision.

A candidate is a take: a pair the phase allows, or a Wunschkarte swap (one of the last seven cards of the
pile for a Wunschkarte on top) and a pair the new card makes (a swap for another pair is left out: it only
gives a card away). Like the scripted policies, the search swaps when no pair
is left without a swap (the rule text's blocked player is the one no swap helps either). What the deciding
seat has not seen is where each card under the stacks' tops lies: before each rollout those cards are shuffled
among their places from their sorted order, so the deal depends only on what the seat has seen (which cards
they are follows from the deck, the tops, the piles and the discarded opening, all public). A rollout plays the
candidate and then every seat with the base policy (its default parameters) to the end, or `horizon` takes; its
value is the deciding seat's win share by cards at that point. The breaker's neighbour stack is the larger
(more cards is never worse: the play ends at once).
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.lineup import Lineup
from ...core.rng import below, draw, play_key
from ...core.rollout_decider import rollout_decider
from ...core.search import MAX_CANDIDATES, plan_arrays, rollout_key, win_share
from .constants import EV_COLS, N_STACKS, TURN, WISH
from .decisions import choose_pair, choose_swap
from .kernel import new_outputs, new_standing, write_outputs
from .play import Events, Until, allowed, deal, play_on, refresh, swap
from .policies import PARAMS, SEARCH
from .state import S_PHASE, S_PLAYER, S_REASON, S_TAKE, Pairs, Setup, State, copy_state, new_pairs, new_state


class Work(NamedTuple):
    """The search's work space, made once per kernel call."""

    sim: State         # the rollouts' copy of the play (the candidates and the base policy's choice use it too)
    cand: np.ndarray   # [candidate] (swap stack, pile position, pair index)
    under: np.ndarray  # [card] under a top (determinize)
    hidden: np.ndarray  # the cards under the tops (determinize)
    rollouts: Lineup   # the rollouts' line-up: every seat the deciding seat's base policy at its defaults
    quiet: Events      # no event rows: the rollouts write none
    schedule: tuple    # the decider's plan_arrays()


class Decision(NamedTuple):
    """A search seat's take to decide, as the decider's blocks take it."""

    st: State     # the real play, the seat to move (read only)
    setup: Setup
    pw: Pairs     # the pairs' work space, shared with the play (it lists afresh before reading)
    key: np.uint64  # the play's key (the base policy's choice reads its draws)
    horizon: int  # takes a rollout plays before it is scored (0: to the end)
    work: Work


@block()
def new_work(n, n_cards, height_max, lineup):
    rollouts = Lineup(np.empty(n, np.int64), np.empty((n, lineup.params.shape[1])), lineup.defaults)
    return Work(new_state(n, n_cards, height_max), np.empty((MAX_CANDIDATES, 3), np.int64), np.empty(n_cards, np.bool_),
                np.empty(n_cards, np.int16), rollouts,
                Events(np.zeros((0, EV_COLS), np.int32), 0, -1, np.zeros((0, 0))), plan_arrays())


@block(_nrt=False)
def candidates(at):
    """Every take the seat to move may make, into at.work.cand; how many. The pairs are listed on the rollouts'
    copy (refresh writes the tops: the copy's, never the play's)."""
    st, sim, cards, pw, cand = at.st, at.work.sim, at.setup.cards, at.pw, at.work.cand
    player, phase = st.sc[S_PLAYER], st.sc[S_PHASE]
    copy_state(st, sim)
    k = 0
    for p in range(allowed(phase, refresh(sim, cards, pw), pw)):
        cand[k, 0], cand[k, 1], cand[k, 2] = -1, -1, p
        k += 1
    if phase != TURN or st.pile_n[player] == 0:
        return k
    for s in range(N_STACKS):
        if st.heights[s] == 0 or cards.kinds[st.stacks[s, st.heights[s] - 1]] != WISH:
            continue
        for j in range(max(0, st.pile_n[player] - 7), st.pile_n[player]):
            copy_state(st, sim)
            swap(sim, player, s, j)
            for p in range(allowed(phase, refresh(sim, cards, pw), pw)):
                if pw.fa[p] == s or pw.fb[p] == s:  # a swap is worth making for a pair with the new card
                    cand[k, 0], cand[k, 1], cand[k, 2] = s, j, p
                    k += 1
    return k


@block(_nrt=False)
def base_take(at, k):
    """The index among the first k candidates of the take the base policy would make here (-1: none of them),
    with the play's own draws for this take (read, not used up: draws are keyed)."""
    st, sim, cards, pw, base = at.st, at.work.sim, at.setup.cards, at.pw, at.work.rollouts
    player, phase, take = st.sc[S_PLAYER], st.sc[S_PHASE], st.sc[S_TAKE]
    copy_state(st, sim)
    s, j = -1, -1
    n_pairs = refresh(sim, cards, pw)
    if phase == TURN and st.pile_n[player] > 0:
        s, j = choose_swap(sim, cards, base.codes[player], player, n_pairs, at.key, take)
        if s >= 0:
            swap(sim, player, s, j)
            n_pairs = refresh(sim, cards, pw)
    m = allowed(phase, n_pairs, pw)
    if m == 0:
        return -1
    p = choose_pair(sim, pw, base, player, m, at.key, take)
    cand = at.work.cand
    for c in range(k):
        if cand[c, 0] == s and cand[c, 1] == j and cand[c, 2] == p:
            return c
    return -1


@block(inline="always")
def copy_play(at):
    copy_state(at.st, at.work.sim)


@block(_nrt=False)
def determinize(at, key):
    """In the rollouts' copy, shuffle the cards under the stacks' tops among their places (keyed by `key`), from
    their sorted order: which cards lie under the tops is known (the deck less every card seen), where each of
    them lies is not, so the deal depends only on what the seat has seen and the key. (Sorted by marking them
    in a list of every card: sorting compiled a second longer, and needs Numba's reference counts.)"""
    sim, under, hidden = at.work.sim, at.work.under, at.work.hidden
    under[:] = False
    for s in range(N_STACKS):
        for h in range(sim.heights[s] - 1):
            under[sim.stacks[s, h]] = True
    n = 0
    for card in range(under.shape[0]):
        if under[card]:
            hidden[n] = card
            n += 1
    for c in range(n - 1, 0, -1):
        j = below(draw(key, c), c + 1)
        hidden[c], hidden[j] = hidden[j], hidden[c]
    n = 0
    for s in range(N_STACKS):
        for h in range(sim.heights[s] - 1):
            sim.stacks[s, h] = hidden[n]
            n += 1


@block(inline="always")
def play_candidate(at, c, key):
    """In the rollouts' copy, candidate c's take, then every seat the base policy to the end or the horizon."""
    w = at.work
    play_on(w.sim, at.setup, at.pw, w.rollouts, key, w.cand[c], Until(0, at.horizon, -1), w.quiet)


@block(inline="always")
def rollout_value(at):
    """The rollout's worth to the seat: its win share, plus its card margin over the best other pile as a
    fraction of the deck (below one win: it orders takes that win or lose alike, and varies less)."""
    piles, seat = at.work.sim.pile_n, at.st.sc[S_PLAYER]
    best_other = 0
    for s in range(piles.shape[0]):
        if s != seat:
            best_other = max(best_other, piles[s])
    return win_share(piles, seat) + (piles[seat] - best_other) / at.setup.cards.kinds.shape[0]


decide_take = rollout_decider(candidates, base_take, copy_play, determinize, play_candidate, rollout_value)


@nb.njit(cache=True, inline="always")
def search_take(st, setup, pw, lineup, key, work):
    """The search seat to move's take: its index in work.cand (swap stack, pile position, pair), or -1 when
    there is none to choose (the pass moves the play on). The seat's budget, base policy and horizon are its
    parameters in `lineup`."""
    prm = lineup.params[st.sc[S_PLAYER]]
    base = int(prm[PARAMS.search.base])
    work.rollouts.codes[:] = base
    for s in range(work.rollouts.params.shape[0]):
        work.rollouts.params[s] = lineup.defaults[base]
    at = Decision(st, setup, pw, key, int(prm[PARAMS.search.horizon]), work)
    return decide_take(at, work.schedule, key, st.sc[S_TAKE], int(prm[PARAMS.search.budget]))


@block()
def simulate_search_plays(seed, first_play, n_plays, setup, lineup, deals, sd, sd_offsets, ev, ev_offsets):
    """kernel.simulate_plays for line-ups with a search seat: the scripted seats' passes run until a search
    seat is to move, its take is chosen by search_take, then its pass is played. The same arguments and
    outputs.

    Positional parameters: a compiled entry point's, as kernel.simulate_plays."""
    n, n_cards = lineup.codes.shape[0], setup.cards.kinds.shape[0]
    out = new_outputs(n_plays, n)
    st, pw = new_state(n, n_cards, setup.sizes.max()), new_pairs()
    work = new_work(n, n_cards, setup.sizes.max(), lineup)
    order = np.empty(n_cards, np.int16)
    no_plan = np.full(3, -1, np.int64)
    standing = new_standing(n, n_cards)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, key, setup.sizes, order)
        if record:
            deals[i] = order
        row = ev_offsets[i] if record else -1
        while st.sc[S_REASON] < 0:  # scripted seats' passes; a search seat's take chosen, then its pass
            row = play_on(st, setup, pw, lineup, key, no_plan, Until(0, 0, SEARCH), Events(ev, play, row, standing))
            if st.sc[S_REASON] < 0:
                c = search_take(st, setup, pw, lineup, key, work)
                take = work.cand[c] if c >= 0 else no_plan
                row = play_on(st, setup, pw, lineup, key, take, Until(1, 0, -1), Events(ev, play, row, standing))
        write_outputs(out, i, st, standing)
        keep_standing(sd, sd_offsets, i, standing, out.takes[i])
    return out


@block()
def rollout_bench(seed, first_play, n_plays, setup, lineup):
    """For `make bench`: from each play's deal, a search's rollout (copy the play, determinize, play on with the
    seats' policies to the end) through the decider's blocks. Returns the takes played."""
    n, n_cards = lineup.codes.shape[0], setup.cards.kinds.shape[0]
    st, pw = new_state(n, n_cards, setup.sizes.max()), new_pairs()
    work = new_work(n, n_cards, setup.sizes.max(), lineup)
    work.rollouts.codes[:] = lineup.codes
    work.rollouts.params[:] = lineup.params
    work.cand[0] = -1  # no take of its own: the seats' policies from the first pass
    at = Decision(st, setup, pw, np.uint64(0), 0, work)
    order = np.empty(n_cards, np.int16)
    takes = 0
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        deal(st, key, setup.sizes, order)
        rollout = rollout_key(key, 0, 0)
        copy_play(at)
        determinize(at, rollout)
        play_candidate(at, 0, rollout)
        takes += work.sim.sc[S_TAKE]
    return takes
