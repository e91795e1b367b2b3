"""Burgenland's search policy: each turn's main action scored by rollouts, the best played. The decision loop is
core/rollout_decider.py's; this module supplies its blocks, over a Decision.

The search seat's free actions (a swap, an exchange) are its base policy's: the kernel plays them and stops
before the main action (play.play_turns). The candidates are the main actions then open: every build the hand
can pay (the random policy's list: every piece, castle, spot and bonus tile, the central castle included) and
drawing two cards. The base policy's own choice, found on a copy with the play's draws read (not used up), is
the incumbent. With only the draw to choose, no rollouts are played.

What the deciding seat has not seen is re-sampled before each rollout (`determinize`):
- the other seats' colour cards (behind their screens) and the face-down pile: their cards are pooled with the
  pile and each other seat is dealt again as many as it holds (hand sizes, jokers, swap tiles, the discard
  pile and the board are public; what a seat's payments let one infer about the rest of its hand is not used);
- the face-down bonus tiles: the pile and the tiles the other seats hold (face down) are shuffled together,
  each other seat takes again as many as it holds (of tiles that can be held: a jokers tile is used when
  taken), the rest is the pile in its new order;
- the master-builder and well cards under their piles' open top cards (the ones never yet on top).
The order of the face-down pile needs nothing more: a draw is a uniform card of those left, from the rollout's
own key. The policies' patience counters (`waiting`) stay: for the scripted policies they count a
seat's turns in a row without a small-castle build, which everybody sees.

A rollout plays the candidate, then every seat with the base policy (its default parameters) for `horizon`
turns of all seats (0: to the end of the play); its value is the deciding seat's win share by pieces placed at
that point (at the end: the winner, who placed all), plus its margin over the best other seat in pieces as a
fraction of a seat's pieces (below one win: it orders main actions that win or lose alike, and varies less).
The default horizon, 24 turns (six rounds at four players), was as strong as rollouts to the end at budgets 64
and 256 (docs/search.md) and plays 2.3 times as fast; 12 turns were weaker.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.feel import keep_standing
from ...core.lineup import Lineup
from ...core.rng import play_key
from ...core.rollout_decider import rollout_decider
from ...core.search import MAX_CANDIDATES, plan_arrays, rollout_key, win_share
from . import constants as C
from .builds import CASTLE, Means, legal_builds
from .decisions import DEFAULT_WEIGHTS, choose_build
from .kernel import begin_play, new_outputs, new_standing, play_events, write_outputs
from .play import PL_PIECE, PL_SPEND, PLAN_SIZE, Until, play_turns, start_play, turn_of
from .policies import PARAMS, SEARCH
from .rules import BONUS_TOP, MASTER_TOP, WELL_TOP, begin_draws, draw_card, shuffle, total_cards
from .state import S_REASON, S_TURN, SEAT_COLUMNS, Events, Play, Setup, TurnWork, copy_play, new_play, new_work


class Work(NamedTuple):
    """The search's work space, made once per kernel call."""

    sim: Play           # the rollouts' copy of the play (the base policy's own choice is found on it too)
    cand: np.ndarray    # [MAX_CANDIDATES, PLAN_SIZE] the candidate main actions (play.py's PL_*)
    tiles: np.ndarray   # the unseen bonus tiles (determinize)
    held: np.ndarray    # [seats] bonus tiles held, per seat (determinize)
    scores: np.ndarray  # [seats] pieces placed (rollout_value)
    rollouts: Lineup    # the rollouts' line-up: every seat the deciding seat's base policy at its defaults
    quiet: Events       # no event rows: the rollouts' actions are added up here and never read
    schedule: tuple     # the decider's plan_arrays()


class Decision(NamedTuple):
    """A search seat's main action to decide (its free actions played), as the decider's blocks take it."""

    st: Play        # the real play, the seat to move (read only)
    wk: TurnWork    # the turn's work space, shared with the play (which writes it afresh before reading it)
    setup: Setup
    me: int         # the deciding seat
    key: np.uint64  # the play's key (the base policy's choice reads its draws)
    turn: int       # the turn (its rollouts' draws are keyed from it on)
    horizon: int    # turns a rollout plays before it is scored by pieces placed (0: to the end)
    work: Work


@block(python_entry=True)
def new_search_work(st, lineup):
    n, n_tiles = st.hands.shape[0], st.bonus_order.shape[0]
    rollouts = Lineup(np.empty(n, np.int64), np.empty((n, lineup.params.shape[1])), lineup.defaults)
    quiet = Events(np.zeros((0, C.EV_COLS), np.int32), False, np.zeros((len(SEAT_COLUMNS), n), np.int32),
                   np.zeros(1, np.int32), 0, 0, np.zeros((0, 0)))
    return Work(new_play(n, n_tiles, st.master.shape[0]), np.zeros((MAX_CANDIDATES, PLAN_SIZE), np.int64),
                np.zeros(n_tiles, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), rollouts, quiet,
                plan_arrays())


