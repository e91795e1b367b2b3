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

The win shares, intervals and tests are worked out here from docs/statistics.md (tests/support/mart_checks.py),
never with simlib.analysis.estimators: a mistake the marts and their twins share must not hide.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlib.analysis.pipeline import build

from support.lake_fixture import seats_from_penalties, write_run
from support.mart_checks import assert_balance, effective_n, holm, seat_test, share_interval, share_p, shares_of

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


def winners(penalties):
    """Each play's winners: the seats with the lowest penalty."""
    return [[s for s, p in enumerate(row) if p == min(row)] for row in penalties]


def shares(penalties, seat):
    """The seat's win share in each play: 1/(number of winners) where it has the lowest penalty (exact)."""
    return [play[seat] for play in shares_of(winners(penalties), 3)]


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
    tied = [row[seat] == min(row) and row.count(min(row)) > 1 for row in plays]
    assert (got["wins"], got["shared_wins"]) == (sum(won), sum(tied))
    # The win rate (a shared win counting for each winner) is kept beside the shared wins: plain Wilson.
    assert (got["win_rate"], got["win_rate_lo"], got["win_rate_hi"]) == pytest.approx(
        (sum(won) / len(plays), *wilson(sum(won), len(plays))))
    # The estimand is the win share: A's third play and C's first and third are ties, so shares are fractional
    # and vary less than wins: Wilson's interval at the effective number of plays, n p(1-p) / v.
    share = float(sum(shares(plays, seat)) / len(plays))
    lo, hi = share_interval(shares(plays, seat))
    assert (got["n_plays"], got["win_share"], got["win_share_lo"], got["win_share_hi"]) == pytest.approx(
        (7, share, lo, hi), rel=1e-12)
    assert (got["fair_share"], got["advantage"], got["advantage_lo"], got["advantage_hi"]) == pytest.approx(
        (1 / 3, share - 1 / 3, lo - 1 / 3, hi - 1 / 3), rel=1e-12)
    # The score test the interval inverts, and Holm over the set-up's three seats.
    p_values = [share_p(shares(plays, s), 1 / 3) for s in range(3)]
    assert (got["p_value"], got["p_holm"]) == pytest.approx((p_values[seat], holm(p_values)[seat]), rel=1e-12)
    assert (got["mean_score"], got["mean_score_lo"], got["mean_score_hi"]) == pytest.approx(
        normal([-row[seat] for row in plays]))
    assert (got["margin"], got["margin_lo"], got["margin_hi"]) == pytest.approx(normal(margins(plays, seat)))


def test_the_worked_shares_of_the_random_set_up():
    """The reference's arithmetic on A + C, by hand: seat 0 wins plays A1, A4 alone and shares A3 and C3 with one
    other seat: shares 1, 0, 1/2, 1, 0, 0, 1/2, so p = 3/7, the mean of squares 2.5/7 and v = 2.5/7 - 9/49 =
    8.5/49, against p(1-p) = 12/49 for wins: n_eff = 7 x 12 / 8.5 = 168/17, more than the 7 plays."""
    plays = A + C
    assert shares(plays, 0) == [1, 0, 0.5, 1, 0, 0, 0.5]
    assert effective_n(shares(plays, 0)) == pytest.approx(168 / 17, rel=1e-15)
    assert [sum(shares(plays, s)) for s in range(3)] == [3, 2, 2]
    # Seat 2 wins C2 alone and shares A3 and C1: 1/2, 1/2, 1 of 7; its mean of squares 1.5/7.
    assert effective_n(shares(plays, 2)) == pytest.approx(7 * (2 / 7) * (5 / 7) / (1.5 / 7 - 4 / 49), rel=1e-15)
    # Without ties n_eff is n: R0's seat 0 wins once alone in two plays.
    assert effective_n(shares(R0, 0)) == 2.0


