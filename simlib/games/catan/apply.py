"""Block: apply an action of a base family (constants.FAMILIES) for player p on his turn.

`apply_action` does the single-step families and says whether a route changed (scoring.update_routes
then recomputes who holds the longest-route card). The knight and the road-building card take further
choices (the robber's hex and victim, two free pieces): the turn asks the policy between their steps.
"""

import numba as nb

from ...core.blocks import block
from .constants import (
    CITIES,
    CITY,
    EV_BUY_DEV,
    EV_CITY,
    EV_KNIGHT,
    EV_MONOPOLY,
    EV_MOVE_SHIP,
    EV_ROAD,
    EV_ROAD_BUILDING,
    EV_SETTLEMENT,
    EV_SHIP,
    EV_TRADE,
    EV_YEAR_OF_PLENTY,
    F_BUY_DEV,
    F_CITY,
    F_MONOPOLY,
    F_MOVE_SHIP,
    F_ROAD,
    F_SETTLEMENT,
    F_SHIP,
    F_TRADE,
    F_YEAR_OF_PLENTY,
    KNIGHT,
    MONOPOLY,
    PAY_CITY,
    PAY_DEV,
    PAY_ROAD,
    PAY_SETTLEMENT,
    PAY_SHIP,
    ROAD,
    ROAD_BUILDING,
    ROADS,
    SETTLEMENT,
    SETTLEMENTS,
    SHIP,
    SHIPS,
    YEAR_OF_PLENTY,
)
from .legal import edge_changed, node_changed
from .rules import largest_army_holder, pay
from .scoring import route_piece_added, route_piece_lifted
from .setup import expose, place_settlement
from .state import log
from .unseen import lost_in_public, paid_in_public


@block(_nrt=False)
def place_route_piece(st, bd, lg, p, turn, e, kind, free):
    """A road or ship (kind) of p's on edge e, paid for or free (road-building card)."""
    st.edge_owner[e] = p
    st.edge_kind[e] = kind
    st.edge_turn[e] = turn
    st.left[p, ROADS if kind == ROAD else SHIPS] -= 1
    log(lg, turn, p, EV_ROAD if kind == ROAD else EV_SHIP, e, int(free), 0)
    edge_changed(e, p, kind, st, bd)
    route_piece_added(st, bd, p, e)


