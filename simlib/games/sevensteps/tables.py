"""7 Steps' lake tables: schemas (the documented contract) and kernel arrays → Arrow
(the columns every game shares come from simlib/core/tables.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ...core import tables as shared
from ...core.feel import Feel, Standing, feel_columns, feel_fields, standings_columns, standings_fields
from ...core.lake import described
from .constants import (
    AID,
    BAG_EMPTY,
    COLOURS,
    END_REASONS,
    EV_AID,
    EV_AID_FIELD,
    EV_AID_TARGET,
    EV_BAG_LEFT,
    EV_BONUS,
    EV_BONUS_POINTS,
    EV_COLLAPSES,
    EV_COLOUR,
    EV_DISC,
    EV_DRAWN,
    EV_FIELD,
    EV_HAND,
    EV_KIND,
    EV_LEVEL,
    EV_PLACED,
    EV_PLAY,
    EV_SCORE,
    EV_SEAT,
    EV_TAKEN,
    EV_TAKEN_TILE,
    EV_THROWN,
    EV_TURN,
    N_COLOURS,
    ROW_DISC,
    ROW_TURN,
    SEAT_COLUMNS,
    TILE_KINDS,
)

if TYPE_CHECKING:
    from .board import Board
    from .kernel import SevenStepsOutputs
    from .specials import Specials

_TEXT = pa.dictionary(pa.int16(), pa.string())
_COUNTS = pa.list_(pa.int8())
_KEYS = [
    described("rules_version", pa.int16(), "7 Steps rules version the row was simulated with."),
    described("play_index", pa.int64(), "Index of the play in its run, from 0."),
]

STANDING = Standing("points")  # each seat's score after each turn, the unused tiles' points after the last

GAMES = pa.schema(_KEYS + [
    described("players", pa.int8(), "Number of players."),
    described("turns", pa.int32(), "Turns played, every seat's (passes with an empty hand included)."),
    described("rounds", pa.int32(), "Rounds completed (turns // players): every seat has the same number of turns, "
                                    "unless the turn limit cut the play."),
    described("side", _TEXT, "front (one colour per tile) or back (three colours per tile)."),
    described("collapses", pa.int32(), "Towers that reached level 7 and collapsed (chain collapses included)."),
    described("end_reason", _TEXT, "bag_empty (a player could not refill to 7, the round was completed) or "
                                   "turn_limit."),
    described("completed", pa.bool_(), "The play ended by the rules (bag_empty), not by the turn limit."),
    described("bag_left", pa.int16(), "Discs left in the bag at the end."),
    described("max_nodes", pa.int32(), "The most chains one search of a greedy or climber seat visited (0: none)."),
    described("winners", pa.list_(pa.int8()), "Seats with the highest score (all of them on a tie)."),
    # How the play felt (docs/statistics.md), in the standing's words
    *feel_fields(STANDING),
])

SEATS = pa.schema(_KEYS + [
    described("seat", pa.int8(), "0 = the start player, then in turn order."),
    described("policy", _TEXT, "Policy name of the seat."),
    described("policy_spec", _TEXT, "Policy with its parameters, `name:param=value`."),
    described("score", pa.int16(), "Final score: the turns' points (levels of the discs placed and victory-point "
                                    "bonuses) plus the points for unused tiles. Higher is better."),
    described("rank", pa.int8(), "1 + number of seats with a higher score (ties share a rank)."),
    described("winner", pa.bool_(), "The seat has the highest score (shared wins count for each)."),
    described("turn_points", pa.int16(), "Points scored in turns (score minus tile_points)."),
    described("bonus_points", pa.int16(), "Of those, victory-point tiles' bonuses."),
    described("tile_points", pa.int16(), "Points for tiles held at the end (unused_tile_points each)."),
    described("discs", pa.int16(), "Discs placed."),
    described("turns", pa.int16(), "Turns the seat had (passes included)."),
    described("passes", pa.int16(), "Turns with an empty hand: always 0 under these rules (every seat enters the "
                                    "last round with a full hand); a check."),
    described("aids_taken", pa.int8(), "Build-aid tiles taken."),
    described("bonuses_taken", pa.int8(), "Victory-point tiles taken."),
    described("tiles_taken", pa.int8(), "Tiles taken (both kinds)."),
    described("aids_played", pa.int8(), "Build-aid tiles played."),
    described("bonuses_played", pa.int8(), "Victory-point tiles played."),
    described("tiles_played", pa.int8(), "Tiles played (both kinds)."),
    described("aid_left", pa.bool_(), "A build-aid tile was held at the end."),
    described("bonus_left", pa.bool_(), "A victory-point tile was held at the end."),
    described("tiles_left", pa.int8(), "Tiles held at the end (0-2)."),
    described("thrown", pa.int16(), "Discs thrown back into the bag."),
    described("capped_searches", pa.int16(), "Searches stopped by max_nodes (0 on the standard board)."),
])

EVENTS = pa.schema(_KEYS + [
    described("turn", pa.int32(), "Turn within the play, from 0 (seat = turn mod players)."),
    described("seat", pa.int8(), "Seat that placed the disc."),
    described("disc", pa.int8(), "The disc's place in the turn's chain, from 0."),
    described("field", pa.int8(), "Field number: 7 x the tile's place in the layout file + the printed field "
                                  "(0 centre, 1-6 E, NE, NW, W, SW, SE before rotation)."),
    described("q", pa.int8(), "The field's axial column (pointy-top hexes)."),
    described("r", pa.int8(), "The field's axial row."),
    described("colour", _TEXT, "The disc's colour (that of its field)."),
    described("level", pa.int8(), "The tower's height once the disc was placed: the points it scores (7: the "
                                  "tower collapsed)."),
    described("collapses", pa.int8(), "Towers that collapsed because of this disc (chain collapses included)."),
    described("turn_score", pa.int16(), "The turn's points: the sum of its discs' levels plus a victory-point bonus."),
])

TURNS = pa.schema(_KEYS + [
    described("turn", pa.int32(), "Turn within the play, from 0."),
    described("seat", pa.int8(), "Seat whose turn it was."),
    described("hand", _COUNTS, "Discs held at the start of the turn, per colour (blue, yellow, black, red, white, "
                                "orange, purple)."),
    described("aid", _TEXT, "Build-aid tile played at the start of the turn (its id in the specials file).",
              nullable=True),
    described("aid_field", pa.int8(), "take_down: the tower whose top disc went back; move_tower: the tower moved.",
              nullable=True),
    described("aid_target", pa.int8(), "move_tower: the empty field it moved to.", nullable=True),
    described("placed", pa.int8(), "Discs placed (0: a pass with an empty hand)."),
    described("bonus", _TEXT, "Victory-point tile played after placing.", nullable=True),
    described("bonus_points", pa.int8(), "Its bonus (0 if none was played)."),
    described("turn_score", pa.int16(), "The turn's points, bonus included."),
    described("taken", _TEXT, "The pile a tile was taken from (aid or bonus) after a low-scoring turn.",
              nullable=True),
    described("taken_tile", _TEXT, "The tile taken.", nullable=True),
    described("thrown", _COUNTS, "Discs thrown back into the bag, per colour."),
    described("drawn", _COUNTS, "Discs drawn to refill, per colour."),
    described("bag_left", pa.int16(), "Discs in the bag after the refill."),
])

STANDINGS = pa.schema(_KEYS + standings_fields(STANDING))

SCHEMAS = {"games": GAMES, "seats": SEATS, "events": EVENTS, "turns": TURNS, "standings": STANDINGS}


def games_table(rules_version, first_play, out: SevenStepsOutputs, side: str) -> pa.Table:
    n, players = out.seat("score").shape
    return shared.table(GAMES, {
        **shared.keys(rules_version, shared.play_indices(first_play, n)), "players": shared.constant(players, n),
        "turns": out.turns, "rounds": out.turns // players, "side": shared.constant(side, n),
        "collapses": out.collapses, "end_reason": shared.Text(out.end_reason, END_REASONS),
        "completed": out.end_reason == BAG_EMPTY, "bag_left": out.bag_left, "max_nodes": out.max_nodes,
        "winners": shared.winners(shared.top_scorers(out.seat("score"))),
        **feel_columns(Feel._make(out.feel)),
    })


def seats_table(rules_version, first_play, out: SevenStepsOutputs, policies) -> pa.Table:
    n, players = out.seat("score").shape
    seat = shared.seat_numbers(n, players)
    flat = {name: out.seat(name).ravel() for name in SEAT_COLUMNS}
    turns = out.turns[:, None] // players + (np.arange(players) < out.turns[:, None] % players)
    return shared.table(SEATS, {
        **shared.keys(rules_version, shared.play_indices(first_play, n, players)), "seat": seat,
        **shared.policy_columns(policies, seat), "score": flat["score"], **shared.rank_and_winner(out.seat("score")),
        "turn_points": flat["score"] - flat["tile_points"], "bonus_points": flat["bonus_points"],
        "tile_points": flat["tile_points"], "discs": flat["discs"], "turns": turns.ravel(), "passes": flat["passes"],
        "aids_taken": flat["aids_taken"], "bonuses_taken": flat["bonuses_taken"],
        "tiles_taken": flat["aids_taken"] + flat["bonuses_taken"], "aids_played": flat["aids_played"],
        "bonuses_played": flat["bonuses_played"], "tiles_played": flat["aids_played"] + flat["bonuses_played"],
        "aid_left": flat["aid_left"] == 1, "bonus_left": flat["bonus_left"] == 1,
        "tiles_left": flat["aid_left"] + flat["bonus_left"], "thrown": flat["thrown"],
        "capped_searches": flat["capped"],
    })


def _tile_ids(tile: np.ndarray, ids: tuple[str, ...]) -> shared.Text:
    """Physical tiles (copies expanded) → their ids (a null for -1)."""
    names = list(dict.fromkeys(ids))
    code = np.array([names.index(i) for i in ids] + [-1], np.int64)
    return shared.Text(code[tile], names)


def _counts(block: np.ndarray) -> shared.Lists:
    return shared.Lists(block.ravel(), np.full(len(block), N_COLOURS))


def events_table(rules_version, ev: np.ndarray, board: Board) -> pa.Table:
    d = ev[ev[:, EV_KIND] == ROW_DISC]
    field = d[:, EV_FIELD]
    return shared.table(EVENTS, {
        **shared.keys(rules_version, d[:, EV_PLAY].astype(np.int64)), "turn": d[:, EV_TURN], "seat": d[:, EV_SEAT],
        "disc": d[:, EV_DISC], "field": field, "q": board.coords[field, 0], "r": board.coords[field, 1],
        "colour": shared.Text(d[:, EV_COLOUR], COLOURS), "level": d[:, EV_LEVEL], "collapses": d[:, EV_COLLAPSES],
        "turn_score": d[:, EV_SCORE],
    })


def turns_table(rules_version, ev: np.ndarray, specials: Specials) -> pa.Table:
    t = ev[ev[:, EV_KIND] == ROW_TURN]
    taken = t[:, EV_TAKEN]
    taken_tile = np.where(taken < 0, -1, np.where(taken == AID, 0, len(specials.aid_ids)) + t[:, EV_TAKEN_TILE])
    return shared.table(TURNS, {
        **shared.keys(rules_version, t[:, EV_PLAY].astype(np.int64)), "turn": t[:, EV_TURN], "seat": t[:, EV_SEAT],
        "hand": _counts(t[:, EV_HAND:EV_HAND + N_COLOURS]), "aid": _tile_ids(t[:, EV_AID], specials.aid_ids),
        "aid_field": np.ma.masked_less(t[:, EV_AID_FIELD], 0), "aid_target": np.ma.masked_less(t[:, EV_AID_TARGET], 0),
        "placed": t[:, EV_PLACED], "bonus": _tile_ids(t[:, EV_BONUS], specials.bonus_ids),
        "bonus_points": t[:, EV_BONUS_POINTS], "turn_score": t[:, EV_SCORE],
        "taken": shared.Text(taken, TILE_KINDS),
        "taken_tile": _tile_ids(taken_tile, specials.aid_ids + specials.bonus_ids),
        "thrown": _counts(t[:, EV_THROWN:EV_THROWN + N_COLOURS]), "drawn": _counts(t[:, EV_DRAWN:EV_DRAWN + N_COLOURS]),
        "bag_left": t[:, EV_BAG_LEFT],
    })


def standings_table(rules_version, first_play, turns: np.ndarray, rows: np.ndarray) -> pa.Table:
    """The standings table (a run with --standings): each seat's points after each turn, the unused tiles' points in
    the last, from the kernel's kept rows (core/tables.Recorded)."""
    columns = standings_columns(STANDING, first_play, turns, rows)
    return shared.table(STANDINGS, {**columns, **shared.keys(rules_version, columns["play_index"])})
