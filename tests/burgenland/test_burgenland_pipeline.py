"""Burgenland's marts (pipelines/burgenland/): on a tiny hand-made lake, every answer computed here from the rows
the lake was written from, and on a small real run (several part files per run), recomputed from the lake with
Polars (another engine); the report page leads with the starting-hands question. The marts are per set-up
(mart_run_setups): only counted runs, so a run that repeats another's plays adds nothing. The play is the unit of
every interval: a per-seat figure's interval is computed here from each play's sums (`clustered`), and a win share's
is Wilson's at its effective size (docs/statistics.md), all with this file's own arithmetic."""

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

from simlib.analysis.pipeline import build
from simlib.core.lake import part_path, write_atomic
from simlib.core.schemas import RUNS_SCHEMA
from simlib.games.burgenland.board import map_text
from simlib.games.burgenland.report import VERDICTS
from simlib.games.burgenland.tables import GAMES, SEATS

from support.lake_fixture import _table, seal_run
from support.mart_checks import (
    Z,
    cli,
    clustered_mean,
    clustered_share,
    marts_of,
    mean_ci,
    pipeline_and_report,
    row,
    wilson,
)
from support.mart_checks import lake_table as shared_lake_table
from support.report_pages import figure_names, figure_png

MAP = map_text("standard")
OPTIONS = {"central_house": 6, "central_jokers": True, "central_master_builder": False, "central_palas": 7,
           "central_wall": 5, "data": "assumed", "data_id": "d1", "data_text": "jokers = 17", "joker_exchange": 6,
           "map": "standard", "map_text": MAP, "max_turns": 2000, "start_hands": "staggered", "swap_return": "supply",
           "free_well_tile": False}
KINDS = {"wall": "walls_left", "house": "houses_left", "palas": "palases_left", "well": "wells_left",
         "any": "pieces_left"}


def ratio_ci(x, y):
    """sum(x) / sum(y) and its 95% delta-method interval, the pairs (x, y) as units."""
    n, r = len(x), sum(x) / sum(y)
    half = Z * math.sqrt(sum((a - r * b) ** 2 for a, b in zip(x, y)) / (n * (n - 1))) / (sum(y) / n)
    return r, r - half, r + half


def normal_p(difference: float, se: float) -> float:
    """Two-sided p of a normal difference against 0."""
    return math.erfc(abs(difference) / se / math.sqrt(2))


def half(values) -> float:
    lo, hi = mean_ci(values)
    return (hi - lo) / 2


def disc(values, q: float):
    """quantile_disc: the smallest value with at least a share q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


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
# The first two plays of a_stag again: the same set-up and seed, so mart_run_setups counts only a_stag.
RUNS["a_stag_prefix"] = ("staggered", ["random"] * 4, RUNS["a_stag"][2][:2])
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
    seal_run(lake, "burgenland", run_id)


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


def per_play(run_id: str, value, among=lambda s: True) -> list[tuple[int, float]]:
    """Each play of run_id as (seats of the group, their summed value): the group's seats are those `among` keeps."""
    plays = {}
    for s in seats_of(run_id):
        m, y = plays.get(s["play"], (0, 0))
        plays[s["play"]] = (m + 1, y + value(s)) if among(s) else (m, y)
    return [plays[p] for p in sorted(plays)]


def margins(run_id: str, seat: int) -> list[float]:
    """The seat's pieces placed minus the other seats' mean, play by play."""
    plays = {}
    for s in seats_of(run_id):
        plays.setdefault(s["play"], []).append(s["placed"])
    return [p[seat] - (sum(p) - p[seat]) / (len(p) - 1) for p in plays.values()]


def of(hand, mart: str, run_id: str, **where) -> dict:
    """The row of a mart for run_id's set-up (mart_run_setups) and `where`."""
    return row(hand[mart], setup_id=row(hand["mart_run_setups"], run_id=run_id)["setup_id"], **where)


