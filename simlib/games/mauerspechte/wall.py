"""Blocks: the wall. Closing its sections over the board, buying its pieces ("spechten") with what a lower
piece sets off, opening a section, the two special cards, and the scenario's points and standing. (Releasing
sections at the leader's thresholds and the choices a piece asks for are play.py's: the policies choose there.)"""

import numba as nb

from ...core.blocks import block
from ..catan.constants import ROAD, SHIP
from ..catan.legal import init_legal
from ..catan.rules import affordable, can_settle, pay
from ..catan.scoring import points
from ..catan.state import log
from ..catan.unseen import paid_in_public
from .constants import (
    EV_CARD,
    EV_HOTEL_RELEASE,
    EV_TIERGARTEN,
    EV_WALL_OPEN,
    EV_WALL_PIECE,
    LOWER,
    MAUERSPECHT,
    N_SECTIONS,
    PIECE_CARDS,
    RAVER,
    TIERGARTEN_LOWER,
)
from .state import piece_cost_row


@block(_nrt=False)
def berlin_points(st, wl, br, p):
    """Catan's points, plus a point per wall piece and chip, one per special card held, hotel_points a hotel."""
    hotels = 0
    for h in range(wl.hotel_owner.shape[0]):
        hotels += wl.hotel_owner[h] == p
    return points(st, p) + wl.pieces[p] + wl.chips[p] + int(wl.holder[MAUERSPECHT] == p) \
        + int(wl.holder[RAVER] == p) + br.hotel_points * hotels


@nb.njit(cache=True, _nrt=False, inline="always")
def berlin_standing_after(st, wl, br, lg, turn):
    """Row `turn` of the play's standing (lg.standing; none kept where it has no rows, as in a search's rollouts):
    every seat's points after the turn. All of them are in view: here victory-point cards are shown at once."""
    standing = lg.standing
    if standing.shape[0] > 0:
        for q in range(standing.shape[1]):
            standing[turn, q] = berlin_points(st, wl, br, q)


@block(_nrt=False)
def route_flags(st, bd, ba):
    """The scenario's corrections to the legal road and ship flags the engine's blocks keep by its own rule,
    called after they ran. Ships need no connection here: a free edge with water on both sides (and no
    wall) takes anyone's ship. A road does not join its owner's network through an intersection under a
    standing wall (it leads nowhere until the wall opens), so a road at such an intersection is legal only
    through its other end."""
    for e in range(bd.edge_nodes.shape[0]):
        ok = st.edge_owner[e] < 0 and bd.edge_sea[e]
        for q in range(st.legal_edge.shape[0]):
            st.n_legal_edge[q, 1] += int(ok) - int(st.legal_edge[q, 1, e])
            st.legal_edge[q, 1, e] = ok
    for n in range(bd.node_land.shape[0]):
        if bd.node_land[n] or not ba.node_land[n]:
            continue  # not under a standing wall
        for k in range(3):
            f = bd.node_edges[n, k]
            if f < 0 or not bd.edge_land[f]:
                continue
            m = bd.edge_nodes[f, 0] if bd.edge_nodes[f, 1] == n else bd.edge_nodes[f, 1]
            for q in range(st.legal_edge.shape[0]):
                ok = st.edge_owner[f] < 0 and _joins_at(st, bd, m, f, q)
                st.n_legal_edge[q, 0] += int(ok) - int(st.legal_edge[q, 0, f])
                st.legal_edge[q, 0, f] = ok


@block(_nrt=False)
def ship_sites(st, bd, ba, scratch, p):
    """Reading `ship_sites = connected`: p's settlement sites at his ships decided again before he chooses. A ship
    opens the intersections at its ends only in a shipping line that reaches his settlement or city (his ships
    joined at free intersections or at his buildings, as a ship is built in Seafarers); his roads open their ends
    as in Catan. The engine's flags let any ship of his open its ends, and it keeps them only where a piece lands
    or leaves, so the sites at every ship of his are decided here, whichever way they last were. Work space:
    scratch.destinations, per edge (the scenario lists ship moves itself, open_end_ships; the engine's list is
    unused), read only at his ships."""
    linked = scratch.destinations  # 1: his ship on this edge is in a line from his building
    mine = False
    for e in ba.ship_edges:
        linked[e] = 0
        mine = mine or (st.edge_owner[e] == p and st.edge_kind[e] == SHIP)
    if not mine:
        return
    grown = True
    while grown:
        grown = False
        for e in ba.ship_edges:
            if linked[e] or st.edge_owner[e] != p or st.edge_kind[e] != SHIP:
                continue
            for side in range(2):
                n = bd.edge_nodes[e, side]
                ok = st.node_owner[n] == p
                if st.node_owner[n] < 0:
                    for x in range(3):
                        f = bd.node_edges[n, x]
                        ok = ok or (f >= 0 and st.edge_owner[f] == p and st.edge_kind[f] == SHIP and linked[f] == 1)
                if ok:
                    linked[e] = 1
                    grown = True
                    break
    for e in ba.ship_edges:
        if st.edge_owner[e] != p or st.edge_kind[e] != SHIP:
            continue
        for side in range(2):
            n = bd.edge_nodes[e, side]
            opened = False
            for x in range(3):
                f = bd.node_edges[n, x]
                opened = opened or (f >= 0 and st.edge_owner[f] == p
                                    and (st.edge_kind[f] == ROAD or linked[f] == 1))
            now = opened and can_settle(n, p, False, bd.node_land, st.node_owner, bd.node_nodes, bd.node_edges,
                                        st.edge_owner)
            st.n_legal_node[p] += int(now) - int(st.legal_node[p, n])
            st.legal_node[p, n] = now


