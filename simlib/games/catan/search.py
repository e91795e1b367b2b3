"""Catan's search policy: each action after the roll scored by rollouts (simlib/core/search.py), the best one taken.

A candidate is a legal action after the roll (legal.count_actions: a build, a card bought or played, a bank or
harbour trade, a ship moved, ending the turn). What the deciding player has not seen is the development cards
in the others' hands, the order of the deck, and the resource cards robbed between two others: before each
rollout the development cards are shuffled together and the others get as many as they held, the rest go back
under the deck's drawn part; the resource cards the seat cannot tell (unseen.py: it counts every public change
of a hand, in the play's event log) are dealt again within the seats among which they may lie, each seat keeping
what the seat tells of its hand and its hand's size. A rollout applies the candidate on a copy of the state,
finishes the turn and plays `horizon` more turns with the base policy at every seat, the future dice and every
other draw from the rollout's own stream. Random games run 300 turns and more, so a rollout stops at the
horizon and is scored there: a win ends it (1 to the winner), else the seats are ranked by victory points plus
PRODUCTION_WEIGHT times their expected cards a roll (the pips of their settlements, twice for cities, / 36),
and the deciding seat's value is its win share of that ranking plus its margin over the best other seat as a
fraction of the win threshold. The other choices of a search seat (the opening, the robber, discards, free
roads) are its base policy's.
"""

import numpy as np

from ...core.blocks import block
from ...core.rng import below, draw, play_key
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
from .constants import EV_COLS, N_DEV, N_FAMILIES, N_RES
from .decisions import choose_action
from .kernel import STOPPED, apply_choice, start_turn, turn_steps
from .legal import count_actions
from .policies import SEARCH
from .scoring import final_rows, new_outputs, points
from .setup import deal_board, new_game, place_opening, start_play
from .state import CHOICE_DRAWS, copy_state, draw_index, new_scratch, new_state, new_tally, observed_log
from .unseen import unseen_cards

TIE_ROLLOUT = 1 << 40  # the rollout index whose key breaks ties among equally good candidates
SWITCH_Z = 1.0  # standard errors by which an action must beat the base policy's own to replace it
PRODUCTION_WEIGHT = 2.0  # victory points an expected card a roll is worth at the horizon
DEAL_DRAWS = 1 << 20  # the index of determinize's first resource draw (the development cards take fewer)


# The search calls the kernel's inline turn blocks through these, so that each is compiled once for it (inlined
# at every call, they made the search kernel's first compile take many minutes).

@block(_nrt=False)
def steps(st, tally, rules, bd, scratch, lg, turn, p, rolled, codes, prm, family_weight, seat_codes, stop_code):
    return turn_steps(st, tally, rules, bd, scratch, lg, turn, p, rolled, codes, prm, family_weight, seat_codes,
                      stop_code)


@block(_nrt=False)
def choice(st, tally, rules, bd, scratch, lg, turn, p, code, family, index):
    return apply_choice(st, tally, rules, bd, scratch, lg, turn, p, code, family, index)


@block(_nrt=False)
def turns_from(st, tally, rules, bd, scratch, lg, turn, stop, codes, prm, family_weight):
    """kernel.play_on through `steps`: whole turns from `turn` to a win or turn `stop`: (turns played in all,
    winner or -1)."""
    n, winner = st.hands.shape[0], -1
    while turn < stop and winner < 0:
        start_turn(st, turn % n, turn)
        winner = steps(st, tally, rules, bd, scratch, lg, turn, turn % n, False, codes, prm, family_weight, codes, -1)
        turn += 1
    return turn, winner


@block()
def determinize(st, lg, me, key, pool):
    """Deal again what `me` has not seen: the development cards (the others' hands, the deck's undrawn part)
    shuffled together, each other seat as many as it held, the rest to the deck; then the resource cards it
    cannot tell (deal_unseen; lg: the play's log, which keeps what each seat cannot tell). `pool` is work space."""
    n = st.dev_hand.shape[0]
    unseen = np.zeros(N_DEV, np.int64)
    for c in range(st.deck_pos[0], st.deck.shape[0]):
        unseen[st.deck[c]] += 1
    for q in range(n):
        if q != me:
            unseen += st.dev_hand[q]
    m = 0  # the pool in card order: what the seat knows of it is the cards, not who holds which
    for kind in range(N_DEV):
        for _ in range(unseen[kind]):
            pool[m] = kind
            m += 1
    for c in range(m - 1, 0, -1):
        j = below(draw(key, c), c + 1)
        pool[c], pool[j] = pool[j], pool[c]
    m = 0
    for q in range(n):
        if q != me:
            held = 0
            for kind in range(N_DEV):
                held += st.dev_hand[q, kind]
            st.dev_hand[q, :] = 0
            st.dev_new[q, :] = 0  # reset at the seat's next turn anyway: only the mover's new cards matter
            for _ in range(held):
                st.dev_hand[q, pool[m]] += 1
                m += 1
    for c in range(st.deck_pos[0], st.deck.shape[0]):
        st.deck[c] = pool[m]
        m += 1
    deal_unseen(st, lg, me, key)


