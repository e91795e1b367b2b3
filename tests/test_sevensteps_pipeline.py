"""7 Steps' marts (pipelines/sevensteps/): on a tiny hand-made lake with every answer worked out by hand, and
on a small real run (several part files per run), recomputed from the lake with Polars (another engine); the
report page leads with the start player and the skill gap by side."""

from __future__ import annotations

import json
import math
import re
import statistics
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from mart_checks import Z, cli, marts_of, mean_ci, pipeline_and_report, row, wilson
from mart_checks import lake_table as shared_lake_table

from simlib.analysis.pipeline import build
from simlib.core.lake import RUNS_SCHEMA, part_path, write_atomic
from simlib.games.sevensteps.tables import GAMES, SEATS, TURNS

from lake_fixture import _table

# The runs' options; the data files' texts (*_text) stay out of other_options, their hash data_id stands for them.
OPTIONS = {"first_disc": "colour", "layout": "standard", "max_turns": 1000, "side": "front", "specials": "assumed",
           "tile_threshold": 7, "tiles": "fano", "unused_tile_points": 2, "tiles_text": "name = 'fano'\n[[tile]]",
           "data_id": "d1"}
OTHER = "data_id=d1 first_disc=colour layout=standard max_turns=1000 specials=assumed tiles=fano unused_tile_points=2"


def welch(a, b):
    """The difference of means mean(a) - mean(b) and its 95% interval for independent samples."""
    d = statistics.mean(a) - statistics.mean(b)
    half = Z * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return d, d - half, d + half


# --- a hand-made lake ------------------------------------------------------------------------------------

# Per run: side, tile_threshold, policies by seat, and per play the scores by seat, the winners and the rounds.
RUNS = {
    # Four random players on the front, with events (the turns below): seat 0 wins play 2, shares play 1.
    "a_front": ("front", 7, ["random"] * 4, [([10, 20, 30, 40], [3], 17), ([25, 25, 10, 20], [0, 1], 18),
                                             ([30, 10, 20, 20], [0], 17)]),
    "b_back": ("back", 7, ["random"] * 4, [([12, 14, 16, 18], [3], 15), ([20, 10, 10, 10], [0], 16)]),
    "c_front_8": ("front", 8, ["random"] * 4, [([20, 22, 24, 26], [3], 16), ([30, 20, 20, 10], [0], 17)]),
    # One greedy player among three random ones: in seat 0 and seat 1 on the front, seat 0 on the back.
    "d_greedy_0": ("front", 7, ["greedy", "random", "random", "random"],
                   [([100, 30, 40, 50], [0], 12), ([90, 40, 40, 40], [0], 12)]),
    "d_greedy_1": ("front", 7, ["random", "greedy", "random", "random"], [([20, 80, 30, 40], [1], 13)]),
    "d_greedy_back": ("back", 7, ["greedy", "random", "random", "random"],
                      [([110, 30, 30, 30], [0], 10), ([100, 20, 40, 30], [0], 11)]),
    # Two players: the random seat is the field.
    "f_two": ("front", 7, ["random", "greedy"], [([30, 50], [1], 30)]),
}
COLLAPSES = {("a_front", 1): 1}


def a_front_tiles(play: int, seat: int) -> dict:
    """Run a_front's tiles: play + seat build-aid tiles taken, all but one played (so one held if any was taken);
    seats 0 and 2 take one victory-point tile a play and hold it to the end."""
    aids = play + seat
    bonuses = 1 if seat % 2 == 0 else 0
    return {"aids_taken": aids, "aids_played": max(aids - 1, 0), "aid_left": aids > 0, "bonuses_taken": bonuses,
            "bonuses_played": 0, "bonus_left": bonuses == 1}


# Run a_front's turns (play 0): (seat, aid, bonus, bonus points, placed, score, pile taken, tile taken).
TURN_ROWS = [
    (0, None, None, 0, 2, 4, "aid", "B1"),
    (1, None, None, 0, 3, 8, None, None),
    (2, None, None, 0, 2, 5, "bonus", "S1"),
    (3, None, None, 0, 4, 10, None, None),
    (0, "B1", None, 0, 4, 12, "aid", "B2"),
    (1, None, None, 0, 3, 6, "aid", "B1"),
    (2, None, "S1", 3, 3, 9, None, None),
    (3, None, None, 0, 3, 7, None, None),
    (0, "B2", None, 0, 3, 9, None, None),
    (1, "B1", None, 0, 5, 14, None, None),
]