@nb.njit(cache=True, _nrt=False, inline="always")
def apply_action(pl, p, turn, family, a, b):
    """Apply a single-step action (a, b from legal.arguments) to the play pl (state.Play); True when a route
    changed (a piece placed or moved, or a settlement that may cut an opponent's route)."""
    st, tally, rules, bd, lg = pl.st, pl.tally, pl.rules, pl.bd, pl.lg
    if family == F_ROAD or family == F_SHIP:
        kind = ROAD if family == F_ROAD else SHIP
        pay(st.hands, p, st.bank, rules.costs, PAY_ROAD if kind == ROAD else PAY_SHIP)
        paid_in_public(st, lg, p, rules.costs, PAY_ROAD if kind == ROAD else PAY_SHIP)
        place_route_piece(st, bd, lg, p, turn, a, kind, False)
        return True
    if family == F_SETTLEMENT:
        pay(st.hands, p, st.bank, rules.costs, PAY_SETTLEMENT)
        paid_in_public(st, lg, p, rules.costs, PAY_SETTLEMENT)
        place_settlement(st, tally, bd, p, a)
        log(lg, turn, p, EV_SETTLEMENT, a, 0, 0)
        node_changed(a, st, bd)
        return True
    if family == F_CITY:
        pay(st.hands, p, st.bank, rules.costs, PAY_CITY)
        paid_in_public(st, lg, p, rules.costs, PAY_CITY)
        st.node_level[a] = CITY
        expose(tally, st, bd, p, a, SETTLEMENT, -1)
        expose(tally, st, bd, p, a, CITY, 1)
        log(lg, turn, p, EV_CITY, a, 0, 0)
        st.building_points[p] += CITY - SETTLEMENT
        st.left[p, SETTLEMENTS] += 1
        st.left[p, CITIES] -= 1
        return False
    if family == F_BUY_DEV:
        pay(st.hands, p, st.bank, rules.costs, PAY_DEV)
        paid_in_public(st, lg, p, rules.costs, PAY_DEV)
        card = st.deck[st.deck_pos[0]]
        st.deck_pos[0] += 1
        st.dev_hand[p, card] += 1
        st.dev_new[p, card] += 1
        tally.bought[p] += 1
        log(lg, turn, p, EV_BUY_DEV, card, 0, 0)
        return False
    if family == F_YEAR_OF_PLENTY:
        play_card(st, tally, p, YEAR_OF_PLENTY)
        log(lg, turn, p, EV_YEAR_OF_PLENTY, a, b, 0)
        for r in (a, b):
            st.hands[p, r] += 1
            st.bank[r] -= 1
        return False
    if family == F_MONOPOLY:
        play_card(st, tally, p, MONOPOLY)
        taken = 0
        for q in range(st.hands.shape[0]):
            if q != p:
                taken += st.hands[q, a]
                st.hands[p, a] += st.hands[q, a]
                st.hands[q, a] = 0
                lost_in_public(st, lg, q, a)
        log(lg, turn, p, EV_MONOPOLY, a, taken, 0)
        return False
    if family == F_TRADE:
        log(lg, turn, p, EV_TRADE, a, b, st.rate[p, a])
        st.hands[p, a] -= st.rate[p, a]
        st.bank[a] += st.rate[p, a]
        lost_in_public(st, lg, p, a)
        st.hands[p, b] += 1
        st.bank[b] -= 1
        return False
    if family == F_MOVE_SHIP:
        log(lg, turn, p, EV_MOVE_SHIP, a, b, 0)
        route_piece_lifted(st, bd, p, a)
        st.edge_owner[a] = -1
        st.edge_kind[a] = 0
        st.edge_owner[b] = p
        st.edge_kind[b] = SHIP
        st.edge_turn[b] = turn
        for e in (a, b):
            edge_changed(e, p, SHIP, st, bd)
        route_piece_added(st, bd, p, b)
        st.ship_moved[0] = 1
        return True
    return False


@nb.njit(cache=True, inline="always")
def play_card(st, tally, p, card):
    st.dev_hand[p, card] -= 1
    tally.played[p] += 1
    st.dev_played[0] = 1


@block(_nrt=False)
def play_knight(st, tally, lg, p, turn, rolled):
    """A knight, before or after the roll: one more in p's army (the robber moves next)."""
    log(lg, turn, p, EV_KNIGHT, int(rolled), 0, 0)
    play_card(st, tally, p, KNIGHT)
    st.knights[p] += 1
    st.army_holder[0] = largest_army_holder(st.knights, p, st.army_holder[0])


@block(_nrt=False)
def play_road_building(st, tally, lg, p, turn):
    """The road-building card (its two free pieces follow, each chosen among list_free_pieces)."""
    play_card(st, tally, p, ROAD_BUILDING)
    log(lg, turn, p, EV_ROAD_BUILDING, 0, 0, 0)


@block(_nrt=False)
def list_free_pieces(st, scratch, p):
    """Where p may put a free piece: per edge a road, then a ship, while he has that piece in his box."""
    m = 0
    for e in range(st.edge_owner.shape[0]):
        if st.left[p, ROADS] > 0 and st.legal_edge[p, ROAD - 1, e]:
            scratch.kinds[m], scratch.candidates[m] = ROAD, e
            m += 1
        if st.left[p, SHIPS] > 0 and st.legal_edge[p, SHIP - 1, e]:
            scratch.kinds[m], scratch.candidates[m] = SHIP, e
            m += 1
    return m