def test_a_seat_that_never_wins_keeps_an_honest_interval(marts):
    # R0's seat 2 (penalties 9 and 4) wins neither play: a normal interval would be 0 to 0; Wilson's for 0 of 2
    # (nothing varies: n_eff = n = 2) reaches z^2 / (n + z^2) = 3.8416 / 5.8416.
    got = one(marts["mart_seat_advantage"], setup_label="reader in seat 0 against 2 random, single rounds, not matches",
              seat=2)
    assert (got["n_plays"], got["wins"], got["win_share"]) == (2, 0, 0.0)
    assert got["win_share_lo"] == pytest.approx(0.0, abs=1e-12)
    assert got["win_share_hi"] == pytest.approx(Z * Z / (2 + Z * Z))
    assert (got["advantage_lo"], got["advantage_hi"]) == pytest.approx((-1 / 3, Z * Z / (2 + Z * Z) - 1 / 3))
    # Its score test: z = (0 - 1/3) / sqrt(1/3 x 2/3 / 2) = -1, so p = 2 (1 - Phi(1)) = 0.3173.
    assert got["p_value"] == pytest.approx(math.erfc(1 / math.sqrt(2)), rel=1e-12)
    assert got["p_value"] == pytest.approx(0.3173, abs=1e-4)


def test_setup_balance_by_hand(marts):
    """mart_setup_balance over A + C (B not again): seat 0's share and interval, the seat farthest from fair, the
    seat test and balance, from the plays' shares."""
    plays = A + C
    table = shares_of(winners(plays), 3)
    got = one(marts["mart_setup_balance"], setup_label="3 random players")
    assert (got["n_runs"], got["n_plays"], got["players"], got["tie_rate"]) == (2, 7, 3, pytest.approx(3 / 7))
    # Seat 0 (3/7) lies 2/21 above the fair share, seats 1 and 2 (2/7) 1/21 below it.
    p_values = [share_p(shares(plays, s), 1 / 3) for s in range(3)]
    assert (got["largest_seat"], got["largest_advantage"], got["largest_p_holm"]) == (
        0, pytest.approx(2 / 21), pytest.approx(holm(p_values)[0], rel=1e-12))
    # Every play has a winner: the shares sum to 1, so the test has players - 1 = 2 degrees of freedom.
    statistic, dof, p = seat_test(table)
    assert (got["seat_test_statistic"], got["seat_test_dof"], got["seat_test_p"]) == (
        pytest.approx(statistic, rel=1e-9), 2, pytest.approx(p, rel=1e-9))
    assert_balance(got, table)
    # The tower set-up's two plays: seat 0 wins D1 alone, seats 1 and 2 share D2. Their deviations from the fair
    # shares, v = (2/3, -1/3, -1/3) and -v/2, lie on one line: S = (1 + 1/4) / 2 v v' has rank 1, d = v/4, and
    # T = 2 (1/16) / (5/8) = 0.2 on 1 degree of freedom.
    tower = one(marts["mart_setup_balance"], setup_label="3 random players, tower 12 penalty points")
    assert (tower["n_runs"], tower["n_plays"], tower["options"]) == (1, 2, "penalty_tower=12")
    assert seat_test(shares_of(winners(D), 3)) == (pytest.approx(0.2), 1, pytest.approx(stats.chi2.sf(0.2, 1)))
    assert (tower["seat_test_statistic"], tower["seat_test_dof"], tower["seat_test_p"]) == (
        pytest.approx(0.2, rel=1e-9), 1, pytest.approx(stats.chi2.sf(0.2, 1), rel=1e-9))
    assert_balance(tower, shares_of(winners(D), 3))
    # Seat 0's interval: Wilson's at the effective number of plays (168/17), as in mart_seat_advantage.
    lo, hi = share_interval(shares(plays, 0))
    assert (got["seat0_win_share"], got["seat0_win_share_lo"], got["seat0_win_share_hi"]) == pytest.approx(
        (3 / 7, lo, hi), rel=1e-12)
    assert (got["seat0_advantage"], got["seat0_advantage_lo"], got["seat0_advantage_hi"]) == pytest.approx(
        (3 / 7 - 1 / 3, lo - 1 / 3, hi - 1 / 3), rel=1e-12)


