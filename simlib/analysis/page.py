"""The page API report sections are written with: one Page per game, figures first, then tables.

A section is a function `section(page) -> None` that reads marts and adds to the page:

    def seats(page: Page) -> None:
        rows = page.mart("mart_seat_advantage")                              # the game's rows
        if rows.is_empty():
            return                                                           # nothing to show for this lake
        page.figure("seat_advantage", SeatBars(rows, "Does the seat matter?"),   # a figure kind (figure_kinds.py)
                    "Does the seat matter?", sentence("seat 0 wins 31.0% (29.8% to 32.2%)", ...))  # computed
        page.table("Win share by seat", rows, "setup_label seat win_share±", mart="mart_seat_advantage")

A figure only one game draws is drawn by hand (matplotlib, `page.subplots`, `page.error_bars`) and handed to
`page.figure` the same way.

A game hands its part of the report over as `REPORT = GameReport(sections=..., ...)` in its package's report.py
(its sections, where it stands in the report, what its score and turns are called): the report's plug-in of the
game, found by name (`game_report`); the game's rules never import it. Its sections are drawn after the generic
ones (simlib/analysis/sections.py), except a section marked `@lead` (drawn first: its figure leads the page)
or `@replaces("game_length")` (drawn where that generic section would be, instead of it). A section that
raises stops the report with the game and the section named.

The page's parts live beside it, one job each: the words (words.py: `pct`, `interval`, `ci`, `sentence`, ...), the
colours and markers (palette.py: a policy keeps one colour throughout the report; `page.style(labels)` gives each
set-up of a figure its colour and marker), the figures' layout and render (layout.py: legends below the panels, no
overlapping text) and the game's plug-in (plugin.py: GameReport, `@lead`, `@replaces`). This module re-exports what
sections use, so that a section imports from one place. Every run's label is its set-up in words
(mart_run_setups), never a hash.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from ..core.game import Game  # a type: the analysis reads the core, never the reverse
from .figure_kinds import FigureKind, Forest, Histogram, Points, SeatBars, stack, with_n  # noqa: F401
from .layout import (  # noqa: F401  (the page's API: sections import from here)
    PAGE_INCHES,
    error_bar_lengths,
    legend_below,
    render,
    row_labels,
    subplots,
    title_above,
)
from .palette import MARKERS, colour
from .plugin import GameReport, game_report, lead, page_order, replaces  # noqa: F401
from .words import (  # noqa: F401
    ci,
    column_list,
    count,
    digits_apart,
    excludes,
    interval,
    number,
    p_text,
    pct,
    sentence,
    signed,
    span,
)

# The index's questions, in its order
VERDICT_KINDS = ("start_player", "fix", "readings", "skill", "own", "decided", "comeback", "length")


@dataclass
class Figure:
    name: str
    png: bytes        # embedded in the page: a page is one file
    width: int        # pixels at the page's scale (CSS pixels)
    title: str
    sentence: str
    problems: list[str] = field(default_factory=list)  # text that overlaps other text or reads below 9 pt


@dataclass
class Verdict:
    """One answer for the index: `question` in a few words, `answer` with its interval and where it was measured."""
    question: str
    answer: str


@dataclass
class Table:
    title: str
    frame: pl.DataFrame
    note: str = ""
    collapsed: bool = False  # long supporting tables start folded
    docs: dict[str, str] = field(default_factory=dict)  # column -> its meaning (from the schema files)


@dataclass
class Page:
    """One game's page: its complete runs with their set-ups (mart_run_setups), every mart, the columns'
    meanings from the schema files, and what sections add."""

    game: Game
    runs: pl.DataFrame   # mart_run_setups' rows of the game, with `label`, `homogeneous`, `primary`
    marts: dict[str, pl.DataFrame]
    column_docs: dict[str, dict[str, str]] = field(default_factory=dict)  # mart -> column -> meaning
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # kind (VERDICT_KINDS) -> the page's answer
    notes: list[str] = field(default_factory=list)  # caveats shown at the top of the page
    index_lines: list[str] = field(default_factory=list)  # one-line findings the index lists (the What-if page's)

    @property
    def report(self) -> GameReport:
        """What the game hands the report (its report.py's REPORT)."""
        return game_report(self.game)

    def mart(self, name: str) -> pl.DataFrame:
        """The game's rows of a mart (empty when the mart is missing or has none)."""
        frame = self.marts.get(name, pl.DataFrame())
        if frame.is_empty() or "game" not in frame.columns:
            return frame
        return frame.filter(pl.col("game") == self.game.name)

    def with_labels(self, frame: pl.DataFrame) -> pl.DataFrame:
        """The frame joined on run_id to its run's set-up: `label` (the set-up in words), `players`,
        `players_label`, `homogeneous` (every seat played one policy), `counted` (its plays are not another
        run's) and `primary` (the largest counted run of its set-up: what a figure of one run per set-up draws)."""
        extra = [c for c in ("label", "homogeneous", "primary", "counted", "players", "players_label", "setup_id")
                 if c not in frame.columns]
        return frame.join(self.runs.select("run_id", *extra), on="run_id")

    def with_setups(self, frame: pl.DataFrame, *columns: str, **named: pl.Expr | str) -> pl.DataFrame:
        """A per-set-up frame joined on setup_id to columns of its set-up from mart_run_setups (`columns` by name,
        `named` as polars expressions or column names), those the frame lacks; an empty frame as it is."""
        if frame.is_empty():
            return frame
        setups = self.runs.select("setup_id", *columns, **named).unique("setup_id")
        return frame.join(setups.select("setup_id", *[c for c in setups.columns if c not in frame.columns]),
                          on="setup_id")

    def drawn(self, frame: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
        """A labelled per-run frame's rows that a figure of one run per set-up draws (the `primary` runs: the
        largest counted run of each one-policy set-up), and their labels by players."""
        rows = frame.filter(pl.col("primary"))
        return rows, rows.sort("players", "label")["label"].unique(maintain_order=True).to_list()

    def colour(self, policy: str) -> str:
        return colour(self.game, policy)

    def style(self, labels: list[str]) -> dict[str, dict]:
        """Each set-up's `color` and `marker` in a figure of one series per set-up: its policy's colour (one a policy
        throughout the report), and among the set-ups of one policy a marker each, in the order of `labels`. The
        policy is the set-up's focal one (mart_run_setups); a label the page's runs lack is read as a one-policy
        label ("4 random players": random)."""
        runs = self.runs.select("label", "focal").rows() if {"label", "focal"} <= set(self.runs.columns) else []
        policies = dict(runs)
        style, seen = {}, {}
        for label in labels:
            policy = policies.get(label) or (label.split(" ") + [""])[1]
            k = seen[policy] = seen.get(policy, -1) + 1
            style[label] = {"color": self.colour(policy), "marker": MARKERS[k % len(MARKERS)]}
        return style

    def error_bars(self, ax, frame: pl.DataFrame, x: str, y: str, series: str | None = None, scale: float = 1.0,
                   colours: dict[str, str] | None = None, spread: float = 0.12,
                   series_style: dict[str, dict] | None = None, **style) -> None:
        """Points of column `y` against `x` with the interval `y_lo`..`y_hi` that every mart gives, one series
        per value of `series` (side by side, labelled with their n where the frame has `n_plays`). With
        `series_style` (page.style's) each series takes its colour and marker, the series in its order, each placed
        by its rank there (one without rows keeps its place)."""
        groups = [(None, frame)] if series is None else frame.group_by(series, maintain_order=True)
        groups = [(k[0] if isinstance(k, tuple) else k, g) for k, g in groups]
        order = list(series_style) if series_style else [name for name, _ in groups]
        groups = sorted((g for g in groups if g[0] in order), key=lambda g: order.index(g[0]))
        fmt = style.pop("fmt", "o")  # once, for every series
        for name, group in groups:
            group = group.sort(x)
            rank = order.index(name)
            offset = (rank - (len(order) - 1) / 2) * spread if group[x].dtype.is_numeric() else 0
            xs = group[x].to_numpy() + offset if offset else group[x].to_numpy()
            ys = group[y].to_numpy()
            err = error_bar_lengths(ys, group[f"{y}_lo"], group[f"{y}_hi"])
            label = None if name is None else str(name)
            if label is not None and "n_plays" in group.columns:
                label += f" (n = {int(group['n_plays'].max()):,})"
            look = series_style[name] if series_style else {"marker": fmt, "color": (colours or {}).get(name)}
            ax.errorbar(xs, scale * ys, yerr=scale * err, fmt=look["marker"], capsize=3, label=label,
                        color=look["color"], **style)

    def steps(self, ax, frame: pl.DataFrame, labels: list[str], x: str, y: str, scale: float = 1.0, **style) -> None:
        """Each set-up's curve of `y` against `x` (a cumulative share: no interval) as a step line in its colour and
        marker (page.style), in the order of `labels`."""
        for label, look in self.style(labels).items():
            rows = frame.filter(pl.col("label") == label).sort(x)
            ax.step(rows[x], scale * rows[y], where="post", color=look["color"], marker=look["marker"], **style)

    def figure(self, name: str, fig, title: str, sentence: str) -> None:
        """Add a figure (a figure kind declared over a mart, figure_kinds.py, or a matplotlib figure drawn by hand)
        with a title and the sentence (computed from the marts) that says what it shows. Legends drawn inside axes
        move below the panels, one for the figure, so that none sits on the data; text that overlaps other text or
        reads below 9 pt at the page's width is recorded in `problems`."""
        if isinstance(fig, FigureKind):
            fig = fig.draw(self)
        legend_below(fig)
        title_above(fig)
        png, width, problems = render(fig)
        self.figures.append(Figure(f"{self.game.name}_{name}", png, width, title, sentence, problems))

    def add_to_sentence(self, name: str, *parts: str | None) -> None:
        """Add the parts that say something, as one more sentence (`sentence`), to the sentence under the figure
        `name`: a game's word on a generic figure."""
        text = sentence(*parts)
        for figure in self.figures:
            if text and figure.name == f"{self.game.name}_{name}":
                figure.sentence += " " + text

    def subplots(self, n: int, width: float = 4.0, height: float = 3.4, most: int | None = None, **kw):
        """A figure of n panels, as many a row as fit the page's width, and its axes, flat (layout.subplots)."""
        return subplots(n, width, height, most, **kw)

    def verdict(self, kind: str, question: str, answer: str) -> None:
        """The page's answer to one of the index's questions (VERDICT_KINDS); the first section to give one wins."""
        if kind not in VERDICT_KINDS:
            raise ValueError(f"verdict kind {kind!r}: not one of {', '.join(VERDICT_KINDS)}")
        if answer:
            self.verdicts.setdefault(kind, Verdict(question, answer))

    def table(self, title: str, frame: pl.DataFrame, columns: list[str] | str | None = None,
              mart: str | None = None, note: str = "", collapsed: bool = False) -> None:
        """Add a table of `columns` (all by default; a list, or words as `column_list` reads them); their meanings
        come from the schema of `mart` (and of the shared columns). Rates, shares and p-values are formatted by
        their column names."""
        frame = frame.select(column_list(columns)) if columns else frame
        docs = self.column_docs.get(mart, {}) if mart else {}
        self.tables.append(Table(title, frame, note, collapsed, {c: docs.get(c, "") for c in frame.columns}))

    def split_table(self, title: str, frame: pl.DataFrame, columns: list[str] | str | None = None,
                    mart: str | None = None, note: str = "") -> None:
        """Add a table from a frame with a `homogeneous` column: rows of one-policy tables first (what the
        figures show), the tables of mixed policies folded below it. A per-set-up frame without `homogeneous` is
        split by its `lineup_kind`."""
        if "homogeneous" not in frame.columns:
            frame = frame.with_columns(homogeneous=pl.col("lineup_kind") == "one_policy")
        columns = column_list(columns) if columns else [c for c in frame.columns if c != "homogeneous"]
        one_policy = frame.filter(pl.col("homogeneous"))
        mixed = frame.filter(~pl.col("homogeneous"))
        if not one_policy.is_empty():
            self.table(title, one_policy, columns, mart, note)
        if not mixed.is_empty():
            self.table(f"{title}: tables of mixed policies", mixed, columns, mart, note, collapsed=True)
