"""The policies' choices, apart from the rules: which builds are legal (a rules question, asked with the
jokers a policy is willing to spend), and what random, builder and saver choose each turn: a free swap
(`choose_swap`), an exchange (`exchanges`, `exchange_helps`) and the main action's build (`choose_build`).

A build is a row (piece, castle, spot, tile): castle 0..10 small, 11 central; spot -1 for a well or the
central castle; tile the physical bonus tile it uses (-1 none).
"""

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import below, draw, unit
from . import constants as C
from .policies import (
    BUILDER,
    COIN_SCALE,
    KEEP_JOKERS,
    P_SWAP,
    PATIENCE,
    POLICIES,
    RANDOM,
    SAVER,
    SAVER_PATIENCE,
    W_BONUS,
    W_COINS,
    W_JOKER,
    W_SWAP,
)
from .rules import (
    BONUS_TOP,
    JOKER_PILE,
    SWAP_SUPPLY,
    WELLS_BUILT,
    can_pay_central,
    can_pay_small,
    castle_colours,
    colour_cards,
    free_spot,
    pay_central,
    pay_coins,
    pay_small,
    piece_allowed,
    take,
    total_coins,
)

MAX_BUILDS = 512
PIECE, CASTLE, SPOT, TILE = range(4)
SAVER_ORDER = (C.PALAS, C.WELL, C.HOUSE, C.WALL)  # the saver's most demanding piece first
# The saver ranks spots by the builder's default weights.
DEFAULT_WEIGHTS = np.array(list(POLICIES["builder"].params.values()))


@nb.njit(cache=True, inline="always")
def _add(builds, n, piece, castle, spot, tile):
    builds[n, PIECE], builds[n, CASTLE], builds[n, SPOT], builds[n, TILE] = piece, castle, spot, tile
    return n + 1


@block(_nrt=True)
def legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, jokers_small,
                 jokers_palas, master_need, central, central_price, central_jokers, central_need, only_piece, scratch):
    """Every legal build the hand can pay (small castles with `jokers_small` jokers, palases with
    `jokers_palas`; the central castle if `central`, with `central_jokers`, a palas there also
    `central_need` coins), of `only_piece` if >= 0 (`scratch`: an [8, 3] work array).
    `tile_of[effect]` is a held bonus tile with that effect (-1 none). Returns how many rows."""
    n = 0
    for c in range(C.N_CASTLES):
        a, b = castle_colours(stones, bd.stones, c)
        pay_any = can_pay_small(hand, jokers_small, a, b, 0)
        pay_palas = can_pay_small(hand, jokers_palas, a, b, master_need)
        pay_free_palas = tile_of[C.FREE_MASTER] >= 0 and master_need > 0 and can_pay_small(hand, jokers_palas, a, b, 0)
        for piece in range(C.WELL):
            if supply[piece] == 0 or (only_piece >= 0 and piece != only_piece):
                continue
            if not (pay_palas or pay_free_palas if piece == C.PALAS else pay_any):
                continue
            ok = piece_allowed(piece, counts, c, False)
            rule_tile = tile_of[C.IGNORE_HOUSE_RULE if piece == C.HOUSE else C.SECOND_PALAS] if piece != C.WALL else -1
            first = free_spot(spot_piece, n_spots, c, 0)
            s = first
            while s >= 0:
                if ok and (piece != C.PALAS or pay_palas):
                    n = _add(builds, n, piece, c, s, -1)
                if ok and piece == C.PALAS and pay_free_palas:
                    n = _add(builds, n, piece, c, s, tile_of[C.FREE_MASTER])
                if not ok and rule_tile >= 0 and (piece != C.PALAS or pay_palas):
                    n = _add(builds, n, piece, c, s, rule_tile)
                s = free_spot(spot_piece, n_spots, c, s + 1)
            if (first < 0 and ok and tile_of[C.EXTRA_SPOT] >= 0 and n_spots[c] < C.MAX_SPOTS
                    and (piece != C.PALAS or pay_palas)):
                n = _add(builds, n, piece, c, n_spots[c], tile_of[C.EXTRA_SPOT])
        if supply[C.WELL] > 0 and counts[c, C.WELL] == 0 and pay_any and (only_piece < 0 or only_piece == C.WELL):
            if c == marker:
                n = _add(builds, n, C.WELL, c, -1, -1)
            elif tile_of[C.ANY_WELL] >= 0:
                n = _add(builds, n, C.WELL, c, -1, tile_of[C.ANY_WELL])
    if central:
        for piece in range(C.WELL):
            if supply[piece] == 0 or (only_piece >= 0 and only_piece != piece):
                continue
            if piece == C.PALAS and central_need > 0:
                ok = pay_central(hand, central_jokers, central_price[piece], central_need, scratch) >= 0
            else:
                ok = can_pay_central(hand, central_jokers, central_price[piece])
            if ok:
                n = _add(builds, n, piece, C.CENTRAL, -1, -1)
    return n


