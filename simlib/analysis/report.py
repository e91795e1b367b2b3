"""`simlib report`: HTML pages designers read, figures first, then tables, then the inputs.

Every figure has a title, labelled axes and its n, and under it one sentence computed from the marts
(what is significant and what is not). The generic sections (simlib/analysis/sections.py) draw what every
game has; a game adds its own (`REPORT` in its package's report.py, found by `game_report`), written
with the page API of simlib/analysis/page.py, so adding a game needs no edit here. A section that raises
stops the report, naming the game and section. Pages read marts only: runs and their set-up labels come
from mart_run_setups.
"""

from __future__ import annotations

import html
import json
import multiprocessing
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

from ..core import __version__
from ..core.errors import SimlibError
from ..core.executors import worker_start
from ..core.game import Game
from ..core.lake import check_writable_folder, write_bytes_atomic
from ..core.registry import games
from .design import design_search, parameters_that_matter
from .feel import play_feel
from .html_pages import code_spans, figure_html, image, page_html, table_html
from .ladder import skill_ladder
from .models import load_models, shared_column_docs
from .page import VERDICT_KINDS, Page, Table
from .plugin import game_report, games_in_order, page_order
from .readings import rule_readings
from .sections import game_length, policy_strength, seat_advantage
from .whatif import what_if
from .words import count

GUIDE = "index.html#how-to-read"
# What every game's page shows, in this order (a game's own sections follow; plugin.page_order).
GENERIC_SECTIONS = (seat_advantage, game_length, play_feel, policy_strength, skill_ladder, design_search,
                    parameters_that_matter, rule_readings)

_GLOSSARY = (
    ("Seat 0", "The start player; the others follow in turn order."),
    ("Policy", "A scripted way of playing (each page describes its own). At a one-policy table every seat plays alike, "
               "so differences between seats come from the game."),
    ("Focal, field", "At a table of one player of one policy (the focal player) against players of another (the "
                     "field): how the focal player fares measures the policies, not the seats."),
    ("Set-up", "Players, policies by seat, the rule options changed and the rules versions. Set-ups are never pooled; "
               "a play two runs share counts once."),
    ("Play", "One game from set-up to end: the unit every interval counts, since the seats of a play share its dice."),
    ("Unit of length", "Each game's length is said in one unit, the game's own: build rounds (Die Mauer) or turns."),
    ("Win share", "The fairness measure: a win counts 1, a win shared by k tied players counts 1/k to each, a loss 0; "
                  "the shares of a play sum to 100%."),
    ("Fair share", "What each seat's win share is when the seat does not matter: 1 / players."),
    ("Advantage", "A seat's win share minus the fair share; pp: percentage points (29% against 25% is 4 pp)."),
    ("Win rate", "Wins with a shared win counted whole for each winner: shown only in tables, beside the shared wins, "
                 "never compared with the fair share."),
    ("Balance", "1 minus the gap between the best and the worst seat's win share (100%: all equal), estimated so that "
                "a fair game reads 100% as often as not; its interval never passes 100%."),
    ("Seat test", "Whether any seat's win share differs from the fair share, the seats of a play taken together."),
    ("95% interval", "Where the true value lies with 95% confidence. A difference is called significant when its test, "
                     "adjusted for the other tests of its figure (Holm), has p below 0.05."),
    ("Holm", "A correction for asking many questions at once: the tests of one figure share one 5% chance of a false "
             "alarm, and the adjusted p (p_holm) is shown."),
    ("No change larger than X", "The plays rule out a change larger than X: the 90% interval lies within the margin "
                                "(1 pp for a share, 1% of the mean for anything else)."),
    ("Too few plays to tell", "Neither a change nor its absence is shown: the interval holds both 0 and changes larger "
                              "than the margin. More plays would tell."),
    ("Paired plays", "A What-if variant and its baseline play the same seed, play by play, so a difference comes from "
                     "the rule, not from luck; the pairing gain says how much narrower that makes the interval."),
    ("Play by play", "Two seats (or a variant and its baseline) compared within each play, the interval taken over "
                     "the plays' differences: what both share in a play cancels."),
    ("Effective plays", "How many plays of plain wins and losses would vary as these shares do (ties make shares vary "
                        "less): the size a share's interval rests on."),
    ("Match, build round", "Die Mauer: a build round (Baurunde) is its unit of length; a match is several plays with "
                           "the table positions kept, the first builder moving on each play."),
    ("Observational", "A comparison of seats that chose differently (built there, bought a hotel): it shows what goes "
                      "with winning, not what causes it."),
    ("Fixed opening", "A table whose every play opens the same way (a fixed map, scripted openings): its numbers "
                      "describe that opening, and no verdict rests on it."),
    ("Standing", "What every player at the table can see of how each seat is doing, after each turn (each game "
                 "names its own: cards won, points, pieces placed, penalty points as the table sees them). Nothing "
                 "hidden enters it; the leaders are the seats with the best standing."),
    ("Half-time leader", "The one seat with the best standing after the turn that ends the first half of the play (a "
                         "shared lead has no half-time leader). How often he wins answers \"is the game decided "
                         "early?\", against lines a third and five ninths of the way from a seat's fair share to "
                         "a certain win (at 4 players 1/2 and 2/3): past the upper, mostly; short of the lower, no; "
                         "between, partly."),
    ("Won from last", "The winner had the worst standing at half-time (ties for last included). Chance would give "
                      "the last 1 in n of the wins: at most a fifth of that (at 4 players 5% of plays), comebacks "
                      "are rare; at least two fifths (10%), common; between, sometimes."),
    ("Decided at", "The share of the play before the winner led for good (0: he led after every turn)."),
    ("Skill ladder, rung", "Policies from weakest to strongest (random, the heuristics, search at rising budgets); a "
                           "rung is one of them. The trend of seat 0's advantage is tested over every rung."),
    ("Skill depth", "How many steps up the ladder pay: the stronger rung wins more than 1 pp above the fair share "
                    "against the rung below (Holm over the steps)."),
    ("Share of a fair share", "What each player of the rung below still wins, as a fraction of the fair share: 100% "
                              "when the step up gives no edge, 0% when the rung below never wins."),
    ("Headline", "The game's own main figure a play (Die Mauer: penalty points; a hotel's net yield in Die "
                 "Mauerspechte), the first panel of its What-if figures."),
    ("Kaplan-Meier", "An estimate of how long something takes (a hotel paying back) that counts the plays that "
                     "ended before it happened as 'not yet', not as never."),
    ("Assumed", "A rule parameter or component the rules leave open, chosen by simlib; a designer may override it. "
                "Each page names the assumed components its results rest on at the top."),
)
_GUIDE_HTML = ("<h2 id='how-to-read'>How to read this report</h2><dl>" + "".join(
    f"<dt>{html.escape(term)}</dt><dd>{html.escape(words)}</dd>" for term, words in _GLOSSARY)
    + "</dl><p class='note'>Every estimator is written in words in docs/statistics.md.</p>")


