"""The batch kernel: whole games of Die Mauerspechte, composed of the Catan engine's blocks and the
scenario's (setup.py, wall.py, hotels.py, parade.py).

A play: Berlin's board (setup.deal_berlin), the wall laid (wall.lay_walls), a new game (the engine's),
the opening one settlement West and one East (setup.place_opening_berlin), then turns until a player has
the win threshold (15 at four players, 17 at three) on his own turn, or the turn limit. A turn is the
engine's (start_turn, knight_step, roll_dice, seven_step, base_action_step), with the scenario's
production (hotels first), Love Parades on doubles, the robber sent across the closed wall, ships that
need no connection, the scenario's actions (wall pieces, hotels), and the wall's thresholds checked after
every step. The readings of the rule text (BerlinRules, parameters.toml `reading`) reach the blocks through
br: which ships open settlement sites (count_berlin), who may buy a released piece at once
(wall.release_thresholds), the chip supply (reset_wall), whether a knight crosses the closed wall
(knight_goes), the opening bid (parade.love_parade). Every draw is keyed by (seed, play, turn, stream, rank in
the turn), so a play replays alone.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import play_key
from ..catan.apply import apply_action, list_free_pieces, place_route_piece, play_road_building
from ..catan.constants import (
    EV_END_TURN,
    F_END_TURN,
    F_KNIGHT,
    F_MOVE_SHIP,
    F_ROAD_BUILDING,
    F_SETTLEMENT,
    KNIGHT,
    ROBBER_ROLL,
    SHIP,
    SHIPS,
)
from ..catan.decisions import choose_free_piece, choose_knight_before_roll
from ..catan.dice import roll_dice
from ..catan.legal import arguments, count_actions, nth_edge, playable
from ..catan.play import STOPPED, knight_step, seven_step, start_turn
from ..catan.scoring import final_rows, new_outputs, update_routes
from ..catan.setup import new_game, start_play
from ..catan.state import EventLog, Play, log, new_scratch, new_state, new_tally
from .constants import (
    F_HOTEL,
    F_WALL_PIECE,
    HOTEL_COLUMNS,
    MAUERSPECHT,
    MAX_CHIPS,
    MAX_PIECES,
    N_FAMILIES,
    N_HOTELS,
    RAVER,
    WEST,
)
from .decisions import base_code, choose_berlin_action
from .hotels import buy_hotel, count_hotels, field_books, nth_hotel, produce_berlin, token_on_board
from .parade import love_parade, missing_number
from .setup import deal_berlin, place_opening_berlin
from .state import new_wall, play_board, reset_wall, side_board
from .wall import (
    berlin_points,
    buy_piece,
    count_pieces,
    lay_walls,
    nth_piece,
    release_thresholds,
    route_flags,
    ship_sites,
)


class BerlinOutputs(NamedTuple):
    """The scenario's arrays beside the engine's (scoring.CatanOutputs)."""

    points: np.ndarray        # [plays, seats] the scenario's points (the engine's plus walls, chips, cards)
    wall_pieces: np.ndarray   # [plays, seats]
    chips: np.ndarray         # [plays, seats] victory-point chips
    cards: np.ndarray         # [plays, seats, 2] holds Bester Mauerspecht, Bester Raver
    wall_opened: np.ndarray   # [plays] turn of the first lower piece, -1 never
    tiergarten: np.ndarray    # [plays] chips left waiting at the end
    hotels: np.ndarray        # [plays, 6, HOTEL_COLUMNS]
    pieces: np.ndarray        # [plays, 12, 5] section, level, buyer, turn, cards (n_pieces rows used)
    n_pieces: np.ndarray      # [plays]
    parades: np.ndarray       # [plays, MAX_CHIPS, 5] turn, winner, price, bidders, missing (n_parades used)
    n_parades: np.ndarray     # [plays]


class MauerspechteOutputs(NamedTuple):
    base: tuple               # scoring.CatanOutputs
    berlin: BerlinOutputs

    @property
    def n_events(self):
        return self.base.n_events


@block()
def new_berlin_outputs(n_plays, P):
    i16 = np.int16
    return BerlinOutputs(
        points=np.zeros((n_plays, P), np.int8), wall_pieces=np.zeros((n_plays, P), np.int8),
        chips=np.zeros((n_plays, P), np.int8), cards=np.zeros((n_plays, P, 2), np.bool_),
        wall_opened=np.zeros(n_plays, np.int32), tiergarten=np.zeros(n_plays, np.int8),
        hotels=np.zeros((n_plays, N_HOTELS, len(HOTEL_COLUMNS)), np.int32),
        pieces=np.zeros((n_plays, MAX_PIECES, 5), np.int32), n_pieces=np.zeros(n_plays, i16),
        parades=np.zeros((n_plays, MAX_CHIPS, 5), np.int32), n_parades=np.zeros(n_plays, i16))


@block()
def simulate_games(seed, first_play, n_plays, n_players, max_turns, codes, prm, family_weight, bd0, rules, ba, br,
                   ev, ev_start):
    """Plays first_play .. first_play+n_plays-1 of Berlin (bd0 the engine's board arrays, ba the scenario's,
    rules the engine's Rules, br the scenario's BerlinRules). Returns (CatanOutputs, BerlinOutputs); events
    as in the engine's kernel."""
    out = new_outputs(n_plays, n_players)
    bo = new_berlin_outputs(n_plays, n_players)
    bd = play_board(bd0, ba)
    to_west, to_east = side_board(bd, ba.west_land), side_board(bd, ba.east_land)
    st = new_state(bd, rules, n_players)
    tally = new_tally(n_players)
    scratch = new_scratch(bd, n_players, N_FAMILIES)
    wl = new_wall(n_players)
    lg = EventLog(rows=ev, pos=np.zeros(1, np.int64))
    for i in range(n_plays):
        first = ev_start[i] if ev.shape[0] > 0 else 0
        lg.pos[0] = first
        start_play(st, tally, play_key(seed, first_play + i))
        reset_wall(wl, br.vp_chips)
        deal_berlin(st, bd, ba, br, scratch, lg)
        lay_walls(bd, ba, wl)
        new_game(st, rules)
        place_opening_berlin(st, tally, bd, ba, scratch, lg, codes, prm)
        winner = -1
        turn = np.int64(0)  # not the literal 0: play_turn would be compiled for Literal[int](0) too
        while turn < max_turns and winner < 0:
            winner = play_turn(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, codes, prm,
                               family_weight)
            turn += 1
        final_rows(out, i, Play(st, tally, rules, bd, scratch, lg), turn, winner, lg.pos[0] - first)
        berlin_rows(bo, i, st, wl, br)
    return out, bo


