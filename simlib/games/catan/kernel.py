"""The batch kernel: whole games of Catan (with Seafarers ships), composed of the engine's blocks.

A play: the board (setup.deal_board), a new game (setup.new_game), the opening (setup.place_opening),
then turns until a player reaches the win threshold on his own turn or the turn limit. A turn: before
the roll a knight may be played (robber.rob); the roll (dice.roll_dice) brings production
(dice.produce_roll) or, on a 7, discards (dice.discard_half) and the robber; then, until the player
ends his turn, the legal actions are counted by family (legal.count_actions), the policy picks one
(decisions.choose_action) and it is applied (apply.py; scoring.update_routes when a route changed).
The final rows come from scoring.final_rows. Every draw is keyed by (seed, play, turn, stream, rank in the
turn; state.take), so a play replays alone and two variants of it share their dice turn by turn. A scenario
composes its own turn from these blocks (docs/games/catan.md).
"""

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from .apply import apply_action, list_free_pieces, place_route_piece, play_knight, play_road_building
from .constants import (
    EV_END_TURN,
    F_END_TURN,
    F_KNIGHT,
    F_ROAD_BUILDING,
    F_SETTLEMENT,
    KNIGHT,
    N_FAMILIES,
    ROBBER_ROLL,
)
from .decisions import choose_action, choose_free_piece, choose_knight_before_roll, choose_robber_hex
from .dice import discard_half, produce_roll, roll_dice
from .legal import arguments, count_actions, playable
from .robber import rob
from .scoring import final_rows, new_outputs, points, update_routes
from .setup import deal_board, new_game, place_opening, start_play
from .state import EventLog, begin_draws, log, new_scratch, new_state, new_tally

STOPPED = -2  # turn_steps: a seat of stop_code is to choose an action


@block()
def simulate_games(seed, first_play, n_plays, n_players, max_turns, codes, prm, family_weight, bd, rules, ev,
                   ev_start):
    """Plays first_play .. first_play+n_plays-1 on board bd under rules; player p's policy is codes[p] with
    parameters prm[p] (family_weight maps each action family to a column of prm for `weighted`).
    Returns a scoring.CatanOutputs. Events: ev has no rows, or one per event of these plays, play i's
    from row ev_start[i] (the counts of a first pass)."""
    out = new_outputs(n_plays, n_players)
    st = new_state(bd, rules, n_players)
    tally = new_tally(n_players)
    scratch = new_scratch(bd, n_players, N_FAMILIES)
    lg = EventLog(rows=ev, pos=np.zeros(1, np.int64))
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        lg.pos[0] = first
        start_play(st, tally, play_key(seed, first_play + i))
        deal_board(st, bd, scratch, lg)
        new_game(st, rules)
        turns, winner = play_game(st, tally, rules, bd, scratch, lg, max_turns, codes, prm, family_weight)
        final_rows(out, i, st, tally, rules, bd, scratch, turns, winner, lg.pos[0] - first)
    return out


@block(_nrt=False)
def play_game(st, tally, rules, bd, scratch, lg, max_turns, codes, prm, family_weight):
    """From the opening to a win or the turn limit: (turns played, winner or -1)."""
    place_opening(st, tally, bd, scratch, lg, codes, prm)
    return play_on(st, tally, rules, bd, scratch, lg, 0, max_turns, codes, prm, family_weight)


@nb.njit(cache=True, _nrt=False, inline="always")
def play_on(st, tally, rules, bd, scratch, lg, turn, max_turns, codes, prm, family_weight):
    """Whole turns from `turn` on, to a win or turn max_turns: (turns played in all, winner or -1). A search's
    rollouts play on from a copy of the state with this block."""
    winner = -1
    while turn < max_turns and winner < 0:
        winner = play_turn(st, tally, rules, bd, scratch, lg, turn, codes, prm, family_weight)
        turn += 1
    return turn, winner


@nb.njit(cache=True, _nrt=False, inline="always")
def play_turn(st, tally, rules, bd, scratch, lg, turn, codes, prm, family_weight):
    """Player turn % P's turn; returns him if he reached the win threshold, else -1."""
    p = turn % st.hands.shape[0]
    start_turn(st, p, turn)
    return turn_steps(st, tally, rules, bd, scratch, lg, turn, p, False, codes, prm, family_weight, codes, -1)


