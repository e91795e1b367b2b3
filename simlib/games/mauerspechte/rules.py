"""Die Mauerspechte's rules beside the engine's (catan/rules.py) and its own modules' (wall.py, hotels.py,
parade.py): where the robber may go while the wall is closed, and the actions a player may take after the roll
(the engine's families, ships that need no connection, wall pieces, hotels). No policy in them."""

import numba as nb

from ...core.blocks import block
from ..catan.constants import F_MOVE_SHIP, SHIP, SHIPS
from ..catan.legal import count_actions
from .constants import F_HOTEL, F_WALL_PIECE, WEST
from .hotels import count_hotels
from .wall import count_pieces, ship_sites


@nb.njit(cache=True, _nrt=False, inline="always")
def robber_goes(st, bd, to_west, to_east, ba, wl):
    """The board whose land hexes the robber may be moved to: while the wall is closed (no lower piece bought)
    the other side's, then every land hex."""
    if wl.opened_turn[0] >= 0:
        return bd
    return to_east if ba.hex_side[st.robber[0]] == WEST else to_west


@nb.njit(cache=True, _nrt=False, inline="always")
def knight_goes(st, bd, to_west, to_east, ba, br, wl):
    """The board a knight moves the robber on: reading `knight_robber = across`, robber_goes's; `free` (the text
    names the 7 only), every land hex as in the base game."""
    return robber_goes(st, bd, to_west, to_east, ba, wl) if br.knight_across else bd


@nb.njit(cache=True, _nrt=False, inline="always")
def count_berlin(st, rules, bd, ba, br, wl, scratch, p, turn):
    """The engine's count of the base families (its ship moves left out: here they are listed by
    open_end_ships), then the scenario's: moving a ship, wall pieces, hotels. Returns the total. Reading
    `ship_sites = connected`: p's settlement sites at his ships are decided first (wall.ship_sites)."""
    if br.connected_ships and st.left[p, SHIPS] < rules.piece_limits[SHIPS]:  # he has ships
        ship_sites(st, bd, ba, scratch, p)
    st.n_movable[0] = 0  # tells the engine's count its list of ship moves is made (empty): ours differ
    total = count_actions(st, rules, bd, scratch, p, turn)
    counts = scratch.counts
    counts[F_MOVE_SHIP] = 0
    if st.ship_moved[0] == 0 and st.left[p, SHIPS] < rules.piece_limits[SHIPS]:
        counts[F_MOVE_SHIP] = open_end_ships(st, bd, scratch, p, turn) * st.n_legal_edge[p, SHIP - 1]
    counts[F_WALL_PIECE] = count_pieces(st, ba, wl, p)
    counts[F_HOTEL] = count_hotels(st, ba, wl, p)
    return total + counts[F_MOVE_SHIP] + counts[F_WALL_PIECE] + counts[F_HOTEL]


@block(_nrt=False)
def open_end_ships(st, bd, scratch, p, turn):
    """p's ships at an open end of a route, not built this turn, into scratch.movable (the Seafarers rule:
    an end that meets neither his building nor another of his ships). Each may go to any free edge a ship
    may take (here a ship needs no connection)."""
    m = 0
    for s in range(bd.edge_nodes.shape[0]):
        if st.edge_owner[s] != p or st.edge_kind[s] != SHIP or st.edge_turn[s] == turn:
            continue
        open_end = False
        for side in range(2):
            n = bd.edge_nodes[s, side]
            joined = st.node_owner[n] == p
            for k in range(3):
                f = bd.node_edges[n, k]
                joined = joined or (f >= 0 and f != s and st.edge_owner[f] == p and st.edge_kind[f] == SHIP)
            open_end = open_end or not joined
        if open_end:
            scratch.movable[m] = s
            m += 1
    return m
