"""The SQL and Polars models on tiny hand-made lakes with answers worked out by hand."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlib.analysis.duck import connect
from simlib.analysis.models import Model, load_models
from simlib.analysis.pipeline import build, cache_dir
from simlib.analysis.tests import run_data_tests
from simlib.core.errors import SimlibError
from simlib.core.resources import pipelines_root

from support.lake_fixture import seats_from_penalties, write_run

PIPELINES = pipelines_root()

# Three players, four plays; play 2 is a tie between seats 0 and 2.
PENALTIES = [[0, 5, 10], [3, 0, 6], [0, 4, 0], [0, 15, 2]]


def wilson(k, n, z=1.96):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.fixture
def built(tmp_path):
    lake = tmp_path / "lake"
    games, seats = seats_from_penalties(PENALTIES)
    events = [{"play_index": 0, "baurunde": i, "outcome": o, "builds": [], "plans": []}
              for i, o in enumerate(["builder_builds", "builder_builds", "builder_builds", "hollow_2"])]
    write_run(lake, "run_a", 3, ["random"] * 3, games, seats, events=events, rounds=2)
    result = build(lake, tmp_path / "marts", tmp_path / "simlib.duckdb")
    marts = {p.stem: pl.read_parquet(p) for p in (tmp_path / "marts").glob("mart_*.parquet")}
    return tmp_path, result, marts


def row(frame, **where):
    for key, value in where.items():
        frame = frame.filter(pl.col(key) == value)
    assert frame.height == 1, where
    return frame.row(0, named=True)


def test_all_data_tests_pass_on_the_fixture(built):
    _, result, marts = built
    assert result.test_failures == [] and result.tests_run > 50
    assert result.runs == 1 and result.runs_computed == 1


def test_seat_outcomes(built):
    _, _, marts = built
    seat0 = row(marts["mart_seat_outcomes"], seat=0)
    assert (seat0["n_plays"], seat0["wins"], seat0["shared_wins"]) == (4, 3, 1)
    assert seat0["win_rate"] == 0.75 and seat0["win_share"] == pytest.approx((1 + 1 + 0.5) / 4)
    assert (seat0["win_rate_lo"], seat0["win_rate_hi"]) == pytest.approx(wilson(3, 4))
    assert seat0["mean_score"] == pytest.approx(-0.75)
    half = 1.96 * stats.tstd([0, -3, 0, 0]) / 2
    assert seat0["mean_score_lo"] == pytest.approx(-0.75 - half)
    seat1 = row(marts["mart_seat_outcomes"], seat=1)
    assert (seat1["wins"], seat1["win_rate"]) == (1, 0.25)


def test_run_balance_and_the_seat_test(built):
    """The seat test is a Wald test on the seats' mean win shares with their second moments about the fair share
    over plays (docs/statistics.md), worked here in fractions. Play 2 is a tie of seats 0 and 2, so the shares are
    seat 0: 1, 0, 1/2, 1; seat 1: 0, 1, 0, 0; seat 2: 0, 0, 1/2, 0. Every play has a winner, so the deviations
    from 1/3 sum to 0 and seat 2's follows from the others: with seats 0 and 1 alone, d = (7, -2) / 24 and
    S = [[37, -26], [-26, 28]] / 144, so T = 4 d' S^-1 d = 4 x 0.4 x 792 / 576 = 11/5 on 2 degrees of freedom,
    p = exp(-1.1). (The old chi-square of a seats x (won, lost) table treated the seats as independent samples.)"""
    _, _, marts = built
    balance = row(marts["mart_run_balance"], run_id="run_a")
    d = np.array([7, -2]) / 24
    s = np.array([[37, -26], [-26, 28]]) / 144
    assert 4 * d @ np.linalg.solve(s, d) == pytest.approx(11 / 5)
    assert (balance["seat_test_statistic"], balance["seat_test_dof"]) == (pytest.approx(11 / 5, rel=1e-12), 2)
    assert balance["seat_test_p"] == pytest.approx(math.exp(-1.1), rel=1e-12)
    assert balance["seat_test_p"] == pytest.approx(stats.chi2.sf(2.2, 2), rel=1e-12)
    # Seat 0's win share, 2.5/4, lies farthest from the fair share: 7/24 above it (seat 2's, 1/8, 5/24 below).
    assert balance["seat0_win_share"] == 2.5 / 4
    assert balance["seat0_advantage"] == pytest.approx(2.5 / 4 - 1 / 3)
    assert (balance["largest_seat"], balance["largest_advantage"]) == (0, pytest.approx(7 / 24))
    assert 0 <= balance["balance_lo"] <= balance["balance"] <= balance["balance_hi"] <= 1
    assert balance["tie_rate"] == 0.25 and balance["completion_rate"] == 1.0
    assert balance["mean_turns"] == 10.0


def test_game_length(built):
    _, _, marts = built
    length = row(marts["mart_game_length"], run_id="run_a")
    assert (length["min_turns"], length["median_turns"], length["max_turns"]) == (7, 9, 13)
    assert length["mean_turns"] == 10.0
    hist = marts["mart_game_length_hist"].sort("turns")
    assert hist["turns"].to_list() == [7, 9, 11, 13] and hist["share"].to_list() == [0.25] * 4


def test_mauer_penalties(built):
    _, _, marts = built
    seat2 = row(marts["mart_mauer_penalties_by_seat"], seat=2)
    assert seat2["mean_penalty"] == pytest.approx(4.5) and seat2["share_zero"] == 0.25
    assert seat2["max_penalty"] == 10 and seat2["median_penalty"] == 2
    policy = row(marts["mart_mauer_penalties_by_policy"], policy="random")
    assert policy["n_seat_plays"] == 12 and policy["n_plays"] == 4
    assert policy["mean_penalty"] == pytest.approx(sum(map(sum, PENALTIES)) / 12)
    hist = marts["mart_mauer_penalty_hist"].filter((pl.col("seat") == 0) & (pl.col("penalty") == 0))
    assert hist["n_seat_plays_with_penalty"].to_list() == [3] and hist["share"].to_list() == [0.75]


def test_mauer_match_totals(built):
    _, _, marts = built
    # Matches: plays 0+1 and 2+3. Totals: player 0: 3, 0; player 1: 5, 19; player 2: 16, 2.
    totals = marts["mart_mauer_match_totals"]
    p0, p1, p2 = (row(totals, player=p) for p in range(3))
    assert (p0["mean_total"], p1["mean_total"], p2["mean_total"]) == (1.5, 12.0, 9.0)
    assert (p0["match_win_share"], p1["match_win_share"], p2["match_win_share"]) == (1.0, 0.0, 0.0)
    assert p0["n_matches"] == 2 and p0["rounds"] == 2 and p0["n_plays"] == 4
    assert 0 <= p0["mean_total_lo"] <= 1.5 <= p0["mean_total_hi"] <= 3


def test_baurunde_cases(built):
    _, _, marts = built
    cases = marts["mart_mauer_baurunde_cases"]
    assert row(cases, outcome="builder_builds")["share"] == 0.75
    assert row(cases, outcome="hollow_2")["n_baurunden_with_outcome"] == 1


def test_policy_strength_pools_rotated_runs(tmp_path):
    lake = tmp_path / "lake"
    # One heavy player at a table of random players, once in seat 0 and once in seat 1.
    games, seats = seats_from_penalties([[0, 5, 10], [3, 0, 6]])
    write_run(lake, "focal_seat0", 3, ["heavy", "random", "random"], games, seats)
    games, seats = seats_from_penalties([[0, 5, 10], [1, 2, 0]])
    write_run(lake, "focal_seat1", 3, ["random", "heavy", "random"], games, seats)
    games, seats = seats_from_penalties([[0, 1, 2]])
    write_run(lake, "mixed", 3, ["heavy", "reader", "random"], games, seats)
    result = build(lake, tmp_path / "marts", tmp_path / "db.duckdb")
    assert result.test_failures == []
    strength = pl.read_parquet(tmp_path / "marts" / "mart_policy_strength.parquet")
    heavy = row(strength, focal="heavy", field="random")
    # heavy sat in seat 0 (penalties 0, 3: one win) and seat 1 (5, 2: no win).
    assert heavy["n_runs"] == 2 and heavy["n_plays"] == 4 and heavy["win_rate"] == 0.25
    # One win alone in four plays (no ties): the win share 1/4, its interval plain Wilson (n_eff = n).
    assert (heavy["win_share"], heavy["effective_plays"]) == (0.25, 4)
    assert (heavy["win_share_lo"], heavy["win_share_hi"]) == pytest.approx(wilson(1, 4))
    assert heavy["mean_score"] == pytest.approx(-(0 + 3 + 5 + 2) / 4)
    assert heavy["seats_covered"] == 2 and heavy["seat_balance"] == 1.0
    assert strength.filter(pl.col("focal") == "reader").is_empty()  # the mixed run is no pairing


def test_a_new_run_is_computed_alone_and_incomplete_runs_are_left_out(tmp_path):
    lake = tmp_path / "lake"
    games, seats = seats_from_penalties(PENALTIES)
    write_run(lake, "first", 3, ["random"] * 3, games, seats)
    first = build(lake, tmp_path / "marts", tmp_path / "db.duckdb")
    cached = next(cache_dir(tmp_path / "marts").glob("mart_seat_outcomes/*/first.parquet"))
    stamp = cached.stat().st_mtime_ns
    write_run(lake, "second", 3, ["random"] * 3, games, seats)
    write_run(lake, "running", 3, ["random"] * 3, games, seats, status="running")
    second = build(lake, tmp_path / "marts", tmp_path / "db.duckdb")
    assert (first.runs_computed, second.runs, second.runs_computed) == (1, 2, 1)
    assert cached.stat().st_mtime_ns == stamp
    outcomes = pl.read_parquet(tmp_path / "marts" / "mart_seat_outcomes.parquet")
    assert sorted(outcomes["run_id"].unique().to_list()) == ["first", "second"]


def test_the_database_file_holds_lake_views_and_marts(built):
    tmp_path, _, _ = built
    import duckdb

    con = duckdb.connect(str(tmp_path / "simlib.duckdb"), read_only=True)
    assert con.execute("select count(*) from seats").fetchone()[0] == 12
    assert con.execute("select wins from mart_seat_outcomes where seat = 0").fetchone()[0] == 3


def test_data_tests_catch_violations():
    con = connect()
    con.execute("create table mart_demo as select * from (values (1, 0.5), (1, 1.5), (2, null)) t(k, rate)")
    model = Model("mart_demo", path=None, scope=None, materialized="table", description="",
                  columns={"k": "", "rate": ""},
                  unique=("k",), not_null=("rate",), ranges={"rate": [0, 1]})
    failures, _ = run_data_tests(con, [model])
    assert len(failures) == 3
    assert any("unique" in f for f in failures) and any("not null" in f for f in failures)
    assert any("[0, 1]" in f for f in failures)


def test_every_mart_column_is_documented():
    for model in load_models():
        if model.is_mart:
            assert model.columns and all(model.columns.values()), model.name


def test_metrics_agree_across_engines(built):
    """Win rate by seat (a DuckDB mart) recomputed with Polars; match totals (a Polars mart) with DuckDB."""
    tmp_path, _, marts = built
    seats = pl.scan_parquet(str(tmp_path / "lake" / "seats" / "**" / "*.parquet"), hive_partitioning=True)
    by_polars = seats.group_by("seat").agg(pl.col("winner").mean().alias("win_rate")).sort("seat").collect()
    by_duckdb = marts["mart_seat_outcomes"].sort("seat")
    assert by_polars["win_rate"].to_list() == pytest.approx(by_duckdb["win_rate"].to_list())

    con = connect()
    totals = con.execute(f"""
        select player, avg(total) as mean_total from (
            select match_id, player, sum(penalty) as total
            from read_parquet('{tmp_path}/lake/seats/**/*.parquet', hive_partitioning = true)
            group by all)
        group by player order by player""").fetchall()
    polars_totals = marts["mart_mauer_match_totals"].sort("player")["mean_total"].to_list()
    assert [t for _, t in totals] == pytest.approx(polars_totals)


def test_every_mart_says_how_many_plays_it_rests_on():
    for model in load_models():
        if model.is_mart:
            assert "n_plays" in model.columns, model.name


def test_match_total_histogram(built):
    _, _, marts = built
    hist = marts["mart_mauer_match_total_hist"].filter(pl.col("player") == 1).sort("total")
    # player 1's match totals: 5 + 0 and 4 + 15
    assert hist["total"].to_list() == [5, 19] and hist["share"].to_list() == [0.5, 0.5]
    assert hist["n_matches"].to_list() == [2, 2] and hist["n_plays"].to_list() == [4, 4]
    assert row(marts["mart_mauer_match_totals"], player=0)["share_zero"] == 0.5


def test_models_load_from_every_folder_and_an_empty_pipeline_fails(tmp_path):
    models = load_models()
    scopes = {m.scope for m in models}
    assert {None, "mauer", "mauerbruch"} <= scopes and len(models) >= 20
    by_name = {m.name: m for m in models}
    # A Python model declares what it reads (INPUTS); a SQL model's inputs are parsed from its SQL.
    assert by_name["mart_run_balance"].inputs == ("int_seat_policy_sums", "int_share_cross_sums", "stg_games")
    assert by_name["stg_seats"].sources == ("lake_seats",)
    order = [m.name for m in models]
    assert order.index("stg_seats") < order.index("int_seat_policy_sums") < order.index("int_policy_pairs")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "schema.toml").write_text("")
    with pytest.raises(SimlibError, match="no pipeline models"):
        load_models({None: tmp_path / "shared"})


def _folder(root: Path, files: dict[str, str]) -> Path:
    root.mkdir()
    schema = []
    for name, sql in files.items():
        (root / f"{name}.sql").write_text(sql)
        schema.append(f'[models.{name}]\nmaterialized = "per_run"\ndescription = "x"\n')
    (root / "schema.toml").write_text("\n".join(schema))
    return root


@pytest.mark.parametrize("files, scope, message", [
    ({"mart_a": "select * from no_such_table"}, None, "neither a model nor a lake view"),
    ({"mart_a": "select * from mart_b", "mart_b": "select * from mart_a"}, None, "cycle"),
])
def test_bad_model_graphs_are_refused_naming_the_model(tmp_path, files, scope, message):
    with pytest.raises(SimlibError, match=message):
        load_models({scope: _folder(tmp_path / "f", files)})


def test_a_shared_model_may_not_read_a_game_model(tmp_path):
    shared = _folder(tmp_path / "shared", {"mart_s": "select * from mart_g"})
    game = _folder(tmp_path / "mauer", {"mart_g": "select * from lake_mauer_seats"})
    with pytest.raises(SimlibError, match="mart_s reads mart_g, a model of mauer runs only"):
        load_models({None: shared, "mauer": game})


def test_editing_one_games_model_recomputes_only_it(tmp_path, tmp_path_factory):
    from support.digests import small_lake

    lake, _ = small_lake(tmp_path_factory, tmp_path / "made")
    folders = {None: tmp_path / "p" / "shared", "mauer": tmp_path / "p" / "mauer",
               "mauerbruch": tmp_path / "p" / "mauerbruch"}
    shutil.copytree(PIPELINES, tmp_path / "p", ignore=shutil.ignore_patterns("catan", "__pycache__"))
    marts = tmp_path / "marts"
    build(lake, marts, tmp_path / "db.duckdb", folders)
    before = {p: p.stat().st_mtime_ns for p in cache_dir(marts).rglob("*.parquet")}
    edited = folders["mauerbruch"] / "mart_mauerbruch_endings.sql"
    edited.write_text(edited.read_text() + "\n-- an edit\n")
    again = build(lake, marts, tmp_path / "db.duckdb", folders)
    after = {p: p.stat().st_mtime_ns for p in cache_dir(marts).rglob("*.parquet")}
    changed = {p.relative_to(cache_dir(marts)).parts[0] for p in set(after) ^ set(before)}
    assert changed == {"mart_mauerbruch_endings"}
    assert all(after[p] == stamp for p, stamp in before.items() if p in after)
    assert again.runs_computed == len(list((lake / "runs" / "game=mauerbruch").iterdir()))
