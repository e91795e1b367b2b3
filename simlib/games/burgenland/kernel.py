"""The batch kernel: plays of Burgenland, compiled with Numba, one play after another.

A play: stones, master builders, well cards and bonus tiles shuffled, pieces handed out and pre-placed,
starting hands dealt; then turns in seat order (seat 0 first), each some free actions (a swap, an exchange)
and one main action (draw 2 or build 1), until a seat places its last piece. Every draw is keyed by
(seed, play, the play's draw counter), so results do not depend on which plays share a batch.
Blocks: `set_up`, `deal`, per turn `do_swap` and `exchange` (free actions), `build` (with `reward`) or
`draw_two`; every action fills one event row (`rec`), from which `account` adds up the seats' outputs. The
blocks are inlined into the loop (inline="always"), as in 7 Steps' kernel. What a seat's policy chooses
(whether to swap and where, whether to exchange, which build) is asked of decisions.py; the kernel carries
out the rules.
"""

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from . import constants as C
from . import outputs as O
from .decisions import (
    DEFAULT_WEIGHTS,
    MAX_BUILDS,
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
    POOL_SIZE,
    RESHUFFLES,
    SWAP_SUPPLY,
    SWAPS_USED,
    TILES_USED,
    WELLS_BUILT,
    draw_card,
    draw_until,
    marker_castle,
    pay,
    shuffle,
    skip_built_wells,
    take_jokers,
    total_cards,
)


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
           spot_piece, n_spots, supply, swaps_held, tiles_held, waiting, key, ctr):
    """Stones, master builders, well cards and bonus tiles shuffled; the piles full; pieces handed out and
    pre-placed; the marker on the first castle without a well."""
    ctr[0] = 0
    for p in range(C.N_POSITIONS):
        stones[p] = p
    shuffle(stones, C.N_POSITIONS, key, ctr)
    master[:] = cards.master_builders
    shuffle(master, master.shape[0], key, ctr)
    for c in range(C.N_CASTLES):
        well_order[c] = c
    shuffle(well_order, C.N_CASTLES, key, ctr)
    for t in range(bonus_order.shape[0]):
        bonus_order[t] = t
    shuffle(bonus_order, bonus_order.shape[0], key, ctr)
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
def deal(rec, s, rules, hands, jokers, deck, discard, pool, key, ctr):
    """Seat s's starting hand: 4 colour cards (staggered: 4 + s) and a joker."""
    hand_size = 4 + (s if rules.start_hands == C.STAGGERED else 0)
    for g in range(hand_size):
        card = draw_card(deck, discard, pool, key, ctr)
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
           bonus_order, swaps_held, key, ctr):
    """What a small-castle build earns: jokers for the castle's walls (a wall), the well's coins (a well),
    the spot's bonus (a square spot)."""
    g = C.EV_GAINED
    if piece == C.WALL:
        rec[C.EV_WALL_JOKERS] = take_jokers(jokers, s, pool, counts[castle, C.WALL])
    if piece == C.WELL:
        value = C.WELL_REWARDS[pool[WELLS_BUILT] - 1]
        rec[C.EV_WELL_REWARD] = value
        draw_until(hands[s], deck, discard, pool, value, key, ctr, rec, g)
        return
    if spot >= C.SQUARE_SPOTS:
        return
    kind = bd.spot_kind[castle, spot]
    rec[C.EV_SPOT_BONUS] = kind
    if kind == C.SPOT_JOKER:
        rec[C.EV_JOKERS_GAINED] = take_jokers(jokers, s, pool, 1)
    elif kind == C.SPOT_COINS:
        draw_until(hands[s], deck, discard, pool, bd.spot_value[castle, spot], key, ctr, rec, g)
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
          hands, jokers, deck, discard, pool, tiles_held, bonus_order, swaps_held, paid, key, ctr):
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
           bonus_order, swaps_held, key, ctr)
    return False


