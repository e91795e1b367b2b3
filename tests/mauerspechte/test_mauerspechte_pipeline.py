"""Die Mauerspechte's marts (pipelines/mauerspechte/): on a tiny hand-made lake with every answer worked out by
hand, and on a small real run, recomputed from the lake with Polars (another engine) and checked against the
dice; the report page leads with the hotels. The play is the unit of every per-seat interval (a play's seats summed
first: `clustered`), who wins is told by the win share, its interval Wilson's at its effective size
(docs/statistics.md), all with this file's own arithmetic."""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import statistics
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from scipy import stats

from simlib.analysis.pipeline import build
from simlib.analysis.report import build_report
from simlib.cli import main
from simlib.core.lake import part_path, write_atomic
from simlib.core.schemas import RUNS_SCHEMA
from simlib.games.catan.tables import GAMES as CATAN_GAMES
from simlib.games.mauerspechte.tables import GAMES, HOTELS, LOVE_PARADES, SEATS, WALL_PIECES

from support.catan_lake_fixture import write_catan_run
from support.lake_fixture import _table, seal_run
from support.mart_checks import Z, clustered_mean, clustered_share, marts_of, mean_ci, row, wilson
from support.report_pages import figure_names, figure_png

# --- a hand-made lake ------------------------------------------------------------------------------------

# Four random players, three plays, won by seats 0, 1 and 2.
GAME_ROWS = [
    {"play_index": 0, "turns": 100, "winners": [0], "wall_opened_turn": 40, "wall_pieces": 3, "hotels": 3,
     "love_parades": 2, "tiergarten_left": 1},
    {"play_index": 1, "turns": 120, "winners": [1], "wall_opened_turn": None, "wall_pieces": 0, "hotels": 2,
     "love_parades": 1, "tiergarten_left": 0},
    {"play_index": 2, "turns": 80, "winners": [2], "wall_opened_turn": 40, "wall_pieces": 2, "hotels": 1,
     "love_parades": 0, "tiergarten_left": 2},
]

# Points by source per (play, seat); the seat's points are their sum, hotels its hotels owned.
POINTS = {
    (0, 0): {"points_settlements": 2, "points_cities": 8, "points_wall": 2, "points_chips": 2, "points_mauerspecht": 1},
    (0, 1): {"points_settlements": 3, "points_cities": 2, "points_wall": 1, "points_chips": 1},
    (0, 2): {"points_settlements": 2, "points_chips": 1},
    (0, 3): {"points_settlements": 2},
    (1, 0): {"points_settlements": 2, "points_chips": 1},
    (1, 1): {"points_settlements": 3, "points_cities": 8, "points_dev_cards": 2, "points_army": 2},
    (1, 2): {"points_settlements": 2},
    (1, 3): {"points_settlements": 2},
    (2, 0): {"points_settlements": 2},
    (2, 1): {"points_settlements": 2},
    (2, 2): {"points_settlements": 1, "points_cities": 8, "points_longest_route": 2, "points_dev_cards": 1,
             "points_raver": 1, "points_chips": 2},
    (2, 3): {"points_settlements": 2, "points_wall": 2, "points_mauerspecht": 1},
}


def _hotel(play, chip, seat, turn, game_turns, yield_, payback_turn=None, robbed=0, short=0, field=(0, 0, 0, 0),
           won=False):
    pips = 6 - abs(7 - chip)
    rolls = game_turns - turn - 1
    return {"play_index": play, "hotel": f"h{chip}", "field": chip, "resource": "grain", "chip": chip,
            "old_token": 3, "seat": seat, "turn": turn, "game_turns": game_turns,
            "cost": {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}[chip], "rolls": rolls, "yield": yield_,
            "expected_yield": 2 * pips / 36 * rolls, "robbed": robbed, "short": short, "payback_turn": payback_turn,
            "field_owner": field[0], "old_owner": field[1], "field_others": field[2], "old_others": field[3],
            "won": won}


HOTEL_ROWS = [
    # chip 5 (price 4): paid back after 10 and 6 rolls, one robbed roll.
    _hotel(0, 5, 0, 50, 100, 12, payback_turn=60, robbed=1, field=(3, 1, 2, 0), won=True),
    _hotel(1, 5, 1, 30, 120, 18, payback_turn=36, field=(5, 2, 0, 0), won=True),
    # chip 8 (price 5): bought with 9 rolls left (the dice promise 2.5 cards), never paid back, 1 card short.
    _hotel(0, 8, 1, 90, 100, 1, short=1, field=(0, 0, 1, 1)),
    # chip 4 (price 3): paid back after 20 and 10 rolls; one cut off unpaid after 15 rolls (bought late).
    _hotel(0, 4, 2, 20, 100, 4, payback_turn=40, field=(0, 0, 4, 1)),
    _hotel(1, 4, 2, 104, 120, 2),
    _hotel(2, 4, 2, 10, 80, 8, payback_turn=20, won=True),
]

WALL_ROWS = [
    {"play_index": 0, "section": "a", "piece": "upper", "seat": 0, "turn": 30, "cost": 2},
    {"play_index": 0, "section": "a", "piece": "lower", "seat": 0, "turn": 40, "cost": 3},
    {"play_index": 0, "section": "b", "piece": "upper", "seat": 1, "turn": 45, "cost": 2},
    {"play_index": 2, "section": "c", "piece": "upper", "seat": 3, "turn": 35, "cost": 2},
    {"play_index": 2, "section": "c", "piece": "lower", "seat": 3, "turn": 40, "cost": 3},
]