def test_a_set_ups_seat_0_reads_alike_in_the_seat_and_the_balance_marts(marts):
    """The fairness verdicts (mart_setup_balance) and the seat table (mart_seat_advantage) give seat 0 one share
    and one interval."""
    for label in sorted(set(marts["mart_setup_balance"]["setup_label"])):
        balance = one(marts["mart_setup_balance"], setup_label=label)
        seat0 = one(marts["mart_seat_advantage"], setup_label=label, seat=0)
        assert (balance["seat0_win_share"], balance["seat0_win_share_lo"], balance["seat0_win_share_hi"]) == \
            pytest.approx((seat0["win_share"], seat0["win_share_lo"], seat0["win_share_hi"]), rel=1e-12), label


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
    share = shares(R0, 0) + shares(R1, 1)  # 1, 0, 1, 0: no ties
    assert (got["n_runs"], got["n_runs_repeated"], got["n_plays"], got["seat_plays"]) == (2, 1, 4, 4)
    # The estimand: the reader's win share over plays, Wilson's interval at n_eff (no ties: n_eff = n = 4), its
    # score test against 1/3: z = (1/2 - 1/3) / sqrt(2/9 / 4) = 1/sqrt(2).
    assert (got["win_share"], got["win_share_lo"], got["win_share_hi"]) == pytest.approx(
        (0.5, *wilson(2, 4)), rel=1e-12)
    assert (got["effective_plays"], got["fair_share"], got["fair_by_construction"]) == (4, pytest.approx(1 / 3), False)
    assert got["p_value"] == pytest.approx(share_p(share, 1 / 3), rel=1e-12)
    assert got["p_value"] == pytest.approx(math.erfc(0.5), rel=1e-12)
    assert (got["win_rate"], got["win_rate_lo"], got["win_rate_hi"]) == pytest.approx(
        (sum(won) / 4, *wilson(sum(won), 4)))
    assert (got["mean_score"], got["mean_score_lo"], got["mean_score_hi"]) == pytest.approx(
        normal([-p for p in reader]))
    assert (got["seats_covered"], got["seat_balance"]) == (2, 1.0)


def test_at_a_table_of_one_policy_the_play_is_the_unit(marts):
    """Every seat is the focal policy: its share in a play is its seats' mean, exactly 1/3 whenever somebody wins,
    so nothing varies over the 7 plays of A + C (B not again); 21 seats, but 7 plays."""
    same = one(marts["mart_policy_strength"], pairing_label="3 random players")
    assert (same["n_runs"], same["n_runs_repeated"], same["n_plays"], same["seat_plays"]) == (2, 1, 7, 21)
    assert same["fair_by_construction"] is True
    assert same["win_share"] == pytest.approx(1 / 3, rel=1e-12)
    assert same["effective_plays"] == pytest.approx(7, rel=1e-12)
    assert (same["win_share_lo"], same["win_share_hi"]) == pytest.approx(wilson(7 / 3, 7), rel=1e-9)
    assert same["p_value"] == pytest.approx(1.0, abs=1e-6)
    # The win rate counts a shared win for each winner: A + C have 10 winners in 21 seats.
    wins = sum(row[s] == min(row) for row in A + C for s in range(3))
    assert (wins, same["win_rate"]) == (10, pytest.approx(10 / 21))
    # The mean score is over plays: each play's mean seat score.
    assert (same["mean_score"], same["mean_score_lo"], same["mean_score_hi"]) == pytest.approx(
        normal([-np.mean(row) for row in A + C]))
    tower = one(marts["mart_policy_strength"], pairing_label="3 random players, tower 12 penalty points")
    assert (tower["n_runs"], tower["n_plays"], tower["seat_plays"], tower["options"]) == (1, 2, 6, "penalty_tower=12")


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