def write_sevensteps_run(lake: Path, run_id: str, side: str, threshold: int, policies: list[str], plays: list,
                         events: bool) -> None:
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    players = len(policies)
    config = {"game": "sevensteps", "players": players, "policies": policies, "plays": len(plays), "seed": 1,
              "events": events, "options": OPTIONS | {"side": side, "tile_threshold": threshold}}
    runs = pa.Table.from_pylist([{
        "rules_version": 1, "rules_versions": '{"sevensteps": 1}',
        "simlib_version": "test", "config": json.dumps(config), "seed": 1, "players": players,
        "policies": ",".join(policies), "plays": len(plays), "shard_size": 100, "started_at": now, "ended_at": now,
        "status": "complete"}], schema=RUNS_SCHEMA)
    write_atomic(runs, part_path(lake, "runs", "sevensteps", run_id, 0))
    games, seats = [], []
    for play, (scores, winners, rounds) in enumerate(plays):
        games.append({"rules_version": 1, "play_index": play, "players": players, "turns": rounds * players,
                      "rounds": rounds, "side": side, "collapses": COLLAPSES.get((run_id, play), 0),
                      "end_reason": "bag_empty", "completed": True, "bag_left": 0, "max_nodes": 0,
                      "winners": winners})
        best = max(scores)
        for seat, score in enumerate(scores):
            tiles = a_front_tiles(play, seat) if run_id == "a_front" else {
                "aids_taken": 0, "aids_played": 0, "aid_left": False, "bonuses_taken": 0, "bonuses_played": 0,
                "bonus_left": False}
            left = int(tiles["aid_left"]) + int(tiles["bonus_left"])
            seats.append({"rules_version": 1, "play_index": play, "seat": seat, "policy": policies[seat],
                          "policy_spec": policies[seat], "score": score, "rank": 1 + sum(s > score for s in scores),
                          "winner": score == best, "turn_points": score - 2 * left, "bonus_points": 0,
                          "tile_points": 2 * left, "discs": 20, "turns": rounds, "passes": 0, **tiles,
                          "tiles_taken": tiles["aids_taken"] + tiles["bonuses_taken"],
                          "tiles_played": tiles["aids_played"] + tiles["bonuses_played"], "tiles_left": left,
                          "thrown": 0, "capped_searches": 0})
    write_atomic(_table(GAMES, games), part_path(lake, "games", "sevensteps", run_id, 0))
    write_atomic(_table(SEATS, seats), part_path(lake, "seats", "sevensteps", run_id, 0))
    if events:
        turns = [{"rules_version": 1, "play_index": 0, "turn": t, "seat": seat, "hand": [1] * 7, "aid": aid,
                  "aid_field": None, "aid_target": None, "placed": placed, "bonus": bonus, "bonus_points": points,
                  "turn_score": score, "taken": taken, "taken_tile": tile, "thrown": [0] * 7, "drawn": [0] * 7,
                  "bag_left": 100 - t}
                 for t, (seat, aid, bonus, points, placed, score, taken, tile) in enumerate(TURN_ROWS)]
        write_atomic(_table(TURNS, turns), part_path(lake, "turns", "sevensteps", run_id, 0))


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    root = tmp_path_factory.mktemp("sevensteps_hand")
    for run_id, (side, threshold, policies, plays) in RUNS.items():
        write_sevensteps_run(root / "lake", run_id, side, threshold, policies, plays, events=run_id == "a_front")
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    return marts_of(root / "marts")


def test_the_scores_of_the_fixture_are_consistent():
    for run_id, (_, _, policies, plays) in RUNS.items():
        for scores, winners, _ in plays:
            assert len(scores) == len(policies) and winners == [s for s, x in enumerate(scores) if x == max(scores)]


