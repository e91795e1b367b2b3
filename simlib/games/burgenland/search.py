"""Burgenland's search policy: each turn's main action scored by rollouts (simlib/core/search.py), the best played.

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
from ...core.rng import play_key
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
from . import constants as C
from . import outputs as O
from .decisions import CASTLE, DEFAULT_WEIGHTS, choose_build, legal_builds
from .kernel import begin_play, new_outputs, write_outputs
from .play import (
    PL_PIECE,
    PL_SPEND,
    PLAN_SIZE,
    held_tiles,
    play_turns,
    start_play,
)
from .policies import BASE, BUDGET, HORIZON, SEARCH
from .rules import BONUS_TOP, MASTER_TOP, WELL_TOP, begin_draws, draw_card, marker_castle, shuffle, total_cards
from .state import S_REASON, S_TURN, Play, copy_play, new_play, new_work

TIE_ROLLOUT = 1 << 40  # the rollout index whose key breaks ties among equally good candidates
SWITCH_Z = 1.0  # standard errors by which a turn must beat the base policy's own to replace it


class Search(NamedTuple):
    """A search's work space: the rollouts' copy of the play, the candidates, and the outputs rollouts discard."""

    play: Play
    cand: np.ndarray      # [MAX_CANDIDATES, PLAN_SIZE] the candidate main actions (play.py's PL_*)
    tiles: np.ndarray     # the unseen bonus tiles
    held: np.ndarray      # [seats] bonus tiles held, per seat
    scores: np.ndarray    # [seats] pieces placed
    seat_out: np.ndarray  # a rollout's seat outputs (unused)
    n_events: np.ndarray
    no_ev: np.ndarray


@block()
def new_search(st):
    n, n_tiles = st.hands.shape[0], st.bonus_order.shape[0]
    return Search(new_play(n, n_tiles, st.master.shape[0]), np.zeros((MAX_CANDIDATES, PLAN_SIZE), np.int64),
                  np.zeros(n_tiles, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
                  np.zeros((len(O.SEAT_COLUMNS), n), np.int32), np.zeros(1, np.int32),
                  np.zeros((0, C.EV_COLS), np.int32))


@block()
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


@nb.njit(cache=True, inline="always")
def _shuffle_under(a, top, key, draw_turn, drawn, stream):
    """Shuffle an open pile's cards below its top card that were never on top (a[top + 1:]), from their sorted
    order (which is known)."""
    if top + 1 < a.shape[0]:
        under = a[top + 1:]
        under.sort()
        shuffle(under, under.shape[0], key, draw_turn, drawn, stream)


@block()
def determinize(pl, me, key, bonus_effect, tiles, held):
    """Re-sample what seat `me` has not seen (the module's docstring), with draws keyed by `key` and pl's draw turn
    and counts, each pile from the stream that shuffled it. The result depends only on what `me` has seen, the key
    and the draw counts (which the search resets: begin_draws)."""
    n, deck, hands = pl.hands.shape[0], pl.deck, pl.hands
    for s in range(n):
        if s != me:
            deck += hands[s]
    for s in range(n):
        if s != me:
            m = total_cards(hands[s])
            hands[s] = 0
            for _ in range(m):
                card = draw_card(deck, pl.discard, pl.pool, key, pl.draw_turn, pl.drawn)
                hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
    _deal_tiles(pl, me, key, bonus_effect, tiles, held)
    _shuffle_under(pl.master, pl.pool[MASTER_TOP], key, pl.draw_turn, pl.drawn, C.MASTER_DRAWS)
    _shuffle_under(pl.well_order, pl.pool[WELL_TOP], key, pl.draw_turn, pl.drawn, C.WELL_DRAWS)


@block()
def play_on(pl, wk, sw, bd, cards, rules, codes, prm, key, planned, plan, horizon):
    """A search's rollout: the play on from `pl` with the seats' scripted policies (`plan` first if `planned`)
    to its end, or `horizon` turns (0: no limit)."""
    play_turns(pl, wk, bd, cards, rules, codes, prm, codes, prm, key, planned, plan, horizon, -1, sw.no_ev, 0, False,
               sw.seat_out, sw.n_events, 0, 0)


@block()
def candidates(st, wk, sw, bd, cards, rules, me, base, base_prm, key):
    """The main actions `me` may take now (its free actions played) into sw.cand: every build it can pay, then
    drawing two. Returns (how many, the base policy's own: the incumbent, found on a copy of the play with its
    draws read, not used up)."""
    builds, tile_of, cand, pl = wk.builds, wk.tile_of, sw.cand, sw.play
    held_tiles(tile_of, st.tiles_held[me], cards.bonus_effect)
    marker = marker_castle(st.well_order, st.pool)
    master_need = st.master[st.pool[MASTER_TOP] % st.master.shape[0]]
    jokers = st.jokers[me]
    central_jokers = jokers if rules.central_jokers else 0
    central_need = master_need if rules.central_master_builder else 0
    n = legal_builds(builds, st.supply[me], st.counts, st.spot_piece, st.n_spots, st.stones, bd, marker, tile_of,
                     st.hands[me], jokers, jokers, master_need, True, rules.central_price, central_jokers,
                     central_need, -1, wk.paid)
    n = min(n, MAX_CANDIDATES - 1)
    for c in range(n + 1):
        for f in range(4):
            cand[c, PL_PIECE + f] = builds[c, f] if c < n else -1  # the last: drawing two
        cand[c, PL_SPEND] = central_jokers if c < n and builds[c, CASTLE] == C.CENTRAL else jokers
    copy_play(st, pl)
    k, _ = choose_build(base, base_prm, pl.waiting, me, builds, pl.supply[me], pl.counts, pl.spot_piece, pl.n_spots,
                        pl.stones, bd, marker, tile_of, pl.hands[me], jokers, master_need, rules, pl.pool,
                        wk.saver_weights, wk.paid, cards.bonus_effect, key, pl.draw_turn, pl.drawn)
    if k < 0:
        return n + 1, n
    for c in range(n):
        same = True
        for f in range(4):
            same = same and cand[c, PL_PIECE + f] == builds[k, f]
        if same:
            return n + 1, c
    return n + 1, -1


@block()
def _value(supply, pieces, me, scores):
    """A rollout's worth to `me`: its win share by pieces placed, plus its margin over the best other seat as a
    fraction of a seat's pieces."""
    n = supply.shape[0]
    best_other = -pieces
    for s in range(n):
        scores[s] = pieces - supply[s].sum()
        if s != me:
            best_other = max(best_other, scores[s])
    return win_share(scores, me) + (scores[me] - best_other) / pieces


@block()
def search_turn(st, wk, sw, bd, cards, rules, prm, defaults, key, plan):
    """The main action of the search seat to move (its free actions played), into plan (play.py's PL_*).
    prm[seat]: budget, base policy code, horizon (turns a rollout plays before it is scored by pieces placed;
    0: to the end)."""
    n, turn = st.hands.shape[0], st.sc[S_TURN]
    me = turn % n
    base = int(prm[me, BASE])
    base_codes = np.full(n, base, np.int64)
    base_prm = np.empty((n, defaults.shape[1]))
    for s in range(n):
        base_prm[s] = defaults[base]
    k, incumbent = candidates(st, wk, sw, bd, cards, rules, me, base, base_prm[me], key)
    if k == 1:
        plan[:] = sw.cand[0]
        return
    pieces, horizon, pl = bd.supply.sum(), int(prm[me, HORIZON]), sw.play
    schedule, stats = plan_arrays()
    start_plan(k, int(prm[me, BUDGET]), incumbent, schedule, stats)
    while True:
        c = next_rollout(schedule, stats)
        if c < 0:
            break
        rkey = rollout_key(key, turn, int(stats[V_COUNT, c]))  # a candidate's j-th rollout: the same deal for all
        copy_play(st, pl)
        begin_draws(pl.draw_turn, pl.drawn, turn)  # the rollout's draws: its own key's, by turn from here on
        determinize(pl, me, rkey, cards.bonus_effect, sw.tiles, sw.held)
        play_on(pl, wk, sw, bd, cards, rules, base_codes, base_prm, rkey, True, sw.cand[c], horizon)
        record(schedule, stats, c, _value(pl.supply, pieces, me, sw.scores))
    plan[:] = sw.cand[best_candidate(schedule, stats, rollout_key(key, turn, TIE_ROLLOUT), SWITCH_Z)]


@block()
def simulate_search_plays(seed, first_play, n_plays, n_seats, codes, prm, defaults, bd, cards, rules, ev,
                          ev_offsets):
    """kernel.simulate_plays for line-ups with a search seat: `play_turns` plays the turns, stopping where a
    search seat is to choose its main action (its free actions are its base policy's, with `defaults` [policy
    code, parameter]); search_turn chooses it, one turn plays it, and the play goes on. The same arguments and
    outputs."""
    out = new_outputs(n_plays, n_seats)
    st = new_play(n_seats, cards.bonus_effect.shape[0], cards.master_builders.shape[0])
    wk = new_work(DEFAULT_WEIGHTS)
    plan = np.full(PLAN_SIZE, -1, np.int64)
    free_codes, free_prm = codes.copy(), prm.copy()  # a search seat's free actions are its base policy's
    for s in range(n_seats):
        if codes[s] == SEARCH:
            free_codes[s] = int(prm[s, BASE])
            free_prm[s] = defaults[free_codes[s]]
    sw = new_search(st)
    record = ev_offsets.shape[0] > 0
    n_events, seats = out[8], out[9]
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        row = begin_play(out, i, st, bd, cards, rules, wk.rec, key, play, ev, ev_offsets)
        while True:  # the scripted seats' turns; a search seat's turn chosen, then played
            row = play_turns(st, wk, bd, cards, rules, codes, prm, free_codes, free_prm, key, False, plan, 0, SEARCH,
                             ev, row, record, seats[i], n_events, i, play)
            if st.sc[S_REASON] >= 0:
                break
            search_turn(st, wk, sw, bd, cards, rules, prm, defaults, key, plan)
            row = play_turns(st, wk, bd, cards, rules, codes, prm, free_codes, free_prm, key, True, plan, 1, -1, ev,
                             row, record, seats[i], n_events, i, play)
        write_outputs(out, i, st, bd)
    return out


@block()
def rollout_bench(seed, first_play, n_plays, codes, prm, bd, cards, rules):
    """For `make bench`: from each play's deal, what a search's rollout does (copy the play, determinize for
    seat 0, play on with the seats' policies to the end). Returns the turns played."""
    n = codes.shape[0]
    st = new_play(n, cards.bonus_effect.shape[0], cards.master_builders.shape[0])
    wk, sw = new_work(DEFAULT_WEIGHTS), new_search(st)
    pl, plan = sw.play, np.full(PLAN_SIZE, -1, np.int64)
    turns = 0
    for i in range(n_plays):
        key = play_key(seed, first_play + i)
        start_play(st, bd, cards, rules, wk.rec, key, 0, sw.no_ev, 0, False, sw.seat_out, sw.n_events, 0)
        rkey = rollout_key(key, 0, 0)
        copy_play(st, pl)
        begin_draws(pl.draw_turn, pl.drawn, 0)
        determinize(pl, 0, rkey, cards.bonus_effect, sw.tiles, sw.held)
        play_on(pl, wk, sw, bd, cards, rules, codes, prm, rkey, False, plan, 0)
        turns += pl.sc[S_TURN]
    return turns
