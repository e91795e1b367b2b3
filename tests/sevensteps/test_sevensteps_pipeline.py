"""7 Steps' marts (pipelines/sevensteps/, and the shared pooled marts for 7 Steps' runs): on a tiny hand-made lake,
every answer worked out in the test from the rows written, and on a small real run (several part files per run),
recomputed from the lake with Polars (another engine). Runs pool through mart_run_setups: only counted runs (a run
whose plays a longer run at the same seed holds counts once), per set-up or, for the skill gap, per pairing; the
side and tile threshold are the set-up's option_values. The report page leads with the start player and the skill
gap by side, its own sections replacing the generic seat-advantage and game-length figures. The play is the unit of
every interval (a per-seat figure summed over a play's seats first: `clustered`), who wins is told by the win share
(a tie split), its interval Wilson's at its effective size (docs/statistics.md), all with this file's own
arithmetic."""

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

from simlib.analysis.pipeline import build
from simlib.core.lake import part_path, write_atomic
from simlib.core.registry import get_game
from simlib.core.schemas import RUNS_SCHEMA
from simlib.games.sevensteps.tables import GAMES, SEATS, TURNS

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

GAME = get_game("sevensteps")
# The runs' options: the defaults but the side and threshold, with the hash of the default data files (the set-up
# labels say "data files edited" when it differs).
OPTIONS = {"first_disc": "tile", "layout": "standard", "max_turns": 1000, "side": "front", "specials": "assumed",
           "threshold_counts": "discs", "tile_threshold": 7, "tiles": "fano", "unused_tile_points": 2,
           "tiles_text": "name = 'fano'\n[[tile]]",
           "data_id": GAME.resolve_options({n: p.default for n, p in GAME.parameters().items()})["data_id"]}


def welch(a, b):
    """The difference of means mean(a) - mean(b) and its 95% interval for independent samples."""
    d = statistics.mean(a) - statistics.mean(b)
    half = Z * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return d, d - half, d + half


def effective(r, var, n):
    """A share's effective size r (1 - r) / var (n where nothing varies)."""
    return n if r * (1 - r) <= 1e-12 or var <= 1e-12 * r * (1 - r) / n else r * (1 - r) / var


def share_ci(shares):
    """A mean share over plays, its effective plays n p (1 - p) / (mean of squares - p^2), and its Wilson interval
    there (the shared share_lo, share_hi)."""
    n, p = len(shares), statistics.mean(shares)
    n_eff = effective(p, statistics.mean(x * x for x in shares) - p * p, 1) * n if n else n
    return p, n_eff, wilson(p * n_eff, n_eff)


def normal_p(difference, se):
    """Two-sided p of a normal difference against 0."""
    return math.erfc(abs(difference) / se / math.sqrt(2))


def half(values):
    """The half width of the 95% normal interval of a mean (None from one value)."""
    return Z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None


