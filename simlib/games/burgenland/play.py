"""The blocks a play of Burgenland is made of: `set_up` and `deal` (`start_play`), per turn the free actions
(`do_swap`, `exchange`) and the main action (`build` with `reward`, or `draw_two`); every action fills one
event row (`rec`), from which `account` adds up the seats' outputs (`emit`, into an Events). `play_turns` plays
turns from any state until the play ends, a number of turns, or a seat of a given policy is to choose its main
action (an Until): the kernel's plays (kernel.py) and a search's rollouts (search.py) are the same call.

Every draw is keyed by (seed, play, turn, stream, its rank among the stream's draws in the turn; constants.py's
streams), so results do not depend on which plays share a batch, and two variants of a play draw the same numbers
for the same purpose turn after turn (the set-up is turn -1; each turn's draws begin in `play_turns`). The blocks
take the play (state.Play), the run's Setup and the Turn; they are inlined (inline="always") and, like the
decisions, run without reference counts (_nrt=False): an array taken out of a NamedTuple then costs nothing.
What a seat's policy chooses is asked of decisions.py; the blocks carry out the rules.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from . import constants as C
from . import state as O
from .builds import exchange_helps, payment
from .decisions import choose_build, choose_swap, exchanges
from .rules import (
    BONUS_TOP,
    CENTRAL_BUILT,
    JOKER_PILE,
    MASTER_TOP,
    RESHUFFLES,
    SWAP_SUPPLY,
    SWAPS_USED,
    TILES_USED,
    WELLS_BUILT,
    begin_draws,
    draw_card,
    draw_until,
    marker_castle,
    pay,
    shuffle,
    skip_built_wells,
    take_jokers,
    total_cards,
)
from .state import S_IDLE, S_PENDING, S_REASON, S_TURN, S_WINNER, Turn

# A plan: a turn's main action chosen for a seat (a search's), which play_turns plays in place of the seat's
# policy: the build (builds.py's row; piece -1: draw two) and the jokers it may spend.
PL_PIECE, PL_CASTLE, PL_SPOT, PL_TILE, PL_SPEND = range(5)
PLAN_SIZE = 5


class Until(NamedTuple):
    """Where play_turns stops before the play's end, and the main action it is told to play."""

    plan: np.ndarray  # [PLAN_SIZE] the main action played in place of the first turn's policy (if planned)
    planned: bool
    limit: int        # turns played (0: no limit)
    stop_code: int    # stop where a seat of this policy is to choose its main action (-1: none)


@nb.njit(cache=True, _nrt=False, inline="always")
def new_row(rec, action, play, turn, s, pool):
    rec[:] = -1
    rec[C.EV_ACTION], rec[C.EV_PLAY], rec[C.EV_TURN], rec[C.EV_SEAT] = action, play, turn, s
    for k in (C.EV_MASTER, C.EV_WELL_REWARD, C.EV_JOKERS_PAID, C.EV_WALL_JOKERS, C.EV_JOKERS_GAINED,
              C.EV_SWAP_GAINED):
        rec[k] = 0
    rec[C.EV_RESHUFFLES] = pool[RESHUFFLES]  # until `close_row`: the count before the action


@nb.njit(cache=True, _nrt=False, inline="always")
def close_row(rec, pool, deck):
    rec[C.EV_DECK_LEFT] = total_cards(deck)
    rec[C.EV_RESHUFFLES] = pool[RESHUFFLES] - rec[C.EV_RESHUFFLES]


