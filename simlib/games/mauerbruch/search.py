"""Mauerbruch's search policy: each take scored by rollouts (simlib/core/search.py), the best one played.

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

import numpy as np

from ...core.blocks import block
from ...core.lineup import Lineup
from ...core.rng import below, draw, play_key
from ...core.search import (
    best_candidate,
    next_rollout,
    plan_arrays,
    record,
    rollout_key,
    start_plan,
    win_share,
)
from .constants import EV_COLS, N_STACKS, TURN, WISH
from .decisions import choose_pair, choose_swap
from .kernel import new_outputs, write_outputs
from .play import TO_THE_END, Events, Until, allowed, deal, play_on, refresh, swap
from .policies import PARAMS, SEARCH
from .state import S_PHASE, S_PLAYER, S_REASON, S_TAKE, copy_state, new_pairs, new_state

TIE_ROLLOUT = 1 << 40  # the rollout index whose key breaks ties among equally good candidates
SWITCH_Z = 1.0  # standard errors by which a take must beat the base policy's own to replace it


@block()
def candidates(st, scratch, cards, pw, player, cand):
    """Every take the player to move may make (swap stack, pile position, pair index), into cand; how many.
    `scratch` and `pw` are work space (refresh writes the tops: the copy's, never the play's)."""
    phase = st.sc[S_PHASE]
    copy_state(st, scratch)
    k = 0
    for p in range(allowed(phase, refresh(scratch, cards, pw), pw)):
        cand[k, 0], cand[k, 1], cand[k, 2] = -1, -1, p
        k += 1
    if phase != TURN or st.pile_n[player] == 0:
        return k
    for s in range(N_STACKS):
        if st.heights[s] == 0 or cards.kinds[st.stacks[s, st.heights[s] - 1]] != WISH:
            continue
        for j in range(max(0, st.pile_n[player] - 7), st.pile_n[player]):
            copy_state(st, scratch)
            swap(scratch, player, s, j)
            for p in range(allowed(phase, refresh(scratch, cards, pw), pw)):
                if pw.fa[p] == s or pw.fb[p] == s:  # a swap is worth making for a pair with the new card
                    cand[k, 0], cand[k, 1], cand[k, 2] = s, j, p
                    k += 1
    return k


@block()
def base_choice(st, scratch, cards, pw, base, key, k, cand):
    """The index among cand's first k of the take the base policy (the line-up `base`) would make here (-1: none
    of them), with the play's own draws for this take (read, not used up: draws are keyed)."""
    copy_state(st, scratch)
    player, take = st.sc[S_PLAYER], st.sc[S_TAKE]
    s, j = -1, -1
    n_pairs = refresh(scratch, cards, pw)
    if st.sc[S_PHASE] == TURN and st.pile_n[player] > 0:
        s, j = choose_swap(scratch, cards, base.codes[player], player, n_pairs, key, take)
        if s >= 0:
            swap(scratch, player, s, j)
            n_pairs = refresh(scratch, cards, pw)
    m = allowed(st.sc[S_PHASE], n_pairs, pw)
    if m == 0:
        return -1
    p = choose_pair(scratch, pw, base, player, m, key, take)
    for c in range(k):
        if cand[c, 0] == s and cand[c, 1] == j and cand[c, 2] == p:
            return c
    return -1


@block()
def determinize(st, key, hidden):
    """Shuffle the cards under the stacks' tops among their places (keyed by `key`), from their sorted order:
    which cards lie under the tops is known (the deck less every card seen), where each of them lies is not, so
    the deal depends only on what the seat has seen and the key."""
    n = 0
    for s in range(N_STACKS):
        for h in range(st.heights[s] - 1):
            hidden[n] = st.stacks[s, h]
            n += 1
    hidden[:n].sort()
    for c in range(n - 1, 0, -1):
        j = below(draw(key, c), c + 1)
        hidden[c], hidden[j] = hidden[j], hidden[c]
    n = 0
    for s in range(N_STACKS):
        for h in range(st.heights[s] - 1):
            st.stacks[s, h] = hidden[n]
            n += 1


@block()
def _value(piles, seat, n_cards):
    """A rollout's worth to the seat: its win share, plus its card margin over the best other pile as a
    fraction of the deck (below one win: it orders takes that win or lose alike, and varies less)."""
    best_other = 0
    for s in range(piles.shape[0]):
        if s != seat:
            best_other = max(best_other, piles[s])
    return win_share(piles, seat) + (piles[seat] - best_other) / n_cards