@block(_nrt=False)
def _deal_tiles(pl, me, key, bonus_effect, tiles, held):
    """The bonus tiles `me` has not seen (the pile and the others' held tiles) shuffled and dealt again."""
    n, n_tiles, top = pl.hands.shape[0], pl.bonus_order.shape[0], pl.pool[BONUS_TOP]
    for s in range(n):
        held[s] = 0
    tiles[:] = 0
    for t in range(top, n_tiles):
        tiles[pl.bonus_order[t]] = 1
    for s in range(n):
        for t in range(n_tiles):
            if s != me and pl.tiles_held[s, t]:
                pl.tiles_held[s, t] = False
                tiles[t] = 1
                held[s] += 1
    m = 0
    for t in range(n_tiles):  # in tile order: which are unseen is known, where each of them is not
        if tiles[t]:
            tiles[m] = t
            m += 1
    shuffle(tiles, m, key, pl.draw_turn, pl.drawn, C.TILE_DRAWS)
    for s in range(n):
        for c in range(m):
            if held[s] > 0 and tiles[c] >= 0 and bonus_effect[tiles[c]] != C.JOKERS:
                pl.tiles_held[s, tiles[c]] = True
                tiles[c] = -1
                held[s] -= 1
    for c in range(m):
        if tiles[c] >= 0:
            pl.bonus_order[top] = tiles[c]
            top += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _shuffle_under(a, top, key, draw_turn, drawn, stream):
    """Shuffle an open pile's cards below its top card that were never on top (a[top + 1:]), from their sorted
    order (which is known; sorted in place by insertion, a dozen cards at most)."""
    n = a.shape[0]
    if top + 1 < n:
        for i in range(top + 2, n):
            card, j = a[i], i - 1
            while j > top and a[j] > card:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = card
        shuffle(a[top + 1:], n - top - 1, key, draw_turn, drawn, stream)


@block(python_entry=True, _nrt=False)
def candidates(at):
    """The main actions the seat may take now (its free actions played) into at.work.cand: every build it can
    pay, then drawing two. Returns how many."""
    st, setup, me, cand, wk = at.st, at.setup, at.me, at.work.cand, at.wk
    rules, builds = setup.rules, wk.builds
    tn = turn_of(st, me, wk.tile_of, setup.cards.bonus_effect)
    jokers = st.jokers[me]
    central_jokers = jokers if rules.central_jokers else 0
    central_need = tn.master_need if rules.central_master_builder else 0
    n = legal_builds(builds, st, setup.bd, rules.central_price, tn,
                     Means(st.hands[me], jokers, jokers, True, central_jokers, central_need, -1), wk.paid)
    n = min(n, MAX_CANDIDATES - 1)
    for c in range(n + 1):
        for f in range(4):
            cand[c, PL_PIECE + f] = builds[c, f] if c < n else -1  # the last: drawing two
        cand[c, PL_SPEND] = central_jokers if c < n and builds[c, CASTLE] == C.CENTRAL else jokers
    return n + 1


@block(_nrt=False)
def base_choice(at, k):
    """The index among the k candidates of the main action the base policy would take here (-1: none of them),
    found on the rollouts' copy of the play with the play's draws (read, not used up)."""
    sim, me, cand, wk, base = at.work.sim, at.me, at.work.cand, at.wk, at.work.rollouts
    copy_play(at.st, sim)
    tn = turn_of(sim, me, wk.tile_of, at.setup.cards.bonus_effect)
    b, _ = choose_build(base.codes[me], base.params[me], sim, at.setup, tn, wk, at.key)
    if b < 0:
        return k - 1
    for c in range(k - 1):
        same = True
        for f in range(4):
            same = same and cand[c, PL_PIECE + f] == wk.builds[b, f]
        if same:
            return c
    return -1


@block(inline="always")
def copy_turn(at):
    """The real play into the rollouts' copy, its draws from here on the rollout's own key's, by turn."""
    sim = at.work.sim
    copy_play(at.st, sim)
    begin_draws(sim.draw_turn, sim.drawn, at.turn)


@block(python_entry=True, _nrt=False)
def determinize(at, key):
    """In the rollouts' copy, what the seat has not seen dealt again (the module's docstring), with draws keyed by
    `key` and the copy's draw turn and counts, each pile from the stream that shuffled it. The result depends only
    on what the seat has seen, the key and the draw counts (which copy_turn resets: begin_draws)."""
    pl, me, w = at.work.sim, at.me, at.work
    n, deck, hands = pl.hands.shape[0], pl.deck, pl.hands
    for s in range(n):
        if s != me:
            deck += hands[s]
    for s in range(n):
        if s != me:
            m = total_cards(hands[s])
            hands[s] = 0
            for _ in range(m):
                card = draw_card(pl, key)
                hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
    _deal_tiles(pl, me, key, at.setup.cards.bonus_effect, w.tiles, w.held)
    _shuffle_under(pl.master, pl.pool[MASTER_TOP], key, pl.draw_turn, pl.drawn, C.MASTER_DRAWS)
    _shuffle_under(pl.well_order, pl.pool[WELL_TOP], key, pl.draw_turn, pl.drawn, C.WELL_DRAWS)


