"""The data the scenario's blocks share beside the Catan engine's (catan/state.py), as NamedTuples of arrays.

- BerlinArrays: what the map and components files say, read-only (berlin.py derives it once).
- BerlinRules: the scenario's numbers that are options.
- Wall: one game's scenario state: the wall, the hotels, the chips, the two cards, and the rows of the
  per-play tables (wall pieces, hotels, Love Parades) as they happen.
- Play: one play in progress and what its blocks read, the engine's parts and the scenario's together: the
  turn's blocks (play.py) take it whole. Setup: what every play of a run shares (the maps' arrays, the rules).
Scalars that change are one-element arrays, as in the engine.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

from ...core.blocks import block
from ..catan.board import DESERT
from ..catan.state import BoardArrays, EventLog, Rules, Scratch, State, Tally
from ..catan.state import Play as EnginePlay
from .berlin import Berlin
from .constants import CHIP_CLASS, LOWER, MAX_CHIPS, MAX_PIECES, N_HOTELS, N_SECTIONS, THRESHOLDS, UPPER, WEST


class BerlinArrays(NamedTuple):
    hex_side: np.ndarray         # [H] WEST, EAST, -1 frame
    node_side: np.ndarray        # [N] side of the land at the node, -1 none or both
    section_edges: np.ndarray    # [7, k] -1 padded; row 6 the water section
    section_nodes: np.ndarray    # [7, k]
    water_neighbours: np.ndarray  # land sections beside the water section
    wall_costs: np.ndarray       # [12, 5] row 2s lower, 2s+1 upper piece of section s
    hotel_hexes: np.ndarray      # [6] each hotel card's field
    hotel_costs: np.ndarray      # [18, 5] row 3h + chip class
    chip_class: np.ndarray       # [13] a chip's cost class (0: 4/10, 1: 5/9, 2: 6/8), -1 no chip
    thresholds: np.ndarray       # [6] 4, 5, 6, 8, 9, 10
    shuffled_hexes: np.ndarray   # producing non-hotel hexes (layout shuffled: their terrain is drawn)
    harbour_nodes: np.ndarray    # [K, 2]
    harbour_rate: np.ndarray     # [K]
    harbour_resource: np.ndarray  # [K]
    node_land: np.ndarray        # [N] the map's land flags, without any wall
    edge_land: np.ndarray        # [E]
    ship_sea: np.ndarray         # [E] a ship may go here (water on both sides), without any wall
    west_land: np.ndarray        # land hexes of West Berlin (where the robber goes from the East while closed)
    east_land: np.ndarray        # land hexes of East Berlin
    robber_start: int            # the first desert in West Berlin
    ship_edges: np.ndarray       # the edges a ship may ever take (ship_sea), listed


class BerlinRules(NamedTuple):
    win_points: int
    vp_chips: int          # victory-point chips in the supply (UNLIMITED_CHIPS: vp_chip_supply unlimited)
    min_bid: int           # a Love Parade's lowest opening bid
    hotel_points: int      # points a hotel is worth to its owner
    shuffled: bool         # layout shuffled: non-hotel terrain and harbour kinds drawn per play
    # The readings of the rule text (parameters.toml, `reading`), the text's own first:
    connected_ships: bool = True   # ship_sites connected: only a ship linked to its owner's building opens a site
    release_at_once: bool = True   # release_buy at_once: the releasing player may buy the upper piece at once
    knight_across: bool = False    # knight_robber across: a knight too sends the robber across the closed wall


class Wall(NamedTuple):
    level: np.ndarray          # [7] pieces still standing per section (2, 1, 0); the water section 1 or 0
    chip: np.ndarray           # [6] the threshold chip under a land section, 0 none (not released)
    passed: np.ndarray         # [6] threshold k has been reached
    opened_turn: np.ndarray    # [1] turn the first lower piece was bought, -1 while the wall is closed
    pieces: np.ndarray         # [P] wall pieces bought
    chips: np.ndarray          # [P] victory-point chips won at Love Parades
    holder: np.ndarray         # [2] seat holding Bester Mauerspecht, Bester Raver (-1 none)
    offered: np.ndarray        # [6] chips on offer for hotels (0 none)
    released: np.ndarray       # [6] hotel released
    hotel_owner: np.ndarray    # [6] -1 not bought
    hotel_chip: np.ndarray     # [6]
    hotel_old: np.ndarray      # [6] the token the chip replaced
    hotel_turn: np.ndarray     # [6] turn bought
    hotel_paid: np.ndarray     # [6] cards paid
    hotel_yield: np.ndarray    # [6] cards the hotel gave its owner
    hotel_payback: np.ndarray  # [6] turn its yield reached its cost (-1 not yet)
    hotel_rolls: np.ndarray    # [6] rolls after it was bought
    hotel_robbed: np.ndarray   # [6] rolls of its number with the robber on its field
    hotel_short: np.ndarray    # [6] cards the bank could not pay it
    field_got: np.ndarray      # [6, 2] cards the field's buildings got after the swap: owner's, others'
    field_old: np.ndarray      # [6, 2] what they would have got on the same rolls under the old token
    bought_piece: np.ndarray   # [P] the player bought a wall piece this turn (at once on another's turn too)
    bought_hotel: np.ndarray   # [1] a hotel was bought this turn
    tiergarten: np.ndarray     # [1] chips waiting for a Love Parade
    supply: np.ndarray         # [1] chips left in the supply
    active: np.ndarray         # [P] still bidding (a Love Parade's work space)
    n_pieces: np.ndarray       # [1] rows of the wall-piece table
    piece_row: np.ndarray      # [12, 5] section, level (2 upper, 1 lower), buyer, turn, cards
    n_parades: np.ndarray      # [1]
    parade_row: np.ndarray     # [MAX_CHIPS, 5] turn, winner, price, bidders, missing-number roll


class Play(NamedTuple):
    st: State
    tally: Tally
    rules: Rules
    bd: BoardArrays       # the play's board: its land, sea and harbour flags change with the wall (play_board)
    to_west: BoardArrays  # the same board offering the robber West Berlin's land only (side_board)
    to_east: BoardArrays  # ... East Berlin's
    ba: BerlinArrays
    br: BerlinRules
    wl: Wall
    scratch: Scratch
    lg: EventLog


class Setup(NamedTuple):
    bd: BoardArrays  # the engine's board as the map gives it (each kernel call makes its own play_board of it)
    rules: Rules
    ba: BerlinArrays
    br: BerlinRules


@nb.njit(cache=True, inline="always")
def engine(pl, bd):
    """The engine's view of the play (catan's state.Play), on board bd (pl.bd, or a side board for the robber)."""
    return EnginePlay(pl.st, pl.tally, pl.rules, bd, pl.scratch, pl.lg)


def berlin_arrays(b: Berlin) -> BerlinArrays:
    i64 = np.int64
    chip_class = np.full(13, -1, i64)
    for chip, cls in CHIP_CLASS.items():
        chip_class[chip] = cls
    land = [b.board.land_hexes[b.hex_side[b.board.land_hexes] == s] for s in range(2)]
    deserts = [h for h in land[WEST] if b.board.hex_terrain[h] == DESERT]
    return BerlinArrays(
        b.hex_side, b.node_side, b.section_edges, b.section_nodes, b.water_neighbours, b.wall_costs,
        b.hotel_hexes, b.hotel_costs, chip_class, np.array(THRESHOLDS, i64), b.shuffled_hexes, b.harbour_nodes,
        b.harbour_rate, b.harbour_resource, b.board.node_land.copy(), b.board.edge_land.copy(), b.ship_sea,
        land[WEST].astype(i64), land[1 - WEST].astype(i64), int(deserts[0]) if deserts else int(b.board.land_hexes[0]),
        np.nonzero(b.ship_sea)[0].astype(i64))


def check_berlin(b: Berlin) -> None:
    """What the kernel relies on beyond berlin.py's checks: a desert in West Berlin for the robber."""
    from ...core.errors import SimlibError

    if not any(b.board.hex_terrain[h] == DESERT and b.hex_side[h] == WEST for h in b.board.land_hexes):
        raise SimlibError(f"map {b.board.name}: the robber starts on a desert in West Berlin, and there is none")


