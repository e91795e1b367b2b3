"""How a play feels: who leads when, comebacks, decisiveness and drama, read from the standing (docs/statistics.md,
"How a play feels").

A game's kernel keeps each play's standing after every turn in a [max turns, seats] array, oriented so that more
is better (a game counting penalty points records them negated), and at the play's end calls `record_feel` with
the turns played and the winner. The features land in a `Feel` of per-play arrays, one row per play. A play
without a single winner gets none: its floats are NaN and its integers -1, null in the lake (`FEEL_FIELDS`, the
games table's columns, and `feel_columns`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .blocks import block
from .lake import described

TENTHS = 10
QUARTERS = 3  # the single leader at 1/4, 1/2 and 3/4 of the play
NO_SEAT = -1


class Feel(NamedTuple):
    """Per play (row i): the features of docs/statistics.md's table."""
    lead_changes: np.ndarray          # [n] int32
    winner_lead_share: np.ndarray     # [n] float64
    decided_at: np.ndarray            # [n] float64
    max_deficit: np.ndarray           # [n] float64, in the standing's unit
    worst_rank: np.ndarray            # [n] int8
    drama: np.ndarray                 # [n] float64, in the standing's unit
    decisive_at: np.ndarray           # [n] float64
    winner_leads_at: np.ndarray       # [n, TENTHS] bool
    leader_at_quarter: np.ndarray     # [n, QUARTERS] int8, NO_SEAT when several lead
    winner_rank_at_half: np.ndarray   # [n] int8
    winner_last_at_half: np.ndarray   # [n] bool


@block()
def new_feel(n_plays):
    return Feel(np.full(n_plays, -1, np.int32), np.full(n_plays, np.nan), np.full(n_plays, np.nan),
                np.full(n_plays, np.nan), np.full(n_plays, -1, np.int8), np.full(n_plays, np.nan),
                np.full(n_plays, np.nan), np.zeros((n_plays, TENTHS), np.bool_),
                np.full((n_plays, QUARTERS), NO_SEAT, np.int8), np.full(n_plays, -1, np.int8),
                np.zeros(n_plays, np.bool_))


@block(inline="always")
def _after(s, t, w):
    """After turn t, in one pass over the seats: the leaders' standing, the single leader (NO_SEAT when several
    lead), the seats strictly ahead of w, and the best of the seats other than w."""
    top, sole, ahead, others, mine = s[t, 0], 0, 0, -np.inf, s[t, w]
    for p in range(s.shape[1]):
        v = s[t, p]
        if v > top:
            top, sole = v, p
        elif v == top and p > 0:
            sole = NO_SEAT
        ahead += v > mine
        if p != w:
            others = max(others, v)
    return top, sole, ahead, others


