"""The scenario's policy decisions, compiled with Numba: its own choices (the threshold chip's section, the
hotel to release, bids, the actions after the roll with wall pieces and hotels), apart from the rules.
Base-game choices go to the Catan engine's decisions with the policy's base code: random and weighted as
themselves, builder, specht and hotelier as the builder. Every choice takes its draws whether it uses
them or not, so the draws stay aligned between policies (common random numbers)."""

import numba as nb

from ...core.blocks import block
from ...core.rng import below
from ..catan import policies as base
from ..catan.board import DESERT
from ..catan.constants import CHOICE_DRAWS, F_CITY, F_SETTLEMENT, F_TRADE, N_RES
from ..catan.decisions import choose_action
from ..catan.state import take
from .constants import F_HOTEL, F_WALL_PIECE, N_SECTIONS
from .hotels import hotel_option
from .policies import HOTEL_SITE, HOTELIER, MAX_BID, RANDOM, SPECHT, VARIETY, WEIGHTED, WEIGHTED_MAX_BID
from .state import hotel_cost_row, piece_cost_row, pips


@nb.njit(cache=True, inline="always")
def base_code(code):
    """The Catan engine's policy code for the base game's choices."""
    if code == RANDOM or code == WEIGHTED:
        return code
    return base.BUILDER


@block(_nrt=False)
def hotel_fields_at(ba, bd, n):
    """Hotel fields beside node n."""
    m = 0
    for k in range(3):
        h = bd.node_hexes[n, k]
        for x in range(ba.hotel_hexes.shape[0]):
            m += h >= 0 and ba.hotel_hexes[x] == h
    return m


@block(_nrt=False)
def hotelier_site(st, bd, ba, sites, m, prm, p):
    """The hotelier's opening site: the builder's value (pips plus variety per distinct resource) plus
    hotel_site per hotel field beside it."""
    best, best_value = sites[0], -1.0
    for j in range(m):
        n = sites[j]
        kinds = 0
        for k in range(3):
            h = bd.node_hexes[n, k]
            if h >= 0 and st.hex_terrain[h] < DESERT:
                seen = False
                for k2 in range(k):
                    h2 = bd.node_hexes[n, k2]
                    seen = seen or (h2 >= 0 and st.hex_terrain[h2] == st.hex_terrain[h])
                kinds += not seen
        value = st.node_pips[n] + prm[p, VARIETY] * kinds + prm[p, HOTEL_SITE] * hotel_fields_at(ba, bd, n)
        if value > best_value:
            best, best_value = n, value
    return best


@block(_nrt=False)
def own_levels(st, bd, field, p):
    """p's settlements and cities beside a field, weighted by level (p = -1: everybody's)."""
    total = 0
    for i in range(6):
        n = bd.hex_nodes[field, i]
        if st.node_owner[n] == p or (p < 0 and st.node_owner[n] >= 0):
            total += st.node_level[n]
    return total


@block(_nrt=False)
def _missing(hands, p, costs, row):
    short = 0
    for r in range(N_RES):
        short += max(0, costs[row, r] - hands[p, r])
    return short


@block(_nrt=False)
def choose_section(st, ba, wl, p, code):
    """The land section p puts a threshold chip under: one without a chip; specht the one whose upper piece
    misses fewest cards from his hand, the others uniform (one draw either way)."""
    u = take(st, CHOICE_DRAWS)
    free = 0
    for s in range(N_SECTIONS):
        free += wl.chip[s] == 0
    k = below(u, free)
    best, best_short = -1, 1 << 30
    for s in range(N_SECTIONS):
        if wl.chip[s] != 0:
            continue
        if code == SPECHT:
            short = _missing(st.hands, p, ba.wall_costs, piece_cost_row(wl, s))  # the upper piece
            if short < best_short:
                best, best_short = s, short
        elif k == 0:
            return s
        else:
            k -= 1
    return best


@block(_nrt=False)
def choose_direct_piece(st, p, code):
    """Whether p buys at once the upper piece of the section he has just released on another's turn (reading
    release_buy = at_once): random with even odds, the others always (a point for two cards). One draw."""
    u = take(st, CHOICE_DRAWS)
    return below(u, 2) == 1 if code == RANDOM else True


@block(_nrt=False)
def choose_release(st, bd, ba, wl, p, code):
    """The hotel p releases after a lower piece: an unreleased one; the hotelier the one whose field holds
    most of his buildings, the others uniform (one draw either way)."""
    u = take(st, CHOICE_DRAWS)
    free = 0
    for h in range(wl.released.shape[0]):
        free += wl.released[h] == 0
    k = below(u, free)
    best, best_value = -1, -1
    for h in range(wl.released.shape[0]):
        if wl.released[h]:
            continue
        if code == HOTELIER:
            value = own_levels(st, bd, ba.hotel_hexes[h], p)
            if value > best_value:
                best, best_value = h, value
        elif k == 0:
            return h
        else:
            k -= 1
    return best


