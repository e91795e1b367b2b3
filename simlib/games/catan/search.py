"""Catan's search policy: each action after the roll scored by rollouts, the best one taken. The decision loop is
core/rollout_decider.py's; this module supplies its blocks, over a Decision.

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


from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.rng import below, draw, play_key
from ...core.rollout_decider import rollout_decider
from ...core.search import MAX_CANDIDATES, plan_arrays, rollout_key, win_share
from .constants import CHOICE_DRAWS, EV_COLS, N_DEV, N_FAMILIES, N_RES
from .decisions import choose_action
from .legal import count_actions
from .play import STOPPED, apply_choice, place_opening, start_turn, turn_steps
from .policies import PARAMS, SEARCH
from .scoring import final_rows, new_outputs, points, standing_after
from .setup import deal_board, new_game, start_play
from .state import (
    Play,
    Seats,
    copy_state,
    draw_index,
    new_scratch,
    new_state,
    new_tally,
    observed_log,
)
from .unseen import unseen_cards

PRODUCTION_WEIGHT = 2.0  # victory points an expected card a roll is worth at the horizon
DEAL_DRAWS = 1 << 20  # the index of determinize's first resource draw (the development cards take fewer)


class Work(NamedTuple):
    """The search's work space, made once per kernel call."""

    sim: Play           # the rollouts' copy of the play: its own state, tally, work space and a log of no rows
    cand: np.ndarray    # [candidate, 2] an action after the roll: its family and index in it
    own: np.ndarray     # [2] the base policy's own action at the decision
    winner: np.ndarray  # [1] the rollout's winner, -1 none (play_candidate to rollout_value)
    pool: np.ndarray    # determinize's development cards
    scores: np.ndarray  # [seat] horizon_value's work space
    schedule: tuple     # the decider's plan_arrays()


class Decision(NamedTuple):
    """A search seat's action after its roll to decide, as the decider's blocks take it. The real play's arrays
    are written only as its base policy's own decision writes them (pl.scratch, pl.st's draws); pl.lg is read
    for what `me` cannot tell."""

    pl: Play        # the real play (its tally is not touched)
    seats: Seats    # every seat's base policy (the rollouts' and the incumbent's)
    turn: int
    me: int
    stop: int       # the turn a rollout stops at (the horizon, or the turn limit)
    work: Work


@block(python_entry=True)
def new_work(bd, rules, n):
    sim = Play(new_state(bd, rules, n), new_tally(n), rules, bd, new_scratch(bd, n, N_FAMILIES),
               observed_log(np.zeros((0, EV_COLS), np.int32), 0, n, 0))
    return Work(sim, np.zeros((MAX_CANDIDATES, 2), np.int64), np.zeros(2, np.int64), np.zeros(1, np.int64),
                np.zeros(rules.dev_deck.sum(), np.int64), np.zeros(n), plan_arrays())


# The search calls the play's inline turn blocks through these, so that each is compiled once for it (inlined
# at every call, they made the search kernel's first compile take many minutes).

@block(python_entry=True, _nrt=False)
def steps(pl, seats, turn, p, rolled, seat_codes, stop_code):
    return turn_steps(pl, seats, turn, p, rolled, seat_codes, stop_code)


@block(python_entry=True, _nrt=False)
def choice(pl, turn, p, code, family, index):
    return apply_choice(pl, turn, p, code, family, index)


@block(_nrt=False)
def turns_from(pl, seats, turn, stop):
    """play.play_on through `steps`: whole turns from `turn` to a win or turn `stop`: (turns played in all,
    winner or -1)."""
    n, winner = pl.st.hands.shape[0], -1
    while turn < stop and winner < 0:
        start_turn(pl.st, turn % n, turn)
        winner = steps(pl, seats, turn, turn % n, False, seats.codes, -1)
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


