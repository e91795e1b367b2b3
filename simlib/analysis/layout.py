"""Figures as a designer sees them: legends off the data, titles above the panels, panels that fit the page's width,
text that never overlaps and reads 9 pt or more; and the figure rendered to PNG with its text problems."""

from __future__ import annotations

import io
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

DPI = 96             # a figure's pixel is a CSS pixel: 9 pt in matplotlib is 9 pt on the page
PAGE_PIXELS = 1180   # the page's content width (report.py's CSS); a wider figure is shrunk to it
PAGE_INCHES = PAGE_PIXELS / DPI
MIN_POINTS = 9.0

plt.rcParams.update({"font.size": 10, "axes.titlesize": 10, "legend.fontsize": 9, "figure.titlesize": 11})


def subplots(n: int, width: float = 4.0, height: float = 3.4, most: int | None = None, **kw):
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


def error_bar_lengths(value, lo, hi) -> np.ndarray:
    """Distances from a value to its interval's ends, for matplotlib; never negative (rounding at 0 or 1)."""
    value, lo, hi = (np.asarray(v, dtype=float) for v in (value, lo, hi))
    return np.maximum(0.0, np.array([value - lo, hi - value]))




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
    # A title longer than the figure is wide breaks into lines instead of widening it. Not matplotlib's wrap: above
    # the figure's top (where a title over panel titles of two lines goes) that breaks after every word.
    wide = title.get_window_extent(renderer).width / (0.95 * fig.bbox.width)
    if wide > 1:
        text = title.get_text()
        title.set_text("\n".join(textwrap.fill(line, int(len(text) / wide)) for line in text.split("\n")))


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
