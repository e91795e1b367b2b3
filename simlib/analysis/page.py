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

A game hands its part of the report over as `REPORT = GameReport(sections=..., ...)` in its package's report.py
(its sections, where it stands in the report, what its score and turns are called): the report's plug-in of the
game, found by name (`game_report`); the game's rules never import it. Its sections are drawn after the generic
ones (simlib/analysis/sections.py), except a section marked `@lead` (drawn first: its figure leads the page)
or `@replaces("game_length")` (drawn where that generic section would be, instead of it). A section that
raises stops the report with the game and the section named.

Words: `pct`, `number`, `interval` (one format: "28.7% to 29.1%"), `ci` (a row's value with its interval:
"20.0% (19.3% to 20.7%)"), `span` (a range of values), `p_text`, `count` ("1 run", "3 runs"), `sentence` (parts
joined, capitalised, "" for none). Every run's label is its set-up in words (mart_run_setups), never a hash; a policy
keeps one colour throughout the report (`colour`), and a figure of one series per set-up takes each set-up's colour
and marker from `page.style(labels)`. A table's columns may be given as words: "setup_label seat win_rate±"
(`column_list`: "x±" stands for x, x_lo and x_hi).
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from ..core.errors import SimlibError  # noqa: E402
from ..core.game import Game  # noqa: E402  (a type: the analysis reads the core, never the reverse)

# Words ----------------------------------------------------------------------------------------------------


