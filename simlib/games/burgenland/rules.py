"""Burgenland's rules as pure functions over the play's arrays (compiled with Numba, inlined into the kernel).

Cards are counted by type: a hand, the face-down pile and the discard pile are [8 colours, 3 coin values]
count arrays (identical cards need no identity). The play's scalars live in `pool` (indices below). A draw is
keyed by (the play's key, the turn, its stream, its rank among the stream's draws in the turn): `take`, with the
turn and the counts per stream in `draw_turn` and `drawn` (state.Play's), which `begin_draws` resets.
"""

import numba as nb

from ...core.blocks import block
from ...core.rng import begin_turn_draws as begin_draws  # noqa: F401 (the game's blocks import it from here)
from ...core.rng import below, draw, next_turn_draw_index
from . import constants as C

# pool: the play's scalar state
(JOKER_PILE, SWAP_SUPPLY, MASTER_TOP, WELL_TOP, WELLS_BUILT, BONUS_TOP, RESHUFFLES, SWAPS_USED, TILES_USED,
 CENTRAL_BUILT) = range(10)
POOL_SIZE = 10


@nb.njit(cache=True, inline="always")
def take(key, draw_turn, drawn, stream):
    """The stream's next draw in this turn."""
    return draw(key, next_turn_draw_index(draw_turn, drawn, stream))


@nb.njit(cache=True, inline="always")
def colour_cards(hand, c):
    return hand[c, 0] + hand[c, 1] + hand[c, 2]


@nb.njit(cache=True, inline="always")
def total_cards(cards):
    n = 0
    for c in range(C.N_COLOURS):
        n += cards[c, 0] + cards[c, 1] + cards[c, 2]
    return n


@nb.njit(cache=True, inline="always")
def total_coins(cards):
    n = 0
    for c in range(C.N_COLOURS):
        n += cards[c, 0] + 2 * cards[c, 1] + 3 * cards[c, 2]
    return n


@nb.njit(cache=True, inline="always")
def castle_colours(stones, castle_stones, castle):
    return stones[castle_stones[castle, 0]], stones[castle_stones[castle, 1]]


@block(_nrt=False)
def draw_card(st, key):
    """The top card of the face-down pile (a uniform one of those left; the discards are reshuffled into a new
    pile when it is empty): its type colour * 3 + coins - 1, or -1 if both piles are empty."""
    deck, discard, pool = st.deck, st.discard, st.pool
    n = total_cards(deck)
    if n == 0:
        n = total_cards(discard)
        if n == 0:
            return -1
        deck += discard
        discard[:] = 0
        pool[RESHUFFLES] += 1
    u = below(take(key, st.draw_turn, st.drawn, C.CARD_DRAWS), n)
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            if u < deck[c, v]:
                deck[c, v] -= 1
                return c * C.MAX_COINS + v
            u -= deck[c, v]
    raise AssertionError("draw_card: the pile's counts are inconsistent")


