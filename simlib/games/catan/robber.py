"""Block: the robber moves to the hex chosen (after a 7 or a knight) and its mover steals one card, drawn
at random, from an opponent beside it who holds any (the victim is chosen among them)."""


from ...core.blocks import block
from .constants import EV_ROBBER, EV_STEAL, ROBBED
from .decisions import choose_victim
from .rules import hand_size, random_card
from .state import STEAL_DRAWS, log, take
from .unseen import card_stolen


@block(_nrt=False)
def rob(st, tally, bd, scratch, lg, turn, p, hex_):
    st.robber[0] = hex_
    log(lg, turn, p, EV_ROBBER, hex_, 0, 0)
    victims = scratch.candidates
    m = 0
    for k in range(6):
        q = st.node_owner[bd.hex_nodes[hex_, k]]
        if q >= 0 and q != p and hand_size(st.hands, q) > 0:
            seen = False
            for x in range(m):
                seen = seen or victims[x] == q
            if not seen:
                victims[m] = q
                m += 1
    if m > 0:
        victim = choose_victim(st, victims, m)
        r = random_card(st.hands, victim, take(st, STEAL_DRAWS))
        st.hands[victim, r] -= 1
        st.hands[p, r] += 1
        card_stolen(st, lg, p, victim, r)
        tally.lost[victim, ROBBED, r] += 1
        log(lg, turn, p, EV_STEAL, r, victim, 0)