@block(inline="always")
def _at(turns, num, den):
    """The turn after which num/den of the play is played: ceil(num * turns / den) - 1."""
    return -(-num * turns // den) - 1


@block(inline="always")
def sole_best(values):
    """The index of the single largest of `values`, -1 on a tie (where ties share the win: no single winner)."""
    best, who = values[0], 0
    for p in range(1, values.shape[0]):
        if values[p] > best:
            best, who = values[p], p
        elif values[p] == best:
            who = -1
    return who


@block()
def record_feel(feel, i, standing, turns, winner):
    """Row i of `feel` from the play's standing after each of its `turns` turns (standing[:turns], more is better)
    and its single winner (anything else: the row keeps its NaN and -1). One pass over the seats a turn: in a game
    of short, cheap turns (Die Mauer) this is a tenth of a play's time."""
    if winner < 0 or turns < 1:
        return
    s, w, others_best = standing[:turns], winner, -np.inf
    changes, leads, gap_sum, max_gap, ahead_most, last_behind, first_past = 0, 0, 0.0, 0.0, 0, -1, -1
    last_sole = NO_SEAT
    for t in range(turns):
        top, sole, ahead, others = _after(s, t, w)
        gap = top - s[t, w]
        if sole != NO_SEAT:
            changes += last_sole != NO_SEAT and sole != last_sole
            last_sole = sole
        if gap == 0:
            leads += 1
        else:
            last_behind = t
        gap_sum += gap
        max_gap = max(max_gap, gap)
        ahead_most = max(ahead_most, ahead)
        others_best = max(others_best, others)
    for t in range(turns):  # the threshold is the others' best over the whole play
        if s[t, w] > others_best:
            first_past = t
            break
    feel.lead_changes[i] = changes
    feel.winner_lead_share[i] = leads / turns
    feel.decided_at[i] = (last_behind + 1) / turns
    feel.max_deficit[i] = max_gap
    feel.worst_rank[i] = 1 + ahead_most
    feel.drama[i] = gap_sum / turns
    feel.decisive_at[i] = first_past / turns if first_past >= 0 else 1.0
    for k in range(TENTHS):
        feel.winner_leads_at[i, k] = _after(s, _at(turns, k + 1, TENTHS), w)[1] == w
    for q in range(QUARTERS):
        feel.leader_at_quarter[i, q] = _after(s, _at(turns, q + 1, QUARTERS + 1), w)[1]
    half = _at(turns, 1, 2)
    ahead = _after(s, half, w)[2]
    behind = 0
    for p in range(s.shape[1]):
        behind += s[half, p] < s[half, w]
    feel.winner_rank_at_half[i] = 1 + ahead
    feel.winner_last_at_half[i] = behind == 0 and ahead > 0


@block()
def keep_standing(rows, starts, i, standing, turns):
    """Play i's standing after each of its `turns` turns into `rows` from row starts[i] (a run with --standings,
    core/tables.record_kernel); no starts: nothing kept."""
    if starts.shape[0] > 0:
        rows[starts[i]:starts[i] + turns] = standing[:turns]


@dataclass(frozen=True)
class Standing:
    """A game's standing, as its games table and `simlib replay` name it: what every player at the table can see of
    how each seat is doing (`unit`, "cards won"), counted after each `step` ("take", "turn"). Its kernel records it
    oriented so that more is better: `sign` -1 where the unit counts against a seat (penalty points), so that the
    standings table shows it in the game's own unit."""

    unit: str
    step: str = "turn"
    sign: int = 1
    steps: str = ""  # the plural of `step` where it is not step + "s" ("Baurunden")

    @property
    def plural(self) -> str:
        return self.steps or self.step + "s"


# The games table's columns; {unit}, {step} and {steps} are the game's Standing's words (feel_fields).
_FIELDS = [
    ("lead_changes", pa.int32(), "How often the lead ({unit}) passed from one single leader to another ({steps} "
     "with a shared lead neither count nor reset it)."),
    ("winner_lead_share", pa.float64(), "Share of the {steps} after which the winner was among the leaders."),
    ("decided_at", pa.float64(), "Share of the play before the winner led for good (0: led after every {step}; 1: "
     "not leading at the end)."),
    ("max_deficit", pa.float64(), "Largest gap between the leaders' {unit} and the winner's."),
    ("worst_rank", pa.int8(), "The winner's worst rank over the play (1: never behind anyone)."),
    ("drama", pa.float64(), "Mean over the {steps} of the gap between the leaders' {unit} and the winner's (0 where "
     "the winner leads)."),
    ("decisive_at", pa.float64(), "Share of the play before the winner's {unit} first beat the best any other seat "
     "reached in the play (1: never)."),
    ("winner_leads_at", pa.list_(pa.bool_()), "For each tenth of the play (10 items), whether the winner led alone "
     "then (a shared lead does not count)."),
    ("leader_at_quarter", pa.list_(pa.int8()), "The single leader's seat at 1/4, 1/2 and 3/4 of the play (3 items; "
     "null when several lead)."),
    ("winner_rank_at_half", pa.int8(), "The winner's rank at half-time (1 + the seats strictly ahead)."),
    ("winner_last_at_half", pa.bool_(), "At half-time no seat was behind the winner and one was ahead."),
]


def feel_fields(standing: Standing) -> list[pa.Field]:
    """The games table's feel columns, described in the game's words; null without a single winner."""
    words = {"unit": standing.unit, "step": standing.step, "steps": standing.plural}
    return [described(name, type_, doc.format(**words), nullable=True) for name, type_, doc in _FIELDS]


FEEL_FIELDS = feel_fields(Standing("standing"))  # the names and types every game's columns share


def standings_fields(standing: Standing) -> list[pa.Field]:
    """The standings table's columns after the keys (a run with --standings): one row per play, turn and seat."""
    better = "fewer" if standing.sign < 0 else "more"
    return [described("turn", pa.int32(), f"The {standing.step} after which the standing is counted, from 0 (the last: "
                                          "the play's end, as the game scores it)."),
            described("seat", pa.int8(), "Seat, 0 = the start player."),
            described("standing", pa.float64(), f"The seat's {standing.unit} then, as every player can see them "
                                                f"({better} is better).")]


def standings_columns(standing: Standing, first_play: int, turns: np.ndarray, rows: np.ndarray,
                      first_player: np.ndarray | None = None) -> dict[str, Any]:
    """The standings table's play_index and standings_fields columns from the kept rows (core/tables.Recorded):
    play first_play + i has turns[i] rows, one after another, a column per seat; a kernel counting in table
    positions gives each play's `first_player` (seat 0's position), so that its columns are named by seat."""
    n_seats, turns = rows.shape[1], turns.astype(np.int64)
    play_of_row = np.repeat(np.arange(len(turns)), turns)
    turn = np.arange(len(play_of_row), dtype=np.int64) - np.repeat(np.cumsum(turns) - turns, turns)
    seat = np.tile(np.arange(n_seats), len(play_of_row))
    if first_player is not None:
        seat = (seat - np.repeat(first_player.astype(np.int64)[play_of_row], n_seats)) % n_seats
    return {"play_index": np.repeat(first_play + play_of_row, n_seats), "turn": np.repeat(turn, n_seats),
            "seat": seat, "standing": standing.sign * rows.ravel() + 0.0}  # + 0.0: no negative zeros


def feel_columns(feel: Feel, first_player: np.ndarray | None = None, players: int = 0) -> dict[str, pa.Array]:
    """The games table's FEEL_FIELDS columns from the kernel's Feel, null for a play without a single winner. A
    kernel counting in table positions gives each play's `first_player` (seat 0's position) and the `players`, so
    that the leaders are named by seat."""
    none = feel.worst_rank < 0
    n = len(none)
    leaders = feel.leader_at_quarter.astype(np.int64)
    if first_player is not None:
        leaders = np.where(leaders >= 0, (leaders - first_player.astype(np.int64)[:, None]) % players, NO_SEAT)
    columns = {f.name: pa.array(getattr(feel, f.name), type=f.type, mask=none)
               for f in FEEL_FIELDS if getattr(feel, f.name).ndim == 1}
    columns["winner_leads_at"] = _lists(pa.array(feel.winner_leads_at.ravel(), pa.bool_()), n, TENTHS, none)
    columns["leader_at_quarter"] = _lists(pa.array(leaders.ravel(), pa.int8(), mask=leaders.ravel() < 0), n,
                                          QUARTERS, none)
    return columns


def _lists(items: pa.Array, n: int, width: int, none: np.ndarray) -> pa.Array:
    offsets = pa.array(np.arange(0, (n + 1) * width, width, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, items, mask=pa.array(none))


def standing_lines(standings: pa.Table, play: int, standing: Standing) -> list[str]:
    """`simlib replay`'s account of one play's standing: each seat's, after each turn (from a standings table)."""
    rows = standings.filter(pc.equal(standings["play_index"], play)).sort_by([("turn", "ascending"),
                                                                                     ("seat", "ascending")])
    turn, values = rows["turn"].to_numpy(), rows["standing"].to_numpy()
    lines = [f"standing: {standing.unit} after each {standing.step}, seat 0 first"]
    if not rows.num_rows:
        return lines + ["      (no turn played)"]
    seats = int(rows["seat"].to_numpy().max()) + 1
    for t in range(0, len(turn), seats):
        lines.append(f"{turn[t]:5d}  " + " ".join(f"{v:g}" for v in values[t:t + seats]))
    return lines


def feel_sentence(games_row: dict, standing: Standing) -> str:
    """How one play felt, in words, from its games row: for `simlib replay`."""
    if games_row.get("worst_rank") is None:
        return "feel: no single winner, so no features (docs/statistics.md, 'How a play feels')"
    g, changes = games_row, games_row["lead_changes"]
    return (f"feel: the lead changed hands {changes} time{'' if changes == 1 else 's'}; the winner led after "
            f"{g['winner_lead_share']:.0%} of the {standing.plural} and for good from {g['decided_at']:.0%} of the "
            f"play; he was at worst rank {g['worst_rank']}, up to {g['max_deficit']:g} {standing.unit} behind; rank "
            f"{g['winner_rank_at_half']} at half-time{' (last)' if g['winner_last_at_half'] else ''}")
