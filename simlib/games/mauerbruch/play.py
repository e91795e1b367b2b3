"""The blocks a play of Mauerbruch is made of, over a State (state.py): `deal`, then `_run`, the play's passes
(one pass: a Wunschkarte swap, the pair the phase allows, the wall broken or the turn passed on) until it ends
or stops where a search seat is to move; `play_on` wraps it for a search's rollout. The kernel (kernel.py) and
the search (search.py) both play through these."""

import numba as nb

from ...core.blocks import block
from ...core.rng import below, draw
from .constants import (
    BLOCKED,
    BROKEN,
    DOUBLE,
    EV_BAN2,
    EV_BAN5,
    EV_CARD_A,
    EV_CARD_B,
    EV_KIND,
    EV_PHASE,
    EV_PLAY,
    EV_SEAT,
    EV_STACK_A,
    EV_STACK_B,
    EV_SWAP_CARD,
    EV_SWAP_STACK,
    EV_TAKE,
    EV_TURN,
    N_STACKS,
    OPENING_DOUBLE,
    OPENING_SINGLE,
    SINGLE,
    TURN,
)
from .decisions import choose_neighbour, choose_pair, choose_swap
from .rules import bans_in_force, list_pairs
from .state import (
    S_BONUS_CARDS,
    S_BONUS_STACK,
    S_BREAKER,
    S_EMPTIED,
    S_FIRST,
    S_MUST_TAKE,
    S_OPENING_PAIRS,
    S_PHASE,
    S_PLAYER,
    S_REASON,
    S_TAKE,
    S_TURN,
    T_DOUBLES,
    T_PAIRS,
    T_SWAPS,
)


@nb.njit(cache=True, _nrt=False, inline="always")
def _refresh(stacks, heights, tops, kinds, symbols, values, gcd, pa, pb, pk):
    for s in range(N_STACKS):
        tops[s] = stacks[s, heights[s] - 1] if heights[s] > 0 else -1
    return list_pairs(tops, kinds, symbols, values, gcd, pa, pb, pk)


@block(_nrt=False)
def refresh(st, cards, pw):
    """The stacks' top cards and every pair among them (into pw); returns how many pairs."""
    return _refresh(st.stacks, st.heights, st.tops, cards.kinds, cards.symbols, cards.values, cards.gcd, pw.a, pw.b,
                    pw.kind)


@block(_nrt=False)
def _filter(kind_wanted, n, pair_a, pair_b, pair_kind, fa, fb, fk):
    m = 0
    for i in range(n):
        if pair_kind[i] == kind_wanted:
            fa[m], fb[m], fk[m] = pair_a[i], pair_b[i], pair_kind[i]
            m += 1
    return m


@nb.njit(cache=True, _nrt=False, inline="always")
def _allowed(phase, n_pairs, pa, pb, pk, fa, fb, fk):
    if phase == OPENING_DOUBLE:
        return _filter(DOUBLE, n_pairs, pa, pb, pk, fa, fb, fk)
    if phase == OPENING_SINGLE:
        return _filter(SINGLE, n_pairs, pa, pb, pk, fa, fb, fk)
    m = _filter(DOUBLE, n_pairs, pa, pb, pk, fa, fb, fk)
    return m + _filter(SINGLE, n_pairs, pa, pb, pk, fa[m:], fb[m:], fk[m:])


@block(_nrt=False)
def allowed(phase, n_pairs, pw):
    """The pairs the phase allows into pw.fa/fb/fk (a turn: doubles first); returns how many."""
    return _allowed(phase, n_pairs, pw.a, pw.b, pw.kind, pw.fa, pw.fb, pw.fk)


@block(_nrt=False)
def swap(st, player, s, j):
    """_swap on the state `st`."""
    return _swap(st.stacks, st.heights, st.pile, st.pile_n, st.tally, player, s, j)


