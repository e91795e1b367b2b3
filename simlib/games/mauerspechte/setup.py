"""Block: Berlin's board for one play (the engine's board block, the robber on West Berlin's desert, the
harbours shuffled with the layout). The opening, where the policies choose, is play.place_opening_berlin."""


from ...core.blocks import block
from ...core.rng import below
from ..catan.board import NO_HARBOUR
from ..catan.setup import deal_board
from ..catan.state import log, take
from .constants import EV_HARBOUR, HARBOUR_DRAWS


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