def quantile_disc(values, q):
    """The smallest value with at least a share q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(math.ceil(q * len(ordered)), 1) - 1]


def margin(scores, seat):
    """The seat's score minus the mean of the other seats' scores."""
    return scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)


# --- a hand-made lake ------------------------------------------------------------------------------------

# Per run: side, tile_threshold, policies by seat, and per play the scores by seat, the winners and the rounds.
A_FRONT = [([10, 20, 30, 40], [3], 17), ([25, 25, 10, 20], [0, 1], 18), ([30, 10, 20, 20], [0], 17)]
RUNS = {
    # Four random players on the front: seat 0 wins play 2, shares play 1. The same set-up with events plays
    # the first play again (the same seed): its plays are a_front's, counted once; only it has turns.
    "a_front": ("front", 7, ["random"] * 4, A_FRONT),
    "a_front_events": ("front", 7, ["random"] * 4, A_FRONT[:1]),
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
COUNTED = [r for r in RUNS if r != "a_front_events"]
COLLAPSES = {("a_front", 1): 1, ("a_front", 2): 2}
INCOMPLETE = {("b_back", 1)}  # ended by the turn limit


def a_front_tiles(play: int, seat: int) -> dict:
    """Set-up a_front's tiles: play + seat build-aid tiles taken, all but one played (so one held if any was taken);
    seats 0 and 2 take one victory-point tile a play and hold it to the end."""
    aids, bonuses = play + seat, 1 if seat % 2 == 0 else 0
    return {"aids_taken": aids, "aids_played": max(aids - 1, 0), "aid_left": aids > 0, "bonuses_taken": bonuses,
            "bonuses_played": 0, "bonus_left": bonuses == 1}


NO_TILES = {"aids_taken": 0, "aids_played": 0, "aid_left": False, "bonuses_taken": 0, "bonuses_played": 0,
            "bonus_left": False}


def seat_tiles(run_id: str, play: int, seat: int) -> dict:
    return a_front_tiles(play, seat) if run_id.startswith("a_front") else NO_TILES


# Run a_front_events' turns (play 0): (seat, aid, bonus, bonus points, placed, score, pile taken, tile taken).
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
        done = (run_id, play) not in INCOMPLETE
        games.append({"rules_version": 1, "play_index": play, "players": players, "turns": rounds * players,
                      "rounds": rounds, "side": side, "collapses": COLLAPSES.get((run_id.removesuffix("_events"), play),
                                                                                 0),
                      "end_reason": "bag_empty" if done else "turn_limit", "completed": done, "bag_left": 0,
                      "max_nodes": 0, "winners": winners})
        best = max(scores)
        for seat, score in enumerate(scores):
            tiles = seat_tiles(run_id, play, seat)
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
    seal_run(lake, "sevensteps", run_id)

@pytest.fixture(scope="module")
def hand(tmp_path_factory):
    root = tmp_path_factory.mktemp("sevensteps_hand")
    for run_id, (side, threshold, policies, plays) in RUNS.items():
        write_sevensteps_run(root / "lake", run_id, side, threshold, policies, plays, events=run_id.endswith("_events"))
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == [], result.test_failures
    marts = marts_of(root / "marts")
    setups = marts["mart_run_setups"]
    ids = {r["run_id"]: r["setup_id"] for r in setups.iter_rows(named=True)}
    return {name: frame.filter(pl.col("game") == "sevensteps") if "game" in frame.columns else frame
            for name, frame in marts.items()} | {"setup_of": ids}


def test_the_scores_of_the_fixture_are_consistent():
    for run_id, (_, _, policies, plays) in RUNS.items():
        for scores, winners, _ in plays:
            assert len(scores) == len(policies) and winners == [s for s, x in enumerate(scores) if x == max(scores)]


def test_a_repeated_run_is_counted_once(hand):
    setups = hand["mart_run_setups"]
    events = row(setups, run_id="a_front_events")
    assert (events["counted"], events["counted_in"], events["events"]) == (False, "a_front", True)
    assert setups.filter(pl.col("counted"))["run_id"].sort().to_list() == sorted(COUNTED)
    assert json.loads(row(setups, run_id="b_back")["option_values"])["side"] == "back"


# --- the start player: the shared mart_seat_advantage, by side ---------------------------------------------

def test_start_player_by_hand(hand):
    seats = hand["mart_seat_advantage"].filter(pl.col("lineup_kind") == "one_policy")
    one_policy = [r for r in COUNTED if len(set(RUNS[r][2])) == 1]
    assert sorted(set(seats["setup_id"])) == sorted(hand["setup_of"][r] for r in one_policy)
    for run_id in one_policy:
        plays = RUNS[run_id][3]
        for seat in range(4):
            r = row(seats, setup_id=hand["setup_of"][run_id], seat=seat)
            shares = [(seat in winners) / len(winners) for _, winners, _ in plays]
            margins = [margin(scores, seat) for scores, _, _ in plays]
            wins = sum(seat in winners for _, winners, _ in plays)
            assert (r["n_plays"], r["wins"], r["n_runs"]) == (len(plays), wins, 1)
            assert r["n_runs_repeated"] == (1 if run_id == "a_front" else 0)  # the run with events repeats it
            assert r["win_share"] == pytest.approx(statistics.mean(shares))
            assert r["advantage"] == pytest.approx(statistics.mean(shares) - 0.25)
            assert r["mean_score"] == pytest.approx(statistics.mean(s[seat] for s, _, _ in plays))
            assert r["margin"] == pytest.approx(statistics.mean(margins), abs=1e-12)
            assert (r["margin_lo"], r["margin_hi"]) == pytest.approx(mean_ci(margins))
            assert (r["win_rate_lo"], r["win_rate_hi"]) == pytest.approx(wilson(wins, len(plays)))


# --- the skill gap ---------------------------------------------------------------------------------------

def pairing(runs):
    """The worked skill gap of runs of one focal player (the policy with one seat) among a field."""
    gaps, shares, field_scores, field_shares, seats = [], [], [], [], []
    for run_id in runs:
        policies, plays = RUNS[run_id][2], RUNS[run_id][3]
        focal = next(s for s, p in enumerate(policies) if policies.count(p) == 1 and p != "random")
        for scores, winners, _ in plays:
            gaps.append(margin(scores, focal))
            shares.append((focal in winners) / len(winners))
            field_scores += [x for s, x in enumerate(scores) if s != focal]
            field_shares += [(s in winners) / len(winners) for s in range(len(scores)) if s != focal]
            seats.append(focal)
    per_seat = [seats.count(s) for s in set(seats)]
    return {"n_plays": len(gaps), "gap": statistics.mean(gaps), "half": half(gaps), "shares": shares,
            "field_mean_score": statistics.mean(field_scores), "field_win_share": statistics.mean(field_shares),
            "seats_covered": len(per_seat), "seat_balance": min(per_seat) / max(per_seat)}


def test_skill_gap_by_hand(hand):
    gaps = hand["mart_sevensteps_skill_gap"]
    assert gaps.height == 3  # greedy among random on each side, and at two players
    worked = {("front", 4): pairing(["d_greedy_0", "d_greedy_1"]), ("back", 4): pairing(["d_greedy_back"]),
              ("front", 2): pairing(["f_two"])}
    labels = {("front", 4): "greedy against 3 random", ("back", 4): "greedy against 3 random, mixed sides",
              ("front", 2): "greedy against 1 random"}
    for (side, players), w in worked.items():
        r = row(gaps, side=side, players=players)
        assert (r["pairing_label"], r["focal"], r["field"], r["tile_threshold"]) == (labels[side, players], "greedy",
                                                                                      "random", 7)
        assert (r["n_plays"], r["seats_covered"], r["seat_balance"]) == (w["n_plays"], w["seats_covered"],
                                                                         w["seat_balance"])
        assert r["gap"] == pytest.approx(w["gap"])
        if w["half"] is None:
            assert r["gap_lo"] is None  # one play: no interval
        else:
            assert (r["gap_lo"], r["gap_hi"]) == pytest.approx((w["gap"] - w["half"], w["gap"] + w["half"]))
        assert r["field_mean_score"] == pytest.approx(w["field_mean_score"])
        assert r["relative_gap"] == pytest.approx(w["gap"] / w["field_mean_score"])
        share, n_eff, ends = share_ci(w["shares"])
        assert (r["focal_win_share"], r["focal_effective_plays"]) == pytest.approx((share, n_eff))
        assert (r["focal_win_share_lo"], r["focal_win_share_hi"]) == pytest.approx(ends)
        fair = 1 / players
        assert r["focal_p_value"] == pytest.approx(normal_p(share - fair, math.sqrt(fair * (1 - fair) / n_eff)))
        assert r["field_win_share"] == pytest.approx(w["field_win_share"])
        assert r["share_gap"] == pytest.approx(share - w["field_win_share"])
        assert r["fair_share"] == pytest.approx(fair)

    sides = hand["mart_sevensteps_skill_gap_sides"]
    assert sides.height == 1  # the two-player table was played on the front only
    s, front, back = sides.row(0, named=True), row(gaps, side="front", players=4), row(gaps, side="back", players=4)
    assert (s["front_pairing_id"], s["back_pairing_id"]) == (front["pairing_id"], back["pairing_id"])
    assert s["pairing_label"] == "greedy against 3 random"
    assert (s["n_plays"], s["front_n_plays"], s["back_n_plays"]) == (5, 3, 2)
    f, b = worked["front", 4], worked["back", 4]
    d = b["gap"] - f["gap"]
    spread = math.hypot(f["half"], b["half"])  # symmetric intervals: the usual independent-samples interval
    assert (s["difference"], s["difference_lo"], s["difference_hi"]) == pytest.approx((d, d - spread, d + spread))
    assert s["relative_difference"] == pytest.approx(b["gap"] / b["field_mean_score"]
                                                     - f["gap"] / f["field_mean_score"])
    assert s["difference_p_value"] == pytest.approx(normal_p(d, spread / Z))
    (fs, fn, _), (bs, bn, _) = share_ci(f["shares"]), share_ci(b["shares"])
    se = math.sqrt(fs * (1 - fs) / fn + bs * (1 - bs) / bn)
    assert (s["front_win_share"], s["back_win_share"], s["win_share_difference"]) == pytest.approx((fs, bs, bs - fs))
    assert (s["win_share_difference_lo"], s["win_share_difference_hi"]) == pytest.approx(
        (bs - fs - Z * se, bs - fs + Z * se))
    # the greedy player wins every play alone on both sides: nothing varies, no difference
    assert (se, s["win_share_difference_p_value"]) == (0, 1.0)


# --- game length -----------------------------------------------------------------------------------------

def test_length_by_hand(hand):
    length = hand["mart_sevensteps_length"]
    assert sorted(length["setup_id"]) == sorted(hand["setup_of"][r] for r in COUNTED)
    for run_id in COUNTED:
        side, threshold, policies, plays = RUNS[run_id]
        turns = [p[2] * len(policies) for p in plays]  # the game's one unit of length: every seat has a turn a round
        collapses = [COLLAPSES.get((run_id, i), 0) for i in range(len(plays))]
        r = row(length, setup_id=hand["setup_of"][run_id])
        assert (r["side"], r["tile_threshold"], r["n_runs"], r["n_plays"]) == (side, threshold, 1, len(plays))
        assert r["mean_turns"] == pytest.approx(statistics.mean(turns))
        if len(plays) > 1:
            assert (r["mean_turns_lo"], r["mean_turns_hi"]) == pytest.approx(mean_ci(turns))
            assert r["sd_turns"] == pytest.approx(statistics.stdev(turns))
            assert (r["mean_collapses_lo"], r["mean_collapses_hi"]) == pytest.approx(mean_ci(collapses))
        assert (r["min_turns"], r["max_turns"]) == (min(turns), max(turns))
        assert [r["p05_turns"], r["median_turns"], r["p95_turns"]] == [quantile_disc(turns, q)
                                                                       for q in (0.05, 0.5, 0.95)]
        done = [(run_id, i) not in INCOMPLETE for i in range(len(plays))]
        assert r["completion_rate"] == pytest.approx(statistics.mean(done))
        assert r["mean_collapses"] == pytest.approx(statistics.mean(collapses))
    assert row(length, setup_id=hand["setup_of"]["b_back"])["completion_rate"] == 0.5
    assert not any("round" in c for c in length.columns)


# --- the special tiles -----------------------------------------------------------------------------------

def a_front_seats():
    """Set-up a_front's seat-plays once each: (tiles, won, score)."""
    return [(a_front_tiles(p, s), s in winners, scores[s]) for p, (scores, winners, _) in enumerate(A_FRONT)
            for s in range(4)]