@block()
def payment(build, hand, jokers, stones, bd, master_need, central_price, central_need, paid, bonus_effect):
    """The cards (into `paid`) and jokers (returned; -1: cannot pay) a build costs, `jokers` being what the
    policy spends."""
    piece, castle = build[PIECE], build[CASTLE]
    if castle == C.CENTRAL:
        return pay_central(hand, jokers, central_price[piece], central_need if piece == C.PALAS else 0, paid)
    a, b = castle_colours(stones, bd.stones, castle)
    free = build[TILE] >= 0 and bonus_effect[build[TILE]] == C.FREE_MASTER
    need = master_need if piece == C.PALAS and not free else 0
    return pay_small(hand, jokers, a, b, need, paid)


@block()
def build_value(build, w, counts, bd, pool, hand, jokers, stones, master_need, central_price, central_need, paid,
                bonus_effect):
    """The builder's value of a build: its rewards by the weights, minus jokers and coins paid."""
    piece, castle, spot = build[PIECE], build[CASTLE], build[SPOT]
    j = payment(build, hand, jokers, stones, bd, master_need, central_price, central_need, paid, bonus_effect)
    value = -w[W_JOKER] * j - total_coins(paid) / w[COIN_SCALE]
    if build[TILE] >= 0:
        value -= w[W_BONUS]
    if castle == C.CENTRAL:
        return value
    if piece == C.WALL:
        value += w[W_JOKER] * min(counts[castle, C.WALL] + 1, pool[JOKER_PILE] + j)
    if piece == C.WELL:
        return value + w[W_COINS] * C.WELL_REWARDS[min(pool[WELLS_BUILT], len(C.WELL_REWARDS) - 1)]
    if spot >= C.SQUARE_SPOTS:
        return value
    kind = bd.spot_kind[castle, spot]
    if kind == C.SPOT_JOKER:
        value += w[W_JOKER] * (pool[JOKER_PILE] + j > 0)
    elif kind == C.SPOT_COINS:
        value += w[W_COINS] * bd.spot_value[castle, spot]
    elif kind == C.SPOT_SWAP:
        value += w[W_SWAP] * (pool[SWAP_SUPPLY] > 0)
    elif pool[BONUS_TOP] < bonus_effect.shape[0]:
        value += w[W_BONUS]
    return value


@block(_nrt=True)
def best_build(builds, n, w, counts, bd, pool, hand, jokers, stones, master_need, central_price, central_need,
               paid, bonus_effect):
    """The index of the build of highest value (the first on a tie)."""
    best, best_value = -1, -1e300
    for i in range(n):
        v = build_value(builds[i], w, counts, bd, pool, hand, jokers, stones, master_need, central_price,
                        central_need, paid, bonus_effect)
        if v > best_value:
            best, best_value = i, v
    return best


