"""Blocks: hotels. Buying one (a released hotel with a chip on offer, the field's token swapped), and the
scenario's production: the engine's claims, the hotel of the rolled chip paid first, the bank-shortage
rule for the rest, and what each hotel and its field earned (the lake's hotels table)."""


from ...core.blocks import block
from ..catan.board import DESERT
from ..catan.constants import EV_PRODUCE, N_RES
from ..catan.rules import affordable, pay, pay_claims, production_claims
from ..catan.setup import expose
from ..catan.state import log
from ..catan.unseen import paid_in_public
from .constants import EV_HOTEL, EV_HOTEL_PRODUCE, HOTEL_YIELD
from .state import hotel_cost_row, pips


@block(_nrt=False)
def hotel_option(st, ba, wl, p, h, k):
    """Can p buy hotel h with the k-th chip slot on offer?"""
    chip = wl.offered[k]
    return wl.released[h] and wl.hotel_owner[h] < 0 and chip > 0 \
        and affordable(st.hands, p, ba.hotel_costs, hotel_cost_row(ba, h, chip))


@block(_nrt=False)
def count_hotels(st, ba, wl, p):
    """Hotel purchases p may make now (a released hotel, a chip on offer, the card's price for that chip);
    none after one this turn."""
    if wl.bought_hotel[0]:
        return 0
    m = 0
    for h in range(wl.released.shape[0]):
        for k in range(wl.offered.shape[0]):
            m += hotel_option(st, ba, wl, p, h, k)
    return m


@block(_nrt=False)
def nth_hotel(st, ba, wl, p, index):
    """(hotel, chip slot) of the index-th hotel purchase p may make."""
    for h in range(wl.released.shape[0]):
        for k in range(wl.offered.shape[0]):
            if hotel_option(st, ba, wl, p, h, k):
                if index == 0:
                    return h, k
                index -= 1
    return -1, -1


@block(_nrt=False)
def set_token(st, tally, bd, h, token):
    """Hex h's token becomes `token`: its pips, its nodes' pips and the dice's promise to its buildings."""
    for i in range(6):
        n = bd.hex_nodes[h, i]
        if st.node_owner[n] >= 0:
            expose(tally, st, bd, st.node_owner[n], n, st.node_level[n], -1)
    old_pips = st.hex_pips[h]
    st.hex_token[h] = token
    st.hex_pips[h] = pips(token)
    for i in range(6):
        n = bd.hex_nodes[h, i]
        st.node_pips[n] += st.hex_pips[h] - old_pips
        if st.node_owner[n] >= 0:
            expose(tally, st, bd, st.node_owner[n], n, st.node_level[n], 1)


@block(_nrt=False)
def buy_hotel(pl, turn, p, h, k):
    """p buys hotel h with chip slot k: pays the card's price for that chip, and the chip replaces the
    field's token (the old 2, 3, 11 or 12 leaves the game). pl: the play (state.Play)."""
    st, tally, bd, ba, wl, lg = pl.st, pl.tally, pl.bd, pl.ba, pl.wl, pl.lg
    chip = wl.offered[k]
    row = hotel_cost_row(ba, h, chip)
    paid = 0
    for r in range(N_RES):
        paid += ba.hotel_costs[row, r]
    pay(st.hands, p, st.bank, ba.hotel_costs, row)
    paid_in_public(st, lg, p, ba.hotel_costs, row)
    field = ba.hotel_hexes[h]
    wl.offered[k] = 0
    wl.hotel_owner[h] = p
    wl.hotel_chip[h] = chip
    wl.hotel_old[h] = st.hex_token[field]
    wl.hotel_turn[h] = turn
    wl.hotel_paid[h] = paid
    wl.bought_hotel[0] = 1
    log(lg, turn, p, EV_HOTEL, h, chip, st.hex_token[field])
    set_token(st, tally, bd, field, chip)


@block(_nrt=False)
def token_on_board(st, bd, roll):
    for k in range(bd.land_hexes.shape[0]):
        if st.hex_token[bd.land_hexes[k]] == roll:
            return True
    return False


