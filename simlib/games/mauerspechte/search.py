"""Die Mauerspechte's search policy: Catan's (simlib/games/catan/search.py) on the scenario's turn.

Each action after the roll (the engine's and the scenario's: wall pieces, hotels) is scored by rollouts on a
copy of everything of the play a rollout changes (the engine's state, the wall's, and the board's land and sea
flags, which a wall piece bought in a rollout opens), what the seat has not seen dealt again as in Catan, then
`horizon` turns of the base policy at every seat from the rollout's own draws (dice, Love Parade bids). A win
scores 1 to the winner; otherwise the seats are ranked by the scenario's points (wall pieces, chips, hotels
included) plus PRODUCTION_WEIGHT times their expected cards a roll. The seat's other choices (the opening, the
robber, bids) are its base policy's.
"""

import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from ...core.rollout_decider import SWITCH_Z, TIE_ROLLOUT
from ...core.search import (
    MAX_CANDIDATES,
    V_COUNT,
    best_candidate,
    next_rollout,
    plan_arrays,
    record,
    rollout_key,
    start_plan,
)
from ..catan.constants import CHOICE_DRAWS, EV_COLS
from ..catan.play import STOPPED, start_turn
from ..catan.scoring import final_rows, new_outputs
from ..catan.search import determinize, margin_value, production_scores
from ..catan.setup import new_game, start_play
from ..catan.state import Play, copy_state, draw_index, new_scratch, new_state, new_tally, observed_log
from .constants import N_FAMILIES  # the scenario's: the engine's families and its own two
from .decisions import choose_berlin_action
from .kernel import apply_choice, berlin_rows, count_berlin, knight_goes, new_berlin_outputs, turn_steps
from .policies import SEARCH
from .setup import deal_berlin, place_opening_berlin
from .state import copy_board_flags, copy_wall, new_wall, play_board, reset_wall, side_board
from .wall import berlin_points, lay_walls


@block(_nrt=False)
def choice(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, code, family, index):
    """kernel.apply_choice, compiled once for the search."""
    return apply_choice(st, tally, rules, bd, knight_goes(st, bd, to_west, to_east, ba, br, wl), ba, wl, scratch,
                        lg, turn, p, code, family, index)


@block(_nrt=False)
def turns_from(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, stop, codes, prm,
               family_weight):
    """Whole turns from `turn` to a win or turn `stop`: (turns played in all, winner or -1)."""
    n, winner = st.hands.shape[0], -1
    while turn < stop and winner < 0:
        p = turn % n
        start_turn(st, p, turn)
        wl.bought_piece[:] = 0
        wl.bought_hotel[0] = 0
        winner = turn_steps(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, False, codes,
                            prm, family_weight, codes, -1)
        turn += 1
    return turn, winner


@block()
def horizon_value(st, wl, br, me, winner, scores):
    """A rollout's worth to `me` (module docstring); `scores` is work space."""
    n = st.hands.shape[0]
    if winner >= 0:
        return 1.0 if winner == me else 0.0
    production_scores(st, scores)
    for q in range(n):
        scores[q] += berlin_points(st, wl, br, q)
    return margin_value(scores[:n], me, br.win_points)


@block()
def new_work(bd, ba, rules, n_players):
    """A search's work space, allocated once per kernel call: the copies its rollouts play on (state, wall, tally,
    scratch, no event rows, and a board of their own with its two side boards), the candidates, the determinizing
    pool and the horizon's scores."""
    sim_bd = play_board(bd, ba)
    return (new_state(bd, rules, n_players), new_wall(n_players), new_tally(n_players),
            new_scratch(bd, n_players, N_FAMILIES), observed_log(np.zeros((0, EV_COLS), np.int32), 0, n_players),
            sim_bd, side_board(sim_bd, ba.west_land), side_board(sim_bd, ba.east_land),
            np.zeros((MAX_CANDIDATES, 2), np.int64), np.zeros(rules.dev_deck.sum(), np.int64), np.zeros(n_players))


@block()
def search_action(st, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, max_turns, me, codes, prm,
                  family_weight, horizon, budget, work):
    """The action (family, index) search seat `me` takes after its roll, scratch left listing the real play's
    actions for it (the real play's arrays are written as its base policy's decision writes them, no more; lg,
    the real play's log, is read for what `me` cannot tell); codes and prm: every seat's base policy; work:
    new_work's."""
    sim, sim_wall, sim_tally, sim_scratch, no_lg, sim_bd, sim_west, sim_east, cand, pool, scores = work
    total = count_berlin(st, rules, bd, ba, br, wl, scratch, me, turn)
    k = 0
    for f in range(scratch.counts.shape[0]):
        for i in range(min(scratch.counts[f], MAX_CANDIDATES - k)):
            cand[k, 0], cand[k, 1] = f, i
            k += 1
    own_f, own_i = choose_berlin_action(st, rules, bd, ba, wl, scratch, me, codes[me], prm, family_weight, total)
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
        rkey = rollout_key(key, decision, int(stats[V_COUNT, c]))
        copy_state(st, sim)
        copy_wall(wl, sim_wall)
        copy_board_flags(bd, sim_bd)  # the side boards share them
        sim.key[0] = rkey
        determinize(sim, lg, me, rkey, pool)
        count_berlin(sim, rules, sim_bd, ba, br, sim_wall, sim_scratch, me, turn)
        winner = -1
        if not choice(sim, sim_tally, rules, sim_bd, sim_west, sim_east, ba, br, sim_wall, sim_scratch, no_lg, turn,
                      me, codes[me], cand[c, 0], cand[c, 1]):
            winner = turn_steps(sim, sim_tally, rules, sim_bd, sim_west, sim_east, ba, br, sim_wall, sim_scratch,
                                no_lg, turn, me, True, codes, prm, family_weight, codes, -1)
        if winner < 0:
            stop = min(max_turns, turn + 1 + horizon) if horizon > 0 else max_turns
            winner = turns_from(sim, sim_tally, rules, sim_bd, sim_west, sim_east, ba, br, sim_wall, sim_scratch,
                                no_lg, turn + 1, stop, codes, prm, family_weight)[1]
        record(schedule, stats, c, horizon_value(sim, sim_wall, br, me, winner, scores))
    best = best_candidate(schedule, stats, rollout_key(key, decision, TIE_ROLLOUT), SWITCH_Z)
    return cand[best, 0], cand[best, 1]


