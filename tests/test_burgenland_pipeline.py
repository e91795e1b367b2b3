"""Burgenland's marts (pipelines/burgenland/): on a tiny hand-made lake with every answer worked out by hand, and
on a small real run (several part files per run), recomputed from the lake with Polars (another engine); the
report page leads with the starting-hands question."""

from __future__ import annotations

import json
import math
import re
import statistics
import tomllib
from datetime import datetime, timezone
from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest
from mart_checks import Z, cli, marts_of, mean_ci, pipeline_and_report, row, wilson
from mart_checks import lake_table as shared_lake_table

from simlib.analysis.pipeline import build
from simlib.core.lake import RUNS_SCHEMA, part_path, write_atomic
from simlib.games.burgenland.board import map_text
from simlib.games.burgenland.tables import GAMES, SEATS

from lake_fixture import _table

MAP = map_text("standard")
OPTIONS = {"central_house": 6, "central_jokers": True, "central_master_builder": False, "central_palas": 7,
           "central_wall": 5, "data": "assumed", "data_id": "d1", "data_text": "jokers = 17", "joker_exchange": 6,
           "map": "standard", "map_text": MAP, "max_turns": 2000, "start_hands": "staggered", "swap_return": "supply"}
OTHER = ("central_house=6 central_jokers=true central_master_builder=false central_palas=7 central_wall=5 "
         "data=assumed data_id=d1 joker_exchange=6 map=standard max_turns=2000 swap_return=supply")


def ratio_ci(x, y):
    """sum(x) / sum(y) and its 95% delta-method interval, the pairs (x, y) as units."""
    n, r = len(x), sum(x) / sum(y)
    half = Z * math.sqrt(sum((a - r * b) ** 2 for a, b in zip(x, y)) / (n * (n - 1))) / (sum(y) / n)
    return r, r - half, r + half


# --- a hand-made lake ------------------------------------------------------------------------------------

def seat(left=(0, 0, 0, 0), jokers=(0, 0, 0, 0, 0, 0), wells=0, coins=0, central=0) -> dict:
    """A seat: pieces left (walls, houses, palases, wells); jokers (walls, spots, tiles, exchanged, used, left);
    wells built, their coins, pieces built in the central castle. 1 + gained = used + left in every seat."""
    walls, spots, tiles, exchanged, used, held = jokers
    assert 1 + walls + spots + tiles + exchanged == used + held
    return {"walls_left": left[0], "houses_left": left[1], "palases_left": left[2], "wells_left": left[3],
            "pieces_left": sum(left), "jokers_walls": walls, "jokers_spots": spots, "jokers_tiles": tiles,
            "jokers_exchanged": exchanged, "jokers_gained": walls + spots + tiles + exchanged, "jokers_used": used,
            "jokers_left": held, "wells_built": wells, "well_coins": coins, "central_built": central}


