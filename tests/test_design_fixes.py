"""`simlib fixes` (issue 25, item 2): the parameters looked at, the search on a grid then by halving, and bad input.

The search's known-answer case is a metric of a known shape; a fix on real plays has no known answer here yet."""

from __future__ import annotations

import subprocess
import sys

import pytest

from simlib.core.errors import SimlibError
from simlib.core.registry import get_game
from simlib.design.fixes import FIX_TRIALS, candidate_ranges, fair_value, grid_then_bisection
from simlib.design.metrics import Estimate
from simlib.design.tune import Evaluation, Tune, parse_box

MAUER = get_game("mauer")


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simlib.cli", *args], capture_output=True, text=True)


def test_the_rules_own_numbers_are_searched_not_our_assumptions():
    names = [d.name for d in candidate_ranges(MAUER, set())]
    assert "rounds" not in names  # a match parameter
    assert names[:7] == [f"penalty_wall_{k}" for k in range(1, 6)] + ["penalty_gate", "penalty_tower"]
    assert "max_baurunden" not in names  # assumed: a safety limit, not a rule
    tower = next(d for d in candidate_ranges(MAUER, set()) if d.name == "penalty_tower")
    assert (tower.low, tower.high) == (0, 30)  # no maximum given: up to twice the rule's 15


def test_only_a_metric_with_a_fair_value_has_fixes():
    assert fair_value(MAUER, 4, "seat0_advantage") == 0
    for metric in ("mean_penalty", "balance"):  # balance: 1 is the edge of its range, no interval holds it
        with pytest.raises(SimlibError, match=f"{metric} has no fair value"):
            fair_value(MAUER, 4, metric)


def test_the_grid_then_halving_narrows_a_crossing_to_one_step():
    # A metric of a known shape (value = tower / 2): the target 6.2 is crossed between 12 and 13.
    tune = Tune(MAUER, parse_box(MAUER, ["penalty_tower=0..30"]), {"mean_penalty": 6.2}, 4, "random", 100_000,
                trials=FIX_TRIALS)
    tried = []

    def step(stage, values, plays, seed):
        v = values["penalty_tower"]
        tried.append(v)
        return Evaluation(stage, len(tried), values, "", seed, plays, {"mean_penalty": Estimate(v / 2, v / 2, v / 2,
                                                                                                 1.0, plays)}, 0.0)

    grid_then_bisection(tune, step)
    assert tried == [0, 6, 12, 18, 24, 30, 15, 13]  # the grid, then 12..18 halved until 12 and 13 are neighbours


@pytest.mark.parametrize(("flags", "words"), [
    (["--metric", "mean_penalty", "--budget", "40000"], "no fair value"),
    (["--budget", "100"], "too small"),
    (["--budget", "40000", "--skip", "towr"], "unknown option 'towr'"),
])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, flags, words):
    lake = tmp_path / "lake"
    done = run_cli("fixes", "mauer", "--players", "4", "--policies", "random", "--lake", str(lake), *flags)
    assert done.returncode == 2, done.stdout
    assert done.stderr.count("\n") == 1 and words in done.stderr
    assert not lake.exists()


def test_the_index_names_the_smallest_confirmed_fix():
    import polars as pl

    from simlib.analysis.design import fix_answer

    def row(values, value, lo, hi, box, inside=True):
        return {"is_recommendation": True, "metric": "seat0_advantage", "target": 0.0, "step_values": values,
                "target_inside": inside, "value": value, "value_lo": lo, "value_hi": hi, "box": box, "players": 4,
                "policies": "reader", "n_plays": 12_000}

    defaults = {"penalty_tower": 15, "penalty_gate": 10}
    steps = pl.DataFrame([row('{"penalty_tower": 3}', 0.001, -0.006, 0.008, "penalty_tower=0..30"),
                          row('{"penalty_gate": 8}', -0.002, -0.009, 0.005, "penalty_gate=0..20"),
                          row('{"penalty_gate": 2}', 0.03, 0.02, 0.04, "penalty_gate=0..20", inside=False)])
    assert fix_answer(steps, defaults) == ("penalty_gate 10 → 8 at 4 players (reader): seat 0's advantage -0.2 pp "
                                           "(-0.9 to +0.5) on 12,000 fresh plays, the smallest change of 2 confirmed.")
    assert fix_answer(steps.tail(1), defaults).startswith("No single change tried was confirmed")
    assert fix_answer(steps.with_columns(metric=pl.lit("balance")), defaults) == ""