def test_only_counted_runs_count(hand):
    setups = hand["mart_run_setups"]
    prefix, full = row(setups, run_id="a_stag_prefix"), row(setups, run_id="a_stag")
    assert prefix["setup_id"] == full["setup_id"] and not prefix["counted"] and full["counted"]
    for mart in ("mart_burgenland_length", "mart_burgenland_wells", "mart_burgenland_central"):
        assert hand[mart].filter(pl.col("setup_id") == full["setup_id"])["n_plays"].unique().to_list() == [3], mart
    # one row per set-up, never two set-ups pooled: the builder in seat 0 and in seat 1 are two set-ups
    assert hand["mart_burgenland_length"].height == len(set(setups["setup_id"])) == 5


def test_start_hands_by_hand(hand):
    gaps = hand["mart_burgenland_start_hands"]
    # the one pair that differs only in its hands: four random players (two players and the builders: staggered only)
    assert gaps.height == 4 and (gaps["players"] == 4).all()
    stag, equal = (row(hand["mart_run_setups"], run_id=r) for r in ("a_stag", "b_equal"))
    assert (gaps["staggered_setup_id"] == stag["setup_id"]).all()
    assert (gaps["equal_setup_id"] == equal["setup_id"]).all()
    assert (gaps["setup_label"] == stag["setup_label"]).all()
    for seat in range(4):
        g = row(gaps, seat=seat)
        # a Burgenland play has one winner at most (none when it stalls): the win share is 1 for the winner
        won = {r: [float(s["won"]) for s in seats_of(r) if s["seat"] == seat] for r in ("a_stag", "b_equal")}
        ps, pe = (statistics.mean(won[r]) for r in ("a_stag", "b_equal"))
        assert (g["staggered_n_plays"], g["equal_n_plays"], g["fair_share"]) == (3, 2, 0.25)
        assert g["same_seed_plays"] == 2  # seed 1 both: plays 0 and 1 start from the same shuffles
        assert (g["staggered_win_share"], g["equal_win_share"]) == pytest.approx((ps, pe))
        # without ties a share varies as a win does: its interval is the plain Wilson interval at the plays
        assert (g["staggered_win_share_lo"], g["staggered_win_share_hi"]) == pytest.approx(
            wilson(sum(won["a_stag"]), 3))
        assert (g["equal_win_share_lo"], g["equal_win_share_hi"]) == pytest.approx(wilson(sum(won["b_equal"]), 2))
        assert (g["staggered_effective_plays"], g["equal_effective_plays"]) == pytest.approx((3, 2))
        # the score test against the fair share, and the difference's normal test (independent samples)
        assert g["staggered_p_value"] == pytest.approx(normal_p(ps - 0.25, math.sqrt(0.25 * 0.75 / 3)))
        assert g["equal_p_value"] == pytest.approx(normal_p(pe - 0.25, math.sqrt(0.25 * 0.75 / 2)))
        se = math.sqrt(ps * (1 - ps) / 3 + pe * (1 - pe) / 2)
        assert (g["difference"], g["difference_lo"], g["difference_hi"]) == pytest.approx((ps - pe, ps - pe - Z * se,
                                                                                          ps - pe + Z * se))
        assert g["difference_p_value"] == pytest.approx(normal_p(ps - pe, se) if se else float(ps == pe))
        ms, me = margins("a_stag", seat), margins("b_equal", seat)
        d, dh = statistics.mean(ms) - statistics.mean(me), math.hypot(half(ms), half(me))
        assert (g["staggered_margin"], g["equal_margin"]) == pytest.approx((statistics.mean(ms), statistics.mean(me)))
        assert (g["margin_difference"], g["margin_difference_lo"], g["margin_difference_hi"]) == pytest.approx(
            (d, d - dh, d + dh))
    assert not any("win_rate" in c or "vs_fair" in c for c in gaps.columns)  # the page judges, with Holm
    # the shared seat mart it reads: Burgenland's score is the pieces placed
    seat0 = of(hand, "mart_seat_advantage", "a_stag", seat=0)
    placed = [s["placed"] for s in seats_of("a_stag") if s["seat"] == 0]
    assert seat0["mean_score"] == pytest.approx(statistics.mean(placed))


