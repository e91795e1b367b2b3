"""Blocks: Berlin's board for one play (the engine's board block, the robber on West Berlin's desert, the
harbours shuffled with the layout) and the opening: snake order as usual, each player's two settlements one
in West and one in East Berlin (either first), none under the wall."""


from ...core.blocks import block
from ...core.rng import below
from ..catan.board import DESERT, NO_HARBOUR
from ..catan.constants import EV_SETUP_ROAD, EV_SETUP_SETTLEMENT, ROAD, ROADS
from ..catan.decisions import choose_opening_road, choose_opening_site
from ..catan.legal import init_legal
from ..catan.rules import can_settle
from ..catan.setup import deal_board, place_settlement
from ..catan.state import log, take
from .constants import EV_HARBOUR, HARBOUR_DRAWS
from .decisions import base_code, hotelier_site
from .policies import HOTELIER, RANDOM
from .wall import route_flags


@block()
def deal_berlin(st, bd, ba, br, scratch, lg):
    """The engine's board block (with the layout shuffled, the non-hotel producing hexes' terrain is drawn),
    the robber on West Berlin's desert, then (shuffled) the harbour kinds over their places; a `harbour`
    event per place, in the map file's order, says which kind lies there."""
    deal_board(st, bd, scratch, lg)
    st.robber[0] = ba.robber_start
    K = ba.harbour_rate.shape[0]
    order = scratch.candidates
    for k in range(K):
        order[k] = k
    if br.shuffled:
        for c in range(K - 1, 0, -1):
            j = below(take(st, HARBOUR_DRAWS), c + 1)
            order[c], order[j] = order[j], order[c]
        bd.harbour_rate[:] = NO_HARBOUR
        bd.harbour_resource[:] = -1
    for k in range(K):
        kind = order[k]
        log(lg, -1, -1, EV_HARBOUR, k, ba.harbour_rate[kind], ba.harbour_resource[kind])
        if not br.shuffled:
            continue
        for side in range(2):
            n = ba.harbour_nodes[k, side]
            if ba.harbour_rate[kind] < bd.harbour_rate[n]:
                bd.harbour_rate[n] = ba.harbour_rate[kind]
                bd.harbour_resource[n] = ba.harbour_resource[kind]


@block(_nrt=False)
def place_opening_berlin(st, tally, bd, ba, scratch, lg, codes, prm):
    """Snake order (0, 1, .., 1, 0): a settlement and a road beside it each; a player's second settlement on
    the other side of the wall from his first (any side if none is left there); the second yields as usual."""
    P = st.hands.shape[0]
    sites = scratch.candidates
    first_side = scratch.score
    for step in range(2 * P):
        p = step if step < P else 2 * P - 1 - step
        need = -1 if step < P else 1 - first_side[p]
        m = 0
        for relaxed in range(2):
            for n in range(bd.node_nodes.shape[0]):
                side_ok = ba.node_side[n] >= 0 and (need < 0 or relaxed == 1 or ba.node_side[n] == need)
                if side_ok and can_settle(n, p, True, bd.node_land, st.node_owner, bd.node_nodes, bd.node_edges,
                                          st.edge_owner):
                    sites[m] = n
                    m += 1
            if m > 0:
                break
        code = codes[p]
        n = choose_opening_site(st, bd, sites, m, RANDOM if code == HOTELIER else base_code(code), prm, p)
        if code == HOTELIER:
            n = hotelier_site(st, bd, ba, sites, m, prm, p)
        if step < P:
            first_side[p] = ba.node_side[n]
        place_settlement(st, tally, bd, p, n)
        log(lg, -1, p, EV_SETUP_SETTLEMENT, n, 0, 0)
        if step >= P:
            for k in range(3):
                h = bd.node_hexes[n, k]
                if h >= 0 and st.hex_terrain[h] < DESERT and st.bank[st.hex_terrain[h]] > 0:
                    st.hands[p, st.hex_terrain[h]] += 1
                    tally.received[p, st.hex_terrain[h]] += 1
                    st.bank[st.hex_terrain[h]] -= 1
        m = 0
        for k in range(3):
            e = bd.node_edges[n, k]
            if e >= 0 and bd.edge_land[e] and st.edge_owner[e] < 0:
                sites[m] = e
                m += 1
        if m > 0:
            e = choose_opening_road(st, sites, m)
            st.edge_owner[e] = p
            st.edge_kind[e] = ROAD
            st.left[p, ROADS] -= 1
            log(lg, -1, p, EV_SETUP_ROAD, e, 0, 0)
    init_legal(st, bd)
    route_flags(st, bd, ba)
