"""`simlib tune` (issue 25): bad input gets one line and exit 2 with nothing written; the metrics are the
pipeline's; and on a case whose answer is known (Die Mauer's mean penalty is linear in the tower's cost, so a
two-point grid on common random numbers gives the cost that meets a target) the tune agrees with the grid."""

from __future__ import annotations

import json

import numpy as np
import pyarrow.dataset as ds
import pytest

from simlib.core.config import RunConfig
from simlib.core.errors import SimlibError
from simlib.core.lake import Lake
from simlib.core.registry import get_game
from simlib.core.runner import run
from simlib.design.metrics import estimate, play_values
from simlib.design.tune import Tune, parse_box, parse_targets

from support.cli import run_cli

MAUER = get_game("mauer")


@pytest.mark.parametrize(("vary", "words"), [
    ("towr=5..25", "'towr' is not a rule parameter of mauer"),
    ("penalty_tower=25..5", "the range 25..5 is empty"),
    ("penalty_tower=-5..25", "below the minimum"),
    ("penalty_tower=5", "give two or more different values"),
    ("max_baurunden=100..200x", "is not an integer"),
    ("rounds=1..5", "a match parameter"),
])
def test_a_bad_box_is_refused(vary, words):
    with pytest.raises(SimlibError, match=words):
        parse_box(MAUER, [vary])


@pytest.mark.parametrize(("target", "words"), [
    ("mean_pennalty=12", "unknown metric 'mean_pennalty'"),
    ("seat0_advantage=0.9", "cannot be reached: seat0_advantage lies in -0.25..0.75"),
    ("balance=1.5", "cannot be reached"),
    ("mean_length=abc", "is not a number"),
    ("seat4_score=1", "unknown metric 'seat4_score'"),
    ("mean_length=inf", "give a finite number"),
])
def test_a_bad_target_is_refused(target, words):
    with pytest.raises(SimlibError, match=words):
        parse_targets(MAUER, 4, [target])


def test_the_headline_answers_to_the_games_own_name():
    assert parse_targets(MAUER, 4, ["mean_penalty=12", "seat0_advantage=0"]) == {"mean_penalty": 12.0,
                                                                               "seat0_advantage": 0.0}
    with pytest.raises(SimlibError, match="given twice"):
        parse_targets(MAUER, 4, ["mean_penalty=12", "headline=11"])


def test_a_budget_too_small_to_confirm_is_refused():
    box, targets = parse_box(MAUER, ["penalty_tower=5..25"]), {"mean_penalty": 12.0}
    with pytest.raises(SimlibError, match="too small to search and confirm"):
        Tune(MAUER, box, targets, 4, "random", budget=2_000)


@pytest.mark.parametrize("trials", [2, 4, 12, 20])
def test_the_least_budget_named_is_enough_and_a_refined_candidate_plays_more_than_a_trial(trials):
    box, targets = parse_box(MAUER, ["penalty_tower=5..25"]), {"mean_penalty": 12.0}
    with pytest.raises(SimlibError, match="need at least") as refused:
        Tune(MAUER, box, targets, 4, "random", budget=1_000, trials=trials)
    least = int(refused.value.args[0].split("need at least ")[1].split(" ")[0].replace(",", ""))
    tune = Tune(MAUER, box, targets, 4, "random", budget=least, trials=trials)  # the plays after block rounding
    with pytest.raises(SimlibError, match="too small"):
        Tune(MAUER, box, targets, 4, "random", budget=least - tune.block, trials=trials)
    trial, refine, confirm = tune.stage_plays()
    assert refine >= 2 * trial and trial * trials + refine * 3 + confirm <= least


def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path):
    lake = tmp_path / "lake"
    done = run_cli("tune", "mauer", "--vary", "penalty_tower=5..25", "--target", "mean_penalty=12", "--players", "4",
                   "--policies", "random", "--budget", "100", "--lake", str(lake))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "too small" in done.stderr
    assert not lake.exists()


