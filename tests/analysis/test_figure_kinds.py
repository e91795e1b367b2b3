"""The figure kinds games declare their figures with (simlib/analysis/figure_kinds.py): panels, series and points
as declared, and text that reads at the page's width."""

from __future__ import annotations

import matplotlib.pyplot as plt
import polars as pl
from matplotlib.colors import to_hex

from simlib.analysis.layout import PAGE_INCHES
from simlib.analysis.page import Forest, Page, Points, SeatBars, stack, with_n
from simlib.analysis.palette import MARKERS
from simlib.core.registry import get_game


def _page() -> Page:
    return Page(get_game("mauer"), pl.DataFrame(), {})


def _mart() -> pl.DataFrame:
    """A mart's rows: two set-ups, two measures with their intervals."""
    return pl.DataFrame({"label": ["4 random players", "4 reader players"], "n_plays": [12000, 800],
                         "policy": ["random", "reader"], "share": [0.25, 0.30], "share_lo": [0.24, 0.27],
                         "share_hi": [0.26, 0.33], "turns": [20.0, 30.0], "turns_lo": [19.0, 28.0],
                         "turns_hi": [21.0, 32.0], "fair": [0.25, 0.25]})


def _points(ax) -> list[tuple[float, float, str, str]]:
    """Each point an axes draws with an interval: x, y, its colour and marker."""
    return [(x, y, to_hex(c.lines[0].get_color()), c.lines[0].get_marker()) for c in ax.containers
            for x, y in zip(c.lines[0].get_xdata(), c.lines[0].get_ydata())]


def test_stack_makes_a_forest_s_rows_of_a_mart_s_measures():
    rows = stack(_mart(), {"share": "win share (%)", "turns": "turns"}, {"share": 100}, row=with_n(), policy="policy")
    assert rows.columns == ["row", "policy", "value", "lo", "hi", "panel"]
    assert rows["row"].to_list()[:2] == ["4 random players (n = 12,000)", "4 reader players (n = 800)"]
    assert rows["value"].to_list() == [25.0, 30.0, 20.0, 30.0] and rows["hi"][1] == 33.0
    assert rows["panel"].to_list() == ["win share (%)"] * 2 + ["turns"] * 2
    series = stack(_mart(), {"share": "share", "turns": "turns"}, into="series", panel=pl.lit("both"))
    assert series["series"].to_list() == ["share", "share", "turns", "turns"] and set(series["panel"]) == {"both"}


def test_a_forest_draws_a_panel_per_measure_a_row_per_set_up_in_its_policy_s_colour():
    page = _page()
    rows = stack(_mart(), {"share": "win share (%)", "turns": "turns"}, {"share": 100}, row=with_n(), policy="policy")
    fig = Forest(rows, "title", reference=None).draw(page)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["win share (%)", "turns"]
    ticks = {t.get_text(): t.get_position()[1] for t in axes[0].get_yticklabels()}
    assert ticks == {rows["row"][0]: 1, rows["row"][1]: 0}  # the first row on top
    points = sorted(_points(axes[0]), key=lambda p: -p[1])
    assert [(x, y) for x, y, _, _ in points] == [(25.0, 1.0), (30.0, 0.0)]
    assert [c for _, _, c, _ in points] == [page.colour("random"), page.colour("reader")]
    assert not any(line.get_linestyle() == "--" for line in axes[0].lines)  # no reference: no dashed line
    plt.close(fig)


def test_a_forest_s_series_sit_side_by_side_each_with_its_marker_once_in_the_legend():
    mart = _mart().with_columns(fair=pl.col("fair") * 100)
    rows = stack(mart, {"share": "the holder", "turns": "the others"}, into="series", row="label", panel=pl.lit("p"),
                 policy="policy", reference="fair").with_columns(open=pl.col("series") == "the others")
    rows = rows.filter(~((pl.col("row") == "4 reader players") & (pl.col("series") == "the others")))
    fig = Forest(rows, "title", reference=None,
                 reference_label="fair share").draw(_page())
    (ax,) = [ax for ax in fig.axes if ax.get_visible()]
    points = _points(ax)
    random = sorted(p for p in points if p[2] == _page().colour("random"))
    assert len(points) == 3 and len(random) == 2
    assert {p[3] for p in random} == {MARKERS[0], MARKERS[1]}                    # a marker a series
    assert sorted(y for _, y, _, _ in random) == [0.8, 1.2]                       # side by side about the row's place
    assert [y for _, y, c, _ in points if c == _page().colour("reader")] == [0.0]  # alone in its row: at its place
    handles, labels = ax.get_legend_handles_labels()
    assert labels == ["the holder", "the others", "fair share"]
    assert handles[1].get_markerfacecolor() == "white"                           # the open series drawn open
    (ticks,) = [c for c in ax.collections if c.get_label() == "fair share"]
    assert len(ticks.get_segments()) == 3                                         # a reference tick a point
    plt.close(fig)