def test_the_start_hands_verdict_rests_on_holm_and_the_margin():
    from simlib.games.burgenland.report import _tested, verdict_words

    base = {"seat": 0, "fair_share": 0.25, "staggered_effective_plays": 10_000.0, "equal_effective_plays": 10_000.0,
            "difference_p_value": 0.5}
    # seat 0 at 20% staggered (p tiny), 25.1% equal (p large, but within 1 pp: fair), and a seat of p = 0.02 that
    # one test alone would call apart but that Holm over the figure's 4 tests does not
    rows = pl.DataFrame([base | {"staggered_win_share": 0.20, "staggered_p_value": 1e-9, "equal_win_share": 0.251,
                                 "equal_p_value": 0.8},
                         base | {"seat": 1, "staggered_win_share": 0.26, "staggered_p_value": 0.02,
                                 "equal_win_share": 0.25, "equal_p_value": 1.0}])
    tested = _tested(rows)
    assert tested["staggered_p_holm"].to_list() == pytest.approx([4e-9, 0.06])
    assert tested["staggered_vs_fair"].to_list() == ["below", "unclear"]
    assert tested["equal_vs_fair"].to_list() == ["fair", "fair"]
    assert verdict_words("below", "fair") == VERDICTS["below", "fair"]
    assert verdict_words("unclear", "above").startswith("too few plays to tell whether the extra card compensates")
    assert "significant" not in " ".join(VERDICTS.values())


def test_length_by_hand(hand):
    for run_id, (_, policies, plays) in RUNS.items():
        if run_id == "a_stag_prefix":
            continue
        ends = [end for _, _, _, end, _ in plays]
        length = of(hand, "mart_burgenland_length", run_id)
        assert (length["n_runs"], length["n_plays"]) == (1, len(plays))
        for reason in ("last_piece", "stalled", "turn_limit"):
            k = ends.count(reason)
            assert length[f"n_{reason}"] == k and length[f"{reason}_rate"] == pytest.approx(k / len(ends))
            assert (length[f"{reason}_rate_lo"], length[f"{reason}_rate_hi"]) == pytest.approx(wilson(k, len(ends)))
        # the length itself is in turns, the game's one unit (the shared mart the page draws)
        turns = of(hand, "mart_setup_length", run_id)
        assert turns["mean_turns"] == pytest.approx(statistics.mean(t for _, t, _, _, _ in plays))
    assert of(hand, "mart_burgenland_length", "b_equal")["start_hands"] == "equal"
    assert not any("round" in c for c in hand["mart_burgenland_length"].columns)


def test_pieces_left_by_hand(hand):
    for run_id in ("a_stag", "b_equal", "d_two"):
        players = len(RUNS[run_id][1])
        losers = [s for s in seats_of(run_id) if not s["won"]]
        supply = dict(zip(("wall", "house", "palas", "well"), (5, 4, 4, 3) if players == 2 else (3, 3, 3, 2)))
        supply["any"] = sum(supply.values())
        total = sum(s["pieces_left"] for s in losers)
        for kind, column in KINDS.items():
            r = of(hand, "mart_burgenland_pieces_left", run_id, kind=kind)
            left = [s[column] for s in losers]
            held = sum(x > 0 for x in left)
            assert (r["seat_plays"], r["supply"], r["policy"]) == (len(losers), supply[kind], "random")
            assert r["mean_left"] == pytest.approx(statistics.mean(left))
            assert r["left_share"] == pytest.approx(statistics.mean(left) / supply[kind])
            assert (r["holder_share"], r["share_of_left"]) == pytest.approx((held / len(left), sum(left) / total))
            if len(RUNS[run_id][2]) > 1:  # the play is the unit: a play's losing seats summed first
                mean = clustered_mean(per_play(run_id, lambda s: s[column], lambda s: not s["won"]))
                assert (r["mean_left"], r["mean_left_lo"], r["mean_left_hi"]) == pytest.approx(mean)
                assert (r["left_share_lo"], r["left_share_hi"]) == pytest.approx(
                    tuple(x / supply[kind] for x in mean[1:]))
                holders = clustered_share(per_play(run_id, lambda s: float(s[column] > 0), lambda s: not s["won"]))
                assert (r["holder_share_lo"], r["holder_share_hi"]) == pytest.approx(holders[1:])
            else:  # one play: no interval of a mean; a share's is Wilson's at its seat-plays
                assert r["mean_left_lo"] is None
                assert (r["holder_share_lo"], r["holder_share_hi"]) == pytest.approx(wilson(held, len(left)))
    # the stalled play's four seats all count: none won
    assert of(hand, "mart_burgenland_pieces_left", "b_equal", kind="any")["seat_plays"] == 7


