"""The batch kernel: plays of Mauerbruch, compiled with Numba, one play after another.

A play: shuffle and deal the wall, the opening (double pairs removed in turn, then one single pair),
then turns until a stack is emptied (the wall is broken) or the player to move has no pair (blocked).
Every draw is keyed by (seed, play, what), so results do not depend on which plays share a batch.
"""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.rng import below, draw, play_key
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


@block()
def _tops(stacks, heights, tops):
    for s in range(N_STACKS):
        tops[s] = stacks[s, heights[s] - 1] if heights[s] > 0 else -1


@block()
def _filter(kind_wanted, n, pair_a, pair_b, pair_kind, fa, fb, fk):
    m = 0
    for i in range(n):
        if pair_kind[i] == kind_wanted:
            fa[m], fb[m], fk[m] = pair_a[i], pair_b[i], pair_kind[i]
            m += 1
    return m


class MauerbruchOutputs(NamedTuple):
    """simulate_plays' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    first_player: np.ndarray   # [plays] table position of seat 0 (who begins after the opening)
    turns: np.ndarray          # [plays] turns after the opening
    takes: np.ndarray          # [plays] pairs taken, the opening's included (one event row each)
    opening_pairs: np.ndarray  # [plays] double pairs removed in the opening
    end_reason: np.ndarray     # [plays] BROKEN or BLOCKED
    emptied_stack: np.ndarray  # [plays] the stack whose emptying broke the wall (-1: blocked)
    bonus_stack: np.ndarray    # [plays] the neighbouring stack the breaker took (-1: none)
    bonus_cards: np.ndarray    # [plays] cards in it
    cards_left: np.ndarray     # [plays] cards left in the wall
    piles: np.ndarray          # [plays, table positions] cards won
    pairs: np.ndarray          # [plays, table positions] pairs taken
    doubles: np.ndarray        # [plays, table positions] of those, double pairs
    swaps: np.ndarray          # [plays, table positions] Wunschkarte swaps
    breaker: np.ndarray        # [plays] table position of the wall-breaker (-1: blocked)


@block()
def simulate_plays(seed, first_play, n_plays, sizes, kinds, symbols, values, gcd, codes, prm, discard_opening,
                   deals, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 with players at table positions 0..n-1 (0 opens).

    Returns per play: first player (table position of seat 0), turns, takes, opening pairs, end reason,
    emptied stack, bonus stack, bonus cards, cards left in the wall; per play and table position:
    pile size, pairs, doubles, swaps; per play the wall-breaker's table position (-1 if blocked).
    With `ev_offsets` non-empty, also fills the event rows and `deals`.
    """
    n = codes.shape[0]
    n_cards = kinds.shape[0]
    first = np.zeros(n_plays, np.int8)
    turns = np.zeros(n_plays, np.int32)
    takes = np.zeros(n_plays, np.int32)
    opening_pairs = np.zeros(n_plays, np.int32)
    end_reason = np.zeros(n_plays, np.int8)
    emptied = np.full(n_plays, -1, np.int8)
    bonus_stack = np.full(n_plays, -1, np.int8)
    bonus_cards = np.zeros(n_plays, np.int16)
    cards_left = np.zeros(n_plays, np.int16)
    piles_out = np.zeros((n_plays, n), np.int16)
    pairs_out = np.zeros((n_plays, n), np.int16)
    doubles_out = np.zeros((n_plays, n), np.int16)
    swaps_out = np.zeros((n_plays, n), np.int16)
    breaker = np.full(n_plays, -1, np.int8)

    order = np.empty(n_cards, np.int16)
    height_max = sizes.max()
    stacks = np.empty((N_STACKS, height_max), np.int16)
    heights = np.empty(N_STACKS, np.int64)
    tops = np.empty(N_STACKS, np.int64)
    pile = np.empty((n, n_cards), np.int16)
    pile_n = np.zeros(n, np.int64)
    pair_a = np.empty(21, np.int64)
    pair_b = np.empty(21, np.int64)
    pair_k = np.empty(21, np.int64)
    fa = np.empty(21, np.int64)
    fb = np.empty(21, np.int64)
    fk = np.empty(21, np.int64)
    record = ev_offsets.shape[0] > 0

    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        for c in range(n_cards):
            order[c] = c
        for c in range(n_cards - 1, 0, -1):  # Fisher-Yates, one keyed draw per position
            j = below(draw(key, c), c + 1)
            order[c], order[j] = order[j], order[c]
        if record:
            deals[i] = order
        c = 0
        for s in range(N_STACKS):
            heights[s] = sizes[s]
            for h in range(sizes[s]):
                stacks[s, h] = order[c]
                c += 1
        pile_n[:] = 0
        row = ev_offsets[i] if record else -1

        take = 0
        player = 0
        phase = OPENING_DOUBLE
        turn = -1
        first_player = 0
        must_take = False
        reason = -1
        while True:
            _tops(stacks, heights, tops)
            n_pairs = list_pairs(tops, kinds, symbols, values, gcd, pair_a, pair_b, pair_k)
            swap_card = -1
            swap_stack = -1
            if phase == TURN and pile_n[player] > 0:
                s, j = choose_swap(codes[player], player, n_pairs, tops, pile, pile_n, kinds, symbols, values,
                                   gcd, key, take)
                if s >= 0:
                    swap_card = pile[player, j]
                    swap_stack = s
                    wish = stacks[s, heights[s] - 1]
                    stacks[s, heights[s] - 1] = swap_card
                    for k in range(j, pile_n[player] - 1):
                        pile[player, k] = pile[player, k + 1]
                    pile[player, pile_n[player] - 1] = wish
                    swaps_out[i, player] += 1
                    _tops(stacks, heights, tops)
                    n_pairs = list_pairs(tops, kinds, symbols, values, gcd, pair_a, pair_b, pair_k)
            if phase == OPENING_DOUBLE:
                m = _filter(DOUBLE, n_pairs, pair_a, pair_b, pair_k, fa, fb, fk)
                if m == 0:
                    phase = OPENING_SINGLE
                    continue
            elif phase == OPENING_SINGLE:
                m = _filter(SINGLE, n_pairs, pair_a, pair_b, pair_k, fa, fb, fk)
            else:
                m = _filter(DOUBLE, n_pairs, pair_a, pair_b, pair_k, fa, fb, fk)
                m += _filter(SINGLE, n_pairs, pair_a, pair_b, pair_k, fa[m:], fb[m:], fk[m:])
            if m == 0:
                if phase == TURN and must_take:
                    # After a double no pair is left: the turn ends; the next player may still swap.
                    must_take = False
                    player = (player + 1) % n
                    continue
                reason = BLOCKED
                break
            if phase == TURN and not must_take:
                turn += 1
            p = choose_pair(codes[player], prm[player], player, m, fa, fb, fk, heights, pile_n, key, take)
            a, b, kind = fa[p], fb[p], fk[p]
            card_a = stacks[a, heights[a] - 1]
            card_b = stacks[b, heights[b] - 1]
            if row >= 0:
                ban2, ban5 = bans_in_force(tops, kinds)
                ev[row, EV_PLAY] = play
                ev[row, EV_TAKE] = take
                ev[row, EV_PHASE] = phase
                ev[row, EV_TURN] = turn
                ev[row, EV_SEAT] = player
                ev[row, EV_CARD_A] = card_a
                ev[row, EV_STACK_A] = a
                ev[row, EV_CARD_B] = card_b
                ev[row, EV_STACK_B] = b
                ev[row, EV_KIND] = kind
                ev[row, EV_BAN2] = ban2
                ev[row, EV_BAN5] = ban5
                ev[row, EV_SWAP_CARD] = swap_card
                ev[row, EV_SWAP_STACK] = swap_stack
                row += 1
            heights[a] -= 1
            heights[b] -= 1
            if phase != OPENING_DOUBLE or not discard_opening:
                pile[player, pile_n[player]] = card_a
                pile[player, pile_n[player] + 1] = card_b
                pile_n[player] += 2
            if phase == OPENING_DOUBLE:
                opening_pairs[i] += 1
            else:
                pairs_out[i, player] += 1
                doubles_out[i, player] += kind == DOUBLE
            take += 1
            if heights[a] == 0 or heights[b] == 0:
                emptied[i] = a if heights[a] == 0 else b
                other = b if heights[a] == 0 and heights[b] == 0 else -1
                bonus = choose_neighbour(codes[player], emptied[i], other, heights, key, take)
                if bonus >= 0:
                    bonus_stack[i] = bonus
                    bonus_cards[i] = heights[bonus]
                    for h in range(heights[bonus]):
                        pile[player, pile_n[player]] = stacks[bonus, h]
                        pile_n[player] += 1
                    heights[bonus] = 0
                breaker[i] = player
                reason = BROKEN
                break
            if phase == OPENING_DOUBLE:
                player = (player + 1) % n
            elif phase == OPENING_SINGLE:
                player = (player + 1) % n
                first_player = player
                phase = TURN
            elif kind == DOUBLE:
                must_take = True
            else:
                must_take = False
                player = (player + 1) % n
        # Ended in the opening: seat 0 is the player after the one who broke the wall or was blocked.
        first[i] = first_player if phase == TURN else (player + 1) % n
        turns[i] = turn + 1
        takes[i] = take
        end_reason[i] = reason
        left = 0
        for s in range(N_STACKS):
            left += heights[s]
        cards_left[i] = left
        for p_ in range(n):
            piles_out[i, p_] = pile_n[p_]
    return (first, turns, takes, opening_pairs, end_reason, emptied, bonus_stack, bonus_cards, cards_left,
            piles_out, pairs_out, doubles_out, swaps_out, breaker)
