"""Block: the roll and what follows it: the dice's promise, production (with the bank-shortage rule) or,
on a 7, a discard (play.discard_half asks the policies which cards; the robber's move after them is robber.py)."""

import numba as nb

from ...core.blocks import block
from ...core.rng import below
from .constants import DICE_DRAWS, DIE_FACES, DISCARDED, EV_DISCARD, EV_PRODUCE, EV_ROLL, N_RES
from .rules import produce
from .state import log, take
from .unseen import lost_in_public


@nb.njit(cache=True, _nrt=False, inline="always")
def roll_dice(st, tally, lg, turn, p):
    """Both dice, drawn one after the other; the `roll` event keeps both. Every building's promise for
    this roll (what it would get, robber and bank aside) is added up, a 7 included."""
    die_1 = 1 + below(take(st, DICE_DRAWS), DIE_FACES)
    die_2 = 1 + below(take(st, DICE_DRAWS), DIE_FACES)
    tally.rolls[die_1 + die_2] += 1
    tally.actions[0] += 1
    P = st.hands.shape[0]
    for q in range(P):
        for r in range(N_RES):
            tally.promised[q, 0, r] += tally.exposure[q, 0, r]
            tally.promised[q, 1, r] += tally.exposure[q, 1, r]
    log(lg, turn, p, EV_ROLL, die_1 + die_2, die_1, die_2)
    return die_1, die_2


@block(_nrt=False)
def discard(st, tally, lg, turn, q, r):
    """Player q discards a card of resource r to the bank (on a 7)."""
    st.hands[q, r] -= 1
    st.bank[r] += 1
    lost_in_public(st, lg, q, r)
    tally.lost[q, DISCARDED, r] += 1
    log(lg, turn, q, EV_DISCARD, r, 0, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def produce_roll(st, tally, bd, scratch, lg, turn, roll):
    """Every hex with this token, but the robber's, pays the buildings beside it (rules.produce, the
    shortage rule included); one `produce` event per seat and resource received."""
    now = scratch.received_now
    produce(roll, st, bd, now)
    for q in range(st.hands.shape[0]):
        for r in range(N_RES):
            got = now[q, 0, r] + now[q, 1, r]
            if got > 0:
                tally.received[q, r] += got
                tally.by_kind[q, 0, r] += now[q, 0, r]
                tally.by_kind[q, 1, r] += now[q, 1, r]
                log(lg, turn, q, EV_PRODUCE, r, got, 0)