def test_jokers_by_hand(hand):
    seats = seats_of("a_stag")
    n, gained = len(seats), sum(s["jokers_gained"] for s in seats)
    for measure in ("walls", "spots", "tiles", "exchanged", "gained", "used", "left"):
        r = of(hand, "mart_burgenland_jokers", "a_stag", measure=measure)
        values = [s[f"jokers_{measure}"] for s in seats]
        held = sum(v > 0 for v in values)
        assert (r["seat_plays"], r["n_plays"]) == (n, 3)
        assert (r["mean_jokers"], r["mean_jokers_lo"], r["mean_jokers_hi"]) == pytest.approx(
            clustered_mean(per_play("a_stag", lambda s: s[f"jokers_{measure}"])))
        assert r["holder_share"] == pytest.approx(held / n)
        assert (r["holder_share"], r["holder_share_lo"], r["holder_share_hi"]) == pytest.approx(
            clustered_share(per_play("a_stag", lambda s: float(s[f"jokers_{measure}"] > 0))))
        assert r["share_of_jokers"] == pytest.approx(sum(values) / (n + gained))  # of the dealt one + gained
    # the builder in seat 0 (its own set-up) bought two jokers for coins, the one in seat 1 none
    zero = of(hand, "mart_burgenland_jokers", "c_builder_0", policy="builder", measure="exchanged")
    one = of(hand, "mart_burgenland_jokers", "c_builder_1", policy="builder", measure="exchanged")
    assert (zero["seat_plays"], zero["mean_jokers"], one["mean_jokers"]) == (1, 2.0, 0.0)


