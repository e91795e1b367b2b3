"""The report's HTML: one self-contained file per page (figures embedded), tables a designer can read.

Tables show their columns in words (the schema's description is each header's tooltip), an estimate and its
95% interval in one cell, at most MAX_COLUMNS columns with the rest folded, long tables folded, and every
table downloadable as CSV with its raw columns for analysts.
"""

from __future__ import annotations

import base64
import html
import re

import polars as pl

from .layout import PAGE_PIXELS
from .page import Figure, Table
from .words import digits_apart, interval, number, p_text, pct

MAX_COLUMNS = 10
OPEN_ROWS = 25     # a longer table starts folded
SHOWN_ROWS = 200   # rows shown of a very long table (the CSV holds them all)

CSS = f"""
body {{ font-family: system-ui, sans-serif; margin: 0 auto; padding: 0 1em 2em; max-width: {PAGE_PIXELS}px;
       color: #222; line-height: 1.45; }}
nav {{ position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; padding: 0.5em 0;
      font-size: 0.9em; z-index: 1; }}
nav a {{ margin-right: 1em; display: inline-block; }}
h1 {{ margin: 0.6em 0 0.2em; }} h2 {{ border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }}
figure {{ margin: 1.5em 0; }} figure img {{ max-width: 100%; height: auto; border: 1px solid #eee; }}
figcaption {{ margin-top: 0.4em; max-width: 60em; }}
.wide {{ overflow-x: auto; max-width: 100%; }}
table {{ border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }}
summary {{ cursor: pointer; font-weight: bold; margin: 0.8em 0; }}
th, td {{ border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; vertical-align: top; }}
th {{ background: rgb(244, 244, 244); font-weight: 600; }}
td:first-child, th:first-child, td.text {{ text-align: left; }}
th[title] {{ cursor: help; text-decoration: underline dotted #999; }}
.note {{ color: #555; font-size: 0.92em; }}
.caveat {{ background: rgb(255, 246, 224); padding: 0.5em 0.8em; }}
.card {{ border: 1px solid #ccc; border-radius: 6px; padding: 0.6em 1em; margin: 1em 0; display: flex;
        gap: 1.2em; align-items: flex-start; }}
.card h2 {{ margin-top: 0.2em; font-size: 1.2em; }} .card > a {{ flex: 0 0 42%; }}
.card img {{ max-width: 100%; height: auto; border: 1px solid #eee; }} .card > div {{ flex: 1; }}
.card dt {{ font-weight: 600; margin-top: 0.5em; }} .card dd {{ margin-left: 0; }}
"""

# Columns in words: the raw name's parts, read out (the schema's description is the tooltip).
_PARTS = {"n": "", "label": "", "setup": "set-up", "seat0": "seat 0", "chi2": "chi-square", "sd": "SD of",
          "p05": "5% quantile of", "p25": "25% quantile of", "p75": "75% quantile of", "p95": "95% quantile of",
          "km": "Kaplan-Meier", "pct": "%", "id": "id", "vs": "vs"}
_RATE_WORDS = ("rate", "share", "balance", "advantage", "ratio")


def column_words(column: str) -> str:
    words = " ".join(w for w in (_PARTS.get(part, part) for part in column.split("_")) if w)
    return words or column


def _is_rate(column: str) -> bool:
    return any(w in column for w in _RATE_WORDS) and "chi2" not in column and "margin" not in column


