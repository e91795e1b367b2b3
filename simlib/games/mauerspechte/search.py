"""Die Mauerspechte's search policy: Catan's (simlib/games/catan/search.py) on the scenario's turn. The decision
loop is core/rollout_decider.py's; this module supplies its blocks, over a Decision.

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
from ...core.feel import keep_standing
from ...core.rng import play_key
from ...core.rollout_decider import rollout_decider
from ...core.search import MAX_CANDIDATES, plan_arrays, rollout_key
from ..catan.constants import CHOICE_DRAWS, EV_COLS
from ..catan.play import STOPPED, start_turn
from ..catan.scoring import final_rows, new_outputs

# Catan's Decision and Work hold this scenario's state.Play as well (NamedTuples are typed by what they hold), and
# its base_action and determinize_copy read only what both plays have.
from ..catan.search import (
    Decision,
    Work,
    base_action,
    determinize,
    determinize_copy,
    margin_value,
    production_scores,
)
from ..catan.state import Seats, copy_state, draw_index, new_state, observed_log
from .decisions import choose_berlin_action
from .kernel import berlin_rows, new_berlin_outputs, new_play, start_berlin
from .play import apply_choice, place_opening_berlin, play_on, turn_steps
from .policies import PARAMS, SEARCH
from .rules import count_berlin, knight_goes
from .state import Play, copy_board_flags, copy_wall, engine, new_wall
from .wall import berlin_points, berlin_standing_after


@block(python_entry=True)
def new_work(setup, n_players):
    """A search's work space, allocated once per kernel call."""
    sim = new_play(setup, observed_log(np.zeros((0, EV_COLS), np.int32), 0, n_players, 0), n_players)
    return Work(sim, np.zeros((MAX_CANDIDATES, 2), np.int64), np.zeros(2, np.int64), np.zeros(1, np.int64),
                np.zeros(setup.rules.dev_deck.sum(), np.int64), np.zeros(n_players), plan_arrays())


@block(python_entry=True, _nrt=False)
def choice(pl, turn, p, code, family, index):
    """play.apply_choice (a knight's robber on rules.knight_goes's board), compiled once for the search."""
    board = knight_goes(pl.st, pl.bd, pl.to_west, pl.to_east, pl.ba, pl.br, pl.wl)
    return apply_choice(pl, board, turn, p, code, family, index)


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


@block(_nrt=False)
def candidates(at):
    """Every legal action after the roll into at.work.cand (their count in the real play's scratch, as the base
    policy's decision leaves it), and the base policy's own action into at.work.own, with the decision's two
    draws; how many."""
    pl, w, me = at.pl, at.work, at.me
    total = count_berlin(pl.st, pl.rules, pl.bd, pl.ba, pl.br, pl.wl, pl.scratch, me, at.turn)
    counts = pl.scratch.counts
    k = 0
    for f in range(counts.shape[0]):
        for i in range(min(counts[f], MAX_CANDIDATES - k)):
            w.cand[k, 0], w.cand[k, 1] = f, i
            k += 1
    w.own[0], w.own[1] = choose_berlin_action(pl, at.seats, me, at.seats.codes[me], total)
    return k


@block(inline="always")
def copy_play(at):
    """The real play into the rollouts' copy: the engine's state, the wall, the board's flags (the side boards
    share them)."""
    sim = at.work.sim
    copy_state(at.pl.st, sim.st)
    copy_wall(at.pl.wl, sim.wl)
    copy_board_flags(at.pl.bd, sim.bd)


@block(_nrt=False)
def play_candidate(at, c, key):
    """In the rollouts' copy, candidate c, the rest of the seat's turn and the turns to at.stop, every seat its base
    policy; the winner (-1 none) into at.work.winner. (The copy's draws are the rollout's: determinize_copy.)"""
    w, me, turn, seats = at.work, at.me, at.turn, at.seats
    sim = w.sim
    count_berlin(sim.st, sim.rules, sim.bd, sim.ba, sim.br, sim.wl, sim.scratch, me, turn)
    winner = -1
    if not choice(sim, turn, me, seats.codes[me], w.cand[c, 0], w.cand[c, 1]):
        winner = turn_steps(sim, seats, turn, me, True, seats.codes, -1)
    if winner < 0:
        winner = play_on(sim, seats, turn + 1, at.stop)[1]
    w.winner[0] = winner


