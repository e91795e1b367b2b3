"""The page API report sections are written with: one Page per game, figures first, then tables.

A section is a function `section(page) -> None` that reads marts and adds to the page:

    def penalties(page: Page) -> None:
        stats = page.with_labels(page.mart("mart_mauer_penalties_by_seat"))   # the game's rows, set-up labels
        if stats.is_empty():
            return                                                         # nothing to show for this lake
        fig, ax = plt.subplots()
        page.error_bars(ax, stats, x="seat", y="mean_penalty", series="label")   # y with y_lo / y_hi
        page.figure("penalty_by_seat", fig, "Penalty points by seat",
                    sentence("seat 0 averages 3.1 (95% interval 2.9 to 3.3)", ...))   # computed sentences
        page.table("Penalty points by seat", stats, ["label", "seat", "mean_penalty", ...])  # titles from schema

A game hands its sections to the report as `SECTIONS` in its package's report.py: drawn after the generic
ones (simlib/analysis/sections.py), except a section marked `@lead` (drawn first: its figure leads the page)
or `@replaces("game_length")` (drawn where that generic section would be, instead of it). A section that
raises stops the report with the game and the section named.

Words: `pct`, `number`, `interval` (one format: "28.7% to 29.1%"), `p_text`, `count` ("1 run", "3 runs"),
`sentence` (parts joined, capitalised, "" for none). Every run's label is its set-up in words
(mart_run_setups), never a hash; a policy keeps one colour throughout the report (`colour`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from ..core.game import Game  # noqa: E402  (a type: the analysis reads the core, never the reverse)

# Words ----------------------------------------------------------------------------------------------------


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def number(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


def interval(lo: float | None, hi: float | None, as_pct: bool = True, digits: int | None = None) -> str:
    """A 95% interval's ends, the one way the report writes them: "28.7% to 29.1%", "-1.95 to -1.94"."""
    if lo is None or hi is None:
        return "–"
    if as_pct:
        return f"{pct(lo, 1 if digits is None else digits)} to {pct(hi, 1 if digits is None else digits)}"
    return f"{number(lo, 2 if digits is None else digits)} to {number(hi, 2 if digits is None else digits)}"


def p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """"no runs", "1 run", "3 runs", "12,000 plays"."""
    word = noun if n == 1 else (plural or f"{noun}s")
    return f"no {plural or noun + 's'}" if n == 0 else f"{n:,} {word}"


def sentence(*parts: str | None) -> str:
    """The parts that say something, joined into one sentence ("" when none does)."""
    said = [p for p in parts if p]
    if not said:
        return ""
    text = "; ".join(said)
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def excludes(lo: float | None, hi: float | None, value: float = 0.0) -> bool:
    """The interval lies wholly on one side of `value` (a difference is significant at 95%)."""
    return lo is not None and hi is not None and (lo > value or hi < value)


# Colours: one per policy across the report, from the game's catalogue order ----------------------------------

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


def colour(game: Game, policy: str) -> str:
    names = list(game.policies())
    return _PALETTE[names.index(policy) % len(_PALETTE)] if policy in names else "#7f7f7f"


def error_bar_lengths(value, lo, hi) -> np.ndarray:
    """Distances from a value to its interval's ends, for matplotlib; never negative (rounding at 0 or 1)."""
    value, lo, hi = (np.asarray(v, dtype=float) for v in (value, lo, hi))
    return np.maximum(0.0, np.array([value - lo, hi - value]))


error_bars = error_bar_lengths  # the older name, kept for sections that call it


# Sections that lead a page or replace a generic one --------------------------------------------------------

def lead(section: Callable) -> Callable:
    """Mark a game section to be drawn first on its page (its figures lead, before the generic ones)."""
    section.leads = True
    return section


def replaces(generic: str) -> Callable[[Callable], Callable]:
    """Mark a game section to be drawn instead of the generic section of that name (in its place)."""
    def mark(section: Callable) -> Callable:
        section.replaces = generic
        return section
    return mark


