"""Blocks: the robber moves to the hex chosen (after a 7 or a knight), and its mover steals one card, drawn at
random, from the opponent chosen among those beside it who hold any (play.rob asks the policy which)."""


from ...core.blocks import block
from .constants import EV_ROBBER, EV_STEAL, ROBBED, STEAL_DRAWS
from .rules import hand_size, random_card
from .state import log, take
from .unseen import card_stolen


@block(_nrt=False)
def move_robber(st, bd, scratch, lg, turn, p, hex_):
    """The robber to hex_; lists in scratch.candidates the opponents beside it who hold a card and returns how
    many (p may rob one of them)."""
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
    return m


@block(_nrt=False)
def steal(st, tally, lg, turn, p, victim):
    """p takes a card drawn at random from the victim's hand."""
    r = random_card(st.hands, victim, take(st, STEAL_DRAWS))
    st.hands[victim, r] -= 1
    st.hands[p, r] += 1
    card_stolen(st, lg, p, victim, r)
    tally.lost[victim, ROBBED, r] += 1
    log(lg, turn, p, EV_STEAL, r, victim, 0)
