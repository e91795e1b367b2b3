"""Die Mauer's policy decisions, compiled with Numba; the kernel dispatches on the policy code.

A policy answers four questions: what to plan (a piece or the hollow hand), which piece to build in
hollow-hand case 1, which piece to give in case 2, and at which end to build. Policies see their own
hand, the wall's ends and what every player has built so far (public); hands of others are secret
and gifts are handed over secretly, so a policy's picture of another hand is "kit minus built".
Random draws are indexed by (Baurunde, seat, purpose), so policies share common random numbers.
"""

import numba as nb

from ...core.rng import below, draw, unit
from .constants import END_LEFT, END_RIGHT, END_START, GATE, HOLLOW, N_TYPES, NONE
from .policies import EPSILON, GUESS_RATE, HEAVY, HEAVY_BELIEF, HOLLOW_TACTICIAN, PARAMS, RANDOM
from .rules import can_build, legal_end_mask

# What a draw is for; with Baurunde and seat it forms the draw's index.
_PLAN, _CASE1, _GIFT, _END, _COIN, _HOLLOW_COIN = 0, 1, 2, 3, 4, 5


@nb.njit(cache=True, inline="always")
def _u(key, br, seat, purpose):
    return draw(key, (br * 8 + seat) * 8 + purpose)


@nb.njit(cache=True)
def _heavier(t, best, pen):
    return best == NONE or pen[t] > pen[best] or (pen[t] == pen[best] and t > best)


@nb.njit(cache=True)
def heaviest_held(hand, pen):
    best = NONE
    for t in range(N_TYPES):
        if hand[t] > 0 and _heavier(t, best, pen):
            best = t
    return best


@nb.njit(cache=True)
def heaviest_buildable(hand, wall, pen):
    best = NONE
    for t in range(N_TYPES):
        if hand[t] > 0 and can_build(t, wall) and _heavier(t, best, pen):
            best = t
    return best


@nb.njit(cache=True)
def _nth_held(hand, n, buildable_only, wall):
    for t in range(N_TYPES):
        if hand[t] > 0 and (not buildable_only or can_build(t, wall)):
            if n == 0:
                return t
            n -= 1
    return NONE


@nb.njit(cache=True)
def _count_held(hand, buildable_only, wall):
    n = 0
    for t in range(N_TYPES):
        if hand[t] > 0 and (not buildable_only or can_build(t, wall)):
            n += 1
    return n


@nb.njit(cache=True)
def random_plan(hand, u):
    n = _count_held(hand, False, hand)
    r = below(u, n + 1)
    return HOLLOW if r == n else _nth_held(hand, r, False, hand)


@nb.njit(cache=True)
def _reader_guess(prm, seat, builder, hands, built, wall, pen):
    """The held piece with the largest expected shed penalty if the builder plans it."""
    w = prm[HEAVY_BELIEF]
    n_cand = 0
    top = NONE
    for t in range(N_TYPES):
        if built[builder, t] < 1 and can_build(t, wall):
            n_cand += 1
            if _heavier(t, top, pen):
                top = t
    best = NONE
    best_score = -1.0
    for t in range(N_TYPES):
        if hands[seat, t] > 0 and built[builder, t] < 1 and can_build(t, wall):
            p = (1.0 - w) / n_cand + (w if t == top else 0.0)
            score = p * pen[t]
            if score > best_score or (score == best_score and t > best):
                best, best_score = t, score
    return best if best != NONE else heaviest_held(hands[seat], pen)


@nb.njit(cache=True)
def _reader_build_plan(prm, seat, hands, built, wall, pen):
    """The buildable piece with the largest penalty times the chance that nobody guesses it."""
    q = prm[GUESS_RATE]
    best = NONE
    best_score = -1.0
    for t in range(N_TYPES):
        if hands[seat, t] > 0 and can_build(t, wall):
            unguessed = 1.0
            for c in range(hands.shape[0]):
                if c != seat and built[c, t] < 1:
                    unguessed *= 1.0 - q
            score = pen[t] * unguessed
            if score > best_score or (score == best_score and t > best):
                best, best_score = t, score
    return best if best != NONE else heaviest_held(hands[seat], pen)


@nb.njit(cache=True, _nrt=False)  # allocates nothing; no reference counts on every call (play.py)
def plan(st, pen, code, prm, seat, builder, key, br):
    """The piece (0-6) or HOLLOW that `seat` (policy `code`, parameters `prm`) holds in its fist this Baurunde."""
    hands, built, wall = st.hands, st.built, st.wall
    hand = hands[seat]
    if code == RANDOM or unit(_u(key, br, seat, _COIN)) < prm[EPSILON]:
        return random_plan(hand, _u(key, br, seat, _PLAN))
    if code == HEAVY:
        t = heaviest_buildable(hand, wall, pen)
        return t if t != NONE else heaviest_held(hand, pen)
    if code == HOLLOW_TACTICIAN:
        rate = prm[PARAMS.hollow.builder_hollow] if seat == builder else prm[PARAMS.hollow.competitor_hollow]
        if unit(_u(key, br, seat, _HOLLOW_COIN)) < rate:
            return HOLLOW
    if seat == builder:
        return _reader_build_plan(prm, seat, hands, built, wall, pen)
    return _reader_guess(prm, seat, builder, hands, built, wall, pen)


@nb.njit(cache=True)
def case1_choice(code, seat, hands, wall, pen, key, br):
    """Hollow-hand case 1: the piece the builder builds, or NONE if he holds nothing buildable."""
    hand = hands[seat]
    if code == RANDOM:
        n = _count_held(hand, True, wall)
        if n == 0:
            return NONE
        return _nth_held(hand, below(_u(key, br, seat, _CASE1), n), True, wall)
    return heaviest_buildable(hand, wall, pen)


@nb.njit(cache=True)
def gift_choice(code, seat, hands, pen, key, br):
    """Hollow-hand case 2: the piece the lone hollow competitor gives the builder."""
    hand = hands[seat]
    if code == RANDOM:
        n = _count_held(hand, False, hand)
        return _nth_held(hand, below(_u(key, br, seat, _GIFT), n), False, hand)
    return heaviest_held(hand, pen)


@nb.njit(cache=True)
def end_choice(code, seat, piece, hands, wall, key, br):
    """The end at which `seat` builds `piece` (the piece may go at one of the legal ends)."""
    mask = legal_end_mask(piece, wall)
    if mask == 1 << END_START:
        return END_START
    both = (1 << END_LEFT) | (1 << END_RIGHT)
    if code != RANDOM and piece < GATE and mask == both and hands[seat, 5] + hands[seat, 6] > 0:
        # Cover a special end so that one's own gate or tower keeps a site.
        if wall[1] >= GATE and wall[2] < GATE:
            return END_LEFT
        if wall[2] >= GATE and wall[1] < GATE:
            return END_RIGHT
    if mask == both:
        return END_LEFT if below(_u(key, br, seat, _END), 2) == 0 else END_RIGHT
    return END_LEFT if mask == 1 << END_LEFT else END_RIGHT
