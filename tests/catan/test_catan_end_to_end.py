"""Catan through the whole product (issue 9): the kernel's dice expectation checked from the events, the
command line from `simulate` to `pipeline`, `report` and `replay`, a bad map refused, and Catan's marts on a
tiny hand-made lake with answers worked out by hand."""

from __future__ import annotations

import contextlib
import io
import math
import re
import statistics
from collections import defaultdict

import polars as pl
import pyarrow.dataset as ds
import pytest

from simlib.analysis.pipeline import build
from simlib.cli import main
from simlib.core.config import RunConfig
from simlib.games.catan import GAME
from simlib.games.catan.board import MAPS, RESOURCES, TERRAINS, load_board

from support.catan_lake_fixture import write_catan_run
from support.report_pages import figure_png

BOARD = load_board("standard")
MARTS = ("mart_catan_production_vs_dice", "mart_catan_losses", "mart_catan_loss_pairs", "mart_catan_card_holders")


def wilson(k, n, z=1.96):
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)  # clamped, as the marts' Wilson is


def two_sided_p(z: float) -> float:
    """The normal two-sided p of a z statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def row(frame: pl.DataFrame, **where) -> dict:
    for key, value in where.items():
        frame = frame.filter(pl.col(key) == value)
    assert frame.height == 1, where
    return frame.row(0, named=True)


# --- the dice's promise, recomputed from the events -----------------------------------------------------

def promised_from_events(events: list[dict]) -> dict[tuple[int, str, str], float]:
    """(seat, building, resource) -> cards the dice promised, from one game's events and the map's topology
    alone: at every roll, every building on the board gets pips(token)/36 per card it would take (1 for a
    settlement, 2 for a city) from each hex beside it with a number token (robber and bank ignored)."""
    terrain, token, owner, level = {}, {}, {}, {}
    promised: dict[tuple[int, str, str], float] = defaultdict(float)
    for e in events:
        if e["action"] == "hex":
            terrain[e["hex"]], token[e["hex"]] = e["terrain"], e["token"]
        elif e["action"] in ("setup_settlement", "settlement"):
            owner[e["node"]], level[e["node"]] = e["seat"], 1
        elif e["action"] == "city":
            level[e["node"]] = 2
        elif e["action"] == "roll":
            for node, seat in owner.items():
                for h in BOARD.node_hexes[node]:
                    if token.get(h) is not None:
                        key = (seat, "settlement" if level[node] == 1 else "city",
                               RESOURCES[TERRAINS.index(terrain[h])])
                        promised[key] += level[node] * (6 - abs(7 - token[h])) / 36
    return promised


@pytest.mark.parametrize("players,policies", [(3, ["random"]), (4, ["builder", "weighted", "random", "random"])])
def test_the_expected_cards_are_what_the_dice_promised(players, policies):
    config = RunConfig.build(GAME, players=players, policies=policies, plays=6, seed=23)
    tables = GAME.simulate(config, 0, 6, events=True)
    events, production = tables["events"].to_pylist(), tables["production"].to_pylist()
    assert all(r["expected"] > 0 for r in production)  # a building that received was promised something
    for play in range(6):
        promised = promised_from_events([e for e in events if e["play_index"] == play])
        rows = {(r["seat"], r["building"], r["resource"]): r["expected"] for r in production
                if r["play_index"] == play}
        assert rows.keys() == {k for k, v in promised.items() if v > 0}
        assert rows == pytest.approx(promised, rel=1e-12)


# --- the command line, end to end -----------------------------------------------------------------------

RUNS = [(3, "random", 200), (4, "random", 200), (3, "builder", 200), (4, "builder", 200)]


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(args))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def product(tmp_path_factory):
    root = tmp_path_factory.mktemp("catan")
    lake, marts, reports = root / "lake", root / "marts", root / "reports"
    run_ids = {}
    for players, policy, plays in RUNS:
        status, out = cli("simulate", "catan", "--plays", str(plays), "--players", str(players), "--policies", policy,
                          "--seed", "9", "--workers", "1", "--lake", str(lake), "--quiet")
        assert status == 0, out
        run_ids[(players, policy)] = out.split("wrote run ")[1].split()[0]
    status, out = cli("pipeline", "--lake", str(lake), "--marts", str(marts), "--db", str(root / "simlib.duckdb"))
    assert status == 0 and ", 0 failed" in out, out
    status, out = cli("report", "--lake", str(lake), "--marts", str(marts), "--out", str(reports))
    assert status == 0, out
    frames = {name: pl.read_parquet(marts / f"{name}.parquet") for name in MARTS}
    return lake, run_ids, frames, reports


def test_the_lake_has_the_runs(product):
    lake, run_ids, _, _ = product
    for (players, policy), run_id in run_ids.items():
        runs = ds.dataset(lake / "runs" / "game=catan" / f"run_id={run_id}").to_table().to_pylist()
        assert runs[0]["status"] == "complete" and runs[0]["players"] == players
        for table, rows in (("games", 200), ("seats", 200 * players)):
            assert ds.dataset(lake / table / "game=catan" / f"run_id={run_id}").count_rows() == rows
        production = ds.dataset(lake / "production" / "game=catan" / f"run_id={run_id}").to_table()
        assert production.num_rows > 0 and "expected" in production.column_names


def test_production_against_the_dice(product):
    _, run_ids, frames, _ = product
    mart = frames["mart_catan_production_vs_dice"]
    for run_id in run_ids.values():
        run = mart.filter(pl.col("run_id") == run_id)
        assert run.height == 10 and (run["n_plays"] == 200).all()  # both buildings, five resources
        for r in run.iter_rows(named=True):
            # The robber and bank shortage only take away: a little less than the promise, never far.
            assert 0.6 * r["expected_per_play"] < r["received_per_play"] < 1.05 * r["expected_per_play"], r
            assert r["mean_difference_lo"] < r["mean_difference"] < r["mean_difference_hi"]
            assert r["ratio_lo"] < r["ratio"] < r["ratio_hi"]
        assert run["received"].sum() < run["expected"].sum()


def test_losses_to_robber_and_discards(product):
    _, run_ids, frames, _ = product
    mart = frames["mart_catan_losses"]
    for (players, policy), run_id in run_ids.items():
        run = mart.filter(pl.col("run_id") == run_id).sort("seat")
        assert run["seat"].to_list() == list(range(players)) and (run["n_plays"] == 200).all()
        assert (run["policy"] == policy).all()
        assert ((run["mean_robbed"] > 0) & (run["mean_discarded"] > 0)).all()
        assert ((run["lost_share"] > 0.02) & (run["lost_share"] < 0.6)).all()
        assert (run["mean_lost"] - run["mean_robbed"] - run["mean_discarded"]).abs().max() < 1e-9


def test_card_holders_win_more_often(product):
    _, run_ids, frames, _ = product
    mart = frames["mart_catan_card_holders"]
    for (players, policy), run_id in run_ids.items():
        run = mart.filter(pl.col("run_id") == run_id)
        assert sorted(run["card"].to_list()) == ["largest_army", "longest_route"] and (run["n_plays"] == 200).all()
        for r in run.iter_rows(named=True):
            assert r["held_share"] == r["plays_with_holder"] / 200 and r["fair_share"] == 1 / players
            assert r["holder_win_share"] == r["holder_wins"] / r["plays_with_holder"]  # one winner a play: no ties
            if policy == "builder":
                assert r["holder_win_share"] > r["fair_share"] > r["without_win_share"], r


def test_seats_losses_compared_play_by_play(product):
    _, run_ids, frames, _ = product
    mart = frames["mart_catan_loss_pairs"]
    for (players, _), run_id in run_ids.items():
        run = mart.filter(pl.col("run_id") == run_id)
        assert run.height == players * (players - 1) // 2 and (run["n_plays"] == 200).all()
        for r in run.iter_rows(named=True):
            assert r["difference_lo"] < r["difference_lo90"] < r["difference"] < r["difference_hi90"] < r[
                "difference_hi"]
            assert r["difference"] == pytest.approx(r["mean_lost_b"] - r["mean_lost_a"], abs=1e-12)


def test_the_report_page_has_catan_figures(product):
    _, _, _, reports = product
    page = (reports / "catan.html").read_text()
    for name in ("production_vs_dice", "losses", "card_holders"):
        assert len(figure_png(page, f"catan_{name}")) > 10_000, name
        assert f"id='catan_{name}'" in page, name
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert len(captions) >= 5 and all(len(c) > 60 for c in captions)
    for title in ("Production against the dice", "Cards lost to the robber and to discards",
                  "Win share of the card holders"):
        assert re.search(f"<(h3|summary)>{re.escape(title)}", page), title  # a long table is folded
    ours = " ".join(c for c in captions if c.startswith(("<b>Production against", "<b>Cards lost", "<b>Longest route")))
    # Every figure's tests share one error rate; a win share, never a win rate, against the fair share.
    assert ours.count("Holm over") == 3 and "win share" in ours and "win rate" not in ours
    assert "significantly" not in ours and "no significant" not in ours
    for lo, hi in re.findall(r"\(([-+]?[\d.]+%?) to ([-+]?[\d.]+%?)[,)]", ours):
        assert lo != hi, ours  # an interval's ends always print apart


@pytest.mark.parametrize("players,policy,play", [(3, "random", 11), (4, "builder", 3)])
def test_replay_tells_the_game_turn_by_turn(product, players, policy, play):
    lake, run_ids, _, _ = product
    run_id = run_ids[(players, policy)]
    status, text = cli("replay", "catan", "--run", run_id, "--play", str(play), "--lake", str(lake))
    assert status == 0 and text.rstrip().endswith("replay matches the lake's rows for this play")
    game = ds.dataset(lake / "games" / "game=catan" / f"run_id={run_id}").to_table(
        filter=ds.field("play_index") == play).to_pylist()[0]
    turns = [int(n) for n in re.findall(r"^turn +(\d+) +seat \d", text, re.M)]
    assert turns == list(range(game["turns"]))  # every turn, in order
    assert len(re.findall(r"rolls \d+", text)) >= game["turns"] - 1  # the winner may win before rolling
    assert "set-up:" in text and "settlement at node" in text and "road on path" in text
    seats = ds.dataset(lake / "seats" / "game=catan" / f"run_id={run_id}").to_table(
        filter=ds.field("play_index") == play).to_pylist()
    written = {s["seat"]: s["points"] for s in seats}
    told = {int(s): int(p) for s, p in re.findall(r"^seat (\d) \(.*?\): (\d+) points", text, re.M)}
    assert told == written


def test_a_bad_map_is_one_error_line_and_nothing_written(product, tmp_path, capsys):
    lake = product[0]
    before = sorted(p.relative_to(lake) for p in lake.rglob("*"))
    text = (MAPS / "beginner.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("token = 10", "token = 7", 1))
    capsys.readouterr()
    status = main(["simulate", "catan", "--plays", "10", "--players", "3", "--policies", "random", "--option",
                   f"map={bad}", "--lake", str(lake), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1 and "hex 1" in err[0] and "token 7" in err[0], err
    assert sorted(p.relative_to(lake) for p in lake.rglob("*")) == before


# --- Catan's marts on a hand-made lake --------------------------------------------------------------------

# Three players, two plays. Play 0: seat 0 wins holding the longest-route card, seat 1 holds the largest
# army. Play 1: nobody holds the longest route, seat 2 wins holding the largest army.
SEATS = [
    {"play_index": 0, "seat": 0, "winner": True, "longest_route_card": True, "received_lumber": 10,
     "robbed_lumber": 1, "discarded_brick": 2},
    {"play_index": 0, "seat": 1, "largest_army_card": True, "received_grain": 8, "discarded_ore": 4},
    {"play_index": 0, "seat": 2, "received_wool": 6, "robbed_wool": 2},
    {"play_index": 1, "seat": 0, "received_lumber": 12, "robbed_lumber": 1, "robbed_brick": 2},
    {"play_index": 1, "seat": 1, "received_ore": 4},
    {"play_index": 1, "seat": 2, "winner": True, "largest_army_card": True, "received_brick": 7, "received_wool": 3,
     "robbed_grain": 1, "discarded_wool": 5},
]
PRODUCTION = [
    {"play_index": 0, "seat": 0, "building": "settlement", "resource": "lumber", "amount": 5, "expected": 6.0},
    {"play_index": 0, "seat": 1, "building": "settlement", "resource": "lumber", "amount": 3, "expected": 2.5},
    {"play_index": 1, "seat": 2, "building": "settlement", "resource": "lumber", "amount": 0, "expected": 1.5},
    {"play_index": 1, "seat": 0, "building": "city", "resource": "ore", "amount": 4, "expected": 4.0},
]


@pytest.fixture(scope="module")
def fixture_marts(tmp_path_factory):
    root = tmp_path_factory.mktemp("catan_fixture")
    write_catan_run(root / "lake", "hand", 3, ["random"] * 3, [dict(s) for s in SEATS], [dict(p) for p in PRODUCTION])
    result = build(root / "lake", root / "marts", root / "simlib.duckdb")
    assert result.test_failures == []
    return {name: pl.read_parquet(root / "marts" / f"{name}.parquet") for name in MARTS}


def test_production_mart_by_hand(fixture_marts):
    """The play is the unit: a play's seats share its dice, robber and bank, so each play's cards are summed over its
    seats first, and the ratio's interval is the ratio estimator's over plays."""
    mart = fixture_marts["mart_catan_production_vs_dice"]
    assert mart.height == 2
    lumber = row(mart, building="settlement", resource="lumber")
    # Settlement lumber, all seats of a play together: play 0 received 5 + 3 = 8 against 6 + 2.5 = 8.5 promised,
    # play 1 received 0 against 1.5.
    assert (lumber["n_plays"], lumber["received"]) == (2, 8)
    assert lumber["expected"] == 10.0 and lumber["received_per_play"] == 4.0 and lumber["expected_per_play"] == 5.0
    assert lumber["ratio"] == pytest.approx(0.8)
    # The differences per play, -0.5 and -1.5: mean -1, sd sqrt(1/2).
    differences = [-0.5, -1.5]
    mean, sd = statistics.mean(differences), statistics.stdev(differences)
    half = 1.96 * sd / math.sqrt(2)
    assert lumber["mean_difference"] == pytest.approx(-1.0) and lumber["sd_difference"] == pytest.approx(sd)
    assert (lumber["mean_difference_lo"], lumber["mean_difference_hi"]) == pytest.approx((mean - half, mean + half))
    # The ratio's residuals per play, received - 0.8 x promised: 8 - 6.8 = 1.2 and 0 - 1.2 = -1.2; their squares sum
    # to 2.88, over n (n - 1) = 2: 1.44; the standard error sqrt(1.44) / 5 (the mean promise a play) = 0.24.
    se = math.sqrt((1.2 ** 2 + 1.2 ** 2) / 2) / 5
    assert se == pytest.approx(0.24)
    assert (lumber["ratio_lo"], lumber["ratio_hi"]) == pytest.approx((0.8 - 1.96 * se, 0.8 + 1.96 * se))
    assert (lumber["ratio_lo90"], lumber["ratio_hi90"]) == pytest.approx((0.8 - 1.6448536 * se, 0.8 + 1.6448536 * se))
    assert lumber["ratio_p"] == pytest.approx(two_sided_p(0.2 / 0.24))
    # City ore: one play, 4 received of 4 promised, the other nothing: the promise kept exactly, nothing varies.
    ore = row(mart, building="city", resource="ore")
    assert (ore["received"], ore["expected"], ore["ratio"], ore["mean_difference"]) == (4, 4.0, 1.0, 0.0)
    assert ore["mean_difference_lo"] == ore["mean_difference_hi"] == 0.0
    assert ore["ratio_lo"] == ore["ratio_hi"] == 1.0 and ore["ratio_p"] == 1.0


def test_losses_mart_by_hand(fixture_marts):
    mart = fixture_marts["mart_catan_losses"]
    seat0 = row(mart, seat=0)
    assert (seat0["n_plays"], seat0["policy"]) == (2, "random")
    assert (seat0["mean_robbed"], seat0["mean_discarded"], seat0["mean_lost"]) == (2.0, 1.0, 3.0)
    half = 1.96 * statistics.stdev([1, 3]) / math.sqrt(2)
    assert (seat0["mean_robbed_lo"], seat0["mean_robbed_hi"]) == pytest.approx((2 - half, 2 + half))
    assert seat0["mean_lost_lo"] == seat0["mean_lost_hi"] == 3.0  # lost 3 in both plays
    assert seat0["mean_received"] == 11.0
    assert (seat0["robbed_share"], seat0["discarded_share"], seat0["lost_share"]) == pytest.approx(
        (4 / 22, 2 / 22, 6 / 22))
    seat2 = row(mart, seat=2)
    assert (seat2["mean_robbed"], seat2["mean_discarded"], seat2["mean_received"]) == (1.5, 2.5, 8.0)
    assert seat2["lost_share"] == pytest.approx(8 / 16)
    assert row(mart, seat=1)["robbed_share"] == 0.0


def test_loss_pairs_mart_by_hand(fixture_marts):
    """Two seats compared play by play. Cards lost (robbed + discarded): play 0 seats 3, 4, 2; play 1 seats 3, 0, 6.
    The run's mean loss a seat is 18 / 6 = 3, so the margin is 0.03."""
    mart = fixture_marts["mart_catan_loss_pairs"]
    assert mart.height == 3
    lost = {0: [3, 3], 1: [4, 0], 2: [2, 6]}
    z90 = 1.6448536269514722
    for a, b in ((0, 1), (0, 2), (1, 2)):
        d = [y - x for x, y in zip(lost[a], lost[b])]
        mean, se = statistics.mean(d), statistics.stdev(d) / math.sqrt(2)
        r = row(mart, seat_a=a, seat_b=b)
        assert (r["n_plays"], r["mean_lost_a"], r["mean_lost_b"]) == (2, statistics.mean(lost[a]),
                                                                      statistics.mean(lost[b]))
        assert r["difference"] == pytest.approx(mean)
        assert (r["difference_lo"], r["difference_hi"]) == pytest.approx((mean - 1.96 * se, mean + 1.96 * se))
        assert (r["difference_lo90"], r["difference_hi90"]) == pytest.approx((mean - z90 * se, mean + z90 * se))
        assert r["p_value"] == pytest.approx(two_sided_p(mean / se))
        assert r["margin"] == pytest.approx(0.03) and r["equivalent"] is False
    # Seats 1 and 2: differences -2 and 6, mean 2, sd sqrt(32), se 4: z = 0.5.
    assert row(mart, seat_a=1, seat_b=2)["p_value"] == pytest.approx(two_sided_p(0.5))