W = (0, 0, 0, 0)  # a winner's pieces left
# Per run: start_hands, policies by seat, and per play (winner or None, turns, rounds, end reason, seats).
RUNS = {
    # Four random players, staggered hands: seat 3 wins plays 0 and 2, seat 0 play 1.
    "a_stag": ("staggered", ["random"] * 4, [
        (3, 120, 30, "last_piece", [seat((0, 1, 0, 2), (2, 1, 0, 0, 4, 0), 0, 0, 3),
                                    seat((0, 0, 1, 1), (1, 0, 0, 0, 2, 0), 1, 5, 2),
                                    seat((0, 0, 0, 1), (3, 1, 2, 0, 5, 2), 1, 4, 4),
                                    seat(W, (2, 0, 0, 0, 3, 0), 2, 6, 1)]),
        (0, 121, 31, "last_piece", [seat(W, (3, 1, 0, 0, 5, 0), 2, 9, 2),
                                    seat((1, 0, 0, 1), (0, 2, 0, 0, 2, 1), 1, 3, 0),
                                    seat((0, 0, 0, 2), (2, 0, 0, 0, 3, 0), 0, 0, 5),
                                    seat((0, 1, 1, 0), (1, 0, 2, 0, 3, 1), 2, 5, 3)]),
        (3, 130, 33, "last_piece", [seat((0, 0, 0, 1), (1, 0, 0, 0, 2, 0), 1, 5, 1),
                                    seat((0, 0, 1, 1), (0, 0, 0, 0, 1, 0), 1, 4, 0),
                                    seat((0, 0, 0, 2), (0, 1, 0, 0, 1, 1), 0, 0, 6),
                                    seat(W, (2, 0, 0, 1, 4, 0), 2, 6, 2)])]),
    # The same with equal hands: seat 0 wins play 0, play 1 stalls (no winner).
    "b_equal": ("equal", ["random"] * 4, [
        (0, 118, 30, "last_piece", [seat(W, (2, 0, 0, 0, 3, 0), 2, 8, 2),
                                    seat((0, 0, 0, 1), (0, 1, 0, 0, 2, 0), 1, 4, 3),
                                    seat((0, 0, 1, 1), (0, 0, 0, 0, 1, 0), 1, 3, 1),
                                    seat((0, 0, 0, 2), (1, 0, 0, 0, 1, 1), 0, 0, 4)]),
        (None, 200, 50, "stalled", [seat((0, 0, 1, 2), (0, 0, 0, 0, 1, 0), 0, 0, 2),
                                    seat((0, 1, 0, 1), (1, 0, 0, 0, 2, 0), 1, 5, 1),
                                    seat((1, 0, 0, 1), (0, 1, 0, 0, 1, 1), 1, 4, 0),
                                    seat((0, 0, 1, 0), (0, 0, 2, 0, 2, 1), 2, 6, 3)])]),
    # One builder among three random players, in seat 0 and in seat 1; it wins both.
    "c_builder_0": ("staggered", ["builder", "random", "random", "random"], [
        (0, 100, 25, "last_piece", [seat(W, (4, 0, 0, 2, 7, 0), 2, 9, 0),
                                    seat((0, 0, 0, 2), (1, 0, 0, 0, 2, 0), 0, 0, 3),
                                    seat((0, 1, 0, 1), (0, 0, 0, 0, 1, 0), 1, 3, 2),
                                    seat((0, 0, 1, 1), (0, 1, 0, 0, 1, 1), 1, 3, 1)])]),
    "c_builder_1": ("staggered", ["random", "builder", "random", "random"], [
        (1, 104, 26, "last_piece", [seat((0, 0, 0, 1), (0, 0, 0, 0, 1, 0), 1, 5, 2),
                                    seat(W, (3, 0, 0, 0, 4, 0), 2, 7, 1),
                                    seat((0, 0, 0, 2), (0, 0, 0, 0, 1, 0), 0, 0, 3),
                                    seat((0, 1, 0, 1), (0, 1, 0, 0, 1, 1), 1, 3, 2)])]),
    # Two random players (16 pieces each: 5 walls, 4 houses, 4 palases, 3 wells).
    "d_two": ("staggered", ["random"] * 2, [
        (1, 100, 50, "last_piece", [seat((0, 0, 1, 2), (3, 0, 0, 0, 4, 0), 1, 5, 5),
                                    seat(W, (2, 1, 0, 0, 3, 1), 3, 10, 4)])]),
}
SUPPLY = {4: 11, 2: 16}


def write_burgenland_run(lake: Path, run_id: str, hands: str, policies: list[str], plays: list) -> None:
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    players = len(policies)
    config = {"game": "burgenland", "players": players, "policies": policies, "plays": len(plays), "seed": 1,
              "events": False, "options": OPTIONS | {"start_hands": hands}}
    runs = pa.Table.from_pylist([{
        "rules_version": 1, "rules_versions": '{"burgenland": 1}',
        "simlib_version": "test", "config": json.dumps(config), "seed": 1, "players": players,
        "policies": ",".join(policies), "plays": len(plays), "shard_size": 100, "started_at": now, "ended_at": now,
        "status": "complete"}], schema=RUNS_SCHEMA)
    write_atomic(runs, part_path(lake, "runs", "burgenland", run_id, 0))
    games, seats = [], []
    for play, (winner, turns, rounds, end, play_seats) in enumerate(plays):
        games.append({"rules_version": 1, "play_index": play, "players": players, "start_hands": hands,
                      "turns": turns, "rounds": rounds, "end_reason": end, "completed": end == "last_piece",
                      "wells_built": sum(s["wells_built"] for s in play_seats),
                      "central_built": sum(s["central_built"] for s in play_seats),
                      "winners": [] if winner is None else [winner]})
        left = [s["pieces_left"] for s in play_seats]
        for number, s in enumerate(play_seats):
            seats.append({"rules_version": 1, "play_index": play, "seat": number, "policy": policies[number],
                          "policy_spec": policies[number], "score": SUPPLY[players] - s["pieces_left"],
                          "rank": 1 + sum(x < s["pieces_left"] for x in left), "winner": number == winner,
                          "turns": rounds, "start_cards": 4 + number * (hands == "staggered"), **s})
    write_atomic(_table(GAMES, games), part_path(lake, "games", "burgenland", run_id, 0))
    write_atomic(_table(SEATS, seats), part_path(lake, "seats", "burgenland", run_id, 0))


