"""The skill ladder: `[[ladder]]` batch entries, and the ladder marts over a hand-made Die Mauer lake, checked
against counts, shares and intervals worked out here from the rows themselves.

Die Mauer's ladder: random, heavy, hollow, reader, search at budgets 16, 64, 256. The lake, 3 players (penalties by
play and seat; the lowest penalty wins, ties share), single rounds:

    alone    3 random:  [0 5 10] [3 0 6] [0 4 0] [0 15 2]
             3 heavy:   [2 2 5] [0 1 1] [4 3 0]
             3 reader:  [1 6 6] [5 0 2] [0 0 3] [2 4 1]
    heavy against 2 random, in each seat:    H0 [1 3 4] [0 2 2]   H1 [3 1 0] [5 2 6]   H2 [0 4 2] [6 6 6]
    reader against 2 random, seat 0 only:    [0 9 9] [0 9 9]  (not the nearest rung below: heavy was played)
    reader against 2 heavy, in each seat:    R0 [4 0 5] [0 3 3]   R1 [2 1 3] [6 0 0]   R2 [1 1 0] [3 4 5]
    search 16 against 2 reader, each seat:   S0 [0 3 3] [0 2 2]   S1 [3 0 3] [4 0 5]   S2 [2 2 0] [1 1 1]
    search 64 against 2 reader, each seat:   S0 [0 3 3] [5 0 2]   S1 [3 0 3] [0 1 4]   S2 [2 2 0] [0 1 1] [0 0 0]

Reader is Die Mauer's best heuristic: both searches' tables are the strength test (mart_ladder_strength), and
search 64 (no search 16 played against it) meets reader on the ladder too.

Shares, intervals, tests and the slope are worked out here from docs/statistics.md (tests/support/mart_checks.py),
never with simlib.analysis.estimators.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from simlib.analysis.ladder import strength_answer
from simlib.analysis.pipeline import build
from simlib.core.config import parse_policy
from simlib.core.errors import SimlibError
from simlib.core.registry import get_game
from simlib.core.setups import distinct_labels
from simlib.design.batch import read_batch

from support.lake_fixture import seats_from_penalties, write_run
from support.mart_checks import Z, assert_balance, effective_n, holm, row, share_interval, share_p_above, shares_of

GAME = get_game("mauer")
RANDOM, HEAVY, READER, SEARCH16, SEARCH64 = (str(parse_policy(p, GAME)) for p in (
    "random", "heavy", "reader", "search:budget=16", "search:budget=64"))
ALONE = {RANDOM: [[0, 5, 10], [3, 0, 6], [0, 4, 0], [0, 15, 2]],
         HEAVY: [[2, 2, 5], [0, 1, 1], [4, 3, 0]],
         READER: [[1, 6, 6], [5, 0, 2], [0, 0, 3], [2, 4, 1]]}
HEAVY_VS_RANDOM = [[[1, 3, 4], [0, 2, 2]], [[3, 1, 0], [5, 2, 6]], [[0, 4, 2], [6, 6, 6]]]
READER_VS_HEAVY = [[[4, 0, 5], [0, 3, 3]], [[2, 1, 3], [6, 0, 0]], [[1, 1, 0], [3, 4, 5]]]
SEARCH16_VS_READER = [[[0, 3, 3], [0, 2, 2]], [[3, 0, 3], [4, 0, 5]], [[2, 2, 0], [1, 1, 1]]]
SEARCH64_VS_READER = [[[0, 3, 3], [5, 0, 2]], [[3, 0, 3], [0, 1, 4]], [[2, 2, 0], [0, 1, 1], [0, 0, 0]]]
# The ladder's steps: each rung against the nearest rung below it that was played (search 64 against reader).
STEPS = {"heavy": HEAVY_VS_RANDOM, "reader": READER_VS_HEAVY, "search (budget=16)": SEARCH16_VS_READER,
         "search (budget=64)": SEARCH64_VS_READER}
LEAST_EFFECT = 0.01  # a step pays by more than 1 percentage point over the fair share


def table_shares(penalties):
    """Each play's win shares by seat (exact): 1/(number of winners) for the lowest penalties."""
    return shares_of([[s for s, p in enumerate(row) if p == min(row)] for row in penalties], 3)