PARADE_ROWS = [
    {"play_index": 0, "turn": 10, "seat": 1, "price": 3, "bidders": 2, "missing_number": False, "seat_on_turn": 1},
    {"play_index": 0, "turn": 50, "seat": 2, "price": 0, "bidders": 1, "missing_number": True, "seat_on_turn": 2},
    {"play_index": 1, "turn": 30, "seat": 0, "price": 5, "bidders": 3, "missing_number": False, "seat_on_turn": 3},
]


def write_runs_row(lake: Path, game: str, run_id: str, policies: list[str], plays: int, seed: int,
                   options: dict) -> None:
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    config = {"game": game, "players": len(policies), "policies": policies, "plays": plays, "seed": seed,
              "events": False, "options": options}
    versions = '{"catan": 3, "mauerspechte": 1}' if game == "mauerspechte" else '{"catan": 3}'
    runs = pa.Table.from_pylist([{
        "rules_version": 1, "rules_versions": versions, "simlib_version": "test", "config": json.dumps(config),
        "seed": seed, "players": len(policies), "policies": ",".join(policies), "plays": plays, "shard_size": 100,
        "started_at": now, "ended_at": now, "status": "complete"}], schema=RUNS_SCHEMA)
    write_atomic(runs, part_path(lake, "runs", game, run_id, 0))


MS_OPTIONS = {"map": "berlin", "components": "berlin", "layout": "fixed", "victory_points_3": 17,
              "victory_points_4": 15, "vp_chips": 8, "love_parade_min_bid": 0, "hotel_points": 0, "max_turns": 1000}


def write_mauerspechte_run(lake: Path, run_id: str, plays: int = 3, seed: int = 1, options: dict | None = None,
                           spec: str = "random") -> None:
    """The hand-made plays 0 .. plays - 1 (a shorter run is a prefix of the longer), at four seats of `spec`."""
    write_runs_row(lake, "mauerspechte", run_id, [spec] * 4, plays, seed, MS_OPTIONS | (options or {}))
    hotels_owned = {}
    for h in HOTEL_ROWS:
        hotels_owned[(h["play_index"], h["seat"])] = hotels_owned.get((h["play_index"], h["seat"]), 0) + 1
    seats = []
    for (play, seat), sources in POINTS.items():
        points = sum(sources.values())
        winner = GAME_ROWS[play]["winners"] == [seat]
        seats.append({"play_index": play, "seat": seat, "policy": spec.split(":")[0], "policy_spec": spec,
                      "points": points, "score": points, "rank": 1 if winner else 2, "winner": winner,
                      "hotels": hotels_owned.get((play, seat), 0), **sources})
    games = [g | {"players": 4, "rounds": g["turns"] // 4, "end_reason": "won", "completed": True, "winner_points": 15,
                  "final_points": [sum(POINTS[(g["play_index"], s)].values()) for s in range(4)]} for g in GAME_ROWS]
    for table, schema, rows in (("games", GAMES, games), ("seats", SEATS, seats), ("hotels", HOTELS, HOTEL_ROWS),
                                ("wall_pieces", WALL_PIECES, WALL_ROWS), ("love_parades", LOVE_PARADES, PARADE_ROWS)):
        rows = [dict(r) for r in rows if r["play_index"] < plays]
        write_atomic(_table(schema, rows), part_path(lake, table, "mauerspechte", run_id, 0))
    seal_run(lake, "mauerspechte", run_id)

CATAN_OPTIONS = {"map": "standard", "victory_points": 10, "max_turns": 1000}


def write_catan_turns(lake: Path, run_id: str, turns: list[int], seed: int = 1, options: dict | None = None,
                      spec: str = "random") -> None:
    """A Catan run of four seats of `spec` whose plays last `turns` (seat 0 wins each)."""
    write_catan_run(lake, run_id, 4, [spec] * 4,
                    [{"play_index": p, "seat": s, "winner": s == 0} for p in range(len(turns)) for s in range(4)], [])
    write_runs_row(lake, "catan", run_id, [spec] * 4, len(turns), seed, CATAN_OPTIONS | (options or {}))
    games = [{"play_index": p, "players": 4, "turns": t, "rounds": t // 4, "end_reason": "won", "completed": True,
              "winners": [0], "final_points": [10, 5, 5, 5]} for p, t in enumerate(turns)]
    write_atomic(_table(CATAN_GAMES, games), part_path(lake, "games", "catan", run_id, 0))
    seal_run(lake, "catan", run_id)

@pytest.fixture(scope="module")
def hand_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("mauerspechte_hand")
    write_mauerspechte_run(root / "lake", "hand")
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    return root


@pytest.fixture(scope="module")
def hand(hand_root):
    return marts_of(hand_root / "marts")