def test_wells_by_hand(hand):
    seats = seats_of("a_stag")
    per_play_wells = [sum(s["wells_built"] for s in seats if s["play"] == p) for p in range(3)]
    per_play_coins = [sum(s["well_coins"] for s in seats if s["play"] == p) for p in range(3)]
    wells = of(hand, "mart_burgenland_wells", "a_stag")
    assert (wells["n_plays"], wells["wells_per_play"]) == (3, pytest.approx(statistics.mean(per_play_wells)))
    assert (wells["wells_per_play_lo"], wells["wells_per_play_hi"]) == pytest.approx(mean_ci(per_play_wells))
    built, coins = [s["wells_built"] for s in seats], [s["well_coins"] for s in seats]
    assert (wells["seat_plays"], wells["mean_wells"]) == (12, pytest.approx(statistics.mean(built)))
    # the play is the unit: a play's four seats summed first (at a table of one policy, the per-play sums / 4)
    assert (wells["mean_wells"], wells["mean_wells_lo"], wells["mean_wells_hi"]) == pytest.approx(
        clustered_mean(per_play("a_stag", lambda s: s["wells_built"])))
    assert (wells["mean_wells_lo"], wells["mean_wells_hi"]) == pytest.approx(
        tuple(x / 4 for x in mean_ci(per_play_wells)))
    builders = sum(b > 0 for b in built)
    assert (wells["builder_share"], wells["builder_share_lo"], wells["builder_share_hi"]) == pytest.approx(
        clustered_share(per_play("a_stag", lambda s: float(s["wells_built"] > 0))))
    assert wells["builder_share"] == pytest.approx(builders / 12)
    assert (wells["mean_well_coins"], wells["mean_well_coins_lo"], wells["mean_well_coins_hi"]) == pytest.approx(
        clustered_mean(per_play("a_stag", lambda s: s["well_coins"])))
    assert statistics.mean(coins) == pytest.approx(wells["mean_well_coins"])
    assert (wells["coins_per_well"], wells["coins_per_well_lo"], wells["coins_per_well_hi"]) == pytest.approx(
        ratio_ci(per_play_coins, per_play_wells))  # a ratio of the plays' sums: plays as the units
    for w in range(3):
        r = of(hand, "mart_burgenland_win_by_wells", "a_stag", wells_built=w)
        mine = [s for s in seats if s["wells_built"] == w]
        wins = sum(s["won"] for s in mine)
        group = per_play("a_stag", lambda s: float(s["won"]), lambda s: s["wells_built"] == w)
        assert (r["wells_supply"], r["seat_plays"], r["wins"]) == (2, len(mine), wins)
        assert (r["seat_play_share"], r["win_share"], r["fair_share"]) == pytest.approx(
            (len(mine) / 12, wins / len(mine), 0.25))
        assert (r["win_share"], r["win_share_lo"], r["win_share_hi"]) == pytest.approx(clustered_share(group))
        assert (r["mean_placed"], r["mean_placed_lo"], r["mean_placed_hi"]) == pytest.approx(
            clustered_mean(per_play("a_stag", lambda s: s["placed"], lambda s: s["wells_built"] == w)))
        assert r["mean_well_coins"] == pytest.approx(statistics.mean(s["well_coins"] for s in mine))
        assert w == 2 or wins == 0  # a seat short of a well never wins
    assert of(hand, "mart_burgenland_win_by_wells", "d_two", wells_built=3)["wells_supply"] == 3


def test_central_by_hand(hand):
    seats = seats_of("a_stag")
    castle = of(hand, "mart_burgenland_central", "a_stag")
    play_central = [sum(s["central_built"] for s in seats if s["play"] == p) for p in range(3)]
    play_placed = [sum(s["placed"] for s in seats if s["play"] == p) for p in range(3)]
    assert (castle["n_plays"], castle["central_per_play"]) == (3, pytest.approx(statistics.mean(play_central)))
    assert (castle["central_per_play_lo"], castle["central_per_play_hi"]) == pytest.approx(mean_ci(play_central))
    with_central = sum(c > 0 for c in play_central)
    assert (castle["play_share"], castle["play_share_lo"], castle["play_share_hi"]) == pytest.approx(
        (with_central / 3, *wilson(with_central, 3)))
    assert (castle["placed_share"], castle["placed_share_lo"], castle["placed_share_hi"]) == pytest.approx(
        ratio_ci(play_central, play_placed))
    users = [s for s in seats if s["central_built"] > 0]
    others = [s for s in seats if s["central_built"] == 0]
    assert (castle["seat_plays"], castle["users"], castle["non_users"]) == (12, len(users), len(others))
    assert (castle["mean_central"], castle["mean_central_lo"], castle["mean_central_hi"]) == pytest.approx(
        clustered_mean(per_play("a_stag", lambda s: s["central_built"])))
    assert (castle["user_share"], castle["user_share_lo"], castle["user_share_hi"]) == pytest.approx(
        clustered_share(per_play("a_stag", lambda s: float(s["central_built"] > 0))))
    # the policy's share of its pieces there: a ratio of its per-play sums (here every seat is the policy)
    assert (castle["policy_placed_share"], castle["policy_placed_share_lo"], castle["policy_placed_share_hi"]) == (
        pytest.approx(ratio_ci(play_central, play_placed)))
    user_wins, other_wins = sum(s["won"] for s in users), sum(s["won"] for s in others)
    assert (castle["user_win_share"], castle["non_user_win_share"], castle["fair_share"]) == pytest.approx(
        (user_wins / len(users), other_wins / len(others), 0.25))
    assert (castle["user_win_share"], castle["user_win_share_lo"], castle["user_win_share_hi"]) == pytest.approx(
        clustered_share(per_play("a_stag", lambda s: float(s["won"]), lambda s: s["central_built"] > 0)))
    builder = of(hand, "mart_burgenland_central", "c_builder_0", policy="builder")
    assert (builder["n_runs"], builder["seat_plays"], builder["users"], builder["non_users"]) == (1, 1, 0, 1)
    assert builder["non_user_win_share"] == 1.0 and builder["user_win_share"] is None
    assert builder["central_per_play"] == sum(s["central_built"] for s in seats_of("c_builder_0"))


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
    # The first two runs as a what-if sweep of the starting hands: the same runs, now paired play by play.
    status, out = cli("sweep", "burgenland", "--vary", "start_hands=equal", "--players", "4", "--policies", "random",
                      "--plays", "240", "--seed", "7", "--workers", "1", "--lake", str(lake), "--no-report", "--quiet")
    assert status == 0, out
    marts, reports = pipeline_and_report(root, lake)
    return lake, marts, reports