@block()
def random_swap(code, prm, held_swaps, tile_of, key, draw_turn, drawn):
    """Random policy: whether to play a swap (tile or bonus tile) and on which positions: (a, b) or (-1, -1)."""
    if code != RANDOM or (held_swaps == 0 and tile_of[C.SWAP_TILE] < 0):
        return -1, -1
    if unit(take(key, draw_turn, drawn, C.SWAP_DRAWS)) >= prm[P_SWAP]:
        return -1, -1
    pair = below(take(key, draw_turn, drawn, C.SWAP_DRAWS), 28)
    a = 0
    while pair >= C.N_POSITIONS - 1 - a:
        pair -= C.N_POSITIONS - 1 - a
        a += 1
    return a, a + 1 + pair


@nb.njit(cache=True, inline="always")
def build_id(b):
    """A number > 0 naming a build (piece, castle, spot, tile) apart from every other."""
    return 1 + (b[TILE] + 1) + ((b[PIECE] * 16 + b[CASTLE]) * 16 + b[SPOT] + 1) * (1 << 20)


@block()
def random_build(builds, n, key, draw_turn, drawn):
    """Random policy: a uniform one of the n builds and drawing (index n). The turn's draw keys a number for each
    main action by what it is (`build_id`; drawing is 0) and the least wins, so two variants of a play whose seat
    has different builds open still choose alike whenever the winner is open in both (an index into the list
    would shift with it: measured in docs/games/burgenland.md, "As built" 12)."""
    u = take(key, draw_turn, drawn, C.BUILD_DRAWS)
    k, least = n, draw(u, 0)
    for i in range(n):
        h = draw(u, build_id(builds[i]))
        if h < least:
            k, least = i, h
    return k


@nb.njit(cache=True, inline="always")
def has_place(piece, c, counts, spot_piece, n_spots, marker, tile_of):
    """Whether `piece` may go into small castle c: a well on the marker's castle (any castle with the any_well
    tile) without a well; another piece on a free spot (or an extra spot with that tile) where the building
    rules allow it (or a held tile lifts them)."""
    if piece == C.WELL:
        return counts[c, C.WELL] == 0 and (c == marker or tile_of[C.ANY_WELL] >= 0)
    has_spot = free_spot(spot_piece, n_spots, c, 0) >= 0 or (tile_of[C.EXTRA_SPOT] >= 0 and n_spots[c] < C.MAX_SPOTS)
    rule_tile = piece != C.WALL and tile_of[C.IGNORE_HOUSE_RULE if piece == C.HOUSE else C.SECOND_PALAS] >= 0
    return has_spot and (piece_allowed(piece, counts, c, False) or rule_tile)


@nb.njit(cache=True, inline="always")
def small_places(castles_ok, piece, counts, spot_piece, n_spots, marker, tile_of):
    """Mark (add to castles_ok) the small castles where `piece` may go."""
    for c in range(C.N_CASTLES):
        castles_ok[c] |= has_place(piece, c, counts, spot_piece, n_spots, marker, tile_of)


@block()
def saver_target(supply, counts, spot_piece, n_spots, marker, tile_of):
    """The saver's piece: the first of palas, well, house, wall it holds with a place in a small castle
    (-1 - piece: none has one; the central castle's piece, the first of palas, house, wall it holds)."""
    for piece in SAVER_ORDER:
        if supply[piece] == 0:
            continue
        for c in range(C.N_CASTLES):
            if has_place(piece, c, counts, spot_piece, n_spots, marker, tile_of):
                return piece
    for piece in (C.PALAS, C.HOUSE, C.WALL):
        if supply[piece] > 0:
            return -1 - piece
    return -1 - C.WALL


@block()
def matching_cards(hand, stones, bd, castles_ok):
    """The most cards of its two colours the hand holds for any castle marked in castles_ok."""
    best = -1
    for c in range(C.N_CASTLES):
        if castles_ok[c]:
            a, b = castle_colours(stones, bd.stones, c)
            best = max(best, colour_cards(hand, a) + colour_cards(hand, b))
    return best