def a_front_plays(value, among=lambda *seat: True):
    """Set-up a_front's plays as (seats of the group, their summed value); value and among read a seat's
    (tiles, share, score)."""
    pairs = []
    for p, (scores, winners, _) in enumerate(A_FRONT):
        mine = [(a_front_tiles(p, s), (s in winners) / len(winners), scores[s]) for s in range(4)]
        mine = [x for x in mine if among(*x)]
        pairs.append((len(mine), sum(value(*x) for x in mine)))
    return pairs


def test_tiles_by_hand(hand):
    tiles = hand["mart_sevensteps_tiles"].filter(pl.col("setup_id") == hand["setup_of"]["a_front"])
    seats = a_front_seats()  # 12: the run with events repeats play 0 and is not counted again
    for kind, taken, played, left in (("aid", "aids_taken", "aids_played", "aid_left"),
                                      ("bonus", "bonuses_taken", "bonuses_played", "bonus_left")):
        t = [s[taken] for s, _, _ in seats]
        p = [s[played] for s, _, _ in seats]
        held = [int(s[left]) for s, _, _ in seats]
        r = row(tiles, kind=kind)
        assert (r["side"], r["tile_threshold"], r["n_runs"], r["n_plays"], r["seat_plays"]) == ("front", 7, 1, 3, 12)
        assert r["mean_taken"] == pytest.approx(statistics.mean(t))
        # the play is the unit: a play's four seats summed first
        assert (r["mean_taken"], r["mean_taken_lo"], r["mean_taken_hi"]) == pytest.approx(
            clustered_mean(a_front_plays(lambda x, *_: x[taken])))
        assert (r["mean_played"], r["mean_played_lo"], r["mean_played_hi"]) == pytest.approx(
            clustered_mean(a_front_plays(lambda x, *_: x[played])))
        assert r["played_share"] == pytest.approx(sum(p) / sum(t))
        assert (r["taker_share"], r["taker_share_lo"], r["taker_share_hi"]) == pytest.approx(
            clustered_share(a_front_plays(lambda x, *_: float(x[taken] > 0))))
        assert (r["mean_left"], r["holder_share"]) == pytest.approx((statistics.mean(held), statistics.mean(held)))
        assert (r["holder_share"], r["holder_share_lo"], r["holder_share_hi"]) == pytest.approx(
            clustered_share(a_front_plays(lambda x, *_: float(x[left]))))
    both = row(tiles, kind="any")
    assert both["mean_taken"] == pytest.approx(statistics.mean(s["aids_taken"] + s["bonuses_taken"]
                                                               for s, _, _ in seats))
    none = row(hand["mart_sevensteps_tiles"], setup_id=hand["setup_of"]["b_back"], kind="any")
    assert (none["side"], none["mean_taken"], none["played_share"], none["taker_share"]) == ("back", 0.0, None, 0.0)

    wins = hand["mart_sevensteps_win_by_tiles"].filter(
        (pl.col("setup_id") == hand["setup_of"]["a_front"]) & (pl.col("kind") == "any"))
    counts = sorted({s["aids_taken"] + s["bonuses_taken"] for s, _, _ in seats})
    assert wins.sort("taken")["taken"].to_list() == counts
    for taken in counts:
        mine = [(won, score) for s, won, score in seats if s["aids_taken"] + s["bonuses_taken"] == taken]
        r = row(wins, taken=taken)
        won = sum(w for w, _ in mine)

        def group(x, *_):
            return x["aids_taken"] + x["bonuses_taken"] == taken

        assert (r["seat_plays"], r["wins"], r["n_plays"], r["fair_share"]) == (len(mine), won, 3, 0.25)
        # a tie splits the win: seats 0 and 1 share play 1, a half each
        assert (r["win_share"], r["win_share_lo"], r["win_share_hi"]) == pytest.approx(
            clustered_share(a_front_plays(lambda _, share, __: share, group)))
        assert r["seat_play_share"] == pytest.approx(len(mine) / 12)
        assert (r["mean_score"], r["mean_score_lo"], r["mean_score_hi"]) == pytest.approx(
            clustered_mean(a_front_plays(lambda *x: x[2], group)), nan_ok=True)
    shared = row(wins, taken=2)  # seats 0 and 1 of play 1 took two tiles each and tied: a win rate would say 100%
    assert (shared["seat_plays"], shared["wins"], shared["win_share"]) == (2, 2, 0.5)


