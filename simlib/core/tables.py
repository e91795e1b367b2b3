"""Lake tables from a kernel's named outputs: the toolkit every game's tables module builds on.

A game's `tables.py` declares its schemas (the documented contract) and computes its own columns;
this module knows no game and supplies the rest:

- `record_kernel`: calls a compiled kernel, names its arrays (a NamedTuple defined beside the kernel) and, for
  runs with events or standings, fills their rows by the count-then-fill pass.
- `table`: an Arrow table from a dict of columns by name, each converted to its schema field's type.
  A column is a numpy array, a numpy masked array (masked = null), `Text` (dictionary-encoded),
  `Constant`, `Lists` (a list column), a dict of columns (a struct column) or a ready Arrow array.
- The columns every table shares: `keys` (rules_version, play_index, with `play_indices`) and
  `constant`.
- The columns every seats table shares: `seat_numbers`, `table_positions`, `policy_columns` (policy,
  policy_spec) and `rank_and_winner`; the games table's `winners` list (`top_scorers` gives the seats
  with the best score where that is how a game defines its winners).

Per-seat arrays are shaped [plays, seats]; a seats table has one row per play and seat, play-major.
A score is higher-is-better (the `score` column of every seats table).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import numpy as np
import pyarrow as pa

Outputs = TypeVar("Outputs", bound=tuple)  # a NamedTuple of the kernel's arrays


@dataclass(frozen=True)
class Standings:
    """How a kernel keeps each play's standing after every turn (core/feel.py): it takes, before its event buffers,
    a float64 buffer [rows, seats] and the row where each play's standing starts (no start rows: it keeps none).
    `turns_per_play` names the output field counting each play's turns, its standing's rows; `keep` fills them."""

    seats: int
    turns_per_play: str
    keep: bool


class Recorded(NamedTuple):
    out: Any                       # the kernel's named arrays
    events: np.ndarray | None      # the event rows (None without events)
    standings: np.ndarray | None   # [rows, seats] each play's standing after each turn (None without)


def record_kernel(kernel: Callable[..., tuple], args: tuple, outputs: type[Outputs], *, events: bool = False,
                  events_per_play: str = "", event_columns: int = 0, standings: Standings | None = None) -> Recorded:
    """`kernel(*args, [standing rows, their starts,] ev, ev_start)`'s arrays as `outputs`, its event rows and
    standings where asked.

    Every kernel takes, last, an int32 event buffer (rows x event_columns) and the row where each play's events
    start; with no start rows it records nothing. For events and standings, the count-then-fill pass: run once with
    empty buffers, read each play's counts from the output fields `events_per_play` and `standings.turns_per_play`,
    allocate, and run again (draws are keyed by play, so the second run replays the same plays).
    """
    no_standing = () if standings is None else no_standings(standings.seats)
    out = outputs._make(kernel(*args, *no_standing, np.zeros((0, event_columns), np.int32), np.zeros(0, np.int64)))
    keep = standings is not None and standings.keep
    if not events and not keep:
        return Recorded(out, None, None)
    ev, ev_start = _buffer(getattr(out, events_per_play) if events else None, event_columns, np.int32)
    sd, sd_start = _buffer(getattr(out, standings.turns_per_play) if keep else None,
                           standings.seats if standings else 0, np.float64)
    kernel(*args, *((sd, sd_start) if standings else ()), ev, ev_start)
    return Recorded(out, ev if events else None, sd if keep else None)


def no_standings(seats: int) -> tuple[np.ndarray, np.ndarray]:
    """A kernel's standing buffers that keep nothing (for calls outside record_kernel: benchmarks)."""
    return np.zeros((0, seats)), np.zeros(0, np.int64)


def _buffer(counts: np.ndarray | None, columns: int, dtype) -> tuple[np.ndarray, np.ndarray]:
    """A buffer of every play's `counts` rows and the row where each play's rows start (no counts: empty)."""
    if counts is None:
        return np.zeros((0, columns), dtype), np.zeros(0, np.int64)
    ends = np.cumsum(counts, dtype=np.int64)
    return np.zeros((int(ends[-1]) if len(ends) else 0, columns), dtype), ends - counts


@dataclass(frozen=True)
class Text:
    """A dictionary-encoded text column: `codes` index into `names`; a negative code is null."""

    codes: np.ndarray
    names: Sequence[str]


@dataclass(frozen=True)
class Constant:
    """A column of `rows` rows holding one value: a number, or text (dictionary-encoded)."""

    value: int | str
    rows: int


@dataclass(frozen=True)
class Lists:
    """A list column: row i holds the next counts[i] items of `items` (itself any column value)."""

    items: Any
    counts: np.ndarray