@block()
def best_swap_for(hand, stones, bd, castles_ok):
    """The pair of positions whose swap most raises matching_cards, and the count it reaches (-1, -1 and the
    count now if none raises it)."""
    base = matching_cards(hand, stones, bd, castles_ok)
    best_a, best_b, best = -1, -1, base
    for a in range(C.N_POSITIONS):
        for b in range(a + 1, C.N_POSITIONS):
            stones[a], stones[b] = stones[b], stones[a]
            m = matching_cards(hand, stones, bd, castles_ok)
            stones[a], stones[b] = stones[b], stones[a]
            if m > best:
                best_a, best_b, best = a, b, m
    return best_a, best_b, best


@nb.njit(cache=True, inline="always")
def policy_jokers(code, prm, jokers, piece):
    """The jokers a policy spends on a piece: the saver keeps them for palases (keep_jokers = 1)."""
    if code == SAVER and prm[KEEP_JOKERS] > 0.5 and piece != C.PALAS:
        return 0
    return jokers


@nb.njit(cache=True, inline="always")
def patience(code, prm):
    if code == BUILDER:
        return prm[PATIENCE]
    return prm[SAVER_PATIENCE] if code != RANDOM else 0.0


@block(_nrt=True)
def exchange_payment(hand, coins, paid):
    """Cards reaching `coins` for a joker (smallest overpay); False if the hand cannot pay."""
    paid[:] = 0
    return coins > 0 and pay_coins(hand, paid, coins)



# The turn's decisions run without Numba's reference counting (_nrt=False, as Catan's): with it, each array
# argument costs a count and a release per call (more when inlined), up to 40% more time a play. So they
# allocate nothing, and what they call that allocates (pay_coins, through legal_builds, best_build and
# exchange_payment) is compiled with counting (_nrt=True, which the caller's flag does not override).


@nb.njit(cache=True, inline="always")
def builder_swap(hand, jokers, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, master_need,
                 central_price, builds, paid, castles_ok):
    """The builder's swap: only when it cannot build now, and only one that brings enough cards of a castle's
    colours (jokers counted) for a piece it holds to go there."""
    if legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, jokers, jokers,
                    master_need, False, central_price, 0, 0, -1, paid) > 0:
        return -1, -1
    castles_ok[:] = False
    for piece in range(4):
        if supply[piece] > 0:
            small_places(castles_ok, piece, counts, spot_piece, n_spots, marker, tile_of)
    a, b, m = best_swap_for(hand, stones, bd, castles_ok)
    if m + jokers < C.PRICE:  # the swap does not make a build affordable
        return -1, -1
    return a, b


@nb.njit(cache=True, inline="always")
def saver_swap(prm, hand, jokers, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, master_need,
               central_price, builds, paid, castles_ok):
    """The saver's swap: when it cannot build its piece now, the one bringing the most of its cards' colours
    onto a castle where the piece can go (even if still too few: it waits for cards). None when the piece has
    no small-castle place: a swap cannot help the central castle, whose price has no colours."""
    target = saver_target(supply, counts, spot_piece, n_spots, marker, tile_of)
    if target < 0:
        return -1, -1
    spend = policy_jokers(SAVER, prm, jokers, target)
    if legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, spend, spend,
                    master_need, False, central_price, 0, 0, target, paid) > 0:
        return -1, -1
    castles_ok[:] = False
    small_places(castles_ok, target, counts, spot_piece, n_spots, marker, tile_of)
    a, b, _ = best_swap_for(hand, stones, bd, castles_ok)
    return a, b