@block(_nrt=False)
def play_turn(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, codes, prm, family_weight):
    """Player turn % P's turn; returns him if he has the win threshold before one of his steps, else -1."""
    p = turn % st.hands.shape[0]
    start_turn(st, p, turn)
    wl.bought_piece[:] = 0
    wl.bought_hotel[0] = 0
    return turn_steps(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, False, codes, prm,
                      family_weight, codes, -1)


@block(_nrt=False)
def turn_steps(st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg, turn, p, rolled, codes, prm,
               family_weight, seat_codes, stop_code):
    """The player's steps, from before the roll or after it (`rolled`): returns him if he has the win threshold
    before one of them, -1 when he ended his turn, or STOPPED when he is to choose an action after the roll and
    his seat's code (seat_codes) is stop_code (a search chooses it: apply_choice, then turn_steps again)."""
    code = codes[p]
    while True:
        release_thresholds(st, bd, ba, wl, br, lg, turn, p, codes)
        if berlin_points(st, wl, br, p) >= br.win_points:
            return p
        robber_board = robber_goes(st, bd, to_west, to_east, ba, wl)
        knight_board = knight_goes(st, bd, to_west, to_east, ba, br, wl)
        if not rolled:
            if choose_knight_before_roll(st, playable(st, p, KNIGHT)):
                knight_step(Play(st, tally, rules, knight_board, scratch, lg), turn, p, base_code(code), False)
                continue
            die_1, die_2 = roll_dice(st, tally, lg, turn, p)
            rolled = True
            roll = die_1 + die_2
            if roll == ROBBER_ROLL:
                seven_step(Play(st, tally, rules, robber_board, scratch, lg), turn, p, base_code(code))
                field_books(st, bd, ba, wl, scratch, roll)
                continue
            missing = die_1 == die_2 and not token_on_board(st, bd, roll)
            produce_berlin(st, tally, bd, ba, wl, scratch, lg, turn, roll)
            if missing:
                missing_number(wl, lg, turn, p)
            if die_1 == die_2 and wl.tiergarten[0] > 0:
                love_parade(st, wl, br, lg, turn, p, codes, prm, missing)
            continue
        if seat_codes[p] == stop_code:
            return STOPPED
        total = count_berlin(st, rules, bd, ba, br, wl, scratch, p, turn)
        family, index = choose_berlin_action(st, rules, bd, ba, wl, scratch, p, code, prm, family_weight, total)
        if apply_choice(st, tally, rules, bd, knight_board, ba, wl, scratch, lg, turn, p, code, family, index):
            return -1


