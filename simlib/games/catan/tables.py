"""Catan's lake tables: schemas (the documented contract) and kernel arrays → Arrow."""

import numpy as np
import pyarrow as pa

from ...core.lake import described
from . import constants as C
from .board import TERRAINS
from .constants import DEV_CARDS, END_REASONS, EVENT_ACTIONS, RESOURCES

_TEXT = pa.dictionary(pa.int8(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Catan rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play (one game) in its run, from 0."),
]

GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("turns", pa.int32(), "Turns played (one player's roll and actions is a turn)."),
    described("rounds", pa.int32(), "Rounds begun (turns / players, rounded up)."),
    described("end_reason", _TEXT, "won (a player reached the victory points on his turn) or turn_limit."),
    described("completed", pa.bool_(), "The game was won, not stopped by the turn limit."),
    described("winners", pa.list_(pa.int8()), "The winning seat (empty on the turn limit)."),
    described("final_points", pa.list_(pa.int8()), "Every seat's points at the end, by seat."),
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
    described("amount", pa.int16(), "Cards received from rolls (not the set-up) over the game; rows with 0 left out."),
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

SCHEMAS = {"games": GAMES, "seats": SEATS, "production": PRODUCTION, "events": EVENTS}


def _const(value, n, type_):
    return pa.array(np.full(n, value), type_)


def _text(codes, names):
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes, np.int8)), pa.array(names))


def _lists(values: np.ndarray, counts: np.ndarray) -> pa.ListArray:
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values.astype(np.int8)))


def games_table(rules_version, first_play, out, players) -> pa.Table:
    turns, reason, winner, points = out[:4]
    n = turns.shape[0]
    won = winner >= 0
    cols = [
        _const(rules_version, n, pa.int16()), pa.array(np.arange(first_play, first_play + n, dtype=np.int64)),
        _const(players, n, pa.int8()), pa.array(turns), pa.array(((turns + players - 1) // players).astype(np.int32)),
        _text(reason, END_REASONS), pa.array(won), _lists(winner[won], won.astype(np.int64)),
        _lists(points.ravel(), np.full(n, players)),
    ]
    return pa.Table.from_arrays(cols, schema=GAMES)


def seats_table(rules_version, first_play, out, names, specs) -> pa.Table:
    (turns, reason, winner, points, pieces, dev, knights, route, holders, received, lost, production, hands, bank,
     vp, actions, rolls) = out[:17]
    n, players = points.shape
    rows = n * players
    play = np.repeat(np.arange(first_play, first_play + n, dtype=np.int64), players)
    seat = np.tile(np.arange(players, dtype=np.int8), n)
    rank = 1 + (points[:, None, :] > points[:, :, None]).sum(axis=2)
    is_winner = (winner[:, None] == np.arange(players)[None, :]).ravel()
    name_codes = {x: i for i, x in enumerate(dict.fromkeys(names))}
    spec_codes = {x: i for i, x in enumerate(dict.fromkeys(specs))}
    cols = [
        _const(rules_version, rows, pa.int16()), pa.array(play), pa.array(seat),
        _text(np.tile([name_codes[x] for x in names], n), list(name_codes)),
        _text(np.tile([spec_codes[x] for x in specs], n), list(spec_codes)),
        pa.array(points.ravel()), pa.array(points.ravel()), pa.array(rank.ravel().astype(np.int8)),
        pa.array(is_winner),
    ] + [pa.array(pieces[:, :, k].ravel()) for k in range(4)] + [
        pa.array(dev[:, :, 0].ravel()), pa.array(dev[:, :, 1].ravel()), pa.array(vp.ravel()),
        pa.array(knights.ravel()), pa.array(route.ravel()), pa.array(holders[:, :, 0].ravel()),
        pa.array(holders[:, :, 1].ravel()),
    ] + [pa.array(received[:, :, r].ravel()) for r in range(5)] \
      + [pa.array(lost[:, :, 0, r].ravel()) for r in range(5)] \
      + [pa.array(lost[:, :, 1, r].ravel()) for r in range(5)]
    return pa.Table.from_arrays(cols, schema=SEATS)


def production_table(rules_version, first_play, production) -> pa.Table:
    play, seat, building, resource = np.nonzero(production)
    amount = production[play, seat, building, resource]
    rows = len(play)
    cols = [
        _const(rules_version, rows, pa.int16()), pa.array((play + first_play).astype(np.int64)),
        pa.array(seat.astype(np.int8)), _text(building, ["settlement", "city"]), _text(resource, list(RESOURCES)),
        pa.array(amount.astype(np.int16)),
    ]
    return pa.Table.from_arrays(cols, schema=PRODUCTION)


def events_table(rules_version, first_play, counts, ev) -> pa.Table:
    """One row per event; each action's arguments go to the named columns it uses, the rest are null."""
    n = ev.shape[0]
    action, a, b, c = ev[:, 2], ev[:, 3], ev[:, 4], ev[:, 5]
    play = np.repeat(np.arange(first_play, first_play + len(counts), dtype=np.int64), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)

    def used(values, type_, *actions):
        mask = np.isin(action, actions)
        return pa.array(values.astype(type_.to_pandas_dtype()), type_, mask=~mask)

    def text(values, names, *actions):
        mask = np.isin(action, actions)
        return pa.DictionaryArray.from_arrays(pa.array(values.astype(np.int8), mask=~mask), pa.array(names))

    with_hex = (C.EV_HEX, C.EV_ROBBER)
    with_node = (C.EV_SETUP_SETTLEMENT, C.EV_SETTLEMENT, C.EV_CITY)
    with_edge = (C.EV_SETUP_ROAD, C.EV_ROAD, C.EV_SHIP, C.EV_MOVE_SHIP)
    with_resource = (C.EV_DISCARD, C.EV_STEAL, C.EV_YEAR_OF_PLENTY, C.EV_MONOPOLY, C.EV_TRADE, C.EV_PRODUCE)
    cols = [
        _const(rules_version, n, pa.int16()), pa.array(play), pa.array((np.arange(n) - starts).astype(np.int32)),
        pa.array(ev[:, 0], pa.int32(), mask=ev[:, 0] < 0), pa.array(ev[:, 1].astype(np.int8), mask=ev[:, 1] < 0),
        _text(action, list(EVENT_ACTIONS)),
        used(a, pa.int16(), *with_hex), text(b, list(TERRAINS), C.EV_HEX),
        pa.array(c.astype(np.int8), mask=(action != C.EV_HEX) | (c == 0)),
        used(a, pa.int16(), *with_node), used(a, pa.int16(), *with_edge), used(b, pa.int16(), C.EV_MOVE_SHIP),
        used(a, pa.int8(), C.EV_ROLL), text(a, list(RESOURCES), *with_resource),
        text(b, list(RESOURCES), C.EV_YEAR_OF_PLENTY, C.EV_TRADE),
        used(np.where(action == C.EV_TRADE, c, b), pa.int16(), C.EV_MONOPOLY, C.EV_TRADE, C.EV_PRODUCE),
        used(b, pa.int8(), C.EV_STEAL), text(a, list(DEV_CARDS), C.EV_BUY_DEV),
        used(b.astype(bool), pa.bool_(), C.EV_ROAD, C.EV_SHIP), used(a == 0, pa.bool_(), C.EV_KNIGHT),
    ]
    return pa.Table.from_arrays(cols, schema=EVENTS)