@block(_nrt=False)
def choose_swap(code, prm, held_swaps, tile_of, hand, jokers, supply, counts, spot_piece, n_spots, stones, bd,
                marker, master_need, central_price, builds, paid, castles_ok, key, draw_turn, drawn):
    """The free swap of a seat holding a swap tile (or a swap bonus tile): positions (a, b), (-1, -1) for none.
    Random swaps by chance, builder and saver when they cannot build now."""
    if code == RANDOM:
        return random_swap(code, prm, held_swaps, tile_of, key, draw_turn, drawn)
    if code == BUILDER:
        return builder_swap(hand, jokers, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of,
                            master_need, central_price, builds, paid, castles_ok)
    return saver_swap(prm, hand, jokers, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of,
                      master_need, central_price, builds, paid, castles_ok)


@nb.njit(cache=True, inline="always")
def exchanges(code):
    """Whether the policy exchanges coins for jokers at all: the builder does (see exchange_helps); random and
    saver never."""
    return code == BUILDER


@block(_nrt=False)
def exchange_helps(coins, hand, jokers, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of,
                   master_need, central_price, builds, paid, after, scratch):
    """The builder exchanges cards worth `coins` (into `paid`) for a joker when that makes a small-castle build
    affordable that is not now (`after`, `scratch`: work arrays)."""
    if legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, jokers, jokers,
                    master_need, False, central_price, 0, 0, -1, paid) > 0:
        return False
    if not exchange_payment(hand, coins, paid):
        return False
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            after[c, v] = hand[c, v] - paid[c, v]
    return legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, after, jokers + 1,
                        jokers + 1, master_need, False, central_price, 0, 0, -1, scratch) > 0


@block(_nrt=False)
def choose_build(code, prm, waiting, s, builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of,
                 hand, jokers, master_need, rules, pool, saver_weights, paid, bonus_effect, key, draw_turn, drawn):
    """The main action: (k, spend), the row of `builds` to build (-1: draw two) and the jokers to spend on it.
    Random: uniform (random_build). Builder and saver: the build of best value (the saver: of its piece, valued
    by the builder's default weights), the central castle only after `patience` turns in a row without a
    small-castle build (`waiting[s]`). A palas may take every joker (legal_builds offered it with them all)."""
    central_jokers = jokers if rules.central_jokers else 0
    central_need = master_need if rules.central_master_builder else 0
    if code == RANDOM:
        n = legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, jokers, jokers,
                         master_need, True, rules.central_price, central_jokers, central_need, -1, paid)
        k = random_build(builds, n, key, draw_turn, drawn)
        return (k, _jokers_for(builds[k], jokers, jokers, central_jokers)) if k < n else (-1, jokers)
    target, w, only, spend = -1, prm, -1, jokers
    if code == SAVER:  # as at the turn's start: the piece's place depends on neither the stones nor the hand
        target = saver_target(supply, counts, spot_piece, n_spots, marker, tile_of)
        w, only = saver_weights, target if target >= 0 else -1 - target
        spend = policy_jokers(code, prm, jokers, only)
        central_jokers = min(central_jokers, spend)
    n = 0
    if target >= 0 or code == BUILDER:
        n = legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, spend, jokers,
                         master_need, False, rules.central_price, 0, 0, only, paid)
    if n > 0:
        waiting[s] = 0
    else:
        waiting[s] += 1
        if waiting[s] > patience(code, prm):
            n = legal_builds(builds, supply, counts, spot_piece, n_spots, stones, bd, marker, tile_of, hand, 0, 0,
                             master_need, True, rules.central_price, central_jokers, central_need, only, paid)
            spend = central_jokers
    if n == 0:
        return -1, spend
    k = best_build(builds, n, w, counts, bd, pool, hand, spend, stones, master_need, rules.central_price,
                   central_need, paid, bonus_effect)
    return k, _jokers_for(builds[k], spend, jokers, central_jokers)


@nb.njit(cache=True, inline="always")
def _jokers_for(build, spend, jokers, central_jokers):
    if build[CASTLE] == C.CENTRAL:
        return central_jokers
    return jokers if build[PIECE] == C.PALAS else spend