def pct(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def signed(x: float, digits: int = 1) -> str:
    """x with its sign, rounded; a value that rounds to zero reads +0.0, not -0.0."""
    return f"{round(x, digits) + 0.0:+.{digits}f}"


def number(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


MAX_DIGITS = 4  # decimals an interval may add to show its width (beyond: its ends are equal to the eye)


def digits_apart(lo: float, hi: float, say: Callable[[float, int], str], digits: int) -> int:
    """The fewest decimals from `digits` up at which the ends print apart (an interval never reads "3.6 to 3.6")."""
    while say(lo, digits) == say(hi, digits) and digits < MAX_DIGITS and lo != hi:
        digits += 1
    return digits


def interval(lo: float | None, hi: float | None, as_pct: bool = True, digits: int | None = None) -> str:
    """A 95% interval's ends, the one way the report writes them: "28.7% to 29.1%", "-1.95 to -1.94", with as many
    more decimals as its ends need to print apart; "exactly 8.00" where the ends are equal (nothing varied)."""
    if lo is None or hi is None:
        return "–"
    say = pct if as_pct else number
    digits = digits_apart(lo, hi, say, 1 if as_pct and digits is None else 2 if digits is None else digits)
    if say(lo, digits) == say(hi, digits):
        return f"exactly {say(lo, digits)}"
    return f"{say(lo, digits)} to {say(hi, digits)}"


def ci(row: dict, column: str, as_pct: bool = True, digits: int | None = None, where: str = "") -> str:
    """A row's value of `column` and its 95% interval (`column`_lo to `column`_hi): "20.0% (19.3% to 20.7%)",
    "2.41 (2.35 to 2.47)", the value with as many decimals as the interval's ends need; `where` is said inside the
    brackets: "82.1% (79.6% to 84.6%, city grain)"."""
    say = pct if as_pct else number
    lo, hi = row[f"{column}_lo"], row[f"{column}_hi"]
    digits = 1 if as_pct and digits is None else 2 if digits is None else digits
    if lo is not None and hi is not None:
        digits = digits_apart(lo, hi, say, digits)
    return f"{say(row[column], digits)} ({interval(lo, hi, as_pct, digits)}{', ' + where if where else ''})"


def span(values, say: Callable[[float], str] = pct) -> str:
    """The range of `values` in words, `say` writing each end; one value when both ends read alike: "3.6% to 3.9%",
    "3.6%"."""
    low, high = say(min(values)), say(max(values))
    return low if low == high else f"{low} to {high}"


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


def column_list(spec: str | list[str]) -> list[str]:
    """A table's columns from words, "x±" standing for x, x_lo and x_hi: "seat win_rate±" -> ["seat", "win_rate",
    "win_rate_lo", "win_rate_hi"] (a list is returned as it is)."""
    if not isinstance(spec, str):
        return list(spec)
    columns = []
    for word in spec.split():
        base = word.removesuffix("±")
        columns += [base, f"{base}_lo", f"{base}_hi"] if word.endswith("±") else [word]
    return columns


# Colours: one per policy name across the whole report (a policy called `random` looks the same on every page) -----

MARKERS = ("o", "s", "^", "D", "v", "P", "X")  # set-ups of one policy in one figure: a marker each, in this order
_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
            "#000000", "#e7ba52", "#5254a3", "#637939", "#7b4173", "#9edae5")  # tab10, then dark and far from it


def _policy_names() -> list[str]:
    """Every game's policy names, each once, in the games' registry and catalogue order."""
    from ..core.registry import games  # the registry, not a game: the colours follow every game's catalogue

    names: list[str] = []
    for game in games().values():
        names += [name for name in game.policies() if name not in names]
    return names


def colour(game: Game, policy: str) -> str:
    names = _policy_names()
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


# Figures as a designer sees them: legends off the data, text that never overlaps, 9 pt at the page's width -----

DPI = 96             # a figure's pixel is a CSS pixel: 9 pt in matplotlib is 9 pt on the page
PAGE_PIXELS = 1180   # the page's content width (report.py's CSS); a wider figure is shrunk to it
PAGE_INCHES = PAGE_PIXELS / DPI
MIN_POINTS = 9.0
VERDICT_KINDS = ("start_player", "fix", "readings", "skill", "own", "length")  # the index's questions, in its order

plt.rcParams.update({"font.size": 10, "axes.titlesize": 10, "legend.fontsize": 9, "figure.titlesize": 11})


def legend_below(fig) -> None:
    """Each axes' legend removed and its entries (each label once) drawn as one legend below every panel."""
    handles, labels = [], []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        # The artists themselves where the axes has them: a legend's own handles of error bars lose their markers.
        artists = dict(zip(ax.get_legend_handles_labels()[1], ax.get_legend_handles_labels()[0]))
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            if text.get_text() not in labels:
                handles.append(artists.get(text.get_text(), handle))
                labels.append(text.get_text())
        legend.remove()
    if not labels:
        return
    renderer = fig.canvas.get_renderer()
    bottom = min(ax.get_tightbbox(renderer).y0 for ax in fig.axes if ax.get_visible())
    y = fig.transFigure.inverted().transform((0, bottom))[1]
    columns = len(labels)
    while True:  # as many columns as fit the figure's width
        legend = fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, y - 0.01), ncol=columns,
                            frameon=False, fontsize=MIN_POINTS)
        if columns == 1 or legend.get_window_extent(renderer).width <= fig.bbox.width:
            return
        legend.remove()
        columns -= 1


def title_above(fig) -> None:
    """The figure's title (suptitle) set just above every panel, so that a title of two lines never covers the
    panels' own titles."""
    title = fig._suptitle
    if title is None or not title.get_text():
        return
    renderer = fig.canvas.get_renderer()
    top = max(ax.get_tightbbox(renderer).y1 for ax in fig.axes if ax.get_visible())
    y = fig.transFigure.inverted().transform((0, top))[1]
    title.set_y(y + 0.01)
    title.set_verticalalignment("bottom")
    title.set_wrap(True)  # a title longer than the panels are wide breaks into lines instead of widening the figure


def row_labels(axes, text: str) -> None:
    """The y axis label `text` on the first panel of each row (page.subplots wraps its panels into rows)."""
    for ax in axes:
        if ax.get_subplotspec().is_first_col():
            ax.set_ylabel(text)


def _drawn_ticklabels(axis) -> list:
    """The tick labels the axis draws: matplotlib keeps labels of ticks outside the view limits, undrawn."""
    return [label for tick in axis._update_ticks() for label in (tick.label1, tick.label2) if label.get_visible()]


