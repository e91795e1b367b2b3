"""Every play counted once: the pooled marts over a hand-made Die Mauer lake whose runs overlap, checked against
counts, means and intervals worked out here from the rows themselves.

The lake, 3 players (penalties by play and seat; the lowest penalty wins, ties share):

    set-up "3 random players"
      A  seed 1, 4 plays          [0 5 10] [3 0 6] [0 4 0] [0 15 2]
      B  seed 1, 2 plays, events  A's first two plays: a prefix of A, not counted again
      C  seed 2, 3 plays          [4 1 1] [9 2 0] [1 1 7]
    set-up "3 random players, tower 12 penalty points"
      D  seed 1, 2 plays          [0 2 1] [5 0 0]      (never pooled with A)
    pairing "reader against 2 random" (each run its own set-up: the reader's seat differs; single rounds)
      R0 reader in seat 0, seed 1 [0 3 9] [2 0 4]
      R1 reader in seat 1, seed 1 [6 0 1] [0 5 5]
      R1' R1's first play again   (a prefix of R1)
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simlib.analysis.pipeline import build

from lake_fixture import seats_from_penalties, write_run

A = [[0, 5, 10], [3, 0, 6], [0, 4, 0], [0, 15, 2]]
C = [[4, 1, 1], [9, 2, 0], [1, 1, 7]]
D = [[0, 2, 1], [5, 0, 0]]
R0 = [[0, 3, 9], [2, 0, 4]]
R1 = [[6, 0, 1], [0, 5, 5]]
Z = 1.96


def wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def normal(values):
    values = np.asarray(values, dtype=float)
    half = Z * values.std(ddof=1) / math.sqrt(len(values))
    return values.mean(), values.mean() - half, values.mean() + half


def shares(penalties, seat):
    """The seat's win share in each play: 1/(number of winners) where it has the lowest penalty."""
    return [(row[seat] == min(row)) / row.count(min(row)) for row in penalties]


def margins(penalties, seat):
    """The seat's score (minus its penalty) minus the other seats' mean score, per play."""
    return [-row[seat] - np.mean([-p for s, p in enumerate(row) if s != seat]) for row in penalties]


@pytest.fixture(scope="module")
def marts(tmp_path_factory):
    root = tmp_path_factory.mktemp("pooling")
    lake = root / "lake"

    def put(run_id, penalties, policies=("random",) * 3, **kwargs):
        games, seats = seats_from_penalties(penalties)
        write_run(lake, run_id, 3, list(policies), games, seats, **kwargs)

    put("run_a", A)
    put("run_b", A[:2], events=[])
    put("run_c", C, seed=2)
    put("run_d", D, options={"penalty_tower": 12})
    put("run_r0", R0, policies=("reader", "random", "random"))
    put("run_r1", R1, policies=("random", "reader", "random"))
    put("run_r1_prefix", R1[:1], policies=("random", "reader", "random"))
    result = build(lake, root / "marts", root / "simlib.duckdb")
    assert result.test_failures == []
    return {p.stem: pl.read_parquet(p) for p in (root / "marts").glob("*.parquet")}


def one(frame: pl.DataFrame, **where) -> dict:
    for key, value in where.items():
        frame = frame.filter(pl.col(key) == value)
    assert frame.height == 1, where
    return frame.row(0, named=True)


def test_each_set_up_and_seed_counts_its_longest_run_once(marts):
    random = one(marts["mart_seat_advantage"], setup_label="3 random players", seat=0)
    assert (random["n_runs"], random["n_runs_repeated"], random["n_plays"]) == (2, 1, len(A) + len(C))
    tower = one(marts["mart_seat_advantage"], setup_label="3 random players, tower 12 penalty points", seat=0)
    assert (tower["n_runs"], tower["n_runs_repeated"], tower["n_plays"]) == (1, 0, len(D))
    assert tower["options"] == "penalty_tower=12"
    # The fixture's runs are single rounds (rounds = 1, the default is 5): that cannot change a play at a table of
    # one policy, so it is no part of those set-ups, but it is of the reader's (who sits where in later rounds).
    labels = set(marts["mart_seat_advantage"]["setup_label"])
    assert labels == {"3 random players", "3 random players, tower 12 penalty points",
                      "reader in seat 0 against 2 random, single rounds, not matches",
                      "reader in seat 1 against 2 random, single rounds, not matches"}


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_seat_advantage_by_hand(marts, seat):
    plays = A + C  # B is A's prefix: counted once; D is another set-up
    got = one(marts["mart_seat_advantage"], setup_label="3 random players", seat=seat)
    won = [row[seat] == min(row) for row in plays]
    assert got["wins"] == sum(won)
    assert (got["win_rate"], got["win_rate_lo"], got["win_rate_hi"]) == pytest.approx(
        (sum(won) / len(plays), *wilson(sum(won), len(plays))))
    # The win share's interval is Wilson's with the summed shares as successes (a tie's fractions count in part):
    # A's third play and C's first are ties, so some seats' shares are fractional.
    share = sum(shares(plays, seat)) / len(plays)
    lo, hi = wilson(sum(shares(plays, seat)), len(plays))
    assert (got["win_share"], got["win_share_lo"], got["win_share_hi"]) == pytest.approx((share, lo, hi))
    assert (got["advantage"], got["advantage_lo"], got["advantage_hi"]) == pytest.approx(
        (share - 1 / 3, lo - 1 / 3, hi - 1 / 3))
    assert (got["mean_score"], got["mean_score_lo"], got["mean_score_hi"]) == pytest.approx(
        normal([-row[seat] for row in plays]))
    assert (got["margin"], got["margin_lo"], got["margin_hi"]) == pytest.approx(normal(margins(plays, seat)))


