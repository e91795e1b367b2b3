"""Catan's rules as pure functions over the board's topology arrays (compiled with Numba).

Buildings: node_owner[n] (-1 none) and node_level[n] (1 settlement, 2 city). Routes:
edge_owner[e] (-1 none) and edge_kind[e] (ROAD or SHIP). Resources are indexed as RESOURCES in
board.py; terrain t < DESERT produces resource t.
"""

import numba as nb
import numpy as np

ROAD, SHIP = 1, 2
SETTLEMENT, CITY = 1, 2


@nb.njit(cache=True)
def distance_rule_ok(node, node_owner, node_nodes):
    """No building on the node or on any neighbouring node."""
    if node_owner[node] >= 0:
        return False
    for k in range(3):
        m = node_nodes[node, k]
        if m >= 0 and node_owner[m] >= 0:
            return False
    return True


@nb.njit(cache=True)
def touches_own_route(node, player, node_edges, edge_owner):
    for k in range(3):
        e = node_edges[node, k]
        if e >= 0 and edge_owner[e] == player:
            return True
    return False


@nb.njit(cache=True)
def can_settle(node, player, setup, node_land, node_owner, node_nodes, node_edges, edge_owner):
    """A settlement may stand on a land node that keeps the distance rule and, after set-up, touches
    one of the player's roads or ships."""
    if not node_land[node] or not distance_rule_ok(node, node_owner, node_nodes):
        return False
    return setup or touches_own_route(node, player, node_edges, edge_owner)


@nb.njit(cache=True)
def produce(roll, robber, hex_terrain, hex_token, hex_nodes, node_owner, node_level, bank, hands, received):
    """Production for a roll, with the bank-shortage rule: when the bank cannot pay everybody entitled
    to a resource, nobody gets it, unless only one player is entitled, who gets what is left.
    Adds to `hands` and `received` [player, resource]; takes from `bank`."""
    n_players = hands.shape[0]
    demand = np.zeros((n_players, 5), np.int64)
    for h in range(hex_terrain.shape[0]):
        if hex_token[h] != roll or h == robber or hex_terrain[h] >= 5:
            continue
        r = hex_terrain[h]
        for i in range(6):
            n = hex_nodes[h, i]
            if node_owner[n] >= 0:
                demand[node_owner[n], r] += node_level[n]
    for r in range(5):
        total = 0
        entitled = 0
        for p in range(n_players):
            total += demand[p, r]
            if demand[p, r] > 0:
                entitled += 1
        if total == 0:
            continue
        if total <= bank[r]:
            for p in range(n_players):
                hands[p, r] += demand[p, r]
                received[p, r] += demand[p, r]
            bank[r] -= total
        elif entitled == 1:
            for p in range(n_players):
                if demand[p, r] > 0:
                    hands[p, r] += bank[r]
                    received[p, r] += bank[r]
            bank[r] = 0


@nb.njit(cache=True)
def longest_route(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes):
    """Length of the player's longest trade route: a trail of his roads and ships, each edge at most
    once. An opponent's building ends a trail; a road and a ship join only at the player's own
    settlement or city. (A depth-first search with an explicit stack: Numba caches no recursion.)"""
    n_edges = edge_owner.shape[0]
    used = np.zeros(n_edges, np.bool_)
    started = np.zeros(node_edges.shape[0], np.bool_)
    st_node = np.empty(n_edges + 1, np.int64)
    st_kind = np.empty(n_edges + 1, np.int64)   # kind of the edge we arrived by (0 at the start)
    st_next = np.empty(n_edges + 1, np.int64)   # which of the node's three edges to try next
    st_edge = np.empty(n_edges + 1, np.int64)   # the edge we arrived by (-1 at the start)
    best = 0
    for e0 in range(n_edges):
        if edge_owner[e0] != player:
            continue
        for side in range(2):
            start = edge_nodes[e0, side]
            if started[start]:
                continue
            started[start] = True
            depth = 0
            st_node[0], st_kind[0], st_next[0], st_edge[0] = start, 0, 0, -1
            while depth >= 0:
                node = st_node[depth]
                k = st_next[depth]
                if k == 0 and depth > best:
                    best = depth
                arrived = st_kind[depth]
                cut = arrived != 0 and node_owner[node] >= 0 and node_owner[node] != player
                if cut or k >= 3:
                    if st_edge[depth] >= 0:
                        used[st_edge[depth]] = False
                    depth -= 1
                    continue
                st_next[depth] = k + 1
                e = node_edges[node, k]
                if e < 0 or used[e] or edge_owner[e] != player:
                    continue
                kind = edge_kind[e]
                if arrived != 0 and kind != arrived and node_owner[node] != player:
                    continue
                used[e] = True
                depth += 1
                st_node[depth] = edge_nodes[e, 1] if edge_nodes[e, 0] == node else edge_nodes[e, 0]
                st_kind[depth], st_next[depth], st_edge[depth] = kind, 0, e
    return best
