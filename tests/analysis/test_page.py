"""The page API's figures and tables: what a designer sees, checked on hand-made figures and frames."""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl
import pytest

from simlib.analysis.html_pages import MAX_COLUMNS, cell, column_words, table_html
from simlib.analysis.layout import PAGE_INCHES, legend_below, render, text_problems, title_above
from simlib.analysis.page import Page, Table
from simlib.analysis.palette import MARKERS, colour
from simlib.analysis.words import ci, column_list, signed, span
from simlib.core.registry import get_game


def _page() -> Page:
    return Page(get_game("mauer"), pl.DataFrame(), {})


def test_overlapping_labels_are_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.text(0.5, 0.5, "first label")
    ax.text(0.52, 0.5, "second label")
    _, _, problems = render(fig)
    assert problems == ["'first label' overlaps 'second label'"]


def test_labels_apart_are_fine_and_small_text_is_found():
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.text(0.1, 0.8, "apart")
    ax.text(0.1, 0.2, "tiny", fontsize=7)
    _, width, problems = render(fig)
    assert problems == ["'tiny' is 7.0 pt on the page"]
    assert 0 < width <= 4 * 96 + 20


def test_a_figure_wider_than_the_page_is_shrunk_and_its_text_reads_smaller():
    fig, ax = plt.subplots(figsize=(2 * PAGE_INCHES, 3))
    ax.set_title("title")
    _, width, problems = render(fig)
    assert width == 1180
    assert any(p.startswith("'title' is ") and "pt on the page" in p for p in problems), problems


def test_legends_move_below_the_panels_each_label_once():
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))
    for ax in (left, right):
        ax.plot([0, 1], [0, 1], label="random")
        ax.legend()
    right.plot([0, 1], [1, 0], label="reader")
    right.legend()
    legend_below(fig)
    assert left.get_legend() is None and right.get_legend() is None
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["random", "reader"]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    assert legend.get_window_extent(renderer).y1 <= min(ax.get_tightbbox(renderer).y0 for ax in (left, right))
    plt.close(fig)


def test_panels_wrap_to_the_page_width():
    fig, axes = _page().subplots(5, width=4.0)
    assert len(axes) == 5 and fig.get_figwidth() <= PAGE_INCHES
    assert len({round(ax.get_position().y0, 3) for ax in axes}) == 2  # 3 on the first row, 2 on the second
    plt.close(fig)


def test_a_policy_keeps_its_colour_in_every_game():
    assert colour(get_game("mauer"), "random") == colour(get_game("catan"), "random")
    assert colour(get_game("mauer"), "random") != colour(get_game("mauer"), "reader")


def test_a_set_up_takes_its_policy_s_colour_and_a_marker_of_its_own():
    runs = pl.DataFrame({"label": ["reader in seat 0 against 3 random"], "focal": ["reader"]})
    page = Page(get_game("mauer"), runs, {})
    labels = ["4 random players", "4 random players, tower 12 penalty points", "4 heavy players",
              "reader in seat 0 against 3 random"]
    style = page.style(labels)
    assert [style[label]["color"] for label in labels] == [page.colour(p) for p in ("random", "random", "heavy",
                                                                                      "reader")]
    assert [style[label]["marker"] for label in labels] == [MARKERS[0], MARKERS[1], MARKERS[0], MARKERS[0]]


def test_words_of_a_value_and_its_interval():
    row = {"win_rate": 0.2, "win_rate_lo": 0.193, "win_rate_hi": 0.207, "mean": 2.414, "mean_lo": 2.35, "mean_hi": 2.47}
    assert ci(row, "win_rate") == "20.0% (19.3% to 20.7%)"
    assert ci(row, "mean", False) == "2.41 (2.35 to 2.47)" and ci(row, "mean", False, 1) == "2.4 (2.4 to 2.5)"
    assert ci(row, "win_rate", where="chip 4") == "20.0% (19.3% to 20.7%, chip 4)"
    assert span([0.036, 0.039]) == "3.6% to 3.9%" and span([0.036, 0.0361]) == "3.6%"
    assert column_list("setup_label seat win_rate±") == ["setup_label", "seat", "win_rate", "win_rate_lo",
                                                         "win_rate_hi"]


def test_verdicts_are_one_per_kind_and_the_first_wins():
    page = _page()
    page.verdict("start_player", "Is the start player favoured?", "Yes.")
    page.verdict("start_player", "Is the start player favoured?", "No.")
    page.verdict("length", "How long?", "")  # nothing to say: no verdict
    assert page.verdicts["start_player"].answer == "Yes." and "length" not in page.verdicts
    with pytest.raises(ValueError, match="not one of"):
        page.verdict("colour", "?", "x")


@pytest.mark.parametrize("column, value, shown", [
    ("win_rate", 0.28912, "28.9%"), ("advantage", -0.0123, "-1.2%"), ("n_plays", 12000, "12,000"),
    ("n_plays", 9758, "9758"), ("mean_turns", 114.68, "114.7"), ("margin", 1.234, "1.23"),
    ("chi2_p_value", 0.0004, "p < 0.001"), ("counted", True, "yes"), ("label", None, "–"),
])
def test_one_number_format(column, value, shown):
    assert cell(column, value) == shown


def test_column_names_read_as_words():
    assert column_words("n_plays") == "plays"
    assert column_words("setup_label") == "set-up"
    assert column_words("p95_turns") == "95% quantile of turns"
    assert column_words("seat0_win_rate") == "seat 0 win rate"


def test_an_estimate_and_its_interval_share_a_cell_and_wide_tables_fold():
    frame = pl.DataFrame({"setup_label": ["4 random players"], "win_rate": [0.289], "win_rate_lo": [0.287],
                          "win_rate_hi": [0.291], **{f"extra_{i}": [i] for i in range(MAX_COLUMNS + 2)}})
    text = table_html(Table("Seat 0", frame))
    shown = text.split("<details>")[0]
    assert "28.9% <span class='note'>(28.7% to 29.1%)</span>" in shown
    assert "win rate (95% interval)" in shown and "win rate lo" not in text
    assert shown.count("</th>") == MAX_COLUMNS
    assert "all 14 columns" in text and "download='seat_0.csv'" in text


def test_a_long_table_starts_folded():
    frame = pl.DataFrame({"seat": list(range(40))})
    assert table_html(Table("Seats", frame)).startswith("<details><summary>Seats (40 rows)")
    assert table_html(Table("Seats", frame.head(3))).startswith("<h3>Seats</h3>")


def test_a_figure_title_of_two_lines_is_set_above_the_panel_titles():
    fig, axes = _page().subplots(3, width=3.0, height=3.0)
    for ax in axes:
        ax.set_title("a panel's title")
    fig.suptitle("a figure's title\nof two lines")
    assert any("overlaps" in p for p in text_problems_of(fig))  # drawn where matplotlib puts it: on them
    fig, axes = _page().subplots(3, width=3.0, height=3.0)
    for ax in axes:
        ax.set_title("a panel's title")
    fig.suptitle("a figure's title\nof two lines")
    title_above(fig)
    assert render(fig)[2] == []


def text_problems_of(fig) -> list[str]:
    fig.canvas.draw()
    problems = text_problems(fig, 1.0)
    plt.close(fig)
    return problems


def test_a_signed_value_that_rounds_to_zero_reads_plus_zero():
    # Catan's seat 0 at 4 random players: an advantage of -0.04 pp was written "-0.0 pp" on the index.
    assert [signed(x) for x in (-0.04, 0.04, -0.06, 1.25)] == ["+0.0", "+0.0", "-0.1", "+1.2"]
    assert signed(-0.004, 2) == "+0.00"