@nb.njit(cache=True, _nrt=False, inline="always")
def turn_steps(st, tally, rules, bd, scratch, lg, turn, p, rolled, codes, prm, family_weight, seat_codes, stop_code):
    """The player's steps, from before the roll or after it (`rolled`): returns him if he reached the win
    threshold, -1 when he ended his turn, or STOPPED when he is to choose an action after the roll and his seat's
    code (seat_codes) is stop_code (a search chooses it: apply_choice, then turn_steps again). The threshold is
    checked before each of his steps, so points gained on another's turn win as his turn begins."""
    while True:
        if points(st, p) >= rules.win_points:
            return p
        if not rolled:
            if choose_knight_before_roll(st, playable(st, p, KNIGHT)):
                knight_step(st, tally, bd, scratch, lg, turn, p, codes[p], False)
                continue
            die_1, die_2 = roll_dice(st, tally, lg, turn, p)
            rolled = True
            if die_1 + die_2 == ROBBER_ROLL:
                seven_step(st, tally, bd, scratch, lg, turn, p, codes[p])
            else:
                produce_roll(st, tally, bd, scratch, lg, turn, die_1 + die_2)
            continue
        if seat_codes[p] == stop_code:
            return STOPPED
        total = count_actions(st, rules, bd, scratch, p, turn)
        family, index = choose_action(st, rules, bd, scratch, p, codes[p], prm, family_weight, total)
        if apply_choice(st, tally, rules, bd, scratch, lg, turn, p, codes[p], family, index):
            return -1


@nb.njit(cache=True, _nrt=False, inline="always")
def apply_choice(st, tally, rules, bd, scratch, lg, turn, p, code, family, index):
    """The chosen action after the roll (scratch lists the actions counted for it); True if it ends the turn."""
    tally.actions[0] += 1
    if family == F_END_TURN:
        log(lg, turn, p, EV_END_TURN, 0, 0, 0)
        return True
    base_action_step(st, tally, rules, bd, scratch, lg, turn, p, code, family, index)
    return False


# Turn steps a scenario's turn calls as they are.

@nb.njit(cache=True, _nrt=False, inline="always")
def start_turn(st, p, turn):
    """Turn `turn`'s draws begin; cards bought last turn become playable; nothing played or moved yet; ship moves
    to be listed."""
    begin_draws(st, turn)
    st.dev_new[p, :] = 0
    st.dev_played[0] = 0
    st.ship_moved[0] = 0
    st.n_movable[0] = -1


@nb.njit(cache=True, _nrt=False, inline="always")
def knight_step(st, tally, bd, scratch, lg, turn, p, code, rolled):
    """A knight played (before or after the roll), then the robber moved by the player's policy."""
    play_knight(st, tally, lg, p, turn, rolled)
    rob(st, tally, bd, scratch, lg, turn, p, choose_robber_hex(st, bd, scratch, p, code))


@nb.njit(cache=True, _nrt=False, inline="always")
def seven_step(st, tally, bd, scratch, lg, turn, p, code):
    """A 7: the discards, then the robber moved by the player's policy."""
    discard_half(st, tally, lg, turn)
    rob(st, tally, bd, scratch, lg, turn, p, choose_robber_hex(st, bd, scratch, p, code))


@nb.njit(cache=True, _nrt=False, inline="always")
def base_action_step(st, tally, rules, bd, scratch, lg, turn, p, code, family, index):
    """The index-th action of a base family (not ending the turn): applied, with the further choices the
    knight and the road-building card ask for, and the longest-route card settled if a route changed."""
    if family == F_KNIGHT:
        knight_step(st, tally, bd, scratch, lg, turn, p, code, True)
        return
    if family == F_ROAD_BUILDING:
        play_road_building(st, tally, lg, p, turn)
        for _ in range(2):  # two free pieces, roads or ships in any mix
            m = list_free_pieces(st, scratch, p)
            if m == 0:
                break
            pick = choose_free_piece(st, m)
            place_route_piece(st, bd, lg, p, turn, scratch.candidates[pick], scratch.kinds[pick], True)
        route_changed, settled = True, -1
    else:
        a, b = arguments(st, bd, scratch, p, family, index)
        route_changed = apply_action(st, tally, rules, bd, lg, p, turn, family, a, b)
        settled = a if family == F_SETTLEMENT else -1
    if route_changed:
        update_routes(st, rules, bd, scratch, p, settled)
