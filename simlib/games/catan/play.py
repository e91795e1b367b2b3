"""Catan's blocks: the opening, a player's turn step by step, whole turns from any state. The batch's plays
(kernel.py) and a search's rollouts (search.py) are the same calls; a scenario composes its own turn from these
blocks and the rule modules' (docs/games/catan.md).

A play: the board (setup.deal_board), a new game (setup.new_game), the opening (place_opening), then turns until
a player reaches the win threshold on his own turn or the turn limit. A turn: before the roll a knight may be
played (rob); the roll (dice.roll_dice) brings production (dice.produce_roll) or, on a 7, discards
(discard_half) and the robber; then, until the player ends his turn, the legal actions are counted by family
(legal.count_actions), the policy picks one (decisions.choose_action) and it is applied (apply.py;
scoring.update_routes when a route changed). Every draw is keyed by (seed, play, turn, stream, rank in the
turn; state.take), so a play replays alone and two variants of it share their dice turn by turn. Here the
rules' steps meet the policies' choices (decisions.py): the rule modules ask no policy.
"""

import numba as nb

from ...core.blocks import block
from .apply import apply_action, list_free_pieces, place_route_piece, play_knight, play_road_building
from .board import DESERT
from .constants import (
    EV_END_TURN,
    EV_SETUP_ROAD,
    EV_SETUP_SETTLEMENT,
    F_END_TURN,
    F_KNIGHT,
    F_ROAD_BUILDING,
    F_SETTLEMENT,
    KNIGHT,
    ROAD,
    ROADS,
    ROBBER_ROLL,
)
from .decisions import (
    choose_action,
    choose_discard,
    choose_free_piece,
    choose_knight_before_roll,
    choose_opening_road,
    choose_opening_site,
    choose_robber_hex,
    choose_victim,
)
from .dice import discard, produce_roll, roll_dice
from .legal import arguments, count_actions, init_legal, playable
from .robber import move_robber, steal
from .rules import can_settle, discard_count, hand_size
from .scoring import points, standing_after, update_routes
from .setup import place_settlement
from .state import begin_draws, log

STOPPED = -2  # turn_steps: a seat of stop_code is to choose an action


@block(_nrt=False)
def play_game(pl, seats, max_turns):
    """From the opening to a win or the turn limit: (turns played, winner or -1)."""
    place_opening(pl, seats)
    return play_on(pl, seats, 0, max_turns)


@nb.njit(cache=True, _nrt=False, inline="always")
def play_on(pl, seats, turn, stop):
    """Whole turns from `turn` on, to a win or turn `stop`: (turns played in all, winner or -1), the standing
    after each kept in pl.lg. A search's rollouts play on from a copy of the state as this block does
    (search.turns_from)."""
    winner = -1
    while turn < stop and winner < 0:
        winner = play_turn(pl, seats, turn)
        standing_after(pl.st, pl.lg, turn, winner >= 0 or turn + 1 == stop)
        turn += 1
    return turn, winner


@nb.njit(cache=True, _nrt=False, inline="always")
def play_turn(pl, seats, turn):
    """Player turn % P's turn; returns him if he reached the win threshold, else -1."""
    p = turn % pl.st.hands.shape[0]
    start_turn(pl.st, p, turn)
    return turn_steps(pl, seats, turn, p, False, seats.codes, -1)


@nb.njit(cache=True, _nrt=False, inline="always")
def turn_steps(pl, seats, turn, p, rolled, seat_codes, stop_code):
    """The player's steps, from before the roll or after it (`rolled`): returns him if he reached the win
    threshold, -1 when he ended his turn, or STOPPED when he is to choose an action after the roll and his seat's
    code (seat_codes) is stop_code (a search chooses it: apply_choice, then turn_steps again). The threshold is
    checked before each of his steps, so points gained on another's turn win as his turn begins."""
    st, tally, rules, bd, scratch, lg = pl
    code = seats.codes[p]
    while True:
        if points(st, p) >= rules.win_points:
            return p
        if not rolled:
            if choose_knight_before_roll(st, playable(st, p, KNIGHT)):
                knight_step(pl, turn, p, code, False)
                continue
            die_1, die_2 = roll_dice(st, tally, lg, turn, p)
            rolled = True
            if die_1 + die_2 == ROBBER_ROLL:
                seven_step(pl, turn, p, code)
            else:
                produce_roll(st, tally, bd, scratch, lg, turn, die_1 + die_2)
            continue
        if seat_codes[p] == stop_code:
            return STOPPED
        total = count_actions(st, rules, bd, scratch, p, turn)
        family, index = choose_action(st, rules, bd, scratch, p, code, seats.prm, seats.family_weight, total)
        if apply_choice(pl, turn, p, code, family, index):
            return -1