@block(_nrt=False)
def candidates(at):
    """Every legal action after the roll into at.work.cand (their count in the real play's scratch, as the base
    policy's decision leaves it), and the base policy's own action into at.work.own, with the decision's two
    draws; how many."""
    st, rules, bd, scratch = at.pl.st, at.pl.rules, at.pl.bd, at.pl.scratch
    w, me, seats = at.work, at.me, at.seats
    total = count_actions(st, rules, bd, scratch, me, at.turn)
    k = 0
    for f in range(N_FAMILIES):
        for i in range(min(scratch.counts[f], MAX_CANDIDATES - k)):  # more than 512 actions: never seen
            w.cand[k, 0], w.cand[k, 1] = f, i
            k += 1
    w.own[0], w.own[1] = choose_action(st, rules, bd, scratch, me, seats.codes[me], seats.prm, seats.family_weight,
                                       total)
    return k


@block(_nrt=False)
def base_action(at, k):
    """The index among the k candidates of the base policy's own action (candidates made it), -1: none."""
    w = at.work
    for c in range(k):
        if w.cand[c, 0] == w.own[0] and w.cand[c, 1] == w.own[1]:
            return c
    return -1


@block(inline="always")
def copy_play(at):
    copy_state(at.pl.st, at.work.sim.st)


@block(_nrt=True)  # said, not inherited from the decider: determinize allocates
def determinize_copy(at, key):
    """In the rollouts' copy, its draws from `key` and what the seat has not seen dealt again (determinize)."""
    sim = at.work.sim.st
    sim.key[0] = key
    determinize(sim, at.pl.lg, at.me, key, at.work.pool)


@block(_nrt=False)
def play_candidate(at, c, key):
    """In the rollouts' copy, candidate c, the rest of the seat's turn and the turns to at.stop, every seat its base
    policy; the winner (-1 none) into at.work.winner. (The copy's draws are the rollout's: determinize_copy.)"""
    w, me, turn, seats = at.work, at.me, at.turn, at.seats
    sim = w.sim
    count_actions(sim.st, sim.rules, sim.bd, sim.scratch, me, turn)  # the same list: hidden cards do not change it
    winner = -1
    if not choice(sim, turn, me, seats.codes[me], w.cand[c, 0], w.cand[c, 1]):
        winner = steps(sim, seats, turn, me, True, seats.codes, -1)
    if winner < 0:
        winner = turns_from(sim, seats, turn + 1, at.stop)[1]
    w.winner[0] = winner


@block(inline="always")
def rollout_value(at):
    return horizon_value(at.work.sim.st, at.pl.rules, at.me, at.work.winner[0], at.work.scores)


decide_action = rollout_decider(candidates, base_action, copy_play, determinize_copy, play_candidate, rollout_value)


@block(python_entry=True)
def search_action(at, budget):
    """The action (family, index) search seat at.me takes after its roll (the real play's scratch left listing its
    actions, as its base policy's decision leaves it)."""
    key = at.pl.st.key[0]
    decision = draw_index(at.pl.st, CHOICE_DRAWS, 2)  # after the decision's own two draws: unique in the play
    c = decide_action(at, at.work.schedule, key, decision, budget)
    return at.work.cand[c, 0], at.work.cand[c, 1]


@block()
def search_game(pl, base, lineup, max_turns, work):
    """play_game with search seats (lineup: every seat's policy as the run gives it, a search seat's code SEARCH and
    its parameters): their actions after the roll are searched, every other choice is their base policy's
    (base: every seat's policy in play). The standing after each turn kept in pl.lg, as play.play_on keeps it."""
    place_opening(pl, base)
    n = pl.st.hands.shape[0]
    winner, turn = -1, 0
    while turn < max_turns and winner < 0:
        p = turn % n
        start_turn(pl.st, p, turn)
        r = steps(pl, base, turn, p, False, lineup.codes, SEARCH)
        while r == STOPPED:
            horizon = int(lineup.prm[p, PARAMS.search.horizon])
            stop = min(max_turns, turn + 1 + horizon) if horizon > 0 else max_turns
            f, i = search_action(Decision(pl, base, turn, p, stop, work), int(lineup.prm[p, PARAMS.search.budget]))
            if choice(pl, turn, p, base.codes[p], f, i):
                r = -1
            else:
                r = steps(pl, base, turn, p, True, lineup.codes, SEARCH)
        winner = r
        standing_after(pl.st, pl.lg, turn, winner >= 0 or turn + 1 == max_turns)
        turn += 1
    return turn, winner


