"""Done when (issue 9): a game defined outside simlib — a few lines of rules, one staging model, one mart,
one report section, in its own folders (tests/toy/) — is registered, simulated, built by `simlib
pipeline` and shown by `simlib report`, with no edit to simlib/core, simlib/analysis or pipelines/shared.

The toy game registers through an entry point (tests/toy/toy_dice-0.1.dist-info), found because
tests/toy is on PYTHONPATH: the same way an installed game package would be.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from support.paths import REPO, TOY
from support.report_pages import figure_png


def simlib(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(TOY), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "simlib.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("toy")
    for policies in ("plain", "plain,lucky,plain"):
        done = simlib("simulate", "toydice", "--plays", "3000", "--players", "3", "--policies", policies,
                      "--option", "dice=3", "--lake", "lake", "--quiet", cwd=root)
        assert done.returncode == 0, done.stderr
    pipeline = simlib("pipeline", "--lake", "lake", "--marts", "marts", "--db", "simlib.duckdb", cwd=root)
    assert pipeline.returncode == 0, pipeline.stderr + pipeline.stdout
    report = simlib("report", "--lake", "lake", "--marts", "marts", "--out", "reports", cwd=root)
    assert report.returncode == 0, report.stderr
    return root, pipeline.stdout


def test_the_toy_game_is_registered_with_its_parameters(tmp_path):
    games = simlib("games", cwd=tmp_path)
    assert "toydice" in games.stdout and "mauer" in games.stdout
    assert "assumed" in simlib("params", "toydice", cwd=tmp_path).stdout


def test_its_own_mart_is_built_and_tested_beside_the_shared_ones(built):
    root, output = built
    assert "0 failed" in output
    totals = pl.read_parquet(root / "marts" / "mart_toydice_totals.parquet")
    assert totals["run_id"].n_unique() == 2 and totals["total"].min() >= 3 and totals["total"].max() <= 18
    assert totals.group_by("run_id").agg(pl.col("share").sum())["share"].to_list() == pytest.approx([1, 1])
    seats = pl.read_parquet(root / "marts" / "mart_seat_outcomes.parquet").filter(pl.col("game") == "toydice")
    lucky = seats.filter(pl.col("policy") == "lucky").row(0, named=True)
    assert lucky["win_rate_lo"] > 1 / 3  # rerolling ones pays
    stamp = (root / "marts" / "mart_toydice_totals.parquet").stat().st_mtime_ns
    again = simlib("pipeline", "--lake", "lake", "--marts", "marts", "--db", "simlib.duckdb", cwd=root)
    assert "(0 new)" in again.stdout and (root / "marts" / "mart_toydice_totals.parquet").stat().st_mtime_ns > stamp


def test_its_report_section_is_on_its_page(built):
    root, _ = built
    page = (root / "reports" / "toydice.html").read_text()
    assert "id='toydice_totals'" in page and "The most common total is" in page
    assert "id='toydice_seat_advantage'" in page  # the generic sections too
    assert len(figure_png(page, "toydice_totals")) > 5_000
    assert "toydice.html" in (root / "reports" / "index.html").read_text()


def test_nothing_of_it_lives_in_simlib_or_the_shared_pipelines():
    for folder in (REPO / "simlib", REPO / "pipelines"):
        assert not [p for p in folder.rglob("*") if "toydice" in p.name or "toy_dice" in p.name]
