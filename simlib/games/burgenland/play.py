"""The blocks a play of Burgenland is made of: `set_up` and `deal` (`start_play`), per turn the free actions
(`do_swap`, `exchange`) and the main action (`build` with `reward`, or `draw_two`); every action fills one
event row (`rec`), from which `account` adds up the seats' outputs (`emit`). `play_turns` plays turns from any
state until the play ends, a number of turns, or a seat of a given policy is to choose its main action: the
kernel's plays (kernel.py) and a search's rollouts (search.py) are the same call.

Every draw is keyed by (seed, play, turn, stream, its rank among the stream's draws in the turn; constants.py's
streams), so results do not depend on which plays share a batch, and two variants of a play draw the same numbers
for the same purpose turn after turn (the set-up is turn -1; each turn's draws begin in `play_turns`). The blocks
are inlined (inline="always"): passing twenty arrays a turn to called blocks made plays 20-30% slower. What a
seat's policy chooses is asked of decisions.py; the blocks carry out the rules.
"""

import numba as nb

from ...core.blocks import block
from . import constants as C
from . import outputs as O
from .decisions import (
    choose_build,
    choose_swap,
    exchange_helps,
    exchanges,
    payment,
)
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
from .state import S_IDLE, S_PENDING, S_REASON, S_TURN, S_WINNER

# A plan: a turn's main action chosen for a seat (a search's), which play_turns plays in place of the seat's
# policy: the build (decisions.py's row; piece -1: draw two) and the jokers it may spend.
PL_PIECE, PL_CASTLE, PL_SPOT, PL_TILE, PL_SPEND = range(5)
PLAN_SIZE = 5


@nb.njit(cache=True, inline="always")
def new_row(rec, action, play, turn, s, pool):
    rec[:] = -1
    rec[C.EV_ACTION], rec[C.EV_PLAY], rec[C.EV_TURN], rec[C.EV_SEAT] = action, play, turn, s
    for k in (C.EV_MASTER, C.EV_WELL_REWARD, C.EV_JOKERS_PAID, C.EV_WALL_JOKERS, C.EV_JOKERS_GAINED,
              C.EV_SWAP_GAINED):
        rec[k] = 0
    rec[C.EV_RESHUFFLES] = pool[RESHUFFLES]  # until `close_row`: the count before the action


@nb.njit(cache=True, inline="always")
def close_row(rec, pool, deck):
    rec[C.EV_DECK_LEFT] = total_cards(deck)
    rec[C.EV_RESHUFFLES] = pool[RESHUFFLES] - rec[C.EV_RESHUFFLES]


@nb.njit(cache=True, inline="always")
def note_paid(rec, paid):
    k = C.EV_PAID
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            for _ in range(paid[c, v]):
                if k == C.EV_GAINED:
                    raise AssertionError("more cards paid than the event row holds")
                rec[k] = c * C.MAX_COINS + v
                k += 1


@nb.njit(cache=True, inline="always")
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


@nb.njit(cache=True, inline="always")
def emit(rec, ev, row, record, seat_out, s, n_events, i, bonus_effect):
    """Account for the action's row and store it (runs with events). Returns the next free row."""
    account(rec, seat_out, s, bonus_effect)
    n_events[i] += 1
    if record:
        for k in range(C.EV_COLS):
            ev[row, k] = rec[k]
        return row + 1
    return row


@nb.njit(cache=True, inline="always")
def set_up(bd, cards, stones, master, well_order, bonus_order, deck, discard, hands, jokers, pool, counts,
           spot_piece, n_spots, supply, swaps_held, tiles_held, waiting, key, draw_turn, drawn):
    """Stones, master builders, well cards and bonus tiles shuffled (the set-up's draws, turn -1); the piles
    full; pieces handed out and pre-placed; the marker on the first castle without a well."""
    begin_draws(draw_turn, drawn, -1)
    for p in range(C.N_POSITIONS):
        stones[p] = p
    shuffle(stones, C.N_POSITIONS, key, draw_turn, drawn, C.STONE_DRAWS)
    master[:] = cards.master_builders
    shuffle(master, master.shape[0], key, draw_turn, drawn, C.MASTER_DRAWS)
    for c in range(C.N_CASTLES):
        well_order[c] = c
    shuffle(well_order, C.N_CASTLES, key, draw_turn, drawn, C.WELL_DRAWS)
    for t in range(bonus_order.shape[0]):
        bonus_order[t] = t
    shuffle(bonus_order, bonus_order.shape[0], key, draw_turn, drawn, C.TILE_DRAWS)
    for c in range(C.N_COLOURS):
        deck[c, :] = cards.cards
    discard[:] = 0
    hands[:] = 0
    jokers[:] = 0
    pool[:] = 0
    pool[JOKER_PILE], pool[SWAP_SUPPLY] = cards.jokers, cards.swap_tiles
    counts[:] = 0
    spot_piece[:] = -1
    n_spots[:] = C.SQUARE_SPOTS
    for c in range(C.N_CASTLES):
        for spot in range(C.SQUARE_SPOTS + 1):
            piece = bd.preplaced[c, spot]
            if piece >= 0:
                counts[c, piece] += 1
                if spot < C.SQUARE_SPOTS:
                    spot_piece[c, spot] = piece
    skip_built_wells(well_order, counts, pool)
    for s in range(supply.shape[0]):
        supply[s, :] = bd.supply
    swaps_held[:] = 0
    tiles_held[:] = False
    waiting[:] = 0


