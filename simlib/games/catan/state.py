"""The data the Catan engine's blocks share, as NamedTuples of arrays (compiled blocks read their fields by name).

- BoardArrays: a map as the kernel reads it (board.py derives it once per map).
- Rules: the numbers a scenario may change: win threshold, piece limits, bank size, costs, deck.
- State: one game in play: the board's draw, pieces, hands, bank, cards, the legal-site flags, and the
  play's draws (key and next index; every draw is keyed by (seed, play, index)).
- Tally: what the lake's tables report besides the state: receipts, losses, the dice's promise.
- Scratch: work space reused by every play (no array is allocated per game or per decision).
- EventLog: what a play records: the event rows being written (none when events are off), the next row, the
  standing after each turn (for how the play feels) and what each seat cannot tell of the others' hands from the
  events so far (kept where a search reads it: observed_log, unseen.py).
- Play: those of one play together, as the turn's blocks take them; Seats: the seats' policies.

A scenario keeps these and adds its own tuple beside them for what it adds (walls, hotels).
Scalars that change during a game are one-element arrays (a tuple's fields cannot be reassigned).
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ...core.rng import begin_turn_draws, draw, next_turn_draw_index, turn_draw_index
from .board import RANDOM, SPIRAL, Board, spiral
from .constants import (
    COST_ROWS,
    DEV_DECK,
    N_DEV,
    N_RES,
    N_STREAMS,
    N_SUMS,
    PIECES,
    ROUTE_WORK_ROWS,
    SPIRAL_TOKENS,
    STANDARD_TERRAINS,
)


class BoardArrays(NamedTuple):
    map_terrain: np.ndarray       # [H] terrain, or RANDOM (drawn from terrain_bag over random_hexes)
    map_token: np.ndarray         # [H] token, 0 none, SPIRAL (laid along spiral_hexes in spiral_tokens' order)
    land_hexes: np.ndarray        # [L]
    random_hexes: np.ndarray      # hexes whose terrain is drawn
    terrain_bag: np.ndarray       # the terrains drawn over them (shuffled per play)
    spiral_hexes: np.ndarray      # land hexes in the order tokens are laid
    spiral_tokens: np.ndarray     # tokens A-R
    hex_nodes: np.ndarray         # [H, 6]
    node_hexes: np.ndarray        # [N, 3], -1 off the map
    node_nodes: np.ndarray        # [N, 3], -1 none
    node_edges: np.ndarray        # [N, 3], -1 none
    node_land: np.ndarray         # [N] a settlement may stand here
    edge_nodes: np.ndarray        # [E, 2]
    edge_land: np.ndarray         # [E] a road may go here
    edge_sea: np.ndarray          # [E] a ship may go here
    harbour_rate: np.ndarray      # [N] 4 (none), 3 or 2
    harbour_resource: np.ndarray  # [N] the resource of a 2:1 harbour, else -1


class Rules(NamedTuple):
    win_points: int            # points that win on one's own turn
    piece_limits: np.ndarray   # [4] settlements, cities, roads, ships per player
    bank_size: int             # cards of each resource in the bank
    costs: np.ndarray          # [5, 5] constants.COST_ROWS: what a road, settlement, city, card, ship costs
    dev_deck: np.ndarray       # [5] development cards of each kind


class State(NamedTuple):
    key: np.ndarray            # [1] uint64: the play's key
    draw_turn: np.ndarray      # [1] the turn the next draws belong to (-1: the set-up and the opening)
    drawn: np.ndarray          # [N_STREAMS] draws taken from each stream in this turn
    hex_terrain: np.ndarray    # [H]
    hex_token: np.ndarray      # [H] 0 none
    hex_pips: np.ndarray       # [H] ways two dice make the token (of 36)
    node_pips: np.ndarray      # [N] pips of the hexes around the node
    node_owner: np.ndarray     # [N] -1 none
    node_level: np.ndarray     # [N] SETTLEMENT or CITY
    edge_owner: np.ndarray     # [E] -1 none
    edge_kind: np.ndarray      # [E] ROAD or SHIP
    edge_turn: np.ndarray      # [E] turn the piece was put there (-1 set-up)
    robber: np.ndarray         # [1] the robber's hex
    hands: np.ndarray          # [P, 5]
    bank: np.ndarray           # [5]
    deck: np.ndarray           # [cards] the development deck, shuffled
    deck_pos: np.ndarray       # [1] cards drawn from it
    dev_hand: np.ndarray       # [P, N_DEV] development cards held
    dev_new: np.ndarray        # [P, N_DEV] of them bought this turn (not playable yet)
    left: np.ndarray           # [P, 4] settlements, cities, roads, ships still in the box
    knights: np.ndarray        # [P] knights played
    routes: np.ndarray         # [P] longest route where route_stale is False (out of date from new_game on)
    route_stale: np.ndarray    # [P] routes[q] is out of date (and not needed yet: scoring.update_routes)
    route_low: np.ndarray      # [P] at most the longest route (scoring.route_piece_lifted), exact when searched
    route_high: np.ndarray     # [P] at least the longest route (scoring.route_piece_added), exact when searched
    longest_holder: np.ndarray  # [1] -1 none
    army_holder: np.ndarray    # [1] -1 none
    building_points: np.ndarray  # [P] a point per settlement, two per city
    rate: np.ndarray           # [P, 5] cards given to the bank for one
    legal_edge: np.ndarray     # [P, 2, E] may put a road (0) or ship (1) there; kept where pieces come and go
    n_legal_edge: np.ndarray   # [P, 2]
    legal_node: np.ndarray     # [P, N] may put a settlement there
    n_legal_node: np.ndarray   # [P]
    dev_played: np.ndarray     # [1] a development card was played this turn
    ship_moved: np.ndarray     # [1] a ship was moved this turn
    n_movable: np.ndarray      # [1] ships listed in Scratch.movable (-1: to be listed again)


class Tally(NamedTuple):
    received: np.ndarray       # [P, 5] from the set-up and rolls
    by_kind: np.ndarray        # [P, 2, 5] from rolls, by settlements and cities
    exposure: np.ndarray       # [P, 2, 5] what one roll promises the buildings on the board, in 36ths
    promised: np.ndarray       # [P, 2, 5] exposure summed over the rolls
    lost: np.ndarray           # [P, 2, 5] ROBBED, DISCARDED
    bought: np.ndarray         # [P] development cards bought
    played: np.ndarray         # [P] development cards played
    actions: np.ndarray        # [1] decisions taken
    rolls: np.ndarray          # [13] how often each dice sum came


class Scratch(NamedTuple):
    candidates: np.ndarray     # a list of nodes, edges, hexes or seats being chosen from
    kinds: np.ndarray          # beside candidates: ROAD or SHIP of a free piece
    trade_give: np.ndarray     # the trades listed at a decision
    trade_get: np.ndarray
    plenty_first: np.ndarray   # the year-of-plenty pairs listed at a decision
    plenty_second: np.ndarray
    movable: np.ndarray        # ships that may move ...
    destinations: np.ndarray   # ... and how many places each may go
    counts: np.ndarray         # [families] legal actions per family at a decision
    received_now: np.ndarray   # [P, 2, 5] one roll's production by settlements and cities
    terrains: np.ndarray       # the terrain bag being shuffled
    route_work: np.ndarray     # rules.longest_route_in's work space
    road_list: np.ndarray      # the builder's options
    settle_list: np.ndarray
    city_list: np.ndarray
    score: np.ndarray          # [P]


class EventLog(NamedTuple):
    rows: np.ndarray           # [events, EV_COLS] int32; no rows: events are off
    pos: np.ndarray            # [1] the next row
    # [turn, seat] every seat's standing after each turn (docs/statistics.md, "How a play feels"), written by the
    # game's turn loop; no rows: not kept (a search's rollouts).
    standing: np.ndarray
    # What each seat cannot tell of the others' resource cards from the events so far (unseen.py): arrays where a
    # search reads it (observed_log), None elsewhere, where the blocks that keep it compile to nothing (kept in the
    # state, even empty, it slowed scripted plays by 2 to 4%).
    unseen: np.ndarray | None = None        # [P, P, 5] [o, q, r]: of q's cards of kind r, how many o cannot tell
    unseen_group: np.ndarray | None = None  # [P, P] [o, q]: a bit per seat among which they may lie


class Play(NamedTuple):
    """One play in progress and what its blocks read: the turn's blocks (play.py) take it whole. A search's
    rollouts play a Play of their own over the same rules and board."""

    st: State
    tally: Tally
    rules: Rules
    bd: BoardArrays
    scratch: Scratch
    lg: EventLog


class Seats(NamedTuple):
    """The seats' policies as the blocks read them (a core Lineup, and how `weighted` groups the actions)."""

    codes: np.ndarray          # [seat] the policy's code (policies.py); a search seat's is its base policy's in play
    prm: np.ndarray            # [seat, position] the seat's parameters, read at policies.PARAMS' positions
    defaults: np.ndarray       # [code, position] every policy's defaults (a search's rollouts play its base policy)
    family_weight: np.ndarray  # [family] the weight group (a column of prm) of each action family, for `weighted`