def cell(column: str, value) -> str:
    """A value the one way the report writes numbers: percent with one decimal, thousands separators."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if _is_rate(column):
            return f"{100 * value:.1f}%"
        if "p_value" in column:
            return p_text(value)
        return f"{value:,.2f}" if abs(value) < 100 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10_000 else str(value)
    return html.escape(str(value))


def _merged(frame: pl.DataFrame) -> list[tuple[str, list[str]]]:
    """The shown columns: x with x_lo and x_hi become one (x, [x, x_lo, x_hi])."""
    names = set(frame.columns)
    shown = []
    for column in frame.columns:
        if re.search(r"_(lo|hi)$", column) and column[:-3] in names:
            continue
        parts = [column, f"{column}_lo", f"{column}_hi"]
        shown.append((column, parts if {parts[1], parts[2]} <= names else [column]))
    return shown


def _cells(row: dict, column: str, parts: list[str]) -> str:
    """A value and its interval in one cell, with as many decimals as the interval's ends need to print apart (as
    page.interval writes them): "exactly" where nothing varied."""
    if len(parts) == 1 or row[parts[1]] is None or row[parts[2]] is None or not isinstance(row[column], float):
        return cell(column, row[column])
    value, lo, hi = (row[p] for p in parts)
    if _is_rate(column):
        digits = digits_apart(lo, hi, pct, 1)
        return f"{pct(value, digits)} <span class='note'>({interval(lo, hi, True, digits)})</span>"
    if abs(value) >= 100 and lo != hi and f"{lo:,.1f}" != f"{hi:,.1f}":
        return f"{value:,.1f} <span class='note'>({lo:,.1f} to {hi:,.1f})</span>"
    digits = digits_apart(lo, hi, number, 2)
    return f"{number(value, digits)} <span class='note'>({interval(lo, hi, False, digits)})</span>"


def _table_html(frame: pl.DataFrame, columns: list[tuple[str, list[str]]], docs: dict[str, str]) -> str:
    def head(column: str, parts: list[str]) -> str:
        words = column_words(column) + (" (95% interval)" if len(parts) == 3 else "")
        doc = docs.get(column, "")
        tip = f" title='{html.escape(f'{column}: {doc}' if doc else column, quote=True)}'"
        return f"<th{tip}>{html.escape(words)}</th>"

    text = {c for c, dtype in frame.schema.items() if dtype == pl.String}  # words read from the left
    rows = "".join("<tr>" + "".join(f"<td{' class=text' if c in text else ''}>{_cells(row, c, p)}</td>"
                                    for c, p in columns) + "</tr>"
                   for row in frame.head(SHOWN_ROWS).iter_rows(named=True))
    return (f"<div class='wide'><table><thead><tr>{''.join(head(c, p) for c, p in columns)}</tr></thead>"
            f"<tbody>{rows}</tbody></table></div>")


def _csv_link(name: str, frame: pl.DataFrame) -> str:
    data = base64.b64encode(frame.write_csv().encode()).decode()
    return (f"<a download='{html.escape(name)}.csv' href='data:text/csv;base64,{data}'>download as CSV "
            f"({frame.height:,} rows, {frame.width} columns)</a>")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")[:60]


def table_html(table: Table) -> str:
    """A table: its first MAX_COLUMNS columns in words, the rest folded, long ones folded, a CSV link."""
    frame, docs = table.frame, table.docs
    columns = _merged(frame)
    note = f"<p class='note'>{html.escape(table.note)}</p>" if table.note else ""
    body = _table_html(frame, columns[:MAX_COLUMNS], docs)
    if len(columns) > MAX_COLUMNS:
        body += (f"<details><summary>all {len(columns)} columns</summary>"
                 f"{_table_html(frame, columns, docs)}</details>")
    cut = f" (the first {SHOWN_ROWS} shown)" if frame.height > SHOWN_ROWS else ""
    links = f"<p class='note'>{_csv_link(_slug(table.title), frame)}{cut}</p>"
    if table.collapsed or frame.height > OPEN_ROWS:
        return (f"<details><summary>{html.escape(table.title)} ({frame.height:,} rows)</summary>{note}{body}{links}"
                f"</details>")
    return f"<h3>{html.escape(table.title)}</h3>{note}{body}{links}"


def image(figure: Figure, width: int | None = None) -> str:
    data = base64.b64encode(figure.png).decode()
    return (f"<img src='data:image/png;base64,{data}' width='{width or figure.width}' "
            f"alt='{html.escape(figure.title, quote=True)}'>")


def code_spans(text: str) -> str:
    """Text written for the terminal (`name` marks a policy, parameter or command) as HTML: the marked parts in
    code."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def figure_html(figure: Figure) -> str:
    title = figure.title + ("" if figure.title.endswith(("?", ".", "!")) else ".")
    return (f"<figure id='{html.escape(figure.name)}'>{image(figure)}<figcaption><b>{html.escape(title)}"
            f"</b> {code_spans(figure.sentence)}</figcaption></figure>")


def page_html(title: str, body: str, nav: list[tuple[str, str]]) -> str:
    """A whole page: the navigation to every page and to the reading guide, then the body."""
    links = "".join(f"<a href='{html.escape(href)}'>{html.escape(text)}</a>" for href, text in nav)
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}"
            f"</title><style>{CSS}</style></head><body><nav>{links}</nav>{body}</body></html>")