def test_seat_advantage_by_hand(hand):
    seats = hand["mart_sevensteps_seat_advantage"]
    # Only the tables of one policy: four random players on each side and at threshold 8.
    assert sorted(set(zip(seats["side"], seats["tile_threshold"]))) == [("back", 7), ("front", 7), ("front", 8)]
    assert (seats["policy"] == "random").all() and (seats["other_options"] == OTHER).all()
    zero = row(seats, side="front", tile_threshold=7, seat=0)
    assert (zero["n_runs"], zero["n_plays"], zero["wins"]) == (1, 3, 2)  # play 1 shared, play 2 alone
    assert zero["win_rate"] == pytest.approx(2 / 3)
    assert (zero["win_rate_lo"], zero["win_rate_hi"]) == pytest.approx(wilson(2, 3))
    assert zero["win_share"] == pytest.approx(0.5) and zero["advantage"] == pytest.approx(0.25)
    assert (zero["win_share_lo"], zero["win_share_hi"]) == pytest.approx(mean_ci([0, 0.5, 1]))
    assert (zero["advantage_lo"], zero["advantage_hi"]) == pytest.approx(
        tuple(x - 0.25 for x in mean_ci([0, 0.5, 1])))
    assert zero["mean_score"] == pytest.approx(65 / 3)
    assert (zero["mean_score_lo"], zero["mean_score_hi"]) == pytest.approx(mean_ci([10, 25, 30]))
    # Seat 0's score minus the other seats' mean: 10 - 30, 25 - 55/3, 30 - 50/3.
    margins = [-20, 25 - 55 / 3, 30 - 50 / 3]
    assert zero["margin"] == pytest.approx(0, abs=1e-12)
    assert (zero["margin_lo"], zero["margin_hi"]) == pytest.approx(mean_ci(margins))
    three = row(seats, side="front", tile_threshold=7, seat=3)
    assert (three["wins"], three["win_share"], three["mean_score"]) == (1, pytest.approx(1 / 3), pytest.approx(80 / 3))
    assert three["margin"] == pytest.approx(statistics.mean([40 - 20, 20 - 20, 20 - 20]))
    back = row(seats, side="back", seat=0)
    assert (back["n_plays"], back["wins"], back["mean_score"], back["fair_share"]) == (2, 1, 16.0, 0.25)
    assert back["margin"] == pytest.approx(statistics.mean([12 - 16, 20 - 10]))
    # The seats' win shares add up to 1 in every set-up.
    for _, group in seats.group_by("side", "tile_threshold"):
        assert group["win_share"].sum() == pytest.approx(1.0)


def test_skill_gap_by_hand(hand):
    gaps = hand["mart_sevensteps_skill_gap"]
    front = row(gaps, side="front", players=4)
    assert (front["focal"], front["field"], front["n_runs"], front["n_plays"]) == ("greedy", "random", 2, 3)
    assert (front["seats_covered"], front["seat_balance"]) == (2, 0.5)  # seat 0 in two plays, seat 1 in one
    # The focal score minus the field's mean: 100 - 40, 90 - 40, 80 - 30.
    assert front["gap"] == pytest.approx(160 / 3)
    assert (front["gap_lo"], front["gap_hi"]) == pytest.approx(mean_ci([60, 50, 50]))
    assert front["focal_mean_score"] == 90.0 and front["field_mean_score"] == pytest.approx(330 / 9)
    assert front["relative_gap"] == pytest.approx((160 / 3) / (330 / 9))
    assert (front["focal_win_rate"], front["field_win_rate"], front["win_gap"]) == (1.0, 0.0, 1.0)
    assert (front["win_gap_lo"], front["win_gap_hi"]) == (1.0, 1.0)  # it always won: no spread
    assert (front["focal_win_rate_lo"], front["focal_win_rate_hi"]) == pytest.approx(wilson(3, 3))
    back = row(gaps, side="back", players=4)
    assert back["gap"] == 75.0 and (back["gap_lo"], back["gap_hi"]) == pytest.approx(mean_ci([80, 70]))
    two = row(gaps, players=2)
    assert (two["focal"], two["field"], two["gap"], two["fair_share"]) == ("greedy", "random", 20.0, 0.5)
    assert two["gap_lo"] is None  # one play: no interval

    sides = hand["mart_sevensteps_skill_gap_sides"]
    assert sides.height == 1  # the two-player table was played on the front only
    s = sides.row(0, named=True)
    assert (s["front_gap"], s["back_gap"]) == (pytest.approx(160 / 3), 75.0)
    assert (s["n_plays"], s["front_n_plays"], s["back_n_plays"]) == (5, 3, 2)
    d, lo, hi = welch([80, 70], [60, 50, 50])
    assert (s["difference"], s["difference_lo"], s["difference_hi"]) == pytest.approx((d, lo, hi))
    assert s["relative_difference"] == pytest.approx(75 / 30 - (160 / 3) / (330 / 9))
    assert s["win_gap_difference"] == 0.0


