"""What random, builder and saver choose each turn: a free swap (`choose_swap`), an exchange (`exchanges`, with
builds.exchange_helps) and the main action's build (`choose_build`), over the play (state.Play), the run's Setup,
the Turn and the turn's work space (state.TurnWork). Which builds are legal and what they cost is builds.py's.

The turn's decisions run without Numba's reference counting (_nrt=False, as Catan's): with it, each array taken
out of a NamedTuple costs a count and a release per call (more when inlined), up to 40% more time a play. So they
allocate nothing, nor does anything they call.
"""

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import below, draw, unit
from . import constants as C
from .builds import CASTLE, PIECE, SPOT, TILE, Means, has_place, legal_builds, payment, small_castle_means, small_places
from .policies import BUILDER, PARAMS, POLICIES, RANDOM, SAVER
from .rules import BONUS_TOP, JOKER_PILE, SWAP_SUPPLY, WELLS_BUILT, castle_colours, colour_cards, take, total_coins

SAVER_ORDER = (C.PALAS, C.WELL, C.HOUSE, C.WALL)  # the saver's most demanding piece first
# The saver ranks spots by the builder's default weights.
DEFAULT_WEIGHTS = np.array(list(POLICIES["builder"].params.values()))
W = PARAMS.builder  # the builder's weights (the saver's too: DEFAULT_WEIGHTS)


@block(_nrt=False)
def build_value(build, w, st, setup, hand, jokers, master_need, paid):
    """The builder's value of a build: its rewards by the weights, minus jokers and coins paid."""
    piece, castle, spot, counts, pool, bd = build[PIECE], build[CASTLE], build[SPOT], st.counts, st.pool, setup.bd
    j = payment(build, hand, jokers, st.stones, setup, master_need, paid)
    value = -w[W.w_joker] * j - total_coins(paid) / w[W.coin_scale]
    if build[TILE] >= 0:
        value -= w[W.w_bonus]
    if castle == C.CENTRAL:
        return value
    if piece == C.WALL:
        value += w[W.w_joker] * min(counts[castle, C.WALL] + 1, pool[JOKER_PILE] + j)
    if piece == C.WELL:
        return value + w[W.w_coins] * C.WELL_REWARDS[min(pool[WELLS_BUILT], len(C.WELL_REWARDS) - 1)]
    if spot >= C.SQUARE_SPOTS:
        return value
    kind = bd.spot_kind[castle, spot]
    if kind == C.SPOT_JOKER:
        value += w[W.w_joker] * (pool[JOKER_PILE] + j > 0)
    elif kind == C.SPOT_COINS:
        value += w[W.w_coins] * bd.spot_value[castle, spot]
    elif kind == C.SPOT_SWAP:
        value += w[W.w_swap] * (pool[SWAP_SUPPLY] > 0)
    elif pool[BONUS_TOP] < setup.cards.bonus_effect.shape[0]:
        value += w[W.w_bonus]
    return value


@block(_nrt=False)
def best_build(builds, n, w, st, setup, hand, jokers, master_need, paid):
    """The index of the build of highest value (the first on a tie)."""
    best, best_value = -1, -1e300
    for i in range(n):
        v = build_value(builds[i], w, st, setup, hand, jokers, master_need, paid)
        if v > best_value:
            best, best_value = i, v
    return best


@block(_nrt=False)
def random_swap(prm, st, turn, key):
    """Random policy: whether to play a swap (tile or bonus tile) and on which positions: (a, b) or (-1, -1)."""
    if st.swaps_held[turn.s] == 0 and turn.tile_of[C.SWAP_TILE] < 0:
        return -1, -1
    if unit(take(key, st.draw_turn, st.drawn, C.SWAP_DRAWS)) >= prm[PARAMS.random.p_swap]:
        return -1, -1
    pair = below(take(key, st.draw_turn, st.drawn, C.SWAP_DRAWS), 28)
    a = 0
    while pair >= C.N_POSITIONS - 1 - a:
        pair -= C.N_POSITIONS - 1 - a
        a += 1
    return a, a + 1 + pair


