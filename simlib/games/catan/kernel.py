"""The batch kernel: whole games of Catan (with Seafarers ships), compiled with Numba.

At every decision the legal actions are counted by family (roads, ships, settlements, cities, a
development card, card plays and trades, ship moves, ending the turn) and the policy picks one by
index: `random` uniformly, `weighted` by family weights, `builder` by its heuristic. Every draw is
keyed by (seed, play, counter), so a play replays alone. Where the speed comes from is in
docs/games/catan.md; the rules it applies are in rules.py.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.rng import below, draw, play_key, unit
from .constants import (
    EV_BUY_DEV,
    EV_CITY,
    EV_DISCARD,
    EV_END_TURN,
    EV_HEX,
    EV_KNIGHT,
    EV_MONOPOLY,
    EV_MOVE_SHIP,
    EV_PRODUCE,
    EV_ROAD,
    EV_ROAD_BUILDING,
    EV_ROBBER,
    EV_ROLL,
    EV_SETTLEMENT,
    EV_SETUP_ROAD,
    EV_SETUP_SETTLEMENT,
    EV_SHIP,
    EV_STEAL,
    EV_TRADE,
    EV_YEAR_OF_PLENTY,
)
from .rules import (
    CITY,
    ROAD,
    SETTLEMENT,
    SHIP,
    can_settle,
    discard_count,
    largest_army_holder,
    longest_route_holder,
    longest_route_in,
    produce,
    route_ok,
)

N_RES = 5
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
WON, TURN_LIMIT = 0, 1
RANDOM, WEIGHTED, BUILDER = 0, 1, 2
ROBBER_SOURCE, DISCARD_SOURCE = 0, 1


@nb.njit(cache=True, inline="always")
def _log(ev, pos, turn, seat, action, a, b, c):
    """Event row `pos` (when events are being kept: ev has rows); returns the next position."""
    if ev.shape[0] > 0:
        ev[pos, 0], ev[pos, 1], ev[pos, 2], ev[pos, 3], ev[pos, 4], ev[pos, 5] = turn, seat, action, a, b, c
    return pos + 1


@nb.njit(cache=True, inline="always")
def _affordable(hands, p, costs, c):
    """Can player p pay cost row c? (Rows are passed by index: a slice costs two atomic reference counts.)"""
    for r in range(N_RES):
        if hands[p, r] < costs[c, r]:
            return False
    return True


@nb.njit(cache=True, inline="always")
def _pay(hands, p, bank, costs, c):
    for r in range(N_RES):
        hands[p, r] -= costs[c, r]
        bank[r] += costs[c, r]


@nb.njit(cache=True, inline="always")
def _hand_size(hands, q):
    total = 0
    for r in range(N_RES):
        total += hands[q, r]
    return total


@nb.njit(cache=True, inline="always")
def _refresh_edge(f, q, legal_edge, n_legal_edge, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner,
                  node_edges):
    """Re-decide whether player q may put a road or a ship on edge f."""
    for kind in range(ROAD, SHIP + 1):
        now = route_ok(f, q, kind, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner, node_edges)
        n_legal_edge[q, kind - 1] += int(now) - int(legal_edge[q, kind - 1, f])
        legal_edge[q, kind - 1, f] = now


@nb.njit(cache=True, inline="always")
def _refresh_node(n, q, legal_node, n_legal_node, node_land, node_owner, node_nodes, node_edges, edge_owner):
    """Re-decide whether player q may put a settlement on node n."""
    now = can_settle(n, q, False, node_land, node_owner, node_nodes, node_edges, edge_owner)
    n_legal_node[q] += int(now) - int(legal_node[q, n])
    legal_node[q, n] = now


@nb.njit(cache=True)
def _edge_changed(e, p, piece, legal_edge, n_legal_edge, legal_node, n_legal_node, node_land, node_nodes, edge_land,
                  edge_sea, edge_owner, edge_kind, edge_nodes, node_owner, node_edges):
    """A piece (ROAD or SHIP) of player p's came onto or left edge e. Edge e's legality changes for
    everybody; that of the edges sharing a node with e only for p and that kind of piece, since they
    read e only to ask whether p has a piece of their kind there; e's two nodes only for p.
    (One call site per helper: each inlined call that runs costs reference counts on its arrays.)"""
    n_players = legal_edge.shape[0]
    for slot in range(2 * n_players + 6):
        if slot < 2 * n_players:
            f, q, kind = e, slot // 2, ROAD + slot % 2
        else:
            f = node_edges[edge_nodes[e, (slot - 2 * n_players) // 3], (slot - 2 * n_players) % 3]
            q, kind = p, piece
            if f < 0 or f == e:
                continue
        now = route_ok(f, q, kind, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner, node_edges)
        n_legal_edge[q, kind - 1] += int(now) - int(legal_edge[q, kind - 1, f])
        legal_edge[q, kind - 1, f] = now
    for side in range(2):
        _refresh_node(edge_nodes[e, side], p, legal_node, n_legal_node, node_land, node_owner, node_nodes, node_edges,
                      edge_owner)


@nb.njit(cache=True)
def _node_changed(n, legal_edge, n_legal_edge, legal_node, n_legal_node, node_land, node_nodes, edge_land, edge_sea,
                  edge_owner, edge_kind, edge_nodes, node_owner, node_edges):
    """A settlement came onto node n: the edges at n change for everybody (it joins its owner's
    pieces there and cuts everyone else's); n and its neighbours are closed by the distance rule."""
    for k in range(3):
        f = node_edges[n, k]
        if f >= 0:
            for q in range(legal_edge.shape[0]):
                _refresh_edge(f, q, legal_edge, n_legal_edge, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes,
                              node_owner, node_edges)
    for k in range(4):
        m = n if k == 3 else node_nodes[n, k]
        if m >= 0:
            for q in range(legal_node.shape[0]):
                if legal_node[q, m]:
                    legal_node[q, m] = False
                    n_legal_node[q] -= 1


@nb.njit(cache=True, inline="always")
def _nth_edge(legal_edge, p, kind, k):
    """The k-th edge (from 0) where player p may put a piece of this kind."""
    for i in range(legal_edge.shape[2]):
        if legal_edge[p, kind - 1, i]:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True, inline="always")
