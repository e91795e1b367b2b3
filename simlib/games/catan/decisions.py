"""Catan's policy decisions, compiled with Numba: what a player chooses among what the rules allow.

The blocks list the legal options; these functions pick one by the policy's code (policies.py) and its
parameters prm[p]. `random` is uniform everywhere; `weighted` weighs the action families after the roll;
`builder` has its own opening, actions and robber hex. Choices no policy makes differently (the opening
road, the victim, the cards to discard, the pieces of a road-building card, playing a knight before the
roll) are uniform for every policy. Draws are taken from the play's sequence in the order the game asks.
"""

import numba as nb

from ...core.blocks import block
from ...core.rng import below, unit
from .board import DESERT
from .constants import (
    CHOICE_DRAWS,
    CITIES,
    F_BUY_DEV,
    F_CITY,
    F_END_TURN,
    F_ROAD,
    F_SETTLEMENT,
    F_TRADE,
    N_RES,
    PAY_CITY,
    PAY_DEV,
    PAY_SETTLEMENT,
    ROAD,
    SETTLEMENT,
    SETTLEMENTS,
)
from .legal import locate
from .policies import BUILDER, PARAMS, RANDOM
from .rules import random_card
from .state import peek, take


@block(_nrt=False)
def choose_opening_site(st, bd, sites, m, code, prm, p):
    """A node among sites[:m]: uniform (a draw is taken for every policy), or the builder's best by pips
    plus its variety parameter per distinct resource beside it."""
    n = sites[below(take(st, CHOICE_DRAWS), m)]
    if code == BUILDER:
        best_value = -1.0
        for j in range(m):
            c = sites[j]
            kinds = 0
            for k in range(3):
                h = bd.node_hexes[c, k]
                if h >= 0 and st.hex_terrain[h] < DESERT:
                    seen = False
                    for k2 in range(k):
                        h2 = bd.node_hexes[c, k2]
                        seen = seen or (h2 >= 0 and st.hex_terrain[h2] == st.hex_terrain[h])
                    kinds += not seen
            value = st.node_pips[c] + prm[p, PARAMS.builder.variety] * kinds
            if value > best_value:
                n, best_value = c, value
    return n


@block(_nrt=False)
def choose_opening_road(st, sites, m):
    return sites[below(take(st, CHOICE_DRAWS), m)]


@nb.njit(cache=True, _nrt=False, inline="always")
def choose_knight_before_roll(st, can_knight):
    """Play a knight before rolling? A coin toss when one may (one draw is used either way)."""
    u = take(st, CHOICE_DRAWS)
    return can_knight and below(u, 2) == 1


@block(_nrt=False)
def choose_discard(st, q):
    return random_card(st.hands, q, take(st, CHOICE_DRAWS))


@block(_nrt=False)
def choose_victim(st, victims, m):
    return victims[below(take(st, CHOICE_DRAWS), m)]


@block(_nrt=False)
def choose_free_piece(st, m):
    """One of m listed free pieces (road-building card)."""
    return below(take(st, CHOICE_DRAWS), m)


@block(_nrt=False)
def choose_robber_hex(st, bd, scratch, p, code):
    """Another land hex for the robber. builder: the richest hex of the leading opponent (most buildings
    weighted by level) that touches none of its own buildings, by the opponent's buildings there, then
    pips; random (and the builder with no such hex): uniform, one draw."""
    if code == BUILDER:
        score = scratch.score
        score[:] = 0
        for n in range(st.node_owner.shape[0]):
            if st.node_owner[n] >= 0:
                score[st.node_owner[n]] += st.node_level[n]
        leader = -1
        for q in range(score.shape[0]):
            if q != p and (leader < 0 or score[q] > score[leader]):
                leader = q
        best = -1
        best_value = -1
        for k in range(bd.land_hexes.shape[0]):
            h = bd.land_hexes[k]
            if h == st.robber[0]:
                continue
            own = False
            theirs = 0
            for i in range(6):
                q = st.node_owner[bd.hex_nodes[h, i]]
                own = own or q == p
                if q == leader:
                    theirs += st.node_level[bd.hex_nodes[h, i]]
            value = theirs * 100 + st.hex_pips[h]
            if not own and value > best_value:
                best, best_value = h, value
        if best >= 0:
            return best
    hexes = scratch.candidates
    m = 0
    for k in range(bd.land_hexes.shape[0]):
        if bd.land_hexes[k] != st.robber[0]:
            hexes[m] = bd.land_hexes[k]
            m += 1
    return hexes[below(take(st, CHOICE_DRAWS), m)]