@block(inline="always")
def play_candidate(at, c, key):
    """In the rollouts' copy, candidate c as the seat's main action, then every seat the base policy to the end
    or the horizon."""
    w = at.work
    play_turns(w.sim, at.wk, at.setup, w.rollouts, w.rollouts, key, Until(w.cand[c], True, at.horizon, -1), w.quiet,
               0)


@block(_nrt=False)
def rollout_value(at):
    """A rollout's worth to the seat: its win share by pieces placed, plus its margin over the best other seat as
    a fraction of a seat's pieces (below one win: it orders main actions that win or lose alike)."""
    supply, scores, me, pieces = at.work.sim.supply, at.work.scores, at.me, at.setup.bd.supply.sum()
    n = supply.shape[0]
    best_other = -pieces
    for s in range(n):
        scores[s] = pieces - supply[s].sum()
        if s != me:
            best_other = max(best_other, scores[s])
    return win_share(scores, me) + (scores[me] - best_other) / pieces


decide_turn = rollout_decider(candidates, base_choice, copy_turn, determinize, play_candidate, rollout_value)


@block(python_entry=True)
def search_turn(st, wk, setup, lineup, key, work):
    """The main action of the search seat to move (its free actions played): a row of work.cand (play.py's
    PL_*). Its parameters in `lineup`: budget, base policy, horizon (turns a rollout plays before it is scored by
    pieces placed; 0: to the end). The rollouts play the base policy at its defaults for every seat."""
    n, turn = st.hands.shape[0], st.sc[S_TURN]
    me = turn % n
    prm = lineup.params[me]
    base = int(prm[PARAMS.search.base])
    work.rollouts.codes[:] = base
    for s in range(n):
        work.rollouts.params[s] = lineup.defaults[base]
    at = Decision(st, wk, setup, me, key, turn, int(prm[PARAMS.search.horizon]), work)
    return work.cand[decide_turn(at, work.schedule, key, turn, int(prm[PARAMS.search.budget]))]


@block()
def free_actions(lineup):
    """The line-up that takes the seats' free actions: a search seat's base policy at its defaults."""
    free = Lineup(lineup.codes.copy(), lineup.params.copy(), lineup.defaults)
    for s in range(lineup.codes.shape[0]):
        if lineup.codes[s] == SEARCH:
            free.codes[s] = int(lineup.params[s, PARAMS.search.base])
            free.params[s] = lineup.defaults[free.codes[s]]
    return free


@block()
def simulate_search_plays(seed, first_play, n_plays, setup, lineup, sd, sd_offsets, ev, ev_offsets):
    """kernel.simulate_plays for line-ups with a search seat: `play_turns` plays the turns, stopping where a
    search seat is to choose its main action (its free actions are its base policy's); search_turn chooses it,
    one turn plays it, and the play goes on. The same arguments and outputs."""
    n_seats = lineup.codes.shape[0]
    out = new_outputs(n_plays, n_seats)
    st = new_play(n_seats, setup.cards.bonus_effect.shape[0], setup.cards.master_builders.shape[0])
    wk, free = new_work(DEFAULT_WEIGHTS), free_actions(lineup)
    work = new_search_work(st, lineup)
    to_a_search_seat = Until(np.full(PLAN_SIZE, -1, np.int64), False, 0, SEARCH)
    standing = new_standing(setup, n_seats)
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        events, row = play_events(out, i, play, ev, ev_offsets, standing)
        row = begin_play(out, st, setup, wk.rec, key, events, row)
        while True:  # the scripted seats' turns; a search seat's turn chosen, then played
            row = play_turns(st, wk, setup, lineup, free, key, to_a_search_seat, events, row)
            if st.sc[S_REASON] >= 0:
                break
            plan = search_turn(st, wk, setup, lineup, key, work)
            row = play_turns(st, wk, setup, lineup, free, key, Until(plan, True, 1, -1), events, row)
        write_outputs(out, i, st, setup.bd, standing)
        keep_standing(sd, sd_offsets, i, standing, out[0][i])  # out[0]: the turns
    return out


@block()
def rollout_bench(seed, first_play, n_plays, setup, lineup):
    """For `make bench`: from each play's deal, what a search's rollout does (copy the play, determinize for
    seat 0, play on with the seats' policies to the end) through the decider's blocks. Returns the turns
    played."""
    n = lineup.codes.shape[0]
    st = new_play(n, setup.cards.bonus_effect.shape[0], setup.cards.master_builders.shape[0])
    wk, work = new_work(DEFAULT_WEIGHTS), new_search_work(st, lineup)
    at = Decision(st, wk, setup, 0, np.uint64(0), 0, 0, work)
    to_the_end = Until(work.cand[0], False, 0, -1)
    turns = 0
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        start_play(st, setup, wk.rec, key, work.quiet, 0)
        rollout = rollout_key(key, 0, 0)
        copy_turn(at)
        determinize(at, rollout)
        play_turns(work.sim, wk, setup, lineup, lineup, rollout, to_the_end, work.quiet, 0)
        turns += work.sim.sc[S_TURN]
    return turns
