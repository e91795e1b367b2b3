"""Die Mauerspechte's blocks: the opening, a player's turn step by step, whole turns from any state, and the
steps where the scenario's rules ask the policies (decisions.py): the threshold chips' sections, the hotel a
lower wall piece releases, a Love Parade's bids. The batch's plays (kernel.py) and a search's rollouts
(search.py) are the same calls.

A play: Berlin's board (setup.deal_berlin), the wall laid (wall.lay_walls), a new game (the engine's), the
opening one settlement West and one East (place_opening_berlin), then turns until a player has the win threshold
(15 at four players, 17 at three) on his own turn, or the turn limit. A turn is the engine's (start_turn,
knight_step, roll_dice, seven_step, its actions), with the scenario's production (hotels first), Love Parades on
doubles, the robber sent across the closed wall, ships that need no connection, the scenario's actions (wall
pieces, hotels), and the wall's thresholds checked before every step. The readings of the rule text
(BerlinRules, parameters.toml `reading`) reach the blocks through br: which ships open settlement sites
(rules.count_berlin), who may buy a released piece at once (release_thresholds), the chip supply
(state.reset_wall), whether a knight crosses the closed wall (rules.knight_goes), the opening bid (love_parade).
Every draw is keyed by (seed, play, turn, stream, rank in the turn), so a play replays alone.
"""

import numba as nb

from ...core.blocks import block
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
)
from ..catan.decisions import choose_free_piece, choose_knight_before_roll, choose_opening_site
from ..catan.dice import roll_dice
from ..catan.legal import arguments, init_legal, nth_edge, playable
from ..catan.play import STOPPED, knight_step, opening_settlement, seven_step, start_turn
from ..catan.rules import can_settle, hand_size
from ..catan.scoring import update_routes
from ..catan.state import log
from .constants import EV_BID, EV_PASS, EV_WALL_CHIP, F_HOTEL, F_WALL_PIECE, LOWER, MAUERSPECHT
from .decisions import (
    base_code,
    choose_berlin_action,
    choose_bid,
    choose_direct_piece,
    choose_release,
    choose_section,
    hotelier_site,
)
from .hotels import buy_hotel, field_books, nth_hotel, produce_berlin, token_on_board
from .parade import missing_number, sell_chip
from .policies import HOTELIER, RANDOM
from .rules import count_berlin, knight_goes, robber_goes
from .state import engine
from .wall import (
    berlin_points,
    berlin_standing_after,
    can_buy_piece,
    decide_card,
    nth_piece,
    release_hotel,
    route_flags,
    take_piece,
)


@block(_nrt=False)
def play_on(pl, seats, turn, stop):
    """Whole turns from `turn` on, to a win or turn `stop`: (turns played in all, winner or -1), the standing after
    each kept in pl.lg. A search's rollouts play on from a copy of the play with this block (their log keeps
    none)."""
    winner = -1
    while turn < stop and winner < 0:
        winner = play_turn(pl, seats, turn)
        berlin_standing_after(pl.st, pl.wl, pl.br, pl.lg, turn)
        turn += 1
    return turn, winner


@nb.njit(cache=True, _nrt=False, inline="always")
def play_turn(pl, seats, turn):
    """Player turn % P's turn; returns him if he has the win threshold before one of his steps, else -1."""
    p = turn % pl.st.hands.shape[0]
    start_turn(pl.st, p, turn)
    pl.wl.bought_piece[:] = 0
    pl.wl.bought_hotel[0] = 0
    return turn_steps(pl, seats, turn, p, False, seats.codes, -1)