@block(_nrt=False)
def deal(st, key, sizes, order):
    """Shuffle (a keyed Fisher-Yates, one draw per position) and deal the stacks; the opener to move."""
    stacks, heights, sc = st.stacks, st.heights, st.sc  # out of the tuple once (see _run)
    for c in range(order.shape[0]):
        order[c] = c
    for c in range(order.shape[0] - 1, 0, -1):
        j = below(draw(key, c), c + 1)
        order[c], order[j] = order[j], order[c]
    c = 0
    for s in range(N_STACKS):
        heights[s] = sizes[s]
        for h in range(sizes[s]):
            stacks[s, h] = order[c]
            c += 1
    st.pile_n[:] = 0
    st.tally[:] = 0
    sc[:] = 0
    sc[S_PHASE] = OPENING_DOUBLE
    sc[S_TURN] = -1
    sc[S_REASON] = -1
    sc[S_EMPTIED] = -1
    sc[S_BONUS_STACK] = -1
    sc[S_BREAKER] = -1


@block(_nrt=False)
def _break_wall(stacks, heights, pile, pile_n, sc, code, player, a, b, key, take):
    """Stack a or b was emptied: the player adds a neighbouring stack of his choice; the play ends."""
    sc[S_EMPTIED] = a if heights[a] == 0 else b
    other = b if heights[a] == 0 and heights[b] == 0 else -1
    bonus = choose_neighbour(code, sc[S_EMPTIED], other, heights, key, take)
    if bonus >= 0:
        sc[S_BONUS_STACK] = bonus
        sc[S_BONUS_CARDS] = heights[bonus]
        for h in range(heights[bonus]):
            pile[player, pile_n[player]] = stacks[bonus, h]
            pile_n[player] += 1
        heights[bonus] = 0
    sc[S_BREAKER] = player
    sc[S_REASON] = BROKEN


@block(_nrt=False)
def _swap(stacks, heights, pile, pile_n, tally, player, s, j):
    """The Wunschkarte on stack s for the card at pile position j: that card onto the wall, the Wunschkarte
    last onto the pile. Returns the card put on the wall."""
    card, wish = pile[player, j], stacks[s, heights[s] - 1]
    stacks[s, heights[s] - 1] = card
    for k in range(j, pile_n[player] - 1):
        pile[player, k] = pile[player, k + 1]
    pile[player, pile_n[player] - 1] = wish
    tally[T_SWAPS, player] += 1
    return card


@block(_nrt=False)
def _record(ev, row, play, tops, kinds, take, turn, stacks, heights, player, phase, a, b, kind, swap_card,
              swap_stack):
    ban2, ban5 = bans_in_force(tops, kinds)
    ev[row, EV_PLAY] = play
    ev[row, EV_TAKE] = take
    ev[row, EV_PHASE] = phase
    ev[row, EV_TURN] = turn
    ev[row, EV_SEAT] = player
    ev[row, EV_CARD_A] = stacks[a, heights[a] - 1]
    ev[row, EV_STACK_A] = a
    ev[row, EV_CARD_B] = stacks[b, heights[b] - 1]
    ev[row, EV_STACK_B] = b
    ev[row, EV_KIND] = kind
    ev[row, EV_BAN2] = ban2
    ev[row, EV_BAN5] = ban5
    ev[row, EV_SWAP_CARD] = swap_card
    ev[row, EV_SWAP_STACK] = swap_stack


