"""Catan's rules as pure functions over the board's topology arrays (compiled with Numba).

Buildings: node_owner[n] (-1 none) and node_level[n] (1 settlement, 2 city). Routes:
edge_owner[e] (-1 none) and edge_kind[e] (ROAD or SHIP). Resources are indexed as constants.RESOURCES;
terrain t < DESERT produces resource t. The blocks (setup.py, dice.py, robber.py, legal.py, apply.py,
scoring.py) apply these to a game's State.
"""

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ...core.blocks import block
from ...core.rng import below
from .board import DESERT
from .constants import (  # noqa: F401  (ROAD .. CITY are this module's vocabulary for its callers too)
    BANK_RATE,
    CITY,
    DISCARD_ABOVE,
    LARGEST_ARMY_MIN,
    LONGEST_ROUTE_MIN,
    N_RES,
    ROAD,
    ROUTE_WORK_ROWS,
    SETTLEMENT,
    SETTLEMENTS,
    SHIP,
)


@nb.njit(cache=True, inline="always")
def distance_rule_ok(node, node_owner, node_nodes):
    """No building on the node or on any neighbouring node (a neighbour of -1 is past the map's edge)."""
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
    return node_land[node] and distance_rule_ok(node, node_owner, node_nodes) and (
        setup or touches_own_route(node, player, node_edges, edge_owner))


@nb.njit(cache=True, inline="always")
def route_ok(e, player, kind, st, bd):
    """May the player put a road (kind ROAD) or ship (SHIP) on edge e? It must be free, on the right
    ground, and join his network: at his own building, or at a free node where his piece of the same
    kind ends (roads and ships join only at a settlement or city). st: the pieces (edge_owner, edge_kind,
    node_owner), bd: the board (edge_land, edge_sea, edge_nodes, node_edges).

    (The blocks that call these helpers run without reference counting, so early returns cost nothing;
    with counting, Numba kept atomic operations on the array arguments of inlined helpers that had them.)"""
    edge_owner, edge_kind, node_owner, edge_nodes, node_edges = st.edge_owner, st.edge_kind, st.node_owner, \
        bd.edge_nodes, bd.node_edges
    if edge_owner[e] >= 0:
        return False
    if not ((kind == ROAD and bd.edge_land[e]) or (kind == SHIP and bd.edge_sea[e])):
        return False
    for side in range(2):
        n = edge_nodes[e, side]
        if node_owner[n] == player:
            return True
        if node_owner[n] < 0:
            for k in range(3):
                f = node_edges[n, k]
                if f >= 0 and f != e and edge_owner[f] == player and edge_kind[f] == kind:
                    return True
    return False


@block(_nrt=False)
def discard_count(cards):
    """On a 7, a player holding more than 7 cards discards half of them, rounded down."""
    return cards // 2 if cards > DISCARD_ABOVE else 0


@block(_nrt=False)
def longest_route_holder(routes, holder):
    """Who holds the longest-route card once routes (per player) changed: a route of at least 5 is
    needed; the holder keeps the card on a tie; a tie for the longest without the holder sets the card
    aside (-1), as does a longest route under 5."""
    best = routes[0]
    for q in range(1, routes.shape[0]):
        best = max(best, routes[q])
    if holder >= 0 and routes[holder] >= LONGEST_ROUTE_MIN and routes[holder] == best:
        return holder
    if best < LONGEST_ROUTE_MIN:
        return -1
    leader, count = -1, 0
    for q in range(routes.shape[0]):
        if routes[q] == best:
            leader, count = q, count + 1
    return leader if count == 1 else -1


@block(_nrt=False)
def largest_army_holder(knights, player, holder):
    """After `player` played a knight: he takes the largest-army card with at least 3 knights and more
    than the holder has."""
    if knights[player] >= LARGEST_ARMY_MIN and (holder < 0 or knights[player] > knights[holder]):
        return player
    return holder