def _texts(fig) -> list:
    """Every text the figure draws: titles, axis and tick labels, annotations, legends."""
    texts = [*fig.texts, *(t for t in (fig._suptitle, fig._supxlabel, fig._supylabel) if t is not None),
             *(t for legend in fig.legends for t in legend.get_texts())]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts,
                  *_drawn_ticklabels(ax.xaxis), *_drawn_ticklabels(ax.yaxis), ax.xaxis.get_offset_text(),
                  ax.yaxis.get_offset_text()]
    unique = {id(t): t for t in texts}  # the figure's title is among fig.texts in some matplotlib versions
    return [t for t in unique.values() if t.get_visible() and t.get_text().strip()]


def text_problems(fig, scale: float) -> list[str]:
    """Texts that overlap another text, or that read below MIN_POINTS once the figure is shrunk by `scale`."""
    renderer = fig.canvas.get_renderer()
    boxes = []
    for text in _texts(fig):
        box = text.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            boxes.append((text, box.expanded(0.98, 0.9)))  # glyph boxes have air around them: touching is fine
    problems = [f"{t.get_text()!r} is {t.get_fontsize() * scale:.1f} pt on the page"
                for t, _ in boxes if t.get_fontsize() * scale < MIN_POINTS - 0.05]
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            if box_a.overlaps(box_b):
                problems.append(f"{a.get_text()!r} overlaps {b.get_text()!r}")
    return problems


def render(fig) -> tuple[bytes, int, list[str]]:
    """The figure as PNG bytes, its width on the page, and its text problems; the figure is closed."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    png = buffer.getvalue()
    width = int.from_bytes(png[16:20], "big")  # the PNG header's width field
    fig.canvas.draw()  # measured on a plain draw: savefig's tight box leaves some texts' boxes offset
    problems = text_problems(fig, min(1.0, PAGE_PIXELS / width))
    plt.close(fig)
    return png, min(width, PAGE_PIXELS), problems


# The page ---------------------------------------------------------------------------------------------------

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


@dataclass(frozen=True)
class GameReport:
    """A game's plug-in to the report: `REPORT` in its package's report.py. A game without one gets the defaults."""

    sections: tuple[Callable[[Page], None], ...] = ()
    # Where the game stands in the report (the rule texts' order: ../shared/GAMES.md); lower first.
    order: int = 100
    # What a play's `score` is called; a game whose score is a penalty taken negative (Die Mauer) names it
    # "penalty points" with score_sign -1, and tables show the points positive.
    score_name: str = "score"
    score_sign: int = 1
    # What the `turns` column counts, for axis labels and the unit of a game's length.
    turn_name: str = "turns"


def game_report(game: Game) -> GameReport:
    """The game's GameReport: `REPORT` of the report.py beside the module that defines its Game class (the
    defaults without one). Imported when the report asks, so that simulating never loads the report's side."""
    if not (game.package / "report.py").exists():
        return GameReport()
    try:
        module = importlib.import_module(type(game).__module__)
        package = module.__name__ if module.__file__.endswith("__init__.py") else module.__name__.rpartition(".")[0]
        return importlib.import_module(f"{package}.report").REPORT
    except Exception as exc:
        raise SimlibError(f"report sections of {game.name} could not be loaded: {type(exc).__name__}: {exc}") from exc


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
        """Add a matplotlib figure with a title and the sentence (computed from the marts) that says what it shows.
        Legends drawn inside axes move below the panels, one for the figure, so that none sits on the data; text
        that overlaps other text or reads below 9 pt at the page's width is recorded in `problems`."""
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
        """A figure of n panels, as many a row as fit the page's width (PAGE_INCHES), and its axes, flat."""
        columns = max(1, min(n, most or n, int(PAGE_INCHES // width)))
        rows = -(-n // columns)
        if rows > 1:  # room between the rows for a panel's axis label and the next one's title
            kw.setdefault("gridspec_kw", {"hspace": 0.6})
        fig, axes = plt.subplots(rows, columns, figsize=(width * columns, height * rows), squeeze=False, **kw)
        flat = list(axes.flat)
        for ax in flat[n:]:
            ax.set_visible(False)
        return fig, flat[:n]

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