def test_length_by_hand(hand):
    length = hand["mart_sevensteps_length"]
    random = row(length, side="front", players=4, lineup="random", tile_threshold=7)
    assert (random["n_runs"], random["n_plays"], random["lineup_spec"]) == (1, 3, "random")
    assert random["mean_rounds"] == pytest.approx(52 / 3)
    assert (random["mean_rounds_lo"], random["mean_rounds_hi"]) == pytest.approx(mean_ci([17, 18, 17]))
    assert (random["min_rounds"], random["median_rounds"], random["p95_rounds"], random["max_rounds"]) == (17, 17, 18,
                                                                                                            18)
    assert random["mean_turns"] == pytest.approx(4 * 52 / 3) and random["completion_rate"] == 1.0
    assert random["mean_collapses"] == pytest.approx(1 / 3)
    greedy = row(length, side="front", players=4, lineup="greedy + 3 random")
    assert (greedy["n_runs"], greedy["n_plays"], greedy["mean_rounds"]) == (2, 3, pytest.approx(37 / 3))
    assert row(length, players=2)["lineup"] == "greedy + 1 random"
    hist = hand["mart_sevensteps_length_hist"].filter(
        (pl.col("side") == "front") & (pl.col("lineup") == "random") & (pl.col("tile_threshold") == 7)).sort("rounds")
    assert hist["rounds"].to_list() == [17, 18] and hist["n_plays_with_rounds"].to_list() == [2, 1]
    assert hist["share"].to_list() == pytest.approx([2 / 3, 1 / 3]) and (hist["n_plays"] == 3).all()


def test_tiles_by_hand(hand):
    tiles = hand["mart_sevensteps_tiles"].filter((pl.col("side") == "front") & (pl.col("lineup") == "random")
                                                 & (pl.col("tile_threshold") == 7))
    aid = row(tiles, kind="aid")
    aids = [p + s for p in range(3) for s in range(4)]
    played = [max(a - 1, 0) for a in aids]
    assert (aid["n_plays"], aid["seat_plays"], aid["mean_taken"]) == (3, 12, 2.5)
    assert (aid["mean_taken_lo"], aid["mean_taken_hi"]) == pytest.approx(mean_ci(aids))
    assert aid["mean_played"] == pytest.approx(19 / 12)
    assert (aid["mean_played_lo"], aid["mean_played_hi"]) == pytest.approx(mean_ci(played))
    assert aid["played_share"] == pytest.approx(19 / 30) and aid["taker_share"] == pytest.approx(11 / 12)
    assert (aid["holder_share"], aid["mean_left"]) == (pytest.approx(11 / 12), pytest.approx(11 / 12))
    assert (aid["holder_share_lo"], aid["holder_share_hi"]) == pytest.approx(wilson(11, 12))
    bonus = row(tiles, kind="bonus")
    assert (bonus["mean_taken"], bonus["mean_played"], bonus["played_share"], bonus["holder_share"]) == (
        0.5, 0.0, 0.0, 0.5)
    both = row(tiles, kind="any")
    assert both["mean_taken"] == 3.0 and both["mean_left"] == pytest.approx((11 + 6) / 12)
    none = row(hand["mart_sevensteps_tiles"], side="back", lineup="random", kind="any")
    assert (none["mean_taken"], none["played_share"], none["taker_share"]) == (0.0, None, 0.0)

    wins = hand["mart_sevensteps_win_by_tiles"].filter(
        (pl.col("side") == "front") & (pl.col("lineup") == "random") & (pl.col("tile_threshold") == 7)
        & (pl.col("kind") == "any")).sort("taken")
    # Tiles taken by seat, plays 0-2: 1 1 3 3 / 2 2 4 4 / 3 3 5 5; won: play 0 seat 3, play 1 seats 0 and 1, play 2
    # seat 0.
    assert wins["taken"].to_list() == [1, 2, 3, 4, 5]
    assert wins["seat_plays"].to_list() == [2, 2, 4, 2, 2] and wins["wins"].to_list() == [0, 2, 2, 0, 0]
    three = row(wins, taken=3)
    assert three["win_rate"] == 0.5 and (three["win_rate_lo"], three["win_rate_hi"]) == pytest.approx(wilson(2, 4))
    assert three["mean_score"] == 27.5 and three["seat_play_share"] == pytest.approx(4 / 12)
    assert (three["mean_score_lo"], three["mean_score_hi"]) == pytest.approx(mean_ci([30, 40, 30, 10]))


