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
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from mart_checks import row, wilson

from simlib.analysis.ladder import strength_answer
from simlib.analysis.pipeline import build
from simlib.analysis.setups import distinct_labels
from simlib.core.batch import read_batch
from simlib.core.config import parse_policy
from simlib.core.errors import SimlibError
from simlib.core.registry import get_game

from lake_fixture import seats_from_penalties, write_run

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
Z = 1.96


def shares(penalties, seat):
    return [(row[seat] == min(row)) / row.count(min(row)) for row in penalties]


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


@pytest.mark.parametrize("focal, tables", [("heavy", HEAVY_VS_RANDOM), ("reader", READER_VS_HEAVY)])
def test_head_to_head_by_hand(marts, focal, tables):
    won = sum(sum(shares(plays, seat)) for seat, plays in enumerate(tables))
    n = sum(len(plays) for plays in tables)
    got = row(marts["mart_ladder_head_to_head"], rung_label=focal)
    lo, hi = wilson(won, n)
    assert (got["n_plays"], got["win_share"], got["win_share_lo"], got["win_share_hi"]) == pytest.approx(
        (n, won / n, lo, hi))
    assert got["beats_below"] == (lo > 1 / 3)
    # Each weaker player's wins against the fair share: (1 - w) / 2 * 3.
    assert (got["luck_share"], got["luck_share_lo"], got["luck_share_hi"]) == pytest.approx(
        ((1 - won / n) * 1.5, (1 - hi) * 1.5, (1 - lo) * 1.5))
    assert (got["seats_covered"], got["seat_balance"]) == (3, 1.0)


@pytest.mark.parametrize("spec, label", [(RANDOM, "random"), (HEAVY, "heavy"), (READER, "reader")])
def test_balance_at_each_rung_by_hand(marts, spec, label):
    plays = ALONE[spec]
    got = row(marts["mart_ladder_balance"], rung_label=label)
    seat_shares = [sum(shares(plays, s)) / len(plays) for s in range(3)]
    intervals = [wilson(sum(shares(plays, s)), len(plays)) for s in range(3)]
    assert (got["n_plays"], got["seat0_win_share"], got["seat0_advantage"]) == pytest.approx(
        (len(plays), seat_shares[0], seat_shares[0] - 1 / 3))
    assert (got["seat0_advantage_lo"], got["seat0_advantage_hi"]) == pytest.approx(
        (intervals[0][0] - 1 / 3, intervals[0][1] - 1 / 3))
    assert got["balance"] == pytest.approx(1 - (max(seat_shares) - min(seat_shares)))
    assert got["balance_lo"] == pytest.approx(1 - (max(i[1] for i in intervals) - min(i[0] for i in intervals)))
    assert got["balance_hi"] == pytest.approx(1 - max(0, max(i[0] for i in intervals) - min(i[1] for i in intervals)))
    per_play = [np.mean(row) for row in plays]  # Die Mauer's headline: penalty points per seat
    half = Z * np.std(per_play, ddof=1) / math.sqrt(len(plays))
    assert got["headline"] == "penalty points per seat"
    assert (got["headline_mean"], got["headline_mean_lo"], got["headline_mean_hi"]) == pytest.approx(
        (np.mean(per_play), np.mean(per_play) - half, np.mean(per_play) + half))
    assert got["mean_turns"] == pytest.approx(np.mean([7 + 2 * i for i in range(len(plays))]))


def test_skill_depth_and_the_start_players_edge_from_bottom_to_top(marts):
    got = row(marts["mart_ladder_depth"], players=3)
    steps = marts["mart_ladder_head_to_head"]
    assert (got["n_steps"], got["skill_depth"]) == (4, steps["beats_below"].sum())
    assert got["n_plays"] == sum(len(p) for p in ALONE.values()) + 6 + 6 + 6 + 7  # the steps' plays, the tables alone
    assert (got["top_step_rung"], got["top_step_below"], got["n_rungs_alone"]) == ("search (budget=64)", "reader", 3)
    balance = marts["mart_ladder_balance"]
    bottom, top = row(balance, rung_label="random"), row(balance, rung_label="reader")
    assert (got["bottom_rung"], got["top_rung"]) == ("random", "reader")
    change = top["seat0_advantage"] - bottom["seat0_advantage"]
    half = math.hypot((top["seat0_advantage_hi"] - top["seat0_advantage_lo"]) / 2,
                      (bottom["seat0_advantage_hi"] - bottom["seat0_advantage_lo"]) / 2)
    assert (got["edge_change"], got["edge_change_lo"], got["edge_change_hi"]) == pytest.approx(
        (change, change - half, change + half))


def test_the_strength_test_by_hand(marts):
    """Each search against two reader players: the win share and its interval, and the change from the weaker."""
    got = marts["mart_ladder_strength"].sort("rung")
    assert got.select("rung_label", "best_label", "previous_label").rows() == [
        ("search (budget=16)", "reader", None), ("search (budget=64)", "reader", "search (budget=16)")]
    won = [sum(sum(shares(plays, seat)) for seat, plays in enumerate(t)) for t in (SEARCH16_VS_READER,
                                                                                  SEARCH64_VS_READER)]
    n = [6, 7]
    for r, w, k in zip(got.iter_rows(named=True), won, n):
        lo, hi = wilson(w, k)
        assert (r["n_plays"], r["win_share"], r["win_share_lo"], r["win_share_hi"]) == pytest.approx((k, w / k, lo, hi))
        assert r["beats_best"] == (lo > 1 / 3)
    (lo16, hi16), (lo64, hi64) = wilson(won[0], 6), wilson(won[1], 7)
    change, half = won[1] / 7 - won[0] / 6, math.hypot((hi16 - lo16) / 2, (hi64 - lo64) / 2)
    last = got.row(1, named=True)
    assert (last["change"], last["change_lo"], last["change_hi"]) == pytest.approx(
        (change, change - half, change + half))
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
    assert said.endswith(": only search (budget=16) wins significantly more than the fair share; search (budget=64) "
                         "wins significantly less than search (budget=16).")  # change -41.3 pp, half width 38.7 pp
    assert strength_answer(marts["mart_ladder_strength"].clear()) == ""


def test_a_share_past_its_clamped_interval_end_by_rounding_is_drawn():
    """7 Steps' greedy wins every play against random: its share summed from ties is 1 + 2e-16, its Wilson end 1."""
    import matplotlib.pyplot as plt

    from simlib.analysis.ladder import _forest

    class Colours:
        colour = staticmethod(lambda policy: "black")

    rows = pl.DataFrame({"rung_label": ["greedy"], "win_share": [1 + 2e-16], "win_share_lo": [0.999],
                         "win_share_hi": [1.0]})
    fig, ax = plt.subplots()
    _forest(ax, Colours(), rows, "win_share", "o", None, [0])
    assert len(ax.containers) == 1
    plt.close(fig)