def test_tile_value_by_hand(hand):
    value = hand["mart_sevensteps_tile_value"]
    # The turns come from the run with events, though mart_run_setups counts the longer run without them.
    assert (value["setup_id"] == hand["setup_of"]["a_front"]).all() and (value["policy"] == "random").all()
    assert (value["n_runs"] == 1).all() and (value["n_plays"] == 1).all()
    tiles = {t for _, aid, bonus, _, _, _, _, taken in TURN_ROWS for t in (aid, bonus, taken) if t}
    assert sorted(value["tile"]) == sorted(tiles)
    for tile in tiles:
        column = 1 if tile.startswith("B") else 2  # the aid or the bonus played
        used = [t for t in TURN_ROWS if t[column] == tile]
        base = [t[5] for t in TURN_ROWS if t[column] is None]
        r = row(value, tile=tile)
        assert (r["kind"], r["n_taken"], r["n_played"]) == ({1: "aid", 2: "bonus"}[column],
                                                            sum(t[7] == tile for t in TURN_ROWS), len(used))
        assert r["played_share"] == pytest.approx(len(used) / r["n_taken"])
        assert (r["played_share_lo"], r["played_share_hi"]) == pytest.approx(wilson(len(used), r["n_taken"]))
        assert r["mean_turn_score"] == pytest.approx(statistics.mean(t[5] for t in used))
        assert r["mean_placed"] == pytest.approx(statistics.mean(t[4] for t in used))
        assert r["mean_bonus"] == pytest.approx(statistics.mean(t[3] for t in used))
        assert (r["base_turns"], r["base_mean_turn_score"]) == (len(base), pytest.approx(statistics.mean(base)))
        if len(used) > 1:
            assert (r["difference"], r["difference_lo"], r["difference_hi"]) == pytest.approx(
                welch([t[5] for t in used], base))
        else:
            assert r["difference"] == pytest.approx(used[0][5] - statistics.mean(base)) and r["difference_lo"] is None