def shares(penalties, seat):
    return [play[seat] for play in table_shares(penalties)]


def focal_shares(tables):
    """The focal player's share in each play, its seats in turn (one seat a play: the play is the unit)."""
    return [x for seat, plays in enumerate(tables) for x in shares(plays, seat)]


def step_p_values() -> dict[str, float]:
    """Each step's one-sided score test that the rung's share exceeds 1/3 + 1 pp, Holm-adjusted over the steps."""
    raw = {label: share_p_above(focal_shares(tables), 1 / 3 + LEAST_EFFECT) for label, tables in STEPS.items()}
    return dict(zip(raw, holm(list(raw.values()))))


def lineup(focal, field, seat):
    return [focal if s == seat else field for s in range(3)]


@pytest.fixture(scope="module")
def marts(tmp_path_factory):
    root = tmp_path_factory.mktemp("ladder")
    lake = root / "lake"

    def put(run_id, penalties, policies):
        games, seats = seats_from_penalties(penalties)
        write_run(lake, run_id, 3, policies, games, seats)

    for i, (spec, penalties) in enumerate(ALONE.items()):
        put(f"alone_{i}", penalties, [spec] * 3)
    for seat in range(3):
        put(f"heavy_{seat}", HEAVY_VS_RANDOM[seat], lineup(HEAVY, RANDOM, seat))
        put(f"reader_{seat}", READER_VS_HEAVY[seat], lineup(READER, HEAVY, seat))
        put(f"search16_{seat}", SEARCH16_VS_READER[seat], lineup(SEARCH16, READER, seat))
        put(f"search64_{seat}", SEARCH64_VS_READER[seat], lineup(SEARCH64, READER, seat))
    put("reader_random", [[0, 9, 9], [0, 9, 9]], lineup(READER, RANDOM, 0))
    result = build(lake, root / "marts", root / "simlib.duckdb")
    assert result.test_failures == []
    return {p.stem: pl.read_parquet(p) for p in (root / "marts").glob("*.parquet")}


def test_each_rung_meets_the_nearest_rung_below_that_was_played(marts):
    steps = marts["mart_ladder_head_to_head"].sort("rung")
    assert steps.select("rung_label", "below_label").rows() == [("heavy", "random"), ("reader", "heavy"),
                                                                ("search (budget=16)", "reader"),
                                                                ("search (budget=64)", "reader")]


@pytest.mark.parametrize("focal", list(STEPS))
def test_head_to_head_by_hand(marts, focal):
    share = focal_shares(STEPS[focal])
    n, w = len(share), float(sum(share) / len(share))
    got = row(marts["mart_ladder_head_to_head"], rung_label=focal)
    lo, hi = share_interval(share)
    assert (got["n_plays"], got["fair_share"]) == (n, pytest.approx(1 / 3))
    assert (got["win_share"], got["win_share_lo"], got["win_share_hi"]) == pytest.approx((w, lo, hi), rel=1e-12)
    # A step pays when its share beats 1/3 by more than 1 pp: one-sided, Holm-adjusted over the ladder's 4 steps.
    p_holm = step_p_values()
    assert (got["p_one_sided"], got["p_holm"]) == pytest.approx(
        (share_p_above(share, 1 / 3 + LEAST_EFFECT), p_holm[focal]), rel=1e-12)
    assert got["beats_below"] == (p_holm[focal] < 0.05)
    # What each player of the rung below wins, as a fraction of a fair share: (1 - w) / 2 * 3.
    assert (got["below_share_of_fair"], got["below_share_of_fair_lo"], got["below_share_of_fair_hi"]) == \
        pytest.approx(((1 - w) * 1.5, (1 - hi) * 1.5, (1 - lo) * 1.5), rel=1e-12)
    by_seat = [len(plays) for plays in STEPS[focal]]  # search 64 sat twice in seats 0 and 1, three times in seat 2
    assert (got["seats_covered"], got["seat_balance"]) == (3, pytest.approx(min(by_seat) / max(by_seat)))