@block(_nrt=False)
def produce_berlin(st, tally, bd, ba, wl, scratch, lg, turn, roll):
    """Production for a roll (not a 7). The hotel whose chip was rolled (at most one: the chips differ),
    unless the robber stands on its field, produces 2 cards of its field's resource for its owner; if the
    bank cannot pay it and every building entitled to that resource, the owner gets his (or what is left)
    and no settlement or city gets that resource. Other resources follow the engine's shortage rule."""
    claims = scratch.received_now
    production_claims(roll, st.robber[0], st.hex_terrain, st.hex_token, bd.hex_nodes, st.node_owner, st.node_level,
                      claims)
    for h in range(wl.hotel_owner.shape[0]):
        field = ba.hotel_hexes[h]
        if wl.hotel_owner[h] < 0 or st.hex_token[field] != roll:
            continue
        if st.robber[0] == field:
            wl.hotel_robbed[h] += 1
            continue
        r, owner = st.hex_terrain[field], wl.hotel_owner[h]
        owed = 0
        for q in range(st.hands.shape[0]):
            owed += claims[q, 0, r] + claims[q, 1, r]
        got = HOTEL_YIELD
        if HOTEL_YIELD + owed > st.bank[r]:
            got = min(HOTEL_YIELD, st.bank[r])
            claims[:, :, r] = 0
        st.hands[owner, r] += got
        st.bank[r] -= got
        tally.received[owner, r] += got
        wl.hotel_yield[h] += got
        wl.hotel_short[h] += HOTEL_YIELD - got
        if wl.hotel_payback[h] < 0 and wl.hotel_yield[h] >= wl.hotel_paid[h]:
            wl.hotel_payback[h] = turn
        log(lg, turn, owner, EV_HOTEL_PRODUCE, r, got, h)
    pay_claims(roll, st, bd, claims)
    for q in range(st.hands.shape[0]):
        for r in range(N_RES):
            got = claims[q, 0, r] + claims[q, 1, r]
            if got > 0:
                tally.received[q, r] += got
                tally.by_kind[q, 0, r] += claims[q, 0, r]
                tally.by_kind[q, 1, r] += claims[q, 1, r]
                log(lg, turn, q, EV_PRODUCE, r, got, 0)
    field_books(st, bd, ba, wl, scratch, roll)


@block(_nrt=False)
def field_books(st, bd, ba, wl, scratch, roll):
    """Each bought hotel's field after a roll: one more roll; what its settlements and cities got (owner's,
    others') on its new token, and what they would have got on the old one (the robber counted, not the bank)."""
    claims = scratch.received_now
    for h in range(wl.hotel_owner.shape[0]):
        owner = wl.hotel_owner[h]
        if owner < 0:
            continue
        wl.hotel_rolls[h] += 1
        field = ba.hotel_hexes[h]
        if st.robber[0] == field or st.hex_terrain[field] >= DESERT:
            continue
        r = st.hex_terrain[field]
        for i in range(6):
            n = bd.hex_nodes[field, i]
            q = st.node_owner[n]
            if q < 0:
                continue
            who = 0 if q == owner else 1
            if roll == wl.hotel_old[h]:
                wl.field_old[h, who] += st.node_level[n]
            if roll == st.hex_token[field]:
                wl.field_got[h, who] += _paid_here(st, bd, scratch, claims, roll, r, field, n, q)


@block(_nrt=False)
def _paid_here(st, bd, scratch, claims, roll, r, field, n, q):
    """What the building on node n (player q's, beside `field`) was paid of resource r on this roll: its
    cards if q's claims on r were paid in full, none if they were refused, and on a lone claimant's short
    payment, what the engine's board order (hex, then corner) left for it."""
    level = st.node_level[n]
    paid = claims[q, 0, r] + claims[q, 1, r]
    owed = 0
    for h in range(st.hex_terrain.shape[0]):
        if st.hex_token[h] == roll and h != st.robber[0] and st.hex_terrain[h] == r:
            for i in range(6):
                if st.node_owner[bd.hex_nodes[h, i]] == q:
                    owed += st.node_level[bd.hex_nodes[h, i]]
    if paid >= owed:
        return level
    if paid == 0:
        return 0
    left = paid
    for h in range(st.hex_terrain.shape[0]):
        if st.hex_token[h] == roll and h != st.robber[0] and st.hex_terrain[h] == r:
            for i in range(6):
                m = bd.hex_nodes[h, i]
                if st.node_owner[m] == q and left > 0:
                    got = min(st.node_level[m], left)
                    left -= got
                    if h == field and m == n:
                        return got
    return 0
