"""Known answers for marts that were untested or checked by ranges only: Mauerbruch's endings and pair deciders,
the shared game length and run balance, Die Mauer's penalty marts and match totals.

Each lake below is written by hand, row by row, and every answer is worked out here from those rows, by hand or
with plain Python and NumPy (never by running the marts' SQL again, nor with simlib.analysis.estimators). Intervals
are checked at both ends, to the last bits: Wilson for rates, Wilson at the effective number of plays for win
shares (docs/statistics.md), mean +- 1.96 sd / sqrt(n) for means (pipelines/shared/macros.sql), and Die Mauer's
match totals' seeded bootstrap re-implemented from its description. Balance's median-unbiased estimate is a redraw:
what can be checked of it by hand is (tests/support/mart_checks.py: assert_balance).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from datetime import datetime, timezone
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlib.analysis.pipeline import build
from simlib.core.lake import part_path, write_atomic
from simlib.core.schemas import RUNS_SCHEMA
from simlib.games.mauer import tables as mauer_tables
from simlib.games.mauerbruch import tables as mauerbruch_tables

from support.lake_fixture import _table, seal_run
from support.mart_checks import (
    assert_balance,
    clustered_share,
    effective_n,
    holm,
    marts_of,
    row,
    seat_test,
    share_interval,
    share_p,
    shares_of,
    wilson,
)

Z = 1.96
QUANTILES = {"p05": 5, "p25": 25, "median": 50, "p75": 75, "p95": 95}  # in percent


# --- the test's own statistics ----------------------------------------------------------------------------

def close(x: float):
    """A mart's double against the test's own arithmetic: equal but for the last bits."""
    return pytest.approx(x, rel=1e-12, abs=1e-12)


def assert_columns(actual: dict, expected: dict) -> None:
    """Every column of a mart's row, no more and no fewer, equal to its worked answer (None: null)."""
    assert sorted(actual) == sorted(expected)
    for name, want in expected.items():
        got = actual[name]
        if want is None:
            assert got is None, (name, got)
        elif isinstance(want, float):
            assert got == close(want), (name, got, want)
        else:
            assert got == want, (name, got, want)


def wilson_clamped(k: int, n: int) -> tuple[float, float]:
    lo, hi = wilson(k, n)
    return max(0.0, lo), min(1.0, hi)