@block(python_entry=True, _nrt=False)  # stepped from Python by the search's tests
def turn_steps(pl, seats, turn, p, rolled, seat_codes, stop_code):
    """The player's steps, from before the roll or after it (`rolled`): returns him if he has the win threshold
    before one of them, -1 when he ended his turn, or STOPPED when he is to choose an action after the roll and
    his seat's code (seat_codes) is stop_code (a search chooses it: apply_choice, then turn_steps again)."""
    st, tally, rules, bd, to_west, to_east, ba, br, wl, scratch, lg = pl
    codes = seats.codes
    code = codes[p]
    while True:
        release_thresholds(st, bd, ba, wl, br, lg, turn, p, codes)
        if berlin_points(st, wl, br, p) >= br.win_points:
            return p
        robber_board = robber_goes(st, bd, to_west, to_east, ba, wl)
        knight_board = knight_goes(st, bd, to_west, to_east, ba, br, wl)
        if not rolled:
            if choose_knight_before_roll(st, playable(st, p, KNIGHT)):
                knight_step(engine(pl, knight_board), turn, p, base_code(code), False)
                continue
            die_1, die_2 = roll_dice(st, tally, lg, turn, p)
            rolled = True
            roll = die_1 + die_2
            if roll == ROBBER_ROLL:
                seven_step(engine(pl, robber_board), turn, p, base_code(code))
                field_books(st, bd, ba, wl, scratch, roll)
                continue
            missing = die_1 == die_2 and not token_on_board(st, bd, roll)
            produce_berlin(st, tally, bd, ba, wl, scratch, lg, turn, roll)
            if missing:
                missing_number(wl, lg, turn, p)
            if die_1 == die_2 and wl.tiergarten[0] > 0:
                love_parade(st, wl, br, lg, turn, p, codes, seats.prm, missing)
            continue
        if seat_codes[p] == stop_code:
            return STOPPED
        total = count_berlin(st, rules, bd, ba, br, wl, scratch, p, turn)
        family, index = choose_berlin_action(pl, seats, p, code, total)
        if apply_choice(pl, knight_board, turn, p, code, family, index):
            return -1


@nb.njit(cache=True, _nrt=False, inline="always")
def apply_choice(pl, knight_board, turn, p, code, family, index):
    """The chosen action after the roll (pl.scratch lists the actions counted for it; knight_board: where a
    knight may move the robber, rules.knight_goes); True if it ends the turn."""
    pl.tally.actions[0] += 1
    if family == F_END_TURN:
        log(pl.lg, turn, p, EV_END_TURN, 0, 0, 0)
        return True
    action_step(pl, knight_board, turn, p, code, family, index)
    return False


@nb.njit(cache=True, _nrt=False, inline="always")
def action_step(pl, knight_board, turn, p, code, family, index):
    """The index-th action of a family: the scenario's (wall piece, hotel), the ones it plays its own way (a
    knight across the closed wall, road building and ship moves with unconnected ships), or the engine's
    (legal.arguments, apply.apply_action, scoring.update_routes, as its base_action_step does); the legal
    road and ship flags are corrected (wall.route_flags) after any route changed. (Calling base_action_step
    as well would inline a second copy of apply_action: a longer first compile.)"""
    st, tally, rules, bd, ba, wl, scratch, lg = pl.st, pl.tally, pl.rules, pl.bd, pl.ba, pl.wl, pl.scratch, pl.lg
    if family == F_WALL_PIECE:
        buy_piece(st, bd, ba, wl, lg, turn, p, nth_piece(st, ba, wl, p, index), code)
    elif family == F_HOTEL:
        h, k = nth_hotel(st, ba, wl, p, index)
        buy_hotel(pl, turn, p, h, k)
    elif family == F_KNIGHT:
        knight_step(engine(pl, knight_board), turn, p, base_code(code), True)
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
        if apply_action(engine(pl, bd), p, turn, family, a, b):
            update_routes(st, rules, bd, scratch, p, a if family == F_SETTLEMENT else -1)
            route_flags(st, bd, ba)


@block(_nrt=False)
def buy_piece(st, bd, ba, wl, lg, turn, p, s, code):
    """p buys section s's top piece (a point). A lower piece also puts a chip in the Tiergarten (while the
    supply lasts), lets p release the hotel his policy chooses, offers the section's chip for hotels, opens the
    section (the first one opens the wall for the robber); then Bester Mauerspecht is decided again."""
    if take_piece(st, ba, wl, lg, turn, p, s) == LOWER:
        release_hotel(st, bd, ba, wl, lg, turn, p, s, choose_release(st, bd, ba, wl, p, code))
    decide_card(wl, wl.pieces, MAUERSPECHT, lg, turn)