# --- the threshold option --------------------------------------------------------------------------------

def threshold_metrics(run_id):
    """Per metric: the values a run's mean and interval rest on (tables of one policy), one a play: the tiles a
    play's four seats took (a mean per seat-play, clustered by play), the play's mean score (the play as the unit)."""
    plays = RUNS[run_id][3]
    tiles = [(4, sum(t for s in range(4) for k, t in seat_tiles(run_id, p, s).items()
                     if k in ("aids_taken", "bonuses_taken"))) for p in range(len(plays))]
    return {"tiles_taken": tiles, "score": [statistics.mean(scores) for scores, _, _ in plays],
            "seat0_advantage": [(0 in winners) / len(winners) - 0.25 for _, winners, _ in plays],
            "seat0_margin": [margin(scores, 0) for scores, _, _ in plays], "turns": [4 * p[2] for p in plays]}


def mean_and_half(values):
    """A metric's mean and the half width of its 95% interval: normal over plays, or clustered by play for pairs."""
    if isinstance(values[0], tuple):
        mean, lo, _ = clustered_mean(values)
        return mean, mean - lo
    return statistics.mean(values), half(values)


def test_threshold_by_hand(hand):
    effect = hand["mart_sevensteps_threshold"]
    assert (effect["setup_id"] == hand["setup_of"]["c_front_8"]).all()
    assert (effect["base_setup_id"] == hand["setup_of"]["a_front"]).all()
    assert (effect["side"] == "front").all() and (effect["policy"] == "random").all()
    assert (effect["base_threshold"] == 7).all() and (effect["tile_threshold"] == 8).all()
    assert ((effect["base_n_plays"] == 3) & (effect["n_plays"] == 2)).all()
    base, other = threshold_metrics("a_front"), threshold_metrics("c_front_8")
    assert sorted(effect["metric"]) == sorted(base)
    for metric in base:
        r = row(effect, metric=metric)
        (a, a_half), (b, b_half) = mean_and_half(other[metric]), mean_and_half(base[metric])
        assert (r["value"], r["base_value"]) == pytest.approx((a, b), abs=1e-12)
        assert (r["base_value_lo"], r["base_value_hi"]) == pytest.approx((b - b_half, b + b_half), abs=1e-12)
        d, spread = a - b, math.hypot(a_half, b_half)
        assert (r["difference"], r["difference_lo"], r["difference_hi"]) == pytest.approx(
            (d, d - spread, d + spread), abs=1e-12)
        assert r["p_value"] == pytest.approx(normal_p(d, spread / Z) if spread else float(d == 0))
        margin_ = 0.01 if metric == "seat0_advantage" else 0.01 * abs(b)  # 1 pp, else 1% of the base value
        assert r["margin"] == pytest.approx(margin_)
        assert r["equivalent"] == (abs(d) + 1.6448536269514722 * spread / Z < margin_)
    assert row(effect, metric="tiles_taken")["n"] == 8  # seat-plays: 2 plays of 4 seats


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
    return lake, {k: v.filter(pl.col("game") == "sevensteps") for k, v in marts.items()}, reports