def board_arrays(b: Board) -> BoardArrays:
    """The kernel's view of a map (its topology as int64 and bool arrays, the draws it needs)."""
    i64 = np.int64
    drawn = np.nonzero(b.hex_terrain == RANDOM)[0].astype(i64)
    bag = np.repeat(np.arange(len(STANDARD_TERRAINS)), STANDARD_TERRAINS).astype(i64) if len(drawn) else \
        np.zeros(0, i64)
    spiral_order = spiral(b) if (b.hex_token[b.land_hexes] == SPIRAL).any() else b.land_hexes
    return BoardArrays(b.hex_terrain.astype(i64), b.hex_token.astype(i64), b.land_hexes.astype(i64), drawn, bag,
                       spiral_order.astype(i64), np.array(SPIRAL_TOKENS, i64), b.hex_nodes.astype(i64),
                       b.node_hexes.astype(i64), b.node_nodes.astype(i64), b.node_edges.astype(i64), b.node_land,
                       b.edge_nodes.astype(i64), b.edge_land, b.edge_sea, b.node_harbour_rate.astype(i64),
                       b.node_harbour_resource.astype(i64))


def check_rules(rules: Rules) -> Rules:
    """The shapes the blocks rely on (a scenario builds its own Rules): one limit per piece kind, a cost row
    per COST_ROWS entry, one count per development card, at most 63 route pieces (a bit mask holds them)."""
    from ...core.errors import SimlibError

    if rules.piece_limits.shape != (len(PIECES),) or rules.dev_deck.shape != (N_DEV,) \
            or rules.costs.shape != (len(COST_ROWS), N_RES):
        raise SimlibError("Catan rules: piece_limits needs 4 numbers, dev_deck 5 and costs 5 rows of 5")
    if rules.piece_limits[2] + rules.piece_limits[3] > 63 or (rules.piece_limits < 0).any() \
            or (rules.dev_deck < 0).any() or rules.win_points < 1 or rules.bank_size < 0:
        raise SimlibError("Catan rules: at most 63 roads and ships, no negative counts, a win threshold of 1 or more")
    return rules