def test_a_forest_of_long_row_labels_fits_the_page_and_reads_9_pt():
    rows = stack(_mart().with_columns(label=pl.col("label") + ", a joker for 12 coins, the X5 tile anywhere"),
                 {"share": "a", "turns": "b"}, row=with_n(), series="policy", policy="policy")
    page = _page()
    page.figure("long", Forest(rows, "a forest of long labels", "95% interval", panel_width=4.0), "t", "s")
    (figure,) = page.figures
    assert figure.problems == [] and figure.width <= 1180
    fig = Forest(rows, "a forest of long labels", panel_width=4.0).draw(page)
    assert fig.get_figwidth() <= PAGE_INCHES
    plt.close(fig)


def test_points_draw_a_panel_per_value_a_series_per_set_up_alike_in_every_panel():
    page = _page()
    mart = pl.DataFrame({"players": [3, 3, 3, 4, 4, 4, 4], "seat": [0, 1, 2, 0, 1, 2, 3],
                         "policy": ["random", "random", "random", "random", "random", "reader", "reader"]})
    mart = mart.with_columns(series=pl.format("{} players", "policy"), value=pl.col("seat") * 1.0,
                             lo=pl.col("seat") - 0.5, hi=pl.col("seat") + 0.5,
                             panel=pl.format("{} players", "players"), reference=100 / pl.col("players"))
    fig = Points(mart.rename({"seat": "x"}), "title", "seat", "share (%)", most=2).draw(page)
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["3 players", "4 players"]
    assert [len(ax.get_xticks()) for ax in axes] == [3, 4]                # a panel's own places
    three, four = (sorted(_points(ax)) for ax in axes)
    assert [x for x, *_ in three] == [0.0, 1.0, 2.0]                       # alone: at its places
    assert len(four) == 4 and sorted({c for *_, c, _ in four}) == sorted({page.colour("random"),
                                                                             page.colour("reader")})
    assert {m for *_, m in three} == {m for *_, c, m in four if c == page.colour("random")}  # alike in every panel
    assert [line.get_ydata()[0] for line in axes[0].lines if line.get_linestyle() == "--"] == [100 / 3]
    assert axes[0].get_ylabel() == "share (%)" and axes[1].get_ylabel() == ""
    plt.close(fig)


def test_seat_bars_are_points_of_a_seat_mart_in_percent():
    mart = pl.DataFrame({"players": [2, 2], "seat": [0, 1], "setup_label": ["2 random players"] * 2,
                         "win_share": [0.55, 0.45], "win_share_lo": [0.5, 0.4], "win_share_hi": [0.6, 0.5],
                         "n_plays": [1000, 1000]})
    fig = SeatBars(mart, "title").draw(_page())
    (ax,) = [ax for ax in fig.axes if ax.get_visible()]
    assert sorted((x, round(y, 6)) for x, y, *_ in _points(ax)) == [(0.0, 55.0), (1.0, 45.0)]
    assert sorted(ax.get_legend_handles_labels()[1]) == ["2 random players (n = 1,000)", "fair share"]
    plt.close(fig)


def test_a_point_series_marked_open_is_drawn_open():
    rows = pl.DataFrame({"x": [0, 0], "value": [1.0, 2.0], "lo": [0.5, 1.5], "hi": [1.5, 2.5], "panel": ["p", "p"],
                         "series": ["random, staggered hands", "random, equal hands"], "policy": ["random"] * 2,
                         "open": [False, True]})
    fig = Points(rows, "title", "seat", "share").draw(_page())
    (ax,) = [ax for ax in fig.axes if ax.get_visible()]
    faces = {c.get_label(): c.lines[0].get_markerfacecolor() for c in ax.containers}
    assert faces["random, equal hands"] == "white" and faces["random, staggered hands"] != "white"
    plt.close(fig)