@nb.njit(cache=True, inline="always")
def deal(rec, s, rules, hands, jokers, deck, discard, pool, key, draw_turn, drawn):
    """Seat s's starting hand: 4 colour cards (staggered: 4 + s) and a joker."""
    hand_size = 4 + (s if rules.start_hands == C.STAGGERED else 0)
    for g in range(hand_size):
        card = draw_card(deck, discard, pool, key, draw_turn, drawn)
        if card < 0:
            break
        hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
        rec[C.EV_GAINED + g] = card
    rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, 1)


@nb.njit(cache=True, inline="always")
def held_tiles(tile_of, tiles_held_s, bonus_effect):
    """tile_of[effect]: a bonus tile with that effect the seat holds (-1 none)."""
    tile_of[:] = -1
    for t in range(tiles_held_s.shape[0]):
        if tiles_held_s[t] and tile_of[bonus_effect[t]] < 0:
            tile_of[bonus_effect[t]] = t


@nb.njit(cache=True, inline="always")
def do_swap(rec, a, b, s, stones, swaps_held, tiles_held, tile_of, pool, rules):
    """Swap the stones on positions a and b with a swap tile (or, holding none, a swap bonus tile)."""
    stones[a], stones[b] = stones[b], stones[a]
    rec[C.EV_POS_A], rec[C.EV_POS_B] = a, b
    if swaps_held[s] > 0:
        swaps_held[s] -= 1
        if rules.swap_return:
            pool[SWAP_SUPPLY] += 1
    else:
        t = tile_of[C.SWAP_TILE]
        tiles_held[s, t] = False
        tile_of[C.SWAP_TILE] = -1
        rec[C.EV_TILE] = t
        pool[TILES_USED] += 1
    pool[SWAPS_USED] += 1


@nb.njit(cache=True, inline="always")
def exchange(rec, s, hand, jokers, paid, discard, pool):
    """Pay the cards in `paid` for a joker."""
    pay(hand, jokers, s, paid, 0, discard, pool)
    note_paid(rec, paid)
    rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, 1)


@block()
def reward(rec, piece, castle, spot, s, bd, cards, counts, hands, jokers, deck, discard, pool, tiles_held,
           bonus_order, swaps_held, key, draw_turn, drawn):
    """What a small-castle build earns: jokers for the castle's walls (a wall), the well's coins (a well),
    the spot's bonus (a square spot)."""
    g = C.EV_GAINED
    if piece == C.WALL:
        rec[C.EV_WALL_JOKERS] = take_jokers(jokers, s, pool, counts[castle, C.WALL])
    if piece == C.WELL:
        value = C.WELL_REWARDS[pool[WELLS_BUILT] - 1]
        rec[C.EV_WELL_REWARD] = value
        draw_until(hands[s], deck, discard, pool, value, key, draw_turn, drawn, rec, g)
        return
    if spot >= C.SQUARE_SPOTS:
        return
    kind = bd.spot_kind[castle, spot]
    rec[C.EV_SPOT_BONUS] = kind
    if kind == C.SPOT_JOKER:
        rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, 1)
    elif kind == C.SPOT_COINS:
        draw_until(hands[s], deck, discard, pool, bd.spot_value[castle, spot], key, draw_turn, drawn, rec, g)
    elif kind == C.SPOT_SWAP:
        if pool[SWAP_SUPPLY] > 0:
            pool[SWAP_SUPPLY] -= 1
            swaps_held[s] += 1
            rec[C.EV_SWAP_GAINED] = 1
    elif pool[BONUS_TOP] < bonus_order.shape[0]:
        t = bonus_order[pool[BONUS_TOP]]
        pool[BONUS_TOP] += 1
        rec[C.EV_TILE_GAINED] = t
        if cards.bonus_effect[t] == C.JOKERS:  # used at once
            rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, cards.bonus_value[t])
            pool[TILES_USED] += 1
        else:
            tiles_held[s, t] = True


