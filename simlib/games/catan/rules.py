"""Catan's rules as pure functions over the board's topology arrays (compiled with Numba).

Buildings: node_owner[n] (-1 none) and node_level[n] (1 settlement, 2 city). Routes:
edge_owner[e] (-1 none) and edge_kind[e] (ROAD or SHIP). Resources are indexed as RESOURCES in
board.py; terrain t < DESERT produces resource t.
"""

import numba as nb
import numpy as np

ROAD, SHIP = 1, 2
SETTLEMENT, CITY = 1, 2


@nb.njit(cache=True, inline="always")
def distance_rule_ok(node, node_owner, node_nodes):
    """No building on the node or on any neighbouring node."""
    if node_owner[node] >= 0:
        return False
    for k in range(3):
        m = node_nodes[node, k]
        if m >= 0 and node_owner[m] >= 0:
            return False
    return True


@nb.njit(cache=True, inline="always")
def touches_own_route(node, player, node_edges, edge_owner):
    for k in range(3):
        e = node_edges[node, k]
        if e >= 0 and edge_owner[e] == player:
            return True
    return False


@nb.njit(cache=True, inline="always")
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
    settlement or city."""
    return longest_route_in(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes,
                            np.empty((7, max(edge_owner.shape[0], node_owner.shape[0]) + 1), np.int64))


@nb.njit(cache=True, inline="always")
def _passes_through(node, player, edge_owner, edge_kind, node_owner, node_edges):
    """Does the player's network pass straight through the node: exactly two of his pieces meet there
    and may join (no opponent's building; same kind, or his own building)?"""
    if node_owner[node] >= 0 and node_owner[node] != player:
        return False
    count = 0
    kinds = 0
    for k in range(3):
        e = node_edges[node, k]
        if e >= 0 and edge_owner[e] == player:
            count += 1
            kinds |= edge_kind[e]
    return count == 2 and (kinds != 3 or node_owner[node] == player)


@nb.njit(cache=True)
def longest_route_in(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes, work):
    """longest_route with caller-owned work space (7 rows, longer than the edges and the nodes).

    A depth-first search over trails with an explicit stack (Numba caches no recursion). It starts
    only where a longest trail can start: a trail starting at a node the network passes straight
    through could be lengthened by the other piece there, unless it is a closed loop, which starts
    as well at any of its nodes. So the search starts at the other nodes, and then once in each loop
    that no search reached."""
    n_edges = edge_owner.shape[0]
    used, covered, started = work[0], work[1], work[2]  # per edge, per edge, per node
    st_node, st_kind, st_next, st_edge = work[3], work[4], work[5], work[6]
    used[:] = 0
    covered[:] = 0
    started[:] = 0
    best = 0
    for attempt in range(2):
        for e0 in range(n_edges):
            if edge_owner[e0] != player or (attempt == 1 and covered[e0]):
                continue
            for side in range(2):
                start = edge_nodes[e0, side]
                if started[start] or (attempt == 0 and _passes_through(start, player, edge_owner, edge_kind,
                                                                       node_owner, node_edges)):
                    continue
                started[start] = 1
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
                            used[st_edge[depth]] = 0
                        depth -= 1
                        continue
                    st_next[depth] = k + 1
                    e = node_edges[node, k]
                    if e < 0 or used[e] or edge_owner[e] != player:
                        continue
                    kind = edge_kind[e]
                    if arrived != 0 and kind != arrived and node_owner[node] != player:
                        continue
                    used[e] = 1
                    covered[e] = 1
                    depth += 1
                    st_node[depth] = edge_nodes[e, 1] if edge_nodes[e, 0] == node else edge_nodes[e, 0]
                    st_kind[depth], st_next[depth], st_edge[depth] = kind, 0, e
                if attempt == 1:
                    break  # one start reaches the whole loop
    return best