@block(inline="always")
def rollout_value(at):
    sim = at.work.sim
    return horizon_value(sim.st, sim.wl, sim.br, at.me, at.work.winner[0], at.work.scores)


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
def base_seats(lineup):
    """The seats' policies in play: a search seat's base policy at its defaults (as catan.search.base_seats, for
    this scenario's search code and parameters)."""
    codes, prm = lineup.codes.copy(), lineup.prm.copy()
    for p in range(codes.shape[0]):
        if lineup.codes[p] == SEARCH:
            codes[p] = int(lineup.prm[p, PARAMS.search.base])
            prm[p, :] = lineup.defaults[codes[p], :prm.shape[1]]
    return Seats(codes, prm, lineup.defaults, lineup.family_weight)


@block()
def search_game(pl, base, lineup, max_turns, work):
    """The turns of a play with search seats (lineup: every seat's policy as the run gives it, a search seat's code
    SEARCH and its parameters): their actions after the roll are searched, every other choice is their base
    policy's (base). Returns (turns played, winner or -1); the standing after each turn kept in pl.lg, as
    play.play_on keeps it."""
    n = pl.st.hands.shape[0]
    winner, turn = -1, 0
    while turn < max_turns and winner < 0:
        p = turn % n
        start_turn(pl.st, p, turn)
        pl.wl.bought_piece[:] = 0
        pl.wl.bought_hotel[0] = 0
        r = turn_steps(pl, base, turn, p, False, lineup.codes, SEARCH)
        while r == STOPPED:
            horizon = int(lineup.prm[p, PARAMS.search.horizon])
            stop = min(max_turns, turn + 1 + horizon) if horizon > 0 else max_turns
            f, j = search_action(Decision(pl, base, turn, p, stop, work), int(lineup.prm[p, PARAMS.search.budget]))
            if choice(pl, turn, p, base.codes[p], f, j):
                r = -1
            else:
                r = turn_steps(pl, base, turn, p, True, lineup.codes, SEARCH)
        winner = r
        berlin_standing_after(pl.st, pl.wl, pl.br, pl.lg, turn)
        turn += 1
    return turn, winner


@block()
def simulate_search_games(seed, first_play, n_plays, max_turns, lineup, setup, sd, sd_start, ev, ev_start):
    """kernel.simulate_games for line-ups with a search seat (lineup.codes SEARCH; its parameters: budget, base
    code, horizon). The same arguments and outputs.

    Positional parameters: as kernel.simulate_games, a compiled entry point's (core/tables.record_kernel)."""
    n_players = lineup.codes.shape[0]
    base = base_seats(lineup)
    out, bo = new_outputs(n_plays, n_players), new_berlin_outputs(n_plays, n_players)
    pl = new_play(setup, observed_log(ev, n_players, n_players, max_turns), n_players)  # the searches read the unseen
    work = new_work(setup, n_players)
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        pl.lg.pos[0] = first
        start_berlin(pl, play_key(seed, first_play + i))
        place_opening_berlin(pl, base)
        turn, winner = search_game(pl, base, lineup, max_turns, work)
        final_rows(out, i, engine(pl, pl.bd), turn, winner, pl.lg.pos[0] - first)
        berlin_rows(bo, i, pl.st, pl.wl, pl.br)
        keep_standing(sd, sd_start, i, pl.lg.standing, turn)
    return out, bo


@block(python_entry=True)
def play_from_opening(seed, first_play, n_plays, max_turns, seats, setup, as_rollout):
    """Each play's state after the opening (the engine's and the wall's), copied and played on to the end with the
    seats' scripted policies: with the play's own draws (`as_rollout` False: the kernel's play, which a test
    checks), or as a search's rollout does (its own stream, the hidden cards determinized; `make bench` times it).
    Returns per play the turns and the winner."""
    n = seats.codes.shape[0]
    pl = new_play(setup, observed_log(np.zeros((0, EV_COLS), np.int32), 0, n, 0), n)  # nothing unseen yet
    sim = Play(new_state(pl.bd, pl.rules, n), pl.tally, pl.rules, pl.bd, pl.to_west, pl.to_east, pl.ba, pl.br,
               new_wall(n), pl.scratch, pl.lg)  # its own state and wall, the rest the play's
    pool = np.zeros(pl.st.deck.shape[0], np.int64)
    turns, winners = np.zeros(n_plays, np.int64), np.zeros(n_plays, np.int64)
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        start_berlin(pl, key)
        place_opening_berlin(pl, seats)
        copy_state(pl.st, sim.st)
        copy_wall(pl.wl, sim.wl)
        if as_rollout:
            sim.st.key[0] = rollout_key(key, 0, 0)
            determinize(sim.st, pl.lg, 0, sim.st.key[0], pool)
        turns[i], winners[i] = play_on(sim, seats, 0, max_turns)
    return turns, winners