@nb.njit(cache=True, _nrt=False, inline="always")
def apply_choice(st, tally, rules, bd, knight_board, ba, wl, scratch, lg, turn, p, code, family, index):
    """The chosen action after the roll (scratch lists the actions counted for it; knight_board: where a knight
    may move the robber, knight_goes); True if it ends the turn."""
    tally.actions[0] += 1
    if family == F_END_TURN:
        log(lg, turn, p, EV_END_TURN, 0, 0, 0)
        return True
    action_step(st, tally, rules, bd, knight_board, ba, wl, scratch, lg, turn, p, code, family, index)
    return False


@nb.njit(cache=True, _nrt=False, inline="always")
def robber_goes(st, bd, to_west, to_east, ba, wl):
    """The board whose land hexes the robber may be moved to: while the wall is closed (no lower piece bought)
    the other side's, then every land hex."""
    if wl.opened_turn[0] >= 0:
        return bd
    return to_east if ba.hex_side[st.robber[0]] == WEST else to_west


@nb.njit(cache=True, _nrt=False, inline="always")
def knight_goes(st, bd, to_west, to_east, ba, br, wl):
    """The board a knight moves the robber on: reading `knight_robber = across`, robber_goes's; `free` (the text
    names the 7 only), every land hex as in the base game."""
    return robber_goes(st, bd, to_west, to_east, ba, wl) if br.knight_across else bd


@nb.njit(cache=True, _nrt=False, inline="always")
def count_berlin(st, rules, bd, ba, br, wl, scratch, p, turn):
    """The engine's count of the base families (its ship moves left out: here they are listed by
    open_end_ships), then the scenario's: moving a ship, wall pieces, hotels. Returns the total. Reading
    `ship_sites = connected`: p's settlement sites at his ships are decided first (wall.ship_sites)."""
    if br.connected_ships and st.left[p, SHIPS] < rules.piece_limits[SHIPS]:  # he has ships
        ship_sites(st, bd, ba, scratch, p)
    st.n_movable[0] = 0  # tells the engine's count its list of ship moves is made (empty): ours differ
    total = count_actions(st, rules, bd, scratch, p, turn)
    counts = scratch.counts
    counts[F_MOVE_SHIP] = 0
    if st.ship_moved[0] == 0 and st.left[p, SHIPS] < rules.piece_limits[SHIPS]:
        counts[F_MOVE_SHIP] = open_end_ships(st, bd, scratch, p, turn) * st.n_legal_edge[p, SHIP - 1]
    counts[F_WALL_PIECE] = count_pieces(st, ba, wl, p)
    counts[F_HOTEL] = count_hotels(st, ba, wl, p)
    return total + counts[F_MOVE_SHIP] + counts[F_WALL_PIECE] + counts[F_HOTEL]


