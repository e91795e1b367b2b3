"""What a sentence may say (docs/statistics.md): on hand-made mart rows, each verdict says only what its interval
shows. A change where its Holm-adjusted p is below 0.05; "no change larger than X" where the 90% interval lies
within the margin; "too few plays to tell" otherwise; the seat with the largest effect named, not only seat 0; the
ladder's trend over every rung, a handicap that moves toward 0 called smaller; interval ends that never print
equal."""

from __future__ import annotations

import polars as pl

from simlib.analysis import sections
from simlib.analysis.html_pages import _cells
from simlib.analysis.ladder import edge_answer
from simlib.analysis.page import ci, interval
from simlib.analysis.report import _GLOSSARY
from simlib.analysis.whatif import _change, _largest_change, variant_line, variant_sentence
from simlib.games.mauer import GAME as MAUER


def _seat(setup, seat, share, lo, hi, p, n_eff=4000.0, players=4):
    return {"setup_id": setup, "setup_label": f"4 {setup} players", "seat": seat, "players": players,
            "win_share": share, "win_share_lo": lo, "win_share_hi": hi, "fair_share": 1 / players,
            "advantage": share - 1 / players, "advantage_lo": lo - 1 / players, "advantage_hi": hi - 1 / players,
            "p_value": p, "effective_plays": n_eff}


def test_the_fairness_verdict_names_the_seat_with_the_largest_effect():
    rows = [_seat("heavy", 0, 0.27, 0.26, 0.28, 0.001), _seat("heavy", 1, 0.21, 0.20, 0.22, 1e-9),
            _seat("heavy", 2, 0.38, 0.366, 0.393, 1e-30), _seat("heavy", 3, 0.14, 0.13, 0.15, 1e-20)]
    said = sections.start_player_verdict(pl.DataFrame(rows))
    assert said.startswith("Of the only one-policy table, the start player is favoured (27.0% (26.0% to 28.0%) "
                           "against a fair 25.0%)")  # its own share first: the largest effect is another seat's
    assert "the largest effect: seat 2 at 4 heavy players: a win share of 38.0% (36.6% to 39.3%)" in said


def test_holm_over_every_seat_drawn_keeps_a_lone_p_of_0_04_from_a_verdict():
    rows = [_seat("random", s, share, share - 0.02, share + 0.02, p, n_eff=2000)
            for s, share, p in ((0, 0.27, 0.04), (1, 0.25, 0.9), (2, 0.24, 0.5), (3, 0.24, 0.5))]
    said = sections.start_player_verdict(pl.DataFrame(rows))
    assert said.startswith("Too few plays to tell at the only one-policy table")
    assert "favoured" not in said


def test_no_effect_is_said_only_where_the_plays_rule_out_more_than_the_margin():
    tight = [_seat("random", s, 0.25, 0.249, 0.251, 0.9, n_eff=2_000_000) for s in range(4)]
    said = sections.start_player_verdict(pl.DataFrame(tight))
    assert said.startswith("No seat's share differs from the fair share by more than 1 percentage point")
    wide = [_seat("random", s, 0.25, 0.22, 0.28, 0.9, n_eff=800) for s in range(4)]
    assert sections.start_player_verdict(pl.DataFrame(wide)).startswith("Too few plays to tell")


def _effect(metric, difference, lo, hi, p_holm, lo90, hi90, equivalent, base=10.0):
    return {"metric": metric, "difference": difference, "difference_lo": lo, "difference_hi": hi,
            "p_holm": p_holm, "difference_lo90": lo90, "difference_hi90": hi90, "equivalent": equivalent,
            "baseline_mean": base, "variant_mean": base + difference}


def test_a_variant_says_a_change_a_small_change_or_too_few_plays():
    rows = {"headline: mean_penalty": _effect("headline: mean_penalty", -1.17, -1.18, -1.16, 1e-6, -1.178, -1.162,
                                              False),
            "seat0_advantage": _effect("seat0_advantage", 0.001, -0.004, 0.006, 0.6, -0.003, 0.005, True, 0.02),
            "length": _effect("length", 0.2, -0.1, 0.5, 0.4, -0.05, 0.45, False, 30.0)}
    said = variant_sentence("tower 12", "tower 15", rows, MAUER)
    assert said.startswith("tower 12 (against tower 15): mean_penalty 10.00 → 8.83, ")
    assert "difference -1.17 (-1.18 to -1.16), Holm p < 0.001" in said
    assert "no change larger than 0.5 pp in seat 0's advantage" in said
    assert "too few plays to tell: game length (build rounds) +0.20 build rounds (-0.10 to +0.50)" in said
    line = variant_line("tower 12", rows, MAUER)
    assert line.startswith("tower 12: ") and "-1.17 (-1.18 to -1.16)" in line
    quiet = {m: r | {"p_holm": 0.5} for m, r in rows.items()}
    assert variant_line("tower 12", quiet, MAUER).startswith("tower 12: too few plays to tell (")