@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    root = tmp_path_factory.mktemp("burgenland_hand")
    for run_id, (hands, policies, plays) in RUNS.items():
        write_burgenland_run(root / "lake", run_id, hands, policies, plays)
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    return marts_of(root / "marts")


def seats_of(run_id: str) -> list[dict]:
    """Run run_id's seats by play, with placed and won."""
    players = len(RUNS[run_id][1])
    return [s | {"seat": n, "placed": SUPPLY[players] - s["pieces_left"], "won": n == winner, "play": p}
            for p, (winner, _, _, _, play_seats) in enumerate(RUNS[run_id][2]) for n, s in enumerate(play_seats)]


def test_seat_advantage_and_start_hands_by_hand(hand):
    seats = hand["mart_burgenland_seat_advantage"]
    # Only the tables of one policy: four random players with each kind of hands, and two random players.
    assert sorted(set(zip(seats["players"], seats["start_hands"]))) == [(2, "staggered"), (4, "equal"),
                                                                       (4, "staggered")]
    assert (seats["policy"] == "random").all() and (seats["other_options"] == OTHER).all()
    zero = row(seats, players=4, start_hands="staggered", seat=0)
    assert (zero["n_runs"], zero["n_plays"], zero["wins"]) == (1, 3, 1)
    assert zero["win_rate"] == pytest.approx(1 / 3) and zero["advantage"] == pytest.approx(1 / 3 - 0.25)
    assert (zero["win_rate_lo"], zero["win_rate_hi"]) == pytest.approx(wilson(1, 3))
    assert (zero["advantage_lo"], zero["advantage_hi"]) == pytest.approx(tuple(x - 0.25 for x in wilson(1, 3)))
    assert zero["mean_placed"] == pytest.approx(29 / 3)  # 8, 11, 10
    assert (zero["mean_placed_lo"], zero["mean_placed_hi"]) == pytest.approx(mean_ci([8, 11, 10]))
    margins = [8 - 10, 11 - 9, 10 - 29 / 3]  # placed minus the other seats' mean, play by play
    assert zero["margin"] == pytest.approx(statistics.mean(margins))
    assert (zero["margin_lo"], zero["margin_hi"]) == pytest.approx(mean_ci(margins))
    assert row(seats, players=4, start_hands="staggered", seat=3)["win_rate"] == pytest.approx(2 / 3)
    equal = seats.filter((pl.col("players") == 4) & (pl.col("start_hands") == "equal"))
    assert equal["win_rate"].sum() == pytest.approx(0.5)  # one of two plays stalled: nobody won it
    assert row(equal, seat=0)["mean_placed"] == pytest.approx(9.5)  # 11 and 8

    gaps = hand["mart_burgenland_start_hands"]
    assert gaps.height == 4 and (gaps["players"] == 4).all()  # two players were dealt staggered hands only
    g = row(gaps, seat=0)
    assert (g["n_plays"], g["staggered_n_plays"], g["equal_n_plays"], g["fair_share"]) == (5, 3, 2, 0.25)
    assert (g["staggered_win_rate"], g["equal_win_rate"]) == pytest.approx((1 / 3, 0.5))
    half = Z * math.sqrt((1 / 3) * (2 / 3) / 3 + 0.25 / 2)
    assert (g["difference"], g["difference_lo"], g["difference_hi"]) == pytest.approx(
        (-1 / 6, -1 / 6 - half, -1 / 6 + half))
    assert (g["staggered_vs_fair"], g["equal_vs_fair"]) == ("within", "within")  # three plays say little
    equal_margins = [11 - 28 / 3, 8 - 28 / 3]
    assert g["margin_difference"] == pytest.approx(statistics.mean(margins) - statistics.mean(equal_margins))


