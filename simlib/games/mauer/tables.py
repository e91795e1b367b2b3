"""Die Mauer's lake tables: schemas (the documented contract) and kernel arrays → Arrow
(the columns every game shares come from simlib/core/tables.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core import tables as shared
from ...core.feel import Feel, Standing, feel_columns, feel_fields, standings_columns, standings_fields
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

if TYPE_CHECKING:
    from .kernel import MauerOutputs

_PIECE = pa.dictionary(pa.int8(), pa.string())
_KEYS = [
    described("rules_version", pa.int16(), "Die Mauer rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play (one Spielrunde) in its run, from 0."),
]
_MATCH = [
    described("match_id", pa.int64(), "Match within the run (play_index // rounds)."),
    described("round", pa.int16(), "Spielrunde within the match, from 0."),
]

# Each seat's penalty points as the table sees them after each Baurunde: its kit's less the pieces it built (gifts
# are secret), and after the last the points scored (docs/games/mauer.md, "How a play feels").
STANDING = Standing("penalty points", "Baurunde", sign=-1, steps="Baurunden")

GAMES = pa.schema(_KEYS + _MATCH + [
    described("players", pa.int8(), "Number of players."),
    described("first_player", pa.int8(), "Table position of this Spielrunde's first Bauherr (seat 0)."),
    described("turns", pa.int32(), "Number of Baurunden played (a Baurunde is Die Mauer's turn)."),
    described("end_reason", pa.dictionary(pa.int8(), pa.string()),
              "emptied (a supply became empty), deadlock (nothing can ever be built) or baurunde_limit."),
    described("completed", pa.bool_(), "The play ended by the rules' own end (emptied), not a deadlock or limit."),
    described("winners", pa.list_(pa.int8()), "Seats with the lowest penalty (all of them on a tie)."),
    # How the Spielrunde felt (docs/statistics.md), in the standing's words
    *feel_fields(STANDING),
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

STANDINGS = pa.schema(_KEYS + standings_fields(STANDING))

SCHEMAS = {"games": GAMES, "seats": SEATS, "events": EVENTS, "standings": STANDINGS}


def _match(play: np.ndarray, rounds: int) -> dict:
    return {"match_id": play // rounds, "round": (play % rounds).astype(np.int16)}


def games_table(rules_version, first_play, rounds, out: MauerOutputs) -> pa.Table:
    n, players = out.penalties.shape
    play = shared.play_indices(first_play, n)
    return shared.table(GAMES, {
        **shared.keys(rules_version, play), **_match(play, rounds), "players": shared.constant(players, n),
        "first_player": out.first_player, "turns": out.baurunden,
        "end_reason": shared.Text(out.end_reason, END_REASON_NAMES), "completed": out.end_reason == EMPTIED,
        "winners": shared.winners(shared.top_scorers(-out.penalties)),
        **feel_columns(Feel._make(out.feel)),
    })


def seats_table(rules_version, first_play, rounds, out: MauerOutputs, policies) -> pa.Table:
    n, players = out.penalties.shape
    play = shared.play_indices(first_play, n, players)
    player = shared.table_positions(out.first_player, players).ravel()
    pen = out.penalties.ravel()
    left = out.left.reshape(n * players, len(PIECES))
    return shared.table(SEATS, {
        **shared.keys(rules_version, play), **_match(play, rounds), "seat": shared.seat_numbers(n, players),
        "player": player, **shared.policy_columns(policies, player), "penalty": pen, "score": -pen,
        **shared.rank_and_winner(-out.penalties), **{f"left_{p}": left[:, t] for t, p in enumerate(PIECES)},
    })


def events_table(rules_version, ev: np.ndarray, players: int) -> pa.Table:
    e = ev.shape[0]
    builder = ev[:, EV_BUILDER]
    # Builds in placement order: the builder, then the seats to his left.
    order = (builder[:, None] + np.arange(players)) % players
    built = np.take_along_axis(ev[:, EV_BUILT:EV_BUILT + players], order, axis=1)
    ends = np.take_along_axis(ev[:, EV_END:EV_END + players], order, axis=1)
    mask = built >= 0
    builds = {"seat": order[mask], "piece": shared.Text(built[mask], PIECES), "end": shared.Text(ends[mask], END_NAMES)}
    plans = shared.Text(ev[:, EV_PLAN:EV_PLAN + players].ravel(), PLAN_NAMES)
    return shared.table(EVENTS, {
        **shared.keys(rules_version, ev[:, EV_PLAY].astype(np.int64)), "baurunde": ev[:, EV_BR],
        "builder_seat": builder, "wall_length": ev[:, EV_LEN], "wall_left": shared.Text(ev[:, EV_LEFT], PIECES),
        "wall_right": shared.Text(ev[:, EV_RIGHT], PIECES), "plans": shared.Lists(plans, np.full(e, players)),
        "outcome": shared.Text(ev[:, EV_CASE], CASE_NAMES), "builds": shared.Lists(builds, mask.sum(axis=1)),
        "gift_from": np.ma.masked_less(ev[:, EV_GIFT_FROM], 0), "gift_piece": shared.Text(ev[:, EV_GIFT_PIECE], PIECES),
    })


def standings_table(rules_version, first_play, baurunden: np.ndarray, rows: np.ndarray) -> pa.Table:
    """The standings table (a run with --standings): each seat's penalty points as the table sees them after each
    Baurunde, from the kernel's kept rows (core/tables.Recorded)."""
    columns = standings_columns(STANDING, first_play, baurunden, rows)
    return shared.table(STANDINGS, {**columns, **shared.keys(rules_version, columns["play_index"])})
