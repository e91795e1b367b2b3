"""The batch kernel: plays of Mauerbruch, compiled with Numba, one play after another.

A play: shuffle and deal the wall, the opening (double pairs removed in turn, then one single pair),
then turns until a stack is emptied (the wall is broken) or the player to move has no pair (blocked).
Every draw is keyed by (seed, play, what), so results do not depend on which plays share a batch.
The play is made of the blocks of play.py. Line-ups with a search seat run search.simulate_search_plays, a
kernel of its own over the same blocks, so that scripted runs never compile the search.
"""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.feel import Feel, keep_standing, new_feel, record_feel, sole_best
from ...core.rng import play_key
from .constants import TURN
from .play import TO_THE_END, Events, deal, play_on
from .state import (
    S_BONUS_CARDS,
    S_BONUS_STACK,
    S_BREAKER,
    S_EMPTIED,
    S_FIRST,
    S_OPENING_PAIRS,
    S_PHASE,
    S_PLAYER,
    S_REASON,
    S_TAKE,
    S_TURN,
    T_DOUBLES,
    T_PAIRS,
    T_SWAPS,
    new_pairs,
    new_state,
)


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
    feel: Feel                 # how the play felt, from the cards won after each take (core/feel.py)


@block()
def new_outputs(n_plays, n):
    return MauerbruchOutputs(
        np.zeros(n_plays, np.int8), np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int32),
        np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8), np.full(n_plays, -1, np.int8),
        np.full(n_plays, -1, np.int8), np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int16),
        np.zeros((n_plays, n), np.int16), np.zeros((n_plays, n), np.int16), np.zeros((n_plays, n), np.int16),
        np.zeros((n_plays, n), np.int16), np.full(n_plays, -1, np.int8), new_feel(n_plays))


@block()
def new_standing(n, n_cards):
    """The standing's rows for one play: every table position's cards won after each take (a take is a pair)."""
    return np.zeros((n_cards // 2 + 1, n))


@block()
def simulate_plays(seed, first_play, n_plays, setup, lineup, deals, sd, sd_offsets, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 of scripted seats (`lineup`, core/lineup.py) at table positions
    0..n-1 (0 opens). Returns MauerbruchOutputs' arrays; with `sd_offsets` non-empty, also keeps each play's
    standing after each take in `sd`; with `ev_offsets` non-empty, fills the event rows `ev` and `deals`. The
    search kernel (search.simulate_search_plays) takes the same arguments.

    Positional parameters: a compiled entry point's, called by core/tables.record_kernel as every kernel is (the
    game's arguments, then the standing and event buffers)."""
    n, n_cards = lineup.codes.shape[0], setup.cards.kinds.shape[0]
    out = new_outputs(n_plays, n)
    st, pw = new_state(n, n_cards, setup.sizes.max()), new_pairs()
    order = np.empty(n_cards, np.int16)
    no_plan = np.full(3, -1, np.int64)
    standing = new_standing(n, n_cards)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, key, setup.sizes, order)
        if record:
            deals[i] = order
        play_on(st, setup, pw, lineup, key, no_plan, TO_THE_END,
                Events(ev, play, ev_offsets[i] if record else -1, standing))
        write_outputs(out, i, st, standing)
        keep_standing(sd, sd_offsets, i, standing, out.takes[i])
    return out


@block()
def write_outputs(out, i, st, standing):
    """Play i's outputs from its final state and its standing after each take."""
    sc, pile_n, tally = st.sc, st.pile_n, st.tally
    n = pile_n.shape[0]
    # Ended in the opening: seat 0 is the player after the one who broke the wall or was blocked.
    out.first_player[i] = sc[S_FIRST] if sc[S_PHASE] == TURN else (sc[S_PLAYER] + 1) % n
    out.turns[i] = sc[S_TURN] + 1
    out.takes[i] = sc[S_TAKE]
    out.opening_pairs[i] = sc[S_OPENING_PAIRS]
    out.end_reason[i] = sc[S_REASON]
    out.emptied_stack[i] = sc[S_EMPTIED]
    out.bonus_stack[i] = sc[S_BONUS_STACK]
    out.bonus_cards[i] = sc[S_BONUS_CARDS]
    out.cards_left[i] = st.heights.sum()
    out.breaker[i] = sc[S_BREAKER]
    piles, pairs, doubles, swaps = out.piles, out.pairs, out.doubles, out.swaps
    for p in range(n):
        piles[i, p] = pile_n[p]
        pairs[i, p] = tally[T_PAIRS, p]
        doubles[i, p] = tally[T_DOUBLES, p]
        swaps[i, p] = tally[T_SWAPS, p]
    record_feel(out.feel, i, standing, sc[S_TAKE], sole_best(pile_n))