def test_length_by_hand(hand):
    length = hand["mart_burgenland_length"]
    stag = row(length, players=4, start_hands="staggered", lineup="random")
    assert (stag["n_runs"], stag["n_plays"], stag["lineup_spec"]) == (1, 3, "random")
    assert (stag["mean_turns"], stag["mean_rounds"]) == pytest.approx((371 / 3, 94 / 3))
    assert (stag["mean_rounds_lo"], stag["mean_rounds_hi"]) == pytest.approx(mean_ci([30, 31, 33]))
    assert (stag["min_rounds"], stag["median_rounds"], stag["p95_rounds"], stag["max_rounds"]) == (30, 31, 33, 33)
    assert (stag["completion_rate"], stag["n_stalled"], stag["n_turn_limit"]) == (1.0, 0, 0)
    equal = row(length, players=4, start_hands="equal")
    assert (equal["completion_rate"], equal["n_stalled"], equal["stalled_rate"]) == (0.5, 1, 0.5)
    assert (equal["completion_rate_lo"], equal["completion_rate_hi"]) == pytest.approx(wilson(1, 2))
    assert equal["mean_rounds"] == 40.0 and equal["median_rounds"] == 30
    builder = row(length, lineup="builder + 3 random")
    assert (builder["n_runs"], builder["n_plays"], builder["mean_rounds"]) == (2, 2, 25.5)
    hist = hand["mart_burgenland_length_hist"].filter(pl.col("start_hands") == "equal").sort("rounds")
    assert hist["rounds"].to_list() == [30, 50] and hist["share"].to_list() == [0.5, 0.5]


def test_pieces_left_by_hand(hand):
    left = hand["mart_burgenland_pieces_left"].filter(
        (pl.col("players") == 4) & (pl.col("start_hands") == "staggered") & (pl.col("lineup") == "random"))
    losers = [s for s in seats_of("a_stag") if not s["won"]]
    assert len(losers) == 9
    wells = row(left, kind="well")
    wells_left = [s["wells_left"] for s in losers]  # 2 1 1 / 1 2 0 / 1 1 2
    assert (wells["seat_plays"], wells["supply"], wells["mean_left"]) == (9, 2, pytest.approx(11 / 9))
    assert (wells["mean_left_lo"], wells["mean_left_hi"]) == pytest.approx(mean_ci(wells_left))
    assert wells["left_share"] == pytest.approx(11 / 18)
    assert (wells["left_share_lo"], wells["left_share_hi"]) == pytest.approx(tuple(x / 2 for x in mean_ci(wells_left)))
    assert wells["holder_share"] == pytest.approx(8 / 9)
    assert (wells["holder_share_lo"], wells["holder_share_hi"]) == pytest.approx(wilson(8, 9))
    assert wells["share_of_left"] == pytest.approx(11 / 17)
    assert [row(left, kind=k)["share_of_left"] for k in ("wall", "house", "palas", "any")] == pytest.approx(
        [1 / 17, 2 / 17, 3 / 17, 1.0])
    assert (row(left, kind="wall")["supply"], row(left, kind="any")["supply"]) == (3, 11)
    equal = hand["mart_burgenland_pieces_left"].filter((pl.col("start_hands") == "equal") & (pl.col("kind") == "any"))
    assert equal["seat_plays"].to_list() == [7]  # the stalled play's four seats all count: none won
    two = row(hand["mart_burgenland_pieces_left"], players=2, kind="well")
    assert (two["supply"], two["seat_plays"], two["mean_left"], two["left_share"]) == (3, 1, 2.0, pytest.approx(2 / 3))


