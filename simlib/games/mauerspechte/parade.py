"""Blocks: the Love Parade. After production on a roll of doubles, when a chip waits in the Tiergarten, one chip
is auctioned (the bidding is play.love_parade's: the policies bid): the player on turn opens with a bid counted
in cards (at least min_bid, never more than he holds), the others follow clockwise and raise or pass, a pass is
final; the last bidder pays his bid in cards to the bank and takes the chip (a point), and Bester Raver is decided
again (sell_chip). A missing number rolled puts a chip in the Tiergarten (missing_number)."""


from ...core.blocks import block
from ..catan.rules import random_card
from ..catan.state import log, take
from ..catan.unseen import lost_in_public
from .constants import EV_PARADE, EV_PAY, EV_TIERGARTEN, PARADE_DRAWS, RAVER, TIERGARTEN_MISSING
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
def sell_chip(st, wl, lg, turn, leader, bid, bidders, missing):
    """The Love Parade's last bidder pays his bid in cards (drawn at random from his hand) to the bank and takes
    the chip (a point); a row of the love_parades table (bidders: a bit per seat that bid); Bester Raver is
    decided again."""
    n_bidders = 0
    for x in range(st.hands.shape[0]):
        n_bidders += (bidders >> x) & 1
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
        wl.parade_row[row, 3], wl.parade_row[row, 4] = n_bidders, int(missing)
    wl.n_parades[0] = row + 1
    log(lg, turn, leader, EV_PARADE, bid, n_bidders, int(missing))
    decide_card(wl, wl.chips, RAVER, lg, turn)