@nb.njit(cache=True, inline="always")
def _joins_at(st, bd, m, f, q):
    """A road on edge f joins q's network at node m: his building, or his road ending at a free intersection
    that no standing wall covers."""
    if st.node_owner[m] == q:
        return True
    if st.node_owner[m] >= 0 or not bd.node_land[m]:  # a road's nodes touch land: not land here means a wall
        return False
    for k in range(3):
        g = bd.node_edges[m, k]
        if g >= 0 and g != f and st.edge_owner[g] == q and st.edge_kind[g] == ROAD:
            return True
    return False


@block(_nrt=False)
def lay_walls(bd, ba, wl):
    """The board's land and sea flags with every standing section over its edges and intersections: no
    settlement, road or ship there."""
    for n in range(bd.node_land.shape[0]):
        bd.node_land[n] = ba.node_land[n]
    for e in range(bd.edge_land.shape[0]):
        bd.edge_land[e] = ba.edge_land[e]
        bd.edge_sea[e] = ba.ship_sea[e]
    for s in range(wl.level.shape[0]):
        if wl.level[s] == 0:
            continue
        for k in range(ba.section_edges.shape[1]):
            e = ba.section_edges[s, k]
            if e >= 0:
                bd.edge_land[e] = False
                bd.edge_sea[e] = False
            n = ba.section_nodes[s, k]
            if n >= 0:
                bd.node_land[n] = False


@block(_nrt=False)
def open_section(st, bd, ba, wl, lg, turn, p, s):
    """Section s is gone: its edges and intersections are free (where no other section lies), legal sites
    are decided again; the water section goes too once both land sections beside it are gone."""
    wl.level[s] = 0
    log(lg, turn, p, EV_WALL_OPEN, s, 0, 0)
    water = wl.level.shape[0] - 1
    if wl.level[water] > 0:
        gone = True
        for k in range(ba.water_neighbours.shape[0]):
            gone = gone and wl.level[ba.water_neighbours[k]] == 0
        if gone:
            wl.level[water] = 0
            log(lg, turn, p, EV_WALL_OPEN, water, 0, 0)
    lay_walls(bd, ba, wl)
    init_legal(st, bd)
    route_flags(st, bd, ba)


@block(_nrt=False)
def can_buy_piece(st, ba, wl, p, s):
    return wl.chip[s] > 0 and wl.level[s] > 0 and affordable(st.hands, p, ba.wall_costs, piece_cost_row(wl, s))


@block(_nrt=False)
def count_pieces(st, ba, wl, p):
    """Wall pieces p may buy now: the top piece of each released section he can pay, none after one this turn."""
    if wl.bought_piece[p]:
        return 0
    m = 0
    for s in range(N_SECTIONS):
        m += can_buy_piece(st, ba, wl, p, s)
    return m


@block(_nrt=False)
def nth_piece(st, ba, wl, p, k):
    """The section of the k-th wall piece p may buy."""
    for s in range(N_SECTIONS):
        if can_buy_piece(st, ba, wl, p, s):
            if k == 0:
                return s
            k -= 1
    return -1


@block(_nrt=False)
def take_piece(st, ba, wl, lg, turn, p, s):
    """p buys section s's top piece (a point); a lower piece also puts a chip in the Tiergarten (while the supply
    lasts). Returns the piece's level: a lower piece releases a hotel (release_hotel), and play.buy_piece then
    decides Bester Mauerspecht again."""
    level = wl.level[s]
    pay(st.hands, p, st.bank, ba.wall_costs, piece_cost_row(wl, s))
    paid_in_public(st, lg, p, ba.wall_costs, piece_cost_row(wl, s))
    wl.level[s] = level - 1
    wl.pieces[p] += 1
    wl.bought_piece[p] = 1
    row = wl.n_pieces[0]
    wl.piece_row[row, 0], wl.piece_row[row, 1], wl.piece_row[row, 2] = s, level, p
    wl.piece_row[row, 3], wl.piece_row[row, 4] = turn, PIECE_CARDS[level - 1]
    wl.n_pieces[0] = row + 1
    log(lg, turn, p, EV_WALL_PIECE, s, level, PIECE_CARDS[level - 1])
    if level == LOWER and wl.supply[0] > 0:
        wl.supply[0] -= 1
        wl.tiergarten[0] += 1
        log(lg, turn, p, EV_TIERGARTEN, wl.tiergarten[0], TIERGARTEN_LOWER, 0)
    return level


@block(_nrt=False)
def release_hotel(st, bd, ba, wl, lg, turn, p, s, h):
    """After p bought section s's lower piece: hotel h released (his choice), the section's chip offered for
    hotels, the section opened (the first one opens the wall for the robber)."""
    wl.released[h] = 1
    for k in range(wl.offered.shape[0]):
        if wl.offered[k] == 0:
            wl.offered[k] = wl.chip[s]
            break
    log(lg, turn, p, EV_HOTEL_RELEASE, h, wl.chip[s], 0)
    if wl.opened_turn[0] < 0:
        wl.opened_turn[0] = turn
    open_section(st, bd, ba, wl, lg, turn, p, s)


@block(_nrt=False)
def decide_card(wl, counts, card, lg, turn):
    """The card goes to the single player with the most (at least one); on a tie for the most it is
    neutralised, whoever held it."""
    best, holder = 0, -1
    for q in range(counts.shape[0]):
        if counts[q] > best:
            best, holder = counts[q], q
        elif counts[q] == best and best > 0:
            holder = -1
    if holder != wl.holder[card]:
        wl.holder[card] = holder
        log(lg, turn, holder, EV_CARD, card, 0, 0)