def hand_seats() -> list[dict]:
    """The hand-made run's seat-plays: won, hotels owned, wall pieces and lower pieces bought, points, and whether
    it held Bester Mauerspecht."""
    hotels, walls = {}, {}
    for h in HOTEL_ROWS:
        hotels[h["play_index"], h["seat"]] = hotels.get((h["play_index"], h["seat"]), 0) + 1
    for w in WALL_ROWS:
        pieces, lower = walls.get((w["play_index"], w["seat"]), (0, 0))
        walls[w["play_index"], w["seat"]] = (pieces + 1, lower + (w["piece"] == "lower"))
    return [{"play": play, "seat": seat, "won": GAME_ROWS[play]["winners"] == [seat], "points": sum(sources.values()),
             "hotels": hotels.get((play, seat), 0), "wall": walls.get((play, seat), (0, 0))[0],
             "lower": walls.get((play, seat), (0, 0))[1], "mauerspecht": sources.get("points_mauerspecht", 0) > 0,
             **sources} for (play, seat), sources in POINTS.items()]


def per_play(value, among=lambda s: True) -> list[tuple[int, float]]:
    """The hand-made run's three plays as (seats of the group, their summed value)."""
    mine = [s for s in hand_seats() if among(s)]
    return [(sum(s["play"] == p for s in mine), sum(value(s) for s in mine if s["play"] == p)) for p in range(3)]


def test_hotel_payback_by_hand(hand):
    mart = hand["mart_mauerspechte_hotel_payback"]
    assert sorted(mart["chip"].to_list()) == [4, 5, 8] and (mart["n_plays"] == 3).all()
    five = row(mart, chip=5)
    assert (five["n_hotels"], five["cost"], five["pips"]) == (2, 4, 4)
    assert five["bought_share"] == pytest.approx(2 / 3) and five["mean_rolls"] == 69.0
    # Yield per roll: 30 cards over 49 + 89 rolls; the delta method's interval over the two hotels.
    yields, rolls = np.array([12, 18]), np.array([49, 89])
    rate = yields.sum() / rolls.sum()
    residuals = yields - rate * rolls
    half = Z * math.sqrt((residuals ** 2).sum() / (2 - 1) / 2) / rolls.mean()
    assert five["yield_per_roll"] == pytest.approx(30 / 138)
    assert (five["yield_per_roll_lo"], five["yield_per_roll_hi"]) == pytest.approx((rate - half, rate + half))
    assert five["analytic_per_roll"] == pytest.approx(8 / 36)
    assert five["yield_ratio"] == pytest.approx(rate / (8 / 36))
    assert five["break_even_rolls"] == pytest.approx(4 / rate)
    assert five["break_even_rolls_lo"] == pytest.approx(4 / (rate + half))
    assert five["analytic_break_even_rolls"] == pytest.approx(18)
    assert five["mean_yield"] == 15.0 and five["mean_expected_yield"] == pytest.approx(8 / 36 * 69)
    assert five["mean_net"] == 11.0  # 12 - 4 and 18 - 4
    assert (five["mean_net_lo"], five["mean_net_hi"]) == pytest.approx(mean_ci([8, 14]))
    assert five["n_paid"] == 2 and five["paid_back_share"] == 1.0
    assert (five["paid_back_share_lo"], five["paid_back_share_hi"]) == pytest.approx(wilson(2, 2))
    assert (five["median_payback_rolls"], five["mean_payback_rolls"]) == (6, 8.0)  # paid back after 10 and 6 rolls
    assert (five["mean_payback_rolls_lo"], five["mean_payback_rolls_hi"]) == pytest.approx(mean_ci([10, 6]))
    assert five["km_median_payback_rolls"] == 6
    assert five["analytic_median_payback_rolls"] == next(r for r in range(200) if stats.binom.sf(1, r, 4 / 36) >= 0.5)
    assert five["analytic_mean_payback_rolls"] == pytest.approx(2 / (4 / 36))  # two rolls of a 5 pay 4 cards
    assert five["late_share"] == 0.0 and five["unpaid_late_share"] is None
    assert five["mean_robbed_cards"] == 1.0 and five["mean_short_cards"] == 0.0
    promise = 8 / 36 * 138
    assert five["robber_toll_share"] == pytest.approx(2 / promise) and five["bank_toll_share"] == 0.0
    assert five["dice_ratio"] == pytest.approx(32 / promise)  # 30 cards + 2 robbed
    assert five["buyer_win_rate"] == 1.0

    eight = row(mart, chip=8)  # one hotel: no interval, never paid back, bought too late
    assert (eight["n_hotels"], eight["paid_back_share"]) == (1, 0)
    assert (eight["late_share"], eight["unpaid_late_share"]) == (1, 1)
    assert eight["yield_per_roll_lo"] is None and eight["mean_yield_lo"] is None
    assert eight["median_payback_rolls"] is None and eight["km_median_payback_rolls"] is None
    assert eight["mean_short_cards"] == 1.0 and eight["bank_toll_share"] == pytest.approx(1 / 2.5)
    assert eight["buyer_win_rate"] == 0.0 and eight["analytic_mean_payback_rolls"] == pytest.approx(3 / (5 / 36))

    four = row(mart, chip=4)
    # Paid back after 10 and 20 rolls, one cut off after 15: the plain share is 2/3, the median among the paid
    # back 10, but Kaplan-Meier (1/3 paid at 10, all three by 20) puts half at 20.
    assert four["paid_back_share"] == pytest.approx(2 / 3) and four["median_payback_rolls"] == 10
    assert four["km_median_payback_rolls"] == 20
    assert four["late_share"] == pytest.approx(1 / 3) and four["unpaid_late_share"] == 1.0