@block()
def search_take(st, scratch, setup, pw, lineup, key, cand, plan):
    """The search seat's take into plan (swap stack, pile position, pair), or plan left at -1 when there is
    no take to choose (the pass moves the play on). The seat's budget, base policy and horizon are its
    parameters in `lineup`."""
    cards = setup.cards
    player, take = st.sc[S_PLAYER], st.sc[S_TAKE]
    k = candidates(st, scratch, cards, pw, player, cand)
    if k <= 1:
        if k == 1:
            plan[:] = cand[0]
        return
    prm = lineup.params[player]
    n, base = st.pile_n.shape[0], int(prm[PARAMS.search.base])
    rollouts = Lineup(np.full(n, base, np.int64), np.empty((n, lineup.defaults.shape[1])), lineup.defaults)
    for s in range(n):
        rollouts.params[s] = lineup.defaults[base]
    schedule, stats = plan_arrays()
    hidden = np.empty(cards.kinds.shape[0], np.int16)
    quiet = Events(np.zeros((0, EV_COLS), np.int32), 0, -1)
    incumbent = base_choice(st, scratch, cards, pw, rollouts, key, k, cand)
    start_plan(k, int(prm[PARAMS.search.budget]), incumbent, schedule, stats)
    until = Until(0, int(prm[PARAMS.search.horizon]), -1)
    while True:
        c = next_rollout(schedule, stats)
        if c < 0:
            break
        rkey = rollout_key(key, take, int(stats[1, c]))  # a candidate's j-th rollout: the same deal for all
        copy_state(st, scratch)
        determinize(scratch, rkey, hidden)
        play_on(scratch, setup, pw, rollouts, rkey, cand[c], until, quiet)
        record(schedule, stats, c, _value(scratch.pile_n, player, cards.kinds.shape[0]))
    plan[:] = cand[best_candidate(schedule, stats, rollout_key(key, take, TIE_ROLLOUT), SWITCH_Z)]


@block()
def simulate_search_plays(seed, first_play, n_plays, setup, lineup, deals, ev, ev_offsets):
    """kernel.simulate_plays for line-ups with a search seat: the scripted seats' passes run until a search
    seat is to move, its take is chosen by search_take, then its pass is played. The same arguments and
    outputs."""
    n, n_cards = lineup.codes.shape[0], setup.cards.kinds.shape[0]
    out = new_outputs(n_plays, n)
    st, scratch, pw = new_state(n, n_cards, setup.sizes.max()), new_state(n, n_cards, setup.sizes.max()), new_pairs()
    order = np.empty(n_cards, np.int16)
    plan, no_plan = np.full(3, -1, np.int64), np.full(3, -1, np.int64)
    cand = np.empty((512, 3), np.int64)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, key, setup.sizes, order)
        if record:
            deals[i] = order
        row = ev_offsets[i] if record else -1
        while st.sc[S_REASON] < 0:  # scripted seats' passes; a search seat's take chosen, then its pass
            row = play_on(st, setup, pw, lineup, key, no_plan, Until(0, 0, SEARCH), Events(ev, play, row))
            if st.sc[S_REASON] < 0:
                plan[:] = -1
                search_take(st, scratch, setup, pw, lineup, key, cand, plan)
                row = play_on(st, setup, pw, lineup, key, plan, Until(1, 0, -1), Events(ev, play, row))
        write_outputs(out, i, st)
    return out


@block()
def rollout_bench(seed, first_play, n_plays, setup, lineup):
    """For `make bench`: from each play's deal, what a search's rollout does (copy the state, determinize,
    play on with the seats' policies to the end). Returns the takes played."""
    n, n_cards = lineup.codes.shape[0], setup.cards.kinds.shape[0]
    st, scratch, pw = new_state(n, n_cards, setup.sizes.max()), new_state(n, n_cards, setup.sizes.max()), new_pairs()
    order, hidden = np.empty(n_cards, np.int16), np.empty(n_cards, np.int16)
    no_plan, quiet = np.full(3, -1, np.int64), Events(np.zeros((0, EV_COLS), np.int32), 0, -1)
    takes = 0
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        deal(st, key, setup.sizes, order)
        copy_state(st, scratch)
        rkey = rollout_key(key, 0, 0)
        determinize(scratch, rkey, hidden)
        play_on(scratch, setup, pw, lineup, rkey, no_plan, TO_THE_END, quiet)
        takes += scratch.sc[S_TAKE]
    return takes