@nb.njit(cache=True, _nrt=False, inline="always")
def choose_action(st, rules, bd, scratch, p, code, prm, family_weight, total):
    """An action after the roll as (family, index within it), from scratch.counts (total actions).
    random: uniform over all, ending the turn included. weighted: a weight group (family_weight maps each
    family to a column of prm) by its weight times its size, then uniform within it. builder: see
    _builder_pick. Two draws are set aside for every decision, used or not."""
    counts = scratch.counts
    if code == RANDOM:
        f, index = locate(counts, below(peek(st, CHOICE_DRAWS, 0), total))
    elif code == BUILDER:
        f, index = _builder_pick(st, rules, bd, scratch, p)
    else:
        f, index = _weighted_pick(counts, prm, p, family_weight, total, peek(st, CHOICE_DRAWS, 0),
                                  peek(st, CHOICE_DRAWS, 1))
    st.drawn[CHOICE_DRAWS] += 2
    return f, index


@block(_nrt=False)
def _weighted_pick(counts, prm, p, family_weight, total, u_group, u_action):
    n_groups = prm.shape[1]
    weight_sum = 0.0
    for g in range(n_groups):
        weight_sum += prm[p, g] * _group_size(counts, family_weight, g)
    if weight_sum <= 0.0:
        return F_END_TURN, 0
    x = unit(u_group) * weight_sum
    for g in range(n_groups):
        size = _group_size(counts, family_weight, g)
        w = prm[p, g] * size
        if x < w:
            j = below(u_action, size)
            for f in range(counts.shape[0]):
                if family_weight[f] == g:
                    if j < counts[f]:
                        return f, j
                    j -= counts[f]
        x -= w
    return locate(counts, total - 1)  # rounding left x past the last group: the last action


@nb.njit(cache=True, inline="always")
def _group_size(counts, family_weight, g):
    size = 0
    for f in range(counts.shape[0]):
        if family_weight[f] == g:
            size += counts[f]
    return size


@block(_nrt=False)
def _builder_pick(st, rules, bd, scratch, p):
    """The builder's choice: city > settlement > development card > a road toward the best free site,
    and a bank or harbour trade that completes one of those builds; else end the turn."""
    counts, hands, costs, left = scratch.counts, st.hands, rules.costs, st.left
    n_settle = n_city = j = 0
    for e in range(bd.edge_nodes.shape[0]):
        if st.legal_edge[p, ROAD - 1, e]:
            scratch.road_list[j] = e
            j += 1
    for n in range(bd.node_nodes.shape[0]):
        if st.legal_node[p, n]:
            scratch.settle_list[n_settle] = n
            n_settle += 1
        if st.node_owner[n] == p and st.node_level[n] == SETTLEMENT:
            scratch.city_list[n_city] = n
            n_city += 1
    if counts[F_CITY] > 0:
        return F_CITY, _best_site(scratch.city_list, counts[F_CITY], st.node_pips)
    if counts[F_SETTLEMENT] > 0:
        return F_SETTLEMENT, _best_site(scratch.settle_list, counts[F_SETTLEMENT], st.node_pips)
    if counts[F_BUY_DEV] > 0:
        return F_BUY_DEV, 0
    if counts[F_ROAD] > 0 and n_settle == 0 and left[p, SETTLEMENTS] > 0:
        best = _road_toward_best_site(st, bd, scratch.road_list, counts[F_ROAD])
        if best >= 0:
            return F_ROAD, best
    # A trade that completes a build, in the same order of wishes.
    for target in (PAY_CITY, PAY_SETTLEMENT, PAY_DEV):
        if (target == PAY_CITY and (left[p, CITIES] == 0 or n_city == 0)) \
                or (target == PAY_SETTLEMENT and (left[p, SETTLEMENTS] == 0 or n_settle == 0)) \
                or (target == PAY_DEV and st.deck_pos[0] >= st.deck.shape[0]):
            continue
        for need in range(N_RES):
            if hands[p, need] >= costs[target, need] or st.bank[need] == 0:
                continue
            for give in range(N_RES):
                if give != need and hands[p, give] - costs[target, give] >= st.rate[p, give]:
                    for x in range(counts[F_TRADE]):
                        if scratch.trade_give[x] == give and scratch.trade_get[x] == need:
                            return F_TRADE, x
    return F_END_TURN, 0


@nb.njit(cache=True, inline="always")
def _best_site(nodes, m, node_pips):
    best = 0
    for j in range(m):
        if node_pips[nodes[j]] > node_pips[nodes[best]]:
            best = j
    return best


@block(_nrt=False)
def _road_toward_best_site(st, bd, roads, m):
    """The road (index into roads[:m]) next to the free site with the most pips that keeps the distance
    rule, within one more road; -1 if none."""
    best = -1
    best_value = -1
    for j in range(m):
        e = roads[j]
        for side in range(2):
            u = bd.edge_nodes[e, side]
            for k in range(4):
                c = u if k == 3 else bd.node_nodes[u, k]
                if c < 0 or not bd.node_land[c] or st.node_owner[c] >= 0:
                    continue
                free = True
                for x in range(3):
                    nb_ = bd.node_nodes[c, x]
                    free = free and (nb_ < 0 or st.node_owner[nb_] < 0)
                if free and st.node_pips[c] > best_value:
                    best, best_value = j, st.node_pips[c]
    return best

