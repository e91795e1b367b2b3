"""`simlib fixes` (issue 25, item 2; issue 35, item 4): the parameters looked at, every value of a short range on one
seed, every crossing of the fair value, fair meaning equivalent within a margin (TOST) on fresh plays, bad input.

The search's known answers are metrics of a known shape (Die Mauer's four-reader tower curve as measured, a
parameter with no effect); TOST's are scipy's own one-sample t-tests on the same plays."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from simlib.analysis.estimators import Z95
from simlib.analysis.tunes import Estimate, Evaluation, candidate_ranges, every_value, tost
from simlib.core.errors import SimlibError
from simlib.core.registry import get_game
from simlib.design.fixes import FIX_TRIALS, confirm_plays, fair_value, find_fix, fix_searches, grid_then_bisection
from simlib.design.tune import Tune, parse_box

from support.cli import run_cli

MAUER = get_game("mauer")
SD = 0.43  # a play's sd of seat 0's advantage at four players
# Seat 0's advantage at four readers by tower cost as a paired sweep measured it (seed 21, 5,000 plays each): it
# crosses zero twice between the old grid's 0 and 6, and rises beyond.
TOWER = {0: 0.063, 1: -0.019, 2: -0.023, 3: 0.073} | {v: 0.09 + 0.001 * v for v in range(4, 31)}


def shaped(curve, confirmed=None):
    """An evaluator of a known shape: `curve` by the tower cost on every seed, or `confirmed` on a fresh seed;
    each configuration it was given recorded."""
    seen = []

    def evaluate_many(configs):
        out = []
        for config in configs:
            seen.append(config)
            v = config.options["penalty_tower"]
            mean = confirmed(v) if confirmed and config.seed != 1 else curve(v)
            half = Z95 * SD / math.sqrt(config.plays)
            out.append({"seat0_advantage": Estimate(mean, mean - half, mean + half, SD, config.plays)})
        return out
    return evaluate_many, seen


def tower_search(budget=200_000, only=("penalty_tower",), margin=0.01):
    (search,) = fix_searches(MAUER, "seat0_advantage", 4, "reader", budget, 1, {}, only=list(only), margin=margin)
    return search


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


def test_a_short_range_is_played_at_every_value_on_one_seed():
    search = tower_search()
    assert every_value(search.dim) == list(range(31)) and search.trials == 31
    evaluate_many, seen = shaped(TOWER.get)
    fix = find_fix(search, evaluate_many)
    searched = [c for c in seen if c.seed == 1]
    assert [c.options["penalty_tower"] for c in searched] == list(range(31))
    assert len({c.plays for c in searched}) == 1  # the same plays and seed at every value: common random numbers
    assert [e.values["penalty_tower"] for e in fix.searched] == list(range(31))


def test_every_crossing_between_grid_points_is_found_and_the_nearest_fair_confirmed_on_a_fresh_seed():
    evaluate_many, seen = shaped(TOWER.get, confirmed=lambda v: 0.002)
    fix = find_fix(tower_search(), evaluate_many)
    assert all(TOWER[v] > 0 for v in (0, 6, 12, 18, 24, 30))  # the old grid saw no crossing at all
    assert [(c.low, c.high) for c in fix.crossings] == [(0, 1), (2, 3)]
    assert [(c.low_estimate.value, c.high_estimate.value) for c in fix.crossings] == [(0.063, -0.019),
                                                                                       (-0.023, 0.073)]
    assert fix.confirmation.values == {"penalty_tower": 1} and fix.confirmation.seed == 2  # the nearest 0
    assert fix.is_fix and fix.equivalence.verdict == "fair"
    first, between = fix.lines()
    assert first.startswith("penalty_tower 15 -> 1: fair within ±1 pp: +0.2 pp, 90% interval ")
    assert between.startswith("  the fair point lies between penalty_tower 0 (+6.3 pp) and 1 (-1.9 pp), and "
                              "between 2 (-2.3 pp) and 3 (+7.3 pp), on the search seed")


def test_a_confirmation_near_the_margin_is_not_called_fair():
    evaluate_many, _ = shaped(TOWER.get, confirmed=lambda v: -0.019)  # the tower at 1 as the sweep measured it
    fix = find_fix(tower_search(), evaluate_many)
    assert not fix.is_fix and fix.equivalence.verdict in ("undecided", "unfair")
    assert fix.lines()[0].startswith("penalty_tower 15 -> 1: not fair within ±1 pp: -1.9 pp")


def test_the_confirmation_is_sized_so_tost_can_pass_and_kept_within_the_budget():
    aim, least = confirm_plays(SD, 0.01, 1)
    z90 = stats.norm.ppf(0.95)
    assert z90 * SD / math.sqrt(aim) <= 0.005 < z90 * SD / math.sqrt(aim - 1)  # half the margin, at the least
    assert z90 * SD / math.sqrt(least) < 0.01 <= z90 * SD / math.sqrt(least - 2)
    assert 20_000 < aim < 21_000
    evaluate_many, seen = shaped(TOWER.get, confirmed=lambda v: 0.0)
    search = tower_search(budget=36_000)  # 31 values of 580 plays leave 18,020: less than the aim, more than enough
    fix = find_fix(search, evaluate_many)
    assert fix.confirmation.plays == search.stage_plays()[2] < aim
    assert sum(c.plays for c in seen) <= search.budget
    evaluate_many, seen = shaped(TOWER.get)
    fix = find_fix(tower_search(budget=8_000), evaluate_many)  # leaves 4,125 plays: TOST could not pass
    assert fix.confirmation is None and all(c.seed == 1 for c in seen)
    assert fix.lines()[0].startswith("penalty_tower (rule text 15): the nearest fair is penalty_tower 1 (-1.9 pp on "
                                     "the search seed), not confirmed: too few plays left")
    assert "too few plays left to tell (the budget leaves 4,125 plays" in fix.lines()[0]


def test_a_parameter_with_no_effect_is_named_as_such_and_not_confirmed():
    evaluate_many, seen = shaped(lambda v: 0.094)
    fix = find_fix(tower_search(), evaluate_many)
    assert fix.no_effect and fix.confirmation is None and all(c.seed == 1 for c in seen)
    assert fix.lines() == ["penalty_tower: no effect on these plays (seat0_advantage +9.4 pp at every value tried, "
                           "0..30)"]
    assert fix.rank() > find_fix(tower_search(), shaped(TOWER.get)[0]).rank()  # listed last


def test_a_sign_change_within_the_search_noise_is_said_so():
    evaluate_many, _ = shaped(lambda v: 0.005 if v % 2 else -0.005)  # ±0.5 pp: each value's interval holds 0
    fix = find_fix(tower_search(), evaluate_many)
    assert len(fix.crossings) == 30 and fix.clear_crossings == []
    assert fix.lines()[1].startswith("  the fair point lies between penalty_tower 0 (-0.5 pp, within noise of 0) and "
                                     "1 (+0.5 pp, within noise of 0), and between 1 (+0.5 pp, within noise of 0) and ")
    clear = find_fix(tower_search(), shaped(TOWER.get)[0])
    assert [(c.low, c.high) for c in clear.clear_crossings] == [(0, 1), (2, 3)]


def test_no_value_near_fair_is_said_with_the_range_and_not_confirmed():
    evaluate_many, seen = shaped(lambda v: 0.05 + 0.001 * v)
    fix = find_fix(tower_search(), evaluate_many)
    assert fix.crossings == [] and fix.confirmation is None
    assert fix.lines() == [
        "penalty_tower (rule text 15): the nearest fair is penalty_tower 0 (+5.0 pp on the search seed), not "
        "confirmed: its 95% interval there, +3.5 to +6.5 pp, lies beyond ±1 pp",
        "  no value tried brings it to 0: seat0_advantage reads above it at every value, +5.0 to +8.0 pp, on the "
        "search seed (3,225 "
        "plays a value, penalty_tower 0..30)"]


@pytest.mark.parametrize("mean", [0.003, -0.004, 0.012])
def test_tost_agrees_with_scipys_one_sided_t_tests(mean):
    x = np.random.default_rng(7).normal(mean, SD, 20_000)
    got = tost(Estimate(x.mean(), 0, 0, x.std(ddof=1), len(x)), 0.0, 0.01)
    lower = stats.ttest_1samp(x, -0.01, alternative="greater").pvalue  # H0: at or below -1 pp
    upper = stats.ttest_1samp(x, 0.01, alternative="less").pvalue  # H0: at or above +1 pp
    assert got.p == pytest.approx(max(lower, upper), rel=1e-9)
    lo, hi = stats.ttest_1samp(x, 0.0).confidence_interval(0.90)
    assert (got.lo, got.hi) == (pytest.approx(lo, rel=1e-9), pytest.approx(hi, rel=1e-9))
    assert (got.verdict == "fair") == (-0.01 < lo and hi < 0.01)


def test_tost_refuses_an_interval_that_holds_0_but_is_wider_than_the_margin():
    few = tost(Estimate(0.002, 0, 0, SD, 2_000), 0.0, 0.01)  # 90% interval about ±1.6 pp wide: holds 0
    assert few.lo < 0 < few.hi and few.hi - few.lo > 0.02
    assert few.verdict == "undecided" and few.p > 0.05
    assert few.words().startswith("too few plays to tell whether fair within ±1 pp: +0.2 pp, 90% interval -1.4 to ")
    many = tost(Estimate(0.002, 0, 0, SD, 20_000), 0.0, 0.01)
    assert many.verdict == "fair" and many.words().startswith("fair within ±1 pp: +0.2 pp, 90% interval -0.3 to ")
    far = tost(Estimate(-0.025, 0, 0, SD, 20_000), 0.0, 0.01)
    assert far.verdict == "unfair" and far.words().startswith("not fair within ±1 pp: -2.5 pp")
    assert tost(Estimate(0.002, 0, 0, SD, 20_000), 0.0, 0.001).verdict == "undecided"  # a tighter margin


def test_a_long_range_keeps_the_grid_then_halving():
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
    assert every_value(parse_box(MAUER, ["penalty_tower=0..64"])[0]) is None  # 65 values: the grid


@pytest.mark.parametrize(("flags", "words"), [
    (["--metric", "mean_penalty"], "no fair value"),
    (["--budget", "100"], "too small"),
    (["--skip", "towr"], "unknown option 'towr'"),
    (["--margin", "-0.01"], "--margin must lie between 0 and 1"),
    (["--only", "towr"], "--only 'towr': not a rule parameter of mauer"),
    (["--only", "rounds"], "--only 'rounds': not a number of the rule text"),
    (["--only", "penalty_tower=0..99x"], "option penalty_tower: '99x' is not"),
])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, flags, words):
    lake = tmp_path / "lake"
    done = run_cli("fixes", "mauer", "--players", "4", "--policies", "random", "--budget", "40000",
                   "--lake", str(lake), *flags)
    assert done.returncode == 2, done.stdout
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert not lake.exists()


def test_real_plays_are_recorded_as_a_tune_per_parameter(tmp_path):
    """A short search on real plays: every value on one seed in the lake's tunes table, the confirmation on the
    next (Die Mauer's tower at 0..3, where the four-reader curve crosses zero twice)."""
    import pyarrow.dataset as ds

    lake = tmp_path / "lake"
    done = run_cli("fixes", "mauer", "--players", "4", "--policies", "reader", "--budget", "40000",
                   "--only", "penalty_tower=0..3", "--seed", "21", "--lake", str(lake), "--quiet")
    assert done.returncode == 0, done.stderr
    rows = ds.dataset(lake / "tunes", format="parquet", partitioning="hive").to_table().to_pylist()
    search = sorted((json.loads(r["step_values"])["penalty_tower"], r["seed"], r["plays"]) for r in rows
                    if r["stage"] == "search")
    assert search == [(v, 21, 5_000) for v in range(4)]
    assert [r["seed"] for r in rows if r["stage"] == "confirm"] in ([], [22])
    assert "the fair point lies between penalty_tower 0 (+" in done.stdout


def mart_rows(tune_id, name, box, points, confirmed=None, plays=5_000, finished=1):
    """mart_tune_steps' rows of one fix search: (value, seat 0's advantage) on seed 1, then the confirmation."""
    def row(stage, step, value, x, n, seed):
        half = Z95 * SD / math.sqrt(n)
        return {"tune_id": tune_id, "box": box, "players": 4, "policies": "reader", "stage": stage, "step": step,
                "step_values": json.dumps({name: value}), "seed": seed, "n_plays": n, "run_id": f"{tune_id}{step}",
                "loss": 0.0, "metric": "seat0_advantage", "target": 0.0, "value": x, "value_lo": x - half,
                "value_hi": x + half, "finished_at": finished}
    rows = [row("search", i, v, x, plays, 1) for i, (v, x) in enumerate(points)]
    if confirmed:
        value, x, n = confirmed
        rows.append(row("confirm", len(rows), value, x, n, 2))
    return rows


@pytest.mark.parametrize(("confirmed", "answer"), [
    ((1, 0.002, 20_000), "penalty_tower 15 → 1, fair within ±1 pp, at 4 players (reader). penalty_tower 15 → 1 on "
                         "fresh plays: fair within ±1 pp: +0.2 pp, 90% interval -0.3 to +0.7 pp, on 20,000 fresh "
                         "plays, a change of 93% (penalty_tower 0..3 searched, 5,000 plays a value on one seed, each "
                         "±1.2 pp at 95%). Also searched: penalty_wall_1."),
    ((1, -0.016, 20_000), "None shown fair within ±1 pp, a bracket found, at 4 players (reader). The fair point lies "
                          "between penalty_tower 0 (+6.3 pp) and 1 (-1.9 pp), and between 2 (-2.3 pp) and 3 (+7.3 "
                          "pp) (5,000 plays a value on one seed, each ±1.2 pp at 95%); penalty_tower 1 on fresh "
                          "plays: not fair within ±1 pp: -1.6 pp, 90% interval -2.1 to -1.1 pp, on 20,000 fresh "
                          "plays. Also searched: penalty_wall_1."),
    ((1, 0.002, 2_000), "None shown fair within ±1 pp, a bracket found, at 4 players (reader). The fair point lies "
                        "between penalty_tower 0 (+6.3 pp) and 1 (-1.9 pp), and between 2 (-2.3 pp) and 3 (+7.3 pp) "
                        "(5,000 plays a value on one seed, each ±1.2 pp at 95%); penalty_tower 1 on fresh plays: too "
                        "few plays to tell whether fair within ±1 pp: +0.2 pp, 90% interval -1.4 to +1.8 pp, on 2,000 "
                        "fresh plays. Also searched: penalty_wall_1."),
    (None, "None shown fair within ±1 pp, a bracket found, at 4 players (reader). The fair point lies between "
           "penalty_tower 0 (+6.3 pp) and 1 (-1.9 pp), and between 2 (-2.3 pp) and 3 (+7.3 pp) (5,000 plays a value "
           "on one seed, each ±1.2 pp at 95%); the nearest fair is penalty_tower 1 (-1.9 pp on the search seed), not "
           "confirmed: too few plays left to tell. Also searched: penalty_wall_1."),
], ids=["fair", "not fair", "too few plays", "not confirmed"])
def test_the_index_answers_from_the_report_marts(confirmed, answer):
    import polars as pl

    from simlib.analysis.design import fix_answer

    tower = mart_rows("t", "penalty_tower", "penalty_tower=0..3", [(v, TOWER[v]) for v in range(4)], confirmed)
    walls = mart_rows("w", "penalty_wall_1", "penalty_wall_1=0..5", [(v, 0.027 + 0.01 * v) for v in range(6)])
    assert fix_answer(pl.DataFrame(tower + walls), MAUER) == answer


def test_the_index_says_where_no_value_tried_comes_near_and_where_there_is_nothing_to_change():
    import polars as pl

    from simlib.analysis.design import fix_answer

    walls = pl.DataFrame(mart_rows("w", "penalty_wall_1", "penalty_wall_1=0..5", [(v, 0.027 + 0.01 * v)
                                                                                  for v in range(6)]))
    assert fix_answer(walls, MAUER) == (
        "None shown fair within ±1 pp, at 4 players (reader). Over penalty_wall_1 0..5 seat 0's advantage reads above "
        "0 at every value, +2.7 to +7.7 pp (5,000 plays a value on one seed, each ±1.2 pp at 95%); the nearest fair is "
        "penalty_wall_1 0 (+2.7 pp on the search seed), not confirmed: its 95% interval there, +1.5 to +3.9 pp, lies "
        "beyond ±1 pp.")
    assert fix_answer(walls.with_columns(metric=pl.lit("balance")), MAUER) == ""  # no fix search: no answer
    assert fix_answer(walls.clear(), get_game("mauerbruch")).startswith(
        "None to find: Mauerbruch's rule text has no number a fix could change (only choices: ")


def test_a_batch_file_reads_its_fix_searches(tmp_path):
    from simlib.design.batch import read_batch

    batch = tmp_path / "b.toml"
    batch.write_text('[[fixes]]\nplayers = 4\nbudget = 40_000\nonly = ["penalty_tower=0..6"]\n')
    (search,) = read_batch(MAUER, batch).fixes
    assert (search.dim.name, search.dim.low, search.dim.high, search.lineup) == ("penalty_tower", 0, 6, "reader")
    assert search.budget == 40_000 and search.stage_plays()[0] == 2_855  # 7 values of half the budget, in blocks
    (small,) = read_batch(MAUER, batch, scale=0.001).fixes  # 40 plays: lifted to the least a search needs
    assert small.budget == 1_400 and small.stage_plays()[0] == 100
    batch.write_text('[[fixes]]\nplayers = 4\nbudget = 40_000\nplays = 5\n')
    with pytest.raises(SimlibError, match="batch fixes: unknown key"):
        read_batch(MAUER, batch)
    batch.write_text('[[fixes]]\nplayers = 4\nbudget = 40_000\nonly = ["towr"]\n')
    with pytest.raises(SimlibError, match="--only 'towr': not a rule parameter of mauer"):
        read_batch(MAUER, batch)


def test_a_rule_text_value_already_fair_is_confirmed_before_a_farther_one_nearer_zero():
    """Die Mauerspechte on the shuffled layout: seat 0 at +0.4 pp at the rule text's 15 and -0.1 pp at 8 (both within
    noise and the margin): the smallest change, none, is what a designer asks for, so 15 is confirmed and the
    answer says no change is needed; where the rule text's value is off, the nearest fair value still is."""
    near = {v: 0.05 for v in range(0, 31)} | {8: -0.001, 15: 0.004}
    evaluate_many, seen = shaped(near.get, confirmed=lambda v: 0.0)
    fix = find_fix(tower_search(), evaluate_many)
    assert fix.confirmation.values == {"penalty_tower": 15}
    assert fix.lines()[0].startswith("penalty_tower 15 (the rule text's value): fair within ±1 pp")
    assert fix.lines()[0].endswith("; no change needed")
    off = near | {15: 0.05}
    evaluate_many, _ = shaped(off.get, confirmed=lambda v: 0.0)
    assert find_fix(tower_search(), evaluate_many).confirmation.values == {"penalty_tower": 8}