def published_rules(win_points: int, bank_size: int) -> Rules:
    """The published base game's costs, pieces and deck, with these win threshold and bank size."""
    return check_rules(Rules(int(win_points), np.array(list(PIECES.values()), np.int64), int(bank_size),
                             np.array(COST_ROWS, np.int64), np.array(DEV_DECK, np.int64)))


@block()
def new_state(bd, rules, n_players):
    P, H, N, E, i64 = n_players, bd.hex_nodes.shape[0], bd.node_nodes.shape[0], bd.edge_nodes.shape[0], np.int64
    return State(
        key=np.zeros(1, np.uint64), draw_turn=np.zeros(1, i64), drawn=np.zeros(N_STREAMS, i64),
        hex_terrain=np.zeros(H, i64), hex_token=np.zeros(H, i64), hex_pips=np.zeros(H, i64),
        node_pips=np.zeros(N, i64), node_owner=np.zeros(N, i64), node_level=np.zeros(N, i64),
        edge_owner=np.zeros(E, i64), edge_kind=np.zeros(E, i64), edge_turn=np.zeros(E, i64), robber=np.zeros(1, i64),
        hands=np.zeros((P, N_RES), i64), bank=np.zeros(N_RES, i64),
        deck=np.zeros(rules.dev_deck.sum(), i64), deck_pos=np.zeros(1, i64),
        dev_hand=np.zeros((P, N_DEV), i64), dev_new=np.zeros((P, N_DEV), i64),
        left=np.zeros((P, rules.piece_limits.shape[0]), i64), knights=np.zeros(P, i64),
        routes=np.zeros(P, i64), route_stale=np.zeros(P, np.bool_), route_low=np.zeros(P, i64),
        route_high=np.zeros(P, i64),
        longest_holder=np.zeros(1, i64), army_holder=np.zeros(1, i64),
        building_points=np.zeros(P, i64), rate=np.zeros((P, N_RES), i64),
        legal_edge=np.zeros((P, 2, E), np.bool_), n_legal_edge=np.zeros((P, 2), i64),
        legal_node=np.zeros((P, N), np.bool_), n_legal_node=np.zeros(P, i64),
        dev_played=np.zeros(1, i64), ship_moved=np.zeros(1, i64), n_movable=np.zeros(1, i64))