def test_tile_value_by_hand(hand):
    value = hand["mart_sevensteps_tile_value"]
    assert set(value["tile"]) == {"B1", "B2", "S1"} and (value["policy"] == "random").all()
    assert (value["n_runs"] == 1).all() and (value["n_plays"] == 3).all()  # the one run with events
    b1 = row(value, tile="B1")
    assert (b1["kind"], b1["n_taken"], b1["n_played"], b1["played_share"]) == ("aid", 2, 2, 1.0)
    assert (b1["played_share_lo"], b1["played_share_hi"]) == pytest.approx(wilson(2, 2))
    assert (b1["mean_turn_score"], b1["mean_placed"], b1["mean_bonus"]) == (13.0, 4.5, 0.0)
    assert (b1["mean_turn_score_lo"], b1["mean_turn_score_hi"]) == pytest.approx(mean_ci([12, 14]))
    without_aid = [4, 8, 5, 10, 6, 9, 7]  # the turns that played no build-aid tile
    assert (b1["base_turns"], b1["base_mean_turn_score"]) == (7, 7.0)
    assert b1["base_mean_placed"] == pytest.approx(20 / 7)
    assert (b1["difference"], b1["difference_lo"], b1["difference_hi"]) == pytest.approx(welch([12, 14], without_aid))
    b2 = row(value, tile="B2")
    assert (b2["n_taken"], b2["n_played"], b2["mean_turn_score"], b2["difference"]) == (1, 1, 9.0, 2.0)
    assert b2["mean_turn_score_lo"] is None and b2["difference_lo"] is None  # one play: no interval
    s1 = row(value, tile="S1")
    assert (s1["kind"], s1["n_taken"], s1["n_played"], s1["mean_bonus"], s1["mean_turn_score"]) == (
        "bonus", 1, 1, 3.0, 9.0)
    assert (s1["base_turns"], s1["base_mean_turn_score"]) == (9, pytest.approx(75 / 9))


def test_threshold_by_hand(hand):
    effect = hand["mart_sevensteps_threshold"]
    assert set(effect["metric"]) == {"tiles_taken", "score", "seat0_advantage", "seat0_margin", "rounds"}
    assert (effect["side"] == "front").all() and (effect["policy"] == "random").all()
    assert (effect["base_threshold"] == 7).all() and (effect["tile_threshold"] == 8).all()
    assert ((effect["base_n_plays"] == 3) & (effect["n_plays"] == 2)).all()
    score = row(effect, metric="score")
    base_scores = [x for scores, _, _ in RUNS["a_front"][3] for x in scores]
    other_scores = [x for scores, _, _ in RUNS["c_front_8"][3] for x in scores]
    assert (score["base_n"], score["n"]) == (12, 8)
    assert (score["base_value"], score["value"]) == pytest.approx((260 / 12, 21.5))
    assert (score["value_lo"], score["value_hi"]) == pytest.approx(mean_ci(other_scores))
    assert (score["difference"], score["difference_lo"], score["difference_hi"]) == pytest.approx(
        welch(other_scores, base_scores))
    taken = row(effect, metric="tiles_taken")
    taken_a = [p + s + (s % 2 == 0) for p in range(3) for s in range(4)]
    assert (taken["base_value"], taken["value"], taken["difference"]) == (3.0, 0.0, -3.0)
    half = Z * statistics.stdev(taken_a) / math.sqrt(12)
    assert (taken["difference_lo"], taken["difference_hi"]) == pytest.approx((-3 - half, -3 + half))
    advantage = row(effect, metric="seat0_advantage")
    assert (advantage["base_value"], advantage["value"], advantage["difference"]) == (0.25, 0.25, 0.0)
    half = Z * math.sqrt(statistics.variance([0, 0.5, 1]) / 3 + statistics.variance([0, 1]) / 2)
    assert (advantage["difference_lo"], advantage["difference_hi"]) == pytest.approx((-half, half))
    margin = row(effect, metric="seat0_margin")
    assert margin["value"] == pytest.approx(statistics.mean([20 - 24, 30 - 50 / 3]))
    assert margin["base_value"] == pytest.approx(0, abs=1e-12)
    rounds = row(effect, metric="rounds")
    assert (rounds["base_n"], rounds["n"], rounds["difference"]) == (3, 2, pytest.approx(16.5 - 52 / 3))