def test_the_steps_worked_by_hand():
    """The reference's numbers on the fixture. Search 16 against reader wins S0's and S1's four plays and S2's first
    alone and shares S2's second three ways: shares 1, 1, 1, 1, 1, 1/3, p = 8/9, the mean of squares 23/27, so
    v = 23/27 - 64/81 = 5/81 against p(1-p) = 8/81 for wins: n_eff = 6 x 8/5 = 9.6 plays."""
    assert focal_shares(SEARCH16_VS_READER) == [1, 1, 1, 1, 1, pytest.approx(1 / 3)]
    assert effective_n(focal_shares(SEARCH16_VS_READER)) == pytest.approx(9.6, rel=1e-15)
    # Heavy against random: it wins both of H0's plays, loses H1's first and wins its second, loses H2's first and
    # shares its second, [6 6 6], three ways.
    assert focal_shares(HEAVY_VS_RANDOM) == [1, 1, 0, 1, 0, pytest.approx(1 / 3)]
    # Only search 16 (8/9 of the plays' shares) clears 1/3 + 1 pp after Holm: the skill depth is 1.
    assert [label for label, p in step_p_values().items() if p < 0.05] == ["search (budget=16)"]


@pytest.mark.parametrize("spec, label", [(RANDOM, "random"), (HEAVY, "heavy"), (READER, "reader")])
def test_balance_at_each_rung_by_hand(marts, spec, label):
    plays = ALONE[spec]
    got = row(marts["mart_ladder_balance"], rung_label=label)
    seat0 = shares(plays, 0)
    lo, hi = share_interval(seat0)
    share = float(sum(seat0) / len(plays))
    assert (got["n_plays"], got["seat0_win_share"], got["seat0_advantage"]) == pytest.approx(
        (len(plays), share, share - 1 / 3))
    assert (got["seat0_advantage_lo"], got["seat0_advantage_hi"]) == pytest.approx((lo - 1 / 3, hi - 1 / 3),
                                                                                     rel=1e-12)
    # Balance from mart_setup_balance: median-unbiased, inside its simultaneous interval, never above 1.
    assert_balance(got, table_shares(plays))
    per_play = [np.mean(row) for row in plays]  # Die Mauer's headline: penalty points per seat
    half = Z * np.std(per_play, ddof=1) / math.sqrt(len(plays))
    assert got["headline"] == "penalty points per seat"
    assert (got["headline_mean"], got["headline_mean_lo"], got["headline_mean_hi"]) == pytest.approx(
        (np.mean(per_play), np.mean(per_play) - half, np.mean(per_play) + half))
    assert got["mean_turns"] == pytest.approx(np.mean([7 + 2 * i for i in range(len(plays))]))


