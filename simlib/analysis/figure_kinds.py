"""The figures every game's page shares, declared as data over a mart's rows and drawn by one function each.

A section declares what to show and hands it to the page, which draws it:

    page.figure("seat_advantage", SeatBars(rows, title="Die Mauer: does the seat matter?"), "Does the seat
                matter?", seat_sentence(rows))

Two kinds carry most figures, a value with its 95% interval (value, lo, hi) in long rows:
`Points`: at the places of `x` (seats, chips, resources), a series per set-up side by side in its policy's colour
and a marker of its own (page.style), a panel per `panel`, a reference dashed. `Forest`: a row each (set-ups,
measures, outcomes) on horizontal bars with the rows' labels at the left, a panel per `panel`, optionally a series
per `series`, a point's colour its `policy`'s, open markers, a reference tick per row. `stack` turns a mart's
measures side by side (m, m_lo, m_hi) into such rows: a panel (or a series, or a row) per measure, times a scale
(100: percent); `with_n` labels a set-up with its n. Declared over them: `SeatBars` (Points of win share by seat, a
panel per player count, the fair share dashed). Beside them: `Histogram` (each set-up's share of plays by a count,
a step line per set-up) and `Ladder` (the skill ladder's two forests).

Each kind's `draw(page)` returns the matplotlib figure; `Page.figure` lays it out and renders it (layout.py). A
figure only one game draws (box plots, a curve beside points, stacked bars) stays in that game's report.py, drawn by
hand."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .layout import PAGE_INCHES, error_bar_lengths, row_labels
from .palette import MARKERS


class FigureKind:
    """A figure declared as data: `draw(page)` makes its matplotlib figure on `page` (its colours, its panels)."""

    def draw(self, page):
        raise NotImplementedError


@dataclass(frozen=True, eq=False)
class Points(FigureKind):
    """Values with their 95% intervals at the places of `x` (a panel's in the rows' order, evenly spaced), a series
    per value of `series` side by side in its set-up's colour and a marker of its own, alike in every panel
    (page.style; with a `policy` column, that policy's colour), labelled with its n where the rows have n_plays; a
    panel per `panel` (in the rows' order, titled by it) with its `reference` dashed where the rows have that column;
    a series whose `open` is true drawn open. `rows`: x, value, lo, hi, series, panel (`stack` makes them of a mart's
    measures)."""

    rows: pl.DataFrame
    title: str
    xlabel: str
    ylabel: str
    reference_label: str = "fair share"
    panel_width: float = 4.0        # at most; narrower where the panels would not fit the page's width in a row
    height: float = 3.6
    most: int | None = None         # panels a row at most (the page's width decides without)
    sharey: bool = True

    def draw(self, page):
        panels = self.rows["panel"].unique(maintain_order=True).to_list()
        a_row = min(len(panels), self.most or len(panels))
        width = max(3.0, min(self.panel_width, (PAGE_INCHES - 1) / a_row))
        fig, axes = page.subplots(len(panels), width=width, height=self.height, most=self.most, sharey=self.sharey)
        style = self._style(page)
        for ax, panel in zip(axes, panels):
            group = self.rows.filter(pl.col("panel") == panel)
            ticks = group["x"].unique(maintain_order=True).to_list()
            labels = group["series"].unique(maintain_order=True).to_list()
            for i, label in enumerate(labels):
                rows = group.filter(pl.col("series") == label)
                x = rows["x"].replace_strict(ticks, range(len(ticks))).to_numpy() + (i - (len(labels) - 1) / 2) * (
                    0.7 / len(labels) if len(labels) > 1 else 0)  # side by side
                n = f" (n = {rows['n_plays'].max():,})" if "n_plays" in rows.columns else ""
                ax.errorbar(x, rows["value"], yerr=error_bar_lengths(rows["value"], rows["lo"], rows["hi"]),
                            fmt=style[label]["marker"], color=style[label]["color"], capsize=3, label=f"{label}{n}",
                            mfc="white" if "open" in rows.columns and rows["open"].all() else None)
            if "reference" in group.columns:
                ax.axhline(group["reference"][0], color="grey", linestyle="--", linewidth=1,
                           label=self.reference_label)
            ax.set(title=panel, xlabel=self.xlabel)
            ax.set_xticks(range(len(ticks)), [str(t) for t in ticks])
            ax.legend()  # every panel's entries go below the figure (page.figure)
        row_labels(axes, self.ylabel)
        fig.suptitle(self.title)
        return fig

    def _style(self, page) -> dict[str, dict]:
        """Each series' colour and marker, the same in every panel: page.style's, or with a `policy` column that
        policy's colour and a marker each among the series of one policy."""
        labels = self.rows["series"].unique(maintain_order=True).to_list()
        if "policy" not in self.rows.columns:
            return page.style(labels)
        policies = dict(self.rows.select("series", "policy").unique("series").rows())
        order = {label: [s for s in labels if policies[s] == policies[label]].index(label) for label in labels}
        return {s: {"color": page.colour(policies[s]), "marker": MARKERS[order[s] % len(MARKERS)]} for s in labels}


@dataclass(frozen=True, eq=False)
class SeatBars(FigureKind):
    """`y` by seat with its interval (`y`_lo, `y`_hi) in percent: a panel per player count, a series per set-up
    (`setup_label`, labelled with its n_plays, in its policy's colour and a marker of its own), the fair share
    (1 / players) dashed: Points over a mart's rows with players, seat, setup_label, `y`± and n_plays."""

    rows: pl.DataFrame
    title: str                      # the figure's title, above every panel
    y: str = "win_share"
    ylabel: str = "win share (%, ties split)"
    xlabel: str = "seat (0 = the start player)"
    panel_width: float = 4.0        # at most; narrower where the panels would not fit the page's width in a row

    def draw(self, page):
        rows = self.rows.sort("players", "setup_label", "seat").select(
            "n_plays", x="seat", series="setup_label", panel=pl.format("{} players", "players"),
            reference=100 / pl.col("players"), **{k: 100 * pl.col(f"{self.y}{end}") for k, end in (
                ("value", ""), ("lo", "_lo"), ("hi", "_hi"))})
        return Points(rows, self.title, self.xlabel, self.ylabel, panel_width=self.panel_width).draw(page)


@dataclass(frozen=True, eq=False)
class Histogram(FigureKind):
    """Each set-up's share of plays (`share`) by `x` (turns) as a step line in its set-up's colour (page.style), a
    panel per player count. `rows`: a histogram mart's rows with players, setup_label, `x`, share, n_plays and the
    `legend` column (what a line is called beside its n); a true `dashed` column dashes a line. With `bins`, counts
    of `x` are pooled into bins of that width and the axes are shared."""

    rows: pl.DataFrame
    title: str
    xlabel: str
    x: str = "turns"
    legend: str = "setup_label"
    bins: int | None = None
    right: float | None = None      # the x axis' right end (matplotlib's choice without)
    panel_width: float = 4.0        # at most, as SeatBars

    def draw(self, page):
        counts = sorted(self.rows["players"].unique().to_list())
        width = max(3.0, min(self.panel_width, (PAGE_INCHES - 1) / len(counts)))
        shared = {"sharex": True, "sharey": True} if self.bins else {}
        fig, axes = page.subplots(len(counts), width=width, height=3.4, **shared)
        for ax, n in zip(axes, counts):
            lines = self.rows.filter(pl.col("players") == n).sort("setup_label", self.x)
            style = page.style(lines["setup_label"].unique(maintain_order=True).to_list())
            for (label,), line in lines.group_by("setup_label", maintain_order=True):
                x, share = self._binned(line)
                ax.step(x, 100 * share, where="mid", color=style[label]["color"],
                        linestyle="--" if "dashed" in line.columns and line["dashed"][0] else "-",
                        label=f"{line[self.legend][0]} (n = {line['n_plays'][0]:,})")
            if self.right is not None:
                ax.set_xlim(left=0, right=self.right)
            ax.set_title(f"{n} players")
            ax.set_xlabel(self.xlabel + (f" (bins of {self.bins})" if self.bins and self.bins > 1 else ""))
            ax.legend()
        axes[0].set_ylabel("share of plays (%)")
        fig.suptitle(self.title)
        return fig

    def _binned(self, line: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
        """A line's x and shares, pooled into bins (each drawn at its bin's middle) where the kind has them."""
        if not self.bins:
            return line[self.x].to_numpy(), line["share"].to_numpy()
        pooled = (line.with_columns(bin=(pl.col(self.x) // self.bins) * self.bins)
                  .group_by("bin").agg(pl.col("share").sum()).sort("bin"))
        return pooled["bin"].to_numpy() + self.bins / 2, pooled["share"].to_numpy()


@dataclass(frozen=True, eq=False)
class Forest(FigureKind):
    """Values with their 95% intervals as points on horizontal bars, a row each (`row`, the first on top), a panel
    per `panel` (in the rows' order, titled by it), the rows' labels once at the left, the figure as wide as the page
    (the panels no wider than `panel_width`). `rows`: value, lo, hi, row, panel (`stack` makes them of a mart's
    measures); a row without a value in a panel keeps its place there. Optional columns: `series` (a series per
    value, each its marker and in the legend; side by side where a row has several), `policy` (a point's colour is
    its policy's, page.colour; dark grey without), `open` (true: the marker drawn open) and `reference` (a grey tick
    across the row: the row's own reference, such as its fair share). `reference` the field: a dashed line across
    every panel (None: none)."""

    rows: pl.DataFrame
    title: str
    xlabel: str = ""
    reference: float | None = 0.0
    reference_label: str = "no change"
    point_label: str = "95% interval"   # the legend's name of the points where the rows have no series
    panel_width: float = 3.2

    def draw(self, page):
        rows = self._placed()
        panels = rows["panel"].unique(maintain_order=True).to_list()
        names = rows["row"].unique(maintain_order=True).to_list()
        crowded = int(rows.group_by("panel", "row").len()["len"].max())  # the most points a row holds
        fig, axes = page.subplots(len(panels), width=self.panel_width, most=len(panels), sharey=True,
                                  height=1.4 + (0.3 + 0.1 * min(2, crowded - 1)) * len(names))
        for ax, panel in zip(axes, panels):
            shown = rows.filter(pl.col("panel") == panel)
            for (marker, policy, hollow), points in shown.group_by("marker", "policy", "open", maintain_order=True):
                ax.errorbar(points["value"], points["y"], xerr=error_bar_lengths(points["value"], points["lo"],
                            points["hi"]), capsize=3, linestyle="none", **_look(page, marker, policy, hollow))
            for (series, marker), points in shown.group_by("series", "marker", maintain_order=True):  # legend: once
                alike = points["policy"].n_unique() == 1
                ax.plot([], [], linestyle="none", label=series, **_look(page, marker, points["policy"][0] if alike
                                                                         else None, points["open"].all()))
            marks = shown.drop_nulls("reference")
            if marks.height:
                ax.vlines(marks["reference"], marks["at"] - 0.4, marks["at"] + 0.4, color="grey", linewidth=1.5,
                          label=self.reference_label if self.reference is None else None)
            if self.reference is not None:
                ax.axvline(self.reference, color="black", linewidth=1, linestyle="--", label=self.reference_label)
            ax.set_yticks(range(len(names))[::-1], names)
            ax.set_ylim(-0.5, len(names) - 0.5)
            ax.set(title=panel, xlabel=self.xlabel)
            ax.grid(axis="x", alpha=0.3)
            ax.legend()
        fig.suptitle(self.title)
        _page_wide(fig, axes, self.panel_width)
        return fig

    def _placed(self) -> pl.DataFrame:
        """The rows with their optional columns filled, `marker` (its series'), `at` (the row's height: the first on
        top) and `y` (the point's: its series' place among those of its row, the first on top)."""
        rows = self.rows.with_columns(**{c: v for c, v in (
            ("series", pl.lit(self.point_label)), ("policy", pl.lit(None, pl.String)), ("open", pl.lit(False)),
            ("reference", pl.lit(None, pl.Float64))) if c not in self.rows.columns})
        names = rows["row"].unique(maintain_order=True).to_list()
        order = rows["series"].unique(maintain_order=True).to_list()
        place = pl.col("series").replace_strict(order, range(len(order)))
        rank, many = place.rank("dense").over("panel", "row") - 1, pl.len().over("panel", "row")
        markers = [MARKERS[i % len(MARKERS)] for i in range(len(order))]
        return rows.with_columns(marker=place.replace_strict(range(len(order)), markers),
                                 at=pl.col("row").replace_strict(names, range(len(names) - 1, -1, -1))).with_columns(
            y=pl.col("at") - (rank - (many - 1) / 2) * 0.8 / max(2, len(order)))


def stack(frame: pl.DataFrame, measures: dict[str, str], scale: dict[str, float] | None = None, into: str = "panel",
          **columns: pl.Expr | str) -> pl.DataFrame:
    """A mart's measures side by side (`m`, `m`_lo, `m`_hi) as a Forest's rows: for each of its rows and each of
    `measures` (measure: its words, in order) the value, lo and hi (times the measure's `scale`, 1 without) and the
    measure's words in column `into` (a panel per measure, or a series), with `columns` (row, panel, series,
    policy, ...: names or expressions over the mart's rows; one named `into` in place of the measure's words)."""
    named = columns.pop(into, None)
    return pl.concat([frame.select(**columns, **{k: pl.col(f"{m}{end}") * (scale or {}).get(m, 1.0) for k, end in (
        ("value", ""), ("lo", "_lo"), ("hi", "_hi"))}, **{into: pl.lit(words) if named is None else named})
                      for m, words in measures.items()])


def with_n(label: str = "label", n: str = "n_plays") -> pl.Expr:
    """A row's label with its n, as a figure names a set-up: '4 random players (n = 12,000)'."""
    return pl.format("{} (n = {})", pl.col(label), pl.col(n).map_elements(lambda k: f"{k:,}", return_dtype=pl.String))


def _look(page, marker: str, policy: str | None, hollow: bool) -> dict:
    """A point's colour (its policy's, else dark grey: not a policy's colour), its marker, and its face."""
    colour = page.colour(policy) if policy is not None else "#333333"
    return {"color": colour, "marker": marker, "mfc": "white" if hollow else colour}


def _page_wide(fig, axes, panel_width: float) -> None:
    """A figure of one row of panels sharing their rows' labels at the left made as wide as the labels and the
    panels need, at most the page's width (the panels narrower), so that its text is never shrunk."""
    labels = max(t.get_window_extent(fig.canvas.get_renderer()).width
                 for t in axes[0].get_yticklabels()) / fig.dpi + 0.25   # inches, with the ticks
    width = min(PAGE_INCHES - 0.4, labels + len(axes) * panel_width + 0.3)
    fig.set_figwidth(width)
    # room above the panels' titles for the figure's (a title set above the figure's top wraps word by word)
    fig.subplots_adjust(left=labels / width, right=1 - 0.15 / width, top=1 - 0.6 / fig.get_figheight(), wspace=0.12)


def _short(label: str) -> str:
    """A rung's label on an axis: 'search (budget=16)' as 'search 16' (one parameter), else on two lines."""
    name, _, params = label.partition(" (")
    params = params.rstrip(")")
    if not params:
        return name
    return f"{name} {params.partition('=')[2]}" if "," not in params else f"{name}\n({params})"


def _forest(ax, page, rows: pl.DataFrame, x: str, marker: str, label: str | None, y: list[float]) -> None:
    """Each row's `x` with its 95% interval (percent) at height y[i], in its rung's colour; `label` once."""
    for i, row in enumerate(rows.iter_rows(named=True)):
        # at 0 where a share summed from ties exceeds its clamped interval end by a rounding error
        err = [[max(0.0, 100 * (row[x] - row[f"{x}_lo"]))], [max(0.0, 100 * (row[f"{x}_hi"] - row[x]))]]
        ax.errorbar([100 * row[x]], [y[i]], xerr=err, fmt=marker, capsize=3,
                    color=page.colour(row["rung_label"].split(" ")[0]), mfc="white" if marker == "D" else None,
                    label=label if i == 0 else None)


@dataclass(frozen=True, eq=False)
class Ladder(FigureKind):
    """The skill ladder (ladder.py): rungs up the y axis, weakest at the bottom, as on a ladder, their labels
    reading across however many. Left, seat 0's advantage at tables where every seat plays one rung
    (mart_ladder_balance); right, one player of a rung against the rung below (mart_ladder_head_to_head), with the
    strength test beside each step whose rung below is not the best heuristic (mart_ladder_strength)."""

    alone: pl.DataFrame
    step: pl.DataFrame
    against_best: pl.DataFrame
    fair: float          # the fair share: 1 / players
    title: str

    def draw(self, page):
        height = max(3.8, 0.45 * max(self.alone.height, self.step.height) + 1.2)
        fig, (left, right) = page.subplots(2, width=5.2, height=height)
        self._panel(page, left, self.alone, "seat0_advantage", "seat 0's advantage, every seat one rung", 0)
        self._panel(page, right, self.step, "win_share", "one player of a rung against the rung below", self.fair)
        left.set_xlabel("advantage (percentage points)")
        right.set_xlabel("win share (%, ties split)")
        fig.suptitle(self.title)
        return fig

    def _panel(self, page, ax, rows: pl.DataFrame, x: str, title: str, fair: float) -> None:
        rows = rows.sort("rung")
        _forest(ax, page, rows, x, "o", None, list(range(rows.height)))
        if "below_label" in rows.columns:  # the strength test beside each step whose rung below is not the best
            place = {r["rung"]: i for i, r in enumerate(rows.iter_rows(named=True))
                     if r["below_label"] not in self.against_best["best_label"]}
            best = self.against_best.filter(pl.col("rung").is_in(list(place)))
            if not best.is_empty():
                _forest(ax, page, best, x, "D", f"against {best['best_label'][0]} (the best heuristic)",
                        [place[r] + 0.25 for r in best["rung"]])
        ax.axvline(100 * fair, color="grey", linestyle="--", linewidth=1,
                   label="no advantage" if fair == 0 else "fair share")
        ticks = [_short(r["rung_label"]).replace("\n", " ") + (f"\nvs {_short(r['below_label'])}"
                                                               if "below_label" in r else "")
                 for r in rows.iter_rows(named=True)]
        ax.set_yticks(range(rows.height), ticks, fontsize=9)
        ax.set_ylim(-0.6, rows.height - 0.4)
        ax.set_title(title)
        ax.legend()
