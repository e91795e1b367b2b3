"""Versions follow the code a run uses: Die Mauerspechte runs Catan's rules, so a new Catan rules version gives
Die Mauerspechte new run ids (not an old run answering "already complete") and marts computed afresh."""

from __future__ import annotations

import json

import pyarrow.parquet as pq

from simlib.analysis.pipeline import build
from simlib.core.config import RunConfig
from simlib.core.lake import Lake
from simlib.core.runner import run
from simlib.games.catan import GAME as CATAN
from simlib.games.mauer import GAME as MAUER
from simlib.games.mauerspechte import GAME as MAUERSPECHTE


def _config():
    return RunConfig.build(MAUERSPECHTE, players=3, policies=["random"], plays=2, seed=5)


def test_a_game_on_its_own_engine_keeps_its_run_ids():
    config = RunConfig.build(MAUER, players=3, policies=["random"], plays=5, seed=5)
    assert MAUER.rules_versions() == {"mauer": 1}
    assert config.run_id({"mauer": 1}) != config.run_id({"mauer": 2})
    assert MAUERSPECHTE.rules_versions() == {"catan": CATAN.rules_version, "mauerspechte": MAUERSPECHTE.rules_version}


def test_a_catan_rules_bump_gives_die_mauerspechte_new_runs_and_marts(tmp_path, monkeypatch):
    lake, marts = tmp_path / "lake", tmp_path / "marts"
    first = run(_config(), lake, workers=1, progress=False)
    assert build(lake, marts, tmp_path / "simlib.duckdb", workers=1).runs_computed == 1
    again = run(_config(), lake, workers=1, progress=False)
    assert again.run_id == first.run_id and again.already_complete

    monkeypatch.setattr(CATAN, "rules_version", CATAN.rules_version + 1)
    bumped = run(_config(), lake, workers=1, progress=False)
    assert bumped.run_id != first.run_id and not bumped.already_complete
    runs = Lake.at(lake).read_table(Lake.at(lake).part_path("runs", "mauerspechte", bumped.run_id, 0))
    assert json.loads(runs["rules_versions"][0].as_py()) == {"catan": CATAN.rules_version,
                                                             "mauerspechte": MAUERSPECHTE.rules_version}
    result = build(lake, marts, tmp_path / "simlib.duckdb", workers=1)
    assert (result.runs, result.runs_computed) == (2, 1)  # the new run computed, the old one from the cache
    seats = pq.read_table(marts / "mart_seat_outcomes.parquet").to_pylist()
    assert {r["run_id"] for r in seats} == {first.run_id, bumped.run_id}