@block(_nrt=False, inline="always")
def produce(roll, st, bd, received):
    """Production for a roll: the buildings' claims (production_claims), paid by the bank-shortage rule
    (pay_claims). Adds to st.hands and takes from st.bank; `received` [player, kind, resource] (kind 0
    settlements, 1 cities) ends with what each player's settlements and cities got (no array is
    allocated per roll)."""
    production_claims(roll, st.robber[0], st.hex_terrain, st.hex_token, bd.hex_nodes, st.node_owner, st.node_level,
                      received)
    pay_claims(roll, st, bd, received)


@nb.njit(cache=True, _nrt=False, inline="always")
def production_claims(roll, robber, hex_terrain, hex_token, hex_nodes, node_owner, node_level, claims):
    """claims [player, kind, resource]: what each player's settlements (kind 0) and cities (kind 1) beside a
    hex with this token, but the robber's, are owed (1 card a settlement, 2 a city), the bank aside."""
    claims[:] = 0
    for h in range(hex_terrain.shape[0]):
        if hex_token[h] != roll or h == robber or hex_terrain[h] >= DESERT:
            continue
        for i in range(6):
            n = hex_nodes[h, i]
            if node_owner[n] >= 0:
                claims[node_owner[n], node_level[n] - 1, hex_terrain[h]] += node_level[n]


@nb.njit(cache=True, _nrt=False, inline="always")
def pay_claims(roll, st, bd, claims):
    """The bank-shortage rule over the buildings' claims: when the bank cannot pay everybody entitled to a
    resource, nobody gets it, unless only one player is entitled, who gets what is left (building by
    building in board order, hex then corner). Pays from st.bank into st.hands; claims ends with what was
    paid."""
    bank, hands = st.bank, st.hands
    n_players = hands.shape[0]
    for r in range(N_RES):
        total = 0
        entitled = -1
        claimants = 0
        for p in range(n_players):
            claim = claims[p, 0, r] + claims[p, 1, r]
            total += claim
            if claim > 0:
                entitled, claimants = p, claimants + 1
        if total == 0 or total <= bank[r]:
            for p in range(n_players):
                hands[p, r] += claims[p, 0, r] + claims[p, 1, r]
            bank[r] -= total
        elif claimants == 1:
            _pay_lone_claim(roll, r, entitled, st, bd, claims)
        else:
            for p in range(n_players):
                claims[p, 0, r] = 0
                claims[p, 1, r] = 0


@block(_nrt=False)
def _pay_lone_claim(roll, r, p, st, bd, received):
    """Player p alone is entitled to resource r and the bank is short: what is left, building by building in
    board order."""
    robber, hex_terrain, hex_token, hex_nodes = st.robber[0], st.hex_terrain, st.hex_token, bd.hex_nodes
    node_owner, node_level, bank, hands = st.node_owner, st.node_level, st.bank, st.hands
    left = bank[r]
    received[p, 0, r] = 0
    received[p, 1, r] = 0
    for h in range(hex_terrain.shape[0]):
        if hex_token[h] != roll or h == robber or hex_terrain[h] != r:
            continue
        for i in range(6):
            n = hex_nodes[h, i]
            if node_owner[n] == p and left > 0:
                paid = min(node_level[n], left)
                received[p, node_level[n] - 1, r] += paid
                left -= paid
    hands[p, r] += bank[r]
    bank[r] = 0


@block()
def longest_route(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes):
    """Length of the player's longest trade route: a trail of his roads and ships, each edge at most
    once. An opponent's building ends a trail; a road and a ship join only at the player's own
    settlement or city."""
    return longest_route_in(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes,
                            np.empty((ROUTE_WORK_ROWS, max(2 * edge_owner.shape[0], node_owner.shape[0]) + 1),
                                     np.int64))