@nb.njit(cache=True, _nrt=False, inline="always")
def note_paid(rec, paid):
    k = C.EV_PAID
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            for _ in range(paid[c, v]):
                if k == C.EV_GAINED:
                    raise AssertionError("more cards paid than the event row holds")
                rec[k] = c * C.MAX_COINS + v
                k += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def account(rec, seat_out, s, bonus_effect):
    """The seat's outputs from one event row."""
    action = rec[C.EV_ACTION]
    gained, coins = 0, 0
    for k in range(C.GAINED_SLOTS):
        gained += rec[C.EV_GAINED + k] >= 0
    for k in range(C.PAID_SLOTS):
        if rec[C.EV_PAID + k] >= 0:
            coins += rec[C.EV_PAID + k] % C.MAX_COINS + 1
    if action == C.DEAL:
        seat_out[O.START_CARDS, s] += gained
    elif action == C.DRAW:
        seat_out[O.DRAWS, s] += 1
        seat_out[O.CARDS_DRAWN, s] += gained
    elif action == C.SWAP:
        seat_out[O.SWAPS_PLAYED, s] += 1
        seat_out[O.TILES_PLAYED, s] += rec[C.EV_TILE] >= 0
    elif action == C.EXCHANGE:
        seat_out[O.JOKERS_EXCHANGED, s] += rec[C.EV_JOKERS_GAINED]
    else:
        seat_out[O.BUILDS, s] += 1
        seat_out[O.CARDS_REWARDED, s] += gained
        seat_out[O.COINS_PAID, s] += coins
        seat_out[O.JOKERS_USED, s] += rec[C.EV_JOKERS_PAID]
        seat_out[O.JOKERS_WALLS, s] += rec[C.EV_WALL_JOKERS]
        bonus = rec[C.EV_SPOT_BONUS]
        seat_out[O.SPOT_BONUSES, s] += bonus >= 0
        seat_out[O.JOKERS_SPOTS if bonus == C.SPOT_JOKER else O.JOKERS_TILES, s] += rec[C.EV_JOKERS_GAINED]
        seat_out[O.SWAPS_TAKEN, s] += rec[C.EV_SWAP_GAINED]
        taken = rec[C.EV_TILE_GAINED]
        seat_out[O.TILES_TAKEN, s] += taken >= 0
        seat_out[O.TILES_PLAYED, s] += (rec[C.EV_TILE] >= 0) + (taken >= 0 and bonus_effect[taken] == C.JOKERS)
        seat_out[O.WELLS_BUILT_SEAT, s] += rec[C.EV_PIECE] == C.WELL
        seat_out[O.WELL_COINS, s] += rec[C.EV_WELL_REWARD]
        seat_out[O.CENTRAL_BUILT_SEAT, s] += rec[C.EV_CASTLE] == C.CENTRAL


@nb.njit(cache=True, _nrt=False, inline="always")
def emit(rec, events, row, s, bonus_effect):
    """Account for the action's row and store it (runs with events). Returns the next free row."""
    account(rec, events.seat_out, s, bonus_effect)
    events.n_events[events.i] += 1
    if events.record:
        for k in range(C.EV_COLS):
            events.ev[row, k] = rec[k]
        return row + 1
    return row


@nb.njit(cache=True, _nrt=False, inline="always")
def set_up(st, setup, key):
    """Stones, master builders, well cards and bonus tiles shuffled (the set-up's draws, turn -1); the piles
    full; pieces handed out and pre-placed; the marker on the first castle without a well."""
    bd, cards, draw_turn, drawn, counts = setup.bd, setup.cards, st.draw_turn, st.drawn, st.counts
    begin_draws(draw_turn, drawn, -1)
    for p in range(C.N_POSITIONS):
        st.stones[p] = p
    shuffle(st.stones, C.N_POSITIONS, key, draw_turn, drawn, C.STONE_DRAWS)
    for k in range(st.master.shape[0]):  # element by element: a slice's copy may allocate
        st.master[k] = cards.master_builders[k]
    shuffle(st.master, st.master.shape[0], key, draw_turn, drawn, C.MASTER_DRAWS)
    for c in range(C.N_CASTLES):
        st.well_order[c] = c
    shuffle(st.well_order, C.N_CASTLES, key, draw_turn, drawn, C.WELL_DRAWS)
    for t in range(st.bonus_order.shape[0]):
        st.bonus_order[t] = t
    shuffle(st.bonus_order, st.bonus_order.shape[0], key, draw_turn, drawn, C.TILE_DRAWS)
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            st.deck[c, v] = cards.cards[v]
    st.discard[:] = 0
    st.hands[:] = 0
    st.jokers[:] = 0
    st.pool[:] = 0
    st.pool[JOKER_PILE], st.pool[SWAP_SUPPLY] = cards.jokers, cards.swap_tiles
    counts[:] = 0
    st.spot_piece[:] = -1
    st.n_spots[:] = C.SQUARE_SPOTS
    for c in range(C.N_CASTLES):
        for spot in range(C.SQUARE_SPOTS + 1):
            piece = bd.preplaced[c, spot]
            if piece >= 0:
                counts[c, piece] += 1
                if spot < C.SQUARE_SPOTS:
                    st.spot_piece[c, spot] = piece
    skip_built_wells(st.well_order, counts, st.pool)
    for s in range(st.supply.shape[0]):
        for piece in range(4):
            st.supply[s, piece] = bd.supply[piece]
    st.swaps_held[:] = 0
    st.tiles_held[:] = False
    st.waiting[:] = 0


