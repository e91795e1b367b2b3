"""Burgenland's lake tables: schemas (the documented contract) and kernel arrays → Arrow
(the columns every game shares come from simlib/core/tables.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core import tables as shared
from ...core.feel import Feel, Standing, feel_columns, feel_fields, standings_columns, standings_fields
from ...core.lake import described
from . import constants as C
from .state import SEAT_COLUMNS

if TYPE_CHECKING:
    from .board import Board
    from .components import Components
    from .state import BurgenlandOutputs

_TEXT = pa.dictionary(pa.int16(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Burgenland rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play in its run, from 0."),
]

STANDING = Standing("pieces placed")  # each seat's pieces placed after each turn

GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("start_hands", _TEXT, "staggered (seat k starts with 4 + k colour cards) or equal (4 each); "
                                    "every seat also gets one joker."),
    described("turns", pa.int32(), "Turns played (each one main action: draw or build; the deal not counted)."),
    described("rounds", pa.int32(), "Rounds begun: ceil(turns / players) (the play ends at once, mid-round)."),
    described("end_reason", _TEXT, "last_piece (a seat placed its last piece and won), turn_limit (max_turns) or "
                                   "stalled (10 rounds without a build while no card could be drawn)."),
    described("completed", pa.bool_(), "The play ended by the rules (last_piece)."),
    described("wells_built", pa.int8(), "Wells built in play (pre-placed wells not counted)."),
    described("swaps_used", pa.int16(), "Swaps played (swap tiles and swap bonus tiles)."),
    described("central_built", pa.int16(), "Pieces built in the central castle."),
    described("reshuffles", pa.int16(), "Times the discard pile was shuffled into a new face-down pile."),
    described("stones", pa.list_(_TEXT), "The colour of the border stone on each position 0-7 at set-up."),
    described("winners", pa.list_(pa.int8()), "The seat that placed its last piece (empty if the play did not end "
                                              "by the rules)."),
    # How the play felt (docs/statistics.md), in the standing's words
    *feel_fields(STANDING),
])

SEATS = pa.schema(_KEYS + [
    described("seat", pa.int8(), "0 = the start player, then in turn order."),
    described("policy", _TEXT, "Policy name of the seat."),
    described("policy_spec", _TEXT, "Policy with its parameters, `name:param=value`."),
    described("score", pa.int16(), "Pieces placed. Higher is better; the winner placed all of his."),
    described("rank", pa.int8(), "1 for the winner; the others by pieces left, fewer first (ties share a rank)."),
    described("winner", pa.bool_(), "The seat placed its last piece (no seat wins a play cut by turn_limit or "
                                    "stalled)."),
    described("pieces_left", pa.int8(), "Pieces still in the seat's supply at the end."),
    described("walls_left", pa.int8(), "Walls left."),
    described("houses_left", pa.int8(), "Houses left."),
    described("palases_left", pa.int8(), "Palases left."),
    described("wells_left", pa.int8(), "Wells left."),
    described("turns", pa.int16(), "Turns the seat had."),
    described("draws", pa.int16(), "Turns it drew two colour cards."),
    described("builds", pa.int16(), "Turns it built."),
    described("start_cards", pa.int8(), "Colour cards in its starting hand (plus one joker)."),
    described("cards_drawn", pa.int16(), "Colour cards taken by the draw action."),
    described("cards_rewarded", pa.int16(), "Colour cards taken as coins: coins spots and well rewards."),
    described("jokers_walls", pa.int16(), "Jokers taken for walls (one per wall in the castle)."),
    described("jokers_spots", pa.int16(), "Jokers taken from joker spots."),
    described("jokers_tiles", pa.int16(), "Jokers taken from bonus tiles (Zwei Joker)."),
    described("jokers_exchanged", pa.int16(), "Jokers taken for coins (joker_exchange)."),
    described("jokers_gained", pa.int16(), "Jokers gained in play: walls + spots + tiles + exchanges (the starting "
                                           "joker not counted)."),
    described("jokers_used", pa.int16(), "Jokers paid for buildings."),
    described("coins_paid", pa.int16(), "Coins on the colour cards paid for buildings (prices and master builders)."),
    described("spot_bonuses", pa.int16(), "Square-spot bonuses taken (joker, coins, swap or bonus tile)."),
    described("swaps_taken", pa.int8(), "Swap tiles taken."),
    described("swaps_played", pa.int8(), "Swaps played (swap tiles and swap bonus tiles)."),
    described("tiles_taken", pa.int8(), "Bonus tiles taken."),
    described("tiles_played", pa.int8(), "Bonus tiles used (a Zwei Joker tile is used when taken)."),
    described("wells_built", pa.int8(), "Wells the seat built."),
    described("well_coins", pa.int16(), "The rewards of its wells (5, 4, 3, 3, 2, 2, 1, 1 by order)."),
    described("central_built", pa.int8(), "Pieces it built in the central castle."),
    described("cards_left", pa.int16(), "Colour cards in its hand at the end."),
    described("jokers_left", pa.int16(), "Jokers in its hand at the end."),
])

_CARDS = pa.list_(pa.int8())
EVENTS = pa.schema(_KEYS + [
    described("turn", pa.int32(), "Turn within the play, from 0 (seat = turn mod players); null for the deal.",
              nullable=True),
    described("seat", pa.int8(), "Seat acting."),
    described("action", _TEXT, "deal (the starting hand), draw, build, swap (a free action before the main one) or "
                               "exchange (coins for a joker, a free action)."),
    described("piece", _TEXT, "build: wall, house, palas or well.", nullable=True),
    described("castle", pa.int8(), "build: the castle, 1-11 as on the map (its well card's number), 0 = the central "
                                   "castle.", nullable=True),
    described("spot", pa.int8(), "build: the square spot, 0-2 = a-c as in the map file, 3 and more an extra spot; "
                                 "null for a well or the central castle.", nullable=True),
    described("colours", pa.list_(_TEXT), "build in a small castle: its two colours when built (the stones on its "
                                          "two positions, as listed in the castle's map entry); empty otherwise."),
    described("bonus_tile", _TEXT, "The bonus tile played with a build or a swap (its id in the data file).",
              nullable=True),
    described("master_builder", pa.int8(), "build (palas): the master builder's coins paid (0 if none was due)."),
    described("well_reward", pa.int8(), "build (well): the reward's coins (the k-th of 5, 4, 3, 3, 2, 2, 1, 1)."),
    described("paid_colours", pa.list_(pa.int8()), "Colour of each colour card paid (0-7 as in the map's colours), "
                                                   "in card order (by colour, then coins)."),
    described("paid_coins", _CARDS, "Coins of each colour card paid, matching paid_colours."),
    described("jokers_paid", pa.int8(), "Jokers paid."),
    described("wall_jokers", pa.int8(), "build (wall): jokers taken, one per wall now in the castle (fewer if the "
                                        "pile ran short)."),
    described("spot_bonus", _TEXT, "The square spot's bonus taken: joker, coins, swap or bonus (null: none, e.g. a "
                                   "well, an extra spot, the central castle or the last piece).", nullable=True),
    described("gained_colours", pa.list_(pa.int8()), "Colour of each colour card gained (the deal, a draw, a coins "
                                                     "spot, a well's reward), in the order drawn."),
    described("gained_coins", _CARDS, "Coins of each colour card gained, matching gained_colours."),
    described("jokers_gained", pa.int8(), "Jokers gained other than for walls: the deal's joker, a joker spot, a "
                                          "Zwei Joker tile, an exchange."),
    described("swap_gained", pa.bool_(), "A swap tile was taken (swap spot)."),
    described("tile_gained", _TEXT, "The bonus tile taken (bonus spot).", nullable=True),
    described("swapped", pa.list_(pa.int8()), "swap: the two positions whose stones were exchanged; empty otherwise."),
    described("deck_left", pa.int16(), "Cards in the face-down pile after the action."),
    described("reshuffles", pa.int8(), "Times the discard pile became the face-down pile during the action."),
])

STANDINGS = pa.schema(_KEYS + standings_fields(STANDING))

SCHEMAS = {"games": GAMES, "seats": SEATS, "events": EVENTS, "standings": STANDINGS}


def games_table(rules_version, first_play, out: BurgenlandOutputs, start_hands: str, board: Board) -> pa.Table:
    n, players = out.seat("placed").shape
    winners = out.winner[:, None] == np.arange(players)
    return shared.table(GAMES, {
        **shared.keys(rules_version, shared.play_indices(first_play, n)), "players": shared.constant(players, n),
        "start_hands": shared.constant(start_hands, n), "turns": out.turns, "rounds": -(-out.turns // players),
        "end_reason": shared.Text(out.end_reason, C.END_REASONS), "completed": out.end_reason == C.LAST_PIECE,
        "wells_built": out.wells, "swaps_used": out.swaps, "central_built": out.central,
        "reshuffles": out.reshuffles,
        "stones": shared.Lists(shared.Text(out.stones.ravel(), board.colours), np.full(n, C.N_POSITIONS)),
        "winners": shared.winners(winners),
        **feel_columns(Feel._make(out.feel)),
    })


def seats_table(rules_version, first_play, out: BurgenlandOutputs, policies) -> pa.Table:
    n, players = out.seat("placed").shape
    seat = shared.seat_numbers(n, players)
    flat = {name: out.seat(name).ravel() for name in SEAT_COLUMNS}
    left = sum(flat[f"{p}_left"] for p in ("walls", "houses", "palases", "wells"))
    winner = out.winner[:, None] == np.arange(players)
    # every seat starts with the same pieces, so more placed is fewer left: the rank by pieces left
    return shared.table(SEATS, {
        **shared.keys(rules_version, shared.play_indices(first_play, n, players)), "seat": seat,
        **shared.policy_columns(policies, seat), "score": flat["placed"],
        **shared.rank_and_winner(out.seat("placed"), winner), "pieces_left": left,
        **{name: flat[name] for name in ("walls_left", "houses_left", "palases_left", "wells_left", "turns", "draws",
                                         "builds", "start_cards", "cards_drawn", "cards_rewarded", "jokers_walls",
                                         "jokers_spots", "jokers_tiles", "jokers_exchanged", "jokers_used",
                                         "coins_paid", "spot_bonuses", "swaps_taken", "swaps_played", "tiles_taken",
                                         "tiles_played", "wells_built", "well_coins", "central_built", "cards_left",
                                         "jokers_left")},
        "jokers_gained": flat["jokers_walls"] + flat["jokers_spots"] + flat["jokers_tiles"]
        + flat["jokers_exchanged"],
    })


def _cards(block: np.ndarray) -> tuple[shared.Lists, shared.Lists]:
    """Card-code slots (-1 unused) → (colours, coins) list columns."""
    used = block >= 0
    codes = block[used]
    counts = used.sum(axis=1)
    return (shared.Lists(codes // C.MAX_COINS, counts), shared.Lists(codes % C.MAX_COINS + 1, counts))


def events_table(rules_version, ev: np.ndarray, board: Board, components: Components) -> pa.Table:
    action = ev[:, C.EV_ACTION]
    build = action == C.BUILD
    castle = ev[:, C.EV_CASTLE]
    small = build & (castle >= 0) & (castle < C.CENTRAL)
    piece = np.where(build, ev[:, C.EV_PIECE], -1)
    paid_colours, paid_coins = _cards(ev[:, C.EV_PAID:C.EV_PAID + C.PAID_SLOTS])
    gained_colours, gained_coins = _cards(ev[:, C.EV_GAINED:C.EV_GAINED + C.GAINED_SLOTS])
    colours = ev[:, C.EV_COLOUR_A:C.EV_COLOUR_B + 1]
    tile_names = list(dict.fromkeys(components.bonus_ids))
    tile_code = np.array([tile_names.index(t) for t in components.bonus_ids] + [-1], np.int64)
    swap = action == C.SWAP
    return shared.table(EVENTS, {
        **shared.keys(rules_version, ev[:, C.EV_PLAY].astype(np.int64)),
        "turn": np.ma.masked_array(ev[:, C.EV_TURN], action == C.DEAL), "seat": ev[:, C.EV_SEAT],
        "action": shared.Text(action, C.ACTIONS), "piece": shared.Text(piece, C.PIECES),
        "castle": np.ma.masked_array(np.where(castle == C.CENTRAL, 0, castle + 1), ~build),
        "spot": np.ma.masked_array(ev[:, C.EV_SPOT], ~build | (ev[:, C.EV_SPOT] < 0)),
        "colours": shared.Lists(shared.Text(colours[small].ravel(), board.colours), np.where(small, 2, 0)),
        "bonus_tile": shared.Text(tile_code[ev[:, C.EV_TILE]], tile_names),
        "master_builder": ev[:, C.EV_MASTER], "well_reward": ev[:, C.EV_WELL_REWARD],
        "paid_colours": paid_colours, "paid_coins": paid_coins, "jokers_paid": ev[:, C.EV_JOKERS_PAID],
        "wall_jokers": ev[:, C.EV_WALL_JOKERS], "spot_bonus": shared.Text(ev[:, C.EV_SPOT_BONUS], C.SPOT_KINDS[:4]),
        "gained_colours": gained_colours, "gained_coins": gained_coins, "jokers_gained": ev[:, C.EV_JOKERS_GAINED],
        "swap_gained": ev[:, C.EV_SWAP_GAINED] == 1,
        "tile_gained": shared.Text(tile_code[ev[:, C.EV_TILE_GAINED]], tile_names),
        "swapped": shared.Lists(np.stack([ev[swap, C.EV_POS_A], ev[swap, C.EV_POS_B]], axis=1).ravel(),
                                np.where(swap, 2, 0)),
        "deck_left": ev[:, C.EV_DECK_LEFT], "reshuffles": ev[:, C.EV_RESHUFFLES],
    })


def standings_table(rules_version, first_play, turns: np.ndarray, rows: np.ndarray) -> pa.Table:
    """The standings table (a run with --standings): each seat's pieces placed after each turn, from the kernel's
    kept rows (core/tables.Recorded)."""
    columns = standings_columns(STANDING, first_play, turns, rows)
    return shared.table(STANDINGS, {**columns, **shared.keys(rules_version, columns["play_index"])})
