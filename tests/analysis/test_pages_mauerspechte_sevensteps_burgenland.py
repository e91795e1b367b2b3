"""What the pages of Die Mauerspechte, 7 Steps and Burgenland may say (docs/statistics.md, "What a sentence may
say"), on rows made by hand: a change only where its test, Holm-adjusted over the figure's tests, is below 0.05; "no
change larger than X" only where the 90% interval lies within the margin; else "too few plays to tell"; and no
verdict from a table whose every play opens the same way. The numbers here are worked out with this file's own
arithmetic (no estimator of simlib's)."""

from __future__ import annotations

import json
import math

import polars as pl
import pytest

from simlib.analysis.page import Page
from simlib.core.registry import get_game
from simlib.games.mauerspechte import report as mauerspechte
from simlib.games.sevensteps import report as sevensteps

Z90_OVER_Z95 = 1.6448536269514722 / 1.959963984540054


def threshold_rows(*rows: dict) -> pl.DataFrame:
    """Rows of mart_sevensteps_threshold's shape: a difference with its symmetric 95% interval and p."""
    return pl.DataFrame([{"setup_label": "4 random players, a tile for fewer than 8 points", "metric": r["metric"],
                          "difference": r["d"], "difference_lo": r["d"] - r["half"],
                          "difference_hi": r["d"] + r["half"], "p_value": r["p"], "margin": r["margin"]}
                         for r in rows])


def test_seven_steps_threshold_words_follow_holm_and_the_margin():
    rows = threshold_rows(
        {"metric": "tiles taken per seat-play", "d": 0.35, "half": 0.14, "p": 0.0001, "margin": 0.09},
        # p = 0.02 alone would pass; over the table's four tests Holm makes it 0.06
        {"metric": "score per seat-play", "d": 1.5, "half": 1.2, "p": 0.02, "margin": 0.6},
        {"metric": "turns per play", "d": 0.05, "half": 0.2, "p": 0.6, "margin": 0.69},
        {"metric": "seat 0's margin", "d": -0.57, "half": 1.29, "p": 0.39, "margin": 0.01})
    tested = sevensteps._tested(rows, "p_value", pl.col("margin"))
    assert tested["p_holm"].to_list() == pytest.approx([0.0004, 0.06, 0.78, 0.78])
    words = [sevensteps._threshold_change(r) for r in tested.to_dicts()]
    assert words[0] == "tiles taken per seat-play +0.35 (0.21 to 0.49), Holm p < 0.001"
    assert words[1].startswith("too few plays to tell in score per seat-play: +1.50")
    # turns: the 90% interval 0.05 +/- 0.2 x 1.645 / 1.96 lies within 1% of the base (0.69): no change larger
    farthest = 0.05 + 0.2 * Z90_OVER_Z95
    assert words[2] == f"no change larger than {farthest:.2f} in turns per play"
    assert words[3].startswith("too few plays to tell in seat 0's margin")
    assert not any("significant" in w for w in words)


def side_rows(front: list[float], back: list[float], se: float) -> pl.DataFrame:
    """Tables of one policy on each side: a value per (players, policy) with one standard error."""
    rows = [{"players": 4, "policy": policy, "tile_threshold": 7, "side": side, "setup_label": f"4 {policy} players",
             "value": value, "se": se} for side, values in (("front", front), ("back", back))
            for policy, value in zip(("random", "greedy"), values)]
    return pl.DataFrame(rows)


def test_seven_steps_sides_are_tested_and_said_as_the_plays_allow():
    shown = side_rows(front=[69.3, 28.7], back=[65.0, 28.9], se=0.2)
    sides = sevensteps._sides(shown, "value", pl.col("se"))
    assert sides["difference"].to_list() == pytest.approx([-4.3, 0.2])
    se = math.sqrt(2) * 0.2  # independent samples: the two standard errors in quadrature
    assert sides["p"].to_list() == pytest.approx([math.erfc(d / se / math.sqrt(2)) for d in (4.3, 0.2)])
    tested = sevensteps._tested(sides, "p", 0.01 * pl.col("front").abs())
    said = sevensteps._side_change(tested, "the length", lambda d: f"{d:+.1f} turns", "shorter", "longer")
    assert said.startswith("the length on the back is shorter at 1 of 2 tables played on both sides (Holm over "
                           "them), most at 4 random players: -4.3 turns")
    # nothing apart and every interval within the margin: no change larger than its farthest end
    small = sevensteps._tested(sevensteps._sides(side_rows([69.3, 28.7], [69.31, 28.7], 0.01), "value",
                                                 pl.col("se")), "p", 0.01 * pl.col("front").abs())
    assert sevensteps._side_change(small, "the length", lambda d: f"{d:+.2f} turns", "shorter", "longer").startswith(
        "no change larger than 0.03 turns in the length between the sides at any of 2 tables")
    # nothing apart, nothing ruled out
    wide = sevensteps._tested(sevensteps._sides(side_rows([69.3, 28.7], [69.0, 28.9], 3.0), "value", pl.col("se")),
                              "p", 0.01 * pl.col("front").abs())
    assert sevensteps._side_change(wide, "the length", lambda d: f"{d:+.1f}", "shorter", "longer").startswith(
        "too few plays to tell whether the side changes the length")


def test_seven_steps_claim_needs_every_pairing():
    def shown(*rows):
        return pl.DataFrame([{"difference": d, "p_holm": p, "equivalent": e} for d, p, e in rows])

    assert sevensteps._claim(shown((16.1, 0.001, False), (19.1, 0.001, False))) == "back"
    assert sevensteps._claim(shown((16.1, 0.001, False), (1.0, 0.3, False))) == "both"
    assert sevensteps._claim(shown((-5.0, 0.01, False), (-3.0, 0.02, False))) == "front"
    assert sevensteps._claim(shown((0.1, 0.8, True), (-0.2, 0.7, True))) == "small"
    assert sevensteps._claim(shown((3.0, 0.2, False), (-0.2, 0.7, True))) == "unclear"