def lake_table(lake: Path, table: str) -> pl.DataFrame:
    return shared_lake_table(lake, "sevensteps", table)


def run_setups(lake: Path, marts: dict) -> pl.DataFrame:
    """Per run: side, threshold and the policy names by seat from the runs' configuration, and its set-up."""
    rows = []
    for r in lake_table(lake, "runs").iter_rows(named=True):
        config = json.loads(r["config"])
        rows.append({"run_id": r["run_id"], "side": config["options"]["side"],
                     "tile_threshold": config["options"]["tile_threshold"],
                     "names": ",".join(p.split(":")[0] for p in config["policies"])})
    return pl.DataFrame(rows).join(marts["mart_run_setups"].select("run_id", "setup_id", "pairing_id"), on="run_id")


def test_the_real_lake_has_several_parts_per_run(real):
    lake, marts, _ = real
    parts = list((lake / "seats" / "game=sevensteps").glob("*/part-*.parquet"))
    assert len(parts) > len(REAL_RUNS)
    assert marts["mart_run_setups"]["counted"].all()  # every run its own set-up


def seats_with_margins(lake: Path, setups: pl.DataFrame) -> pl.DataFrame:
    seats = lake_table(lake, "seats").join(setups, on="run_id")
    seats = seats.with_columns(pl.col("score").sum().over("run_id", "play_index").alias("total"),
                               pl.len().over("run_id", "play_index").alias("players"))
    return seats.with_columns((pl.col("score") - (pl.col("total") - pl.col("score")) / (pl.col("players") - 1))
                              .alias("margin"))