@nb.njit(cache=True, inline="always")
def _walk(start, follow, via0, weight, st_state, st_rest, st_len, limit):
    """Every trail that starts with a piece leaving by one of its ends (state start = 2 * piece + end),
    depth first with an explicit stack (Numba caches no recursion): the longest one's length (stopping
    at `limit`), its last state, and the set of pieces walked. follow[s] holds the pieces that may
    follow state s, via0[s] those of them entered by their end 0 (so left by their end 1); a piece
    counts weight[piece] (1, or the pieces of a chain)."""
    j0 = start >> 1
    used = np.int64(1) << j0
    seen = used
    best, last = weight[j0], start
    depth = 0
    st_state[0] = start
    st_rest[0] = follow[start]
    st_len[0] = best
    while depth >= 0:
        rest = st_rest[depth] & ~used
        if rest == 0:
            used &= ~(np.int64(1) << (st_state[depth] >> 1))
            depth -= 1
            continue
        low = rest & -rest
        st_rest[depth] = rest & ~low
        f = trailing_zeros(low)
        s = 2 * f + (1 if (via0[st_state[depth]] & low) != 0 else 0)
        used |= low
        seen |= low
        st_len[depth + 1] = st_len[depth] + weight[f]
        depth += 1
        st_state[depth] = s
        st_rest[depth] = follow[s]
        if st_len[depth] > best:
            best, last = st_len[depth], s
            if best == limit:
                break
    return best, last, seen


@nb.njit(cache=True, inline="always")
def _passes(mask):
    """A piece end whose follow mask is this meets exactly one piece that may follow: the network passes
    straight through there (joining is symmetric, so that piece meets only this one there too)."""
    return mask != 0 and (mask & (mask - 1)) == 0


@nb.njit(cache=True, inline="always")
def _next_state(follow, via0, s):
    """The state after s where exactly one piece follows it (_passes)."""
    g = trailing_zeros(follow[s])
    return 2 * g + (1 if (via0[s] >> g) & 1 else 0)