@block(_nrt=False)
def open_end_ships(st, bd, scratch, p, turn):
    """p's ships at an open end of a route, not built this turn, into scratch.movable (the Seafarers rule:
    an end that meets neither his building nor another of his ships). Each may go to any free edge a ship
    may take (here a ship needs no connection)."""
    m = 0
    for s in range(bd.edge_nodes.shape[0]):
        if st.edge_owner[s] != p or st.edge_kind[s] != SHIP or st.edge_turn[s] == turn:
            continue
        open_end = False
        for side in range(2):
            n = bd.edge_nodes[s, side]
            joined = st.node_owner[n] == p
            for k in range(3):
                f = bd.node_edges[n, k]
                joined = joined or (f >= 0 and f != s and st.edge_owner[f] == p and st.edge_kind[f] == SHIP)
            open_end = open_end or not joined
        if open_end:
            scratch.movable[m] = s
            m += 1
    return m


@nb.njit(cache=True, _nrt=False, inline="always")
def action_step(st, tally, rules, bd, knight_board, ba, wl, scratch, lg, turn, p, code, family, index):
    """The index-th action of a family: the scenario's (wall piece, hotel), the ones it plays its own way (a
    knight across the closed wall, road building and ship moves with unconnected ships), or the engine's
    (legal.arguments, apply.apply_action, scoring.update_routes, as its base_action_step does); the legal
    road and ship flags are corrected (wall.route_flags) after any route changed. (Calling base_action_step
    as well would inline a second copy of apply_action: a longer first compile.)"""
    if family == F_WALL_PIECE:
        buy_piece(st, bd, ba, wl, lg, turn, p, nth_piece(st, ba, wl, p, index), code)
    elif family == F_HOTEL:
        h, k = nth_hotel(st, ba, wl, p, index)
        buy_hotel(st, tally, bd, ba, wl, lg, turn, p, h, k)
    elif family == F_KNIGHT:
        knight_step(Play(st, tally, rules, knight_board, scratch, lg), turn, p, base_code(code), True)
    elif family == F_ROAD_BUILDING:
        play_road_building(st, tally, lg, p, turn)
        for _ in range(2):
            m = list_free_pieces(st, scratch, p)
            if m == 0:
                break
            pick = choose_free_piece(st, m)
            place_route_piece(st, bd, lg, p, turn, scratch.candidates[pick], scratch.kinds[pick], True)
            route_flags(st, bd, ba)
        update_routes(st, rules, bd, scratch, p, -1)
    else:  # as the engine's base_action_step, with the scenario's ship moves and flags
        if family == F_MOVE_SHIP:
            n_dest = st.n_legal_edge[p, SHIP - 1]
            a, b = scratch.movable[index // n_dest], nth_edge(st, p, SHIP, index % n_dest)
        else:
            a, b = arguments(st, bd, scratch, p, family, index)
        if apply_action(Play(st, tally, rules, bd, scratch, lg), p, turn, family, a, b):
            update_routes(st, rules, bd, scratch, p, a if family == F_SETTLEMENT else -1)
            route_flags(st, bd, ba)


@block()
def berlin_rows(bo, i, st, wl, br):
    for q in range(st.hands.shape[0]):
        bo.points[i, q] = berlin_points(st, wl, br, q)
        bo.wall_pieces[i, q] = wl.pieces[q]
        bo.chips[i, q] = wl.chips[q]
        bo.cards[i, q, 0] = wl.holder[MAUERSPECHT] == q
        bo.cards[i, q, 1] = wl.holder[RAVER] == q
    bo.wall_opened[i] = wl.opened_turn[0]
    bo.tiergarten[i] = wl.tiergarten[0]
    for h in range(N_HOTELS):
        row = (wl.hotel_owner[h], wl.hotel_chip[h], wl.hotel_old[h], wl.hotel_turn[h], wl.hotel_paid[h],
               wl.hotel_yield[h], wl.hotel_payback[h], wl.hotel_rolls[h], wl.hotel_robbed[h], wl.hotel_short[h],
               wl.field_got[h, 0], wl.field_got[h, 1], wl.field_old[h, 0], wl.field_old[h, 1])
        for c in range(len(row)):
            bo.hotels[i, h, c] = row[c]
    bo.n_pieces[i] = wl.n_pieces[0]
    bo.pieces[i, :, :] = wl.piece_row
    bo.n_parades[i] = wl.n_parades[0]
    bo.parades[i, :, :] = wl.parade_row