def mean_interval(values) -> tuple[float | None, float | None]:
    """mean -+ 1.96 * sample sd / sqrt(n); no interval from a single value."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2:
        return None, None
    half = Z * float(np.std(x, ddof=1)) / math.sqrt(len(x))
    return float(x.mean()) - half, float(x.mean()) + half


def sample_sd(values) -> float | None:
    return float(np.std(np.asarray(values, dtype=float), ddof=1)) if len(values) > 1 else None


def quantile_disc(values, percent: int) -> int:
    """The smallest value with at least `percent`% of the values at or below it, in integers only."""
    ordered = sorted(values)
    k = -(-percent * len(ordered) // 100)  # ceil(percent * n / 100), at least one value
    return ordered[max(k, 1) - 1]


def chi2_sf(x: float, dof: int) -> float:
    """The chi-square survival function in closed form for 1 to 3 degrees of freedom (no SciPy)."""
    if dof == 1:
        return math.erfc(math.sqrt(x / 2))
    if dof == 2:
        return math.exp(-x / 2)
    if dof == 3:
        return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    raise ValueError(dof)


def write_run_row(lake: Path, game: str, run_id: str, policies: list[str], plays: int, options: dict,
                  events: bool) -> None:
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    config = {"game": game, "players": len(policies), "policies": policies, "plays": plays, "seed": 1,
              "options": options, "events": events}
    run = {"rules_version": 1, "rules_versions": json.dumps({game: 1}), "simlib_version": "test",
           "config": json.dumps(config), "seed": 1, "players": len(policies), "policies": ",".join(policies),
           "plays": plays, "shard_size": 100, "started_at": now, "ended_at": now, "status": "complete"}
    write_atomic(_table(RUNS_SCHEMA, [run]), part_path(lake, "runs", game, run_id, 0))


# --- a hand-made Mauerbruch lake --------------------------------------------------------------------------
#
# Per play: how it ended, the bonus (the neighbouring stack's cards the breaker took) and the breaker's seat,
# the cards left in the wall, the opening's double pairs, the turns, and each seat's cards (the most cards win).

MB_A = [
    # end        bonus  breaker  left  opening  turns  cards by seat   -> winners
    ("broken",   6,     0,       10,   1,       12,    (20, 10, 8)),   # [0]: the breaker wins
    ("broken",   3,     2,       14,   0,       9,     (8, 15, 15)),   # [1, 2]: the breaker shares the win
    ("blocked",  0,     None,    20,   2,       15,    (10, 16, 4)),   # [1]
    ("broken",   9,     0,       4,    1,       20,    (12, 6, 22)),   # [2]: the breaker loses
    ("blocked",  0,     None,    18,   0,       7,     (14, 14, 4)),   # [0, 1]
]
MB_B = [  # one play, blocked, the two seats tied
    ("blocked",  0,     None,    30,   3,       5,     (9, 9)),
]

# Run mb_long: 60 plays of four players, to read quantiles off: plays per number of turns (cumulative: 3, 4, 15,
# 30, 45, 57, 59, 60, so each quantile, at 3, 15, 30, 45 and 57 of the 60 plays, sits exactly on a boundary).
MB_LONG_TURNS = {10: 3, 11: 1, 12: 11, 13: 15, 14: 15, 15: 12, 16: 2, 30: 1}
MB_LONG_BLOCKED_TURNS = {10, 30}  # those four plays ended blocked, the others broken
# The winners of plays 0-5, again for 6-11 and so on: seats 0 and 1 win 30 plays each (10 of them shared),
# seat 2 wins 10, seat 3 none.
MB_LONG_WINNERS = [[0], [1], [0, 1], [2], [0], [1]]


def mb_long_plays() -> list[tuple]:
    turns = [t for t, count in sorted(MB_LONG_TURNS.items()) for _ in range(count)]
    plays = []
    for i, t in enumerate(turns):
        winners = MB_LONG_WINNERS[i % 6]
        cards = tuple(20 if seat in winners else 10 for seat in range(4))
        if t in MB_LONG_BLOCKED_TURNS:
            plays.append(("blocked", 0, None, 25, i % 3, t, cards))
        else:
            plays.append(("broken", 1 + i % 5, i % 4, i % 7, i % 3, t, cards))
    return plays


# Run mb_a's pairs (it ran with --events), with what decided each pair, worked out by hand from the rules
# (simlib/games/mauerbruch/rules.py): a joker; a ban that took away the only divisor two cards of one symbol
# share (so the pair is single, not double); two bans of a kind. `swap`: a Wunschkarte swap came right before.
MB_A_PAIRS = [
    # play  phase             seat  card a            card b            kind      ban2   ban5   swap   decided by
    (0,     "opening_double", 0,    "circle:12",      "circle:18",      "double", False, False, False, None),
    (0,     "opening_single", 1,    "triangle:7",     "circle:14",      "single", True,  False, False, None),
    (0,     "turn",           1,    "circle:4",       "circle:6",       "single", True,  False, False, "ban"),
    (1,     "turn",           2,    "square:10",      "square:15",      "single", False, True,  True,  "ban"),
    (1,     "turn",           0,    "square:4",       "square:8",       "double", True,  False, False, None),  # 4
    (1,     "turn",           1,    "circle:10",      "circle:14",      "double", False, True,  False, None),  # 2
    (2,     "turn",           1,    "star:joker",     "triangle:9",     "single", False, False, False, "joker"),
    (2,     "turn",           2,    "triangle:joker", "triangle:3",     "double", False, False, True,  "joker"),
    (3,     "turn",           0,    "ban2",           "ban2",           "double", True,  False, False, "ban pair"),
    (3,     "turn",           1,    "ban5",           "ban5",           "double", False, True,  False, "ban pair"),
    (4,     "turn",           2,    "square:10",      "square:20",      "double", True,  True,  False, None),  # 10
    (4,     "turn",           0,    "circle:joker",   "circle:joker",   "single", False, False, False, "joker"),
]

MB_RUNS = {"mb_a": (MB_A, MB_A_PAIRS), "mb_b": (MB_B, None), "mb_long": (mb_long_plays(), None)}


def winners_of(cards) -> list[int]:
    return [seat for seat, c in enumerate(cards) if c == max(cards)]


def write_mauerbruch_run(lake: Path, run_id: str, plays: list[tuple], pairs: list[tuple] | None) -> None:
    players = len(plays[0][6])
    write_run_row(lake, "mauerbruch", run_id, ["random"] * players, len(plays),
                  {"deck": "numnum", "opening": "discard"}, events=pairs is not None)
    games, seats = [], []
    for play, (end, bonus, breaker, left, opening, turns, cards) in enumerate(plays):
        broken = end == "broken"
        games.append({"rules_version": 1, "play_index": play, "players": players, "first_player": 0,
                      "opener_seat": 0, "turns": turns, "takes": opening + turns, "opening_pairs": opening,
                      "end_reason": end, "completed": broken, "stack_emptied": 3 if broken else None,
                      "bonus_stack": 4 if broken else None, "bonus_cards": bonus, "cards_left": left,
                      "deck_name": "numnum", "deck_id": "deck1", "winners": winners_of(cards)})
        for seat, c in enumerate(cards):
            seats.append({"rules_version": 1, "play_index": play, "seat": seat, "player": seat, "policy": "random",
                          "policy_spec": "random", "cards": c, "score": c, "rank": 1 + sum(x > c for x in cards),
                          "winner": c == max(cards), "opened": seat == 0, "pairs": 3, "doubles": 1, "swaps": 0,
                          "bonus_cards": bonus if seat == breaker else 0})
    write_atomic(_table(mauerbruch_tables.GAMES, games), part_path(lake, "games", "mauerbruch", run_id, 0))
    write_atomic(_table(mauerbruch_tables.SEATS, seats), part_path(lake, "seats", "mauerbruch", run_id, 0))
    if pairs is not None:
        takes = Counter()
        events = []
        for play, phase, seat, a, b, kind, ban2, ban5, swap, _ in pairs:
            events.append({"rules_version": 1, "play_index": play, "take": takes[play], "phase": phase,
                           "turn": -1 if phase.startswith("opening") else takes[play], "seat": seat,
                           "card_a": 1, "label_a": a, "stack_a": 0, "card_b": 2, "label_b": b, "stack_b": 1,
                           "pair_kind": kind, "ban2": ban2, "ban5": ban5, "swap_card": 7 if swap else None,
                           "swap_stack": 5 if swap else None})
            takes[play] += 1
        write_atomic(_table(mauerbruch_tables.EVENTS, events), part_path(lake, "events", "mauerbruch", run_id, 0))
    seal_run(lake, "mauerbruch", run_id)

# --- a hand-made Die Mauer lake ---------------------------------------------------------------------------
#
# Run mauer_a: three players, matches of two Spielrunden; table position 0 plays heavy, 1 and 2 random. Seat 0
# (the first Bauherr) is table position 0 in round 0 and position 1 in round 1, so seats 0 and 2 change policy
# between plays and seat 1 is always random. Penalties by table position (0, 1, 2), per match and round:
MAUER_POLICIES = ["heavy", "random", "random"]
MAUER_MATCHES = [
    #  round 0       round 1        match totals by position  -> won by
    ((0, 5, 10),   (3, 0, 6)),    # 3, 5, 16                  -> 0
    ((0, 4, 0),    (0, 15, 2)),   # 0, 19, 2                  -> 0
    ((2, 2, 7),    (1, 0, 9)),    # 3, 2, 16                  -> 1
    ((0, 8, 3),    (5, 5, 0)),    # 5, 13, 3                  -> 2
    ((4, 0, 12),   (0, 3, 3)),    # 4, 3, 15                  -> 1
    ((1, 6, 0),    (7, 0, 4)),    # 8, 6, 4                   -> 2
    ((0, 0, 5),    (2, 9, 1)),    # 2, 9, 6                   -> 0
    ((6, 3, 0),    (0, 2, 8)),    # 6, 5, 8                   -> 1
    ((0, 11, 3),   (3, 0, 0)),    # 3, 11, 3                  -> 0 and 2 (a tie counts for each)
    ((9, 1, 2),    (0, 4, 6)),    # 9, 5, 8                   -> 1
]
ROUNDS = 2


def mauer_seat_plays() -> list[dict]:
    """One row per seat and play: play, match, round, seat, table position, policy, penalty."""
    rows = []
    for match, penalties_by_round in enumerate(MAUER_MATCHES):
        for rnd, by_position in enumerate(penalties_by_round):
            play = match * ROUNDS + rnd
            for player, penalty in enumerate(by_position):
                seat = (player - rnd) % 3  # the first Bauherr is table position `rnd`
                rows.append({"play_index": play, "match_id": match, "round": rnd, "seat": seat, "player": player,
                             "policy": MAUER_POLICIES[player], "penalty": penalty})
    return rows


def write_mauer_run(lake: Path, run_id: str) -> None:
    plays = len(MAUER_MATCHES) * ROUNDS
    write_run_row(lake, "mauer", run_id, MAUER_POLICIES, plays,
                  {"rounds": ROUNDS, "start": "continue", "max_baurunden": 500}, events=False)
    rows = mauer_seat_plays()
    games, seats = [], []
    for play in range(plays):
        by_seat = {r["seat"]: r["penalty"] for r in rows if r["play_index"] == play}
        best = min(by_seat.values())
        games.append({"rules_version": 1, "play_index": play, "match_id": play // ROUNDS, "round": play % ROUNDS,
                      "players": 3, "first_player": play % ROUNDS, "turns": 8 + play, "end_reason": "emptied",
                      "completed": True, "winners": sorted(s for s, p in by_seat.items() if p == best)})
    for r in rows:
        others = [r2["penalty"] for r2 in rows if r2["play_index"] == r["play_index"]]
        seats.append({"rules_version": 1, **r, "policy_spec": r["policy"], "score": -r["penalty"],
                      "rank": 1 + sum(p < r["penalty"] for p in others), "winner": r["penalty"] == min(others)})
    write_atomic(_table(mauer_tables.GAMES, games), part_path(lake, "games", "mauer", run_id, 0))
    write_atomic(_table(mauer_tables.SEATS, seats), part_path(lake, "seats", "mauer", run_id, 0))
    seal_run(lake, "mauer", run_id)

@pytest.fixture(scope="module")
def marts(tmp_path_factory) -> dict[str, pl.DataFrame]:
    root = tmp_path_factory.mktemp("mart_values")
    for run_id, (plays, pairs) in MB_RUNS.items():
        write_mauerbruch_run(root / "lake", run_id, plays, pairs)
    write_mauer_run(root / "lake", "mauer_a")
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    return marts_of(root / "marts")


def test_the_hand_made_lakes_say_what_their_comments_say():
    assert [winners_of(p[6]) for p in MB_A] == [[0], [1, 2], [1], [2], [0, 1]]
    long = mb_long_plays()
    assert len(long) == 60 and sum(p[0] == "blocked" for p in long) == 4
    for position, expected in enumerate([[3, 0, 3, 5, 4, 8, 2, 6, 3, 9], [5, 19, 2, 13, 3, 6, 9, 5, 11, 5],
                                         [16, 2, 16, 3, 15, 4, 6, 8, 3, 8]]):
        assert [sum(r[position] for r in m) for m in MAUER_MATCHES] == expected


# --- 1. Mauerbruch: endings and pair deciders -------------------------------------------------------------

def breaker_shares(plays: list[tuple]) -> list[Fraction]:
    """The breaker's win share in each broken play with a breaker (the seat that took a non-empty neighbouring
    stack): 1/winners when it won, a tie splitting the win, else 0."""
    return [Fraction(int(p[2] in winners_of(p[6])), len(winners_of(p[6]))) for p in plays
            if p[0] == "broken" and p[1] > 0]


def expected_endings(run_id: str, plays: list[tuple]) -> dict:
    """Every column of mart_mauerbruch_endings, from the drawn plays with plain Python and NumPy."""
    n = len(plays)
    players = len(plays[0][6])
    blocked = sum(p[0] == "blocked" for p in plays)
    bonuses = [p[1] for p in plays if p[0] == "broken"]
    breakers = [p[2] for p in plays if p[0] == "broken" and p[1] > 0]
    shares = breaker_shares(plays)
    lo, hi = mean_interval(bonuses)
    share_lo, share_hi = share_interval(shares) if shares else (None, None)
    return {
        "game": "mauerbruch", "run_id": run_id, "players": players, "deck_name": "numnum",
        "deck_id": "deck1", "n_plays": n, "blocked_plays": blocked, "blocked_rate": blocked / n,
        "blocked_rate_lo": wilson_clamped(blocked, n)[0], "blocked_rate_hi": wilson_clamped(blocked, n)[1],
        "mean_bonus": float(np.mean(bonuses)) if bonuses else None, "mean_bonus_lo": lo, "mean_bonus_hi": hi,
        "max_bonus": max(p[1] for p in plays), "n_breaks": len(shares), "fair_share": 1 / players,
        "breaker_win_share": float(sum(shares) / len(shares)) if shares else None,
        "breaker_win_share_lo": share_lo, "breaker_win_share_hi": share_hi,
        "breaker_effective_plays": effective_n(shares) if shares else None,
        "breaker_p_value": share_p(shares, 1 / players) if shares else None,
        "seat0_breaks_rate": breakers.count(0) / len(breakers) if breakers else None,
        "mean_cards_left": float(np.mean([p[3] for p in plays])),
        "mean_opening_pairs": float(np.mean([p[4] for p in plays])),
        "mean_turns": float(np.mean([p[5] for p in plays])),
    }


def test_mauerbruch_endings_by_hand(marts):
    endings = marts["mart_mauerbruch_endings"]
    assert len(endings.columns) == 25 and endings.height == 3
    a = row(endings, run_id="mb_a")
    # Two of five plays blocked; the bonuses of the three broken plays are 6, 3 and 9: mean 6, sd 3.
    assert (a["blocked_plays"], a["blocked_rate"], a["max_bonus"]) == (2, 0.4, 9)
    assert (a["blocked_rate_lo"], a["blocked_rate_hi"]) == close(wilson(2, 5))
    assert a["mean_bonus"] == 6.0
    assert (a["mean_bonus_lo"], a["mean_bonus_hi"]) == close((6 - Z * 3 / math.sqrt(3), 6 + Z * 3 / math.sqrt(3)))
    # Breakers: seat 0 won play 0 (share 1), seat 2 shared play 1's win with seat 1 (1/2), seat 0 lost play 3 (0).
    # A win rate would read 2/3; the win share is 1.5/3 = 1/2. The shares vary less than wins: mean of squares
    # 1.25/3, variance 5/12 - 1/4 = 1/6, so the effective plays are 3 (1/4) / (1/6) = 4.5, and the score test
    # against a fair 1/3 has z = (1/2 - 1/3) / sqrt((2/9) / 4.5) = 0.75.
    assert (a["n_breaks"], a["breaker_win_share"], a["seat0_breaks_rate"]) == (3, 0.5, close(2 / 3))
    assert a["breaker_effective_plays"] == close(4.5)
    assert (a["breaker_win_share_lo"], a["breaker_win_share_hi"]) == close(wilson(2.25, 4.5))
    assert a["breaker_p_value"] == close(math.erfc(0.75 / math.sqrt(2)))
    assert (a["mean_cards_left"], a["mean_opening_pairs"], a["mean_turns"]) == close((66 / 5, 4 / 5, 63 / 5))
    # mb_b: one blocked play, so nobody broke the wall: no bonus, no breaker, no interval.
    b = row(endings, run_id="mb_b")
    assert (b["blocked_rate"], b["blocked_rate_hi"], b["max_bonus"], b["n_breaks"]) == (1.0, 1.0, 0, 0)
    assert b["mean_bonus"] is b["mean_bonus_lo"] is b["breaker_win_share"] is b["seat0_breaks_rate"] is None
    assert b["breaker_win_share_lo"] is b["breaker_win_share_hi"] is b["breaker_p_value"] is None
    for run_id, (plays, _) in MB_RUNS.items():
        assert_columns(row(endings, run_id=run_id), expected_endings(run_id, plays))


def clustered_share_interval(k: list[int], m: list[int]) -> tuple[float, float]:
    """A share of pairs with the play as the unit (k a play's pairs of a kind, m all its pairs): mart_checks'
    clustered_share's interval."""
    return clustered_share(list(zip(m, k)))[1:]


def test_mauerbruch_pair_deciders_by_hand(marts):
    deciders = marts["mart_mauerbruch_pair_deciders"]
    assert deciders["run_id"].to_list() == ["mb_a"]  # the only run with events
    n = len(MB_A_PAIRS)  # 12 pairs in 5 plays
    decided = Counter(p[9] for p in MB_A_PAIRS)
    assert (decided["joker"], decided["ban"], decided["ban pair"]) == (3, 2, 2)
    # The play is the unit (a play's pairs share its deal). Per play 0-4: pairs 3, 3, 2, 2, 2; joker pairs 0, 0, 2,
    # 0, 1; ban-decided pairs 1, 1, 0, 0, 0.
    pairs = [sum(p[0] == play for p in MB_A_PAIRS) for play in range(5)]
    jokers = [sum(p[0] == play and p[9] == "joker" for p in MB_A_PAIRS) for play in range(5)]
    bans = [sum(p[0] == play and p[9] == "ban" for p in MB_A_PAIRS) for play in range(5)]
    assert (pairs, jokers, bans) == ([3, 3, 2, 2, 2], [0, 0, 2, 0, 1], [1, 1, 0, 0, 0])
    # Jokers: R = 1/4, the residuals k - R m are -3/4, -3/4, 3/2, -1/2, 1/2 (squares summing to 3.875) over 12 pairs:
    # per-play variance 3.875 / 12^2, effective pairs 0.1875 / that = 6.97.
    joker_pairs = 0.1875 / (3.875 / 144)
    assert clustered_share_interval(jokers, pairs) == close(wilson(0.25 * joker_pairs, joker_pairs))
    joker_lo, joker_hi = clustered_share_interval(jokers, pairs)
    ban_lo, ban_hi = clustered_share_interval(bans, pairs)
    assert (ban_lo, ban_hi) != close(wilson(2, n))  # not the pairs as if independent
    expected = {
        "game": "mauerbruch", "run_id": "mb_a", "n_pairs": 12, "n_plays": 5,
        "double_share": 7 / 12,
        "joker_share": 3 / 12, "joker_share_lo": joker_lo, "joker_share_hi": joker_hi,
        "ban_pair_share": 2 / 12,
        "ban_decided_share": 2 / 12, "ban_decided_share_lo": ban_lo, "ban_decided_share_hi": ban_hi,
        "ban_in_force_share": 8 / 12,  # pairs taken with ban2 or ban5 set
        "swap_share": 2 / 12,
    }
    assert sum(p[5] == "double" for p in MB_A_PAIRS) == 7 and sum(p[6] or p[7] for p in MB_A_PAIRS) == 8
    assert sum(p[8] for p in MB_A_PAIRS) == 2
    assert len(deciders.columns) == 14
    assert_columns(row(deciders, run_id="mb_a"), expected)


# --- 2. the shared game length ----------------------------------------------------------------------------

def test_game_length_quantiles_and_mean(marts):
    length = marts["mart_game_length"]
    long = row(length, game="mauerbruch", run_id="mb_long")
    # Read off the cumulative counts 3, 4, 15, 30, 45, 57, 59, 60 at 3, 15, 30, 45 and 57 of the 60 plays.
    assert [long[f"{q}_turns"] for q in QUANTILES] == [10, 12, 13, 14, 15]
    assert (long["min_turns"], long["max_turns"]) == (10, 30)
    turns = [t for t, count in MB_LONG_TURNS.items() for _ in range(count)]
    a_turns = [p[5] for p in MB_A]
    assert sorted(a_turns) == [7, 9, 12, 15, 20]
    mb_a = row(length, game="mauerbruch", run_id="mb_a")
    assert [mb_a[f"{q}_turns"] for q in QUANTILES] == [7, 9, 12, 15, 20]  # the 1st, 2nd, ..., 5th of five
    for run_id, values in (("mb_long", turns), ("mb_a", a_turns), ("mb_b", [5])):
        lo, hi = mean_interval(values)
        expected = {
            "game": "mauerbruch", "run_id": run_id, "n_plays": len(values), "mean_turns": float(np.mean(values)),
            "mean_turns_lo": lo, "mean_turns_hi": hi, "sd_turns": sample_sd(values),
            "min_turns": min(values), "max_turns": max(values),
        } | {f"{q}_turns": quantile_disc(values, percent) for q, percent in QUANTILES.items()}
        assert_columns(row(length, game="mauerbruch", run_id=run_id), expected)
    # NumPy's inverted-CDF quantile is the same rule.
    assert [quantile_disc(turns, p) for p in QUANTILES.values()] == [
        int(np.quantile(turns, p / 100, method="inverted_cdf")) for p in QUANTILES.values()]
    # Die Mauer's run: 20 plays of 8, 9, ..., 27 Baurunden.
    mauer = row(length, game="mauer", run_id="mauer_a")
    assert [mauer[f"{q}_turns"] for q in QUANTILES] == [8, 12, 17, 22, 26]
    assert mauer["sd_turns"] == close(float(np.std(np.arange(8, 28), ddof=1)))


# --- 3. the shared run balance ----------------------------------------------------------------------------

BALANCE = ("balance", "balance_lo", "balance_hi")


def expected_balance(game: str, run_id: str, winners: list[list[int]], players: int, completed: list[bool],
                     turns: list[int]) -> dict:
    """Every column of mart_run_balance but balance (a redraw: assert_balance checks what can be checked of it)."""
    n = len(winners)
    table = shares_of(winners, players)
    by_seat = [[play[seat] for play in table] for seat in range(players)]
    fair = Fraction(1, players)
    means = [sum(x) / n for x in by_seat]
    lo, hi = share_interval(by_seat[0])
    distance = [abs(m - fair) for m in means]
    largest = distance.index(max(distance))  # index(): the lowest seat on a tie
    p_holm = holm([share_p(x, 1 / players) for x in by_seat])
    statistic, dof, _ = seat_test(table)
    return {
        "game": game, "run_id": run_id, "players": players, "n_plays": n,
        "seat0_win_share": float(means[0]), "seat0_win_share_lo": lo, "seat0_win_share_hi": hi,
        "seat0_advantage": float(means[0] - fair), "seat0_advantage_lo": lo - 1 / players,
        "seat0_advantage_hi": hi - 1 / players,
        "largest_seat": largest, "largest_advantage": float(means[largest] - fair), "largest_p_holm": p_holm[largest],
        "seat_test_statistic": statistic, "seat_test_dof": dof,
        "seat_test_p": None if statistic is None else chi2_sf(statistic, dof),
        "completion_rate": sum(completed) / n, "incomplete_plays": n - sum(completed),
        "tie_rate": sum(len(w) > 1 for w in winners) / n, "mean_turns": float(np.mean(turns)),
    }


def assert_run_balance(got: dict, expected: dict, winners: list[list[int]], players: int) -> None:
    assert_columns({k: v for k, v in got.items() if k not in BALANCE}, expected)
    if len(winners) < 2:
        assert [got[k] for k in BALANCE] == [None] * 3
    else:
        assert_balance(got, shares_of(winners, players))


def test_run_balance_by_hand(marts):
    balance = marts["mart_run_balance"]
    a = row(balance, run_id="mb_a")
    # Win shares by seat: 1 + 1/2 (plays 0, 4), 1/2 + 1 + 1/2 (plays 1, 2, 4), 1/2 + 1 (plays 1, 3): 0.3, 0.4, 0.3
    # of 5. Seat 1 lies farthest from the fair share, 1/15 above it.
    assert (a["seat0_win_share"], a["seat0_advantage"]) == close((1.5 / 5, 1.5 / 5 - 1 / 3))
    assert (a["largest_seat"], a["largest_advantage"]) == (1, close(0.4 - 1 / 3))
    # The seat test, solved in fractions: T = 5 d' S+ d = 2/13 on 2 degrees of freedom (every play has a winner).
    assert (a["seat_test_statistic"], a["seat_test_dof"], a["seat_test_p"]) == (
        close(2 / 13), 2, close(math.exp(-1 / 13)))
    assert (a["tie_rate"], a["completion_rate"], a["incomplete_plays"]) == (0.4, 0.6, 2)
    # mb_long: seats 0 and 1 win 2.5 of every 6 plays' shares, seat 2 one, seat 3 none: seat 3 lies farthest from
    # the fair share (1/4 below); T = 60 on 3 degrees of freedom. The gap of 5/12 is far beyond the noise of 60
    # plays: balance is below 1, and no lower than 1 - 5/12.
    long = row(balance, run_id="mb_long")
    assert (long["largest_seat"], long["largest_advantage"]) == (3, -0.25)
    assert (long["seat_test_statistic"], long["seat_test_dof"]) == (close(60.0), 3)
    assert 1 - 5 / 12 <= long["balance"] < long["balance_hi"] < 1
    assert (long["tie_rate"], long["completion_rate"]) == close((10 / 60, 56 / 60))
    assert long["seat0_advantage"] == close((20 + 10 / 2) / 60 - 1 / 4)
    # mb_b: one play, both seats won: the shares sit at the fair share, S is 0: no test, no balance.
    b = row(balance, run_id="mb_b")
    assert (b["seat_test_statistic"], b["seat_test_dof"], b["seat_test_p"], b["tie_rate"]) == (None, 0, None, 1)
    assert (b["balance"], b["largest_seat"], b["largest_advantage"], b["largest_p_holm"]) == (None, 0, 0, 1)

    for run_id, (plays, _) in MB_RUNS.items():
        winners = [winners_of(p[6]) for p in plays]
        players = len(plays[0][6])
        expected = expected_balance("mauerbruch", run_id, winners, players, [p[0] == "broken" for p in plays],
                                    [p[5] for p in plays])
        assert_run_balance(row(balance, run_id=run_id), expected, winners, players)
    rows = mauer_seat_plays()
    mauer_winners = []
    for play in range(len(MAUER_MATCHES) * ROUNDS):
        by_seat = {r["seat"]: r["penalty"] for r in rows if r["play_index"] == play}
        mauer_winners.append(sorted(s for s, p in by_seat.items() if p == min(by_seat.values())))
    assert_run_balance(row(balance, run_id="mauer_a"),
                       expected_balance("mauer", "mauer_a", mauer_winners, 3, [True] * 20, list(range(8, 28))),
                       mauer_winners, 3)


def test_the_closed_form_chi_square_tail_agrees_with_scipy():
    """A second opinion on the test's own chi-square tail (the seat test's p; the marts compute theirs with
    SciPy)."""
    for dof in (1, 2, 3):
        for x in (0.0, 0.3, 1.7, 4.2, 11.0):
            assert chi2_sf(x, dof) == close(float(stats.chi2.sf(x, dof)))


# --- 4. Die Mauer's penalty marts -------------------------------------------------------------------------

def penalty_stats(penalties: list[int]) -> dict:
    x = np.asarray(penalties)
    lo, hi = mean_interval(x)
    return {"mean_penalty": float(x.mean()), "mean_penalty_lo": lo, "mean_penalty_hi": hi,
            "sd_penalty": float(np.std(x, ddof=1)), "max_penalty": int(x.max()),
            "share_zero": float(np.mean(x == 0))} | {
        f"{q}_penalty": int(np.quantile(x, p / 100, method="inverted_cdf")) for q, p in QUANTILES.items()}


def test_mauer_penalties_by_seat(marts):
    rows = mauer_seat_plays()
    by_seat = marts["mart_mauer_penalties_by_seat"]
    assert by_seat.height == 3
    # Seat 1: table position 1 in round 0, position 2 in round 1: random in every play.
    one = [r["penalty"] for r in rows if r["seat"] == 1]
    assert one == [5, 6, 4, 2, 2, 9, 8, 0, 0, 3, 6, 4, 0, 1, 3, 8, 11, 0, 1, 6]
    assert sorted(one) == [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 6, 8, 8, 9, 11]
    seat1 = row(by_seat, seat=1)
    # 1st, 5th, 10th, 15th and 19th of the 20 sorted penalties.
    assert [seat1[f"{q}_penalty"] for q in QUANTILES] == [0, 1, 3, 6, 9]
    assert (seat1["policy"], seat1["n_plays"], seat1["max_penalty"], seat1["share_zero"]) == ("random", 20, 11, 0.2)
    assert seat1["mean_penalty"] == close(79 / 20)
    for seat in range(3):
        penalties = [r["penalty"] for r in rows if r["seat"] == seat]
        expected = {"game": "mauer", "run_id": "mauer_a", "seat": seat, "policy": "random" if seat == 1 else "mixed",
                    "n_plays": 20} | penalty_stats(penalties)
        assert_columns(row(by_seat, seat=seat), expected)


def test_mauer_penalties_by_policy(marts):
    rows = mauer_seat_plays()
    by_policy = marts["mart_mauer_penalties_by_policy"]
    assert sorted(by_policy["policy_spec"]) == ["heavy", "random"]
    heavy = [r["penalty"] for r in rows if r["policy"] == "heavy"]
    assert heavy == [0, 3, 0, 0, 2, 1, 0, 5, 4, 0, 1, 7, 0, 2, 6, 0, 0, 3, 9, 0]
    # Sorted: nine zeros, then 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 9: the 1st, 5th, 10th, 15th and 19th are 0, 0, 1, 3, 7.
    heavy_row = row(by_policy, policy_spec="heavy")
    assert [heavy_row[f"{q}_penalty"] for q in QUANTILES] == [0, 0, 1, 3, 7]
    assert (heavy_row["share_zero"], heavy_row["n_plays"], heavy_row["max_penalty"]) == (9 / 20, 20, 9)
    for policy, positions in (("heavy", 1), ("random", 2)):
        penalties = [r["penalty"] for r in rows if r["policy"] == policy]
        expected = {"game": "mauer", "run_id": "mauer_a", "policy_spec": policy, "policy": policy,
                    "n_seat_plays": len(penalties), "n_plays": len(penalties) // positions} | penalty_stats(penalties)
        assert expected["n_plays"] == 20
        assert_columns(row(by_policy, policy_spec=policy), expected)


def test_mauer_penalty_hist(marts):
    rows = mauer_seat_plays()
    hist = marts["mart_mauer_penalty_hist"]
    counts = Counter((r["seat"], r["policy"], r["penalty"]) for r in rows)
    plays = Counter((r["seat"], r["policy"]) for r in rows)
    assert plays == {(0, "heavy"): 10, (0, "random"): 10, (1, "random"): 20, (2, "random"): 10, (2, "heavy"): 10}
    assert hist.height == len(counts)
    for (seat, policy, penalty), k in counts.items():
        assert_columns(row(hist, seat=seat, policy=policy, penalty=penalty), {
            "game": "mauer", "run_id": "mauer_a", "seat": seat, "policy": policy, "penalty": penalty,
            "n_seat_plays_with_penalty": k, "n_plays": plays[seat, policy], "share": k / plays[seat, policy]})
    # Seat 0 as heavy (round 0): penalties 0, 0, 2, 0, 4, 1, 0, 6, 0, 9.
    assert row(hist, seat=0, policy="heavy", penalty=0)["share"] == 0.5


def expected_pair(x_a: list[int], x_b: list[int], unit_mean: float) -> dict:
    """A pair compared unit by unit: b - a per unit, its mean with mean -+ 1.96 sd / sqrt(n) and -+ 1.6449 (the 90%
    interval of TOST), the normal two-sided p, and the margin: 1% of the mean a seat (position) of the run."""
    d = np.asarray(x_b, dtype=float) - np.asarray(x_a, dtype=float)
    n, mean, sd = len(d), float(d.mean()), float(np.std(d, ddof=1))
    se = sd / math.sqrt(n)
    z90 = float(stats.norm.ppf(0.95))
    return {"n_units": n, "mean_a": float(np.mean(x_a)), "mean_b": float(np.mean(x_b)), "difference": mean,
            "difference_lo": mean - Z * se, "difference_hi": mean + Z * se, "difference_lo90": mean - z90 * se,
            "difference_hi90": mean + z90 * se, "p_value": math.erfc(abs(mean) / se / math.sqrt(2)),
            "margin": 0.01 * unit_mean,
            "equivalent": -0.01 * unit_mean < mean - z90 * se and mean + z90 * se < 0.01 * unit_mean}


def test_mauer_pair_differences(marts):
    """Every pair of seats compared play by play and every pair of table positions match by match: the seats of a
    play share its deal, so the interval is the paired difference's over plays (matches), not two seats' apart."""
    rows = mauer_seat_plays()
    pairs = marts["mart_mauer_pair_differences"]
    assert pairs.height == 6  # three pairs of seats, three of positions
    penalty = {(r["play_index"], r["seat"]): r["penalty"] for r in rows}
    seats = {s: [penalty[play, s] for play in range(20)] for s in range(3)}
    assert seats[1] == [5, 6, 4, 2, 2, 9, 8, 0, 0, 3, 6, 4, 0, 1, 3, 8, 11, 0, 1, 6]
    seat_mean = sum(r["penalty"] for r in rows) / 60
    positions = {p: match_totals(p) for p in range(3)}
    position_mean = sum(map(sum, positions.values())) / 30
    # Seats 0 and 1: the paired differences 1 - 0 have mean 79/20 - 60/20 = 0.95 (seat 0 sums 60 over the 20 plays).
    assert sum(seats[0]) == 60 and row(pairs, compared="seat", a=0, b=1)["difference"] == close(0.95)
    for compared, unit, values, mean in (("seat", "play", seats, seat_mean),
                                         ("position", "match", positions, position_mean)):
        for a, b in ((0, 1), (0, 2), (1, 2)):
            expected = {"game": "mauer", "run_id": "mauer_a", "compared": compared, "unit": unit, "a": a, "b": b,
                        "n_plays": 20} | expected_pair(values[a], values[b], mean)
            assert_columns(row(pairs, compared=compared, a=a, b=b), expected)
    # With 20 plays nothing is shown within 1% of the mean.
    assert not pairs["equivalent"].any()


# --- 5. Die Mauer's match totals (a Polars model with a seeded bootstrap) ---------------------------------

def match_totals(player: int) -> list[int]:
    return [sum(by_position[player] for by_position in match) for match in MAUER_MATCHES]


def match_shares(player: int) -> list[Fraction]:
    """The position's win share of each match: 1/winners when its total is the lowest (a tie splits the win), else
    0."""
    shares = []
    for m in MAUER_MATCHES:
        totals = [sum(r[p] for r in m) for p in range(3)]
        winners = [p for p in range(3) if totals[p] == min(totals)]
        shares.append(Fraction(int(player in winners), len(winners)))
    return shares


def bootstrap_interval(totals: list[int], seed_text: str) -> tuple[float, float]:
    """The documented percentile bootstrap, re-implemented: 1,000 resamples of the n matches, each drawn as the
    counts of the distinct totals (in ascending order) from a multinomial; the generator seeded with the first
    8 bytes (little-endian) of the SHA-256 of "run_id|player|policy"; the 2.5% and 97.5% quantiles of the
    resampled means (NumPy's default, linear)."""
    values, counts = np.unique(np.asarray(totals), return_counts=True)
    n = len(totals)
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(seed_text.encode()).digest()[:8], "little"))
    means = rng.multinomial(n, counts / n, size=1000) @ values.astype(float) / n
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def test_mauer_match_totals(marts):
    totals = marts["mart_mauer_match_totals"]
    assert totals.height == 3
    # Position 0's totals: 3, 0, 3, 5, 4, 8, 2, 6, 3, 9; sorted 0, 2, 3, 3, 3, 4, 5, 6, 8, 9.
    p0 = row(totals, player=0)
    assert (p0["mean_total"], p0["median_total"], p0["share_zero"]) == (4.3, 3.5, 0.1)
    # It wins matches 0, 1 and 6 alone and ties match 8 with position 2: a win share of 3.5 of 10 (a win rate, the
    # tie counted whole, would read 4 of 10). Position 1 wins four alone (0.4), position 2 two and the tie (0.25).
    assert [row(totals, player=p)["match_win_share"] for p in range(3)] == [0.35, 0.4, 0.25]
    # The model's quantiles follow NumPy's "lower" rule (the value at 0-based floor((n - 1) q)), not quantile_disc
    # as the other marts: of 10 totals the 75% quantile is the 7th, 5 (quantile_disc: the 8th, 6) and the 95%
    # quantile the 9th, 8 (quantile_disc: the 10th, 9).
    assert (p0["p05_total"], p0["p25_total"], p0["p75_total"], p0["p95_total"]) == (0, 3, 5, 8)
    assert [quantile_disc(match_totals(0), p) for p in (5, 25, 75, 95)] == [0, 3, 6, 9]
    for player in range(3):
        x = match_totals(player)
        policy = MAUER_POLICIES[player]
        lo, hi = bootstrap_interval(x, f"mauer_a|{player}|{policy}")
        expected = {
            "game": "mauer", "run_id": "mauer_a", "player": player, "policy": policy, "n_matches": 10,
            "rounds": 2, "n_plays": 20, "mean_total": float(np.mean(x)), "mean_total_lo": lo, "mean_total_hi": hi,
            "median_total": float(np.median(x)), "share_zero": float(np.mean(np.asarray(x) == 0)),
            "match_win_share": float(sum(match_shares(player)) / 10),
            "match_win_share_lo": share_interval(match_shares(player))[0],
            "match_win_share_hi": share_interval(match_shares(player))[1],
        } | {f"{q}_total": int(np.quantile(x, p / 100, method="lower")) for q, p in QUANTILES.items() if q != "median"}
        assert_columns(row(totals, player=player), expected)
        assert lo < expected["mean_total"] < hi


def test_mauer_match_totals_are_the_same_on_a_second_build(marts, tmp_path):
    """Seeded: the same lake gives the same intervals, to the bit, in a build of its own (no cache shared)."""
    write_mauer_run(tmp_path / "lake", "mauer_a")
    result = build(tmp_path / "lake", tmp_path / "marts", tmp_path / "simlib.duckdb")
    assert result.test_failures == []
    again = pl.read_parquet(tmp_path / "marts" / "mart_mauer_match_totals.parquet")
    assert again.sort("player").equals(marts["mart_mauer_match_totals"].sort("player"))
