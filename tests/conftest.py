"""Hypothesis profiles: CI (`bash .ci/run`, which runs with CI=true) runs the same examples every time;
locally the tests keep Hypothesis's default, randomised profile and draw new examples on every run.

The profile is loaded here, before pytest imports the test modules, so a test's own `@settings(...)`
(e.g. max_examples, deadline) takes everything it does not set from the loaded profile.
"""

from __future__ import annotations

import os

from hypothesis import settings

# derandomize: the examples follow from the test alone, the same on every run; no deadline (Numba compiles
# on a test's first call); no example database, neither read nor written.
settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)

if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
    settings.load_profile("ci")

# Tests import game modules directly (a kernel, a rules module): load the registry first, which checks every
# game's Numba cache against its sources before any game is imported.
from simlib.core.registry import games  # noqa: E402

games()


# The fast tier (`make test-fast`, `pytest -m "not slow"`): the rules, marts on fixtures and the command line in
# process, a few minutes; `make test` runs everything. What it leaves out is listed here, in one place, with the
# reason: whole modules that build real lakes, start servers, browsers or installs, or play searches to the end;
# and single tests that do so inside an otherwise quick module. Seconds: measured on the full suite (2 cores).
SLOW_MODULES = {
    "test_browser": "a report of every game in headless Chromium (160 s)",
    "test_install": "builds and installs the wheel (105 s)",
    "test_object_store": "an S3 server and a Dask cluster (122 s)",
    "test_dask": "a Dask cluster (17 s)",
    "test_notebook": "runs the README's notebook (31 s)",
    "test_calibration": "coverage on lakes of known truth (21 s)",
    "test_toy_game": "installs a toy game and builds its marts (36 s)",
    "test_jit_cache": "compiles a game with an empty cache (16 s)",
    "test_versions": "simulates and builds the marts twice (9 s)",
    "test_lake_faults": "kills writers, fills disks, interrupts queries (110 s)",
    "test_sql": "a lake and its marts (60 s)",
    "test_report": "every game's pages drawn (81 s)",
    "test_pages_mauer_mauerbruch_catan": "real lakes and pages (42 s)",
    "test_pages_mauerspechte_sevensteps_burgenland": "real lakes and pages",
    "test_mauerspechte_pipeline": "a real lake and its marts (82 s)",
    "test_burgenland_pipeline": "a real lake and its marts (20 s)",
    "test_sevensteps_pipeline": "a real lake and its marts (21 s)",
    "test_catan_end_to_end": "a real lake and its marts",
    "test_sweeps": "sweeps simulated and built (32 s)",
    "test_pooling": "overlapping runs built (18 s)",
    "test_design_sensitivity": "Morris and Sobol over real plays (46 s)",
    "test_design_every_game": "design searches of every game (84 s)",
    "test_search_hygiene_catan": "search plays stepped to the end (177 s)",
    "test_search_hygiene_mauerspechte": "search plays stepped to the end (209 s)",
}
SLOW_TESTS = {
    "test_a_search_play_replays_alone": "a search play of every seat to the end, twice (20-220 s)",
    "test_every_recorded_mart_is_unchanged": "a lake of every game and its marts (24 s)",
    "test_editing_one_games_model_recomputes_only_it": "the marts built three times (47 s)",
    "test_a_new_run_is_computed_alone_and_incomplete_runs_are_left_out": "the marts built twice (9 s)",
    "test_mauerbruch_endings_by_hand": "a real lake (34 s)",
    "test_mauer_match_totals_are_the_same_on_a_second_build": "the marts built twice",
    "test_fuzz_the_command_line_one_line_and_exit_2_never_a_traceback_nor_a_write": "800 command lines (20 s)",
    "test_the_stepped_play_is_the_kernels_play": "plays stepped decision by decision (7-26 s)",
    "test_the_tune_agrees_with_a_grid_on_a_known_answer": "a tune and a grid over real plays (28 s)",
    "test_real_plays_are_recorded_as_a_tune_per_parameter": "fix searches over real plays",
    "test_random_policy_statistics_match_its_definition": "a large sample (13 s)",
    "test_the_search_does_not_read_what_its_seat_has_not_seen": "searches of two worlds (17 s)",
    "test_a_rollout_from_the_opening_is_the_kernels_play": "Catan rollouts from the opening (52 s)",
    "test_a_rollout_from_the_opening_with_the_seats_policies_is_the_kernels_play": "Die Mauerspechte rollouts (23 s)",
    "test_every_play_replays_legally_to_the_tables": "every play of a real run through the reference (18-20 s)",
    "test_the_replayed_games_exercise_every_rule": "a real run through the reference (19 s)",
    "test_events_replay_legally_to_the_tables": "real runs through the reference",
    "test_the_reference_catches_tampered_events": "a real run through the reference (10 s)",
    "test_each_rung_meets_the_nearest_rung_below_that_was_played": "a ladder simulated (8 s)",
    "test_the_runs_meet_every_situation": "real runs through the reference (27-36 s)",
    "test_the_tables_are_held_to_the_replay": "a real run through the reference (10 s)",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: left out of the fast tier (make test-fast); tests/conftest.py says why")


def pytest_collection_modifyitems(config, items):
    import pytest

    for item in items:
        name = item.originalname if hasattr(item, "originalname") else item.name
        if item.module.__name__ in SLOW_MODULES or name in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
