"""Block: the Love Parade. After production on a roll of doubles, when a chip waits in the Tiergarten, one chip
is auctioned: the player on turn opens with a bid counted in cards (at least min_bid, never more than he
holds), the others follow clockwise and raise or pass, a pass is final; the last bidder pays his bid in
cards of his choice to the bank and takes the chip (a point), and Bester Raver is decided again."""


from ...core.blocks import block
from ..catan.rules import hand_size, random_card
from ..catan.state import log, take
from ..catan.unseen import lost_in_public
from .constants import EV_BID, EV_PARADE, EV_PASS, EV_PAY, EV_TIERGARTEN, PARADE_DRAWS, RAVER, TIERGARTEN_MISSING
from .decisions import choose_bid
from .wall import decide_card


@block(_nrt=False)
def missing_number(wl, lg, turn, p):
    """A 2 or 12 rolled after its token left the board: nothing is produced; a chip goes to the Tiergarten
    (while the supply lasts) and is auctioned at once (the roll is a double)."""
    if wl.supply[0] > 0:
        wl.supply[0] -= 1
        wl.tiergarten[0] += 1
        log(lg, turn, p, EV_TIERGARTEN, wl.tiergarten[0], TIERGARTEN_MISSING, 0)


@block(_nrt=False)
def love_parade(st, wl, br, lg, turn, p, codes, prm, missing):
    """One chip auctioned, p (on turn) opening. If nobody bids (the opener cannot pay min_bid and all pass),
    the chip stays in the Tiergarten."""
    P = st.hands.shape[0]
    wl.active[:] = True
    leader, bid, bid_mask, q = -1, -1, 0, p
    while True:
        if q == leader:
            break  # the bid went round the table and everyone else passed
        if wl.active[q]:
            lo = max(bid + 1, br.min_bid)
            amount = choose_bid(st, prm, q, codes[q], lo, hand_size(st.hands, q), q == p and bid < 0)
            if amount < 0:
                wl.active[q] = False
                log(lg, turn, q, EV_PASS, 0, 0, 0)
            else:
                bid, leader = amount, q
                bid_mask |= 1 << q
                log(lg, turn, q, EV_BID, amount, 0, 0)
        still = 0
        for x in range(P):
            still += wl.active[x]
        if still == 0 or (still == 1 and leader >= 0 and wl.active[leader]):
            break
        q = (q + 1) % P
    if leader < 0:
        return
    bidders = 0
    for x in range(P):
        bidders += (bid_mask >> x) & 1
    for _ in range(bid):
        r = random_card(st.hands, leader, take(st, PARADE_DRAWS))
        st.hands[leader, r] -= 1
        st.bank[r] += 1
        lost_in_public(st, lg, leader, r)
        log(lg, turn, leader, EV_PAY, r, 0, 0)
    wl.tiergarten[0] -= 1
    wl.chips[leader] += 1
    row = wl.n_parades[0]
    if row < wl.parade_row.shape[0]:  # a row while the table has room (MAX_CHIPS); the count goes on
        wl.parade_row[row, 0], wl.parade_row[row, 1], wl.parade_row[row, 2] = turn, leader, bid
        wl.parade_row[row, 3], wl.parade_row[row, 4] = bidders, int(missing)
    wl.n_parades[0] = row + 1
    log(lg, turn, leader, EV_PARADE, bid, bidders, int(missing))
    decide_card(wl, wl.chips, RAVER, lg, turn)