@block(_nrt=False)
def longest_route_in(player, edge_owner, edge_kind, node_owner, node_edges, edge_nodes, work):
    """longest_route with caller-owned work space (ROUTE_WORK_ROWS rows, longer than twice the edges and than
    the nodes).

    The player's pieces (at most 63, as a bit mask holds them; 30 in the published game) are numbered
    and, for each piece and each of its ends, the set of his pieces that may follow it through that end
    is kept as a bit mask, with the end each enters by.
    Where his pieces close no loop, every trail is a path in a tree, and the longest is found by two
    walks per tree: the trail end farthest from any point is an end of a longest trail, and the
    farthest from there closes it.
    Where a loop exists every trail is walked, over chains: runs of pieces through the points where
    exactly two of them meet and may join. A longest trail cannot end at such a point (the other piece
    there would lengthen it, or it is a closed loop of its own), so it is made of whole chains, and it
    starts at a chain's end. A loop of pieces with no other piece joining it is a chain with no end: all
    of it is one trail. The walks over chains take a few times fewer steps than over pieces (random
    players' looped networks: about 22 pieces in 7 chains)."""
    local, number, parent, chain_end = work[0], work[1], work[2], work[3]
    follow, via0, st_state, st_rest = work[4], work[5], work[6], work[7]
    st_len, weight, chain_follow, chain_via0, end_chain = work[8], work[9], work[10], work[11], work[12]
    m = 0
    looped = False
    parent[:node_owner.shape[0]] = -1  # union-find over nodes: does a piece join two nodes already joined?
    for e in range(edge_owner.shape[0]):
        if edge_owner[e] != player:
            continue
        local[m] = e
        number[e] = m
        m += 1
        a, b = edge_nodes[e, 0], edge_nodes[e, 1]
        if parent[a] < 0:
            parent[a] = a
        if parent[b] < 0:
            parent[b] = b
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        looped = looped or a == b
        parent[a] = b
    for j in range(m):
        e = local[j]
        weight[j] = 1
        for side in range(2):
            n = edge_nodes[e, side]
            mask = np.int64(0)
            enter0 = np.int64(0)
            if node_owner[n] < 0 or node_owner[n] == player:
                for k in range(3):
                    f = node_edges[n, k]
                    if f >= 0 and f != e and edge_owner[f] == player and (edge_kind[f] == edge_kind[e]
                                                                          or node_owner[n] == player):
                        bit = np.int64(1) << number[f]
                        mask |= bit
                        if edge_nodes[f, 0] == n:
                            enter0 |= bit
            follow[2 * j + side] = mask
            via0[2 * j + side] = enter0
    best = 0
    walked = np.int64(0)
    if not looped:
        for j0 in range(m):
            if (walked >> j0) & 1:
                continue
            # From the point where piece j0's end 0 meets the pieces that may follow it there ...
            there = follow[2 * j0]
            far, far_state = 0, 2 * j0 + 1
            for g in range(-1, m):
                if g >= 0 and ((there >> g) & 1) == 0:
                    continue
                start = 2 * j0 + 1 if g < 0 else 2 * g + (1 if (via0[2 * j0] >> g) & 1 else 0)
                length, last, seen = _walk(start, follow, via0, weight, st_state, st_rest, st_len, m + 1)
                walked |= seen
                if length > far:
                    far, far_state = length, last
            # ... to the farthest trail end, and from there back to the farthest.
            length, _, _ = _walk(far_state ^ 1, follow, via0, weight, st_state, st_rest, st_len, m + 1)
            best = max(best, length)
        return best
    # The chains, each from a piece end where the network does not pass straight through (chain c's ends are
    # chain_end[2c] and [2c + 1], its pieces weight[c]; end_chain maps a piece end back); the rest are loops.
    n_chains = 0
    in_chain = np.int64(0)
    for x in range(2 * m):
        if (in_chain >> (x >> 1)) & 1 or _passes(follow[x]):
            continue
        t, length = x ^ 1, 1
        in_chain |= np.int64(1) << (x >> 1)
        while _passes(follow[t]):
            t = _next_state(follow, via0, t)
            in_chain |= np.int64(1) << (t >> 1)
            length += 1
        chain_end[2 * n_chains], chain_end[2 * n_chains + 1] = x, t
        end_chain[x], end_chain[t] = 2 * n_chains, 2 * n_chains + 1
        weight[n_chains] = length
        n_chains += 1
    for j in range(m):
        if (in_chain >> j) & 1 == 0:  # a loop no other piece joins: all of it is one trail
            t, length = 2 * j + 1, 0
            while (in_chain >> (t >> 1)) & 1 == 0:
                in_chain |= np.int64(1) << (t >> 1)
                length += 1
                t = _next_state(follow, via0, t)
            best = max(best, length)
    # Which chains may follow a chain's end: those whose ends meet it there.
    for y in range(2 * n_chains):
        x = chain_end[y]
        mask = np.int64(0)
        enter0 = np.int64(0)
        rest = follow[x]
        while rest != 0:
            low = rest & -rest
            rest &= ~low
            g = trailing_zeros(low)
            z = end_chain[2 * g + (0 if (via0[x] & low) != 0 else 1)]
            bit = np.int64(1) << (z >> 1)
            mask |= bit
            if z & 1 == 0:
                enter0 |= bit
        chain_follow[y] = mask
        chain_via0[y] = enter0
    for y in range(2 * n_chains):
        length, _, _ = _walk(y ^ 1, chain_follow, chain_via0, weight, st_state, st_rest, st_len, m)
        best = max(best, length)
        if best == m:
            return m  # every piece in one trail: none can be longer
    return best


@nb.njit(cache=True, inline="always")
def hand_size(hands, q):
    total = 0
    for r in range(N_RES):
        total += hands[q, r]
    return total


@nb.njit(cache=True, inline="always")
def random_card(hands, q, u):
    """A card drawn uniformly (by draw u) from player q's hand, by count; -1 if the hand is empty."""
    total = hand_size(hands, q)
    if total == 0:
        return -1
    k = below(u, total)
    for r in range(N_RES):
        if k < hands[q, r]:
            return r
        k -= hands[q, r]
    return -1