@nb.njit(cache=True, inline="always")
def build(rec, b, spend, s, bd, cards, rules, stones, master, well_order, counts, spot_piece, n_spots, supply,
          hands, jokers, deck, discard, pool, tiles_held, bonus_order, swaps_held, paid, key, draw_turn, drawn):
    """Pay for and place build b (a row of legal_builds), spending at most `spend` jokers; then its reward,
    unless it was the seat's last piece. Returns True if it was."""
    piece, castle, spot, tile = b[0], b[1], b[2], b[3]
    master_need = master[pool[MASTER_TOP] % master.shape[0]]
    central_need = master_need if rules.central_master_builder else 0
    j = payment(b, hands[s], spend, stones, bd, master_need, rules.central_price, central_need, paid,
                cards.bonus_effect)
    if j < 0:
        raise AssertionError("build: a legal build the hand cannot pay")
    pay(hands[s], jokers, s, paid, j, discard, pool)
    note_paid(rec, paid)
    rec[C.EV_PIECE], rec[C.EV_CASTLE], rec[C.EV_SPOT], rec[C.EV_TILE], rec[C.EV_JOKERS_PAID] = piece, castle, spot, \
        tile, j
    if castle < C.CENTRAL:
        rec[C.EV_COLOUR_A], rec[C.EV_COLOUR_B] = stones[bd.stones[castle, 0]], stones[bd.stones[castle, 1]]
    free = tile >= 0 and cards.bonus_effect[tile] == C.FREE_MASTER
    if piece == C.PALAS and not free and (castle < C.CENTRAL or rules.central_master_builder):
        rec[C.EV_MASTER] = master_need
        pool[MASTER_TOP] += 1  # the card goes under its pile
    if tile >= 0:
        tiles_held[s, tile] = False
        pool[TILES_USED] += 1
    supply[s, piece] -= 1
    counts[castle, piece] += 1
    if castle == C.CENTRAL:
        pool[CENTRAL_BUILT] += 1
        return supply[s].sum() == 0
    if piece == C.WELL:
        pool[WELLS_BUILT] += 1
        skip_built_wells(well_order, counts, pool)
    else:
        spot_piece[castle, spot] = piece
        if spot == n_spots[castle]:
            n_spots[castle] += 1
    if supply[s].sum() == 0:
        return True
    reward(rec, piece, castle, spot, s, bd, cards, counts, hands, jokers, deck, discard, pool, tiles_held,
           bonus_order, swaps_held, key, draw_turn, drawn)
    return False


@nb.njit(cache=True, inline="always")
def draw_two(rec, s, hands, deck, discard, pool, key, draw_turn, drawn):
    for g in range(2):
        card = draw_card(deck, discard, pool, key, draw_turn, drawn)
        if card < 0:
            break
        hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
        rec[C.EV_GAINED + g] = card



@nb.njit(cache=True, inline="always")
def start_play(st, bd, cards, rules, rec, key, play, ev, row, record, seat_out, n_events, i):
    """A play set up and dealt (`set_up`, then each seat's `deal`), no turn played. Returns the next event row."""
    set_up(bd, cards, st.stones, st.master, st.well_order, st.bonus_order, st.deck, st.discard, st.hands, st.jokers,
           st.pool, st.counts, st.spot_piece, st.n_spots, st.supply, st.swaps_held, st.tiles_held, st.waiting, key,
           st.draw_turn, st.drawn)
    for s in range(st.hands.shape[0]):
        new_row(rec, C.DEAL, play, -1, s, st.pool)
        deal(rec, s, rules, st.hands, st.jokers, st.deck, st.discard, st.pool, key, st.draw_turn, st.drawn)
        close_row(rec, st.pool, st.deck)
        row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
    st.sc[:] = 0
    st.sc[S_REASON], st.sc[S_WINNER] = -1, -1
    return row


