"""What-if sweeps: the runs a sweep makes, the `sweeps` table, and mart_variant_effects checked against the
paired differences worked out here from the lake's own rows with NumPy."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from simlib.analysis.pipeline import build, cache_dir
from simlib.cli import main
from simlib.core.errors import SimlibError
from simlib.core.registry import get_game
from simlib.core.sweep import Sweep, parse_vary
from simlib.design.batch import read_batch

from support.paths import REPO

MAUER = get_game("mauer")
PLAYS = 4_000


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> tuple[Path, Path]:
    """A Die Mauer sweep of the tower's penalty (default 15, not among the values) and its marts."""
    root = tmp_path_factory.mktemp("sweep")
    lake, marts = root / "lake", root / "marts"
    status = main(["sweep", "mauer", "--vary", "penalty_tower=8,12", "--players", "4", "--policies", "random",
                   "--policies", "heavy", "--plays", str(PLAYS), "--lake", str(lake), "--no-report", "--quiet"])
    assert status == 0
    result = build(lake, marts, root / "simlib.duckdb")
    assert result.test_failures == []
    return lake, marts


def _sweep(**kw) -> Sweep:
    spec = dict(vary={"penalty_tower": ["8", "12"]}, players=[4], policies=["random"], plays=100)
    return Sweep(MAUER, **(spec | kw))


def test_the_baseline_runs_too_when_not_among_the_values():
    runs = _sweep().runs()
    assert [row["variant"] for _, row in runs] == ["penalty_tower=15", "penalty_tower=8", "penalty_tower=12"]
    assert [row["is_baseline"] for _, row in runs] == [True, False, False]
    assert [row["variant_order"] for _, row in runs] == [-1, 0, 1]
    assert [c.options["penalty_tower"] for c, _ in runs] == [15, 8, 12]
    assert len({c.seed for c, _ in runs}) == 1  # common random numbers: one seed


def test_a_value_equal_to_the_baseline_is_the_baseline_not_a_second_run():
    runs = _sweep(vary={"penalty_tower": [12, 15, 8]}).runs()
    assert [(row["variant"], row["is_baseline"], row["variant_order"]) for _, row in runs] == [
        ("penalty_tower=15", True, 1), ("penalty_tower=12", False, 0), ("penalty_tower=8", False, 2)]


def test_base_names_the_baseline_and_every_line_up_has_its_own():
    rows = _sweep(base={"penalty_tower": "12"}, players=[3, 4], policies=["random", "heavy"]).rows()
    assert len(rows) == 4 * 2  # 12 is the baseline and one of the values
    for config, row in rows:
        baseline = [c for c, r in rows if r["is_baseline"] and c.players == config.players
                    and r["policies"] == row["policies"]]
        assert len(baseline) == 1 and baseline[0].options["penalty_tower"] == 12
        assert row["baseline_run_id"] == baseline[0].run_id(MAUER.rules_versions())
        assert config.options["penalty_gate"] == baseline[0].options["penalty_gate"]


def test_the_same_sweep_typed_or_in_a_batch_file_has_one_id(tmp_path):
    batch = tmp_path / "b.toml"
    batch.write_text('[[sweep]]\nvary = { penalty_tower = [8, 12] }\nplayers = 4\npolicies = ["random"]\n'
                     'plays = 100\n')
    loaded = read_batch(MAUER, batch)
    assert [s.sweep_id for s in loaded.sweeps] == [_sweep(seed=1).sweep_id]
    assert len(loaded.configs) == 3


@pytest.mark.parametrize("kw, message", [
    ({"vary": {"penalty_towr": ["8"]}}, "not a rule parameter"),
    ({"vary": {"penalty_tower": ["eight"]}}, "is not an integer"),
    ({"vary": {"penalty_tower": ["8", "8"]}}, "different values"),
    ({"vary": {}}, "at least one parameter"),
    ({"options": {"penalty_tower": 9}}, "both varied and fixed"),
])
def test_a_bad_sweep_is_one_clear_error(kw, message):
    with pytest.raises(SimlibError, match=message):
        _sweep(**kw)


