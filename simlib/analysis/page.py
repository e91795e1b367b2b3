"""The page API report sections are written with: one Page per game, figures first, then tables.

A section is a function `section(page) -> None` that reads marts and adds to the page:

    def penalties(page: Page) -> None:
        stats = page.with_labels(page.mart("mart_mauer_penalties_by_seat"))   # the game's rows, run labels
        if stats.is_empty():
            return                                                         # nothing to show for this lake
        fig, ax = plt.subplots()
        ...
        page.figure("penalty_by_seat", fig, "Penalty points by seat",
                    sentence="Seat 0 averages 3.1 (2.9-3.3) ...")           # one computed sentence under it
        page.table("Penalty points by seat", stats.select(...))            # or page.split_table(...)

A game hands its sections to the report through `Game.report_sections()` (simlib/core/game.py): by
default `SECTIONS` in the game package's report.py. A section that raises stops the report with the
game and the section named. Helpers for the sentences: `pct`, `interval`, `p_text`; for error bars:
`error_bars`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from ..core.game import Game  # noqa: E402


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def interval(lo: float | None, hi: float | None, as_pct: bool = True) -> str:
    if lo is None or hi is None:
        return "–"
    return f"{pct(lo)}–{pct(hi)}" if as_pct else f"{lo:.2f}–{hi:.2f}"


def p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def error_bars(value, lo, hi) -> np.ndarray:
    """Distances from a value to its interval's ends, for matplotlib; never negative (rounding at 0 or 1)."""
    value, lo, hi = (np.asarray(v, dtype=float) for v in (value, lo, hi))
    return np.maximum(0.0, np.array([value - lo, hi - value]))


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


@dataclass
class Page:
    """One game's page: its complete runs (with readable labels) and every mart, and what sections add."""

    game: Game
    runs: pl.DataFrame   # one row per complete run of the game, with a readable label
    marts: dict[str, pl.DataFrame]
    figure_dir: Path
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)

    def mart(self, name: str) -> pl.DataFrame:
        """The game's rows of a mart (empty when the mart is missing or has none)."""
        frame = self.marts.get(name, pl.DataFrame())
        if frame.is_empty() or "game" not in frame.columns:
            return frame
        return frame.filter(pl.col("game") == self.game.name)

    def with_labels(self, frame: pl.DataFrame) -> pl.DataFrame:
        """The frame joined on run_id to its run's `label`, `players`, `players_label`, `homogeneous` (every
        seat played one policy) and `primary` (the largest run of its kind: what figures draw)."""
        extra = [c for c in ("label", "homogeneous", "primary", "players", "players_label") if c not in frame.columns]
        return frame.join(self.runs.select("run_id", *extra), on="run_id")

    def figure(self, name: str, fig, title: str, sentence: str) -> None:
        """Add a matplotlib figure, saved as figures/<game>_<name>.png, with a title and the one sentence
        (computed from the marts) that says what it shows."""
        file = f"{self.game.name}_{name}.png"
        fig.savefig(self.figure_dir / file, dpi=110, bbox_inches="tight")
        plt.close(fig)
        self.figures.append(Figure(f"figures/{file}", title, sentence))

    def table(self, title: str, frame: pl.DataFrame, note: str = "", collapsed: bool = False) -> None:
        """Add a table (rates, shares and p-values are formatted by their column names)."""
        self.tables.append(Table(title, frame, note, collapsed))

    def split_table(self, title: str, frame: pl.DataFrame, note: str = "") -> None:
        """Add a table from a frame with a `homogeneous` column: rows of one-policy tables first (what the
        figures show), the tables of mixed policies folded below it."""
        one_policy = frame.filter(pl.col("homogeneous")).drop("homogeneous")
        mixed = frame.filter(~pl.col("homogeneous")).drop("homogeneous")
        if not one_policy.is_empty():
            self.table(title, one_policy, note)
        if not mixed.is_empty():
            self.table(f"{title}: tables of mixed policies", mixed, note, collapsed=True)
