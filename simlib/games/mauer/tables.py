"""Die Mauer's lake tables: schemas (the documented contract) and kernel arrays → Arrow."""

import numpy as np
import pyarrow as pa

from ...core.lake import described
from .constants import (
    CASE_NAMES,
    EMPTIED,
    END_NAMES,
    END_REASON_NAMES,
    EV_BR,
    EV_BUILDER,
    EV_BUILT,
    EV_CASE,
    EV_END,
    EV_GIFT_FROM,
    EV_GIFT_PIECE,
    EV_LEFT,
    EV_LEN,
    EV_PLAN,
    EV_PLAY,
    EV_RIGHT,
    PIECES,
    PLAN_NAMES,
)

_PIECE = pa.dictionary(pa.int8(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Die Mauer rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play (one Spielrunde) in its run, from 0."),
]
_MATCH = [
    described("match_id", pa.int64(), "Match within the run (play_index // rounds)."),
    described("round", pa.int16(), "Spielrunde within the match, from 0."),
]

GAMES = pa.schema(_KEYS + _MATCH + [
    described("players", pa.int8(), "Number of players."),
    described("first_player", pa.int8(), "Table position of this Spielrunde's first Bauherr (seat 0)."),
    described("turns", pa.int32(), "Number of Baurunden played (a Baurunde is Die Mauer's turn)."),
    described("end_reason", pa.dictionary(pa.int8(), pa.string()),
              "emptied (a supply became empty), deadlock (nothing can ever be built) or baurunde_limit."),
    described("completed", pa.bool_(), "The play ended by the rules' own end (emptied), not a deadlock or limit."),
    described("winners", pa.list_(pa.int8()), "Seats with the lowest penalty (all of them on a tie)."),
])

SEATS = pa.schema(_KEYS + _MATCH + [
    described("seat", pa.int8(), "0 = the Spielrunde's first Bauherr, counting to his left."),
    described("player", pa.int8(),
              "Table position in the match (0 = the match's first player); sum over a match by this."),
    described("policy", pa.dictionary(pa.int8(), pa.string()), "Policy name of the seat."),
    described("policy_spec", pa.dictionary(pa.int8(), pa.string()), "Policy with its parameters, `name:param=value`."),
    described("penalty", pa.int16(), "Minuspunkte: the penalties of the pieces still held at the end."),
    described("score", pa.int16(), "Higher is better: minus the penalty."),
    described("rank", pa.int8(), "1 + number of seats with a lower penalty (ties share a rank)."),
    described("winner", pa.bool_(), "The seat has the lowest penalty (shared wins count for each)."),
] + [described(f"left_{p}", pa.int8(), f"Pieces of type {p} still held at the end.") for p in PIECES])

_BUILD = pa.struct([("seat", pa.int8()), ("piece", _PIECE), ("end", pa.dictionary(pa.int8(), pa.string()))])
EVENTS = pa.schema(_KEYS + [
    described("baurunde", pa.int32(), "Baurunde within the play, from 0."),
    described("builder_seat", pa.int8(), "Seat of the Bauherr (baurunde mod players)."),
    described("wall_length", pa.int8(), "Pieces in the wall before the Baurunde."),
    described("wall_left", _PIECE, "Left end piece before the Baurunde (null: empty wall).", nullable=True),
    described("wall_right", _PIECE, "Right end piece before the Baurunde (null: empty wall).", nullable=True),
    described("plans", pa.list_(_PIECE), "Every seat's plan (a piece or `hollow`), indexed by seat."),
    described("outcome", pa.dictionary(pa.int8(), pa.string()),
              "builder_builds, competitors_build, builder_outguessed, illegal_plan, hollow_1, hollow_2, hollow_3."),
    described("builds", pa.list_(_BUILD),
              "Pieces built in placement order (builder first, then seats to his left): "
              "seat, piece, end (start/left/right)."),
    described("gift_from", pa.int8(), "Hollow-hand case 2: the seat that gave the builder a piece.", nullable=True),
    described("gift_piece", _PIECE, "Hollow-hand case 2: the piece given.", nullable=True),
])

SCHEMAS = {"games": GAMES, "seats": SEATS, "events": EVENTS}


def _dict(codes: np.ndarray, names) -> pa.DictionaryArray:
    codes = np.asarray(codes, np.int8)
    mask = codes < 0
    return pa.DictionaryArray.from_arrays(pa.array(codes, mask=mask if mask.any() else None), pa.array(names))


def _const(value: int, n: int, type_) -> pa.Array:
    return pa.array(np.full(n, value), type_)


def _ranks(penalties: np.ndarray) -> np.ndarray:
    return 1 + (penalties[:, None, :] < penalties[:, :, None]).sum(axis=2)


def games_table(rules_version, first_play, rounds, baurunden, end_reason, first_player, penalties) -> pa.Table:
    n, players = penalties.shape
    play = np.arange(first_play, first_play + n, dtype=np.int64)
    is_winner = penalties == penalties.min(axis=1, keepdims=True)
    winner_seats = np.nonzero(is_winner)[1].astype(np.int8)
    offsets = np.concatenate([[0], np.cumsum(is_winner.sum(axis=1))]).astype(np.int32)
    cols = [
        _const(rules_version, n, pa.int16()), pa.array(play), pa.array(play // rounds),
        pa.array((play % rounds).astype(np.int16)), _const(players, n, pa.int8()), pa.array(first_player),
        pa.array(baurunden), _dict(end_reason, END_REASON_NAMES), pa.array(end_reason == EMPTIED),
        pa.ListArray.from_arrays(pa.array(offsets), pa.array(winner_seats)),
    ]
    return pa.Table.from_arrays(cols, schema=GAMES)


def seats_table(rules_version, first_play, rounds, first_player, penalties, left, policy_names,
                policy_specs) -> pa.Table:
    n, players = penalties.shape
    seat = np.tile(np.arange(players, dtype=np.int8), n)
    player = ((first_player.astype(np.int64)[:, None] + np.arange(players)) % players).ravel()
    play = np.repeat(np.arange(first_play, first_play + n, dtype=np.int64), players)
    pen = penalties.ravel()
    is_winner = (penalties == penalties.min(axis=1, keepdims=True)).ravel()
    name_codes = {name: i for i, name in enumerate(dict.fromkeys(policy_names))}
    spec_codes = {spec: i for i, spec in enumerate(dict.fromkeys(policy_specs))}
    per_player_name = np.array([name_codes[p] for p in policy_names], np.int8)
    per_player_spec = np.array([spec_codes[p] for p in policy_specs], np.int8)
    flat_left = left.reshape(n * players, len(PIECES))
    cols = [
        _const(rules_version, n * players, pa.int16()), pa.array(play), pa.array(play // rounds),
        pa.array((play % rounds).astype(np.int16)), pa.array(seat), pa.array(player.astype(np.int8)),
        _dict(per_player_name[player], list(name_codes)), _dict(per_player_spec[player], list(spec_codes)),
        pa.array(pen), pa.array(-pen), pa.array(_ranks(penalties).ravel().astype(np.int8)), pa.array(is_winner),
    ] + [pa.array(flat_left[:, t]) for t in range(len(PIECES))]
    return pa.Table.from_arrays(cols, schema=SEATS)


def events_table(rules_version, ev: np.ndarray, players: int) -> pa.Table:
    e = ev.shape[0]
    builder = ev[:, EV_BUILDER]
    plan_offsets = pa.array(np.arange(0, (e + 1) * players, players, dtype=np.int32))
    plans = pa.ListArray.from_arrays(plan_offsets, _dict(ev[:, EV_PLAN:EV_PLAN + players].ravel(), PLAN_NAMES))
    # Builds in placement order: the builder, then the seats to his left.
    order = (builder[:, None] + np.arange(players)) % players
    built = np.take_along_axis(ev[:, EV_BUILT:EV_BUILT + players], order, axis=1)
    ends = np.take_along_axis(ev[:, EV_END:EV_END + players], order, axis=1)
    mask = built >= 0
    build_struct = pa.StructArray.from_arrays(
        [pa.array(order[mask].astype(np.int8)), _dict(built[mask], PIECES), _dict(ends[mask], END_NAMES)],
        fields=list(_BUILD))
    build_offsets = pa.array(np.concatenate([[0], np.cumsum(mask.sum(axis=1))]).astype(np.int32))
    gift_from = ev[:, EV_GIFT_FROM].astype(np.int8)
    cols = [
        _const(rules_version, e, pa.int16()), pa.array(ev[:, EV_PLAY].astype(np.int64)),
        pa.array(ev[:, EV_BR].astype(np.int32)), pa.array(builder.astype(np.int8)),
        pa.array(ev[:, EV_LEN].astype(np.int8)), _dict(ev[:, EV_LEFT], PIECES), _dict(ev[:, EV_RIGHT], PIECES),
        plans, _dict(ev[:, EV_CASE], CASE_NAMES), pa.ListArray.from_arrays(build_offsets, build_struct),
        pa.array(gift_from, mask=gift_from < 0), _dict(ev[:, EV_GIFT_PIECE], PIECES),
    ]
    return pa.Table.from_arrays(cols, schema=EVENTS)