def test_mauerspechte_length_against_catan_words():
    base = {"catan_mean_turns": 250.0, "catan_mean_turns_lo": 245.0, "catan_mean_turns_hi": 255.0, "margin": 2.5}
    tested = pl.DataFrame([
        base | {"setup_label": "4 random players", "mean_turns": 290.0, "mean_turns_lo": 284.0,
                "mean_turns_hi": 296.0, "difference": 40.0, "difference_lo": 32.0, "difference_hi": 48.0,
                "ratio": 1.16, "p_holm": 1e-9, "equivalent": False},
        base | {"setup_label": "3 random players", "mean_turns": 251.0, "mean_turns_lo": 241.0,
                "mean_turns_hi": 261.0, "difference": 1.0, "difference_lo": -10.0, "difference_hi": 12.0,
                "ratio": 1.004, "p_holm": 0.8, "equivalent": False},
        base | {"setup_label": "4 weighted players", "mean_turns": 250.2, "mean_turns_lo": 249.9,
                "mean_turns_hi": 250.5, "difference": 0.2, "difference_lo": -0.3, "difference_hi": 0.7,
                "ratio": 1.0008, "p_holm": 0.8, "equivalent": True}])
    apart, small, unclear = mauerspechte._catan_words(tested)
    assert apart.startswith("Die Mauerspechte's length differs from Catan's at 1 of 3 set-ups (Holm over them), "
                            "most at 4 random players: 290.00 (284.00 to 296.00) turns"), apart
    assert small == "no difference larger than 1% of Catan's length at 4 weighted players"
    assert unclear == "too few plays to tell at 3 random players (-10.00 to 12.00 turns)"


def seat_rows(label: str, setup_id: str, shares: list[float], n: int, options: str = "") -> list[dict]:
    """One-policy rows of mart_seat_advantage, without ties (the effective plays are the plays)."""
    fair = 1 / len(shares)
    rows = []
    for seat, p in enumerate(shares):
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        rows.append({"setup_id": setup_id, "setup_label": label, "players": len(shares), "lineup_kind": "one_policy",
                     "options": options, "seat": seat, "n_plays": n, "win_share": p, "fair_share": fair,
                     "advantage": p - fair, "effective_plays": float(n), "win_share_lo": p - half,
                     "win_share_hi": p + half,
                     "p_value": math.erfc(abs(p - fair) / math.sqrt(fair * (1 - fair) / n) / math.sqrt(2))})
    return rows


def test_mauerspechte_verdict_reads_varied_openings_only(monkeypatch):
    game = get_game("mauerspechte")
    tables = {  # label: (set-up, seat shares, plays, options, fixed opening)
        "4 random players": ("r", [0.26, 0.25, 0.25, 0.24], 8000, "", False),
        "4 builder players": ("b", [0.50, 0.10, 0.20, 0.20], 1000, "", True),  # the fixed map: one opening
        "4 hotelier players, shuffled layout": ("h", [0.07, 0.20, 0.27, 0.46], 1000, "layout=shuffled", False),
        "4 random players, hotels worth 2 points": ("v", [0.40, 0.20, 0.20, 0.20], 1000, "hotel_points=2", False)}
    seats = pl.DataFrame([r | {"game": "mauerspechte"} for label, (setup, shares, n, options, _) in tables.items()
                          for r in seat_rows(label, setup, shares, n, options)])
    runs = pl.DataFrame([{"run_id": setup, "setup_id": setup, "label": label, "setup_label": label, "options": options,
                          "fixed_opening": fixed, "focal": label.split(" ")[1].rstrip(","), "players": 4,
                          "option_values": json.dumps({})}
                         for label, (setup, _, _, options, fixed) in tables.items()])
    page = Page(game, runs, {"mart_seat_advantage": seats})
    monkeypatch.setattr(mauerspechte.sections, "seat_advantage", lambda page: None)  # the generic figure: elsewhere
    mauerspechte.seat_advantage(page)
    verdict = page.verdicts["start_player"].answer
    # the hoteliers on the shuffled map are favoured apart from fair (seat 3: 46%); the builders' fixed map, and a
    # variant of the rules, give no verdict
    assert "2 one-policy tables whose openings vary" in verdict and "hotelier" in verdict, verdict
    assert "builder" not in verdict and "hotels worth" not in verdict, verdict
    shuffled = next(f for f in page.figures if f.name == "mauerspechte_seat_advantage_shuffled")
    assert "4 hotelier players, shuffled layout" in shuffled.sentence and "Holm, 4 tests" in shuffled.sentence
    assert any("no verdict rests on them" in note for note in page.notes)


def test_mauerspechte_fixed_map_sentence_names_no_verdict():
    game = get_game("mauerspechte")
    runs = pl.DataFrame({"label": ["4 builder players", "4 random players"], "fixed_opening": [True, False]})
    page = Page(game, runs, {})
    frame = pl.DataFrame({"label": ["4 builder players"] * 4 + ["4 random players"] * 4,
                          "mean_owned": [1.34, 3.66, 2.0, 2.5, 2.9, 3.0, 3.1, 3.0]})
    said = mauerspechte._fixed_map(page, frame, "mean_owned", "wall pieces a play")
    assert said == ("the table of scripted players on the fixed map opens the same way in every play and gives no "
                    "verdict (at 4 builder players the seats' wall pieces a play run from 1.34 to 3.66)")
    assert mauerspechte._fixed_map(page, frame.filter(pl.col("label") == "4 random players"), "mean_owned", "") == ""