@block()
def play_board(bd, ba):
    """A Catan board whose land, sea and harbour flags this kernel call owns (the wall and the shuffled
    harbours change them per play); the topology arrays are shared."""
    return BoardArrays(
        map_terrain=bd.map_terrain, map_token=bd.map_token, land_hexes=bd.land_hexes, random_hexes=bd.random_hexes,
        terrain_bag=bd.terrain_bag, spiral_hexes=bd.spiral_hexes, spiral_tokens=bd.spiral_tokens,
        hex_nodes=bd.hex_nodes, node_hexes=bd.node_hexes, node_nodes=bd.node_nodes, node_edges=bd.node_edges,
        node_land=ba.node_land.copy(), edge_nodes=bd.edge_nodes, edge_land=ba.edge_land.copy(),
        edge_sea=ba.ship_sea.copy(), harbour_rate=bd.harbour_rate.copy(), harbour_resource=bd.harbour_resource.copy())


@block(_nrt=True)  # said, not inherited from the search's decider: a slice's copy may allocate
def copy_board_flags(src, dst):
    """dst's land, sea and harbour flags := src's (a search's rollout plays on a board of its own: a wall piece it
    buys opens a section on that board only)."""
    dst.node_land[:] = src.node_land
    dst.edge_land[:] = src.edge_land
    dst.edge_sea[:] = src.edge_sea
    dst.harbour_rate[:] = src.harbour_rate
    dst.harbour_resource[:] = src.harbour_resource