def test_seat_and_skill_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    seats = seats_with_margins(lake, run_setups(lake, marts))
    advantage = marts["mart_seat_advantage"].filter(pl.col("lineup_kind") == "one_policy")
    assert advantage.height == 4 + 4 + 3  # the one-policy tables: random at 7 and 8, and three players
    for r in advantage.iter_rows(named=True):
        mine = seats.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("seat") == r["seat"]))
        assert r["n_plays"] == mine.height and r["wins"] == mine["winner"].sum()
        assert r["margin"] == pytest.approx(mine["margin"].mean(), abs=1e-9)
        assert (r["margin_lo"], r["margin_hi"]) == pytest.approx(mean_ci(mine["margin"].to_list()))

    gaps = marts["mart_sevensteps_skill_gap"]
    assert sorted(gaps["side"].to_list()) == ["back", "front"] and (gaps["focal"] == "greedy").all()
    for r in gaps.iter_rows(named=True):
        table = seats.filter(pl.col("pairing_id") == r["pairing_id"])
        focal, field = table.filter(pl.col("policy") == "greedy"), table.filter(pl.col("policy") == "random")
        assert (table["side"] == r["side"]).all()
        assert r["n_plays"] == focal.height == 120 and (r["n_runs"], r["seats_covered"]) == (2, 2)
        assert r["gap"] == pytest.approx(focal["margin"].mean())
        assert (r["gap_lo"], r["gap_hi"]) == pytest.approx(mean_ci(focal["margin"].to_list()))
        assert r["field_mean_score"] == pytest.approx(field["score"].mean())
        winners = lake_table(lake, "seats").group_by("run_id", "play_index").agg(n_winners=pl.col("winner").sum())
        shares = focal.join(winners, on=["run_id", "play_index"]).select(
            pl.when(pl.col("winner")).then(1 / pl.col("n_winners")).otherwise(0.0))
        assert r["focal_win_share"] == pytest.approx(shares.to_series().mean())  # a tie split among its winners
        assert r["gap"] > 0  # a greedy player outscores random ones
    sides = row(marts["mart_sevensteps_skill_gap_sides"], focal="greedy")
    front, back = row(gaps, side="front"), row(gaps, side="back")
    assert sides["difference"] == pytest.approx(back["gap"] - front["gap"])
    spread = math.hypot(front["gap_hi"] - front["gap"], back["gap_hi"] - back["gap"])
    assert (sides["difference_lo"], sides["difference_hi"]) == pytest.approx(
        (sides["difference"] - spread, sides["difference"] + spread))


def test_length_and_tile_marts_agree_with_the_lake(real):
    lake, marts, _ = real
    setups = run_setups(lake, marts)
    games = lake_table(lake, "games").join(setups, on="run_id")
    length = marts["mart_sevensteps_length"]
    assert length.height == len(REAL_RUNS)
    for r in length.iter_rows(named=True):
        mine = games.filter(pl.col("setup_id") == r["setup_id"])
        assert (mine["side"] == r["side"]).all() and (mine["tile_threshold"] == r["tile_threshold"]).all()
        assert r["n_plays"] == mine.height and r["mean_turns"] == pytest.approx(mine["turns"].mean())
        assert r["median_turns"] == quantile_disc(mine["turns"].to_list(), 0.5)
        assert r["completion_rate"] == pytest.approx(mine["completed"].mean())
        assert r["mean_collapses"] == pytest.approx(mine["collapses"].mean())

    seats = lake_table(lake, "seats").join(setups, on="run_id")
    for r in marts["mart_sevensteps_tiles"].iter_rows(named=True):
        mine = seats.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("policy") == r["policy"]))
        taken, played, left = {"aid": ("aids_taken", "aids_played", "aid_left"),
                               "bonus": ("bonuses_taken", "bonuses_played", "bonus_left"),
                               "any": ("tiles_taken", "tiles_played", "tiles_left")}[r["kind"]]
        assert r["seat_plays"] == mine.height
        assert r["mean_taken"] == pytest.approx(mine[taken].cast(pl.Float64).mean())
        assert r["mean_played"] == pytest.approx(mine[played].cast(pl.Float64).mean())
        assert r["mean_left"] == pytest.approx(mine[left].cast(pl.Float64).mean())
        assert r["holder_share"] == pytest.approx((mine[left].cast(pl.Int64) > 0).mean())
    wins = marts["mart_sevensteps_win_by_tiles"]
    assert wins.group_by("setup_id", "policy", "kind").agg(pl.col("seat_play_share").sum())[
        "seat_play_share"].to_list() == pytest.approx([1.0] * marts["mart_sevensteps_tiles"].height)

    turns = lake_table(lake, "turns").join(setups, on="run_id").join(
        lake_table(lake, "seats").select("run_id", "play_index", "seat", "policy"),
        on=["run_id", "play_index", "seat"])
    value = marts["mart_sevensteps_tile_value"]
    assert set(value["side"]) == {"front", "back"} and value["n_played"].sum() > 0
    for r in value.iter_rows(named=True):
        mine = turns.filter((pl.col("setup_id") == r["setup_id"]) & (pl.col("policy") == r["policy"]))
        assert r["n_taken"] == mine.filter(pl.col("taken_tile") == r["tile"]).height
        used = mine.filter(pl.col(r["kind"]) == r["tile"])
        assert r["n_played"] == used.height
        if used.height:
            assert r["mean_turn_score"] == pytest.approx(used["turn_score"].mean())
            assert r["mean_bonus"] == pytest.approx(used["bonus_points"].mean())
        base = mine.filter(pl.col(r["kind"]).is_null())
        assert r["base_turns"] == base.height
        assert r["base_mean_turn_score"] == pytest.approx(base["turn_score"].mean())