def _nth_node(legal_node, p, k):
    """The k-th node (from 0) where player p may put a settlement."""
    for i in range(legal_node.shape[1]):
        if legal_node[p, i]:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True, inline="always")
def _nth_settlement(p, k, node_owner, node_level):
    for n in range(node_owner.shape[0]):
        if node_owner[n] == p and node_level[n] == SETTLEMENT:
            if k == 0:
                return n
            k -= 1
    return -1


@nb.njit(cache=True)
def _ship_destination(x, a, p, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner, node_edges,
                      legal_edge):
    """The x-th edge (from 0) where p may put his ship from edge a once it is lifted. Only the edges
    sharing a node with a can answer differently than the legal-ship flags kept for p, so only those
    are asked again (each helper call costs reference counts: the rest read the flags)."""
    a0, a1 = edge_nodes[a, 0], edge_nodes[a, 1]
    edge_owner[a] = -1
    found = -1
    for e in range(edge_nodes.shape[0]):
        if e == a:
            continue
        n0, n1 = edge_nodes[e, 0], edge_nodes[e, 1]
        if n0 == a0 or n0 == a1 or n1 == a0 or n1 == a1:
            ok = route_ok(e, p, SHIP, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner,
                           node_edges)
        else:
            ok = legal_edge[p, SHIP - 1, e]
        if ok:
            if x == 0:
                found = e
                break
            x -= 1
    edge_owner[a] = p
    return found


@nb.njit(cache=True)
def _movable_ships(p, turn, n_ship, legal_edge, mv_ship, mv_count, edge_land, edge_sea, edge_owner, edge_kind,
                   edge_nodes, edge_turn, node_owner, node_edges):
    """Ships p may move (at an open end of a route, not built this turn) and how many destinations each
    has. Moving ship s changes the legality only of edges at s's two nodes, so each count is the
    legal ship edges (n_ship of them) corrected there."""
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
                now = route_ok(e, p, SHIP, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner,
                                node_edges)
                count += int(now) - int(legal_edge[p, SHIP - 1, e])
        edge_owner[s] = p
        if count > 0:
            mv_ship[n_mv] = s
            mv_count[n_mv] = count
            n_mv += 1
    return n_mv


@nb.njit(cache=True)
def _rob(p, code, robber, key, counter, land_hexes, hex_nodes, hex_pips, node_owner, node_level, hands, lost, buf):
    """Move the robber to another land hex and steal one card from an adjacent opponent.

    random: uniform hex and victim. builder: the richest hex of the leading opponent (most buildings
    weighted by level) that touches none of its own buildings, and steals from that leader if he is there.
    Returns the robber's hex, the draw counter, the victim (-1: nobody) and the card stolen."""
    n_players = hands.shape[0]
    if code == BUILDER:
        score = np.zeros(n_players, np.int64)
        for n in range(node_owner.shape[0]):
            if node_owner[n] >= 0:
                score[node_owner[n]] += node_level[n]
        leader = -1
        for q in range(n_players):
            if q != p and (leader < 0 or score[q] > score[leader]):
                leader = q
        best = -1
        best_value = -1
        for k in range(land_hexes.shape[0]):
            h = land_hexes[k]
            if h == robber:
                continue
            own = False
            theirs = 0
            for i in range(6):
                q = node_owner[hex_nodes[h, i]]
                own = own or q == p
                if q == leader:
                    theirs += node_level[hex_nodes[h, i]]
            value = theirs * 100 + hex_pips[h]
            if not own and value > best_value:
                best, best_value = h, value
        if best >= 0:
            robber = best
        else:
            code = 0
    if code != BUILDER:
        m = 0
        for k in range(land_hexes.shape[0]):
            if land_hexes[k] != robber:
                buf[m] = land_hexes[k]
                m += 1
        robber = buf[below(draw(key, counter), m)]
        counter += 1
    m = 0
    for k in range(6):
        q = node_owner[hex_nodes[robber, k]]
        if q >= 0 and q != p and _hand_size(hands, q) > 0:
            seen = False
            for x in range(m):
                seen = seen or buf[x] == q
            if not seen:
                buf[m] = q
                m += 1
    victim = r = -1
    if m > 0:
        victim = buf[below(draw(key, counter), m)]
        counter += 1
        r = _random_card(hands, victim, draw(key, counter))
        counter += 1
        hands[victim, r] -= 1
        hands[p, r] += 1
        lost[victim, 0, r] += 1
    return robber, counter, victim, r