@block(_nrt=False)
def choose_bid(st, prm, q, code, lo, cards, opener):
    """A Love Parade bid of at least lo cards (at most his cards), or -1 to pass. The opener bids if he can.
    random: uniform over passing and every bid it can make (the opener over its bids); the others bid lo
    while lo is within max_bid (one draw either way)."""
    u = take(st, CHOICE_DRAWS)
    if lo > cards:
        return -1
    if code == RANDOM:
        if opener:
            return lo + below(u, cards - lo + 1)
        k = below(u, cards - lo + 2)
        return -1 if k == 0 else lo + k - 1
    top = prm[q, WEIGHTED_MAX_BID] if code == WEIGHTED else prm[q, MAX_BID]
    if opener or lo <= top:
        return lo
    return -1


@block(_nrt=False)
def _trade_toward(st, scratch, p, costs, row):
    """A listed trade (give, need) that brings p nearer to paying cost row `row` without touching what it
    needs; -1 if none."""
    hands = st.hands
    for need in range(N_RES):
        if hands[p, need] >= costs[row, need] or st.bank[need] == 0:
            continue
        for give in range(N_RES):
            if give != need and hands[p, give] - costs[row, give] >= st.rate[p, give]:
                for x in range(scratch.counts[F_TRADE]):
                    if scratch.trade_give[x] == give and scratch.trade_get[x] == need:
                        return x
    return -1


@block(_nrt=False)
def _best_hotel(st, bd, ba, wl, p, code):
    """Index among p's hotel purchases (legal order: hotel, then chip slot) of the one he wants most, -1 for none.
    A hotel's new token pays every building on its field, so the hotelier buys only where he has buildings,
    most of them first, and builder and specht only where the opponents' buildings there do not outnumber
    theirs, by that margin; then the chip with most pips."""
    best, best_value, i = -1, -(1 << 30), 0
    for h in range(wl.released.shape[0]):
        for k in range(wl.offered.shape[0]):
            if not hotel_option(st, ba, wl, p, h, k):
                continue
            own = own_levels(st, bd, ba.hotel_hexes[h], p)
            margin = own if code == HOTELIER else 2 * own - own_levels(st, bd, ba.hotel_hexes[h], -1)
            value = 100 * margin + pips(wl.offered[k])
            if (own > 0 if code == HOTELIER else margin >= 0) and value > best_value:
                best, best_value = i, value
            i += 1
    return best


@block(_nrt=False)
def _scenario_target(st, bd, ba, wl, p, code):
    """The cost row (in wall_costs for specht, hotel_costs for the hotelier) the policy saves for, or -1."""
    best, best_short = -1, 1 << 30
    if code == SPECHT:
        if wl.bought_piece[p]:
            return -1
        for s in range(N_SECTIONS):
            if wl.chip[s] > 0 and wl.level[s] > 0:
                row = piece_cost_row(wl, s)
                short = _missing(st.hands, p, ba.wall_costs, row)
                if short < best_short:
                    best, best_short = row, short
        return best
    if wl.bought_hotel[0]:
        return -1
    for h in range(wl.released.shape[0]):
        if wl.released[h] and wl.hotel_owner[h] < 0 and own_levels(st, bd, ba.hotel_hexes[h], p) > 0:
            for k in range(wl.offered.shape[0]):
                if wl.offered[k] > 0:
                    row = hotel_cost_row(ba, h, wl.offered[k])
                    short = _missing(st.hands, p, ba.hotel_costs, row)
                    if short < best_short:
                        best, best_short = row, short
    return best


@nb.njit(cache=True, _nrt=False, inline="always")
def choose_berlin_action(pl, seats, p, code, total):
    """An action after the roll in the play pl (state.Play) as (family, index). random and weighted: the engine's
    choice over every family (the scenario's included). builder, specht and hotelier: _own_pick, else the engine's
    builder. Two draws per decision."""
    st, rules, bd, ba, wl, scratch = pl.st, pl.rules, pl.bd, pl.ba, pl.wl, pl.scratch
    if code != RANDOM and code != WEIGHTED:
        family, index = _own_pick(st, bd, ba, wl, scratch, p, code)
        if family >= 0:
            st.drawn[CHOICE_DRAWS] += 2
            return family, index
    return choose_action(st, rules, bd, scratch, p, base_code(code), seats.prm, seats.family_weight, total)


@block(_nrt=False)
def _own_pick(st, bd, ba, wl, scratch, p, code):
    """The scenario's part of the builder-like policies' choice, or (-1, 0) to leave it to the engine's
    builder. builder: after city and settlement (the engine's), a wall piece, then a hotel (_best_hotel).
    specht: a wall piece first, else a trade toward one; hotelier: a hotel on his field first, else a trade
    toward one; then as the builder."""
    counts = scratch.counts
    hotel = _best_hotel(st, bd, ba, wl, p, code) if counts[F_HOTEL] > 0 else -1
    if code == SPECHT and counts[F_WALL_PIECE] > 0:
        return F_WALL_PIECE, 0
    if code == HOTELIER and hotel >= 0:
        return F_HOTEL, hotel
    if code == SPECHT or code == HOTELIER:
        row = _scenario_target(st, bd, ba, wl, p, code)
        if row >= 0:
            x = _trade_toward(st, scratch, p, ba.wall_costs if code == SPECHT else ba.hotel_costs, row)
            if x >= 0:
                return F_TRADE, x
    if counts[F_CITY] == 0 and counts[F_SETTLEMENT] == 0:
        if counts[F_WALL_PIECE] > 0:
            return F_WALL_PIECE, 0
        if hotel >= 0:
            return F_HOTEL, hotel
    return -1, 0