def test_jokers_by_hand(hand):
    jk = hand["mart_burgenland_jokers"].filter(
        (pl.col("players") == 4) & (pl.col("start_hands") == "staggered") & (pl.col("lineup") == "random"))
    seats = seats_of("a_stag")
    walls = row(jk, measure="walls")
    values = [s["jokers_walls"] for s in seats]
    assert (walls["seat_plays"], walls["mean_jokers"]) == (12, pytest.approx(17 / 12))
    assert (walls["mean_jokers_lo"], walls["mean_jokers_hi"]) == pytest.approx(mean_ci(values))
    assert walls["holder_share"] == pytest.approx(9 / 12)
    assert (walls["holder_share_lo"], walls["holder_share_hi"]) == pytest.approx(wilson(9, 12))
    means = {m: row(jk, measure=m)["mean_jokers"] for m in ("spots", "tiles", "exchanged", "gained", "used", "left")}
    assert means == pytest.approx({"spots": 6 / 12, "tiles": 4 / 12, "exchanged": 1 / 12, "gained": 28 / 12,
                                   "used": 35 / 12, "left": 5 / 12})
    shares = {m: row(jk, measure=m)["share_of_jokers"] for m in ("walls", "used", "left")}
    assert shares == pytest.approx({"walls": 17 / 40, "used": 35 / 40, "left": 5 / 40})  # 12 dealt + 28 gained
    builder = row(hand["mart_burgenland_jokers"], lineup="builder + 3 random", policy="builder", measure="exchanged")
    assert (builder["seat_plays"], builder["mean_jokers"], builder["holder_share"]) == (2, 1.0, 0.5)


def test_wells_by_hand(hand):
    wells = row(hand["mart_burgenland_wells"], players=4, start_hands="staggered", lineup="random")
    seats = seats_of("a_stag")
    assert (wells["n_plays"], wells["wells_per_play"]) == (3, pytest.approx(13 / 3))
    assert (wells["wells_per_play_lo"], wells["wells_per_play_hi"]) == pytest.approx(mean_ci([4, 5, 4]))
    built = [s["wells_built"] for s in seats]
    coins = [s["well_coins"] for s in seats]
    assert (wells["seat_plays"], wells["mean_wells"], wells["builder_share"]) == (12, pytest.approx(13 / 12), 0.75)
    assert (wells["mean_wells_lo"], wells["mean_wells_hi"]) == pytest.approx(mean_ci(built))
    assert wells["mean_well_coins"] == pytest.approx(47 / 12)
    assert (wells["coins_per_well"], wells["coins_per_well_lo"], wells["coins_per_well_hi"]) == pytest.approx(
        ratio_ci(coins, built))
    wins = hand["mart_burgenland_win_by_wells"].filter(
        (pl.col("players") == 4) & (pl.col("start_hands") == "staggered") & (pl.col("lineup") == "random"))
    assert wins.sort("wells_built")["seat_plays"].to_list() == [3, 5, 4]
    assert wins.sort("wells_built")["wins"].to_list() == [0, 0, 3]  # a seat short of a well never wins
    two = row(wins, wells_built=2)
    assert (two["wells_supply"], two["win_rate"], two["seat_play_share"]) == (2, 0.75, pytest.approx(4 / 12))
    assert (two["win_rate_lo"], two["win_rate_hi"]) == pytest.approx(wilson(3, 4))
    assert (two["mean_placed"], two["mean_well_coins"]) == (10.5, 6.5)  # placed 11 11 9 11; coins 6 9 5 6
    assert row(hand["mart_burgenland_win_by_wells"], players=2, wells_built=3)["wells_supply"] == 3


def test_central_by_hand(hand):
    castle = row(hand["mart_burgenland_central"], players=4, start_hands="staggered", lineup="random")
    seats = seats_of("a_stag")
    play_central, play_placed = [10, 10, 9], [38, 38, 39]
    assert (castle["n_plays"], castle["central_per_play"]) == (3, pytest.approx(29 / 3))
    assert (castle["central_per_play_lo"], castle["central_per_play_hi"]) == pytest.approx(mean_ci(play_central))
    assert (castle["play_share"], castle["placed_share"]) == (1.0, pytest.approx(29 / 115))
    assert (castle["placed_share"], castle["placed_share_lo"], castle["placed_share_hi"]) == pytest.approx(
        ratio_ci(play_central, play_placed))
    central = [s["central_built"] for s in seats]
    assert (castle["seat_plays"], castle["mean_central"], castle["users"], castle["non_users"]) == (
        12, pytest.approx(29 / 12), 10, 2)
    assert (castle["mean_central_lo"], castle["mean_central_hi"]) == pytest.approx(mean_ci(central))
    assert (castle["policy_placed_share"], castle["policy_placed_share_lo"], castle["policy_placed_share_hi"]) == (
        pytest.approx(ratio_ci(central, [s["placed"] for s in seats])))
    assert (castle["user_win_rate"], castle["non_user_win_rate"]) == (pytest.approx(0.3), 0.0)
    assert (castle["user_win_rate_lo"], castle["user_win_rate_hi"]) == pytest.approx(wilson(3, 10))
    builder = row(hand["mart_burgenland_central"], lineup="builder + 3 random", policy="builder")
    assert (builder["n_runs"], builder["seat_plays"], builder["mean_central"], builder["users"]) == (2, 2, 0.5, 1)
    assert builder["non_user_win_rate"] == 1.0 and builder["central_per_play"] == 7.0  # 6 and 8, all seats


