"""`simlib sensitivity` and `simlib fixes` on every game (issue 25), each on a case whose answer is known.

- A turn limit far above every play's length never ends a play: on one seed every play is the same at every
  limit, so its effect on every metric is exactly 0 (Morris mu* and sigma).
- Mauerbruch has no number parameter: a choice (its opening) is sampled over its positions, and Morris' mu*
  is then the two values' difference over SALib's step, as the two runs played alone say.
- A parameter that does not apply to the plays (Die Mauerspechte's three-player points at four players) is
  named as having no effect; a game with no number parameter of the rule text says so and runs nothing.
"""

from __future__ import annotations

import pytest

from simlib.core.lake import Lake
from simlib.core.registry import get_game
from simlib.design import sensitivity as sa
from simlib.design.evaluate import lake_evaluator, one_at_a_time
from simlib.design.tune import parse_box

from support.cli import run_cli

METRICS = ["mean_length", "seat0_advantage"]

# (game, players, line-up, plays per point, a turn limit's range above every play's length)
LIMITS = [("mauer", 4, "random", 2_000, "max_baurunden=200..500"),
          ("catan", 4, "weighted", 100, "max_turns=800..1000"),  # the longest of these plays: 723 turns
          ("mauerspechte", 4, "hotelier", 100, "max_turns=500..1000"),
          ("sevensteps", 4, "random", 200, "max_turns=500..1000"),
          ("burgenland", 4, "random", 500, "max_turns=1000..2000")]


def morris(tmp_path, game_name, players, lineup, plays, vary, metrics, size=3):
    game, lake = get_game(game_name), Lake.at(tmp_path)
    box = parse_box(game, vary)

    build = sa.Analysis(game, box, "morris", metrics, players, lineup, plays, 5, size, {}).config
    evaluate = one_at_a_time(lake_evaluator(lake, game, metrics))

    points = sa.sample(box, "morris", size, seed=2)
    results = sa.run_points(box, points, build, evaluate, metrics, 5)
    effects = sa.analyse(box, "morris", points, results, 1)
    return {(e.parameter, e.metric, e.index): e.value for e in effects}, points, evaluate, build


@pytest.mark.parametrize(("game", "players", "lineup", "plays", "limit"), LIMITS, ids=[c[0] for c in LIMITS])
def test_a_turn_limit_no_play_reaches_has_no_effect(tmp_path, game, players, lineup, plays, limit):
    got, points, _, _ = morris(tmp_path, game, players, lineup, plays, [limit], METRICS)
    name = limit.split("=")[0]
    assert len({sa.point_values(parse_box(get_game(game), [limit]), row)[name] for row in points}) > 1
    assert all(got[(name, m, i)] == 0 for m in METRICS for i in ("mu_star", "sigma")), got


def test_a_choice_is_sampled_over_its_values_and_its_effect_is_their_difference(tmp_path):
    got, points, evaluate, build = morris(tmp_path, "mauerbruch", 2, "random", 2_000,
                                          ["opening=discard,piles"], ["mean_length"])
    box = parse_box(get_game("mauerbruch"), ["opening=discard,piles"])
    assert {sa.point_values(box, row)["opening"] for row in points} == {"discard", "piles"}
    discard, piles = (evaluate(build({"opening": v}))["mean_length"].value for v in ("discard", "piles"))
    assert discard != piles
    step = sa.MORRIS_LEVELS / (2 * (sa.MORRIS_LEVELS - 1))  # SALib's step on the unit range
    assert got[("opening", "mean_length", "mu_star")] == pytest.approx(abs(piles - discard) / step)


def test_a_parameter_that_does_not_apply_is_named_as_having_no_effect(tmp_path):
    done = run_cli("fixes", "mauerspechte", "--players", "4", "--policies", "hotelier", "--budget", "1200",
                   "--only", "victory_points_3=16..18", "--lake", str(tmp_path / "lake"), "--quiet")
    assert done.returncode == 0, done.stderr
    assert "victory_points_3: no effect on these plays (seat0_advantage" in done.stdout


def test_a_game_without_number_rules_says_so_and_runs_nothing(tmp_path):
    lake = tmp_path / "lake"
    done = run_cli("fixes", "mauerbruch", "--players", "2", "--policies", "random", "--budget", "10000",
                   "--lake", str(lake))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("mauerbruch: no number parameter of the rule text to search")
    assert not lake.exists()


def test_every_report_batch_searches_a_fix_at_the_best_heuristic():
    """Each game's report answers the index's 'Which single change makes the start player fair?': a [[fixes]] entry
    at its best heuristic over every value of a short range, or none where the rule text has no number."""
    from simlib.analysis.tunes import candidate_ranges, every_value
    from simlib.core.registry import games
    from simlib.design.batch import read_batch, report_batch

    for name in games():
        game = get_game(name)
        searches = read_batch(game, report_batch(game)).fixes
        if not candidate_ranges(game, set()):
            assert searches == [], name  # Mauerbruch: only choices
            continue
        assert searches, name
        for search in searches:
            assert search.lineup == game.best_heuristic and every_value(search.dim), (name, search.dim)