def test_payback_curve_by_hand(hand):
    curve = hand["mart_mauerspechte_payback_curve"]
    four = curve.filter(pl.col("chip") == 4).sort("rolls")
    assert four["rolls"].to_list() == [10, 20]  # rows where a hotel paid back; the cut-off one at 15 only counts
    assert four["at_risk"].to_list() == [3, 1] and four["n_paid"].to_list() == [1, 1]
    assert four["paid_share"].to_list() == pytest.approx([1 / 3, 1.0])
    # Greenwood with the log(-log) transform at S = 2/3: var = 1 / (3 x 2), se of log(-log S) = sqrt(var) / |ln S|.
    s = 2 / 3
    half = Z * math.sqrt(1 / 6) / abs(math.log(s))
    first = four.row(0, named=True)
    assert first["paid_share_lo"] == pytest.approx(1 - s ** math.exp(-half))
    assert first["paid_share_hi"] == pytest.approx(1 - s ** math.exp(half))
    assert first["paid_share_lo"] < first["paid_share"] < first["paid_share_hi"]
    assert four.row(1, named=True)["paid_share_lo"] == 1.0  # everyone left has paid back
    assert four["analytic_paid_share"].to_list() == pytest.approx([stats.binom.sf(1, r, 3 / 36) for r in (10, 20)])
    five = curve.filter(pl.col("chip") == 5).sort("rolls")
    assert five["rolls"].to_list() == [6, 10] and five["paid_share"].to_list() == pytest.approx([0.5, 1.0])
    assert curve.filter(pl.col("chip") == 8).is_empty()
    assert (curve["n_plays"] == 3).all()


def test_hotel_field_by_hand(hand):
    five = row(hand["mart_mauerspechte_hotel_field"], chip=5)
    assert (five["mean_field_owner"], five["mean_old_owner"], five["owner_uplift"]) == (4.0, 1.5, 2.5)
    assert (five["owner_uplift_lo"], five["owner_uplift_hi"]) == pytest.approx(mean_ci([2, 3]))
    assert (five["mean_field_others"], five["mean_old_others"], five["others_uplift"]) == (1.0, 0.0, 1.0)
    assert five["owner_gain"] == 17.5  # (12 + 2 + 18 + 3) / 2
    assert five["others_share"] == pytest.approx(1 / 18.5)
    four = row(hand["mart_mauerspechte_hotel_field"], chip=4)
    assert four["others_uplift"] == 1.0 and four["owner_uplift"] == 0.0  # (3 + 0 + 0) / 3


def test_wins_by_holdings_and_buyers_by_hand(hand):
    holdings = hand["mart_mauerspechte_win_by_holdings"]
    none = row(holdings, item="hotels", owned=0)
    one = row(holdings, item="hotels", owned=1)
    assert (none["seat_plays"], none["wins"], one["seat_plays"], one["wins"]) == (6, 0, 6, 3)
    # one winner a play: the win share is the wins over the seat-plays; its interval counts plays
    assert (one["win_share"], one["win_share_lo"], one["win_share_hi"]) == pytest.approx(
        clustered_share(per_play(lambda s: float(s["won"]), lambda s: s["hotels"] == 1)))
    assert one["win_share"] == 0.5 and one["seat_play_share"] == 0.5 and one["fair_share"] == 0.25
    assert (one["mean_points"], one["mean_points_lo"], one["mean_points_hi"]) == pytest.approx(
        clustered_mean(per_play(lambda s: s["points"], lambda s: s["hotels"] == 1)))
    assert one["mean_points"] == pytest.approx((15 + 7 + 3 + 15 + 2 + 15) / 6)
    walls = holdings.filter(pl.col("item") == "wall_pieces").sort("owned")
    assert walls["owned"].to_list() == [0, 1, 2]
    assert walls["seat_plays"].to_list() == [9, 1, 2] and walls["wins"].to_list() == [2, 0, 1]
    assert not any("win_rate" in c for c in holdings.columns)

    buyers = hand["mart_mauerspechte_buyers"]
    hotel = row(buyers, item="hotel", seat=None)
    assert (hotel["seat_plays"], hotel["buyers"], hotel["buyer_wins"], hotel["mean_owned"]) == (12, 6, 3, 0.5)
    assert (hotel["mean_owned"], hotel["mean_owned_lo"], hotel["mean_owned_hi"]) == pytest.approx(
        clustered_mean(per_play(lambda s: s["hotels"])))
    assert (hotel["buyer_win_share"], hotel["buyer_win_share_lo"], hotel["buyer_win_share_hi"]) == pytest.approx(
        clustered_share(per_play(lambda s: float(s["won"]), lambda s: s["hotels"] > 0)))
    assert hotel["buyer_win_share"] == 0.5 and hotel["non_buyer_win_share"] == 0.0
    # the non-buyers never won: nothing varies, Wilson's interval at their 6 seat-plays
    assert (hotel["non_buyer_win_share_lo"], hotel["non_buyer_win_share_hi"]) == pytest.approx(wilson(0, 6))
    assert hotel["item_share"] == 1.0 and hotel["mean_lower"] is None
    seat2 = row(buyers, item="hotel", seat=2)
    assert (seat2["seat_plays"], seat2["buyers"], seat2["buyer_wins"], seat2["item_share"]) == (3, 3, 1, 0.5)
    assert seat2["non_buyer_win_share"] is None  # seat 2 bought one in every play
    # one seat is one seat-play a play: its share's interval is the plain Wilson interval at the plays
    assert (seat2["buyer_win_share_lo"], seat2["buyer_win_share_hi"]) == pytest.approx(wilson(1, 3))
    wall = row(buyers, item="wall_piece", seat=None)
    assert (wall["buyers"], wall["buyer_wins"], wall["mean_owned"], wall["mean_lower"]) == (3, 1, 5 / 12, 2 / 12)
    assert (wall["non_buyer_win_share"], wall["non_buyer_win_share_lo"], wall["non_buyer_win_share_hi"]) == (
        pytest.approx(clustered_share(per_play(lambda s: float(s["won"]), lambda s: s["wall"] == 0))))
    assert wall["non_buyer_win_share"] == pytest.approx(2 / 9)
    assert row(buyers, item="wall_piece", seat=0)["item_share"] == pytest.approx(2 / 5)
    assert row(buyers, item="wall_piece", seat=3)["mean_owned"] == pytest.approx(2 / 3)