@nb.njit(cache=True)
def _builder_pick(p, hands, bank, rate, costs, left, deck_pos, hex_pips_node, node_nodes, node_land, node_owner,
                  edge_nodes, c_road, c_ship, c_settle, c_city, c_buy, n_settle, n_city, road_list, settle_list,
                  city_list, buf_t, buf_a, buf_b, m):
    """The builder's choice as an index into the decision's flattened action list (0: end the turn):
    city > settlement > development card > a road toward the best free site, and a bank or harbour
    trade that completes one of those builds."""
    if c_city > 0:
        best = 0
        for j in range(c_city):
            if hex_pips_node[city_list[j]] > hex_pips_node[city_list[best]]:
                best = j
        return 1 + c_road + c_ship + c_settle + best
    if c_settle > 0:
        best = 0
        for j in range(c_settle):
            if hex_pips_node[settle_list[j]] > hex_pips_node[settle_list[best]]:
                best = j
        return 1 + c_road + c_ship + best
    if c_buy > 0:
        return 1 + c_road + c_ship + c_settle + c_city
    if c_road > 0 and n_settle == 0 and left[p, 0] > 0:
        best = -1
        best_value = -1
        for j in range(c_road):
            e = road_list[j]
            for side in range(2):
                u = edge_nodes[e, side]
                for k in range(4):
                    c = u if k == 3 else node_nodes[u, k]
                    if c < 0 or not node_land[c] or node_owner[c] >= 0:
                        continue
                    free = True
                    for x in range(3):
                        nb_ = node_nodes[c, x]
                        free = free and (nb_ < 0 or node_owner[nb_] < 0)
                    if free and hex_pips_node[c] > best_value:
                        best, best_value = j, hex_pips_node[c]
        if best >= 0:
            return 1 + best
    # A trade that completes a build, in the same order of wishes.
    for target in (2, 1, 3):
        if (target == 2 and (left[p, 1] == 0 or n_city == 0)) or (target == 1 and (left[p, 0] == 0 or n_settle == 0)) \
                or (target == 3 and deck_pos >= 25):
            continue
        for need in range(N_RES):
            if hands[p, need] >= costs[target, need] or bank[need] == 0:
                continue
            for give in range(N_RES):
                if give != need and hands[p, give] - costs[target, give] >= rate[p, give]:
                    for x in range(m):
                        if buf_t[x] == 10 and buf_a[x] == give and buf_b[x] == need:
                            return 1 + c_road + c_ship + c_settle + c_city + c_buy + x
    return 0


@nb.njit(cache=True)
def _settle(p, n, node_owner, node_level, left, rate, harbour_rate, harbour_resource):
    """A settlement of p's on node n; a harbour there improves p's trade rates."""
    node_owner[n] = p
    node_level[n] = SETTLEMENT
    left[p, 0] -= 1
    if harbour_rate[n] == 3:
        for r in range(N_RES):
            rate[p, r] = min(rate[p, r], 3)
    elif harbour_rate[n] == 2:
        rate[p, harbour_resource[n]] = 2


@nb.njit(cache=True)
def _expose(exposure, p, n, level, sign, node_hexes, hex_terrain, hex_pips):
    """A building of p's at level `level` (1 settlement, 2 city) came onto (sign 1) or left (sign -1)
    node n: its pips times its cards per producing hex beside it, in exposure [player, kind, resource]
    (what one roll is expected to pay it, times 36; the robber and the bank are not asked)."""
    for k in range(3):
        h = node_hexes[n, k]
        if h >= 0 and hex_terrain[h] < 5:
            exposure[p, level - 1, hex_terrain[h]] += sign * level * hex_pips[h]


@nb.njit(cache=True, inline="always")
def _random_card(hands, q, u):
    """A card drawn uniformly from player q's hand (by count); -1 if the hand is empty."""
    total = _hand_size(hands, q)
    if total == 0:
        return -1
    k = below(u, total)
    for r in range(N_RES):
        if k < hands[q, r]:
            return r
        k -= hands[q, r]
    return -1


