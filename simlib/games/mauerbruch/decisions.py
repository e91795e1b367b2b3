"""Mauerbruch's policy decisions, compiled with Numba; the kernel dispatches on the policy code.

Policies see the wall's top cards and stack heights, every pile's size and their own pile (all public
in the game). Draws are indexed by (take, purpose), so policies share common random numbers.
"""

import numba as nb

from ...core.blocks import block
from ...core.rng import below, draw, unit
from .constants import DOUBLE, N_STACKS, NO_PAIR, SINGLE, WISH
from .policies import CAUTIOUS, EPSILON, PARAMS, RANDOM
from .rules import bans_in_force, pair_kind

TAKE_DRAWS = 4096  # draw indices below this are the shuffle's
TIE_DRAWS = 1 << 24
_PAIR, _SWAP, _COIN, _NEIGHBOUR = 0, 1, 2, 3


@nb.njit(cache=True, _nrt=False, inline="always")
def _u(key, take, purpose):
    return draw(key, TAKE_DRAWS + take * 8 + purpose)


@block(_nrt=False)
def _best_new_pair(tops, cards, stack, card):
    """The best pair card would form with another top if it lay on `stack`."""
    old = tops[stack]
    tops[stack] = card
    ban2, ban5 = bans_in_force(tops, cards.kinds)
    best = NO_PAIR
    for s in range(N_STACKS):
        if s != stack and tops[s] >= 0:
            best = max(best, pair_kind(cards, card, tops[s], ban2, ban5))
    tops[stack] = old
    return best


@block(_nrt=False)
def _swaps(st, cards, player, minimum, pick):
    """Swaps whose new card forms a pair of at least `minimum`: (how many, stack and pile position of the
    `pick`-th), the pile positions being the last seven cards of the player's pile."""
    tops, pile, pile_n = st.tops, st.pile, st.pile_n
    count = 0
    for s in range(N_STACKS):
        if tops[s] < 0 or cards.kinds[tops[s]] != WISH:
            continue
        for j in range(max(0, pile_n[player] - 7), pile_n[player]):
            if _best_new_pair(tops, cards, s, pile[player, j]) >= minimum:
                if count == pick:
                    return count, s, j
                count += 1
    return count, -1, -1


@block(_nrt=False)
def choose_swap(st, cards, code, player, n_pairs, key, take):
    """A Wunschkarte swap before a take (st.tops as refresh left them): (stack, pile position), or (-1, -1).

    random swaps whenever a swap creates a pair, uniformly among those swaps; the others swap for a
    double, or for any pair when no pair is available otherwise.
    """
    if code == RANDOM or n_pairs == 0:
        minimum = SINGLE
    else:
        minimum = DOUBLE
    count, _, _ = _swaps(st, cards, player, minimum, -1)
    if count == 0:
        return -1, -1
    _, s, j = _swaps(st, cards, player, minimum, below(_u(key, take, _SWAP), count))
    return s, j


@block(_nrt=False)
def choose_pair(st, pw, lineup, player, n_pairs, key, take):
    """Index of the pair to take among the n_pairs the phase allows (pw.fa, fb, fk), for the player's policy."""
    code, prm = lineup.codes[player], lineup.params[player]
    if code == RANDOM or unit(_u(key, take, _COIN)) < prm[EPSILON]:
        return below(_u(key, take, _PAIR), n_pairs)
    heights, pile_n = st.heights, st.pile_n
    best = 0
    best_score = -1e18
    others = 0
    for p in range(pile_n.shape[0]):
        if p != player and pile_n[p] > others:
            others = pile_n[p]
    for i in range(n_pairs):
        score = 10.0 if pw.fk[i] == DOUBLE else 0.0
        if code == CAUTIOUS:
            a, b = pw.fa[i], pw.fb[i]
            empties = heights[a] == 1 or heights[b] == 1
            if empties:
                bonus = 0
                for s in (a - 1, a + 1, b - 1, b + 1):
                    if 0 <= s < N_STACKS and s != a and s != b and heights[s] > bonus:
                        bonus = heights[s]
                ahead = pile_n[player] + 2 + bonus - others > prm[PARAMS.cautious.break_margin]
                score = 1000.0 if ahead else -1000.0
            elif pw.fk[i] == SINGLE and (heights[a] == 2 or heights[b] == 2):
                score -= 20.0  # would leave a one-card stack for the next player to break
        score += unit(draw(key, TIE_DRAWS + take * 64 + i))  # a random tie-break below any score step
        if score > best_score:
            best, best_score = i, score
    return best


@block(_nrt=False)
def choose_neighbour(code, emptied_a, emptied_b, heights, key, take):
    """The neighbouring stack whose cards the wall-breaker adds to his pile (-1 if none is left)."""
    count = 0
    largest = -1
    for s in range(N_STACKS):
        if heights[s] > 0 and (abs(s - emptied_a) == 1 or (emptied_b >= 0 and abs(s - emptied_b) == 1)):
            count += 1
            if largest < 0 or heights[s] > heights[largest]:
                largest = s
    if count == 0:
        return -1
    if code != RANDOM:
        return largest
    pick = below(_u(key, take, _NEIGHBOUR), count)
    for s in range(N_STACKS):
        if heights[s] > 0 and (abs(s - emptied_a) == 1 or (emptied_b >= 0 and abs(s - emptied_b) == 1)):
            if pick == 0:
                return s
            pick -= 1
    return -1