def test_card_holders_mart_by_hand(fixture_marts):
    """The holder's win share over the plays with a holder against a fair 1/3, and the seats without the card one
    observation a play (their mean share), both with Wilson's interval at the effective number of plays."""
    mart = fixture_marts["mart_catan_card_holders"]
    route = row(mart, card="longest_route")
    assert (route["n_plays"], route["plays_with_holder"], route["holder_wins"], route["held_share"]) == (2, 1, 1, 0.5)
    # One play with a holder, who won: nothing varies, so the effective plays are the one play.
    assert (route["holder_win_share"], route["holder_effective_plays"], route["fair_share"]) == (
        1.0, 1.0, pytest.approx(1 / 3))
    assert (route["holder_win_share_lo"], route["holder_win_share_hi"]) == pytest.approx(wilson(1, 1))
    # z = (1 - 1/3) / sqrt((1/3)(2/3) / 1) = sqrt(2).
    assert route["holder_p_value"] == pytest.approx(two_sided_p(math.sqrt(2)))
    # Without the route: play 0's seats 1 and 2 won nothing (0); play 1 had no holder, its three seats shared seat
    # 2's win (1/3). Mean 1/6, mean square 1/18, variance 1/36: effective plays 2 (5/36) / (1/36) = 10.
    assert route["without_win_share"] == pytest.approx(1 / 6)
    assert (route["without_win_share_lo"], route["without_win_share_hi"]) == pytest.approx(wilson(10 / 6, 10))
    army = row(mart, card="largest_army")
    # Seat 1 held it and lost play 0; seat 2 held it and won play 1: shares 0 and 1, effective plays 2.
    assert (army["plays_with_holder"], army["holder_wins"], army["holder_win_share"], army["held_share"]) == (
        2, 1, 0.5, 1.0)
    assert (army["holder_win_share_lo"], army["holder_win_share_hi"]) == pytest.approx(wilson(1, 2))
    # z = (1/2 - 1/3) / sqrt((2/9) / 2) = 1/2.
    assert army["holder_p_value"] == pytest.approx(two_sided_p(0.5))
    # Without the army: play 0's seats 0 and 2 shared seat 0's win (1/2); play 1's seats 0 and 1 won nothing (0).
    # Mean 1/4, mean square 1/8, variance 1/16: effective plays 2 (3/16) / (1/16) = 6.
    assert army["without_win_share"] == pytest.approx(0.25)
    assert (army["without_win_share_lo"], army["without_win_share_hi"]) == pytest.approx(wilson(1.5, 6))
