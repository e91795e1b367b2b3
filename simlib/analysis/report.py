"""`simlib report`: HTML pages designers read, figures first, then tables, then the inputs.

Every figure has a title, labelled axes and its n, and under it one sentence computed from the marts
(what is significant and what is not). The generic sections here draw what every game has; a game adds
its own through `Game.report_sections()`, written with the page API of simlib/analysis/page.py, so
adding a game needs no edit here. A section that raises stops the report, naming the game and section.
"""

from __future__ import annotations

import html
import json
import multiprocessing
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import polars as pl

from .. import __version__
from ..core.errors import SimlibError
from ..core.game import Game
from ..core.lake import Lake
from ..core.registry import games
from .page import Page, Table, error_bars, interval, p_text, pct
from .whatif import what_if


def _run_labels(game: Game, runs: pl.DataFrame) -> pl.DataFrame:
    """A readable, unique label per run ("4p random penalty_tower=12"), whether every seat played one
    policy, and whether the run is the largest of its kind (figures draw those; tables show all)."""
    params = game.parameters()
    defaults = game.resolve_options({name: p.default for name, p in params.items()})
    rows = []
    for row in runs.iter_rows(named=True):
        config = json.loads(row["config"])
        names = [p.split(":")[0] for p in config["policies"]]
        same = len(set(config["policies"])) == 1
        changed = {k: v for k, v in config["options"].items()
                   if defaults.get(k) != v and k in params and not params[k].derived}
        play_changes = " ".join(f"{k}={v}" for k, v in changed.items() if k not in game.match_parameters)
        base = " ".join(filter(None, [f"{config['players']}p {names[0] if same else ','.join(names)}",
                                      play_changes]))
        match_changes = " ".join(f"{k}={v}" for k, v in changed.items() if k in game.match_parameters)
        label = " ".join(filter(None, [base, match_changes, "events" if config["events"] else ""]))
        rows.append({"run_id": row["run_id"], "label": label, "kind": base, "homogeneous": same})
    labels = pl.DataFrame(rows)
    labels = labels.with_columns(
        pl.when(pl.col("label").is_duplicated())
        .then(pl.col("label") + " #" + pl.col("run_id").str.slice(0, 6))
        .otherwise(pl.col("label")).alias("label"))
    runs = runs.join(labels, on="run_id")
    largest = runs.sort("plays", "run_id", descending=[True, False]).unique("kind", keep="first")["run_id"]
    return runs.with_columns((pl.col("homogeneous") & pl.col("run_id").is_in(largest.implode())).alias("primary"),
                             (pl.col("players").cast(pl.String) + " players").alias("players_label"))


# Generic sections: they need only the marts every game has.