def test_skill_depth_and_the_start_players_edge_up_the_ladder(marts):
    got = row(marts["mart_ladder_depth"], players=3)
    p_holm = step_p_values()
    assert (got["n_steps"], got["skill_depth"]) == (4, sum(p < 0.05 for p in p_holm.values()))
    assert got["n_plays"] == sum(len(p) for p in ALONE.values()) + 6 + 6 + 6 + 7  # the steps' plays, the tables alone
    assert (got["top_step_rung"], got["top_step_below"], got["n_rungs_alone"]) == ("search (budget=64)", "reader", 3)
    top = focal_shares(SEARCH64_VS_READER)
    w, (lo, hi) = float(sum(top) / len(top)), share_interval(top)
    assert (got["top_step_win_share"], got["top_below_share_of_fair"], got["top_below_share_of_fair_lo"],
            got["top_below_share_of_fair_hi"]) == pytest.approx((w, (1 - w) * 1.5, (1 - hi) * 1.5, (1 - lo) * 1.5),
                                                               rel=1e-12)
    assert (got["bottom_rung"], got["top_rung"]) == ("random", "reader")
    # The edge's trend: seat 0's advantage over the rungs played alone, numbered 0, 1, 2 in ladder order (random,
    # heavy, reader), each weighted by its precision 1/se^2, se its interval's half width over the z that made it
    # (1.96: mart_seat_advantage's Wilson, macros.sql). NumPy's weighted fit (weights 1/se on the residuals) gives
    # the slope and, unscaled, its variance 1/sum w (x - xbar)^2.
    advantage, se = [], []
    for spec in (RANDOM, HEAVY, READER):
        seat0 = shares(ALONE[spec], 0)
        a_lo, a_hi = share_interval(seat0)
        advantage.append(float(sum(seat0) / len(seat0)) - 1 / 3)
        se.append((a_hi - a_lo) / 2 / Z)
    (slope, _), cov = np.polyfit([0, 1, 2], advantage, 1, w=1 / np.asarray(se), cov="unscaled")
    half = Z * math.sqrt(cov[0, 0])
    assert (got["edge_slope"], got["edge_slope_lo"], got["edge_slope_hi"]) == pytest.approx(
        (slope, slope - half, slope + half), rel=1e-9)
    assert got["edge_slope_p"] == pytest.approx(math.erfc(abs(slope) / math.sqrt(cov[0, 0]) / math.sqrt(2)), rel=1e-9)
    assert (got["bottom_advantage"], got["top_advantage"]) == pytest.approx((advantage[0], advantage[2]))


def test_the_strength_test_by_hand(marts):
    """Each search against two reader players: the win share and its interval, its test Holm-adjusted over the rungs,
    and the change from the weaker."""
    got = marts["mart_ladder_strength"].sort("rung")
    assert got.select("rung_label", "best_label", "previous_label").rows() == [
        ("search (budget=16)", "reader", None), ("search (budget=64)", "reader", "search (budget=16)")]
    share = [focal_shares(t) for t in (SEARCH16_VS_READER, SEARCH64_VS_READER)]
    intervals = [share_interval(s) for s in share]
    won = [float(sum(s) / len(s)) for s in share]
    adjusted = holm([share_p_above(s, 1 / 3) for s in share])  # over the two rungs above the reader
    for r, w, s, (lo, hi), p in zip(got.iter_rows(named=True), won, share, intervals, adjusted):
        assert (r["n_plays"], r["win_share"], r["win_share_lo"], r["win_share_hi"]) == pytest.approx(
            (len(s), w, lo, hi), rel=1e-12)
        assert r["p_holm"] == pytest.approx(p, rel=1e-9)
        assert r["beats_best"] == (p < 0.05)
    (lo16, hi16), (lo64, hi64) = intervals
    change, half = won[1] - won[0], math.hypot((hi16 - lo16) / 2, (hi64 - lo64) / 2)
    last = got.row(1, named=True)
    assert (last["change"], last["change_lo"], last["change_hi"]) == pytest.approx(
        (change, change - half, change + half), rel=1e-12)
    assert last["significantly_weaker"] == (change + half < 0)
    assert got.row(0, named=True)["change"] is None


def test_rungs_are_labelled_by_what_tells_them_apart():
    assert distinct_labels(GAME.ladder_rungs()) == ["random", "heavy", "hollow", "reader", "search (budget=16)",
                                                    "search (budget=64)", "search (budget=256)"]
    assert distinct_labels(["random", "search:base=2:budget=16", "search:base=0:budget=16"]) == [
        "random", "search (base=2)", "search (base=0)"]