@nb.njit(cache=True, inline="always")
def build_id(b):
    """A number > 0 naming a build (piece, castle, spot, tile) apart from every other."""
    return 1 + (b[TILE] + 1) + ((b[PIECE] * 16 + b[CASTLE]) * 16 + b[SPOT] + 1) * (1 << 20)


@block(_nrt=False)
def random_build(builds, n, key, draw_turn, drawn):
    """Random policy: a uniform one of the n builds and drawing (index n). The turn's draw keys a number for each
    main action by what it is (`build_id`; drawing is 0) and the least wins, so two variants of a play whose seat
    has different builds open still choose alike whenever the winner is open in both (an index into the list
    would shift with it: measured in docs/games/burgenland.md, "As built" 12)."""
    u = take(key, draw_turn, drawn, C.BUILD_DRAWS)
    k, least = n, draw(u, 0)
    for i in range(n):
        h = draw(u, build_id(builds[i]))
        if h < least:
            k, least = i, h
    return k


@block(_nrt=False)
def saver_target(st, turn):
    """The saver's piece: the first of palas, well, house, wall it holds with a place in a small castle
    (-1 - piece: none has one; the central castle's piece, the first of palas, house, wall it holds)."""
    supply = st.supply[turn.s]
    for piece in SAVER_ORDER:
        if supply[piece] == 0:
            continue
        for c in range(C.N_CASTLES):
            if has_place(piece, c, st.counts, st.spot_piece, st.n_spots, turn.marker, turn.tile_of):
                return piece
    for piece in (C.PALAS, C.HOUSE, C.WALL):
        if supply[piece] > 0:
            return -1 - piece
    return -1 - C.WALL


@block(_nrt=False)
def matching_cards(hand, stones, bd, castles_ok):
    """The most cards of its two colours the hand holds for any castle marked in castles_ok."""
    best = -1
    for c in range(C.N_CASTLES):
        if castles_ok[c]:
            a, b = castle_colours(stones, bd.stones, c)
            best = max(best, colour_cards(hand, a) + colour_cards(hand, b))
    return best


@block(_nrt=False)
def best_swap_for(hand, stones, bd, castles_ok):
    """The pair of positions whose swap most raises matching_cards, and the count it reaches (-1, -1 and the
    count now if none raises it)."""
    base = matching_cards(hand, stones, bd, castles_ok)
    best_a, best_b, best = -1, -1, base
    for a in range(C.N_POSITIONS):
        for b in range(a + 1, C.N_POSITIONS):
            stones[a], stones[b] = stones[b], stones[a]
            m = matching_cards(hand, stones, bd, castles_ok)
            stones[a], stones[b] = stones[b], stones[a]
            if m > best:
                best_a, best_b, best = a, b, m
    return best_a, best_b, best


@nb.njit(cache=True, inline="always")
def policy_jokers(code, prm, jokers, piece):
    """The jokers a policy spends on a piece: the saver keeps them for palases (keep_jokers = 1)."""
    if code == SAVER and prm[PARAMS.saver.keep_jokers] > 0.5 and piece != C.PALAS:
        return 0
    return jokers


@nb.njit(cache=True, inline="always")
def patience(code, prm):
    if code == BUILDER:
        return prm[PARAMS.builder.central_patience]
    return prm[PARAMS.saver.central_patience] if code != RANDOM else 0.0


@nb.njit(cache=True, inline="always")
def builder_swap(st, setup, turn, wk):
    """The builder's swap: only when it cannot build now, and only one that brings enough cards of a castle's
    colours (jokers counted) for a piece it holds to go there."""
    hand, jokers, castles_ok = st.hands[turn.s], st.jokers[turn.s], wk.castles_ok
    if legal_builds(wk.builds, st, setup.bd, setup.rules.central_price, turn, small_castle_means(hand, jokers),
                    wk.paid) > 0:
        return -1, -1
    castles_ok[:] = False
    for piece in range(4):
        if st.supply[turn.s, piece] > 0:
            small_places(castles_ok, piece, st, turn)
    a, b, m = best_swap_for(hand, st.stones, setup.bd, castles_ok)
    if m + jokers < C.PRICE:  # the swap does not make a build affordable
        return -1, -1
    return a, b