@block()
def base_seats(lineup):
    """The seats' policies in play: a search seat's base policy at its defaults (its choices but the searched
    ones, and every seat's in the rollouts)."""
    codes, prm = lineup.codes.copy(), lineup.prm.copy()
    for p in range(codes.shape[0]):
        if lineup.codes[p] == SEARCH:
            codes[p] = int(lineup.prm[p, PARAMS.search.base])
            prm[p, :] = lineup.defaults[codes[p], :prm.shape[1]]
    return Seats(codes, prm, lineup.defaults, lineup.family_weight)


@block()
def simulate_search_games(seed, first_play, n_plays, max_turns, lineup, bd, rules, sd, sd_start, ev, ev_start):
    """kernel.simulate_games for line-ups with a search seat (lineup.codes SEARCH; its parameters: budget, base
    code, horizon). The same arguments and outputs.

    Positional parameters: as kernel.simulate_games, a compiled entry point's (core/tables.record_kernel)."""
    n_players = lineup.codes.shape[0]
    base = base_seats(lineup)
    out = new_outputs(n_plays, n_players)
    lg = observed_log(ev, n_players, n_players, max_turns)  # the searches read what their seats cannot tell
    pl = Play(new_state(bd, rules, n_players), new_tally(n_players), rules, bd, new_scratch(bd, n_players, N_FAMILIES),
              lg)
    work = new_work(bd, rules, n_players)
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        lg.pos[0] = first
        start_play(pl.st, pl.tally, play_key(seed, first_play + i))
        deal_board(pl.st, bd, pl.scratch, lg)
        new_game(pl.st, rules)
        turns, winner = search_game(pl, base, lineup, max_turns, work)
        final_rows(out, i, pl, turns, winner, lg.pos[0] - first)
        keep_standing(sd, sd_start, i, lg.standing, turns)
    return out


@block()
def play_from_opening(seed, first_play, n_plays, max_turns, seats, bd, rules, as_rollout):
    """Each play's state after the opening, copied and played on to the end with the seats' scripted policies:
    with the play's own draws (`as_rollout` False: the kernel's play, which a test checks), or as a search's
    rollout does (its own stream, the hidden cards determinized; `make bench` times it). Returns per play the
    turns, the winner and the seats' points."""
    n = seats.codes.shape[0]
    lg = observed_log(np.zeros((0, EV_COLS), np.int32), 0, n, 0)  # from the opening nothing is unseen yet
    pl = Play(new_state(bd, rules, n), new_tally(n), rules, bd, new_scratch(bd, n, N_FAMILIES), lg)
    st, sim = pl.st, new_state(bd, rules, n)
    rollout = Play(sim, pl.tally, rules, bd, pl.scratch, lg)
    pool = np.zeros(st.deck.shape[0], np.int64)
    turns, winners, scores = np.zeros(n_plays, np.int64), np.zeros(n_plays, np.int64), np.zeros((n_plays, n), np.int64)
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        start_play(st, pl.tally, key)
        deal_board(st, bd, pl.scratch, lg)
        new_game(st, rules)
        place_opening(pl, seats)
        copy_state(st, sim)
        if as_rollout:
            sim.key[0] = rollout_key(key, 0, 0)
            determinize(sim, lg, 0, sim.key[0], pool)
        turns[i], winners[i] = turns_from(rollout, seats, 0, max_turns)
        for q in range(n):
            scores[i, q] = points(sim, q)
    return turns, winners, scores
