"""`simlib report`: HTML pages designers read, figures first, then tables, then the inputs.

Every figure has a title, labelled axes and its n, and under it one sentence computed from the marts
(what is significant and what is not). The generic sections (simlib/analysis/sections.py) draw what every
game has; a game adds its own (`SECTIONS` in its package's report.py, found by `game_sections`), written
with the page API of simlib/analysis/page.py, so adding a game needs no edit here. A section that raises
stops the report, naming the game and section. Pages read marts only: runs and their set-up labels come
from mart_run_setups.
"""

from __future__ import annotations

import html
import importlib
import json
import multiprocessing
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

from .. import __version__
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.registry import games
from .models import load_models, shared_column_docs
from .page import Page, Table, count, p_text, page_order
from .sections import SECTIONS as GENERIC_SECTIONS
from .whatif import what_if

# HTML

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
figure { margin: 1.5em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.95em; margin-top: 0.4em; max-width: 60em; }
.wide { overflow-x: auto; } table { border-collapse: collapse; font-size: 0.8em; margin: 0.5em 0 1.5em; }
summary { cursor: pointer; font-weight: bold; margin: 1em 0; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
th { background: #f4f4f4; } td:first-child, th:first-child { text-align: left; white-space: nowrap; }
.note { color: #555; font-size: 0.9em; } nav a { margin-right: 1em; }
"""

_RATE_WORDS = ("rate", "share", "balance", "advantage")


def _cell(column: str, value) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        if any(w in column for w in _RATE_WORDS) and "chi2" not in column:
            return f"{100 * value:.2f}%"
        if "p_value" in column:
            return p_text(value)
        return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return html.escape(str(value))


def html_table(frame: pl.DataFrame, docs: dict[str, str] | None = None) -> str:
    """A table; a column's meaning (from the schema files) is its header's tooltip."""
    docs = docs or {}
    head = "".join(f"<th title='{html.escape(docs.get(c, ''), quote=True)}'>{html.escape(c)}</th>"
                   for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{_cell(c, v)}</td>" for c, v in zip(frame.columns, row)) + "</tr>"
                   for row in frame.iter_rows())
    return f"<div class='wide'><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"


def _page_html(title: str, body: str) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><nav><a href='index.html'>simlib report</a></nav>{body}</body></html>")


def _inputs_html(page: Page) -> str:
    runs = page.runs.sort("players", "label", "run_id")
    assumed = [p for p in page.game.parameters().values() if p.provenance == "assumed" and not p.derived]
    used: dict[str, set[str]] = {}
    for values in runs["option_values"].to_list():
        for key, value in json.loads(values).items():
            used.setdefault(key, set()).add(value)
    rows = "".join(f"<tr><td>{p.name}</td><td>{html.escape(', '.join(sorted(used.get(p.name, {str(p.default)}))))}"
                   f"</td><td>{p.default}</td><td>{html.escape(p.doc)}</td></tr>" for p in assumed)
    versions = sorted(runs["rules_versions"].unique().to_list())
    repeated = runs.filter(~pl.col("counted")).height
    table = runs.with_columns(pl.when(pl.col("counted")).then(pl.lit("")).otherwise(pl.col("counted_in"))
                              .alias("plays_held_by")).select(
        "label", "run_id", "n_plays", "seed", "events", "plays_held_by", "rules_versions", "simlib_version")
    distinct = int(runs.filter(pl.col("counted"))["n_plays"].sum())
    return (f"<h2>Inputs</h2><p>{count(page.runs.height, 'complete run')}, {count(distinct, 'distinct play')}"
            + (f" ({count(repeated, 'run')} repeat plays another run holds: counted once)" if repeated else "")
            + f"; rules versions {html.escape(', '.join(versions))}, "
            f"simlib {', '.join(sorted(runs['simlib_version'].unique().to_list()))}.</p>"
            f"<h3>Assumed rule parameters these results depend on</h3><p class='note'>Our choices where the rules "
            f"are silent; override with <code>--option name=value</code>. See docs/games/{page.game.name}.md.</p>"
            f"<table><thead><tr><th>parameter</th><th>value(s) used</th><th>default</th><th>meaning</th></tr>"
            f"</thead><tbody>{rows}</tbody></table><h3>Runs</h3>{html_table(table)}")


def _table_html(table: Table) -> str:
    note = f"<p class='note'>{html.escape(table.note)}</p>" if table.note else ""
    if table.collapsed:
        return (f"<details><summary>{html.escape(table.title)} ({table.frame.height} rows)</summary>{note}"
                f"{html_table(table.frame, table.docs)}</details>")
    return f"<h3>{html.escape(table.title)}</h3>{note}{html_table(table.frame, table.docs)}"


def _figures_html(page: Page) -> str:
    return "".join(f"<figure><img src='{f.file}' alt='{html.escape(f.title)}'><figcaption><b>"
                   f"{html.escape(f.title)}.</b> {html.escape(f.sentence)}</figcaption></figure>"
                   for f in page.figures)


def _game_html(page: Page) -> str:
    figures = _figures_html(page)
    tables = "".join(_table_html(t) for t in page.tables)
    return _page_html(page.game.title, f"<h1>{html.escape(page.game.title)}</h1><h2>Figures</h2>{figures}"
                                       f"<h2>Tables</h2>{tables}{_inputs_html(page)}")


def _read_runs(marts_dir: Path) -> pl.DataFrame:
    """Every complete run with its set-up (mart_run_setups): `label` is the set-up in words, `homogeneous` says
    every seat played one policy, `primary` marks the largest counted run of each set-up."""
    path = marts_dir / "mart_run_setups.parquet"
    if not path.exists():
        return pl.DataFrame()
    runs = pl.read_parquet(path)
    primary = (runs.filter(pl.col("counted")).sort("n_plays", "run_id", descending=[True, False])
               .unique(["game", "setup_id"], keep="first")["run_id"])
    return runs.with_columns(
        pl.col("setup_label").alias("label"), (pl.col("lineup_kind") == "one_policy").alias("homogeneous"),
        pl.col("run_id").is_in(primary.implode()).alias("primary"),
        (pl.col("players").cast(pl.String) + " players").alias("players_label"))


def _column_docs() -> dict[str, dict[str, str]]:
    """Each model's columns and their meanings, from the schema files (the shared columns' included)."""
    shared = shared_column_docs()
    return {model.name: shared | model.columns for model in load_models()}


def game_sections(game: Game) -> list:
    """The sections a game hands over: `SECTIONS` of the report.py in its package (none without one)."""
    if not (game.package / "report.py").exists():
        return []
    try:
        module = importlib.import_module(type(game).__module__)
        package = module.__name__ if module.__file__.endswith("__init__.py") else module.__name__.rpartition(".")[0]
        return list(importlib.import_module(f"{package}.report").SECTIONS)
    except Exception as exc:
        raise SimlibError(f"report sections of {game.name} could not be loaded: {type(exc).__name__}: {exc}") from exc


def _read_marts(marts_dir: Path) -> dict[str, pl.DataFrame]:
    return {p.stem: pl.read_parquet(p) for p in sorted(marts_dir.glob("mart_*.parquet"))}


WHAT_IF = "whatif"  # the What-if page's name among the game pages


def _write_what_if(lake: Path, marts_dir: Path, out: Path) -> tuple[Path, str]:
    """The What-if page: every game's sweeps (simlib/analysis/whatif.py)."""
    marts = _read_marts(marts_dir)
    all_runs = _read_runs(marts_dir)
    sections, findings = [], []
    swept = set(marts.get("mart_variant_effects", pl.DataFrame({"game": []}))["game"].to_list())
    for game in [g for g in games().values() if g.name in swept]:
        page = Page(game, all_runs.filter(pl.col("game") == game.name), marts, out / "figures", _column_docs())
        what_if(page)
        if page.figures:
            sections.append(f"<h2>{html.escape(game.title)}</h2>" + _figures_html(page)
                            + "".join(_table_html(t) for t in page.tables))
            findings += [f"<li><b>{html.escape(game.title)}: {html.escape(f.title)}.</b> {html.escape(f.sentence)}"
                         f"</li>" for f in page.figures]
    path = out / f"{WHAT_IF}.html"
    intro = ("<p class='note'>Each sweep runs every variant on the same seed, so play i of a variant and of its "
             "baseline draw the same random numbers wherever the rules let them: differences are measured on "
             "paired plays. Made with <code>simlib sweep</code> or a <code>[[sweep]]</code> in a batch file.</p>")
    body = "".join(sections) or ("<p>No sweeps in this lake: run <code>simlib sweep GAME --vary NAME=V1,V2 ..."
                                 "</code>.</p>")
    path.write_text(_page_html("What if", f"<h1>What if</h1>{intro}{body}"))
    entry = (f"<li><a href='{path.name}'>What if</a>: {len(findings)} sweep figures<ul>{''.join(findings)}</ul></li>")
    return path, entry


def _write_page(name: str, lake: Path, marts_dir: Path, out: Path) -> tuple[Path, str]:
    """One game's page (or the What-if page) with its figures; returns its path and its entry in the index.
    Reads what it needs itself, so that pages can be drawn in processes of their own."""
    if name == WHAT_IF:
        return _write_what_if(lake, marts_dir, out)
    game = games()[name]
    game_runs = _read_runs(marts_dir).filter(pl.col("game") == name)
    page = Page(game, game_runs, _read_marts(marts_dir), out / "figures", _column_docs())
    for section in page_order(list(GENERIC_SECTIONS), game_sections(game)):
        try:
            section(page)
        except Exception as exc:
            raise SimlibError(f"report section {section.__name__} of {name} failed: "
                              f"{type(exc).__name__}: {exc}") from exc
    path = out / f"{name}.html"
    path.write_text(_game_html(page))
    findings = "".join(f"<li><b>{html.escape(f.title)}.</b> {html.escape(f.sentence)}</li>" for f in page.figures)
    distinct = int(game_runs.filter(pl.col("counted"))["n_plays"].sum())
    entry = (f"<li><a href='{path.name}'>{html.escape(game.title)}</a>: {game_runs.height} runs, "
             f"{distinct:,} distinct plays, {len(page.figures)} figures<ul>{findings}</ul></li>")
    return path, entry


def build_report(lake: Path, marts_dir: Path, out: Path, workers: int | None = None) -> list[Path]:
    """Write `out/index.html`, one page per game with runs, and their figures; returns the pages. Pages are
    drawn by up to `workers` processes (default: one per core); 1 draws them in this process."""
    runs = _read_runs(marts_dir)
    if runs.is_empty() or not any(marts_dir.glob("mart_*.parquet")):
        raise SimlibError(f"nothing to report: no complete runs in {lake} or no marts in {marts_dir} "
                          f"(run make simulate and make pipeline)")
    figure_dir = out / "figures"
    shutil.rmtree(figure_dir, ignore_errors=True)
    figure_dir.mkdir(parents=True, exist_ok=True)
    todo = [name for name in games() if not runs.filter(pl.col("game") == name).is_empty()]
    effects = marts_dir / "mart_variant_effects.parquet"
    if effects.exists() and pl.scan_parquet(effects).select(pl.len()).collect().item() > 0:
        todo.insert(0, WHAT_IF)
    workers = min(len(todo), workers or os.cpu_count() or 1)
    if workers > 1:  # pages are independent: drawn side by side (spawned: Polars is not fork-safe)
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            written = list(pool.map(_write_page, todo, *[[x] * len(todo) for x in (lake, marts_dir, out)]))
    else:
        written = [_write_page(name, lake, marts_dir, out) for name in todo]
    pages, entries = [p for p, _ in written], [e for _, e in written]
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    index = _page_html("simlib report", f"<h1>simlib report</h1><p class='note'>Written {stamp} by simlib "
                                        f"{__version__} from lake <code>{html.escape(str(lake))}</code>.</p>"
                                        f"<ul>{''.join(entries)}</ul>")
    (out / "index.html").write_text(index)
    return pages