@nb.njit(cache=True, _nrt=False, inline="always")
def apply_choice(pl, turn, p, code, family, index):
    """The chosen action after the roll (pl.scratch lists the actions counted for it); True if it ends the turn."""
    pl.tally.actions[0] += 1
    if family == F_END_TURN:
        log(pl.lg, turn, p, EV_END_TURN, 0, 0, 0)
        return True
    base_action_step(pl, turn, p, code, family, index)
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
def knight_step(pl, turn, p, code, rolled):
    """A knight played (before or after the roll), then the robber moved by the player's policy (to a land hex
    of pl.bd: a scenario may narrow it)."""
    play_knight(pl.st, pl.tally, pl.lg, p, turn, rolled)
    rob(pl, turn, p, choose_robber_hex(pl.st, pl.bd, pl.scratch, p, code))


@nb.njit(cache=True, _nrt=False, inline="always")
def seven_step(pl, turn, p, code):
    """A 7: the discards, then the robber moved by the player's policy (to a land hex of pl.bd)."""
    discard_half(pl, turn)
    rob(pl, turn, p, choose_robber_hex(pl.st, pl.bd, pl.scratch, p, code))


@nb.njit(cache=True, _nrt=False, inline="always")
def base_action_step(pl, turn, p, code, family, index):
    """The index-th action of a base family (not ending the turn): applied, with the further choices the
    knight and the road-building card ask for, and the longest-route card settled if a route changed."""
    st, tally, rules, bd, scratch, lg = pl
    if family == F_KNIGHT:
        knight_step(pl, turn, p, code, True)
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
        route_changed = apply_action(pl, p, turn, family, a, b)
        settled = a if family == F_SETTLEMENT else -1
    if route_changed:
        update_routes(st, rules, bd, scratch, p, settled)


@block(_nrt=False)
def discard_half(pl, turn):
    """On a 7 every player holding more than 7 cards discards half of them, rounded down, the cards his policy
    chooses."""
    st = pl.st
    for q in range(st.hands.shape[0]):
        for _ in range(discard_count(hand_size(st.hands, q))):
            discard(st, pl.tally, pl.lg, turn, q, choose_discard(st, q))


@block(_nrt=False)
def rob(pl, turn, p, hex_):
    """The robber to hex_, and p robs the opponent beside it his policy chooses (if any holds a card)."""
    st, scratch = pl.st, pl.scratch
    m = move_robber(st, pl.bd, scratch, pl.lg, turn, p, hex_)
    if m > 0:
        steal(st, pl.tally, pl.lg, turn, p, choose_victim(st, scratch.candidates, m))


@block(_nrt=False)
def place_opening(pl, seats):
    """Set-up in snake order (0, 1, .., 1, 0): a settlement and a road beside it each; the second
    settlement yields one card per producing hex beside it (while the bank has it)."""
    st, tally, bd, lg = pl.st, pl.tally, pl.bd, pl.lg
    P = st.hands.shape[0]
    sites = pl.scratch.candidates
    for step in range(2 * P):
        p = step if step < P else 2 * P - 1 - step
        m = 0
        for n in range(bd.node_nodes.shape[0]):
            if can_settle(n, p, True, bd.node_land, st.node_owner, bd.node_nodes, bd.node_edges, st.edge_owner):
                sites[m] = n
                m += 1
        n = choose_opening_site(st, bd, sites, m, seats.codes[p], seats.prm, p)
        opening_settlement(st, tally, bd, lg, p, n, step >= P, sites)
    init_legal(st, bd)


@nb.njit(cache=True, _nrt=False, inline="always")
def opening_settlement(st, tally, bd, lg, p, n, second, sites):
    """Player p's opening settlement on corner n; the second one yields a card of each land hex beside it (while
    the bank has one); then the road beside it that the opening policy picks (sites: work space)."""
    place_settlement(st, tally, bd, p, n)
    log(lg, -1, p, EV_SETUP_SETTLEMENT, n, 0, 0)
    if second:
        for k in range(3):
            h = bd.node_hexes[n, k]
            if h >= 0 and st.hex_terrain[h] < DESERT and st.bank[st.hex_terrain[h]] > 0:
                st.hands[p, st.hex_terrain[h]] += 1
                tally.received[p, st.hex_terrain[h]] += 1
                st.bank[st.hex_terrain[h]] -= 1
    m = 0
    for k in range(3):
        e = bd.node_edges[n, k]
        if e >= 0 and bd.edge_land[e] and st.edge_owner[e] < 0:
            sites[m] = e
            m += 1
    if m > 0:
        e = choose_opening_road(st, sites, m)
        st.edge_owner[e] = p
        st.edge_kind[e] = ROAD
        st.left[p, ROADS] -= 1
        log(lg, -1, p, EV_SETUP_ROAD, e, 0, 0)