def test_threshold_mart_agrees_with_the_lake(real):
    lake, marts, _ = real
    setups = run_setups(lake, marts).filter((pl.col("names") == "random,random,random,random")
                                            & (pl.col("side") == "front"))
    seats = lake_table(lake, "seats").join(setups, on="run_id")
    effect = marts["mart_sevensteps_threshold"]
    assert effect.height == 5 and (effect["tile_threshold"] == 8).all()
    at = {t: seats.filter(pl.col("tile_threshold") == t) for t in (7, 8)}
    taken = row(effect, metric="tiles_taken")
    assert (taken["base_value"], taken["value"]) == pytest.approx(
        (at[7]["tiles_taken"].cast(pl.Float64).mean(), at[8]["tiles_taken"].cast(pl.Float64).mean()))
    score = row(effect, metric="score")  # the play as the unit: each play's mean score
    play_scores = {t: at[t].group_by("run_id", "play_index").agg(pl.col("score").mean())["score"].to_list()
                   for t in (7, 8)}
    assert (score["difference"], score["difference_lo"], score["difference_hi"]) == pytest.approx(
        welch(play_scores[8], play_scores[7]))
    games = lake_table(lake, "games").join(setups, on="run_id")
    turns = row(effect, metric="turns")
    assert turns["difference"] == pytest.approx(games.filter(pl.col("tile_threshold") == 8)["turns"].mean()
                                                - games.filter(pl.col("tile_threshold") == 7)["turns"].mean())
    assert 0 <= turns["p_value"] <= 1 and turns["margin"] == pytest.approx(0.01 * turns["base_value"])


def test_the_report_page_leads_with_the_skill_gap_then_the_start_player(real):
    _, _, reports = real
    page = (reports / "sevensteps.html").read_text()
    figures = figure_names(page, "sevensteps")
    assert figures[:3] == ["skill_gap", "start_player", "length"]  # the generic game length's place: after them
    for name in ("tiles", "tile_value"):
        assert name in figures, name
    assert "seat_advantage" not in figures and "game_length" not in figures  # replaced by the game's own
    for name in figures:
        assert len(figure_png(page, f"sevensteps_{name}")) > 10_000, name
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert "as the rule text claims" in captions[0] and "back − front" in captions[0], captions[0]
    assert "seat 0 wins a share of" in captions[1] and re.search(r"\d+\.\d%", captions[1]), captions[1]
    assert "Holm" in captions[0] and "Holm" in captions[1], captions[:2]  # the tests of a figure: one error rate
    assert "turns" in captions[2] and "round" not in re.sub(r"rounds of \d turns", "", captions[2]), captions[2]
    assert "seed&#x27;s claim" not in page  # the rule text's claim
    assert "bservational" in page and all(len(c) > 80 for c in captions)
    own = " ".join(captions[figures.index(n)] for n in ("skill_gap", "start_player", "length", "tiles"))
    assert "significant" not in own.replace("Holm", "") and "win rate" not in own, own
    tables = re.findall(r"<h3>(.*?)</h3>", page)
    assert tables[:4] == ["Skill gap per pairing", "Skill gap: back − front",
                          "Start player: win share and margin by seat", "Game length in turns per set-up"]
    assert "Win share by tiles taken (both kinds)" in page and "Win rate by tiles" not in page
    assert "Tile threshold against the rule text&#x27;s 7" in tables

    index = (reports / "index.html").read_text().split("<div class='card'>")[1:]
    verdicts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", next(c for c in index if "sevensteps.html" in c)))
    # the readings of the rule text (first_disc, threshold_counts): these runs sweep neither, so not measured
    readings = verdicts.pop("Does reading the rule text another way change the game?")
    assert "not measured" in readings and "first_disc" in readings and "threshold_counts" in readings, readings
    assert "half-time leader" in verdicts.pop("Is the game decided early?")  # issue 38, in the game's unit:
    assert "points behind" in verdicts.pop("Can a player who falls behind come back?")
    (start, _), (own, answer), (length, said) = list(verdicts.items())[:3]  # the index's questions, answered
    assert (start, own, length) == ("Is the start player favoured?", "Does the back side reward skill more?",
                                   "How long does a play last?")
    assert "at greedy against 3 random" in answer and "turns" in said and "round" not in said, verdicts