@block(_nrt=True)  # said, not inherited from the search's decider: a slice's copy may allocate
def copy_state(src, dst):
    """dst := src, field by field (a search's rollout plays on a copy)."""
    dst.key[:] = src.key
    dst.draw_turn[:] = src.draw_turn
    dst.drawn[:] = src.drawn
    dst.hex_terrain[:] = src.hex_terrain
    dst.hex_token[:] = src.hex_token
    dst.hex_pips[:] = src.hex_pips
    dst.node_pips[:] = src.node_pips
    dst.node_owner[:] = src.node_owner
    dst.node_level[:] = src.node_level
    dst.edge_owner[:] = src.edge_owner
    dst.edge_kind[:] = src.edge_kind
    dst.edge_turn[:] = src.edge_turn
    dst.robber[:] = src.robber
    dst.hands[:] = src.hands
    dst.bank[:] = src.bank
    dst.deck[:] = src.deck
    dst.deck_pos[:] = src.deck_pos
    dst.dev_hand[:] = src.dev_hand
    dst.dev_new[:] = src.dev_new
    dst.left[:] = src.left
    dst.knights[:] = src.knights
    dst.routes[:] = src.routes
    dst.route_stale[:] = src.route_stale
    dst.route_low[:] = src.route_low
    dst.route_high[:] = src.route_high
    dst.longest_holder[:] = src.longest_holder
    dst.army_holder[:] = src.army_holder
    dst.building_points[:] = src.building_points
    dst.rate[:] = src.rate
    dst.legal_edge[:] = src.legal_edge
    dst.n_legal_edge[:] = src.n_legal_edge
    dst.legal_node[:] = src.legal_node
    dst.n_legal_node[:] = src.n_legal_node
    dst.dev_played[:] = src.dev_played
    dst.ship_moved[:] = src.ship_moved
    dst.n_movable[:] = src.n_movable


@block()
def observed_log(rows, observers, n_players, turns):
    """An EventLog writing to `rows` (none: events are off) that keeps what each of `observers` seats cannot tell
    of the others' hands, and the standing after each of up to `turns` turns: n_players and the turn limit in the
    play a search reads; 0 and 0 in a search's rollouts, so that they and the real play are one type (the
    search's turn blocks compile once)."""
    return EventLog(rows=rows, pos=np.zeros(1, np.int64), standing=np.zeros((turns, n_players)),
                    unseen=np.zeros((observers, n_players, N_RES), np.int64),
                    unseen_group=np.zeros((observers, n_players), np.int64))


@block()
def new_tally(n_players):
    P, i64 = n_players, np.int64
    return Tally(
        received=np.zeros((P, N_RES), i64), by_kind=np.zeros((P, 2, N_RES), i64),
        exposure=np.zeros((P, 2, N_RES), i64), promised=np.zeros((P, 2, N_RES), i64),
        lost=np.zeros((P, 2, N_RES), i64), bought=np.zeros(P, i64), played=np.zeros(P, i64),
        actions=np.zeros(1, i64), rolls=np.zeros(N_SUMS, i64))


@block()
def new_scratch(bd, n_players, n_families):
    N, E, i64 = bd.node_nodes.shape[0], bd.edge_nodes.shape[0], np.int64
    lists = 2 * E + N + 16  # more than any list of nodes, edges (one per kind), hexes or seats
    pairs = N_RES * N_RES  # more than the trades or year-of-plenty pairs
    return Scratch(
        candidates=np.zeros(lists, i64), kinds=np.zeros(lists, i64),
        trade_give=np.zeros(pairs, i64), trade_get=np.zeros(pairs, i64),
        plenty_first=np.zeros(pairs, i64), plenty_second=np.zeros(pairs, i64),
        movable=np.zeros(E, i64), destinations=np.zeros(E, i64), counts=np.zeros(n_families, i64),
        received_now=np.zeros((n_players, 2, N_RES), i64), terrains=np.zeros(bd.terrain_bag.shape[0], i64),
        route_work=np.zeros((ROUTE_WORK_ROWS, max(2 * E, N) + 1), i64),
        road_list=np.zeros(E, i64), settle_list=np.zeros(N, i64), city_list=np.zeros(N, i64),
        score=np.zeros(n_players, i64))


@nb.njit(cache=True, inline="always")
def draw_index(st, stream, k):
    """The index of the stream's k-th draw from now in this turn."""
    return turn_draw_index(st.draw_turn[0], N_STREAMS, stream, st.drawn[stream] + k)


@nb.njit(cache=True, inline="always")
def take(st, stream):
    """The stream's next draw in this turn."""
    return draw(st.key[0], next_turn_draw_index(st.draw_turn, st.drawn, stream))


@nb.njit(cache=True, inline="always")
def peek(st, stream, k):
    """The stream's draw k places ahead in this turn, without taking it."""
    return draw(st.key[0], draw_index(st, stream, k))


@nb.njit(cache=True, inline="always")
def begin_draws(st, turn):
    """The draws of turn `turn` begin (-1: the set-up and the opening)."""
    begin_turn_draws(st.draw_turn, st.drawn, turn)


@nb.njit(cache=True, inline="always")
def log(lg, turn, seat, action, a, b, c):
    """Event row (when events are kept: the log has rows); the next row either way, so counts come out."""
    pos = lg.pos[0]
    if lg.rows.shape[0] > 0:
        lg.rows[pos, 0], lg.rows[pos, 1], lg.rows[pos, 2] = turn, seat, action
        lg.rows[pos, 3], lg.rows[pos, 4], lg.rows[pos, 5] = a, b, c
    lg.pos[0] = pos + 1