def test_points_by_source_by_hand(hand):
    points = hand["mart_mauerspechte_points_by_source"]
    assert points.height == 20 and (points["n_plays"] == 3).all()
    cities = row(points, side="winners", source="cities")
    assert (cities["seat_plays"], cities["mean_points"], cities["mean_points_lo"], cities["mean_points_hi"]) == (
        3, 8.0, 8.0, 8.0)
    assert cities["points_share"] == pytest.approx(24 / 45) and cities["mean_total_points"] == 15.0
    settlements = row(points, side="others", source="settlements")
    assert settlements["mean_points"] == pytest.approx(19 / 9)
    # three other seats a play: summed per play first, the play the unit
    ends = clustered_mean(per_play(lambda s: s.get("points_settlements", 0), lambda s: not s["won"]))
    assert (settlements["mean_points"], settlements["mean_points_lo"], settlements["mean_points_hi"]) == (
        pytest.approx(ends))
    chips = row(points, side="others", source="chips")  # 2, 1, 0 chip points over the others of plays 0, 1, 2
    assert (chips["mean_points_lo"], chips["mean_points_hi"]) == pytest.approx(
        clustered_mean(per_play(lambda s: s.get("points_chips", 0), lambda s: not s["won"]))[1:])
    assert (chips["mean_points_lo"], chips["mean_points_hi"]) != pytest.approx(mean_ci([1, 1, 0, 1, 0, 0, 0, 0, 0]))
    for side, group in points.group_by("side"):
        assert group["mean_points"].sum() == pytest.approx(group["mean_total_points"][0]), side
    assert row(points, side="winners", source="hotels")["mean_points"] == 0.0


def test_love_parades_by_hand(hand):
    parades = row(hand["mart_mauerspechte_love_parades"], run_id="hand")
    assert (parades["n_plays"], parades["n_parades"], parades["parades_per_play"]) == (3, 3, 1.0)
    assert (parades["parades_per_play_lo"], parades["parades_per_play_hi"]) == pytest.approx(mean_ci([2, 1, 0]))
    assert parades["mean_price"] == pytest.approx(8 / 3)
    assert (parades["mean_price_lo"], parades["mean_price_hi"]) == pytest.approx(mean_ci([3, 0, 5]))
    assert (parades["median_price"], parades["max_price"]) == (3, 5)
    assert parades["free_share"] == pytest.approx(1 / 3) and parades["missing_number_share"] == pytest.approx(1 / 3)
    assert (parades["missing_number_share_lo"], parades["missing_number_share_hi"]) == pytest.approx(wilson(1, 3))
    assert parades["mean_bidders"] == 2.0 and parades["opener_win_share"] == pytest.approx(2 / 3)
    assert parades["mean_tiergarten_left"] == 1.0
    prices = hand["mart_mauerspechte_parade_prices"].sort("price")
    assert prices["price"].to_list() == [0, 3, 5] and prices["n_missing_number"].to_list() == [1, 0, 0]
    assert prices["share"].to_list() == pytest.approx([1 / 3] * 3) and (prices["n_parades"] == 3).all()


def test_wall_by_hand(hand):
    wall = row(hand["mart_mauerspechte_wall"], run_id="hand")
    assert (wall["opened_plays"], wall["opened_share"]) == (2, pytest.approx(2 / 3))
    assert (wall["opened_share_lo"], wall["opened_share_hi"]) == pytest.approx(wilson(2, 3))
    assert wall["mean_opened_turn"] == wall["mean_opened_turn_lo"] == wall["mean_opened_turn_hi"] == 40.0
    assert (wall["p25_opened_turn"], wall["median_opened_turn"], wall["p75_opened_turn"]) == (40, 40, 40)
    assert wall["mean_opened_fraction"] == pytest.approx((40 / 100 + 40 / 80) / 2)
    assert wall["mean_pieces"] == pytest.approx(5 / 3) and wall["all_pieces_share"] == 0.0
    # Bester Mauerspecht: seat 0 in play 0 (won), seat 3 in play 2 (lost).
    assert (wall["holder_plays"], wall["holder_win_share"], wall["without_win_share"]) == (2, 0.5, 0.2)
    assert (wall["without_win_share_lo"], wall["without_win_share_hi"]) == pytest.approx(
        clustered_share(per_play(lambda s: float(s["won"]), lambda s: not s["mauerspecht"]))[1:])
    hist = hand["mart_mauerspechte_wall_open_hist"]
    assert hist["opened_turn"].to_list() == [40] and hist["n_plays_opened"].to_list() == [2]
    assert hist["share"].to_list() == pytest.approx([2 / 3])
    assert hist["opened_share"].to_list() == pytest.approx([2 / 3])