@block(_nrt=False)
def release_thresholds(st, bd, ba, wl, br, lg, turn, p_turn, codes):
    """The first time the leading player reaches a threshold (4, 5, 6, 8, 9, 10) he puts its chip under a
    wall section of his choice, each threshold passed at once in turn. The leader: most points, on a tie
    the first from the player on turn. Reading `release_buy = at_once` ("darf direkt das oberste Mauerstück
    erwerben"): a leader who places a chip on another player's turn may buy that section's upper piece at once,
    paying as usual, if he bought no wall piece this turn (on his own turn it is one of his actions)."""
    P = st.hands.shape[0]
    again = True
    while again:  # a piece bought at once is a point: the thresholds are looked at again after it
        again = False
        leader, best = -1, -1
        for i in range(P):
            q = (p_turn + i) % P
            v = berlin_points(st, wl, br, q)
            if v > best:
                leader, best = q, v
        for k in range(ba.thresholds.shape[0]):
            if wl.passed[k] or best < ba.thresholds[k]:
                continue
            wl.passed[k] = 1
            s = choose_section(st, ba, wl, leader, codes[leader])
            wl.chip[s] = ba.thresholds[k]
            log(lg, turn, leader, EV_WALL_CHIP, s, ba.thresholds[k], 0)
            if br.release_at_once and leader != p_turn and not wl.bought_piece[leader] \
                    and can_buy_piece(st, ba, wl, leader, s) and choose_direct_piece(st, leader, codes[leader]):
                buy_piece(st, bd, ba, wl, lg, turn, leader, s, codes[leader])
                again = True


@block(_nrt=False)
def love_parade(st, wl, br, lg, turn, p, codes, prm, missing):
    """One chip auctioned, p (on turn) opening. If nobody bids (the opener cannot pay min_bid and all pass),
    the chip stays in the Tiergarten."""
    P = st.hands.shape[0]
    wl.active[:] = True
    leader, bid, bid_mask, q = -1, -1, 0, p
    while True:
        if q == leader:
            break  # the bid went round the table and everyone else passed
        if wl.active[q]:
            lo = max(bid + 1, br.min_bid)
            amount = choose_bid(st, prm, q, codes[q], lo, hand_size(st.hands, q), q == p and bid < 0)
            if amount < 0:
                wl.active[q] = False
                log(lg, turn, q, EV_PASS, 0, 0, 0)
            else:
                bid, leader = amount, q
                bid_mask |= 1 << q
                log(lg, turn, q, EV_BID, amount, 0, 0)
        still = 0
        for x in range(P):
            still += wl.active[x]
        if still == 0 or (still == 1 and leader >= 0 and wl.active[leader]):
            break
        q = (q + 1) % P
    if leader < 0:
        return
    sell_chip(st, wl, lg, turn, leader, bid, bid_mask, missing)


@block(_nrt=False)
def place_opening_berlin(pl, seats):
    """Snake order (0, 1, .., 1, 0): a settlement and a road beside it each; a player's second settlement on
    the other side of the wall from his first (any side if none is left there); the second yields as usual."""
    st, tally, bd, ba, scratch, lg = pl.st, pl.tally, pl.bd, pl.ba, pl.scratch, pl.lg
    codes, prm = seats.codes, seats.prm
    P = st.hands.shape[0]
    sites = scratch.candidates
    first_side = scratch.score
    for step in range(2 * P):
        p = step if step < P else 2 * P - 1 - step
        need = -1 if step < P else 1 - first_side[p]
        m = 0
        for relaxed in range(2):
            for n in range(bd.node_nodes.shape[0]):
                side_ok = ba.node_side[n] >= 0 and (need < 0 or relaxed == 1 or ba.node_side[n] == need)
                if side_ok and can_settle(n, p, True, bd.node_land, st.node_owner, bd.node_nodes, bd.node_edges,
                                          st.edge_owner):
                    sites[m] = n
                    m += 1
            if m > 0:
                break
        code = codes[p]
        n = choose_opening_site(st, bd, sites, m, RANDOM if code == HOTELIER else base_code(code), prm, p)
        if code == HOTELIER:
            n = hotelier_site(st, bd, ba, sites, m, prm, p)
        if step < P:
            first_side[p] = ba.node_side[n]
        opening_settlement(st, tally, bd, lg, p, n, step >= P, sites)
    init_legal(st, bd)
    route_flags(st, bd, ba)