def table(schema: pa.Schema, columns: dict[str, Any]) -> pa.Table:
    """The Arrow table of `schema` from its columns by name (any order), each converted to its field's type."""
    if set(columns) != set(schema.names):
        raise ValueError(f"columns do not match the schema: missing {sorted(set(schema.names) - set(columns))}, "
                         f"unexpected {sorted(set(columns) - set(schema.names))}")
    return pa.Table.from_arrays([_arrow(columns[f.name], f.type) for f in schema], schema=schema)


def _arrow(value: Any, type_: pa.DataType) -> pa.Array:
    if isinstance(value, pa.Array):
        return value
    if isinstance(value, Text):
        codes = np.asarray(value.codes)
        nulls = codes < 0
        indices = pa.array(_fit(codes, type_.index_type), type_.index_type, mask=nulls if nulls.any() else None)
        return pa.DictionaryArray.from_arrays(indices, pa.array(list(value.names), type_.value_type))
    if isinstance(value, Constant):
        if pa.types.is_dictionary(type_):
            return _arrow(Text(np.zeros(value.rows, np.int8), [value.value]), type_)
        one = _fit(np.array([value.value]), type_)
        return pa.array(np.full(value.rows, one[0], one.dtype), type_)
    if isinstance(value, Lists):
        offsets = np.concatenate([[0], np.cumsum(value.counts)]).astype(np.int32)
        return pa.ListArray.from_arrays(pa.array(offsets), _arrow(value.items, type_.value_type))
    if isinstance(value, dict):
        return pa.StructArray.from_arrays([_arrow(value[f.name], f.type) for f in type_], fields=list(type_))
    if isinstance(value, np.ma.MaskedArray):
        return pa.array(_fit(value.filled(0), type_), type_, mask=np.ma.getmaskarray(value))
    return pa.array(_fit(np.asarray(value), type_), type_)


def _fit(values: np.ndarray, type_: pa.DataType) -> np.ndarray:
    """values as the numpy type of `type_`; a value that does not fit is an error. (Numpy's cast and a check
    are many times faster than Arrow's checked cast from another type.)"""
    dtype = np.dtype(type_.to_pandas_dtype())
    if values.dtype == dtype:
        return values
    if np.can_cast(values.dtype, dtype):
        return values.astype(dtype)
    fitted = values.astype(dtype)
    if not (fitted == values).all():
        raise ValueError(f"values do not fit {type_}")
    return fitted


def constant(value: int | str, n: int) -> Constant:
    """A column of n rows holding one value: a number, or text (dictionary-encoded)."""
    return Constant(value, n)


def play_indices(first_play: int, n_plays: int, rows_per_play: int | np.ndarray = 1) -> np.ndarray:
    """The play index of each row, for plays first_play.. with rows_per_play consecutive rows each (one
    number, or one per play)."""
    return np.repeat(np.arange(first_play, first_play + n_plays, dtype=np.int64), rows_per_play)


def keys(rules_version: int, play_index: np.ndarray) -> dict[str, Any]:
    """rules_version and play_index, the columns every lake table begins with."""
    return {"rules_version": constant(rules_version, len(play_index)), "play_index": play_index}


def seat_numbers(n_plays: int, players: int) -> np.ndarray:
    """The seat column: 0..players-1 for each play."""
    return np.tile(np.arange(players, dtype=np.int8), n_plays)


def table_positions(first_player: np.ndarray, players: int) -> np.ndarray:
    """[plays, seats]: each seat's table position, seat 0 sitting at first_player and seats counting on."""
    return ((first_player.astype(np.int16)[:, None] + np.arange(players, dtype=np.int16)) % players).astype(np.int8)


def policy_columns(policies: Sequence, player: np.ndarray) -> dict[str, Text]:
    """policy and policy_spec of each seat row, from the run's policies (config.policies, one per table
    position) and each row's table position `player`."""
    return {"policy": _by_position([p.name for p in policies], player),
            "policy_spec": _by_position([str(p) for p in policies], player)}


def _by_position(values: list[str], player: np.ndarray) -> Text:
    names = list(dict.fromkeys(values))
    code = np.array([names.index(v) for v in values], np.int8)
    return Text(code[player], names)


def top_scorers(score: np.ndarray) -> np.ndarray:
    """[plays, seats]: the seats with the highest score of their play (all of them on a tie)."""
    return score == score.max(axis=1, keepdims=True)


def rank_and_winner(score: np.ndarray, is_winner: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """A seats table's rank (1 + number of seats with a higher score; ties share a rank) and winner
    (given per [play, seat], or else the top scorers) from score [plays, seats]."""
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2, dtype=np.int8)
    winner = top_scorers(score) if is_winner is None else is_winner
    return {"rank": rank.ravel(), "winner": winner.ravel()}


def winners(is_winner: np.ndarray) -> Lists:
    """A games table's winners: per play, the seats marked in is_winner [plays, seats], in seat order."""
    return Lists(np.nonzero(is_winner)[1], is_winner.sum(axis=1))