# Die Mauerspechte's turns per play in the hand-made runs (plays 0, 1, 2), and the Catan runs beside them.
MS_TURNS = [g["turns"] for g in GAME_ROWS]
CATAN_RUNS = {  # run id: (turns per play, seed, options, policy spec)
    "c_random": ([40, 44, 51], 1, {}, "random"),
    "c_random_prefix": ([40, 44], 1, {}, "random"),  # the same set-up and seed, fewer plays: a prefix, not counted
    "c_random_seed2": ([60, 62], 2, {}, "random"),  # another seed: counted, pooled with c_random
    "c_random_vp12": ([70, 75], 1, {"victory_points": 12}, "random"),  # other options: never the partner
    "c_builder": ([30, 34], 1, {}, "builder:variety=2"),
    "c_builder_v3": ([90, 94], 1, {}, "builder:variety=3"),  # other policy parameters: never the partner
}


@pytest.fixture(scope="module")
def pooled(tmp_path_factory):
    """Runs of several set-ups of both games, with repeats, for the pooled length against Catan."""
    root = tmp_path_factory.mktemp("mauerspechte_pooled")
    lake = root / "lake"
    write_mauerspechte_run(lake, "ms_random")
    write_mauerspechte_run(lake, "ms_random_prefix", plays=2)  # its plays are ms_random's first two
    write_mauerspechte_run(lake, "ms_hotels_2", plays=2, options={"hotel_points": 2})
    write_mauerspechte_run(lake, "ms_builder", plays=2, spec="builder:max_bid=2:variety=2")
    for run_id, (turns, seed, options, spec) in CATAN_RUNS.items():
        write_catan_turns(lake, run_id, turns, seed, options, spec)
    result = build(lake, root / "marts", root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    return marts_of(root / "marts")


def _welch(a: list[int], b: list[int]) -> tuple[float, float]:
    d = statistics.mean(a) - statistics.mean(b)
    half = Z * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return d - half, d + half


def _median(values: list[int]) -> int:
    """The smallest value with at least half the plays at or below it (quantile_disc)."""
    ordered = sorted(values)
    return ordered[math.ceil(len(ordered) / 2) - 1]


def test_length_against_catan_pools_each_setup_once(pooled):
    length = pooled["mart_mauerspechte_length_vs_catan"]
    assert length.height == 3 and (length["game"] == "mauerspechte").all()
    catan = CATAN_RUNS["c_random"][0] + CATAN_RUNS["c_random_seed2"][0]  # the prefix once, victory_points 12 never
    for label, plays in (("4 random players", MS_TURNS), ("4 random players, hotels worth 2 points", MS_TURNS[:2])):
        r = row(length, setup_label=label)
        assert (r["n_runs"], r["n_plays"], r["mean_turns"]) == (1, len(plays), pytest.approx(statistics.mean(plays)))
        assert r["median_turns"] == _median(plays)
        assert (r["mean_turns_lo"], r["mean_turns_hi"]) == pytest.approx(mean_ci(plays))
        assert (r["catan_setup_label"], r["catan_n_runs"], r["catan_n_plays"]) == ("4 random players", 2, 5)
        assert r["catan_mean_turns"] == pytest.approx(statistics.mean(catan))
        assert (r["catan_mean_turns_lo"], r["catan_mean_turns_hi"]) == pytest.approx(mean_ci(catan))
        assert r["catan_median_turns"] == _median(catan) == 51
        assert r["difference"] == pytest.approx(statistics.mean(plays) - statistics.mean(catan))
        assert (r["difference_lo"], r["difference_hi"]) == pytest.approx(_welch(plays, catan))
        # its test, and whether a difference larger than 1% of Catan's length is ruled out (TOST, 90% interval)
        d = statistics.mean(plays) - statistics.mean(catan)
        se = math.sqrt(statistics.variance(plays) / len(plays) + statistics.variance(catan) / len(catan))
        assert r["p_value"] == pytest.approx(math.erfc(abs(d) / se / math.sqrt(2)))
        assert r["margin"] == pytest.approx(0.01 * statistics.mean(catan))
        assert r["equivalent"] == (abs(d) + 1.6448536269514722 * se < 0.01 * statistics.mean(catan))
        assert r["ratio"] == pytest.approx(statistics.mean(plays) / statistics.mean(catan))
    assert row(length, setup_label="4 random players")["setup_id"] != row(
        length, setup_label="4 random players, hotels worth 2 points")["setup_id"]
    # builder:max_bid=2:variety=2 (the scenario's own max_bid aside) meets Catan's builder:variety=2 only.
    builder = row(length, setup_label="4 builder players")
    assert (builder["n_plays"], builder["catan_setup_label"], builder["catan_n_plays"]) == (2, "4 builder players", 2)
    assert builder["catan_mean_turns"] == pytest.approx(statistics.mean(CATAN_RUNS["c_builder"][0]))
    assert builder["difference"] == pytest.approx(statistics.mean(MS_TURNS[:2]) - 32)


def test_length_against_catan_without_a_partner(hand):
    length = row(hand["mart_mauerspechte_length_vs_catan"], setup_label="4 random players")
    assert (length["n_runs"], length["n_plays"], length["mean_turns"]) == (1, 3, statistics.mean(MS_TURNS))
    assert length["catan_setup_id"] is None and length["catan_n_plays"] is None and length["difference"] is None


# --- a small real run -------------------------------------------------------------------------------------

def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(args))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    root = tmp_path_factory.mktemp("mauerspechte_real")
    lake, marts, reports = root / "lake", root / "marts", root / "reports"
    for players, policy, plays in ((4, "random", 160), (3, "builder", 100)):
        status, out = cli("simulate", "mauerspechte", "--plays", str(plays), "--players", str(players),
                          "--policies", policy, "--seed", "7", "--workers", "1", "--lake", str(lake), "--quiet")
        assert status == 0, out
    status, out = cli("simulate", "catan", "--plays", "100", "--players", "4", "--policies", "random", "--seed", "7",
                      "--workers", "1", "--lake", str(lake), "--quiet")  # the base game at one of the tables
    assert status == 0, out
    status, out = cli("pipeline", "--lake", str(lake), "--marts", str(marts), "--db", str(root / "simlib.duckdb"))
    assert status == 0 and ", 0 failed" in out, out
    status, out = cli("report", "--lake", str(lake), "--marts", str(marts), "--out", str(reports))
    assert status == 0, out
    return lake, marts_of(marts), reports