# --- a small real run -------------------------------------------------------------------------------------


REAL_RUNS = (  # players, policies, plays, options, events
    (4, "random", 150, (), True),
    (4, "random", 150, ("tile_threshold=8",), False),
    (3, "random", 90, ("side=back",), False),
    (4, "greedy,random,random,random", 60, (), False),
    (4, "random,greedy,random,random", 60, (), False),
    (4, "greedy,random,random,random", 60, ("side=back",), False),
    (4, "random,greedy,random,random", 60, ("side=back",), True),
)


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    root = tmp_path_factory.mktemp("sevensteps_real")
    lake = root / "lake"
    for players, policies, plays, options, events in REAL_RUNS:
        args = ["simulate", "sevensteps", "--plays", str(plays), "--players", str(players), "--policies", policies,
                "--seed", "5", "--workers", "1", "--shard-size", "40", "--lake", str(lake), "--quiet"]
        args += [a for o in options for a in ("--option", o)] + (["--events"] if events else [])
        status, out = cli(*args)
        assert status == 0, out
    marts, reports = pipeline_and_report(root, lake)
    return lake, marts, reports


def lake_table(lake: Path, table: str) -> pl.DataFrame:
    return shared_lake_table(lake, "sevensteps", table)


def run_setups(lake: Path) -> pl.DataFrame:
    """Per run: side, threshold, events and the policy names by seat, from the runs' configuration."""
    rows = []
    for r in lake_table(lake, "runs").iter_rows(named=True):
        config = json.loads(r["config"])
        rows.append({"run_id": r["run_id"], "side": config["options"]["side"],
                     "tile_threshold": config["options"]["tile_threshold"], "events": config["events"],
                     "names": ",".join(p.split(":")[0] for p in config["policies"])})
    return pl.DataFrame(rows)


def test_the_real_lake_has_several_parts_per_run(real):
    lake, _, _ = real
    parts = list((lake / "seats" / "game=sevensteps").glob("*/part-*.parquet"))
    assert len(parts) > len(REAL_RUNS)