def lake_table(lake: Path, table: str) -> pl.DataFrame:
    return shared_lake_table(lake, "burgenland", table)


def run_setups(lake: Path, marts: dict) -> pl.DataFrame:
    """Per run: its set-up (mart_run_setups), start_hands, the policy names by seat and the wells each seat starts
    with (from the run's configuration and map)."""
    rows = []
    for r in lake_table(lake, "runs").iter_rows(named=True):
        config = json.loads(r["config"])
        board = tomllib.loads(config["options"]["map_text"])
        supply = next(s for s in board["setup"] if s["players"] == config["players"])["supply"]
        rows.append({"run_id": r["run_id"], "hands": config["options"]["start_hands"],
                     "names": ",".join(p.split(":")[0] for p in config["policies"]), "wells_supply": supply["well"]})
    return pl.DataFrame(rows).join(marts["mart_run_setups"].select("run_id", "setup_id"), on="run_id")


def lake_seats(lake: Path, marts: dict) -> pl.DataFrame:
    seats = lake_table(lake, "seats").join(run_setups(lake, marts), on="run_id")
    return seats.with_columns(pl.len().over("run_id", "play_index").alias("players"),
                              pl.col("score").sum().over("run_id", "play_index").alias("total")).with_columns(
        (pl.col("score") - (pl.col("total") - pl.col("score")) / (pl.col("players") - 1)).alias("margin"))


def test_the_real_lake_has_several_parts_per_run(real):
    lake, _, _ = real
    assert len(list((lake / "seats" / "game=burgenland").glob("*/part-*.parquet"))) > len(REAL_RUNS)