def test_the_metrics_are_the_plays_own(tmp_path):
    config = RunConfig.build(MAUER, players=4, policies=["random"], plays=2_000, seed=5)
    result = run(config, tmp_path, progress=False)
    values = play_values(Lake.at(tmp_path), MAUER, result.run_id)
    seats = ds.dataset(tmp_path / "seats", partitioning="hive").to_table().to_pandas().sort_values(
        ["play_index", "seat"])
    penalty = seats.groupby("play_index")["penalty"].mean()
    assert estimate(values, "headline").value == pytest.approx(penalty.mean())
    seat0 = seats[seats.seat == 0]
    shares = seats.groupby("play_index")["winner"].sum()
    expected = (seat0.set_index("play_index")["winner"] / shares).mean() - 0.25
    advantage = estimate(values, "seat0_advantage")
    assert advantage.value == pytest.approx(expected)
    assert advantage.lo < advantage.value < advantage.hi


def _mean_penalty(lake, tower: int, plays: int, seed: int) -> float:
    config = RunConfig.build(MAUER, players=4, policies=["random"], plays=plays, seed=seed,
                             options={"penalty_tower": tower})
    return estimate(play_values(Lake.at(lake), MAUER, run(config, lake, progress=False).run_id), "headline").value


def test_the_tune_agrees_with_a_grid_on_a_known_answer(tmp_path):
    # Mean penalty is linear in the tower's cost (each play's penalty is a + tower x towers held), and two costs
    # on the same seed play the same plays: the line through them gives the cost that meets the target.
    low, high = _mean_penalty(tmp_path / "grid", 5, 20_000, 1), _mean_penalty(tmp_path / "grid", 25, 20_000, 1)
    target = round(low + 0.4 * (high - low), 2)
    answer = 5 + 20 * (target - low) / (high - low)
    done = run_cli("tune", "mauer", "--vary", "penalty_tower=5..25", "--target", f"mean_penalty={target}",
                   "--players", "4", "--policies", "random", "--budget", "60000", "--trials", "12",
                   "--seed", "1", "--lake", str(tmp_path / "lake"), "--quiet")
    assert done.returncode == 0, done.stderr
    rows = ds.dataset(tmp_path / "lake" / "tunes", partitioning="hive").to_table().to_pandas()
    confirm = rows[rows.stage == "confirm"].iloc[0]
    tower = json.loads(confirm.step_values)["penalty_tower"]
    assert abs(tower - answer) <= 1.0, (tower, answer)
    assert confirm.value_lo <= target <= confirm.value_hi or abs(tower - answer) > 0.5  # an integer cost may miss
    assert sorted(set(rows.stage)) == ["confirm", "refine", "search"]
    assert rows.plays.sum() <= 60_000
    assert np.all(rows[rows.stage != "confirm"].seed == 1) and confirm.seed == 2
    assert "recommended: penalty_tower=" in done.stdout
    # The report's Design search section states the same recommendation, with its interval.
    lake, marts = str(tmp_path / "lake"), str(tmp_path / "marts")
    assert run_cli("pipeline", "--lake", lake, "--marts", marts, "--db", str(tmp_path / "db.duckdb")).returncode == 0
    assert run_cli("report", "--lake", lake, "--marts", marts, "--out", str(tmp_path / "out")).returncode == 0
    page = (tmp_path / "out" / "mauer.html").read_text()
    assert f"recommends penalty_tower = {tower}: on {confirm.plays:,} fresh plays mean_penalty" in page
    assert f"target {target:g}, {'inside' if confirm.value_lo <= target <= confirm.value_hi else 'outside'}" in page


def test_the_answer_says_which_side_no_value_reached():
    from simlib.analysis.tunes import Estimate, Evaluation
    from simlib.design.tune import answer_lines

    tune = Tune(MAUER, parse_box(MAUER, ["penalty_tower=5..25"]), {"seat0_advantage": 0.0}, 4, "random", 100_000)
    done = [Evaluation("search", k, {"penalty_tower": v}, "", 1, 2500, {"seat0_advantage": Estimate(
        -0.04 - v / 1000, -0.05, -0.03, 0.4, 2500)}, 0.0) for k, v in enumerate([5, 15, 25, 15])]
    lines = answer_lines(tune, done)
    assert "target 0 is outside" in lines[1]
    assert "no value of penalty_tower tried gives seat0_advantage above 0" in lines[2]