def _depth(bottom, top, slope, lo, hi, p):
    return {"players": 4, "n_rungs_alone": 4, "bottom_rung": "random", "top_rung": "reader",
            "bottom_advantage": bottom, "bottom_advantage_lo": bottom - 0.01, "bottom_advantage_hi": bottom + 0.01,
            "top_advantage": top, "top_advantage_lo": top - 0.01, "top_advantage_hi": top + 0.01,
            "edge_slope": slope, "edge_slope_lo": lo, "edge_slope_hi": hi, "edge_slope_p": p}


def test_the_ladder_trend_is_tested_over_every_rung_and_worded_by_its_signs():
    grows = edge_answer(_depth(0.038, 0.095, 0.013, 0.008, 0.017, 1e-5))
    assert grows.startswith("The start player's edge grows with skill: seat 0's advantage is larger at reader than "
                            "at random, a trend of +1.3 pp a rung (+0.8 pp to +1.7 pp) over all 4 rungs")
    shrinking_handicap = edge_answer(_depth(-0.08, -0.02, 0.02, 0.01, 0.03, 1e-4))
    assert shrinking_handicap.startswith("The start player's handicap shrinks with skill")
    assert "grows" not in shrinking_handicap
    unclear = edge_answer(_depth(0.038, 0.095, 0.01, -0.002, 0.022, 0.1))
    assert unclear.startswith("Too few plays to tell whether the start player's edge changes with skill")
    flat = edge_answer(_depth(0.04, 0.04, 0.001, -0.004, 0.006, 0.7))
    assert flat.startswith("The start player's edge changes by no more than 1 percentage point a rung up the ladder")


def test_interval_ends_never_print_equal():
    assert interval(0.0361, 0.0364) == "3.61% to 3.64%"
    assert interval(23.601, 23.604, as_pct=False, digits=1) == "23.601 to 23.604"
    assert interval(8.0, 8.0, as_pct=False) == "exactly 8.00"
    assert ci({"x": 3.6, "x_lo": 3.58, "x_hi": 3.62}, "x", as_pct=False, digits=1) == "3.60 (3.58 to 3.62)"


def test_table_cells_and_paired_changes_print_their_interval_apart():
    columns = ["x_rate", "x_rate_lo", "x_rate_hi"]
    assert _cells(dict(zip(columns, (0.9999, 0.99968, 1.0))), "x_rate", columns) == (
        "99.99% <span class='note'>(99.97% to 100.00%)</span>")  # 12,000 plays, all but a few: not "100.0% to 100.0%"
    scores = ["score", "score_lo", "score_hi"]
    nothing_varied = _cells(dict(zip(scores, (0.0, 0.0, 0.0))), "score", scores)
    assert nothing_varied == "0.00 <span class='note'>(exactly 0.00)</span>"
    assert _cells(dict(zip(scores, (0.0123, 0.0121, 0.0126))), "score", scores).startswith("0.012 ")
    tower_12 = {"difference": -1.1702, "difference_lo": -1.1744, "difference_hi": -1.1660}
    assert _change("headline: penalty points", tower_12, MAUER) == "-1.170 (-1.174 to -1.166)"
    assert _change("seat0_advantage", {"difference": 0.031, "difference_lo": 0.022, "difference_hi": 0.040},
                   MAUER) == "+3.1 pp (+2.2 to +4.0 pp)"
    # paired plays that barely differ: "no change larger than 0.02 pp", never "than 0.0 pp"
    assert _largest_change("seat0_advantage", {"difference_lo90": -0.0002, "difference_hi90": 0.00015}, MAUER) == (
        "0.02 pp")


def test_the_glossary_names_every_term_the_pages_use():
    terms = {term.lower() for term, _ in _GLOSSARY}
    for word in ("win share", "win rate", "fair share", "balance", "seat test", "holm", "too few plays to tell",
                 "skill depth", "headline", "kaplan-meier", "focal, field", "fixed opening", "unit of length"):
        assert any(word in term for term in terms), word