@block(_nrt=False)
def draw_until(st, s, coins, key, gained, g):
    """Draw cards into seat s's hand until their coins reach `coins` (or the piles run dry). The cards go to
    gained[g:]; returns the next free slot."""
    hand = st.hands[s]
    got = 0
    while got < coins:
        card = draw_card(st, key)
        if card < 0:
            break
        hand[card // C.MAX_COINS, card % C.MAX_COINS] += 1
        got += card % C.MAX_COINS + 1
        gained[g] = card
        g += 1
    return g


@nb.njit(cache=True, inline="always")
def _lowest_coins(hand, a, b, k):
    """The coins of the k lowest-coin cards of colours a and b (the price's cards when jokers pay the rest)."""
    coins = 0
    for v in range(C.MAX_COINS):
        m = min(k, hand[a, v] + hand[b, v])
        coins += m * (v + 1)
        k -= m
    return coins


@nb.njit(cache=True, inline="always")
def can_pay_small(hand, jokers, a, b, need):
    """Whether 4 cards of colours a/b (jokers for any) and then `need` more coins can be paid."""
    cards = colour_cards(hand, a) + colour_cards(hand, b)
    if cards + jokers < C.PRICE:
        return False
    if need == 0:
        return True
    k = max(0, C.PRICE - jokers)
    return total_coins(hand) - _lowest_coins(hand, a, b, k) >= need


@block(_nrt=False)
def pay_coins(hand, paid, need):
    """Add to `paid` colour cards (of any colour, not yet in it) whose coins reach `need`: the smallest
    overpay, then the fewest cards; each coin value from the colours holding most of it. False if impossible.
    (Counts in scalars, not arrays: it allocates nothing, so the turn's blocks run without reference counts.)"""
    if need <= 0:
        return True
    left1, left2, left3 = 0, 0, 0
    for c in range(C.N_COLOURS):
        left1 += hand[c, 0] - paid[c, 0]
        left2 += hand[c, 1] - paid[c, 1]
        left3 += hand[c, 2] - paid[c, 2]
    best1, best2, best3, best_coins, best_cards = 0, 0, 0, 1 << 30, 1 << 30
    for n3 in range(min(left3, need // 3 + 1) + 1):
        rest3 = max(0, need - 3 * n3)
        for n2 in range(min(left2, rest3 // 2 + 1) + 1):
            n1 = max(0, rest3 - 2 * n2)
            if n1 > left1:
                continue
            coins, cards = n1 + 2 * n2 + 3 * n3, n1 + n2 + n3
            if coins < best_coins or (coins == best_coins and cards < best_cards):
                best1, best2, best3, best_coins, best_cards = n1, n2, n3, coins, cards
    if best_coins == 1 << 30:
        return False
    for v in range(C.MAX_COINS):
        for _ in range(best1 if v == 0 else best2 if v == 1 else best3):
            pick, most = -1, 0
            for c in range(C.N_COLOURS):
                if hand[c, v] - paid[c, v] > most:
                    pick, most = c, hand[c, v] - paid[c, v]
            paid[pick, v] += 1
    return True


@block()
def pay_small(hand, jokers, a, b, need, paid):
    """The payment of a small-castle building: the fewest jokers with which 4 cards of colours a/b and `need`
    further coins can be paid; the price's cards are the lowest-coin ones (from the colour with more cards
    on a tie). Fills `paid` (cards) and returns the jokers used, or -1 if the hand cannot pay."""
    paid[:] = 0
    cards = colour_cards(hand, a) + colour_cards(hand, b)
    total = total_coins(hand)
    for j in range(max(0, C.PRICE - cards), min(jokers, C.PRICE) + 1):
        if total - _lowest_coins(hand, a, b, C.PRICE - j) < need:
            continue
        k = C.PRICE - j
        for v in range(C.MAX_COINS):
            while k > 0 and hand[a, v] + hand[b, v] - paid[a, v] - paid[b, v] > 0:
                left_a = colour_cards(hand, a) - paid[a, 0] - paid[a, 1] - paid[a, 2]
                left_b = colour_cards(hand, b) - paid[b, 0] - paid[b, 1] - paid[b, 2]
                c = a if hand[a, v] > paid[a, v] and (hand[b, v] == paid[b, v] or left_a >= left_b) else b
                paid[c, v] += 1
                k -= 1
        pay_coins(hand, paid, need)
        return j
    return -1


@block()
def _central_cards(hand, colour, k, paid):
    """k cards of one colour (colour >= 0), or of k different colours (colour = -1, those with most cards),
    lowest coins first."""
    if colour >= 0:
        for v in range(C.MAX_COINS):
            m = min(k, hand[colour, v])
            paid[colour, v] += m
            k -= m
        return
    for _ in range(k):
        pick, most = -1, 0
        for c in range(C.N_COLOURS):
            if paid[c, 0] + paid[c, 1] + paid[c, 2] == 0 and colour_cards(hand, c) > most:
                pick, most = c, colour_cards(hand, c)
        for v in range(C.MAX_COINS):
            if hand[pick, v] > 0:
                paid[pick, v] += 1
                break


@block()
def pay_central(hand, jokers, n, need, paid):
    """The payment of a central-castle building of n cards, all of one colour or all of different colours
    (jokers for any): the fewest jokers; on a tie one colour (the one held most) before different colours.
    Then `need` further coins. Fills `paid`; returns the jokers used or -1."""
    most, colour, distinct = 0, -1, 0
    for c in range(C.N_COLOURS):
        k = colour_cards(hand, c)
        distinct += k > 0
        if k > most:
            most, colour = k, c
    for j in range(0, min(jokers, n) + 1):
        for option in range(2):
            paid[:] = 0
            if option == 0 and most + j >= n and colour >= 0:
                _central_cards(hand, colour, n - j, paid)
            elif option == 1 and distinct + j >= n and n - j > 0:
                _central_cards(hand, -1, n - j, paid)
            elif not (j == n and option == 0):  # n jokers alone are one colour
                continue
            if pay_coins(hand, paid, need):
                return j
    paid[:] = 0
    return -1


@nb.njit(cache=True, inline="always")
def can_pay_central(hand, jokers, n):
    most, distinct = 0, 0
    for c in range(C.N_COLOURS):
        k = colour_cards(hand, c)
        distinct += k > 0
        most = max(most, k)
    return most + jokers >= n or distinct + jokers >= n


@nb.njit(cache=True, inline="always")
def free_spot(spot_piece, n_spots, castle, start):
    """The first free square spot of the castle from `start`, or -1."""
    for s in range(start, n_spots[castle]):
        if spot_piece[castle, s] < 0:
            return s
    return -1


@nb.njit(cache=True, inline="always")
def piece_allowed(piece, counts, castle, ignore):
    """The building rules of a small castle (not where it goes): a house needs walls >= houses after
    building, one palas per castle; `ignore` (a bonus tile) lifts them."""
    if piece == C.HOUSE:
        return ignore or counts[castle, C.WALL] >= counts[castle, C.HOUSE] + 1
    if piece == C.PALAS:
        return ignore or counts[castle, C.PALAS] == 0
    return True


@nb.njit(cache=True, inline="always")
def marker_castle(well_order, pool):
    """The castle named by the top well card (-1 if the pile is used up)."""
    return well_order[pool[WELL_TOP]] if pool[WELL_TOP] < well_order.shape[0] else -1


@block()
def skip_built_wells(well_order, counts, pool):
    """Set aside top well cards whose castle already has a well."""
    while pool[WELL_TOP] < well_order.shape[0] and counts[well_order[pool[WELL_TOP]], C.WELL] > 0:
        pool[WELL_TOP] += 1


@block()
def shuffle(a, n, key, draw_turn, drawn, stream):
    """Fisher-Yates over a[:n] with the stream's draws."""
    for i in range(n - 1, 0, -1):
        j = below(take(key, draw_turn, drawn, stream), i + 1)
        a[i], a[j] = a[j], a[i]


@block()
def take_jokers(jokers, s, pool, n):
    """Up to n jokers from the open pile (what is there if it holds fewer). Returns how many."""
    k = min(n, pool[JOKER_PILE])
    pool[JOKER_PILE] -= k
    jokers[s] += k
    return k


@block()
def pay(hand, jokers, s, paid, jokers_paid, discard, pool):
    """Paid colour cards go to the discard pile, jokers back onto their pile."""
    for c in range(C.N_COLOURS):
        for v in range(C.MAX_COINS):
            hand[c, v] -= paid[c, v]
            discard[c, v] += paid[c, v]
            if hand[c, v] < 0:
                raise AssertionError("pay: a card not in the hand")
    jokers[s] -= jokers_paid
    pool[JOKER_PILE] += jokers_paid
    if jokers[s] < 0:
        raise AssertionError("pay: a joker not in the hand")