@block()
def play_turns(st, wk, bd, cards, rules, codes, prm, free_codes, free_prm, key, planned, plan, limit, stop_code, ev,
               row, record, seat_out, n_events, i, play):
    """Turns from the state on until the play ends, or `limit` turns are played (0: no limit), or a seat of
    policy `stop_code` is to choose its main action (-1: none; the turn's free actions are played, and the
    next call goes on from there). The main action is `plan` (PL_*) if `planned` (once), else the seat's
    policy's; free_codes[s] and free_prm[s] are the policy that takes seat s's free actions (a search seat's
    base policy). Writes event rows from `row` if `record`; returns the next row.

    The arrays are taken out of the tuples and the scalars held in locals once, not every turn (Mauerbruch's
    lesson: passes over the tuples were 1.7x slower); the turn's blocks are inlined as in the old kernel. The
    free actions stay in the loop: as a block of their own they made random plays 15-30% slower (called, or
    inlined with their arrays taken out of the tuples each turn: Python passes more than 30 arguments as
    *args, which Numba does not inline), hence the stop between them and the main action."""
    stones, master, well_order, bonus_order, deck, discard, hands, jokers, pool, counts, spot_piece, n_spots, \
        supply, swaps_held, tiles_held, waiting, draw_turn, drawn, sc = st
    rec, builds, paid, after, scratch, saver_weights, tile_of, castles_ok = wk
    n_seats = hands.shape[0]
    turn, idle, reason, winner, pending = sc[S_TURN], sc[S_IDLE], sc[S_REASON], sc[S_WINNER], sc[S_PENDING] != 0
    stop = turn + limit if limit > 0 else 1 << 62
    while reason < 0 and turn < stop:
        s = turn % n_seats
        code, p, hand = codes[s], prm[s], hands[s]
        held_tiles(tile_of, tiles_held[s], cards.bonus_effect)
        marker = marker_castle(well_order, pool)
        master_need = master[pool[MASTER_TOP] % master.shape[0]]
        # free actions: a swap, holding a swap tile; an exchange, if the rules allow one and a joker is left.
        # The turn's draws begin with them (not again when a stopped turn goes on to its main action).
        if not pending:
            begin_draws(draw_turn, drawn, turn)
            free, fp = free_codes[s], free_prm[s]
            if swaps_held[s] > 0 or tile_of[C.SWAP_TILE] >= 0:
                a, b = choose_swap(free, fp, swaps_held[s], tile_of, hand, jokers[s], supply[s], counts, spot_piece,
                                   n_spots, stones, bd, marker, master_need, rules.central_price, builds, paid,
                                   castles_ok, key, draw_turn, drawn)
                if a >= 0:
                    new_row(rec, C.SWAP, play, turn, s, pool)
                    do_swap(rec, a, b, s, stones, swaps_held, tiles_held, tile_of, pool, rules)
                    close_row(rec, pool, deck)
                    row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
            if rules.joker_exchange > 0 and pool[JOKER_PILE] > 0 and exchanges(free) and exchange_helps(
                    rules.joker_exchange, hand, jokers[s], supply[s], counts, spot_piece, n_spots, stones, bd, marker,
                    tile_of, master_need, rules.central_price, builds, paid, after, scratch):
                new_row(rec, C.EXCHANGE, play, turn, s, pool)
                exchange(rec, s, hand, jokers, paid, discard, pool)
                close_row(rec, pool, deck)
                row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
        pending = False
        if code == stop_code and not planned:
            pending = True
            break
        # the main action: a build, or drawing two cards
        if planned:
            for f in range(4):
                builds[0, f] = plan[PL_PIECE + f]
            k, spend = (0 if plan[PL_PIECE] >= 0 else -1), plan[PL_SPEND]
            waiting[s] = 0 if k == 0 and plan[PL_CASTLE] < C.CENTRAL else waiting[s] + 1  # as the builder counts
            planned = False
        else:
            k, spend = choose_build(code, p, waiting, s, builds, supply[s], counts, spot_piece, n_spots, stones, bd,
                                    marker, tile_of, hand, jokers[s], master_need, rules, pool, saver_weights, paid,
                                    cards.bonus_effect, key, draw_turn, drawn)
        done = False
        if k >= 0:
            new_row(rec, C.BUILD, play, turn, s, pool)
            done = build(rec, builds[k], spend, s, bd, cards, rules, stones, master, well_order, counts, spot_piece,
                         n_spots, supply, hands, jokers, deck, discard, pool, tiles_held, bonus_order, swaps_held,
                         paid, key, draw_turn, drawn)
            idle = 0
        else:
            new_row(rec, C.DRAW, play, turn, s, pool)
            draw_two(rec, s, hands, deck, discard, pool, key, draw_turn, drawn)
            idle = idle + 1 if rec[C.EV_GAINED] < 0 else 0
        close_row(rec, pool, deck)
        row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
        turn += 1
        if done:
            reason, winner = C.LAST_PIECE, s
        elif idle >= 10 * n_seats:
            reason = C.STALLED
        elif turn >= rules.max_turns:
            reason = C.TURN_LIMIT
    sc[S_TURN], sc[S_IDLE], sc[S_REASON], sc[S_WINNER], sc[S_PENDING] = turn, idle, reason, winner, pending
    return row