def _nav(pages: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [("index.html", "Overview"), *pages, (GUIDE, "How to read this")]


def _simulated_html(page: Page, stamp: str) -> str:
    """What the page rests on: plays, set-ups, versions and date, then the policies in a sentence each."""
    runs = page.runs
    distinct = int(runs.filter(pl.col("counted"))["n_plays"].sum())
    versions = ", ".join(sorted({f"{games()[name].title} {version}" for text in runs["rules_versions"].unique()
                                 for name, version in json.loads(text).items()}))
    played = set(runs["focal"].drop_nulls()) | set(runs["field"].drop_nulls()) | {
        p for label in runs["setup_label"] for p in page.game.policies() if f" {p}" in label or label.startswith(p)}
    policies = "".join(f"<li><b>{html.escape(name)}</b>: {code_spans(info.description)}</li>"
                       for name, info in page.game.policies().items() if name in played)
    notes = "".join(f"<p class='caveat'>{html.escape(note)}</p>" for note in [*_assumed_components(page), *page.notes])
    return (f"<p>{count(distinct, 'distinct play')} in {count(runs['setup_id'].n_unique(), 'set-up')} "
            f"({count(runs.height, 'run')}); rules versions {html.escape(versions)}, simlib "
            f"{html.escape(', '.join(sorted(runs['simlib_version'].unique().to_list())))}; written {stamp}. "
            f"<a href='{GUIDE}'>How to read this</a>.</p>{notes}<p>The policies:</p><ul>{policies}</ul>")


def _assumed_components(page: Page) -> list[str]:
    """The caveat naming the assumed components (maps, decks, tiles, cards) the page's results rest on, as its runs
    used them."""
    used: dict[str, set[str]] = {}
    for values in page.runs["option_values"].to_list():
        for key, value in json.loads(values).items():
            used.setdefault(key, set()).add(value)
    assumed = [p for p in page.game.parameters().values() if p.component and p.provenance == "assumed"]
    if not assumed:
        return []
    named = "; ".join(f"{p.name} = {', '.join(sorted(used.get(p.name, {str(p.default)})))} ({p.source.rstrip('.')})"
                      for p in assumed)
    return [f"Every result here rests on assumed components, our design where the rules are silent: {named}. "
            f"See the Inputs below and docs/games/{page.game.name}.md."]


def _inputs_html(page: Page) -> str:
    runs = page.runs.sort("players", "label", "run_id")
    assumed = [p for p in page.game.parameters().values() if p.provenance == "assumed" and not p.derived]
    used: dict[str, set[str]] = {}
    for values in runs["option_values"].to_list():
        for key, value in json.loads(values).items():
            used.setdefault(key, set()).add(value)
    rows = "".join(f"<tr><td>{p.name}</td><td>{html.escape(', '.join(sorted(used.get(p.name, {str(p.default)}))))}"
                   f"</td><td>{p.default}</td><td>{html.escape(p.doc)}</td></tr>" for p in assumed)
    repeated = runs.filter(~pl.col("counted")).height
    table = runs.with_columns(pl.when(pl.col("counted")).then(pl.lit("")).otherwise(pl.col("counted_in"))
                              .alias("plays_held_by")).select(
        "label", "n_plays", "seed", "events", "plays_held_by", "run_id", "rules_versions", "simlib_version")
    note = (f"{count(repeated, 'run')} repeat plays another run holds: counted once." if repeated else "")
    return (f"<h2>Inputs</h2><h3>Assumed rule parameters these results depend on</h3><p class='note'>Our choices "
            f"where the rules are silent; override with <code>--option name=value</code>. See "
            f"docs/games/{page.game.name}.md.</p><div class='wide'><table><thead><tr><th>parameter</th>"
            f"<th>value(s) used</th><th>default</th><th>meaning</th></tr></thead><tbody>{rows}</tbody></table></div>"
            + table_html(Table("Runs", table, note, collapsed=True, docs=_column_docs().get("mart_run_setups", {}))))


def _game_html(page: Page, nav: list[tuple[str, str]], stamp: str) -> str:
    figures = "".join(figure_html(f) for f in page.figures)
    tables = "".join(table_html(t) for t in page.tables)
    return page_html(page.game.title, f"<h1>{html.escape(page.game.title)}</h1>{_simulated_html(page, stamp)}"
                                      f"<h2>Figures</h2>{figures}<h2>Tables</h2>{tables}{_inputs_html(page)}", nav)


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
    """The sections a game hands over (its report.py's REPORT; none without one)."""
    return list(game_report(game).sections)


def _read_marts(marts_dir: Path) -> dict[str, pl.DataFrame]:
    return {p.stem: pl.read_parquet(p) for p in sorted(marts_dir.glob("mart_*.parquet"))}


WHAT_IF = "whatif"  # the What-if page's name among the game pages


def _write_what_if(marts_dir: Path, out: Path, nav: list, stamp: str) -> tuple[Path, str]:
    """The What-if page: every game's sweeps (simlib/analysis/whatif.py); its index entry lists one line a sweep."""
    marts = _read_marts(marts_dir)
    all_runs = _read_runs(marts_dir)
    sections, lines = [], []
    swept = set(marts.get("mart_variant_effects", pl.DataFrame({"game": []}))["game"].to_list())
    for game in [g for g in games_in_order() if g.name in swept]:
        page = Page(game, all_runs.filter(pl.col("game") == game.name), marts, _column_docs())
        what_if(page)
        if page.figures:
            sections.append(f"<h2>{html.escape(game.title)}</h2>" + "".join(figure_html(f) for f in page.figures)
                            + "".join(table_html(t) for t in page.tables))
            short = game.title.split(" (")[0]  # "Catan", not "Catan (base game with Seafarers ships)"
            lines += [f"<li><b>{html.escape(short)}</b>, {html.escape(line)}</li>" for line in page.index_lines]
    path = out / f"{WHAT_IF}.html"
    intro = ("<p class='note'>Each sweep runs every variant on the same seed, so play i of a variant and of its "
             "baseline draw the same random numbers wherever the rules let them: differences are measured on "
             "paired plays. Made with <code>simlib sweep</code> or a <code>[[sweep]]</code> in a batch file.</p>")
    _write(path, page_html("What if", f"<h1>What if</h1>{intro}{''.join(sections)}", nav))
    entry = (f"<h2 id='what-if'>What if the rules changed? <a href='{path.name}'>(the What-if page)</a></h2>"
             f"<ul>{''.join(lines)}</ul>")
    return path, entry


def _card(page: Page, path: Path) -> str:
    """The game's card on the index: its lead figure, small, and its verdicts in the index's order."""
    figure = image(page.figures[0]) if page.figures else ""  # shrunk by the card's CSS
    verdicts = "".join(f"<dt>{html.escape(v.question)}</dt><dd>{html.escape(v.answer)}</dd>"
                       for kind in VERDICT_KINDS if (v := page.verdicts.get(kind)))
    distinct = int(page.runs.filter(pl.col("counted"))["n_plays"].sum())
    return (f"<div class='card'><a href='{path.name}'>{figure}</a><div><h2><a href='{path.name}'>"
            f"{html.escape(page.game.title)}</a></h2><dl>{verdicts}</dl><p class='note'>{count(distinct, 'play')}, "
            f"{count(page.runs['setup_id'].n_unique(), 'set-up')}.</p>"
            f"</div></div>")


def _write_page(name: str, marts_dir: Path, out: Path, nav: list, stamp: str) -> tuple[Path, str]:
    """One game's page (or the What-if page); returns its path and its entry on the index. Reads what it needs
    itself, so that pages can be drawn in processes of their own."""
    if name == WHAT_IF:
        return _write_what_if(marts_dir, out, nav, stamp)
    game = games()[name]
    game_runs = _read_runs(marts_dir).filter(pl.col("game") == name)
    page = Page(game, game_runs, _read_marts(marts_dir), _column_docs())
    for section in page_order(list(GENERIC_SECTIONS), game_sections(game)):
        try:
            section(page)
        except Exception as exc:
            raise SimlibError(f"report section {section.__name__} of {name} failed: "
                              f"{type(exc).__name__}: {exc}") from exc
    for figure in page.figures:
        for problem in figure.problems:
            print(f"simlib: warning: {name} figure {figure.name}: {problem}", file=sys.stderr)
    path = out / f"{name}.html"
    _write(path, _game_html(page, nav, stamp))
    return path, _card(page, path)


def _write(path: Path, text: str) -> None:
    """Whole or not at all: a page is written beside its place and moved there (a full disk: one line)."""
    write_bytes_atomic(text.encode(), path)


def build_report(lake: Path, marts_dir: Path, out: Path, workers: int | None = None,
                 progress=None) -> list[Path]:
    """Write `out/index.html` and one self-contained page per game with runs (and the What-if page); returns the
    pages. Pages are drawn by up to `workers` processes (default: one per core); 1 draws them in this process.
    `progress(text)` hears of each page written."""
    marts_dir = marts_dir.resolve()  # one build's marts throughout, though a pipeline publish new ones meanwhile
    runs = _read_runs(marts_dir)
    if runs.is_empty() or not any(marts_dir.glob("mart_*.parquet")):
        raise SimlibError(f"nothing to report: no complete runs in {lake} or no marts in {marts_dir} "
                          f"(simulate first: simlib simulate or simlib batch, then simlib pipeline)")
    check_writable_folder(out, f"the report {out}")
    shutil.rmtree(out / "figures", ignore_errors=True)  # figures are embedded now; an older report's files go
    todo = [g.name for g in games_in_order() if not runs.filter(pl.col("game") == g.name).is_empty()]
    effects = marts_dir / "mart_variant_effects.parquet"
    if effects.exists() and pl.scan_parquet(effects).select(pl.len()).collect().item() > 0:
        todo.append(WHAT_IF)
    nav = _nav([(f"{name}.html", "What if" if name == WHAT_IF else games()[name].title) for name in todo])
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    say = progress or (lambda text: None)
    workers = min(len(todo), workers or os.cpu_count() or 1)
    args = [[x] * len(todo) for x in (marts_dir, out, nav, stamp)]
    if workers > 1:  # pages are independent: drawn side by side (spawned: Polars is not fork-safe)
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=worker_start,
                                 initargs=(os.getpid(),)) as pool:
            written = []
            for name, result in zip(todo, pool.map(_write_page, todo, *args)):
                say(f"page {result[0].name} written")
                written.append(result)
    else:
        written = []
        for name in todo:
            written.append(_write_page(name, marts_dir, out, nav, stamp))
            say(f"page {written[-1][0].name} written")
    cards = "".join(entry for (path, entry), name in zip(written, todo) if name != WHAT_IF)
    what_if_entry = "".join(entry for (path, entry), name in zip(written, todo) if name == WHAT_IF)
    index = page_html("simlib report", f"<h1>simlib report</h1><p class='note'>Written {stamp} by simlib "
                                       f"{__version__} from lake <code>{html.escape(str(lake))}</code>. Each card "
                                       f"answers a game's questions at the set-up named, with 95% intervals; "
                                       f"<a href='{GUIDE}'>how to read this</a>.</p>{cards}"
                                       f"{what_if_entry}{_GUIDE_HTML}", nav)
    _write(out / "index.html", index)
    return [path for path, _ in written]