def page_order(generic: list[Callable], own: list[Callable]) -> list[Callable]:
    """Leading game sections, then the generic ones (each replaced where a game section says so), then the rest."""
    replacing = {getattr(s, "replaces", None): s for s in own if getattr(s, "replaces", None)}
    leads = [s for s in own if getattr(s, "leads", False)]
    middle = [replacing.get(s.__name__, s) for s in generic]
    middle = [s for s in middle if s not in leads]  # a leading section that replaces one is drawn once, first
    rest = [s for s in own if s not in leads and s not in middle]
    return leads + middle + rest


# The page ---------------------------------------------------------------------------------------------------

@dataclass
class Figure:
    file: str
    title: str
    sentence: str


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
    figure_dir: Path
    column_docs: dict[str, dict[str, str]] = field(default_factory=dict)  # mart -> column -> meaning
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)

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

    def drawn(self, frame: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
        """A labelled per-run frame's rows that a figure of one run per set-up draws (the `primary` runs: the
        largest counted run of each one-policy set-up), and their labels by players."""
        rows = frame.filter(pl.col("primary"))
        return rows, rows.sort("players", "label")["label"].unique(maintain_order=True).to_list()

    def colour(self, policy: str) -> str:
        return colour(self.game, policy)

    def error_bars(self, ax, frame: pl.DataFrame, x: str, y: str, series: str | None = None, scale: float = 1.0,
                   colours: dict[str, str] | None = None, spread: float = 0.12, **style) -> None:
        """Points of column `y` against `x` with the interval `y_lo`..`y_hi` that every mart gives, one series
        per value of `series` (side by side, labelled with their n where the frame has `n_plays`)."""
        groups = [(None, frame)] if series is None else frame.group_by(series, maintain_order=True)
        groups = [(k[0] if isinstance(k, tuple) else k, g) for k, g in groups]
        fmt = style.pop("fmt", "o")  # once, for every series
        for i, (name, group) in enumerate(groups):
            group = group.sort(x)
            offset = (i - (len(groups) - 1) / 2) * spread if group[x].dtype.is_numeric() else 0
            xs = group[x].to_numpy() + offset if offset else group[x].to_numpy()
            ys = group[y].to_numpy()
            err = error_bar_lengths(ys, group[f"{y}_lo"], group[f"{y}_hi"])
            label = None if name is None else str(name)
            if label is not None and "n_plays" in group.columns:
                label += f" (n = {int(group['n_plays'].max()):,})"
            ax.errorbar(xs, scale * ys, yerr=scale * err, fmt=fmt, capsize=3, label=label,
                        color=(colours or {}).get(name), **style)

    def figure(self, name: str, fig, title: str, sentence: str) -> None:
        """Add a matplotlib figure, saved as figures/<game>_<name>.png, with a title and the sentence (computed
        from the marts) that says what it shows."""
        file = f"{self.game.name}_{name}.png"
        fig.savefig(self.figure_dir / file, dpi=110, bbox_inches="tight")
        plt.close(fig)
        self.figures.append(Figure(f"figures/{file}", title, sentence))

    def table(self, title: str, frame: pl.DataFrame, columns: list[str] | None = None, mart: str | None = None,
              note: str = "", collapsed: bool = False) -> None:
        """Add a table of `columns` (all by default); their meanings come from the schema of `mart` (and of the
        shared columns). Rates, shares and p-values are formatted by their column names."""
        frame = frame.select(columns) if columns else frame
        docs = self.column_docs.get(mart, {}) if mart else {}
        self.tables.append(Table(title, frame, note, collapsed, {c: docs.get(c, "") for c in frame.columns}))

    def split_table(self, title: str, frame: pl.DataFrame, columns: list[str] | None = None,
                    mart: str | None = None, note: str = "") -> None:
        """Add a table from a frame with a `homogeneous` column: rows of one-policy tables first (what the
        figures show), the tables of mixed policies folded below it."""
        columns = columns or [c for c in frame.columns if c != "homogeneous"]
        one_policy = frame.filter(pl.col("homogeneous"))
        mixed = frame.filter(~pl.col("homogeneous"))
        if not one_policy.is_empty():
            self.table(title, one_policy, columns, mart, note)
        if not mixed.is_empty():
            self.table(f"{title}: tables of mixed policies", mixed, columns, mart, note, collapsed=True)
