"""Mauerbruch's rules as pure functions over card arrays (compiled with Numba).

Cards are indices into the deck's arrays (state.Cards: kind, symbol, value, and `gcd`, a table over values).
"""


from ...core.blocks import block
from .constants import BAN2, BAN5, DOUBLE, JOKER, N_STACKS, NO_PAIR, NUMBER, SINGLE


@block(_nrt=False)
def bans_in_force(tops, kinds):
    """(2 banned, 5 banned): a face-up ban card on top of any stack bans that divisor."""
    ban2 = False
    ban5 = False
    for s in range(N_STACKS):
        if tops[s] >= 0:
            k = kinds[tops[s]]
            ban2 = ban2 or k == BAN2
            ban5 = ban5 or k == BAN5
    return ban2, ban5


@block(_nrt=False)
def pair_kind(cards, a, b, ban2, ban5):
    """NO_PAIR, SINGLE or DOUBLE for cards a and b under the bans in force.

    Number cards: a valid divisor is a gcd g > 1 that is not banned (only g itself: with 2 banned,
    20 and 12 still share 4). Double: same symbol and a valid divisor; single: exactly one of them.
    A joker matches every number card: double with its own symbol, single otherwise; two jokers are
    single. Two bans of the same kind are a double; a ban matches nothing else; a Wunschkarte nothing.
    """
    kinds, symbols, values = cards.kinds, cards.symbols, cards.values
    ka, kb = kinds[a], kinds[b]
    if ka == BAN2 or ka == BAN5 or kb == BAN2 or kb == BAN5:
        return DOUBLE if ka == kb else NO_PAIR
    if (ka != NUMBER and ka != JOKER) or (kb != NUMBER and kb != JOKER):
        return NO_PAIR
    same_symbol = symbols[a] == symbols[b]
    if ka == JOKER and kb == JOKER:
        return SINGLE
    if ka == JOKER or kb == JOKER:
        return DOUBLE if same_symbol else SINGLE
    g = cards.gcd[values[a], values[b]]
    divisor = g > 1 and not (g == 2 and ban2) and not (g == 5 and ban5)
    if same_symbol and divisor:
        return DOUBLE
    if same_symbol or divisor:
        return SINGLE
    return NO_PAIR


@block(_nrt=False)
def list_pairs(tops, cards, out):
    """Every pair of top cards that matches, into out.a, out.b, out.kind (state.Pairs); returns how many."""
    ban2, ban5 = bans_in_force(tops, cards.kinds)
    n = 0
    for i in range(N_STACKS):
        if tops[i] < 0:
            continue
        for j in range(i + 1, N_STACKS):
            if tops[j] < 0:
                continue
            kind = pair_kind(cards, tops[i], tops[j], ban2, ban5)
            if kind != NO_PAIR:
                out.a[n] = i
                out.b[n] = j
                out.kind[n] = kind
                n += 1
    return n
