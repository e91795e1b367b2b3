"""Catan's lake tables: schemas (the documented contract) and kernel arrays → Arrow
(the columns every game shares come from simlib/core/tables.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core import tables as shared
from ...core.feel import Feel, Standing, feel_columns, feel_fields, standings_columns, standings_fields
from ...core.lake import described
from . import constants as C
from .board import TERRAINS
from .constants import DEV_CARDS, END_REASONS, EVENT_ACTIONS, RESOURCES, WON

if TYPE_CHECKING:
    from .scoring import CatanOutputs

_TEXT = pa.dictionary(pa.int8(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Catan rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play (one game) in its run, from 0."),
]

# Each seat's victory points as the table sees them after each turn: victory-point cards stay hidden in the hand,
# so they count only in the last turn's row (the final points).
STANDING = Standing("victory points")

GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("turns", pa.int32(), "Turns played (one player's roll and actions is a turn)."),
    described("rounds", pa.int32(), "Rounds begun (turns / players, rounded up)."),
    described("end_reason", _TEXT, "won (a player reached the victory points on his turn) or turn_limit."),
    described("completed", pa.bool_(), "The game was won, not stopped by the turn limit."),
    described("winners", pa.list_(pa.int8()), "The winning seat (empty on the turn limit)."),
    described("final_points", pa.list_(pa.int8()), "Every seat's points at the end, by seat."),
    # How the play felt (docs/statistics.md), in the standing's words
    *feel_fields(STANDING),
])

SEATS = pa.schema(_KEYS + [
    described("seat", pa.int8(), "0 = the first player of the set-up and of the first turn."),
    described("policy", _TEXT, "Policy name of the seat."),
    described("policy_spec", _TEXT, "Policy with its parameters, `name:param=value`."),
    described("points", pa.int8(), "Victory points at the end (buildings, cards, longest route, largest army)."),
    described("score", pa.int8(), "Higher is better: the points."),
    described("rank", pa.int8(), "1 + number of seats with more points (ties share a rank)."),
    described("winner", pa.bool_(), "The seat won the game."),
    described("settlements", pa.int8(), "Settlements on the board at the end."),
    described("cities", pa.int8(), "Cities on the board at the end."),
    described("roads", pa.int8(), "Roads on the board at the end."),
    described("ships", pa.int8(), "Ships on the board at the end."),
    described("dev_bought", pa.int8(), "Development cards bought."),
    described("dev_played", pa.int8(), "Development cards played (victory-point cards are never played)."),
    described("vp_cards", pa.int8(), "Victory-point cards held (they count at once)."),
    described("knights", pa.int8(), "Knights played."),
    described("longest_route", pa.int8(), "Length of the seat's longest trade route (roads and ships) at the end."),
    described("longest_route_card", pa.bool_(), "The seat holds the longest-route card at the end."),
    described("largest_army_card", pa.bool_(), "The seat holds the largest-army card at the end."),
] + [described(f"received_{r}", pa.int16(), f"{r.capitalize()} received (set-up and production).")
     for r in RESOURCES]
  + [described(f"robbed_{r}", pa.int16(), f"{r.capitalize()} lost to the robber.") for r in RESOURCES]
  + [described(f"discarded_{r}", pa.int16(), f"{r.capitalize()} discarded on a 7.") for r in RESOURCES])

PRODUCTION = pa.schema(_KEYS + [
    described("seat", pa.int8(), "The receiving seat."),
    described("building", _TEXT, "settlement or city: the building that produced."),
    described("resource", _TEXT, "The resource."),
    described("amount", pa.int16(), "Cards received from rolls (not the set-up) over the game."),
    described("expected", pa.float64(), "Cards the dice promised over the game's rolls (a 7 included): for each "
              "roll, pips(token)/36 times the building's cards (1 settlement, 2 city) per producing hex beside it, "
              "the robber and the bank ignored; amount - expected is what robber and bank shortage took. Rows "
              "with amount and expected both 0 are left out."),
])

EVENTS = pa.schema(_KEYS + [
    described("seq", pa.int32(), "Order of the event within its play, from 0."),
    described("turn", pa.int32(), "Turn of the event, from 0 (null: the board and the set-up).", nullable=True),
    described("seat", pa.int8(), "Seat that acted; for discard and produce the seat discarding or receiving "
              "(null: hex).", nullable=True),
    described("action", _TEXT,
              "hex (the board: one per land hex), setup_settlement, setup_road, roll, discard (one card), robber, "
              "steal, knight, road, ship, settlement, city, buy_dev, road_building, year_of_plenty, monopoly, "
              "trade (with the bank or a harbour), move_ship, end_turn, produce (after a roll: what one seat "
              "received of one resource)."),
    described("hex", pa.int16(), "hex: the hex; robber: where the robber went (board hex index).", nullable=True),
    described("terrain", _TEXT, "hex: its terrain.", nullable=True),
    described("token", pa.int8(), "hex: its number token (null on the desert).", nullable=True),
    described("node", pa.int16(), "setup_settlement, settlement, city: the intersection.", nullable=True),
    described("edge", pa.int16(), "setup_road, road, ship: the path; move_ship: the path left.", nullable=True),
    described("edge_to", pa.int16(), "move_ship: the path the ship moved to.", nullable=True),
    described("dice", pa.int8(), "roll: the sum of the two dice.", nullable=True),
    described("die_1", pa.int8(), "roll: the first die (1-6); a double when it equals die_2.", nullable=True),
    described("die_2", pa.int8(), "roll: the second die (1-6).", nullable=True),
    described("resource", _TEXT, "discard, steal, produce: the card; year_of_plenty: the first card; monopoly: "
              "the resource named; trade: the resource given.", nullable=True),
    described("resource_2", _TEXT, "year_of_plenty: the second card; trade: the resource received.", nullable=True),
    described("amount", pa.int16(), "monopoly: cards taken; trade: cards given for one (4, 3 or 2); produce: "
              "cards received.", nullable=True),
    described("victim", pa.int8(), "steal: the seat robbed.", nullable=True),
    described("card", _TEXT, "buy_dev: the development card drawn.", nullable=True),
    described("free", pa.bool_(), "road, ship: placed free by a road-building card.", nullable=True),
    described("before_roll", pa.bool_(), "knight: played before the roll.", nullable=True),
])

# A run with --standings: the standing above, a row per play, turn and seat (the victory-point cards in the last
# turn's row only).
STANDINGS = pa.schema(_KEYS + standings_fields(STANDING))

SCHEMAS = {"games": GAMES, "seats": SEATS, "production": PRODUCTION, "events": EVENTS, "standings": STANDINGS}


def games_table(rules_version, first_play, out: CatanOutputs) -> pa.Table:
    n, players = out.points.shape
    return shared.table(GAMES, {
        **shared.keys(rules_version, shared.play_indices(first_play, n)), "players": shared.constant(players, n),
        "turns": out.turns, "rounds": (out.turns + players - 1) // players,
        "end_reason": shared.Text(out.end_reason, END_REASONS), "completed": out.end_reason == WON,
        "winners": shared.winners(_is_winner(out)),
        "final_points": shared.Lists(out.points.ravel(), np.full(n, players)),
        **feel_columns(Feel._make(out.feel)),
    })


def _is_winner(out: CatanOutputs) -> np.ndarray:
    """[plays, seats]: the seat the kernel named the winner (none on the turn limit)."""
    return out.winner[:, None] == np.arange(out.points.shape[1])


def seats_table(rules_version, first_play, out: CatanOutputs, policies) -> pa.Table:
    n, players = out.points.shape
    seat = shared.seat_numbers(n, players)

    def per_seat(values, names):  # values [plays, seats, len(names)]: one column each
        return {name: values[:, :, k].ravel() for k, name in enumerate(names)}

    return shared.table(SEATS, {
        **shared.keys(rules_version, shared.play_indices(first_play, n, players)), "seat": seat,
        **shared.policy_columns(policies, seat), "points": out.points.ravel(), "score": out.points.ravel(),
        **shared.rank_and_winner(out.points, _is_winner(out)),
        **per_seat(out.pieces, ["settlements", "cities", "roads", "ships"]),
        **per_seat(out.dev_cards, ["dev_bought", "dev_played"]), "vp_cards": out.vp_cards.ravel(),
        "knights": out.knights.ravel(), "longest_route": out.longest_route.ravel(),
        **per_seat(out.holders, ["longest_route_card", "largest_army_card"]),
        **per_seat(out.received, [f"received_{r}" for r in RESOURCES]),
        **per_seat(out.lost[:, :, 0], [f"robbed_{r}" for r in RESOURCES]),
        **per_seat(out.lost[:, :, 1], [f"discarded_{r}" for r in RESOURCES]),
    })


def production_table(rules_version, first_play, out: CatanOutputs) -> pa.Table:
    """One row per play, seat, building kind and resource that received cards or was promised some."""
    play, seat, building, resource = np.nonzero((out.production > 0) | (out.expected > 0))
    return shared.table(PRODUCTION, {
        **shared.keys(rules_version, (play + first_play).astype(np.int64)), "seat": seat,
        "building": shared.Text(building, ["settlement", "city"]), "resource": shared.Text(resource, RESOURCES),
        "amount": out.production[play, seat, building, resource],
        "expected": out.expected[play, seat, building, resource],
    })


def events_table(rules_version, first_play, counts, ev) -> pa.Table:
    """One row per event; each action's arguments go to the named columns it uses, the rest are null."""
    n = ev.shape[0]
    action, a, b, c = ev[:, 2], ev[:, 3], ev[:, 4], ev[:, 5]
    starts = np.repeat(np.cumsum(counts) - counts, counts)

    def used(values, *actions):  # null unless the row's action is one of `actions`
        return np.ma.masked_array(values, ~np.isin(action, actions))

    def text(values, names, *actions):
        return shared.Text(np.where(np.isin(action, actions), values, -1), names)

    with_hex = (C.EV_HEX, C.EV_ROBBER)
    with_node = (C.EV_SETUP_SETTLEMENT, C.EV_SETTLEMENT, C.EV_CITY)
    with_edge = (C.EV_SETUP_ROAD, C.EV_ROAD, C.EV_SHIP, C.EV_MOVE_SHIP)
    with_resource = (C.EV_DISCARD, C.EV_STEAL, C.EV_YEAR_OF_PLENTY, C.EV_MONOPOLY, C.EV_TRADE, C.EV_PRODUCE)
    return shared.table(EVENTS, {
        **shared.keys(rules_version, shared.play_indices(first_play, len(counts), counts)),
        "seq": np.arange(n) - starts,
        "turn": np.ma.masked_less(ev[:, 0], 0), "seat": np.ma.masked_less(ev[:, 1], 0),
        "action": shared.Text(action, EVENT_ACTIONS), "hex": used(a, *with_hex),
        "terrain": text(b, TERRAINS, C.EV_HEX),
        "token": np.ma.masked_array(c, (action != C.EV_HEX) | (c == 0)), "node": used(a, *with_node),
        "edge": used(a, *with_edge), "edge_to": used(b, C.EV_MOVE_SHIP), "dice": used(a, C.EV_ROLL),
        "die_1": used(b, C.EV_ROLL), "die_2": used(c, C.EV_ROLL),
        "resource": text(a, RESOURCES, *with_resource),
        "resource_2": text(b, RESOURCES, C.EV_YEAR_OF_PLENTY, C.EV_TRADE),
        "amount": used(np.where(action == C.EV_TRADE, c, b), C.EV_MONOPOLY, C.EV_TRADE, C.EV_PRODUCE),
        "victim": used(b, C.EV_STEAL), "card": text(a, DEV_CARDS, C.EV_BUY_DEV),
        "free": used(b.astype(bool), C.EV_ROAD, C.EV_SHIP), "before_roll": used(a == 0, C.EV_KNIGHT),
    })


def standings_table(rules_version, first_play, turns: np.ndarray, rows: np.ndarray) -> pa.Table:
    """The standings table (a run with --standings): each seat's victory points in view after each turn, from the
    kernel's kept rows (core/tables.Recorded)."""
    columns = standings_columns(STANDING, first_play, turns, rows)
    return shared.table(STANDINGS, {**columns, **shared.keys(rules_version, columns["play_index"])})
