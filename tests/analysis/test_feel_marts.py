"""mart_setup_feel against the lake: the same numbers worked out here in Polars from the games table's feel columns,
each distinct play counted once (a shorter run of the same set-up and seed adds nothing)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from support.mart_checks import cli, lake_table, marts_of, row, wilson

# (players, policies, plays): the 240-play run is the first 240 plays of the 400-play one.
RUNS = [(4, "random", 400), (4, "random", 240), (4, "greedy", 300), (3, "random", 300)]
FEATURES = ["lead_changes", "winner_lead_share", "decided_at", "decisive_at", "drama", "max_deficit"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("feel")
    lake = root / "lake"
    for players, policy, plays in RUNS:
        status, out = cli("simulate", "mauerbruch", "--players", str(players), "--policies", policy, "--plays",
                          str(plays), "--seed", "38", "--workers", "1", "--lake", str(lake), "--quiet")
        assert status == 0, out
    status, out = cli("pipeline", "--lake", str(lake), "--marts", str(root / "marts"), "--db",
                      str(root / "simlib.duckdb"))
    assert status == 0 and ", 0 failed" in out, out
    marts = marts_of(root / "marts")
    return lake_table(lake, "mauerbruch", "games"), lake_table(lake, "mauerbruch", "runs"), marts


def plays_of(games: pl.DataFrame, runs: pl.DataFrame, players: int, policy: str) -> pl.DataFrame:
    """The distinct plays of a set-up with a single winner: those of the longest of its runs (one seed)."""
    names = pl.col("policies").str.split(",").list.eval(pl.element().str.split(":").list.first())
    run_ids = runs.filter((pl.col("players") == players) & (names == [policy] * players)).sort("plays")["run_id"]
    return games.filter((pl.col("run_id") == run_ids[-1]) & pl.col("worst_rank").is_not_null())


SETUPS = [(4, "random", "4 random players"), (4, "greedy", "4 greedy players"), (3, "random", "3 random players")]


@pytest.mark.parametrize("players, policy, label", SETUPS)
def test_the_mart_is_the_lake_worked_out_by_hand(built, players, policy, label):
    games, runs, marts = built
    mart = marts["mart_setup_feel"]
    plays = plays_of(games, runs, players, policy)
    got = row(mart.filter(pl.col("game") == "mauerbruch"), setup_label=label)
    n = plays.height
    assert got["n_plays"] == n > 0
    for name in FEATURES:
        values = plays[name].cast(pl.Float64).to_numpy()
        half = 1.96 * values.std(ddof=1) / math.sqrt(n)
        assert got[f"mean_{name}"] == pytest.approx(values.mean())
        assert (got[f"mean_{name}_lo"], got[f"mean_{name}_hi"]) == pytest.approx((values.mean() - half,
                                                                                     values.mean() + half))
    winner = plays["winners"].list.first()
    for q, name in enumerate(["q1", "half", "q3"]):
        leader = plays["leader_at_quarter"].list.get(q)
        k, m = int((leader == winner).fill_null(False).sum()), int(leader.is_not_null().sum())
        assert (got[f"{name}_leader_plays"], got[f"{name}_leader_wins"]) == (m, k)
        assert got[f"{name}_leader_win_rate"] == pytest.approx(k / m)
        assert (got[f"{name}_leader_win_rate_lo"], got[f"{name}_leader_win_rate_hi"]) == pytest.approx(wilson(k, m))
    comebacks, runaways = plays.filter(pl.col("winner_last_at_half")), plays.filter(pl.col("decided_at") == 0)
    assert got["example_run_id"] == plays["run_id"][0]
    assert got["comeback_play"] == (comebacks["play_index"].min() if comebacks.height else None)
    assert got["runaway_play"] == (runaways["play_index"].min() if runaways.height else None)
    assert got["comeback_play"] is not None and got["runaway_play"] is not None
    last = int(plays["winner_last_at_half"].sum())
    assert got["wins_from_last"] == last
    assert (got["won_from_last_share_lo"], got["won_from_last_share_hi"]) == pytest.approx(wilson(last, n))


@pytest.mark.parametrize("players, policy, label", SETUPS)
def test_the_tenths_are_the_lake_worked_out_by_hand(built, players, policy, label):
    """mart_setup_feel_tenths: at each tenth, the plays whose winner led alone then, with Wilson's interval."""
    games, runs, marts = built
    plays = plays_of(games, runs, players, policy)
    got = marts["mart_setup_feel_tenths"].filter(pl.col("setup_label") == label).sort("tenth")
    assert got["tenth"].to_list() == list(range(1, 11))
    leads = np.array(plays["winner_leads_at"].to_list())
    n = plays.height
    assert got["n_plays"].to_list() == [n] * 10
    assert got["winner_leads"].to_list() == leads.sum(axis=0).tolist()
    assert got["winner_leads"][-1] == n  # a single winner leads alone after the last turn in Mauerbruch
    for tenth, k in zip(got.iter_rows(named=True), leads.sum(axis=0)):
        assert (tenth["winner_leads_share_lo"], tenth["winner_leads_share_hi"]) == pytest.approx(wilson(int(k), n))


def test_a_play_without_a_single_winner_is_left_out(built):
    games, _, marts = built
    mart = marts["mart_setup_feel"]
    tied = games.filter(pl.col("winners").list.len() > 1)
    assert tied.height > 0 and tied["worst_rank"].is_null().all() and tied["drama"].is_null().all()
    solo = games.filter(pl.col("winners").list.len() == 1)
    assert solo["worst_rank"].is_not_null().all()
    assert np.all(mart["n_plays"].to_numpy() < 400)



def test_the_ladder_reads_each_rungs_own_tables(built):
    """mart_ladder_feel: a row per rung played at a table of its own (4 players: random, then greedy), weakest first,
    with that set-up's figures."""
    _, _, marts = built
    ladder = marts["mart_ladder_feel"].filter(pl.col("players") == 4).sort("rung")
    assert ladder["rung_label"].to_list() == ["random", "greedy"]
    setups = marts["mart_setup_feel"]
    for rung in ladder.iter_rows(named=True):
        setup = row(setups, setup_id=rung["setup_id"])
        for key, value in setup.items():
            if key != "lineup_kind":
                assert (rung[key] == pytest.approx(value)) if isinstance(value, float) else rung[key] == value, key