def seat_advantage(page: Page) -> None:
    seats = page.with_labels(page.mart("mart_seat_outcomes")).filter(pl.col("homogeneous"))
    balance = page.with_labels(page.mart("mart_run_balance"))
    if seats.is_empty():
        return
    counts = sorted(seats["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(counts), figsize=(4.2 * len(counts), 3.6), squeeze=False, sharey=True)
    for ax, n in zip(axes[0], counts):
        group = seats.filter((pl.col("players") == n) & pl.col("primary"))
        labels = group["label"].unique(maintain_order=True).to_list()
        for i, label in enumerate(labels):
            run = group.filter(pl.col("label") == label).sort("seat")
            x = run["seat"].to_numpy() + (i - (len(labels) - 1) / 2) * 0.12
            y = run["win_rate"].to_numpy()
            err = error_bars(y, run["win_rate_lo"], run["win_rate_hi"])
            ax.errorbar(x, 100 * y, yerr=100 * err, fmt="o", capsize=3,
                        label=f"{label.split(' ', 1)[1]} (n={run['n_plays'][0]:,})")
        ax.axhline(100 / n, color="grey", linestyle="--", linewidth=1, label="fair share 1/players")
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat (0 = starting player)")
        ax.set_xticks(range(n))
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2)
    axes[0][0].set_ylabel("win rate (%, 95% Wilson interval)")
    fig.suptitle(f"{page.game.title}: win rate by seat at tables of one policy")
    drawn = balance.filter(pl.col("primary"))
    significant = drawn.filter(pl.col("chi2_p_value") < 0.05)
    not_significant = drawn.filter(pl.col("chi2_p_value") >= 0.05)
    parts = []
    if not significant.is_empty():
        top = significant.sort(pl.col("seat0_advantage").abs(), descending=True).row(0, named=True)
        effect = "advantage" if top["seat0_advantage"] >= 0 else "disadvantage"
        parts.append(f"The seat matters significantly (chi-square test, p < 0.05) in {significant.height} of "
                     f"{drawn.height} configurations drawn; the largest start-player {effect} is at {top['label']}: "
                     f"seat 0 wins {pct(top['seat0_win_rate'])} "
                     f"({interval(top['seat0_win_rate_lo'], top['seat0_win_rate_hi'])}) "
                     f"against a fair {pct(1 / top['players'])} ({p_text(top['chi2_p_value'])})")
    if not not_significant.is_empty():
        parts.append("no significant seat effect at " + ", ".join(not_significant["label"].to_list()))
    page.figure("seat_advantage", fig, "Start-player advantage", "; ".join(parts) + ".")
    page.split_table("Balance per run", balance.sort("players", "label").select(
        "label", "players", "n_plays", "seat0_win_rate", "seat0_win_rate_lo", "seat0_win_rate_hi",
        "seat0_advantage", "balance", "best_seat", "worst_seat", "chi2", "chi2_p_value", "completion_rate",
        "incomplete_plays", "tie_rate", "mean_turns", "run_id", "homogeneous"))
    page.table("Win rate and mean score by seat", seats.sort("players", "label", "seat").select(
        "label", "seat", "n_plays", "wins", "shared_wins", "win_rate", "win_rate_lo", "win_rate_hi", "win_share",
        "fair_share", "mean_score", "mean_score_lo", "mean_score_hi"))


def game_length(page: Page) -> None:
    hist = page.with_labels(page.mart("mart_game_length_hist")).filter(pl.col("primary"))
    length = page.with_labels(page.mart("mart_game_length"))
    if hist.is_empty():
        return
    fig, ax = plt.subplots(figsize=(8, 3.8))
    for label in hist.sort("players", "label")["label"].unique(maintain_order=True):
        run = hist.filter(pl.col("label") == label).sort("turns")
        ax.step(run["turns"], 100 * run["share"], where="mid", label=f"{label} (n={run['n_plays'][0]:,})")
    ax.set_xlabel(f"{page.game.turn_name} per play")
    ax.set_ylabel("share of plays (%)")
    ax.set_title(f"{page.game.title}: game length at tables of one policy")
    ax.legend(fontsize=7, ncol=2)
    shown = length.filter(pl.col("primary")).sort("median_turns")
    short, long = shown.row(0, named=True), shown.row(-1, named=True)
    unit = page.game.turn_name
    sentence = (f"Median length ranges from {short['median_turns']} {unit} ({short['label']}) to "
                f"{long['median_turns']} ({long['label']}); 95% of {long['label']} plays end within "
                f"{long['p95_turns']} {unit} (mean {long['mean_turns']:.2f}, 95% interval "
                f"{long['mean_turns_lo']:.2f}–{long['mean_turns_hi']:.2f}).")
    page.figure("game_length", fig, "Game length", sentence)
    page.split_table("Game length per run", length.sort("players", "label").select(
        "label", "n_plays", "mean_turns", "mean_turns_lo", "mean_turns_hi", "sd_turns", "min_turns", "p05_turns",
        "p25_turns", "median_turns", "p75_turns", "p95_turns", "max_turns", "run_id", "homogeneous"))


def policy_strength(page: Page) -> None:
    strength = page.mart("mart_policy_strength")
    if strength.is_empty():
        return
    for n in sorted(strength["players"].unique().to_list()):
        table = strength.filter(pl.col("players") == n)
        policies = sorted(set(table["focal"].to_list()) | set(table["field"].to_list()))
        if table.filter(pl.col("focal") != pl.col("field")).is_empty():
            continue  # tables of one policy only: nothing to compare
        grid = np.full((len(policies), len(policies)), np.nan)
        for row in table.iter_rows(named=True):
            grid[policies.index(row["focal"]), policies.index(row["field"])] = row["win_rate"]
        fig, ax = plt.subplots(figsize=(1.5 * len(policies) + 2.5, 1.2 * len(policies) + 1.5))
        image = ax.imshow(100 * grid, cmap="RdBu", vmin=0, vmax=200 / n)
        for row in table.iter_rows(named=True):
            i, j = policies.index(row["focal"]), policies.index(row["field"])
            half = (row["win_rate_hi"] - row["win_rate_lo"]) / 2
            ax.text(j, i, f"{pct(row['win_rate'])}\n±{100 * half:.1f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(policies)), policies)
        ax.set_yticks(range(len(policies)), policies)
        ax.set_xlabel("field: the policy of every other seat")
        ax.set_ylabel("focal: one player of this policy")
        fig.colorbar(image, ax=ax, label="focal player's win rate (%)")
        total = int(table["n_plays"].sum())
        ax.set_title(f"{page.game.title}: policy against policy, {n} players\n"
                     f"(seats rotated; n = {total:,} focal seat-plays; fair share {pct(1 / n)})")
        versus_random = table.filter((pl.col("field") == "random") & (pl.col("focal") != "random"))
        parts = []
        if not versus_random.is_empty():
            best = versus_random.sort("win_rate", descending=True).row(0, named=True)
            parts.append(f"At a table of random players, {best['focal']} wins most often: {pct(best['win_rate'])} "
                         f"({interval(best['win_rate_lo'], best['win_rate_hi'])}) against a fair {pct(1 / n)}")
        fair = 1 / n
        level = table.filter((pl.col("win_rate_lo") <= fair) & (pl.col("win_rate_hi") >= fair)
                             & (pl.col("focal") != pl.col("field")))
        parts.append("no pairing's interval includes the fair share" if level.is_empty() else
                     "not significantly different from the fair share: " +
                     ", ".join(f"{r['focal']} vs {r['field']}" for r in level.iter_rows(named=True)))
        page.figure(f"policy_table_{n}p", fig, f"Policy strength, {n} players", "; ".join(parts) + ".")
    page.table("Policy strength (one focal player at a table of the field policy)",
               strength.sort("players", "focal", "field").select(
                   "players", "focal", "field", "n_runs", "n_plays", "win_rate", "win_rate_lo", "win_rate_hi",
                   "win_share", "fair_share", "mean_score", "mean_score_lo", "mean_score_hi", "seats_covered",
                   "seat_balance"))


GENERIC_SECTIONS = (seat_advantage, game_length, policy_strength)


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


def html_table(frame: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{_cell(c, v)}</td>" for c, v in zip(frame.columns, row)) + "</tr>"
                   for row in frame.iter_rows())
    return f"<div class='wide'><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"


def _page_html(title: str, body: str) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body><nav><a href='index.html'>simlib report</a></nav>{body}</body></html>")


def _inputs_html(page: Page) -> str:
    runs = page.runs.sort("players", "label").select("label", "run_id", "players", "policies", "plays", "seed",
                                                      "rules_version", "simlib_version", "ended_at")
    assumed = [p for p in page.game.parameters().values() if p.provenance == "assumed" and not p.derived]
    used = {}
    for config in page.runs["config"].to_list():
        for key, value in json.loads(config)["options"].items():
            used.setdefault(key, set()).add(str(value))
    rows = "".join(f"<tr><td>{p.name}</td><td>{html.escape(', '.join(sorted(used.get(p.name, {str(p.default)}))))}"
                   f"</td><td>{p.default}</td><td>{html.escape(p.doc)}</td></tr>" for p in assumed)
    return (f"<h2>Inputs</h2><p>{page.runs.height} complete runs, {int(page.runs['plays'].sum()):,} plays; "
            f"rules version(s) {', '.join(map(str, sorted(page.runs['rules_version'].unique().to_list())))}, "
            f"simlib {', '.join(sorted(page.runs['simlib_version'].unique().to_list()))}.</p>"
            f"<h3>Assumed rule parameters these results depend on</h3><p class='note'>Our choices where the rules "
            f"are silent; override with <code>--option name=value</code>. See docs/games/{page.game.name}.md.</p>"
            f"<table><thead><tr><th>parameter</th><th>value(s) used</th><th>default</th><th>meaning</th></tr>"
            f"</thead><tbody>{rows}</tbody></table><h3>Runs</h3>{html_table(runs)}")


def _table_html(table: Table) -> str:
    note = f"<p class='note'>{html.escape(table.note)}</p>" if table.note else ""
    if table.collapsed:
        return (f"<details><summary>{html.escape(table.title)} ({table.frame.height} rows)</summary>{note}"
                f"{html_table(table.frame)}</details>")
    return f"<h3>{html.escape(table.title)}</h3>{note}{html_table(table.frame)}"


def _figures_html(page: Page) -> str:
    return "".join(f"<figure><img src='{f.file}' alt='{html.escape(f.title)}'><figcaption><b>"
                   f"{html.escape(f.title)}.</b> {html.escape(f.sentence)}</figcaption></figure>"
                   for f in page.figures)


def _game_html(page: Page) -> str:
    figures = _figures_html(page)
    tables = "".join(_table_html(t) for t in page.tables)
    return _page_html(page.game.title, f"<h1>{html.escape(page.game.title)}</h1><h2>Figures</h2>{figures}"
                                       f"<h2>Tables</h2>{tables}{_inputs_html(page)}")


def _read_runs(lake: Lake | Path | str) -> pl.DataFrame:
    lake = Lake.at(lake)
    files = lake.glob("runs/game=*/run_id=*/*.parquet")
    if not files:
        return pl.DataFrame()
    return (pl.read_parquet([lake.url(f) for f in files], hive_partitioning=True)
            .filter(pl.col("status") == "complete"))


def _game_sections(game: Game) -> list:
    try:
        return game.report_sections()
    except Exception as exc:
        raise SimlibError(f"report sections of {game.name} could not be loaded: {type(exc).__name__}: {exc}") from exc


def _read_marts(marts_dir: Path) -> dict[str, pl.DataFrame]:
    return {p.stem: pl.read_parquet(p) for p in sorted(marts_dir.glob("mart_*.parquet"))}


WHAT_IF = "whatif"  # the What-if page's name among the game pages


def _write_what_if(lake: Path, marts_dir: Path, out: Path) -> tuple[Path, str]:
    """The What-if page: every game's sweeps (simlib/analysis/whatif.py)."""
    marts = _read_marts(marts_dir)
    all_runs = _read_runs(lake)
    sections, findings = [], []
    swept = set(marts.get("mart_variant_effects", pl.DataFrame({"game": []}))["game"].to_list())
    for game in [g for g in games().values() if g.name in swept]:
        page = Page(game, _run_labels(game, all_runs.filter(pl.col("game") == game.name)), marts, out / "figures")
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
    game_runs = _read_runs(lake).filter(pl.col("game") == name)
    page = Page(game, _run_labels(game, game_runs), _read_marts(marts_dir), out / "figures")
    for section in [*GENERIC_SECTIONS, *_game_sections(game)]:
        try:
            section(page)
        except Exception as exc:
            raise SimlibError(f"report section {section.__name__} of {name} failed: "
                              f"{type(exc).__name__}: {exc}") from exc
    path = out / f"{name}.html"
    path.write_text(_game_html(page))
    findings = "".join(f"<li><b>{html.escape(f.title)}.</b> {html.escape(f.sentence)}</li>" for f in page.figures)
    entry = (f"<li><a href='{path.name}'>{html.escape(game.title)}</a>: {game_runs.height} runs, "
             f"{int(game_runs['plays'].sum()):,} plays, {len(page.figures)} figures<ul>{findings}</ul></li>")
    return path, entry


def build_report(lake: Path, marts_dir: Path, out: Path, workers: int | None = None) -> list[Path]:
    """Write `out/index.html`, one page per game with runs, and their figures; returns the pages. Pages are
    drawn by up to `workers` processes (default: one per core); 1 draws them in this process."""
    runs = _read_runs(lake)
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
