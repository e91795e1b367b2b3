"""`simlib sensitivity` (issue 25, item 3) on a case whose answer is known: at random players Die Mauer's penalty
values never change a play's course (random plans ignore them), so on one seed every play is the same at every
point and their effect on the length is exactly 0; the mean penalty is linear in each value (no interaction:
Morris' sigma 0), the tower's effect the largest over these ranges. Bad input: one line, exit 2, nothing written."""

from __future__ import annotations

import html

import pytest

from simlib.core.errors import SimlibError
from simlib.core.lake import Lake
from simlib.core.registry import get_game
from simlib.design import sensitivity as sa
from simlib.design.evaluate import lake_evaluator, one_at_a_time
from simlib.design.tune import parse_box

from support.cli import run_cli

MAUER = get_game("mauer")
BOX = ["penalty_tower=5..25", "penalty_wall_1=0..5", "penalty_gate=5..15"]


def test_morris_finds_no_effect_where_there_is_none_and_the_linear_effects_in_order(tmp_path):
    box, metrics = parse_box(MAUER, BOX), ["mean_length", "mean_penalty"]
    lake = Lake.at(tmp_path)

    build = sa.Analysis(MAUER, box, "morris", metrics, 4, "random", 1_000, 3, 4, {}).config
    evaluate = one_at_a_time(lake_evaluator(lake, MAUER, metrics))

    points = sa.sample(box, "morris", 4, seed=1)
    results = sa.run_points(box, points, build, evaluate, metrics, 3)
    floors = sa.noise_floors(box, points, results, build, evaluate, 3)
    effects = sa.analyse(box, "morris", points, results, 1, floors)
    got = {(e.parameter, e.metric, e.index): e.value for e in effects}
    assert all(got[(p, "mean_length", i)] == 0 for p in ("penalty_tower", "penalty_wall_1", "penalty_gate")
               for i in ("mu_star", "sigma"))
    penalty = {p: got[(p, "mean_penalty", "mu_star")] for p in ("penalty_tower", "penalty_wall_1", "penalty_gate")}
    assert penalty["penalty_tower"] > penalty["penalty_gate"] > penalty["penalty_wall_1"] > 0
    assert all(abs(got[(p, "mean_penalty", "sigma")]) < 1e-9 for p in penalty)
    # The noise floor from replicated steps: a penalty changes no play here, so on every seed its step's effect on
    # the length is exactly 0 and its floor 0; on the mean penalty each seed's effect is the value's change times
    # that seed's mean count of pieces, so the floor is positive, far below the effect.
    noise = {(e.parameter, e.metric): e.noise for e in effects if e.index == "mu_star"}
    assert all(noise[(p, "mean_length")] == 0 for p in penalty)
    assert all(0 < noise[(p, "mean_penalty")] < penalty[p] / 10 for p in penalty)


def test_the_noise_floor_is_the_spread_of_one_steps_effect_across_seeds():
    """Replicated points: a step's elementary effects on seeds 3, 4, 5, 6 of 1.0, 1.2, 0.8, 1.0 give a floor of
    sqrt(2 / pi) times their sd; a parameter every trajectory moves once is replayed once."""
    import numpy as np

    assert sa.morris_noise([1.0, 1.2, 0.8, 1.0]) == pytest.approx(np.sqrt(2 / np.pi) * np.std([1, 1.2, 0.8, 1],
                                                                                                 ddof=1))
    box = parse_box(MAUER, BOX)
    points = sa.sample(box, "morris", 4, seed=1)
    steps = sa.replicated_steps(box, points)
    assert sorted(steps) == [0, 1, 2]
    for k, (a, b) in steps.items():
        assert b == a + 1 and np.flatnonzero(points[a] != points[b]).tolist() == [k]


@pytest.mark.parametrize(("method", "size", "words"), [("morris", 1, "2 or more trajectories"),
                                                       ("sobol", 48, "a power of 2"), ("fast", 8, "one of")])
def test_a_bad_sample_is_refused(method, size, words):
    with pytest.raises(SimlibError, match=words):
        sa.sample(parse_box(MAUER, BOX), method, size, 1)


def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path):
    lake = tmp_path / "lake"
    for extra, words in ((["--vary", "penalty_tower=5..25", "--vary", "penalty_tower=5,10"], "given twice"),
                         (["--vary", "penalty_tower=5..25", "--metric", "towers"], "unknown metric")):
        metric = [] if "--metric" in extra else ["--metric", "mean_length"]
        done = run_cli("sensitivity", "mauer", *extra, *metric, "--players", "4", "--policies", "random",
                       "--plays", "100", "--lake", str(lake))
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert not lake.exists()


def test_the_command_records_its_indices_and_the_page_says_which_parameters_matter(tmp_path):
    lake, marts, out = (str(tmp_path / x) for x in ("lake", "marts", "out"))
    done = run_cli("sensitivity", "mauer", *[a for v in BOX[:2] for a in ("--vary", v)], "--metric", "mean_length",
                   "--metric", "mean_penalty", "--size", "3", "--players", "4", "--policies", "random",
                   "--plays", "500", "--lake", lake)
    assert done.returncode == 0, done.stderr
    assert run_cli("pipeline", "--lake", lake, "--marts", marts, "--db", str(tmp_path / "db.duckdb")).returncode == 0
    assert run_cli("report", "--lake", lake, "--marts", marts, "--out", out).returncode == 0
    page = html.unescape((tmp_path / "out" / "mauer.html").read_text())
    assert "mean_length: no parameter shown to move it beyond the plays' own noise" in page
    assert "mean_penalty moves with penalty_tower (mu* " in page and "penalty_wall_1 (mu* " in page


def test_noise_alone_is_not_an_effect():
    # A metric that is pure noise (each point's value drawn with standard error 0.01): mu_star is positive by
    # construction, but not beyond the noise floor, so no parameter is said to move it.
    import numpy as np

    box = parse_box(MAUER, BOX)
    points = sa.sample(box, "morris", 10, seed=1)
    noise = np.random.default_rng(5).normal(0, 0.01, len(points))
    floor = sa.morris_noise(np.random.default_rng(6).normal(0, 0.01, 4) / (2 / 3))  # a step's effect on 4 seeds
    effects = sa.analyse(box, "morris", points, {"seat0_advantage": noise}, 1,
                         {(d.name, "seat0_advantage"): floor for d in box})
    main = [e for e in effects if e.index == "mu_star"]
    assert all(e.value > 0 for e in main)
    assert not any(e.value - e.conf > e.noise for e in main)
