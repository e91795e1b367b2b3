"""Which builds are legal and what they cost: the rules a seat's main action is chosen under (a rule module,
over state.Play). A build is a row (piece, castle, spot, tile) of a `builds` array: castle 0..10 small, 11
central; spot -1 for a well or the central castle; tile the physical bonus tile it uses (-1 none).

A Turn (state.py) says whose turn it is and what the turn's start shows (the well marker, the master builder's
coins, the bonus tiles held by effect); a Means says what the seat may pay with.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from . import constants as C
from .rules import (
    can_pay_central,
    can_pay_small,
    castle_colours,
    free_spot,
    pay_central,
    pay_coins,
    pay_small,
    piece_allowed,
)

MAX_BUILDS = 512
PIECE, CASTLE, SPOT, TILE = range(4)


class Means(NamedTuple):
    """What a seat may pay a build with: its cards, the jokers it is willing to spend, the central castle's terms."""

    hand: np.ndarray     # [8, 3] the colour cards
    jokers_small: int    # jokers for a wall, house or well in a small castle
    jokers_palas: int    # jokers for a palas in a small castle
    central: bool        # the central castle's builds offered too
    central_jokers: int  # jokers there
    central_need: int    # coins a palas there costs beyond its cards (its master builder)
    only_piece: int      # builds of this piece only (-1: any)


@nb.njit(cache=True, inline="always")
def _add(builds, n, piece, castle, spot, tile):
    builds[n, PIECE], builds[n, CASTLE], builds[n, SPOT], builds[n, TILE] = piece, castle, spot, tile
    return n + 1


@block(_nrt=False)
def legal_builds(builds, st, bd, central_price, turn, means, scratch):
    """Every legal build of turn.s that `means` pays, into `builds` (`scratch`: an [8, 3] work array). Returns how
    many rows."""
    tile_of, master_need, marker, hand, only_piece = turn.tile_of, turn.master_need, turn.marker, means.hand, \
        means.only_piece
    supply, counts, spot_piece, n_spots, stones = st.supply[turn.s], st.counts, st.spot_piece, st.n_spots, st.stones
    n = 0
    for c in range(C.N_CASTLES):
        a, b = castle_colours(stones, bd.stones, c)
        pay_any = can_pay_small(hand, means.jokers_small, a, b, 0)
        pay_palas = can_pay_small(hand, means.jokers_palas, a, b, master_need)
        pay_free_palas = tile_of[C.FREE_MASTER] >= 0 and master_need > 0 and can_pay_small(
            hand, means.jokers_palas, a, b, 0)
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
    if means.central:
        for piece in range(C.WELL):
            if supply[piece] == 0 or (only_piece >= 0 and only_piece != piece):
                continue
            if piece == C.PALAS and means.central_need > 0:
                ok = pay_central(hand, means.central_jokers, central_price[piece], means.central_need, scratch) >= 0
            else:
                ok = can_pay_central(hand, means.central_jokers, central_price[piece])
            if ok:
                n = _add(builds, n, piece, C.CENTRAL, -1, -1)
    return n


@nb.njit(cache=True, inline="always")
def small_castle_means(hand, jokers):
    """The small castles' builds a hand pays with `jokers` (for every piece): the free actions' question."""
    return Means(hand, jokers, jokers, False, 0, 0, -1)


@block(_nrt=False)
def payment(build, hand, jokers, stones, setup, master_need, paid):
    """The cards (into `paid`) and jokers (returned; -1: cannot pay) a build costs, `jokers` being what the
    policy spends."""
    piece, castle, rules = build[PIECE], build[CASTLE], setup.rules
    if castle == C.CENTRAL:
        central_need = master_need if rules.central_master_builder and piece == C.PALAS else 0
        return pay_central(hand, jokers, rules.central_price[piece], central_need, paid)
    a, b = castle_colours(stones, setup.bd.stones, castle)
    free = build[TILE] >= 0 and setup.cards.bonus_effect[build[TILE]] == C.FREE_MASTER
    need = master_need if piece == C.PALAS and not free else 0
    return pay_small(hand, jokers, a, b, need, paid)


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
def small_places(castles_ok, piece, st, turn):
    """Mark (add to castles_ok) the small castles where `piece` may go."""
    for c in range(C.N_CASTLES):
        castles_ok[c] |= has_place(piece, c, st.counts, st.spot_piece, st.n_spots, turn.marker, turn.tile_of)


@block(_nrt=False)
def exchange_payment(hand, coins, paid):
    """Cards reaching `coins` for a joker (smallest overpay); False if the hand cannot pay."""
    paid[:] = 0
    return coins > 0 and pay_coins(hand, paid, coins)


@block(_nrt=False)
def exchange_helps(coins, st, bd, central_price, turn, wk):
    """Whether exchanging cards worth `coins` (into wk.paid) for a joker makes a small-castle build affordable that
    is not now (wk.after, wk.scratch: work arrays)."""
    hand, jokers, builds, paid, after = st.hands[turn.s], st.jokers[turn.s], wk.builds, wk.paid, wk.after
    if legal_builds(builds, st, bd, central_price, turn, small_castle_means(hand, jokers), paid) > 0:
        return False
    if not exchange_payment(hand, coins, paid):
        return False
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            after[c, v] = hand[c, v] - paid[c, v]
    return legal_builds(builds, st, bd, central_price, turn, small_castle_means(after, jokers + 1), wk.scratch) > 0