@nb.njit(cache=True, inline="always")
def saver_swap(prm, st, setup, turn, wk):
    """The saver's swap: when it cannot build its piece now, the one bringing the most of its cards' colours
    onto a castle where the piece can go (even if still too few: it waits for cards). None when the piece has
    no small-castle place: a swap cannot help the central castle, whose price has no colours."""
    target = saver_target(st, turn)
    if target < 0:
        return -1, -1
    hand, castles_ok = st.hands[turn.s], wk.castles_ok
    spend = policy_jokers(SAVER, prm, st.jokers[turn.s], target)
    if legal_builds(wk.builds, st, setup.bd, setup.rules.central_price, turn,
                    Means(hand, spend, spend, False, 0, 0, target), wk.paid) > 0:
        return -1, -1
    castles_ok[:] = False
    small_places(castles_ok, target, st, turn)
    a, b, _ = best_swap_for(hand, st.stones, setup.bd, castles_ok)
    return a, b


@block(_nrt=False)
def choose_swap(code, prm, st, setup, turn, wk, key):
    """The free swap of a seat holding a swap tile (or a swap bonus tile): positions (a, b), (-1, -1) for none.
    Random swaps by chance, builder and saver when they cannot build now."""
    if code == RANDOM:
        return random_swap(prm, st, turn, key)
    if code == BUILDER:
        return builder_swap(st, setup, turn, wk)
    return saver_swap(prm, st, setup, turn, wk)


@nb.njit(cache=True, inline="always")
def exchanges(code):
    """Whether the policy exchanges coins for jokers at all: the builder does, when that makes a build affordable
    (builds.exchange_helps); random and saver never."""
    return code == BUILDER


@block(_nrt=False)
def choose_build(code, prm, st, setup, turn, wk, key):
    """The main action of seat turn.s: (k, spend), the row of wk.builds to build (-1: draw two) and the jokers to
    spend on it. Random: uniform (random_build). Builder and saver: the build of best value (the saver: of its
    piece, valued by the builder's default weights), the central castle only after `patience` turns in a row
    without a small-castle build (st.waiting). A palas may take every joker (legal_builds offered it with them
    all)."""
    s, rules, builds, paid, waiting = turn.s, setup.rules, wk.builds, wk.paid, st.waiting
    hand, jokers, master_need, price = st.hands[s], st.jokers[s], turn.master_need, rules.central_price
    central_jokers = jokers if rules.central_jokers else 0
    central_need = master_need if rules.central_master_builder else 0
    if code == RANDOM:
        n = legal_builds(builds, st, setup.bd, price, turn,
                         Means(hand, jokers, jokers, True, central_jokers, central_need, -1), paid)
        k = random_build(builds, n, key, st.draw_turn, st.drawn)
        return (k, _jokers_for(builds[k], jokers, jokers, central_jokers)) if k < n else (-1, jokers)
    target, w, only, spend = -1, prm, -1, jokers
    if code == SAVER:  # as at the turn's start: the piece's place depends on neither the stones nor the hand
        target = saver_target(st, turn)
        w, only = wk.saver_weights, target if target >= 0 else -1 - target
        spend = policy_jokers(code, prm, jokers, only)
        central_jokers = min(central_jokers, spend)
    n = 0
    if target >= 0 or code == BUILDER:
        n = legal_builds(builds, st, setup.bd, price, turn, Means(hand, spend, jokers, False, 0, 0, only), paid)
    if n > 0:
        waiting[s] = 0
    else:
        waiting[s] += 1
        if waiting[s] > patience(code, prm):
            n = legal_builds(builds, st, setup.bd, price, turn,
                             Means(hand, 0, 0, True, central_jokers, central_need, only), paid)
            spend = central_jokers
    if n == 0:
        return -1, spend
    k = best_build(builds, n, w, st, setup, hand, spend, master_need, paid)
    return k, _jokers_for(builds[k], spend, jokers, central_jokers)


@nb.njit(cache=True, inline="always")
def _jokers_for(build, spend, jokers, central_jokers):
    if build[CASTLE] == C.CENTRAL:
        return central_jokers
    return jokers if build[PIECE] == C.PALAS else spend
