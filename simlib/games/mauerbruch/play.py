"""The blocks a play of Mauerbruch is made of, over a State (state.py): `deal`, then `play_on`, the play's passes
(one pass: a Wunschkarte swap, the pair the phase allows, the wall broken or the turn passed on) until it ends
or stops where a search seat is to move. The kernel (kernel.py), the search kernel and a search's rollouts
(search.py) all play through `play_on`."""

from typing import NamedTuple

import numba as nb
import numpy as np

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


class Until(NamedTuple):
    """Where play_on stops before the play's end: after `passes` passes (0: no limit), after `takes` more takes
    (0: no limit), where a seat of policy `code` is to move and no plan is left (-1: none)."""

    passes: int
    takes: int
    code: int


TO_THE_END = Until(0, 0, -1)


class Events(NamedTuple):
    """What a play records: event rows being written (`table` [row, EV_*], the play's index (its rows' EV_PLAY),
    the next row to write, -1: the play writes none), and the standing, every table position's cards won after
    each take ([take, table position]; no rows: not kept, as in a search's rollouts)."""

    table: np.ndarray
    play: int
    row: int
    standing: np.ndarray


@nb.njit(cache=True, _nrt=False, inline="always")
def refresh(st, cards, pw):
    """The stacks' top cards and every pair among them (into pw); returns how many pairs."""
    for s in range(N_STACKS):
        st.tops[s] = st.stacks[s, st.heights[s] - 1] if st.heights[s] > 0 else -1
    return list_pairs(st.tops, cards, pw)


@block(_nrt=False)
def _filter(pw, kind_wanted, n, m):
    """The pairs of `kind_wanted` among the first n listed, into the allowed ones from the m-th; returns the
    allowed ones' count."""
    for i in range(n):
        if pw.kind[i] == kind_wanted:
            pw.fa[m], pw.fb[m], pw.fk[m] = pw.a[i], pw.b[i], pw.kind[i]
            m += 1
    return m


@nb.njit(cache=True, _nrt=False, inline="always")
def allowed(phase, n_pairs, pw):
    """The pairs the phase allows into pw.fa/fb/fk (a turn: doubles first); returns how many."""
    if phase == OPENING_DOUBLE:
        return _filter(pw, DOUBLE, n_pairs, 0)
    if phase == OPENING_SINGLE:
        return _filter(pw, SINGLE, n_pairs, 0)
    return _filter(pw, SINGLE, n_pairs, _filter(pw, DOUBLE, n_pairs, 0))


@block(_nrt=False)
def deal(st, key, sizes, order):
    """Shuffle (a keyed Fisher-Yates, one draw per position) and deal the stacks; the opener to move."""
    stacks, heights, sc = st.stacks, st.heights, st.sc
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
def _break_wall(st, code, player, a, b, key, take):
    """Stack a or b was emptied: the player adds a neighbouring stack of his choice; the play ends."""
    stacks, heights, pile, pile_n, sc = st.stacks, st.heights, st.pile, st.pile_n, st.sc
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
def swap(st, player, s, j):
    """The Wunschkarte on stack s for the card at pile position j: that card onto the wall, the Wunschkarte
    last onto the pile. Returns the card put on the wall."""
    stacks, heights, pile, pile_n = st.stacks, st.heights, st.pile, st.pile_n
    card, wish = pile[player, j], stacks[s, heights[s] - 1]
    stacks[s, heights[s] - 1] = card
    for k in range(j, pile_n[player] - 1):
        pile[player, k] = pile[player, k + 1]
    pile[player, pile_n[player] - 1] = wish
    st.tally[T_SWAPS, player] += 1
    return card


@nb.njit(cache=True, _nrt=False, inline="always")
def _store(sc, player, phase, turn, take, must_take, first_player, reason):
    """play_on's scalars, held in locals for its loop, back into the state."""
    sc[S_PLAYER], sc[S_PHASE], sc[S_TURN], sc[S_TAKE], sc[S_MUST_TAKE] = player, phase, turn, take, must_take
    sc[S_FIRST], sc[S_REASON] = first_player, reason