@block()
def simulate_search_games(seed, first_play, n_plays, n_players, max_turns, seat_codes, search_prm, defaults,
                          family_weight, bd0, rules, ba, br, ev, ev_start):
    """kernel.simulate_games for line-ups with a search seat (seat_codes SEARCH; search_prm: budget, base code,
    horizon); defaults [policy code, parameter] are the base policies' parameters."""
    codes, prm = seat_codes.copy(), search_prm.copy()
    for p in range(n_players):
        if seat_codes[p] == SEARCH:
            codes[p] = int(search_prm[p, 1])
            prm[p, :] = defaults[codes[p], :prm.shape[1]]
    out, bo = new_outputs(n_plays, n_players), new_berlin_outputs(n_plays, n_players)
    bd = play_board(bd0, ba)
    to_west, to_east = side_board(bd, ba.west_land), side_board(bd, ba.east_land)
    st, tally, wl = new_state(bd, rules, n_players), new_tally(n_players), new_wall(n_players)
    scratch = new_scratch(bd, n_players, N_FAMILIES)
    lg = observed_log(ev, n_players, n_players)  # the searches read what their seats cannot tell
    work = new_work(bd, ba, rules, n_players)
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        lg.pos[0] = first
        start_play(st, tally, play_key(seed, first_play + i))
        reset_wall(wl, br.vp_chips)
        deal_berlin(st, bd, ba, br, scratch, lg)
        lay_walls(bd, ba, wl)
        new_game(st, rules)
        place_opening_berlin(st, tally, bd, ba, scratch, lg, codes, prm)
        winner, turn = -1, 0
        while turn < max_turns and winner < 0:
            p = turn % n_players
            start_turn(st, p, turn)
            wl.bought_piece[:] = 0
            wl.bought_hotel[0] = 0
            r = turn_steps(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, False, codes,
                           prm, family_weight, seat_codes, SEARCH)
            while r == STOPPED:
                f, j = search_action(st, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, max_turns, p,
                                     codes, prm, family_weight, int(search_prm[p, 2]), int(search_prm[p, 0]), work)
                if choice(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, codes[p], f, j):
                    r = -1
                else:
                    r = turn_steps(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, True,
                                   codes, prm, family_weight, seat_codes, SEARCH)
            winner = r
            turn += 1
        final_rows(out, i, Play(st, tally, rules, bd, scratch, lg), turn, winner, lg.pos[0] - first)
        berlin_rows(bo, i, st, wl, br)
    return out, bo


@block()
def play_from_opening(seed, first_play, n_plays, codes, prm, family_weight, bd0, rules, ba, br, max_turns,
                      as_rollout):
    """Each play's state after the opening (the engine's and the wall's), copied and played on to the end with the
    seats' scripted policies: with the play's own draws (`as_rollout` False: the kernel's play, which a test
    checks), or as a search's rollout does (its own stream, the hidden cards determinized; `make bench` times it).
    Returns per play the turns and the winner."""
    n = codes.shape[0]
    bd = play_board(bd0, ba)
    to_west, to_east = side_board(bd, ba.west_land), side_board(bd, ba.east_land)
    st, sim, tally = new_state(bd, rules, n), new_state(bd, rules, n), new_tally(n)
    wl, sim_wall = new_wall(n), new_wall(n)
    scratch = new_scratch(bd, n, N_FAMILIES)
    lg = observed_log(np.zeros((0, EV_COLS), np.int32), 0, n)  # from the opening nothing is unseen yet
    pool = np.zeros(st.deck.shape[0], np.int64)
    turns, winners = np.zeros(n_plays, np.int64), np.zeros(n_plays, np.int64)
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        start_play(st, tally, key)
        reset_wall(wl, br.vp_chips)
        deal_berlin(st, bd, ba, br, scratch, lg)
        lay_walls(bd, ba, wl)
        new_game(st, rules)
        place_opening_berlin(st, tally, bd, ba, scratch, lg, codes, prm)
        copy_state(st, sim)
        copy_wall(wl, sim_wall)
        if as_rollout:
            sim.key[0] = rollout_key(key, 0, 0)
            determinize(sim, lg, 0, sim.key[0], pool)
        turns[i], winners[i] = turns_from(sim, tally, rules, bd, to_west, to_east, ba, br, sim_wall, scratch, lg, 0,
                                          max_turns, codes, prm, family_weight)
    return turns, winners