@block()
def side_board(bd, land_hexes):
    """The same board with only these land hexes offered to the robber (the closed wall's other side)."""
    return BoardArrays(
        map_terrain=bd.map_terrain, map_token=bd.map_token, land_hexes=land_hexes, random_hexes=bd.random_hexes,
        terrain_bag=bd.terrain_bag, spiral_hexes=bd.spiral_hexes, spiral_tokens=bd.spiral_tokens,
        hex_nodes=bd.hex_nodes, node_hexes=bd.node_hexes, node_nodes=bd.node_nodes, node_edges=bd.node_edges,
        node_land=bd.node_land, edge_nodes=bd.edge_nodes, edge_land=bd.edge_land, edge_sea=bd.edge_sea,
        harbour_rate=bd.harbour_rate, harbour_resource=bd.harbour_resource)


@block(python_entry=True, _nrt=True)  # said, not inherited from the search's decider: a slice's copy may allocate
def copy_wall(src, dst):
    """dst := src, field by field (a search's rollout plays on a copy)."""
    dst.level[:] = src.level
    dst.chip[:] = src.chip
    dst.passed[:] = src.passed
    dst.opened_turn[:] = src.opened_turn
    dst.pieces[:] = src.pieces
    dst.chips[:] = src.chips
    dst.holder[:] = src.holder
    dst.offered[:] = src.offered
    dst.released[:] = src.released
    dst.hotel_owner[:] = src.hotel_owner
    dst.hotel_chip[:] = src.hotel_chip
    dst.hotel_old[:] = src.hotel_old
    dst.hotel_turn[:] = src.hotel_turn
    dst.hotel_paid[:] = src.hotel_paid
    dst.hotel_yield[:] = src.hotel_yield
    dst.hotel_payback[:] = src.hotel_payback
    dst.hotel_rolls[:] = src.hotel_rolls
    dst.hotel_robbed[:] = src.hotel_robbed
    dst.hotel_short[:] = src.hotel_short
    dst.field_got[:] = src.field_got
    dst.field_old[:] = src.field_old
    dst.bought_piece[:] = src.bought_piece
    dst.bought_hotel[:] = src.bought_hotel
    dst.tiergarten[:] = src.tiergarten
    dst.supply[:] = src.supply
    dst.active[:] = src.active
    dst.n_pieces[:] = src.n_pieces
    dst.piece_row[:] = src.piece_row
    dst.n_parades[:] = src.n_parades
    dst.parade_row[:] = src.parade_row