@nb.njit(cache=True, inline="always")
def draw_two(rec, s, hands, deck, discard, pool, key, ctr):
    for g in range(2):
        card = draw_card(deck, discard, pool, key, ctr)
        if card < 0:
            break
        hands[s, card // C.MAX_COINS, card % C.MAX_COINS] += 1
        rec[C.EV_GAINED + g] = card


@block()
def simulate_plays(seed, first_play, n_plays, n_seats, codes, prm, bd, cards, rules, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 (BurgenlandOutputs' arrays; with ev_offsets, the event rows)."""
    turns = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    winner = np.full(n_plays, -1, np.int8)
    wells, swaps = np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16)
    reshuffles, central = np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16)
    stones_out = np.zeros((n_plays, C.N_POSITIONS), np.int8)
    n_events = np.zeros(n_plays, np.int32)
    seats = np.zeros((n_plays, len(O.SEAT_COLUMNS), n_seats), np.int32)
    # the play's state
    n_tiles = cards.bonus_effect.shape[0]
    stones, master = np.zeros(C.N_POSITIONS, np.int64), np.zeros(cards.master_builders.shape[0], np.int64)
    well_order, bonus_order = np.zeros(C.N_CASTLES, np.int64), np.zeros(n_tiles, np.int64)
    deck, discard = np.zeros((C.N_COLOURS, C.MAX_COINS), np.int64), np.zeros((C.N_COLOURS, C.MAX_COINS), np.int64)
    hands, jokers = np.zeros((n_seats, C.N_COLOURS, C.MAX_COINS), np.int64), np.zeros(n_seats, np.int64)
    pool = np.zeros(POOL_SIZE, np.int64)
    counts = np.zeros((C.N_CASTLES + 1, 4), np.int64)
    spot_piece, n_spots = np.zeros((C.N_CASTLES, C.MAX_SPOTS), np.int64), np.zeros(C.N_CASTLES, np.int64)
    supply, swaps_held = np.zeros((n_seats, 4), np.int64), np.zeros(n_seats, np.int64)
    tiles_held, waiting = np.zeros((n_seats, n_tiles), np.bool_), np.zeros(n_seats, np.int64)
    ctr = np.zeros(1, np.int64)  # the play's draws so far: the index of its next keyed draw
    # work space
    rec = np.zeros(C.EV_COLS, np.int64)
    builds = np.zeros((MAX_BUILDS, 4), np.int64)
    paid, after = np.zeros((C.N_COLOURS, C.MAX_COINS), np.int64), np.zeros((C.N_COLOURS, C.MAX_COINS), np.int64)
    scratch = np.zeros((C.N_COLOURS, C.MAX_COINS), np.int64)
    saver_weights = DEFAULT_WEIGHTS.copy()
    tile_of = np.zeros(C.N_EFFECTS, np.int64)
    castles_ok = np.zeros(C.N_CASTLES, np.bool_)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        seat_out = seats[i]
        set_up(bd, cards, stones, master, well_order, bonus_order, deck, discard, hands, jokers, pool, counts,
               spot_piece, n_spots, supply, swaps_held, tiles_held, waiting, key, ctr)
        stones_out[i] = stones
        row = ev_offsets[i] if record else 0
        for s in range(n_seats):
            new_row(rec, C.DEAL, play, -1, s, pool)
            deal(rec, s, rules, hands, jokers, deck, discard, pool, key, ctr)
            close_row(rec, pool, deck)
            row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
        turn, idle, done = 0, 0, False
        while not done:
            s = turn % n_seats
            code, p, hand = codes[s], prm[s], hands[s]
            held_tiles(tile_of, tiles_held[s], cards.bonus_effect)
            marker = marker_castle(well_order, pool)
            master_need = master[pool[MASTER_TOP] % master.shape[0]]
            # free actions: a swap, holding a swap tile; an exchange, if the rules allow one and a joker is left
            if swaps_held[s] > 0 or tile_of[C.SWAP_TILE] >= 0:
                a, b = choose_swap(code, p, swaps_held[s], tile_of, hand, jokers[s], supply[s], counts, spot_piece,
                                   n_spots, stones, bd, marker, master_need, rules.central_price, builds, paid,
                                   castles_ok, key, ctr)
                if a >= 0:
                    new_row(rec, C.SWAP, play, turn, s, pool)
                    do_swap(rec, a, b, s, stones, swaps_held, tiles_held, tile_of, pool, rules)
                    close_row(rec, pool, deck)
                    row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
            if rules.joker_exchange > 0 and pool[JOKER_PILE] > 0 and exchanges(code) and exchange_helps(
                    rules.joker_exchange, hand, jokers[s], supply[s], counts, spot_piece, n_spots, stones, bd, marker,
                    tile_of, master_need, rules.central_price, builds, paid, after, scratch):
                new_row(rec, C.EXCHANGE, play, turn, s, pool)
                exchange(rec, s, hand, jokers, paid, discard, pool)
                close_row(rec, pool, deck)
                row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
            # the main action: a build, or drawing two cards
            k, spend = choose_build(code, p, waiting, s, builds, supply[s], counts, spot_piece, n_spots, stones, bd,
                                    marker, tile_of, hand, jokers[s], master_need, rules, pool, saver_weights, paid,
                                    cards.bonus_effect, key, ctr)
            if k >= 0:
                new_row(rec, C.BUILD, play, turn, s, pool)
                done = build(rec, builds[k], spend, s, bd, cards, rules, stones, master, well_order, counts, spot_piece,
                             n_spots, supply, hands, jokers, deck, discard, pool, tiles_held, bonus_order, swaps_held,
                             paid, key, ctr)
                idle = 0
            else:
                new_row(rec, C.DRAW, play, turn, s, pool)
                draw_two(rec, s, hands, deck, discard, pool, key, ctr)
                idle = idle + 1 if rec[C.EV_GAINED] < 0 else 0
            close_row(rec, pool, deck)
            row = emit(rec, ev, row, record, seat_out, s, n_events, i, cards.bonus_effect)
            turn += 1
            if done:
                end_reason[i], winner[i] = C.LAST_PIECE, s
            elif idle >= 10 * n_seats:
                end_reason[i], done = C.STALLED, True
            elif turn >= rules.max_turns:
                end_reason[i], done = C.TURN_LIMIT, True
        turns[i] = turn
        wells[i], swaps[i], reshuffles[i] = pool[WELLS_BUILT], pool[SWAPS_USED], pool[RESHUFFLES]
        central[i] = pool[CENTRAL_BUILT]
        for s in range(n_seats):
            for piece in range(4):
                seat_out[O.WALLS_LEFT + piece, s] = supply[s, piece]
            seat_out[O.PLACED, s] = bd.supply.sum() - supply[s].sum()
            seat_out[O.TURNS, s] = turn // n_seats + (s < turn % n_seats)
            seat_out[O.CARDS_LEFT, s] = total_cards(hands[s])
            seat_out[O.JOKERS_LEFT, s] = jokers[s]
    return turns, end_reason, winner, wells, swaps, reshuffles, central, stones_out, n_events, seats