# --- a small real run -------------------------------------------------------------------------------------


REAL_RUNS = (  # players, policies, plays, start_hands
    (4, "random", 240, "staggered"),
    (4, "random", 240, "equal"),
    (2, "random", 120, "staggered"),
    (4, "builder,random,random,random", 80, "staggered"),
    (4, "random,saver,random,random", 80, "staggered"),
)


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    root = tmp_path_factory.mktemp("burgenland_real")
    lake = root / "lake"
    for players, policies, plays, hands in REAL_RUNS:
        status, out = cli("simulate", "burgenland", "--plays", str(plays), "--players", str(players), "--policies",
                          policies, "--seed", "7", "--workers", "1", "--shard-size", "50", "--lake", str(lake),
                          "--quiet", "--option", f"start_hands={hands}")
        assert status == 0, out
    marts, reports = pipeline_and_report(root, lake)
    return lake, marts, reports


def lake_table(lake: Path, table: str) -> pl.DataFrame:
    return shared_lake_table(lake, "burgenland", table)


def run_setups(lake: Path) -> pl.DataFrame:
    """Per run: start_hands, the policy names by seat and the wells each seat starts with (from the map)."""
    rows = []
    for r in lake_table(lake, "runs").iter_rows(named=True):
        config = json.loads(r["config"])
        board = tomllib.loads(config["options"]["map_text"])
        supply = next(s for s in board["setup"] if s["players"] == config["players"])["supply"]
        rows.append({"run_id": r["run_id"], "hands": config["options"]["start_hands"],
                     "names": ",".join(p.split(":")[0] for p in config["policies"]), "wells_supply": supply["well"]})
    return pl.DataFrame(rows)


def lake_seats(lake: Path) -> pl.DataFrame:
    seats = lake_table(lake, "seats").join(run_setups(lake), on="run_id")
    return seats.with_columns(pl.len().over("run_id", "play_index").alias("players"),
                              pl.col("score").sum().over("run_id", "play_index").alias("total")).with_columns(
        (pl.col("score") - (pl.col("total") - pl.col("score")) / (pl.col("players") - 1)).alias("margin"))


def test_the_real_lake_has_several_parts_per_run(real):
    lake, _, _ = real
    assert len(list((lake / "seats" / "game=burgenland").glob("*/part-*.parquet"))) > len(REAL_RUNS)


def test_seat_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    seats = lake_seats(lake)
    advantage = marts["mart_burgenland_seat_advantage"]
    assert advantage.height == 4 + 4 + 2  # the one-policy tables: random at 4 with both hands, and at 2
    for r in advantage.iter_rows(named=True):
        mine = seats.filter((pl.col("hands") == r["start_hands"]) & (pl.col("players") == r["players"])
                            & (pl.col("names").str.count_matches("random") == r["players"])
                            & (pl.col("seat") == r["seat"]))
        assert r["n_plays"] == mine.height and r["wins"] == mine["winner"].sum()
        assert r["mean_placed"] == pytest.approx(mine["score"].mean())
        assert (r["margin_lo"], r["margin_hi"]) == pytest.approx(mean_ci(mine["margin"].to_list()))
    gaps = marts["mart_burgenland_start_hands"]
    assert gaps.height == 4
    for r in gaps.iter_rows(named=True):
        stag, equal = (row(advantage, players=4, start_hands=h, seat=r["seat"]) for h in ("staggered", "equal"))
        assert r["difference"] == pytest.approx(stag["win_rate"] - equal["win_rate"])
    # every seat's jokers balance: the one dealt + gained = used + left
    assert (1 + seats["jokers_gained"] == seats["jokers_used"] + seats["jokers_left"]).all()

    left = marts["mart_burgenland_pieces_left"]
    kinds = {"wall": "walls_left", "house": "houses_left", "palas": "palases_left", "well": "wells_left",
             "any": "pieces_left"}
    for r in left.filter(pl.col("lineup") == pl.col("policy")).iter_rows(named=True):
        mine = seats.filter((pl.col("hands") == r["start_hands"]) & (pl.col("players") == r["players"])
                            & (pl.col("names").str.count_matches("random") == r["players"]) & ~pl.col("winner"))
        assert r["seat_plays"] == mine.height
        assert r["mean_left"] == pytest.approx(mine[kinds[r["kind"]]].cast(pl.Float64).mean())
        assert r["holder_share"] == pytest.approx((mine[kinds[r["kind"]]] > 0).mean())
    for r in marts["mart_burgenland_jokers"].filter(pl.col("lineup") == "saver + 3 random").iter_rows(named=True):
        mine = seats.filter(pl.col("names").str.contains("saver") & (pl.col("policy") == r["policy"]))
        assert r["mean_jokers"] == pytest.approx(mine[f"jokers_{r['measure']}"].cast(pl.Float64).mean())