def test_a_ladder_entry_plays_each_rung_alone_against_the_rung_below_and_the_best_heuristic(tmp_path):
    path = tmp_path / "ladder.toml"
    path.write_text('[[ladder]]\nplayers = 3\nplays = 10\n'
                    'rungs = ["reader", "random", "search:budget=16", "search:budget=64"]\n')
    configs = read_batch(GAME, path).configs
    lineups = [[p.name + (f"{dict(p.params)['budget']:g}" if p.name == "search" else "") for p in c.policies]
               for c in configs]
    assert lineups == [["random"] * 3, ["reader"] * 3, ["search16"] * 3, ["search64"] * 3,
                       ["reader", "random", "random"], ["random", "reader", "random"], ["random", "random", "reader"],
                       ["search16", "reader", "reader"], ["reader", "search16", "reader"],
                       ["reader", "reader", "search16"],
                       ["search64", "search16", "search16"], ["search16", "search64", "search16"],
                       ["search16", "search16", "search64"],
                       # the strength test: the best heuristic (reader) against every stronger rung
                       ["search64", "reader", "reader"], ["reader", "search64", "reader"],
                       ["reader", "reader", "search64"]]


@pytest.mark.parametrize("entry, message", [
    ('rungs = ["random", "search:budget=17"]', "not on mauer's skill ladder"),
    ('rungs = ["random"]', "at least two"),
    ('policies = ["random"]', "unknown key(s) policies"),
])
def test_a_bad_ladder_entry_is_one_clear_error(tmp_path, entry, message):
    path = tmp_path / "ladder.toml"
    path.write_text(f"[[ladder]]\nplayers = 3\nplays = 10\n{entry}\n")
    with pytest.raises(SimlibError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_batch(GAME, path)


@pytest.mark.parametrize("name", ["mauer", "mauerbruch", "catan", "mauerspechte", "sevensteps", "burgenland"])
def test_every_games_ladder_runs_from_random_through_its_best_heuristic_to_search(name):
    game = get_game(name)
    rungs = [parse_policy(r, game) for r in game.ladder_rungs()]
    best = parse_policy(game.best_heuristic, game)
    assert rungs[0].name == "random" and best in rungs
    above = rungs[rungs.index(best) + 1:]
    assert above and all(r.name == "search" for r in above)
    assert all(r.name != "search" for r in rungs[:rungs.index(best)])


def test_the_strength_sentence_names_which_budgets_beat_the_best_heuristic(marts):
    said = strength_answer(marts["mart_ladder_strength"])
    # search 16 wins 5 1/3 of 6 plays, its Wilson interval above 1/3; search 64 wins 3 1/3 of 7
    assert said.startswith("One player against 2 reader players (the best heuristic), seats rotated, wins "
                           "search (budget=16) 88.9% (")
    assert "search (budget=64) 47.6% (" in said and "(the fair share is 33%)" in said
    assert said.endswith(": only search (budget=16) wins significantly more than the fair share (one-sided tests, "
                         "Holm over the rungs); search (budget=64) wins significantly less than search "
                         "(budget=16).")  # change -41.3 pp, half width 38.7 pp
    assert strength_answer(marts["mart_ladder_strength"].clear()) == ""


def test_a_share_past_its_clamped_interval_end_by_rounding_is_drawn():
    """7 Steps' greedy wins every play against random: its share summed from ties is 1 + 2e-16, its Wilson end 1."""
    import matplotlib.pyplot as plt

    from simlib.analysis.figure_kinds import _forest

    class Colours:
        colour = staticmethod(lambda policy: "black")

    rows = pl.DataFrame({"rung_label": ["greedy"], "win_share": [1 + 2e-16], "win_share_lo": [0.999],
                         "win_share_hi": [1.0]})
    fig, ax = plt.subplots()
    _forest(ax, Colours(), rows, "win_share", "o", None, [0])
    assert len(ax.containers) == 1
    plt.close(fig)