@nb.njit(cache=True, inline="always")
def affordable(hands, p, costs, c):
    """Can player p pay cost row c?"""
    for r in range(N_RES):
        if hands[p, r] < costs[c, r]:
            return False
    return True


@nb.njit(cache=True, inline="always")
def pay(hands, p, bank, costs, c):
    for r in range(N_RES):
        hands[p, r] -= costs[c, r]
        bank[r] += costs[c, r]


@block(_nrt=False)
def settle(p, n, node_owner, node_level, left, rate, harbour_rate, harbour_resource):
    """A settlement of p's on node n (one fewer in his box); a harbour there improves p's trade rates:
    3:1 for every resource, or 2:1 for its own."""
    node_owner[n] = p
    node_level[n] = SETTLEMENT
    left[p, SETTLEMENTS] -= 1
    if harbour_rate[n] < BANK_RATE and harbour_resource[n] < 0:
        for r in range(N_RES):
            rate[p, r] = min(rate[p, r], harbour_rate[n])
    elif harbour_rate[n] < BANK_RATE:
        rate[p, harbour_resource[n]] = min(rate[p, harbour_resource[n]], harbour_rate[n])


@block(_nrt=False)
def movable_ships(p, turn, st, bd, mv_ship, mv_count):
    """Ships p may move (at an open end of a route, not built this turn) into mv_ship, how many destinations
    each has into mv_count; returns how many. Moving ship s changes the legality only of edges at s's two
    nodes, so each count is the legal ship edges (st.n_legal_edge, st.legal_edge) corrected there."""
    n_ship, legal_edge = st.n_legal_edge[p, SHIP - 1], st.legal_edge
    edge_owner, edge_kind, edge_turn, node_owner = st.edge_owner, st.edge_kind, st.edge_turn, st.node_owner
    edge_nodes, node_edges = bd.edge_nodes, bd.node_edges
    n_mv = 0
    for s in range(edge_nodes.shape[0]):
        if edge_owner[s] != p or edge_kind[s] != SHIP or edge_turn[s] == turn:
            continue
        open_end = False
        for side in range(2):
            n = edge_nodes[s, side]
            joined = node_owner[n] == p  # a route goes on through one's own building...
            for k in range(3):
                f = node_edges[n, k]  # ...or another of one's ships; a road meets a ship only at a building
                joined = joined or (f >= 0 and f != s and edge_owner[f] == p and edge_kind[f] == SHIP)
            open_end = open_end or not joined
        if not open_end:
            continue
        count = n_ship
        edge_owner[s] = -1
        for side in range(2):
            n = edge_nodes[s, side]
            for k in range(3):
                e = node_edges[n, k]
                if e < 0 or e == s:
                    continue
                now = route_ok(e, p, SHIP, st, bd)
                count += int(now) - int(legal_edge[p, SHIP - 1, e])
        edge_owner[s] = p
        if count > 0:
            mv_ship[n_mv] = s
            mv_count[n_mv] = count
            n_mv += 1
    return n_mv


@block(_nrt=False)
def ship_destination(x, a, p, st, bd):
    """The x-th edge (from 0) where p may put his ship from edge a once it is lifted. Only the edges
    sharing a node with a can answer differently than the legal-ship flags kept for p, so only those
    are asked again (the rest read the flags)."""
    edge_owner, edge_nodes, legal_edge = st.edge_owner, bd.edge_nodes, st.legal_edge
    a0, a1 = edge_nodes[a, 0], edge_nodes[a, 1]
    edge_owner[a] = -1
    found = -1
    for e in range(edge_nodes.shape[0]):
        if e == a:
            continue
        n0, n1 = edge_nodes[e, 0], edge_nodes[e, 1]
        if n0 == a0 or n0 == a1 or n1 == a0 or n1 == a1:
            ok = route_ok(e, p, SHIP, st, bd)
        else:
            ok = legal_edge[p, SHIP - 1, e]
        if ok:
            if x == 0:
                found = e
                break
            x -= 1
    edge_owner[a] = p
    return found