def test_a_seat_that_never_wins_keeps_an_honest_interval(marts):
    # R0's seat 2 (penalties 9 and 4) wins neither play: a normal interval would be 0 to 0; Wilson's for 0 of 2
    # reaches z^2 / (n + z^2) = 3.8416 / 5.8416.
    got = one(marts["mart_seat_advantage"], setup_label="reader in seat 0 against 2 random, single rounds, not matches",
              seat=2)
    assert (got["n_plays"], got["wins"], got["win_share"]) == (2, 0, 0.0)
    assert got["win_share_lo"] == pytest.approx(0.0, abs=1e-12)
    assert got["win_share_hi"] == pytest.approx(Z * Z / (2 + Z * Z))
    assert (got["advantage_lo"], got["advantage_hi"]) == pytest.approx((-1 / 3, Z * Z / (2 + Z * Z) - 1 / 3))


def test_game_length_by_hand(marts):
    # seats_from_penalties gives play i 7 + 2i turns: A's plays last 7, 9, 11, 13 turns, C's 7, 9, 11.
    turns = np.array([7, 9, 11, 13, 7, 9, 11])
    got = one(marts["mart_setup_length"], setup_label="3 random players")
    assert (got["n_runs"], got["n_plays"]) == (2, 7)
    assert (got["mean_turns"], got["mean_turns_lo"], got["mean_turns_hi"]) == pytest.approx(normal(turns))
    assert got["sd_turns"] == pytest.approx(turns.std(ddof=1))
    for column, q in [("p05_turns", 0.05), ("p25_turns", 0.25), ("median_turns", 0.5), ("p75_turns", 0.75),
                      ("p95_turns", 0.95)]:
        assert got[column] == np.quantile(turns, q, method="inverted_cdf"), column
    assert (got["min_turns"], got["max_turns"]) == (7, 13)
    hist = marts["mart_setup_length_hist"].filter(pl.col("setup_label") == "3 random players").sort("turns")
    assert hist["turns"].to_list() == [7, 9, 11, 13] and hist["n_plays_with_turns"].to_list() == [2, 2, 2, 1]
    assert hist["share"].to_list() == pytest.approx([2 / 7, 2 / 7, 2 / 7, 1 / 7])


def test_policy_strength_pools_seats_of_one_pairing_and_counts_each_play_once(marts):
    got = one(marts["mart_policy_strength"], pairing_label="reader against 2 random, single rounds, not matches")
    reader = [row[0] for row in R0] + [row[1] for row in R1]  # R1' is R1's first play: not again
    won = [row[0] == min(row) for row in R0] + [row[1] == min(row) for row in R1]
    assert (got["n_runs"], got["n_runs_repeated"], got["n_plays"]) == (2, 1, 4)
    assert (got["win_rate"], got["win_rate_lo"], got["win_rate_hi"]) == pytest.approx(
        (sum(won) / 4, *wilson(sum(won), 4)))
    assert (got["mean_score"], got["mean_score_lo"], got["mean_score_hi"]) == pytest.approx(
        normal([-p for p in reader]))
    assert (got["seats_covered"], got["seat_balance"]) == (2, 1.0)
    same = one(marts["mart_policy_strength"], pairing_label="3 random players")
    # every seat of the distinct plays A + C: 7 plays x 3 seats; B's two plays are not counted again
    assert (same["n_runs"], same["n_runs_repeated"], same["n_plays"]) == (2, 1, 21)
    wins = sum(row[s] == min(row) for row in A + C for s in range(3))
    assert same["win_rate"] == pytest.approx(wins / 21)
    tower = one(marts["mart_policy_strength"], pairing_label="3 random players, tower 12 penalty points")
    assert (tower["n_runs"], tower["n_plays"], tower["options"]) == (1, 6, "penalty_tower=12")


@pytest.mark.parametrize("name", ["mauer", "mauerbruch", "catan", "mauerspechte", "sevensteps", "burgenland"])
def test_a_shorter_run_at_the_same_seed_replays_the_longer_runs_first_plays(name):
    """What counting each play once rests on: a play depends on its set-up, seed and index only, not on how many
    plays its run has nor on --events."""
    from simlib.core.config import RunConfig
    from simlib.core.registry import get_game

    game = get_game(name)
    block = 5 if name == "mauer" else 1  # Die Mauer's plays come in matches of 5 rounds
    short = RunConfig.build(game, players=3, policies=["random"], plays=2 * block, seed=9)
    long = RunConfig.build(game, players=3, policies=["random"], plays=6 * block, seed=9, events=True)
    first = game.simulate(short, 0, 2 * block, events=False)
    again = game.simulate(long, 0, 6 * block, events=True)
    for table in ("games", "seats"):
        head = again[table].filter(pl.Series(again[table]["play_index"].to_numpy() < 2 * block).to_arrow())
        assert head.to_pylist() == first[table].to_pylist(), table