@block(_nrt=False)
def _record(events, st, kinds, a, b, kind, swap_card, swap_stack):
    """The event row of the take of pair (a, b) about to be made (the play's scalars stored in st.sc)."""
    ev, row, sc = events.table, events.row, st.sc
    ban2, ban5 = bans_in_force(st.tops, kinds)
    ev[row, EV_PLAY] = events.play
    ev[row, EV_TAKE] = sc[S_TAKE]
    ev[row, EV_PHASE] = sc[S_PHASE]
    ev[row, EV_TURN] = sc[S_TURN]
    ev[row, EV_SEAT] = sc[S_PLAYER]
    ev[row, EV_CARD_A] = st.stacks[a, st.heights[a] - 1]
    ev[row, EV_STACK_A] = a
    ev[row, EV_CARD_B] = st.stacks[b, st.heights[b] - 1]
    ev[row, EV_STACK_B] = b
    ev[row, EV_KIND] = kind
    ev[row, EV_BAN2] = ban2
    ev[row, EV_BAN5] = ban5
    ev[row, EV_SWAP_CARD] = swap_card
    ev[row, EV_SWAP_STACK] = swap_stack


@block(_nrt=False)
def play_on(st, setup, pw, lineup, key, plan, until, events):
    """Passes of the play with the seats' policies (`lineup`) until it ends or `until` says. A pass: the player to
    move may swap a Wunschkarte (in a turn), then takes one of the pairs the phase allows; or, with none, the
    opening moves on, a turn after a double passes on, or the play ends blocked. `plan` (swap stack, pile
    position, pair), when its pair is >= 0, is a search's choice for the first pass. Writes the takes' event rows
    from events.row (if >= 0); returns the next row.

    The play's scalars are held in locals for the loop and stored in `st.sc` at the end, and the NamedTuples'
    arrays are taken out once, here: passes as calls over the State (its scalars in memory, its arrays taken out
    of the tuple each pass) made plays 1.7x slower (measured 2026-12-02)."""
    stacks, heights, pile, pile_n, tally, sc = st.stacks, st.heights, st.pile, st.pile_n, st.tally, st.sc
    cards, fa, fb, fk, codes = setup.cards, pw.fa, pw.fb, pw.fk, lineup.codes
    n, row = pile_n.shape[0], events.row
    player, phase, turn, take, must_take = sc[S_PLAYER], sc[S_PHASE], sc[S_TURN], sc[S_TAKE], sc[S_MUST_TAKE] != 0
    first_player, reason = sc[S_FIRST], sc[S_REASON]
    stop = take + until.takes if until.takes > 0 else 1 << 62
    planned, done = plan[2] >= 0, 0
    while reason < 0 and take < stop and (until.passes == 0 or done < until.passes):
        if codes[player] == until.code and not planned:
            break
        done += 1
        n_pairs = refresh(st, cards, pw)
        swap_card, swap_stack = -1, -1
        if phase == TURN and pile_n[player] > 0:
            if planned:
                s, j = plan[0], plan[1]
            else:
                s, j = choose_swap(st, cards, codes[player], player, n_pairs, key, take)
            if s >= 0:
                swap_card, swap_stack = swap(st, player, s, j), s
                n_pairs = refresh(st, cards, pw)
        m = allowed(phase, n_pairs, pw)
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
            p = choose_pair(st, pw, lineup, player, m, key, take)
        a, b, kind = fa[p], fb[p], fk[p]
        if row >= 0:
            _store(sc, player, phase, turn, take, must_take, first_player, reason)
            _record(Events(events.table, events.play, row, events.standing), st, cards.kinds, a, b, kind, swap_card,
                    swap_stack)
            row += 1
        if phase != OPENING_DOUBLE or not setup.discard_opening:
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
            _break_wall(st, codes[player], player, a, b, key, take)
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
        if events.standing.shape[0] > 0:  # after the breaker's bonus
            for q in range(n):
                events.standing[take - 1, q] = pile_n[q]
    _store(sc, player, phase, turn, take, must_take, first_player, reason)
    return row
