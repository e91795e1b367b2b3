"""Block: the legal actions after the roll, counted by family (constants.FAMILIES), and the k-th of them.

Where each player may put a road, ship or settlement is kept as flags with counts in the State and
updated only where a piece lands or leaves (edge_changed, node_changed), never recomputed whole during
a game. A decision reads Scratch.counts (legal actions per family): a flat action index falls in the
family where the running count passes it (locate), and `arguments` names the action. A scenario counts
its own families after these (counts[N_FAMILIES:]) and names their actions itself.
"""

import numba as nb

from ...core.blocks import block
from .constants import (
    CITIES,
    F_BUY_DEV,
    F_CITY,
    F_END_TURN,
    F_KNIGHT,
    F_MONOPOLY,
    F_MOVE_SHIP,
    F_ROAD,
    F_ROAD_BUILDING,
    F_SETTLEMENT,
    F_SHIP,
    F_TRADE,
    F_YEAR_OF_PLENTY,
    KNIGHT,
    MONOPOLY,
    N_FAMILIES,
    N_RES,
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
from .rules import affordable, can_settle, movable_ships, route_ok, ship_destination


@nb.njit(cache=True, inline="always")
def _refresh_edge(f, q, st, bd):
    """Re-decide whether player q may put a road or a ship on edge f."""
    for kind in range(ROAD, SHIP + 1):
        now = route_ok(f, q, kind, st, bd)
        st.n_legal_edge[q, kind - 1] += int(now) - int(st.legal_edge[q, kind - 1, f])
        st.legal_edge[q, kind - 1, f] = now


@nb.njit(cache=True, inline="always")
def _refresh_node(n, q, st, bd):
    """Re-decide whether player q may put a settlement on node n."""
    now = can_settle(n, q, False, bd.node_land, st.node_owner, bd.node_nodes, bd.node_edges, st.edge_owner)
    st.n_legal_node[q] += int(now) - int(st.legal_node[q, n])
    st.legal_node[q, n] = now


@block(_nrt=False)
def init_legal(st, bd):
    """Every player's legal sites from scratch (after the set-up)."""
    st.legal_edge[:] = False
    st.n_legal_edge[:] = 0
    st.legal_node[:] = False
    st.n_legal_node[:] = 0
    for q in range(st.hands.shape[0]):
        for e in range(bd.edge_nodes.shape[0]):
            _refresh_edge(e, q, st, bd)
        for n in range(bd.node_nodes.shape[0]):
            _refresh_node(n, q, st, bd)


@block(_nrt=False)
def edge_changed(e, p, piece, st, bd):
    """A piece (ROAD or SHIP) of player p's came onto or left edge e. Edge e's legality changes for
    everybody; that of the edges sharing a node with e only for p and that kind of piece, since they
    read e only to ask whether p has a piece of their kind there; e's two nodes only for p.
    (One flat loop with one inlined route_ok, not calls of _refresh_edge: measured 3-9% faster a game.)"""
    n_players = st.legal_edge.shape[0]
    for slot in range(2 * n_players + 6):
        if slot < 2 * n_players:
            f, q, kind = e, slot // 2, ROAD + slot % 2
        else:
            f = bd.node_edges[bd.edge_nodes[e, (slot - 2 * n_players) // 3], (slot - 2 * n_players) % 3]
            q, kind = p, piece
            if f < 0 or f == e:
                continue
        now = route_ok(f, q, kind, st, bd)
        st.n_legal_edge[q, kind - 1] += int(now) - int(st.legal_edge[q, kind - 1, f])
        st.legal_edge[q, kind - 1, f] = now
    for side in range(2):
        _refresh_node(bd.edge_nodes[e, side], p, st, bd)


@block(_nrt=False)
def node_changed(n, st, bd):
    """A settlement came onto node n: the edges at n change for everybody (it joins its owner's
    pieces there and cuts everyone else's); n and its neighbours are closed by the distance rule."""
    for k in range(3):
        f = bd.node_edges[n, k]
        if f >= 0:
            for q in range(st.legal_edge.shape[0]):
                _refresh_edge(f, q, st, bd)
    for k in range(4):
        m = n if k == 3 else bd.node_nodes[n, k]
        if m >= 0:
            for q in range(st.legal_node.shape[0]):
                if st.legal_node[q, m]:
                    st.legal_node[q, m] = False
                    st.n_legal_node[q] -= 1


@nb.njit(cache=True, inline="always")
def nth_edge(st, p, kind, k):
    """The k-th edge (from 0) where player p may put a piece of this kind."""
    for i in range(st.legal_edge.shape[2]):
        if st.legal_edge[p, kind - 1, i]:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True, inline="always")
def nth_node(st, p, k):
    """The k-th node (from 0) where player p may put a settlement."""
    for i in range(st.legal_node.shape[1]):
        if st.legal_node[p, i]:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True, inline="always")
def nth_settlement(st, p, k):
    for n in range(st.node_owner.shape[0]):
        if st.node_owner[n] == p and st.node_level[n] == SETTLEMENT:
            if k == 0:
                return n
            k -= 1
    return -1


@nb.njit(cache=True, inline="always")
def playable(st, p, card):
    """p holds this development card from before this turn and has played none this turn."""
    return st.dev_played[0] == 0 and st.dev_hand[p, card] - st.dev_new[p, card] > 0


@nb.njit(cache=True, _nrt=False, inline="always")
def count_actions(st, rules, bd, scratch, p, turn):
    """The legal actions of player p after his roll, per family into scratch.counts[:N_FAMILIES] (the
    trades and year-of-plenty pairs are listed in scratch, the movable ships too when the routes
    changed); returns their total."""
    counts, left, hands, costs = scratch.counts, st.left, st.hands, rules.costs
    counts[:N_FAMILIES] = 0
    counts[F_END_TURN] = 1
    if left[p, ROADS] > 0 and affordable(hands, p, costs, PAY_ROAD):
        counts[F_ROAD] = st.n_legal_edge[p, ROAD - 1]
    if left[p, SHIPS] > 0 and affordable(hands, p, costs, PAY_SHIP):
        counts[F_SHIP] = st.n_legal_edge[p, SHIP - 1]
    if left[p, SETTLEMENTS] > 0 and affordable(hands, p, costs, PAY_SETTLEMENT):
        counts[F_SETTLEMENT] = st.n_legal_node[p]
    if left[p, CITIES] > 0 and affordable(hands, p, costs, PAY_CITY):
        counts[F_CITY] = rules.piece_limits[SETTLEMENTS] - left[p, SETTLEMENTS]  # his settlements on the board
    if left[p, SHIPS] < rules.piece_limits[SHIPS] and st.ship_moved[0] == 0 and st.n_movable[0] < 0:
        st.n_movable[0] = movable_ships(p, turn, st, bd, scratch.movable, scratch.destinations)
    if st.deck_pos[0] < st.deck.shape[0] and affordable(hands, p, costs, PAY_DEV):
        counts[F_BUY_DEV] = 1
    counts[F_KNIGHT] = int(playable(st, p, KNIGHT))
    counts[F_ROAD_BUILDING] = int(playable(st, p, ROAD_BUILDING))
    if playable(st, p, YEAR_OF_PLENTY):
        m = 0
        for r1 in range(N_RES):
            for r2 in range(r1, N_RES):
                if st.bank[r1] >= 1 + (r1 == r2) and st.bank[r2] >= 1:
                    scratch.plenty_first[m], scratch.plenty_second[m] = r1, r2
                    m += 1
        counts[F_YEAR_OF_PLENTY] = m
    if playable(st, p, MONOPOLY):
        counts[F_MONOPOLY] = N_RES
    m = 0
    for give in range(N_RES):
        if hands[p, give] >= st.rate[p, give]:
            for get in range(N_RES):
                if get != give and st.bank[get] > 0:
                    scratch.trade_give[m], scratch.trade_get[m] = give, get
                    m += 1
    counts[F_TRADE] = m
    if st.ship_moved[0] == 0:
        for j in range(st.n_movable[0]):
            counts[F_MOVE_SHIP] += scratch.destinations[j]
    total = 0
    for f in range(N_FAMILIES):
        total += counts[f]
    return total


@nb.njit(cache=True, inline="always")
def locate(counts, k):
    """The family and the index within it of flat action index k."""
    for f in range(counts.shape[0]):
        if k < counts[f]:
            return f, k
        k -= counts[f]
    return -1, -1


@nb.njit(cache=True, _nrt=False, inline="always")
def arguments(st, bd, scratch, p, family, index):
    """What the index-th action of a base family acts on: (edge, 0), (node, 0), (resource, resource),
    (ship's edge, destination edge); (0, 0) for buying a card, playing a knight or road building."""
    if family == F_ROAD:
        return nth_edge(st, p, ROAD, index), 0
    if family == F_SHIP:
        return nth_edge(st, p, SHIP, index), 0
    if family == F_SETTLEMENT:
        return nth_node(st, p, index), 0
    if family == F_CITY:
        return nth_settlement(st, p, index), 0
    if family == F_YEAR_OF_PLENTY:
        return scratch.plenty_first[index], scratch.plenty_second[index]
    if family == F_MONOPOLY:
        return index, 0
    if family == F_TRADE:
        return scratch.trade_give[index], scratch.trade_get[index]
    if family == F_MOVE_SHIP:
        for j in range(st.n_movable[0]):
            if index < scratch.destinations[j]:
                a = scratch.movable[j]
                return a, ship_destination(index, a, p, st, bd)
            index -= scratch.destinations[j]
    return 0, 0