def test_seat_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    seats = lake_seats(lake, marts)
    gaps = marts["mart_burgenland_start_hands"]
    assert gaps.height == 4  # the one pair: four random players, staggered and equal
    for r in gaps.iter_rows(named=True):
        for hands in ("staggered", "equal"):
            mine = seats.filter((pl.col("setup_id") == r[f"{hands}_setup_id"]) & (pl.col("seat") == r["seat"]))
            assert mine["hands"].unique().to_list() == [hands]
            assert mine["names"].unique().to_list() == ["random,random,random,random"]
            assert r[f"{hands}_n_plays"] == mine.height == 240
            assert r[f"{hands}_win_share"] == pytest.approx(mine["winner"].mean())  # one winner a play at most
            assert r[f"{hands}_margin"] == pytest.approx(mine["margin"].mean())
        assert r["same_seed_plays"] == 240  # both at seed 7
        assert r["difference"] == pytest.approx(r["staggered_win_share"] - r["equal_win_share"])
    # every seat's jokers balance: the one dealt + gained = used + left
    assert (1 + seats["jokers_gained"] == seats["jokers_used"] + seats["jokers_left"]).all()

    left = marts["mart_burgenland_pieces_left"]
    assert set(left["setup_id"]) == set(seats["setup_id"])
    for r in left.iter_rows(named=True):
        mine = seats.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("policy_spec") == r["policy_spec"])
                            & ~pl.col("winner"))
        assert r["seat_plays"] == mine.height
        assert r["mean_left"] == pytest.approx(mine[KINDS[r["kind"]]].cast(pl.Float64).mean())
        assert r["holder_share"] == pytest.approx((mine[KINDS[r["kind"]]] > 0).mean())
    jk = marts["mart_burgenland_jokers"]
    for r in jk.filter(pl.col("setup_label").str.contains("saver")).iter_rows(named=True):
        mine = seats.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("policy") == r["policy"]))
        assert r["mean_jokers"] == pytest.approx(mine[f"jokers_{r['measure']}"].cast(pl.Float64).mean())
    assert jk.filter(pl.col("setup_label").str.contains("saver"))["policy"].unique().sort().to_list() == [
        "random", "saver"]


def test_play_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    games = lake_table(lake, "games").join(run_setups(lake, marts), on="run_id")
    length = marts["mart_burgenland_length"]
    assert length.height == len(REAL_RUNS)
    for r in length.iter_rows(named=True):
        mine = games.filter(pl.col("setup_id") == r["setup_id"])
        assert r["n_plays"] == mine.height and r["last_piece_rate"] == pytest.approx(mine["completed"].mean())
        assert r["start_hands"] == mine["hands"].unique().item()
        # the length the page draws: turns, the game's one unit (the shared mart)
        turns = row(marts["mart_setup_length"], setup_id=r["setup_id"])
        assert turns["mean_turns"] == pytest.approx(mine["turns"].mean())

    seats = lake_seats(lake, marts)
    for r in marts["mart_burgenland_wells"].iter_rows(named=True):
        mine = games.filter(pl.col("setup_id") == r["setup_id"])
        assert r["wells_per_play"] == pytest.approx(mine["wells_built"].cast(pl.Float64).mean())
        theirs = seats.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("policy_spec") == r["policy_spec"]))
        assert r["coins_per_well"] == pytest.approx(theirs["well_coins"].sum() / theirs["wells_built"].sum())
    short = seats.filter(pl.col("wells_built") < pl.col("wells_supply"))
    assert short["winner"].sum() == 0  # a seat short of a well never wins
    for r in marts["mart_burgenland_win_by_wells"].iter_rows(named=True):
        theirs = seats.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("policy_spec") == r["policy_spec"])
                              & (pl.col("wells_built") == r["wells_built"]))
        assert (r["seat_plays"], r["win_share"]) == (theirs.height, pytest.approx(theirs["winner"].mean()))
        assert r["win_share_lo"] - 1e-12 <= r["win_share"] <= r["win_share_hi"] + 1e-12  # rounding at 0 or 1
    assert marts["mart_burgenland_win_by_wells"].filter(pl.col("wells_built") < pl.col("wells_supply"))[
        "seat_plays"].sum() == short.height
    for r in marts["mart_burgenland_central"].iter_rows(named=True):
        mine = games.filter(pl.col("setup_id") == r["setup_id"])
        assert r["central_per_play"] == pytest.approx(mine["central_built"].cast(pl.Float64).mean())
        theirs = seats.filter(pl.col("setup_id") == r["setup_id"])
        assert r["placed_share"] == pytest.approx(theirs["central_built"].sum() / theirs["score"].sum())
        assert r["placed_share_lo"] < r["placed_share"] < r["placed_share_hi"]