def test_bad_sweep_flags_exit_2_and_write_nothing(tmp_path, capsys):
    lake = tmp_path / "lake"
    for args in (["--vary", "penalty_tower"], ["--vary", "penalty_tower=8", "--players", "9"],
                 ["--vary", "nope=1,2"], ["--vary", "penalty_tower=8", "--players", "four"]):
        argv = ["sweep", "mauer", "--players", "4", "--policies", "random", "--plays", "10", "--lake", str(lake),
                *args]
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("simlib: error:")
    assert not lake.exists() or not any(lake.rglob("*.parquet"))
    with pytest.raises(SimlibError, match="give at least|NAME=V1"):
        parse_vary(["penalty_tower="])


def _lake_rows(lake: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(str(lake / table / "game=mauer" / "*" / "*.parquet"), hive_partitioning=True)


def test_the_sweeps_table_names_every_run_and_its_baseline(swept):
    lake, _ = swept
    sweeps = _lake_rows(lake, "sweeps")
    runs = _lake_rows(lake, "runs")
    assert sweeps.height == 6 and set(sweeps["run_id"]) == set(runs["run_id"])
    assert set(sweeps.filter(pl.col("is_baseline"))["run_id"]) == set(sweeps["baseline_run_id"])
    assert (runs["seed"] == 0).all()  # --seed's default


def _paired(lake: Path, variant: str, baseline: str) -> tuple[np.ndarray, np.ndarray]:
    """Per play, the mean penalty of the seats (Die Mauer's headline), variant and baseline, by play index."""
    seats = _lake_rows(lake, "seats")
    per_play = seats.group_by("run_id", "play_index").agg(pl.col("penalty").mean().alias("value"))
    v = per_play.filter(pl.col("run_id") == variant).sort("play_index")
    b = per_play.filter(pl.col("run_id") == baseline).sort("play_index")
    assert v["play_index"].to_list() == b["play_index"].to_list()
    return v["value"].to_numpy(), b["value"].to_numpy()


def test_the_headline_difference_is_the_paired_mean_with_its_interval_and_p_value(swept):
    lake, marts = swept
    effects = pl.read_parquet(marts / "mart_variant_effects.parquet")
    headline = effects.filter(pl.col("metric") == "headline: penalty points per seat")
    assert headline.height == 6
    for row in headline.filter(~pl.col("is_baseline")).iter_rows(named=True):
        v, b = _paired(lake, row["run_id"], row["baseline_run_id"])
        d = v - b
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
        assert row["n_plays"] == PLAYS
        assert row["variant_mean"] == pytest.approx(v.mean())
        assert row["baseline_mean"] == pytest.approx(b.mean())
        assert row["difference"] == pytest.approx(d.mean())
        assert (row["difference_lo"], row["difference_hi"]) == pytest.approx((d.mean() - half, d.mean() + half))
        z = d.mean() / (d.std(ddof=1) / np.sqrt(len(d)))
        assert row["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), abs=1e-12)
        unpaired = 1.96 * np.sqrt((v.var(ddof=1) + b.var(ddof=1)) / len(d))
        assert row["unpaired_hi"] - row["unpaired_lo"] == pytest.approx(2 * unpaired)
        # A lower tower penalty lowers the penalty points; one seed makes the interval several times narrower.
        assert row["difference_hi"] < 0 and row["pairing_gain"] > 2
    base = headline.filter(pl.col("is_baseline")).row(0, named=True)
    assert (base["difference"], base["difference_lo"], base["difference_hi"], base["p_value"]) == (0, 0, 0, None)


def test_seat_advantage_win_shares_length_and_scores_follow_the_plays(swept):
    lake, marts = swept
    effects = pl.read_parquet(marts / "mart_variant_effects.parquet")
    games = _lake_rows(lake, "games")
    seats = _lake_rows(lake, "seats")
    for row in effects.filter(pl.col("policies").str.starts_with("heavy")).iter_rows(named=True):
        if row["metric"] == "length":
            turns = games.filter(pl.col("run_id") == row["run_id"])["turns"].to_numpy()
            assert row["variant_mean"] == pytest.approx(turns.mean())
        if row["metric"] == "seat0_advantage":
            g = games.filter(pl.col("run_id") == row["run_id"])
            share = [1 / len(w) if 0 in w else 0 for w in g["winners"].to_list()]
            assert row["variant_mean"] == pytest.approx(np.mean(share) - 1 / 4)
        if row["metric"] == "win_share":  # each seat's, paired play by play (balance is each run's own)
            g = games.filter(pl.col("run_id") == row["run_id"])
            share = [1 / len(w) if row["seat"] in w else 0 for w in g["winners"].to_list()]
            assert row["variant_mean"] == pytest.approx(np.mean(share))
        if row["metric"] == "score":
            s = seats.filter((pl.col("run_id") == row["run_id"]) & (pl.col("seat") == row["seat"]))
            assert row["variant_mean"] == pytest.approx(s["score"].mean())
    metrics = set(effects["metric"])
    assert metrics == {"seat0_advantage", "length", "win_share", "score", "headline: penalty points per seat"}
    assert set(effects.filter(pl.col("metric") == "win_share")["seat"]) == {0, 1, 2, 3}
    # A run's win shares sum to 1 over its seats whenever every play has a winner.
    for run_id in set(effects["run_id"]):
        shares = effects.filter((pl.col("run_id") == run_id) & (pl.col("metric") == "win_share"))
        winners = games.filter(pl.col("run_id") == run_id)["winners"].list.len()
        assert shares["variant_mean"].sum() == pytest.approx(float((winners > 0).mean()))
    assert set(json.loads(v)["penalty_tower"] for v in effects["variant_values"]) == {8, 12, 15}


def _per_play_values(lake: Path) -> dict[tuple[str, str, int | None], np.ndarray]:
    """Every metric's value per play, by run, metric and seat, in play order: seat 0's advantage, length, the
    headline (Die Mauer's mean penalty per seat) and each seat's win share and score."""
    games = _lake_rows(lake, "games").sort("run_id", "play_index")
    seats = _lake_rows(lake, "seats").sort("run_id", "play_index", "seat")
    values = {}
    for (run_id,), g in games.group_by("run_id"):
        winners = g["winners"].to_list()
        players = int(g["players"][0])
        values[run_id, "seat0_advantage", None] = np.array([(0 in w) / len(w) - 1 / players for w in winners])
        values[run_id, "length", None] = g["turns"].to_numpy().astype(float)
        run_seats = seats.filter(pl.col("run_id") == run_id)
        values[run_id, "headline: penalty points per seat", None] = (
            run_seats.group_by("play_index", maintain_order=True).agg(pl.col("penalty").mean())["penalty"].to_numpy())
        for seat in range(players):
            values[run_id, "win_share", seat] = np.array([(seat in w) / len(w) for w in winners])
            values[run_id, "score", seat] = (
                run_seats.filter(pl.col("seat") == seat)["score"].to_numpy().astype(float))
    return values


def _holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment, written out: the i-th smallest p times (m - i + 1), never below an earlier one."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted, running = [0.0] * len(p_values), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def test_a_figures_tests_share_one_error_rate_and_no_change_needs_a_margin(swept):
    """docs/statistics.md: every variant x metric of one figure (a sweep, player count and line-up) is one family
    for Holm (each seat's win share and score a family of their own); "no change" is said only where the 90%
    interval of the paired difference lies inside the margin (1 pp for a share, else 1% of the baseline's mean)."""
    lake, marts = swept
    effects = pl.read_parquet(marts / "mart_variant_effects.parquet")
    values = _per_play_values(lake)
    z90 = float(stats.norm.ppf(0.95))
    families: dict[tuple, list[dict]] = {}
    for row in effects.iter_rows(named=True):
        if row["is_baseline"]:
            assert (row["p_value"], row["p_holm"], row["equivalent"]) == (None, None, False)
            continue
        d = values[row["run_id"], row["metric"], row["seat"]] - values[row["baseline_run_id"], row["metric"],
                                                                        row["seat"]]
        sd = d.std(ddof=1)
        p = math.erfc(abs(d.mean()) / (sd / math.sqrt(len(d))) / math.sqrt(2)) if sd > 0 else float(d.mean() == 0)
        assert row["p_value"] == pytest.approx(p, rel=1e-6, abs=1e-300)
        share = row["metric"] in ("seat0_advantage", "win_share")
        margin = 0.01 if share else 0.01 * abs(values[row["baseline_run_id"], row["metric"], row["seat"]].mean())
        lo90, hi90 = d.mean() - z90 * sd / math.sqrt(len(d)), d.mean() + z90 * sd / math.sqrt(len(d))
        assert (row["margin"], row["difference_lo90"], row["difference_hi90"]) == pytest.approx(
            (margin, lo90, hi90), rel=1e-9, abs=1e-12)
        assert row["equivalent"] == (-margin < lo90 and hi90 < margin), row
        families.setdefault((row["sweep_id"], row["players"], row["policies"], row["seat"] is None), []).append(
            row | {"p_by_hand": p})
    assert sorted(len(f) for f in families.values()) == [6, 6, 16, 16]  # 2 variants x 3 metrics; x 2 x 4 seats
    for family in families.values():
        for row, p_holm in zip(family, _holm([r["p_by_hand"] for r in family])):
            assert row["p_holm"] == pytest.approx(p_holm, rel=1e-6, abs=1e-300), (row["metric"], row["seat"])
    # The tower's penalty changes the penalty points in every line-up, a difference Holm keeps.
    headline = effects.filter((pl.col("metric") == "headline: penalty points per seat") & ~pl.col("is_baseline"))
    assert (headline["p_holm"] < 0.05).all()


def test_the_what_if_page_draws_each_sweep(swept, tmp_path):
    from simlib.analysis.report import build_report

    lake, marts = swept
    build_report(lake, marts, tmp_path, workers=1)
    page = (tmp_path / "whatif.html").read_text()
    assert page.count("<figure id=") == 2  # one per line-up
    assert "tower 8 penalty points (against tower 15 penalty points): penalty points per seat" in page
    assert "penalty_tower=" not in re.sub(r"<table.*?</table>", "", page, flags=re.S)  # words, not names
    assert "whatif.html" in (tmp_path / "index.html").read_text()


def _pair_sums(lake: Path, marts: Path, chunk: int | None = None) -> pl.DataFrame:
    """int_variant_pair_sums run by hand over the fixture's cached per-play rows, with a block size of choice."""
    import importlib.util

    from simlib.analysis.duck import connect

    path = REPO / "pipelines" / "shared" / "int_variant_pair_sums.py"
    spec = importlib.util.spec_from_file_location("pair_sums", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.CHUNK = chunk or module.CHUNK
    con = connect()
    con.execute(f"create view stg_sweeps as select * from read_parquet('{lake}/sweeps/*/*/*.parquet', "
                f"hive_partitioning = true)")
    for view, cached in (("int_play_outcomes", "int_play_outcomes"), ("int_play_headline", "int_mauer_play_headline")):
        con.execute(f"create view {view} as select * from read_parquet('{cache_dir(marts)}/{cached}/*/*.parquet')")
    frame = module.model(type("Context", (), {"con": con})())
    return frame.sort("sweep_id", "run_id", "metric", "seat", nulls_last=True)


def test_pairing_a_block_of_plays_at_a_time_adds_up_to_pairing_all_at_once(swept):
    lake, marts = swept
    whole, blocks = _pair_sums(lake, marts), _pair_sums(lake, marts, chunk=1_500)  # 3 blocks, the last partial
    # Per run: seat 0's advantage, length, the headline, and the win share and score of each of the 4 seats.
    assert whole.height == 6 * 11 and whole["n_pairs"].min() == PLAYS
    assert whole.select("run_id", "metric", "seat", "n_pairs").equals(blocks.select("run_id", "metric", "seat",
                                                                                     "n_pairs"))
    for column in ("v_sum", "v_sq_sum", "b_sum", "b_sq_sum", "d_sum", "d_sq_sum"):
        assert blocks[column].to_list() == pytest.approx(whole[column].to_list(), rel=1e-12, abs=1e-9)


def test_per_play_rows_are_kept_for_swept_runs_only_and_a_run_joining_a_sweep_gets_them(tmp_path, capsys):
    lake, marts = tmp_path / "lake", tmp_path / "marts"
    # A mixed table (three policies): not a run of the skill ladder, whose runs are compared by their headline too.
    plain = ["--players", "4", "--policies", "random,heavy,reader,random", "--plays", "1000", "--lake", str(lake),
             "--quiet"]
    assert main(["simulate", "mauer", *plain]) == 0  # seed 0, every command's default
    build(lake, marts, tmp_path / "db.duckdb")
    assert not list(cache_dir(marts).glob("int_play_outcomes/*/*.parquet"))
    assert pl.read_parquet(marts / "mart_variant_effects.parquet").is_empty()
    # The same run is the baseline of a sweep made later: its per-play rows are computed then.
    assert main(["sweep", "mauer", "--vary", "penalty_tower=12", "--no-report", *plain]) == 0
    out = capsys.readouterr().out.splitlines()
    # Each run's set-up in words, as the batch says it (not the policies' specs).
    assert out[-3].startswith("[1/2] baseline mauer run ") and out[-3].endswith(
        ": 4 players: random, heavy, reader, random; 1,000 plays (already complete)")
    assert out[-2].startswith("[2/2] variant mauer run ") and out[-2].endswith(
        ": 4 players: random, heavy, reader, random, tower 12 penalty points; 1,000 plays (written)")
    build(lake, marts, tmp_path / "db.duckdb")
    assert len(list(cache_dir(marts).glob("int_play_outcomes/*/*.parquet"))) == 2
    effects = pl.read_parquet(marts / "mart_variant_effects.parquet")
    assert set(effects["n_plays"]) == {1000} and effects["is_baseline"].sum() == 3 + 2 * 4


def test_the_pipeline_computes_the_same_marts_in_one_process_or_several(swept, tmp_path):
    from support.digests import mart_digests

    lake, marts = swept
    build(lake, tmp_path / "one", tmp_path / "one.duckdb", workers=1)
    assert mart_digests(tmp_path / "one") == mart_digests(marts) != {}


@pytest.mark.parametrize("entry, message", [
    ("players = \"4\"", "players are numbers"),
    ("base = 5", "base must be a dict"),
    ("plays = \"100\"", "plays must be a int"),
    ("policies = \"random\"", "policies must be a list"),
])
def test_a_malformed_batch_sweep_is_one_clear_error(tmp_path, entry, message):
    spec = {"vary": "{ penalty_tower = [8] }", "players": "4", "policies": "[\"random\"]", "plays": "100"}
    key = entry.split(" = ")[0]
    lines = [f"{k} = {v}" for k, v in spec.items() if k != key] + [entry]
    batch = tmp_path / "b.toml"
    batch.write_text("[[sweep]]\n" + "\n".join(lines) + "\n")
    with pytest.raises(SimlibError, match=message):
        read_batch(MAUER, batch)


def test_every_metric_s_difference_and_interval_follow_the_paired_plays(swept):
    """Length and seat 0's score of the heavy line-up, paired by play index and worked out with NumPy."""
    lake, marts = swept
    effects = pl.read_parquet(marts / "mart_variant_effects.parquet").filter(
        pl.col("policies").str.starts_with("heavy") & ~pl.col("is_baseline"))
    games, seats = _lake_rows(lake, "games"), _lake_rows(lake, "seats")
    checked = 0
    for row in effects.filter(pl.col("metric").is_in(["length", "score"])).iter_rows(named=True):
        if row["metric"] == "length":
            frame, column = games, "turns"
        elif row["seat"] == 0:
            frame, column = seats.filter(pl.col("seat") == 0), "score"
        else:
            continue
        v = frame.filter(pl.col("run_id") == row["run_id"]).sort("play_index")[column].to_numpy().astype(float)
        b = frame.filter(pl.col("run_id") == row["baseline_run_id"]).sort("play_index")[column].to_numpy().astype(float)
        d = v - b
        half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if d.std() > 0 else 0.0
        assert row["difference"] == pytest.approx(d.mean(), abs=1e-12)
        assert (row["difference_lo"], row["difference_hi"]) == pytest.approx((d.mean() - half, d.mean() + half),
                                                                              abs=1e-9)
        checked += 1
    assert checked == 4  # two variants, length and seat 0's score each


def test_one_sweep_run_on_several_seeds_is_one_sweep_each_play_counted_once(tmp_path):
    """A family (int_sweep_families): the same sweep on seeds 1 and 2 pools into one row per variant and metric;
    a shorter sweep on seed 1 is a prefix of the longer one and is not counted again."""
    lake, marts = tmp_path / "lake", tmp_path / "marts"
    for seed, plays in ((1, 200), (2, 100), (1, 100)):
        assert main(["sweep", "mauer", "--vary", "penalty_tower=12", "--players", "3", "--policies", "random",
                     "--plays", str(plays), "--seed", str(seed), "--lake", str(lake), "--no-report", "--quiet"]) == 0
    assert build(lake, marts, tmp_path / "simlib.duckdb").test_failures == []
    effects = pl.read_parquet(marts / "mart_variant_effects.parquet").filter(
        ~pl.col("is_baseline") & pl.col("seat").is_null())
    assert effects["sweep_id"].n_unique() == 1 and set(effects["n_sweeps"]) == {2}
    assert set(effects["n_plays"]) == {300}  # 200 on seed 1 and 100 on seed 2; the 100 on seed 1 are among the 200
