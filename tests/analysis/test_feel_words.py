"""The index's answers on how a play feels (simlib/analysis/feel.py), from hand-made mart rows: the word follows the
interval's ends against the lines, an interval across a line is too close to call, and the ladder's difference is
Newcombe's interval of two independent proportions."""

from __future__ import annotations

import math

import polars as pl
import pytest

from simlib.analysis.feel import comeback_answer, decided_answer, examples, ladder_answer


def setup_row(rate, lo, hi, share=0.2, share_lo=0.18, share_hi=0.22) -> dict:
    return {"setup_label": "4 random players", "players": 4, "half_leader_plays": 1000, "half_leader_win_rate": rate,
            "half_leader_win_rate_lo": lo, "half_leader_win_rate_hi": hi, "mean_decided_at": 0.7,
            "mean_decided_at_lo": 0.69, "mean_decided_at_hi": 0.71, "won_from_last_share": share,
            "won_from_last_share_lo": share_lo, "won_from_last_share_hi": share_hi, "mean_max_deficit": 6.8,
            "mean_max_deficit_lo": 6.7, "mean_max_deficit_hi": 6.9}


@pytest.mark.parametrize("rate, lo, hi, word", [
    (0.44, 0.43, 0.45, "No:"),
    (0.50, 0.49, 0.50, "No:"),          # at the line: no more than half
    (0.58, 0.55, 0.61, "Partly:"),
    (0.70, 0.67, 0.73, "Mostly:"),
    (0.494, 0.486, 0.502, "Too close to call between no and partly:"),
    (0.66, 0.64, 0.68, "Too close to call between partly and mostly:"),
])
def test_decided_follows_the_interval(rate, lo, hi, word):
    said = decided_answer(setup_row(rate, lo, hi))
    assert said.startswith(word), said
    assert "fair share is 25%" in said and "from 70% of the play" in said


@pytest.mark.parametrize("share, lo, hi, word", [
    (0.03, 0.02, 0.04, "Rarely:"),
    (0.07, 0.06, 0.08, "Sometimes:"),
    (0.20, 0.18, 0.22, "Yes:"),
    (0.05, 0.04, 0.06, "Too close to call between rarely and sometimes:"),
])
def test_comeback_follows_the_interval(share, lo, hi, word):
    said = comeback_answer(setup_row(0.5, 0.4, 0.6, share, lo, hi), "cards won")
    assert said.startswith(word), said
    assert "1 in 4 if half-time said nothing" in said and "6.8 cards won behind" in said


@pytest.mark.parametrize("players, rate, word", [
    (2, 0.60, "No:"),        # at 2 players a half-time leader wins half the plays by chance: 60% is little more
    (2, 0.72, "Partly:"),
    (2, 0.80, "Mostly:"),
    (4, 0.60, "Partly:"),    # the same 60% at 4 players is well past the fair 25%
    (6, 0.46, "Partly:"),
])
def test_decided_lines_move_with_the_fair_share(players, rate, word):
    """The lines lie a third and five ninths of the way from the fair share 1/n to a certain win: 2 players 2/3 and
    7/9, 4 players 1/2 and 2/3, 6 players 4/9 and 17/27 (worked by hand)."""
    row = {**setup_row(rate, rate - 0.005, rate + 0.005), "players": players, "setup_label": f"{players} players"}
    said = decided_answer(row)
    assert said.startswith(word), said
    assert f"fair share is {round(100 / players)}%" in said


@pytest.mark.parametrize("players, share, word, lines", [
    (2, 0.15, "Sometimes:", "10% and 20%"),   # chance gives the last at half-time 1 in 2
    (2, 0.08, "Rarely:", "10% and 20%"),
    (4, 0.15, "Yes:", "5% and 10%"),
    (3, 0.10, "Sometimes:", "6.7% and 13.3%"),
])
def test_comeback_lines_move_with_the_fair_share(players, share, word, lines):
    """The lines lie at a fifth and two fifths of the 1 in n that chance gives the seat last at half-time."""
    row = {**setup_row(0.5, 0.4, 0.6, share, share - 0.005, share + 0.005), "players": players}
    said = comeback_answer(row, "cards won")
    assert said.startswith(word), said
    assert f"the words change at {lines}" in said


def test_no_half_time_leader_gives_no_answer():
    assert decided_answer({**setup_row(0.5, 0.4, 0.6), "half_leader_plays": 0}) == ""


def ladder(*rungs) -> pl.DataFrame:
    return pl.DataFrame([{"rung": r, "players": 4, "rung_label": f"search (budget={r})", "half_leader_plays": n,
                          "half_leader_wins": k, "half_leader_win_rate": k / n} for r, (k, n) in enumerate(rungs)])


def test_the_ladder_difference_is_newcombes():
    said = ladder_answer(ladder((382, 1000), (494, 1000)))
    # Newcombe (1998), method 10, worked by hand from the two Wilson intervals.
    def wilson(k, n, z=1.959963984540054):
        p = k / n
        centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (
            1 + z * z / n)
        return centre - half, centre + half
    (l1, u1), (l2, u2) = wilson(382, 1000), wilson(494, 1000)
    d = 0.494 - 0.382
    lo, hi = d - math.sqrt((0.494 - l2) ** 2 + (u1 - 0.382) ** 2), d + math.sqrt((u2 - 0.494) ** 2 + (0.382 - l1) ** 2)
    assert said.startswith("Among good players the game is decided earlier: the half-time leader wins 38.2% with 4 "
                           "search (budget=0) players and 49.4% with 4 search (budget=1) players"), said
    assert f"+{100 * d:.1f} pp, 95% interval +{100 * lo:.1f} pp to +{100 * hi:.1f} pp" in said


def test_the_ladder_says_later_and_too_few():
    assert ladder_answer(ladder((500, 1000), (400, 1000))).startswith("Among good players the game is decided later")
    assert ladder_answer(ladder((50, 100), (52, 100))).startswith("Too few plays to tell")
    assert ladder_answer(ladder((50, 100))) == ""


def test_the_examples_name_the_workbench_and_a_replay_command():
    row = {"setup_label": "4 random players", "example_run_id": "abc123", "comeback_play": 7, "runaway_play": None}
    said = examples(row, "mauer")
    assert "`simlib replay mauer --run RUN --play PLAY`" in said and "abc123" not in said  # ids stay in the table
    assert "open them in the workbench (`make serve`, under 'Plays the report names')" in said
    assert examples({**row, "comeback_play": None}, "mauer") == ""