def test_the_report_page_leads_with_the_starting_hands(real):
    _, _, reports = real
    page = (reports / "burgenland.html").read_text()
    figures = figure_names(page, "burgenland")
    assert figures[0] == "start_hands"
    for name in ("seat_advantage", "game_length", "pieces_left", "jokers", "wells", "central"):
        assert name in figures, name
    for name in figures:
        assert len(figure_png(page, f"burgenland_{name}")) > 10_000, name
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert "under staggered hands seat 0 wins a share of" in captions[0] and "under equal hands" in captions[0]
    assert "4 random players" in captions[0] and "share their seeds" in captions[0], captions[0]
    assert "Holm" in captions[0] and "win rate" not in captions[0], captions[0]  # one estimand, one error rate
    # a verdict on the extra card (which one depends on this small sample's luck), with its shares
    verdicts = [*VERDICTS.values(), "too few plays to tell whether the extra card compensates"]
    assert any(v in captions[0] for v in verdicts) and re.search(r"\d+\.\d%", captions[0]), captions[0]
    assert all(len(c) > 80 for c in captions)
    length = captions[figures.index("game_length")]
    assert "turns" in length and "round" not in length and "placing its last piece" in length, length
    own = " ".join(captions[figures.index(n)] for n in ("start_hands", "game_length", "pieces_left", "jokers",
                                                          "wells", "central"))
    assert "no significant" not in own and "not significant" not in own and "win rate" not in own
    tables = re.findall(r"<h3>(.*?)</h3>", page)
    assert tables[:2] == ["Staggered against equal starting hands by seat",
                          "Win share and advantage by seat, per set-up"]
    assert "How plays end" in tables and "Game length per set-up" in tables
    assert not any("round" in t for t in tables)

    index = (reports / "index.html").read_text().split("<div class='card'>")[1:]
    verdicts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", next(c for c in index if "burgenland.html" in c)))
    # the reading of the rule text (free_well_tile): these runs do not sweep it, so not measured
    readings = verdicts.pop("Does reading the rule text another way change the game?")
    assert "not measured" in readings and "free_well_tile" in readings, readings
    assert "half-time leader" in verdicts.pop("Is the game decided early?")  # issue 38, in the game's unit:
    assert "pieces placed behind" in verdicts.pop("Can a player who falls behind come back?")
    (start, _), (own, answer), (length, said) = list(verdicts.items())[:3]  # the index's questions, answered
    assert own == "Do staggered hands make up for the start?" and "at 4 random players" in answer, verdicts
    assert "wins a share of" in answer and "Holm" in answer, answer
    assert (start, length) == ("Is the start player favoured?", "How long does a play last?") and "turns" in said
    assert "round" not in said


def test_the_what_if_headline_is_the_pieces_left_by_the_seats_that_did_not_win(real):
    lake, marts, reports = real
    name = "pieces left per seat that did not win"
    effects = marts["mart_variant_effects"].filter(pl.col("metric") == f"headline: {name}")
    assert effects.height == 2 and effects["run_id"].n_unique() == 2  # the baseline and its variant
    seats = lake_table(lake, "seats")
    plays = seats.filter(~pl.col("winner")).group_by("run_id", "play_index").agg(pl.col("pieces_left").mean())
    for r in effects.iter_rows(named=True):
        mine = plays.filter(pl.col("run_id") == r["run_id"])
        assert r["n_plays"] == mine.height == 240
        assert r["variant_mean"] == pytest.approx(mine["pieces_left"].mean())
        paired = mine.join(plays.filter(pl.col("run_id") == r["baseline_run_id"]), on="play_index")
        assert r["difference"] == pytest.approx((paired["pieces_left"] - paired["pieces_left_right"]).mean())
    assert not marts["mart_variant_effects"]["metric"].str.contains("win rate").any()  # not seat 0's panel again
    assert name in (reports / "whatif.html").read_text()