@nb.njit(cache=True, _nrt=False, inline="always")
def deal(rec, s, st, rules, key):
    """Seat s's starting hand: 4 colour cards (staggered: 4 + s) and a joker."""
    hand_size = 4 + (s if rules.start_hands == C.STAGGERED else 0)
    for g in range(hand_size):
        card = draw_card(st, key)
        if card < 0:
            break
        st.hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
        rec[C.EV_GAINED + g] = card
    rec[C.EV_JOKERS_GAINED] = take_jokers(st.jokers, s, st.pool, 1)


@nb.njit(cache=True, _nrt=False, inline="always")
def held_tiles(tile_of, tiles_held_s, bonus_effect):
    """tile_of[effect]: a bonus tile with that effect the seat holds (-1 none)."""
    tile_of[:] = -1
    for t in range(tiles_held_s.shape[0]):
        if tiles_held_s[t] and tile_of[bonus_effect[t]] < 0:
            tile_of[bonus_effect[t]] = t


@nb.njit(cache=True, _nrt=False, inline="always")
def turn_of(st, s, tile_of, bonus_effect):
    """Seat s's Turn: what the turn's start shows (the held bonus tiles into tile_of)."""
    held_tiles(tile_of, st.tiles_held[s], bonus_effect)
    return Turn(s, marker_castle(st.well_order, st.pool), st.master[st.pool[MASTER_TOP] % st.master.shape[0]],
                tile_of)


@nb.njit(cache=True, _nrt=False, inline="always")
def do_swap(rec, a, b, st, turn, rules):
    """Swap the stones on positions a and b with a swap tile (or, holding none, a swap bonus tile)."""
    s, stones, pool, tile_of = turn.s, st.stones, st.pool, turn.tile_of
    stones[a], stones[b] = stones[b], stones[a]
    rec[C.EV_POS_A], rec[C.EV_POS_B] = a, b
    if st.swaps_held[s] > 0:
        st.swaps_held[s] -= 1
        if rules.swap_return:
            pool[SWAP_SUPPLY] += 1
    else:
        t = tile_of[C.SWAP_TILE]
        st.tiles_held[s, t] = False
        tile_of[C.SWAP_TILE] = -1
        rec[C.EV_TILE] = t
        pool[TILES_USED] += 1
    pool[SWAPS_USED] += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def exchange(rec, st, s, paid):
    """Pay the cards in `paid` for a joker."""
    pay(st.hands[s], st.jokers, s, paid, 0, st.discard, st.pool)
    note_paid(rec, paid)
    rec[C.EV_JOKERS_GAINED] = take_jokers(st.jokers, s, st.pool, 1)