@block()
def deal_unseen(st, lg, me, key):
    """The resource cards `me` cannot tell (lg.unseen: the play's log keeps them) dealt again within each of its
    groups of seats: each seat keeps the cards `me` tells of its hand and gets as many as it had untold, drawn one
    by one from its group's untold cards. Where `me` tells every card (or the log keeps no record), nothing is
    drawn. (Nothing of the truth is read: what `me` tells, the hands' sizes and each group's untold cards follow
    from public events alone.)"""
    if lg.unseen.shape[0] == 0:
        return
    n = st.hands.shape[0]
    mix = np.zeros(N_RES, np.int64)
    done, j = 1 << me, 0
    for q in range(n):
        group = lg.unseen_group[me, q]
        if (done >> q) & 1 or unseen_cards(lg, me, q) == 0:
            continue
        done |= group
        mix[:] = 0
        for s in range(n):
            if (group >> s) & 1:
                for r in range(N_RES):
                    mix[r] += lg.unseen[me, s, r]
                    st.hands[s, r] -= lg.unseen[me, s, r]
        left = mix.sum()
        for s in range(n):
            if not (group >> s) & 1:
                continue
            for _ in range(unseen_cards(lg, me, s)):
                k = below(draw(key, DEAL_DRAWS + j), left)
                j += 1
                r = 0
                while k >= mix[r]:
                    k -= mix[r]
                    r += 1
                st.hands[s, r] += 1
                mix[r] -= 1
                left -= 1


@block()
def production_scores(st, scores):
    """scores[q] := PRODUCTION_WEIGHT times seat q's expected cards a roll: the horizon value's production
    term, to which a game adds its points."""
    scores[:st.hands.shape[0]] = 0.0
    for node in range(st.node_owner.shape[0]):
        q = st.node_owner[node]
        if q >= 0:
            scores[q] += PRODUCTION_WEIGHT * st.node_level[node] * st.node_pips[node] / 36.0


@block()
def margin_value(scores, me, win_points):
    """The horizon value of seats' `scores` to `me`: its win share of the best score, plus its margin over the
    best other seat as a fraction of 4 times the points that win."""
    best_other = -1e9
    for q in range(scores.shape[0]):
        if q != me:
            best_other = max(best_other, scores[q])
    return win_share(scores, me) + (scores[me] - best_other) / (4.0 * win_points)


@block()
def horizon_value(st, rules, me, winner, scores):
    """A rollout's worth to `me` (module docstring); `scores` is work space."""
    n = st.hands.shape[0]
    if winner >= 0:
        return 1.0 if winner == me else 0.0
    production_scores(st, scores)
    for q in range(n):
        scores[q] += points(st, q)
    return margin_value(scores[:n], me, rules.win_points)


@block()
def search_action(st, rules, bd, scratch, lg, turn, max_turns, me, codes, prm, family_weight, horizon, budget,
                  sim, sim_tally, sim_scratch, no_lg, cand, pool, scores):
    """The action (family, index) search seat `me` takes after its roll in `turn`, scratch left listing the real
    state's actions for it (the real play's arrays are written as its base policy's decision writes them, no more;
    lg, the real play's log, is read for what `me` cannot tell). codes and prm: every seat's base policy (the
    rollouts' and the incumbent's)."""
    total = count_actions(st, rules, bd, scratch, me, turn)
    k = 0
    for f in range(N_FAMILIES):
        for i in range(min(scratch.counts[f], MAX_CANDIDATES - k)):  # more than 512 actions: never seen
            cand[k, 0], cand[k, 1] = f, i
            k += 1
    own_f, own_i = choose_action(st, rules, bd, scratch, me, codes[me], prm, family_weight, total)
    if k <= 1:
        return own_f, own_i
    incumbent = -1
    for c in range(k):
        if cand[c, 0] == own_f and cand[c, 1] == own_i:
            incumbent = c
    key, decision = st.key[0], draw_index(st, CHOICE_DRAWS, 0)  # after the decision's draws: unique in the play
    schedule, stats = plan_arrays()
    start_plan(k, budget, incumbent, schedule, stats)
    while True:
        c = next_rollout(schedule, stats)
        if c < 0:
            break
        rkey = rollout_key(key, decision, int(stats[V_COUNT, c]))  # a candidate's j-th rollout: the same deal
        copy_state(st, sim)
        sim.key[0] = rkey
        determinize(sim, lg, me, rkey, pool)
        count_actions(sim, rules, bd, sim_scratch, me, turn)  # the same list: hidden cards do not change it
        winner = -1
        if not choice(sim, sim_tally, rules, bd, sim_scratch, no_lg, turn, me, codes[me], cand[c, 0], cand[c, 1]):
            winner = steps(sim, sim_tally, rules, bd, sim_scratch, no_lg, turn, me, True, codes, prm, family_weight,
                           codes, -1)
        if winner < 0:
            stop = min(max_turns, turn + 1 + horizon) if horizon > 0 else max_turns
            winner = turns_from(sim, sim_tally, rules, bd, sim_scratch, no_lg, turn + 1, stop, codes, prm,
                                family_weight)[1]
        record(schedule, stats, c, horizon_value(sim, rules, me, winner, scores))
    best = best_candidate(schedule, stats, rollout_key(key, decision, TIE_ROLLOUT), SWITCH_Z)
    return cand[best, 0], cand[best, 1]