def test_play_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    setups = run_setups(lake)
    games = lake_table(lake, "games").join(setups, on="run_id")
    for r in marts["mart_burgenland_length"].iter_rows(named=True):
        mine = games.filter((pl.col("hands") == r["start_hands"]) & (pl.col("players") == r["players"])
                            & (pl.col("names").str.contains("builder|saver") == (r["lineup"] != "random")))
        if r["lineup"] != "random":
            mine = mine.filter(pl.col("names").str.contains(r["lineup"].split(" ")[0]))
        assert r["n_plays"] == mine.height and r["mean_rounds"] == pytest.approx(mine["rounds"].mean())
        rounds = mine["rounds"].sort().to_list()
        assert r["median_rounds"] == rounds[math.ceil(len(rounds) / 2) - 1]  # quantile_disc
        assert r["completion_rate"] == pytest.approx(mine["completed"].mean())

    seats = lake_seats(lake)
    for r in marts["mart_burgenland_wells"].filter(pl.col("lineup") == "random").iter_rows(named=True):
        mine = games.filter((pl.col("hands") == r["start_hands"]) & (pl.col("players") == r["players"])
                            & (pl.col("names").str.count_matches("random") == r["players"]))
        assert r["wells_per_play"] == pytest.approx(mine["wells_built"].cast(pl.Float64).mean())
        theirs = seats.filter(pl.col("run_id").is_in(mine["run_id"].unique().implode()))
        assert r["coins_per_well"] == pytest.approx(theirs["well_coins"].sum() / theirs["wells_built"].sum())
        short = theirs.filter(pl.col("wells_built") < pl.col("wells_supply"))
        assert short["winner"].sum() == 0  # a seat short of a well never wins
    for r in marts["mart_burgenland_central"].filter(pl.col("lineup") == "random").iter_rows(named=True):
        mine = games.filter((pl.col("hands") == r["start_hands"]) & (pl.col("players") == r["players"])
                            & (pl.col("names").str.count_matches("random") == r["players"]))
        assert r["central_per_play"] == pytest.approx(mine["central_built"].cast(pl.Float64).mean())
        theirs = seats.filter(pl.col("run_id").is_in(mine["run_id"].unique().implode()))
        assert r["placed_share"] == pytest.approx(theirs["central_built"].sum() / theirs["score"].sum())
        assert r["placed_share_lo"] < r["placed_share"] < r["placed_share_hi"]


def test_the_report_page_leads_with_the_starting_hands(real):
    _, _, reports = real
    page = (reports / "burgenland.html").read_text()
    figures = re.findall(r"<img src='figures/burgenland_(\w+)\.png'", page)
    assert figures[0] == "start_hands"
    for name in ("seat_advantage", "length", "pieces_left", "jokers", "wells", "central"):
        assert name in figures, name
    assert "game_length" not in figures  # replaced by the game's own length section
    for name in figures:
        assert (reports / "figures" / f"burgenland_{name}.png").stat().st_size > 10_000, name
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert "under staggered hands seat 0 wins" in captions[0] and "under equal hands" in captions[0], captions[0]
    assert "compensate" in captions[0] and re.search(r"\d+\.\d%", captions[0]), captions[0]
    assert all(len(c) > 80 for c in captions)
    tables = re.findall(r"<h3>(.*?)</h3>", page)
    assert tables[:2] == ["Staggered against equal starting hands by seat", "Win rate and pieces placed by seat"]