class CatanOutputs(NamedTuple):
    """simulate_games' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    turns: np.ndarray          # [plays] turns played
    end_reason: np.ndarray     # [plays] WON or TURN_LIMIT
    winner: np.ndarray         # [plays] the winning seat (-1 on the turn limit)
    points: np.ndarray         # [plays, seats] victory points
    pieces: np.ndarray         # [plays, seats, 4] settlements, cities, roads, ships on the board
    dev_cards: np.ndarray      # [plays, seats, 2] development cards bought, played
    knights: np.ndarray        # [plays, seats] knights played
    longest_route: np.ndarray  # [plays, seats] length of the longest trade route
    holders: np.ndarray        # [plays, seats, 2] holds the longest-route card, the largest-army card
    received: np.ndarray       # [plays, seats, resources] received (set-up and production)
    lost: np.ndarray           # [plays, seats, 2, resources] lost to the robber, to discards
    production: np.ndarray     # [plays, seats, 2, resources] received from rolls by settlements, by cities
    hands: np.ndarray          # [plays, seats, resources] the final hand
    bank: np.ndarray           # [plays, resources] the final bank
    vp_cards: np.ndarray       # [plays, seats] victory-point cards held
    actions: np.ndarray        # [plays] actions taken
    rolls: np.ndarray          # [plays, 13] how often each dice sum was rolled
    n_events: np.ndarray       # [plays] event rows (the count-then-fill pass's counts)
    expected: np.ndarray       # [plays, seats, 2, resources] cards the dice promised settlements, cities


@nb.njit(cache=True)
def simulate_games(seed, first_play, n_plays, n_players, max_turns, codes, prm, map_terrain, map_token, land_hexes,
                   random_hexes, terrain_bag, spiral_hexes, spiral_tokens, hex_nodes, node_hexes, node_nodes,
                   node_edges, node_land, edge_nodes, edge_land, edge_sea, harbour_rate, harbour_resource, costs,
                   dev_deck, ev, ev_start):
    """Plays first_play .. first_play+n_plays-1; player p's policy is codes[p] (0 random, 1 weighted by
    action family, 2 builder) with parameters prm[p].

    Returns per play: turns, end reason, winner (-1 on the turn limit); per play and player: points,
    settlements, cities, roads, ships, dev cards bought and played, knights, longest route, holder
    flags, resources received [5], lost to the robber and to discards [2, 5], production by building kind
    (0 settlement, 1 city) [2, 5], final hand [5], victory-point cards; per play the final bank [5],
    the actions taken, how often each dice sum was rolled [13] and the number of events; last, per play
    and player the cards the dice promised by building kind [2, 5]: at every roll (a 7 included), each
    building's cards times pips(token)/36 for each producing hex beside it, robber and bank ignored.

    The board: the map's terrain and tokens (map_terrain -1: drawn, terrain_bag shuffled over
    random_hexes; map_token -1: laid along spiral_hexes in spiral_tokens' order, skipping the desert).

    Events: ev has no rows, or one per event of these plays, play i's from row ev_start[i] (the counts
    of a first pass); each row is turn, seat, action (constants.EVENT_ACTIONS) and three arguments.
    """
    n_hex = hex_nodes.shape[0]
    n_nodes = node_nodes.shape[0]
    n_edges = edge_nodes.shape[0]
    P = n_players
    turns_out = np.zeros(n_plays, np.int32)
    reason_out = np.zeros(n_plays, np.int8)
    winner_out = np.full(n_plays, -1, np.int8)
    points_out = np.zeros((n_plays, P), np.int8)
    pieces_out = np.zeros((n_plays, P, 4), np.int8)       # settlements, cities, roads, ships on the board
    dev_out = np.zeros((n_plays, P, 2), np.int8)          # bought, played
    knights_out = np.zeros((n_plays, P), np.int8)
    route_out = np.zeros((n_plays, P), np.int8)
    holders_out = np.zeros((n_plays, P, 2), np.bool_)     # longest route, largest army
    received_out = np.zeros((n_plays, P, N_RES), np.int16)
    lost_out = np.zeros((n_plays, P, 2, N_RES), np.int16)  # to the robber, to discards
    production_out = np.zeros((n_plays, P, 2, N_RES), np.int16)
    expected_out = np.zeros((n_plays, P, 2, N_RES), np.float64)

    hex_terrain = np.full(n_hex, 6, np.int64)
    hex_token = np.zeros(n_hex, np.int64)
    node_owner = np.empty(n_nodes, np.int64)
    node_level = np.empty(n_nodes, np.int64)
    edge_owner = np.empty(n_edges, np.int64)
    edge_kind = np.empty(n_edges, np.int64)
    edge_turn = np.empty(n_edges, np.int64)
    hands = np.empty((P, N_RES), np.int64)
    bank = np.empty(N_RES, np.int64)
    received = np.empty((P, N_RES), np.int64)
    by_kind = np.empty((P, 2, N_RES), np.int64)
    # The dice's promise, in 36ths of a card: per roll, exposure [player, kind, resource] (kept where a
    # building comes or goes) is added to promised.
    exposure = np.empty((P, 2, N_RES), np.int64)
    promised = np.empty((P, 2, N_RES), np.int64)
    deck = np.empty(25, np.int64)
    dev_hand = np.empty((P, 5), np.int64)
    dev_new = np.empty((P, 5), np.int64)
    left = np.empty((P, 4), np.int64)  # settlements, cities, roads, ships still in the box
    knights = np.empty(P, np.int64)
    routes = np.empty(P, np.int64)
    building_points = np.empty(P, np.int64)
    rate = np.empty((P, N_RES), np.int64)
    buf_a = np.empty(n_edges * 4 + 64, np.int64)
    buf_b = np.empty(n_edges * 4 + 64, np.int64)
    buf_t = np.empty(n_edges * 4 + 64, np.int64)
    terrains = np.empty(terrain_bag.shape[0], np.int64)
    # Where each player may put a road or ship [player, kind - 1, edge] and a settlement [player, node],
    # with their counts; updated where a piece lands or leaves, never recomputed whole during a game.
    route_work = np.empty((9, max(n_edges, n_nodes) + 1), np.int64)
    legal_edge = np.zeros((P, 2, n_edges), np.bool_)
    n_legal_edge = np.zeros((P, 2), np.int64)
    legal_node = np.zeros((P, n_nodes), np.bool_)
    n_legal_node = np.zeros(P, np.int64)
    road_list = np.empty(n_edges, np.int64)  # the builder's lists of its options
    settle_list = np.empty(n_nodes, np.int64)
    city_list = np.empty(n_nodes, np.int64)
    mv_ship = np.empty(n_edges, np.int64)
    mv_count = np.empty(n_edges, np.int64)
    actions_out = np.zeros(n_plays, np.int32)
    rolls_out = np.zeros((n_plays, 13), np.int32)
    hex_pips = np.zeros(n_hex, np.int64)
    node_pips = np.zeros(n_nodes, np.int64)
    received_tmp = np.zeros((P, N_RES), np.int64)
    hands_out = np.zeros((n_plays, P, N_RES), np.int16)
    bank_out = np.zeros((n_plays, N_RES), np.int16)
    vp_out = np.zeros((n_plays, P), np.int8)
    events_out = np.zeros(n_plays, np.int64)
    bought = np.zeros(P, np.int64)
    played = np.zeros(P, np.int64)
    lost = np.zeros((P, 2, N_RES), np.int64)

    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        counter = 0
        # The board: drawn terrain shuffled over its hexes, tokens along the spiral skipping the desert.
        terrains[:] = terrain_bag
        for c in range(terrains.shape[0] - 1, 0, -1):
            j = below(draw(key, counter), c + 1)
            counter += 1
            terrains[c], terrains[j] = terrains[j], terrains[c]
        hex_terrain[:] = map_terrain
        hex_token[:] = map_token
        for k in range(random_hexes.shape[0]):
            hex_terrain[random_hexes[k]] = terrains[k]
        t = 0
        for k in range(spiral_hexes.shape[0]):
            h = spiral_hexes[k]
            if hex_terrain[h] == 5:
                hex_token[h] = 0
            elif hex_token[h] < 0:
                hex_token[h] = spiral_tokens[t]
                t += 1
        robber = -1
        for k in range(land_hexes.shape[0]):
            if hex_terrain[land_hexes[k]] == 5 and robber < 0:
                robber = land_hexes[k]  # the robber starts on the desert
        pos = ev_start[i] if ev.shape[0] > 0 else 0
        first_pos = pos
        for k in range(land_hexes.shape[0]):
            h = land_hexes[k]
            pos = _log(ev, pos, -1, -1, EV_HEX, h, hex_terrain[h], hex_token[h])
        for h in range(n_hex):
            hex_pips[h] = 6 - abs(7 - hex_token[h]) if hex_token[h] > 0 else 0
        for n in range(n_nodes):
            node_pips[n] = 0
            for k in range(3):
                if node_hexes[n, k] >= 0:
                    node_pips[n] += hex_pips[node_hexes[n, k]]
        # Pieces, cards and the bank.
        node_owner[:] = -1
        node_level[:] = 0
        edge_owner[:] = -1
        edge_kind[:] = 0
        edge_turn[:] = -1
        hands[:] = 0
        bank[:] = 19
        received[:] = 0
        by_kind[:] = 0
        exposure[:] = 0
        promised[:] = 0
        dev_hand[:] = 0
        dev_new[:] = 0
        knights[:] = 0
        routes[:] = 0
        building_points[:] = 0
        rate[:] = 4
        for p in range(P):
            left[p, 0], left[p, 1], left[p, 2], left[p, 3] = 5, 4, 15, 15
        c = 0
        for card in range(5):
            for _ in range(dev_deck[card]):
                deck[c] = card
                c += 1
        for c in range(24, 0, -1):
            j = below(draw(key, counter), c + 1)
            counter += 1
            deck[c], deck[j] = deck[j], deck[c]
        deck_pos = 0
        bought[:] = 0
        played[:] = 0
        lost[:] = 0
        longest_holder = -1
        army_holder = -1
        actions = 0

        # Set-up in snake order: a settlement and a road each; the second settlement yields.
        for step in range(2 * P):
            p = step if step < P else 2 * P - 1 - step
            m = 0
            for n in range(n_nodes):
                if can_settle(n, p, True, node_land, node_owner, node_nodes, node_edges, edge_owner):
                    buf_a[m] = n
                    m += 1
            n = buf_a[below(draw(key, counter), m)]
            counter += 1
            if codes[p] == BUILDER:  # opening placement by pips and resource variety
                best_value = -1.0
                for j in range(m):
                    c = buf_a[j]
                    kinds = 0
                    for k in range(3):
                        h = node_hexes[c, k]
                        if h >= 0 and hex_terrain[h] < 5:
                            seen = False
                            for k2 in range(k):
                                h2 = node_hexes[c, k2]
                                seen = seen or (h2 >= 0 and hex_terrain[h2] == hex_terrain[h])
                            kinds += not seen
                    value = node_pips[c] + prm[p, 0] * kinds
                    if value > best_value:
                        n, best_value = c, value
            _settle(p, n, node_owner, node_level, left, rate, harbour_rate, harbour_resource)
            _expose(exposure, p, n, SETTLEMENT, 1, node_hexes, hex_terrain, hex_pips)
            pos = _log(ev, pos, -1, p, EV_SETUP_SETTLEMENT, n, 0, 0)
            building_points[p] += 1
            if step >= P:
                for k in range(3):
                    h = node_hexes[n, k]
                    if h >= 0 and hex_terrain[h] < 5 and bank[hex_terrain[h]] > 0:
                        hands[p, hex_terrain[h]] += 1
                        received[p, hex_terrain[h]] += 1
                        bank[hex_terrain[h]] -= 1
            m = 0
            for k in range(3):
                e = node_edges[n, k]
                if e >= 0 and edge_land[e] and edge_owner[e] < 0:
                    buf_a[m] = e
                    m += 1
            if m > 0:
                e = buf_a[below(draw(key, counter), m)]
                counter += 1
                edge_owner[e] = p
                edge_kind[e] = ROAD
                left[p, 2] -= 1
                pos = _log(ev, pos, -1, p, EV_SETUP_ROAD, e, 0, 0)
        legal_edge[:] = False
        n_legal_edge[:] = 0
        legal_node[:] = False
        n_legal_node[:] = 0
        for q in range(P):
            for e in range(n_edges):
                _refresh_edge(e, q, legal_edge, n_legal_edge, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes,
                              node_owner, node_edges)
            for n in range(n_nodes):
                _refresh_node(n, q, legal_node, n_legal_node, node_land, node_owner, node_nodes, node_edges,
                              edge_owner)

        winner = -1
        turn = 0
        while turn < max_turns and winner < 0:
            p = turn % P
            for card in range(5):
                dev_new[p, card] = 0
            dev_played = False
            ship_moved = False
            n_mv = 0
            have_moves = False
            # Before the roll: roll, or play a knight.
            rolled = False
            knight_now = False  # a knight chosen after the roll, played by the step below
            while winner < 0:
                # A player wins on reaching 10 points on his own turn: checked before each of his steps,
                # so points gained on another's turn (a longest route handed over) win as his turn begins.
                if building_points[p] + dev_hand[p, VICTORY_POINT] + 2 * (longest_holder == p) \
                        + 2 * (army_holder == p) >= 10:
                    winner = p
                    break
                if knight_now:
                    knight_now = False
                    action = -2
                elif not rolled:
                    can_knight = not dev_played and dev_hand[p, KNIGHT] - dev_new[p, KNIGHT] > 0
                    if can_knight and below(draw(key, counter), 2) == 1:
                        counter += 1
                        action = -2  # knight before the roll
                    else:
                        counter += 1
                        action = -1  # roll
                else:
                    action = 0
                if action == -1:
                    rolled = True
                    actions += 1
                    d = below(draw(key, counter), 6) + below(draw(key, counter + 1), 6) + 2
                    counter += 2
                    rolls_out[i, d] += 1
                    for q in range(P):
                        for r in range(N_RES):
                            promised[q, 0, r] += exposure[q, 0, r]
                            promised[q, 1, r] += exposure[q, 1, r]
                    pos = _log(ev, pos, turn, p, EV_ROLL, d, 0, 0)
                    if d == 7:
                        for q in range(P):
                            for _ in range(discard_count(_hand_size(hands, q))):
                                r = _random_card(hands, q, draw(key, counter))
                                counter += 1
                                hands[q, r] -= 1
                                bank[r] += 1
                                lost[q, DISCARD_SOURCE, r] += 1
                                pos = _log(ev, pos, turn, q, EV_DISCARD, r, 0, 0)
                        action = -3  # move the robber
                    else:
                        produce(d, robber, hex_terrain, hex_token, hex_nodes, node_owner, node_level, bank, hands,
                                received_tmp)
                        for q in range(P):
                            for r in range(N_RES):
                                received[q, r] += received_tmp[q, r]
                                if received_tmp[q, r] > 0:
                                    pos = _log(ev, pos, turn, q, EV_PRODUCE, r, received_tmp[q, r], 0)
                        # Attribute by building kind (settlements first when a shortage paid less).
                        for h in range(n_hex):
                            if hex_token[h] != d or h == robber or hex_terrain[h] >= 5:
                                continue
                            for k in range(6):
                                n = hex_nodes[h, k]
                                if node_owner[n] >= 0 and received_tmp[node_owner[n], hex_terrain[h]] > 0:
                                    q = node_owner[n]
                                    r = hex_terrain[h]
                                    amount = min(node_level[n], received_tmp[q, r])
                                    by_kind[q, node_level[n] - 1, r] += amount
                                    received_tmp[q, r] -= amount
                        continue
                if action == -2:  # a knight, before or after the roll
                    pos = _log(ev, pos, turn, p, EV_KNIGHT, int(rolled), 0, 0)
                    dev_hand[p, KNIGHT] -= 1
                    played[p] += 1
                    dev_played = True
                    knights[p] += 1
                    army_holder = largest_army_holder(knights, p, army_holder)
                    action = -3
                if action == -3:
                    # The robber moves to another land hex and steals from an adjacent opponent.
                    robber, counter, victim, r = _rob(p, codes[p], robber, key, counter, land_hexes, hex_nodes,
                                                      hex_pips, node_owner, node_level, hands, lost, buf_a)
                    pos = _log(ev, pos, turn, p, EV_ROBBER, robber, 0, 0)
                    if victim >= 0:
                        pos = _log(ev, pos, turn, p, EV_STEAL, r, victim, 0)
                    continue
                # After the roll: every legal action, ending the turn included, equally likely.
                c_road = c_ship = c_settle = c_city = 0
                if left[p, 2] > 0 and _affordable(hands, p, costs, 0):
                    c_road = n_legal_edge[p, 0]
                if left[p, 3] > 0 and _affordable(hands, p, costs, 4):
                    c_ship = n_legal_edge[p, 1]
                if left[p, 0] > 0 and _affordable(hands, p, costs, 1):
                    c_settle = n_legal_node[p]
                if left[p, 1] > 0 and _affordable(hands, p, costs, 2):
                    c_city = 5 - left[p, 0]  # his settlements on the board
                if left[p, 3] < 15 and not ship_moved and not have_moves:
                    n_mv = _movable_ships(p, turn, n_legal_edge[p, 1], legal_edge, mv_ship, mv_count, edge_land,
                                          edge_sea, edge_owner, edge_kind, edge_nodes, edge_turn, node_owner,
                                          node_edges)
                    have_moves = True
                c_buy = 1 if deck_pos < 25 and _affordable(hands, p, costs, 3) else 0
                m = 0  # the small action families, listed explicitly
                if not dev_played:
                    if dev_hand[p, KNIGHT] - dev_new[p, KNIGHT] > 0:
                        buf_t[m] = 6
                        m += 1
                    if dev_hand[p, ROAD_BUILDING] - dev_new[p, ROAD_BUILDING] > 0:
                        buf_t[m] = 7
                        m += 1
                    if dev_hand[p, YEAR_OF_PLENTY] - dev_new[p, YEAR_OF_PLENTY] > 0:
                        for r1 in range(N_RES):
                            for r2 in range(r1, N_RES):
                                if bank[r1] >= 1 + (r1 == r2) and bank[r2] >= 1:
                                    buf_t[m], buf_a[m], buf_b[m] = 8, r1, r2
                                    m += 1
                    if dev_hand[p, MONOPOLY] - dev_new[p, MONOPOLY] > 0:
                        for r in range(N_RES):
                            buf_t[m], buf_a[m] = 9, r
                            m += 1
                for give in range(N_RES):
                    if hands[p, give] >= rate[p, give]:
                        for get in range(N_RES):
                            if get != give and bank[get] > 0:
                                buf_t[m], buf_a[m], buf_b[m] = 10, give, get
                                m += 1
                c_move = 0
                if not ship_moved:
                    for j in range(n_mv):
                        c_move += mv_count[j]
                total = 1 + c_road + c_ship + c_settle + c_city + c_buy + m + c_move
                if codes[p] == RANDOM:
                    k = below(draw(key, counter), total)
                elif codes[p] == BUILDER:
                    n_settle = n_city = j = 0
                    for e in range(n_edges):
                        if legal_edge[p, 0, e]:
                            road_list[j] = e
                            j += 1
                    for n in range(n_nodes):
                        if legal_node[p, n]:
                            settle_list[n_settle] = n
                            n_settle += 1
                        if node_owner[n] == p and node_level[n] == SETTLEMENT:
                            city_list[n_city] = n
                            n_city += 1
                    k = _builder_pick(p, hands, bank, rate, costs, left, deck_pos, node_pips, node_nodes, node_land,
                                      node_owner, edge_nodes, c_road, c_ship, c_settle, c_city, c_buy, n_settle,
                                      n_city, road_list, settle_list, city_list, buf_t, buf_a, buf_b, m)
                else:
                    # Weighted: a family by its weight times its size, then an action of it uniformly.
                    sizes = (1, c_road, c_ship, c_settle, c_city, c_buy, m + c_move)
                    weight_sum = 0.0
                    for f in range(7):
                        weight_sum += prm[p, f] * sizes[f]
                    if weight_sum <= 0.0:
                        k = 0
                    else:
                        x = unit(draw(key, counter)) * weight_sum
                        offset = 0
                        k = total - 1
                        for f in range(7):
                            w = prm[p, f] * sizes[f]
                            if x < w:
                                k = offset + below(draw(key, counter + 1), sizes[f])
                                break
                            x -= w
                            offset += sizes[f]
                counter += 2
                actions += 1
                a = 0
                b = 0
                if k == 0:
                    pos = _log(ev, pos, turn, p, EV_END_TURN, 0, 0, 0)
                    break
                k -= 1
                if k < c_road:
                    kind, a = 1, _nth_edge(legal_edge, p, ROAD, k)
                elif k < c_road + c_ship:
                    kind, a = 2, _nth_edge(legal_edge, p, SHIP, k - c_road)
                elif k < c_road + c_ship + c_settle:
                    kind, a = 3, _nth_node(legal_node, p, k - c_road - c_ship)
                elif k < c_road + c_ship + c_settle + c_city:
                    kind, a = 4, _nth_settlement(p, k - c_road - c_ship - c_settle, node_owner, node_level)
                elif k < c_road + c_ship + c_settle + c_city + c_buy:
                    kind = 5
                elif k < c_road + c_ship + c_settle + c_city + c_buy + m:
                    x = k - (c_road + c_ship + c_settle + c_city + c_buy)
                    kind, a, b = buf_t[x], buf_a[x], buf_b[x]
                else:
                    x = k - (c_road + c_ship + c_settle + c_city + c_buy + m)
                    kind = 11
                    for j in range(n_mv):
                        if x < mv_count[j]:
                            a = mv_ship[j]
                            b = _ship_destination(x, a, p, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes,
                                                  node_owner, node_edges, legal_edge)
                            break
                        x -= mv_count[j]
                route_changed = False
                if kind == 1 or kind == 2:
                    _pay(hands, p, bank, costs, 0 if kind == 1 else 4)
                    edge_owner[a] = p
                    edge_kind[a] = ROAD if kind == 1 else SHIP
                    edge_turn[a] = turn
                    left[p, 1 + kind] -= 1
                    pos = _log(ev, pos, turn, p, EV_ROAD if kind == 1 else EV_SHIP, a, 0, 0)
                    _edge_changed(a, p, ROAD if kind == 1 else SHIP, legal_edge, n_legal_edge, legal_node,
                                  n_legal_node, node_land, node_nodes, edge_land, edge_sea, edge_owner, edge_kind,
                                  edge_nodes, node_owner, node_edges)
                    route_changed = True
                elif kind == 3:
                    _pay(hands, p, bank, costs, 1)
                    _settle(p, a, node_owner, node_level, left, rate, harbour_rate, harbour_resource)
                    _expose(exposure, p, a, SETTLEMENT, 1, node_hexes, hex_terrain, hex_pips)
                    pos = _log(ev, pos, turn, p, EV_SETTLEMENT, a, 0, 0)
                    _node_changed(a, legal_edge, n_legal_edge, legal_node, n_legal_node, node_land, node_nodes,
                                  edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner, node_edges)
                    building_points[p] += 1
                    route_changed = True  # a settlement can cut an opponent's route
                elif kind == 4:
                    _pay(hands, p, bank, costs, 2)
                    node_level[a] = CITY
                    _expose(exposure, p, a, SETTLEMENT, -1, node_hexes, hex_terrain, hex_pips)
                    _expose(exposure, p, a, CITY, 1, node_hexes, hex_terrain, hex_pips)
                    pos = _log(ev, pos, turn, p, EV_CITY, a, 0, 0)
                    building_points[p] += 1
                    left[p, 0] += 1
                    left[p, 1] -= 1
                elif kind == 5:
                    _pay(hands, p, bank, costs, 3)
                    card = deck[deck_pos]
                    deck_pos += 1
                    dev_hand[p, card] += 1
                    dev_new[p, card] += 1
                    bought[p] += 1
                    pos = _log(ev, pos, turn, p, EV_BUY_DEV, card, 0, 0)
                elif kind == 6:
                    knight_now = True  # played as before the roll: robber and steal, no discards
                elif kind == 7:
                    dev_hand[p, ROAD_BUILDING] -= 1
                    played[p] += 1
                    dev_played = True
                    pos = _log(ev, pos, turn, p, EV_ROAD_BUILDING, 0, 0, 0)
                    for _ in range(2):  # two free pieces, roads or ships in any mix
                        m = 0
                        for e in range(n_edges):
                            if left[p, 2] > 0 and legal_edge[p, 0, e]:
                                buf_t[m], buf_a[m] = ROAD, e
                                m += 1
                            if left[p, 3] > 0 and legal_edge[p, 1, e]:
                                buf_t[m], buf_a[m] = SHIP, e
                                m += 1
                        if m == 0:
                            break
                        pick = below(draw(key, counter), m)
                        counter += 1
                        edge_owner[buf_a[pick]] = p
                        edge_kind[buf_a[pick]] = buf_t[pick]
                        edge_turn[buf_a[pick]] = turn
                        left[p, 1 + buf_t[pick]] -= 1
                        pos = _log(ev, pos, turn, p, EV_ROAD if buf_t[pick] == ROAD else EV_SHIP, buf_a[pick], 1, 0)
                        _edge_changed(buf_a[pick], p, buf_t[pick], legal_edge, n_legal_edge, legal_node,
                                      n_legal_node, node_land, node_nodes, edge_land, edge_sea, edge_owner, edge_kind,
                                      edge_nodes, node_owner, node_edges)
                    route_changed = True
                elif kind == 8:
                    dev_hand[p, YEAR_OF_PLENTY] -= 1
                    played[p] += 1
                    dev_played = True
                    pos = _log(ev, pos, turn, p, EV_YEAR_OF_PLENTY, a, b, 0)
                    for r in (a, b):
                        hands[p, r] += 1
                        bank[r] -= 1
                elif kind == 9:
                    dev_hand[p, MONOPOLY] -= 1
                    played[p] += 1
                    dev_played = True
                    taken = 0
                    for q in range(P):
                        if q != p:
                            taken += hands[q, a]
                            hands[p, a] += hands[q, a]
                            hands[q, a] = 0
                    pos = _log(ev, pos, turn, p, EV_MONOPOLY, a, taken, 0)
                elif kind == 10:
                    pos = _log(ev, pos, turn, p, EV_TRADE, a, b, rate[p, a])
                    hands[p, a] -= rate[p, a]
                    bank[a] += rate[p, a]
                    hands[p, b] += 1
                    bank[b] -= 1
                elif kind == 11:
                    pos = _log(ev, pos, turn, p, EV_MOVE_SHIP, a, b, 0)
                    edge_owner[a] = -1
                    edge_kind[a] = 0
                    edge_owner[b] = p
                    edge_kind[b] = SHIP
                    edge_turn[b] = turn
                    for e in (a, b):
                        _edge_changed(e, p, SHIP, legal_edge, n_legal_edge, legal_node, n_legal_node, node_land,
                                      node_nodes, edge_land, edge_sea, edge_owner, edge_kind, edge_nodes, node_owner,
                                      node_edges)
                    ship_moved = True
                    route_changed = True
                if route_changed:
                    have_moves = False
                if route_changed:
                    # Only p's routes changed, and on a new settlement those of players with a route there.
                    for q in range(P):
                        affected = q == p
                        if kind == 3:
                            for x in range(3):
                                f = node_edges[a, x]
                                affected = affected or (f >= 0 and edge_owner[f] == q)
                        if affected:
                            routes[q] = longest_route_in(q, edge_owner, edge_kind, node_owner, node_edges, edge_nodes,
                                                     route_work)
                    longest_holder = longest_route_holder(routes, longest_holder)
            turn += 1

        turns_out[i] = turn
        events_out[i] = pos - first_pos
        actions_out[i] = actions
        reason_out[i] = WON if winner >= 0 else TURN_LIMIT
        winner_out[i] = winner
        for q in range(P):
            pts = dev_hand[q, VICTORY_POINT] + 2 * (longest_holder == q) + 2 * (army_holder == q)
            for n in range(n_nodes):
                if node_owner[n] == q:
                    pts += node_level[n]
            points_out[i, q] = pts
            pieces_out[i, q, 0] = 5 - left[q, 0]
            pieces_out[i, q, 1] = 4 - left[q, 1]
            pieces_out[i, q, 2] = 15 - left[q, 2]
            pieces_out[i, q, 3] = 15 - left[q, 3]
            dev_out[i, q, 0] = bought[q]
            dev_out[i, q, 1] = played[q]
            knights_out[i, q] = knights[q]
            route_out[i, q] = longest_route_in(q, edge_owner, edge_kind, node_owner, node_edges, edge_nodes, route_work)
            holders_out[i, q, 0] = longest_holder == q
            holders_out[i, q, 1] = army_holder == q
            for r in range(N_RES):
                received_out[i, q, r] = received[q, r]
                lost_out[i, q, 0, r] = lost[q, 0, r]
                lost_out[i, q, 1, r] = lost[q, 1, r]
                production_out[i, q, 0, r] = by_kind[q, 0, r]
                production_out[i, q, 1, r] = by_kind[q, 1, r]
                expected_out[i, q, 0, r] = promised[q, 0, r] / 36.0
                expected_out[i, q, 1, r] = promised[q, 1, r] / 36.0
            vp_out[i, q] = dev_hand[q, VICTORY_POINT]
            for r in range(N_RES):
                hands_out[i, q, r] = hands[q, r]
        for r in range(N_RES):
            bank_out[i, r] = bank[r]
    return (turns_out, reason_out, winner_out, points_out, pieces_out, dev_out, knights_out, route_out,
            holders_out, received_out, lost_out, production_out, hands_out, bank_out, vp_out, actions_out, rolls_out,
            events_out, expected_out)