@block(_nrt=False)
def reward(rec, piece, castle, spot, s, st, setup, key):
    """What a small-castle build earns: jokers for the castle's walls (a wall), the well's coins (a well),
    the spot's bonus (a square spot)."""
    g, pool, jokers, bd, cards = C.EV_GAINED, st.pool, st.jokers, setup.bd, setup.cards
    if piece == C.WALL:
        rec[C.EV_WALL_JOKERS] = take_jokers(jokers, s, pool, st.counts[castle, C.WALL])
    if piece == C.WELL:
        value = C.WELL_REWARDS[pool[WELLS_BUILT] - 1]
        rec[C.EV_WELL_REWARD] = value
        draw_until(st, s, value, key, rec, g)
        return
    if spot >= C.SQUARE_SPOTS:
        return
    kind = bd.spot_kind[castle, spot]
    rec[C.EV_SPOT_BONUS] = kind
    if kind == C.SPOT_JOKER:
        rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, 1)
    elif kind == C.SPOT_COINS:
        draw_until(st, s, bd.spot_value[castle, spot], key, rec, g)
    elif kind == C.SPOT_SWAP:
        if pool[SWAP_SUPPLY] > 0:
            pool[SWAP_SUPPLY] -= 1
            st.swaps_held[s] += 1
            rec[C.EV_SWAP_GAINED] = 1
    elif pool[BONUS_TOP] < st.bonus_order.shape[0]:
        t = st.bonus_order[pool[BONUS_TOP]]
        pool[BONUS_TOP] += 1
        rec[C.EV_TILE_GAINED] = t
        if cards.bonus_effect[t] == C.JOKERS:  # used at once
            rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, cards.bonus_value[t])
            pool[TILES_USED] += 1
        else:
            st.tiles_held[s, t] = True


@nb.njit(cache=True, _nrt=False, inline="always")
def build(rec, b, spend, s, st, setup, paid, key):
    """Pay for and place build b (a row of legal_builds), spending at most `spend` jokers; then its reward,
    unless it was the seat's last piece. Returns True if it was."""
    piece, castle, spot, tile = b[0], b[1], b[2], b[3]
    stones, master, pool, counts, supply, rules = st.stones, st.master, st.pool, st.counts, st.supply, setup.rules
    master_need = master[pool[MASTER_TOP] % master.shape[0]]
    j = payment(b, st.hands[s], spend, stones, setup, master_need, paid)
    if j < 0:
        raise AssertionError("build: a legal build the hand cannot pay")
    pay(st.hands[s], st.jokers, s, paid, j, st.discard, pool)
    note_paid(rec, paid)
    rec[C.EV_PIECE], rec[C.EV_CASTLE], rec[C.EV_SPOT], rec[C.EV_TILE], rec[C.EV_JOKERS_PAID] = piece, castle, spot, \
        tile, j
    if castle < C.CENTRAL:
        bd_stones = setup.bd.stones
        rec[C.EV_COLOUR_A], rec[C.EV_COLOUR_B] = stones[bd_stones[castle, 0]], stones[bd_stones[castle, 1]]
    free = tile >= 0 and setup.cards.bonus_effect[tile] == C.FREE_MASTER
    if piece == C.PALAS and not free and (castle < C.CENTRAL or rules.central_master_builder):
        rec[C.EV_MASTER] = master_need
        pool[MASTER_TOP] += 1  # the card goes under its pile
    if tile >= 0:
        st.tiles_held[s, tile] = False
        pool[TILES_USED] += 1
    supply[s, piece] -= 1
    counts[castle, piece] += 1
    if castle == C.CENTRAL:
        pool[CENTRAL_BUILT] += 1
        return supply[s].sum() == 0
    if piece == C.WELL:
        pool[WELLS_BUILT] += 1
        skip_built_wells(st.well_order, counts, pool)
    else:
        st.spot_piece[castle, spot] = piece
        if spot == st.n_spots[castle]:
            st.n_spots[castle] += 1
    if supply[s].sum() == 0:
        return True
    reward(rec, piece, castle, spot, s, st, setup, key)
    return False


@nb.njit(cache=True, _nrt=False, inline="always")
def draw_two(rec, s, st, key):
    for g in range(2):
        card = draw_card(st, key)
        if card < 0:
            break
        st.hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
        rec[C.EV_GAINED + g] = card


@block(_nrt=False)
def start_play(st, setup, rec, key, events, row):
    """A play set up and dealt (`set_up`, then each seat's `deal`), no turn played. Returns the next event row."""
    set_up(st, setup, key)
    for s in range(st.hands.shape[0]):
        new_row(rec, C.DEAL, events.play, -1, s, st.pool)
        deal(rec, s, st, setup.rules, key)
        close_row(rec, st.pool, st.deck)
        row = emit(rec, events, row, s, setup.cards.bonus_effect)
    st.sc[:] = 0
    st.sc[S_REASON], st.sc[S_WINNER] = -1, -1
    return row


