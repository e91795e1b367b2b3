"""The Readings section (simlib/analysis/readings.py) on a hand-made mart_variant_effects: Die Mauer's tower and
gate penalties stand in for two readings of a text (the section reads any option whose parameter has a
`reading`); the tower is swept, the gate is not."""

from __future__ import annotations

import dataclasses
import json

import polars as pl
import pytest

from simlib.analysis.page import Page
from simlib.analysis.readings import QUESTION, rule_readings
from simlib.games.mauer import GAME as MAUER


def _effect(metric, variant, is_baseline, difference, lo, hi, p, order):
    value = {"penalty_tower": 15 if is_baseline else 12}
    half90 = (hi - lo) / 2 * 1.645 / 1.96
    margin = 0.01 if metric == "seat0_advantage" else 0.1
    return {"game": "mauer", "sweep_id": "s1", "parameters": "penalty_tower", "variant": variant,
            "variant_order": order, "variant_values": json.dumps(value), "is_baseline": is_baseline, "players": 4,
            "policies": "random", "baseline_run_id": "r15", "metric": metric, "seat": None, "n_plays": 4000,
            "baseline_mean": 10.0,
            "variant_mean": 10.0 + difference, "difference": difference, "difference_lo": lo, "difference_hi": hi,
            "p_value": p, "p_holm": None, "margin": margin, "difference_lo90": difference - half90,
            "difference_hi90": difference + half90,
            "equivalent": not is_baseline and -margin < difference - half90 and difference + half90 < margin}


@pytest.fixture
def page(monkeypatch):
    params = dict(MAUER.parameters())
    params["penalty_tower"] = dataclasses.replace(params["penalty_tower"], reading="'Turm' read as 15 or as 12")
    params["penalty_gate"] = dataclasses.replace(params["penalty_gate"], reading="'Tor' read as 10 or as 8")
    monkeypatch.setattr(MAUER, "parameters", lambda: params)
    rows = []
    for order, (variant, base) in enumerate((("v15", True), ("v12", False))):
        rows += [_effect("headline: mean_penalty", variant, base, 0 if base else -1.5, 0 if base else -1.6,
                         0 if base else -1.4, 1.0 if base else 0.0001, order),
                 _effect("seat0_advantage", variant, base, 0 if base else 0.004, 0 if base else -0.006,
                         0 if base else 0.014, 1.0 if base else 0.43, order),
                 _effect("length", variant, base, 0, 0, 0, 1.0, order)]
    marts = {"mart_variant_effects": pl.DataFrame(rows)}
    return Page(MAUER, pl.DataFrame({"run_id": ["r15"], "label": ["4 random players, gate 10"]}), marts)


def test_each_swept_reading_gets_its_paired_effect_and_an_unswept_one_is_named_unmeasured(page):
    rule_readings(page)
    verdict = page.verdicts["readings"]
    assert verdict.question == QUESTION
    assert "not measured in this report (no sweep over it): penalty_gate" in verdict.answer
    assert "tower 12 penalty points (4 random players, gate 10): " in verdict.answer  # the set-up it was measured at
    assert "-1.50 (-1.60 to -1.40)" in verdict.answer  # the significant change, with its paired interval
    assert "advantage" not in verdict.answer  # p = 0.43: not a change
    [figure] = page.figures
    assert figure.name == "mauer_readings"
    # Holm over the figure's two tests; the advantage's interval holds 0 and changes past 1 pp: no verdict either way
    assert "Holm p < 0.001" in figure.sentence
    assert "too few plays to tell: seat 0's advantage +0.4 pp (-0.6 to +1.4 pp)" in figure.sentence
    assert "unchanged in every paired play: game length" in figure.sentence
    assert "'Turm' read as 15 or as 12" in figure.sentence
    assert figure.sentence.startswith("At 4 random players, gate 10, tower 12 penalty points (against tower 15")
    [table] = page.tables
    assert table.frame.height == 3 and set(table.frame["reading"]) == {"'Turm' read as 15 or as 12"}


def test_a_game_without_readings_gets_no_section(page, monkeypatch):
    monkeypatch.setattr(MAUER, "parameters", lambda: {})
    rule_readings(page)
    assert not page.figures and not page.verdicts and not page.tables


def test_readings_without_any_sweep_say_so_and_draw_nothing(page):
    page.marts["mart_variant_effects"] = pl.DataFrame()
    rule_readings(page)
    assert page.verdicts["readings"].answer == ("not measured in this report (no sweep over it): penalty_gate, "
                                               "penalty_tower.")
    assert not page.figures