def test_seat_and_skill_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    setups = run_setups(lake)
    seats = lake_table(lake, "seats").join(setups, on="run_id")
    seats = seats.with_columns(
        pl.col("score").sum().over("run_id", "play_index").alias("total"),
        pl.len().over("run_id", "play_index").alias("players"),
        pl.col("winner").sum().over("run_id", "play_index").alias("n_winners"))
    seats = seats.with_columns(
        (pl.col("score") - (pl.col("total") - pl.col("score")) / (pl.col("players") - 1)).alias("margin"),
        (pl.col("winner").cast(pl.Float64) / pl.col("n_winners")).alias("share"))
    advantage = marts["mart_sevensteps_seat_advantage"]
    assert advantage.height == 4 + 4 + 3  # the one-policy tables: random at 7 and 8, and three players
    for r in advantage.iter_rows(named=True):
        mine = seats.filter((pl.col("side") == r["side"]) & (pl.col("tile_threshold") == r["tile_threshold"])
                            & (pl.col("players") == r["players"]) & (pl.col("names").str.count_matches("random")
                                                                     == r["players"]) & (pl.col("seat") == r["seat"]))
        assert r["n_plays"] == mine.height and r["wins"] == mine["winner"].sum()
        assert r["win_share"] == pytest.approx(mine["share"].mean())
        assert r["mean_score"] == pytest.approx(mine["score"].mean())
        assert r["margin"] == pytest.approx(mine["margin"].mean(), abs=1e-9)
        assert (r["margin_lo"], r["margin_hi"]) == pytest.approx(mean_ci(mine["margin"].to_list()))
        assert r["margin_lo"] < r["margin"] < r["margin_hi"]
    for (run_id, play), group in seats.filter(pl.col("players") == 4).group_by("run_id", "play_index"):
        assert group["margin"].sum() == pytest.approx(0, abs=1e-9)  # margins of a play cancel

    gaps = marts["mart_sevensteps_skill_gap"]
    assert sorted(gaps["side"].to_list()) == ["back", "front"] and (gaps["focal"] == "greedy").all()
    for r in gaps.iter_rows(named=True):
        focal = seats.filter((pl.col("side") == r["side"]) & (pl.col("policy") == "greedy"))
        field = seats.filter((pl.col("side") == r["side"]) & pl.col("names").str.contains("greedy")
                             & (pl.col("policy") == "random"))
        assert r["n_plays"] == focal.height == 120 and (r["n_runs"], r["seats_covered"]) == (2, 2)
        assert r["gap"] == pytest.approx(focal["margin"].mean())
        assert (r["gap_lo"], r["gap_hi"]) == pytest.approx(mean_ci(focal["margin"].to_list()))
        assert r["field_mean_score"] == pytest.approx(field["score"].mean())
        assert r["focal_win_rate"] == pytest.approx(focal["winner"].mean())
        assert r["gap"] > 0  # a greedy player outscores random ones
    sides = row(marts["mart_sevensteps_skill_gap_sides"], focal="greedy")
    front, back = row(gaps, side="front"), row(gaps, side="back")
    assert sides["difference"] == pytest.approx(back["gap"] - front["gap"])
    half = math.hypot(front["gap_hi"] - front["gap"], back["gap_hi"] - back["gap"])
    assert (sides["difference_lo"], sides["difference_hi"]) == pytest.approx(
        (sides["difference"] - half, sides["difference"] + half))


def test_length_and_tile_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    setups = run_setups(lake)
    games = lake_table(lake, "games").join(setups, on="run_id")
    length = marts["mart_sevensteps_length"]
    assert length.height == 5  # random at 7 and 8, three players, greedy + 3 random on each side
    for r in length.iter_rows(named=True):
        mine = games.filter((pl.col("side") == r["side"]) & (pl.col("tile_threshold") == r["tile_threshold"])
                            & (pl.col("players") == r["players"])
                            & (pl.col("names").str.contains("greedy") == (r["lineup"] != "random")))
        assert r["n_plays"] == mine.height and r["mean_rounds"] == pytest.approx(mine["rounds"].mean())
        rounds = mine["rounds"].sort().to_list()
        assert r["median_rounds"] == rounds[math.ceil(len(rounds) / 2) - 1]  # quantile_disc
        assert r["mean_turns"] == pytest.approx(mine["turns"].mean())
        assert r["mean_collapses"] == pytest.approx(mine["collapses"].mean())
    hist = marts["mart_sevensteps_length_hist"]
    assert hist.group_by("side", "players", "lineup", "tile_threshold").agg(pl.col("share").sum())[
        "share"].to_list() == pytest.approx([1.0] * 5)

    seats = lake_table(lake, "seats").join(setups, on="run_id")
    tiles = marts["mart_sevensteps_tiles"]
    for r in tiles.iter_rows(named=True):
        mine = seats.filter((pl.col("side") == r["side"]) & (pl.col("tile_threshold") == r["tile_threshold"])
                            & (pl.col("policy") == r["policy"])
                            & (pl.col("names").str.count_matches(",") == r["players"] - 1)
                            & (pl.col("names").str.contains("greedy") == (r["lineup"] != "random")))
        taken, played, left = {"aid": ("aids_taken", "aids_played", "aid_left"),
                               "bonus": ("bonuses_taken", "bonuses_played", "bonus_left"),
                               "any": ("tiles_taken", "tiles_played", "tiles_left")}[r["kind"]]
        assert r["seat_plays"] == mine.height
        assert r["mean_taken"] == pytest.approx(mine[taken].cast(pl.Float64).mean())
        assert r["mean_played"] == pytest.approx(mine[played].cast(pl.Float64).mean())
        assert r["mean_left"] == pytest.approx(mine[left].cast(pl.Float64).mean())
        assert r["holder_share"] == pytest.approx((mine[left].cast(pl.Int64) > 0).mean())
    wins = marts["mart_sevensteps_win_by_tiles"]
    assert wins.group_by("side", "lineup", "tile_threshold", "players", "policy", "kind").agg(
        pl.col("seat_play_share").sum())["seat_play_share"].to_list() == pytest.approx([1.0] * (tiles.height))

    turns = lake_table(lake, "turns").join(setups, on="run_id").join(
        lake_table(lake, "seats").select("run_id", "play_index", "seat", "policy"),
        on=["run_id", "play_index", "seat"])
    value = marts["mart_sevensteps_tile_value"]
    assert set(value["side"]) == {"front", "back"} and value["n_played"].sum() > 0
    for r in value.iter_rows(named=True):
        mine = turns.filter((pl.col("side") == r["side"]) & (pl.col("policy") == r["policy"]))
        column = r["kind"]
        assert r["n_taken"] == mine.filter(pl.col("taken_tile") == r["tile"]).height
        used = mine.filter(pl.col(column) == r["tile"])
        assert r["n_played"] == used.height
        if used.height:
            assert r["mean_turn_score"] == pytest.approx(used["turn_score"].mean())
            assert r["mean_bonus"] == pytest.approx(used["bonus_points"].mean())
        base = mine.filter(pl.col(column).is_null())
        assert r["base_turns"] == base.height
        assert r["base_mean_turn_score"] == pytest.approx(base["turn_score"].mean())