def lake_table(lake: Path, table: str) -> pl.DataFrame:
    return pl.read_parquet(str(lake / table / "game=mauerspechte" / "**" / "*.parquet"), hive_partitioning=True)


def kaplan_meier(paid: list[tuple[int, bool]]) -> dict[int, float]:
    """(rolls, paid back) per hotel -> the share paid back at each roll count with a payback."""
    share, unpaid, out = 0.0, 1.0, {}
    for t in sorted({r for r, p in paid if p}):
        at_risk = sum(1 for r, _ in paid if r >= t)
        events = sum(1 for r, p in paid if p and r == t)
        unpaid *= 1 - events / at_risk
        share = 1 - unpaid
        out[t] = share
    return out


def test_hotel_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    hotels = lake_table(lake, "hotels")
    mart = marts["mart_mauerspechte_hotel_payback"]
    assert mart.height > 6  # most chips at both tables
    for r in mart.iter_rows(named=True):
        mine = hotels.filter((pl.col("run_id") == r["run_id"]) & (pl.col("chip") == r["chip"]))
        assert r["n_hotels"] == mine.height
        assert r["yield_per_roll"] == pytest.approx(mine["yield"].sum() / mine["rolls"].sum())
        assert r["analytic_per_roll"] == pytest.approx(mine["expected_yield"].sum() / mine["rolls"].sum())
        assert r["paid_back_share"] == pytest.approx(mine["payback_turn"].is_not_null().mean())
        delays = (mine["payback_turn"] - mine["turn"]).drop_nulls().sort().to_list()
        if delays:
            assert r["median_payback_rolls"] == delays[math.ceil(len(delays) / 2) - 1]  # quantile_disc
            assert r["mean_payback_rolls"] == pytest.approx(statistics.mean(delays))
        assert r["yield_ratio"] == pytest.approx(r["dice_ratio"] - r["robber_toll_share"] - r["bank_toll_share"])
        if r["n_hotels"] >= 20:
            assert r["yield_per_roll_lo"] < r["yield_per_roll"] < r["yield_per_roll_hi"]
            assert 0.7 < r["dice_ratio"] < 1.3  # the dice keep their promise, give or take luck
    curve = marts["mart_mauerspechte_payback_curve"]
    for (run_id, chip), rows in curve.group_by("run_id", "chip"):
        mine = hotels.filter((pl.col("run_id") == run_id) & (pl.col("chip") == chip))
        observed = [(p - t if p is not None else n, p is not None)
                    for p, t, n in zip(mine["payback_turn"], mine["turn"], mine["rolls"])]
        expected = kaplan_meier(observed)
        rows = rows.sort("rolls")
        assert rows["rolls"].to_list() == sorted(expected)
        assert rows["paid_share"].to_list() == pytest.approx([expected[t] for t in sorted(expected)])
        assert (rows["paid_share"].diff().drop_nulls() >= 0).all()


