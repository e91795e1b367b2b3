"""Catan's lake tables: schemas (the documented contract) and kernel arrays → Arrow."""

import numpy as np
import pyarrow as pa

from ...core.lake import described
from .constants import END_REASONS, RESOURCES

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

SCHEMAS = {"games": GAMES, "seats": SEATS, "production": PRODUCTION}


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
     vp, actions, rolls) = out
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