@block(_nrt=False)
def play_turns(st, wk, setup, lineup, free, key, until, events, row):
    """Turns from the state on until the play ends or `until` says (Until), the seats playing `lineup`'s
    policies; the turn's free actions are those of `free`'s (a search seat's base policy). A stop where a seat is
    to choose its main action plays the turn's free actions, and the next call goes on from there. The main
    action is until.plan if until.planned (once), else the seat's policy's. Writes the actions to `events` from
    `row`; returns the next row.

    The free actions stay in the loop: as a block of their own they made random plays 15-30% slower (when its
    arrays were passed one by one), hence the stop between them and the main action."""
    bonus_effect, rules, rec, builds, paid, sc = setup.cards.bonus_effect, setup.rules, wk.rec, wk.builds, wk.paid, \
        st.sc
    pool, deck, hands = st.pool, st.deck, st.hands
    n_seats, plan, planned, play = hands.shape[0], until.plan, until.planned, events.play
    turn, idle, reason, winner, pending = sc[S_TURN], sc[S_IDLE], sc[S_REASON], sc[S_WINNER], sc[S_PENDING] != 0
    stop = turn + until.limit if until.limit > 0 else 1 << 62
    while reason < 0 and turn < stop:
        s = turn % n_seats
        code, p = lineup.codes[s], lineup.params[s]
        tn = turn_of(st, s, wk.tile_of, bonus_effect)
        # free actions: a swap, holding a swap tile; an exchange, if the rules allow one and a joker is left.
        # The turn's draws begin with them (not again when a stopped turn goes on to its main action).
        if not pending:
            begin_draws(st.draw_turn, st.drawn, turn)
            free_code, fp = free.codes[s], free.params[s]
            if st.swaps_held[s] > 0 or tn.tile_of[C.SWAP_TILE] >= 0:
                a, b = choose_swap(free_code, fp, st, setup, tn, wk, key)
                if a >= 0:
                    new_row(rec, C.SWAP, play, turn, s, pool)
                    do_swap(rec, a, b, st, tn, rules)
                    close_row(rec, pool, deck)
                    row = emit(rec, events, row, s, bonus_effect)
            if rules.joker_exchange > 0 and pool[JOKER_PILE] > 0 and exchanges(free_code) and exchange_helps(
                    rules.joker_exchange, st, setup.bd, rules.central_price, tn, wk):
                new_row(rec, C.EXCHANGE, play, turn, s, pool)
                exchange(rec, st, s, paid)
                close_row(rec, pool, deck)
                row = emit(rec, events, row, s, bonus_effect)
        pending = False
        if code == until.stop_code and not planned:
            pending = True
            break
        # the main action: a build, or drawing two cards
        if planned:
            for f in range(4):
                builds[0, f] = plan[PL_PIECE + f]
            k, spend = (0 if plan[PL_PIECE] >= 0 else -1), plan[PL_SPEND]
            st.waiting[s] = 0 if k == 0 and plan[PL_CASTLE] < C.CENTRAL else st.waiting[s] + 1  # as the builder
            planned = False
        else:
            k, spend = choose_build(code, p, st, setup, tn, wk, key)
        done = False
        if k >= 0:
            new_row(rec, C.BUILD, play, turn, s, pool)
            done = build(rec, builds[k], spend, s, st, setup, paid, key)
            idle = 0
        else:
            new_row(rec, C.DRAW, play, turn, s, pool)
            draw_two(rec, s, st, key)
            idle = idle + 1 if rec[C.EV_GAINED] < 0 else 0
        close_row(rec, pool, deck)
        row = emit(rec, events, row, s, bonus_effect)
        turn += 1
        if done:
            reason, winner = C.LAST_PIECE, s
        elif idle >= 10 * n_seats:
            reason = C.STALLED
        elif turn >= rules.max_turns:
            reason = C.TURN_LIMIT
        if events.standing.shape[0] > 0:
            for q in range(n_seats):
                events.standing[turn - 1, q] = setup.bd.supply.sum() - st.supply[q].sum()
    sc[S_TURN], sc[S_IDLE], sc[S_REASON], sc[S_WINNER], sc[S_PENDING] = turn, idle, reason, winner, pending
    return row