def test_threshold_mart_agrees_with_the_lake(real):
    lake, marts, _ = real
    setups = run_setups(lake)
    seats = lake_table(lake, "seats").join(setups, on="run_id").filter(
        (pl.col("names") == "random,random,random,random") & (pl.col("side") == "front"))
    effect = marts["mart_sevensteps_threshold"]
    assert effect.height == 5 and (effect["tile_threshold"] == 8).all()
    at = {t: seats.filter(pl.col("tile_threshold") == t) for t in (7, 8)}
    taken = row(effect, metric="tiles_taken")
    assert (taken["base_value"], taken["value"]) == pytest.approx(
        (at[7]["tiles_taken"].cast(pl.Float64).mean(), at[8]["tiles_taken"].cast(pl.Float64).mean()))
    d, lo, hi = welch(at[8]["score"].to_list(), at[7]["score"].to_list())
    score = row(effect, metric="score")
    assert (score["difference"], score["difference_lo"], score["difference_hi"]) == pytest.approx((d, lo, hi))
    games = lake_table(lake, "games").join(setups, on="run_id").filter(
        (pl.col("names") == "random,random,random,random") & (pl.col("side") == "front"))
    rounds = row(effect, metric="rounds")
    assert rounds["difference"] == pytest.approx(games.filter(pl.col("tile_threshold") == 8)["rounds"].mean()
                                                 - games.filter(pl.col("tile_threshold") == 7)["rounds"].mean())


def test_the_report_page_leads_with_the_start_player_and_the_skill_gap(real):
    _, _, reports = real
    page = (reports / "sevensteps.html").read_text()
    figures = re.findall(r"<img src='figures/sevensteps_(\w+)\.png'", page)
    assert figures[:2] == ["seat_advantage_by_side", "skill_gap"]
    for name in ("length_by_side", "tiles", "tile_value", "win_by_tiles", "threshold"):
        assert name in figures, name
    assert "seat_advantage" not in figures and "game_length" not in figures  # replaced by the game's own
    for name in figures:
        assert (reports / "figures" / f"sevensteps_{name}.png").stat().st_size > 10_000, name
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert "seat 0 is" in captions[0] and re.search(r"\d+\.\d%", captions[0]), captions[0]
    assert "seed&#x27;s claim" in captions[1] and "back − front" in captions[1], captions[1]
    assert "bservational" in page
    assert all(len(c) > 80 for c in captions)
    tables = re.findall(r"<h3>(.*?)</h3>", page)
    assert tables[:2] == ["Win rate, win share and score margin by seat", "Skill gap by side"]