def test_seat_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    seats, pieces = lake_table(lake, "seats"), lake_table(lake, "wall_pieces")
    points = marts["mart_mauerspechte_points_by_source"]
    for r in points.iter_rows(named=True):
        side = seats.filter((pl.col("run_id") == r["run_id"]) & (pl.col("winner") == (r["side"] == "winners")))
        assert r["mean_points"] == pytest.approx(side[f"points_{r['source']}"].cast(pl.Float64).mean())
    buyers = marts["mart_mauerspechte_buyers"].filter((pl.col("item") == "wall_piece") & pl.col("seat").is_not_null())
    bought = pieces.group_by("run_id", "seat").agg(pl.len().alias("n"))
    for r in buyers.iter_rows(named=True):
        n = bought.filter((pl.col("run_id") == r["run_id"]) & (pl.col("seat") == r["seat"]))["n"].sum()
        assert r["mean_owned"] == pytest.approx(n / r["seat_plays"])
    holdings = marts["mart_mauerspechte_win_by_holdings"].filter(pl.col("item") == "hotels")
    for r in holdings.iter_rows(named=True):
        mine = seats.filter((pl.col("run_id") == r["run_id"]) & (pl.col("hotels") == r["owned"]))
        assert (r["seat_plays"], r["wins"]) == (mine.height, mine["winner"].sum())
        assert r["win_share"] == pytest.approx(mine["winner"].mean())  # one winner a play at most
        assert r["win_share_lo"] - 1e-12 <= r["win_share"] <= r["win_share_hi"] + 1e-12  # rounding at 0 or 1
    parades = lake_table(lake, "love_parades")
    for r in marts["mart_mauerspechte_love_parades"].iter_rows(named=True):
        mine = parades.filter(pl.col("run_id") == r["run_id"])
        assert r["n_parades"] == mine.height and r["mean_price"] == pytest.approx(mine["price"].mean())
    length = marts["mart_mauerspechte_length_vs_catan"].sort("players")
    assert length["setup_label"].to_list() == ["3 builder players", "4 random players"]
    assert length["n_plays"].to_list() == [100, 160] and length["catan_n_plays"].to_list() == [None, 100]
    catan = pl.read_parquet(str(lake / "games" / "game=catan" / "**" / "*.parquet"), hive_partitioning=True)["turns"]
    mine = lake_table(lake, "games").filter(pl.col("players") == 4)["turns"]
    r = row(length, players=4)
    assert (r["mean_turns"], r["catan_mean_turns"]) == pytest.approx((mine.mean(), catan.mean()))
    assert r["difference"] == pytest.approx(mine.mean() - catan.mean())


def test_the_report_page_leads_with_the_hotels(real):
    _, marts, reports = real
    page = (reports / "mauerspechte.html").read_text()
    figures = figure_names(page, "mauerspechte")
    assert figures[:4] == ["hotel_payback", "hotel_payback_curve", "hotel_field", "hotel_wins"]
    for name in ("seat_advantage", "points_by_source", "love_parades", "wall", "length_vs_catan"):
        assert name in figures, name
    for name in figures:
        assert len(figure_png(page, f"mauerspechte_{name}")) > 10_000, name
    captions = dict(re.findall(r"<figure id='mauerspechte_(\w+)'>.*?<figcaption>(.*?)</figcaption>", page))
    lead = captions["hotel_payback"]
    assert "design in 18" in lead and re.search(r"\d+\.\d% \(\d+\.\d% to \d+\.\d%, chip \d+\)", lead), lead
    assert lead.startswith("<b>Does a hotel pay back its price?</b> At 4 random players ("), lead
    assert all(len(c) > 80 and "None" not in c and "nan" not in c for c in captions.values()), captions
    # Scripted players on the fixed map: drawn, but every play opens the same way, so no verdict rests on them.
    fixed = marts["mart_run_setups"].filter(pl.col("fixed_opening"))["setup_label"].unique().to_list()
    assert fixed == ["3 builder players"]
    assert "the table of scripted players on the fixed map opens the same way in every play and gives no " \
        "verdict" in captions["seat_advantage"].lower(), captions["seat_advantage"]
    assert "The Berlin map is fixed" in page and "no verdict rests on them" in page  # the page's caveat box
    # the length against Catan: tested with Holm over the figure's set-ups, never "no significant difference"
    catan = captions["length_vs_catan"]
    assert "significant" not in catan and any(w in catan for w in (
        "(Holm over them)", "no difference larger than 1% of Catan", "too few plays to tell")), catan
    assert "win rate" not in captions["hotel_wins"] and "win a share of" in captions["hotel_wins"]
    index = (reports / "index.html").read_text().split("<div class='card'>")[1:]
    verdicts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", next(c for c in index if "mauerspechte.html" in c)))
    start = verdicts["Is the start player favoured?"]
    assert "openings vary" in start and "builder" not in start, start  # the fixed map's table gives no verdict
    tables = re.findall(r"<h3>(.*?)</h3>", page)
    assert tables[:3] == ["Hotel payback by chip", "Hotel chips and the field&#x27;s buildings",
                          "Hotel owners against the other seats"]
    assert "Game length against Catan" in tables and not re.search(r"<td>[0-9a-f]{12}</td>", page)


def test_the_report_page_of_one_setup_reads_right(hand_root):
    """One set-up and three plays: sentences name it, without ranges over set-ups or empty values."""
    build_report(hand_root / "lake", hand_root / "marts", hand_root / "reports", workers=1)
    page = (hand_root / "reports" / "mauerspechte.html").read_text()
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert len(captions) >= 8 and all("None" not in c and "nan" not in c and "set-ups drawn" not in c
                                      for c in captions), captions
    assert any("At 4 random players (6 hotels) the owner got" in c for c in captions), captions
    # Love Parades at the hand-made table: 3 parades in 3 plays, chips of 3, 0 and 5 cards.
    parade = next(c for c in captions if "Love Parades a play" in c or "Love Parades and" in c)
    assert "a play holds 1.00" in parade and f"a chip costs {8 / 3:.2f}" in parade, parade
