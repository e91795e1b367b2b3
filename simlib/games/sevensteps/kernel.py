"""The batch kernel: plays of 7 Steps, compiled with Numba, one play after another.

A play: 140 discs in the bag, each player draws 7; turns in seat order (seat 0 first) until a player
cannot refill to 7, then the round is completed and unused tiles score. Every draw is keyed by
(seed, play, turn, stream, rank in the turn; state.take), so results do not depend on which plays share a batch,
and two variants of a play draw the same discs and tiles turn by turn.
The play is made of the blocks of play.py. Line-ups with a search seat run search.simulate_search_plays, a
kernel of its own over the same blocks, so that scripted runs never compile the search.
"""

from typing import NamedTuple

import numpy as np

from ...core.blocks import block
from ...core.feel import Feel, keep_standing, new_feel, record_feel, sole_best
from ...core.rng import play_key
from .constants import SCORE, SEAT_COLUMNS
from .play import TO_THE_END, Events, _sum, deal, new_turn_work, play_on
from .state import PLAN_WIDTH, S_COLLAPSES, S_EVENTS, S_MAX_NODES, S_REASON, S_TURN, new_state


class SevenStepsOutputs(NamedTuple):
    """simulate_plays' arrays by name (the compiled kernel returns them as a tuple in this order)."""

    turns: np.ndarray       # [plays] turns played (passes included)
    collapses: np.ndarray   # [plays] towers that reached 7 and collapsed
    end_reason: np.ndarray  # [plays] BAG_EMPTY or TURN_LIMIT
    bag_left: np.ndarray    # [plays] discs left in the bag at the end
    n_events: np.ndarray    # [plays] event rows (one per disc, one per turn)
    max_nodes: np.ndarray   # [plays] the most chains one search visited
    seats: np.ndarray       # [plays, SEAT_COLUMNS, seats]
    feel: Feel              # how the play felt, from the scores after each turn (core/feel.py)

    def seat(self, name: str) -> np.ndarray:
        """[plays, seats] of one of SEAT_COLUMNS."""
        return self.seats[:, SEAT_COLUMNS.index(name)]


@block()
def new_outputs(n_plays, n_seats):
    """SevenStepsOutputs' arrays for n_plays plays, as the kernels return them."""
    return (np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int8),
            np.zeros(n_plays, np.int16), np.zeros(n_plays, np.int32), np.zeros(n_plays, np.int32),
            np.zeros((n_plays, len(SEAT_COLUMNS), n_seats), np.int32), new_feel(n_plays))


@block()
def new_standing(setup, n_seats):
    """The standing's rows for one play: every seat's score after each turn (at most rules.max_turns)."""
    return np.zeros((setup.rules.max_turns, n_seats))


@block()
def write_outputs(out, i, st, standing):
    """Play i's outputs from its final state and its standing after each turn."""
    turns, collapses, end_reason, bag_left, n_events, max_nodes, seats, feel = out
    sc = st.sc
    turns[i] = sc[S_TURN]
    collapses[i] = sc[S_COLLAPSES]
    end_reason[i] = sc[S_REASON]
    bag_left[i] = _sum(st.bag)
    n_events[i] = sc[S_EVENTS]
    max_nodes[i] = sc[S_MAX_NODES]
    seats[i] = st.seat_out
    record_feel(feel, i, standing, sc[S_TURN], sole_best(st.seat_out[SCORE]))


@block()
def simulate_plays(seed, first_play, n_plays, setup, lineup, sd, sd_offsets, ev, ev_offsets):
    """Plays first_play .. first_play+n_plays-1 of scripted seats (`lineup`, core/lineup.py) on `setup`
    (state.Setup). Returns SevenStepsOutputs' arrays; with `ev_offsets` non-empty, also fills the event rows `ev`.
    The search kernel (search.simulate_search_plays) takes the same arguments."""
    n_seats = lineup.codes.shape[0]
    out = new_outputs(n_plays, n_seats)
    n_aid, n_bonus = setup.tiles.aid_effect.shape[0], setup.tiles.bonus_measure.shape[0]
    st, work = new_state(n_seats, n_aid, n_bonus), new_turn_work()
    no_plan = np.zeros(PLAN_WIDTH, np.int64)
    standing = new_standing(setup, n_seats)
    record = ev_offsets.shape[0] > 0
    for i in range(n_plays):
        play = first_play + i
        key = play_key(seed, play)
        deal(st, n_aid, n_bonus, key)
        play_on(st, setup, lineup, key, no_plan, TO_THE_END,
                Events(ev, play, ev_offsets[i] if record else -1, standing), work)
        write_outputs(out, i, st, standing)
        keep_standing(sd, sd_offsets, i, standing, out[0][i])  # out[0]: the turns
    return out
