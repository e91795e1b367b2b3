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
def _trail(node, arrived_kind, player, used, edge_owner, edge_kind, node_owner, node_edges, edge_nodes):
    """The longest trail of the player's routes from `node`, having arrived by an edge of
    `arrived_kind` (0 at the start). An opponent's building ends a trail; a road and a ship join only
    at the player's own settlement or city."""
    if arrived_kind != 0 and node_owner[node] >= 0 and node_owner[node] != player:
        return 0
    best = 0
    for k in range(3):
        e = node_edges[node, k]
        if e < 0 or used[e] or edge_owner[e] != player:
            continue
        kind = edge_kind[e]
        if arrived_kind != 0 and kind != arrived_kind and node_owner[node] != player:
            continue
        used[e] = True
        other = edge_nodes[e, 1] if edge_nodes[e, 0] == node else edge_nodes[e, 0]
        length = 1 + _trail(other, kind, player, used, edge_owner, edge_kind, node_owner, node_edges, edge_nodes)
        used[e] = False
        if length > best:
            best = length
    return best


@nb.njit(cache=True)
def longest_route(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes):
    """Length of the player's longest trade route (roads and ships, each edge at most once)."""
    used = np.zeros(edge_owner.shape[0], np.bool_)
    best = 0
    for e in range(edge_owner.shape[0]):
        if edge_owner[e] != player:
            continue
        for side in range(2):
            length = _trail(edge_nodes[e, side], 0, player, used, edge_owner, edge_kind, node_owner, node_edges,
                            edge_nodes)
            if length > best:
                best = length
    return best