@block()
def new_wall(n_players):
    P, S, i64 = n_players, N_SECTIONS, np.int64
    return Wall(
        level=np.zeros(S + 1, i64), chip=np.zeros(S, i64), passed=np.zeros(S, i64), opened_turn=np.zeros(1, i64),
        pieces=np.zeros(P, i64), chips=np.zeros(P, i64), holder=np.zeros(2, i64), offered=np.zeros(N_HOTELS, i64),
        released=np.zeros(N_HOTELS, i64), hotel_owner=np.zeros(N_HOTELS, i64), hotel_chip=np.zeros(N_HOTELS, i64),
        hotel_old=np.zeros(N_HOTELS, i64), hotel_turn=np.zeros(N_HOTELS, i64), hotel_paid=np.zeros(N_HOTELS, i64),
        hotel_yield=np.zeros(N_HOTELS, i64), hotel_payback=np.zeros(N_HOTELS, i64),
        hotel_rolls=np.zeros(N_HOTELS, i64), hotel_robbed=np.zeros(N_HOTELS, i64),
        hotel_short=np.zeros(N_HOTELS, i64), field_got=np.zeros((N_HOTELS, 2), i64),
        field_old=np.zeros((N_HOTELS, 2), i64), bought_piece=np.zeros(P, i64), bought_hotel=np.zeros(1, i64),
        tiergarten=np.zeros(1, i64), supply=np.zeros(1, i64), active=np.zeros(P, np.bool_),
        n_pieces=np.zeros(1, i64), piece_row=np.zeros((MAX_PIECES, 5), i64), n_parades=np.zeros(1, i64),
        parade_row=np.zeros((MAX_CHIPS, 5), i64))


@block()
def reset_wall(wl, vp_chips):
    """A new game: every section standing and closed, nothing released, bought or won."""
    wl.level[:-1] = UPPER
    wl.level[-1] = LOWER  # the water section: one layer, never bought
    wl.chip[:] = 0
    wl.passed[:] = 0
    wl.opened_turn[0] = -1
    wl.pieces[:] = 0
    wl.chips[:] = 0
    wl.holder[:] = -1
    wl.offered[:] = 0
    wl.released[:] = 0
    wl.hotel_owner[:] = -1
    wl.hotel_chip[:] = 0
    wl.hotel_old[:] = 0
    wl.hotel_turn[:] = -1
    wl.hotel_paid[:] = 0
    wl.hotel_yield[:] = 0
    wl.hotel_payback[:] = -1
    wl.hotel_rolls[:] = 0
    wl.hotel_robbed[:] = 0
    wl.hotel_short[:] = 0
    wl.field_got[:] = 0
    wl.field_old[:] = 0
    wl.tiergarten[0] = 0
    wl.supply[0] = vp_chips
    wl.n_pieces[0] = 0
    wl.piece_row[:] = 0
    wl.n_parades[0] = 0
    wl.parade_row[:] = 0


@nb.njit(cache=True, inline="always")
def piece_cost_row(wl, s):
    """The row of BerlinArrays.wall_costs for section s's top piece."""
    return 2 * s + wl.level[s] - 1


@nb.njit(cache=True, inline="always")
def hotel_cost_row(ba, h, chip):
    """The row of BerlinArrays.hotel_costs for hotel h bought with this chip."""
    return 3 * h + ba.chip_class[chip]


@nb.njit(cache=True, inline="always")
def pips(token):
    """Ways two dice make the token, of 36."""
    return 6 - abs(7 - token)