@block()
def search_game(st, tally, rules, bd, scratch, lg, max_turns, seat_codes, search_prm, codes, prm, family_weight,
                work):
    """play_game with search seats (seat_codes SEARCH, their budget and horizon in search_prm): their actions
    after the roll are searched, every other choice is their base policy's (codes, prm)."""
    sim, sim_tally, sim_scratch, no_lg, cand, pool, scores = work
    place_opening(st, tally, bd, scratch, lg, codes, prm)
    n = st.hands.shape[0]
    winner, turn = -1, 0
    while turn < max_turns and winner < 0:
        p = turn % n
        start_turn(st, p, turn)
        r = steps(st, tally, rules, bd, scratch, lg, turn, p, False, codes, prm, family_weight, seat_codes, SEARCH)
        while r == STOPPED:
            f, i = search_action(st, rules, bd, scratch, lg, turn, max_turns, p, codes, prm, family_weight,
                                 int(search_prm[p, 2]), int(search_prm[p, 0]), sim, sim_tally, sim_scratch, no_lg,
                                 cand, pool, scores)
            if choice(st, tally, rules, bd, scratch, lg, turn, p, codes[p], f, i):
                r = -1
            else:
                r = steps(st, tally, rules, bd, scratch, lg, turn, p, True, codes, prm, family_weight, seat_codes,
                          SEARCH)
        winner = r
        turn += 1
    return turn, winner


@block()
def simulate_search_games(seed, first_play, n_plays, n_players, max_turns, seat_codes, search_prm, defaults,
                          family_weight, bd, rules, ev, ev_start):
    """simulate_games for line-ups with a search seat (seat_codes SEARCH; search_prm: budget, base code,
    horizon); defaults [policy code, parameter] are the base policies' parameters."""
    codes, prm = seat_codes.copy(), search_prm.copy()
    for p in range(n_players):
        if seat_codes[p] == SEARCH:
            codes[p] = int(search_prm[p, 1])
            prm[p, :] = defaults[codes[p], :prm.shape[1]]
    out = new_outputs(n_plays, n_players)
    st, tally = new_state(bd, rules, n_players), new_tally(n_players)
    scratch = new_scratch(bd, n_players, N_FAMILIES)
    lg = observed_log(ev, n_players, n_players)  # the searches read what their seats cannot tell
    work = (new_state(bd, rules, n_players), new_tally(n_players), new_scratch(bd, n_players, N_FAMILIES),
            observed_log(np.zeros((0, EV_COLS), np.int32), 0, n_players),
            np.zeros((MAX_CANDIDATES, 2), np.int64), np.zeros(st.deck.shape[0], np.int64), np.zeros(n_players))
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        lg.pos[0] = first
        start_play(st, tally, play_key(seed, first_play + i))
        deal_board(st, bd, scratch, lg)
        new_game(st, rules)
        turns, winner = search_game(st, tally, rules, bd, scratch, lg, max_turns, seat_codes, search_prm, codes, prm,
                                    family_weight, work)
        final_rows(out, i, st, tally, rules, bd, scratch, turns, winner, lg.pos[0] - first)
    return out


@block()
def play_from_opening(seed, first_play, n_plays, codes, prm, family_weight, bd, rules, max_turns, as_rollout):
    """Each play's state after the opening, copied and played on to the end with the seats' scripted policies:
    with the play's own draws (`as_rollout` False: the kernel's play, which a test checks), or as a search's
    rollout does (its own stream, the hidden cards determinized; `make bench` times it). Returns per play the
    turns, the winner and the seats' points."""
    n = codes.shape[0]
    st, sim = new_state(bd, rules, n), new_state(bd, rules, n)
    tally, scratch = new_tally(n), new_scratch(bd, n, N_FAMILIES)
    lg = observed_log(np.zeros((0, EV_COLS), np.int32), 0, n)  # from the opening nothing is unseen yet
    pool = np.zeros(st.deck.shape[0], np.int64)
    turns, winners, scores = np.zeros(n_plays, np.int64), np.zeros(n_plays, np.int64), np.zeros((n_plays, n), np.int64)
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        start_play(st, tally, key)
        deal_board(st, bd, scratch, lg)
        new_game(st, rules)
        place_opening(st, tally, bd, scratch, lg, codes, prm)
        copy_state(st, sim)
        if as_rollout:
            sim.key[0] = rollout_key(key, 0, 0)
            determinize(sim, lg, 0, sim.key[0], pool)
        turns[i], winners[i] = turns_from(sim, tally, rules, bd, scratch, lg, 0, max_turns, codes, prm, family_weight)
        for q in range(n):
            scores[i, q] = points(sim, q)
    return turns, winners, scores