@block(_nrt=False)
def _run(stacks, heights, tops, pile, pile_n, tally, sc, kinds, symbols, values, gcd, pa, pb, pk, fa, fb, fk, codes,
         prm, key, discard_opening, plan, passes, horizon, stop_code, ev, row, play):
    """Passes of the play until it ends, or `passes` passes (0: no limit), or `horizon` more takes (0: no limit),
    or a seat of policy `stop_code` is to move (-1: none). A pass: the player to move may swap a Wunschkarte (in
    a turn), then takes one of the pairs the phase allows; or, with none, the opening moves on, a turn after a
    double passes on, or the play ends blocked. `plan` (swap stack, pile position, pair), when its pair is
    >= 0, is a search's choice for the first pass; otherwise the seats' policies choose. Records takes from
    event row `row` (>= 0); returns the next row.

    The play's scalars are held in locals for the loop and written back to `sc` at the end, and the arrays come
    one by one: passes as calls over the State (its scalars in memory, its arrays taken out of the tuple each
    pass) made plays 1.7x slower (measured 2026-12-02)."""
    n = pile_n.shape[0]
    player, phase, turn, take, must_take = sc[S_PLAYER], sc[S_PHASE], sc[S_TURN], sc[S_TAKE], sc[S_MUST_TAKE] != 0
    first_player, reason = sc[S_FIRST], sc[S_REASON]
    stop = take + horizon if horizon > 0 else 1 << 62
    planned, done = plan[2] >= 0, 0
    while reason < 0 and take < stop and (passes == 0 or done < passes):
        if codes[player] == stop_code and not planned:
            break
        done += 1
        n_pairs = _refresh(stacks, heights, tops, kinds, symbols, values, gcd, pa, pb, pk)
        swap_card, swap_stack = -1, -1
        if phase == TURN and pile_n[player] > 0:
            if planned:
                s, j = plan[0], plan[1]
            else:
                s, j = choose_swap(codes[player], player, n_pairs, tops, pile, pile_n, kinds, symbols, values, gcd,
                                   key, take)
            if s >= 0:
                swap_card, swap_stack = _swap(stacks, heights, pile, pile_n, tally, player, s, j), s
                n_pairs = _refresh(stacks, heights, tops, kinds, symbols, values, gcd, pa, pb, pk)
        m = _allowed(phase, n_pairs, pa, pb, pk, fa, fb, fk)
        if m == 0:
            if phase == OPENING_DOUBLE:
                phase = OPENING_SINGLE
            elif phase == TURN and must_take:  # a double left no pair: the turn ends
                must_take = False
                player = (player + 1) % n
            else:
                reason = BLOCKED
            planned = False
            continue
        if phase == TURN and not must_take:
            turn += 1
        if planned:
            p = plan[2]
            planned = False
        else:
            p = choose_pair(codes[player], prm[player], player, m, fa, fb, fk, heights, pile_n, key, take)
        a, b, kind = fa[p], fb[p], fk[p]
        if row >= 0:
            _record(ev, row, play, tops, kinds, take, turn, stacks, heights, player, phase, a, b, kind, swap_card,
                      swap_stack)
            row += 1
        if phase != OPENING_DOUBLE or not discard_opening:
            pile[player, pile_n[player]] = stacks[a, heights[a] - 1]
            pile[player, pile_n[player] + 1] = stacks[b, heights[b] - 1]
            pile_n[player] += 2
        heights[a] -= 1
        heights[b] -= 1
        if phase == OPENING_DOUBLE:
            sc[S_OPENING_PAIRS] += 1
        else:
            tally[T_PAIRS, player] += 1
            tally[T_DOUBLES, player] += kind == DOUBLE
        take += 1
        if heights[a] == 0 or heights[b] == 0:
            _break_wall(stacks, heights, pile, pile_n, sc, codes[player], player, a, b, key, take)
            reason = BROKEN
        elif phase == OPENING_DOUBLE:
            player = (player + 1) % n
        elif phase == OPENING_SINGLE:
            player = first_player = (player + 1) % n
            phase = TURN
        else:
            must_take = kind == DOUBLE
            if kind != DOUBLE:
                player = (player + 1) % n
    sc[S_PLAYER], sc[S_PHASE], sc[S_TURN], sc[S_TAKE], sc[S_MUST_TAKE] = player, phase, turn, take, must_take
    sc[S_FIRST], sc[S_REASON] = first_player, reason
    return row


@block(_nrt=False)
def play_on(st, cards, pw, codes, prm, key, discard_opening, plan, horizon, no_ev):
    """The play on with the seats' scripted policies (`plan` for the first pass, if its pair is >= 0) until it
    ends, or `horizon` more takes (0: no limit): a search's rollout."""
    stacks, heights, tops, pile, pile_n, tally, sc = st
    kinds, symbols, values, gcd = cards
    pa, pb, pk, fa, fb, fk = pw
    _run(stacks, heights, tops, pile, pile_n, tally, sc, kinds, symbols, values, gcd, pa, pb, pk, fa, fb, fk, codes,
         prm, key, discard_opening, plan, 0, horizon, -1, no_ev, -1, 0)
